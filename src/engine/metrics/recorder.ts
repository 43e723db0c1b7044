/**
 * The metrics recorder: a stage-probe listener that keeps, for every instance, the time series the
 * dashboards and the lab's own views are built from (traffic per ENI and direction, occupancy per
 * stage and queue, drops by reason, one-way latency histograms, Nitro allowance counters), at
 * 10 µs, 1 ms and 100 ms at once, with the peak of the finer tiers kept in each coarser bucket.
 *
 * Guarantees: observational only (it never schedules or mutates); memory bounded by the tiers'
 * capacities times the series that saw traffic; queries return plain typed arrays.
 * What each series counts and the tiers' sizes: docs/design.md, "The metrics recorder".
 */
import { PROBE_STAGES, type ProbeSink, type ProbeStage } from '../model/probe';
import type { DropReason } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import { type HostLinks, LinkSpread } from './link-spread';
import { GrowArray, TimeRing } from './time-ring';

export const DETAIL_STEP_NS = 10_000;
export const MS_STEP_NS = 1_000_000;
export const COARSE_STEP_NS = 100_000_000;
/** Most buckets the whole-run tier keeps per array: past it the tier's step doubles (bounded memory). */
export const COARSE_MAX_BUCKETS = 4096;

/**
 * The whole-run tier's bucket width, shared by every series of one recorder so their buckets line
 * up: COARSE_STEP_NS × 2^shift. A recorder doubles it (merging bucket pairs) when a run outgrows
 * COARSE_MAX_BUCKETS buckets, so a run of any length keeps at most that many: 100 ms buckets for
 * the first 6.8 minutes, 200 ms to 13.7 minutes, and so on.
 */
export class CoarseClock {
  shift = 0;
  get stepNs(): number {
    return COARSE_STEP_NS * 2 ** this.shift;
  }
  /** Coarse bucket of millisecond `ims`. */
  ofMs(ims: number): number {
    return Math.floor(ims / (100 * 2 ** this.shift));
  }
}
/** A clock that never doubles (series whose owner bounds them otherwise). */
export const FIXED_COARSE = new CoarseClock();
export const DETAIL_BUCKETS = 1 << 16; // 655 ms at 10 µs
/** Traffic and drop counters at 1 ms: the last 16.4 s (older: 100 ms buckets with their 1 ms and 10 µs peaks). */
export const MS_BUCKETS = 1 << 14;
/** Occupancy at 1 ms: the last 4.1 s (older: 100 ms buckets with their maximum and mean). */
export const LEVEL_MS_BUCKETS = 1 << 12;
const ETH_HDR = 14;
/** Buckets a query reads at a time (bounded scratch memory, whole chunks copied at once). */
const READ_BLOCK = 8192;

/**
 * A counter (bytes, packets, drops) at every tier. The open 10 µs and 1 ms buckets are plain fields;
 * the rings are written only when a bucket closes, so a call costs a division and a compare.
 */
export class CounterSeries {
  private cur10 = -1;
  private sum10 = 0;
  private curMs = -1;
  private sumMs = 0;
  private max10Ms = 0;
  readonly ms: TimeRing;
  readonly msMax10: TimeRing;
  readonly coarse = new GrowArray();
  // maxima of 10 µs and 1 ms sums: ≤ 12.5 MB at 100 Gbps, exact in Float32 (integers < 2^24)
  readonly coarseMax10 = new GrowArray(32);
  readonly coarseMax1ms = new GrowArray(32);
  detail: TimeRing | null = null;
  detailFromIdx = 0;
  total = 0;

  constructor(
    msBuckets: number,
    readonly clock: CoarseClock = FIXED_COARSE,
  ) {
    this.ms = new TimeRing(MS_STEP_NS, msBuckets);
    this.msMax10 = new TimeRing(MS_STEP_NS, msBuckets);
  }

  /** The coarse clock doubled: merge bucket pairs. */
  halveCoarse(): void {
    this.coarse.halve('sum');
    this.coarseMax10.halve('max');
    this.coarseMax1ms.halve('max');
  }

  add(t: number, v: number): void {
    this.total += v;
    const i10 = Math.floor(t / DETAIL_STEP_NS);
    if (i10 !== this.cur10) this.roll(i10);
    this.sum10 += v;
    this.sumMs += v;
    const d = this.detail;
    if (d !== null) {
      const k = i10 - this.detailFromIdx;
      if (k >= 0 && k < d.capacity) {
        d.advance(k, 0);
        d.add(k, v);
      }
    }
  }

