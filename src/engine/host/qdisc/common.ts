/**
 * Building blocks shared by the simulated Linux qdiscs: the internal `QdiscNode` contract every
 * qdisc implements, tc handle arithmetic, skb accounting for TCP GSO batches, a batch deque, and the
 * kernel-style option records (what `tc` sends over netlink, already converted to kernel units).
 *
 * Guarantees: a node counts statistics the way the kernel's `gnet_stats` do — `bytes`/`packets` when a
 * packet leaves the qdisc, in wire packets (bstats_update adds gso_segs for a GSO skb) and
 * `qdiscBatchBytes`; limits, qlen/backlog packets and drops in skbs (`skbsOf`: a TCP data batch is
 * a fraction of a GSO skb, a UDP datagram or pure ACK is one skb). Skb figures are kept fractional
 * internally and rounded only for display (`displaySkbs`). Nodes never throw on the hot path;
 * management errors are returned as `TcError` values (errno + the kernel's extack text) that the `tc`
 * command prints.
 */
import { type Packet, splitBatch } from '../../model/packet';
import { storeAsDoubles } from '../../core/doubles';
import { MODEL_PARAMS } from '../../model/params';
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

// ---------------------------------------------------------------- skb accounting

/**
 * MAX_TCP_HEADER (include/net/tcp.h: 128 + MAX_HEADER) on a distro kernel with tunnels and WLAN
 * configured: 320 bytes. sk_setup_caps leaves sk_gso_max_size = gso_max_size − (MAX_TCP_HEADER + 1)
 * (older kernels subtract the same in tcp_xmit_size_goal), so TCP builds skbs of
 * floor(65215 / mss) segments: 562 of 116 bytes, 45 of 1448, 7 of 8949.
 */
export const MAX_TCP_HEADER_BYTES = 320;

/**
 * gso_max_size the qdiscs assume (the documented default). QdiscContext carries no model parameters,
 * so a scenario override of `gsoMaxBytes` changes the host's CPU costs but not the qdiscs' skb counts.
 */
export const GSO_MAX_BYTES: number = MODEL_PARAMS.gsoMaxBytes.value;

/**
 * `Packet.mark` bit set by a qdisc that software-segments a GSO batch (tbf_segment): each segment is
 * then an skb of its own. `mark` is per-stage scratch: the tree clears it when a packet enters.
 */
export const MARK_SEGMENTED = 1;

/**
 * Tolerance for fractional skb counts: sums of 1/segs drift by ~1e-13 per step, while one segment is
 * at least 1/65215 ≈ 1.5e-5 of an skb.
 */
export const SKB_EPSILON = 1e-6;

/**
 * The last results of gsoSegs and skbsOf (pure functions of a payload size, and of a count and a
 * segment count): a qdisc asks several times per packet, nearly always for the same MSS, and a
 * division costs more than the comparison.
 */
const segsMemo = { payload: -1, segs: 1, count: -1, countSegs: -1, skbs: 0 };

/**
 * Wire packets per skb for this batch: the GSO segment count of a full TCP skb for TCP data (ENA has
 * no TSO, so the qdisc sees GSO skbs that software GSO splits after it: docs/domain-facts.md §1.9), 1 for a
 * UDP datagram, a pure ACK, or a segment a qdisc has already software-segmented.
 */
export function gsoSegs(p: Packet): number {
  // through a tunnel the skb is still a TCP GSO skb (gso_type adds the tunnel bit): the inner flow decides
  if (p.payloadBytes <= 0 || (p.inner ?? p.flow).tuple.proto !== 'tcp' || (p.mark & MARK_SEGMENTED) !== 0)
    return 1;
  const b = p.payloadBytes;
  if (b !== segsMemo.payload) {
    segsMemo.payload = b;
    segsMemo.segs = Math.max(1, Math.floor((GSO_MAX_BYTES - MAX_TCP_HEADER_BYTES - 1) / b));
  }
  return segsMemo.segs;
}

/**
 * The number of skbs batch `p` stands for: what Linux qdiscs count for packet limits, `qlen`, backlog
 * packets and drops (sch->q.qlen counts skbs; only bstats adds gso_segs).
 *
 * For TCP data this is fractional, count / gsoSegs. Why: the model does not know where the sender's
 * skb boundaries fall in a stream of batches — a 64-segment batch of 116-byte payloads is 0.11 of a
 * 562-segment skb, and 562 one-segment batches (per-packet mode) are one skb together. A fraction is
 * additive: splitting a batch never changes the total, and batched and per-packet runs count alike
 * (the host charges its per-skb CPU cost the same way). It assumes full skbs (tcp_xmit_size_goal); a
 * short tail skb, one skb in Linux, counts as its fraction. Figures are rounded only for display.
 */
export function skbsOf(p: Packet): number {
  const segs = gsoSegs(p);
  const c = p.count;
  if (c !== segsMemo.count || segs !== segsMemo.countSegs) {
    segsMemo.count = c;
    segsMemo.countSegs = segs;
    segsMemo.skbs = c / segs;
  }
  return segsMemo.skbs;
}

/** How many leading packets of `p` fit in `skbs` skbs (0 … p.count). */
export function packetsInSkbs(p: Packet, skbs: number): number {
  if (skbs <= 0) return 0;
  const segs = gsoSegs(p);
  const n = Math.floor((skbs + SKB_EPSILON) * segs);
  return n < p.count ? n : p.count;
}

