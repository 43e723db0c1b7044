/**
 * Pathname expansion as bash does it by default (bash(1), "Pathname Expansion"; no nullglob,
 * dotglob or extglob): an unquoted `*`, `?` or `[…]` makes a word a pattern, matched component by
 * component against the lab's files (~ and /tmp) and their directories; the matches replace the
 * word, sorted as the C.UTF-8 locale sorts (Amazon Linux 2023's default); no match leaves the word
 * as it is. `*` and `?` never match a `/` nor a leading `.`; `[!…]`/`[^…]`, ranges and the POSIX
 * classes work in brackets; a `[` without its `]` is an ordinary character.
 */
import { HOME } from '../lab/files';

/** A word's text after quote removal, with which characters were unquoted (a pattern may use those). */
export interface PatternWord {
  text: string;
  active: boolean[];
}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
};

const esc = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** Whether the word has an unquoted pattern character (bash then tries to expand it). */
export function isPattern(w: PatternWord): boolean {
  for (let i = 0; i < w.text.length; i++) if (w.active[i] && '*?['.includes(w.text[i]!)) return true;
  return false;
}

/** One path component of a pattern as a RegExp source (null: it has no pattern characters). */
function componentRegex(text: string, active: boolean[]): { re: RegExp; dotOk: boolean } {
  let src = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!active[i]) {
      src += esc(c);
      continue;
    }
    if (c === '*') src += '[^/]*';
    else if (c === '?') src += '[^/]';
    else if (c === '[') {
      const b = bracket(text, active, i + 1);
      if (b) {
        src += b.src;
        i = b.end;
      } else src += '\\[';
    } else src += esc(c);
  }
  // a leading dot must be matched by a dot in the pattern (dotglob off)
  return { re: new RegExp(`^${src}$`, 's'), dotOk: text[0] === '.' };
}

/** A bracket expression starting after `[` at `i`: its class and the index of its `]`, or null if unclosed. */
function bracket(text: string, active: boolean[], i: number): { src: string; end: number } | null {
  let neg = false;
  if (active[i] && (text[i] === '!' || text[i] === '^')) {
    neg = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === ']' && !first && active[i]) return { src: `[${neg ? '^' : ''}${body}]`, end: i };
    first = false;
    if (c === '[' && active[i] && text[i + 1] === ':') {
      const close = text.indexOf(':]', i + 2);
      const cls = close > 0 ? CLASSES[text.slice(i + 2, close)] : undefined;
      if (cls !== undefined) {
        body += cls;
        i = close + 1;
        continue;
      }
    }
    if (c === '-' && active[i] && body !== '' && text[i + 1] !== undefined && text[i + 1] !== ']') {
      body += '-';
      continue;
    }
    body += esc(c);
  }
  return null;
}

/**
 * Expand a pattern word against `paths` (absolute paths of the files and directories the lab
 * holds). Returns the matches in the form typed (relative words give relative names, `./` kept),
 * sorted; an empty list when nothing matches.
 */
export function expandPattern(w: PatternWord, paths: readonly string[]): string[] {
  let { text, active } = w;
  let shown = '';
  while (text.startsWith('./')) {
    shown += './';
    text = text.slice(2);
    active = active.slice(2);
  }
  const absolute = text.startsWith('/');
  const base = absolute ? '' : `${HOME}/`;
  const comps: Array<{ text: string; active: boolean[] }> = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === '/') {
      comps.push({ text: text.slice(start, i), active: active.slice(start, i) });
      start = i + 1;
    }
  }
  const patterns = comps.map((c) => componentRegex(c.text, c.active));
  const out: string[] = [];
  for (const p of paths) {
    if (!p.startsWith(base)) continue;
    const rest = p.slice(base.length);
    const names = rest.split('/');
    if (names.length !== patterns.length) continue;
    const ok = names.every((n, k) => patterns[k]!.re.test(n) && (n[0] !== '.' || patterns[k]!.dotOk));
    if (ok) out.push(shown + rest);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
