/**
 * Why and where a packet died. Reasons that map to an ENA driver counter use its name.
 */
export type DropReason =
  | 'bw_out_allowance_exceeded'
  | 'bw_in_allowance_exceeded'
  | 'pps_allowance_exceeded'
  | 'flow_limit_exceeded' // per-flow limit (no ENA counter exists for it: a lab-only reason)
  | 'igw_limit_exceeded' // internet-gateway bandwidth limit (lab-only reason)
  | 'card_bandwidth_exceeded' // the Nitro card's own bandwidth per card by generation (lab-only reason)
  | 'rx_ring_full' // ENA rx_overruns: no free RX descriptor
  | 'qdisc_overlimit'
  | 'codel_drop'
  | 'fq_codel_memory_limit'
  | 'socket_rcvbuf_full' // UDP receive buffer overflow (UDP RcvbufErrors)
  | 'no_listener' // UDP to a port nobody listens on (UDP NoPorts)
  | 'mtu_exceeded'
  | 'ip_reassembly_failed' // a fragment of a datagram that never completed (Linux Ip ReasmFails)
  | 'conntrack_allowance_exceeded' // ENA conntrack_allowance_exceeded: a new tracked flow found the table full
  | 'linklocal_allowance_exceeded' // ENA linklocal_allowance_exceeded: over 1024 pps to DNS/IMDS/Time Sync
  | 'vpc_route' // no route / blackhole / unsupported target (lab-only reason)
  | 'nacl_deny' // a network ACL rule (or the `*` rule) denied it (lab-only reason)
  | 'sg_deny' // no security group rule allows it (lab-only reason)
  // ENA Express: the receiving card's ingress shaper dropped an SRD packet and the sender's card
  // retransmits it, so it is not lost (lab-only reason; the ENA counts it in bw_in_allowance_exceeded)
  | 'srd_retransmitted'
  // Xen PV: dom0's queue for the guest (512 KiB, then the vif's XENVIF_QUEUE_LENGTH qdisc) was full
  // (lab-only reason: the drop happens in dom0, the guest has no counter of it)
  | 'xen_backend_queue_full';

export type DropStage =
  | 'app'
  | 'socket'
  | 'qdisc'
  | 'tx_ring'
  | 'nitro_egress'
  | 'vpc'
  | 'nitro_ingress'
  | 'rx_ring';

export interface DropRecord {
  stage: DropStage;
  reason: DropReason;
  host: string;
  packets: number;
  bytes: number;
}

/** Per (host, stage, reason) drop counters; each drop is also offered to the trace sink, if any. */
export class DropCounters {
  private readonly map = new Map<string, DropRecord>();
  /** Set by the lab: receives a PacketDropped event per drop (null: no tracing, no cost). */
  trace:
    | ((
        host: string,
        stage: DropStage,
        reason: DropReason,
        flowId: number,
        packets: number,
        bytes: number,
      ) => void)
    | null = null;

  add(host: string, stage: DropStage, reason: DropReason, packets: number, bytes: number, flowId = -1): void {
    this.trace?.(host, stage, reason, flowId, packets, bytes);
    const key = `${host}|${stage}|${reason}`;
    let r = this.map.get(key);
    if (!r) {
      r = { host, stage, reason, packets: 0, bytes: 0 };
      this.map.set(key, r);
    }
    r.packets += packets;
    r.bytes += bytes;
  }

  list(): DropRecord[] {
    return [...this.map.values()].sort((a, b) =>
      a.host === b.host
        ? a.stage === b.stage
          ? a.reason.localeCompare(b.reason)
          : a.stage.localeCompare(b.stage)
        : a.host.localeCompare(b.host),
    );
  }

  total(host?: string, reason?: DropReason): number {
    let n = 0;
    for (const r of this.map.values())
      if ((!host || r.host === host) && (!reason || r.reason === reason)) n += r.packets;
    return n;
  }
}
