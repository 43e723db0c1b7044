/**
 * The ENA network device of one host: TX/RX rings per queue, the device's per-queue packet
 * processing (≈ 1 Mpps per queue, measured), interrupt moderation, NAPI polling, poll-mode
 * queues (DPDK). Queue i's interrupt is served by vCPU i mod nVcpu. Apart: the queues' state
 * (ena-queues.ts), steering (ena-steering.ts), a NAPI round's GRO (napi-gro.ts), what ethtool may
 * change (ena-config.ts) and reads (ena-stats.ts).
 * Sources: ENA-SRC, ENA-BP, ENA-README; TOONK and ENA-UTIL's ena-dts for the per-queue rate
 * (docs/domain-facts.md §1, §7). The TX and RX paths step by step: docs/design.md, "The ENA device".
 */
import type { Scheduler } from '../core/scheduler';
import type { DropCounters } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import { splitBatch } from '../model/packet';
import type { NetDriver } from '../../catalog/xen';
import type { ParamValues } from '../model/params';
import { Probe } from '../model/probe';
import type { Vcpu } from './cpu';
import type {
  ChannelParams,
  CoalesceParams,
  DeviceOp,
  DriverInfo,
  EnaDeviceView,
  Errno,
  LinkInfo,
  LinkStats,
  NtupleRule,
  RingParams,
  RssHashFunction,
  RssParams,
} from './device-view';
import { coalesceChange, defaultCoalesce, type EnaDeviceConfig, ringSizes } from './ena-config';
import { type RxDelivery, RxQueue, TX_WAKEUP_THRESH, TxQueue } from './ena-queues';
import {
  driverInfo,
  driverSupports,
  enaStatistics,
  ixgbevfStatistics,
  linkStats,
  queueTotals,
} from './ena-stats';
import { EnaSteering, type RssHashFn } from './ena-steering';
import { napiGroRound } from './napi-gro';

export type { EnaDeviceConfig } from './ena-config';
export type { RxDelivery } from './ena-queues';
export type { RssHashFn } from './ena-steering';

export class EnaDevice implements EnaDeviceView {
  readonly name: string;
  private tx: TxQueue[] = [];
  private rx: RxQueue[] = [];
  private cfg: EnaDeviceConfig;
  private coal: CoalesceParams = { adaptiveRx: true, adaptiveTx: false, rxUsecs: 20, txUsecs: 64 };
  private steering: EnaSteering;
  private txRingSize: number;
  private rxRingSize: number;
  private nQueues: number;
  /** The device's service time per packet of a TX fetch (the config's, else enaQueuePacketNs). */
  private fetchPacketNs: number;
  txDropsTotal = 0;
  rxOverruns = 0;
  interfaceUp = 1;
  /** Called for each TX queue when descriptors free up (the host restarts its qdisc on it). */
  onTxRoom: (txq: number) => void = () => {};
  /** Called with completed TX batches and how many packets of them completed (TCP Small Queues, UDP wmem). */
  onTxComplete: (p: Packet, count: number) => void = () => {};
  /** Called with each GRO delivery from NAPI, on the queue's vCPU, after its cost. */
  onRx: (d: RxDelivery, vcpu: Vcpu) => void = () => {};
  /** Where fetched TX packets go (the Nitro card). */
  toNitro: (p: Packet) => void = () => {};
  /**
   * The card's processing budget for this instance's TX (the egress PPS allowance, set by the lab on
   * Nitro): asked before each fetch; false = not now, the card calls txGranted(q) when it may go.
   * Null: no gate.
   */
  txGate: ((q: number, p: Packet) => boolean) | null = null;
  /** A packet landed in an RX queue owned by a poll-mode driver (the PMD schedules its next poll). */
  onPolledRx: (q: number) => void = () => {};
  /** Nitro counters for ethtool -S (set by the host). */
  nitroCounters: () => Array<[string, number]> = () => [];
  /** The root qdisc's kind, for `ip link show` (set by the host). */
  qdiscKind: () => string = () => 'mq';
  /** Called when MTU changes. */
  onMtuChange: (mtu: number) => void = () => {};
  /** Called when the queue count changes (the qdisc tree is rebuilt). */
  onQueuesChange: (n: number) => void = () => {};
  /**
   * Stage observations (the lab sets its probe and this host's index). tx_ring holds a batch from
   * the post to the device's fetch (descriptors awaiting cleaning are not packets any more);
   * rx_ring from its arrival until the NAPI round that took it hands it to the stack.
   */
  probe = new Probe();
  probeHost = -1;

