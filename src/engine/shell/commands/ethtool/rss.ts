/** `ethtool -x` / `-X`: the RSS indirection table, hash key and function. Sources: ethtool netlink/rss.c, ethtool.c. */
import { defaultIndirectionTable } from '../../../host/rss';
import { type CommandOutcome, done, fail } from '../../types';
import { badArgs, type Ctx, getIntRange, getUintRange, notSimulated, Out, STRERROR } from './common';
import { nlNoDevice } from './netlink';

// -x / -X -----------------------------------------------------------------------------------

const HASH_FUNCS = ['toeplitz', 'xor', 'crc32'] as const;

function formatIndirTable(devname: string, rings: number, indir: number[]): string {
  let s = `RX flow hash indirection table for ${devname} with ${rings} RX ring(s):\n`;
  if (indir.length === 0) s += 'Operation not supported\n';
  for (let i = 0; i < indir.length; i++) {
    if (i % 8 === 0) s += `${String(i).padStart(5)}: `;
    s += ` ${String(indir[i]).padStart(5)}`;
    if (i % 8 === 7 || i === indir.length - 1) s += '\n';
  }
  return s;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

export function doShowRxfh(c: Ctx): CommandOutcome {
  if (c.args.length > 0) {
    if (c.args[0] === 'context') return notSimulated('RSS contexts (ethtool -x DEV context N)');
    return fail(`ethtool (-x): unknown parameter '${c.args[0]}'`, 1);
  }
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const rss = c.dev.rss();
  const rings = c.dev.channels().combined;
  let text = formatIndirTable(c.devname, rings, rss.indir);
  // Devices that cannot report their hash function leave the key buffer zeroed and hfunc 0
  // (ena_get_rxfh returns early when ena_com_get_hash_function says EOPNOTSUPP).
  const key = rss.keyConfigurable ? rss.key : new Uint8Array(rss.key.length);
  text += 'RSS hash key:\n';
  text += key.length === 0 ? 'Operation not supported\n' : `${Array.from(key, hex2).join(':')}\n`;
  text += 'RSS hash function:\n';
  if (!rss.keyConfigurable) text += '    Operation not supported\n';
  else for (const f of HASH_FUNCS) text += `    ${f}: ${rss.hfunc === f ? 'on' : 'off'}\n`;
  return done(text, 0, {
    rings,
    indir: [...rss.indir],
    key: Array.from(key, hex2).join(':'),
    hfunc: rss.keyConfigurable ? rss.hfunc : null,
  });
}

/** ethtool.c convert_string_to_hashkey: "xx:xx:…", exactly the device's key size. */
function parseHkey(s: string, keySize: number): Uint8Array | string {
  const numBytes = Math.floor((s.length + 1) / 3);
  const key: number[] = [];
  let p = 0;
  do {
    if (key.length > keySize - 1) return `Key is too long for device (${numBytes} > ${keySize})`;
    const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(p));
    if (!m) return 'Invalid RSS hash key format';
    key.push(Number.parseInt(m[0], 16));
    p += 2;
    if (s[p] === ':') p++;
    else if (p < s.length) return 'Invalid RSS hash key format';
  } while (p < s.length);
  if (key.length !== keySize) return `Key is too short for device (${key.length} < ${keySize})`;
  return Uint8Array.from(key);
}

