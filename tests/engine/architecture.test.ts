/**
 * The one rule of the house (docs/architecture.md): data flows one way and every layer
 * knows only the layers below it. This test scans the import specifiers of every source file
 * against an allowlist table and fails with `file:line` for each offending edge; it also scans
 * everything the engine runtime can reach for clocks, timers, randomness and the DOM, which would
 * make a run depend on something other than its scenario and seed.
 *
 * Like perfetto's python/tools/check_imports.py, in TypeScript: exceptions would go in DEBT below,
 * which stays empty.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

// ---------------------------------------------------------------------------------------------
// Layers and the allowed edges
// ---------------------------------------------------------------------------------------------

type Layer =
  | 'lib'
  | 'catalog'
  | 'scenario'
  | 'engine-params'
  | 'engine'
  | 'protocol'
  | 'workers'
  | 'state'
  | 'sim-client'
  | 'share'
  | 'ui'
  | 'lessons'
  | 'cli'
  | 'main';

/** Longest prefix first: `src/engine/model/params` is its own layer (scenario validates param names). */
const LAYER_PREFIXES: Array<[string, Layer]> = [
  ['src/engine/model/params', 'engine-params'],
  ['src/engine/', 'engine'],
  ['src/lib/', 'lib'],
  ['src/catalog/', 'catalog'],
  ['src/scenario/', 'scenario'],
  ['src/protocol/', 'protocol'],
  ['src/state/', 'state'],
  ['src/sim-client/', 'sim-client'],
  ['src/share/', 'share'],
  ['src/ui/', 'ui'],
  ['src/lessons/', 'lessons'],
  ['src/cli/', 'cli'],
  ['src/main', 'main'],
  ['workers/', 'workers'],
];

interface Rule {
  /** Layers whose runtime this layer may import (its own layer is always allowed). */
  layers: Layer[];
  /** Layers this layer may only `import type` from (erased at compile time). */
  typeOnly?: Layer[];
  /**
   * npm packages: an allowlist (strict: anything else fails) or, for the outer layers that pick
   * their own libraries, a denylist of packages that belong to another layer.
   */
  packages: { allow: string[] } | { deny: Array<string | RegExp> };
  /** May import Node builtins (node:fs, path, …). */
  node?: boolean;
}

/** Packages that must stay in the layer that owns them (denied to the outer layers that do not). */
const OWNED = {
  react: [/^react($|\/)/, /^react-dom($|\/)/],
  comlink: ['comlink'],
  zustand: [/^zustand($|\/)/],
  d3: [/^d3($|-)/],
  fflate: ['fflate'],
};

