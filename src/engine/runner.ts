/**
 * Runs command lines on a lab one after another in simulated time: each starts when the previous
 * one ends. A line runs on the first instance (the client) unless prefixed `NAME:` (e.g.
 * `server: iperf3 -s`). Jobs are advanced in chunks with an event budget so a caller can stay
 * responsive; the run is a pure function of the scenario.
 */
import { createQdiscTree } from './host/qdisc/tree';
import { Lab } from './lab';
import { MetricsRecorder } from './metrics/recorder';
import type { Scenario } from '../scenario/schema';
import { startIperf3Server } from './shell/commands/iperf3';
import { execLine } from './shell/shell';
import type { CommandOutput, Job } from './shell/types';

export interface RunRecord {
  host: string;
  command: string;
  startNs: number;
  endNs: number;
  exitCode: number;
  output: string;
  /** stderr part of `output`, kept separately for the CLI. */
  stderr: string;
  result: unknown;
}

/** Build a lab from a validated scenario with the real qdisc implementation. */
export function createLab(scenario: Scenario): Lab {
  const lab = new Lab(scenario, (ctx, defaultQdisc) => createQdiscTree(ctx, { defaultQdisc }));
  attachRecorder(lab);
  if (scenario.settings.iperf3Server)
    for (const inst of lab.instances.values()) startIperf3Server(inst, 5201);
  return lab;
}

/** Every lab records its metrics (the dashboards, sar, CloudWatch and `lab summary` read them). */
export function attachRecorder(lab: Lab): MetricsRecorder {
  const insts = [...lab.instances.values()];
  const rec = new MetricsRecorder(
    insts.map((i) => i.name),
    {
      counters: (h) => {
        const nitro = insts[h]!.nitro;
        const c = nitro.counters();
        return [
          ['bw_in_allowance_exceeded', c.bw_in_allowance_exceeded],
          ['bw_out_allowance_exceeded', c.bw_out_allowance_exceeded],
          ['pps_allowance_exceeded', c.pps_allowance_exceeded],
          ['conntrack_allowance_exceeded', c.conntrack_allowance_exceeded],
          ['linklocal_allowance_exceeded', c.linklocal_allowance_exceeded],
          ['conntrack_allowance_available', nitro.conntrackAvailable()],
        ];
      },
    },
  );
  lab.probe.attach(rec);
  lab.metrics = rec;
  return rec;
}

/** Split an optional `host:` prefix off a command line. */
export function splitHostPrefix(lab: Lab, line: string): { host: string; command: string } {
  const m = /^\s*([a-z][a-z0-9-]*):\s*(.*)$/s.exec(line);
  if (m && lab.instance(m[1]!)) return { host: m[1]!, command: m[2]! };
  return { host: lab.instances.keys().next().value as string, command: line.trim() };
}

/** A command with no end of its own (iperf3 -t 0, -n never reached) is stopped, as Ctrl-C would, after this. */
export const DEFAULT_UNBOUNDED_LIMIT_NS = 60e9;

export interface RunOptions {
  /** Simulated time after which a command that has not ended is interrupted (default 60 s beyond its deadline). */
  unboundedLimitNs?: number;
  /** Hard cap: interrupt any command after this much simulated time (tests, the UI's safety net). */
  maxCommandNs?: number;
  /** Events per chunk between progress callbacks. */
  chunkEvents?: number;
  onProgress?: (nowNs: number) => void;
}

interface BackgroundJob {
  n: number;
  host: string;
  command: string;
  job: Job;
  startNs: number;
}

/**
 * A shell session on a lab: runs lines one after another in simulated time; a line ending in `&`
 * runs in the background (as in bash) while later lines run, and its output is recorded when it
 * ends. `close()` interrupts background jobs still running (the session ends) and records them.
 */
export class LabSession {
  private bg: BackgroundJob[] = [];
  private nextJobNumber = 1;

  constructor(
    readonly lab: Lab,
    private readonly opts: RunOptions = {},
  ) {}

