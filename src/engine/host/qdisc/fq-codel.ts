/**
 * fq_codel: Fair Queuing with Controlled Delay, as Linux's sch_fq_codel.c: flows hashed with
 * reciprocal_scale, DRR over new and old flow lists, CoDel per flow on dequeue (codel.ts: drops
 * or ECN marks spaced interval/√count), overflow drops from the fattest flow's head. Counters in
 * skbs as Linux counts them, "Sent … pkt" in wire packets.
 *
 * Sources: LINUX net/sched/sch_fq_codel.c, include/net/codel_impl.h; IPROUTE2 tc-fq_codel(8)
 * (docs/domain-facts.md §6.1–6.2). GSO skbs, batches and the simplifications: docs/design.md,
 * "fq_codel".
 */
import { storeAsDoubles } from '../../core/doubles';
import { type Packet, qdiscBatchBytes } from '../../model/packet';
import {
  BatchDeque,
  type ClassOps,
  displaySkbs,
  displayStats,
  emptyStats,
  type FqCodelOptions,
  gsoSegs,
  pschedMtu,
  type QdiscNode,
  type QdiscOptions,
  SKB_EPSILON,
  skbsOf,
  type TcResult,
} from './common';
import {
  type CodelParams,
  type CodelQueue,
  type CodelStats,
  CodelVars,
  CodelVerdict,
  codelDequeue,
  packetsOfSkb,
} from './codel';
import type { QdiscContext, QdiscStats } from './types';

/** Assumed skb truesize overhead per skb (sk_buff + shared info), for memory_limit accounting. */
export const TRUESIZE_OVERHEAD_BYTES = 512;

/**
 * skb->truesize of a batch: payload, plus one set of headers and the sk_buff overhead per skb (a GSO
 * skb holds its headers once; GSO replicates them only after the qdisc). `skbs`: its `skbsOf`.
 */
export function truesizeOf(p: Packet, skbs: number = skbsOf(p)): number {
  const headers = p.sizeBytes + 14 - p.payloadBytes;
  return p.count * p.payloadBytes + skbs * (headers + TRUESIZE_OVERHEAD_BYTES);
}

/**
 * The DRR list a flow is in. An enum, so that esbuild writes the values in where they are used: a
 * module-level `const` is read from the module's context at every use, with a type check.
 */
enum List {
  NONE = 0,
  NEW = 1,
  OLD = 2,
}

/** A ring of flow indices (each flow is in at most one list, so capacity = flows suffices). */
class IndexRing {
  private readonly buf: Int32Array;
  private head = 0;
  length = 0;
  constructor(capacity: number) {
    this.buf = new Int32Array(Math.max(capacity, 1));
  }
  push(i: number): void {
    const cap = this.buf.length;
    const k = this.head + this.length;
    this.buf[k < cap ? k : k - cap] = i;
    this.length++;
  }
  peek(): number {
    return this.buf[this.head]!;
  }
  pop(): number {
    const v = this.buf[this.head]!;
    this.head = this.head + 1 === this.buf.length ? 0 : this.head + 1;
    this.length--;
    return v;
  }
  clear(): void {
    this.head = 0;
    this.length = 0;
  }
}

export class FqCodelQdisc implements QdiscNode, CodelQueue {
  readonly kind = 'fq_codel';
  handle = 0;
  parent = 0;
  readonly classOps: ClassOps | null = null;

  limit = 10240;
  flowsCnt = 1024;
  quantum: number;
  /** CoDel's parameters (fq_codel's defaults: ECN on). */
  readonly cparams: CodelParams;
  ceThresholdNs = Number.POSITIVE_INFINITY;
  memoryLimit = 32 << 20;
  dropBatchSize = 64;

  private flows: Array<BatchDeque | undefined> = [];
  private deficit = new Float64Array(0);
  private backlogs = new Float64Array(0);
  private inList = new Uint8Array(0);
  /** Each flow's CoDel state. */
  private cvars = new CodelVars(0);
  private newFlows = new IndexRing(0);
  private oldFlows = new IndexRing(0);

