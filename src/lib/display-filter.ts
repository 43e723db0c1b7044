/**
 * Display filters for the packet list, in Wireshark's display-filter syntax (wireshark-filter(4)):
 * fields (`ip.addr`, `tcp.port`, `tcp.flags.syn` …), comparisons (== eq, != ne, < lt, > gt,
 * <= le, >= ge, `contains`, `in {…}`), a bare field tests its presence (`tcp`, `drop`), `field & mask`
 * tests bits, combined with and/&&, or/||, not/!, parentheses. As in Wireshark since 3.6, `a != b`
 * means `!(a == b)` for a field with two values (ip.addr, tcp.port), and a comparison with a field
 * the packet does not have is false. The lab's own fields (drops, stages, credit events) are listed
 * in DISPLAY_FIELDS with the others; docs/design.md "The packet list" gives the grammar.
 *
 * Pure: parse() gives an AST or a FilterError with the offending span (the page colours the box
 * and shows the message; nothing is thrown past it); compile() turns the AST into a row predicate
 * over a FilterSource (the worker's capture columns, or a test's rows).
 */

export type FieldType = 'protocol' | 'uint' | 'float' | 'bool' | 'ipv4' | 'mac' | 'string';

export interface FieldDef {
  name: string;
  type: FieldType;
  what: string;
  /** For string fields with a fixed set of values: the values (a literal outside them is refused). */
  values?: readonly string[];
}

/** The stages a row is seen at (capture points, drops, credit events): the probe's names. */
export const ROW_STAGES = [
  'socket_tx',
  'qdisc',
  'tx_ring',
  'nitro_egress',
  'fabric',
  'nitro_ingress',
  'rx_ring',
  'socket_rx',
] as const;

/** Interface names a capture row can carry (eth0 and the device indexes an ENI may attach at, 1 … 31). */
export const IFACE_NAMES: readonly string[] = Array.from({ length: 32 }, (_, i) => `eth${i}`);