/** Bytes of one skb of `p` as qdisc_pkt_len counts it (a GSO skb: every segment with its headers). */
export function skbBytesOf(p: Packet): number {
  const c = p.count;
  if (c === 1) return p.sizeBytes + 14; // one packet is within one skb (gsoSegs ≥ 1)
  const segs = gsoSegs(p);
  return (segs < c ? segs : c) * (p.sizeBytes + 14);
}

/** A fractional skb count as `tc` prints it: anything queued shows as at least 1. */
export function displaySkbs(x: number): number {
  return x <= SKB_EPSILON ? 0 : Math.ceil(x - SKB_EPSILON);
}

/** Statistics with the skb-counted fields (drops, backlog packets) rounded for display. */
export function displayStats(s: QdiscStats): QdiscStats {
  return { ...s, drops: displaySkbs(s.drops), backlogPackets: displaySkbs(s.backlogPackets) };
}

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
export interface CodelOptions {
  kind: 'codel';
  limit?: number;
  targetUs?: number;
  intervalUs?: number;
  ceThresholdUs?: number;
  ecn?: boolean;
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
export type QdiscOptions =
  | FifoOptions
  | CodelOptions
  | FqCodelOptions
  | FqOptions
  | HtbOptions
  | TbfOptions
  | PlainOptions;
/** The kinds the lab's kernel knows (each has its entry in registry.ts). */
export type QdiscKind = QdiscOptions['kind'];

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
  /** skbs queued (`skbsOf`: fractional for TCP GSO batches; > 0 whenever anything is queued). */
  qlen(): number;
  backlogBytes(): number;
  /**
   * Statistics as `tc -s` reports them for this qdisc (composite qdiscs include their children):
   * packets in wire packets, drops and backlog packets in skbs rounded by `displaySkbs`.
   */
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
// byte counts pass 2^31, skb counts are fractional (core/doubles.ts)
storeAsDoubles(emptyStats(), ['bytes', 'drops', 'backlogBytes', 'backlogPackets']);

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
 * wire packets, skbs (`skbsOf`, fractional) and bytes. Allocation happens only when the ring grows or
 * `takeFront` splits a batch. When the deque empties its counters are reset to exactly 0, so rounding
 * in the fractional skb sum never accumulates.
 */
export class BatchDeque {
  private buf: Array<Packet | undefined>;
  private head = 0;
  private size = 0;
  /** Wire packets queued. */
  packets = 0;
  /** skbs queued (fractional for TCP GSO batches). */
  skbs = 0;
  bytes = 0;

  constructor(capacity = 16) {
    this.buf = new Array<Packet | undefined>(capacity);
    storeAsDoubles(this, ['skbs', 'bytes']); // fractions, byte counts (core/doubles.ts)
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

  /** Append batch `p` (`skbs`: its `skbsOf`, when the caller has it already). */
  pushBack(p: Packet, skbs: number = skbsOf(p)): void {
    if (this.size === this.buf.length) this.grow();
    const cap = this.buf.length;
    const i = this.head + this.size;
    this.buf[i < cap ? i : i - cap] = p;
    this.size++;
    this.packets += p.count;
    this.skbs += skbs;
    this.bytes += (p.sizeBytes + 14) * p.count;
  }

  pushFront(p: Packet): void {
    if (this.size === this.buf.length) this.grow();
    this.head = (this.head === 0 ? this.buf.length : this.head) - 1;
    this.buf[this.head] = p;
    this.size++;
    this.packets += p.count;
    this.skbs += skbsOf(p);
    this.bytes += (p.sizeBytes + 14) * p.count;
  }

  peek(): Packet | null {
    return this.size === 0 ? null : (this.buf[this.head] ?? null);
  }

  popFront(): Packet | null {
    if (this.size === 0) return null;
    const p = this.buf[this.head]!;
    this.buf[this.head] = undefined;
    this.head = this.head + 1 === this.buf.length ? 0 : this.head + 1;
    this.size--;
    if (this.size === 0) {
      this.packets = 0;
      this.skbs = 0;
      this.bytes = 0;
    } else {
      this.packets -= p.count;
      this.skbs -= skbsOf(p);
      this.bytes -= (p.sizeBytes + 14) * p.count;
    }
    return p;
  }

  /**
   * Remove the first `n` packets of the head batch (0 < n; the whole batch when n ≥ its count) and
   * return them as a batch; the rest of the head batch stays at the front with later sequence numbers.
   */
  takeFront(n: number): Packet | null {
    const p = this.popFront();
    if (!p) return null;
    if (n < p.count) this.pushFront(splitBatch(p, n));
    return p;
  }

  clear(): void {
    this.buf.fill(undefined);
    this.head = 0;
    this.size = 0;
    this.packets = 0;
    this.skbs = 0;
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
 * Admit as much of batch `p` as fits in `roomSkbs` skbs (tail drop of the excess, counted in
 * `stats.drops` in skbs and reported to the host in wire packets). Returns the admitted part or null.
 */
export function admit(ctx: QdiscContext, p: Packet, roomSkbs: number, stats: QdiscStats): Packet | null {
  return admitPackets(ctx, p, packetsInSkbs(p, roomSkbs), stats);
}

/** Admit the first `fit` packets of `p` (tail drop of the rest, as `admit`). */
export function admitPackets(ctx: QdiscContext, p: Packet, fit: number, stats: QdiscStats): Packet | null {
  if (fit >= p.count) return p;
  if (fit <= 0) {
    stats.drops += skbsOf(p);
    ctx.drop(p, p.count, 'qdisc_overlimit');
    return null;
  }
  const excess = splitBatch(p, fit);
  stats.drops += skbsOf(excess);
  ctx.drop(excess, excess.count, 'qdisc_overlimit');
  return p;
}
