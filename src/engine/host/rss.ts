/**
 * Receive Side Scaling: the hash the ENA device computes over a flow's tuple and the indirection
 * table that maps it to an RX queue (queue = indir[hash % size], default table i % nqueues, 128
 * entries). `toeplitzHash` is the standard Toeplitz hash and reproduces every Microsoft
 * verification vector; a table-driven `ToeplitzHasher` (cached per key) costs one lookup and XOR
 * per input byte. The ENA variants (non-configurable instances, the Linux driver's key order) and
 * CRC32 are described in docs/design.md, "RSS".
 *
 * Sources: MS-RSS, DPDK-THASH, ENA-UTIL toeplitz_calc.py, ENA-SRC (docs/domain-facts.md §1.4, §5).
 */

/** ENA hash key size (`ENA_HASH_KEY_SIZE`). */
export const RSS_KEY_BYTES = 40;
/** ENA indirection table size before the device-advertised size (commit 2cac3be, Dec 2024). */
export const ENA_RSS_INDIR_TABLE_SIZE = 128;
/** Initial value the ENA device starts the hash from (`ena_com_fill_hash_function(..., 0xFFFFFFFF)`). */
export const ENA_RSS_INIT_VALUE = 0xffffffff;

/** The Microsoft / Intel 82599 verification key (MS-RSS "Verifying the RSS hash calculation"). */
export const MICROSOFT_RSS_KEY: Uint8Array = Uint8Array.from([
  0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca,
  0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b,
  0xbe, 0xac, 0x01, 0xfa,
]);

/** Reverse the order of the 4-byte words of a key (bytes inside a word keep their order). */
export function reverseKeyWords(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length);
  const words = key.length >> 2;
  for (let w = 0; w < words; w++) {
    for (let b = 0; b < 4; b++) out[w * 4 + b] = key[(words - 1 - w) * 4 + b]!;
  }
  return out;
}

/** Reverse the byte order of a key. */
export function reverseKeyBytes(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) out[i] = key[key.length - 1 - i]!;
  return out;
}

/**
 * The key hard-wired in ENA devices whose key cannot be configured: the Microsoft key with its
 * words reversed, `be ac 01 fa 6a 42 b7 3b … 6d 5a 56 da` (toeplitz_calc.py `RSS_DEFAULT_KEY`).
 */
export const ENA_HW_DEFAULT_RSS_KEY: Uint8Array = reverseKeyWords(MICROSOFT_RSS_KEY);

/** A precomputed Toeplitz hasher for one key. Inputs may be up to `key.length - 4` bytes long. */
export class ToeplitzHasher {
  /** table[pos * 256 + byte]: XOR of the key windows selected by `byte` at input position `pos`. */
  private readonly table: Uint32Array;
  readonly maxInputBytes: number;

  constructor(key: Uint8Array) {
    if (key.length < 4) throw new Error('Toeplitz key must be at least 4 bytes');
    this.maxInputBytes = key.length - 4;
    this.table = new Uint32Array(this.maxInputBytes * 256);
    const windows = new Uint32Array(8);
    for (let pos = 0; pos < this.maxInputBytes; pos++) {
      for (let j = 0; j < 8; j++) windows[j] = keyWindow(key, pos * 8 + j);
      const base = pos * 256;
      for (let b = 1; b < 256; b++) {
        // Build each entry from the entry without its lowest set bit (bit 0x80 >> j is input bit j).
        const low = b & -b;
        const j = 7 - (31 - Math.clz32(low));
        this.table[base + b] = (this.table[base + (b ^ low)]! ^ windows[j]!) >>> 0;
      }
    }
  }

  /** Hash `input` (network byte order), starting from `initValue` (0 for the standard hash). */
  hash(input: Uint8Array, initValue = 0): number {
    if (input.length > this.maxInputBytes)
      throw new Error(`Toeplitz input longer than ${this.maxInputBytes} bytes`);
    const t = this.table;
    let h = initValue | 0;
    for (let i = 0; i < input.length; i++) h ^= t[i * 256 + input[i]!]!;
    return h >>> 0;
  }

  /** Allocation-free IPv4 hash: addresses as uint32, ports as uint16 (omit both for the 2-tuple). */
  hashIpv4(srcIp: number, dstIp: number, srcPort?: number, dstPort?: number, initValue = 0): number {
    const t = this.table;
    let h =
      initValue ^
      t[srcIp >>> 24]! ^
      t[256 + ((srcIp >>> 16) & 255)]! ^
      t[512 + ((srcIp >>> 8) & 255)]! ^
      t[768 + (srcIp & 255)]! ^
      t[1024 + (dstIp >>> 24)]! ^
      t[1280 + ((dstIp >>> 16) & 255)]! ^
      t[1536 + ((dstIp >>> 8) & 255)]! ^
      t[1792 + (dstIp & 255)]!;
    if (srcPort !== undefined && dstPort !== undefined) {
      h ^= t[2048 + ((srcPort >>> 8) & 255)]! ^ t[2304 + (srcPort & 255)]!;
      h ^= t[2560 + ((dstPort >>> 8) & 255)]! ^ t[2816 + (dstPort & 255)]!;
    }
    return h >>> 0;
  }
}

