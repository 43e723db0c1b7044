/**
 * The data the visual lab's path view is drawn from: a layout (what stages and lanes exist) and
 * frames (what passed through them in a time window). Plain data and typed arrays only, so a frame
 * crosses the worker boundary by transfer and is handed back for reuse. `src/protocol/path-frame.ts`
 * re-exports these types for the UI (the engine may not import the protocol layer).
 *
 * Codes in a frame (stage, drop reason) are indices into the tables the layout carries
 * (`layout.stages`, `layout.dropReasons`), so the UI needs no runtime import from the engine.
 */

import type { Provenance } from '../../catalog/figure';

/** One lane of a stage: an ENA queue/ring, a vCPU, or the single lane of a stage without queues. */
export interface PathLane {
  /** Queue index as the probe reports it (ring index; 0 for single-lane stages). */
  readonly queue: number;
  readonly label: string;
  /** Capacity in wire packets (ring size), or 0 when the stage has no fixed packet capacity. */
  readonly capacityPackets: number;
  /** vCPU that serves this lane (ENA queue i → vCPU i mod nVcpu), or -1. */
  readonly cpu: number;
}

/** A sub-part of a stage the slides draw (the Nitro card's flow lookup, limiters and buckets). */
export interface PathStagePart {
  readonly id: string;
  readonly label: string;
  /** A shorter name for a narrow picture ("BW out"); the label when absent. */
  readonly short?: string;
  /** Human-readable setting, e.g. "12.5 Gbps peak, 0.781 Gbps baseline". */
  readonly detail: string;
}

export interface PathStageLayout {
  /** Stage code: index into `PathLayout.stages`. */
  readonly code: number;
  /** Stage name as the probe calls it (`tx_ring`, `nitro_egress`, …). */
  readonly name: string;
  /** What the drawing labels it ("TX rings", "Nitro card (egress)"). */
  readonly label: string;
  /** 'tx': the sending half of the host, 'rx': the receiving half, 'fabric': between hosts. */
  readonly side: 'tx' | 'rx' | 'fabric';
  readonly lanes: readonly PathLane[];
  readonly parts: readonly PathStagePart[];
}

export interface PathInstanceLayout {
  readonly index: number;
  readonly name: string;
  readonly type: string;
  readonly ip: string;
  readonly vcpus: number;
  readonly queues: number;
  readonly nitroGeneration: number;
  /**
   * The network path (catalog NetworkPath: 'nitro', 'xen-ena', 'xen-sriov', 'xen-pv'), the guest
   * driver ('ena', 'ixgbevf', 'vif'), and what the host's network layer is called in the picture
   * ("Nitro card", or on a Xen host what carries the packets there). Absent in older layouts: Nitro.
   */
  readonly path?: string;
  readonly driver?: string;
  readonly hostLayerLabel?: string;
  /** The stages of this host, in path order (fabric excluded: it is the lab's). */
  readonly stages: readonly PathStageLayout[];
}

export interface PathLayout {
  /** Changes whenever the layout changes (queue count, ring size, a new instance). */
  readonly revision: number;
  /** Stage names by code (the probe's order). */
  readonly stages: readonly string[];
  /** Drop reasons by code (code 0 = no drop; reason codes start at 1). */
  readonly dropReasons: readonly string[];
  readonly placement: string;
  /** "cluster placement group", "same AZ", … and the one-way fabric latency. */
  readonly placementLabel: string;
  readonly fabricOneWayNs: number;
  readonly instances: readonly PathInstanceLayout[];
  /** The fabric between the cards (one lane: packets in flight). */
  readonly fabric: PathStageLayout;
}

/** Fate of a passage in a frame. */
export const PASSAGE_LEFT = 0;
export const PASSAGE_DROPPED = 1;
/** Still inside the stage at the frame's end time (exitNs is the frame's toNs). */
export const PASSAGE_INSIDE = 2;

/**
 * What passed through the path in [fromNs, toNs]. Passages are struct-of-arrays: entry i is a batch
 * of `count[i]` wire packets of flow `flow[i]` crossing stage `stage[i]` (lane `queue[i]`) of host
 * `host[i]` from `enterNs[i]` to `exitNs[i]`, leaving it, dying in it or still inside it.
 *
 * Truthfulness at high rates: at most `capacity` passages are carried. When more overlapped the
 * window, `sampled` is true and an evenly spread subset (every `stride`-th) is carried;
 * `totalPassages` and `totalPackets` give the real figures, and `laneDensity` gives, per lane, the
 * wire packets that entered it inside the window (the density to draw instead of every packet).
 */