  /** Close the open 10 µs bucket (and the 1 ms one when `i10` is in another millisecond). */
  private roll(i10: number): void {
    if (this.sum10 > this.max10Ms) this.max10Ms = this.sum10;
    this.sum10 = 0;
    this.cur10 = i10;
    const ims = Math.floor(i10 / 100);
    if (ims !== this.curMs) {
      this.closeMs();
      this.curMs = ims;
    }
  }

  private closeMs(): void {
    const ims = this.curMs;
    if (ims >= 0 && (this.sumMs !== 0 || this.max10Ms !== 0)) {
      this.ms.advance(ims, 0);
      this.msMax10.advance(ims, 0);
      this.ms.add(ims, this.sumMs);
      this.msMax10.max(ims, this.max10Ms);
      const ic = this.clock.ofMs(ims);
      this.coarse.add(ic, this.sumMs);
      this.coarseMax10.max(ic, this.max10Ms);
      this.coarseMax1ms.max(ic, this.sumMs);
    }
    this.sumMs = 0;
    this.max10Ms = 0;
  }

  /** Close the open buckets up to time `t` (before reading). */
  flush(t: number): void {
    this.roll(Math.floor(t / DETAIL_STEP_NS) + 100);
    const ims = Math.floor(t / MS_STEP_NS);
    this.ms.advance(ims, 0);
    this.msMax10.advance(ims, 0);
  }

  get sizeBytes(): number {
    return (
      this.ms.sizeBytes +
      this.msMax10.sizeBytes +
      this.coarse.sizeBytes +
      this.coarseMax10.sizeBytes +
      this.coarseMax1ms.sizeBytes +
      (this.detail?.sizeBytes ?? 0)
    );
  }
}

/** 10 µs buckets a batch spread over the link may reach ahead of the clock (82 ms). */
const PENDING_BUCKETS = 1 << 13;

/**
 * The 10 µs sums of a traffic counter that a later batch may still add to. A batch's packets are
 * counted where the host link carries them (LinkSpread): at or after the batch's instant, up to a
 * ring of packets later. So a bucket is final once the clock has passed it, and final buckets go
 * to the counter in time order (what its open-bucket sums and maxima need).
 */
class PendingSums {
  private sums: Float64Array | null = null;
  /** The first bucket not yet handed on, and the last one holding something. */
  private base = 0;
  private top = -1;
  /** Held, not yet handed on. */
  held = 0;

  add(b: number, v: number, s: CounterSeries): void {
    let sums = this.sums;
    if (sums === null) {
      sums = new Float64Array(PENDING_BUCKETS);
      this.sums = sums;
    }
    if (b < this.base) {
      // handed on already (a read settled the clock's own bucket): the counter takes it as it did before
      s.add(b * DETAIL_STEP_NS, v);
      return;
    }
    if (b - this.base >= PENDING_BUCKETS) this.release(b - PENDING_BUCKETS + 1, s);
    sums[b & (PENDING_BUCKETS - 1)]! += v;
    this.held += v;
    if (b > this.top) this.top = b;
  }

  /** Hand on the buckets before `b` (the clock reached it: nothing can land there any more). */
  release(b: number, s: CounterSeries): void {
    if (b <= this.base) return;
    const sums = this.sums;
    const end = Math.min(b, this.top + 1);
    if (sums !== null)
      for (let i = this.base; i < end; i++) {
        const slot = i & (PENDING_BUCKETS - 1);
        const v = sums[slot]!;
        if (v === 0) continue;
        sums[slot] = 0;
        this.held -= v;
        s.add(i * DETAIL_STEP_NS, v);
      }
    this.base = b;
  }
}

/**
 * An occupancy level: the max inside each bucket and the time integral (for the mean). The open
 * millisecond's max and integral are fields; buckets are written when it closes.
 */
export class LevelSeries {
  level = 0;
  peak = 0;
  private lastT = 0;
  private curMs = 0;
  private maxMs = 0;
  private intMs = 0;
  readonly msMax: TimeRing;
  readonly msInt: TimeRing;
  readonly coarseMax = new GrowArray(32);
  readonly coarseInt = new GrowArray();

  constructor(
    msBuckets: number,
    readonly clock: CoarseClock = FIXED_COARSE,
  ) {
    this.msMax = new TimeRing(MS_STEP_NS, msBuckets);
    this.msInt = new TimeRing(MS_STEP_NS, msBuckets);
  }

