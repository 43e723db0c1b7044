/**
 * One iperf3 test between two instances, run on the model: streams (TCP connections or UDP
 * sockets), the application threads that write and read them, iperf3's UDP pacing, and the
 * measurements iperf3 reports (per-interval and end totals, from both ends).
 *
 * Timeline (as iperf3 does it): the streams connect; the test clock starts when all are up; every
 * -i seconds each end samples its counters (and TCP_INFO on the sender); at -t (or when -n bytes
 * were written) the sender stops and sends TEST_END; the server stops counting when TEST_END
 * arrives (one one-way delay later); results are exchanged (one more one-way delay) and the client
 * prints. Threads: iperf3 ≥ 3.16 runs one thread per stream; stream k's thread runs on vCPU k mod n.
 * Then the client closes its stream sockets (iperf_client_end) and the server closes each on EOF:
 * a FIN exchange per TCP stream, after the data still in the send buffers (host/tcp.ts).
 */
import { storeAsDoubles } from '../core/doubles';
import { Timer } from '../core/scheduler';
import type { Vcpu } from '../host/cpu';
import type { TcpCongestionName } from '../host/tcp/cong';
import { TcpEndpoint } from '../host/tcp/endpoint';
import { UDP_IP_OVERHEAD, UdpSocket } from '../host/udp';
import type { Instance, Lab } from '../lab/lab';
import { type Packet, splitBatch, TCP_TIMESTAMP_OPTION_BYTES } from '../model/packet';

export interface Iperf3TestConfig {
  protocol: 'tcp' | 'udp';
  port: number;
  durationNs: number; // 0 = until -n bytes
  bytesLimit: number; // 0 = none
  parallel: number;
  blockSizeBytes: number;
  mssBytes?: number;
  /** -C: the TCP congestion control of the test's sockets at both ends (default cubic). */
  congestion?: TcpCongestionName;
  targetBitrateBps: number; // per stream; 0 = unlimited
  /**
   * `-b RATE/COUNT` (UDP): datagrams sent back to back per burst; iperf3 checks its throttle only
   * between bursts, so the average stays at RATE while each burst leaves at the host's full speed.
   */
  burstPackets?: number;
  reverse: boolean;
  bidir: boolean;
  intervalNs: number; // 0 = no interval reports
  windowBytes?: number;
  /** Through a tunnel: the inner addresses of the two ends and the tunnel MTU (ip-tunnel.ts tunnelPeer). */
  tunnel?: { clientIp: string; serverIp: string; mtu: number };
  /** The server address the client connects to (a secondary private address); default its primary. */
  serverIp?: string;
}

/** One interval sample of one stream, from the sending and the receiving end. */
export interface StreamInterval {
  startNs: number;
  endNs: number;
  sentBytes: number;
  sentPackets: number;
  retransmits: number;
  sndCwndBytes: number;
  sndWndBytes: number;
  rttUs: number;
  rttvarUs: number;
  pmtu: number;
  recvBytes: number;
  recvPackets: number;
  lostPackets: number;
  outOfOrder: number;
  jitterMs: number;
}

export interface StreamResult {
  /** iperf3's stream id ("[  5]"): 5, 7, 9 … in creation order. */
  id: number;
  /** True when the client sends on this stream. */
  clientSends: boolean;
  clientIp: string;
  clientPort: number;
  serverIp: string;
  serverPort: number;
  /** When the stream's connection was up (its handshake done; UDP: its connect datagram answered), or -1. */
  connectedNs: number;
  intervals: StreamInterval[];
  /** Sender totals over the test. */
  sentBytes: number;
  sentPackets: number;
  retransmits: number;
  maxSndCwndBytes: number;
  maxSndWndBytes: number;
  maxRttUs: number;
  minRttUs: number;
  meanRttUs: number;
  /** Receiver totals (until TEST_END reached the receiver). */
  recvBytes: number;
  recvPackets: number;
  lostPackets: number;
  outOfOrder: number;
  jitterMs: number;
  senderSeconds: number;
  receiverSeconds: number;
}

