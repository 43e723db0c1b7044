/**
 * `man TOOL`: a concise page written for the lab, laid out as man(1) does (header, NAME, sections
 * indented 7 columns): what the tool does here, the options modelled and what is refused. The
 * real tools' full manuals are upstream; these pages say what the lab's versions do.
 */
import { type CommandOutcome, done, fail } from '../types';
import { BUILTINS, TOOLS } from './builtins';
import { MAN_HELP, MAN_USAGE } from './real-help/system-tools';

interface Page {
  section: number;
  name: string;
  lab: string;
  options: string;
  refused?: string;
  seeAlso?: string;
}

const PAGES: Record<string, Page> = {
  iperf: {
    section: 1,
    name: 'perform network throughput tests (iperf 2.0.5)',
    lab: "TCP and UDP through the same modelled sockets and path as iperf3, against an `iperf -s` (or `iperf -s -u`) started on the target: nothing listens on 5001 until you start it. Output is iperf 2's settings block, its Interval/Transfer/Bandwidth reports and, for UDP, the server's report with jitter and Lost/Total datagrams.",
    options:
      '-c HOST | -s  -u  -b RATE  -t SECS  -n BYTES  -i SECS  -P N  -l LEN  -w WIN  -p PORT  -f a|k|m|g|A|K|M|G  -D  -v',
    refused:
      '-d, -r, -L, -F, -I, -B, -C, -M, -N, -m, -T, -V/-6, -U, -x, -y, -o, -S, -Z: "not simulated in ec2-netlab".',
    seeAlso: 'iperf3(1), netperf(1)',
  },
  netperf: {
    section: 1,
    name: 'a network performance benchmark (2.7.1)',
    lab: "TCP_STREAM, TCP_MAERTS and UDP_STREAM through the same modelled sockets and path as iperf3, against a `netserver` started on the target. Output is netperf's own banner and result lines (10^6bits/sec unless -f).",
    options:
      '-H HOST  -t TCP_STREAM|TCP_MAERTS|UDP_STREAM  -l SECS|-BYTES  -p PORT  -f G|M|K|g|m|k  -P 0|1  -v N  -V  -- -m SIZE',
    refused:
      'TCP_RR, UDP_RR, TCP_CRR (request/response), -c/-C, -D, -i/-I and the other test options: "not simulated in ec2-netlab".',
    seeAlso: 'netserver(1), iperf3(1)',
  },
  netserver: {
    section: 1,
    name: 'a network performance benchmark server (2.7.1)',
    lab: 'Listens for netperf on port 12865 (or -p PORT). Not started by default: type `netserver` on the target first.',
    options: '-p PORT  -4  -D  -f  -V',
    refused: 'the other options: "not simulated in ec2-netlab".',
    seeAlso: 'netperf(1)',
  },
  iperf3: {
    section: 1,
    name: 'perform network throughput tests (3.16)',
    lab: "TCP (CUBIC or, with -C reno, Reno; SACK, RACK, TLP, TCP Small Queues) or UDP streams through the modelled host stack, ENA rings and Nitro card. Every instance runs `iperf3 -s` on port 5201 from the start. Output is iperf3's own text or -J document.",
    options:
      '-c HOST  -s  -p PORT  -t SECS  -n BYTES  -P N  -l LEN  -M MSS  -u  -b RATE[/COUNT]\n-R  --bidir  -i SECS  -w SIZE  -J  -f [kmgtKMGT]  -O SECS  -T TITLE  -C reno|cubic',
    refused: '-Z, -A, --cport, -6 and the others: "option --X is not simulated in ec2-netlab".',
    seeAlso: 'ethtool(8), tc(8), sar(1), tcpdump(8)',
  },
  ping: {
    section: 8,
    name: 'send ICMP ECHO_REQUEST to network hosts (iputils)',
    lab: "Echo requests through the Nitro card's full path (ICMP is never on the accelerated path); requests over the MTU are fragmented.",
    options: '-c COUNT  -i INTERVAL  -s SIZE  -q  -W TIMEOUT  -M do|want|dont',
  },
  tcpdump: {
    section: 8,
    name: 'dump traffic on a network (4.99 output)',
    lab: "Prints the packets eth0 sends (after the qdisc, as the kernel's taps see them) and receives (before the socket), one line each, with the lab's wall clock. Batches of identical packets are printed packet by packet (no GRO merging). -w writes a pcap file (LINKTYPE_ETHERNET) in the instance's files: download it from the page, or `npm run lab -- --out DIR`. Checksums (-v TCP, -vv UDP) are as the capture point sees them: a packet this instance sent carries only the pseudo-header sum (the ENA device fills in the rest), so tcpdump calls it incorrect, as on a real sender; received ones are correct (for the zero payload).",
    options:
      '-i eth0|any  -n  -nn  -c COUNT  -s SNAPLEN  -v  -vv  -e  -q  -t  -tttt  -w FILE  -r FILE\n-x -xx -X -XX -A -AA (the payload is zeros: the lab models sizes, not contents)\nFilter: host, src/dst host, net CIDR, port, src/dst port, portrange, tcp, udp, icmp, ip,\nand/or/not (&& || !), parentheses, tcp[tcpflags] & (tcp-syn|tcp-ack|…) != 0, greater/less LEN.',
    refused:
      '-Z, -G, -C and other options; -xx/-XX/-AA with -i any. A capture runs until -c COUNT packets or Ctrl-C: in the background use `timeout 5 tcpdump -w cap.pcap &` or -c.',
    seeAlso: 'pcap-filter(7), wireshark(1)',
  },
  ethtool: {
    section: 8,
    name: 'query or control the ENA driver (6.7)',
    lab: "eth0 is an ENA device with the instance type's queues and rings. -S shows the driver's counters, including the Nitro card's bw_in/out_allowance_exceeded, pps_allowance_exceeded, conntrack_allowance_exceeded and linklocal_allowance_exceeded.",
    options: '-i  -S  -g/-G rx|tx N  -l/-L combined N  -c/-C  -x/-X  -n/-N (ntuple)',
    seeAlso: 'ip(8), tc(8)',
  },
  tc: {
    section: 8,
    name: 'show / manipulate traffic control settings (iproute2 6.1)',
    lab: 'The root qdisc of eth0 (mq with fq_codel children by default) and its classes, with Linux semantics: drops, backlog, requeues in -s.',
    options:
      'qdisc add|replace|change|del|show, class add|change|del|show, -s\nkinds: pfifo_fast pfifo bfifo codel fq_codel fq htb tbf mq noqueue',
    refused: 'filters, other qdisc kinds, other devices.',
  },
  ip: {
    section: 8,
    name: 'show / manipulate routing, network devices, tunnels (iproute2 6.1)',
    lab: 'eth0, the attached secondary ENIs (eth1 …) and the GRE/VXLAN tunnels the lab models.',
    options:
      'link show, -s [-s] link, link set dev eth0 mtu N, address show [dev NAME], route show [table N], rule show, tunnel/link add gre|gretap|vxlan',
    refused:
      'address add/del/flush (use aws ec2 assign-private-ip-addresses), route add/get, neigh and the other objects.',
  },
  sar: {
    section: 1,
    name: 'per-second interface and UDP statistics (sysstat 12)',
    lab: 'Runs as a job in simulated time; Ctrl-C or COUNT prints the Average: lines.',
    options: '-n DEV interval [count]   -n UDP interval [count]',
  },
  sysctl: {
    section: 8,
    name: 'configure kernel parameters at runtime (procps-ng 3.3)',
    lab: "net.ipv4.ip_forward only: with 1 the host forwards packets for other addresses (RX, routing, the qdisc and a TX queue, on the RX queue's vCPU), as a Linux router; its card must have the source/destination check off (aws ec2 modify-instance-attribute --no-source-dest-check).",
    options: 'KEY   -n KEY   -w KEY=VALUE   KEY=VALUE   -q',
  },
  ab: {
    section: 1,
    name: 'Apache HTTP server benchmarking tool (2.3)',
    lab: "HTTP/1.0 requests over the modelled TCP to an instance's web server (nginx-like responses; /64k, /1m … name the size).",
    options: '-n REQUESTS  -c CONCURRENCY  -k  -q  -s TIMEOUT',
  },
  curl: {
    section: 1,
    name: 'transfer a URL (8.5.0)',
    lab: "One HTTP GET to an instance's web server over the modelled TCP. IMDS (169.254.169.254) is refused: use ec2-metadata.",
    options: '-o FILE  -O  -s  -S  -v  -w FORMAT  --connect-timeout S  -m S  -k  -L',
  },
  dig: {
    section: 1,
    name: 'DNS lookup utility',
    lab: "Queries to the VPC resolver through the card's link-local allowance.",
    options: 'NAME [TYPE] [@server] +short',
  },
  dnsperf: {
    section: 1,
    name: 'DNS performance testing tool',
    lab: 'Query load against the VPC resolver (1024 pps per ENI link-local allowance).',
    options: '-s SERVER -l SECS -Q QPS -c CLIENTS',
  },
  'dpdk-testpmd': {
    section: 1,
    name: 'DPDK test application',
    lab: 'A poll-mode generator or sink on the ENA queues, bypassing the kernel (tcpdump does not see its packets).',
    options:
      'EAL -l; --txq --rxq --nb-cores --forward-mode=txonly|rxonly|io --txpkts --burst\n--tx-ip --tx-udp --txonly-multi-flow --stats-period',
  },
  'udp-echo': {
    section: 1,
    name: "the lab's UDP echo server (modelled on Stressgrid's C server)",
    lab: "Echoes every datagram on UDP PORT back to its sender through the kernel: one thread per vCPU by default, each with its own SO_REUSEPORT socket (the kernel picks the socket by a hash of the 4-tuple). Each datagram costs a recvfrom and a sendto on its thread's vCPU; `sar -n UDP 1` shows idgm/s and odgm/s. Runs until Ctrl-C, then prints the datagrams received and echoed.",
    options: '-p PORT (default 5000)  -t THREADS (default: the vCPU count)  -h',
    refused:
      'other options: "udp-echo: unknown option …" and the usage, exit status 2 (a program of the lab\'s own: no upstream options to refuse).',
    seeAlso: 'sar(1), dpdk-testpmd(1)',
  },
  aws: {
    section: 1,
    name: 'AWS CLI v2 (JSON output)',
    lab: "aws ec2 (security groups, network ACLs, route tables, ENIs, describe-instances, modify-network-interface-attribute, assign-private-ip-addresses and unassign-private-ip-addresses (secondary addresses, reachable at once), create-, attach-, detach- and delete-network-interface (eth1 … on the instance at once, sharing its Nitro card's allowances); stop-instances, start-instances, modify-instance-attribute and describe-instance-attribute for enhanced networking) and aws cloudwatch (get-metric-statistics, get-metric-data on AWS/EC2 network metrics and CWAgent ethtool counters), on the lab's wall clock (`date`). Changes take effect at the simulated instant.",
    options:
      "each operation's options as AWS CLI 2.15.30 takes them, usage errors too\n--region us-east-1 only; the `aws help` pages are not simulated",
  },
  'ec2-metadata': {
    section: 1,
    name: 'instance metadata (amazon-ec2-utils)',
    lab: 'The same facts as describe-instances.',
    options: '-i -t -z -o -h -a -l -m -b -e -s --all --help',
  },
  lab: {
    section: 1,
    name: "ec2-netlab's own tool (not an AWS tool)",
    lab: 'Inspect the model.',
    options:
      'nitro show [INSTANCE]   trace SRC DST [tcp|udp|icmp] [PORT]   summary [--from S] [--to S]   record on|off',
  },
  grep: {
    section: 1,
    name: 'print lines that match patterns (GNU grep 3)',
    lab: 'Basic (default), extended (-E) or fixed (-F) patterns; exit 0 selected, 1 none, 2 error.',
    options: '-i -v -E -F -c -n -w -x -o -q -s -H -h -e PATTERN -m NUM',
    refused: '-A -B -C -P -r and the rest.',
  },
  head: {
    section: 1,
    name: 'output the first part of files',
    lab: 'GNU coreutils.',
    options: '-n [-]N  -c N  -N  -q -v',
  },
  tail: {
    section: 1,
    name: 'output the last part of files',
    lab: 'GNU coreutils; the producer ends before tail prints.',
    options: '-n [+]N  -c N  -N',
    refused: '-f (follow).',
  },
  wc: {
    section: 1,
    name: 'print newline, word, and byte counts',
    lab: 'GNU coreutils widths.',
    options: '-l -w -c -m -L',
  },
  sort: {
    section: 1,
    name: 'sort lines of text files',
    lab: 'GNU coreutils in C.UTF-8 (byte order).',
    options: '-n -r -u -f -b -s -k N[,M] -t SEP -o FILE',
    refused: '-h -g -M -V -R.',
  },
  uniq: { section: 1, name: 'report or omit repeated lines', lab: 'GNU coreutils.', options: '-c -d -u -i' },
  cut: {
    section: 1,
    name: 'remove sections from each line',
    lab: 'GNU coreutils.',
    options: '-f LIST -d DELIM -s  -c LIST  -b LIST',
  },
  awk: {
    section: 1,
    name: 'pattern scanning (print fields only)',
    lab: 'Only programs of the form \'[/regex/] {print ITEM, …}\', ITEM $N, $NF, $(NF-K), NR, NF or "text". Anything else is refused: the lab is no awk interpreter.',
    options: '-F SEP',
  },
  cat: { section: 1, name: 'concatenate files and print', lab: 'Files in ~ and /tmp.', options: '-n' },
  tee: {
    section: 1,
    name: 'read from standard input and write to standard output and files',
    lab: 'Files in ~ and /tmp.',
    options: '-a',
  },
  ls: {
    section: 1,
    name: 'list directory contents',
    lab: "The files the lab's tools and redirections wrote, in ~ and /tmp.",
    options: '-l -a -1',
  },
  rm: { section: 1, name: 'remove files', lab: 'Files in ~ and /tmp.', options: '-f' },
  date: {
    section: 1,
    name: 'print the system date and time',
    lab: "The lab's wall clock: the scenario's wallClockStart plus simulated time, in UTC. Useful for aws cloudwatch --start-time/--end-time.",
    options:
      '+FORMAT  -u  -d STRING (now, yesterday, @SECS, ISO dates, "N min ago", "-1 hour")\n-I[date|hours|minutes|seconds|ns]  -R  --rfc-3339=date|seconds|ns',
  },
  sleep: {
    section: 1,
    name: 'delay for a specified amount of time',
    lab: 'Simulated time.',
    options: 'NUMBER[smhd]...',
  },
  timeout: {
    section: 1,
    name: 'run a command with a time limit',
    lab: 'Interrupts the command as Ctrl-C would; exit 124 when it timed out.',
    options: 'DURATION COMMAND [ARG]...',
    refused: '-s -k --preserve-status',
  },
  watch: {
    section: 1,
    name: 'execute a program periodically, showing output fullscreen (procps-ng)',
    lab: "Runs COMMAND through the shell (pipes work) every SECS of simulated time, redrawing the terminal, until Ctrl-C (or the lab's 60 s cap for commands without an end). COMMAND must end at once.",
    options: '-n SECS  -t',
    refused: '-d, -g, -e, -x, -c and the others.',
  },
  man: {
    section: 1,
    name: "an interface to the lab's reference pages",
    lab: 'One page per tool: what it does in the lab.',
    options: 'man TOOL\n--help -? --usage (man-db)',
  },
  which: {
    section: 1,
    name: 'shows the full path of commands',
    lab: '',
    options: 'NAME... --help --version -v -V (GNU which 2.21)',
  },
  clear: {
    section: 1,
    name: 'clear the terminal screen',
    lab: 'Clears the terminal panel (the scrollback is kept; scroll up).',
    options: '',
  },
  hostname: {
    section: 1,
    name: "show the system's host name",
    lab: "The instance's name in the scenario.",
    options: '',
  },
  sudo: {
    section: 8,
    name: 'execute a command as another user',
    lab: "Runs the command (everything runs with root's rights in the lab).",
    options: 'COMMAND; -h and --help; -V and --version (sudo 1.9.15p5)',
  },
};

