/**
 * The Xen PV network path's backend: netback in dom0, between a guest's netfront (the `vif` device,
 * the host's device with driver 'vif') and the host's VPC layer. One worker per vif serves both
 * directions in arrival order: guest TX taken from the 256-slot ring in batches of up to 64 requests
 * (the NAPI weight), backpressure through the ring; guest RX waiting in dom0's internal queue (512 KiB,
 * XENVIF_RX_QUEUE_BYTES) and, once that has stopped the vif, in its 32-packet qdisc
 * (XENVIF_QUEUE_LENGTH), dropped there when full, then grant-copied into the guest in batches. An
 * idle worker sleeps: new work wakes it
 * after dom0's vCPU is scheduled again. TCP moves as GSO skbs (netfront's feature-gso-tcpv4): the
 * per-packet costs are per skb. dom0's other work preempts the worker at random (this backend's own
 * seeded streams). All costs are assumed (AWS never published its dom0).
 * In the probe it is the host's network layer stage, which the path view labels dom0.
 *
 * Sources: XEN-NETBACK, XEN-NETFRONT (docs/domain-facts.md §0). The service, the preemptions and
 * what was measured with them: docs/design.md, "Xen's PV path".
 */
import { Fifo } from '../core/fifo';
import { Probe } from '../model/probe';
import type { Rng } from '../core/rng';
import type { Scheduler } from '../core/scheduler';
import type { DropCounters } from '../model/drop-reasons';
import { type Packet, splitBatch } from '../model/packet';
import type { ParamValues } from '../model/params';
import { gsoSegs, SKB_EPSILON, skbsOf } from './qdisc/common';

/** skbs netback copies to the guest per batch (xen-netback rx.c RX_BATCH_SIZE). */
const RX_BATCH = 64;

/** What dom0 holds for the guest, in order: its internal queue, then the vif's qdisc. */
interface RxHeld {
  skbs: number;
  bytes: number;
}

interface Work {
  p: Packet;
  rx: boolean;
}

export class XenNetback {
  private readonly work = new Fifo<Work>(64);
  /** The worker is awake: waking up, or serving. */
  private busy = false;
  /** skbs waiting for the guest, in the internal queue and the qdisc (a TCP GSO batch is a fraction). */
  private rxQueued = 0;
  /**
   * Bytes in netback's internal guest-RX queue (skb->len summed, rx_queue_len); past
   * xenNetbackRxQueueBytes the vif's queue is stopped (xenvif_rx_queue_tail) and what follows waits in
   * the vif's qdisc, up to xenNetbackRxQueuePackets skbs, until a dequeue brings the bytes back under.
   */
  private rxInternalBytes = 0;
  private rxStopped = false;
  /** The qdisc's packets, oldest first, and its skb count. */
  private readonly rxQdisc = new Fifo<RxHeld>(16);
  private rxQdiscSkbs = 0;
  /** Times the sleeping worker was woken, and the batches it copied into the guest (lab-only). */
  wakeups = 0;
  rxBatches = 0;
  txBatches = 0;
  /** Counters (lab-only: dom0's, not the guest's). */
  txPackets = 0;
  rxPackets = 0;
  rxDropped = 0;
  peakRxQueued = 0;
  /** A guest TX packet was copied: free its netfront slot (the host device's TX completion). */
  onTxServed: (p: Packet, count: number) => void = () => {};
  /** A guest TX packet continues to the VPC layer. */
  toVpc: (p: Packet) => void = () => {};
  /** A packet copied into the guest: it lands in the netfront RX ring. */
  toGuest: (p: Packet) => void = () => {};
  probe = new Probe();
  probeHost = -1;

  constructor(
    private readonly sched: Scheduler,
    private readonly hostName: string,
    private readonly params: ParamValues,
    private readonly drops: DropCounters,
    private readonly rng: Rng,
    /** The worker's wake-up delays (its own stream: the preemptions draw as they did without it). */
    private readonly wakeRng: Rng,
  ) {}

