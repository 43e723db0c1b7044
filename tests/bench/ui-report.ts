/**
 * Section 9 of `npm run bench`: the UI in headless Chromium (tests/bench/ui.mjs, run as a child
 * process so a browser failure cannot take the engine figures with it), printed as tables with one
 * verdict per target of issue 5: path-view frame ≤ 16.7 ms with 5,000 packets, initial JavaScript
 * ≤ 250 kB gzipped, first meaningful paint < 1.5 s, input → visible change < 100 ms while the
 * worker runs a long scenario; and (issue 12) the 600 s run in the page at the top speed against
 * the same run through `npm run lab`, page ≤ 2 × CLI.
 *
 * Guarantees: never throws for a missing browser or a failed part: those are reported as lines.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { fixed, table } from './measure';

interface Size {
  file: string;
  raw: number;
  gz: number;
}
type Part<T> = T | { error: string };
interface UiResult {
  pathView: Part<{
    n: number;
    drawMs: number[];
    drawRasterMs: number[];
    intervalsMs: number[];
    errors: string[];
  }>;
  bundle: Part<{ initial: Size[]; css: Size[]; workers: Size[]; allJs: Size[] }>;
  paint: Part<{ loads: Array<{ fcp: number | null; pathDrawn: number; domContentLoaded: number | null }> }>;
  responsiveness: Part<{
    speedText: string | null;
    command: string;
    pump: {
      wallMs: number;
      frames: number;
      rafs: number;
      simNs: number;
      advanceMs: number[];
      lagging: boolean;
    };
    ms: { theme: number[]; type: number[]; tab: number[] };
    missed: number;
    still: { playing: boolean; nowNs: number };
    problems: string[];
  }>;
  packetList?: Part<{
    rowsHeld: number;
    filters: Array<{ filter: string; ms: number; status: string }>;
    jumpsMs: number[];
    scroll: { intervals: number[]; loadingFrames: number; frames: number; maxRows: number };
    problems: string[];
  }>;
  pageVsCli?: Part<{
    command: string;
    speedText: string | null;
    cliMs: number[];
    page: {
      wallMs: number;
      frames: number;
      simNs: number;
      done: boolean;
      advances: number;
      advanceBusyMs: number;
      /** The worker's own time in those requests (Frame.workMs). */
      workerMs?: number;
      /** Stretches with no advance request out (the worker had nothing of the run to do): total, largest [start, ms]. */
      idle?: { ms: number; largest: Array<[number, number]> };
    };
    /** The same command typed, paused, then "Run until" 600.5 s: Go → the clock there. */
    runUntil?: { wallMs: number; advances: number; workerMs: number; idleMs: number };
    problems: string[];
  }>;
}

const FRAME_MS = 16.7;
const INITIAL_GZ_KB = 250;
const PAINT_MS = 1500;
const INPUT_MS = 100;
/** The page may take at most this many times what `npm run lab` takes for the same long run (issue 12). */
const PAGE_VS_CLI = 2;

const sorted = (a: readonly number[]) => [...a].sort((x, y) => x - y);
const median = (a: readonly number[]) => sorted(a)[Math.floor(a.length / 2)] ?? Number.NaN;
const p95 = (a: readonly number[]) =>
  sorted(a)[Math.min(a.length - 1, Math.floor(a.length * 0.95))] ?? Number.NaN;
const max = (a: readonly number[]) => (a.length ? Math.max(...a) : Number.NaN);
const kb = (bytes: number) => fixed(bytes / 1000, 1);
const sum = (xs: readonly Size[], k: 'raw' | 'gz') => xs.reduce((s, x) => s + x[k], 0);
const isErr = <T>(p: Part<T> | undefined): p is { error: string } =>
  p === undefined || (typeof p === 'object' && p !== null && 'error' in p);

/**
 * Run the UI bench and print section 9 through `out`; `verdict` gets one call per target.
 * Throws only if the child's output cannot be read at all (the caller's section() reports it).
 */