  constructor(
    private readonly sched: Scheduler,
    cfg: EnaDeviceConfig,
    private readonly params: ParamValues,
    private readonly vcpus: Vcpu[],
    private readonly drops: DropCounters,
    private readonly hashFn: RssHashFn,
  ) {
    this.cfg = cfg;
    this.name = cfg.name;
    this.txRingSize = cfg.txRing;
    this.rxRingSize = cfg.rxRing;
    this.nQueues = cfg.queues;
    this.fetchPacketNs = cfg.packetNs ?? params.enaQueuePacketNs;
    // netfront has no interrupt moderation: netback's event-channel notification (one per batch
    // it copied) raises the guest's interrupt at once
    this.coal = defaultCoalesce(cfg.driver);
    this.steering = new EnaSteering(hashFn, cfg.rssKey, cfg.rssKeyConfigurable, cfg.queues);
    this.buildQueues();
  }

  private buildQueues(): void {
    this.tx = Array.from({ length: this.nQueues }, () => new TxQueue());
    this.rx = Array.from({ length: this.nQueues }, () => new RxQueue());
  }

  get queueCount(): number {
    return this.nQueues;
  }

  get mtu(): number {
    return this.cfg.mtu;
  }

  vcpuForQueue(q: number): Vcpu {
    const n = this.vcpus.length;
    return this.vcpus[q < n ? q : q % n]!;
  }

  // ------------------------------------------------------------------ TX

  /** Free descriptors on TX queue q (the driver keeps the queue stopped below the wake threshold). */
  txRoom(q: number): number {
    const t = this.tx[q]!;
    return t.stopped ? 0 : this.txRingSize - t.used;
  }

  /** Post a batch to TX ring q. Precondition: p.count ≤ txRoom(q). */
  xmit(q: number, p: Packet): void {
    const t = this.tx[q]!;
    this.probe.sink?.enter(this.sched.now, this.probeHost, 'tx_ring', q, p);
    t.ring.push(p);
    t.used += p.count;
    if (t.used > t.peakUsed) t.peakUsed = t.used;
    t.doorbells++;
    // ena_start_xmit stops the queue when it cannot hold another max-fragment packet
    if (this.txRingSize - t.used < TX_WAKEUP_THRESH) {
      if (!t.stopped) {
        t.stopped = true;
        t.queueStop++;
      }
    }
    if (!t.deviceBusy) this.fetchNext(q);
  }

  private fetchNext(q: number): void {
    const p = this.nextFetch(q);
    if (p !== null) this.sched.at(this.fetchDoneNs(p), this.fetchedFns[q]!, undefined);
  }

  /**
   * The batch TX queue q fetches next (the queue busy from now); null: the ring is empty (the queue
   * idle), or the card's gate said not now (it calls txGranted(q)).
   */
  private nextFetch(q: number): Packet | null {
    const t = this.tx[q]!;
    if (t.ring.length === 0) {
      t.deviceBusy = false;
      return null;
    }
    t.deviceBusy = true;
    const p = t.ring.peek();
    return this.txGate !== null && !this.txGate(q, p) ? null : p;
  }

  /** When the fetch of `p` starting now is done. */
  private fetchDoneNs(p: Packet): number {
    return this.sched.now + p.count * this.fetchPacketNs;
  }

