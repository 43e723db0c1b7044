/**
 * The app's side of links, as pure functions the composition root and the UI call (so the load
 * path is tested without a browser): readStartLink(hash) gives the scenario, the session to replay
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
import { scenarioDocument } from './minimize';

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
    }
  | { ok: false; message: string };

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

/** Read the page's hash. Never throws. */
export function readStartLink(hash: string, presets: PresetTable = presetTable()): StartLink {
  const r = decodeShareLink(hash, presets);
  if (!r.ok) return { ok: false, message: r.error.message };
  const { flags, notes } = parseEmbedFlags(hash);
  // the codec already reported what it dropped from t / panels (shared keys): keep the others once
  const changes = [...r.changes];
  for (const n of notes) if (!changes.includes(n)) changes.push(n);
  if (!r.fromLink) {
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
  return {
    ok: true,
    fromLink: true,
    presetId: r.preset ?? 'link',
    doc,
    log,
    toNs: r.view.timeNs ?? 0,
    view: r.view,
    flags,
    changes,
  };
}

/**
 * The hash for a scenario document as built, the session typed on it, and the view. Throws when
 * `doc` is not a valid scenario (the lab only runs valid ones).
 */
export function shareHash(
  doc: unknown,
  log: readonly LogEntry[],
  view: ViewState,
  presets: PresetTable = presetTable(),
): string {
  const p = parseScenario(doc);
  if (!p.ok) throw new Error(`shareHash: the lab's scenario does not parse: ${p.errors.join('; ')}`);
  const scenario: Scenario = { ...p.scenario };
  delete scenario.session;
  if (log.length > 0) scenario.session = logToSession(log);
  return encodeShareLink({ scenario, view }, presets);
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
