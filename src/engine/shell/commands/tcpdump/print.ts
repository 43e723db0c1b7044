/**
 * tcpdump's line per packet: the time (-t, -tttt), the link header (-e, print-ether.c), the IPv4
 * header (-v, print-ip.c) and, by protocol, print-tcp.ts, print-udp.ts, print-icmp.ts (GRE and
 * other protocols in one line, later fragments as ip-proto-N). Names as the lab's resolver gives
 * them (-n, -nn: numbers).
 * Sources: TCPDUMP print.c, print-ether.c, print-ip.c, print-gre.c.
 */
import { utcFields } from '../../../../lib/time';
import type { Ndo, PrintOptions } from './options';
import type { WirePacket } from './pcap';
import { LL_HDR_LEN } from './print-ascii';
import { icmpPrint } from './print-icmp';
import { type TcpSeqHash, tcpPrint } from './print-tcp';
import { udpPrint } from './print-udp';

/** The printer, with tcpdump's per-connection state for relative sequence numbers (print-tcp.c, tcp_seq_hash). */
export class TcpdumpPrinter implements Ndo {
  private readonly seqBase: TcpSeqHash = new Map();
  caplen = Number.POSITIVE_INFINITY;
  frame: Uint8Array | null = null;
  /**
   * What the raw dump after the last line leaves out: the Ethernet header, or nothing when a
   * printer longjmped out on a truncated packet (print.c: ND_TRUNCATED sets ndo_ll_hdr_len to 0).
   */
  linkHdrLen = 14;
  constructor(readonly o: PrintOptions) {}

  private host(ip: string): string {
    return this.o.numeric >= 1 ? ip : `ip-${ip.replace(/\./g, '-')}.ec2.internal`;
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
    if (p.proto === 6) return s + tcpPrint(this, this.seqBase, p, src, dst);
    if (p.proto === 17) return s + udpPrint(this, p, src, dst);
    if (p.proto === 1) return s + icmpPrint(this, p, src, dst);
    if (p.proto === 47) return `${s}${src} > ${dst}: GREv0, length ${p.ipLen - 20}\n`;
    return `${s}${src} > ${dst}: ip-proto-${p.proto} ${p.ipLen - 20}\n`;
  }
}
