/**
 * A catalog figure: one number (or flag, or string) the model uses, tagged with where it comes from.
 *
 * Guarantees:
 * - every figure carries a provenance and a non-empty `source` (short keys of docs/domain-facts.md §0,
 *   e.g. 'MOTO', 'AWS-BW', 'REINVENT', 'TOONK', 'ENA-dts (ENA-UTIL)');
 * - an `assumed` figure always carries a `note` with the rule used, because AWS does not publish
 *   the value and a reader must be able to see (and challenge) the reasoning;
 * - figures are frozen plain data, safe to share between specs and to send to the UI.
 */

/**
 * - `documented`: read in a primary source (AWS documentation or API data, ENA driver, Linux).
 * - `measured`: taken from a public measurement (the seed documents), not a specification.
 * - `assumed`: not published anywhere; a named value with the reasoning in `note`.
 */
export type Provenance = 'documented' | 'measured' | 'assumed';

export interface Figure<T> {
  readonly value: T;
  readonly provenance: Provenance;
  readonly source: string;
  readonly note?: string;
}

function make<T>(value: T, provenance: Provenance, source: string, note: string | undefined): Figure<T> {
  if (source.trim() === '') throw new Error(`figure ${String(value)}: empty source`);
  // Only set `note` when given, so `'note' in figure` tells whether there is one.
  const figure: Figure<T> =
    note === undefined ? { value, provenance, source } : { value, provenance, source, note };
  return Object.freeze(figure);
}

/** A value read in a primary source. */
export function documented<T>(value: T, source: string, note?: string): Figure<T> {
  return make(value, 'documented', source, note);
}

/** A value taken from a public measurement (a seed document or an AWS-published test result). */
export function measured<T>(value: T, source: string, note?: string): Figure<T> {
  return make(value, 'measured', source, note);
}

/** A value nobody publishes. The note (required) states the rule and why. */
export function assumed<T>(value: T, source: string, note: string): Figure<T> {
  if (note.trim() === '')
    throw new Error(`assumed figure ${String(value)}: a note with the rule is required`);
  return make(value, 'assumed', source, note);
}

/** Type guard used by walkers (tests, UI) that look for figures inside a spec. */
export function isFigure(x: unknown): x is Figure<unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return (
    'value' in o &&
    typeof o['source'] === 'string' &&
    (o['provenance'] === 'documented' || o['provenance'] === 'measured' || o['provenance'] === 'assumed')
  );
}
