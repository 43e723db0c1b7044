/**
 * Every drop reason the engine can report has a short label on the path canvas (a new reason would
 * otherwise show its raw identifier in the drop pill). Reads the DropReason union from the engine's
 * source, since it is a type only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHORT_REASON } from '../../src/ui/path/path-renderer';

const SRC = new URL('../../src/engine/model/drop-reasons.ts', import.meta.url);

describe('drop pill labels', () => {
  it('cover every DropReason', () => {
    const text = readFileSync(SRC, 'utf8');
    const union = /export type DropReason =([^;]*);/.exec(text)?.[1] ?? '';
    const reasons = [...union.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1]!);
    expect(reasons.length).toBeGreaterThan(10);
    expect(reasons.filter((r) => !(r in SHORT_REASON))).toEqual([]);
  });
});
