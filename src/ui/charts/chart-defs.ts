/**
 * What each chart draws, as plain data (the same data the charts render and the exports write):
 * a chart is a title, a unit and lines; a line is a list of segments [x0, x1] at a value (a point
 * when x0 = x1). Built from the worker's counter samples (1 ms truth resolution), the queue peaks
 * of the path frames, the finished runs (iperf3's own intervals) and the engine's chart series
 * (latency percentiles, drops by reason). Pure: no DOM, no store.
 */
import type { ChartSeries, InstanceInfo, ToolRun } from '../../protocol/sim-api';
import { QUEUE_STAGES } from '../../state/app-store';
import {
  mergeStatisticSet,
  type Statistic,
  type StatisticSet,
  statisticValue,
} from '../../lib/statistic-set';
import type { SeriesBuffer } from '../../state/series-buffer';
import { binnedRate, levelPoints, rateSeries, type XY } from './series';

/** Okabe–Ito: safe for the common colour-vision deficiencies. */
export const PALETTE = {
  blue: '#0072B2',
  orange: '#E69F00',
  green: '#009E73',
  pink: '#CC79A7',
  red: '#D55E00',
  sky: '#56B4E9',
  yellow: '#F0E442',
  grey: '#7F7F7F',
};
const CYCLE = [
  PALETTE.red,
  PALETTE.orange,
  PALETTE.pink,
  PALETTE.blue,
  PALETTE.sky,
  PALETTE.green,
  PALETTE.grey,
];

export interface Seg {
  x0: number;
  x1: number;
  y: number;
}

export interface Line {
  label: string;
  colour: string;
  /** SVG stroke-dasharray, when dashed or dotted. */
  dash?: string;
  width?: number;
  segs: Seg[];
}

export interface ChartDef {
  id: string;
  title: string;
  /** The unit of every line's values (also the CSV column's). */
  unit: string;
  lines: Line[];
  /** What the chart is made of, in a sentence (shown under the chart). */
  source: string;
}

export interface ChartInputs {
  series: SeriesBuffer;
  queues: SeriesBuffer;
  cols: readonly string[];
  instances: readonly InstanceInfo[];
  runs: readonly ToolRun[];
  engine: ChartSeries | null;
  fromNs: number;
  toNs: number;
  /** Pixel columns of the plot (points per line at most, about). */
  px: number;
  /** The statistic the CloudWatch chart graphs (default Sum). */
  cwStatistic?: CwStatistic;
  /** The wall clock at t = 0 (Unix ms): CloudWatch's datapoints fall on its minutes (default: on one). */
  wallClockStartMs?: number;
}

/**
 * Where CloudWatch's grid of `periodNs` starts on the simulated axis: the clock's period boundary at
 * or before t = 0 (a lab started at 16:59:57 has a minute from −57 s to 3 s; its first sample holds
 * the 3 s the instance ran).
 */
export function cwOriginNs(wallClockStartMs: number, periodNs: number): number {
  const periodMs = periodNs / 1e6;
  const into = (((wallClockStartMs % periodMs) + periodMs) % periodMs) * 1e6;
  return into === 0 ? 0 : -into;
}

/** The statistics of a CloudWatch datapoint, in the order the chart's picker offers them. */
export const CW_STATISTICS: readonly Statistic[] = ['Sum', 'Average', 'Maximum', 'Minimum', 'SampleCount'];
export type CwStatistic = Statistic;

/** One CloudWatch datapoint of a byte counter: its period and its statistic set. */
export interface CwDatapoint extends StatisticSet {
  fromNs: number;
  toNs: number;
}

/**
 * The datapoints CloudWatch holds for NetworkOut (a cumulative byte column), from one sample per
 * whole minute (the minute's bytes), as EC2 measures it: 1-minute datapoints (detailed monitoring)
 * for the minutes that are over, or 5-minute statistic sets of those samples (basic monitoring),
 * the one under way included from its first sample on (Nitro publishes it then and updates it).
 * Minutes and 5-minute periods are the wall clock's (`wallClockStartMs` at t = 0).
 */
