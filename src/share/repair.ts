/**
 * Open an untrusted scenario document (from a link or a host page) the forgiving way: keep what is
 * valid, put the default in place of what is not, and say in plain words what was changed
 * ("instances[1].type: unknown instance type "c7i.larg"; replaced by c7i.large"). Each problem
 * found by the scenario's own checks is fixed by the smallest edit that lets the default take over
 * (an unknown key or bad optional value removed, a bad required value taking its enclosing object
 * with it, a misspelt instance type replaced by the closest), then validated again, at most
 * MAX_REPAIRS times.
 *
 * Guarantees: never throws; an ok result is exactly what parseScenario returns for the repaired
 * document; messages name fields by their path in the document as given; nothing is executed.
 */
import type { z } from 'zod';
import { getInstanceType, suggestInstanceType } from '../catalog';
import { migrate } from '../scenario/migrations';
import {
  KNOWN_SCENARIO_VERSIONS,
  parseScenario,
  SCENARIO_VERSION,
  type Scenario,
  ScenarioSchema,
} from '../scenario/schema';
import { clip } from './hash-params';

/** Most edits made to one document before giving up on it. */
export const MAX_REPAIRS = 64;
/** Deepest nesting a document may have (a scenario is ≤ 8 levels deep). */
export const MAX_DEPTH = 24;

type Key = string | number;
type Path = Key[];
type Obj = Record<string, unknown>;

export type RepairResult =
  | { ok: true; scenario: Scenario; changes: string[] }
  | { ok: false; message: string };

interface Change {
  seq: number;
  /** Path of the problem, in the document as it was at this step. */
  path: Path;
  reason: string;
  /** What was done: replaced by a given value, or removed at actionPath (the default may fill it). */
  action: { kind: 'replaced'; value: string } | { kind: 'removed'; actionPath: Path; seq: number };
}

interface Splice {
  seq: number;
  arrayPath: Path;
  index: number;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Remove own `__proto__` keys (JSON.parse makes them; assigning one elsewhere would set a
 * prototype) and refuse documents nested deeper than any scenario. Mutates `v`.
 */
export function sanitizeJson(
  v: unknown,
  path: Path = [],
  notes: string[] = [],
): string[] | { error: string } {
  if (path.length > MAX_DEPTH)
    return { error: `it is nested deeper than any scenario (${MAX_DEPTH} levels)` };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = sanitizeJson(v[i], [...path, i], notes);
      if (!Array.isArray(r)) return r;
    }
  } else if (isObj(v)) {
    if (Object.hasOwn(v, '__proto__')) {
      Reflect.deleteProperty(v, '__proto__');
      notes.push(`${formatPath([...path, '__proto__'])}: not a scenario field; removed`);
    }
    for (const k of Object.keys(v)) {
      const r = sanitizeJson(v[k], [...path, k], notes);
      if (!Array.isArray(r)) return r;
    }
  }
  return notes;
}

export function formatPath(path: Path): string {
  const s = path.map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? p : `.${p}`)).join('');
  return s || '(root)';
}

/** `a.b[0].c: message` (formatIssues / checkVpc / migrations) → path and message. */
export function splitIssue(line: string): { path: Path; message: string } | null {
  const m = /^(\(root\)|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*): (.*)$/s.exec(line);
  if (!m) return null;
  if (m[1] === '(root)') return { path: [], message: m[2]! };
  const path: Path = [];
  for (const t of m[1]!.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+)\]/g))
    path.push(t[2] !== undefined ? Number(t[2]) : t[1]!);
  return { path, message: m[2]! };
}

function getAt(root: unknown, path: Path): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const k of path) {
    if (
      typeof k === 'number' ? !Array.isArray(cur) || k >= cur.length : !isObj(cur) || !Object.hasOwn(cur, k)
    ) {
      return { found: false, value: undefined };
    }
    cur = (cur as Record<Key, unknown>)[k];
  }
  return { found: true, value: cur };
}

const samePath = (a: Path, b: Path) => a.length === b.length && a.every((k, i) => k === b[i]);
const isPrefix = (pre: Path, p: Path) => pre.length <= p.length && pre.every((k, i) => k === p[i]);

/** A value shown in a message: strings bare, short JSON otherwise, nothing when long. */
function show(v: unknown): string | null {
  if (typeof v === 'string') return v.length <= 40 ? v : null;
  const s = JSON.stringify(v);
  return s !== undefined && s.length <= 40 ? s : null;
}

/** A valid, unused host name close to `raw` ("Web Server" → "web-server"), or null. */
function fixHostName(raw: unknown, taken: Set<string>): string | null {
  if (typeof raw !== 'string') return null;
  let base = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 28)
    .replace(/-+$/, '');
  if (base === '') base = 'host';
  for (let n = 1; n < 100; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(name) && /^[a-z][a-z0-9-]{0,30}$/.test(name)) return name;
  }
  return null;
}

