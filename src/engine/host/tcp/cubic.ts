/**
 * CUBIC (Linux tcp_cubic.c, bictcp) with HyStart's ACK-train detection: β = 717/1024, C = 0.4,
 * fast convergence and the TCP-friendly region, on a fractional cwnd. HyStart's delay detection
 * is not modelled. Sources: LINUX net/ipv4/tcp_cubic.c. Design: docs/design.md, "TCP".
 */
import { storeAsDoubles } from '../../core/doubles';
import type { ParamValues } from '../../model/params';
import { type TcpCongestionOps, type TcpCongSocket, tcpSlowStart } from './cong';

const BETA = 717 / 1024;
const CUBIC_C = 0.4;

export class Cubic implements TcpCongestionOps {
  readonly name = 'cubic';
  private lastMaxCwnd = 0;
  private epochStartNs = 0;
  private originPoint = 0;
  private bicK = 0;
  private tcpCwndEst = 0;
  private ackCnt = 0;
  /** The last (t − K)³ with its t and K: the ACKs of one instant ask for the same, and pow is costly. */
  private cubeT = Number.NaN;
  private cubeK = Number.NaN;
  private cube = 0;
  // HyStart (hystart_detect ACK_TRAIN)
  private hyFound = false;
  private hyRoundStartNs = 0;
  private hyLastAckNs = 0;
  private hyEndSeq = 0;

  constructor(private readonly params: ParamValues) {
    // times and sequence numbers pass 2^31 mid-run, the rest are fractions (core/doubles.ts)
    storeAsDoubles(this, [
      'lastMaxCwnd',
      'epochStartNs',
      'originPoint',
      'bicK',
      'tcpCwndEst',
      'ackCnt',
      'cubeT',
      'cubeK',
      'cube',
      'hyRoundStartNs',
      'hyLastAckNs',
      'hyEndSeq',
    ]);
  }

  /**
   * cubictcp_recalc_ssthresh: a new epoch, fast convergence (a loss below the last maximum lowers
   * it further), ssthresh = β·cwnd. HyStart starts over with the next slow start.
   */
  ssthresh(tp: TcpCongSocket): number {
    this.epochStartNs = 0;
    this.hyFound = false;
    if (tp.cwnd < this.lastMaxCwnd)
      this.lastMaxCwnd = (tp.cwnd * (1 + BETA)) / 2; // fast convergence
    else this.lastMaxCwnd = tp.cwnd;
    return Math.max(tp.cwnd * BETA, 2);
  }

  /** bictcp_cong_avoid with a fractional cwnd. */
  congAvoid(tp: TcpCongSocket, acked: number, now: number): void {
    if (tp.cwnd < tp.ssthresh) {
      acked = tcpSlowStart(tp, acked);
      if (acked <= 0) return;
    }
    if (this.epochStartNs === 0) {
      this.epochStartNs = now;
      this.ackCnt = acked;
      this.tcpCwndEst = tp.cwnd;
      if (this.lastMaxCwnd <= tp.cwnd) {
        this.bicK = 0;
        this.originPoint = tp.cwnd;
      } else {
        this.bicK = Math.cbrt((this.lastMaxCwnd - tp.cwnd) / CUBIC_C);
        this.originPoint = this.lastMaxCwnd;
      }
    } else {
      this.ackCnt += acked;
    }
    const minRtt = Number.isFinite(tp.minRttNs) ? tp.minRttNs : 0;
    const t = (now - this.epochStartNs + minRtt) / 1e9;
    if (t !== this.cubeT || this.bicK !== this.cubeK) {
      this.cubeT = t;
      this.cubeK = this.bicK;
      this.cube = (t - this.bicK) ** 3;
    }
    const target = this.originPoint + CUBIC_C * this.cube;
    let cnt = target > tp.cwnd ? tp.cwnd / (target - tp.cwnd) : 100 * tp.cwnd;
    // TCP-friendly region: estimate Reno's cwnd and grow at least as fast
    const renoDelta = (3 * BETA) / (2 - BETA) / tp.cwnd; // segments per acked segment
    this.tcpCwndEst += acked * renoDelta;
    if (this.tcpCwndEst > tp.cwnd) {
      const maxCnt = tp.cwnd / (this.tcpCwndEst - tp.cwnd);
      if (cnt > maxCnt) cnt = maxCnt;
    }
    if (cnt < 2) cnt = 2; // cubic never more than 1.5× per RTT
    tp.cwnd += acked / cnt;
  }

  /** cubictcp_acked: HyStart while in slow start. */
  pktsAcked(tp: TcpCongSocket, now: number): void {
    if (tp.cwnd < tp.ssthresh) this.hystartUpdate(tp, now);
  }

  /**
   * hystart_update, ACK-train part (Linux ≥ 5.6): a new round starts when snd_una passes the end of
   * the previous one; ACKs closer than 2 ms apart extend the train; once the train is longer than
   * (delay_min + ack delay)/2 (no pacing), the pipe is full: ssthresh = cwnd ends slow start.
   * Only from cwnd ≥ 16 (hystart_low_window).
   */
  private hystartUpdate(tp: TcpCongSocket, now: number): void {
    if (this.hyFound || tp.cwnd < 16 || !Number.isFinite(tp.minRttNs)) return;
    if (tp.sndUna > this.hyEndSeq) {
      this.hyRoundStartNs = now;
      this.hyLastAckNs = now;
      this.hyEndSeq = tp.sndNxt;
      return;
    }
    if (now - this.hyLastAckNs <= 2_000_000) {
      this.hyLastAckNs = now;
      const pacing = tp.pacingRateBytesPerSec();
      const ackDelay = Number.isFinite(pacing)
        ? Math.min(1_000_000, ((this.params.gsoMaxBytes * 4) / pacing) * 1e9)
        : 0;
      const threshold = (tp.minRttNs + ackDelay) / 2;
      if (now - this.hyRoundStartNs > threshold) {
        this.hyFound = true;
        tp.ssthresh = tp.cwnd;
      }
    }
  }
}
