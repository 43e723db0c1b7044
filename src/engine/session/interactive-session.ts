/**
 * An interactive shell session on a lab, for the UI's terminal: commands start at the current
 * simulated instant and time moves only when the caller advances it (play, step, "run until").
 *
 * Guarantees: the CLI's rules (it drives a `LabSession`: the 60 s cap on unbounded commands,
 * background jobs and their "Done" lines), polled on an absolute grid so where the caller's chunks
 * stop never shows; a foreground command holds the prompt, `line &` runs in the background,
 * `interrupt()` is Ctrl-C; output comes as the tool prints it (progressively for iperf3's
 * intervals); the log of (time, line | interrupt) replayed on a lab rebuilt from the same scenario
 * gives the same state and a byte-identical transcript (`replaySession`).
 */
import type { Scenario } from '../../scenario/schema';
import type { Lab } from '../lab/lab';
import {
  createLab,
  LabSession,
  MAX_OUTPUT_CHARS,
  POLL_GRID_NS,
  type RunOptions,
  type RunRecord,
  splitHostPrefix,
} from './runner';

/** One thing the user did, at a simulated instant: what rewind replays. */
export type SessionLogEntry =
  | { atNs: number; kind: 'line'; line: string }
  | { atNs: number; kind: 'interrupt' };

/** A piece of terminal output. `input` echoes a submitted line (the UI draws the prompt before it). */
export interface OutputChunk {
  atNs: number;
  host: string;
  stream: 'input' | 'stdout' | 'stderr';
  text: string;
}

export interface AdvanceResult {
  /** Events the model processed. */
  events: number;
  /** True when `toNs` was reached (false: the event budget ran out first). */
  reached: boolean;
}

export class InteractiveSession {
  readonly session: LabSession;
  private readonly log: SessionLogEntry[] = [];
  private readonly pending: OutputChunk[] = [];
  private readonly all: OutputChunk[] = [];
  /** Characters of the foreground job's stdout already emitted through `progress()`. */
  private streamed = 0;
  /** The job Ctrl-C was pressed for (a job killed by SIGINT gets bash's newline after the ^C). */
  private interruptedJob: unknown = null;
  /** The foreground job whose stderr lead (Job.lead) was shown, and its length. */
  private leadJob: unknown = null;
  private leadLen = 0;
  /** The foreground job whose output reached MAX_OUTPUT_CHARS while it ran (its note was shown). */
  private cappedJob: unknown = null;
  /** Called with every command's records as they end (the lessons' observer reads results here). */
  onRecords: ((records: readonly RunRecord[]) => void) | null = null;

  constructor(
    readonly lab: Lab,
    opts: Omit<RunOptions, 'chunkEvents' | 'onProgress'> = {},
  ) {
    this.session = new LabSession(lab, { ...opts, absolutePolling: true });
  }

  get nowNs(): number {
    return this.lab.nowNs;
  }

  /** The foreground command while one runs (the prompt is hidden meanwhile). */
  get foreground(): { host: string; command: string; startNs: number } | null {
    const f = this.session.foreground;
    return f ? { host: f.host, command: f.command, startNs: f.startNs } : null;
  }

  get backgroundCount(): number {
    return this.session.backgroundCount;
  }

  /** What the user did so far (for replay). */
  get commandLog(): readonly SessionLogEntry[] {
    return this.log;
  }

  /** Every output chunk so far. */
  get transcript(): readonly OutputChunk[] {
    return this.all;
  }

  /** Output produced since the last call. */
  drainOutput(): OutputChunk[] {
    return this.pending.splice(0, this.pending.length);
  }

  /**
   * Type a line and press Enter, at the current simulated instant. Refused (returns false, nothing
   * logged) while a foreground command runs: the terminal has no prompt then.
   */
  submit(line: string): boolean {
    if (this.session.foreground) return false;
    this.log.push({ atNs: this.lab.nowNs, kind: 'line', line });
    const { host } = splitHostPrefix(this.lab, line);
    this.emit(host, 'input', `${line}\n`);
    const started = this.session.start(line);
    this.streamed = 0;
    this.emitRecords(started.records);
    this.showLead();
    // what the tool printed as it started (iperf3's "Connecting to host …", watch's first screen)
    // shows at once: the submit instant is in the log, so a replay polls here too
    this.pollProgress(true);
    return true;
  }

  /** Ctrl-C: interrupt the foreground job. False when there is none. */
  interrupt(): boolean {
    const fg = this.session.foreground;
    if (!fg) return false;
    this.log.push({ atNs: this.lab.nowNs, kind: 'interrupt' });
    // bash echoes ^C where the cursor is; the tool then prints its own interrupted report
    this.emit(fg.host, 'stdout', '^C');
    this.interruptedJob = fg.job;
    this.session.interrupt();
    return true;
  }

