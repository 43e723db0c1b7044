/**
 * `TOOL --help` / `-h` for the tools whose own parser has no help of its own: the real tool's text
 * (curl 8.5's stripped menu, coreutils 9's sleep/timeout, iputils ping's usage, iproute2's `ip
 * help`; GNU ls/rm from real-help/gnu-tools.ts), on the stream and with the exit status the real tool uses.
 * iperf3, tc, ab, lab, ec2-metadata, dnsperf and date print their own.
 */
import { type CommandOutcome, done, fail } from '../types';
import { GNU_HELP, labNote, NETPERF_USAGE, NETSERVER_USAGE } from './real-help';

const COREUTILS_TAIL = (tool: string) =>
  `\nGNU coreutils online help: <https://www.gnu.org/software/coreutils/>\nFull documentation <https://www.gnu.org/software/coreutils/${tool}>\nor available locally via: info '(coreutils) ${tool} invocation'\n`;

const CURL = `Usage: curl [options...] <url>
 -d, --data <data>           HTTP POST data
 -f, --fail                  Fail fast with no output on HTTP errors
 -h, --help <category>       Get help for commands
 -i, --include               Include protocol response headers in the output
 -o, --output <file>         Write to file instead of stdout
 -O, --remote-name           Write output to a file named as the remote file
 -s, --silent                Silent mode
 -T, --upload-file <file>    Transfer local FILE to destination
 -u, --user <user:password>  Server user and password
 -A, --user-agent <name>     Send User-Agent <name> to server
 -v, --verbose               Make the operation more talkative
 -V, --version               Show version number and quit

This is not the full help, this menu is stripped into categories.
Use "--help category" to get an overview of all categories.
For all options use the manual or "--help all".
`;

const SLEEP = `Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.

      --help        display this help and exit
      --version     output version information and exit
${COREUTILS_TAIL('sleep')}`;

const TIMEOUT = `Usage: timeout [OPTION] DURATION COMMAND [ARG]...
  or:  timeout [OPTION]
Start COMMAND, and kill it if still running after DURATION.

Mandatory arguments to long options are mandatory for short options too.
      --preserve-status
                 exit with the same status as COMMAND, even when the
                   command times out
      --foreground
                 when not running timeout directly from a shell prompt,
                   allow COMMAND to read from the TTY and get TTY signals;
                   in this mode, children of COMMAND will not be timed out
  -k, --kill-after=DURATION
                 also send a KILL signal if COMMAND is still running
                   this long after the initial signal was sent
  -s, --signal=SIGNAL
                 specify the signal to be sent on timeout;
                   SIGNAL may be a name like 'HUP' or a number;
                   see 'kill -l' for a list of signals
  -v, --verbose  diagnose to stderr any signal sent upon timeout
      --help        display this help and exit
      --version     output version information and exit

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

Upon timeout, send the TERM signal to COMMAND, if no other SIGNAL specified.
The TERM signal kills any process that does not block or catch that signal.
It may be necessary to use the KILL signal, since this signal can't be caught.

Exit status:
  124  if COMMAND times out, and --preserve-status is not specified
  125  if the timeout command itself fails
  126  if COMMAND is found but cannot be invoked
  127  if COMMAND cannot be found
  -    the exit status of COMMAND otherwise
${COREUTILS_TAIL('timeout')}`;

