/**
 * The sender's loss recovery: RACK loss detection (a segment is lost when something sent after it
 * was delivered, beyond a reordering window of min_rtt/4), fast recovery until the recovery point
 * is acknowledged, the Tail Loss Probe (PTO = 2·SRTT + 2 ms: new data, or the last segment again)
 * and the retransmission timeout with exponential backoff (tcp_enter_loss: cwnd 1, everything not
 * SACKed lost). Sources: LINUX net/ipv4/tcp_recovery.c, tcp_timer.c, tcp_output.c
 * (tcp_schedule_loss_probe, tcp_send_loss_probe), RFC 6298. Design: docs/design.md, "TCP".
 */
import { storeAsDoubles } from '../../core/doubles';
import type { Scheduler } from '../../core/scheduler';
import { Timer } from '../../core/scheduler';
import type { ParamValues } from '../../model/params';
import type { TcpCongestionOps, TcpCongSocket } from './cong';
import type { Scoreboard } from './scoreboard';

/** What loss recovery needs of its socket. */
export interface LossSocket extends TcpCongSocket {
  readonly srttNs: number;
  readonly rttvarNs: number;
  readonly writeSeq: number;
  readonly peerWindow: number;
  readonly sb: Scoreboard;
  readonly ca: TcpCongestionOps;
  /** Send `segs` new segments of `payload` bytes. */
  sendNew(segs: number, payload: number): void;
  /** Send scoreboard entry `i` again (tcp_retransmit_skb). */
  transmitSeg(i: number): void;
  /** Send what the windows allow (tcp_write_xmit, retransmissions first). */
  trySend(): void;
}

export class LossRecovery {
  inRecovery = false;
  /** snd_nxt when recovery began: recovery ends once it is acknowledged. */
  private recoveryPoint = 0;
  /** RACK: the latest send time among the segments delivered so far. */
  private rackXmitNs = 0;
  /** The RTO before any RTT sample (RFC 6298: 1 s), ns. */
  readonly initialRtoNs = 1_000_000_000;
  backoff = 0;
  readonly rtoTimer: Timer;
  readonly ptoTimer: Timer;

  constructor(
    private readonly sched: Scheduler,
    private readonly params: ParamValues,
    private readonly sk: LossSocket,
    onRtoTimer: () => void,
  ) {
    this.rtoTimer = new Timer(sched, onRtoTimer);
    this.ptoTimer = new Timer(sched, () => this.onPto());
    storeAsDoubles(this, ['recoveryPoint', 'rackXmitNs']); // sequence numbers, times (core/doubles.ts)
  }

  /**
   * After an ACK has been taken into the scoreboard: RACK marks what it shows lost, fast recovery
   * starts on a new loss and ends once the recovery point is acknowledged.
   */
  onAck(deliveredSentNs: number): void {
    const sk = this.sk;
    if (deliveredSentNs > this.rackXmitNs) this.rackXmitNs = deliveredSentNs;
    const reoWnd = Number.isFinite(sk.minRttNs) ? sk.minRttNs / 4 : 0;
    let newLoss = false;
    // Without a hole (SACKed data) or a recovery in progress nothing can be marked lost: skip the scan.
    if (sk.sb.sackedBytes > 0 || this.inRecovery)
      newLoss = sk.sb.markLostSentBefore(this.rackXmitNs - reoWnd);
    if (newLoss && !this.inRecovery) this.enterRecovery();
    if (this.inRecovery && sk.sndUna >= this.recoveryPoint) this.inRecovery = false;
  }

  /** tcp_enter_recovery: ssthresh from the congestion control, cwnd down to it. */
  private enterRecovery(): void {
    const sk = this.sk;
    this.inRecovery = true;
    this.recoveryPoint = sk.sndNxt;
    sk.ssthresh = sk.ca.ssthresh(sk);
    sk.cwnd = sk.ssthresh;
  }

  /** The RTO: SRTT + max(4·RTTVAR, 200 µs), at least tcp_rto_min, doubled per backoff, at most 120 s. */
  currentRto(): number {
    const sk = this.sk;
    const base = sk.srttNs > 0 ? sk.srttNs + Math.max(4 * sk.rttvarNs, 200_000) : this.initialRtoNs;
    const rto = Math.max(this.params.tcpRtoMinNs, base);
    // × 2^0 is the identity: no power to compute for a connection that has not backed off
    return Math.min(120e9, this.backoff === 0 ? rto : rto * 2 ** this.backoff);
  }

  /** Arm the RTO unless it is armed. */
  armRtoIfIdle(): void {
    if (!this.rtoTimer.armed) this.rtoTimer.armAt(this.sched.now + this.currentRto());
  }

  /** An ACK acknowledged data: restart the RTO and the loss probe; nothing outstanding stops both. */
  restartTimers(ackedData: boolean): void {
    const sk = this.sk;
    if (sk.sndUna >= sk.sndNxt) {
      this.rtoTimer.stop();
      this.ptoTimer.stop();
    } else if (ackedData) {
      this.rtoTimer.armAt(this.sched.now + this.currentRto());
      this.armPto();
    }
  }

  stopTimers(): void {
    this.rtoTimer.stop();
    this.ptoTimer.stop();
  }

  /** tcp_schedule_loss_probe: PTO = 2·SRTT + 2 ms (+ RTO_MIN with one segment out), never after the RTO. */
  armPto(): void {
    const sk = this.sk;
    if (this.inRecovery || sk.srttNs <= 0 || sk.sndUna >= sk.sndNxt) return;
    const outSegs = (sk.sndNxt - sk.sndUna) / sk.mss;
    const pto = 2 * sk.srttNs + (outSegs <= 1 ? this.params.tcpRtoMinNs : 2_000_000);
    const at = Math.min(this.sched.now + pto, this.rtoTimer.expiresAtNs);
    if (!this.ptoTimer.armedFor(at)) this.ptoTimer.armAt(at);
  }

  /** tcp_send_loss_probe: new data if the window allows, else the last segment again. */
  private onPto(): void {
    const sk = this.sk;
    if (this.inRecovery || sk.sndUna >= sk.sndNxt) return;
    const avail = sk.writeSeq - sk.sndNxt;
    if (avail >= sk.mss && sk.peerWindow - (sk.sndNxt - sk.sndUna) >= sk.mss) {
      sk.sendNew(1, sk.mss);
      return;
    }
    const i = sk.sb.lastUnsackedSegment();
    if (i >= 0) sk.transmitSeg(i);
  }

  /**
   * tcp_retransmit_timer for data: tcp_enter_loss (ssthresh from the congestion control, cwnd 1,
   * everything not SACKed lost), back off and re-arm, then retransmit. False when nothing is
   * outstanding.
   */
  retransmitTimer(): boolean {
    const sk = this.sk;
    if (sk.sndUna >= sk.sndNxt) return false;
    sk.ssthresh = sk.ca.ssthresh(sk);
    sk.cwnd = 1;
    this.inRecovery = false;
    this.backoff = Math.min(this.backoff + 1, 15);
    sk.sb.markAllLost();
    this.rtoTimer.armAt(this.sched.now + this.currentRto());
    sk.trySend();
    return true;
  }
}
