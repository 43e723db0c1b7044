/**
 * A Linux-like TCP endpoint: one direction of bulk data with its ACK stream (the socket, tcp_sock).
 * Sender: what cwnd, the receive window, TCP Small Queues and a growing send buffer allow, with its
 * congestion control behind `TcpCongestionOps` (cong.ts: CUBIC or Reno), its SACK scoreboard
 * (scoreboard.ts) and loss recovery (recovery.ts: RACK, TLP, RTO). Receiver: cumulative ACKs with up
 * to 4 SACK blocks, delayed ACKs, a receive buffer the application drains. Close: close.ts. Data
 * leaves in batches of equal segments (a GSO super-packet); sequence numbers are byte offsets from 0.
 * Sources: LINUX net/ipv4 (tcp_output.c, tcp_input.c), RFC 793. Design: docs/design.md, "TCP".
 */
import { storeAsDoubles } from '../../core/doubles';
import { Probe } from '../../model/probe';
import type { Scheduler } from '../../core/scheduler';
import { Timer } from '../../core/scheduler';
import {
  cloneBatch,
  type Flow,
  IPV4_HEADER_BYTES,
  newBatch,
  type Packet,
  TCP_FLAG_ACK,
  TCP_FLAG_FIN,
  TCP_FLAG_SYN,
  TCP_HEADER_BYTES,
  TCP_TIMESTAMP_OPTION_BYTES,
} from '../../model/packet';
import type { ParamValues } from '../../model/params';
import type { Vcpu } from '../cpu';
import { newCongestionOps } from './algorithms';
import { TcpClose } from './close';
import type { TcpCongestionName, TcpCongestionOps } from './cong';
import { LossRecovery } from './recovery';
import { Scoreboard } from './scoreboard';

/** LINUX net.ipv4.tcp_reordering default (tp->reordering of a new socket). */
const TCP_REORDERING = 3;
const TCP_HDR = IPV4_HEADER_BYTES + TCP_HEADER_BYTES + TCP_TIMESTAMP_OPTION_BYTES; // 52

/** Fields of TcpEndpoint holding sequence numbers, byte counts, times or fractions (core/doubles.ts). */
const DOUBLE_FIELDS = [
  'sndUna',
  'sndNxt',
  'writeSeq',
  'cwnd',
  'srttNs',
  'rttvarNs',
  'tsqBytes',
  'rcvNxt',
  'rcvQueued',
  'bytesReceived',
  'rxReadAccBytes',
  'tsqSrttNs',
  'tsqSsthresh',
  'tsqLimitBytes',
] as const;

/** The host a socket sends through (host.ts). */
export interface TcpHost {
  /** Put a packet on the wire path of this host (qdisc → ring), after CPU cost on `vcpu`. */
  transmit(p: Packet, vcpu: Vcpu): void;
  /** The vCPU whose context runs now (softirq, a system call), or null. */
  readonly ctxVcpu: Vcpu | null;
}

export interface TcpHostHooks {
  host: TcpHost;
  /** The vCPU the application thread of this socket runs on (it sends outside any other context). */
  appVcpu: Vcpu;
}

export interface TcpInfo {
  sndCwndBytes: number;
  sndCwndSegs: number;
  ssthresh: number;
  srttUs: number;
  rttvarUs: number;
  minRttUs: number;
  totalRetrans: number;
  sndMss: number;
  bytesAcked: number;
  bytesReceived: number;
  sndWnd: number;
  pmtu: number;
}

export class TcpEndpoint {
  // ---- identity
  readonly flow: Flow;
  peer: TcpEndpoint | null = null;
  established = false;
  onEstablished: (() => void) | null = null;

  // ---- close
  /** close() before the handshake completed: the socket is gone, nothing more is sent. */
  aborted = false;
  /** Called once when the peer's FIN is taken in order (the application reads EOF). */
  onPeerFin: (() => void) | null = null;
  /** Called once when the connection is closed (both FINs exchanged, ours acknowledged). */
  onClosed: (() => void) | null = null;
  private readonly fin: TcpClose;

