/**
 * The repository stands alone: every document a source file, test, script or doc cites is a file
 * under docs/, and a cited section of docs/domain-facts.md exists there. Nothing cites a folder
 * outside the repository (the shared notes the project started from).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SELF = 'tests/engine/doc-citations.test.ts';
const SCANNED = ['src', 'workers', 'tests', 'bin', 'docs', 'README.md'];
const TEXT = /\.(ts|tsx|mts|mjs|js|json|md|css|html|sh)$/;

function walk(path: string, out: string[]): string[] {
  const abs = join(ROOT, path);
  if (statSync(abs).isFile()) {
    if (TEXT.test(path)) out.push(path);
    return out;
  }
  for (const e of readdirSync(abs)) {
    if (e === 'node_modules' || e.startsWith('.')) continue;
    walk(`${path}/${e}`, out);
  }
  return out;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Section numbers of a markdown page: `## 2. Title` → "2", `### 2.3 Title` → "2.3". */
function sectionNumbers(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)) out.add(m[1]!);
  return out;
}

/**
 * The folder of notes the project started from, outside the repository. Spelled in parts so this
 * file, which the scan skips anyway, holds no citation of it either.
 */
const NOTES = ['sh', 'ared'].join('');
const OUTSIDE = new RegExp(String.raw`\.\./${NOTES}\b|\b${NOTES}/(?:docs|seeds)\b`, 'g');
/** A markdown file named without a folder (README.md at the root and in folders is allowed). */
const BARE_DOC = /(?<![\w./-])([a-z][a-z0-9-]*)\.md\b/g;
const BARE_FACTS = /(?<![\w./-])domain[- ]facts(?!\.md)\s*§/gi;
const DOC_REF = /(?<![\w.-])docs\/([\w-]+)\.md/g;
const SECTION_CHAIN =
  /^\s*§\d+(?:\.\d+)?(?:–\d+(?:\.\d+)?)?(?:(?:,\s*|\/|\s+and\s+)§\d+(?:\.\d+)?(?:–\d+(?:\.\d+)?)?)*/;

/** Every problem with the citations in one file's text, as `file:line: message`. */
function checkCitations(file: string, text: string, docs: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const at = (i: number, msg: string) => problems.push(`${file}:${lineAt(text, i)}: ${msg}`);
  for (const m of text.matchAll(OUTSIDE)) at(m.index, `cites '${m[0]}', outside the repository`);
  for (const m of text.matchAll(BARE_DOC))
    at(
      m.index,
      docs.has(m[1]!)
        ? `cites '${m[0]}' without its folder (docs/${m[0]})`
        : `cites '${m[0]}', which is not a file under docs/`,
    );
  for (const m of text.matchAll(BARE_FACTS)) at(m.index, `cites '${m[0]}': write docs/domain-facts.md §…`);
  for (const m of text.matchAll(DOC_REF)) {
    const sections = docs.get(m[1]!);
    if (sections === undefined) {
      at(m.index, `cites ${m[0]}, which is not a file under docs/`);
      continue;
    }
    const chain = SECTION_CHAIN.exec(text.slice(m.index + m[0].length));
    if (chain === null) continue;
    for (const ref of chain[0].matchAll(/(\d+(?:\.\d+)?)(?:–(\d+(?:\.\d+)?))?/g)) {
      for (const n of [ref[1], ref[2]]) {
        if (n !== undefined && !sections.has(n))
          at(m.index, `cites ${m[0]} §${n}, which has no such section`);
      }
    }
  }
  return problems;
}

function loadDocs(): Map<string, Set<string>> {
  const docs = new Map<string, Set<string>>();
  for (const e of readdirSync(join(ROOT, 'docs'))) {
    if (e.endsWith('.md'))
      docs.set(e.slice(0, -3), sectionNumbers(readFileSync(join(ROOT, 'docs', e), 'utf8')));
  }
  return docs;
}

describe('doc citations', () => {
  const docs = loadDocs();

  it('docs/ holds the architecture, design, domain facts and toolchain', () => {
    expect([...docs.keys()].sort()).toEqual(
      expect.arrayContaining(['architecture', 'design', 'domain-facts', 'toolchain']),
    );
    expect(sectionNumbers(readFileSync(join(ROOT, 'docs', 'domain-facts.md'), 'utf8'))).toContain('2.3');
  });

  it('every file cites only docs/ files that exist, and sections of them that exist', () => {
    const files = SCANNED.flatMap((p) => walk(p, [])).map((f) => f.split(sep).join('/'));
    expect(files.length).toBeGreaterThan(100);
    const problems = files
      .filter((f) => f !== SELF)
      .flatMap((f) => checkCitations(relative('.', f), readFileSync(join(ROOT, f), 'utf8'), docs));
    expect(problems).toEqual([]);
  });

  it('the checker catches outside, bare and missing citations and missing sections', () => {
    const fake = new Map([
      ['domain-facts', new Set(['2', '2.3', '2.4', '2.7', '8', '8.2'])],
      ['architecture', new Set<string>()],
    ]);
    const src = [
      `// see ../${NOTES}/docs/x`,
      '// (domain-facts §2.3)',
      '// see architecture.md',
      '// as in notes.md',
      '// docs/missing.md',
      '// docs/domain-facts.md §2.3, §2.5',
      '// docs/domain-facts.md §2.4–2.7, §8.2 and §9',
      '// docs/domain-facts.md §8.2): 1024 packets',
    ].join('\n');
    expect(checkCitations('f.ts', src, fake)).toEqual([
      `f.ts:1: cites '../${NOTES}', outside the repository`,
      "f.ts:3: cites 'architecture.md' without its folder (docs/architecture.md)",
      "f.ts:4: cites 'notes.md', which is not a file under docs/",
      "f.ts:2: cites 'domain-facts §': write docs/domain-facts.md §…",
      'f.ts:5: cites docs/missing.md, which is not a file under docs/',
      'f.ts:6: cites docs/domain-facts.md §2.5, which has no such section',
      'f.ts:7: cites docs/domain-facts.md §9, which has no such section',
    ]);
  });
});
