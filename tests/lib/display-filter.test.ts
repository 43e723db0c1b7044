/**
 * The packet list's display filter (src/lib/display-filter.ts): Wireshark's syntax and meanings
 * (!= as "not ==" on two-valued fields, absent fields compare false, bare fields test presence,
 * CIDR, sets and ranges), errors that name the problem and its span, and any text at all either
 * parsing or giving such an error (property).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  DISPLAY_FIELDS,
  type FieldReader,
  FilterError,
  formatFilter,
  ipv4Number,
  parseDisplayFilter,
} from '../../src/lib/display-filter';

/** Rows as plain objects: a field is present when the row has its key. */
type Row = Record<string, number | number[]>;
const ROWS: Row[] = [
  {
    'ip.src': ipv4Number('10.0.0.10'),
    'ip.dst': ipv4Number('10.0.0.11'),
    'tcp.port': [45000, 5201],
    tcp: 1,
    'tcp.flags.syn': 1,
    'frame.len': 74,
    host: 0,
  },
  {
    'ip.src': ipv4Number('10.0.0.11'),
    'ip.dst': ipv4Number('10.0.0.10'),
    'tcp.port': [5201, 45000],
    tcp: 1,
    'tcp.flags.syn': 0,
    'frame.len': 9015,
    host: 1,
  },
  {
    'ip.src': ipv4Number('10.0.0.10'),
    'ip.dst': ipv4Number('10.0.1.5'),
    'udp.port': [33000, 53],
    udp: 1,
    'frame.len': 80,
    host: 0,
  },
  { drop: 1, 'drop.reason': 1, host: 1 },
];
const STRINGS: Record<string, string[]> = {
  host: ['client', 'server'],
  'drop.reason': ['rx_ring_full', 'pps_allowance_exceeded'],
};
const source = {
  field(name: string): FieldReader {
    const key = name === 'ip.addr' ? null : name;
    if (key === null)
      return {
        has: (i) => 'ip.src' in ROWS[i]!,
        get: [(i) => ROWS[i]!['ip.src'] as number, (i) => ROWS[i]!['ip.dst'] as number],
      };
    const v = (i: number, k: number) => {
      const x = ROWS[i]![key];
      return Array.isArray(x) ? x[k]! : (x as number);
    };
    const two = key.endsWith('.port');
    return {
      has: (i) => key in ROWS[i]!,
      get: two ? [(i) => v(i, 0), (i) => v(i, 1)] : [(i) => v(i, 0)],
      strings: STRINGS[key],
    };
  },
};
const rows = (f: string) => {
  const p = compileFilter(parseDisplayFilter(f), source);
  return ROWS.flatMap((_, i) => (p(i) ? [i] : []));
};
const error = (f: string) => {
  try {
    parseDisplayFilter(f);
  } catch (e) {
    if (e instanceof FilterError) return { message: e.message, span: f.slice(e.start, e.end) };
    throw e;
  }
  return null;
};