export function uiSection(
  quick: boolean,
  out: (s?: string) => void,
  progress: (s: string) => void,
  verdict: (what: string, measured: string, target: string, met: boolean) => void,
  note: (s: string) => void,
): void {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  out(
    `9. UI in headless Chromium (software rendering; tests/bench/ui.mjs); load average now (1/5/15 min): ${os
      .loadavg()
      .map((x) => fixed(x))
      .join(' / ')} on ${os.cpus().length} CPUs`,
  );
  if (!existsSync(chromium)) {
    out(`skipped: no browser at ${chromium} (install Debian's chromium, or set CHROMIUM_PATH)`);
    note('UI: skipped (no Chromium)');
    out();
    return;
  }
  progress('UI (path view, build, first paint, responsiveness; about a minute)…');
  const script = fileURLToPath(new URL('./ui.mjs', import.meta.url));
  const child = spawnSync(process.execPath, [script, ...(quick ? ['--quick'] : [])], {
    encoding: 'utf8',
    timeout: 10 * 60_000,
    maxBuffer: 64 * 2 ** 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = child.stdout?.split('\n').find((l) => l.startsWith('UIBENCH '));
  if (!line)
    throw new Error(
      `tests/bench/ui.mjs gave no result (status ${child.status}, signal ${child.signal}${child.error ? `, ${child.error.message}` : ''})`,
    );
  const r = JSON.parse(line.slice('UIBENCH '.length)) as UiResult;

  // ------------------------------------------------------------------------------- path view
  const pv = r.pathView;
  if (isErr(pv)) {
    out(`9a. Path view: ERROR ${pv?.error}`);
    note('UI path view: not measured (error above)');
  } else {
    out(
      `9a. Path view, ${pv.n} batches in view moving every frame (synthetic frame, frame rate uncapped), ${pv.intervalsMs.length} frames`,
    );
    out(
      table(
        ['measure', 'median ms', 'p95 ms'],
        [
          ['draw (the renderer in the React effect)', fixed(median(pv.drawMs)), fixed(p95(pv.drawMs))],
          [
            'draw + rasterise (1-pixel readback)',
            fixed(median(pv.drawRasterMs)),
            fixed(p95(pv.drawRasterMs)),
          ],
          [
            'frame (interval between animation frames)',
            fixed(median(pv.intervalsMs)),
            fixed(p95(pv.intervalsMs)),
          ],
        ],
      ),
    );
    if (pv.errors.length) out(`page errors: ${pv.errors.join('; ')}`);
    out();
    const m = median(pv.intervalsMs);
    verdict(
      `UI path view frame, ${pv.n} packets`,
      `median ${fixed(m, 1)} ms, p95 ${fixed(p95(pv.intervalsMs), 1)} ms`,
      `median ≤ ${FRAME_MS} ms`,
      m <= FRAME_MS,
    );
  }

  // ---------------------------------------------------------------------------------- bundle
  const b = r.bundle;
  if (isErr(b)) {
    out(`9b. Bundle: ERROR ${b?.error}`);
    note('UI bundle: not measured (error above)');
  } else {
    out(
      '9b. Bundle: production build (Vite, NODE_ENV=production); kB = 1000 bytes, gzip at zlib default level',
    );
    const initialGz = sum(b.initial, 'gz');
    const rows = [
      ...b.initial.map((x) => [
        'initial JS (index.html: module script / modulepreload)',
        x.file,
        kb(x.raw),
        kb(x.gz),
      ]),
      ['initial JS total', '', kb(sum(b.initial, 'raw')), kb(initialGz)],
      ...b.workers.map((x) => ['worker chunk (loaded when the lab starts)', x.file, kb(x.raw), kb(x.gz)]),
      ...b.css.map((x) => ['CSS (for reference)', x.file, kb(x.raw), kb(x.gz)]),
      ['all JS chunks', `${b.allJs.length} files`, kb(sum(b.allJs, 'raw')), kb(sum(b.allJs, 'gz'))],
    ];
    out(table(['what', 'file', 'raw kB', 'gzip kB'], rows));
    out();
    verdict(
      'UI initial JavaScript',
      `${kb(initialGz)} kB gz (worker ${kb(sum(b.workers, 'gz'))} kB gz)`,
      `≤ ${INITIAL_GZ_KB} kB gz`,
      initialGz <= INITIAL_GZ_KB * 1000,
    );
  }

  // ------------------------------------------------------------------------------ first paint
  const p = r.paint;
  if (isErr(p)) {
    out(`9c. First paint: ERROR ${p?.error}`);
    note('UI first paint: not measured (error above)');
  } else {
    const fcp = p.loads.map((l) => l.fcp).filter((x): x is number => x !== null);
    const drawn = p.loads.map((l) => l.pathDrawn);
    const dcl = p.loads.map((l) => l.domContentLoaded).filter((x): x is number => x !== null);
    out(
      `9c. First paint of the default scenario (built site on vite preview, localhost), ${p.loads.length} loads each in a fresh context (empty cache); ms since navigation start`,
    );
    out(
      table(
        ['measure', 'median ms', 'worst ms'],
        [
          ['DOMContentLoaded end', fixed(median(dcl), 0), fixed(max(dcl), 0)],
          ['first-contentful-paint (Performance API)', fixed(median(fcp), 0), fixed(max(fcp), 0)],
          [
            'path drawn (first frame whose canvas has a drawn pixel)',
            fixed(median(drawn), 0),
            fixed(max(drawn), 0),
          ],
        ],
      ),
    );
    out();
    const m = median(drawn);
    verdict(
      'UI first meaningful paint (path drawn)',
      `median ${fixed(m, 0)} ms (first-contentful-paint ${fixed(median(fcp), 0)} ms)`,
      `< ${PAINT_MS} ms`,
      m < PAINT_MS,
    );
  }

  // -------------------------------------------------------------------------- responsiveness
  const q = r.responsiveness;
  if (isErr(q)) {
    out(`9d. Responsiveness: ERROR ${q?.error}`);
    note('UI responsiveness: not measured (error above)');
  } else {
    out(
      `9d. Responsiveness while the worker runs \`${q.command}\` played at ${q.speedText ?? '?'} (top speed): real input → end of the frame that paints the change`,
    );
    const rows = (
      [
        ['theme button (click → data-theme painted)', q.ms.theme],
        ['Command textbox (key x / Backspace → value painted)', q.ms.type],
        ['tab (click Inspector / Counters → selected tab painted)', q.ms.tab],
      ] as const
    ).map(([name, xs]) => [name, String(xs.length), fixed(median(xs), 1), fixed(max(xs), 1)]);
    out(table(['action', 'n', 'median ms', 'max ms'], rows));
    if (q.missed) out(`${q.missed} action(s) showed no change within 10 s (not counted)`);
    const pump = q.pump;
    const s = pump.wallMs / 1000;
    out(
      table(
        ['frame pump (same run, ' + fixed(s, 1) + ' s window, no input)', 'value'],
        [
          ['frames a second the UI receives from the worker', fixed(pump.frames / s, 1)],
          ['animation frames a second on the main thread', fixed(pump.rafs / s, 1)],
          [
            'advance round trip (post → answer: worker time for a frame + messaging), median / p95 ms',
            `${fixed(median(pump.advanceMs), 1)} / ${fixed(p95(pump.advanceMs), 1)}`,
          ],
          ['simulated seconds per wall second reached', fixed(pump.simNs / 1e9 / s, 1)],
          ['pump lagging behind the asked speed (event budget)', pump.lagging ? 'yes' : 'no'],
        ],
      ),
    );
    out(
      `the run was ${q.still.playing ? 'still playing' : 'NOT playing any more'} after the last action (t = ${fixed(q.still.nowNs / 1e9, 1)} s simulated)`,
    );
    if (q.problems.length) out(`page errors: ${q.problems.join('; ')}`);
    out();
    const all = [...q.ms.theme, ...q.ms.type, ...q.ms.tab];
    verdict(
      'UI input → visible change during a long run',
      `median ${fixed(median(all), 0)} ms, p90 ${fixed(sorted(all)[Math.floor(all.length * 0.9)] ?? Number.NaN, 0)} ms, ` +
        `max ${fixed(max(all), 0)} ms over ${all.length} actions (${all.filter((x) => x >= INPUT_MS).length} at or over ${INPUT_MS} ms)`,
      `max < ${INPUT_MS} ms`,
      max(all) < INPUT_MS,
    );
    note(
      `UI frame pump during the long run: ${fixed(pump.frames / s, 1)} frames/s received from the worker, ` +
        `advance round trip median ${fixed(median(pump.advanceMs), 1)} ms (reported; no target)`,
    );
  }

  // ----------------------------------------------------------------------------- page vs CLI
  const pl = r.packetList;
  if (pl === undefined || isErr(pl))
    out(`9f. Packet list: ${pl === undefined ? 'not run' : `ERROR ${pl.error}`}`);
  else {
    out(
      `9f. Packet list in the page (issue 16), expanded, at 1280x800: \`iperf3 -c server -t 3 -P 2\` played at the top speed, ${pl.rowsHeld.toLocaleString('en-US')} rows held`,
    );
    out(
      table(
        ['measure', 'value'],
        [
          ...pl.filters.map((f) => [
            `filter ${f.filter === '' ? '(none)' : JSON.stringify(f.filter)}: Enter → its rows shown`,
            `${fixed(f.ms, 0)} ms (${f.status.split(' ·')[0]})`,
          ]),
          [
            `jump to a place in the list → its rows drawn (${pl.jumpsMs.length} jumps), median / p95`,
            `${fixed(median(pl.jumpsMs), 1)} / ${fixed(p95(pl.jumpsMs), 1)} ms`,
          ],
          [
            `continuous scroll, 3 rows a frame: frame interval median / p95`,
            `${fixed(median(pl.scroll.intervals), 1)} / ${fixed(p95(pl.scroll.intervals), 1)} ms`,
          ],
          ['frames showing a row still loading', `${pl.scroll.loadingFrames} of ${pl.scroll.frames}`],
          ['rows in the DOM at most', String(pl.scroll.maxRows)],
        ],
      ),
    );
    if (pl.problems.length) out(`page errors: ${pl.problems.join('; ')}`);
    out();
    const m = median(pl.scroll.intervals);
    verdict(
      'UI packet list, scrolling 1 M rows',
      `frame median ${fixed(m, 1)} ms, ${pl.scroll.loadingFrames}/${pl.scroll.frames} frames with a row loading`,
      `median ≤ ${FRAME_MS} ms`,
      m <= FRAME_MS,
    );
  }

  const pc = r.pageVsCli;
  if (pc === undefined || isErr(pc)) {
    out(`9e. Page vs CLI: ${pc === undefined ? 'not run' : `ERROR ${pc.error}`}`);
    note('UI page vs CLI: not measured');
  } else {
    const cli = pc.cliMs.reduce((a, b) => a + b, 0) / pc.cliMs.length;
    const ratio = pc.page.wallMs / cli;
    out(
      `9e. The same long run through \`npm run lab\` and in the page at the top speed (${pc.speedText ?? '?'}): \`${pc.command}\`, c7i.large pair (the default), wall time`,
    );
    out(
      table(
        ['measure', 'value'],
        [
          [
            'npm run lab (whole process), before / after the page run',
            pc.cliMs.map((x) => `${fixed(x / 1000, 2)} s`).join(' / '),
          ],
          [
            'page: Enter → run ended (prompt back, "iperf Done." shown)',
            `${fixed(pc.page.wallMs / 1000, 2)} s`,
          ],
          ['page ÷ CLI (mean of the two CLI runs)', `${fixed(ratio, 2)}×`],
          [
            'page: frames received / simulated seconds reached',
            `${pc.page.frames} / ${fixed(pc.page.simNs / 1e9, 1)} s`,
          ],
          [
            'page: worker computing (its own time ÷ wall), requests',
            `${pc.page.workerMs === undefined ? '?' : fixed((100 * pc.page.workerMs) / pc.page.wallMs, 0)} %, ${pc.page.advances}`,
          ],
          [
            'page: worker idle (no advance request out), largest stretch',
            pc.page.idle
              ? `${fixed(pc.page.idle.ms / 1000, 2)} s, ${pc.page.idle.largest[0]?.[1] ?? 0} ms`
              : '?',
          ],
          ['page: iperf3 finished ("iperf Done.")', pc.page.done ? 'yes' : 'NO'],
          ...(pc.runUntil
            ? ([
                [
                  'page, paused, "Run until" 600.5 s: Go → clock there (÷ CLI)',
                  `${fixed(pc.runUntil.wallMs / 1000, 2)} s (${fixed(pc.runUntil.wallMs / cli, 2)}×)`,
                ],
                [
                  'the same: worker computing, idle (no request out), requests',
                  `${fixed((100 * pc.runUntil.workerMs) / pc.runUntil.wallMs, 0)} %, ${fixed(pc.runUntil.idleMs / 1000, 2)} s, ${pc.runUntil.advances}`,
                ],
              ] as Array<[string, string]>)
            : []),
        ],
      ),
    );
    if (pc.problems.length) out(`page errors: ${pc.problems.join('; ')}`);
    out();
    verdict(
      'UI page vs CLI, 600 s run at the top speed',
      `${fixed(ratio, 2)}× (page ${fixed(pc.page.wallMs / 1000, 1)} s, CLI ${fixed(cli / 1000, 1)} s)`,
      `≤ ${PAGE_VS_CLI}×`,
      ratio <= PAGE_VS_CLI && pc.page.done,
    );
  }
}