function wrap(text: string, indent = 7, width = 80): string {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const w of para.split(/ +/)) {
      if (line && pad.length + line.length + 1 + w.length > width) {
        out.push(pad + line);
        line = w;
      } else line = line ? `${line} ${w}` : w;
    }
    out.push(pad + line);
  }
  return `${out.join('\n')}\n`;
}

export function manPage(tool: string): string | null {
  const p = PAGES[tool];
  if (!p) return null;
  const head = `${tool.toUpperCase()}(${p.section})`;
  const mid = 'ec2-netlab';
  const gap = 80 - head.length * 2 - mid.length;
  const left = Math.floor(gap / 2);
  let s = `${head}${' '.repeat(Math.max(1, left))}${mid}${' '.repeat(Math.max(1, gap - left))}${head}\n\n`;
  s += `NAME\n${wrap(`${tool} - ${p.name}`)}\n`;
  if (p.lab) s += `IN THIS LAB\n${wrap(p.lab)}\n`;
  if (p.options)
    s += `OPTIONS MODELLED\n${p.options
      .split('\n')
      .map((l) => `       ${l}`)
      .join('\n')}\n\n`;
  s += `REFUSED\n${wrap(p.refused ?? `Any other option, with "${tool}: option … is not simulated in ec2-netlab".`)}`;
  if (p.seeAlso) s += `\nSEE ALSO\n${wrap(p.seeAlso)}`;
  s += `\nec2-netlab${' '.repeat(80 - 10 - head.length)}${head}\n`;
  return s;
}