describe('display filter', () => {
  it('selects as Wireshark does', () => {
    expect(rows('')).toEqual([0, 1, 2, 3]);
    expect(rows('tcp')).toEqual([0, 1]);
    expect(rows('ip.addr == 10.0.0.11')).toEqual([0, 1]);
    expect(rows('ip.addr == 10.0.0.0/24')).toEqual([0, 1, 2]);
    expect(rows('ip.dst eq 10.0.1.0/24')).toEqual([2]);
    expect(rows('tcp.port == 5201 && ip.src == 10.0.0.10')).toEqual([0]);
    // "!=" is "not ==" (Wireshark ≥ 3.6), and false where the field is absent
    expect(rows('tcp.port != 5201')).toEqual([]);
    expect(rows('tcp.port != 80')).toEqual([0, 1]);
    expect(rows('!(tcp.port == 80)')).toEqual([0, 1, 2, 3]);
    expect(rows('tcp.flags.syn == 1 || udp')).toEqual([0, 2]);
    expect(rows('tcp.flags.syn == True')).toEqual([0]);
    expect(rows('frame.len > 74 and not udp')).toEqual([1]);
    expect(rows('frame.len >= 74 && frame.len <= 80')).toEqual([0, 2]);
    expect(rows('udp.port in {50..60 80}')).toEqual([2]);
    expect(rows('drop && drop.reason == "pps_allowance_exceeded"')).toEqual([3]);
    expect(rows('drop.reason contains "allowance"')).toEqual([3]);
    expect(rows('host == server')).toEqual([1, 3]);
    expect(rows('(tcp || udp) && !(host == client)')).toEqual([1]);
  });

  it('says what is wrong, and where', () => {
    expect(error('ip.sr == 10.0.0.1')).toEqual({
      message: '"ip.sr" is not a valid protocol or protocol field.',
      span: 'ip.sr',
    });
    expect(error('ip.src == 10.0.0.256')).toEqual({
      message: '"10.0.0.256" is not a valid hostname or IPv4 address.',
      span: '10.0.0.256',
    });
    expect(error('tcp.port == ')).toEqual({ message: 'Unexpected end of filter expression.', span: '' });
    expect(error('tcp.port = 80')?.message).toBe('"=" is not an operator: use "==" to compare.');
    expect(error('(tcp')?.message).toBe('Unbalanced parenthesis: ")" is missing.');
    expect(error('tcp)')?.message).toBe('Unbalanced parenthesis: this ")" closes nothing.');
    expect(error('tcp udp')).toEqual({
      message: '"udp" was unexpected in this context (join tests with "and" / "or").',
      span: 'udp',
    });
    expect(error('tcp.port == http')?.message).toBe('"http" is not a valid number for tcp.port.');
    expect(error('stage == nitro_egres')?.message).toMatch(
      /^"nitro_egres" is not a stage \(one of: socket_tx, /,
    );
    expect(error('tcp.flags.syn == 2')?.message).toMatch(/not a valid Boolean/);
    expect(error('tcp == 1')?.message).toMatch(/^tcp is a protocol/);
    expect(error('drop.reason > "a"')?.message).toMatch(/is a string: compare it with == or !=/);
    expect(error('"x"')?.message).toMatch(/is a string: a filter starts with a field name/);
    expect(error('ip.addr == "unterminated')?.message).toBe(
      'The string is missing its closing double quote.',
    );
    expect(error('5201')?.message).toMatch(/is a value: compare a field with it/);
    // no text breaks the parser itself: deep nesting and long text are the filter's errors
    expect(error(`${'('.repeat(5000)}tcp${')'.repeat(5000)}`)?.message).toMatch(
      /characters long; the lab takes 4,096 at most/,
    );
    expect(error(`${'('.repeat(1000)}tcp${')'.repeat(1000)}`)?.message).toBe(
      'More than 200 nested "(" or "!".',
    );
    expect(error(`${'!'.repeat(1000)}tcp`)?.message).toBe('More than 200 nested "(" or "!".');
    expect(rows(`${'('.repeat(150)}tcp${')'.repeat(150)}`)).toEqual([0, 1]);
  });

  it('every field the page documents parses', () => {
    for (const f of DISPLAY_FIELDS) {
      const v =
        f.type === 'ipv4'
          ? '10.0.0.1'
          : f.type === 'mac'
            ? '02:00:00:00:00:01'
            : f.type === 'bool'
              ? '1'
              : f.type === 'string'
                ? `"${f.values?.[0] ?? 'x'}"`
                : '1';
      expect(() => parseDisplayFilter(f.type === 'protocol' ? f.name : `${f.name} == ${v}`)).not.toThrow();
    }
  });

  it('any text parses or gives a FilterError with a span inside it (property)', () => {
    const words = [
      'ip.addr',
      'tcp.port',
      'udp',
      'tcp',
      'drop',
      'drop.reason',
      'stage',
      'frame.len',
      'tcp.flags.syn',
      'ip.src',
      '==',
      '!=',
      '<',
      '>=',
      'eq',
      'ne',
      'and',
      'or',
      'not',
      '&&',
      '||',
      '!',
      '(',
      ')',
      '{',
      '}',
      '..',
      '&',
      'in',
      'contains',
      '10.0.0.1',
      '10.0.0.0/24',
      '5201',
      '0x12',
      '"pps_allowance_exceeded"',
      'nitro_egress',
      '1',
      'True',
      '"',
      '=',
      '===',
      '~',
      ',',
      'ßé',
      '-1',
      '1e9',
      'NaN',
    ];
    const text = fc.oneof(
      fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((w) => w.join(' ')),
      fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((w) => w.join('')),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        try {
          const ast = parseDisplayFilter(t);
          // what parses prints back to a filter that parses to the same thing
          expect(formatFilter(parseDisplayFilter(formatFilter(ast)))).toBe(formatFilter(ast));
        } catch (e) {
          expect(e).toBeInstanceOf(FilterError);
          const fe = e as FilterError;
          expect(fe.message.length).toBeGreaterThan(10);
          // (what the user typed is quoted back; the rest is the lab's words)
          expect(fe.message.replace(/"[^"]*"/g, '')).not.toMatch(/undefined|NaN|\[object/);
          expect(fe.start).toBeGreaterThanOrEqual(0);
          expect(fe.end).toBeLessThanOrEqual(t.length);
          expect(fe.start).toBeLessThanOrEqual(fe.end);
        }
      }),
      { seed: 16, numRuns: 2000 },
    );
  });
});
