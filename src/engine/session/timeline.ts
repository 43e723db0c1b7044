/**
 * The lab's timeline for the UI: one live run, the recorded command log (which may reach past the
 * live run's instant after a seek back), and checkpoints that make seeking fast.
 *
 * Guarantees: `seek(t)` is exact (model, transcript, counters and path frames equal a run driven
 * straight from 0 to t by the same log); a seek can go in slices and be cancelled, leaving the
 * live run untouched; a command typed before the end forks the timeline there; memory is bounded
 * (`maxCheckpoints` built runs plus the last two live runs a seek left behind).
 *
 * Why checkpoints are frozen runs rather than clones, and what they cost:
 * docs/design.md, "Seeking: checkpoints are frozen runs".
 */
import type { Scenario } from '../../scenario/schema';
import type { AdvanceResult, InteractiveSession, SessionLogEntry } from './interactive-session';
import type { Lab } from '../lab/lab';
import { createLab } from './runner';

/** Window before a seek's target in which the path recorder follows batches. */
export const SEEK_DETAIL_WINDOW_NS = 2_000_000;

/** A run of the lab with its observers (the worker's: path recorder, drop counts). */
export interface TimelineRun {
  readonly session: InteractiveSession;
  /** Follow batches along the path (on) or count only (off). */
  setDetail(on: boolean): void;
  /** Forget what the recorder followed and follow afresh from now (PathRecorder.restartDetail). */
  restartDetail(): void;
  /** Detach the observers: the run is dropped. */
  dispose(): void;
}

export interface TimelineOptions {
  /** Checkpoints built in the background kept at most (default 6; seeks also keep up to 2 live runs they left). */
  maxCheckpoints?: number;
  /** Live runs left behind by seeks kept at most (default 2). */
  maxStashed?: number;
  /** A replay gap cheaper than this many events is not worth a checkpoint (default 150,000). */
  minGapEvents?: number;
  detailWindowNs?: number;
}

interface Checkpoint<R> {
  run: R;
  atNs: number;
  /** Model events processed from 0 to atNs. */
  events: number;
  /** A live run left behind by a seek (kept few), rather than one built in the background. */
  stashed: boolean;
  /** Left exactly as a seek to atNs made it: restoring it needs no replay at all. */
  exact: boolean;
  /** Order of arrival (the oldest stashed run goes first). */
  seq: number;
}

export interface TimelineStats {
  /** Checkpoints built in the background, and the events their replays cost. */
  built: number;
  buildEvents: number;
  /** Seeks, the events they replayed, and how many started from a checkpoint (or the live run). */
  seeks: number;
  seekEvents: number;
  fromCheckpoint: number;
  /** Where the last seek started from (ns; 0: a fresh lab). */
  lastBaseNs: number;
}

export class Timeline<R extends TimelineRun> {
  /** The recorded log: entries the live run applied, then any it has not reached yet (after a seek back). */
  private log: SessionLogEntry[] = [];
  private cps: Checkpoint<R>[] = [];
  /** (ns, events processed from 0) along the timeline, increasing: what a replay to ns costs. */
  private costT: number[] = [0];
  private costE: number[] = [0];
  private builder: { run: R; targetNs: number } | null = null;
  /**
   * A seek going on in steps (`seekStart`, `seekStep`): the run it replays is `current`; the live
   * run it left (`original`, null when it replays the live run itself) is held aside, untouched,
   * for `seekCancel`.
   */
  private pending: {
    original: R | null;
    originalExact: number | null;
    targetNs: number;
    fromNs: number;
    baseNs: number;
    restarted: boolean;
  } | null = null;
  /** The live run is exactly as a seek to this instant left it (null once it moved). */
  private exactAt: number | null = null;
  private seq = 0;
  private readonly max: number;
  private readonly maxStashed: number;
  private readonly minGap: number;
  private readonly window: number;
  /** The furthest simulated instant the timeline has reached. */
  furthestNs = 0;
  current: R;
  readonly stats: TimelineStats = {
    built: 0,
    buildEvents: 0,
    seeks: 0,
    seekEvents: 0,
    fromCheckpoint: 0,
    lastBaseNs: 0,
  };

  constructor(
    private readonly scenario: Scenario,
    private readonly make: (lab: Lab) => R,
    opts: TimelineOptions = {},
  ) {
    this.max = opts.maxCheckpoints ?? 6;
    this.maxStashed = opts.maxStashed ?? 2;
    this.minGap = opts.minGapEvents ?? 150_000;
    this.window = opts.detailWindowNs ?? SEEK_DETAIL_WINDOW_NS;
    this.current = this.fresh();
  }