export interface Iperf3TestResult {
  config: Iperf3TestConfig;
  clientName: string;
  serverName: string;
  clientIp: string;
  serverIp: string;
  mss: number;
  startNs: number;
  testStartNs: number;
  testEndNs: number;
  endNs: number;
  streams: StreamResult[];
  /** CPU utilisation of each host's vCPUs over the test, percent. */
  clientCpuPercent: number;
  serverCpuPercent: number;
}

interface Stream {
  res: StreamResult;
  sender: Instance;
  receiver: Instance;
  senderVcpu: Vcpu;
  receiverVcpu: Vcpu;
  tcpTx?: TcpEndpoint;
  tcpRx?: TcpEndpoint;
  udpTx?: UdpSocket;
  udpRx?: UdpSocket;
  // running counters
  sentBytes: number;
  sentPackets: number;
  recvBytes: number;
  recvPackets: number;
  lost: number;
  ooo: number;
  jitterNs: number;
  prevTransitNs: number;
  nextExpectedSeq: number;
  nextSendSeq: number;
  // snapshot at last interval
  snap: { sent: number; sentP: number; recv: number; recvP: number; retr: number; lost: number; ooo: number };
  rttSum: number;
  rttN: number;
  busy: boolean;
  reading: boolean;
  /** Bytes of the write (busy) and of the read (reading) in progress. */
  writeBytes: number;
  readBytes: number;
  waitingWritable: boolean;
  receiverStopped: boolean;
  /** Datagrams left in the current `-b RATE/COUNT` burst. */
  burstLeft: number;
}

const MAX_CALLS_PER_EVENT = 64;

export class Iperf3Test {
  private streams: Stream[] = [];
  private state: 'connecting' | 'running' | 'ending' | 'done' = 'connecting';
  private startNs: number;
  private testStartNs = 0;
  private testEndNs = 0;
  private endNs = 0;
  private connected = 0;
  private readonly intervalTimer: Timer;
  private readonly endTimer: Timer;
  private lastTickNs = 0;
  private cpuAtStart: { client: number; server: number } = { client: 0, server: 0 };
  readonly mss: number;
  /** The addresses the streams use (the tunnel's inner ones through a tunnel). */
  readonly clientIp: string;
  readonly serverIp: string;
  private totalSent = 0;
  /** Bytes of writes decided but not yet complete (so parallel streams do not overshoot -n). */
  private committed = 0;

  constructor(
    private readonly lab: Lab,
    private readonly client: Instance,
    private readonly server: Instance,
    readonly cfg: Iperf3TestConfig,
  ) {
    this.startNs = lab.nowNs;
    this.clientIp = cfg.tunnel?.clientIp ?? client.host.ip;
    this.serverIp = cfg.tunnel?.serverIp ?? cfg.serverIp ?? server.host.ip;
    // ENA Express clamps the MSS of new TCP connections to fit the SRD MTU (AWS-ENAX)
    const srdMtu =
      cfg.protocol === 'tcp'
        ? Math.min(client.nitro.srd.mssClampMtu(server.host.ip), server.nitro.srd.mssClampMtu(client.host.ip))
        : Number.POSITIVE_INFINITY;
    const tunMtu = cfg.tunnel?.mtu ?? Number.POSITIVE_INFINITY;
    const pathMss = Math.min(lab.pathMtu(), client.host.eth0.mtu, server.host.eth0.mtu, srdMtu, tunMtu) - 40;
    this.mss = Math.min(cfg.mssBytes ?? pathMss, pathMss) - TCP_TIMESTAMP_OPTION_BYTES;
    this.intervalTimer = new Timer(lab.sched, () => this.tick());
    this.endTimer = new Timer(lab.sched, () => this.endTest());
    // times and byte counts pass 2^31 (core/doubles.ts)
    storeAsDoubles(this, [
      'startNs',
      'testStartNs',
      'testEndNs',
      'endNs',
      'lastTickNs',
      'totalSent',
      'committed',
    ]);
  }

