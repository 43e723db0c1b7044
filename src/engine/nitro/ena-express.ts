/**
 * ENA Express (AWS SRD) on one Nitro card: which flows are eligible (both types supported, both
 * ENIs enabled, one AZ or across the Region's AZs, UDP only when both ENIs opt in), the SRD MTU
 * fallback (8900), the 25 Gbps per-flow limit, and SRD transport as a per-ENI-pair connection with
 * a delay-based window, retransmission by the sending card and the SRD memory that
 * `ena_srd_resource_utilization` reports. Counters keep the driver's names (`ena_srd_*`).
 *
 * Sources: AWS-ENAX, AWS-ENAPERF, NET402; amzn-drivers `ena_ethtool.c`; Shalev et al., IEEE Micro
 * 2020 (docs/domain-facts.md §2.7, §1.7). Why a window and what is not modelled:
 * docs/design.md, "ENA Express and SRD".
 */
import { ENA_EXPRESS_MTU_BYTES } from '../../catalog';
import type { Scheduler } from '../core/scheduler';
import type { Packet } from '../model/packet';
import { Fifo } from '../core/fifo';
import type { ParamValues } from '../model/params';
import type { Eni, VpcState } from '../vpc';

/** Per-flow SRD decision: not eligible, or eligible (then SRD unless the packet exceeds the SRD MTU). */
const NOT_ELIGIBLE = 1;
const ELIGIBLE = 2;

export interface EnaExpressConfig {
  /** The instance type is on AWS's list (the device reports ENA_ADMIN_ENA_SRD_INFO). */
  supported: boolean;
  /** The lab's placement keeps the instances in its VPC (any but 'internet' and 'other-vpc'). */
  srdPlacement: boolean;
  /** One-way fabric delay between cards, which the lab applies after the receiving card. */
  fabricOneWayNs: number;
}

export interface SrdCounters {
  ena_srd_mode: number;
  ena_srd_tx_pkts: number;
  ena_srd_eligible_tx_pkts: number;
  ena_srd_rx_pkts: number;
  ena_srd_resource_utilization: number;
}

export class EnaExpress {
  readonly mtu = ENA_EXPRESS_MTU_BYTES.value;
  txPkts = 0;
  eligibleTxPkts = 0;
  rxPkts = 0;
  /** SRD packets this card dropped at ingress and their senders retransmitted. */
  retransmittedPkts = 0;
  /** Eligible packets sent as standard ENA because the SRD memory was full. */
  fallbackPkts = 0;
  /** Bytes in this card's SRD memory: queued in its SRD connections or sent and not yet acknowledged. */
  private heldBytes = 0;
  private vpc: VpcState | null = null;
  private eni: Eni | null = null;
  /** Decision and its epoch by flow id (0 = not decided yet). */
  private readonly decision: number[] = [];
  private readonly decisionEpoch: number[] = [];

  constructor(
    private readonly sched: Scheduler,
    readonly cfg: EnaExpressConfig,
    private readonly params: ParamValues,
  ) {}

  attach(vpc: VpcState, eni: Eni): void {
    this.vpc = vpc;
    this.eni = eni;
  }

  /** ena_srd_mode (AWS-ENAPERF): 0 off/UDP off, 1 on/UDP off, 2 off/UDP on, 3 on/UDP on. */
  mode(): number {
    const e = this.eni;
    if (e === null) return 0;
    return (e.enaSrd.EnaSrdEnabled ? 1 : 0) + (e.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled ? 2 : 0);
  }

