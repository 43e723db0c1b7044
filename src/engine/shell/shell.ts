/**
 * The lab shell: one command line on one instance → a CommandOutcome. The same interpreter serves
 * the CLI, the UI terminal, scenario scripts and tests. Tokenises like a POSIX shell for simple
 * commands; anything that is not a modelled tool gets bash's "command not found".
 */
import { CappedText } from './output-cap';
import type { Instance, Lab } from '../lab/lab';
import { runAb } from './commands/ab';
import { runAws } from './commands/aws';
import { runCurl } from './commands/curl';
import { runDig } from './commands/dig';
import { runDnsperf } from './commands/dnsperf';
import { runDpdkTestpmd } from './commands/dpdk-testpmd';
import { runUdpEcho } from './commands/udp-echo';
import { runEc2Metadata } from './commands/ec2-metadata';
import { runEthtool } from './commands/ethtool';
import { runIp } from './commands/ip';
import { vpcState } from '../vpc/state';
import { tunnelStack } from './commands/ip-tunnel';
import { runLab } from './commands/lab';
import { runPing } from './commands/ping';
import { runNetperf, runNetserver } from './commands/netperf';
import { runIperf2 } from './commands/iperf2';
import { runIperf3 } from './commands/iperf3';
import { runSysctl } from './commands/sysctl';
import { runSar } from './commands/sar';
import { parseDurationSeconds, runSleep } from './commands/sleep';
import { runTc } from './commands/tc';
import { runTcpdump } from './commands/tcpdump';
import {
  CLEAR_SEQUENCE,
  runCd,
  runDate,
  runHelp,
  runHistory,
  runLs,
  runPwd,
  runRm,
  runType,
  runWhich,
} from './commands/builtins';
import { helpText } from './commands/help-texts';
import { runMan } from './commands/man';
import {
  CLEAR_USAGE,
  HOSTNAME_HELP,
  labNote,
  SUDO_HELP,
  SUDO_USAGE,
  SUDO_VERSION,
  WHICH_HELP,
  WHICH_VERSION,
} from './commands/real-help';
import { runWatch } from './commands/watch';
import { FILTERS, type Filter, type FilterIo, streams } from './commands/text-tools';
import { fileText, HOME, resolvePath } from '../lab/files';
import { expandPattern, isPattern, type PatternWord } from './glob';
import { type AndOr, parseLine, type Pipeline, type Redirect, type Word, wordLiteral } from './parse';
import { type CommandOutcome, type CommandOutput, done, fail, type Job } from './types';

/** The lab tools and builtins that produce output (the switch below); filters are in text-tools.ts. */
export function execLine(lab: Lab, host: Instance, line: string): CommandOutcome {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return done('');
  const parsed = parseLine(trimmed);
  if (!parsed.ok) return fail(parsed.error, parsed.exitCode);
  if (parsed.lists.length === 0) return done('');
  if (parsed.lists.some((l) => l.background))
    return fail(
      'bash: a background job (&) inside a command is not simulated in ec2-netlab: end the line with &',
      2,
    );
  const pipelines = parsed.lists.flatMap((l, i) =>
    l.pipelines.map((p, k) => ({
      p,
      op: k === 0 ? (i === 0 ? null : (';' as const)) : l.ops[k - 1]!,
    })),
  );
  if (pipelines.length === 1) return execPipeline(lab, host, pipelines[0]!.p);
  return runSequence(lab, host, pipelines);
}

/** An and-or list (`a && b || c`) as one outcome (a background `a && b &`). */
export function execAndOr(lab: Lab, host: Instance, l: AndOr): CommandOutcome {
  if (l.pipelines.length === 1) return execPipeline(lab, host, l.pipelines[0]!);
  return runSequence(
    lab,
    host,
    l.pipelines.map((p, k) => ({ p, op: k === 0 ? null : l.ops[k - 1]! })),
  );
}

/**
 * A list run as one job (`timeout 5 a; b` keeps its own rules; the session runs a typed line's
 * pipelines one by one itself, each with its own record): output concatenated, stdout then stderr.
 */
