/**
 * The discrete-event scheduler: a binary min-heap of events on integer-nanosecond time.
 *
 * Guarantees:
 * - Total order: events fire in (time, priority, insertion sequence) order, so a run is a pure
 *   function of its inputs. Lower priority numbers fire first at equal times.
 * - Time never goes backwards; scheduling in the past is a bug and throws.
 * - `runUntil` processes at most `maxEvents` events and stops at `untilNs` (inclusive), so a caller
 *   (the worker, the CLI) can run a long simulation in chunks and stay responsive.
 *
 * The heap is kept in typed arrays (event times and slot numbers, in heap order) so sifting moves
 * no object references; each event's tie-breaker, callback and argument live in a slot that does not
 * move. No object is allocated per event. There is no cancel: a component
 * that may retract an event keeps a version number and ignores stale firings (see `Timer`).
 */
import type { SimTimeNs } from '../../lib/brand';

export type EventFn = (arg: unknown) => void;

/** Event priorities at equal times. STOP fires before anything else at its instant. */
export const Priority = {
  STOP: 0,
  HIGH: 1,
  NORMAL: 2,
  LOW: 3,
} as const;

const SEQ_SPAN = 2 ** 44; // tie = priority * 2^44 + seq; exact in a float64 up to 2^53

export class Scheduler {
  /** Heap order: event time and the slot holding the rest of the event. */
  private times: Float64Array;
  private slots: Int32Array;
  /** By slot: tie-breaker, callback, argument. Slots are recycled LIFO through `free`. */
  private ties: Float64Array;
  private fns: (EventFn | null)[];
  private args: unknown[];
  private free: Int32Array;
  private freeTop: number;
  private size = 0;
  private seq = 0;
  /** Current simulated time, ns. */
  now: SimTimeNs = 0;
  /** Events processed since creation. */
  processed = 0;

  constructor(initialCapacity = 1024) {
    const cap = Math.max(4, initialCapacity);
    this.times = new Float64Array(cap);
    this.slots = new Int32Array(cap);
    this.ties = new Float64Array(cap);
    this.fns = new Array(cap).fill(null);
    this.args = new Array(cap).fill(undefined);
    this.free = new Int32Array(cap);
    for (let i = 0; i < cap; i++) this.free[i] = cap - 1 - i;
    this.freeTop = cap;
  }

  get pending(): number {
    return this.size;
  }

  /** Time of the next event, or Infinity when the queue is empty. */
  peekTime(): number {
    return this.size > 0 ? this.times[0]! : Number.POSITIVE_INFINITY;
  }

