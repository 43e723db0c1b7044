/**
 * The averaging ladder's strips (ec2-netlab's own view, not an AWS or Linux one): one burst at
 * 10 µs and 1 ms (the model's truth), 1 s (what an iperf3 interval averages), 1 minute and
 * 5 minutes (CloudWatch's periods). Each strip spans about a hundred (or a handful of) its bins
 * around the same instant, so each one's extent lies inside the next coarser one's. Pure, shared by
 * the worker (which picks the instant and reads the fine strips) and the UI (which draws them).
 */

export type LadderLevel = '10us' | '1ms' | '1s' | '1min' | '5min';

export const LADDER_LEVELS: ReadonlyArray<{ id: LadderLevel; binNs: number; spanNs: number }> = [
  { id: '10us', binNs: 10_000, spanNs: 1e6 },
  { id: '1ms', binNs: 1e6, spanNs: 100e6 },
  { id: '1s', binNs: 1e9, spanNs: 20e9 },
  { id: '1min', binNs: 60e9, spanNs: 600e9 },
  { id: '5min', binNs: 300e9, spanNs: 1800e9 },
];

/**
 * The strip's extent around `focusNs`: `spanNs` wide, starting on a bin boundary of the grid that
 * starts at `originNs` (0, or the clock's period boundary before t = 0 for CloudWatch), never
 * before it. A strip's extent holds every finer strip's (spans are ≥ 2 bins wider than needed).
 */
export function ladderWindow(focusNs: number, binNs: number, spanNs: number, originNs = 0): [number, number] {
  const start = originNs + Math.floor((focusNs - spanNs / 2 - originNs) / binNs) * binNs;
  const from = Math.max(originNs, start);
  return [from, from + spanNs];
}

/** The extent of one level of the ladder around `focusNs`. */
export function ladderWindowOf(level: LadderLevel, focusNs: number, originNs = 0): [number, number] {
  const l = LADDER_LEVELS.find((x) => x.id === level)!;
  return ladderWindow(focusNs, l.binNs, l.spanNs, originNs);
}
