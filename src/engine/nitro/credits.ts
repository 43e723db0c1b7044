/**
 * Network I/O credits for "up to" bandwidth instances (AWS-BW): an instance gets the maximum credits
 * at launch, spends them while it uses more than its baseline, earns them while it uses less, and
 * returns to its baseline when they run out. In and out have separate accounts.
 *
 * The account holds bits. It is updated lazily on every charge: credits += baseline·Δt − bits sent,
 * clamped to [·, capacity]. Capacity = (peak − baseline) × burstCreditSeconds, where
 * burstCreditSeconds is an assumed per-type figure (AWS publishes only "5 to 60 minutes").
 * When the account is empty the shaping bucket's rate drops to baseline; it returns to peak once
 * the account holds at least `resumeBits` again.
 */
import type { TokenBucket } from '../model/token-bucket';
import { storeAsDoubles } from '../core/doubles';

export class CreditAccount {
  creditsBits: number;
  private lastNs = 0;
  /** Simulated time at which the credits last ran out (NaN if never). */
  exhaustedAtNs = Number.NaN;
  atBaseline = false;
  /** Called when the account runs out (true) or can burst again (false). */
  onChange: ((exhausted: boolean, nowNs: number) => void) | null = null;
  /** Credits needed to resume bursting: 1 s of burst above baseline (avoids flapping at the edge). */
  private readonly resumeAtBits: number;

  constructor(
    readonly baselineBps: number,
    readonly peakBps: number,
    readonly capacityBits: number,
    private readonly bucket: TokenBucket,
    private readonly bucketNs: number,
    /** The simulation's clock (the scheduler). */
    private readonly clock: { readonly now: number },
  ) {
    this.creditsBits = capacityBits;
    this.resumeAtBits = Math.min(capacityBits, peakBps - baselineBps);
    storeAsDoubles(this, ['creditsBits', 'lastNs']); // times past 2^31 ns (core/doubles.ts)
  }

  get bursting(): boolean {
    return !this.atBaseline;
  }

  /**
   * Account for `bits` sent now (the clock's time: read here rather than passed, as a double argument
   * of a call that is not inlined is boxed, an allocation per packet).
   */
  charge(bits: number): void {
    const nowNs = this.clock.now;
    if (nowNs > this.lastNs) {
      this.creditsBits = Math.min(
        this.capacityBits,
        this.creditsBits + ((nowNs - this.lastNs) * this.baselineBps) / 1e9,
      );
      this.lastNs = nowNs;
    }
    this.creditsBits -= bits;
    // the rare change of rate apart: a charge per packet stays small enough to be inlined
    if (this.atBaseline ? this.creditsBits > this.resumeAtBits : this.creditsBits <= 0)
      this.switchRate(nowNs);
  }

  /** The account ran out (down to the baseline) or holds enough to burst again. */
  private switchRate(nowNs: number): void {
    if (!this.atBaseline && this.creditsBits <= 0) {
      this.atBaseline = true;
      if (Number.isNaN(this.exhaustedAtNs)) this.exhaustedAtNs = nowNs;
      this.bucket.setRate(nowNs, this.baselineBps / 8, (this.baselineBps / 8) * (this.bucketNs / 1e9));
      this.onChange?.(true, nowNs);
    } else if (this.atBaseline && this.creditsBits > this.resumeAtBits) {
      this.atBaseline = false;
      this.bucket.setRate(nowNs, this.peakBps / 8, (this.peakBps / 8) * (this.bucketNs / 1e9));
      this.onChange?.(false, nowNs);
    }
  }

  /** Credits remaining now, 0..1 of capacity. */
  fraction(nowNs: number): number {
    const c = Math.min(
      this.capacityBits,
      this.creditsBits + ((nowNs - this.lastNs) * this.baselineBps) / 1e9,
    );
    return this.capacityBits > 0 ? Math.max(0, c) / this.capacityBits : 0;
  }
}
