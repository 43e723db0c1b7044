/**
 * iproute2's number and unit helpers as `tc` uses them: parsing (get_u32, get_rate64, get_size,
 * get_time, handles and class ids), printing (sprint_time, sprint_size, sprint_rate, %g), the psched
 * tick arithmetic of tc_core.c, and the basic statistics lines every qdisc and class prints.
 * Sources: IPROUTE2 lib/utils.c, tc/tc_util.c, tc/tc_core.c.
 */
import { TC_H_ROOT, tcMajor, tcMinor } from '../../../host/qdisc/common';
import type { QdiscDump } from '../../../host/qdisc/tree';
import { cG } from '../printf';

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

/**
 * strtoul with base 0/10/16 semantics; null when no digits or trailing garbage. A leading minus
 * negates in unsigned long, 64 bits on the instances (x86_64, arm64): "-1" is 2^64 − 1, above any
 * 32-bit value, so get_u32 refuses every negative number but "-0".
 */
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
  return neg && v !== 0 ? 2 ** 64 - v : v;
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
export function getSizeAndCell(s: string): number | null {
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

/** sprint_time: µs → "5ms", "100ms", "1s", "10us". */
export function sprintTime(us: number): string {
  if (us >= 1e6) return `${cG(us / 1e6, 6)}s`;
  if (us >= 1e3) return `${cG(us / 1e3, 6)}ms`;
  return `${Math.trunc(us)}us`;
}

/** sprint_size: bytes → "32Mb", "15Kb", "1600b". */
export function sprintSize(sz: number): string {
  const kilo = 1024;
  const mega = kilo * kilo;
  const s = Math.trunc(sz) >>> 0;
  if (s >= mega && Math.abs(mega * Math.round(s / mega) - s) < 1024)
    return `${cG(Math.round(s / mega), 6)}Mb`;
  if (s >= kilo && Math.abs(kilo * Math.round(s / kilo) - s) < 16) return `${cG(Math.round(s / kilo), 6)}Kb`;
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
export const TICK_IN_USEC = 15.625;
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
export const HZ = 1e9;

/** print_tcstats: the "Sent … / backlog …" lines of `tc -s`. */
export function statsText(s: QdiscDump['stats']): string {
  return (
    ` Sent ${s.bytes} bytes ${s.packets} pkt (dropped ${s.drops}, overlimits ${s.overlimits} requeues ${s.requeues}) \n` +
    ` backlog ${sprintSize(s.backlogBytes)} ${s.backlogPackets}p requeues ${s.requeues}\n`
  );
}