export function doSetRxfh(c: Ctx): CommandOutcome {
  const a = c.args;
  if (a.length < 1) return badArgs();
  let equal = 0;
  let start = 0;
  let weights: string[] | undefined;
  let hkey: string | undefined;
  let useDefault = false;
  let hfuncName: string | undefined;
  for (let i = 0; i < a.length; ) {
    const w = a[i]!;
    if (w === 'equal') {
      const v = getIntRange(a[i + 1], 1, 0x7fffffff);
      if (v === undefined) return badArgs();
      equal = v;
      i += 2;
    } else if (w === 'start') {
      const v = getIntRange(a[i + 1], 0, 0x7fffffff);
      if (v === undefined) return badArgs();
      start = v;
      i += 2;
    } else if (w === 'weight') {
      i++;
      const ws: string[] = [];
      while (i < a.length && /^[0-9]/.test(a[i]!)) ws.push(a[i++]!);
      if (ws.length === 0) return badArgs();
      weights = ws;
    } else if (w === 'hkey') {
      if (a[i + 1] === undefined) return badArgs();
      hkey = a[i + 1];
      i += 2;
    } else if (w === 'default') {
      useDefault = true;
      i++;
    } else if (w === 'hfunc') {
      if (a[i + 1] === undefined) return badArgs();
      hfuncName = a[i + 1];
      i += 2;
    } else if (w === 'context' || w === 'delete') {
      return notSimulated('RSS contexts (ethtool -X DEV context …)');
    } else {
      return badArgs();
    }
  }
  if (equal && weights) return fail('Equal and weight options are mutually exclusive', 1);
  if (equal && useDefault) return fail('Equal and default options are mutually exclusive', 1);
  if (weights && useDefault) return fail('Weight and default options are mutually exclusive', 1);
  if (start && useDefault) return fail('Start and default options are mutually exclusive', 1);
  if (start && !(equal || weights)) return fail('Start must be used with equal or weight options', 1);
  if (!c.dev) return fail('Cannot get RX ring count: No such device', 1);
  const rss = c.dev.rss();
  const rings = c.dev.channels().combined;
  const keySize = rss.key.length;
  const indirSize = rss.indir.length;
  let key: Uint8Array | undefined;
  if (hkey !== undefined) {
    const k = parseHkey(hkey, keySize);
    if (typeof k === 'string') return fail(k, 2);
    key = k;
  }
  // The hash function is only looked up when the device reports one (ETHTOOL_GRSSH hfunc != 0);
  // otherwise ethtool sends "no change" and says nothing.
  let hfunc: 'toeplitz' | 'crc32' | undefined;
  if (rss.keyConfigurable && hfuncName !== undefined) {
    if (!(HASH_FUNCS as readonly string[]).includes(hfuncName))
      return fail(`Unknown hash function: ${hfuncName}`, 1);
    // ena_set_rxfh: only toeplitz and crc32 are accepted.
    if (hfuncName === 'xor') return fail('Cannot set RX flow hash configuration: Operation not supported', 1);
    hfunc = hfuncName as 'toeplitz' | 'crc32';
  }
  let indir: number[] | undefined;
  if (equal) {
    indir = Array.from({ length: indirSize }, (_, i) => start + (i % equal));
  } else if (weights) {
    const ws: number[] = [];
    for (const w of weights) {
      const v = getUintRange(w, 0xffffffffn);
      if (v === undefined) return badArgs();
      ws.push(Number(v));
    }
    const sum = ws.reduce((x, y) => x + y, 0);
    if (sum === 0) return fail('At least one weight must be non-zero', 1);
    if (sum > indirSize) return fail('Total weight exceeds the size of the indirection table', 1);
    indir = [];
    let j = -1;
    let partial = 0;
    for (let i = 0; i < indirSize; i++) {
      while (i >= Math.floor((indirSize * partial) / sum)) {
        j++;
        partial += ws[j]!;
      }
      indir.push(start + j);
    }
  } else if (useDefault) {
    indir = defaultIndirectionTable(rings, indirSize);
  }
  // Kernel ethtool_set_rxfh/ethtool_copy_validate_indir: every entry must name an existing ring.
  if (indir?.some((q) => q >= rings))
    return fail('Cannot set RX flow hash configuration: Invalid argument', 1);
  const change: { key?: Uint8Array; indir?: number[]; hfunc?: 'toeplitz' | 'crc32' } = {};
  if (indir) change.indir = indir;
  if (key) change.key = key;
  if (hfunc) change.hfunc = hfunc;
  if (Object.keys(change).length === 0) return done('');
  const err = c.dev.setRss(change);
  if (err) return fail(`Cannot set RX flow hash configuration: ${STRERROR[err]}`, 1);
  return done('');
}
