/**
 * The PPS allowance is one budget for inbound and outbound (AWS-ENAPERF "bidirectional PPS"), split
 * between the directions when both want more than half (issue 13, item 1; nitroPpsAssuredShare,
 * assumed). STRESSGRID: m5.metal's budget is 2.2 Mpps; as a sink it takes ≈ 2.2 Mpps, and a UDP echo
 * server on it peaks at ≈ 1 M echoes/s with inbound ≈ outbound, at and beyond saturation. Before, the
 * directions took the budget first come, first served: offered 2 Mpps the echo server admitted it all
 * inbound and dropped its replies at egress (0.2 M echoes/s).
 * The echo here is DPDK's io forwarding on the server's 8 queues (the kernel-path echo, udp-echo, is
 * tests/engine/udp-echo.test.ts); the load is txonly from a c5n.18xlarge, ≈ 1 Mpps per TX queue.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/engine/session/runner';
import { pair, runLab } from '../golden/helpers';

interface Port {
  rxPackets: number;
  rxDropped: number;
  txPackets: number;
  txDropped: number;
}
const port = (r: RunRecord): Port => (r.result as { ports: Port[] }).ports[0]!;

const CLIENT_SERVER = [
  { name: 'client', type: 'c5n.18xlarge' },
  { name: 'server', type: 'm5.metal' },
];

/** One second of txonly with `queues` TX queues against m5.metal running `mode`; packets per second. */
function run(mode: 'io' | 'rxonly', queues: number, params: Record<string, number> = {}) {
  const { runs } = runLab({ ...pair('m5.metal'), instances: CLIENT_SERVER, params }, [
    `server: dpdk-testpmd -l 0-8 -- --forward-mode=${mode} --rxq=8 --txq=8 --nb-cores=8 &`,
    `timeout 1 dpdk-testpmd -l 0-${queues} -- --forward-mode=txonly --txq=${queues} --rxq=${queues} --nb-cores=${queues} --txpkts=142 --txonly-multi-flow`,
    'sleep 0.01',
  ]);
  const client = port(runs.find((r) => r.command.includes('txonly'))!);
  const server = port(runs.find((r) => r.command.includes(`forward-mode=${mode}`) && r.result)!);
  return {
    offered: client.txPackets,
    inbound: server.rxPackets,
    // what the server's card let out and reached the client's ports (txonly does not poll: RX-dropped)
    echoes: client.rxPackets + client.rxDropped,
  };
}

describe('the PPS budget shared by inbound and outbound (m5.metal, 2.2 Mpps)', () => {
  it('a sink takes the whole budget in one direction: ≈ 2.2 Mpps of 4 offered', () => {
    const r = run('rxonly', 4);
    expect(r.offered).toBeGreaterThan(3.9e6);
    expect(r.inbound).toBeGreaterThan(2.1e6);
    expect(r.inbound).toBeLessThan(2.35e6);
  }, 120_000);

  it('an echo server gets in ≈ out ≈ half the budget at and beyond saturation, and all of it below', () => {
    const below = run('io', 1); // 1 Mpps: in + out = 2 Mpps, under the budget
    expect(below.echoes).toBeGreaterThan(0.97 * below.offered);
    for (const queues of [2, 4]) {
      const r = run('io', queues); // 2 and 4 Mpps offered: 4 and 8 Mpps of demand
      expect(r.inbound, `${queues} queues`).toBeGreaterThan(1.0e6);
      expect(r.inbound, `${queues} queues`).toBeLessThan(1.2e6);
      expect(r.echoes / r.inbound, `${queues} queues`).toBeGreaterThan(0.97);
    }
    // first come, first served (no assured share): the inbound flood takes the budget, replies die
    const fcfs = run('io', 2, { nitroPpsAssuredShare: 0 });
    // (measured 1.83 M in, 0.37 M echoes: the replies wait in the server's TX rings and testpmd drops them)
    expect(fcfs.inbound).toBeGreaterThan(1.7e6);
    expect(fcfs.echoes).toBeLessThan(0.5e6);
  }, 240_000);
});
