/**
 * The contract between the host's transmit path and Linux traffic control (qdiscs). The host owns
 * one `QdiscTree` per device, sets `p.txq` before `enqueue` and pulls with `dequeue(txq)` while that
 * TX ring has room, as `__qdisc_run` / `dev_hard_start_xmit` do; a shaping qdisc that holds packets
 * back returns null and says through `nextWakeNs` when its watchdog fires. Under `mq` each TX queue
 * has its own child; any other root is shared by all queues and a packet whose ring is full comes
 * back with `requeue` (`dev_requeue_skb`).
 *
 * Sources: LINUX net/sched/sch_generic.c, sch_mq.c. How batches are counted (skbs, wire packets,
 * rate limits charged per batch): docs/design.md, "Qdiscs and batches".
 */
import type { Packet } from '../../model/packet';

export interface QdiscStats {
  /** Bytes and wire packets dequeued (sent to the device): `tc -s` "Sent N bytes N pkt". */
  bytes: number;
  packets: number;
  /** skbs dropped (backlogPackets: skbs queued); integers as tc prints them. */
  drops: number;
  overlimits: number;
  requeues: number;
  backlogBytes: number;
  backlogPackets: number;
}

export interface QdiscContext {
  /** The device's MTU (psched_mtu = mtu + 14 is what fq_codel's default quantum uses). */
  mtu(): number;
  /** The device's txqueuelen (pfifo/pfifo_fast default limit), 1000 for Ethernet. */
  txQueueLen(): number;
  numTxQueues(): number;
  /** Report a drop of `count` packets of batch `p` at qdisc `kind`; the host counts it by reason. */
  drop(p: Packet, count: number, reason: QdiscDropReason): void;
  /** The socket's pacing rate in bytes/s (sk_pacing_rate), used by fq; Infinity when unpaced. */
  socketPacingRateBytesPerSec(socketId: number): number;
}

export type QdiscDropReason =
  | 'qdisc_overlimit' // limit reached (pfifo, pfifo_fast, tbf, fq_codel limit, fq flow_limit)
  | 'codel_drop' // CoDel control law drop (fq_codel)
  | 'fq_codel_memory_limit';

export interface QdiscTree {
  readonly rootKind: string;
  /** Whether `mq` is at the root: each TX queue dequeues its own child (else one root for all queues). */
  readonly rootIsMq: boolean;
  enqueue(p: Packet, nowNs: number): void;
  dequeue(txq: number, nowNs: number): Packet | null;
  requeue(p: Packet): void;
  /** Earliest time a throttled qdisc may release a packet (Infinity if nothing is throttled). */
  nextWakeNs(nowNs: number): number;
  /** skbs queued, rounded as `tc` prints qlen (a fraction of a GSO skb shows as 1). */
  backlogPackets(): number;
  backlogBytes(): number;
}