  start(): void {
    const dirs: boolean[] = [];
    for (let i = 0; i < this.cfg.parallel; i++) dirs.push(!this.cfg.reverse);
    if (this.cfg.bidir) for (let i = 0; i < this.cfg.parallel; i++) dirs.push(false);
    dirs.forEach((clientSends, k) => {
      this.createStream(k, clientSends);
    });
    if (this.cfg.protocol === 'udp') {
      // iperf3's UDP "connect": one datagram each way before the test starts
      this.lab.sched.after(2 * this.lab.oneWayDelayNs(), () => {
        this.connected = this.streams.length;
        for (const st of this.streams) st.res.connectedNs = this.lab.nowNs;
        this.beginTest();
      });
    }
  }

  private createStream(k: number, clientSends: boolean): void {
    const lab = this.lab;
    const sender = clientSends ? this.client : this.server;
    const receiver = clientSends ? this.server : this.client;
    const cport = this.client.host.allocPort();
    const sport = this.cfg.port;
    const senderPort = clientSends ? cport : sport;
    const receiverPort = clientSends ? sport : cport;
    const ipOf = (i: Instance) => (i === this.client ? this.clientIp : this.serverIp);
    const tup = (a: Instance, b: Instance, ap: number, bp: number) => ({
      srcIp: ipOf(a),
      dstIp: ipOf(b),
      proto: this.cfg.protocol,
      srcPort: ap,
      dstPort: bp,
    });
    const fwd = lab.makeFlow(sender, tup(sender, receiver, senderPort, receiverPort));
    const rev = lab.makeFlow(receiver, tup(receiver, sender, receiverPort, senderPort));
    const clientThreadVcpu = this.client.host.vcpus[k % this.client.host.vcpus.length]!;
    const serverThreadVcpu = this.server.host.vcpus[k % this.server.host.vcpus.length]!;
    const s: Stream = {
      res: {
        id: 5 + 2 * k,
        clientSends,
        clientIp: this.clientIp,
        clientPort: cport,
        serverIp: this.serverIp,
        serverPort: sport,
        connectedNs: -1,
        intervals: [],
        sentBytes: 0,
        sentPackets: 0,
        retransmits: 0,
        maxSndCwndBytes: 0,
        maxSndWndBytes: 0,
        maxRttUs: 0,
        minRttUs: 0,
        meanRttUs: 0,
        recvBytes: 0,
        recvPackets: 0,
        lostPackets: 0,
        outOfOrder: 0,
        jitterMs: 0,
        senderSeconds: 0,
        receiverSeconds: 0,
      },
      sender,
      receiver,
      senderVcpu: clientSends ? clientThreadVcpu : serverThreadVcpu,
      receiverVcpu: clientSends ? serverThreadVcpu : clientThreadVcpu,
      sentBytes: 0,
      sentPackets: 0,
      recvBytes: 0,
      recvPackets: 0,
      lost: 0,
      ooo: 0,
      jitterNs: 0,
      prevTransitNs: Number.NaN,
      nextExpectedSeq: 0,
      nextSendSeq: 0,
      snap: { sent: 0, sentP: 0, recv: 0, recvP: 0, retr: 0, lost: 0, ooo: 0 },
      rttSum: 0,
      rttN: 0,
      busy: false,
      reading: false,
      writeBytes: 0,
      readBytes: 0,
      waitingWritable: false,
      burstLeft: 0,
      receiverStopped: false,
    };
    // byte counts pass 2^31 (core/doubles.ts)
    storeAsDoubles(s, ['sentBytes', 'recvBytes', 'writeBytes', 'readBytes']);
    storeAsDoubles(s.snap, ['sent', 'recv']);
    this.streams.push(s);
    if (this.cfg.protocol === 'tcp') {
      const w = this.cfg.windowBytes;
      const opts = {
        mss: this.mss,
        sndbufBytes: w ? w : ('auto' as const),
        rcvbufBytes: w ? 2 * w : lab.params.tcpRmemMax,
        maxBatchSegs: lab.maxBatch,
        ...(this.cfg.congestion !== undefined ? { congestion: this.cfg.congestion } : {}),
      };
      const txHost = sender.host;
      const rxHost = receiver.host;
      const tx = new TcpEndpoint(lab.sched, fwd, lab.params, { host: txHost, appVcpu: s.senderVcpu }, opts);
      const rx = new TcpEndpoint(lab.sched, rev, lab.params, { host: rxHost, appVcpu: s.receiverVcpu }, opts);
      tx.peer = rx;
      s.tcpTx = tx;
      s.tcpRx = rx;
      txHost.registerTx(fwd.id, { kind: 'tcp', ep: tx });
      rxHost.registerRx(fwd.id, { kind: 'tcp', ep: rx });
      rxHost.registerTx(rev.id, { kind: 'tcp', ep: rx });
      txHost.registerRx(rev.id, { kind: 'tcp', ep: tx });
      tx.onEstablished = () => {
        s.res.connectedNs = lab.nowNs;
        this.connected++;
        if (this.connected === this.streams.length) this.beginTest();
      };
      rx.onReadable = () => this.tcpRead(s);
      tx.onWritable = () => {
        if (s.waitingWritable) {
          s.waitingWritable = false;
          this.tcpWrite(s);
        }
      };
      // the client opens every connection, whichever way the data flows
      if (clientSends) tx.connect();
      else this.connectReverse(s, tx, rx);
    } else {
      const w = this.cfg.windowBytes;
      const tx = new UdpSocket(fwd, {
        sndbufBytes: w ?? lab.params.udpWmemDefault,
        rcvbufBytes: w ?? lab.params.udpRmemDefault,
        txSkbOverheadBytes: lab.params.udpTxSkbOverheadBytes,
        rxSkbOverheadBytes: lab.params.udpRxSkbOverheadBytes,
      });
      const rx = new UdpSocket(fwd, {
        sndbufBytes: w ?? lab.params.udpWmemDefault,
        rcvbufBytes: w ?? lab.params.udpRmemDefault,
        txSkbOverheadBytes: lab.params.udpTxSkbOverheadBytes,
        rxSkbOverheadBytes: lab.params.udpRxSkbOverheadBytes,
      });
      s.udpTx = tx;
      s.udpRx = rx;
      sender.host.registerTx(fwd.id, { kind: 'udp', sock: tx });
      receiver.host.registerRx(fwd.id, { kind: 'udp', sock: rx });
      tx.onWritable = () => {
        if (s.waitingWritable) {
          s.waitingWritable = false;
          this.udpSend(s);
        }
      };
      rx.onReadable = () => this.udpRead(s);
    }
  }