  /** The coarse clock doubled: merge bucket pairs. */
  halveCoarse(): void {
    this.coarseMax.halve('max');
    this.coarseInt.halve('sum');
  }

  change(t: number, d: number): void {
    if (t >= (this.curMs + 1) * MS_STEP_NS) this.catchUp(t);
    else this.intMs += this.level * (t - this.lastT);
    this.lastT = t;
    this.level += d;
    if (this.level > this.maxMs) this.maxMs = this.level;
    if (this.level > this.peak) this.peak = this.level;
  }

  /** Close the open millisecond and the ones the level was held through, up to time t. */
  catchUp(t: number): void {
    const lv = this.level;
    const ims = Math.floor(t / MS_STEP_NS);
    if (ims === this.curMs) {
      this.intMs += lv * (t - this.lastT);
      this.lastT = t;
      this.writeMs(ims, this.maxMs, this.intMs);
      return;
    }
    const endCur = (this.curMs + 1) * MS_STEP_NS;
    this.writeMs(this.curMs, this.maxMs, this.intMs + lv * (endCur - this.lastT));
    // whole milliseconds at the held level
    if (lv !== 0 && ims > this.curMs + 1) {
      const from = Math.max(this.curMs + 1, ims - this.msMax.capacity);
      for (let b = from; b < ims; b++) {
        this.msMax.advance(b, 0);
        this.msInt.advance(b, 0);
        this.msMax.max(b, lv);
        this.msInt.add(b, lv * MS_STEP_NS);
      }
      const perMs = 100 * 2 ** this.clock.shift;
      for (let b = this.curMs + 1; b < ims; ) {
        const c = Math.floor(b / perMs);
        const end = Math.min(ims, (c + 1) * perMs);
        this.coarseMax.max(c, lv);
        this.coarseInt.add(c, lv * MS_STEP_NS * (end - b));
        b = end;
      }
    }
    this.curMs = ims;
    this.intMs = lv * (t - ims * MS_STEP_NS);
    this.maxMs = lv;
    this.lastT = t;
  }

  private lastFoldMs = -1;
  private lastFoldInt = 0;

  /** Write millisecond b's max and integral (set, not add: the open one may be written again). */
  private writeMs(b: number, mx: number, it: number): void {
    this.msMax.advance(b, 0);
    this.msInt.advance(b, 0);
    this.msMax.max(b, mx);
    const prev = b === this.lastFoldMs ? this.lastFoldInt : 0;
    this.msInt.add(b, it - prev);
    const c = this.clock.ofMs(b);
    this.coarseMax.max(c, mx);
    this.coarseInt.add(c, it - prev);
    this.lastFoldMs = b;
    this.lastFoldInt = it;
  }

  get sizeBytes(): number {
    return this.msMax.sizeBytes + this.msInt.sizeBytes + this.coarseMax.sizeBytes + this.coarseInt.sizeBytes;
  }
}

/** Bins of the latency histogram: 32 sub-buckets per power of two of nanoseconds (64 octaves). */
export const LATENCY_BINS = 64 * 32;

/** The latency histogram's bin of `ns` (values below 1 ns count as 1 ns). */
export function latencyBin(ns: number): number {
  const v = Math.max(1, ns);
  if (v < 2 ** 31 && Number.isInteger(v)) {
    // integer ns (every latency the engine measures): the same bin from the bits, without log2
    const e = 31 - Math.clz32(v);
    return e * 32 + (e >= 5 ? (v >>> (e - 5)) & 31 : Math.min(31, Math.floor((v / 2 ** e - 1) * 32)));
  }
  const e = Math.floor(Math.log2(v));
  const sub = Math.min(31, Math.floor((v / 2 ** e - 1) * 32));
  return e * 32 + sub;
}

/** The middle of latency bin `i`, ns (what a quantile in it reports, before the [min, max] clamp). */
export function latencyBinMid(i: number): number {
  const e = Math.floor(i / 32);
  const sub = i % 32;
  return 2 ** e * (1 + (sub + 0.5) / 32);
}

/** Log-linear latency histogram (ns): 32 sub-buckets per power of two. */
export class LatencyHistogram {
  readonly counts = new Float64Array(LATENCY_BINS);
  n = 0;
  minNs = Number.POSITIVE_INFINITY;
  maxNs = 0;

