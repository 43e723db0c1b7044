/**
 * What ip and ethtool read of an ENA device, by driver (ena, ixgbevf, xen-netfront): the
 * operations it implements, its driver information, the interface counters (ip -s link) and the
 * `ethtool -S` statistics, summed or listed from the queues' counters.
 * Sources: ENA-SRC (ena_ethtool.c: ena_stats_global_strings, ena_stats_tx/rx_strings), LINUX
 * drivers/net/ethernet/intel/ixgbevf/ethtool.c, drivers/net/xen-netfront.c.
 */
import type { NetDriver } from '../../catalog/xen';
import type { DeviceOp, DriverInfo, LinkStats } from './device-view';
import type { RxQueue, TxQueue } from './ena-queues';

/** Which ethtool operations the driver implements (xen-netfront has only statistics). */
export function driverSupports(driver: NetDriver, op: DeviceOp): boolean {
  switch (driver) {
    case 'ena':
      return true;
    case 'ixgbevf':
      // ixgbevf_ethtool_ops: ringparam, coalesce, rxfh (read only: the PF owns the key), rxnfc
      // (ring count only: no ntuple rules), no channels
      return op !== 'channels';
    case 'vif':
      return false;
  }
}

/** ethtool -i. */
export function driverInfo(driver: NetDriver): DriverInfo {
  switch (driver) {
    case 'ixgbevf':
      // ixgbevf_get_drvinfo; the VF has a self-test and a register dump, no firmware string
      return {
        driver: 'ixgbevf',
        version: '4.1.0-k',
        firmwareVersion: '',
        busInfo: '0000:00:03.0',
        supportsTest: true,
        supportsRegisterDump: true,
      };
    case 'vif':
      // xen-netfront has no get_drvinfo: the ethtool core names the xenbus driver and device
      return { driver: 'vif', version: '', firmwareVersion: '', busInfo: 'vif-0' };
    default:
      return {
        driver: 'ena',
        version: '2.13.3g',
        firmwareVersion: '',
        busInfo: '0000:00:05.0',
      };
  }
}

/** The interface's counters (ip -s link): the queues' sums, with the Ethernet header in the bytes. */
export function linkStats(
  tx: readonly TxQueue[],
  rx: readonly RxQueue[],
  rxOverruns: number,
  txDropsTotal: number,
): LinkStats {
  let rxB = 0;
  let rxP = 0;
  let txB = 0;
  let txP = 0;
  for (const r of rx) {
    rxB += r.bytes;
    rxP += r.cnt;
  }
  for (const t of tx) {
    txB += t.bytes;
    txP += t.cnt;
  }
  return {
    rxBytes: rxB + rxP * 14,
    rxPackets: rxP,
    rxErrors: 0,
    rxDropped: 0,
    rxOverErrors: rxOverruns,
    rxMissed: 0,
    rxMcast: 0,
    txBytes: txB + txP * 14,
    txPackets: txP,
    txErrors: 0,
    txDropped: txDropsTotal,
    txCarrier: 0,
    txCollisions: 0,
  };
}

/**
 * What the visual lab samples every few milliseconds, without building the `ethtool -S` list
 * (that list's strings and pairs, thousands of times a simulated second, were a fifth of the
 * worker's time in a fast-forward): the sums over the queues of tx_bytes, rx_bytes, tx_cnt and
 * rx_cnt, as ENA's `ethtool -S` gives them, written at `into[at..at+3]`.
 */
export function queueTotals(
  tx: readonly TxQueue[],
  rx: readonly RxQueue[],
  into: Float64Array,
  at: number,
): void {
  let txB = 0;
  let rxB = 0;
  let txP = 0;
  let rxP = 0;
  for (const t of tx) {
    txB += t.bytes + t.cnt * 14;
    txP += t.cnt;
  }
  for (const r of rx) {
    rxB += r.bytes + r.cnt * 14;
    rxP += r.cnt;
  }
  into[at] = txB;
  into[at + 1] = rxB;
  into[at + 2] = txP;
  into[at + 3] = rxP;
}

