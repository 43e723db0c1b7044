/**
 * iperf3 command-line parsing: argv (without "iperf3") → a validated `Iperf3Options`, or the exact
 * text iperf3 3.16 prints for bad input (stderr) and its exit code. Options are scanned as glibc
 * getopt_long does for iperf3's table, values converted with iperf3's own rules, checks run in
 * iperf_parse_arguments' order; options the lab does not model are refused by name.
 *
 * Sources (esnet/iperf): src/iperf_api.c iperf_parse_arguments(), src/iperf_error.c, src/iperf.h,
 * src/units.c, src/iperf_locale.c; the unknown-option output from esnet/iperf issue #1647.
 * The rules in detail: docs/design.md, "Command lines as the real tools read them".
 */
import { isTcpCongestionName } from '../../host/tcp/cong';

/** iperf3's version string as printed by -v and in the -J "version" field. */
export const IPERF3_VERSION = 'iperf 3.16';
/** `uname`-style line iperf3 prints after the version (get_system_info()); the runner may pass its own. */
export const DEFAULT_IPERF3_SYSTEM_INFO = 'Linux ip-10-0-0-10 6.1.0-ec2-netlab #1 SMP x86_64';

// Limits and defaults from src/iperf.h.
export const IPERF3_DEFAULT_PORT = 5201;
export const IPERF3_DEFAULT_DURATION_SEC = 10;
/** DEFAULT_TCP_BLKSIZE (128 KiB). */
export const IPERF3_DEFAULT_TCP_BLKSIZE = 128 * 1024;
/** DEFAULT_UDP_BLKSIZE: used for UDP when the control connection's MSS is unknown. */
export const IPERF3_DEFAULT_UDP_BLKSIZE = 1460;
/** UDP_RATE: the UDP default target, 1024*1024 bit/s ("1 Mbit/sec" in the help text). */
export const IPERF3_DEFAULT_UDP_RATE_BPS = 1024 * 1024;
const MB = 1024 * 1024;
export const IPERF3_MAX_TCP_BUFFER = 512 * MB;
export const IPERF3_MAX_BLOCKSIZE = MB;
export const IPERF3_MIN_UDP_BLOCKSIZE = 4 + 4 + 8;
export const IPERF3_MAX_UDP_BLOCKSIZE = 65535 - 8 - 20;
const MIN_INTERVAL = 0.1;
const MAX_INTERVAL = 60.0;
const MAX_TIME = 86400;
/** The lab's own limit on -t (iperf3 allows a day): what a run may take in simulated time and memory. */
export const IPERF3_LAB_MAX_TIME = 3600;
const MAX_BURST = 1000;
const MAX_MSS = 9 * 1024;
export const IPERF3_MAX_STREAMS = 128;
const MAX_OMIT_TIME = 600;
/** Linux refuses TCP_MAXSEG below TCP_MIN_MSS (88): iperf3 then fails when it opens the streams. */
export const LINUX_TCP_MIN_MSS = 88;

/** -f: k/m/g/t report the bitrate in bits (1000-based), K/M/G/T in bytes (1024-based); 'a' = adaptive. */
export type Iperf3Format = 'a' | 'k' | 'm' | 'g' | 't' | 'K' | 'M' | 'G' | 'T';

/** The validated settings of one iperf3 invocation. Sizes in bytes, rates in bit/s, times in seconds. */
export interface Iperf3Options {
  role: 'client' | 'server';
  /** -c HOST as typed (name or address); undefined for a server. */
  host?: string;
  /** -p: server port to connect to / listen on. */
  port: number;
  /** -u selects UDP. */
  protocol: 'tcp' | 'udp';
  /** -t: test length. 0 = no time limit (iperf3 runs until -n is reached or it is interrupted). Set to 0 when -n is given without -t, as iperf3 does. */
  durationSec: number;
  /** True when -t was given explicitly. */
  durationGiven: boolean;
  /** -n: bytes to send instead of a duration; 0 = not set. */
  bytes: number;
  /** -P: parallel streams, 1..128. */
  parallel: number;
  /** -l: block (write) size. TCP defaults to 131072; for UDP it stays undefined unless given, because iperf3 derives it from the control connection's MSS. */
  blockSizeBytes?: number;
  /** -M: requested TCP MSS; undefined = kernel default. */
  mssBytes?: number;
  /** -b: target bitrate. UDP default 1048576, TCP default 0; 0 means unlimited. */
  targetBitrateBps: number;
  /** -b RATE/COUNT: packets per burst; undefined when not given. */
  burstPackets?: number;
  /** -R: the server sends, the client receives. */
  reverse: boolean;
  /** --bidir: both directions at once. */
  bidir: boolean;
  /** -i: seconds between interval reports; 0 disables them. */
  intervalSec: number;
  /** -w: socket buffer size (SO_SNDBUF/SO_RCVBUF request); undefined = autotuning. */
  windowBytes?: number;
  /** -J: JSON output. */
  json: boolean;
  /** -f: bitrate unit. */
  format: Iperf3Format;
  /** -O: seconds omitted at the start (statistics marked "(omitted)" and not counted). */
  omitSec: number;
  /** -T: prefix for every output line (and "title" in JSON). */
  title?: string;
  /** -C: TCP_CONGESTION for the test's sockets, at both ends (the server takes it from the client). */
  congestion?: string;
  /** -1: the server handles one test and exits. */
  oneOff: boolean;
  /** Warnings iperf3 prints on stderr but carries on ("warning: …\n" lines, already terminated). */
  warnings: string[];
}

