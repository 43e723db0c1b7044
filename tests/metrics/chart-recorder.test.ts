/**
 * The charts' latency and drop series (src/engine/metrics/chart-recorder.ts): built from the
 * model's packet timestamps, equal to `lab summary`'s percentiles for the same run, and per step
 * equal to a histogram of exactly the packets received in that step.
 */
import { describe, expect, it } from 'vitest';
import type { ProbeSink } from '../../src/engine/model/probe';
import { ChartRecorder, FINE_BUCKETS, LATENCY_QUANTILES } from '../../src/engine/metrics/chart-recorder';
import type { Packet } from '../../src/engine/model/packet';
import { LatencyHistogram } from '../../src/engine/metrics/recorder';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';
import { SimService } from '../../workers/sim-service';

function lab(settings: Record<string, unknown> = {}) {
  const r = parseScenario({ version: 3, settings });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

type Lat = Record<string, { p50us: number; p99us: number; p999us: number; packets: number }>;

describe('ChartRecorder', () => {
  it("the whole run's latency percentiles equal lab summary's for the same run", () => {
    const l = lab({ record: true });
    const charts = new ChartRecorder(l.instances.size);
    l.probe.attach(charts);
    const recs = runScript(l, ['iperf3 -c server -t 2 -P 1', 'lab summary']);
    const summary = recs[1]!.result as { instances: Array<{ instance: string; latency: Lat }> };
    const flows = Object.values(summary.instances[1]!.latency);
    expect(flows).toHaveLength(1); // the server received one data flow
    const f = flows[0]!;
    // one step over the whole run
    const q = charts.query(0, l.nowNs, 3e9, l.nowNs);
    expect(q.steps).toBe(1);
    const server = q.latency.find((s) => s.host === 1)!;
    expect(server.packets[0]).toBe(f.packets);
    expect(server.quantiles[0]![0]! / 1e3).toBe(f.p50us);
    expect(server.quantiles[1]![0]! / 1e3).toBe(f.p99us);
    expect(server.quantiles[2]![0]! / 1e3).toBe(f.p999us);
    // and the numbers are the model's: a 10 Gbit/s flow queues in the sender's stack for ~1-2 ms
    expect(f.p50us).toBeGreaterThan(20);
    expect(f.p999us).toBeGreaterThan(f.p50us);
    // the client received no data: no series for it
    expect(q.latency.some((s) => s.host === 0)).toBe(false);
  });

  it('through the worker API (what the latency chart draws) the whole run equals lab summary', () => {
    const svc = new SimService();
    expect(svc.load({ version: 3, settings: { record: true } }).ok).toBe(true);
    const runs: Array<{ command: string; result: unknown }> = [];
    let nowNs = 0;
    const runToEnd = (line: string) => {
      expect(svc.submit(line)).toBe(true);
      for (let i = 0; i < 200; i++) {
        const f = svc.advance({ toNs: Number.POSITIVE_INFINITY, maxEvents: 5_000_000 });
        runs.push(...f.runs);
        nowNs = f.nowNs;
        if (f.foreground === null) return;
      }
      throw new Error(`${line} did not end`);
    };
    runToEnd('iperf3 -c server -t 1');
    runToEnd('lab summary');
    const summary = runs.find((r) => r.command === 'lab summary')!.result as {
      instances: Array<{ latency: Lat }>;
    };
    const flow = Object.values(summary.instances[1]!.latency)[0]!;
    const s = svc.chartSeries({ fromNs: 0, toNs: nowNs, stepNs: Math.ceil(nowNs / 1e8) * 1e8 });
    expect(s.steps).toBe(1);
    const server = s.latency.find((l) => l.host === 'server')!;
    expect(server.packets[0]).toBe(flow.packets);
    expect([server.p50[0]! / 1e3, server.p99[0]! / 1e3, server.p999[0]! / 1e3]).toEqual([
      flow.p50us,
      flow.p99us,
      flow.p999us,
    ]);
  });

  it('each 1 ms step holds the percentiles of exactly the packets received in it (checked against a brute-force log)', () => {
    const l = lab();
    const charts = new ChartRecorder(l.instances.size);
    const log: Array<[number, number, number]> = []; // atNs, latency ns, packets (server)
    const raw: ProbeSink = {
      enter: (t, h, s, _q, p) => {
        if (h === 1 && s === 'socket_rx') log.push([t, t - p.sentAtNs, p.count]);
      },
      leave: () => {},
      drop: () => {},
    };
    l.probe.attach(charts);
    l.probe.attach(raw);
    runScript(l, ['iperf3 -c server -n 300M -P 2']); // ≈ 0.25 s at 10 Gbit/s (-t takes whole seconds)
    for (const stepNs of [1e6, 5e6, 100e6]) {
      const q = charts.query(0, 300e6, stepNs, l.nowNs);
      expect(q.stepNs).toBe(stepNs);
      expect(q.tierStepNs).toBe(stepNs < 100e6 ? 1e6 : 100e6);
      const s = q.latency.find((x) => x.host === 1)!;
      let checked = 0;
      const hists = Array.from({ length: q.steps }, () => new LatencyHistogram());
      for (const [t, ns, n] of log) hists[Math.floor(t / stepNs)]?.add(ns, n);
      for (let k = 0; k < q.steps; k++) {
        const h = hists[k]!;
        expect(s.packets[k]).toBe(h.n);
        if (h.n === 0) {
          expect(s.quantiles[0]![k]).toBeNaN();
          continue;
        }
        LATENCY_QUANTILES.forEach((p, i) => {
          expect(s.quantiles[i]![k]).toBe(h.quantile(p));
        });
        checked++;
      }
      expect(checked).toBeGreaterThan(stepNs === 1e6 ? 200 : 2);
    }
  });

  it('keeps 1 ms buckets for the recent past only; older or wider windows are answered from 100 ms buckets', () => {
    const r = new ChartRecorder(2);
    const flow = {
      id: 1,
      tuple: { srcIp: 'a', dstIp: 'b', proto: 'udp' as const, srcPort: 1, dstPort: 2 },
      skbHash: 0,
      socketId: 1,
    };
    // one packet per ms for FINE_BUCKETS + 4000 ms; its latency is 10 µs + (its second) µs
    const endMs = FINE_BUCKETS + 4000;
    for (let ms = 0; ms < endMs; ms++) {
      const t = ms * 1e6 + 500;
      const lat = 10_000 + Math.floor(ms / 1000) * 1000;
      r.enter(t, 1, 'socket_rx', 0, { flow, count: 1, sentAtNs: t - lat } as unknown as Packet);
    }
    const now = endMs * 1e6;
    const recent = r.query(now - 1e9, now, 1e6, now);
    expect(recent.tierStepNs).toBe(1e6);
    expect(recent.latency[0]!.packets.every((n) => n === 1)).toBe(true);
    const old = r.query(0, 1e9, 1e6, now); // forgotten at 1 ms: 100 ms steps
    expect(old.tierStepNs).toBe(100e6);
    expect(old.steps).toBe(10);
    expect([...old.latency[0]!.packets]).toEqual(new Array(10).fill(100));
    // 10 µs latency, within the histogram's bin (≤ 2.2 %)
    expect(Math.abs(old.latency[0]!.quantiles[0]![0]! - 10_000)).toBeLessThan(220);
    const wide = r.query(0, now, 1e9, now);
    expect(wide.stepNs).toBe(1e9);
    expect(wide.latency[0]!.packets[0]).toBe(1000);
  });

  it('counts drops per (host, stage, reason) over time, summing to the model drop counters', () => {
    const l = lab();
    const charts = new ChartRecorder(l.instances.size);
    l.probe.attach(charts);
    // UDP at 10 Gbit/s from 8 streams: the receiver drops (the NET402 microburst)
    runScript(l, ['iperf3 -c server -u -b 10G -P 8 -n 40M -l 8948']);
    const q = charts.query(0, l.nowNs, 10e6, l.nowNs);
    expect(q.drops.length).toBeGreaterThan(0);
    for (const d of q.drops) {
      const total = d.packets.reduce((a, b) => a + b, 0);
      const model = l.drops
        .list()
        .filter((r) => r.host === ['client', 'server'][d.host] && r.reason === d.reason)
        .reduce((a, r) => a + r.packets, 0);
      expect(total).toBe(model);
    }
  });
});