function runSequence(
  lab: Lab,
  host: Instance,
  items: Array<{ p: Pipeline; op: ';' | '&&' | '||' | null }>,
): CommandOutcome {
  // at most the lab's cap while it runs, the rest counted (output-cap.ts)
  const stdout = new CappedText();
  let stderr = '';
  let status = 0;
  let k = 0;
  let cur: Job | null = null;
  let interrupted = false;
  const absorb = (o: CommandOutput) => {
    stdout.add(o.stdout);
    stdout.cut += o.stdoutCut ?? 0;
    stderr += o.stderr;
    status = o.exitCode;
  };
  const advance = () => {
    while (!cur && k < items.length && !interrupted) {
      const { p, op } = items[k++]!;
      if ((op === '&&' && status !== 0) || (op === '||' && status === 0)) continue;
      const o = execPipeline(lab, host, p);
      if (o.kind === 'done') absorb(o.out);
      else cur = o.job;
    }
  };
  advance();
  const out = (): CommandOutput => ({
    stdout: stdout.text,
    stderr,
    exitCode: status,
    ...(stdout.cut > 0 ? { stdoutCut: stdout.cut } : {}),
  });
  if (!cur) return { kind: 'done', out: out() };
  const job: Job = {
    done: () => {
      while (cur?.done()) {
        absorb(cur.finish());
        cur = null;
        advance();
      }
      return cur === null;
    },
    deadlineNs: () => cur?.deadlineNs() ?? lab.nowNs,
    interrupt: (sig) => {
      interrupted = true;
      cur?.interrupt(sig);
    },
    progress: () => stdout.text + (cur?.progress?.() ?? ''),
    finish: out,
  };
  return { kind: 'job', job };
}

/**
 * Expand a word as bash does: a leading unquoted `~` (tilde expansion), `$(…)` substitutions (only
 * commands that end at once; unquoted results are split on blanks), then pathname expansion of
 * each field with an unquoted `*`, `?` or `[` against the instance's files (glob.ts).
 */
function expandWord(lab: Lab, host: Instance, w: Word): string[] | { error: CommandOutput } {
  const fields: PatternWord[] = [{ text: '', active: [] }];
  const put = (t: string, active: boolean) => {
    const f = fields[fields.length - 1]!;
    f.text += t;
    for (let i = 0; i < t.length; i++) f.active.push(active);
  };
  let touched = false;
  for (const [k, part] of w.entries()) {
    if ('lit' in part) {
      let t = part.lit;
      // tilde expansion: an unquoted ~ that starts the word, alone or before a /
      if (k === 0 && !part.quoted && (t === '~' || t.startsWith('~/'))) {
        put(HOME, false);
        t = t.slice(1);
      }
      put(t, !part.quoted);
      touched = true;
      continue;
    }
    const o = execLine(lab, host, part.sub);
    if (o.kind === 'job') {
      o.job.interrupt();
      return {
        error: {
          stdout: '',
          stderr: `bash: $(${part.sub}): only commands that end at once can be substituted in ec2-netlab\n`,
          exitCode: 1,
        },
      };
    }
    const text = o.out.stdout.replace(/\n+$/, '');
    if (o.out.stderr) return { error: { stdout: '', stderr: o.out.stderr, exitCode: o.out.exitCode } };
    if (part.quoted) {
      put(text, false);
      touched = true;
    } else {
      text.split(/[ \t\n]+/).forEach((x, i) => {
        if (i > 0) fields.push({ text: '', active: [] });
        put(x, true);
      });
      touched = touched || text !== '';
    }
  }
  if (fields.length === 1 && fields[0]!.text === '' && !touched) return [];
  const kept = fields.filter((f, i) => f.text !== '' || i === 0);
  const out: string[] = [];
  for (const f of kept) {
    if (!isPattern(f)) {
      out.push(f.text);
      continue;
    }
    const matches = expandPattern(f, globPaths(lab, host));
    if (matches.length > 0) out.push(...matches);
    else out.push(f.text); // no match: the word stays (bash without nullglob)
  }
  return out;
}

/** What a pattern can match: the instance's files and the directories that hold them. */
function globPaths(lab: Lab, host: Instance): string[] {
  return ['/home', HOME, '/tmp', ...lab.files.list(host.name).map((f) => f.path)];
}

/** The byte-level I/O of a command's redirections, checked before it runs (as bash opens them first). */
interface Redirections {
  stdin: string | null;
  /** Where stdout / stderr go: the terminal (or pipe), a file, or the other stream. */
  out: { kind: 'term' } | { kind: 'file'; path: string; append: boolean } | { kind: 'dup' };
  err: { kind: 'term' } | { kind: 'file'; path: string; append: boolean } | { kind: 'dup' };
}