  // ---- sender state
  mss: number;
  sndUna = 0;
  sndNxt = 0;
  /** Bytes the application has written (the send buffer holds writeSeq − sndUna). */
  writeSeq = 0;
  /** sk_sndbuf: fixed with SO_SNDBUF, else autotuned (sndbufAuto). */
  sndbufBytes: number;
  /** No SO_SNDBUF (SOCK_SNDBUF_LOCK unset): sk_sndbuf grows with cwnd up to tcp_wmem[2]. */
  readonly sndbufAuto: boolean;
  cwnd: number;
  ssthresh = Number.POSITIVE_INFINITY;
  /** The congestion control (icsk_ca_ops with its private state). */
  readonly ca: TcpCongestionOps;
  /** The retransmission queue. */
  readonly sb = new Scoreboard();
  private readonly rec: LossRecovery;
  srttNs = 0;
  rttvarNs = 0;
  minRttNs = Number.POSITIVE_INFINITY;
  totalRetransSegs = 0;
  /** Bytes handed to the host and not yet TX-completed (TCP Small Queues). */
  tsqBytes = 0;
  peerWindow: number;
  /** tp->is_cwnd_limited: sending was last stopped by the congestion window (cwnd grows only then). */
  private cwndLimited = false;
  /** Called when send-buffer space frees up (the app may write again). */
  onWritable: (() => void) | null = null;

  // ---- receiver state
  rcvNxt = 0;
  private ooo: Array<[number, number]> = [];
  /** Bytes received in order and not yet read by the application. */
  rcvQueued = 0;
  rcvbufBytes: number;
  bytesReceived = 0;
  private unackedSegs = 0;
  private pendingOoo = false;
  private readonly delackTimer: Timer;
  /** Called when in-order data becomes readable. */
  onReadable: (() => void) | null = null;
  /**
   * The receive buffer as the probe's socket_rx stage (set by the host that registers the socket).
   * The buffer holds bytes; the probe counts wire packets: a data batch enters on arrival and its
   * packets leave as the application reads their bytes (one MSS each, in arrival order; all that
   * remain once nothing is queued or out of order). A duplicate leaves at once (discarded).
   */
  stageProbe = new Probe();
  probeHost = -1;
  private rxHeldPkts = 0;
  private rxReadAccBytes = 0;
  private rxProbePkt: Packet | null = null;

  constructor(
    private readonly sched: Scheduler,
    flow: Flow,
    private readonly params: ParamValues,
    hooks: TcpHostHooks,
    opts: {
      mss: number;
      /** SO_SNDBUF bytes, or 'auto': tcp_wmem[1] grown by tcp_sndbuf_expand. */
      sndbufBytes: number | 'auto';
      rcvbufBytes: number;
      maxBatchSegs: number;
      nodelay?: boolean;
      /** TCP_CONGESTION (default: cubic, Linux's net.ipv4.tcp_congestion_control). */
      congestion?: TcpCongestionName;
    },
  ) {
    this.host = hooks.host;
    this.appVcpu = hooks.appVcpu;
    this.nodelay = opts.nodelay ?? false;
    this.flow = flow;
    this.mss = opts.mss;
    this.sndbufAuto = opts.sndbufBytes === 'auto';
    this.sndbufBytes = opts.sndbufBytes === 'auto' ? params.tcpWmemDefault : opts.sndbufBytes;
    this.rcvbufBytes = opts.rcvbufBytes;
    this.maxBatchSegs = opts.maxBatchSegs;
    this.cwnd = params.tcpInitCwnd;
    this.peerWindow = 65535;
    this.ca = newCongestionOps(opts.congestion ?? 'cubic', params);
    this.rec = new LossRecovery(sched, params, this, () => this.onRto());
    this.fin = new TcpClose(this);
    this.delackTimer = new Timer(sched, () => this.sendAck(1));
    storeAsDoubles(this, DOUBLE_FIELDS);
  }

  private readonly host: TcpHost;
  private readonly appVcpu: Vcpu;
  private readonly maxBatchSegs: number;
  /** TCP_NODELAY: no Nagle delay for a sub-MSS tail. */
  private readonly nodelay: boolean;

  // ================================================================ connection setup

  /** SYN retransmissions so far (Linux gives up after tcp_syn_retries = 6, about 127 s). */
  synRetries = 0;
  /** Set when the handshake timed out (ETIMEDOUT). */
  connectFailed = false;
  /** Called once when the handshake times out (connect() returns ETIMEDOUT). */
  onConnectFailed: (() => void) | null = null;
  private connecting = false;

