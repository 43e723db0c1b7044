/**
 * A first-in first-out queue on a growable circular buffer, for the simulation's hot paths (device
 * rings, shaper queues).
 *
 * Guarantees: items come out in the order they went in (`insert` and `removeAt` aside); push, shift,
 * peek, at, set and replaceHead are O(1) (push amortised: the buffer doubles when full and never shrinks).
 * Unlike an array used with a head index it never has to be reset or compacted (resetting an array's
 * length is a runtime call in V8, which showed up in profiles), and it allocates nothing per item.
 */
export class Fifo<T> {
  private buf: (T | undefined)[];
  private mask: number;
  private head = 0;
  /** Items queued. */
  length = 0;

  /** @param capacity initial capacity, rounded up to a power of two */
  constructor(capacity = 16) {
    let cap = 4;
    while (cap < capacity) cap *= 2;
    this.buf = new Array<T | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
  }

  push(x: T): void {
    if (this.length > this.mask) this.grow();
    this.buf[(this.head + this.length) & this.mask] = x;
    this.length++;
  }

  /** The oldest item. Precondition: length > 0. */
  peek(): T {
    return this.buf[this.head] as T;
  }

  /** Item `i` from the front (0 = oldest). Precondition: 0 ≤ i < length. */
  at(i: number): T {
    return this.buf[(this.head + i) & this.mask] as T;
  }

  /** Remove and return the oldest item. Precondition: length > 0. */
  shift(): T {
    const x = this.buf[this.head] as T;
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.length--;
    return x;
  }

  /** Replace the oldest item (a split batch leaves its remainder at the front). Precondition: length > 0. */
  replaceHead(x: T): void {
    this.buf[this.head] = x;
  }

  /**
   * Insert `x` as item `i` from the front (0 ≤ i ≤ length); the items on the shorter side of `i`
   * move one away from it. O(min(i, length − i)).
   */
  insert(i: number, x: T): void {
    if (this.length > this.mask) this.grow();
    if (i < this.length - i) {
      this.head = (this.head - 1) & this.mask;
      for (let j = 0; j < i; j++)
        this.buf[(this.head + j) & this.mask] = this.buf[(this.head + j + 1) & this.mask];
    } else {
      for (let j = this.length; j > i; j--)
        this.buf[(this.head + j) & this.mask] = this.buf[(this.head + j - 1) & this.mask];
    }
    this.buf[(this.head + i) & this.mask] = x;
    this.length++;
  }

  /** Replace item `i` from the front (0 ≤ i < length). */
  set(i: number, x: T): void {
    this.buf[(this.head + i) & this.mask] = x;
  }

  /**
   * Remove item `i` from the front (0 ≤ i < length); the items on its shorter side move one
   * towards it. O(min(i, length − i)): `removeAt(0)` is `shift`.
   */
  removeAt(i: number): void {
    const last = this.length - 1;
    if (i < last - i) {
      for (let j = i; j > 0; j--)
        this.buf[(this.head + j) & this.mask] = this.buf[(this.head + j - 1) & this.mask];
      this.buf[this.head] = undefined;
      this.head = (this.head + 1) & this.mask;
    } else {
      for (let j = i; j < last; j++)
        this.buf[(this.head + j) & this.mask] = this.buf[(this.head + j + 1) & this.mask];
      this.buf[(this.head + last) & this.mask] = undefined;
    }
    this.length--;
  }

  private grow(): void {
    const old = this.buf;
    const n = old.length;
    const next = new Array<T | undefined>(n * 2).fill(undefined);
    for (let i = 0; i < this.length; i++) next[i] = old[(this.head + i) & this.mask];
    this.buf = next;
    this.mask = n * 2 - 1;
    this.head = 0;
  }
}
