/**
 * The main-thread side of the simulation worker: spawns it, pumps one frame per animation frame
 * with at most one request in flight, serialises user actions (submit, Ctrl-C, rewind) between
 * frames, and replaces a worker that dies or overruns: it terminates it, spawns a new one, loads
 * the scenario and replays the command log to the last simulated instant it saw, then tells the
 * user. Nothing is lost: the log and the output already shown live here, not in the worker.
 *
 * It knows nothing of React; the UI gets frames through `onFrame` (copy what you keep: the
 * frame's buffers go back to the worker on the next request).
 */
import type { Observation } from '../lessons/observation';
import type * as Comlink from 'comlink';
import type {
  NitroTables,
  PacketInspection,
  PacketRef,
  PathFrame,
  PathLayout,
  StageInspection,
} from '../protocol/path-frame';
import type {
  AdvanceRequest,
  ChartSeries,
  ChartSeriesRequest,
  LabFileInfo,
  LadderSeries,
  LadderSeriesRequest,
  CommandLogEntry,
  Frame,
  FrameBuffers,
  LoadResult,
  PacketDetails,
  PacketExport,
  PacketListAnswer,
  PacketListRequest,
  PacketSelection,
  RunUntil,
  SeekOptions,
  SimApi,
  StepTarget,
} from '../protocol/sim-api';
import { PROTOCOL_VERSION, transferablesOf } from '../protocol/sim-api';

/** What the client needs of a worker: its remote API, a way to kill it, and to hear it die. */
export interface WorkerHandle {
  api: Comlink.Remote<SimApi> | SimApiLike;
  terminate(): void;
  onError(cb: (why: string) => void): void;
}

/** The SimApi with every method returning a promise (a comlink Remote, or a test fake). */
export type SimApiLike = {
  [K in keyof SimApi]: (...a: Parameters<SimApi[K]>) => Promise<ReturnType<SimApi[K]>>;
};

export interface SimClientOptions {
  spawn: () => WorkerHandle;
  /** A request without an answer after this long means the worker is stuck (ms). */
  timeoutMs?: number;
  /** Longer allowance for loads and rewinds, which replay the log (ms). */
  replayTimeoutMs?: number;
  onFrame?: (f: Frame) => void;
  /** The worker was replaced; `message` says why, for the user. */
  onRestart?: (message: string) => void;
  onError?: (message: string) => void;
  /** The worker failed, and failed again replaying the session: the session cannot be run here. */
  onFailed?: (f: { atNs: number; message: string }) => void;
  /** Adds the transfer list to a request argument (Comlink.transfer in the browser). */
  transfer?: <T>(value: T, transferables: Transferable[]) => T;
}

type Op<T> = () => Promise<T>;
/** What a request does to the lab: reads it only, takes a frame sent ahead, or anything else. */
type OpKind = 'read' | 'ahead' | 'other';

/** What an advance request may ask besides its target and budget. */
export type AdvanceOptions = {
  pathDetail?: boolean;
  sampleStepNs?: number;
  step?: StepTarget;
  skipIdle?: boolean;
  /** advanceAhead with a condition: the request after a run until (AdvanceRequest.unlessStopped). */
  until?: RunUntil;
  unlessStopped?: boolean;
};

export class SimClient {
  private handle: WorkerHandle | null = null;
  private scenario: unknown = null;
  private log: CommandLogEntry[] = [];
  /** Terminal chunks delivered so far (a replay must not print them again). */
  private deliveredChunks = 0;
  private nowNs = 0;
  private furthest = 0;
  private busy = false;
  private queue: Array<{ go: () => void; kind: OpKind }> = [];
  /** The request in flight is an advance (advanceAhead may follow it). */
  private currentIsAdvance = false;
  /** The request in flight only reads the lab (advanceAhead may go past it). */
  private currentIsRead = false;
  /** Requests sent ahead (advanceAhead) whose frames are not taken yet. */
  private ahead = 0;
  private spare: FrameBuffers | undefined;
  /** The path frame on screen (kept until a newer one arrives) and the one before it (free for reuse). */
  private shownPath: PathFrame | undefined;
  private sparePath: PathFrame | undefined;
  private generation = 0;
  private abortInflight: ((e: Error) => void) | null = null;
  restarts = 0;
  /** Test hook (crash 'hang-and-fail-replay'): the next worker spawned fails at once. */
  private failNextReplay = false;
  /** Ends the replay under way with the new worker's failure (set while it replays). */
  private failReplay: ((e: Error) => void) | null = null;
  /** Set after two failures in a row: the lab no longer runs this session (reopen without it). */
  failed: { atNs: number; message: string } | null = null;