  /**
   * The card lets TX queue q fetch its next batch (after txGate said not now). Returns the packets it
   * will fetch (0: the ring was emptied meanwhile, e.g. by a reset).
   */
  txGranted(q: number): number {
    const t = this.tx[q];
    if (t === undefined || t.ring.length === 0) {
      if (t !== undefined) t.deviceBusy = false;
      return 0;
    }
    t.deviceBusy = true;
    const p = t.ring.peek();
    this.sched.at(this.fetchDoneNs(p), this.fetchedFns[q]!, undefined);
    return p.count;
  }

  private fetchedFns: Array<(arg: unknown) => void> = [];

  /**
   * The end of TX queue q's fetch: of the batch at the ring's head (the one nextFetch chose: the
   * ring only grows at its tail meanwhile, and is rebuilt only on an idle device), so the event
   * carries no packet (storing a new packet in the scheduler's old argument array costs a write
   * barrier's slow path).
   */
  private makeFetched(q: number) {
    const fetched = (): void => {
      for (;;) {
        const t = this.tx[q]!;
        const p = t.ring.shift();
        t.cnt += p.count;
        t.bytes += p.count * p.sizeBytes;
        p.txq = q;
        this.probe.sink?.leave(this.sched.now, this.probeHost, 'tx_ring', q, p, -1);
        // The card reports the descriptors' completion (completeTx) when it is done with them: at
        // once, or after the flow's limiter (MODEL_PARAMS.nitroFlowLimitHoldsTxCompletion).
        this.toNitro(p);
        // fetchNext(q), the next fetch run here at once when it is the next event (takeNext)
        const next = this.nextFetch(q);
        if (next === null) return;
        const at = this.fetchDoneNs(next);
        if (!this.sched.takeNext(at)) {
          this.sched.at(at, this.fetchedFns[q]!, undefined);
          return;
        }
      }
    };
    return fetched;
  }

  private cleanFns: Array<(arg: unknown) => void> = [];

  /**
   * The device reports `count` packets of batch `p` (fetched from TX queue p.txq) complete: their
   * descriptors and skbs are freed at the next TX clean (interrupt moderation, then NAPI). Later
   * stages may split (mutate) the batch, so the count is taken now.
   */
  completeTx(p: Packet, count: number): void {
    const t = this.tx[p.txq];
    if (t === undefined) {
      // the queue is gone (the channels were changed since the fetch): the reset freed the skb
      this.onTxComplete(p, count);
      return;
    }
    // a new array each clean cycle: a young one takes young packets without the write barrier's
    // slow path (a reused, old one took it once a packet)
    if (t.awaitingLen === 0) t.awaitingClean = [];
    const k = t.awaitingLen++;
    t.awaitingClean[k] = p;
    t.awaitingCounts[k] = count;
    if (!t.cleanArmed) {
      t.cleanArmed = true;
      this.sched.after(this.txCleanNs(p.txq), this.cleanFns[p.txq]!, undefined);
    }
  }

  /**
   * Delay before completed TX descriptors are cleaned: ENA's tx-usecs; ixgbevf's TX rings share
   * their vector with RX (TxRx vectors), so its throttle interval (the RX queue of the same index).
   */
  private txCleanNs(q: number): number {
    if (this.cfg.driver === 'ixgbevf') {
      const r = this.rx[q % this.rx.length]!;
      const s = this.coal.rxUsecs;
      return Math.round((s === 1 ? r.itr.usecs : s) * 1000);
    }
    return this.coal.txUsecs * 1000;
  }

