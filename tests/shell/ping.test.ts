/** ping (iputils): ICMP echo on the full Nitro path every packet, iputils' output and errors. */
import { describe, expect, it } from 'vitest';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { fmtRtt, rttSummary } from '../../src/engine/shell/commands/ping';
import { cG } from '../../src/engine/shell/commands/printf';
import { defaultScenario } from '../../src/scenario/schema';

describe('ping', () => {
  it('prints iputils’ lines; every request and reply takes the processing path on both cards', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    const r = s.run('ping -c 4 -i 0.2 server')[0]!;
    expect(r.exitCode).toBe(0);
    expect(r.output).toMatch(
      /^PING server \(10\.0\.0\.11\) 56\(84\) bytes of data\.\n(64 bytes from ip-10-0-0-11\.ec2\.internal \(10\.0\.0\.11\): icmp_seq=\d ttl=64 time=0\.\d{3} ms\n){4}\n--- server ping statistics ---\n4 packets transmitted, 4 received, 0% packet loss, time \d+ms\nrtt min\/avg\/max\/mdev = [\d.]+\/[\d.]+\/[\d.]+\/[\d.]+ ms\n$/,
    );
    for (const host of ['client', 'server']) {
      const st = lab.instance(host)!.nitro.flowStats;
      expect(st.slowPathPackets).toBe(8); // 4 requests + 4 replies, none accelerated
      expect(st.acceleratedPackets).toBe(0);
    }
    expect(s.run('lab nitro show client')[0]!.output).toMatch(
      /icmp 10\.0\.0\.10 ↔ 10\.0\.0\.11 +Established +tracked/,
    );
  });

  it('round trips vary as real ones do (each end’s interrupt and wakeup, hostRxWakeupMeanNs): mdev of tens of µs in a cluster placement group, the same bytes for the same seed', () => {
    const run = (params = {}) =>
      new LabSession(createLab({ ...defaultScenario(), params })).run('ping -c 20 -i 0.2 server')[0]!.output;
    const out = run();
    const [min = 0, avg = 0, max = 0, mdev = 0] = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+) ms/
      .exec(out)!
      .slice(1)
      .map(Number);
    const times = [...out.matchAll(/time=([\d.]+) ms/g)].map((m) => Number(m[1]));
    expect(new Set(times).size).toBeGreaterThan(10);
    expect(mdev).toBeGreaterThanOrEqual(0.005);
    expect(mdev).toBeLessThanOrEqual(0.05);
    expect(max - min).toBeGreaterThan(0.01);
    // the floor is the model's path (fabric, cards, stacks); the wakeups only add
    expect(min).toBeGreaterThanOrEqual(0.052);
    expect(avg).toBeLessThan(0.15);
    // deterministic: the seed's stream
    expect(run()).toBe(out);
    // the mechanism, switched off, gives the path alone: every round trip the same
    expect(run({ hostRxWakeupMeanNs: 0 })).toMatch(/= 0\.052\/0\.052\/0\.052\/0\.000 ms/);
  });

  it('the RTT is larger than a TCP packet’s: four slow-path services per round trip', () => {
    const lab = createLab({ ...defaultScenario(), params: { nitroSlowPathNs: 20_000 } });
    const r = new LabSession(lab).run('ping -c 1 -q 10.0.0.11')[0]!;
    const avg = Number(/= [\d.]+\/([\d.]+)\//.exec(r.output)![1]);
    expect(avg).toBeGreaterThan(0.08); // ≥ 4 × 20 µs on top of the fabric
  });

  it('-s changes the sizes; -q prints only the summary; dropped by the security group: 100% loss, exit 1', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    expect(s.run('ping -c 1 -s 1000 -q server')[0]!.output).toMatch(
      /^PING server \(10\.0\.0\.11\) 1000\(1028\) bytes of data\.\n\n---/,
    );
    // the earlier ping's conntrack entry would keep ICMP flowing after a revoke (tracked): a fresh lab
    const lab2 = createLab(defaultScenario());
    const s2 = new LabSession(lab2);
    const sg = lab2.scenario.vpc.SecurityGroups[0]!.GroupId;
    s2.run(`aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol all --source-group ${sg}`);
    const r = s2.run('ping -c 2 -i 0.5 -W 1 server')[0]!;
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('2 packets transmitted, 0 received, 100% packet loss');
    expect(r.output).not.toContain('rtt min');
  });

  it('errors as iputils prints them', () => {
    const s = new LabSession(createLab(defaultScenario()));
    const a = s.run('ping nosuchhost')[0]!;
    expect(a.stderr).toBe('ping: nosuchhost: Name or service not known\n');
    expect(a.exitCode).toBe(2);
    expect(s.run('ping -j server')[0]!.stderr).toMatch(/^ping: invalid option -- 'j'\n/);
    expect(s.run('ping')[0]!.stderr).toBe('ping: usage error: Destination address required\n');
    expect(s.run('ping -c 0 server')[0]!.exitCode).toBe(1);
  });

  it('time= precision follows the RTT’s magnitude', () => {
    expect(fmtRtt(52)).toBe('0.052');
    expect(fmtRtt(1234)).toBe('1.23');
    expect(fmtRtt(12345)).toBe('12.3');
    expect(fmtRtt(123456)).toBe('123');
  });

  it('the reply lines and the rtt line agree: both from the same whole-µs trip times', () => {
    // (before, the lines rounded fractional µs and the rtt line truncated them: here a line said
    // time=0.137 while the rtt line's max said 0.136)
    const out = new LabSession(createLab(defaultScenario())).run('ping -c 50 -i 0.01 server')[0]!.output;
    // below 1 ms a line prints the trip time exactly (time=0.076 is 76 µs)
    const us = [...out.matchAll(/time=0\.(\d{3}) ms/g)].map((m) => Number(m[1]));
    expect(us).toHaveLength(50);
    const [min, avg, max, mdev] = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+) ms/.exec(out)!.slice(1);
    const mean = us.reduce((a, b) => a + b, 0) / us.length;
    expect(Number(min) * 1000).toBe(Math.min(...us));
    expect(Number(max) * 1000).toBe(Math.max(...us));
    expect(Number(avg) * 1000).toBe(Math.trunc(mean));
    const sd = Math.sqrt(us.reduce((a, b) => a + (b - mean) ** 2, 0) / us.length);
    expect(Math.abs(Number(mdev) * 1000 - sd)).toBeLessThanOrEqual(1);
  });

  it('rtt line: iputils 20240117 arithmetic (avg truncated, mdev the integer square root of the integer variance)', () => {
    // 1, 2, 2 µs: sum 5, avg 1 (5/3 truncated); variance (9 − 25/3) / 3 = 0.22 → 0 → mdev 0
    expect(rttSummary([1, 2, 2])).toBe('rtt min/avg/max/mdev = 0.001/0.001/0.002/0.000 ms');
    // 100, 300 µs: avg 200, variance (100000 − 80000) / 2 = 10000 → mdev 100
    expect(rttSummary([100, 300])).toBe('rtt min/avg/max/mdev = 0.100/0.200/0.300/0.100 ms');
    // 1000, 1003 µs: variance 2.25 → 2 → llsqrt 1 (not 1.5)
    expect(rttSummary([1000, 1003])).toBe('rtt min/avg/max/mdev = 1.000/1.001/1.003/0.001 ms');
    expect(rttSummary([123456])).toBe('rtt min/avg/max/mdev = 123.456/123.456/123.456/0.000 ms');
  });

  it('packet loss as iputils prints it ("%g%%" of a float)', () => {
    expect(cG(Math.fround((1 * 100) / 3), 6)).toBe('33.3333');
    expect(cG(Math.fround((2 * 100) / 3), 6)).toBe('66.6667');
    expect(cG(Math.fround((1 * 100) / 8), 6)).toBe('12.5');
    expect(cG(Math.fround(0), 6)).toBe('0');
    expect(cG(Math.fround(100), 6)).toBe('100');
  });
});