export type Iperf3ParseResult =
  | { ok: true; opts: Iperf3Options }
  /** iperf3 stops: print stdout/stderr and exit. stdout is set for -h/--help and -v/--version (exit 0). */
  | { ok: false; stderr: string; exitCode: number; stdout?: string };

// ---------------------------------------------------------------------------------------------
// Option table (iperf 3.16 on Linux, from iperf_parse_arguments' longopts and optstring)

type ArgKind = 'none' | 'required' | 'optional';
interface OptSpec {
  /** Long name without "--", if any. */
  long?: string;
  /** Short letter, if any. */
  short?: string;
  arg: ArgKind;
  /** Internal key; aliases (--bitrate/--bandwidth, -C/--linux-congestion) share one. */
  key: string;
}

const OPTS: OptSpec[] = [
  { long: 'port', short: 'p', arg: 'required', key: 'p' },
  { long: 'format', short: 'f', arg: 'required', key: 'f' },
  { long: 'interval', short: 'i', arg: 'required', key: 'i' },
  { long: 'daemon', short: 'D', arg: 'none', key: 'D' },
  { long: 'one-off', short: '1', arg: 'none', key: '1' },
  { long: 'verbose', short: 'V', arg: 'none', key: 'V' },
  { long: 'json', short: 'J', arg: 'none', key: 'J' },
  { long: 'version', short: 'v', arg: 'none', key: 'v' },
  { long: 'server', short: 's', arg: 'none', key: 's' },
  { long: 'client', short: 'c', arg: 'required', key: 'c' },
  { long: 'udp', short: 'u', arg: 'none', key: 'u' },
  { long: 'bitrate', short: 'b', arg: 'required', key: 'b' },
  { long: 'bandwidth', arg: 'required', key: 'b' },
  { long: 'server-bitrate-limit', arg: 'required', key: 'server-bitrate-limit' },
  { long: 'time', short: 't', arg: 'required', key: 't' },
  { long: 'bytes', short: 'n', arg: 'required', key: 'n' },
  { long: 'blockcount', short: 'k', arg: 'required', key: 'k' },
  { long: 'length', short: 'l', arg: 'required', key: 'l' },
  { long: 'parallel', short: 'P', arg: 'required', key: 'P' },
  { long: 'reverse', short: 'R', arg: 'none', key: 'R' },
  { long: 'bidir', arg: 'none', key: 'bidir' },
  { long: 'window', short: 'w', arg: 'required', key: 'w' },
  { long: 'bind', short: 'B', arg: 'required', key: 'B' },
  { long: 'bind-dev', arg: 'required', key: 'bind-dev' },
  { long: 'cport', arg: 'required', key: 'cport' },
  { long: 'set-mss', short: 'M', arg: 'required', key: 'M' },
  { long: 'no-delay', short: 'N', arg: 'none', key: 'N' },
  { long: 'version4', short: '4', arg: 'none', key: '4' },
  { long: 'version6', short: '6', arg: 'none', key: '6' },
  { long: 'tos', short: 'S', arg: 'required', key: 'S' },
  { long: 'dscp', arg: 'required', key: 'dscp' },
  { long: 'extra-data', arg: 'required', key: 'extra-data' },
  { long: 'flowlabel', short: 'L', arg: 'required', key: 'L' },
  { long: 'zerocopy', short: 'Z', arg: 'none', key: 'Z' },
  { long: 'omit', short: 'O', arg: 'required', key: 'O' },
  { long: 'file', short: 'F', arg: 'required', key: 'F' },
  { long: 'repeating-payload', arg: 'none', key: 'repeating-payload' },
  { long: 'timestamps', arg: 'optional', key: 'timestamps' },
  { long: 'affinity', short: 'A', arg: 'required', key: 'A' },
  { long: 'title', short: 'T', arg: 'required', key: 'T' },
  { long: 'congestion', short: 'C', arg: 'required', key: 'C' },
  { long: 'linux-congestion', arg: 'required', key: 'C' },
  { long: 'pidfile', short: 'I', arg: 'required', key: 'I' },
  { long: 'logfile', arg: 'required', key: 'logfile' },
  { long: 'forceflush', arg: 'none', key: 'forceflush' },
  { long: 'get-server-output', arg: 'none', key: 'get-server-output' },
  { long: 'udp-counters-64bit', arg: 'none', key: 'udp-counters-64bit' },
  { long: 'no-fq-socket-pacing', arg: 'none', key: 'no-fq-socket-pacing' },
  { long: 'dont-fragment', arg: 'none', key: 'dont-fragment' },
  { long: 'username', arg: 'required', key: 'username' },
  { long: 'rsa-public-key-path', arg: 'required', key: 'rsa-public-key-path' },
  { long: 'rsa-private-key-path', arg: 'required', key: 'rsa-private-key-path' },
  { long: 'authorized-users-path', arg: 'required', key: 'authorized-users-path' },
  { long: 'time-skew-threshold', arg: 'required', key: 'time-skew-threshold' },
  { long: 'use-pkcs1-padding', arg: 'none', key: 'use-pkcs1-padding' },
  { long: 'fq-rate', arg: 'required', key: 'fq-rate' },
  { long: 'pacing-timer', arg: 'required', key: 'pacing-timer' },
  { long: 'connect-timeout', arg: 'required', key: 'connect-timeout' },
  { long: 'idle-timeout', arg: 'required', key: 'idle-timeout' },
  { long: 'rcv-timeout', arg: 'required', key: 'rcv-timeout' },
  { long: 'snd-timeout', arg: 'required', key: 'snd-timeout' },
  { long: 'debug', short: 'd', arg: 'optional', key: 'd' },
  { long: 'help', short: 'h', arg: 'none', key: 'h' },
];

