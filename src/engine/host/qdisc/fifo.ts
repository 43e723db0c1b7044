/**
 * The FIFO qdiscs: pfifo (limit in skbs), bfifo (limit in bytes), pfifo_fast (three bands picked
 * by the IP TOS through the kernel priomap) and noqueue (what virtual devices such as lo have).
 *
 * Guarantees: tail drop exactly at the limit, also inside a batch (the batch is split, the excess is
 * reported with reason 'qdisc_overlimit'); pfifo and pfifo_fast limits count skbs (`skbsOf`: a TCP
 * GSO batch is a fraction of one), bfifo counts bytes; pfifo_fast always serves band 0 before 1
 * before 2.
 * Sources: LINUX net/sched/sch_fifo.c (limit default = txqueuelen, bfifo = txqueuelen × mtu),
 * net/sched/sch_generic.c (pfifo_fast: prio2band, per-band ring of txqueuelen), net/ipv4/route.c
 * (ip_tos2prio).
 */
import { type Packet, qdiscBatchBytes } from '../../model/packet';
import {
  admit,
  admitPackets,
  BatchDeque,
  type ClassOps,
  displayStats,
  emptyStats,
  type QdiscKind,
  type QdiscNode,
  type QdiscOptions,
  type TcResult,
} from './common';
import type { QdiscContext, QdiscStats } from './types';

abstract class SimpleQdisc implements QdiscNode {
  abstract readonly kind: QdiscKind;
  handle = 0;
  parent = 0;
  readonly classOps: ClassOps | null = null;
  protected readonly st: QdiscStats = emptyStats();

  constructor(protected readonly ctx: QdiscContext) {}

  abstract enqueue(p: Packet, nowNs: number): void;
  abstract dequeue(nowNs: number): Packet | null;
  abstract qlen(): number;
  abstract backlogBytes(): number;
  abstract dumpOptions(): Record<string, number | boolean | string>;
  abstract change(opts: QdiscOptions): TcResult;
  abstract reset(): void;

  nextWakeNs(): number {
    return Number.POSITIVE_INFINITY;
  }
  stats(): QdiscStats {
    return displayStats({ ...this.st, backlogBytes: this.backlogBytes(), backlogPackets: this.qlen() });
  }
  xstats(): Record<string, number> | null {
    return null;
  }
  childQdiscs(): QdiscNode[] {
    return [];
  }
  protected sent(p: Packet): void {
    // bstats_update: a GSO skb counts its gso_segs, i.e. wire packets.
    this.st.packets += p.count;
    this.st.bytes += qdiscBatchBytes(p);
  }
}

/** pfifo / bfifo: one FIFO with a packet or byte limit. */
export class FifoQdisc extends SimpleQdisc {
  private readonly q = new BatchDeque();
  limit: number;

  constructor(
    ctx: QdiscContext,
    readonly kind: 'pfifo' | 'bfifo',
    limit?: number,
  ) {
    super(ctx);
    // sch_fifo.c fifo_init: default limit = txqueuelen (pfifo) or txqueuelen * psched_mtu (bfifo).
    const txql = Math.max(ctx.txQueueLen(), 1);
    this.limit = limit ?? (kind === 'pfifo' ? txql : txql * (ctx.mtu() + 14));
  }

  enqueue(p: Packet, _nowNs?: number): void {
    let kept: Packet | null;
    if (this.kind === 'pfifo') {
      // pfifo_enqueue: an skb is queued while qlen < limit (qlen counts skbs, not GSO segments).
      kept = admit(this.ctx, p, this.limit - this.q.skbs, this.st);
    } else {
      // bfifo: a packet fits if backlog + its length <= limit (qdisc_pkt_len counts every segment).
      const per = p.sizeBytes + 14;
      kept = admitPackets(this.ctx, p, Math.floor((this.limit - this.q.bytes) / per), this.st);
    }
    if (kept) this.q.pushBack(kept);
  }

  dequeue(): Packet | null {
    const p = this.q.popFront();
    if (p) this.sent(p);
    return p;
  }

  qlen(): number {
    return this.q.skbs;
  }
  backlogBytes(): number {
    return this.q.bytes;
  }
  dumpOptions(): Record<string, number> {
    return { limit: this.limit };
  }
  change(opts: QdiscOptions): TcResult {
    if (opts.kind === this.kind && opts.limit !== undefined) this.limit = opts.limit;
    return {};
  }
  reset(): void {
    this.q.clear();
  }
}

/** TC_PRIO → band, the kernel's default `prio2band`. */
export const PFIFO_FAST_PRIOMAP: readonly number[] = [1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
/** ip_tos2prio: (tos & 0x1e) >> 1 → TC_PRIO_* (route.c; ECN_OR_COST(x) = x). */
const TOS2PRIO: readonly number[] = [0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4];

/** The band pfifo_fast puts a packet with this TOS byte in. */
export function pfifoFastBand(tos: number): number {
  return PFIFO_FAST_PRIOMAP[TOS2PRIO[(tos & 0x1e) >> 1]!]!;
}

export class PfifoFastQdisc extends SimpleQdisc {
  readonly kind = 'pfifo_fast';
  private readonly bands = [new BatchDeque(), new BatchDeque(), new BatchDeque()];

  enqueue(p: Packet, _nowNs?: number): void {
    const band = this.bands[pfifoFastBand(p.tos)]!;
    // Each band is an skb_array of txqueuelen entries (lockless pfifo_fast, Linux ≥ 4.16).
    const kept = admit(this.ctx, p, Math.max(this.ctx.txQueueLen(), 1) - band.skbs, this.st);
    if (kept) band.pushBack(kept);
  }

  dequeue(): Packet | null {
    for (let b = 0; b < 3; b++) {
      const p = this.bands[b]!.popFront();
      if (p) {
        this.sent(p);
        return p;
      }
    }
    return null;
  }

  qlen(): number {
    return this.bands[0]!.skbs + this.bands[1]!.skbs + this.bands[2]!.skbs;
  }
  backlogBytes(): number {
    return this.bands[0]!.bytes + this.bands[1]!.bytes + this.bands[2]!.bytes;
  }
  dumpOptions(): Record<string, number | string> {
    return { bands: 3, priomap: PFIFO_FAST_PRIOMAP.join(' ') };
  }
  change(): TcResult {
    return { errno: 'EOPNOTSUPP', extack: 'Change operation not supported by specified qdisc' };
  }
  reset(): void {
    for (const b of this.bands) b.clear();
  }
}

/**
 * noqueue: no queue at all — Linux hands the packet straight to the device. In the model the host
 * still pulls through dequeue, so packets pass through an unbounded FIFO without statistics.
 */
export class NoqueueQdisc extends SimpleQdisc {
  readonly kind = 'noqueue';
  private readonly q = new BatchDeque();
  enqueue(p: Packet, _nowNs?: number): void {
    this.q.pushBack(p);
  }
  dequeue(): Packet | null {
    return this.q.popFront();
  }
  qlen(): number {
    return this.q.skbs;
  }
  backlogBytes(): number {
    return this.q.bytes;
  }
  override stats(): QdiscStats {
    return emptyStats();
  }
  dumpOptions(): Record<string, number> {
    return {};
  }
  change(): TcResult {
    return { errno: 'EOPNOTSUPP', extack: 'Change operation not supported by specified qdisc' };
  }
  reset(): void {
    this.q.clear();
  }
}
