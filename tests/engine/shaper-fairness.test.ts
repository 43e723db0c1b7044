/**
 * Flows sharing a Nitro allowance get even shares of it (issue 13, item 3). The shaping stage serves
 * its flows by DRR from one buffer and, when full, drops from the head of the flow with the most
 * waiting (nitroShaperFairBufferShare, as Linux fq_codel). With drop-tail instead, equal paced UDP
 * flows whose packets happened to arrive when the buffer was full lost nearly everything (8 × 4 Gbit/s
 * into a c6i.8xlarge: five flows ~0 delivered, three 3.99 Gbit/s), and of two TCP flows the one held by
 * its receive window kept most of the buffer while the other took every loss.
 * Band: each equal UDP flow within 5 % of the flows' mean (10 % for 64-B floods, whose batches of up to 64
 * packets are the unit of service and drop); TCP -P 2 retransmits within a factor 1.5.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';
import { iperfEnd } from '../golden/helpers';

function lab(instances: Array<{ name: string; type: string }>, params: Record<string, number> = {}) {
  const parsed = parseScenario({ version: 3, placement: 'cluster', instances, params, script: [] });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return createLab(parsed.scenario);
}

/** `senders` clients, one UDP flow each to its own server port; received Gbit/s per flow. */
function incast(server: string, senders: number, args: string, params: Record<string, number> = {}) {
  const l = lab(
    [
      { name: 'server', type: server },
      ...Array.from({ length: senders }, (_, i) => ({ name: `client${i + 1}`, type: 'c6i.8xlarge' })),
    ],
    params,
  );
  const runs = runScript(l, [
    ...Array.from({ length: senders - 1 }, (_, i) => `server: iperf3 -s -p ${5202 + i} &`),
    ...Array.from(
      { length: senders },
      (_, i) => `client${i + 1}: iperf3 -c server -p ${5201 + i} -u ${args} -J &`,
    ),
    'sleep 2',
  ]);
  return runs.filter((r) => r.command.startsWith('iperf3 -c') && r.result).map((r) => iperfEnd(r).recvGbps);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs: number[]) => Math.max(...xs.map((x) => Math.abs(x / mean(xs) - 1)));

describe('flows sharing a Nitro allowance get even shares', () => {
  it('bw_in: 8 × 4 Gbit/s of UDP into a c6i.8xlarge (12.5 Gbps) each get ≈ 1/8 of it', () => {
    const got = incast('c6i.8xlarge', 8, '-b 4G -l 8000 -t 1');
    expect(spread(got), got.join(' ')).toBeLessThan(0.05);
    expect(mean(got) * 8).toBeGreaterThan(11.5);
    // drop-tail: a flow starves (measured 0.005 Gbit/s next to 3.99)
    const tail = incast('c6i.8xlarge', 8, '-b 4G -l 8000 -t 1', { nitroShaperFairBufferShare: 0 });
    expect(Math.min(...tail)).toBeLessThan(0.5);
  }, 120_000);

  it('PPS: 8 floods of 64-B datagrams into a c7i.large (1 Mpps, in + out) each pass ≈ 1/8 of it', () => {
    // The receiver's 2 vCPUs cannot take what its card admits, so the shares are read at the card:
    // packets each flow offered less those its PPS shaper dropped (iperf3's receiver counts host drops too).
    const passed = (params: Record<string, number>) => {
      const l = lab(
        [
          { name: 'server', type: 'c7i.large' },
          ...Array.from({ length: 8 }, (_, i) => ({ name: `client${i + 1}`, type: 'c6i.8xlarge' })),
        ],
        params,
      );
      const dropped = new Map<number, number>();
      l.drops.trace = (host, stage, reason, flowId, packets) => {
        if (host === 'server' && stage === 'nitro_ingress' && reason === 'pps_allowance_exceeded')
          dropped.set(flowId, (dropped.get(flowId) ?? 0) + packets);
      };
      const runs = runScript(l, [
        ...Array.from({ length: 7 }, (_, i) => `server: iperf3 -s -p ${5202 + i} &`),
        ...Array.from(
          { length: 8 },
          (_, i) => `client${i + 1}: iperf3 -c server -p ${5201 + i} -u -b 200M -l 64 -t 1 -J &`,
        ),
        'sleep 2',
      ]);
      const offered = runs
        .filter((r) => r.command.startsWith('iperf3 -c') && r.result)
        .map((r) => iperfEnd(r).sentPackets);
      expect(offered).toHaveLength(8);
      expect(spread(offered)).toBeLessThan(0.02); // equal offers (≈ 220 k datagrams each)
      const each = mean(offered);
      const total = [...dropped.values()].reduce((a, b) => a + b, 0);
      return { total, perFlow: [...dropped.values()].map((d) => each - d), flows: dropped.size };
    };
    const fair = passed({});
    expect(fair.total).toBeGreaterThan(500_000); // 8 × ≈ 220 kpps offered to 1 Mpps
    expect(fair.flows).toBe(8);
    // what each flow got through its card: within 10 % of the mean (batches of up to 64 packets; per packet ±2 %)
    expect(spread(fair.perFlow), fair.perFlow.join(' ')).toBeLessThan(0.1);
    // drop-tail: some flows lose nothing at the card while others lose everything
    const tail = passed({ nitroShaperFairBufferShare: 0 });
    expect(tail.flows).toBeLessThan(8);
  }, 120_000);

  it('bw_out: 8 UDP flows from one c6i.8xlarge (12.5 Gbps out) each get ≈ 1/8 of it', () => {
    // (flows from one host interleave in its queues, so drop-tail happens to be even here too)
    const l = lab([
      { name: 'client', type: 'c6i.8xlarge' },
      { name: 'server', type: 'c5n.18xlarge' },
    ]);
    const [r] = runScript(l, ['iperf3 -c server -u -b 4G -l 8000 -t 1 -P 8 -J']);
    const got = iperfEnd(r!).streams.map((s) => s.recvGbps);
    expect(spread(got), got.join(' ')).toBeLessThan(0.05);
  }, 120_000);

  it('TCP -P 2 for 200 s at the bw_out allowance: neither flow takes the other’s losses (no buffer hogging)', () => {
    const l = lab([
      { name: 'client', type: 'c7i.large' },
      { name: 'server', type: 'c7i.large' },
    ]);
    const [r] = runScript(l, ['iperf3 -c server -t 200 -l 9000 -P 2 -J']);
    const retr = iperfEnd(r!).streams.map((s) => s.retr);
    // measured 6,881 and 6,953; drop-tail gave 7,623 and 215,920
    expect(Math.max(...retr) / Math.min(...retr), retr.join(' ')).toBeLessThan(1.5);
  }, 300_000);
});