  get nowNs(): number {
    return this.current.session.nowNs;
  }

  /** The whole recorded log (including entries past the live instant). */
  get commandLog(): readonly SessionLogEntry[] {
    return this.log;
  }

  /** Instants of the checkpoints held (for the scrubber's marks). */
  get checkpointTimes(): number[] {
    return this.cps.map((c) => c.atNs);
  }

  /** A seek in steps going on: from the base's instant to the target, the replay now at `atNs`. */
  get seeking(): { fromNs: number; toNs: number; atNs: number } | null {
    const p = this.pending;
    return p ? { fromNs: p.baseNs, toNs: p.targetNs, atNs: this.current.session.nowNs } : null;
  }

  /** Replace the log and go to `toNs` (a respawned worker, a shared link). */
  load(log: readonly SessionLogEntry[], toNs: number, furthestNs = 0): void {
    this.seekCancel();
    this.log = log.map((e) => ({ ...e }));
    this.furthestNs = Math.max(furthestNs, toNs, this.log.at(-1)?.atNs ?? 0);
    this.seek(toNs);
  }

  /** Type a line at the live instant (forks the timeline there). False while a foreground job runs. */
  submit(line: string): boolean {
    this.seekCancel();
    const s = this.current.session;
    if (s.foreground) return false;
    this.fork();
    this.exactAt = null;
    const ok = s.submit(line);
    if (ok) this.log.push({ ...s.commandLog.at(-1)! });
    return ok;
  }

  /** Ctrl-C at the live instant (forks the timeline there). */
  interrupt(): boolean {
    this.seekCancel();
    const s = this.current.session;
    if (!s.foreground) return false;
    this.fork();
    this.exactAt = null;
    const ok = s.interrupt();
    if (ok) this.log.push({ ...s.commandLog.at(-1)! });
    return ok;
  }

  /** Advance the live run (replaying recorded entries as their instants come). */
  advance(
    toNs: number,
    maxEvents = Number.POSITIVE_INFINITY,
    onGridPoint?: (ns: number) => void,
  ): AdvanceResult {
    // the lab plays on from where it was: a seek still going on is called off
    this.seekCancel();
    return this.drive(this.current, toNs, maxEvents, onGridPoint);
  }

  /**
   * Go to `toNs` within [0, furthestNs]: from the latest usable checkpoint (or the live run, or a
   * fresh lab) with replay to the target. The live run left behind becomes a checkpoint.
   */
  seek(toNs: number): void {
    if (!this.seekStart(toNs)) this.seekStep(Number.POSITIVE_INFINITY);
  }

  /**
   * Begin a seek to `toNs` (as `seek`): restores the base and replays nothing yet. True when it is
   * already done (the instant is there, or a run a seek left there is taken back, or a short step
   * forward); otherwise `seekStep` replays in slices and `seekCancel` calls it off. A seek still
   * going on is cancelled first.
   */
  seekStart(toNs: number, opts: { redraw?: boolean } = {}): boolean {
    this.seekCancel();
    const t = Math.max(0, Math.min(Math.round(toNs), this.furthestNs));
    const cur = this.current;
    const curNs = cur.session.nowNs;
    const from = Math.max(0, t - this.window);
    this.stats.seeks++;
    if (this.exactAt === t && curNs === t) return true;
    // redraw: the lab is at t but ran there without detail; replay the window before t with it
    const redraw = opts.redraw === true && curNs === t;
    // a run a seek to t left behind, untouched since: take it back as it is
    const exact = this.cps.findIndex((c) => c.exact && c.atNs === t && this.valid(c.run));
    if (exact >= 0) {
      const base = this.cps.splice(exact, 1)[0]!.run;
      this.stash(cur);
      this.current = base;
      this.exactAt = t;
      this.stats.lastBaseNs = t;
      this.stats.fromCheckpoint++;
      return true;
    }
    if (!redraw && curNs <= t && curNs > from) {
      // a short step forward: play on
      this.stats.lastBaseNs = curNs;
      cur.setDetail(true);
      this.stats.seekEvents += this.drive(cur, t, Number.POSITIVE_INFINITY).events;
      this.exactAt = null;
      return true;
    }
    // the latest base at or before `from`: a checkpoint, the live run, or a fresh lab
    let best = -1;
    for (let i = 0; i < this.cps.length; i++) {
      const c = this.cps[i]!;
      if (c.atNs <= from && this.valid(c.run) && (best < 0 || c.atNs > this.cps[best]!.atNs)) best = i;
    }
    let base: R;
    if (curNs <= from && (best < 0 || this.cps[best]!.atNs <= curNs)) base = cur;
    else if (best >= 0) base = this.cps.splice(best, 1)[0]!.run;
    else base = this.fresh();
    this.pending = {
      original: base === cur ? null : cur,
      originalExact: this.exactAt,
      targetNs: t,
      fromNs: from,
      baseNs: base.session.nowNs,
      restarted: false,
    };
    this.current = base;
    this.exactAt = null;
    this.stats.lastBaseNs = base.session.nowNs;
    if (base.session.nowNs > 0) this.stats.fromCheckpoint++;
    base.setDetail(false);
    return false;
  }