  add(ns: number, count: number): void {
    const v = Math.max(1, ns);
    this.counts[latencyBin(v)]! += count;
    this.n += count;
    if (v < this.minNs) this.minNs = v;
    if (v > this.maxNs) this.maxNs = v;
  }

  /** The q-quantile (0..1), ns: the middle of the bucket that holds it, clamped to [min, max]. */
  quantile(q: number): number {
    if (this.n === 0) return Number.NaN;
    const target = q * this.n;
    let acc = 0;
    for (let i = 0; i < this.counts.length; i++) {
      acc += this.counts[i]!;
      if (acc >= target && this.counts[i]! > 0)
        return Math.min(this.maxNs, Math.max(this.minNs, latencyBinMid(i)));
    }
    return this.maxNs;
  }
}

export type TrafficMetric = 'bytes_out' | 'bytes_in' | 'packets_out' | 'packets_in';
export type SeriesMetric = TrafficMetric | 'occupancy' | 'drops';

export interface SeriesQuery {
  host: number;
  metric: SeriesMetric;
  /** occupancy and drops: the stage (drops: all stages when omitted). */
  stage?: ProbeStage;
  /** occupancy: the queue; omitted = every queue of the stage (max of maxima, sum of means). */
  queue?: number;
  /** drops: one reason (all when omitted). */
  reason?: DropReason;
  fromNs: number;
  toNs: number;
  stepNs: number;
}

/**
 * A series answer. Counters: `sum` = total in each bucket, `mean` = its rate per second, `max` = the
 * highest rate per second over any 10 µs inside the bucket. Occupancy: `sum` = packet·ns held,
 * `mean` = time-weighted mean packets, `max` = most packets held at once. NaN = not retained.
 */
export interface SeriesResult {
  t0Ns: number;
  stepNs: number;
  /** Resolution the answer was built from (10 µs, 1 ms or 100 ms). */
  tierStepNs: number;
  sum: Float64Array;
  mean: Float64Array;
  max: Float64Array;
}

export interface RecorderOptions {
  /** Cumulative counters to sample each simulated second, per host (Nitro allowance counters). */
  counters?: (host: number) => Array<[string, number]>;
  msBuckets?: number;
  levelMsBuckets?: number;
}

/** Counter samples of one host: names and one row per simulated second (row k: at k s). */
export interface CounterSamples {
  names: string[];
  rows: Float64Array[];
}

export class MetricsRecorder implements ProbeSink {
  private readonly traffic: CounterSeries[][] = []; // [host][0 bytes_out, 1 bytes_in, 2 packets_out, 3 packets_in]
  /** Per traffic series, the 10 µs sums the link may still add to (same indices). */
  private readonly pending: PendingSums[][] = [];
  /** Where the host links carry each batch's packets (bound to the lab on attach). */
  private readonly link = new LinkSpread();
  private readonly levels = new Map<number, LevelSeries>();
  private readonly drops = new Map<
    string,
    { host: number; stage: ProbeStage; reason: DropReason; s: CounterSeries }
  >();
  readonly latency = new Map<
    number,
    { host: number; hist: LatencyHistogram; tuple: Packet['flow']['tuple'] }
  >();
  readonly samples: CounterSamples[] = [];
  private nextSampleNs = 0;
  private readonly msBuckets: number;
  private readonly levelMsBuckets: number;
  private detailFromNs = -1;
  nowNs = 0;
  /** The whole-run tier's step, shared by all series; doubled at `nextHalveNs`. */
  readonly clock = new CoarseClock();
  private nextHalveNs = COARSE_MAX_BUCKETS * COARSE_STEP_NS;

  /** The run outgrew the whole-run tier: double its step in every series (merging bucket pairs). */
  private halveCoarse(atNs: number): void {
    while (atNs >= this.nextHalveNs) {
      // close what is open first, so nothing folds into a bucket of the old width afterwards
      for (const l of this.levels.values()) l.catchUp(this.nowNs);
      this.releasePending(this.nowNs);
      for (const row of this.traffic) if (row) for (const s of row) s?.flush(this.nowNs);
      for (const d of this.drops.values()) d.s.flush(this.nowNs);
      for (const l of this.levels.values()) l.halveCoarse();
      for (const row of this.traffic) if (row) for (const s of row) s?.halveCoarse();
      for (const d of this.drops.values()) d.s.halveCoarse();
      this.clock.shift++;
      this.nextHalveNs = COARSE_MAX_BUCKETS * this.clock.stepNs;
    }
  }

