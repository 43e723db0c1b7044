/**
 * The stage inspector's occupancy history per pixel column: the range (band) and the
 * time-weighted mean (line). A queue that fills and drains many times within a pixel shows its
 * swing and its mean, not a block of overlapping steps.
 */
import { describe, expect, it } from 'vitest';
import { bucketLevelText, fmtStateValue } from '../../src/ui/inspectors/format';
import { fmtIdle } from '../../src/ui/inspectors/nitro-tables';
import { historyColumns } from '../../src/ui/inspectors/stage-inspector';

describe('occupancy history columns', () => {
  it('a queue swinging 0 ↔ 128 every ns: each column spans 0–128 with mean 64', () => {
    const ns = Array.from({ length: 1000 }, (_, i) => i);
    const occ = ns.map((i) => (i % 2 === 0 ? 0 : 128));
    const { min, max, mean } = historyColumns(ns, occ, 10);
    expect([...min]).toEqual(new Array(10).fill(0));
    expect([...max]).toEqual(new Array(10).fill(128));
    for (const m of mean) expect(m).toBeCloseTo(64, 0);
  });

  it('a step from 0 to 100 halfway: flat columns either side, the mean weighs the time held', () => {
    // 0 from t=0, 100 from t=55 until t=100: with 10 columns of 10 ns, column 5 holds 0 for 5 ns, 100 for 5 ns
    const { min, max, mean } = historyColumns([0, 55, 100], [0, 100, 100], 10);
    expect([...mean.slice(0, 5)]).toEqual([0, 0, 0, 0, 0]);
    expect(mean[5]).toBeCloseTo(50, 6);
    expect([...mean.slice(6)]).toEqual([100, 100, 100, 100]);
    expect(min[5]).toBe(0);
    expect(max[5]).toBe(100);
    expect(min[6]).toBe(100);
  });
});

describe('Nitro conntrack idle timers', () => {
  it('read as seconds under 10 minutes, else in days, hours and minutes', () => {
    expect(fmtIdle(179.46)).toBe('179.5 s');
    expect(fmtIdle(432000)).toBe('5 days');
    expect(fmtIdle(431999.9)).toBe('4 d 23 h');
    expect(fmtIdle(86400)).toBe('1 day');
    expect(fmtIdle(7200)).toBe('2 h');
    expect(fmtIdle(9000)).toBe('2 h 30 min');
    expect(fmtIdle(600)).toBe('10 min');
  });
});

describe('a Nitro token bucket in the stage inspector', () => {
  it('shows its fill, or, below empty after a batch that took more than was left, the debt (never a negative fill)', () => {
    expect(bucketLevelText(985_284, 1_562_500, 'bytes')).toBe('985,284 of 1,562,500 bytes');
    expect(bucketLevelText(-409_367, 1_562_500, 'bytes')).toBe(
      'empty, 409,367 bytes owed (of 1,562,500): the last batch took more than was left',
    );
    expect(bucketLevelText(0, 1000, 'packets')).toBe('0 of 1,000 packets');
  });
});

describe("a stage's live state: the engine gives values with units, the inspector words them", () => {
  it('counts, ring descriptors, buckets and burst credits', () => {
    expect(fmtStateValue({ kind: 'count', n: 12_345, unit: 'packets' })).toBe('12,345 packets');
    expect(fmtStateValue({ kind: 'count', n: 7, unit: '' })).toBe('7');
    expect(fmtStateValue({ kind: 'pair', now: 465, peak: 512 })).toBe('465 / 512');
    expect(fmtStateValue({ kind: 'bucket', tokens: -5, depth: 1000, unit: 'packets' })).toBe(
      'empty, 5 packets owed (of 1,000): the last batch took more than was left',
    );
    expect(fmtStateValue({ kind: 'share', fraction: 0.4567, mode: 'bursting' })).toBe('45.7% (bursting)');
  });
});