export const DISPLAY_FIELDS: readonly FieldDef[] = [
  { name: 'frame', type: 'protocol', what: 'every row' },
  { name: 'frame.number', type: 'uint', what: 'the row number (No.)' },
  { name: 'frame.time_relative', type: 'float', what: 'seconds of simulated time' },
  { name: 'frame.len', type: 'uint', what: 'frame length on the wire, bytes (Ethernet + IP)' },
  {
    name: 'frame.interface_name',
    type: 'string',
    what: 'the interface a captured packet crossed (eth0, eth1 of an attached ENI …)',
    values: IFACE_NAMES,
  },
  { name: 'eth', type: 'protocol', what: 'Ethernet' },
  { name: 'eth.src', type: 'mac', what: 'source MAC' },
  { name: 'eth.dst', type: 'mac', what: 'destination MAC' },
  { name: 'eth.addr', type: 'mac', what: 'source or destination MAC' },
  { name: 'ip', type: 'protocol', what: 'IPv4' },
  { name: 'ip.src', type: 'ipv4', what: 'source address (a.b.c.d or a.b.c.d/len)' },
  { name: 'ip.dst', type: 'ipv4', what: 'destination address' },
  { name: 'ip.addr', type: 'ipv4', what: 'source or destination address' },
  { name: 'ip.proto', type: 'uint', what: 'IP protocol number (6 TCP, 17 UDP, 1 ICMP, 47 GRE)' },
  { name: 'ip.len', type: 'uint', what: 'IP total length' },
  { name: 'ip.dsfield', type: 'uint', what: 'the TOS byte' },
  { name: 'ip.flags.df', type: 'bool', what: "Don't fragment" },
  { name: 'ip.flags.mf', type: 'bool', what: 'More fragments' },
  { name: 'ip.frag_offset', type: 'uint', what: 'fragment offset, bytes' },
  { name: 'tcp', type: 'protocol', what: 'TCP' },
  { name: 'tcp.srcport', type: 'uint', what: 'TCP source port' },
  { name: 'tcp.dstport', type: 'uint', what: 'TCP destination port' },
  { name: 'tcp.port', type: 'uint', what: 'TCP source or destination port' },
  { name: 'tcp.stream', type: 'uint', what: 'TCP connection index (both directions)' },
  { name: 'tcp.seq', type: 'uint', what: 'relative sequence number' },
  { name: 'tcp.ack', type: 'uint', what: 'relative acknowledgment number' },
  { name: 'tcp.len', type: 'uint', what: 'TCP payload bytes' },
  { name: 'tcp.window_size_value', type: 'uint', what: 'window field as sent' },
  { name: 'tcp.flags', type: 'uint', what: 'the flags byte (0x02 SYN, 0x10 ACK …)' },
  { name: 'tcp.flags.fin', type: 'bool', what: 'FIN' },
  { name: 'tcp.flags.syn', type: 'bool', what: 'SYN' },
  { name: 'tcp.flags.reset', type: 'bool', what: 'RST' },
  { name: 'tcp.flags.push', type: 'bool', what: 'PSH' },
  { name: 'tcp.flags.ack', type: 'bool', what: 'ACK' },
  {
    name: 'tcp.analysis.retransmission',
    type: 'protocol',
    what: 'data sent again: its sequence number below the highest its direction reached before',
  },
  { name: 'udp', type: 'protocol', what: 'UDP' },
  { name: 'udp.srcport', type: 'uint', what: 'UDP source port' },
  { name: 'udp.dstport', type: 'uint', what: 'UDP destination port' },
  { name: 'udp.port', type: 'uint', what: 'UDP source or destination port' },
  { name: 'udp.length', type: 'uint', what: 'UDP length (header + payload)' },
  { name: 'icmp', type: 'protocol', what: 'ICMP' },
  { name: 'icmp.type', type: 'uint', what: 'ICMP type (8 echo request, 0 echo reply)' },
  { name: 'gre', type: 'protocol', what: 'GRE' },
  { name: 'host', type: 'string', what: 'the instance the row was seen on (client, server …)' },
  {
    name: 'dir',
    type: 'string',
    what: 'capture direction: out (sent) or in (received)',
    values: ['out', 'in'],
  },
  { name: 'stage', type: 'string', what: 'where the row was seen', values: ROW_STAGES },
  { name: 'drop', type: 'protocol', what: 'a drop (lab event)' },
  { name: 'drop.reason', type: 'string', what: 'why it was dropped (pps_allowance_exceeded …)' },
  { name: 'drop.count', type: 'uint', what: 'packets the drop took' },
  { name: 'credits', type: 'protocol', what: 'a burst-credit event (lab event)' },
  {
    name: 'credits.event',
    type: 'string',
    what: 'exhausted or restored',
    values: ['exhausted', 'restored'],
  },
  { name: 'credits.direction', type: 'string', what: 'out or in', values: ['out', 'in'] },
];

const FIELD_BY_NAME = new Map(DISPLAY_FIELDS.map((f) => [f.name, f]));