export function cloudWatchDatapoints(
  series: SeriesBuffer,
  col: number,
  periodNs: 60e9 | 300e9,
  wallClockStartMs = 0,
): CwDatapoint[] {
  const minutes = minuteDatapoints(series, col, wallClockStartMs);
  return periodNs === 60e9 ? minutes : fiveMinuteDatapoints(minutes, wallClockStartMs);
}

/**
 * The rows periods of whole seconds are built from: the per-second rows (the whole run), when the
 * buffer keeps them and the run has reached a second; else the samples themselves.
 */
export function wholeSeconds(series: SeriesBuffer): SeriesBuffer {
  const sec = series.seconds;
  return sec && sec.length > 0 ? sec : series;
}

/** One datapoint per whole clock minute that is over: that minute's bytes (SampleCount 1). */
function minuteDatapoints(series: SeriesBuffer, col: number, wallClockStartMs: number): CwDatapoint[] {
  return binnedRate(wholeSeconds(series), col, 60e9, 60, cwOriginNs(wallClockStartMs, 60e9)).map((m) => ({
    fromNs: m.fromNs,
    toNs: m.toNs,
    sum: m.rate,
    count: 1,
    min: m.rate,
    max: m.rate,
  }));
}

/** The 5-minute statistic sets of the minute samples, the one under way included (as Nitro publishes it). */
function fiveMinuteDatapoints(minutes: readonly CwDatapoint[], wallClockStartMs: number): CwDatapoint[] {
  const origin = cwOriginNs(wallClockStartMs, 300e9);
  const out: CwDatapoint[] = [];
  for (const m of minutes) {
    const from = origin + Math.floor((m.fromNs - origin) / 300e9) * 300e9;
    const last = out[out.length - 1];
    if (last && last.fromNs === from) mergeStatisticSet(last, m);
    else out.push({ ...m, fromNs: from, toNs: from + 300e9 });
  }
  return out;
}

/** A datapoint's value for a statistic (Average = Sum / SampleCount, as CloudWatch computes it). */
export const cwValue = (d: CwDatapoint, stat: CwStatistic): number => statisticValue(d, stat);

const DASH = '5 3';
const DOT = '1.5 2.5';

/** Step pairs (x0, y, x1, y, …) as segments. */
function pairs(xy: XY): Seg[] {
  const out: Seg[] = [];
  for (let i = 0; i + 1 < xy.n; i += 2) out.push({ x0: xy.x[i]!, x1: xy.x[i + 1]!, y: xy.y[i]! });
  return out;
}

/** Points (x, y) as zero-width segments. */
function points(xy: XY): Seg[] {
  const out: Seg[] = [];
  for (let i = 0; i < xy.n; i++) out.push({ x0: xy.x[i]!, x1: xy.x[i]!, y: xy.y[i]! });
  return out;
}

function bins(b: Array<{ fromNs: number; toNs: number; rate: number }>): Seg[] {
  return b.map((s) => ({ x0: s.fromNs, x1: s.toNs, y: s.rate }));
}

/** Sum of two cumulative columns' rates (packets in + out). */
function sumRates(a: Seg[], b: Seg[]): Seg[] {
  if (a.length !== b.length) return a;
  return a.map((s, i) => ({ x0: s.x0, x1: s.x1, y: s.y + b[i]!.y }));
}

/**
 * iperf3's own per-interval rate (the -J document's intervals[].sum), placed from the command's
 * start: what the iperf3 output said, second by second, in Gbit/s.
 */
