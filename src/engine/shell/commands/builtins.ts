/**
 * Discovery and housekeeping: bash's `help`, `type`, `history`, `cd`, `pwd`; GNU `which`, `date`
 * (coreutils 9 on the lab's wall clock: settings.wallClockStart + simulated time, TZ=UTC as EC2's
 * Amazon Linux 2023 is set), `clear` (ncurses: the xterm clear sequence), `ls`, `rm`; `man TOOL`
 * with a page written for the lab. Each tool's man page says what it does here, which options are
 * modelled and which are refused; the lab's own tools list is TOOLS.
 */
import type { Lab } from '../../lab/lab';
import { fileSize, HOME, resolvePath } from '../../lab/files';
import { type CommandOutcome, done, fail } from '../types';
import { utcFields } from '../../../lib/time';

/** A tool on the lab's instances: where it lives and what it does (one line, for `help`). */
export interface ToolInfo {
  path: string;
  summary: string;
}

/** The lab's tools, as `which` finds them on Amazon Linux 2023. */
export const TOOLS: Readonly<Record<string, ToolInfo>> = {
  iperf3: {
    path: '/usr/bin/iperf3',
    summary: 'TCP/UDP throughput test (client -c, server -s; iperf3 -s runs on 5201 on every instance)',
  },
  iperf: {
    path: '/usr/bin/iperf',
    summary: 'iperf 2.0.5 TCP/UDP throughput test (-c HOST, -s; -u -b RATE reports jitter and loss)',
  },
  netperf: {
    path: '/usr/bin/netperf',
    summary: 'netperf 2.7.1 TCP_STREAM, TCP_MAERTS, UDP_STREAM, TCP_RR against a netserver (-H HOST)',
  },
  netserver: { path: '/usr/bin/netserver', summary: "netperf's server (port 12865; start it on the target)" },
  ping: { path: '/usr/bin/ping', summary: 'ICMP echo round trips (iputils)' },
  tcpdump: { path: '/usr/sbin/tcpdump', summary: 'print or save (-w) the packets eth0 sends and receives' },
  ethtool: {
    path: '/usr/sbin/ethtool',
    summary: 'ENA driver settings and counters (-S, -g/-G, -l/-L, -c/-C, -x/-X, -n/-N, -i)',
  },
  tc: {
    path: '/usr/sbin/tc',
    summary: 'queueing disciplines and classes on eth0 (fq_codel, fq, htb, tbf, pfifo …)',
  },
  ip: {
    path: '/usr/sbin/ip',
    summary: 'link show / -s link / link set mtu / address show / route show; GRE and VXLAN tunnels',
  },
  sar: {
    path: '/usr/bin/sar',
    summary: 'per-second interface and UDP rates (sar -n DEV|UDP interval [count])',
  },
  sysctl: {
    path: '/usr/sbin/sysctl',
    summary: 'kernel parameters: net.ipv4.ip_forward (read, -w to set)',
  },
  ab: { path: '/usr/bin/ab', summary: 'ApacheBench: HTTP requests to an instance’s web server' },
  curl: { path: '/usr/bin/curl', summary: 'one HTTP GET to an instance’s web server' },
  dig: { path: '/usr/bin/dig', summary: 'DNS queries to the VPC resolver (169.254.169.253)' },
  dnsperf: { path: '/usr/local/bin/dnsperf', summary: 'DNS query load against the VPC resolver' },
  'dpdk-testpmd': {
    path: '/usr/bin/dpdk-testpmd',
    summary: 'DPDK packet generator/sink on the ENA queues (txonly, rxonly, io)',
  },
  'udp-echo': {
    path: '/usr/local/bin/udp-echo',
    summary: 'UDP echo server, one SO_REUSEPORT socket per thread and vCPU (-p PORT, -t THREADS)',
  },
  aws: {
    path: '/usr/bin/aws',
    summary: 'AWS CLI v2: ec2 (security groups, NACLs, routes, ENIs) and cloudwatch metrics',
  },
  'ec2-metadata': {
    path: '/usr/bin/ec2-metadata',
    summary: 'the instance’s metadata (id, type, AZ, addresses)',
  },
  lab: {
    path: '/usr/local/bin/lab',
    summary: 'ec2-netlab’s own: nitro show, trace, summary, record (not an AWS tool)',
  },
  grep: { path: '/usr/bin/grep', summary: 'print lines that match patterns (-i -v -E -F -c -n -w -o -x -q)' },
  head: { path: '/usr/bin/head', summary: 'first lines (-n N, -c N)' },
  tail: { path: '/usr/bin/tail', summary: 'last lines (-n N, -n +N, -c N)' },
  wc: { path: '/usr/bin/wc', summary: 'count lines, words, bytes' },
  sort: { path: '/usr/bin/sort', summary: 'sort lines (-n -r -u -k -t -f)' },
  uniq: { path: '/usr/bin/uniq', summary: 'collapse adjacent repeated lines (-c -d -u -i)' },
  cut: { path: '/usr/bin/cut', summary: 'select fields or characters (-d -f -c)' },
  awk: { path: '/usr/bin/awk', summary: "print fields: awk [-F SEP] '[/re/] {print $N, …}' only" },
  cat: { path: '/usr/bin/cat', summary: 'print files' },
  tee: { path: '/usr/bin/tee', summary: 'copy stdin to files and stdout' },
  ls: { path: '/usr/bin/ls', summary: 'list the files in ~ or /tmp (-l)' },
  rm: { path: '/usr/bin/rm', summary: 'remove files' },
  date: { path: '/usr/bin/date', summary: 'the lab’s wall clock (+FORMAT, -u, -d STRING, -I, -R)' },
  sleep: { path: '/usr/bin/sleep', summary: 'wait in simulated time' },
  timeout: { path: '/usr/bin/timeout', summary: 'run a command, interrupt it after a duration' },
  watch: {
    path: '/usr/bin/watch',
    summary: "re-run a command every N s of simulated time (watch -n 1 'ethtool -S eth0 | grep allowance')",
  },
  man: { path: '/usr/bin/man', summary: 'the lab’s page for a tool' },
  which: { path: '/usr/bin/which', summary: 'where a tool is' },
  clear: { path: '/usr/bin/clear', summary: 'clear the terminal screen' },
  hostname: { path: '/usr/bin/hostname', summary: 'the instance’s name' },
  sudo: { path: '/usr/bin/sudo', summary: 'run a command as root (everything runs as root in the lab)' },
};

