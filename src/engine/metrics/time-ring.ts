/**
 * Time-indexed bucket storage for the metrics recorder.
 *
 * - `TimeRing`: the last `capacity` buckets of `stepNs` each (bucket index = floor(t / stepNs)),
 *   Float32, allocated lazily in chunks of CHUNK buckets so a short run uses little memory and a long
 *   one never more than `capacity` buckets. Buckets skipped when time advances are set to a fill
 *   value (0 for counters, the level held for occupancy); older buckets are overwritten.
 * - `GrowArray`: buckets from time 0 for the whole run (the coarse tier), Float64 or Float32, doubling.
 *
 * Guarantees: O(1) amortised per write; a bucket outside the retained range reads as NaN.
 */

const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;

export class TimeRing {
  private readonly chunks: (Float32Array | undefined)[];
  private readonly mask: number;
  /** Highest bucket index written (−1: none yet). */
  hi = -1;

  constructor(
    readonly stepNs: number,
    readonly capacity: number,
  ) {
    if (capacity < CHUNK || (capacity & (capacity - 1)) !== 0)
      throw new RangeError(`TimeRing capacity must be a power of 2 ≥ ${CHUNK}`);
    this.mask = capacity - 1;
    this.chunks = new Array(capacity >> CHUNK_BITS);
  }

  /** Lowest bucket index still retained. */
  get lo(): number {
    return Math.max(0, this.hi - this.capacity + 1);
  }

  /** Make bucket `i` current: buckets after the last one written, up to `i`, take `fill`. */
  advance(i: number, fill: number): void {
    if (i <= this.hi) return;
    let from = this.hi + 1;
    if (i === from) {
      // the next bucket (most calls)
      const slot = i & this.mask;
      const c = this.chunks[slot >> CHUNK_BITS];
      if (c !== undefined) c[slot & (CHUNK - 1)] = fill;
      else if (fill !== 0) this.chunk(slot)[slot & (CHUNK - 1)] = fill;
      this.hi = i;
      return;
    }
    if (i - from >= this.capacity) from = i - this.capacity + 1;
    // a chunk's run of slots at a time (a 10 µs ring advanced over an idle millisecond fills 100)
    for (let j = from; j <= i; ) {
      const slot = j & this.mask;
      const off = slot & (CHUNK - 1);
      const len = Math.min(CHUNK - off, i - j + 1);
      const c = this.chunks[slot >> CHUNK_BITS];
      if (c !== undefined) c.fill(fill, off, off + len);
      else if (fill !== 0) this.chunk(slot).fill(fill, off, off + len); // a fresh chunk is all zeros already
      j += len;
    }
    this.hi = i;
  }

  private chunk(slot: number): Float32Array {
    const k = slot >> CHUNK_BITS;
    let c = this.chunks[k];
    if (c === undefined) {
      c = new Float32Array(CHUNK);
      this.chunks[k] = c;
    }
    return c;
  }

  /** Add `v` to the current bucket `i` (precondition: advance(i) was called). */
  add(i: number, v: number): void {
    const slot = i & this.mask;
    this.chunk(slot)[slot & (CHUNK - 1)]! += v;
  }

  /** Raise bucket `i` to at least `v`. */
  max(i: number, v: number): void {
    const slot = i & this.mask;
    const c = this.chunk(slot);
    const k = slot & (CHUNK - 1);
    if (v > c[k]!) c[k] = v;
  }

  /** Bucket `i`, or NaN when it is not retained (not yet reached or overwritten). */
  get(i: number): number {
    if (i > this.hi || i < this.lo) return Number.NaN;
    const slot = i & this.mask;
    const c = this.chunks[slot >> CHUNK_BITS];
    return c === undefined ? 0 : c[slot & (CHUNK - 1)]!;
  }

  /**
   * Buckets from+0 … from+out.length−1 into `out`, a chunk at a time (NaN where not retained, as
   * `get`): what a query reads instead of calling `get` per bucket.
   */
  readInto(from: number, out: Float64Array): void {
    const n = out.length;
    const lo = this.lo;
    const hi = this.hi;
    let k = 0;
    while (k < n) {
      const i = from + k;
      if (i > hi) {
        out.fill(Number.NaN, k);
        return;
      }
      if (i < lo) {
        const len = Math.min(lo - i, n - k);
        out.fill(Number.NaN, k, k + len);
        k += len;
        continue;
      }
      const slot = i & this.mask;
      const off = slot & (CHUNK - 1);
      const len = Math.min(CHUNK - off, n - k, hi - i + 1);
      const c = this.chunks[slot >> CHUNK_BITS];
      if (c === undefined) out.fill(0, k, k + len);
      else out.set(c.subarray(off, off + len), k);
      k += len;
    }
  }

  /** Bytes allocated. */
  get sizeBytes(): number {
    let n = 0;
    for (const c of this.chunks) if (c) n += c.byteLength;
    return n;
  }
}

export class GrowArray {
  private a: Float64Array | Float32Array;

  /**
   * `precision` 32 halves the memory where a value needs no more (a maximum or a mean, not a sum of
   * bytes that can pass 2^24).
   */
  constructor(private readonly precision: 32 | 64 = 64) {
    this.a = precision === 32 ? new Float32Array(64) : new Float64Array(64);
  }
  /** Buckets written so far (index of the highest + 1). */
  length = 0;

  private ensure(i: number): void {
    if (i < this.length) return;
    if (i >= this.a.length) {
      let n = this.a.length;
      while (n <= i) n *= 2;
      const b = this.precision === 32 ? new Float32Array(n) : new Float64Array(n);
      b.set(this.a);
      this.a = b;
    }
    this.length = i + 1;
  }

  add(i: number, v: number): void {
    this.ensure(i);
    this.a[i]! += v;
  }

  max(i: number, v: number): void {
    this.ensure(i);
    if (v > this.a[i]!) this.a[i] = v;
  }

  /** Set buckets from the first unwritten one through `i` to `fill` (a level held meanwhile). */
  advance(i: number, fill: number): void {
    const from = this.length;
    this.ensure(i);
    if (fill !== 0) for (let j = from; j <= i; j++) this.a[j] = fill;
  }

  get(i: number): number {
    return i < this.length ? this.a[i]! : Number.NaN;
  }

  /**
   * Merge bucket pairs (2k, 2k+1) into bucket k, by sum or by max: the array then covers the same
   * time at half the resolution in half the buckets (the caller doubles its step).
   */
  halve(how: 'sum' | 'max'): void {
    const a = this.a;
    const n = Math.ceil(this.length / 2);
    for (let k = 0; k < n; k++) {
      const x = a[2 * k]!;
      const y = 2 * k + 1 < this.length ? a[2 * k + 1]! : how === 'sum' ? 0 : x;
      a[k] = how === 'sum' ? x + y : Math.max(x, y);
    }
    a.fill(0, n, this.length);
    this.length = n;
  }

  /** Buckets from+0 … into `out` (NaN past the last written, as `get`). */
  readInto(from: number, out: Float64Array): void {
    const n = out.length;
    const end = Math.max(0, Math.min(n, this.length - from));
    if (end > 0) out.set(this.a.subarray(from, from + end));
    if (end < n) out.fill(Number.NaN, end);
  }

  get sizeBytes(): number {
    return this.a.byteLength;
  }
}
