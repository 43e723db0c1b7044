/**
 * The path recorder's probe sink: listens to the lab's stage probe and keeps batch passages through
 * every (host, stage, queue) with enter and exit times, occupancy history per lane, drops with their
 * reason, and the flows seen. The frame writer (path-frame-writer.ts) and the inspections
 * (path-inspections.ts) read what it holds.
 *
 * Guarantees: observational (copies what it needs during the probe call, never schedules or
 * mutates); bounded memory (ring buffers; what fell out is reported as expired, never invented);
 * a leave or drop is matched to the oldest open packets of its flow in that lane, since stages are
 * FIFO per flow.
 */
import { PROBE_STAGE_INDEX, type ProbeSink, type ProbeStage, stageIndex } from '../model/probe';
import { enaRxHash } from '../host/rss';
import type { Lab } from '../lab/lab';
import type { DropReason } from '../model/drop-reasons';
import type { FiveTuple, Packet } from '../model/packet';
import { REASON_CODE } from './path-names';
import { PASSAGE_DROPPED as DROPPED, PASSAGE_LEFT as LEFT } from './path-types';

/** Passage fates as module constants (the hot path reads them on every probe call). */
const PASSAGE_LEFT: number = LEFT;
const PASSAGE_DROPPED: number = DROPPED;
const NITRO_INGRESS: number = PROBE_STAGE_INDEX.nitro_ingress;

export interface PathRecorderOptions {
  /** Completed passages kept (ring buffer). */
  passageHistory?: number;
  /** Drops kept (ring buffer). */
  dropHistory?: number;
  /** Occupancy change points kept per lane. */
  laneHistory?: number;
  /** Open batches kept per (lane, flow) before the oldest are forgotten. */
  maxOpenPerFlow?: number;
}

export interface OpenBatch {
  enterNs: number;
  count: number;
  seq: number;
}

/**
 * The lanes' counts, in typed arrays indexed by lane (the probe's hot path writes them on every
 * crossing; a Lane reads its own). Without detail (a fast-forward), change points are not written
 * one by one: a lane keeps the pending instant's level (ffT, ffV; ffT < 0: none) and the highest
 * level an earlier instant ended at (ffPeakT, ffPeakV; ffPeakT < 0: none), written as at most two
 * change points when the history is next read (settle): a frame's peak over a long stretch is then
 * its real peak, not the peak of the last change points the ring could hold.
 */
class LaneCounts {
  size = 0;
  occ = new Float64Array(64);
  entered = new Float64Array(64);
  left = new Float64Array(64);
  ffT = new Float64Array(64);
  ffV = new Float64Array(64);
  ffPeakT = new Float64Array(64);
  ffPeakV = new Float64Array(64);

  /** A new lane's counts (all zero, no pending level): its index. */
  add(): number {
    if (this.size === this.occ.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.occ = grow(this.occ);
      this.entered = grow(this.entered);
      this.left = grow(this.left);
      this.ffT = grow(this.ffT);
      this.ffV = grow(this.ffV);
      this.ffPeakT = grow(this.ffPeakT);
      this.ffPeakV = grow(this.ffPeakV);
    }
    const i = this.size++;
    this.ffT[i] = -1;
    this.ffPeakT[i] = -1;
    return i;
  }
}

/** One (host, stage, queue) of the path: its counts (LaneCounts), drops, level history and open batches. */
export class Lane {
  /** `entered` at the previous frame (density while only counting). */
  enteredAtFrame = 0;
  dropped = 0;
  readonly dropsByReason = new Map<number, number>();
  /** Occupancy change points: ring of (t, occ). */
  readonly histT: Float64Array;
  readonly histV: Float64Array;
  /** Change points ever written (wrapped below 2^30 by a multiple of the ring): the newest is at (histN − 1) & histMask. */
  histN = 0;
  /** Open batches per flow, oldest first (array + head index). */
  readonly open = new Map<number, { q: OpenBatch[]; head: number }>();

  constructor(
    readonly index: number,
    readonly host: number,
    readonly stage: number,
    readonly queue: number,
    private readonly counts: LaneCounts,
    histRing: number,
  ) {
    this.histT = new Float64Array(histRing);
    this.histV = new Float64Array(histRing);
  }