  private makeClean(q: number) {
    const txClean = (): void => {
      const t = this.tx[q]!;
      const batch = t.awaitingClean;
      const counts = t.awaitingCounts;
      const len = t.awaitingLen;
      let n = 0;
      for (let i = 0; i < len; i++) n += counts[i]!;
      // TX completion cleaning runs in NAPI on the queue's vCPU (charged, effect immediate)
      this.vcpuForQueue(q).charge(n * this.params.hostTxCleanPacketNs);
      t.cleanArmed = false;
      t.napiComp++;
      t.unmask++;
      t.used -= n;
      // Nothing is fetched synchronously from here (a fetch is an event), so the entries stay put.
      for (let i = 0; i < len; i++) this.onTxComplete(batch[i]!, counts[i]!);
      t.awaitingLen = 0;
      if (t.stopped && this.txRingSize - t.used >= TX_WAKEUP_THRESH) {
        t.stopped = false;
        t.queueWakeup++;
      }
      this.onTxRoom(q);
      if (t.awaitingLen > 0 && !t.cleanArmed) {
        t.cleanArmed = true;
        this.sched.after(this.txCleanNs(q), this.cleanFns[q]!, undefined);
      }
    };
    return txClean;
  }

  // ------------------------------------------------------------------ RX

  /** RX queue a packet is steered to: n-tuple rule first, else RSS. */
  steer(p: Packet): number {
    return this.steering.steer(p);
  }

  /** A packet arriving from the Nitro card now. */
  receive(p: Packet): void {
    const q = this.steering.queueOf(p);
    const r = this.rx[q]!;
    const now = this.sched.now;
    if (r.landing > 0) this.landDue(q);
    // it lands now, before what is still landing later
    const i = r.ring.length - r.landing;
    if (r.landing === 0) r.ring.push(p);
    else r.ring.insert(i, p);
    r.landing++;
    if (!this.land(q, r, i, p, now)) return;
    if (r.polled) {
      this.onPolledRx(q);
      return;
    }
    if (r.irqArmed && !r.irqPending && !r.polling) {
      r.irqPending = true;
      this.sched.at(this.irqTime(r, now), this.irqFns[q]!, undefined);
    }
  }

  /**
   * When the interrupt of a queue that has packets from `fromNs` on fires: the moderation interval
   * after the first packet (ENA), or the 82599's throttle interval since the last interrupt
   * (ixgbevf, IxgbevfItr).
   */
  private irqTime(r: RxQueue, fromNs: number): number {
    if (this.cfg.driver === 'ixgbevf') return r.itr.fireAt(fromNs, this.coal.rxUsecs);
    const usecs = this.coal.adaptiveRx ? r.dim.usecs() : this.coal.rxUsecs;
    return fromNs + usecs * 1000;
  }

  private readonly receiveFn = (arg: unknown) => this.receive(arg as Packet);

  /**
   * A packet that will arrive from the Nitro card at `atNs` (≥ now): the fabric's last leg, handed
   * over when the sender's card releases it so that it costs no event of its own (see Lab).
   *
   * Exactness: until `atNs` the packet is only among the ring's `landing` packets, which nothing
   * else sees (everything that reads the ring stops before them). Every event of
   * this queue that reads or changes the ring (the IRQ, the end of a NAPI round, a poll-mode read, a
   * statistics read) first lands what is due, in order, with the ring-room check and counters of a
   * packet arriving then; so the ring, `used` and overruns evolve exactly as with one event per
   * arrival (up to the order of events at the same nanosecond). The interrupt an arrival would arm
   * is armed here: it can only be armed by an arrival when the queue is idle with its interrupt
   * unmasked, and then nothing is pending (an earlier landing packet would have armed it), so this
   * one is the first to arrive and the IRQ fires at `atNs` + the moderation interval, as it would.
   * Queues owned by a poll-mode driver take the plain event path (the PMD is told of each arrival).
   */
  receiveAt(p: Packet, atNs: number): void {
    if (atNs <= this.sched.now) {
      this.receive(p);
      return;
    }
    const q = this.steering.queueOf(p);
    const r = this.rx[q]!;
    if (r.polled) {
      this.sched.at(atNs, this.receiveFn, p);
      return;
    }
    p.enqueuedAtNs = atNs;
    r.ring.push(p);
    r.landing++;
    if (r.irqArmed && !r.irqPending && !r.polling) {
      r.irqPending = true;
      this.sched.at(this.irqTime(r, atNs), this.irqFns[q]!, undefined);
    }
  }

