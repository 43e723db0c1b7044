/**
 * A Nitro shaping stage: per-flow queues in front of one or more token buckets. AWS shapes "by
 * queueing and then dropping" (AWS-ENAPERF): a batch that finds every bucket conforming and nobody
 * waiting passes at once, otherwise it waits, and it is dropped when its flow holds its share of the
 * stage's buffer (capacity / flows waiting). Waiting flows are served by deficit round robin
 * (a quantum of 0 makes the stage one FIFO, kept to compare). Each bucket's `exceeded` counter moves,
 * as the ENA allowance counters do, for every packet queued or dropped because of it.
 *
 * Parameters (assumed): nitroFlowQuantumBytes, nitroShaperFairBufferShare, nitroShaperQueueNs.
 * Why DRR and a buffer share, with the evidence: docs/design.md, "The Nitro shaper".
 */
import { storeAsDoubles } from '../core/doubles';
import { Fifo } from '../core/fifo';
import type { Scheduler } from '../core/scheduler';
import type { DropReason } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import { splitBatch } from '../model/packet';
import type { TokenBucket } from '../model/token-bucket';
import type { CreditAccount } from './credits';

export interface ShaperBucket {
  bucket: TokenBucket;
  /**
   * Tokens one packet costs: `costFixed + costPerByte × sizeBytes` (bandwidth buckets: overhead + 1
   * per byte; PPS buckets: 1 + 0). Plain numbers rather than a callback: it is read per batch.
   */
  costFixed: number;
  costPerByte: number;
  /** Why packets queued/dropped because of this bucket are counted (ENA counter name or lab reason). */
  reason: DropReason;
  /** Packets queued or dropped because of this bucket (the ENA counter semantics). */
  exceeded: number;
  /**
   * The network I/O credit account the bucket's traffic spends (a bandwidth bucket of an "up to"
   * instance): charged the bits of every batch that passes, its IP bytes plus `costFixed` each.
   */
  credits: CreditAccount | null;
  /**
   * A share of `bucket` assured to this user (one direction of the PPS allowance both directions
   * share): a batch conforms when either the assured share or the shared bucket holds ≥ 0 tokens,
   * and is charged to both, as an HTB class that borrows from its parent. The assured share's debt
   * is kept within its depth. Null: the shared bucket alone (first come, first served).
   */
  assured: TokenBucket | null;
  /**
   * A ceiling of this user's own (one direction's rate where a measurement shows each direction
   * stopping below the shared budget: NitroConfig.ppsBidirectional): a batch conforms only when it
   * also holds ≥ 0 tokens, and is charged to it. Null: no ceiling but the shared bucket.
   */
  ceiling: TokenBucket | null;
  /**
   * Told of every batch counted in `exceeded` (the card keeps the ENA counters per interface, as
   * the driver's ENI statistics are). Null: nobody is told.
   */
  tally: ((p: Packet, n: number) => void) | null;
}

/** A ShaperBucket; every bucket is built here so they all share one object shape (monomorphic reads). */
export function shaperBucket(
  bucket: TokenBucket,
  costFixed: number,
  costPerByte: number,
  reason: DropReason,
  assured: TokenBucket | null = null,
  credits: CreditAccount | null = null,
  ceiling: TokenBucket | null = null,
): ShaperBucket {
  return { bucket, costFixed, costPerByte, reason, exceeded: 0, credits, assured, ceiling, tally: null };
}

/** Earliest time ≥ now at which `b` lets a batch pass (its assured share or the shared bucket). */
export function bucketReadyAt(b: ShaperBucket, now: number): number {
  let at = b.bucket.readyAtNs(now);
  const a = b.assured;
  if (a !== null && at !== now) {
    const own = a.readyAtNs(now);
    if (own < at) at = own;
  }
  const c = b.ceiling;
  if (c !== null) {
    const top = c.readyAtNs(now);
    if (top > at) at = top;
  }
  return at;
}

/** Charge `cost` tokens to `b` (and to its assured share, whose debt stays within its depth). */
export function chargeBucket(b: ShaperBucket, cost: number, now: number): void {
  b.bucket.charge(cost);
  const a = b.assured;
  if (a !== null) {
    a.refill(now);
    a.charge(cost);
    if (a.tokens < -a.depth) a.tokens = -a.depth;
  }
  const c = b.ceiling;
  if (c !== null) {
    c.refill(now);
    c.charge(cost);
  }
}

interface FlowQueue {
  flowId: number;
  q: Fifo<Packet>;
  /** Packets waiting in q. */
  packets: number;
  deficit: number;
  active: boolean;
}

