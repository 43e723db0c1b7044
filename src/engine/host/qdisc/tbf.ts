/**
 * tbf: Token Bucket Filter (LINUX net/sched/sch_tbf.c; IPROUTE2 tc-tbf(8), docs/domain-facts.md
 * §6.4). A rate bucket of `buffer` (nanoseconds of tokens at `rate`, as the kernel keeps them) and an
 * optional peak-rate bucket of `mtu` at `peakrate`; packets wait in a child qdisc (bfifo of `limit`
 * bytes by default; tbf is classful with one class major:1). Packets larger than the bucket are
 * dropped at enqueue, except a GSO skb whose segments fit, which tbf_segment splits into one skb
 * per segment (MARK_SEGMENTED). A batch goes when its first skb's tokens are there and is charged
 * whole (docs/design.md, "Qdiscs and batches"), so a burst can exceed the bucket by one batch.
 */
import { type Packet, qdiscBatchBytes } from '../../model/packet';
import {
  type ClassDump,
  type ClassOps,
  displaySkbs,
  emptyStats,
  gsoSegs,
  type HtbClassOptions,
  MARK_SEGMENTED,
  type QdiscNode,
  type QdiscOptions,
  skbBytesOf,
  skbsOf,
  type TbfOptions,
  type TcResult,
  tcMake,
  tcMajor,
} from './common';
import { FifoQdisc } from './fifo';
import type { QdiscContext, QdiscStats } from './types';

export class TbfQdisc implements QdiscNode {
  readonly kind = 'tbf';
  handle = 0;
  parent = 0;
  rate: number;
  bufferNs: number;
  limit: number;
  peakrate = 0;
  mtuNs = 0;
  private tokens: number;
  private ptokens: number;
  private tC = 0;
  child: QdiscNode;
  private childIsDefault = true;
  private readonly st: QdiscStats = emptyStats();
  private ownDrops = 0;
  readonly classOps: ClassOps;

  constructor(
    private readonly ctx: QdiscContext,
    opts: TbfOptions,
    nowNs = 0,
  ) {
    this.rate = opts.rate;
    this.bufferNs = opts.bufferNs;
    this.limit = opts.limit;
    this.peakrate = opts.peakrate ?? 0;
    this.mtuNs = opts.mtuNs ?? 0;
    this.tokens = this.bufferNs;
    this.ptokens = this.mtuNs;
    this.tC = nowNs;
    this.child = this.defaultChild();
    this.classOps = this.makeClassOps();
  }

  private defaultChild(): QdiscNode {
    const c = new FifoQdisc(this.ctx, 'bfifo', this.limit);
    c.parent = tcMake(tcMajor(this.handle), 1);
    return c;
  }

  /** Largest packet that fits the bucket(s), bytes (tbf_change: max_size). */
  private maxSize(): number {
    let m = Math.floor((this.bufferNs * this.rate) / 1e9);
    if (this.peakrate > 0) m = Math.min(m, Math.floor((this.mtuNs * this.peakrate) / 1e9));
    return m;
  }

  enqueue(p: Packet, nowNs: number): void {
    const per = p.sizeBytes + 14;
    const max = this.maxSize();
    if (per > max) {
      this.ownDrops += skbsOf(p);
      this.ctx.drop(p, p.count, 'qdisc_overlimit');
      return;
    }
    // tbf_enqueue: a GSO skb longer than max_size whose segments fit goes through tbf_segment. The
    // model's GSO skbs are full ones (gsoSegs segments), whatever the batch size.
    const segs = gsoSegs(p);
    if (segs > 1 && segs * per > max) p.mark |= MARK_SEGMENTED;
    this.child.enqueue(p, nowNs);
  }

  private rateNs(bytes: number, rate: number): number {
    return (bytes * 1e9) / rate;
  }

