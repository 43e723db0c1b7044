/**
 * `tc … fq`: its options as q_fq.c parses and prints them, and its extended statistics.
 * Sources: IPROUTE2 tc/q_fq.c, tc-fq(8).
 */
import type { FqOptions } from '../../../host/qdisc/common';
import {
  type Cursor,
  fail1,
  nextRate,
  nextSize,
  nextTime,
  nextU32,
  type ShowFlags,
  TcExit,
  type QdiscUtil,
} from './cli';
import { sprintRate, sprintSize, sprintTime } from './utils';

/** tc/q_fq.c explain(). */
export const FQ_USAGE =
  'Usage: ... fq\t[ limit PACKETS ] [ flow_limit PACKETS ]\n' +
  '\t\t[ quantum BYTES ] [ initial_quantum BYTES ]\n' +
  '\t\t[ maxrate RATE ] [ buckets NUMBER ]\n' +
  '\t\t[ [no]pacing ] [ refill_delay TIME ]\n' +
  '\t\t[ bands 3 priomap P0 P1 ... P14 P15 ]\n' +
  '\t\t[ weights W1 W2 W3 ]\n' +
  '\t\t[ low_rate_threshold RATE ]\n' +
  '\t\t[ orphan_mask MASK]\n' +
  '\t\t[ timer_slack TIME]\n' +
  '\t\t[ ce_threshold TIME ]\n' +
  '\t\t[ horizon TIME ]\n' +
  '\t\t[ horizon_{cap|drop} ]\n';

function parseFq(c: Cursor): FqOptions {
  const o: FqOptions = { kind: 'fq' };
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (a === 'limit') o.limit = nextU32(c, 'limit');
    else if (a === 'flow_limit') o.flowLimit = nextU32(c, 'flow_limit');
    else if (a === 'buckets') {
      const v = nextU32(c, 'buckets');
      o.buckets = v;
    } else if (a === 'maxrate') {
      const r = nextRate(c, 'maxrate');
      o.maxrate = r >= 2 ** 32 ? Number.POSITIVE_INFINITY : r;
    } else if (a === 'low_rate_threshold') o.lowRateThreshold = nextRate(c, 'low_rate_threshold');
    else if (a === 'defrate') nextRate(c, 'defrate');
    else if (a === 'quantum') o.quantum = nextSize(c, 'quantum');
    else if (a === 'initial_quantum') o.initialQuantum = nextSize(c, 'initial_quantum');
    else if (a === 'orphan_mask') o.orphanMask = nextU32(c, 'orphan_mask');
    else if (a === 'refill_delay') o.refillDelayUs = nextTime(c, 'refill_delay');
    else if (a === 'timer_slack') o.timerSlackUs = nextTime(c, 'timer_slack');
    else if (a === 'ce_threshold') o.ceThresholdUs = nextTime(c, 'ce_threshold');
    else if (a === 'horizon') o.horizonUs = nextTime(c, 'horizon');
    else if (a === 'horizon_cap') o.horizonDrop = false;
    else if (a === 'horizon_drop') o.horizonDrop = true;
    else if (a === 'pacing') o.pacing = true;
    else if (a === 'nopacing') o.pacing = false;
    else if (a === 'bands' || a === 'priomap' || a === 'weights') {
      c.o.err(`fq option "${a}" is not simulated in ec2-netlab\n`);
      throw new TcExit(1);
    } else if (a === 'help') fail1(c, '', FQ_USAGE);
    else fail1(c, `What is "${a}"?\n`, FQ_USAGE);
  }
  if (o.buckets !== undefined) {
    // fq_parse_opt: buckets → fq_log = ilog2(buckets), the kernel keeps 2^log buckets.
    o.buckets = 2 ** Math.floor(Math.log2(Math.max(1, o.buckets)));
  }
  return o;
}

export const fqUtil: QdiscUtil = {
  id: 'fq',
  parseQopt: parseFq,
  printQopt(o: Readonly<Record<string, number | boolean | string>>, f: ShowFlags): string {
    let s = `limit ${o.limit}p flow_limit ${o.flow_limit}p buckets ${o.buckets} orphan_mask ${o.orphan_mask} `;
    if (o.pacing === false) s += 'nopacing ';
    s += `quantum ${sprintSize(o.quantum as number)} initial_quantum ${sprintSize(o.initial_quantum as number)} `;
    s += `low_rate_threshold ${sprintRate(o.low_rate_threshold as number, f.iec)} `;
    if (o.maxrate !== undefined) s += `maxrate ${sprintRate(o.maxrate as number, f.iec)} `;
    s += `refill_delay ${sprintTime(o.refill_delay as number)} `;
    if (o.ce_threshold !== undefined) s += `ce_threshold ${sprintTime(o.ce_threshold as number)} `;
    s += `timer_slack ${sprintTime((o.timer_slack as number) / 1000)} `;
    s += `horizon ${sprintTime((o.horizon as number) / 1000)} ${o.horizon_drop ? 'horizon_drop ' : 'horizon_cap '}`;
    return s;
  },
  printXstats(x: Readonly<Record<string, number>>): string {
    let s = `  flows ${x.flows} (inactive ${x.inactive} throttled ${x.throttled_flows})\n`;
    s += `  gc ${x.gc} highprio ${x.highprio} throttled ${x.throttled}`;
    if (x.flows_plimit) s += ` flows_plimit ${x.flows_plimit}`;
    return `${s}\n`;
  },
};