export class ShaperStage {
  /** The stage passed packets go to (null: `next`), called directly rather than through a closure. */
  private readonly nextStage: ShaperStage | null;
  private readonly next: (p: Packet) => void;
  /** Flow queues by flow id (small run-unique integers). */
  private readonly flows: (FlowQueue | undefined)[] = [];
  /** Round-robin order of flows with packets waiting. */
  private readonly active = new Fifo<FlowQueue>(8);
  queuedPackets = 0;
  queuedBytes = 0;
  /** Largest backlog seen, packets. */
  peakQueuedPackets = 0;
  passedPackets = 0;
  passedBytes = 0;
  private wakeAt = Number.POSITIVE_INFINITY;
  private readonly wake = () => {
    this.wakeAt = Number.POSITIVE_INFINITY;
    this.drain();
  };
  private blockedBy: ShaperBucket | null = null;

  constructor(
    private readonly sched: Scheduler,
    readonly buckets: ShaperBucket[],
    private readonly queueNs: number,
    private readonly minQueuePackets: number,
    /** Where passed packets go: the next stage (a direct link), or a function. */
    next: ShaperStage | ((p: Packet) => void),
    private readonly onDrop: (p: Packet, count: number, reason: DropReason) => void,
    quantumBytes = 65_536,
    fairBufferShare = false,
  ) {
    if (next instanceof ShaperStage) {
      this.nextStage = next;
      this.next = () => {};
    } else {
      this.nextStage = null;
      this.next = next;
    }
    // NaN equals no rate: the first call computes
    this.capRates = new Float64Array(buckets.length).fill(Number.NaN);
    // a quantum of 0: one FIFO for every flow (the other design, for comparison)
    this.fifo = !(quantumBytes > 0);
    this.quantumBytes = this.fifo ? Number.POSITIVE_INFINITY : quantumBytes;
    this.fairShare = fairBufferShare && !this.fifo;
    storeAsDoubles(this, ['passedBytes', 'queuedBytes', 'blockedUntilNs']);
  }

  /** Each flow may hold at most capacity / (flows waiting) packets of the buffer. */
  private readonly fairShare: boolean;

  /** DRR quantum; infinite in FIFO mode (one queue, served in arrival order). */
  private readonly quantumBytes: number;
  private readonly fifo: boolean;

  get backlogPackets(): number {
    return this.queuedPackets;
  }

  /**
   * The last capacityPackets result and what it was computed from (the packet size and every
   * bucket's rate; the costs, queueNs and minimum are fixed): a backlogged stage asks on every
   * offer, almost always for the same size at the same rates.
   */
  private capSize = -1;
  private readonly capRates: Float64Array;
  private capValue = 0;

  /** Queue capacity in packets for packets like `p`: queueNs at the most restrictive bucket's rate. */
  capacityPackets(p: Packet): number {
    const buckets = this.buckets;
    const rates = this.capRates;
    let same = p.sizeBytes === this.capSize;
    for (let i = 0; i < buckets.length; i++) {
      const b = buckets[i]!;
      const r =
        b.ceiling !== null ? Math.min(b.bucket.ratePerSec, b.ceiling.ratePerSec) : b.bucket.ratePerSec;
      if (r !== rates[i]) {
        rates[i] = r;
        same = false;
      }
    }
    if (same) return this.capValue;
    this.capSize = p.sizeBytes;
    this.capValue = this.computeCapacity(p);
    return this.capValue;
  }

  private computeCapacity(p: Packet): number {
    let cap = Number.POSITIVE_INFINITY;
    for (const b of this.buckets) {
      const per = b.costFixed + b.costPerByte * p.sizeBytes;
      const rate =
        b.ceiling !== null ? Math.min(b.bucket.ratePerSec, b.ceiling.ratePerSec) : b.bucket.ratePerSec;
      if (per <= 0 || rate === Number.POSITIVE_INFINITY) continue;
      const n = (rate * this.queueNs) / 1e9 / per;
      if (n < cap) cap = n;
    }
    if (cap === Number.POSITIVE_INFINITY) return cap;
    return Math.max(this.minQueuePackets, Math.floor(cap));
  }

  /** Why the stage's packets wait now: the reason of the bucket blocking them (null: none waits). */
  get heldBy(): DropReason | null {
    return this.queuedPackets > 0 ? (this.blockedBy ?? this.buckets[0]!).reason : null;
  }

  /**
   * Forget flow `flowId`'s queue when it holds nothing (its connection is gone): a queue that falls
   * idle starts again from a fresh deficit anyway, so nothing a later packet sees changes.
   */
  releaseFlow(flowId: number): void {
    const f = this.flows[flowId];
    if (f && !f.active && f.packets === 0) this.flows[flowId] = undefined;
  }

  offer(p: Packet): void {
    if (this.queuedPackets === 0) {
      const blocking = this.firstNonConforming(this.sched.now);
      if (blocking === null) {
        this.pass(p);
        return;
      }
      this.blockedBy = blocking;
    }
    this.enqueue(p);
  }

