/**
 * The lab's controller: binds a SimClient to the app store. Play/pause, speed and "run until" are
 * decided here, on the main thread; the worker only ever hears "advance to t within n events".
 * One pump per animation frame (frame-pump.ts), at most one request in flight; user actions queue
 * behind it.
 */
import type { Observation } from '../lessons/observation';
import { PRESETS } from '../scenario/presets';
import {
  type AppState,
  type AppStore,
  formatSimTime,
  patch,
  type PathSelection,
  SPEED_STEPS,
  type StepChoice,
  untilText,
} from '../state/app-store';
import type {
  ChartSeries,
  ChartSeriesRequest,
  LabFileInfo,
  LadderSeries,
  LadderSeriesRequest,
  CommandLogEntry,
  PacketDetails,
  PacketExport,
  PacketListAnswer,
  PacketListRequest,
  PacketSelection,
  RunUntil,
} from '../protocol/sim-api';
import { createFramePump, MAX_BUDGET } from './frame-pump';
import { createLabRunner } from './run-to';
import type { SimClient } from './sim-client';

/** What the UI may ask of the lab (the UI gets this through context; it never sees the worker). */
export interface LabController {
  loadPreset(id: string): Promise<void>;
  submit(line: string): Promise<boolean>;
  interrupt(): Promise<void>;
  play(): void;
  pause(): void;
  togglePlay(): void;
  /**
   * Single step with the clock paused, to what `setStep` chose: the next model event, the next
   * packet entering a stage (it is then selected in the path view and inspector), or one frame
   * (1/60 of a wall second at the current speed).
   */
  step(): Promise<void>;
  setStep(choice: StepChoice): void;
  /** A play speed (simulated ns per wall second: manual), or 'auto' (follows the action). */
  setSpeed(nsPerS: number | 'auto'): void;
  faster(): void;
  slower(): void;
  /**
   * Go to a simulated instant: back restores that instant exactly (the worker's checkpoints plus
   * replay); forward runs the live run on to it through ordinary frames (within the timeline or
   * past its end), with the run-to progress and Cancel, so the charts, the terminal and the runs'
   * records are those of playing through. Pauses. `redraw` at the instant the lab is at replays
   * the path view's window there with detail (after a stretch run without it).
   */
  seek(ns: number, opts?: { redraw?: boolean }): Promise<void>;
  /** The same as `seek` (kept for older callers). */
  rewind(toNs: number): Promise<void>;
  /**
   * Run the model as fast as it can (whatever the play speed) until the condition holds, with the
   * run-to progress and Cancel; paused there. A time goes there as `seek` does; the others stop
   * right after the event that makes them true, or when nothing is left running. Asked while nothing
   * runs, it is armed (`playback.runUntil`) and starts with the next command typed.
   */
  runUntil(cond: RunUntil): Promise<void>;
  /** Test hook (e2e): make the worker hang or die. */
  crashWorker(how: 'throw' | 'hang' | 'hang-and-fail-replay'): void;
  /** Select a packet or a stage in the path view and fetch its inspection. */
  select(sel: PathSelection): Promise<void>;
  /**
   * A shared link: load its scenario in a fresh lab with its session (each line, or Ctrl-C, at
   * its simulated instant) and run to `toNs` through ordinary frames, so the charts and counters
   * fill in as they did for the person who shared it; lines after `toNs` are typed when the clock
   * reaches them. False when the scenario does not load.
   */
  loadShared(opts: {
    presetId: string;
    doc: unknown;
    log: readonly CommandLogEntry[];
    toNs: number;
    title: string;
  }): Promise<boolean>;
  /**
   * Stop a run to an instant (a link's time, a seek past the end) where the model has got to: the
   * lab stays there, usable, with the session's later lines still to be typed as the clock reaches
   * them. Nothing when no such run is going on.
   */
  cancelRun(): void;
  /** What was typed, with the simulated instant of each line (entries past the clock too), for Share. */
  commandLog(): readonly CommandLogEntry[];
  /** Lessons: load a lesson's scenario in a fresh lab and start its first step's window. */
  loadLesson(id: string, doc: unknown, title: string): Promise<void>;
  /** Lessons: start a new step's window now. */
  lessonBegin(): Promise<void>;
  /** Lessons: what the lab reported since the step began. */
  lessonObservation(): Promise<Observation | null>;
  /** The charts' engine-side series (latency percentiles, drops by reason); null when the worker failed. */
  chartSeries(req: ChartSeriesRequest): Promise<ChartSeries | null>;
  /** The files the instances hold (completion, downloads); empty when the worker failed. */
  labFiles?(): Promise<LabFileInfo[]>;
  /** A file's bytes for download; null when it is gone or the worker failed. */
  readLabFile?(host: string, path: string): Promise<Uint8Array | null>;
  /** The averaging ladder's 10 µs and 1 ms bytes out; null when the worker failed (absent in test doubles). */
  ladderSeries?(req: LadderSeriesRequest): Promise<LadderSeries | null>;
  /** The packet list's rows (null: the worker failed; absent in test doubles). */
  packetList?(req: PacketListRequest): Promise<PacketListAnswer | null>;
  /** One row's details (null: gone from the capture, or the worker failed). */
  packetDetails?(no: number): Promise<PacketDetails | null>;
  /** The selected rows as a pcap or CSV file. */
  packetExport?(sel: PacketSelection, format: 'pcap' | 'csv'): Promise<PacketExport>;
  dispose(): void;
}

