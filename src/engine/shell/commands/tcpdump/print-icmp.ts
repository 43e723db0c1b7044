/**
 * icmp_print for the echo request and reply the lab sends (ping): type, id, seq and length; a
 * snapshot that cuts the echo header longjmps out of the GET macros.
 * Sources: TCPDUMP print-icmp.c.
 */
import type { Ndo } from './options';
import type { WirePacket } from './pcap';

/** The message's part of the line (after the time and the link/IP prefix), newline-terminated. */
export function icmpPrint(ndo: Ndo, p: WirePacket, src: string, dst: string): string {
  // icmp_print reads the echo header with GET macros: a cut longjmps (nothing of it printed)
  if (ndo.caplen < 34 + 8) {
    ndo.linkHdrLen = 0;
    return `${src} > ${dst}:  [|icmp]\n`;
  }
  const what = p.icmpType === 8 ? 'echo request' : p.icmpType === 0 ? 'echo reply' : `type-#${p.icmpType}`;
  return `${src} > ${dst}: ICMP ${what}, id ${p.icmpId}, seq ${p.icmpSeq}, length ${p.ipLen - 20}\n`;
}
