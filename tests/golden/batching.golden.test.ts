/**
 * Batching must not change the results: the same experiments in per-packet mode (settings.batch = 1,
 * every wire packet an event) and in the default batched mode agree.
 *
 * Bandwidth-bound runs agree within 2%, packet-rate-bound runs (MSS 128) within 5%. (This test
 * found a real bug: NAPI re-polled whenever the ring was not empty instead of only when the budget
 * was exhausted, so packets arriving one by one were taken in tiny polls, each costing an ACK.)
 */
import { describe, expect, it } from 'vitest';
import { iperfEnd, pair, runLab, within } from './helpers';

function both(cmd: string) {
  const batched = iperfEnd(runLab({ ...pair('c7i.large'), settings: { batch: 'auto' } }, [cmd]).runs[0]!);
  const perPacket = iperfEnd(runLab({ ...pair('c7i.large'), settings: { batch: 1 } }, [cmd]).runs[0]!);
  return { batched, perPacket };
}

describe('per-packet and batched runs agree', () => {
  it('one TCP flow at the flow limit (exp 1, -P 1)', () => {
    const { batched, perPacket } = both('iperf3 -c server -t 1 -l 9000 -P 1 -J');
    expect(within(perPacket.recvGbps, batched.recvGbps, 0.02)).toBe(true);
  });

  it('two TCP flows at the instance limit (exp 1, -P 2)', () => {
    const { batched, perPacket } = both('iperf3 -c server -t 1 -l 9000 -P 2 -J');
    expect(within(perPacket.recvGbps, batched.recvGbps, 0.02)).toBe(true);
    for (const s of perPacket.streams) expect(within(s.recvGbps, perPacket.recvGbps / 2, 0.1)).toBe(true);
  });

  it('UDP flood on 2 vCPUs (exp 4)', () => {
    const { batched, perPacket } = both('iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948 -J');
    expect(within(perPacket.sentGbps, batched.sentGbps, 0.02)).toBe(true);
    expect(within(perPacket.recvGbps, batched.recvGbps, 0.02)).toBe(true);
    expect(within(perPacket.sentPackets, batched.sentPackets, 0.02)).toBe(true);
  });

  it('small segments bound by packet rates (exp 3, -M 128 -P 1)', () => {
    const { batched, perPacket } = both('iperf3 -c server -t 1 -M 128 -P 1 -J');
    expect(within(perPacket.recvGbps, batched.recvGbps, 0.05)).toBe(true);
  }, 60_000);
});