/** The first problem of the document at its current version, or null when it parses. */
type Problem = { path: Path; message: string; unknownKeys?: string[] } | { fatal: string };

function firstProblem(
  doc: Obj,
  version: number,
): { problem: Problem | null; doc: Obj; version: number; scenario?: Scenario } {
  if (version < SCENARIO_VERSION) {
    const m = migrate(doc, version, SCENARIO_VERSION);
    if (!m.ok) {
      const s = splitIssue(m.errors[0] ?? '');
      return { problem: s ?? { fatal: m.errors[0] ?? 'migration failed' }, doc, version };
    }
    doc = m.doc;
    version = SCENARIO_VERSION;
  }
  const r = ScenarioSchema.safeParse(doc);
  if (!r.success) {
    const issue = r.error.issues[0] as z.core.$ZodIssue;
    const path = issue.path.filter((k): k is Key => typeof k !== 'symbol');
    // a record key that fails its own check: say why ("unknown model parameter"), as formatIssues does
    const message = issue.code === 'invalid_key' && issue.issues[0] ? issue.issues[0].message : issue.message;
    if (issue.code === 'unrecognized_keys')
      return { problem: { path, message, unknownKeys: issue.keys }, doc, version };
    return { problem: { path, message }, doc, version };
  }
  const p = parseScenario(doc);
  if (p.ok) return { problem: null, doc, version, scenario: p.scenario };
  const first = p.errors[0] ?? '(root): invalid';
  return { problem: splitIssue(first) ?? { fatal: first }, doc, version };
}

/**
 * Validate and repair `doc` (a scenario document of `version`; its own `version` field is set to
 * it). `notes` are earlier changes (from sanitizeJson) to report first. Mutates `doc`.
 */
export function repairScenario(doc: unknown, version: number, notes: string[] = []): RepairResult {
  try {
    return repairInner(doc, version, notes);
  } catch (e) {
    // a bug here must not take the page down: report it as an unreadable document
    return {
      ok: false,
      message: `validation failed unexpectedly (${e instanceof Error ? e.message : String(e)})`,
    };
  }
}