  /** A packet the guest posted on its netfront TX ring. */
  fromGuest(p: Packet): void {
    this.probe.sink?.enter(this.sched.now, this.probeHost, 'nitro_egress', 0, p);
    this.work.push({ p, rx: false });
    this.kick();
  }

  /**
   * A packet for the guest, already through the VPC layer (its probe stage, nitro_ingress, was
   * entered there and is left when the packet reaches the guest).
   */
  forGuest(pkt: Packet): void {
    // dom0 received it from the wire and passed it to the vif (NIC softirq, bridge, netback's
    // start_xmit) on the worker's vCPU before knowing whether there is room: a serving worker loses
    // that time, a dropped packet included (receive livelock)
    if (this.serving) this.stolenNs += pkt.count * this.params.xenDom0RxPacketNs;
    // xenvif_start_xmit while the vif's queue runs: into the internal queue, which stops the vif once
    // its bytes pass rx_queue_max (the skb that passes it is queued: the check follows the add)
    let p = pkt;
    if (!this.rxStopped) {
      const room = this.params.xenNetbackRxQueueBytes - this.rxInternalBytes;
      const fits = Math.floor(room / p.sizeBytes) + 1;
      const rest = p.count > fits ? splitBatch(p, fits) : null;
      this.rxInternalBytes += p.count * p.sizeBytes;
      if (this.rxInternalBytes > this.params.xenNetbackRxQueueBytes) this.rxStopped = true;
      this.held(p);
      if (!rest) return;
      p = rest;
    }
    // a stopped vif: the qdisc (pfifo_fast, txqueuelen XENVIF_QUEUE_LENGTH) holds skbs; a TCP batch
    // is the fraction of a GRO'd 64 KB skb it is (dom0's GRO)
    const roomSkbs = this.params.xenNetbackRxQueuePackets - this.rxQdiscSkbs;
    const room = Math.floor(roomSkbs * gsoSegs(p) + SKB_EPSILON);
    if (room <= 0) {
      this.dropRx(p);
      return;
    }
    if (p.count > room) this.dropRx(splitBatch(p, room));
    const k = skbsOf(p);
    this.rxQdiscSkbs += k;
    this.rxQdisc.push({ skbs: k, bytes: p.count * p.sizeBytes });
    this.held(p);
  }

  /** A packet dom0 now holds for the guest (internal queue or qdisc), in arrival order. */
  private held(p: Packet): void {
    this.rxQueued += skbsOf(p);
    if (this.rxQueued > this.peakRxQueued) this.peakRxQueued = this.rxQueued;
    this.work.push({ p, rx: true });
    this.kick();
  }

  /**
   * The worker dequeued `bytes` from the internal queue (xenvif_rx_dequeue): under rx_queue_max it
   * wakes the vif's queue and the qdisc hands over what it holds until the queue stops again.
   */
  private rxDequeued(bytes: number): void {
    // the batch is taken in arrival order: the internal queue first; a batch larger than it (a small
    // queue, or TCP's 64 KB skbs) also takes what the qdisc would have handed over meanwhile
    const internal = Math.min(bytes, this.rxInternalBytes);
    this.rxInternalBytes -= internal;
    let rest = bytes - internal;
    while (rest > 0 && this.rxQdisc.length > 0) {
      const h = this.rxQdisc.peek();
      if (h.bytes <= rest) {
        this.rxQdisc.shift();
        this.rxQdiscSkbs -= h.skbs;
        rest -= h.bytes;
      } else {
        const taken = (h.skbs * rest) / h.bytes;
        h.skbs -= taken;
        h.bytes -= rest;
        this.rxQdiscSkbs -= taken;
        rest = 0;
      }
    }
    if (this.rxQdiscSkbs < SKB_EPSILON) this.rxQdiscSkbs = 0;
    if (this.rxInternalBytes >= this.params.xenNetbackRxQueueBytes) return;
    this.rxStopped = false;
    while (this.rxQdisc.length > 0 && !this.rxStopped) {
      const h = this.rxQdisc.shift();
      this.rxQdiscSkbs = Math.max(0, this.rxQdiscSkbs - h.skbs);
      this.rxInternalBytes += h.bytes;
      if (this.rxInternalBytes > this.params.xenNetbackRxQueueBytes) this.rxStopped = true;
    }
    if (this.rxQdiscSkbs < SKB_EPSILON) this.rxQdiscSkbs = 0;
  }

