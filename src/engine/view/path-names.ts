/**
 * What the path picture and the inspectors call things: stages, a host's network layer (a Xen host
 * has no Nitro card), placements; and the drop reasons in the fixed order frame codes use.
 */
import type { ProbeStage } from '../model/probe';
import type { Instance, Lab } from '../lab/lab';
import type { DropReason } from '../model/drop-reasons';

/**
 * Every drop reason, in a fixed order: frame reason codes are 1 + the index here. A record keyed by
 * the union makes the compiler ask for a new reason here when the model adds one.
 */
const REASON_ORDER: Record<DropReason, number> = {
  bw_out_allowance_exceeded: 0,
  bw_in_allowance_exceeded: 1,
  pps_allowance_exceeded: 2,
  flow_limit_exceeded: 3,
  igw_limit_exceeded: 4,
  rx_ring_full: 5,
  qdisc_overlimit: 6,
  codel_drop: 7,
  fq_codel_memory_limit: 8,
  socket_rcvbuf_full: 9,
  no_listener: 10,
  mtu_exceeded: 11,
  conntrack_allowance_exceeded: 12,
  vpc_route: 13,
  nacl_deny: 14,
  sg_deny: 15,
  linklocal_allowance_exceeded: 16,
  ip_reassembly_failed: 17,
  srd_retransmitted: 18,
  card_bandwidth_exceeded: 19,
  xen_backend_queue_full: 20,
};
export const DROP_REASON_LIST: readonly DropReason[] = (Object.keys(REASON_ORDER) as DropReason[]).sort(
  (a, b) => REASON_ORDER[a] - REASON_ORDER[b],
);
export const REASON_CODE = new Map<string, number>(DROP_REASON_LIST.map((r, i) => [r, i + 1]));

export const STAGE_LABEL: Record<ProbeStage, string> = {
  socket_tx: 'Socket (send buffer)',
  qdisc: 'qdisc',
  tx_ring: 'TX rings',
  nitro_egress: 'Nitro card · egress',
  fabric: 'VPC fabric',
  nitro_ingress: 'Nitro card · ingress',
  rx_ring: 'RX rings',
  socket_rx: 'Socket (receive buffer)',
};

/**
 * What an instance's network layer and its stages are called in the picture: the Nitro card, or on
 * a Xen host what is there instead (no Nitro card is drawn where there is none).
 */
export function hostLayerNames(inst: Instance): {
  layer: string;
  stage: Partial<Record<ProbeStage, string>>;
} {
  const gen = inst.spec.nitroGeneration.value;
  switch (inst.path) {
    case 'nitro':
      return { layer: 'Nitro card', stage: {} };
    case 'xen-ena':
      return {
        layer: 'ENA on a Xen host',
        stage: {
          nitro_egress: 'ENA device · VPC egress',
          nitro_ingress: 'ENA device · VPC ingress',
        },
      };
    case 'xen-sriov': {
      const layer = gen === 1 ? 'Nitro v1 card behind the 82599 VF' : 'Intel 82599 VF · host VPC layer';
      return {
        layer,
        stage: {
          tx_ring: 'VF TX rings (ixgbevf)',
          nitro_egress: gen === 1 ? 'Nitro v1 · egress' : 'Xen host VPC · egress',
          nitro_ingress: gen === 1 ? 'Nitro v1 · ingress' : 'Xen host VPC · ingress',
          rx_ring: 'VF RX rings (ixgbevf)',
        },
      };
    }
    case 'xen-pv':
      return {
        layer: 'Xen dom0: netback + VPC',
        stage: {
          tx_ring: 'netfront TX ring',
          nitro_egress: 'dom0 netback · egress',
          nitro_ingress: 'dom0 netback · ingress',
          rx_ring: 'netfront RX ring',
        },
      };
  }
}

/** A stage's name in the picture on this host (a Xen host has no Nitro card: see hostLayerNames). */
export function stageLabelOn(lab: Lab, host: string, stage: ProbeStage): string {
  const inst = lab.instance(host);
  return (inst && hostLayerNames(inst).stage[stage]) ?? STAGE_LABEL[stage];
}

export function placementLabel(p: string): string {
  switch (p) {
    case 'cluster':
      return 'cluster placement group';
    case 'same-az':
      return 'same AZ';
    case 'cross-az':
      return 'across AZs';
    case 'internet':
      return 'via the internet gateway';
    case 'other-vpc':
      return 'other VPC via IGW';
    default:
      return p;
  }
}

export function fmtCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
