/**
 * One simulated EC2 instance's operating system: vCPUs, the ENA device `eth0`, its qdisc tree,
 * and the sockets of the applications running on it.
 *
 * Transmit path (dev_queue_xmit): the socket's send cost runs on the current vCPU; the batch is
 * then given a TX queue (skb_tx_hash: reciprocal_scale(skb hash, queues) — ENA sets no XPS and no
 * ndo_select_queue), enqueued on the qdisc tree, and the queue is run: packets are dequeued while
 * their TX ring has room (__qdisc_run). A throttled qdisc is retried when its watchdog fires; a
 * stopped ring is retried when the driver wakes it.
 * Receive path: NAPI deliveries from the device go to the socket registered for the flow
 * (TCP data/ACK, UDP datagram); SYNs go to the listener on the destination port.
 */
import { Probe, type ProbeSink } from '../model/probe';
import type { Scheduler } from '../core/scheduler';
import { Timer } from '../core/scheduler';
import type { DropCounters } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import { splitBatch, TCP_FLAG_ACK, TCP_FLAG_FIN, TCP_FLAG_SYN } from '../model/packet';
import type { ParamValues } from '../model/params';
import type { Vcpu } from './cpu';
import type { EnaDevice, RxDelivery } from './ena-device';
import { fragment, type IpFragMib, Reassembly } from './ip-fragment';
import type { QdiscManager } from './qdisc/tree';
import type { QdiscContext } from './qdisc/types';
import type { TcpEndpoint } from './tcp/endpoint';
import type { TunnelStack } from './tunnel';
import type { UdpMib, UdpSocket } from './udp';

/**
 * What receives a flow's packets: a TCP endpoint, a UDP socket, or a raw handler (ICMP: the kernel's
 * echo responder on the target, the ping socket on the sender).
 */
export type SocketHandler =
  | { kind: 'tcp'; ep: TcpEndpoint }
  | { kind: 'udp'; sock: UdpSocket }
  | { kind: 'raw'; deliver: (p: Packet) => void };

/**
 * One network interface of the host: an ENA device (eth0, or eth1… of an attached secondary ENI)
 * with its own qdisc tree and qdisc watchdog.
 */
export interface HostIface {
  readonly dev: EnaDevice;
  readonly qdisc: QdiscManager;
  readonly watchdog: Timer;
}