  /** sch->q.qlen: skbs queued (fractional for TCP GSO batches). */
  private qlenSkbs = 0;
  private backlog = 0;
  private memoryUsage = 0;
  private readonly st: QdiscStats = emptyStats();
  private readonly cstats: CodelStats = { maxpacket: 0, ecnMark: 0 };
  private dropOverlimit = 0;
  private dropOvermemory = 0;
  private newFlowCount = 0;

  constructor(
    private readonly ctx: QdiscContext,
    opts?: FqCodelOptions,
  ) {
    // fq_codel_init: quantum = psched_mtu(dev); codel mtu = psched_mtu(dev).
    this.quantum = pschedMtu(ctx);
    this.cparams = { targetNs: 5_000_000, intervalNs: 100_000_000, mtuBytes: pschedMtu(ctx), ecn: true };
    if (opts) this.apply(opts);
    this.allocFlows();
    storeAsDoubles(this, ['qlenSkbs', 'backlog', 'memoryUsage']); // fractions, byte counts (core/doubles.ts)
  }

  private allocFlows(): void {
    const n = this.flowsCnt;
    this.flows = new Array<BatchDeque | undefined>(n);
    this.deficit = new Float64Array(n);
    this.backlogs = new Float64Array(n);
    this.inList = new Uint8Array(n);
    this.cvars = new CodelVars(n);
    this.newFlows = new IndexRing(n);
    this.oldFlows = new IndexRing(n);
  }

  private apply(o: FqCodelOptions): void {
    if (o.limit !== undefined) this.limit = o.limit;
    if (o.flows !== undefined) this.flowsCnt = o.flows;
    if (o.quantum !== undefined) this.quantum = Math.max(256, o.quantum);
    if (o.targetUs !== undefined) this.cparams.targetNs = o.targetUs * 1000;
    if (o.intervalUs !== undefined) this.cparams.intervalNs = o.intervalUs * 1000;
    if (o.ceThresholdUs !== undefined) this.ceThresholdNs = o.ceThresholdUs * 1000;
    // min(1U << 31, memory_limit): unsigned in the kernel (1 << 31 is negative in JS).
    if (o.memoryLimit !== undefined) this.memoryLimit = Math.min(2 ** 31, o.memoryLimit);
    if (o.ecn !== undefined) this.cparams.ecn = o.ecn;
    if (o.dropBatch !== undefined) this.dropBatchSize = Math.max(1, o.dropBatch);
  }

  /** Validation done by fq_codel_init/fq_codel_change before applying. */
  static validate(o: FqCodelOptions, creating: boolean): TcResult {
    if (o.flows !== undefined) {
      if (!creating) return { errno: 'EINVAL' };
      if (o.flows === 0 || o.flows > 65536) return { errno: 'EINVAL' };
    }
    if (o.limit === 0) return { errno: 'EINVAL' };
    return {};
  }

  /** reciprocal_scale(hash, flows): the kernel's fq_codel_hash. */
  flowIndex(p: Packet): number {
    return Math.floor(((p.flow.skbHash >>> 0) * this.flowsCnt) / 4294967296);
  }

  enqueue(p: Packet, nowNs: number): void {
    const idx = this.flowIndex(p);
    let q = this.flows[idx];
    if (!q) {
      q = new BatchDeque(8);
      this.flows[idx] = q;
    }
    p.enqueuedAtNs = nowNs;
    const bytes = qdiscBatchBytes(p);
    const skbs = skbsOf(p);
    q.pushBack(p, skbs);
    this.backlogs[idx]! += bytes;
    this.backlog += bytes;
    this.qlenSkbs += skbs;
    this.memoryUsage += truesizeOf(p, skbs);
    if (this.inList[idx] === List.NONE) {
      this.newFlows.push(idx);
      this.inList[idx] = List.NEW;
      this.newFlowCount++;
      this.deficit[idx] = this.quantum;
    }
    while (this.qlenSkbs > this.limit + SKB_EPSILON || this.memoryUsage > this.memoryLimit) {
      const memoryLimited = this.memoryUsage > this.memoryLimit;
      const dropped = this.dropFattest(memoryLimited);
      if (dropped === 0) break;
      this.dropOverlimit += dropped;
      if (memoryLimited) this.dropOvermemory += dropped;
    }
  }

