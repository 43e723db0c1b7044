/**
 * Drops at an instance's documented allowance are counted where AWS counts them (issue 13, item 2).
 * Where the Nitro card's own bandwidth equals the allowance (Nitro v2 card 25 Gbps, assumed, = m5.metal
 * and c5.18xlarge; Nitro v3 card 100 Gbps = c5n.18xlarge), the lab-only card_bandwidth_exceeded took
 * every drop and `ethtool -S` showed bw_in/bw_out_allowance_exceeded 0. Rule now: the allowances are
 * metered first and the card is a serial stage after them, so an allowance that binds moves its counter;
 * the card takes only what the allowances let through faster than it carries (c6in.32xlarge: a 200 Gbps
 * allowance on one 170 Gbps card).
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

function run(server: string, senders: number, streamsEach: number, rate: string, script?: string[]) {
  const instances = [
    { name: 'server', type: server },
    ...Array.from({ length: senders }, (_, i) => ({ name: `client${i + 1}`, type: 'c5n.18xlarge' })),
  ];
  const lines = script ?? [
    ...Array.from({ length: senders - 1 }, (_, i) => `server: iperf3 -s -p ${5202 + i} &`),
    ...Array.from(
      { length: senders },
      (_, i) =>
        `client${i + 1}: iperf3 -c server -p ${5201 + i} -u -b ${rate} -l 8000 -n ${streamsEach * 250}M -P ${streamsEach} &`,
    ),
    'sleep 1',
    'server: ethtool -S eth0',
    'client1: ethtool -S eth0',
  ];
  const parsed = parseScenario({ version: 3, placement: 'cluster', instances, script: [] });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const lab = createLab(parsed.scenario);
  const runs = runScript(lab, lines);
  const ethtool = (host: string) =>
    runs.filter((r) => r.host === host && r.command === 'ethtool -S eth0').at(-1)!.result as Record<
      string,
      number
    >;
  return { lab, ethtool };
}

describe('allowance drops are counted in the ENA counters, never hidden by the card', () => {
  for (const [type, senders, streams] of [
    ['m5.metal', 2, 2], // 4 × 8 Gbit/s = 32 offered into 25
    ['c5.18xlarge', 2, 2], // the same into c5.18xlarge's 25
    ['c5n.18xlarge', 2, 7], // 14 × 8 = 112 offered into 100
  ] as const) {
    it(`${type}: UDP offered above the inbound allowance moves bw_in_allowance_exceeded`, () => {
      const { lab, ethtool } = run(type, senders, streams, '8G');
      const s = ethtool('server');
      expect(s.bw_in_allowance_exceeded).toBeGreaterThan(10_000);
      expect(lab.drops.total('server', 'bw_in_allowance_exceeded')).toBeGreaterThan(10_000);
      expect(lab.drops.total('server', 'card_bandwidth_exceeded')).toBe(0);
    }, 60_000);
  }

  it('m5.metal sending above its outbound allowance moves bw_out_allowance_exceeded', () => {
    // one c5n.18xlarge receiver (100 Gbps): only the sender's 25 Gbps allowance binds
    const instances = [
      { name: 'client', type: 'm5.metal' },
      { name: 'server', type: 'c5n.18xlarge' },
    ];
    const parsed = parseScenario({ version: 3, placement: 'cluster', instances, script: [] });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const lab = createLab(parsed.scenario);
    const runs = runScript(lab, ['iperf3 -c server -u -b 8G -l 8000 -t 1 -P 4', 'ethtool -S eth0']);
    const c = runs[1]!.result as Record<string, number>;
    expect(c.bw_out_allowance_exceeded).toBeGreaterThan(10_000);
    expect(lab.drops.total('client', 'bw_out_allowance_exceeded')).toBeGreaterThan(0);
    expect(lab.drops.total('client', 'card_bandwidth_exceeded')).toBe(0);
  }, 60_000);
});
