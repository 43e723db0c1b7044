/**
 * UDP sockets. The sender's sendmsg cost runs on its application thread's vCPU; datagrams then go
 * through the qdisc and TX ring. Like Linux, a sender blocks when the bytes it has handed down and
 * not yet seen TX-completed reach its send buffer (sk_wmem_alloc vs SO_SNDBUF). The receiver queues
 * datagrams up to its receive buffer (drops beyond: UDP RcvbufErrors) for the application to read.
 */
import { Probe } from '../model/probe';
import { IPV4_HEADER_BYTES, type Flow, type Packet, UDP_HEADER_BYTES } from '../model/packet';

export const UDP_IP_OVERHEAD = IPV4_HEADER_BYTES + UDP_HEADER_BYTES;

/** Host-wide UDP counters (/proc/net/snmp Udp: InDatagrams, OutDatagrams, RcvbufErrors). */
export interface UdpMib {
  inDatagrams: number;
  outDatagrams: number;
  rcvbufErrors: number;
}

export class UdpSocket {
  /** The host's UDP MIB this socket also counts into (set when the host registers it). */
  mib: UdpMib | null = null;
  /** Bytes handed to the qdisc and not yet TX-completed. */
  wmemBytes = 0;
  sndbufBytes: number;
  rcvbufBytes: number;
  /** Received datagram batches not yet read. */
  rxQueue: Packet[] = [];
  rxQueuedBytes = 0;
  rcvbufErrors = 0;
  inDatagrams = 0;
  outDatagrams = 0;
  onWritable: (() => void) | null = null;
  onReadable: (() => void) | null = null;
  /** The receive buffer is the probe's socket_rx stage (set by the host that registers the socket). */
  stageProbe = new Probe();
  probeHost = -1;

  /** Per-datagram skb overhead charged against SO_SNDBUF / SO_RCVBUF (MODEL_PARAMS, assumed). */
  private readonly txOverhead: number;
  private readonly rxOverhead: number;

  constructor(
    readonly flow: Flow,
    opts: {
      sndbufBytes: number;
      rcvbufBytes: number;
      txSkbOverheadBytes: number;
      rxSkbOverheadBytes: number;
    },
  ) {
    this.sndbufBytes = opts.sndbufBytes;
    this.rcvbufBytes = opts.rcvbufBytes;
    this.txOverhead = UDP_IP_OVERHEAD + opts.txSkbOverheadBytes;
    this.rxOverhead = opts.rxSkbOverheadBytes;
  }

  /** How many datagrams of `len` payload bytes may be handed down now without blocking. */
  sendable(len: number): number {
    const truesize = len + this.txOverhead;
    return Math.max(0, Math.floor((this.sndbufBytes - this.wmemBytes) / truesize));
  }

  charge(count: number, len: number): void {
    this.wmemBytes += count * (len + this.txOverhead);
    this.outDatagrams += count;
    if (this.mib) this.mib.outDatagrams += count;
  }

  txCompleted(p: Packet, count: number): void {
    const was = this.wmemBytes;
    this.wmemBytes -= count * (p.payloadBytes + this.txOverhead);
    if (this.wmemBytes < 0) this.wmemBytes = 0;
    if (was >= this.sndbufBytes / 2 && this.wmemBytes < this.sndbufBytes / 2) this.onWritable?.();
  }

  /** Deliver a received batch; returns how many datagrams were dropped for lack of buffer. */
  deliver(p: Packet, split: (p: Packet, keep: number) => Packet, nowNs: number): number {
    const truesize = p.payloadBytes + this.rxOverhead;
    const room = Math.floor((this.rcvbufBytes - this.rxQueuedBytes) / truesize);
    const sink = this.stageProbe.sink;
    if (room <= 0) {
      this.rcvbufErrors += p.count;
      if (this.mib) this.mib.rcvbufErrors += p.count;
      sink?.drop(nowNs, this.probeHost, 'socket_rx', 0, p, p.count, 'socket_rcvbuf_full', false);
      return p.count;
    }
    let dropped = 0;
    if (p.count > room) {
      const rest = split(p, room);
      dropped = rest.count;
      this.rcvbufErrors += dropped;
      if (this.mib) this.mib.rcvbufErrors += dropped;
      sink?.drop(nowNs, this.probeHost, 'socket_rx', 0, rest, dropped, 'socket_rcvbuf_full', false);
    }
    sink?.enter(nowNs, this.probeHost, 'socket_rx', 0, p);
    this.rxQueue.push(p);
    this.rxQueuedBytes += p.count * truesize;
    this.inDatagrams += p.count;
    if (this.mib) this.mib.inDatagrams += p.count;
    this.onReadable?.();
    return dropped;
  }

  /** Take up to `max` datagrams from the receive queue (splitting a batch if needed). */
  take(max: number, split: (p: Packet, keep: number) => Packet, nowNs: number, cpu = -1): Packet[] {
    const out = this.takeBatches(max, split);
    const sink = this.stageProbe.sink;
    if (sink !== null) for (const p of out) sink.leave(nowNs, this.probeHost, 'socket_rx', 0, p, cpu);
    return out;
  }

  private takeBatches(max: number, split: (p: Packet, keep: number) => Packet): Packet[] {
    const out: Packet[] = [];
    let n = 0;
    while (this.rxQueue.length > 0 && n < max) {
      const p = this.rxQueue[0]!;
      if (n + p.count > max) {
        const rest = split(p, max - n);
        this.rxQueue[0] = rest;
        out.push(p);
        n += p.count;
        this.rxQueuedBytes -= p.count * (p.payloadBytes + this.rxOverhead);
        break;
      }
      this.rxQueue.shift();
      out.push(p);
      n += p.count;
      this.rxQueuedBytes -= p.count * (p.payloadBytes + this.rxOverhead);
    }
    return out;
  }
}
