/**
 * tcpdump 4.99 (libpcap 1.10): capture what eth0 sends and receives and print one line per packet
 * as print-tcp.c / print-udp.c / print-icmp.c / print-ether.c do, or write a pcap file (-w) and
 * read one (-r). Capture points as the kernel's taps: TX where dev_queue_xmit_nit sees a packet
 * (after the qdisc, entering the ENA TX ring), RX where __netif_receive_skb_core does (NAPI taking
 * it off the RX ring, before the socket). A batch of identical packets is printed packet by
 * packet. Header fields the lab's packets do not carry are derived as Linux sets them: the ISN
 * and TCP timestamp clock per connection from a hash of the 4-tuple (secure_tcp_seq/tsoff), MSS
 * from the MTU, wscale 7, TTL 64 (assumed, see `man tcpdump`).
 */
import type { Instance, Lab } from '../../lab/lab';
import type { ProbeSink } from '../../model/probe';
import { hashString, mix32 } from '../../core/rng';
import {
  TCP_FLAG_ACK,
  TCP_FLAG_FIN,
  TCP_FLAG_PSH,
  TCP_FLAG_RST,
  TCP_FLAG_SYN,
  type Packet,
} from '../../model/packet';
import { utcFields } from '../../../lib/time';
import { fileText, resolvePath, toBytes } from '../../lab/files';
import { type CommandOutcome, done, fail, type Job } from '../types';
import {
  decodeFrame,
  encodeFrame,
  PcapWriter,
  readPcap,
  TH,
  type TcpOption,
  tcpChecksum,
  pseudoSum,
  tcpPseudoSum,
  udpChecksum,
  type WirePacket,
} from './pcap';

const DEFAULT_SNAPLEN = 262144;
/** A -w file stops growing here (the lab keeps files in memory). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Printed lines kept for the terminal. */
const MAX_LINES = 200_000;

