/**
 * Seek checkpoints built around the live run (Timeline.build): while the lab plays, a bounded share
 * of the live run's events; in the worker, one short slice in the gap after each frame, and longer
 * slices once no request has come for a while. A failure clears the checkpoints (seeks then replay
 * from the runs left) and never takes the worker down.
 */
import type { Timeline } from '../src/engine';
import type { ServiceRun } from './service-run';

/** Quiet time (ms without a request) before checkpoints are built in the background. */
const IDLE_MS = 150;
/** Longest background slice (ms): a request waits at most about this long. */
const BUILD_SLICE_MS = 12;
/** Events per `Timeline.build` call inside a slice. */
const BUILD_CHUNK_EVENTS = 20_000;
/**
 * While the lab plays (or runs to an instant), seek checkpoints are built between frames with at
 * most this many model events per event the live run processed: the extra CPU of playing is
 * bounded by this fraction (the idle builder does the rest). Only after frames that reached their
 * instant: when the pump lags behind the asked speed, frames come first. See Timeline for what a
 * checkpoint costs and why it is a whole run.
 */
export const PLAY_BUILD_RATIO = 0.5;
/**
 * In the worker, after each frame, the time until the next request is idle (at 1 s/s a c7i.large
 * pair's frame takes a fraction of its 16.7 ms): one build slice of at most this long runs there
 * (a request arriving meanwhile waits at most about this long).
 */
const GAP_SLICE_MS = 4;
/** Events per `Timeline.build` call inside a gap slice. */
const GAP_CHUNK_EVENTS = 2_000;

export interface CheckpointOptions {
  /** Build with timers while no request comes (the worker; tests call `build`). */
  background?: boolean;
  /** Events per live event while playing (default PLAY_BUILD_RATIO; 0: only while idle). */
  playBuildRatio?: number;
}

export class CheckpointBuilder {
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private gapTimer: ReturnType<typeof setTimeout> | null = null;
  /** Events the play-time builder may still spend (earned by the live run's events). */
  private buildCredit = 0;

  constructor(
    private readonly timelineOf: () => Timeline<ServiceRun> | null,
    private readonly opts: CheckpointOptions,
  ) {}

  /** Build seek checkpoints for at most `maxEvents` model events (what the idle timer does). */
  build(maxEvents: number): boolean {
    const tl = this.timelineOf();
    if (!tl) return false;
    let spent = 0;
    let more = true;
    const before = tl.stats.buildEvents;
    while (more && spent < maxEvents) {
      more = tl.build(Math.min(BUILD_CHUNK_EVENTS, maxEvents - spent));
      spent = tl.stats.buildEvents - before + 1;
    }
    return more;
  }

  /**
   * Checkpoints while the lab plays: the builder (Timeline.build, the same policy as the idle one)
   * gets `playBuildRatio` events per event the frame processed, carried over between frames so a
   * checkpoint far into a run still gets built. A failure clears the checkpoints, as when idle.
   */
  whilePlaying(liveEvents: number): void {
    const tl = this.timelineOf();
    const ratio = this.opts.playBuildRatio ?? PLAY_BUILD_RATIO;
    if (!tl || ratio <= 0 || liveEvents <= 0) return;
    // a pause's worth at most: credit does not pile up into a long stall after a lull
    this.buildCredit = Math.min(
      this.buildCredit + ratio * liveEvents,
      4 * BUILD_CHUNK_EVENTS + ratio * liveEvents,
    );
    try {
      while (this.buildCredit >= 1) {
        const before = tl.stats.buildEvents;
        const more = tl.build(Math.min(BUILD_CHUNK_EVENTS, Math.floor(this.buildCredit)));
        this.buildCredit -= Math.max(1, tl.stats.buildEvents - before);
        if (!more) {
          this.buildCredit = 0;
          break;
        }
      }
    } catch (e) {
      tl.clearCheckpoints();
      this.buildCredit = 0;
      console.warn(
        `sim worker: building seek checkpoints failed (${(e as Error).message}); seeks replay from the runs left`,
      );
    }
  }

  /** The worker: one short build slice in the gap after a frame (the next request waits for it at most GAP_SLICE_MS). */
  gapSlice(): void {
    if (!this.opts.background || this.gapTimer !== null) return;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = null;
      const tl = this.timelineOf();
      if (!tl) return;
      const t0 = performance.now();
      try {
        while (performance.now() - t0 < GAP_SLICE_MS && tl.build(GAP_CHUNK_EVENTS));
      } catch (e) {
        tl.clearCheckpoints();
        console.warn(
          `sim worker: building seek checkpoints failed (${(e as Error).message}); seeks replay from the runs left`,
        );
      }
    }, 0);
  }

  /** A request came: build checkpoints only once the lab has been idle for a while. */
  touch(): void {
    if (!this.opts.background) return;
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    const tick = () => {
      this.idleTimer = null;
      const tl = this.timelineOf();
      if (!tl) return;
      const t0 = performance.now();
      let more = true;
      try {
        while (more && performance.now() - t0 < BUILD_SLICE_MS) more = tl.build(BUILD_CHUNK_EVENTS);
      } catch (e) {
        // background work must not take the worker down: seeks then replay from the runs left
        tl.clearCheckpoints();
        console.warn(
          `sim worker: building seek checkpoints failed (${(e as Error).message}); seeks replay from t = 0`,
        );
        return;
      }
      if (more) this.idleTimer = setTimeout(tick, 0);
    };
    this.idleTimer = setTimeout(tick, IDLE_MS);
  }
}