function openRedirections(
  lab: Lab,
  host: Instance,
  redirects: Redirect[],
): Redirections | { error: CommandOutput } {
  const r: Redirections = { stdin: null, out: { kind: 'term' }, err: { kind: 'term' } };
  const bad = (msg: string) => ({ error: { stdout: '', stderr: `bash: ${msg}\n`, exitCode: 1 } });
  for (const rd of redirects) {
    if (rd.op === 'dup') {
      if (rd.fd === rd.to) continue;
      if (rd.fd === 2) r.err = r.out.kind === 'file' ? { ...r.out } : { kind: 'dup' };
      else r.out = r.err.kind === 'file' ? { ...r.err } : { kind: 'dup' };
      continue;
    }
    const t = expandWord(lab, host, rd.target);
    if ('error' in t) return t;
    if (t.length !== 1)
      return bad(
        `${rd.target.map((p) => ('lit' in p ? p.lit : `$(${p.sub})`)).join('')}: ambiguous redirect`,
      );
    const name = t[0]!;
    const path = resolvePath(name);
    if (!path.ok) return bad(path.error);
    if (rd.op === '<') {
      const f = lab.files.read(host.name, path.path);
      if (!f) return bad(`${name}: No such file or directory`);
      r.stdin = fileText(f.data);
      continue;
    }
    const target = { kind: 'file' as const, path: path.path, append: rd.op === '>>' };
    // bash truncates a `>` target when it opens it, before the command runs
    if (!target.append) lab.files.write(host.name, path.path, '', lab.nowNs);
    if (rd.fd === 'both') {
      r.out = target;
      r.err = target;
    } else if (rd.fd === 1) r.out = target;
    else r.err = target;
  }
  return r;
}

/** A command resolved for a pipeline stage: a filter (text in, text out) or a lab tool / builtin. */
type Stage = { argv: string[]; redir: Redirections; filter: Filter | null; text: string };

/**
 * Run a pipeline: its first command may be any tool (a lab tool starts a job in simulated time),
 * the commands after a `|` are filters (grep, sort, awk …) applied to its stdout when it ends, or
 * as it prints for line-by-line filters. Exit status: the last command's (`!` negates); stderr is
 * not piped (unless `2>&1`).
 */
export function execPipeline(lab: Lab, host: Instance, p: Pipeline): CommandOutcome {
  // a stopped instance cannot be reached; the AWS CLI is the user's own (it starts it again)
  if (host.stopped && wordLiteral(p.commands[0]?.words[0] ?? []) !== 'aws')
    return fail(`ssh: connect to host ${host.name} port 22: Connection timed out`, 255);
  const stages: Stage[] = [];
  for (const c of p.commands) {
    const argv: string[] = [];
    for (const w of c.words) {
      const e = expandWord(lab, host, w);
      if ('error' in e) return { kind: 'done', out: e.error };
      argv.push(...e);
    }
    const redir = openRedirections(lab, host, c.redirects);
    if ('error' in redir) return { kind: 'done', out: redir.error };
    let name = argv[0];
    if (name === 'sudo' && argv.length > 1) name = argv[1];
    stages.push({ argv, redir, filter: name !== undefined ? (FILTERS[name] ?? null) : null, text: c.text });
  }
  for (let i = 1; i < stages.length; i++) {
    const s = stages[i]!;
    if (!s.filter && s.argv.length > 0 && !PIPE_TOLERANT.has(s.argv[0]!))
      return fail(
        `bash: ${s.argv[0]}: in ec2-netlab only the first command of a pipeline may be a lab tool; after | come filters (${Object.keys(FILTERS).join(', ')})`,
        2,
      );
  }
  const first = stages[0]!;
  let outcome: CommandOutcome;
  if (first.argv.length === 0) outcome = done('');
  else if (first.filter)
    outcome = { kind: 'done', out: runFilter(lab, host, first, first.redir.stdin ?? '') };
  // stdout is the terminal only for a command alone whose output is not redirected (ls's isatty)
  else outcome = runCommand(lab, host, first.argv, stages.length === 1 && first.redir.out.kind === 'term');
  const rest = stages.slice(1);
  const single = stages.length === 1;
  /** Apply the rest of the pipeline to the first command's output; write files (once, at the end). */
  const complete = (o: CommandOutput): CommandOutput => {
    let { stdout, stderr } = routeOutput(lab, host, first.redir, o);
    let status = o.exitCode;
    for (const s of rest) {
      const r = s.filter ? runFilter(lab, host, s, s.redir.stdin ?? stdout) : runCommand0(lab, host, s.argv);
      const routed = routeOutput(lab, host, s.redir, r);
      stdout = routed.stdout;
      stderr += routed.stderr;
      status = r.exitCode;
    }
    if (p.negate) status = status === 0 ? 1 : 0;
    const lead = o.stderrLead && stderr.startsWith(o.stderrLead) ? o.stderrLead : undefined;
    return {
      stdout,
      stderr,
      exitCode: status,
      result: single ? o.result : undefined,
      ...(lead ? { stderrLead: lead } : {}),
      // what the tool did not keep of its output (to the terminal: the note counts it)
      ...(single && first.redir.out.kind === 'term' && o.stdoutCut ? { stdoutCut: o.stdoutCut } : {}),
    };
  };
  if (outcome.kind === 'done') return { kind: 'done', out: complete(outcome.out) };
  const inner = outcome.job;
  const streamable =
    first.redir.out.kind === 'term' &&
    rest.every(
      (s) =>
        s.filter &&
        streams(s.argv[0]!, s.argv.slice(1)) &&
        s.redir.out.kind === 'term' &&
        s.redir.stdin === null,
    );
  const job: Job = {
    done: () => inner.done(),
    deadlineNs: () => inner.deadlineNs(),
    interrupt: (sig) => inner.interrupt(sig),
    finish: () => complete(inner.finish()),
  };
  if (inner.lead && first.redir.err.kind === 'term') job.lead = () => inner.lead!();
  if (single && first.redir.out.kind === 'term')
    job.progress = inner.progress ? () => inner.progress!() : undefined;
  else if (streamable && inner.progress)
    job.progress = () => {
      // the complete lines printed so far, through the line-by-line filters
      const text = inner.progress!();
      let s = text.slice(0, text.lastIndexOf('\n') + 1);
      for (const st of rest) s = runFilter(lab, host, st, s, true).stdout;
      return s;
    };
  return { kind: 'job', job };
}

