/**
 * The path recorder's frame writer: packs what the probe sink holds into the data the path picture
 * is drawn from, a layout (stages and lanes per host) and frames (passages, lane occupancy and
 * peaks, drops, flows of a time window) in reusable typed arrays (path-types.ts).
 *
 * Truthful frames: a sampled frame says so (`sampled`, `stride`, totals, density).
 */
import { driverOf } from '../../catalog';
import type { ProbeStage } from '../model/probe';
import { PROBE_STAGES } from '../model/probe';
import type { Instance } from '../lab/lab';
import {
  DROP_REASON_LIST,
  fmtCount,
  hostLayerNames,
  placementLabel,
  REASON_CODE,
  STAGE_LABEL,
} from './path-names';
import type { Lane, PathSink } from './path-sink';
import {
  allocPathFrame,
  PASSAGE_DROPPED as DROPPED,
  PASSAGE_INSIDE as INSIDE,
  type PathFrame,
  type PathInstanceLayout,
  type PathLane,
  type PathLayout,
  type PathStageLayout,
  type PathStagePart,
} from './path-types';

const PASSAGE_DROPPED: number = DROPPED;
const PASSAGE_INSIDE: number = INSIDE;
const STAGE_CODE = new Map<string, number>(PROBE_STAGES.map((s, i) => [s, i]));
const FABRIC = STAGE_CODE.get('fabric')!;
const NITRO_EGRESS = STAGE_CODE.get('nitro_egress')!;
const NITRO_INGRESS = STAGE_CODE.get('nitro_ingress')!;
const TX_RING = STAGE_CODE.get('tx_ring')!;
const fmtUs = (ns: number) => Number((ns / 1000).toFixed(2));

export class PathFrameWriter {
  private layoutSig = '';
  private layoutRev = 0;

  constructor(private readonly s: PathSink) {}

