/**
 * `iperf` (iperf 2.0.5, the version CentOS 6 and Amazon Linux shipped in the SRIOV seed's years):
 * client (-c) and server (-s), TCP and UDP (-u, -b), -t, -n, -i, -P, -l, -w, -p, -f. The test runs on
 * the model through the same sockets and flows as iperf3 (apps/iperf3-test.ts); what is printed is
 * iperf 2's: the settings block between separator lines, "[  3] local … connected with …", the
 * "[ ID] Interval       Transfer     Bandwidth" reports (%4.1f-%4.1f sec, byte_snprintf units, the
 * [SUM] line with -P) and, for UDP, "Sent N datagrams" and the server's report with jitter and
 * Lost/Total (Locale.c report_bw_jitter_loss_format %5.3f ms %4d/%5d (%.2g%%)).
 *
 * Lab choices: `iperf -s` starts its listener in the background (as -D would) and prints its
 * settings block; nothing listens on 5001 until it is typed (every instance runs iperf3 -s only).
 * A UDP client needs an `iperf -s -u` on the target (the lab does not model datagrams to a closed
 * port) and says so. The UDP pacing is iperf3's throttle (a constant rate, as iperf 2's delay loop
 * aims at). Window sizes are what Linux reports (SO_SNDBUF/SO_RCVBUF: tcp_wmem[1] 16384 for the
 * client, tcp_rmem[1] 131072 for the server, wmem/rmem_default 212992 for UDP; -w W gives
 * 2 × min(W, 212992), with iperf's "(WARNING: requested …)"). Refused by name: -d, -r, -L, -F, -I,
 * -B, -C, -M, -N, -m, -T, -V/-6, -U, -x, -y, -o, -S, -Z.
 */
import { Iperf3Test, type Iperf3TestResult, type StreamResult } from '../../apps/iperf3-test';
import type { Instance, Lab } from '../../lab/lab';
import { type CommandOutcome, fail, type Job } from '../types';
import { unitSnprintf } from './iperf3-units';
import { cFixed, cG } from './printf';

export const IPERF2_VERSION = 'iperf version 2.0.5 (08 Jul 2010) pthreads\n';
const DEFAULT_PORT = 5001;
const SEPARATOR = '------------------------------------------------------------\n';
const USAGE_SHORT = "Usage: iperf [-s|-c host] [options]\nTry `iperf --help' for more information.\n";
/** Linux net.core.wmem_max / rmem_max: the most SO_SNDBUF/SO_RCVBUF a process may ask for. */
const SOCKBUF_MAX = 212_992;

type Format = 'a' | 'A' | 'k' | 'K' | 'm' | 'M' | 'g' | 'G' | 'b' | 'B';

interface Iperf2Options {
  role: 'client' | 'server';
  host: string;
  udp: boolean;
  port: number;
  timeS: number;
  bytes: number;
  intervalS: number;
  parallel: number;
  len: number | null;
  window: number;
  rateBps: number;
  format: Format;
  warnings: string[];
}

const LISTEN_KEY = Symbol('iperf2-listeners');
type WithListeners = Instance & { [LISTEN_KEY]?: Set<string> };

function listeners(inst: Instance): Set<string> {
  const i = inst as WithListeners;
  if (!i[LISTEN_KEY]) i[LISTEN_KEY] = new Set();
  return i[LISTEN_KEY]!;
}

/** byte_atoi: a number with an optional k/m/g (10^3 based) or K/M/G (2^10 based) suffix. */
function byteAtoi(s: string): number | null {
  const m = /^(\d+(?:\.\d*)?|\.\d+)([kmgKMG]?)$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  const mult: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };
  return Math.floor(n * mult[m[2]!]!);
}

const LONG: Record<string, string> = {
  '--client': '-c',
  '--server': '-s',
  '--udp': '-u',
  '--bandwidth': '-b',
  '--time': '-t',
  '--num': '-n',
  '--interval': '-i',
  '--parallel': '-P',
  '--len': '-l',
  '--window': '-w',
  '--port': '-p',
  '--format': '-f',
  '--daemon': '-D',
  '--help': '-h',
  '--version': '-v',
};
const WITH_VALUE = new Set(['-c', '-b', '-t', '-n', '-i', '-P', '-l', '-w', '-p', '-f']);
const REFUSED: Record<string, string> = {
  '-d': 'a dual test',
  '-r': 'a tradeoff test',
  '-L': 'the listen port of a dual test',
  '-F': 'input from a file',
  '-I': 'input from stdin',
  '-B': 'binding to an address',
  '-C': 'compatibility mode',
  '-M': 'setting the MSS',
  '-N': 'TCP_NODELAY',
  '-m': 'printing the MSS',
  '-T': 'a multicast TTL',
  '-V': 'IPv6',
  '-6': 'IPv6',
  '-U': 'single-threaded UDP',
  '-x': 'excluding reports',
  '-y': 'CSV reports',
  '-o': 'an output file',
  '-S': 'the type of service',
  '-Z': 'the congestion control algorithm',
};

