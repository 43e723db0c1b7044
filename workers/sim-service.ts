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
import * as Comlink from 'comlink';
import { InteractiveSession, replaySession } from '../src/engine/interactive-session';
import type { Lab } from '../src/engine/lab';
import { ChartRecorder } from '../src/engine/metrics/chart-recorder';
import type { RunRecord } from '../src/engine/runner';
import { PathRecorder } from '../src/engine/view/path-recorder';
import type {
  NitroTables,
  PacketInspection,
  PacketRef,
  PathLayout,
  StageInspection,
} from '../src/protocol/path-frame';
import { createLab } from '../src/engine/runner';
import type {
  AdvanceRequest,
  ChartSeries,
  ChartSeriesRequest,
  CommandLogEntry,
  CounterSet,
  Frame,
  FrameBuffers,
  LabEvent,
  LoadResult,
  RunUntil,
  SimApi,
  TerminalChunk,
  ToolRun,
} from '../src/protocol/sim-api';
import { PROTOCOL_VERSION, SAMPLE_COLUMNS_PER_INSTANCE, transferablesOf } from '../src/protocol/sim-api';
import { parseScenario, type Scenario } from '../src/scenario/schema';

const NCOL = SAMPLE_COLUMNS_PER_INSTANCE.length;
/** Shortest time window a path frame covers. */
const PATH_MIN_WINDOW_NS = 1_000;
/** Passages a path frame carries at most (beyond, it samples and says so). */
const PATH_FRAME_CAPACITY = 5_000;
/** With a "run until" condition, time moves in slices this long so the stop lands close to the cause. */
const UNTIL_SLICE_NS = 1_000_000;

export class SimService implements SimApi {
  private scenario: Scenario | null = null;
  private session: InteractiveSession | null = null;
  private unsubscribe: (() => void) | null = null;
  private events: LabEvent[] = [];
  private drops: number[] = [];
  private stats: Array<Array<[string, number]>> = [];
  private carry: TerminalChunk[] = [];
  private path: PathRecorder | null = null;
  private charts: ChartRecorder | null = null;
  /** Commands that ended since the last frame. */
  private runs: ToolRun[] = [];
  /** Where the next path frame starts (the previous frame's end). */
  private pathFromNs = 0;

  /** The lessons' observer of the current session (replaced with the session). */
  private lessons: LessonObserver | null = null;

  hello(): { protocolVersion: number } {
    return { protocolVersion: PROTOCOL_VERSION };
  }

  load(
    doc: unknown,
    log: CommandLogEntry[] = [],
    toNs = 0,
    skipOutput = Number.POSITIVE_INFINITY,
  ): LoadResult {
    const parsed = parseScenario(doc);
    if (!parsed.ok) return { ok: false, protocolVersion: PROTOCOL_VERSION, errors: parsed.errors };
    this.scenario = parsed.scenario;
    if (log.length === 0 && toNs === 0) {
      const lab = createLab(parsed.scenario);
      this.prepare(lab);
      this.attach(new InteractiveSession(lab));
    } else {
      const to = Math.max(toNs, log.at(-1)?.atNs ?? 0);
      this.attach(replaySession(parsed.scenario, log, to, {}, (lab) => this.prepare(lab)));
    }
    const len = this.carry.length;
    this.carry = this.carry.slice(Math.min(skipOutput, len));
    return this.loaded(len);
  }

  rewind(toNs: number): LoadResult {
    if (!this.scenario || !this.session) throw new Error('no scenario loaded');
    const log = this.session.commandLog.filter((e) => e.atNs <= toNs);
    this.attach(replaySession(this.scenario, log, toNs, {}, (lab) => this.prepare(lab)));
    const len = this.carry.length;
    this.carry = [];
    return this.loaded(len);
  }

  commandLog(): CommandLogEntry[] {
    return [...(this.session?.commandLog ?? [])];
  }

  submit(line: string): boolean {
    return this.need().submit(line);
  }

  interrupt(): boolean {
    return this.need().interrupt();
  }