  /** With -R the client connects and the server sends: model the handshake by the server's SYN path. */
  private connectReverse(s: Stream, tx: TcpEndpoint, _rx: TcpEndpoint): void {
    // The connection's SYN travels client → server and the SYN-ACK back; data then flows server → client.
    // Equivalent for the model: the sending endpoint becomes established one round trip from now.
    this.lab.sched.after(2 * this.lab.oneWayDelayNs(), () => {
      tx.established = true;
      _rx.established = true; // the client's end (it connected)
      tx.initBufferSpace();
      tx.onEstablished?.();
      tx.trySend();
    });
    void s;
  }

  private beginTest(): void {
    if (this.state !== 'connecting') return;
    this.state = 'running';
    const now = this.lab.nowNs;
    this.testStartNs = now;
    this.lastTickNs = now;
    this.cpuAtStart = { client: busy(this.client), server: busy(this.server) };
    if (this.cfg.intervalNs > 0) this.intervalTimer.armAt(now + this.cfg.intervalNs);
    if (this.cfg.durationNs > 0) this.endTimer.armAt(now + this.cfg.durationNs);
    for (const s of this.streams) {
      if (this.cfg.protocol === 'tcp') this.tcpWrite(s);
      else this.udpSend(s);
    }
  }

  // ---------------------------------------------------------------- TCP application threads

  private canSend(len: number): number {
    if (this.state !== 'running') return 0;
    if (this.cfg.bytesLimit > 0) return Math.max(0, this.cfg.bytesLimit - this.totalSent) > 0 ? len : 0;
    return len;
  }

