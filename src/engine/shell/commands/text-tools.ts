/**
 * The filters people pipe into, as GNU coreutils 9 / GNU grep 3 / gawk 5 on Amazon Linux 2023
 * behave with LANG=C.UTF-8 (byte order for sort): `grep`, `head`, `tail`, `wc`, `sort`, `uniq`,
 * `cut`, `awk '{print $N}'`, `cat`, `tee`. Each reads its stdin or FILE operands and writes text;
 * options the lab does not simulate are refused by name. Messages and exit statuses as the real
 * tools: grep 0 selected / 1 none / 2 error, the others 1 on a missing file.
 */
import { AWK_USAGE, GNU_HELP, labNote } from './real-help';
import type { CommandOutput } from '../types';

export interface FilterIo {
  stdin: string;
  /** A lab file's text, or the error (`x: No such file or directory`). */
  read(path: string): { text: string } | { error: string };
  /** Write a lab file; returns an error text or null. */
  write(path: string, data: string, append: boolean): string | null;
}

/** A filter: a pure function of its input and files (tee writes, at the end). */
export type Filter = (args: string[], io: FilterIo) => CommandOutput;

const out = (stdout: string, exitCode = 0, stderr = ''): CommandOutput => ({ stdout, stderr, exitCode });

/** Split text into lines (a final line without \n counts, as the tools read it). */
export function lines(text: string): string[] {
  if (text === '') return [];
  const ls = text.split('\n');
  if (ls[ls.length - 1] === '') ls.pop();
  return ls;
}
const join = (ls: string[]) => ls.map((l) => `${l}\n`).join('');

/** Inputs: FILE operands (`-` is stdin) or stdin. Errors as `TOOL: FILE: No such file or directory`. */
function inputs(
  tool: string,
  files: string[],
  io: FilterIo,
): { name: string; text: string | null; err?: string }[] {
  if (files.length === 0) return [{ name: '(standard input)', text: io.stdin }];
  return files.map((f) => {
    if (f === '-') return { name: '(standard input)', text: io.stdin };
    const r = io.read(f);
    return 'text' in r ? { name: f, text: r.text } : { name: f, text: null, err: `${tool}: ${r.error}\n` };
  });
}

const notSim = (tool: string, opt: string) =>
  out('', tool === 'grep' ? 2 : 1, `${tool}: option ${opt} is not simulated in ec2-netlab\n`);
const tryHelp = (tool: string) => `Try '${tool} --help' for more information.\n`;

/**
 * Short options the GNU way: `-abc`, `-nVALUE`/`-n VALUE`, `--long[=value]`, `--` ends options;
 * operands may come between options (GNU permutation).
 */
function getopt(
  tool: string,
  args: string[],
  spec: { flags: string; withArg: string; long?: Record<string, string>; refused?: string },
): { opts: Array<[string, string]>; operands: string[] } | { error: CommandOutput } {
  const opts: Array<[string, string]> = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, val] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const short = spec.long?.[name];
      if (name === 'help' && val === undefined && GNU_HELP[tool]) {
        const letters = [...spec.flags, ...spec.withArg].map((c) => `-${c}`).join(' ');
        return { error: out(GNU_HELP[tool] + labNote(tool, `${letters} (and their long forms)`)) };
      }
      if (short === undefined) {
        if (spec.refused?.includes(`--${name}`)) return { error: notSim(tool, `--${name}`) };
        return {
          error: out('', tool === 'grep' ? 2 : 1, `${tool}: unrecognized option '${a}'\n${tryHelp(tool)}`),
        };
      }
      if (spec.withArg.includes(short)) {
        const v = val ?? args[++i];
        if (v === undefined)
          return {
            error: out(
              '',
              tool === 'grep' ? 2 : 1,
              `${tool}: option '--${name}' requires an argument\n${tryHelp(tool)}`,
            ),
          };
        opts.push([short, v]);
      } else opts.push([short, '']);
      continue;
    }
    if (a.length > 1 && a.startsWith('-') && !/^-\d/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (spec.withArg.includes(c)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined)
            return {
              error: out(
                '',
                tool === 'grep' ? 2 : 1,
                `${tool}: option requires an argument -- '${c}'\n${tryHelp(tool)}`,
              ),
            };
          opts.push([c, v]);
          break;
        }
        if (spec.flags.includes(c)) opts.push([c, '']);
        else if (spec.refused?.includes(c)) return { error: notSim(tool, `-${c}`) };
        else
          return {
            error: out('', tool === 'grep' ? 2 : 1, `${tool}: invalid option -- '${c}'\n${tryHelp(tool)}`),
          };
      }
      continue;
    }
    operands.push(a);
  }
  return { opts, operands };
}

