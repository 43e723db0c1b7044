/**
 * The engine's one import surface for the layers above it (the worker, the CLI, the protocol's and
 * the lessons' types): building and running a lab, its observers (path recorder, chart recorder,
 * capture ring) and the tools the worker reuses (pcap, tcpdump's wire mapping, iperf3's JSON).
 * Deep imports from outside src/engine fail tests/engine/architecture.test.ts; the model
 * parameters (model/params.ts) are a layer of their own below the scenario and are imported direct.
 */

// building a lab
export { type Instance, Lab } from './lab/lab';
export { fileSize, toBytes } from './lab/files';
// running a session
export {
  createLab,
  LabSession,
  NoProgressError,
  type RunOptions,
  type RunRecord,
  runLine,
  runScript,
} from './session/runner';
export {
  type AdvanceResult,
  InteractiveSession,
  type OutputChunk,
  replaySession,
  type SessionLogEntry,
} from './session/interactive-session';
export { Timeline, type TimelineOptions, type TimelineRun } from './session/timeline';
// packets and the probe every stage reports to
export {
  type Packet,
  TCP_FLAG_ACK,
  TCP_FLAG_FIN,
  TCP_FLAG_PSH,
  TCP_FLAG_RST,
  TCP_FLAG_SYN,
} from './model/packet';
export type { ProbeSink, ProbeStage } from './model/probe';
export { hashString } from './core/rng';
// observers
export { ChartRecorder } from './metrics/chart-recorder';
export { PathRecorder } from './view/path-recorder';
export {
  type CaptureFlow,
  CaptureRing,
  META_FRAG,
  META_FRAG_LAST,
  META_ICMP_REPLY,
  META_IN,
  META_LAST,
  META_RESTORED,
  META_RETX,
  META_SENT_ON_MS,
  ROW_CREDITS,
  ROW_DROP,
  ROW_RX,
  ROW_TX,
} from './view/capture-ring';
export type {
  NitroTables,
  PacketInspection,
  PacketRef,
  PacketStageVisit,
  PathFrame,
  PathInstanceLayout,
  PathLane,
  PathLayout,
  PathStageLayout,
  PathStagePart,
  StageInspection,
  StageParam,
  StageStateValue,
} from './view/path-types';
// tools the worker reuses
export { encodeFrame, PcapWriter, type TcpOption, type WirePacket } from './shell/commands/tcpdump/pcap';
export { WireMapper } from './shell/commands/tcpdump';
export { batchGapNs } from './shell/commands/tcpdump/batch-capture';
export { serializeIperf3Json } from './shell/commands/iperf3-report';
