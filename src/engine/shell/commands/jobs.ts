/**
 * bash 5.2's `kill` and `jobs` builtins over the session's background jobs (builtins/kill.def,
 * builtins/jobs.def, jobs.c), with bash's messages, and what a signal does to each lab tool: the
 * handlers the real tools install (iperf3 iperf_catch_sigend: INT TERM HUP; tcpdump cleanup: INT
 * TERM HUP PIPE; iputils ping: INT ALRM; sysstat sar: INT; dnsperf: INT; ab: INT; procps watch:
 * INT TERM HUP; DPDK testpmd signal_handler: INT TERM, re-raised after its summary), the kernel's
 * default action for the rest. The session (runner.ts) owns the jobs; this file only parses and
 * decides.
 */
import type { CommandOutput } from '../types';

/** A background job as `jobs` lists it. */
export interface JobEntry {
  n: number;
  pid: number;
  command: string;
}

/** What kill and jobs need from the session. */
export interface JobControl {
  /** The running background jobs, oldest first. */
  jobs(): readonly JobEntry[];
  /** Deliver `sig` to job `n` (every process of it, as kill does to a job's process group). */
  signal(n: number, sig: number): void;
}

/** Linux's signal names by number, as `kill -l` lists them (x86-64; 32 and 33 are glibc's). */
const NAMES: Record<number, string> = {
  1: 'HUP',
  2: 'INT',
  3: 'QUIT',
  4: 'ILL',
  5: 'TRAP',
  6: 'ABRT',
  7: 'BUS',
  8: 'FPE',
  9: 'KILL',
  10: 'USR1',
  11: 'SEGV',
  12: 'USR2',
  13: 'PIPE',
  14: 'ALRM',
  15: 'TERM',
  16: 'STKFLT',
  17: 'CHLD',
  18: 'CONT',
  19: 'STOP',
  20: 'TSTP',
  21: 'TTIN',
  22: 'TTOU',
  23: 'URG',
  24: 'XCPU',
  25: 'XFSZ',
  26: 'VTALRM',
  27: 'PROF',
  28: 'WINCH',
  29: 'IO',
  30: 'PWR',
  31: 'SYS',
};
for (let n = 34; n <= 64; n++)
  NAMES[n] = n === 34 ? 'RTMIN' : n <= 49 ? `RTMIN+${n - 34}` : n === 64 ? 'RTMAX' : `RTMAX-${64 - n}`;

/** strsignal(3) (glibc), what bash prints for a job a signal ended. */
const DESCRIPTIONS: Record<number, string> = {
  1: 'Hangup',
  2: 'Interrupt',
  3: 'Quit',
  4: 'Illegal instruction',
  5: 'Trace/breakpoint trap',
  6: 'Aborted',
  7: 'Bus error',
  8: 'Floating point exception',
  9: 'Killed',
  10: 'User defined signal 1',
  11: 'Segmentation fault',
  12: 'User defined signal 2',
  13: 'Broken pipe',
  14: 'Alarm clock',
  15: 'Terminated',
  16: 'Stack fault',
  24: 'CPU time limit exceeded',
  25: 'File size limit exceeded',
  26: 'Virtual timer expired',
  27: 'Profiling timer expired',
  29: 'I/O possible',
  30: 'Power failure',
  31: 'Bad system call',
};

/** What bash's job line says for a job `sig` ended. */
export const signalDescription = (sig: number): string =>
  DESCRIPTIONS[sig] ?? (sig >= 34 ? `Real-time signal ${sig - 34}` : `Signal ${sig}`);

