/** The simulated clock's text: microseconds at any time, minutes past a minute (issue 5, "the simulated clock is always visible with its unit"). */
import { describe, expect, it } from 'vitest';
import { formatSimTime } from '../../src/state/app-store';

describe('formatSimTime', () => {
  it('shows microseconds under a minute', () => {
    expect(formatSimTime(0)).toBe('0.000000 s');
    expect(formatSimTime(2_066_500_000)).toBe('2.066500 s');
    expect(formatSimTime(1_499)).toBe('0.000001 s');
    expect(formatSimTime(59_999_999_000)).toBe('59.999999 s');
  });
  it('past a minute: minutes, then seconds still to the microsecond (a 3 µs step is visible at 2 min)', () => {
    expect(formatSimTime(60e9)).toBe('1 min 00.000000 s');
    expect(formatSimTime(125e9)).toBe('2 min 05.000000 s');
    expect(formatSimTime(125e9 + 3_000)).toBe('2 min 05.000003 s');
    expect(formatSimTime(3600e9 + 61.25e9)).toBe('61 min 01.250000 s');
  });
  it('rounds to the microsecond without ever printing 60 seconds', () => {
    expect(formatSimTime(59_999_999_600)).toBe('1 min 00.000000 s');
    expect(formatSimTime(119_999_999_700)).toBe('2 min 00.000000 s');
  });
});
