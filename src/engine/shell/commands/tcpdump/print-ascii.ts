/**
 * The raw data tcpdump prints after a packet's line: -x (hex), -X (hex and ASCII), -A (ASCII),
 * from the network layer, or doubled (-xx, -XX, -AA) from the link-layer header.
 * Sources: TCPDUMP print.c (pretty_print_packet), print-ascii.c.
 */
import type { DumpFlags } from './options';

/** The Ethernet header's length: what -x, -X and -A leave out (print.c's ndo_ll_hdr_len). */
export const LL_HDR_LEN = 14;

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

/** A 16-bit field as four hex digits (the checksums' %04x). */
export const hex4 = (n: number) => n.toString(16).padStart(4, '0');
