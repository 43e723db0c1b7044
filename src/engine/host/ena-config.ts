/**
 * An ENA device's configuration at boot (the instance type's limits, the driver) and what the
 * driver's ethtool operations accept of a change: ring sizes (-G) and coalescing (-C), per driver
 * (ena, ixgbevf, xen-netfront), with the driver's errno for what it refuses.
 * Sources: ENA-SRC (ena_ethtool.c: ena_set_ringparam, ena_set_coalesce), LINUX
 * drivers/net/ethernet/intel/ixgbevf/ethtool.c (ixgbevf_set_ringparam, ixgbevf_set_coalesce).
 */
import type { NetDriver } from '../../catalog/xen';
import type { CoalesceParams, Errno } from './device-view';

export interface EnaDeviceConfig {
  hostName: string;
  name: string;
  ifindex: number;
  mac: string;
  mtu: number;
  maxMtu: number;
  queues: number;
  maxQueues: number;
  txRing: number;
  txRingMax: number;
  rxRing: number;
  rxRingMax: number;
  rssKeyConfigurable: boolean;
  ntupleSupported: boolean;
  ntupleCapacity: number;
  rssKey: Uint8Array;
  nitroGeneration: number;
  /**
   * The guest driver (catalog ./xen): 'ena' (default), 'ixgbevf' (Intel 82599 VF) or 'vif' (Xen
   * netfront). The queue mechanics are the same; what ethtool sees and may change is the driver's.
   */
  driver?: NetDriver;
  /** Device time per TX packet per queue (default MODEL_PARAMS.enaQueuePacketNs). */
  packetNs?: number;
  /** The driver's ring limits when not ENA's (ixgbevf: 64..4096 in steps of 8). */
  ringMin?: number;
  ringMultiple?: number;
}

/**
 * A driver's coalescing settings at probe: ENA adaptive-rx with rx-usecs 20 and tx-usecs 64;
 * netfront none (netback's event per batch raises the interrupt at once); ixgbevf rx-usecs 1, its
 * dynamic ITR (tx-usecs reads 0: its vectors serve RX and TX together, ixgbevf_get_coalesce).
 */
export function defaultCoalesce(driver: NetDriver | undefined): CoalesceParams {
  if (driver === 'vif') return { adaptiveRx: false, adaptiveTx: false, rxUsecs: 0, txUsecs: 0 };
  if (driver === 'ixgbevf') return { adaptiveRx: false, adaptiveTx: false, rxUsecs: 1, txUsecs: 0 };
  return { adaptiveRx: true, adaptiveTx: false, rxUsecs: 20, txUsecs: 64 };
}

/** ethtool -G as the driver takes it: the ring sizes to set, or its errno. */
export function ringSizes(
  cfg: EnaDeviceConfig,
  rx: number | undefined,
  tx: number | undefined,
): { rx: number | undefined; tx: number | undefined } | Errno {
  const driver = cfg.driver ?? 'ena';
  if (driver === 'vif') return 'EOPNOTSUPP';
  if (driver === 'ixgbevf') {
    // ixgbevf_set_ringparam clamps to [IXGBEVF_MIN_*, IXGBEVF_MAX_*] and aligns up (no EINVAL)
    const min = cfg.ringMin ?? 64;
    const mult = cfg.ringMultiple ?? 8;
    const clampRing = (v: number, max: number) => Math.ceil(Math.min(Math.max(v, min), max) / mult) * mult;
    return {
      rx: rx === undefined ? undefined : clampRing(rx, cfg.rxRingMax),
      tx: tx === undefined ? undefined : clampRing(tx, cfg.txRingMax),
    };
  }
  // ena_set_ringparam: values outside [ENA_MIN_RING_SIZE, max] are rejected; others are rounded down to a power of 2.
  // (Resizing resets the interface; in-flight ring contents are dropped: "short-lasting packet drops", ENA-BP.)
  const check = (v: number | undefined, max: number) => v === undefined || (v >= 256 && v <= max);
  if (!check(rx, cfg.rxRingMax) || !check(tx, cfg.txRingMax)) return 'EINVAL';
  const pow2 = (v: number) => 2 ** Math.floor(Math.log2(v));
  return { rx: rx === undefined ? undefined : pow2(rx), tx: tx === undefined ? undefined : pow2(tx) };
}

/** ethtool -C as the driver takes it: the coalescing settings after the change, or its errno. */
export function coalesceChange(
  driver: NetDriver,
  coal: CoalesceParams,
  p: Partial<CoalesceParams>,
): CoalesceParams | Errno {
  if (driver === 'vif') return 'EOPNOTSUPP';
  if (p.adaptiveTx) return 'EOPNOTSUPP';
  if (driver === 'ixgbevf') {
    // ixgbevf_set_coalesce: no TX setting on mixed RxTx vectors; at most IXGBE_MAX_EITR >> 2 µs
    if (p.adaptiveRx !== undefined) return 'EOPNOTSUPP';
    if (p.txUsecs) return 'EINVAL';
    if (p.rxUsecs !== undefined && (!Number.isInteger(p.rxUsecs) || p.rxUsecs < 0 || p.rxUsecs > 1022))
      return 'EINVAL';
    return { ...coal, ...p };
  }
  for (const v of [p.rxUsecs, p.txUsecs]) {
    if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > 0xffff)) return 'EINVAL';
  }
  return { ...coal, ...p, adaptiveTx: false };
}