/** `kill -l` as bash 5.2 prints it on Linux: five a line, each `%2d) SIG%s` and a tab. */
export function signalList(): string {
  let out = '';
  let k = 0;
  for (const n of Object.keys(NAMES).map(Number)) {
    out += `${String(n).padStart(2)}) SIG${NAMES[n]}\t`;
    if (++k % 5 === 0) out = `${out.slice(0, -1)}\n`;
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** A signal given as a number, NAME or SIGNAME (any case, as kill's decode_signal takes it); null if none. */
export function signalNumber(spec: string): number | null {
  if (/^\d+$/.test(spec)) {
    const n = Number(spec);
    return n === 0 || NAMES[n] ? n : null;
  }
  const name = spec.toUpperCase().replace(/^SIG/, '');
  for (const [n, v] of Object.entries(NAMES)) if (v === name) return Number(n);
  return null;
}

/**
 * What the job's program does on `sig`: 'caught' (its handler winds it down: iperf3 prints its
 * summary, tcpdump its counts; the job ends with the program's own exit status), 'reraise' (a
 * handler, then death by the signal: testpmd), 'ignore' (default action: none), 'stop' (not
 * simulated), 'terminate' (the default: it ends at once, printing nothing more).
 */
export function signalEffect(
  command: string,
  sig: number,
): 'caught' | 'reraise' | 'ignore' | 'stop' | 'terminate' {
  if (sig === 17 || sig === 23 || sig === 28 || sig === 18) return 'ignore';
  if (sig >= 19 && sig <= 22) return 'stop';
  const words = command.trim().split(/\s+/);
  let i = words[0] === 'sudo' ? 1 : 0;
  if (words[i] === 'timeout') i += 2; // timeout passes the signal to its command
  const caught: Record<string, number[]> = {
    iperf3: [1, 2, 15],
    tcpdump: [1, 2, 13, 15],
    ping: [2, 14],
    sar: [2],
    dnsperf: [2],
    ab: [2],
    watch: [1, 2, 15],
  };
  const tool = words[i] ?? '';
  if (tool === 'dpdk-testpmd' && (sig === 2 || sig === 15)) return 'reraise';
  return caught[tool]?.includes(sig) ? 'caught' : 'terminate';
}

const KILL_USAGE =
  'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n';
const out = (stdout: string, stderr: string, exitCode: number): CommandOutput => ({
  stdout,
  stderr,
  exitCode,
});

/** bash's current (+) and previous (-) job markers: the newest job and the one before it. */
export function jobMarker(jobs: readonly JobEntry[], n: number): '+' | '-' | ' ' {
  const k = jobs.findIndex((j) => j.n === n);
  return k === jobs.length - 1 ? '+' : k === jobs.length - 2 ? '-' : ' ';
}

/** Resolve a jobspec (%N, %%, %+, %-, %string, %?string) to a job, or bash's message. */
function findJob(
  jobs: readonly JobEntry[],
  spec: string,
  builtin: string,
): { job: JobEntry } | { error: string } {
  const s = spec.slice(1);
  const none = { error: `bash: ${builtin}: ${spec}: no such job\n` };
  let hits: JobEntry[];
  if (s === '' || s === '%' || s === '+') hits = jobs.slice(-1);
  else if (s === '-') hits = jobs.length > 1 ? [jobs[jobs.length - 2]!] : jobs.slice(-1);
  else if (/^\d+$/.test(s)) hits = jobs.filter((j) => j.n === Number(s));
  else if (s.startsWith('?')) hits = jobs.filter((j) => j.command.includes(s.slice(1)));
  else hits = jobs.filter((j) => j.command.startsWith(s));
  if (hits.length > 1) return { error: `bash: ${builtin}: ${s.replace(/^\?/, '')}: ambiguous job spec\n` };
  return hits.length === 1 ? { job: hits[0]! } : none;
}

/** A jobspec's job number, or null when it names none (or several). */
export function resolveJobSpec(jobs: readonly JobEntry[], spec: string): number | null {
  const r = findJob(jobs, spec, 'wait');
  return 'job' in r ? r.job.n : null;
}

/** bash's `kill`. */
export function runKill(args: string[], ctl: JobControl): CommandOutput {
  let sig = 15;
  let i = 0;
  const a0 = args[0];
  if (a0 === undefined) return out('', KILL_USAGE, 2);
  if (a0 === '-l' || a0 === '-L') {
    if (args.length === 1) return out(signalList(), '', 0);
    let so = '';
    let se = '';
    for (const a of args.slice(1)) {
      if (/^\d+$/.test(a)) {
        const n = Number(a) > 128 ? Number(a) - 128 : Number(a);
        if (NAMES[n]) so += `${NAMES[n]}\n`;
        else se += `bash: kill: ${a}: invalid signal specification\n`;
      } else {
        const n = signalNumber(a);
        if (n === null || n === 0) se += `bash: kill: ${a}: invalid signal specification\n`;
        else so += `${n}\n`;
      }
    }
    return out(so, se, se ? 1 : 0);
  }
  if (a0 === '-s' || a0 === '-n') {
    const v = args[1];
    if (v === undefined) return out('', `bash: kill: ${a0}: option requires an argument\n`, 1);
    const n = signalNumber(v);
    if (n === null) return out('', `bash: kill: ${v}: invalid signal specification\n`, 1);
    sig = n;
    i = 2;
  } else if (a0.startsWith('-') && a0 !== '-' && a0 !== '--') {
    const n = signalNumber(a0.slice(1));
    if (n === null) return out('', `bash: kill: ${a0.slice(1)}: invalid signal specification\n`, 1);
    sig = n;
    i = 1;
  }
  if (args[i] === '--') i++;
  const targets = args.slice(i);
  if (targets.length === 0) return out('', KILL_USAGE, 2);
  if (sig >= 19 && sig <= 22)
    return out(
      '',
      `bash: kill: SIG${NAMES[sig]}: stopping a job is not simulated in ec2-netlab (the lab's tools cannot pause mid-run)\n`,
      1,
    );
  let err = '';
  for (const t of targets) {
    const jobs = ctl.jobs();
    let job: JobEntry | undefined;
    if (t.startsWith('%')) {
      const r = findJob(jobs, t, 'kill');
      if ('error' in r) {
        err += r.error;
        continue;
      }
      job = r.job;
    } else if (/^-?\d+$/.test(t)) {
      const pid = Math.abs(Number(t));
      job = jobs.find((j) => j.pid === pid);
      if (!job) {
        // the instance's own processes (pid 1 is systemd) belong to root; the user is ec2-user
        err +=
          pid >= 1 && pid < 1000
            ? `bash: kill: (${t}) - Operation not permitted\n`
            : `bash: kill: (${t}) - No such process\n`;
        continue;
      }
    } else {
      err += `bash: kill: ${t}: arguments must be process or job IDs\n`;
      continue;
    }
    if (sig !== 0) ctl.signal(job.n, sig);
  }
  return out('', err, err ? 1 : 0);
}

const JOBS_USAGE = 'jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n';

/** bash's `jobs` (every job here is running: stopping one is not simulated). */
export function runJobs(args: string[], ctl: JobControl): CommandOutput {
  let long = false;
  let pids = false;
  let stopped = false;
  const specs: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') && a.length > 1 && specs.length === 0) {
      for (const c of a.slice(1)) {
        if (c === 'l') long = true;
        else if (c === 'p') pids = true;
        else if (c === 'r') stopped = false;
        else if (c === 's') stopped = true;
        else if (c === 'n' || c === 'x')
          return out('', `bash: jobs: -${c}: not simulated in ec2-netlab (-l, -p, -r, -s)\n`, 1);
        else return out('', `bash: jobs: -${c}: invalid option\n${JOBS_USAGE}`, 2);
      }
    } else specs.push(a);
  }
  const all = ctl.jobs();
  let list: JobEntry[] = [...all];
  let err = '';
  if (specs.length > 0) {
    list = [];
    for (const s of specs) {
      const r = s.startsWith('%') ? findJob(all, s, 'jobs') : findJob(all, `%${s}`, 'jobs');
      if ('error' in r)
        err += 'error' in r && s.startsWith('%') ? r.error : `bash: jobs: ${s}: no such job\n`;
      else list.push(r.job);
    }
  }
  if (stopped) list = [];
  let so = '';
  for (const j of list) {
    const m = jobMarker(all, j.n);
    if (pids) so += `${j.pid}\n`;
    else if (long) so += `[${j.n}]${m} ${j.pid} ${'Running'.padEnd(24)}${j.command} &\n`;
    else so += `[${j.n}]${m}  ${'Running'.padEnd(24)}${j.command} &\n`;
  }
  return out(so, err, err ? 1 : 0);
}