/** The 32 key bits starting at bit `bitOffset` (bits past the end of the key read as 0). */
function keyWindow(key: Uint8Array, bitOffset: number): number {
  const byte = bitOffset >> 3;
  const shift = bitOffset & 7;
  // Gather 5 bytes (40 bits) and take the top 32 after the sub-byte shift.
  const hi =
    ((key[byte] ?? 0) << 24) |
    ((key[byte + 1] ?? 0) << 16) |
    ((key[byte + 2] ?? 0) << 8) |
    (key[byte + 3] ?? 0);
  const next = key[byte + 4] ?? 0;
  const w = shift === 0 ? hi : (hi << shift) | (next >>> (8 - shift));
  return w >>> 0;
}

interface CachedHasher {
  key: Uint8Array;
  hasher: ToeplitzHasher;
}
const byIdentity = new WeakMap<Uint8Array, CachedHasher>();
const byContent = new Map<string, ToeplitzHasher>();
const MAX_CONTENT_CACHE = 32;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The cached hasher for a key (keyed by identity, verified by content, then by content). */
export function hasherFor(key: Uint8Array): ToeplitzHasher {
  const hit = byIdentity.get(key);
  if (hit && sameBytes(hit.key, key)) return hit.hasher;
  const id = hexKey(key);
  let hasher = byContent.get(id);
  if (!hasher) {
    hasher = new ToeplitzHasher(key);
    if (byContent.size >= MAX_CONTENT_CACHE) {
      const oldest = byContent.keys().next().value;
      if (oldest !== undefined) byContent.delete(oldest);
    }
    byContent.set(id, hasher);
  }
  byIdentity.set(key, { key: key.slice(), hasher });
  return hasher;
}

function hexKey(key: Uint8Array): string {
  let s = '';
  for (let i = 0; i < key.length; i++) s += (key[i]! < 16 ? '0' : '') + key[i]!.toString(16);
  return s;
}

/** Standard Toeplitz hash (initial value 0) of `input` under `key`, as uint32. */
export function toeplitzHash(key: Uint8Array, input: Uint8Array): number {
  return hasherFor(key).hash(input);
}

/** Parse dotted-quad IPv4 into a uint32, or undefined if malformed. */
export function parseIpv4(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = v * 256 + n;
  }
  return v >>> 0;
}

/** Format a uint32 as dotted-quad IPv4. */
export function formatIpv4(v: number): string {
  return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

/** Parse an IPv6 address (with `::` compression and an optional trailing dotted quad) into 16 bytes. */
export function parseIpv6(s: string): Uint8Array | undefined {
  let text = s;
  // A trailing dotted quad (::ffff:1.2.3.4) stands for the last two groups.
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.indexOf('.', lastColon) >= 0) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parseGroups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0]!);
  const rest = halves.length === 2 ? parseGroups(halves[1]!) : [];
  if (!head || !rest) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    const fill = 8 - head.length - rest.length;
    if (fill < 1) return undefined;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return undefined;
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    out[i * 2] = groups[i]! >>> 8;
    out[i * 2 + 1] = groups[i]! & 255;
  }
  return out;
}

/** A flow as RSS sees it. Ports are omitted for the 2-tuple (non-TCP/UDP) hash. */
export interface RssTuple {
  srcIp: string;
  dstIp: string;
  srcPort?: number;
  dstPort?: number;
}

/** Hash input for IPv4: src IP, dst IP, [src port, dst port], network byte order (8 or 12 bytes). */
export function rssInputIpv4(srcIp: number, dstIp: number, srcPort?: number, dstPort?: number): Uint8Array {
  const withPorts = srcPort !== undefined && dstPort !== undefined;
  const out = new Uint8Array(withPorts ? 12 : 8);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, srcIp >>> 0);
  dv.setUint32(4, dstIp >>> 0);
  if (withPorts) {
    dv.setUint16(8, srcPort & 0xffff);
    dv.setUint16(10, dstPort & 0xffff);
  }
  return out;
}

/** Hash input for IPv6: src IP, dst IP, [src port, dst port], network byte order (32 or 36 bytes). */
export function rssInputIpv6(
  srcIp: Uint8Array,
  dstIp: Uint8Array,
  srcPort?: number,
  dstPort?: number,
): Uint8Array {
  const withPorts = srcPort !== undefined && dstPort !== undefined;
  const out = new Uint8Array(withPorts ? 36 : 32);
  out.set(srcIp, 0);
  out.set(dstIp, 16);
  if (withPorts) {
    out[32] = (srcPort >>> 8) & 255;
    out[33] = srcPort & 255;
    out[34] = (dstPort >>> 8) & 255;
    out[35] = dstPort & 255;
  }
  return out;
}

