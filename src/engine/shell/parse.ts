/**
 * The shell's grammar, as bash parses the part of it the lab simulates (bash(1), SHELL GRAMMAR):
 * lists of and-or lists (`;`, `&`, `&&`, `||`), pipelines (`|`, a leading `!`), simple commands with
 * quoting (`'…'`, `"…"`, `\`), redirections (`>`, `>>`, `<`, `2>`, `2>>`, `2>&1`, `>&2`, `&>`) and
 * command substitution `$(…)`; which characters were quoted, for pathname expansion (glob.ts).
 * What bash has beyond this (variables, subshells, here-documents, backquotes …) is refused with a
 * message naming it, never taken literally.
 */

/**
 * A piece of a word: literal text (`quoted`: it was inside quotes or escaped, so pathname
 * expansion leaves it alone), or a `$(…)` substitution (word-split unless inside "…").
 */
export type WordPart = { lit: string; quoted?: true } | { sub: string; quoted: boolean };
export type Word = WordPart[];

export type Redirect =
  | { fd: 1 | 2; op: '>' | '>>'; target: Word }
  | { fd: 0; op: '<'; target: Word }
  /** `2>&1` (fd 2 to where 1 goes) or `>&2`. */
  | { fd: 1 | 2; op: 'dup'; to: 1 | 2 }
  /** `&>FILE`: stdout and stderr to FILE. */
  | { fd: 'both'; op: '>' | '>>'; target: Word };

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** The command's text as typed (for records and messages). */
  text: string;
}

export interface Pipeline {
  negate: boolean;
  commands: SimpleCommand[];
  text: string;
}

/** An and-or list: pipelines joined by `&&` / `||` (`ops[i]` joins pipelines i and i+1). */
export interface AndOr {
  pipelines: Pipeline[];
  ops: Array<'&&' | '||'>;
  /** Ended by `&`: runs in the background. */
  background: boolean;
  text: string;
}

export type ParseResult = { ok: true; lists: AndOr[] } | { ok: false; error: string; exitCode: number };

type Tok =
  | { t: 'word'; w: Word; start: number; end: number }
  | { t: 'op'; op: string; start: number; end: number }
  | { t: 'redir'; r: RedirectHead & { needsTarget: boolean }; start: number; end: number };

/** A redirection before its target word is read. */
type RedirectHead = { fd: 0 | 1 | 2 | 'both'; op: '>' | '>>' | '<' } | { fd: 1 | 2; op: 'dup'; to: 1 | 2 };

const notSimulated = (what: string): ParseResult => ({
  ok: false,
  error: `bash: ${what} not simulated in ec2-netlab`,
  exitCode: 2,
});

const syntaxError = (tok: string): ParseResult => ({
  ok: false,
  error: `bash: syntax error near unexpected token \`${tok}'`,
  exitCode: 2,
});

