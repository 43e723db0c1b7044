/**
 * tcp_print: a TCP segment's part of tcpdump's line (ports, flags, relative sequence numbers per
 * connection, -v's checksum, the options; what a short snapshot leaves of them), and the flags'
 * letters.
 * Sources: TCPDUMP print-tcp.c (tcp_print, tcp_seq_hash, tcp_flag_values).
 */
import { encodeFrame, TH, type TcpOption, tcpChecksum, type WirePacket } from './pcap';
import type { Ndo } from './options';
import { hex4 } from './print-ascii';
import { portName } from './services';

/** tcp_seq_hash: per connection (lower address first), the first seq and ack seen. */
export type TcpSeqHash = Map<string, { seq: number; ack: number }>;

/** The segment's part of the line (after the time and the link/IP prefix), newline-terminated. */
export function tcpPrint(ndo: Ndo, seqBase: TcpSeqHash, p: WirePacket, src: string, dst: string): string {
  // print-tcp.c: without the ports captured, the addresses alone and the truncation mark
  if (ndo.caplen < 34 + 4) return `${src} > ${dst}: [|tcp]\n`;
  const n = ndo.o.numeric;
  return `${src}.${portName(p.sport, 6, n)} > ${dst}.${portName(p.dport, 6, n)}: ${tcpBody(ndo, seqBase, p)}\n`;
}

/** print-tcp.c's tcp_print for the fields the lab has. */
function tcpBody(ndo: Ndo, seqBase: TcpSeqHash, p: WirePacket): string {
  const hlen = p.tcpDoff ?? 20 + optionsLength(p.options);
  const length = p.ipLen - 20 - hlen;
  // the snapshot cut the fixed header: ND_TCHECK_SIZE's `goto trunc`
  if (ndo.caplen < 34 + 20) return ' [|tcp]';
  if (ndo.o.qflag) return `tcp ${length}`;
  let seq = p.seq >>> 0;
  let ack = p.ack >>> 0;
  const flags = p.flags;
  if (flags & TH.ACK) {
    // the connection key with the lower address/port first (print-tcp.c: rev)
    const a = `${p.srcIp}.${p.sport}`;
    const b = `${p.dstIp}.${p.dport}`;
    const rev = a > b;
    const key = rev ? `${b}-${a}` : `${a}-${b}`;
    const th = seqBase.get(key);
    if (!th || flags & TH.SYN) {
      seqBase.set(key, rev ? { ack: seq, seq: (ack - 1) >>> 0 } : { seq, ack: (ack - 1) >>> 0 });
    } else if (rev) {
      seq = (seq - th.ack) >>> 0;
      ack = (ack - th.seq) >>> 0;
    } else {
      seq = (seq - th.seq) >>> 0;
      ack = (ack - th.ack) >>> 0;
    }
  }
  let s = `Flags [${tcpFlags(flags)}]`;
  if (ndo.o.vflag && ndo.caplen >= 14 + p.ipLen) {
    const hdr = encodeFrame({ ...p, tcpSum: 0 }, 34 + hlen).subarray(34, 34 + hlen);
    const good = tcpChecksum(p, hdr);
    const stored = p.tcpSum ?? good;
    s +=
      stored === good
        ? `, cksum 0x${hex4(stored)} (correct)`
        : `, cksum 0x${hex4(stored)} (incorrect -> 0x${hex4(good)})`;
  }
  if ((ndo.o.vflag ?? 0) > 1 || length > 0 || flags & (TH.SYN | TH.FIN | TH.RST)) {
    s += `, seq ${seq}`;
    if (length > 0) s += `:${(seq + length) >>> 0}`;
  }
  if (flags & TH.ACK) s += `, ack ${ack}`;
  s += `, win ${p.win}`;
  if (ndo.caplen < 34 + hlen) {
    // the snapshot cut the options: print-tcp.c's option loop over the bytes captured
    const bytes = (ndo.frame ?? encodeFrame(p, ndo.caplen)).subarray(
      34 + 20,
      Math.min(ndo.caplen, 34 + hlen),
    );
    const t = truncatedOptions(bytes, hlen - 20);
    if (t.jumped) ndo.linkHdrLen = 0;
    return s + t.text;
  }
  if (p.options.length > 0) s += `, options [${p.options.map(optionText).join(',')}]`;
  s += `, length ${length}`;
  return s;
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
