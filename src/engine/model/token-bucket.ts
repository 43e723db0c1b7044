/**
 * A token bucket in bytes (or packets) per second, on integer-ns time.
 *
 * Conformance rule: a batch may pass when the bucket holds ≥ 0 tokens; it is then charged in full
 * and the balance may go negative (down to -∞). This is how Linux HTB charges a GSO skb, and it
 * makes the long-run rate exact for any batch size while keeping per-packet behaviour identical
 * when batches are single packets. Invariant: tokens ≤ depth.
 */
import { storeAsDoubles } from '../core/doubles';

export class TokenBucket {
  tokens: number;
  private lastNs = 0;

  /**
   * @param ratePerSec tokens added per second (bytes/s or packets/s); Infinity disables the bucket
   * @param depth bucket size in tokens
   */
  constructor(
    public ratePerSec: number,
    public depth: number,
    startFull = true,
  ) {
    this.tokens = startFull ? depth : 0;
    storeAsDoubles(this, ['tokens', 'lastNs']); // fractions, times past 2^31 ns (core/doubles.ts)
  }

  refill(nowNs: number): void {
    if (nowNs > this.lastNs) {
      if (this.ratePerSec !== Number.POSITIVE_INFINITY) {
        this.tokens = Math.min(this.depth, this.tokens + ((nowNs - this.lastNs) * this.ratePerSec) / 1e9);
      } else {
        this.tokens = this.depth;
      }
      this.lastNs = nowNs;
    }
  }

  /** The tokens the bucket would hold at `nowNs`, without refilling it (a view's read: no state changes). */
  tokensAt(nowNs: number): number {
    if (this.ratePerSec === Number.POSITIVE_INFINITY) return this.depth;
    if (nowNs <= this.lastNs) return this.tokens;
    return Math.min(this.depth, this.tokens + ((nowNs - this.lastNs) * this.ratePerSec) / 1e9);
  }

  /** True when a batch may pass now. */
  conforms(nowNs: number): boolean {
    this.refill(nowNs);
    return this.tokens >= 0 || this.ratePerSec === Number.POSITIVE_INFINITY;
  }

  charge(amount: number): void {
    if (this.ratePerSec !== Number.POSITIVE_INFINITY) this.tokens -= amount;
  }

  /** Earliest time ≥ now at which the bucket will hold ≥ 0 tokens. */
  readyAtNs(nowNs: number): number {
    this.refill(nowNs);
    if (this.tokens >= 0 || this.ratePerSec === Number.POSITIVE_INFINITY) return nowNs;
    if (this.ratePerSec <= 0) return Number.POSITIVE_INFINITY;
    return nowNs + Math.ceil((-this.tokens * 1e9) / this.ratePerSec);
  }

  /** Change the rate from now on (tokens accrued so far are kept). */
  setRate(nowNs: number, ratePerSec: number, depth = this.depth): void {
    this.refill(nowNs);
    this.ratePerSec = ratePerSec;
    this.depth = depth;
    if (this.tokens > depth) this.tokens = depth;
  }
}
