/**
 * Building blocks shared by the simulated Linux qdiscs: the internal `QdiscNode` contract every
 * qdisc implements, tc handle arithmetic, a batch deque, and the kernel-style option records
 * (what `tc` sends over netlink, already converted to kernel units).
 *
 * Guarantees: a node counts statistics the way the kernel's `gnet_stats` do — bytes/packets when a
 * packet leaves the qdisc, drops/backlog in packets (a batch counts `count` packets) and bytes
 * (`qdiscBatchBytes`). Nodes never throw on the hot path; management errors are returned as
 * `TcError` values (errno + the kernel's extack text) that the `tc` command prints.
 */
import { type Packet, splitBatch } from '../../model/packet';
import type { QdiscContext, QdiscStats } from './types';

/** TC_H_ROOT: the parent id of a root qdisc. */
export const TC_H_ROOT = 0xffffffff;
/** TC_H_UNSPEC: no handle given. */
export const TC_H_UNSPEC = 0;

export const tcMajor = (h: number): number => (h >>> 16) & 0xffff;
export const tcMinor = (h: number): number => h & 0xffff;
export const tcMake = (major: number, minor: number): number => ((major << 16) | (minor & 0xffff)) >>> 0;

/** Kernel `psched_mtu`: the device MTU plus the Ethernet header. */
export const pschedMtu = (ctx: QdiscContext): number => ctx.mtu() + 14;

export type QdiscKind =
  | 'pfifo'
  | 'bfifo'
  | 'pfifo_fast'
  | 'fq_codel'
  | 'fq'
  | 'htb'
  | 'tbf'
  | 'mq'
  | 'noqueue';

export const MODELLED_KINDS: readonly QdiscKind[] = [
  'pfifo',
  'bfifo',
  'pfifo_fast',
  'fq_codel',
  'fq',
  'htb',
  'tbf',
  'mq',
  'noqueue',
];

/**
 * Option records as the kernel receives them (netlink attributes). `undefined` = attribute absent
 * (kernel default on create, unchanged on change). Times in microseconds (tc's TIME_UNITS), rates in
 * bytes per second, token-bucket depths in nanoseconds (tc converts bytes → psched ticks; 1 tick = 64 ns).
 */
export interface FifoOptions {
  kind: 'pfifo' | 'bfifo';
  limit?: number;
}
export interface FqCodelOptions {
  kind: 'fq_codel';
  limit?: number;
  flows?: number;
  quantum?: number;
  targetUs?: number;
  intervalUs?: number;
  ceThresholdUs?: number;
  memoryLimit?: number;
  ecn?: boolean;
  dropBatch?: number;
}
export interface FqOptions {
  kind: 'fq';
  limit?: number;
  flowLimit?: number;
  quantum?: number;
  initialQuantum?: number;
  /** bytes/s; Infinity = unlimited (~0U in the kernel). */
  maxrate?: number;
  buckets?: number;
  pacing?: boolean;
  refillDelayUs?: number;
  lowRateThreshold?: number;
  orphanMask?: number;
  timerSlackUs?: number;
  horizonUs?: number;
  horizonDrop?: boolean;
  ceThresholdUs?: number;
}
export interface HtbOptions {
  kind: 'htb';
  r2q?: number;
  defcls?: number;
  directQlen?: number;
}
export interface TbfOptions {
  kind: 'tbf';
  rate: number;
  bufferNs: number;
  limit: number;
  peakrate?: number;
  mtuNs?: number;
}
export interface PlainOptions {
  kind: 'pfifo_fast' | 'mq' | 'noqueue';
}
export type QdiscOptions = FifoOptions | FqCodelOptions | FqOptions | HtbOptions | TbfOptions | PlainOptions;

export interface HtbClassOptions {
  /** bytes/s */
  rate: number;
  ceil: number;
  bufferNs: number;
  cbufferNs: number;
  prio: number;
  /** 0 = computed from rate / r2q. */
  quantum: number;
}

export type TcErrno =
  | 'EEXIST'
  | 'ENOENT'
  | 'EINVAL'
  | 'EOPNOTSUPP'
  | 'ELOOP'
  | 'ENOBUFS'
  | 'ERANGE'
  | 'EBUSY';

/** A failed management request: errno and the kernel's extack message (if the kernel sets one). */
export interface TcError {
  errno: TcErrno;
  extack?: string;
}
/** A successful management request, possibly with an extack warning (e.g. HTB's quantum warning). */
export interface TcOk {
  warning?: string;
}
export type TcResult = TcError | TcOk;
export const isTcError = (r: TcResult): r is TcError => 'errno' in r;

/** The internal contract every qdisc implements. */
export interface QdiscNode {
  readonly kind: QdiscKind;
  /** u32 handle (major:0). 0 for default-created qdiscs. */
  handle: number;
  /** u32 parent classid, or TC_H_ROOT. */
  parent: number;
  enqueue(p: Packet, nowNs: number): void;
  dequeue(nowNs: number): Packet | null;
  nextWakeNs(nowNs: number): number;
  qlen(): number;
  backlogBytes(): number;
  /** Statistics as `tc -s` reports them for this qdisc (composite qdiscs include their children). */
  stats(): QdiscStats;
  /** Options as the kernel dumps them (tc prints these), keys in iproute2's print order. */
  dumpOptions(): Record<string, number | boolean | string>;
  /** Kind-specific extended statistics (fq_codel, fq), or null. */
  xstats(): Record<string, number> | null;
  /** Apply a `tc qdisc change`. */
  change(opts: QdiscOptions): TcResult;
  /** Drop everything queued (qdisc destroyed or reset); not counted as drops. */
  reset(): void;
  /** Visible child qdiscs, in `tc qdisc show` dump order. */
  childQdiscs(): QdiscNode[];
  /** Class operations, for classful qdiscs. */
  readonly classOps: ClassOps | null;
}

