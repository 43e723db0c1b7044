/**
 * The simulation service behind the worker boundary: owns one lab, its interactive shell session
 * and the recorders, and answers the SimApi (src/protocol/sim-api.ts). Play and pause are the
 * client's business: it asks for `advance(toNs, budget)` once per animation frame and gets a frame
 * back (terminal output, samples, counters, events), whose typed arrays it transfers back for reuse.
 *
 * Runs the same in a Worker and in Node (tests expose it over a MessageChannel). Deterministic:
 * everything it returns is a function of the scenario and the command log.
 */
import type { Observation } from '../src/lessons/observation';
import { LessonObserver } from './lesson-observer';
import { CheckpointBuilder, PLAY_BUILD_RATIO } from './checkpoints';
import { PacketList } from './packet-list';
import { advanceUntilIdle, runUntil, skipIdle } from './play';
import { ServiceRun } from './service-run';
import { counters, ensure, NCOL, writeSample } from './samples';
import { stepTo } from './step';

export { PLAY_BUILD_RATIO };
import {
  fileSize,
  InteractiveSession,
  type Lab,
  type PathRecorder,
  type RunRecord,
  serializeIperf3Json,
  Timeline,
  type TimelineOptions,
  toBytes,
} from '../src/engine';
import * as Comlink from 'comlink';
import type {
  NitroTables,
  PacketInspection,
  PacketRef,
  PathLayout,
  StageInspection,
} from '../src/protocol/path-frame';
import type {
  AdvanceRequest,
  ChartSeries,
  ChartSeriesRequest,
  LadderSeries,
  LadderSeriesRequest,
  CommandLogEntry,
  Frame,
  LabFileInfo,
  LoadResult,
  PacketDetails,
  PacketExport,
  PacketListAnswer,
  PacketListRequest,
  PacketSelection,
  SeekOptions,
  SimApi,
  StepReport,
  TerminalChunk,
  ToolRun,
} from '../src/protocol/sim-api';
import { PROTOCOL_VERSION, SAMPLE_COLUMNS_PER_INSTANCE, transferablesOf } from '../src/protocol/sim-api';
import { parseScenario, type Scenario } from '../src/scenario/schema';
import { ladderWindowOf } from '../src/lib/ladder';

/** Shortest time window a path frame covers. */
const PATH_MIN_WINDOW_NS = 1_000;
/** Passages a path frame carries at most (beyond, it samples and says so). */
const PATH_FRAME_CAPACITY = 5_000;

export interface SimServiceOptions {
  /** Build seek checkpoints with timers while no request comes (the worker; tests call `buildCheckpoints`). */
  background?: boolean;
  /** Checkpoint policy (how many, which gaps are worth one). */
  timeline?: TimelineOptions;
  /** Checkpoint building while playing, in events per live event (default PLAY_BUILD_RATIO; 0: only while idle). */
  playBuildRatio?: number;
  /** Rows the packet list's capture keeps per run (default CAPTURE_CAP; a power of two). */
  captureCap?: number;
}

export class SimService implements SimApi {
  private scenario: Scenario | null = null;
  private timeline: Timeline<ServiceRun> | null = null;
  private run: ServiceRun | null = null;
  private carry: TerminalChunk[] = [];
  /** Commands that ended since the last frame. */
  private runs: ToolRun[] = [];
  /** Where the next path frame starts (the previous frame's end). */
  private pathFromNs = 0;
  /** Where the lab was when the last seek began (what it printed after is new to the client). */
  private seekOriginNs = 0;
  /** Start of the last path window in which nothing moved: drops before it are not shown any more. */
  private quietSinceNs = 0;

  /** The lessons' observer of the current session (replaced with the session). */
  private lessons: LessonObserver | null = null;

  private readonly checkpoints: CheckpointBuilder;

  constructor(private readonly opts: SimServiceOptions = {}) {
    this.checkpoints = new CheckpointBuilder(() => this.timeline, opts);
  }

  hello(): { protocolVersion: number } {
    return { protocolVersion: PROTOCOL_VERSION };
  }