  /**
   * Move simulated time to `toNs`, processing at most `maxEvents` events. Jobs are checked, and
   * progressive output polled, at the session's checkpoints only. `onGridPoint` is called at each
   * 1 ms grid checkpoint reached while jobs run (the service samples its counters there).
   */
  advance(
    toNs: number,
    maxEvents = Number.POSITIVE_INFINITY,
    onGridPoint?: (nowNs: number) => void,
  ): AdvanceResult {
    let events = 0;
    const startEvents = this.lab.sched.processed;
    while (this.lab.nowNs < toNs && events < maxEvents) {
      const before = this.lab.nowNs;
      const beforeEvents = this.lab.sched.processed;
      const records = this.session.step(toNs, maxEvents - events);
      events = this.lab.sched.processed - startEvents;
      if (records.some((r) => r.foreground)) {
        // the foreground job ended (and the line's next pipeline may have started): its output
        // first, then what the next one printed so far
        this.emitRecords(records);
        this.pollProgress();
      } else {
        this.pollProgress();
        this.emitRecords(records);
      }
      if (onGridPoint && this.session.atCheckpoint && this.lab.nowNs % POLL_GRID_NS === 0)
        onGridPoint(this.lab.nowNs);
      // an observer asked the scheduler to stop right after an event (Scheduler.halted)
      if (this.lab.sched.halted) break;
      // a step with no events and no time moved (nothing scheduled, toNs infinite) would spin
      if (this.lab.nowNs === before && this.lab.sched.processed === beforeEvents && records.length === 0)
        break;
    }
    return { events, reached: this.lab.nowNs >= toNs };
  }

  /** A foreground job that prints a banner on stderr as it starts: show it now (once). */
  private showLead(): void {
    const fg = this.session.foreground;
    if (!fg || fg.job === this.leadJob || !fg.job.lead) return;
    this.leadJob = fg.job;
    const lead = fg.job.lead();
    this.leadLen = lead.length;
    if (lead) this.emit(fg.host, 'stderr', lead);
  }

  private pollProgress(atSubmit = false): void {
    this.showLead();
    const fg = this.session.foreground;
    if (!fg?.job.progress) return;
    // only at checkpoints (or the submit instant), so replay emits the same chunks at the same instants
    if (!atSubmit && !this.session.atCheckpoint) return;
    // as much as the command's record keeps (runner's MAX_OUTPUT_CHARS), so the record's stdout
    // still starts with what was streamed
    const text = fg.job.progress();
    const end = Math.min(text.length, MAX_OUTPUT_CHARS);
    if (end > this.streamed) {
      this.emit(fg.host, 'stdout', text.slice(this.streamed, end));
      this.streamed = end;
    }
    // the cap reached while it runs: said now (the record's note counts what was not kept)
    if (end === MAX_OUTPUT_CHARS && this.cappedJob !== fg.job) {
      this.cappedJob = fg.job;
      // on a line of its own (the cut may fall mid-line)
      const nl = text.charCodeAt(end - 1) === 10 ? '' : '\n';
      this.emit(
        fg.host,
        'stderr',
        `${nl}lab: output of "${fg.command}" reached ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters, the lab's limit for a command; what it prints from here on is not kept\n`,
      );
    }
  }

  private emitRecords(records: (RunRecord & { foreground?: true })[]): void {
    if (records.length > 0) this.onRecords?.(records);
    for (const r of records) {
      const stdout = r.output.slice(0, r.output.length - r.stderr.length);
      let rest = stdout;
      if (r.foreground && this.streamed > 0) {
        // the streamed part is a prefix of the final output (Job.progress's contract)
        rest = stdout.slice(this.streamed);
        this.streamed = 0;
        // cut while it ran: the note already ended the line
        if (this.cappedJob !== null && rest === '\n') rest = '';
        this.cappedJob = null;
      }
      let stderr = r.stderr;
      if (r.foreground && this.leadLen > 0) {
        // shown when the job started
        stderr = stderr.slice(this.leadLen);
        this.leadLen = 0;
      } else if (r.stderrLead && stderr.startsWith(r.stderrLead)) {
        this.emit(r.host, 'stderr', r.stderrLead);
        stderr = stderr.slice(r.stderrLead.length);
      }
      if (
        r.foreground &&
        this.interruptedJob !== null &&
        this.session.foreground?.job !== this.interruptedJob
      ) {
        // a job killed by SIGINT (status 130, it printed nothing more): bash moves to a new line
        if (r.exitCode === 130 && rest === '' && stderr === '') rest = '\n';
        this.interruptedJob = null;
      }
      if (rest) this.emit(r.host, 'stdout', rest);
      if (stderr) this.emit(r.host, 'stderr', stderr);
    }
  }

  private emit(host: string, stream: OutputChunk['stream'], text: string): void {
    const c: OutputChunk = { atNs: this.lab.nowNs, host, stream, text };
    this.pending.push(c);
    this.all.push(c);
  }
}

/**
 * Rebuild a session from its scenario and replay `log` up to `toNs` (entries after it are dropped:
 * rewinding forks the timeline). Deterministic: the same inputs give the same state and transcript.
 */
export function replaySession(
  scenario: Scenario,
  log: readonly SessionLogEntry[],
  toNs: number,
  opts: Omit<RunOptions, 'chunkEvents' | 'onProgress'> = {},
  /** Called with the new lab before anything runs (attach observers such as the path recorder here). */
  prepare?: (lab: Lab) => void,
): InteractiveSession {
  const lab = createLab(scenario);
  prepare?.(lab);
  const s = new InteractiveSession(lab, opts);
  for (const e of log) {
    if (e.atNs > toNs) break;
    s.advance(e.atNs);
    if (e.kind === 'line') s.submit(e.line);
    else s.interrupt();
  }
  s.advance(toNs);
  return s;
}
