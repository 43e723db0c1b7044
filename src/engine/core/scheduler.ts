/**
 * The discrete-event scheduler: binary min-heaps of events on integer-nanosecond time.
 *
 * Guarantees: events fire in (time, priority, insertion sequence) order (lower priority numbers
 * first at equal times), so a run is a pure function of its inputs; time never goes backwards
 * (scheduling in the past throws); `runUntil` processes at most `maxEvents` events and stops at
 * `untilNs` inclusive, so callers can run in chunks. No cancel: a component that may retract an
 * event keeps a version number and ignores stale firings (`Timer`). How the heaps avoid allocation
 * and keep the packet path's heap small: docs/design.md, "The scheduler".
 */
import type { SimTimeNs } from '../../lib/brand';
import { storeAsDoubles } from './doubles';

export type EventFn = (arg: unknown) => void;

/**
 * The constants of the hot path, as an enum so that the compiler (esbuild) writes their values where
 * they are used: a module-level `const` is read from the module's context at every use, with a type
 * check (in `at`, `takeNext` and the loop, 0.6 % of a per-packet run's instructions).
 */
enum K {
  /** tie = priority × 2^44 + seq; exact in a float64 up to 2^53. */
  SEQ_SPAN = 17_592_186_044_416,
  /**
   * Events further ahead than this go to the far heap. Any value gives the same order (the two
   * heads are compared on every pop); this one keeps the near heap small: packet-path events are µs
   * ahead, while TCP's RTO, loss-probe and delayed-ACK timers (ms ahead, almost always re-armed
   * lazily before they fire) would otherwise sit at the heap's bottom and be sifted through it on
   * every pop.
   */
  FAR_NS = 1_000_000,
  /** The priority of most events (Priority.NORMAL). */
  NORMAL = 2,
}

/** Event priorities at equal times. STOP fires before anything else at its instant. */
export const Priority = {
  STOP: 0,
  HIGH: 1,
  NORMAL: K.NORMAL,
  LOW: 3,
} as const;

/**
 * A binary min-heap of events in typed arrays, ordered by (time, tie); each entry also names its
 * slot (callback and argument). The tie is kept beside the time, not looked up by slot, so a
 * comparison reads no third array.
 */
class EventHeap {
  times: Float64Array;
  ties: Float64Array;
  slots: Int32Array;
  size = 0;

  constructor(cap: number) {
    this.times = new Float64Array(cap);
    this.ties = new Float64Array(cap);
    this.slots = new Int32Array(cap);
  }

  push(t: number, tie: number, slot: number): void {
    if (this.size === this.times.length) this.grow();
    const times = this.times;
    const ties = this.ties;
    const slots = this.slots;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      if (pt < t || (pt === t && ties[parent]! < tie)) break;
      times[i] = pt;
      ties[i] = ties[parent]!;
      slots[i] = slots[parent]!;
      i = parent;
    }
    times[i] = t;
    ties[i] = tie;
    slots[i] = slot;
  }

  private grow(): void {
    const cap = this.times.length * 2;
    const tt = new Float64Array(cap);
    tt.set(this.times);
    this.times = tt;
    const kk = new Float64Array(cap);
    kk.set(this.ties);
    this.ties = kk;
    const ss = new Int32Array(cap);
    ss.set(this.slots);
    this.slots = ss;
  }

  /** Remove the root. Precondition: size > 0. */
  pop(): void {
    const last = --this.size;
    if (last === 0) return;
    const times = this.times;
    const ties = this.ties;
    const slots = this.slots;
    const t = times[last]!;
    const tie = ties[last]!;
    const slot = slots[last]!;
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let c = 2 * i + 1;
      let ct = times[c]!;
      let ck = ties[c]!;
      const r = c + 1;
      if (r < last) {
        const rt = times[r]!;
        const rk = ties[r]!;
        if (rt < ct || (rt === ct && rk < ck)) {
          c = r;
          ct = rt;
          ck = rk;
        }
      }
      if (t < ct || (t === ct && tie < ck)) break;
      times[i] = ct;
      ties[i] = ck;
      slots[i] = slots[c]!;
      i = c;
    }
    times[i] = t;
    ties[i] = tie;
    slots[i] = slot;
  }
}

