import { describe, expect, it } from 'vitest';
import { FifoQdisc, PfifoFastQdisc, pfifoFastBand } from '../../../src/engine/host/qdisc/fifo';
import { fakeCtx, flow, pkt } from './fake-ctx';

describe('pfifo', () => {
  it('tail-drops exactly at the limit, splitting a batch (kept part keeps the first sequence numbers)', () => {
    const ctx = fakeCtx();
    const q = new FifoQdisc(ctx, 'pfifo', 5);
    const f = flow({ proto: 'tcp' });
    q.enqueue(pkt(f, { count: 3, seq: 0 }), 0);
    q.enqueue(pkt(f, { count: 4, seq: 3 * 1448 }), 0);
    expect(q.qlen()).toBe(5);
    expect(q.stats().drops).toBe(2);
    expect(ctx.drops.qdisc_overlimit).toBe(2);
    // The dropped tail starts after the 2 admitted packets of the second batch.
    expect(ctx.dropped[0]!.seq).toBe(5 * 1448);
    const a = q.dequeue()!;
    const b = q.dequeue()!;
    expect([a.count, b.count]).toEqual([3, 2]);
    expect(q.stats()).toMatchObject({ packets: 5, bytes: 5 * 1514, backlogPackets: 0 });
  });

  it('defaults its limit to txqueuelen; bfifo counts bytes', () => {
    const ctx = fakeCtx({ txQueueLen: 1000 });
    expect(new FifoQdisc(ctx, 'pfifo').limit).toBe(1000);
    const b = new FifoQdisc(ctx, 'bfifo', 3 * 1514 + 100);
    b.enqueue(pkt(flow(), { count: 5 }), 0);
    expect(b.qlen()).toBe(3);
    expect(ctx.drops.qdisc_overlimit).toBe(2);
  });
});

describe('pfifo_fast', () => {
  it('maps TOS to bands like the kernel priomap', () => {
    expect(pfifoFastBand(0x00)).toBe(1);
    expect(pfifoFastBand(0x10)).toBe(0); // IPTOS_LOWDELAY → TC_PRIO_INTERACTIVE
    expect(pfifoFastBand(0x08)).toBe(2); // IPTOS_THROUGHPUT → TC_PRIO_BULK
  });

  it('serves band 0 before 1 before 2', () => {
    const q = new PfifoFastQdisc(fakeCtx());
    const bulk = pkt(flow(), { tos: 0x08 });
    const normal = pkt(flow(), { tos: 0 });
    const interactive = pkt(flow(), { tos: 0x10 });
    q.enqueue(bulk, 0);
    q.enqueue(normal, 0);
    q.enqueue(interactive, 0);
    expect(q.dequeue()).toBe(interactive);
    expect(q.dequeue()).toBe(normal);
    expect(q.dequeue()).toBe(bulk);
    expect(q.dequeue()).toBeNull();
  });

  it('limits each band to txqueuelen', () => {
    const ctx = fakeCtx({ txQueueLen: 10 });
    const q = new PfifoFastQdisc(ctx);
    q.enqueue(pkt(flow(), { count: 12, tos: 0 }), 0);
    q.enqueue(pkt(flow(), { count: 4, tos: 0x10 }), 0);
    expect(q.qlen()).toBe(14);
    expect(ctx.drops.qdisc_overlimit).toBe(2);
  });
});
