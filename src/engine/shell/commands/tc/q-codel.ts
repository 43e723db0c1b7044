/**
 * `tc … codel`: its options as q_codel.c parses and prints them, and its extended statistics.
 * Sources: IPROUTE2 tc/q_codel.c, tc-codel(8).
 */
import type { CodelOptions } from '../../../host/qdisc/common';
import { type Cursor, fail1, nextTime, nextU32, type QdiscUtil } from './cli';
import { sprintTime } from './utils';

/** tc/q_codel.c explain(). */
export const CODEL_USAGE =
  'Usage: ... codel [ limit PACKETS ] [ target TIME ]\n' +
  '\t\t [ interval TIME ] [ ecn | noecn ]\n' +
  '\t\t [ ce_threshold TIME ]\n';

function parseCodel(c: Cursor): CodelOptions {
  const o: CodelOptions = { kind: 'codel' };
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (a === 'limit') o.limit = nextU32(c, 'limit');
    else if (a === 'target') o.targetUs = nextTime(c, 'target');
    else if (a === 'ce_threshold') o.ceThresholdUs = nextTime(c, 'ce_threshold');
    else if (a === 'interval') o.intervalUs = nextTime(c, 'interval');
    else if (a === 'ecn') o.ecn = true;
    else if (a === 'noecn') o.ecn = false;
    else if (a === 'help') fail1(c, '', CODEL_USAGE);
    else fail1(c, `What is "${a}"?\n`, CODEL_USAGE);
  }
  // tc sends only non-zero values (if (limit) addattr …).
  if (o.limit === 0) o.limit = undefined;
  if (o.targetUs === 0) o.targetUs = undefined;
  if (o.intervalUs === 0) o.intervalUs = undefined;
  return o;
}

export const codelUtil: QdiscUtil = {
  id: 'codel',
  parseQopt: parseCodel,
  printQopt(o) {
    let s = `limit ${o.limit}p target ${sprintTime(o.target as number)} `;
    if (o.ce_threshold !== undefined) s += `ce_threshold ${sprintTime(o.ce_threshold as number)} `;
    s += `interval ${sprintTime(o.interval as number)} `;
    if (o.ecn) s += 'ecn ';
    return s;
  },
  printXstats(x) {
    let s = `  count ${x.count} lastcount ${x.lastcount} ldelay ${sprintTime(x.ldelay!)}`;
    if (x.dropping) s += ' dropping';
    const next = x.drop_next!;
    s += next < 0 ? ` drop_next -${sprintTime(-next)}` : ` drop_next ${sprintTime(next)}`;
    s += `\n  maxpacket ${x.maxpacket} ecn_mark ${x.ecn_mark} drop_overlimit ${x.drop_overlimit}\n`;
    return s;
  },
};