  constructor(
    readonly hosts: readonly string[],
    private readonly opts: RecorderOptions = {},
  ) {
    this.msBuckets = opts.msBuckets ?? MS_BUCKETS;
    this.levelMsBuckets = opts.levelMsBuckets ?? LEVEL_MS_BUCKETS;
    for (let h = 0; h < hosts.length; h++) this.samples.push({ names: [], rows: [] });
  }

  /** The lab's probe hands them over on attach: its instances' links place the batches. */
  bindLinks(links: HostLinks): void {
    this.link.bind(links);
  }

  /** Record 10 µs buckets from `fromNs` for DETAIL_BUCKETS buckets (655 ms); replaces any earlier window. */
  setDetailWindow(fromNs: number): void {
    this.detailFromNs = fromNs;
    for (const row of this.traffic) for (const s of row) if (s) this.armDetail(s);
    for (const d of this.drops.values()) this.armDetail(d.s);
  }

  private armDetail(s: CounterSeries): void {
    if (this.detailFromNs < 0) return;
    s.detail = new TimeRing(DETAIL_STEP_NS, DETAIL_BUCKETS);
    s.detailFromIdx = Math.floor(this.detailFromNs / DETAIL_STEP_NS);
  }

  get detailWindow(): { fromNs: number; toNs: number } | null {
    if (this.detailFromNs < 0) return null;
    const from = Math.floor(this.detailFromNs / DETAIL_STEP_NS) * DETAIL_STEP_NS;
    return { fromNs: from, toNs: from + DETAIL_BUCKETS * DETAIL_STEP_NS };
  }

  private trafficOf(host: number, k: number): CounterSeries {
    let row = this.traffic[host];
    if (row === undefined) {
      row = [];
      this.traffic[host] = row;
    }
    let s = row[k];
    if (s === undefined) {
      s = new CounterSeries(this.msBuckets, this.clock);
      this.armDetail(s);
      row[k] = s;
      (this.pending[host] ??= [])[k] = new PendingSums();
    }
    return s;
  }

  /**
   * Count `perPacket` for each packet of the batch the link placed last (this.link) into traffic
   * series k of `host`, at `atNs` on the clock: each where the link carries it.
   */
  private countSpread(atNs: number, host: number, k: number, perPacket: number): void {
    const s = this.trafficOf(host, k);
    const pend = this.pending[host]![k]!;
    pend.release(Math.floor(atNs / DETAIL_STEP_NS), s);
    const link = this.link;
    const n = link.count;
    for (let i = 0; i < n; ) {
      const b = Math.floor(link.rowNs(i) / DETAIL_STEP_NS);
      const i2 = link.before((b + 1) * DETAIL_STEP_NS);
      pend.add(b, (i2 - i) * perPacket, s);
      i = i2;
    }
  }

  /** Level series by host·16 + stage, then queue (arrays: this is on every probe call). */
  private readonly levelIndex: (LevelSeries | undefined)[][] = [];

  private levelOf(host: number, stage: number, queue: number): LevelSeries {
    const hs = host * 16 + stage;
    let row = this.levelIndex[hs];
    if (row === undefined) {
      row = [];
      this.levelIndex[hs] = row;
    }
    let s = row[queue];
    if (s === undefined) {
      s = new LevelSeries(this.levelMsBuckets, this.clock);
      row[queue] = s;
      this.levels.set(hs * 65536 + queue, s);
    }
    return s;
  }

  private sample(t: number): void {
    const c = this.opts.counters;
    while (this.nextSampleNs <= t) {
      if (c)
        for (let h = 0; h < this.hosts.length; h++) {
          const rows = c(h);
          const smp = this.samples[h]!;
          if (smp.names.length === 0) smp.names = rows.map((r) => r[0]);
          smp.rows.push(Float64Array.from(rows, (r) => r[1]));
        }
      this.nextSampleNs += 1e9;
    }
  }

  // ------------------------------------------------------------------ ProbeSink

  enter(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet): void {
    if (atNs >= this.nextHalveNs) this.halveCoarse(atNs);
    this.nowNs = atNs;
    if (atNs >= this.nextSampleNs) this.sample(atNs);
    const si = STAGE_INDEX[stage];
    this.levelOf(host, si, queue).change(atNs, pkt.count);
    if (si === SOCKET_RX) {
      let l = this.latency.get(pkt.flow.id);
      if (l === undefined) {
        l = { host, hist: new LatencyHistogram(), tuple: pkt.flow.tuple };
        this.latency.set(pkt.flow.id, l);
      }
      l.hist.add(atNs - pkt.sentAtNs, pkt.count);
    }
  }

