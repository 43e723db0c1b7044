/**
 * How fast the model is getting through simulated time, measured (simulated ns per wall ms over a
 * sliding window of recent progress reports), and the wall time left to an instant at that pace.
 * Pure functions: the lab controller records a sample after each chunk of a run to an instant
 * (a link's time, a seek), the progress bar asks for the estimate.
 *
 * Why a window and not "elapsed × (1 − f) / f": the pace changes along a run (a command starts,
 * a flow ends, a replay from a checkpoint skips the start), and the first requests of a run are
 * slow while the event budget adapts; the last few seconds say what the next ones will cost.
 */

export interface PaceSample {
  /** Wall clock (ms, performance.now()). */
  wallMs: number;
  /** Where the model was (simulated ns). */
  simNs: number;
}

/** Wall time the pace is measured over (ms). */
export const PACE_WINDOW_MS = 3_000;
/** Shortest wall span that gives an estimate (ms): one request's worth is too noisy. */
export const PACE_MIN_SPAN_MS = 250;

/**
 * `samples` with `s` appended, keeping those inside the window ending at `s` plus the one just
 * before it (so the window is always spanned). Samples go in wall order; the input is not changed.
 */
export function notePace(
  samples: readonly PaceSample[],
  s: PaceSample,
  windowMs = PACE_WINDOW_MS,
): PaceSample[] {
  const out = [...samples, s];
  let first = 0;
  while (first + 1 < out.length && out[first + 1]!.wallMs <= s.wallMs - windowMs) first++;
  return first > 0 ? out.slice(first) : out;
}

/**
 * Simulated ns per wall ms over the window ending at the newest sample: the progress between the
 * window's first and last samples over the wall time between them. Null without two samples
 * spanning at least `minSpanMs`, or when the model did not move.
 */
export function measuredPace(
  samples: readonly PaceSample[],
  windowMs = PACE_WINDOW_MS,
  minSpanMs = PACE_MIN_SPAN_MS,
): number | null {
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1]!;
  // the oldest sample at or after the window's start, or the one just before it (spanning it)
  let i = samples.length - 2;
  while (i > 0 && samples[i]!.wallMs > last.wallMs - windowMs) i--;
  const first = samples[i]!;
  const span = last.wallMs - first.wallMs;
  if (span < minSpanMs) return null;
  const moved = last.simNs - first.simNs;
  return moved > 0 ? moved / span : null;
}

/**
 * Wall seconds left until the model reaches `toNs` at the measured pace, counted from `nowMs`
 * (the time already spent since the newest sample is taken off, never below 0). Null when there
 * is no pace yet.
 */
export function wallSecondsLeft(
  samples: readonly PaceSample[],
  toNs: number,
  nowMs: number,
  windowMs = PACE_WINDOW_MS,
): number | null {
  const pace = measuredPace(samples, windowMs);
  if (pace === null) return null;
  const last = samples[samples.length - 1]!;
  const leftMs = Math.max(0, toNs - last.simNs) / pace - Math.max(0, nowMs - last.wallMs);
  return Math.max(0, leftMs / 1000);
}