export class FilterError extends Error {
  constructor(
    message: string,
    /** The offending span in the filter text [start, end). */
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

export type CmpOp = '==' | '!=' | '<' | '>' | '<=' | '>=';

export type Literal =
  | { kind: 'number'; value: number; text: string; start: number; end: number }
  | { kind: 'string'; value: string; quoted: boolean; text: string; start: number; end: number };

export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; arg: FilterNode }
  | { kind: 'has'; field: FieldDef; start: number; end: number }
  | { kind: 'cmp'; field: FieldDef; op: CmpOp; value: Literal; start: number; end: number }
  | { kind: 'in'; field: FieldDef; values: Array<Literal | [Literal, Literal]>; start: number; end: number }
  | { kind: 'contains'; field: FieldDef; value: Literal; start: number; end: number }
  | { kind: 'bits'; field: FieldDef; mask: Literal; start: number; end: number };

interface Tok {
  t: string;
  /** 'word' (names, numbers, addresses), 'str' (quoted), 'op' */
  k: 'word' | 'str' | 'op';
  start: number;
  end: number;
}

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '..', '<', '>', '!', '(', ')', '{', '}', '&', ',', '='];

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let v = '';
      while (j < s.length && s[j] !== '"') {
        if (s[j] === '\\' && j + 1 < s.length) j++;
        v += s[j];
        j++;
      }
      if (j >= s.length)
        throw new FilterError('The string is missing its closing double quote.', i, s.length);
      out.push({ t: v, k: 'str', start: i, end: j + 1 });
      i = j + 1;
      continue;
    }
    const op = OPS.find((o) => s.startsWith(o, i));
    // a dot inside a word (10.0.0.1, ip.src) is the word's: words start with no operator character
    if (op) {
      if (op === '=') throw new FilterError('"=" is not an operator: use "==" to compare.', i, i + 1);
      out.push({ t: op, k: 'op', start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    const m = /^[A-Za-z0-9_.:/-]+/.exec(s.slice(i));
    if (!m) throw new FilterError(`"${c}" was unexpected in this context.`, i, i + 1);
    let w = m[0];
    // a range "5200..5210": the word stops before ".."
    const dd = w.indexOf('..');
    if (dd > 0) w = w.slice(0, dd);
    out.push({ t: w, k: 'word', start: i, end: i + w.length });
    i += w.length;
  }
  return out;
}

const CMP: Record<string, CmpOp> = {
  '==': '==',
  eq: '==',
  '!=': '!=',
  ne: '!=',
  '<': '<',
  lt: '<',
  '>': '>',
  gt: '>',
  '<=': '<=',
  le: '<=',
  '>=': '>=',
  ge: '>=',
};

/** Longest filter text, and deepest nesting of parentheses and negations, the parser takes. */
const MAX_FILTER_CHARS = 4096;
const MAX_DEPTH = 200;

/** Parse a display filter; '' (or blanks) is null: every row. Throws FilterError. */
export function parseDisplayFilter(text: string): FilterNode | null {
  if (text.length > MAX_FILTER_CHARS)
    throw new FilterError(
      `The filter is ${text.length.toLocaleString('en-US')} characters long; the lab takes ${MAX_FILTER_CHARS.toLocaleString('en-US')} at most.`,
      MAX_FILTER_CHARS,
      text.length,
    );
  const toks = tokenize(text);
  if (toks.length === 0) return null;
  let i = 0;
  const peek = () => toks[i];
  const end = () => new FilterError('Unexpected end of filter expression.', text.length, text.length);
  const word = (t: Tok | undefined, w: string) => t !== undefined && t.k !== 'str' && t.t === w;

  const literal = (): Literal => {
    const t = toks[i++];
    if (!t) throw end();
    if (t.k === 'op') throw new FilterError(`"${t.t}" was unexpected in this context.`, t.start, t.end);
    if (t.k === 'str')
      return { kind: 'string', value: t.t, quoted: true, text: t.t, start: t.start, end: t.end };
    if (/^(0x[0-9a-f]+|\d+(\.\d+)?)$/i.test(t.t))
      return { kind: 'number', value: Number(t.t), text: t.t, start: t.start, end: t.end };
    return { kind: 'string', value: t.t, quoted: false, text: t.t, start: t.start, end: t.end };
  };

  const test = (): FilterNode => {
    const t = toks[i++];
    if (!t) throw end();
    if (t.k !== 'word')
      throw new FilterError(
        t.k === 'str'
          ? `"${t.t}" is a string: a filter starts with a field name.`
          : `"${t.t}" was unexpected in this context.`,
        t.start,
        t.end,
      );
    const field = FIELD_BY_NAME.get(t.t);
    if (!field) {
      if (/^(0x[0-9a-f]+|[\d.]+)$/i.test(t.t))
        throw new FilterError(
          `"${t.t}" is a value: compare a field with it (ip.addr == ${t.t}).`,
          t.start,
          t.end,
        );
      throw new FilterError(`"${t.t}" is not a valid protocol or protocol field.`, t.start, t.end);
    }
    const n = peek();
    if (n && CMP[n.t] !== undefined && n.k !== 'str') {
      i++;
      const op = CMP[n.t]!;
      if (field.type === 'protocol')
        throw new FilterError(
          `${field.name} is a protocol: test it alone ("${field.name}"), it has no value to compare.`,
          t.start,
          n.end,
        );
      const value = literal();
      const node: FilterNode = { kind: 'cmp', field, op, value, start: t.start, end: value.end };
      check(node, field, value, op);
      return node;
    }
    if (word(n, 'contains')) {
      i++;
      const value = literal();
      if (field.type !== 'string')
        throw new FilterError(
          `${field.name} is not a string field: "contains" works on strings.`,
          n!.start,
          value.end,
        );
      return { kind: 'contains', field, value, start: t.start, end: value.end };
    }
    if (word(n, 'in')) {
      i++;
      const open = toks[i++];
      if (!open) throw end();
      if (open.t !== '{') throw new FilterError('Expected "{" after "in".', open.start, open.end);
      const values: Array<Literal | [Literal, Literal]> = [];
      for (;;) {
        const c = peek();
        if (!c) throw end();
        if (c.t === '}' && c.k === 'op') {
          i++;
          break;
        }
        if (c.t === ',' && c.k === 'op') {
          i++;
          continue;
        }
        const a = literal();
        check(null, field, a, '==');
        if (peek()?.t === '..' && peek()?.k === 'op') {
          i++;
          const b = literal();
          check(null, field, b, '==');
          values.push([a, b]);
        } else values.push(a);
      }
      if (values.length === 0) throw new FilterError('The set is empty.', open.start, toks[i - 1]!.end);
      return { kind: 'in', field, values, start: t.start, end: toks[i - 1]!.end };
    }
    if (n && n.t === '&' && n.k === 'op') {
      i++;
      const mask = literal();
      if (field.type !== 'uint' || mask.kind !== 'number')
        throw new FilterError(
          `"&" takes an integer field and a number (tcp.flags & 0x02).`,
          n.start,
          mask.end,
        );
      return { kind: 'bits', field, mask, start: t.start, end: mask.end };
    }
    return { kind: 'has', field, start: t.start, end: t.end };
  };

  let depth = 0;
  const unary = (): FilterNode => {
    const t = peek();
    if (!t) throw end();
    // (a recursion the stack could not hold would not be the filter's error)
    if (++depth > MAX_DEPTH)
      throw new FilterError(`More than ${MAX_DEPTH} nested "(" or "!".`, t.start, t.end);
    try {
      return unaryIn(t);
    } finally {
      depth--;
    }
  };
  const unaryIn = (t: Tok): FilterNode => {
    if (t.k !== 'str' && (t.t === '!' || t.t === 'not')) {
      i++;
      return { kind: 'not', arg: unary() };
    }
    if (t.k === 'op' && t.t === '(') {
      i++;
      const e = orExpr();
      const c = toks[i++];
      if (!c) throw new FilterError('Unbalanced parenthesis: ")" is missing.', t.start, text.length);
      if (c.t !== ')') throw new FilterError(`"${c.t}" was unexpected in this context.`, c.start, c.end);
      return e;
    }
    return test();
  };
  const isAnd = (t: Tok | undefined) => t !== undefined && t.k !== 'str' && (t.t === '&&' || t.t === 'and');
  const isOr = (t: Tok | undefined) => t !== undefined && t.k !== 'str' && (t.t === '||' || t.t === 'or');
  const andExpr = (): FilterNode => {
    let l = unary();
    while (isAnd(peek())) {
      i++;
      l = { kind: 'and', left: l, right: unary() };
    }
    return l;
  };
  const orExpr = (): FilterNode => {
    let l = andExpr();
    while (isOr(peek())) {
      i++;
      l = { kind: 'or', left: l, right: andExpr() };
    }
    return l;
  };
  const e = orExpr();
  const rest = peek();
  if (rest) {
    if (rest.t === ')')
      throw new FilterError('Unbalanced parenthesis: this ")" closes nothing.', rest.start, rest.end);
    throw new FilterError(
      `"${rest.t}" was unexpected in this context (join tests with "and" / "or").`,
      rest.start,
      rest.end,
    );
  }
  return e;
}

/** What a literal means for a field: checked at parse time (a mistyped value is an error in the box). */
function check(_node: FilterNode | null, field: FieldDef, v: Literal, op: CmpOp): void {
  const bad = (msg: string) => new FilterError(msg, v.start, v.end);
  switch (field.type) {
    case 'uint':
    case 'float':
      if (v.kind !== 'number' || (field.type === 'uint' && !Number.isInteger(v.value)))
        throw bad(`"${v.text}" is not a valid number for ${field.name}.`);
      return;
    case 'bool':
      if (!(v.kind === 'number' ? v.value === 0 || v.value === 1 : /^(true|false)$/i.test(v.value)))
        throw bad(`"${v.text}" is not a valid Boolean for ${field.name} (1, 0, True or False).`);
      return;
    case 'ipv4':
      if (ipv4Range(v.text) === null) throw bad(`"${v.text}" is not a valid hostname or IPv4 address.`);
      return;
    case 'mac':
      if (macValue(v.text) === null) throw bad(`"${v.text}" is not a valid Ethernet address.`);
      return;
    case 'string':
      if (op !== '==' && op !== '!=')
        throw bad(`${field.name} is a string: compare it with == or != (or use "contains").`);
      if (field.values && !field.values.includes(String(v.value)))
        throw bad(`"${v.text}" is not a ${field.name} (one of: ${field.values.join(', ')}).`);
      return;
    case 'protocol':
      return;
  }
}

/** a.b.c.d or a.b.c.d/len as [lowest, highest] address (uint32), or null. */
export function ipv4Range(s: string): [number, number] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const parts = [m[1], m[2], m[3], m[4]].map(Number);
  if (parts.some((p) => p > 255)) return null;
  const bits = m[5] === undefined ? 32 : Number(m[5]);
  if (bits > 32) return null;
  const ip = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  const lo = (ip & mask) >>> 0;
  return [lo, (lo | (~mask >>> 0)) >>> 0];
}

