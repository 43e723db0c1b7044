/**
 * The `tc` side of each qdisc kind, one descriptor each as iproute2's `struct qdisc_util`: parse and
 * print its options (parse_qopt, print_qopt), print its extended statistics (print_xstats) and, for
 * a classful kind, its class options (parse_copt, print_copt). A kind without a descriptor takes no
 * options (parse_noqopt); a real kind the lab does not model is refused. The kernel side of each
 * kind is host/qdisc/registry.ts. Sources: IPROUTE2 tc/tc_util.h, tc/tc.c (get_qdisc_kind).
 */
import type { QdiscOptions } from '../../../host/qdisc/common';
import { type Cursor, parseNoOpt, type QdiscUtil, TcExit } from './cli';
import { codelUtil } from './q-codel';
import { bfifoUtil, pfifoFastUtil, pfifoUtil } from './q-fifo';
import { fqUtil } from './q-fq';
import { fqCodelUtil } from './q-fq-codel';
import { htbUtil } from './q-htb';
import { tbfUtil } from './q-tbf';

/** mq has no tc module: parse_noqopt. */
const mqUtil: QdiscUtil = { id: 'mq', parseQopt: (c) => parseNoOpt(c, 'mq') };

const QDISC_UTILS: ReadonlyMap<string, QdiscUtil> = new Map(
  [pfifoUtil, bfifoUtil, pfifoFastUtil, codelUtil, fqCodelUtil, fqUtil, htbUtil, tbfUtil, mqUtil].map((u) => [
    u.id,
    u,
  ]),
);

/** The descriptor of a kind the lab models, or undefined. */
export function getQdiscUtil(kind: string): QdiscUtil | undefined {
  return QDISC_UTILS.get(kind);
}

/** Qdiscs that exist in Linux/iproute2 but are not modelled by the lab. */
export const UNMODELLED_QDISCS = new Set([
  'netem',
  'cake',
  'sfq',
  'prio',
  'red',
  'pie',
  'fq_pie',
  'hfsc',
  'drr',
  'qfq',
  'cbq',
  'choke',
  'sfb',
  'hhf',
  'multiq',
  'mqprio',
  'taprio',
  'etf',
  'cbs',
  'skbprio',
  'ingress',
  'clsact',
  'plug',
  'ets',
  'gred',
  'dualpi2',
  'pfifo_head_drop',
  'atm',
  'dsmark',
  'noqueue',
]);

/** The options after a qdisc kind; null for a kind neither the lab nor iproute2 knows. */
export function parseQdiscOptions(c: Cursor, kind: string): QdiscOptions | null {
  const u = QDISC_UTILS.get(kind);
  if (u) return u.parseQopt(c);
  if (UNMODELLED_QDISCS.has(kind)) {
    c.o.err(`qdisc '${kind}' is not simulated in ec2-netlab\n`);
    throw new TcExit(1);
  }
  parseNoOpt(c, kind);
  return null;
}
