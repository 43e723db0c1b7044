/**
 * Scenario links: the scenario (`s=`, or a preset `p=` with a JSON merge patch `d=` and the
 * preset's fingerprint `ph=`, whichever is shorter) and the view (`t`, `sel`, `panels`, `theme`) in
 * the URL hash, versioned by `v` so old links migrate. Data is base64url(raw DEFLATE(JSON)) of the
 * minimal document (minimize.ts).
 *
 * Guarantees: decodeShareLink never throws (a valid Scenario with the list of what it changed, or a
 * ShareLinkError "this link could not be read: …"); oversized hashes are refused before any work;
 * decode(encode(x)) = x; nothing from a link is executed or rendered as HTML, nor sent anywhere.
 * A preset's content must not change once a link names it (the fingerprint tells when it did).
 * The format as users see it: README.md, "Sharing and embedding".
 */
import {
  defaultScenario,
  KNOWN_SCENARIO_VERSIONS,
  parseScenario,
  SCENARIO_VERSION,
  type Scenario,
} from '../scenario/schema';
import { EMBED_PANELS, type EmbedPanel } from '../state/embed-view';
import { base64urlDecode, base64urlEncode, deflate, inflateLimited } from './compress';
import { clip, formatHashParams, type LinkKey, parseHashParams } from './hash-params';
import { applyMergePatch, canonicalJson, type JsonObj, mergeDiff, scenarioDocument } from './minimize';
import { MAX_DEPTH, repairScenario } from './repair';

export { MAX_HASH_CHARS } from './hash-params';

/** Largest JSON document a link may unpack to. */
export const MAX_DOCUMENT_BYTES = 262_144;
/** Longest simulated time a link may point at (one day). */
export const MAX_LINK_TIME_NS = 86_400e9;

export const PANELS = EMBED_PANELS;
export type Panel = EmbedPanel;
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** What the viewer was looking at. Every field optional: absent means the app's default. */
export interface ViewState {
  /** Simulated time shown, integer nanoseconds. */
  timeNs?: number;
  /** The selected element, an app-defined id such as "host:client" or "queue:client/eth0/tx-0". */
  selection?: string;
  panels?: Panel[];
  theme?: Theme;
  /** The lesson open (its id) and its step (the step's id, or its number from 1); checked by the app. */
  lesson?: string;
  step?: string;
}

export interface ShareState {
  scenario: Scenario;
  view?: ViewState;
}

/** Named presets: name → scenario document (any known version). */
export type PresetTable = Readonly<Record<string, unknown>>;

export type ShareLinkErrorKind =
  | 'too-large'
  | 'newer-version'
  | 'unknown-version'
  | 'damaged-data'
  | 'unknown-preset'
  | 'invalid-scenario';

export interface ShareLinkError {
  kind: ShareLinkErrorKind;
  /** "this link could not be read: …" */
  message: string;
}

export type DecodeResult =
  | {
      ok: true;
      scenario: Scenario;
      view: ViewState;
      /** What was changed or ignored, in plain words (empty for a link this lab wrote). */
      changes: string[];
      /** The preset the link is based on, if any. */
      preset?: string;
      /** False when the hash names no scenario (the default scenario is returned). */
      fromLink: boolean;
    }
  | { ok: false; error: ShareLinkError };