/** How far ahead "next packet at a stage" looks before it gives up (simulated). */
const STEP_HORIZON_NS = 10e9;

export interface LabControllerTuning {
  /** Model events the first request of a seek back may replay (then adapted to ~100 ms per request). */
  seekBudget?: number;
}

export function createLabController(
  store: AppStore,
  client: SimClient,
  raf: (cb: (t: number) => void) => unknown = requestAnimationFrame,
  tuning: LabControllerTuning = {},
): LabController {
  let stopped = false;
  const frames = createFramePump(store, client, () => stopped);

  const set = <K extends keyof AppState>(k: K, p: Partial<AppState[K]>) => patch(store, k, p);

  /** One animation frame: ask the worker for the next frame unless a request is in flight. */
  function tick(wall: number): Promise<void> | undefined {
    if (stopped) return;
    raf(tick);
    return frames.pump(wall);
  }

  const runs = createLabRunner(
    store,
    client,
    () => stopped,
    (ns) => c.seek(ns, { redraw: true }),
    tuning.seekBudget ?? 200_000,
  );

  /**
   * Run until `cond` now: a time as a seek (forward: through ordinary frames, with the progress and
   * Cancel; a time already passed goes back to it), the others as runUntilCondition.
   */
  async function startRunUntil(cond: RunUntil): Promise<void> {
    frames.autoPlayed = false;
    set('playback', { playing: false, runUntil: null });
    if (cond.kind === 'time') await c.seek(cond.atNs);
    else await runs.runUntilCondition(cond);
  }

  /** Loads started: a load superseded by a newer one leaves the lab's state to it. */
  let loads = 0;

  /**
   * Load a scenario document (a preset's, a lesson's, a link's with its session) into a fresh lab
   * and show t = 0. `more`: the caller has more to do before the lab is ready (it stays loading).
   */
  async function load(
    presetId: string,
    doc: unknown,
    title: string,
    more = false,
    log: readonly CommandLogEntry[] = [],
  ): Promise<boolean> {
    // a run to an instant of the lab being replaced stops (it would go on in the new one)
    runs.cancel();
    loads++;
    set('scenario', { presetId, doc, loading: true, loadErrors: [] });
    set('playback', {
      playing: false,
      nowNs: 0,
      furthestNs: 0,
      checkpoints: [],
      lastStep: null,
      runUntil: null,
    });
    set('terminal', { chunks: [], clearedAt: 0, foreground: null, backgroundCount: 0 });
    // the path on screen belongs to the lab being replaced: clear it (the new lab's first frame follows)
    store.pathFrame = null;
    set('results', {
      counters: [],
      moved: {},
      events: [],
      runs: [],
      seriesVersion: store.getState().results.seriesVersion + 1,
    });
    const r = await client.load(doc, log);
    if (!r.ok) {
      set('scenario', { loading: false, loadErrors: r.errors });
      return false;
    }
    // a lab at t = 0: every counter is 0 there (the per-second rows start from it)
    store.series.reset(r.sampleColumns.length, r.nowNs === 0 ? 0 : null);
    store.queues.reset(0);
    set('scenario', {
      loading: more,
      instances: r.instances,
      sampleColumns: r.sampleColumns,
      wallClockStartMs: r.wallClockStartMs ?? 0,
    });
    store.setState({ pathLayout: r.pathLayout });
    set('selection', { path: null });
    set('inspector', { packet: null, stage: null, nitro: null, missing: null });
    // one frame at t = 0 so counters show before anything runs (the client's onFrame applies it)
    await client.advanceNow(0, 1);
    set('env', { announcement: `Loaded ${title}` });
    return true;
  }

  const c: LabController = {
    async loadShared({ presetId, doc, log, toNs, title }) {
      if (!(await load(presetId, doc, title, true, log))) return false;
      set('playback', { furthestNs: client.furthestNs });
      const mine = loads;
      let reached = true;
      try {
        if (toNs > 0) reached = await runs.runTo(toNs);
      } finally {
        if (mine === loads) {
          set('scenario', { loading: false });
          set('playback', { nowNs: client.simTimeNs });
        }
      }
      // another load (a host page's) replaced this lab while it ran: that one has the say now
      if (mine !== loads) return false;
      if (!reached)
        set('env', {
          announcement: `Stopped at ${formatSimTime(client.simTimeNs)} (the link's time is ${formatSimTime(toNs)}): press Play to go on`,
        });
      else if (toNs > 0)
        set('env', { announcement: `Loaded ${title} at ${formatSimTime(client.simTimeNs)}` });
      return true;
    },
    cancelRun() {
      // an armed "run until" is called off too
      if (!runs.cancel() && store.getState().playback.runUntil) set('playback', { runUntil: null });
    },
    commandLog: () => client.commandLog,
    async loadPreset(id) {
      const preset = PRESETS.find((p) => p.id === id) ?? PRESETS[0]!;
      await load(preset.id, preset.scenario, preset.title);
    },
    async loadLesson(id, doc, title) {
      // "lesson:…" is not a preset id: the experiment picker and panel fall back to their default
      if (await load(`lesson:${id}`, doc, title)) await client.lessonBegin();
    },
    async lessonBegin() {
      await client.lessonBegin();
    },
    lessonObservation() {
      return client.lessonObservation();
    },
    chartSeries(req) {
      return client.chartSeries(req).catch(() => null);
    },
    labFiles() {
      return client.labFiles().catch(() => []);
    },
    readLabFile(host, path) {
      return client.readLabFile(host, path).catch(() => null);
    },
    ladderSeries(req) {
      return client.ladderSeries(req).catch(() => null);
    },
    packetList(req) {
      return client.packetList(req).catch(() => null);
    },
    packetDetails(no) {
      return client.packetDetails(no).catch(() => null);
    },
    packetExport(sel, format) {
      return client.packetExport(sel, format).catch((e: unknown) => ({
        ok: false as const,
        error: `the lab did not answer (${(e as Error).message})`,
      }));
    },
    async submit(line) {
      const st = store.getState();
      const hist = st.terminal.history;
      if (line.trim() && hist.at(-1) !== line) set('terminal', { history: [...hist, line].slice(-500) });
      // the terminal's host, or the scenario's first instance when it has none of that name (a
      // scenario without a 'client', e.g. the router preset's sender, router and sink)
      const names = st.scenario.instances.map((i) => i.name);
      const first = names[0] ?? 'client';
      const host = names.includes(st.terminal.host) ? st.terminal.host : first;
      const full = host !== first && !/^\s*[a-z][a-z0-9-]*:/.test(line) ? `${host}: ${line}` : line;
      const ok = await client.submit(full);
      // it runs from now: auto speed counts it before a frame has said so
      if (ok) frames.noteTyped();
      // an armed "run until" starts with it, as fast as the model goes
      const armed = store.getState().playback.runUntil;
      if (ok && armed && !store.getState().playback.runTo) {
        void startRunUntil(armed);
        return ok;
      }
      // a command in a terminal runs as soon as Enter is pressed: play if paused
      if (ok && !store.getState().playback.playing) {
        frames.autoPlayed = true;
        set('playback', { playing: true });
      }
      return ok;
    },
    async interrupt() {
      await client.interrupt();
    },
    play() {
      frames.autoPlayed = false;
      set('playback', { playing: true });
    },
    pause() {
      frames.autoPlayed = false;
      set('playback', { playing: false });
    },
    togglePlay() {
      frames.autoPlayed = false;
      set('playback', { playing: !store.getState().playback.playing });
    },
    async step() {
      set('playback', { playing: false });
      const st = store.getState();
      const choice = st.playback.step;
      if (choice.kind === 'frame') {
        const toNs = Math.max(
          client.simTimeNs + 1,
          Math.round(client.simTimeNs + st.playback.speedNsPerS / 60),
        );
        // a click is not dropped because a query (a chart's, an inspector's) is out: it waits its turn
        const f = await client.advanceNow(toNs, MAX_BUDGET);
        if (f) set('env', { announcement: `Stepped to ${formatSimTime(f.nowNs)}` });
        return;
      }
      const horizon = choice.kind === 'event' ? Number.POSITIVE_INFINITY : client.simTimeNs + STEP_HORIZON_NS;
      const f = await client.advanceNow(horizon, MAX_BUDGET, undefined, { step: choice, pathDetail: true });
      const rep = f?.stepped;
      if (!f || !rep) return;
      set('env', { announcement: `${formatSimTime(f.nowNs)}: ${rep.summary}` });
      const p = rep.packet;
      if (choice.kind === 'packet' && rep.found && p)
        await c.select({ kind: 'packet', id: -1, flow: p.flow, seq: p.seq, count: p.count });
    },
    setStep: (choice) => set('playback', { step: choice }),
    setSpeed: (nsPerS) =>
      set(
        'playback',
        nsPerS === 'auto'
          ? { speedMode: 'auto' }
          : { speedMode: 'manual', speedNsPerS: nsPerS, autoPhase: 'quiet', lagging: false },
      ),
    faster() {
      const s = store.getState().playback.speedNsPerS;
      const next = SPEED_STEPS.find((x) => x > s) ?? SPEED_STEPS.at(-1)!;
      c.setSpeed(next);
    },
    slower() {
      const s = store.getState().playback.speedNsPerS;
      const next = [...SPEED_STEPS].reverse().find((x) => x < s) ?? SPEED_STEPS[0];
      c.setSpeed(next);
    },
    async seek(ns, opts = {}) {
      set('playback', { playing: false, runUntil: null, seeking: true });
      frames.autoPlayed = false;
      const target = Math.max(0, Math.round(ns));
      const redraw = opts.redraw === true && target === client.simTimeNs;
      try {
        if (target > client.simTimeNs) {
          // forward (within the timeline or past its end): the live run goes on through ordinary
          // frames, as playing would, so the charts get the stretch's samples and every command
          // that ends in it prints its output and hands over its run record (-J document);
          // replaying from a checkpoint ahead would skip them
          const reached = await runs.runTo(target);
          set('playback', { nowNs: client.simTimeNs, furthestNs: client.furthestNs });
          set('env', {
            announcement: reached
              ? `Moved to ${formatSimTime(client.simTimeNs)}`
              : `Stopped at ${formatSimTime(client.simTimeNs)} on the way to ${formatSimTime(target)}: press Play to go on`,
          });
          return;
        }
        const originNs = client.simTimeNs;
        let r = await client.seek(target, runs.seekBudget, redraw ? { redraw } : undefined);
        if (!r.ok) return;
        if (r.seeking) {
          r = await runs.seekBack(r, target);
          if (!r.ok) return;
          if (r.seeking || client.simTimeNs !== target) {
            // called off: the lab is where it was, as it was (charts and terminal untouched)
            set('playback', { nowNs: client.simTimeNs, checkpoints: r.checkpoints });
            set('env', {
              announcement: `Cancelled going back to ${formatSimTime(target)}: the lab is at ${formatSimTime(client.simTimeNs)}${client.simTimeNs === originNs ? ', where it was' : ''}`,
            });
            return;
          }
        }
        store.series.truncateAfter(r.nowNs);
        store.queues.truncateAfter(r.nowNs);
        const st = store.getState();
        set('results', { runs: st.results.runs.filter((x) => x.endNs <= r.nowNs) });
        const chunks = st.terminal.chunks.filter((x) => x.atNs <= r.nowNs);
        set('terminal', { chunks, clearedAt: Math.min(st.terminal.clearedAt, chunks.length) });
        set('selection', { path: null });
        set('inspector', { packet: null, stage: null, nitro: null, missing: null });
        set('playback', { furthestNs: r.furthestNs, checkpoints: r.checkpoints, lastStep: null });
        await client.advanceNow(r.nowNs, 1);
        set('playback', { nowNs: client.simTimeNs });
        if (!redraw) set('env', { announcement: `Moved to ${formatSimTime(client.simTimeNs)}` });
      } finally {
        set('playback', { seeking: false });
      }
    },
    rewind(toNs) {
      return c.seek(toNs);
    },
    async runUntil(cond) {
      frames.autoPlayed = false;
      const st = store.getState();
      const idle =
        frames.typedAtNs !== client.simTimeNs &&
        st.terminal.foreground === null &&
        st.terminal.backgroundCount === 0 &&
        !client.commandLog.some((e) => e.atNs > client.simTimeNs);
      // nothing runs yet (a time ahead, or a condition): armed, it starts with the next command typed
      if (idle && (cond.kind !== 'time' || cond.atNs > client.simTimeNs)) {
        set('playback', { playing: false, runUntil: cond });
        set('env', {
          announcement: `Run until ${untilText(cond)}: it starts, as fast as the model goes, with the next command you type`,
        });
        return;
      }
      await startRunUntil(cond);
    },
    crashWorker: (how) => client.crash(how),
    async select(sel) {
      set('selection', { path: sel });
      if (!sel) {
        set('inspector', { packet: null, stage: null, nitro: null, missing: null });
        return;
      }
      if (sel.kind === 'packet') {
        const ref = sel.id >= 0 ? { id: sel.id } : { flow: sel.flow, seq: sel.seq, count: sel.count };
        const p = await client.inspectPacket(ref);
        set('inspector', {
          packet: p,
          stage: null,
          missing: p ? null : 'The recorder no longer holds this packet (it keeps the most recent passages).',
        });
        return;
      }
      const layout = store.getState().pathLayout;
      const stageName = layout?.stages[sel.stage] ?? '';
      const st = await client.inspectStage(sel.host, stageName, sel.queue);
      const nitro = stageName.startsWith('nitro') ? await client.nitroTables(sel.host) : null;
      set('inspector', {
        packet: null,
        stage: st,
        nitro,
        missing: st ? null : 'Nothing recorded for this stage yet.',
      });
    },
    dispose() {
      stopped = true;
      client.dispose();
    },
  };
  raf(tick);
  return c;
}

export { untilText } from '../state/app-store';
