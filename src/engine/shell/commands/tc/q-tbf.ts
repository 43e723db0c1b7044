/**
 * `tc … tbf`: its options as q_tbf.c parses them (burst, rate, limit or latency, peakrate and mtu)
 * and prints them (the latency tc derives back from the limit).
 * Sources: IPROUTE2 tc/q_tbf.c, tc-tbf(8).
 */
import type { TbfOptions } from '../../../host/qdisc/common';
import { type Cursor, fail1, nextArg, type ShowFlags, TcExit, type QdiscUtil } from './cli';
import {
  getRate64,
  getSize,
  getSizeAndCell,
  getTime,
  matches,
  sprintRate,
  sprintSize,
  sprintTime,
  TICK_IN_USEC,
  xmitSize,
  xmitTimeNs,
} from './utils';

/** tc/q_tbf.c explain(). */
export const TBF_USAGE =
  'Usage: ... tbf limit BYTES burst BYTES[/BYTES] rate KBPS [ mtu BYTES[/BYTES] ]\n' +
  '\t[ peakrate KBPS ] [ latency TIME ] [ overhead BYTES ] [ linklayer TYPE ]\n';

function parseTbf(c: Cursor): TbfOptions {
  let limit = 0;
  let latency = 0;
  let buffer = 0;
  let mtu = 0;
  let rate = 0;
  let prate = 0;
  const explain1 = (arg: string, val: string): never =>
    fail1(c, `tbf: illegal value for "${arg}": "${val}"\n`);
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'limit')) {
      const v = nextArg(c);
      if (latency) fail1(c, 'tbf: cannot specify both limit and latency\n');
      const n = getSize(v);
      if (n === null) explain1('limit', v);
      limit = n!;
    } else if (matches(a, 'latency')) {
      const v = nextArg(c);
      if (limit) fail1(c, 'tbf: cannot specify both limit and latency\n');
      const n = getTime(v);
      if (n === null) explain1('latency', v);
      latency = n!;
    } else if (matches(a, 'burst') || a === 'buffer' || a === 'maxburst') {
      const v = nextArg(c);
      if (buffer) fail1(c, 'tbf: duplicate "buffer/burst/maxburst" specification\n');
      const n = getSizeAndCell(v);
      if (n === null) explain1(a, v);
      buffer = n!;
    } else if (a === 'mtu' || a === 'minburst') {
      const v = nextArg(c);
      if (mtu) fail1(c, 'tbf: duplicate "mtu/minburst" specification\n');
      const n = getSizeAndCell(v);
      if (n === null) explain1(a, v);
      mtu = n!;
    } else if (a === 'mpu' || matches(a, 'overhead') || matches(a, 'linklayer')) {
      nextArg(c);
      c.o.err(`tbf ${a} is not simulated in ec2-netlab\n`);
      throw new TcExit(1);
    } else if (a === 'rate') {
      const v = nextArg(c);
      if (rate) fail1(c, 'tbf: duplicate "rate" specification\n');
      const n = v.includes('%') ? null : getRate64(v);
      if (n === null) explain1('rate', v);
      rate = n!;
    } else if (matches(a, 'peakrate')) {
      const v = nextArg(c);
      if (prate) fail1(c, 'tbf: duplicate "peakrate" specification\n');
      const n = v.includes('%') ? null : getRate64(v);
      if (n === null) explain1('peakrate', v);
      prate = n!;
    } else if (a === 'help') fail1(c, '', TBF_USAGE);
    else fail1(c, `tbf: unknown parameter "${a}"\n`, TBF_USAGE);
  }
  // "Be nice to the user: try to emit all error messages in one go" (q_tbf.c).
  let msgs = '';
  if (rate === 0) msgs += 'tbf: the "rate" parameter is mandatory.\n';
  if (!buffer) msgs += 'tbf: the "burst" parameter is mandatory.\n';
  if (prate && !mtu) msgs += 'tbf: when "peakrate" is specified, "mtu" must also be specified.\n';
  if (limit === 0 && latency === 0) msgs += 'tbf: either "limit" or "latency" is required.\n';
  if (msgs) fail1(c, msgs, TBF_USAGE);
  if (limit === 0) {
    let lim = (rate * latency) / 1e6 + buffer;
    if (prate) lim = Math.min(lim, (prate * latency) / 1e6 + mtu);
    limit = Math.floor(lim);
  }
  const o: TbfOptions = { kind: 'tbf', rate, bufferNs: xmitTimeNs(rate, buffer), limit };
  if (prate) {
    o.peakrate = prate;
    o.mtuNs = xmitTimeNs(prate, mtu);
  }
  return o;
}

export const tbfUtil: QdiscUtil = {
  id: 'tbf',
  parseQopt: parseTbf,
  printQopt(o: Readonly<Record<string, number | boolean | string>>, f: ShowFlags): string {
    const rate = o.rate as number;
    const burst = xmitSize(rate, o.buffer_ns as number);
    let s = `rate ${sprintRate(rate, f.iec)} burst ${sprintSize(burst)} `;
    let latency =
      1e6 * ((o.limit as number) / rate) - Math.floor((o.buffer_ns as number) / 64) / TICK_IN_USEC;
    if (o.peakrate !== undefined) {
      const pr = o.peakrate as number;
      s += `peakrate ${sprintRate(pr, f.iec)} minburst ${sprintSize(xmitSize(pr, o.mtu_ns as number))} `;
      const lat2 = 1e6 * ((o.limit as number) / pr) - Math.floor((o.mtu_ns as number) / 64) / TICK_IN_USEC;
      if (lat2 > latency) latency = lat2;
    }
    if (latency >= 0) s += `lat ${sprintTime(Math.trunc(latency))} `;
    else s += `limit ${sprintSize(o.limit as number)} `;
    return s;
  },
};