  /**
   * Replay the seek going on for at most `maxEvents` model events. True once it is done (the live
   * run is at the target, the run it left is kept as a checkpoint), or when no seek is going on.
   */
  seekStep(maxEvents: number): boolean {
    const p = this.pending;
    if (!p) return true;
    const base = this.current;
    let left = maxEvents;
    if (!p.restarted) {
      const r = this.drive(base, p.fromNs, left);
      this.stats.seekEvents += r.events;
      left -= r.events;
      if (!r.reached) return false;
      base.restartDetail();
      p.restarted = true;
    }
    const r = this.drive(base, p.targetNs, left);
    this.stats.seekEvents += r.events;
    if (!r.reached) return false;
    this.pending = null;
    // what the replay printed is already on the user's screen
    base.session.drainOutput();
    if (p.original) {
      this.exactAt = p.originalExact;
      this.stash(p.original);
    }
    this.exactAt = p.targetNs;
    return true;
  }

  /**
   * Call off the seek going on: the live run it left comes back exactly as it was (the instant
   * the lab was at before the seek), and the partly replayed run is kept as a checkpoint at the
   * instant it reached (a later seek there starts from it). Nothing when no seek is going on.
   */
  seekCancel(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const partial = this.current;
    partial.session.drainOutput();
    if (!p.original) {
      // it was the live run itself: it stays where the replay got to
      this.exactAt = null;
      return;
    }
    this.current = p.original;
    this.exactAt = null;
    this.stash(partial);
    this.exactAt = p.originalExact;
  }

  /**
   * Background work: build the checkpoint that most shortens the longest replay gap, at most
   * `maxEvents` events per call. Returns whether there is more to do.
   */
  build(maxEvents: number): boolean {
    // a seek going on has the lab: nothing now (the next request starts the idle timer again)
    if (this.pending) return false;
    if (!this.builder) {
      const target = this.nextTarget();
      if (target === null) return false;
      // start from a live run a seek left behind before the target (not an exact one), or from 0
      let from = -1;
      for (let i = 0; i < this.cps.length; i++) {
        const c = this.cps[i]!;
        if (
          c.stashed &&
          !c.exact &&
          c.atNs <= target &&
          this.valid(c.run) &&
          (from < 0 || c.atNs > this.cps[from]!.atNs)
        )
          from = i;
      }
      // all built: the one that goes to make room moves forward to the target (cheaper than from 0)
      if (from < 0 && this.cps.filter((c) => !c.stashed).length >= this.max) {
        const thin = this.thinnest();
        const c = thin ? this.cps[thin.index]! : null;
        if (c && c.atNs <= target && this.valid(c.run)) from = thin!.index;
      }
      const run = from >= 0 ? this.cps.splice(from, 1)[0]!.run : this.fresh();
      run.setDetail(false);
      this.builder = { run, targetNs: target };
    }
    const b = this.builder;
    const r = this.drive(b.run, b.targetNs, maxEvents);
    this.stats.buildEvents += r.events;
    if (r.reached) {
      this.builder = null;
      b.run.session.drainOutput();
      this.insert(b.run, false, false);
      this.stats.built++;
    }
    return true;
  }

  /** Drop every frozen run (and the builder): memory back, seeks replay from 0. */
  clearCheckpoints(): void {
    for (const c of this.cps) c.run.dispose();
    this.cps = [];
    this.builder?.run.dispose();
    this.builder = null;
  }

