/**
 * Measurement helpers for `npm run bench`: timer granularity, repeated timing (best and median),
 * number formatting with units, and a plain-text table printer.
 *
 * Guarantees: nothing here asserts; every figure is reported with its unit, and the timer's
 * observed granularity is measured (not assumed) so a reader can tell which digits mean something.
 */
import { performance } from 'node:perf_hooks';

export interface TimerResolution {
  /** Smallest non-zero step seen between two consecutive performance.now() readings, ns. */
  minStepNs: number;
  /** Median of the non-zero steps, ns (the typical granularity). */
  medianStepNs: number;
  /** Mean cost of one performance.now() call, ns. */
  callCostNs: number;
  /** Same for process.hrtime.bigint(), for comparison. */
  hrtimeMinStepNs: number;
  samples: number;
}

/** Measure performance.now() granularity: spin until the reading changes, many times. */
export function measureTimerResolution(samples = 20_000): TimerResolution {
  const steps: number[] = [];
  for (let i = 0; i < samples; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    steps.push((b - a) * 1e6);
  }
  steps.sort((x, y) => x - y);
  const calls = 1_000_000;
  const t0 = performance.now();
  let sink = 0;
  for (let i = 0; i < calls; i++) sink += performance.now();
  const callCostNs = ((performance.now() - t0) * 1e6) / calls;
  let hrMin = Number.POSITIVE_INFINITY;
  for (let i = 0; i < samples; i++) {
    const a = process.hrtime.bigint();
    let b = process.hrtime.bigint();
    while (b === a) b = process.hrtime.bigint();
    const d = Number(b - a);
    if (d < hrMin) hrMin = d;
  }
  if (sink < 0) console.log(sink); // keep the loop observable so it is not optimised away
  return {
    minStepNs: steps[0]!,
    medianStepNs: steps[steps.length >> 1]!,
    callCostNs,
    hrtimeMinStepNs: hrMin,
    samples,
  };
}

export interface Stats {
  best: number;
  median: number;
  worst: number;
  n: number;
}

/** Best (smallest), median and worst of a list of durations (or any values where lower is better). */
export function stats(values: readonly number[]): Stats {
  if (values.length === 0) throw new Error('stats of nothing');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { best: s[0]!, median, worst: s[s.length - 1]!, n: s.length };
}

/** Wall milliseconds of one call of `fn`, with its return value. */
export function timeIt<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

/** Format with SI prefix: 12_345_678 → "12.35 M". */
export function si(v: number, digits = 2): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1e9) return `${(v / 1e9).toFixed(digits)} G`;
  if (a >= 1e6) return `${(v / 1e6).toFixed(digits)} M`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(digits)} k`;
  return `${v.toFixed(digits)} `;
}

export function fixed(v: number, digits = 2): string {
  return Number.isFinite(v) ? v.toFixed(digits) : String(v);
}

export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/** Print rows as an aligned table; numeric-looking cells are right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = /^[-+]?[\d.,]+(\s|$|×|%)/;
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric.test(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