  /**
   * Queue `p` behind what waits (or behind the bucket that blocks it), within its flow's room.
   * Apart from `offer`, which stays small enough for V8 to inline into the stage before it.
   */
  private enqueue(p: Packet): void {
    const reasonBucket = this.blockedBy ?? this.buckets[0]!;
    const key = this.fifo ? 0 : p.flow.id;
    const f = this.flows[key] ?? this.newFlow(key);
    reasonBucket.exceeded += p.count;
    if (reasonBucket.tally !== null) reasonBucket.tally(p, p.count);
    const room = this.roomFor(p, f);
    if (room < p.count) {
      this.dropOver(p, room, reasonBucket.reason);
      if (room <= 0) return;
    }
    p.enqueuedAtNs = this.sched.now;
    f.q.push(p);
    f.packets += p.count;
    if (!f.active) {
      f.active = true;
      f.deficit = this.quantumBytes;
      this.active.push(f);
    }
    this.queuedPackets += p.count;
    this.queuedBytes += p.count * p.sizeBytes;
    if (this.queuedPackets > this.peakQueuedPackets) this.peakQueuedPackets = this.queuedPackets;
    this.scheduleWake();
  }

  private newFlow(key: number): FlowQueue {
    const f: FlowQueue = { flowId: key, q: new Fifo<Packet>(16), packets: 0, deficit: 0, active: false };
    this.flows[key] = f;
    return f;
  }

  /** Packets like `p` that flow `f` may still queue: the stage's room, within the flow's share. */
  private roomFor(p: Packet, f: FlowQueue): number {
    const cap = this.capacityPackets(p);
    let room = cap - this.queuedPackets;
    if (this.fairShare && room > 0) {
      // a flow may hold at most its share of the buffer: capacity / flows with packets waiting
      // (itself included), so a newcomer always finds room and no flow keeps the buffer to itself
      const n = this.active.length + (f.active ? 0 : 1);
      if (n > 1) {
        const own = Math.floor(cap / n) - f.packets;
        if (own < room) room = own;
      }
    }
    return room;
  }

  /** Drop what of `p` does not fit in `room` (all of it when room ≤ 0; `p` keeps the rest). */
  private dropOver(p: Packet, room: number, reason: DropReason): void {
    if (room <= 0) {
      this.onDrop(p, p.count, reason);
      return;
    }
    const rest = splitBatch(p, room);
    this.onDrop(rest, rest.count, reason);
  }

  /** When firstNonConforming last found a blocking bucket: the time every bucket conforms again. */
  private blockedUntilNs = 0;

  private firstNonConforming(now: number): ShaperBucket | null {
    let worst: ShaperBucket | null = null;
    let worstAt = now;
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) {
      const b = buckets[i]!;
      const at = bucketReadyAt(b, now);
      if (at > worstAt) {
        worstAt = at;
        worst = b;
      }
    }
    this.blockedUntilNs = worstAt;
    return worst;
  }

  /** Charge the buckets and hand on (`now` read here: a double argument of a call not inlined is boxed). */
  private pass(p: Packet): void {
    const now = this.sched.now;
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) {
      const b = buckets[i]!;
      chargeBucket(b, (b.costFixed + b.costPerByte * p.sizeBytes) * p.count, now);
      if (b.credits !== null) b.credits.charge(p.count * (p.sizeBytes + b.costFixed) * 8);
    }
    this.passedPackets += p.count;
    this.passedBytes += p.count * p.sizeBytes;
    if (this.nextStage !== null) this.nextStage.offer(p);
    else this.next(p);
  }

  /**
   * Serve waiting flows by deficit round robin while the buckets allow. Called by the wake event
   * only, as its last act: the next wake, when it is the next event, runs here at once (takeNext).
   */
  private drain(): void {
    let now = this.sched.now;
    const active = this.active;
    while (active.length > 0) {
      const blocking = this.firstNonConforming(now);
      if (blocking !== null) {
        this.blockedBy = blocking;
        // what scheduleWake would compute: the latest readyAt of the buckets, just taken
        const at = this.blockedUntilNs;
        if (at < this.wakeAt) {
          if (this.sched.takeNext(at)) {
            // the wake event, run now
            this.wakeAt = Number.POSITIVE_INFINITY;
            now = this.sched.now;
            continue;
          }
          this.wakeAt = at;
          this.sched.at(at, this.wake);
        }
        return;
      }
      const f = active.peek();
      if (f.deficit <= 0) {
        // used its turn: back of the line with a new quantum
        f.deficit += this.quantumBytes;
        active.shift();
        active.push(f);
        continue;
      }
      const p = f.q.shift();
      const bytes = p.count * p.sizeBytes;
      f.packets -= p.count;
      f.deficit -= bytes;
      this.queuedPackets -= p.count;
      this.queuedBytes -= bytes;
      if (f.q.length === 0) {
        f.active = false;
        active.shift();
      }
      this.pass(p);
    }
    this.blockedBy = null;
  }

  private scheduleWake(): void {
    if (this.active.length === 0) return;
    const now = this.sched.now;
    let at = now;
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) {
      const r = bucketReadyAt(buckets[i]!, now);
      if (r > at) at = r;
    }
    if (at < this.wakeAt) {
      this.wakeAt = at;
      this.sched.at(at, this.wake);
    }
  }
}
