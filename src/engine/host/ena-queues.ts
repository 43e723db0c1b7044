/**
 * One ENA queue pair's state: the TX ring with its descriptors awaiting completion and cleaning,
 * the RX ring with its landing packets, interrupt moderation (net_dim, ixgbevf's EITR) and the
 * NAPI round in progress; the per-queue counters `ethtool -S` reads. Plain fields, read and written
 * by EnaDevice on the packet path.
 * Sources: ENA-SRC (ena_netdev.h: struct ena_ring, ena_stats_tx, ena_stats_rx).
 */
import { storeAsDoubles } from '../core/doubles';
import { Fifo } from '../core/fifo';
import type { Packet } from '../model/packet';
import { IxgbevfItr } from './ixgbevf-itr';
import { Dim } from './net-dim';

/**
 * One GRO-merged delivery to the stack: `segs` packets of one flow, in order, in `n` batches (`at`).
 * The batches are read where they are, at the RX ring's head, which a NAPI round leaves until it
 * ends (copying them out cost a write barrier a batch). The device reuses these objects round after
 * round: a delivery is valid during the `onRx` call that receives it.
 */
export class RxDelivery {
  /** Its first batch: item `first` of the ring. */
  first = 0;
  n = 0;
  segs = 0;
  bytes = 0;
  skbs = 0;

  constructor(private readonly ring: Fifo<Packet>) {}

  /** Its batch `i` (0 ≤ i < n). */
  at(i: number): Packet {
    return this.ring.at(this.first + i);
  }
}

export const TX_WAKEUP_THRESH = 17 + 2; // MAX_SKB_FRAGS + 2 (ENA_TX_WAKEUP_THRESH)

export class TxQueue {
  ring = new Fifo<Packet>(64);
  /** Descriptors in use: waiting for the device, or fetched but not yet cleaned. */
  used = 0;
  stopped = false;
  deviceBusy = false;
  /**
   * Fetched batches awaiting TX completion, with their counts at fetch time (later stages may split
   * them): the first `awaitingLen` entries. The counts' array is reused; the batches' is new each
   * clean cycle (see completeTx).
   */
  awaitingClean: Packet[] = [];
  awaitingCounts: number[] = [];
  awaitingLen = 0;
  cleanArmed = false;
  cnt = 0;
  bytes = 0;
  queueStop = 0;
  queueWakeup = 0;
  napiComp = 0;
  doorbells = 0;
  unmask = 0;
  peakUsed = 0;

  constructor() {
    storeAsDoubles(this, ['bytes']); // passes 2^31 (core/doubles.ts)
  }
}

export class RxQueue {
  dim = new Dim();
  /** ixgbevf: the vector's interrupt throttle (EITR) state, see IxgbevfItr. */
  itr = new IxgbevfItr();
  /** A poll-mode driver owns this queue: no interrupts, the application polls the ring. */
  polled = false;
  /**
   * The ring's packets, then at its tail the last `landing` ones: packets the fabric has committed
   * to this queue that land later (enqueuedAtNs = landing time, in order; see `receiveAt`). Those are
   * not in the ring yet for anything the model computes and take no descriptor until they land; kept
   * here rather than in a queue of their own, landing moves no packet.
   */
  ring = new Fifo<Packet>(64);
  landing = 0;
  used = 0;
  irqArmed = true;
  irqPending = false;
  polling = false;
  cnt = 0;
  bytes = 0;
  copybreak = 0;
  refilPartial = 0;
  peakUsed = 0;
  overruns = 0;
  /**
   * The NAPI round in progress: its GRO deliveries and packet count, handed over at its end. Its
   * deliveries are the first `pollCount` of `pollDeliveries` (kept and reused: no allocation per
   * round); its batches are the ring's first `pollTaken` items, which leave the ring when it ends.
   */
  pollDeliveries: RxDelivery[] = [];
  pollCount = 0;
  pollPackets = 0;
  pollTaken = 0;

  constructor() {
    storeAsDoubles(this, ['bytes']); // passes 2^31 (core/doubles.ts)
  }
}
