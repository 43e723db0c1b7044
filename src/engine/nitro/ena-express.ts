/**
 * ENA Express (AWS SRD) on one Nitro card (domain facts §2.7, §1.7):
 * - Eligibility, per flow: both instance types supported (AWS-ENAX list, catalog), both ENIs with
 *   EnaSrdEnabled, same Availability Zone (the subnets' AZ, and not a cross-AZ or internet
 *   placement), no middlebox (the model has none between ENIs); TCP automatically, UDP only when
 *   both ENIs also have EnaSrdUdpEnabled. Decided once per flow and VPC mutation epoch (an
 *   `modify-network-interface-attribute` mid-run applies to the next packet).
 * - An eligible packet larger than the SRD MTU (8900, ENA_EXPRESS_MTU_BYTES) falls back to standard
 *   ENA but still counts as eligible (AWS-ENAPERF). TCP connections opened while SRD is on get their
 *   MSS clamped (`mssClampMtu`), so only UDP datagrams and connections older than the change fall back.
 * - An SRD packet's per-flow limit is 25 Gbps (PER_FLOW_LIMIT_GBPS.enaExpress), capped by the
 *   instance bandwidth (the card's bw_out bucket does that); it is delayed by enaSrdAddedOneWayNs
 *   (assumed) at the sending card.
 * - Incast: an SRD packet dropped by the receiving card's ingress shaper (queue full) is retransmitted
 *   after enaSrdRetransmitNs (assumed) while the SRD buffer (enaSrdRetransmitBufferBytes, assumed)
 *   has room; TCP never sees that loss. The buffer's occupancy is `ena_srd_resource_utilization`.
 *   Simplification: the buffer is accounted on the card where the loss happened, not the sender's.
 *   Not modelled: SRD's congestion control (AWS-ENAX: it "detects and avoids congested network
 *   paths"; the fabric here has no congestion) and any pacing of the senders. So the retransmission
 *   has no congestion response, and what it does depends on the load (tests/metrics/incast.test.ts):
 *   when bursts leave the receiver's queue time to drain (UDP, iperf3 -b 1G/200 from 8 clients), the
 *   card's drops become late deliveries instead of losses; when a burst keeps the queue full (8 TCP
 *   flows × 4 MiB into one c6i.8xlarge) retries re-enter the full queue every enaSrdRetransmitNs,
 *   each counted again in bw_in_allowance_exceeded, while TCP, seeing no loss, keeps growing its
 *   window: the flows end in 41-52 ms instead of 21 ms. The model does not reproduce AWS's "reduces
 *   tail latency" for TCP incast.
 * - Counters with the driver's names (amzn-drivers ena_ethtool.c ena_stats_srd_strings; ENA_ADMIN_ENA_SRD_INFO):
 *   ena_srd_mode, ena_srd_tx_pkts, ena_srd_eligible_tx_pkts, ena_srd_rx_pkts, ena_srd_resource_utilization.
 */
import { ENA_EXPRESS_MTU_BYTES } from '../../catalog';
import type { Scheduler } from '../core/scheduler';
import type { Packet } from '../model/packet';
import type { ParamValues } from '../params';
import type { Eni, VpcState } from '../vpc';

/** Per-flow SRD decision: not eligible, or eligible (then SRD unless the packet exceeds the SRD MTU). */
const NOT_ELIGIBLE = 1;
const ELIGIBLE = 2;

export interface EnaExpressConfig {
  /** The instance type is on AWS's list (the device reports ENA_ADMIN_ENA_SRD_INFO). */
  supported: boolean;
  /** The lab's placement puts all instances in one AZ (not 'cross-az' / 'internet'). */
  sameAzPlacement: boolean;
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
  /** SRD packets retransmitted after a loss at this card, and those lost because the buffer was full. */
  retransmittedPkts = 0;
  bufferFullDrops = 0;
  /** Bytes held for retransmission now. */
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

  /** Whether two ENIs may talk SRD for `proto` (both supported, both enabled, same AZ; UDP opt-in). */
  pairEligible(a: Eni, b: Eni, proto: Packet['flow']['tuple']['proto']): boolean {
    const vpc = this.vpc;
    if (vpc === null || !this.cfg.sameAzPlacement) return false;
    if (!a.spec.enaExpressSupported.value || !b.spec.enaExpressSupported.value) return false;
    if (!a.enaSrd.EnaSrdEnabled || !b.enaSrd.EnaSrdEnabled) return false;
    if (proto === 'udp') {
      if (
        !a.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled ||
        !b.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled
      )
        return false;
    } else if (proto !== 'tcp') return false;
    return vpc.subnet(a.subnetId)?.AvailabilityZone === vpc.subnet(b.subnetId)?.AvailabilityZone;
  }

  /** Whether the flow of `p` is SRD-eligible, seen from this card (egress: to dst; ingress: from src). */
  eligible(p: Packet, egress: boolean): boolean {
    const vpc = this.vpc;
    const me = this.eni;
    if (vpc === null || me === null) return false;
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

  /** Egress: count the packet and say whether it travels over SRD. */
  egress(p: Packet): boolean {
    if (!this.eligible(p, true)) return false;
    this.eligibleTxPkts += p.count;
    if (p.sizeBytes > this.mtu) return false; // eligible, but too big for SRD: standard ENA
    this.txPkts += p.count;
    return true;
  }

  /** Ingress: count an SRD packet; true when it arrived over SRD. */
  ingress(p: Packet): boolean {
    if (!this.eligible(p, false) || p.sizeBytes > this.mtu) return false;
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

  /**
   * An SRD packet was dropped at this card's ingress: hold it for retransmission and hand it back
   * to `resend` after enaSrdRetransmitNs. False when the SRD buffer is full (the packet is lost).
   */
  retransmit(p: Packet, resend: (q: Packet) => void): boolean {
    const bytes = p.count * p.sizeBytes;
    if (this.heldBytes + bytes > this.params.enaSrdRetransmitBufferBytes) {
      this.bufferFullDrops += p.count;
      return false;
    }
    this.heldBytes += bytes;
    this.retransmittedPkts += p.count;
    this.sched.after(this.params.enaSrdRetransmitNs, () => {
      this.heldBytes -= bytes;
      resend(p);
    });
    return true;
  }

  /** ena_srd_resource_utilization: the SRD buffer's occupancy, percent (integer, as the device reports it). */
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