  /**
   * The sender thread's write loop. Like Linux's tcp_sendmsg, a write copies what fits in the send
   * buffer and blocks for the rest: a -w smaller than -l still moves data, one part-block at a time.
   */
  private tcpWrite(s: Stream): void {
    if (s.busy || this.state !== 'running') return;
    const ep = s.tcpTx!;
    const blk = this.cfg.blockSizeBytes;
    let bytes = Math.min(ep.sndbufFree(), MAX_CALLS_PER_EVENT * blk);
    const rate = this.cfg.targetBitrateBps;
    if (rate > 0) {
      // -b on TCP: iperf_check_throttle before each write (or each burst of -b RATE/COUNT writes):
      // write while the average since the start is under the rate, else wait until it is
      const now = this.lab.nowNs;
      if (s.sentBytes > 0 && s.sentBytes * 8e9 >= rate * (now - this.testStartNs)) {
        const nextAt = this.testStartNs + Math.floor((s.sentBytes * 8e9) / rate) + 1;
        this.lab.sched.at(Math.max(nextAt, now + 1), () => this.tcpWrite(s));
        return;
      }
      bytes = Math.min(bytes, (this.cfg.burstPackets ?? 1) * blk);
    }
    if (this.cfg.bytesLimit > 0)
      bytes = Math.min(bytes, this.cfg.bytesLimit - this.totalSent - this.committed);
    if (bytes <= 0) {
      if (this.canSend(blk) > 0) s.waitingWritable = true;
      return;
    }
    s.busy = true;
    this.committed += bytes;
    const p = this.lab.params;
    const calls = Math.ceil(bytes / blk);
    s.writeBytes = bytes;
    s.senderVcpu.runSoon(calls * p.tcpSendmsgNs + bytes * p.hostCopyNsPerByte, this.tcpWriteDone, s);
  }

  /** The end of the write tcpWrite started (one per stream at a time: `busy`); prebound, no closure per write. */
  private readonly tcpWriteDone = (arg: unknown): void => {
    const s = arg as Stream;
    const bytes = s.writeBytes;
    s.busy = false;
    this.committed -= bytes;
    if (this.state !== 'running') return;
    const host = s.sender.host;
    const prev = host.ctxVcpu;
    host.ctxVcpu = s.senderVcpu;
    s.tcpTx!.write(bytes);
    host.ctxVcpu = prev;
    s.sentBytes += bytes;
    this.totalSent += bytes;
    if (this.cfg.bytesLimit > 0 && this.totalSent >= this.cfg.bytesLimit) {
      this.endTest();
      return;
    }
    this.tcpWrite(s);
  };

  private tcpRead(s: Stream): void {
    if (s.reading) return;
    const ep = s.tcpRx!;
    const avail = ep.rcvQueued;
    if (avail <= 0) return;
    s.reading = true;
    const blk = this.cfg.blockSizeBytes;
    const bytes = Math.min(avail, MAX_CALLS_PER_EVENT * blk);
    const calls = Math.ceil(bytes / blk);
    const p = this.lab.params;
    s.readBytes = bytes;
    s.receiverVcpu.runSoon(calls * p.tcpRecvmsgNs + bytes * p.hostCopyNsPerByte, this.tcpReadDone, s);
  }

  /** The end of the read tcpRead started (one per stream at a time: `reading`); prebound. */
  private readonly tcpReadDone = (arg: unknown): void => {
    const s = arg as Stream;
    const bytes = s.readBytes;
    s.reading = false;
    const host = s.receiver.host;
    const prev = host.ctxVcpu;
    host.ctxVcpu = s.receiverVcpu;
    s.tcpRx!.read(bytes, s.receiverVcpu.index);
    host.ctxVcpu = prev;
    if (!s.receiverStopped) {
      s.recvBytes += bytes;
    }
    this.tcpRead(s);
  };

  // ---------------------------------------------------------------- UDP application threads

