import { describe, expect, it } from 'vitest';
import { measuredPace, notePace, type PaceSample, wallSecondsLeft } from '../../src/lib/pace';

const feed = (pairs: Array<[number, number]>, windowMs?: number) =>
  pairs.reduce<PaceSample[]>((acc, [wallMs, simNs]) => notePace(acc, { wallMs, simNs }, windowMs), []);

describe('pace: simulated ns per wall ms over a sliding window', () => {
  it('no estimate from one sample, or from a span shorter than the minimum', () => {
    expect(measuredPace(feed([[0, 0]]))).toBeNull();
    expect(
      measuredPace(
        feed([
          [0, 0],
          [100, 1e6],
        ]),
      ),
    ).toBeNull();
    expect(
      wallSecondsLeft(
        feed([
          [0, 0],
          [100, 1e6],
        ]),
        1e9,
        100,
      ),
    ).toBeNull();
    expect(
      measuredPace(
        feed([
          [0, 0],
          [300, 3e6],
        ]),
      ),
    ).toBe(1e4);
  });

  it('a steady pace: the time left is the distance over the pace', () => {
    // 2 ms of simulated time per wall ms (2 s/s), 10 s to go at t = 2 s => 5 s left
    const s = feed(Array.from({ length: 21 }, (_, i) => [i * 100, i * 100 * 2e6] as [number, number]));
    expect(measuredPace(s)).toBe(2e6);
    expect(wallSecondsLeft(s, 4e9 + 10e9, 2000)).toBeCloseTo(5, 9);
    // time spent since the last report counts down, never below 0
    expect(wallSecondsLeft(s, 14e9, 3000)).toBeCloseTo(4, 9);
    expect(wallSecondsLeft(s, 14e9, 60_000)).toBe(0);
  });

  it('follows a change of pace within the window (the whole-run average would not)', () => {
    // 20 s at 10 ms/ms, then the model slows to 1 ms/ms (a command with many flows started)
    const pairs: Array<[number, number]> = [];
    let sim = 0;
    for (let w = 0; w <= 20_000; w += 100) {
      pairs.push([w, sim]);
      sim += 1e6 * 10 * 100;
    }
    sim -= 1e6 * 10 * 100;
    for (let w = 20_100; w <= 30_000; w += 100) {
      sim += 1e6 * 100;
      pairs.push([w, sim]);
    }
    const s = feed(pairs);
    expect(measuredPace(s)).toBeCloseTo(1e6, 6);
    const left = wallSecondsLeft(s, sim + 60e9, 30_000)!;
    expect(left).toBeCloseTo(60, 6);
    // the elapsed-fraction estimate of before: elapsed × (1 − f) / f
    const f = sim / (sim + 60e9);
    const naive = (30 * (1 - f)) / f;
    expect(naive).toBeLessThan(20);
  });

  it('keeps the window bounded (plus the sample that spans its start)', () => {
    const s = feed(
      Array.from({ length: 100 }, (_, i) => [i * 100, i] as [number, number]),
      1000,
    );
    expect(s[0]!.wallMs).toBe(8900);
    expect(s.length).toBe(11);
    expect(measuredPace(s, 1000)).toBeCloseTo(0.01, 12);
  });

  it('no pace when the model has not moved', () => {
    expect(
      measuredPace(
        feed([
          [0, 5],
          [1000, 5],
        ]),
      ),
    ).toBeNull();
  });
});
