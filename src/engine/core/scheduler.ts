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
 * The heap is kept in parallel arrays (times and tie-breakers in Float64Arrays, callbacks in a plain
 * array) to avoid allocating an object per event on the hot path. There is no cancel: a component
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
  private times: Float64Array;
  private ties: Float64Array;
  private fns: (EventFn | null)[];
  private args: unknown[];
  private size = 0;
  private seq = 0;
  /** Current simulated time, ns. */
  now: SimTimeNs = 0;
  /** Events processed since creation. */
  processed = 0;

  constructor(initialCapacity = 1024) {
    this.times = new Float64Array(initialCapacity);
    this.ties = new Float64Array(initialCapacity);
    this.fns = new Array(initialCapacity).fill(null);
    this.args = new Array(initialCapacity).fill(undefined);
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
    let i = this.size++;
    const t = Math.ceil(atNs);
    const tie = priority * SEQ_SPAN + this.seq++;
    // sift up
    const times = this.times;
    const ties = this.ties;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      if (pt < t || (pt === t && ties[parent]! < tie)) break;
      times[i] = pt;
      ties[i] = ties[parent]!;
      this.fns[i] = this.fns[parent]!;
      this.args[i] = this.args[parent];
      i = parent;
    }
    times[i] = t;
    ties[i] = tie;
    this.fns[i] = fn;
    this.args[i] = arg;
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
    const times = this.times;
    while (this.size > 0 && n < maxEvents) {
      const t = this.times[0]!;
      if (t > untilNs) break;
      const fn = this.fns[0]!;
      const arg = this.args[0];
      this.popRoot();
      this.now = t;
      n++;
      fn(arg);
    }
    this.processed += n;
    if (
      n < maxEvents &&
      (this.size === 0 || times[0]! > untilNs) &&
      untilNs > this.now &&
      untilNs !== Number.POSITIVE_INFINITY
    ) {
      this.now = untilNs;
    }
    return n;
  }

  private popRoot(): void {
    const last = --this.size;
    const times = this.times;
    const ties = this.ties;
    const fns = this.fns;
    const args = this.args;
    if (last === 0) {
      fns[0] = null;
      args[0] = undefined;
      return;
    }
    const t = times[last]!;
    const tie = ties[last]!;
    const fn = fns[last]!;
    const arg = args[last];
    fns[last] = null;
    args[last] = undefined;
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let c = 2 * i + 1;
      const r = c + 1;
      if (r < last && (times[r]! < times[c]! || (times[r] === times[c] && ties[r]! < ties[c]!))) c = r;
      const ct = times[c]!;
      if (t < ct || (t === ct && tie < ties[c]!)) break;
      times[i] = ct;
      ties[i] = ties[c]!;
      fns[i] = fns[c]!;
      args[i] = args[c];
      i = c;
    }
    times[i] = t;
    ties[i] = tie;
    fns[i] = fn;
    args[i] = arg;
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const t = new Float64Array(cap);
    t.set(this.times);
    this.times = t;
    const k = new Float64Array(cap);
    k.set(this.ties);
    this.ties = k;
    for (let i = this.fns.length; i < cap; i++) {
      this.fns.push(null);
      this.args.push(undefined);
    }
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