  /** Whether two ENIs may talk SRD for `proto` (both supported, both enabled, same Region; UDP opt-in). */
  pairEligible(a: Eni, b: Eni, proto: Packet['flow']['tuple']['proto']): boolean {
    const vpc = this.vpc;
    if (vpc === null || !this.cfg.srdPlacement) return false;
    if (!a.spec.enaExpressSupported.value || !b.spec.enaExpressSupported.value) return false;
    if (!a.enaSrd.EnaSrdEnabled || !b.enaSrd.EnaSrdEnabled) return false;
    if (proto === 'udp') {
      if (
        !a.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled ||
        !b.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled
      )
        return false;
    } else if (proto !== 'tcp') return false;
    // one VPC, one Region: in one AZ or across its AZs alike
    return vpc.subnet(a.subnetId) !== undefined && vpc.subnet(b.subnetId) !== undefined;
  }

  /** Whether the flow of `p` is SRD-eligible, seen from this card (egress: to dst; ingress: from src). */
  eligible(p: Packet, egress: boolean): boolean {
    const vpc = this.vpc;
    const me = this.eni;
    // ENA Express off on this interface (the default): no pair of it is eligible (pairEligible)
    if (vpc === null || me === null || !me.enaSrd.EnaSrdEnabled) return false;
    const id = p.flow.id;
    const epoch = vpc.mutationEpoch;
    const d = this.decision[id];
    if (d !== undefined && d !== 0 && this.decisionEpoch[id] === epoch) return d === ELIGIBLE;
    const t = p.flow.tuple;
    const peer = vpc.eniByIp(egress ? t.dstIp : t.srcIp);
    const ok = peer !== undefined && peer !== me && this.pairEligible(me, peer, t.proto);
    this.decision[id] = ok ? ELIGIBLE : NOT_ELIGIBLE;
    this.decisionEpoch[id] = epoch;
    return ok;
  }

  /** Egress: count the packet as eligible and say whether it travels over SRD (ena_srd_tx_pkts counts at `send`). */
  egress(p: Packet): boolean {
    if (!this.eligible(p, true)) return false;
    this.eligibleTxPkts += p.count;
    return p.sizeBytes <= this.mtu; // eligible, but too big for SRD: standard ENA
  }

  /** Ingress: count an SRD packet; true when it arrived over SRD. */
  ingress(p: Packet): boolean {
    if (p.srd == null) return false;
    this.rxPkts += p.count;
    return true;
  }

  /** Whether a packet (already classified) goes over SRD, without counting it. */
  isSrd(p: Packet, egress: boolean): boolean {
    return p.sizeBytes <= this.mtu && this.eligible(p, egress);
  }

  /**
   * The path MTU a new TCP connection from this ENI to `peerIp` is clamped to: the SRD MTU when the
   * pair is eligible for TCP (the card rewrites the SYN's MSS), else +∞.
   */
  mssClampMtu(peerIp: string): number {
    const vpc = this.vpc;
    const me = this.eni;
    if (vpc === null || me === null) return Number.POSITIVE_INFINITY;
    const peer = vpc.eniByIp(peerIp);
    return peer !== undefined && peer !== me && this.pairEligible(me, peer, 'tcp')
      ? this.mtu
      : Number.POSITIVE_INFINITY;
  }

  // ---------------------------------------------------------------- SRD transport (sender side)
  /** Called when a lost SRD packet is back in this (sending) card's queue (the card's probe). */
  onRequeue: (p: Packet) => void = () => {};
  /** SRD connections of this card by peer IP (one per pair of ENIs). */
  private readonly conns = new Map<string, SrdConnection>();

  /**
   * A shaped SRD packet leaves the card: through its SRD connection to the peer, which sends it now
   * if its window allows or queues it. When the SRD memory is full the packet falls back to standard
   * ENA (AWS-ENAPERF: at 100% utilization "traffic falls back"): `forward` at once, untagged.
   */
  send(p: Packet, forward: (q: Packet) => void): void {
    const bytes = p.count * p.sizeBytes;
    if (this.heldBytes + bytes > this.params.enaSrdRetransmitBufferBytes) {
      this.fallbackPkts += p.count;
      forward(p);
      return;
    }
    const peer = p.flow.tuple.dstIp;
    let c = this.conns.get(peer);
    if (c === undefined) {
      c = new SrdConnection(this, this.sched, this.params, forward, this.mtu);
      this.conns.set(peer, c);
    }
    this.heldBytes += bytes;
    this.txPkts += p.count;
    c.enqueue(p);
  }

