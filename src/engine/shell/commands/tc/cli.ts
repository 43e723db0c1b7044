/**
 * The plumbing of the `tc` command: its output and exit status, the argument cursor of the option
 * parsers (NEXT_ARG, the exit-1 option errors), the kernel's reply as rtnl_talk prints it (extack or
 * "RTNETLINK answers: …"), the display flags and the `show` filter shared by `tc qdisc` and `tc class`.
 * Sources: IPROUTE2 tc/tc.c, tc/tc_util.c, lib/libnetlink.c.
 */
import {
  type HtbClassOptions,
  isTcError,
  type QdiscOptions,
  TC_H_ROOT,
  type TcResult,
} from '../../../host/qdisc/common';
import type { QdiscManager } from '../../../host/qdisc/tree';
import type { CommandOutcome } from '../../types';
import { getQdiscHandle, getRate64, getSize, getTcClassid, getTime, getU32, matches } from './utils';

/** The devices `tc` can see, by name (e.g. "eth0", "lo"), in ifindex order. */
export type TcDevices = ReadonlyMap<string, QdiscManager>;

export class Out {
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
export class TcExit {
  constructor(readonly code: number) {}
}

export function outcome(o: Out, code: number, result?: unknown): CommandOutcome {
  return { kind: 'done', out: { stdout: o.stdout, stderr: o.stderr, exitCode: code, result } };
}

export interface Cursor {
  argv: string[];
  i: number;
  o: Out;
}

/** NEXT_ARG(): advance or fail with incomplete_command(). */
export function nextArg(c: Cursor): string {
  c.i++;
  if (c.i >= c.argv.length) {
    c.o.err('Command line is not complete. Try option "help"\n');
    throw new TcExit(255);
  }
  return c.argv[c.i]!;
}

export function fail1(c: Cursor, msg: string, usage = ''): never {
  c.o.err(msg + usage);
  throw new TcExit(1);
}

/** lib/utils.c duparg(): a key given twice (exit 255). */
export function duparg(c: Cursor, key: string, arg: string): never {
  c.o.err(`Error: duplicate "${key}": "${arg}" is the second value.\n`);
  throw new TcExit(255);
}

/** lib/utils.c invarg(): an argument that does not parse (exit 255). */
export function invarg(c: Cursor, msg: string, arg: string): never {
  c.o.err(`Error: argument "${msg}" is wrong: ${arg}\n`);
  throw new TcExit(255);
}

/** `dev NAME` of a qdisc or class request. */
export function argDev(c: Cursor, dev: string | null): string {
  const v = nextArg(c);
  if (dev !== null) duparg(c, 'dev', v);
  return v;
}

/** The device a request names: none is the kernel's ENODEV (exit 2), an unknown one tc's own error (exit 1). */
export function requestDevice(c: Cursor, devices: TcDevices, dev: string | null): QdiscManager {
  if (dev === null) {
    c.o.err('RTNETLINK answers: No such device\n');
    throw new TcExit(2);
  }
  const mgr = devices.get(dev);
  if (!mgr) {
    c.o.err(`Cannot find device "${dev}"\n`);
    throw new TcExit(1);
  }
  return mgr;
}

/** `parent CLASSID` of a qdisc or class request. */
export function argParent(c: Cursor, parent: number): number {
  const v = nextArg(c);
  if (parent) duparg(c, 'parent', v);
  const h = getTcClassid(v);
  if (h === null) invarg(c, 'invalid parent ID', v);
  return h;
}

/** NEXT_ARG, then its value by `get`, or `Illegal "name"` (exit 1): the q_*.c parsers' common step. */
function nextValue(c: Cursor, name: string, get: (s: string) => number | null): number {
  const v = get(nextArg(c));
  if (v === null) fail1(c, `Illegal "${name}"\n`);
  return v;
}
export const nextU32 = (c: Cursor, name: string): number => nextValue(c, name, getU32);
export const nextSize = (c: Cursor, name: string): number => nextValue(c, name, getSize);
export const nextRate = (c: Cursor, name: string): number => nextValue(c, name, getRate64);
export const nextTime = (c: Cursor, name: string): number => nextValue(c, name, getTime);

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
export function kernelReply(o: Out, r: TcResult): number {
  if (isTcError(r)) {
    if (r.extack) o.err(`Error: ${r.extack}${r.extack.endsWith('.') ? '' : '.'}\n`);
    else o.err(`RTNETLINK answers: ${STRERROR[r.errno] ?? r.errno}\n`);
    return 2;
  }
  if (r.warning) o.err(`Warning: ${r.warning}${r.warning.endsWith('.') ? '' : '.'}\n`);
  return 0;
}

/** The display options of `tc` (-s, -d, -j, -p, -iec). */
export interface ShowFlags {
  stats: boolean;
  details: boolean;
  json: boolean;
  pretty: boolean;
  iec: boolean;
}

/** The filter of `tc qdisc show` / `tc class show` (dev, root, parent, handle or classid). */
export function parseShowFilter(
  argv: string[],
  o: Out,
  what: 'qdisc' | 'class',
  usage: string,
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
      o.err(usage);
      return 255;
    } else {
      o.err(`What is "${a}"? Try "tc ${what} help".\n`);
      return 255;
    }
  }
  return { dev, parent, handle };
}

/** parse_noqopt: qdiscs without a tc module (mq, pfifo_fast, …) take no options. */
export function parseNoOpt<K extends string>(c: Cursor, kind: K): { kind: K } {
  if (c.i < c.argv.length) {
    fail1(c, `Unknown qdisc "${kind}", hence option "${c.argv[c.i]}" is unparsable\n`);
  }
  return { kind };
}

type Options = Readonly<Record<string, number | boolean | string>>;

/** iproute2's `struct qdisc_util` (tc_util.h): the `tc` side of one qdisc kind (q-<kind>.ts). */
export interface QdiscUtil {
  readonly id: string;
  /** parse_qopt: the options after the kind (from `c.i`); prints and throws TcExit on an error. */
  parseQopt(c: Cursor): QdiscOptions;
  /** print_qopt: the options the kernel dumped, as `tc qdisc show` prints them. */
  printQopt?(o: Options, f: ShowFlags): string;
  /** print_xstats for a qdisc (`tc -s qdisc show`). */
  printXstats?(x: Readonly<Record<string, number>>): string;
  /** parse_copt: a class's options (classful kinds only). */
  parseCopt?(c: Cursor): HtbClassOptions;
  /** print_copt: a class's options as `tc class show` prints them, and in `-j`. */
  printCopt?(o: Options, f: ShowFlags): string;
  coptJson?(o: Options): Record<string, unknown>;
  /** print_xstats for a class (`tc -s class show`). */
  printClassXstats?(x: Readonly<Record<string, number>>): string;
}