  /**
   * Land `p`, the first landing packet of RX queue q (item `i` of its ring), as arriving at `atNs`
   * (full ring: overrun, and it leaves the ring). False when none of it fit.
   */
  private land(q: number, r: RxQueue, i: number, p: Packet, atNs: number): boolean {
    r.landing--;
    const room = this.rxRingSize - r.used;
    if (room <= 0) {
      r.ring.removeAt(i);
      this.rxOverrun(r, p, p.count, q, atNs);
      return false;
    }
    if (p.count > room) {
      const rest = splitBatch(p, room);
      this.rxOverrun(r, rest, rest.count, q, atNs);
    }
    p.enqueuedAtNs = atNs;
    // a landing packet is reported when it lands, with the instant it arrived (≤ now)
    this.probe.sink?.enter(atNs, this.probeHost, 'rx_ring', q, p);
    r.used += p.count;
    if (r.used > r.peakUsed) r.peakUsed = r.used;
    return true;
  }

  /** Land the packets of queue q due by now, in arrival order. */
  private landDue(q: number): void {
    const r = this.rx[q]!;
    const ring = r.ring;
    // the clock read here, not passed: a double argument to a call V8 does not inline is boxed
    const now = this.sched.now;
    while (r.landing > 0) {
      const i = ring.length - r.landing;
      const p = ring.at(i);
      if (p.enqueuedAtNs > now) return;
      this.land(q, r, i, p, p.enqueuedAtNs);
    }
  }

  /** Land every queue's due packets (before counters or occupancy are read, or settings change). */
  private landAllDue(): void {
    for (let q = 0; q < this.rx.length; q++) if (this.rx[q]!.landing > 0) this.landDue(q);
  }

  private rxOverrun(r: RxQueue, p: Packet, n: number, q: number, atNs: number): void {
    r.overruns += n;
    this.rxOverruns += n;
    this.drops.add(this.cfg.hostName, 'rx_ring', 'rx_ring_full', n, n * p.sizeBytes, p.flow.id);
    this.probe.sink?.drop(atNs, this.probeHost, 'rx_ring', q, p, n, 'rx_ring_full', false);
  }

  private irqFns: Array<(arg: unknown) => void> = [];

  private makeIrq(q: number) {
    const rxIrq = (): void => {
      const r = this.rx[q]!;
      r.irqPending = false;
      r.irqArmed = false;
      r.itr.lastIrqNs = this.sched.now;
      if (r.landing > 0) this.landDue(q);
      if (this.coal.adaptiveRx) r.dim.sample(this.sched.now, r.used);
      // poll(q), the round's end run here at once when it is the next event (Scheduler.takeNext)
      const done = this.pollDoneFns[q]!;
      if (this.vcpuForQueue(q).runOrTake(this.pollRound(q), done)) done(undefined);
    };
    return rxIrq;
  }

  /** One NAPI poll round on queue q: take up to napiBudget packets, GRO them, charge the vCPU. */
  private poll(q: number): void {
    // At most one round per queue is in progress (polling stays set until it ends): its results
    // wait on the queue for the prebound completion handler.
    this.vcpuForQueue(q).run(this.pollRound(q), this.pollDoneFns[q]!);
  }

  /** A poll round's work on queue q (GRO into the queue's delivery list); returns its vCPU cost. */
  private pollRound(q: number): number {
    const r = this.rx[q]!;
    r.polling = true;
    const skbs = napiGroRound(
      r,
      this.params.napiBudget,
      this.params.groMaxBytes,
      this.cfg.driver === 'ixgbevf',
    );
    return r.pollPackets * this.params.hostRxPacketNs + skbs * this.params.hostStackSkbNs;
  }

  private pollDoneFns: Array<(arg: unknown) => void> = [];

