/**
 * Packets as bytes: the wire form of a captured packet (Ethernet II, IPv4, TCP with Linux's
 * options, UDP, ICMP echo; zero payload, which the lab does not model; checksums as the capture
 * point sees them: see WirePacket.tcpSum/udpSum) and the classic pcap file
 * format (tcpdump.org/manpages/pcap-savefile.5: magic 0xa1b2c3d4, version 2.4, LINKTYPE_ETHERNET),
 * written by `tcpdump -w` and read back by `tcpdump -r`.
 */

/** A packet as tcpdump decodes it: the header fields the printer shows. */
export interface WirePacket {
  /** Wall-clock time of the capture: Unix seconds and microseconds. */
  sec: number;
  usec: number;
  srcMac: string;
  dstMac: string;
  srcIp: string;
  dstIp: string;
  /** IP protocol number: 6 TCP, 17 UDP, 1 ICMP, 47 GRE. */
  proto: number;
  /** IP total length. */
  ipLen: number;
  tos: number;
  ipId: number;
  /** More fragments / fragment offset (8-byte units). */
  mf: boolean;
  fragOffset: number;
  ttl: number;
  sport: number;
  dport: number;
  /** TCP */
  seq: number;
  ack: number;
  flags: number;
  win: number;
  /** TCP options in Linux's layout: what a SYN or a data segment carries. */
  options: TcpOption[];
  /** IP Don't Fragment. */
  df?: boolean;
  /**
   * The TCP checksum field as captured: absent, the correct one. A packet captured as it is sent
   * carries the pseudo-header sum only (CHECKSUM_PARTIAL: the NIC fills the rest), so tcpdump -v
   * calls it incorrect, as on a real sender.
   */
  tcpSum?: number;
  /**
   * The UDP checksum field as captured, on the same terms: absent, the correct one (what the
   * sender's NIC wrote: a received datagram, or one Linux checksummed itself before fragmenting).
   */
  udpSum?: number;
  /** TCP header length from the data-offset field, when decoded from a frame (its options may be cut off). */
  tcpDoff?: number;
  /** ICMP */
  icmpType: number;
  icmpId: number;
  icmpSeq: number;
}

export type TcpOption =
  | { kind: 'mss'; v: number }
  | { kind: 'sackOK' }
  | { kind: 'ts'; val: number; ecr: number }
  | { kind: 'nop' }
  | { kind: 'wscale'; v: number }
  | { kind: 'sack'; blocks: Array<[number, number]> };

/** TCP header flag bits as on the wire. */
export const TH = { FIN: 1, SYN: 2, RST: 4, PUSH: 8, ACK: 16, URG: 32, ECE: 64, CWR: 128 } as const;

const macCache = new Map<string, number[]>();
const ipCache = new Map<string, number[]>();
function macBytes(mac: string): number[] {
  let b = macCache.get(mac);
  if (!b) {
    b = mac.split(':').map((h) => Number.parseInt(h, 16));
    macCache.set(mac, b);
  }
  return b;
}
function ipBytes(ip: string): number[] {
  let b = ipCache.get(ip);
  if (!b) {
    b = ip.split('.').map(Number);
    ipCache.set(ip, b);
  }
  return b;
}

function optionBytes(opts: TcpOption[]): number[] {
  const b: number[] = [];
  for (const o of opts) {
    switch (o.kind) {
      case 'mss':
        b.push(2, 4, o.v >> 8, o.v & 0xff);
        break;
      case 'sackOK':
        b.push(4, 2);
        break;
      case 'ts':
        b.push(8, 10, ...u32(o.val), ...u32(o.ecr));
        break;
      case 'nop':
        b.push(1);
        break;
      case 'wscale':
        b.push(3, 3, o.v);
        break;
      case 'sack':
        b.push(5, 2 + 8 * o.blocks.length);
        for (const [l, r] of o.blocks) b.push(...u32(l), ...u32(r));
        break;
    }
  }
  while (b.length % 4 !== 0) b.push(1);
  return b;
}
const u32 = (v: number) => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];

function checksum(bytes: Uint8Array, from: number, to: number, init = 0): number {
  let s = init;
  for (let i = from; i < to; i += 2) s += (bytes[i]! << 8) | (i + 1 < to ? bytes[i + 1]! : 0);
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return ~s & 0xffff;
}