  private udpSend(s: Stream): void {
    if (s.busy || this.state !== 'running') return;
    const sock = s.udpTx!;
    const len = this.cfg.blockSizeBytes;
    const now = this.lab.nowNs;
    const rate = this.cfg.targetBitrateBps;
    let k = this.lab.maxBatch;
    const burst = this.cfg.burstPackets ?? 0;
    if (rate > 0 && burst > 0) {
      // iperf_send with a burst: `burst` datagrams back to back, then one throttle check (green
      // while the average since the start is under the rate; the first burst goes at once)
      if (s.burstLeft === 0) {
        if (s.sentBytes > 0 && s.sentBytes * 8e9 >= rate * (now - this.testStartNs)) {
          const nextAt = this.testStartNs + Math.floor((s.sentBytes * 8e9) / rate) + 1;
          this.lab.sched.at(Math.max(nextAt, now + 1), () => this.udpSend(s));
          return;
        }
        s.burstLeft = burst;
      }
      k = Math.min(k, s.burstLeft);
    } else if (rate > 0) {
      // iperf3's throttle: send while bits sent ≤ rate × elapsed
      const allowedBytes = ((now - this.testStartNs) * rate) / 8e9;
      const due = Math.floor((allowedBytes - s.sentBytes) / len) + 1;
      if (due <= 0) {
        const nextAt = this.testStartNs + Math.ceil(((s.sentBytes + 0) * 8e9) / rate);
        this.lab.sched.at(Math.max(nextAt, now + 1), () => this.udpSend(s));
        return;
      }
      k = Math.min(k, due);
    }
    if (this.cfg.bytesLimit > 0)
      k = Math.min(k, Math.ceil((this.cfg.bytesLimit - this.totalSent - this.committed) / len));
    k = Math.min(k, sock.sendable(len));
    if (k <= 0) {
      s.waitingWritable = true;
      return;
    }
    s.busy = true;
    this.committed += k * len;
    const p = this.lab.params;
    s.senderVcpu.run(k * (p.udpSendmsgNs + len * p.hostCopyNsPerByte), () => {
      s.busy = false;
      this.committed -= k * len;
      if (this.state !== 'running') return;
      sock.charge(k, len);
      const pkt: Packet = {
        flow: sock.flow,
        count: k,
        sizeBytes: len + UDP_IP_OVERHEAD,
        payloadBytes: len,
        seq: s.nextSendSeq,
        ack: 0,
        flags: 0,
        sack: null,
        window: 0,
        tos: 0,
        sentAtNs: this.lab.nowNs,
        enqueuedAtNs: this.lab.nowNs,
        txq: -1,
        mark: 0,
        inner: null,
      };
      s.nextSendSeq += k;
      if (s.burstLeft > 0) s.burstLeft = Math.max(0, s.burstLeft - k);
      s.sentBytes += k * len;
      s.sentPackets += k;
      this.totalSent += k * len;
      s.sender.host.enqueue(pkt);
      if (this.cfg.bytesLimit > 0 && this.totalSent >= this.cfg.bytesLimit) {
        this.endTest();
        return;
      }
      this.udpSend(s);
    });
  }

  private udpRead(s: Stream): void {
    if (s.reading) return;
    const sock = s.udpRx!;
    const batch = sock.take(MAX_CALLS_PER_EVENT, splitBatch, this.lab.nowNs, s.receiverVcpu.index);
    if (batch.length === 0) return;
    s.reading = true;
    let n = 0;
    for (const p of batch) n += p.count;
    const len = this.cfg.blockSizeBytes;
    const prm = this.lab.params;
    s.receiverVcpu.run(n * (prm.udpRecvmsgNs + len * prm.hostCopyNsPerByte), () => {
      s.reading = false;
      const now = this.lab.nowNs;
      if (!s.receiverStopped) {
        for (const p of batch) this.udpAccount(s, p, now);
      }
      this.udpRead(s);
    });
  }

