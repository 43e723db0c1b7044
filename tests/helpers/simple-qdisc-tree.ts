/** A minimal per-TX-queue FIFO tree (mq + pfifo limit 1000) for engine tests that do not exercise tc. */
import type { QdiscContext, QdiscTree } from '../../src/engine/host/qdisc/types';
import type { Packet } from '../../src/engine/model/packet';
import { splitBatch } from '../../src/engine/model/packet';

export function simpleQdiscTree(ctx: QdiscContext): QdiscTree {
  const qs: Packet[][] = [];
  const counts: number[] = [];
  const q = (i: number) => {
    while (qs.length <= i) {
      qs.push([]);
      counts.push(0);
    }
    return qs[i]!;
  };
  return {
    rootKind: 'mq',
    enqueue(p) {
      const list = q(p.txq);
      const room = ctx.txQueueLen() - counts[p.txq]!;
      if (room <= 0) return ctx.drop(p, p.count, 'qdisc_overlimit');
      if (p.count > room) {
        const rest = splitBatch(p, room);
        ctx.drop(rest, rest.count, 'qdisc_overlimit');
      }
      list.push(p);
      counts[p.txq]! += p.count;
    },
    dequeue(txq) {
      const list = q(txq);
      const p = list.shift() ?? null;
      if (p) counts[txq]! -= p.count;
      return p;
    },
    requeue(p) {
      q(p.txq).unshift(p);
      counts[p.txq]! += p.count;
    },
    nextWakeNs: () => Number.POSITIVE_INFINITY,
    backlogPackets: () => counts.reduce((a, b) => a + b, 0),
    backlogBytes: () => 0,
  };
}