const USAGE = `tcpdump version 4.99.4
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

// ------------------------------------------------------------------ filter (pcap-filter(7) subset)

type Pred = (p: WirePacket) => boolean;

const FLAG_NAMES: Record<string, number> = {
  'tcp-fin': 1,
  'tcp-syn': 2,
  'tcp-rst': 4,
  'tcp-push': 8,
  'tcp-ack': 16,
  'tcp-urg': 32,
  'tcp-ece': 64,
  'tcp-cwr': 128,
};
const PROTO_NUM: Record<string, number> = { tcp: 6, udp: 17, icmp: 1 };
const SERVICES: Record<string, number> = {
  http: 80,
  https: 443,
  domain: 53,
  ssh: 22,
  'targus-getdata1': 5201,
};

class FilterError extends Error {}

/** Parse a filter expression (tokens joined by blanks) into a predicate. */
export function parseFilter(expr: string, resolve: (host: string) => string | null): Pred {
  const toks = expr.match(/\(|\)|&&|\|\||!=|==|!|&|\||\[|\]|[^\s()!&|[\]=]+|=/g) ?? [];
  let i = 0;
  const peek = () => toks[i];
  const next = () => toks[i++];
  const syntax = () => new FilterError('syntax error');
  const hostIp = (h: string) => {
    if (/^\d+\.\d+\.\d+\.\d+$/.test(h)) return h;
    const ip = resolve(h);
    if (!ip) throw new FilterError(`unknown host '${h}'`);
    return ip;
  };
  const ipNum = (ip: string) => ip.split('.').reduce((a, b) => a * 256 + Number(b), 0);
  const portNum = (s: string) => {
    if (/^\d+$/.test(s)) return Number(s);
    const v = SERVICES[s];
    if (v === undefined) throw new FilterError(`unknown port '${s}'`);
    return v;
  };
  const hasPorts = (p: WirePacket) => (p.proto === 6 || p.proto === 17) && p.fragOffset === 0;
  let lastProto: number | null = null;

  const primitive = (): Pred => {
    let t = next();
    if (t === undefined) throw syntax();
    let proto: number | null = null;
    if (t === 'tcp' || t === 'udp' || t === 'icmp') {
      proto = PROTO_NUM[t]!;
      const n = peek();
      if (n === '[' && t === 'tcp') {
        // tcp[tcpflags] & (…) != 0  |  tcp[13] & N == N
        next();
        const field = next();
        if (next() !== ']') throw syntax();
        if (field !== 'tcpflags' && field !== '13')
          throw new FilterError(`tcp[${field}] is not simulated in ec2-netlab (tcp[tcpflags] or tcp[13])`);
        let mask = 0xff;
        if (peek() === '&') {
          next();
          mask = flagValue();
        }
        const op = next();
        const v = flagValue();
        if (op !== '!=' && op !== '==' && op !== '=') throw syntax();
        return (p) => p.proto === 6 && p.fragOffset === 0 && ((p.flags & mask) === v) === (op !== '!=');
      }
      if (n !== 'port' && n !== 'src' && n !== 'dst' && n !== 'portrange' && n !== 'host') {
        lastProto = proto;
        return (p) => p.proto === proto;
      }
      t = next()!;
    }
    if (t === 'ip') {
      if (peek() === 'proto') {
        next();
        const v = next()!;
        const num = PROTO_NUM[v] ?? (/^\d+$/.test(v) ? Number(v) : null);
        if (num === null) throw syntax();
        return (p) => p.proto === num;
      }
      return () => true;
    }
    if (t === 'greater' || t === 'less') {
      const n = Number(next());
      if (!Number.isFinite(n)) throw syntax();
      return t === 'greater' ? (p) => p.ipLen + 14 >= n : (p) => p.ipLen + 14 <= n;
    }
    let dir: 'src' | 'dst' | 'any' = 'any';
    if (t === 'src' || t === 'dst') {
      dir = t;
      if (peek() === 'or' || peek() === 'and') {
        next();
        const other = next();
        if ((dir === 'src' && other !== 'dst') || (dir === 'dst' && other !== 'src')) throw syntax();
        dir = 'any';
      }
      t = next()!;
    }
    const protoOk = (p: WirePacket) => proto === null || p.proto === proto;
    if (t === 'port' || t === 'portrange') {
      const v = next();
      if (v === undefined) throw syntax();
      let lo: number;
      let hi: number;
      if (t === 'portrange') {
        const m = /^(\w+)-(\w+)$/.exec(v);
        if (!m) throw syntax();
        lo = portNum(m[1]!);
        hi = portNum(m[2]!);
      } else lo = hi = portNum(v);
      const inR = (x: number) => x >= lo && x <= hi;
      return (p) =>
        hasPorts(p) &&
        protoOk(p) &&
        (dir === 'src' ? inR(p.sport) : dir === 'dst' ? inR(p.dport) : inR(p.sport) || inR(p.dport));
    }
    if (t === 'net') {
      const v = next();
      const m = v ? /^(\d+(?:\.\d+){0,3})(?:\/(\d+))?$/.exec(v) : null;
      if (!m) throw syntax();
      const parts = m[1]!.split('.');
      const bits = m[2] !== undefined ? Number(m[2]) : parts.length * 8;
      while (parts.length < 4) parts.push('0');
      const base = ipNum(parts.join('.'));
      const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
      if ((base & mask) >>> 0 !== base) throw new FilterError('non-network bits set in "' + v + '"');
      const inNet = (ip: string) => (ipNum(ip) & mask) >>> 0 === base;
      return (p) =>
        dir === 'src' ? inNet(p.srcIp) : dir === 'dst' ? inNet(p.dstIp) : inNet(p.srcIp) || inNet(p.dstIp);
    }
    if (t === 'host') t = next()!;
    if (t === undefined || ['and', 'or', 'not', ')', '('].includes(t)) throw syntax();
    const ip = hostIp(t);
    return (p) =>
      protoOk(p) &&
      (dir === 'src' ? p.srcIp === ip : dir === 'dst' ? p.dstIp === ip : p.srcIp === ip || p.dstIp === ip);
  };

  const flagValue = (): number => {
    const t = next();
    if (t === '(') {
      let v = flagValue();
      while (peek() === '|') {
        next();
        v |= flagValue();
      }
      if (next() !== ')') throw syntax();
      return v;
    }
    if (t === undefined) throw syntax();
    if (FLAG_NAMES[t] !== undefined) return FLAG_NAMES[t]!;
    if (/^(0x[0-9a-f]+|\d+)$/i.test(t)) return Number(t);
    throw syntax();
  };

  const unary = (): Pred => {
    const t = peek();
    if (t === 'not' || t === '!') {
      next();
      const q = unary();
      return (p) => !q(p);
    }
    if (t === '(') {
      next();
      const q = orExpr();
      if (next() !== ')') throw syntax();
      return q;
    }
    // a bare value after and/or repeats the last qualifier ("port 80 or 443"): not simulated
    return primitive();
  };
  const andExpr = (): Pred => {
    let q = unary();
    while (peek() === 'and' || peek() === '&&') {
      next();
      const r = unary();
      const l = q;
      q = (p) => l(p) && r(p);
    }
    return q;
  };
  const orExpr = (): Pred => {
    let q = andExpr();
    while (peek() === 'or' || peek() === '||') {
      next();
      const r = andExpr();
      const l = q;
      q = (p) => l(p) || r(p);
    }
    return q;
  };
  if (toks.length === 0) return () => true;
  const q = orExpr();
  if (i < toks.length) throw syntax();
  void lastProto;
  return q;
}

// ------------------------------------------------------------------ printing (print-*.c)

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

const PORT_NAMES: Record<number, string> = {
  80: 'http',
  443: 'https',
  53: 'domain',
  22: 'ssh',
  5201: 'targus-getdata1',
};

/** tcpdump's per-connection state for relative sequence numbers (print-tcp.c, tcp_seq_hash). */
export class TcpdumpPrinter {
  private readonly seqBase = new Map<string, { seq: number; ack: number }>();
  private caplen = Number.POSITIVE_INFINITY;
  /** The captured bytes of the packet being printed, when the caller has them (-r). */
  private frame: Uint8Array | null = null;
  /**
   * What the raw dump after the last line leaves out: the Ethernet header, or nothing when a
   * printer longjmped out on a truncated packet (print.c: ND_TRUNCATED sets ndo_ll_hdr_len to 0).
   */
  linkHdrLen = 14;
  constructor(readonly o: PrintOptions) {}

  private host(ip: string): string {
    return this.o.numeric >= 1 ? ip : `ip-${ip.replace(/\./g, '-')}.ec2.internal`;
  }
  private port(n: number, proto: number): string {
    if (this.o.numeric === 2) return String(n);
    return (proto === 6 || proto === 17 ? PORT_NAMES[n] : undefined) ?? String(n);
  }

  private stamp(p: WirePacket): string {
    if (this.o.tstamp === -1) return '';
    const f = utcFields(p.sec);
    const p2 = (x: number) => String(x).padStart(2, '0');
    const t = `${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)}.${String(p.usec).padStart(6, '0')}`;
    return this.o.tstamp === 4 ? `${f.year}-${p2(f.month)}-${p2(f.day)} ${t} ` : `${t} `;
  }

  /**
   * The packet's line(s), newline-terminated. `caplen`: the bytes captured (a checksum is checked
   * only when the whole segment was, as ND_TTEST_LEN asks).
   */
  line(p: WirePacket, caplen = Number.POSITIVE_INFINITY, frame?: Uint8Array): string {
    this.caplen = caplen;
    this.frame = frame ?? null;
    this.linkHdrLen = LL_HDR_LEN;
    let s = this.stamp(p);
    // print-ether.c: -q names the type without its number
    if (this.o.eflag)
      s += `${p.srcMac} > ${p.dstMac}, ${this.o.qflag ? 'IPv4' : 'ethertype IPv4 (0x0800)'}, length ${p.ipLen + 14}: `;
    else s += 'IP ';
    if (this.o.vflag) {
      // print-ip.c: the header in parentheses, the rest on the next line after 4 blanks
      const flags = p.df ? 'DF' : p.mf ? '+' : 'none';
      const pname =
        p.proto === 6
          ? 'TCP'
          : p.proto === 17
            ? 'UDP'
            : p.proto === 1
              ? 'ICMP'
              : p.proto === 47
                ? 'GRE'
                : 'unknown';
      s += `(tos 0x${p.tos.toString(16)}, ttl ${p.ttl}, id ${p.ipId}, offset ${p.fragOffset * 8}, flags [${flags}], proto ${pname} (${p.proto}), length ${p.ipLen})\n    `;
    }
    const src = this.host(p.srcIp);
    const dst = this.host(p.dstIp);
    if (p.fragOffset > 0) {
      // a later fragment: no transport header to decode
      return `${s}${src} > ${dst}: ip-proto-${p.proto}\n`;
    }
    if (p.proto === 6) {
      // print-tcp.c: without the ports captured, the addresses alone and the truncation mark
      if (this.caplen < 34 + 4) return `${s}${src} > ${dst}: [|tcp]\n`;
      return `${s}${src}.${this.port(p.sport, 6)} > ${dst}.${this.port(p.dport, 6)}: ${this.tcp(p)}\n`;
    }
    if (p.proto === 17) {
      const ulen = p.ipLen - 20 - 8;
      // print-udp.c: the ports not captured, or the rest of the header: its `trunc:`
      if (this.caplen < 34 + 4) return `${s}${src} > ${dst}:  [|udp]\n`;
      let head = `${s}${src}.${this.port(p.sport, 17)} > ${dst}.${this.port(p.dport, 17)}: `;
      if (this.caplen < 34 + 8) return `${head} [|udp]\n`;
      // -vv: the IPv4 UDP checksum, when the whole datagram was captured (print-udp.c)
      if ((this.o.vflag ?? 0) > 1 && !p.mf && this.caplen >= 14 + p.ipLen) {
        const stored = p.udpSum ?? udpChecksum(p);
        const good = udpChecksum(p);
        head +=
          stored === 0
            ? '[no cksum] '
            : stored === good
              ? '[udp sum ok] '
              : `[bad udp cksum 0x${hex4(stored)} -> 0x${hex4(good)}!] `;
      }
      // DNS: the lab's queries carry no payload bytes; tcpdump decodes the zero header it writes
      if ((p.sport === 53 || p.dport === 53) && !this.o.qflag)
        // domain_print: a header (12 bytes) not captured whole is cut there
        return this.caplen < 42 + 12 ? `${head} [|domain]\n` : `${head}0 [0q] (${ulen})\n`;
      return `${head}UDP, length ${ulen}\n`;
    }
    if (p.proto === 1) {
      // icmp_print reads the echo header with GET macros: a cut longjmps (nothing of it printed)
      if (this.caplen < 34 + 8) {
        this.linkHdrLen = 0;
        return `${s}${src} > ${dst}:  [|icmp]\n`;
      }
      const what =
        p.icmpType === 8 ? 'echo request' : p.icmpType === 0 ? 'echo reply' : `type-#${p.icmpType}`;
      return `${s}${src} > ${dst}: ICMP ${what}, id ${p.icmpId}, seq ${p.icmpSeq}, length ${p.ipLen - 20}\n`;
    }
    if (p.proto === 47) return `${s}${src} > ${dst}: GREv0, length ${p.ipLen - 20}\n`;
    return `${s}${src} > ${dst}: ip-proto-${p.proto} ${p.ipLen - 20}\n`;
  }

  /** print-tcp.c's tcp_print for the fields the lab has. */
  private tcp(p: WirePacket): string {
    const hlen = p.tcpDoff ?? 20 + optionsLength(p.options);
    const length = p.ipLen - 20 - hlen;
    // the snapshot cut the fixed header: ND_TCHECK_SIZE's `goto trunc`
    if (this.caplen < 34 + 20) return ' [|tcp]';
    if (this.o.qflag) return `tcp ${length}`;
    let seq = p.seq >>> 0;
    let ack = p.ack >>> 0;
    const flags = p.flags;
    if (flags & TH.ACK) {
      // the connection key with the lower address/port first (print-tcp.c: rev)
      const a = `${p.srcIp}.${p.sport}`;
      const b = `${p.dstIp}.${p.dport}`;
      const rev = a > b;
      const key = rev ? `${b}-${a}` : `${a}-${b}`;
      const th = this.seqBase.get(key);
      if (!th || flags & TH.SYN) {
        this.seqBase.set(key, rev ? { ack: seq, seq: (ack - 1) >>> 0 } : { seq, ack: (ack - 1) >>> 0 });
      } else if (rev) {
        seq = (seq - th.ack) >>> 0;
        ack = (ack - th.seq) >>> 0;
      } else {
        seq = (seq - th.seq) >>> 0;
        ack = (ack - th.ack) >>> 0;
      }
    }
    let s = `Flags [${tcpFlags(flags)}]`;
    if (this.o.vflag && this.caplen >= 14 + p.ipLen) {
      const hdr = encodeFrame({ ...p, tcpSum: 0 }, 34 + hlen).subarray(34, 34 + hlen);
      const good = tcpChecksum(p, hdr);
      const stored = p.tcpSum ?? good;
      s +=
        stored === good
          ? `, cksum 0x${hex4(stored)} (correct)`
          : `, cksum 0x${hex4(stored)} (incorrect -> 0x${hex4(good)})`;
    }
    if ((this.o.vflag ?? 0) > 1 || length > 0 || flags & (TH.SYN | TH.FIN | TH.RST)) {
      s += `, seq ${seq}`;
      if (length > 0) s += `:${(seq + length) >>> 0}`;
    }
    if (flags & TH.ACK) s += `, ack ${ack}`;
    s += `, win ${p.win}`;
    if (this.caplen < 34 + hlen) {
      // the snapshot cut the options: print-tcp.c's option loop over the bytes captured
      const bytes = (this.frame ?? encodeFrame(p, this.caplen)).subarray(
        34 + 20,
        Math.min(this.caplen, 34 + hlen),
      );
      const t = truncatedOptions(bytes, hlen - 20);
      if (t.jumped) this.linkHdrLen = 0;
      return s + t.text;
    }
    if (p.options.length > 0) s += `, options [${p.options.map(optionText).join(',')}]`;
    s += `, length ${length}`;
    return s;
  }
}