export class Host {
  /** The vCPU whose context is running now (softirq or a thread), for charging send costs. */
  ctxVcpu: Vcpu | null = null;
  /**
   * The host's ENA interfaces by device index (eth0 = 0; eth1… of attached secondary ENIs; a hole
   * where one was detached).
   */
  readonly ifaces: (HostIface | undefined)[] = [];
  /**
   * The interface a locally sent packet leaves by, by its source address (amazon-ec2-net-utils'
   * per-ENI policy routing: `from <ENI address> lookup <ENI table>`, whose default route is that
   * ENI's); an address not listed leaves by eth0 (the main table's default route).
   */
  private readonly ifaceBySrc = new Map<string, number>();
  private multiIface = false;
  /** The device index each flow's last batch was fetched by (the card completes its TX there; set by the lab). */
  readonly txDevByFlow: number[] = [];
  /** The device index each flow arrives on here (the fabric notes the interface it delivers to). */
  readonly rxDevByFlow: number[] = [];
  /** The host's own addresses (every interface's, primary and secondary). */
  private readonly localAddrs = new Set<string>();
  /** net.ipv4.ip_forward (sysctl): forward packets for other addresses instead of dropping them. */
  ipForward = false;
  /** Packets forwarded (/proc/net/snmp Ip: ForwDatagrams) and those for another host dropped (InAddrErrors). */
  readonly ipMib = { forwDatagrams: 0, inAddrErrors: 0 };
  /** Socket handlers by flow id (ids are small run-unique integers: arrays, not maps, on the hot path). */
  private readonly rxBySrcFlow: (SocketHandler | undefined)[] = [];
  private readonly txByFlow: (SocketHandler | undefined)[] = [];
  private readonly listeners = new Map<string, (p: Packet) => void>();
  private readonly pacing = new Map<number, TcpEndpoint>();
  /** UDP datagrams to closed ports (UDP NoPorts), TCP resets not modelled. */
  noPorts = 0;
  /** The host's UDP MIB (/proc/net/snmp Udp:), summed over its sockets as they count (sar -n UDP). */
  readonly udpMib: UdpMib = { inDatagrams: 0, outDatagrams: 0, rcvbufErrors: 0 };
  nextEphemeralPort = 45_000;
  /** Stage observations (the lab sets its probe and this host's index in lab order). */
  probe = new Probe();
  probeHost = -1;
  /** IPv4 fragmentation counters (/proc/net/snmp Ip: Frag*, Reasm*). */
  readonly ipFragMib: IpFragMib = { reasmReqds: 0, reasmOks: 0, reasmFails: 0, fragOks: 0, fragCreates: 0 };
  /** ip_defrag: fragments held until their datagram is complete. */
  readonly reassembly: Reassembly;
  /** Tunnel devices (`ip link add … type gre|vxlan …`); null until the first one is created. */
  tunnels: TunnelStack | null = null;
  /**
   * Nesting depth of qdisc operations (enqueue, the dequeue loop). A qdisc drop frees its skb while
   * the qdisc is mid-operation; Linux's tcp_wfree does not send from there but queues the socket for
   * the TSQ tasklet (and the qdisc runs under its root lock), so the freed skbs' TCP Small Queues
   * release waits in `deferredReleases` until the outermost operation is done. Sending at once
   * re-entered fq_codel's DRR lists mid-dequeue and left flows in no list, never sent again.
   */
  private qdiscDepth = 0;
  private readonly deferredReleases: Array<{ p: Packet; count: number }> = [];

  constructor(
    private readonly sched: Scheduler,
    readonly name: string,
    readonly ip: string,
    readonly vcpus: Vcpu[],
    readonly eth0: EnaDevice,
    private readonly params: ParamValues,
    private readonly drops: DropCounters,
    makeQdiscTree: (ctx: QdiscContext) => QdiscManager,
  ) {
    this.makeQdiscTree = makeQdiscTree;
    this.attachIface(0, eth0);
    this.reassembly = new Reassembly(sched, this.ipFragMib, (p, n) => {
      this.drops.add(this.name, 'socket', 'ip_reassembly_failed', n, n * p.sizeBytes, p.flow.id);
      this.probe.sink?.drop(
        this.sched.now,
        this.probeHost,
        'socket_rx',
        0,
        p,
        n,
        'ip_reassembly_failed',
        false,
      );
    });
  }

  private readonly makeQdiscTree: (ctx: QdiscContext) => QdiscManager;

  /** eth0's qdisc tree. */
  get qdisc(): QdiscManager {
    return this.ifaces[0]!.qdisc;
  }

  /**
   * Attach an ENA device as the interface of device index `index` (eth0 at construction; eth1… when
   * a secondary ENI is attached): its own qdisc tree (the scenario's default qdisc), watchdog and
   * callbacks; received packets go to the same stack.
   */
  attachIface(index: number, dev: EnaDevice): void {
    let ifc: HostIface | undefined;
    const watchdog = new Timer(this.sched, () => this.runAllQueues(ifc!));
    const ctx: QdiscContext = {
      mtu: () => dev.mtu,
      txQueueLen: () => 1000,
      numTxQueues: () => dev.queueCount,
      drop: (p, count, reason) => {
        this.drops.add(this.name, 'qdisc', reason, count, count * p.sizeBytes, p.flow.id);
        this.probe.sink?.drop(
          this.sched.now,
          this.probeHost,
          'qdisc',
          qdiscQueueOf(ifc!.qdisc, p),
          p,
          count,
          reason,
          true,
        );
        // the skb is freed: release its TCP Small Queues / wmem charge (after the qdisc operation)
        if (this.qdiscDepth > 0) this.deferredReleases.push({ p, count });
        else this.releaseTx(p, count);
      },
      socketPacingRateBytesPerSec: (socketId) =>
        this.pacing.get(socketId)?.pacingRateBytesPerSec() ?? Number.POSITIVE_INFINITY,
    };
    const qdisc = this.makeQdiscTree(ctx);
    ifc = { dev, qdisc, watchdog };
    this.ifaces[index] = ifc;
    const me = ifc;
    dev.onTxRoom = (q) => (qdisc.rootIsMq ? this.runQueue(q, me) : this.runAllQueues(me));
    dev.onTxComplete = (p, count) => this.releaseTx(p, count);
    dev.onRx = (d, vcpu) => this.receive(d, vcpu);
    dev.qdiscKind = () => qdisc.rootKind;
    this.multiIface = this.ifaces.length > 1;
  }

