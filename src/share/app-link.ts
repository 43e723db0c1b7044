/**
 * The app's side of links, as pure functions the composition root and the UI call (so the load
 * path is tested without a browser): readStartLink(hash, lessons) gives the scenario, the session to replay
 * and up to when, the view, the embed flags and what was repaired, or why the link cannot be read
 * (no scenario: the default lab); shareHash(doc, log, view) the link for what is on screen (the
 * scenario, the session typed so far, time and selection, in the codec's shortest form);
 * fullLabUrl(href) the same link without the embed flags. Nothing here runs a command: the session
 * is handed to the simulation as shell input, the only thing it ever is.
 */
import { DEFAULT_PRESET_ID, PRESETS } from '../scenario/presets';
import { parseScenario, SCENARIO_VERSION, type Scenario, type SessionEntry } from '../scenario/schema';
import { decodeShareLink, encodeShareLink, type PresetTable, type ViewState } from './codec';
import { type EmbedFlags, parseEmbedFlags } from './embed';
import { clip } from './hash-params';
import { canonicalJson, scenarioDocument } from './minimize';

/** One user action at a simulated instant (the sim-client's command log, protocol CommandLogEntry). */
export type LogEntry = { atNs: number; kind: 'line'; line: string } | { atNs: number; kind: 'interrupt' };

/** The lab's presets as the codec's base table (id → scenario document). */
export function presetTable(): PresetTable {
  return Object.fromEntries(PRESETS.map((p) => [p.id, p.scenario]));
}

export type StartLink =
  | {
      ok: true;
      /** False: no scenario in the hash, open the default preset. */
      fromLink: boolean;
      /** The preset the experiment panel shows (the link's base preset, else the default). */
      presetId: string;
      /** The scenario document to build (current version, without the session). */
      doc: Record<string, unknown>;
      /** The session to replay, in order. */
      log: LogEntry[];
      /** Replay up to this simulated instant (the link's time; later lines are typed when the clock gets there). */
      toNs: number;
      view: ViewState;
      flags: EmbedFlags;
      /** What was repaired or ignored, in plain words. */
      changes: string[];
      /**
       * The lesson the link opens (`lesson=`, `step=`), checked against the catalogue: its id and
       * the step's index (null: where the learner's saved progress says). Absent: no lesson.
       */
      lesson?: { id: string; step: number | null };
    }
  | { ok: false; message: string };

/** What readStartLink needs of a lesson (src/lessons/schema.ts LessonInput). */
export interface LessonEntry {
  id: string;
  title: string;
  scenario: unknown;
  steps: ReadonlyArray<{ id: string }>;
  draft?: unknown;
}

export function sessionToLog(session: readonly SessionEntry[] | undefined): LogEntry[] {
  return (session ?? []).map((e) =>
    'line' in e ? { atNs: e.atNs, kind: 'line', line: e.line } : { atNs: e.atNs, kind: 'interrupt' },
  );
}

export function logToSession(log: readonly LogEntry[]): SessionEntry[] {
  return log.map((e) =>
    e.kind === 'line' ? { atNs: e.atNs, line: e.line } : { atNs: e.atNs, interrupt: true as const },
  );
}

/** A parsed scenario as the document the worker builds (its session taken out, to be replayed). */
export function buildDocument(scenario: Scenario): { doc: Record<string, unknown>; log: LogEntry[] } {
  const { session, ...rest } = scenario;
  return {
    doc: { version: SCENARIO_VERSION, ...scenarioDocument(rest as Scenario) },
    log: sessionToLog(session),
  };
}

/** A scenario document as the lab builds it, canonical (null when it does not parse). */
function builtForm(doc: unknown): string | null {
  const p = parseScenario(doc);
  return p.ok ? canonicalJson(buildDocument(p.scenario).doc) : null;
}

/**
 * The preset a built scenario is, unchanged: the link's own base, else the one preset of the same
 * document (a link written whole); undefined when none is, or several are (exp1 and exp3 share one).
 */
function namedPreset(base: string | undefined, built: string, presets: PresetTable): string | undefined {
  if (base !== undefined && builtForm(presets[base]) === built) return base;
  const same = Object.keys(presets).filter((id) => builtForm(presets[id]) === built);
  return same.length === 1 ? same[0] : undefined;
}

/**
 * The link's lesson and step, checked against the catalogue. A lesson that does not exist (or is a
 * draft) is left out with a note; a step that does not exist opens the lesson at its first step.
 */
function pickLesson(
  view: { lesson?: string; step?: string },
  lessons: readonly LessonEntry[],
  changes: string[],
): { lesson: LessonEntry; step: number | null } | null {
  if (view.lesson === undefined) return null;
  const lesson = lessons.find((l) => l.id === view.lesson);
  if (!lesson) {
    const known = lessons.filter((l) => l.draft === undefined).map((l) => l.id);
    changes.push(
      `lesson: there is no lesson "${clip(view.lesson)}" (lessons: ${known.join(', ')}); the lab opens without it`,
    );
    return null;
  }
  if (lesson.draft !== undefined) {
    changes.push(`lesson: "${lesson.title}" is a draft, not open yet; the lab opens without it`);
    return null;
  }
  if (view.step === undefined) return { lesson, step: null };
  const byId = lesson.steps.findIndex((s) => s.id === view.step);
  if (byId >= 0) return { lesson, step: byId };
  const n = /^\d{1,3}$/.test(view.step) ? Number(view.step) : 0;
  if (n >= 1 && n <= lesson.steps.length) return { lesson, step: n - 1 };
  changes.push(
    `step: the lesson "${lesson.title}" has no step "${clip(view.step)}" (steps: ${lesson.steps
      .map((s, i) => `${i + 1} ${s.id}`)
      .join(', ')}); it opens at its first step`,
  );
  return { lesson, step: 0 };
}

