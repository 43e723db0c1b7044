/**
 * The frame pump: once per animation frame, unless a request is in flight, it asks the worker to
 * advance by the wall time since the last frame times the speed (auto speed: readable while
 * packets are in view, a jump to the next packet over an idle stretch), within an event budget
 * adapted so a request takes about a frame of worker time (longer, chained back to back, when the
 * model cannot keep up). A run started by a typed command pauses when the command ends.
 */
import {
  AUTO_HOLD_WALL_S,
  AUTO_QUIET_NS_PER_S,
  AUTO_SKIP_MAX_NS,
  autoPhase,
  rampedSpeed,
  readableSpeed,
} from './auto-speed';
import {
  type AppState,
  type AppStore,
  patch,
  SPEED_MAX_NS_PER_S,
  SPEED_MIN_NS_PER_S,
} from '../state/app-store';
import type { Frame } from '../protocol/sim-api';
import type { SimClient } from './sim-client';

/** Model events per frame request, adapted so a request takes about a frame of worker time. */
export const MIN_BUDGET = 20_000;
export const MAX_BUDGET = 2_000_000;
/** The longest wall time one request advances by (s): a frame after a stall does not jump further. */
const MAX_STEP_S = 0.1;
/** Fastest playback (simulated ns per wall second) at which the path view follows batches. */
const PATH_DETAIL_MAX_SPEED = 1e9;
/** Worker time a frame request aims at (ms, low and high): a frame of the display or so. */
const FRAME_REQUEST_MS: readonly [number, number] = [8, 24];
/**
 * The same when the model cannot keep up with the speed asked (requests chained back to back):
 * longer, so the fixed cost of a frame (messages, counters, the path frame) and the wait for the
 * main thread to take the answer (it renders the previous frame meanwhile: the charts take tens of
 * ms, hundreds on a loaded machine, and on two cores it takes them from the worker) are a small
 * share of the worker's time. Two to four frames a second at the top speed, a fast-forward anyway
 * (input stays immediate: it is the main thread's, which is idle between frames).
 */
const LAGGING_REQUEST_MS: readonly [number, number] = [250, 500];

export interface FramePump {
  /** One animation frame: a request for the next frame unless one is in flight or the lab is busy. */
  pump(wall: number): Promise<void>;
  /** A line was typed at the current instant: auto speed counts it as running before a frame says so. */
  noteTyped(): void;
  /** The instant a line was last typed at. */
  readonly typedAtNs: number;
  /** Playback was started by submitting a command (not by the user): pause when it ends. */
  autoPlayed: boolean;
}

