/**
 * The ENA network device of one host: TX/RX rings per queue, the device's per-queue packet
 * processing (≈ 1 Mpps per queue, measured), interrupt moderation, NAPI polling with GRO, RSS and
 * n-tuple steering. Queue i's interrupt is served by vCPU i mod nVcpu.
 *
 * Sources: ENA-SRC, ENA-BP, ENA-README; TOONK and ENA-UTIL's ena-dts for the per-queue rate
 * (docs/domain-facts.md §1, §7). The TX and RX paths step by step: docs/design.md, "The ENA device".
 */
import { storeAsDoubles } from '../core/doubles';
import { Fifo } from '../core/fifo';
import { Probe } from '../model/probe';
import type { Scheduler } from '../core/scheduler';
import type { DropCounters } from '../model/drop-reasons';
import type { FiveTuple, Packet } from '../model/packet';
import { splitBatch } from '../model/packet';
import type { NetDriver } from '../../catalog/xen';
import type { ParamValues } from '../model/params';
import type { Vcpu } from './cpu';
import { IxgbevfItr } from './ixgbevf-itr';
import { Dim } from './net-dim';
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

/** The RSS hash the device computes for a received packet's tuple. */
export type RssHashFn = (
  tuple: FiveTuple,
  key: Uint8Array,
  hfunc: RssHashFunction,
  configurable: boolean,
) => number;

/**
 * One GRO-merged delivery to the stack: `segs` packets of one flow, in order. The device reuses
 * these objects round after round: a delivery is valid during the `onRx` call that receives it.
 */
export interface RxDelivery {
  packets: Packet[];
  segs: number;
  bytes: number;
  skbs: number;
}

/**
 * A driver's coalescing settings at probe: ENA adaptive-rx with rx-usecs 20 and tx-usecs 64;
 * netfront none (netback's event per batch raises the interrupt at once); ixgbevf rx-usecs 1, its
 * dynamic ITR (tx-usecs reads 0: its vectors serve RX and TX together, ixgbevf_get_coalesce).
 */
function defaultCoalesce(driver: NetDriver | undefined): CoalesceParams {
  if (driver === 'vif') return { adaptiveRx: false, adaptiveTx: false, rxUsecs: 0, txUsecs: 0 };
  if (driver === 'ixgbevf') return { adaptiveRx: false, adaptiveTx: false, rxUsecs: 1, txUsecs: 0 };
  return { adaptiveRx: true, adaptiveTx: false, rxUsecs: 20, txUsecs: 64 };
}

const TX_WAKEUP_THRESH = 17 + 2; // MAX_SKB_FRAGS + 2 (ENA_TX_WAKEUP_THRESH)
const INDIR_SIZE = 128;

class TxQueue {
  ring = new Fifo<Packet>(64);
  /** Descriptors in use: waiting for the device, or fetched but not yet cleaned. */
  used = 0;
  stopped = false;
  deviceBusy = false;
  /**
   * Fetched batches awaiting TX completion, with their counts at fetch time (later stages may split
   * them): the first `awaitingLen` entries. Reused arrays: cleaning allocates nothing.
   */
  awaitingClean: (Packet | undefined)[] = [];
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

class RxQueue {
  dim = new Dim();
  /** ixgbevf: the vector's interrupt throttle (EITR) state, see IxgbevfItr. */
  itr = new IxgbevfItr();
  /** A poll-mode driver owns this queue: no interrupts, the application polls the ring. */
  polled = false;
  ring = new Fifo<Packet>(64);
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
   * Packets the fabric has committed to this queue that land later (enqueuedAtNs = landing time, in
   * order): see `receiveAt`. They are not in the ring and take no descriptor until they land.
   */
  landing = new Fifo<Packet>(16);
  /** The NAPI round in progress: its GRO deliveries and packet count, handed over at its end. */
  /** Its deliveries are the first `pollCount` of `pollDeliveries` (kept and reused: no allocation per round). */
  pollDeliveries: RxDelivery[] = [];
  pollCount = 0;
  pollPackets = 0;

