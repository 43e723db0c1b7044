/**
 * The charts panel: every chart on one time axis (zoom from 1 µs to the whole run with the wheel,
 * the buttons or + − on a focused chart; double-click or 0 follows the clock again) and one linked
 * cursor (hover, click to pin, ← → on a focused chart) kept in the store, so the path view can
 * show it too. Series come from the worker's counter samples and, for latency percentiles and
 * drops by reason, from the engine through the worker API (`chartSeries`), re-asked when the
 * window changes and a few times a second while the clock runs.
 *
 * Exports (hidden in embed mode): CSV, JSON and PNG of each chart, iperf3's -J document of each
 * run, in ./export.ts.
 *
 * `only` (an embedded lab's `chart` panel): that one chart, compact (no help line, no sample
 * note), its source under it, and until it has data a line saying what will fill it instead of
 * empty axes.
 */
import { scaleLinear } from 'd3-scale';
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ChartSeries, LadderSeries } from '../../protocol/sim-api';
import { PRESETS, viewOf } from '../../scenario/presets';
import type { LabController } from '../../sim-client/lab-controller';
import { type AppStore, fastForwarding } from '../../state/app-store';
import { useApp, useAppStore, useLab } from '../context';
import { CommandChips, useSuggestedCommands } from '../suggested-commands';
import { type ExportKind, MARGIN, MemoChart } from './chart';
import { buildCharts, CW_STATISTICS, type ChartDef, type CwStatistic } from './chart-defs';
import { chartCsv, chartJson, chartPng, download, fileName, hasIperfJson, iperfJson } from './export';
import { LadderChart } from './ladder';
import { buildLadder } from './ladder-data';
import { formatInstant, formatSpan, MIN_SPAN_NS, zoomRange } from './time-axis';
import './charts.css';

/** The ladder's place in the charts' order (after the rate chart) and its line in the sources list. */
const LADDER_DEF: ChartDef = {
  id: 'ladder',
  title: 'The averaging ladder',
  unit: 'Gbit/s',
  lines: [],
  source:
    "The client's bytes out around one instant: at 10 µs and 1 ms as the model's ENA counts them (the last 655 ms and 16 s are kept), in whole seconds (what an iperf3 interval averages), and CloudWatch's NetworkOut datapoints with the chosen statistic (the numbers aws cloudwatch prints). The instant is the charts' cursor, else the busiest 10 µs of the last half second the client sent (its last burst).",
};

/** The charts with the ladder after the first (the rate chart). */
function withLadder(defs: ChartDef[]): ChartDef[] {
  return [...defs.slice(0, 1), LADDER_DEF, ...defs.slice(1)];
}

/** How often the engine series are re-asked while the clock runs (wall ms). */
const ENGINE_REFRESH_MS = 250;
/**
 * The same while the model cannot keep up or runs to an instant or a condition (a fast-forward):
 * each answer takes the worker from the run (a window of a minute at 800 px merges 800 latency
 * histograms), so it is asked once a second. ("Run until 600.5 s" asked the charts and the ladder
 * 400 times, 4 a second, each costing the worker tens of ms.)
 */
const ENGINE_REFRESH_LAGGING_MS = 1000;
/** How often the charts redraw at most while frames stream in (wall ms). */
const REDRAW_MS = 200;
/** Charts mounted per task when the panel opens (each step its own task: no long one blocks input). */
const MOUNT_STEP = 2;
/**
 * Narrowest window the charts show while following the clock: [0, 10 ms] until the clock passes
 * it, then [0, now]. At auto speed (tens of µs to a few ms a second) a run's first milliseconds
 * fill the axis, not the left 0.3 % of a 1-second window.
 */
export const MIN_FOLLOW_NS = 10e6;
/** Charts drawn from the engine's series (redrawn when a new answer arrives). */
const ENGINE_CHARTS = new Set(['latency', 'drops']);

/**
 * The least chart width (px): a phone in the larger-text mode (390 px zoomed 1.3) has about 260 px
 * in the panel; 300 drew the plots and the ladder past its right edge, cut.
 */
const MIN_CHART_W = 240;

