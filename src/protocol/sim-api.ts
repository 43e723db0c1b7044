/**
 * The worker API: what the UI thread and the simulation worker say to each other. Plain data and
 * typed arrays only (structured-clone safe); frames carry their typed arrays as transferables and
 * the client hands them back on the next request for reuse. No engine runtime is imported here.
 *
 * Bump PROTOCOL_VERSION on any incompatible change; the client checks it on connect.
 */
import type { Provenance } from '../catalog/figure';
import type { SessionLogEntry } from '../engine';
import type { Observation } from '../lessons/observation';
import type {
  NitroTables,
  PacketInspection,
  PacketRef,
  PathFrame,
  PathLayout,
  StageInspection,
} from './path-frame';

/**
 * 2: frames carry `runs`; `chartSeries` (latency percentiles, drops by reason); InstanceInfo's PPS allowance.
 * 3: `seek` (checkpoints + replay; the log is kept past the instant), `step` requests and reports,
 *    frames and loads carry `furthestNs` and `checkpoints`.
 * 4: `seek` takes an event budget and answers `seeking` while its replay goes on; `seekContinue`,
 *    `seekCancel`.
 * 5: `advance` takes `skipIdle` (auto speed's jump to the next packet).
 * 6: the packet list: `packetList`, `packetDetails`, `packetExport`.
 * 7: `advance` takes `stopWhenIdle` (a run the user started by typing pauses where it ends).
 */
export const PROTOCOL_VERSION = 8;

/** One user action at a simulated instant (a line typed, or Ctrl-C): what a rewind or respawn replays. */
export type CommandLogEntry = SessionLogEntry;

/** A piece of terminal output. `input` echoes a submitted line (the UI draws the prompt before it). */
export interface TerminalChunk {
  atNs: number;
  host: string;
  stream: 'input' | 'stdout' | 'stderr';
  text: string;
}

export interface InstanceInfo {
  name: string;
  type: string;
  ip: string;
  /** The Nitro card's PPS allowance (in + out together), packets/s, and where the figure comes from. */
  ppsAllowance: number;
  ppsAllowanceProvenance: Provenance;
}

/** A command that ended, with its structured result (iperf3: its own `-J` document, start/intervals/end). */
export interface ToolRun {
  host: string;
  command: string;
  startNs: number;
  endNs: number;
  exitCode: number;
  result: unknown;
  /** iperf3 runs: the -J document byte for byte as `iperf3 -J` prints it (cJSON layout). */
  iperf3Json?: string;
}

/** Ask for the charts' engine-side series over [fromNs, toNs) in steps of about `stepNs`. */
export interface ChartSeriesRequest {
  fromNs: number;
  toNs: number;
  stepNs: number;
}

/**
 * Series the counter samples cannot carry, per answer step (step k covers t0Ns + k·stepNs …).
 * Latency: one-way, socket_tx enter → socket_rx enter of the packets an instance received in the
 * step (ns; NaN when none). Drops: packets per (host, stage, reason) in the step.
 */
export interface ChartSeries {
  t0Ns: number;
  stepNs: number;
  /** The bucket the answer was built from: 1 ms (recent past) or 100 ms (the whole run). */
  tierStepNs: number;
  steps: number;
  latency: Array<{
    host: string;
    p50: Float64Array;
    p99: Float64Array;
    p999: Float64Array;
    packets: Float64Array;
  }>;
  drops: Array<{ host: string; stage: string; reason: string; packets: Float64Array }>;
}

/**
 * Ask for one instance's bytes out around an instant at 10 µs and 1 ms: the averaging ladder's two
 * finest strips (src/lib/ladder.ts; the coarser ones come from the counter samples). Without an
 * instant (`atNs` null) the worker picks the burst: the busiest 10 µs of the busiest millisecond
 * in the last half second the instance sent.
 */
export interface LadderSeriesRequest {
  host: number;
  atNs: number | null;
}

/** Bytes out per step from t0Ns (NaN: no longer kept, or not yet reached). */
export interface BytesOut {
  t0Ns: number;
  stepNs: number;
  bytes: Float64Array;
}

export interface LadderSeries {
  host: string;
  /** The instant the strips are around, and why: asked for, or the busiest moment of the last half second sent (still sending, or stopped). */
  focusNs: number;
  focus: 'asked' | 'sending' | 'last-burst' | 'idle';
  fine: BytesOut;
  ms: BytesOut;
  /** When the instance last sent a batch (null: never); the ladder's burst when no instant is chosen. */
  lastOutNs: number | null;
  /** Packets a batch carries at most (settings.batch): above 1, a batch's packets go at the host link's rate. */
  maxBatch: number;
  /**
   * The host link's rate, Gbit/s (the Nitro card's own link; null: none of its own). The strips count
   * bytes where the ENA hands them to the card, before the card applies the instance's allowances.
   */
  linkGbps: number | null;
  nowNs: number;
}