  /** Client side: send SYN, retransmitted on the initial RTO (1 s, doubling) until answered. */
  connect(): void {
    this.connecting = true;
    this.transmitControl(TCP_FLAG_SYN);
    this.rec.rtoTimer.armAt(this.sched.now + this.rec.initialRtoNs);
  }

  /** Hand a packet to the host, on the vCPU whose context runs now, else the application's. */
  private transmit(p: Packet): void {
    this.host.transmit(p, this.host.ctxVcpu ?? this.appVcpu);
  }

  private transmitControl(flags: number): void {
    const p = this.makePacket(1, 0, 0, flags);
    p.sizeBytes = IPV4_HEADER_BYTES + TCP_HEADER_BYTES + 20; // SYN options: MSS, SACK-perm, TS, WS
    this.transmit(p);
  }

  /** The RTO fired: the SYN again during the handshake (tcp_syn_retries), else loss recovery's. */
  private onRto(): void {
    if (this.aborted) return;
    if (this.connecting && !this.established) {
      if (this.synRetries >= 6) {
        this.connecting = false;
        this.connectFailed = true;
        this.onConnectFailed?.();
        return;
      }
      this.synRetries++;
      this.transmitControl(TCP_FLAG_SYN);
      this.rec.rtoTimer.armAt(this.sched.now + this.rec.initialRtoNs * 2 ** this.synRetries);
      return;
    }
    if (this.rec.retransmitTimer()) this.fin.onRto();
  }

  // ================================================================ application side

  /** Bytes the application may still write without blocking. */
  sndbufFree(): number {
    return Math.max(0, this.sndbufBytes - (this.writeSeq - this.sndUna));
  }

  /** tcp_init_buffer_space, send side: the connection is established. */
  initBufferSpace(): void {
    if (this.sndbufAuto) this.sndbufExpand();
  }

  /**
   * tcp_sndbuf_expand: room for twice the larger of cwnd, TCP_INIT_CWND and reordering + 1 segments
   * (CUBIC's 0.7 fast-recovery factor rounded up to 2), each costed as a non-GSO skb: its head is a
   * power-of-two allocation of MSS + MAX_TCP_HEADER + shared info, plus the sk_buff. Never shrinks;
   * capped at tcp_wmem[2].
   */
  private sndbufExpand(): void {
    const p = this.params;
    const head = this.mss + p.tcpMaxHeaderBytes + p.skbSharedInfoBytes;
    const perMss = 2 ** (32 - Math.clz32(head - 1)) + p.skbStructBytes;
    const nrSegs = Math.max(p.tcpInitCwnd, Math.floor(this.cwnd), TCP_REORDERING + 1);
    const sndmem = 2 * nrSegs * perMss;
    if (this.sndbufBytes < sndmem) this.sndbufBytes = Math.min(sndmem, p.tcpWmemMax);
  }

  /**
   * The application closes the socket (close(2)): a FIN after the data already written; before the
   * handshake completed, the connection is dropped without a packet.
   */
  close(): void {
    if (this.fin.finPending || this.aborted) return;
    if (!this.established) {
      this.aborted = true;
      this.connecting = false;
      this.rec.stopTimers();
      this.delackTimer.stop();
      return;
    }
    this.fin.close();
  }

  /** Sequence number of our FIN (the byte count written at close), −1 before close(). */
  get finSeq(): number {
    return this.fin.finSeq;
  }
  /** Our FIN has been sent (sndNxt is past it). */
  get finSent(): boolean {
    return this.fin.finSent;
  }
  get peerFinReceived(): boolean {
    return this.fin.peerFinReceived;
  }
  /** Both FINs exchanged and ours acknowledged. */
  get closed(): boolean {
    return this.fin.closed;
  }

  transmitFin(finSeq: number): void {
    this.transmit(this.makePacket(1, 0, finSeq, TCP_FLAG_FIN | TCP_FLAG_ACK));
  }

  /** A FIN arrived (its ACK part already taken by onAck). */
  onFin(p: Packet): void {
    if (this.aborted) return;
    this.fin.onFin(p.seq);
  }

