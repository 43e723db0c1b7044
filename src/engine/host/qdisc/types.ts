/**
 * The contract between the host's transmit path and Linux traffic control (qdiscs).
 *
 * The host owns one `QdiscTree` per network device. It sets `p.txq` (the TX queue Linux picked)
 * before `enqueue`, and pulls packets with `dequeue(txq)` while that TX ring has room — exactly
 * what `__qdisc_run` / `dev_hard_start_xmit` do. A shaping qdisc (htb, tbf, fq) that holds packets
 * back returns null from `dequeue` and reports, through `nextWakeNs`, when its watchdog would fire;
 * the host schedules a retry then.
 *
 * With `mq` at the root every TX queue has its own child qdisc and `dequeue(txq)` serves only that
 * child. With any other root qdisc all TX queues share it (one lock, as in Linux): `dequeue` ignores
 * `txq` and returns the next packet for any queue; if that packet's ring is full the host hands it
 * back with `requeue` (Linux's `dev_requeue_skb`), and it is the first packet returned next time.
 *
 * Batches: a `Packet` may stand for `count` packets (see model/packet.ts). Qdiscs count what Linux
 * counts: limits, qlen, backlog packets and drops in skbs — a TCP data batch is a fraction of a GSO
 * skb (ENA has no TSO, so GSO splits skbs only after the qdisc), anything else one skb per packet —
 * bytes as `qdiscBatchBytes`, and sent packets in wire packets (bstats adds a GSO skb's gso_segs).
 * Drops are reported to the host through `QdiscContext.drop` in wire packets. A qdisc that must drop
 * part of a batch splits it with `splitBatch`. Rate-limited qdiscs let a batch through when tokens ≥ 0 and then charge
 * the whole batch (tokens may go negative), which keeps the long-run rate exact for any batch size —
 * Linux HTB charges a GSO skb the same way.
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
  enqueue(p: Packet, nowNs: number): void;
  dequeue(txq: number, nowNs: number): Packet | null;
  requeue(p: Packet): void;
  /** Earliest time a throttled qdisc may release a packet (Infinity if nothing is throttled). */
  nextWakeNs(nowNs: number): number;
  /** skbs queued, rounded as `tc` prints qlen (a fraction of a GSO skb shows as 1). */
  backlogPackets(): number;
  backlogBytes(): number;
}