  load(
    doc: unknown,
    log: CommandLogEntry[] = [],
    toNs = 0,
    skipOutput = Number.POSITIVE_INFINITY,
    furthestNs = 0,
  ): LoadResult {
    if (this.failLoad) {
      this.failLoad = false;
      throw new Error('sim worker: forced failure while loading (test hook)');
    }
    const parsed = parseScenario(doc);
    if (!parsed.ok) return { ok: false, protocolVersion: PROTOCOL_VERSION, errors: parsed.errors };
    this.scenario = parsed.scenario;
    this.timeline?.dispose();
    this.run = null;
    const cap = this.opts.captureCap;
    const tl = new Timeline(
      parsed.scenario,
      (lab: Lab) => new ServiceRun(new InteractiveSession(lab), cap),
      this.opts.timeline,
    );
    this.timeline = tl;
    // the replay's output, for a respawned worker: only what the client has not shown yet
    let replayed: TerminalChunk[] = [];
    if (log.length > 0 || toNs > 0 || furthestNs > 0) {
      tl.load(log, toNs, furthestNs);
      replayed = tl.current.session.transcript.map((c) => ({ ...c }));
    }
    this.attach(tl.current);
    this.carry = replayed.slice(Math.min(skipOutput, replayed.length));
    this.checkpoints.touch();
    return this.loaded(replayed.length);
  }

  /**
   * Go to `toNs`. With `maxEvents`, a seek that has to replay does at most that many model events
   * now and answers with `seeking` (where the replay is); `seekContinue` goes on, `seekCancel`
   * calls it off. Until it is done the lab stays, for every other purpose, where it was.
   */
  seek(toNs: number, maxEvents = Number.POSITIVE_INFINITY, opts: SeekOptions = {}): LoadResult {
    const tl = this.needTimeline();
    tl.seekCancel();
    this.seekOriginNs = tl.nowNs;
    const done = tl.seekStart(toNs, { redraw: opts.redraw === true }) || tl.seekStep(maxEvents);
    return done ? this.seekDone() : this.seekProgress();
  }

  seekContinue(maxEvents: number): LoadResult {
    const tl = this.needTimeline();
    if (!tl.seeking) return this.loaded(this.need().session.transcript.length);
    return tl.seekStep(maxEvents) ? this.seekDone() : this.seekProgress();
  }

  seekCancel(): LoadResult {
    const tl = this.needTimeline();
    tl.seekCancel();
    // the run the seek left is the live one again (it never stopped being the attached one)
    if (tl.current !== this.run) this.attach(tl.current);
    this.checkpoints.touch();
    return this.loaded(this.need().session.transcript.length);
  }

  /** A seek reached its instant: the run it replayed becomes the live one. */
  private seekDone(): LoadResult {
    const tl = this.needTimeline();
    const fromNs = this.seekOriginNs;
    if (tl.current !== this.run) this.attach(tl.current);
    else {
      this.pathFromNs = tl.nowNs;
      this.quietSinceNs = 0;
      tl.current.session.drainOutput();
    }
    // forward, the client has not seen what was printed after where it was: the next frame brings it
    this.carry =
      tl.nowNs > fromNs
        ? tl.current.session.transcript.filter((c) => c.atNs > fromNs).map((c) => ({ ...c }))
        : [];
    this.checkpoints.touch();
    return this.loaded(tl.current.session.transcript.length);
  }

  /** A seek under way: the lab as it was, and where the replay is. */
  private seekProgress(): LoadResult {
    const r = this.loaded(this.need().session.transcript.length);
    const seeking = this.needTimeline().seeking;
    this.checkpoints.touch();
    return r.ok && seeking ? { ...r, seeking } : r;
  }

  rewind(toNs: number): LoadResult {
    return this.seek(toNs);
  }

  commandLog(): CommandLogEntry[] {
    return (this.timeline?.commandLog ?? []).map((e) => ({ ...e }));
  }

  labFiles(): LabFileInfo[] {
    const lab = this.timeline?.current.session.lab;
    if (!lab) return [];
    return lab.files
      .all()
      .map((f) => ({ host: f.host, path: f.path, bytes: fileSize(f.file.data), mtimeNs: f.file.mtimeNs }));
  }

  readLabFile(host: string, path: string): Uint8Array | null {
    const f = this.timeline?.current.session.lab.files.read(host, path);
    return f ? toBytes(f.data).slice() : null;
  }

  submit(line: string): boolean {
    const ok = this.needTimeline().submit(line);
    this.checkpoints.touch();
    return ok;
  }

  interrupt(): boolean {
    const ok = this.needTimeline().interrupt();
    this.checkpoints.touch();
    return ok;
  }

  /** Build seek checkpoints for at most `maxEvents` model events (what the idle timer does). */
  buildCheckpoints(maxEvents: number): boolean {
    return this.checkpoints.build(maxEvents);
  }

  /** The live run's session and path recorder (tests and the bench read them; not part of SimApi). */
  get live(): { session: InteractiveSession; path: PathRecorder } | null {
    return this.run;
  }

