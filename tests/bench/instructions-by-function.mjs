#!/usr/bin/env node
/**
 * Instructions by function, JIT code included: `node tests/bench/instructions-by-function.mjs
 * [RUNS] [TOP]` bundles tests/bench/wire-rate.ts (issue 17's per-packet run), runs it RUNS times
 * (default 2) in one `node --single-threaded --predictable --perf-basic-prof` process under
 * valgrind's callgrind (about 4 min a run), and prints the TOP (default 50) functions by instructions
 * executed in them (self, inlined callees included), with their calls and instructions per call.
 * Callgrind sees V8's generated code as bare addresses; V8's perf map (/tmp/perf-PID.map) names them
 * (`JS:*f` optimized, `JS:^f` baseline, `JS:~f` interpreted). Where the sampling profiler is noisy
 * this is exact: `--predictable` fixes V8's hash and random seeds, so the same build counts the same
 * every time (without it the count moves by ±0.3 % from run to run). How it was used:
 * docs/design.md, "Performance".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const runs = Number(process.argv[2] ?? 2);
const top = Number(process.argv[3] ?? 50);
if (!(runs >= 1 && top >= 1)) {
  process.stderr.write('usage: node tests/bench/instructions-by-function.mjs [RUNS ≥ 1] [TOP ≥ 1]\n');
  process.exit(2);
}
if (spawnSync('valgrind', ['--version']).status !== 0) {
  process.stderr.write(
    'instructions-by-function: valgrind is not installed (Debian: apt-get install valgrind)\n',
  );
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'netlab-ibf-'));
try {
  const bundle = join(dir, 'wire-rate.mjs');
  buildSync({
    entryPoints: [join(root, 'tests/bench/wire-rate.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'error',
  });
  const out = join(dir, 'callgrind.out');
  const r = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--dump-instr=yes',
      '--smc-check=all',
      `--callgrind-out-file=${out}`,
      'node',
      '--single-threaded',
      '--predictable',
      '--perf-basic-prof',
      bundle,
      String(runs),
    ],
    { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
  );
  const pid = /==(\d+)== Callgrind/.exec(r.stderr ?? '')?.[1];
  const map = pid ? `/tmp/perf-${pid}.map` : '';
  if (r.status !== 0 || !pid || !existsSync(map) || !existsSync(out)) {
    process.stderr.write(`instructions-by-function: the run failed\n${(r.stderr ?? '').slice(-600)}\n`);
    process.exit(1);
  }
  process.stdout.write(r.stdout);
  const rows = attribute(readFileSync(out, 'utf8'), readFileSync(map, 'utf8'));
  rmSync(map, { force: true });
  const total = rows.reduce((a, x) => a + x.self, 0);
  process.stdout.write(`${(total / 1e9).toFixed(3)} G instructions in ${runs} run(s)\n`);
  process.stdout.write('share    instructions   calls      per call  function\n');
  for (const x of rows.slice(0, top))
    process.stdout.write(
      `${((x.self / total) * 100).toFixed(2).padStart(5)} %  ${(x.self / 1e6).toFixed(1).padStart(9)} M  ` +
        `${(x.calls / 1e6).toFixed(3).padStart(8)} M  ${(x.calls > 0 ? x.self / x.calls : 0).toFixed(0).padStart(8)}  ` +
        `${x.name.replace(`file://${bundle}`, 'wire-rate.mjs')}\n`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Self instructions and calls by function from a callgrind file written with --dump-instr=yes
 * (positions "instr line", costs "Ir"); addresses of unnamed (generated) code named by the perf map.
 */
function attribute(text, perfMap) {
  const code = perfMap
    .split('\n')
    .map((l) => /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({
      start: Number.parseInt(m[1], 16),
      end: Number.parseInt(m[1], 16) + Number.parseInt(m[2], 16),
      name: m[3],
    }))
    .sort((a, b) => a.start - b.start);
  const nameAt = (addr) => {
    let lo = 0;
    let hi = code.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (code[mid].start <= addr) lo = mid;
      else hi = mid - 1;
    }
    // code freed and written again overlaps earlier entries: the nearest that holds the address
    for (let j = lo; j >= 0 && j > lo - 8; j--)
      if (code[j].start <= addr && addr < code[j].end) return code[j].name;
    return 'generated code (unnamed)';
  };
  const names = new Map();
  const named = (v) => {
    const m = /^\((\d+)\)\s*(.*)$/.exec(v.trim());
    if (!m) return v.trim();
    if (m[2]) names.set(m[1], m[2]);
    return names.get(m[1]) ?? v.trim();
  };
  const generated = (fn) => fn.startsWith('0x') || fn.startsWith('(') || fn === '???';
  const self = new Map();
  const calls = new Map();
  let fn = '?';
  let addr = 0;
  let callee = null;
  let skipCost = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) {
      fn = named(line.slice(3));
      continue;
    }
    if (line.startsWith('cfn=')) {
      callee = named(line.slice(4));
      continue;
    }
    if (line.startsWith('calls=')) {
      const [n, target] = line.slice(6).trim().split(/\s+/);
      const to =
        generated(callee ?? '?') && target?.startsWith('0x') ? nameAt(Number.parseInt(target, 16)) : callee;
      calls.set(to, (calls.get(to) ?? 0) + Number(n));
      skipCost = true; // the next cost line is the call's inclusive cost, not self
      continue;
    }
    const c = line[0];
    if (c === undefined || !'0123456789+-*'.includes(c)) continue;
    const toks = line.trim().split(/\s+/);
    const p = toks[0];
    if (p.startsWith('0x')) addr = Number.parseInt(p, 16);
    else if (p.startsWith('+')) addr += Number(p.slice(1));
    else if (p.startsWith('-')) addr -= Number(p.slice(1));
    if (skipCost) {
      skipCost = false;
      continue;
    }
    if (toks.length < 3) continue;
    const key = generated(fn) ? nameAt(addr) : fn;
    self.set(key, (self.get(key) ?? 0) + Number(toks[2]));
  }
  return [...self]
    .map(([name, n]) => ({ name, self: n, calls: calls.get(name) ?? 0 }))
    .sort((a, b) => b.self - a.self);
}
