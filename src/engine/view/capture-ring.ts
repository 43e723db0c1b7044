/**
 * The packet list's capture: every packet each instance sends and receives, at tcpdump's capture
 * points (TX entering the ENA TX ring, RX leaving the RX ring: shell/commands/tcpdump.ts), one row
 * per wire packet, plus a row per drop (stage, reason, packets) and per burst-credit event. Rows
 * are columns of typed arrays in a ring of CAPTURE_CAP rows: past it the oldest rows go (the
 * list says so, `evicted`). Rows are numbered from 0 since t = 0 (the list's No. is that + 1).
 *
 * Observational only (a probe and trace listener), deterministic: a run's rows are a function of
 * the scenario and the commands. The model's fields are kept (sequence numbers mod 2^32, as on
 * the wire); the wire fields Linux would set (ISN, TS clock, IP id) are derived when a row is
 * shown or exported, by tcpdump's own WireMapper (workers/packet-list.ts).
 */
import type { ProbeSink, ProbeStage } from '../model/probe';
import { PROBE_STAGE_INDEX, PROBE_STAGES } from '../model/probe';
import type { Lab } from '../lab/lab';
import type { DropReason } from '../model/drop-reasons';
import type { Flow, Packet } from '../model/packet';

/**
 * Rows kept at most: 2^20 (1,048,576, about 45 MB of columns when full; a power of two so a row's
 * slot is its number masked). Each run of the timeline keeps its own (see docs/design.md "The packet list").
 */
export const CAPTURE_CAP = 1 << 20;
const FIRST_SIZE = 4096;

export const ROW_TX = 0;
export const ROW_RX = 1;
export const ROW_DROP = 2;
export const ROW_CREDITS = 3;

// meta bits
const KIND = 0x3;
const HOST_SHIFT = 2; // 5 bits
const STAGE_SHIFT = 7; // 3 bits
const REASON_SHIFT = 10; // 6 bits
const FLAGS_SHIFT = 16; // 5 bits: the model's TCP flags (packet.ts)
export const META_LAST = 1 << 21; // the last packet of its batch (Linux's PSH on a write's end)
export const META_FRAG = 1 << 22;
export const META_FRAG_LAST = 1 << 23;
export const META_ICMP_REPLY = 1 << 24;
const SACK_SHIFT = 25; // 2 bits: SACK blocks on the wire (0-3)
export const META_RESTORED = 1 << 27; // credits: restored (else exhausted)
export const META_IN = 1 << 28; // credits: the inbound account (else outbound)
/** The batch left its socket on a whole millisecond (sentMs then gives its time to the ns, for the TS clock). */
export const META_SENT_ON_MS = 1 << 29;

/** One flow as the list needs it: its tuple as numbers, its TCP stream index. */
export interface CaptureFlow {
  flow: Flow;
  /** 6 TCP, 17 UDP, 1 ICMP, 47 GRE */
  proto: number;
  srcN: number;
  dstN: number;
  /** TCP connection index, both directions (Wireshark's tcp.stream), else -1. */
  stream: number;
}