export type LoadResult =
  | {
      ok: true;
      protocolVersion: number;
      instances: InstanceInfo[];
      sampleColumns: readonly string[];
      nowNs: number;
      /** The furthest simulated instant reached: the scrubber's range is [0, furthestNs]. */
      furthestNs: number;
      /** Instants of the seek checkpoints the worker holds. */
      checkpoints: number[];
      /** Terminal chunks the session has produced so far (a replay's output). */
      transcriptLength: number;
      /** The path view's layout (stages and lanes); re-fetch with `pathLayout()` when a frame's revision differs. */
      pathLayout: PathLayout;
      /** The wall clock at simulated time 0 (Unix ms; settings.wallClockStart): CloudWatch's minutes. */
      wallClockStartMs?: number;
      /**
       * A seek whose replay is going on (a `seek` with an event budget): from the checkpoint's
       * instant `fromNs` to `toNs`, at `atNs` now. Until it is done, the rest of this answer
       * (`nowNs`, `transcriptLength`) is the lab as it was, where `seekCancel` returns it.
       */
      seeking?: { fromNs: number; toNs: number; atNs: number };
    }
  | { ok: false; protocolVersion: number; errors: string[] };

/**
 * Sample columns, per instance in lab order, repeated: cumulative counters read at the sample
 * instant (rates are their differences); credits_*_bits are levels (burst credits held, NaN for an
 * instance type without credits); network_out_bytes is what CloudWatch's NetworkOut counts (IP
 * bytes the Nitro card sent on, after its shapers: engine/metrics/eni-traffic.ts), where tx_bytes
 * is what the ENA handed the card (IP + Ethernet header, before them). Sampled on the session's
 * 1 ms checkpoints while commands run, and at the end of every frame.
 */
export const SAMPLE_COLUMNS_PER_INSTANCE = [
  'tx_bytes',
  'rx_bytes',
  'tx_packets',
  'rx_packets',
  'bw_out_allowance_exceeded',
  'bw_in_allowance_exceeded',
  'pps_allowance_exceeded',
  'credits_out_bits',
  'drops',
  'credits_in_bits',
  'network_out_bytes',
] as const;

/** Reusable typed arrays of a frame (handed back by the client for the next frame). */
export interface FrameBuffers {
  /** Sample times, ns. */
  sampleTimes: Float64Array;
  /** Row-major samples: sampleCount rows × sampleColumns.length. */
  samples: Float64Array;
}

export interface CounterSet {
  host: string;
  names: string[];
  values: Float64Array;
}

/** A trace event the UI shows (and "run until" stops on). */
export interface LabEvent {
  atNs: number;
  kind: 'drop' | 'credits-exhausted' | 'credits-restored';
  host: string;
  detail: string;
}

export { STEP_STAGES, type StepStage } from '../lib/step-stages';
import type { StepStage } from '../lib/step-stages';

/** What a single step advances to: the next model event, or the next packet entering a stage. */
export type StepTarget =
  | { kind: 'event' }
  | { kind: 'packet'; stage: StepStage /** Instance name; any when absent. */; host?: string };

/** A packet's move that a step saw (the probe's enter / leave / drop). */
export interface StepMove {
  atNs: number;
  /** Instance index in lab order, and its name. */
  host: number;
  hostName: string;
  stage: StepStage;
  queue: number;
  flow: number;
  /** The batch's first sequence number (TCP: byte offset; UDP: datagram number). */
  seq: number;
  count: number;
  what: 'entered' | 'left' | 'dropped';
  reason?: string;
}

/** What a single step did: the event it stopped after, in words, and the packet (for the inspector). */
export interface StepReport {
  kind: StepTarget['kind'];
  /** False when no packet reached the stage before the step gave up (or nothing was scheduled). */
  found: boolean;
  fromNs: number;
  atNs: number;
  summary: string;
  /** The packet stopped at (packet steps) or the first that moved in the event (event steps). */
  packet: StepMove | null;
  /** Packet moves seen during the step (at most 16). */
  moves: StepMove[];
}

export interface Frame {
  protocolVersion: number;
  nowNs: number;
  /** The furthest simulated instant reached (the scrubber's range end). */
  furthestNs: number;
  /** Instants of the seek checkpoints the worker holds. */
  checkpoints: number[];
  /** Events the model processed for this frame. */
  events: number;
  /** Whether the frame reached the requested time (false: the event budget ran out first). */
  reached: boolean;
  /** Why the frame stopped early at a "run until" condition, if it did. */
  stoppedBy: RunUntil['kind'] | null;
  /** What a single step did (requests with `step`), else null. */
  stepped: StepReport | null;
  foreground: { host: string; command: string; startNs: number } | null;
  backgroundCount: number;
  terminal: TerminalChunk[];
  sampleCount: number;
  buffers: FrameBuffers;
  counters: CounterSet[];
  labEvents: LabEvent[];
  /** The path view's frame for (previous frame's time, nowNs]: batches, lanes, drops (transferred). */
  path: PathFrame;
  /** Commands that ended in this frame, with their structured results (iperf3's -J document). */
  runs: ToolRun[];
  /**
   * The worker's own time for this frame (ms), without the messaging or the wait for the page's
   * main thread: what the pump adapts its event budget to.
   */
  workMs?: number;
}

