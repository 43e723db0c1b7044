/**
 * Packets and batches. A `Packet` is a batch of `count` identical back-to-back wire packets of one
 * flow (count = 1 in per-packet mode), the unit every stage handles; stages treat it exactly as
 * `count` packets arriving back to back, and one that keeps only part of a batch splits it with
 * `splitBatch` (the split-off part keeps the later sequence numbers). Why batches and how they stay
 * faithful: docs/design.md, "Batching".
 *
 * Sizes: `sizeBytes` is the IP total length of one packet (what the MTU bounds), `payloadBytes` its
 * L4 payload; link-layer overhead is added where a stage accounts for it (`ETH_HEADER_BYTES` for
 * qdisc_pkt_len, `ETH_WIRE_OVERHEAD_BYTES` on the wire).
 */
import { storeAsDoubles } from '../core/doubles';
/** 'gre': IP protocol 47, the outer header of a GRE/gretap tunnel (no ports: a 3-tuple flow). */
export type L4Proto = 'tcp' | 'udp' | 'icmp' | 'gre';

/** Ethernet header as seen by qdiscs (skb->len includes it): 14 bytes. */
export const ETH_HEADER_BYTES = 14;
/** Ethernet header + FCS + preamble + inter-frame gap on a wire: 14 + 4 + 8 + 12. */
export const ETH_WIRE_OVERHEAD_BYTES = 38;
export const IPV4_HEADER_BYTES = 20;
export const TCP_HEADER_BYTES = 20;
/** TCP timestamp option (10 bytes, padded to 12), on by default in Linux. */
export const TCP_TIMESTAMP_OPTION_BYTES = 12;
export const UDP_HEADER_BYTES = 8;

export interface FiveTuple {
  readonly srcIp: string;
  readonly dstIp: string;
  readonly proto: L4Proto;
  readonly srcPort: number;
  readonly dstPort: number;
}

/** The same flow seen from the other end. */
export function reverseTuple(t: FiveTuple): FiveTuple {
  return { proto: t.proto, srcIp: t.dstIp, srcPort: t.dstPort, dstIp: t.srcIp, dstPort: t.srcPort };
}

/** A flow: one direction of a 5-tuple, with a run-unique integer id. */
export interface Flow {
  readonly id: number;
  readonly tuple: FiveTuple;
  /** Linux skb->hash for this flow (used by qdiscs such as fq_codel and for XPS-less TX queue pick). */
  readonly skbHash: number;
  /** The socket that owns the flow on the sending host (fq keys flows by socket). */
  readonly socketId: number;
}

export const TCP_FLAG_SYN = 1;
export const TCP_FLAG_ACK = 2;
export const TCP_FLAG_FIN = 4;
export const TCP_FLAG_PSH = 8;
export const TCP_FLAG_RST = 16;

/**
 * An IPv4 fragment batch (host/ip-fragment.ts): `count` fragments of ONE datagram (`seq` is the
 * datagram's number, shared by all its fragments), all of the same size. Linux sends a datagram's
 * fragments as one batch of the full-size ones and one of the last (shorter) one.
 */
export interface FragInfo {
  /** Fragments the datagram was cut into. */
  readonly of: number;
  /** This batch holds the datagram's last fragment (MF clear). */
  readonly last: boolean;
  /** The whole datagram's IP total length and L4 payload per packet, which reassembly restores. */
  readonly datagramBytes: number;
  readonly datagramPayloadBytes: number;
}

export interface Packet {
  flow: Flow;
  /** Number of identical wire packets in this batch (≥ 1). */
  count: number;
  /** IP total length of one packet, bytes. */
  sizeBytes: number;
  /** L4 payload of one packet, bytes. */
  payloadBytes: number;
  /** TCP: sequence number of the first payload byte. UDP: number of the first datagram. */
  seq: number;
  /** TCP: cumulative ACK carried (valid when flags has TCP_FLAG_ACK). */
  ack: number;
  flags: number;
  /** TCP SACK blocks carried by an ACK: [start, end) pairs, flattened. */
  sack: number[] | null;
  /** TCP receive window advertised, bytes. */
  window: number;
  /** IP TOS byte (pfifo_fast band selection). */
  tos: number;
  /** Time the first packet of the batch left the application/socket layer (UDP jitter, latency). */
  sentAtNs: number;
  /** Time the batch entered the current queue (CoDel sojourn, ring occupancy). */
  enqueuedAtNs: number;
  /** TX queue picked by the sending host (skb queue_mapping); -1 until picked. */
  txq: number;
  /** Opaque per-stage scratch (e.g. fq_codel flow index); stages must not rely on it across stages. */
  mark: number;
  /**
   * The inner flow while the packet is encapsulated by a tunnel (gre, vxlan …): `flow` is then the
   * outer (wire) flow the Nitro card, the fabric and RSS see; the hosts' sockets key on `inner`.
   * null (or absent) for a plain packet.
   */
  inner?: Flow | null;
  /** Set while the packet is an IPv4 fragment (between the sender's ip_fragment and the receiver's reassembly). */
  frag?: FragInfo | null;
  /**
   * Set while the packet travels over SRD (ENA Express): from the sending card's SRD connection
   * until the receiving card hands it to the host or drops it (nitro/ena-express.ts).
   */
  srd?: SrdTag | null;
}

