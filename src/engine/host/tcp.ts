/**
 * A Linux-like TCP endpoint: one direction of bulk data with its ACK stream. Sender: CUBIC with
 * HyStart's ACK-train detection, SACK with RACK, Tail Loss Probe, fast retransmit, RTO with backoff,
 * the receive window, TCP Small Queues and a growing send buffer. Receiver: cumulative ACKs with up
 * to 4 SACK blocks, delayed ACKs, a receive buffer the application drains. Close: FIN exchange.
 * Data leaves in batches of equal segments (a GSO super-packet); sequence numbers are byte offsets
 * from 0.
 *
 * Sources: LINUX net/ipv4 (tcp_cubic.c, tcp_recovery.c, tcp_output.c, tcp_input.c), RFC 793.
 * The behaviour in detail and its simplifications: docs/design.md, "TCP".
 */
import { storeAsDoubles } from '../core/doubles';
import { Probe } from '../core/probe';
import type { Scheduler } from '../core/scheduler';
import { Timer } from '../core/scheduler';
import {
  cloneBatch,
  IPV4_HEADER_BYTES,
  type Flow,
  newBatch,
  type Packet,
  TCP_FLAG_ACK,
  TCP_FLAG_FIN,
  TCP_FLAG_SYN,
  TCP_HEADER_BYTES,
  TCP_TIMESTAMP_OPTION_BYTES,
} from '../model/packet';
import type { ParamValues } from '../params';
import type { Vcpu } from './cpu';

const BETA = 717 / 1024;
const CUBIC_C = 0.4;
/** LINUX net.ipv4.tcp_reordering default (tp->reordering of a new socket). */
const TCP_REORDERING = 3;
const TCP_HDR = IPV4_HEADER_BYTES + TCP_HEADER_BYTES + TCP_TIMESTAMP_OPTION_BYTES; // 52

interface Seg {
  start: number;
  end: number;
  segs: number;
  sentNs: number;
  retrans: boolean;
  sacked: boolean;
  lost: boolean;
  /** Lost and not yet retransmitted. */
  pendingRetrans: boolean;
}

/** A scoreboard entry for segments just sent (every entry is made here: one shape). */
function newSeg(start: number, end: number, segs: number, sentNs: number): Seg {
  return { start, end, segs, sentNs, retrans: false, sacked: false, lost: false, pendingRetrans: false };
}
// sequence numbers and times pass 2^31 mid-run (core/doubles.ts)
storeAsDoubles(newSeg(0, 0, 1, 0), ['start', 'end', 'sentNs']);

/** Fields of TcpEndpoint holding sequence numbers, byte counts, times or fractions (core/doubles.ts). */
const DOUBLE_FIELDS = [
  'sndUna',
  'sndNxt',
  'writeSeq',
  'finSeq',
  'peerFinSeq',
  'cwnd',
  'sackedBytes',
  'lostBytes',
  'recoveryPoint',
  'srttNs',
  'rttvarNs',
  'rtoNs',
  'tsqBytes',
  'rackXmitNs',
  'lastMaxCwnd',
  'epochStartNs',
  'originPoint',
  'bicK',
  'tcpCwndEst',
  'ackCnt',
  'hyRoundStartNs',
  'hyLastAckNs',
  'hyEndSeq',
  'rcvNxt',
  'rcvQueued',
  'bytesReceived',
  'rxReadAccBytes',
] as const;

export interface TcpHostHooks {
  /** Put a packet on the wire path of this host (qdisc → ring), after CPU cost on `vcpu`. */
  transmit(p: Packet): void;
  /** The vCPU the application thread of this socket runs on. */
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

