/**
 * A Nitro shaping stage serves the flows waiting in it by deficit round robin (the model's design,
 * nitroFlowQuantumBytes > 0), or, with a quantum of 0, as one FIFO in arrival order (the other
 * design, kept to compare: see the shaper's header). Two flows' backlogs, offered one flow after the
 * other, leave interleaved under DRR and in arrival order under FIFO.
 */
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/engine/core/scheduler';
import type { Packet } from '../../src/engine/model/packet';
import { TokenBucket } from '../../src/engine/model/token-bucket';
import { ShaperStage, shaperBucket } from '../../src/engine/nitro/shaper';

function order(quantumBytes: number): number[] {
  const sched = new Scheduler();
  // 1,000 B/s with room for one packet: the first passes, the rest wait their turn
  const bucket = new TokenBucket(1000, 1000);
  const left: number[] = [];
  const stage = new ShaperStage(
    sched,
    [shaperBucket(bucket, 0, 1, 'bw_out_allowance_exceeded')],
    100e9, // a deep queue: nothing dropped here
    64,
    (p) => left.push(p.flow.id),
    () => {
      throw new Error('nothing should be dropped');
    },
    quantumBytes,
  );
  const pkt = (flow: number) => ({ count: 1, sizeBytes: 1000, flow: { id: flow } }) as unknown as Packet;
  for (const flow of [1, 1, 1, 1, 2, 2, 2, 2]) stage.offer(pkt(flow));
  sched.runUntil(60e9);
  return left;
}

describe('Nitro shaper scheduling', () => {
  it('deficit round robin (quantum one packet): two backlogged flows take turns', () => {
    const o = order(1000);
    expect(o).toHaveLength(8);
    // flow 2, offered after all of flow 1, leaves before flow 1 is done, and they alternate after
    expect(o.indexOf(2)).toBeLessThan(o.lastIndexOf(1));
    expect(o).toEqual([1, 1, 1, 2, 1, 2, 2, 2]);
  });

  it('quantum 0: one FIFO, packets leave in the order they came', () => {
    expect(order(0)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
  });
});

/** A stage with room for `room` packets of 1,000 B behind a 1,000 B/s bucket, fair buffer share on or off. */
function smallStage(fairShare: boolean, room = 4) {
  const sched = new Scheduler();
  const bucket = new TokenBucket(1000, 1000);
  const left: number[] = [];
  const dropped: number[] = [];
  const stage = new ShaperStage(
    sched,
    [shaperBucket(bucket, 0, 1, 'bw_in_allowance_exceeded')],
    room * 1e9,
    1,
    (p) => left.push(p.flow.id),
    (p, n) => {
      for (let i = 0; i < n; i++) dropped.push(p.flow.id);
    },
    1000,
    fairShare,
  );
  let seq = 0;
  const pkt = (flow: number) =>
    ({ count: 1, sizeBytes: 1000, seq: seq++, flow: { id: flow } }) as unknown as Packet;
  return { sched, stage, left, dropped, pkt };
}

describe('a flow may hold at most its share of a Nitro shaping stage’s buffer', () => {
  it('a flow holding the whole buffer loses its own arrivals once a second flow waits; a newcomer finds room', () => {
    const s = smallStage(true);
    // flow 1 passes two packets (a full bucket, then one owed) and fills the 4-packet queue
    for (let i = 0; i < 6; i++) s.stage.offer(s.pkt(1));
    expect(s.dropped).toEqual([]);
    s.sched.runUntil(1.5e9); // one of flow 1's packets leaves: 3 waiting
    s.stage.offer(s.pkt(2)); // room for flow 2: it is below its share (4 / 2)
    s.stage.offer(s.pkt(1)); // flow 1 is above its share now: dropped
    expect(s.dropped).toEqual([1]);
    s.sched.runUntil(60e9);
    expect(s.left.filter((f) => f === 2)).toHaveLength(1);
  });

  it('eight equal flows arriving in a fixed order each get an eighth; with only a total cap the last ones starve', () => {
    // Eight flows of one packet every 4 s each (2 packets/s offered to a 1 packet/s stage with a
    // 64-packet buffer), always offered in the same order: the phase that starved flows before.
    const run = (fair: boolean) => {
      const s = smallStage(fair, 64);
      for (let k = 0; k < 150; k++)
        s.sched.at(k * 4e9 + 1, () => {
          for (let f = 1; f <= 8; f++) s.stage.offer(s.pkt(f));
        });
      s.sched.runUntil(600e9);
      return [1, 2, 3, 4, 5, 6, 7, 8].map((f) => s.left.filter((x) => x === f).length);
    };
    const fair = run(true);
    // 600 served in 600 s: 75 each (measured 75-76)
    for (const n of fair) expect(Math.abs(n - 75), fair.join(' ')).toBeLessThanOrEqual(4);
    // only a total cap: the first four in the order get 135 each, the last four 15-16
    const tail = run(false);
    expect(Math.min(...tail), tail.join(' ')).toBeLessThan(20);
  });
});
