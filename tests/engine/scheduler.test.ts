/**
 * The scheduler fires events in (time, priority, insertion) order whatever the mix of near and far
 * events, handlers scheduling more events as they run (also at the current instant), and the heaps
 * growing past their first capacity. Checked against a plain sort of the same events.
 */
import { describe, expect, it } from 'vitest';
import { Priority, Scheduler } from '../../src/engine/core/scheduler';

/** xorshift32: a fixed sequence of draws. */
function draws(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

interface Ev {
  t: number;
  pr: number;
  seq: number;
  id: number;
}

describe('Scheduler order', () => {
  it('fires in (time, priority, insertion) order with near and far events and events scheduled while running', () => {
    const next = draws(17);
    // a small first capacity, so the slots and both heaps grow during the run
    const sched = new Scheduler(4);
    const fired: number[] = [];
    const all: Ev[] = [];
    let seq = 0;
    let id = 0;
    const add = (t: number, pr: number) => {
      const ev = { t, pr, seq: seq++, id: id++ };
      all.push(ev);
      sched.at(t, onFire, ev.id, pr);
    };
    const onFire = (arg: unknown) => {
      const k = arg as number;
      fired.push(k);
      // a third of the events schedule another: now, soon (near heap) or ms ahead (far heap)
      if (id < 20_000 && next() % 3 === 0) {
        const r = next() % 4;
        const delay =
          r === 0 ? 0 : r === 1 ? next() % 50 : r === 2 ? next() % 5_000 : 1_000_000 + (next() % 3_000_000);
        // at the current instant only at the lowest priority: an event of a higher one would fire
        // before those of this instant that already fired, which no sort of the whole run shows
        add(sched.now + delay, delay === 0 ? Priority.LOW : next() % 4);
      }
    };
    for (let i = 0; i < 2_000; i++) {
      // many ties: times on a coarse grid, both sides of the far threshold (1 ms)
      const t = (next() % 400) * 10_000;
      add(t, [Priority.STOP, Priority.HIGH, Priority.NORMAL, Priority.LOW][next() % 4]!);
    }
    sched.runUntil(Number.POSITIVE_INFINITY);
    // the reference: every event is due when it was scheduled, never in the past, so the firing
    // order is the events sorted by (time, priority, insertion)
    const expected = [...all].sort((a, b) => a.t - b.t || a.pr - b.pr || a.seq - b.seq).map((e) => e.id);
    expect(fired.length).toBe(all.length);
    expect(fired).toEqual(expected);
    expect(sched.pending).toBe(0);
  });

  it('runs in chunks: stops at untilNs and after maxEvents, and resumes in the same order', () => {
    const a = new Scheduler();
    const b = new Scheduler();
    const got: string[] = [];
    const want: string[] = [];
    const times = [5, 3, 3, 2_000_000, 9, 3, 1_500_000, 7];
    times.forEach((t, i) => {
      a.at(t, () => got.push(`${a.now}:${i}`));
      b.at(t, () => want.push(`${b.now}:${i}`));
    });
    b.runUntil(Number.POSITIVE_INFINITY);
    expect(a.runUntil(4)).toBe(3);
    expect(a.now).toBe(4);
    expect(a.runUntil(Number.POSITIVE_INFINITY, 2)).toBe(2);
    a.runUntil(Number.POSITIVE_INFINITY);
    expect(got).toEqual(want);
    expect(got[0]).toBe('3:1');
    expect(() => a.at(1, () => {})).toThrow(RangeError);
  });
});

describe('Scheduler.takeNext', () => {
  /**
   * Chains of events, each scheduling its follow-up as its last act, with ties (a coarse time grid,
   * follow-ups at the same instant), other priorities, far events, runs in chunks by time and by
   * budget, and an observer halting the run: run once with every follow-up scheduled (`at`), once
   * with follow-ups run at once when takeNext allows. Same firing order and instants, same counts.
   */
  function run(inline: boolean): string[] {
    const next = draws(91);
    const sched = new Scheduler(8);
    const log: string[] = [];
    const step = (arg: unknown) => {
      const c = arg as number;
      for (;;) {
        log.push(`${sched.now}:${c}`);
        if (log.length % 997 === 0) sched.halted = true; // an observer stopping after this event
        if (log.length > 30_000) return;
        const r = next() % 5;
        const t =
          sched.now + (r === 0 ? 0 : r === 1 ? 10 * (next() % 5) : r === 2 ? next() % 300 : 2_000_000);
        if (!inline || !sched.takeNext(t)) {
          sched.at(t, step, c);
          return;
        }
      }
    };
    const other = (arg: unknown) => log.push(`${sched.now}:o${arg as number}`);
    for (let c = 0; c < 6; c++) sched.at(10 * c, step, c);
    for (let i = 0; i < 3_000; i++)
      sched.at(
        10 * (next() % 40_000),
        other,
        i,
        [Priority.STOP, Priority.HIGH, Priority.NORMAL, Priority.LOW][i % 4],
      );
    let until = 0;
    while (sched.pending > 0) {
      const n = sched.runUntil(until, 1 + (next() % 50));
      log.push(`run ${n} ${sched.processed} ${sched.now}`);
      if (sched.halted) sched.halted = false;
      else until += next() % 400;
    }
    return log;
  }

  it('gives the same events at the same instants as scheduling every follow-up', () => {
    const plain = run(false);
    const taken = run(true);
    expect(taken.length).toBeGreaterThan(30_000);
    expect(taken).toEqual(plain);
  });

  it('refuses outside a run, past its instant or budget, and behind an event of the same instant', () => {
    const s = new Scheduler();
    expect(s.takeNext(5)).toBe(false); // no run under way
    const got: boolean[] = [];
    s.at(10, () => {
      got.push(s.takeNext(20)); // beyond untilNs = 15
      got.push(s.takeNext(12)); // before the pending event at 13: taken, the clock at 12
      got.push(s.now === 12);
      got.push(s.takeNext(13)); // the pending event at 13 (NORMAL, scheduled earlier) goes first
    });
    s.at(13, () => {});
    s.at(13, () => got.push(s.takeNext(14)), undefined, Priority.LOW);
    expect(s.runUntil(15, 3)).toBe(3); // the event at 10, the one it took, the one at 13
    expect(got).toEqual([false, true, true, false]);
    expect(s.runUntil(15, 1)).toBe(1); // a budget of one: nothing taken
    expect(got).toEqual([false, true, true, false, false]);
    expect(s.pending).toBe(0);
    expect(s.processed).toBe(4);
  });
});
