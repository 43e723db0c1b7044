/**
 * The charts' CloudWatch lines from the counter samples: complete periods only, except the
 * 5-minute datapoint, which on Nitro is published after its first 1-minute sample and updated with
 * each (its Sum / 300 climbs while the 5 minutes run).
 */
import { describe, expect, it } from 'vitest';
import { SeriesBuffer } from '../../src/state/series-buffer';
import { fmtValue } from '../../src/ui/charts/chart';
import { cloudWatchDatapoints, cwOriginNs, cwValue } from '../../src/ui/charts/chart-defs';
import { binnedRate } from '../../src/ui/charts/series';
import { SimService } from '../../workers/sim-service';

/** 1 GB/s of bytes, sampled every second for `seconds`. */
function steady(seconds: number): SeriesBuffer {
  const s = new SeriesBuffer();
  s.reset(1);
  for (let t = 0; t <= seconds; t++) s.appendRow(t * 1e9, [t * 1e9]);
  return s;
}

describe('CloudWatch periods in the charts', () => {
  it('a 5-minute period under way: nothing before its first minute, then the whole minutes so far over 300 s', () => {
    // the datapoint as the rate chart draws it: Sum over the 5 minutes, in bytes/s
    const rate = (seconds: number) =>
      cloudWatchDatapoints(steady(seconds), 0, 300e9).map((d) => ({
        fromNs: d.fromNs,
        toNs: d.toNs,
        rate: d.sum / 300,
      }));
    expect(rate(50)).toEqual([]);
    // 150 s in: two whole minutes (120 GB) over 300 s
    expect(rate(150)).toEqual([{ fromNs: 0, toNs: 300e9, rate: 0.4e9 }]);
    expect(rate(299)[0]!.rate).toBeCloseTo(0.8e9, 0);
    // complete: the true mean
    expect(rate(300)).toEqual([{ fromNs: 0, toNs: 300e9, rate: 1e9 }]);
  });

  it('binnedRate (1-minute datapoints, iperf3 intervals): a period shows once it is over', () => {
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

describe('CloudWatch periods follow the wall clock', () => {
  it('a lab started at 16:59:57 has a minute ending at t = 3 s: the first 1-minute datapoint holds those 3 s', () => {
    // 1 GB/s for 6 s from t = 0, sampled every second for 7 min
    const s = new SeriesBuffer();
    s.reset(1);
    for (let t = 0; t <= 420; t++) s.appendRow(t * 1e9, [Math.min(t, 6) * 1e9]);
    const start = Date.UTC(2024, 11, 2, 16, 59, 57);
    expect(cwOriginNs(start, 60e9)).toBe(-57e9);
    expect(cwOriginNs(start, 300e9)).toBe(-297e9);
    const minutes = cloudWatchDatapoints(s, 0, 60e9, start);
    expect(minutes[0]).toMatchObject({ fromNs: -57e9, toNs: 3e9, sum: 3e9 });
    expect(minutes[1]).toMatchObject({ fromNs: 3e9, toNs: 63e9, sum: 3e9 });
    // the 5-minute period 16:55–17:00 ends at t = 3 s with one sample; 17:00–17:05 then fills
    const [a, b] = cloudWatchDatapoints(s, 0, 300e9, start);
    expect(a).toMatchObject({ fromNs: -297e9, toNs: 3e9, count: 1, sum: 3e9 });
    expect(b).toMatchObject({ fromNs: 3e9, toNs: 303e9, count: 5, sum: 3e9 });
    // on the minute (the default 17:00:00) nothing moves
    expect(cloudWatchDatapoints(s, 0, 60e9, Date.UTC(2024, 11, 2, 17))[0]).toMatchObject({
      fromNs: 0,
      sum: 6e9,
    });
  });
});

describe('the wall clock reaches the charts', () => {
  it("the worker's load answer carries the scenario's wallClockStart (Unix ms)", () => {
    const s = new SimService();
    const r = s.load({ version: 3, settings: { wallClockStart: '2024-12-02T16:59:57Z' } });
    expect(r.ok && r.wallClockStartMs).toBe(Date.UTC(2024, 11, 2, 16, 59, 57));
  });
});

describe('periods of a long run', () => {
  it('the 1-minute datapoints stay exact when the fine samples of the first minutes are trimmed (a 600 s run at 1 ms)', () => {
    // 1,000 rows kept; 10 ms samples of 1 GB/s for 130 s: the first minute's rows are long gone
    const s = new SeriesBuffer(1000);
    s.reset(1);
    for (let t = 0; t <= 130e9; t += 10e6) s.appendRow(t, [t]);
    expect(s.length).toBe(1000);
    expect(s.times[0]).toBeGreaterThan(120e9);
    expect(cloudWatchDatapoints(s, 0, 60e9).map((d) => d.sum)).toEqual([60e9, 60e9]);
    // the per-second rows: one a second for the whole run, the sample at each second
    expect(s.seconds!.length).toBe(131);
    expect(s.seconds!.value(61, 0)).toBe(61e9);
    // a rewind drops them too, and the run goes on from there
    s.truncateAfter(125e9);
    expect(s.seconds!.length).toBe(126);
    s.appendRow(126.5e9, [1]);
    expect(s.seconds!.times[s.seconds!.length - 1]).toBe(126e9);
  });
});

describe('a lab from t = 0', () => {
  it('counts its first millisecond: the first sample comes 1 ms in, the per-second rows start from zero', () => {
    const s = new SeriesBuffer();
    s.reset(1, 0);
    // 1 GB/s, sampled from 1 ms on
    for (let t = 1e6; t <= 61e9; t += 1e6) s.appendRow(t, [t]);
    expect(cloudWatchDatapoints(s, 0, 60e9)[0]!.sum).toBe(60e9);
    expect(binnedRate(s.seconds!, 0, 1e9, 1)[0]!.rate).toBe(1e9);
    // without it (a lab loaded at a later instant) the first second has no start: no period
    const later = new SeriesBuffer();
    later.reset(1);
    for (let t = 1e6; t <= 3e9; t += 1e6) later.appendRow(t, [t]);
    expect(later.seconds!.times[0]).toBe(1e9);
  });
});
