/**
 * `tc … htb`: the qdisc's options and its classes' (rate, ceil, burst, cburst, prio, quantum) as
 * q_htb.c parses and prints them, and the classes' extended statistics.
 * Sources: IPROUTE2 tc/q_htb.c, tc-htb(8).
 */
import type { HtbClassOptions, HtbOptions } from '../../../host/qdisc/common';
import { type Cursor, fail1, nextArg, type ShowFlags, TcExit, type QdiscUtil } from './cli';
import {
  getRate64,
  getSizeAndCell,
  getU32,
  HZ,
  matches,
  sprintRate,
  sprintSize,
  xmitSize,
  xmitTimeNs,
} from './utils';

/** tc/q_htb.c explain() (HTB_TC_VER 0x30003). */
export const HTB_USAGE =
  'Usage: ... qdisc add ... htb [default N] [r2q N]\n' +
  '                      [direct_qlen P] [offload]\n' +
  ' default  minor id of class to which unclassified packets are sent {0}\n' +
  ' r2q      DRR quantums are computed as rate in Bps/r2q {10}\n' +
  ' debug    string of 16 numbers each 0-3 {0}\n\n' +
  ' direct_qlen  Limit of the direct queue {in packets}\n' +
  ' offload  enable hardware offload\n' +
  '... class add ... htb rate R1 [burst B1] [mpu B] [overhead O]\n' +
  '                      [prio P] [slot S] [pslot PS]\n' +
  '                      [ceil R2] [cburst B2] [mtu MTU] [quantum Q]\n' +
  ' rate     rate allocated to this class (class can still borrow)\n' +
  ' burst    max bytes burst which can be accumulated during idle period {computed}\n' +
  ' mpu      minimum packet size used in rate computations\n' +
  ' overhead per-packet size overhead used in rate computations\n' +
  ' linklay  adapting to a linklayer e.g. atm\n' +
  ' ceil     definite upper class rate (no borrows) {rate}\n' +
  ' cburst   burst but for ceil {computed}\n' +
  ' mtu      max packet size we create rate map for {1600}\n' +
  ' prio     priority of leaf; lower are served first {0}\n' +
  ' quantum  how much bytes to serve from leaf at once {use r2q}\n' +
  '\nTC HTB version 3.3\n';

function parseHtb(c: Cursor): HtbOptions {
  const o: HtbOptions = { kind: 'htb', r2q: 10, defcls: 0 };
  const explain1 = (name: string): never => fail1(c, `Illegal "${name}"\n`, HTB_USAGE);
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'r2q')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('r2q');
      o.r2q = v!;
    } else if (matches(a, 'default')) {
      const v = getU32(nextArg(c), 16);
      if (v === null) explain1('default');
      o.defcls = v!;
    } else if (matches(a, 'debug')) {
      nextArg(c);
    } else if (matches(a, 'direct_qlen')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('direct_qlen');
      o.directQlen = v!;
    } else if (matches(a, 'offload')) {
      c.o.err('htb offload is not simulated in ec2-netlab\n');
      throw new TcExit(1);
    } else fail1(c, `What is "${a}"?\n`, HTB_USAGE);
  }
  return o;
}