/** aa:bb:cc:dd:ee:ff as a number (48 bits fit a double exactly), or null. */
export function macValue(s: string): number | null {
  const m =
    /^([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})$/i.exec(
      s,
    );
  if (!m) return null;
  return m.slice(1).reduce((a, h) => a * 256 + Number.parseInt(h, 16), 0);
}

export function ipv4Number(ip: string): number {
  const r = ipv4Range(ip);
  return r ? r[0] : 0;
}

// ------------------------------------------------------------------------------- evaluation

/**
 * How a source gives a field of row `i`: whether the row has it, and its value(s) as numbers
 * (IPv4 as uint32, MACs as 48-bit numbers, Booleans 0/1, strings as codes into `strings`).
 * Two-valued fields (ip.addr, tcp.port, eth.addr) have two readers.
 */
export interface FieldReader {
  has(i: number): boolean;
  get: ReadonlyArray<(i: number) => number>;
  /** String fields: the code → text table the values index. */
  strings?: readonly string[];
}

export interface FilterSource {
  field(name: string): FieldReader;
}

export type RowPredicate = (i: number) => boolean;

/** The predicate of a parsed filter over a source (null filter: every row). Throws FilterError (an unknown instance name). */
export function compileFilter(node: FilterNode | null, src: FilterSource): RowPredicate {
  if (node === null) return () => true;
  return build(node, src);
}