/** The panel's width, and the height of the region it scrolls in (0 when the page scrolls it). */
function useSize(): [React.RefObject<HTMLElement | null>, number, number] {
  const ref = useRef<HTMLElement>(null);
  const [w, setW] = useState(800);
  const [h, setH] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const box = scroller(el);
    const ro = new ResizeObserver(() => {
      setW(Math.max(MIN_CHART_W, Math.floor(el.clientWidth - 24)));
      setH(box ? box.clientHeight : 0);
    });
    ro.observe(el);
    if (box) ro.observe(box);
    return () => ro.disconnect();
  }, []);
  return [ref, w, h];
}

/** The region the panel scrolls in: its tab panel, or the stage's charts column; null when the page scrolls. */
function scroller(el: HTMLElement): HTMLElement | null {
  const box = el.closest<HTMLElement>('.tabpanel, .stage-charts');
  if (!box || typeof getComputedStyle !== 'function') return null;
  return getComputedStyle(box).overflowY === 'visible' ? null : box;
}

/**
 * The rate chart's plot height: on the stage, what the charts region leaves below the panel's head
 * and the chart's legend (`abovePx`, measured: they wrap onto more lines in a narrow or zoomed
 * region) and the time axis under it, so the rate is read without scrolling, within readable bounds.
 */
export function rateChartHeight(regionH: number, abovePx = 130): number {
  if (regionH <= 0) return 150;
  return Math.round(Math.min(320, Math.max(RATE_MIN_H, regionH - abovePx - RATE_BELOW)));
}
/** The rate chart's least plot height, and what its time axis and the region's padding take under it (px). */
const RATE_MIN_H = 90;
const RATE_BELOW = 30;
/** The most of the stage's height the charts row takes to hold the rate chart whole (the terminal keeps the rest). */
const RATE_ROW_MAX = 0.6;

/** How far below the top of its scrolling region the rate chart's plot starts (CSS px of the region's content). */
function plotOffset(root: HTMLElement | null): number | null {
  const box = root ? scroller(root) : null;
  const plot = root?.querySelector<HTMLElement>('[data-chart="rate"] .chart-plot');
  if (!box || !plot || box.offsetHeight === 0) return null;
  // (getBoundingClientRect may be in zoomed pixels under the larger-text mode; offsetHeight is not)
  const k = box.getBoundingClientRect().height / box.offsetHeight || 1;
  return (plot.getBoundingClientRect().top - box.getBoundingClientRect().top) / k + box.scrollTop;
}

/**
 * The engine's series for the window: asked again when the window moves, and at most every
 * ENGINE_REFRESH_MS while frames arrive; one request at a time, the latest window wins.
 */
