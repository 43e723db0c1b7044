/**
 * The display filter's fields over the capture ring's columns (src/lib/display-filter.ts names
 * them as Wireshark does): each a reader of absolute row numbers, computed from the columns as the
 * wire would carry them (tcpdump's WireMapper: relative seq/ack, flags, window, lengths with SACK).
 * Sources: Wireshark's display filter reference (packet-tcp.c, packet-ip.c field names).
 */
import {
  type CaptureRing,
  type Lab,
  META_FRAG,
  META_FRAG_LAST,
  META_ICMP_REPLY,
  META_IN,
  META_LAST,
  META_RESTORED,
  META_RETX,
  ROW_CREDITS,
  ROW_DROP,
  ROW_RX,
  TCP_FLAG_ACK,
  TCP_FLAG_FIN,
  TCP_FLAG_PSH,
  TCP_FLAG_RST,
  TCP_FLAG_SYN,
} from '../src/engine';
import {
  type FieldReader,
  FilterError,
  type FilterSource,
  IFACE_NAMES,
  ROW_STAGES,
} from '../src/lib/display-filter';

/** Linux's window scale for the default tcp_rmem (tcpdump's WireMapper): 7. */
export const WSCALE = 7;

/** The row predicate's fields over the ring's current columns (absolute row numbers in); `macN` caches MACs by address. */
export function captureFields(r: CaptureRing, lab: Lab, macN: number[]): FilterSource {
  const mask = r.t.length - 1;
  const { t, meta, fslot, size, payload, seq, ack, window, tos, k, n, fragOf, dev } = r;
  const flows = r.flows;
  const mtus = r.mtus;
  const kind = (i: number) => meta[i & mask]! & 3;
  const isPkt = (i: number) => fslot[i & mask]! >= 0;
  const fl = (i: number) => flows[fslot[i & mask]!]!;
  const proto = (i: number) => (isPkt(i) ? fl(i).proto : -1);
  const fragOff = (i: number) => {
    const s = i & mask;
    const m = meta[s]!;
    if (!(m & META_FRAG)) return 0;
    const mtu = mtus[(m >>> 2) & 0x1f]!;
    return (
      (m & META_FRAG_LAST
        ? Math.floor(((fragOf[s]! - 1) * (mtu - 20)) / 8)
        : Math.floor((k[s]! * (mtu - 20)) / 8)) * 8
    );
  };
  const sackB = (i: number) => (meta[i & mask]! >>> 25) & 3;
  const modelFlags = (i: number) => (meta[i & mask]! >>> 16) & 0x1f;
  const syn = (i: number) => (modelFlags(i) & TCP_FLAG_SYN) !== 0;
  const ipLen = (i: number) =>
    size[i & mask]! + (proto(i) === 6 && !syn(i) && sackB(i) > 0 ? 4 + 8 * sackB(i) : 0);
  const tcp = (i: number) => proto(i) === 6 && fragOff(i) === 0;
  const udp = (i: number) => proto(i) === 17 && fragOff(i) === 0;
  const icmp = (i: number) => proto(i) === 1 && fragOff(i) === 0;
  const wireFlags = (i: number) =>
    wireTcpFlags(modelFlags(i), payload[i & mask]!, (meta[i & mask]! & META_LAST) !== 0);
  const tcpHdr = (i: number) => (syn(i) ? 40 : sackB(i) > 0 ? 36 + 8 * sackB(i) : 32);
  const has = (p: (i: number) => boolean, ...get: Array<(i: number) => number>): FieldReader => ({
    has: p,
    get,
  });
  const bit = (b: number) => has(tcp, (i) => (wireFlags(i) & b ? 1 : 0));
  const sport = (i: number) => fl(i).flow.tuple.srcPort;
  const dport = (i: number) => fl(i).flow.tuple.dstPort;
  const mac = (ipN: number, ip: string) => {
    let v = macN[ipN];
    if (v === undefined) {
      const m = lab.resolve(ip)?.host.eth0.link().mac ?? '02:00:00:00:00:01';
      v = m.split(':').reduce((a, h) => a * 256 + Number.parseInt(h, 16), 0);
      macN[ipN] = v;
    }
    return v;
  };
  const macSrc = (i: number) => mac(fl(i).srcN, fl(i).flow.tuple.srcIp);
  const macDst = (i: number) => mac(fl(i).dstN, fl(i).flow.tuple.dstIp);
  const fields: Record<string, FieldReader> = {
    frame: has(() => true),
    'frame.number': has(
      () => true,
      (i) => i + 1,
    ),
    'frame.time_relative': has(
      () => true,
      (i) => t[i & mask]! / 1e9,
    ),
    'frame.len': has(isPkt, (i) => ipLen(i) + 14),
    eth: has(isPkt),
    'eth.src': has(isPkt, macSrc),
    'eth.dst': has(isPkt, macDst),
    'eth.addr': has(isPkt, macSrc, macDst),
    ip: has(isPkt),
    'ip.src': has(isPkt, (i) => fl(i).srcN),
    'ip.dst': has(isPkt, (i) => fl(i).dstN),
    'ip.addr': has(
      isPkt,
      (i) => fl(i).srcN,
      (i) => fl(i).dstN,
    ),
    'ip.proto': has(isPkt, proto),
    'ip.len': has(isPkt, ipLen),
    'ip.dsfield': has(isPkt, (i) => tos[i & mask]!),
    'ip.flags.df': has(isPkt, (i) => (meta[i & mask]! & (META_FRAG | META_ICMP_REPLY) ? 0 : 1)),
    'ip.flags.mf': has(isPkt, (i) =>
      (meta[i & mask]! & (META_FRAG | META_FRAG_LAST)) === META_FRAG ? 1 : 0,
    ),
    'ip.frag_offset': has(isPkt, fragOff),
    tcp: has(tcp),
    'tcp.srcport': has(tcp, sport),
    'tcp.dstport': has(tcp, dport),
    'tcp.port': has(tcp, sport, dport),
    'tcp.stream': has(tcp, (i) => fl(i).stream),
    'tcp.seq': has(tcp, (i) => (syn(i) ? 0 : (1 + seq[i & mask]! + k[i & mask]! * payload[i & mask]!) >>> 0)),
    'tcp.ack': has(
      (i) => tcp(i) && (wireFlags(i) & 16) !== 0,
      (i) => (1 + ack[i & mask]!) >>> 0,
    ),
    'tcp.len': has(tcp, (i) => ipLen(i) - 20 - tcpHdr(i)),
    'tcp.window_size_value': has(tcp, (i) =>
      wireWindow(syn(i), window[i & mask]!, mtus[(meta[i & mask]! >>> 2) & 0x1f]!),
    ),
    'tcp.flags': has(tcp, wireFlags),
    'tcp.analysis.retransmission': has((i) => tcp(i) && (meta[i & mask]! & META_RETX) !== 0),
    'tcp.flags.fin': bit(1),
    'tcp.flags.syn': bit(2),
    'tcp.flags.reset': bit(4),
    'tcp.flags.push': bit(8),
    'tcp.flags.ack': bit(16),
    udp: has(udp),
    'udp.srcport': has(udp, sport),
    'udp.dstport': has(udp, dport),
    'udp.port': has(udp, sport, dport),
    'udp.length': has(udp, (i) => ipLen(i) - 20),
    icmp: has(icmp),
    'icmp.type': has(icmp, (i) => (meta[i & mask]! & META_ICMP_REPLY ? 0 : 8)),
    gre: has((i) => proto(i) === 47),
    host: { has: () => true, get: [(i) => (meta[i & mask]! >>> 2) & 0x1f], strings: r.hosts },
    dir: { has: (i) => kind(i) <= ROW_RX, get: [kind], strings: ['out', 'in'] },
    'frame.interface_name': {
      has: (i) => kind(i) <= ROW_RX,
      get: [(i) => dev[i & mask]!],
      strings: IFACE_NAMES,
    },
    stage: { has: () => true, get: [(i) => (meta[i & mask]! >>> 7) & 7], strings: ROW_STAGES },
    drop: has((i) => kind(i) === ROW_DROP),
    'drop.reason': {
      has: (i) => kind(i) === ROW_DROP,
      get: [(i) => (meta[i & mask]! >>> 10) & 0x3f],
      strings: r.reasons,
    },
    'drop.count': has(
      (i) => kind(i) === ROW_DROP,
      (i) => n[i & mask]!,
    ),
    credits: has((i) => kind(i) === ROW_CREDITS),
    'credits.event': {
      has: (i) => kind(i) === ROW_CREDITS,
      get: [(i) => (meta[i & mask]! & META_RESTORED ? 1 : 0)],
      strings: ['exhausted', 'restored'],
    },
    'credits.direction': {
      has: (i) => kind(i) === ROW_CREDITS,
      get: [(i) => (meta[i & mask]! & META_IN ? 1 : 0)],
      strings: ['out', 'in'],
    },
  };
  return {
    field: (name) => {
      const f = fields[name];
      if (!f) throw new FilterError(`"${name}" is not a valid protocol or protocol field.`, 0, 0);
      return f;
    },
  };
}

