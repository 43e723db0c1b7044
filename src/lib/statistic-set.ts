/**
 * CloudWatch's statistic sets: what it stores for a datapoint (Sum, SampleCount, Minimum,
 * Maximum of the samples in it) and how a statistic is read from one (Average = Sum ÷ SampleCount).
 * Shared by the lab's `aws cloudwatch` (engine) and the charts (UI).
 */

/** The statistics, in the order the CloudWatch API lists them. */
export const STATISTICS = ['SampleCount', 'Average', 'Sum', 'Minimum', 'Maximum'] as const;
export type Statistic = (typeof STATISTICS)[number];

export interface StatisticSet {
  sum: number;
  count: number;
  min: number;
  max: number;
}

/** A statistic of a set, as CloudWatch computes it. */
export function statisticValue(s: StatisticSet, stat: Statistic): number {
  switch (stat) {
    case 'SampleCount':
      return s.count;
    case 'Average':
      return s.sum / s.count;
    case 'Sum':
      return s.sum;
    case 'Minimum':
      return s.min;
    case 'Maximum':
      return s.max;
  }
}

/** Add the samples of `b` to the set `a` (in place). */
export function mergeStatisticSet(a: StatisticSet, b: StatisticSet): void {
  a.sum += b.sum;
  a.count += b.count;
  a.min = Math.min(a.min, b.min);
  a.max = Math.max(a.max, b.max);
}