function parseHtbClass(c: Cursor): HtbClassOptions {
  let rate = 0;
  let ceil = 0;
  let buffer = 0;
  let cbuffer = 0;
  let mtu = 1600;
  let prio = 0;
  let quantum = 0;
  const explain1 = (name: string): never => fail1(c, `Illegal "${name}"\n`, HTB_USAGE);
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'prio')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('prio');
      prio = v!;
    } else if (matches(a, 'mtu')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('mtu');
      mtu = v!;
    } else if (matches(a, 'mpu') || matches(a, 'overhead')) {
      const name = matches(a, 'mpu') ? 'mpu' : 'overhead';
      const v = getU32(nextArg(c), 10);
      if (v === null || v > 0xffff) explain1(name);
      if (v !== 0) {
        c.o.err(`htb ${name} is not simulated in ec2-netlab\n`);
        throw new TcExit(1);
      }
    } else if (matches(a, 'linklayer')) {
      const v = nextArg(c);
      if (v !== 'ethernet' && v !== 'ether' && v !== 'eth') {
        if (v === 'atm' || v === 'adsl') {
          c.o.err('htb linklayer atm is not simulated in ec2-netlab\n');
          throw new TcExit(1);
        }
        explain1('linklayer');
      }
    } else if (matches(a, 'quantum')) {
      const v = getU32(nextArg(c), 10);
      if (v === null) explain1('quantum');
      quantum = v!;
    } else if (matches(a, 'burst') || a === 'buffer' || a === 'maxburst') {
      const v = getSizeAndCell(nextArg(c));
      if (v === null) explain1('buffer');
      buffer = v!;
    } else if (matches(a, 'cburst') || a === 'cbuffer' || a === 'cmaxburst') {
      const v = getSizeAndCell(nextArg(c));
      if (v === null) explain1('cbuffer');
      cbuffer = v!;
    } else if (a === 'ceil') {
      const s = nextArg(c);
      if (ceil) fail1(c, 'Double "ceil" spec\n');
      const v = s.includes('%') ? null : getRate64(s);
      if (v === null) explain1('ceil');
      ceil = v!;
    } else if (a === 'rate') {
      const s = nextArg(c);
      if (rate) fail1(c, 'Double "rate" spec\n');
      const v = s.includes('%') ? null : getRate64(s);
      if (v === null) explain1('rate');
      rate = v!;
    } else if (a === 'help') fail1(c, '', HTB_USAGE);
    else fail1(c, `What is "${a}"?\n`, HTB_USAGE);
  }
  if (!rate) fail1(c, '"rate" is required.\n');
  if (!ceil) ceil = rate;
  // "compute minimal allowed burst from rate; mtu is added here to make sure that buffer is larger
  // than mtu and to have some safeguard space" (q_htb.c)
  if (!buffer) buffer = Math.floor(rate / HZ) + mtu;
  if (!cbuffer) cbuffer = Math.floor(ceil / HZ) + mtu;
  return {
    rate,
    ceil,
    bufferNs: xmitTimeNs(rate, buffer),
    cbufferNs: xmitTimeNs(ceil, cbuffer),
    prio,
    quantum,
  };
}

export const htbUtil: QdiscUtil = {
  id: 'htb',
  parseQopt: parseHtb,
  printQopt: (o) =>
    `r2q ${o.r2q} default 0x${(o.default as number).toString(16)} direct_packets_stat ${o.direct_packets_stat} direct_qlen ${o.direct_qlen}`,
  parseCopt: parseHtbClass,
  printCopt(op: Readonly<Record<string, number | boolean | string>>, f: ShowFlags): string {
    let line = '';
    if (op.level === 0) {
      line += `prio ${op.prio} `;
      if (f.details) line += `quantum ${op.quantum} `;
    }
    const rate = op.rate as number;
    const ceil = op.ceil as number;
    line += `rate ${sprintRate(rate, f.iec)} ceil ${sprintRate(ceil, f.iec)} `;
    if (f.details) line += 'linklayer ethernet ';
    const burst = sprintSize(xmitSize(rate, op.buffer_ns as number));
    const cburst = sprintSize(xmitSize(ceil, op.cbuffer_ns as number));
    if (f.details) line += `burst ${burst}/1 mpu 0b cburst ${cburst}/1 mpu 0b level ${op.level} `;
    else line += `burst ${burst} cburst ${cburst} `;
    return line;
  },
  coptJson: (op) => ({
    prio: op.prio,
    rate: op.rate,
    ceil: op.ceil,
    burst: xmitSize(op.rate as number, op.buffer_ns as number),
    cburst: xmitSize(op.ceil as number, op.cbuffer_ns as number),
  }),
  printClassXstats: (x) =>
    ` lended: ${x.lended} borrowed: ${x.borrowed} giants: ${x.giants}\n` +
    ` tokens: ${x.tokens} ctokens: ${x.ctokens}\n\n`,
};
