/**
 * Issue 17's per-packet run for a browser page (bundled by tests/bench/wire-rate-browser.mjs):
 * `run(n)` builds a fresh c7i.large pair at batch 1 n times, runs `iperf3 -c server -t 5 -l 9000
 * -P 2` in each and returns the wall time of each run and the wire packets (both ends' ethtool -S
 * queue_N_tx_cnt), as tests/bench/wire-rate.ts does in Node.
 */
import { runLine } from '../../src/engine/index';
import { WIRE_RATE_CMD, wireLab, wirePackets } from './wire-lab';

export function run(n: number): { ms: number[]; wire: number } {
  const ms: number[] = [];
  let wire = 0;
  for (let i = 0; i < n; i++) {
    const lab = wireLab();
    const t0 = performance.now();
    runLine(lab, WIRE_RATE_CMD);
    ms.push(performance.now() - t0);
    wire = wirePackets(lab);
  }
  return { ms, wire };
}