/** Commands that may stand after a | although they ignore their input (bash runs them all the same). */
const PIPE_TOLERANT = new Set(['true', 'false', 'echo', 'date', 'hostname']);

function runCommand0(lab: Lab, host: Instance, argv: string[]): CommandOutput {
  const o = runCommand(lab, host, argv);
  return o.kind === 'done' ? o.out : { stdout: '', stderr: '', exitCode: 0 };
}

function runFilter(lab: Lab, host: Instance, s: Stage, stdin: string, dryRun = false): CommandOutput {
  const argv = s.argv[0] === 'sudo' ? s.argv.slice(1) : s.argv;
  const io: FilterIo = {
    stdin,
    read: (name) => {
      const path = resolvePath(name);
      if (!path.ok) return { error: path.error };
      const f = lab.files.read(host.name, path.path);
      return f ? { text: fileText(f.data) } : { error: `${name}: No such file or directory` };
    },
    write: (name, data, append) => {
      const path = resolvePath(name);
      if (!path.ok) return path.error;
      if (!dryRun) lab.files.write(host.name, path.path, data, lab.nowNs, append);
      return null;
    },
  };
  return s.filter!(argv.slice(1), io);
}

/** Send a command's stdout/stderr where its redirections say; returns what reaches the terminal/pipe. */
function routeOutput(
  lab: Lab,
  host: Instance,
  r: Redirections,
  o: CommandOutput,
): { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const put = (where: Redirections['out'], text: string, dupTo: 'stdout' | 'stderr') => {
    if (text === '') return;
    if (where.kind === 'term') {
      if (dupTo === 'stdout') stdout += text;
      else stderr += text;
    } else if (where.kind === 'file') lab.files.write(host.name, where.path, text, lab.nowNs, true);
    else if (dupTo === 'stdout') stderr += text;
    else stdout += text;
  };
  put(r.out, o.stdout, 'stdout');
  put(r.err, o.stderr, 'stderr');
  return { stdout, stderr };
}

