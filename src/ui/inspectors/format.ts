/** Number and time formatting shared by the inspectors (simulated time is integer ns). */
import type { StageStateValue } from '../../protocol/path-frame';

/** A simulated instant or duration in the unit that reads best, with the unit. */
export function fmtNs(ns: number): string {
  const a = Math.abs(ns);
  if (a < 1e3) return `${Math.round(ns)} ns`;
  if (a < 1e6) return `${(ns / 1e3).toFixed(a < 1e4 ? 2 : 1)} µs`;
  if (a < 1e9) return `${(ns / 1e6).toFixed(a < 1e7 ? 3 : 2)} ms`;
  return `${(ns / 1e9).toFixed(6)} s`;
}

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function hex32(n: number): string {
  return `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * A token bucket's level for the stage inspector. A batch that conforms takes its whole cost, so a
 * bucket can be below empty after it; that shows as a debt, not as a negative fill.
 */
export function bucketLevelText(tokens: number, depth: number, unit: string): string {
  return tokens >= 0
    ? `${fmtInt(tokens)} of ${fmtInt(depth)} ${unit}`
    : `empty, ${fmtInt(-tokens)} ${unit} owed (of ${fmtInt(depth)}): the last batch took more than was left`;
}

/** A stage's live-state value in words, with its unit. */
export function fmtStateValue(v: StageStateValue): string {
  switch (v.kind) {
    case 'count':
      return v.unit ? `${fmtInt(v.n)} ${v.unit}` : String(v.n);
    case 'pair':
      return `${v.now} / ${v.peak}`;
    case 'bucket':
      return bucketLevelText(v.tokens, v.depth, v.unit);
    case 'share':
      return `${(100 * v.fraction).toFixed(1)}% (${v.mode})`;
  }
}
