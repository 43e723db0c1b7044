/**
 * One run of the lab with the worker's observers: the path recorder, the chart recorder, the packet
 * list's capture ring and the drop counts, plus the lab events the next frame carries (collected
 * only while the run is the live one) and the "run until" halts. The timeline keeps several (the
 * live one, checkpoints, the runs a seek left).
 */
import {
  CaptureRing,
  ChartRecorder,
  type InteractiveSession,
  PathRecorder,
  type TimelineRun,
} from '../src/engine';
import type { LabEvent } from '../src/protocol/sim-api';

/** One run of the lab with the service's observers: the path and chart recorders, the drop counts. */
export class ServiceRun implements TimelineRun {
  readonly path: PathRecorder;
  readonly charts: ChartRecorder;
  /** The packet list's capture (every run keeps its own: a seek makes another run the live one). */
  readonly capture: CaptureRing;
  /** Packets dropped, per instance in lab order, since t = 0. */
  readonly drops: number[];
  /** Lab events for the next frame (collected only while this is the live run). */
  events: LabEvent[] = [];
  collect = false;
  /** Stop the scheduler right after the event that drops a packet / exhausts credits ("run until"). */
  haltOn: 'drop' | 'credits' | null = null;
  private readonly unsubscribe: () => void;
  private readonly detachCharts: () => void;

  constructor(
    readonly session: InteractiveSession,
    captureCap?: number,
  ) {
    const lab = session.lab;
    this.path = new PathRecorder(lab).attach();
    this.capture = new CaptureRing(lab, captureCap).attach();
    this.charts = new ChartRecorder(lab.instances.size);
    const detachCharts = lab.probe.attach(this.charts);
    this.detachCharts = detachCharts;
    const names = [...lab.instances.keys()];
    this.drops = names.map(() => 0);
    const unsubscribe = lab.subscribe((e) => {
      if (e.type === 'PacketDropped') {
        const i = names.indexOf(e.host);
        if (i >= 0) this.drops[i]! += e.packets;
        if (this.haltOn === 'drop') lab.sched.halted = true;
        if (!this.collect) return;
        // one event per (host, stage, reason) per frame is enough for the UI
        const detail = `${e.stage}: ${e.reason}`;
        const seen = this.events.find((x) => x.kind === 'drop' && x.host === e.host && x.detail === detail);
        if (!seen) this.events.push({ atNs: e.atNs, kind: 'drop', host: e.host, detail });
      } else if (e.type === 'CreditsExhausted' || e.type === 'CreditsRestored') {
        if (e.type === 'CreditsExhausted' && this.haltOn === 'credits') lab.sched.halted = true;
        if (!this.collect) return;
        this.events.push({
          atNs: e.atNs,
          kind: e.type === 'CreditsExhausted' ? 'credits-exhausted' : 'credits-restored',
          host: e.host,
          detail: e.direction,
        });
      }
    });
    this.unsubscribe = () => {
      unsubscribe();
      detachCharts();
      this.capture.detach();
    };
  }

  /** Stop one observer for good (tests/bench/worker-cpu.ts measures what each costs). */
  detachObserver(which: 'path' | 'capture' | 'charts'): void {
    if (which === 'path') this.path.detach();
    else if (which === 'capture') this.capture.detach();
    else this.detachCharts();
  }

  setDetail(on: boolean): void {
    if (this.path.detailed !== on) this.path.setDetail(on);
  }

  restartDetail(): void {
    this.path.restartDetail();
  }

  dispose(): void {
    this.unsubscribe();
    this.path.detach();
  }
}