  constructor(private readonly opts: SimClientOptions) {}

  get simTimeNs(): number {
    return this.nowNs;
  }

  /** The furthest simulated instant reached (the scrubber's range end). */
  get furthestNs(): number {
    return this.furthest;
  }

  get inFlight(): boolean {
    return this.busy;
  }

  get commandLog(): readonly CommandLogEntry[] {
    return this.log;
  }

  /**
   * Spawn a worker and load a scenario: a new lab at t = 0 with an empty log, or with a shared
   * session's `log`, whose entries the worker types as the clock reaches their instants.
   */
  async load(scenario: unknown, log: readonly CommandLogEntry[] = []): Promise<LoadResult> {
    this.scenario = scenario;
    // a shared session: the lab starts at t = 0 and types each entry when the clock reaches it
    this.log = log.map((e) => ({ ...e }));
    this.deliveredChunks = 0;
    this.nowNs = 0;
    this.furthest = 0;
    if (!this.handle) this.spawn();
    return this.run(async () => {
      const hello = await this.api().hello();
      if (hello.protocolVersion !== PROTOCOL_VERSION)
        throw new Error(`worker speaks protocol ${hello.protocolVersion}, this page ${PROTOCOL_VERSION}`);
      const r =
        log.length > 0
          ? await this.api().load(scenario, [...this.log], 0, 0)
          : await this.api().load(scenario);
      if (r.ok) {
        this.nowNs = r.nowNs;
        if (log.length > 0) this.furthest = this.log.at(-1)!.atNs;
      } else this.log = [];
      this.deliveredChunks = 0;
      return r;
    }, this.opts.replayTimeoutMs);
  }

  /**
   * Advance to `toNs` within `maxEvents`: called by the frame pump. Resolves to null (and sends
   * nothing) when a request is already in flight, so the pump never piles requests up.
   */
  async advance(
    toNs: number,
    maxEvents: number,
    until?: RunUntil,
    opts: AdvanceOptions = {},
    /**
     * Called with the frame as soon as the worker answered and the request slot is free, before the
     * frame is applied (`onFrame`): a model-bound pump sends its next request from here, so the
     * worker computes it while this thread applies and paints this one.
     */
    onAnswer?: (f: Frame) => void,
  ): Promise<Frame | null> {
    if (this.busy || !this.handle) return null;
    // a request may be sent ahead of its answer (advanceAhead): the pump's, a run to an instant's,
    // and a run until a condition's (its next asks `unlessStopped`)
    return this.advanceNow(toNs, maxEvents, until, opts, onAnswer, true);
  }

  /**
   * Advance even when a request is in flight: this one waits its turn. For the frames that show an
   * instant the user moved to (after a seek, a run-until, a load): the pump's `advance` would answer
   * null while its own request is out, and the picture and terminal would keep the old state.
   */
  async advanceNow(
    toNs: number,
    maxEvents: number,
    until?: RunUntil,
    opts: AdvanceOptions = {},
    onAnswer?: (f: Frame) => void,
    /** The pump's own request (advance): one may be sent ahead of its answer (advanceAhead). */
    pumped = false,
  ): Promise<Frame | null> {
    if (!this.handle) return null;
    const f = await this.run(async () => {
      this.currentIsAdvance = pumped;
      const req: AdvanceRequest = { toNs, maxEvents, ...opts };
      if (until) req.until = until;
      const reuse = this.spare;
      this.spare = undefined;
      if (reuse) req.reuse = reuse;
      const pathReuse = this.sparePath;
      this.sparePath = undefined;
      if (pathReuse) req.pathReuse = pathReuse;
      const transfers = [
        ...(reuse ? [reuse.sampleTimes.buffer as ArrayBuffer, reuse.samples.buffer as ArrayBuffer] : []),
        ...(pathReuse ? transferablesOf(pathReuse) : []),
      ];
      const arg = transfers.length > 0 && this.opts.transfer ? this.opts.transfer(req, transfers) : req;
      return this.answered(await this.api().advance(arg));
    });
    return this.delivered(f, onAnswer);
  }

