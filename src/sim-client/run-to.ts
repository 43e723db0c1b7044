/**
 * Running the lab to an instant or a condition from the main thread, in requests of about
 * RUN_TO_CHUNK_MS of worker time each (the worker answers between them, the progress moves,
 * Cancel stops at the next request's end): a run forward to an instant, the replay of a seek back
 * that takes more than one request, and "run until" a drop, a counter or credits running out.
 * One at a time: a newer one cancels the one going on.
 */
import { notePace } from '../lib/pace';
import type { Frame, LoadResult, RunUntil } from '../protocol/sim-api';
import { type AppState, type AppStore, formatSimTime, patch, untilText } from '../state/app-store';
import { MAX_BUDGET, MIN_BUDGET } from './frame-pump';
import type { SimClient } from './sim-client';

/** Simulated time one request of a "run until" a condition covers at most. */
const RUN_UNTIL_SPAN_NS = 60e9;
/** Counter samples while running until a condition (as a 600 s run to an instant keeps: ≤ 10^5 rows). */
const RUN_UNTIL_SAMPLE_NS = 6e6;
/**
 * Wall time one run-to request aims at (ms); Cancel waits for it and the one sent ahead. Not less:
 * each answer is a frame the main thread applies and draws, and on two cores that takes the CPU
 * from the worker ("Run until credits run out" in Chromium: 26.6 s in 100 ms requests, 14.7 s in
 * 300 ms ones, the worker's own time 24.2 → 14.0 s).
 */
const RUN_TO_CHUNK_MS = 250;

export interface LabRunner {
  /** A seek back whose replay takes more than one request (resolves with the worker's last answer). */
  seekBack(first: LoadResult & { ok: true }, toNs: number): Promise<LoadResult>;
  /** Run forward to `toNs` through frames; true when it got there. */
  runTo(toNs: number): Promise<boolean>;
  /** Run until a drop, a counter moving or credits running out. */
  runUntilCondition(cond: Exclude<RunUntil, { kind: 'time' }>): Promise<void>;
  /** Call off the run going on (Cancel, a load replacing the lab); false when none was. */
  cancel(): boolean;
  /** Events the first request of a seek back may replay (adapted as seeks go). */
  readonly seekBudget: number;
}