function numberOf(field: FieldDef, v: Literal, src: FieldReader): number | [number, number] {
  switch (field.type) {
    case 'ipv4':
      return ipv4Range(v.text)!;
    case 'mac':
      return macValue(v.text)!;
    case 'bool':
      return v.kind === 'number' ? v.value : /^true$/i.test(v.value) ? 1 : 0;
    case 'string': {
      const code = src.strings?.indexOf(String(v.value)) ?? -1;
      if (code < 0 && field.name === 'host')
        throw new FilterError(`"${v.text}" is not an instance of this lab.`, v.start, v.end);
      return code;
    }
    default:
      return v.kind === 'number' ? v.value : Number.NaN;
  }
}

function build(n: FilterNode, src: FilterSource): RowPredicate {
  switch (n.kind) {
    case 'and': {
      const l = build(n.left, src);
      const r = build(n.right, src);
      return (i) => l(i) && r(i);
    }
    case 'or': {
      const l = build(n.left, src);
      const r = build(n.right, src);
      return (i) => l(i) || r(i);
    }
    case 'not': {
      const a = build(n.arg, src);
      return (i) => !a(i);
    }
    case 'has': {
      const f = src.field(n.field.name);
      return (i) => f.has(i);
    }
    case 'bits': {
      const f = src.field(n.field.name);
      const mask = (n.mask as { value: number }).value;
      const g = f.get[0]!;
      return (i) => f.has(i) && (g(i) & mask) !== 0;
    }
    case 'contains': {
      const f = src.field(n.field.name);
      const sub = String(n.value.value);
      const codes = new Set<number>();
      (f.strings ?? []).forEach((s, k) => {
        if (s.includes(sub)) codes.add(k);
      });
      return anyOf(f, (x) => codes.has(x));
    }
    case 'in': {
      const f = src.field(n.field.name);
      const tests = n.values.map((v) => {
        if (Array.isArray(v)) {
          const a = numberOf(n.field, v[0], f);
          const b = numberOf(n.field, v[1], f);
          const lo = Array.isArray(a) ? a[0] : a;
          const hi = Array.isArray(b) ? b[1] : b;
          return (x: number) => x >= lo && x <= hi;
        }
        return eqTest(numberOf(n.field, v, f));
      });
      return anyOf(f, (x) => tests.some((t) => t(x)));
    }
    case 'cmp': {
      const f = src.field(n.field.name);
      const v = numberOf(n.field, n.value, f);
      const eq = eqTest(v);
      const [lo, hi] = Array.isArray(v) ? v : [v, v];
      switch (n.op) {
        case '==':
          return anyOf(f, eq);
        case '!=': {
          // Wireshark ≥ 3.6: "a != b" is "!(a == b)" (for present fields)
          const any = anyOf(f, eq);
          return (i) => f.has(i) && !any(i);
        }
        case '<':
          return anyOf(f, (x) => x < lo);
        case '<=':
          return anyOf(f, (x) => x <= hi);
        case '>':
          return anyOf(f, (x) => x > hi);
        case '>=':
          return anyOf(f, (x) => x >= lo);
      }
    }
  }
}

