/**
 * Incast (issue 4): eight clients send a synchronized burst to one server through the real command
 * line (`npm run lab -- --scenario tests/metrics/fixtures/incast.json --json`, spawned as a user
 * runs it). Eight `iperf3 -c server -p P -n 4M &` start at the same simulated instant (a trailing
 * `&` runs a command in the background, as in bash; one iperf3 server per port, since a server runs
 * one test at a time). Each client's flow leaves at up to the 10 Gbit/s cluster per-flow limit, so
 * up to 80 Gbit/s arrive at a c6i.8xlarge whose inbound allowance is 12.5 Gbit/s: its Nitro card's
 * ingress shaper queues (2 ms at the shaped rate, assumed) and then drops, counted in
 * bw_in_allowance_exceeded. TCP recovers the drops (SACK/RACK), so every flow still completes.
 *
 * What the model says and the test asserts: the drops are at the server's Nitro ingress
 * (`drops in nitro_ingress: bw_in_allowance_exceeded` in `lab summary`, and the counter in
 * `ethtool -S`); the one-way latency of every flow is dominated by that queue (p50 and p99 in the
 * milliseconds) where the same 4 MiB sent by one client alone stays in the hundreds of µs at p50 and
 * loses nothing.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const FIXTURE = 'tests/metrics/fixtures/incast.json';

interface Run {
  host: string;
  command: string;
  exitCode: number;
  output: string;
  result: unknown;
}
interface Latency {
  p50us: number;
  p99us: number;
  p999us: number;
  packets: number;
}
interface SummaryEntry {
  instance: string;
  counters: Record<string, number>;
  queues: Record<string, number>;
  latency: Record<string, Latency>;
}

function lab(...args: string[]): Promise<Run[]> {
  return new Promise((resolve, reject) => {
    execFile(
      TSX,
      ['src/cli/main.ts', '--scenario', FIXTURE, '--json', ...args],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`lab failed: ${err.message}\n${stderr}`));
        else resolve((JSON.parse(stdout) as { runs: Run[] }).runs);
      },
    );
  });
}

function server(runs: Run[]): { summary: SummaryEntry; ethtool: Record<string, number>; text: string } {
  const s = runs.find((r) => r.command === 'lab summary')!;
  const e = runs.find((r) => r.host === 'server' && r.command === 'ethtool -S eth0')!;
  expect(s.exitCode).toBe(0);
  const summary = (s.result as { instances: SummaryEntry[] }).instances.find((i) => i.instance === 'server')!;
  return { summary, ethtool: e.result as Record<string, number>, text: s.output };
}

describe('incast: eight clients, one synchronized burst, one server', () => {
  it('fills the server’s Nitro ingress queue, drops there, and every flow’s latency is the queue’s', async () => {
    const [incast, alone] = await Promise.all([
      lab(),
      // the same fixture (instances, types, recorder) with one client only
      lab('--', 'client1: iperf3 -c server -n 4M &', 'sleep 1', 'lab summary', 'server: ethtool -S eth0'),
    ]);

    // eight background jobs started at one instant: their records start at the same ns
    const starts = incast.filter((r) => /^iperf3 -c server -p \d+ -n 4M &$/.test(r.command));
    expect(new Set(starts.map((r) => r.host)).size).toBe(8);

    const a = server(alone);
    const i = server(incast);
    // alone: under the allowance, nothing dropped, nothing shaped on the way in
    expect(a.ethtool.bw_in_allowance_exceeded).toBe(0);
    expect(a.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeUndefined();

    // incast: the inbound allowance shaped (queued, then dropped) packets, in ethtool -S and in the summary
    const dropped = i.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']!;
    expect(dropped).toBeGreaterThan(100);
    expect(i.ethtool.bw_in_allowance_exceeded).toBeGreaterThan(dropped); // queued or dropped (AWS-ENAPERF)
    expect(i.summary.counters.bw_in_allowance_exceeded).toBe(i.ethtool.bw_in_allowance_exceeded);
    expect(i.text).toMatch(/server +drops in nitro_ingress: bw_in_allowance_exceeded +\d+ packets/);
    // the ingress queue was the fullest on the path: hundreds of 9001-byte packets (≈ 2 ms at 12.5 Gbit/s)
    expect(i.summary.queues['nitro_ingress[0]']).toBeGreaterThan(300);
    // nothing else dropped anything: the drops are the allowance's
    for (const k of Object.keys(i.summary.counters).filter((k) => k.startsWith('drops ')))
      expect(k).toBe('drops nitro_ingress bw_in_allowance_exceeded');

    // latency: eight flows received, each with its percentiles in the summary
    const flows = Object.entries(i.summary.latency);
    expect(flows).toHaveLength(8);
    const lone = Object.values(a.summary.latency)[0]!;
    expect(lone.p50us).toBeLessThan(400);
    for (const [name, l] of flows) {
      expect(i.text).toContain(`latency ${name} (whole run)`);
      expect(l.p99us).toBeGreaterThan(l.p50us);
      // the burst sits in the server's ingress queue: milliseconds, not the lone flow's hundreds of µs
      expect(l.p50us, name).toBeGreaterThan(4 * lone.p50us);
      expect(l.p99us, name).toBeGreaterThan(1800);
      expect(l.p99us, name).toBeGreaterThan(1.8 * lone.p99us);
    }
  }, 180_000);
});