  dispose(): void {
    this.pending?.original?.dispose();
    this.pending = null;
    this.clearCheckpoints();
    this.current.dispose();
  }

  // -------------------------------------------------------------------------------------------

  private fresh(): R {
    return this.make(createLab(this.scenario));
  }

  /** Drive a run toward `toNs`, applying the log's entries at their instants. */
  private drive(run: R, toNs: number, maxEvents: number, onGridPoint?: (ns: number) => void): AdvanceResult {
    const s = run.session;
    let events = 0;
    for (;;) {
      const next = this.log[s.commandLog.length];
      if (next && next.atNs <= toNs) {
        if (s.nowNs < next.atNs) {
          const r = s.advance(next.atNs, maxEvents - events, onGridPoint);
          events += r.events;
          this.note(s);
          if (!r.reached) return { events, reached: false };
        }
        const ok = next.kind === 'line' ? s.submit(next.line) : s.interrupt();
        if (!ok) throw new Error(`timeline: replay diverged at ${next.atNs} ns (${next.kind})`);
        continue;
      }
      const r = s.advance(toNs, maxEvents - events, onGridPoint);
      this.note(s);
      if (s.nowNs > this.furthestNs && run === this.current) this.furthestNs = s.nowNs;
      return { events: events + r.events, reached: r.reached };
    }
  }

  /** Record what reaching this instant cost (events from 0), for gap estimates. */
  private note(s: InteractiveSession): void {
    const t = s.nowNs;
    const last = this.costT.length - 1;
    if (t <= this.costT[last]!) return;
    this.costT.push(t);
    this.costE.push(s.lab.sched.processed);
    if (this.costT.length > 4096) {
      this.costT = this.costT.filter((_, i) => i % 2 === 0 || i === this.costT.length - 1);
      this.costE = this.costE.filter((_, i) => i % 2 === 0 || i === this.costE.length - 1);
    }
  }

