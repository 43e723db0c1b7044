/**
 * Seek: how long going back to t ≈ 5 s (5 s + i·37 ms) takes in a 10 s iperf3 run, with the worker's checkpoints
 * (frozen runs built while idle, src/engine/session/timeline.ts) and without (replay from t = 0). Runs the
 * worker's SimService in-process, as the worker does; reports, asserts nothing.
 */
import { SimService } from '../../workers/sim-service';
import { fixed, mib, type Stats, stats } from './measure';

export interface SeekRow {
  name: string;
  checkpoints: string;
  seekMs: Stats;
  /** Model events one seek replayed (median). */
  events: number;
  /** Background work that built the checkpoints (once), and the memory they hold (heap + array buffers). */
  buildMs: number;
  buildEvents: number;
  heapBytes: number;
}

const pair = (type: string) => ({
  version: 2,
  seed: 1,
  placement: 'cluster',
  instances: [
    { name: 'client', type },
    { name: 'server', type },
  ],
});

/** Play `command` for 10 s as the UI does (100 ms frames, no path detail), then pause. */
function played(doc: unknown, command: string, maxCheckpoints: number): SimService {
  const svc = new SimService({ timeline: { maxCheckpoints, maxStashed: maxCheckpoints > 0 ? 2 : 0 } });
  svc.load(doc);
  svc.submit(command);
  for (let t = 100e6; t <= 10e9; t += 100e6) svc.advance({ toNs: t, maxEvents: 1e9, pathDetail: false });
  return svc;
}

export function seekBench(
  gc: (() => void) | undefined,
  repeats: number,
  progress: (s: string) => void,
): SeekRow[] {
  const rows: SeekRow[] = [];
  const cases: Array<[string, unknown, string]> = [
    ['c7i.large, 1 flow', pair('c7i.large'), 'iperf3 -c server -t 10'],
    ['c5n.18xlarge, 10 flows', pair('c5n.18xlarge'), 'iperf3 -c server -t 10 -P 10'],
  ];
  const heap = () => {
    gc?.();
    const m = process.memoryUsage();
    // typed arrays (the recorders' rings) live outside the JS heap
    return m.heapUsed + m.arrayBuffers;
  };
  for (const [name, doc, command] of cases) {
    for (const withCp of [false, true]) {
      progress(`seek: ${name}, ${withCp ? 'with' : 'without'} checkpoints…`);
      const svc = played(doc, command, withCp ? 6 : 0);
      const h0 = heap();
      let buildMs = 0;
      const build = () => {
        const t0 = performance.now();
        while (svc.buildCheckpoints(1e6));
        return performance.now() - t0;
      };
      if (withCp) buildMs = build();
      const buildEvents = svc.timelineStats()!.buildEvents;
      const heapBytes = heap() - h0;
      const cps = svc.timelineStats()!.checkpoints;
      const times: number[] = [];
      const events: number[] = [];
      for (let i = 0; i < repeats; i++) {
        const e0 = svc.timelineStats()!.seekEvents;
        // a new instant each time (an instant a seek left is taken back with no replay at all)
        const t0 = performance.now();
        svc.seek(5e9 + i * 37e6);
        times.push(performance.now() - t0);
        events.push(svc.timelineStats()!.seekEvents - e0);
        // back to the end, and refill what the seek used up (neither timed)
        svc.seek(10e9);
        if (withCp) build();
      }
      rows.push({
        name: `${name}: \`${command}\``,
        checkpoints: withCp ? cps.map((t) => fixed(t / 1e9, 2)).join(' ') : 'none (replay from 0)',
        seekMs: stats(times),
        events: stats(events).median,
        buildMs,
        buildEvents,
        heapBytes,
      });
    }
  }
  return rows;
}

export function seekTable(rows: SeekRow[]): string[][] {
  return rows.map((r) => [
    r.name,
    r.checkpoints,
    fixed(r.seekMs.best, 1),
    fixed(r.seekMs.median, 1),
    String(Math.round(r.events)),
    r.buildMs > 0 ? `${fixed(r.buildMs, 0)} ms / ${r.buildEvents} ev` : '-',
    r.buildMs > 0 ? mib(r.heapBytes) : '-',
  ]);
}
