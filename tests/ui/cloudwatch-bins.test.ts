/**
 * The charts' CloudWatch lines from the counter samples: complete periods only, except the
 * 5-minute datapoint, which on Nitro is published after its first 1-minute sample and updated with
 * each (its Sum / 300 climbs while the 5 minutes run).
 */
import { describe, expect, it } from 'vitest';
import { SeriesBuffer } from '../../src/state/series-buffer';
import { fmtValue } from '../../src/ui/charts/chart';
import { cloudWatchDatapoints, cwValue } from '../../src/ui/charts/chart-defs';
import { binnedRate } from '../../src/ui/charts/series';

/** 1 GB/s of bytes, sampled every second for `seconds`. */
function steady(seconds: number): SeriesBuffer {
  const s = new SeriesBuffer();
  s.reset(1);
  for (let t = 0; t <= seconds; t++) s.appendRow(t * 1e9, [t * 1e9]);
  return s;
}

describe('CloudWatch periods in the charts', () => {
  it('a 5-minute period under way: nothing before its first minute, then the whole minutes so far over 300 s', () => {
    expect(binnedRate(steady(50), 0, 300e9, 1, 60e9)).toEqual([]);
    // 150 s in: two whole minutes (120 GB) over 300 s
    expect(binnedRate(steady(150), 0, 300e9, 1, 60e9)).toEqual([{ fromNs: 0, toNs: 300e9, rate: 0.4e9 }]);
    expect(binnedRate(steady(299), 0, 300e9, 1, 60e9)[0]!.rate).toBeCloseTo(0.8e9, 0);
    // complete: the true mean
    expect(binnedRate(steady(300), 0, 300e9, 1, 60e9)).toEqual([{ fromNs: 0, toNs: 300e9, rate: 1e9 }]);
  });

  it('without partial samples (1-minute datapoints, iperf3 intervals) a period shows once it is over', () => {
    expect(binnedRate(steady(150), 0, 300e9, 1)).toEqual([]);
    const minutes = binnedRate(steady(150), 0, 60e9, 1);
    expect(minutes.map((b) => b.rate)).toEqual([1e9, 1e9]);
  });
});

describe('CloudWatch datapoints and statistics (the NetworkOut chart)', () => {
  /** 6 GB in the first 6 s (1 GB/s), then nothing, sampled every second for `seconds`. */
  function burst(seconds: number): SeriesBuffer {
    const s = new SeriesBuffer();
    s.reset(1);
    for (let t = 0; t <= seconds; t++) s.appendRow(t * 1e9, [Math.min(t, 6) * 1e9]);
    return s;
  }

  it('1-minute datapoints: one sample each, the minute that held the burst has all of it', () => {
    const d = cloudWatchDatapoints(burst(420), 0, 60e9);
    expect(d).toHaveLength(7);
    expect(d[0]).toEqual({ fromNs: 0, toNs: 60e9, sum: 6e9, count: 1, min: 6e9, max: 6e9 });
    expect(d.slice(1).every((x) => x.sum === 0)).toBe(true);
  });

  it('5-minute statistic sets: Sum per period, Average per minute, Maximum the busiest minute; the next period counts its minutes so far', () => {
    const [a, b, ...rest] = cloudWatchDatapoints(burst(420), 0, 300e9);
    expect(rest).toEqual([]);
    expect(a).toEqual({ fromNs: 0, toNs: 300e9, sum: 6e9, count: 5, min: 0, max: 6e9 });
    expect(cwValue(a!, 'Sum')).toBe(6e9);
    expect(cwValue(a!, 'Average')).toBe(1.2e9); // bytes per minute, not per 5 minutes
    expect(cwValue(a!, 'Maximum')).toBe(6e9);
    expect(cwValue(a!, 'Minimum')).toBe(0);
    expect(cwValue(a!, 'SampleCount')).toBe(5);
    // 7 minutes in: the second period has 2 samples (Nitro publishes it from its first one)
    expect(b).toMatchObject({ fromNs: 300e9, count: 2, sum: 0 });
  });
});

describe('chart values', () => {
  it('millions and up take an SI prefix (an axis of bytes stays legible)', () => {
    expect(fmtValue(7.4e9)).toBe('7.4 G');
    expect(fmtValue(6_940_000_000)).toBe('6.94 G');
    expect(fmtValue(1_250_000)).toBe('1.25 M');
    expect(fmtValue(136_812)).toBe('136,812');
    expect(fmtValue(0.5)).toBe('0.5');
    expect(fmtValue(-2e9)).toBe('-2 G');
  });
});