/** bash builtins the lab simulates, with their `help` synopsis. */
export const BUILTINS: Readonly<Record<string, { synopsis: string; text: string }>> = {
  bg: {
    synopsis: 'bg [job_spec ...]',
    text: "Move jobs to the background.\n    \n    Place the jobs identified by each JOB_SPEC in the background, as if they\n    had been started with `&'.  If JOB_SPEC is not present, the shell's notion\n    of the current job is used.\n    \n    Exit Status:\n    Returns success unless job control is not enabled or an error occurs.",
  },
  cd: {
    synopsis: 'cd [dir]',
    text: 'Change the shell working directory.\n\n    In ec2-netlab the working directory is always ~ (/home/ec2-user): files live in ~ and /tmp.',
  },
  echo: {
    synopsis: 'echo [arg ...]',
    text: 'Write arguments to the standard output, separated by a space, followed by a newline.',
  },
  false: { synopsis: 'false', text: 'Return an unsuccessful result.\n\n    Exit Status:\n    Always fails.' },
  fg: {
    synopsis: 'fg [job_spec]',
    text: "Move job to the foreground.\n    \n    Place the job identified by JOB_SPEC in the foreground, making it the\n    current job.  If JOB_SPEC is not present, the shell's notion of the\n    current job is used.\n    \n    Exit Status:\n    Status of command placed in foreground, or failure if an error occurs.",
  },
  help: {
    synopsis: 'help [pattern ...]',
    text: 'Display information about builtin commands.\n\n    Displays brief summaries of builtin commands.  If PATTERN is\n    specified, gives detailed help on all commands matching PATTERN,\n    otherwise the list of help topics is printed.',
  },
  history: {
    synopsis: 'history [-c] [n]',
    text: 'Display or manipulate the history list.\n\n    Display the history list with line numbers.  An argument of N lists\n    only the last N entries.\n\n    Options:\n      -c\tclear the history list by deleting all of the entries',
  },
  jobs: {
    synopsis: 'jobs [-lnprs] [jobspec ...] or jobs -x command [args]',
    text: "Display status of jobs.\n    \n    Lists the active jobs.  JOBSPEC restricts output to that job.\n    Without options, the status of all active jobs is displayed.\n    \n    Options:\n      -l\tlists process IDs in addition to the normal information\n      -n\tlists only processes that have changed status since the last\n    \t\tnotification\n      -p\tlists process IDs only\n      -r\trestrict output to running jobs\n      -s\trestrict output to stopped jobs\n    \n    If -x is supplied, COMMAND is run after all job specifications that\n    appear in ARGS have been replaced with the process ID of that job's\n    process group leader.\n    \n    Exit Status:\n    Returns success unless an invalid option is given or an error occurs.\n    If -x is used, returns the exit status of COMMAND.",
  },
  kill: {
    synopsis: 'kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]',
    text: "Send a signal to a job.\n    \n    Send the processes identified by PID or JOBSPEC the signal named by\n    SIGSPEC or SIGNUM.  If neither SIGSPEC nor SIGNUM is present, then\n    SIGTERM is assumed.\n    \n    Options:\n      -s sig\tSIG is a signal name\n      -n sig\tSIG is a signal number\n      -l\tlist the signal names; if arguments follow `-l' they are\n    \t\tassumed to be signal numbers for which names should be listed\n      -L\tsynonym for -l\n    \n    Kill is a shell builtin for two reasons: it allows job IDs to be used\n    instead of process IDs, and allows processes to be killed if the limit\n    on processes that you can create is reached.\n    \n    Exit Status:\n    Returns success unless an invalid option is given or an error occurs.",
  },
  pwd: { synopsis: 'pwd', text: 'Print the name of the current working directory.' },
  true: { synopsis: 'true', text: 'Return a successful result.\n\n    Exit Status:\n    Always succeeds.' },
  type: {
    synopsis: 'type [name ...]',
    text: 'Display information about command type.\n\n    For each NAME, indicate how it would be interpreted if used as a\n    command name.',
  },
  wait: {
    synopsis: 'wait [-fn] [-p var] [id ...]',
    text: "Wait for job completion and return exit status.\n    \n    Waits for each process identified by an ID, which may be a process ID or a\n    job specification, and reports its termination status.  If ID is not\n    given, waits for all currently active child processes, and the return\n    status is zero.  If ID is a job specification, waits for all processes\n    in that job's pipeline.\n    \n    If the -n option is supplied, waits for a single job from the list of IDs,\n    or, if no IDs are supplied, for the next job to complete and returns its\n    exit status.\n    \n    If the -p option is supplied, the process or job identifier of the job\n    for which the exit status is returned is assigned to the variable VAR\n    named by the option argument. The variable will be unset initially, before\n    any assignment. This is useful only when the -n option is supplied.\n    \n    If the -f option is supplied, and job control is enabled, waits for the\n    specified ID to terminate, instead of waiting for it to change status.\n    \n    Exit Status:\n    Returns the status of the last ID; fails if ID is invalid or an invalid\n    option is given, or if -n is supplied and the shell has no unwaited-for\n    children.",
  },
};