/** POSIX bracket classes inside [...] → JavaScript. */
function posixClasses(re: string): string {
  return re
    .replace(/\[:digit:\]/g, '0-9')
    .replace(/\[:alpha:\]/g, 'A-Za-z')
    .replace(/\[:alnum:\]/g, 'A-Za-z0-9')
    .replace(/\[:upper:\]/g, 'A-Z')
    .replace(/\[:lower:\]/g, 'a-z')
    .replace(/\[:space:\]/g, ' \\t\\n\\r\\f\\v')
    .replace(/\[:blank:\]/g, ' \\t')
    .replace(/\[:xdigit:\]/g, '0-9A-Fa-f')
    .replace(/\[:punct:\]/g, '!-\\/:-@\\[-`{-~');
}

/** A GNU basic regular expression (grep's default) as a JavaScript one: \( \) \{ \} \| \+ \? are the operators. */
export function breToJs(bre: string): string {
  let s = '';
  let inBracket = false;
  for (let i = 0; i < bre.length; i++) {
    const c = bre[i]!;
    if (inBracket) {
      s += c === '\\' ? '\\\\' : c;
      if (c === ']' && bre[i - 1] !== '[' && bre[i - 1] !== '^') inBracket = false;
      continue;
    }
    if (c === '[') {
      inBracket = true;
      s += c;
      if (bre[i + 1] === '^') s += bre[++i];
      if (bre[i + 1] === ']') s += `\\${bre[++i]}`;
      continue;
    }
    if (c === '\\' && i + 1 < bre.length) {
      const d = bre[++i]!;
      s += '(){}|+?'.includes(d) ? d : `\\${d}`;
      continue;
    }
    s += '(){}|+?'.includes(c) ? `\\${c}` : c;
  }
  return s;
}

function ereToJs(ere: string): string {
  let s = '';
  let inBracket = false;
  for (let i = 0; i < ere.length; i++) {
    const c = ere[i]!;
    if (inBracket) {
      s += c === '\\' ? '\\\\' : c;
      if (c === ']' && ere[i - 1] !== '[' && ere[i - 1] !== '^') inBracket = false;
      continue;
    }
    if (c === '[') {
      inBracket = true;
      s += c;
      if (ere[i + 1] === '^') s += ere[++i];
      if (ere[i + 1] === ']') s += `\\${ere[++i]}`;
      continue;
    }
    if (c === '\\' && i + 1 < ere.length) {
      s += c + ere[++i];
      continue;
    }
    s += c;
  }
  return s;
}

