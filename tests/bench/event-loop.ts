/**
 * The two event loops the speed target compares: a bare typed-array binary heap (the floor: no
 * closures, no objects, everything inlined in one function) and the engine's Scheduler driven the
 * same way (a no-op handler that reschedules itself).
 *
 * Guarantees: both loops start from the same `pending` events, process exactly `events` events,
 * draw the same xorshift32 delay sequence (one draw per push) and break time ties by insertion
 * order, so they fire the same events in the same order; `checksum` (a hash of the firing times in
 * order) lets the caller check that, so the ratio compares equal work.
 */
import { performance } from 'node:perf_hooks';
import { Scheduler } from '../../src/engine/core/scheduler';

export interface LoopResult {
  events: number;
  wallMs: number;
  /** Hash of (firing time, firing index) in order; equal for both loops when they did the same work. */
  checksum: number;
  /** Simulated time at the end, ns. */
  endNs: number;
}

/** Delays are 1..2048 ns: random enough to exercise the heap, integer as engine times are. */
const DELAY_MASK = 2047;

/**
 * Bare loop: pop the minimum (time, seq), count it, push time + next delay. Parallel Float64Arrays,
 * sift-down / sift-up written out inline.
 */
export function bareHeapLoop(events: number, pending: number, seed: number): LoopResult {
  const cap = pending + 1;
  const times = new Float64Array(cap);
  const ties = new Float64Array(cap);
  let size = 0;
  let seq = 0;
  let x = seed | 0 || 1;
  let now = 0;
  let checksum = 0;

  const t0 = performance.now();
  // prefill: same pushes as the scheduler's prefill (sift up)
  for (let k = 0; k < pending; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const t = now + 1 + (x & DELAY_MASK);
    const tie = seq++;
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = times[p]!;
      if (pt < t || (pt === t && ties[p]! < tie)) break;
      times[i] = pt;
      ties[i] = ties[p]!;
      i = p;
    }
    times[i] = t;
    ties[i] = tie;
  }

  for (let n = 0; n < events; n++) {
    // pop min
    now = times[0]!;
    const last = --size;
    if (last > 0) {
      const lt = times[last]!;
      const ltie = ties[last]!;
      let i = 0;
      const half = last >> 1;
      while (i < half) {
        let c = 2 * i + 1;
        const r = c + 1;
        if (r < last && (times[r]! < times[c]! || (times[r] === times[c] && ties[r]! < ties[c]!))) c = r;
        const ct = times[c]!;
        if (lt < ct || (lt === ct && ltie < ties[c]!)) break;
        times[i] = ct;
        ties[i] = ties[c]!;
        i = c;
      }
      times[i] = lt;
      ties[i] = ltie;
    }
    // the "handler": count and reschedule
    checksum = (checksum + Math.imul(now | 0, (n | 0) + 1)) | 0;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const t = now + 1 + (x & DELAY_MASK);
    const tie = seq++;
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = times[p]!;
      if (pt < t || (pt === t && ties[p]! < tie)) break;
      times[i] = pt;
      ties[i] = ties[p]!;
      i = p;
    }
    times[i] = t;
    ties[i] = tie;
  }
  const wallMs = performance.now() - t0;
  return { events, wallMs, checksum, endNs: now };
}

/**
 * The engine's Scheduler doing the same: `pending` events scheduled with `at`, each firing a handler
 * that counts itself and reschedules with `after`; `runUntil(∞, events)` processes exactly `events`.
 * `chunkEvents` splits the run into runUntil calls of that many events, as the runner does.
 */
export function schedulerLoop(
  events: number,
  pending: number,
  seed: number,
  chunkEvents = Number.POSITIVE_INFINITY,
): LoopResult {
  // capacity as the engine's Lab gives it (4096) unless more is needed; growth happens in the prefill
  const sched = new Scheduler(Math.max(4096, pending + 1));
  let x = seed | 0 || 1;
  let n = 0;
  let checksum = 0;
  const tick = (): void => {
    checksum = (checksum + Math.imul(sched.now | 0, (n | 0) + 1)) | 0;
    n++;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    sched.after(1 + (x & DELAY_MASK), tick);
  };

  const t0 = performance.now();
  for (let k = 0; k < pending; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    sched.at(1 + (x & DELAY_MASK), tick);
  }
  let left = events;
  while (left > 0) left -= sched.runUntil(Number.POSITIVE_INFINITY, Math.min(left, chunkEvents));
  const wallMs = performance.now() - t0;
  return { events: sched.processed, wallMs, checksum, endNs: sched.now };
}