  /** Schedule `fn(arg)` at absolute time `atNs` (integer ns, ≥ now). */
  at(atNs: SimTimeNs, fn: EventFn, arg?: unknown, priority: number = Priority.NORMAL): void {
    if (!(atNs >= this.now)) {
      throw new RangeError(`Scheduler.at: time ${atNs} is before now ${this.now}`);
    }
    if (this.size === this.times.length) this.grow();
    const slot = this.free[--this.freeTop]!;
    const t = Math.ceil(atNs);
    const tie = priority * SEQ_SPAN + this.seq++;
    const ties = this.ties;
    ties[slot] = tie;
    this.fns[slot] = fn;
    this.args[slot] = arg;
    // sift up: only the time and the slot move
    const times = this.times;
    const slots = this.slots;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      if (pt < t || (pt === t && ties[slots[parent]!]! < tie)) break;
      times[i] = pt;
      slots[i] = slots[parent]!;
      i = parent;
    }
    times[i] = t;
    slots[i] = slot;
  }

  /** Schedule `fn(arg)` after `delayNs` (≥ 0). */
  after(delayNs: number, fn: EventFn, arg?: unknown, priority: number = Priority.NORMAL): void {
    this.at(this.now + delayNs, fn, arg, priority);
  }

  /**
   * Run events with time ≤ untilNs, at most maxEvents of them. Returns the number processed.
   * When the queue holds nothing at or before untilNs, the clock advances to untilNs.
   */
  runUntil(untilNs: SimTimeNs, maxEvents = Number.POSITIVE_INFINITY): number {
    let n = 0;
    const fns = this.fns;
    const args = this.args;
    while (this.size > 0 && n < maxEvents) {
      const t = this.times[0]!;
      if (t > untilNs) break;
      const slot = this.slots[0]!;
      const fn = fns[slot]!;
      const arg = args[slot];
      // The slot is free again before the handler runs (it may schedule); the stale references it
      // keeps are overwritten when the slot is reused, LIFO, so they do not pile up.
      this.free[this.freeTop++] = slot;
      this.popRoot();
      this.now = t;
      n++;
      fn(arg);
    }
    this.processed += n;
    if (
      n < maxEvents &&
      (this.size === 0 || this.times[0]! > untilNs) &&
      untilNs > this.now &&
      untilNs !== Number.POSITIVE_INFINITY
    ) {
      this.now = untilNs;
    }
    return n;
  }

  private popRoot(): void {
    const last = --this.size;
    if (last === 0) return;
    const times = this.times;
    const slots = this.slots;
    const ties = this.ties;
    const t = times[last]!;
    const slot = slots[last]!;
    const tie = ties[slot]!;
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let c = 2 * i + 1;
      let ct = times[c]!;
      const r = c + 1;
      if (r < last) {
        const rt = times[r]!;
        if (rt < ct || (rt === ct && ties[slots[r]!]! < ties[slots[c]!]!)) {
          c = r;
          ct = rt;
        }
      }
      if (t < ct || (t === ct && tie < ties[slots[c]!]!)) break;
      times[i] = ct;
      slots[i] = slots[c]!;
      i = c;
    }
    times[i] = t;
    slots[i] = slot;
  }

  private grow(): void {
    const old = this.times.length;
    const cap = old * 2;
    const t = new Float64Array(cap);
    t.set(this.times);
    this.times = t;
    const s = new Int32Array(cap);
    s.set(this.slots);
    this.slots = s;
    const k = new Float64Array(cap);
    k.set(this.ties);
    this.ties = k;
    for (let i = old; i < cap; i++) {
      this.fns.push(null);
      this.args.push(undefined);
    }
    // every slot is in use when the heap is full: the free stack holds the new ones
    const f = new Int32Array(cap);
    for (let i = 0; i < cap - old; i++) f[i] = cap - 1 - i;
    this.free = f;
    this.freeTop = cap - old;
  }
}

/**
 * A re-armable timer on top of the scheduler, lazy in the way kernel timers are: moving the
 * expiry later (TCP re-arming its RTO on every ACK) does not add a heap event; the pending event
 * fires at the old time, sees the new expiry, and reschedules itself once. Moving it earlier adds
 * an event and invalidates the old one by version. This keeps the heap small and the run fast
 * without changing when the timer's callback runs.
 */
export class Timer {
  private version = 0;
  private armedAt = Number.POSITIVE_INFINITY;
  /** Time of the heap event currently scheduled for this timer (Infinity if none). */
  private scheduledAt = Number.POSITIVE_INFINITY;
  private readonly fire: EventFn;

  constructor(
    private readonly sched: Scheduler,
    private readonly onFire: () => void,
    private readonly priority: number = Priority.NORMAL,
  ) {
    this.fire = (v) => {
      if (v !== this.version) return;
      this.scheduledAt = Number.POSITIVE_INFINITY;
      if (this.armedAt === Number.POSITIVE_INFINITY) return; // stopped
      if (this.armedAt > this.sched.now) {
        this.scheduledAt = this.armedAt;
        this.sched.at(this.armedAt, this.fire, this.version, this.priority);
        return;
      }
      this.armedAt = Number.POSITIVE_INFINITY;
      this.onFire();
    };
  }

  get armed(): boolean {
    return this.armedAt !== Number.POSITIVE_INFINITY;
  }

  get expiresAtNs(): number {
    return this.armedAt;
  }

  /** Arm (or re-arm) to fire at absolute time `atNs`. */
  armAt(atNs: number): void {
    const t = Math.max(Math.ceil(atNs), this.sched.now);
    this.armedAt = t;
    if (this.scheduledAt <= t) return; // the pending event fires first and reschedules
    this.version++;
    this.scheduledAt = t;
    this.sched.at(t, this.fire, this.version, this.priority);
  }

  /** Arm only if not armed or if `atNs` is earlier than the current expiry. */
  armNoLaterThan(atNs: number): void {
    if (atNs < this.armedAt) this.armAt(atNs);
  }

  stop(): void {
    this.armedAt = Number.POSITIVE_INFINITY;
  }
}