function parse(argv: string[]): Iperf2Options | CommandOutcome {
  const o: Iperf2Options = {
    role: 'client',
    host: '',
    udp: false,
    port: DEFAULT_PORT,
    timeS: 10,
    bytes: 0,
    intervalS: 0,
    parallel: 1,
    len: null,
    window: 0,
    rateBps: 1e6,
    format: 'a',
    warnings: [],
  };
  let role: 'client' | 'server' | null = null;
  argv = [...argv];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    let v: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (eq > 0) v = a.slice(eq + 1);
      const short = LONG[name];
      if (!short) return fail(`iperf: unrecognized option '${name}'\n${USAGE_SHORT}`, 1);
      a = short;
    } else if (/^-[A-Za-z0-9]./.test(a)) {
      // getopt: "-c10.0.0.11", "-t5"
      v = a.slice(2);
      a = a.slice(0, 2);
    }
    if (REFUSED[a]) return fail(`iperf: ${a} (${REFUSED[a]}) is not simulated in ec2-netlab\n`, 1);
    if (v !== undefined && !WITH_VALUE.has(a) && !argv[i]!.startsWith('--')) {
      // getopt: flags run together ("-su"): the rest are flags of their own
      argv.splice(i + 1, 0, `-${v}`);
      v = undefined;
    }
    if (WITH_VALUE.has(a) && v === undefined) {
      v = argv[++i];
      if (v === undefined)
        return fail(`iperf: option requires an argument -- '${a.slice(1)}'\n${USAGE_SHORT}`, 1);
    }
    switch (a) {
      case '-h':
        return fail(
          `${USAGE_SHORT}(ec2-netlab models -c, -s, -u, -b, -t, -n, -i, -P, -l, -w, -p, -f, -D and -v.)\n`,
          1,
        );
      case '-v':
        return fail(IPERF2_VERSION, 1);
      case '-s':
        role = 'server';
        break;
      case '-D':
        break;
      case '-c':
        role = 'client';
        o.host = v!;
        break;
      case '-u':
        o.udp = true;
        break;
      case '-b': {
        // Settings_GetLowerCaseArg: the rate's suffix is always 10^3 based
        const r = byteAtoi(v!.toLowerCase());
        if (r === null || r <= 0) return fail(`iperf: invalid bandwidth '${v}'\n`, 1);
        o.rateBps = r;
        o.udp = true;
        break;
      }
      case '-t': {
        const t = Number(v);
        if (!Number.isFinite(t) || t <= 0) return fail(`iperf: invalid time '${v}'\n`, 1);
        o.timeS = t;
        break;
      }
      case '-n': {
        const n = byteAtoi(v!);
        if (n === null || n <= 0) return fail(`iperf: invalid number of bytes '${v}'\n`, 1);
        o.bytes = n;
        break;
      }
      case '-i': {
        let t = Number(v);
        if (!Number.isFinite(t) || t < 0) return fail(`iperf: invalid interval '${v}'\n`, 1);
        if (t > 0 && t < 0.5) {
          o.warnings.push(`WARNING: interval too small, increasing from ${cFixed(t, 2)} to 0.5 seconds.\n`);
          t = 0.5;
        }
        o.intervalS = t;
        break;
      }
      case '-P': {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 128)
          return fail(`iperf: invalid parallel count '${v}'\n`, 1);
        o.parallel = n;
        break;
      }
      case '-l': {
        const n = byteAtoi(v!);
        if (n === null || n < 1) return fail(`iperf: invalid length '${v}'\n`, 1);
        o.len = n;
        break;
      }
      case '-w': {
        const n = byteAtoi(v!);
        if (n === null || n < 1) return fail(`iperf: invalid window size '${v}'\n`, 1);
        o.window = n;
        break;
      }
      case '-p': {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 65535) return fail(`iperf: invalid port '${v}'\n`, 1);
        o.port = n;
        break;
      }
      case '-f':
        if (!/^[aAkKmMgGbB]$/.test(v!)) return fail(`iperf: invalid format '${v}'\n`, 1);
        o.format = v as Format;
        break;
      default:
        if (a.startsWith('-')) return fail(`iperf: invalid option -- '${a.slice(1)}'\n${USAGE_SHORT}`, 1);
        return fail(`iperf: ignoring extra argument -- ${a}\n${USAGE_SHORT}`, 1);
    }
  }
  if (role === null) return fail(USAGE_SHORT, 1);
  o.role = role;
  if (o.udp && o.len === null) o.len = 1470;
  if (o.len === null) o.len = 8 * 1024;
  if (o.udp && o.len > 65507) return fail(`iperf: datagram size ${o.len} is larger than 65507 bytes\n`, 1);
  return o;
}

