/**
 * The packet list's worker side (issue 16) at a million rows: `iperf3 -c server -t 3 -P 2` on the
 * default c7i.large pair through the worker's SimService fills the capture ring (cap 2^20 rows),
 * then display filters scanned over all of it (a fresh query: parse, compile, scan), a page of 100
 * rows at random places, a row's details (cold: its connection replayed from the oldest row; warm:
 * the next row), the exports; and what the capture costs the run (the same run with the ring
 * detached, CPU time). Reports, asserts nothing.
 */
import { PRESETS } from '../../src/scenario/presets';
import { SimService } from '../../workers/sim-service';
import { type Stats, stats } from './measure';

export interface PacketListBench {
  rows: number;
  evicted: number;
  ringBytes: number;
  runMs: { on: Stats; off: Stats };
  filters: Array<{ filter: string; matched: number; ms: Stats }>;
  pageMs: Stats;
  detailsColdMs: Stats;
  detailsWarmMs: Stats;
  /** Wall and CPU time (the machine may be shared: CPU time is the export's own). */
  exports: Array<{ what: string; rows: number; bytes: number; ms: number; cpuMs: number }>;
}

export const BENCH_FILTERS = [
  '',
  'tcp.port == 5201 && ip.src == 10.0.0.10',
  'tcp.flags.syn == 1 || drop',
  'frame.len > 1000 && !(tcp.len == 0) && host == server',
  'ip.addr == 10.0.0.0/24 && tcp.seq > 1000000 && tcp.window_size_value in {1..30000}',
];

const ALL = { kind: 'all' } as const;
const cpuMs = () => process.cpuUsage().user / 1e3 + process.cpuUsage().system / 1e3;

function runFor(seconds: number, capture: boolean): { s: SimService; ms: number } {
  const s = new SimService();
  const r = s.load(PRESETS[0]!.scenario);
  if (!r.ok) throw new Error(r.errors.join('; '));
  if (!capture) (s as unknown as { run: { capture: { detach(): void } } }).run.capture.detach();
  if (!s.submit(`iperf3 -c server -t ${seconds} -P 2 > /dev/null`)) throw new Error('submit refused');
  const t0 = cpuMs();
  for (let t = 10; t <= seconds * 1000 + 50; t += 10)
    s.advance({ toNs: t * 1e6, maxEvents: 1e9, pathDetail: false, sampleStepNs: 1e7 });
  return { s, ms: cpuMs() - t0 };
}

export function packetListBench(quick: boolean, progress: (s: string) => void): PacketListBench {
  const reps = quick ? 1 : 3;
  progress('packet list: the capture cost (iperf3 -t 1 -P 2 with and without the ring)…');
  const on: number[] = [];
  const off: number[] = [];
  for (let k = 0; k < reps; k++) {
    off.push(runFor(1, false).ms);
    on.push(runFor(1, true).ms);
  }
  progress('packet list: filling the ring (iperf3 -t 3 -P 2)…');
  const { s } = runFor(3, true);
  const ring = (s as unknown as { run: { capture: { t: Float64Array } & Record<string, unknown> } }).run
    .capture;
  let ringBytes = 0;
  for (const v of Object.values(ring)) if (ArrayBuffer.isView(v)) ringBytes += v.byteLength;
  const head = s.packetList({ filter: '', host: null, window: ALL, offset: 0, limit: 0 });
  if (!head.ok) throw new Error(head.error);
  const filters = BENCH_FILTERS.map((filter) => {
    progress(`packet list: filter ${JSON.stringify(filter)}…`);
    const ms: number[] = [];
    let matched = 0;
    for (let k = 0; k < (quick ? 2 : 5); k++) {
      // a different window each time: a fresh query (no incremental answer)
      const window = { kind: 'range' as const, fromNs: 0, toNs: 1e12 + k };
      const t0 = performance.now();
      const a = s.packetList({ filter, host: null, window, offset: 0, limit: 100 });
      ms.push(performance.now() - t0);
      if (!a.ok) throw new Error(a.error);
      matched = a.matched;
    }
    return { filter, matched, ms: stats(ms) };
  });
  // pages at places spread over the list (the same query: what scrolling asks for)
  const page: number[] = [];
  for (let k = 0; k < 40; k++) {
    const offset = Math.floor(((k * 7919) % 40) * (head.matched / 40));
    const t0 = performance.now();
    s.packetList({ filter: '', host: null, window: ALL, offset, limit: 100 });
    page.push(performance.now() - t0);
  }
  const cold: number[] = [];
  const warm: number[] = [];
  for (let k = 0; k < (quick ? 3 : 10); k++) {
    const no = head.evicted + 1 + Math.floor(((k * 104729) % 1000) * (head.held / 1000));
    let t0 = performance.now();
    s.packetDetails(no);
    cold.push(performance.now() - t0);
    t0 = performance.now();
    s.packetDetails(no + 1);
    warm.push(performance.now() - t0);
  }
  const exports: PacketListBench['exports'] = [];
  for (const [what, filter, fmt] of [
    ['pcap, tcp.flags.syn == 1 || tcp.len == 0', 'tcp.flags.syn == 1 || tcp.len == 0', 'pcap'],
    ['pcap, every row (stops at 64 MiB)', '', 'pcap'],
    ['CSV, tcp.len == 0', 'tcp.len == 0', 'csv'],
  ] as const) {
    progress(`packet list: export ${what}…`);
    const t0 = performance.now();
    const c0 = cpuMs();
    const e = s.packetExport({ filter, host: null, window: ALL }, fmt);
    const ms = performance.now() - t0;
    const cpu = cpuMs() - c0;
    if (!e.ok) throw new Error(e.error);
    exports.push({ what, rows: e.rows, bytes: e.data.length, ms, cpuMs: cpu });
  }
  return {
    rows: head.held,
    evicted: head.evicted,
    ringBytes,
    runMs: { on: stats(on), off: stats(off) },
    filters,
    pageMs: stats(page),
    detailsColdMs: stats(cold),
    detailsWarmMs: stats(warm),
    exports,
  };
}
