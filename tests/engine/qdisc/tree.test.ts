import { describe, expect, it } from 'vitest';
import { TC_H_ROOT, tcMake } from '../../../src/engine/host/qdisc/common';
import { createQdiscTree } from '../../../src/engine/host/qdisc/tree';
import { fakeCtx, flow, pkt } from './fake-ctx';

describe('qdisc tree', () => {
  it('boots as mq + one default per TX queue, or the default at the root', () => {
    const multi = createQdiscTree(fakeCtx({ numTxQueues: 4 }), { defaultQdisc: 'fq_codel' });
    expect(multi.rootKind).toBe('mq');
    expect(multi.dumpQdiscs().map((d) => [d.kind, d.parent])).toEqual([
      ['mq', TC_H_ROOT],
      ['fq_codel', 4],
      ['fq_codel', 3],
      ['fq_codel', 2],
      ['fq_codel', 1],
    ]);
    const single = createQdiscTree(fakeCtx({ numTxQueues: 1 }), { defaultQdisc: 'pfifo_fast' });
    expect(single.rootKind).toBe('pfifo_fast');
    expect(single.dumpQdiscs()[0]!.refcnt).toBe(2);
  });

  it('mq serves each TX queue from its own child; requeued packets come back first', () => {
    const t = createQdiscTree(fakeCtx({ numTxQueues: 2 }), { defaultQdisc: 'pfifo_fast' });
    const p0 = pkt(flow(), { txq: 0 });
    const p1 = pkt(flow(), { txq: 1 });
    t.enqueue(p0, 0);
    t.enqueue(p1, 0);
    expect(t.dequeue(1, 0)).toBe(p1);
    expect(t.dequeue(1, 0)).toBeNull();
    const got = t.dequeue(0, 0)!;
    t.requeue(got);
    expect(t.backlogPackets()).toBe(1);
    expect(t.dequeue(0, 0)).toBe(p0);
    expect(t.dumpQdiscs()[0]!.stats.requeues).toBe(1);
  });

  it('a non-mq root is shared by all TX queues', () => {
    const t = createQdiscTree(fakeCtx({ numTxQueues: 2 }), { defaultQdisc: 'fq_codel' });
    expect(
      t.modifyQdisc({
        flags: { create: true, replace: true, excl: false },
        parent: TC_H_ROOT,
        handle: 0,
        opts: { kind: 'pfifo' },
      }),
    ).toEqual({});
    const p = pkt(flow(), { txq: 1 });
    t.enqueue(p, 0);
    expect(t.dequeue(0, 0)).toBe(p);
    expect(t.dumpQdiscs()[0]).toMatchObject({ kind: 'pfifo', handle: tcMake(0x8001, 0), refcnt: 3 });
  });

  it('htb leaf qdiscs replace the default pfifo, and deleting them restores it', () => {
    const t = createQdiscTree(fakeCtx({ numTxQueues: 2 }), { defaultQdisc: 'fq_codel' });
    const add = { create: true, replace: false, excl: true };
    expect(
      t.modifyQdisc({
        flags: add,
        parent: TC_H_ROOT,
        handle: tcMake(1, 0),
        opts: { kind: 'htb', defcls: 0x10 },
      }),
    ).toEqual({});
    const opts = { rate: 1e6, ceil: 1e6, bufferNs: 1e6, cbufferNs: 1e6, prio: 0, quantum: 0 };
    expect(
      t.modifyClass({ flags: add, parent: tcMake(1, 0), classid: tcMake(1, 0x10), kind: 'htb', opts }),
    ).toEqual({});
    expect(
      t.modifyClass({ flags: add, parent: tcMake(1, 0), classid: tcMake(1, 0x10), kind: 'htb', opts }),
    ).toEqual({
      errno: 'EEXIST',
    });
    expect(
      t.modifyQdisc({
        flags: add,
        parent: tcMake(1, 0x10),
        handle: tcMake(0x20, 0),
        opts: { kind: 'fq_codel' },
      }),
    ).toEqual({});
    expect(t.dumpQdiscs().map((d) => d.kind)).toEqual(['htb', 'fq_codel']);
    expect(
      t.modifyQdisc({ flags: add, parent: tcMake(1, 0x99), handle: 0, opts: { kind: 'pfifo' } }),
    ).toEqual({
      errno: 'ENOENT',
      extack: 'Specified class not found',
    });
    expect(t.deleteQdisc({ parent: tcMake(1, 0x10), handle: 0 })).toEqual({});
    expect(t.dumpQdiscs().map((d) => d.kind)).toEqual(['htb']);
    t.enqueue(pkt(flow({ proto: 'udp' }), { count: 2 }), 0);
    expect(t.backlogPackets()).toBe(2);
    // a 2-segment TCP batch is part of one GSO skb: backlog counts skbs, a fraction shows as 1
    t.enqueue(pkt(flow(), { count: 2 }), 0);
    expect(t.backlogPackets()).toBe(3);
  });
});
