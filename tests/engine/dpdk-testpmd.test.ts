/**
 * dpdk-testpmd: option parsing with testpmd's rules and messages, the stream/lcore layout of
 * fwd_config_setup, the output layout, and the port hand-over to the kernel.
 */
import { describe, expect, it } from 'vitest';
import { forwardingLayout } from '../../src/engine/apps/dpdk-testpmd';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { atoi, parseCorelist, parseTestpmd } from '../../src/engine/shell/commands/dpdk-testpmd';
import { parseScenario } from '../../src/scenario/schema';

function lab(type = 'c5n.18xlarge', n = 2) {
  const names = ['client', 'server', 'third'].slice(0, n);
  const parsed = parseScenario({
    version: 1,
    placement: 'cluster',
    instances: names.map((name) => ({ name, type })),
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return createLab(parsed.scenario);
}

const parse = (line: string, l = lab()) =>
  parseTestpmd(line.split(/\s+/).filter(Boolean), l, l.instance('client')!);

function run(lines: string[], l = lab()) {
  const s = new LabSession(l);
  const out = lines.flatMap((x) => s.run(x));
  out.push(...s.close());
  return out;
}

describe('dpdk-testpmd option parsing', () => {
  it('accepts EAL args, -- and testpmd args; defaults as testpmd has them', () => {
    const r = parse('-l 0-12 -n 4 -- --forward-mode=txonly --txq=12 --rxq=12 --nb-cores=12');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const c = r.value.cfg;
    expect(c.mode).toBe('txonly');
    expect(c.fwdLcoreIds).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect([c.txq, c.rxq, c.nbCores, c.burst, c.txPktLen, c.txUdpSrc, c.txUdpDst]).toEqual([
      12, 12, 12, 32, 64, 9, 9,
    ]);
    expect(r.value.parseOut).toContain('Set txonly packet forwarding mode');
    const d = parse('--');
    expect(d.ok && d.value.cfg.mode).toBe('io'); // testpmd's default engine
    expect(d.ok && d.value.cfg.fwdLcoreIds.length).toBe(71); // all 72 vCPUs, main lcore 0 excluded
  });

  it('txq/rxq above the device maximum: the check_nb_txq line, then rte_exit', () => {
    const r = parse('-l 0-3 -- --txq=40');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.out.stderr).toBe(
      "Fail: input txq (40) can't be greater than max_tx_queues (32) of port 0\n" +
        'EAL: Error - exiting with code: 1\n  Cause: txq 40 invalid - must be >= 0 && <= 32\n',
    );
    expect(r.out.exitCode).toBe(1);
    const neg = parse('-- --rxq=-1');
    expect(!neg.ok && neg.out.stderr).toBe(
      'EAL: Error - exiting with code: 1\n  Cause: rxq -1 invalid - must be >= 0 && <= 32\n',
    );
    // c7i.large has 2 queues: the limit follows the device
    const small = parse('-- --txq=4', lab('c7i.large'));
    expect(!small.ok && small.out.stderr).toContain('max_tx_queues (2) of port 0');
  });

  it('numbers follow atoi: "8x" is 8, "x" is 0, and both queue counts 0 is refused', () => {
    expect(atoi('8x')).toBe(8);
    expect(atoi('x')).toBe(0);
    expect(atoi(' -3')).toBe(-3);
    const r = parse('-- --txq=0 --rxq=0');
    expect(!r.ok && r.out.stderr).toContain('Cause: Either rx or tx queues should be non-zero');
  });

  it('--nb-cores, --burst, --txpkts, --tx-ip, --tx-udp errors', () => {
    const e = (line: string) => {
      const r = parse(line);
      return r.ok ? '' : r.out.stderr;
    };
    expect(e('-l 0-4 -- --nb-cores=5')).toContain('Cause: nb-cores should be > 0 and <= 4');
    expect(e('-- --burst=513')).toContain('Cause: burst must be between1 and 512');
    expect(e('-- --burst=0')).toContain('PMD does not recommend a burst size');
    expect(e('-- --txpkts=abc')).toContain('Cause: bad txpkts');
    expect(e('-- --forward-mode=txonly --tx-ip=10.0.0.10')).toContain('Cause: Invalid tx-ip: 10.0.0.10');
    expect(e('-- --forward-mode=txonly --tx-ip=10.0.0.300,10.0.0.11')).toContain(
      'Cause: Invalid source IP address: 10.0.0.300',
    );
    expect(e('-- --tx-udp=70000')).toContain('Cause: Invalid UDP port: 70000');
    expect(e('-- --tx-udp=1,x')).toContain('Cause: Invalid destination UDP port: x');
  });

  it('--txpkts sums segments; oversized segments are given up as set_tx_pkt_segments does', () => {
    const r = parse('-- --forward-mode=txonly --txpkts=64,64');
    expect(r.ok && r.value.cfg.txPktLen).toBe(128);
    const big = parse('-- --forward-mode=txonly --txpkts=9000');
    expect(big.ok && big.value.parseErr).toContain('length[0]=9000 > mbuf_data_size=2176 - give up');
    expect(big.ok && big.value.cfg.txPktLen).toBe(64);
    const ok = parse('-- --mbuf-size=9200 --forward-mode=txonly --txpkts=9000');
    expect(ok.ok && ok.value.cfg.txPktLen).toBe(9000);
    const tiny = parse('-- --forward-mode=txonly --txpkts=40');
    expect(tiny.ok && tiny.value.parseErr).toContain('total packet length=40 < 42 - give up');
  });

  it('forward modes: unknown names warn and keep io; known but unmodelled ones are refused; -i is refused', () => {
    const u = parse('-- --forward-mode=bogus');
    expect(u.ok && u.value.parseErr).toContain('Invalid bogus packet forwarding mode');
    expect(u.ok && u.value.cfg.mode).toBe('io');
    const m = parse('-- --forward-mode=macswap');
    expect(!m.ok && m.out.stderr).toContain('only io, rxonly and txonly are simulated');
    const i = parse('-l 0-1 -- -i');
    expect(!i.ok && i.out.stderr).toContain('interactive mode is not simulated');
    const unk = parse('-- --no-such-option');
    expect(!unk.ok && unk.out.stderr).toContain("dpdk-testpmd: unrecognized option '--no-such-option'");
    expect(!unk.ok && unk.out.stderr).toContain('Cause: Command line is incomplete or incorrect');
    const pre = parse('-- --forward=txonly'); // getopt_long accepts a unique prefix
    expect(pre.ok && pre.value.cfg.mode).toBe('txonly');
    const notSim = parse('-- --enable-lro');
    expect(!notSim.ok && notSim.out.stderr).toContain('option --enable-lro is not simulated');
  });

  it('EAL: core lists, unavailable lcores, options after a missing --', () => {
    expect(parseCorelist('0-3,8,10-11')).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(parseCorelist('3-1')).toBeNull();
    const r = parse('-l 0-80 --');
    expect(!r.ok && r.out.stderr).toBe(
      "EAL: lcore 72 unavailable\nEAL: Invalid 'command line' arguments.\nEAL: Error - exiting with code: 1\n  Cause: Cannot init EAL: Invalid argument\n",
    );
    const noSep = parse('-l 0-3 --txq=2');
    expect(!noSep.ok && noSep.out.stderr).toContain("unrecognized option '--txq=2'");
    const mask = parse('-c 0x7 --');
    expect(mask.ok && mask.value.cfg.fwdLcoreIds).toEqual([1, 2]);
  });

  it('txonly addresses: the lab defaults to this instance -> the other one, refuses a foreign source', () => {
    const r = parse('-- --forward-mode=txonly');
    expect(r.ok && [r.value.cfg.txIpSrc, r.value.cfg.txIpDst]).toEqual(['10.0.0.10', '10.0.0.11']);
    expect(r.ok && r.value.notes.join()).toContain('198.18.0.1 -> 198.18.0.2 is not routable');
    const foreign = parse('-- --forward-mode=txonly --tx-ip=198.18.0.1,10.0.0.11');
    expect(!foreign.ok && foreign.out.stderr).toContain('source/destination check');
    const three = parse('-- --forward-mode=txonly', lab('c5n.18xlarge', 3));
    expect(!three.ok && three.out.stderr).toContain('give --tx-ip=SRC,DST');
  });
});

describe('forwarding layout (fwd_config_setup)', () => {
  const ids = Array.from({ length: 32 }, (_, i) => i + 1);
  it('rxq > 1 and txq > 1: min(rxq, txq) streams spread over the lcores, extras on the last lcores', () => {
    const l = forwardingLayout(8, 8, 3, ids);
    expect(l.lcores).toEqual([1, 2, 3]);
    expect(l.streams.map((s) => s.lcore)).toEqual([1, 1, 2, 2, 2, 3, 3, 3]);
    expect(l.streams.map((s) => s.txQueue)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
  it('otherwise one stream on queue 0 (so --txq=8 alone uses one queue, as in real testpmd)', () => {
    const l = forwardingLayout(1, 8, 8, ids);
    expect(l.streams).toEqual([{ rxQueue: 0, txQueue: 0, lcore: 1 }]);
    expect(l.lcores).toEqual([1]);
  });
});

describe('dpdk-testpmd runs', () => {
  it('prints the real start-up and stop layout and hands eth0 back to the kernel', () => {
    const l = lab();
    const runs = run(['timeout 0.01 dpdk-testpmd -l 0-1 -- --forward-mode=txonly'], l);
    const r = runs[0]!;
    expect(r.exitCode).toBe(124);
    expect(r.output).toContain('No commandline core given, start packet forwarding\n');
    expect(r.output).toContain(
      'txonly packet forwarding - ports=1 - cores=1 - streams=1 - NUMA support enabled, MP allocation mode: native\n',
    );
    expect(r.output).toContain('  packet len=64 - nb packet segments=1\n');
    expect(r.output).toContain('Telling cores to stop...\nWaiting for lcores to finish...\n');
    expect(r.output).toMatch(
      /\n {2}-{22} Forward statistics for port 0 {2}-{22}\n {2}RX-packets: \d+ +RX-dropped: \d+ +RX-total: \d+\n {2}TX-packets: \d+ +TX-dropped: \d+ +TX-total: \d+\n/,
    );
    expect(r.output).toContain('+++++++++++++++ Accumulated forward statistics for all ports+++++++++++++++');
    expect(r.output).toContain('\nBye...\n');
    const res = r.result as { ports: Array<{ txPackets: number; txPps: number }> };
    // one queue, 10 ms: ≈ 1 Mpps
    expect(res.ports[0]!.txPackets).toBeGreaterThan(9_000);
    expect(res.ports[0]!.txPackets).toBeLessThan(11_000);
    // the kernel has eth0 again: a UDP iperf3 from the client reaches the server without loss
    const after = run(['iperf3 -c server -u -b 10M -t 1 -J'], l)[0]!;
    expect(after.exitCode).toBe(0);
    const sum = (after.result as { end: { sum: { packets: number; lost_packets: number } } }).end.sum;
    expect(sum.packets).toBeGreaterThan(0);
    expect(sum.lost_packets).toBe(0);
  });

  it('a second testpmd on the same instance fails as a second DPDK primary process does', () => {
    const runs = run([
      'dpdk-testpmd -l 0-1 -- --forward-mode=rxonly &',
      'dpdk-testpmd -l 2-3 -- --forward-mode=rxonly',
    ]);
    const second = runs.find((r) => r.command.startsWith('dpdk-testpmd -l 2-3'))!;
    expect(second.exitCode).toBe(1);
    expect(second.output).toContain('Is another primary process running?');
  });

  it('--stats-period prints the NIC statistics block with the throughput since the last show', () => {
    const runs = run(['timeout 2.5 dpdk-testpmd -l 0-1 -- --forward-mode=txonly --stats-period 1']);
    const out = runs[0]!.output;
    expect(out).not.toContain('Press enter to exit');
    expect(out.split('Port statistics ====================================').length - 1).toBe(2);
    expect(out).toContain('  ######################## NIC statistics for port 0  ########################\n');
    const tx = [...out.matchAll(/Tx-pps: +(\d+) +Tx-bps: +(\d+)/g)].map((m) => Number(m[1]));
    expect(tx[0]).toBe(0); // first show: no previous sample
    expect(tx[1]).toBeGreaterThan(950_000);
    expect(tx[1]).toBeLessThan(1_050_000);
  });
});
