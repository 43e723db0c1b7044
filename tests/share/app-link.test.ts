/**
 * The page's load path (src/share/app-link.ts): what the app builds from its hash, and the hash
 * Share writes. A shared run reopens to the same scenario document, the same session (lines and
 * Ctrl-C at their simulated instants) and the same time; a preset-based run links as a preset
 * diff; unreadable links give the codec's message; embed flags come through; "Open in the full
 * lab" drops exactly the embed flags.
 */
import { describe, expect, it } from 'vitest';
import { LESSON_DOCUMENTS } from '../../src/lessons/documents';
import { DEFAULT_PRESET_ID, PRESETS } from '../../src/scenario/presets';
import { parseScenario } from '../../src/scenario/schema';
import {
  formatSelection,
  fullLabUrl,
  type LogEntry,
  parseSelection,
  presetTable,
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
    const r = readStartLink('', LESSON_DOCUMENTS);
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
    const r = readStartLink(hash, LESSON_DOCUMENTS);
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
    expect(hash).toMatch(/^#v=5&p=exp[56]&ph=[0-9a-f]{8}&d=/);
    const r = readStartLink(hash, LESSON_DOCUMENTS);
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
    const r = readStartLink('#v=4&s=%%%', LESSON_DOCUMENTS);
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/^this link could not be read: /) });
    expect(readStartLink('#v=99&s=x', LESSON_DOCUMENTS)).toMatchObject({
      ok: false,
      message: expect.stringContaining('newer'),
    });
  });

  it('keeps what it can of a damaged view and says what it dropped, once', () => {
    const hash = `${shareHash(exp3.scenario, [], {})}&t=soon&controls=huge`;
    const r = readStartLink(hash, LESSON_DOCUMENTS);
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
      LESSON_DOCUMENTS,
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

describe('lesson and step permalinks', () => {
  const journey = LESSON_DOCUMENTS.find((l) => l.id === 'packet-journey')!;

  it('#lesson=…&step=… opens the lesson’s own scenario, fresh, at that step (by id or number)', () => {
    const r = readStartLink('#lesson=packet-journey&step=one-flow', LESSON_DOCUMENTS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.changes).toEqual([]);
    expect(r.lesson).toEqual({ id: 'packet-journey', step: 1 });
    expect(r.presetId).toBe('lesson:packet-journey');
    expect(r.doc).toBe(journey.scenario);
    expect(r.log).toEqual([]);
    const n = readStartLink('#lesson=packet-journey&step=3', LESSON_DOCUMENTS);
    expect(n.ok && n.lesson).toEqual({ id: 'packet-journey', step: 2 });
    // no step: where the learner's progress is (the panel decides)
    const none = readStartLink('#lesson=packet-journey', LESSON_DOCUMENTS);
    expect(none.ok && none.lesson).toEqual({ id: 'packet-journey', step: null });
  });

  it('a bad lesson or step id gives a clear note and the lab still opens', () => {
    const r = readStartLink('#lesson=no-such-lesson&step=2', LESSON_DOCUMENTS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.lesson).toBeUndefined();
    expect(r.presetId).toBe(DEFAULT_PRESET_ID);
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]).toMatch(/^lesson: there is no lesson "no-such-lesson" \(lessons: packet-journey, /);
    expect(r.changes[0]).toContain('the lab opens without it');

    const s = readStartLink('#lesson=packet-journey&step=warp-drive', LESSON_DOCUMENTS);
    expect(s.ok && s.lesson).toEqual({ id: 'packet-journey', step: 0 });
    expect(s.ok && s.changes).toEqual([
      `step: the lesson "${journey.title}" has no step "warp-drive" (steps: 1 queues, 2 one-flow, 3 many-flows); it opens at its first step`,
    ]);
    for (const bad of ['0', '4', '999']) {
      const b = readStartLink(`#lesson=packet-journey&step=${bad}`, LESSON_DOCUMENTS);
      expect(b.ok && b.lesson).toEqual({ id: 'packet-journey', step: 0 });
      expect(b.ok && b.changes[0]).toContain(`has no step "${bad}"`);
    }
    // not an id at all (the codec's syntax check), and a step without a lesson
    const x = readStartLink('#lesson=%3Cscript%3E', LESSON_DOCUMENTS);
    expect(x.ok && x.lesson).toBeUndefined();
    expect(x.ok && x.changes).toEqual([
      'lesson: "<script>" is not a lesson id (lower-case letters, digits and -); ignored',
    ]);
    const y = readStartLink('#step=2', LESSON_DOCUMENTS);
    expect(y.ok && y.changes).toEqual(['step: the link names no lesson (lesson=…); ignored']);
    // a draft lesson is not opened
    const draft = readStartLink('#lesson=d1', [
      {
        id: 'd1',
        title: 'Draft one',
        scenario: journey.scenario,
        steps: [{ id: 'a' }],
        draft: { needs: ['x'] },
      },
    ]);
    expect(draft.ok && draft.lesson).toBeUndefined();
    expect(draft.ok && draft.changes).toEqual([
      'lesson: "Draft one" is a draft, not open yet; the lab opens without it',
    ]);
  });

  it('a session in a lesson round-trips: scenario, session, time, lesson and step', () => {
    const log: LogEntry[] = [{ atNs: 5_000_000, kind: 'line', line: 'iperf3 -c server -t 1' }];
    const hash = shareHash(journey.scenario, log, {
      timeNs: 700_000_000,
      lesson: 'packet-journey',
      step: 'one-flow',
    });
    expect(hash).toMatch(/&lesson=packet-journey&step=one-flow$/);
    expect(hash.length).toBeLessThan(2_000);
    const r = readStartLink(hash, LESSON_DOCUMENTS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.changes).toEqual([]);
    expect(r.presetId).toBe('lesson:packet-journey');
    expect(r.lesson).toEqual({ id: 'packet-journey', step: 1 });
    expect(r.log).toEqual(log);
    expect(r.toNs).toBe(700_000_000);
  });

  it('a lesson over another scenario opens the lesson, the scenario named as what it is', () => {
    const exp5 = PRESETS.find((p) => p.id === 'exp5')!;
    const hash = shareHash(
      exp5.scenario,
      [],
      { lesson: 'packet-journey', step: 'queues' },
      presetTable(),
      'exp5',
    );
    const r = readStartLink(hash, LESSON_DOCUMENTS);
    expect(r.ok && r.presetId).toBe('exp5');
    expect(r.ok && r.lesson).toEqual({ id: 'packet-journey', step: 0 });
  });
});

describe('what a link’s scenario is called', () => {
  it('a preset unchanged keeps the preset’s name, with a session typed on it too', () => {
    // Share names the preset on screen (main.tsx's prefer), though the whole scenario is shorter
    const hash = shareHash(exp3.scenario, LOG, { timeNs: 2e9 }, presetTable(), 'exp3');
    expect(hash).toMatch(/^#v=5&p=exp3&ph=[0-9a-f]{8}&d=[\w-]+&t=2s$/);
    const r = readStartLink(hash, LESSON_DOCUMENTS);
    expect(r.ok && r.presetId).toBe('exp3');
    // a link written whole (s=, an older link): named after the one preset of that document, and
    // not named when several presets share it (exp1 and exp3 do)
    const whole = shareHash(exp3.scenario, LOG, { timeNs: 2e9 });
    expect(whole).toMatch(/^#v=5&s=/);
    const w = readStartLink(whole, LESSON_DOCUMENTS);
    expect(w.ok && w.presetId).toBe('link');
    const only = { exp3: exp3.scenario, exp5: PRESETS.find((p) => p.id === 'exp5')!.scenario };
    const u = readStartLink(shareHash(exp3.scenario, LOG, {}, only), LESSON_DOCUMENTS, only);
    expect(u.ok && u.presetId).toBe('exp3');
  });

  it('a preset changed is a shared scenario, not the preset (its name would say what is not there)', () => {
    const exp5 = PRESETS.find((p) => p.id === 'exp5')!;
    const hash = shareHash({ ...exp5.scenario, seed: 42 }, LOG, {}, presetTable(), 'exp5');
    expect(hash).toMatch(/^#v=5&p=exp5&ph=[0-9a-f]{8}&d=/);
    const r = readStartLink(hash, LESSON_DOCUMENTS);
    expect(r.ok && r.presetId).toBe('link');
    const small = readStartLink(
      shareHash({ ...exp3.scenario, seed: 42 }, LOG, {}, presetTable(), 'exp3'),
      LESSON_DOCUMENTS,
    );
    expect(small.ok && small.presetId).toBe('link');
  });

  it('two presets of the same document: the one on screen is the link’s base, and is named', () => {
    const [a, b] = ['exp5', 'exp6'].map((id) => PRESETS.find((p) => p.id === id)!);
    expect(canonicalJson(a!.scenario)).toBe(canonicalJson(b!.scenario));
    const hash = shareHash(b!.scenario, [], {}, presetTable(), 'exp6');
    expect(hash).toContain('p=exp6&');
    expect(
      readStartLink(hash, LESSON_DOCUMENTS).ok &&
        (readStartLink(hash, LESSON_DOCUMENTS) as { presetId: string }).presetId,
    ).toBe('exp6');
    expect(shareHash(a!.scenario, [], {}, presetTable(), 'exp5')).toContain('p=exp5&');
  });
});