/** bash 5.2's `help` (header as bash prints it), then the lab's tools, one line each. */
export function runHelp(args: string[]): CommandOutcome {
  if (args.length > 0) {
    let out = '';
    let missing = '';
    for (const a of args) {
      const b = BUILTINS[a];
      if (b) out += `${a}: ${b.synopsis}\n    ${b.text}\n`;
      else if (TOOLS[a])
        missing += `bash: help: no help topics match \`${a}'.  Try \`help help' or \`man -k ${a}' or \`info ${a}'.\n`;
      else
        missing += `bash: help: no help topics match \`${a}'.  Try \`help help' or \`man -k ${a}' or \`info ${a}'.\n`;
    }
    return done(out, out ? 0 : 1, undefined, missing);
  }
  const names = Object.keys(BUILTINS);
  // bash's dispcolumn: a synopsis wider than its column is cut with a '>'
  const cut = (x: string) => (x.length > 38 ? `${x.slice(0, 37)}>` : x);
  const syn = [' job_spec [&]', ' ! PIPELINE', ...names.map((n) => cut(` ${BUILTINS[n]!.synopsis}`))];
  const half = Math.ceil(syn.length / 2);
  let table = '';
  for (let i = 0; i < half; i++) table += `${syn[i]!.padEnd(40)}${syn[i + half] ?? ''}`.trimEnd() + '\n';
  const toolW = Math.max(...Object.keys(TOOLS).map((t) => t.length)) + 2;
  const tools = Object.entries(TOOLS)
    .map(([n, t]) => `  ${n.padEnd(toolW)}${t.summary}\n`)
    .join('');
  return done(
    'GNU bash, version 5.2.15(1)-release (x86_64-amazon-linux-gnu)\n' +
      "These shell commands are defined internally.  Type `help' to see this list.\n" +
      "Type `help name' to find out more about the function `name'.\n" +
      "Use `man -k' or `info' to find out more about commands not in this list.\n\n" +
      table +
      '\nec2-netlab: the builtins above and these tools are simulated (`man TOOL` for what each models;\n' +
      'pipes |, lists ; && ||, redirections > >> < 2>&1, $(…), ~ and * ? […] work as in bash):\n' +
      tools,
  );
}

