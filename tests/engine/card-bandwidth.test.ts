/**
 * The Nitro card's own bandwidth (NITRO_CARD_BANDWIDTH_GBPS, AWS-NITRO: 100 / 170 / 200 / 400 Gbps per
 * card for v3 / v4 / v5 / v6): a bucket in each direction after the allowances, so an instance never
 * receives faster than its card, even over 10 µs. Without it, eight senders converging on one
 * c6i.8xlarge delivered ~300 Gbps over 10 µs (the ingress allowance's 1 ms bucket lets a burst through
 * at once).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getInstanceType, NITRO_CARD_BANDWIDTH_GBPS } from '../../src/catalog';
import type { ProbeSink } from '../../src/engine/model/probe';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

const FIXTURE = new URL('../metrics/fixtures/incast.json', import.meta.url);

/**
 * The incast fixture's eight synchronized 4 MiB senders, per packet; the server's peak 10 µs rate in,
 * at the instants the model's card hands the packets on (a probe listener of its own: the recorders
 * count a packet where the host link carries it, which would hide a card that passes too much).
 */
function incastPeakGbps(params: Record<string, number> = {}): { peak: number; drops: number } {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown> & { script: string[] };
  const script = doc.script.filter((l) => !/lab summary|ethtool/.test(l));
  const parsed = parseScenario({ ...doc, script: [], settings: { batch: 1 }, params });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const lab = createLab(parsed.scenario);
  const in10us = new Map<number, number>();
  const sink: ProbeSink = {
    leaveStages: ['nitro_ingress'],
    enter: () => {},
    leave: (t, host, _stage, _q, p) => {
      if (host !== 0) return;
      const b = Math.floor(t / 10_000);
      in10us.set(b, (in10us.get(b) ?? 0) + p.count * (p.sizeBytes + 14));
    },
    drop: () => {},
  };
  lab.probe.attach(sink);
  runScript(lab, script);
  const sum10us = Math.max(0, ...in10us.values());
  return { peak: (sum10us * 8) / 10e-6 / 1e9, drops: lab.drops.total('server', 'card_bandwidth_exceeded') };
}

describe('the Nitro card bandwidth', () => {
  it('comes from the card generation: c6i (v4) 170, c5n (v3) 100, c7gn (v5) 200 Gbps', () => {
    const gbps = (t: string) =>
      NITRO_CARD_BANDWIDTH_GBPS[getInstanceType(t)!.nitroGeneration.value as 2 | 3 | 4 | 5 | 6].value;
    expect(gbps('c6i.8xlarge')).toBe(170);
    expect(gbps('c5n.18xlarge')).toBe(100);
    expect(gbps('c7gn.16xlarge')).toBe(200);
    expect(NITRO_CARD_BANDWIDTH_GBPS[4].provenance).toBe('documented');
    // AWS-NITRO publishes no v2 card figure: the 25 Gbps is the lab's rule, not a measurement
    expect(NITRO_CARD_BANDWIDTH_GBPS[2].provenance).toBe('assumed');
  });

  it('bounds what eight converging senders deliver over 10 µs to the card rate (one 9 KB packet of slack)', () => {
    const bounded = incastPeakGbps();
    // 170 Gbps over 10 µs is 212 KB: 23.6 jumbo frames; a bucket holds whole packets, so 25 at most
    expect(bounded.peak).toBeLessThanOrEqual((25 * 9015 * 8) / 10e-6 / 1e9);
    expect(bounded.peak).toBeGreaterThan(100);
    expect(bounded.drops).toBe(0); // it queues them (behind the ingress allowance), it does not drop here
    // the control: a card bucket deep enough to pass the burst at once lets the senders' sum through
    const deep = incastPeakGbps({ nitroCardBucketNs: 1e6 });
    expect(deep.peak).toBeGreaterThan(250);
  });
});