/**
 * Read the page's hash. Never throws. The scenario is named after a preset (or a lesson) only when
 * it is that preset's (or lesson's) scenario exactly; a changed one is 'link' ("A shared scenario").
 */
export function readStartLink(
  hash: string,
  /** The lessons a link may name: the composition root passes src/lessons' catalogue. */
  lessons: readonly LessonEntry[],
  presets: PresetTable = presetTable(),
): StartLink {
  const r = decodeShareLink(hash, presets);
  if (!r.ok) return { ok: false, message: r.error.message };
  const { flags, notes } = parseEmbedFlags(hash);
  // the codec already reported what it dropped from t / panels (shared keys): keep the others once
  const changes = [...r.changes];
  for (const n of notes) if (!changes.includes(n)) changes.push(n);
  const picked = pickLesson(r.view, lessons, changes);
  const lesson = picked ? { lesson: { id: picked.lesson.id, step: picked.step } } : {};
  if (!r.fromLink) {
    // a lesson link without a scenario: the lesson's own, fresh
    if (picked)
      return {
        ok: true,
        fromLink: false,
        presetId: `lesson:${picked.lesson.id}`,
        doc: picked.lesson.scenario as Record<string, unknown>,
        log: [],
        toNs: r.view.timeNs ?? 0,
        view: r.view,
        flags,
        changes,
        ...lesson,
      };
    const preset = PRESETS.find((p) => p.id === DEFAULT_PRESET_ID) ?? PRESETS[0]!;
    return {
      ok: true,
      fromLink: false,
      presetId: preset.id,
      doc: preset.scenario,
      log: [],
      toNs: r.view.timeNs ?? 0,
      view: r.view,
      flags,
      changes,
    };
  }
  const { doc, log } = buildDocument(r.scenario);
  const built = canonicalJson(doc);
  // named after what it is: the lesson's scenario, the preset's unchanged, else a shared scenario
  const presetId =
    picked && builtForm(picked.lesson.scenario) === built
      ? `lesson:${picked.lesson.id}`
      : (namedPreset(r.preset, built, presets) ?? 'link');
  return {
    ok: true,
    fromLink: true,
    presetId,
    doc,
    log,
    toNs: r.view.timeNs ?? 0,
    view: r.view,
    flags,
    changes,
    ...lesson,
  };
}

/**
 * The hash for a scenario document as built, the session typed on it, and the view (`prefer`: the
 * preset on screen, the base among presets of the same document). Throws when `doc` is not a valid
 * scenario (the lab only runs valid ones).
 */
export function shareHash(
  doc: unknown,
  log: readonly LogEntry[],
  view: ViewState,
  presets: PresetTable = presetTable(),
  prefer?: string,
): string {
  const p = parseScenario(doc);
  if (!p.ok) throw new Error(`shareHash: the lab's scenario does not parse: ${p.errors.join('; ')}`);
  const scenario: Scenario = { ...p.scenario };
  delete scenario.session;
  if (log.length > 0) scenario.session = logToSession(log);
  return encodeShareLink({ scenario, view }, presets, prefer);
}

/** Embed-only keys ("Open in the full lab" drops them; the scenario and the view stay). */
const EMBED_ONLY = new Set(['embed', 'controls', 'autoplay', 'origin', 'panels']);

/** `href` with the embed flags taken out of its hash. */
export function fullLabUrl(href: string): string {
  const u = new URL(href);
  const kept = u.hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '' && !EMBED_ONLY.has(part.split('=')[0] ?? ''));
  u.hash = kept.join('&');
  return u.toString();
}

/** The app's selection as a link's `sel` (letters, digits and . _ : / -). */
export type LinkSelection =
  | { kind: 'packet'; flow: number; seq: number; count: number }
  | { kind: 'stage'; host: number; stage: number; queue: number };

export function formatSelection(sel: LinkSelection | null): string | undefined {
  if (!sel) return undefined;
  return sel.kind === 'packet'
    ? `packet:${sel.flow}/${sel.seq}/${sel.count}`
    : `stage:${sel.host}/${sel.stage}/${sel.queue}`;
}

export function parseSelection(s: string | undefined): LinkSelection | null {
  if (!s) return null;
  const m = /^(packet|stage):(\d{1,9})\/(\d{1,12})\/(\d{1,9})$/.exec(s);
  if (!m) return null;
  const [a, b, c] = [Number(m[2]), Number(m[3]), Number(m[4])];
  return m[1] === 'packet'
    ? { kind: 'packet', flow: a, seq: b, count: c }
    : { kind: 'stage', host: a, stage: b, queue: c };
}