export function runType(args: string[]): CommandOutcome {
  let out = '';
  let err = '';
  for (const a of args) {
    if (BUILTINS[a]) out += `${a} is a shell builtin\n`;
    else if (TOOLS[a]) out += `${a} is ${TOOLS[a]!.path}\n`;
    else err += `bash: type: ${a}: not found\n`;
  }
  return done(out, err ? 1 : 0, undefined, err);
}

const PATH = '/home/ec2-user/.local/bin:/home/ec2-user/bin:/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin';

export function runWhich(args: string[]): CommandOutcome {
  let out = '';
  let err = '';
  for (const a of args) {
    if (TOOLS[a]) out += `${TOOLS[a]!.path}\n`;
    else err += `/usr/bin/which: no ${a} in (${PATH})\n`;
  }
  return done(out, err ? 1 : 0, undefined, err);
}

export function runHistory(args: string[], lab: Lab): CommandOutcome {
  const h = lab.shellHistory;
  if (args[0] === '-c') {
    h.length = 0;
    return done('');
  }
  if (args.length > 0 && !/^\d+$/.test(args[0]!)) {
    if (args[0]!.startsWith('-'))
      return fail(
        `bash: history: ${args[0]}: invalid option\nhistory: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]`,
        2,
      );
    return fail(`bash: history: ${args[0]}: numeric argument required`);
  }
  const n = args.length > 0 ? Number(args[0]) : h.length;
  const from = Math.max(0, h.length - n);
  let out = '';
  for (let i = from; i < h.length; i++) out += `${String(i + 1).padStart(5)}  ${h[i]}\n`;
  return done(out);
}

/** ncurses `clear` for TERM=xterm: home, erase the screen, erase the scrollback (E3). */
export const CLEAR_SEQUENCE = '\x1b[H\x1b[2J\x1b[3J';

export function runPwd(): CommandOutcome {
  return done(`${HOME}\n`);
}