export const grep: Filter = (args, io) => {
  const g = getopt('grep', args, {
    flags: 'ivEcnwFoqxsGHh',
    withArg: 'em',
    long: {
      'ignore-case': 'i',
      'invert-match': 'v',
      'extended-regexp': 'E',
      count: 'c',
      'line-number': 'n',
      'word-regexp': 'w',
      'fixed-strings': 'F',
      'only-matching': 'o',
      quiet: 'q',
      silent: 'q',
      'line-regexp': 'x',
      'no-messages': 's',
      'basic-regexp': 'G',
      'with-filename': 'H',
      'no-filename': 'h',
      regexp: 'e',
      'max-count': 'm',
    },
    refused:
      'ABCPrRlLzZaUbTu --context --after-context --before-context --perl-regexp --recursive --files-with-matches --color --colour',
  });
  if ('error' in g) return g.error;
  const has = (c: string) => g.opts.some(([o]) => o === c);
  const patterns = g.opts.filter(([o]) => o === 'e').map(([, v]) => v);
  const operands = [...g.operands];
  if (patterns.length === 0) {
    if (operands.length === 0)
      return out('', 2, `Usage: grep [OPTION]... PATTERNS [FILE]...\n${tryHelp('grep')}`);
    patterns.push(...operands.shift()!.split('\n'));
  }
  let maxCount = Number.POSITIVE_INFINITY;
  const m = g.opts.find(([o]) => o === 'm');
  if (m) {
    if (!/^\d+$/.test(m[1])) return out('', 2, `grep: invalid max count\n`);
    maxCount = Number(m[1]);
  }
  const mode = has('F') ? 'F' : has('E') ? 'E' : 'G';
  const alts = patterns.map((p) =>
    mode === 'F'
      ? p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
      : posixClasses(mode === 'E' ? ereToJs(p) : breToJs(p)),
  );
  let src = alts.map((a) => `(?:${a})`).join('|');
  if (has('x')) src = `^(?:${src})$`;
  else if (has('w')) src = `(?<![A-Za-z0-9_])(?:${src})(?![A-Za-z0-9_])`;
  let re: RegExp;
  try {
    re = new RegExp(src, has('i') ? 'gi' : 'g');
  } catch {
    return out('', 2, `grep: ${mode === 'E' ? 'Unmatched ( or \\(' : 'Invalid regular expression'}\n`);
  }
  const ins = inputs('grep', operands, io);
  const prefixName = has('H') || (ins.length > 1 && !has('h'));
  let stdout = '';
  let stderr = '';
  let any = false;
  let trouble = false;
  for (const input of ins) {
    if (input.text === null) {
      if (!has('s')) stderr += input.err;
      trouble = true;
      continue;
    }
    let count = 0;
    const ls = lines(input.text);
    for (let n = 0; n < ls.length && count < maxCount; n++) {
      const l = ls[n]!;
      re.lastIndex = 0;
      const hit = re.test(l);
      if (hit === has('v')) continue;
      count++;
      any = true;
      if (has('q') || has('c')) continue;
      const pre = `${prefixName ? `${input.name}:` : ''}${has('n') ? `${n + 1}:` : ''}`;
      if (has('o') && !has('v')) {
        re.lastIndex = 0;
        for (const mm of l.matchAll(re)) if (mm[0] !== '') stdout += `${pre}${mm[0]}\n`;
      } else stdout += `${pre}${l}\n`;
    }
    if (has('c') && !has('q')) stdout += `${prefixName ? `${input.name}:` : ''}${count}\n`;
  }
  if (has('q')) return out('', any ? 0 : trouble ? 2 : 1, stderr);
  return out(stdout, trouble ? 2 : any ? 0 : 1, stderr);
};

function countArg(tool: string, v: string, what: 'lines' | 'bytes'): number | null | CommandOutput {
  const m = /^([+-]?)(\d+)$/.exec(v);
  if (!m) return out('', 1, `${tool}: invalid number of ${what}: ‘${v}’\n`);
  return Number(m[2]);
}

/** head [-n [-]N] [-c N] [-N] [FILE]... */
export const head: Filter = (args, io) => headTail('head', args, io);
/** tail [-n [+]N] [-c N] [-N] [FILE]... */
export const tail: Filter = (args, io) => headTail('tail', args, io);