  /** The end of a NAPI round on queue q: hand its deliveries to the stack, then poll again or unmask. */
  private makePollDone(q: number) {
    const pollDone = (): void => {
      const r = this.rx[q]!;
      if (r.landing > 0) this.landDue(q);
      const n = r.pollPackets;
      const deliveries = r.pollDeliveries;
      const nd = r.pollCount;
      r.pollCount = 0;
      const vcpu = this.vcpuForQueue(q);
      r.used -= n;
      const sink = this.probe.sink;
      for (let i = 0; i < nd; i++) {
        const d = deliveries[i]!;
        // the stack may split the batches it is handed: report them as NAPI took them, first
        if (sink !== null)
          for (let j = 0; j < d.n; j++)
            sink.leave(this.sched.now, this.probeHost, 'rx_ring', q, d.at(j), vcpu.index);
        this.onRx(d, vcpu);
      }
      // the round's batches, read in place, leave the ring
      for (; r.pollTaken > 0; r.pollTaken--) r.ring.shift();
      if (n >= this.params.napiBudget && r.ring.length > r.landing) {
        // budget exhausted: NAPI stays scheduled and polls again (net_rx_action)
        this.poll(q);
      } else {
        // work_done < budget: napi_complete_done re-enables the interrupt. Packets that arrived during
        // the poll wait for the next (moderated) interrupt, which is what batches NAPI under load.
        r.polling = false;
        r.irqArmed = true;
        if (this.cfg.driver === 'ixgbevf' && this.coal.rxUsecs === 1) r.itr.update();
        if (r.ring.length > r.landing && !r.polled) {
          r.irqPending = true;
          this.sched.at(this.irqTime(r, this.sched.now), this.irqFns[q]!, undefined);
        } else if (r.landing > 0) {
          // the next landing packet arms it when it arrives (see receiveAt)
          const next = r.ring.at(r.ring.length - r.landing);
          r.irqPending = true;
          this.sched.at(this.irqTime(r, next.enqueuedAtNs), this.irqFns[q]!, undefined);
        }
      }
    };
    return pollDone;
  }

  // ------------------------------------------------------------------ poll-mode drivers (DPDK)

  /**
   * Hand RX queue q to a poll-mode driver (DPDK's ENA PMD): interrupts stop and packets wait in
   * the ring until `pollRx` takes them. `release` gives the queue back to the kernel driver.
   */
  setPolled(q: number, polled: boolean): void {
    const r = this.rx[q];
    if (!r) throw new RangeError(`no RX queue ${q}`);
    this.landDue(q);
    if (polled) {
      // a poll-mode driver is told of each arrival: what is still landing arrives by events
      for (let i = r.ring.length - r.landing; i < r.ring.length; i++) {
        const p = r.ring.at(i);
        this.sched.at(p.enqueuedAtNs, this.receiveFn, p);
      }
      for (; r.landing > 0; r.landing--) r.ring.removeAt(r.ring.length - 1);
    }
    r.polled = polled;
    if (!polled && r.used > 0 && r.irqArmed && !r.irqPending && !r.polling) {
      r.irqPending = true;
      this.sched.after(this.coal.rxUsecs * 1000, this.irqFns[q]!, undefined);
    }
  }

  /** Take up to `max` packets from RX ring q (rte_eth_rx_burst); frees their descriptors at once. */
  pollRx(q: number, max: number): Packet[] {
    const r = this.rx[q]!;
    if (r.landing > 0) this.landDue(q);
    const out: Packet[] = [];
    let n = 0;
    // the batches of a NAPI round still in progress (the queue was handed over meanwhile) come first
    const head = r.pollTaken;
    while (n < max && r.ring.length - head > r.landing) {
      const p = r.ring.at(head);
      if (n + p.count > max) {
        const rest = splitBatch(p, max - n);
        r.ring.set(head, rest);
        out.push(p);
        n += p.count;
        break;
      }
      r.ring.removeAt(head);
      out.push(p);
      n += p.count;
    }
    const sink = this.probe.sink;
    for (const p of out) {
      r.cnt += p.count;
      r.bytes += p.count * p.sizeBytes;
      sink?.leave(this.sched.now, this.probeHost, 'rx_ring', q, p, -1);
    }
    r.used -= n;
    return out;
  }