/** byte_snprintf with iperf's format letter (lower case: bits, 10^3; upper case: bytes, 2^10). */
function units(value: number, fmt: Format): string {
  const f = fmt === 'b' ? 'a' : fmt === 'B' ? 'A' : fmt;
  return unitSnprintf(value, f as Parameters<typeof unitSnprintf>[1]);
}

const bytesFmt = (f: Format): Format => f.toUpperCase() as Format;
const f41 = (x: number) => cFixed(x, 1).padStart(4);
const id3 = (n: number) => String(n).padStart(3);

/** What getsockopt(SO_SNDBUF / SO_RCVBUF) reports: the kernel doubles what was asked, capped. */
function sockbuf(requested: number, dflt: number): number {
  return requested > 0 ? 2 * Math.min(requested, SOCKBUF_MAX) : dflt;
}

function windowLine(o: Iperf2Options, reported: number): string {
  const label = o.udp ? 'UDP buffer size' : 'TCP window size';
  const fmt = bytesFmt(o.format);
  let s = `${label}: ${units(reported, fmt)}`;
  if (o.window === 0) s += ' (default)';
  else if (reported !== o.window) s += ` (WARNING: requested ${units(o.window, fmt)})`;
  return `${s}\n`;
}

function serverBanner(o: Iperf2Options, lab: Lab): string {
  const dflt = o.udp ? lab.params.udpRmemDefault : 131_072;
  return (
    SEPARATOR +
    `Server listening on ${o.udp ? 'UDP' : 'TCP'} port ${o.port}\n` +
    (o.udp ? `Receiving ${o.len} byte datagrams\n` : '') +
    windowLine(o, sockbuf(o.window, dflt)) +
    SEPARATOR
  );
}

function clientBanner(o: Iperf2Options, lab: Lab): string {
  const dflt = o.udp ? lab.params.udpWmemDefault : lab.params.tcpWmemDefault;
  return (
    SEPARATOR +
    `Client connecting to ${o.host}, ${o.udp ? 'UDP' : 'TCP'} port ${o.port}\n` +
    (o.udp ? `Sending ${o.len} byte datagrams\n` : '') +
    windowLine(o, sockbuf(o.window, dflt)) +
    SEPARATOR
  );
}

const BW_HEADER = '[ ID] Interval       Transfer     Bandwidth\n';

function bwLine(tag: string, start: number, end: number, bytes: number, fmt: Format): string {
  const secs = Math.max(1e-9, end - start);
  return `${tag} ${f41(start)}-${f41(end)} sec  ${units(bytes, bytesFmt(fmt))}s  ${units(bytes / secs, fmt)}s/sec\n`;
}

/** The stream's id as iperf 2 prints it: the socket's descriptor, 3 for the first. */
const streamId = (i: number) => `[${id3(3 + i)}]`;

