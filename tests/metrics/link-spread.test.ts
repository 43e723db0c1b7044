/**
 * Bytes over time at resolutions finer than a batch (src/engine/metrics/link-spread.ts): the
 * averaging ladder's 10 µs and 1 ms strips (the chart recorder) and `lab summary`'s peak 10 µs and
 * 1 ms rates (the full recorder) count each packet of a batch where the host link carries it, as the
 * packet list shows it, so no 10 µs holds more than the link carries (one packet of slack), the
 * bytes of the run add up to what the ENA counted, and the two recorders agree bucket for bucket.
 */
import { describe, expect, it } from 'vitest';
import { ChartRecorder } from '../../src/engine/metrics/chart-recorder';
import type { ProbeSink } from '../../src/engine/model/probe';
import { createLab, runScript } from '../../src/engine/session/runner';
import { batchGapNs, batchRowNs } from '../../src/engine/shell/commands/tcpdump/batch-capture';
import { parseScenario } from '../../src/scenario/schema';

type Rates = { peak10us: number; peak1ms: number };

/** The seed experiment's iperf3 on the default pair (two c7i.large), both recorders on. */
function seedRun(script: string[]) {
  const r = parseScenario({ version: 3, settings: { record: true } });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const lab = createLab(r.scenario);
  const charts = new ChartRecorder(lab.instances.size);
  lab.probe.attach(charts);
  // the model's own batches as the device fetches them: bytes, packets, the largest batch
  const raw = { bytes: 0, packets: 0, largest: 0, sizes: new Set<number>() };
  const sink: ProbeSink = {
    leaveStages: ['tx_ring'],
    enter: () => {},
    leave: (_t, host, _s, _q, p) => {
      if (host !== 0) return;
      raw.bytes += p.count * (p.sizeBytes + 14);
      raw.packets += p.count;
      raw.largest = Math.max(raw.largest, p.count);
      raw.sizes.add(p.sizeBytes);
    },
    drop: () => {},
  };
  lab.probe.attach(sink);
  const recs = runScript(lab, script);
  return { lab, charts, raw, recs };
}