  constructor() {
    storeAsDoubles(this, ['bytes']); // passes 2^31 (core/doubles.ts)
  }
}

export class EnaDevice implements EnaDeviceView {
  readonly name: string;
  private tx: TxQueue[] = [];
  private rx: RxQueue[] = [];
  private cfg: EnaDeviceConfig;
  private coal: CoalesceParams = { adaptiveRx: true, adaptiveTx: false, rxUsecs: 20, txUsecs: 64 };
  private rssState: RssParams;
  private ntuple: NtupleRule[] = [];
  private txRingSize: number;
  private rxRingSize: number;
  private nQueues: number;
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
    // netfront has no interrupt moderation: netback's event-channel notification (one per batch
    // it copied) raises the guest's interrupt at once
    this.coal = defaultCoalesce(cfg.driver);
    this.rssState = {
      key: cfg.rssKey,
      indir: Array.from({ length: INDIR_SIZE }, (_, i) => i % cfg.queues),
      hfunc: 'toeplitz',
      keyConfigurable: cfg.rssKeyConfigurable,
    };
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
    const t = this.tx[q]!;
    if (t.ring.length === 0) {
      t.deviceBusy = false;
      return;
    }
    t.deviceBusy = true;
    const p = t.ring.peek();
    if (this.txGate !== null && !this.txGate(q, p)) return; // the card calls txGranted(q)
    this.sched.after(p.count * (this.cfg.packetNs ?? this.params.enaQueuePacketNs), this.fetchedFns[q]!, p);
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
    this.sched.after(p.count * (this.cfg.packetNs ?? this.params.enaQueuePacketNs), this.fetchedFns[q]!, p);
    return p.count;
  }

  private fetchedFns: Array<(arg: unknown) => void> = [];