function repairInner(doc: unknown, version: number, notes: string[]): RepairResult {
  if (!isObj(doc)) return { ok: false, message: 'the scenario is not a JSON object' };
  if (!(KNOWN_SCENARIO_VERSIONS as readonly number[]).includes(version)) {
    return {
      ok: false,
      message: `scenario version ${version} is not one this lab reads (${KNOWN_SCENARIO_VERSIONS.join(', ')})`,
    };
  }
  const sane = sanitizeJson(doc, [], [...notes]);
  if (!Array.isArray(sane)) return { ok: false, message: sane.error };
  let cur: Obj = { ...doc, version };
  let ver = version;
  const changes: Change[] = [];
  const splices: Splice[] = [];
  for (let seq = 0; ; seq++) {
    const step = firstProblem(cur, ver);
    cur = step.doc;
    ver = step.version;
    if (!step.problem)
      return {
        ok: true,
        scenario: step.scenario!,
        changes: [...sane, ...describe(changes, splices, step.scenario!)],
      };
    if (seq >= MAX_REPAIRS) return { ok: false, message: `it has more than ${MAX_REPAIRS} invalid fields` };
    const pr = step.problem;
    if ('fatal' in pr) return { ok: false, message: pr.fatal };
    if (pr.unknownKeys) {
      const obj = getAt(cur, pr.path).value;
      if (!isObj(obj)) return { ok: false, message: `${formatPath(pr.path)}: ${pr.message}` };
      for (const k of pr.unknownKeys) {
        delete obj[k];
        changes.push({
          seq,
          path: [...pr.path, k],
          reason: 'not a scenario field',
          action: { kind: 'removed', actionPath: [...pr.path, k], seq },
        });
      }
      continue;
    }
    // a misspelt or unknown instance type: the closest known type, else the default type
    if (pr.path.length === 3 && pr.path[0] === 'instances' && pr.path[2] === 'type') {
      const inst = getAt(cur, pr.path.slice(0, 2)).value;
      const given = getAt(cur, pr.path).value;
      if (isObj(inst)) {
        const value = (typeof given === 'string' && suggestInstanceType(given)[0]) || 'c7i.large';
        if (getInstanceType(value)) {
          inst['type'] = value;
          changes.push({
            seq,
            path: pr.path,
            reason: pr.message.replace(/ \(did you mean [^)]*\)$/, ''),
            action: { kind: 'replaced', value },
          });
          // the other unknown types of the list too, in this step: one validation for all of them
          // rather than one each (64 instances were 64 validations)
          const list = getAt(cur, ['instances']).value;
          if (Array.isArray(list))
            list.forEach((x, i) => {
              if (
                i === pr.path[1] ||
                !isObj(x) ||
                typeof x['type'] !== 'string' ||
                getInstanceType(x['type'])
              )
                return;
              const t = x['type'];
              const v = suggestInstanceType(t)[0] ?? 'c7i.large';
              x['type'] = v;
              changes.push({
                seq,
                path: ['instances', i, 'type'],
                reason: `unknown instance type "${t}"`,
                action: { kind: 'replaced', value: v },
              });
            });
          continue;
        }
      }
    }
    // a malformed or duplicate host name: the nearest valid, unused name
    if (pr.path.length === 3 && pr.path[0] === 'instances' && pr.path[2] === 'name') {
      const list = getAt(cur, ['instances']).value;
      const inst = getAt(cur, pr.path.slice(0, 2)).value;
      if (Array.isArray(list) && isObj(inst)) {
        const taken = new Set(
          list.filter((x, i) => isObj(x) && i !== pr.path[1]).map((x) => String((x as Obj)['name'])),
        );
        const value = fixHostName(inst['name'], taken);
        if (value !== null && value !== inst['name']) {
          inst['name'] = value;
          changes.push({ seq, path: pr.path, reason: pr.message, action: { kind: 'replaced', value } });
          continue;
        }
      }
    }
    // remove the bad value; when it is missing (a required field), remove the object holding it
    const missing = !getAt(cur, pr.path).found;
    const target = missing ? pr.path.slice(0, -1) : pr.path;
    if (target.length === 0) return { ok: false, message: `${formatPath(pr.path)}: ${pr.message}` };
    const parent = getAt(cur, target.slice(0, -1)).value;
    const last = target[target.length - 1]!;
    if (Array.isArray(parent) && typeof last === 'number' && last < parent.length) {
      parent.splice(last, 1);
      splices.push({ seq, arrayPath: target.slice(0, -1), index: last });
    } else if (isObj(parent) && typeof last === 'string' && Object.hasOwn(parent, last)) {
      delete parent[last];
    } else {
      return { ok: false, message: `${formatPath(pr.path)}: ${pr.message}` };
    }
    // a required field this loop removed itself: widen that change rather than report "missing"
    const earlier = missing
      ? [...changes]
          .reverse()
          .find((c) => c.action.kind === 'removed' && samePath(c.action.actionPath, pr.path))
      : undefined;
    if (earlier) earlier.action = { kind: 'removed', actionPath: target, seq };
    else
      changes.push({
        seq,
        path: pr.path,
        reason: pr.message,
        action: { kind: 'removed', actionPath: target, seq },
      });
  }
}

/** Map a path through array splices (forward: as it is after them; backward: as it was before). */
function mapPath(path: Path, splices: Splice[], dir: 'forward' | 'backward'): Path | null {
  const p = [...path];
  const list = dir === 'forward' ? splices : [...splices].reverse();
  for (const s of list) {
    if (!isPrefix(s.arrayPath, p) || p.length <= s.arrayPath.length) continue;
    const i = p[s.arrayPath.length];
    if (typeof i !== 'number') continue;
    if (dir === 'forward') {
      if (i === s.index) return null;
      if (i > s.index) p[s.arrayPath.length] = i - 1;
    } else if (i >= s.index) p[s.arrayPath.length] = i + 1;
  }
  return p;
}

function describe(changes: Change[], splices: Splice[], scenario: Scenario): string[] {
  const before = (seq: number) => splices.filter((s) => s.seq < seq);
  return changes.map((c) => {
    const shown = formatPath(mapPath(c.path, before(c.seq), 'backward') ?? c.path);
    const reason = clip(c.reason, 200);
    if (c.action.kind === 'replaced') return `${shown}: ${reason}; replaced by ${c.action.value}`;
    const { actionPath: at, seq } = c.action;
    const what = samePath(at, c.path) ? '' : `${formatPath(mapPath(at, before(seq), 'backward') ?? at)} `;
    // where the removed value would be now: the default the schema put there, if any
    const later = mapPath(
      at,
      splices.filter((s) => s.seq > seq),
      'forward',
    );
    // a dropped array element is gone (what is at its index now is its neighbour)
    const dropped = typeof at[at.length - 1] === 'number';
    const now = later && !dropped ? getAt(scenario, later) : { found: false, value: undefined };
    if (now.found) {
      const v = show(now.value);
      return `${shown}: ${reason}; ${what}replaced by the default${v === null ? '' : ` (${v})`}`;
    }
    return `${shown}: ${reason}; ${what}removed`;
  });
}
