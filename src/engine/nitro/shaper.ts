/**
 * A Nitro shaping stage: a FIFO in front of one or more token buckets. AWS: "when the network
 * traffic for an instance exceeds a maximum, AWS shapes the traffic that exceeds the maximum by
 * queueing and then dropping network packets" (AWS-ENAPERF). So a batch that finds every bucket
 * conforming and nobody waiting passes at once; otherwise it waits in the queue, and when the queue
 * is full it is dropped. Each bucket has an `exceeded` counter that moves, as the ENA allowance
 * counters do, for every packet queued or dropped because of that bucket.
 *
 * Queue depth is time at the shaped rate (MODEL_PARAMS.nitroShaperQueueNs, assumed), with a floor in
 * packets, evaluated for the packet size being offered.
 */
import type { Scheduler } from '../core/scheduler';
import type { DropReason } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import { splitBatch } from '../model/packet';
import type { TokenBucket } from '../model/token-bucket';

export interface ShaperBucket {
  bucket: TokenBucket;
  /** Tokens one packet of this batch costs (bytes for bandwidth buckets, 1 for PPS buckets). */
  costPerPacket: (p: Packet) => number;
  /** Why packets queued/dropped because of this bucket are counted (ENA counter name or lab reason). */
  reason: DropReason;
  /** Packets queued or dropped because of this bucket (the ENA counter semantics). */
  exceeded: number;
  /** Hook after a batch is charged (credit accounting). */
  onCharge?: (p: Packet, nowNs: number) => void;
}

export class ShaperStage {
  private q: Packet[] = [];
  private head = 0;
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
    private readonly next: (p: Packet) => void,
    private readonly onDrop: (p: Packet, count: number, reason: DropReason) => void,
  ) {}

  get backlogPackets(): number {
    return this.queuedPackets;
  }

  /** Queue capacity in packets for packets like `p`: queueNs at the most restrictive bucket's rate. */
  capacityPackets(p: Packet): number {
    let cap = Number.POSITIVE_INFINITY;
    for (const b of this.buckets) {
      const per = b.costPerPacket(p);
      if (per <= 0 || b.bucket.ratePerSec === Number.POSITIVE_INFINITY) continue;
      const n = (b.bucket.ratePerSec * this.queueNs) / 1e9 / per;
      if (n < cap) cap = n;
    }
    if (cap === Number.POSITIVE_INFINITY) return cap;
    return Math.max(this.minQueuePackets, Math.floor(cap));
  }

  offer(p: Packet): void {
    const now = this.sched.now;
    if (this.queuedPackets === 0) {
      const blocking = this.firstNonConforming(now);
      if (blocking === null) {
        this.pass(p, now);
        return;
      }
      this.blockedBy = blocking;
    }
    const reasonBucket = this.blockedBy ?? this.buckets[0]!;
    const room = this.capacityPackets(p) - this.queuedPackets;
    reasonBucket.exceeded += p.count;
    if (room <= 0) {
      this.onDrop(p, p.count, reasonBucket.reason);
      return;
    }
    if (p.count > room) {
      const rest = splitBatch(p, room);
      this.onDrop(rest, rest.count, reasonBucket.reason);
    }
    p.enqueuedAtNs = now;
    this.q.push(p);
    this.queuedPackets += p.count;
    this.queuedBytes += p.count * p.sizeBytes;
    if (this.queuedPackets > this.peakQueuedPackets) this.peakQueuedPackets = this.queuedPackets;
    this.scheduleWake(now);
  }

  private firstNonConforming(now: number): ShaperBucket | null {
    let worst: ShaperBucket | null = null;
    let worstAt = now;
    for (const b of this.buckets) {
      const at = b.bucket.readyAtNs(now);
      if (at > worstAt) {
        worstAt = at;
        worst = b;
      }
    }
    return worst;
  }

  private pass(p: Packet, now: number): void {
    for (const b of this.buckets) {
      b.bucket.charge(b.costPerPacket(p) * p.count);
      b.onCharge?.(p, now);
    }
    this.passedPackets += p.count;
    this.passedBytes += p.count * p.sizeBytes;
    this.next(p);
  }

  private drain(): void {
    const now = this.sched.now;
    while (this.head < this.q.length) {
      const blocking = this.firstNonConforming(now);
      if (blocking !== null) {
        this.blockedBy = blocking;
        this.scheduleWake(now);
        return;
      }
      const p = this.q[this.head]!;
      this.q[this.head++] = undefined as unknown as Packet;
      this.queuedPackets -= p.count;
      this.queuedBytes -= p.count * p.sizeBytes;
      this.pass(p, now);
    }
    this.q.length = 0;
    this.head = 0;
    this.blockedBy = null;
  }

  private scheduleWake(now: number): void {
    if (this.head >= this.q.length) return;
    let at = now;
    for (const b of this.buckets) at = Math.max(at, b.bucket.readyAtNs(now));
    if (at < this.wakeAt) {
      this.wakeAt = at;
      this.sched.at(at, this.wake);
    }
  }
}