const SHORT = new Map<string, OptSpec>();
for (const o of OPTS) if (o.short && !SHORT.has(o.short)) SHORT.set(o.short, o);

/** Keys the simulator models; everything else in OPTS is refused as "not simulated". */
const SUPPORTED = new Set([
  'p',
  'f',
  'i',
  '1',
  'J',
  'v',
  's',
  'c',
  'u',
  'b',
  't',
  'n',
  'l',
  'P',
  'R',
  'bidir',
  'w',
  'M',
  '4',
  'O',
  'T',
  'C',
  'h',
]);

// iperf_strerror() texts (src/iperf_error.c).
export const IPERF3_ERRORS = {
  IESERVCLIENT: 'cannot be both server and client',
  IENOROLE: 'must either be a client (-c) or server (-s)',
  IESERVERONLY: 'some option you are trying to set is server only',
  IECLIENTONLY: 'some option you are trying to set is client only',
  IEDURATION: `test duration valid values are 0 to ${MAX_TIME} seconds`,
  IENUMSTREAMS: `number of parallel streams too large (maximum = ${IPERF3_MAX_STREAMS})`,
  IEBLOCKSIZE: `block size too large (maximum = ${IPERF3_MAX_BLOCKSIZE} bytes)`,
  IEBUFSIZE: `socket buffer size too large (maximum = ${IPERF3_MAX_TCP_BUFFER} bytes)`,
  IEINTERVAL: `invalid report interval (min = ${MIN_INTERVAL}, max = ${MAX_INTERVAL} seconds)`,
  IEUDPBLOCKSIZE: `block size invalid (minimum = ${IPERF3_MIN_UDP_BLOCKSIZE} bytes, maximum = ${IPERF3_MAX_UDP_BLOCKSIZE} bytes)`,
  IEBADFORMAT: 'bad format specifier (valid formats are in the set [kmgtKMGT])',
  IEBADPORT: 'port number must be between 1 and 65535 inclusive',
  IEMSS: `TCP MSS too large (maximum = ${MAX_MSS} bytes)`,
  IEOMIT: `bogus value for --omit (maximum = ${MAX_OMIT_TIME} seconds)`,
  IEBURST: `invalid burst count (maximum = ${MAX_BURST})`,
  IEENDCONDITIONS: 'only one test end condition (-t, -n, -k) may be specified',
  IEREVERSEBIDIR: 'cannot be both reverse and bidirectional',
} as const;

/** usage_shortstr (src/iperf_locale.c). */
export const IPERF3_USAGE_SHORT =
  "Usage: iperf3 [-s|-c host] [options]\nTry `iperf3 --help' for more information.\n";

/** What main.c prints when iperf_parse_arguments fails. */
function paramError(text: string): Iperf3ParseResult {
  return { ok: false, stderr: `iperf3: parameter error - ${text}\n\n${IPERF3_USAGE_SHORT}`, exitCode: 1 };
}

