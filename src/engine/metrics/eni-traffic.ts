/**
 * Always-on ENI traffic accounting: IP bytes and packets per direction as the Nitro card hands them
 * on (egress: to the fabric or a link-local service; ingress: to the ENA device), as cumulative
 * counters plus a snapshot at every simulated second. CloudWatch's NetworkIn/Out and
 * NetworkPacketsIn/Out are built from it, so `aws cloudwatch` works after any run without the
 * opt-in metrics recorder. AWS does not say whether NetworkOut includes link-layer overhead; the
 * lab counts none.
 *
 * Guarantees: one comparison and two additions per batch; 4 doubles per simulated second (≈ 2.7 MB
 * per ENI per day); exact (per-second totals sum to the counters; a batch counts in its second).
 */
import { storeAsDoubles } from '../core/doubles';

/** Counter order inside a snapshot. */
export const ENI_TRAFFIC_COUNTERS = ['bytesOut', 'packetsOut', 'bytesIn', 'packetsIn'] as const;
export type EniTrafficCounter = (typeof ENI_TRAFFIC_COUNTERS)[number];

const SECOND_NS = 1_000_000_000;

/** The ENA allowance counters (ethtool -S), snapshotted with the traffic for the CloudWatch agent. */
export const ALLOWANCE_COUNTERS = [
  'bw_in_allowance_exceeded',
  'bw_out_allowance_exceeded',
  'pps_allowance_exceeded',
  'conntrack_allowance_exceeded',
  'linklocal_allowance_exceeded',
  'conntrack_allowance_available',
] as const;
export type AllowanceCounter = (typeof ALLOWANCE_COUNTERS)[number];
const NA = ALLOWANCE_COUNTERS.length;

export class EniTraffic {
  bytesOut = 0;
  packetsOut = 0;
  bytesIn = 0;
  packetsIn = 0;
  /** snaps[4k + c] = counter c at second k (k = 0 is all zeros); valid for k ≤ `rolled`. */
  private snaps = new Float64Array(4 * 64);
  private rolled = 0;
  /**
   * The card's allowance counters now (in ALLOWANCE_COUNTERS order); read once per second boundary
   * crossed by traffic, so a second's snapshot holds them as of the last batch before the boundary.
   */
  allowanceSource: (() => readonly number[]) | null = null;
  private allow = new Float64Array(NA * 64);
  private nextSecondNs = SECOND_NS;

  constructor() {
    // byte counts and times pass 2^31 (core/doubles.ts)
    storeAsDoubles(this, ['bytesOut', 'bytesIn', 'nextSecondNs']);
  }

  /** `count` packets of `bytes` IP bytes in total left the card toward the network at `atNs`. */
  out(atNs: number, count: number, bytes: number): void {
    if (atNs >= this.nextSecondNs) this.roll(atNs);
    this.bytesOut += bytes;
    this.packetsOut += count;
  }

  /** `count` packets of `bytes` IP bytes in total were handed to the instance at `atNs`. */
  in(atNs: number, count: number, bytes: number): void {
    if (atNs >= this.nextSecondNs) this.roll(atNs);
    this.bytesIn += bytes;
    this.packetsIn += count;
  }

  /** Snapshot the counters at every second boundary up to `atNs` (nothing moved in between). */
  private roll(atNs: number): void {
    const upTo = Math.floor(atNs / SECOND_NS);
    if (4 * (upTo + 1) > this.snaps.length) {
      const next = new Float64Array(Math.max(this.snaps.length * 2, 4 * (upTo + 64)));
      next.set(this.snaps);
      this.snaps = next;
      const a = new Float64Array((next.length / 4) * NA);
      a.set(this.allow);
      this.allow = a;
    }
    const now = this.allowanceSource?.() ?? null;
    if (now)
      for (let k = this.rolled + 1; k <= upTo; k++)
        for (let i = 0; i < NA; i++) this.allow[NA * k + i] = now[i] ?? 0;
    const s = this.snaps;
    for (let k = this.rolled + 1; k <= upTo; k++) {
      s[4 * k] = this.bytesOut;
      s[4 * k + 1] = this.packetsOut;
      s[4 * k + 2] = this.bytesIn;
      s[4 * k + 3] = this.packetsIn;
    }
    this.rolled = upTo;
    this.nextSecondNs = (upTo + 1) * SECOND_NS;
  }

  /** Counter `c` as it stood at second `k` (k × 1 s of simulated time); past the last batch it is the current value. */
  cumulativeAt(c: EniTrafficCounter, k: number): number {
    if (k <= 0) return 0;
    const i = ENI_TRAFFIC_COUNTERS.indexOf(c);
    if (k <= this.rolled) return this.snaps[4 * k + i]!;
    return this[c];
  }

  /** Allowance counter `c` as it stood at second `k` (its current value past the last batch). */
  allowanceAt(c: AllowanceCounter, k: number): number {
    const i = ALLOWANCE_COUNTERS.indexOf(c);
    if (k >= 1 && k <= this.rolled && this.allowanceSource) return this.allow[NA * k + i]!;
    if (k <= 0) return c === 'conntrack_allowance_available' ? (this.allowanceSource?.()[i] ?? 0) : 0;
    return this.allowanceSource?.()[i] ?? 0;
  }

  /**
   * Totals of counter `c` over whole seconds [fromS, toS), for seconds already over at `nowNs`
   * (a second not yet over counts what it has so far).
   */
  total(c: EniTrafficCounter, fromS: number, toS: number): number {
    return this.cumulativeAt(c, toS) - this.cumulativeAt(c, fromS);
  }
}
