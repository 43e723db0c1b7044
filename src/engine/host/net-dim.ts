/**
 * Dynamic interrupt moderation as the ENA driver uses Linux's net_dim (adaptive-rx): the
 * per-queue state that picks the RX interrupt delay from the EQE profiles.
 * Sources: LINUX lib/dim/net_dim.c; ENA-SRC ena_netdev.c (docs/domain-facts.md §1).
 */
import { storeAsDoubles } from '../core/doubles';

/**
 * Dynamic interrupt moderation (adaptive-rx, on by default on ENA since 2.8.3): Linux net_dim with
 * the EQE RX profiles (usec: 1, 8, 64, 128, 256). Every DIM_NEVENTS interrupts it compares the
 * packet rate and the interrupt rate with the previous epoch: a higher packet rate, or the same
 * rate with fewer interrupts, keeps it stepping the same way; a worse result turns it round; at an
 * end it parks. Simplified from lib/dim/net_dim.c (no tired counter, 10% significance threshold).
 */
export const DIM_RX_PROFILE_USECS = [1, 8, 64, 128, 256] as const;
const DIM_NEVENTS = 64;

export class Dim {
  idx = 1; // NET_DIM_DEF_PROFILE_EQE
  private dir = 1;
  private events = 0;
  private packets = 0;
  private epochStartNs = 0;
  private prevPps = -1;
  private prevIps = -1;

  constructor() {
    storeAsDoubles(this, ['epochStartNs', 'prevPps', 'prevIps']); // times and rates (core/doubles.ts)
  }

  usecs(): number {
    return DIM_RX_PROFILE_USECS[this.idx]!;
  }

  /** One interrupt served `packets` packets. */
  sample(nowNs: number, packets: number): void {
    if (this.events === 0) this.epochStartNs = nowNs;
    this.events++;
    this.packets += packets;
    if (this.events < DIM_NEVENTS) return;
    const dt = Math.max(1, nowNs - this.epochStartNs) / 1e9;
    const pps = this.packets / dt;
    const ips = this.events / dt;
    if (this.prevPps >= 0) {
      const better = pps > this.prevPps * 1.1 || (pps >= this.prevPps * 0.9 && ips < this.prevIps * 0.9);
      const worse = pps < this.prevPps * 0.9;
      if (worse) this.dir = -this.dir;
      if (better || worse) {
        const next = this.idx + this.dir;
        if (next >= 0 && next < DIM_RX_PROFILE_USECS.length) this.idx = next;
      }
    } else {
      const next = this.idx + this.dir;
      if (next < DIM_RX_PROFILE_USECS.length) this.idx = next;
    }
    this.prevPps = pps;
    this.prevIps = ips;
    this.events = 0;
    this.packets = 0;
  }
}