/** getopt's diagnostic, then iperf3's default: branch ("\n" + short usage, exit 1). */
function getoptError(line: string): Iperf3ParseResult {
  return { ok: false, stderr: `iperf3: ${line}\n\n${IPERF3_USAGE_SHORT}`, exitCode: 1 };
}

function notSimulated(spec: OptSpec, why = ''): Iperf3ParseResult {
  const name = spec.long ? `--${spec.long}` : `-${spec.short}`;
  return { ok: false, stderr: `iperf3: option ${name} is not simulated in ec2-netlab${why}\n`, exitCode: 1 };
}

// ---------------------------------------------------------------------------------------------
// C number conversions

/** The longest prefix strtod() would accept (decimal, exponent, hex, inf/nan), or '' if none. */
function strtodPrefix(s: string): string {
  const m =
    /^[ \t\n\v\f\r]*[+-]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])/.exec(
      s,
    );
  return m ? m[0] : '';
}

function strtodValue(prefix: string): number {
  const t = prefix.trim();
  const neg = t.startsWith('-');
  const body = t.replace(/^[+-]/, '');
  let v: number;
  if (/^0[xX]/.test(body)) {
    const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/.exec(body);
    const intPart = m?.[1] ?? '';
    const frac = m?.[2] ?? '';
    v =
      (intPart ? Number.parseInt(intPart, 16) : 0) +
      (frac ? Number.parseInt(frac, 16) / 16 ** frac.length : 0);
    if (m?.[3]) v *= 2 ** Number(m[3]);
  } else if (/^inf/i.test(body)) v = Number.POSITIVE_INFINITY;
  else if (/^nan/i.test(body)) v = Number.NaN;
  else v = Number(body);
  return neg ? -v : v;
}

/** C atof(): the leading number, 0 when there is none. */
export function cAtof(s: string): number {
  const p = strtodPrefix(s);
  return p ? strtodValue(p) : 0;
}

/** C atoi() on glibc (strtol, base 10, truncated to int): the leading integer, 0 when there is none. */
export function cAtoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  if (!m) return 0;
  // strtol saturates at LONG_MIN/LONG_MAX, then the int conversion keeps the low 32 bits.
  const lo = -(2n ** 63n);
  const hi = 2n ** 63n - 1n;
  let v = BigInt(m[1]!);
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return Number(BigInt.asIntN(32, v));
}

/**
 * units.c: sscanf("%lf%c") then scale by the suffix. sizes (unit_atof/unit_atoi) use 1024^n,
 * rates (unit_atof_rate) 1000^n; an unknown suffix is ignored. A string with no number leaves
 * iperf3's double uninitialised (undefined behaviour); we use 0.
 */