  /** Remove batch part `p` (already taken off flow `f`'s queue) from the qdisc's counters. */
  private unaccount(f: number, p: Packet): void {
    const bytes = qdiscBatchBytes(p);
    this.backlogs[f]! -= bytes;
    this.backlog -= bytes;
    if (this.backlog === 0) {
      // Byte sums are exact integers: an empty qdisc resets the fractional sums, so no drift builds up.
      this.qlenSkbs = 0;
      this.memoryUsage = 0;
    } else {
      const skbs = skbsOf(p);
      this.qlenSkbs -= skbs;
      this.memoryUsage -= truesizeOf(p, skbs);
    }
  }

  /** fq_codel_drop: drop whole skbs from the head of the fattest flow; returns skbs dropped. */
  private dropFattest(memoryLimited: boolean): number {
    let idx = -1;
    let max = 0;
    for (let i = 0; i < this.flowsCnt; i++) {
      const b = this.backlogs[i]!;
      if (b > max) {
        max = b;
        idx = i;
      }
    }
    if (idx < 0) return 0;
    const q = this.flows[idx]!;
    const threshold = Math.floor(max / 2);
    const reason = memoryLimited ? 'fq_codel_memory_limit' : 'qdisc_overlimit';
    let len = 0;
    let i = 0;
    // Linux drops one whole skb per iteration while ++i < max_packets && len < threshold. Here an skb
    // may span several batches: `goal` is the whole-skb count the current run of drops completes.
    let goal = 0;
    do {
      const head = q.peek();
      if (!head) break;
      const segs = gsoSegs(head);
      if (i >= goal - SKB_EPSILON) {
        const skbBytes = segs * (head.sizeBytes + 14);
        goal = Math.min(this.dropBatchSize, i + Math.max(1, Math.ceil((threshold - len) / skbBytes)));
      }
      const k = Math.min(head.count, Math.max(1, Math.ceil((goal - i - SKB_EPSILON) * segs)));
      const part = q.takeFront(k)!;
      this.ctx.drop(part, part.count, reason);
      len += qdiscBatchBytes(part);
      this.unaccount(idx, part);
      const skbs = skbsOf(part);
      this.st.drops += skbs;
      i += skbs;
    } while (i < goal - SKB_EPSILON || (i < this.dropBatchSize - SKB_EPSILON && len < threshold));
    return i;
  }

  codelHead(f: number): Packet | null {
    return this.flows[f]!.peek();
  }
  codelBacklogBytes(): number {
    return this.backlog;
  }
  /** CoDel drops the head skb of flow `f`: one skb's worth of segments, across head batches. */
  codelDropHead(f: number): void {
    const q = this.flows[f]!;
    let want = 1;
    while (want > SKB_EPSILON) {
      const head = q.peek();
      if (!head) break;
      const part = q.takeFront(packetsOfSkb(head, want))!;
      this.unaccount(f, part);
      const skbs = skbsOf(part);
      this.st.drops += skbs;
      want -= skbs;
      this.ctx.drop(part, part.count, 'codel_drop');
    }
  }

  /** Take the head skb of flow `f` off its queue (one skb's worth of the head batch). */
  private takeSkb(f: number): Packet {
    const q = this.flows[f]!;
    const head = q.peek()!;
    const part = q.takeFront(gsoSegs(head))!;
    this.unaccount(f, part);
    return part;
  }

  /** codel_dequeue for flow f: the batch to send, or null if the flow emptied. */
  private codelDequeue(f: number, nowNs: number): Packet | null {
    if (this.flows[f]!.length === 0) {
      // codel_dequeue of an empty queue only ends its dropping state: done here without the call
      // (codelDequeue is too large for V8 to inline), as every packet's second dequeue finds its flow empty
      this.cvars.dropping[f] = 0;
      return null;
    }
    const verdict = codelDequeue(this, f, this.cparams, this.cvars, this.cstats, nowNs);
    if (verdict === CodelVerdict.EMPTY) return null;
    if (verdict === CodelVerdict.MARK) {
      // A GSO skb is marked as a whole: every segment GSO makes of it carries CE.
      const one = this.takeSkb(f);
      one.tos |= 3; // INET_ECN_set_ce
      return one;
    }
    const p = this.flows[f]!.popFront()!;
    this.unaccount(f, p);
    return p;
  }

