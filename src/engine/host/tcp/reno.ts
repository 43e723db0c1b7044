/**
 * Reno (Linux tcp_cong.c, tcp_reno_*): the fallback Linux always has. Slow start to ssthresh, then
 * one segment per RTT (tcp_cong_avoid_ai, cwnd += acked/cwnd on the fractional cwnd); ssthresh is
 * half the cwnd at a loss, at least 2. Sources: LINUX net/ipv4/tcp_cong.c. Design: docs/design.md, "TCP".
 */
import { type TcpCongestionOps, type TcpCongSocket, tcpSlowStart } from './cong';

export class Reno implements TcpCongestionOps {
  readonly name = 'reno';

  /** tcp_reno_ssthresh: max(cwnd / 2, 2). */
  ssthresh(tp: TcpCongSocket): number {
    return Math.max(tp.cwnd / 2, 2);
  }

  /** tcp_reno_cong_avoid: slow start below ssthresh, then additive increase. */
  congAvoid(tp: TcpCongSocket, acked: number, _now: number): void {
    if (tp.cwnd < tp.ssthresh) {
      acked = tcpSlowStart(tp, acked);
      if (acked <= 0) return;
    }
    tp.cwnd += acked / tp.cwnd;
  }

  pktsAcked(_tp: TcpCongSocket, _now: number): void {}
}