export function unitAtof(s: string, base: 1024 | 1000): number {
  const p = strtodPrefix(s);
  if (!p) return 0;
  let n = strtodValue(p);
  const suffix = s.charAt(p.length);
  const k = base;
  switch (suffix) {
    case 't':
    case 'T':
      n *= k * k * k * k;
      break;
    case 'g':
    case 'G':
      n *= k * k * k;
      break;
    case 'm':
    case 'M':
      n *= k * k;
      break;
    case 'k':
    case 'K':
      n *= k;
      break;
    default:
      break;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// getopt_long

type Scanned = { kind: 'opt'; spec: OptSpec; value?: string } | { kind: 'error'; result: Iperf3ParseResult };

/** Scan argv like glibc getopt_long (permuting: non-options are skipped). */
function* scan(argv: readonly string[]): Generator<Scanned> {
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i]!;
    i++;
    if (arg === '--') return;
    if (arg.startsWith('--')) {
      const body = arg.slice(2);
      const eq = body.indexOf('=');
      const name = eq >= 0 ? body.slice(0, eq) : body;
      const exact = OPTS.find((o) => o.long === name);
      let spec = exact;
      if (!spec) {
        const cands = OPTS.filter((o) => o.long?.startsWith(name));
        const first = cands[0];
        if (first && cands.every((c) => c.key === first.key && c.arg === first.arg)) spec = first;
        else if (cands.length > 1) {
          const list = cands.map((c) => ` '--${c.long}'`).join('');
          yield {
            kind: 'error',
            result: getoptError(`option '--${body}' is ambiguous; possibilities:${list}`),
          };
          return;
        }
      }
      if (!spec) {
        yield { kind: 'error', result: getoptError(`unrecognized option '--${body}'`) };
        return;
      }
      if (eq >= 0) {
        if (spec.arg === 'none') {
          yield { kind: 'error', result: getoptError(`option '--${spec.long}' doesn't allow an argument`) };
          return;
        }
        yield { kind: 'opt', spec, value: body.slice(eq + 1) };
      } else if (spec.arg === 'required') {
        if (i >= argv.length) {
          yield { kind: 'error', result: getoptError(`option '--${spec.long}' requires an argument`) };
          return;
        }
        yield { kind: 'opt', spec, value: argv[i++]! };
      } else yield { kind: 'opt', spec };
      continue;
    }
    if (arg.length < 2 || !arg.startsWith('-')) continue; // non-option word: iperf3 ignores it
    for (let j = 1; j < arg.length; j++) {
      const c = arg[j]!;
      const spec = SHORT.get(c);
      if (!spec) {
        yield { kind: 'error', result: getoptError(`invalid option -- '${c}'`) };
        return;
      }
      if (spec.arg === 'none') {
        yield { kind: 'opt', spec };
        continue;
      }
      const rest = arg.slice(j + 1);
      if (rest !== '') yield { kind: 'opt', spec, value: rest };
      else if (spec.arg === 'optional') yield { kind: 'opt', spec };
      else if (i < argv.length) yield { kind: 'opt', spec, value: argv[i++]! };
      else {
        yield { kind: 'error', result: getoptError(`option requires an argument -- '${c}'`) };
        return;
      }
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Parse iperf3's arguments (argv without the program name).
 * `env.systemInfo` is the uname line -v prints (defaults to DEFAULT_IPERF3_SYSTEM_INFO).
 */
export function parseIperf3Args(
  argv: readonly string[],
  env: { systemInfo?: string } = {},
): Iperf3ParseResult {
  let role: 'c' | 's' | undefined;
  let host: string | undefined;
  let port = IPERF3_DEFAULT_PORT;
  let protocol: 'tcp' | 'udp' = 'tcp';
  let duration = IPERF3_DEFAULT_DURATION_SEC;
  let durationFlag = false;
  let bytes = 0;
  let parallel = 1;
  let blksize = 0;
  let mss = 0;
  let rate = 0;
  let rateFlag = false;
  let burst = 0;
  let reverse = false;
  let bidir = false;
  let interval = 1;
  let window = 0;
  let json = false;
  let format: Iperf3Format = 'a';
  let omit = 0;
  let title: string | undefined;
  let congestion: string | undefined;
  let oneOff = false;
  let serverFlag = false;
  let clientFlag = false;

  for (const item of scan(argv)) {
    if (item.kind === 'error') return item.result;
    const { spec } = item;
    const v = item.value ?? '';
    if (!SUPPORTED.has(spec.key)) return notSimulated(spec);
    switch (spec.key) {
      case 'p': {
        const p = cAtoi(v);
        if (p < 1 || p > 65535) return paramError(IPERF3_ERRORS.IEBADPORT);
        port = p;
        break;
      }
      case 'f': {
        const f = v.charAt(0);
        if (!'kKmMgGtT'.includes(f) || f === '') return paramError(IPERF3_ERRORS.IEBADFORMAT);
        format = f as Iperf3Format;
        break;
      }
      case 'i': {
        interval = cAtof(v);
        if ((interval < MIN_INTERVAL || interval > MAX_INTERVAL) && interval !== 0)
          return paramError(IPERF3_ERRORS.IEINTERVAL);
        break;
      }
      case '1':
        oneOff = true;
        serverFlag = true;
        break;
      case 'J':
        json = true;
        break;
      case 'v': {
        // printf("%s (cJSON %s)\n%s\n%s\n", version, cJSON_Version(), get_system_info(), get_optional_features())
        const features =
          'Optional features available: CPU affinity setting, IPv6 flow label, TCP congestion algorithm setting, ' +
          "sendfile / zerocopy, socket pacing, bind to device, support IPv4 don't fragment, POSIX threads";
        const sys = env.systemInfo ?? DEFAULT_IPERF3_SYSTEM_INFO;
        return {
          ok: false,
          exitCode: 0,
          stderr: '',
          stdout: `${IPERF3_VERSION} (cJSON 1.7.15)\n${sys}\n${features}\n`,
        };
      }
      case 'h':
        return { ok: false, exitCode: 0, stderr: '', stdout: IPERF3_USAGE_LONG };
      case 's':
        if (role === 'c') return paramError(IPERF3_ERRORS.IESERVCLIENT);
        role = 's';
        break;
      case 'c':
        if (role === 's') return paramError(IPERF3_ERRORS.IESERVCLIENT);
        role = 'c';
        host = v;
        break;
      case 'u':
        protocol = 'udp';
        clientFlag = true;
        break;
      case 'b': {
        let rateText = v;
        const slash = v.indexOf('/');
        if (slash >= 0) {
          rateText = v.slice(0, slash);
          burst = cAtoi(v.slice(slash + 1));
          if (burst <= 0 || burst > MAX_BURST) return paramError(IPERF3_ERRORS.IEBURST);
        }
        rate = unitAtof(rateText, 1000);
        if (!(rate >= 0) || !Number.isFinite(rate))
          return {
            ok: false,
            exitCode: 1,
            stderr: `iperf3: option --bitrate ${v} is not simulated in ec2-netlab\n`,
          };
        rate = Math.floor(rate); // settings->rate is a uint64_t
        rateFlag = true;
        clientFlag = true;
        break;
      }
      case 't':
        duration = cAtoi(v);
        if (duration > MAX_TIME || duration < 0) return paramError(IPERF3_ERRORS.IEDURATION);
        if (duration > IPERF3_LAB_MAX_TIME)
          return notSimulated(spec, ` beyond ${IPERF3_LAB_MAX_TIME} seconds (-t ${duration})`);
        durationFlag = true;
        clientFlag = true;
        break;
      case 'n': {
        const n = unitAtof(v, 1024);
        if (n < 0 || !Number.isFinite(n))
          return {
            ok: false,
            exitCode: 1,
            stderr: `iperf3: option --bytes ${v} is not simulated in ec2-netlab\n`,
          };
        bytes = Math.trunc(n);
        clientFlag = true;
        break;
      }
      case 'l': {
        const n = unitAtof(v, 1024);
        blksize = Number.isFinite(n) ? Math.trunc(n) : Number.MAX_SAFE_INTEGER;
        clientFlag = true;
        break;
      }
      case 'P':
        parallel = cAtoi(v);
        if (parallel > IPERF3_MAX_STREAMS) return paramError(IPERF3_ERRORS.IENUMSTREAMS);
        // iperf3 accepts 0 or a negative count and then starts a test without streams.
        if (parallel < 1) return notSimulated(spec, ' with fewer than 1 stream');
        clientFlag = true;
        break;
      case 'R':
        if (bidir) return paramError(IPERF3_ERRORS.IEREVERSEBIDIR);
        reverse = true;
        clientFlag = true;
        break;
      case 'bidir':
        if (reverse) return paramError(IPERF3_ERRORS.IEREVERSEBIDIR);
        bidir = true;
        clientFlag = true;
        break;
      case 'w': {
        const w = unitAtof(v, 1024);
        if (w > IPERF3_MAX_TCP_BUFFER) return paramError(IPERF3_ERRORS.IEBUFSIZE);
        if (w < 0) return notSimulated(spec, ' with a negative size');
        window = Math.trunc(w);
        clientFlag = true;
        break;
      }
      case 'M':
        mss = cAtoi(v);
        if (mss > MAX_MSS) return paramError(IPERF3_ERRORS.IEMSS);
        if (mss < 0) return notSimulated(spec, ' with a negative MSS');
        clientFlag = true;
        break;
      case '4':
        // Everything in the simulated VPC is IPv4 already.
        break;
      case 'O':
        omit = cAtoi(v);
        if (omit < 0 || omit > MAX_OMIT_TIME) return paramError(IPERF3_ERRORS.IEOMIT);
        clientFlag = true;
        break;
      case 'T':
        title = v;
        clientFlag = true;
        break;
      case 'C':
        congestion = v;
        clientFlag = true;
        break;
    }
  }

  if (role === 'c' && serverFlag) return paramError(IPERF3_ERRORS.IESERVERONLY);
  if (role === 's' && clientFlag) return paramError(IPERF3_ERRORS.IECLIENTONLY);

  if (blksize === 0 && protocol === 'tcp') blksize = IPERF3_DEFAULT_TCP_BLKSIZE;
  if ((protocol !== 'udp' && blksize <= 0) || blksize > IPERF3_MAX_BLOCKSIZE)
    return paramError(IPERF3_ERRORS.IEBLOCKSIZE);
  if (
    protocol === 'udp' &&
    blksize !== 0 &&
    (blksize < IPERF3_MIN_UDP_BLOCKSIZE || blksize > IPERF3_MAX_UDP_BLOCKSIZE)
  )
    return paramError(IPERF3_ERRORS.IEUDPBLOCKSIZE);

  if (!rateFlag) rate = protocol === 'udp' ? IPERF3_DEFAULT_UDP_RATE_BPS : 0;
  if (bytes !== 0 && !durationFlag) duration = 0;
  if (durationFlag && bytes !== 0) return paramError(IPERF3_ERRORS.IEENDCONDITIONS);
  if (role === undefined) return paramError(IPERF3_ERRORS.IENOROLE);

  const warnings: string[] = [];
  if (json && format !== 'a')
    warnings.push('warning: Report format (-f) flag ignored with JSON output (-J)\n');

  const opts: Iperf3Options = {
    role: role === 'c' ? 'client' : 'server',
    port,
    protocol,
    durationSec: duration,
    durationGiven: durationFlag,
    bytes,
    parallel,
    targetBitrateBps: rate,
    reverse,
    bidir,
    intervalSec: interval,
    json,
    format,
    omitSec: omit,
    oneOff,
    warnings,
  };
  if (host !== undefined) opts.host = host;
  if (blksize !== 0) opts.blockSizeBytes = blksize;
  if (mss !== 0) opts.mssBytes = mss;
  if (burst !== 0) opts.burstPackets = burst;
  if (window !== 0) opts.windowBytes = window;
  if (title !== undefined) opts.title = title;
  if (congestion !== undefined) opts.congestion = congestion;
  return { ok: true, opts };
}

/**
 * The run-time failure real iperf3 hits when -M asks for an MSS Linux refuses (setsockopt
 * TCP_MAXSEG below 88 → EINVAL): it prints "Connecting to host …" and then this on stderr.
 * Returns undefined when the MSS is acceptable.
 */
export function iperf3MssSetupError(opts: Iperf3Options): string | undefined {
  if (opts.protocol !== 'tcp' || opts.mssBytes === undefined || opts.mssBytes >= LINUX_TCP_MIN_MSS)
    return undefined;
  return 'iperf3: error - unable to set TCP/SCTP MSS: Invalid argument\n';
}

/**
 * The run-time failure of -C with an algorithm the host does not have (setsockopt TCP_CONGESTION →
 * ENOENT when connecting the data socket, after the MSS is set; only TCP sockets take it). The lab's
 * kernels have tcp_available_congestion_control "reno cubic". Undefined when it can be set.
 */
export function iperf3CongestionSetupError(opts: Iperf3Options): string | undefined {
  if (opts.protocol !== 'tcp' || opts.congestion === undefined || isTcpCongestionName(opts.congestion))
    return undefined;
  return 'iperf3: error - unable to set TCP_CONGESTION: Supplied congestion control algorithm not supported on this host\n';
}

/** UDP block size iperf3 picks when -l is absent: the control connection's MSS, else 1460. */
export function iperf3UdpBlockSize(opts: Iperf3Options, controlMssBytes: number | undefined): number {
  if (opts.blockSizeBytes !== undefined) return opts.blockSizeBytes;
  return controlMssBytes && controlMssBytes > 0 ? controlMssBytes : IPERF3_DEFAULT_UDP_BLKSIZE;
}

/**
 * usage_longstr of iperf 3.16 built on Linux with OpenSSL (src/iperf_locale.c), with the
 * printf arguments filled in: rcv-timeout 120000 ms, UDP rate 1 Mbit, pacing 1000 us, 10 s,
 * 128 KB TCP block, 1460 UDP block.
 */
export const IPERF3_USAGE_LONG =
  'Usage: iperf3 [-s|-c host] [options]\n' +
  '       iperf3 [-h|--help] [-v|--version]\n\n' +
  'Server or Client:\n' +
  '  -p, --port      #         server port to listen on/connect to\n' +
  '  -f, --format   [kmgtKMGT] format to report: Kbits, Mbits, Gbits, Tbits\n' +
  '  -i, --interval  #         seconds between periodic throughput reports\n' +
  '  -I, --pidfile file        write PID file\n' +
  '  -F, --file name           xmit/recv the specified file\n' +
  '  -A, --affinity n/n,m      set CPU affinity\n' +
  '  -B, --bind <host>[%<dev>] bind to the interface associated with the address <host>\n' +
  '                            (optional <dev> equivalent to `--bind-dev <dev>`)\n' +
  '  --bind-dev <dev>          bind to the network interface with SO_BINDTODEVICE\n' +
  '  -V, --verbose             more detailed output\n' +
  '  -J, --json                output in JSON format\n' +
  '  --logfile f               send output to a log file\n' +
  '  --forceflush              force flushing output at every interval\n' +
  '  --timestamps<=format>     emit a timestamp at the start of each output line\n' +
  '                            (optional "=" and format string as per strftime(3))\n' +
  '  --rcv-timeout #           idle timeout for receiving data (default 120000 ms)\n' +
  '  --snd-timeout #           timeout for unacknowledged TCP data\n' +
  '                            (in ms, default is system settings)\n' +
  '  -d, --debug[=#]           emit debugging output\n' +
  '                            (optional optional "=" and debug level: 1-4. Default is 4 - all messages)\n' +
  '  -v, --version             show version information and quit\n' +
  '  -h, --help                show this message and quit\n' +
  'Server specific:\n' +
  '  -s, --server              run in server mode\n' +
  '  -D, --daemon              run the server as a daemon\n' +
  '  -1, --one-off             handle one client connection then exit\n' +
  "  --server-bitrate-limit #[KMG][/#]   server's total bit rate limit (default 0 = no limit)\n" +
  '                            (optional slash and number of secs interval for averaging\n' +
  '                            total data rate.  Default is 5 seconds)\n' +
  '  --idle-timeout #          restart idle server after # seconds in case it\n' +
  '                            got stuck (default - no timeout)\n' +
  '  --rsa-private-key-path    path to the RSA private key used to decrypt\n' +
  '                            authentication credentials\n' +
  '  --authorized-users-path   path to the configuration file containing user\n' +
  '                            credentials\n' +
  '  --time-skew-threshold     time skew threshold (in seconds) between the server\n' +
  '                            and client during the authentication process\n' +
  'Client specific:\n' +
  '  -c, --client <host>[%<dev>] run in client mode, connecting to <host>\n' +
  '                              (option <dev> equivalent to `--bind-dev <dev>`)\n' +
  '  -u, --udp                 use UDP rather than TCP\n' +
  '  --connect-timeout #       timeout for control connection setup (ms)\n' +
  '  -b, --bitrate #[KMG][/#]  target bitrate in bits/sec (0 for unlimited)\n' +
  '                            (default 1 Mbit/sec for UDP, unlimited for TCP)\n' +
  '                            (optional slash and packet count for burst mode)\n' +
  '  --pacing-timer #[KMG]     set the timing for pacing, in microseconds (default 1000)\n' +
  '  --fq-rate #[KMG]          enable fair-queuing based socket pacing in\n' +
  '                            bits/sec (Linux only)\n' +
  '  -t, --time      #         time in seconds to transmit for (default 10 secs)\n' +
  '  -n, --bytes     #[KMG]    number of bytes to transmit (instead of -t)\n' +
  '  -k, --blockcount #[KMG]   number of blocks (packets) to transmit (instead of -t or -n)\n' +
  '  -l, --length    #[KMG]    length of buffer to read or write\n' +
  '                            (default 128 KB for TCP, dynamic or 1460 for UDP)\n' +
  '  --cport         <port>    bind to a specific client port (TCP and UDP, default: ephemeral port)\n' +
  '  -P, --parallel  #         number of parallel client streams to run\n' +
  '  -R, --reverse             run in reverse mode (server sends, client receives)\n' +
  '  --bidir                   run in bidirectional mode.\n' +
  '                            Client and server send and receive data.\n' +
  '  -w, --window    #[KMG]    set send/receive socket buffer sizes\n' +
  '                            (indirectly sets TCP window size)\n' +
  '  -C, --congestion <algo>   set TCP congestion control algorithm (Linux and FreeBSD only)\n' +
  '  -M, --set-mss   #         set TCP/SCTP maximum segment size (MTU - 40 bytes)\n' +
  "  -N, --no-delay            set TCP/SCTP no delay, disabling Nagle's Algorithm\n" +
  '  -4, --version4            only use IPv4\n' +
  '  -6, --version6            only use IPv6\n' +
  '  -S, --tos N               set the IP type of service, 0-255.\n' +
  '                            The usual prefixes for octal and hex can be used,\n' +
  '                            i.e. 52, 064 and 0x34 all specify the same value.\n' +
  '  --dscp N or --dscp val    set the IP dscp value, either 0-63 or symbolic.\n' +
  '                            Numeric values can be specified in decimal,\n' +
  '                            octal and hex (see --tos above).\n' +
  '  -L, --flowlabel N         set the IPv6 flow label (only supported on Linux)\n' +
  "  -Z, --zerocopy            use a 'zero copy' method of sending data\n" +
  '  -O, --omit N              perform pre-test for N seconds and omit the pre-test statistics\n' +
  '  -T, --title str           prefix every output line with this string\n' +
  '  --extra-data str          data string to include in client and server JSON\n' +
  '  --get-server-output       get results from server\n' +
  '  --udp-counters-64bit      use 64-bit counters in UDP test packets\n' +
  '  --repeating-payload       use repeating pattern in payload, instead of\n' +
  '                            randomized payload (like in iperf2)\n' +
  "  --dont-fragment           set IPv4 Don't Fragment flag\n" +
  '  --username                username for authentication\n' +
  '  --rsa-public-key-path     path to the RSA public key used to encrypt\n' +
  '                            authentication credentials\n' +
  '\n' +
  '[KMG] indicates options that support a K/M/G suffix for kilo-, mega-, or giga-\n' +
  '\n' +
  'iperf3 homepage at: https://software.es.net/iperf/\n' +
  'Report bugs to:     https://github.com/esnet/iperf\n';