function headTail(tool: 'head' | 'tail', args: string[], io: FilterIo): CommandOutput {
  // the obsolete -N form
  const a = args.map((x, i) =>
    /^-\d+$/.test(x) && !/^-[nc]$/.test(args[i - 1] ?? '') ? `-n${x.slice(1)}` : x,
  );
  const g = getopt(tool, a, {
    flags: 'qv',
    withArg: 'nc',
    long: { lines: 'n', bytes: 'c', quiet: 'q', silent: 'q', verbose: 'v' },
    refused: 'fFs --follow --retry --pid --sleep-interval',
  });
  if ('error' in g) return g.error;
  let n = 10;
  let bytes = false;
  let fromStart = false; // tail -n +N
  let allBut = false; // head -n -N
  for (const [o, v] of g.opts) {
    if (o !== 'n' && o !== 'c') continue;
    const c = countArg(tool, v, o === 'n' ? 'lines' : 'bytes');
    if (typeof c !== 'number') return c as CommandOutput;
    n = c;
    bytes = o === 'c';
    fromStart = tool === 'tail' && v.startsWith('+');
    allBut = tool === 'head' && v.startsWith('-');
  }
  const ins = inputs(tool, g.operands, io);
  const headers = g.opts.some(([o]) => o === 'v') || (ins.length > 1 && !g.opts.some(([o]) => o === 'q'));
  let stdout = '';
  let stderr = '';
  let code = 0;
  ins.forEach((input, k) => {
    if (input.text === null) {
      stderr +=
        tool === 'head'
          ? `head: cannot open '${input.name}' for reading: No such file or directory\n`
          : `tail: cannot open '${input.name}' for reading: No such file or directory\n`;
      code = 1;
      return;
    }
    if (headers) stdout += `${k > 0 ? '\n' : ''}==> ${input.name} <==\n`;
    const t = input.text;
    if (bytes) {
      const b = new TextEncoder().encode(t);
      const part =
        tool === 'head'
          ? allBut
            ? b.slice(0, Math.max(0, b.length - n))
            : b.slice(0, n)
          : fromStart
            ? b.slice(Math.max(0, n - 1))
            : b.slice(Math.max(0, b.length - n));
      stdout += new TextDecoder().decode(part);
      return;
    }
    // keep a last line without \n as it is
    const raw = t.split(/(?<=\n)/);
    const part =
      tool === 'head'
        ? allBut
          ? raw.slice(0, Math.max(0, raw.length - n))
          : raw.slice(0, n)
        : fromStart
          ? raw.slice(Math.max(0, n - 1))
          : n === 0
            ? []
            : raw.slice(-n);
    stdout += part.join('');
  });
  return out(stdout, code, stderr);
}

/** wc [-clmw] [FILE]... with GNU's column widths. */
export const wc: Filter = (args, io) => {
  const g = getopt('wc', args, {
    flags: 'clmwL',
    withArg: '',
    long: { bytes: 'c', lines: 'l', chars: 'm', words: 'w', 'max-line-length': 'L' },
    refused: '--files0-from --total',
  });
  if ('error' in g) return g.error;
  let sel = g.opts.map(([o]) => o);
  if (sel.length === 0) sel = ['l', 'w', 'c'];
  const order = ['l', 'w', 'm', 'c', 'L'].filter((c) => sel.includes(c));
  const ins = inputs('wc', g.operands, io);
  const counts = ins.map((input) => {
    if (input.text === null) return null;
    const t = input.text;
    const bytes = new TextEncoder().encode(t).length;
    const v: Record<string, number> = {
      l: (t.match(/\n/g) ?? []).length,
      w: t.split(/[ \t\n\v\f\r]+/).filter((x) => x !== '').length,
      c: bytes,
      m: [...t].length,
      L: Math.max(0, ...t.split('\n').map((x) => x.length)),
    };
    return v;
  });
  // coreutils' compute_number_width: digits of the regular files' total size, at least 7 for stdin
  let width = 1;
  if (!(order.length === 1 && ins.length === 1)) {
    let total = 0;
    let min = 1;
    ins.forEach((input, i) => {
      if (input.name === '(standard input)') min = 7;
      else if (counts[i]) total += counts[i]!.c!;
    });
    width = Math.max(min, String(total).length);
  }
  let stdout = '';
  let stderr = '';
  let code = 0;
  const tot: Record<string, number> = { l: 0, w: 0, c: 0, m: 0, L: 0 };
  const fmt = (v: Record<string, number>, name: string) =>
    `${order.map((c) => String(v[c]).padStart(width)).join(' ')}${name ? ` ${name}` : ''}\n`;
  ins.forEach((input, i) => {
    const v = counts[i];
    if (!v) {
      stderr += `wc: ${input.name}: No such file or directory\n`;
      code = 1;
      return;
    }
    for (const c of order) tot[c] = c === 'L' ? Math.max(tot[c]!, v[c]!) : tot[c]! + v[c]!;
    stdout += fmt(v, g.operands.length === 0 ? '' : input.name === '(standard input)' ? '-' : input.name);
  });
  if (ins.length > 1) stdout += fmt(tot, 'total');
  return out(stdout, code, stderr);
};