  /** Detach the interface of device index `index` (not eth0): its queued packets are freed. */
  detachIface(index: number): void {
    const ifc = this.ifaces[index];
    if (index === 0 || ifc === undefined) return;
    ifc.watchdog.stop();
    this.ifaces[index] = undefined;
    while (this.ifaces.length > 1 && this.ifaces[this.ifaces.length - 1] === undefined) this.ifaces.length--;
    for (const [ip, i] of this.ifaceBySrc) if (i === index) this.ifaceBySrc.delete(ip);
    this.multiIface = this.ifaces.length > 1;
  }

  addLocalAddress(ip: string): void {
    this.localAddrs.add(ip);
  }

  removeLocalAddress(ip: string): void {
    this.localAddrs.delete(ip);
  }

  /**
   * ip_forward: a packet for another host, received on `vcpu` (the RX queue's, in NAPI), goes out
   * again: routing, the forward path and dev_queue_xmit cost MODEL_PARAMS.hostForwardPacketNs per
   * packet on that vCPU (assumed), then the qdisc and a TX queue as a locally sent packet. It
   * leaves by eth0: the main table's default route (amazon-ec2-net-utils keeps a secondary ENI's
   * routes in its own table, which only packets from that ENI's addresses look up).
   */
  private forward(p: Packet, vcpu: Vcpu): void {
    this.ipMib.forwDatagrams += p.count;
    vcpu.charge(p.count * this.params.hostForwardPacketNs);
    p.txq = -1;
    this.enqueueOne(p, this.ifaces[0]!);
  }

  /** Packets sent from `ip` leave by interface `index` (the ENI's policy rule); undefined: remove the rule. */
  setSourceIface(ip: string, index: number | undefined): void {
    if (index === undefined || index === 0) this.ifaceBySrc.delete(ip);
    else this.ifaceBySrc.set(ip, index);
  }

  /** The interface a packet leaves by: its source address's ENI, else eth0. */
  private ifaceOf(p: Packet): HostIface {
    if (!this.multiIface) return this.ifaces[0]!;
    const i = this.ifaceBySrc.get(p.flow.tuple.srcIp);
    return (i !== undefined ? this.ifaces[i] : undefined) ?? this.ifaces[0]!;
  }

  /**
   * A sent batch's skbs are freed (TX completion or a qdisc drop): release the socket's TCP Small
   * Queues / wmem charge. A datagram sent as fragments is charged once, as the datagram: it is
   * released with its last fragment (the full-size ones release nothing).
   */
  private releaseTx(p: Packet, count: number): void {
    const h = this.txByFlow[(p.inner ?? p.flow).id];
    if (!h) return;
    if (h.kind === 'tcp') h.ep.txCompleted(p, count);
    else if (h.kind === 'udp') {
      const f = p.frag;
      if (f == null) h.sock.txCompleted(p, count);
      else if (f.last) h.sock.txCompleted({ ...p, payloadBytes: f.datagramPayloadBytes }, count);
    }
  }

