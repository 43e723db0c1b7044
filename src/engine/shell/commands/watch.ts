/**
 * procps-ng `watch [-n SECS] [-t] COMMAND`: run COMMAND (through the shell, so pipes work) every
 * SECS of simulated time and show its output full screen under watch's title line, until Ctrl-C.
 * Each refresh starts with the terminal's clear sequence, so the lab's terminal shows the newest
 * screen, as curses redraws it. COMMAND must end at once (ethtool, tc -s, ip -s link, lab …).
 */
import { CappedText } from '../output-cap';
import type { Instance, Lab } from '../../lab/lab';
import { utcFields } from '../../../lib/time';
import { type CommandOutcome, done, fail, type Job } from '../types';
import { labNote, WATCH_HELP } from './real-help';
import { CLEAR_SEQUENCE } from './builtins';

const WIDTH = 80;
/** The session's cap for commands without an end (runner.ts DEFAULT_UNBOUNDED_LIMIT_NS). */
const WATCH_LIMIT_NS = 60e9;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** ctime(3) without the newline: "Mon Dec  2 17:00:01 2024". */
export function ctime(unixS: number): string {
  const f = utcFields(unixS);
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[f.weekday]} ${MONTHS[f.month - 1]} ${String(f.day).padStart(2)} ${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)} ${f.year}`;
}

/** watch's title: "Every 1.0s: CMD" on the left, "HOST: DATE" on the right of an 80-column line. */
export function watchTitle(intervalS: number, cmd: string, host: string, unixS: number): string {
  const left = `Every ${intervalS.toFixed(1)}s: ${cmd}`;
  const right = `${host}: ${ctime(unixS)}`;
  const room = WIDTH - right.length - 1;
  const l = left.length > room ? `${left.slice(0, Math.max(0, room - 3))}...` : left;
  return `${l}${' '.repeat(Math.max(1, WIDTH - l.length - right.length))}${right}\n\n`;
}

export function runWatch(
  args: string[],
  lab: Lab,
  host: Instance,
  exec: (line: string) => CommandOutcome,
): CommandOutcome {
  let interval = 2;
  let title = true;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-n' || a === '--interval') {
      const v = Number(args[++i]);
      if (!Number.isFinite(v)) return fail(`watch: failed to parse argument: '${args[i] ?? ''}'`);
      interval = Math.max(0.1, v);
    } else if (/^-n\d/.test(a)) interval = Math.max(0.1, Number(a.slice(2)));
    else if (a.startsWith('--interval=')) interval = Math.max(0.1, Number(a.slice(11)));
    else if (a === '-t' || a === '--no-title') title = false;
    else if (a === '-h' || a === '--help') return done(WATCH_HELP + labNote('watch', '-n SECS and -t'));
    else if (a === '--') {
      i++;
      break;
    } else if (a.startsWith('-'))
      return fail(`watch: option ${a} is not simulated in ec2-netlab (-n SECS, -t)`);
    else break;
  }
  const cmd = args.slice(i).join(' ');
  if (cmd === '') return fail('\nUsage:\n watch [options] command\n');
  const out = new CappedText();
  let stopped = false;
  let next = lab.nowNs;
  let failure: string | null = null;
  const refresh = () => {
    const o = exec(cmd);
    let text: string;
    if (o.kind === 'job') {
      o.job.interrupt();
      failure = `watch: ${cmd}: only commands that end at once can be watched in ec2-netlab\n`;
      stopped = true;
      return;
    } else text = o.out.stdout + o.out.stderr;
    const head = title
      ? watchTitle(interval, cmd, host.name, lab.wallClockStartS + Math.floor(lab.nowNs / 1e9))
      : '';
    out.add(`${CLEAR_SEQUENCE}${head}${text}`);
    next = lab.nowNs + Math.round(interval * 1e9);
  };
  const capNs = lab.nowNs + WATCH_LIMIT_NS;
  refresh();
  if (stopped) return fail(failure!);
  const job: Job = {
    done: () => {
      if (!stopped && lab.nowNs >= capNs) {
        // no end of its own: stopped as the session stops unbounded commands (iperf3 -t 0)
        stopped = true;
        failure = `lab: "watch ${args.join(' ')}" had not ended after ${WATCH_LIMIT_NS / 1e9} s of simulated time; interrupted as Ctrl-C would\n`;
        return true;
      }
      if (!stopped && lab.nowNs >= next) refresh();
      return stopped;
    },
    // the next refresh (the session waits for it even in an idle lab)
    deadlineNs: () => (stopped ? lab.nowNs : Math.min(next, capNs)),
    interrupt: () => {
      // watch ends curses on SIGINT: the cursor goes to a new line under the screen
      if (!stopped) out.add('\n');
      stopped = true;
    },
    progress: () => out.text,
    finish: () => ({ stdout: out.text, stderr: failure ?? '', exitCode: 0, stdoutCut: out.cut }),
  };
  return { kind: 'job', job };
}
