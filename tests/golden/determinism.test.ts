/**
 * A run is a pure function of scenario and seed (docs/architecture.md, "The engine"): the same scenario
 * run twice gives the byte-identical `--json` document, even with other labs run in between (no
 * module-level state leaks from one lab into the next); a different seed keeps the scenario valid
 * and the measurements sane but changes what Linux and the ENA driver would randomise at boot
 * (the RSS hash key from netdev_rss_key_fill, hence the hash → queue layout, and the MAC).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createLab, type RunRecord, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

const SCRIPT = [
  'iperf3 -c server -t 1 -P 2',
  'server: iperf3 -c client -u -b 2G -n 20M -J',
  'sleep 0.1 &',
  'iperf3 -c server -n 50M -P 4 -R',
  'ethtool -S eth0',
  'server: ethtool -x eth0',
  'tc -s qdisc show dev eth0',
  'ip link show dev eth0',
];

function scenario(seed: number) {
  const r = parseScenario({ version: 1, seed, placement: 'cluster' });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/** The CLI's --json document for a run (src/cli/main.ts). */
function jsonDoc(seed: number): { text: string; runs: RunRecord[] } {
  const runs = runScript(createLab(scenario(seed)), SCRIPT);
  const doc = {
    runs: runs.map((r) => ({
      host: r.host,
      command: r.command,
      startNs: r.startNs,
      endNs: r.endNs,
      exitCode: r.exitCode,
      output: r.output,
      result: r.result,
    })),
  };
  return { text: `${JSON.stringify(doc, null, 2)}\n`, runs };
}

const outputOf = (runs: RunRecord[], command: string) => {
  const r = runs.find((x) => x.command === command);
  if (!r) throw new Error(`no record for ${command}`);
  return r.output;
};

describe('determinism', () => {
  let first: ReturnType<typeof jsonDoc>;
  let other: ReturnType<typeof jsonDoc>;
  let again: ReturnType<typeof jsonDoc>;
  beforeAll(() => {
    first = jsonDoc(1);
    other = jsonDoc(2);
    again = jsonDoc(1);
  });

  it('the script runs: every command succeeds, on the host it names', () => {
    expect(first.runs.map((r) => `${r.exitCode} ${r.host}: ${r.command}`)).toEqual([
      '0 client: iperf3 -c server -t 1 -P 2',
      '0 server: iperf3 -c client -u -b 2G -n 20M -J',
      '0 client: sleep 0.1 &', // the background job's "[1] 1001"
      '0 client: iperf3 -c server -n 50M -P 4 -R',
      '0 client: sleep 0.1 &', // it ended during the previous command and is reported after it
      '0 client: ethtool -S eth0',
      '0 server: ethtool -x eth0',
      '0 client: tc -s qdisc show dev eth0',
      '0 client: ip link show dev eth0',
    ]);
  });

  it('the same scenario and seed give a byte-identical --json document, other labs run in between', () => {
    expect(again.text.length).toBe(first.text.length);
    expect(again.text).toBe(first.text);
  });

  it('a different seed: still valid, same commands and exit codes, same shape of results', () => {
    expect(other.runs.map((r) => [r.host, r.command, r.exitCode])).toEqual(
      first.runs.map((r) => [r.host, r.command, r.exitCode]),
    );
    const sent = (runs: RunRecord[]) =>
      (runs[0]!.result as { end: { sum_sent: { bits_per_second: number } } }).end.sum_sent.bits_per_second;
    // same physics: the seeds differ in hashing and boot-time randomness, not in capacity
    expect(sent(other.runs) / sent(first.runs)).toBeGreaterThan(0.9);
    expect(sent(other.runs) / sent(first.runs)).toBeLessThan(1.1);
    expect(other.text).not.toBe(first.text);
  });

  it('a different seed: a different RSS hash key (so a different flow → queue layout) and MAC', () => {
    const key = (runs: RunRecord[]) =>
      /RSS hash key:\n([0-9a-f:\n]+)/.exec(outputOf(runs, 'ethtool -x eth0'))?.[1];
    expect(key(first.runs)).toMatch(/^([0-9a-f]{2}:){39}[0-9a-f]{2}\n/);
    expect(key(other.runs)).toMatch(/^([0-9a-f]{2}:){39}[0-9a-f]{2}\n/);
    expect(key(other.runs)).not.toBe(key(first.runs));
    const mac = (runs: RunRecord[]) =>
      /link\/ether ([0-9a-f:]{17})/.exec(outputOf(runs, 'ip link show dev eth0'))?.[1];
    expect(mac(first.runs)).toMatch(/^02:/);
    expect(mac(other.runs)).not.toBe(mac(first.runs));
    // the iperf3 cookie (start.cookie) is drawn from the client's stream too
    const cookie = (runs: RunRecord[]) => (runs[0]!.result as { start: { cookie: string } }).start.cookie;
    expect(cookie(other.runs)).not.toBe(cookie(first.runs));
  });
});