/** The leading number of a key as sort -n reads it (blanks skipped; none → 0). */
function numericKey(s: string): number {
  const m = /^[ \t]*(-?\d*(?:\.\d*)?)/.exec(s);
  const v = m ? Number.parseFloat(m[1]!) : Number.NaN;
  return Number.isNaN(v) ? 0 : v;
}

const bytewise = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** sort [-nru] [-k N[,M]] [-t SEP] [FILE]... (C.UTF-8: byte order; GNU's last-resort whole-line comparison). */
export const sort: Filter = (args, io) => {
  const g = getopt('sort', args, {
    flags: 'nrufbs',
    withArg: 'kto',
    long: {
      'numeric-sort': 'n',
      reverse: 'r',
      unique: 'u',
      'ignore-case': 'f',
      'ignore-leading-blanks': 'b',
      stable: 's',
      key: 'k',
      'field-separator': 't',
      output: 'o',
    },
    refused:
      'hgMVRcCmzT --human-numeric-sort --general-numeric-sort --month-sort --version-sort --random-sort --parallel',
  });
  if ('error' in g) return g.error;
  const has = (c: string) => g.opts.some(([o]) => o === c);
  const t = g.opts.find(([o]) => o === 't')?.[1];
  if (t !== undefined && t.length !== 1) return out('', 2, `sort: multi-character tab ‘${t}’\n`);
  const keys: Array<{ from: number; to: number | null; n: boolean; r: boolean }> = [];
  for (const [o, v] of g.opts) {
    if (o !== 'k') continue;
    const m = /^(\d+)([a-z]*)(?:,(\d+)([a-z]*))?$/.exec(v);
    if (!m || Number(m[1]) === 0)
      return out('', 2, `sort: invalid number at field start: invalid count at start of ‘${v}’\n`);
    const mods = (m[2] ?? '') + (m[4] ?? '');
    if (/[^nrb]/.test(mods)) return notSim('sort', `-k ${v}`);
    keys.push({
      from: Number(m[1]),
      to: m[3] ? Number(m[3]) : null,
      n: mods.includes('n'),
      r: mods.includes('r'),
    });
  }
  const ins = inputs('sort', g.operands, io);
  const bad = ins.find((x) => x.text === null);
  if (bad) return out('', 2, `sort: cannot read: ${bad.name}: No such file or directory\n`);
  const all = ins.flatMap((x) => lines(x.text!));
  const fieldsOf = (l: string): string[] => {
    if (t !== undefined) return l.split(t);
    // default: a field is its leading blanks plus the non-blanks after them
    return l.match(/[ \t]*[^ \t]+|[ \t]+$/g) ?? [''];
  };
  const keyOf = (l: string, k: { from: number; to: number | null }) => {
    const f = fieldsOf(l);
    return f.slice(k.from - 1, k.to ?? f.length).join(t ?? '');
  };
  const fold = (s: string) => (has('f') ? s.toUpperCase() : s);
  const cmpKey = (a: string, b: string, numeric: boolean) =>
    numeric
      ? numericKey(a) - numericKey(b)
      : bytewise(fold(has('b') ? a.trimStart() : a), fold(has('b') ? b.trimStart() : b));
  const cmp = (a: string, b: string): number => {
    if (keys.length > 0) {
      for (const k of keys) {
        let c = cmpKey(keyOf(a, k), keyOf(b, k), k.n || has('n'));
        if (k.r) c = -c;
        if (c !== 0) return has('r') ? -c : c;
      }
    } else {
      const c = cmpKey(a, b, has('n'));
      if (c !== 0) return has('r') ? -c : c;
    }
    if (has('s') || has('u')) return 0;
    const c = bytewise(a, b);
    return has('r') ? -c : c;
  };
  const sorted = all
    .map((l, i) => [l, i] as const)
    .sort((x, y) => cmp(x[0], y[0]) || x[1] - y[1])
    .map((x) => x[0]);
  const res = has('u') ? sorted.filter((l, i) => i === 0 || cmp(sorted[i - 1]!, l) !== 0) : sorted;
  const o = g.opts.find(([x]) => x === 'o')?.[1];
  if (o !== undefined) {
    const err = io.write(o, join(res), false);
    return err ? out('', 2, `sort: open failed: ${err}\n`) : out('');
  }
  return out(join(res));
};

/** uniq [-c] [-d] [-u] [-i] [INPUT]: adjacent duplicates; -c prints the count as %7d. */
export const uniq: Filter = (args, io) => {
  const g = getopt('uniq', args, {
    flags: 'cdui',
    withArg: '',
    long: { count: 'c', repeated: 'd', unique: 'u', 'ignore-case': 'i' },
    refused: 'fswzD --skip-fields --skip-chars --check-chars --all-repeated --group',
  });
  if ('error' in g) return g.error;
  const has = (c: string) => g.opts.some(([o]) => o === c);
  if (g.operands.length > 1) return notSim('uniq', 'OUTPUT');
  const ins = inputs('uniq', g.operands, io);
  if (ins[0]!.text === null) return out('', 1, `uniq: ${g.operands[0]}: No such file or directory\n`);
  const ls = lines(ins[0]!.text);
  const same = (a: string, b: string) => (has('i') ? a.toLowerCase() === b.toLowerCase() : a === b);
  let stdout = '';
  for (let i = 0; i < ls.length; ) {
    let j = i + 1;
    while (j < ls.length && same(ls[i]!, ls[j]!)) j++;
    const n = j - i;
    if ((!has('d') || n > 1) && (!has('u') || n === 1))
      stdout += has('c') ? `${String(n).padStart(7)} ${ls[i]}\n` : `${ls[i]}\n`;
    i = j;
  }
  return out(stdout);
};

/** A cut LIST (N, N-M, N-, -M, comma-separated) as a membership test. */
function parseList(v: string): ((i: number) => boolean) | null {
  const ranges: Array<[number, number]> = [];
  for (const part of v.split(',')) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || (m[1] === '' && m[3] === '') || (m[2] === '' && m[3] !== '')) return null;
    const a = m[1] === '' ? 1 : Number(m[1]);
    const b = m[2] === '' ? a : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
    if (a === 0) return null;
    ranges.push([a, b]);
  }
  return (i) => ranges.some(([a, b]) => i >= a && i <= b);
}

