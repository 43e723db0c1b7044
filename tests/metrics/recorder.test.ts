/**
 * The metrics recorder: tiers agree with each other and with the model's own counters; a burst
 * shorter than a bucket keeps its peak in coarse buckets; memory stays bounded; queries are fast.
 */
import { describe, expect, it } from 'vitest';
import type { Packet } from '../../src/engine/model/packet';
import { LATENCY_BINS, latencyBin, latencyBinMid, MetricsRecorder } from '../../src/engine/metrics/recorder';
import { createLab, runScript } from '../../src/engine/session/runner';
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

describe('latencyBin', () => {
  it('integer latencies take the bit path and land in the same bin as the log2 definition (1/32 octave, ≤ 2.2 % from the bin middle)', () => {
    const byLog2 = (ns: number) => {
      const v = Math.max(1, ns);
      const e = Math.floor(Math.log2(v));
      return e * 32 + Math.min(31, Math.floor((v / 2 ** e - 1) * 32));
    };
    const values: number[] = [];
    for (let v = 0; v < 70_000; v++) values.push(v);
    for (let e = 5; e < 31; e++) values.push(2 ** e - 1, 2 ** e, 2 ** e + 1, 3 * 2 ** (e - 1));
    for (let i = 1; i < 5000; i++) values.push((i * 2_654_435_761) % 2 ** 31);
    for (const v of values) {
      const b = latencyBin(v);
      expect(b, `${v} ns`).toBe(byLog2(v));
      expect(b).toBeLessThan(LATENCY_BINS);
      if (v >= 64) expect(Math.abs(latencyBinMid(b) - v) / v).toBeLessThan(0.022);
    }
    expect(latencyBin(1.5e10)).toBe(byLog2(1.5e10)); // beyond 2^31 ns: the log2 path
  });
});

describe('MetricsRecorder over a long run (synthetic, 3 simulated hours)', () => {
  it('memory stops growing: the whole-run tier doubles its step instead of adding buckets; totals and peaks survive', () => {
    const r = new MetricsRecorder(['a']);
    const hour = 3600e9;
    let sent = 0;
    const sizeAt: number[] = [];
    // one 10-packet batch through tx_ring every 10 ms, and one 2000-packet burst (in 20 µs) at 1.5 h
    for (let t = 0; t < 3 * hour; t += 10e6) {
      const p = pkt(10);
      r.enter(t, 0, 'tx_ring', 0, p);
      r.leave(t + 5_000, 0, 'tx_ring', 0, p, -1);
      sent += 10;
      if (t === 1.5 * hour) {
        const b = pkt(2000);
        r.enter(t + 1e6, 0, 'tx_ring', 0, b);
        r.leave(t + 1e6 + 20_000, 0, 'tx_ring', 0, b, -1);
        sent += 2000;
      }
      if (t % hour === 0 && t > 0) sizeAt.push(r.sizeBytes);
    }
    r.settle(3 * hour);
    sizeAt.push(r.sizeBytes);
    // 100 ms × 4096 = 6.8 min, then 200 ms, … : 3 h ends at 3.2 s buckets, 3375 of them
    expect(r.clock.stepNs).toBe(3.2e9);
    // from the first hour on the size no longer grows with the run
    expect(sizeAt[2]!).toBe(sizeAt[0]!);
    expect(r.sizeBytes).toBeLessThan(1024 * 1024);
    // the whole run at 60 s steps (coarse tier, 3.2 s buckets: the answer's step rounds to 60.8 s)
    const s = r.series({ host: 0, metric: 'packets_out', fromNs: 0, toNs: 3 * hour, stepNs: 60e9 });
    expect(s.tierStepNs).toBe(3.2e9);
    expect(s.sum.reduce((a, b) => a + b, 0)).toBe(sent);
    // the burst's 10 µs peak is still there, 1.5 h later, in the minute that holds it
    const k = Math.floor((1.5 * hour) / s.stepNs);
    expect(s.max[k]! * 10e-6).toBeCloseTo(2000, 6);
    expect(Math.max(...s.max.filter((_, i) => i !== k)) * 10e-6).toBeCloseTo(10, 6);
    // and the occupancy maximum (the burst held at once) in the coarse tier
    const occ = r.series({
      host: 0,
      metric: 'occupancy',
      stage: 'tx_ring',
      fromNs: 0,
      toNs: 3 * hour,
      stepNs: 60e9,
    });
    expect(Math.max(...occ.max)).toBe(2000);
    expect(r.peakSums(0, 'packets_out', 0, 3 * hour).sum10us).toBe(2000);
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
