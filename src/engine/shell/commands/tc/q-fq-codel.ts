/**
 * `tc … fq_codel`: its options as q_fq_codel.c parses and prints them, and its extended statistics.
 * Sources: IPROUTE2 tc/q_fq_codel.c, tc-fq_codel(8).
 */
import type { FqCodelOptions } from '../../../host/qdisc/common';
import { type Cursor, fail1, nextArg, nextSize, nextTime, nextU32, type QdiscUtil } from './cli';
import { getU32, sprintSize, sprintTime } from './utils';

/** tc/q_fq_codel.c explain(). */
export const FQ_CODEL_USAGE =
  'Usage: ... fq_codel\t[ limit PACKETS ] [ flows NUMBER ]\n' +
  '\t\t\t\t\t[ memory_limit BYTES ]\n' +
  '\t\t\t\t\t[ target TIME ] [ interval TIME ]\n' +
  '\t\t\t\t\t[ quantum BYTES ] [ [no]ecn ]\n' +
  '\t\t\t\t\t[ ce_threshold TIME ]\n' +
  '\t\t\t\t\t[ ce_threshold_selector VALUE/MASK ]\n' +
  '\t\t\t\t\t[ drop_batch SIZE ]\n';

function parseFqCodel(c: Cursor): FqCodelOptions {
  const o: FqCodelOptions = { kind: 'fq_codel' };
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (a === 'limit') o.limit = nextU32(c, 'limit');
    else if (a === 'flows') o.flows = nextU32(c, 'flows');
    else if (a === 'quantum') o.quantum = nextU32(c, 'quantum');
    else if (a === 'drop_batch') o.dropBatch = nextU32(c, 'drop_batch');
    else if (a === 'target') o.targetUs = nextTime(c, 'target');
    else if (a === 'ce_threshold') o.ceThresholdUs = nextTime(c, 'ce_threshold');
    else if (a === 'ce_threshold_selector') {
      const v = nextArg(c);
      const [val, mask] = v.split('/');
      if (mask === undefined || getU32(val ?? '') === null || getU32(mask) === null) {
        fail1(c, 'Illegal "ce_threshold_selector"\n');
      }
    } else if (a === 'memory_limit') {
      o.memoryLimit = nextSize(c, 'memory_limit');
    } else if (a === 'interval') o.intervalUs = nextTime(c, 'interval');
    else if (a === 'ecn') o.ecn = true;
    else if (a === 'noecn') o.ecn = false;
    else if (a === 'help') fail1(c, '', FQ_CODEL_USAGE);
    else fail1(c, `What is "${a}"?\n`, FQ_CODEL_USAGE);
  }
  // tc sends only non-zero values (if (limit) addattr …).
  if (o.limit === 0) o.limit = undefined;
  if (o.flows === 0) o.flows = undefined;
  if (o.quantum === 0) o.quantum = undefined;
  if (o.targetUs === 0) o.targetUs = undefined;
  if (o.intervalUs === 0) o.intervalUs = undefined;
  if (o.dropBatch === 0) o.dropBatch = undefined;
  return o;
}

export const fqCodelUtil: QdiscUtil = {
  id: 'fq_codel',
  parseQopt: parseFqCodel,
  printQopt(o: Readonly<Record<string, number | boolean | string>>): string {
    let s = `limit ${o.limit}p flows ${o.flows} quantum ${o.quantum} target ${sprintTime(o.target as number)} `;
    if (o.ce_threshold !== undefined) s += `ce_threshold ${sprintTime(o.ce_threshold as number)} `;
    s += `interval ${sprintTime(o.interval as number)} memory_limit ${sprintSize(o.memory_limit as number)} `;
    if (o.ecn) s += 'ecn ';
    s += `drop_batch ${o.drop_batch} `;
    return s;
  },
  printXstats(x: Readonly<Record<string, number>>): string {
    let s = `  maxpacket ${x.maxpacket} drop_overlimit ${x.drop_overlimit} new_flow_count ${x.new_flow_count} ecn_mark ${x.ecn_mark}`;
    if (x.memory_used) s += ` memory_used ${x.memory_used}`;
    if (x.drop_overmemory) s += ` drop_overmemory ${x.drop_overmemory}`;
    s += `\n  new_flows_len ${x.new_flows_len} old_flows_len ${x.old_flows_len}\n`;
    return s;
  },
};
