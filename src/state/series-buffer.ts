/**
 * The chart data: samples from the worker's frames, kept in growable typed arrays (time + one
 * column per sample column), bounded to the last `capacity` rows; beside them `seconds`, the row
 * at every whole simulated second for the whole run (what iperf3's intervals and CloudWatch's
 * minutes are built from, exact however long the run: the 1 ms rows of a 600 s run do not all
 * fit). Not in the store (it changes every frame); the store holds `seriesVersion` so components
 * re-render when it grows.
 */
import type { Frame } from '../protocol/sim-api';

export class SeriesBuffer {
  times = new Float64Array(0);
  data = new Float64Array(0);
  cols = 0;
  length = 0;

  /**
   * The row at each whole second (the sample at it, else the last one before it), untrimmed;
   * null in the per-second buffer itself.
   */
  readonly seconds: SeriesBuffer | null;
  /** The next whole second (ns) `seconds` waits for. */
  private nextSecondNs = 0;

  constructor(
    readonly capacity = 200_000,
    perSecond = true,
  ) {
    this.seconds = perSecond ? new SeriesBuffer(Number.POSITIVE_INFINITY, false) : null;
  }

  /**
   * Empty, for `cols` columns. `labStartNs` 0: a lab that starts now at t = 0, whose cumulative
   * counters are all 0 then; the per-second rows start with that row (its level columns, such as
   * credits, mean nothing: per-second rows serve the counters' periods only), so the first second
   * and minute count from 0 even though the first sample comes a millisecond in.
   */
  reset(cols: number, labStartNs: number | null = null): void {
    this.cols = cols;
    this.length = 0;
    this.times = new Float64Array(1024);
    this.data = new Float64Array(1024 * cols);
    this.seconds?.reset(cols);
    this.nextSecondNs = 0;
    if (labStartNs === 0 && this.seconds) {
      this.seconds.appendRow(0, new Float64Array(cols));
      this.nextSecondNs = 1e9;
    }
  }

  /** Drop rows after `ns` (rewind). */
  truncateAfter(ns: number): void {
    while (this.length > 0 && this.times[this.length - 1]! > ns) this.length--;
    if (this.seconds) {
      this.seconds.truncateAfter(ns);
      const n = this.seconds.length;
      this.nextSecondNs = n > 0 ? this.seconds.times[n - 1]! + 1e9 : 0;
    }
  }

  /** Append one row (ignored unless its time is after the last row's). */
  appendRow(t: number, values: ArrayLike<number>): void {
    if (this.cols === 0 || (this.length > 0 && t <= this.times[this.length - 1]!)) return;
    this.grow(this.length + 1);
    this.noteSeconds(t, values);
    this.times[this.length] = t;
    for (let c = 0; c < this.cols; c++) this.data[this.length * this.cols + c] = values[c] ?? 0;
    this.length++;
    this.trim();
  }

  /**
   * Before a row at `t` is added: the whole seconds up to `t` get their row (this one when it is
   * at the second, else the last one before it; a second before the first row gets none).
   */
  private noteSeconds(t: number, values: ArrayLike<number>): void {
    const sec = this.seconds;
    if (!sec) return;
    while (this.nextSecondNs <= t) {
      const b = this.nextSecondNs;
      if (t === b) sec.appendRow(b, values);
      else if (this.length > 0)
        sec.appendRow(b, this.data.subarray((this.length - 1) * this.cols, this.length * this.cols));
      this.nextSecondNs = b + 1e9;
    }
  }

  private grow(need: number): void {
    if (need <= this.times.length) return;
    const cap = Math.max(need, this.times.length * 2);
    const t = new Float64Array(cap);
    t.set(this.times.subarray(0, this.length));
    const d = new Float64Array(cap * this.cols);
    d.set(this.data.subarray(0, this.length * this.cols));
    this.times = t;
    this.data = d;
  }

  private trim(): void {
    if (this.length > this.capacity) {
      const drop = this.length - this.capacity;
      this.times.copyWithin(0, drop, this.length);
      this.data.copyWithin(0, drop * this.cols, this.length * this.cols);
      this.length -= drop;
    }
  }

  append(f: Frame): void {
    const n = f.sampleCount;
    if (n === 0 || this.cols === 0) return;
    const need = this.length + n;
    if (need > this.times.length) {
      const cap = Math.max(need, this.times.length * 2);
      const t = new Float64Array(cap);
      t.set(this.times.subarray(0, this.length));
      const d = new Float64Array(cap * this.cols);
      d.set(this.data.subarray(0, this.length * this.cols));
      this.times = t;
      this.data = d;
    }
    for (let i = 0; i < n; i++) {
      const t = f.buffers.sampleTimes[i]!;
      // frames overlap by their end sample; keep times strictly increasing
      if (this.length > 0 && t <= this.times[this.length - 1]!) continue;
      const row = f.buffers.samples.subarray(i * this.cols, (i + 1) * this.cols);
      this.noteSeconds(t, row);
      this.times[this.length] = t;
      this.data.set(row, this.length * this.cols);
      this.length++;
    }
    if (this.length > this.capacity) {
      const drop = this.length - this.capacity;
      this.times.copyWithin(0, drop, this.length);
      this.data.copyWithin(0, drop * this.cols, this.length * this.cols);
      this.length -= drop;
    }
  }

  /** Column index of `name` (e.g. "client.tx_bytes"), or -1. */
  column(names: readonly string[], name: string): number {
    return names.indexOf(name);
  }

  value(row: number, col: number): number {
    return this.data[row * this.cols + col]!;
  }
}