/**
 * print-tcp.c's option loop when the capture ends inside the options (`optLen` bytes in the
 * header, `b` the ones captured): a GET past the end longjmps (" [|tcp]"); LENCHECK's
 * ND_TCHECK_LEN jumps to `trunc:` (" [|tcp]", then ">" after the first option).
 */
function truncatedOptions(b: Uint8Array, optLen: number): { text: string; jumped: boolean } {
  const NAMES: Record<number, string> = {
    0: 'eol',
    1: 'nop',
    2: 'mss',
    3: 'wscale',
    4: 'sackOK',
    5: 'sack',
    8: 'TS',
  };
  const u32 = (i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
  let s = ', options [';
  let ch = '';
  let i = 0;
  let rem = optLen;
  // a GET past the capture longjmps (print.c prints the mark); a TCHECK jumps to tcp_print's trunc:
  const cut = () => ({ text: `${s} [|tcp]`, jumped: true });
  const trunc = () => ({ text: `${s} [|tcp]${ch ? '>' : ''}`, jumped: false });
  const bad = () => ({ text: `${s}[bad opt]${ch ? ']' : ''}`, jumped: false });
  while (rem > 0) {
    if (ch) s += ch;
    if (i >= b.length) return cut();
    const opt = b[i++]!;
    let len = 1;
    if (opt > 1) {
      if (i >= b.length) return cut();
      len = b[i++]!;
      if (len < 2 || len > rem) return bad();
      rem--;
    }
    rem--;
    s += NAMES[opt] ?? `unknown-${opt}`;
    if (opt === 5) {
      // sack: " N " then {left:right} per block, each half LENCHECKed
      const datalen = len - 2;
      if (datalen % 8 !== 0) s += ' invalid sack';
      else {
        s += ` ${datalen / 8} `;
        for (let k = 0; k < datalen; k += 8) {
          if (k + 4 > rem || k + 8 > rem) return bad();
          if (i + k + 8 > b.length) return trunc();
          s += `{${u32(i + k)}:${u32(i + k + 4)}}`;
        }
      }
      i += datalen;
      rem -= datalen;
      ch = ',';
      continue;
    }
    const datalen = opt === 2 ? 2 : opt === 3 ? 1 : opt === 8 ? 8 : 0;
    if (datalen > rem) return bad();
    if (i + datalen > b.length) return trunc();
    if (opt === 2) s += ` ${(b[i]! << 8) | b[i + 1]!}`;
    else if (opt === 3) s += ` ${b[i]!}`;
    else if (opt === 8) s += ` val ${u32(i)} ecr ${u32(i + 4)}`;
    i += datalen;
    rem -= datalen;
    ch = ',';
    if (opt === 0) break;
  }
  return { text: `${s}]`, jumped: false };
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

function optionsLength(opts: TcpOption[]): number {
  let n = 0;
  for (const o of opts)
    n +=
      o.kind === 'nop'
        ? 1
        : o.kind === 'mss'
          ? 4
          : o.kind === 'sackOK'
            ? 2
            : o.kind === 'ts'
              ? 10
              : o.kind === 'wscale'
                ? 3
                : 2 + 8 * o.blocks.length;
  return Math.ceil(n / 4) * 4;
}

function optionText(o: TcpOption): string {
  switch (o.kind) {
    case 'mss':
      return `mss ${o.v}`;
    case 'sackOK':
      return 'sackOK';
    case 'ts':
      return `TS val ${o.val} ecr ${o.ecr}`;
    case 'nop':
      return 'nop';
    case 'wscale':
      return `wscale ${o.v}`;
    case 'sack':
      return `sack ${o.blocks.length} ${o.blocks.map(([l, r]) => `{${l}:${r}}`).join('')}`;
  }
}

/** bittok2str_nosep over tcp_flag_values: F S R P . U E W, or "none". */
export function tcpFlags(f: number): string {
  let s = '';
  if (f & TH.FIN) s += 'F';
  if (f & TH.SYN) s += 'S';
  if (f & TH.RST) s += 'R';
  if (f & TH.PUSH) s += 'P';
  if (f & TH.ACK) s += '.';
  if (f & TH.URG) s += 'U';
  if (f & TH.ECE) s += 'E';
  if (f & TH.CWR) s += 'W';
  return s || 'none';
}

// ------------------------------------------------------------------ raw data (print.c, print-ascii.c)

export interface DumpFlags {
  x: number;
  X: number;
  A: number;
}

/** The Ethernet header's length: what -x, -X and -A leave out (print.c's ndo_ll_hdr_len). */
const LL_HDR_LEN = 14;

/** ND_ASCII_ISGRAPH: printable and not a space. */
const isGraph = (c: number) => c > 0x20 && c <= 0x7e;

/**
 * What pretty_print_packet prints after the packet's line for a captured frame: -X (hex and ASCII)
 * before -x (hex) before -A (ASCII); doubled, from the link-layer header on, else from the network
 * layer (nothing when nothing is past the link header).
 */
export function rawDump(frame: Uint8Array, f: DumpFlags, hdrLen = LL_HDR_LEN): string {
  const kind = f.X ? 'X' : f.x ? 'x' : f.A ? 'A' : null;
  if (kind === null) return '';
  const whole = f[kind] > 1;
  if (!whole && frame.length <= hdrLen) return '';
  const b = whole ? frame : frame.subarray(hdrLen);
  return kind === 'X' ? hexAndAscii(b) : kind === 'x' ? hexOnly(b) : asciiOnly(b);
}

const h2 = (n: number) => n.toString(16).padStart(2, '0');
const off4 = (n: number) => `\n\t0x${n.toString(16).padStart(4, '0')}: `;

/** hex_and_ascii_print_with_offset: 8 groups of 2 bytes, padded to 40 columns, 2 blanks, the ASCII. */
function hexAndAscii(b: Uint8Array): string {
  let out = '';
  let hex = '';
  let asc = '';
  let oset = 0;
  let i = 0;
  for (; i + 1 < b.length; i += 2) {
    hex += ` ${h2(b[i]!)}${h2(b[i + 1]!)}`;
    asc +=
      (isGraph(b[i]!) ? String.fromCharCode(b[i]!) : '.') +
      (isGraph(b[i + 1]!) ? String.fromCharCode(b[i + 1]!) : '.');
    if (hex.length === 40) {
      out += `${off4(oset)}${hex}  ${asc}`;
      hex = '';
      asc = '';
      oset += 16;
    }
  }
  if (b.length & 1) {
    hex += ` ${h2(b[i]!)}`;
    asc += isGraph(b[i]!) ? String.fromCharCode(b[i]!) : '.';
  }
  if (hex) out += `${off4(oset)}${hex.padEnd(40)}  ${asc}`;
  return out;
}

/** hex_print_with_offset: 8 groups of 2 bytes a line, an odd last byte alone. */
function hexOnly(b: Uint8Array): string {
  let out = '';
  let n = 0;
  let i = 0;
  for (; i + 1 < b.length; i += 2) {
    if (n++ % 8 === 0) out += off4(i);
    out += ` ${h2(b[i]!)}${h2(b[i + 1]!)}`;
  }
  if (b.length & 1) {
    if (n % 8 === 0) out += off4(i);
    out += ` ${h2(b[i]!)}`;
  }
  return out;
}

/** ascii_print: a newline, then each byte: graphic, tab, blank and newline as they are, '.' otherwise; a CR only where no LF follows it. */
function asciiOnly(b: Uint8Array): string {
  let out = '\n';
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    const left = b.length - i - 1;
    if (c === 0x0d) {
      if (left > 1 && b[i + 1] !== 0x0a) out += '.';
    } else out += isGraph(c) || c === 0x09 || c === 0x20 || c === 0x0a ? String.fromCharCode(c) : '.';
  }
  return out;
}

// ------------------------------------------------------------------ capture: the lab's packets as wire packets

const NO_OPTIONS: TcpOption[] = [];

/** Linux's window scale for the default tcp_rmem (6 MiB max): 7. */
const WSCALE = 7;
const TTL = 64;

/** Turns the model's batches into wire packets, with the header fields Linux would set. */
export class WireMapper {
  /** ICMP: the first direction seen of a pair is the echo request. */
  private readonly icmpReq = new Map<string, string>();
  /** IP id counters per flow (inet_id: a random start, one per packet sent). */
  private readonly ipIds = new Map<number, number>();
  /** The peer's last TS val seen on this host, per connection (ts_recent). */
  private readonly tsRecent = new Map<string, number>();
  constructor(
    private readonly lab: Lab,
    private readonly mtu: number,
  ) {}

  /** Hashes per 4-tuple and MACs per address, computed once (the capture sees every packet). */
  private readonly hashes = new Map<string, number>();
  private readonly macs = new Map<string, string>();
  private hashed(kind: string, src: string, sp: number, dst: string, dp: number): number {
    const key = `${kind}|${src}|${sp}|${dst}|${dp}`;
    let h = this.hashes.get(key);
    if (h === undefined) {
      h = mix32(hashString(key) ^ this.lab.scenario.seed) >>> 0;
      this.hashes.set(key, h);
    }
    return h;
  }
  private isn(src: string, sp: number, dst: string, dp: number): number {
    return this.hashed('isn', src, sp, dst, dp);
  }
  private tsval(src: string, sp: number, dst: string, dp: number, ns: number): number {
    return (Math.floor(ns / 1e6) + this.hashed('tsoff', src, sp, dst, dp)) >>> 0;
  }
  private mac(ip: string): string {
    let m = this.macs.get(ip);
    if (m === undefined) {
      m = this.lab.resolve(ip)?.host.eth0.link().mac ?? '02:00:00:00:00:01';
      this.macs.set(ip, m);
    }
    return m;
  }

  /** The `count` wire packets of a batch, as seen at `atNs` going `tx` (sent by this host) or received. */
  map(p: Packet, atNs: number, tx: boolean, out: (w: WirePacket) => void): void {
    for (let k = 0; k < p.count; k++) out(this.mapOne(p, k, atNs, tx));
  }

  /**
   * Go on with a flow's IP ids as if `sent` of its packets had been mapped already (the packet
   * list's details rebuild the mapper's state for one packet instead of replaying every one).
   */
  skipIpIds(flow: Packet['flow'], sent: number): void {
    const t = flow.tuple;
    const base =
      mix32(hashString(`ipid|${t.srcIp}|${t.srcPort}|${t.dstIp}|${t.dstPort}`) ^ this.lab.scenario.seed) &
      0xffff;
    this.ipIds.set(flow.id, (base + sent) & 0xffff);
  }

  /**
   * The k-th wire packet of a batch (what `map` hands out; the packet list calls it per row). The
   * mapper keeps per-flow state (IP ids, the peer's last TS value): call it in capture order.
   */
  mapOne(p: Packet, k: number, atNs: number, tx: boolean): WirePacket {
    const t = p.flow.tuple;
    const wall = this.lab.wallClockStartS * 1e6 + Math.floor(atNs / 1000);
    const sec = Math.floor(wall / 1e6);
    const usec = wall - sec * 1e6;
    const srcMac = this.mac(t.srcIp);
    const dstMac = this.mac(t.dstIp);
    const proto = t.proto === 'tcp' ? 6 : t.proto === 'udp' ? 17 : t.proto === 'icmp' ? 1 : 47;
    const fid = p.flow.id;
    {
      // an object literal with every field (one shape, no spread: the capture sees every packet)
      const w: WirePacket = {
        sec,
        usec,
        srcMac,
        dstMac,
        srcIp: t.srcIp,
        dstIp: t.dstIp,
        proto,
        ipLen: p.sizeBytes,
        tos: p.tos,
        ipId: 0,
        mf: false,
        fragOffset: 0,
        ttl: TTL,
        sport: t.srcPort,
        dport: t.dstPort,
        seq: 0,
        ack: 0,
        flags: 0,
        win: 0,
        options: NO_OPTIONS,
        df: true,
        tcpSum: undefined,
        udpSum: undefined,
        icmpType: 0,
        icmpId: 0,
        icmpSeq: 0,
      };
      let id = this.ipIds.get(fid);
      if (id === undefined)
        id =
          mix32(hashString(`ipid|${t.srcIp}|${t.srcPort}|${t.dstIp}|${t.dstPort}`) ^ this.lab.scenario.seed) &
          0xffff;
      w.ipId = id;
      this.ipIds.set(fid, (id + 1) & 0xffff);
      w.df = !p.frag;
      if (t.proto === 'tcp') {
        this.tcp(p, k, w, atNs, tx);
        // sent: the pseudo-header sum only (checksum offload); received: the sender's NIC filled it in
        if (tx) w.tcpSum = tcpPseudoSum(w, w.ipLen - 20);
      } else if (t.proto === 'udp') {
        // sent whole: the pseudo-header sum only (the NIC fills the rest); a datagram Linux
        // fragments it checksums itself first (skb_checksum_help), as the receiver sees it
        if (tx && !p.frag) w.udpSum = pseudoSum(w, 17, w.ipLen - 20);
        if (p.frag) {
          // fragments of one datagram: the first carries the UDP header
          w.fragOffset = p.frag.last
            ? Math.floor(((p.frag.of - 1) * (this.mtu - 20)) / 8)
            : Math.floor((k * (this.mtu - 20)) / 8);
          w.mf = !p.frag.last;
          w.ipId = (hashString(`frag|${t.srcIp}|${p.seq}`) ^ fid) & 0xffff;
        }
      } else if (t.proto === 'icmp') {
        const key = [t.srcIp, t.dstIp].sort().join('|');
        if (!this.icmpReq.has(key)) this.icmpReq.set(key, t.srcIp);
        const req = this.icmpReq.get(key) === t.srcIp;
        w.icmpType = req ? 8 : 0;
        w.icmpId = (hashString(`icmpid|${req ? t.srcIp : t.dstIp}`) ^ this.lab.scenario.seed) & 0xffff;
        w.icmpSeq = p.seq & 0xffff;
        // the kernel's echo reply goes without DF (icmp_reply)
        if (!req) w.df = false;
        if (p.frag) {
          w.ipId = (hashString(`frag|${t.srcIp}|${p.seq}`) ^ fid) & 0xffff;
          w.fragOffset = p.frag.last
            ? Math.floor(((p.frag.of - 1) * (this.mtu - 20)) / 8)
            : Math.floor((k * (this.mtu - 20)) / 8);
          w.mf = !p.frag.last;
        }
      }
      return w;
    }
  }

  /** Per flow: ISNs and TS offsets of both directions, and the keys of ts_recent (computed once). */
  private readonly flowConst = new Map<
    number,
    { mine: number; theirs: number; offMine: number; offTheirs: number; ckey: string; rkey: string }
  >();

  private tcp(p: Packet, k: number, w: WirePacket, atNs: number, tx: boolean): void {
    const t = p.flow.tuple;
    let fc = this.flowConst.get(p.flow.id);
    if (!fc) {
      fc = {
        mine: this.isn(t.srcIp, t.srcPort, t.dstIp, t.dstPort),
        theirs: this.isn(t.dstIp, t.dstPort, t.srcIp, t.srcPort),
        offMine: this.hashed('tsoff', t.srcIp, t.srcPort, t.dstIp, t.dstPort),
        offTheirs: this.hashed('tsoff', t.dstIp, t.dstPort, t.srcIp, t.srcPort),
        ckey: `${t.srcIp}.${t.srcPort}>${t.dstIp}.${t.dstPort}`,
        rkey: `${t.dstIp}.${t.dstPort}>${t.srcIp}.${t.srcPort}`,
      };
      this.flowConst.set(p.flow.id, fc);
    }
    const { mine, theirs } = fc;
    const syn = (p.flags & TCP_FLAG_SYN) !== 0;
    const seq = p.seq + k * p.payloadBytes;
    w.seq = syn ? mine : (mine + 1 + seq) >>> 0;
    w.ack = (theirs + 1 + p.ack) >>> 0;
    let f = 0;
    if (p.flags & TCP_FLAG_SYN) f |= TH.SYN;
    if (p.flags & TCP_FLAG_FIN) f |= TH.FIN;
    if (p.flags & TCP_FLAG_RST) f |= TH.RST;
    if (p.flags & TCP_FLAG_ACK || !syn) f |= TH.ACK;
    // Linux sets PSH on the last segment of a write (tcp_mark_push); the lab: on data segments that end a batch
    if ((p.flags & TCP_FLAG_PSH || (p.payloadBytes > 0 && k === p.count - 1)) && p.payloadBytes > 0)
      f |= TH.PUSH;
    w.flags = f;
    const val = (Math.floor((tx ? atNs : p.sentAtNs) / 1e6) + fc.offMine) >>> 0;
    // ecr: the newest TS val the sender had from its peer (0 on a SYN)
    const ecr =
      syn && !(p.flags & TCP_FLAG_ACK)
        ? 0
        : (this.tsRecent.get(fc.rkey) ??
          (Math.floor(Math.max(0, p.sentAtNs - 1) / 1e6) + fc.offTheirs) >>> 0);
    this.tsRecent.set(fc.ckey, val);
    if (syn) {
      // tcp_select_initial_window: the unscaled SYN window, a whole number of MSS
      const mss = this.mtu - 40;
      w.win = Math.floor(Math.min(65535, p.window) / mss) * mss;
      w.options = [
        { kind: 'mss', v: this.mtu - 40 },
        { kind: 'sackOK' },
        { kind: 'ts', val, ecr },
        { kind: 'nop' },
        { kind: 'wscale', v: WSCALE },
      ];
    } else {
      w.win = Math.min(65535, p.window >> WSCALE);
      w.options = [{ kind: 'nop' }, { kind: 'nop' }, { kind: 'ts', val, ecr }];
      if (p.sack && p.sack.length > 0 && k === 0) {
        const blocks: Array<[number, number]> = [];
        for (let j = 0; j + 1 < p.sack.length && blocks.length < 3; j += 2)
          blocks.push([(theirs + 1 + p.sack[j]!) >>> 0, (theirs + 1 + p.sack[j + 1]!) >>> 0]);
        w.options.push({ kind: 'nop' }, { kind: 'nop' }, { kind: 'sack', blocks });
        w.ipLen = p.sizeBytes + 4 + 8 * blocks.length;
      }
    }
  }
}

// ------------------------------------------------------------------ the command

interface Opts {
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

function parseArgs(args: string[]): Opts | CommandOutcome {
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

export function runTcpdump(args: string[], lab: Lab, host: Instance): CommandOutcome {
  const parsed = parseArgs(args);
  if ('kind' in parsed) return parsed;
  const o = parsed;
  let filter: Pred;
  try {
    filter = parseFilter(o.filter, (h) => lab.resolve(h)?.host.ip ?? null);
  } catch (e) {
    if (e instanceof FilterError) return fail(`tcpdump: can't parse filter expression: ${e.message}`);
    throw e;
  }
  const printer = new TcpdumpPrinter({
    numeric: o.numeric,
    eflag: o.eflag,
    qflag: o.qflag,
    vflag: o.vflag,
    tstamp: o.tstamp,
  });
  if (o.read !== null) return readFile(lab, host, o, filter, printer);
  const iface = o.iface ?? 'eth0';
  // eth0, an attached secondary ENI's eth1 …, or any
  const ifaceIdx = /^eth\d+$/.test(iface) ? Number(iface.slice(3)) : -1;
  if (iface !== 'any' && (ifaceIdx < 0 || host.host.ifaces[ifaceIdx] === undefined))
    return fail(`tcpdump: ${iface}: No such device exists\n(SIOCGIFHWADDR: No such device)`);
  let writer: PcapWriter | null = null;
  let writePath: string | null = null;
  if (o.write !== null) {
    const p = resolvePath(o.write);
    if (!p.ok) return fail(`tcpdump: ${p.error}`);
    writePath = p.path;
    writer = new PcapWriter(o.snaplen);
    lab.files.write(host.name, writePath, writer.file(), lab.nowNs);
  }
  const banner =
    // tcpdump.c: the hint only when neither -v nor -w was given
    (o.write === null && !o.vflag
      ? 'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n'
      : 'tcpdump: ') +
    `listening on ${iface}, link-type ${iface === 'any' ? 'LINUX_SLL2 (Linux cooked v2)' : 'EN10MB (Ethernet)'}, snapshot length ${o.snaplen} bytes\n`;
  if (iface === 'any' && writer)
    return fail('tcpdump: -i any with -w is not simulated in ec2-netlab (LINUX_SLL2 files): use -i eth0');
  if (iface === 'any' && (o.dump.x > 1 || o.dump.X > 1 || o.dump.A > 1))
    return fail(
      'tcpdump: -xx, -XX and -AA with -i any (the LINUX_SLL2 header) are not simulated in ec2-netlab: use -i eth0',
    );
  const dumping = o.dump.x + o.dump.X + o.dump.A > 0;
  const me = [...lab.instances.values()].indexOf(host);
  const mapper = new WireMapper(
    lab,
    (host.host.ifaces[Math.max(0, ifaceIdx)]?.dev ?? host.host.eth0).link().mtu,
  );
  // the interface a packet crosses: sent, the one holding its source address (forwarded: eth0);
  // received, the one the fabric delivered it to
  let pktDev = 0;
  const devOf = (p: Packet, tx: boolean): number =>
    host.host.ifaces.length === 1
      ? 0
      : tx
        ? lab.resolve(p.flow.tuple.srcIp) === host
          ? lab.deviceOfAddress(p.flow.tuple.srcIp)
          : 0
        : (host.host.rxDevByFlow[p.flow.id] ?? 0);
  let out = '';
  let lines = 0;
  let captured = 0;
  let stopped = false;
  let interrupted = false;
  let note = '';
  const take = (w: WirePacket) => {
    if (stopped || !filter(w)) return;
    captured++;
    if (writer) {
      if (writer.bytes < MAX_FILE_BYTES) writer.add(w);
      else if (!note)
        note = `tcpdump: lab note: ${o.write} reached ${MAX_FILE_BYTES / 1048576} MiB, the lab's limit for a file; later packets were counted, not written (use -c or -s)\n`;
    } else if (lines < MAX_LINES) {
      const caplen = Math.min(o.snaplen, 14 + w.ipLen);
      let line = printer.line(w, caplen);
      if (iface === 'any') line = line.replace(/^(\S+ )IP /, `$1eth${pktDev}  ${txDir ? 'Out' : 'In '} IP `);
      if (dumping)
        line = `${line.slice(0, -1)}${rawDump(encodeFrame(w, o.snaplen), o.dump, printer.linkHdrLen)}\n`;
      out += line;
      lines++;
    } else if (!note)
      note = `tcpdump: lab note: more than ${MAX_LINES} lines; later packets were counted, not printed (use -c or a filter)\n`;
    if (o.count > 0 && captured >= o.count) stopped = true;
  };
  let txDir = false;
  const sink: ProbeSink = {
    enter: (t, h, stage, _q, p) => {
      if (h !== me || stage !== 'tx_ring' || stopped) return;
      pktDev = devOf(p, true);
      if (ifaceIdx >= 0 && pktDev !== ifaceIdx) return;
      txDir = true;
      mapper.map(p, t, true, take);
    },
    leave: (t, h, stage, _q, p) => {
      if (h !== me || stage !== 'rx_ring' || stopped) return;
      pktDev = devOf(p, false);
      if (ifaceIdx >= 0 && pktDev !== ifaceIdx) return;
      txDir = false;
      mapper.map(p, t, false, take);
    },
    drop: () => {},
  };
  const detach = lab.probe.attach(sink);
  let finished = false;
  const job: Job = {
    done: () => stopped || interrupted,
    deadlineNs: () => (stopped || interrupted ? lab.nowNs : Number.POSITIVE_INFINITY),
    interrupt: () => {
      interrupted = true;
    },
    progress: () => out,
    lead: () => banner,
    finish: () => {
      if (!finished) {
        finished = true;
        detach();
        if (writer && writePath) lab.files.write(host.name, writePath, writer.file(), lab.nowNs);
      }
      const s = (n: number) => (n === 1 ? '' : 's');
      const stats = `${captured} packet${s(captured)} captured\n${captured} packet${s(captured)} received by filter\n0 packets dropped by kernel\n`;
      return {
        stdout: out,
        stderr: banner + note + (interrupted && !stopped ? '\n' : '') + stats,
        exitCode: 0,
      };
    },
  };
  return { kind: 'job', job };
}

function readFile(lab: Lab, host: Instance, o: Opts, filter: Pred, printer: TcpdumpPrinter): CommandOutcome {
  const p = resolvePath(o.read!);
  if (!p.ok) return fail(`tcpdump: ${p.error}`);
  const f = lab.files.read(host.name, p.path);
  if (!f) return fail(`tcpdump: ${o.read}: No such file or directory`);
  const r = readPcap(typeof f.data === 'string' ? toBytes(fileText(f.data)) : f.data);
  if ('error' in r) return fail(`tcpdump: ${o.read}: ${r.error}`);
  if (r.linktype !== 1)
    return fail(`tcpdump: ${o.read}: link-type ${r.linktype} is not simulated in ec2-netlab (Ethernet only)`);
  const dumping = o.dump.x + o.dump.X + o.dump.A > 0;
  let out = '';
  let n = 0;
  for (const rec of r.packets) {
    const w = decodeFrame(rec.data, rec.sec, rec.usec);
    if (!w || !filter(w)) continue;
    const line = printer.line(w, rec.data.length, rec.data);
    out += dumping ? `${line.slice(0, -1)}${rawDump(rec.data, o.dump, printer.linkHdrLen)}\n` : line;
    n++;
    if (o.count > 0 && n >= o.count) break;
  }
  return done(
    out,
    0,
    undefined,
    `reading from file ${o.read}, link-type EN10MB (Ethernet), snapshot length ${r.snaplen}\n`,
  );
}
