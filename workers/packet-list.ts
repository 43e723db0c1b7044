/**
 * The packet list's queries over a run's capture (src/engine/view/capture-ring.ts): the rows a
 * display filter selects for an instance and a time window, kept per query and brought up to date
 * incrementally (new rows scanned, evicted or expired ones let go), the rows on screen as
 * Wireshark's columns, one row's layers and fields (Wireshark's packet details), and exports (pcap
 * through tcpdump's writer, CSV as Wireshark's "Export Packet Dissections").
 *
 * Wire fields Linux sets and the model does not carry (ISN, TS clock, IP id) come from tcpdump's
 * WireMapper replayed over the rows in capture order from the oldest held, so a row reads as a
 * `tcpdump -w` file started at that instant reads: an export of everything an instance sent and
 * received since t = 0 is byte for byte `tcpdump -i eth0 -s 128 -w` on it (tests/ui/packet-list.test.ts).
 */
import {
  batchGapNs,
  type CaptureFlow,
  type CaptureRing,
  encodeFrame,
  hashString,
  type Lab,
  META_FRAG,
  META_FRAG_LAST,
  META_ICMP_REPLY,
  META_IN,
  META_LAST,
  META_RESTORED,
  META_RETX,
  META_SENT_ON_MS,
  type Packet,
  PcapWriter,
  ROW_CREDITS,
  ROW_DROP,
  ROW_RX,
  ROW_TX,
  TCP_FLAG_ACK,
  TCP_FLAG_FIN,
  TCP_FLAG_PSH,
  TCP_FLAG_RST,
  TCP_FLAG_SYN,
  type TcpOption,
  WireMapper,
  type WirePacket,
} from '../src/engine';
import {
  compileFilter,
  DISPLAY_FIELDS,
  type FieldReader,
  FilterError,
  type FilterNode,
  IFACE_NAMES,
  type FilterSource,
  parseDisplayFilter,
  ROW_STAGES,
} from '../src/lib/display-filter';
import { STEP_STAGES } from '../src/lib/step-stages';
import { utcFields } from '../src/lib/time';
import type {
  PacketDetails,
  PacketExport,
  PacketListAnswer,
  PacketListRequest,
  PacketRow,
  PacketSelection,
  PacketWindow,
} from '../src/protocol/sim-api';

/** Snapshot length of an exported pcap: every header the lab writes (the payload is zeros, not modelled). */
export const EXPORT_SNAPLEN = 128;
/** An exported pcap stops growing here (as `tcpdump -w` in the lab). */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;
/** Rows one answer carries at most. */
const MAX_PAGE = 500;
const WSCALE = 7;

const STAGE_LABEL: Record<string, string> = Object.fromEntries(STEP_STAGES.map((s) => [s.stage, s.label]));
const KIND_NAMES = ['out', 'in', 'drop', 'credits'] as const;

interface Query {
  key: string;
  ast: FilterNode | null;
  host: number;
  window: PacketWindow;
  /** Matching row numbers, ascending, in m[head … len). */
  m: Float64Array;
  head: number;
  len: number;
  scanned: number;
}

export class PacketList {
  private query: Query | null = null;
  /** The last details replay (arrow keys go on from it instead of replaying from the oldest row). */
  private replay: {
    host: number;
    conn: string;
    next: number;
    mapper: WireMapper;
    last: WirePacket | null;
  } | null = null;
  private macN: number[] = [];

  constructor(
    readonly ring: CaptureRing,
    private readonly lab: Lab,
  ) {}

  // ------------------------------------------------------------------------------------ fields

  private cachedSource: { t: Float64Array; src: FilterSource } | null = null;

  /** The row predicate's fields over the ring's current columns (absolute row numbers in). */
  source(): FilterSource {
    const c = this.cachedSource;
    if (c && c.t === this.ring.t) return c.src;
    const src = this.makeSource();
    this.cachedSource = { t: this.ring.t, src };
    return src;
  }