  /** Wire packets inside now, entered and left since t = 0. */
  get occ(): number {
    return this.counts.occ[this.index]!;
  }
  get entered(): number {
    return this.counts.entered[this.index]!;
  }
  get left(): number {
    return this.counts.left[this.index]!;
  }
}

/** Queues per (host, stage) looked up in the flat lane index (beyond: the nested arrays). */
const QSPAN = 64;

export interface FlowInfo {
  readonly id: number;
  readonly tuple: FiveTuple;
  readonly skbHash: number;
  sizeBytes: number;
  payloadBytes: number;
  txq: number;
  src: number;
  dst: number;
  /**
   * Whether the flow's sequence numbers count bytes (TCP) or packets: the carried flow's protocol,
   * `(p.inner ?? p.flow)`, since a tunnel's outer flow (gre, or udp for VXLAN/GENEVE) keeps the
   * inner TCP segment's byte numbering (splitBatch does the same).
   */
  seqBytes: boolean;
}

/** What one packet of the flow advances its sequence number by. */
export const seqUnit = (f: FlowInfo): number => (f.seqBytes ? f.payloadBytes : 1);

export class PathSink implements ProbeSink {
  readonly P: number;
  readonly D: number;
  readonly H: number;
  /** The occupancy history ring's size (H rounded up to a power of 2) and its index mask. */
  private readonly histRing: number;
  private readonly histMask: number;
  private readonly maxOpen: number;
  // ---- completed passages (ring, in exit-time order)
  nextId = 0;
  /** Simulated time each passage was recorded (monotonic; its exit is at most one fabric delay later). */
  readonly pPush: Float64Array;
  readonly pEnter: Float64Array;
  readonly pExit: Float64Array;
  readonly pLane: Uint32Array;
  readonly pFlow: Uint32Array;
  readonly pCount: Uint32Array;
  readonly pSeq: Float64Array;
  readonly pCpu: Int16Array;
  readonly pFate: Uint8Array;
  readonly pReason: Uint8Array;
  // ---- drops (ring, in time order)
  nextDrop = 0;
  readonly dNs: Float64Array;
  readonly dPush: Float64Array;
  readonly dLane: Uint32Array;
  readonly dFlow: Uint32Array;
  readonly dCount: Uint32Array;
  readonly dReason: Uint8Array;
  // ---- lanes and flows
  readonly lanes: Lane[] = [];
  readonly laneByKey = new Map<number, Lane>();
  private readonly counts = new LaneCounts();
  /** Lane index + 1 by ((host × 8 + stage) × QSPAN + queue) (0: none yet): the hot-path lookup. */
  private readonly laneIx: Int32Array;
  readonly flows = new Map<number, FlowInfo>();
  /** The same flows by id (small run-unique integers): the hot-path lookup. */
  private readonly flowById: (FlowInfo | undefined)[] = [];
  readonly hostNames: string[];
  private readonly hostByIp = new Map<string, number>();
  private detachFn: (() => void) | null = null;
  private fabricDelay = -1;
  private detail = true;
  private readonly fabricPending: Array<{
    lane: Lane;
    flow: FlowInfo;
    exitNs: number;
    count: number;
    seq: number;
  }> = [];
  private fabricHead = 0;
  /** Open batches forgotten because a (lane, flow) exceeded its cap (a stage that never reports leave). */
  forgottenOpen = 0;

  constructor(
    readonly lab: Lab,
    opts: PathRecorderOptions = {},
  ) {
    this.P = opts.passageHistory ?? 1 << 16;
    this.D = opts.dropHistory ?? 1 << 13;
    this.H = opts.laneHistory ?? 1024;
    this.histRing = 2 ** Math.ceil(Math.log2(Math.max(1, this.H)));
    this.histMask = this.histRing - 1;
    this.maxOpen = opts.maxOpenPerFlow ?? 8192;
    const P = this.P;
    this.pPush = new Float64Array(P);
    this.pEnter = new Float64Array(P);
    this.pExit = new Float64Array(P);
    this.pLane = new Uint32Array(P);
    this.pFlow = new Uint32Array(P);
    this.pCount = new Uint32Array(P);
    this.pSeq = new Float64Array(P);
    this.pCpu = new Int16Array(P);
    this.pFate = new Uint8Array(P);
    this.pReason = new Uint8Array(P);
    const D = this.D;
    this.dNs = new Float64Array(D);
    this.dPush = new Float64Array(D);
    this.dLane = new Uint32Array(D);
    this.dFlow = new Uint32Array(D);
    this.dCount = new Uint32Array(D);
    this.dReason = new Uint8Array(D);
    this.hostNames = [...lab.instances.keys()];
    this.laneIx = new Int32Array(this.hostNames.length * 8 * QSPAN);
    this.hostNames.forEach((n, i) => {
      const inst = lab.instances.get(n)!;
      this.hostByIp.set(inst.host.ip, i);
    });
  }