/** What the receiving Nitro card needs to acknowledge an SRD packet to its sender (opaque here). */
export interface SrdTag {
  /** The sending card's SRD connection. */
  conn: unknown;
  /** When the packet left the sender's SRD connection, and when it reached the receiving card. */
  departNs: number;
  arriveNs: number;
}

/**
 * A new batch of `count` packets of `flow`, sent now: not queued yet (txq −1), no SACK blocks, not
 * tunnelled, fragmented or on SRD. Batches are made here or by `cloneBatch` (the same fields in the
 * same order), so every batch of a run has one shape.
 */
export function newBatch(
  flow: Flow,
  count: number,
  sizeBytes: number,
  payloadBytes: number,
  seq: number,
  ack: number,
  flags: number,
  window: number,
  tos: number,
  nowNs: number,
): Packet {
  return {
    flow,
    count,
    sizeBytes,
    payloadBytes,
    seq,
    ack,
    flags,
    sack: null,
    window,
    tos,
    sentAtNs: nowNs,
    enqueuedAtNs: nowNs,
    txq: -1,
    mark: 0,
    inner: null,
    frag: null,
    srd: null,
  };
}

// Sequence numbers and times are doubles from the first batch (they pass 2^31 mid-run: see
// core/doubles.ts), and `sack` holds arrays as well as null. Sizes stay small integers (no heap box
// per field and packet): makers hand them as such (TcpEndpoint.makePacket).
{
  const b = newBatch(null as unknown as Flow, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  storeAsDoubles(b, ['seq', 'ack', 'sentAtNs', 'enqueuedAtNs']);
  b.sack = [];
}

/** Copy a batch's fields into a new batch object of `count` packets. */
export function cloneBatch(p: Packet, count: number): Packet {
  return {
    flow: p.flow,
    count,
    sizeBytes: p.sizeBytes,
    payloadBytes: p.payloadBytes,
    seq: p.seq,
    ack: p.ack,
    flags: p.flags,
    sack: p.sack,
    window: p.window,
    tos: p.tos,
    sentAtNs: p.sentAtNs,
    enqueuedAtNs: p.enqueuedAtNs,
    txq: p.txq,
    mark: p.mark,
    inner: p.inner ?? null,
    frag: p.frag ?? null,
    srd: p.srd ?? null,
  };
}

/**
 * Split a batch: keep the first `keep` packets in `p` (mutated) and return a new batch holding the
 * rest, whose sequence number advances past the kept part. Precondition: 0 < keep < p.count.
 * NOTE mutates p.
 */
export function splitBatch(p: Packet, keep: number): Packet {
  if (!(keep > 0 && keep < p.count)) throw new RangeError(`splitBatch: keep=${keep} of ${p.count}`);
  const rest = cloneBatch(p, p.count - keep);
  // an encapsulated batch keeps its inner (TCP or UDP) numbering
  // (fragments of one datagram all carry its number)
  rest.seq =
    p.frag != null
      ? p.seq
      : (p.inner ?? p.flow).tuple.proto === 'tcp'
        ? p.seq + keep * p.payloadBytes
        : p.seq + keep;
  p.count = keep;
  return rest;
}

/** Bytes of one packet as Linux qdiscs count it (skb->len at the device: IP + Ethernet header). */
export function qdiscPacketBytes(p: Packet): number {
  return p.sizeBytes + ETH_HEADER_BYTES;
}

/** Total qdisc bytes of a batch (qdisc_pkt_len of a GSO skb counts every segment's headers). */
export function qdiscBatchBytes(p: Packet): number {
  return (p.sizeBytes + ETH_HEADER_BYTES) * p.count;
}

/** When packet k of a batch whose first packet is seen at `startNs` is seen (whole ns). */
export function batchRowNs(startNs: number, k: number, gapNs: number): number {
  return k === 0 || gapNs === 0 ? startNs : startNs + Math.round(k * gapNs);
}
