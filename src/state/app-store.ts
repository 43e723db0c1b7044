/**
 * The app's state: one vanilla Zustand store built from typed slices (scenario, playback, terminal,
 * results, selection, view, env). Plain data in, plain data out; the sim-client writes frames
 * into it (through `applyFrame`), the UI reads it through selectors. Per-sample chart data does
 * not go in the store: it lives in `SeriesBuffer` (typed arrays), and the store holds its version.
 */
import { DEFAULT_EMBED_CHART, type EmbedChart, type EmbedPanel } from './embed-view';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  NitroTables,
  PacketInspection,
  PathFrame,
  PathLayout,
  StageInspection,
} from '../protocol/path-frame';
import type {
  CounterSet,
  Frame,
  InstanceInfo,
  LabEvent,
  RunUntil,
  StepReport,
  StepTarget,
  TerminalChunk,
  ToolRun,
} from '../protocol/sim-api';
import type { PaceSample } from '../lib/pace';
import { SeriesBuffer } from './series-buffer';

export const PROMPT_USER = 'ec2-user';

/** Speed, simulated ns per wall second, on a log scale: 1 µs/s … 10 min/s. */
export const SPEED_MIN_NS_PER_S = 1e3;
export const SPEED_MAX_NS_PER_S = 600e9;
export const SPEED_STEPS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 60e9, 600e9] as const;
/**
 * The Speed slider's notches (one arrow key moves one): 1, 2, 5 per decade from 1 µs/s to 50 s/s,
 * then 1, 2, 5 and 10 min/s.
 */
export const SPEED_NOTCHES: readonly number[] = [
  ...[1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10].flatMap((d) => [d, 2 * d, 5 * d]),
  60e9,
  120e9,
  300e9,
  600e9,
];

/**
 * The notch `steps` notches from `nsPerS` (negative: slower): from a speed between two notches the
 * first step lands on the neighbour in that direction. Clamped to the slider's ends.
 */
export function speedNotch(nsPerS: number, steps: number): number {
  const n = SPEED_NOTCHES;
  const eps = 1e-9;
  let i: number;
  if (steps > 0) {
    i = n.findIndex((x) => x > nsPerS * (1 + eps));
    if (i < 0) return n[n.length - 1]!;
    i += steps - 1;
  } else if (steps < 0) {
    i = n.length - 1 - [...n].reverse().findIndex((x) => x < nsPerS * (1 - eps));
    if (i > n.length - 1) return n[0]!;
    i += steps + 1;
  } else return nsPerS;
  return n[Math.max(0, Math.min(n.length - 1, i))]!;
}

/**
 * How the play speed is chosen: 'auto' follows the action (the speed at which the path view stays
 * readable while packets move, jumps over idle stretches; src/sim-client/auto-speed.ts), 'manual' is the
 * slider's.
 */
export type SpeedMode = 'auto' | 'manual';
/** What auto speed is doing: packets in view (readable speed), skipping an idle stretch, or nothing running (real time). */
export type AutoPhase = 'packets' | 'skip' | 'quiet';

export interface ScenarioSlice {
  presetId: string;
  doc: unknown;
  instances: InstanceInfo[];
  sampleColumns: readonly string[];
  /** The wall clock at simulated time 0 (Unix ms): CloudWatch's clock minutes (0 until loaded). */
  wallClockStartMs: number;
  loadErrors: string[];
  loading: boolean;
}

/** What Step advances to: one model event, the next packet at a stage, or one frame's worth of time. */
export type StepChoice = StepTarget | { kind: 'frame' };

export interface PlaybackSlice {
  playing: boolean;
  /** The play speed in use (in auto mode, the one auto chose last). */
  speedNsPerS: number;
  speedMode: SpeedMode;
  autoPhase: AutoPhase;
  nowNs: number;
  /** The furthest simulated instant reached: the scrubber's range is [0, furthestNs]. */
  furthestNs: number;
  /** Instants the worker holds seek checkpoints at (marks on the scrubber). */
  checkpoints: number[];
  /** A seek is being restored (the scrubber shows it; controls wait). */
  seeking: boolean;
  step: StepChoice;
  /** What the last single step did. */
  lastStep: StepReport | null;
  runUntil: RunUntil | null;
  /**
   * The lab is running the model on to an instant (a link's time, a seek past the end): from where,
   * to where, and when it started (wall ms, performance.now()), for the progress and its Cancel.
   */
  runTo: {
    fromNs: number;
    toNs: number;
    startedMs: number;
    /** Where the model has got to when that is not the clock (a seek back replaying from a checkpoint). */
    atNs?: number;
    /** A seek back: Cancel goes back to where the lab was (`originNs`), not where the replay got to. */
    back?: { originNs: number };
    /** Progress reports (wall ms, simulated ns), recent ones: the time-left estimate's pace. */
    pace: PaceSample[];
    /** A "run until" a condition: what it waits for (toNs is then only how far it may go). */
    until?: string;
  } | null;
  /** Frames arrive slower than the speed asks (the model is the bottleneck). */
  lagging: boolean;
}

