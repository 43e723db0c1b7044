/**
 * A batch's packets on the host link, for the recorders that count bytes over time. The model moves
 * packets in batches (docs/design.md "Batching"); counted at the instant the device fetched it, a
 * batch of 64 jumbo frames is 577 KB in one 10 µs bucket, 460 Gbit/s, a rate no link carries. Here
 * packet k of a batch is counted when the packet list and tcpdump show it
 * (shell/commands/tcpdump/batch-capture.ts, whose functions place it): one serialisation apart at the
 * host link's rate (NitroCard.linkBps), queued behind the batch before it of that instance and
 * direction. Where the host has no link rate of its own a batch keeps its instant.
 *
 * Guarantees: every packet counted once (the buckets of a batch add up to its bytes); no allocation
 * per batch; work per batch O(buckets touched). docs/design.md "The metrics recorder".
 */
import { batchRowNs, type Packet } from '../model/packet';
import type { TimeRing } from './time-ring';

/**
 * The host links as the recorders need them (the lab gives them: Lab.linkGapNs and linkStartNs,
 * the functions the packet list and tcpdump place packets with).
 */
export interface HostLinks {
  /** The time between two packets of `sizeBytes` on instance `host`'s link, ns (0: no rate of its own). */
  linkGapNs(host: number, sizeBytes: number): number;
  /** Where a batch reaching instance `host`'s link at `atNs`, behind one on the wire until `wireEndNs`, starts. */
  linkStartNs(host: number, p: Packet, tx: boolean, atNs: number, wireEndNs: number, gapNs: number): number;
}

export class LinkSpread {
  private links: HostLinks | null = null;
  /** Per host, 2 × host (out) and 2 × host + 1 (in): when the last batch placed ends on the link. */
  private endNs = new Float64Array(0);
  /** The batch placed last: its first packet's instant, the time between two packets (0: one instant), its packets, its last packet's instant. */
  startNs = 0;
  gapNs = 0;
  count = 0;
  lastNs = 0;

  /** The links that place the batches (none: every batch keeps its instant). */
  bind(links: HostLinks): void {
    this.links = links;
    this.endNs = new Float64Array(0);
  }

  /** Place batch `p`, at the link of instance `host` at `atNs`, going out (`tx`) or in. */
  place(atNs: number, host: number, p: Packet, tx: boolean): void {
    const n = p.count;
    this.count = n;
    this.startNs = atNs;
    this.lastNs = atNs;
    this.gapNs = 0;
    const links = this.links;
    if (links === null) return;
    const gap = links.linkGapNs(host, p.sizeBytes);
    if (gap === 0) return;
    const slot = 2 * host + (tx ? 0 : 1);
    if (slot >= this.endNs.length) {
      const grown = new Float64Array(Math.max(4, 2 * (host + 1)));
      grown.set(this.endNs);
      this.endNs = grown;
    }
    const end = this.endNs[slot]!;
    const start = end > atNs ? links.linkStartNs(host, p, tx, atNs, end, gap) : atNs;
    this.endNs[slot] = start + n * gap;
    this.startNs = start;
    this.gapNs = gap;
    this.lastNs = batchRowNs(start, n - 1, gap);
  }

  /** When packet k of the batch placed last is on the link. */
  rowNs(k: number): number {
    return batchRowNs(this.startNs, k, this.gapNs);
  }

  /** How many packets of the batch placed last are on the link before `tNs`. */
  before(tNs: number): number {
    const n = this.count;
    const start = this.startNs;
    const g = this.gapNs;
    if (tNs <= start) return 0;
    if (g === 0) return n;
    // start + round(k·g) < t ⇔ k·g < ⌈t − start⌉ − ½ (round half up); then settled on batchRowNs
    // itself, in case the division rounds across the boundary
    let k = Math.min(n, Math.ceil((Math.ceil(tNs - start) - 0.5) / g));
    while (k > 0 && batchRowNs(start, k - 1, g) >= tNs) k--;
    while (k < n && batchRowNs(start, k, g) < tNs) k++;
    return k;
  }

  /**
   * Add `perPacket` × the packets of the batch placed last into the buckets of `ring` they fall in
   * (its buckets are `ring.stepNs` wide; those up to the last packet's are made current).
   */
  addTo(ring: TimeRing, perPacket: number): void {
    const step = ring.stepNs;
    const n = this.count;
    const last = Math.floor(this.lastNs / step);
    ring.advance(last, 0);
    let b = Math.floor(this.startNs / step);
    let k = 0;
    // the buckets before the last one's: those the packets before each one's end fill
    for (; b < last; b++) {
      const k2 = this.before((b + 1) * step);
      if (k2 > k) ring.add(b, (k2 - k) * perPacket);
      k = k2;
    }
    ring.add(last, (n - k) * perPacket);
  }
}
