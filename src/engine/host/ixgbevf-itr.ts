/**
 * The interrupt throttle (EITR) of an Intel 82599 virtual function under the ixgbevf driver.
 * Sources: LINUX drivers/net/ethernet/intel/ixgbevf/ixgbevf_main.c, ethtool.c.
 */
import { storeAsDoubles } from '../core/doubles';

/**
 * The 82599 VF's interrupt throttling as ixgbevf drives it (ixgbevf_main.c ixgbevf_update_itr,
 * ixgbevf_set_itr; ethtool.c ixgbevf_set_coalesce). EITR is a minimum interval between two
 * interrupts of a vector: a packet after a quiet spell interrupts at once, one soon after the last
 * interrupt waits for the interval to run out. rx-usecs 1 (the default) is dynamic: at each NAPI
 * completion the bytes received since the last update, divided by the current interval, pick a
 * latency class (≤ 10 B/µs lowest: 100K ints/s; ≤ 20 B/µs low: 20K; above: bulk, 12K), moving one
 * class at a time, and the interval moves towards the class's with the driver's exponential
 * smoothing. rx-usecs 0: no throttling; above 1: a fixed interval.
 */
export class IxgbevfItr {
  /** The current interval, µs (q_vector->itr >> 2; IXGBE_20K_ITR at start). */
  usecs = 50;
  /** ring_container->itr: 0 lowest_latency, 1 low_latency, 2 bulk_latency. */
  private cls = 0;
  private bytes = 0;
  lastIrqNs = Number.NEGATIVE_INFINITY;

  /** IXGBE_100K_ITR, IXGBE_20K_ITR, IXGBE_12K_ITR in µs (40, 200, 336 >> 2). */
  static readonly CLASS_USECS = [10, 50, 84] as const;

  constructor() {
    storeAsDoubles(this, ['bytes', 'lastIrqNs']);
  }

  count(bytes: number): void {
    this.bytes += bytes;
  }

  /** When an interrupt asked for at `atNs` fires: not before the interval since the last one. */
  fireAt(atNs: number, setting: number): number {
    if (setting === 0) return atNs;
    const us = setting === 1 ? this.usecs : setting;
    return Math.max(atNs, this.lastIrqNs + Math.round(us * 1000));
  }

  /** ixgbevf_set_itr at a NAPI completion (dynamic mode only). */
  update(): void {
    if (this.bytes === 0) return;
    const perUs = Math.floor(this.bytes / Math.max(1, Math.floor(this.usecs)));
    this.bytes = 0;
    if (this.cls === 0) {
      if (perUs > 10) this.cls = 1;
    } else if (this.cls === 1) {
      if (perUs > 20) this.cls = 2;
      else if (perUs <= 10) this.cls = 0;
    } else if (perUs <= 20) this.cls = 1;
    const target = IxgbevfItr.CLASS_USECS[this.cls]!;
    // the driver smooths in EITR units (0.25 µs); the formula is homogeneous, so µs give the same
    if (target !== this.usecs) this.usecs = (10 * target * this.usecs) / (9 * target + this.usecs);
  }
}