export interface PathFrame {
  fromNs: number;
  toNs: number;
  revision: number;
  // -------- passages (first `n` entries valid)
  n: number;
  readonly capacity: number;
  /** Recorder-wide passage id, for `inspectPacket`; -1 for a batch still inside (use flow + seq). */
  readonly id: Float64Array;
  /** TCP sequence number (bytes) or UDP datagram number of the batch's first packet. */
  readonly seq: Float64Array;
  readonly enterNs: Float64Array;
  readonly exitNs: Float64Array;
  readonly host: Uint8Array;
  readonly stage: Uint8Array;
  readonly queue: Uint16Array;
  readonly flow: Uint32Array;
  readonly count: Uint32Array;
  readonly bytes: Float64Array;
  /** vCPU that handled the batch at this stage, or -1. */
  readonly cpu: Int16Array;
  /** PASSAGE_LEFT, PASSAGE_DROPPED or PASSAGE_INSIDE. */
  readonly fate: Uint8Array;
  /** Drop reason code (index into layout.dropReasons), 0 when not dropped. */
  readonly reason: Uint8Array;
  sampled: boolean;
  /**
   * False while the recorder keeps counts only (a fast-forward): no batches are carried, lanes give
   * occupancy, peaks, drops and, in `laneDensity`, the packets that entered since the previous frame.
   */
  detail: boolean;
  /** Carried 1 passage in `stride` (1 when not sampled). */
  stride: number;
  totalPassages: number;
  totalPackets: number;
  // -------- lanes: one entry per (host, stage, queue) the recorder has seen (first `lanes` valid)
  lanes: number;
  readonly laneCapacity: number;
  readonly laneHost: Uint8Array;
  readonly laneStage: Uint8Array;
  readonly laneQueue: Uint16Array;
  /** Wire packets inside the lane at toNs. */
  readonly laneOccupancy: Float64Array;
  /** Peak occupancy inside [fromNs, toNs] (over the history the recorder still holds). */
  readonly lanePeak: Float64Array;
  /** Wire packets that entered the lane inside the window. */
  readonly laneDensity: Float64Array;
  /** Wire packets that died in the lane inside the window. */
  readonly laneDrops: Float64Array;
  /**
   * What holds the lane's packets at toNs, as a drop-reason code (layout.dropReasons; 0: nothing
   * named): for a Nitro stage, the allowance or limit its waiting packets are queued for.
   */
  readonly laneHeld: Uint8Array;
  // -------- drops from the frame's drop start (fromNs unless the caller asked for a longer look-back)
  // to toNs (first `drops` entries valid, newest kept when over capacity)
  drops: number;
  readonly dropCapacity: number;
  readonly dropNs: Float64Array;
  readonly dropHost: Uint8Array;
  readonly dropStage: Uint8Array;
  readonly dropQueue: Uint16Array;
  readonly dropFlow: Uint32Array;
  readonly dropCount: Uint32Array;
  readonly dropReason: Uint8Array;
  /** Wire packets dropped in the drop window (all of them, also when the list was cut). */
  dropTotal: number;
  // -------- the flows that appear in this frame (first `flows` entries valid)
  flows: number;
  readonly flowCapacity: number;
  readonly flowId: Uint32Array;
  /** Sending and receiving host indices (-1: outside the lab, e.g. the internet). */
  readonly flowSrc: Int16Array;
  readonly flowDst: Int16Array;
  /** The receiver's RX queue (RSS or n-tuple) and the vCPU serving it: the colour keys. */
  readonly flowRxQueue: Int16Array;
  readonly flowRxCpu: Int16Array;
  /** The sender's TX queue (skb hash pick), -1 if unknown. */
  readonly flowTxQueue: Int16Array;
}

