import { describe, expect, it } from 'vitest';
import {
  BatchDeque,
  displaySkbs,
  gsoSegs,
  packetsInSkbs,
  skbsOf,
} from '../../../src/engine/host/qdisc/common';
import { FifoQdisc, PfifoFastQdisc, pfifoFastBand } from '../../../src/engine/host/qdisc/fifo';
import { TbfQdisc } from '../../../src/engine/host/qdisc/tbf';
import { createQdiscTree } from '../../../src/engine/host/qdisc/tree';
import { splitBatch } from '../../../src/engine/model/packet';
import { fakeCtx, flow, pkt } from './fake-ctx';

/** IP size of a TCP segment with `payload` bytes (fake-ctx: 52 bytes of IP + TCP + timestamps). */
const tcpSize = (payload: number) => payload + 52;

describe('pfifo', () => {
  it('tail-drops exactly at the limit, splitting a batch (kept part keeps the first sequence numbers)', () => {
    // UDP datagrams are one skb each, so the limit counts them one by one (TCP: see the GSO tests).
    const ctx = fakeCtx();
    const q = new FifoQdisc(ctx, 'pfifo', 5);
    const f = flow({ proto: 'udp' });
    q.enqueue(pkt(f, { count: 3, seq: 0 }), 0);
    q.enqueue(pkt(f, { count: 4, seq: 3 }), 0);
    expect(q.qlen()).toBe(5);
    expect(q.stats().drops).toBe(2);
    expect(ctx.drops.qdisc_overlimit).toBe(2);
    // The dropped tail starts after the 2 admitted datagrams of the second batch.
    expect(ctx.dropped[0]!.seq).toBe(5);
    const a = q.dequeue()!;
    const b = q.dequeue()!;
    expect([a.count, b.count]).toEqual([3, 2]);
    expect(q.stats()).toMatchObject({ packets: 5, bytes: 5 * 1514, backlogPackets: 0 });
  });

  it('defaults its limit to txqueuelen; bfifo counts bytes', () => {
    const ctx = fakeCtx({ txQueueLen: 1000 });
    expect(new FifoQdisc(ctx, 'pfifo').limit).toBe(1000);
    const b = new FifoQdisc(ctx, 'bfifo', 3 * 1514 + 100);
    b.enqueue(pkt(flow({ proto: 'udp' }), { count: 5 }), 0);
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
    q.enqueue(pkt(flow({ proto: 'udp' }), { count: 12, tos: 0 }), 0);
    q.enqueue(pkt(flow({ proto: 'udp' }), { count: 4, tos: 0x10 }), 0);
    expect(q.qlen()).toBe(14);
    expect(ctx.drops.qdisc_overlimit).toBe(2);
  });
});

