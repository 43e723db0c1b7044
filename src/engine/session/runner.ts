/**
 * Runs command lines on a lab one after another in simulated time: each starts when the previous
 * one ends. A line runs on the first instance (the client) unless prefixed `NAME:` (e.g.
 * `server: iperf3 -s`). Jobs are advanced in chunks with an event budget so a caller can stay
 * responsive; the run is a pure function of the scenario.
 */
import { createQdiscTree } from '../host/qdisc/tree';
import { Lab } from '../lab/lab';
import { attachRecorder } from '../lab/attach-recorder';
import type { Scenario } from '../../scenario/schema';
import { startIperf3Server } from '../shell/commands/iperf3';
import { execAndOr, execPipeline } from '../shell/shell';
import { type AndOr, parseLine, type Pipeline, wordLiteral } from '../shell/parse';
import {
  type JobControl,
  jobMarker,
  resolveJobSpec,
  runJobs,
  runKill,
  signalDescription,
  signalEffect,
} from '../shell/commands/jobs';

export { attachRecorder };
import { type CommandOutcome, type CommandOutput, fail, type Job } from '../shell/types';
import { MAX_OUTPUT_CHARS } from '../shell/output-cap';

export interface RunRecord {
  host: string;
  command: string;
  startNs: number;
  endNs: number;
  exitCode: number;
  output: string;
  /** stderr part of `output`, kept separately for the CLI. */
  stderr: string;
  /** The prefix of `stderr` printed before stdout (CommandOutput.stderrLead). */
  stderrLead?: string;
  result: unknown;
  /** A later pipeline of the same typed line (`a; b`, `a && b`): printed without a prompt of its own. */
  continued?: true;
  /** On the first record of a line with several pipelines: the whole line as typed. */
  line?: string;
}