  /**
   * New work for the worker. A sleeping worker (netback's kthread or NAPI context in dom0, its vCPU
   * idle) runs again only once dom0's vCPU is woken and scheduled by Xen: xenDom0WakeNs plus an
   * exponential part of mean xenDom0WakeSpreadNs. What arrives meanwhile joins the first batch.
   */
  private kick(): void {
    if (this.busy) return;
    this.busy = true;
    this.wakeups++;
    const fixed = this.params.xenDom0WakeNs;
    const spread = this.params.xenDom0WakeSpreadNs;
    const delay = Math.round(fixed + (spread > 0 ? this.wakeRng.exp(spread) : 0));
    if (delay <= 0) this.serveNext();
    else this.sched.after(delay, this.wokenFn, undefined);
  }

  private readonly wokenFn = () => this.serveNext();

  /** Packets waiting for the worker, each way (for the inspectors). */
  backlog(): { tx: number; rx: number } {
    let tx = 0;
    for (let i = 0; i < this.work.length; i++) {
      const w = this.work.at(i);
      if (!w.rx) tx += w.p.count;
    }
    return { tx, rx: Math.round(this.rxQueued * 1000) / 1000 };
  }

  /** dom0's hold for the guest: internal-queue bytes, whether the vif is stopped, qdisc skbs. */
  rxHold(): { internalBytes: number; stopped: boolean; qdiscSkbs: number } {
    return {
      internalBytes: this.rxInternalBytes,
      stopped: this.rxStopped,
      qdiscSkbs: Math.round(this.rxQdiscSkbs * 1000) / 1000,
    };
  }

  private dropRx(p: Packet): void {
    const n = p.count;
    this.rxDropped += n;
    this.drops.add(this.hostName, 'nitro_ingress', 'xen_backend_queue_full', n, n * p.sizeBytes, p.flow.id);
    this.probe.sink?.drop(
      this.sched.now,
      this.probeHost,
      'nitro_ingress',
      0,
      p,
      n,
      'xen_backend_queue_full',
      true,
    );
  }

  /** When the next preemption of the worker begins (drawn lazily), and how long it lasts. */
  private preemptAtNs = -1;
  private preemptLenNs = 0;

  private drawPreemption(afterNs: number): void {
    const gap = this.params.xenDom0PreemptGapNs;
    const len = this.params.xenDom0PreemptNs;
    if (!(gap > 0 && len > 0)) {
      this.preemptAtNs = Number.POSITIVE_INFINITY;
      return;
    }
    this.preemptAtNs = afterNs + Math.round(this.rng.exp(gap));
    this.preemptLenNs = Math.round(this.rng.exp(len));
  }

  /** When a service of `costNs` starting now ends, counting the outages it meets. */
  private serviceEnd(costNs: number): number {
    const now = this.sched.now;
    if (this.preemptAtNs < 0) this.drawPreemption(0);
    // outages that began while the worker was idle: one still under way delays the start
    let start = now;
    while (this.preemptAtNs <= start) {
      const endOut = this.preemptAtNs + this.preemptLenNs;
      if (endOut > start) start = endOut;
      this.drawPreemption(endOut);
    }
    let end = start + costNs;
    while (this.preemptAtNs < end) {
      end += this.preemptLenNs;
      this.drawPreemption(this.preemptAtNs + this.preemptLenNs);
    }
    return end;
  }