export function createFramePump(store: AppStore, client: SimClient, stopped: () => boolean): FramePump {
  let lastWall: number | null = null;
  let budget = 200_000;
  /** The last answer fell short of its instant (the model cannot keep up with the speed). */
  let lastLagging = false;
  /** The instant the last request was sent to. */
  let sentToNs = 0;
  /** Playback was started by submitting a command (not by the user): pause when it ends. */
  let autoPlayed = false;
  let layoutPending = false;
  /** The instant a line was last typed at (auto speed: something runs from there). */
  let typedAtNs = -1;
  /** Auto speed's ramp: the wall instant (ms) of the last new thing, and what it compares. */
  let rampFromWall: number | null = null;
  /** The wall instant (ms) of the last frame with drops: drops recurring (TCP against a shaper) are not new. */
  let rampDropWall = Number.NEGATIVE_INFINITY;
  let rampJob: string | null = null;

  const set = <K extends keyof AppState>(k: K, p: Partial<AppState[K]>) => patch(store, k, p);

  async function pump(wall: number): Promise<void> {
    if (stopped()) return;
    const st = store.getState();
    const prev = lastWall;
    lastWall = wall;
    // a seek or a run to an instant going on has the lab (Cancel calls it off; Play waits for it)
    if (!st.playback.playing || st.scenario.loading || st.playback.seeking) return;
    if (st.playback.runTo) return;
    // model-bound (the last answer fell short of its instant): the next request goes ahead of the
    // answer to the one in flight, so the worker never waits for this thread between the two
    const ahead = client.inFlight;
    if (ahead && !(lastLagging && client.canAdvanceAhead)) return;
    // model-bound, a request asks for the longest step a frame may take (the event budget ends it
    // first): a request sent ahead a moment after the previous one, asked for that moment's worth,
    // reached its instant early, so the pump stopped chaining and the worker idled until the next
    // animation frame (a tenth of the wall time of a 600 s run at the top speed)
    const dtS = lastLagging
      ? MAX_STEP_S
      : prev === null
        ? 1 / 60
        : Math.min(MAX_STEP_S, Math.max(0, (wall - prev) / 1000));
    // auto speed: readable while packets are in view, a jump to the next packet over an idle stretch
    let speed = st.playback.speedNsPerS;
    let skipIdle = false;
    if (st.playback.speedMode === 'auto') {
      const running =
        typedAtNs === client.simTimeNs ||
        st.terminal.foreground !== null ||
        st.terminal.backgroundCount > 0 ||
        client.commandLog.some((e) => e.atNs > client.simTimeNs);
      const phase = autoPhase(store.pathFrame, running);
      // something new restarts the hold at the readable speed: packets after an idle stretch, a
      // line just typed, a new foreground job, the first drops after a stretch without
      const drops = (store.pathFrame?.drops ?? 0) > 0;
      const fg = st.terminal.foreground;
      const job = fg ? `${fg.host} ${fg.startNs} ${fg.command}` : null;
      if (
        phase !== 'packets' ||
        st.playback.autoPhase !== 'packets' ||
        rampFromWall === null ||
        typedAtNs === client.simTimeNs ||
        job !== rampJob ||
        (drops && wall - rampDropWall > AUTO_HOLD_WALL_S * 1000)
      )
        rampFromWall = wall;
      if (drops) rampDropWall = wall;
      rampJob = job;
      speed =
        phase === 'packets'
          ? rampedSpeed(
              readableSpeed(st.pathLayout?.fabricOneWayNs ?? 0, SPEED_MIN_NS_PER_S, SPEED_MAX_NS_PER_S),
              (wall - rampFromWall) / 1000,
            )
          : AUTO_QUIET_NS_PER_S;
      skipIdle = phase === 'skip';
      if (phase !== st.playback.autoPhase || speed !== st.playback.speedNsPerS)
        set('playback', { autoPhase: phase, speedNsPerS: speed });
    }
    // a request ahead goes on from where the one in flight was sent to (the clock has not moved yet)
    const base = ahead ? Math.max(client.simTimeNs, sentToNs) : client.simTimeNs;
    const toNs = skipIdle ? base + AUTO_SKIP_MAX_NS : Math.round(base + speed * Math.max(dtS, 1 / 240));
    if (toNs <= base) return;
    sentToNs = toNs;
    const t0 = performance.now();
    let chained: Promise<void> | null = null;
    try {
      // above this speed the path cannot be followed by eye: fast-forward without batch detail
      const detail = speed <= PATH_DETAIL_MAX_SPEED;
      // at most ~500 samples per frame: 1 ms up to 30 s/s, coarser beyond (a 600 s run keeps ≤ 10^5 rows)
      const sampleStepNs = Math.max(1e6, Math.ceil(speed / 60 / 500 / 1e6) * 1e6);
      let lagging = false;
      const onAnswer = (ans: Frame) => {
        // the worker's own time (a busy main thread delays the answer, not the model)
        const took = ans.workMs ?? performance.now() - t0;
        lagging = !ans.reached && !skipIdle;
        lastLagging = lagging;
        // model-bound, the next request goes at once: longer requests, fewer round trips
        const [lo, hi] = lagging ? LAGGING_REQUEST_MS : FRAME_REQUEST_MS;
        budget = Math.max(
          MIN_BUDGET,
          Math.min(MAX_BUDGET, Math.round(budget * (took > hi ? 0.7 : took < lo ? 1.3 : 1))),
        );
        // the worker goes on with the next request while this thread applies and paints this
        // frame, instead of idling until the next animation frame (at the top speed that wait
        // and the frame's rendering were most of the wall time of a long run)
        const ending = autoPlayed && ans.foreground === null && ans.backgroundCount === 0;
        if (lagging && !ending && !stopped() && store.getState().playback.playing)
          chained = pump(performance.now());
      };
      // a typed command's run pauses where it ends: the worker stops there (and a request sent ahead does nothing past it)
      const req = {
        pathDetail: detail,
        sampleStepNs,
        ...(skipIdle ? { skipIdle: true } : autoPlayed ? { stopWhenIdle: true } : {}),
      };
      const f = ahead
        ? await client.advanceAhead(toNs, budget, req, onAnswer)
        : await client.advance(toNs, budget, undefined, req, onAnswer);
      if (!f) return;
      if (lagging !== st.playback.lagging) set('playback', { lagging });
      const layout = store.getState().pathLayout;
      if (layout && f.path.revision !== layout.revision && !layoutPending) {
        layoutPending = true;
        void client
          .pathLayout()
          .then((l) => store.setState({ pathLayout: l }))
          .finally(() => {
            layoutPending = false;
          });
      }
      if (autoPlayed && f.foreground === null && f.backgroundCount === 0) {
        autoPlayed = false;
        set('playback', { playing: false });
      }
    } catch {
      // a failed request is reported by onRestart/onError; the pump carries on
    }
    if (chained) await chained;
  }

  return {
    pump,
    noteTyped() {
      typedAtNs = client.simTimeNs;
    },
    get typedAtNs() {
      return typedAtNs;
    },
    get autoPlayed() {
      return autoPlayed;
    },
    set autoPlayed(v: boolean) {
      autoPlayed = v;
    },
  };
}
