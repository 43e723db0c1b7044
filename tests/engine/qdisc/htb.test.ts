import { describe, expect, it } from 'vitest';
import { tcMake } from '../../../src/engine/host/qdisc/common';
import { HtbQdisc } from '../../../src/engine/host/qdisc/htb';
import { getRate64, xmitTimeNs } from '../../../src/engine/shell/commands/tc/utils';
import { bytesBy, drain } from './drive';
import { fakeCtx, flow, pkt } from './fake-ctx';

/** Class options as `tc class add … htb rate R ceil C` computes them (default burst = rate/1e9 + 1600). */
function cls(rate: string, ceil = rate, prio = 0) {
  const r = getRate64(rate)!;
  const c = getRate64(ceil)!;
  return {
    rate: r,
    ceil: c,
    bufferNs: xmitTimeNs(r, Math.floor(r / 1e9) + 1600),
    cbufferNs: xmitTimeNs(c, Math.floor(c / 1e9) + 1600),
    prio,
    quantum: 0,
  };
}

function htb(defcls = 0x10) {
  const ctx = fakeCtx({ mtu: 9001 });
  const q = new HtbQdisc(ctx, { kind: 'htb', defcls });
  q.handle = tcMake(1, 0);
  return { q, ctx };
}

describe('htb', () => {
  it('10gbit class with 7-packet batches of 9015 B sends 10e9 bit/s ±0.5%', () => {
    const { q } = htb();
    const r = q.classOps.change(tcMake(1, 0x10), tcMake(1, 0), cls('10gbit'), true);
    expect(r).toEqual({ warning: 'sch_htb: quantum of class 10010 is big. Consider r2q change.' });
    const f = flow();
    const sent = drain(q, {
      untilNs: 1e9,
      refill: (t) => {
        while (q.qlen() < 700) q.enqueue(pkt(f, { count: 7, sizeBytes: 9001 }), t);
      },
    });
    const bits = sent.reduce((s, { p }) => s + (p.sizeBytes + 14) * p.count * 8, 0);
    expect(Math.abs(bits - 10e9) / 10e9).toBeLessThan(0.005);
    // Default burst: 10 Gbit/s / 1e9 + 1600 = 1601 B → 20 psched ticks = 1280 ns → 1600 B at 10 Gbit/s.
    expect(cls('10gbit').bufferNs).toBe(1280);
  });

  /**
   * Parent 1:1 (100mbit) over leaves 1:10 and 1:20, each leaf kept deeply backlogged with UDP datagrams
   * (every leaf queue refilled on its own, so neither class is ever starved by the driver), for 2 s.
   * Returns each class's Mbit/s.
   */
  function share(
    a: ReturnType<typeof cls>,
    b: ReturnType<typeof cls>,
    count = 2,
  ): { aMbps: number; bMbps: number; q: HtbQdisc } {
    const { q } = htb(0x10);
    q.classOps.change(tcMake(1, 1), tcMake(1, 0), cls('100mbit'), true);
    q.classOps.change(tcMake(1, 0x10), tcMake(1, 1), a, true);
    q.classOps.change(tcMake(1, 0x20), tcMake(1, 1), b, true);
    const fa = flow({ proto: 'udp' });
    const fb = flow({ proto: 'udp' });
    q.classifier = (p) => (p.flow === fa ? tcMake(1, 0x10) : tcMake(1, 0x20));
    const qa = q.classOps.leaf(tcMake(1, 0x10))!;
    const qb = q.classOps.leaf(tcMake(1, 0x20))!;
    const sent = drain(q, {
      untilNs: 2e9,
      refill: (t) => {
        while (qa.qlen() < 200) q.enqueue(pkt(fa, { count, sizeBytes: 1500 }), t);
        while (qb.qlen() < 200) q.enqueue(pkt(fb, { count, sizeBytes: 1500 }), t);
      },
    });
    const by = bytesBy(sent, (p) => p.flow.id);
    return { aMbps: ((by.get(fa.id) ?? 0) * 8) / 2e6, bMbps: ((by.get(fb.id) ?? 0) * 8) / 2e6, q };
  }
  /** cburst as bytes (tc … cburst N): the ceil bucket depth. */
  const withCburst = (c: ReturnType<typeof cls>, bytes: number) => ({
    ...c,
    cbufferNs: xmitTimeNs(c.ceil, bytes),
  });

  it('rate 20/ceil 100 and rate 20/ceil 50 with packet-sized quanta split the parent 50/50', () => {
    // DRR with quantum ≈ one batch alternates the two borrowers, so each borrows 30 Mbit/s.
    const q1 = { ...cls('20mbit', '100mbit'), quantum: 3028 };
    const q2 = { ...cls('20mbit', '50mbit'), quantum: 3028 };
    const { aMbps, bMbps, q } = share(q1, q2);
    expect(Math.abs(aMbps / 50 - 1)).toBeLessThan(0.05);
    expect(Math.abs(bMbps / 50 - 1)).toBeLessThan(0.05);
    expect(q.getClass(tcMake(1, 0x10))!.borrows).toBeGreaterThan(0);
    expect(q.getClass(tcMake(1, 0x20))!.borrows).toBeGreaterThan(0);
  });

  it('the DRR deficit is per level: own-rate sends do not use up the borrowing quantum', () => {
    // Default quanta (rate/r2q → 200000 B, both equal) and a cburst that holds a whole quantum, so
    // each borrower can use its full turn. With one deficit shared by both levels, 1:20's 20 Mbit/s
    // of own-rate sends ate into its borrowing quantum and the split was ≈ 64/36 (LINUX sch_htb.c
    // keeps cl->leaf.deficit[level]).
    const a = withCburst(cls('20mbit', '100mbit'), 200000);
    const b = withCburst(cls('20mbit', '50mbit'), 200000);
    const { aMbps, bMbps } = share(a, b, 1);
    expect(Math.abs(aMbps / 50 - 1)).toBeLessThan(0.05);
    expect(Math.abs(bMbps / 50 - 1)).toBeLessThan(0.05);
  });

  it('default quantum 200000 B with the default 1.6 kB cburst: the ceil-limited class barely borrows', () => {
    // As in the kernel: 1:20's ceil bucket (cburst 1600 B = 256 µs at 50 Mbit/s) runs dry after one
    // or two datagrams of its DRR turn, it goes CANT_SEND and leaves the parent's feed; the feed
    // pointer then rewinds to 1:10 (htb_lookup_leaf: last_ptr_id finds no class ≥ 1:20), which sends
    // a whole 200000 B quantum before 1:20's next turn. So 1:20 gets its 20 Mbit/s rate plus ~3 kB
    // per 200 kB, and 1:10 the rest.
    const { aMbps, bMbps } = share(cls('20mbit', '100mbit'), cls('20mbit', '50mbit'));
    expect(aMbps + bMbps).toBeGreaterThan(99);
    expect(bMbps).toBeGreaterThan(20);
    expect(bMbps).toBeLessThan(24);
  });

  it('a lower prio number borrows first: all spare bandwidth goes to prio 0', () => {
    const { aMbps, bMbps } = share(cls('10mbit', '100mbit', 1), cls('10mbit', '100mbit', 0));
    // 1:10 (prio 1) keeps only its own 10 Mbit/s rate; 1:20 (prio 0) borrows the other 80.
    expect(Math.abs(aMbps / 10 - 1)).toBeLessThan(0.05);
    expect(Math.abs(bMbps / 90 - 1)).toBeLessThan(0.05);
  });

  it('ceil caps a borrower; the other class borrows what it leaves', () => {
    const a = { ...cls('10mbit', '30mbit'), quantum: 3028 };
    const b = { ...cls('10mbit', '100mbit'), quantum: 3028 };
    const { aMbps, bMbps, q } = share(a, b);
    expect(Math.abs(aMbps / 30 - 1)).toBeLessThan(0.03);
    expect(Math.abs(bMbps / 70 - 1)).toBeLessThan(0.05);
    expect(q.getClass(tcMake(1, 0x10))!.overlimits).toBeGreaterThan(0);
  });

  it('a lone class borrows up to its ceil, never beyond', () => {
    const { q } = htb(0x10);
    q.classOps.change(tcMake(1, 1), tcMake(1, 0), cls('1gbit'), true);
    q.classOps.change(tcMake(1, 0x10), tcMake(1, 1), cls('100mbit', '300mbit'), true);
    const f = flow();
    const sent = drain(q, {
      untilNs: 1e9,
      refill: (t) => {
        while (q.qlen() < 100) q.enqueue(pkt(f, { count: 3 }), t);
      },
    });
    const bps = sent.reduce((s, { p }) => s + (p.sizeBytes + 14) * p.count * 8, 0);
    expect(bps / 300e6).toBeCloseTo(1, 2);
  });

  it('unclassified traffic without a default class goes out through the direct queue', () => {
    const { q } = htb(0x99);
    q.enqueue(pkt(flow({ proto: 'udp' }), { count: 3 }), 0);
    expect(q.dequeue(0)!.count).toBe(3);
    expect(q.dumpOptions().direct_packets_stat).toBe(3);
  });

  it('class add validation: rate required, classid in this qdisc', () => {
    const { q } = htb();
    expect(q.classOps.change(tcMake(2, 5), tcMake(1, 0), cls('1mbit'), true)).toEqual({ errno: 'EINVAL' });
    expect(q.classOps.change(tcMake(1, 5), tcMake(1, 0), { ...cls('1mbit'), rate: 0 }, true)).toEqual({
      errno: 'EINVAL',
    });
    expect(q.classOps.change(tcMake(1, 5), tcMake(1, 0), cls('8mbit'), true)).toEqual({});
  });

  it('direct_qlen and direct_packets_stat count skbs; Sent counts wire packets', () => {
    const ctx = fakeCtx();
    const q = new HtbQdisc(ctx, { kind: 'htb', defcls: 0x99, directQlen: 2 });
    q.handle = tcMake(1, 0);
    const f = flow();
    // three 45-segment GSO skbs of 1448 B: two fit direct_qlen 2, the third is dropped whole
    for (let i = 0; i < 3; i++) q.enqueue(pkt(f, { count: 45 }), 0);
    expect(q.dumpOptions().direct_packets_stat).toBe(2);
    expect(ctx.drops.qdisc_overlimit).toBe(45);
    expect(q.stats()).toMatchObject({ drops: 1, backlogPackets: 2 });
    while (q.dequeue(0));
    expect(q.stats()).toMatchObject({ packets: 90, bytes: 90 * 1514, backlogPackets: 0 });
  });
});