/** Find the `)` closing a `$(` opened just before `i` (quotes and nesting respected); -1 if none. */
function closingParen(s: string, i: number): number {
  let depth = 1;
  let q: string | null = null;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (q) {
      if (c === q) q = null;
      else if (c === '\\' && q === '"') i++;
    } else if (c === "'" || c === '"') q = c;
    else if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

function lex(line: string): Tok[] | ParseResult {
  const toks: Tok[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      i++;
      continue;
    }
    if (c === '#') break; // a comment to the end of the line
    const start = i;
    const two = line.slice(i, i + 2);
    const three = line.slice(i, i + 3);
    // redirections (an fd number directly before > or <)
    if (three === '2>&' || two === '>&' || two === '&>' || c === '>' || c === '<' || /^[0-9][<>]/.test(two)) {
      let fd: number | null = null;
      let j = i;
      if (/[0-9]/.test(c)) {
        fd = Number(c);
        j++;
      }
      if (line[j] === '&' && line[j + 1] === '>') {
        const app = line[j + 2] === '>';
        toks.push({
          t: 'redir',
          r: { fd: 'both', op: app ? '>>' : '>', needsTarget: true },
          start,
          end: j + (app ? 3 : 2),
        });
        i = j + (app ? 3 : 2);
        continue;
      }
      if (line[j] === '<') {
        if (line[j + 1] === '<') return notSimulated('here-documents (<<) are');
        if (fd !== null && fd !== 0) return notSimulated(`redirecting file descriptor ${fd} for input is`);
        toks.push({ t: 'redir', r: { fd: 0, op: '<', needsTarget: true }, start, end: j + 1 });
        i = j + 1;
        continue;
      }
      // line[j] === '>'
      const out = fd ?? 1;
      if (out !== 1 && out !== 2) return notSimulated(`file descriptor ${out} is`);
      if (line[j + 1] === '&') {
        const m = /^[12]/.exec(line.slice(j + 2));
        if (!m) return notSimulated('this file-descriptor duplication is');
        toks.push({
          t: 'redir',
          r: { fd: out, op: 'dup', to: Number(m[0]) as 1 | 2, needsTarget: false },
          start,
          end: j + 3,
        });
        i = j + 3;
        continue;
      }
      if (line[j + 1] === '|') return notSimulated('>| is');
      const app = line[j + 1] === '>';
      toks.push({
        t: 'redir',
        r: { fd: out, op: app ? '>>' : '>', needsTarget: true },
        start,
        end: j + (app ? 2 : 1),
      });
      i = j + (app ? 2 : 1);
      continue;
    }
    if (two === '&&' || two === '||' || two === ';;') {
      if (two === ';;') return syntaxError(';;');
      toks.push({ t: 'op', op: two, start, end: i + 2 });
      i += 2;
      continue;
    }
    if (two === '|&') return notSimulated('|& is');
    if (c === '|' || c === ';' || c === '&') {
      toks.push({ t: 'op', op: c, start, end: i + 1 });
      i++;
      continue;
    }
    if (c === '(' || c === ')') return notSimulated('subshells and ( ) groups are');
    if (c === '`') return notSimulated('backquote substitution is (use $(…))');
    // a word
    const parts: WordPart[] = [];
    let lit = '';
    let litQuoted = false;
    let quote: '"' | "'" | null = null;
    const flush = () => {
      if (lit) parts.push(litQuoted ? { lit, quoted: true } : { lit });
      lit = '';
    };
    /** Append text, quoted or not (a change of quoting starts a new part). */
    const add = (t: string, quoted: boolean) => {
      if (lit && quoted !== litQuoted) flush();
      litQuoted = quoted;
      lit += t;
    };
    let sawQuote = false;
    while (i < n) {
      const d = line[i]!;
      if (quote === "'") {
        if (d === "'") quote = null;
        else add(d, true);
        i++;
        continue;
      }
      if (!quote && (d === ' ' || d === '\t' || d === '\n' || '|;&<>()'.includes(d))) break;
      if (d === '\\') {
        const e = line[i + 1];
        if (e === undefined) {
          i++;
          continue;
        }
        add(quote === '"' && !'"\\$`'.includes(e) ? d + e : e, true);
        i += 2;
        continue;
      }
      if (d === '"') {
        quote = quote ? null : '"';
        sawQuote = true;
        i++;
        continue;
      }
      if (d === "'" && !quote) {
        quote = "'";
        sawQuote = true;
        i++;
        continue;
      }
      if (d === '`') return notSimulated('backquote substitution is (use $(…))');
      if (d === '$') {
        const e = line[i + 1];
        if (e === '(') {
          if (line[i + 2] === '(') return notSimulated('arithmetic expansion $(( )) is');
          const close = closingParen(line, i + 2);
          if (close < 0)
            return { ok: false, error: "bash: unexpected EOF while looking for matching `)'", exitCode: 2 };
          flush();
          parts.push({ sub: line.slice(i + 2, close), quoted: quote === '"' });
          i = close + 1;
          continue;
        }
        if (e !== undefined && /[A-Za-z_{?$#@*!0-9]/.test(e))
          return notSimulated(`shell variables and parameters ($${e === '{' ? '{…}' : e}…) are`);
        add(d, quote !== null);
        i++;
        continue;
      }
      add(d, quote !== null);
      i++;
    }
    if (quote)
      return { ok: false, error: `bash: unexpected EOF while looking for matching \`${quote}'`, exitCode: 2 };
    flush();
    if (parts.length === 0 && sawQuote) parts.push({ lit: '' });
    toks.push({ t: 'word', w: parts, start, end: i });
  }
  return toks;
}

/** Parse a command line into its lists. */
export function parseLine(line: string): ParseResult {
  const lexed = lex(line);
  if (!Array.isArray(lexed)) return lexed;
  const toks = lexed;
  const lists: AndOr[] = [];
  let k = 0;
  const text = (a: number, b: number) => line.slice(a, b).trim();
  while (k < toks.length) {
    const listStart = toks[k]!.start;
    const pipelines: Pipeline[] = [];
    const ops: Array<'&&' | '||'> = [];
    let end = false;
    let background = false;
    let lastEnd = listStart;
    while (!end) {
      // a pipeline
      const pStart = toks[k]?.start ?? line.length;
      let negate = false;
      if (toks[k]?.t === 'word' && wordLiteral((toks[k] as { w: Word }).w) === '!') {
        negate = true;
        k++;
      }
      const commands: SimpleCommand[] = [];
      for (;;) {
        const cStart = toks[k]?.start ?? line.length;
        const words: Word[] = [];
        const redirects: Redirect[] = [];
        while (k < toks.length && toks[k]!.t !== 'op') {
          const tk = toks[k]!;
          if (tk.t === 'word') words.push(tk.w);
          else if (tk.t === 'redir') {
            if (tk.r.needsTarget) {
              const tgt = toks[k + 1];
              if (tgt?.t !== 'word')
                return syntaxError(
                  tgt ? (tgt.t === 'op' ? tgt.op : line.slice(tgt.start, tgt.end)) : 'newline',
                );
              const { needsTarget: _n, ...r } = tk.r;
              redirects.push({ ...(r as Redirect), target: tgt.w } as Redirect);
              k++;
            } else {
              const { needsTarget: _n, ...r } = tk.r;
              redirects.push(r as Redirect);
            }
          }
          lastEnd = toks[k]!.end;
          k++;
        }
        const next = toks[k];
        if (words.length === 0 && redirects.length === 0)
          return syntaxError(next ? (next as { op: string }).op : 'newline');
        commands.push({ words, redirects, text: text(cStart, lastEnd) });
        if (next?.t === 'op' && next.op === '|') {
          k++;
          if (k >= toks.length) return syntaxError('newline');
          continue;
        }
        break;
      }
      pipelines.push({ negate, commands, text: text(pStart, lastEnd) });
      const op = toks[k];
      if (op?.t === 'op' && (op.op === '&&' || op.op === '||')) {
        ops.push(op.op);
        k++;
        if (k >= toks.length) return syntaxError('newline');
        continue;
      }
      if (op?.t === 'op') {
        background = op.op === '&';
        k++;
      }
      end = true;
    }
    lists.push({ pipelines, ops, background, text: text(listStart, lastEnd) });
  }
  return { ok: true, lists };
}

/** A word's text when it is all literal (no substitution), else null. */
export function wordLiteral(w: Word): string | null {
  let s = '';
  for (const p of w) {
    if ('sub' in p) return null;
    s += p.lit;
  }
  return s;
}