/** What the lab adds after man's own help: its pages are the lab's, not the manual's. */
const MAN_HELP_NOTE =
  'ec2-netlab: man PAGE … shows a page written for the lab (what the tool models here and what it refuses); --help, -? and --usage are man-db\'s own; the other options are refused ("not simulated in ec2-netlab").\n';

export function runMan(args: string[]): CommandOutcome {
  if (args[0] === '--help' || args[0] === '-?') return done(MAN_HELP + MAN_HELP_NOTE, 0);
  if (args[0] === '--usage') return done(MAN_USAGE, 0);
  const names = args.filter((a) => !/^-/.test(a) && !/^\d$/.test(a));
  if (args.some((a) => /^-/.test(a)))
    return fail(`man: option ${args.find((a) => a.startsWith('-'))} is not simulated in ec2-netlab`);
  if (names.length === 0) return fail("What manual page do you want?\nFor example, try 'man man'.", 1);
  let out = '';
  let err = '';
  for (const n of names) {
    const page = manPage(n);
    if (page) out += page;
    else if (BUILTINS[n]) err += `No manual entry for ${n} (a bash builtin: try 'help ${n}')\n`;
    else err += `No manual entry for ${n}\n`;
  }
  return done(out, err ? 16 : 0, undefined, err);
}

/** Every tool has a page (a test checks). */
export const MAN_PAGES: readonly string[] = Object.keys(PAGES);
export const TOOL_NAMES: readonly string[] = Object.keys(TOOLS);
