/**
 * <Chart>: one chart of the charts panel, SVG rendered by React with D3 scales and line
 * generators. Presentational: the time window, cursor and series come in as props; pointer,
 * wheel and keys go out as callbacks (cursor, zoom, pan, reset, export).
 *
 * Keys on a focused chart: ← → move the cursor (Shift: 10× further), + − zoom about the cursor,
 * 0 shows everything (follows the clock), Escape clears the cursor.
 */
import { type ScaleLinear, scaleLinear } from 'd3-scale';
import { type KeyboardEvent, memo, type MouseEvent, useEffect, useRef } from 'react';
import { type ChartDef, lineValueAt, type Seg } from './chart-defs';
import { formatInstant, timeTicks } from './time-axis';

export const CHART_H = 128;
export const MARGIN = { l: 56, r: 14, t: 16, b: 4 };
const AXIS_H = 20;

export type ExportKind = 'csv' | 'json' | 'png';

export interface ChartProps {
  def: ChartDef;
  x: ScaleLinear<number, number>;
  width: number;
  cursorNs: number | null;
  /** Pointer or keys moved the cursor (null: cleared); `pin` when clicked. */
  onCursor: (t: number | null, pin?: boolean) => void;
  /** Zoom by `factor` (< 1: in) about `atNs`. */
  onZoom: (factor: number, atNs: number) => void;
  onReset: () => void;
  /** Export buttons are shown when given. */
  onExport?: (kind: ExportKind, svg: SVGSVGElement, def: ChartDef) => void;
  /** Plot height in px (default CHART_H). */
  height?: number;
  /** The path's current instant (a solid line) and the window its picture shows (a band): one clock. */
  pathNowNs?: number | null;
  pathWindow?: readonly [number, number] | null;
  /**
   * What the series were built from (the series version, the engine answer): with the window,
   * width and cursor, the only things a redraw depends on (see MemoChart).
   */
  sig?: unknown;
}

/**
 * Format a value for a tick or read-out: 3 significant digits, no exponent for everyday sizes;
 * millions and up with an SI prefix (7.4 G bytes fits the axis, 7,400,000,000 does not).
 */
export function fmtValue(v: number): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a === 0) return '0';
  for (const [f, p] of [
    [1e12, 'T'],
    [1e9, 'G'],
    [1e6, 'M'],
  ] as const)
    if (a >= f) return `${Number((v / f).toPrecision(3))} ${p}`;
  if (a >= 1e4) return Math.round(v).toLocaleString('en-US');
  return Number(v.toPrecision(3)).toString();
}

/**
 * An SVG path through a line's segments: a step segment is a horizontal run (H), a point joins the
 * previous one, a non-finite value or a gap after a step breaks the line. Coordinates at 0.1 px (strings stay short; the
 * charts redraw several times a second).
 */
export function segmentsPath(
  segs: readonly Seg[],
  d0: number,
  d1: number,
  px: (t: number) => number,
  py: (v: number) => number,
): string {
  let d = '';
  let open = false;
  /** End of the previous step segment (a later step starting after it leaves a gap: no join). */
  let stepEnd = Number.NaN;
  const r = (v: number) => Math.round(v * 10) / 10;
  for (const s of segs) {
    if (s.x1 < d0 || s.x0 > d1) continue;
    if (!Number.isFinite(s.y)) {
      open = false;
      continue;
    }
    const step = s.x1 > s.x0;
    if (step && s.x0 > stepEnd) open = false; // e.g. two iperf3 runs with idle time between
    const yy = r(py(s.y));
    d += `${open ? 'L' : 'M'}${r(px(s.x0))},${yy}`;
    if (step) d += `H${r(px(s.x1))}`;
    stepEnd = step ? s.x1 : Number.NaN;
    open = true;
  }
  return d;
}

/**
 * What empty axes say, by chart (two short lines): why there is nothing to draw in the window. A
 * CloudWatch chart is empty while a run is going until a minute is over; drops and allowances stay
 * empty when nothing is dropped.
 */