  /** Start listening to the lab's probe (idempotent). */
  attach(): this {
    if (!this.detachFn) this.detachFn = this.lab.probe.attach(this);
    return this;
  }

  detach(): void {
    this.detachFn?.();
    this.detachFn = null;
  }

  // ------------------------------------------------------------------ probe sink

  /** Without detail the probe calls countEnter/countLeave instead of enter/leave (ProbeSink.counting). */
  get counting(): boolean {
    return !this.detail;
  }

  enter(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet): void {
    if (!this.detail) {
      this.countEnter(stageIndex(stage), atNs, host, queue, pkt);
      return;
    }
    if (this.fabricHead < this.fabricPending.length) this.flushFabric();
    if (stage === 'nitro_ingress') atNs += this.fabricNs;
    const lane = this.lanes[this.laneIndex(host, stageIndex(stage), queue)]!;
    const c = this.counts;
    const i = lane.index;
    c.entered[i]! += pkt.count;
    c.occ[i]! += pkt.count;
    this.pushOcc(lane, atNs, c.occ[i]!);
    const f = this.flow(pkt);
    let o = lane.open.get(f.id);
    if (!o) {
      o = { q: [], head: 0 };
      lane.open.set(f.id, o);
    }
    if (o.q.length - o.head >= this.maxOpen) {
      // a stage that keeps entering without leaving: forget the oldest batch (not its occupancy)
      this.forgottenOpen += o.q[o.head++]!.count;
    }
    o.q.push({ enterNs: atNs, count: pkt.count, seq: pkt.seq });
  }

  /**
   * Counts only (a fast-forward), `stage` by its index: the lane's entries and level; the flow is
   * registered (its sizes refreshed with detail).
   */
  countEnter(stage: number, atNs: number, host: number, queue: number, pkt: Packet): void {
    if (this.fabricHead < this.fabricPending.length) this.flushFabric();
    if (stage === NITRO_INGRESS) atNs += this.fabricNs;
    const i = this.laneIndex(host, stage, queue);
    const c = this.counts;
    const n = pkt.count;
    c.entered[i]! += n;
    const occ = c.occ[i]! + n;
    c.occ[i] = occ;
    this.ffLevel(i, atNs, occ);
    const known = this.flowById[pkt.flow.id];
    if (known === undefined) this.flow(pkt);
    else if (known.txq < 0 && pkt.txq >= 0) known.txq = pkt.txq;
  }

  leave(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet, cpu: number): void {
    if (!this.detail) {
      this.countLeave(stageIndex(stage), atNs, host, queue, pkt);
      return;
    }
    if (this.fabricHead < this.fabricPending.length) this.flushFabric();
    const lane = this.lanes[this.laneIndex(host, stageIndex(stage), queue)]!;
    this.counts.left[lane.index]! += pkt.count;
    const f = this.flow(pkt);
    if (stage === 'fabric') {
      // the model hands the batch to the receiving card at once and lands it one delay later:
      // it is in flight until then
      this.fabricPending.push({
        lane,
        flow: f,
        exitNs: atNs + this.fabricNs,
        count: pkt.count,
        seq: pkt.seq,
      });
      return;
    }
    if (stage === 'nitro_ingress') atNs += this.fabricNs;
    this.release(lane, atNs, pkt.count);
    this.consume(lane, f, atNs, pkt.count, pkt.seq, cpu, PASSAGE_LEFT, 0);
  }

  /** Counts only: the lane's level falls (a flight on the fabric lands when it leaves). */
  countLeave(stage: number, atNs: number, host: number, queue: number, pkt: Packet): void {
    if (this.fabricHead < this.fabricPending.length) this.flushFabric();
    const i = this.laneIndex(host, stage, queue);
    const c = this.counts;
    const n = pkt.count;
    c.left[i]! += n;
    const was = c.occ[i]!;
    const occ = was > n ? was - n : 0;
    c.occ[i] = occ;
    this.ffLevel(i, stage === NITRO_INGRESS ? atNs + this.fabricNs : atNs, occ);
  }

