/**
 * The egress PPS allowance as the card's processing budget for an instance's TX (NET402's
 * "Opportunistic Allocation"): the ENA device asks before each fetch from a TX ring; when the
 * budget is spent the card fetches no more, the excess waits in the rings and backs up into the
 * sender (TOONK: TX counters plateau at the allowance). Waiting queues are granted in start-time
 * fair order, in packets. Nitro hosts with MODEL_PARAMS.nitroPpsHoldsTxFetch.
 * Sources: NET402, TOONK (docs/domain-facts.md §2.2), docs/design.md "The Nitro card".
 */
import type { Scheduler } from '../core/scheduler';
import type { DropReason } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import { bucketReadyAt, chargeBucket, type ShaperBucket } from './shaper';

export class TxFetchGate {
  constructor(
    private readonly sched: Scheduler,
    /** The egress PPS shaper bucket (the card's ppsOut). */
    private readonly ppsOut: ShaperBucket,
    /** Count `n` packets of `p` held by the allowance (the interface's pps_allowance_exceeded). */
    private readonly held: (p: Packet, n: number) => void,
  ) {}

  /**
   * The ENA device's TX queues waiting for the egress PPS allowance, in the order they asked. NET402
   * ("Opportunistic Allocation": each Nitro processor allots the instance a percent of its cycle
   * time; pps_allowance_exceeded) makes the PPS allowance the card's packet-processing budget: when
   * it is spent the card fetches no more descriptors, so the excess waits in the TX rings and backs
   * up into the sender (DPDK's tx_burst finds the ring full; the kernel's qdisc holds it), and the
   * sender's own TX counters plateau at the allowance, as TOONK measured (≈ 8.5 Mpps TX on
   * c5n.18xlarge from 12 queues on). Packets held so are counted in pps_allowance_exceeded ("queued").
   */
  private readonly txWaiting: number[] = [];
  /**
   * Fair sharing of the budget between the TX queues in packets, whatever their batch sizes
   * (start-time fair queueing): a queue's virtual finish time grows by the packets it is granted;
   * the waiting queue with the smallest start time max(finish, now's virtual time) goes first.
   */
  private readonly txFinish: number[] = [];
  private txVirtual = 0;
  private txWakeAt = Number.POSITIVE_INFINITY;
  /** The device: let TX queue q fetch its next batch now; returns its packets (0: nothing left). */
  onTxGranted: (q: number) => number = () => 0;

  /** The device's txGate: may TX queue q fetch batch p now? */
  readonly admit = (q: number, p: Packet): boolean => {
    const now = this.sched.now;
    if (this.txWaiting.length === 0 && bucketReadyAt(this.ppsOut, now) === now) {
      this.txGrantedCount(q, p.count);
      chargeBucket(this.ppsOut, p.count, now);
      return true;
    }
    this.ppsOut.exceeded += p.count;
    this.held(p, p.count);
    this.txWaiting.push(q);
    this.armTxWake(bucketReadyAt(this.ppsOut, now));
    return false;
  };

  /**
   * What holds TX queue q's ring now (the path view's label, for a ring with packets in it): the
   * egress PPS allowance while the queue waits for the card's budget to fetch its next batch, or
   * while that budget is spent (the batch being fetched was the last it allowed); null otherwise
   * (the budget is not what the ring waits for).
   */
  heldBy(q: number): DropReason | null {
    // read without refilling the buckets (a refill at a view's instant would change the rounding
    // of later ones: the run must not depend on being watched)
    const now = this.sched.now;
    const b = this.ppsOut;
    const spent =
      (b.bucket.tokensAt(now) < 0 && (b.assured === null || b.assured.tokensAt(now) < 0)) ||
      (b.ceiling !== null && b.ceiling.tokensAt(now) < 0);
    return this.txWaiting.includes(q) || spent ? 'pps_allowance_exceeded' : null;
  }

  private txGrantedCount(q: number, n: number): void {
    const start = Math.max(this.txFinish[q] ?? 0, this.txVirtual);
    this.txVirtual = start;
    this.txFinish[q] = start + n;
  }

  private readonly txWake = (): void => {
    this.txWakeAt = Number.POSITIVE_INFINITY;
    const now = this.sched.now;
    const w = this.txWaiting;
    while (w.length > 0) {
      const at = bucketReadyAt(this.ppsOut, now);
      if (at > now) {
        this.armTxWake(at);
        return;
      }
      let best = 0;
      let bestStart = Number.POSITIVE_INFINITY;
      for (let i = 0; i < w.length; i++) {
        const start = Math.max(this.txFinish[w[i]!] ?? 0, this.txVirtual);
        if (start < bestStart) {
          bestStart = start;
          best = i;
        }
      }
      const q = w[best]!;
      w.splice(best, 1);
      const n = this.onTxGranted(q);
      if (n > 0) {
        this.txGrantedCount(q, n);
        chargeBucket(this.ppsOut, n, now);
      }
    }
  };

  private armTxWake(at: number): void {
    if (at < this.txWakeAt) {
      this.txWakeAt = at;
      this.sched.at(at, this.txWake);
    }
  }
}