export function runCd(args: string[]): CommandOutcome {
  const d = args[0];
  if (d === undefined || d === '~' || d === HOME || d === '.' || d === '~/') return done('');
  return fail(`bash: cd: ${d}: changing directory is not simulated in ec2-netlab (files live in ~ and /tmp)`);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAYS_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** GNU ls; `tty`: its stdout is the terminal (else one name a line, as ls does when isatty() is false). */
export function runLs(args: string[], lab: Lab, host: string, tty = true): CommandOutcome {
  let long = false;
  let all = false;
  let one = !tty;
  const dirs: string[] = [];
  for (const a of args) {
    if (/^-[la1]+$/.test(a)) {
      long ||= a.includes('l');
      one ||= a.includes('1');
      all ||= a.includes('a');
    } else if (a.startsWith('-'))
      return fail(`ls: option ${a} is not simulated in ec2-netlab (-l, -a, -1)`, 2);
    else dirs.push(a);
  }
  const targets = dirs.length > 0 ? dirs : ['~'];
  let err = '';
  const files = lab.files.list(host);
  const dirOf = (d: string) =>
    d === '~' || d === '.' || d === HOME || d === '~/' || d === `${HOME}/`
      ? HOME
      : d === '/tmp' || d === '/tmp/'
        ? '/tmp'
        : null;
  // as GNU ls: the missing operands reported first, then the files together, then each directory
  const fileOps: Array<{ name: string; f: (typeof files)[number] }> = [];
  const dirOps: Array<{ name: string; dir: string }> = [];
  for (const d of targets) {
    const dir = dirOf(d);
    if (dir) {
      dirOps.push({ name: d, dir });
      continue;
    }
    const p = resolvePath(d);
    const f = p.ok ? files.find((x) => x.path === p.path) : undefined;
    if (!f) err += `ls: cannot access '${d}': No such file or directory\n`;
    else fileOps.push({ name: d, f });
  }
  const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  fileOps.sort(byName);
  dirOps.sort(byName);
  type Line = {
    mode: string;
    links: number;
    owner: string;
    size: number;
    blocks: number;
    mtimeNs: number;
    name: string;
  };
  const fileLine = (e: { name: string; f: (typeof files)[number] }): Line => {
    const size = fileSize(e.f.file.data);
    return {
      mode: '-rw-r--r--.',
      links: 1,
      owner: 'ec2-user',
      size,
      blocks: Math.ceil(size / 4096) * 4,
      mtimeNs: e.f.file.mtimeNs,
      name: e.name,
    };
  };
  // print_long_format: each column as wide as its widest entry (links and size right-aligned,
  // owner and group left-aligned), "total" the 1K blocks of what is listed
  const listing = (lines: Line[], total: boolean): string => {
    if (!long) return lines.length > 0 ? `${lines.map((e) => e.name).join(one ? '\n' : '  ')}\n` : '';
    const wl = Math.max(1, ...lines.map((e) => String(e.links).length));
    const wo = Math.max(1, ...lines.map((e) => e.owner.length));
    const ws = Math.max(1, ...lines.map((e) => String(e.size).length));
    let s = total ? `total ${lines.reduce((t, e) => t + e.blocks, 0)}\n` : '';
    for (const e of lines) {
      const t = utcFields(lab.wallClockStartS + Math.floor(e.mtimeNs / 1e9));
      s += `${e.mode} ${String(e.links).padStart(wl)} ${e.owner.padEnd(wo)} ${e.owner.padEnd(wo)} ${String(e.size).padStart(ws)} ${MONTHS[t.month - 1]} ${String(t.day).padStart(2)} ${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')} ${e.name}\n`;
    }
    return s;
  };
  const blocks: string[] = [];
  if (fileOps.length > 0) blocks.push(listing(fileOps.map(fileLine), false));
  const headers = targets.length > 1;
  for (const d of dirOps) {
    const inDir = files
      .filter((f) => f.path.slice(0, f.path.lastIndexOf('/')) === d.dir)
      .map((f) => ({ name: f.path.slice(f.path.lastIndexOf('/') + 1), f }))
      .sort(byName);
    const entries = inDir.filter((e) => all || !e.name.startsWith('.')); // dotfiles only with -a
    const head = headers ? `${d.name}:\n` : '';
    const lines = entries.map(fileLine);
    // -a lists the directory's own . and .. first
    if (all) lines.unshift(...dirSelfAndParent(d.dir, inDir));
    blocks.push(head + listing(lines, true));
  }
  const out = blocks.join('\n');
  return done(out, err ? 2 : 0, undefined, err);
}

/**
 * `.` and `..` of a directory the lab lists, as on AL2023: the home directory (XFS, mode 700, in
 * /home) and /tmp (tmpfs, mode 1777, in /). Sizes as the file systems report a directory: XFS's
 * short form is its header (6 bytes) and 8 + the name's length per entry (xfs_dir2_sf_entsize
 * with ftype; /home holding ec2-user is 22), tmpfs counts 20 bytes per entry on top of 40
 * (BOGO_DIRENT_SIZE, mm/shmem.c); / is AL2023's root (18 links, 237 bytes). A directory's time is
 * its newest file's (the lab's start when it holds none).
 */
function dirSelfAndParent(
  dir: string,
  entries: Array<{ name: string; f: { file: { mtimeNs: number } } }>,
): Array<{
  mode: string;
  links: number;
  owner: string;
  size: number;
  blocks: number;
  mtimeNs: number;
  name: string;
}> {
  const mtimeNs = Math.max(0, ...entries.map((e) => e.f.file.mtimeNs));
  if (dir === '/tmp')
    return [
      {
        mode: 'drwxrwxrwt.',
        links: 2,
        owner: 'root',
        size: 40 + 20 * entries.length,
        blocks: 0,
        mtimeNs,
        name: '.',
      },
      { mode: 'dr-xr-xr-x.', links: 18, owner: 'root', size: 237, blocks: 0, mtimeNs: 0, name: '..' },
    ];
  const sf = 6 + entries.reduce((t, e) => t + 8 + e.name.length, 0);
  return [
    // past the inode's literal area (336 bytes, 512-byte inodes) the directory takes a 4 KiB block
    {
      mode: 'drwx------.',
      links: 2,
      owner: 'ec2-user',
      size: sf <= 336 ? sf : 4096,
      blocks: sf <= 336 ? 0 : 4,
      mtimeNs,
      name: '.',
    },
    { mode: 'drwxr-xr-x.', links: 3, owner: 'root', size: 22, blocks: 0, mtimeNs: 0, name: '..' },
  ];
}

export function runRm(args: string[], lab: Lab, host: string): CommandOutcome {
  const force = args.some((a) => /^-[rf]+$/.test(a));
  let err = '';
  for (const a of args) {
    if (a.startsWith('-')) {
      if (!/^-[rf]+$/.test(a)) return fail(`rm: option ${a} is not simulated in ec2-netlab`);
      continue;
    }
    const p = resolvePath(a);
    if (!p.ok || !lab.files.remove(host, p.path)) {
      if (!force) err += `rm: cannot remove '${a}': No such file or directory\n`;
    }
  }
  if (!args.some((a) => !a.startsWith('-')))
    return fail("rm: missing operand\nTry 'rm --help' for more information.");
  return done('', err ? 1 : 0, undefined, err);
}

// ---------------------------------------------------------------- date

const DATE_TRY = "Try 'date --help' for more information.";

/**
 * A few of GNU date's -d forms: now, today, yesterday, tomorrow, @SECONDS, ISO 8601 / "YYYY-MM-DD
 * [HH:MM[:SS]]" (UTC unless a zone is given), "N unit ago", "[+-]N unit" (units sec, min, hour,
 * day, week), and "STRING N unit ago" combinations of one date and relative items. Null: refused.
 */
export function parseDateString(s: string, nowS: number): number | null {
  let t = s.trim().toLowerCase();
  if (t.startsWith('@')) return /^@-?\d+(\.\d+)?$/.test(t) ? Number(t.slice(1)) : null;
  let base = nowS;
  const abs =
    /^(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(z|utc|[+-]\d{2}:?\d{2})?/.exec(
      t,
    );
  if (abs) {
    const [y, mo, d, h, mi, sec] = [abs[1], abs[2], abs[3], abs[4] ?? '0', abs[5] ?? '0', abs[6] ?? '0'].map(
      Number,
    ) as number[];
    if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || sec! > 60) return null;
    const days = daysFromCivil(y!, mo!, d!);
    let off = 0;
    const z = abs[7];
    if (z && z !== 'z' && z !== 'utc') {
      const dg = z.replace(':', '');
      off = (dg[0] === '-' ? -1 : 1) * (Number(dg.slice(1, 3)) * 3600 + Number(dg.slice(3, 5)) * 60);
    }
    base = days * 86400 + h! * 3600 + mi! * 60 + sec! - off;
    t = t.slice(abs[0].length).trim();
  } else {
    const word = /^(now|today|yesterday|tomorrow)\b/.exec(t);
    if (word) {
      base = nowS + (word[1] === 'yesterday' ? -86400 : word[1] === 'tomorrow' ? 86400 : 0);
      t = t.slice(word[0].length).trim();
    }
  }
  const unitS: Record<string, number> = {
    sec: 1,
    second: 1,
    min: 60,
    minute: 60,
    hour: 3600,
    day: 86400,
    week: 604800,
    fortnight: 1209600,
  };
  while (t !== '') {
    const m = /^([+-]?\s*\d+)?\s*(sec|second|min|minute|hour|day|week|fortnight)s?\b\s*(ago)?/.exec(t);
    if (!m) return null;
    let n = m[1] === undefined ? 1 : Number(m[1].replace(/\s/g, ''));
    if (m[3]) n = -n;
    base += n * unitS[m[2]!]!;
    t = t.slice(m[0].length).trim();
  }
  return base;
}

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** strftime as GNU date implements it, in UTC, for the conversions people use; `ns` the fraction. */
export function strftime(fmt: string, unixS: number, ns: number): string {
  const f = utcFields(unixS);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const yday = unixS - daysFromCivil(f.year, 1, 1) * 86400;
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%' || i + 1 >= fmt.length) {
      out += c;
      continue;
    }
    let spec = fmt[++i]!;
    let flag = '';
    let width = '';
    while ('-_0^#'.includes(spec) && i + 1 < fmt.length) {
      flag = spec;
      spec = fmt[++i]!;
    }
    while (/\d/.test(spec) && i + 1 < fmt.length) {
      width += spec;
      spec = fmt[++i]!;
    }
    if (spec === ':' && fmt[i + 1] === 'z') {
      out += '+00:00';
      i++;
      continue;
    }
    let v: string;
    switch (spec) {
      case 'Y':
        v = String(f.year);
        break;
      case 'C':
        v = p2(Math.floor(f.year / 100));
        break;
      case 'y':
        v = p2(f.year % 100);
        break;
      case 'm':
        v = p2(f.month);
        break;
      case 'd':
        v = p2(f.day);
        break;
      case 'e':
        v = String(f.day).padStart(2);
        break;
      case 'H':
        v = p2(f.hour);
        break;
      case 'k':
        v = String(f.hour).padStart(2);
        break;
      case 'I':
        v = p2(((f.hour + 11) % 12) + 1);
        break;
      case 'l':
        v = String(((f.hour + 11) % 12) + 1).padStart(2);
        break;
      case 'M':
        v = p2(f.minute);
        break;
      case 'S':
        v = p2(f.second);
        break;
      case 'N': {
        const digits = String(ns).padStart(9, '0');
        v = width ? digits.slice(0, Number(width)) : digits;
        width = '';
        break;
      }
      case 's':
        v = String(Math.floor(unixS));
        break;
      case 'a':
        v = DAYS[f.weekday]!;
        break;
      case 'A':
        v = DAYS_LONG[f.weekday]!;
        break;
      case 'b':
      case 'h':
        v = MONTHS[f.month - 1]!;
        break;
      case 'B':
        v = MONTHS_LONG[f.month - 1]!;
        break;
      case 'p':
        v = f.hour < 12 ? 'AM' : 'PM';
        break;
      case 'P':
        v = f.hour < 12 ? 'am' : 'pm';
        break;
      case 'j':
        v = String(Math.floor(yday / 86400) + 1).padStart(3, '0');
        break;
      case 'u':
        v = String(f.weekday === 0 ? 7 : f.weekday);
        break;
      case 'w':
        v = String(f.weekday);
        break;
      case 'Z':
        v = 'UTC';
        break;
      case 'z':
        v = '+0000';
        break;
      case 'F':
        v = `${f.year}-${p2(f.month)}-${p2(f.day)}`;
        break;
      case 'T':
        v = `${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)}`;
        break;
      case 'R':
        v = `${p2(f.hour)}:${p2(f.minute)}`;
        break;
      case 'D':
        v = `${p2(f.month)}/${p2(f.day)}/${p2(f.year % 100)}`;
        break;
      case 'c':
        v = `${DAYS[f.weekday]} ${MONTHS[f.month - 1]} ${String(f.day).padStart(2)} ${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)} ${f.year}`;
        break;
      case 'x':
        v = `${p2(f.month)}/${p2(f.day)}/${p2(f.year % 100)}`;
        break;
      case 'X':
        v = `${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)}`;
        break;
      case 'n':
        v = '\n';
        break;
      case 't':
        v = '\t';
        break;
      case '%':
        v = '%';
        break;
      default:
        v = `%${flag}${width}${spec}`;
        width = '';
        flag = '';
    }
    if (flag === '-') v = v.replace(/^[0 ]+(?=.)/, '');
    else if (flag === '_') v = v.replace(/^0+(?=.)/, (z) => ' '.repeat(z.length));
    else if (flag === '^') v = v.toUpperCase();
    if (width && /^\d+$/.test(v)) v = v.padStart(Number(width), flag === '_' ? ' ' : '0');
    out += v;
  }
  return out;
}

