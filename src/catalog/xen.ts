/**
 * Before Nitro: the three network paths of a Xen instance and the driver figures of each, tagged
 * like every catalog figure (./figure.ts).
 *
 * Sources (keys):
 * - IXGBEVF: torvalds/linux drivers/net/ethernet/intel/ixgbevf (ixgbevf.h: IXGBEVF_MAX_RSS_QUEUES,
 *   IXGBEVF_DEFAULT_TXD/RXD, IXGBEVF_MAX_TXD/RXD, IXGBEVF_82599_RETA_SIZE; ixgbevf_main.c
 *   ixgbevf_set_num_queues: rss = min(num_online_cpus(), 2) once the PF speaks mailbox API ≥ 1.1;
 *   ethtool.c: the `ethtool -S` strings and ring limits).
 * - XEN-NETFRONT: torvalds/linux drivers/net/xen-netfront.c (NET_TX/RX_RING_SIZE = one 4 KiB
 *   shared-ring page = 256 slots; the one `ethtool -S` counter rx_gso_checksum_fixup; no
 *   get_drvinfo, so ethtool's core reports the xenbus driver "vif" and the device "vif-0").
 * - XEN-NETBACK: torvalds/linux drivers/net/xen-netback/interface.c (XENVIF_QUEUE_LENGTH 32: the
 *   dom0 vif device's txqueuelen, removed only in 2021; XENVIF_NAPI_WEIGHT 64).
 * - AWS-SRIOV: AWS EC2 UG "Enhanced networking with the Intel 82599 VF interface" (supported types;
 *   `modify-instance-attribute --sriov-net-support simple` on a stopped HVM instance; the API:
 *   "There is no way to disable enhanced networking with the Intel 82599 Virtual Function interface").
 * - AWS-TELCO: AWS whitepaper "EC2 networking for telecom", "performance evolution": C3 first with
 *   SR-IOV (ixgbevf), C4 the Annapurna Labs chipset behind it, then ENA; "8 instead of 6" queues.
 * - SRIOV, NETFLIX18: the seed documents (c3.8xlarge with and without SR-IOV; the 2018 table).
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
    "The backend's vif device in dom0 queues at most 32 packets for the guest when the guest's RX ring has no free slot (its txqueuelen, 2011-2021).",
  ),
});
