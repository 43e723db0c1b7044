/**
 * The packet list's capture: every packet each instance sends and receives, at tcpdump's capture
 * points (TX entering the ENA TX ring, RX leaving the RX ring: shell/commands/tcpdump/), one row
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
import { PROBE_STAGES, stageIndex } from '../model/probe';
import type { Instance, Lab } from '../lab/lab';
import {
  batchRowNs,
  captureBatch,
  captureStateOf,
  type InstanceCapture,
  steppedAck,
} from '../shell/commands/tcpdump/batch-capture';
import type { DropReason } from '../model/drop-reasons';
import type { Flow, Packet } from '../model/packet';

/**
 * Rows kept at most: 2^20 (1,048,576, about 45 MB of columns when full; a power of two so a row's
 * slot is its number masked). Each run of the timeline keeps its own (see docs/design.md "The packet list").
 */
export const CAPTURE_CAP = 1 << 20;
const FIRST_SIZE = 4096;
/** Record kinds (a record is one probe call's rows, written to the columns when read). */
const REC_TX = 0;
const REC_RX = 1;
const REC_DROP = 2;
const REC_CREDITS = 3;
/** A record of at most this many rows is written row by row, a longer one column by column (fill). */
const SHORT_RECORD = 16;
/** Records kept pending at most (then written out): 2^18, 13 MB. */
const RECORDS_MAX = 1 << 18;

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
/**
 * A TCP segment with data whose sequence number is below the highest one its direction reached on
 * this instance's capture before (Wireshark's tcp.analysis.retransmission; SYN/FIN not counted).
 */
export const META_RETX = 1 << 30;

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

/** A copy of column `a` in a new array of its own type with `len` elements. */
function grown<T extends Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array>(
  a: T,
  len: number,
): T {
  const b = new (a.constructor as new (n: number) => T)(len);
  b.set(a);
  return b;
}

export class CaptureRing implements ProbeSink {
  /** tcpdump's capture points: TX entering the TX ring, RX leaving the RX ring. */
  readonly enterStages = ['tx_ring'] as const;
  readonly leaveStages = ['rx_ring'] as const;
  /** Rows recorded since t = 0 (the next row's number). */
  count = 0;
  readonly cap: number;
  private c_t = new Float64Array(0);
  private c_meta = new Uint32Array(0);
  /** Index into `flows` (-1: no packet, a credit event). */
  private c_fslot = new Int32Array(0);
  /** IP total length and L4 payload of one packet. */
  private c_size = new Uint16Array(0);
  private c_payload = new Uint16Array(0);
  /** The batch's first sequence number (TCP bytes / UDP datagram) and its ACK, mod 2^32. */
  private c_seq = new Uint32Array(0);
  private c_ack = new Uint32Array(0);
  private c_window = new Uint32Array(0);
  /** When the batch left the sender's socket, whole ms (the receiver's view of the sender's TS clock; META_SENT_ON_MS). */
  private c_sentMs = new Uint32Array(0);
  private c_tos = new Uint8Array(0);
  /** Index in its batch (capture rows); packets taken (drops). */
  private c_k = new Uint16Array(0);
  private c_n = new Uint32Array(0);
  /** Fragments the datagram was cut into (fragment rows). */
  private c_fragOf = new Uint16Array(0);
  /** The interface the packet crossed (0 = eth0, 1 = an attached ENI's eth1 …). */
  private c_dev = new Uint8Array(0);
  /** SACK blocks of rows that carry them (by row number; forgotten with the row). */
  private readonly c_sack = new Map<number, number[]>();

