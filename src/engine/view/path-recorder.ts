/**
 * The path recorder: what the visual lab draws and inspects, in three parts: the probe sink
 * (path-sink.ts: passages, occupancy, drops, flows as the probe reports them), the frame writer
 * (path-frame-writer.ts: layout and frames for the picture) and the inspections
 * (path-inspections.ts: a packet's story, a stage's parameters and state, the card's tables).
 */
import type { Lab } from '../lab/lab';
import { PathFrameWriter } from './path-frame-writer';
import { PathInspections } from './path-inspections';
import { PathSink, type PathRecorderOptions } from './path-sink';
import type {
  NitroTables,
  PacketInspection,
  PacketRef,
  PathFrame,
  PathLayout,
  StageInspection,
} from './path-types';

export { fmtNs } from './path-inspections';
export { DROP_REASON_LIST, hostLayerNames } from './path-names';
export type { PathRecorderOptions } from './path-sink';

export class PathRecorder extends PathSink {
  private readonly writer: PathFrameWriter;
  private readonly inspections: PathInspections;

  constructor(lab: Lab, opts: PathRecorderOptions = {}) {
    super(lab, opts);
    this.writer = new PathFrameWriter(this);
    this.inspections = new PathInspections(this);
  }

  layout(): PathLayout {
    return this.writer.layout();
  }

  /**
   * The passages overlapping [fromNs, toNs] (capped at the frame's capacity, evenly sampled beyond),
   * per-lane occupancy at toNs and its peak inside the window, and the drops inside the window.
   * `reuse`: a frame handed back by the UI (its buffers are overwritten). `dropsFromNs`: where the
   * drop list starts (earlier than fromNs lets the view keep recent drops marked for a while).
   */
  frame(fromNs: number, toNs: number, reuse?: PathFrame, capacity = 5000, dropsFromNs = fromNs): PathFrame {
    return this.writer.frame(fromNs, toNs, reuse, capacity, dropsFromNs);
  }

  /** Everything known about one passage's packet: tuple, steering, flow setup, each stage passed. */
  inspectPacket(ref: PacketRef): PacketInspection | null {
    return this.inspections.inspectPacket(ref);
  }

  /** A stage lane's parameters (with provenance) and live state, and the history the recorder holds. */
  inspectStage(host: number, stage: string, queue: number): StageInspection | null {
    return this.inspections.inspectStage(host, stage, queue);
  }

  /** The Nitro card's tables (adjacency/mapping, conntrack, flow cache), as `lab nitro show` prints them. */
  nitroTables(host: number): NitroTables | null {
    return this.inspections.nitroTables(host);
  }
}
