/**
 * iperf 2.0.5 (`iperf`, the tool the SRIOV seed measured c3.8xlarge with): the settings block, the
 * Interval/Transfer/Bandwidth reports (Locale.c report_bw_format, byte_snprintf), -P's [SUM], the
 * UDP server report with jitter and Lost/Total, window sizes as Linux reports them, and the refusals.
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

function pair(type = 'c7i.large', enhancedNetworking?: boolean): Lab {
  const en = enhancedNetworking === undefined ? {} : { enhancedNetworking };
  const r = parseScenario({
    version: 4,
    placement: 'same-az',
    instances: [
      { name: 'client', type, ...en },
      { name: 'server', type, ...en },
    ],
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

const SEP = '------------------------------------------------------------';
const BW = /^\[ {2}3\] {2}0\.0- 1\.0 sec {1,2}( ?[\d.]{1,4}) MBytes {1,2}( ?[\d.]{1,4}) (Mbits|Gbits)\/sec$/;

describe('iperf 2: server and TCP client', () => {
  it('without an iperf -s the client prints its settings and connect fails', () => {
    const r = new LabSession(pair()).run('iperf -c server -t 1')[0]!;
    expect(r.exitCode).toBe(1);
    expect(r.output).toBe(
      `${SEP}\nClient connecting to server, TCP port 5001\nTCP window size: 16.0 KByte (default)\n${SEP}\n` +
        'connect failed: Connection refused\n',
    );
  });

  it('iperf -s: its settings block; a second one on the port cannot bind', () => {
    const s = new LabSession(pair());
    expect(s.run('server: iperf -s')[0]!.output).toBe(
      `${SEP}\nServer listening on TCP port 5001\nTCP window size:  128 KByte (default)\n${SEP}\n`,
    );
    const again = s.run('server: iperf -s')[0]!;
    expect(again.exitCode).toBe(1);
    expect(again.output).toBe('bind failed: Address already in use\n');
    expect(s.run('server: iperf -s -u')[0]!.output).toBe(
      `${SEP}\nServer listening on UDP port 5001\nReceiving 1470 byte datagrams\nUDP buffer size:  208 KByte (default)\n${SEP}\n`,
    );
  });

  it('TCP: the connection line, interval reports with -i, the final line over the whole test', () => {
    const s = new LabSession(pair());
    s.run('server: iperf -s');
    const r = s.run('iperf -c server -t 2 -i 1')[0]!;
    const lines = r.output.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      SEP,
      'Client connecting to server, TCP port 5001',
      'TCP window size: 16.0 KByte (default)',
      SEP,
    ]);
    expect(lines[4]).toMatch(/^\[ {2}3\] local 10\.0\.0\.10 port \d+ connected with 10\.0\.0\.11 port 5001$/);
    expect(lines[5]).toBe('[ ID] Interval       Transfer     Bandwidth');
    expect(lines[6]).toMatch(BW);
    expect(lines[7]).toMatch(/^\[ {2}3\] {2}1\.0- 2\.0 sec /);
    const fin = /^\[ {2}3\] {2}0\.0- 2\.0 sec +([\d.]+) (MBytes|GBytes) +([\d.]+) Gbits\/sec$/.exec(
      lines[8]!,
    );
    expect(fin, lines[8]).not.toBeNull();
    // c7i.large: one flow at its 5 Gbps instance limit for the burst
    expect(Number(fin![3])).toBeGreaterThan(4);
    expect(Number(fin![3])).toBeLessThan(5.5);
    expect(lines[9]).toBe('');
  });

  it('-P 2: a line per stream and the [SUM] of both; -f m fixes the unit', () => {
    const s = new LabSession(pair());
    s.run('server: iperf -s');
    const out = s.run('iperf -c server -t 1 -P 2 -f m')[0]!.output;
    const rows = out.split('\n').filter((l) => / 0\.0- 1\.0 sec /.test(l));
    expect(rows).toHaveLength(3);
    const mb = (l: string) => Number(/sec +([\d.]+) MBytes/.exec(l)![1]);
    const rate = (l: string) => Number(/([\d.]+) Mbits\/sec$/.exec(l)![1]);
    expect(rows[0]).toMatch(/^\[ {2}3\]/);
    expect(rows[1]).toMatch(/^\[ {2}4\]/);
    expect(rows[2]).toMatch(/^\[SUM\]/);
    expect(Math.abs(mb(rows[0]!) + mb(rows[1]!) - mb(rows[2]!))).toBeLessThanOrEqual(1);
    expect(Math.abs(rate(rows[0]!) + rate(rows[1]!) - rate(rows[2]!))).toBeLessThanOrEqual(1);
  });

  it('-w: Linux doubles the buffer asked for and iperf says what was requested', () => {
    const s = new LabSession(pair());
    s.run('server: iperf -s');
    expect(s.run('iperf -c server -t 1 -w 128K')[0]!.output).toContain(
      'TCP window size:  256 KByte (WARNING: requested  128 KByte)\n',
    );
  });
});

describe('iperf 2: UDP, the seed SRIOV way (c3.8xlarge, -u -b, 1,470-byte datagrams)', () => {
  const udp = (enhanced: boolean, rate: string) => {
    const s = new LabSession(pair('c3.8xlarge', enhanced));
    s.run('server: iperf -s -u');
    return s.run(`iperf -c server -u -b ${rate} -t 1`)[0]!.output;
  };
  const server = (out: string) => {
    const m =
      /^\[ {2}3\] {2}0\.0- ?[\d.]+ sec +[\d.]+ [KMG]Bytes +[\d.]+ [KMG]bits\/sec +(\d+\.\d{3}) ms +(\d+)\/ *(\d+) \(([\d.e+-]+)%\)$/m.exec(
        out,
      );
    if (!m) throw new Error(out);
    return { jitter: Number(m[1]), lost: Number(m[2]), total: Number(m[3]), pct: Number(m[4]) };
  };

  it('the settings block names the datagram size and the UDP buffer; the report has Sent and the Server Report', () => {
    const out = udp(true, '1G');
    expect(
      out.startsWith(`${SEP}\nClient connecting to server, UDP port 5001\nSending 1470 byte datagrams\n`),
    ).toBe(true);
    expect(out).toContain('UDP buffer size:  208 KByte (default)\n');
    const sent = Number(/^\[ {2}3\] Sent (\d+) datagrams$/m.exec(out)![1]);
    expect(out).toMatch(/^\[ {2}3\] Server Report:$/m);
    const r = server(out);
    // the client also counts the datagram that ends the test
    expect(sent).toBe(r.total + 1);
    expect(r.total).toBeGreaterThan(84_000);
  });

  it('PV loses most past the knee, SR-IOV next to nothing (the seed: loss drastic without SR-IOV)', () => {
    const pv = server(udp(false, '1G'));
    const sr = server(udp(true, '1G'));
    expect(pv.pct).toBeGreaterThan(10);
    expect(sr.pct).toBeLessThan(0.1);
    expect(pv.lost).toBeGreaterThan(100 * Math.max(1, sr.lost));
  });

  it('without an iperf -s -u on the target the lab says so', () => {
    const r = new LabSession(pair('c3.8xlarge', true)).run('iperf -c server -u -b 1G -t 1')[0]!;
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain("iperf: no 'iperf -s -u' listens on server port 5001 in this lab");
  });
});

describe('iperf 2: options it does not model, and bad input', () => {
  it('refuses by name, names the version, and warns about a too short interval', () => {
    const s = new LabSession(pair());
    for (const [line, opt] of [
      ['iperf -c server -d', '-d (a dual test)'],
      ['iperf -c server -r', '-r (a tradeoff test)'],
      ['iperf -c server -M 1400', '-M (setting the MSS)'],
      ['iperf -c server -N', '-N (TCP_NODELAY)'],
    ] as const) {
      const r = s.run(line)[0]!;
      expect(r.exitCode, line).toBe(1);
      expect(r.output).toBe(`iperf: ${opt} is not simulated in ec2-netlab\n`);
    }
    expect(s.run('iperf -v')[0]!.output).toBe('iperf version 2.0.5 (08 Jul 2010) pthreads\n');
    expect(s.run('iperf')[0]!.output).toBe(
      "Usage: iperf [-s|-c host] [options]\nTry `iperf --help' for more information.\n",
    );
    s.run('server: iperf -s');
    const r = s.run('iperf -c server -t 1 -i 0.1')[0]!;
    expect(r.output).toContain('WARNING: interval too small, increasing from 0.10 to 0.5 seconds.\n');
    expect(r.output).toMatch(/^\[ {2}3\] {2}0\.0- 0\.5 sec /m);
  });
});
