/**
 * TCP's congestion control behind its ops interface (src/engine/host/tcp/cong.ts), and the SACK
 * scoreboard with RACK's loss marking (scoreboard.ts), each driven directly.
 */
import { describe, expect, it } from 'vitest';
import { newCongestionOps } from '../../../src/engine/host/tcp/algorithms';
import { type TcpCongSocket, TCP_CONGESTION_ALGORITHMS } from '../../../src/engine/host/tcp/cong';
import { type LossSocket, LossRecovery } from '../../../src/engine/host/tcp/recovery';
import { Scoreboard } from '../../../src/engine/host/tcp/scoreboard';
import { Scheduler } from '../../../src/engine/core/scheduler';
import { resolveParams } from '../../../src/engine/model/params';

const params = resolveParams();

function socket(cwnd: number, ssthresh = Number.POSITIVE_INFINITY, minRttNs = 1_000_000): TcpCongSocket {
  return {
    cwnd,
    ssthresh,
    sndUna: 0,
    sndNxt: 0,
    mss: 1448,
    minRttNs,
    pacingRateBytesPerSec: () => Number.POSITIVE_INFINITY,
  };
}

const RTT_NS = 100_000_000;

/** Congestion avoidance from `fromS` to `toS` seconds, one window of ACKs per 100 ms round. */
function avoid(
  ca: ReturnType<typeof newCongestionOps>,
  tp: TcpCongSocket,
  fromS: number,
  toS: number,
): number {
  for (let t = fromS * 1e9 + 1; t < toS * 1e9; t += RTT_NS) ca.congAvoid(tp, tp.cwnd, t);
  return tp.cwnd;
}

describe('congestion control ops', () => {
  it('lists cubic (the default) and reno', () => {
    expect(TCP_CONGESTION_ALGORITHMS).toEqual(['cubic', 'reno']);
    expect(newCongestionOps('cubic', params).name).toBe('cubic');
    expect(newCongestionOps('reno', params).name).toBe('reno');
  });

  it('ssthresh after a loss: CUBIC keeps 717/1024 of cwnd, Reno half, both at least 2', () => {
    expect(newCongestionOps('cubic', params).ssthresh(socket(1000))).toBeCloseTo((1000 * 717) / 1024, 9);
    expect(newCongestionOps('reno', params).ssthresh(socket(1000))).toBe(500);
    expect(newCongestionOps('cubic', params).ssthresh(socket(2))).toBe(2);
    expect(newCongestionOps('reno', params).ssthresh(socket(3))).toBe(2);
  });

  it('slow start grows by the segments acknowledged up to ssthresh, the rest by the algorithm', () => {
    for (const name of TCP_CONGESTION_ALGORITHMS) {
      const tp = socket(10, 14);
      newCongestionOps(name, params).congAvoid(tp, 3, 1);
      expect(tp.cwnd, name).toBe(13);
      newCongestionOps(name, params).congAvoid(tp, 3, 2);
      expect(tp.cwnd, name).toBeGreaterThan(14); // 1 segment to ssthresh, 2 left for avoidance
      expect(tp.cwnd, name).toBeLessThan(15);
    }
  });

  it('Reno adds one segment per window acknowledged', () => {
    const tp = socket(100, 100);
    const ca = newCongestionOps('reno', params);
    ca.congAvoid(tp, 100, 1);
    expect(tp.cwnd).toBeCloseTo(101, 9);
  });

  it('CUBIC returns to the cwnd of the last loss after K = cbrt(W·(1−β)/C) and plateaus there', () => {
    // After a loss at 1000 segments, cwnd restarts at β·1000 ≈ 700; K = cbrt(300 / 0.4) ≈ 9.1 s.
    // With 100 ms rounds Reno's estimate (the TCP-friendly region) stays below the cubic curve.
    const w = 1000;
    const loss = (name: 'cubic' | 'reno') => {
      const tp = socket(w, Number.POSITIVE_INFINITY, RTT_NS);
      const ca = newCongestionOps(name, params);
      tp.ssthresh = ca.ssthresh(tp);
      tp.cwnd = tp.ssthresh;
      return { tp, ca };
    };
    const { tp, ca } = loss('cubic');
    const k = Math.cbrt((w * (1 - 717 / 1024)) / 0.4);
    const half = avoid(ca, tp, 0, k / 2);
    expect(half).toBeGreaterThan(950); // concave: most of the way back in half the time
    expect(half).toBeLessThan(w);
    expect(Math.abs(avoid(ca, tp, k / 2, k) - w)).toBeLessThan(5);
    expect(avoid(ca, tp, k, k + 1)).toBeLessThan(w * 1.01); // the plateau around the last maximum
    // Reno from its own loss adds one segment per round: 500 + about 45 in the same time
    const reno = loss('reno');
    expect(avoid(reno.ca, reno.tp, 0, k / 2)).toBeCloseTo(500 + (k / 2) * 10, -1);
  });
});