/** All transferable buffers of a frame (for postMessage transfer lists). */
export function frameBuffers(f: PathFrame): ArrayBuffer[] {
  const arrays = [
    f.id,
    f.seq,
    f.enterNs,
    f.exitNs,
    f.host,
    f.stage,
    f.queue,
    f.flow,
    f.count,
    f.bytes,
    f.cpu,
    f.fate,
    f.reason,
    f.laneHost,
    f.laneStage,
    f.laneQueue,
    f.laneOccupancy,
    f.lanePeak,
    f.laneDensity,
    f.laneDrops,
    f.laneHeld,
    f.dropNs,
    f.dropHost,
    f.dropStage,
    f.dropQueue,
    f.dropFlow,
    f.dropCount,
    f.dropReason,
    f.flowId,
    f.flowSrc,
    f.flowDst,
    f.flowRxQueue,
    f.flowRxCpu,
    f.flowTxQueue,
  ];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/** Allocate an empty frame with room for `capacity` passages (lanes, drops, flows sized to match). */
export function allocPathFrame(
  capacity: number,
  laneCapacity = 512,
  dropCapacity = 1024,
  flowCapacity = 1024,
): PathFrame {
  return {
    fromNs: 0,
    toNs: 0,
    revision: 0,
    n: 0,
    capacity,
    id: new Float64Array(capacity),
    seq: new Float64Array(capacity),
    enterNs: new Float64Array(capacity),
    exitNs: new Float64Array(capacity),
    host: new Uint8Array(capacity),
    stage: new Uint8Array(capacity),
    queue: new Uint16Array(capacity),
    flow: new Uint32Array(capacity),
    count: new Uint32Array(capacity),
    bytes: new Float64Array(capacity),
    cpu: new Int16Array(capacity),
    fate: new Uint8Array(capacity),
    reason: new Uint8Array(capacity),
    sampled: false,
    detail: true,
    stride: 1,
    totalPassages: 0,
    totalPackets: 0,
    lanes: 0,
    laneCapacity,
    laneHost: new Uint8Array(laneCapacity),
    laneStage: new Uint8Array(laneCapacity),
    laneQueue: new Uint16Array(laneCapacity),
    laneOccupancy: new Float64Array(laneCapacity),
    lanePeak: new Float64Array(laneCapacity),
    laneDensity: new Float64Array(laneCapacity),
    laneDrops: new Float64Array(laneCapacity),
    laneHeld: new Uint8Array(laneCapacity),
    drops: 0,
    dropCapacity,
    dropNs: new Float64Array(dropCapacity),
    dropHost: new Uint8Array(dropCapacity),
    dropStage: new Uint8Array(dropCapacity),
    dropQueue: new Uint16Array(dropCapacity),
    dropFlow: new Uint32Array(dropCapacity),
    dropCount: new Uint32Array(dropCapacity),
    dropReason: new Uint8Array(dropCapacity),
    dropTotal: 0,
    flows: 0,
    flowCapacity,
    flowId: new Uint32Array(flowCapacity),
    flowSrc: new Int16Array(flowCapacity),
    flowDst: new Int16Array(flowCapacity),
    flowRxQueue: new Int16Array(flowCapacity),
    flowRxCpu: new Int16Array(flowCapacity),
    flowTxQueue: new Int16Array(flowCapacity),
  };
}

/** Reference to one passage (from a frame's `id`), for the packet inspector. */
export type PacketRef =
  /** A passage that left or died (a frame's `id` ≥ 0). */
  | { readonly id: number }
  /** A packet by flow and sequence number (a frame's `flow` and `seq`: also batches still inside a stage). */
  | { readonly flow: number; readonly seq: number; readonly count?: number };

export interface PacketStageVisit {
  readonly stage: string;
  readonly label: string;
  readonly host: string;
  readonly queue: number;
  readonly enterNs: number;
  /** When it left or died (null: still inside at the recorder's last observation). */
  readonly exitNs: number | null;
  readonly cpu: number;
  /** 'left' | 'dropped' | 'inside' */
  readonly fate: 'left' | 'dropped' | 'inside';
  readonly dropReason: string | null;
  /** What was decided here, in words ("flow cache hit: accelerated path", "queued 412 µs behind …"). */
  readonly decision: string;
}

export interface PacketInspection {
  /** The passage inspected, or -1 when asked by flow and sequence number. */
  readonly id: number;
  readonly flowId: number;
  readonly tuple: {
    readonly proto: string;
    readonly srcIp: string;
    readonly srcPort: number;
    readonly dstIp: string;
    readonly dstPort: number;
  };
  /** IP total length of one packet, and how many identical packets the batch held. */
  readonly sizeBytes: number;
  readonly count: number;
  /** TCP sequence number (bytes) or UDP datagram number of the batch's first packet. */
  readonly seq: number;
  readonly sender: string | null;
  readonly receiver: string | null;
  /** The sender's TX queue pick: skb hash → reciprocal_scale → queue. */
  readonly tx: { readonly skbHash: number; readonly queue: number; readonly queues: number } | null;
  /** The receiver's RX steering: Toeplitz (or CRC32) hash → indirection entry → queue → vCPU. */
  readonly rss: {
    readonly hashFunction: string;
    readonly keyConfigurable: boolean;
    readonly hash: number;
    readonly indirIndex: number;
    readonly indirSize: number;
    readonly queue: number;
    readonly cpu: number;
    /** An n-tuple rule steered it instead of RSS (its location), or null. */
    readonly ntupleRule: number | null;
  } | null;
  /** Flow setup on each card (the decision records of `lab trace`). */
  readonly flowSetup: ReadonlyArray<{
    readonly host: string;
    readonly direction: 'egress' | 'ingress';
    readonly cacheState: string | null;
    readonly conntrack: string | null;
    readonly stages: ReadonlyArray<{ stage: string; result: string; rule: string; resourceId?: string }>;
  }>;
  readonly visits: readonly PacketStageVisit[];
  /** Set when the recorder no longer holds this passage (its history is bounded). */
  readonly expired: boolean;
}

export interface StageParam {
  readonly name: string;
  readonly value: string;
  readonly provenance: Provenance;
  readonly source: string;
  readonly note?: string;
}

/**
 * One live-state value of a stage, with its unit; the UI words it (src/ui/inspectors/format.ts).
 * `count`: a number of `unit` (a counter when unit is ''); `pair`: now and peak of a ring's
 * descriptors; `bucket`: a token bucket's level as of its last update (below 0: a debt); `share`:
 * a fraction of a capacity (burst credits) and what the account is doing.
 */
export type StageStateValue =
  | { readonly kind: 'count'; readonly n: number; readonly unit: string }
  | { readonly kind: 'pair'; readonly now: number; readonly peak: number }
  | {
      readonly kind: 'bucket';
      readonly tokens: number;
      readonly depth: number;
      readonly unit: 'bytes' | 'packets';
    }
  | { readonly kind: 'share'; readonly fraction: number; readonly mode: string };

export interface StageInspection {
  readonly host: string;
  readonly stage: string;
  readonly label: string;
  readonly queue: number;
  /** How the stage works, in a few sentences, where the picture alone does not say (dom0's netback). */
  readonly mechanism?: readonly string[];
  readonly params: readonly StageParam[];
  /** Live state (packets inside, ring used/peak, bucket tokens, credits, counters) as values with units. */
  readonly state: ReadonlyArray<{ readonly name: string; readonly value: StageStateValue }>;
  /** Occupancy change points (time, wire packets) the recorder holds, oldest first. */
  readonly historyNs: readonly number[];
  readonly historyOccupancy: readonly number[];
  readonly enteredPackets: number;
  readonly leftPackets: number;
  readonly droppedPackets: number;
  readonly dropsByReason: ReadonlyArray<{ readonly reason: string; readonly packets: number }>;
}

/** The Nitro card's tables as NET402's "Flow Setup" slides draw them (the data of `lab nitro show`). */
export interface NitroTables {
  readonly host: string;
  readonly eniId: string | null;
  readonly adjacency: ReadonlyArray<{ readonly target: string; readonly state: string }>;
  readonly conntrack: ReadonlyArray<{
    readonly tuple: string;
    readonly state: string;
    readonly tracking: string;
    readonly idleRemainingS: number;
    readonly idleTimeoutS: number;
  }>;
  readonly flowCache: ReadonlyArray<{
    readonly flow: string;
    readonly direction: string;
    readonly state: string;
    readonly tracking: string;
  }>;
  readonly allowance: { readonly max: number; readonly available: number; readonly exceeded: number };
  readonly flowPath: {
    readonly slowPathPackets: number;
    readonly acceleratedPackets: number;
    readonly flowSetups: number;
    readonly vpcDeniedPackets: number;
  };
}