  private serveNext(): void {
    if (this.work.length === 0) {
      this.busy = false;
      return;
    }
    this.busy = true;
    const head = this.work.peek();
    let cost = 0;
    if (head.rx) {
      // guest RX: take what dom0 holds for the guest, up to one batch of skbs (xen-netback rx.c
      // RX_BATCH_SIZE 64), grant-copy it with one hypercall and notify the guest once at the end
      // (xenNetbackRxBatchNs); a TCP batch pays the per-skb cost for the fraction of a GRO'd skb it is
      let skbs = 0;
      let bytes = 0;
      cost = this.params.xenNetbackRxBatchNs;
      while (this.work.length > 0 && this.work.peek().rx && skbs < RX_BATCH - SKB_EPSILON) {
        const w = this.work.peek();
        const fits = Math.max(1, Math.floor((RX_BATCH - skbs) * gsoSegs(w.p) + SKB_EPSILON));
        if (w.p.count > fits) this.work.replaceHead({ p: splitBatch(w.p, fits), rx: true });
        else this.work.shift();
        const k = skbsOf(w.p);
        skbs += k;
        bytes += w.p.count * w.p.sizeBytes;
        cost +=
          k * this.params.xenNetbackRxPacketNs + w.p.count * w.p.sizeBytes * this.params.xenNetbackRxByteNs;
        this.inService.push(w.p);
      }
      this.rxQueued = Math.max(0, this.rxQueued - skbs);
      if (this.rxQueued < SKB_EPSILON) this.rxQueued = 0;
      this.rxDequeued(bytes);
      this.rxBatches++;
    } else {
      // guest TX: netback's NAPI poll takes up to its weight of requests from the ring
      // (xenvif_tx_action, budget XENVIF_NAPI_WEIGHT: a GSO skb of TCP data, up to 64 KB of segments,
      // is one request), copies and maps them with one batched hypercall (xenNetbackTxBatchNs) and
      // then hands them to dom0's stack together, in order
      const max = Math.max(1, Math.round(this.params.xenNetbackTxBatch));
      let reqs = 0;
      cost = this.params.xenNetbackTxBatchNs;
      while (this.work.length > 0 && !this.work.peek().rx && reqs < max - SKB_EPSILON) {
        const w = this.work.peek();
        const fits = Math.max(1, Math.floor((max - reqs) * gsoSegs(w.p) + SKB_EPSILON));
        if (w.p.count > fits) this.work.replaceHead({ p: splitBatch(w.p, fits), rx: false });
        else this.work.shift();
        const k = skbsOf(w.p);
        reqs += k;
        cost +=
          k * this.params.xenNetbackTxPacketNs + w.p.count * w.p.sizeBytes * this.params.xenNetbackTxByteNs;
        this.inService.push(w.p);
      }
      this.txBatches++;
      this.inServiceRx = false;
    }
    if (head.rx) this.inServiceRx = true;
    this.serving = true;
    this.sched.at(Math.max(this.sched.now + 1, this.serviceEnd(Math.round(cost))), this.servedFn, undefined);
  }

  /** The packets the worker is copying now, and their direction. */
  private readonly inService: Packet[] = [];
  private inServiceRx = false;

  /** The worker is copying (not waking up): dom0's RX softirq takes its time from it. */
  private serving = false;
  /** dom0 time taken from the service under way (its end moves later by as much). */
  private stolenNs = 0;

  private readonly servedFn = () => {
    if (this.stolenNs > 0) {
      const d = Math.max(1, Math.round(this.stolenNs));
      this.stolenNs = 0;
      this.sched.at(this.serviceEnd(d), this.servedFn, undefined);
      return;
    }
    this.serving = false;
    const sink = this.probe.sink;
    for (const p of this.inService) {
      if (this.inServiceRx) {
        this.rxPackets += p.count;
        sink?.leave(this.sched.now, this.probeHost, 'nitro_ingress', 0, p, -1);
        this.toGuest(p);
      } else {
        this.txPackets += p.count;
        this.onTxServed(p, p.count);
        this.toVpc(p);
      }
    }
    this.inService.length = 0;
    this.serveNext();
  };
}