const PING = `
Usage
  ping [options] <destination>

Options:
  <destination>      dns name or ip address
  -a                 use audible ping
  -A                 use adaptive ping
  -B                 sticky source address
  -c <count>         stop after <count> replies
  -D                 print timestamps
  -d                 use SO_DEBUG socket option
  -f                 flood ping
  -h                 print help and exit
  -I <interface>     either interface name or address
  -i <interval>      seconds between sending each packet
  -L                 suppress loopback of multicast packets
  -l <preload>       send <preload> number of packages while waiting replies
  -m <mark>          tag the packets going out
  -M <pmtud opt>     define mtu discovery, can be one of <do|dont|want>
  -n                 no dns name resolution
  -O                 report outstanding replies
  -p <pattern>       contents of padding byte
  -q                 quiet output
  -Q <tclass>        use quality of service <tclass> bits
  -s <size>          use <size> as number of data bytes to be sent
  -S <size>          use <size> as SO_SNDBUF socket option value
  -t <ttl>           define time to live
  -U                 print user-to-user latency
  -v                 verbose output
  -V                 print version and exit
  -w <deadline>      reply wait <deadline> in seconds
  -W <timeout>       time to wait for response

IPv4 options:
  -4                 use IPv4
  -b                 allow pinging broadcast
  -R                 record route
  -T <timestamp>     define timestamp, can be one of <tsonly|tsandaddr|tsprespec>

IPv6 options:
  -6                 use IPv6
  -F <flowlabel>     define flow label, default is random
  -N <nodeinfo opt>  use icmp6 node info query, try <help> as argument

For more details see ping(8).
`;

const IP = `Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }
       ip [ -force ] -batch filename
where  OBJECT := { address | addrlabel | amt | fou | help | ila | ioam | l2tp | link |
                   macsec | maddress | monitor | mptcp | mroute | mrule |
                   neighbor | neighbour | netconf | netns | nexthop | ntable |
                   ntbl | route | rule | sr | tap | tcpmetrics |
                   token | tunnel | tuntap | vrf | xfrm }
       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[esolve] |
                    -h[uman-readable] | -iec | -j[son] | -p[retty] |
                    -f[amily] { inet | inet6 | mpls | bridge | link } |
                    -4 | -6 | -M | -B | -0 |
                    -l[oops] { maximum-addr-flush-attempts } | -br[ief] |
                    -o[neline] | -t[imestamp] | -ts[hort] | -b[atch] [filename] |
                    -rc[vbuf] [size] | -n[etns] name | -N[umeric] | -a[ll] |
                    -c[olor]}
`;

/** The help a tool prints for `--help` (or `-h` where that is its help), or null to let the tool parse. */
export function helpText(cmd: string, args: string[]): CommandOutcome | null {
  const a = args[0];
  if (args.length !== 1 || (a !== '--help' && a !== '-h')) {
    if (cmd === 'ip' && a === 'help' && args.length === 1) return fail(IP, 255);
    return null;
  }
  switch (cmd) {
    case 'curl':
      return done(CURL);
    case 'sleep':
      return a === '--help' ? done(SLEEP) : null;
    case 'timeout':
      if (a === '--help') return done(TIMEOUT);
      return fail("timeout: invalid option -- 'h'\nTry 'timeout --help' for more information.", 125);
    case 'ping':
      return a === '-h' ? fail(PING, 2) : null;
    case 'ip':
      // `ip -h` is -human-readable: with no object, ip prints its usage (iproute2's usage(): stderr, exit 255)
      return fail(IP, 255);
    case 'ls':
    case 'rm':
      return a === '--help'
        ? done(GNU_HELP[cmd]! + labNote(cmd, cmd === 'ls' ? '-l, -a, -1' : '-f, -r'))
        : null;
    case 'netperf':
    case 'netserver': {
      // plain getopt: -h prints the usage (stderr, exit 1); --help is the invalid option '-' first
      const usage = cmd === 'netperf' ? NETPERF_USAGE : NETSERVER_USAGE;
      const note = labNote(
        cmd,
        cmd === 'netperf' ? '-H, -t, -l, -p, -f, -P, -v, -V and -- -m' : '-p, -4, -D, -f, -V',
      );
      return fail(`${a === '--help' ? `${cmd}: invalid option -- '-'\n` : ''}${usage}${note}`, 1);
    }
    case 'date':
      // -h is no option of date's (getopt's message, then the hint)
      return a === '-h' ? fail("date: invalid option -- 'h'\nTry 'date --help' for more information.") : null;
    default:
      return null;
  }
}
