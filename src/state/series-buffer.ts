/**
 * The chart data: samples from the worker's frames, kept in growable typed arrays (time + one
 * column per sample column), bounded to the last `capacity` rows. Not in the store (it changes
 * every frame); the store holds `seriesVersion` so components re-render when it grows.
 */
import type { Frame } from '../protocol/sim-api';

export class SeriesBuffer {
  times = new Float64Array(0);
  data = new Float64Array(0);
  cols = 0;
  length = 0;

  constructor(readonly capacity = 200_000) {}

  reset(cols: number): void {
    this.cols = cols;
    this.length = 0;
    this.times = new Float64Array(1024);
    this.data = new Float64Array(1024 * cols);
  }

  /** Drop rows after `ns` (rewind). */
  truncateAfter(ns: number): void {
    while (this.length > 0 && this.times[this.length - 1]! > ns) this.length--;
  }

  /** Append one row (ignored unless its time is after the last row's). */
  appendRow(t: number, values: ArrayLike<number>): void {
    if (this.cols === 0 || (this.length > 0 && t <= this.times[this.length - 1]!)) return;
    this.grow(this.length + 1);
    this.times[this.length] = t;
    for (let c = 0; c < this.cols; c++) this.data[this.length * this.cols + c] = values[c] ?? 0;
    this.length++;
    this.trim();
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
      this.times[this.length] = t;
      this.data.set(f.buffers.samples.subarray(i * this.cols, (i + 1) * this.cols), this.length * this.cols);
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