  /** The SRD connection to `peerIp`, if this card opened one (tests, `lab nitro show`). */
  connection(peerIp: string): SrdConnection | undefined {
    return this.conns.get(peerIp);
  }

  /** Every SRD connection this card opened, by peer IP, in the order they were opened. */
  connections(): Array<[string, SrdConnection]> {
    return [...this.conns.entries()];
  }

  /** Bytes left the SRD memory of this card (delivered, or lost for good). */
  release(bytes: number): void {
    this.heldBytes -= bytes;
  }

  // ---------------------------------------------------------------- SRD transport (receiver side)
  /** Ingress: an SRD packet reached this card (the fabric's one-way time is now known). */
  arrived(p: Packet): void {
    if (p.srd != null) p.srd.arriveNs = this.sched.now;
  }

  /**
   * This card handed an SRD packet to its host: the acknowledgement reaches the sender one fabric
   * crossing later (the same one-way time the packet took, SRD overhead included). The lab applies
   * the fabric's delay after this card, so the data really reaches this point one fabric delay later
   * and the acknowledgement needs one more to return: two fabric delays are added.
   */
  delivered(p: Packet): void {
    const tag = p.srd;
    if (tag == null) return;
    p.srd = null;
    const back = tag.arriveNs - tag.departNs + 2 * this.cfg.fabricOneWayNs;
    const conn = tag.conn as SrdConnection;
    const bytes = p.count * p.sizeBytes;
    const departNs = tag.departNs;
    this.sched.after(back, () => conn.acked(bytes, this.sched.now - departNs));
  }

  /**
   * This card's ingress shaper dropped an SRD packet (its queue full, as under incast). The sender
   * detects the loss enaSrdRetransmitNs later (assumed), reduces its window and sends the packet
   * again before anything new. TCP never sees that loss. Always true: the packet is held in the
   * sender's SRD memory from its first transmission until it is delivered.
   */
  lostAtIngress(p: Packet): boolean {
    const tag = p.srd;
    if (tag == null) return false;
    p.srd = null;
    const conn = tag.conn as SrdConnection;
    this.retransmittedPkts += p.count;
    this.sched.after(this.params.enaSrdRetransmitNs, () => conn.lost(p));
    return true;
  }

  /** This card dropped an SRD packet for another reason (a VPC decision): the sender forgets it. */
  droppedForGood(p: Packet, count: number): void {
    const tag = p.srd;
    if (tag == null) return;
    (tag.conn as SrdConnection).forget(count * p.sizeBytes);
  }

  /** ena_srd_resource_utilization: the SRD memory's occupancy, percent (integer, as the device reports it). */
  utilizationPercent(): number {
    return Math.floor((100 * this.heldBytes) / this.params.enaSrdRetransmitBufferBytes);
  }

  counters(): SrdCounters {
    return {
      ena_srd_mode: this.mode(),
      ena_srd_tx_pkts: this.txPkts,
      ena_srd_eligible_tx_pkts: this.eligibleTxPkts,
      ena_srd_rx_pkts: this.rxPkts,
      ena_srd_resource_utilization: this.utilizationPercent(),
    };
  }
}

/**
 * One SRD connection: this card's sending side towards one peer ENI. A congestion window (bytes in
 * flight: sent, not yet acknowledged by the receiving card) adapted from SRD's own acknowledgements:
 * - an acknowledgement whose round trip exceeds the connection's minimum by more than
 *   enaSrdTargetQueueDelayNs (queueing on the path: here the receiver's ingress shaper), or a loss
 *   at the receiving card, multiplies the window by enaSrdDecreaseFactor, at most once per round
 *   trip (the packets already in flight still carry the old congestion news);
 * - any other acknowledgement grows it by enaSrdAdditiveIncreaseBytes per window acknowledged
 *   (additive increase, one step per round trip).
 * Never below one SRD MTU. What the window does not admit waits here, in the sender's card,
 * retransmissions first.
 */