  /** Packets left a lane (or died inside it): its occupancy falls (never below what the probe said entered). */
  private release(lane: Lane, atNs: number, count: number): void {
    const c = this.counts;
    const i = lane.index;
    const was = c.occ[i]!;
    c.occ[i] = was > count ? was - count : 0;
    this.recordOcc(lane, atNs);
  }

  /**
   * Detail on (the default): every batch is followed through every stage (passages, dwell times,
   * inspectable packets). Off: only counts, occupancy and drops are kept, at a fraction of the cost,
   * for long stretches the view does not animate. Turning it back on forgets the batches that were
   * inside (their exits show as zero-length passages for the time the queues take to turn over).
   */
  setDetail(on: boolean): void {
    if (on && !this.detail)
      for (const lane of this.lanes) {
        this.settle(lane);
        lane.open.clear();
      }
    if (this.detail === on) return;
    this.detail = on;
    if (this.detachFn) this.lab.probe.refresh();
  }

  /**
   * Start following batches afresh from now, whatever was recorded before: the followed batches,
   * passages (ids restart at 0) and flights are forgotten, as they are in a recorder that never had
   * detail on; counts, occupancy, drops and flows stay. A seek does this a fixed window before its
   * target, so the view at the target is the same whichever checkpoint it was restored from.
   */
  restartDetail(): void {
    this.flushFabric();
    // flights not landed yet: a recorder without detail released them when they left
    for (let i = this.fabricHead; i < this.fabricPending.length; i++) {
      const b = this.fabricPending[i]!;
      this.release(b.lane, this.lab.nowNs, b.count);
    }
    this.fabricPending.length = 0;
    this.fabricHead = 0;
    for (const lane of this.lanes) {
      this.settle(lane);
      lane.open.clear();
      lane.enteredAtFrame = this.counts.entered[lane.index]!;
    }
    this.nextId = 0;
    this.forgottenOpen = 0;
    if (!this.detail) {
      this.detail = true;
      if (this.detachFn) this.lab.probe.refresh();
    }
  }

  get detailed(): boolean {
    return this.detail;
  }

  /**
   * The model runs a receiving card's ingress when the sender releases a batch, one fabric delay
   * before the batch lands in the RX ring (Lab.fabricSend). The recorder shows the physical order:
   * in flight for the delay, then the receiving card, then the ring, by shifting the receiving
   * card's times by the delay (its passage then ends exactly when the batch lands).
   */
  get fabricNs(): number {
    if (this.fabricDelay < 0) this.fabricDelay = this.lab.oneWayDelayNs();
    return this.fabricDelay;
  }

  /** End the flights that have landed by now (in exit order: the delay is constant). */
  flushFabric(): void {
    const now = this.lab.nowNs;
    const q = this.fabricPending;
    while (this.fabricHead < q.length && q[this.fabricHead]!.exitNs <= now) {
      const b = q[this.fabricHead++]!;
      this.release(b.lane, b.exitNs, b.count);
      this.consume(b.lane, b.flow, b.exitNs, b.count, b.seq, -1, PASSAGE_LEFT, 0);
    }
    if (this.fabricHead > 256 && this.fabricHead * 2 > q.length) {
      q.splice(0, this.fabricHead);
      this.fabricHead = 0;
    }
  }

  drop(
    atNs: number,
    host: number,
    stage: ProbeStage,
    queue: number,
    pkt: Packet,
    count: number,
    reason: DropReason,
    wasQueued: boolean,
  ): void {
    this.flushFabric();
    if (stage === 'nitro_ingress') atNs += this.fabricNs;
    const lane = this.lanes[this.laneIndex(host, stageIndex(stage), queue)]!;
    const f = this.flow(pkt);
    const code = REASON_CODE.get(reason) ?? 0;
    lane.dropped += count;
    lane.dropsByReason.set(code, (lane.dropsByReason.get(code) ?? 0) + count);
    const k = this.nextDrop++ % this.D;
    this.dNs[k] = atNs;
    this.dPush[k] = this.lab.nowNs;
    this.dLane[k] = lane.index;
    this.dFlow[k] = f.id;
    this.dCount[k] = count;
    this.dReason[k] = code;
    if (wasQueued) this.release(lane, atNs, count);
    if (!this.detail) return;
    if (wasQueued) this.consume(lane, f, atNs, count, pkt.seq, -1, PASSAGE_DROPPED, code);
    else this.pushPassage(lane.index, f.id, atNs, atNs, count, pkt.seq, -1, PASSAGE_DROPPED, code);
  }