export function emptyHint(id: string): readonly [string, string] {
  switch (id) {
    case 'cloudwatch':
      return ['No datapoint in this window yet:', 'CloudWatch publishes one when its minute is over.'];
    case 'latency':
      return ['No packet received in this window:', 'run a command that sends some.'];
    case 'drops':
      return ['No drop in this window:', 'a queue that overflows shows here, by reason.'];
    case 'allowances':
      return ['No allowance exceeded in this window:', 'ethtool -S counters that rise show here.'];
    default:
      return ['Nothing in this window yet:', 'it fills in as traffic runs (run a command).'];
  }
}

/** A generous advance of the hint's 13 px sans-serif characters (px): its lines wrap to the plot at it. */
const HINT_CHAR_PX = 7.2;

/**
 * The empty-chart hint's lines, each broken between words to fit a plot `plotW` px wide: a phone's
 * plot is about 280 px, and "CloudWatch publishes one when its minute is over." ran past both its
 * edges (over the value axis, cut at the right).
 */
export function hintLines(lines: readonly string[], plotW: number): string[] {
  const max = Math.max(12, Math.floor((plotW - 16) / HINT_CHAR_PX));
  const out: string[] = [];
  for (const line of lines) {
    let cur = '';
    for (const word of line.split(' ')) {
      if (cur !== '' && cur.length + 1 + word.length > max) {
        out.push(cur);
        cur = word;
      } else cur = cur === '' ? word : `${cur} ${word}`;
    }
    if (cur !== '') out.push(cur);
  }
  return out;
}

