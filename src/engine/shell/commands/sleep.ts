/**
 * GNU coreutils `sleep NUMBER[SUFFIX]...`: advances simulated time. Suffixes s, m, h, d; several
 * arguments add up; floats allowed. Errors as coreutils prints them.
 */
import type { Lab } from '../../lab/lab';
import { type CommandOutcome, fail, type Job } from '../types';

const MAX_SLEEP_S = 100 * 86400; // the engine's integer-ns clock is exact to ~104 days

/** A coreutils duration ("1.5", "2m", "1h", "1d"), in seconds; null when malformed. */
export function parseDurationSeconds(a: string): number | null {
  const m = /^(\d+\.?\d*|\.\d+)([smhd]?)$/.exec(a);
  if (!m) return null;
  const mult = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * mult;
}

export function runSleep(argv: string[], lab: Lab): CommandOutcome {
  if (argv.length === 0) return fail("sleep: missing operand\nTry 'sleep --help' for more information.");
  let total = 0;
  for (const a of argv) {
    const secs = parseDurationSeconds(a);
    if (secs === null)
      return fail(`sleep: invalid time interval ‘${a}’\nTry 'sleep --help' for more information.`);
    total += secs;
  }
  if (total > MAX_SLEEP_S) {
    return fail(
      `sleep: ${total} seconds is longer than the lab's clock can run (100 days); use a shorter interval`,
    );
  }
  const until = lab.nowNs + Math.round(total * 1e9);
  let stoppedAt = Number.NaN;
  const job: Job = {
    done: () => lab.nowNs >= until || !Number.isNaN(stoppedAt),
    deadlineNs: () => (Number.isNaN(stoppedAt) ? until : stoppedAt),
    interrupt: () => {
      stoppedAt = lab.nowNs;
    },
    finish: () => ({ stdout: '', stderr: '', exitCode: Number.isNaN(stoppedAt) ? 0 : 130 }),
  };
  return { kind: 'job', job };
}
