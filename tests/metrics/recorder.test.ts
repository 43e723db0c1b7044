/**
 * The metrics recorder: tiers agree with each other and with the model's own counters; a burst
 * shorter than a bucket keeps its peak in coarse buckets; memory stays bounded; queries are fast.
 */
import { describe, expect, it } from 'vitest';
import type { Packet } from '../../src/engine/model/packet';
import { MetricsRecorder } from '../../src/engine/metrics/recorder';
import { createLab, runScript } from '../../src/engine/runner';
import { parseScenario } from '../../src/scenario/schema';
import { pair } from '../golden/helpers';

const flow = {
  id: 1,
  tuple: { srcIp: 'a', dstIp: 'b', proto: 'udp' as const, srcPort: 1, dstPort: 2 },
  skbHash: 0,
  socketId: 1,
};
function pkt(count: number, sizeBytes = 1486, sentAtNs = 0): Packet {
  return {
    flow,
    count,
    sizeBytes,
    payloadBytes: sizeBytes - 28,
    seq: 0,
    ack: 0,
    flags: 0,
    sack: null,
    window: 0,
    tos: 0,
    sentAtNs,
    enqueuedAtNs: 0,
    txq: 0,
    mark: 0,
  };
}

describe('MetricsRecorder (synthetic probe calls)', () => {
  it('a 50 µs burst inside a steady second keeps its peak rate and queue maximum at every step', () => {
    const r = new MetricsRecorder(['a']);
    // steady 1 packet per 100 µs for 1 s through tx_ring, plus 400 packets in 50 µs at t = 0.5 s
    // (probe calls come in time order)
    for (let t = 0; t < 1e9; t += 100_000) {
      r.enter(t, 0, 'tx_ring', 0, pkt(1));
      r.leave(t, 0, 'tx_ring', 0, pkt(1), -1);
      if (t === 500_000_000) {
        // 5 × 80 packets posted at once, the device takes 80 per 10 µs
        r.enter(t + 1, 0, 'tx_ring', 0, pkt(400));
        for (let k = 0; k < 5; k++) r.leave(t + 1 + k * 10_000, 0, 'tx_ring', 0, pkt(80), -1);
      }
    }
    r.settle(1e9);
    const s1 = r.series({ host: 0, metric: 'packets_out', fromNs: 0, toNs: 1e9, stepNs: 1e9 });
    expect(s1.sum[0]).toBe(10_000 + 400);
    expect(s1.mean[0]).toBe(10_400); // per second
    expect(s1.max[0]).toBeCloseTo(81 / 10e-6, 3); // 80 + the steady packet in one 10 µs bucket
    const ms = r.series({ host: 0, metric: 'packets_out', fromNs: 0, toNs: 1e9, stepNs: 1e6 });
    expect(ms.tierStepNs).toBe(1e6);
    expect(ms.sum.length).toBe(1000);
    expect(ms.sum[500]).toBe(10 + 400);
    expect(ms.sum[499]).toBe(10);
    const occ = r.series({
      host: 0,
      metric: 'occupancy',
      stage: 'tx_ring',
      queue: 0,
      fromNs: 0,
      toNs: 1e9,
      stepNs: 1e9,
    });
    expect(occ.max[0]).toBe(400);
    // held 320, 240, 160, 80 for 10 µs each: 8 ms·packet over the second
    expect(occ.mean[0]).toBeCloseTo(((320 + 240 + 160 + 80) * 10_000) / 1e9, 9);
    const occMs = r.series({
      host: 0,
      metric: 'occupancy',
      stage: 'tx_ring',
      queue: 0,
      fromNs: 0,
      toNs: 1e9,
      stepNs: 1e6,
    });
    expect(occMs.max[500]).toBe(400);
    expect(occMs.max[499]).toBe(1);
  });

  it('detail window: 10 µs buckets there, 1 ms elsewhere', () => {
    const r = new MetricsRecorder(['a']);
    r.setDetailWindow(1_000_000);
    for (let t = 0; t < 3e6; t += 1000) r.leave(t, 0, 'tx_ring', 0, pkt(1), -1);
    r.settle(3e6);
    const d = r.series({ host: 0, metric: 'packets_out', fromNs: 1e6, toNs: 2e6, stepNs: 10_000 });
    expect(d.tierStepNs).toBe(10_000);
    expect([...d.sum].every((v) => v === 10)).toBe(true);
    const o = r.series({ host: 0, metric: 'packets_out', fromNs: 0, toNs: 1e6, stepNs: 10_000 });
    expect(o.tierStepNs).toBe(1e6); // outside the window: the finest tier that holds it
  });

  it('latency percentiles per flow from socket_rx enter − sentAtNs', () => {
    const r = new MetricsRecorder(['a']);
    for (let i = 0; i < 1000; i++)
      r.enter(
        1e6 + i * 1000,
        0,
        'socket_rx',
        0,
        pkt(1, 1486, 1e6 + i * 1000 - (i < 990 ? 50_000 : 2_000_000)),
      );
    const h = r.latency.get(1)!.hist;
    expect(h.quantile(0.5) / 50_000).toBeCloseTo(1, 1);
    expect(h.quantile(0.999) / 2_000_000).toBeCloseTo(1, 1);
  });
});

describe('MetricsRecorder on a lab run', () => {
  it('bytes and packets out match the ENA counters; every series is bounded', () => {
    const parsed = parseScenario({ version: 1, ...pair('c7i.large') });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const lab = createLab(parsed.scenario, { metrics: true });
    runScript(lab, ['iperf3 -c server -t 2 -l 9000']);
    const rec = lab.metrics!;
    rec.settle(lab.nowNs);
    const stats = new Map(lab.instance('client')!.host.eth0.statistics());
    let txBytes = 0;
    let txPkts = 0;
    for (const [k, v] of stats) {
      if (/^queue_\d+_tx_bytes$/.test(k)) txBytes += v;
      if (/^queue_\d+_tx_cnt$/.test(k)) txPkts += v;
    }
    expect(rec.trafficTotal(0, 'bytes_out')).toBe(txBytes);
    expect(rec.trafficTotal(0, 'packets_out')).toBe(txPkts);
    const s = rec.series({ host: 0, metric: 'bytes_out', fromNs: 0, toNs: lab.nowNs, stepNs: 1e9 });
    const total = s.sum.reduce((a, b) => a + b, 0);
    expect(total).toBe(txBytes);
    const ms = rec.series({ host: 0, metric: 'bytes_out', fromNs: 0, toNs: lab.nowNs, stepNs: 1e6 });
    expect(Math.abs(ms.sum.reduce((a, b) => a + b, 0) - txBytes) / txBytes).toBeLessThan(1e-6); // Float32 buckets
    expect(rec.sizeBytes).toBeLessThan(4 * 1024 * 1024);
  });
});
