/**
 * tcpdump: the lines of a TCP exchange (SYN, SYN-ACK, data, FIN) byte for byte; the pcap file read
 * back by the real tcpdump 4.99 (Debian's, installed by `npm test`'s pretest) gives the same text
 * in every output mode we print, and libpcap's filters select the same packets as ours.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InteractiveSession } from '../../src/engine/session/interactive-session';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { parseFilter } from '../../src/engine/shell/commands/tcpdump';
import { fileText } from '../../src/engine/lab/files';
import { defaultScenario } from '../../src/scenario/schema';

const stdout = (r: RunRecord) => r.output.slice(0, r.output.length - r.stderr.length);

const EXCHANGE = [
  '17:00:00.000000 IP 10.0.0.10.45000 > 10.0.0.11.5201: Flags [S], seq 3368280578, win 62727, options [mss 8961,sackOK,TS val 129852775 ecr 0,nop,wscale 7], length 0',
  '17:00:00.000048 IP 10.0.0.11.5201 > 10.0.0.10.45000: Flags [S.], seq 3385791004, ack 3368280579, win 62727, options [mss 8961,sackOK,TS val 1787649422 ecr 129852775,nop,wscale 7], length 0',
  '17:00:00.000048 IP 10.0.0.10.45000 > 10.0.0.11.5201: Flags [.], seq 1:8950, ack 1, win 24576, options [nop,nop,TS val 129852775 ecr 1787649422], length 8949',
  '17:00:00.000049 IP 10.0.0.10.45000 > 10.0.0.11.5201: Flags [P.], seq 8950:17899, ack 1, win 24576, options [nop,nop,TS val 129852775 ecr 1787649422], length 8949',
  '17:00:00.000095 IP 10.0.0.11.5201 > 10.0.0.10.45000: Flags [.], ack 17899, win 24576, options [nop,nop,TS val 1787649422 ecr 129852775], length 0',
  '17:00:00.000095 IP 10.0.0.10.45000 > 10.0.0.11.5201: Flags [P.], seq 17899:20001, ack 1, win 24576, options [nop,nop,TS val 129852775 ecr 1787649422], length 2102',
  '17:00:00.000096 IP 10.0.0.10.45000 > 10.0.0.11.5201: Flags [F.], seq 20001, ack 1, win 24576, options [nop,nop,TS val 129852775 ecr 1787649422], length 0',
  '17:00:00.000143 IP 10.0.0.11.5201 > 10.0.0.10.45000: Flags [F.], seq 1, ack 20002, win 24576, options [nop,nop,TS val 1787649422 ecr 129852775], length 0',
  '17:00:00.000143 IP 10.0.0.10.45000 > 10.0.0.11.5201: Flags [.], ack 2, win 24576, options [nop,nop,TS val 129852775 ecr 1787649422], length 0',
].map((l) => `${l}\n`);

describe('tcpdump lines', () => {
  it('a TCP connection’s SYN, SYN-ACK, data, FIN exchange as tcpdump -nn prints it', () => {
    const s = new LabSession(createLab(defaultScenario()));
    const recs = [
      ...s.run('tcpdump -nn -i eth0 port 5201 &'),
      ...s.run('iperf3 -c server -n 20000 -l 10000 > /dev/null'),
      ...s.run('sleep 0.1'),
      ...s.close(),
    ];
    const cap = recs.find((r) => r.command.startsWith('tcpdump') && r.endNs > r.startNs)!;
    expect(stdout(cap)).toBe(EXCHANGE.join(''));
    // the banner comes with bash's [1] line; the session's end interrupts it, as Ctrl-C would
    expect(recs[0]!.stderr).toBe(
      '[1] 1001\ntcpdump: verbose output suppressed, use -v[v]... for full protocol decode\nlistening on eth0, link-type EN10MB (Ethernet), snapshot length 262144 bytes\n',
    );
    expect(cap.stderr).toBe(
      '\n9 packets captured\n9 packets received by filter\n0 packets dropped by kernel\n[1]+  Interrupt               tcpdump -nn -i eth0 port 5201\n',
    );
  });

  it('the receiver sees the packets later (RX: when NAPI takes them), -c stops the capture', () => {
    const s = new LabSession(createLab(defaultScenario()));
    const recs = [
      ...s.run('server: tcpdump -nn -c 2 &'),
      ...s.run('iperf3 -c server -n 20000 -l 10000 > /dev/null'),
      ...s.run('sleep 0.1'),
      ...s.close(),
    ];
    const cap = recs.find((r) => r.host === 'server' && /packets captured/.test(r.stderr))!;
    const ls = stdout(cap).split('\n').filter(Boolean);
    expect(ls).toHaveLength(2);
    expect(ls[0]).toMatch(
      /^17:00:00\.0000(1\d|[2-4]\d) IP 10\.0\.0\.10\.45000 > 10\.0\.0\.11\.5201: Flags \[S\], seq 3368280578,/,
    );
    expect(ls[1]).toMatch(/ IP 10\.0\.0\.11\.5201 > 10\.0\.0\.10\.45000: Flags \[S\.\]/);
    expect(cap.stderr).toMatch(/^2 packets captured\n/); // ended by -c: no newline after a ^C
  });

  it('in the terminal the banner shows first, then the lines as they are captured', () => {
    const s = new InteractiveSession(createLab(defaultScenario()));
    s.submit('tcpdump -nn -c 3');
    expect(s.drainOutput().map((c) => c.stream)).toEqual(['input', 'stderr']);
    const t = new InteractiveSession(createLab(defaultScenario()));
    t.submit('iperf3 -c server -n 20000 -l 10000 > /dev/null &');
    t.submit('tcpdump -nn -c 3');
    t.advance(0.1e9);
    const out = t.transcript
      .filter((c) => c.stream !== 'input' && !c.text.startsWith('[1]'))
      .map((c) => `${c.stream}:${c.text}`);
    expect(out[0]).toMatch(/^stderr:tcpdump: verbose output suppressed/);
    expect(out.at(-1)).toBe(
      'stderr:3 packets captured\n3 packets received by filter\n0 packets dropped by kernel\n',
    );
    expect(out.slice(1, -1).join('')).toMatch(/^stdout:\d\d:\d\d:\d\d\.\d{6} IP 10\.0\.0\.1[01]\./);
  });

  it('-i any prints the direction as LINUX_SLL2 captures do (format checked with tcpdump 4.99.3 on an SLL2 file)', () => {
    const s = new LabSession(createLab(defaultScenario()));
    const recs = [
      ...s.run('tcpdump -nn -i any -c 2 &'),
      ...s.run('iperf3 -c server -n 20000 -l 10000 > /dev/null'),
      ...s.run('sleep 0.1'),
      ...s.close(),
    ];
    expect(recs[0]!.stderr).toContain(
      'listening on any, link-type LINUX_SLL2 (Linux cooked v2), snapshot length 262144 bytes\n',
    );
    const cap = recs.find((r) => /packets captured/.test(r.stderr))!;
    const ls = stdout(cap).split('\n').filter(Boolean);
    expect(ls[0]).toMatch(
      /^17:00:00\.000000 eth0 {2}Out IP 10\.0\.0\.10\.45000 > 10\.0\.0\.11\.5201: Flags \[S\],/,
    );
    expect(ls[1]).toMatch(
      /^17:00:00\.\d{6} eth0 {2}In {2}IP 10\.0\.0\.11\.5201 > 10\.0\.0\.10\.45000: Flags \[S\.\],/,
    );
  });

  it('errors and refusals', () => {
    const s = new LabSession(createLab(defaultScenario()));
    expect(s.run('tcpdump -i eth1')[0]!.stderr).toMatch(/^tcpdump: eth1: No such device exists/);
    expect(s.run('tcpdump port')[0]!.stderr).toBe("tcpdump: can't parse filter expression: syntax error\n");
    expect(s.run('tcpdump host nowhere')[0]!.stderr).toBe(
      "tcpdump: can't parse filter expression: unknown host 'nowhere'\n",
    );
    expect(s.run('tcpdump -Z x')[0]!.stderr).toMatch(/option -Z is not simulated in ec2-netlab/);
    // with -v the banner has no hint to use -v (tcpdump.c)
    expect(s.run('timeout 0.01 tcpdump -v')[0]!.stderr).toMatch(
      /^tcpdump: listening on eth0, link-type EN10MB/,
    );
    expect(s.run('tcpdump -i any -XX')[0]!.stderr).toMatch(/-XX and -AA with -i any .* not simulated/);
    expect(s.run('tcpdump -r none.pcap')[0]!.stderr).toBe('tcpdump: none.pcap: No such file or directory\n');
  });
});

describe('the pcap file and the real tcpdump', () => {
  const lab = createLab(defaultScenario());
  const s = new LabSession(lab);
  s.run('tcpdump -w cap.pcap &');
  s.run('iperf3 -c server -n 30000 -l 10000 > /dev/null');
  s.run('ping -c 2 -i 0.01 server > /dev/null');
  s.run('ping -c 1 -s 12000 server > /dev/null');
  s.run('iperf3 -c server -u -b 1M -t 1 -l 1000 > /dev/null');
  s.run('dig server > /dev/null');
  s.run('sleep 0.5');
  s.close();
  const dir = mkdtempSync(join(tmpdir(), 'netlab-pcap-'));
  const file = join(dir, 'cap.pcap');
  writeFileSync(file, lab.files.read('client', '/home/ec2-user/cap.pcap')!.data as Uint8Array);
  const real = (args: string[]) =>
    execFileSync('tcpdump', ['-r', file, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 26,
    });
  const ours = (args: string) => stdout(new LabSession(lab).run(`tcpdump -r cap.pcap ${args}`)[0]!);
  const quote = (e: string) => `'${e}'`;

  it('tcpdump 4.99 reads it and prints what ours prints, in each mode', () => {
    for (const mode of [
      '-nn',
      '-nn -e',
      '-nn -q',
      '-nn -e -q',
      '-nn -v',
      '-nn -v -e',
      '-nn -tttt',
      '-nn -t',
    ]) {
      const r = real(mode.split(' '));
      expect(r.split('\n').length).toBeGreaterThan(15);
      expect(ours(mode)).toBe(r);
    }
    expect(real(['-nn'])).toContain(': ICMP echo request, id ');
    expect(real(['-nn'])).toContain(': UDP, length 1000');
    // -v: what the sender captured has the pseudo-header sum only (checksum offload), received segments a correct one
    expect(real(['-nn', '-v'])).toMatch(
      /\n {4}10\.0\.0\.10\.45000 > 10\.0\.0\.11\.5201: Flags \[S\], cksum 0x[0-9a-f]{4} \(incorrect -> 0x[0-9a-f]{4}\), seq /,
    );
    expect(real(['-nn', '-v'])).toMatch(
      /\n {4}10\.0\.0\.11\.5201 > 10\.0\.0\.10\.45000: Flags \[S\.\], cksum 0x[0-9a-f]{4} \(correct\), seq /,
    );
    expect(real(['-nn']).startsWith(EXCHANGE[0]!)).toBe(true);
  });

  it('-vv, -vvv and the raw dumps (-x -xx -X -XX -A -AA) byte for byte as tcpdump 4.99 prints them', () => {
    for (const mode of ['-nn -vv', '-nn -vvv', '-nn -q -vv'])
      expect(ours(mode), mode).toBe(real(mode.split(' ')));
    // -vv: UDP checksums as the capture point sees them, a pure ACK's seq
    const vv = real(['-nn', '-vv']);
    expect(vv).toMatch(
      / 10\.0\.0\.10\.\d+ > 10\.0\.0\.11\.5201: \[bad udp cksum 0x[0-9a-f]{4} -> 0x[0-9a-f]{4}!\] UDP, length 1000\n/,
    );
    expect(vv).toMatch(/ 10\.0\.0\.2\.53 > 10\.0\.0\.10\.\d+: \[udp sum ok\] 0 \[0q\] \(\d+\)\n/);
    expect(vv).toMatch(/Flags \[\.\], cksum 0x[0-9a-f]{4} \(correct\), seq 1, ack \d+, win/);
    // the dumps: the first 12 packets (SYN, SYN-ACK, 9001-byte segments), then ICMP and UDP with DNS
    for (const dump of ['-x', '-xx', '-X', '-XX', '-A', '-AA', '-vv -X -e'])
      for (const sel of ['-c 12', 'udp or icmp']) {
        const args = [
          ...'-nn'.split(' '),
          ...dump.split(' '),
          ...(sel.startsWith('-') ? sel.split(' ') : [sel]),
        ];
        const r = real(args);
        expect(r.split('\n').length, `${dump} ${sel}`).toBeGreaterThan(40);
        expect(ours(`-nn ${dump} ${sel.startsWith('-') ? sel : quote(sel)}`), `${dump} ${sel}`).toBe(r);
      }
    expect(real(['-nn', '-X', '-c', '1'])).toContain('\n\t0x0000:  4500 003c ');
  });

  it('libpcap’s filters select the same packets as ours', () => {
    const exprs = [
      'tcp',
      'udp',
      'icmp',
      'host 10.0.0.11',
      'src host 10.0.0.10',
      'dst 10.0.0.10',
      'net 10.0.0.0/24',
      'port 5201',
      'tcp and dst port 5201',
      'udp or icmp',
      'not tcp',
      'tcp[tcpflags] & (tcp-syn|tcp-fin) != 0',
      'tcp[tcpflags] & tcp-ack != 0 and not tcp[tcpflags] & tcp-push != 0',
      '(src 10.0.0.11 and tcp) or icmp',
      'greater 1000',
      'less 100',
      'portrange 5000-6000',
      'src port 45000 || icmp && ! dst 10.0.0.10',
    ];
    for (const e of exprs) expect(`${e}: ${ours(`-nn ${quote(e)}`)}`).toBe(`${e}: ${real(['-nn', e])}`);
  });

  it('random filters parse or give a clear error, never throw', () => {
    const words = [
      'tcp',
      'udp',
      'host',
      '10.0.0.10',
      'port',
      '80',
      'and',
      'or',
      'not',
      '(',
      ')',
      'src',
      'dst',
      'net',
      '10.0.0.0/8',
      '!',
      '&&',
      'x',
    ];
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let n = 0; n < 500; n++) {
      const expr = Array.from(
        { length: 1 + Math.floor(rnd() * 6) },
        () => words[Math.floor(rnd() * words.length)],
      ).join(' ');
      try {
        parseFilter(expr, (h) => (h === 'server' ? '10.0.0.11' : null));
      } catch (e) {
        expect((e as Error).message).toMatch(
          /^(syntax error|unknown host '.*'|unknown port '.*'|non-network bits set in ".*")$/,
        );
      }
    }
  });
});

describe('a small snapshot length (-s), as tcpdump 4.99 prints what it cut', () => {
  const lab = createLab(defaultScenario());
  const s = new LabSession(lab);
  const snaps = [38, 54, 60, 66, 70];
  for (const n of snaps) s.run(`tcpdump -w s${n}.pcap -s ${n} tcp &`);
  const small = [38, 40, 50];
  for (const n of small) s.run(`tcpdump -w u${n}.pcap -s ${n} udp or icmp &`);
  s.run('tcpdump -nn -s 60 tcp > live60.txt &');
  s.run('iperf3 -c server -n 30000 -l 10000 > /dev/null');
  s.run('ping -c 2 -i 0.01 server > /dev/null');
  s.run('iperf3 -c server -u -b 1M -t 1 -l 1000 > /dev/null');
  s.run('dig server > /dev/null');
  s.run('sleep 0.2');
  s.close();
  const dir = mkdtempSync(join(tmpdir(), 'netlab-snap-'));
  const real = (n: number | string, args: string[]) => {
    const name = typeof n === 'number' ? `s${n}` : n;
    const file = join(dir, `${name}.pcap`);
    writeFileSync(file, lab.files.read('client', `/home/ec2-user/${name}.pcap`)!.data as Uint8Array);
    return execFileSync('tcpdump', ['-r', file, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  };
  const ours = (n: number | string, args: string) =>
    stdout(new LabSession(lab).run(`tcpdump -r ${typeof n === 'number' ? `s${n}` : n}.pcap ${args}`)[0]!);

  it('the lines and dumps of cut packets are tcpdump’s: " [|tcp]", ">" after a cut option, the whole frame dumped after a longjmp', () => {
    for (const n of snaps)
      for (const mode of ['-nn', '-nn -v', '-nn -q', '-nn -X'])
        expect(ours(n, mode), `-s ${n} ${mode}`).toBe(real(n, mode.split(' ')));
    expect(real(60, ['-nn'])).toContain('options [mss 8961,sackOK, [|tcp]\n');
    expect(real(60, ['-nn'])).toContain('options [nop,nop,TS [|tcp]>\n');
    expect(real(38, ['-nn'])).toContain(' IP 10.0.0.10.45000 > 10.0.0.11.5201:  [|tcp]\n');
    // UDP, DNS and ICMP cut in their headers: [|udp], [|domain], [|icmp] (that one longjmps)
    for (const n of small)
      for (const mode of ['-nn', '-nn -vv', '-nn -X'])
        expect(ours(`u${n}`, mode), `-s ${n} ${mode}`).toBe(real(`u${n}`, mode.split(' ')));
    expect(real('u38', ['-nn'])).toContain(' IP 10.0.0.10 > 10.0.0.11:  [|icmp]\n');
    expect(real('u40', ['-nn'])).toMatch(/ > 10\.0\.0\.11\.5201: {2}\[\|udp\]\n/);
    expect(real('u50', ['-nn'])).toMatch(/ > 10\.0\.0\.2\.53: {2}\[\|domain\]\n/);
    // live, the same lines as the file read back
    const live = fileText(lab.files.read('client', '/home/ec2-user/live60.txt')!.data);
    expect(live).toBe(real(60, ['-nn']));
  });
});