  leave(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet, _cpu: number): void {
    if (atNs >= this.nextHalveNs) this.halveCoarse(atNs);
    this.nowNs = atNs;
    const si = STAGE_INDEX[stage];
    this.levelOf(host, si, queue).change(atNs, -pkt.count);
    if (si === TX_RING) {
      this.link.place(atNs, host, pkt, true);
      this.countSpread(atNs, host, 0, pkt.sizeBytes + ETH_HDR);
      this.countSpread(atNs, host, 2, 1);
    } else if (si === NITRO_INGRESS) {
      this.link.place(atNs, host, pkt, false);
      this.countSpread(atNs, host, 1, pkt.sizeBytes + ETH_HDR);
      this.countSpread(atNs, host, 3, 1);
    }
  }

  drop(
    atNs: number,
    host: number,
    stage: ProbeStage,
    queue: number,
    _pkt: Packet,
    count: number,
    reason: DropReason,
    wasQueued: boolean,
  ): void {
    if (atNs >= this.nextHalveNs) this.halveCoarse(atNs);
    this.nowNs = atNs;
    if (wasQueued) this.levelOf(host, STAGE_INDEX[stage], queue).change(atNs, -count);
    const key = `${host}|${stage}|${reason}`;
    let d = this.drops.get(key);
    if (d === undefined) {
      d = { host, stage, reason, s: new CounterSeries(this.msBuckets, this.clock) };
      this.armDetail(d.s);
      this.drops.set(key, d);
    }
    d.s.add(atNs, count);
  }

  // ------------------------------------------------------------------ queries

  /** Bring every series up to `nowNs` (levels held, open sums folded into maxima); call before reading. */
  settle(nowNs: number): void {
    if (nowNs >= this.nextHalveNs) this.halveCoarse(nowNs);
    if (nowNs > this.nowNs) this.nowNs = nowNs;
    this.sample(this.nowNs);
    for (const l of this.levels.values()) l.catchUp(this.nowNs);
    this.releasePending(this.nowNs);
    for (const row of this.traffic) if (row) for (const s of row) s?.flush(this.nowNs);
    for (const d of this.drops.values()) d.s.flush(this.nowNs);
  }

  /** Hand the traffic counters what the links carried up to the 10 µs bucket of `nowNs` (held: later). */
  private releasePending(nowNs: number): void {
    const upTo = Math.floor(nowNs / DETAIL_STEP_NS) + 1;
    this.traffic.forEach((row, h) => {
      row?.forEach((s, k) => {
        if (s) this.pending[h]![k]!.release(upTo, s);
      });
    });
  }

  /** (stage, queue) pairs with occupancy series on `host`. */
  queues(host: number): Array<{ stage: ProbeStage; queue: number; peak: number }> {
    const out: Array<{ stage: ProbeStage; queue: number; peak: number }> = [];
    for (const [key, s] of this.levels) {
      const queue = key % 65536;
      const hs = Math.floor(key / 65536);
      if (Math.floor(hs / 16) !== host) continue;
      out.push({ stage: PROBE_STAGES[hs % 16]!, queue, peak: s.peak });
    }
    return out.sort((a, b) => STAGE_INDEX[a.stage] - STAGE_INDEX[b.stage] || a.queue - b.queue);
  }

  /** Drop totals by (host, stage, reason). */
  dropTotals(): Array<{ host: number; stage: ProbeStage; reason: DropReason; packets: number }> {
    return [...this.drops.values()].map((d) => ({
      host: d.host,
      stage: d.stage,
      reason: d.reason,
      packets: d.s.total,
    }));
  }

  /**
   * Total of a traffic counter over the whole run, as the ENA counts it: with the packets of the
   * last batches the link carries after the clock.
   */
  trafficTotal(host: number, metric: TrafficMetric): number {
    const k = TRAFFIC_INDEX[metric];
    return (this.traffic[host]?.[k]?.total ?? 0) + (this.pending[host]?.[k]?.held ?? 0);
  }