/** cut -f LIST [-d DELIM] [-s] | -c LIST | -b LIST [FILE]... */
export const cut: Filter = (args, io) => {
  const g = getopt('cut', args, {
    flags: 's',
    withArg: 'fdcb',
    long: { fields: 'f', delimiter: 'd', characters: 'c', bytes: 'b', 'only-delimited': 's' },
    refused: 'z --complement --output-delimiter --zero-terminated',
  });
  if ('error' in g) return g.error;
  const get = (c: string) => g.opts.filter(([o]) => o === c).at(-1)?.[1];
  const f = get('f');
  const ch = get('c') ?? get('b');
  if ((f !== undefined ? 1 : 0) + (ch !== undefined ? 1 : 0) !== 1)
    return out(
      '',
      1,
      `cut: ${f !== undefined && ch !== undefined ? 'only one list may be specified' : 'you must specify a list of bytes, characters, or fields'}\n${tryHelp('cut')}`,
    );
  const d = get('d') ?? '\t';
  if (d.length !== 1) return out('', 1, `cut: the delimiter must be a single character\n${tryHelp('cut')}`);
  const list = parseList((f ?? ch)!);
  if (!list) return out('', 1, `cut: invalid field value ‘${f ?? ch}’\n${tryHelp('cut')}`);
  const ins = inputs('cut', g.operands, io);
  let stdout = '';
  let stderr = '';
  let code = 0;
  for (const input of ins) {
    if (input.text === null) {
      stderr += input.err;
      code = 1;
      continue;
    }
    for (const l of lines(input.text)) {
      if (ch !== undefined) {
        stdout += `${[...l].filter((_, i) => list(i + 1)).join('')}\n`;
      } else if (!l.includes(d)) {
        if (!g.opts.some(([o]) => o === 's')) stdout += `${l}\n`;
      } else
        stdout += `${l
          .split(d)
          .filter((_, i) => list(i + 1))
          .join(d)}\n`;
    }
  }
  return out(stdout, code, stderr);
};