  advance(req: AdvanceRequest): Frame {
    const s = this.need();
    const detail = req.pathDetail ?? true;
    if (this.path && this.path.detailed !== detail) this.path.setDetail(detail);
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
      this.writeSample(out.samples, rows * this.columns());
      rows++;
    };
    let stoppedBy: Frame['stoppedBy'] = null;
    let events = 0;
    let reached = false;
    const until = req.until;
    if (!until) {
      const r = s.advance(req.toNs, req.maxEvents, () => sample());
      events = r.events;
      reached = r.reached;
    } else {
      const toNs = until.kind === 'time' ? Math.min(req.toNs, until.atNs) : req.toNs;
      const watch = this.watcher(until);
      while (s.nowNs < toNs && events < req.maxEvents) {
        const r = s.advance(Math.min(toNs, s.nowNs + UNTIL_SLICE_NS), req.maxEvents - events, () => sample());
        events += r.events;
        if (watch()) {
          stoppedBy = until.kind;
          break;
        }
      }
      reached = s.nowNs >= toNs;
      if (until.kind === 'time' && s.nowNs >= until.atNs) stoppedBy = 'time';
    }
    sample(true);
    const labEvents = this.events;
    this.events = [];
    const frame: Frame = {
      protocolVersion: PROTOCOL_VERSION,
      nowNs: s.nowNs,
      events,
      reached,
      stoppedBy,
      foreground: s.foreground,
      backgroundCount: s.backgroundCount,
      terminal: this.carry.length > 0 ? [...this.carry.splice(0), ...s.drainOutput()] : s.drainOutput(),
      sampleCount: rows,
      buffers: out,
      counters: this.counters(),
      labEvents,
      path: this.pathFrame(s.nowNs, req.pathReuse),
      runs: this.runs.splice(0),
    };
    this.pathFromNs = s.nowNs;
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
    const dropsFromNs = Math.max(0, nowNs - Math.max(1_000_000, 20 * (nowNs - fromNs)));
    return this.path!.frame(fromNs, nowNs, reuse, PATH_FRAME_CAPACITY, dropsFromNs);
  }

  pathLayout(): PathLayout {
    return this.path!.layout();
  }

  inspectPacket(ref: PacketRef): PacketInspection | null {
    return this.path?.inspectPacket(ref) ?? null;
  }

  inspectStage(host: number, stage: string, queue: number): StageInspection | null {
    return this.path?.inspectStage(host, stage, queue) ?? null;
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
    return this.path?.nitroTables(host) ?? null;
  }

  chartSeries(req: ChartSeriesRequest): ChartSeries {
    const names = [...this.lab.instances.keys()];
    const r = this.charts!.query(req.fromNs, req.toNs, Math.max(1, req.stepNs), this.lab.nowNs);
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

  crash(how: 'throw' | 'hang'): void {
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

  private need(): InteractiveSession {
    if (!this.session) throw new Error('no scenario loaded');
    return this.session;
  }

  private get lab(): Lab {
    return this.need().lab;
  }

  private columns(): number {
    return NCOL * this.lab.instances.size;
  }

  /** Attach the recorders to a new lab before anything runs on it. */
  private prepare(lab: Lab): void {
    this.path?.detach();
    this.path = new PathRecorder(lab).attach();
    this.charts = new ChartRecorder(lab.instances.size);
    lab.probe.attach(this.charts);
    this.pathFromNs = lab.nowNs;
  }

  private attach(s: InteractiveSession): void {
    this.unsubscribe?.();
    this.lessons?.detach();
    this.session = s;
    // a rewind or respawn rebuilds the session: the step's window restarts at its time
    this.lessons = new LessonObserver(s);
    this.runs = [];
    // iperf3's -J document of every run (exports); the lessons' hook keeps its place first
    const lessonsHook = s.onRecords;
    s.onRecords = (records) => {
      lessonsHook?.(records);
      for (const r of records) this.runs.push(toolRun(r));
    };
    this.events = [];
    const names = [...s.lab.instances.keys()];
    this.drops = names.map(() => 0);
    this.carry = s.drainOutput(); // a replay's output: the caller decides what the client still needs
    this.unsubscribe = s.lab.subscribe((e) => {
      if (e.type === 'PacketDropped') {
        const i = names.indexOf(e.host);
        if (i >= 0) this.drops[i]! += e.packets;
        // one event per (host, stage, reason) per frame is enough for the UI
        const detail = `${e.stage}: ${e.reason}`;
        const seen = this.events.find((x) => x.kind === 'drop' && x.host === e.host && x.detail === detail);
        if (!seen) this.events.push({ atNs: e.atNs, kind: 'drop', host: e.host, detail });
      } else if (e.type === 'CreditsExhausted' || e.type === 'CreditsRestored') {
        this.events.push({
          atNs: e.atNs,
          kind: e.type === 'CreditsExhausted' ? 'credits-exhausted' : 'credits-restored',
          host: e.host,
          detail: e.direction,
        });
      }
    });
  }

  private loaded(transcriptLength: number): LoadResult {
    const lab = this.lab;
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
      transcriptLength,
      pathLayout: this.path!.layout(),
    };
  }

  private writeSample(into: Float64Array, at: number): void {
    let k = at;
    let i = 0;
    this.stats = [];
    for (const inst of this.lab.instances.values()) {
      const st = inst.host.eth0.statistics();
      this.stats.push(st);
      let txB = 0;
      let rxB = 0;
      let txP = 0;
      let rxP = 0;
      let bwOut = 0;
      let bwIn = 0;
      let pps = 0;
      for (const [name, v] of st) {
        if (name.startsWith('queue_')) {
          if (name.endsWith('_tx_bytes')) txB += v;
          else if (name.endsWith('_rx_bytes')) rxB += v;
          else if (name.endsWith('_tx_cnt')) txP += v;
          else if (name.endsWith('_rx_cnt')) rxP += v;
        } else if (name === 'bw_out_allowance_exceeded') bwOut = v;
        else if (name === 'bw_in_allowance_exceeded') bwIn = v;
        else if (name === 'pps_allowance_exceeded') pps = v;
      }
      into[k++] = txB;
      into[k++] = rxB;
      into[k++] = txP;
      into[k++] = rxP;
      into[k++] = bwOut;
      into[k++] = bwIn;
      into[k++] = pps;
      into[k++] = inst.nitro.creditsOut?.creditsBits ?? Number.NaN;
      into[k++] = this.drops[i++] ?? 0;
    }
  }

  private counters(): CounterSet[] {
    const out: CounterSet[] = [];
    let i = 0;
    for (const inst of this.lab.instances.values()) {
      const st = this.stats[i++] ?? inst.host.eth0.statistics();
      out.push({ host: inst.name, names: st.map((e) => e[0]), values: Float64Array.from(st, (e) => e[1]) });
    }
    return out;
  }

  private watcher(until: RunUntil): () => boolean {
    const lab = this.lab;
    if (until.kind === 'first-drop') {
      const start = this.drops.reduce((a, b) => a + b, 0);
      return () => this.drops.reduce((a, b) => a + b, 0) > start;
    }
    if (until.kind === 'credits-empty') return () => this.events.some((e) => e.kind === 'credits-exhausted');
    if (until.kind === 'counter-moves') {
      const read = () => {
        const st = lab.instance(until.host)?.host.eth0.statistics() ?? [];
        return st.find((e) => e[0] === until.counter)?.[1] ?? 0;
      };
      const start = read();
      return () => read() !== start;
    }
    return () => false;
  }
}

/** A run record as the protocol carries it (the output already went to the terminal). */
function toolRun(r: RunRecord): ToolRun {
  return {
    host: r.host,
    command: r.command,
    startNs: r.startNs,
    endNs: r.endNs,
    exitCode: r.exitCode,
    result: r.result ?? null,
  };
}

/** Grow the frame's arrays (doubling) so `rows` rows fit. */
function ensure(b: FrameBuffers, rows: number, cols: number): FrameBuffers {
  if (b.sampleTimes.length >= rows && b.samples.length >= rows * cols) return b;
  const cap = Math.max(rows, b.sampleTimes.length * 2, 256);
  const t = new Float64Array(cap);
  t.set(b.sampleTimes.subarray(0, Math.min(b.sampleTimes.length, rows)));
  const s = new Float64Array(cap * cols);
  s.set(b.samples.subarray(0, Math.min(b.samples.length, rows * cols)));
  return { sampleTimes: t, samples: s };
}

export function createSimService(): SimService {
  return new SimService();
}