function useEngineSeries(
  lab: LabController,
  fromNs: number,
  toNs: number,
  nowNs: number,
  px: number,
  version: number,
  /** The window's end is the clock (no zoom): a later end alone is a refresh, throttled. */
  follows: boolean,
  lagging: boolean,
): ChartSeries | null {
  const [series, setSeries] = useState<ChartSeries | null>(null);
  const [tick, setTick] = useState(0);
  const st = useRef({ busy: false, dirty: false, key: '', at: -Infinity, timer: 0 as unknown });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` and `tick` are the refresh signals
  useEffect(() => {
    const s = st.current;
    const to = Math.min(toNs, Math.max(nowNs, fromNs + 1));
    const stepNs = Math.max(1e6, (toNs - fromNs) / Math.max(50, px));
    const key = `${fromNs}|${follows ? 'now' : toNs}|${px}`;
    if (s.busy) {
      s.dirty = true;
      return;
    }
    const wait = s.at + (lagging ? ENGINE_REFRESH_LAGGING_MS : ENGINE_REFRESH_MS) - performance.now();
    if (key === s.key && wait > 0) {
      if (!s.timer)
        s.timer = setTimeout(() => {
          s.timer = 0;
          setTick((t) => t + 1);
        }, wait);
      return;
    }
    s.busy = true;
    s.key = key;
    s.at = performance.now();
    void lab
      .chartSeries({ fromNs, toNs: to, stepNs })
      .then((r) => {
        if (r) setSeries(r);
      })
      .finally(() => {
        s.busy = false;
        if (s.dirty) {
          s.dirty = false;
          setTick((t) => t + 1);
        }
      });
  }, [lab, fromNs, toNs, px, version, tick, follows, lagging]);
  useEffect(() => () => clearTimeout(st.current.timer as number), []);
  return series;
}

/**
 * The ladder's 10 µs and 1 ms strips from the worker, around the cursor when there is one (else the
 * worker's choice: the burst under way or the last one), asked again as the clock runs (at most
 * every ENGINE_REFRESH_MS) and when the cursor moves; one request at a time, the latest wins.
 */
function useLadderSeries(
  lab: LabController,
  cursorNs: number | null,
  version: number,
  lagging: boolean,
): LadderSeries | null {
  const [series, setSeries] = useState<LadderSeries | null>(null);
  const [tick, setTick] = useState(0);
  const st = useRef({ busy: false, dirty: false, at: -Infinity, timer: 0 as unknown });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` and `tick` are the refresh signals
  useEffect(() => {
    const s = st.current;
    if (!lab.ladderSeries) return;
    if (s.busy) {
      s.dirty = true;
      return;
    }
    const wait = s.at + (lagging ? ENGINE_REFRESH_LAGGING_MS : ENGINE_REFRESH_MS) - performance.now();
    if (wait > 0) {
      if (!s.timer)
        s.timer = setTimeout(() => {
          s.timer = 0;
          setTick((t) => t + 1);
        }, wait);
      return;
    }
    s.busy = true;
    s.at = performance.now();
    void lab
      .ladderSeries({ host: 0, atNs: cursorNs })
      .then((r) => {
        if (r) setSeries(r);
      })
      .finally(() => {
        s.busy = false;
        if (s.dirty) {
          s.dirty = false;
          setTick((t) => t + 1);
        }
      });
  }, [lab, cursorNs, version, tick, lagging]);
  useEffect(() => () => clearTimeout(st.current.timer as number), []);
  return series;
}

/**
 * The series buffer's version, at most every `ms` while frames stream in (the last change always
 * lands): charts redraw five times a second while the clock runs instead of on every animation
 * frame, which keeps the main thread free for the path view and the frame pump.
 */
function useThrottledVersion(store: AppStore, ms: number): number {
  const [v, setV] = useState(() => store.getState().results.seriesVersion);
  useEffect(() => {
    let last = Number.NEGATIVE_INFINITY;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      last = performance.now();
      setV(store.getState().results.seriesVersion);
    };
    const unsubscribe = store.subscribe((s, p) => {
      if (s.results.seriesVersion === p.results.seriesVersion) return;
      const wait = last + ms - performance.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store, ms]);
  return v;
}

/**
 * The ids (data-chart) of the charts inside `root` that are in the viewport or within a screen of
 * it (the scrolling tab panel, or the page), by IntersectionObserver; null (every chart counts as in view) until it has answered or where
 * there is none. Observes again when `key` changes (more charts mounted).
 */
function useInView(root: React.RefObject<HTMLElement | null>, key: unknown): Set<string> | null {
  const [ids, setIds] = useState<Set<string> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the re-observe signal
  useEffect(() => {
    const el = root.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const seen = new Map<string, boolean>();
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const id = (e.target as HTMLElement).dataset.chart;
          if (id) seen.set(id, e.isIntersecting);
        }
        setIds(new Set([...seen].filter(([, v]) => v).map(([k]) => k)));
      },
      // the charts region scrolls (in embed mode the page does): half a screen above and below counts
      { root: scroller(el), rootMargin: '50% 0px' },
    );
    for (const f of el.querySelectorAll<HTMLElement>('[data-chart]')) io.observe(f);
    return () => io.disconnect();
  }, [root, key]);
  return ids;
}