  layout(): PathLayout {
    const lab = this.s.lab;
    const instances: PathInstanceLayout[] = this.s.hostNames.map((name, index) =>
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
      const p = this.s.lab.params;
      const netback = (dir: 'tx' | 'rx'): PathStagePart => ({
        id: 'netback',
        label: 'netback (dom0)',
        short: 'netback',
        detail:
          dir === 'tx'
            ? `wakes ${fmtUs(p.xenDom0WakeNs)} µs, polls ≤ ${p.xenNetbackTxBatch}, ${fmtUs(p.xenNetbackTxPacketNs)} µs/pkt`
            : `softirq ${fmtUs(p.xenDom0RxPacketNs)} µs (livelock), queue ${Math.round(p.xenNetbackRxQueueBytes / 1024)} KiB + ${p.xenNetbackRxQueuePackets}, copies ≤ 64`,
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
      reuse && reuse.capacity > 0 && reuse.laneCapacity >= this.s.lanes.length
        ? reuse
        : allocPathFrame(reuse?.capacity ?? capacity, Math.max(512, this.s.lanes.length * 2));
    // packets due in an RX ring land lazily, on the device's next read (EnaDevice.receiveAt): read
    // each device so the lanes show what the rings hold now (landing is exact whenever it happens)
    for (const inst of this.s.lab.instances.values()) inst.host.eth0.occupancy();
    this.s.flushFabric();
    f.fromNs = fromNs;
    f.toNs = toNs;
    f.revision = this.layoutRev;
    f.detail = this.s.detailed;
    const nl = Math.min(this.s.lanes.length, f.laneCapacity);
    f.lanes = nl;
    f.laneDensity.fill(0, 0, nl);
    f.laneDrops.fill(0, 0, nl);

    // pass 1: count what overlaps the window (completed passages, then open batches)
    const P = this.s.P;
    const oldest = Math.max(0, this.s.nextId - P);
    const first = this.firstExitAtOrAfter(fromNs, oldest);
    let total = 0;
    let totalPackets = 0;
    for (let id = first; id < this.s.nextId; id++) {
      const k = id % P;
      const e = this.s.pEnter[k]!;
      if (e > toNs || this.s.pExit[k]! < fromNs) continue;
      total++;
      const c = this.s.pCount[k]!;
      totalPackets += c;
      const li = this.s.pLane[k]!;
      if (li < nl) {
        if (e >= fromNs) f.laneDensity[li]! += c;
        if (this.s.pFate[k] === PASSAGE_DROPPED) f.laneDrops[li]! += c;
      }
    }
    for (const lane of this.s.lanes) {
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
    for (let id = first; id < this.s.nextId && n < f.capacity; id++) {
      const k = id % P;
      if (this.s.pEnter[k]! > toNs || this.s.pExit[k]! < fromNs) continue;
      if (seen++ % stride !== 0) continue;
      const lane = this.s.lanes[this.s.pLane[k]!]!;
      const fl = this.s.flows.get(this.s.pFlow[k]!);
      f.id[n] = id;
      f.seq[n] = this.s.pSeq[k]!;
      f.enterNs[n] = this.s.pEnter[k]!;
      f.exitNs[n] = this.s.pExit[k]!;
      f.host[n] = lane.host;
      f.stage[n] = lane.stage;
      f.queue[n] = lane.queue;
      f.flow[n] = this.s.pFlow[k]!;
      f.count[n] = this.s.pCount[k]!;
      f.bytes[n] = this.s.pCount[k]! * (fl?.sizeBytes ?? 0);
      f.cpu[n] = this.s.pCpu[k]!;
      f.fate[n] = this.s.pFate[k]!;
      f.reason[n] = this.s.pReason[k]!;
      flowSet.add(this.s.pFlow[k]!);
      n++;
    }
    for (const lane of this.s.lanes) {
      for (const [flowId, o] of lane.open) {
        const fl = this.s.flows.get(flowId);
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
    const cards = this.s.hostNames.map((h) => this.s.lab.instances.get(h)!.nitro);
    for (let i = 0; i < nl; i++) {
      const lane = this.s.lanes[i]!;
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
      if (!this.s.detailed) f.laneDensity[i] = lane.entered - lane.enteredAtFrame;
      lane.enteredAtFrame = lane.entered;
    }

    // drops in the window (the newest when there are more than the frame holds)
    // (recorded in order; a drop's time is at most one fabric delay after it was recorded)
    const D = this.s.D;
    let lo = Math.max(0, this.s.nextDrop - D);
    let hi = this.s.nextDrop;
    const dFrom = dropsFromNs - this.s.fabricNs;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.s.dPush[mid % D]! < dFrom) lo = mid + 1;
      else hi = mid;
    }
    const inWindow: number[] = [];
    let dropTotal = 0;
    for (let i = lo; i < this.s.nextDrop; i++) {
      const t = this.s.dNs[i % D]!;
      if (t < dropsFromNs || t > toNs) continue;
      inWindow.push(i);
      dropTotal += this.s.dCount[i % D]!;
    }
    let nd = 0;
    for (let j = Math.max(0, inWindow.length - f.dropCapacity); j < inWindow.length; j++) {
      const k = inWindow[j]! % D;
      const lane = this.s.lanes[this.s.dLane[k]!]!;
      f.dropNs[nd] = this.s.dNs[k]!;
      f.dropHost[nd] = lane.host;
      f.dropStage[nd] = lane.stage;
      f.dropQueue[nd] = lane.queue;
      f.dropFlow[nd] = this.s.dFlow[k]!;
      f.dropCount[nd] = this.s.dCount[k]!;
      f.dropReason[nd] = this.s.dReason[k]!;
      flowSet.add(this.s.dFlow[k]!);
      nd++;
    }
    f.drops = nd;
    f.dropTotal = dropTotal;

    // flows in the frame: where they go and the colour keys
    let nf = 0;
    for (const id of flowSet) {
      if (nf >= f.flowCapacity) break;
      const fl = this.s.flows.get(id);
      if (!fl) continue;
      f.flowId[nf] = id;
      f.flowSrc[nf] = fl.src;
      f.flowDst[nf] = fl.dst;
      f.flowTxQueue[nf] = fl.txq;
      const rx = this.s.rxSteering(fl);
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
    let hi = this.s.nextId;
    const from = t - this.s.fabricNs;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.s.pPush[mid % this.s.P]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Occupancy of a lane at toNs and its peak over [fromNs, toNs] (from the change points held). */
  private occupancy(lane: Lane, fromNs: number, toNs: number): [number, number] {
    const s = this.s;
    const len = s.histLen(lane);
    if (len === 0) return [0, 0];
    // last change point ≤ t, as a logical index (−1: before the oldest held)
    const lastAtOrBefore = (t: number): number => {
      let lo = 0;
      let hi = len;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lane.histT[s.histIndex(lane, mid)]! <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo - 1;
    };
    const iTo = lastAtOrBefore(toNs);
    const at = iTo < 0 ? 0 : lane.histV[s.histIndex(lane, iTo)]!;
    const iFrom = lastAtOrBefore(fromNs);
    let peak = iFrom < 0 ? 0 : lane.histV[s.histIndex(lane, iFrom)]!;
    for (let i = Math.max(0, iFrom + 1); i <= iTo; i++) {
      const v = lane.histV[s.histIndex(lane, i)]!;
      if (v > peak) peak = v;
    }
    return [at, Math.max(peak, at)];
  }
}

function gbps(bps: number): string {
  // up to 3 decimals, trailing zeros dropped: 12.5, 0.781, 10
  return `${Number((bps / 1e9).toFixed(3))} Gbps`;
}

function pps(n: number): string {
  return n >= 1e6 ? `${Number((n / 1e6).toFixed(2))} Mpps` : `${Number((n / 1e3).toFixed(0))} kpps`;
}