  private makeSource(): FilterSource {
    const r = this.ring;
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
      let v = this.macN[ipN];
      if (v === undefined) {
        const m = this.lab.resolve(ip)?.host.eth0.link().mac ?? '02:00:00:00:00:01';
        v = m.split(':').reduce((a, h) => a * 256 + Number.parseInt(h, 16), 0);
        this.macN[ipN] = v;
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
      'tcp.seq': has(tcp, (i) =>
        syn(i) ? 0 : (1 + seq[i & mask]! + k[i & mask]! * payload[i & mask]!) >>> 0,
      ),
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

  // ------------------------------------------------------------------------------------ list

  list(req: PacketListRequest): PacketListAnswer {
    let q: Query;
    try {
      q = this.update(req);
    } catch (e) {
      if (e instanceof FilterError) return { ok: false, error: e.message, start: e.start, end: e.end };
      throw e;
    }
    const matched = q.len - q.head;
    const offset = req.fromEnd
      ? Math.max(0, matched - Math.min(MAX_PAGE, Math.floor(req.limit)))
      : Math.max(0, Math.min(Math.floor(req.offset), matched));
    const limit = Math.max(0, Math.min(MAX_PAGE, Math.floor(req.limit), matched - offset));
    const rows: PacketRow[] = [];
    for (let j = 0; j < limit; j++) rows.push(this.row(q.m[q.head + offset + j]!));
    let located = -1;
    if (req.locate != null) {
      const want = req.locate - 1;
      let lo = q.head;
      let hi = q.len;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (q.m[mid]! < want) lo = mid + 1;
        else hi = mid;
      }
      if (lo < q.len && q.m[lo] === want) located = lo - q.head;
    }
    const r = this.ring;
    return {
      ok: true,
      matched,
      offset,
      rows,
      recorded: r.count,
      held: r.count - r.oldest,
      evicted: r.evicted,
      cap: r.cap,
      located,
      nowNs: this.lab.nowNs,
    };
  }

  /** The selection's query, scanned up to the newest row (a new one when the selection changed). */
  private update(sel: PacketSelection): Query {
    const host = sel.host === null ? -1 : this.ring.hosts.indexOf(sel.host);
    if (host < 0 && sel.host !== null)
      throw new FilterError(`"${sel.host}" is not an instance of this lab.`, 0, 0);
    const key = JSON.stringify([sel.filter.trim(), host, sel.window]);
    let q = this.query;
    if (!q || q.key !== key) {
      const ast = parseDisplayFilter(sel.filter);
      q = { key, ast, host, window: sel.window, m: new Float64Array(1024), head: 0, len: 0, scanned: 0 };
      // compile once now: a field unknown to the source or an unknown instance is the filter's error
      compileFilter(ast, this.source());
      this.query = q;
    }
    this.scan(q);
    return q;
  }

  private scan(q: Query): void {
    const r = this.ring;
    const mask = r.t.length - 1;
    const t = r.t;
    const meta = r.meta;
    const now = this.lab.nowNs;
    const w = q.window;
    const fromNs = w.kind === 'all' ? -1 : w.kind === 'last' ? now - w.ns : w.fromNs;
    const toNs = w.kind === 'range' ? w.toNs : Number.POSITIVE_INFINITY;
    const oldest = r.oldest;
    while (q.head < q.len && (q.m[q.head]! < oldest || t[q.m[q.head]! & mask]! < fromNs)) q.head++;
    let i = Math.max(q.scanned, oldest);
    if (i < r.count && t[i & mask]! < fromNs) {
      // rows are in time order: the first in the window by bisection
      let lo = i;
      let hi = r.count;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (t[mid & mask]! < fromNs) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    if (i < r.count) {
      const pred = compileFilter(q.ast, this.source());
      const host = q.host;
      for (; i < r.count; i++) {
        const s = i & mask;
        if (t[s]! > toNs) break;
        if (host >= 0 && ((meta[s]! >>> 2) & 0x1f) !== host) continue;
        if (!pred(i)) continue;
        if (q.len === q.m.length) {
          if (q.head > q.m.length / 2) {
            q.m.copyWithin(0, q.head, q.len);
            q.len -= q.head;
            q.head = 0;
          } else {
            const m = new Float64Array(q.m.length * 2);
            m.set(q.m);
            q.m = m;
          }
        }
        q.m[q.len++] = i;
      }
    }
    q.scanned = Math.max(q.scanned, r.count);
  }

  /** Every row the selection picks (exports). */
  private all(sel: PacketSelection): number[] {
    const q = this.update(sel);
    return Array.from(q.m.subarray(q.head, q.len));
  }

  // ------------------------------------------------------------------------------------ rows

  row(i: number): PacketRow {
    const r = this.ring;
    const s = r.slotOf(i);
    const m = r.meta[s]!;
    const kind = m & 3;
    const host = r.hosts[(m >>> 2) & 0x1f] ?? '?';
    const stage = r.stage(i);
    const no = i + 1;
    const atNs = r.t[s]!;
    const k = KIND_NAMES[kind]!;
    const f = r.flowOf(i);
    // object literals of one shape (a spread costs several times the row's other work)
    if (kind === ROW_CREDITS || !f) {
      const dir = m & META_IN ? 'inbound' : 'outbound';
      return {
        no,
        atNs,
        host,
        kind: k,
        stage,
        src: host,
        dst: '',
        protocol: 'Credits',
        length: 0,
        info:
          m & META_RESTORED
            ? `Burst credits restored (${dir}): ${host} may burst again`
            : `Burst credits exhausted (${dir}): ${host} is held to its baseline bandwidth`,
      };
    }
    const src = f.flow.tuple.srcIp;
    const dst = f.flow.tuple.dstIp;
    const sum = this.summary(i, f);
    let info = sum.info;
    if (kind === ROW_DROP) {
      const n = r.n[s]!;
      info = `[Dropped at ${STAGE_LABEL[stage] ?? stage}: ${r.reason(i)}${n > 1 ? `, ${n} packets` : ''}] ${info}`;
    }
    return { no, atNs, host, kind: k, stage, src, dst, protocol: sum.protocol, length: sum.length, info };
  }

  /** Protocol, length and Info of a packet row, as Wireshark's packet list summarises it (stateless fields). */
  private summary(i: number, f: CaptureFlow): { protocol: string; length: number; info: string } {
    const src = this.source();
    const get = (name: string) => src.field(name).get[0]!(i);
    const hasF = (name: string) => src.field(name).has(i);
    const length = get('frame.len');
    const t = f.flow.tuple;
    if (f.proto !== 47 && get('ip.frag_offset') > 0) {
      const pn = f.proto === 6 ? 'TCP' : f.proto === 17 ? 'UDP' : f.proto === 1 ? 'ICMP' : String(f.proto);
      return {
        protocol: 'IPv4',
        length,
        info: `Fragmented IP protocol (proto=${pn} ${f.proto}, off=${get('ip.frag_offset')})`,
      };
    }
    if (f.proto === 6) {
      const flags = get('tcp.flags');
      const names: string[] = [];
      if (flags & 1) names.push('FIN');
      if (flags & 2) names.push('SYN');
      if (flags & 4) names.push('RST');
      if (flags & 8) names.push('PSH');
      if (flags & 16) names.push('ACK');
      let info = `${hasF('tcp.analysis.retransmission') ? '[TCP Retransmission] ' : ''}${t.srcPort} → ${t.dstPort} [${names.join(', ')}] Seq=${get('tcp.seq')}`;
      if (hasF('tcp.ack')) info += ` Ack=${get('tcp.ack')}`;
      const syn = (flags & 2) !== 0;
      const win = get('tcp.window_size_value');
      info += ` Win=${syn ? win : win << WSCALE} Len=${get('tcp.len')}`;
      if (syn) {
        const mtu = this.ring.mtus[this.ring.host(i)]!;
        info += ` MSS=${mtu - 40} SACK_PERM WS=${1 << WSCALE}`;
      }
      const sack = this.ring.sack.get(i);
      if (sack)
        for (let j = 0; j + 1 < sack.length; j += 2)
          info += ` SLE=${(1 + sack[j]!) >>> 0} SRE=${(1 + sack[j + 1]!) >>> 0}`;
      return { protocol: 'TCP', length, info };
    }
    if (f.proto === 17) {
      const dns = t.srcPort === 53 || t.dstPort === 53;
      return {
        protocol: dns ? 'DNS' : 'UDP',
        length,
        info: `${t.srcPort} → ${t.dstPort} Len=${get('udp.length') - 8}`,
      };
    }
    if (f.proto === 1) {
      const reply = get('icmp.type') === 0;
      const sq = this.ring.seq[this.ring.slotOf(i)]! & 0xffff;
      const id = this.icmpId(reply ? t.dstIp : t.srcIp);
      return {
        protocol: 'ICMP',
        length,
        info: `Echo (ping) ${reply ? 'reply  ' : 'request'}  id=0x${id.toString(16).padStart(4, '0')}, seq=${sq}/${((sq & 0xff) << 8) | (sq >> 8)}, ttl=64`,
      };
    }
    return { protocol: 'GRE', length, info: 'Encapsulated packet (GRE; the inner packet is not decoded)' };
  }

  /** The echo identifier tcpdump's mapper gives a requester (hash of its address and the seed). */
  private icmpId(requester: string): number {
    return (hashString(`icmpid|${requester}`) ^ this.lab.scenario.seed) & 0xffff;
  }

  // ------------------------------------------------------------------------------------ wire form

  /** A batch as the mapper wants it, rebuilt from row `i`. */
  private packetOf(i: number, f: CaptureFlow): Packet {
    const r = this.ring;
    const s = r.slotOf(i);
    const m = r.meta[s]!;
    return {
      flow: f.flow,
      count: r.n[s]!,
      sizeBytes: r.size[s]!,
      payloadBytes: r.payload[s]!,
      seq: r.seq[s]!,
      ack: r.ack[s]!,
      flags: (m >>> 16) & 0x1f,
      sack: r.sack.get(i) ?? null,
      window: r.window[s]!,
      tos: r.tos[s]!,
      sentAtNs: r.sentMs[s]! * 1e6 + (m & META_SENT_ON_MS ? 0 : 1),
      enqueuedAtNs: 0,
      txq: -1,
      mark: 0,
      inner: null,
      frag:
        m & META_FRAG
          ? { of: r.fragOf[s]!, last: (m & META_FRAG_LAST) !== 0, datagramBytes: 0, datagramPayloadBytes: 0 }
          : null,
      srd: null,
    };
  }

  /** What decides a row's wire fields in the mapper: its TCP connection, its flow, its ICMP pair. */
  private connOf(f: CaptureFlow): string {
    const t = f.flow.tuple;
    if (f.proto === 6) return `tcp|${f.stream}`;
    if (f.proto === 1) return `icmp|${[t.srcIp, t.dstIp].sort().join('|')}`;
    return `flow|${f.flow.id}`;
  }

  /** Row `i` as tcpdump on its instance would have captured it (a capture row), replaying its connection. */
  wireOf(i: number): WirePacket | null {
    const r = this.ring;
    const f = r.flowOf(i);
    const kind = r.kind(i);
    if (!f || (kind !== ROW_TX && kind !== ROW_RX)) return null;
    const host = r.host(i);
    if (f.proto !== 1) return this.wireFast(i, f, host);
    const conn = this.connOf(f);
    let rp = this.replay;
    if (!rp || rp.host !== host || rp.conn !== conn || rp.next > i + 1 || rp.next < r.oldest) {
      rp = { host, conn, next: r.oldest, mapper: new WireMapper(this.lab, r.mtus[host]!), last: null };
      this.replay = rp;
    }
    for (let j = rp.next; j <= i; j++) {
      const kj = r.kind(j);
      if ((kj !== ROW_TX && kj !== ROW_RX) || r.host(j) !== host) continue;
      const fj = r.flowOf(j)!;
      if (fj !== f && (fj.proto !== f.proto || this.connOf(fj) !== conn)) continue;
      rp.last = rp.mapper.mapOne(this.packetOf(j, fj), r.k[r.slotOf(j)]!, r.t[r.slotOf(j)]!, kj === ROW_TX);
    }
    rp.next = i + 1;
    return rp.last;
  }

  /**
   * A TCP/UDP/GRE row's wire form without a replay: the mapper's state for it is the count of its
   * flow's packets on this instance since the oldest row (IP ids) and the peer's last packet (TCP
   * timestamps' echo), both found by one scan of the columns.
   */
  private wireFast(i: number, f: CaptureFlow, host: number): WirePacket {
    const r = this.ring;
    const mask = r.t.length - 1;
    const me = r.fslot[i & mask]!;
    const t = f.flow.tuple;
    const rev = new Set<number>();
    if (f.proto === 6)
      r.flows.forEach((g, k) => {
        const u = g.flow.tuple;
        if (
          u.proto === 'tcp' &&
          u.srcIp === t.dstIp &&
          u.dstIp === t.srcIp &&
          u.srcPort === t.dstPort &&
          u.dstPort === t.srcPort
        )
          rev.add(k);
      });
    const { meta, fslot } = r;
    let sent = 0;
    let lastRev = -1;
    for (let j = r.oldest; j < i; j++) {
      const s = j & mask;
      const m = meta[s]!;
      if ((m & 3) > ROW_RX || ((m >>> 2) & 0x1f) !== host) continue;
      const g = fslot[s]!;
      if (g === me) sent++;
      else if (rev.size > 0 && rev.has(g)) lastRev = j;
    }
    const mapper = new WireMapper(this.lab, r.mtus[host]!);
    if (lastRev >= 0) {
      const s = lastRev & mask;
      mapper.mapOne(this.packetOf(lastRev, r.flows[fslot[s]!]!), r.k[s]!, r.t[s]!, (meta[s]! & 3) === ROW_TX);
    }
    mapper.skipIpIds(f.flow, sent);
    const s = i & mask;
    return mapper.mapOne(this.packetOf(i, f), r.k[s]!, r.t[s]!, (meta[s]! & 3) === ROW_TX);
  }

  // ------------------------------------------------------------------------------------ details

  details(no: number): PacketDetails | null {
    const r = this.ring;
    const i = no - 1;
    if (!(i >= r.oldest && i < r.count)) return null;
    const row = this.row(i);
    const s = r.slotOf(i);
    const m = r.meta[s]!;
    const kind = m & 3;
    const f = r.flowOf(i);
    const layers: PacketDetails['layers'] = [];
    const lab = {
      title: 'ec2-netlab',
      fields: [
        { label: 'Instance', value: row.host, field: 'host' },
        { label: 'Seen at', value: `${STAGE_LABEL[row.stage] ?? row.stage} (${row.stage})`, field: 'stage' },
        { label: 'Simulated time', value: `${(row.atNs / 1e9).toFixed(9)} s` },
      ] as Array<{ label: string; value: string; field?: string }>,
    };
    if (kind === ROW_CREDITS || !f) {
      lab.fields.push(
        { label: 'Event', value: m & META_RESTORED ? 'restored' : 'exhausted', field: 'credits.event' },
        { label: 'Direction', value: m & META_IN ? 'in' : 'out', field: 'credits.direction' },
        {
          label: 'Meaning',
          value:
            m & META_RESTORED
              ? 'the burst-credit account holds credits again: the instance may send above its baseline'
              : 'the burst-credit account is empty: the instance is held to its baseline bandwidth',
        },
      );
      return {
        no,
        atNs: row.atNs,
        host: row.host,
        kind: row.kind,
        layers: this.withFilters([lab], i),
        bytes: null,
        ref: null,
      };
    }
    const k = r.k[s]!;
    const tcp = f.proto === 6;
    const pseq = tcp ? r.seq[s]! + k * r.payload[s]! : r.seq[s]! + (m & META_FRAG ? 0 : k);
    const ref = { flow: f.flow.id, seq: pseq, count: 1 };
    // a capture row: the mapper's packet; a drop: the packet as the model holds it (no capture state)
    const w =
      this.wireOf(i) ??
      new WireMapper(this.lab, r.mtus[r.host(i)]!).mapOne(this.packetOf(i, f), k, row.atNs, true);
    const captured = kind !== ROW_DROP;
    const len = w.ipLen + 14;
    const hdr = encodeFrame(w, EXPORT_SNAPLEN);
    layers.push({
      title: captured
        ? `Frame ${no}: ${len} bytes on wire (${len * 8} bits), ${Math.min(len, EXPORT_SNAPLEN)} bytes captured on interface eth${r.devOf(i)} of ${row.host}`
        : `Frame ${no}: ${len} bytes, dropped before any capture point (not in a pcap)`,
      fields: [
        { label: 'Frame Number', value: String(no), field: 'frame.number' },
        {
          label: 'Time since t = 0',
          value: `${(row.atNs / 1e9).toFixed(9)} seconds`,
          field: 'frame.time_relative',
        },
        { label: 'Arrival Time', value: wallText(w.sec, w.usec) },
        { label: 'Frame Length', value: `${len} bytes (${len * 8} bits)`, field: 'frame.len' },
        ...(captured
          ? [{ label: 'Interface name', value: `eth${r.devOf(i)}`, field: 'frame.interface_name' }]
          : []),
        ...(captured
          ? [
              {
                label: 'Capture point',
                value:
                  kind === ROW_TX
                    ? 'sent: entering the ENA TX ring, after the qdisc (where tcpdump sees it)'
                    : 'received: NAPI taking it off the RX ring, before the socket (where tcpdump sees it)',
                field: 'dir',
              },
            ]
          : []),
      ],
    });
    layers.push({
      title: `Ethernet II, Src: ${w.srcMac}, Dst: ${w.dstMac}`,
      fields: [
        { label: 'Destination', value: w.dstMac, field: 'eth.dst' },
        { label: 'Source', value: w.srcMac, field: 'eth.src' },
        { label: 'Type', value: 'IPv4 (0x0800)' },
      ],
    });
    const pname = f.proto === 6 ? 'TCP' : f.proto === 17 ? 'UDP' : f.proto === 1 ? 'ICMP' : 'GRE';
    const ipFlags = w.df ? 0x2 : w.mf ? 0x1 : 0;
    layers.push({
      title: `Internet Protocol Version 4, Src: ${w.srcIp}, Dst: ${w.dstIp}`,
      fields: [
        { label: 'Version', value: '4' },
        { label: 'Header Length', value: '20 bytes (5)' },
        { label: 'Differentiated Services Field', value: `0x${hex(w.tos, 2)}`, field: 'ip.dsfield' },
        { label: 'Total Length', value: String(w.ipLen), field: 'ip.len' },
        ...(captured ? [{ label: 'Identification', value: `0x${hex(w.ipId, 4)} (${w.ipId})` }] : []),
        {
          label: 'Flags',
          value: `0x${ipFlags}${w.df ? ", Don't fragment" : ''}${w.mf ? ', More fragments' : ''}`,
          field: 'ip.flags.df',
        },
        { label: 'Fragment Offset', value: String(w.fragOffset * 8), field: 'ip.frag_offset' },
        { label: 'Time to Live', value: String(w.ttl) },
        { label: 'Protocol', value: `${pname} (${f.proto})`, field: 'ip.proto' },
        { label: 'Source Address', value: w.srcIp, field: 'ip.src' },
        { label: 'Destination Address', value: w.dstIp, field: 'ip.dst' },
      ],
    });
    if (w.fragOffset === 0) {
      if (f.proto === 6) {
        const src = this.source();
        const rel = (name: string) => (src.field(name).has(i) ? src.field(name).get[0]!(i) : null);
        layers.push(tcpLayer(w, f, captured, rel('tcp.seq')!, rel('tcp.ack')));
      } else if (f.proto === 17)
        layers.push({
          title: `User Datagram Protocol, Src Port: ${w.sport}, Dst Port: ${w.dport}`,
          fields: [
            { label: 'Source Port', value: String(w.sport), field: 'udp.srcport' },
            { label: 'Destination Port', value: String(w.dport), field: 'udp.dstport' },
            { label: 'Length', value: String(w.ipLen - 20), field: 'udp.length' },
            { label: 'UDP payload', value: `${w.ipLen - 28} bytes (zeros: the lab models no payload)` },
          ],
        });
      else if (f.proto === 1)
        layers.push({
          title: 'Internet Control Message Protocol',
          fields: [
            {
              label: 'Type',
              value: w.icmpType === 8 ? '8 (Echo (ping) request)' : '0 (Echo (ping) reply)',
              field: 'icmp.type',
            },
            { label: 'Code', value: '0' },
            { label: 'Identifier (BE)', value: `${w.icmpId} (0x${hex(w.icmpId, 4)})` },
            { label: 'Sequence Number (BE)', value: `${w.icmpSeq} (0x${hex(w.icmpSeq, 4)})` },
          ],
        });
    }
    if (kind === ROW_DROP) {
      const reason = r.reason(i);
      lab.fields.push(
        {
          label: 'Dropped',
          value: `at ${STAGE_LABEL[row.stage] ?? row.stage} on ${row.host}`,
          field: 'drop',
        },
        { label: 'Reason', value: reason, field: 'drop.reason' },
        { label: 'Packets dropped', value: String(r.n[s]!), field: 'drop.count' },
      );
    } else lab.fields.push(...batchFields(this.lab, r, i, f));
    lab.fields.push({ label: 'Flow', value: `${f.flow.id} (${f.flow.tuple.proto})` });
    if (tcp) lab.fields.push({ label: 'TCP stream', value: String(f.stream), field: 'tcp.stream' });
    layers.push(lab);
    return {
      no,
      atNs: row.atNs,
      host: row.host,
      kind: row.kind,
      layers: this.withFilters(layers, i),
      bytes: hdr,
      ref,
    };
  }

  /**
   * Each field that names a filter field gets the filter expression that selects this row's value
   * (Wireshark's "Apply as Filter"), written from the row's own value as the filter reads it.
   */
  private withFilters(layers: PacketDetails['layers'], i: number): PacketDetails['layers'] {
    const src = this.source();
    for (const l of layers)
      for (const f of l.fields) {
        const def = f.field ? DISPLAY_FIELDS.find((d) => d.name === f.field) : undefined;
        if (!def || def.type === 'float') continue;
        const reader = src.field(def.name);
        if (!reader.has(i)) continue;
        if (def.type === 'protocol') {
          f.filter = def.name;
          continue;
        }
        const v = reader.get[0]!(i);
        const text =
          def.type === 'ipv4'
            ? [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.')
            : def.type === 'mac'
              ? Array.from({ length: 6 }, (_, k) => Math.floor(v / 256 ** (5 - k)) % 256)
                  .map((b) => b.toString(16).padStart(2, '0'))
                  .join(':')
              : def.type === 'string'
                ? JSON.stringify(reader.strings?.[v] ?? '')
                : String(v);
        f.filter = `${def.name} == ${text}`;
      }
    return layers;
  }

  // ------------------------------------------------------------------------------------ exports

  export(sel: PacketSelection, format: 'pcap' | 'csv'): PacketExport {
    let rows: number[];
    try {
      rows = this.all(sel);
    } catch (e) {
      if (e instanceof FilterError) return { ok: false, error: e.message };
      throw e;
    }
    if (format === 'csv') {
      // every field quoted, as Wireshark's CSV export writes them; encoded a block of rows at a time
      const q = (v: string) => (v.includes('"') ? `"${v.replace(/"/g, '""')}"` : `"${v}"`);
      const enc = new TextEncoder();
      const parts: Uint8Array[] = [
        enc.encode('"No.","Time","Source","Destination","Protocol","Length","Info","Host","Seen at"\n'),
      ];
      let block = '';
      for (let j = 0; j < rows.length; j++) {
        const r = this.row(rows[j]!);
        const seen = r.kind === 'out' || r.kind === 'in' ? r.kind : r.stage;
        block += `"${r.no}","${(r.atNs / 1e9).toFixed(9)}",${q(r.src)},${q(r.dst)},"${r.protocol}","${r.length}",${q(r.info)},${q(r.host)},"${seen}"\n`;
        if ((j & 8191) === 8191) {
          parts.push(enc.encode(block));
          block = '';
        }
      }
      parts.push(enc.encode(block));
      const data = new Uint8Array(parts.reduce((a, b) => a + b.length, 0));
      let o = 0;
      for (const b of parts) {
        data.set(b, o);
        o += b.length;
      }
      return { ok: true, data, rows: rows.length, note: '' };
    }
    // every capture row from the oldest is mapped (the mapper's state is per connection and
    // counts every packet), the selected ones written
    const r = this.ring;
    const writer = new PcapWriter(EXPORT_SNAPLEN);
    const mappers = r.hosts.map((_, h) => new WireMapper(this.lab, r.mtus[h]!));
    let written = 0;
    let events = 0;
    let full = false;
    let next = 0;
    const last = rows.length > 0 ? rows[rows.length - 1]! : -1;
    // only the connections of the rows written need their state followed (a sparse filter maps little)
    const relevant = new Uint8Array(r.flows.length);
    const conns = new Set<string>();
    for (const i of rows) {
      const f = r.flowOf(i);
      if (f) conns.add(this.connOf(f));
    }
    r.flows.forEach((f, k) => {
      if (conns.has(this.connOf(f))) relevant[k] = 1;
    });
    for (let i = r.oldest; i <= last && !full; i++) {
      const kind = r.kind(i);
      const want = rows[next] === i;
      if (want) next++;
      if (kind !== ROW_TX && kind !== ROW_RX) {
        if (want) events++;
        continue;
      }
      const s = r.slotOf(i);
      if (!relevant[r.fslot[s]!]) continue;
      const f = r.flowOf(i)!;
      const w = mappers[r.host(i)]!.mapOne(this.packetOf(i, f), r.k[s]!, r.t[s]!, kind === ROW_TX);
      if (!want) continue;
      writer.add(w);
      written++;
      if (writer.bytes >= MAX_EXPORT_BYTES) full = true;
    }
    const notes: string[] = [];
    if (events > 0)
      notes.push(
        `${events} drop and credit row${events === 1 ? ' is' : 's are'} not in the pcap (no packet reached a capture point)`,
      );
    if (full)
      notes.push(
        `the file stopped at ${MAX_EXPORT_BYTES / 1048576} MiB (${written} packets): narrow the filter or the window`,
      );
    return { ok: true, data: writer.file(), rows: written, note: notes.join('; ') };
  }
}

/** The TCP flags byte Linux puts on the wire for the model's flags (tcpdump's WireMapper). */
/**
 * What the row's batch means for it: which of the batch's packets it is, how its time was spread
 * from the batch's instant, and (a batch of ACKs) where its ACK number comes from. The model moves
 * a batch of `n` packets as one (docs/design.md "Batching"); the capture shows each packet.
 */
function batchFields(
  lab: Lab,
  r: CaptureRing,
  i: number,
  f: CaptureFlow,
): Array<{ label: string; value: string }> {
  const s = r.slotOf(i);
  const n = r.n[s]!;
  const k = r.k[s]!;
  if (n <= 1) return [{ label: 'Batch', value: 'a batch of one packet (docs/design.md "Batching")' }];
  const out = [
    {
      label: 'Batch',
      value: `packet ${k + 1} of ${n} that the model moves together as one batch (docs/design.md "Batching")`,
    },
  ];
  const inst = lab.instances.get(r.hosts[r.host(i)]!);
  const gap = inst ? batchGapNs(inst, r.size[s]!) : 0;
  out.push({
    label: 'Batch timing',
    value:
      gap > 0
        ? `the batch's packets are back to back: each ${fmtNs(gap)} after the one before (${r.size[s]! + 38} bytes on the wire at the host link's ${fmtGbps(inst!.nitro.linkBps)}), this one ${fmtNs(Math.round(k * gap))} after the first`
        : "the batch's packets share its instant: the host has no link rate of its own to space them by",
  });
  if (f.proto === 6 && r.payload[s]! === 0 && (r.modelFlags(i) & TCP_FLAG_ACK) !== 0)
    out.push({
      label: 'ACK number',
      value:
        "the model keeps one ACK number for the batch (its last ACK's); the ones before step up to it in whole segments from the ACK this capture point saw before",
    });
  return out;
}

function fmtNs(ns: number): string {
  return ns >= 1000 ? `${(ns / 1000).toFixed(3)} µs` : `${ns.toFixed(ns === Math.round(ns) ? 0 : 1)} ns`;
}

function fmtGbps(bps: number): string {
  const g = bps / 1e9;
  return `${g === Math.round(g) ? g : g.toFixed(1)} Gb/s`;
}

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

function tcpLayer(
  w: WirePacket,
  f: CaptureFlow,
  captured: boolean,
  relSeq: number,
  relAck: number | null,
): PacketDetails['layers'][number] {
  const optLen = w.options.reduce((a, o) => a + optionBytes(o), 0);
  const hlen = 20 + Math.ceil(optLen / 4) * 4;
  const len = w.ipLen - 20 - hlen;
  const syn = (w.flags & 2) !== 0;
  const names: string[] = [];
  if (w.flags & 1) names.push('FIN');
  if (w.flags & 2) names.push('SYN');
  if (w.flags & 4) names.push('RST');
  if (w.flags & 8) names.push('PSH');
  if (w.flags & 16) names.push('ACK');
  const fields: Array<{ label: string; value: string; field?: string }> = [
    { label: 'Source Port', value: String(w.sport), field: 'tcp.srcport' },
    { label: 'Destination Port', value: String(w.dport), field: 'tcp.dstport' },
    { label: '[Stream index]', value: String(f.stream), field: 'tcp.stream' },
    { label: '[TCP Segment Len]', value: String(len), field: 'tcp.len' },
  ];
  fields.push({
    label: 'Sequence Number',
    value: `${relSeq}    (relative sequence number)`,
    field: 'tcp.seq',
  });
  if (captured) fields.push({ label: 'Sequence Number (raw)', value: String(w.seq >>> 0) });
  const next = (relSeq + len + (syn || w.flags & 1 ? 1 : 0)) >>> 0;
  fields.push({ label: '[Next Sequence Number]', value: `${next}    (relative sequence number)` });
  if (relAck !== null) {
    fields.push({
      label: 'Acknowledgment Number',
      value: `${relAck}    (relative ack number)`,
      field: 'tcp.ack',
    });
    if (captured) fields.push({ label: 'Acknowledgment number (raw)', value: String(w.ack >>> 0) });
  }
  fields.push(
    { label: 'Header Length', value: `${hlen} bytes (${hlen / 4})` },
    { label: 'Flags', value: `0x${hex(w.flags, 3)} (${names.join(', ')})`, field: 'tcp.flags' },
    { label: 'Window', value: String(w.win), field: 'tcp.window_size_value' },
    {
      label: '[Calculated window size]',
      value: syn ? `${w.win} (a SYN's window is not scaled)` : `${w.win << WSCALE} (window scale 7: × 128)`,
    },
  );
  if (captured && w.tcpSum !== undefined)
    fields.push({
      label: 'Checksum',
      value: `0x${hex(w.tcpSum, 4)} (the pseudo-header sum: the NIC fills the rest on send)`,
    });
  if (captured && w.options.length > 0)
    fields.push({ label: `Options (${hlen - 20} bytes)`, value: w.options.map(optionText).join(', ') });
  return {
    title: `Transmission Control Protocol, Src Port: ${w.sport}, Dst Port: ${w.dport}, Seq: ${relSeq}${relAck !== null ? `, Ack: ${relAck}` : ''}, Len: ${len}`,
    fields,
  };
}

function optionBytes(o: TcpOption): number {
  switch (o.kind) {
    case 'nop':
      return 1;
    case 'mss':
      return 4;
    case 'sackOK':
      return 2;
    case 'ts':
      return 10;
    case 'wscale':
      return 3;
    case 'sack':
      return 2 + 8 * o.blocks.length;
  }
}

function optionText(o: TcpOption): string {
  switch (o.kind) {
    case 'nop':
      return 'No-Operation (NOP)';
    case 'mss':
      return `Maximum segment size: ${o.v} bytes`;
    case 'sackOK':
      return 'SACK permitted';
    case 'ts':
      return `Timestamps: TSval ${o.val}, TSecr ${o.ecr}`;
    case 'wscale':
      return `Window scale: ${o.v} (multiply by ${1 << o.v})`;
    case 'sack':
      return `SACK: ${o.blocks.map(([l, r]) => `${l >>> 0}-${r >>> 0}`).join(' ')}`;
  }
}

const hex = (n: number, w: number) => n.toString(16).padStart(w, '0');

function wallText(sec: number, usec: number): string {
  const f = utcFields(sec);
  const p2 = (x: number) => String(x).padStart(2, '0');
  return `${f.year}-${p2(f.month)}-${p2(f.day)} ${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)}.${String(usec).padStart(6, '0')} UTC`;
}