/**
 * The frame's bytes: Ethernet II + IPv4 + L4 header + zero payload (`ipLen` bytes of IP), or only
 * its first `limit` bytes (a snapshot length): the payload is zeros, so nothing past the headers
 * needs writing.
 */
export function encodeFrame(p: WirePacket, limit = Number.POSITIVE_INFINITY): Uint8Array {
  const full = 14 + p.ipLen;
  const opts = p.proto === 6 && p.fragOffset === 0 ? optionBytes(p.options) : [];
  const l4len =
    p.fragOffset > 0 ? 0 : p.proto === 6 ? 20 + opts.length : p.proto === 17 || p.proto === 1 ? 8 : 0;
  const size = Math.min(full, Math.max(limit, 34 + l4len));
  const frame = new Uint8Array(size);
  frame.set(macBytes(p.dstMac), 0);
  frame.set(macBytes(p.srcMac), 6);
  frame[12] = 0x08;
  frame[13] = 0x00;
  const ip = 14;
  frame[ip] = 0x45;
  frame[ip + 1] = p.tos;
  frame[ip + 2] = p.ipLen >> 8;
  frame[ip + 3] = p.ipLen & 0xff;
  frame[ip + 4] = p.ipId >> 8;
  frame[ip + 5] = p.ipId & 0xff;
  const fl = ((p.df ?? p.proto === 6) ? 0x4000 : 0) | (p.mf ? 0x2000 : 0) | p.fragOffset;
  frame[ip + 6] = fl >> 8;
  frame[ip + 7] = fl & 0xff;
  frame[ip + 8] = p.ttl;
  frame[ip + 9] = p.proto;
  frame.set(ipBytes(p.srcIp), ip + 12);
  frame.set(ipBytes(p.dstIp), ip + 16);
  const c = checksum(frame, ip, ip + 20);
  frame[ip + 10] = c >> 8;
  frame[ip + 11] = c & 0xff;
  const l4 = ip + 20;
  if (p.fragOffset > 0) return frame; // a later fragment carries no L4 header
  if (p.proto === 6) {
    frame.set([p.sport >> 8, p.sport & 0xff, p.dport >> 8, p.dport & 0xff], l4);
    frame.set(u32(p.seq >>> 0), l4 + 4);
    frame.set(u32(p.ack >>> 0), l4 + 8);
    frame[l4 + 12] = ((20 + opts.length) / 4) << 4;
    frame[l4 + 13] = p.flags;
    frame[l4 + 14] = (p.win >> 8) & 0xff;
    frame[l4 + 15] = p.win & 0xff;
    frame.set(opts, l4 + 20);
    const sum = p.tcpSum ?? tcpChecksum(p, frame.subarray(l4, l4 + 20 + opts.length));
    frame[l4 + 16] = sum >> 8;
    frame[l4 + 17] = sum & 0xff;
  } else if (p.proto === 17) {
    const ulen = p.ipLen - 20;
    frame.set([p.sport >> 8, p.sport & 0xff, p.dport >> 8, p.dport & 0xff, ulen >> 8, ulen & 0xff], l4);
    const sum = p.udpSum ?? udpChecksum(p);
    frame[l4 + 6] = sum >> 8;
    frame[l4 + 7] = sum & 0xff;
  } else if (p.proto === 1) {
    frame.set([p.icmpType, 0, 0, 0, p.icmpId >> 8, p.icmpId & 0xff, p.icmpSeq >> 8, p.icmpSeq & 0xff], l4);
    // the zero payload adds nothing to the sum
    const c4 = checksum(frame, l4, size);
    frame[l4 + 2] = c4 >> 8;
    frame[l4 + 3] = c4 & 0xff;
  }
  return size > limit ? frame.slice(0, limit) : frame;
}

/**
 * The pseudo-header sum (RFC 793, RFC 768) of a `len`-byte segment of IP protocol `proto`, folded,
 * not complemented: what Linux leaves in the checksum field for the NIC (CHECKSUM_PARTIAL).
 */
export function pseudoSum(p: WirePacket, proto: number, len: number): number {
  let s = 0;
  for (const ip of [p.srcIp, p.dstIp]) {
    const b = ipBytes(ip);
    s += (b[0]! << 8) | b[1]!;
    s += (b[2]! << 8) | b[3]!;
  }
  s += proto + len;
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return s;
}