  /** Seek statistics (checkpoints built, events replayed): for the bench and tests. */
  timelineStats() {
    const tl = this.timeline;
    return tl ? { ...tl.stats, checkpoints: tl.checkpointTimes, furthestNs: tl.furthestNs } : null;
  }

  /** The last run until a condition stopped at it (AdvanceRequest.unlessStopped). */
  private untilStopped = false;

  advance(req: AdvanceRequest): Frame {
    const startedMs = performance.now();
    const run = this.need();
    const tl = this.needTimeline();
    const s = run.session;
    const detail = req.step || req.skipIdle ? true : (req.pathDetail ?? true);
    run.setDetail(detail);
    const buffers = req.reuse ?? {
      sampleTimes: new Float64Array(256),
      samples: new Float64Array(256 * this.columns()),
    };
    let out = buffers;
    let rows = 0;
    const step = Math.max(1_000_000, req.sampleStepNs ?? 1_000_000);
    const sample = (force = false) => {
      if (rows > 0 && out.sampleTimes[rows - 1] === s.nowNs) return;
      // on the absolute grid of `step` (1 ms unless the client asks for coarser while fast-forwarding)
      if (!force && s.nowNs % step !== 0) return;
      out = ensure(out, rows + 1, this.columns());
      out.sampleTimes[rows] = s.nowNs;
      writeSample(this.lab, run.drops, out.samples, rows * this.columns());
      rows++;
    };
    let stoppedBy: Frame['stoppedBy'] = null;
    const hadForeground = s.foreground !== null;
    let events = 0;
    let reached = false;
    let stepped: StepReport | null = null;
    const until = req.until;
    if (req.step) {
      const r = stepTo(tl, this.lab, req.step, req.toNs, () => sample());
      events = r.events;
      stepped = r.report;
      reached = s.nowNs >= req.toNs;
    } else if (req.skipIdle) {
      // auto speed over an idle stretch: on to the event in which the next packet enters the path
      ({ events, reached } = skipIdle(tl, run, req.toNs, req.maxEvents, () => sample()));
    } else if (!until && req.stopWhenIdle) {
      ({ events, reached } = advanceUntilIdle(tl, run, req.toNs, req.maxEvents, () => sample()));
    } else if (!until) {
      const r = tl.advance(req.toNs, req.maxEvents, () => sample());
      events = r.events;
      reached = r.reached;
    } else if (
      req.unlessStopped &&
      (this.untilStopped ||
        (s.foreground === null && s.backgroundCount === 0 && !tl.commandLog.some((e) => e.atNs > s.nowNs)))
    ) {
      // sent ahead of the answer to a run until that stopped (or found nothing running): nothing
    } else {
      ({ events, reached, stoppedBy } = runUntil(tl, run, until, req.toNs, req.maxEvents, () => sample()));
      this.untilStopped = stoppedBy !== null;
    }
    sample(true);
    // checkpoints are built only while the live run keeps up: a frame that ran out of its event
    // budget before its instant (the pump lagging behind the asked speed) gives the worker to frames
    // (at the top speed, building cost the UI 40 % of its frames); the idle builder catches up later.
    // Nor in the frame that ends the foreground command: the user waits for its last lines (building
    // there held the end of a 600 s run at the top speed by about 100,000 events and a lab's creation)
    if (!req.step && reached && !(hadForeground && s.foreground === null)) {
      this.checkpoints.whilePlaying(events);
      this.checkpoints.gapSlice();
    }
    const labEvents = run.events;
    run.events = [];
    const frame: Frame = {
      protocolVersion: PROTOCOL_VERSION,
      nowNs: s.nowNs,
      furthestNs: tl.furthestNs,
      checkpoints: tl.checkpointTimes,
      events,
      reached,
      stoppedBy,
      stepped,
      foreground: s.foreground,
      backgroundCount: s.backgroundCount,
      terminal: this.carry.length > 0 ? [...this.carry.splice(0), ...s.drainOutput()] : s.drainOutput(),
      sampleCount: rows,
      buffers: out,
      counters: counters(this.lab),
      labEvents,
      path: this.pathFrame(s.nowNs, req.pathReuse),
      runs: this.runs.splice(0),
    };
    this.pathFromNs = s.nowNs;
    frame.workMs = performance.now() - startedMs;
    this.checkpoints.touch();
    return Comlink.transfer(frame, [
      out.sampleTimes.buffer,
      out.samples.buffer,
      ...transferablesOf(frame.path),
    ]);
  }