  /** The application wrote `bytes` (already charged to its vCPU). */
  write(bytes: number): void {
    this.writeSeq += bytes;
    this.trySend();
  }

  /** The application read `bytes` from the receive queue (on vCPU `cpu`, for the probe). */
  read(bytes: number, cpu = -1): void {
    const before = this.advertisedWindow();
    this.rcvQueued -= bytes;
    if (this.rxHeldPkts > 0) this.probeRead(bytes, cpu);
    // Window update when the window opens by ≥ 2 MSS from a nearly closed state (tcp_cleanup_rbuf)
    if (before < 2 * this.mss && this.advertisedWindow() >= 2 * this.mss) this.sendAck(1);
  }

  private probeRead(bytes: number, cpu: number): void {
    this.rxReadAccBytes += bytes;
    let k = Math.min(this.rxHeldPkts, Math.floor(this.rxReadAccBytes / this.mss));
    if (this.rcvQueued <= 0 && this.ooo.length === 0) k = this.rxHeldPkts;
    if (k <= 0) return;
    this.rxHeldPkts -= k;
    this.rxReadAccBytes = this.rxHeldPkts === 0 ? 0 : Math.max(0, this.rxReadAccBytes - k * this.mss);
    const p = this.rxProbePkt!;
    p.count = k;
    this.stageProbe.sink?.leave(this.sched.now, this.probeHost, 'socket_rx', 0, p, cpu);
  }

  /** Wire packets the receive buffer holds, as the probe counts them. */
  get rxHeldPackets(): number {
    return this.rxHeldPkts;
  }

  advertisedWindow(): number {
    return Math.max(0, Math.floor((this.rcvbufBytes - this.rcvQueued) / 2));
  }

  // ================================================================ sender

  /** Bytes in flight as the pipe estimate (RFC 6675): sent − SACKed − lost-not-retransmitted. */
  pipeBytes(): number {
    return this.sndNxt - this.sndUna - this.sb.sackedBytes - this.sb.lostBytes;
  }

  private tsqLimit(): number {
    // tcp_small_queue_check: max(2 skbs, ~1 ms at the pacing rate), capped by tcp_limit_output_bytes.
    // Asked on every send and TX completion, it changes only with cwnd, ssthresh, srtt and the MSS:
    // the last result is kept with what it was computed from.
    if (
      this.cwnd !== this.tsqCwnd ||
      this.srttNs !== this.tsqSrttNs ||
      this.ssthresh !== this.tsqSsthresh ||
      this.mss !== this.tsqMss
    )
      this.tsqRecompute();
    return this.tsqLimitBytes;
  }

  /** tsqLimit's computation, apart: the common case (nothing changed) stays small enough to inline. */
  private tsqRecompute(): void {
    const pacing = this.pacingRateBytesPerSec();
    const ms = Number.isFinite(pacing) ? pacing / 1000 : this.params.tcpLimitOutputBytes;
    this.tsqCwnd = this.cwnd;
    this.tsqSrttNs = this.srttNs;
    this.tsqSsthresh = this.ssthresh;
    this.tsqMss = this.mss;
    this.tsqLimitBytes = Math.min(this.params.tcpLimitOutputBytes, Math.max(2 * this.params.gsoMaxBytes, ms));
  }

  // tsqLimit's last answer and what it was computed from
  private tsqCwnd = Number.NaN;
  private tsqSrttNs = 0;
  private tsqSsthresh = 0;
  private tsqMss = 0;
  private tsqLimitBytes = 0;

  /** sk_pacing_rate: 2× cwnd/srtt in slow start, 1.2× in congestion avoidance (tcp_update_pacing_rate). */
  pacingRateBytesPerSec(): number {
    if (this.srttNs <= 0) return Number.POSITIVE_INFINITY;
    const ratio = this.cwnd < this.ssthresh ? 2 : 1.2;
    return (ratio * this.cwnd * this.mss * 1e9) / this.srttNs;
  }