  /** Events from 0 to `ns` (interpolated). */
  private eventsAt(ns: number): number {
    const T = this.costT;
    const E = this.costE;
    if (ns >= T[T.length - 1]!) return E[E.length - 1]!;
    let lo = 0;
    let hi = T.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (T[mid]! <= ns) lo = mid;
      else hi = mid;
    }
    const f = (ns - T[lo]!) / (T[hi]! - T[lo]!);
    return E[lo]! + f * (E[hi]! - E[lo]!);
  }

  /** The instant by which `events` events have been processed (interpolated). */
  private timeAtEvents(events: number): number {
    const T = this.costT;
    const E = this.costE;
    let i = 0;
    while (i < E.length - 1 && E[i + 1]! < events) i++;
    if (i >= E.length - 1) return T[T.length - 1]!;
    const span = E[i + 1]! - E[i]!;
    const f = span > 0 ? (events - E[i]!) / span : 0;
    return Math.round(T[i]! + f * (T[i + 1]! - T[i]!));
  }

  /**
   * The built checkpoint whose removal leaves the smallest replay gap (events from its previous
   * to its next checkpoint), or null when none is built.
   */
  private thinnest(): { index: number; gap: number } | null {
    const built = this.cps.filter((c) => !c.stashed);
    let index = -1;
    let gap = Number.POSITIVE_INFINITY;
    built.forEach((x, i) => {
      const prev = i > 0 ? built[i - 1]!.events : 0;
      const next = i + 1 < built.length ? built[i + 1]!.events : this.eventsAt(this.furthestNs);
      if (next - prev < gap) {
        gap = next - prev;
        index = this.cps.indexOf(x);
      }
    });
    return index >= 0 ? { index, gap } : null;
  }

  /**
   * Midpoint (in events) of the costliest replay gap, or null when none is worth a checkpoint.
   * With all `maxCheckpoints` built, only when that gap is at least 1.5 times the one removing the
   * thinnest checkpoint would leave (a timeline that grows as it plays gets its checkpoints
   * re-spread over the whole run, not kept where it started).
   */
  private nextTarget(): number | null {
    const full = this.cps.filter((c) => !c.stashed).length >= this.max;
    if (full && this.max === 0) return null;
    const points = [0, ...this.cps.map((c) => c.atNs), this.current.session.nowNs, this.furthestNs]
      .filter((t) => t <= this.furthestNs)
      .sort((a, b) => a - b);
    let bestGap = 0;
    let target: number | null = null;
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      const gap = this.eventsAt(b) - this.eventsAt(a);
      if (gap > bestGap && gap >= this.minGap) {
        const mid = this.timeAtEvents((this.eventsAt(a) + this.eventsAt(b)) / 2);
        if (mid > a && mid < b) {
          bestGap = gap;
          target = mid;
        }
      }
    }
    if (full && target !== null) {
      const thin = this.thinnest();
      if (!thin || bestGap < 1.5 * thin.gap) return null;
    }
    return target;
  }

  /** Whether a frozen run is on the current log (the log did not fork before its instant). */
  private valid(run: R): boolean {
    const applied = run.session.commandLog;
    if (applied.length > this.log.length) return false;
    for (let i = 0; i < applied.length; i++) {
      const a = applied[i]!;
      const b = this.log[i]!;
      if (
        a.atNs !== b.atNs ||
        a.kind !== b.kind ||
        (a.kind === 'line' && b.kind === 'line' && a.line !== b.line)
      )
        return false;
    }
    const next = this.log[applied.length];
    return !next || next.atNs > run.session.nowNs;
  }

  /** Keep a run left behind by a seek as a checkpoint (the newest `maxStashed` of them). */
  private stash(run: R): void {
    if (run.session.nowNs === 0) {
      run.dispose();
      return;
    }
    const exact = this.exactAt === run.session.nowNs;
    this.exactAt = null;
    // an exact one keeps its view as the seek left it (it comes back as it is)
    if (!exact) run.setDetail(false);
    this.insert(run, true, exact);
  }

  private insert(run: R, stashed: boolean, exact: boolean): void {
    const atNs = run.session.nowNs;
    const c: Checkpoint<R> = {
      run,
      atNs,
      events: run.session.lab.sched.processed,
      stashed,
      exact,
      seq: this.seq++,
    };
    const same = this.cps.findIndex((x) => x.atNs === c.atNs && x.stashed === stashed);
    if (same >= 0) this.cps.splice(same, 1)[0]!.run.dispose();
    this.cps.push(c);
    this.cps.sort((a, b) => a.atNs - b.atNs);
    for (;;) {
      const mine = this.cps.filter((x) => x.stashed === stashed);
      if (mine.length <= (stashed ? this.maxStashed : this.max)) break;
      let victim = mine[0]!;
      if (stashed) {
        for (const x of mine) if (x.seq < victim.seq) victim = x;
      } else {
        // thin: drop the built checkpoint whose neighbours are closest (in replay cost)
        let worstGap = Number.POSITIVE_INFINITY;
        mine.forEach((x, i) => {
          const prev = i > 0 ? mine[i - 1]!.events : 0;
          const next = i + 1 < mine.length ? mine[i + 1]!.events : this.eventsAt(this.furthestNs);
          if (next - prev < worstGap) {
            worstGap = next - prev;
            victim = x;
          }
        });
      }
      this.cps.splice(this.cps.indexOf(victim), 1);
      victim.run.dispose();
    }
  }

  /**
   * A command at the live instant: entries the live run has not applied, checkpoints past now, and
   * a builder aiming past now belong to the old future.
   */
  private fork(): void {
    const s = this.current.session;
    const now = s.nowNs;
    if (this.log.length === s.commandLog.length && this.furthestNs <= now) return;
    this.log.length = s.commandLog.length;
    this.furthestNs = now;
    this.cps = this.cps.filter((c) => {
      const keep = c.atNs <= now && this.valid(c.run);
      if (!keep) c.run.dispose();
      return keep;
    });
    this.exactAt = null;
    if (this.builder && this.builder.targetNs > now) {
      this.builder.run.dispose();
      this.builder = null;
    }
    let n = this.costT.length;
    while (n > 1 && this.costT[n - 1]! > now) n--;
    this.costT.length = n;
    this.costE.length = n;
  }
}

/**
 * The reference for seek: a fresh lab driven by `log` straight to `toNs`, with the path recorder's
 * detail restarted `window` before it, as `Timeline.seek` does (tests compare the two).
 */
export function straightRun<R extends TimelineRun>(
  scenario: Scenario,
  make: (lab: Lab) => R,
  log: readonly SessionLogEntry[],
  toNs: number,
  window = SEEK_DETAIL_WINDOW_NS,
): R {
  const tl = new Timeline(scenario, make, { maxCheckpoints: 0, maxStashed: 0, detailWindowNs: window });
  tl.load(log, toNs);
  return tl.current;
}
