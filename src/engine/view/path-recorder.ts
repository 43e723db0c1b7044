/**
 * The path recorder: listens to the lab's stage probe and keeps what the visual lab draws and
 * inspects: batch passages through every (host, stage, queue) with enter and exit times, occupancy
 * history per lane, drops with their reason, and what explains where RSS put each flow and what
 * the Nitro card decided.
 *
 * Guarantees: observational (copies what it needs during the probe call, never schedules or
 * mutates); bounded memory (ring buffers; what fell out is reported as expired, never invented);
 * truthful frames (a sampled frame says so: `sampled`, `stride`, totals, density); a leave or drop
 * is matched to the oldest open packets of its flow in that lane, since stages are FIFO per flow.
 */
import { driverOf, PER_FLOW_LIMIT_GBPS } from '../../catalog';
import type { Figure } from '../../catalog/figure';
import type { ProbeSink, ProbeStage } from '../core/probe';
import { PROBE_STAGES } from '../core/probe';
import { enaRxHash } from '../host/rss';
import type { Instance, Lab } from '../lab';
import type { DropReason } from '../model/drop-reasons';
import type { FiveTuple, Packet } from '../model/packet';
import { connectionKey, tupleKey } from '../nitro/flow-table';
import { MODEL_PARAMS, type ParamName } from '../params';
import { evaluateFlow, vpcState } from '../vpc';
import {
  allocPathFrame,
  PASSAGE_DROPPED as DROPPED,
  PASSAGE_INSIDE as INSIDE,
  PASSAGE_LEFT as LEFT,
  type PacketInspection,
  type PacketRef,
  type PacketStageVisit,
  type PathFrame,
  type PathInstanceLayout,
  type PathLane,
  type PathLayout,
  type PathStageLayout,
  type PathStagePart,
  type NitroTables,
  type StageInspection,
  type StageParam,
} from './path-types';

/**
 * Every drop reason, in a fixed order: frame reason codes are 1 + the index here. A record keyed by
 * the union makes the compiler ask for a new reason here when the model adds one.
 */
const REASON_ORDER: Record<DropReason, number> = {
  bw_out_allowance_exceeded: 0,
  bw_in_allowance_exceeded: 1,
  pps_allowance_exceeded: 2,
  flow_limit_exceeded: 3,
  igw_limit_exceeded: 4,
  rx_ring_full: 5,
  qdisc_overlimit: 6,
  codel_drop: 7,
  fq_codel_memory_limit: 8,
  socket_rcvbuf_full: 9,
  no_listener: 10,
  mtu_exceeded: 11,
  conntrack_allowance_exceeded: 12,
  vpc_route: 13,
  nacl_deny: 14,
  sg_deny: 15,
  linklocal_allowance_exceeded: 16,
  ip_reassembly_failed: 17,
  srd_retransmitted: 18,
  card_bandwidth_exceeded: 19,
  xen_backend_queue_full: 20,
};
export const DROP_REASON_LIST: readonly DropReason[] = (Object.keys(REASON_ORDER) as DropReason[]).sort(
  (a, b) => REASON_ORDER[a] - REASON_ORDER[b],
);
const REASON_CODE = new Map<string, number>(DROP_REASON_LIST.map((r, i) => [r, i + 1]));
const STAGE_CODE = new Map<string, number>(PROBE_STAGES.map((s, i) => [s, i]));
/** Passage fates as module constants (the hot path reads them on every probe call). */
const PASSAGE_LEFT: number = LEFT;
const PASSAGE_DROPPED: number = DROPPED;
const PASSAGE_INSIDE: number = INSIDE;
const FABRIC = STAGE_CODE.get('fabric')!;
const NITRO_EGRESS = STAGE_CODE.get('nitro_egress')!;
const NITRO_INGRESS = STAGE_CODE.get('nitro_ingress')!;
const TX_RING = STAGE_CODE.get('tx_ring')!;

const STAGE_LABEL: Record<ProbeStage, string> = {
  socket_tx: 'Socket (send buffer)',
  qdisc: 'qdisc',
  tx_ring: 'TX rings',
  nitro_egress: 'Nitro card · egress',
  fabric: 'VPC fabric',
  nitro_ingress: 'Nitro card · ingress',
  rx_ring: 'RX rings',
  socket_rx: 'Socket (receive buffer)',
};

/**
 * What an instance's network layer and its stages are called in the picture: the Nitro card, or on
 * a Xen host what is there instead (no Nitro card is drawn where there is none).
 */
export function hostLayerNames(inst: Instance): {
  layer: string;
  stage: Partial<Record<ProbeStage, string>>;
} {
  const gen = inst.spec.nitroGeneration.value;
  switch (inst.path) {
    case 'nitro':
      return { layer: 'Nitro card', stage: {} };
    case 'xen-ena':
      return {
        layer: 'ENA on a Xen host',
        stage: {
          nitro_egress: 'ENA device · VPC egress',
          nitro_ingress: 'ENA device · VPC ingress',
        },
      };
    case 'xen-sriov': {
      const layer = gen === 1 ? 'Nitro v1 card behind the 82599 VF' : 'Intel 82599 VF · host VPC layer';
      return {
        layer,
        stage: {
          tx_ring: 'VF TX rings (ixgbevf)',
          nitro_egress: gen === 1 ? 'Nitro v1 · egress' : 'Xen host VPC · egress',
          nitro_ingress: gen === 1 ? 'Nitro v1 · ingress' : 'Xen host VPC · ingress',
          rx_ring: 'VF RX rings (ixgbevf)',
        },
      };
    }
    case 'xen-pv':
      return {
        layer: 'Xen dom0: netback + VPC',
        stage: {
          tx_ring: 'netfront TX ring',
          nitro_egress: 'dom0 netback · egress',
          nitro_ingress: 'dom0 netback · ingress',
          rx_ring: 'netfront RX ring',
        },
      };
  }
}

const fmtUs = (ns: number) => Number((ns / 1000).toFixed(2));

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

interface OpenBatch {
  enterNs: number;
  count: number;
  seq: number;
}