  /** Send what cwnd, rwnd, TSQ and the send buffer allow. */
  trySend(): void {
    if (!this.established || this.aborted) return;
    const window = Math.min(Math.floor(this.cwnd) * this.mss, this.peerWindow);
    const sb = this.sb;
    for (let guard = 0; guard < 10_000; guard++) {
      if (this.tsqBytes >= this.tsqLimit()) return; // throttled until TX completion
      const room = window - this.pipeBytes();
      if (room < this.mss && window === Math.floor(this.cwnd) * this.mss) this.cwndLimited = true;
      // 1. retransmit lost segments first
      if (sb.lostBytes > 0) {
        const idx = sb.firstPendingRetrans();
        if (idx >= 0) {
          if (room < this.mss) return;
          const maxSegs = Math.max(1, Math.min(this.maxBatchSegs, Math.floor(room / this.mss)));
          if (sb.segsOf(idx) > maxSegs) sb.split(idx, sb.startOf(idx) + maxSegs * sb.payloadOf(idx));
          this.transmitSeg(idx);
          this.rec.armRtoIfIdle();
          continue;
        }
      }
      // 2. new data
      const avail = this.writeSeq - this.sndNxt;
      if (avail <= 0) {
        this.fin.sendIfDue();
        return;
      }
      if (room < this.mss && !(avail < this.mss && room >= avail)) return;
      let bytes = Math.min(avail, room, this.maxBatchSegs * this.mss);
      let segs = Math.floor(bytes / this.mss);
      let payload = this.mss;
      if (segs === 0) {
        // a tail smaller than one MSS: send it only when nothing else is in flight (Nagle), unless
        // the application set TCP_NODELAY (curl and nginx do)
        if (this.sndNxt > this.sndUna && !this.nodelay) return;
        segs = 1;
        payload = bytes;
      } else {
        bytes = segs * this.mss;
      }
      this.sendNew(segs, payload);
    }
  }

  /** Send `segs` new segments of `payload` bytes from sndNxt. */
  sendNew(segs: number, payload: number): void {
    const start = this.sndNxt;
    const end = start + segs * payload;
    this.sb.add(start, end, segs, this.sched.now);
    this.sndNxt = end;
    // data carries the ACK of what we received: no separate delayed ACK (tcp_event_ack_sent)
    this.cancelDelayedAck();
    const p = this.makePacket(segs, payload, start, TCP_FLAG_ACK);
    this.tsqBytes += segs * payload;
    this.transmit(p);
    this.rec.armRtoIfIdle();
    this.rec.armPto();
  }

  /** tcp_retransmit_skb: scoreboard entry `i` again (a lost one, or the tail loss probe's). */
  transmitSeg(i: number): void {
    const sb = this.sb;
    sb.markRetransmitted(i, this.sched.now);
    const segs = sb.segsOf(i);
    this.totalRetransSegs += segs;
    const p = this.makePacket(segs, sb.payloadOf(i), sb.startOf(i), TCP_FLAG_ACK);
    this.tsqBytes += sb.endOf(i) - sb.startOf(i);
    this.transmit(p);
  }

  private makePacket(count: number, payload: number, seq: number, flags: number): Packet {
    const now = this.sched.now;
    // a whole number of bytes handed on as a small integer (packet sizes are small-integer fields:
    // model/packet.ts); computed from sequence numbers, which are doubles, it is one in form only
    const bytes = payload === (payload | 0) ? payload | 0 : payload;
    return newBatch(
      this.flow,
      count,
      bytes + TCP_HDR,
      bytes,
      seq,
      this.rcvNxt,
      flags,
      this.advertisedWindow(),
      0,
      now,
    );
  }

  /** TX completion of a batch we sent (frees TCP Small Queues budget). */
  txCompleted(p: Packet, count: number): void {
    if (p.payloadBytes === 0) return;
    const limit = this.tsqLimit();
    const wasThrottled = this.tsqBytes >= limit;
    this.tsqBytes -= count * p.payloadBytes;
    if (this.tsqBytes < 0) this.tsqBytes = 0;
    if (wasThrottled && this.tsqBytes < limit) this.trySend();
  }

  armRtoIfIdle(): void {
    this.rec.armRtoIfIdle();
  }

  stopTimers(): void {
    this.rec.stopTimers();
  }