function runCommand(lab: Lab, host: Instance, argv: string[], tty = true): CommandOutcome {
  let [cmd, ...args] = argv as [string, ...string[]];
  if (cmd === 'sudo') {
    // sudo 1.9.15p5: no arguments is usage() on stderr, exit 1; a lone -h (no operand after it,
    // else it is -h host) or --help is help() on stdout, exit 0
    if (args.length === 0) return fail(SUDO_USAGE);
    if ((args[0] === '-h' && args.length === 1) || args[0] === '--help')
      return done(
        SUDO_HELP +
          labNote('sudo', 'sudo COMMAND (every command runs as root here), -h and --help, -V and --version'),
      );
    // -V / --version alone: the versions ec2-user is shown (root would see configure options and paths)
    if ((args[0] === '-V' || args[0] === '--version') && args.length === 1) return done(SUDO_VERSION);
    if (args[0]!.startsWith('-'))
      return fail(
        `sudo: option ${args[0]} is not simulated in ec2-netlab (sudo COMMAND: everything runs as root here)`,
      );
    [cmd, ...args] = args as [string, ...string[]];
  }
  // the host's ENA interfaces by name: eth0 and the attached secondary ENIs' eth1 …
  const dev = (name: string) => {
    const m = /^eth(\d+)$/.exec(name);
    return m ? host.host.ifaces[Number(m[1])]?.dev : undefined;
  };
  const ifaceNames = host.host.ifaces.flatMap((ifc) => (ifc ? [ifc.dev.name] : []));
  const help = helpText(cmd, args);
  if (help) return help;
  switch (cmd) {
    case 'aws':
      return runAws(args, lab);
    case 'ab':
      return runAb(args, lab, host);
    case 'curl':
      return runCurl(args, lab, host);
    case 'dig':
      return runDig(args, lab, host);
    case 'dnsperf':
      return runDnsperf(args, lab, host);
    case 'iperf3':
      return runIperf3(args, lab, host);
    case 'iperf':
      return runIperf2(args, lab, host);
    case 'netperf':
      return runNetperf(args, lab, host);
    case 'netserver':
      return runNetserver(args, host);
    case 'dpdk-testpmd':
      return runDpdkTestpmd(args, lab, host);
    case 'udp-echo':
      return runUdpEcho(args, lab, host);
    case 'ec2-metadata':
      return runEc2Metadata(args, lab, host);
    case 'ethtool':
      return runEthtool(args, dev);
    case 'ip':
      return runIp(args, dev, {
        deviceNames: ifaceNames,
        tunnels: { peek: () => host.host.tunnels, get: () => tunnelStack(lab, host), eth0Ip: host.host.ip },
        addresses: (name) => {
          const vpc = vpcState(lab);
          const eni = vpc.enisOfInstance(host.name).find((e) => `eth${e.deviceIndex}` === name);
          if (!eni) return undefined;
          const subnet =
            vpc.subnet(eni.subnetId)?.CidrBlock ?? `${eni.ip.split('.').slice(0, 3).join('.')}.0/24`;
          return {
            primary: eni.ip,
            prefix: Number(subnet.split('/')[1]),
            secondaries: eni.secondaryIps,
            nowS: lab.nowNs / 1e9,
            deviceIndex: eni.deviceIndex,
            subnet,
            vpc: vpc.vpc.CidrBlock,
          };
        },
      });
    case 'tc':
      return runTc(
        args,
        new Map(host.host.ifaces.flatMap((ifc) => (ifc ? [[ifc.dev.name, ifc.qdisc]] : []))),
      );
    case 'ping':
      return runPing(args, lab, host);
    case 'tcpdump':
      return runTcpdump(args, lab, host);
    case 'lab':
      return runLab(args, lab, host);
    case 'sleep':
      return runSleep(args, lab);
    case 'sysctl':
      return runSysctl(args, host.host);
    case 'sar':
      return runSar(args, lab, host);
    case 'timeout':
      return runTimeout(args, lab, host);
    case 'help':
      return runHelp(args);
    case 'type':
      return runType(args);
    case 'which':
      // GNU which 2.21: --help and --version (-v, -V) print and return 0; -h is not one of its
      // options (glibc getopt complains, then no COMMAND is left: usage on stderr, exit 255)
      if (args[0] === '--help')
        return done(WHICH_HELP + labNote('which', 'which NAME …, --help and --version'));
      if (args[0] === '--version' || args[0] === '-v' || args[0] === '-V') return done(WHICH_VERSION);
      if (args.length === 0) return fail(WHICH_HELP, 255);
      if (args.length === 1 && args[0] === '-h')
        return fail(`/usr/bin/which: invalid option -- 'h'\n${WHICH_HELP}`, 255);
      if (args[0]?.startsWith('-'))
        return fail(`which: option ${args[0]} is not simulated in ec2-netlab (which NAME …)`);
      return runWhich(args);
    case 'history':
      return runHistory(args, lab);
    case 'clear':
      // ncurses clear: -x keeps the scrollback (no E3); -T/-V are not modelled
      if (args.length === 1 && args[0] === '-x') return done(CLEAR_SEQUENCE.replace('\x1b[3J', ''));
      if (args.length > 0) {
        const a = args[0]!;
        if (a === '-T' || a === '-V' || a.startsWith('-T'))
          return fail(`clear: option ${a} is not simulated in ec2-netlab (-x)`);
        const c = a.startsWith('-') && a.length > 1 ? a[1] : null;
        return fail(`${c ? `clear: invalid option -- '${c}'\n` : ''}${CLEAR_USAGE}`);
      }
      return done(CLEAR_SEQUENCE);
    case 'pwd':
      return runPwd();
    case 'cd':
      return runCd(args);
    case 'ls':
      return runLs(args, lab, host.name, tty);
    case 'rm':
      return runRm(args, lab, host.name);
    case 'date':
      return runDate(args, lab);
    case 'man':
      return runMan(args);
    case 'watch':
      return runWatch(args, lab, host, (l) => execLine(lab, host, l));
    case 'kill':
    case 'jobs':
    case 'wait':
    case 'fg':
    case 'bg':
      return fail(
        `bash: ${cmd}: in ec2-netlab ${cmd} runs as a command of its own (no sudo, pipe or $(…))`,
        2,
      );
    case 'true':
      return done('');
    case 'false':
      return done('', 1);
    case 'echo':
      return done(`${args.join(' ')}\n`);
    case 'hostname':
      if (args[0] === '-h' || args[0] === '--help')
        return { kind: 'done', out: { stdout: HOSTNAME_HELP, stderr: '', exitCode: 255 } };
      if (args.length > 0)
        return fail(
          `hostname: ${args[0]}: not simulated in ec2-netlab (hostname prints the instance's name)`,
        );
      return done(`${host.name}\n`);
    default:
      if (FILTERS[cmd]) return { kind: 'done', out: FILTERS[cmd]!(args, noInput(lab, host)) };
      return fail(`bash: ${cmd}: command not found`, 127);
  }
}

