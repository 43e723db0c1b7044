/**
 * What every ethtool command of the lab shares: the output and its errors (strerror texts, "bad
 * command line argument(s)", "not simulated"), the command's context, and number parsing the way
 * the C library does it (strtoull, ethtool's range checks). Sources: ethtool ethtool.c, common.c.
 */
import type { EnaDeviceView, Errno } from '../../../host/device-view';
import { type CommandOutcome, fail } from '../../types';

export type DeviceLookup = (name: string) => EnaDeviceView | undefined;

export const ETHTOOL_VERSION = '6.7';

export const STRERROR: Record<Errno | 'ENODEV', string> = {
  EINVAL: 'Invalid argument',
  EOPNOTSUPP: 'Operation not supported',
  EBUSY: 'Device or resource busy',
  ENOSPC: 'No space left on device',
  ERANGE: 'Numerical result out of range',
  ENOENT: 'No such file or directory',
  ENODEV: 'No such device',
};

export const BAD_ARGS = 'ethtool: bad command line argument(s)\nFor more information run ethtool -h\n';

/** Result of ethtool's output so far: stdout and stderr accumulate like the real process's. */
export class Out {
  stdout = '';
  stderr = '';
  out(s: string): this {
    this.stdout += s;
    return this;
  }
  err(s: string): this {
    this.stderr += s;
    return this;
  }
  finish(exitCode: number, result?: unknown): CommandOutcome {
    return { kind: 'done', out: { stdout: this.stdout, stderr: this.stderr, exitCode, result } };
  }
}

export const badArgs = (o = new Out()): CommandOutcome => o.err(BAD_ARGS).finish(1);
export const notSimulated = (what: string): CommandOutcome =>
  fail(`ethtool: ${what} is not simulated in ec2-netlab`, 1);

export interface Ctx {
  devname: string;
  args: string[];
  dev: EnaDeviceView | undefined;
}

export type Handler = (c: Ctx) => CommandOutcome;

// ---------------------------------------------------------------------------------------------
// Number parsing the way the C library does it.

/**
 * strtoull semantics: optional whitespace and sign, base 0 (0x hex, 0 octal, else decimal) or a
 * fixed base. A minus sign negates in unsigned 64-bit arithmetic ("-1" is 2^64-1, as in C).
 * Returns undefined when the text is not a number or overflows 64 bits (ERANGE).
 */
export function strtoul(s: string, base: 0 | 10 | 16): bigint | undefined {
  const m = /^\s*([+-]?)(.*)$/s.exec(s);
  if (!m) return undefined;
  const neg = m[1] === '-';
  let body = m[2]!;
  let radix: 8 | 10 | 16 = base === 16 ? 16 : 10;
  if ((base === 0 || base === 16) && /^0[xX][0-9a-fA-F]/.test(body)) {
    body = body.slice(2);
    radix = 16;
  } else if (base === 0 && body.length > 1 && body.startsWith('0')) radix = 8;
  const digits = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!digits.test(body)) return undefined;
  const v = BigInt(radix === 16 ? `0x${body}` : radix === 8 ? `0o${body}` : body);
  const u64 = (1n << 64n) - 1n;
  if (v > u64) return undefined;
  return neg ? (u64 + 1n - v) & u64 : v;
}

/** ethtool netlink parser's parse_u32: decimal, or hex with 0x; rejects negatives and > UINT_MAX. */
export function nlParseU32(arg: string | undefined): number | undefined {
  if (arg === undefined || arg === '') return undefined;
  const hex = arg.startsWith('0x') || arg.startsWith('0X');
  const v = strtoul(hex ? arg.slice(2) : arg, hex ? 16 : 10);
  if (v === undefined || v > 0xffffffffn) return undefined;
  return Number(v);
}

/** ethtool.c get_uint_range(str, 0, max) / rxclass_get_ulong: strtoull base 0, bounded. */
export function getUintRange(arg: string | undefined, max: bigint): bigint | undefined {
  if (arg === undefined) return undefined;
  const v = strtoul(arg, 0);
  if (v === undefined || v > max) return undefined;
  return v;
}

/** ethtool.c get_int_range(str, 0, min, max): strtoll base 0. */
export function getIntRange(arg: string | undefined, min: number, max: number): number | undefined {
  if (arg === undefined) return undefined;
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(arg);
  if (!m) return undefined;
  const body = m[2]!;
  let v =
    body.startsWith('0x') || body.startsWith('0X')
      ? Number.parseInt(body, 16)
      : body.startsWith('0')
        ? Number.parseInt(body || '0', 8)
        : Number(body);
  if (m[1] === '-') v = -v;
  if (!Number.isFinite(v) || v < min || v > max) return undefined;
  return v;
}
