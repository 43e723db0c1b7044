/**
 * netperf / netserver (netperf 2.7.1 src/nettest_omni.c send_tcp_stream / send_udp_stream,
 * nettest_bsd.c print_top_test_header, netlib.c establish_control): the layouts, defaults and
 * refusals, on the model (issue 15; NETFLIX18 measured with netperf).
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

function pair(type = 'c7i.large'): Lab {
  const r = parseScenario({
    version: 4,
    instances: [
      { name: 'client', type },
      { name: 'server', type },
    ],
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

describe('netperf against netserver', () => {
  it('without a netserver: establish_control fails on stdout, exit 255', () => {
    const r = new LabSession(pair()).run('netperf -H server -l 1')[0]!;
    expect(r.exitCode).toBe(255);
    expect(r.output).toBe(
      'establish control: are you sure there is a netserver listening on server at port 12865?\n' +
        'establish_control could not establish the control connection from 0.0.0.0 port 0 address family AF_UNSPEC to server port 12865 address family AF_UNSPEC\n',
    );
  });

  it('TCP_STREAM: banner, titles and one result line in 10^6bits/sec; c7i.large bursts near its one-flow limit', () => {
    const s = new LabSession(pair());
    expect(s.run('server: netserver')[0]!.output).toBe(
      "Starting netserver with host 'IN(6)ADDR_ANY' port '12865' and family AF_UNSPEC\n",
    );
    const r = s.run('netperf -H server -l 1')[0]!;
    const lines = r.output.split('\n');
    expect(lines[0]).toBe(
      'MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to server () port 0 AF_INET : demo',
    );
    expect(lines.slice(1, 6)).toEqual([
      'Recv   Send    Send                          ',
      'Socket Socket  Message  Elapsed              ',
      'Size   Size    Size     Time     Throughput  ',
      'bytes  bytes   bytes    secs.    10^6bits/sec  ',
      '',
    ]);
    const m = /^131072 {2}16384 {2}16384 {4}1\.00 {5}( *\d+\.\d\d) {3}$/.exec(lines[6]!);
    expect(m, lines[6]).not.toBeNull();
    const mbps = Number(m![1]);
    expect(mbps).toBeGreaterThan(8000);
    expect(mbps).toBeLessThan(10_000);
    expect((r.result as { throughput: number }).throughput).toBeCloseTo(mbps, 1);
  });

  it('-P 0 drops banner and titles; -v 0 prints the throughput alone; -f g changes the unit', () => {
    const s = new LabSession(pair());
    s.run('server: netserver');
    expect(s.run('netperf -H server -l 1 -P 0')[0]!.output).toMatch(
      /^131072 {2}16384 {2}16384 {4}1\.00 +\d+\.\d\d {3}\n$/,
    );
    expect(s.run('netperf -H server -l 1 -v 0 -P 0')[0]!.output).toMatch(/^ *\d+\.\d\d \n$/);
    expect(s.run('netperf -H server -l 1 -f g')[0]!.output).toContain(
      'bytes  bytes   bytes    secs.    10^9bits/sec  \n',
    );
  });

  it('UDP_STREAM: the sender line and the receiver line', () => {
    const s = new LabSession(pair());
    s.run('server: netserver');
    const out = s.run('netperf -H server -l 1 -t UDP_STREAM -- -m 1472')[0]!.output;
    const lines = out.split('\n');
    expect(lines[0]).toBe(
      'MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to server () port 0 AF_INET : demo',
    );
    expect(lines[1]).toBe('Socket  Message  Elapsed      Messages                ');
    expect(lines[5]).toMatch(/^212992 {4}1472 {3}1\.00 +\d+ {6}0 +\d+\.\d\d$/);
    expect(lines[6]).toMatch(/^212992 {11}1\.00 +\d+ +\d+\.\d\d$/);
  });

  it("TCP_RR: transactions per second in send_tcp_rr's layout; the Xen PV path costs round-trip time", () => {
    const s = new LabSession(pair());
    s.run('server: netserver');
    const out = s.run('netperf -H server -t TCP_RR -l 1')[0]!.output.split('\n');
    expect(out[0]).toBe(
      'MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to server () port 0 AF_INET : demo : first burst 0',
    );
    expect(out.slice(1, 6)).toEqual([
      'Local /Remote',
      'Socket Size   Request  Resp.   Elapsed  Trans.',
      'Send   Recv   Size     Size    Time     Rate         ',
      'bytes  Bytes  bytes    bytes   secs.    per sec   ',
      '',
    ]);
    expect(out[6]).toMatch(/^16384 {2}131072 1 {8}1 {7}1\.00 +\d+\.\d\d {3}$/);
    expect(out[7]).toBe('16384  131072');
    const rate = (enhancedNetworking: boolean) => {
      const r = parseScenario({
        version: 4,
        placement: 'same-az',
        instances: [
          { name: 'client', type: 'c3.8xlarge', enhancedNetworking },
          { name: 'server', type: 'c3.8xlarge', enhancedNetworking },
        ],
      });
      if (!r.ok) throw new Error(r.errors.join('\n'));
      const x = new LabSession(createLab(r.scenario));
      x.run('server: netserver');
      return (x.run('netperf -H server -t TCP_RR -l 1')[0]!.result as { transactionsPerSecond: number })
        .transactionsPerSecond;
    };
    const pv = rate(false);
    const sriov = rate(true);
    // dom0's netback sits on each of the four crossings of a transaction
    expect(pv).toBeLessThan(sriov * 0.8);
  });

  it('refuses what it does not model by name, and an unknown test as netperf does', () => {
    const s = new LabSession(pair());
    s.run('server: netserver');
    expect(s.run('netperf -H server -t UDP_RR')[0]!.output).toContain(
      'netperf: the UDP_RR test is not simulated in ec2-netlab',
    );
    const bad = s.run('netperf -H server -t FOO')[0]!;
    expect(bad.output).toContain('The test you requested (FOO) is unknown to this netperf.');
    expect(bad.exitCode).toBe(1);
    expect(s.run('netperf -H server -c')[0]!.output).toContain('not simulated in ec2-netlab');
  });
});