describe('SACK scoreboard', () => {
  it('a SACK block splits an entry, the cumulative ACK retires the front, RACK marks the hole lost', () => {
    const sb = new Scoreboard();
    // two batches of 4 segments of 1000 bytes, sent at 10 and 20 µs
    sb.add(0, 4000, 4, 10_000);
    sb.add(4000, 8000, 4, 20_000);
    sb.beginAck();
    sb.cumulativeAck(2000, 100_000); // the first 2 segments
    sb.sackTag([5000, 8000], 100_000); // segments 6-8 of the second batch
    expect(sb.acked).toBe(2000 + 3000);
    expect(sb.sackedBytes).toBe(3000);
    expect(sb.deliveredSentNs).toBe(20_000);
    expect(sb.rttNs).toBe(90_000);
    const entries = () =>
      Array.from({ length: sb.length }, (_, i) => [sb.startOf(i), sb.endOf(i), sb.segsOf(i), sb.isSacked(i)]);
    expect(entries()).toEqual([
      [2000, 4000, 2, false],
      [4000, 5000, 1, false],
      [5000, 8000, 3, true],
    ]);
    // RACK: what was sent before the newest delivered segment (20 µs) is lost; 4000-5000 was sent with it
    expect(sb.markLostSentBefore(20_000)).toBe(true);
    expect(sb.lostBytes).toBe(2000);
    expect(sb.isLost(0)).toBe(true);
    expect(sb.firstPendingRetrans()).toBe(0);
    sb.markRetransmitted(0, 200_000);
    expect(sb.lostBytes).toBe(0);
    expect(sb.isRetransmitted(0)).toBe(true);
    expect(sb.firstPendingRetrans()).toBe(-1);
    // the tail loss probe's segment: the last one not SACKed, alone in its entry
    expect(sb.lastUnsackedSegment()).toBe(1);
    expect([sb.startOf(1), sb.endOf(1), sb.segsOf(1)]).toEqual([4000, 5000, 1]);
    // the cumulative ACK past everything retires it all
    sb.beginAck();
    sb.cumulativeAck(8000, 300_000);
    expect(sb.length).toBe(0);
    expect(sb.sackedBytes).toBe(0);
    expect(sb.acked).toBe(2000 + 1000); // the retransmitted 2000 and 4000-5000; SACKed bytes were counted before
    expect(sb.rttNs).toBe(300_000 - 20_000); // only never-retransmitted entries give a sample
  });

  it('RACK marks past a late retransmission and stops at the first segment sent too late', () => {
    const sb = new Scoreboard();
    for (let i = 0; i < 4; i++) sb.add(i * 1000, (i + 1) * 1000, 1, (i + 1) * 10); // sent at 10, 20, 30, 40
    expect(sb.markLostSentBefore(25)).toBe(true); // the first two
    sb.markRetransmitted(1, 100); // the second again, late
    sb.beginAck();
    sb.sackTag([3000, 4000], 110); // the fourth delivered
    // sent before 35: the first (still waiting), the second's retransmission (100) not, the third yes;
    // the scan goes on past the retransmission and ends at the fourth (sent at 40)
    expect(sb.markLostSentBefore(35)).toBe(true);
    expect(sb.lostBytes).toBe(2000);
    expect([0, 1, 2, 3].map((i) => sb.isLost(i))).toEqual([true, true, true, false]);
    expect(sb.firstPendingRetrans()).toBe(0);
    // the retransmission, sent at 100, is lost again once something sent after it is delivered
    expect(sb.markLostSentBefore(150)).toBe(true);
    expect(sb.lostBytes).toBe(3000);
    expect(sb.markLostSentBefore(150)).toBe(false);
  });

  it('a growing SACK block tags only what is new, and a block whose start could not split is not remembered', () => {
    const sb = new Scoreboard();
    for (let i = 0; i < 10; i++) sb.add(i * 1000, (i + 1) * 1000, 1, i);
    sb.add(10_000, 12_000, 2, 10);
    sb.add(12_000, 13_000, 1, 11);
    sb.beginAck();
    sb.sackTag([3000, 5000], 100);
    expect(sb.acked).toBe(2000);
    sb.beginAck();
    sb.sackTag([3000, 7000], 100); // 3000-5000 is SACKed already
    expect(sb.acked).toBe(2000);
    expect(sb.sackedBytes).toBe(4000);
    // 10200 is not a segment boundary of 10000-12000 (2 segments): no split, the entry stays
    sb.beginAck();
    sb.sackTag([10_200, 13_000], 100);
    expect(sb.acked).toBe(1000);
    // 10600 rounds to the segment boundary: split there, 10600-12000 tagged now
    sb.beginAck();
    sb.sackTag([10_600, 13_000], 100);
    expect(sb.acked).toBe(1400);
    expect(sb.sackedBytes).toBe(4000 + 1000 + 1400);
    sb.beginAck();
    sb.sackTag([3000, 7000, 10_600, 13_000], 100);
    expect(sb.acked).toBe(0);
  });

  it('RACK passes over a range known SACKed and marks what lies beyond it', () => {
    const sb = new Scoreboard();
    for (let i = 0; i < 10; i++) sb.add(i * 1000, (i + 1) * 1000, 1, i * 10);
    sb.beginAck();
    sb.sackTag([3000, 7000], 100);
    // sent before 75: 0-2 and 7 (3-6 are SACKed); 8 was sent at 80, the scan ends there
    expect(sb.markLostSentBefore(75)).toBe(true);
    expect([0, 1, 2, 3, 6, 7, 8].map((i) => sb.isLost(i))).toEqual([
      true,
      true,
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(sb.lostBytes).toBe(4000);
  });

  it('grows past its first capacity and splits in the middle of a wrapped ring', () => {
    const sb = new Scoreboard(4);
    for (let i = 0; i < 3; i++) sb.add(i * 2000, (i + 1) * 2000, 2, i);
    sb.beginAck();
    sb.cumulativeAck(4000, 10); // retire two: the ring's head moves on
    for (let i = 3; i < 12; i++) sb.add(i * 2000, (i + 1) * 2000, 2, i); // wraps, then grows
    sb.sackTag([9000, 13000], 20); // splits the entries at 8000 and 12000 (segments of 1000 bytes)
    const entries = Array.from({ length: sb.length }, (_, i) => [sb.startOf(i), sb.endOf(i), sb.isSacked(i)]);
    expect(entries.slice(0, 7)).toEqual([
      [4000, 6000, false],
      [6000, 8000, false],
      [8000, 9000, false],
      [9000, 10000, true],
      [10000, 12000, true],
      [12000, 13000, true],
      [13000, 14000, false],
    ]);
    expect(sb.length).toBe(12);
    expect(sb.sackedBytes).toBe(4000);
  });
});

describe('loss recovery timers', () => {
  it('the loss probe re-armed in one instant keeps its time, and fires at the last one armed', () => {
    const sched = new Scheduler();
    let probes = 0;
    const sk = {
      ...socket(10),
      srttNs: 1_000_000.4,
      rttvarNs: 0,
      writeSeq: 0,
      peerWindow: 65535,
      sb: new Scoreboard(),
      ca: newCongestionOps('cubic', params),
      sendNew: () => {},
      transmitSeg: () => {},
      trySend: () => {},
    } satisfies LossSocket;
    sk.sndNxt = 10 * 1448;
    const rec = new LossRecovery(sched, params, sk, () => {});
    // onPto sends nothing here (no data to write, nothing SACKed to resend): count its firings
    sk.sb.add(0, 10 * 1448, 10, 0);
    const lastUnsacked = sk.sb.lastUnsackedSegment.bind(sk.sb);
    sk.sb.lastUnsackedSegment = () => {
      probes++;
      return lastUnsacked();
    };
    rec.armRtoIfIdle();
    rec.armPto();
    const first = rec.ptoTimer.expiresAtNs;
    expect(first).toBe(Math.ceil(2 * 1_000_000.4 + 2_000_000)); // 2·SRTT + 2 ms, rounded up to the ns
    rec.armPto();
    expect(rec.ptoTimer.expiresAtNs).toBe(first);
    sk.srttNs = 2_000_000;
    rec.armPto();
    expect(rec.ptoTimer.expiresAtNs).toBe(6_000_000);
    sched.runUntil(5_999_999);
    expect(probes).toBe(0);
    sched.runUntil(6_000_000);
    expect(probes).toBe(1);
  });
});