export function Chart(props: ChartProps) {
  const { def, x, width, cursorNs } = props;
  const plotH = props.height ?? CHART_H;
  const svgRef = useRef<SVGSVGElement>(null);
  const plotRef = useRef<HTMLDivElement>(null);
  const [d0, d1] = x.domain() as [number, number];
  const span = d1 - d0;

  let yMax = 0;
  for (const l of def.lines)
    for (const s of l.segs) if (s.x1 >= d0 && s.x0 <= d1 && Number.isFinite(s.y) && s.y > yMax) yMax = s.y;
  const y = scaleLinear()
    .domain([0, yMax > 0 ? yMax * 1.08 : 1])
    .nice(4)
    .range([plotH - MARGIN.b, MARGIN.t]);
  const clampX = (t: number) => x(Math.max(d0, Math.min(d1, t)));
  const paths = def.lines.map((l) => segmentsPath(l.segs, d0, d1, clampX, y));
  const present = def.lines.filter((l) => l.segs.some((s) => Number.isFinite(s.y)));
  const yTicks = y.ticks(4);
  // ticks on round values of their unit, from the axis origin (far from 0 at fine zoom: "+500 ns", not "+492 ns")
  const xTicks = timeTicks(d0, d1, Math.floor(width / 110));

  // wheel zoom needs a non-passive listener (React's are passive): the page must not scroll meanwhile
  const zoomRef = useRef(props.onZoom);
  zoomRef.current = props.onZoom;
  useEffect(() => {
    const el = plotRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      zoomRef.current(e.deltaY > 0 ? 1.25 : 0.8, x.invert(e.clientX - r.left));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [x]);

  const at = (e: MouseEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return x.invert(e.clientX - r.left);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const mid = (d0 + d1) / 2;
    const c = cursorNs ?? mid;
    const stepNs = span / (e.shiftKey ? 10 : 100);
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      props.onCursor(
        cursorNs === null ? mid : Math.max(0, c + (e.key === 'ArrowRight' ? stepNs : -stepNs)),
        true,
      );
    } else if (e.key === '+' || e.key === '=') props.onZoom(0.5, c);
    else if (e.key === '-' || e.key === '_') props.onZoom(2, c);
    else if (e.key === '0' || e.key === 'Home') props.onReset();
    else if (e.key === 'Escape') props.onCursor(null, false);
    else return;
    e.preventDefault();
  };

  const readout =
    cursorNs !== null
      ? present
          .map((l) => {
            const v = lineValueAt(l, cursorNs);
            return v === null ? null : `${l.label} ${fmtValue(v)} ${def.unit}`;
          })
          .filter(Boolean)
          .join('; ')
      : '';
  const cursorIn = cursorNs !== null && cursorNs >= d0 && cursorNs <= d1;

  return (
    <figure className="chart" data-chart={def.id}>
      <figcaption>
        <span className="chart-title">
          {def.title} <span className="chart-unit">({def.unit})</span>
        </span>
        {present.map((l) => {
          const v = cursorNs !== null ? lineValueAt(l, cursorNs) : null;
          return (
            <span key={l.label} className="legend">
              <svg width="22" height="8" aria-hidden="true">
                <line
                  x1="0"
                  x2="22"
                  y1="4"
                  y2="4"
                  stroke={l.colour}
                  strokeWidth={l.width ?? 2}
                  strokeDasharray={l.dash}
                />
              </svg>
              {l.label}
              {v !== null ? (
                <b className="legend-value">
                  {fmtValue(v)} {def.unit}
                </b>
              ) : null}
            </span>
          );
        })}
        {present.length === 0 ? <span className="muted">no data in this window</span> : null}
        {props.onExport ? (
          <span className="chart-export">
            <span className="muted">Export</span>
            {(['csv', 'json', 'png'] as const).map((k) => (
              <button
                key={k}
                type="button"
                className="small"
                aria-label={`Export ${k.toUpperCase()}: ${def.title}`}
                title={`Export ${k.toUpperCase()} of this chart (${k === 'png' ? 'as on screen' : 'the series in the window'})`}
                onClick={() => svgRef.current && props.onExport?.(k, svgRef.current, def)}
              >
                {k.toUpperCase()}
              </button>
            ))}
          </span>
        ) : null}
      </figcaption>
      <div
        ref={plotRef}
        className="chart-plot"
        // the chart's cursor is a position on the time axis: a slider, moved by pointer or keys
        role="slider"
        tabIndex={0}
        aria-label={`${def.title} (${def.unit}): cursor`}
        aria-valuemin={Math.round(d0)}
        aria-valuemax={Math.round(d1)}
        aria-valuenow={Math.round(cursorNs ?? d0)}
        aria-valuetext={
          cursorNs === null
            ? `no cursor; window ${formatInstant(d0, span)} to ${formatInstant(d1, span)}`
            : `${formatInstant(cursorNs, span)}${readout ? `: ${readout}` : ': no data'}`
        }
        aria-keyshortcuts="ArrowLeft ArrowRight + - 0 Escape"
        onPointerMove={(e) => props.onCursor(at(e))}
        onPointerLeave={() => props.onCursor(null)}
        onClick={(e) => props.onCursor(at(e), true)}
        onDoubleClick={props.onReset}
        onKeyDown={onKey}
      >
        <svg ref={svgRef} width={width} height={plotH + AXIS_H} aria-hidden="true">
          <text x={2} y={9} textAnchor="start" className="tick unit">
            {def.unit}
          </text>
          {yTicks.map((t) => (
            <g key={t}>
              <line x1={MARGIN.l} x2={width - MARGIN.r} y1={y(t)} y2={y(t)} className="grid" />
              <text x={MARGIN.l - 6} y={y(t)} dy="0.32em" textAnchor="end" className="tick">
                {fmtValue(t)}
              </text>
            </g>
          ))}
          <line x1={MARGIN.l} x2={width - MARGIN.r} y1={plotH} y2={plotH} className="axis" />
          {present.length === 0 ? (
            // empty axes say why, where the eye is (the caption's "no data" is what a screen reader reads)
            <text
              x={(MARGIN.l + width - MARGIN.r) / 2}
              y={(MARGIN.t + plotH) / 2}
              textAnchor="middle"
              className="chart-empty-hint"
            >
              {hintLines(emptyHint(def.id), width - MARGIN.l - MARGIN.r).map((line, i, all) => (
                <tspan
                  // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed sentence, in order
                  key={i}
                  x={(MARGIN.l + width - MARGIN.r) / 2}
                  // the lines centred on the plot's middle
                  dy={i === 0 ? `${(0.45 - 0.65 * (all.length - 1)).toFixed(2)}em` : '1.3em'}
                >
                  {line}
                </tspan>
              ))}
            </text>
          ) : null}
          {xTicks.map(({ ns: t, label }) => (
            <g key={t}>
              <line x1={x(t)} x2={x(t)} y1={plotH} y2={plotH + 4} className="axis" />
              <text
                x={x(t)}
                y={plotH + 15}
                textAnchor={x(t) > width - MARGIN.r - 24 ? 'end' : x(t) < MARGIN.l + 16 ? 'start' : 'middle'}
                className="tick"
              >
                {label}
              </text>
            </g>
          ))}
          {paths.map((d, i) => {
            const l = def.lines[i]!;
            return (
              <path
                key={l.label}
                d={d}
                fill="none"
                stroke={l.colour}
                strokeWidth={l.width ?? 1.5}
                strokeDasharray={l.dash}
                strokeLinejoin="round"
              />
            );
          })}
          <PathMarks
            x={x}
            top={MARGIN.t - 4}
            bottom={plotH}
            nowNs={props.pathNowNs ?? null}
            win={props.pathWindow ?? null}
          />
          {cursorIn ? (
            <g className="cursor-mark">
              <line x1={x(cursorNs!)} x2={x(cursorNs!)} y1={MARGIN.t - 4} y2={plotH} className="cursor" />
            </g>
          ) : null}
        </svg>
      </div>
    </figure>
  );
}

