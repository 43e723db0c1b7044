/**
 * `lab summary`: one run at every time scale (the NET402 "Microbursts" contrast), and `lab record`.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

function lab(settings: Record<string, unknown>) {
  const r = parseScenario({ version: 3, settings });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

type Rates = { peak10us: number; peak1ms: number; peak1s: number; peak60s: number; peak300s: number };
type Summary = {
  instances: Array<{ instance: string; out: Rates; in: Rates; queues: Record<string, number> }>;
};

describe('lab summary', () => {
  it('lines up the 6 s burst at 1 ms, 1 s (iperf3), 60 s and 300 s: each longer view says less', () => {
    const l = lab({ record: true });
    const recs = runScript(l, ['iperf3 -c server -t 6 -M 9000 -P 1', 'sleep 120', 'lab summary']);
    const s = recs[2]!;
    expect(s.exitCode).toBe(0);
    expect(s.output.startsWith("# lab: ec2-netlab's view of the model (not an AWS or Linux tool)\n")).toBe(
      true,
    );
    const client = (s.result as Summary).instances[0]!;
    expect(client.instance).toBe('client');
    const o = client.out;
    // iperf3's view: ≈ 9.5-10 Gbit/s in its best second (bytes with the Ethernet header)
    expect(o.peak1s * 8).toBeGreaterThan(9e9);
    expect(o.peak1s * 8).toBeLessThan(10.6e9);
    expect(o.peak1ms).toBeGreaterThanOrEqual(o.peak1s);
    expect(o.peak10us).toBeGreaterThanOrEqual(o.peak1ms);
    // CloudWatch's views: the same bytes over 60 s and 300 s
    expect(o.peak60s).toBeCloseTo((o.peak1s * 6) / 60, -7);
    expect(o.peak300s).toBeCloseTo(o.peak60s / 5, -6);
    // the server received what the client sent
    expect((s.result as Summary).instances[1]!.in.peak60s).toBeCloseTo(o.peak60s, -6);
    expect(client.queues['nitro_egress[0]']).toBeGreaterThan(0);
    expect(s.output).toContain('client    out: peak 60 s rate (CloudWatch 1-minute)');
    expect(s.output).toContain('note: this run moves packets in batches of up to 64');
    // the server's received flow: one-way latency percentiles, ordered
    const lat = Object.values(
      (
        s.result as {
          instances: Array<{ latency: Record<string, { p50us: number; p99us: number; p999us: number }> }>;
        }
      ).instances[1]!.latency,
    );
    expect(lat.length).toBeGreaterThan(0);
    const big = lat[0]!;
    expect(big.p50us).toBeGreaterThan(0);
    expect(big.p99us).toBeGreaterThanOrEqual(big.p50us);
    expect(big.p999us).toBeGreaterThanOrEqual(big.p99us);
    expect(s.output).toMatch(
      /server {4}latency tcp 10\.0\.0\.10:\d+ → 10\.0\.0\.11:5201 \(whole run\) +p50 [\d.]+ µs, p99/,
    );
  });

  it('a range narrows it; without the recorder it says how to turn it on; lab record on starts one', () => {
    const l = lab({});
    const recs = runScript(l, [
      'lab summary',
      'lab record status',
      'lab record on',
      'iperf3 -c server -t 2 -M 9000',
      'lab summary --from 1 --to 2',
      'lab summary --from 2 --to 1',
    ]);
    expect(recs[0]!.exitCode).toBe(1);
    expect(recs[0]!.output).toContain('the full recorder is off. Turn it on with `lab record on`');
    expect(recs[1]!.output).toContain('recorder: off');
    expect(recs[2]!.output).toContain('recorder: on from t = 0.000 s');
    const r = recs[4]!.result as Summary;
    expect(r.instances[0]!.out.peak1s * 8).toBeGreaterThan(9e9);
    expect(recs[5]!.exitCode).toBe(2);
  });
});