export interface ClassDump {
  kind: string;
  classid: number;
  parent: number;
  /** Handle of a user-visible leaf qdisc (tcm_info), 0 if none. */
  leafHandle: number;
  options: Record<string, number | boolean | string>;
  stats: QdiscStats;
  xstats: Record<string, number> | null;
}

export interface ClassOps {
  /** Whether the class exists. */
  has(classid: number): boolean;
  /** The class's leaf qdisc (null if it has none). */
  leaf(classid: number): QdiscNode | null;
  /** Attach `q` (or the default qdisc when null) to the class; returns the previous leaf. */
  graft(classid: number, q: QdiscNode | null): TcResult;
  /** Whether the class accepts a child qdisc (false for e.g. inner HTB classes). */
  canGraft(classid: number): boolean;
  dump(): ClassDump[];
  /** Create or change a class (HTB); others return EOPNOTSUPP. */
  change(classid: number, parent: number, opts: HtbClassOptions | null, create: boolean): TcResult;
  remove(classid: number): TcResult;
}

export function emptyStats(): QdiscStats {
  return { bytes: 0, packets: 0, drops: 0, overlimits: 0, requeues: 0, backlogBytes: 0, backlogPackets: 0 };
}

export function addStats(into: QdiscStats, s: QdiscStats): void {
  into.bytes += s.bytes;
  into.packets += s.packets;
  into.drops += s.drops;
  into.overlimits += s.overlimits;
  into.requeues += s.requeues;
  into.backlogBytes += s.backlogBytes;
  into.backlogPackets += s.backlogPackets;
}

/**
 * A FIFO of batches with O(1) push/pop at both ends (ring buffer that grows by doubling), tracking
 * packets and bytes. Allocation happens only when the ring grows.
 */
export class BatchDeque {
  private buf: Array<Packet | undefined>;
  private head = 0;
  private size = 0;
  packets = 0;
  bytes = 0;

  constructor(capacity = 16) {
    this.buf = new Array<Packet | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  private grow(): void {
    const old = this.buf;
    const n = old.length;
    const next = new Array<Packet | undefined>(n * 2);
    for (let i = 0; i < this.size; i++) next[i] = old[(this.head + i) % n];
    this.buf = next;
    this.head = 0;
  }

  pushBack(p: Packet): void {
    if (this.size === this.buf.length) this.grow();
    this.buf[(this.head + this.size) % this.buf.length] = p;
    this.size++;
    this.packets += p.count;
    this.bytes += (p.sizeBytes + 14) * p.count;
  }

  pushFront(p: Packet): void {
    if (this.size === this.buf.length) this.grow();
    this.head = (this.head - 1 + this.buf.length) % this.buf.length;
    this.buf[this.head] = p;
    this.size++;
    this.packets += p.count;
    this.bytes += (p.sizeBytes + 14) * p.count;
  }

  peek(): Packet | null {
    return this.size === 0 ? null : (this.buf[this.head] ?? null);
  }

  popFront(): Packet | null {
    if (this.size === 0) return null;
    const p = this.buf[this.head]!;
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) % this.buf.length;
    this.size--;
    this.packets -= p.count;
    this.bytes -= (p.sizeBytes + 14) * p.count;
    return p;
  }

  /** Account for `n` packets removed from the head batch in place (its count already reduced). */
  shrinkHead(n: number, packetBytes: number): void {
    this.packets -= n;
    this.bytes -= n * packetBytes;
  }

  clear(): void {
    this.buf.fill(undefined);
    this.head = 0;
    this.size = 0;
    this.packets = 0;
    this.bytes = 0;
  }
}

/**
 * Drop `n` packets off the front of batch `p` (0 < n ≤ p.count) and report them. When the whole batch
 * goes it is reported as is; otherwise the dropped head is split off so the kept part keeps later
 * sequence numbers. Returns the kept remainder (or null when all was dropped). NOTE mutates p.
 */
export function dropHead(
  ctx: QdiscContext,
  p: Packet,
  n: number,
  reason: Parameters<QdiscContext['drop']>[2],
): Packet | null {
  if (n >= p.count) {
    ctx.drop(p, p.count, reason);
    return null;
  }
  const rest = splitBatch(p, n);
  ctx.drop(p, n, reason);
  return rest;
}

/**
 * Admit at most `room` packets of batch `p` (tail drop of the excess, counted in `stats.drops`).
 * Returns the admitted part or null.
 */
export function admit(ctx: QdiscContext, p: Packet, room: number, stats: QdiscStats): Packet | null {
  if (room >= p.count) return p;
  if (room <= 0) {
    stats.drops += p.count;
    ctx.drop(p, p.count, 'qdisc_overlimit');
    return null;
  }
  const excess = splitBatch(p, room);
  stats.drops += excess.count;
  ctx.drop(excess, excess.count, 'qdisc_overlimit');
  return p;
}