export function runIperf2(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  const parsed = parse(argv);
  if ('kind' in parsed) return parsed;
  const o = parsed;
  const warn = o.warnings.join('');
  if (o.role === 'server') {
    const key = `${o.udp ? 'udp' : 'tcp'}:${o.port}`;
    // the Listener binds before it reports its settings
    if (listeners(self).has(key)) return fail(`${warn}bind failed: Address already in use\n`, 1);
    listeners(self).add(key);
    return {
      kind: 'done',
      out: { stdout: serverBanner(o, lab), stderr: warn, stderrLead: warn, exitCode: 0 },
    };
  }
  const target = lab.resolve(o.host);
  if (!target) return fail(`${warn}error: Name or service not known\n`, 1);
  const banner = clientBanner(o, lab);
  const listening =
    target !== self && !target.stopped && listeners(target).has(`${o.udp ? 'udp' : 'tcp'}:${o.port}`);
  if (!listening) {
    if (!o.udp)
      return {
        kind: 'done',
        out: {
          stdout: banner,
          stderr: `${warn}connect failed: Connection refused\n`,
          stderrLead: warn,
          exitCode: 1,
        },
      };
    return fail(
      `${warn}${banner}iperf: no 'iperf -s -u' listens on ${o.host} port ${o.port} in this lab; start one there first (${o.host}: iperf -s -u)\n`,
      1,
    );
  }
  const len = o.len!;
  const test = new Iperf3Test(lab, self, target, {
    protocol: o.udp ? 'udp' : 'tcp',
    port: o.port,
    durationNs: o.bytes > 0 ? 0 : Math.round(o.timeS * 1e9),
    bytesLimit: o.bytes,
    parallel: o.parallel,
    blockSizeBytes: len,
    // -b is each client thread's rate
    targetBitrateBps: o.udp ? o.rateBps : 0,
    reverse: false,
    bidir: false,
    intervalNs: Math.round(o.intervalS * 1e9),
    windowBytes: o.window > 0 ? o.window : undefined,
    serverIp: lab.addressOf(o.host) ?? target.host.ip,
  });
  test.start();
  let interrupted = false;
  let printed = { key: Number.NaN, text: '' };
  const job: Job = {
    done: () => test.done(),
    deadlineNs: () => test.deadlineNs(),
    interrupt: () => {
      interrupted = true;
      test.interrupt();
    },
    progress: () => {
      const key = test.progressKey();
      if (key !== printed.key) printed = { key, text: report(test.result(), o, banner, false) };
      return printed.text;
    },
    // option warnings come first, as iperf prints them while it reads its options
    lead: () => warn,
    finish: () => ({
      stdout: report(test.result(), o, banner, true),
      stderr: warn,
      stderrLead: warn,
      exitCode: interrupted ? 1 : 0,
    }),
  };
  return { kind: 'job', job };
}

/** The client's output: the settings block, then what each report printed so far (all of it at the end). */
function report(r: Iperf3TestResult, o: Iperf2Options, banner: string, final: boolean): string {
  const out: string[] = [banner];
  const streams = r.streams;
  for (let i = 0; i < streams.length; i++) {
    const s = streams[i]!;
    if (s.connectedNs < 0) break;
    out.push(
      `${streamId(i)} local ${s.clientIp} port ${s.clientPort} connected with ${s.serverIp} port ${s.serverPort}\n`,
    );
  }
  const nIv = streams.length > 0 ? Math.min(...streams.map((s) => s.intervals.length)) : 0;
  if (nIv > 0 || final) out.push(BW_HEADER);
  const multi = streams.length > 1;
  for (let k = 0; k < nIv; k++) {
    let sum = 0;
    let st = 0;
    let et = 0;
    for (let i = 0; i < streams.length; i++) {
      const iv = streams[i]!.intervals[k]!;
      st = iv.startNs / 1e9;
      et = iv.endNs / 1e9;
      sum += iv.sentBytes;
      out.push(bwLine(streamId(i), st, et, iv.sentBytes, o.format));
    }
    if (multi) out.push(bwLine('[SUM]', st, et, sum, o.format));
  }
  if (!final) return out.join('');
  const elapsed = (r.testEndNs - r.testStartNs) / 1e9;
  let total = 0;
  let sentDatagrams = 0;
  for (let i = 0; i < streams.length; i++) {
    const s = streams[i]!;
    total += s.sentBytes;
    out.push(bwLine(streamId(i), 0, elapsed, s.sentBytes, o.format));
    if (o.udp) {
      // the client counts the datagram that ends the test (a negative sequence number) too
      sentDatagrams += s.sentPackets + 1;
      out.push(`${streamId(i)} Sent ${s.sentPackets + 1} datagrams\n`);
      out.push(...serverReport(streamId(i), s, o));
    }
  }
  if (multi) {
    out.push(bwLine('[SUM]', 0, elapsed, total, o.format));
    if (o.udp) out.push(`[SUM] Sent ${sentDatagrams} datagrams\n`);
  }
  return out.join('');
}

/** The server's final report, relayed in the ack of the last datagram (report_bw_jitter_loss_format). */
function serverReport(tag: string, s: StreamResult, o: Iperf2Options): string[] {
  const secs = s.receiverSeconds;
  const totalDgrams = s.recvPackets + s.lostPackets;
  const pct = totalDgrams > 0 ? (100 * s.lostPackets) / totalDgrams : 0;
  const lines = [
    `${tag} Server Report:\n`,
    `${bwLine(tag, 0, secs, s.recvBytes, o.format).slice(0, -1)}  ${cFixed(s.jitterMs, 3).padStart(5)} ms ${String(s.lostPackets).padStart(4)}/${String(totalDgrams).padStart(5)} (${cG(pct, 2)}%)\n`,
  ];
  if (s.outOfOrder > 0)
    lines.push(`${tag} ${f41(0)}-${f41(secs)} sec  ${s.outOfOrder} datagrams received out-of-order\n`);
  return lines;
}