/** GNU date: `date [-u] [-d STRING] [+FORMAT]`, `-I[TIMESPEC]`, `-R`, `--rfc-3339=TIMESPEC`. */
export function runDate(args: string[], lab: Lab): CommandOutcome {
  const nowNs = lab.nowNs;
  const nowS = lab.wallClockStartS + Math.floor(nowNs / 1e9);
  let t = nowS;
  let frac = nowNs % 1e9;
  let format: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-u' || a === '--utc' || a === '--universal') continue;
    let dateStr: string | undefined;
    if (a === '-d' || a === '--date') {
      dateStr = args[++i];
      if (dateStr === undefined) return fail(`date: option requires an argument -- 'd'\n${DATE_TRY}`);
    } else if (a.startsWith('--date=')) dateStr = a.slice(7);
    else if (a.startsWith('-d')) dateStr = a.slice(2);
    if (dateStr !== undefined) {
      const v = parseDateString(dateStr, nowS + frac / 1e9);
      if (v === null) return fail(`date: invalid date ‘${dateStr}’`);
      t = Math.floor(v);
      frac = Math.round((v - t) * 1e9);
      continue;
    }
    const iso = /^(?:-I|--iso-8601)(?:=?(date|hours|minutes|seconds|ns))?$/.exec(a);
    if (iso) {
      const spec = iso[1] ?? 'date';
      format = {
        date: '%F',
        hours: '%FT%H%:z',
        minutes: '%FT%H:%M%:z',
        seconds: '%FT%T%:z',
        ns: '%FT%T,%N%:z',
      }[spec]!;
      continue;
    }
    const rfc3339 = /^--rfc-3339=(date|seconds|ns)$/.exec(a);
    if (rfc3339) {
      format = { date: '%F', seconds: '%F %T%:z', ns: '%F %T.%N%:z' }[rfc3339[1] as 'date']!;
      continue;
    }
    if (a === '-R' || a === '--rfc-email') {
      format = '%a, %d %b %Y %T %z';
      continue;
    }
    if (a.startsWith('+')) {
      if (format !== null) return fail(`date: multiple output formats specified`);
      format = a.slice(1);
      continue;
    }
    if (a === '--help') return done(DATE_HELP);
    if (a.startsWith('-'))
      return fail(
        `date: option ${a} is not simulated in ec2-netlab (-u, -d STRING, -I, -R, --rfc-3339, +FORMAT)`,
      );
    return fail(`date: setting the clock is not simulated in ec2-netlab (the lab's clock is simulated time)`);
  }
  return done(`${strftime(format ?? '%a %b %e %H:%M:%S %Z %Y', t, frac)}\n`);
}

const DATE_HELP = `Usage: date [OPTION]... [+FORMAT]
  or:  date [-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]
Display date and time in the given FORMAT.

  -d, --date=STRING          display time described by STRING, not 'now'
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
                               for date and time to the indicated precision.
                               Example: 2006-08-14T02:34:56-06:00
  -R, --rfc-email            output date and time in RFC 5322 format.
                               Example: Mon, 14 Aug 2006 02:34:56 -0600
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
                               for date and time to the indicated precision.
                               Example: 2006-08-14 02:34:56-06:00
  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)
      --help        display this help and exit

ec2-netlab: the clock is the scenario's wallClockStart plus simulated time, in UTC.
`;
