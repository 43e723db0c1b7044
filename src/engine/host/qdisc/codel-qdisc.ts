/**
 * codel: one FIFO under CoDel (codel.ts), as Linux's sch_codel.c: tail drop at `limit` skbs
 * (drop_overlimit), CoDel's drops or ECN marks at the head on dequeue. Defaults as codel_init and
 * codel_params_init: limit 1000, target 5 ms, interval 100 ms, ECN off, mtu = psched_mtu.
 * Counters in skbs as Linux counts them, "Sent … pkt" in wire packets; `drop_next` in the extended
 * statistics is relative to the last instant the qdisc saw (the kernel's, to the dump's).
 * Sources: LINUX net/sched/sch_codel.c, include/net/codel.h; IPROUTE2 tc-codel(8).
 */
import { type Packet, qdiscBatchBytes } from '../../model/packet';
import {
  type CodelParams,
  type CodelQueue,
  type CodelStats,
  CodelVars,
  CodelVerdict,
  codelDequeue,
  packetsOfSkb,
} from './codel';
import {
  admit,
  BatchDeque,
  type ClassOps,
  type CodelOptions,
  displaySkbs,
  displayStats,
  emptyStats,
  gsoSegs,
  packetsInSkbs,
  pschedMtu,
  type QdiscNode,
  type QdiscOptions,
  SKB_EPSILON,
  skbsOf,
  type TcResult,
} from './common';
import type { QdiscContext, QdiscStats } from './types';

/** DEFAULT_CODEL_LIMIT (sch_codel.c). */
export const DEFAULT_CODEL_LIMIT = 1000;

export class CodelQdisc implements QdiscNode, CodelQueue {
  readonly kind = 'codel';
  handle = 0;
  parent = 0;
  readonly classOps: ClassOps | null = null;

  limit = DEFAULT_CODEL_LIMIT;
  readonly params: CodelParams;
  ceThresholdUs: number | undefined;
  private readonly q = new BatchDeque();
  private vars = new CodelVars(1);
  private readonly cstats: CodelStats = { maxpacket: 0, ecnMark: 0 };
  private readonly st: QdiscStats = emptyStats();
  private dropOverlimit = 0;
  private lastNowNs = 0;

  constructor(
    private readonly ctx: QdiscContext,
    opts?: CodelOptions,
  ) {
    this.params = { targetNs: 5_000_000, intervalNs: 100_000_000, mtuBytes: pschedMtu(ctx), ecn: false };
    if (opts) this.apply(opts);
  }

  private apply(o: CodelOptions): void {
    if (o.limit !== undefined) this.limit = o.limit;
    if (o.targetUs !== undefined) this.params.targetNs = o.targetUs * 1000;
    if (o.intervalUs !== undefined) this.params.intervalNs = o.intervalUs * 1000;
    if (o.ceThresholdUs !== undefined) this.ceThresholdUs = o.ceThresholdUs;
    if (o.ecn !== undefined) this.params.ecn = o.ecn;
  }

  enqueue(p: Packet, nowNs: number): void {
    this.lastNowNs = nowNs;
    // codel_qdisc_enqueue: an skb is queued while qlen < limit, else dropped (drop_overlimit).
    const before = this.st.drops;
    const kept = admit(this.ctx, p, this.limit - this.q.skbs, this.st);
    this.dropOverlimit += this.st.drops - before;
    if (!kept) return;
    kept.enqueuedAtNs = nowNs;
    this.q.pushBack(kept);
  }

  codelHead(): Packet | null {
    return this.q.peek();
  }
  codelBacklogBytes(): number {
    return this.q.bytes;
  }
  /** CoDel drops the head skb: one skb's worth of segments, across head batches. */
  codelDropHead(): void {
    let want = 1;
    while (want > SKB_EPSILON) {
      const head = this.q.peek();
      if (!head) break;
      const part = this.q.takeFront(packetsOfSkb(head, want))!;
      const skbs = skbsOf(part);
      this.st.drops += skbs;
      want -= skbs;
      this.ctx.drop(part, part.count, 'codel_drop');
    }
  }

  dequeue(nowNs: number): Packet | null {
    this.lastNowNs = nowNs;
    const verdict = codelDequeue(this, 0, this.params, this.vars, this.cstats, nowNs);
    if (verdict === CodelVerdict.EMPTY) return null;
    let p: Packet;
    if (verdict === CodelVerdict.MARK) {
      // A GSO skb is marked as a whole: every segment GSO makes of it carries CE.
      p = this.q.takeFront(gsoSegs(this.q.peek()!))!;
      p.tos |= 3; // INET_ECN_set_ce
    } else p = this.q.popFront()!;
    // bstats_update: wire packets (gso_segs of a GSO skb).
    this.st.packets += p.count;
    this.st.bytes += qdiscBatchBytes(p);
    return p;
  }

  nextWakeNs(): number {
    return Number.POSITIVE_INFINITY;
  }
  qlen(): number {
    return this.q.skbs;
  }
  backlogBytes(): number {
    return this.q.bytes;
  }
  stats(): QdiscStats {
    return displayStats({ ...this.st, backlogBytes: this.q.bytes, backlogPackets: this.q.skbs });
  }

  /** codel_dump: TCA_CODEL_LIMIT, TARGET, CE_THRESHOLD (when set), INTERVAL, ECN (printed when on). */
  dumpOptions(): Record<string, number | boolean> {
    const o: Record<string, number | boolean> = { limit: this.limit, target: this.params.targetNs / 1000 };
    if (this.ceThresholdUs !== undefined) o.ce_threshold = this.ceThresholdUs;
    o.interval = this.params.intervalNs / 1000;
    if (this.params.ecn) o.ecn = true;
    return o;
  }

  /** codel_dump_stats (struct tc_codel_xstats); `dropping` present (1) only while dropping. */
  xstats(): Record<string, number> {
    const v = this.vars;
    const x: Record<string, number> = {
      count: v.count[0]!,
      lastcount: v.lastCount[0]!,
      ldelay: Math.trunc(v.ldelay[0]! / 1000),
    };
    if (v.dropping[0]) x.dropping = 1;
    x.drop_next = v.dropping[0] ? Math.trunc((v.dropNext[0]! - this.lastNowNs) / 1000) : 0;
    x.maxpacket = this.cstats.maxpacket;
    x.ecn_mark = this.cstats.ecnMark;
    x.drop_overlimit = displaySkbs(this.dropOverlimit);
    return x;
  }

  change(opts: QdiscOptions): TcResult {
    if (opts.kind !== 'codel') return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
    this.apply(opts);
    // codel_change: drop from the head until qlen <= limit (counted as drops).
    while (this.q.skbs > this.limit + SKB_EPSILON) {
      const head = this.q.peek()!;
      const n = Math.max(1, packetsInSkbs(head, this.q.skbs - this.limit));
      const part = this.q.takeFront(n)!;
      this.st.drops += skbsOf(part);
      this.ctx.drop(part, part.count, 'qdisc_overlimit');
    }
    return {};
  }

  reset(): void {
    this.q.clear();
    // codel_reset: codel_vars_init
    this.vars = new CodelVars(1);
  }

  childQdiscs(): QdiscNode[] {
    return [];
  }
}
