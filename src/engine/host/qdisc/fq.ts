/**
 * fq: the Fair Queue packet scheduler with per-flow pacing (LINUX net/sched/sch_fq.c). Flows keyed
 * by socket; new flows first with initial_quantum of credit; DRR with `quantum` between flows;
 * `flow_limit` per flow (flows_plimit) and a global `limit`; pacing at min(maxrate,
 * sk_pacing_rate) once a flow's credit is spent, with the kernel's compensation for timer lateness
 * and its 1 s cap; `nextWakeNs` is the qdisc watchdog. Counters in skbs, "Sent … pkt" in wire
 * packets (docs/design.md, "Qdiscs and batches").
 *
 * Not modelled: EDT timestamps, horizon checks, priority bands and weights (Linux ≥ 6.7), garbage
 * collection of idle flows (no effect on behaviour), ce_threshold marking.
 */
import { type Packet, qdiscBatchBytes } from '../../model/packet';
import {
  admit,
  BatchDeque,
  type ClassOps,
  displaySkbs,
  displayStats,
  emptyStats,
  type FqOptions,
  pschedMtu,
  type QdiscNode,
  type QdiscOptions,
  skbsOf,
  type TcResult,
} from './common';
import type { QdiscContext, QdiscStats } from './types';

const DETACHED = 0;
const LISTED = 1;
const THROTTLED = 2;

class FqFlow {
  readonly q = new BatchDeque(8);
  credit: number;
  timeNextPacketNs = 0;
  next: FqFlow | null = null;
  state = DETACHED;
  ageNs = Number.NEGATIVE_INFINITY;
  constructor(
    readonly socketId: number,
    credit: number,
  ) {
    this.credit = credit;
  }
}

/** Singly linked FIFO of flows (allocation-free, like the kernel's fq_flow_head). */
class FlowList {
  first: FqFlow | null = null;
  last: FqFlow | null = null;
  length = 0;
  push(f: FqFlow): void {
    f.next = null;
    if (this.last) this.last.next = f;
    else this.first = f;
    this.last = f;
    this.length++;
  }
  pop(): FqFlow | null {
    const f = this.first;
    if (!f) return null;
    this.first = f.next;
    if (!this.first) this.last = null;
    f.next = null;
    this.length--;
    return f;
  }
  clear(): void {
    this.first = this.last = null;
    this.length = 0;
  }
}

export class FqQdisc implements QdiscNode {
  readonly kind = 'fq';
  handle = 0;
  parent = 0;
  readonly classOps: ClassOps | null = null;

  limit = 10000;
  flowLimit = 100;
  quantum: number;
  initialQuantum: number;
  /** bytes/s, Infinity = no maxrate. */
  maxrate = Number.POSITIVE_INFINITY;
  buckets = 1024;
  orphanMask = 1023;
  pacing = true;
  refillDelayNs = 40_000_000;
  /** 550 kbit/s in bytes/s. */
  lowRateThreshold = 68750;
  timerSlackNs = 10_000;
  horizonNs = 10_000_000_000;
  horizonDrop = true;
  ceThresholdNs = Number.POSITIVE_INFINITY;

  private readonly flows = new Map<number, FqFlow>();
  private readonly newFlows = new FlowList();
  private readonly oldFlows = new FlowList();
  private readonly throttled: FqFlow[] = [];
  /** sch->q.qlen: skbs queued (fractional for TCP GSO batches). */
  private qlenSkbs = 0;
  private backlog = 0;
  private readonly st: QdiscStats = emptyStats();
  private flowsPlimit = 0;
  private throttledEvents = 0;
  private inactive = 0;

  constructor(
    private readonly ctx: QdiscContext,
    opts?: FqOptions,
  ) {
    // fq_init: quantum = 2 * psched_mtu, initial_quantum = 10 * psched_mtu.
    this.quantum = 2 * pschedMtu(ctx);
    this.initialQuantum = 10 * pschedMtu(ctx);
    if (opts) this.apply(opts);
  }