export interface TerminalSlice {
  chunks: TerminalChunk[];
  /** Index into `chunks` from which the scrollback is shown (Ctrl-L clears the screen, not the history). */
  clearedAt: number;
  history: string[];
  host: string;
  foreground: Frame['foreground'];
  backgroundCount: number;
}

export interface ResultsSlice {
  counters: CounterSet[];
  /** Counter names that changed in the last frame that changed anything, per host. */
  moved: Record<string, string[]>;
  events: LabEvent[];
  seriesVersion: number;
  /** Commands that ended (with iperf3's -J document), oldest first, at most MAX_RUNS. */
  runs: ToolRun[];
}

/** What is selected in the path view (same shape as the path view's PathSelection). */
export type PathSelection =
  | { kind: 'packet'; id: number; flow: number; seq: number; count: number }
  | { kind: 'stage'; host: number; stage: number; queue: number }
  | null;

export interface InspectorSlice {
  packet: PacketInspection | null;
  stage: StageInspection | null;
  nitro: NitroTables | null;
  /** Why nothing is shown (the recorder no longer holds the packet …). */
  missing: string | null;
}

export interface SelectionSlice {
  path: PathSelection;
  /** Linked cursor across charts (ns), or null. */
  cursorNs: number | null;
  /** Chart time window [from, to] in ns, or null = follow the clock. */
  zoom: [number, number] | null;
}

export interface ViewSlice {
  theme: 'light' | 'dark';
  colourBy: 'flow' | 'rss-queue' | 'vcpu';
  introOpen: boolean;
  /**
   * A preset the user has just chosen in the picker: where the page itself scrolls the charts (a
   * phone, a tablet), the charts panel brings the preset's view into the window, then clears this.
   */
  revealPreset: string | null;
}

/** A lesson's progress as the host page of an embedded lab hears it. */
export interface LessonProgressState {
  lessonId: string;
  /** 0-based index of the current step. */
  step: number;
  steps: number;
  done: boolean;
}

export interface EnvSlice {
  reducedMotion: boolean;
  /** Embedded in another page (`embed=1`): minimal chrome, nothing written to storage or history. */
  embed: boolean;
  /** Embed mode: the panels shown (null: the default set, DEFAULT_EMBED_PANELS). */
  panels: EmbedPanel[] | null;
  /** Embed mode: the view of the `chart` panel. */
  chart: EmbedChart;
  /** Embed mode: which playback controls show. */
  controls: 'none' | 'minimal' | 'full';
  /** Embed mode: the host page asked (postMessage `keep-progress`) that lesson progress be saved locally. */
  hostKeepsProgress: boolean;
  /** What was repaired in the link this page was opened with (shown until dismissed). */
  linkChanges: string[];
  /** The lesson in progress, if any (the lessons panel keeps it current). */
  lesson: LessonProgressState | null;
  /**
   * A lesson for the lessons panel to open (a lesson link, a session kept across a reload), at a
   * step (index; null: where the learner's progress is). The panel takes it and sets this to null;
   * whoever sets it has loaded the scenario.
   */
  openLesson: { lessonId: string; step: number | null } | null;
  /** The scenario on screen is the session kept in this browser, opened again at start ("Your last session"). */
  restored: boolean;
  /** The last thing worth telling a screen-reader user (live region). */
  announcement: string;
  /** A notice shown in the header (worker restarted …). */
  notice: string | null;
  /** A link the notice offers (after two worker failures: the scenario without its session). */
  noticeLink?: { label: string; href: string } | null;
}

export interface AppState {
  scenario: ScenarioSlice;
  playback: PlaybackSlice;
  terminal: TerminalSlice;
  results: ResultsSlice;
  selection: SelectionSlice;
  inspector: InspectorSlice;
  pathLayout: PathLayout | null;
  view: ViewSlice;
  env: EnvSlice;
}

const MAX_CHUNKS = 5_000;
/**
 * Characters of terminal output kept (the oldest chunks go first): four commands at the engine's
 * cap on one command's output (1 MiB, src/engine/shell/output-cap.ts), which the engine applies
 * while a command runs, so a running job never holds more than that here either.
 */
