/** src/lib/time.ts: the Date-free RFC 1123 formatter agrees with the platform's UTC calendar. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LAB_EPOCH_UNIX_S, rfc1123, utcFields } from '../../src/lib/time';

describe('rfc1123', () => {
  it('formats the lab epoch as iperf3 prints it', () => {
    expect(LAB_EPOCH_UNIX_S).toBe(1_733_158_800);
    expect(rfc1123(LAB_EPOCH_UNIX_S)).toBe('Mon, 02 Dec 2024 17:00:00 GMT');
  });

  it('handles the Unix epoch, leap days, century rules and year ends', () => {
    expect(rfc1123(0)).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
    expect(rfc1123(951_782_400)).toBe('Tue, 29 Feb 2000 00:00:00 GMT'); // 2000 is a leap year
    expect(rfc1123(4_107_542_400)).toBe('Mon, 01 Mar 2100 00:00:00 GMT'); // 2100 is not
    expect(rfc1123(1_735_689_599)).toBe('Tue, 31 Dec 2024 23:59:59 GMT');
    expect(rfc1123(-1)).toBe('Wed, 31 Dec 1969 23:59:59 GMT');
  });

  it('drops fractions toward minus infinity, as gmtime on a time_t', () => {
    expect(rfc1123(LAB_EPOCH_UNIX_S + 59.999)).toBe('Mon, 02 Dec 2024 17:00:59 GMT');
  });

  it('agrees with Date#toUTCString over a wide range (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800, max: 253_402_300_799 }), (s) => {
        // Date pads years below 1000 differently; compare from year 1000 on only through the string,
        // and the fields everywhere.
        const d = new Date(s * 1000);
        const f = utcFields(s);
        expect([f.year, f.month, f.day, f.hour, f.minute, f.second, f.weekday]).toEqual([
          d.getUTCFullYear(),
          d.getUTCMonth() + 1,
          d.getUTCDate(),
          d.getUTCHours(),
          d.getUTCMinutes(),
          d.getUTCSeconds(),
          d.getUTCDay(),
        ]);
        if (f.year >= 1000) expect(rfc1123(s)).toBe(d.toUTCString());
      }),
      { seed: 20241202, numRuns: 2000 },
    );
  });
});