/**
 * awk: only `[/REGEX/] {print ITEM[, ITEM]…}` programs, ITEM being $N, $NF, $(NF-K), NR, NF or a
 * "string" (items joined by OFS " " when comma-separated, else concatenated), with -F SEP. Any
 * other program is refused: the lab is no awk interpreter.
 */
export const awk: Filter = (args, io) => {
  let fs: string | null = null;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('-F')) {
      fs = a.length > 2 ? a.slice(2) : (args[++i] ?? null);
      if (fs === null) return out('', 2, 'awk: option requires an argument -- F\n');
    } else if (a === '-h' || a === '--help' || a === '--usage')
      return out(AWK_USAGE + labNote('awk', "-F SEP and '[/re/] {print $N, …}' programs"));
    else if (a.startsWith('-') && a !== '-') return notSim('awk', a);
    else break;
  }
  const prog = args[i];
  // no program: gawk's usage() on stderr, exit 1
  if (prog === undefined) return out('', 1, AWK_USAGE);
  const m = /^\s*(?:\/((?:[^/\\]|\\.)*)\/\s*)?\{\s*print(?:\s+(.*?))?\s*;?\s*\}\s*$/s.exec(prog);
  const refuse = () =>
    out(
      '',
      2,
      `awk: only '{print $N[, $M…]}' programs (optionally after a /regex/) are simulated in ec2-netlab\n`,
    );
  if (!m) return refuse();
  const pattern = m[1] !== undefined ? new RegExp(ereToJs(m[1])) : null;
  // items: $N  $NF  $(NF-K)  NR  NF  "str", separated by commas or blanks
  const items: Array<{ sep: boolean; get: (f: string[], line: string, nr: number) => string }> = [];
  let rest = (m[2] ?? '$0').trim();
  let sep = false;
  while (rest !== '') {
    let mm: RegExpExecArray | null;
    if ((mm = /^\$(\d+)/.exec(rest))) {
      const n = Number(mm[1]);
      items.push({ sep, get: (f, l) => (n === 0 ? l : (f[n - 1] ?? '')) });
    } else if ((mm = /^\$NF\b/.exec(rest))) items.push({ sep, get: (f) => f.at(-1) ?? '' });
    else if ((mm = /^\$\(NF-(\d+)\)/.exec(rest))) {
      const k = Number(mm[1]);
      items.push({ sep, get: (f) => (f.length - k >= 1 ? f[f.length - k - 1]! : '') });
    } else if ((mm = /^NR\b/.exec(rest))) items.push({ sep, get: (_f, _l, nr) => String(nr) });
    else if ((mm = /^NF\b/.exec(rest))) items.push({ sep, get: (f) => String(f.length) });
    else if ((mm = /^"((?:[^"\\]|\\.)*)"/.exec(rest))) {
      const s = mm[1]!.replace(/\\t/g, '\t').replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
      items.push({ sep, get: () => s });
    } else return refuse();
    rest = rest.slice(mm[0].length);
    const c = /^\s*,\s*/.exec(rest);
    if (c) {
      sep = true;
      rest = rest.slice(c[0].length);
    } else {
      const b = /^\s+/.exec(rest);
      sep = false;
      if (b) rest = rest.slice(b[0].length);
      else if (rest !== '') return refuse();
    }
  }
  const split = (l: string): string[] => {
    if (fs === null || fs === ' ') return l.split(/[ \t\n]+/).filter((x) => x !== '');
    const f = fs === '\\t' || fs === 't' ? '\t' : fs;
    if (f.length === 1) return l.split(f);
    return l.split(new RegExp(ereToJs(f)));
  };
  const ins = inputs('awk', args.slice(i + 1), io);
  let stdout = '';
  let stderr = '';
  let code = 0;
  let nr = 0;
  for (const input of ins) {
    if (input.text === null) {
      stderr += `awk: fatal: cannot open file \`${input.name}' for reading: No such file or directory\n`;
      code = 2;
      break;
    }
    for (const l of lines(input.text)) {
      nr++;
      if (pattern && !pattern.test(l)) continue;
      const f = split(l);
      stdout += `${items.map((it, k) => (k > 0 && it.sep ? ' ' : '') + it.get(f, l, nr)).join('')}\n`;
    }
  }
  return out(stdout, code, stderr);
};

