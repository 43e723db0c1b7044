/**
 * Runs command lines on a lab one after another in simulated time: each starts when the previous
 * one ends. A line runs on the first instance (the client) unless prefixed `NAME:` (e.g.
 * `server: iperf3 -s`). Jobs are advanced in chunks with an event budget so a caller can stay
 * responsive; the run is a pure function of the scenario.
 */
import { createQdiscTree } from './host/qdisc/tree';
import { Lab } from './lab';
import type { Scenario } from '../scenario/schema';
import { startIperf3Server } from './shell/commands/iperf3';
import { execLine } from './shell/shell';
import type { CommandOutput } from './shell/types';

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
  if (scenario.settings.iperf3Server)
    for (const inst of lab.instances.values()) startIperf3Server(inst, 5201);
  return lab;
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
  /** Events per chunk between progress callbacks. */
  chunkEvents?: number;
  onProgress?: (nowNs: number) => void;
}

/** Run one command line to completion. */
export function runLine(lab: Lab, line: string, opts: RunOptions = {}): RunRecord {
  const { host, command } = splitHostPrefix(lab, line);
  const inst = lab.instance(host)!;
  const startNs = lab.nowNs;
  const outcome = execLine(lab, inst, command);
  let out: CommandOutput;
  if (outcome.kind === 'done') out = outcome.out;
  else {
    const job = outcome.job;
    const chunk = opts.chunkEvents ?? 200_000;
    const limit = opts.unboundedLimitNs ?? DEFAULT_UNBOUNDED_LIMIT_NS;
    let stoppedByLimit = false;
    while (!job.done()) {
      const deadline = job.deadlineNs();
      const ref = Number.isFinite(deadline) ? Math.max(startNs, deadline) : startNs;
      if (!stoppedByLimit && lab.nowNs - ref > limit) {
        // the command would run forever (as `iperf3 -t 0` does until Ctrl-C): interrupt it
        stoppedByLimit = true;
        job.interrupt();
        continue;
      }
      const target = Math.min(Math.max(deadline, lab.nowNs + 1_000_000), ref + limit + 1);
      const n = lab.runUntil(target, chunk);
      opts.onProgress?.(lab.nowNs);
      if (n === 0 && !job.done() && lab.sched.pending === 0 && lab.nowNs >= target) {
        // nothing left to happen and the job cannot finish: stop it rather than spin
        job.interrupt();
      }
    }
    out = job.finish();
    if (stoppedByLimit) {
      out = {
        ...out,
        stderr: `${out.stderr}lab: "${command}" had not ended after ${(limit / 1e9).toFixed(0)} s of simulated time; interrupted as Ctrl-C would\n`,
      };
    }
  }
  return {
    host,
    command,
    startNs,
    endNs: lab.nowNs,
    exitCode: out.exitCode,
    output: out.stdout + out.stderr,
    stderr: out.stderr,
    result: out.result ?? null,
  };
}

/** Run a whole script. */
export function runScript(lab: Lab, lines: string[], opts: RunOptions = {}): RunRecord[] {
  return lines.map((l) => runLine(lab, l, opts));
}