export class Scheduler {
  /** Events due within K.FAR_NS of when they were scheduled, and the others. */
  private readonly near: EventHeap;
  private readonly far: EventHeap;
  /** By slot: callback, argument. Slots are recycled LIFO through `free`. */
  private fns: (EventFn | null)[];
  private args: unknown[];
  private free: Int32Array;
  private freeTop: number;
  private seq = 0;
  /** Current simulated time, ns. */
  now: SimTimeNs = 0;
  /** Events processed since creation. */
  processed = 0;
  /**
   * Set by an observer (the worker's "step to the next packet at a stage", "run until the first
   * drop") to end `runUntil` right after the event being processed, as an exhausted budget would.
   * It stays set (every `runUntil` returns at once) until the caller clears it.
   */
  halted = false;
  /**
   * The runUntil under way: its last instant, its budget and the events it has processed (the one
   * running included), for takeNext. No run: runEnd is -Infinity.
   */
  private runEnd = Number.NEGATIVE_INFINITY;
  private runMax = 0;
  private runN = 0;

  constructor(initialCapacity = 1024) {
    const cap = Math.max(4, initialCapacity);
    this.near = new EventHeap(cap);
    this.far = new EventHeap(64);
    this.fns = new Array(cap).fill(null);
    this.args = new Array(cap).fill(undefined);
    this.free = new Int32Array(cap);
    for (let i = 0; i < cap; i++) this.free[i] = cap - 1 - i;
    this.freeTop = cap;
    storeAsDoubles(this, ['now']); // passes 2^31 ns after 2.1 s (core/doubles.ts)
  }

  get pending(): number {
    return this.near.size + this.far.size;
  }

  /** Time of the next event, or Infinity when the queue is empty. */
  peekTime(): number {
    const a = this.near.size > 0 ? this.near.times[0]! : Number.POSITIVE_INFINITY;
    const b = this.far.size > 0 ? this.far.times[0]! : Number.POSITIVE_INFINITY;
    return a < b ? a : b;
  }

  /** Schedule `fn(arg)` at absolute time `atNs` (integer ns, ≥ now). */
  at(atNs: SimTimeNs, fn: EventFn, arg?: unknown, priority: number = K.NORMAL): void {
    if (!(atNs >= this.now)) {
      throw new RangeError(`Scheduler.at: time ${atNs} is before now ${this.now}`);
    }
    if (this.freeTop === 0) this.growSlots();
    const slot = this.free[--this.freeTop]!;
    const t = Math.ceil(atNs);
    const tie = priority * K.SEQ_SPAN + this.seq++;
    this.fns[slot] = fn;
    this.args[slot] = arg;
    if (t - this.now > K.FAR_NS) this.far.push(t, tie, slot);
    else this.near.push(t, tie, slot);
  }

  /** Schedule `fn(arg)` after `delayNs` (≥ 0). */
  after(delayNs: number, fn: EventFn, arg?: unknown, priority: number = Priority.NORMAL): void {
    this.at(this.now + delayNs, fn, arg, priority);
  }

  /**
   * For a handler's last act, scheduling its own follow-up `fn` at `atNs` (priority NORMAL): true
   * when that event would be the next to fire and the run under way would run it (not past its
   * instant or budget, not halted). The clock is then at `atNs` and the event counted, and the
   * caller runs the follow-up at once instead of scheduling it; false: schedule it with `at`. The
   * order of events is the same (ties included: a new event follows every pending one of its time
   * and priority); what is saved is the heap's push and pop and the dispatch
   * (docs/design.md, "The scheduler").
   */
  takeNext(atNs: number): boolean {
    const t = Math.ceil(atNs);
    if (!(t >= this.now) || t > this.runEnd || this.runN >= this.runMax || this.halted) return false;
    const tie = K.NORMAL * K.SEQ_SPAN + this.seq;
    const near = this.near;
    if (near.size > 0) {
      const ht = near.times[0]!;
      if (ht < t || (ht === t && near.ties[0]! < tie)) return false;
    }
    const far = this.far;
    if (far.size > 0) {
      const ht = far.times[0]!;
      if (ht < t || (ht === t && far.ties[0]! < tie)) return false;
    }
    this.seq++;
    this.now = t;
    this.runN++;
    return true;
  }

