/**
 * udp_print: a UDP datagram's part of tcpdump's line (ports, -vv's checksum, the length), and the
 * DNS header the lab's queries carry (domain_print); what a short snapshot leaves of them.
 * Sources: TCPDUMP print-udp.c, print-domain.c.
 */
import type { Ndo } from './options';
import { udpChecksum, type WirePacket } from './pcap';
import { hex4 } from './print-ascii';
import { portName } from './services';

/** The datagram's part of the line (after the time and the link/IP prefix), newline-terminated. */
export function udpPrint(ndo: Ndo, p: WirePacket, src: string, dst: string): string {
  const ulen = p.ipLen - 20 - 8;
  // print-udp.c: the ports not captured, or the rest of the header: its `trunc:`
  if (ndo.caplen < 34 + 4) return `${src} > ${dst}:  [|udp]\n`;
  const n = ndo.o.numeric;
  let head = `${src}.${portName(p.sport, 17, n)} > ${dst}.${portName(p.dport, 17, n)}: `;
  if (ndo.caplen < 34 + 8) return `${head} [|udp]\n`;
  // -vv: the IPv4 UDP checksum, when the whole datagram was captured (print-udp.c)
  if ((ndo.o.vflag ?? 0) > 1 && !p.mf && ndo.caplen >= 14 + p.ipLen) {
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
  if ((p.sport === 53 || p.dport === 53) && !ndo.o.qflag)
    // domain_print: a header (12 bytes) not captured whole is cut there
    return ndo.caplen < 42 + 12 ? `${head} [|domain]\n` : `${head}0 [0q] (${ulen})\n`;
  return `${head}UDP, length ${ulen}\n`;
}