/** Hash input for a tuple of either family. Throws on malformed addresses. */
export function rssInput(t: RssTuple): Uint8Array {
  const v4s = parseIpv4(t.srcIp);
  const v4d = parseIpv4(t.dstIp);
  if (v4s !== undefined && v4d !== undefined) return rssInputIpv4(v4s, v4d, t.srcPort, t.dstPort);
  const v6s = parseIpv6(t.srcIp);
  const v6d = parseIpv6(t.dstIp);
  if (!v6s || !v6d) throw new Error(`bad RSS tuple addresses ${t.srcIp} -> ${t.dstIp}`);
  return rssInputIpv6(v6s, v6d, t.srcPort, t.dstPort);
}

/** Lexicographic compare of equal-length byte strings. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The tuple with the smaller IP as source and (independently) the smaller port as source port. */
export function symmetricTuple(t: RssTuple): RssTuple {
  const a4 = parseIpv4(t.srcIp);
  const b4 = parseIpv4(t.dstIp);
  let swapIp: boolean;
  if (a4 !== undefined && b4 !== undefined) swapIp = b4 < a4;
  else {
    const a6 = parseIpv6(t.srcIp);
    const b6 = parseIpv6(t.dstIp);
    if (!a6 || !b6) throw new Error(`bad RSS tuple addresses ${t.srcIp} -> ${t.dstIp}`);
    swapIp = compareBytes(b6, a6) < 0;
  }
  const out: RssTuple = swapIp ? { srcIp: t.dstIp, dstIp: t.srcIp } : { srcIp: t.srcIp, dstIp: t.dstIp };
  if (t.srcPort !== undefined && t.dstPort !== undefined) {
    const swapPort = t.dstPort < t.srcPort;
    out.srcPort = swapPort ? t.dstPort : t.srcPort;
    out.dstPort = swapPort ? t.srcPort : t.dstPort;
  }
  return out;
}

/** Fold as the non-configurable ENA device does: low 16 bits copied into the high 16 bits. */
export function foldLow16(hash: number): number {
  return ((hash & 0xffff) | (hash << 16)) >>> 0;
}

/**
 * The hash of an ENA device whose key cannot be configured (toeplitz_calc.py without `-k`):
 * symmetric tuple, word-reversed Microsoft key, initial value 0xffffffff, low half folded.
 */
export function enaDefaultHwHash(t: RssTuple): number {
  const h = hasherFor(ENA_HW_DEFAULT_RSS_KEY).hash(rssInput(symmetricTuple(t)), ENA_RSS_INIT_VALUE);
  return foldLow16(h);
}

/**
 * The Toeplitz hash of a configurable ENA device driven by the Linux driver (>= 2.6): the device
 * uses the host key with its bytes reversed and starts from 0xffffffff.
 */
export function enaLinuxToeplitzHash(key: Uint8Array, t: RssTuple): number {
  return hasherFor(reverseKeyBytes(key)).hash(rssInput(t), ENA_RSS_INIT_VALUE);
}

const CRC32_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Reflected CRC-32 (IEEE polynomial) of `input` from `initValue`, no final XOR. [ASSUMED for ENA] */
export function crc32Hash(input: Uint8Array, initValue = ENA_RSS_INIT_VALUE): number {
  let c = initValue >>> 0;
  for (let i = 0; i < input.length; i++) c = CRC32_TABLE[(c ^ input[i]!) & 255]! ^ (c >>> 8);
  return c >>> 0;
}

/** What the device hashes with: the RSS part of `EnaDeviceView.rss()`. */
export interface EnaRssConfig {
  key: Uint8Array;
  hfunc: 'toeplitz' | 'crc32';
  keyConfigurable: boolean;
}

/** The hash an ENA device computes for a flow, given its RSS configuration. */
export function enaRxHash(rss: EnaRssConfig, t: RssTuple): number {
  // Devices that cannot take a host key ignore both the key and the function (§1.4).
  if (!rss.keyConfigurable) return enaDefaultHwHash(t);
  if (rss.hfunc === 'crc32') return crc32Hash(rssInput(t), ENA_RSS_INIT_VALUE);
  return enaLinuxToeplitzHash(rss.key, t);
}

/** The default indirection table: entry i → queue i % nqueues (`ethtool_rxfh_indir_default`). */
export function defaultIndirectionTable(nqueues: number, size = ENA_RSS_INDIR_TABLE_SIZE): number[] {
  if (!Number.isInteger(nqueues) || nqueues < 1) throw new Error(`bad queue count ${nqueues}`);
  const out = new Array<number>(size);
  for (let i = 0; i < size; i++) out[i] = i % nqueues;
  return out;
}

/** The RX queue a hash lands on: indir[hash % table size]. */
export function rxQueueFor(hash: number, indir: readonly number[]): number {
  if (indir.length === 0) throw new Error('empty indirection table');
  return indir[(hash >>> 0) % indir.length]!;
}