  /**
   * Run events with time ≤ untilNs, at most maxEvents of them. Returns the number processed.
   * When the queue holds nothing at or before untilNs, the clock advances to untilNs.
   */
  runUntil(untilNs: SimTimeNs, maxEvents = Number.POSITIVE_INFINITY): number {
    let n = 0;
    const fns = this.fns;
    const args = this.args;
    const near = this.near;
    const far = this.far;
    // a handler running the scheduler itself: its run's state is restored at the end
    const outerEnd = this.runEnd;
    const outerMax = this.runMax;
    const outerN = this.runN;
    this.runEnd = untilNs;
    this.runMax = maxEvents;
    while (n < maxEvents && !this.halted) {
      // the earlier of the two heads, by (time, tie)
      let h: EventHeap;
      if (near.size > 0) {
        h = near;
        if (far.size > 0) {
          const ft = far.times[0]!;
          const nt = near.times[0]!;
          if (ft < nt || (ft === nt && far.ties[0]! < near.ties[0]!)) h = far;
        }
      } else if (far.size > 0) h = far;
      else break;
      const t = h.times[0]!;
      if (t > untilNs) break;
      const slot = h.slots[0]!;
      const fn = fns[slot]!;
      const arg = args[slot];
      // The slot is free again before the handler runs (it may schedule). Its references are
      // cleared: a slot deep in the free stack (the high-water mark of a busy stretch) may not be
      // reused for a long time, and a stale callback keeps what it closes over alive (every
      // connection of an ab run stayed in memory through them).
      fns[slot] = null;
      args[slot] = undefined;
      this.free[this.freeTop++] = slot;
      h.pop();
      this.now = t;
      this.runN = n + 1;
      fn(arg);
      n = this.runN; // with the follow-ups the handler ran at once (takeNext)
    }
    this.runEnd = outerEnd;
    this.runMax = outerMax;
    this.runN = outerN;
    this.processed += n;
    if (
      n < maxEvents &&
      !this.halted &&
      this.peekTime() > untilNs &&
      untilNs > this.now &&
      untilNs !== Number.POSITIVE_INFINITY
    ) {
      this.now = untilNs;
    }
    return n;
  }

  /** All slots are in use: double them (the new ones go on the free stack). */
  private growSlots(): void {
    const old = this.fns.length;
    const cap = old * 2;
    for (let i = old; i < cap; i++) {
      this.fns.push(null);
      this.args.push(undefined);
    }
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
    const t = this.expiryFor(atNs);
    this.armedAt = t;
    if (this.scheduledAt <= t) return; // the pending event fires first and reschedules
    this.version++;
    this.scheduledAt = t;
    this.sched.at(t, this.fire, this.version, this.priority);
  }

  /** The expiry `armAt(atNs)` sets: `atNs` rounded up to the ns, never before now. */
  expiryFor(atNs: number): number {
    return Math.max(Math.ceil(atNs), this.sched.now);
  }

  /**
   * Whether `armAt(atNs)` would change nothing: armed for that very time (its event is at or before
   * it). Small enough to inline where `armAt` is not (TCP's loss probe, armed for the same time by
   * every send of an instant).
   */
  armedFor(atNs: number): boolean {
    return this.expiryFor(atNs) === this.armedAt;
  }

  /** Arm only if not armed or if `atNs` is earlier than the current expiry. */
  armNoLaterThan(atNs: number): void {
    if (atNs < this.armedAt) this.armAt(atNs);
  }

  stop(): void {
    this.armedAt = Number.POSITIVE_INFINITY;
  }
}
