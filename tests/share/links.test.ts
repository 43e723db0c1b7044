/**
 * Old links keep working: every checked-in link (tests/share/links/*.txt, one or more per schema
 * version) opens to its recorded scenario and view with no change reported. See
 * tests/share/links/README.md for why these files are never regenerated and how to add one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KNOWN_SCENARIO_VERSIONS } from '../../src/scenario/schema';
import { decodeShareLink } from '../../src/share/codec';
import { canonicalJson } from '../../src/share/minimize';

const DIR = new URL('./links/', import.meta.url);
const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.txt'))
  .map((f) => f.slice(0, -4))
  .sort();

describe('checked-in links', () => {
  it('there is a link for every known schema version', () => {
    for (const v of KNOWN_SCENARIO_VERSIONS) {
      expect(
        names.some((n) => n.startsWith(`v${v}-`)),
        `no checked-in link for scenario version ${v}: add one (tests/share/links/README.md)`,
      ).toBe(true);
    }
  });

  it.each(names)('%s opens to the same scenario and view', (name) => {
    const link = readFileSync(new URL(`${name}.txt`, DIR), 'utf8').trim();
    const version = Number(/^v(\d+)-/.exec(name)?.[1]);
    expect(link.startsWith(`#v=${version}&`)).toBe(true);
    const expected = JSON.parse(readFileSync(new URL(`${name}.expected.json`, DIR), 'utf8')) as {
      view: unknown;
      scenario: unknown;
    };
    const r = decodeShareLink(link);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.changes).toEqual([]);
    expect(r.view).toEqual(expected.view);
    expect(canonicalJson(r.scenario)).toBe(canonicalJson(expected.scenario));
  });
});