export function iperfIntervals(runs: readonly ToolRun[]): Map<string, Seg[]> {
  const byHost = new Map<string, Seg[]>();
  for (const r of runs) {
    const doc = r.result as {
      intervals?: Array<{ sum?: { start: number; end: number; bits_per_second: number } }>;
    };
    if (!/^\s*iperf3\b/.test(r.command) || !Array.isArray(doc?.intervals)) continue;
    const segs = byHost.get(r.host) ?? [];
    for (const iv of doc.intervals) {
      const s = iv.sum;
      if (!s || !(s.end > s.start)) continue;
      segs.push({ x0: r.startNs + s.start * 1e9, x1: r.startNs + s.end * 1e9, y: s.bits_per_second / 1e9 });
    }
    byHost.set(r.host, segs);
  }
  return byHost;
}

/** The charts, in the order they are shown. */
export function buildCharts(inp: ChartInputs): ChartDef[] {
  const { series, cols, instances, fromNs: from, toNs: to, px, engine } = inp;
  const client = instances[0]?.name ?? 'client';
  const server = instances[1]?.name ?? 'server';
  const c = (host: string, name: string) => cols.indexOf(`${host}.${name}`);
  const rate = (host: string, name: string, scale: number) =>
    pairs(rateSeries(series, c(host, name), from, to, scale, px));
  const gbps = 8 / 1e9;
  const clock = inp.wallClockStartMs ?? 0;
  // CloudWatch's datapoints of the client's NetworkOut: the rate chart's lines and the NetworkOut chart
  const cwMinutes = minuteDatapoints(series, c(client, 'network_out_bytes'), clock);
  const cwFive = fiveMinuteDatapoints(cwMinutes, clock);
  /** A datapoint as a rate over its period (Sum × 8 ÷ period), in Gbit/s. */
  const asRate = (d: CwDatapoint): Seg => ({
    x0: d.fromNs,
    x1: d.toNs,
    y: (d.sum * gbps) / ((d.toNs - d.fromNs) / 1e9),
  });

  // --- rate in and out, beside iperf3's intervals and CloudWatch's periods
  const iperf = iperfIntervals(inp.runs);
  const rateLines: Line[] = [
    {
      label: `${client} out (ENA tx_bytes, 1 ms)`,
      colour: PALETTE.blue,
      segs: rate(client, 'tx_bytes', gbps),
    },
    {
      label: `${server} in (ENA rx_bytes, 1 ms)`,
      colour: PALETTE.orange,
      segs: rate(server, 'rx_bytes', gbps),
    },
  ];
  for (const [host, segs] of iperf)
    rateLines.push({
      label: `iperf3 on ${host}, its 1 s intervals`,
      colour: PALETTE.green,
      width: 2.5,
      dash: DASH,
      segs,
    });
  if (iperf.size === 0)
    rateLines.push({
      label: `${client} out, 1 s means (an iperf3 interval)`,
      colour: PALETTE.green,
      width: 2.5,
      dash: DASH,
      segs: bins(binnedRate(wholeSeconds(series), c(client, 'tx_bytes'), 1e9, gbps)),
    });
  rateLines.push(
    {
      label: `${client} NetworkOut, CloudWatch 1-minute`,
      colour: PALETTE.pink,
      width: 2.5,
      segs: cwMinutes.map(asRate),
    },
    {
      label: `${client} NetworkOut, CloudWatch 5-minute`,
      colour: PALETTE.red,
      width: 2.5,
      dash: DOT,
      // on Nitro the 5-minute datapoint is there from its first minute on: its Sum / 300 climbs
      segs: cwFive.map(asRate),
    },
  );

  // --- NetworkOut as CloudWatch graphs it, for the chosen statistic
  const stat = inp.cwStatistic ?? 'Sum';
  const cwLines: Line[] = [
    {
      label: `${client} NetworkOut ${stat}, 1-minute datapoints (detailed monitoring)`,
      colour: PALETTE.pink,
      width: 2.5,
      segs: cwMinutes.map((d) => ({
        x0: d.fromNs,
        x1: d.toNs,
        y: cwValue(d, stat),
      })),
    },
    {
      label: `${client} NetworkOut ${stat}, 5-minute datapoints (basic monitoring)`,
      colour: PALETTE.red,
      width: 2.5,
      dash: DOT,
      segs: cwFive.map((d) => ({
        x0: d.fromNs,
        x1: d.toNs,
        y: cwValue(d, stat),
      })),
    },
  ];

  // --- packets per second against the PPS allowance (in + out share it)
  const ppsLines: Line[] = [];
  instances.slice(0, 2).forEach((inst, i) => {
    const segs = sumRates(rate(inst.name, 'tx_packets', 1e-6), rate(inst.name, 'rx_packets', 1e-6));
    const colour = i === 0 ? PALETTE.blue : PALETTE.orange;
    ppsLines.push({ label: `${inst.name} packets in + out`, colour, segs });
    if (inst.ppsAllowance > 0)
      ppsLines.push({
        label: `${inst.name} PPS allowance, ${(inst.ppsAllowance / 1e6).toPrecision(3)} Mpps (${inst.ppsAllowanceProvenance})`,
        colour,
        dash: DASH,
        segs: [{ x0: from, x1: to, y: inst.ppsAllowance / 1e6 }],
      });
  });

  // --- latency percentiles (engine: packet timestamps)
  const latLines: Line[] = [];
  let latMax = 0;
  for (const l of engine?.latency ?? []) for (const v of l.p999) if (v > latMax) latMax = v;
  const latUnit = latMax >= 10e6 ? 'ms' : 'µs';
  const latScale = latUnit === 'ms' ? 1e-6 : 1e-3;
  if (engine)
    engine.latency.forEach((l, i) => {
      const colour = i === 0 ? PALETTE.orange : PALETTE.blue;
      const steps = (a: Float64Array): Seg[] => {
        const out: Seg[] = [];
        for (let k = 0; k < engine.steps; k++) {
          const x0 = engine.t0Ns + k * engine.stepNs;
          out.push({ x0, x1: x0 + engine.stepNs, y: a[k]! * latScale });
        }
        return out;
      };
      latLines.push(
        { label: `${l.host} p50`, colour, segs: steps(l.p50) },
        {
          label: `${l.host} p99`,
          colour: i === 0 ? PALETTE.red : PALETTE.sky,
          dash: DASH,
          segs: steps(l.p99),
        },
        {
          label: `${l.host} p99.9`,
          colour: i === 0 ? PALETTE.pink : PALETTE.green,
          dash: DOT,
          segs: steps(l.p999),
        },
      );
    });

  // --- queue occupancy (peak per path frame)
  const queueLines: Line[] = (
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
    segs: points(
      levelPoints(inp.queues, h * QUEUE_STAGES.length + QUEUE_STAGES.indexOf(stage), from, to, px),
    ),
  }));

  // --- burst credits
  const creditLines: Line[] = [
    {
      label: `${client} credits (out)`,
      colour: PALETTE.blue,
      segs: points(levelPoints(series, c(client, 'credits_out_bits'), from, to, px, 'last', 1 / 8e9)),
    },
    {
      label: `${server} credits (in)`,
      colour: PALETTE.orange,
      dash: DASH,
      segs: points(levelPoints(series, c(server, 'credits_in_bits'), from, to, px, 'last', 1 / 8e9)),
    },
  ];

  // --- drops by reason (engine), and the allowance counters ethtool -S shows
  const dropLines: Line[] = [];
  if (engine)
    engine.drops.forEach((d, i) => {
      const perS = 1e9 / engine.stepNs;
      const segs: Seg[] = [];
      for (let k = 0; k < engine.steps; k++) {
        const x0 = engine.t0Ns + k * engine.stepNs;
        segs.push({ x0, x1: x0 + engine.stepNs, y: d.packets[k]! * perS });
      }
      dropLines.push({
        label: `${d.host} ${d.stage.replace('_', ' ')}: ${d.reason}`,
        colour: CYCLE[i % CYCLE.length]!,
        segs,
      });
    });
  const allowanceLines: Line[] = [];
  for (const [host, counter, colour, dash] of [
    [client, 'bw_out_allowance_exceeded', PALETTE.blue, undefined],
    [client, 'pps_allowance_exceeded', PALETTE.sky, DASH],
    [server, 'bw_in_allowance_exceeded', PALETTE.orange, undefined],
    [server, 'pps_allowance_exceeded', PALETTE.pink, DASH],
  ] as const)
    allowanceLines.push({ label: `${host} ${counter}`, colour, dash, segs: rate(host, counter, 1) });

  return [
    {
      id: 'rate',
      title: 'Rate out and in',
      unit: 'Gbit/s',
      lines: rateLines,
      source:
        "ENA byte counters (IP + Ethernet header), averaged per pixel, 1 ms at finest: out is what the instance hands its Nitro card, before the card's shapers queue or drop; in is what reaches the RX rings. iperf3's own intervals from its -J report. CloudWatch's NetworkOut counts what the card sent on (IP bytes, after its shapers), as aws cloudwatch prints it; its 1-minute datapoints exist for complete minutes; the 5-minute one (basic monitoring) is published on Nitro after its first minute and updated each minute, so its Sum / 300 climbs while its 5 minutes run.",
    },
    {
      id: 'cloudwatch',
      title: `NetworkOut as CloudWatch graphs it: ${stat}`,
      unit: stat === 'SampleCount' ? 'samples' : 'bytes',
      lines: cwLines,
      source:
        "EC2 measures NetworkOut once a minute (that minute's bytes). Detailed monitoring publishes each minute; basic monitoring keeps a " +
        '5-minute statistic set of the minutes (on Nitro from its first minute on, updated each minute). Sum is bytes per period (÷ 60 or ÷ 300 ' +
        'for bytes/s); Average is bytes per minute (Sum ÷ SampleCount), not per period; Maximum is the busiest minute. None of them shows a ' +
        'burst shorter than a minute.',
    },
    {
      id: 'pps',
      title: 'Packets per second against the PPS allowance',
      unit: 'Mpps',
      lines: ppsLines,
      source: 'The allowance is shared by both directions: packets in + out count against it.',
    },
    {
      id: 'latency',
      title: 'One-way latency of the packets each instance received',
      unit: latUnit,
      lines: latLines,
      source: engine
        ? `Socket send → socket receive of every packet received in each ${formatStep(engine.stepNs)} (model timestamps). Packets moved as one batch share its timestamps, so in short steps p99 and p99.9 often coincide.`
        : 'Socket send → socket receive of the packets received (model timestamps).',
    },
    {
      id: 'queues',
      title: 'Queue occupancy, peak per animation frame',
      unit: 'packets',
      lines: queueLines,
      source: 'The fullest each queue got in each frame the path view drew.',
    },
    {
      id: 'credits',
      title: 'Burst credits left',
      unit: 'GB',
      lines: creditLines,
      source:
        "Network I/O credits the Nitro card holds for bursting above the baseline bandwidth, per direction (the account's size is an assumed figure); none for fixed-bandwidth types.",
    },
    {
      id: 'drops',
      title: 'Drops by reason',
      unit: 'packets/s',
      lines: dropLines,
      source: 'Packets dropped, by instance, stage and reason (the model counts each drop where it happens).',
    },
    {
      id: 'allowances',
      title: 'Allowance exceeded (ethtool -S)',
      unit: 'packets/s',
      lines: allowanceLines,
      source:
        "The ENA counters' rate: packets the Nitro card queued or dropped because a bandwidth or PPS allowance was exceeded.",
    },
  ];
}

function formatStep(ns: number): string {
  return ns >= 1e9 ? `${ns / 1e9} s` : `${ns / 1e6} ms`;
}

/** The value a line has at time t (the segment holding it, or the nearest point before it). */
export function lineValueAt(l: Line, t: number): number | null {
  let best: Seg | null = null;
  for (const s of l.segs) {
    if (s.x0 <= t && t <= s.x1 && s.x1 > s.x0) return s.y;
    if (s.x1 === s.x0 && s.x0 <= t) best = s;
  }
  return best && Number.isFinite(best.y) ? best.y : null;
}
