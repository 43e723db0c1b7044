/**
 * The link-local allowance (docs/domain-facts.md §2.4): 1024 packets/s per ENI to the VPC resolver (and
 * IMDS, Time Sync), excess dropped and counted in linklocal_allowance_exceeded. Driven by dnsperf
 * and dig through the host stack and the Nitro card.
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import { defaultScenario } from '../../src/scenario/schema';

function counter(lab: Lab, name: string): number {
  const o = execLine(lab, lab.instance('client')!, 'ethtool -S eth0');
  if (o.kind !== 'done') throw new Error('ethtool must finish at once');
  const m = new RegExp(`^\\s+${name}: (\\d+)$`, 'm').exec(o.out.stdout);
  return m ? Number(m[1]) : 0;
}

function stat(out: string, label: string): number {
  const m = new RegExp(`${label}:\\s+(\\d+)`).exec(out);
  if (!m) throw new Error(`no "${label}" in\n${out}`);
  return Number(m[1]);
}

describe('link-local allowance: 1024 pps per ENI to the VPC resolver', () => {
  it('dnsperf at 5000 qps: about 5000 − 1024 = 3976 queries a second are dropped and counted', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    const seconds = 4;
    const r: RunRecord = s.run(`dnsperf -s 10.0.0.2 -d queries.txt -Q 5000 -l ${seconds} -q 30000`)[0]!;
    expect(r.exitCode).toBe(0);
    const sent = stat(r.output, 'Queries sent');
    const lost = stat(r.output, 'Queries lost');
    const completed = stat(r.output, 'Queries completed');
    expect(sent).toBe(5000 * seconds);
    expect(sent).toBe(lost + completed);
    const droppedPerS = lost / seconds;
    expect(droppedPerS).toBeGreaterThan(3976 * 0.98);
    expect(droppedPerS).toBeLessThan(3976 * 1.01);
    expect(counter(lab, 'linklocal_allowance_exceeded')).toBe(lost);
    expect(r.output).toMatch(/Queries per second: {3}10\d\d\.\d{6}\n/);
  });

  it('dnsperf at 500 qps: nothing is dropped', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    const r = s.run('dnsperf -s 169.254.169.253 -d queries.txt -Q 500 -l 4')[0]!;
    expect(stat(r.output, 'Queries sent')).toBe(2000);
    expect(stat(r.output, 'Queries completed')).toBe(2000);
    expect(stat(r.output, 'Queries lost')).toBe(0);
    expect(counter(lab, 'linklocal_allowance_exceeded')).toBe(0);
  });

  it('the allowance is per ENI: the server’s counter stays at zero while the client’s rises', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    s.run('dnsperf -s 10.0.0.2 -d queries.txt -Q 3000 -l 1 -q 10000');
    expect(counter(lab, 'linklocal_allowance_exceeded')).toBeGreaterThan(1500);
    expect(lab.instance('server')!.nitro.counters().linklocal_allowance_exceeded).toBe(0);
  });
});

describe('dnsperf output and errors', () => {
  it('prints the status lines and the statistics in dnsperf’s layout', () => {
    const lab = createLab(defaultScenario());
    const r = new LabSession(lab).run('dnsperf -s 10.0.0.2 -d queries.txt -Q 100 -l 1')[0]!;
    expect(
      r.output.startsWith(
        'DNS Performance Testing Tool\nVersion 2.14.0\n\n[Status] Command line: dnsperf -s 10.0.0.2 -d queries.txt -Q 100 -l 1\n[Status] Sending queries (to 10.0.0.2:53)\n[Status] Started at: Mon Dec  2 17:00:00 2024\n[Status] Stopping after 1.000000 seconds\n[Status] Testing complete (time limit)\n\nStatistics:\n\n  Queries sent:         100\n  Queries completed:    100 (100.00%)\n  Queries lost:         0 (0.00%)\n\n  Response codes:       NOERROR 100 (100.00%)\n',
      ),
    ).toBe(true);
    expect(r.output).toMatch(
      / {2}Average Latency \(s\): {2}0\.000\d{3} \(min 0\.000\d{3}, max 0\.000\d{3}\)\n {2}Latency StdDev \(s\): {3}0\.\d{6}\n\n$/,
    );
  });

  it('a file the lab does not have, stdin, another server: refused', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    const a = s.run('dnsperf -s 10.0.0.2 -d /tmp/nope.txt')[0]!;
    expect(a.stderr).toBe('Error: unable to open file: /tmp/nope.txt\n');
    expect(a.exitCode).toBe(1);
    expect(s.run('dnsperf -s 10.0.0.2')[0]!.stderr).toContain('reading queries from stdin is not simulated');
    expect(s.run('dnsperf -s 10.0.0.11 -d queries.txt')[0]!.stderr).toContain('only the VPC resolver');
    expect(s.run('dnsperf -s 10.0.0.2 -d queries.txt -Q abc')[0]!.exitCode).toBe(1);
  });
});

describe('dig against the VPC resolver', () => {
  it('answers an instance name with dig’s layout', () => {
    const lab = createLab(defaultScenario());
    const r = new LabSession(lab).run('dig server')[0]!;
    expect(r.exitCode).toBe(0);
    expect(r.output).toMatch(
      /^\n; <<>> DiG 9\.18\.33 <<>> server\n;; global options: \+cmd\n;; Got answer:\n;; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: \d+\n;; flags: qr rd ra; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 4096\n;; QUESTION SECTION:\n;server\.\t\t\tIN\tA\n\n;; ANSWER SECTION:\nserver\.\t\t\t60\tIN\tA\t10\.0\.0\.11\n\n;; Query time: 0 msec\n;; SERVER: 10\.0\.0\.2#53\(10\.0\.0\.2\) \(UDP\)\n;; WHEN: Mon Dec 02 17:00:00 UTC 2024\n;; MSG SIZE {2}rcvd: 51\n\n$/,
    );
    // the query took one link-local token and went through the card
    expect(lab.instance('client')!.nitro.counters().linklocal_allowance_exceeded).toBe(0);
  });

  it('EC2 names, +short, NXDOMAIN, bad server', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    expect(s.run('dig @169.254.169.253 ip-10-0-0-11.ec2.internal +short')[0]!.output).toBe('10.0.0.11\n');
    expect(s.run('dig nosuch.example.com')[0]!.output).toContain('status: NXDOMAIN');
    const bad = s.run('dig @nosuchserver server')[0]!;
    expect(bad.exitCode).toBe(10);
    expect(bad.stderr).toBe("dig: couldn't get address for 'nosuchserver': not found\n");
    expect(s.run('dig +bogus server')[0]!.stderr).toMatch(/^Invalid option: \+bogus\n/);
  });

  it('with the allowance exhausted by dnsperf, dig loses tries: timed out, retried every 5 s', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    s.run('dnsperf -s 10.0.0.2 -d queries.txt -Q 20000 -l 17 -q 65536 &');
    s.run('sleep 1');
    const r = s.run('dig server')[0]!;
    // 20 queries/ms against 1 token/ms: dig's query rarely finds a token
    expect(r.output).toContain(';; communications error to 10.0.0.2#53: timed out\n');
    if (r.exitCode === 9) {
      expect(r.output).toMatch(
        /(;; communications error to 10\.0\.0\.2#53: timed out\n){3};; no servers could be reached\n$/,
      );
      expect((r.endNs - r.startNs) / 1e9).toBeCloseTo(15, 1);
    } else {
      expect(r.exitCode).toBe(0);
      expect(r.output).toContain(';; ANSWER SECTION:');
    }
    expect(counter(lab, 'linklocal_allowance_exceeded')).toBeGreaterThan(19000 * 4);
    s.close();
  });
});