export class CaptureRing implements ProbeSink {
  /** Rows recorded since t = 0 (the next row's number). */
  count = 0;
  readonly cap: number;
  t = new Float64Array(0);
  meta = new Uint32Array(0);
  /** Index into `flows` (-1: no packet, a credit event). */
  fslot = new Int32Array(0);
  /** IP total length and L4 payload of one packet. */
  size = new Uint16Array(0);
  payload = new Uint16Array(0);
  /** The batch's first sequence number (TCP bytes / UDP datagram) and its ACK, mod 2^32. */
  seq = new Uint32Array(0);
  ack = new Uint32Array(0);
  window = new Uint32Array(0);
  /** When the batch left the sender's socket, whole ms (the receiver's view of the sender's TS clock; META_SENT_ON_MS). */
  sentMs = new Uint32Array(0);
  tos = new Uint8Array(0);
  /** Index in its batch (capture rows); packets taken (drops). */
  k = new Uint16Array(0);
  n = new Uint32Array(0);
  /** Fragments the datagram was cut into (fragment rows). */
  fragOf = new Uint16Array(0);
  /** SACK blocks of rows that carry them (by row number; forgotten with the row). */
  readonly sack = new Map<number, number[]>();
  readonly flows: CaptureFlow[] = [];
  readonly reasons: string[] = [];
  readonly hosts: string[];
  /** Each instance's MTU (fragment offsets, the SYN's MSS). */
  readonly mtus: number[];
  private readonly flowIndex = new Map<number, number>();
  private readonly streams = new Map<string, number>();
  /** ICMP: the first direction seen of an address pair, per instance (echo request). */
  private readonly icmpFirst = new Map<string, number>();
  private detachProbe: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly lab: Lab,
    cap = CAPTURE_CAP,
  ) {
    if (cap < FIRST_SIZE || (cap & (cap - 1)) !== 0)
      throw new RangeError(`capture cap ${cap}: a power of two ≥ ${FIRST_SIZE}`);
    this.cap = cap;
    this.hosts = [...lab.instances.keys()];
    this.mtus = [...lab.instances.values()].map((i) => i.host.eth0.link().mtu);
  }

  attach(): this {
    this.detachProbe = this.lab.probe.attach(this);
    this.unsubscribe = this.lab.subscribe((e) => {
      if (e.type !== 'CreditsExhausted' && e.type !== 'CreditsRestored') return;
      const h = this.hosts.indexOf(e.host);
      const s = this.slot();
      this.t[s] = e.atNs;
      this.meta[s] =
        ROW_CREDITS |
        (h << HOST_SHIFT) |
        (PROBE_STAGE_INDEX[e.direction === 'out' ? 'nitro_egress' : 'nitro_ingress'] << STAGE_SHIFT) |
        (e.type === 'CreditsRestored' ? META_RESTORED : 0) |
        (e.direction === 'in' ? META_IN : 0);
      this.fslot[s] = -1;
      this.size[s] = 0;
      this.payload[s] = 0;
      this.n[s] = 0;
    });
    return this;
  }

  detach(): void {
    this.detachProbe?.();
    this.unsubscribe?.();
    this.detachProbe = this.unsubscribe = null;
  }

  /** The oldest row still held. */
  get oldest(): number {
    return Math.max(0, this.count - this.cap);
  }

  /** Rows dropped from the ring to make room. */
  get evicted(): number {
    return this.oldest;
  }

  /** The slot of row `i` (held rows only). */
  slotOf(i: number): number {
    return i & (this.t.length - 1);
  }

  kind(i: number): number {
    return this.meta[this.slotOf(i)]! & KIND;
  }
  host(i: number): number {
    return (this.meta[this.slotOf(i)]! >>> HOST_SHIFT) & 0x1f;
  }
  stage(i: number): ProbeStage {
    return PROBE_STAGES[(this.meta[this.slotOf(i)]! >>> STAGE_SHIFT) & 0x7]!;
  }
  reason(i: number): string {
    return this.reasons[(this.meta[this.slotOf(i)]! >>> REASON_SHIFT) & 0x3f] ?? '';
  }
  /** The model's TCP flags (packet.ts TCP_FLAG_*). */
  modelFlags(i: number): number {
    return (this.meta[this.slotOf(i)]! >>> FLAGS_SHIFT) & 0x1f;
  }
  sackBlocks(i: number): number {
    return (this.meta[this.slotOf(i)]! >>> SACK_SHIFT) & 0x3;
  }
  flowOf(i: number): CaptureFlow | null {
    const f = this.fslot[this.slotOf(i)]!;
    return f >= 0 ? this.flows[f]! : null;
  }

  // ------------------------------------------------------------------------------------ recording

  /** A slot for the next row (growing the columns until the cap, then reusing the oldest). */
  private slot(): number {
    const i = this.count++;
    if (i >= this.t.length && this.t.length < this.cap) this.grow();
    if (i >= this.cap) this.sack.delete(i - this.cap);
    return i & (this.t.length - 1);
  }

  private grow(): void {
    const len = Math.min(this.cap, Math.max(FIRST_SIZE, this.t.length * 2));
    const g = <T extends Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(len);
      b.set(a);
      return b;
    };
    this.t = g(this.t, (n) => new Float64Array(n));
    this.meta = g(this.meta, (n) => new Uint32Array(n));
    this.fslot = g(this.fslot, (n) => new Int32Array(n));
    this.size = g(this.size, (n) => new Uint16Array(n));
    this.payload = g(this.payload, (n) => new Uint16Array(n));
    this.seq = g(this.seq, (n) => new Uint32Array(n));
    this.ack = g(this.ack, (n) => new Uint32Array(n));
    this.window = g(this.window, (n) => new Uint32Array(n));
    this.sentMs = g(this.sentMs, (n) => new Uint32Array(n));
    this.tos = g(this.tos, (n) => new Uint8Array(n));
    this.k = g(this.k, (n) => new Uint16Array(n));
    this.n = g(this.n, (n) => new Uint32Array(n));
    this.fragOf = g(this.fragOf, (n) => new Uint16Array(n));
  }

  private lastFlow: Flow | null = null;
  private lastSlot = -1;
  private flowSlot(f: Flow): number {
    if (f === this.lastFlow) return this.lastSlot;
    let s = this.flowIndex.get(f.id);
    if (s === undefined) {
      const t = f.tuple;
      const proto = t.proto === 'tcp' ? 6 : t.proto === 'udp' ? 17 : t.proto === 'icmp' ? 1 : 47;
      let stream = -1;
      if (proto === 6) {
        const a = `${t.srcIp}:${t.srcPort}`;
        const b = `${t.dstIp}:${t.dstPort}`;
        const key = a < b ? `${a}|${b}` : `${b}|${a}`;
        stream = this.streams.get(key) ?? this.streams.size;
        this.streams.set(key, stream);
      }
      s = this.flows.length;
      this.flows.push({ flow: f, proto, srcN: ipNum(t.srcIp), dstN: ipNum(t.dstIp), stream });
      this.flowIndex.set(f.id, s);
    }
    this.lastFlow = f;
    this.lastSlot = s;
    return s;
  }

  /** One row of packet `p` (the k-th of its batch); returns its slot. */
  private packetRow(
    atNs: number,
    kind: number,
    host: number,
    stage: ProbeStage,
    p: Packet,
    k: number,
  ): number {
    const s = this.slot();
    const fs = this.flowSlot(p.flow);
    let m =
      kind |
      (host << HOST_SHIFT) |
      (PROBE_STAGE_INDEX[stage] << STAGE_SHIFT) |
      ((p.flags & 0x1f) << FLAGS_SHIFT) |
      (k === p.count - 1 ? META_LAST : 0) |
      (p.sentAtNs % 1e6 === 0 ? META_SENT_ON_MS : 0);
    const fr = p.frag;
    if (fr) {
      m |= META_FRAG | (fr.last ? META_FRAG_LAST : 0);
      this.fragOf[s] = fr.of;
    }
    const proto = this.flows[fs]!.proto;
    if (proto === 1) {
      const t = p.flow.tuple;
      const key = `${host}|${t.srcIp < t.dstIp ? `${t.srcIp}|${t.dstIp}` : `${t.dstIp}|${t.srcIp}`}`;
      let first = this.icmpFirst.get(key);
      if (first === undefined) {
        first = this.flows[fs]!.srcN;
        this.icmpFirst.set(key, first);
      }
      if (first !== this.flows[fs]!.srcN) m |= META_ICMP_REPLY;
    }
    if (proto === 6 && k === 0 && p.sack && p.sack.length > 1) {
      const blocks = Math.min(3, p.sack.length >> 1);
      m |= blocks << SACK_SHIFT;
      this.sack.set(this.count - 1, p.sack.slice(0, 2 * blocks));
    }
    this.t[s] = atNs;
    this.meta[s] = m;
    this.fslot[s] = fs;
    this.size[s] = p.sizeBytes;
    this.payload[s] = p.payloadBytes;
    this.seq[s] = p.seq >>> 0;
    this.ack[s] = p.ack >>> 0;
    this.window[s] = p.window;
    this.sentMs[s] = Math.floor(p.sentAtNs / 1e6);
    this.tos[s] = p.tos;
    this.k[s] = Math.min(k, 0xffff);
    this.n[s] = p.count;
    return s;
  }

  /**
   * The rows of batch `p`, one per wire packet: what packetRow writes for k = 0 … count − 1, in
   * bulk (the rows of a batch differ only in k, the last one's META_LAST and the first one's SACK
   * blocks; each column of a run of contiguous slots takes its value with one fill). On every
   * capture point's probe call, so the cost of a row is a few stores, not a call.
   */
  private batchRows(atNs: number, kind: number, host: number, stage: ProbeStage, p: Packet): void {
    const n = p.count;
    if (n <= 0) return;
    const fs = this.flowSlot(p.flow);
    let m =
      kind |
      (host << HOST_SHIFT) |
      (PROBE_STAGE_INDEX[stage] << STAGE_SHIFT) |
      ((p.flags & 0x1f) << FLAGS_SHIFT) |
      (p.sentAtNs % 1e6 === 0 ? META_SENT_ON_MS : 0);
    const fr = p.frag;
    if (fr) m |= META_FRAG | (fr.last ? META_FRAG_LAST : 0);
    const proto = this.flows[fs]!.proto;
    if (proto === 1) {
      const t = p.flow.tuple;
      const key = `${host}|${t.srcIp < t.dstIp ? `${t.srcIp}|${t.dstIp}` : `${t.dstIp}|${t.srcIp}`}`;
      let first = this.icmpFirst.get(key);
      if (first === undefined) {
        first = this.flows[fs]!.srcN;
        this.icmpFirst.set(key, first);
      }
      if (first !== this.flows[fs]!.srcN) m |= META_ICMP_REPLY;
    }
    // the rows' numbers: room first (as slot() does row by row), the rows let go forget their SACK blocks
    const first = this.count;
    this.count += n;
    while (first + n > this.t.length && this.t.length < this.cap) this.grow();
    if (this.sack.size > 0 && first + n > this.cap)
      for (let i = Math.max(first, this.cap); i < first + n; i++) this.sack.delete(i - this.cap);
    let m0 = m;
    if (proto === 6 && p.sack && p.sack.length > 1) {
      const blocks = Math.min(3, p.sack.length >> 1);
      m0 |= blocks << SACK_SHIFT;
      this.sack.set(first, p.sack.slice(0, 2 * blocks));
    }
    const size = p.sizeBytes;
    const payload = p.payloadBytes;
    const seq = p.seq >>> 0;
    const ack = p.ack >>> 0;
    const win = p.window;
    const sentMs = Math.floor(p.sentAtNs / 1e6);
    const tos = p.tos;
    const mask = this.t.length - 1;
    for (let k = 0; k < n; ) {
      const s = (first + k) & mask;
      const e = s + Math.min(n - k, mask + 1 - s);
      this.t.fill(atNs, s, e);
      this.meta.fill(m, s, e);
      this.fslot.fill(fs, s, e);
      this.size.fill(size, s, e);
      this.payload.fill(payload, s, e);
      this.seq.fill(seq, s, e);
      this.ack.fill(ack, s, e);
      this.window.fill(win, s, e);
      this.sentMs.fill(sentMs, s, e);
      this.tos.fill(tos, s, e);
      this.n.fill(n, s, e);
      if (fr) this.fragOf.fill(fr.of, s, e);
      for (let j = s; j < e; j++, k++) this.k[j] = k < 0xffff ? k : 0xffff;
    }
    const s0 = first & mask;
    const sl = (first + n - 1) & mask;
    this.meta[s0] = m0;
    this.meta[sl] = this.meta[sl]! | META_LAST;
  }

  enter(atNs: number, host: number, stage: ProbeStage, _q: number, p: Packet): void {
    if (stage !== 'tx_ring') return;
    this.batchRows(atNs, ROW_TX, host, stage, p);
  }

  leave(atNs: number, host: number, stage: ProbeStage, _q: number, p: Packet): void {
    if (stage !== 'rx_ring') return;
    this.batchRows(atNs, ROW_RX, host, stage, p);
  }

  drop(
    atNs: number,
    host: number,
    stage: ProbeStage,
    _q: number,
    p: Packet,
    count: number,
    reason: DropReason,
  ): void {
    let r = this.reasons.indexOf(reason);
    if (r < 0) {
      r = this.reasons.length;
      this.reasons.push(reason);
    }
    const s = this.packetRow(atNs, ROW_DROP, host, stage, p, 0);
    this.meta[s] = (this.meta[s]! & ~(0x3f << REASON_SHIFT)) | ((r & 0x3f) << REASON_SHIFT);
    this.n[s] = count;
  }
}

export function ipNum(ip: string): number {
  const p = ip.split('.');
  return ((Number(p[0]) << 24) | (Number(p[1]) << 16) | (Number(p[2]) << 8) | Number(p[3])) >>> 0;
}
