/**
 * The codel qdisc (sch_codel.c over host/qdisc/codel.ts) and `tc … codel` (q_codel.c): defaults,
 * tail drop at the limit, the control law on a standing queue, ECN marks, tc's text.
 */
import { describe, expect, it } from 'vitest';
import { CodelQdisc } from '../../../src/engine/host/qdisc/codel-qdisc';
import { createQdiscTree, type QdiscManager } from '../../../src/engine/host/qdisc/tree';
import { runTc, type TcDevices } from '../../../src/engine/shell/commands/tc';
import { CODEL_USAGE } from '../../../src/engine/shell/commands/tc/q-codel';
import { drain } from './drive';
import { fakeCtx, flow, pkt } from './fake-ctx';

describe('codel qdisc', () => {
  it('has the kernel defaults: limit 1000, target 5 ms, interval 100 ms, ECN off', () => {
    const q = new CodelQdisc(fakeCtx({ mtu: 9001 }));
    expect(q.dumpOptions()).toEqual({ limit: 1000, target: 5000, interval: 100000 });
    expect(q.params.mtuBytes).toBe(9015);
    expect(q.xstats()).toEqual({
      count: 0,
      lastcount: 0,
      ldelay: 0,
      drop_next: 0,
      maxpacket: 0,
      ecn_mark: 0,
      drop_overlimit: 0,
    });
  });

  it('tail-drops what is over the limit (drop_overlimit), in skbs', () => {
    const ctx = fakeCtx();
    const q = new CodelQdisc(ctx, { kind: 'codel', limit: 10 });
    const f = flow({ proto: 'udp' });
    q.enqueue(pkt(f, { count: 8 }), 0);
    q.enqueue(pkt(f, { count: 8 }), 0);
    expect(q.qlen()).toBe(10);
    expect(ctx.drops).toEqual({ qdisc_overlimit: 6 });
    expect(q.stats().drops).toBe(6);
    expect(q.xstats().drop_overlimit).toBe(6);
  });

  // 100 Mbit/s link, batches of 8 UDP datagrams arriving at the drain rate on top of 20 queued:
  // a standing queue of ≈ 19 ms, far above the 5 ms target, for 1.5 s (as fq_codel's test).
  const linkBps = 100e6;
  const batchNs = (8 * 1514 * 8 * 1e9) / linkBps;
  function run(tos: number, ecn: boolean) {
    const ctx = fakeCtx();
    const q = new CodelQdisc(ctx, { kind: 'codel', ecn });
    const f = flow({ proto: 'udp' });
    for (let i = 0; i < 20; i++) q.enqueue(pkt(f, { count: 8, tos }), 0);
    let next = 0;
    const sent = drain(q, {
      untilNs: 1.5e9,
      linkBps,
      refill: (t) => {
        for (; next <= t; next += batchNs) q.enqueue(pkt(f, { count: 8, tos }), next);
      },
    });
    return { ctx, q, sent };
  }

  /** codel_impl.h: the first act an interval after the sojourn first exceeds target, then at interval/√count. */
  function expectControlLaw(sent: Array<{ p: { enqueuedAtNs: number }; atNs: number }>, actions: number[]) {
    const aboveAt = sent.find(({ p, atNs }) => atNs - p.enqueuedAtNs >= 5e6)!.atNs;
    expect(actions.length).toBeGreaterThan(10);
    expect(actions[0]!).toBeGreaterThan(aboveAt + 100e6);
    expect(actions[0]!).toBeLessThanOrEqual(aboveAt + 100e6 + batchNs);
    let dropNext = actions[0]! + 100e6;
    for (let k = 1; k < actions.length; k++) {
      expect(actions[k]!).toBeGreaterThanOrEqual(dropNext);
      expect(actions[k]!).toBeLessThanOrEqual(dropNext + batchNs);
      dropNext += 100e6 / Math.sqrt(k + 1);
    }
  }

  it('drops one skb at each control-law instant on a standing queue (ECN off by default)', () => {
    const { ctx, q, sent } = run(0x02, false);
    expect(ctx.dropped.every((p) => p.count === 1)).toBe(true);
    const dropAt = sent.filter(({ p }) => p.count === 7).map(({ atNs }) => atNs);
    expect(dropAt.length).toBe(ctx.dropped.length);
    expectControlLaw(sent, dropAt);
    expect(ctx.drops).toEqual({ codel_drop: dropAt.length });
    const x = q.xstats();
    expect(x.dropping).toBe(1);
    expect(x.count).toBe(dropAt.length);
    expect(x.ldelay).toBeGreaterThan(5000);
    expect(x.maxpacket).toBe(1514);
  });

  it('with ecn, CE-marks ECT packets at the same instants and drops nothing', () => {
    const { ctx, q, sent } = run(0x02, true);
    expect(ctx.dropped).toEqual([]);
    const marked = sent.filter(({ p }) => (p.tos & 3) === 3);
    expect(marked.every(({ p }) => p.count === 1)).toBe(true);
    expectControlLaw(
      sent,
      marked.map(({ atNs }) => atNs),
    );
    expect(q.xstats().ecn_mark).toBe(marked.length);
  });
});

