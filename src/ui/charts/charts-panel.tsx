/**
 * The charts: SVG rendered by React, D3 for the math (scales, line generators). One shared time
 * axis across all charts with zoom (wheel; double-click resets) and a linked cursor (pointer).
 * Data: the worker's samples (1 ms truth resolution while commands run), with iperf3-style 1 s
 * bins and CloudWatch 1-minute / 5-minute datapoints beside the truth. Colours: Okabe–Ito.
 */
import { scaleLinear } from 'd3-scale';
import { line as d3line } from 'd3-shape';
import { type PointerEvent, useEffect, useMemo, useRef, useState, type WheelEvent } from 'react';
import { useApp, useAppStore } from '../context';
import { QUEUE_STAGES } from '../../state/app-store';
import { binnedRate, peakSeries, rateSeries, valueAt, type XY } from './series';

export const PALETTE = {
  blue: '#0072B2',
  orange: '#E69F00',
  green: '#009E73',
  pink: '#CC79A7',
  red: '#D55E00',
  sky: '#56B4E9',
};

const H = 120;
const M = { l: 52, r: 12, t: 8, b: 4 };

interface Line {
  label: string;
  colour: string;
  xy?: XY;
  steps?: Array<{ fromNs: number; toNs: number; rate: number }>;
  dashed?: boolean;
}