  /** An ACK arrived (the segment's header fields); runs in softirq on `vcpu`. */
  onAck(p: Packet): void {
    if (this.aborted) return; // the socket is gone (Linux would answer with a RST: not modelled)
    const now = this.sched.now;
    if (p.flags & TCP_FLAG_SYN) {
      // SYN-ACK: established
      if (!this.established) {
        this.established = true;
        this.connecting = false;
        this.rec.rtoTimer.stop();
        const rtt = now - p.sentAtNs;
        this.rttSample(Math.max(rtt, 1));
        this.peerWindow = p.window;
        this.initBufferSpace();
        this.onEstablished?.();
        this.trySend();
      }
      return;
    }
    this.peerWindow = p.window;
    const ack = p.ack;
    const sb = this.sb;
    sb.beginAck();
    if (ack > this.sndUna) {
      sb.cumulativeAck(ack, now);
      this.sndUna = ack;
      this.rec.backoff = 0;
      if (this.fin.finSent) this.fin.checkClosed();
    }
    if (p.sack) sb.sackTag(p.sack, now);
    const ackedBytes = sb.acked;
    if (sb.rttNs > 0) this.rttSample(sb.rttNs);
    this.rec.onAck(sb.deliveredSentNs);
    const ackedSegs = ackedBytes / this.mss;
    // tcp_cong_avoid only when cwnd-limited (tcp_is_cwnd_limited; in slow start also while cwnd < 2 × in flight)
    const inFlightSegs = (this.sndNxt - this.sndUna) / this.mss;
    const limited = this.cwndLimited || (this.cwnd < this.ssthresh && this.cwnd < 2 * inFlightSegs);
    if (ackedBytes > 0) this.ca.pktsAcked(this, now);
    if (!this.rec.inRecovery && ackedSegs > 0 && limited) this.ca.congAvoid(this, ackedSegs, now);
    this.cwndLimited = false;
    this.rec.restartTimers(ack > 0 && ackedBytes > 0);
    this.trySend();
    // tcp_data_snd_check → tcp_check_space → tcp_new_space: after sending, grow the send buffer
    // unless the congestion window is full (tcp_should_expand_sndbuf), then wake the writer
    if (ackedBytes > 0) {
      if (this.sndbufAuto && this.pipeBytes() < Math.floor(this.cwnd) * this.mss) this.sndbufExpand();
      if (this.onWritable && this.sndbufFree() > 0) this.onWritable();
    }
  }

  private rttSample(rtt: number): void {
    if (rtt < this.minRttNs) this.minRttNs = rtt;
    if (this.srttNs === 0) {
      this.srttNs = rtt;
      this.rttvarNs = rtt / 2;
    } else {
      const err = rtt - this.srttNs;
      this.srttNs += err / 8;
      this.rttvarNs += (Math.abs(err) - this.rttvarNs) / 4;
    }
  }

  // ================================================================ receiver

  /**
   * A data (or SYN) packet arrived. A GRO delivery of several batches calls this once per batch
   * with `last` false, then with `last` true and the delivery's skb count: the ACK decision is taken
   * once per delivery, as TCP takes it once per GRO skb.
   */
  onData(p: Packet, skbs: number, last = true): void {
    if (this.aborted) return;
    if (p.flags & TCP_FLAG_SYN) {
      // server side: answer the SYN with SYN-ACK
      this.established = true;
      this.initBufferSpace();
      const synack = this.makePacket(1, 0, 0, TCP_FLAG_SYN | TCP_FLAG_ACK);
      synack.sizeBytes = IPV4_HEADER_BYTES + TCP_HEADER_BYTES + 20;
      synack.sentAtNs = p.sentAtNs; // echo the SYN's timestamp (TSecr) so the client measures the RTT
      this.transmit(synack);
      this.onEstablished?.();
      return;
    }
    const start = p.seq;
    const end = p.seq + p.count * p.payloadBytes;
    let outOfOrder = false;
    const sink = this.stageProbe.sink;
    if (sink !== null) {
      sink.enter(this.sched.now, this.probeHost, 'socket_rx', 0, p);
      if (end <= this.rcvNxt) sink.leave(this.sched.now, this.probeHost, 'socket_rx', 0, p, -1);
      else {
        this.rxHeldPkts += p.count;
        if (this.rxProbePkt === null) this.rxProbePkt = cloneBatch(p, 0);
      }
    }
    if (end <= this.rcvNxt) {
      outOfOrder = true; // duplicate: ACK at once (D-SACK not modelled)
    } else if (start <= this.rcvNxt) {
      const fresh = end - this.rcvNxt;
      this.rcvNxt = end;
      // deliverInOrder(fresh), written out: on the path of every segment, and V8 does not inline the
      // method once it has optimized code of its own with the reader inlined
      this.rcvQueued += fresh;
      this.bytesReceived += fresh;
      this.onReadable?.();
      // merge out-of-order ranges now contiguous
      while (this.ooo.length > 0 && this.ooo[0]![0] <= this.rcvNxt) {
        const [, e] = this.ooo.shift()!;
        if (e > this.rcvNxt) {
          this.deliverInOrder(e - this.rcvNxt);
          this.rcvNxt = e;
        }
      }
      if (this.ooo.length > 0) outOfOrder = true;
    } else {
      outOfOrder = true;
      this.insertOoo(start, end);
    }
    this.unackedSegs += p.count;
    if (outOfOrder) this.pendingOoo = true;
    if (!last) return;
    outOfOrder = outOfOrder || this.pendingOoo;
    this.pendingOoo = false;
    // ACK policy (__tcp_ack_snd_check): immediately when ≥ 2 full segments are unacknowledged or data is
    // out of order; otherwise a delayed ACK. One ACK per GRO skb.
    if (outOfOrder || this.unackedSegs >= 2) {
      this.sendAck(Math.max(1, Math.min(skbs, this.unackedSegs)));
    } else this.delayAck();
    this.fin.afterData();
  }

