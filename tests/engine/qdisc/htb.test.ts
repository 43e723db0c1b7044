import { describe, expect, it } from 'vitest';
import { tcMake } from '../../../src/engine/host/qdisc/common';
import { HtbQdisc } from '../../../src/engine/host/qdisc/htb';
import { getRate64, xmitTimeNs } from '../../../src/engine/shell/commands/tc';
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

  it('borrows from the parent up to ceil and shares spare bandwidth', () => {
    const { q } = htb(0x10);
    q.classOps.change(tcMake(1, 1), tcMake(1, 0), cls('100mbit'), true);
    q.classOps.change(tcMake(1, 0x10), tcMake(1, 1), cls('20mbit', '100mbit'), true);
    q.classOps.change(tcMake(1, 0x20), tcMake(1, 1), cls('20mbit', '50mbit'), true);
    // UDP: the refill keeps 200 datagrams (skbs) queued, as this test always did.
    const a = flow({ proto: 'udp' });
    const b = flow({ proto: 'udp' });
    q.classifier = (p) => (p.flow === a ? tcMake(1, 0x10) : tcMake(1, 0x20));
    const load = (t: number) => {
      while (q.qlen() < 200) {
        q.enqueue(pkt(a, { count: 2 }), t);
        q.enqueue(pkt(b, { count: 2 }), t);
      }
    };
    const sent = drain(q, { untilNs: 2e9, refill: load });
    const by = bytesBy(sent, (p) => p.flow.id);
    const aBps = (by.get(a.id)! * 8) / 2;
    const bBps = (by.get(b.id)! * 8) / 2;
    // b is capped by its 50 Mbit/s ceil; a borrows the rest of the parent's 100 Mbit/s.
    expect(bBps / 50e6).toBeCloseTo(1, 1);
    expect((aBps + bBps) / 100e6).toBeCloseTo(1, 1);
    expect(q.getClass(tcMake(1, 0x10))!.borrows).toBeGreaterThan(0);
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
