import { describe, expect, it } from 'vitest';
import { FqQdisc } from '../../../src/engine/host/qdisc/fq';
import { TbfQdisc } from '../../../src/engine/host/qdisc/tbf';
import { xmitTimeNs } from '../../../src/engine/shell/commands/tc/utils';
import { bytesBy, drain } from './drive';
import { fakeCtx, flow, pkt } from './fake-ctx';

describe('tbf', () => {
  it('lets a burst through at once, then holds the rate', () => {
    const ctx = fakeCtx();
    const rate = 1e6 / 8; // 1 Mbit/s
    const q = new TbfQdisc(ctx, {
      kind: 'tbf',
      rate,
      bufferNs: xmitTimeNs(rate, 10 * 1514),
      limit: 1_000_000,
    });
    const f = flow();
    for (let i = 0; i < 200; i++) q.enqueue(pkt(f), 0);
    const sent = drain(q, { untilNs: 2e9 });
    const atZero = sent.filter((s) => s.atNs === 0).length;
    // 10 packets' worth of tokens (minus psched tick rounding) go immediately.
    expect(atZero).toBeGreaterThanOrEqual(9);
    expect(atZero).toBeLessThanOrEqual(10);
    const inTwoSeconds = sent.reduce((s, { p }) => s + (p.sizeBytes + 14) * p.count, 0);
    expect(inTwoSeconds).toBeGreaterThan(rate * 2);
    expect(inTwoSeconds).toBeLessThan(rate * 2 + 11 * 1514);
    expect(q.stats().overlimits).toBeGreaterThan(0);
  });

  it('drops packets larger than the bucket', () => {
    const ctx = fakeCtx();
    const q = new TbfQdisc(ctx, {
      kind: 'tbf',
      rate: 125000,
      bufferNs: xmitTimeNs(125000, 1000),
      limit: 10000,
    });
    q.enqueue(pkt(flow()), 0);
    expect(ctx.drops.qdisc_overlimit).toBe(1);
  });
});

describe('fq', () => {
  it('paces each flow to maxrate', () => {
    const ctx = fakeCtx();
    const q = new FqQdisc(ctx, { kind: 'fq', maxrate: 100e6 / 8 });
    // UDP: the refill keeps 50 datagrams (skbs) queued, as this test always did.
    const a = flow({ proto: 'udp' });
    const b = flow({ proto: 'udp' });
    const sent = drain(q, {
      untilNs: 1e9,
      refill: (t) => {
        while (q.qlen() < 50) {
          q.enqueue(pkt(a, { count: 2 }), t);
          q.enqueue(pkt(b, { count: 2 }), t);
        }
      },
    });
    const by = bytesBy(sent, (p) => p.flow.socketId);
    for (const f of [a, b]) expect((by.get(f.socketId)! * 8) / 100e6).toBeCloseTo(1, 1);
    expect(q.nextWakeNs()).toBeGreaterThan(0);
  });

  it('uses the socket pacing rate when lower than maxrate, and enforces flow_limit', () => {
    const ctx = fakeCtx();
    const q = new FqQdisc(ctx, { kind: 'fq' });
    const a = flow({ proto: 'udp' });
    ctx.pacing.set(a.socketId, 50e6 / 8);
    const sent = drain(q, {
      untilNs: 1e9,
      refill: (t) => {
        while (q.qlen() < 20) q.enqueue(pkt(a), t);
      },
    });
    const bits = sent.reduce((s, { p }) => s + (p.sizeBytes + 14) * p.count * 8, 0);
    expect(bits / 50e6).toBeCloseTo(1, 1);
    // UDP datagrams: one skb each against flow_limit 100
    const q2 = new FqQdisc(ctx, { kind: 'fq' });
    q2.enqueue(pkt(flow({ proto: 'udp' }), { count: 150 }), 0);
    expect(q2.qlen()).toBe(100);
    expect(q2.xstats().flows_plimit).toBe(50);
  });

  it('flow_limit and limit count TCP GSO skbs, Sent counts wire packets', () => {
    const ctx = fakeCtx();
    const q = new FqQdisc(ctx, { kind: 'fq', flowLimit: 2 });
    const f = flow();
    // 2 skbs of 45 × 1448 B in 9-segment batches fit flow_limit 2; the next segments do not
    for (let i = 0; i < 10; i++) q.enqueue(pkt(f, { count: 9 }), 0);
    expect(q.qlen()).toBeCloseTo(2, 9);
    expect(ctx.drops).toEqual({});
    q.enqueue(pkt(f, { count: 9 }), 0);
    expect(ctx.drops.qdisc_overlimit).toBe(9);
    expect(q.xstats().flows_plimit).toBe(1); // 9/45 of an skb, shown as 1
    expect(q.stats()).toMatchObject({ backlogPackets: 2, drops: 1 });
    while (q.dequeue(0));
    expect(q.stats()).toMatchObject({ packets: 90, backlogPackets: 0 });
    expect(q.qlen()).toBe(0);
  });
});