  /**
   * The largest 10 µs and 1 ms sums of a traffic counter inside the 100 ms buckets that overlap
   * [fromNs, toNs) (any horizon: kept in the whole-run tier).
   */
  peakSums(
    host: number,
    metric: TrafficMetric,
    fromNs: number,
    toNs: number,
  ): { sum10us: number; sum1ms: number } {
    const s = this.traffic[host]?.[TRAFFIC_INDEX[metric]];
    if (!s) return { sum10us: 0, sum1ms: 0 };
    let m10 = 0;
    const cs = s.clock.stepNs;
    for (let b = Math.floor(fromNs / cs); b * cs < toNs; b++) {
      const v = s.coarseMax10.get(b);
      if (!Number.isNaN(v) && v > m10) m10 = v;
    }
    return { sum10us: m10, sum1ms: peakMsSum(s, fromNs, toNs) };
  }

  /** Drop series keys (host, stage, reason) with their counter, for range totals. */
  dropSeries(): Array<{ host: number; stage: ProbeStage; reason: DropReason }> {
    return [...this.drops.values()].map((d) => ({ host: d.host, stage: d.stage, reason: d.reason }));
  }

  series(q: SeriesQuery): SeriesResult {
    const n = Math.max(0, Math.ceil((q.toNs - q.fromNs) / q.stepNs));
    if (q.metric === 'occupancy') return this.levelSeries(q, n);
    const parts: CounterSeries[] = [];
    if (q.metric === 'drops') {
      for (const d of this.drops.values())
        if (d.host === q.host && (!q.stage || d.stage === q.stage) && (!q.reason || d.reason === q.reason))
          parts.push(d.s);
    } else {
      const s = this.traffic[q.host]?.[TRAFFIC_INDEX[q.metric]];
      if (s) parts.push(s);
    }
    return counterSeries(parts, q, this.detailWindow, this.msBuckets);
  }

  private levelSeries(q: SeriesQuery, n: number): SeriesResult {
    const parts: LevelSeries[] = [];
    const si = q.stage ? STAGE_INDEX[q.stage] : -1;
    for (const [key, s] of this.levels) {
      const hs = Math.floor(key / 65536);
      if (Math.floor(hs / 16) !== q.host || hs % 16 !== si) continue;
      if (q.queue !== undefined && key % 65536 !== q.queue) continue;
      parts.push(s);
    }
    const msLo = parts.length > 0 ? parts[0]!.msMax.lo * MS_STEP_NS : 0;
    const coarseNs = this.clock.stepNs;
    const useMs = q.stepNs % coarseNs !== 0 && q.fromNs >= msLo;
    const tier = useMs ? MS_STEP_NS : coarseNs;
    const step = Math.max(tier, Math.round(q.stepNs / tier) * tier);
    const t0 = Math.floor(q.fromNs / tier) * tier;
    const m = Math.max(0, Math.ceil((q.toNs - t0) / step));
    const sum = new Float64Array(m);
    const mean = new Float64Array(m);
    const max = new Float64Array(m);
    const per = step / tier;
    const b0 = t0 / tier;
    const total = m * per;
    const bufMax = new Float64Array(Math.min(total, READ_BLOCK));
    const bufInt = new Float64Array(bufMax.length);
    for (const s of parts) {
      const amax = useMs ? s.msMax : s.coarseMax;
      const aint = useMs ? s.msInt : s.coarseInt;
      // read the buckets a block at a time and fold each into its answer bucket
      for (let start = 0; start < total; start += bufMax.length) {
        const len = Math.min(bufMax.length, total - start);
        const vMax = len === bufMax.length ? bufMax : bufMax.subarray(0, len);
        const vInt = len === bufInt.length ? bufInt : bufInt.subarray(0, len);
        amax.readInto(b0 + start, vMax);
        aint.readInto(b0 + start, vInt);
        for (let j = 0; j < len; j++) {
          const k = Math.floor((start + j) / per);
          const v = vMax[j]!;
          if (v > max[k]!) max[k] = v; // NaN compares false
          const w = vInt[j]!;
          if (!Number.isNaN(w)) sum[k]! += w;
        }
      }
    }
    for (let k = 0; k < m; k++) mean[k] = sum[k]! / step;
    void n;
    return { t0Ns: t0, stepNs: step, tierStepNs: tier, sum, mean, max };
  }

