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
import type { Lab } from '../lab/lab';
import type { Packet } from '../model/packet';
import { batchGapNs, batchRowNs, batchStartNs, captureDevice } from '../shell/commands/tcpdump/batch-capture';
import type { TimeRing } from './time-ring';

export class LinkSpread {
  private lab: Lab | null = null;
  /** Per host, 2 × host (out) and 2 × host + 1 (in): when the last batch placed ends on the link. */
  private readonly endNs: number[] = [];
  /** The batch placed last: its first packet's instant, the time between two packets (0: one instant), its packets. */
  startNs = 0;
  gapNs = 0;
  count = 0;

  /** The lab whose instances' links place the batches (none: every batch keeps its instant). */
  bind(lab: Lab): void {
    this.lab = lab;
  }

  /** Place batch `p`, at the link of instance `host` at `atNs`, going out (`tx`) or in. */
  place(atNs: number, host: number, p: Packet, tx: boolean): void {
    this.count = p.count;
    this.startNs = atNs;
    this.gapNs = 0;
    const lab = this.lab;
    const inst = lab?.instanceAt(host);
    if (lab == null || inst === undefined) return;
    const gap = batchGapNs(inst, p.sizeBytes);
    if (gap === 0) return;
    const slot = 2 * host + (tx ? 0 : 1);
    const end = this.endNs[slot] ?? 0;
    const start = end > atNs ? batchStartNs(inst, captureDevice(lab, inst, p, tx), tx, atNs, end, gap) : atNs;
    this.endNs[slot] = start + p.count * gap;
    this.startNs = start;
    this.gapNs = gap;
  }

  /** When packet k of the batch placed last is on the link. */
  rowNs(k: number): number {
    return batchRowNs(this.startNs, k, this.gapNs);
  }

  /** How many packets of the batch placed last are on the link before `tNs`. */
  before(tNs: number): number {
    const n = this.count;
    const g = this.gapNs;
    if (g === 0) return tNs > this.startNs ? n : 0;
    let k = Math.min(n, Math.max(0, Math.ceil((tNs - this.startNs) / g)));
    // batchRowNs rounds to whole ns: settle the estimate on its exact boundary
    while (k > 0 && this.rowNs(k - 1) >= tNs) k--;
    while (k < n && this.rowNs(k) < tNs) k++;
    return k;
  }

  /**
   * Add `perPacket` × the packets of the batch placed last into the buckets of `ring` they fall in
   * (its buckets are `ring.stepNs` wide; those up to the last packet's are made current).
   */
  addTo(ring: TimeRing, perPacket: number): void {
    const step = ring.stepNs;
    const n = this.count;
    const last = Math.floor(this.rowNs(n - 1) / step);
    ring.advance(last, 0);
    // the whole batch in one bucket (a 1 ms ring nearly always): one add
    if (this.gapNs === 0 || Math.floor(this.startNs / step) === last) {
      ring.add(last, n * perPacket);
      return;
    }
    for (let k = 0; k < n; ) {
      const b = Math.floor(this.rowNs(k) / step);
      const k2 = this.before((b + 1) * step);
      ring.add(b, (k2 - k) * perPacket);
      k = k2;
    }
  }
}