/** ENA's `ethtool -S`: the global counters, `head` (the Nitro card's), then each queue's. */
export function enaStatistics(
  tx: readonly TxQueue[],
  rx: readonly RxQueue[],
  global: { interfaceUp: number; txDropsTotal: number; rxOverruns: number },
  head: Array<[string, number]>,
): Array<[string, number]> {
  const out: Array<[string, number]> = [
    ['tx_timeout', 0],
    ['suspend', 0],
    ['resume', 0],
    ['wd_expired', 0],
    ['interface_up', global.interfaceUp],
    ['interface_down', global.interfaceUp - 1],
    ['admin_q_pause', 0],
    ['rx_drops', 0],
    ['tx_drops', global.txDropsTotal],
    ['rx_overruns', global.rxOverruns],
    ...head,
  ];
  tx.forEach((t, i) => {
    out.push(
      [`queue_${i}_tx_cnt`, t.cnt],
      [`queue_${i}_tx_bytes`, t.bytes + t.cnt * 14],
      [`queue_${i}_tx_queue_stop`, t.queueStop],
      [`queue_${i}_tx_queue_wakeup`, t.queueWakeup],
      [`queue_${i}_tx_dma_mapping_err`, 0],
      [`queue_${i}_tx_linearize`, 0],
      [`queue_${i}_tx_linearize_failed`, 0],
      [`queue_${i}_tx_napi_comp`, t.napiComp],
      [`queue_${i}_tx_tx_poll`, t.napiComp],
      [`queue_${i}_tx_doorbells`, t.doorbells],
      [`queue_${i}_tx_prepare_ctx_err`, 0],
      [`queue_${i}_tx_bad_req_id`, 0],
      [`queue_${i}_tx_llq_buffer_copy`, 0],
      [`queue_${i}_tx_missed_tx`, 0],
      [`queue_${i}_tx_unmask_interrupt`, t.unmask],
    );
    const r = rx[i]!;
    out.push(
      [`queue_${i}_rx_cnt`, r.cnt],
      [`queue_${i}_rx_bytes`, r.bytes + r.cnt * 14],
      [`queue_${i}_rx_rx_copybreak_pkt`, r.copybreak],
      [`queue_${i}_rx_csum_good`, r.cnt],
      [`queue_${i}_rx_refil_partial`, r.refilPartial],
      [`queue_${i}_rx_csum_bad`, 0],
      [`queue_${i}_rx_page_alloc_fail`, 0],
      [`queue_${i}_rx_skb_alloc_fail`, 0],
      [`queue_${i}_rx_dma_mapping_err`, 0],
      [`queue_${i}_rx_bad_desc_num`, 0],
      [`queue_${i}_rx_bad_req_id`, 0],
      [`queue_${i}_rx_empty_rx_ring`, 0],
      [`queue_${i}_rx_csum_unchecked`, 0],
    );
  });
  out.push(
    ['ena_admin_q_aborted_cmd', 0],
    ['ena_admin_q_submitted_cmd', 0],
    ['ena_admin_q_completed_cmd', 0],
    ['ena_admin_q_out_of_space', 0],
    ['ena_admin_q_no_completion', 0],
  );
  return out;
}

/** ixgbevf's `ethtool -S` (ethtool.c ixgbevf_gstrings_stats, then per-queue packets and bytes). */
export function ixgbevfStatistics(
  tx: readonly TxQueue[],
  rx: readonly RxQueue[],
  ls: LinkStats,
): Array<[string, number]> {
  const out: Array<[string, number]> = [
    ['rx_packets', ls.rxPackets],
    ['tx_packets', ls.txPackets],
    ['rx_bytes', ls.rxBytes],
    ['tx_bytes', ls.txBytes],
    ['tx_busy', 0],
    ['tx_restart_queue', tx.reduce((a, t) => a + t.queueWakeup, 0)],
    ['tx_timeout_count', 0],
    ['multicast', 0],
    ['rx_csum_offload_errors', 0],
  ];
  for (const [i, t] of tx.entries())
    out.push([`tx_queue_${i}_packets`, t.cnt], [`tx_queue_${i}_bytes`, t.bytes + t.cnt * 14]);
  for (const [i, r] of rx.entries())
    out.push([`rx_queue_${i}_packets`, r.cnt], [`rx_queue_${i}_bytes`, r.bytes + r.cnt * 14]);
  return out;
}
