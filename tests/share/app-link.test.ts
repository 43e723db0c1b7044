/**
 * The page's load path (src/share/app-link.ts): what the app builds from its hash, and the hash
 * Share writes. A shared run reopens to the same scenario document, the same session (lines and
 * Ctrl-C at their simulated instants) and the same time; a preset-based run links as a preset
 * diff; unreadable links give the codec's message; embed flags come through; "Open in the full
 * lab" drops exactly the embed flags.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRESET_ID, PRESETS } from '../../src/scenario/presets';
import { parseScenario } from '../../src/scenario/schema';
import {
  formatSelection,
  fullLabUrl,
  type LogEntry,
  parseSelection,
  readStartLink,
  shareHash,
} from '../../src/share/app-link';
import { canonicalJson } from '../../src/share/minimize';

const exp3 = PRESETS.find((p) => p.id === 'exp3')!;
const LOG: LogEntry[] = [
  { atNs: 0, kind: 'line', line: 'iperf3 -c server -t 1 -M 128 -P 1' },
  { atNs: 400_000_000, kind: 'interrupt' },
  { atNs: 1_250_000_000, kind: 'line', line: 'server: ethtool -S eth0' },
];

describe('readStartLink', () => {
  it('an empty hash is the default lab', () => {
    const r = readStartLink('');
    expect(r.ok && r.fromLink).toBe(false);
    if (!r.ok) return;
    expect(r.presetId).toBe(DEFAULT_PRESET_ID);
    expect(r.log).toEqual([]);
    expect(r.toNs).toBe(0);
    expect(r.flags.embed).toBe(false);
    expect(r.changes).toEqual([]);
  });

  it('reopens a shared run: the same scenario, session and time', () => {
    const hash = shareHash(exp3.scenario, LOG, { timeNs: 1_300_000_123, selection: 'stage:1/4/0' });
    // typical use stays far under the 2,000 characters of a comfortable link
    expect(hash.length).toBeLessThan(400);
    const r = readStartLink(hash);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.fromLink).toBe(true);
    expect(r.changes).toEqual([]);
    expect(r.log).toEqual(LOG);
    expect(r.toNs).toBe(1_300_000_123);
    expect(r.view.selection).toBe('stage:1/4/0');
    const a = parseScenario(r.doc);
    const b = parseScenario(exp3.scenario);
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(canonicalJson(a.scenario)).toBe(canonicalJson(b.scenario));
    // the worker gets the document without the session (the lab replays it as typing)
    expect('session' in r.doc).toBe(false);
  });

  it('a preset with a change links as a diff from the preset when that is shorter', () => {
    const exp5 = PRESETS.find((p) => p.id === 'exp5')!;
    const doc = { ...exp5.scenario, seed: 42 };
    const hash = shareHash(doc, LOG, {});
    // exp5 and exp6 share their document (two c5n.18xlarge): either is the base
    expect(hash).toMatch(/^#v=4&p=exp[56]&ph=[0-9a-f]{8}&d=/);
    const r = readStartLink(hash);
    expect(r.ok && r.fromLink).toBe(true);
    if (!r.ok) return;
    expect(canonicalJson(parseScenario(r.doc))).toBe(canonicalJson(parseScenario(doc)));
  });

  it('typical runs stay well under 2,000 characters', () => {
    // every preset, its suggested commands typed a second apart, shared at the end
    const lengths = PRESETS.map((p) => {
      const log: LogEntry[] = p.commands.map((line, i) => ({ atNs: i * 1e9 + 123_456, kind: 'line', line }));
      return shareHash(p.scenario, log, { timeNs: p.commands.length * 1e9 + 7_654_321 }).length;
    });
    for (const n of lengths) expect(n).toBeLessThan(2_000 - 200); // room for the page's URL
    expect(Math.max(...lengths)).toBeLessThan(700);
  });

  it('a link that cannot be read gives the codec’s message', () => {
    const r = readStartLink('#v=4&s=%%%');
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/^this link could not be read: /) });
    expect(readStartLink('#v=99&s=x')).toMatchObject({
      ok: false,
      message: expect.stringContaining('newer'),
    });
  });

  it('keeps what it can of a damaged view and says what it dropped, once', () => {
    const hash = `${shareHash(exp3.scenario, [], {})}&t=soon&controls=huge`;
    const r = readStartLink(hash);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.toNs).toBe(0);
    expect(r.changes).toEqual([
      't: "soon" is not a time like 1.5s, 250ms or 20us; ignored',
      'controls: "huge" is not none, minimal, full; ignored',
    ]);
  });

  it('reads the embed flags alongside the scenario', () => {
    const r = readStartLink(
      `${shareHash(exp3.scenario, LOG, { timeNs: 2e9 })}&embed=1&panels=path,terminal&controls=none&autoplay=1&origin=https://docs.example.com`,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.flags).toEqual({
      embed: true,
      panels: ['path', 'terminal'],
      controls: 'none',
      autoplay: true,
      startNs: 2e9,
      origin: 'https://docs.example.com',
    });
    expect(r.toNs).toBe(2e9);
  });
});

describe('links out', () => {
  it('"Open in the full lab" keeps the scenario and time, drops the embed flags', () => {
    const hash = shareHash(exp3.scenario, LOG, { timeNs: 2e9 });
    const url = fullLabUrl(
      `https://lab.example/netlab/${hash}&embed=1&panels=path&controls=none&autoplay=1&origin=https://docs.example.com`,
    );
    expect(url).toBe(`https://lab.example/netlab/${hash}`);
  });

  it('selections round-trip through the link’s sel', () => {
    for (const sel of [
      { kind: 'packet' as const, flow: 3, seq: 123456, count: 64 },
      { kind: 'stage' as const, host: 1, stage: 7, queue: 2 },
    ]) {
      const s = formatSelection(sel);
      expect(s).toMatch(/^[A-Za-z0-9._:/-]{1,128}$/);
      expect(parseSelection(s)).toEqual(sel);
    }
    expect(formatSelection(null)).toBeUndefined();
    expect(parseSelection('host:client')).toBeNull();
    expect(parseSelection('stage:1/2')).toBeNull();
  });
});
