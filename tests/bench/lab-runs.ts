/**
 * Runs the seeds' experiments for the bench: in-process (createLab + runLine, timing only the run)
 * and through the real CLI (`npm run -s lab -- …` in a child process, timing the whole process as a
 * user would see it).
 *
 * Guarantees: each in-process run builds a fresh lab from a scenario validated by parseScenario, so
 * its figures are those of `npm run lab` with the same options; nothing here asserts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createLab, runLine, type RunRecord } from '../../src/engine/session/runner';
import type { Lab } from '../../src/engine/lab/lab';
import { parseScenario } from '../../src/scenario/schema';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface LabRunSpec {
  clientType: string;
  serverType: string;
  command: string;
  batch: 'auto' | number;
}

export interface LabRunResult {
  /** Wall time of runLine only (lab construction excluded), ms. */
  wallMs: number;
  /** CPU time (user + sys) of this process during runLine, ms: on a loaded machine it stays close to the idle wall time. */
  cpuMs: number;
  /** Wall time to build the lab, ms. */
  buildMs: number;
  /** Scheduler events processed by the run. */
  events: number;
  /** Simulated time the command took, ns. */
  simNs: number;
  exitCode: number;
  /** iperf3's end.sum_sent / end.sum_received bits_per_second, when the command is iperf3. */
  sentBps: number | undefined;
  receivedBps: number | undefined;
  record: RunRecord;
  /** The lab after the run, so a caller can measure what it holds; delete it to release it. */
  lab?: Lab;
}

interface Iperf3Sum {
  bits_per_second?: number;
}

export function runInProcess(spec: LabRunSpec): LabRunResult {
  const parsed = parseScenario({
    version: 1,
    instances: [
      { name: 'client', type: spec.clientType },
      { name: 'server', type: spec.serverType },
    ],
    settings: { batch: spec.batch },
  });
  if (!parsed.ok) throw new Error(`bench scenario rejected: ${parsed.errors.join('; ')}`);
  const b0 = performance.now();
  const lab = createLab(parsed.scenario);
  const buildMs = performance.now() - b0;
  const events0 = lab.sched.processed;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const record = runLine(lab, spec.command);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const end = (record.result as { end?: { sum_sent?: Iperf3Sum; sum_received?: Iperf3Sum } } | null)?.end;
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1e3,
    buildMs,
    events: lab.sched.processed - events0,
    simNs: record.endNs - record.startNs,
    exitCode: record.exitCode,
    sentBps: end?.sum_sent?.bits_per_second,
    receivedBps: end?.sum_received?.bits_per_second,
    record,
    lab,
  };
}

export interface CliRunResult {
  wallMs: number;
  status: number | null;
  /** "[SUM] … receiver" bitrate as printed, e.g. "8.33 Gbits/sec", if found. */
  sumReceiver: string | undefined;
  ok: boolean;
  stderrTail: string;
}

/** `npm run -s lab -- ARGS…` from the repo root, timed end to end (npm + tsx start-up included). */
export function runCli(args: readonly string[]): CliRunResult {
  const t0 = performance.now();
  const r = spawnSync('npm', ['run', '-s', 'lab', '--', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const wallMs = performance.now() - t0;
  const out = r.stdout ?? '';
  const m = /^\[SUM\].*?([\d.]+ [KMG]?bits\/sec)\s.*receiver$/m.exec(out);
  const stderr = (r.stderr ?? '')
    .split('\n')
    .filter((l) => l && !l.startsWith('npm warn'))
    .join('\n');
  return {
    wallMs,
    status: r.status,
    sumReceiver: m?.[1],
    ok: r.status === 0 && !r.error,
    stderrTail: (r.error ? String(r.error) : stderr).slice(-400),
  };
}

export interface WireRateRun {
  /** The first run of the process (the JIT still compiling), as `npm run lab`'s one run is. */
  fresh: boolean;
  cpuS: number;
  wallS: number;
  wire: number;
}

/**
 * tests/bench/wire-rate.ts in a process of its own, `runs` runs of its command (issue 17's per-packet
 * run): bundled as `npm run lab` is (esbuild, one ES module), so the JIT sees only this run's code,
 * not the feedback the bench's earlier sections left in this process. Returns each run's figures.
 */
export function wireRateProcess(runs: number): WireRateRun[] {
  const dir = mkdtempSync(join(tmpdir(), 'netlab-wire-'));
  try {
    const bundle = join(dir, 'wire-rate.mjs');
    buildSync({
      entryPoints: [join(REPO_ROOT, 'tests/bench/wire-rate.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: bundle,
      logLevel: 'error',
    });
    const r = spawnSync(process.execPath, [bundle, String(runs)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`wire-rate.ts exited ${r.status}: ${(r.stderr ?? '').slice(-400)}`);
    const out: WireRateRun[] = [];
    const re = /^(fresh|warm) +run: CPU ([\d.]+) s, wall ([\d.]+) s, (\d+) wire packets/gm;
    for (const m of r.stdout.matchAll(re))
      out.push({ fresh: m[1] === 'fresh', cpuS: Number(m[2]), wallS: Number(m[3]), wire: Number(m[4]) });
    if (out.length !== runs)
      throw new Error(`wire-rate.ts printed ${out.length} runs of ${runs}: ${r.stdout}`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
