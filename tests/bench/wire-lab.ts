/**
 * Issue 17's per-packet run, shared by tests/bench/wire-rate.ts (Node) and wire-rate-browser.ts
 * (Chromium): a fresh c7i.large pair at batch 1, and its wire packets (both ends' ethtool -S
 * queue_N_tx_cnt).
 */
import { createLab, type Lab } from '../../src/engine/index';
import { parseScenario } from '../../src/scenario/schema';

export const WIRE_RATE_CMD = 'iperf3 -c server -t 5 -l 9000 -P 2';

export function wireLab(): Lab {
  const parsed = parseScenario({
    version: 1,
    instances: [
      { name: 'client', type: 'c7i.large' },
      { name: 'server', type: 'c7i.large' },
    ],
    settings: { batch: 1 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return createLab(parsed.scenario);
}

export function wirePackets(lab: Lab): number {
  let wire = 0;
  for (const inst of lab.instances.values())
    for (const [k, v] of (inst.host.eth0 as { statistics(): Array<[string, number]> }).statistics())
      if (/^queue_\d+_tx_cnt$/.test(k)) wire += v;
  return wire;
}