const RULES: Record<Layer, Rule> = {
  lib: { layers: [], packages: { allow: [] } },
  catalog: { layers: ['lib'], packages: { allow: [] } },
  scenario: { layers: ['lib', 'catalog', 'engine-params'], packages: { allow: ['zod', 'valibot'] } },
  'engine-params': { layers: ['lib', 'catalog'], packages: { allow: [] } },
  engine: { layers: ['lib', 'catalog', 'scenario', 'engine-params'], packages: { allow: [] } },
  protocol: {
    layers: ['lib', 'catalog', 'scenario'],
    typeOnly: ['engine', 'engine-params', 'lessons'],
    packages: { allow: [] },
  },
  workers: {
    layers: ['engine', 'engine-params', 'protocol', 'scenario', 'catalog', 'lib', 'lessons'],
    packages: { deny: [...OWNED.react, ...OWNED.zustand, ...OWNED.d3, ...OWNED.fflate] },
  },
  state: {
    layers: ['lib', 'catalog', 'scenario'],
    typeOnly: ['protocol', 'engine-params'],
    packages: { deny: [...OWNED.comlink, ...OWNED.d3, 'react-dom'] },
  },
  'sim-client': {
    layers: ['state', 'protocol', 'scenario', 'catalog', 'lib'],
    typeOnly: ['lessons'],
    packages: { deny: [...OWNED.react, ...OWNED.d3] },
  },
  share: {
    layers: ['scenario', 'state', 'catalog', 'lib'],
    packages: { deny: [...OWNED.react, ...OWNED.comlink, ...OWNED.d3] },
  },
  // lesson data and its evaluator: pure, serialisable; reads a lab through `import type` only
  lessons: {
    layers: ['lib', 'catalog', 'scenario', 'engine-params'],
    typeOnly: ['engine'],
    packages: { allow: ['zod'] },
  },
  ui: {
    layers: ['state', 'scenario', 'catalog', 'lib', 'lessons'],
    typeOnly: ['protocol', 'sim-client', 'engine-params'],
    // d3: only the math modules (docs/architecture.md, "Layers"); d3-zoom in ui/hooks is checked separately below
    packages: { deny: [...OWNED.comlink, /^d3$/, /^d3-(selection|transition|fetch|dsv|timer)($|\/)/] },
  },
  cli: {
    layers: ['engine', 'engine-params', 'scenario', 'catalog', 'lib'],
    packages: { deny: [...OWNED.react, ...OWNED.comlink, ...OWNED.zustand, ...OWNED.d3] },
    node: true,
  },
  main: {
    layers: [
      'lib',
      'catalog',
      'scenario',
      'engine-params',
      'engine',
      'protocol',
      'workers',
      'state',
      'sim-client',
      'share',
      'ui',
      'lessons',
      'cli',
    ],
    packages: { deny: [] },
  },
};

/**
 * Known exceptions, `file → specifier`, each with the reason and the issue that removes it.
 * Keep this empty: a new edge is a design change, not a debt.
 */
const DEBT: Array<{ file: string; specifier: string; why: string }> = [];

// ---------------------------------------------------------------------------------------------
// A small TypeScript lexer: blanks comments (and optionally string contents) keeping offsets
// ---------------------------------------------------------------------------------------------

const KEYWORDS_BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/**
 * Returns the source with every comment replaced by spaces (newlines kept, so offsets and line
 * numbers are unchanged); with `blankStrings`, the contents of string, template and regex literals
 * are blanked too (template `${…}` substitutions stay code).
 */
