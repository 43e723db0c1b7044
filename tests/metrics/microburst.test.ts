/**
 * The microburst AWS describes (docs/domain-facts.md §2.8, §3; NET402 "Microbursts"): traffic whose 1 s and
 * 60 s averages are far under the instance's limits, while at 1 ms and 10 µs it is over the
 * bandwidth allowance, fills the Nitro shaper queue and is dropped (bw_out_allowance_exceeded in
 * ethtool -S). Pacing on the sender (tc fq maxrate) makes the drops go away in the same scenario.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

type Rates = { peak10us: number; peak1ms: number; peak1s: number; peak60s: number; peak300s: number };
type Summary = {
  instances: Array<{
    instance: string;
    out: Rates;
    queues: Record<string, number>;
    counters: Record<string, number>;
  }>;
};

// 8 UDP streams at iperf3's -b 10G each (the sender's 2 vCPUs reach ≈ 26 Gbit/s), 30 MB in all
const BURST = 'iperf3 -c server -u -b 10G -P 8 -l 8948 -n 30M';

function run(pre: string[]) {
  const r = parseScenario({ version: 3, settings: { record: true, monitoring: 'detailed' } });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const lab = createLab(r.scenario);
  const recs = runScript(lab, [...pre, BURST, 'sleep 60', 'lab summary', 'ethtool -S eth0']);
  const n = pre.length;
  const summary = (recs[n + 2]!.result as Summary).instances[0]!;
  const ethtool = recs[n + 3]!.result as Record<string, number>;
  return { lab, summary, ethtool };
}

describe('a microburst: invisible at 1 s and 60 s, over the limit at 1 ms and 10 µs', () => {
  it('fills the Nitro shaper queue and drops, while the 1 s and 60 s averages stay far under 12.5 Gbit/s', () => {
    const { lab, summary, ethtool } = run([]);
    const limitBytesPerS = lab.instance('client')!.nitro.cfg.peakBps / 8;
    const o = summary.out;
    expect(o.peak1s).toBeLessThan(0.05 * limitBytesPerS);
    expect(o.peak60s).toBeLessThan(0.001 * limitBytesPerS);
    expect(o.peak1ms).toBeGreaterThan(1.5 * limitBytesPerS);
    expect(o.peak10us).toBeGreaterThan(limitBytesPerS);
    // the shaper queue holds nitroShaperQueueNs at the allowance: ≈ 2 ms × 12.5 Gbit/s of 8976-byte packets
    const capacity =
      ((lab.params.nitroShaperQueueNs / 1e9) * limitBytesPerS) /
      (8948 + 28 + lab.params.nitroChargeOverheadBytes);
    expect(summary.queues['nitro_egress[0]']).toBeGreaterThan(0.9 * capacity);
    expect(summary.counters['drops nitro_egress bw_out_allowance_exceeded']).toBeGreaterThan(100);
    expect(ethtool['bw_out_allowance_exceeded']).toBeGreaterThan(
      summary.counters['drops nitro_egress bw_out_allowance_exceeded']!,
    );
  });

  it('pacing the sender (tc fq maxrate 1gbit per flow) makes the drops go away', () => {
    const { summary, ethtool } = run(['tc qdisc replace dev eth0 root fq maxrate 1gbit']);
    expect(ethtool['bw_out_allowance_exceeded']).toBe(0);
    expect(summary.counters['drops nitro_egress bw_out_allowance_exceeded']).toBeUndefined();
    // the burst now waits in the sender's qdisc instead of the Nitro card's shaper
    expect(summary.queues['qdisc[0]']).toBeGreaterThan(100);
    expect(summary.queues['nitro_egress[0]']).toBeLessThan(50);
  });
});
