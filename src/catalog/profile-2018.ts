/**
 * The "aws-2018" profile (scenario `settings.profile`): instance bandwidth as NETFLIX18 measured it
 * with netperf in March 2018, in place of today's API figures, so the seed's table can be measured
 * again in the lab. Burstable cells ("6 Gbps / 700 Mbps") give peak and baseline; single cells give
 * both. Every figure is `measured` (NETFLIX18) and says which cell it is. Not in the table, not
 * changed: the other figures of a type (queues, PPS, credits rule) stay the catalog's.
 *
 * What the cells are: netperf goodput at 1500-byte MTU ("BaseAMI is hardwired to 1500 MTU"), so a
 * lab that shapes to them measures about 1448/1518 of them again (the model charges the IP packet
 * plus 18 bytes; see MODEL_PARAMS.nitroChargeOverheadBytes): the profile holds what was measured,
 * not a figure tuned to reproduce it. The `**` cells (15, 16, 12 Gbps on the largest sizes) reached
 * 23 Gbps "from many senders" with jumbo frames; how many flows made their 1500-MTU figure the
 * table does not say.
 */
import { type Figure, measured } from './figure';
import type { InstanceTypeSpec } from './instance-types';

export type Profile = 'current' | 'aws-2018';

/** Size column of the NETFLIX18 table, in its order. */
const COLUMNS = [
  'large',
  'xlarge',
  '2xlarge',
  '4xlarge',
  '8xlarge',
  '9xlarge',
  '12xlarge',
  '16xlarge',
  '18xlarge',
  '24xlarge',
  '32xlarge',
] as const;

/** One cell: Gbps, or [burst, baseline] Gbps; null = "x" (not offered or not measured). */
type Cell = number | readonly [number, number] | null;

const BURST_FAMILY: readonly Cell[] = [
  [6, 0.7],
  [6, 1],
  [7, 2],
  [9, 4],
];

/** The table, row by row (NETFLIX18, "AWS Instance Network Throughput"). */
export const NETFLIX18_TABLE: Readonly<Record<string, readonly Cell[]>> = {
  t2: [0.5, 0.7, 0.96, null, null, null, null, null, null, null, null],
  i2: [null, 0.7, 0.96, 2, 9.4, null, null, null, null, null, null],
  i3: [...BURST_FAMILY, 9.4, null, null, 15, null, null, null],
  r3: [0.5, 0.7, 0.96, 2, 5, null, null, null, null, null, null],
  r4: [...BURST_FAMILY, 9.4, null, null, 15, null, null, null],
  m4: [null, 0.7, 1, 2, null, null, null, 12, null, null, null],
  m5: [...BURST_FAMILY, null, null, 9.4, null, null, 16, null],
  c4: [0.5, 0.7, 2, 4, 9.4, null, null, null, null, null, null],
  c5: [...BURST_FAMILY, null, 9, null, null, 16, null, null],
  d2: [null, 0.7, 2, 4, 9.4, null, null, null, null, null, null],
  x1: [null, null, null, null, null, null, null, 9.4, null, null, 15],
  x1e: [null, [6, 0.6], [7, 1], [9, 2], 9.4, null, null, 9.4, null, null, 15],
};

/** The cells marked ** (jumbo frames from many senders reached 23 Gbps). */
const JUMBO_CELLS = new Set([
  'i3.16xlarge',
  'r4.16xlarge',
  'm4.16xlarge',
  'm5.24xlarge',
  'c5.18xlarge',
  'x1.32xlarge',
  'x1e.32xlarge',
]);

/** The table's cell for a type, or undefined when the table has none. */
export function netflix18Cell(
  type: string,
): { burstGbps: number; baselineGbps: number; jumbo: boolean } | undefined {
  const dot = type.indexOf('.');
  const row = NETFLIX18_TABLE[type.slice(0, dot)];
  const col = (COLUMNS as readonly string[]).indexOf(type.slice(dot + 1));
  const cell = row && col >= 0 ? row[col] : null;
  if (cell === null || cell === undefined) return undefined;
  const [burst, base] = typeof cell === 'number' ? [cell, cell] : cell;
  return { burstGbps: burst, baselineGbps: base, jumbo: JUMBO_CELLS.has(type) };
}

/** The spec as the profile has it (the same object when the profile changes nothing for the type). */
export function profiledSpec(spec: InstanceTypeSpec, profile: Profile | undefined): InstanceTypeSpec {
  if (profile !== 'aws-2018') return spec;
  const cell = netflix18Cell(spec.name);
  if (cell === undefined) return spec;
  const text =
    cell.burstGbps === cell.baselineGbps
      ? `${cell.burstGbps} Gbps`
      : `${cell.burstGbps} Gbps burst / ${cell.baselineGbps * 1000} Mbps baseline`;
  const note = `NETFLIX18 table, ${spec.name}: ${text} (netperf, 2018-03, 1500-byte MTU${cell.jumbo ? '; ** 23 Gbps with jumbo frames from many senders' : ''}). Today's API figure: ${spec.baselineBandwidthGbps.value} / ${spec.peakBandwidthGbps.value} Gbps.`;
  const fig = (v: number): Figure<number> => measured(v, 'NETFLIX18', note);
  const burstable = cell.baselineGbps < cell.burstGbps;
  return Object.freeze({
    ...spec,
    baselineBandwidthGbps: fig(cell.baselineGbps),
    peakBandwidthGbps: fig(cell.burstGbps),
    burstCreditSeconds: burstable ? spec.burstCreditSeconds : null,
  });
}