  private makeFetched(q: number) {
    return (arg: unknown) => {
      const p = arg as Packet;
      const t = this.tx[q]!;
      t.ring.shift();
      t.cnt += p.count;
      t.bytes += p.count * p.sizeBytes;
      p.txq = q;
      this.probe.sink?.leave(this.sched.now, this.probeHost, 'tx_ring', q, p, -1);
      // The card reports the descriptors' completion (completeTx) when it is done with them: at
      // once, or after the flow's limiter (MODEL_PARAMS.nitroFlowLimitHoldsTxCompletion).
      this.toNitro(p);
      this.fetchNext(q);
    };
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
    return () => {
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
      for (let i = 0; i < len; i++) {
        const p = batch[i]!;
        batch[i] = undefined;
        this.onTxComplete(p, counts[i]!);
      }
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
  }

  // ------------------------------------------------------------------ RX

  /** RX queue a packet is steered to: n-tuple rule first, else RSS. */
  steer(p: Packet): number {
    const tup = p.flow.tuple;
    for (const r of this.ntuple) {
      if ((r.flowType === 'tcp4') !== (tup.proto === 'tcp')) continue;
      if (r.flowType === 'udp4' && tup.proto !== 'udp') continue;
      if (r.srcIp !== undefined && r.srcIp !== tup.srcIp) continue;
      if (r.dstIp !== undefined && r.dstIp !== tup.dstIp) continue;
      if (r.srcPort !== undefined && r.srcPort !== tup.srcPort) continue;
      if (r.dstPort !== undefined && r.dstPort !== tup.dstPort) continue;
      return r.action;
    }
    const h = this.hashFn(tup, this.rssState.key, this.rssState.hfunc, this.rssState.keyConfigurable);
    return this.rssState.indir[h % INDIR_SIZE]!;
  }

  /**
   * RX queue by flow id: steering is a pure function of the tuple and the RSS/n-tuple configuration,
   * so it is computed once per flow and forgotten whenever that configuration changes.
   */
  private steerCache: number[] = [];

  private steeringChanged(): void {
    this.steerCache = [];
    this.fragSteerCache = [];
  }

  private rxQueueOf(p: Packet): number {
    if (p.frag != null) return this.fragmentQueueOf(p);
    let q = this.steerCache[p.flow.id];
    if (q === undefined) {
      q = this.steer(p);
      this.steerCache[p.flow.id] = q;
    }
    return q;
  }

  /**
   * An IPv4 fragment has no L4 header where the device looks for one (only the first fragment
   * carries the ports): it is steered by the addresses alone, the 2-tuple hash (ENA's
   * ENA_ADMIN_RSS_IP4_FRAG hash fields: source and destination IP), so a flow's fragments can land
   * on another queue than its unfragmented packets. n-tuple rules, which match ports and a TCP/UDP
   * flow type, do not apply.
   */
  private fragmentQueueOf(p: Packet): number {
    let q = this.fragSteerCache[p.flow.id];
    if (q === undefined) {
      const t = p.flow.tuple;
      // proto 'icmp' makes the lab's hash function hash the addresses only
      const ipOnly = { srcIp: t.srcIp, dstIp: t.dstIp, proto: 'icmp' as const, srcPort: 0, dstPort: 0 };
      const h = this.hashFn(ipOnly, this.rssState.key, this.rssState.hfunc, this.rssState.keyConfigurable);
      q = this.rssState.indir[h % INDIR_SIZE]!;
      this.fragSteerCache[p.flow.id] = q;
    }
    return q;
  }

  private fragSteerCache: number[] = [];

  /** A packet arriving from the Nitro card now. */
  receive(p: Packet): void {
    const q = this.rxQueueOf(p);
    const r = this.rx[q]!;
    const now = this.sched.now;
    if (r.landing.length > 0) this.landDue(q, now);
    if (!this.land(q, p, now)) return;
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
   * Exactness: until `atNs` the packet is only in `landing`, which nothing else sees. Every event of
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
    const q = this.rxQueueOf(p);
    const r = this.rx[q]!;
    if (r.polled) {
      this.sched.at(atNs, this.receiveFn, p);
      return;
    }
    p.enqueuedAtNs = atNs;
    r.landing.push(p);
    if (r.irqArmed && !r.irqPending && !r.polling) {
      r.irqPending = true;
      this.sched.at(this.irqTime(r, atNs), this.irqFns[q]!, undefined);
    }
  }

  /** Put `p` in RX ring q as arriving at `atNs` (full ring: overrun). False when none of it fit. */
  private land(q: number, p: Packet, atNs: number): boolean {
    const r = this.rx[q]!;
    const room = this.rxRingSize - r.used;
    if (room <= 0) {
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
    r.ring.push(p);
    r.used += p.count;
    if (r.used > r.peakUsed) r.peakUsed = r.used;
    return true;
  }

  /** Land the packets of queue q due by `nowNs`, in arrival order. */
  private landDue(q: number, nowNs: number): void {
    const l = this.rx[q]!.landing;
    while (l.length > 0 && l.peek().enqueuedAtNs <= nowNs) {
      const p = l.shift();
      this.land(q, p, p.enqueuedAtNs);
    }
  }

  /** Land every queue's due packets (before counters or occupancy are read, or settings change). */
  private landAllDue(): void {
    const now = this.sched.now;
    for (let q = 0; q < this.rx.length; q++) if (this.rx[q]!.landing.length > 0) this.landDue(q, now);
  }

  private rxOverrun(r: RxQueue, p: Packet, n: number, q: number, atNs: number): void {
    r.overruns += n;
    this.rxOverruns += n;
    this.drops.add(this.cfg.hostName, 'rx_ring', 'rx_ring_full', n, n * p.sizeBytes, p.flow.id);
    this.probe.sink?.drop(atNs, this.probeHost, 'rx_ring', q, p, n, 'rx_ring_full', false);
  }

  private irqFns: Array<(arg: unknown) => void> = [];

  private makeIrq(q: number) {
    return () => {
      const r = this.rx[q]!;
      r.irqPending = false;
      r.irqArmed = false;
      r.itr.lastIrqNs = this.sched.now;
      if (r.landing.length > 0) this.landDue(q, this.sched.now);
      if (this.coal.adaptiveRx) r.dim.sample(this.sched.now, r.used);
      this.poll(q);
    };
  }

  /** One NAPI poll round on queue q: take up to napiBudget packets, GRO them, charge the vCPU. */
  private poll(q: number): void {
    const r = this.rx[q]!;
    r.polling = true;
    const budget = this.params.napiBudget;
    const ring = r.ring;
    // Take up to `budget` packets and GRO them as they come: merge consecutive packets of one TCP
    // flow into one delivery (its skbs follow from gro_max_size below).
    const deliveries = r.pollDeliveries;
    let nd = 0;
    /** Packets in `cur` so far. */
    let curLen = 0;
    let cur: RxDelivery | null = null;
    let n = 0;
    while (n < budget && ring.length > 0) {
      let p = ring.peek();
      if (n + p.count > budget) {
        const rest = splitBatch(p, budget - n);
        ring.replaceHead(rest);
      } else {
        p = ring.shift();
      }
      n += p.count;
      r.cnt += p.count;
      r.bytes += p.count * p.sizeBytes;
      r.itr.count(p.count * p.sizeBytes);
      if (p.sizeBytes <= 256) r.copybreak += p.count;
      // GRO looks through a tunnel's outer header (gre_gro_receive, udp_gro_receive): the inner flow
      const f = p.inner ?? p.flow;
      const gro = p.payloadBytes > 0 && f.tuple.proto === 'tcp';
      if (cur && gro && (cur.packets[0]!.inner ?? cur.packets[0]!.flow) === f) {
        cur.packets[curLen++] = p;
        cur.segs += p.count;
        cur.bytes += p.count * p.sizeBytes;
      } else {
        if (cur !== null && cur.packets.length !== curLen) cur.packets.length = curLen;
        let d = deliveries[nd];
        if (d === undefined) {
          d = { packets: [p], segs: p.count, bytes: p.count * p.sizeBytes, skbs: 0 };
          deliveries.push(d);
        } else {
          d.packets[0] = p;
          // a GRO delivery is cut to its length when it ends (below), any other one here
          if (!gro && d.packets.length !== 1) d.packets.length = 1;
          d.segs = p.count;
          d.bytes = p.count * p.sizeBytes;
          d.skbs = 0;
        }
        nd++;
        curLen = 1;
        cur = gro ? d : null;
      }
    }
    if (cur !== null && cur.packets.length !== curLen) cur.packets.length = curLen;
    let skbs = 0;
    const groMax = this.params.groMaxBytes;
    for (let i = 0; i < nd; i++) {
      const d = deliveries[i]!;
      const p0 = d.packets[0]!;
      const isGro = p0.payloadBytes > 0 && (p0.inner ?? p0.flow).tuple.proto === 'tcp';
      d.skbs = isGro ? Math.max(1, Math.ceil(d.bytes / groMax)) : d.segs;
      skbs += d.skbs;
    }
    const cost = n * this.params.hostRxPacketNs + skbs * this.params.hostStackSkbNs;
    // At most one round per queue is in progress (polling stays set until it ends): its results
    // wait on the queue for the prebound completion handler.
    r.pollCount = nd;
    r.pollPackets = n;
    this.vcpuForQueue(q).run(cost, this.pollDoneFns[q]!);
  }

  private pollDoneFns: Array<(arg: unknown) => void> = [];

  /** The end of a NAPI round on queue q: hand its deliveries to the stack, then poll again or unmask. */
  private makePollDone(q: number) {
    return () => {
      const r = this.rx[q]!;
      if (r.landing.length > 0) this.landDue(q, this.sched.now);
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
          for (let j = 0; j < d.packets.length; j++)
            sink.leave(this.sched.now, this.probeHost, 'rx_ring', q, d.packets[j]!, vcpu.index);
        this.onRx(d, vcpu);
      }
      if (n >= this.params.napiBudget && r.ring.length > 0) {
        // budget exhausted: NAPI stays scheduled and polls again (net_rx_action)
        this.poll(q);
      } else {
        // work_done < budget: napi_complete_done re-enables the interrupt. Packets that arrived during
        // the poll wait for the next (moderated) interrupt, which is what batches NAPI under load.
        r.polling = false;
        r.irqArmed = true;
        if (this.cfg.driver === 'ixgbevf' && this.coal.rxUsecs === 1) r.itr.update();
        if (r.ring.length > 0 && !r.polled) {
          r.irqPending = true;
          this.sched.at(this.irqTime(r, this.sched.now), this.irqFns[q]!, undefined);
        } else if (r.landing.length > 0) {
          // the next landing packet arms it when it arrives (see receiveAt)
          r.irqPending = true;
          this.sched.at(this.irqTime(r, r.landing.peek().enqueuedAtNs), this.irqFns[q]!, undefined);
        }
      }
    };
  }

  // ------------------------------------------------------------------ poll-mode drivers (DPDK)

  /**
   * Hand RX queue q to a poll-mode driver (DPDK's ENA PMD): interrupts stop and packets wait in
   * the ring until `pollRx` takes them. `release` gives the queue back to the kernel driver.
   */
  setPolled(q: number, polled: boolean): void {
    const r = this.rx[q];
    if (!r) throw new RangeError(`no RX queue ${q}`);
    this.landDue(q, this.sched.now);
    if (polled) {
      // a poll-mode driver is told of each arrival: what is still landing arrives by events
      while (r.landing.length > 0) {
        const p = r.landing.shift();
        this.sched.at(p.enqueuedAtNs, this.receiveFn, p);
      }
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
    if (r.landing.length > 0) this.landDue(q, this.sched.now);
    const out: Packet[] = [];
    let n = 0;
    while (n < max && r.ring.length > 0) {
      const p = r.ring.peek();
      if (n + p.count > max) {
        const rest = splitBatch(p, max - n);
        r.ring.replaceHead(rest);
        out.push(p);
        n += p.count;
        break;
      }
      r.ring.shift();
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
    this.landDue(q, this.sched.now);
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
      this.rx.every((r) => r.used === 0 && !r.polling && r.landing.length === 0)
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
    this.coal = defaultCoalesce(this.cfg.driver);
    this.rssState = {
      key: this.cfg.rssKey,
      indir: Array.from({ length: INDIR_SIZE }, (_, i) => i % this.cfg.queues),
      hfunc: 'toeplitz',
      keyConfigurable: this.cfg.rssKeyConfigurable,
    };
    this.ntuple = [];
    this.txDropsTotal = 0;
    this.rxOverruns = 0;
    this.steeringChanged();
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
    switch (this.driver) {
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

  driverInfo(): DriverInfo {
    switch (this.driver) {
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
    let rxB = 0;
    let rxP = 0;
    let txB = 0;
    let txP = 0;
    for (const r of this.rx) {
      rxB += r.bytes;
      rxP += r.cnt;
    }
    for (const t of this.tx) {
      txB += t.bytes;
      txP += t.cnt;
    }
    return {
      rxBytes: rxB + rxP * 14,
      rxPackets: rxP,
      rxErrors: 0,
      rxDropped: 0,
      rxOverErrors: this.rxOverruns,
      rxMissed: 0,
      rxMcast: 0,
      txBytes: txB + txP * 14,
      txPackets: txP,
      txErrors: 0,
      txDropped: this.txDropsTotal,
      txCarrier: 0,
      txCollisions: 0,
    };
  }

  /**
   * What the visual lab samples every few milliseconds, without building the `ethtool -S` list
   * (that list's strings and pairs, thousands of times a simulated second, were a fifth of the
   * worker's time in a fast-forward): the sums over the queues of tx_bytes, rx_bytes, tx_cnt and
   * rx_cnt, as `statistics()` gives them, written at `into[at..at+3]`. Null for a driver whose
   * statistics are not ENA's (the caller reads `statistics()` then).
   */
  queueTotals(into: Float64Array, at: number): boolean {
    if (this.driver === 'vif' || this.driver === 'ixgbevf') return false;
    this.landAllDue();
    let txB = 0;
    let rxB = 0;
    let txP = 0;
    let rxP = 0;
    for (const t of this.tx) {
      txB += t.bytes + t.cnt * 14;
      txP += t.cnt;
    }
    for (const r of this.rx) {
      rxB += r.bytes + r.cnt * 14;
      rxP += r.cnt;
    }
    into[at] = txB;
    into[at + 1] = rxB;
    into[at + 2] = txP;
    into[at + 3] = rxP;
    return true;
  }

  statistics(): Array<[string, number]> {
    this.landAllDue();
    if (this.driver === 'vif') return [['rx_gso_checksum_fixup', 0]];
    if (this.driver === 'ixgbevf') return this.ixgbevfStatistics();
    const out: Array<[string, number]> = [
      ['tx_timeout', 0],
      ['suspend', 0],
      ['resume', 0],
      ['wd_expired', 0],
      ['interface_up', this.interfaceUp],
      ['interface_down', this.interfaceUp - 1],
      ['admin_q_pause', 0],
      ['rx_drops', 0],
      ['tx_drops', this.txDropsTotal],
      ['rx_overruns', this.rxOverruns],
      ...this.nitroCounters(),
    ];
    this.tx.forEach((t, i) => {
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
      const r = this.rx[i]!;
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
  private ixgbevfStatistics(): Array<[string, number]> {
    const ls = this.linkStats();
    const out: Array<[string, number]> = [
      ['rx_packets', ls.rxPackets],
      ['tx_packets', ls.txPackets],
      ['rx_bytes', ls.rxBytes],
      ['tx_bytes', ls.txBytes],
      ['tx_busy', 0],
      ['tx_restart_queue', this.tx.reduce((a, t) => a + t.queueWakeup, 0)],
      ['tx_timeout_count', 0],
      ['multicast', 0],
      ['rx_csum_offload_errors', 0],
    ];
    for (const [i, t] of this.tx.entries())
      out.push([`tx_queue_${i}_packets`, t.cnt], [`tx_queue_${i}_bytes`, t.bytes + t.cnt * 14]);
    for (const [i, r] of this.rx.entries())
      out.push([`rx_queue_${i}_packets`, r.cnt], [`rx_queue_${i}_bytes`, r.bytes + r.cnt * 14]);
    return out;
  }

  rings(): RingParams {
    return { rxMax: this.cfg.rxRingMax, txMax: this.cfg.txRingMax, rx: this.rxRingSize, tx: this.txRingSize };
  }

  setRings(rx: number | undefined, tx: number | undefined): Errno | null {
    if (this.driver === 'vif') return 'EOPNOTSUPP';
    if (this.driver === 'ixgbevf') {
      // ixgbevf_set_ringparam clamps to [IXGBEVF_MIN_*, IXGBEVF_MAX_*] and aligns up (no EINVAL)
      const min = this.cfg.ringMin ?? 64;
      const mult = this.cfg.ringMultiple ?? 8;
      const clampRing = (v: number, max: number) => Math.ceil(Math.min(Math.max(v, min), max) / mult) * mult;
      this.landAllDue();
      if (rx !== undefined) this.rxRingSize = clampRing(rx, this.cfg.rxRingMax);
      if (tx !== undefined) this.txRingSize = clampRing(tx, this.cfg.txRingMax);
      return null;
    }
    // ena_set_ringparam: values outside [ENA_MIN_RING_SIZE, max] are rejected; others are rounded down to a power of 2.
    const check = (v: number | undefined, max: number) => v === undefined || (v >= 256 && v <= max);
    if (!check(rx, this.cfg.rxRingMax) || !check(tx, this.cfg.txRingMax)) return 'EINVAL';
    this.landAllDue();
    if (!this.idle()) {
      // Resizing resets the interface; in-flight ring contents are dropped ("short-lasting packet drops", ENA-BP).
    }
    const pow2 = (v: number) => 2 ** Math.floor(Math.log2(v));
    if (rx !== undefined) this.rxRingSize = pow2(rx);
    if (tx !== undefined) this.txRingSize = pow2(tx);
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
    this.rssState.indir = Array.from({ length: INDIR_SIZE }, (_, i) => i % combined);
    this.steeringChanged();
    this.buildQueues();
    this.wire();
    this.onQueuesChange(combined);
    return null;
  }

  coalesce(): CoalesceParams {
    return { ...this.coal };
  }

  setCoalesce(p: Partial<CoalesceParams>): Errno | null {
    if (this.driver === 'vif') return 'EOPNOTSUPP';
    if (p.adaptiveTx) return 'EOPNOTSUPP';
    if (this.driver === 'ixgbevf') {
      // ixgbevf_set_coalesce: no TX setting on mixed RxTx vectors; at most IXGBE_MAX_EITR >> 2 µs
      if (p.adaptiveRx !== undefined) return 'EOPNOTSUPP';
      if (p.txUsecs) return 'EINVAL';
      if (p.rxUsecs !== undefined && (!Number.isInteger(p.rxUsecs) || p.rxUsecs < 0 || p.rxUsecs > 1022))
        return 'EINVAL';
      this.coal = { ...this.coal, ...p };
      return null;
    }
    for (const v of [p.rxUsecs, p.txUsecs]) {
      if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > 0xffff)) return 'EINVAL';
    }
    this.coal = { ...this.coal, ...p, adaptiveTx: false };
    return null;
  }

  rss(): RssParams {
    return { ...this.rssState, key: this.rssState.key.slice(), indir: this.rssState.indir.slice() };
  }

  setRss(p: { key?: Uint8Array; indir?: number[]; hfunc?: RssHashFunction }): Errno | null {
    // ixgbevf has no set_rxfh (the PF programs the VF's key and table); netfront has no RSS
    if (this.driver !== 'ena') return 'EOPNOTSUPP';
    if ((p.key || p.hfunc) && !this.cfg.rssKeyConfigurable) return 'EOPNOTSUPP';
    if (p.key && p.key.length !== 40) return 'EINVAL';
    if (
      p.indir &&
      (p.indir.length !== INDIR_SIZE ||
        p.indir.some((q) => !Number.isInteger(q) || q < 0 || q >= this.nQueues))
    ) {
      return 'EINVAL';
    }
    if (p.key) this.rssState.key = p.key.slice();
    if (p.indir) this.rssState.indir = p.indir.slice();
    if (p.hfunc) this.rssState.hfunc = p.hfunc;
    this.steeringChanged();
    return null;
  }

  ntupleSupported(): boolean {
    return this.cfg.ntupleSupported;
  }

  ntupleRuleCapacity(): number {
    return this.cfg.ntupleCapacity;
  }

  ntupleRules(): NtupleRule[] {
    return this.ntuple.map((r) => ({ ...r }));
  }

  addNtupleRule(rule: Omit<NtupleRule, 'loc'> & { loc?: number }): number | Errno {
    if (!this.cfg.ntupleSupported) return 'EOPNOTSUPP';
    if (!Number.isInteger(rule.action) || rule.action < 0 || rule.action >= this.nQueues) return 'EINVAL';
    let loc = rule.loc;
    if (loc === undefined) {
      loc = 0;
      while (this.ntuple.some((r) => r.loc === loc)) loc++;
    }
    if (loc < 0 || loc >= this.cfg.ntupleCapacity) return 'EINVAL';
    this.ntuple = this.ntuple.filter((r) => r.loc !== loc);
    this.ntuple.push({ ...rule, loc });
    this.ntuple.sort((a, b) => a.loc - b.loc);
    this.steeringChanged();
    return loc;
  }

  deleteNtupleRule(loc: number): Errno | null {
    if (!this.cfg.ntupleSupported) return 'EOPNOTSUPP';
    const before = this.ntuple.length;
    this.ntuple = this.ntuple.filter((r) => r.loc !== loc);
    this.steeringChanged();
    return this.ntuple.length === before ? 'ENOENT' : null;
  }

  setMtu(mtu: number): Errno | null {
    if (!Number.isInteger(mtu) || mtu < 128 || mtu > this.cfg.maxMtu) return 'EINVAL';
    this.cfg = { ...this.cfg, mtu };
    this.onMtuChange(mtu);
    return null;
  }
}