  allocPort(): number {
    return this.nextEphemeralPort++;
  }

  // ------------------------------------------------------------------ registration

  registerTx(flowId: number, h: SocketHandler): void {
    this.txByFlow[flowId] = h;
    this.attachProbe(h);
    if (h.kind === 'tcp') this.pacing.set(h.ep.flow.socketId, h.ep);
  }

  /** Packets of the peer's flow `srcFlowId` arriving here go to `h`. */
  registerRx(srcFlowId: number, h: SocketHandler): void {
    this.rxBySrcFlow[srcFlowId] = h;
    this.attachProbe(h);
  }

  /** Sockets report their receive buffer (socket_rx) to this host's probe. */
  private attachProbe(h: SocketHandler): void {
    if (h.kind === 'raw') return; // no socket buffer (ICMP echo, a listener's accept)
    const s = h.kind === 'tcp' ? h.ep : h.sock;
    s.stageProbe = this.probe;
    s.probeHost = this.probeHost;
    if (h.kind === 'udp') h.sock.mib = this.udpMib;
  }

  unregister(flowIds: number[]): void {
    for (const id of flowIds) {
      const tx = this.txByFlow[id];
      if (tx?.kind === 'tcp' && this.pacing.get(tx.ep.flow.socketId) === tx.ep)
        this.pacing.delete(tx.ep.flow.socketId);
      this.rxBySrcFlow[id] = undefined;
      this.txByFlow[id] = undefined;
    }
  }

  listen(proto: 'tcp' | 'udp', port: number, onSyn: (p: Packet) => void): void {
    this.listeners.set(`${proto}:${port}`, onSyn);
  }

  unlisten(proto: 'tcp' | 'udp', port: number): void {
    this.listeners.delete(`${proto}:${port}`);
  }

  isListening(proto: 'tcp' | 'udp', port: number): boolean {
    return this.listeners.has(`${proto}:${port}`);
  }

  // ------------------------------------------------------------------ transmit

  /** Send a batch from a socket: charge the send-path CPU cost, then enqueue it on the qdisc. */
  transmit(p: Packet, vcpu: Vcpu): void {
    const segs = p.count;
    const bytes = segs * p.payloadBytes;
    // Data leaves in GSO skbs of up to gso_max_size whatever our batching: charge the fraction of skbs
    // this batch is, so per-packet and batched runs cost the same CPU. Pure ACKs are one skb each.
    const skbs = bytes > 0 ? bytes / this.params.gsoMaxBytes : segs;
    const cost = skbs * this.params.hostStackSkbNs + segs * this.params.hostTxSegmentNs;
    // The packet is queued once the vCPU has done the work; if the vCPU is free that is "now" plus
    // the cost, which we fold into the vCPU's busy time rather than an extra event.
    vcpu.charge(cost);
    if (this.tunnels !== null) this.tunnels.encap(p); // through a tunnel device: outer headers
    this.enqueue(p);
  }

  /**
   * dev_queue_xmit: pick the TX queue, enqueue, run the queue. The socket's send buffer holds bytes,
   * not packets, in this model (a batch exists from the moment the socket sends it), so the probe's
   * socket_tx stage is passed through here: entered and left at the instant the batch goes down.
   */
  enqueue(p: Packet): void {
    const ifc = this.ifaceOf(p);
    const mtu = ifc.dev.mtu;
    // ip_fragment (before the device): a datagram over the device MTU is cut into fragments (UDP and
    // ping sockets fragment locally by default, IP_PMTUDISC_WANT; TCP segments always fit the MSS)
    if (p.sizeBytes > mtu && p.frag == null && (p.inner ?? p.flow).tuple.proto !== 'tcp')
      this.enqueueFragments(p, ifc, mtu);
    else this.enqueueOne(p, ifc);
  }