  /**
   * Whether `advanceAhead` would send now: a request in flight that is the pump's advance or a
   * query that only reads the lab (a chart's series, the packet list …), nothing queued but such
   * queries and requests already sent ahead, and fewer than two of the pump's advances out (in
   * flight or sent ahead). A command, a seek or a load queued waits for what is out and goes
   * before the next advance: it is logged at the instant the worker takes it.
   */
  get canAdvanceAhead(): boolean {
    return (
      this.busy &&
      this.handle !== null &&
      (this.currentIsAdvance || this.currentIsRead) &&
      (this.currentIsAdvance ? 1 : 0) + this.ahead < 2 &&
      this.queue.every((e) => e.kind !== 'other')
    );
  }

  /**
   * Send the pump's next request while its current one is still in flight, so the worker takes it
   * the moment it answers the current one instead of idling until this thread has taken that
   * answer and sent another (at the top speed the model cannot keep up, and on a busy main thread
   * that wait was a fifth of the wall time). The frame is taken, and everything queued after it
   * runs, in order, as for `advance`. Null (nothing sent) unless `canAdvanceAhead`. A query queued
   * meanwhile is answered after it, for the later instant (it says which).
   */
  advanceAhead(
    toNs: number,
    maxEvents: number,
    opts: AdvanceOptions = {},
    onAnswer?: (f: Frame) => void,
  ): Promise<Frame | null> {
    if (!this.canAdvanceAhead) return Promise.resolve(null);
    const gen = this.generation;
    // no spare buffers: the in-flight request holds them
    const sent = this.api().advance({ toNs, maxEvents, ...opts });
    this.ahead++;
    const op = async (): Promise<Frame | null> => {
      this.ahead--;
      // the worker was replaced since: the request went to the old one and will never be answered
      if (gen !== this.generation) return null;
      this.currentIsAdvance = true;
      return this.answered(await sent);
    };
    return this.run(op, undefined, 'ahead').then((f) => (f ? this.delivered(f, onAnswer) : null));
  }

  /** An advance's answer, inside its request slot: the clock and log bookkeeping. */
  private answered(f: Frame): Frame {
    this.nowNs = f.nowNs;
    this.furthest = f.furthestNs;
    this.deliveredChunks += f.terminal.length;
    return f;
  }

  /** An advance's answer, after its slot is free: the pump's hook, the frame applied, buffers kept. */
  private delivered(f: Frame, onAnswer?: (f: Frame) => void): Frame {
    // a request sent from onAnswer goes without this frame's buffers (they are not copied yet)
    onAnswer?.(f);
    this.opts.onFrame?.(f);
    // samples are copied by onFrame: their buffers go back with the next request; the path frame
    // stays on screen (hit-testing reads it) until the next one replaces it
    this.spare = f.buffers;
    this.sparePath = this.shownPath;
    this.shownPath = f.path;
    return f;
  }

  /**
   * Type a line at the current instant; false while a foreground command holds the prompt. Typed
   * before the end of the timeline (after a seek back), it forks it: later entries are dropped.
   */
  submit(line: string): Promise<boolean> {
    return this.run(async () => {
      const at = this.nowNs;
      const ok = await this.api().submit(line);
      if (ok) this.record({ atNs: at, kind: 'line', line });
      return ok;
    });
  }

  interrupt(): Promise<boolean> {
    return this.run(async () => {
      const at = this.nowNs;
      const ok = await this.api().interrupt();
      if (ok) this.record({ atNs: at, kind: 'interrupt' });
      return ok;
    });
  }

  private record(e: CommandLogEntry): void {
    this.log = this.log.filter((x) => x.atNs <= e.atNs);
    this.log.push(e);
    this.furthest = e.atNs;
  }