  /** iperf_udp_recv: sequence-gap loss, out-of-order, RFC 1889 jitter. */
  private udpAccount(s: Stream, p: Packet, now: number): void {
    s.recvBytes += p.count * p.payloadBytes;
    s.recvPackets += p.count;
    if (p.seq >= s.nextExpectedSeq) {
      s.lost += p.seq - s.nextExpectedSeq;
      s.nextExpectedSeq = p.seq + p.count;
    } else {
      s.ooo += p.count;
      s.lost -= p.count;
    }
    const transit = now - p.sentAtNs;
    if (!Number.isNaN(s.prevTransitNs)) {
      const d = Math.abs(transit - s.prevTransitNs);
      s.jitterNs += (d - s.jitterNs) / 16;
    }
    // the rest of a batch left back to back and arrived back to back: D = 0 for each
    if (p.count > 1) s.jitterNs *= (15 / 16) ** (p.count - 1);
    s.prevTransitNs = transit;
  }

  // ---------------------------------------------------------------- reporting

  private tick(): void {
    if (this.state !== 'running') return;
    this.sample(this.lab.nowNs);
    this.intervalTimer.armAt(this.lab.nowNs + this.cfg.intervalNs);
  }

  private sample(now: number): void {
    if (now <= this.lastTickNs) return;
    for (const s of this.streams) {
      const info = s.tcpTx?.info();
      const retr = info?.totalRetrans ?? 0;
      const iv: StreamInterval = {
        startNs: this.lastTickNs - this.testStartNs,
        endNs: now - this.testStartNs,
        sentBytes: s.sentBytes - s.snap.sent,
        sentPackets: s.sentPackets - s.snap.sentP,
        retransmits: retr - s.snap.retr,
        sndCwndBytes: info?.sndCwndBytes ?? 0,
        sndWndBytes: info?.sndWnd ?? 0,
        rttUs: info?.srttUs ?? 0,
        rttvarUs: info?.rttvarUs ?? 0,
        pmtu: info?.pmtu ?? this.lab.pathMtu(),
        recvBytes: s.recvBytes - s.snap.recv,
        recvPackets: s.recvPackets - s.snap.recvP,
        lostPackets: s.lost - s.snap.lost,
        outOfOrder: s.ooo - s.snap.ooo,
        jitterMs: s.jitterNs / 1e6,
      };
      s.res.intervals.push(iv);
      s.snap = {
        sent: s.sentBytes,
        sentP: s.sentPackets,
        recv: s.recvBytes,
        recvP: s.recvPackets,
        retr,
        lost: s.lost,
        ooo: s.ooo,
      };
      if (info) {
        s.res.maxSndCwndBytes = Math.max(s.res.maxSndCwndBytes, info.sndCwndBytes);
        s.res.maxSndWndBytes = Math.max(s.res.maxSndWndBytes, info.sndWnd);
        s.res.maxRttUs = Math.max(s.res.maxRttUs, info.srttUs);
        s.res.minRttUs = s.res.minRttUs === 0 ? info.srttUs : Math.min(s.res.minRttUs, info.srttUs);
        s.rttSum += info.srttUs;
        s.rttN++;
      }
    }
    this.lastTickNs = now;
  }

