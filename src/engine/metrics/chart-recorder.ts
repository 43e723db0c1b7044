/**
 * What the visual lab's charts need from the model beyond the per-millisecond counter samples:
 * one-way latency percentiles over time per receiving instance, and drops over time by (stage,
 * reason). A stage-probe listener, always on in the worker (one branch per stage crossing; work
 * only at socket_rx and on drops). Latency is binned as the full recorder's LatencyHistogram, so
 * a window's percentiles equal `lab summary`'s for the same packets.
 *
 * Guarantees: observational only; deterministic; memory bounded for the 1 ms tier and linear in
 * run time for the 100 ms one. How percentiles are kept and merged: docs/design.md, "Latency
 * percentiles in the charts". Bytes out are counted packet by packet as the link carries a batch
 * (./link-spread.ts), as the full recorder counts them.
 */
import type { ProbeSink, ProbeStage } from '../model/probe';
import type { DropReason } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import {
  COARSE_STEP_NS,
  CounterSeries,
  counterSeries,
  DETAIL_STEP_NS,
  LATENCY_BINS,
  latencyBin,
  latencyBinMid,
  MS_STEP_NS,
} from './recorder';
import { type HostLinks, LinkSpread } from './link-spread';
import { GrowArray, TimeRing } from './time-ring';

/**
 * 1 ms buckets kept (16.4 s). Bounded small on purpose: the worker keeps up to 8 frozen runs as
 * seek checkpoints, each with its own recorder; older or wider windows read the 100 ms tier.
 */
export const FINE_BUCKETS = 1 << 14;
/** Non-empty (bucket, bin) entries the 1 ms tier keeps at most, per instance (2.5 MB). */
export const FINE_MAX_ENTRIES = 1 << 18;
/** 10 µs buckets of each instance's bytes out kept (655 ms): the averaging ladder's finest strip. */
export const OUT_10US_BUCKETS = 1 << 16;
/** 1 ms buckets of each instance's bytes out kept (16.4 s): the ladder's millisecond strip. */
export const OUT_MS_BUCKETS = 1 << 14;
/** Bytes the ENA counts per packet beyond its IP length (the Ethernet header), as the full recorder. */
const ETH_HDR = 14;
/** The percentiles the charts draw. */
export const LATENCY_QUANTILES = [0.5, 0.99, 0.999] as const;

/** HistTier.bucket's answers. */
const FOUND = 1;
const EMPTY = 0;
const GONE = -1;

