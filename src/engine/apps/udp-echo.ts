/**
 * `udp-echo`, a program of the lab's own modelled on the C server STRESSGRID built: one thread per
 * vCPU, each with its own UDP socket bound to the same port with SO_REUSEPORT, echoing every
 * datagram back to its sender (recvfrom, sendto). It runs on the kernel path: NAPI delivers to the
 * socket, the thread's recvmsg and sendmsg run on its vCPU, the echo goes down through the qdisc
 * and the TX ring, and the host's UDP MIB counts both ways (`sar -n UDP`: idgm/s, odgm/s).
 *
 * Which socket gets a datagram: reuseport_select_sock, reciprocal_scale(udp_ehashfn(saddr, sport,
 * daddr, dport) ^ secret, sockets): every datagram of a 4-tuple reaches the same thread. Thread i
 * runs on vCPU i (Linux spreads runnable threads over idle CPUs; the lab pins them: assumed).
 * Costs per datagram: udpRecvmsgNs + udpSendmsgNs + the copy both ways + udpEchoLoopNs.
 */
import { hashString, mix32 } from '../core/rng';
import type { Vcpu } from '../host/cpu';
import { UDP_IP_OVERHEAD, UdpSocket } from '../host/udp';
import type { Instance, Lab } from '../lab/lab';
import type { Flow, Packet } from '../model/packet';
import { splitBatch } from '../model/packet';

/** Datagrams a thread handles per event at most (a recvmmsg-sized batch of its loop iterations). */
const MAX_PER_EVENT = 64;

interface Thread {
  index: number;
  vcpu: Vcpu;
  sock: UdpSocket;
  busy: boolean;
  /** Echoes built but not yet handed down (the send buffer was full: sendto blocks). */
  pending: Packet[];
  received: number;
  echoed: number;
}

export interface UdpEchoResult {
  port: number;
  threads: number;
  received: number;
  echoed: number;
  perThread: { received: number; echoed: number }[];
}

export class UdpEchoServer {
  readonly threads: Thread[] = [];
  /** The reply flow of each peer flow (by the peer flow's id). */
  private readonly replyOf = new Map<number, Flow>();
  private readonly secret: number;
  private running = false;

  constructor(
    private readonly lab: Lab,
    private readonly inst: Instance,
    readonly port: number,
    threads: number,
  ) {
    const prm = lab.params;
    const vcpus = inst.host.vcpus;
    this.secret = hashString(`udp_ehash_secret|${inst.name}`);
    for (let i = 0; i < threads; i++) {
      const flow = lab.makeFlow(inst, {
        srcIp: inst.host.ip,
        dstIp: '0.0.0.0',
        proto: 'udp',
        srcPort: port,
        dstPort: 0,
      });
      const sock = new UdpSocket(flow, {
        sndbufBytes: prm.udpWmemDefault,
        rcvbufBytes: prm.udpRmemDefault,
        txSkbOverheadBytes: prm.udpTxSkbOverheadBytes,
        rxSkbOverheadBytes: prm.udpRxSkbOverheadBytes,
      });
      const th: Thread = {
        index: i,
        vcpu: vcpus[i % vcpus.length]!,
        sock,
        busy: false,
        pending: [],
        received: 0,
        echoed: 0,
      };
      sock.onReadable = () => this.loop(th);
      sock.onWritable = () => this.loop(th);
      this.threads.push(th);
    }
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    this.running = true;
    this.inst.host.listen('udp', this.port, (p) => this.accept(p));
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    const host = this.inst.host;
    host.unlisten('udp', this.port);
    const ids: number[] = [];
    for (const [peer, reply] of this.replyOf) ids.push(peer, reply.id);
    host.unregister(ids);
  }

  /** A datagram of a 4-tuple not seen yet: the reuseport group picks its socket. */
  private accept(p: Packet): void {
    const t = p.flow.tuple;
    const h = mix32(hashString(`${t.srcIp}|${t.srcPort}|${t.dstIp}|${t.dstPort}`) ^ this.secret) >>> 0;
    const th = this.threads[Math.floor((h * this.threads.length) / 4294967296)]!;
    const reply = this.lab.makeFlow(this.inst, {
      srcIp: t.dstIp,
      dstIp: t.srcIp,
      proto: 'udp',
      srcPort: t.dstPort,
      dstPort: t.srcPort,
    });
    this.replyOf.set(p.flow.id, reply);
    const host = this.inst.host;
    host.registerRx(p.flow.id, { kind: 'udp', sock: th.sock });
    host.registerTx(reply.id, { kind: 'udp', sock: th.sock });
  }

  /** The thread's loop: hand down what waits, then read a batch and echo it after its CPU time. */
  private loop(th: Thread): void {
    if (th.busy || !this.running) return;
    if (!this.flush(th)) return; // blocked in sendto until the send buffer drains
    const batch = th.sock.take(MAX_PER_EVENT, splitBatch, this.lab.nowNs, th.vcpu.index);
    if (batch.length === 0) return;
    let n = 0;
    let bytes = 0;
    for (const p of batch) {
      n += p.count;
      bytes += p.count * p.payloadBytes;
    }
    th.received += n;
    const prm = this.lab.params;
    const cost =
      n * (prm.udpRecvmsgNs + prm.udpSendmsgNs + prm.udpEchoLoopNs) + 2 * bytes * prm.hostCopyNsPerByte;
    th.busy = true;
    th.vcpu.run(cost, () => {
      th.busy = false;
      if (!this.running) return;
      const now = this.lab.nowNs;
      for (const p of batch) {
        const reply = this.replyOf.get(p.flow.id);
        if (reply === undefined) continue;
        th.pending.push({
          flow: reply,
          count: p.count,
          sizeBytes: p.payloadBytes + UDP_IP_OVERHEAD,
          payloadBytes: p.payloadBytes,
          seq: p.seq,
          ack: 0,
          flags: 0,
          sack: null,
          window: 0,
          tos: 0,
          sentAtNs: now,
          enqueuedAtNs: now,
          txq: -1,
          mark: 0,
          inner: null,
        });
      }
      this.loop(th);
    });
  }

  /** Hand the waiting echoes to the qdisc as the send buffer allows; true when none is left. */
  private flush(th: Thread): boolean {
    const host = this.inst.host;
    while (th.pending.length > 0) {
      const p = th.pending[0]!;
      const k = Math.min(p.count, th.sock.sendable(p.payloadBytes));
      if (k <= 0) return false;
      const send = k < p.count ? p : th.pending.shift()!;
      if (k < p.count) th.pending[0] = splitBatch(p, k);
      th.sock.charge(k, send.payloadBytes);
      th.echoed += k;
      const prev = host.ctxVcpu;
      host.ctxVcpu = th.vcpu;
      host.enqueue(send);
      host.ctxVcpu = prev;
    }
    return true;
  }

  result(): UdpEchoResult {
    let received = 0;
    let echoed = 0;
    for (const th of this.threads) {
      received += th.received;
      echoed += th.echoed;
    }
    return {
      port: this.port,
      threads: this.threads.length,
      received,
      echoed,
      perThread: this.threads.map((t) => ({ received: t.received, echoed: t.echoed })),
    };
  }
}