export class SrdConnection {
  cwndBytes: number;
  inflightBytes = 0;
  minRttNs = Number.POSITIVE_INFINITY;
  /** Window reductions so far (lab-only). */
  decreases = 0;
  peakQueuedBytes = 0;
  private queuedBytes = 0;
  private readonly queue = new Fifo<Packet>(16);
  private readonly retransmits = new Fifo<Packet>(8);
  /** No new reduction before this time (one round trip after the last). */
  private holdDecreaseUntilNs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly owner: EnaExpress,
    private readonly sched: Scheduler,
    private readonly params: ParamValues,
    private readonly forward: (p: Packet) => void,
    private readonly minCwndBytes: number,
  ) {
    this.cwndBytes = params.enaSrdInitialWindowBytes;
  }

  get queuedPackets(): number {
    let n = 0;
    for (let i = 0; i < this.queue.length; i++) n += this.queue.at(i).count;
    for (let i = 0; i < this.retransmits.length; i++) n += this.retransmits.at(i).count;
    return n;
  }

  enqueue(p: Packet): void {
    this.queue.push(p);
    this.queuedBytes += p.count * p.sizeBytes;
    if (this.queuedBytes > this.peakQueuedBytes) this.peakQueuedBytes = this.queuedBytes;
    this.pump();
  }

  /** Send while the window has room (a batch may overshoot it: it is never split). */
  private pump(): void {
    while (this.inflightBytes < this.cwndBytes) {
      const from = this.retransmits.length > 0 ? this.retransmits : this.queue.length > 0 ? this.queue : null;
      if (from === null) return;
      const p = from.shift();
      const bytes = p.count * p.sizeBytes;
      this.queuedBytes -= bytes;
      this.inflightBytes += bytes;
      const now = this.sched.now;
      p.srd = { conn: this, departNs: now, arriveNs: now };
      this.sched.after(this.params.enaSrdAddedOneWayNs, this.forwardArg, p);
    }
  }

  private readonly forwardArg = (arg: unknown) => this.forward(arg as Packet);

  private decrease(now: number, rttNs: number): void {
    if (now < this.holdDecreaseUntilNs) return;
    this.cwndBytes = Math.max(this.minCwndBytes, this.cwndBytes * this.params.enaSrdDecreaseFactor);
    this.holdDecreaseUntilNs = now + rttNs;
    this.decreases++;
  }

  /** The receiving card delivered `bytes`; this round trip took `rttNs`. */
  acked(bytes: number, rttNs: number): void {
    this.inflightBytes -= bytes;
    this.owner.release(bytes);
    if (rttNs < this.minRttNs) this.minRttNs = rttNs;
    const now = this.sched.now;
    if (rttNs > this.minRttNs + this.params.enaSrdTargetQueueDelayNs) this.decrease(now, rttNs);
    else this.cwndBytes += (this.params.enaSrdAdditiveIncreaseBytes * bytes) / this.cwndBytes;
    this.pump();
  }

  /** The receiving card dropped `p` (detected now): smaller window, and `p` goes again first. */
  lost(p: Packet): void {
    const bytes = p.count * p.sizeBytes;
    this.inflightBytes -= bytes;
    this.decrease(this.sched.now, Number.isFinite(this.minRttNs) ? this.minRttNs : 0);
    this.owner.onRequeue(p);
    this.retransmits.push(p);
    this.queuedBytes += bytes;
    this.pump();
  }

  /** A packet dropped for good by the receiving card (not a congestion loss): out of flight and memory. */
  forget(bytes: number): void {
    this.inflightBytes -= bytes;
    this.owner.release(bytes);
    this.pump();
  }
}