/** Stop a run early when something happens. */
export type RunUntil =
  | { kind: 'time'; atNs: number }
  | { kind: 'first-drop' }
  | { kind: 'counter-moves'; host: string; counter: string }
  | { kind: 'credits-empty' };

export interface AdvanceRequest {
  toNs: number;
  /** Model events at most (keeps one frame's work bounded). */
  maxEvents: number;
  until?: RunUntil;
  /** Buffers of an earlier frame, handed back for reuse. */
  reuse?: FrameBuffers;
  /** An earlier path frame, handed back for reuse. */
  pathReuse?: PathFrame;
  /**
   * Follow individual batches along the path (animation). Off for fast-forwards: counts,
   * occupancy and drops are still recorded, the model runs faster (default on).
   */
  pathDetail?: boolean;
  /**
   * Single step instead of advancing to `toNs`: one model event, or on to the next packet entering
   * a stage (giving up at `toNs`). Path detail is on for it.
   */
  step?: StepTarget;
  /** Sample the counters every this many ns (≥ 1 ms, default 1 ms; coarser keeps long fast-forwards small). */
  sampleStepNs?: number;
  /**
   * Jump over an idle stretch (auto speed): stop right after the first event in which a packet
   * enters a stage of the path, or at the end of the 1 ms slice in which a job ends or prints, or
   * at `toNs` (`reached`) when neither happens. Path detail is on for it.
   */
  skipIdle?: boolean;
  /**
   * Stop at the end of the 1 ms slice in which the last job ends (no foreground command, no
   * background job): the pump asks for it while a typed command plays, so the clock stops where
   * the command ended, not at the frame's instant, and a request sent ahead does nothing past it.
   */
  stopWhenIdle?: boolean;
  /**
   * With `until`: sent ahead of the answer to the request before it, do nothing (no event) when
   * that one stopped at its condition, or when nothing runs any more (no job, no line typed
   * ahead): a run until a condition never goes past it to wait for the answer.
   */
  unlessStopped?: boolean;
}

/** The API the worker exposes (comlink). Every method may be called with at most one call in flight. */
/** How a seek goes (see SimApi.seek). */
export interface SeekOptions {
  /** Replay to the instant even when the lab is there (to draw the path view's window in detail). */
  redraw?: boolean;
}

export interface SimApi {
  hello(): { protocolVersion: number };
  /**
   * Build a lab from a scenario document and replay `log` up to `toNs` (0 when absent). The
   * replay's terminal output after the first `skipOutput` chunks (those the client already shows)
   * comes with the next frame: a respawned worker loses nothing.
   */
  load(
    scenario: unknown,
    log?: CommandLogEntry[],
    toNs?: number,
    skipOutput?: number,
    /** The timeline's end to keep for the scrubber (a respawn after a seek back); default the later of toNs and the log's last entry. */
    furthestNs?: number,
  ): LoadResult;
  advance(req: AdvanceRequest): Frame;
  /** Type a line at the current instant; false while a foreground command holds the prompt. */
  submit(line: string): boolean;
  /** Ctrl-C on the foreground command. */
  interrupt(): boolean;
  /**
   * Go to `toNs` within [0, furthestNs]: the state there is restored (nearest checkpoint plus
   * deterministic replay), byte for byte what a run straight to it gives. Later log entries are
   * kept (playing on replays them) until a command typed now forks the timeline. `redraw`: replay
   * even when the lab is at `toNs` already, so the path view gets the batches of the window before
   * it (after a stretch run without detail, e.g. a "run until" that stopped).
   */
  seek(toNs: number, maxEvents?: number, opts?: SeekOptions): LoadResult;
  /** Go on with the seek under way for at most `maxEvents` model events (the lab as it is when none is). */
  seekContinue(maxEvents: number): LoadResult;
  /** Call off the seek under way: the lab is back, exactly, at the instant it was at before it. */
  seekCancel(): LoadResult;
  /** The same as `seek` (kept for older callers). */
  rewind(toNs: number): LoadResult;
  /** The whole recorded log, including entries past the current instant after a seek back. */
  commandLog(): CommandLogEntry[];
  pathLayout(): PathLayout;
  inspectPacket(ref: PacketRef): PacketInspection | null;
  inspectStage(host: number, stage: string, queue: number): StageInspection | null;
  nitroTables(host: number): NitroTables | null;
  /** The charts' latency percentiles and drops by reason over a window (typed arrays, transferred). */
  chartSeries(req: ChartSeriesRequest): ChartSeries;
  /** The averaging ladder's 10 µs and 1 ms bytes out of one instance (typed arrays, transferred). */
  ladderSeries(req: LadderSeriesRequest): LadderSeries;
  /** Lessons: start a step's observation window now (commands before it are forgotten). */
  lessonBegin(): boolean;
  /** Lessons: what the lab reported since the step began (snapshots around every command). */
  lessonObservation(): Observation | null;
  /** The files the lab's instances hold (`> out.txt`, `tcpdump -w`), without their content. */
  labFiles(): LabFileInfo[];
  /** One file's bytes (text files UTF-8), or null when there is no such file. */
  readLabFile(host: string, path: string): Uint8Array | null;
  /** The packet list: rows `offset` … of the capture the selection picks (a bad filter: its error). */
  packetList(req: PacketListRequest): PacketListAnswer;
  /** One row's layers and fields, or null when the ring no longer holds it. */
  packetDetails(no: number): PacketDetails | null;
  /** The selected rows as a pcap file (packets only: drops and events are left out, the note says) or CSV. */
  packetExport(sel: PacketSelection, format: 'pcap' | 'csv'): PacketExport;
  /** Test hook: make the worker die (throw from the event loop) or hang, to exercise respawn. */
  /** Test hooks: fail ('throw'), never answer ('hang'), or fail the next load ('fail-load'). */
  crash(how: 'throw' | 'hang' | 'fail-load'): void;
}