  /**
   * The path frame since the previous one (at least PATH_MIN_WINDOW_NS, so slow speeds still show
   * where batches go); drops stay listed for 20 frames, at least 1 ms, so a drop is readable.
   */
  private pathFrame(nowNs: number, reuse: Frame['path'] | undefined): Frame['path'] {
    const fromNs = Math.max(0, Math.min(this.pathFromNs, nowNs - PATH_MIN_WINDOW_NS));
    const look = Math.max(0, nowNs - Math.max(1_000_000, 20 * (nowNs - fromNs)));
    // drops from before a window in which nothing moved are over: not carried into later pictures
    const dropsFromNs = Math.min(fromNs, Math.max(look, this.quietSinceNs));
    const rec = this.need().path;
    const f = rec.frame(fromNs, nowNs, reuse, PATH_FRAME_CAPACITY, dropsFromNs);
    if (!emptyWindow(f)) return f;
    this.quietSinceNs = fromNs;
    // an empty window shows an empty path: no drop marks, drop list or flow legend of an earlier run
    return f.drops > 0 || f.flows > 0 ? rec.frame(fromNs, nowNs, f, PATH_FRAME_CAPACITY, fromNs) : f;
  }

  pathLayout(): PathLayout {
    return this.need().path.layout();
  }

  inspectPacket(ref: PacketRef): PacketInspection | null {
    return this.run?.path.inspectPacket(ref) ?? null;
  }

  inspectStage(host: number, stage: string, queue: number): StageInspection | null {
    return this.run?.path.inspectStage(host, stage, queue) ?? null;
  }

  lessonBegin(): boolean {
    if (!this.lessons) return false;
    this.lessons.begin();
    return true;
  }

  lessonObservation(): Observation | null {
    return this.lessons?.observation() ?? null;
  }

  nitroTables(host: number): NitroTables | null {
    return this.run?.path.nitroTables(host) ?? null;
  }

  chartSeries(req: ChartSeriesRequest): ChartSeries {
    const names = [...this.lab.instances.keys()];
    const r = this.need().charts.query(req.fromNs, req.toNs, Math.max(1, req.stepNs), this.lab.nowNs);
    const out: ChartSeries = {
      t0Ns: r.t0Ns,
      stepNs: r.stepNs,
      tierStepNs: r.tierStepNs,
      steps: r.steps,
      latency: r.latency.map((l) => ({
        host: names[l.host] ?? String(l.host),
        p50: l.quantiles[0]!,
        p99: l.quantiles[1]!,
        p999: l.quantiles[2]!,
        packets: l.packets,
      })),
      drops: r.drops.map((d) => ({
        host: names[d.host] ?? String(d.host),
        stage: d.stage,
        reason: d.reason,
        packets: d.packets,
      })),
    };
    return Comlink.transfer(out, [
      ...out.latency.flatMap((l) => transferablesOf(l)),
      ...out.drops.flatMap((d) => transferablesOf(d)),
    ]);
  }

  ladderSeries(req: LadderSeriesRequest): LadderSeries {
    const lab = this.lab;
    const charts = this.need().charts;
    const now = lab.nowNs;
    const { focusNs, focus } = charts.ladderFocus(req.host, req.atNs, now);
    const fine = ladderWindowOf('10us', focusNs);
    const ms = ladderWindowOf('1ms', focusNs);
    const out: LadderSeries = {
      host: [...lab.instances.keys()][req.host] ?? String(req.host),
      focusNs,
      focus,
      fine: charts.bytesOut(req.host, fine[0], fine[1], 10_000, now),
      ms: charts.bytesOut(req.host, ms[0], ms[1], 1_000_000, now),
      lastOutNs: charts.lastOutNs[req.host] ?? null,
      maxBatch: lab.maxBatch,
      linkGbps: linkGbpsOf(lab.instanceAt(req.host)?.nitro.linkBps),
      nowNs: now,
    };
    return Comlink.transfer(out, [out.fine.bytes.buffer as ArrayBuffer, out.ms.bytes.buffer as ArrayBuffer]);
  }

  /** The live run's packet list (a new one when a seek or a load makes another run live). */
  private packets: PacketList | null = null;

  private packetListOf(): PacketList {
    const run = this.need();
    if (!this.packets || this.packets.ring !== run.capture)
      this.packets = new PacketList(run.capture, run.session.lab);
    return this.packets;
  }

  packetList(req: PacketListRequest): PacketListAnswer {
    return this.packetListOf().list(req);
  }

  packetDetails(no: number): PacketDetails | null {
    const d = this.packetListOf().details(no);
    return d?.bytes ? Comlink.transfer(d, [d.bytes.buffer as ArrayBuffer]) : d;
  }

  packetExport(sel: PacketSelection, format: 'pcap' | 'csv'): PacketExport {
    const r = this.packetListOf().export(sel, format);
    return r.ok ? Comlink.transfer(r, [r.data.buffer as ArrayBuffer]) : r;
  }