  private endTest(): void {
    if (this.state !== 'running') return;
    this.state = 'ending';
    const now = this.lab.nowNs;
    this.testEndNs = now;
    this.intervalTimer.stop();
    this.endTimer.stop();
    // the last (possibly partial) interval; iperf3 drops a final interval shorter than 10% of -i
    if (this.cfg.intervalNs > 0 && now - this.lastTickNs >= this.cfg.intervalNs / 10) this.sample(now);
    else if (this.cfg.intervalNs === 0) this.lastTickNs = now;
    const senderSeconds = (now - this.testStartNs) / 1e9;
    for (const s of this.streams) {
      s.res.sentBytes = s.sentBytes;
      s.res.sentPackets = s.sentPackets;
      s.res.retransmits = s.tcpTx?.info().totalRetrans ?? 0;
      s.res.meanRttUs = s.rttN ? Math.round(s.rttSum / s.rttN) : 0;
      s.res.senderSeconds = senderSeconds;
      if (s.tcpTx) {
        const info = s.tcpTx.info();
        if (s.rttN === 0) {
          s.res.maxRttUs = s.res.minRttUs = s.res.meanRttUs = info.srttUs;
          s.res.maxSndCwndBytes = info.sndCwndBytes;
          s.res.maxSndWndBytes = info.sndWnd;
        }
      }
    }
    const ow = this.lab.oneWayDelayNs();
    // TEST_END reaches the server one one-way delay later: it stops counting then
    this.lab.sched.after(ow, () => {
      for (const s of this.streams) {
        const stopAt = this.lab.nowNs;
        // for streams the server receives, the server stops; for reverse streams the client stops at the same instant
        s.receiverStopped = true;
        s.res.recvBytes = s.recvBytes;
        s.res.recvPackets = s.recvPackets;
        s.res.lostPackets = this.cfg.protocol === 'udp' ? Math.max(0, s.sentPackets - s.recvPackets) : 0;
        s.res.outOfOrder = s.ooo;
        s.res.jitterMs = s.jitterNs / 1e6;
        s.res.receiverSeconds = (stopAt - this.testStartNs) / 1e9;
      }
    });
    this.lab.sched.after(2 * ow + 1, () => {
      this.endNs = this.lab.nowNs;
      this.state = 'done';
      this.closeStreams();
    });
  }

  /** iperf_client_end: the client closes its end of every TCP stream; the server closes on EOF. */
  private closeStreams(): void {
    for (const s of this.streams) {
      const clientEp = s.res.clientSends ? s.tcpTx : s.tcpRx;
      const serverEp = s.res.clientSends ? s.tcpRx : s.tcpTx;
      if (!clientEp || !serverEp) continue;
      serverEp.onPeerFin = () => serverEp.close();
      clientEp.close();
    }
  }

  interrupt(): void {
    if (this.state === 'running') this.endTest();
    else if (this.state === 'connecting') {
      this.state = 'done';
      this.endNs = this.lab.nowNs;
      this.closeStreams();
    }
  }

  done(): boolean {
    return this.state === 'done';
  }

  /** Earliest time the test can be done. */
  deadlineNs(): number {
    if (this.state === 'done') return this.endNs;
    if (this.state === 'running') {
      return this.cfg.durationNs > 0 ? this.testStartNs + this.cfg.durationNs : Number.POSITIVE_INFINITY;
    }
    return this.lab.nowNs;
  }

  /**
   * What a running test's progress text depends on: the intervals every stream has ended and how
   * many leading streams (in id order) are connected, packed as intervals·2^16 + connected (−2: no
   * stream yet). The terminal polls it every millisecond; result() builds the whole result object.
   */
  progressKey(): number {
    let n = Number.POSITIVE_INFINITY;
    let up = 0;
    let leading = true;
    for (const st of this.streams) {
      if (st.res.intervals.length < n) n = st.res.intervals.length;
      if (leading && st.res.connectedNs >= 0) up++;
      else leading = false;
    }
    return n === Number.POSITIVE_INFINITY ? -2 : n * 65536 + up;
  }

  result(): Iperf3TestResult {
    const dur = Math.max(1, this.testEndNs - this.testStartNs);
    const cpu = (inst: Instance, at: number) =>
      Math.min(100, ((busy(inst) - at) / (dur * inst.host.vcpus.length)) * 100);
    return {
      config: this.cfg,
      clientName: this.client.name,
      serverName: this.server.name,
      clientIp: this.clientIp,
      serverIp: this.serverIp,
      mss: this.mss,
      startNs: this.startNs,
      testStartNs: this.testStartNs,
      testEndNs: this.testEndNs,
      endNs: this.endNs,
      streams: this.streams.map((s) => s.res),
      clientCpuPercent: cpu(this.client, this.cpuAtStart.client),
      serverCpuPercent: cpu(this.server, this.cpuAtStart.server),
    };
  }
}

function busy(inst: Instance): number {
  let b = 0;
  for (const v of inst.host.vcpus) b += v.busyNs;
  return b;
}
