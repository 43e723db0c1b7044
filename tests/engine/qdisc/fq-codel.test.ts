import { describe, expect, it } from 'vitest';
import { FqCodelQdisc } from '../../../src/engine/host/qdisc/fq-codel';
import { bytesBy, drain } from './drive';
import { fakeCtx, flow, pkt } from './fake-ctx';

describe('fq_codel', () => {
  it('has the kernel defaults (quantum = mtu + 14)', () => {
    const q = new FqCodelQdisc(fakeCtx({ mtu: 9001 }));
    expect(q.dumpOptions()).toEqual({
      limit: 10240,
      flows: 1024,
      quantum: 9015,
      target: 5000,
      interval: 100000,
      memory_limit: 32 * 1024 * 1024,
      ecn: true,
      drop_batch: 64,
    });
  });

  it('shares the link fairly (DRR) between a fat flow sending big batches and a thin one', () => {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx, {
      kind: 'fq_codel',
      limit: 100000,
      targetUs: 1_000_000_000,
      intervalUs: 1_000_000_000,
    });
    const fat = flow({ skbHash: 0x10000000 });
    const thin = flow({ skbHash: 0x90000000 });
    // Offered: fat 2 Gbit/s in 16-packet batches, thin 0.6 Gbit/s in single packets; link 1 Gbit/s.
    const fatGapNs = (16 * 1514 * 8) / 2;
    const thinGapNs = (1514 * 8) / 0.6;
    let nextFat = 0;
    let nextThin = 0;
    const sent = drain(q, {
      untilNs: 100e6,
      linkBps: 1e9,
      refill: (t) => {
        for (; nextFat <= t; nextFat += fatGapNs) q.enqueue(pkt(fat, { count: 16 }), nextFat);
        for (; nextThin <= t; nextThin += thinGapNs) q.enqueue(pkt(thin, { count: 1 }), nextThin);
      },
    });
    const by = bytesBy(sent, (p) => p.flow.id);
    const a = by.get(fat.id)!;
    const b = by.get(thin.id)!;
    expect(Math.abs(a - b) / (a + b)).toBeLessThan(0.1);
  });

  it('CoDel starts dropping only after the sojourn stays above target for an interval', () => {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', ecn: false });
    const f = flow();
    // Arrivals at 2× the drain rate: the standing queue grows, sojourn exceeds 5 ms after ~5 ms.
    const linkBps = 100e6;
    const perPktNs = (1514 * 8 * 1e9) / linkBps;
    let nextArrival = 0;
    const sent = drain(q, {
      untilNs: 400e6,
      linkBps,
      refill: (t) => {
        while (nextArrival <= t) {
          q.enqueue(pkt(f), nextArrival);
          nextArrival += perPktNs / 2;
        }
      },
    });
    expect(sent.length).toBeGreaterThan(0);
    expect(ctx.drops.codel_drop).toBeGreaterThan(3);
    expect(ctx.drops.qdisc_overlimit).toBeUndefined();
    // No drop before target (5 ms) + interval (100 ms) has passed with the queue above target.
    expect(ctx.dropped.every((p) => p.enqueuedAtNs > 0)).toBe(true);
    const st = q.flowState(q.flowIndex(pkt(f)));
    expect(st.dropping || st.count > 1).toBe(true);
  });

  it('does not drop before an interval has elapsed above target', () => {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', ecn: false });
    const f = flow();
    for (let i = 0; i < 2000; i++) q.enqueue(pkt(f), 0);
    // Dequeue slowly: 1 packet per ms. Sojourn ≥ target from the first dequeue at 10 ms.
    let firstDrop = -1;
    for (let t = 10e6; t < 300e6; t += 1e6) {
      q.dequeue(t);
      if (firstDrop < 0 && (ctx.drops.codel_drop ?? 0) > 0) firstDrop = t;
    }
    expect(firstDrop).toBeGreaterThan(10e6 + 100e6);
    expect(firstDrop).toBeLessThanOrEqual(10e6 + 102e6);
  });

  it('ECN-capable packets are marked CE instead of dropped', () => {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx);
    const f = flow();
    for (let i = 0; i < 500; i++) q.enqueue(pkt(f, { tos: 0x02, count: 4 }), 0);
    let marked = 0;
    let markedBatches = 0;
    for (let t = 10e6; t < 400e6; t += 1e6) {
      const p = q.dequeue(t);
      if (p && (p.tos & 3) === 3) {
        marked += p.count;
        markedBatches++;
      }
    }
    expect(ctx.drops.codel_drop).toBeUndefined();
    expect(marked).toBeGreaterThan(0);
    // ecn_mark counts skbs: CoDel marks the head GSO skb as a whole, here a whole 4-segment batch
    // (smaller than a 45-segment skb), so every mark covers 4 wire packets.
    expect(q.xstats().ecn_mark).toBe(markedBatches);
    expect(marked).toBe(4 * markedBatches);
  });

  it('on overflow drops from the head of the fattest flow: half its backlog, at most 64 packets', () => {
    // UDP datagrams: one skb each, so the limit and drop_batch count them one by one.
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', limit: 200 });
    const fat = flow({ skbHash: 0x10000000, proto: 'udp' });
    const thin = flow({ skbHash: 0x90000000, proto: 'udp' });
    q.enqueue(pkt(fat, { count: 190, seq: 0 }), 0);
    q.enqueue(pkt(thin, { count: 10 }), 0);
    q.enqueue(pkt(thin, { count: 1 }), 0); // 201 > limit
    expect(ctx.drops.qdisc_overlimit).toBe(64); // half of 190 would be 95, capped at drop_batch 64
    expect(ctx.dropped.every((p) => p.flow === fat)).toBe(true);
    expect(ctx.dropped[0]!.seq).toBe(0); // from the head
    expect(q.qlen()).toBe(201 - 64);
    expect(q.xstats().drop_overlimit).toBe(64);

    const ctx2 = fakeCtx();
    const q2 = new FqCodelQdisc(ctx2, { kind: 'fq_codel', limit: 100 });
    q2.enqueue(pkt(fat, { count: 60 }), 0);
    q2.enqueue(pkt(thin, { count: 41 }), 0);
    expect(ctx2.drops.qdisc_overlimit).toBe(30); // half of the fattest flow's 60
  });

  it('memory_limit drops are reported as such', () => {
    const ctx = fakeCtx({ mtu: 9001 });
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', memoryLimit: 1_000_000 });
    // UDP: one skb per datagram, so drop_overmemory (skbs) equals the wire packets dropped.
    q.enqueue(pkt(flow({ proto: 'udp' }), { count: 200, sizeBytes: 9001 }), 0);
    expect(ctx.drops.fq_codel_memory_limit).toBeGreaterThan(0);
    expect(q.xstats().drop_overmemory).toBe(ctx.drops.fq_codel_memory_limit);
  });

  it('a batch is served like the same packets one by one', () => {
    const run = (batch: number) => {
      const ctx = fakeCtx();
      const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', ecn: false });
      const f = flow({ skbHash: 1, proto: 'udp' });
      for (let i = 0; i < 1200 / batch; i++) q.enqueue(pkt(f, { count: batch }), 0);
      let sent = 0;
      for (let t = 1e6; t < 200e6; t += 1e6) {
        for (let k = 0; k < 6 / Math.min(batch, 6); k++) {
          const p = q.dequeue(t);
          if (p) sent += p.count;
        }
      }
      return { sent, dropped: ctx.drops.codel_drop ?? 0 };
    };
    const one = run(1);
    const six = run(6);
    expect(Math.abs(six.sent + six.dropped - (one.sent + one.dropped))).toBeLessThanOrEqual(6);
    expect(six.dropped).toBeGreaterThan(0);
    expect(Math.abs(six.dropped - one.dropped)).toBeLessThanOrEqual(2);
  });

  it('counts TCP GSO skbs against limit: 10240 skbs of 562 × 116 B fit, the 10241st overflows', () => {
    const ctx = fakeCtx();
    // memory_limit raised: 10240 full GSO skbs are 670 MB of truesize, over the 32 MB default
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', memoryLimit: 1 << 30 });
    const flows = Array.from({ length: 8 }, (_, i) => flow({ skbHash: (i * 0x20000000) >>> 0 }));
    for (let i = 0; i < 10240; i++) q.enqueue(pkt(flows[i % 8]!, { count: 562, sizeBytes: 168 }), 0);
    expect(q.qlen()).toBe(10240);
    expect(ctx.drops).toEqual({});
    expect(q.stats()).toMatchObject({ backlogPackets: 10240, backlogBytes: 10240 * 562 * 182, drops: 0 });
    q.enqueue(pkt(flows[0]!, { count: 562, sizeBytes: 168 }), 0);
    // fq_codel_drop: 64 skbs (drop_batch) from the head of the fattest flow (flow 0: 1281 skbs)
    expect(ctx.drops.qdisc_overlimit).toBe(64 * 562);
    expect(ctx.dropped.every((p) => p.flow === flows[0])).toBe(true);
    expect(q.xstats().drop_overlimit).toBe(64);
    expect(q.stats()).toMatchObject({ drops: 64, backlogPackets: 10241 - 64 });
  });

  it('1.2 MB of 116-byte TCP segments (10240 wire packets, ~18 skbs) is far below the limit', () => {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx);
    const f = flow();
    for (let i = 0; i < 400; i++) q.enqueue(pkt(f, { count: 64, sizeBytes: 168 }), 0);
    expect(ctx.drops).toEqual({});
    expect(q.stats().backlogPackets).toBe(Math.ceil((400 * 64) / 562));
    // maxpacket is the head skb's qdisc_pkt_len: here a whole 64-segment batch (part of one skb)
    q.dequeue(0);
    expect(q.xstats().maxpacket).toBe(64 * 182);
    expect(q.stats()).toMatchObject({ packets: 64, bytes: 64 * 182 });
  });

  it('the fattest-flow drop removes whole TCP skbs until half the backlog is gone', () => {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', limit: 4 });
    const fat = flow({ skbHash: 0x10000000 });
    const thin = flow({ skbHash: 0x90000000 });
    // fat: 3 skbs of 45 × 1448 B in 9-segment batches; thin: 67 segments = 1.49 skbs → 4.49 > limit 4
    for (let i = 0; i < 15; i++) q.enqueue(pkt(fat, { count: 9, seq: i * 9 * 1448 }), 0);
    q.enqueue(pkt(thin, { count: 45 }), 0);
    expect(ctx.drops).toEqual({});
    q.enqueue(pkt(thin, { count: 22 }), 0);
    // Linux drops skbs while len < half the fat flow's bytes: after 1 skb a third, after 2 two thirds.
    expect(ctx.drops.qdisc_overlimit).toBe(90);
    expect(ctx.dropped.every((p) => p.flow === fat)).toBe(true);
    expect(ctx.dropped[0]!.seq).toBe(0);
    expect(q.xstats().drop_overlimit).toBe(2);
    expect(q.qlen()).toBeCloseTo(3 + 67 / 45 - 2, 9);
    expect(q.stats().backlogPackets).toBe(3);
  });

  it('a CoDel drop of TCP data drops one GSO skb: 562 segments of 116 B across 64-segment batches', () => {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', ecn: false });
    const f = flow();
    for (let i = 0; i < 200; i++) q.enqueue(pkt(f, { count: 64, sizeBytes: 168, seq: i * 64 * 116 }), 0);
    let next = null;
    for (let t = 10e6; t < 300e6 && ctx.drops.codel_drop === undefined; t += 1e6) next = q.dequeue(t);
    // The first drop (entering the dropping state) is exactly one skb: 8 batches + 50 segments.
    expect(ctx.drops.codel_drop).toBe(562);
    expect(ctx.dropped.map((p) => p.count)).toEqual([64, 64, 64, 64, 64, 64, 64, 64, 50]);
    expect(q.stats().drops).toBe(1);
    // the dequeue that dropped returns what follows the dropped skb: the rest of the 9th batch
    if (!next) throw new Error('nothing dequeued');
    expect(next.seq - ctx.dropped[0]!.seq).toBe(562 * 116);
    expect(next.count).toBe(14);
  });

  it('CoDel on TCP: batched and per-packet runs drop the same skbs', () => {
    const run = (batch: number) => {
      const ctx = fakeCtx();
      const q = new FqCodelQdisc(ctx, { kind: 'fq_codel', ecn: false });
      const f = flow({ skbHash: 1 });
      for (let i = 0; i < 9000 / batch; i++) q.enqueue(pkt(f, { count: batch }), 0);
      let sent = 0;
      for (let t = 1e6; t < 400e6; t += 1e6) {
        // 45 segments (one skb) per ms whatever the batch size
        for (let k = 0; k < 45 / batch; k++) {
          const p = q.dequeue(t);
          if (p) sent += p.count;
        }
      }
      return { sent, dropped: ctx.drops.codel_drop ?? 0, drops: q.stats().drops };
    };
    const one = run(1);
    const nine = run(9);
    expect(nine.dropped).toBeGreaterThan(0);
    expect(nine.dropped % 45).toBe(0); // whole skbs
    expect(Math.abs(nine.dropped - one.dropped)).toBeLessThanOrEqual(45);
    expect(Math.abs(nine.drops - one.drops)).toBeLessThanOrEqual(1);
    expect(nine.sent + nine.dropped).toBe(9000);
  });
});

