/**
 * The charts' one time axis: zoom and pan of a [from, to] window in simulated ns, from 1 µs wide to
 * the whole run, and tick labels in the unit that fits the span (ns, µs, ms, s, min). Pure math.
 */
import { scaleLinear } from 'd3-scale';

/** Narrowest window: 1 µs. */
export const MIN_SPAN_NS = 1_000;

export type Range = readonly [number, number];

/**
 * Zoom `r` by `factor` (< 1 zooms in) about `atNs`, kept inside [0, maxNs] and at least
 * MIN_SPAN_NS wide. A window that would cover everything becomes null (follow the clock).
 */
export function zoomRange(r: Range, atNs: number, factor: number, maxNs: number): [number, number] | null {
  const [a, b] = r;
  const at = Math.min(b, Math.max(a, atNs));
  let span = Math.max(MIN_SPAN_NS, (b - a) * factor);
  if (span >= maxNs) return null;
  span = Math.round(span);
  let from = Math.round(at - (at - a) * (span / (b - a)));
  from = Math.max(0, Math.min(from, maxNs - span));
  return [from, from + span];
}

/** Move `r` by `deltaNs`, kept inside [0, maxNs]. */
export function panRange(r: Range, deltaNs: number, maxNs: number): [number, number] {
  const span = r[1] - r[0];
  const from = Math.max(0, Math.min(Math.round(r[0] + deltaNs), Math.max(0, maxNs - span)));
  return [from, from + span];
}

interface Unit {
  ns: number;
  name: string;
}
const UNITS: Unit[] = [
  { ns: 1, name: 'ns' },
  { ns: 1e3, name: 'µs' },
  { ns: 1e6, name: 'ms' },
  { ns: 1e9, name: 's' },
  { ns: 60e9, name: 'min' },
];

/** The unit ticks of a window `spanNs` wide are written in. */
export function unitFor(spanNs: number): Unit {
  if (spanNs < 2e3) return UNITS[0]!;
  if (spanNs < 2e6) return UNITS[1]!;
  if (spanNs < 2e9) return UNITS[2]!;
  if (spanNs < 600e9) return UNITS[3]!;
  return UNITS[4]!;
}

/**
 * Where tick labels count from: 0 normally; the window's start when it is far from 0 compared with
 * its width (at 1 µs wide around t = 120 s, "+250 ns" reads better than "120000000.25 µs").
 */
export function axisOrigin(fromNs: number, spanNs: number): number {
  return fromNs > spanNs * 50 ? fromNs : 0;
}

/**
 * About `count` ticks for the window [fromNs, toNs], on round values of the unit their labels are
 * written in (whole minutes for a 10-minute window, not every 100 s labelled "2 min", "3 min", "5 min"),
 * counted from the axis origin, each with its label.
 */
export function timeTicks(fromNs: number, toNs: number, count: number): Array<{ ns: number; label: string }> {
  const span = toNs - fromNs;
  if (!(span > 0)) return [];
  const u = unitFor(span);
  const origin = axisOrigin(fromNs, span);
  const ticks = scaleLinear()
    .domain([(fromNs - origin) / u.ns, (toNs - origin) / u.ns])
    .ticks(Math.max(2, count));
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1;
  const digits = Math.max(0, Math.min(9, -Math.floor(Math.log10(step) + 1e-9)));
  return ticks.map((v) => {
    const text = `${trim(v.toFixed(digits))} ${u.name}`;
    return { ns: v * u.ns + origin, label: origin > 0 ? `+${text}` : text };
  });
}

/** An instant, precise to the window it is read in (cursor read-outs, export names). */
export function formatInstant(ns: number, spanNs = ns): string {
  const s = ns / 1e9;
  const digits = spanNs < 5e3 ? 9 : spanNs < 5e6 ? 6 : spanNs < 5e9 ? 3 : 1;
  if (s >= 60) {
    const m = Math.floor(s / 60);
    return `${m} min ${(s - m * 60).toFixed(digits)} s`;
  }
  return `${s.toFixed(digits)} s`;
}

/** A duration with its unit (window widths). */
export function formatSpan(ns: number): string {
  if (ns < 1e3) return `${trim(ns.toFixed(0))} ns`;
  if (ns < 1e6) return `${trim((ns / 1e3).toPrecision(3))} µs`;
  if (ns < 1e9) return `${trim((ns / 1e6).toPrecision(3))} ms`;
  if (ns < 120e9) return `${trim((ns / 1e9).toPrecision(3))} s`;
  return `${trim((ns / 60e9).toPrecision(3))} min`;
}

function trim(s: string): string {
  return s.includes('.') && !s.includes('e') ? s.replace(/\.?0+$/, '') : s;
}
