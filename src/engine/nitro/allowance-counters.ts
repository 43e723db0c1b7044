/**
 * The ENA allowance counters per interface: the driver reads them from the ENI's statistics, so
 * each interface of an instance (eth0, eth1, …) counts what was held or dropped on it; the
 * instance's are their sums.
 * Sources: ENA-BP (the ENA Linux driver's ENI statistics), AWS-ENAPERF.
 */
import type { NitroCounters } from './nitro-config';

/** Indices of the per-interface counter rows. */
export const BW_IN = 0;
export const BW_OUT = 1;
export const PPS = 2;
export const CONNTRACK = 3;
export const LINK_LOCAL = 4;

export class InterfaceCounters {
  /** Per interface (device index), the counts of NitroCounters (BW_IN … LINK_LOCAL). */
  private readonly perDevice: number[][] = [];

  add(k: number, device: number, n: number): void {
    let row = this.perDevice[device];
    if (row === undefined) {
      row = [0, 0, 0, 0, 0];
      this.perDevice[device] = row;
    }
    row[k]! += n;
  }

  /** The counters of one interface (`ethtool -S ethN`). */
  of(device: number): NitroCounters {
    const row = this.perDevice[device] ?? [0, 0, 0, 0, 0];
    return {
      bw_in_allowance_exceeded: row[BW_IN]!,
      bw_out_allowance_exceeded: row[BW_OUT]!,
      pps_allowance_exceeded: row[PPS]!,
      conntrack_allowance_exceeded: row[CONNTRACK]!,
      linklocal_allowance_exceeded: row[LINK_LOCAL]!,
    };
  }
}
