/**
 * `tc`: Linux traffic control, parsed and printed exactly as iproute2 does (IPROUTE2 tc/tc.c,
 * tc/tc_qdisc.c, tc/tc_class.c, tc/tc_util.c, lib/utils.c and the q_*.c option parsers), applied to
 * the simulated device's qdisc tree (the kernel side lives in engine/host/qdisc/tree.ts).
 *
 * Supported: `tc [-s] [-d] [-j] [-p] [-iec] qdisc { add | change | replace | link | delete | show }`
 * and `tc … class { add | change | replace | delete | show }` for pfifo, bfifo, pfifo_fast, fq_codel,
 * fq, htb, tbf and mq. iproute2's error texts and exit codes are reproduced: option errors exit 1
 * (parse_qopt), argument errors 255 (invarg/duparg/-1 returns), kernel errors 2 with the extack
 * ("Error: … .") or "RTNETLINK answers: …". Real qdiscs the lab does not model (netem, cake, …),
 * filters, actions, estimators and size tables are refused with a "not simulated" message.
 */
import {
  type ClassDump,
  type FqCodelOptions,
  type FqOptions,
  type HtbClassOptions,
  type HtbOptions,
  isTcError,
  type QdiscOptions,
  TC_H_ROOT,
  type TbfOptions,
  type TcResult,
  tcMajor,
  tcMinor,
} from '../../host/qdisc/common';
import type { QdiscDump, QdiscManager, QdiscModifyFlags } from '../../host/qdisc/tree';
import type { CommandOutcome } from '../types';

/** The devices `tc` can see, by name (e.g. "eth0", "lo"), in ifindex order. */
export type TcDevices = ReadonlyMap<string, QdiscManager>;

/** Qdiscs that exist in Linux/iproute2 but are not modelled by the lab. */
const UNMODELLED_QDISCS = new Set([
  'netem',
  'cake',
  'sfq',
  'prio',
  'red',
  'codel',
  'pie',
  'fq_pie',
  'hfsc',
  'drr',
  'qfq',
  'cbq',
  'choke',
  'sfb',
  'hhf',
  'multiq',
  'mqprio',
  'taprio',
  'etf',
  'cbs',
  'skbprio',
  'ingress',
  'clsact',
  'plug',
  'ets',
  'gred',
  'dualpi2',
  'pfifo_head_drop',
  'atm',
  'dsmark',
  'noqueue',
]);

// ---------------------------------------------------------------- output plumbing

class Out {
  stdout = '';
  stderr = '';
  err(s: string): void {
    this.stderr += s;
  }
  print(s: string): void {
    this.stdout += s;
  }
}

/** A parse failure that ends the command with iproute2's exit status. */
class TcExit {
  constructor(readonly code: number) {}
}

function outcome(o: Out, code: number, result?: unknown): CommandOutcome {
  return { kind: 'done', out: { stdout: o.stdout, stderr: o.stderr, exitCode: code, result } };
}

// ---------------------------------------------------------------- iproute2 helpers (lib/utils.c, tc_util.c)

/** iproute2 `matches(prefix, string)`: true when `arg` is a non-empty prefix of `word`. */
export function matches(arg: string, word: string): boolean {
  return arg.length > 0 && word.startsWith(arg);
}

/** strtod: the longest numeric prefix of s; returns [value, rest] or null when none. */
function strtod(s: string): [number, string] | null {
  const m = /^[ \t]*[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)/.exec(s);
  if (!m) return null;
  return [Number(m[0]), s.slice(m[0].length)];
}

/** strtoul with base 0/10/16 semantics; null when no digits or trailing garbage. */
function strtoulFull(s: string, base: number): number | null {
  let t = s.trim();
  let neg = false;
  if (t.startsWith('+')) t = t.slice(1);
  else if (t.startsWith('-')) {
    neg = true;
    t = t.slice(1);
  }
  let b = base;
  if ((b === 0 || b === 16) && /^0[xX][0-9a-fA-F]/.test(t)) {
    t = t.slice(2);
    b = 16;
  } else if (b === 0 && /^0[0-7]/.test(t)) {
    b = 8;
  } else if (b === 0) b = 10;
  const digits = b === 16 ? /^[0-9a-fA-F]+$/ : b === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!digits.test(t)) return null;
  const v = Number.parseInt(t, b);
  return neg ? (2 ** 32 - v) >>> 0 : v;
}

/** get_u32 / get_unsigned: whole-string unsigned 32-bit. */
export function getU32(s: string, base = 0): number | null {
  const v = strtoulFull(s, base);
  if (v === null || v > 0xffffffff) return null;
  return v;
}

const RATE_SUFFIXES: ReadonlyArray<[string, number]> = [
  ['bit', 1],
  ['Kibit', 1024],
  ['kbit', 1000],
  ['mibit', 1024 * 1024],
  ['mbit', 1e6],
  ['gibit', 1024 * 1024 * 1024],
  ['gbit', 1e9],
  ['tibit', 1024 ** 4],
  ['tbit', 1e12],
  ['Bps', 8],
  ['KiBps', 8 * 1024],
  ['KBps', 8000],
  ['MiBps', 8 * 1024 * 1024],
  ['MBps', 8e6],
  ['GiBps', 8 * 1024 ** 3],
  ['GBps', 8e9],
  ['TiBps', 8 * 1024 ** 4],
  ['TBps', 8e12],
];

/** get_rate64: a rate with tc units (bare number = bit/s); returns bytes/s (truncated). */
export function getRate64(s: string): number | null {
  const d = strtod(s);
  if (!d) return null;
  let [bps, rest] = d;
  if (rest !== '') {
    const suf = RATE_SUFFIXES.find(([name]) => name.toLowerCase() === rest.toLowerCase());
    if (!suf) return null;
    bps *= suf[1];
  }
  if (bps < 0) return null;
  return Math.floor(bps / 8);
}

/** get_size: bytes with b/k/kb/m/mb/g/gb/kbit/mbit/gbit suffixes (binary multiples). */
export function getSize(s: string): number | null {
  const d = strtod(s);
  if (!d) return null;
  let [sz, rest] = d;
  const r = rest.toLowerCase();
  if (r !== '') {
    if (r === 'kb' || r === 'k') sz *= 1024;
    else if (r === 'gb' || r === 'g') sz *= 1024 * 1024 * 1024;
    else if (r === 'gbit') sz *= (1024 * 1024 * 1024) / 8;
    else if (r === 'mb' || r === 'm') sz *= 1024 * 1024;
    else if (r === 'mbit') sz *= (1024 * 1024) / 8;
    else if (r === 'kbit') sz *= 1024 / 8;
    else if (r !== 'b') return null;
  }
  if (sz < 0 || sz > 0xffffffff) return null;
  return Math.floor(sz);
}

/** get_size_and_cell: "SIZE[/CELL]"; the cell (rate-table granularity) is accepted and ignored. */
function getSizeAndCell(s: string): number | null {
  const slash = s.indexOf('/');
  if (slash >= 0) {
    const cell = getSize(s.slice(slash + 1));
    if (cell === null || (cell & (cell - 1)) !== 0) return null;
    return getSize(s.slice(0, slash));
  }
  return getSize(s);
}