/** The pseudo-header sum of a TCP segment of `tcpLen` bytes. */
export const tcpPseudoSum = (p: WirePacket, tcpLen: number): number => pseudoSum(p, 6, tcpLen);

/** The correct UDP checksum of a datagram with a zero payload (RFC 768: a computed 0 is sent as 0xffff). */
export function udpChecksum(p: WirePacket): number {
  const ulen = p.ipLen - 20;
  const h = new Uint8Array([
    p.sport >> 8,
    p.sport & 0xff,
    p.dport >> 8,
    p.dport & 0xff,
    ulen >> 8,
    ulen & 0xff,
  ]);
  const c = checksum(h, 0, 6, pseudoSum(p, 17, ulen));
  return c === 0 ? 0xffff : c;
}

/** The correct TCP checksum of a segment whose header (checksum field zero) is `header`; the payload is zeros. */
export function tcpChecksum(p: WirePacket, header: Uint8Array): number {
  const tcpLen = p.ipLen - 20;
  const tmp = new Uint8Array(header);
  tmp[16] = 0;
  tmp[17] = 0;
  return checksum(tmp, 0, tmp.length, tcpPseudoSum(p, tcpLen));
}

/** Decode a frame (as encodeFrame writes it, or any Ethernet/IPv4 frame) back to its fields; null if not IPv4. */
export function decodeFrame(f: Uint8Array, sec: number, usec: number): WirePacket | null {
  if (f.length < 34 || f[12] !== 0x08 || f[13] !== 0x00) return null;
  const mac = (o: number) => [...f.slice(o, o + 6)].map((b) => b.toString(16).padStart(2, '0')).join(':');
  const ip = 14;
  const ihl = (f[ip]! & 0x0f) * 4;
  const rd32 = (o: number) => ((f[o]! << 24) | (f[o + 1]! << 16) | (f[o + 2]! << 8) | f[o + 3]!) >>> 0;
  const fl = (f[ip + 6]! << 8) | f[ip + 7]!;
  const p: WirePacket = {
    sec,
    usec,
    dstMac: mac(0),
    srcMac: mac(6),
    srcIp: [...f.slice(ip + 12, ip + 16)].join('.'),
    dstIp: [...f.slice(ip + 16, ip + 20)].join('.'),
    proto: f[ip + 9]!,
    ipLen: (f[ip + 2]! << 8) | f[ip + 3]!,
    tos: f[ip + 1]!,
    ipId: (f[ip + 4]! << 8) | f[ip + 5]!,
    mf: (fl & 0x2000) !== 0,
    df: (fl & 0x4000) !== 0,
    fragOffset: fl & 0x1fff,
    ttl: f[ip + 8]!,
    sport: 0,
    dport: 0,
    seq: 0,
    ack: 0,
    flags: 0,
    win: 0,
    options: [],
    icmpType: 0,
    icmpId: 0,
    icmpSeq: 0,
  };
  const l4 = ip + ihl;
  if (p.fragOffset > 0 || f.length < l4 + 4) return p;
  if (p.proto === 6 && f.length >= l4 + 4) {
    // the ports, then (if captured) the rest of the header
    p.sport = (f[l4]! << 8) | f[l4 + 1]!;
    p.dport = (f[l4 + 2]! << 8) | f[l4 + 3]!;
  }
  if (p.proto === 6 && f.length >= l4 + 20) {
    p.seq = rd32(l4 + 4);
    p.ack = rd32(l4 + 8);
    const doff = (f[l4 + 12]! >> 4) * 4;
    p.tcpDoff = doff;
    p.flags = f[l4 + 13]!;
    p.win = (f[l4 + 14]! << 8) | f[l4 + 15]!;
    p.tcpSum = (f[l4 + 16]! << 8) | f[l4 + 17]!;
    for (let o = l4 + 20; o < Math.min(l4 + doff, f.length); ) {
      const k = f[o]!;
      if (k === 0) break;
      if (k === 1) {
        p.options.push({ kind: 'nop' });
        o++;
        continue;
      }
      const len = f[o + 1]!;
      if (k === 2) p.options.push({ kind: 'mss', v: (f[o + 2]! << 8) | f[o + 3]! });
      else if (k === 4) p.options.push({ kind: 'sackOK' });
      else if (k === 8) p.options.push({ kind: 'ts', val: rd32(o + 2), ecr: rd32(o + 6) });
      else if (k === 3) p.options.push({ kind: 'wscale', v: f[o + 2]! });
      else if (k === 5) {
        const blocks: Array<[number, number]> = [];
        for (let b = o + 2; b + 8 <= o + len; b += 8) blocks.push([rd32(b), rd32(b + 4)]);
        p.options.push({ kind: 'sack', blocks });
      }
      o += Math.max(2, len);
    }
  } else if (p.proto === 17) {
    p.sport = (f[l4]! << 8) | f[l4 + 1]!;
    p.dport = (f[l4 + 2]! << 8) | f[l4 + 3]!;
    if (f.length >= l4 + 8) p.udpSum = (f[l4 + 6]! << 8) | f[l4 + 7]!;
  } else if (p.proto === 1 && f.length >= l4 + 8) {
    p.icmpType = f[l4]!;
    p.icmpId = (f[l4 + 4]! << 8) | f[l4 + 5]!;
    p.icmpSeq = (f[l4 + 6]! << 8) | f[l4 + 7]!;
  }
  return p;
}