  /** Test hook: the next load fails (a session whose replay crashes the model). */
  private failLoad = false;

  crash(how: 'throw' | 'hang' | 'fail-load'): void {
    if (how === 'fail-load') {
      this.failLoad = true;
      return;
    }
    if (how === 'hang') {
      // a model that never yields: what the client's overrun timer is for
      for (;;) {
        /* spin */
      }
    }
    setTimeout(() => {
      throw new Error('sim worker: forced failure (test hook)');
    }, 0);
  }

  // -------------------------------------------------------------------------------------------

  private need(): ServiceRun {
    if (!this.run) throw new Error('no scenario loaded');
    return this.run;
  }

  private needTimeline(): Timeline<ServiceRun> {
    if (!this.timeline) throw new Error('no scenario loaded');
    return this.timeline;
  }

  private get lab(): Lab {
    return this.need().session.lab;
  }

  private columns(): number {
    return NCOL * this.lab.instances.size;
  }

  /** Make `run` the live one: its events go to frames, the lessons observe its session. */
  private attach(run: ServiceRun): void {
    if (this.run && this.run !== run) {
      this.run.collect = false;
      this.run.events = [];
      this.run.session.onRecords = null;
    }
    this.lessons?.detach();
    this.run = run;
    run.collect = true;
    run.events = [];
    // a seek or respawn rebuilds the session: the step's window restarts at its time
    this.lessons = new LessonObserver(run.session);
    this.runs = [];
    // iperf3's -J document of every run (exports); the lessons' hook keeps its place first
    const s = run.session;
    const lessonsHook = s.onRecords;
    s.onRecords = (records) => {
      lessonsHook?.(records);
      for (const r of records) this.runs.push(toolRun(r));
    };
    this.pathFromNs = run.session.nowNs;
    this.quietSinceNs = 0;
    run.session.drainOutput();
  }

  private loaded(transcriptLength: number): LoadResult {
    const lab = this.lab;
    const tl = this.needTimeline();
    const instances = [...lab.instances.values()].map((i) => ({
      name: i.name,
      type: i.spec.name,
      ip: i.host.ip,
      ppsAllowance: i.nitro.cfg.ppsAllowance,
      ppsAllowanceProvenance: i.spec.ppsAllowance.provenance,
    }));
    const sampleColumns = instances.flatMap((i) => SAMPLE_COLUMNS_PER_INSTANCE.map((c) => `${i.name}.${c}`));
    return {
      ok: true,
      protocolVersion: PROTOCOL_VERSION,
      instances,
      sampleColumns,
      nowNs: lab.nowNs,
      furthestNs: tl.furthestNs,
      checkpoints: tl.checkpointTimes,
      transcriptLength,
      pathLayout: this.need().path.layout(),
      wallClockStartMs: Math.round(lab.wallClockStartS * 1000),
    };
  }
}

/** A run record as the protocol carries it (its output already went to the terminal). */
function toolRun(r: RunRecord): ToolRun {
  const run: ToolRun = {
    host: r.host,
    command: r.command,
    startNs: r.startNs,
    endNs: r.endNs,
    exitCode: r.exitCode,
    result: r.result ?? null,
  };
  const doc = r.result as Record<string, unknown> | null;
  if (/^\s*iperf3\b/.test(r.command) && doc && typeof doc === 'object' && 'start' in doc && 'end' in doc)
    run.iperf3Json = serializeIperf3Json(doc as Parameters<typeof serializeIperf3Json>[0]);
  return run;
}

/** Nothing in the path frame's window: no batch passed, none is held in a queue, nothing was dropped in it. */
function emptyWindow(f: Frame['path']): boolean {
  if (f.totalPassages > 0) return false;
  for (let i = 0; i < f.lanes; i++) {
    if (f.laneOccupancy[i]! > 0 || f.laneDrops[i]! > 0) return false;
    // counts only (a fast-forward): packets that entered a stage in the window
    if (!f.detail && f.laneDensity[i]! > 0) return false;
  }
  for (let i = 0; i < f.drops; i++) if (f.dropNs[i]! >= f.fromNs) return false;
  return true;
}

/** The worker's service: builds seek checkpoints in the background while the lab is idle. */
export function createSimService(): SimService {
  return new SimService({ background: true });
}

/** A link rate in bit/s as Gbit/s for the ladder (null: no finite rate of its own). */
function linkGbpsOf(bps: number | undefined): number | null {
  return bps !== undefined && Number.isFinite(bps) && bps > 0 ? bps / 1e9 : null;
}
