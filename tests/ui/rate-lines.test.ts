/**
 * The worker's counter samples, column by column, are the model's counters, and the rate chart's
 * lines read them: over the worker API (as the page runs it), during `iperf3 -c server`, the
 * server's "in (ENA rx_bytes)" line shows what the client's "out (ENA tx_bytes)" line sends.
 * (20a6f73 left the network_out_bytes column unwritten: every later instance's columns moved by
 * one, the server's rx_bytes read its tx_packets and its "in" line stayed near 0.)
 */
import { describe, expect, it } from 'vitest';
import { SAMPLE_COLUMNS_PER_INSTANCE } from '../../src/protocol/sim-api';
import { createAppStore } from '../../src/state/app-store';
import { buildCharts, type Line } from '../../src/ui/charts/chart-defs';
import { SimService } from '../../workers/sim-service';

describe("the worker's samples and the rate chart", () => {
  it("each instance's columns hold its own counters, and the server-in line shows the received rate", () => {
    const svc = new SimService();
    const r = svc.load({ version: 3, settings: {} });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const store = createAppStore({ presetId: 'exp1', doc: {} });
    store.series.reset(r.sampleColumns.length, 0);
    expect(svc.submit('iperf3 -c server -t 1')).toBe(true);
    for (let i = 0; i < 100; i++) {
      const f = svc.advance({ toNs: svc.live!.session.nowNs + 100e6, maxEvents: 5_000_000 });
      store.series.append(f);
      if (f.foreground === null) break;
    }
    const lab = svc.live!.session.lab;
    const nowNs = lab.nowNs;
    expect(nowNs).toBeGreaterThan(1e9);

    // the last row, column by column, against the counters it samples (ethtool -S, the card)
    const row = store.series.length - 1;
    const at = (name: string) => store.series.value(row, r.sampleColumns.indexOf(name));
    expect(r.sampleColumns).toHaveLength(SAMPLE_COLUMNS_PER_INSTANCE.length * lab.instances.size);
    for (const inst of lab.instances.values()) {
      const st = new Map(inst.host.eth0.statistics());
      const sum = (suffix: string) =>
        [...st].filter(([n]) => n.startsWith('queue_') && n.endsWith(suffix)).reduce((a, [, v]) => a + v, 0);
      const h = inst.name;
      expect(at(`${h}.tx_bytes`)).toBe(sum('_tx_bytes'));
      expect(at(`${h}.rx_bytes`)).toBe(sum('_rx_bytes'));
      expect(at(`${h}.tx_packets`)).toBe(sum('_tx_cnt'));
      expect(at(`${h}.rx_packets`)).toBe(sum('_rx_cnt'));
      expect(at(`${h}.pps_allowance_exceeded`)).toBe(st.get('pps_allowance_exceeded'));
      expect(at(`${h}.network_out_bytes`)).toBe(inst.nitro.traffic.bytesOut);
    }
    expect(at('server.rx_bytes')).toBeGreaterThan(1e9);

    // the rate chart: the server's in line follows the client's out line (≈ 12 Gbit/s, not 0)
    const rate = buildCharts({
      series: store.series,
      queues: store.queues,
      cols: r.sampleColumns,
      instances: r.instances,
      runs: [],
      engine: null,
      fromNs: 0,
      toNs: nowNs,
      px: 200,
    })[0]!;
    const line = (label: string) => rate.lines.find((l) => l.label === label)!;
    /** The line's mean over [a, b] s, weighted by each segment's time in it. */
    const mean = (l: Line, a: number, b: number) => {
      let area = 0;
      for (const s of l.segs) area += s.y * Math.max(0, Math.min(s.x1, b * 1e9) - Math.max(s.x0, a * 1e9));
      return area / ((b - a) * 1e9);
    };
    const out = line('client out (ENA tx_bytes, 1 ms)');
    const inn = line('server in (ENA rx_bytes, 1 ms)');
    const sent = mean(out, 0.2, 0.9);
    const got = mean(inn, 0.2, 0.9);
    expect(sent).toBeGreaterThan(8);
    expect(got).toBeGreaterThan(0.95 * sent);
    expect(got).toBeLessThan(1.05 * sent);
  });
});