/** The names Wireshark lists for the flags set in a TCP flags byte (FIN, SYN, RST, PSH, ACK). */
export function tcpFlagNames(flags: number): string[] {
  const names: string[] = [];
  if (flags & 1) names.push('FIN');
  if (flags & 2) names.push('SYN');
  if (flags & 4) names.push('RST');
  if (flags & 8) names.push('PSH');
  if (flags & 16) names.push('ACK');
  return names;
}

/** The TCP flags byte Linux puts on the wire for the model's flags (tcpdump's WireMapper). */
export function wireTcpFlags(modelFlags: number, payload: number, lastOfBatch: boolean): number {
  const syn = (modelFlags & TCP_FLAG_SYN) !== 0;
  let f = 0;
  if (syn) f |= 2;
  if (modelFlags & TCP_FLAG_FIN) f |= 1;
  if (modelFlags & TCP_FLAG_RST) f |= 4;
  if (modelFlags & TCP_FLAG_ACK || !syn) f |= 16;
  if ((modelFlags & TCP_FLAG_PSH || (payload > 0 && lastOfBatch)) && payload > 0) f |= 8;
  return f;
}

/** The window field Linux sends (tcpdump's WireMapper: the SYN's unscaled, a whole number of MSS; then scaled by 2^7). */
export function wireWindow(syn: boolean, window: number, mtu: number): number {
  if (syn) {
    const mss = mtu - 40;
    return Math.floor(Math.min(65535, window) / mss) * mss;
  }
  return Math.min(65535, window >> WSCALE);
}
