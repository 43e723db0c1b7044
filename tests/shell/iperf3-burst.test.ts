/**
 * iperf3 `-b RATE/COUNT` (burst mode, UDP): COUNT datagrams back to back, then iperf3's throttle check
 * (the average since the start must be under RATE before the next burst). The 1 s average is the
 * same as without a burst; at 1 ms the sender is far above it.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

type Rates = { peak1ms: number; peak1s: number };

function run(bitrate: string) {
  const r = parseScenario({ version: 3, settings: { record: true } });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const lab = createLab(r.scenario);
  const recs = runScript(lab, [`iperf3 -c server -u -b ${bitrate} -l 8000 -t 1`, 'lab summary']);
  const out = (recs[1]!.result as { instances: Array<{ out: Rates }> }).instances[0]!.out;
  return { iperf: recs[0]!.output, out };
}

describe('iperf3 -b RATE[/COUNT]', () => {
  it('sends bursts of COUNT datagrams at the host’s speed, averaging RATE', () => {
    const paced = run('1G');
    const burst = run('1G/64');
    // same datagrams in the second: 1 Gbit/s / (8000 × 8) = 15625 per second
    for (const r of [paced, burst])
      expect(r.iperf).toMatch(
        /0\.00-1\.00 +sec +1[12]\d MBytes +1\.00 Gbits\/sec .* 0\/156\d\d \(0%\) +sender/,
      );
    expect(burst.out.peak1s).toBeCloseTo(paced.out.peak1s, -7);
    // paced: every millisecond carries ≈ 1 Gbit/s; bursts: 64 × 8028 B leave within well under 1 ms
    expect(paced.out.peak1ms * 8).toBeLessThan(1.5e9);
    expect(burst.out.peak1ms * 8).toBeGreaterThan(3.5e9);
  });

  it('refuses a burst count over iperf3’s maximum, with iperf3’s message', () => {
    const r = parseScenario({ version: 3 });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const recs = runScript(createLab(r.scenario), ['iperf3 -c server -u -b 1G/1001']);
    expect(recs[0]!.output).toContain('invalid burst count (maximum = 1000)');
  });

  it('throttles TCP writes too: -b is a per-stream average (it was ignored on TCP)', () => {
    const r = parseScenario({ version: 3 });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const recs = runScript(createLab(r.scenario), [
      'iperf3 -c server -b 1G -t 2',
      'iperf3 -c server -b 2G -P 2 -t 1',
    ]);
    expect(recs[0]!.output).toMatch(/0\.00-2\.00 +sec +238 MBytes +1\.00 Gbits\/sec +0 +sender/);
    expect(recs[1]!.output).toMatch(/\[SUM\] +0\.00-1\.00 +sec +477 MBytes +4\.00 Gbits\/sec +0 +sender/);
  });
});