  /** ip_fragment, then each fragment to the qdisc (kept out of `enqueue`, so V8 inlines that). */
  private enqueueFragments(p: Packet, ifc: HostIface, mtu: number): void {
    const frags = fragment(p, mtu);
    let n = 0;
    for (const f of frags) n += f.count;
    this.ipFragMib.fragOks += p.count;
    this.ipFragMib.fragCreates += n;
    // one more skb to build per extra fragment, on the sending context's vCPU
    this.ctxVcpu?.charge((n - p.count) * this.params.hostTxSegmentNs);
    for (const f of frags) this.enqueueOne(f, ifc);
  }

  private enqueueOne(p: Packet, ifc: HostIface): void {
    const qdisc = ifc.qdisc;
    const n = ifc.dev.queueCount;
    p.txq = Math.floor(((p.flow.skbHash >>> 0) * n) / 4294967296);
    p.enqueuedAtNs = this.sched.now;
    const sink = this.probe.sink;
    if (sink !== null) this.probeEnqueue(sink, p, qdisc);
    // enqueue and __qdisc_run under one root lock (one level of qdiscDepth)
    this.qdiscDepth++;
    try {
      qdisc.enqueue(p, this.sched.now);
      if (qdisc.rootIsMq) this.runQueueLocked(p.txq, ifc);
      else for (let q = 0; q < ifc.dev.queueCount; q++) this.runQueueLocked(q, ifc);
    } finally {
      this.qdiscDepth--;
    }
    if (this.deferredReleases.length > 0) this.releaseDeferred();
  }

  /** The probe's view of a batch going down: socket_tx passed through, the qdisc entered. */
  private probeEnqueue(sink: ProbeSink, p: Packet, qdisc: QdiscManager): void {
    const now = this.sched.now;
    sink.enter(now, this.probeHost, 'socket_tx', 0, p);
    sink.leave(now, this.probeHost, 'socket_tx', 0, p, this.ctxVcpu?.index ?? -1);
    sink.enter(now, this.probeHost, 'qdisc', qdiscQueueOf(qdisc, p), p);
  }

  private releasing = false;

  /** The TSQ tasklet's turn: release the skbs qdisc drops freed during the last qdisc operation. */
  private releaseDeferred(): void {
    if (this.qdiscDepth > 0 || this.releasing || this.deferredReleases.length === 0) return;
    this.releasing = true;
    const d = this.deferredReleases;
    try {
      // a release may send, enqueue and drop again: those join the end of the list
      for (let i = 0; i < d.length; i++) this.releaseTx(d[i]!.p, d[i]!.count);
    } finally {
      d.length = 0;
      this.releasing = false;
    }
  }

  private runAllQueues(ifc: HostIface): void {
    for (let q = 0; q < ifc.dev.queueCount; q++) this.runQueue(q, ifc);
  }

  /** __qdisc_run for TX queue q of an interface (eth0 by default). */
  runQueue(q: number, ifc: HostIface = this.ifaces[0]!): void {
    this.qdiscDepth++;
    try {
      this.runQueueLocked(q, ifc);
    } finally {
      this.qdiscDepth--;
    }
    if (this.deferredReleases.length > 0) this.releaseDeferred();
  }

  private runQueueLocked(q: number, ifc: HostIface): void {
    const now = this.sched.now;
    const qdisc = ifc.qdisc;
    const eth0 = ifc.dev;
    const mq = qdisc.rootIsMq;
    for (let guard = 0; guard < 100_000; guard++) {
      if (mq && eth0.txRoom(q) <= 0) return;
      const p = qdisc.dequeue(q, now);
      if (!p) {
        const wake = qdisc.nextWakeNs(now);
        if (Number.isFinite(wake)) ifc.watchdog.armNoLaterThan(wake);
        return;
      }
      const target = p.txq >= 0 && p.txq < eth0.queueCount ? p.txq : q;
      const room = eth0.txRoom(target);
      if (room <= 0) {
        qdisc.requeue(p);
        return;
      }
      if (p.count > room) {
        const rest = splitBatch(p, room);
        qdisc.requeue(rest);
      }
      this.probe.sink?.leave(now, this.probeHost, 'qdisc', mq ? p.txq : 0, p, this.ctxVcpu?.index ?? -1);
      eth0.xmit(target, p);
    }
  }