  dequeue(nowNs: number): Packet | null {
    for (;;) {
      let head = this.newFlows;
      if (head.length === 0) {
        head = this.oldFlows;
        if (head.length === 0) return null;
      }
      const f = head.peek();
      if (this.deficit[f]! <= 0) {
        this.deficit[f]! += this.quantum;
        head.pop();
        this.oldFlows.push(f);
        this.inList[f] = List.OLD;
        // A batch can leave a deficit of many quanta. When this flow is alone in DRR, Linux would
        // go round the same single-entry list once per quantum: add them all at once (same result).
        if (this.deficit[f]! <= 0 && this.newFlows.length === 0 && this.oldFlows.length === 1) {
          this.deficit[f]! += (Math.floor(-this.deficit[f]! / this.quantum) + 1) * this.quantum;
        }
        continue;
      }
      const skb = this.codelDequeue(f, nowNs);
      if (!skb) {
        head.pop();
        // Force a pass through old flows to prevent starvation.
        if (head === this.newFlows && this.oldFlows.length > 0) {
          this.oldFlows.push(f);
          this.inList[f] = List.OLD;
        } else {
          this.inList[f] = List.NONE;
        }
        continue;
      }
      const bytes = qdiscBatchBytes(skb);
      this.deficit[f]! -= bytes;
      // bstats_update: wire packets (gso_segs of a GSO skb).
      this.st.packets += skb.count;
      this.st.bytes += bytes;
      return skb;
    }
  }

  nextWakeNs(): number {
    return Number.POSITIVE_INFINITY;
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
      flows: this.flowsCnt,
      quantum: this.quantum,
      target: this.cparams.targetNs / 1000,
    };
    if (Number.isFinite(this.ceThresholdNs)) o.ce_threshold = this.ceThresholdNs / 1000;
    o.interval = this.cparams.intervalNs / 1000;
    o.memory_limit = this.memoryLimit;
    if (this.cparams.ecn) o.ecn = true;
    o.drop_batch = this.dropBatchSize;
    return o;
  }

  xstats(): Record<string, number> {
    return {
      maxpacket: this.cstats.maxpacket,
      drop_overlimit: displaySkbs(this.dropOverlimit),
      new_flow_count: this.newFlowCount,
      ecn_mark: this.cstats.ecnMark,
      memory_used: Math.round(this.memoryUsage),
      drop_overmemory: displaySkbs(this.dropOvermemory),
      new_flows_len: this.newFlows.length,
      old_flows_len: this.oldFlows.length,
    };
  }

  /** Per-flow CoDel state (as `tc -s class show` on fq_codel reports it). */
  flowState(idx: number): {
    deficit: number;
    count: number;
    lastcount: number;
    ldelayNs: number;
    dropping: boolean;
  } {
    return {
      deficit: this.deficit[idx] ?? 0,
      count: this.cvars.count[idx] ?? 0,
      lastcount: this.cvars.lastCount[idx] ?? 0,
      ldelayNs: this.cvars.ldelay[idx] ?? 0,
      dropping: this.cvars.dropping[idx] === 1,
    };
  }

  change(opts: QdiscOptions): TcResult {
    if (opts.kind !== 'fq_codel') return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
    const v = FqCodelQdisc.validate(opts, false);
    if ('errno' in v) return v;
    this.apply(opts);
    // fq_codel_change: drop from the head of flows until under the new limit.
    while (this.qlenSkbs > this.limit + SKB_EPSILON || this.memoryUsage > this.memoryLimit) {
      if (this.dropFattest(this.memoryUsage > this.memoryLimit) === 0) break;
    }
    return {};
  }

  reset(): void {
    for (const q of this.flows) q?.clear();
    this.backlogs.fill(0);
    this.inList.fill(List.NONE);
    this.cvars.reset();
    this.newFlows.clear();
    this.oldFlows.clear();
    this.qlenSkbs = 0;
    this.backlog = 0;
    this.memoryUsage = 0;
  }

  childQdiscs(): QdiscNode[] {
    return [];
  }
}