function eqTest(v: number | [number, number]): (x: number) => boolean {
  if (Array.isArray(v)) {
    const [lo, hi] = v;
    return lo === hi ? (x) => x === lo : (x) => x >= lo && x <= hi;
  }
  return (x) => x === v;
}

/** True when the row has the field and one of its values passes. */
function anyOf(f: FieldReader, test: (x: number) => boolean): RowPredicate {
  const [a, b] = f.get;
  if (b === undefined) return (i) => f.has(i) && test(a!(i));
  return (i) => f.has(i) && (test(a!(i)) || test(b(i)));
}

/** The filter text with its fields and values spelled as parsed (tests; a canonical form). */
export function formatFilter(n: FilterNode | null): string {
  if (n === null) return '';
  const lit = (v: Literal) => (v.kind === 'string' && v.quoted ? JSON.stringify(v.value) : v.text);
  switch (n.kind) {
    case 'and':
    case 'or':
      return `(${formatFilter(n.left)} ${n.kind === 'and' ? '&&' : '||'} ${formatFilter(n.right)})`;
    case 'not':
      return `!${formatFilter(n.arg)}`;
    case 'has':
      return n.field.name;
    case 'bits':
      return `${n.field.name} & ${n.mask.text}`;
    case 'contains':
      return `${n.field.name} contains ${lit(n.value)}`;
    case 'in':
      return `${n.field.name} in {${n.values.map((v) => (Array.isArray(v) ? `${lit(v[0])}..${lit(v[1])}` : lit(v))).join(' ')}}`;
    case 'cmp':
      return `${n.field.name} ${n.op} ${lit(n.value)}`;
  }
}
