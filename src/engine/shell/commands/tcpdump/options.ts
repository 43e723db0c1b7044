/**
 * tcpdump's command line (tcpdump.c's getopt loop: the options the lab models, the others
 * refused by name) and what it yields: the capture's settings and the printers' flags
 * (netdissect_options: -n, -e, -q, -v, -t, -x/-X/-A).
 * Sources: TCPDUMP tcpdump.c, netdissect.h, tcpdump(1).
 */
import { type CommandOutcome, done, fail } from '../../types';

export const DEFAULT_SNAPLEN = 262144;

export const USAGE = `tcpdump version 4.99.4
libpcap version 1.10.4 (with TPACKET_V3)
Usage: tcpdump [-AbdDefhHIJKlLnNOpqStuUvxX#] [ -B size ] [ -c count ] [--count]
\t\t[ -C file_size ] [ -E algo:secret ] [ -F file ] [ -G seconds ]
\t\t[ -i interface ] [ --immediate-mode ] [ -j tstamptype ]
\t\t[ -M secret ] [ --number ] [ --print ] [ -Q in|out|inout ]
\t\t[ -r file ] [ -s snaplen ] [ -T type ] [ --version ]
\t\t[ -V file ] [ -w file ] [ -W filecount ] [ -y datalinktype ]
\t\t[ --time-stamp-precision precision ] [ --micro ] [ --nano ]
\t\t[ -z postrotate-command ] [ -Z user ] [ expression ]
`;

export interface PrintOptions {
  /**
   * -v (1): the IP header line and the TCP checksum; -vv (2, and -vvv): also the IPv4 UDP
   * checksum and a pure ACK's seq (print-udp.c, print-tcp.c: ndo_vflag > 1).
   */
  vflag?: number;
  /** 0: names, 1: -n (no host names), 2: -nn (no port names either). */
  numeric: 0 | 1 | 2;
  eflag: boolean;
  qflag: boolean;
  /** 0 default HH:MM:SS.us, -1 none (-t), 4 (-tttt) date and time. */
  tstamp: 0 | -1 | 4;
}

export interface DumpFlags {
  x: number;
  X: number;
  A: number;
}

/** netdissect_options as the printers read it: the flags and the packet being printed. */
export interface Ndo {
  readonly o: PrintOptions;
  /** The bytes captured of the packet being printed (a checksum is checked only when all were). */
  caplen: number;
  /** The captured bytes themselves, when the caller has them (-r). */
  frame: Uint8Array | null;
  /** What the raw dump leaves out: the Ethernet header, or 0 after a longjmp on a cut packet. */
  linkHdrLen: number;
}

export interface Opts {
  iface: string | null;
  numeric: 0 | 1 | 2;
  count: number;
  snaplen: number;
  eflag: boolean;
  qflag: boolean;
  vflag: number;
  /** -x/-xx, -X/-XX, -A/-AA: how many times each was given (print.c's ndo_xflag, Xflag, Aflag). */
  dump: DumpFlags;
  tstamp: 0 | -1 | 4;
  write: string | null;
  read: string | null;
  filter: string;
}

export function parseArgs(args: string[]): Opts | CommandOutcome {
  const o: Opts = {
    iface: null,
    numeric: 0,
    count: 0,
    snaplen: DEFAULT_SNAPLEN,
    eflag: false,
    vflag: 0,
    dump: { x: 0, X: 0, A: 0 },
    qflag: false,
    tstamp: 0,
    write: null,
    read: null,
    filter: '',
  };
  const rest: string[] = [];
  let tCount = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--help' || a === '-h') return done('', 0, undefined, USAGE);
    if (a === '--version') return done('', 0, undefined, USAGE.split('\n').slice(0, 2).join('\n') + '\n');
    if (a === '-nn') {
      o.numeric = 2;
      continue;
    }
    if (a.startsWith('--'))
      return fail(`tcpdump: option ${a} is not simulated in ec2-netlab (see man tcpdump)`);
    if (!a.startsWith('-') || a === '-') {
      rest.push(...args.slice(i));
      break;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      const value = () => {
        const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        j = a.length;
        return v;
      };
      switch (c) {
        case 'n':
          o.numeric = o.numeric === 0 ? 1 : 2;
          break;
        case 'e':
          o.eflag = true;
          break;
        case 'v':
          o.vflag++;
          break;
        case 'x':
        case 'X':
        case 'A':
          o.dump[c]++;
          break;
        case 'q':
          o.qflag = true;
          break;
        case 't':
          tCount++;
          break;
        case 'i': {
          const v = value();
          if (v === undefined) return fail(`tcpdump: option requires an argument -- 'i'\n${USAGE}`);
          o.iface = v;
          break;
        }
        case 'c': {
          const v = value();
          if (v === undefined || !/^\d+$/.test(v) || Number(v) === 0)
            return fail(`tcpdump: invalid packet count ${v ?? ''}`);
          o.count = Number(v);
          break;
        }
        case 's': {
          const v = value();
          if (v === undefined || !/^\d+$/.test(v)) return fail(`tcpdump: invalid snaplen ${v ?? ''}`);
          o.snaplen = Number(v) === 0 ? DEFAULT_SNAPLEN : Number(v);
          break;
        }
        case 'w':
        case 'r': {
          const v = value();
          if (v === undefined) return fail(`tcpdump: option requires an argument -- '${c}'\n${USAGE}`);
          if (c === 'w') o.write = v;
          else o.read = v;
          break;
        }
        default:
          if ('bdDfHIJKlLNOpStuU#BCEFGjMQTVWyZz'.includes(c))
            return fail(`tcpdump: option -${c} is not simulated in ec2-netlab (see man tcpdump)`);
          return fail(`tcpdump: invalid option -- '${c}'\n${USAGE}`);
      }
    }
  }
  if (tCount === 1) o.tstamp = -1;
  else if (tCount === 4) o.tstamp = 4;
  else if (tCount > 0)
    return fail(`tcpdump: -${'t'.repeat(tCount)} is not simulated in ec2-netlab (-t and -tttt)`);
  o.filter = rest.join(' ');
  return o;
}
