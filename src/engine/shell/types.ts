/**
 * The shell's contract: how a command line becomes work on the model and output for the user.
 *
 * A command is parsed with the real tool's rules. It either finishes at once (`ethtool -g eth0`)
 * or starts a `Job` that the engine advances in simulated time (`iperf3 -c server -t 10`,
 * `sleep 2`). The same code serves the CLI, the UI terminal, scenario scripts and tests.
 *
 * Output: `stdout`/`stderr` hold exactly what the real tool prints. `result` is the structured
 * form (iperf3's -J document, ethtool -S as name → number, tc's qdisc list with statistics) used by
 * `--json` and the UI. A command that fails prints the real tool's error and a non-zero exit code;
 * it never throws.
 */
import type { SimTimeNs } from '../../lib/brand';

export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Structured result (iperf3 -J document, ethtool -S counters, tc qdisc list …), if the tool has one. */
  result?: unknown;
  /**
   * A prefix of `stderr` the tool prints before its stdout (tcpdump's "listening on …" banner):
   * the terminal shows it first. Absent: stdout, then stderr.
   */
  stderrLead?: string;
  /**
   * Characters of stdout the tool did not keep (it printed more than MAX_OUTPUT_CHARS while it ran,
   * output-cap.ts): the runner's note counts them.
   */
  stdoutCut?: number;
}

/** Work in simulated time started by a command. The runner advances the engine until `done()`. */
export interface Job {
  /** True once the command has finished in simulated time. */
  done(): boolean;
  /** The earliest simulated time at which the job may be done (a hint for the runner). */
  deadlineNs(): SimTimeNs;
  /** Called once after done(): the command's output. */
  finish(): CommandOutput;
  /**
   * Stop early (user pressed Ctrl-C, or `kill` sent a signal its program handles): the job must
   * become done() at the current instant or wind down in simulated time. `signal`: the signal's
   * number when not SIGINT (a tool that names it, as testpmd does).
   */
  interrupt(signal?: number): void;
  /**
   * Optional, for tools that print as they go (iperf3's per-interval lines): the stdout printed so
   * far, always a prefix of what `finish()` returns. Observational: calling it changes nothing.
   */
  progress?(): string;
  /**
   * Optional: what the tool prints on stderr as it starts (tcpdump's banner), a prefix of the
   * stderr `finish()` returns; the terminal shows it at once.
   */
  lead?(): string;
}

export type CommandOutcome = { kind: 'done'; out: CommandOutput } | { kind: 'job'; job: Job };

export const done = (stdout: string, exitCode = 0, result?: unknown, stderr = ''): CommandOutcome => ({
  kind: 'done',
  out: { stdout, stderr, exitCode, result },
});

export const fail = (stderr: string, exitCode = 1, stdout = ''): CommandOutcome => ({
  kind: 'done',
  out: { stdout, stderr: stderr.endsWith('\n') ? stderr : `${stderr}\n`, exitCode },
});

/** Tokenise a command line the way a POSIX shell does for simple commands: whitespace, quotes, backslash. */
export function tokenize(line: string): string[] | { error: string } {
  const out: string[] = [];
  let cur = '';
  let inToken = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!))
        cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inToken = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inToken = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inToken) out.push(cur);
      cur = '';
      inToken = false;
    } else {
      cur += c;
      inToken = true;
    }
  }
  if (quote) return { error: `unexpected EOF while looking for matching \`${quote}'` };
  if (inToken) out.push(cur);
  return out;
}
