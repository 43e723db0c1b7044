/**
 * `npx tsx tests/bench/fingerprint.ts [lab] > out.txt`: what a set of labs print, to check that a
 * speed change leaves the model's behaviour alone (compare the files of two builds byte for byte;
 * stderr gives a hash per lab and of all). Per-packet and batched TCP, UDP, small packets on a large
 * type, several flows over a small one, credits running down, ping with fragments, DPDK testpmd, the
 * Xen path, request/response (netperf, ab); each ends with both ends' ethtool -S, tc -s qdisc and
 * ip -s link. Times are simulated, so the output is a pure function of the code.
 */
import { createHash } from 'node:crypto';
import { createLab, runScript } from '../../src/engine/index';
import { parseScenario } from '../../src/scenario/schema';

interface FingerprintLab {
  name: string;
  scenario: Record<string, unknown>;
  script: string[];
}

const pair = (type: string, extra: Record<string, unknown> = {}) => ({
  instances: [
    { name: 'client', type },
    { name: 'server', type },
  ],
  ...extra,
});
const perPacket = { settings: { batch: 1 } };
const TAIL = [
  'ethtool -S eth0',
  'server: ethtool -S eth0',
  'tc -s qdisc show dev eth0',
  'server: tc -s qdisc show dev eth0',
  'ip -s link show dev eth0',
  'server: ip -s link show dev eth0',
];

const LABS: FingerprintLab[] = [
  {
    name: 'tcp-per-packet',
    scenario: pair('c7i.large', perPacket),
    script: ['iperf3 -c server -t 2 -l 9000 -P 2 -J'],
  },
  { name: 'tcp-batched', scenario: pair('c7i.large'), script: ['iperf3 -c server -t 3 -l 9000 -P 2 -J'] },
  { name: 'tcp-p8', scenario: pair('c7i.large', perPacket), script: ['iperf3 -c server -t 1 -P 8 -J'] },
  {
    name: 'tcp-cluster',
    scenario: pair('c7i.large', { placement: 'cluster', ...perPacket }),
    script: ['iperf3 -c server -t 1 -l 9000 -P 1 -J'],
  },
  {
    name: 'udp-per-packet',
    scenario: pair('c7i.large', perPacket),
    script: ['iperf3 -c server -u -b 20G -P 4 -t 1 -J'],
  },
  {
    name: 'udp-small',
    scenario: pair('c5n.18xlarge'),
    script: ['iperf3 -c server -u -b 30G -l 64 -P 8 -t 1 -J'],
  },
  {
    name: 'tcp-reverse',
    scenario: pair('m5.large', perPacket),
    script: ['iperf3 -c server -t 1 -P 8 -R -J'],
  },
  { name: 'credits', scenario: pair('c7i.large'), script: ['iperf3 -c server -t 40 -l 9000 -P 2 -J'] },
  {
    name: 'ping',
    scenario: pair('c7i.large', perPacket),
    script: ['ping -c 5 server', 'ping -c 3 -s 20000 server'],
  },
  {
    name: 'testpmd',
    scenario: pair('c5n.18xlarge'),
    script: [
      'server: dpdk-testpmd -l 0-8 -- --forward-mode=rxonly --rxq=8 --txq=8 --nb-cores=8 &',
      'dpdk-testpmd -l 0-8 -- --forward-mode=txonly --txq=8 --rxq=8 --nb-cores=8 --txpkts=64 --stats-period 1 &',
      'sleep 1',
      'server: sar -n DEV 1 1',
    ],
  },
  { name: 'xen', scenario: pair('c3.8xlarge', perPacket), script: ['iperf3 -c server -t 1 -P 2 -J'] },
  {
    name: 'request-response',
    scenario: pair('c7i.large', perPacket),
    script: ['netperf -H server -t TCP_RR -l 1', 'ab -n 300 -c 10 http://server/64k'],
  },
];

const only = process.argv[2];
if (only !== undefined && !LABS.some((l) => l.name === only)) {
  process.stderr.write(`fingerprint: no lab '${only}' (${LABS.map((l) => l.name).join(', ')})\n`);
  process.exit(2);
}
const all = createHash('sha256');
for (const l of LABS) {
  if (only !== undefined && l.name !== only) continue;
  const parsed = parseScenario({ version: 1, ...l.scenario } as never);
  if (!parsed.ok) throw new Error(`${l.name}: ${parsed.errors.join('; ')}`);
  const lab = createLab(parsed.scenario);
  let text = `## ${l.name}\n`;
  for (const r of runScript(lab, [...l.script, ...TAIL]))
    text += `$ ${r.host}: ${r.command} [${r.exitCode}] ${r.startNs}-${r.endNs}\n${r.output}\n${JSON.stringify(r.result)}\n`;
  text += `now ${lab.sched.now}\n`;
  process.stdout.write(text);
  all.update(text);
  process.stderr.write(`${l.name} ${createHash('sha256').update(text).digest('hex').slice(0, 16)}\n`);
}
process.stderr.write(`all ${all.digest('hex').slice(0, 16)}\n`);