  /** Run one line; returns its record followed by records of background jobs that ended meanwhile. */
  run(line: string): RunRecord[] {
    const lab = this.lab;
    const { host, command: raw } = splitHostPrefix(lab, line);
    const background = /\s&\s*$|^[^'"]*[^&]&\s*$/.test(raw) && !/&&\s*$/.test(raw);
    const command = background ? raw.replace(/\s*&\s*$/, '') : raw;
    const inst = lab.instance(host)!;
    const startNs = lab.nowNs;
    lab.emit({ type: 'CommandStarted', atNs: startNs, host, command: raw });
    const outcome = execLine(lab, inst, command);
    const records: RunRecord[] = [];
    if (background) {
      if (outcome.kind === 'job') {
        const n = this.nextJobNumber++;
        this.bg.push({ n, host, command, job: outcome.job, startNs });
        records.push(
          record(host, raw, startNs, lab.nowNs, { stdout: '', stderr: `[${n}] ${1000 + n}\n`, exitCode: 0 }),
        );
      } else {
        records.push(record(host, raw, startNs, lab.nowNs, outcome.out));
      }
      return records;
    }
    let out: CommandOutput;
    if (outcome.kind === 'done') out = outcome.out;
    else out = this.drive(outcome.job, command, startNs, records);
    records.unshift(record(host, command, startNs, lab.nowNs, out));
    lab.emit({ type: 'CommandEnded', atNs: lab.nowNs, host, command, exitCode: out.exitCode });
    return records;
  }

  /** Advance the lab until `job` is done, collecting background jobs that end meanwhile. */
  private drive(job: Job, command: string, startNs: number, sink: RunRecord[]): CommandOutput {
    const lab = this.lab;
    const chunk = this.opts.chunkEvents ?? 200_000;
    const limit = this.opts.unboundedLimitNs ?? DEFAULT_UNBOUNDED_LIMIT_NS;
    let stoppedByLimit = false;
    while (!job.done()) {
      const deadline = job.deadlineNs();
      const ref = Number.isFinite(deadline) ? Math.max(startNs, deadline) : startNs;
      const hardCap = this.opts.maxCommandNs;
      if (
        !stoppedByLimit &&
        (lab.nowNs - ref > limit || (hardCap !== undefined && lab.nowNs - startNs >= hardCap))
      ) {
        // the command would run forever (as `iperf3 -t 0` does until Ctrl-C): interrupt it
        stoppedByLimit = true;
        job.interrupt();
        continue;
      }
      let target = Math.min(Math.max(deadline, lab.nowNs + 1_000_000), ref + limit + 1);
      // once interrupted, let the job wind down (iperf3 exchanges its results) past the cap
      if (hardCap !== undefined && !stoppedByLimit) target = Math.min(target, startNs + hardCap);
      const n = lab.runUntil(target, chunk);
      this.opts.onProgress?.(lab.nowNs);
      this.reapBackground(sink);
      const atCap = hardCap !== undefined && !stoppedByLimit && lab.nowNs - startNs >= hardCap;
      // nothing left that could end the job (the cap is handled above, with its message)
      if (n === 0 && !job.done() && lab.sched.pending === 0 && lab.nowNs >= target && !atCap) job.interrupt();
    }
    let out = job.finish();
    if (stoppedByLimit) {
      out = {
        ...out,
        stderr: `${out.stderr}lab: "${command}" had not ended after ${((lab.nowNs - startNs) / 1e9).toFixed(0)} s of simulated time; interrupted as Ctrl-C would\n`,
      };
    }
    return out;
  }

  private reapBackground(sink: RunRecord[]): void {
    if (this.bg.length === 0) return;
    const still: BackgroundJob[] = [];
    for (const b of this.bg) {
      if (b.job.done()) sink.push(this.bgRecord(b, 'Done'));
      else still.push(b);
    }
    this.bg = still;
  }

  private bgRecord(b: BackgroundJob, how: 'Done' | 'Interrupted'): RunRecord {
    const out = b.job.finish();
    const status = how === 'Interrupted' ? 'Interrupt' : out.exitCode === 0 ? 'Done' : `Exit ${out.exitCode}`;
    return record(b.host, `${b.command} &`, b.startNs, this.lab.nowNs, {
      ...out,
      stderr: `${out.stderr}[${b.n}]+  ${status.padEnd(24)}${b.command}\n`,
    });
  }

  /** End the session: interrupt background jobs still running and record their output. */
  close(): RunRecord[] {
    const out: RunRecord[] = [];
    for (const b of this.bg) {
      b.job.interrupt();
      // let the interrupted job wind down (a final exchange of results) for a bounded time
      const until = this.lab.nowNs + 1e9;
      while (!b.job.done() && this.lab.nowNs < until)
        this.lab.runUntil(Math.min(until, this.lab.nowNs + 1e6), 200_000);
      out.push(this.bgRecord(b, 'Interrupted'));
    }
    this.bg = [];
    return out;
  }
}

function record(
  host: string,
  command: string,
  startNs: number,
  endNs: number,
  out: CommandOutput,
): RunRecord {
  return {
    host,
    command,
    startNs,
    endNs,
    exitCode: out.exitCode,
    output: out.stdout + out.stderr,
    stderr: out.stderr,
    result: out.result ?? null,
  };
}

/** Run one command line to completion on a fresh session (background jobs are not kept). */
export function runLine(lab: Lab, line: string, opts: RunOptions = {}): RunRecord {
  const s = new LabSession(lab, opts);
  const r = s.run(line);
  s.close();
  return r[0]!;
}

/** Run a whole script in one session; background jobs still running at the end are interrupted. */
export function runScript(lab: Lab, lines: string[], opts: RunOptions = {}): RunRecord[] {
  const s = new LabSession(lab, opts);
  const out: RunRecord[] = [];
  for (const l of lines) out.push(...s.run(l));
  out.push(...s.close());
  return out;
}
