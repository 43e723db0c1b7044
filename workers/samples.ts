/**
 * What a frame samples from the lab on the 1 ms grid: per instance, in SAMPLE_COLUMNS_PER_INSTANCE's
 * order, the ENA queue sums, the allowance counters, burst credits, drops and bytes out; and the
 * `ethtool -S` counter sets a frame carries.
 */
import type { Lab } from '../src/engine';
import { type CounterSet, type FrameBuffers, SAMPLE_COLUMNS_PER_INSTANCE } from '../src/protocol/sim-api';

/** Columns per instance in a sample row. */
export const NCOL = SAMPLE_COLUMNS_PER_INSTANCE.length;

export function writeSample(lab: Lab, drops: readonly number[], into: Float64Array, at: number): void {
  let k = at;
  let i = 0;
  for (const inst of lab.instances.values()) {
    const dev = inst.host.eth0;
    // ENA: the queue sums straight from the device (the ethtool -S list is built once a frame)
    if (!dev.queueTotals(into, k)) queueTotalsFromList(dev.statistics(), into, k);
    k += 4;
    let bwOut = 0;
    let bwIn = 0;
    let pps = 0;
    for (const [name, v] of dev.nitroCounters()) {
      if (name === 'bw_out_allowance_exceeded') bwOut = v;
      else if (name === 'bw_in_allowance_exceeded') bwIn = v;
      else if (name === 'pps_allowance_exceeded') pps = v;
    }
    into[k++] = bwOut;
    into[k++] = bwIn;
    into[k++] = pps;
    into[k++] = creditsAt(inst.nitro.creditsOut, lab.nowNs);
    into[k++] = drops[i++] ?? 0;
    into[k++] = creditsAt(inst.nitro.creditsIn, lab.nowNs);
    into[k++] = inst.nitro.traffic.bytesOut;
    // one row is NCOL columns per instance, in SAMPLE_COLUMNS_PER_INSTANCE's order: a column left
    // out shifts every later instance's (the server's rx_bytes read its tx_packets, 20a6f73)
    if (k - at !== i * NCOL) throw new Error(`writeSample wrote ${k - at} columns for ${i} instances`);
  }
}

/** The queue sums from an `ethtool -S` list (drivers other than ENA). */
function queueTotalsFromList(st: Array<[string, number]>, into: Float64Array, at: number): void {
  let txB = 0;
  let rxB = 0;
  let txP = 0;
  let rxP = 0;
  for (const [name, v] of st) {
    if (!name.startsWith('queue_')) continue;
    if (name.endsWith('_tx_bytes')) txB += v;
    else if (name.endsWith('_rx_bytes')) rxB += v;
    else if (name.endsWith('_tx_cnt')) txP += v;
    else if (name.endsWith('_rx_cnt')) rxP += v;
  }
  into[at] = txB;
  into[at + 1] = rxB;
  into[at + 2] = txP;
  into[at + 3] = rxP;
}

export function counters(lab: Lab): CounterSet[] {
  const out: CounterSet[] = [];
  for (const inst of lab.instances.values()) {
    const st = inst.host.eth0.statistics();
    out.push({ host: inst.name, names: st.map((e) => e[0]), values: Float64Array.from(st, (e) => e[1]) });
  }
  return out;
}

/** Credits an account holds at `nowNs` (accrual since its last charge included), bits; NaN without one. */
function creditsAt(
  a: { fraction(nowNs: number): number; capacityBits: number } | null,
  nowNs: number,
): number {
  return a ? a.fraction(nowNs) * a.capacityBits : Number.NaN;
}

/** Grow the frame's arrays (doubling) so `rows` rows fit. */
export function ensure(b: FrameBuffers, rows: number, cols: number): FrameBuffers {
  if (b.sampleTimes.length >= rows && b.samples.length >= rows * cols) return b;
  const cap = Math.max(rows, b.sampleTimes.length * 2, 256);
  const t = new Float64Array(cap);
  t.set(b.sampleTimes.subarray(0, Math.min(b.sampleTimes.length, rows)));
  const s = new Float64Array(cap * cols);
  s.set(b.samples.subarray(0, Math.min(b.samples.length, rows * cols)));
  return { sampleTimes: t, samples: s };
}