  private deliverInOrder(bytes: number): void {
    this.rcvQueued += bytes;
    this.bytesReceived += bytes;
    this.onReadable?.();
  }

  private insertOoo(s: number, e: number): void {
    const r = this.ooo;
    let i = 0;
    while (i < r.length && r[i]![1] < s) i++;
    if (i < r.length && r[i]![0] <= e) {
      r[i]![0] = Math.min(r[i]![0], s);
      r[i]![1] = Math.max(r[i]![1], e);
      while (i + 1 < r.length && r[i + 1]![0] <= r[i]![1]) {
        r[i]![1] = Math.max(r[i]![1], r[i + 1]![1]);
        r.splice(i + 1, 1);
      }
    } else {
      r.splice(i, 0, [s, e]);
    }
  }

  /** Arm the delayed ACK unless it is armed. */
  delayAck(): void {
    if (!this.delackTimer.armed) this.delackTimer.armAt(this.sched.now + this.params.tcpDelAckNs);
  }

  /** A pending delayed ACK is dropped: what is sent now carries the ACK. */
  cancelDelayedAck(): void {
    if (this.delackTimer.armed) {
      this.delackTimer.stop();
      this.unackedSegs = 0;
    }
  }

  /** Send `count` ACK packets (a batch standing for one ACK per GRO skb); the last carries the state. */
  sendAck(count: number): void {
    this.delackTimer.stop();
    this.unackedSegs = 0;
    // a pure ACK's sequence number is snd_nxt (tcp_acceptable_seq): past the data and FIN sent
    const p = this.makePacket(count, 0, this.sndNxt, TCP_FLAG_ACK);
    if (this.ooo.length > 0) {
      const blocks: number[] = [];
      for (let i = this.ooo.length - 1; i >= 0 && blocks.length < 8; i--)
        blocks.push(this.ooo[i]![0], this.ooo[i]![1]);
      p.sack = blocks;
      p.sizeBytes += 4 + 8 * (blocks.length / 2); // SACK option
    }
    this.transmit(p);
  }

  info(): TcpInfo {
    return {
      sndCwndBytes: Math.floor(this.cwnd) * this.mss,
      sndCwndSegs: Math.floor(this.cwnd),
      ssthresh: this.ssthresh,
      srttUs: Math.round(this.srttNs / 1000),
      rttvarUs: Math.round(this.rttvarNs / 1000),
      minRttUs: Number.isFinite(this.minRttNs) ? Math.round(this.minRttNs / 1000) : 0,
      totalRetrans: this.totalRetransSegs,
      sndMss: this.mss,
      bytesAcked: this.sndUna,
      bytesReceived: this.bytesReceived,
      sndWnd: this.peerWindow,
      pmtu: this.mss + TCP_HDR,
    };
  }
}
