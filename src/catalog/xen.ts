/**
 * Before Nitro: the three network paths of a Xen instance (ENA on Xen, the Intel 82599 VF with
 * ixgbevf, the Xen PV device with netfront/netback) and the driver figures of each, tagged like
 * every catalog figure (./figure.ts).
 *
 * Sources (keys of docs/domain-facts.md §0): IXGBEVF (ixgbevf.h, ixgbevf_main.c
 * ixgbevf_set_num_queues, ethtool.c), XEN-NETFRONT (xen-netfront.c), XEN-NETBACK
 * (xen-netback/interface.c), AWS-SRIOV, AWS-TELCO, and the seeds SRIOV and NETFLIX18.
 */
import { assumed, documented } from './figure';
import type { InstanceTypeSpec } from './instance-types';

/**
 * What carries an instance's packets between its guest and the VPC:
 * - `nitro`: ENA on a Nitro card (today's types);
 * - `xen-ena`: the first ENA, on a Xen host (R4, I3, X1, X1e, m4.16xlarge);
 * - `xen-sriov`: the Intel 82599 Virtual Function, driver ixgbevf (C3, C4, D2, I2, M4, R3);
 * - `xen-pv`: the Xen PV device: netfront in the guest, netback in dom0 (driver `vif`).
 */
export type NetworkPath = 'nitro' | 'xen-ena' | 'xen-sriov' | 'xen-pv';

/** The guest's network driver on each path, as `ethtool -i` names it. */
export type NetDriver = 'ena' | 'ixgbevf' | 'vif';

/** Whether a type can run without enhanced networking (only Xen types can). */
export function enhancedNetworkingOptional(spec: InstanceTypeSpec): boolean {
  return spec.hypervisor.value === 'xen' && spec.enhancedNetworking.value !== 'none';
}

/**
 * The path of an instance of `spec` with enhanced networking on or off. A Nitro type always runs
 * ENA; a type without enhanced networking always runs the PV device.
 */
export function networkPath(spec: InstanceTypeSpec, enhanced: boolean): NetworkPath {
  if (spec.hypervisor.value === 'nitro') return 'nitro';
  if (!enhanced || spec.enhancedNetworking.value === 'none') return 'xen-pv';
  return spec.enhancedNetworking.value === 'ena' ? 'xen-ena' : 'xen-sriov';
}

export function driverOf(path: NetworkPath): NetDriver {
  return path === 'xen-pv' ? 'vif' : path === 'xen-sriov' ? 'ixgbevf' : 'ena';
}

/** The Intel 82599 VF as the ixgbevf driver sees it. */
export const IXGBEVF = Object.freeze({
  maxRssQueues: documented(
    2,
    'IXGBEVF (ixgbevf.h IXGBEVF_MAX_RSS_QUEUES; ixgbevf_main.c ixgbevf_set_num_queues)',
    'rss = min(num_online_cpus(), 2) when the PF speaks mailbox API ≥ 1.1, else 1 queue. AWS-TELCO speaks of "6 [queues] with Intel-based chipsets", which the VF driver cannot expose: the driver wins for what the guest sees.',
  ),
  txRingDefault: documented(1024, 'IXGBEVF (IXGBEVF_DEFAULT_TXD)'),
  rxRingDefault: documented(512, 'IXGBEVF (IXGBEVF_DEFAULT_RXD)'),
  ringMax: documented(4096, 'IXGBEVF (IXGBEVF_MAX_TXD, IXGBEVF_MAX_RXD)'),
  ringMin: documented(64, 'IXGBEVF (IXGBEVF_MIN_TXD, IXGBEVF_MIN_RXD)'),
  /** ixgbevf_set_ringparam aligns to IXGBE_REQ_TX/RX_DESCRIPTOR_MULTIPLE. */
  ringMultiple: documented(8, 'IXGBEVF (ethtool.c ixgbevf_set_ringparam; IXGBE_REQ_*_DESCRIPTOR_MULTIPLE)'),
  retaSize: documented(128, 'IXGBEVF (IXGBEVF_82599_RETA_SIZE)'),
  linkGbps: documented(
    10,
    'IXGBEVF (ethtool.c: SUPPORTED_10000baseT_Full); AWS-TELCO',
    'The 82599 is a 10 GbE controller: every VF shares the port. AWS-TELCO: "The overall performance limit is 10 Gbps".',
  ),
  /** AWS-SRIOV asks for ixgbevf ≥ 2.14; the in-tree driver of 2017 kernels reports 4.1.0-k. */
  driverVersion: documented(
    '4.1.0-k',
    'IXGBEVF (ixgbevf_main.c DRV_VERSION, Linux 4.13)',
    'The in-tree version string of 2017-18 kernels; AWS-SRIOV requires ≥ 2.14 (Red Hat KB 2740491).',
  ),
});

/** The Xen PV device (netfront in the guest, netback in dom0). */
export const NETFRONT = Object.freeze({
  ringSlots: documented(
    256,
    'XEN-NETFRONT (NET_TX_RING_SIZE, NET_RX_RING_SIZE)',
    'One 4 KiB shared page per direction holds 256 request/response slots; netfront offers no ethtool -g.',
  ),
  queues: assumed(
    1,
    'XEN-NETFRONT (max_queues); XEN-NETBACK',
    'netfront opens as many queues as the backend offers (xenstore multi-queue-max-queues). The dom0 backend AWS ran on these hosts is not published; the 2013-era netback had one queue per vif, and the SRIOV seed shows one CPU-bound path, so one queue.',
  ),
  dom0VifQueueLength: documented(
    32,
    'XEN-NETBACK (XENVIF_QUEUE_LENGTH)',
    "The backend's vif device in dom0 queues at most 32 packets for the guest (its txqueuelen, 2011-2021); since Linux 3.19 they wait there once netback's own queue for the guest holds more than XENVIF_RX_QUEUE_BYTES (512 KiB) and has stopped the vif (the lab's xenNetbackRxQueuePackets and xenNetbackRxQueueBytes).",
  ),
});