/** Sort the first `n` entries of `a` ascending, in place (a few: insertion sort; more: the typed array's own). */
function sortSmall(a: Uint16Array, n: number): Uint16Array {
  if (n > 24) {
    a.subarray(0, n).sort();
    return a;
  }
  for (let i = 1; i < n; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
  return a;
}

/**
 * A sequence of time buckets, each a sparse latency histogram: (bin, count) entries appended as
 * buckets close. The open bucket is dense scratch plus the list of bins it touched.
 */
class HistTier {
  private cur = -1;
  private readonly open = new Float64Array(LATENCY_BINS);
  /** Bins the open bucket touched (first `nTouched`): a typed array sorts numerically without a comparator. */
  private readonly touched = new Uint16Array(LATENCY_BINS);
  private nTouched = 0;
  private openMin = Number.POSITIVE_INFINITY;
  private openMax = 0;
  // entries (absolute numbering; entry k lives at k % capacity)
  private bins = new Uint16Array(1024);
  private counts = new Float64Array(1024);
  private written = 0;
  // per bucket: [start, end) entries, min, max; a ring of `ringSize` buckets, or growing (0)
  private readonly tag: Float64Array | null;
  private readonly meta: Float64Array | GrowArray[];

  constructor(
    readonly stepNs: number,
    private readonly ringSize: number,
    private readonly maxEntries: number,
  ) {
    if (ringSize > 0) {
      this.tag = new Float64Array(ringSize).fill(-1);
      this.meta = new Float64Array(ringSize * 4);
    } else {
      this.tag = null;
      this.meta = [new GrowArray(), new GrowArray(), new GrowArray(), new GrowArray()];
    }
  }

  add(atNs: number, bin: number, ns: number, count: number): void {
    const b = Math.floor(atNs / this.stepNs);
    if (b !== this.cur) this.close(b);
    if (this.open[bin] === 0) this.touched[this.nTouched++] = bin;
    this.open[bin]! += count;
    if (ns < this.openMin) this.openMin = ns;
    if (ns > this.openMax) this.openMax = ns;
  }

  /** Write the open bucket's entries (ascending bins) and start bucket `next`. */
  private close(next: number): void {
    const n = this.nTouched;
    if (this.cur >= 0 && n > 0) {
      const start = this.written;
      const bins = n > 1 ? sortSmall(this.touched, n) : this.touched;
      for (let i = 0; i < n; i++) {
        const bin = bins[i]!;
        this.push(bin, this.open[bin]!);
        this.open[bin] = 0;
      }
      this.setMeta(this.cur, start, this.written, this.openMin, this.openMax);
    } else for (let i = 0; i < n; i++) this.open[this.touched[i]!] = 0;
    this.nTouched = 0;
    this.openMin = Number.POSITIVE_INFINITY;
    this.openMax = 0;
    this.cur = next;
  }

  private push(bin: number, count: number): void {
    if (this.written >= this.bins.length && this.bins.length < this.maxEntries) {
      const n = Math.min(this.maxEntries, this.bins.length * 2);
      const b = new Uint16Array(n);
      b.set(this.bins);
      const c = new Float64Array(n);
      c.set(this.counts);
      this.bins = b;
      this.counts = c;
    }
    const k = this.written % this.bins.length;
    this.bins[k] = bin;
    this.counts[k] = count;
    this.written++;
  }

  private setMeta(b: number, start: number, end: number, min: number, max: number): void {
    if (this.tag) {
      const slot = b % this.ringSize;
      this.tag[slot] = b;
      const m = this.meta as Float64Array;
      m[slot * 4] = start;
      m[slot * 4 + 1] = end;
      m[slot * 4 + 2] = min;
      m[slot * 4 + 3] = max;
    } else {
      const [s, e, lo, hi] = this.meta as GrowArray[];
      s!.add(b, start);
      e!.add(b, end);
      lo!.add(b, min);
      hi!.add(b, max);
    }
  }

  /** The last bucket read (bucket()): its entries [start, end), min, max. */
  private bkStart = 0;
  private bkEnd = 0;
  private bkMin = 0;
  private bkMax = 0;

  /**
   * Bucket b: FOUND (its entries [start, end), min and max in bkStart … bkMax), EMPTY (it holds
   * nothing) or GONE (no longer kept). No object per bucket: a wide window reads thousands.
   */
  private bucket(b: number): number {
    let start: number;
    let end: number;
    if (this.tag) {
      // a bucket older than the ring: forgotten (its slot may hold a newer one)
      if (b <= this.cur - this.ringSize) return GONE;
      const slot = b % this.ringSize;
      if (this.tag[slot] !== b) return EMPTY;
      const m = this.meta as Float64Array;
      start = m[slot * 4]!;
      end = m[slot * 4 + 1]!;
      this.bkMin = m[slot * 4 + 2]!;
      this.bkMax = m[slot * 4 + 3]!;
    } else {
      const meta = this.meta as GrowArray[];
      end = meta[1]!.get(b);
      if (!(end > 0)) return EMPTY;
      start = meta[0]!.get(b);
      this.bkMin = meta[2]!.get(b);
      this.bkMax = meta[3]!.get(b);
    }
    if (end === start) return EMPTY;
    if (start < this.written - this.bins.length) return GONE; // entries overwritten
    this.bkStart = start;
    this.bkEnd = end;
    return FOUND;
  }

  /** Whether every bucket from `fromNs` on is still held (the coarse tier always is). */
  holds(fromNs: number): boolean {
    if (!this.tag) return true;
    const b0 = Math.floor(fromNs / this.stepNs);
    if (b0 <= this.cur - this.ringSize) return false;
    for (let b = b0; b < this.cur; b++) {
      const k = this.bucket(b);
      if (k === GONE) return false;
      if (k === FOUND) return true; // entries are in time order: the first one held means all later are
    }
    return true;
  }

  /** Add buckets [b0, b1) (and the open one if inside) into `h`. */
  mergeInto(b0: number, b1: number, h: SparseHist): void {
    for (let b = b0; b < b1; b++) {
      if (b === this.cur) {
        for (let i = 0; i < this.nTouched; i++) h.add(this.touched[i]!, this.open[this.touched[i]!]!);
        if (this.nTouched > 0) h.bound(this.openMin, this.openMax);
        continue;
      }
      if (this.bucket(b) !== FOUND) continue;
      const cap = this.bins.length;
      for (let e = this.bkStart; e < this.bkEnd; e++) {
        const i = e < cap ? e : e % cap;
        h.add(this.bins[i]!, this.counts[i]!);
      }
      h.bound(this.bkMin, this.bkMax);
    }
  }

  get sizeBytes(): number {
    const m = this.meta instanceof Float64Array ? this.meta.byteLength : 0;
    return this.bins.byteLength + this.counts.byteLength + m + (this.tag?.byteLength ?? 0);
  }
}

/** A histogram being merged for one answer step: dense counts plus the bins touched. */
class SparseHist {
  readonly counts = new Float64Array(LATENCY_BINS);
  /** Bins touched (the first `nTouched`). */
  readonly touched = new Uint16Array(LATENCY_BINS);
  nTouched = 0;
  n = 0;
  min = Number.POSITIVE_INFINITY;
  max = 0;

  add(bin: number, count: number): void {
    if (this.counts[bin] === 0) this.touched[this.nTouched++] = bin;
    this.counts[bin]! += count;
    this.n += count;
  }

  bound(min: number, max: number): void {
    if (min < this.min) this.min = min;
    if (max > this.max) this.max = max;
  }

  /** As LatencyHistogram.quantile: the middle of the bin holding the q-quantile, clamped to [min, max]. */
  quantile(q: number): number {
    if (this.n === 0) return Number.NaN;
    const target = q * this.n;
    let acc = 0;
    for (let i = 0; i < this.nTouched; i++) {
      const bin = this.touched[i]!;
      acc += this.counts[bin]!;
      if (acc >= target) return Math.min(this.max, Math.max(this.min, latencyBinMid(bin)));
    }
    return this.max;
  }

  sortBins(): void {
    if (this.nTouched > 1) sortSmall(this.touched, this.nTouched);
  }

  clear(): void {
    for (let i = 0; i < this.nTouched; i++) this.counts[this.touched[i]!] = 0;
    this.nTouched = 0;
    this.n = 0;
    this.min = Number.POSITIVE_INFINITY;
    this.max = 0;
  }
}

/** One receiving instance's latency percentiles per step (ns; NaN where no packet arrived). */
export interface LatencySeries {
  host: number;
  /** One array per LATENCY_QUANTILES entry. */
  quantiles: Float64Array[];
  /** Packets received in each step. */
  packets: Float64Array;
}

/** Drops of one (host, stage, reason) per step. */
export interface DropSeries {
  host: number;
  stage: ProbeStage;
  reason: DropReason;
  /** Packets dropped in each step. */
  packets: Float64Array;
}

export interface ChartSeriesResult {
  t0Ns: number;
  stepNs: number;
  /** The bucket size the answer was built from (1 ms or 100 ms). */
  tierStepNs: number;
  steps: number;
  latency: LatencySeries[];
  drops: DropSeries[];
}

/** An instance's bytes out in steps of 10 µs or 1 ms from t0Ns (NaN: no longer kept). */
export interface BytesOutSeries {
  t0Ns: number;
  stepNs: number;
  bytes: Float64Array;
}

export class ChartRecorder implements ProbeSink {
  /**
   * Bytes out per host at 10 µs and 1 ms (rings of the recent past; a batch's packets where the link
   * carries them, which may be after the clock), and when the host's last packet is on the link.
   */
  private readonly out10: (TimeRing | undefined)[] = [];
  private readonly outMs: (TimeRing | undefined)[] = [];
  readonly lastOutNs: number[] = [];
  private readonly fine: (HistTier | undefined)[] = [];
  private readonly coarse: (HistTier | undefined)[] = [];
  private readonly dropSeries: Array<{
    host: number;
    stage: ProbeStage;
    reason: DropReason;
    s: CounterSeries;
  }> = [];
  private readonly scratch = new SparseHist();
  /** Latency where the receiving socket takes a batch; bytes out where the device fetches it. */
  readonly enterStages = ['socket_rx'] as const;
  readonly leaveStages = ['tx_ring'] as const;
  nowNs = 0;

  private readonly link = new LinkSpread();

  constructor(readonly hosts: number) {}

  /** The lab's probe hands them over on attach: its instances' links place the batches. */
  bindLinks(links: HostLinks): void {
    this.link.bind(links);
  }

  enter(atNs: number, host: number, stage: ProbeStage, _queue: number, pkt: Packet): void {
    if (stage !== 'socket_rx') return;
    this.nowNs = atNs;
    const ns = Math.max(1, atNs - pkt.sentAtNs);
    const bin = latencyBin(ns);
    let f = this.fine[host];
    if (f === undefined) {
      f = new HistTier(MS_STEP_NS, FINE_BUCKETS, FINE_MAX_ENTRIES);
      this.fine[host] = f;
      this.coarse[host] = new HistTier(COARSE_STEP_NS, 0, Number.POSITIVE_INFINITY);
    }
    f.add(atNs, bin, ns, pkt.count);
    this.coarse[host]!.add(atNs, bin, ns, pkt.count);
  }

  /**
   * Bytes out as the full recorder counts them: a TX ring's batch fetched by the device (what the
   * ENA's tx_bytes counts), IP length + the Ethernet header per packet, each packet when the host
   * link carries it (LinkSpread: one serialisation apart, behind the batch before it).
   */
  leave(atNs: number, host: number, stage: ProbeStage, _queue: number, pkt: Packet): void {
    if (stage !== 'tx_ring') return;
    this.nowNs = atNs;
    let r10 = this.out10[host];
    let rMs = this.outMs[host];
    if (r10 === undefined || rMs === undefined) {
      r10 = new TimeRing(DETAIL_STEP_NS, OUT_10US_BUCKETS);
      rMs = new TimeRing(MS_STEP_NS, OUT_MS_BUCKETS);
      this.out10[host] = r10;
      this.outMs[host] = rMs;
    }
    const link = this.link;
    link.place(atNs, host, pkt, true);
    const perPacket = pkt.sizeBytes + ETH_HDR;
    link.addTo(r10, perPacket);
    link.addTo(rMs, perPacket);
    this.lastOutNs[host] = link.lastNs;
  }

  /**
   * The instant the averaging ladder shows for `host`: `atNs` when asked; else the busiest 10 µs of
   * the busiest millisecond in the last half second it sent ('sending' when it sent in the last
   * millisecond, 'last-burst' when it has stopped); the clock when it never sent.
   */
  ladderFocus(
    host: number,
    atNs: number | null,
    nowNs: number,
  ): { focusNs: number; focus: 'asked' | 'sending' | 'last-burst' | 'idle' } {
    if (atNs !== null) return { focusNs: atNs, focus: 'asked' };
    const last = this.lastOutNs[host];
    const ring = this.outMs[host];
    if (last === undefined || ring === undefined) return { focusNs: nowNs, focus: 'idle' };
    const sending = nowNs - last <= MS_STEP_NS;
    // the clock's bucket at the latest: a batch's last packets may be on the link after it
    const hi = Math.floor(Math.min(last, nowNs) / MS_STEP_NS);
    let best = hi;
    let bestV = -1;
    // the last half second it sent: its 10 µs buckets are still kept (655 ms), so the finest strip has them
    for (let b = hi; b > hi - 500 && b >= ring.lo; b--) {
      const v = ring.get(b);
      if (v > bestV) {
        bestV = v;
        best = b;
      }
    }
    // inside it, the busiest 10 µs (when still kept): the bar the finest strip is centred on
    const r10 = this.out10[host]!;
    const per = MS_STEP_NS / DETAIL_STEP_NS;
    let best10 = -1;
    let best10V = 0;
    const last10 = Math.floor(nowNs / DETAIL_STEP_NS);
    for (let b = best * per; b < (best + 1) * per && b <= last10; b++) {
      const v = r10.get(b);
      if (v > best10V) {
        best10V = v;
        best10 = b;
      }
    }
    const focusNs =
      best10 >= 0 ? best10 * DETAIL_STEP_NS + DETAIL_STEP_NS / 2 : best * MS_STEP_NS + MS_STEP_NS / 2;
    return { focusNs, focus: sending ? 'sending' : 'last-burst' };
  }

  /**
   * `host`'s bytes out over [fromNs, toNs) in buckets of `stepNs` (10 µs or 1 ms), read up to
   * `nowNs`: 0 where nothing was sent, NaN before what the ring still holds or after `nowNs`.
   */
  bytesOut(
    host: number,
    fromNs: number,
    toNs: number,
    stepNs: 10_000 | 1_000_000,
    nowNs: number,
  ): BytesOutSeries {
    const ring = (stepNs === DETAIL_STEP_NS ? this.out10 : this.outMs)[host];
    const b0 = Math.floor(Math.max(0, fromNs) / stepNs);
    const n = Math.max(0, Math.min(100_000, Math.ceil(toNs / stepNs) - b0));
    const bytes = new Float64Array(n);
    const last = Math.floor(nowNs / stepNs); // the bucket under way counts what it has so far
    for (let k = 0; k < n; k++) {
      const b = b0 + k;
      if (b > last) bytes[k] = Number.NaN;
      else if (ring === undefined || b > ring.hi) bytes[k] = 0;
      else bytes[k] = ring.get(b);
    }
    return { t0Ns: b0 * stepNs, stepNs, bytes };
  }

  drop(
    atNs: number,
    host: number,
    stage: ProbeStage,
    _queue: number,
    _pkt: Packet,
    count: number,
    reason: DropReason,
  ): void {
    this.nowNs = atNs;
    let d = this.dropSeries.find((x) => x.host === host && x.stage === stage && x.reason === reason);
    if (d === undefined) {
      d = { host, stage, reason, s: new CounterSeries(FINE_BUCKETS) };
      this.dropSeries.push(d);
    }
    d.s.add(atNs, count);
  }

  /**
   * Latency percentiles and drops in steps of `stepNs` over [fromNs, toNs), read up to `nowNs`
   * (the lab's clock). The step is rounded to the tier's bucket: 1 ms buckets when the step is
   * under 100 ms and the 1 ms tier still holds `fromNs`, else 100 ms buckets.
   */
  query(fromNs: number, toNs: number, stepNs: number, nowNs: number): ChartSeriesResult {
    if (nowNs > this.nowNs) this.nowNs = nowNs;
    const fineOk =
      stepNs < COARSE_STEP_NS && this.fine.every((f) => f === undefined || f.holds(Math.max(0, fromNs)));
    const tier = fineOk ? MS_STEP_NS : COARSE_STEP_NS;
    const step = Math.max(tier, Math.round(stepNs / tier) * tier);
    const t0 = Math.floor(Math.max(0, fromNs) / tier) * tier;
    const m = Math.max(0, Math.min(100_000, Math.ceil((toNs - t0) / step)));
    const per = step / tier;
    const b0 = t0 / tier;
    const latency: LatencySeries[] = [];
    for (let host = 0; host < this.hosts; host++) {
      const t = (fineOk ? this.fine : this.coarse)[host];
      if (!t) continue;
      const qs = LATENCY_QUANTILES.map(() => new Float64Array(m).fill(Number.NaN));
      const packets = new Float64Array(m);
      const h = this.scratch;
      for (let k = 0; k < m; k++) {
        t.mergeInto(b0 + k * per, b0 + (k + 1) * per, h);
        if (h.n > 0) {
          h.sortBins();
          packets[k] = h.n;
          for (let i = 0; i < LATENCY_QUANTILES.length; i++) qs[i]![k] = h.quantile(LATENCY_QUANTILES[i]!);
        }
        h.clear();
      }
      latency.push({ host, quantiles: qs, packets });
    }
    const drops: DropSeries[] = [];
    for (const d of this.dropSeries) {
      d.s.flush(this.nowNs);
      const r = counterSeries(
        [d.s],
        { host: d.host, metric: 'drops', fromNs: t0, toNs: t0 + m * step, stepNs: step },
        null,
        FINE_BUCKETS,
      );
      // the counter tiers pick their own bucket (1 ms ring or 100 ms): resample to this answer's steps
      const packets = new Float64Array(m);
      for (let j = 0; j < r.sum.length; j++) {
        const k = Math.floor((r.t0Ns + j * r.stepNs - t0) / step);
        if (k >= 0 && k < m && !Number.isNaN(r.sum[j]!)) packets[k]! += r.sum[j]!;
      }
      drops.push({ host: d.host, stage: d.stage, reason: d.reason, packets });
    }
    return { t0Ns: t0, stepNs: step, tierStepNs: tier, steps: m, latency, drops };
  }

  /** Bytes held (for the memory report). */
  get sizeBytes(): number {
    let n = 0;
    for (const t of [...this.fine, ...this.coarse]) if (t) n += t.sizeBytes;
    for (const r of [...this.out10, ...this.outMs]) if (r) n += r.sizeBytes;
    for (const d of this.dropSeries) n += d.s.sizeBytes;
    return n;
  }
}