  // ------------------------------------------------------------------ receive

  private receive(d: RxDelivery, vcpu: Vcpu): void {
    const prev = this.ctxVcpu;
    this.ctxVcpu = vcpu;
    try {
      const n = d.n;
      for (let i = 0; i < n; i++) {
        let p = d.at(i);
        if (p.frag != null) {
          // ip_defrag: hold the fragment until its datagram is whole
          const whole = this.reassembly.add(p, this.sched.now);
          if (whole === null) continue;
          p = whole;
        }
        const tunnelled = p.inner != null;
        if (tunnelled && (this.tunnels === null || !this.tunnels.decap(p))) {
          this.drops.add(this.name, 'socket', 'no_listener', p.count, p.count * p.sizeBytes, p.flow.id);
          continue; // no tunnel here takes it (the kernel answers ICMP unreachable; not modelled)
        }
        let h = this.rxBySrcFlow[p.flow.id];
        if (!h && !tunnelled && !this.localAddrs.has(p.flow.tuple.dstIp)) {
          // not for this host (its card's source/destination check is off): forwarded or dropped
          if (this.ipForward) this.forward(p, vcpu);
          else {
            this.ipMib.inAddrErrors += p.count;
            this.drops.add(this.name, 'socket', 'no_listener', p.count, p.count * p.sizeBytes, p.flow.id);
          }
          continue;
        }
        if (!h) {
          const l = this.listeners.get(`${p.flow.tuple.proto}:${p.flow.tuple.dstPort}`);
          if (l && (p.flow.tuple.proto === 'udp' || p.flags & TCP_FLAG_SYN)) {
            l(p);
            h = this.rxBySrcFlow[p.flow.id];
          }
          if (!h) {
            this.noPorts += p.count;
            this.drops.add(this.name, 'socket', 'no_listener', p.count, p.count * p.sizeBytes, p.flow.id);
            this.probe.sink?.drop(
              this.sched.now,
              this.probeHost,
              'socket_rx',
              0,
              p,
              p.count,
              'no_listener',
              false,
            );
            continue;
          }
        }
        this.dispatch(h, p, d, i === n - 1);
      }
    } finally {
      this.ctxVcpu = prev;
    }
  }

  /** `last`: the final batch of a GRO delivery (TCP takes its ACK decision then). */
  private dispatch(h: SocketHandler, p: Packet, d: RxDelivery, last: boolean): void {
    if (h.kind === 'tcp') {
      const syn = (p.flags & TCP_FLAG_SYN) !== 0;
      const ack = (p.flags & TCP_FLAG_ACK) !== 0;
      if (syn && ack) {
        h.ep.onAck(p); // SYN-ACK: the connecting side becomes established
      } else if (syn || p.payloadBytes > 0) {
        h.ep.onData(p, d.skbs, last);
        if (ack && p.payloadBytes > 0 && h.ep.sndNxt > h.ep.sndUna) h.ep.onAck(p);
      } else {
        h.ep.onAck(p);
        if (p.flags & TCP_FLAG_FIN) h.ep.onFin(p); // FIN segments carry no data here
      }
    } else if (h.kind === 'raw') {
      h.deliver(p);
    } else {
      // the socket reports socket_rx itself (the application may read in the same call)
      const dropped = h.sock.deliver(p, splitBatch, this.sched.now);
      if (dropped > 0)
        this.drops.add(this.name, 'socket', 'socket_rcvbuf_full', dropped, dropped * p.sizeBytes, p.flow.id);
    }
  }
}

/** The probe's queue for a qdisc packet: the mq child (TX queue) it sits in, else 0 (one root). */
function qdiscQueueOf(qdisc: QdiscManager, p: Packet): number {
  return qdisc.rootIsMq && p.txq >= 0 ? p.txq : 0;
}
