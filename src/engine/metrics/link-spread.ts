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
import type { Instance, Lab } from '../lab/lab';
import type { Packet } from '../model/packet';
import { batchGapNs, batchRowNs, batchStartNs, captureDevice } from '../shell/commands/tcpdump/batch-capture';
import type { TimeRing } from './time-ring';

export class LinkSpread {
  private lab: Lab | null = null;
  /** The lab's instances in probe order (a lab has them all from its start). */
  private insts: Instance[] = [];
  /** Per host, 2 × host (out) and 2 × host + 1 (in): when the last batch placed ends on the link. */
  private endNs = new Float64Array(0);
  /** The batch placed last: its first packet's instant, the time between two packets (0: one instant), its packets, its last packet's instant. */
  startNs = 0;
  gapNs = 0;
  count = 0;
  lastNs = 0;

  /** The lab whose instances' links place the batches (none: every batch keeps its instant). */
  bind(lab: Lab): void {
    this.lab = lab;
    this.insts = [];
    for (let i = 0, inst = lab.instanceAt(0); inst !== undefined; inst = lab.instanceAt(++i))
      this.insts.push(inst);
    this.endNs = new Float64Array(2 * this.insts.length);
  }

  /** Place batch `p`, at the link of instance `host` at `atNs`, going out (`tx`) or in. */
  place(atNs: number, host: number, p: Packet, tx: boolean): void {
    const n = p.count;
    this.count = n;
    this.startNs = atNs;
    this.lastNs = atNs;
    this.gapNs = 0;
    const inst = this.insts[host];
    if (inst === undefined) return;
    const gap = batchGapNs(inst, p.sizeBytes);
    if (gap === 0) return;
    const slot = 2 * host + (tx ? 0 : 1);
    const end = this.endNs[slot]!;
    const start =
      end > atNs ? batchStartNs(inst, captureDevice(this.lab!, inst, p, tx), tx, atNs, end, gap) : atNs;
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
