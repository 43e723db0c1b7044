/**
 * The qdisc kinds the lab's kernel knows, one entry each, as Linux registers its `Qdisc_ops`
 * (register_qdisc): how `tc`'s options make a qdisc of that kind (qdisc_create: the kind's checks,
 * then its init), how a device's default one is made (qdisc_create_dflt) and whether it can hold
 * packets back on a watchdog timer. A new kind is one file and one entry here (and its `tc`
 * descriptor in shell/commands/tc/); the tree (tree.ts) names no kind.
 * Sources: LINUX net/sched/sch_api.c (qdisc_create), sch_generic.c, the sch_*.c files.
 */
import {
  isTcError,
  type QdiscKind,
  type QdiscNode,
  type QdiscOptions,
  TC_H_ROOT,
  type TcError,
} from './common';
import { CodelQdisc } from './codel-qdisc';
import { FifoQdisc, NoqueueQdisc, PfifoFastQdisc } from './fifo';
import { FqQdisc } from './fq';
import { FqCodelQdisc } from './fq-codel';
import { HtbQdisc } from './htb';
import { MqQdisc } from './mq';
import { TbfQdisc } from './tbf';
import type { QdiscContext } from './types';

export interface QdiscOps<O extends QdiscOptions = QdiscOptions> {
  /** qdisc_create: a new qdisc under `parent`, or the kernel's refusal. */
  create(ctx: QdiscContext, opts: O, parent: number, nowNs: number): QdiscNode | TcError;
  /** Whether it can throttle (its watchdog sets nextWakeNs): the tree asks it for a wake-up time. */
  readonly shapes: boolean;
  /** qdisc_create_dflt: the kind made with no options, as a device's default qdisc. */
  dflt?(ctx: QdiscContext): QdiscNode;
  /**
   * noqueue, a device without a queue (IFF_NO_QUEUE): attach_default_qdiscs puts it at the root
   * even on a multi-queue device (no mq), and the dump shows it with refcnt 2.
   */
  readonly noQueue?: true;
}

/** The kinds a device boots with: net.core.default_qdisc's choices, or noqueue. */
export type DefaultQdiscKind = 'fq_codel' | 'pfifo_fast' | 'noqueue';

type OpsTable = {
  readonly [K in QdiscKind]: QdiscOps<Extract<QdiscOptions, { kind: K }>> &
    (K extends DefaultQdiscKind ? { dflt(ctx: QdiscContext): QdiscNode } : unknown);
};

const fifo: QdiscOps<Extract<QdiscOptions, { kind: 'pfifo' | 'bfifo' }>> = {
  create: (ctx, o) => new FifoQdisc(ctx, o.kind, o.limit),
  shapes: false,
};

export const QDISC_OPS: OpsTable = {
  pfifo: fifo,
  bfifo: fifo,
  pfifo_fast: {
    create: (ctx) => new PfifoFastQdisc(ctx),
    shapes: false,
    dflt: (ctx) => new PfifoFastQdisc(ctx),
  },
  noqueue: {
    create: (ctx) => new NoqueueQdisc(ctx),
    shapes: false,
    dflt: (ctx) => new NoqueueQdisc(ctx),
    noQueue: true,
  },
  codel: { create: (ctx, o) => new CodelQdisc(ctx, o), shapes: false },
  fq_codel: {
    create: (ctx, o) => {
      const v = FqCodelQdisc.validate(o, true);
      return isTcError(v) ? v : new FqCodelQdisc(ctx, o);
    },
    shapes: false,
    dflt: (ctx) => new FqCodelQdisc(ctx),
  },
  fq: {
    create: (ctx, o) => {
      const v = FqQdisc.validate(o);
      return isTcError(v) ? v : new FqQdisc(ctx, o);
    },
    shapes: true,
  },
  htb: { create: (ctx, o) => new HtbQdisc(ctx, o), shapes: true },
  tbf: { create: (ctx, o, _parent, nowNs) => new TbfQdisc(ctx, o, nowNs), shapes: true },
  mq: {
    // mq_init: only at the root of a multi-queue device.
    create: (ctx, _o, parent) =>
      parent !== TC_H_ROOT || ctx.numTxQueues() <= 1
        ? { errno: 'EOPNOTSUPP' }
        : new MqQdisc(ctx.numTxQueues(), () => new FqCodelQdisc(ctx)),
    shapes: false,
  },
};

/** Create a qdisc of `opts.kind` (qdisc_create): validation errors are returned, not thrown. */
export function createQdisc(
  ctx: QdiscContext,
  opts: QdiscOptions,
  parent: number,
  nowNs = 0,
): QdiscNode | { errno: TcError } {
  const q = (QDISC_OPS[opts.kind] as QdiscOps).create(ctx, opts, parent, nowNs);
  if ('errno' in q) return { errno: q };
  q.parent = parent;
  return q;
}

/** qdisc_create_dflt for a device's default kind (its per-queue or root qdisc at boot). */
export function createDefaultQdisc(ctx: QdiscContext, kind: DefaultQdiscKind): QdiscNode {
  return QDISC_OPS[kind].dflt(ctx);
}