describe('tc … codel (q_codel.c)', () => {
  function setup(): { devs: TcDevices; eth0: QdiscManager } {
    const ctx = fakeCtx({ numTxQueues: 2, mtu: 9001 });
    const eth0 = createQdiscTree(ctx, { defaultQdisc: 'fq_codel' });
    return { devs: new Map([['eth0', eth0]]), eth0 };
  }
  const tc = (devs: TcDevices, line: string) => {
    const o = runTc(line.split(/\s+/).filter(Boolean), devs);
    if (o.kind !== 'done') throw new Error('tc never starts a job');
    return o.out;
  };

  it('adds a codel root and shows it as tc does', () => {
    const { devs } = setup();
    expect(tc(devs, 'qdisc replace dev eth0 root codel').exitCode).toBe(0);
    expect(tc(devs, 'qdisc show dev eth0').stdout).toBe(
      'qdisc codel 8001: root refcnt 3 limit 1000p target 5ms interval 100ms \n',
    );
    expect(tc(devs, '-s qdisc show dev eth0').stdout).toBe(
      'qdisc codel 8001: root refcnt 3 limit 1000p target 5ms interval 100ms \n' +
        ' Sent 0 bytes 0 pkt (dropped 0, overlimits 0 requeues 0) \n' +
        ' backlog 0b 0p requeues 0\n' +
        '  count 0 lastcount 0 ldelay 0us drop_next 0us\n' +
        '  maxpacket 0 ecn_mark 0 drop_overlimit 0\n',
    );
  });

  it('takes limit, target, interval, ce_threshold and ecn; change keeps what is not given', () => {
    const { devs } = setup();
    tc(
      devs,
      'qdisc add dev eth0 root handle 1: codel limit 100 target 2ms interval 20ms ce_threshold 1ms ecn',
    );
    expect(tc(devs, 'qdisc show dev eth0').stdout).toBe(
      'qdisc codel 1: root refcnt 3 limit 100p target 2ms ce_threshold 1ms interval 20ms ecn \n',
    );
    expect(tc(devs, 'qdisc change dev eth0 root codel noecn limit 50').exitCode).toBe(0);
    expect(tc(devs, 'qdisc show dev eth0').stdout).toBe(
      'qdisc codel 1: root refcnt 3 limit 50p target 2ms ce_threshold 1ms interval 20ms \n',
    );
    expect(JSON.parse(tc(devs, '-j qdisc show dev eth0').stdout)[0].options).toEqual({
      limit: 50,
      target: 2000,
      ce_threshold: 1000,
      interval: 20000,
    });
  });

  it("refuses bad options with q_codel.c's texts (exit 1) and has no classes", () => {
    const { devs } = setup();
    const bad = tc(devs, 'qdisc add dev eth0 root codel flows 10');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toBe(`What is "flows"?\n${CODEL_USAGE}`);
    expect(tc(devs, 'qdisc add dev eth0 root codel limit x').stderr).toBe('Illegal "limit"\n');
    // get_u32's strtoul negates in a 64-bit unsigned long: "-1" is above every 32-bit value
    expect(tc(devs, 'qdisc add dev eth0 root codel limit -1').stderr).toBe('Illegal "limit"\n');
    expect(tc(devs, 'qdisc add dev eth0 root codel limit 4294967296').stderr).toBe('Illegal "limit"\n');
    expect(tc(devs, 'qdisc add dev eth0 root codel target soon').stderr).toBe('Illegal "target"\n');
    expect(tc(devs, 'qdisc add dev eth0 root codel help').stderr).toBe(CODEL_USAGE);
    expect(tc(devs, 'class add dev eth0 parent 1: classid 1:1 codel').stderr).toBe(
      'Error: Qdisc "codel" is classless.\n',
    );
  });
});
