/**
 * The Xen PV network path's backend: netback in dom0, between a guest's netfront (the `vif` device,
 * the host's device with driver 'vif') and the host's VPC layer. One worker per vif serves both
 * directions in arrival order: guest TX copied one packet at a time, backpressure through the
 * 256-slot ring; guest RX waiting in dom0's 32-packet queue (XENVIF_QUEUE_LENGTH), dropped there
 * when full, then grant-copied into the guest in batches. An idle worker sleeps: new work wakes it
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

interface Work {
  p: Packet;
  rx: boolean;
}

export class XenNetback {
  private readonly work = new Fifo<Work>(64);
  /** The worker is awake: waking up, or serving. */
  private busy = false;
  /** skbs waiting for the guest (bounded by xenNetbackRxQueuePackets; a TCP GSO batch is a fraction). */
  private rxQueued = 0;
  /** Times the sleeping worker was woken, and the batches it copied into the guest (lab-only). */
  wakeups = 0;
  rxBatches = 0;
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
  forGuest(p: Packet): void {
    // dom0 received it from the wire and passed it to the vif (NIC softirq, bridge, netback's
    // start_xmit) on the worker's vCPU before knowing whether there is room: a serving worker loses
    // that time, a dropped packet included (receive livelock)
    if (this.serving) this.stolenNs += p.count * this.params.xenDom0RxPacketNs;
    // the queue holds skbs: a TCP batch is the fraction of a GRO'd 64 KB skb it is (dom0's GRO)
    const roomSkbs = this.params.xenNetbackRxQueuePackets - this.rxQueued;
    const room = Math.floor(roomSkbs * gsoSegs(p) + SKB_EPSILON);
    if (room <= 0) {
      this.dropRx(p);
      return;
    }
    if (p.count > room) this.dropRx(splitBatch(p, room));
    this.rxQueued += skbsOf(p);
    if (this.rxQueued > this.peakRxQueued) this.peakRxQueued = this.rxQueued;
    this.work.push({ p, rx: true });
    this.kick();
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
      cost = this.params.xenNetbackRxBatchNs;
      while (this.work.length > 0 && this.work.peek().rx && skbs < RX_BATCH - SKB_EPSILON) {
        const w = this.work.peek();
        const fits = Math.max(1, Math.floor((RX_BATCH - skbs) * gsoSegs(w.p) + SKB_EPSILON));
        if (w.p.count > fits) this.work.replaceHead({ p: splitBatch(w.p, fits), rx: true });
        else this.work.shift();
        const k = skbsOf(w.p);
        skbs += k;
        cost +=
          k * this.params.xenNetbackRxPacketNs + w.p.count * w.p.sizeBytes * this.params.xenNetbackRxByteNs;
        this.inService.push(w.p);
      }
      this.rxQueued = Math.max(0, this.rxQueued - skbs);
      if (this.rxQueued < SKB_EPSILON) this.rxQueued = 0;
      this.rxBatches++;
    } else {
      // guest TX: one request at a time (a GSO skb of TCP data: up to 64 KB of segments, one
      // netfront request), each released to dom0's stack when copied
      const w = this.work.peek();
      const segs = gsoSegs(w.p);
      if (w.p.count > segs) this.work.replaceHead({ p: splitBatch(w.p, segs), rx: false });
      else this.work.shift();
      cost =
        skbsOf(w.p) * this.params.xenNetbackTxPacketNs +
        w.p.count * w.p.sizeBytes * this.params.xenNetbackTxByteNs;
      this.inService.push(w.p);
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
