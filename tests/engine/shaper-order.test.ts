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
