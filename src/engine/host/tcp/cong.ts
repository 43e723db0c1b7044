/**
 * TCP congestion control behind one interface, as Linux's `struct tcp_congestion_ops`
 * (include/net/tcp.h, net/ipv4/tcp_cong.c): the socket calls `pktsAcked` for every ACK that
 * acknowledges data, `congAvoid` to grow cwnd when it is cwnd-limited and not in recovery, and
 * `ssthresh` on a loss (fast recovery or RTO). Algorithms are chosen by name per socket
 * (TCP_CONGESTION; the instances: algorithms.ts); `cubic` is Linux's default, `reno` its built-in
 * fallback.
 * Sources: LINUX net/ipv4/tcp_cong.c, tcp_cubic.c. Design: docs/design.md, "TCP".
 */

/** What a congestion-control algorithm reads and writes on its socket (a part of `struct tcp_sock`). */
export interface TcpCongSocket {
  /** snd_cwnd in segments (fractional: the model keeps Linux's snd_cwnd_cnt as the fraction). */
  cwnd: number;
  ssthresh: number;
  readonly sndUna: number;
  readonly sndNxt: number;
  readonly mss: number;
  /** Minimum RTT seen, ns (Infinity before the first sample). */
  readonly minRttNs: number;
  /** sk_pacing_rate, bytes/s (Infinity before the first RTT sample). */
  pacingRateBytesPerSec(): number;
}

/** One socket's instance of an algorithm (its ops with the private state Linux keeps in icsk_ca_priv). */
export interface TcpCongestionOps {
  readonly name: string;
  /** The slow-start threshold after a loss, in segments; the algorithm notes the loss in its own state. */
  ssthresh(tp: TcpCongSocket): number;
  /** Grow cwnd for `acked` segments newly acknowledged at `nowNs` (slow start, then the algorithm's law). */
  congAvoid(tp: TcpCongSocket, acked: number, nowNs: number): void;
  /** An ACK acknowledged data at `nowNs` (HyStart runs here, as in cubictcp_acked). */
  pktsAcked(tp: TcpCongSocket, nowNs: number): void;
}

/** tcp_available_congestion_control: the algorithms a socket may ask for, Linux's default first. */
export const TCP_CONGESTION_ALGORITHMS = ['cubic', 'reno'] as const;
export type TcpCongestionName = (typeof TCP_CONGESTION_ALGORITHMS)[number];

export function isTcpCongestionName(name: string): name is TcpCongestionName {
  return (TCP_CONGESTION_ALGORITHMS as readonly string[]).includes(name);
}

/**
 * tcp_slow_start: cwnd grows by the segments acknowledged up to ssthresh; returns the acknowledged
 * segments left over for congestion avoidance.
 */
export function tcpSlowStart(tp: TcpCongSocket, acked: number): number {
  const room = tp.ssthresh - tp.cwnd;
  const inc = Math.min(acked, room);
  tp.cwnd += inc;
  return acked - inc;
}
