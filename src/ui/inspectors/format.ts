/** Number and time formatting shared by the inspectors (simulated time is integer ns). */

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