  private apply(o: FqOptions): void {
    if (o.limit !== undefined) this.limit = o.limit;
    if (o.flowLimit !== undefined) this.flowLimit = o.flowLimit;
    if (o.quantum !== undefined) this.quantum = o.quantum;
    if (o.initialQuantum !== undefined) this.initialQuantum = o.initialQuantum;
    if (o.maxrate !== undefined) this.maxrate = o.maxrate;
    if (o.buckets !== undefined) this.buckets = o.buckets;
    if (o.orphanMask !== undefined) this.orphanMask = o.orphanMask;
    if (o.pacing !== undefined) this.pacing = o.pacing;
    if (o.refillDelayUs !== undefined) this.refillDelayNs = o.refillDelayUs * 1000;
    if (o.lowRateThreshold !== undefined) this.lowRateThreshold = o.lowRateThreshold;
    if (o.timerSlackUs !== undefined) this.timerSlackNs = o.timerSlackUs * 1000;
    if (o.horizonUs !== undefined) this.horizonNs = o.horizonUs * 1000;
    if (o.horizonDrop !== undefined) this.horizonDrop = o.horizonDrop;
    if (o.ceThresholdUs !== undefined) this.ceThresholdNs = o.ceThresholdUs * 1000;
  }

  /** fq_change validation (quantum must be > 0 and ≤ 1 MB; extack texts from sch_fq.c). */
  static validate(o: FqOptions): TcResult {
    if (o.quantum !== undefined && (o.quantum === 0 || o.quantum > 1 << 20)) {
      return { errno: 'EINVAL', extack: 'invalid quantum' };
    }
    return {};
  }

  enqueue(p: Packet, nowNs: number): void {
    let f = this.flows.get(p.flow.socketId);
    if (!f) {
      f = new FqFlow(p.flow.socketId, this.initialQuantum);
      this.flows.set(p.flow.socketId, f);
      this.inactive++;
    }
    // fq_enqueue: drop when sch->q.qlen >= limit, or the flow's qlen >= flow_limit (flows_plimit).
    const globalRoom = this.limit - this.qlenSkbs;
    const flowRoom = this.flowLimit - f.q.skbs;
    const skbs = skbsOf(p);
    if (flowRoom < globalRoom && flowRoom < skbs) this.flowsPlimit += skbs - Math.max(flowRoom, 0);
    const kept = admit(this.ctx, p, Math.min(globalRoom, flowRoom), this.st);
    if (!kept) return;
    if (f.state === DETACHED) {
      this.newFlows.push(f);
      f.state = LISTED;
      if (nowNs > f.ageNs + this.refillDelayNs) f.credit = Math.max(f.credit, this.quantum);
      this.inactive--;
    }
    kept.enqueuedAtNs = nowNs;
    f.q.pushBack(kept);
    this.qlenSkbs += skbsOf(kept);
    this.backlog += qdiscBatchBytes(kept);
  }

  /** fq_check_throttled: flows whose time has come go to the tail of the old list, earliest first. */
  private checkThrottled(nowNs: number): void {
    if (this.throttled.length === 0) return;
    this.throttled.sort((a, b) => a.timeNextPacketNs - b.timeNextPacketNs);
    let n = 0;
    while (n < this.throttled.length && this.throttled[n]!.timeNextPacketNs <= nowNs) {
      const f = this.throttled[n]!;
      f.state = LISTED;
      this.oldFlows.push(f);
      n++;
    }
    if (n > 0) this.throttled.splice(0, n);
  }

