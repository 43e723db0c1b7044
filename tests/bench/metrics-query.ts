/**
 * Metrics queries (issue 4, "Speed and size"): record a long iperf3 run with the metrics recorder
 * (src/engine/metrics/recorder.ts), then measure what its series hold (array-buffer bytes reachable
 * from the recorder) and how long queries take: any range at any resolution, the 10 µs detail window,
 * queue occupancy, drops, and latency percentiles. Reports, asserts nothing.
 */
import { createLab, runLine } from '../../src/engine/session/runner';
import type { SeriesQuery } from '../../src/engine/metrics/recorder';
import { parseScenario } from '../../src/scenario/schema';
import { fixed, type Stats, stats, timeIt } from './measure';

export interface MetricsQueryRow {
  query: string;
  points: number;
  ms: Stats;
}

export interface MetricsQueryResult {
  simSeconds: number;
  runCpuMs: number;
  runCpuMsUnrecorded: number;
  /** Bytes of every typed array reachable from the recorder (each buffer counted once). */
  seriesBytes: number;
  rows: MetricsQueryRow[];
}

/** Array-buffer bytes reachable from `root`, following own properties, arrays, Maps and Sets. */
export function reachableBufferBytes(root: unknown): number {
  const seen = new Set<unknown>();
  const buffers = new Set<ArrayBufferLike>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      buffers.add(v.buffer);
      continue;
    }
    if (v instanceof ArrayBuffer) {
      buffers.add(v);
      continue;
    }
    if (v instanceof Map) {
      for (const [k, x] of v) stack.push(k, x);
      continue;
    }
    if (v instanceof Set || Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  let bytes = 0;
  for (const b of buffers) bytes += b.byteLength;
  return bytes;
}

function cpuMsOf(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e3;
}

export function metricsQueryBench(
  simSeconds: number,
  repeats: number,
  progress: (s: string) => void,
): MetricsQueryResult {
  const command = `iperf3 -c server -t ${simSeconds} -l 9000 -P 2`;
  const scenario = () => {
    const parsed = parseScenario({
      version: 1,
      instances: [
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large' },
      ],
      settings: { batch: 'auto' },
    });
    if (!parsed.ok) throw new Error(`bench scenario rejected: ${parsed.errors.join('; ')}`);
    return parsed.scenario;
  };

  progress(`metrics: ${simSeconds} s without the recorder…`);
  const plain = createLab(scenario());
  const runCpuMsUnrecorded = cpuMsOf(() => runLine(plain, command));

  progress(`metrics: ${simSeconds} s recorded…`);
  const lab = createLab(scenario(), { metrics: true });
  const rec = lab.metrics;
  if (!rec) throw new Error('the recorder is not attached');
  // a 10 µs detail window over the second second, as a user zooming in would ask for it
  rec.setDetailWindow(1e9);
  const runCpuMs = cpuMsOf(() => runLine(lab, command));
  const endNs = lab.sched.now;
  const seriesBytes = reachableBufferBytes(rec);

  const q = (label: string, query: Omit<SeriesQuery, 'host'> & { host?: number }): [string, SeriesQuery] => [
    label,
    { host: 0, ...query },
  ];
  const minute = Math.min(60e9, endNs);
  const queries: Array<[string, SeriesQuery]> = [
    q('bytes out, whole run, 1 s steps', { metric: 'bytes_out', fromNs: 0, toNs: endNs, stepNs: 1e9 }),
    q('bytes out, whole run, 60 s steps', { metric: 'bytes_out', fromNs: 0, toNs: endNs, stepNs: 60e9 }),
    q('bytes out, whole run, 100 ms steps', { metric: 'bytes_out', fromNs: 0, toNs: endNs, stepNs: 100e6 }),
    q('bytes in, last minute, 1 ms steps', {
      host: 1,
      metric: 'bytes_in',
      fromNs: endNs - minute,
      toNs: endNs,
      stepNs: 1e6,
    }),
    q('bytes out, 100 ms at 10 µs (detail window)', {
      metric: 'bytes_out',
      fromNs: 1.2e9,
      toNs: 1.3e9,
      stepNs: 10e3,
    }),
    q('Nitro egress occupancy, whole run, 1 s steps', {
      metric: 'occupancy',
      stage: 'nitro_egress',
      fromNs: 0,
      toNs: endNs,
      stepNs: 1e9,
    }),
    q('drops (all stages), whole run, 1 s steps', { metric: 'drops', fromNs: 0, toNs: endNs, stepNs: 1e9 }),
  ];

  const rows: MetricsQueryRow[] = [];
  for (const [label, query] of queries) {
    progress(`metrics: ${label}…`);
    let points = 0;
    const times: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const { ms, value } = timeIt(() => rec.series(query));
      points = value.sum.length;
      times.push(ms);
    }
    rows.push({ query: label, points, ms: stats(times) });
  }
  const latTimes: number[] = [];
  let flows = 0;
  for (let i = 0; i < repeats; i++) {
    const { ms } = timeIt(() => {
      flows = 0;
      for (const { hist } of rec.latency.values()) {
        hist.quantile(0.5);
        hist.quantile(0.99);
        hist.quantile(0.999);
        flows++;
      }
    });
    latTimes.push(ms);
  }
  rows.push({
    query: 'latency p50/p99/p99.9 of every flow (whole run)',
    points: flows * 3,
    ms: stats(latTimes),
  });
  return { simSeconds, runCpuMs, runCpuMsUnrecorded, seriesBytes, rows };
}

export function metricsQueryTable(r: MetricsQueryResult): string[][] {
  return r.rows.map((row) => [
    row.query,
    String(row.points),
    fixed(row.ms.best, 3),
    fixed(row.ms.median, 3),
    fixed(row.ms.worst, 3),
  ]);
}