  // The columns as readers see them: what is recorded but not yet written goes in first (flush).
  get t(): Float64Array {
    this.flush();
    return this.c_t;
  }
  get meta(): Uint32Array {
    this.flush();
    return this.c_meta;
  }
  get fslot(): Int32Array {
    this.flush();
    return this.c_fslot;
  }
  get size(): Uint16Array {
    this.flush();
    return this.c_size;
  }
  get payload(): Uint16Array {
    this.flush();
    return this.c_payload;
  }
  get seq(): Uint32Array {
    this.flush();
    return this.c_seq;
  }
  get ack(): Uint32Array {
    this.flush();
    return this.c_ack;
  }
  get window(): Uint32Array {
    this.flush();
    return this.c_window;
  }
  get sentMs(): Uint32Array {
    this.flush();
    return this.c_sentMs;
  }
  get tos(): Uint8Array {
    this.flush();
    return this.c_tos;
  }
  get k(): Uint16Array {
    this.flush();
    return this.c_k;
  }
  get n(): Uint32Array {
    this.flush();
    return this.c_n;
  }
  get fragOf(): Uint16Array {
    this.flush();
    return this.c_fragOf;
  }
  get dev(): Uint8Array {
    this.flush();
    return this.c_dev;
  }
  get sack(): Map<number, number[]> {
    this.flush();
    return this.c_sack;
  }
  readonly flows: CaptureFlow[] = [];
  readonly reasons: string[] = [];
  readonly hosts: string[];
  private readonly insts: Instance[];
  /** Each instance's capture state (batch-capture.ts), looked up once. */
  private readonly states: InstanceCapture[];
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
    this.insts = [...lab.instances.values()];
    this.states = this.insts.map(captureStateOf);
    this.mtus = [...lab.instances.values()].map((i) => i.host.eth0.link().mtu);
  }

  attach(): this {
    this.detachProbe = this.lab.probe.attach(this);
    this.unsubscribe = this.lab.subscribe((e) => {
      if (e.type !== 'CreditsExhausted' && e.type !== 'CreditsRestored') return;
      const h = this.hosts.indexOf(e.host);
      const j = this.record(e.atNs, REC_CREDITS, 1);
      this.rMeta[j] =
        ROW_CREDITS |
        (h << HOST_SHIFT) |
        (stageIndex(e.direction === 'out' ? 'nitro_egress' : 'nitro_ingress') << STAGE_SHIFT) |
        (e.type === 'CreditsRestored' ? META_RESTORED : 0) |
        (e.direction === 'in' ? META_IN : 0);
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
  /** The interface index row `i`'s packet crossed (eth0 = 0). */
  devOf(i: number): number {
    return this.dev[this.slotOf(i)]!;
  }
  flowOf(i: number): CaptureFlow | null {
    const f = this.fslot[this.slotOf(i)]!;
    return f >= 0 ? this.flows[f]! : null;
  }

  // ------------------------------------------------------------------------------------ recording

  private grow(): void {
    const len = Math.min(this.cap, Math.max(FIRST_SIZE, this.c_t.length * 2));
    this.c_t = grown(this.c_t, len);
    this.c_meta = grown(this.c_meta, len);
    this.c_fslot = grown(this.c_fslot, len);
    this.c_size = grown(this.c_size, len);
    this.c_payload = grown(this.c_payload, len);
    this.c_seq = grown(this.c_seq, len);
    this.c_ack = grown(this.c_ack, len);
    this.c_window = grown(this.c_window, len);
    this.c_sentMs = grown(this.c_sentMs, len);
    this.c_tos = grown(this.c_tos, len);
    this.c_k = grown(this.c_k, len);
    this.c_n = grown(this.c_n, len);
    this.c_fragOf = grown(this.c_fragOf, len);
    this.c_dev = grown(this.c_dev, len);
  }

  /** Slot + 1 by flow id (flow ids are small run-unique integers; 0: not seen). */
  private slotById = new Int32Array(256);
  private flowSlot(f: Flow): number {
    const id = f.id;
    if (id < this.slotById.length && this.slotById[id]! > 0) return this.slotById[id]! - 1;
    let s = this.flowIndex.get(id);
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
      this.flowIndex.set(id, s);
    }
    if (id >= this.slotById.length) {
      const a = new Int32Array(Math.max(2 * this.slotById.length, id + 1));
      a.set(this.slotById);
      this.slotById = a;
    }
    this.slotById[id] = s + 1;
    return s;
  }

  // ------------------------------------------------------------------ records (what the probe saw)
  //
  // A probe call records its rows as one entry here (a batch of count packets: one entry, not count
  // rows); the columns are written when someone reads them (flush). Rows that the cap lets go before
  // they are read are never written: at the top speed the ring turns over many times between two
  // looks. What a reader sees is the same as writing every row at once.

  private rec = 0;
  private rFirst = new Float64Array(256);
  private rT = new Float64Array(256);
  private rType = new Uint8Array(256);
  private rRows = new Uint32Array(256);
  private rMeta = new Uint32Array(256);
  private rMeta0 = new Uint32Array(256);
  private rFs = new Int32Array(256);
  private rSize = new Uint16Array(256);
  private rPay = new Uint16Array(256);
  private rSeq = new Uint32Array(256);
  private rAck = new Uint32Array(256);
  private rWin = new Uint32Array(256);
  private rSent = new Uint32Array(256);
  private rTos = new Uint8Array(256);
  private rN = new Uint32Array(256);
  private rFrag = new Int32Array(256);
  private rDev = new Uint8Array(256);
  /** Between two packets of the record's batch, ns (batchGapNs); 0: one instant. rT: its first packet's time. */
  private rGap = new Float64Array(256);
  /** A batch of ACKs: where its ACK numbers step from and by how much (rAckMss 0: they do not). */
  private rAckFrom = new Uint32Array(256);
  private rAckMss = new Uint16Array(256);
  /** Leading rows of the record that are TCP retransmissions (META_RETX). */
  private rRetx = new Uint32Array(256);
  /** TCP: the next sequence number (mod 2^32) each (flow, instance) reached at its capture point. */
  /** Per (flow slot × 32 + host): the sequence number the direction reached (−1: none yet). */
  private nextSeq = new Float64Array(1024).fill(-1);
  /** SACK blocks of pending records that carry them, by the record's first row (rare: in recovery only). */
  private readonly rSack = new Map<number, number[]>();

  /** A new record of `rows` rows at `atNs` (its other fields are the caller's to set); its index. */
  private record(atNs: number, type: number, rows: number): number {
    if (this.rec === this.rT.length) this.roomForRecords();
    const j = this.rec++;
    this.rFirst[j] = this.count;
    this.count += rows;
    this.rT[j] = atNs;
    this.rType[j] = type;
    this.rRows[j] = rows;
    this.rRetx[j] = 0;
    this.rDev[j] = 0;
    this.rGap[j] = 0;
    this.rAckMss[j] = 0;
    return j;
  }

  /** The record arrays are full: forget the records whose rows the cap has let go; else grow (or write out). */
  private roomForRecords(): void {
    const keepFrom = this.count - this.cap;
    let j = 0;
    while (j < this.rec && this.rFirst[j]! + this.rRows[j]! <= keepFrom) j++;
    if (j > 0) {
      // their rows are never written; the rows they push out forget their SACK blocks as writing would
      this.forgetSack(this.rFirst[j - 1]! + this.rRows[j - 1]!);
      const arrays = [
        this.rFirst,
        this.rT,
        this.rType,
        this.rRows,
        this.rMeta,
        this.rMeta0,
        this.rFs,
        this.rSize,
        this.rPay,
        this.rSeq,
        this.rAck,
        this.rWin,
        this.rSent,
        this.rTos,
        this.rN,
        this.rFrag,
        this.rRetx,
        this.rDev,
        this.rGap,
        this.rAckFrom,
        this.rAckMss,
      ];
      for (const x of arrays) x.copyWithin(0, j, this.rec);
      if (this.rSack.size > 0) {
        const keep = this.rFirst[0]!;
        for (const row of this.rSack.keys()) if (row < keep) this.rSack.delete(row);
      }
      this.rec -= j;
      if (this.rec < this.rT.length / 2) return;
    }
    if (this.rT.length >= RECORDS_MAX) {
      this.flush();
      return;
    }
    const len = this.rT.length * 2;
    this.rFirst = grown(this.rFirst, len);
    this.rT = grown(this.rT, len);
    this.rType = grown(this.rType, len);
    this.rRows = grown(this.rRows, len);
    this.rMeta = grown(this.rMeta, len);
    this.rMeta0 = grown(this.rMeta0, len);
    this.rFs = grown(this.rFs, len);
    this.rSize = grown(this.rSize, len);
    this.rPay = grown(this.rPay, len);
    this.rSeq = grown(this.rSeq, len);
    this.rAck = grown(this.rAck, len);
    this.rWin = grown(this.rWin, len);
    this.rSent = grown(this.rSent, len);
    this.rTos = grown(this.rTos, len);
    this.rN = grown(this.rN, len);
    this.rFrag = grown(this.rFrag, len);
    this.rRetx = grown(this.rRetx, len);
    this.rDev = grown(this.rDev, len);
    this.rGap = grown(this.rGap, len);
    this.rAckFrom = grown(this.rAckFrom, len);
    this.rAckMss = grown(this.rAckMss, len);
  }

  /** Rows before `end` are written: the SACK blocks of the rows the cap let go for them are forgotten. */
  private forgetSack(end: number): void {
    const limit = end - this.cap;
    if (limit <= 0 || this.c_sack.size === 0) return;
    // rows are added in order, so the map's keys are in row order
    for (const key of this.c_sack.keys()) {
      if (key >= limit) break;
      this.c_sack.delete(key);
    }
  }

  /** A packet's row fields into record j; `k0` the first row's index in its batch, `rows` how many. */
  private packetRecord(
    j: number,
    host: number,
    stage: ProbeStage,
    p: Packet,
    k0: number,
    rows: number,
  ): void {
    const fs = this.flowSlot(p.flow);
    let m = (host << HOST_SHIFT) | (stageIndex(stage) << STAGE_SHIFT) | ((p.flags & 0x1f) << FLAGS_SHIFT);
    // when the batch left its socket, whole ms (and whether exactly on one): one division
    const sentMs = Math.floor(p.sentAtNs / 1e6);
    if (sentMs * 1e6 === p.sentAtNs) m |= META_SENT_ON_MS;
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
    let m0 = m;
    if (proto === 6 && k0 === 0 && p.sack && p.sack.length > 1) {
      const blocks = Math.min(3, p.sack.length >> 1);
      m0 |= blocks << SACK_SHIFT;
      this.rSack.set(this.rFirst[j]!, p.sack.slice(0, 2 * blocks));
    }
    // the batch's last packet (Linux's PSH on a write's end) is the last row when the rows reach it
    if (k0 + rows === p.count) m0 = rows === 1 ? m0 | META_LAST : m0;
    this.rMeta[j] = m;
    this.rMeta0[j] = m0;
    this.rFs[j] = fs;
    this.rSize[j] = p.sizeBytes;
    this.rPay[j] = p.payloadBytes;
    this.rSeq[j] = p.seq >>> 0;
    this.rAck[j] = p.ack >>> 0;
    this.rWin[j] = p.window;
    this.rSent[j] = sentMs;
    this.rTos[j] = p.tos;
    this.rN[j] = p.count;
    this.rFrag[j] = fr ? fr.of : -1;
  }

  /** Write every pending record's rows into the columns (as if each had been written when recorded). */
  flush(): void {
    const nRec = this.rec;
    if (nRec === 0) return;
    this.rec = 0;
    while (this.count > this.c_t.length && this.c_t.length < this.cap) this.grow();
    const keepFrom = this.count - this.cap;
    const mask = this.c_t.length - 1;
    for (let j = 0; j < nRec; j++) {
      const first = this.rFirst[j]!;
      const rows = this.rRows[j]!;
      // rows the cap lets go before anyone could read them are not written
      if (first + rows <= keepFrom) continue;
      const type = this.rType[j]!;
      if (type === REC_CREDITS) {
        const s = first & mask;
        this.c_t[s] = this.rT[j]!;
        this.c_meta[s] = this.rMeta[j]!;
        this.c_fslot[s] = -1;
        this.c_size[s] = 0;
        this.c_payload[s] = 0;
        this.c_n[s] = 0;
        this.forgetSack(first + 1);
        continue;
      }
      const kind = type === REC_RX ? ROW_RX : type === REC_DROP ? ROW_DROP : ROW_TX;
      const m = this.rMeta[j]! | kind;
      const atNs = this.rT[j]!;
      const fs = this.rFs[j]!;
      const size = this.rSize[j]!;
      const payload = this.rPay[j]!;
      const seq = this.rSeq[j]!;
      const ack = this.rAck[j]!;
      const win = this.rWin[j]!;
      const sentMs = this.rSent[j]!;
      const tos = this.rTos[j]!;
      const n = type === REC_DROP ? this.rN[j]! : rows;
      const frag = this.rFrag[j]!;
      const dev = this.rDev[j]!;
      const gap = this.rGap[j]!;
      const ackMss = this.rAckMss[j]!;
      const ackFrom = this.rAckFrom[j]!;
      if (rows <= SHORT_RECORD && ((first + rows - 1) & mask) >= (first & mask)) {
        // a few rows, not wrapping: written one by one (a fill per column per record cost more than
        // the rows: at the top speed a read writes up to a ring's worth of records of a few rows)
        const s = first & mask;
        for (let k = 0; k < rows; k++) {
          const q = s + k;
          this.c_t[q] = gap === 0 ? atNs : batchRowNs(atNs, k, gap);
          this.c_ack[q] = ackMss === 0 ? ack : steppedAck(ackFrom, ack, rows, ackMss, k);
          this.c_dev[q] = dev;
          this.c_meta[q] = m;
          this.c_fslot[q] = fs;
          this.c_size[q] = size;
          this.c_payload[q] = payload;
          this.c_seq[q] = seq;
          this.c_window[q] = win;
          this.c_sentMs[q] = sentMs;
          this.c_tos[q] = tos;
          this.c_n[q] = n;
          if (frag >= 0) this.c_fragOf[q] = frag;
          this.c_k[q] = k;
        }
      } else
        for (let k = 0; k < rows; ) {
          const s = (first + k) & mask;
          const e = s + Math.min(rows - k, mask + 1 - s);
          if (gap === 0) this.c_t.fill(atNs, s, e);
          else for (let q = s, kq = k; q < e; q++, kq++) this.c_t[q] = batchRowNs(atNs, kq, gap);
          if (ackMss === 0) this.c_ack.fill(ack, s, e);
          else
            for (let q = s, kq = k; q < e; q++, kq++)
              this.c_ack[q] = steppedAck(ackFrom, ack, rows, ackMss, kq);
          this.c_dev.fill(dev, s, e);
          this.c_meta.fill(m, s, e);
          this.c_fslot.fill(fs, s, e);
          this.c_size.fill(size, s, e);
          this.c_payload.fill(payload, s, e);
          this.c_seq.fill(seq, s, e);
          this.c_window.fill(win, s, e);
          this.c_sentMs.fill(sentMs, s, e);
          this.c_tos.fill(tos, s, e);
          this.c_n.fill(n, s, e);
          if (frag >= 0) this.c_fragOf.fill(frag, s, e);
          for (let q = s; q < e; q++, k++) this.c_k[q] = k < 0xffff ? k : 0xffff;
        }
      const s0 = first & mask;
      const sl = (first + rows - 1) & mask;
      this.c_meta[s0] = this.rMeta0[j]! | kind;
      if (rows > 1) this.c_meta[sl] = this.c_meta[sl]! | META_LAST;
      for (let k = 0, retx = this.rRetx[j]!; k < retx; k++) {
        const sk = (first + k) & mask;
        this.c_meta[sk] = this.c_meta[sk]! | META_RETX;
      }
      // (a drop record: one row, its reason and LAST already in its meta)
      this.forgetSack(first + rows);
      const sk = this.rSack.size > 0 ? this.rSack.get(first) : undefined;
      if (sk) this.c_sack.set(first, sk);
    }
    this.rSack.clear();
  }

  enter(atNs: number, host: number, stage: ProbeStage, _q: number, p: Packet): void {
    if (stage !== 'tx_ring' || p.count <= 0) return;
    const j = this.record(atNs, REC_TX, p.count);
    this.packetRecord(j, host, stage, p, 0, p.count);
    this.captured(j, host, p, true);
  }

  leave(atNs: number, host: number, stage: ProbeStage, _q: number, p: Packet): void {
    if (stage !== 'rx_ring' || p.count <= 0) return;
    const j = this.record(atNs, REC_RX, p.count);
    this.packetRecord(j, host, stage, p, 0, p.count);
    this.captured(j, host, p, false);
  }

  /**
   * What a capture row adds to its record as tcpdump there sees it (shell/commands/tcpdump/batch-capture.ts): the
   * interface, the batch's packets spread at the host link's rate, the ACK numbers of a batch of
   * ACKs, the retransmitted segments.
   */
  private captured(j: number, host: number, p: Packet, tx: boolean): void {
    const v = captureBatch(this.lab, this.insts[host]!, p, this.rT[j]!, tx, this.states[host]!);
    this.rT[j] = v.startNs;
    this.rDev[j] = v.dev;
    this.rGap[j] = v.gapNs;
    this.rAckFrom[j] = v.ackFrom;
    this.rAckMss[j] = Math.min(0xffff, v.ackMss);
    if (p.payloadBytes > 0 && this.flows[this.rFs[j]!]!.proto === 6)
      this.rRetx[j] = this.retransmitted(j, host, p);
  }

  /**
   * How many of a TCP batch's first packets are below the sequence number its direction reached at
   * this capture point (serial arithmetic mod 2^32); the direction's mark moves to the batch's end.
   */
  private retransmitted(j: number, host: number, p: Packet): number {
    const key = this.rFs[j]! * 32 + host;
    const seq = p.seq >>> 0;
    const end = (seq + p.count * p.payloadBytes) >>> 0;
    if (key >= this.nextSeq.length) {
      const grownSeq = new Float64Array(Math.max(2 * this.nextSeq.length, key + 1)).fill(-1);
      grownSeq.set(this.nextSeq);
      this.nextSeq = grownSeq;
    }
    const next = this.nextSeq[key]!;
    if (next < 0) {
      this.nextSeq[key] = end;
      return 0;
    }
    if (((end - next) | 0) > 0) this.nextSeq[key] = end;
    const behind = (next - seq) | 0;
    return behind > 0 ? Math.min(p.count, Math.ceil(behind / p.payloadBytes)) : 0;
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
    const j = this.record(atNs, REC_DROP, 1);
    this.packetRecord(j, host, stage, p, 0, 1);
    // one row for the batch's first packet (its META_LAST when the batch is one packet), the reason, the count
    this.rMeta0[j] =
      (this.rMeta0[j]! & ~META_LAST) | (p.count === 1 ? META_LAST : 0) | ((r & 0x3f) << REASON_SHIFT);
    this.rN[j] = count;
  }
}

export function ipNum(ip: string): number {
  const p = ip.split('.');
  return ((Number(p[0]) << 24) | (Number(p[1]) << 16) | (Number(p[2]) << 8) | Number(p[3])) >>> 0;
}
