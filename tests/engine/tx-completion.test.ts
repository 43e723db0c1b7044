/**
 * When the Nitro card reports an ENA TX completion (MODEL_PARAMS.nitroFlowLimitHoldsTxCompletion).
 *
 * Held (1, the default): a packet's descriptor and skb stay outstanding until it has passed its flow's
 * limiter, so a flow over its limit backs up into its own host (TCP Small Queues, the socket buffer)
 * and TCP sees no loss. Not held (0): the card completes at fetch and queues the excess itself, so
 * CUBIC overfills that queue and retransmits. The instance-wide shapers act after the completion in
 * both cases (exp 4's UDP sender overshoots the instance, golden test).
 */
import { describe, expect, it } from 'vitest';
import { iperfEnd, pair, runLab } from '../golden/helpers';

const flowLimited = (holds: 0 | 1) => {
  const { runs, lab } = runLab({ ...pair('c7i.large'), params: { nitroFlowLimitHoldsTxCompletion: holds } }, [
    'iperf3 -c server -t 2 -M 9000 -P 1 -J',
    'sleep 1',
  ]);
  return { end: iperfEnd(runs[0]!), lab };
};

/** Every TX descriptor of every instance is back: nothing fetched was left without its completion. */
function expectAllDescriptorsBack(lab: ReturnType<typeof runLab>['lab']): void {
  for (const inst of lab.instances.values()) {
    const eth0 = inst.host.eth0;
    const ring = eth0.rings().tx;
    for (let q = 0; q < eth0.queueCount; q++) expect(eth0.txRoom(q), `${inst.name} queue ${q}`).toBe(ring);
  }
}

describe('ENA TX completion and the flow limit', () => {
  it('held: one TCP flow at the 10 Gbps flow limit loses nothing; completed at fetch: it overfills the card and retransmits', () => {
    const held = flowLimited(1);
    const fetched = flowLimited(0);
    expect(held.end.streams[0]!.retr).toBe(0);
    expect(held.lab.drops.total(undefined, 'flow_limit_exceeded')).toBe(0);
    expect(fetched.end.streams[0]!.retr).toBeGreaterThan(0);
    expect(fetched.lab.drops.total('client', 'flow_limit_exceeded')).toBeGreaterThan(0);
    // the limiter sets the rate either way: within 2 %
    expect(Math.abs(held.end.recvGbps - fetched.end.recvGbps)).toBeLessThan(0.02 * fetched.end.recvGbps);
    expect(held.end.recvGbps).toBeGreaterThan(9.5);
    expectAllDescriptorsBack(held.lab);
    expectAllDescriptorsBack(fetched.lab);
  });

  it('every held packet dropped before its flow limit is completed too (IP fragments over 1024/s per ENI)', () => {
    // 20000-byte datagrams leave as 3 fragments each: ~18,750 fragments/s against the 1024/s egress limit
    const { runs, lab } = runLab(pair('c7i.large'), [
      'iperf3 -c server -u -b 1G -l 20000 -t 1 -J',
      'sleep 1',
    ]);
    const end = iperfEnd(runs[0]!);
    expect(lab.drops.total('client', 'pps_allowance_exceeded')).toBeGreaterThan(0);
    // the sender was not stalled by completions that never came (its socket buffer would fill)
    expect(end.sentGbps).toBeGreaterThan(0.9);
    expectAllDescriptorsBack(lab);
  });

  it('the parameter is validated like any other: a scenario may only set a number ≥ 0', () => {
    expect(() =>
      runLab({ ...pair('c7i.large'), params: { nitroFlowLimitHoldsTxCompletion: -1 } }, ['sleep 0.001']),
    ).toThrow(/nitroFlowLimitHoldsTxCompletion/);
  });
});