  /** Packets posted to TX ring q and not yet fetched by the device (the probe's tx_ring holding). */
  txPending(q: number): number {
    const ring = this.tx[q]!.ring;
    let n = 0;
    for (let i = 0; i < ring.length; i++) n += ring.at(i).count;
    return n;
  }

  /** Packets waiting in RX ring q. */
  rxPending(q: number): number {
    this.landDue(q);
    return this.rx[q]!.used;
  }

  // ------------------------------------------------------------------ lifecycle

  /** Must be called once after construction and after queue changes. */
  wire(): void {
    this.fetchedFns = this.tx.map((_, q) => this.makeFetched(q));
    this.cleanFns = this.tx.map((_, q) => this.makeClean(q));
    this.irqFns = this.rx.map((_, q) => this.makeIrq(q));
    this.pollDoneFns = this.rx.map((_, q) => this.makePollDone(q));
  }

  /** Occupancy snapshot for summaries: [used, peak] per queue. */
  /** Current adaptive-rx interval per RX queue, µs. */
  dimUsecs(): number[] {
    return this.rx.map((r) => r.dim.usecs());
  }

  occupancy(): { tx: Array<[number, number]>; rx: Array<[number, number]> } {
    this.landAllDue();
    return {
      tx: this.tx.map((t) => [t.used, t.peakUsed]),
      rx: this.rx.map((r) => [r.used, r.peakUsed]),
    };
  }

  private idle(): boolean {
    return (
      this.tx.every((t) => t.used === 0) &&
      this.rx.every((r) => r.used === 0 && !r.polling && r.landing === 0)
    );
  }

  /**
   * A new boot of the instance with `next` (a stop and start that may have changed enhanced
   * networking, hence the driver): queues, rings, coalescing and counters start afresh. The caller
   * guarantees the device is quiet (the instance was stopped).
   */
  relaunch(next: Partial<EnaDeviceConfig>): void {
    this.cfg = { ...this.cfg, ...next };
    this.txRingSize = this.cfg.txRing;
    this.rxRingSize = this.cfg.rxRing;
    this.nQueues = this.cfg.queues;
    this.fetchPacketNs = this.cfg.packetNs ?? this.params.enaQueuePacketNs;
    this.coal = defaultCoalesce(this.cfg.driver);
    this.steering = new EnaSteering(
      this.hashFn,
      this.cfg.rssKey,
      this.cfg.rssKeyConfigurable,
      this.cfg.queues,
    );
    this.txDropsTotal = 0;
    this.rxOverruns = 0;
    this.buildQueues();
    this.wire();
    this.onQueuesChange(this.nQueues);
  }

  // ------------------------------------------------------------------ EnaDeviceView

  get driver(): NetDriver {
    return this.cfg.driver ?? 'ena';
  }

  /** Which ethtool operations the driver implements (xen-netfront has only statistics). */
  supports(op: DeviceOp): boolean {
    return driverSupports(this.driver, op);
  }

  driverInfo(): DriverInfo {
    return driverInfo(this.driver);
  }

  link(): LinkInfo {
    return {
      name: this.name,
      ifindex: this.cfg.ifindex,
      mtu: this.cfg.mtu,
      minMtu: 128,
      maxMtu: this.cfg.maxMtu,
      mac: this.cfg.mac,
      txQueueLen: 1000,
      qdiscKind: this.qdiscKind(),
      numTxQueues: this.nQueues,
      numRxQueues: this.nQueues,
      up: true,
    };
  }

  linkStats(): LinkStats {
    this.landAllDue();
    return linkStats(this.tx, this.rx, this.rxOverruns, this.txDropsTotal);
  }

