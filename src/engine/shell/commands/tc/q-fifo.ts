/**
 * `tc … pfifo`, `bfifo` (limit in packets or bytes) and `pfifo_fast` (printed only: it takes no
 * options), as q_fifo.c has them. Sources: IPROUTE2 tc/q_fifo.c, tc/q_prio.c (prio_print_opt).
 */
import type { QdiscOptions } from '../../../host/qdisc/common';
import { type Cursor, fail1, nextArg, parseNoOpt, type QdiscUtil } from './cli';
import { getSize, getU32, matches, sprintSize } from './utils';

/** tc/q_fifo.c explain(). */
const FIFO_USAGE = 'Usage: ... <[p|b]fifo | pfifo_head_drop> [ limit NUMBER ]\n';

function parseFifo(c: Cursor, kind: 'pfifo' | 'bfifo'): QdiscOptions {
  const o: QdiscOptions = { kind };
  for (; c.i < c.argv.length; c.i++) {
    const a = c.argv[c.i]!;
    if (matches(a, 'limit')) {
      const v = nextArg(c);
      const n = kind === 'bfifo' ? getSize(v) : getU32(v);
      if (n === null) fail1(c, `${kind}: Illegal value for "limit": "${v}"\n`);
      o.limit = n!;
    } else if (matches(a, 'help')) fail1(c, '', FIFO_USAGE);
    else fail1(c, `${kind}: unknown argument "${a}"\n`, FIFO_USAGE);
  }
  return o;
}

export const pfifoUtil: QdiscUtil = {
  id: 'pfifo',
  parseQopt: (c) => parseFifo(c, 'pfifo'),
  printQopt: (o) => `limit ${o.limit}p`,
};

export const bfifoUtil: QdiscUtil = {
  id: 'bfifo',
  parseQopt: (c) => parseFifo(c, 'bfifo'),
  printQopt: (o) => `limit ${sprintSize(o.limit as number)}`,
};

export const pfifoFastUtil: QdiscUtil = {
  id: 'pfifo_fast',
  parseQopt: (c) => parseNoOpt(c, 'pfifo_fast'),
  printQopt: (o) => `bands ${o.bands} priomap ${o.priomap}`,
};