  /**
   * Go to `toNs` within [0, furthestNs]: the worker restores that instant exactly (checkpoint plus
   * replay). The log is kept whole: playing on replays later entries until a command forks it.
   */
  seek(toNs: number, maxEvents?: number, opts?: SeekOptions): Promise<LoadResult> {
    return this.run(
      async () => this.seekAnswer(await this.api().seek(toNs, maxEvents, opts)),
      this.opts.replayTimeoutMs,
    );
  }

  /** Go on with a seek under way (`seek` with an event budget answered `seeking`). */
  seekContinue(maxEvents: number): Promise<LoadResult> {
    return this.run(
      async () => this.seekAnswer(await this.api().seekContinue(maxEvents)),
      this.opts.replayTimeoutMs,
    );
  }

  /** Call off a seek under way: the lab is back where it was. */
  seekCancel(): Promise<LoadResult> {
    return this.run(async () => this.seekAnswer(await this.api().seekCancel()), this.opts.replayTimeoutMs);
  }

  /** Until a seek is done the lab is where it was (a respawned worker goes back there). */
  private seekAnswer(r: LoadResult): LoadResult {
    if (r.ok && !r.seeking) {
      this.nowNs = r.nowNs;
      this.furthest = r.furthestNs;
      this.deliveredChunks = r.transcriptLength;
    }
    return r;
  }

  /** The same as `seek` (older callers). */
  rewind(toNs: number): Promise<LoadResult> {
    return this.seek(toNs);
  }

  pathLayout(): Promise<PathLayout> {
    return this.run(() => this.api().pathLayout(), undefined, 'read');
  }

  inspectPacket(ref: PacketRef): Promise<PacketInspection | null> {
    return this.run(() => this.api().inspectPacket(ref), undefined, 'read');
  }

  inspectStage(host: number, stage: string, queue: number): Promise<StageInspection | null> {
    return this.run(() => this.api().inspectStage(host, stage, queue), undefined, 'read');
  }

  lessonBegin(): Promise<boolean> {
    return this.run(() => this.api().lessonBegin());
  }

  lessonObservation(): Promise<Observation | null> {
    return this.run(() => this.api().lessonObservation());
  }

  nitroTables(host: number): Promise<NitroTables | null> {
    return this.run(() => this.api().nitroTables(host), undefined, 'read');
  }

  labFiles(): Promise<LabFileInfo[]> {
    return this.run(() => this.api().labFiles(), undefined, 'read');
  }

  packetList(req: PacketListRequest): Promise<PacketListAnswer> {
    return this.run(() => this.api().packetList(req), undefined, 'read');
  }

  packetDetails(no: number): Promise<PacketDetails | null> {
    return this.run(() => this.api().packetDetails(no), undefined, 'read');
  }

  packetExport(sel: PacketSelection, format: 'pcap' | 'csv'): Promise<PacketExport> {
    return this.run(() => this.api().packetExport(sel, format), undefined, 'read');
  }

  readLabFile(host: string, path: string): Promise<Uint8Array | null> {
    return this.run(() => this.api().readLabFile(host, path), undefined, 'read');
  }

  chartSeries(req: ChartSeriesRequest): Promise<ChartSeries> {
    return this.run(() => this.api().chartSeries(req), undefined, 'read');
  }

  ladderSeries(req: LadderSeriesRequest): Promise<LadderSeries> {
    return this.run(() => this.api().ladderSeries(req), undefined, 'read');
  }

  /** Test hook (e2e): make the worker hang or die. */
  crash(how: 'throw' | 'hang' | 'hang-and-fail-replay'): void {
    // test hook: hang this worker, and make the one that replaces it fail while it replays
    if (how === 'hang-and-fail-replay') this.failNextReplay = true;
    void this.handle?.api.crash(how === 'hang-and-fail-replay' ? 'hang' : how);
  }

  dispose(): void {
    this.generation++;
    this.handle?.terminate();
    this.handle = null;
  }

  // -------------------------------------------------------------------------------------------

  private api(): SimApiLike {
    if (this.failed) throw new Error(`the simulation stopped: ${this.failed.message}`);
    if (!this.handle) throw new Error('no worker');
    return this.handle.api as SimApiLike;
  }