describe('fq_codel: CoDel control law on a standing queue (batches)', () => {
  // 100 Mbit/s link, batches of 8 UDP datagrams (each its own skb) arriving exactly at the drain rate
  // on top of 20 queued batches: a standing queue of ≈ 19 ms, far above the 5 ms target, for 1.5 s.
  const linkBps = 100e6;
  const batchNs = (8 * 1514 * 8 * 1e9) / linkBps;
  const targetNs = 5e6;
  const intervalNs = 100e6;

  function run(tos: number) {
    const ctx = fakeCtx();
    const q = new FqCodelQdisc(ctx, { kind: 'fq_codel' });
    const f = flow({ proto: 'udp' });
    for (let i = 0; i < 20; i++) q.enqueue(pkt(f, { count: 8, tos }), 0);
    let nextArrival = 0;
    const sent = drain(q, {
      untilNs: 1.5e9,
      linkBps,
      refill: (t) => {
        for (; nextArrival <= t; nextArrival += batchNs) q.enqueue(pkt(f, { count: 8, tos }), nextArrival);
      },
    });
    return { ctx, q, sent };
  }

  /**
   * The instants CoDel acts, from the dequeue times alone (codel_impl.h): the first dequeue whose
   * sojourn is ≥ target sets first_above_time = now + interval; the first dequeue after it drops and
   * sets drop_next = now + interval (count 1); then each dequeue at or after drop_next acts, with
   * count += 1 and drop_next += interval / √count.
   */
  function expectControlLaw(sent: Array<{ p: { enqueuedAtNs: number }; atNs: number }>, actions: number[]) {
    const aboveAt = sent.find(({ p, atNs }) => atNs - p.enqueuedAtNs >= targetNs)!.atNs;
    expect(actions.length).toBeGreaterThan(10);
    expect(actions[0]!).toBeGreaterThan(aboveAt + intervalNs);
    expect(actions[0]!).toBeLessThanOrEqual(aboveAt + intervalNs + batchNs);
    let dropNext = actions[0]! + intervalNs;
    for (let k = 1; k < actions.length; k++) {
      expect(actions[k]!).toBeGreaterThanOrEqual(dropNext);
      expect(actions[k]!).toBeLessThanOrEqual(dropNext + batchNs);
      dropNext += intervalNs / Math.sqrt(k + 1);
    }
    // the next action is not yet due at the end of the run
    expect(dropNext + batchNs).toBeGreaterThan(sent[sent.length - 1]!.atNs);
  }

  it('not ECN-capable: drops one skb at each control-law instant, splitting the head batch', () => {
    const { ctx, q, sent } = run(0);
    // Each drop removes one datagram off the head batch; that dequeue returns the other 7.
    expect(ctx.dropped.every((p) => p.count === 1)).toBe(true);
    const dropAt = sent.filter(({ p }) => p.count === 7).map(({ atNs }) => atNs);
    expect(dropAt.length).toBe(ctx.dropped.length);
    expectControlLaw(sent, dropAt);
    expect(ctx.drops).toEqual({ codel_drop: dropAt.length });
    expect(q.stats().drops).toBe(dropAt.length);
    expect(q.xstats().ecn_mark).toBe(0);
    // CoDel is still dropping: the standing queue never went below target.
    expect(q.flowState(q.flowIndex(sent[0]!.p)).dropping).toBe(true);
  });

  it('ECT(0) packets: CE marks at the same instants, nothing dropped', () => {
    const { ctx, q, sent } = run(0x02);
    expect(ctx.dropped).toEqual([]);
    // A mark takes one skb (one datagram) off the head batch and returns it with CE set.
    const marked = sent.filter(({ p }) => (p.tos & 3) === 3);
    expect(marked.every(({ p }) => p.count === 1)).toBe(true);
    expectControlLaw(
      sent,
      marked.map(({ atNs }) => atNs),
    );
    expect(q.xstats().ecn_mark).toBe(marked.length);
    // The rest of a marked batch keeps its enqueue time: no later packet's sojourn is understated.
    const rest = sent.filter(({ p }) => (p.tos & 3) !== 3 && p.count < 8);
    expect(rest.length).toBe(marked.length);
    for (const { p, atNs } of rest) expect(atNs - p.enqueuedAtNs).toBeGreaterThan(targetNs);
  });
});