interface Lane {
  readonly index: number;
  readonly host: number;
  readonly stage: number;
  readonly queue: number;
  occ: number;
  entered: number;
  /** `entered` at the previous frame (density while only counting). */
  enteredAtFrame: number;
  left: number;
  dropped: number;
  readonly dropsByReason: Map<number, number>;
  /** Occupancy change points: ring of (t, occ). */
  readonly histT: Float64Array;
  readonly histV: Float64Array;
  histStart: number;
  histLen: number;
  /** Open batches per flow, oldest first (array + head index). */
  readonly open: Map<number, { q: OpenBatch[]; head: number }>;
}

interface FlowInfo {
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
const seqUnit = (f: FlowInfo): number => (f.seqBytes ? f.payloadBytes : 1);

/**
 * A token bucket's level for the stage inspector. A batch that conforms takes its whole cost, so a
 * bucket can be below empty after it; that shows as a debt, not as a negative fill.
 */
export function bucketLevelText(tokens: number, depth: number, unit: string): string {
  return tokens >= 0
    ? `${fmtCount(tokens)} of ${fmtCount(depth)} ${unit}`
    : `empty, ${fmtCount(-tokens)} ${unit} owed (of ${fmtCount(depth)}): the last batch took more than was left`;
}

export class PathRecorder implements ProbeSink {
  private readonly P: number;
  private readonly D: number;
  private readonly H: number;
  private readonly maxOpen: number;
  // ---- completed passages (ring, in exit-time order)
  private nextId = 0;
  /** Simulated time each passage was recorded (monotonic; its exit is at most one fabric delay later). */
  private readonly pPush: Float64Array;
  private readonly pEnter: Float64Array;
  private readonly pExit: Float64Array;
  private readonly pLane: Uint32Array;
  private readonly pFlow: Uint32Array;
  private readonly pCount: Uint32Array;
  private readonly pSeq: Float64Array;
  private readonly pCpu: Int16Array;
  private readonly pFate: Uint8Array;
  private readonly pReason: Uint8Array;
  // ---- drops (ring, in time order)
  private nextDrop = 0;
  private readonly dNs: Float64Array;
  private readonly dPush: Float64Array;
  private readonly dLane: Uint32Array;
  private readonly dFlow: Uint32Array;
  private readonly dCount: Uint32Array;
  private readonly dReason: Uint8Array;
  // ---- lanes and flows
  private readonly lanes: Lane[] = [];
  private readonly laneByKey = new Map<number, Lane>();
  private readonly flows = new Map<number, FlowInfo>();
  /** The same flows by id (small run-unique integers), and lanes by (host, stage) then queue: the hot-path lookups. */
  private readonly flowById: (FlowInfo | undefined)[] = [];
  private readonly laneByHs: (Lane[] | undefined)[] = [];
  private readonly hostNames: string[];
  private readonly hostByIp = new Map<string, number>();
  private detachFn: (() => void) | null = null;
  private layoutSig = '';
  private layoutRev = 0;
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
    private readonly lab: Lab,
    opts: PathRecorderOptions = {},
  ) {
    this.P = opts.passageHistory ?? 1 << 16;
    this.D = opts.dropHistory ?? 1 << 13;
    this.H = opts.laneHistory ?? 1024;
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

  enter(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet): void {
    if (this.fabricHead < this.fabricPending.length) this.flushFabric();
    if (stage === 'nitro_ingress') atNs += this.fabricNs;
    const lane = this.lane(host, stage, queue);
    lane.entered += pkt.count;
    lane.occ += pkt.count;
    this.recordOcc(lane, atNs);
    if (!this.detail) {
      // counts only (a fast-forward): the flow is registered, its sizes refreshed with detail
      const known = this.flowById[pkt.flow.id];
      if (known === undefined) this.flow(pkt);
      else if (known.txq < 0 && pkt.txq >= 0) known.txq = pkt.txq;
      return;
    }
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

  leave(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet, cpu: number): void {
    if (this.fabricHead < this.fabricPending.length) this.flushFabric();
    const lane = this.lane(host, stage, queue);
    lane.left += pkt.count;
    if (!this.detail) {
      // counts only: the occupancy falls (a flight on the fabric lands when it leaves)
      this.release(lane, stage === 'nitro_ingress' ? atNs + this.fabricNs : atNs, pkt.count);
      return;
    }
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

  /** Packets left a lane (or died inside it): its occupancy falls (never below what the probe said entered). */
  private release(lane: Lane, atNs: number, count: number): void {
    lane.occ = lane.occ > count ? lane.occ - count : 0;
    this.recordOcc(lane, atNs);
  }

  /**
   * Detail on (the default): every batch is followed through every stage (passages, dwell times,
   * inspectable packets). Off: only counts, occupancy and drops are kept, at a fraction of the cost,
   * for long stretches the view does not animate. Turning it back on forgets the batches that were
   * inside (their exits show as zero-length passages for the time the queues take to turn over).
   */
  setDetail(on: boolean): void {
    if (on && !this.detail) for (const lane of this.lanes) lane.open.clear();
    this.detail = on;
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
      lane.open.clear();
      lane.enteredAtFrame = lane.entered;
    }
    this.nextId = 0;
    this.forgottenOpen = 0;
    this.detail = true;
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
  private get fabricNs(): number {
    if (this.fabricDelay < 0) this.fabricDelay = this.lab.oneWayDelayNs();
    return this.fabricDelay;
  }

  /** End the flights that have landed by now (in exit order: the delay is constant). */
  private flushFabric(): void {
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
    const lane = this.lane(host, stage, queue);
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
    const H = this.H;
    if (lane.histLen > 0) {
      const last = (lane.histStart + lane.histLen - 1) % H;
      if (lane.histT[last] === atNs) {
        lane.histV[last] = lane.occ;
        return;
      }
    }
    let k: number;
    if (lane.histLen < H) k = (lane.histStart + lane.histLen++) % H;
    else {
      k = lane.histStart;
      lane.histStart = (lane.histStart + 1) % H;
    }
    lane.histT[k] = atNs;
    lane.histV[k] = lane.occ;
  }

  private lane(host: number, stage: ProbeStage, queue: number): Lane {
    // hot path (every probe call): arrays indexed by (host, stage) then queue, no hashing
    const s = stageIndex(stage);
    const hs = host * 16 + s;
    let byQueue = this.laneByHs[hs];
    if (byQueue === undefined) this.laneByHs[hs] = byQueue = [];
    let l = byQueue[queue];
    if (l === undefined) {
      const key = hs * 65536 + queue;
      l = {
        index: this.lanes.length,
        host,
        stage: s,
        queue,
        occ: 0,
        entered: 0,
        enteredAtFrame: 0,
        left: 0,
        dropped: 0,
        dropsByReason: new Map(),
        histT: new Float64Array(this.H),
        histV: new Float64Array(this.H),
        histStart: 0,
        histLen: 0,
        open: new Map(),
      };
      this.lanes.push(l);
      this.laneByKey.set(key, l);
      byQueue[queue] = l;
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

  // ------------------------------------------------------------------ layout

  /** A stage's name in the picture on this host (a Xen host has no Nitro card: see hostLayerNames). */
  private labelOf(host: string, stage: ProbeStage): string {
    const inst = this.lab.instance(host);
    return (inst && hostLayerNames(inst).stage[stage]) ?? STAGE_LABEL[stage];
  }

  layout(): PathLayout {
    const lab = this.lab;
    const instances: PathInstanceLayout[] = this.hostNames.map((name, index) =>
      this.instanceLayout(lab.instances.get(name)!, index),
    );
    const fabric: PathStageLayout = {
      code: FABRIC,
      name: 'fabric',
      label: STAGE_LABEL.fabric,
      side: 'fabric',
      lanes: [{ queue: 0, label: 'in flight', capacityPackets: 0, cpu: -1 }],
      parts: [{ id: 'placement', label: placementLabel(lab.placement), detail: `MTU ${lab.pathMtu()}` }],
    };
    const sig = JSON.stringify(
      instances.map((i) => i.stages.map((s) => s.lanes.map((l) => l.capacityPackets))),
    );
    if (sig !== this.layoutSig) {
      this.layoutSig = sig;
      this.layoutRev++;
    }
    return {
      revision: this.layoutRev,
      stages: [...PROBE_STAGES],
      dropReasons: ['', ...DROP_REASON_LIST],
      placement: lab.placement,
      placementLabel: placementLabel(lab.placement),
      fabricOneWayNs: lab.oneWayDelayNs(),
      instances,
      fabric,
    };
  }

  private instanceLayout(inst: Instance, index: number): PathInstanceLayout {
    const eth0 = inst.host.eth0;
    const nq = eth0.queueCount;
    const rings = eth0.rings();
    const ringLanes = (size: number, kind: string): PathLane[] =>
      Array.from({ length: nq }, (_, q) => ({
        queue: q,
        label: `${kind} ${q}`,
        capacityPackets: size,
        cpu: eth0.vcpuForQueue(q).index,
      }));
    const mq = inst.host.qdisc.rootKind === 'mq';
    const one = (label: string): PathLane[] => [{ queue: 0, label, capacityPackets: 0, cpu: -1 }];
    const card = inst.nitro;
    const cfg = card.cfg;
    const credits = card.creditsOut;
    const egressParts: PathStagePart[] = [
      { id: 'flow-lookup', label: 'Flow lookup', short: 'Lookup', detail: 'hit: fast path' },
      { id: 'conntrack', label: 'Conntrack', detail: `max ${fmtCount(cfg.conntrackAllowance)}` },
      { id: 'flow-limit', label: 'Per-flow limit', short: 'Flow limit', detail: gbps(cfg.flowLimitBps) },
      {
        id: 'bw-out',
        label: 'Bandwidth out',
        short: 'BW out',
        detail: credits
          ? `${gbps(cfg.peakBps)}, base ${Number((cfg.baselineBps / 1e9).toFixed(3))}`
          : gbps(cfg.peakBps),
      },
      { id: 'pps', label: 'PPS (in + out)', short: 'PPS', detail: pps(cfg.ppsAllowance) },
    ];
    const ingressParts: PathStagePart[] = [
      { id: 'flow-lookup', label: 'Flow lookup', short: 'Lookup', detail: 'hit: fast path' },
      {
        id: 'bw-in',
        label: 'Bandwidth in',
        short: 'BW in',
        detail: credits
          ? `${gbps(cfg.peakBps)}, base ${Number((cfg.baselineBps / 1e9).toFixed(3))}`
          : gbps(cfg.peakBps),
      },
      { id: 'pps', label: 'PPS (in + out)', short: 'PPS', detail: pps(cfg.ppsAllowance) },
    ];
    const names = hostLayerNames(inst);
    if (inst.backend !== null) {
      // the PV path: dom0's netback before the VPC layer on the way out, after it on the way in
      const p = this.lab.params;
      const netback = (dir: 'tx' | 'rx'): PathStagePart => ({
        id: 'netback',
        label: 'netback (dom0)',
        short: 'netback',
        detail:
          dir === 'tx'
            ? `${fmtUs(p.xenNetbackTxPacketNs)} µs/pkt + copy`
            : `${fmtUs(p.xenNetbackRxPacketNs)} µs/pkt + copy, queue ${p.xenNetbackRxQueuePackets}`,
      });
      egressParts.unshift(netback('tx'));
      ingressParts.push(netback('rx'));
    }
    const st = (
      name: ProbeStage,
      side: 'tx' | 'rx',
      lanes: PathLane[],
      parts: PathStagePart[] = [],
    ): PathStageLayout => ({
      code: STAGE_CODE.get(name)!,
      name,
      label: names.stage[name] ?? STAGE_LABEL[name],
      side,
      lanes,
      parts,
    });
    const qdiscLanes = mq
      ? Array.from({ length: nq }, (_, q) => ({ queue: q, label: `txq ${q}`, capacityPackets: 0, cpu: -1 }))
      : one(inst.host.qdisc.rootKind);
    return {
      index,
      name: inst.name,
      type: inst.spec.name,
      ip: inst.host.ip,
      vcpus: inst.host.vcpus.length,
      queues: nq,
      nitroGeneration: inst.spec.nitroGeneration.value,
      path: inst.path,
      driver: driverOf(inst.path),
      hostLayerLabel: names.layer,
      stages: [
        st('socket_tx', 'tx', one('send buffer')),
        st('qdisc', 'tx', qdiscLanes, [
          { id: 'root', label: inst.host.qdisc.rootKind, detail: 'root qdisc' },
        ]),
        st('tx_ring', 'tx', ringLanes(rings.tx, 'TX')),
        st('nitro_egress', 'tx', one(inst.backend ? 'backend queue' : 'shaper queue'), egressParts),
        st('nitro_ingress', 'rx', one(inst.backend ? 'backend queue' : 'shaper queue'), ingressParts),
        st('rx_ring', 'rx', ringLanes(rings.rx, 'RX')),
        st('socket_rx', 'rx', one('receive buffer')),
      ],
    };
  }

  // ------------------------------------------------------------------ frames

  /**
   * The passages overlapping [fromNs, toNs] (capped at the frame's capacity, evenly sampled beyond),
   * per-lane occupancy at toNs and its peak inside the window, and the drops inside the window.
   * `reuse`: a frame handed back by the UI (its buffers are overwritten). `dropsFromNs`: where the
   * drop list starts (earlier than fromNs lets the view keep recent drops marked for a while).
   */
  frame(fromNs: number, toNs: number, reuse?: PathFrame, capacity = 5000, dropsFromNs = fromNs): PathFrame {
    const f =
      reuse && reuse.capacity > 0 && reuse.laneCapacity >= this.lanes.length
        ? reuse
        : allocPathFrame(reuse?.capacity ?? capacity, Math.max(512, this.lanes.length * 2));
    // packets due in an RX ring land lazily, on the device's next read (EnaDevice.receiveAt): read
    // each device so the lanes show what the rings hold now (landing is exact whenever it happens)
    for (const inst of this.lab.instances.values()) inst.host.eth0.occupancy();
    this.flushFabric();
    f.fromNs = fromNs;
    f.toNs = toNs;
    f.revision = this.layoutRev;
    f.detail = this.detail;
    const nl = Math.min(this.lanes.length, f.laneCapacity);
    f.lanes = nl;
    f.laneDensity.fill(0, 0, nl);
    f.laneDrops.fill(0, 0, nl);

    // pass 1: count what overlaps the window (completed passages, then open batches)
    const P = this.P;
    const oldest = Math.max(0, this.nextId - P);
    const first = this.firstExitAtOrAfter(fromNs, oldest);
    let total = 0;
    let totalPackets = 0;
    for (let id = first; id < this.nextId; id++) {
      const k = id % P;
      const e = this.pEnter[k]!;
      if (e > toNs || this.pExit[k]! < fromNs) continue;
      total++;
      const c = this.pCount[k]!;
      totalPackets += c;
      const li = this.pLane[k]!;
      if (li < nl) {
        if (e >= fromNs) f.laneDensity[li]! += c;
        if (this.pFate[k] === PASSAGE_DROPPED) f.laneDrops[li]! += c;
      }
    }
    for (const lane of this.lanes) {
      for (const o of lane.open.values()) {
        for (let i = o.head; i < o.q.length; i++) {
          const b = o.q[i]!;
          if (b.enterNs > toNs) continue;
          total++;
          totalPackets += b.count;
          if (lane.index < nl && b.enterNs >= fromNs) f.laneDensity[lane.index]! += b.count;
        }
      }
    }
    const stride = total > f.capacity ? Math.ceil(total / f.capacity) : 1;
    f.sampled = stride > 1;
    f.stride = stride;
    f.totalPassages = total;
    f.totalPackets = totalPackets;

    // pass 2: fill every stride-th
    let n = 0;
    let seen = 0;
    const flowSet = new Set<number>();
    for (let id = first; id < this.nextId && n < f.capacity; id++) {
      const k = id % P;
      if (this.pEnter[k]! > toNs || this.pExit[k]! < fromNs) continue;
      if (seen++ % stride !== 0) continue;
      const lane = this.lanes[this.pLane[k]!]!;
      const fl = this.flows.get(this.pFlow[k]!);
      f.id[n] = id;
      f.seq[n] = this.pSeq[k]!;
      f.enterNs[n] = this.pEnter[k]!;
      f.exitNs[n] = this.pExit[k]!;
      f.host[n] = lane.host;
      f.stage[n] = lane.stage;
      f.queue[n] = lane.queue;
      f.flow[n] = this.pFlow[k]!;
      f.count[n] = this.pCount[k]!;
      f.bytes[n] = this.pCount[k]! * (fl?.sizeBytes ?? 0);
      f.cpu[n] = this.pCpu[k]!;
      f.fate[n] = this.pFate[k]!;
      f.reason[n] = this.pReason[k]!;
      flowSet.add(this.pFlow[k]!);
      n++;
    }
    for (const lane of this.lanes) {
      for (const [flowId, o] of lane.open) {
        const fl = this.flows.get(flowId);
        for (let i = o.head; i < o.q.length && n < f.capacity; i++) {
          const b = o.q[i]!;
          if (b.enterNs > toNs) continue;
          if (seen++ % stride !== 0) continue;
          f.id[n] = -1;
          f.seq[n] = b.seq;
          f.enterNs[n] = b.enterNs;
          f.exitNs[n] = toNs;
          f.host[n] = lane.host;
          f.stage[n] = lane.stage;
          f.queue[n] = lane.queue;
          f.flow[n] = flowId;
          f.count[n] = b.count;
          f.bytes[n] = b.count * (fl?.sizeBytes ?? 0);
          f.cpu[n] = -1;
          f.fate[n] = PASSAGE_INSIDE;
          f.reason[n] = 0;
          flowSet.add(flowId);
          n++;
        }
      }
    }
    f.n = n;

    // lanes: occupancy at toNs, peak in the window, what holds a Nitro stage's queue, and a TX
    // ring's (the egress PPS allowance gating the card's fetch, when the card's budget does)
    const cards = this.hostNames.map((h) => this.lab.instances.get(h)!.nitro);
    for (let i = 0; i < nl; i++) {
      const lane = this.lanes[i]!;
      const card = cards[lane.host];
      const held =
        card === undefined
          ? null
          : lane.stage === NITRO_EGRESS || lane.stage === NITRO_INGRESS
            ? card.heldBy(lane.stage === NITRO_EGRESS ? 'egress' : 'ingress')
            : lane.stage === TX_RING
              ? card.txHeldBy(lane.queue)
              : null;
      f.laneHost[i] = lane.host;
      f.laneStage[i] = lane.stage;
      f.laneQueue[i] = lane.queue;
      const [at, peak] = this.occupancy(lane, fromNs, toNs);
      f.laneHeld[i] =
        held === null || (lane.stage === TX_RING && at === 0) ? 0 : (REASON_CODE.get(held) ?? 0);
      f.laneOccupancy[i] = at;
      f.lanePeak[i] = peak;
      // counts only: what entered since the previous frame is the density to show
      if (!this.detail) f.laneDensity[i] = lane.entered - lane.enteredAtFrame;
      lane.enteredAtFrame = lane.entered;
    }

    // drops in the window (the newest when there are more than the frame holds)
    // (recorded in order; a drop's time is at most one fabric delay after it was recorded)
    const D = this.D;
    let lo = Math.max(0, this.nextDrop - D);
    let hi = this.nextDrop;
    const dFrom = dropsFromNs - this.fabricNs;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.dPush[mid % D]! < dFrom) lo = mid + 1;
      else hi = mid;
    }
    const inWindow: number[] = [];
    let dropTotal = 0;
    for (let i = lo; i < this.nextDrop; i++) {
      const t = this.dNs[i % D]!;
      if (t < dropsFromNs || t > toNs) continue;
      inWindow.push(i);
      dropTotal += this.dCount[i % D]!;
    }
    let nd = 0;
    for (let j = Math.max(0, inWindow.length - f.dropCapacity); j < inWindow.length; j++) {
      const k = inWindow[j]! % D;
      const lane = this.lanes[this.dLane[k]!]!;
      f.dropNs[nd] = this.dNs[k]!;
      f.dropHost[nd] = lane.host;
      f.dropStage[nd] = lane.stage;
      f.dropQueue[nd] = lane.queue;
      f.dropFlow[nd] = this.dFlow[k]!;
      f.dropCount[nd] = this.dCount[k]!;
      f.dropReason[nd] = this.dReason[k]!;
      flowSet.add(this.dFlow[k]!);
      nd++;
    }
    f.drops = nd;
    f.dropTotal = dropTotal;

    // flows in the frame: where they go and the colour keys
    let nf = 0;
    for (const id of flowSet) {
      if (nf >= f.flowCapacity) break;
      const fl = this.flows.get(id);
      if (!fl) continue;
      f.flowId[nf] = id;
      f.flowSrc[nf] = fl.src;
      f.flowDst[nf] = fl.dst;
      f.flowTxQueue[nf] = fl.txq;
      const rx = this.rxSteering(fl);
      f.flowRxQueue[nf] = rx ? rx.queue : -1;
      f.flowRxCpu[nf] = rx ? rx.cpu : -1;
      nf++;
    }
    f.flows = nf;
    return f;
  }

  /**
   * Smallest passage id that may exit at or after t: passages are stored in recording order, and
   * none exits more than one fabric delay after it was recorded (the shifted receiving card).
   */
  private firstExitAtOrAfter(t: number, oldest: number): number {
    let lo = oldest;
    let hi = this.nextId;
    const from = t - this.fabricNs;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.pPush[mid % this.P]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Occupancy of a lane at toNs and its peak over [fromNs, toNs] (from the change points held). */
  private occupancy(lane: Lane, fromNs: number, toNs: number): [number, number] {
    const H = this.H;
    if (lane.histLen === 0) return [0, 0];
    // last change point ≤ t, as a logical index (−1: before the oldest held)
    const lastAtOrBefore = (t: number): number => {
      let lo = 0;
      let hi = lane.histLen;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lane.histT[(lane.histStart + mid) % H]! <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo - 1;
    };
    const iTo = lastAtOrBefore(toNs);
    const at = iTo < 0 ? 0 : lane.histV[(lane.histStart + iTo) % H]!;
    const iFrom = lastAtOrBefore(fromNs);
    let peak = iFrom < 0 ? 0 : lane.histV[(lane.histStart + iFrom) % H]!;
    for (let i = Math.max(0, iFrom + 1); i <= iTo; i++) {
      const v = lane.histV[(lane.histStart + i) % H]!;
      if (v > peak) peak = v;
    }
    return [at, Math.max(peak, at)];
  }

  // ------------------------------------------------------------------ inspectors

  private rxSteering(fl: FlowInfo) {
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

  /** Everything known about one passage's packet: tuple, steering, flow setup, each stage passed. */
  inspectPacket(ref: PacketRef): PacketInspection | null {
    let id = -1;
    let fl: FlowInfo | undefined;
    let seq: number;
    let count: number;
    /** When the inspected batch was seen: the same (flow, seq) met elsewhere is taken nearest this. */
    let refNs: number;
    if ('id' in ref) {
      id = ref.id;
      if (!(id >= 0 && id < this.nextId) || id < this.nextId - this.P) return null;
      const k = id % this.P;
      fl = this.flows.get(this.pFlow[k]!);
      seq = this.pSeq[k]!;
      count = this.pCount[k]!;
      refNs = this.pEnter[k]!;
    } else {
      fl = this.flows.get(ref.flow);
      seq = ref.seq;
      count = ref.count ?? 1;
      refNs = this.lab.nowNs;
    }
    if (!fl) return null;
    const expired = false;
    // the packet is the batch's first packet: follow (flow, seq) through every stage
    const unit = seqUnit(fl);
    const found = new Map<number, number>(); // lane index → passage id
    const oldest = Math.max(0, this.nextId - this.P);
    for (let j = oldest; j < this.nextId; j++) {
      const m = j % this.P;
      if (this.pFlow[m] !== fl.id) continue;
      const s = this.pSeq[m]!;
      const end = s + Math.max(1, this.pCount[m]! * unit);
      if (seq < s || seq >= end) continue;
      // a sequence number can recur (pure ACKs carry the same one, retransmissions resend it): per
      // stage, keep the passage nearest in time to the inspected one
      const li = this.pLane[m]!;
      const prev = found.get(li);
      if (
        prev === undefined ||
        Math.abs(this.pEnter[m]! - refNs) < Math.abs(this.pEnter[prev % this.P]! - refNs)
      )
        found.set(li, j);
    }
    const visits: PacketStageVisit[] = [];
    const hostOrder = [fl.src, fl.dst];
    for (const li of [...found.keys()].sort(
      (a, b) => this.visitOrder(a, hostOrder) - this.visitOrder(b, hostOrder),
    )) {
      const j = found.get(li)!;
      const m = j % this.P;
      visits.push(this.visit(this.lanes[li]!, m, fl));
    }
    // still inside a stage (not yet left): the open batch holding seq
    for (const lane of this.lanes) {
      if (visits.some((v) => v.stage === PROBE_STAGES[lane.stage] && v.host === this.hostNames[lane.host]))
        continue;
      const o = lane.open.get(fl.id);
      if (!o) continue;
      for (let i = o.head; i < o.q.length; i++) {
        const b = o.q[i]!;
        if (seq >= b.seq && seq < b.seq + Math.max(1, b.count * unit)) {
          const stage = PROBE_STAGES[lane.stage]!;
          visits.push({
            stage,
            label: this.labelOf(this.hostNames[lane.host] ?? '?', stage),
            host: this.hostNames[lane.host] ?? '?',
            queue: lane.queue,
            enterNs: b.enterNs,
            exitNs: null,
            cpu: -1,
            fate: 'inside',
            dropReason: null,
            decision: `inside since ${fmtNs(b.enterNs)} (${fmtCount(lane.occ)} packets in this ${laneNoun(stage)})`,
          });
          break;
        }
      }
    }
    visits.sort((a, b) => a.enterNs - b.enterNs);
    const srcName = fl.src >= 0 ? this.hostNames[fl.src]! : null;
    const dstName = fl.dst >= 0 ? this.hostNames[fl.dst]! : null;
    const srcInst = srcName ? this.lab.instances.get(srcName) : undefined;
    return {
      id,
      flowId: fl.id,
      tuple: { ...fl.tuple },
      sizeBytes: fl.sizeBytes,
      count,
      seq,
      sender: srcName,
      receiver: dstName,
      tx: srcInst ? { skbHash: fl.skbHash >>> 0, queue: fl.txq, queues: srcInst.host.eth0.queueCount } : null,
      rss: this.rxSteering(fl),
      flowSetup: this.flowSetup(fl),
      visits,
      expired,
    };
  }

  private visitOrder(li: number, hostOrder: number[]): number {
    const lane = this.lanes[li]!;
    const h = hostOrder.indexOf(lane.host);
    const s = PROBE_STAGES[lane.stage]!;
    // sender: its egress stages; receiver: its ingress stages
    return (h < 0 ? 2 : h) * 100 + (s === 'fabric' ? 50 : lane.stage);
  }

  private visit(lane: Lane, m: number, fl: FlowInfo): PacketStageVisit {
    const stage = PROBE_STAGES[lane.stage]!;
    const host = this.hostNames[lane.host] ?? '?';
    const enterNs = this.pEnter[m]!;
    const exitNs = this.pExit[m]!;
    const fate = this.pFate[m] === PASSAGE_DROPPED ? 'dropped' : 'left';
    const reason = fate === 'dropped' ? (DROP_REASON_LIST[this.pReason[m]! - 1] ?? 'unknown') : null;
    const dwell = exitNs - enterNs;
    const cpu = this.pCpu[m]!;
    const inst = this.lab.instances.get(host);
    let decision: string;
    if (fate === 'dropped') {
      decision = `dropped: ${reason}${dwell > 0 ? ` after ${fmtNs(dwell)} queued` : ' on arrival'}`;
    } else {
      switch (stage) {
        case 'socket_tx':
          decision = `waited ${fmtNs(dwell)} in the send buffer`;
          break;
        case 'qdisc':
          decision = `queued ${fmtNs(dwell)} in ${inst?.host.qdisc.rootKind ?? 'the qdisc'} (TX queue ${lane.queue})`;
          break;
        case 'tx_ring':
          decision = `TX ring ${lane.queue}: fetched and sent by the device after ${fmtNs(dwell)}`;
          break;
        case 'nitro_egress':
        case 'nitro_ingress': {
          const card = inst?.nitro;
          const dir = stage === 'nitro_egress' ? 'egress' : 'ingress';
          const t = dir === 'egress' ? fl.tuple : fl.tuple;
          const e = card?.flows.cache.get(tupleKey(t));
          const setup =
            e === undefined
              ? 'no flow-cache entry (no flow setup on this card)'
              : e.createdNs >= enterNs && e.createdNs <= exitNs
                ? 'flow-cache miss: processing path (route, NACL, SG), flow set up'
                : `flow-cache hit (${e.state}): accelerated path`;
          const shaped =
            dir === 'egress'
              ? 'per-flow limit, bandwidth (out) and PPS buckets'
              : 'bandwidth (in) and PPS buckets';
          decision = `${setup}; ${dwell > 0 ? `queued ${fmtNs(dwell)} in the ${shaped}` : `passed the ${shaped} without waiting`}`;
          break;
        }
        case 'fabric':
          decision = `in flight ${fmtNs(dwell)} (${placementLabel(this.lab.placement)})`;
          break;
        case 'rx_ring':
          decision = `RX ring ${lane.queue}: waited ${fmtNs(dwell)} for the interrupt and NAPI poll${cpu >= 0 ? ` on vCPU ${cpu}` : ''}`;
          break;
        case 'socket_rx':
          decision = `read by the application after ${fmtNs(dwell)} in the receive buffer`;
          break;
      }
    }
    return {
      stage,
      label: this.labelOf(host, stage),
      host,
      queue: lane.queue,
      enterNs,
      exitNs,
      cpu,
      fate,
      dropReason: reason,
      decision,
    };
  }

  /** The flow-setup decision records on the sender's and the receiver's cards (as `lab trace`). */
  private flowSetup(fl: FlowInfo): PacketInspection['flowSetup'] {
    const out: Array<PacketInspection['flowSetup'][number]> = [];
    if (fl.src < 0) return out;
    const srcName = this.hostNames[fl.src]!;
    let stages: ReturnType<typeof evaluateFlow>['stages'] = [];
    try {
      stages = evaluateFlow(vpcState(this.lab), srcName, fl.tuple.dstIp, fl.tuple).stages;
    } catch {
      stages = [];
    }
    const sides: Array<[number, 'egress' | 'ingress', string[]]> = [
      [fl.src, 'egress', ['route', 'nacl-out', 'sg-out']],
      [fl.dst, 'ingress', ['nacl-in', 'sg-in']],
    ];
    for (const [h, direction, mine] of sides) {
      if (h < 0) continue;
      const inst = this.lab.instances.get(this.hostNames[h]!)!;
      const table = inst.nitro.flows;
      const e = table.cache.get(tupleKey(fl.tuple));
      const ct = table.conntrack.get(connectionKey(fl.tuple));
      out.push({
        host: inst.name,
        direction,
        cacheState: e ? `${e.state} (epoch ${e.epoch})` : null,
        conntrack: ct ? `${ct.state}, ${ct.tracked ? 'tracked' : 'untracked'} (${ct.reason})` : null,
        stages: stages
          .filter((s) => mine.includes(s.stage))
          .map((s) => ({
            stage: s.stage,
            result: s.result,
            rule: s.rule,
            ...(s.resourceId ? { resourceId: s.resourceId } : {}),
          })),
      });
    }
    return out;
  }

  /** A stage lane's parameters (with provenance) and live state, and the history the recorder holds. */
  inspectStage(host: number, stage: string, queue: number): StageInspection | null {
    const name = this.hostNames[host];
    const s = STAGE_CODE.get(stage);
    if (name === undefined || s === undefined) return null;
    const inst = this.lab.instances.get(name)!;
    const ps = stage as ProbeStage;
    const lane = this.laneByKey.get((host * 16 + s) * 65536 + queue);
    const H = this.H;
    const historyNs: number[] = [];
    const historyOccupancy: number[] = [];
    if (lane)
      for (let i = 0; i < lane.histLen; i++) {
        historyNs.push(lane.histT[(lane.histStart + i) % H]!);
        historyOccupancy.push(lane.histV[(lane.histStart + i) % H]!);
      }
    return {
      host: name,
      stage,
      label: this.labelOf(name, ps),
      queue,
      params: this.stageParams(inst, ps, queue),
      state: this.stageState(inst, ps, queue, lane),
      historyNs,
      historyOccupancy,
      enteredPackets: lane?.entered ?? 0,
      leftPackets: lane?.left ?? 0,
      droppedPackets: lane?.dropped ?? 0,
      dropsByReason: lane
        ? [...lane.dropsByReason].map(([c, packets]) => ({ reason: DROP_REASON_LIST[c - 1] ?? '?', packets }))
        : [],
    };
  }

  private param(name: ParamName, fmt: (v: number) => string = String): StageParam {
    const p = MODEL_PARAMS[name];
    const v = this.lab.params[name];
    const overridden = this.lab.scenario.params?.[name] !== undefined;
    return {
      name,
      value: `${fmt(v)} ${p.unit}`,
      provenance: overridden ? 'assumed' : p.provenance,
      source: overridden ? 'overridden by the scenario' : p.source,
      ...(p.note ? { note: p.note } : {}),
    };
  }

  private stageParams(inst: Instance, stage: ProbeStage, queue: number): StageParam[] {
    const spec = inst.spec;
    const fig = (name: string, f: Figure<unknown>, unit = ''): StageParam => ({
      name,
      value: `${String(f.value)}${unit}`,
      provenance: f.provenance,
      source: f.source,
      ...(f.note ? { note: f.note } : {}),
    });
    const eth0 = inst.host.eth0;
    const rings = eth0.rings();
    switch (stage) {
      case 'socket_tx':
        return [
          this.param('tcpWmemDefault'),
          this.param('tcpWmemMax'),
          this.param('udpWmemDefault'),
          this.param('tcpLimitOutputBytes'),
        ];
      case 'socket_rx':
        return [this.param('tcpRmemMax'), this.param('udpRmemDefault')];
      case 'qdisc':
        return [
          {
            name: 'root qdisc',
            value: inst.host.qdisc.rootKind,
            provenance: 'documented',
            source: 'LINUX default_qdisc / tc',
          },
        ];
      case 'tx_ring':
        return [
          {
            name: 'tx ring size',
            value: `${rings.tx} descriptors (max ${rings.txMax})`,
            provenance: spec.txRingDefault.provenance,
            source: rings.tx === spec.txRingDefault.value ? spec.txRingDefault.source : 'set by ethtool -G',
          },
          fig('queues (default per ENI)', spec.defaultEnaQueuesPerEni),
          this.param('enaQueuePacketNs'),
          {
            name: 'vCPU',
            value: `${eth0.vcpuForQueue(queue).index} (queue i → vCPU i mod ${inst.host.vcpus.length})`,
            provenance: 'assumed',
            source: 'irqbalance/ENA affinity as modelled',
          },
        ];
      case 'rx_ring':
        return [
          {
            name: 'rx ring size',
            value: `${rings.rx} descriptors (max ${rings.rxMax})`,
            provenance: spec.rxRingDefault.provenance,
            source: rings.rx === spec.rxRingDefault.value ? spec.rxRingDefault.source : 'set by ethtool -G',
          },
          this.param('napiBudget'),
          this.param('groMaxBytes'),
          this.param('hostRxPacketNs'),
          fig('RSS key configurable', spec.rssKeyConfigurable),
          {
            name: 'vCPU',
            value: `${eth0.vcpuForQueue(queue).index} (queue i → vCPU i mod ${inst.host.vcpus.length})`,
            provenance: 'assumed',
            source: 'irqbalance/ENA affinity as modelled',
          },
        ];
      case 'nitro_egress':
      case 'nitro_ingress': {
        const out: StageParam[] = [
          fig('baseline bandwidth', spec.baselineBandwidthGbps, ' Gbps'),
          fig('peak bandwidth', spec.peakBandwidthGbps, ' Gbps'),
        ];
        if (spec.burstCreditSeconds) out.push(fig('burst duration', spec.burstCreditSeconds, ' s'));
        out.push(fig('PPS allowance (in + out)', spec.ppsAllowance, ' pps'));
        if (stage === 'nitro_egress') {
          const cluster = this.lab.placement === 'cluster';
          out.push(
            fig(
              'per-flow limit',
              cluster
                ? PER_FLOW_LIMIT_GBPS.insideClusterPlacementGroup
                : PER_FLOW_LIMIT_GBPS.outsideClusterPlacementGroup,
              ' Gbps',
            ),
            fig('conntrack allowance', spec.conntrackAllowanceMax),
            this.param('nitroSlowPathNs'),
            this.param('nitroSlowPathPerSgRuleNs'),
          );
        }
        out.push(
          this.param('nitroShaperQueueNs'),
          this.param('nitroShaperMinQueuePackets'),
          this.param('nitroFlowQuantumBytes'),
          this.param('nitroShaperFairBufferShare'),
          this.param('bwBucketNs'),
          this.param('ppsBucketNs'),
          this.param('nitroChargeOverheadBytes'),
        );
        return out;
      }
      case 'fabric': {
        const key: ParamName =
          this.lab.placement === 'cluster'
            ? 'fabricOneWayNsCluster'
            : this.lab.placement === 'same-az'
              ? 'fabricOneWayNsSameAz'
              : this.lab.placement === 'cross-az'
                ? 'fabricOneWayNsCrossAz'
                : 'fabricOneWayNsInternet';
        return [this.param(key)];
      }
    }
  }

  private stageState(
    inst: Instance,
    stage: ProbeStage,
    queue: number,
    lane: Lane | undefined,
  ): Array<{ name: string; value: string }> {
    const out: Array<{ name: string; value: string }> = [
      { name: 'inside now', value: `${fmtCount(lane?.occ ?? 0)} packets` },
    ];
    const card = inst.nitro;
    if (stage === 'tx_ring' || stage === 'rx_ring') {
      const occ = inst.host.eth0.occupancy();
      const pair = (stage === 'tx_ring' ? occ.tx : occ.rx)[queue];
      if (pair) out.push({ name: 'descriptors used (now / peak)', value: `${pair[0]} / ${pair[1]}` });
    }
    if (stage === 'nitro_egress' || stage === 'nitro_ingress') {
      const bw = stage === 'nitro_egress' ? card.bwOut : card.bwIn;
      // tokens as of the bucket's last update: refilling here would change the model's arithmetic.
      out.push(
        { name: 'bandwidth bucket (last update)', value: bucketLevelText(bw.tokens, bw.depth, 'bytes') },
        {
          name: 'PPS bucket (last update)',
          value: bucketLevelText(card.pps.tokens, card.pps.depth, 'packets'),
        },
      );
      const credits = stage === 'nitro_egress' ? card.creditsOut : card.creditsIn;
      if (credits)
        out.push({
          name: 'burst credits',
          value: `${((100 * credits.creditsBits) / credits.capacityBits).toFixed(1)}% (${credits.bursting ? 'bursting' : 'at baseline'})`,
        });
      const c = card.counters();
      out.push(
        {
          name: stage === 'nitro_egress' ? 'bw_out_allowance_exceeded' : 'bw_in_allowance_exceeded',
          value: String(stage === 'nitro_egress' ? c.bw_out_allowance_exceeded : c.bw_in_allowance_exceeded),
        },
        { name: 'pps_allowance_exceeded', value: String(c.pps_allowance_exceeded) },
        { name: 'conntrack_allowance_exceeded', value: String(c.conntrack_allowance_exceeded) },
      );
    }
    return out;
  }

  /** The Nitro card's tables (adjacency/mapping, conntrack, flow cache), as `lab nitro show` prints them. */
  nitroTables(host: number): NitroTables | null {
    const name = this.hostNames[host];
    if (name === undefined) return null;
    const inst = this.lab.instances.get(name)!;
    const card = inst.nitro;
    const table = card.flows;
    const now = this.lab.nowNs;
    const fmtT = (t: FiveTuple, sep: string) =>
      t.proto === 'icmp'
        ? `icmp ${t.srcIp} ${sep} ${t.dstIp}`
        : `${t.proto} ${t.srcIp}:${t.srcPort} ${sep} ${t.dstIp}:${t.dstPort}`;
    // read-only: expired entries are shown with 0 s left rather than removed (the card expires lazily)
    return {
      host: name,
      eniId: card.vpcEni?.eniId ?? null,
      adjacency: [...table.adjacency.entries()].map(([target, state]) => ({ target, state })),
      conntrack: [...table.conntrack.values()].map((c) => ({
        tuple: fmtT(c.tuple, '↔'),
        state: c.state,
        tracking: c.tracked ? 'tracked' : 'untracked',
        idleTimeoutS: c.timeoutNs / 1e9,
        idleRemainingS: Math.max(0, (c.timeoutNs - (now - c.lastSeenNs)) / 1e9),
      })),
      flowCache: [...table.cache.values()].map((e) => ({
        flow: fmtT(e.tuple, '→'),
        direction: e.direction,
        state: e.state,
        tracking: e.ct ? 'tracked' : 'untracked',
      })),
      allowance: {
        max: table.allowanceMax,
        available: Math.max(0, table.allowanceMax - table.conntrack.size),
        exceeded: table.allowanceExceeded,
      },
      flowPath: { ...card.flowStats },
    };
  }
}

function placementLabel(p: string): string {
  switch (p) {
    case 'cluster':
      return 'cluster placement group';
    case 'same-az':
      return 'same AZ';
    case 'cross-az':
      return 'across AZs';
    case 'internet':
      return 'via the internet gateway';
    default:
      return p;
  }
}

function laneNoun(stage: ProbeStage): string {
  return stage === 'tx_ring' || stage === 'rx_ring' ? 'ring' : stage === 'fabric' ? 'link' : 'queue';
}

function gbps(bps: number): string {
  // up to 3 decimals, trailing zeros dropped: 12.5, 0.781, 10
  return `${Number((bps / 1e9).toFixed(3))} Gbps`;
}

function pps(n: number): string {
  return n >= 1e6 ? `${Number((n / 1e6).toFixed(2))} Mpps` : `${Number((n / 1e3).toFixed(0))} kpps`;
}

function fmtCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Duration in the unit that reads best (ns, µs, ms, s). */
export function fmtNs(ns: number): string {
  const a = Math.abs(ns);
  if (a < 1e3) return `${Math.round(ns)} ns`;
  if (a < 1e6) return `${(ns / 1e3).toFixed(a < 1e4 ? 2 : 1)} µs`;
  if (a < 1e9) return `${(ns / 1e6).toFixed(a < 1e7 ? 2 : 1)} ms`;
  return `${(ns / 1e9).toFixed(3)} s`;
}

/**
 * PROBE_STAGE_INDEX[stage] as a switch: the recorder looks the stage up on every probe call, and a
 * keyed load with eight different string keys goes megamorphic (a tenth of the recorder's time in
 * a fast-forward, tests/bench page vs CLI).
 */
function stageIndex(stage: ProbeStage): number {
  switch (stage) {
    case 'socket_tx':
      return 0;
    case 'qdisc':
      return 1;
    case 'tx_ring':
      return 2;
    case 'nitro_egress':
      return 3;
    case 'fabric':
      return 4;
    case 'nitro_ingress':
      return 5;
    case 'rx_ring':
      return 6;
    default:
      return 7;
  }
}