  /** Match `count` packets leaving (or dying in) a lane to its oldest open packets of the flow. */
  private consume(
    lane: Lane,
    f: FlowInfo,
    atNs: number,
    count: number,
    seq: number,
    cpu: number,
    fate: number,
    code: number,
  ): void {
    const o = lane.open.get(f.id);
    let left = count;
    const unit = seqUnit(f);
    while (o && left > 0 && o.head < o.q.length) {
      const b = o.q[o.head]!;
      const k = Math.min(left, b.count);
      this.pushPassage(lane.index, f.id, b.enterNs, atNs, k, b.seq, cpu, fate, code);
      b.count -= k;
      b.seq += k * unit;
      if (b.count === 0) o.head++;
      left -= k;
    }
    if (o) {
      if (o.head === o.q.length) lane.open.delete(f.id);
      else if (o.head > 64 && o.head * 2 > o.q.length) {
        o.q.splice(0, o.head);
        o.head = 0;
      }
    }
    // packets the stage never reported entering (refused on arrival or a stage without enter)
    if (left > 0) this.pushPassage(lane.index, f.id, atNs, atNs, left, seq, cpu, fate, code);
  }

  private pushPassage(
    lane: number,
    flow: number,
    enterNs: number,
    exitNs: number,
    count: number,
    seq: number,
    cpu: number,
    fate: number,
    code: number,
  ): void {
    const k = this.nextId++ % this.P;
    this.pPush[k] = this.lab.nowNs;
    this.pEnter[k] = enterNs;
    this.pExit[k] = exitNs;
    this.pLane[k] = lane;
    this.pFlow[k] = flow;
    this.pCount[k] = count;
    this.pSeq[k] = seq;
    this.pCpu[k] = cpu;
    this.pFate[k] = fate;
    this.pReason[k] = code;
  }

  private recordOcc(lane: Lane, atNs: number): void {
    if (!this.detail) this.ffLevel(lane.index, atNs, this.counts.occ[lane.index]!);
    else this.pushOcc(lane, atNs, this.counts.occ[lane.index]!);
  }

  /** A fast-forward: the level each instant ends at counts; only the peak and the last are kept. */
  private ffLevel(i: number, atNs: number, occ: number): void {
    const c = this.counts;
    const t = c.ffT[i]!;
    if (atNs !== t) {
      if (t >= 0 && (c.ffPeakT[i]! < 0 || c.ffV[i]! > c.ffPeakV[i]!)) {
        c.ffPeakT[i] = t;
        c.ffPeakV[i] = c.ffV[i]!;
      }
      c.ffT[i] = atNs;
    }
    c.ffV[i] = occ;
  }

  /** Write what a fast-forward kept of `lane`'s levels as change points (its peak, then its last). */
  private settle(lane: Lane): void {
    const c = this.counts;
    const i = lane.index;
    if (c.ffT[i]! < 0) return;
    if (c.ffPeakT[i]! >= 0 && c.ffPeakV[i]! > c.ffV[i]!) this.pushOcc(lane, c.ffPeakT[i]!, c.ffPeakV[i]!);
    this.pushOcc(lane, c.ffT[i]!, c.ffV[i]!);
    c.ffT[i] = -1;
    c.ffPeakT[i] = -1;
  }

  private pushOcc(lane: Lane, atNs: number, occ: number): void {
    // hot path (every probe call): a power-of-2 ring, a change at the same instant overwrites
    const n = lane.histN;
    const m = this.histMask;
    if (n > 0) {
      const last = (n - 1) & m;
      if (lane.histT[last] === atNs) {
        lane.histV[last] = occ;
        return;
      }
    }
    const k = n & m;
    lane.histT[k] = atNs;
    lane.histV[k] = occ;
    lane.histN = n + 1 < 0x40000000 ? n + 1 : n + 1 - 0x20000000;
  }