/** cat [-n] [FILE]... (no FILE or `-`: stdin). */
export const cat: Filter = (args, io) => {
  const g = getopt('cat', args, {
    flags: 'n',
    withArg: '',
    long: { number: 'n' },
    refused: 'AbeEsStTuv --show-all --number-nonblank --squeeze-blank --show-ends --show-tabs',
  });
  if ('error' in g) return g.error;
  let stdout = '';
  let stderr = '';
  let code = 0;
  for (const input of inputs('cat', g.operands, io)) {
    if (input.text === null) {
      stderr += input.err;
      code = 1;
      continue;
    }
    stdout += input.text;
  }
  if (g.opts.length > 0) {
    const ls = stdout.split(/(?<=\n)/).filter((x) => x !== '');
    stdout = ls.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('');
  }
  return out(stdout, code, stderr);
};

/** tee [-a] FILE...: stdin to stdout and to each FILE. */
export const tee: Filter = (args, io) => {
  const g = getopt('tee', args, {
    flags: 'a',
    withArg: '',
    long: { append: 'a' },
    refused: 'ip --output-error',
  });
  if ('error' in g) return g.error;
  let stderr = '';
  for (const f of g.operands) {
    const err = io.write(f, io.stdin, g.opts.length > 0);
    if (err) stderr += `tee: ${err}\n`;
  }
  return out(io.stdin, stderr ? 1 : 0, stderr);
};

export const FILTERS: Readonly<Record<string, Filter>> = {
  grep,
  head,
  tail,
  wc,
  sort,
  uniq,
  cut,
  awk,
  cat,
  tee,
};

/**
 * Filters whose output for a prefix of complete input lines is a prefix of their final output: the
 * terminal can show it while the producer still runs (as a real pipe would).
 */
export function streams(name: string, args: string[]): boolean {
  if (name === 'grep')
    return !args.some((a) => /^-[a-zA-Z]*[cq]/.test(a) || a === '--count' || a === '--quiet');
  if (name === 'cut' || name === 'awk' || name === 'cat') return true;
  return false;
}