describe('bytes over time where the host link carries them', () => {
  it('on the default pair running iperf3 -P 2, no 10 µs of bytes out is over the link rate by more than a packet, and the bytes add up', () => {
    const { lab, charts, raw, recs } = seedRun([
      'iperf3 -c server -t 1 -l 9000 -P 2',
      'lab summary',
      'lab summary --from 0.5 --to 1',
      'ethtool -S eth0',
    ]);
    const client = lab.instance('client')!;
    const linkBps = client.nitro.linkBps;
    expect(linkBps).toBe(170e9); // c7i: a Nitro v4 card
    expect(raw.largest).toBe(64); // batches of 64 jumbo frames: 577 KB, 460 Gbit/s if counted in one 10 µs
    const packet = Math.max(...raw.sizes) + 14;
    const cap = (linkBps / 8) * 10e-6 + packet;
    const now = lab.nowNs;

    // the ladder's finest strip: every 10 µs bucket it keeps (the last 655 ms), bytes out of the client
    const from = now - 650e6;
    const fine = charts.bytesOut(0, from, now, 10_000, now);
    let max10 = 0;
    let sum10 = 0;
    for (const v of fine.bytes)
      if (!Number.isNaN(v)) {
        max10 = Math.max(max10, v);
        sum10 += v;
      }
    expect(max10).toBeLessThanOrEqual(cap);
    expect(max10).toBeGreaterThan(0.9 * (linkBps / 8) * 10e-6); // batches do go at the link's rate

    // the run's bytes: the 1 ms strip over the whole run adds up to what the device fetched, and
    // to the ENA's own counters (ethtool -S: bytes + 14 per packet), unchanged
    const ms = charts.bytesOut(0, 0, now, 1_000_000, now);
    const sumMs = ms.bytes.reduce((a, b) => a + (Number.isNaN(b) ? 0 : b), 0);
    expect(sumMs).toBe(raw.bytes);
    const ethtool = recs[3]!.result as Record<string, number>;
    const enaBytes = Object.entries(ethtool)
      .filter(([k]) => /^queue_\d+_tx_bytes$/.test(k))
      .reduce((a, [, v]) => a + v, 0);
    expect(enaBytes).toBe(raw.bytes);
    // the 10 µs buckets hold the same bytes as the 1 ms ones over the same time
    const msFrom = Math.ceil(from / 1e6);
    const msSame = charts.bytesOut(0, msFrom * 1e6, now, 1_000_000, now);
    const fineSame = charts.bytesOut(0, msFrom * 1e6, now, 10_000, now);
    const total = (a: Float64Array) => a.reduce((x, v) => x + (Number.isNaN(v) ? 0 : v), 0);
    expect(total(fineSame.bytes)).toBe(total(msSame.bytes));
    expect(sum10).toBeGreaterThan(0);

    // the full recorder (lab summary) counts them the same way: the same total, the same peaks
    lab.metrics!.settle(now);
    expect(lab.metrics!.trafficTotal(0, 'bytes_out')).toBe(raw.bytes);
    const summary = (recs[1]!.result as { instances: Array<{ out: Rates }> }).instances[0]!.out;
    expect(summary.peak10us * 10e-6).toBeLessThanOrEqual(cap);
    // over 0.5–1 s (inside what the ladder keeps at 10 µs) lab summary's peaks are the ladder's
    const half = (recs[2]!.result as { instances: Array<{ out: Rates }> }).instances[0]!.out;
    const at10 = charts.bytesOut(0, 0.5e9, 1e9, 10_000, now).bytes;
    const at1ms = charts.bytesOut(0, 0.5e9, 1e9, 1_000_000, now).bytes;
    expect(half.peak10us * 10e-6).toBeCloseTo(Math.max(...at10), 3);
    expect(half.peak1ms * 1e-3).toBeCloseTo(Math.max(...at1ms), 3);
  });

  it('places packet k of a batch where the capture shows it: one serialisation apart, behind the batch before', () => {
    const { lab } = seedRun([]);
    const client = lab.instance('client')!;
    // 9001-byte packets at 170 Gbit/s: (9001 + 38) × 8 / 170 ns apart
    const gap = batchGapNs(client, 9001);
    expect(gap).toBeCloseTo(((9001 + 38) * 8) / 170, 9);
    // two back-to-back batches of 64 at t = 0 and t = 1 µs: the second waits for the first
    const c2 = new ChartRecorder(2);
    c2.bindLinks(lab);
    const flow = {
      id: 1,
      tuple: { srcIp: '10.0.0.10', dstIp: '10.0.0.11', proto: 'udp' as const, srcPort: 1, dstPort: 2 },
      skbHash: 0,
      socketId: 1,
    };
    const batch = { flow, count: 64, sizeBytes: 9001 } as unknown as Parameters<ChartRecorder['leave']>[4];
    const t0 = 10e9;
    c2.leave(t0, 0, 'tx_ring', 0, batch);
    c2.leave(t0 + 1000, 0, 'tx_ring', 0, batch);
    const b = c2.bytesOut(0, t0, t0 + 100_000, 10_000, t0 + 100_000).bytes;
    // 128 packets from t0 at one per `gap` (≈ 23.6 per 10 µs): the second batch from the first's end
    const expected = new Array(10).fill(0);
    for (const start of [t0, t0 + 64 * gap])
      for (let k = 0; k < 64; k++) expected[Math.floor((batchRowNs(start, k, gap) - t0) / 10_000)] += 9015;
    expect(expected.slice(0, 6)).toEqual([24, 24, 23, 24, 23, 10].map((n) => n * 9015));
    expect([...b]).toEqual(expected);
    expect(c2.lastOutNs[0]).toBe(batchRowNs(t0 + 64 * gap, 63, gap));
  });
});
