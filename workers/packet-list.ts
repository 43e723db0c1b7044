/**
 * The packet list's queries over a run's capture (src/engine/view/capture-ring.ts): the rows a
 * display filter selects for an instance and a time window, kept per query and brought up to date
 * incrementally (new rows scanned, evicted or expired ones let go), the rows on screen as
 * Wireshark's columns, one row's layers and fields (Wireshark's packet details), and exports (pcap
 * through tcpdump's writer, CSV as Wireshark's "Export Packet Dissections"): the fields in
 * packet-fields.ts, the details in packet-details.ts, the exports in packet-export.ts.
 * Wire fields Linux sets and the model does not carry (ISN, TS clock, IP id) come from tcpdump's
 * WireMapper replayed over the rows in capture order from the oldest held, so a row reads as a
 * `tcpdump -w` file started at that instant reads: an export of everything an instance sent and
 * received since t = 0 is byte for byte `tcpdump -i eth0 -s 128 -w` on it (tests/ui/packet-list.test.ts).
 */
import {
  type CaptureFlow,
  type CaptureRing,
  hashString,
  type Lab,
  META_FRAG,
  META_FRAG_LAST,
  META_IN,
  META_RESTORED,
  META_SENT_ON_MS,
  type Packet,
  ROW_CREDITS,
  ROW_DROP,
  ROW_RX,
  ROW_TX,
  WireMapper,
  type WirePacket,
} from '../src/engine';
import {
  compileFilter,
  FilterError,
  type FilterNode,
  type FilterSource,
  parseDisplayFilter,
} from '../src/lib/display-filter';
import type {
  PacketDetails,
  PacketExport,
  PacketListAnswer,
  PacketListRequest,
  PacketRow,
  PacketSelection,
  PacketWindow,
} from '../src/protocol/sim-api';
import { packetDetails, STAGE_LABEL } from './packet-details';
import { packetExport } from './packet-export';
import { captureFields, tcpFlagNames, WSCALE } from './packet-fields';

/** Rows one answer carries at most. */
const MAX_PAGE = 500;
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
    readonly lab: Lab,
  ) {}

  // ------------------------------------------------------------------------------------ fields

  private cachedSource: { t: Float64Array; src: FilterSource } | null = null;

  /** The row predicate's fields over the ring's current columns (absolute row numbers in). */
  source(): FilterSource {
    const c = this.cachedSource;
    if (c && c.t === this.ring.t) return c.src;
    const src = captureFields(this.ring, this.lab, this.macN);
    this.cachedSource = { t: this.ring.t, src };
    return src;
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
      const names = tcpFlagNames(flags);
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
  packetOf(i: number, f: CaptureFlow): Packet {
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
  connOf(f: CaptureFlow): string {
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
    return packetDetails(this, no);
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
    return packetExport(this, rows, format);
  }
}
