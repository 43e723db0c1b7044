/**
 * Issue 17's per-packet run for a browser page (bundled by tests/bench/wire-rate-browser.mjs):
 * `run(n)` builds a fresh c7i.large pair at batch 1 n times, runs `iperf3 -c server -t 5 -l 9000
 * -P 2` in each and returns the wall time of each run and the wire packets (both ends' ethtool -S
 * queue_N_tx_cnt), as tests/bench/wire-rate.ts does in Node.
 */
import { createLab, runLine } from '../../src/engine/index';
import { parseScenario } from '../../src/scenario/schema';

export function run(n: number): { ms: number[]; wire: number } {
  const ms: number[] = [];
  let wire = 0;
  for (let i = 0; i < n; i++) {
    const parsed = parseScenario({
      version: 1,
      instances: [
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large' },
      ],
      settings: { batch: 1 },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const lab = createLab(parsed.scenario);
    const t0 = performance.now();
    runLine(lab, 'iperf3 -c server -t 5 -l 9000 -P 2');
    ms.push(performance.now() - t0);
    wire = 0;
    for (const inst of lab.instances.values())
      for (const [k, v] of (inst.host.eth0 as { statistics(): Array<[string, number]> }).statistics())
        if (/^queue_\d+_tx_cnt$/.test(k)) wire += v;
  }
  return { ms, wire };
}