/**
 * coreutils `timeout DURATION COMMAND [ARG]...`: run COMMAND and interrupt it (SIGTERM) after
 * DURATION; exit status 124 when it timed out. Options (-s, -k, --preserve-status) are not simulated.
 */
function runTimeout(args: string[], lab: Lab, host: Instance): CommandOutcome {
  if (args.length > 0 && args[0]!.startsWith('-') && args[0] !== '--') {
    return fail(`timeout: option ${args[0]} is not simulated in ec2-netlab`);
  }
  const a = args[0] === '--' ? args.slice(1) : args;
  if (a.length === 0)
    return fail("timeout: missing operand\nTry 'timeout --help' for more information.", 125);
  const secs = parseDurationSeconds(a[0]!);
  if (secs === null)
    return fail(`timeout: invalid time interval ‘${a[0]}’\nTry 'timeout --help' for more information.`, 125);
  if (a.length === 1)
    return fail(`timeout: missing operand after ‘${a[0]}’\nTry 'timeout --help' for more information.`, 125);
  const inner = runCommand(lab, host, a.slice(1));
  if (inner.kind === 'done' || secs === 0) return inner;
  const until = lab.nowNs + Math.round(secs * 1e9);
  let timedOut = false;
  const j = inner.job;
  const job: Job = {
    done: () => {
      if (!timedOut && !j.done() && lab.nowNs >= until) {
        timedOut = true;
        j.interrupt();
      }
      return j.done();
    },
    deadlineNs: () => Math.min(j.deadlineNs(), until),
    interrupt: (sig) => j.interrupt(sig),
    progress: () => j.progress?.() ?? '',
    finish: () => {
      const out = j.finish();
      return timedOut ? { ...out, exitCode: 124 } : out;
    },
  };
  return { kind: 'job', job };
}

/** A filter run as a command of its own with no pipe into it (its stdin is the terminal: empty here). */
function noInput(lab: Lab, host: Instance): FilterIo {
  return {
    stdin: '',
    read: (name) => {
      const path = resolvePath(name);
      if (!path.ok) return { error: path.error };
      const f = lab.files.read(host.name, path.path);
      return f ? { text: fileText(f.data) } : { error: `${name}: No such file or directory` };
    },
    write: (name, data, append) => {
      const path = resolvePath(name);
      if (!path.ok) return path.error;
      lab.files.write(host.name, path.path, data, lab.nowNs, append);
      return null;
    },
  };
}