  // ---- close (FIN)
  /** The application closed the socket: a FIN follows the data written. */
  private finPending = false;
  /** Sequence number of our FIN (the byte count written at close), -1 before close(). */
  finSeq = -1;
  /** Our FIN has been sent (sndNxt is past it). */
  finSent = false;
  /** The peer's FIN: its sequence number once seen (-1 before), and whether it was taken in order. */
  private peerFinSeq = -1;
  peerFinReceived = false;
  /** close() before the handshake completed: the socket is gone, nothing more is sent. */
  aborted = false;
  /** Both FINs exchanged and ours acknowledged. */
  closed = false;
  /** Called once when the peer's FIN is taken in order (the application reads EOF). */
  onPeerFin: (() => void) | null = null;

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
  private scoreboard: Seg[] = [];
  /** Entries retired by cumulative ACKs, for sendNew to reuse. */
  private readonly segPool: Seg[] = [];
  private sbHead = 0;
  private sackedBytes = 0;
  private lostBytes = 0;
  private inRecovery = false;
  private recoveryPoint = 0;
  srttNs = 0;
  rttvarNs = 0;
  minRttNs = Number.POSITIVE_INFINITY;
  private rtoNs: number;
  private backoff = 0;
  private readonly rtoTimer: Timer;
  private readonly ptoTimer: Timer;
  totalRetransSegs = 0;
  /** Bytes handed to the host and not yet TX-completed (TCP Small Queues). */
  tsqBytes = 0;
  peerWindow: number;
  private rackXmitNs = 0;
  // cubic
  private lastMaxCwnd = 0;
  private epochStartNs = 0;
  private originPoint = 0;
  private bicK = 0;
  private tcpCwndEst = 0;
  private ackCnt = 0;
  // HyStart (tcp_cubic.c, hystart_detect ACK_TRAIN)
  private hyFound = false;
  private hyRoundStartNs = 0;
  private hyLastAckNs = 0;
  private hyEndSeq = 0;
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
    private readonly hooks: TcpHostHooks,
    opts: {
      mss: number;
      /** SO_SNDBUF bytes, or 'auto': tcp_wmem[1] grown by tcp_sndbuf_expand. */
      sndbufBytes: number | 'auto';
      rcvbufBytes: number;
      maxBatchSegs: number;
      nodelay?: boolean;
    },
  ) {
    this.nodelay = opts.nodelay ?? false;
    this.flow = flow;
    this.mss = opts.mss;
    this.sndbufAuto = opts.sndbufBytes === 'auto';
    this.sndbufBytes = opts.sndbufBytes === 'auto' ? params.tcpWmemDefault : opts.sndbufBytes;
    this.rcvbufBytes = opts.rcvbufBytes;
    this.maxBatchSegs = opts.maxBatchSegs;
    this.cwnd = params.tcpInitCwnd;
    this.rtoNs = 1_000_000_000; // RFC 6298 initial RTO 1 s
    this.peerWindow = 65535;
    this.rtoTimer = new Timer(sched, () => this.onRto());
    this.ptoTimer = new Timer(sched, () => this.onPto());
    this.delackTimer = new Timer(sched, () => this.sendAck(1));
    storeAsDoubles(this, DOUBLE_FIELDS);
  }

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
    this.rtoTimer.armAt(this.sched.now + this.rtoNs);
  }

  private transmitControl(flags: number): void {
    const p = this.makePacket(1, 0, 0, flags);
    p.sizeBytes = IPV4_HEADER_BYTES + TCP_HEADER_BYTES + 20; // SYN options: MSS, SACK-perm, TS, WS
    this.hooks.transmit(p);
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
    if (this.finPending || this.aborted) return;
    if (!this.established) {
      this.aborted = true;
      this.connecting = false;
      this.rtoTimer.stop();
      this.ptoTimer.stop();
      this.delackTimer.stop();
      return;
    }
    this.finPending = true;
    this.finSeq = this.writeSeq;
    this.trySend();
  }

  /** The FIN leaves once everything written before it has been sent. */
  private sendFin(): void {
    this.finSent = true;
    this.sndNxt = this.finSeq + 1;
    // the FIN carries the ACK of what we received (a pending delayed ACK rides on it)
    if (this.delackTimer.armed) {
      this.delackTimer.stop();
      this.unackedSegs = 0;
    }
    this.transmitFin();
    if (!this.rtoTimer.armed) this.rtoTimer.armAt(this.sched.now + this.currentRto());
  }

  private transmitFin(): void {
    this.hooks.transmit(this.makePacket(1, 0, this.finSeq, TCP_FLAG_FIN | TCP_FLAG_ACK));
  }

  /** A FIN arrived (its ACK part already taken by onAck). */
  onFin(p: Packet): void {
    if (this.aborted) return;
    if (this.peerFinSeq < 0) this.peerFinSeq = p.seq;
    if (!this.peerFinReceived && this.rcvNxt === this.peerFinSeq) this.takeFin();
    else this.sendAck(1); // a retransmitted FIN (our ACK was lost), or one ahead of missing data
  }

  /** tcp_fin: the peer's FIN in order. */
  private takeFin(): void {
    this.peerFinReceived = true;
    this.rcvNxt += 1;
    if (this.finSent) {
      // FIN_WAIT → TIME_WAIT (or CLOSING): ACK at once
      this.sendAck(1);
      this.checkClosed();
      return;
    }
    // CLOSE_WAIT: the application reads EOF; a prompt close() sends a FIN carrying the ACK,
    // otherwise a delayed ACK (Linux enters pingpong mode on a FIN)
    this.onPeerFin?.();
    if (!this.finSent && !this.delackTimer.armed)
      this.delackTimer.armAt(this.sched.now + this.params.tcpDelAckNs);
  }

  private checkClosed(): void {
    if (this.closed || !this.finSent || this.sndUna <= this.finSeq || !this.peerFinReceived) return;
    this.closed = true;
    this.rtoTimer.stop();
    this.ptoTimer.stop();
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
    return this.sndNxt - this.sndUna - this.sackedBytes - this.lostBytes;
  }

  private tsqLimit(): number {
    // tcp_small_queue_check: max(2 skbs, ~1 ms at the pacing rate), capped by tcp_limit_output_bytes.
    // Asked on every send and TX completion, it changes only with cwnd, ssthresh, srtt and the MSS:
    // the last result is kept with what it was computed from.
    const m = this.tsqMemo;
    if (
      this.cwnd === m.cwnd &&
      this.srttNs === m.srttNs &&
      this.ssthresh === m.ssthresh &&
      this.mss === m.mss
    )
      return m.limit;
    const pacing = this.pacingRateBytesPerSec();
    const ms = Number.isFinite(pacing) ? pacing / 1000 : this.params.tcpLimitOutputBytes;
    m.cwnd = this.cwnd;
    m.srttNs = this.srttNs;
    m.ssthresh = this.ssthresh;
    m.mss = this.mss;
    m.limit = Math.min(this.params.tcpLimitOutputBytes, Math.max(2 * this.params.gsoMaxBytes, ms));
    return m.limit;
  }

  private readonly tsqMemo = { cwnd: Number.NaN, srttNs: 0, ssthresh: 0, mss: 0, limit: 0 };

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
    for (let guard = 0; guard < 10_000; guard++) {
      if (this.tsqBytes >= this.tsqLimit()) return; // throttled until TX completion
      const room = window - this.pipeBytes();
      if (room < this.mss && window === Math.floor(this.cwnd) * this.mss) this.cwndLimited = true;
      // 1. retransmit lost segments first
      if (this.lostBytes > 0) {
        const idx = this.firstPendingRetrans();
        if (idx >= 0) {
          const seg = this.scoreboard[idx]!;
          if (room < this.mss) return;
          const maxSegs = Math.max(1, Math.min(this.maxBatchSegs, Math.floor(room / this.mss)));
          if (seg.segs > maxSegs) this.splitSeg(idx, seg.start + maxSegs * this.segPayload(seg));
          this.retransmit(seg);
          continue;
        }
      }
      // 2. new data
      const avail = this.writeSeq - this.sndNxt;
      if (avail <= 0) {
        if (this.finPending && !this.finSent && this.sndNxt === this.finSeq) this.sendFin();
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

  private segPayload(s: Seg): number {
    return (s.end - s.start) / s.segs;
  }

  private sendNew(segs: number, payload: number): void {
    const start = this.sndNxt;
    const end = start + segs * payload;
    // an entry retired by a cumulative ACK is reused: no allocation per segment sent
    const seg = this.segPool.pop();
    if (seg === undefined) this.scoreboard.push(newSeg(start, end, segs, this.sched.now));
    else {
      seg.start = start;
      seg.end = end;
      seg.segs = segs;
      seg.sentNs = this.sched.now;
      seg.retrans = false;
      seg.sacked = false;
      seg.lost = false;
      seg.pendingRetrans = false;
      this.scoreboard.push(seg);
    }
    this.sndNxt = end;
    // data carries the ACK of what we received: no separate delayed ACK (tcp_event_ack_sent)
    if (this.delackTimer.armed) {
      this.delackTimer.stop();
      this.unackedSegs = 0;
    }
    const p = this.makePacket(segs, payload, start, TCP_FLAG_ACK);
    this.tsqBytes += segs * payload;
    this.hooks.transmit(p);
    if (!this.rtoTimer.armed) this.rtoTimer.armAt(this.sched.now + this.currentRto());
    this.armPto();
  }

  /** tcp_schedule_loss_probe: PTO = 2·SRTT + 2 ms (+ RTO_MIN with one segment out), never after the RTO. */
  private armPto(): void {
    if (this.inRecovery || this.srttNs <= 0 || this.sndUna >= this.sndNxt) return;
    const outSegs = (this.sndNxt - this.sndUna) / this.mss;
    const pto = 2 * this.srttNs + (outSegs <= 1 ? this.params.tcpRtoMinNs : 2_000_000);
    const at = Math.min(this.sched.now + pto, this.rtoTimer.expiresAtNs);
    this.ptoTimer.armAt(at);
  }

  /** tcp_send_loss_probe: new data if the window allows, else the last segment again. */
  private onPto(): void {
    if (this.inRecovery || this.sndUna >= this.sndNxt) return;
    const avail = this.writeSeq - this.sndNxt;
    if (avail >= this.mss && this.peerWindow - (this.sndNxt - this.sndUna) >= this.mss) {
      this.sendNew(1, this.mss);
      return;
    }
    // re-send the highest outstanding segment
    for (let j = this.scoreboard.length - 1; j >= this.sbHead; j--) {
      const s = this.scoreboard[j]!;
      if (s.sacked) continue;
      const per = this.segPayload(s);
      if (s.segs > 1) {
        this.splitSeg(j, s.end - per);
        const tail = this.scoreboard[j + 1]!;
        this.probe(tail);
      } else this.probe(s);
      return;
    }
  }

  private probe(seg: Seg): void {
    if (seg.pendingRetrans) {
      seg.pendingRetrans = false;
      this.lostBytes -= seg.end - seg.start;
    }
    seg.retrans = true;
    seg.sentNs = this.sched.now;
    this.totalRetransSegs += seg.segs;
    const p = this.makePacket(seg.segs, this.segPayload(seg), seg.start, TCP_FLAG_ACK);
    this.tsqBytes += seg.end - seg.start;
    this.hooks.transmit(p);
  }

  private retransmit(seg: Seg): void {
    seg.pendingRetrans = false;
    seg.retrans = true;
    seg.sentNs = this.sched.now;
    this.lostBytes -= seg.end - seg.start;
    this.totalRetransSegs += seg.segs;
    const payload = this.segPayload(seg);
    const p = this.makePacket(seg.segs, payload, seg.start, TCP_FLAG_ACK);
    this.tsqBytes += seg.end - seg.start;
    this.hooks.transmit(p);
    if (!this.rtoTimer.armed) this.rtoTimer.armAt(this.sched.now + this.currentRto());
  }

  /** Index of the first scoreboard entry waiting for retransmission, or -1. */
  private firstPendingRetrans(): number {
    const sb = this.scoreboard;
    for (let i = this.sbHead; i < sb.length; i++) {
      if (sb[i]!.pendingRetrans) return i;
    }
    return -1;
  }

  private makePacket(count: number, payload: number, seq: number, flags: number): Packet {
    const now = this.sched.now;
    return newBatch(
      this.flow,
      count,
      payload + TCP_HDR,
      payload,
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

  private currentRto(): number {
    const base = this.srttNs > 0 ? this.srttNs + Math.max(4 * this.rttvarNs, 200_000) : this.rtoNs;
    const rto = Math.max(this.params.tcpRtoMinNs, base);
    // × 2^0 is the identity: no power to compute for a connection that has not backed off
    return Math.min(120e9, this.backoff === 0 ? rto : rto * 2 ** this.backoff);
  }

  /** Split scoreboard entry `idx` at byte `at` (segment-aligned); the entry keeps the front part. */
  private splitSeg(idx: number, at: number): void {
    const s = this.scoreboard[idx]!;
    const per = this.segPayload(s);
    const frontSegs = Math.round((at - s.start) / per);
    if (frontSegs <= 0 || frontSegs >= s.segs) return;
    const back = newSeg(at, s.end, s.segs - frontSegs, s.sentNs);
    back.retrans = s.retrans;
    back.sacked = s.sacked;
    back.lost = s.lost;
    back.pendingRetrans = s.pendingRetrans;
    s.end = at;
    s.segs = frontSegs;
    this.scoreboard.splice(idx + 1, 0, back);
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
        this.rtoTimer.stop();
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
    let ackedBytes = 0;
    let newestAckedSent = -1;
    let rttSampleNs = -1;
    // cumulative ACK
    if (ack > this.sndUna) {
      while (this.sbHead < this.scoreboard.length) {
        const s = this.scoreboard[this.sbHead]!;
        if (s.end <= ack) {
          if (s.sacked) this.sackedBytes -= s.end - s.start;
          else {
            ackedBytes += s.end - s.start;
            if (s.pendingRetrans) this.lostBytes -= s.end - s.start;
            if (!s.retrans) rttSampleNs = now - s.sentNs;
          }
          newestAckedSent = Math.max(newestAckedSent, s.sentNs);
          this.scoreboard[this.sbHead++] = undefined as unknown as Seg;
          this.segPool.push(s);
        } else if (s.start < ack) {
          // The ACK covers the front of this entry: account for the front as acked and keep the rest
          // in place. Same result as splitting at `ack` and removing the front part, without the
          // splice (O(scoreboard)) and the extra entry.
          const frontSegs = Math.round((ack - s.start) / this.segPayload(s));
          if (frontSegs <= 0 || frontSegs >= s.segs) {
            this.splitSeg(this.sbHead, ack);
            continue;
          }
          const bytes = ack - s.start;
          if (s.sacked) this.sackedBytes -= bytes;
          else {
            ackedBytes += bytes;
            if (s.pendingRetrans) this.lostBytes -= bytes;
            if (!s.retrans) rttSampleNs = now - s.sentNs;
          }
          newestAckedSent = Math.max(newestAckedSent, s.sentNs);
          s.start = ack;
          s.segs -= frontSegs;
          break;
        } else break;
      }
      if (this.sbHead > 1024 && this.sbHead * 2 > this.scoreboard.length) {
        this.scoreboard = this.scoreboard.slice(this.sbHead);
        this.sbHead = 0;
      }
      this.sndUna = ack;
      this.backoff = 0;
      if (this.finSent) this.checkClosed();
    }
    // SACK blocks
    if (p.sack) {
      for (let i = 0; i < p.sack.length; i += 2) {
        const bs = p.sack[i]!;
        const be = p.sack[i + 1]!;
        for (let j = this.sbHead; j < this.scoreboard.length; j++) {
          const s = this.scoreboard[j]!;
          if (s.start >= be) break;
          if (s.end <= bs || s.sacked) continue;
          if (s.start < bs) {
            this.splitSeg(j, bs);
            continue;
          }
          if (s.end > be) this.splitSeg(j, be);
          s.sacked = true;
          this.sackedBytes += s.end - s.start;
          ackedBytes += s.end - s.start;
          if (s.pendingRetrans) {
            s.pendingRetrans = false;
            this.lostBytes -= s.end - s.start;
          }
          newestAckedSent = Math.max(newestAckedSent, s.sentNs);
          if (!s.retrans) rttSampleNs = Math.max(rttSampleNs, now - s.sentNs);
        }
      }
    }
    if (rttSampleNs > 0) this.rttSample(rttSampleNs);
    if (newestAckedSent > this.rackXmitNs) this.rackXmitNs = newestAckedSent;
    // RACK: anything sent before the newest delivered segment, beyond the reordering window, is lost
    const reoWnd = Number.isFinite(this.minRttNs) ? this.minRttNs / 4 : 0;
    let newLoss = false;
    // Without a hole (SACKed data) or a recovery in progress nothing can be marked lost: skip the scan.
    if (this.sackedBytes > 0 || this.inRecovery) {
      const threshold = this.rackXmitNs - reoWnd;
      for (let j = this.sbHead; j < this.scoreboard.length; j++) {
        const s = this.scoreboard[j]!;
        if (!s.sacked && !s.pendingRetrans && s.sentNs < threshold) {
          s.pendingRetrans = true;
          s.lost = true;
          this.lostBytes += s.end - s.start;
          newLoss = true;
        }
      }
    }
    if (newLoss && !this.inRecovery) this.enterRecovery();
    if (this.inRecovery && this.sndUna >= this.recoveryPoint) this.inRecovery = false;
    const ackedSegs = ackedBytes / this.mss;
    // tcp_cong_avoid only when cwnd-limited (tcp_is_cwnd_limited; in slow start also while cwnd < 2 × in flight)
    const inFlightSegs = (this.sndNxt - this.sndUna) / this.mss;
    const limited = this.cwndLimited || (this.cwnd < this.ssthresh && this.cwnd < 2 * inFlightSegs);
    if (this.cwnd < this.ssthresh && ackedBytes > 0) this.hystartUpdate(now);
    if (!this.inRecovery && ackedSegs > 0 && limited) this.congAvoid(ackedSegs, now);
    this.cwndLimited = false;
    // RTO management
    if (this.sndUna >= this.sndNxt) {
      this.rtoTimer.stop();
      this.ptoTimer.stop();
    } else if (ack > 0 && ackedBytes > 0) {
      this.rtoTimer.armAt(now + this.currentRto());
      this.armPto();
    }
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

  /**
   * hystart_update, ACK-train part (Linux ≥ 5.6): a new round starts when snd_una passes the end of
   * the previous one; ACKs closer than 2 ms apart extend the train; once the train is longer than
   * (delay_min + ack delay)/2 (no pacing), the pipe is full: ssthresh = cwnd ends slow start.
   * Only from cwnd ≥ 16 (hystart_low_window).
   */
  private hystartUpdate(now: number): void {
    if (this.hyFound || this.cwnd < 16 || !Number.isFinite(this.minRttNs)) return;
    if (this.sndUna > this.hyEndSeq) {
      this.hyRoundStartNs = now;
      this.hyLastAckNs = now;
      this.hyEndSeq = this.sndNxt;
      return;
    }
    if (now - this.hyLastAckNs <= 2_000_000) {
      this.hyLastAckNs = now;
      const pacing = this.pacingRateBytesPerSec();
      const ackDelay = Number.isFinite(pacing)
        ? Math.min(1_000_000, ((this.params.gsoMaxBytes * 4) / pacing) * 1e9)
        : 0;
      const threshold = (this.minRttNs + ackDelay) / 2;
      if (now - this.hyRoundStartNs > threshold) {
        this.hyFound = true;
        this.ssthresh = this.cwnd;
      }
    }
  }

  private enterRecovery(): void {
    this.inRecovery = true;
    this.recoveryPoint = this.sndNxt;
    this.cubicOnLoss();
    this.cwnd = this.ssthresh;
  }

  private cubicOnLoss(): void {
    this.epochStartNs = 0;
    this.hyFound = false;
    if (this.cwnd < this.lastMaxCwnd)
      this.lastMaxCwnd = (this.cwnd * (1 + BETA)) / 2; // fast convergence
    else this.lastMaxCwnd = this.cwnd;
    this.ssthresh = Math.max(this.cwnd * BETA, 2);
  }

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
      this.rtoTimer.armAt(this.sched.now + this.rtoNs * 2 ** this.synRetries);
      return;
    }
    if (this.sndUna >= this.sndNxt) return;
    this.cubicOnLoss();
    this.cwnd = 1;
    this.inRecovery = false;
    this.backoff = Math.min(this.backoff + 1, 15);
    for (let j = this.sbHead; j < this.scoreboard.length; j++) {
      const s = this.scoreboard[j]!;
      if (!s.sacked && !s.pendingRetrans) {
        s.pendingRetrans = true;
        s.lost = true;
        this.lostBytes += s.end - s.start;
      }
    }
    this.rtoTimer.armAt(this.sched.now + this.currentRto());
    this.trySend();
    // only the FIN is outstanding: send it again
    if (this.finSent && this.sndUna === this.finSeq) this.transmitFin();
  }

  /** Linux bictcp_cong_avoid with float cwnd. */
  private congAvoid(acked: number, now: number): void {
    if (this.cwnd < this.ssthresh) {
      const room = this.ssthresh - this.cwnd;
      const inc = Math.min(acked, room);
      this.cwnd += inc;
      acked -= inc;
      if (acked <= 0) return;
    }
    if (this.epochStartNs === 0) {
      this.epochStartNs = now;
      this.ackCnt = acked;
      this.tcpCwndEst = this.cwnd;
      if (this.lastMaxCwnd <= this.cwnd) {
        this.bicK = 0;
        this.originPoint = this.cwnd;
      } else {
        this.bicK = Math.cbrt((this.lastMaxCwnd - this.cwnd) / CUBIC_C);
        this.originPoint = this.lastMaxCwnd;
      }
    } else {
      this.ackCnt += acked;
    }
    const minRtt = Number.isFinite(this.minRttNs) ? this.minRttNs : 0;
    const t = (now - this.epochStartNs + minRtt) / 1e9;
    const target = this.originPoint + CUBIC_C * (t - this.bicK) ** 3;
    let cnt = target > this.cwnd ? this.cwnd / (target - this.cwnd) : 100 * this.cwnd;
    // TCP-friendly region: estimate Reno's cwnd and grow at least as fast
    const renoDelta = (3 * BETA) / (2 - BETA) / this.cwnd; // segments per acked segment
    this.tcpCwndEst += acked * renoDelta;
    if (this.tcpCwndEst > this.cwnd) {
      const maxCnt = this.cwnd / (this.tcpCwndEst - this.cwnd);
      if (cnt > maxCnt) cnt = maxCnt;
    }
    if (cnt < 2) cnt = 2; // cubic never more than 1.5× per RTT
    this.cwnd += acked / cnt;
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
      this.hooks.transmit(synack);
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
      this.deliverInOrder(fresh);
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
    } else if (!this.delackTimer.armed) {
      this.delackTimer.armAt(this.sched.now + this.params.tcpDelAckNs);
    }
    // a FIN that arrived ahead of missing data is taken once the data is in
    if (!this.peerFinReceived && this.peerFinSeq >= 0 && this.rcvNxt === this.peerFinSeq) this.takeFin();
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

  /** Send `count` ACK packets (a batch standing for one ACK per GRO skb); the last carries the state. */
  private sendAck(count: number): void {
    this.delackTimer.stop();
    this.unackedSegs = 0;
    const p = this.makePacket(count, 0, 0, TCP_FLAG_ACK);
    if (this.ooo.length > 0) {
      const blocks: number[] = [];
      for (let i = this.ooo.length - 1; i >= 0 && blocks.length < 8; i--)
        blocks.push(this.ooo[i]![0], this.ooo[i]![1]);
      p.sack = blocks;
      p.sizeBytes += 4 + 8 * (blocks.length / 2); // SACK option
    }
    this.hooks.transmit(p);
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
