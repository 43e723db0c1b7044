/**
 * tcpdump's filter expression: the pcap-filter(7) subset the lab compiles to a predicate over a
 * wire packet (host, net, port, portrange, src/dst, tcp/udp/icmp, ip proto, greater/less,
 * tcp[tcpflags]; and/or/not and parentheses), with libpcap's error texts.
 * Sources: LIBPCAP pcap-filter.manmisc, grammar.y, gencode.c.
 */
import type { WirePacket } from './pcap';
import { SERVICES } from './services';

export type Pred = (p: WirePacket) => boolean;

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

export class FilterError extends Error {}

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