export const MAX_TERMINAL_CHARS = 4 * 1_048_576;
const MAX_EVENTS = 200;
const MAX_RUNS = 200;

/**
 * The store plus the per-frame data kept out of it: the chart samples and the path frame on
 * screen (replaced every frame; `results.seriesVersion` tells components to redraw).
 */
export type AppStore = StoreApi<AppState> & {
  series: SeriesBuffer;
  /** Peak occupancy per (instance, QUEUE_STAGES stage) in each frame, from the path frames. */
  queues: SeriesBuffer;
  pathFrame: PathFrame | null;
};

/** Stages whose occupancy the charts show, per instance (column `${host}.${stage}` of `queues`). */
export const QUEUE_STAGES = ['qdisc', 'tx_ring', 'nitro_egress', 'nitro_ingress', 'rx_ring'] as const;

export function createAppStore(init: { presetId: string; doc: unknown; env?: Partial<EnvSlice> }): AppStore {
  const store = createStore<AppState>(() => ({
    scenario: {
      presetId: init.presetId,
      doc: init.doc,
      instances: [],
      sampleColumns: [],
      wallClockStartMs: 0,
      loadErrors: [],
      loading: true,
    },
    playback: {
      playing: false,
      speedNsPerS: 1e9,
      speedMode: 'auto',
      autoPhase: 'quiet',
      nowNs: 0,
      furthestNs: 0,
      checkpoints: [],
      seeking: false,
      step: { kind: 'event' },
      lastStep: null,
      runUntil: null,
      runTo: null,
      lagging: false,
    },
    terminal: { chunks: [], clearedAt: 0, history: [], host: 'client', foreground: null, backgroundCount: 0 },
    results: { counters: [], moved: {}, events: [], seriesVersion: 0, runs: [] },
    selection: { path: null, cursorNs: null, zoom: null },
    inspector: { packet: null, stage: null, nitro: null, missing: null },
    pathLayout: null,
    view: { theme: 'light', colourBy: 'flow', introOpen: true, revealPreset: null },
    env: {
      reducedMotion: false,
      embed: false,
      panels: null,
      chart: DEFAULT_EMBED_CHART,
      controls: 'full',
      hostKeepsProgress: false,
      linkChanges: [],
      lesson: null,
      openLesson: null,
      restored: false,
      announcement: '',
      notice: null,
      ...init.env,
    },
  }));
  return Object.assign(store, {
    series: new SeriesBuffer(),
    queues: new SeriesBuffer(),
    pathFrame: null as PathFrame | null,
  });
}

/** Update one slice (shallow merge). */
export function patch<K extends keyof AppState>(
  store: StoreApi<AppState>,
  key: K,
  p: Partial<AppState[K]>,
): void {
  store.setState((s) => ({ [key]: { ...s[key], ...p } }) as Pick<AppState, K>);
}

/** Fold a frame from the worker into the store (and the series buffer). */
export function applyFrame(store: AppStore, f: Frame): void {
  const s = store.getState();
  store.series.append(f);
  store.pathFrame = f.path;
  appendQueuePeaks(store, f.path, s.pathLayout, s.scenario.instances.length);
  const moved = movedCounters(s.results.counters, f.counters);
  const anyMoved = Object.values(moved).some((m) => m.length > 0);
  const events =
    f.labEvents.length > 0 ? [...s.results.events, ...f.labEvents].slice(-MAX_EVENTS) : s.results.events;
  let chunks = s.terminal.chunks;
  let clearedAt = s.terminal.clearedAt;
  if (f.terminal.length > 0) {
    chunks = [...chunks, ...f.terminal];
    let chars = 0;
    for (const c of chunks) chars += c.text.length;
    let cut = Math.max(0, chunks.length - MAX_CHUNKS);
    for (let i = 0; i < cut; i++) chars -= chunks[i]!.text.length;
    while (chars > MAX_TERMINAL_CHARS && cut < chunks.length - 1) chars -= chunks[cut++]!.text.length;
    if (cut > 0) {
      chunks = chunks.slice(cut);
      clearedAt = Math.max(0, clearedAt - cut);
    }
  }
  const fgEnded = s.terminal.foreground !== null && f.foreground === null;
  let announcement = s.env.announcement;
  // running to an instant (a link's time): what it said about that stands, not each drop on the way
  const quiet = s.playback.runTo !== null;
  if (fgEnded && !quiet) announcement = `${s.terminal.foreground!.command} finished`;
  for (const e of quiet ? [] : f.labEvents) {
    if (e.kind === 'drop') announcement = `Drop on ${e.host}: ${e.detail}`;
    if (e.kind === 'credits-exhausted') announcement = `${e.host} ran out of ${e.detail} burst credits`;
  }
  store.setState({
    playback: {
      ...s.playback,
      nowNs: f.nowNs,
      furthestNs: f.furthestNs ?? Math.max(s.playback.furthestNs, f.nowNs),
      checkpoints: sameNumbers(s.playback.checkpoints, f.checkpoints)
        ? s.playback.checkpoints
        : f.checkpoints,
      // what the last step did stays shown until the lab plays on
      lastStep: f.stepped ?? (s.playback.playing ? null : s.playback.lastStep),
    },
    terminal: {
      ...s.terminal,
      chunks,
      clearedAt,
      foreground: f.foreground,
      backgroundCount: f.backgroundCount,
    },
    results: {
      counters: f.counters,
      moved: anyMoved ? moved : s.results.moved,
      events,
      seriesVersion: s.results.seriesVersion + 1,
      runs: f.runs?.length ? [...s.results.runs, ...f.runs].slice(-MAX_RUNS) : s.results.runs,
    },
    env: { ...s.env, announcement },
  });
}