const SELECTION_RE = /^[A-Za-z0-9._:/-]{1,128}$/;
const PRESET_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** A lesson's or a step's id (or a step's number): what the lesson catalogue's ids look like. */
const LESSON_ID_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

function fail(kind: ShareLinkErrorKind, detail: string): DecodeResult {
  return { ok: false, error: { kind, message: `this link could not be read: ${detail}` } };
}

/** FNV-1a 32-bit of a string, hex: a fingerprint of a preset document (not a security check). */
export function fingerprint(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** A preset's minimal document and fingerprint; null when the preset itself does not parse. */
function presetBase(doc: unknown): { doc: JsonObj; print: string } | null {
  const r = parseScenario(doc);
  if (!r.ok) return null;
  const min = scenarioDocument(r.scenario);
  return { doc: min, print: fingerprint(canonicalJson(min)) };
}

function packJson(v: unknown): string {
  return base64urlEncode(deflate(new TextEncoder().encode(JSON.stringify(v))));
}

function unpackJson(data: string): { value: unknown } | { error: string } {
  // base64url of MAX_DOCUMENT_BYTES is bounded by the hash limit already; this is the unpacked size
  const bytes = base64urlDecode(data);
  if (!(bytes instanceof Uint8Array)) return bytes;
  const raw = inflateLimited(bytes, MAX_DOCUMENT_BYTES);
  if (!(raw instanceof Uint8Array)) return raw;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { error: 'the data is not UTF-8 text' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { error: 'the data is not JSON' };
  }
  // before anything recursive sees it (a preset change is merged by recursion)
  if (deeperThan(value, MAX_DEPTH))
    return { error: `it is nested deeper than any scenario (${MAX_DEPTH} levels)` };
  return { value };
}

/** Whether a parsed JSON value nests arrays or objects more than `limit` levels (no recursion). */
export function deeperThan(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A link time in seconds, exact to the nanosecond: `1.5s`, `0.000002s`, `600s` (what a person reads
 * and edits). Links and embed codes write `t` this way; parseLinkTime also reads `250ms`, `20us`,
 * `7ns` and a bare number of seconds (links made before took those forms).
 */
export function formatLinkSeconds(ns: number): string {
  const whole = Math.floor(ns / 1e9);
  const frac = String(ns - whole * 1e9)
    .padStart(9, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}s` : `${whole}s`;
}

export function parseLinkTime(s: string): number | { error: string } {
  const m = /^(\d{1,15}(?:\.\d{1,9})?)(s|ms|us|ns)?$/.exec(s);
  if (!m) return { error: `"${clip(s)}" is not a time like 1.5s, 250ms or 20us` };
  const scale = { s: 1e9, ms: 1e6, us: 1e3, ns: 1 }[(m[2] ?? 's') as 's' | 'ms' | 'us' | 'ns'];
  const ns = Math.round(Number(m[1]) * scale);
  if (!Number.isSafeInteger(ns) || ns > MAX_LINK_TIME_NS) {
    return { error: `${clip(s)} is past the lab's longest run (${MAX_LINK_TIME_NS / 1e9} s)` };
  }
  return ns;
}

function viewEntries(view: ViewState | undefined): Array<[LinkKey, string]> {
  const out: Array<[LinkKey, string]> = [];
  if (!view) return out;
  if (view.timeNs !== undefined) out.push(['t', formatLinkSeconds(view.timeNs)]);
  if (view.selection !== undefined) out.push(['sel', view.selection]);
  if (view.panels !== undefined) out.push(['panels', view.panels.join(',')]);
  if (view.theme !== undefined) out.push(['theme', view.theme]);
  if (view.lesson !== undefined) out.push(['lesson', view.lesson]);
  if (view.lesson !== undefined && view.step !== undefined) out.push(['step', view.step]);
  return out;
}

/** Read the view options; invalid ones are dropped with a note. */
export function parseView(params: ReadonlyMap<string, string>, notes: string[]): ViewState {
  const view: ViewState = {};
  const t = params.get('t');
  if (t !== undefined) {
    const ns = parseLinkTime(t);
    if (typeof ns === 'number') view.timeNs = ns;
    else notes.push(`t: ${ns.error}; ignored`);
  }
  const sel = params.get('sel');
  if (sel !== undefined) {
    if (SELECTION_RE.test(sel)) view.selection = sel;
    else notes.push(`sel: "${clip(sel)}" is not a selection (letters, digits and . _ : / -); ignored`);
  }
  const panels = params.get('panels');
  if (panels !== undefined) {
    const list: Panel[] = [];
    for (const p of panels.split(',')) {
      if (p === '') continue;
      if ((PANELS as readonly string[]).includes(p)) {
        if (!list.includes(p as Panel)) list.push(p as Panel);
      } else notes.push(`panels: "${clip(p)}" is not a panel (${PANELS.join(', ')}); ignored`);
    }
    view.panels = list;
  }
  const theme = params.get('theme');
  if (theme !== undefined) {
    if ((THEMES as readonly string[]).includes(theme)) view.theme = theme as Theme;
    else notes.push(`theme: "${clip(theme)}" is not ${THEMES.join(' or ')}; ignored`);
  }
  // which lesson and step: the syntax here; whether they exist is the app's to say (app-link.ts)
  const lesson = params.get('lesson');
  const step = params.get('step');
  if (lesson !== undefined) {
    if (LESSON_ID_RE.test(lesson)) view.lesson = lesson;
    else
      notes.push(`lesson: "${clip(lesson)}" is not a lesson id (lower-case letters, digits and -); ignored`);
  }
  if (step !== undefined) {
    if (view.lesson === undefined) {
      if (lesson === undefined) notes.push('step: the link names no lesson (lesson=…); ignored');
    } else if (LESSON_ID_RE.test(step)) view.step = step;
    else notes.push(`step: "${clip(step)}" is not a step id or number; the lesson opens at its first step`);
  }
  return view;
}

/**
 * The link's hash (`#v=…`) for a scenario and view. `presets` are tried as bases; the shortest
 * link wins; `prefer` (the preset on screen) wins when the scenario is that preset's unchanged, so
 * the link names it (two presets may share a document; a small one is shorter whole).
 * Throws only when `state.scenario` is not a valid Scenario (a caller bug).
 */
export function encodeShareLink(state: ShareState, presets: PresetTable = {}, prefer?: string): string {
  const doc = scenarioDocument(state.scenario);
  const view = viewEntries(state.view);
  const v = String(SCENARIO_VERSION);
  const candidates: Array<Array<[LinkKey, string]>> = [[['v', v], ['s', packJson(doc)], ...view]];
  const names = Object.keys(presets).sort();
  if (prefer !== undefined && names.includes(prefer)) names.sort((a, b) => +(b === prefer) - +(a === prefer));
  /** The preset on screen, unchanged: named by the link even when the whole scenario is shorter. */
  let named: Array<[LinkKey, string]> | null = null;
  for (const name of names) {
    if (!PRESET_RE.test(name)) continue;
    const base = presetBase(presets[name]);
    if (!base) continue;
    const patch = mergeDiff(base.doc, doc);
    const entries: Array<[LinkKey, string]> = [
      ['v', v],
      ['p', name],
      ['ph', base.print],
    ];
    if (canonicalJson(patch) !== '{}') entries.push(['d', packJson(patch)]);
    // the preset itself, with a session typed on it or none
    const { session: _, ...changed } = patch as Record<string, unknown>;
    if (name === prefer && canonicalJson(changed) === '{}') named = [...entries, ...view];
    candidates.push([...entries, ...view]);
  }
  const links = candidates.map((c) => formatHashParams(c)).sort((a, b) => a.length - b.length);
  if (named) links.unshift(formatHashParams(named));
  const want = canonicalJson(state.scenario);
  for (const link of links) {
    const back = decodeShareLink(link, presets);
    if (back.ok && back.changes.length === 0 && canonicalJson(back.scenario) === want) return link;
  }
  throw new Error('encodeShareLink: the scenario does not survive encoding (is it a parsed Scenario?)');
}

/** Read a link's hash. Never throws. */
export function decodeShareLink(hash: string, presets: PresetTable = {}): DecodeResult {
  try {
    return decodeInner(hash, presets);
  } catch (e) {
    return fail('damaged-data', `unexpected error (${e instanceof Error ? e.message : String(e)})`);
  }
}

function decodeInner(hash: string, presets: PresetTable): DecodeResult {
  const hp = parseHashParams(hash);
  if (!hp.ok) return fail('too-large', hp.message);
  const { params } = hp;
  const notes = [...hp.notes];
  const view = parseView(params, notes);
  const vRaw = params.get('v');
  const s = params.get('s');
  const p = params.get('p');
  const d = params.get('d');
  if (vRaw === undefined && s === undefined && p === undefined && d === undefined) {
    return { ok: true, scenario: defaultScenario(), view, changes: notes, fromLink: false };
  }
  let version = SCENARIO_VERSION;
  if (vRaw !== undefined) {
    if (!/^\d{1,4}$/.test(vRaw)) return fail('unknown-version', `v=${clip(vRaw)} is not a scenario version`);
    version = Number(vRaw);
    if (version > SCENARIO_VERSION) {
      return fail(
        'newer-version',
        `it was made by a newer version of the lab (scenario version ${version}; this lab reads ${KNOWN_SCENARIO_VERSIONS.join(', ')})`,
      );
    }
    if (!(KNOWN_SCENARIO_VERSIONS as readonly number[]).includes(version)) {
      return fail(
        'unknown-version',
        `scenario version ${version} never existed (known: ${KNOWN_SCENARIO_VERSIONS.join(', ')})`,
      );
    }
  } else if (s !== undefined || d !== undefined) {
    return fail('unknown-version', 'it carries a scenario but no version (v=…)');
  }
  let doc: unknown;
  let preset: string | undefined;
  if (s !== undefined) {
    if (p !== undefined || d !== undefined)
      notes.push('p, d: the link carries a whole scenario (s); the preset is ignored');
    const u = unpackJson(s);
    if ('error' in u) return fail('damaged-data', u.error);
    doc = u.value;
  } else {
    if (p === undefined) return fail('damaged-data', 'it has a change (d) but no preset (p) to apply it to');
    if (!PRESET_RE.test(p) || !Object.hasOwn(presets, p)) {
      const known = Object.keys(presets).sort();
      return fail(
        'unknown-preset',
        `there is no preset named "${clip(p)}"${known.length ? ` (presets: ${known.join(', ')})` : ''}`,
      );
    }
    const base = presetBase(presets[p]);
    if (!base) return fail('unknown-preset', `the preset "${p}" is itself invalid`);
    preset = p;
    const ph = params.get('ph');
    if (ph !== undefined && ph !== base.print) {
      notes.push(
        `p: the preset "${p}" has changed since this link was made; the scenario may differ from the one shared`,
      );
    }
    let patch: unknown = {};
    if (d !== undefined) {
      const u = unpackJson(d);
      if ('error' in u) return fail('damaged-data', u.error);
      patch = u.value;
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        return fail('damaged-data', 'the change (d) is not a JSON object');
      }
    }
    // presets are current-version documents; a preset diff is always read at the current version
    if (version !== SCENARIO_VERSION) {
      return fail(
        'unknown-version',
        `preset links are written at version ${SCENARIO_VERSION}, not ${version}`,
      );
    }
    doc = applyMergePatch(base.doc, patch);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return fail('invalid-scenario', 'the scenario is not a JSON object');
  }
  const given = (doc as Record<string, unknown>)['version'];
  if (given !== undefined) {
    if (given !== version)
      notes.push(
        `version: the link says version ${version}; the ${clip(JSON.stringify(given) ?? '')} inside is ignored`,
      );
    delete (doc as Record<string, unknown>)['version'];
  }
  const r = repairScenario(doc, version, notes);
  if (!r.ok) return fail('invalid-scenario', r.message);
  return {
    ok: true,
    scenario: r.scenario,
    view,
    changes: r.changes,
    ...(preset ? { preset } : {}),
    fromLink: true,
  };
}

/**
 * Open a scenario document handed over directly (a host page's `load` message): the same size
 * limit, validation and repair as a link. The document must carry its `version`.
 */
export function readScenarioDocument(doc: unknown): DecodeResult {
  try {
    let text: string | undefined;
    // a structured clone from postMessage can nest deeper than JSON.stringify's recursion goes
    if (deeperThan(doc, MAX_DEPTH))
      return fail('invalid-scenario', `it is nested deeper than any scenario (${MAX_DEPTH} levels)`);
    try {
      text = JSON.stringify(doc);
    } catch {
      return fail('damaged-data', 'the scenario is not plain JSON data');
    }
    if (text === undefined) return fail('invalid-scenario', 'the scenario is not a JSON object');
    if (text.length > MAX_DOCUMENT_BYTES) {
      return fail('too-large', `the scenario is more than ${MAX_DOCUMENT_BYTES} bytes of JSON`);
    }
    // a private copy: repair edits the document in place
    const copy = JSON.parse(text) as unknown;
    if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) {
      return fail('invalid-scenario', 'the scenario is not a JSON object');
    }
    const { version, ...rest } = copy as Record<string, unknown>;
    if (typeof version !== 'number' || !Number.isInteger(version)) {
      return fail(
        'unknown-version',
        `the scenario has no version (this lab reads ${KNOWN_SCENARIO_VERSIONS.join(', ')})`,
      );
    }
    if (version > SCENARIO_VERSION) {
      return fail('newer-version', `it was made by a newer version of the lab (scenario version ${version})`);
    }
    const r = repairScenario(rest, version);
    if (!r.ok) return fail('invalid-scenario', r.message);
    return { ok: true, scenario: r.scenario, view: {}, changes: r.changes, fromLink: false };
  } catch (e) {
    return fail('damaged-data', `unexpected error (${e instanceof Error ? e.message : String(e)})`);
  }
}