  /** Bytes held by all series (the memory the recording costs). */
  get sizeBytes(): number {
    let n = 0;
    for (const row of this.traffic) if (row) for (const s of row) if (s) n += s.sizeBytes;
    for (const s of this.levels.values()) n += s.sizeBytes;
    for (const d of this.drops.values()) n += d.s.sizeBytes;
    for (const l of this.latency.values()) n += l.hist.counts.byteLength;
    for (const s of this.samples) for (const r of s.rows) n += r.byteLength;
    return n;
  }
}

const STAGE_INDEX: Readonly<Record<ProbeStage, number>> = Object.fromEntries(
  PROBE_STAGES.map((s, i) => [s, i]),
) as Record<ProbeStage, number>;
const TX_RING = STAGE_INDEX.tx_ring;
const NITRO_INGRESS = STAGE_INDEX.nitro_ingress;
const SOCKET_RX = STAGE_INDEX.socket_rx;
const TRAFFIC_INDEX: Record<TrafficMetric, number> = {
  bytes_out: 0,
  bytes_in: 1,
  packets_out: 2,
  packets_in: 3,
};

/** Sum counter parts over the finest tier that holds the range at a step dividing the asked one. */
export function counterSeries(
  parts: CounterSeries[],
  q: SeriesQuery,
  detail: { fromNs: number; toNs: number } | null,
  msBuckets: number,
): SeriesResult {
  // every part of one query shares its recorder's coarse clock
  const coarseNs = parts[0]?.clock.stepNs ?? COARSE_STEP_NS;
  let tier = coarseNs;
  const msLo = parts.reduce((lo, s) => Math.max(lo, s.ms.lo), 0) * MS_STEP_NS;
  void msBuckets;
  if (
    detail !== null &&
    q.stepNs < MS_STEP_NS &&
    q.fromNs >= detail.fromNs &&
    q.toNs <= detail.toNs &&
    parts.every((s) => s.detail !== null)
  )
    tier = DETAIL_STEP_NS;
  else if (q.stepNs % coarseNs !== 0 && q.fromNs >= msLo) tier = MS_STEP_NS;
  const step = Math.max(tier, Math.round(q.stepNs / tier) * tier);
  const t0 = Math.floor(q.fromNs / tier) * tier;
  const m = Math.max(0, Math.ceil((q.toNs - t0) / step));
  const sum = new Float64Array(m);
  const mean = new Float64Array(m);
  const max = new Float64Array(m);
  const per = step / tier;
  const b0 = t0 / tier;
  const total = m * per;
  const bufV = new Float64Array(Math.min(total, READ_BLOCK));
  const bufV10 = new Float64Array(bufV.length);
  for (const s of parts) {
    // read the buckets a block at a time (beyond the last written bucket: 0) and fold them
    for (let start = 0; start < total; start += bufV.length) {
      const len = Math.min(bufV.length, total - start);
      const v = len === bufV.length ? bufV : bufV.subarray(0, len);
      let v10 = len === bufV10.length ? bufV10 : bufV10.subarray(0, len);
      const b = b0 + start;
      if (tier === DETAIL_STEP_NS) {
        s.detail!.readInto(b - s.detailFromIdx, v);
        v10 = v;
      } else if (tier === MS_STEP_NS) {
        s.ms.readInto(b, v);
        s.msMax10.readInto(b, v10);
      } else {
        s.coarse.readInto(b, v);
        s.coarseMax10.readInto(b, v10);
      }
      for (let j = 0; j < len; j++) {
        const k = Math.floor((start + j) / per);
        const x = v[j]!;
        if (!Number.isNaN(x)) sum[k]! += x; // NaN (not retained) adds nothing
        const y = v10[j]!;
        if (y > max[k]!) max[k] = y;
      }
    }
  }
  for (let k = 0; k < m; k++) {
    mean[k] = sum[k]! / (step / 1e9);
    max[k] = max[k]! / (DETAIL_STEP_NS / 1e9);
  }
  return { t0Ns: t0, stepNs: step, tierStepNs: tier, sum, mean, max };
}

/** Largest 1 ms sum inside [fromNs, toNs) of a counter, from the 100 ms tier (any horizon). */
export function peakMsSum(s: CounterSeries, fromNs: number, toNs: number): number {
  let mx = 0;
  const cs = s.clock.stepNs;
  for (let b = Math.floor(fromNs / cs); b * cs < toNs; b++) {
    const v = s.coarseMax1ms.get(b);
    if (!Number.isNaN(v) && v > mx) mx = v;
  }
  return mx;
}
