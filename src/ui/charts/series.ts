/**
 * Chart math on the sample buffer (pure functions, no DOM): rates from cumulative counters at the
 * truth resolution, decimated to one min/max pair per pixel column, and the coarser views a user
 * would see elsewhere: 1 s bins (what iperf3 prints per interval) and CloudWatch's 1-minute and
 * 5-minute datapoints (Sum of bytes per period, shown as a mean rate over the period).
 */
import type { SeriesBuffer } from '../../state/series-buffer';

export interface XY {
  x: Float64Array;
  y: Float64Array;
  n: number;
}

/**
 * Rate of a cumulative column (per second × `scale`) in [fromNs, toNs]: the mean over buckets of
 * (toNs − fromNs) / maxPoints, never finer than the samples (1 ms while commands run). A mean per
 * bucket is what the counters say happened; a maximum of 1 ms rates would show the model's
 * batches (a GSO burst of 64 × 9 KB inside one millisecond) as spikes no link carried.
 */
export function rateSeries(
  s: SeriesBuffer,
  col: number,
  fromNs: number,
  toNs: number,
  scale: number,
  maxPoints: number,
): XY {
  const x = new Float64Array(maxPoints * 2 + 4);
  const y = new Float64Array(maxPoints * 2 + 4);
  let n = 0;
  if (col < 0 || s.length < 2) return { x, y, n };
  const bucketNs = Math.max(1_000_000, (toNs - fromNs) / maxPoints);
  // first sample at or before fromNs
  let i = 0;
  while (i + 1 < s.length && s.times[i + 1]! <= fromNs) i++;
  let t0 = s.times[i]!;
  let v0 = s.value(i, col);
  for (let j = i + 1; j < s.length && n + 2 <= x.length; j++) {
    const t1 = s.times[j]!;
    // close a bucket once it spans bucketNs (or at the last sample / the window's end)
    if (t1 - t0 < bucketNs && j < s.length - 1 && t1 < toNs) continue;
    const v1 = s.value(j, col);
    const rate = ((v1 - v0) / ((t1 - t0) / 1e9)) * scale;
    // a step: the mean holds over the bucket
    x[n] = t0;
    y[n++] = rate;
    x[n] = t1;
    y[n++] = rate;
    t0 = t1;
    v0 = v1;
    if (t1 >= toNs) break;
  }
  return { x, y, n };
}

/**
 * Mean rate per fixed period (periodNs) of a cumulative column: [start, end, rate] bins, for the
 * complete periods (CloudWatch's minutes, iperf3's intervals).
 */
export function binnedRate(
  s: SeriesBuffer,
  col: number,
  periodNs: number,
  scale: number,
  /** Where the period grid starts (≤ 0: the clock's minute before t = 0; default 0). */
  originNs = 0,
): Array<{ fromNs: number; toNs: number; rate: number }> {
  const out: Array<{ fromNs: number; toNs: number; rate: number }> = [];
  if (col < 0 || s.length < 2) return out;
  const last = s.times[s.length - 1]!;
  let i = 0;
  for (let start = originNs; start < last; start += periodNs) {
    const end = start + periodNs;
    // value at a time: the last sample at or before it (counters are step functions between samples)
    const at = (t: number) => {
      while (i + 1 < s.length && s.times[i + 1]! <= t) i++;
      return s.times[i]! <= t ? s.value(i, col) : s.value(0, col);
    };
    const v0 = at(start);
    const endClamped = Math.min(end, last);
    const v1 = at(endClamped);
    // only complete periods are published (CloudWatch) or printed (iperf3)
    if (endClamped < end) break;
    out.push({ fromNs: start, toNs: end, rate: ((v1 - v0) / (periodNs / 1e9)) * scale });
  }
  return out;
}

/**
 * A level column (not a rate) decimated to one point per bucket of (toNs − fromNs) / maxPoints:
 * the maximum inside it (`peak`: a short burst stays visible) or its last sample (`last`), × scale.
 * NaN samples (not applicable) are skipped.
 */
export function levelPoints(
  s: SeriesBuffer,
  col: number,
  fromNs: number,
  toNs: number,
  maxPoints: number,
  mode: 'peak' | 'last' = 'peak',
  scale = 1,
): XY {
  const x = new Float64Array(maxPoints + 2);
  const y = new Float64Array(maxPoints + 2);
  let n = 0;
  if (col < 0 || col >= s.cols) return { x, y, n };
  const bucketNs = Math.max(1, (toNs - fromNs) / maxPoints);
  let last = -1;
  for (let i = 0; i < s.length; i++) {
    const t = s.times[i]!;
    if (t < fromNs || t > toNs) continue;
    const v = s.value(i, col) * scale;
    if (Number.isNaN(v)) continue;
    const b = Math.floor((t - fromNs) / bucketNs);
    if (b === last && n > 0) {
      if (mode === 'last' || v > y[n - 1]!) {
        y[n - 1] = v;
        x[n - 1] = t;
      }
    } else if (n < x.length) {
      x[n] = t;
      y[n++] = v;
      last = b;
    }
  }
  return { x, y, n };
}