  private spawn(): void {
    const h = this.opts.spawn();
    const gen = ++this.generation;
    h.onError((why) => {
      if (gen !== this.generation) return;
      // failing again while it replays: that replay's own failure (replace() reports it)
      if (this.failReplay) {
        this.failReplay(new WorkerFailed(why));
        return;
      }
      // a request in flight will never be answered: fail it now (run() replaces the worker)
      if (this.busy && this.abortInflight) this.abortInflight(new WorkerFailed(why));
      else void this.replace(`the simulation worker failed (${why})`);
    });
    this.handle = h;
    if (this.failNextReplay && this.restarts > 0) {
      this.failNextReplay = false;
      void h.api.crash('fail-load');
    }
    this.spare = undefined;
    this.sparePath = undefined;
  }

  /** Run one request when none is in flight; a request that overruns replaces the worker. */
  private run<T>(op: Op<T>, timeoutMs = this.opts.timeoutMs ?? 10_000, kind: OpKind = 'other'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const go = async () => {
        this.busy = true;
        this.currentIsAdvance = false;
        this.currentIsRead = kind === 'read';
        const gen = this.generation;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<never>((_, rej) => {
          timer = setTimeout(() => rej(new Overrun(timeoutMs)), timeoutMs);
          this.abortInflight = rej;
        });
        let ok = false;
        let value: T | undefined;
        let error: unknown;
        try {
          value = await Promise.race([op(), timeout]);
          ok = true;
        } catch (e) {
          error = e;
          clearTimeout(timer);
          this.abortInflight = null;
          if (gen === this.generation && e instanceof Overrun)
            await this.replace(`the simulation worker did not answer within ${timeoutMs / 1000} s`, true);
          else if (gen === this.generation && e instanceof WorkerFailed)
            await this.replace(`the simulation worker failed (${e.message})`, true);
        }
        clearTimeout(timer);
        this.abortInflight = null;
        // free the slot before the caller resumes, so it can send its next request at once
        this.busy = false;
        this.currentIsRead = false;
        const next = this.queue.shift();
        if (next) next.go();
        if (ok) resolve(value as T);
        else reject(error);
      };
      if (this.busy) this.queue.push({ go: () => void go(), kind });
      else void go();
    });
  }

  /**
   * Terminate the worker, spawn another, reload the scenario and replay the log to where we were.
   * The replay is bounded (replayTimeoutMs) and a worker failing during it ends it; after that
   * second failure in a row the lab stops retrying (a session that crashes the model would crash
   * every new worker) and `onFailed` tells the user what failed and at which instant.
   */
  private async replace(why: string, fromRun = false): Promise<void> {
    this.handle?.terminate();
    this.handle = null;
    if (this.failed) return;
    this.restarts++;
    this.spawn();
    const atNs = this.nowNs;
    const limitMs = this.opts.replayTimeoutMs ?? 120_000;
    const reload = async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stop = new Promise<never>((_, rej) => {
        this.failReplay = rej;
        timer = setTimeout(
          () => rej(new Error(`the replay did not end within ${limitMs / 1000} s`)),
          limitMs,
        );
      });
      try {
        const r = await Promise.race([
          this.api().load(this.scenario, this.log, atNs, this.deliveredChunks, this.furthest),
          stop,
        ]);
        if (!r.ok) throw new Error(r.errors.join('; '));
      } finally {
        clearTimeout(timer);
        this.failReplay = null;
      }
    };
    try {
      // called from inside a request: the slot is ours; otherwise queue behind the one in flight
      if (fromRun) await reload();
      else await this.run(reload, limitMs + 1_000);
      const n = this.log.length;
      this.opts.onRestart?.(
        `${why}; it was restarted and your ${n} command${n === 1 ? '' : 's'} replayed to the same simulated instant. Nothing was lost.`,
      );
    } catch (e) {
      const again = e instanceof WorkerFailed ? `it failed again (${e.message})` : (e as Error).message;
      this.failed = { atNs, message: `${why}; restarted, ${again} while replaying your session` };
      (this.handle as WorkerHandle | null)?.terminate();
      this.handle = null;
      this.opts.onError?.(`${this.failed.message}, at t = ${(atNs / 1e9).toFixed(6)} s.`);
      this.opts.onFailed?.(this.failed);
    }
  }
}

class WorkerFailed extends Error {}

class Overrun extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}