  /**
   * The sums over the queues of tx_bytes, rx_bytes, tx_cnt and rx_cnt at `into[at..at+3]`, what the
   * visual lab samples (ena-stats.ts queueTotals); false for a driver whose statistics are not ENA's
   * (the caller reads `statistics()` then).
   */
  queueTotals(into: Float64Array, at: number): boolean {
    if (this.driver === 'vif' || this.driver === 'ixgbevf') return false;
    this.landAllDue();
    queueTotals(this.tx, this.rx, into, at);
    return true;
  }

  statistics(): Array<[string, number]> {
    this.landAllDue();
    if (this.driver === 'vif') return [['rx_gso_checksum_fixup', 0]];
    if (this.driver === 'ixgbevf') return ixgbevfStatistics(this.tx, this.rx, this.linkStats());
    return enaStatistics(this.tx, this.rx, this, this.nitroCounters());
  }

  /** The TX (or RX) ring's size in descriptors, without rings()' object (the capture asks per batch). */
  ringSize(tx: boolean): number {
    return tx ? this.txRingSize : this.rxRingSize;
  }

  rings(): RingParams {
    return { rxMax: this.cfg.rxRingMax, txMax: this.cfg.txRingMax, rx: this.rxRingSize, tx: this.txRingSize };
  }

  setRings(rx: number | undefined, tx: number | undefined): Errno | null {
    const s = ringSizes(this.cfg, rx, tx);
    if (typeof s === 'string') return s;
    this.landAllDue();
    if (s.rx !== undefined) this.rxRingSize = s.rx;
    if (s.tx !== undefined) this.txRingSize = s.tx;
    return null;
  }

  channels(): ChannelParams {
    return { combinedMax: this.cfg.maxQueues, combined: this.nQueues };
  }

  setChannels(combined: number): Errno | null {
    if (this.driver !== 'ena') return 'EOPNOTSUPP';
    if (!Number.isInteger(combined) || combined < 1 || combined > this.cfg.maxQueues) return 'EINVAL';
    if (!this.idle()) return 'EBUSY';
    this.nQueues = combined;
    this.steering.spread(combined);
    this.buildQueues();
    this.wire();
    this.onQueuesChange(combined);
    return null;
  }

  coalesce(): CoalesceParams {
    return { ...this.coal };
  }

  setCoalesce(p: Partial<CoalesceParams>): Errno | null {
    const c = coalesceChange(this.driver, this.coal, p);
    if (typeof c === 'string') return c;
    this.coal = c;
    return null;
  }

  rss(): RssParams {
    return this.steering.rss();
  }

  setRss(p: { key?: Uint8Array; indir?: number[]; hfunc?: RssHashFunction }): Errno | null {
    // ixgbevf has no set_rxfh (the PF programs the VF's key and table); netfront has no RSS
    if (this.driver !== 'ena') return 'EOPNOTSUPP';
    return this.steering.setRss(p, this.nQueues);
  }

  ntupleSupported(): boolean {
    return this.cfg.ntupleSupported;
  }

  ntupleRuleCapacity(): number {
    return this.cfg.ntupleCapacity;
  }

  ntupleRules(): NtupleRule[] {
    return this.steering.ntupleRules();
  }

  addNtupleRule(rule: Omit<NtupleRule, 'loc'> & { loc?: number }): number | Errno {
    if (!this.cfg.ntupleSupported) return 'EOPNOTSUPP';
    return this.steering.addNtupleRule(rule, this.nQueues, this.cfg.ntupleCapacity);
  }

  deleteNtupleRule(loc: number): Errno | null {
    if (!this.cfg.ntupleSupported) return 'EOPNOTSUPP';
    return this.steering.deleteNtupleRule(loc);
  }

  setMtu(mtu: number): Errno | null {
    if (!Number.isInteger(mtu) || mtu < 128 || mtu > this.cfg.maxMtu) return 'EINVAL';
    this.cfg = { ...this.cfg, mtu };
    this.onMtuChange(mtu);
    return null;
  }
}