  dequeue(nowNs: number): Packet | null {
    if (this.backlog === 0) return null;
    this.checkThrottled(nowNs);
    for (;;) {
      let head = this.newFlows;
      if (!head.first) {
        head = this.oldFlows;
        if (!head.first) return null;
      }
      const f = head.first!;
      if (f.credit <= 0) {
        f.credit += this.quantum;
        head.pop();
        this.oldFlows.push(f);
        continue;
      }
      const skb = f.q.peek();
      if (!skb) {
        head.pop();
        if (head === this.newFlows && this.oldFlows.first) {
          this.oldFlows.push(f);
        } else {
          f.state = DETACHED;
          f.ageNs = nowNs;
          this.inactive++;
        }
        continue;
      }
      if (nowNs < f.timeNextPacketNs) {
        head.pop();
        f.state = THROTTLED;
        this.throttled.push(f);
        this.throttledEvents++;
        continue;
      }
      f.q.popFront();
      let plen = qdiscBatchBytes(skb);
      this.backlog -= plen;
      // Byte sums are exact integers: an empty qdisc resets the fractional skb sum (no drift).
      this.qlenSkbs = this.backlog === 0 ? 0 : this.qlenSkbs - skbsOf(skb);
      // bstats_update: wire packets (gso_segs of a GSO skb).
      this.st.packets += skb.count;
      this.st.bytes += plen;
      f.credit -= plen;
      if (!this.pacing) return skb;
      const rate = Math.min(this.maxrate, this.ctx.socketPacingRateBytesPerSec(f.socketId));
      if (rate <= this.lowRateThreshold) {
        f.credit = 0;
      } else {
        plen = Math.max(plen, this.quantum);
        if (f.credit > 0) return skb;
      }
      if (Number.isFinite(rate)) {
        let len = rate > 0 ? (plen * 1e9) / rate : 1e9;
        // "Since socket rate can change later, clamp the delay to 1 second."
        if (len > 1e9) len = 1e9;
        // Account for timer drift: the slot may start up to half a slot early.
        if (f.timeNextPacketNs) len -= Math.min(len / 2, nowNs - f.timeNextPacketNs);
        f.timeNextPacketNs = nowNs + len;
      }
      return skb;
    }
  }

  nextWakeNs(): number {
    let t = Number.POSITIVE_INFINITY;
    for (const f of this.throttled) if (f.timeNextPacketNs < t) t = f.timeNextPacketNs;
    return t;
  }
  qlen(): number {
    return this.qlenSkbs;
  }
  backlogBytes(): number {
    return this.backlog;
  }
  stats(): QdiscStats {
    return displayStats({ ...this.st, backlogBytes: this.backlog, backlogPackets: this.qlenSkbs });
  }

  dumpOptions(): Record<string, number | boolean> {
    const o: Record<string, number | boolean> = {
      limit: this.limit,
      flow_limit: this.flowLimit,
      buckets: this.buckets,
      orphan_mask: this.orphanMask,
    };
    if (!this.pacing) o.pacing = false;
    o.quantum = this.quantum;
    o.initial_quantum = this.initialQuantum;
    o.low_rate_threshold = this.lowRateThreshold;
    if (Number.isFinite(this.maxrate)) o.maxrate = this.maxrate;
    o.refill_delay = this.refillDelayNs / 1000;
    if (Number.isFinite(this.ceThresholdNs)) o.ce_threshold = this.ceThresholdNs / 1000;
    o.timer_slack = this.timerSlackNs;
    o.horizon = this.horizonNs;
    o.horizon_drop = this.horizonDrop;
    return o;
  }

  xstats(): Record<string, number> {
    return {
      flows: this.flows.size,
      inactive: this.inactive,
      throttled_flows: this.throttled.length,
      gc: 0,
      highprio: 0,
      throttled: this.throttledEvents,
      flows_plimit: displaySkbs(this.flowsPlimit),
    };
  }

  change(opts: QdiscOptions): TcResult {
    if (opts.kind !== 'fq') return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
    const v = FqQdisc.validate(opts);
    if ('errno' in v) return v;
    this.apply(opts);
    return {};
  }

  reset(): void {
    for (const f of this.flows.values()) f.q.clear();
    this.flows.clear();
    this.newFlows.clear();
    this.oldFlows.clear();
    this.throttled.length = 0;
    this.qlenSkbs = 0;
    this.backlog = 0;
    this.inactive = 0;
  }

  childQdiscs(): QdiscNode[] {
    return [];
  }
}