export const PCAP_LINKTYPE_ETHERNET = 1;

/** A pcap file: global header, then per packet a record header and the first `snaplen` bytes. */
export class PcapWriter {
  private readonly chunks: Uint8Array[] = [];
  bytes = 0;
  constructor(readonly snaplen: number) {
    const h = new DataView(new ArrayBuffer(24));
    h.setUint32(0, 0xa1b2c3d4, true);
    h.setUint16(4, 2, true);
    h.setUint16(6, 4, true);
    h.setInt32(8, 0, true);
    h.setUint32(12, 0, true);
    h.setUint32(16, snaplen, true);
    h.setUint32(20, PCAP_LINKTYPE_ETHERNET, true);
    this.push(new Uint8Array(h.buffer));
  }
  private push(b: Uint8Array) {
    this.chunks.push(b);
    this.bytes += b.length;
  }
  add(p: WirePacket): void {
    const frame = encodeFrame(p, this.snaplen);
    const r = new DataView(new ArrayBuffer(16));
    r.setUint32(0, p.sec, true);
    r.setUint32(4, p.usec, true);
    r.setUint32(8, frame.length, true);
    r.setUint32(12, 14 + p.ipLen, true);
    this.push(new Uint8Array(r.buffer));
    this.push(frame);
  }
  /** The whole file. */
  file(): Uint8Array {
    const out = new Uint8Array(this.bytes);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

/** Read a pcap file (either byte order, µs or ns timestamps); an error text when it is not one. */
export function readPcap(b: Uint8Array):
  | {
      linktype: number;
      snaplen: number;
      packets: Array<{ sec: number; usec: number; data: Uint8Array; orig: number }>;
    }
  | { error: string } {
  if (b.length < 24)
    return { error: 'truncated dump file; tried to read 4 file header bytes, only got ' + b.length };
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const m = dv.getUint32(0, true);
  let le: boolean;
  let nano = false;
  if (m === 0xa1b2c3d4) le = true;
  else if (m === 0xd4c3b2a1) le = false;
  else if (m === 0xa1b23c4d) {
    le = true;
    nano = true;
  } else if (m === 0x4d3cb2a1) {
    le = false;
    nano = true;
  } else return { error: 'bad dump file format' };
  const snaplen = dv.getUint32(16, le);
  const linktype = dv.getUint32(20, le);
  const packets: Array<{ sec: number; usec: number; data: Uint8Array; orig: number }> = [];
  for (let o = 24; o + 16 <= b.length; ) {
    const incl = dv.getUint32(o + 8, le);
    if (o + 16 + incl > b.length) break;
    const frac = dv.getUint32(o + 4, le);
    packets.push({
      sec: dv.getUint32(o, le),
      usec: nano ? Math.floor(frac / 1000) : frac,
      data: b.subarray(o + 16, o + 16 + incl),
      orig: dv.getUint32(o + 12, le),
    });
    o += 16 + incl;
  }
  return { linktype, snaplen, packets };
}