function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [w, setW] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((e) => setW(Math.max(300, Math.floor(e[0]!.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, w];
}

export function ChartsPanel() {
  const store = useAppStore();
  const version = useApp((s) => s.results.seriesVersion);
  const cols = useApp((s) => s.scenario.sampleColumns);
  const instances = useApp((s) => s.scenario.instances);
  const nowNs = useApp((s) => s.playback.nowNs);
  const zoom = useApp((s) => s.selection.zoom);
  const cursor = useApp((s) => s.selection.cursorNs);
  const [ref, width] = useWidth();
  const series = store.series;
  const from = zoom ? zoom[0] : 0;
  const to = zoom ? zoom[1] : Math.max(nowNs, 1e9);
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([from, to])
        .range([M.l, width - M.r]),
    [from, to, width],
  );
  const client = instances[0]?.name ?? 'client';
  const server = instances[1]?.name ?? 'server';
  const c = (host: string, name: string) => cols.indexOf(`${host}.${name}`);
  const px = Math.max(50, Math.floor(width - M.l - M.r));

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the series buffer's change signal
  const charts = useMemo(() => {
    const gbps = 8 / 1e9;
    const txOut = c(client, 'tx_bytes');
    const rxIn = c(server, 'rx_bytes');
    return [
      {
        title: 'Throughput, Gbit/s',
        unit: 'Gbit/s',
        lines: [
          {
            label: `${client} out`,
            colour: PALETTE.blue,
            xy: rateSeries(series, txOut, from, to, gbps, px),
          },
          {
            label: `${server} in`,
            colour: PALETTE.orange,
            xy: rateSeries(series, rxIn, from, to, gbps, px),
          },
          {
            label: `${client} out, 1 s bins (iperf3-like)`,
            colour: PALETTE.green,
            steps: binnedRate(series, txOut, 1e9, gbps),
            dashed: true,
          },
          {
            label: `${client} NetworkOut, CloudWatch 1 min`,
            colour: PALETTE.pink,
            steps: binnedRate(series, txOut, 60e9, gbps),
          },
          {
            label: `CloudWatch 5 min`,
            colour: PALETTE.red,
            steps: binnedRate(series, txOut, 300e9, gbps),
            dashed: true,
          },
        ] as Line[],
      },
      {
        title: 'Packets out, Mpps',
        unit: 'Mpps',
        lines: [
          {
            label: `${client} tx packets`,
            colour: PALETTE.blue,
            xy: rateSeries(series, c(client, 'tx_packets'), from, to, 1e-6, px),
          },
          {
            label: 'pps_allowance_exceeded /s',
            colour: PALETTE.red,
            xy: rateSeries(series, c(client, 'pps_allowance_exceeded'), from, to, 1e-6, px),
          },
        ] as Line[],
      },
      {
        title: 'Queue occupancy (peak per frame), packets',
        unit: 'packets',
        lines: (
          [
            [0, 'qdisc', PALETTE.blue],
            [0, 'tx_ring', PALETTE.sky],
            [0, 'nitro_egress', PALETTE.orange],
            [1, 'nitro_ingress', PALETTE.pink],
            [1, 'rx_ring', PALETTE.green],
          ] as const
        ).map(([h, stage, colour]) => ({
          label: `${h === 0 ? client : server} ${stage.replace('_', ' ')}`,
          colour,
          xy: peakSeries(store.queues, h * QUEUE_STAGES.length + QUEUE_STAGES.indexOf(stage), from, to, px),
        })) as Line[],
      },
      {
        title: 'Burst credits left (out), GB',
        unit: 'GB',
        lines: [
          {
            label: `${client} credits`,
            colour: PALETTE.green,
            xy: levelSeries(series, c(client, 'credits_out_bits'), from, to, 1 / 8e9, px),
          },
        ] as Line[],
      },
      {
        title: 'Drops and allowance exceedances, packets/s',
        unit: '/s',
        lines: [
          {
            label: 'drops (all stages)',
            colour: PALETTE.red,
            xy: rateSeries(series, c(client, 'drops'), from, to, 1, px),
          },
          {
            label: `${server} drops`,
            colour: PALETTE.pink,
            xy: rateSeries(series, c(server, 'drops'), from, to, 1, px),
          },
          {
            label: 'bw_out_allowance_exceeded /s',
            colour: PALETTE.orange,
            xy: rateSeries(series, c(client, 'bw_out_allowance_exceeded'), from, to, 1, px),
          },
        ] as Line[],
      },
    ];
  }, [version, from, to, px, cols, client, server]);

  const setSel = (p: Partial<{ cursorNs: number | null; zoom: [number, number] | null }>) =>
    store.setState((s) => ({ selection: { ...s.selection, ...p } }));

  const onMove = (e: PointerEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const t = x.invert(e.clientX - r.left);
    setSel({ cursorNs: t >= from && t <= to ? t : null });
  };
  const onWheel = (e: WheelEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const t = x.invert(e.clientX - r.left);
    const k = e.deltaY > 0 ? 1.25 : 0.8;
    const a = Math.max(0, t - (t - from) * k);
    const b = Math.max(a + 1_000, t + (to - t) * k);
    setSel({ zoom: [a, b] });
  };

  return (
    <section className="panel charts" aria-label="Charts" ref={ref}>
      <div className="panel-head">
        <h2>Charts</h2>
        <span className="muted">
          {(from / 1e9).toFixed(3)}–{(to / 1e9).toFixed(3)} s · wheel to zoom, double-click to follow the
          clock
          {cursor !== null ? ` · cursor ${(cursor / 1e9).toFixed(6)} s` : ''}
        </span>
      </div>
      {charts.map((ch) => (
        <Chart
          key={ch.title}
          title={ch.title}
          lines={ch.lines}
          x={x}
          width={width}
          cursor={cursor}
          readout={(col) => col}
          onMove={onMove}
          onLeave={() => setSel({ cursorNs: null })}
          onWheel={onWheel}
          onReset={() => setSel({ zoom: null })}
        />
      ))}
      <p className="muted note">
        Solid lines: the model's counters, averaged per pixel (1 ms when zoomed in far enough); occupancy is
        the peak the path recorder saw in each animation frame. CloudWatch datapoints exist only for complete
        periods, as CloudWatch publishes them; latency percentiles are not charted yet.{' '}
        {series.length.toLocaleString('en-US')} samples kept.
      </p>
      {/* screen-reader value of the cursor */}
      <span className="visually-hidden">
        {cursor !== null
          ? `Cursor at ${(cursor / 1e9).toFixed(6)} s, client tx bytes ${valueAt(series, c(client, 'tx_bytes'), cursor) ?? 'n/a'}`
          : ''}
      </span>
    </section>
  );
}

/** A level (not a rate) of a column, decimated by taking each bucket's last sample. */
function levelSeries(
  s: ReturnType<typeof useAppStore>['series'],
  col: number,
  fromNs: number,
  toNs: number,
  scale: number,
  maxPoints: number,
): XY {
  const x = new Float64Array(maxPoints + 2);
  const y = new Float64Array(maxPoints + 2);
  let n = 0;
  if (col < 0) return { x, y, n };
  const bucketNs = Math.max(1, (toNs - fromNs) / maxPoints);
  let last = -1;
  for (let i = 0; i < s.length; i++) {
    const t = s.times[i]!;
    if (t < fromNs || t > toNs) continue;
    const v = s.value(i, col);
    if (Number.isNaN(v)) continue;
    const b = Math.floor((t - fromNs) / bucketNs);
    if (b === last && n > 0) {
      x[n - 1] = t;
      y[n - 1] = v * scale;
    } else if (n < x.length) {
      x[n] = t;
      y[n++] = v * scale;
      last = b;
    }
  }
  return { x, y, n };
}

function Chart(props: {
  title: string;
  lines: Line[];
  x: ReturnType<typeof scaleLinear<number, number>>;
  width: number;
  cursor: number | null;
  readout: (c: number) => number;
  onMove: (e: PointerEvent<SVGSVGElement>) => void;
  onLeave: () => void;
  onWheel: (e: WheelEvent<SVGSVGElement>) => void;
  onReset: () => void;
}) {
  const { lines, x, width } = props;
  const [d0, d1] = x.domain() as [number, number];
  let yMax = 0;
  for (const l of lines) {
    if (l.xy) for (let i = 0; i < l.xy.n; i++) yMax = Math.max(yMax, l.xy.y[i]!);
    if (l.steps) for (const s of l.steps) if (s.toNs >= d0 && s.fromNs <= d1) yMax = Math.max(yMax, s.rate);
  }
  const y = scaleLinear()
    .domain([0, yMax > 0 ? yMax * 1.1 : 1])
    .nice(4)
    .range([H - M.b, M.t]);
  const gen = d3line<number>();
  const paths = lines.map((l) => {
    const pts: Array<[number, number]> = [];
    if (l.xy) for (let i = 0; i < l.xy.n; i++) pts.push([x(l.xy.x[i]!), y(l.xy.y[i]!)]);
    if (l.steps)
      for (const s of l.steps) {
        if (s.toNs < d0 || s.fromNs > d1) continue;
        pts.push([x(Math.max(d0, s.fromNs)), y(s.rate)], [x(Math.min(d1, s.toNs)), y(s.rate)]);
      }
    return gen(pts as unknown as number[]) ?? '';
  });
  const ticks = y.ticks(4);
  const xt = x.ticks(6);
  const present = lines.filter((l) => (l.xy && l.xy.n > 0) || (l.steps && l.steps.length > 0));
  return (
    <figure className="chart">
      <figcaption>
        <span className="chart-title">{props.title}</span>
        {present.map((l) => (
          <span key={l.label} className="legend">
            <svg width="18" height="8" aria-hidden="true">
              <line
                x1="0"
                x2="18"
                y1="4"
                y2="4"
                stroke={l.colour}
                strokeWidth="2"
                strokeDasharray={l.dashed ? '4 3' : undefined}
              />
            </svg>
            {l.label}
          </span>
        ))}
        {present.length === 0 ? <span className="muted">no data yet: run a command</span> : null}
      </figcaption>
      <svg
        width={width}
        height={H + 18}
        role="img"
        aria-label={props.title}
        onPointerMove={props.onMove}
        onPointerLeave={props.onLeave}
        onWheel={props.onWheel}
        onDoubleClick={props.onReset}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={M.l} x2={width - M.r} y1={y(t)} y2={y(t)} className="grid" />
            <text x={M.l - 6} y={y(t)} dy="0.32em" textAnchor="end" className="tick">
              {t}
            </text>
          </g>
        ))}
        {xt.map((t) => (
          <text key={t} x={x(t)} y={H + 14} textAnchor="middle" className="tick">
            {fmtAxis(t, d1 - d0)}
          </text>
        ))}
        {paths.map((d, i) => (
          <path
            key={lines[i]!.label}
            d={d}
            fill="none"
            stroke={lines[i]!.colour}
            strokeWidth={lines[i]!.steps ? 2 : 1.25}
            strokeDasharray={lines[i]!.dashed ? '4 3' : undefined}
          />
        ))}
        {props.cursor !== null ? (
          <line x1={x(props.cursor)} x2={x(props.cursor)} y1={M.t} y2={H} className="cursor" />
        ) : null}
      </svg>
    </figure>
  );
}

function fmtAxis(ns: number, spanNs: number): string {
  if (spanNs < 5e6) return `${(ns / 1e3).toFixed(0)} µs`;
  if (spanNs < 5e9) return `${(ns / 1e6).toFixed(0)} ms`;
  return `${(ns / 1e9).toFixed(spanNs < 20e9 ? 1 : 0)} s`;
}