  dequeue(nowNs: number): Packet | null {
    // Like qdisc_peek_dequeued: the head is taken from the child once and held until it may leave.
    const p = this.peeked ?? this.child.dequeue(nowNs);
    if (!p) return null;
    this.peeked = null;
    // The head skb's qdisc_pkt_len: one packet, or one GSO skb's worth of a TCP batch.
    const one = skbBytesOf(p);
    // Linux caps the elapsed credit at `buffer` before adding the stored tokens, which is safe there
    // because tokens never fall below −one skb. A batch charged in full can leave a deficit larger than
    // the bucket, so we cap after adding: the deficit is paid back in full and the long-run rate stays
    // exact. (After an idle longer than the bucket this gives up to one skb more credit than Linux.)
    const elapsed = nowNs - this.tC;
    let ptoks = 0;
    if (this.peakrate > 0) {
      ptoks = Math.min(elapsed + this.ptokens, this.mtuNs) - this.rateNs(one, this.peakrate);
    }
    const toks = Math.min(elapsed + this.tokens, this.bufferNs) - this.rateNs(one, this.rate);
    if (toks >= 0 && ptoks >= 0) {
      const rest = qdiscBatchBytes(p) - one;
      this.tokens = toks - this.rateNs(rest, this.rate);
      if (this.peakrate > 0) this.ptokens = ptoks - this.rateNs(rest, this.peakrate);
      this.tC = nowNs;
      this.st.packets += p.count;
      this.st.bytes += qdiscBatchBytes(p);
      return p;
    }
    this.peeked = p;
    this.st.overlimits++;
    this.wakeNs = nowNs + Math.max(-toks, -ptoks);
    return null;
  }

  private wakeNs = Number.POSITIVE_INFINITY;
  private peeked: Packet | null = null;

  nextWakeNs(nowNs: number): number {
    if (this.qlen() === 0) return Number.POSITIVE_INFINITY;
    return Math.max(nowNs, this.wakeNs);
  }
  qlen(): number {
    return this.child.qlen() + (this.peeked ? skbsOf(this.peeked) : 0);
  }
  backlogBytes(): number {
    return this.child.backlogBytes() + (this.peeked ? qdiscBatchBytes(this.peeked) : 0);
  }
  stats(): QdiscStats {
    const c = this.child.stats();
    return {
      ...this.st,
      drops: displaySkbs(this.ownDrops) + c.drops,
      backlogBytes: this.backlogBytes(),
      backlogPackets: displaySkbs(this.qlen()),
    };
  }
  dumpOptions(): Record<string, number> {
    const o: Record<string, number> = { rate: this.rate, buffer_ns: this.bufferNs, limit: this.limit };
    if (this.peakrate > 0) {
      o.peakrate = this.peakrate;
      o.mtu_ns = this.mtuNs;
    }
    return o;
  }
  xstats(): null {
    return null;
  }
  change(opts: QdiscOptions): TcResult {
    if (opts.kind !== 'tbf') return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
    this.rate = opts.rate;
    this.bufferNs = opts.bufferNs;
    this.limit = opts.limit;
    this.peakrate = opts.peakrate ?? 0;
    this.mtuNs = opts.mtuNs ?? 0;
    this.tokens = Math.min(this.tokens, this.bufferNs);
    if (this.childIsDefault && this.child instanceof FifoQdisc) this.child.limit = this.limit;
    return {};
  }
  reset(): void {
    this.child.reset();
    this.peeked = null;
    this.tokens = this.bufferNs;
    this.ptokens = this.mtuNs;
  }
  childQdiscs(): QdiscNode[] {
    return [this.child];
  }

  private makeClassOps(): ClassOps {
    const classid = (): number => tcMake(tcMajor(this.handle), 1);
    return {
      has: (id) => id === classid(),
      leaf: (id) => (id === classid() ? this.child : null),
      canGraft: (id) => id === classid(),
      graft: (id, q): TcResult => {
        if (id !== classid()) return { errno: 'ENOENT', extack: 'Specified class not found' };
        this.child.reset();
        this.child = q ?? this.defaultChild();
        this.childIsDefault = q === null;
        this.child.parent = classid();
        return {};
      },
      dump: (): ClassDump[] => [
        {
          kind: 'tbf',
          classid: classid(),
          parent: this.handle,
          leafHandle: this.childIsDefault ? 0 : this.child.handle,
          options: {},
          stats: this.child.stats(),
          xstats: null,
        },
      ],
      change: (_id: number, _parent: number, _o: HtbClassOptions | null) => ({ errno: 'EOPNOTSUPP' }),
      remove: () => ({ errno: 'EOPNOTSUPP' }),
    };
  }
}