/** Build a lab from a validated scenario with the real qdisc implementation. */
export function createLab(scenario: Scenario, opts: { metrics?: boolean } = {}): Lab {
  const lab = new Lab(scenario, (ctx, defaultQdisc) => createQdiscTree(ctx, { defaultQdisc }));
  // Opt-in (settings.record, the UI, `lab record on`): on, it costs ≈ 50 % more CPU on experiment 2.
  // CloudWatch and sar read the always-on counters instead (engine/metrics/eni-traffic.ts).
  if (opts.metrics || scenario.settings.record) attachRecorder(lab);
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
/**
 * Any command is interrupted after this much simulated time, whatever its own end (the tools'
 * option limits refuse most longer runs up front: iperf3 -t, sar's count, ab -n).
 */
export const DEFAULT_MAX_COMMAND_NS = 3_600e9;
/** An interrupted job (Ctrl-C or a cap) that has not wound down after this much simulated time is ended. */
export const WIND_DOWN_LIMIT_NS = 10e9;
/** Events processed without simulated time moving after which the run is stopped (the model is stuck). */
export const NO_PROGRESS_EVENTS = 1_000_000;
export { MAX_OUTPUT_CHARS };

/** The model processed NO_PROGRESS_EVENTS events at one instant: it cannot go on. */
export class NoProgressError extends Error {
  constructor(
    readonly atNs: number,
    readonly events: number,
  ) {
    super(
      `the model made no progress: ${events.toLocaleString('en-US')} events at t = ${(atNs / 1e9).toFixed(6)} s without simulated time moving; the run is stopped`,
    );
    this.name = 'NoProgressError';
  }
}

export interface RunOptions {
  /** Simulated time after which a command that has not ended is interrupted (default 60 s beyond its deadline). */
  unboundedLimitNs?: number;
  /** Hard cap: interrupt any command after this much simulated time (default DEFAULT_MAX_COMMAND_NS). */
  maxCommandNs?: number;
  /** Events per chunk between progress callbacks. */
  chunkEvents?: number;
  onProgress?: (nowNs: number) => void;
}

interface BackgroundJob {
  /** Characters of stderr printed when it started (Job.lead). */
  leadLen?: number;
  n: number;
  host: string;
  command: string;
  job: Job;
  startNs: number;
  /** Ended by a signal its program does not catch (`kill`): what it had printed, and the signal. */
  killed?: { sig: number; out: CommandOutput };
  /** A signal its program handles and then re-raises (testpmd): it ends by that signal. */
  reraised?: number;
}

/** The process id bash prints for background job `n` ("[1] 1001"). */
const jobPid = (n: number) => 1000 + n;

/** The command the session is waiting for (bash's foreground job). */
interface ForegroundJob {
  host: string;
  command: string;
  job: Job;
  startNs: number;
  stoppedByLimit: boolean;
  /** The whole typed line, on the first pipeline of a line that has more. */
  typed?: string;
  /** Ctrl-C was pressed (the rest of its line is dropped). */
  interrupted?: boolean;
  /** Not the line's first pipeline (`a; b`: b's record is continued). */
  continued: boolean;
  /** When the job was interrupted (Ctrl-C or a cap): it must wind down within WIND_DOWN_LIMIT_NS. */
  interruptedAtNs: number | null;
  /** Ended by the runner because it did not wind down. */
  abandoned: boolean;
}

/** What is left of a typed line: its pipelines (with the operator before each) and background lists. */
type LineItem = { p: Pipeline; op: '&&' | '||' | null } | { bg: AndOr; text: string };

/** What `start` did with a line: records of what already ended, and whether a foreground job now runs. */
export interface StartResult {
  records: RunRecord[];
  foreground: boolean;
}

/** A record, marked when it is the foreground job's. */
type Tagged = RunRecord & { foreground?: true };

/** The polling grid of the interactive session (absolute multiples, so chunking never shows). */
export const POLL_GRID_NS = 1_000_000;

/**
 * A shell session on a lab: runs lines one after another in simulated time; a line ending in `&`
 * runs in the background (as in bash) while later lines run, and its output is recorded when it
 * ends. `close()` interrupts background jobs still running (the session ends) and records them.
 *
 * Two ways to drive it, one implementation: `run(line)` (CLI, scripts, tests) starts a line and
 * advances time until it ends; the interactive session (UI terminal) calls `start(line)` and then
 * `step(untilNs, maxEvents)` as wall time allows. The rules (the unbounded-command cap, the hard
 * cap, background reaping, a job that can no longer end) live in `step` only.
 *
 * Polling: with `absolutePolling` (the interactive session), jobs are checked (done, caps, background
 * reaping, progressive output) on an absolute 1 ms grid and at their deadline, never where a caller's chunk happened
 * to stop, so a run does not depend on how wall time sliced it (rewind replays it byte for byte).
 * Without it (the default, kept for the CLI and the golden outputs), a job is checked after every
 * chunk and polled 1 ms after the previous check.
 */
export class LabSession {
  private bg: BackgroundJob[] = [];
  private fg: ForegroundJob | null = null;
  private nextJobNumber = 1;
  /** The line being run, while pipelines of it remain (`a && b`: b waits for a). */
  private line: { host: string; raw: string; items: LineItem[]; status: number; first: boolean } | null =
    null;
  /** Whether the last `step` ended at a checkpoint (where jobs were checked). */
  atCheckpoint = false;
  /** Simulated instant and event count when time last moved (no-progress detection). */
  private progressNs = -1;
  private progressEvents = 0;

  constructor(
    readonly lab: Lab,
    private readonly opts: RunOptions & { absolutePolling?: boolean } = {},
  ) {}

  /** The foreground job, if one runs. */
  get foreground(): { host: string; command: string; startNs: number; job: Job } | null {
    return this.fg;
  }

  /** Background jobs still running. */
  get backgroundCount(): number {
    return this.bg.length;
  }

  /** Run one line; returns its record followed by records of background jobs that ended meanwhile. */
  run(line: string): RunRecord[] {
    const records: Tagged[] = this.start(line).records;
    const chunk = this.opts.chunkEvents ?? 200_000;
    while (this.fg) {
      records.push(...this.step(Number.POSITIVE_INFINITY, chunk));
      this.opts.onProgress?.(this.lab.nowNs);
    }
    // the line's records come first (in order), background jobs that ended meanwhile after them
    const ordered = [...records.filter((r) => r.foreground), ...records.filter((r) => !r.foreground)];
    for (const r of ordered) delete r.foreground;
    return ordered;
  }

  /**
   * Start a line at the current instant. A command that ends at once, or a background job, is
   * recorded now; otherwise it becomes the foreground job, advanced by `step`.
   * Throws if a foreground job is already running (a terminal waits for it first).
   */
  start(line: string): StartResult {
    if (this.fg) throw new Error('a foreground job is running');
    const lab = this.lab;
    const { host, command: raw } = splitHostPrefix(lab, line);
    if (raw !== '') lab.shellHistory.push(raw);
    const sink: Tagged[] = [];
    const parsed = parseLine(raw);
    if (!parsed.ok || parsed.lists.length === 0) {
      // a syntax error, an empty line or a comment: one record, as bash prints its error
      const startNs = lab.nowNs;
      lab.emit({ type: 'CommandStarted', atNs: startNs, host, command: raw });
      const out = parsed.ok
        ? { stdout: '', stderr: '', exitCode: 0 }
        : { stdout: '', stderr: `${parsed.error}\n`, exitCode: parsed.exitCode };
      sink.push({ ...record(host, raw, startNs, lab.nowNs, out), foreground: true });
      lab.emit({ type: 'CommandEnded', atNs: lab.nowNs, host, command: raw, exitCode: out.exitCode });
      return { records: sink, foreground: false };
    }
    const items: LineItem[] = [];
    for (const l of parsed.lists) {
      if (l.background) {
        const single = parsed.lists.length === 1;
        items.push({ bg: l, text: single ? raw : `${l.text} &` });
      } else
        for (const [k, p] of l.pipelines.entries()) items.push({ p, op: k === 0 ? null : l.ops[k - 1]! });
    }
    this.line = { host, raw, items, status: 0, first: true };
    this.continueLine(sink);
    return { records: sink, foreground: this.fg !== null };
  }

  /** Run the current line's next pipelines until one becomes the foreground job or the line ends. */
  private continueLine(sink: Tagged[]): void {
    const lab = this.lab;
    const l = this.line;
    if (!l) return;
    const inst = lab.instance(l.host)!;
    while (!this.fg && l.items.length > 0) {
      const item = l.items.shift()!;
      const continued = !l.first;
      const typed = l.first && l.items.length > 0 ? l.raw : undefined;
      l.first = false;
      const startNs = lab.nowNs;
      if ('bg' in item) {
        lab.emit({ type: 'CommandStarted', atNs: startNs, host: l.host, command: item.text });
        const command = item.bg.text;
        const outcome = execAndOr(lab, inst, item.bg);
        l.status = 0;
        if (outcome.kind === 'job') {
          const n = this.nextJobNumber++;
          const lead = outcome.job.lead?.() ?? '';
          this.bg.push({ n, host: l.host, command, job: outcome.job, startNs, leadLen: lead.length });
          sink.push(
            tag(
              record(l.host, item.text, startNs, lab.nowNs, {
                stdout: '',
                stderr: `[${n}] ${jobPid(n)}\n${lead}`,
                exitCode: 0,
              }),
              continued,
            ),
          );
        } else {
          // it ended at once, but bash gives it a job all the same: its number and pid first, then
          // what it printed, then its notice (the line's status is 0, as for any `&`)
          const n = this.nextJobNumber++;
          const o = outcome.out;
          const head = `[${n}] ${jobPid(n)}\n`;
          sink.push(
            tag(
              record(l.host, item.text, startNs, lab.nowNs, {
                ...o,
                exitCode: 0,
                stderr: head + o.stderr,
                stderrLead: head + (o.stderrLead ?? ''),
              }),
              continued,
            ),
          );
          const status = o.exitCode === 0 ? 'Done' : `Exit ${o.exitCode}`;
          this.jobStatus.set(n, o.exitCode);
          const marker = jobMarker([...this.jobEntries(), { n, pid: jobPid(n), command }], n);
          sink.push(
            record(l.host, `${command} &`, startNs, lab.nowNs, {
              stdout: '',
              stderr: `[${n}]${marker}  ${status.padEnd(24)}${command}\n`,
              exitCode: o.exitCode,
            }),
          );
        }
        continue;
      }
      if ((item.op === '&&' && l.status !== 0) || (item.op === '||' && l.status === 0)) continue;
      const command = item.p.text;
      lab.emit({ type: 'CommandStarted', atNs: startNs, host: l.host, command });
      const outcome = this.jobBuiltin(item.p, sink) ?? execPipeline(lab, inst, item.p);
      if (outcome.kind === 'done') {
        sink.push(tag(record(l.host, command, startNs, lab.nowNs, outcome.out), continued, typed));
        sink.push(...this.pendingNotices.splice(0));
        l.status = outcome.out.exitCode;
        lab.emit({
          type: 'CommandEnded',
          atNs: lab.nowNs,
          host: l.host,
          command,
          exitCode: outcome.out.exitCode,
        });
        continue;
      }
      this.fg = {
        host: l.host,
        command,
        job: outcome.job,
        startNs,
        stoppedByLimit: false,
        continued,
        typed,
        interruptedAtNs: null,
        abandoned: false,
      };
    }
    if (!this.fg && l.items.length === 0) this.line = null;
  }

  /** Ctrl-C: interrupt the foreground job (it winds down in simulated time, as iperf3 does). */
  interrupt(): boolean {
    if (!this.fg || this.fg.job.done()) return false;
    this.fg.interrupted = true;
    this.fg.job.interrupt();
    this.fg.interruptedAtNs ??= this.lab.nowNs;
    return true;
  }

  /** The next instant at which jobs are checked. */
  private checkpoint(): number {
    const now = this.lab.nowNs;
    const grid = (Math.floor(now / POLL_GRID_NS) + 1) * POLL_GRID_NS;
    const fg = this.fg;
    if (!fg) return this.bg.length > 0 ? grid : Number.POSITIVE_INFINITY;
    const limit = this.opts.unboundedLimitNs ?? DEFAULT_UNBOUNDED_LIMIT_NS;
    const deadline = fg.job.deadlineNs();
    const ref = Number.isFinite(deadline) ? Math.max(fg.startNs, deadline) : fg.startNs;
    let target = this.opts.absolutePolling
      ? Math.min(deadline > now ? Math.min(deadline, grid) : grid, ref + limit + 1)
      : Math.min(Math.max(deadline, now + 1_000_000), ref + limit + 1);
    // once interrupted, let the job wind down (iperf3 exchanges its results) past the cap, for a while
    const hardCap = this.opts.maxCommandNs ?? DEFAULT_MAX_COMMAND_NS;
    if (!fg.stoppedByLimit) target = Math.min(target, fg.startNs + hardCap);
    if (fg.interruptedAtNs !== null) target = Math.min(target, fg.interruptedAtNs + WIND_DOWN_LIMIT_NS);
    if (this.opts.absolutePolling && target <= now) target = grid;
    // a job stopped by the cap and still winding down: the cap's instant is behind
    else if (target <= now) target = now + 1_000_000;
    return target;
  }

  /**
   * Advance the lab toward `untilNs`, processing at most `maxEvents` events, and check the jobs
   * when a checkpoint is reached. Returns the records of jobs that ended (the foreground one marked).
   * Stops at the first checkpoint (or `untilNs`, or the budget), so callers loop.
   */
  step(untilNs: number, maxEvents: number): Tagged[] {
    const lab = this.lab;
    const sink: Tagged[] = [];
    const fg = this.fg;
    const limit = this.opts.unboundedLimitNs ?? DEFAULT_UNBOUNDED_LIMIT_NS;
    const hardCap = this.opts.maxCommandNs ?? DEFAULT_MAX_COMMAND_NS;
    if (fg?.job.done()) return this.finishIfDone(sink);
    if (fg && !fg.stoppedByLimit) {
      const deadline = fg.job.deadlineNs();
      const ref = Number.isFinite(deadline) ? Math.max(fg.startNs, deadline) : fg.startNs;
      if (lab.nowNs - ref > limit || lab.nowNs - fg.startNs >= hardCap) {
        // the command would run forever (as `iperf3 -t 0` does until Ctrl-C): interrupt it
        fg.stoppedByLimit = true;
        fg.job.interrupt();
        fg.interruptedAtNs ??= lab.nowNs;
        return this.finishIfDone(sink);
      }
    }
    if (fg && fg.interruptedAtNs !== null && lab.nowNs - fg.interruptedAtNs >= WIND_DOWN_LIMIT_NS) {
      // interrupted and still not done: end it here rather than wait on a job that does not stop
      fg.abandoned = true;
      return this.finishIfDone(sink);
    }
    const target = this.checkpoint();
    const n = lab.runUntil(Math.min(target, untilNs), Math.min(maxEvents, NO_PROGRESS_EVENTS));
    this.checkProgress();
    const atCheckpoint = lab.nowNs >= target;
    this.atCheckpoint = atCheckpoint;
    if (this.opts.absolutePolling && !atCheckpoint) return sink;
    this.reapBackground(sink);
    if (fg) {
      const atCap = !fg.stoppedByLimit && lab.nowNs - fg.startNs >= hardCap;
      // nothing left that could end the job (the cap is handled above, with its message), unless
      // time alone ends it (sleep in an idle lab: its deadline is still ahead)
      // (the deadline read after done(): a job may move it there, as watch does at each refresh)
      const isDone = fg.job.done();
      const deadline = fg.job.deadlineNs();
      const waiting = Number.isFinite(deadline) && deadline > lab.nowNs;
      const idle = n === 0 && lab.sched.pending === 0 && atCheckpoint;
      if (idle && !isDone && !atCap && !waiting && fg.interruptedAtNs === null) {
        fg.job.interrupt();
        fg.interruptedAtNs = lab.nowNs;
      }
    }
    return this.finishIfDone(sink);
  }

  /** Throw NoProgressError when the model has processed too many events at one instant. */
  private checkProgress(): void {
    const lab = this.lab;
    if (lab.nowNs !== this.progressNs) {
      this.progressNs = lab.nowNs;
      this.progressEvents = lab.sched.processed;
    } else if (lab.sched.processed - this.progressEvents >= NO_PROGRESS_EVENTS) {
      throw new NoProgressError(lab.nowNs, lab.sched.processed - this.progressEvents);
    }
  }

  private finishIfDone(sink: Tagged[]): Tagged[] {
    const fg = this.fg;
    if (!fg || !(fg.abandoned || fg.job.done())) return sink;
    const lab = this.lab;
    this.fg = null;
    let out = fg.job.finish();
    if (fg.stoppedByLimit) {
      out = {
        ...out,
        stderr: `${out.stderr}lab: "${fg.command}" had not ended after ${((lab.nowNs - fg.startNs) / 1e9).toFixed(0)} s of simulated time; interrupted as Ctrl-C would\n`,
      };
    }
    if (fg.abandoned) {
      out = {
        ...out,
        exitCode: out.exitCode === 0 ? 130 : out.exitCode,
        stderr: `${out.stderr}lab: "${fg.command}" had not wound down ${WIND_DOWN_LIMIT_NS / 1e9} s of simulated time after the interrupt; ended\n`,
      };
    }
    sink.push(tag(record(fg.host, fg.command, fg.startNs, lab.nowNs, out), fg.continued, fg.typed));
    sink.push(...this.pendingNotices.splice(0));
    lab.emit({
      type: 'CommandEnded',
      atNs: lab.nowNs,
      host: fg.host,
      command: fg.command,
      exitCode: out.exitCode,
    });
    if (this.line) {
      this.line.status = out.exitCode;
      // Ctrl-C ends the whole line, as SIGINT does in bash
      if (fg.interrupted || fg.stoppedByLimit) this.line = null;
      else this.continueLine(sink);
    }
    return sink;
  }

  private reapBackground(sink: RunRecord[]): void {
    if (this.bg.length === 0) return;
    const still: BackgroundJob[] = [];
    const entries = this.jobEntries();
    for (const b of this.bg) {
      if (b.killed || b.job.done()) sink.push(this.bgRecord(b, 'Done', jobMarker(entries, b.n)));
      else still.push(b);
    }
    this.bg = still;
  }

  private bgRecord(b: BackgroundJob, how: 'Done' | 'Interrupted', marker: string = '+'): RunRecord {
    const done = b.killed?.out ?? b.job.finish();
    const out = b.leadLen ? { ...done, stderr: done.stderr.slice(b.leadLen), stderrLead: undefined } : done;
    const sig = b.killed?.sig ?? b.reraised;
    this.jobStatus.set(b.n, sig !== undefined ? 128 + sig : out.exitCode);
    const status =
      how === 'Interrupted'
        ? 'Interrupt'
        : sig !== undefined
          ? signalDescription(sig)
          : out.exitCode === 0
            ? 'Done'
            : `Exit ${out.exitCode}`;
    return record(b.host, `${b.command} &`, b.startNs, this.lab.nowNs, {
      ...out,
      stderr: `${out.stderr}[${b.n}]${marker}  ${status.padEnd(24)}${b.command}\n`,
    });
  }

  private jobEntries() {
    return this.bg.map((b) => ({ n: b.n, pid: jobPid(b.n), command: b.command }));
  }

  /**
   * bash's `kill`, `jobs` and `wait`, which work on the session's jobs: a pipeline that is one of
   * them alone, with literal words; its outcome, or null for any other pipeline. A job that `kill`
   * ended is reported at once (bash's notice before the next prompt); `wait` is a foreground job
   * that ends with the jobs it waits for.
   */
  private jobBuiltin(p: Pipeline, sink: RunRecord[]): CommandOutcome | null {
    const c = p.commands[0]!;
    const name = c.words[0] ? wordLiteral(c.words[0]) : null;
    if (name !== 'kill' && name !== 'jobs' && name !== 'wait' && name !== 'fg' && name !== 'bg') return null;
    const words = c.words.map(wordLiteral);
    if (p.commands.length > 1 || c.redirects.length > 0 || p.negate || words.some((w) => w === null))
      return fail(
        `bash: ${name}: in ec2-netlab ${name} runs as a command of its own (no pipe, redirection or $(…))`,
        2,
      );
    const args = words.slice(1) as string[];
    this.reapBackground(sink);
    if (name === 'wait') return this.waitFor(args);
    if (name === 'fg') return this.foregroundJob(args);
    if (name === 'bg') return this.backgroundJobs(args);
    const ctl: JobControl = {
      jobs: () => this.jobEntries(),
      signal: (n, sig) => {
        const b = this.bg.find((x) => x.n === n);
        if (!b || b.killed) return;
        const effect = signalEffect(b.command, sig);
        if (effect === 'ignore' || effect === 'stop') return;
        if (effect === 'terminate') {
          // the program dies where it is: what it printed so far stays, nothing more
          const printed = b.job.progress?.() ?? '';
          const lead = b.job.lead?.() ?? '';
          b.job.interrupt(sig);
          b.killed = { sig, out: { stdout: printed, stderr: lead, exitCode: 128 + sig } };
          return;
        }
        if (effect === 'reraise') b.reraised = sig;
        b.job.interrupt(sig);
      },
    };
    const out = name === 'kill' ? runKill(args, ctl) : runJobs(args, ctl);
    if (name === 'kill') {
      // the notices follow kill's own output (the killed job's record is not the line's)
      const notices: RunRecord[] = [];
      this.reapBackground(notices);
      this.pendingNotices.push(...notices);
    }
    return { kind: 'done', out };
  }

  /**
   * bash's `fg [%job]`: the job (the current one by default) leaves the background and becomes the
   * foreground job: bash prints its command line, then the terminal shows what it prints (all of
   * it here: the lab shows a background job's output when it ends); Ctrl-C interrupts it.
   */
  private foregroundJob(args: string[]): CommandOutcome {
    // bash takes the first jobspec and ignores the rest
    const entries = this.jobEntries();
    const spec = args[0] ?? '%+';
    if (entries.length === 0 && args[0] === undefined) return fail('bash: fg: current: no such job');
    const n = spec.startsWith('%') ? resolveJobSpec(entries, spec) : resolveJobSpec(entries, `%${spec}`);
    const b = n === null ? undefined : this.bg.find((x) => x.n === n);
    if (!b) return fail(`bash: fg: ${spec}: no such job`);
    this.bg = this.bg.filter((x) => x !== b);
    const echo = `${b.command}\n`;
    const inner = b.job;
    const strip = (o: CommandOutput): CommandOutput =>
      b.leadLen ? { ...o, stderr: o.stderr.slice(b.leadLen), stderrLead: undefined } : o;
    if (b.killed)
      return { kind: 'done', out: { ...b.killed.out, stdout: echo + b.killed.out.stdout, stderr: '' } };
    const job: Job = {
      done: () => inner.done(),
      deadlineNs: () => inner.deadlineNs(),
      interrupt: (sig) => inner.interrupt(sig),
      progress: () => echo + (inner.progress?.() ?? ''),
      finish: () => {
        const o = strip(inner.finish());
        return { ...o, stdout: echo + o.stdout };
      },
    };
    return { kind: 'job', job };
  }

  /**
   * bash's `bg [job_spec …]` (builtins/fg_bg.def, jobs.c start_job): each job (the current one by
   * default) to the background. No job of the lab is ever stopped (stopping one is not simulated),
   * so each named job is already running there: bash says so and counts it a success (XPG6).
   */
  private backgroundJobs(args: string[]): CommandOutcome {
    if (args[0]?.startsWith('-') && args[0] !== '-' && args[0] !== '--')
      return fail(`bash: bg: ${args[0]}: invalid option\nbg: usage: bg [job_spec ...]`, 2);
    const specs = args[0] === '--' ? args.slice(1) : args;
    const entries = this.jobEntries();
    let err = '';
    let status = 0;
    for (const spec of specs.length > 0 ? specs : [null]) {
      const n =
        spec === null
          ? entries.length > 0
            ? entries[entries.length - 1]!.n
            : null
          : resolveJobSpec(entries, spec.startsWith('%') ? spec : `%${spec}`);
      if (n === null) {
        err += `bash: bg: ${spec ?? 'current'}: no such job\n`;
        status = 1;
      } else err += `bash: bg: job ${n} already in background\n`;
    }
    return { kind: 'done', out: { stdout: '', stderr: err, exitCode: status } };
  }

  /** Exit statuses of background jobs that ended (for `wait %N`), by job number. */
  private readonly jobStatus = new Map<number, number>();

  /**
   * bash's `wait [id …]`: without ids every background job, else each %jobspec or pid; its status
   * is the last id's (0 without ids; 127 for an id that is no job of this shell). Ctrl-C ends it
   * (130), the jobs run on.
   */
  private waitFor(args: string[]): CommandOutcome {
    if (args[0]?.startsWith('-') && args[0] !== '--')
      return fail(`bash: wait: ${args[0]}: not simulated in ec2-netlab (wait [%job | pid] …)`, 2);
    const ids = args[0] === '--' ? args.slice(1) : args;
    const entries = this.jobEntries();
    const resolved: Array<BackgroundJob | null> = [];
    let err = '';
    for (const id of ids) {
      const n = id.startsWith('%') ? resolveJobSpec(entries, id) : null;
      const b =
        n !== null
          ? this.bg.find((x) => x.n === n)
          : /^\d+$/.test(id)
            ? this.bg.find((x) => jobPid(x.n) === Number(id))
            : undefined;
      resolved.push(b ?? null);
      if (!b)
        err += id.startsWith('%')
          ? `bash: wait: ${id}: no such job\n`
          : /^\d+$/.test(id)
            ? `bash: wait: pid ${id} is not a child of this shell\n`
            : `bash: wait: \`${id}': not a pid or valid job spec\n`;
    }
    const all = ids.length === 0;
    const waited = all ? [...this.bg] : resolved.filter((b): b is BackgroundJob => b !== null);
    const ended = (b: BackgroundJob) => b.killed !== undefined || b.job.done();
    // the last id's status (0 without ids; 127 when the last id is no job of this shell)
    const status = () => {
      if (all) return 0;
      const last = resolved[resolved.length - 1];
      if (!last) return 127;
      return last.killed ? 128 + last.killed.sig : (this.jobStatus.get(last.n) ?? 0);
    };
    if (waited.every(ended)) {
      this.reapBackground(this.pendingNotices);
      return { kind: 'done', out: { stdout: '', stderr: err, exitCode: status() } };
    }
    let interrupted = false;
    const job: Job = {
      done: () => interrupted || waited.every(ended),
      deadlineNs: () => Math.min(...waited.map((b) => (ended(b) ? this.lab.nowNs : b.job.deadlineNs()))),
      interrupt: () => {
        interrupted = true;
      },
      finish: () => {
        // the jobs' own notices (and exit statuses) come with wait's end, before the next prompt
        this.reapBackground(this.pendingNotices);
        return { stdout: '', stderr: err, exitCode: interrupted ? 130 : status() };
      },
    };
    return { kind: 'job', job };
  }

  /** Job notices to record after the current line's record (a job `kill` ended). */
  private pendingNotices: RunRecord[] = [];

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

/** Mark a record as the typed line's own (and, after its first pipeline, continued). */
function tag(r: RunRecord, continued: boolean, line?: string): Tagged {
  if (continued) return { ...r, foreground: true, continued: true };
  return line === undefined ? { ...r, foreground: true } : { ...r, foreground: true, line };
}

/** Keep at most MAX_OUTPUT_CHARS of a text; null when it fits. */
export function capText(text: string): { kept: string; dropped: number } | null {
  if (text.length <= MAX_OUTPUT_CHARS) return null;
  return { kept: text.slice(0, MAX_OUTPUT_CHARS), dropped: text.length - MAX_OUTPUT_CHARS };
}

function record(
  host: string,
  command: string,
  startNs: number,
  endNs: number,
  out: CommandOutput,
): RunRecord {
  let { stdout, stderr } = out;
  const note = (what: string, dropped: number) =>
    `lab: ${what} of "${command}" cut at ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters (${dropped.toLocaleString('en-US')} more not kept)\n`;
  const so = capText(stdout);
  const se = capText(stderr);
  // what the tool itself did not keep while it ran (output-cap.ts), and what is cut here
  const cut = (so?.dropped ?? 0) + (out.stdoutCut ?? 0);
  if (so) stdout = so.kept;
  if (cut > 0 && !stdout.endsWith('\n')) stdout += '\n';
  if (se) stderr = se.kept.endsWith('\n') ? se.kept : `${se.kept}\n`;
  if (cut > 0) stderr += note('output', cut);
  if (se) stderr += note('error output', se.dropped);
  return {
    host,
    command,
    startNs,
    endNs,
    exitCode: out.exitCode,
    output: stdout + stderr,
    stderr,
    result: out.result ?? null,
    ...(out.stderrLead ? { stderrLead: out.stderrLead } : {}),
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