function sameNumbers(a: readonly number[], b: readonly number[] | undefined): boolean {
  if (!b) return true;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function appendQueuePeaks(store: AppStore, p: PathFrame, layout: PathLayout | null, hosts: number): void {
  if (!layout || hosts === 0) return;
  const cols = hosts * QUEUE_STAGES.length;
  if (store.queues.cols !== cols) store.queues.reset(cols);
  const row = new Float64Array(cols);
  const stageCol = layout.stages.map((name) => QUEUE_STAGES.indexOf(name as (typeof QUEUE_STAGES)[number]));
  for (let i = 0; i < p.lanes; i++) {
    const k = stageCol[p.laneStage[i]!] ?? -1;
    const h = p.laneHost[i]!;
    if (k < 0 || h >= hosts) continue;
    const c = h * QUEUE_STAGES.length + k;
    row[c] = Math.max(row[c]!, p.lanePeak[i]!);
  }
  store.queues.appendRow(p.toNs, row);
}

function movedCounters(prev: CounterSet[], next: CounterSet[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const n of next) {
    const p = prev.find((x) => x.host === n.host);
    const moved: string[] = [];
    if (p) {
      const before = new Map(p.names.map((name, i) => [name, p.values[i]]));
      n.names.forEach((name, i) => {
        if (before.get(name) !== n.values[i]) moved.push(name);
      });
    }
    out[n.host] = moved;
  }
  return out;
}

/** Format a simulated time with its unit, at a precision that fits the speed. */
/**
 * The simulated clock as the status bar shows it: seconds with microseconds ("12.345678 s"), and
 * past a minute minutes then seconds, still to the microsecond ("2 min 05.000250 s"), so a step of
 * a few microseconds shows at any time. Rounded to whole µs, then integer arithmetic (59.9999996 s
 * reads "1 min 00.000000 s", never "60.000000 s").
 */
/**
 * A fast-forward: playing slower than the speed asked (the model cannot keep up), or running to an
 * instant or a condition. Views that ask the worker as the clock runs ask less often then.
 */
export function fastForwarding(s: AppState): boolean {
  return (s.playback.lagging && s.playback.playing) || s.playback.runTo !== null;
}

export function formatSimTime(ns: number): string {
  const us = Math.round(Math.max(0, ns) / 1000);
  const whole = Math.floor(us / 1e6);
  const frac = String(us % 1e6).padStart(6, '0');
  if (whole >= 60) {
    const m = Math.floor(whole / 60);
    return `${m} min ${String(whole % 60).padStart(2, '0')}.${frac} s`;
  }
  return `${whole}.${frac} s`;
}

/** What a "run until" waits for, in words (the time controls and the controller's announcements). */
export function untilText(u: RunUntil): string {
  switch (u.kind) {
    case 'counter-moves':
      return `${u.host} ${u.counter} moves`;
    case 'credits-empty':
      return 'burst credits run out';
    case 'time':
      return `t = ${formatSimTime(u.atNs)}`;
    default:
      return 'the first drop';
  }
}

export function formatSpeed(nsPerS: number): string {
  const per = (v: number, u: string) => `${Number(v.toPrecision(3))} ${u}/s`;
  if (nsPerS < 1e6) return per(nsPerS / 1e3, 'µs');
  if (nsPerS < 1e9) return per(nsPerS / 1e6, 'ms');
  if (nsPerS < 60e9) return per(nsPerS / 1e9, 's');
  return per(nsPerS / 60e9, 'min');
}
