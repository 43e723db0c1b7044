/**
 * `npx tsx tests/bench/wire-rate.ts [runs]`: issue 17's per-packet wire rate, run by run in one
 * process (the first run is a fresh process's, with the JIT compiling; the later ones warm). Each
 * run builds a fresh c7i.large pair at --batch 1 and runs `iperf3 -c server -t 5 -l 9000 -P 2`
 * (WIRE_CMD overrides it); it prints the CPU time of runLine (process.cpuUsage: every thread,
 * JIT and GC included), the wire packets (both ends' ethtool -S queue_N_tx_cnt) and their ratio.
 * Reported, never asserted. On a shared machine compare CPU time, not wall time, over several runs.
 */
import { performance } from 'node:perf_hooks';
import { runLine } from '../../src/engine/index';
import { WIRE_RATE_CMD, wireLab, wirePackets } from './wire-lab';

const CMD = process.env.WIRE_CMD ?? WIRE_RATE_CMD;
const RUNS = Number(process.argv[2] ?? 4);
if (!(RUNS >= 1)) {
  process.stderr.write('usage: npx tsx tests/bench/wire-rate.ts [runs ≥ 1]\n');
  process.exit(2);
}
for (let i = 0; i < RUNS; i++) {
  const lab = wireLab();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  runLine(lab, CMD);
  const wallS = (performance.now() - t0) / 1e3;
  const c = process.cpuUsage(c0);
  const cpuS = (c.user + c.system) / 1e6;
  const wire = wirePackets(lab);
  process.stdout.write(
    `${i === 0 ? 'fresh' : 'warm '} run: CPU ${cpuS.toFixed(2)} s, wall ${wallS.toFixed(2)} s, ` +
      `${wire} wire packets, ${(wire / cpuS / 1e6).toFixed(3)} M per CPU second\n`,
  );
}