function blankSource(src: string, blankStrings: boolean): string {
  const out = src.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  /** Stack of brace depths at which a template substitution `${` was opened. */
  const templateStack: number[] = [];
  let braceDepth = 0;
  let lastSignificant = ''; // last non-space code char, or the last word
  let i = 0;
  const n = src.length;
  const scanTemplateBody = () => {
    // at the char after ` or }; ends after the closing ` or after `${`
    const start = i;
    while (i < n) {
      const c = src[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '`') {
        if (blankStrings) blank(start, i);
        i++;
        lastSignificant = '`';
        return;
      }
      if (c === '$' && src[i + 1] === '{') {
        if (blankStrings) blank(start, i);
        i += 2;
        templateStack.push(braceDepth);
        braceDepth++;
        lastSignificant = '{';
        return;
      }
      i++;
    }
  };
  while (i < n) {
    const c = src[i]!;
    const d = src[i + 1];
    if (c === '/' && d === '/') {
      const end = src.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && d === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      const start = i + 1;
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      if (blankStrings) blank(start, i);
      i++;
      lastSignificant = c;
      continue;
    }
    if (c === '`') {
      i++;
      scanTemplateBody();
      continue;
    }
    if (c === '/') {
      const prev = lastSignificant;
      const regexAllowed =
        prev === '' || /^[(,=:[!&|?{};+\-*%<>~^]$/.test(prev) || KEYWORDS_BEFORE_REGEX.has(prev);
      if (regexAllowed) {
        const start = i + 1;
        i++;
        let inClass = false;
        while (i < n && src[i] !== '\n') {
          const r = src[i];
          if (r === '\\') {
            i += 2;
            continue;
          }
          if (r === '[') inClass = true;
          else if (r === ']') inClass = false;
          else if (r === '/' && !inClass) break;
          i++;
        }
        if (blankStrings) blank(start, i);
        i++;
        while (i < n && /[a-z]/.test(src[i]!)) i++; // flags
        lastSignificant = ')'; // a regex literal is an operand
        continue;
      }
    }
    if (c === '{') braceDepth++;
    if (c === '}') {
      braceDepth--;
      if (templateStack.length > 0 && templateStack[templateStack.length - 1] === braceDepth) {
        templateStack.pop();
        i++;
        scanTemplateBody();
        continue;
      }
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i;
      while (j < n && /[\w$]/.test(src[j]!)) j++;
      lastSignificant = src.slice(i, j);
      i = j;
      continue;
    }
    if (!/\s/.test(c)) lastSignificant = c;
    i++;
  }
  return out.join('');
}

// ---------------------------------------------------------------------------------------------
// Import extraction and classification
// ---------------------------------------------------------------------------------------------

interface ImportRef {
  specifier: string;
  line: number;
  typeOnly: boolean;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every module specifier a file names: static import/export-from, side-effect import, import(), require(). */
function extractImports(src: string): ImportRef[] {
  const code = blankSource(src, false);
  const refs: ImportRef[] = [];
  const stmt = /(^|[;}\n])\s*(import|export)\s+(type\s+)?([^;'"`]*?)\bfrom\s*(['"])([^'"\n]+)\5/g;
  for (let m = stmt.exec(code); m; m = stmt.exec(code)) {
    const clause = m[4] ?? '';
    // `import { type A, type B } from` is as erased as `import type { A, B } from`
    const names = /^\s*\{([^}]*)\}\s*$/.exec(clause)?.[1];
    const allInlineTypes =
      names !== undefined &&
      names.trim() !== '' &&
      names
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '));
    const specIndex = m.index + m[0].lastIndexOf(m[6]!);
    refs.push({ specifier: m[6]!, line: lineAt(code, specIndex), typeOnly: Boolean(m[3]) || allInlineTypes });
  }
  const bare = /(^|[;}\n])\s*import\s*(['"])([^'"\n]+)\2/g;
  for (let m = bare.exec(code); m; m = bare.exec(code))
    refs.push({ specifier: m[3]!, line: lineAt(code, m.index + m[0].lastIndexOf(m[3]!)), typeOnly: false });
  const dynamic = /(?<![\w$.])(import|require)\s*\(\s*(['"`])([^'"`\n]+)\2\s*\)/g;
  for (let m = dynamic.exec(code); m; m = dynamic.exec(code))
    refs.push({ specifier: m[3]!, line: lineAt(code, m.index), typeOnly: false });
  return refs.sort((a, b) => a.line - b.line);
}

const toPosix = (p: string) => p.split(sep).join('/');

function layerOf(repoPath: string): Layer | undefined {
  for (const [prefix, layer] of LAYER_PREFIXES) {
    // `../catalog` (a directory import) is in the catalog layer as much as `../catalog/index`
    if (repoPath.startsWith(prefix) || (prefix.endsWith('/') && repoPath === prefix.slice(0, -1)))
      return layer;
  }
  return undefined;
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

type Target =
  | { kind: 'layer'; layer: Layer | undefined; path: string }
  | { kind: 'node'; name: string }
  | { kind: 'package'; name: string };

/** Classify a specifier seen in `fromFile` (repo-relative, POSIX). */
function classify(fromFile: string, specifier: string): Target {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const path = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
    return { kind: 'layer', layer: layerOf(path.replace(/\.(tsx?|jsx?|mjs)$/, '')), path };
  }
  if (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]!))
    return { kind: 'node', name: specifier };
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return { kind: 'package', name: specifier.startsWith('@') ? name : specifier };
}

const matches = (name: string, pats: Array<string | RegExp>) =>
  pats.some((p) => (typeof p === 'string' ? p === name || name.startsWith(`${p}/`) : p.test(name)));

/** The violations of one file against RULES, as `file:line: message` strings. */
function checkFile(file: string, src: string): string[] {
  const layer = layerOf(file);
  if (!layer) return [];
  const rule = RULES[layer];
  const out: string[] = [];
  for (const ref of extractImports(src)) {
    if (DEBT.some((d) => d.file === file && d.specifier === ref.specifier)) continue;
    const t = classify(file, ref.specifier);
    const where = `${file}:${ref.line}`;
    if (t.kind === 'node') {
      if (!rule.node) out.push(`${where}: ${layer} must not import the Node builtin "${ref.specifier}"`);
      continue;
    }
    if (t.kind === 'package') {
      const p = rule.packages;
      if ('allow' in p ? !matches(t.name, p.allow) : matches(t.name, p.deny)) {
        out.push(
          `${where}: ${layer} must not import the package "${ref.specifier}"${'allow' in p ? ` (allowed: ${p.allow.join(', ') || 'none'})` : ''}`,
        );
      } else if (layer === 'ui' && /^d3-zoom($|\/)/.test(t.name) && !file.startsWith('src/ui/hooks/')) {
        out.push(`${where}: d3-zoom is allowed in src/ui/hooks only`);
      }
      continue;
    }
    if (t.layer === undefined) {
      out.push(`${where}: "${ref.specifier}" resolves to ${t.path}, outside every layer`);
      continue;
    }
    if (t.layer === layer) continue;
    if (rule.layers.includes(t.layer)) continue;
    if (ref.typeOnly && rule.typeOnly?.includes(t.layer)) continue;
    const how = rule.typeOnly?.includes(t.layer) ? ' (only `import type` is allowed)' : '';
    out.push(`${where}: ${layer} must not import ${t.layer} ("${ref.specifier}")${how}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Forbidden globals in the engine runtime
// ---------------------------------------------------------------------------------------------

/** What makes a run depend on something besides scenario and seed, or need a browser or Node. */
const FORBIDDEN_GLOBALS: Array<[RegExp, string]> = [
  [/(?<![\w$.])Math\s*\.\s*random\b/g, 'Math.random (use the component RNG stream from engine/core/rng)'],
  [
    /(?<![\w$.])Date\s*\.\s*(now|UTC|parse)\b/g,
    'Date (simulated time is lab.nowNs; calendar formatting is lib/time)',
  ],
  [/\bnew\s+Date\b/g, 'new Date (simulated time is lab.nowNs; calendar formatting is lib/time)'],
  [/(?<![\w$.])Date\s*\(/g, 'Date() (simulated time is lab.nowNs)'],
  [/(?<![\w$.])performance\s*\./g, 'performance (wall-clock time)'],
  [
    /(?<![\w$.])(setTimeout|setInterval|setImmediate|queueMicrotask|requestAnimationFrame)\b/g,
    'timers (use the scheduler)',
  ],
  [/(?<![\w$.])(window|document|navigator|localStorage|sessionStorage)\s*\./g, 'the DOM'],
  [/(?<![\w$.])process\s*\./g, 'Node process'],
  [/(?<![\w$.])crypto\s*\.\s*(getRandomValues|randomUUID)\b/g, 'crypto randomness'],
];

/** Violations of FORBIDDEN_GLOBALS in one file (comments and string contents ignored). */
function checkGlobals(file: string, src: string): string[] {
  const code = blankSource(src, true);
  const out: string[] = [];
  for (const [re, what] of FORBIDDEN_GLOBALS) {
    re.lastIndex = 0;
    for (let m = re.exec(code); m; m = re.exec(code))
      out.push(`${file}:${lineAt(code, m.index)}: ${m[0].trim()}: ${what}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The repository
// ---------------------------------------------------------------------------------------------

function listSources(dir: string): string[] {
  const abs = join(ROOT, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const p = join(abs, e);
    if (statSync(p).isDirectory()) out.push(...listSources(join(dir, e)));
    else if (/\.(ts|tsx|mts)$/.test(e) && !e.endsWith('.d.ts')) out.push(toPosix(relative(ROOT, p)));
  }
  return out.sort();
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Resolve a relative runtime import to a repo file, trying the TS extensions and index files. */
function resolveFile(fromFile: string, specifier: string): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier)).replace(/\.js$/, '');
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    try {
      if (statSync(join(ROOT, cand)).isFile()) return cand;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/** Every source file reachable from `roots` through runtime (not type-only) relative imports. */
function runtimeClosure(roots: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const ref of extractImports(read(f))) {
      if (ref.typeOnly || !ref.specifier.startsWith('.')) continue;
      const r = resolveFile(f, ref.specifier);
      if (r) stack.push(r);
    }
  }
  return [...seen].sort();
}

// ---------------------------------------------------------------------------------------------
// Inside the engine: one order of folders, no arrow up; the engine's one surface; no circles
// ---------------------------------------------------------------------------------------------

/**
 * The engine's folders from the bottom up (docs/architecture.md, "Inside the engine"). A file may
 * import its own folder and the folders below it, `import type` included: an arrow up, even for a
 * type, ties a lower part to a higher one (a lower part that needs the lab declares the little it
 * uses, as vpc/link-local.ts's LinkLocalLab does). The root holds only index.ts, the surface.
 */
const ENGINE_LEVELS = [
  'core',
  'model',
  'metrics',
  'vpc',
  'nitro',
  'host',
  'lab',
  'apps',
  'shell',
  'view',
  'session',
  'index',
] as const;

/** The level of an engine path (repo-relative, without extension), or -1 for a place not in the table. */
function engineLevel(path: string): number {
  const rel = path.slice('src/engine/'.length);
  const folder = rel.split('/')[0]!;
  return rel.includes('/') || folder === 'index' ? ENGINE_LEVELS.indexOf(folder as never) : -1;
}

/** Arrows up inside the engine, as `file:line: message` strings. */
function checkEngineArrows(file: string, src: string): string[] {
  const from = engineLevel(file.replace(/\.tsx?$/, ''));
  if (from < 0) return [`${file}: not in a folder of ENGINE_LEVELS (the engine root holds only index.ts)`];
  const out: string[] = [];
  for (const ref of extractImports(src)) {
    const t = classify(file, ref.specifier);
    if (t.kind !== 'layer' || !t.path.startsWith('src/engine/')) continue;
    const to = engineLevel(t.path.replace(/\.tsx?$/, ''));
    if (to > from)
      out.push(
        `${file}:${ref.line}: engine/${ENGINE_LEVELS[from]} must not import engine/${ENGINE_LEVELS[to]}, which is above it ("${ref.specifier}")`,
      );
  }
  return out;
}

/** Imports from outside the engine that bypass its surface (src/engine/index.ts). */
function checkEngineSurface(file: string, src: string): string[] {
  if (file.startsWith('src/engine/')) return [];
  const out: string[] = [];
  for (const ref of extractImports(src)) {
    const t = classify(file, ref.specifier);
    if (t.kind !== 'layer' || t.layer !== 'engine') continue;
    const path = t.path.replace(/\.tsx?$/, '');
    if (path === 'src/engine' || path === 'src/engine/index') continue;
    out.push(`${file}:${ref.line}: import the engine through src/engine/index.ts, not "${ref.specifier}"`);
  }
  return out;
}

/** Every import cycle of a module graph (Tarjan's strongly connected components of more than one file, or a self-import). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      for (;;) {
        const w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
        if (w === v) break;
      }
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

const ALL_SOURCES = [...listSources('src'), ...listSources('workers')];
const ENGINE_FILES = listSources('src/engine');

/** The module graph of src/ and workers/: every relative import, `import type` included. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of files) {
    const to: string[] = [];
    for (const ref of extractImports(read(f))) {
      if (!ref.specifier.startsWith('.')) continue;
      const r = resolveFile(f, ref.specifier);
      if (r && !to.includes(r)) to.push(r);
    }
    g.set(f, to);
  }
  return g;
}

describe('architecture: layer rules (docs/architecture.md, Layers)', () => {
  it('finds the engine sources it is meant to check', () => {
    expect(ENGINE_FILES.length).toBeGreaterThan(20);
    expect(ENGINE_FILES).toContain('src/engine/session/runner.ts');
    expect(ALL_SOURCES).toContain('src/scenario/schema.ts');
  });

  it('the debt section is empty', () => {
    expect(DEBT).toEqual([]);
  });

  it('src/engine imports only engine, scenario, catalog and lib; no UI, worker, CLI, DOM or Node', () => {
    const v = ENGINE_FILES.flatMap((f) => checkFile(f, read(f)));
    expect(v, v.join('\n')).toEqual([]);
  });

  it('src/scenario and src/catalog use no engine runtime except engine/model/params.ts; src/lib imports nothing', () => {
    const files = ALL_SOURCES.filter((f) => /^src\/(scenario|catalog|lib)\//.test(f));
    expect(files.length).toBeGreaterThan(3);
    const v = files.flatMap((f) => checkFile(f, read(f)));
    expect(v, v.join('\n')).toEqual([]);
  });

  it('the outer layers (protocol, workers, state, sim-client, share, ui, cli) import only what they may', () => {
    const files = ALL_SOURCES.filter((f) => !/^src\/(engine|scenario|catalog|lib)\//.test(f));
    const v = files.flatMap((f) => checkFile(f, read(f)));
    expect(v, v.join('\n')).toEqual([]);
  });

  it('the engine runtime (src/engine and everything it imports) reads no clock, timer, randomness or DOM', () => {
    const files = runtimeClosure(ENGINE_FILES);
    expect(files).toContain('src/catalog/instance-types.ts');
    expect(files).toContain('src/lib/time.ts');
    const v = files.flatMap((f) => checkGlobals(f, read(f)));
    expect(v, v.join('\n')).toEqual([]);
  });
});

describe('architecture: inside the engine, its surface, no circles (docs/architecture.md)', () => {
  it('every engine folder has its level, and no engine file imports a folder above its own', () => {
    const v = ENGINE_FILES.flatMap((f) => checkEngineArrows(f, read(f)));
    expect(v, v.join('\n')).toEqual([]);
  });

  it('the worker, the CLI, the protocol and the lessons reach the engine through src/engine/index.ts only', () => {
    const files = ALL_SOURCES.filter((f) => !f.startsWith('src/engine/'));
    const v = files.flatMap((f) => checkEngineSurface(f, read(f)));
    expect(v, v.join('\n')).toEqual([]);
    expect(ALL_SOURCES).toContain('src/engine/index.ts');
  });

  it('no import circle anywhere in src/ and workers/, `import type` included', () => {
    const cycles = findCycles(importGraph(ALL_SOURCES));
    expect(cycles.map((c) => c.join(' → ')).join('\n')).toBe('');
  });
});

describe('architecture: the checker itself catches violations', () => {
  it('reports engine imports of react, comlink, d3, node builtins and upper layers with file:line', () => {
    const src = [
      "import { useState } from 'react';",
      "import * as Comlink from 'comlink';",
      "import { scaleLinear } from 'd3-scale';",
      "import { readFileSync } from 'node:fs';",
      "import path from 'path';",
      "import type { Frame } from '../protocol/frames';",
      "import { store } from '../state/store';",
      "export { x } from '../ui/app';",
      "const w = await import('../../workers/sim.worker');",
      "import { zip } from 'fflate';",
      "import { create } from 'zustand';",
      "import { defaultScenario } from '../scenario/schema';",
      "import { rfc1123 } from '../lib/time';",
      "import { MODEL_PARAMS } from './params';",
    ].join('\n');
    const v = checkFile('src/engine/bad.ts', src);
    expect(v.map((s) => s.split(':')[1])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
    expect(v[0]).toMatch(/^src\/engine\/bad\.ts:1: engine must not import the package "react"/);
    expect(v[5]).toMatch(/engine must not import protocol/);
    expect(v[8]).toMatch(/outside every layer|must not import workers/);
  });

  it('lets scenario import engine/model/params.ts but not the rest of the engine', () => {
    expect(
      checkFile('src/scenario/schema.ts', "import { MODEL_PARAMS } from '../engine/model/params';"),
    ).toEqual([]);
    expect(checkFile('src/scenario/schema.ts', "import { Lab } from '../engine/lab';")).toEqual([
      'src/scenario/schema.ts:1: scenario must not import engine ("../engine/lab")',
    ]);
  });

  it('distinguishes type-only imports where the table allows only those', () => {
    expect(checkFile('src/ui/x.tsx', "import type { Frame } from '../protocol/frames';")).toEqual([]);
    expect(checkFile('src/ui/x.tsx', "import { type A, type B } from '../protocol/frames';")).toEqual([]);
    expect(checkFile('src/ui/x.tsx', "import { decode } from '../protocol/frames';")).toHaveLength(1);
    expect(checkFile('src/ui/x.tsx', "import { Lab } from '../engine/lab';")).toHaveLength(1);
  });

  it('ignores comments and strings when looking for globals, but not template substitutions', () => {
    const src = [
      '// Math.random() is banned; Date.now() too',
      '/* new Date() */',
      "const msg = 'setTimeout(…) is not simulated';",
      'const re = /[`$]/; const ok = 1;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a template literal
      'const t = `at ${Date.now()} ms`;',
      'const r = Math.random();',
      'const z = this.performance.x + obj.window.y;',
    ].join('\n');
    expect(checkGlobals('src/engine/x.ts', src).map((s) => s.split(': ')[0])).toEqual([
      'src/engine/x.ts:6',
      'src/engine/x.ts:5',
    ]);
  });

  it('ignores imports that are only mentioned in comments', () => {
    expect(extractImports("// import React from 'react'\n/* import 'comlink' */\nconst a = 1;")).toEqual([]);
  });

  it('reports an arrow up inside the engine, a type import included, and a file outside the levels', () => {
    const v = checkEngineArrows(
      'src/engine/vpc/bad.ts',
      "import type { Lab } from '../lab/lab';\nimport { reverseTuple } from '../nitro/flow-table';\nimport type { Packet } from '../model/packet';",
    );
    expect(v).toEqual([
      'src/engine/vpc/bad.ts:1: engine/vpc must not import engine/lab, which is above it ("../lab/lab")',
      'src/engine/vpc/bad.ts:2: engine/vpc must not import engine/nitro, which is above it ("../nitro/flow-table")',
    ]);
    expect(checkEngineArrows('src/engine/stray.ts', '')).toHaveLength(1);
    expect(checkEngineArrows('src/engine/index.ts', "export { Lab } from './lab/lab';")).toEqual([]);
  });

  it('reports a worker or CLI import that bypasses src/engine/index.ts', () => {
    expect(checkEngineSurface('workers/x.ts', "import type { Lab } from '../src/engine/lab/lab';")).toEqual([
      'workers/x.ts:1: import the engine through src/engine/index.ts, not "../src/engine/lab/lab"',
    ]);
    expect(checkEngineSurface('src/cli/x.ts', "import { createLab } from '../engine';")).toEqual([]);
    expect(
      checkEngineSurface('src/scenario/x.ts', "import { MODEL_PARAMS } from '../engine/model/params';"),
    ).toEqual([]);
  });

  it('finds import circles, two files or more, and a file importing itself', () => {
    const g = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(findCycles(g)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });
});
