/**
 * What the averaging ladder draws, as plain data: one instance's bytes out around one instant at
 * 10 µs and 1 ms (the worker's ladder series: the bytes the ENA counts, each packet when the host
 * link carries it), 1 s (the counter samples in whole seconds: what an iperf3 interval averages),
 * and CloudWatch's 1-minute and 5-minute NetworkOut datapoints with the chosen statistic
 * (cloudWatchDatapoints, the same the NetworkOut chart and `aws cloudwatch` give). Strip extents
 * from src/lib/ladder.ts. Pure.
 */
import { LADDER_LEVELS, type LadderLevel, ladderWindow } from '../../lib/ladder';
import type { BytesOut, LadderSeries } from '../../protocol/sim-api';
import type { SeriesBuffer } from '../../state/series-buffer';
import { type CwStatistic, cloudWatchDatapoints, cwOriginNs, cwValue, wholeSeconds } from './chart-defs';
import { binnedRate } from './series';

export interface LadderBar {
  fromNs: number;
  toNs: number;
  /** In the strip's unit; NaN: not kept, or not published yet. */
  value: number;
  /** The bar's bytes as a mean rate over its period, Gbit/s (what the ladder's heights share). */
  gbps: number;
}

export interface LadderStrip {
  id: LadderLevel;
  /** What the strip is, e.g. "1 minute · CloudWatch Sum (detailed monitoring)". */
  title: string;
  binNs: number;
  fromNs: number;
  toNs: number;
  unit: 'Gbit/s' | 'bytes' | 'samples';
  bars: LadderBar[];
  /** The strip's largest bar, and the bar holding the instant (null: none with a value). */
  peak: LadderBar | null;
  atFocus: LadderBar | null;
  /** Why a strip has nothing to show, when it has not. */
  empty: string | null;
}

export interface Ladder {
  host: string;
  focusNs: number;
  focus: LadderSeries['focus'] | 'cursor';
  statistic: CwStatistic;
  strips: LadderStrip[];
  /** Said under the strips when the model moves batches: how the 10 µs and 1 ms bars count them. */
  batchNote: string | null;
}

export interface LadderInputs {
  series: SeriesBuffer;
  cols: readonly string[];
  /** The worker's answer (10 µs and 1 ms strips, the instant); null before the first one. */
  fine: LadderSeries | null;
  statistic: CwStatistic;
  wallClockStartMs?: number;
  /** The charts' cursor, when set (the worker was asked about it). */
  cursorNs?: number | null;
}

const GBIT = 8 / 1e9;

function barsOf(b: BytesOut | undefined, win: readonly [number, number]): LadderBar[] {
  const out: LadderBar[] = [];
  if (!b) return out;
  const perS = 1e9 / b.stepNs;
  for (let k = 0; k < b.bytes.length; k++) {
    const fromNs = b.t0Ns + k * b.stepNs;
    if (fromNs < win[0] || fromNs >= win[1]) continue;
    const v = b.bytes[k]! * perS * GBIT;
    out.push({ fromNs, toNs: fromNs + b.stepNs, value: v, gbps: v });
  }
  return out;
}

function finish(
  s: Omit<LadderStrip, 'peak' | 'atFocus' | 'empty'>,
  focusNs: number,
  empty: string,
): LadderStrip {
  let peak: LadderBar | null = null;
  let atFocus: LadderBar | null = null;
  for (const b of s.bars) {
    if (!Number.isFinite(b.value)) continue;
    if (peak === null || b.value > peak.value) peak = b;
    if (b.fromNs <= focusNs && focusNs < b.toNs) atFocus = b;
  }
  return { ...s, peak, atFocus, empty: peak === null ? empty : null };
}