export function ChartsPanel({ only }: { only?: string } = {}) {
  const store = useAppStore();
  const lab = useLab();
  const version = useThrottledVersion(store, REDRAW_MS);
  const cols = useApp((s) => s.scenario.sampleColumns);
  const instances = useApp((s) => s.scenario.instances);
  const wallClockStartMs = useApp((s) => s.scenario.wallClockStartMs);
  const runs = useApp((s) => s.results.runs);
  // read at each (throttled) redraw, not subscribed: the clock moves every frame
  const nowNs = store.getState().playback.nowNs;
  const zoom = useApp((s) => s.selection.zoom);
  const cursor = useApp((s) => s.selection.cursorNs);
  const embed = useApp((s) => s.env.embed);
  const [ref, panelWidth, regionH] = useSize();
  // what the charts' head and the rate chart's legend take above its plot (measured when what wraps changes)
  const [rateTop, setRateTop] = useState(130);
  // the path picture on this time axis: its window and current instant (read at each redraw)
  const pathFrame = store.pathFrame;
  const pathNowNs = pathFrame ? pathFrame.toNs : null;
  const pathWindow = pathFrame ? ([pathFrame.fromNs, pathFrame.toNs] as const) : null;
  const [pinned, setPinned] = useState(false);
  const [cwStatistic, setCwStatistic] = useState<CwStatistic>('Sum');
  const width = Math.max(MIN_CHART_W, panelWidth);
  const maxNs = Math.max(nowNs, MIN_FOLLOW_NS);
  const from = zoom ? zoom[0] : 0;
  const to = zoom ? zoom[1] : maxNs;
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([from, to])
        .range([MARGIN.l, width - MARGIN.r]),
    [from, to, width],
  );
  const px = Math.max(50, Math.floor(width - MARGIN.l - MARGIN.r));
  const lagging = useApp(fastForwarding);
  const engine = useEngineSeries(lab, from, to, nowNs, px, version, zoom === null, lagging);
  const ladderFine = useLadderSeries(lab, cursor, version, lagging);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the series buffer's change signal
  const all = useMemo(
    () =>
      withLadder(
        buildCharts({
          series: store.series,
          queues: store.queues,
          cols,
          instances,
          runs,
          engine,
          fromNs: from,
          toNs: to,
          px,
          cwStatistic,
          wallClockStartMs,
        }),
      ),
    [version, from, to, px, cols, instances, runs, engine, cwStatistic, wallClockStartMs],
  );
  const charts = useMemo(() => (only ? all.filter((d) => d.id === only) : all), [all, only]);
  const rateLegend = useMemo(() => {
    const rate = charts.find((d) => d.id === 'rate');
    return rate ? rate.lines.filter((l) => l.segs.some((g) => Number.isFinite(g.y))).length : 0;
  }, [charts]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the series buffer's change signal
  const ladder = useMemo(
    () =>
      buildLadder({
        series: store.series,
        cols,
        fine: ladderFine,
        statistic: cwStatistic,
        wallClockStartMs,
        cursorNs: cursor,
      }),
    [version, cols, ladderFine, cwStatistic, wallClockStartMs, cursor],
  );

  const setSel = (p: Partial<{ cursorNs: number | null; zoom: [number, number] | null }>) =>
    store.setState((s) => ({ selection: { ...s.selection, ...p } }));
  const zoomBy = (factor: number, atNs: number) =>
    setSel({ zoom: zoomRange([from, to], atNs, factor, maxNs) });
  const onCursor = (t: number | null, pin?: boolean) => {
    if (pin !== undefined) setPinned(pin && t !== null);
    else if (pinned) return; // hover does not move a pinned cursor
    if (t !== null && pin === true && (t < from || t > to)) {
      // keys walked the cursor out of the window: the window follows it
      const span = to - from;
      const a = Math.max(0, Math.min(t - span / 2, maxNs - span));
      setSel({ cursorNs: t, zoom: [a, a + span] });
      return;
    }
    setSel({ cursorNs: t === null ? null : Math.round(t) });
  };

  const onExport = (def: ChartDef, kind: ExportKind, svg: SVGSVGElement) => {
    const name = (ext: string) => fileName(def.title, nowNs, ext);
    if (kind === 'csv') download(chartCsv(def, from, to), name('csv'), 'text/csv');
    else if (kind === 'json') download(chartJson(def, from, to), name('json'), 'application/json');
    else {
      const cs = getComputedStyle(svg);
      const panel = getComputedStyle(svg.closest('.panel') ?? svg);
      void chartPng(
        svg,
        `${def.title} (${def.unit})`,
        `ec2-netlab, simulated time ${formatInstant(from, to - from)} – ${formatInstant(to, to - from)}`,
        def.lines.filter((l) => l.segs.some((s) => Number.isFinite(s.y))),
        {
          bg: opaque(panel.backgroundColor) ?? '#ffffff',
          fg: cs.color || '#1b1f24',
          muted: cs.getPropertyValue('--muted').trim() || '#5b6470',
          font: cs.fontFamily || 'sans-serif',
        },
      )
        .then((b) => download(b, name('png')))
        .catch((e: unknown) =>
          store.setState((s) => ({
            env: { ...s.env, notice: `PNG export failed: ${(e as Error).message}`, noticeLink: null },
          })),
        );
    }
  };

  // stable callbacks that read the latest state (the memoised charts keep the first ones they got)
  const latest = useRef({ onCursor, zoomBy, onExport, reset: () => setSel({ zoom: null }) });
  latest.current = { onCursor, zoomBy, onExport, reset: () => setSel({ zoom: null }) };
  const stable = useMemo(
    () => ({
      onCursor: (t: number | null, pin?: boolean) => latest.current.onCursor(t, pin),
      onZoom: (factor: number, atNs: number) => latest.current.zoomBy(factor, atNs),
      onReset: () => latest.current.reset(),
      onExport: (k: ExportKind, svg: SVGSVGElement, def: ChartDef) => latest.current.onExport(def, k, svg),
    }),
    [],
  );

  // open a few charts at a time, each step in its own task (a placeholder holds each one's place)
  const [mounted, setMounted] = useState(MOUNT_STEP);
  useEffect(() => {
    if (mounted >= charts.length) return;
    const t = setTimeout(() => setMounted((m) => m + MOUNT_STEP), 0);
    return () => clearTimeout(t);
  }, [mounted, charts.length]);

  // a preset or lesson opens on the view that makes its point: its chart brought to the top of the
  // charts region (when it scrolls: the page itself is not moved), its time window if it has one
  const presetId = useApp((s) => s.scenario.presetId);
  const [focusChart, setFocusChart] = useState<string | null>(null);
  // (at the first mount too, but a shared link keeps the window it carries)
  const pendingView = useRef<string | null>(presetId === 'link' ? null : presetId);
  const firstView = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: applied once per preset; `mounted` retries until its chart is there
  useEffect(() => {
    const id = pendingView.current;
    // an embedded lab opens on the view its embed code chose
    if (id === null || embed || only) return;
    const view = viewOf(id);
    const root = ref.current;
    const target = root?.querySelector<HTMLElement>(`[data-chart="${view.chart}"]`);
    if (!root || !target) return; // not mounted yet: the next mount step tries again
    pendingView.current = null;
    const keep = firstView.current && !view.windowS;
    firstView.current = false;
    if (!keep)
      store.setState((s) => ({
        selection: {
          ...s.selection,
          zoom: view.windowS ? [view.windowS[0] * 1e9, view.windowS[1] * 1e9] : null,
        },
      }));
    setFocusChart(view.chart === 'rate' ? null : view.chart);
    const box = scroller(root);
    // (the rate chart is the first: the region's top, with the charts' head and time controls)
    if (box)
      box.scrollTop =
        view.chart === 'rate'
          ? 0
          : target.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop - 4;
    // a narrow screen, where the page scrolls the charts below the path and the terminal: a preset
    // the user has just chosen, with a view of its own, has its chart brought into the window (the
    // picker keeps the focus; smoothly unless the user asks for less motion). Not at the page's
    // first load, nor for a lesson (its panel is brought into view instead: lessons-panel.tsx).
    const chosen = store.getState().view.revealPreset === id;
    if (chosen) store.setState((s) => ({ view: { ...s.view, revealPreset: null } }));
    // (the rate chart with the charts' head above it, which names the window: "0.0 s – 10 min")
    const reveal = view.chart === 'rate' ? root : target;
    if (!box && chosen && PRESETS.find((p) => p.id === id)?.view && reveal.scrollIntoView) {
      const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
      reveal.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
    }
  }, [presetId, mounted]);
  // nothing run yet in this experiment: its commands as chips beside the chart it opens on (on a
  // phone the picker scrolls there, far below the terminal and its chips), or at the top
  const suggested = useSuggestedCommands();
  const chipsAfter = only || suggested.length === 0 ? null : viewOf(presetId).chart;
  const chips =
    chipsAfter === null ? null : (
      <CommandChips
        commands={suggested}
        lead="Run this experiment:"
        className="charts-suggest"
        testId="charts-suggestions"
      />
    );
  const last = useRef(presetId);
  if (last.current !== presetId) {
    last.current = presetId;
    pendingView.current = presetId;
  }

  // charts scrolled out of view keep what they last drew: only those in view (or near) redraw
  // while the clock runs; one scrolled into view redraws at once with the latest series
  // `only`: a chart with nothing to draw is a line of text until it has data
  const emptyOnly = only
    ? charts
        .filter((def) =>
          def.id === 'ladder'
            ? !ladder?.strips.some((s) => s.peak !== null && s.peak.value > 0)
            : !def.lines.some((l) => l.segs.some((s) => Number.isFinite(s.y))),
        )
        .map((def) => def.id)
    : [];
  // observed again when a chart's element is replaced (mounted, or its empty line swapped for it)
  const inView = useInView(ref, `${mounted}|${emptyOnly.join(',')}`);
  const drawn = useRef(
    new Map<string, { def: ChartDef; x: typeof x; sig: unknown; cursor: number | null }>(),
  );
  const propsOf = (def: ChartDef) => {
    const sig = ENGINE_CHARTS.has(def.id)
      ? engine
      : def.id === 'rate'
        ? `${version}|${runs.length}`
        : def.id === 'cloudwatch'
          ? `${version}|${cwStatistic}`
          : version;
    const last = drawn.current.get(def.id);
    // out of view a chart keeps its drawing while the clock runs; a cursor set elsewhere redraws it
    // on today's axis (on the stale one the instant may lie outside it, and no cursor would show)
    if (last && inView && !inView.has(def.id) && last.x.range()[1] === x.range()[1] && last.cursor === cursor)
      return last;
    const cur = { def, x, sig, cursor };
    drawn.current.set(def.id, cur);
    return cur;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: these change what wraps above the rate chart's plot
  useLayoutEffect(() => {
    const top = plotOffset(ref.current);
    if (top === null) return;
    if (Math.abs(top - rateTop) > 2) setRateTop(Math.round(top));
    // the stage's charts row is at least what the rate chart needs whole: its head and legend (more
    // lines in a narrow or zoomed region: the larger-text mode at 1280×800 wrapped them onto six,
    // and 42 % of the stage then cut the plot) and its least plot, up to RATE_ROW_MAX of the stage
    const bench = ref.current?.closest<HTMLElement>('.workbench');
    if (bench && !only) {
      const need = Math.min(top + RATE_MIN_H + RATE_BELOW, bench.clientHeight * RATE_ROW_MAX);
      bench.style.setProperty('--rate-need', `${Math.ceil(need)}px`);
    }
  }, [regionH, width, rateLegend, cursor !== null, zoom !== null, mounted, focusChart, chipsAfter]);

  const span = to - from;
  return (
    <section
      className={only ? 'panel charts one-chart' : 'panel charts'}
      aria-label={only ? 'Chart' : 'Charts'}
      ref={ref}
      data-view-focus={focusChart ?? undefined}
    >
      <div className="panel-head charts-head">
        <h2 className={only ? 'visually-hidden' : undefined}>{only ? 'Chart' : 'Charts'}</h2>
        <fieldset className="charts-zoom">
          <legend className="visually-hidden">Time axis</legend>
          <button
            type="button"
            className="small"
            onClick={() => zoomBy(0.5, cursor ?? (from + to) / 2)}
            disabled={span <= MIN_SPAN_NS}
          >
            Zoom in
          </button>
          <button
            type="button"
            className="small"
            onClick={() => zoomBy(2, cursor ?? (from + to) / 2)}
            disabled={!zoom}
          >
            Zoom out
          </button>
          <button type="button" className="small" onClick={() => setSel({ zoom: null })} disabled={!zoom}>
            Show all
          </button>
        </fieldset>
        <span className="muted charts-window" data-testid="charts-window">
          {formatInstant(from, span)} – {formatInstant(to, span)} ({formatSpan(span)}
          {zoom ? '' : ', following the clock'})
          {cursor !== null ? ` · cursor ${formatInstant(cursor, span)}${pinned ? ' (pinned)' : ''}` : ''}
        </span>
        {only && only !== 'cloudwatch' && only !== 'ladder' ? null : (
          <label className="charts-cw-stat">
            CloudWatch statistic{' '}
            <select
              aria-label="CloudWatch statistic"
              value={cwStatistic}
              onChange={(e) => setCwStatistic(e.target.value as CwStatistic)}
            >
              {CW_STATISTICS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {chipsAfter === 'rate' ? chips : null}
      {charts.map((def, i) => (
        <Fragment key={def.id}>
          {emptyOnly.includes(def.id) ? (
            <EmptyChart def={def} />
          ) : i >= mounted ? (
            <div className="chart-pending" aria-hidden="true" />
          ) : def.id === 'ladder' ? (
            <LadderChart ladder={ladder} width={width} regionH={regionH} />
          ) : (
            <MemoChart
              {...propsOf(def)}
              width={width}
              height={def.id === 'rate' ? rateChartHeight(regionH, rateTop) : undefined}
              pathNowNs={pathNowNs}
              pathWindow={pathWindow}
              cursorNs={cursor}
              onCursor={stable.onCursor}
              onZoom={stable.onZoom}
              onReset={stable.onReset}
              onExport={embed ? undefined : stable.onExport}
            />
          )}
          {chipsAfter === def.id && def.id !== 'rate' ? chips : null}
        </Fragment>
      ))}
      {only ? null : (
        <p className="muted charts-help">
          Wheel or + − to zoom, double-click or 0 to see everything; hover for the cursor, click to pin it, ←
          → to move it (focus a chart). The shaded band and the solid line are the path picture's window and
          its current instant.
        </p>
      )}
      {!embed ? <RunExports /> : null}
      {only ? (
        <details className="muted note chart-about">
          <summary>What this chart shows</summary>
          {charts.map((d) => (
            <p key={d.id}>{d.source}</p>
          ))}
        </details>
      ) : (
        <ul className="muted note chart-sources">
          {charts.map((d) => (
            <li key={d.id}>
              <b>{d.title}:</b> {d.source}
            </li>
          ))}
        </ul>
      )}
      {only ? null : (
        <p className="muted note">
          The counters are sampled every millisecond while commands run (coarser in fast-forward): zoomed
          below that, a line is the millisecond's mean. {store.series.length.toLocaleString('en-US')} samples
          kept
          {engine ? `; latency and drops in ${formatSpan(engine.stepNs)} steps` : ''}.
        </p>
      )}
    </section>
  );
}

/** A chart with nothing to draw yet: its title and what will fill it, in the space the chart takes. */
function EmptyChart({ def }: { def: ChartDef }) {
  return (
    <figure className="chart chart-empty" data-chart={def.id} data-empty="1">
      <figcaption>
        <span className="chart-title">
          {def.title} <span className="chart-unit">({def.unit})</span>
        </span>
      </figcaption>
      <p className="chart-empty-note muted">
        Nothing to draw yet in this window: it fills in as traffic runs (run a command).
      </p>
    </figure>
  );
}

/** iperf3's -J document of each run done in the terminal, newest first. */
function RunExports() {
  const runs = useApp((s) => s.results.runs);
  const iperf = runs.filter(hasIperfJson);
  if (iperf.length === 0) return null;
  return (
    <details className="run-exports" open>
      <summary>iperf3 runs ({iperf.length})</summary>
      <ul>
        {[...iperf].reverse().map((r, i) => (
          <li key={`${r.startNs}|${r.host}|${r.command}`}>
            <code>{r.command}</code>{' '}
            <span className="muted">
              on {r.host}, at {formatInstant(r.startNs, 1e9)}
            </span>{' '}
            <button
              type="button"
              className="small"
              aria-label={`Download iperf3 JSON: ${r.command} at ${formatInstant(r.startNs, 1e9)}`}
              onClick={() =>
                download(
                  iperfJson(r),
                  fileName(`iperf3-run-${iperf.length - i}`, r.startNs, 'json'),
                  'application/json',
                )
              }
            >
              Download iperf3 JSON
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A CSS colour unless fully transparent. */
function opaque(c: string): string | null {
  return !c || c === 'transparent' || /rgba\(.*,\s*0\)$/.test(c) ? null : c;
}
