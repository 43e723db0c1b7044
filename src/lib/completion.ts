/**
 * Tab completion for the lab's terminal, as bash's readline does it: the word before the cursor is
 * completed from what fits its place (a command name, a tool's options, an instance name, an
 * interface, a qdisc kind, an aws service or operation, a file the lab holds). One candidate:
 * completed, with a space after it. Several: completed to their longest common prefix; the second
 * Tab in a row lists them. Pure (the UI gives it the instances and files); no engine imports, so
 * the page's first load stays small (tests check the lists against the engine's).
 */

/** Commands: the lab's tools and the bash builtins it simulates (engine: TOOLS and BUILTINS). */
export const COMMANDS: readonly string[] = [
  'ab',
  'awk',
  'aws',
  'bg',
  'cat',
  'cd',
  'clear',
  'curl',
  'cut',
  'date',
  'dig',
  'dnsperf',
  'dpdk-testpmd',
  'echo',
  'ec2-metadata',
  'ethtool',
  'false',
  'fg',
  'grep',
  'head',
  'help',
  'history',
  'hostname',
  'ip',
  'iperf',
  'iperf3',
  'jobs',
  'kill',
  'lab',
  'ls',
  'man',
  'netperf',
  'netserver',
  'ping',
  'pwd',
  'rm',
  'sar',
  'sleep',
  'sort',
  'sudo',
  'sysctl',
  'tail',
  'tc',
  'tcpdump',
  'tee',
  'timeout',
  'true',
  'type',
  'udp-echo',
  'uniq',
  'wait',
  'watch',
  'wc',
  'which',
];

export const AWS_EC2_OPS: readonly string[] = [
  'assign-private-ip-addresses',
  'attach-network-interface',
  'authorize-security-group-egress',
  'authorize-security-group-ingress',
  'create-network-acl-entry',
  'create-network-interface',
  'create-route',
  'delete-network-acl-entry',
  'delete-network-interface',
  'delete-route',
  'describe-instance-attribute',
  'describe-instances',
  'describe-network-acls',
  'describe-network-interfaces',
  'describe-route-tables',
  'describe-security-groups',
  'describe-subnets',
  'detach-network-interface',
  'modify-instance-attribute',
  'modify-network-interface-attribute',
  'replace-network-acl-entry',
  'replace-route',
  'revoke-security-group-egress',
  'revoke-security-group-ingress',
  'start-instances',
  'stop-instances',
  'unassign-private-ip-addresses',
];
export const AWS_CLOUDWATCH_OPS: readonly string[] = ['get-metric-data', 'get-metric-statistics'];

export const QDISC_KINDS: readonly string[] = [
  'bfifo',
  'codel',
  'fq',
  'fq_codel',
  'htb',
  'mq',
  'noqueue',
  'pfifo',
  'pfifo_fast',
  'tbf',
];

/** Options worth offering per tool (the ones the lab models). */
const OPTIONS: Readonly<Record<string, readonly string[]>> = {
  iperf3: [
    '--bidir',
    '--client',
    '--help',
    '--interval',
    '--json',
    '--length',
    '--parallel',
    '--port',
    '--reverse',
    '--server',
    '--set-mss',
    '--time',
    '--udp',
    '--bandwidth',
    '--bytes',
    '--format',
    '--omit',
    '--title',
    '--window',
    '-J',
    '-M',
    '-O',
    '-P',
    '-R',
    '-T',
    '-b',
    '-c',
    '-f',
    '-i',
    '-l',
    '-n',
    '-p',
    '-s',
    '-t',
    '-u',
    '-w',
  ],
  ethtool: [
    '-C',
    '-G',
    '-L',
    '-N',
    '-S',
    '-X',
    '-c',
    '-g',
    '-i',
    '-l',
    '-n',
    '-x',
    '--statistics',
    '--show-ring',
    '--set-ring',
    '--show-channels',
    '--set-channels',
    '--show-coalesce',
    '--coalesce',
    '--show-rxfh-indir',
    '--set-rxfh-indir',
    '--show-ntuple',
    '--config-ntuple',
    '--driver',
  ],
  tc: ['-s', 'qdisc', 'class'],
  ip: ['-s', 'link', 'tunnel'],
  ping: ['-M', '-W', '-c', '-i', '-q', '-s'],
  tcpdump: [
    '-c',
    '-e',
    '-i',
    '-n',
    '-nn',
    '-q',
    '-r',
    '-s',
    '-t',
    '-tttt',
    '-v',
    '-w',
    'and',
    'dst',
    'host',
    'icmp',
    'net',
    'not',
    'or',
    'port',
    'src',
    'tcp',
    'udp',
  ],
  sar: ['-n'],
  curl: ['--connect-timeout', '-L', '-O', '-S', '-k', '-m', '-o', '-s', '-v', '-w'],
  ab: ['-c', '-k', '-n', '-q', '-s'],
  grep: ['-E', '-F', '-c', '-e', '-i', '-n', '-o', '-q', '-v', '-w', '-x'],
  date: ['--date', '--iso-8601', '--rfc-3339', '--utc', '-I', '-R', '-d', '-u'],
  sort: ['-k', '-n', '-r', '-t', '-u'],
  uniq: ['-c', '-d', '-u'],
  cut: ['-c', '-d', '-f'],
  wc: ['-c', '-l', '-w'],
  head: ['-c', '-n'],
  tail: ['-c', '-n'],
  lab: ['nitro', 'record', 'summary', 'trace'],
  aws: ['cloudwatch', 'ec2'],
  'dpdk-testpmd': [
    '--burst',
    '--forward-mode=',
    '--nb-cores=',
    '--rxq=',
    '--stats-period',
    '--tx-ip',
    '--tx-udp',
    '--txonly-multi-flow',
    '--txpkts=',
    '--txq=',
    '-l',
  ],
  ls: ['-l', '-a'],
};

