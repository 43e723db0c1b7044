/**
 * unit_snprintf's adaptive units, as iperf3 prints them (glibc's "%.*f" and "%.*g": ./printf.ts).
 * Source: esnet/iperf src/units.c.
 */
import type { Iperf3Format } from './iperf3-options';
import { cFixed } from './printf';

const BYTE_LABELS = ['Byte', 'KByte', 'MByte', 'GByte', 'TByte'];
const BIT_LABELS = ['bit', 'Kbit', 'Mbit', 'Gbit', 'Tbit'];

/**
 * unit_snprintf (src/units.c). Upper-case formats print bytes (1024-based), lower-case bits
 * (value × 8, 1000-based); 'A'/'a' choose the unit adaptively. The label is singular: callers
 * append "s" or "s/sec" as iperf3's format strings do ("%ss  %ss/sec").
 */
export function unitSnprintf(value: number, fmt: Iperf3Format | 'A'): string {
  const bytesMode = fmt === fmt.toUpperCase();
  let n = bytesMode ? value : value * 8;
  const base = bytesMode ? 1024 : 1000;
  let conv: number;
  switch (fmt.toUpperCase()) {
    case 'K':
      conv = 1;
      break;
    case 'M':
      conv = 2;
      break;
    case 'G':
      conv = 3;
      break;
    case 'T':
      conv = 4;
      break;
    default: {
      conv = 0;
      let tmp = n;
      while (tmp >= base && conv < 4) {
        tmp /= base;
        conv++;
      }
    }
  }
  n *= 1 / base ** conv;
  const label = (bytesMode ? BYTE_LABELS : BIT_LABELS)[conv]!;
  // "print such that we always fit in 4 places"
  let s: string;
  if (n < 9.995) s = cFixed(n, 2);
  else if (n < 99.95) s = cFixed(n, 1);
  else s = cFixed(n, 0);
  return `${s.padStart(4)} ${label}`;
}