  /** Change points of `lane` held (at most H), and the ring index of the i-th oldest of them. */
  histLen(lane: Lane): number {
    this.settle(lane);
    return lane.histN < this.H ? lane.histN : this.H;
  }

  histIndex(lane: Lane, i: number): number {
    return (lane.histN - this.histLen(lane) + i) & this.histMask;
  }

  /** The index of lane (host, stage, queue), made on first sight (hot path: one typed-array load). */
  private laneIndex(host: number, s: number, queue: number): number {
    if (queue < QSPAN) {
      const v = this.laneIx[((host << 3) | s) * QSPAN + queue];
      if (v !== undefined && v !== 0) return v - 1;
    }
    return this.lane(host, s, queue).index;
  }

  /** Lane (host, stage, queue) by its key, made on first sight (laneIndex looks it up first). */
  private lane(host: number, s: number, queue: number): Lane {
    const key = (host * 16 + s) * 65536 + queue;
    let l = this.laneByKey.get(key);
    if (l === undefined) {
      l = new Lane(this.counts.add(), host, s, queue, this.counts, this.histRing);
      this.lanes.push(l);
      this.laneByKey.set(key, l);
      const k = ((host << 3) | s) * QSPAN + queue;
      if (queue < QSPAN && k < this.laneIx.length) this.laneIx[k] = l.index + 1;
    }
    return l;
  }

  private flow(p: Packet): FlowInfo {
    let f = this.flowById[p.flow.id];
    if (f === undefined) {
      const t = p.flow.tuple;
      f = {
        id: p.flow.id,
        tuple: t,
        skbHash: p.flow.skbHash,
        sizeBytes: p.sizeBytes,
        payloadBytes: p.payloadBytes,
        txq: p.txq,
        src: this.hostByIp.get(t.srcIp) ?? -1,
        dst: this.hostByIp.get(t.dstIp) ?? -1,
        seqBytes: (p.inner ?? p.flow).tuple.proto === 'tcp',
      };
      this.flows.set(f.id, f);
      this.flowById[f.id] = f;
    } else {
      if (p.payloadBytes > 0) {
        f.sizeBytes = p.sizeBytes;
        f.payloadBytes = p.payloadBytes;
      }
      if (p.txq >= 0) f.txq = p.txq;
    }
    return f;
  }

  /** Where the receiver steers a flow: RSS (Toeplitz or CRC32) hash → indirection → queue → vCPU, or an n-tuple rule. */
  rxSteering(fl: FlowInfo) {
    if (fl.dst < 0) return null;
    const inst = this.lab.instances.get(this.hostNames[fl.dst]!)!;
    const eth0 = inst.host.eth0;
    const rss = eth0.rss();
    const t = fl.tuple;
    const ports = t.proto === 'tcp' || t.proto === 'udp';
    const hash = enaRxHash(
      { key: rss.key, hfunc: rss.hfunc, keyConfigurable: rss.keyConfigurable },
      ports ? { srcIp: t.srcIp, dstIp: t.dstIp, srcPort: t.srcPort, dstPort: t.dstPort } : t,
    );
    const indirIndex = hash % rss.indir.length;
    let ntupleRule: number | null = null;
    let queue = rss.indir[indirIndex]!;
    for (const r of eth0.ntupleRules()) {
      if ((r.flowType === 'tcp4') !== (t.proto === 'tcp')) continue;
      if (r.flowType === 'udp4' && t.proto !== 'udp') continue;
      if (r.srcIp !== undefined && r.srcIp !== t.srcIp) continue;
      if (r.dstIp !== undefined && r.dstIp !== t.dstIp) continue;
      if (r.srcPort !== undefined && r.srcPort !== t.srcPort) continue;
      if (r.dstPort !== undefined && r.dstPort !== t.dstPort) continue;
      ntupleRule = r.loc;
      queue = r.action;
      break;
    }
    return {
      hashFunction: rss.keyConfigurable ? rss.hfunc : 'toeplitz (device default key, symmetric)',
      keyConfigurable: rss.keyConfigurable,
      hash,
      indirIndex,
      indirSize: rss.indir.length,
      queue,
      cpu: eth0.vcpuForQueue(queue).index,
      ntupleRule,
    };
  }
}