export interface CompletionContext {
  instances: readonly string[];
  /** Files the lab holds on the instance (names relative to ~, or /tmp/… paths). */
  files: readonly string[];
  interfaces?: readonly string[];
}

export interface Completion {
  /** The word being completed: [start, end) in the line. */
  start: number;
  end: number;
  candidates: string[];
  /** The line and cursor after completing (unchanged when nothing could be added). */
  line: string;
  cursor: number;
}

/** The words of a line before `cursor`, split on blanks and the shell's operators (quotes kept simple). */
function wordsBefore(text: string): { words: string[]; current: string; start: number } {
  const words: string[] = [];
  let cur = '';
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (cur) words.push(cur);
      cur = '';
      start = i + 1;
      continue;
    }
    if ('|;&<>'.includes(c)) {
      if (cur) words.push(cur);
      // a command separator starts a new command; a redirection operator asks for a file
      words.push(c === '<' || c === '>' ? '>' : '|');
      cur = '';
      start = i + 1;
      continue;
    }
    cur += c;
  }
  return { words, current: cur, start };
}

function commonPrefix(xs: string[]): string {
  if (xs.length === 0) return '';
  let p = xs[0]!;
  for (const x of xs) while (!x.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** What may stand at the word being completed. */
function candidatesFor(words: string[], current: string, ctx: CompletionContext): string[] {
  const ifaces = ctx.interfaces ?? ['eth0'];
  // the command this word belongs to: after the last | ; && || (sudo and timeout N skipped)
  let k = words.length;
  while (k > 0 && words[k - 1] !== '|') k--;
  let cmdWords = words.slice(k);
  const prev = words[words.length - 1];
  if (prev === '>') return ctx.files.slice();
  while (
    cmdWords[0] === 'sudo' ||
    (cmdWords[0] === 'timeout' && cmdWords.length >= 2) ||
    (cmdWords[0] === 'watch' && cmdWords[1] === '-n' && cmdWords.length >= 3)
  ) {
    cmdWords =
      cmdWords[0] === 'sudo'
        ? cmdWords.slice(1)
        : cmdWords[0] === 'watch'
          ? cmdWords.slice(3)
          : cmdWords.slice(2);
  }
  if (cmdWords.length === 0) {
    // the first word: a command, or an instance prefix (server:) at the start of the line
    const prefixes = words.length === 0 ? ctx.instances.map((i) => `${i}:`) : [];
    return [...COMMANDS, ...prefixes];
  }
  const cmd = cmdWords[0]!.replace(/:$/, '');
  if (cmdWords[0]!.endsWith(':') && ctx.instances.includes(cmd) && cmdWords.length === 1)
    return COMMANDS.slice();
  const args = cmdWords.slice(1);
  const last = args[args.length - 1];
  if (['man', 'which', 'type', 'help'].includes(cmd)) return COMMANDS.slice();
  if (cmd === 'aws') {
    if (args.length === 0) return ['cloudwatch', 'ec2'];
    if (args.length === 1 && args[0] === 'ec2') return AWS_EC2_OPS.slice();
    if (args.length === 1 && args[0] === 'cloudwatch') return AWS_CLOUDWATCH_OPS.slice();
    return [];
  }
  if (cmd === 'tc') {
    const rest = args.filter((a) => a !== '-s');
    if (rest.length === 0) return ['-s', 'qdisc', 'class'];
    if (rest.length === 1) return ['add', 'change', 'del', 'replace', 'show'];
    if (last === 'dev') return ifaces.slice();
    if (last === 'root' || args[args.length - 2] === 'handle' || args[args.length - 2] === 'parent')
      return [...QDISC_KINDS, 'handle'];
    return ['dev', 'root', 'parent', 'handle', ...QDISC_KINDS];
  }
  if (cmd === 'ip') {
    if (last === 'dev') return ifaces.slice();
    if (args.filter((a) => !a.startsWith('-')).length === 0) return ['-s', 'link', 'tunnel', 'help'];
    return ['show', 'set', 'dev', 'mtu', ...ifaces];
  }
  if (cmd === 'ethtool') {
    if (last?.startsWith('-')) return ifaces.slice();
    return current.startsWith('-') ? OPTIONS.ethtool!.slice() : [...ifaces, ...OPTIONS.ethtool!];
  }
  if (cmd === 'tcpdump') {
    if (last === '-i') return [...ifaces, 'any'];
    if (last === '-r' || last === '-w')
      return ctx.files.filter((f) => /\.p?cap(ng)?$/.test(f) || last === '-w');
    if (last === 'host' || last === 'src' || last === 'dst') return ctx.instances.slice();
    return OPTIONS.tcpdump!.slice();
  }
  if (cmd === 'iperf3' || cmd === 'ping' || cmd === 'ab' || cmd === 'curl' || cmd === 'dig') {
    if (cmd === 'iperf3' && (last === '-c' || last === '--client')) return ctx.instances.slice();
    if (cmd === 'ping' && !current.startsWith('-')) return [...ctx.instances, ...OPTIONS.ping!];
    if ((cmd === 'curl' || cmd === 'ab') && !current.startsWith('-'))
      return [...ctx.instances.map((i) => `http://${i}/`), ...OPTIONS[cmd]!];
    return (OPTIONS[cmd] ?? []).slice();
  }
  if (cmd === 'lab') {
    if (args.length === 0) return OPTIONS.lab!.slice();
    if (args[0] === 'nitro') return args.length === 1 ? ['show'] : ctx.instances.slice();
    if (args[0] === 'trace') return ctx.instances.slice();
    if (args[0] === 'record') return ['on', 'off'];
    return ['--from', '--to'];
  }
  if (cmd === 'sar') return last === '-n' ? ['DEV', 'UDP'] : ['-n'];
  if (cmd === 'dpdk-testpmd' && current.startsWith('--forward-mode='))
    return ['--forward-mode=io', '--forward-mode=rxonly', '--forward-mode=txonly'];
  const opts = OPTIONS[cmd] ?? [];
  if (current.startsWith('-')) return opts.slice();
  return ctx.files.slice();
}

/** Complete the word before `cursor` (readline's first Tab); `candidates` is what a second Tab lists. */
export function complete(line: string, cursor: number, ctx: CompletionContext): Completion {
  const before = line.slice(0, cursor);
  const { words, current, start } = wordsBefore(before);
  const all = [...new Set(candidatesFor(words, current, ctx))].sort();
  const candidates = all.filter((c) => c.startsWith(current));
  let insert = '';
  if (candidates.length === 1) {
    const c = candidates[0]!;
    // a finished word takes a space; a prefix (host:, --opt=, a URL) waits for more
    insert = c.slice(current.length) + (/[:=/]$/.test(c) ? '' : ' ');
  } else if (candidates.length > 1) insert = commonPrefix(candidates).slice(current.length);
  return {
    start,
    end: cursor,
    candidates,
    line: line.slice(0, cursor) + insert + line.slice(cursor),
    cursor: cursor + insert.length,
  };
}

/** bash's listing of candidates after a second Tab: columns, 2 spaces apart, across `width` characters. */
export function formatCandidates(cands: readonly string[], width = 80): string {
  if (cands.length === 0) return '';
  const w = Math.max(...cands.map((c) => c.length)) + 2;
  const cols = Math.max(1, Math.floor(width / w));
  const rows = Math.ceil(cands.length / cols);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let l = '';
    for (let c = 0; c < cols; c++) {
      const x = cands[c * rows + r];
      if (x !== undefined) l += x.padEnd(w);
    }
    lines.push(l.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