/** The packet list's time window: the whole capture, the last `ns` before the clock, or a range. */
export type PacketWindow =
  | { kind: 'all' }
  | { kind: 'last'; ns: number }
  | { kind: 'range'; fromNs: number; toNs: number };

/** Which rows of the capture: a display filter (src/lib/display-filter.ts), an instance (null: all), a window. */
export interface PacketSelection {
  filter: string;
  host: string | null;
  window: PacketWindow;
}

/** Ask for rows `offset` … `offset + limit` of the filtered list (what the list draws). */
export interface PacketListRequest extends PacketSelection {
  offset: number;
  limit: number;
  /** A row number (No.) whose position in the filtered list to find (the selected row). */
  locate?: number | null;
  /** The last `limit` rows instead (a list following the clock); `offset` is then ignored. */
  fromEnd?: boolean;
}

/** One row as the list shows it (Wireshark's columns, plus where it was seen). */
export interface PacketRow {
  /** No.: the row's number in the capture since t = 0, from 1. */
  no: number;
  atNs: number;
  host: string;
  /** out / in: sent or received at tcpdump's capture points; drop; credits (a burst-credit event). */
  kind: 'out' | 'in' | 'drop' | 'credits';
  stage: string;
  src: string;
  dst: string;
  protocol: string;
  /** Frame length on the wire (bytes), 0 for an event without a packet. */
  length: number;
  info: string;
}

export type PacketListAnswer =
  | {
      ok: true;
      /** Rows the filter selects. */
      matched: number;
      offset: number;
      rows: PacketRow[];
      /** Rows recorded since t = 0, rows still held, rows dropped from the ring (the oldest), its cap. */
      recorded: number;
      held: number;
      evicted: number;
      cap: number;
      /** The position of `locate` in the filtered list (-1: not in it). */
      located: number;
      nowNs: number;
    }
  | { ok: false; error: string; start: number; end: number };

/** A row's details as Wireshark's packet details pane shows them: layers of fields. */
export interface PacketDetails {
  no: number;
  atNs: number;
  host: string;
  kind: PacketRow['kind'];
  /** `field`: the display-filter field it is; `filter`: the expression that selects this value (Apply as Filter). */
  layers: Array<{
    title: string;
    fields: Array<{ label: string; value: string; field?: string; filter?: string }>;
  }>;
  /** The frame's header bytes as captured (payload zeros left out), for a hex view; null for events. */
  bytes: Uint8Array | null;
  /** The packet for the path view and its inspector (flow id and the packet's sequence number). */
  ref: { flow: number; seq: number; count: number } | null;
}

export type PacketExport =
  | { ok: true; data: Uint8Array; rows: number; note: string }
  | { ok: false; error: string };

/** A file on an instance of the lab. */
export interface LabFileInfo {
  host: string;
  /** Absolute path (/home/ec2-user/…, /tmp/…). */
  path: string;
  bytes: number;
  mtimeNs: number;
}

/** The distinct ArrayBuffers behind an object's typed-array fields (what to transfer with it). */
export function transferablesOf(obj: object): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const v of Object.values(obj))
    if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer && v.buffer.byteLength > 0)
      out.add(v.buffer);
  return [...out];
}