export function buildLadder(inp: LadderInputs): Ladder | null {
  const f = inp.fine;
  if (!f) return null;
  const focusNs = f.focusNs;
  const clock = inp.wallClockStartMs ?? 0;
  const col = inp.cols.indexOf(`${f.host}.tx_bytes`);
  // CloudWatch's NetworkOut: the card's bytes sent on (after its shapers), as aws cloudwatch reads it
  const nwOut = inp.cols.indexOf(`${f.host}.network_out_bytes`);
  const stat = inp.statistic;
  const level = (id: LadderLevel) => LADDER_LEVELS.find((l) => l.id === id)!;
  const strips: LadderStrip[] = [];

  for (const id of ['10us', '1ms'] as const) {
    const l = level(id);
    const win = ladderWindow(focusNs, l.binNs, l.spanNs);
    strips.push(
      finish(
        {
          id,
          title: id === '10us' ? '10 µs · the model' : '1 ms · the model',
          binNs: l.binNs,
          fromNs: win[0],
          toNs: win[1],
          unit: 'Gbit/s',
          bars: barsOf(id === '10us' ? f.fine : f.ms, win),
        },
        focusNs,
        id === '10us'
          ? 'not kept this far back (10 µs buckets: the last 655 ms)'
          : 'not kept this far back (1 ms buckets: the last 16 s)',
      ),
    );
  }

  const l1 = level('1s');
  const w1 = ladderWindow(focusNs, l1.binNs, l1.spanNs);
  strips.push(
    finish(
      {
        id: '1s',
        title: '1 s · an iperf3 interval',
        binNs: l1.binNs,
        fromNs: w1[0],
        toNs: w1[1],
        unit: 'Gbit/s',
        bars: binnedRate(wholeSeconds(inp.series), col, 1e9, GBIT)
          .filter((b) => b.fromNs >= w1[0] && b.fromNs < w1[1])
          .map((b) => ({ fromNs: b.fromNs, toNs: b.toNs, value: b.rate, gbps: b.rate })),
      },
      focusNs,
      'no whole second yet',
    ),
  );

  for (const [id, period, monitoring] of [
    ['1min', 60e9, 'detailed monitoring'],
    ['5min', 300e9, 'basic monitoring'],
  ] as const) {
    const l = level(id);
    const origin = cwOriginNs(clock, period);
    const win = ladderWindow(focusNs, l.binNs, l.spanNs, origin);
    const dps = cloudWatchDatapoints(inp.series, nwOut, period, clock);
    strips.push(
      finish(
        {
          id,
          title: `${id === '1min' ? '1 minute' : '5 minutes'} · CloudWatch ${stat} (${monitoring})`,
          binNs: l.binNs,
          fromNs: win[0],
          toNs: win[1],
          unit: stat === 'SampleCount' ? 'samples' : 'bytes',
          bars: dps
            .filter((d) => d.fromNs >= win[0] && d.fromNs < win[1])
            .map((d) => ({
              fromNs: d.fromNs,
              toNs: d.toNs,
              value: cwValue(d, stat),
              gbps: (d.sum * GBIT) / ((d.toNs - d.fromNs) / 1e9),
            })),
        },
        focusNs,
        id === '1min' ? 'no datapoint yet: a minute is published when it is over' : 'no datapoint yet',
      ),
    );
  }

  return {
    host: f.host,
    focusNs,
    focus: inp.cursorNs != null && f.focus === 'asked' ? 'cursor' : f.focus,
    statistic: stat,
    strips,
    batchNote:
      [
        f.linkGbps !== null
          ? `Bytes are counted where the ENA hands them to the Nitro card, before the card applies the instance's bandwidth allowance: a 10 µs or 1 ms bar can read above the allowance, up to the card's own link (${fmtGbps(f.linkGbps)} Gbit/s).`
          : null,
        f.maxBatch > 1
          ? `The model moves packets in batches of up to ${f.maxBatch}; the 10 µs and 1 ms bars count a batch's packets one after another at the host link's rate, as the packet list shows them (set "settings": { "batch": 1 } for one packet at a time).`
          : null,
      ]
        .filter((x) => x !== null)
        .join(' ') || null,
  };
}

/** A strip's value in words, in its unit (Gbit/s to 3 decimals as `lab summary` prints; bytes in full). */
export function ladderValue(v: number, unit: LadderStrip['unit']): string {
  if (!Number.isFinite(v)) return 'none';
  if (unit === 'Gbit/s') return `${v.toFixed(3)} Gbit/s`;
  if (unit === 'samples') return `${v} sample${v === 1 ? '' : 's'}`;
  return `${Math.round(v).toLocaleString('en-US')} bytes`;
}

/** What the ladder shows, in sentences (the screen reader's text and the strips' captions). */
export function ladderSummary(l: Ladder, fmtInstant: (ns: number) => string): string[] {
  const why = {
    cursor: "at the charts' cursor",
    asked: 'at the chosen instant',
    sending: `at the busiest moment of ${l.host}'s last half second (still sending)`,
    'last-burst': `at the busiest moment of ${l.host}'s last burst`,
    idle: `at the current instant (${l.host} has sent nothing yet)`,
  }[l.focus];
  const out = [`${l.host}'s bytes out ${why}, ${fmtInstant(l.focusNs)}, at five time scales.`];
  for (const s of l.strips) {
    if (s.peak === null) {
      out.push(`${s.title}: ${s.empty}.`);
      continue;
    }
    const at = s.atFocus
      ? `${ladderValue(s.atFocus.value, s.unit)} at the instant`
      : 'nothing at the instant';
    out.push(
      `${s.title}: ${at}; the largest in ${fmtInstant(s.fromNs)} – ${fmtInstant(s.toNs)} is ${ladderValue(s.peak.value, s.unit)}.`,
    );
  }
  return out;
}

/** A link rate as people write it: 170, 12.5, 0.1. */
function fmtGbps(g: number): string {
  return String(Number(g.toPrecision(4)));
}