/**
 * Where the path picture is on this time axis: a band over the window it shows (at least 3 px wide,
 * so a millisecond stays visible on a minutes-wide axis) and a line at its current instant.
 */
export function PathMarks({
  x,
  top,
  bottom,
  nowNs,
  win,
}: {
  x: ScaleLinear<number, number>;
  top: number;
  bottom: number;
  nowNs: number | null;
  win: readonly [number, number] | null;
}) {
  const [d0, d1] = x.domain() as [number, number];
  let band: { x: number; w: number } | null = null;
  if (win && win[1] >= d0 && win[0] <= d1) {
    const b = x(Math.min(d1, win[1]));
    const w = Math.max(3, b - x(Math.max(d0, win[0])));
    band = { x: b - w, w }; // ends at the current instant
  }
  const nowIn = nowNs !== null && nowNs >= d0 && nowNs <= d1;
  if (!band && !nowIn) return null;
  return (
    <g className="path-mark" data-testid="path-mark">
      {band ? <rect x={band.x} y={top} width={band.w} height={bottom - top} className="path-window" /> : null}
      {nowIn ? <line x1={x(nowNs)} x2={x(nowNs)} y1={top} y2={bottom} className="path-now" /> : null}
    </g>
  );
}

/**
 * A chart that redraws only when its window, width, cursor or series source changed: the panel
 * rebuilds every chart's data when either source moves, but each SVG is redone only if its own
 * did. Callbacks must be stable (the panel passes functions that read its latest state).
 */
export const MemoChart = memo(
  Chart,
  (a, b) =>
    a.sig === b.sig &&
    a.x === b.x &&
    a.width === b.width &&
    a.cursorNs === b.cursorNs &&
    a.height === b.height &&
    a.pathNowNs === b.pathNowNs &&
    a.pathWindow?.[0] === b.pathWindow?.[0] &&
    a.pathWindow?.[1] === b.pathWindow?.[1] &&
    a.def.id === b.def.id &&
    (a.onExport === undefined) === (b.onExport === undefined),
);