describe('skb accounting of TCP GSO batches', () => {
  it('a full GSO skb is floor((65536 − 321) / mss) segments; UDP datagrams and pure ACKs are one skb each', () => {
    expect(gsoSegs(pkt(flow(), { sizeBytes: tcpSize(116) }))).toBe(562);
    expect(gsoSegs(pkt(flow(), { sizeBytes: tcpSize(1448) }))).toBe(45);
    expect(gsoSegs(pkt(flow(), { sizeBytes: tcpSize(8949) }))).toBe(7);
    expect(skbsOf(pkt(flow(), { count: 562, sizeBytes: tcpSize(116) }))).toBe(1);
    expect(skbsOf(pkt(flow({ proto: 'udp' }), { count: 7, sizeBytes: 144 }))).toBe(7);
    const ack = { ...pkt(flow(), { count: 3, sizeBytes: 52 }), payloadBytes: 0 };
    expect(skbsOf(ack)).toBe(3);
    expect(packetsInSkbs(pkt(flow(), { count: 1000, sizeBytes: tcpSize(116) }), 1.5)).toBe(843);
    expect([0, 1e-12, 0.02, 1, 1.0000000001, 2.5].map(displaySkbs)).toEqual([0, 0, 1, 1, 1, 3]);
  });

  it('splitting a batch never changes the skb total (64 segments of 116 B stay 64/562 of an skb)', () => {
    const whole = pkt(flow(), { count: 64, sizeBytes: tcpSize(116) });
    const before = skbsOf(whole);
    expect(before).toBeCloseTo(64 / 562, 12);
    const d = new BatchDeque();
    const rest = splitBatch(whole, 32);
    const tail = splitBatch(rest, 5);
    for (const p of [whole, rest, tail]) d.pushBack(p);
    expect(d.skbs).toBeCloseTo(before, 12);
    expect(d.packets).toBe(64);
    // taking pieces off the front and emptying the deque leaves exactly zero
    expect(d.takeFront(10)!.count).toBe(10);
    expect(d.skbs).toBeCloseTo(54 / 562, 12);
    while (d.popFront());
    expect([d.skbs, d.packets, d.bytes]).toEqual([0, 0, 0]);
  });

  it('a 562-segment batch of 116 B counts as one skb against the pfifo limit', () => {
    const ctx = fakeCtx();
    const q = new FifoQdisc(ctx, 'pfifo', 2);
    const f = flow();
    const skb = (seq: number) => pkt(f, { count: 562, sizeBytes: tcpSize(116), seq });
    q.enqueue(skb(0), 0);
    q.enqueue(skb(562 * 116), 0);
    expect(q.qlen()).toBe(2);
    expect(ctx.drops.qdisc_overlimit).toBeUndefined();
    q.enqueue(skb(2 * 562 * 116), 0); // the third skb finds qlen = limit
    expect(ctx.drops.qdisc_overlimit).toBe(562); // reported to the host in wire packets
    // tc: Sent counts wire packets (bstats adds gso_segs), backlog and drops count skbs.
    expect(q.stats()).toMatchObject({ packets: 0, drops: 1, backlogPackets: 2, backlogBytes: 2 * 562 * 182 });
    q.dequeue();
    expect(q.stats()).toMatchObject({ packets: 562, bytes: 562 * 182, backlogPackets: 1 });
  });

  it('UDP datagrams of the same size count one each against the same limit', () => {
    const ctx = fakeCtx();
    const q = new FifoQdisc(ctx, 'pfifo', 2);
    q.enqueue(pkt(flow({ proto: 'udp' }), { count: 562, sizeBytes: 144 }), 0);
    expect(q.qlen()).toBe(2);
    expect(ctx.drops.qdisc_overlimit).toBe(560);
    expect(q.stats().drops).toBe(560);
  });

  it('the pfifo_fast band limit (txqueuelen) counts skbs, so 1000 GSO skbs of small segments fit', () => {
    const ctx = fakeCtx({ txQueueLen: 1000 });
    const q = new PfifoFastQdisc(ctx);
    const f = flow();
    // 562 000 wire packets of 116 B in 64-segment batches: 1000 skbs, the old per-packet limit × 562.
    for (let i = 0; i < Math.floor((562 * 1000) / 64); i++)
      q.enqueue(pkt(f, { count: 64, sizeBytes: tcpSize(116) }), 0);
    q.enqueue(pkt(f, { count: (562 * 1000) % 64, sizeBytes: tcpSize(116) }), 0);
    expect(q.qlen()).toBeCloseTo(1000, 6);
    expect(ctx.drops.qdisc_overlimit).toBeUndefined();
    q.enqueue(pkt(f, { count: 64, sizeBytes: tcpSize(116) }), 0);
    expect(ctx.drops.qdisc_overlimit).toBe(64);
  });

  it('the tree shows backlog in skbs, a fraction of an skb as 1, and a requeued batch counts too', () => {
    const t = createQdiscTree(fakeCtx({ numTxQueues: 1 }), { defaultQdisc: 'pfifo_fast' });
    const f = flow();
    t.enqueue(pkt(f, { count: 10, sizeBytes: tcpSize(1448) }), 0);
    expect(t.backlogPackets()).toBe(1);
    t.enqueue(pkt(f, { count: 80, sizeBytes: tcpSize(1448) }), 0);
    expect(t.backlogPackets()).toBe(2); // 90 segments of 1448 B = 2 skbs of 45
    const p = t.dequeue(0, 0)!;
    t.requeue(p);
    expect(t.backlogPackets()).toBe(2);
    expect(t.dumpQdiscs()[0]!.stats).toMatchObject({ packets: 10, backlogPackets: 2 });
  });

  it('tbf software-segments a GSO skb longer than its bucket: each segment is then an skb', () => {
    const ctx = fakeCtx();
    const rate = 125_000;
    // max_size = 10 000 B: a 45-segment skb of 1448 B (68 130 B) is segmented, a 1514 B segment fits.
    const q = new TbfQdisc(ctx, { kind: 'tbf', rate, bufferNs: 80e6, limit: 1_000_000 });
    q.enqueue(pkt(flow(), { count: 45, sizeBytes: tcpSize(1448) }), 0);
    expect(q.qlen()).toBe(45);
    expect(q.stats().backlogPackets).toBe(45);
    // a bucket larger than the skb keeps it whole: one skb
    const big = new TbfQdisc(ctx, { kind: 'tbf', rate: 125e6, bufferNs: 1e6, limit: 1_000_000 });
    big.enqueue(pkt(flow(), { count: 45, sizeBytes: tcpSize(1448) }), 0);
    expect(big.qlen()).toBe(1);
    expect(big.dequeue(0)!.count).toBe(45);
    expect(big.stats()).toMatchObject({ packets: 45, backlogPackets: 0 });
  });
});