/** get_time: microseconds (TIME_UNITS_PER_SEC = 1e6); bare number = µs. */
export function getTime(s: string): number | null {
  const d = strtod(s);
  if (!d) return null;
  let [t, rest] = d;
  const r = rest.toLowerCase();
  if (r !== '') {
    if (r === 's' || r === 'sec' || r === 'secs') t *= 1e6;
    else if (r === 'ms' || r === 'msec' || r === 'msecs') t *= 1e3;
    else if (r === 'us' || r === 'usec' || r === 'usecs') t *= 1;
    else return null;
  }
  if (t < 0 || t > 0xffffffff) return null;
  return Math.floor(t);
}

/** C printf "%g". */
export function fmtG(x: number): string {
  if (x === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(x)));
  if (exp < -4 || exp >= 6) {
    const s = x.toExponential(5);
    const [m, e] = s.split('e');
    const mant = m!.includes('.') ? m!.replace(/0+$/, '').replace(/\.$/, '') : m!;
    const en = Number(e);
    return `${mant}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  }
  const s = x.toFixed(Math.max(0, 5 - exp));
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** sprint_time: µs → "5ms", "100ms", "1s", "10us". */
export function sprintTime(us: number): string {
  if (us >= 1e6) return `${fmtG(us / 1e6)}s`;
  if (us >= 1e3) return `${fmtG(us / 1e3)}ms`;
  return `${Math.trunc(us)}us`;
}

/** sprint_size: bytes → "32Mb", "15Kb", "1600b". */
export function sprintSize(sz: number): string {
  const kilo = 1024;
  const mega = kilo * kilo;
  const s = Math.trunc(sz) >>> 0;
  if (s >= mega && Math.abs(mega * Math.round(s / mega) - s) < 1024) return `${fmtG(Math.round(s / mega))}Mb`;
  if (s >= kilo && Math.abs(kilo * Math.round(s / kilo) - s) < 16) return `${fmtG(Math.round(s / kilo))}Kb`;
  return `${s}b`;
}

/** sprint_rate: bytes/s → "10Gbit", "964Mbit", "550Kbit". */
export function sprintRate(bytesPerSec: number, iec = false): string {
  const units = ['', 'K', 'M', 'G', 'T'];
  const kilo = iec ? 1024 : 1000;
  let rate = Math.floor(bytesPerSec) * 8;
  let i = 0;
  for (; i < units.length - 1; i++) {
    if (rate < kilo) break;
    if (rate % kilo !== 0 && rate < 1000 * kilo) break;
    rate = Math.floor(rate / kilo);
  }
  return `${rate.toFixed(0)}${units[i]}${iec ? 'i' : ''}bit`;
}

/** print_tc_classid. */
export function sprintClassid(h: number): string {
  if (h === TC_H_ROOT) return 'root';
  if (h === 0) return 'none';
  if (tcMajor(h) === 0) return `:${tcMinor(h).toString(16)}`;
  if (tcMinor(h) === 0) return `${tcMajor(h).toString(16)}:`;
  return `${tcMajor(h).toString(16)}:${tcMinor(h).toString(16)}`;
}

/** get_qdisc_handle: "1:" / "1" / "none" → major << 16. */
export function getQdiscHandle(s: string): number | null {
  if (s === 'none') return 0;
  const m = /^([0-9a-fA-F]+)(.*)$/.exec(s.replace(/^0[xX]/, ''));
  if (!m) return null;
  const maj = Number.parseInt(m[1]!, 16);
  if (maj >= 1 << 16) return null;
  if (m[2] !== '' && m[2] !== ':' && !m[2]!.startsWith(':')) return null;
  if (m[2] !== '' && m[2] !== ':') return null;
  return (maj << 16) >>> 0;
}

/** get_tc_classid: "1:10", ":1", "1:", "root", "none", or a raw hex number. */
export function getTcClassid(s: string): number | null {
  if (s === 'root') return TC_H_ROOT;
  if (s === 'none') return 0;
  const m = /^([0-9a-fA-F]*)(.*)$/.exec(s);
  if (!m) return null;
  const majStr = m[1]!;
  const rest = m[2]!;
  let maj = majStr === '' ? 0 : Number.parseInt(majStr, 16);
  if (majStr === '' && !rest.startsWith(':')) return null;
  if (rest.startsWith(':')) {
    if (maj >= 1 << 16) return null;
    const minStr = rest.slice(1);
    if (minStr !== '' && !/^[0-9a-fA-F]+$/.test(minStr)) return null;
    const min = minStr === '' ? 0 : Number.parseInt(minStr, 16);
    if (min >= 1 << 16) return null;
    maj = ((maj << 16) | min) >>> 0;
  } else if (rest !== '') return null;
  return maj >>> 0;
}

// psched ticks as tc computes them: /proc/net/psched "000003e8 00000040 000f4240 3b9aca00"
// → tick_in_usec = 1000/64 = 15.625; the kernel converts ticks to ns with << 6.
const TICK_IN_USEC = 15.625;
/** tc_calc_xmittime → kernel ns: bytes at rate (B/s) as truncated psched ticks, × 64 ns. */
export function xmitTimeNs(rateBps: number, sizeBytes: number): number {
  const ticks = Math.floor(1e6 * (sizeBytes / rateBps) * TICK_IN_USEC);
  return Math.min(ticks, 0xffffffff) * 64;
}
/** tc_calc_xmitsize: the bytes a bucket of `ns` holds at rate, as tc prints it. */
export function xmitSize(rateBps: number, ns: number): number {
  const ticks = Math.floor(ns / 64);
  return Math.trunc((rateBps * (ticks / TICK_IN_USEC)) / 1e6);
}
/** get_hz(): NSEC_PER_SEC / hrtimer resolution = 1e9 on high-res kernels. */
const HZ = 1e9;

// ---------------------------------------------------------------- usage texts

const TC_USAGE =
  'Usage:\ttc [ OPTIONS ] OBJECT { COMMAND | help }\n' +
  '\ttc [-force] -batch filename\n' +
  'where  OBJECT := { qdisc | class | filter | chain |\n' +
  '\t\t    action | monitor | exec }\n' +
  '       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[aw] |\n' +
  '\t\t    -o[neline] | -j[son] | -p[retty] | -c[olor]\n' +
  '\t\t    -b[atch] [filename] | -n[etns] name | -N[umeric] |\n' +
  '\t\t     -nm | -nam[es] | { -cf | -conf } path\n' +
  '\t\t     -br[ief] }\n';

const QDISC_USAGE =
  'Usage: tc qdisc [ add | del | replace | change | show ] dev STRING\n' +
  '       [ handle QHANDLE ] [ root | ingress | clsact | parent CLASSID ]\n' +
  '       [ estimator INTERVAL TIME_CONSTANT ]\n' +
  '       [ stab [ help | STAB_OPTIONS] ]\n' +
  '       [ ingress_block BLOCK_INDEX ] [ egress_block BLOCK_INDEX ]\n' +
  '       [ [ QDISC_KIND ] [ help | OPTIONS ] ]\n' +
  '\n' +
  '       tc qdisc { show | list } [ dev STRING ] [ QDISC_ID ] [ invisible ]\n' +
  'Where:\n' +
  'QDISC_KIND := { [p|b]fifo | tbf | prio | red | etc. }\n' +
  'OPTIONS := ... try tc qdisc add <desired QDISC_KIND> help\n' +
  'STAB_OPTIONS := ... try tc qdisc add stab help\n' +
  'QDISC_ID := { root | ingress | handle QHANDLE | parent CLASSID }\n';

const CLASS_USAGE =
  'Usage: tc class [ add | del | change | replace | show ] dev STRING\n' +
  '       [ classid CLASSID ] [ root | parent CLASSID ]\n' +
  '       [ [ QDISC_KIND ] [ help | OPTIONS ] ]\n' +
  '\n' +
  '       tc class show [ dev STRING ] [ root | parent CLASSID ]\n' +
  'Where:\n' +
  'QDISC_KIND := { prio | etc. }\n' +
  'OPTIONS := ... try tc class add <desired QDISC_KIND> help\n';

/** tc/q_fq_codel.c explain(). */
export const FQ_CODEL_USAGE =
  'Usage: ... fq_codel\t[ limit PACKETS ] [ flows NUMBER ]\n' +
  '\t\t\t\t\t[ memory_limit BYTES ]\n' +
  '\t\t\t\t\t[ target TIME ] [ interval TIME ]\n' +
  '\t\t\t\t\t[ quantum BYTES ] [ [no]ecn ]\n' +
  '\t\t\t\t\t[ ce_threshold TIME ]\n' +
  '\t\t\t\t\t[ ce_threshold_selector VALUE/MASK ]\n' +
  '\t\t\t\t\t[ drop_batch SIZE ]\n';

/** tc/q_htb.c explain() (HTB_TC_VER 0x30003). */
export const HTB_USAGE =
  'Usage: ... qdisc add ... htb [default N] [r2q N]\n' +
  '                      [direct_qlen P] [offload]\n' +
  ' default  minor id of class to which unclassified packets are sent {0}\n' +
  ' r2q      DRR quantums are computed as rate in Bps/r2q {10}\n' +
  ' debug    string of 16 numbers each 0-3 {0}\n\n' +
  ' direct_qlen  Limit of the direct queue {in packets}\n' +
  ' offload  enable hardware offload\n' +
  '... class add ... htb rate R1 [burst B1] [mpu B] [overhead O]\n' +
  '                      [prio P] [slot S] [pslot PS]\n' +
  '                      [ceil R2] [cburst B2] [mtu MTU] [quantum Q]\n' +
  ' rate     rate allocated to this class (class can still borrow)\n' +
  ' burst    max bytes burst which can be accumulated during idle period {computed}\n' +
  ' mpu      minimum packet size used in rate computations\n' +
  ' overhead per-packet size overhead used in rate computations\n' +
  ' linklay  adapting to a linklayer e.g. atm\n' +
  ' ceil     definite upper class rate (no borrows) {rate}\n' +
  ' cburst   burst but for ceil {computed}\n' +
  ' mtu      max packet size we create rate map for {1600}\n' +
  ' prio     priority of leaf; lower are served first {0}\n' +
  ' quantum  how much bytes to serve from leaf at once {use r2q}\n' +
  '\nTC HTB version 3.3\n';

/** tc/q_tbf.c explain(). */
export const TBF_USAGE =
  'Usage: ... tbf limit BYTES burst BYTES[/BYTES] rate KBPS [ mtu BYTES[/BYTES] ]\n' +
  '\t[ peakrate KBPS ] [ latency TIME ] [ overhead BYTES ] [ linklayer TYPE ]\n';

/** tc/q_fq.c explain(). */
export const FQ_USAGE =
  'Usage: ... fq\t[ limit PACKETS ] [ flow_limit PACKETS ]\n' +
  '\t\t[ quantum BYTES ] [ initial_quantum BYTES ]\n' +
  '\t\t[ maxrate RATE ] [ buckets NUMBER ]\n' +
  '\t\t[ [no]pacing ] [ refill_delay TIME ]\n' +
  '\t\t[ bands 3 priomap P0 P1 ... P14 P15 ]\n' +
  '\t\t[ weights W1 W2 W3 ]\n' +
  '\t\t[ low_rate_threshold RATE ]\n' +
  '\t\t[ orphan_mask MASK]\n' +
  '\t\t[ timer_slack TIME]\n' +
  '\t\t[ ce_threshold TIME ]\n' +
  '\t\t[ horizon TIME ]\n' +
  '\t\t[ horizon_{cap|drop} ]\n';

/** tc/q_fifo.c explain(). */
const FIFO_USAGE = 'Usage: ... <[p|b]fifo | pfifo_head_drop> [ limit NUMBER ]\n';

// ---------------------------------------------------------------- option parsers (parse_qopt)

interface Cursor {
  argv: string[];
  i: number;
  o: Out;
}

/** NEXT_ARG(): advance or fail with incomplete_command(). */
function nextArg(c: Cursor): string {
  c.i++;
  if (c.i >= c.argv.length) {
    c.o.err('Command line is not complete. Try option "help"\n');
    throw new TcExit(255);
  }
  return c.argv[c.i]!;
}

function fail1(c: Cursor, msg: string, usage = ''): never {
  c.o.err(msg + usage);
  throw new TcExit(1);
}

function parseFqCodel(c: Cursor): FqCodelOptions {
  const o: FqCodelOptions = { kind: 'fq_codel' };
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    const u32 = (name: string): number => {
      const v = getU32(nextArg(c));
      if (v === null) fail1(c, `Illegal "${name}"\n`);
      return v;
    };
    const time = (name: string): number => {
      const v = getTime(nextArg(c));
      if (v === null) fail1(c, `Illegal "${name}"\n`);
      return v;
    };
    if (a === 'limit') o.limit = u32('limit');
    else if (a === 'flows') o.flows = u32('flows');
    else if (a === 'quantum') o.quantum = u32('quantum');
    else if (a === 'drop_batch') o.dropBatch = u32('drop_batch');
    else if (a === 'target') o.targetUs = time('target');
    else if (a === 'ce_threshold') o.ceThresholdUs = time('ce_threshold');
    else if (a === 'ce_threshold_selector') {
      const v = nextArg(c);
      const [val, mask] = v.split('/');
      if (mask === undefined || getU32(val ?? '') === null || getU32(mask) === null) {
        fail1(c, 'Illegal "ce_threshold_selector"\n');
      }
    } else if (a === 'memory_limit') {
      const v = getSize(nextArg(c));
      if (v === null) fail1(c, 'Illegal "memory_limit"\n');
      o.memoryLimit = v;
    } else if (a === 'interval') o.intervalUs = time('interval');
    else if (a === 'ecn') o.ecn = true;
    else if (a === 'noecn') o.ecn = false;
    else if (a === 'help') fail1(c, '', FQ_CODEL_USAGE);
    else fail1(c, `What is "${a}"?\n`, FQ_CODEL_USAGE);
  }
  // tc sends only non-zero values (if (limit) addattr …).
  if (o.limit === 0) o.limit = undefined;
  if (o.flows === 0) o.flows = undefined;
  if (o.quantum === 0) o.quantum = undefined;
  if (o.targetUs === 0) o.targetUs = undefined;
  if (o.intervalUs === 0) o.intervalUs = undefined;
  if (o.dropBatch === 0) o.dropBatch = undefined;
  return o;
}

function parseFq(c: Cursor): FqOptions {
  const o: FqOptions = { kind: 'fq' };
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    const u32 = (name: string): number => {
      const v = getU32(nextArg(c));
      if (v === null) fail1(c, `Illegal "${name}"\n`);
      return v;
    };
    const size = (name: string): number => {
      const v = getSize(nextArg(c));
      if (v === null) fail1(c, `Illegal "${name}"\n`);
      return v;
    };
    const rate = (name: string): number => {
      const v = getRate64(nextArg(c));
      if (v === null) fail1(c, `Illegal "${name}"\n`);
      return v;
    };
    const time = (name: string): number => {
      const v = getTime(nextArg(c));
      if (v === null) fail1(c, `Illegal "${name}"\n`);
      return v;
    };
    if (a === 'limit') o.limit = u32('limit');
    else if (a === 'flow_limit') o.flowLimit = u32('flow_limit');
    else if (a === 'buckets') {
      const v = u32('buckets');
      o.buckets = v;
    } else if (a === 'maxrate') {
      const r = rate('maxrate');
      o.maxrate = r >= 2 ** 32 ? Number.POSITIVE_INFINITY : r;
    } else if (a === 'low_rate_threshold') o.lowRateThreshold = rate('low_rate_threshold');
    else if (a === 'defrate') rate('defrate');
    else if (a === 'quantum') o.quantum = size('quantum');
    else if (a === 'initial_quantum') o.initialQuantum = size('initial_quantum');
    else if (a === 'orphan_mask') o.orphanMask = u32('orphan_mask');
    else if (a === 'refill_delay') o.refillDelayUs = time('refill_delay');
    else if (a === 'timer_slack') o.timerSlackUs = time('timer_slack');
    else if (a === 'ce_threshold') o.ceThresholdUs = time('ce_threshold');
    else if (a === 'horizon') o.horizonUs = time('horizon');
    else if (a === 'horizon_cap') o.horizonDrop = false;
    else if (a === 'horizon_drop') o.horizonDrop = true;
    else if (a === 'pacing') o.pacing = true;
    else if (a === 'nopacing') o.pacing = false;
    else if (a === 'bands' || a === 'priomap' || a === 'weights') {
      c.o.err(`fq option "${a}" is not simulated in ec2-netlab\n`);
      throw new TcExit(1);
    } else if (a === 'help') fail1(c, '', FQ_USAGE);
    else fail1(c, `What is "${a}"?\n`, FQ_USAGE);
  }
  if (o.buckets !== undefined) {
    // fq_parse_opt: buckets → fq_log = ilog2(buckets), the kernel keeps 2^log buckets.
    o.buckets = 2 ** Math.floor(Math.log2(Math.max(1, o.buckets)));
  }
  return o;
}

function parseHtb(c: Cursor): HtbOptions {
  const o: HtbOptions = { kind: 'htb', r2q: 10, defcls: 0 };
  const explain1 = (name: string): never => fail1(c, `Illegal "${name}"\n`, HTB_USAGE);
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'r2q')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('r2q');
      o.r2q = v!;
    } else if (matches(a, 'default')) {
      const v = getU32(nextArg(c), 16);
      if (v === null) explain1('default');
      o.defcls = v!;
    } else if (matches(a, 'debug')) {
      nextArg(c);
    } else if (matches(a, 'direct_qlen')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('direct_qlen');
      o.directQlen = v!;
    } else if (matches(a, 'offload')) {
      c.o.err('htb offload is not simulated in ec2-netlab\n');
      throw new TcExit(1);
    } else fail1(c, `What is "${a}"?\n`, HTB_USAGE);
  }
  return o;
}

function parseHtbClass(c: Cursor): HtbClassOptions {
  let rate = 0;
  let ceil = 0;
  let buffer = 0;
  let cbuffer = 0;
  let mtu = 1600;
  let prio = 0;
  let quantum = 0;
  const explain1 = (name: string): never => fail1(c, `Illegal "${name}"\n`, HTB_USAGE);
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'prio')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('prio');
      prio = v!;
    } else if (matches(a, 'mtu')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('mtu');
      mtu = v!;
    } else if (matches(a, 'mpu') || matches(a, 'overhead')) {
      const name = matches(a, 'mpu') ? 'mpu' : 'overhead';
      const v = getU32(nextArg(c), 10);
      if (v === null || v > 0xffff) explain1(name);
      if (v !== 0) {
        c.o.err(`htb ${name} is not simulated in ec2-netlab\n`);
        throw new TcExit(1);
      }
    } else if (matches(a, 'linklayer')) {
      const v = nextArg(c);
      if (v !== 'ethernet' && v !== 'ether' && v !== 'eth') {
        if (v === 'atm' || v === 'adsl') {
          c.o.err('htb linklayer atm is not simulated in ec2-netlab\n');
          throw new TcExit(1);
        }
        explain1('linklayer');
      }
    } else if (matches(a, 'quantum')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('quantum');
      quantum = v!;
    } else if (matches(a, 'burst') || a === 'buffer' || a === 'maxburst') {
      const v = getSizeAndCell(nextArg(c));
      if (v === null) explain1('buffer');
      buffer = v!;
    } else if (matches(a, 'cburst') || a === 'cbuffer' || a === 'cmaxburst') {
      const v = getSizeAndCell(nextArg(c));
      if (v === null) explain1('cbuffer');
      cbuffer = v!;
    } else if (a === 'ceil') {
      const s = nextArg(c);
      if (ceil) fail1(c, 'Double "ceil" spec\n');
      const v = s.includes('%') ? null : getRate64(s);
      if (v === null) explain1('ceil');
      ceil = v!;
    } else if (a === 'rate') {
      const s = nextArg(c);
      if (rate) fail1(c, 'Double "rate" spec\n');
      const v = s.includes('%') ? null : getRate64(s);
      if (v === null) explain1('rate');
      rate = v!;
    } else if (a === 'help') fail1(c, '', HTB_USAGE);
    else fail1(c, `What is "${a}"?\n`, HTB_USAGE);
  }
  if (!rate) fail1(c, '"rate" is required.\n');
  if (!ceil) ceil = rate;
  // "compute minimal allowed burst from rate; mtu is added here to make sure that buffer is larger
  // than mtu and to have some safeguard space" (q_htb.c)
  if (!buffer) buffer = Math.floor(rate / HZ) + mtu;
  if (!cbuffer) cbuffer = Math.floor(ceil / HZ) + mtu;
  return {
    rate,
    ceil,
    bufferNs: xmitTimeNs(rate, buffer),
    cbufferNs: xmitTimeNs(ceil, cbuffer),
    prio,
    quantum,
  };
}

function parseTbf(c: Cursor): TbfOptions {
  let limit = 0;
  let latency = 0;
  let buffer = 0;
  let mtu = 0;
  let rate = 0;
  let prate = 0;
  const explain1 = (arg: string, val: string): never =>
    fail1(c, `tbf: illegal value for "${arg}": "${val}"\n`);
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'limit')) {
      const v = nextArg(c);
      if (latency) fail1(c, 'tbf: cannot specify both limit and latency\n');
      const n = getSize(v);
      if (n === null) explain1('limit', v);
      limit = n!;
    } else if (matches(a, 'latency')) {
      const v = nextArg(c);
      if (limit) fail1(c, 'tbf: cannot specify both limit and latency\n');
      const n = getTime(v);
      if (n === null) explain1('latency', v);
      latency = n!;
    } else if (matches(a, 'burst') || a === 'buffer' || a === 'maxburst') {
      const v = nextArg(c);
      if (buffer) fail1(c, 'tbf: duplicate "buffer/burst/maxburst" specification\n');
      const n = getSizeAndCell(v);
      if (n === null) explain1(a, v);
      buffer = n!;
    } else if (a === 'mtu' || a === 'minburst') {
      const v = nextArg(c);
      if (mtu) fail1(c, 'tbf: duplicate "mtu/minburst" specification\n');
      const n = getSizeAndCell(v);
      if (n === null) explain1(a, v);
      mtu = n!;
    } else if (a === 'mpu' || matches(a, 'overhead') || matches(a, 'linklayer')) {
      nextArg(c);
      c.o.err(`tbf ${a} is not simulated in ec2-netlab\n`);
      throw new TcExit(1);
    } else if (a === 'rate') {
      const v = nextArg(c);
      if (rate) fail1(c, 'tbf: duplicate "rate" specification\n');
      const n = v.includes('%') ? null : getRate64(v);
      if (n === null) explain1('rate', v);
      rate = n!;
    } else if (matches(a, 'peakrate')) {
      const v = nextArg(c);
      if (prate) fail1(c, 'tbf: duplicate "peakrate" specification\n');
      const n = v.includes('%') ? null : getRate64(v);
      if (n === null) explain1('peakrate', v);
      prate = n!;
    } else if (a === 'help') fail1(c, '', TBF_USAGE);
    else fail1(c, `tbf: unknown parameter "${a}"\n`, TBF_USAGE);
  }
  // "Be nice to the user: try to emit all error messages in one go" (q_tbf.c).
  let msgs = '';
  if (rate === 0) msgs += 'tbf: the "rate" parameter is mandatory.\n';
  if (!buffer) msgs += 'tbf: the "burst" parameter is mandatory.\n';
  if (prate && !mtu) msgs += 'tbf: when "peakrate" is specified, "mtu" must also be specified.\n';
  if (limit === 0 && latency === 0) msgs += 'tbf: either "limit" or "latency" is required.\n';
  if (msgs) fail1(c, msgs, TBF_USAGE);
  if (limit === 0) {
    let lim = (rate * latency) / 1e6 + buffer;
    if (prate) lim = Math.min(lim, (prate * latency) / 1e6 + mtu);
    limit = Math.floor(lim);
  }
  const o: TbfOptions = { kind: 'tbf', rate, bufferNs: xmitTimeNs(rate, buffer), limit };
  if (prate) {
    o.peakrate = prate;
    o.mtuNs = xmitTimeNs(prate, mtu);
  }
  return o;
}

function parseFifo(c: Cursor, kind: 'pfifo' | 'bfifo'): QdiscOptions {
  const o: QdiscOptions = { kind };
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'limit')) {
      const v = nextArg(c);
      const n = kind === 'bfifo' ? getSize(v) : getU32(v);
      if (n === null) fail1(c, `${kind}: Illegal value for "limit": "${v}"\n`);
      o.limit = n!;
    } else if (matches(a, 'help')) fail1(c, '', FIFO_USAGE);
    else fail1(c, `${kind}: unknown argument "${a}"\n`, FIFO_USAGE);
  }
  return o;
}

/** parse_noqopt: qdiscs without a tc module (mq, pfifo_fast, …) take no options. */
function parseNoOpt(c: Cursor, kind: string): void {
  if (c.i < c.argv.length) {
    fail1(c, `Unknown qdisc "${kind}", hence option "${c.argv[c.i]}" is unparsable\n`);
  }
}

function parseQdiscOptions(c: Cursor, kind: string): QdiscOptions | null {
  switch (kind) {
    case 'fq_codel':
      return parseFqCodel(c);
    case 'fq':
      return parseFq(c);
    case 'htb':
      return parseHtb(c);
    case 'tbf':
      return parseTbf(c);
    case 'pfifo':
    case 'bfifo':
      return parseFifo(c, kind);
    case 'mq':
    case 'pfifo_fast':
      parseNoOpt(c, kind);
      return { kind };
    default:
      if (UNMODELLED_QDISCS.has(kind)) {
        c.o.err(`qdisc '${kind}' is not simulated in ec2-netlab\n`);
        throw new TcExit(1);
      }
      parseNoOpt(c, kind);
      return null;
  }
}

// ---------------------------------------------------------------- kernel replies

const STRERROR: Record<string, string> = {
  EEXIST: 'File exists',
  ENOENT: 'No such file or directory',
  EINVAL: 'Invalid argument',
  EOPNOTSUPP: 'Operation not supported',
  ELOOP: 'Too many levels of symbolic links',
  ENOBUFS: 'No buffer space available',
  ERANGE: 'Numerical result out of range',
  EBUSY: 'Device or resource busy',
  ENODEV: 'No such device',
};

/** rtnl_talk's error report: extack ("Error: msg.") or "RTNETLINK answers: strerror". */
function kernelReply(o: Out, r: TcResult): number {
  if (isTcError(r)) {
    if (r.extack) o.err(`Error: ${r.extack}${r.extack.endsWith('.') ? '' : '.'}\n`);
    else o.err(`RTNETLINK answers: ${STRERROR[r.errno] ?? r.errno}\n`);
    return 2;
  }
  if (r.warning) o.err(`Warning: ${r.warning}${r.warning.endsWith('.') ? '' : '.'}\n`);
  return 0;
}

// ---------------------------------------------------------------- printing

interface ShowFlags {
  stats: boolean;
  details: boolean;
  json: boolean;
  pretty: boolean;
  iec: boolean;
}

function qdiscOptionsText(d: QdiscDump, f: ShowFlags): string {
  const o = d.options;
  switch (d.kind) {
    case 'fq_codel': {
      let s = `limit ${o.limit}p flows ${o.flows} quantum ${o.quantum} target ${sprintTime(o.target as number)} `;
      if (o.ce_threshold !== undefined) s += `ce_threshold ${sprintTime(o.ce_threshold as number)} `;
      s += `interval ${sprintTime(o.interval as number)} memory_limit ${sprintSize(o.memory_limit as number)} `;
      if (o.ecn) s += 'ecn ';
      s += `drop_batch ${o.drop_batch} `;
      return s;
    }
    case 'fq': {
      let s = `limit ${o.limit}p flow_limit ${o.flow_limit}p buckets ${o.buckets} orphan_mask ${o.orphan_mask} `;
      if (o.pacing === false) s += 'nopacing ';
      s += `quantum ${sprintSize(o.quantum as number)} initial_quantum ${sprintSize(o.initial_quantum as number)} `;
      s += `low_rate_threshold ${sprintRate(o.low_rate_threshold as number, f.iec)} `;
      if (o.maxrate !== undefined) s += `maxrate ${sprintRate(o.maxrate as number, f.iec)} `;
      s += `refill_delay ${sprintTime(o.refill_delay as number)} `;
      if (o.ce_threshold !== undefined) s += `ce_threshold ${sprintTime(o.ce_threshold as number)} `;
      s += `timer_slack ${sprintTime((o.timer_slack as number) / 1000)} `;
      s += `horizon ${sprintTime((o.horizon as number) / 1000)} ${o.horizon_drop ? 'horizon_drop ' : 'horizon_cap '}`;
      return s;
    }
    case 'htb':
      return `r2q ${o.r2q} default 0x${(o.default as number).toString(16)} direct_packets_stat ${o.direct_packets_stat} direct_qlen ${o.direct_qlen}`;
    case 'tbf': {
      const rate = o.rate as number;
      const burst = xmitSize(rate, o.buffer_ns as number);
      let s = `rate ${sprintRate(rate, f.iec)} burst ${sprintSize(burst)} `;
      let latency =
        1e6 * ((o.limit as number) / rate) - Math.floor((o.buffer_ns as number) / 64) / TICK_IN_USEC;
      if (o.peakrate !== undefined) {
        const pr = o.peakrate as number;
        s += `peakrate ${sprintRate(pr, f.iec)} minburst ${sprintSize(xmitSize(pr, o.mtu_ns as number))} `;
        const lat2 = 1e6 * ((o.limit as number) / pr) - Math.floor((o.mtu_ns as number) / 64) / TICK_IN_USEC;
        if (lat2 > latency) latency = lat2;
      }
      if (latency >= 0) s += `lat ${sprintTime(Math.trunc(latency))} `;
      else s += `limit ${sprintSize(o.limit as number)} `;
      return s;
    }
    case 'pfifo':
      return `limit ${o.limit}p`;
    case 'bfifo':
      return `limit ${sprintSize(o.limit as number)}`;
    case 'pfifo_fast':
      return `bands ${o.bands} priomap ${o.priomap}`;
    default:
      return '';
  }
}

function statsText(s: QdiscDump['stats']): string {
  return (
    ` Sent ${s.bytes} bytes ${s.packets} pkt (dropped ${s.drops}, overlimits ${s.overlimits} requeues ${s.requeues}) \n` +
    ` backlog ${sprintSize(s.backlogBytes)} ${s.backlogPackets}p requeues ${s.requeues}\n`
  );
}

function qdiscXstatsText(d: QdiscDump): string {
  const x = d.xstats;
  if (!x) return '';
  if (d.kind === 'fq_codel') {
    let s = `  maxpacket ${x.maxpacket} drop_overlimit ${x.drop_overlimit} new_flow_count ${x.new_flow_count} ecn_mark ${x.ecn_mark}`;
    if (x.memory_used) s += ` memory_used ${x.memory_used}`;
    if (x.drop_overmemory) s += ` drop_overmemory ${x.drop_overmemory}`;
    s += `\n  new_flows_len ${x.new_flows_len} old_flows_len ${x.old_flows_len}\n`;
    return s;
  }
  if (d.kind === 'fq') {
    let s = `  flows ${x.flows} (inactive ${x.inactive} throttled ${x.throttled_flows})\n`;
    s += `  gc ${x.gc} highprio ${x.highprio} throttled ${x.throttled}`;
    if (x.flows_plimit) s += ` flows_plimit ${x.flows_plimit}`;
    return `${s}\n`;
  }
  return '';
}

/** The `tc -s -j qdisc show` element for one qdisc. */
function qdiscJson(d: QdiscDump, dev: string | null, f: ShowFlags): Record<string, unknown> {
  const j: Record<string, unknown> = { kind: d.kind, handle: `${tcMajor(d.handle).toString(16)}:` };
  if (dev) j.dev = dev;
  if (d.parent === TC_H_ROOT) j.root = true;
  else if (d.parent) j.parent = sprintClassid(d.parent);
  if (d.refcnt !== 1) j.refcnt = d.refcnt;
  j.options = { ...d.options };
  if (f.stats) {
    j.bytes = d.stats.bytes;
    j.packets = d.stats.packets;
    j.drops = d.stats.drops;
    j.overlimits = d.stats.overlimits;
    j.requeues = d.stats.requeues;
    j.backlog = d.stats.backlogBytes;
    j.qlen = d.stats.backlogPackets;
    if (d.xstats) Object.assign(j, d.xstats);
  }
  return j;
}

function printQdisc(o: Out, d: QdiscDump, dev: string | null, f: ShowFlags): void {
  let line = `qdisc ${d.kind} ${tcMajor(d.handle).toString(16)}: `;
  if (dev) line += `dev ${dev} `;
  if (d.parent === TC_H_ROOT) line += 'root ';
  else if (d.parent) line += `parent ${sprintClassid(d.parent)} `;
  if (d.refcnt !== 1) line += `refcnt ${d.refcnt} `;
  line += qdiscOptionsText(d, f);
  o.print(`${line}\n`);
  if (f.stats) {
    o.print(statsText(d.stats));
    const x = qdiscXstatsText(d);
    if (x) o.print(x);
  }
}

function printClass(o: Out, c: ClassDump, dev: string | null, f: ShowFlags): void {
  let line = `class ${c.kind} ${sprintClassid(c.classid)} `;
  if (dev) line += `dev ${dev} `;
  if (c.parent === TC_H_ROOT) line += 'root ';
  else line += `parent ${sprintClassid(c.parent)} `;
  if (c.leafHandle) line += `leaf ${tcMajor(c.leafHandle).toString(16)}: `;
  if (c.kind === 'htb') {
    const op = c.options;
    if (op.level === 0) {
      line += `prio ${op.prio} `;
      if (f.details) line += `quantum ${op.quantum} `;
    }
    const rate = op.rate as number;
    const ceil = op.ceil as number;
    line += `rate ${sprintRate(rate, f.iec)} ceil ${sprintRate(ceil, f.iec)} `;
    if (f.details) line += 'linklayer ethernet ';
    const burst = sprintSize(xmitSize(rate, op.buffer_ns as number));
    const cburst = sprintSize(xmitSize(ceil, op.cbuffer_ns as number));
    if (f.details) line += `burst ${burst}/1 mpu 0b cburst ${cburst}/1 mpu 0b level ${op.level} `;
    else line += `burst ${burst} cburst ${cburst} `;
  }
  o.print(`${line}\n`);
  if (f.stats) {
    o.print(statsText(c.stats));
    if (c.kind === 'htb' && c.xstats) {
      const x = c.xstats;
      o.print(` lended: ${x.lended} borrowed: ${x.borrowed} giants: ${x.giants}\n`);
      o.print(` tokens: ${x.tokens} ctokens: ${x.ctokens}\n\n`);
    }
  }
}

function classJson(c: ClassDump, f: ShowFlags): Record<string, unknown> {
  const j: Record<string, unknown> = { class: c.kind, handle: sprintClassid(c.classid) };
  if (c.parent === TC_H_ROOT) j.root = true;
  else j.parent = sprintClassid(c.parent);
  if (c.leafHandle) j.leaf = `${tcMajor(c.leafHandle).toString(16)}:`;
  if (c.kind === 'htb') {
    const op = c.options;
    j.prio = op.prio;
    j.rate = op.rate;
    j.ceil = op.ceil;
    j.burst = xmitSize(op.rate as number, op.buffer_ns as number);
    j.cburst = xmitSize(op.ceil as number, op.cbuffer_ns as number);
  }
  if (f.stats) {
    j.stats = {
      bytes: c.stats.bytes,
      packets: c.stats.packets,
      drops: c.stats.drops,
      overlimits: c.stats.overlimits,
      requeues: c.stats.requeues,
      backlog: c.stats.backlogBytes,
      qlen: c.stats.backlogPackets,
    };
    if (c.xstats) j.xstats = { ...c.xstats };
  }
  return j;
}

// ---------------------------------------------------------------- qdisc / class commands

const NO_FLAGS: QdiscModifyFlags = { create: false, replace: false, excl: false };

function qdiscModify(
  argv: string[],
  devices: TcDevices,
  o: Out,
  flags: QdiscModifyFlags,
  del: boolean,
): number {
  const c: Cursor = { argv, i: 0, o };
  let dev: string | null = null;
  let handle = 0;
  let parent = 0;
  let kind: string | null = null;
  let opts: QdiscOptions | null = null;
  for (; c.i < argv.length; c.i++) {
    const a = argv[c.i]!;
    if (a === 'dev') {
      const v = nextArg(c);
      if (dev !== null) {
        o.err(`Error: duplicate "dev": "${v}" is the second value.\n`);
        return 255;
      }
      dev = v;
    } else if (a === 'handle') {
      if (handle) {
        o.err(`Error: duplicate "handle": "${argv[c.i + 1] ?? ''}" is the second value.\n`);
        return 255;
      }
      const v = nextArg(c);
      const h = getQdiscHandle(v);
      if (h === null) {
        o.err(`Error: argument "invalid qdisc ID" is wrong: ${v}\n`);
        return 255;
      }
      handle = h;
    } else if (a === 'root') {
      if (parent) {
        o.err('Error: "root" is duplicate parent ID\n');
        return 255;
      }
      parent = TC_H_ROOT;
    } else if (a === 'ingress' || a === 'clsact') {
      o.err(`tc qdisc ${a} is not simulated in ec2-netlab\n`);
      return 1;
    } else if (a === 'parent') {
      const v = nextArg(c);
      if (parent) {
        o.err(`Error: duplicate "parent": "${v}" is the second value.\n`);
        return 255;
      }
      const h = getTcClassid(v);
      if (h === null) {
        o.err(`Error: argument "invalid parent ID" is wrong: ${v}\n`);
        return 255;
      }
      parent = h;
    } else if (
      matches(a, 'estimator') ||
      matches(a, 'stab') ||
      a === 'ingress_block' ||
      a === 'egress_block'
    ) {
      o.err(`tc qdisc ${a} is not simulated in ec2-netlab\n`);
      return 1;
    } else if (matches(a, 'help')) {
      o.err(QDISC_USAGE);
      return 255;
    } else {
      kind = a;
      c.i++;
      break;
    }
  }
  if (kind !== null) opts = parseQdiscOptions(c, kind);
  if (dev === null) {
    o.err('RTNETLINK answers: No such device\n');
    return 2;
  }
  const mgr = devices.get(dev);
  if (!mgr) {
    o.err(`Cannot find device "${dev}"\n`);
    return 1;
  }
  // An unknown kind without options reaches the kernel, which does not know it either
  // (tc_get_qdisc only compares the kind string, so a delete reports the mismatch instead).
  if (kind !== null && opts === null && !del)
    return kernelReply(o, { errno: 'ENOENT', extack: 'Specified qdisc kind is unknown' });
  if (del) return kernelReply(o, mgr.deleteQdisc({ parent, handle, kind: kind ?? undefined }));
  return kernelReply(o, mgr.modifyQdisc({ flags, parent, handle, opts }));
}

function parseShowFilter(
  argv: string[],
  o: Out,
  what: 'qdisc' | 'class',
): { dev: string | null; parent: number; handle: number } | number {
  let dev: string | null = null;
  let parent = 0;
  let handle = 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string | null => {
      i++;
      if (i >= argv.length) {
        o.err('Command line is not complete. Try option "help"\n');
        return null;
      }
      return argv[i]!;
    };
    if (a === 'dev') {
      const v = next();
      if (v === null) return 255;
      dev = v;
    } else if (a === 'root') {
      parent = TC_H_ROOT;
    } else if (a === 'parent' || (what === 'class' && a === 'classid')) {
      const v = next();
      if (v === null) return 255;
      const h = getTcClassid(v);
      if (h === null) {
        o.err(`Error: argument "invalid parent ID" is wrong: ${v}\n`);
        return 255;
      }
      if (a === 'parent') parent = h;
      else handle = h;
    } else if (what === 'qdisc' && a === 'handle') {
      const v = next();
      if (v === null) return 255;
      const h = getQdiscHandle(v);
      if (h === null) {
        o.err(`Error: argument "invalid qdisc ID" is wrong: ${v}\n`);
        return 255;
      }
      handle = h;
    } else if (what === 'qdisc' && (a === 'invisible' || a === 'ingress')) {
      // Invisible default qdiscs are not listed by the simulator's kernel either way.
    } else if (matches(a, 'help')) {
      o.err(what === 'qdisc' ? QDISC_USAGE : CLASS_USAGE);
      return 255;
    } else {
      o.err(`What is "${a}"? Try "tc ${what} help".\n`);
      return 255;
    }
  }
  return { dev, parent, handle };
}

function qdiscShow(argv: string[], devices: TcDevices, o: Out, f: ShowFlags): CommandOutcome {
  const flt = parseShowFilter(argv, o, 'qdisc');
  if (typeof flt === 'number') return outcome(o, flt);
  const names = flt.dev !== null ? [flt.dev] : [...devices.keys()];
  if (flt.dev !== null && !devices.has(flt.dev)) {
    o.err(`Cannot find device "${flt.dev}"\n`);
    return outcome(o, 1);
  }
  const all: Record<string, unknown>[] = [];
  const json: Record<string, unknown>[] = [];
  for (const name of names) {
    const mgr = devices.get(name)!;
    for (const d of mgr.dumpQdiscs()) {
      if (flt.parent === TC_H_ROOT && d.parent !== TC_H_ROOT) continue;
      if (flt.parent && flt.parent !== TC_H_ROOT && d.parent !== flt.parent) continue;
      if (flt.handle && d.handle !== flt.handle) continue;
      const devLabel = flt.dev === null ? name : null;
      all.push(qdiscJson(d, devLabel, { ...f, stats: true }));
      if (f.json) json.push(qdiscJson(d, devLabel, f));
      else printQdisc(o, d, devLabel, f);
    }
  }
  if (f.json) o.print(`${JSON.stringify(json, null, f.pretty ? 4 : undefined)}\n`);
  return outcome(o, 0, all);
}

function classModify(
  argv: string[],
  devices: TcDevices,
  o: Out,
  flags: QdiscModifyFlags,
  del: boolean,
): number {
  const c: Cursor = { argv, i: 0, o };
  let dev: string | null = null;
  let classid = 0;
  let parent = 0;
  let kind: string | null = null;
  let opts: HtbClassOptions | null = null;
  for (; c.i < argv.length; c.i++) {
    const a = argv[c.i]!;
    if (a === 'dev') {
      const v = nextArg(c);
      if (dev !== null) {
        o.err(`Error: duplicate "dev": "${v}" is the second value.\n`);
        return 255;
      }
      dev = v;
    } else if (a === 'classid') {
      const v = nextArg(c);
      if (classid) {
        o.err(`Error: duplicate "classid": "${v}" is the second value.\n`);
        return 255;
      }
      const h = getTcClassid(v);
      if (h === null) {
        o.err(`Error: argument "invalid class ID" is wrong: ${v}\n`);
        return 255;
      }
      classid = h;
    } else if (a === 'handle') {
      o.err('Error: try "classid" instead of "handle"\n');
      return 255;
    } else if (a === 'root') {
      if (parent) {
        o.err('Error: "root" is duplicate parent ID.\n');
        return 255;
      }
      parent = TC_H_ROOT;
    } else if (a === 'parent') {
      const v = nextArg(c);
      if (parent) {
        o.err(`Error: duplicate "parent": "${v}" is the second value.\n`);
        return 255;
      }
      const h = getTcClassid(v);
      if (h === null) {
        o.err(`Error: argument "invalid parent ID" is wrong: ${v}\n`);
        return 255;
      }
      parent = h;
    } else if (matches(a, 'estimator')) {
      o.err('tc class estimator is not simulated in ec2-netlab\n');
      return 1;
    } else if (matches(a, 'help')) {
      o.err(CLASS_USAGE);
      return 255;
    } else {
      kind = a;
      c.i++;
      break;
    }
  }
  if (kind !== null) {
    if (kind === 'htb') opts = parseHtbClass(c);
    else if (UNMODELLED_QDISCS.has(kind)) {
      o.err(`qdisc '${kind}' is not simulated in ec2-netlab\n`);
      return 1;
    } else if (['fq_codel', 'fq', 'pfifo', 'bfifo', 'tbf', 'mq', 'pfifo_fast'].includes(kind)) {
      o.err(`Error: Qdisc "${kind}" is classless.\n`);
      return 1;
    } else if (c.i < argv.length) {
      o.err(`Unknown qdisc "${kind}", hence option "${argv[c.i]}" is unparsable\n`);
      return 1;
    }
  }
  if (dev === null) {
    o.err('RTNETLINK answers: No such device\n');
    return 2;
  }
  const mgr = devices.get(dev);
  if (!mgr) {
    o.err(`Cannot find device "${dev}"\n`);
    return 1;
  }
  if (del) return kernelReply(o, mgr.deleteClass({ parent, classid }));
  if (!del && !opts && flags.create) return kernelReply(o, { errno: 'EINVAL' });
  return kernelReply(o, mgr.modifyClass({ flags, parent, classid, kind: kind ?? undefined, opts }));
}

function classShow(argv: string[], devices: TcDevices, o: Out, f: ShowFlags): CommandOutcome {
  const flt = parseShowFilter(argv, o, 'class');
  if (typeof flt === 'number') return outcome(o, flt);
  if (flt.dev === null) return outcome(o, 0, []);
  const mgr = devices.get(flt.dev);
  if (!mgr) {
    o.err(`Cannot find device "${flt.dev}"\n`);
    return outcome(o, 1);
  }
  const list: Record<string, unknown>[] = [];
  const json: Record<string, unknown>[] = [];
  for (const c of mgr.dumpClasses()) {
    if (flt.parent === TC_H_ROOT && c.parent !== TC_H_ROOT) continue;
    if (flt.parent && flt.parent !== TC_H_ROOT && c.parent !== flt.parent) continue;
    if (flt.handle && c.classid !== flt.handle) continue;
    list.push(classJson(c, { ...f, stats: true }));
    if (f.json) json.push(classJson(c, f));
    else printClass(o, c, null, f);
  }
  if (f.json) o.print(`${JSON.stringify(json, null, f.pretty ? 4 : undefined)}\n`);
  return outcome(o, 0, list);
}

// ---------------------------------------------------------------- entry point

/** Run `tc` with `argv` (without the leading "tc"). */
export function runTc(argv: string[], devices: TcDevices): CommandOutcome {
  const o = new Out();
  try {
    return runTcInner(argv, devices, o);
  } catch (e) {
    if (e instanceof TcExit) return outcome(o, e.code);
    throw e;
  }
}

function runTcInner(argv: string[], devices: TcDevices, o: Out): CommandOutcome {
  const f: ShowFlags = { stats: false, details: false, json: false, pretty: false, iec: false };
  let i = 0;
  for (; i < argv.length; i++) {
    let a = argv[i]!;
    if (!a.startsWith('-')) break;
    if (a.startsWith('--')) a = a.slice(1);
    if (matches(a, '-stats') || matches(a, '-statistics')) f.stats = true;
    else if (matches(a, '-details')) f.details = true;
    else if (matches(a, '-raw')) {
      // -raw adds hex dumps of internal fields; accepted, nothing extra is printed.
    } else if (matches(a, '-pretty')) f.pretty = true;
    else if (matches(a, '-graph')) {
      // class graph: not simulated; accepted silently like an unsupported display mode? No: refuse.
      o.err('tc -graph is not simulated in ec2-netlab\n');
      return outcome(o, 1);
    } else if (matches(a, '-Version')) {
      o.print('tc utility, iproute2-6.1.0\n');
      return outcome(o, 0);
    } else if (matches(a, '-iec')) f.iec = true;
    else if (matches(a, '-help')) {
      o.err(TC_USAGE);
      return outcome(o, 0);
    } else if (matches(a, '-json')) f.json = true;
    else if (
      matches(a, '-force') ||
      matches(a, '-oneline') ||
      matches(a, '-brief') ||
      matches(a, '-timestamp')
    ) {
      // accepted; no effect on the commands the lab supports
    } else if (matches(a, '-batch') || matches(a, '-netns') || matches(a, '-cf') || matches(a, '-conf')) {
      o.err(`tc ${a} is not simulated in ec2-netlab\n`);
      return outcome(o, 1);
    } else {
      o.err(`Option "${argv[i]}" is unknown, try "tc -help".\n`);
      return outcome(o, 255);
    }
  }
  if (i >= argv.length) {
    o.err(TC_USAGE);
    return outcome(o, 0);
  }
  const obj = argv[i]!;
  const rest = argv.slice(i + 1);
  if (matches(obj, 'qdisc')) return doObject(QDISC_OBJECT, rest, devices, o, f);
  if (matches(obj, 'class')) return doObject(CLASS_OBJECT, rest, devices, o, f);
  for (const other of ['filter', 'chain', 'actions', 'monitor', 'exec']) {
    if (matches(obj, other)) {
      o.err(`tc ${other} is not simulated in ec2-netlab\n`);
      return outcome(o, 1);
    }
  }
  if (matches(obj, 'help')) {
    o.err(TC_USAGE);
    return outcome(o, 0);
  }
  o.err(`Object "${obj}" is unknown, try "tc help".\n`);
  return outcome(o, 255);
}

/**
 * `tc qdisc` and `tc class`, as tc_qdisc.c's do_qdisc and tc_class.c's do_class dispatch them: the
 * modifying commands with their netlink flags, in the order iproute2 tries their prefixes.
 */
interface TcObject {
  readonly name: 'qdisc' | 'class';
  readonly usage: string;
  readonly commands: readonly (readonly [string, QdiscModifyFlags | 'delete'])[];
  readonly modify: (
    argv: string[],
    devices: TcDevices,
    o: Out,
    flags: QdiscModifyFlags,
    del: boolean,
  ) => number;
  readonly show: (argv: string[], devices: TcDevices, o: Out, f: ShowFlags) => CommandOutcome;
}

const QDISC_OBJECT: TcObject = {
  name: 'qdisc',
  usage: QDISC_USAGE,
  commands: [
    ['add', { create: true, replace: false, excl: true }],
    ['change', NO_FLAGS],
    ['replace', { create: true, replace: true, excl: false }],
    ['link', { create: false, replace: true, excl: false }],
    ['delete', 'delete'],
  ],
  modify: qdiscModify,
  show: qdiscShow,
};

const CLASS_OBJECT: TcObject = {
  name: 'class',
  usage: CLASS_USAGE,
  commands: [
    ['add', { create: true, replace: false, excl: true }],
    ['change', NO_FLAGS],
    ['replace', { create: true, replace: false, excl: false }],
    ['delete', 'delete'],
  ],
  modify: classModify,
  show: classShow,
};

function doObject(t: TcObject, argv: string[], devices: TcDevices, o: Out, f: ShowFlags): CommandOutcome {
  if (argv.length < 1) return t.show([], devices, o, f);
  const cmd = argv[0]!;
  const rest = argv.slice(1);
  for (const [name, flags] of t.commands) {
    if (!matches(cmd, name)) continue;
    const del = flags === 'delete';
    return outcome(o, t.modify(rest, devices, o, del ? NO_FLAGS : flags, del));
  }
  if (matches(cmd, 'list') || matches(cmd, 'show') || matches(cmd, 'lst')) return t.show(rest, devices, o, f);
  if (matches(cmd, 'help')) {
    o.err(t.usage);
    return outcome(o, 0);
  }
  o.err(`Command "${cmd}" is unknown, try "tc ${t.name} help".\n`);
  return outcome(o, 255);
}