export function createLabRunner(
  store: AppStore,
  client: SimClient,
  stopped: () => boolean,
  /** Replay the path view's window before an instant with detail (a seek to it with redraw). */
  redraw: (ns: number) => Promise<void>,
  initialSeekBudget: number,
): LabRunner {
  const set = <K extends keyof AppState>(k: K, p: Partial<AppState[K]>) => patch(store, k, p);

  /** Rows of samples a run-to keeps at most (as the pump: ≤ 10^5 rows for a 600 s run). */
  const sampleStepFor = (spanNs: number) => Math.max(1e6, Math.ceil(spanNs / 1e5 / 1e6) * 1e6);

  /** A progress report for the run to an instant going on (the time-left estimate's pace). */
  const notePaceNow = (simNs: number, atNs?: number) => {
    const r = store.getState().playback.runTo;
    if (!r) return;
    const pace = notePace(r.pace, { wallMs: performance.now(), simNs });
    set('playback', { runTo: atNs === undefined ? { ...r, pace } : { ...r, pace, atNs } });
  };

  /** The run-to in progress (its Cancel sets `cancelled`). */
  let running: { cancelled: boolean } | null = null;
  /** Events per run-to request, adapted so a request takes about RUN_TO_CHUNK_MS of worker time. */
  let runBudget = 50_000;
  /** The same for the replay of a seek back. */
  let seekBudget = initialSeekBudget;
  const seekMin = Math.min(seekBudget, MIN_BUDGET);
  const adapt = (b: number, took: number, min = MIN_BUDGET) => {
    const k = took > RUN_TO_CHUNK_MS * 1.5 ? 0.6 : took < RUN_TO_CHUNK_MS / 2 ? 1.5 : 1;
    return Math.max(min, Math.min(MAX_BUDGET, Math.round(b * k)));
  };

  /**
   * A seek back whose replay takes more than one request: the same progress and Cancel as a run
   * to an instant ("Going back to …"), in requests of about RUN_TO_CHUNK_MS. Cancel returns the
   * lab to the instant it was at, exactly (the worker kept that run aside), and says so. Resolves
   * with the worker's last answer (`seeking` still set when cancelled).
   */
  async function seekBack(first: LoadResult & { ok: true }, toNs: number): Promise<LoadResult> {
    let r: LoadResult = first;
    const originNs = client.simTimeNs;
    if (running) running.cancelled = true;
    const me = { cancelled: false };
    running = me;
    const startedMs = performance.now();
    const s0 = first.seeking!;
    set('playback', {
      runTo: {
        fromNs: s0.fromNs,
        toNs,
        startedMs,
        atNs: s0.atNs,
        back: { originNs },
        pace: [{ wallMs: startedMs, simNs: s0.atNs }],
      },
    });
    set('env', {
      announcement:
        toNs === originNs
          ? `Drawing the packets at t = ${formatSimTime(toNs)}: replaying from ${formatSimTime(s0.fromNs)}`
          : `Going back to t = ${formatSimTime(toNs)}: replaying from ${formatSimTime(s0.fromNs)}; Cancel returns to ${formatSimTime(originNs)}`,
    });
    try {
      while (r.ok && r.seeking && !me.cancelled && !stopped()) {
        const t0 = performance.now();
        r = await client.seekContinue(seekBudget);
        seekBudget = adapt(seekBudget, performance.now() - t0, seekMin);
        if (r.ok && r.seeking) notePaceNow(r.seeking.atNs, r.seeking.atNs);
      }
      // (a replay that got there with its last request stands: the lab is at the target)
      if (r.ok && r.seeking) r = await client.seekCancel();
    } finally {
      if (running === me) running = null;
      set('playback', { runTo: null });
    }
    return r;
  }

  /**
   * Run the model to `toNs` through frames (paused, no path detail), as playing would, in requests
   * of about RUN_TO_CHUNK_MS each: the worker answers between them, the progress (playback.runTo)
   * moves, and `cancelRun` stops at the next request's end. Resolves true when `toNs` was reached.
   */
  async function runTo(toNs: number): Promise<boolean> {
    const fromNs = client.simTimeNs;
    if (fromNs >= toNs) return true;
    // one run at a time: a newer one (a host page's seek during a link's run) replaces it
    if (running) running.cancelled = true;
    const me = { cancelled: false };
    running = me;
    const startedMs = performance.now();
    set('playback', { runTo: { fromNs, toNs, startedMs, pace: [{ wallMs: startedMs, simNs: fromNs }] } });
    set('env', { announcement: `Running to t = ${formatSimTime(toNs)}; Cancel stops where it has got to` });
    const opts = { pathDetail: false, sampleStepNs: sampleStepFor(toNs - fromNs) };
    /** The next request, sent before the answer to the one in flight (the worker never waits for this thread). */
    let ahead: Promise<Frame | null> | null = null;
    try {
      while (client.simTimeNs < toNs && !stopped() && !me.cancelled) {
        const t0 = performance.now();
        const sent = ahead ?? client.advance(toNs, runBudget, undefined, opts);
        // the request after it goes now, for the same instant (it does nothing once that is
        // reached): the worker computes it while this thread applies the frame of this one
        ahead = client.canAdvanceAhead ? client.advanceAhead(toNs, runBudget, opts) : null;
        const f = await sent;
        // null: a request was in flight (a frame of the pump); wait for it
        if (!f) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        notePaceNow(f.nowNs);
        runBudget = adapt(runBudget, f.workMs ?? performance.now() - t0);
      }
      // a request still out (the instant reached, or Cancel): its frame is taken before the run ends
      if (ahead) await ahead;
    } finally {
      if (running === me) running = null;
      set('playback', { runTo: null });
    }
    // one frame with path detail, so the path view shows this instant (not the fast-forward)
    await client.advanceNow(client.simTimeNs, 1);
    return client.simTimeNs >= toNs;
  }

  /**
   * "Run until" a drop, a counter moving or credits running out: the model as fast as it can, in
   * requests of about RUN_TO_CHUNK_MS (no path detail), with the progress (how far the clock got,
   * at what pace) and Cancel. Stops right after the event that makes the condition true (then the
   * path view's window before it is replayed with detail), or when nothing runs any more.
   */
  async function runUntilCondition(cond: Exclude<RunUntil, { kind: 'time' }>): Promise<void> {
    if (running) running.cancelled = true;
    const me = { cancelled: false };
    running = me;
    const fromNs = client.simTimeNs;
    const startedMs = performance.now();
    const what = untilText(cond);
    set('playback', {
      runUntil: cond,
      runTo: {
        fromNs,
        toNs: fromNs,
        startedMs,
        until: what,
        pace: [{ wallMs: startedMs, simNs: fromNs }],
      },
    });
    set('env', { announcement: `Running until ${what}, as fast as the model goes; Cancel stops there` });
    let stoppedBy: RunUntil['kind'] | null = null;
    let idle = false;
    const opts = { pathDetail: false, sampleStepNs: RUN_UNTIL_SAMPLE_NS };
    /** The next request, sent before the answer to the one in flight; the worker does nothing with it once the condition stopped the run. */
    let ahead: Promise<Frame | null> | null = null;
    try {
      while (!stopped() && !me.cancelled) {
        const t0 = performance.now();
        const sent = ahead ?? client.advance(client.simTimeNs + RUN_UNTIL_SPAN_NS, runBudget, cond, opts);
        // from where the one out may get to at most
        ahead = client.canAdvanceAhead
          ? client.advanceAhead(client.simTimeNs + 2 * RUN_UNTIL_SPAN_NS, runBudget, {
              ...opts,
              until: cond,
              unlessStopped: true,
            })
          : null;
        const f = await sent;
        if (!f) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        notePaceNow(f.nowNs);
        runBudget = adapt(runBudget, f.workMs ?? performance.now() - t0);
        if (f.stoppedBy) {
          stoppedBy = f.stoppedBy;
          break;
        }
        // nothing runs and nothing is typed ahead: the condition cannot come true any more
        if (
          f.foreground === null &&
          f.backgroundCount === 0 &&
          !client.commandLog.some((e) => e.atNs > client.simTimeNs)
        ) {
          idle = true;
          break;
        }
      }
      // a request still out: taken before the run ends (it did nothing past a stop)
      if (ahead) await ahead;
    } finally {
      if (running === me) running = null;
      set('playback', { runTo: null, runUntil: null, nowNs: client.simTimeNs });
    }
    const at = formatSimTime(client.simTimeNs);
    if (stoppedBy) {
      set('env', { announcement: `Paused: ${stopReason(stoppedBy)} at ${at}` });
      // the run went without batch detail (counts only): replay the path view's window before the
      // stop with it, so the picture shows the packets around what stopped it
      if (!stopped())
        await redraw(client.simTimeNs).then(() =>
          set('env', {
            announcement: `Paused: ${stopReason(stoppedBy!)} at ${at}; the picture shows the packets there`,
          }),
        );
    } else if (idle)
      set('env', {
        announcement: `Stopped at ${at}: nothing is running any more and ${what} did not happen`,
      });
    else set('env', { announcement: `Stopped at ${at} (cancelled) before ${what}` });
    // one frame with path detail, so the path view shows this instant (not the fast-forward)
    if (!stoppedBy) await client.advanceNow(client.simTimeNs, 1);
  }

  return {
    seekBack,
    runTo,
    runUntilCondition,
    cancel() {
      if (!running) return false;
      running.cancelled = true;
      return true;
    },
    get seekBudget() {
      return seekBudget;
    },
  };
}

function stopReason(k: RunUntil['kind']): string {
  switch (k) {
    case 'first-drop':
      return 'first drop';
    case 'counter-moves':
      return 'the counter moved';
    case 'credits-empty':
      return 'burst credits ran out';
    default:
      return 'reached the time';
  }
}
