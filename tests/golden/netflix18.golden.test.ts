/**
 * Seed NETFLIX18 (2018 netperf table) and seed SRIOV (c3.8xlarge with and without SR-IOV) re-measured
 * in the lab (issue 15, "Proof"). The table's cells are the `aws-2018` profile's bandwidths
 * (catalog/profile-2018.ts, measured): each pair launches with that profile, sets the 1500-byte MTU
 * the seed's AMI had, starts netserver and runs netperf TCP_STREAM as the seed did; what comes out is
 * the model's (TCP, the guest driver, the VPC layer's shapers charging 18 bytes a frame), compared
 * with the cell within ±10 %. Burstable cells are measured twice: at launch (burst) and once the
 * credits are spent (MODEL_PARAMS.burstCreditSecondsOverride shortens the bucket to 1 s of burst).
 * Cells netperf cannot reach with one flow (the ** sizes above the 10 Gbps single-flow limit) are
 * listed, not asserted. The summary (netflix18.summary.md) is what the model printed.
 */
import { describe, expect, it } from 'vitest';
import { listInstanceTypes, netflix18Cell } from '../../src/catalog';
import { fmt, runLab } from './helpers';

const summary: string[] = ['# Seeds NETFLIX18 and SRIOV: what the model printed', ''];

/**
 * Cells the lab cannot reproduce, and why (a mechanism it lacks, not a figure to tune): measured and
 * printed, asserted only to stay below the cell.
 */
const GAPS: Readonly<Record<string, string>> = {};

function netperfGbps(output: string): number {
  // netperf -P 0: "131072  16384  16384    1.00     5725.48   "
  const m = /(\d+\.\d\d)\s+$/.exec(output);
  if (!m) throw new Error(`no throughput in ${JSON.stringify(output)}`);
  return Number(m[1]) / 1000;
}

function measure(type: string, baseline: boolean): number {
  const script = [
    'ip link set dev eth0 mtu 1500',
    'server: ip link set dev eth0 mtu 1500',
    'server: netserver',
    ...(baseline ? ['netperf -H server -l 3 -P 0'] : []),
    'netperf -H server -l 1 -P 0',
  ];
  const { runs } = runLab(
    {
      version: 4,
      placement: 'cluster',
      settings: { profile: 'aws-2018' },
      params: baseline ? { burstCreditSecondsOverride: 1 } : {},
      instances: [
        { name: 'client', type },
        { name: 'server', type },
      ],
    },
    script,
  );
  return netperfGbps(runs[runs.length - 1]!.output);
}

const cells = listInstanceTypes()
  .map((s) => ({ type: s.name, cell: netflix18Cell(s.name) }))
  .filter(
    (x): x is { type: string; cell: NonNullable<ReturnType<typeof netflix18Cell>> } => x.cell !== undefined,
  );

describe('NETFLIX18: the 2018 netperf table, re-measured with the aws-2018 profile', () => {
  const rows: string[] = [];
  const reachable = cells.filter((c) => c.cell.burstGbps <= 10);
  it.each(reachable.map((c) => [c.type, c.cell] as const))('%s', (type, cell) => {
    const burst = measure(type, false);
    const err = (burst - cell.burstGbps) / cell.burstGbps;
    let line = `| ${type} | ${cell.burstGbps} | ${fmt(burst)} | ${(err * 100).toFixed(1)} %${GAPS[type] ? ' (gap, below)' : ''}`;
    if (GAPS[type]) expect(burst).toBeLessThan(cell.burstGbps);
    else expect(Math.abs(err), `${type}: ${burst} vs ${cell.burstGbps}`).toBeLessThanOrEqual(0.1);
    if (cell.baselineGbps < cell.burstGbps) {
      const base = measure(type, true);
      const e2 = (base - cell.baselineGbps) / cell.baselineGbps;
      line += ` | ${cell.baselineGbps} | ${fmt(base)} | ${(e2 * 100).toFixed(1)} % |`;
      expect(Math.abs(e2), `${type} baseline: ${base} vs ${cell.baselineGbps}`).toBeLessThanOrEqual(0.1);
    } else line += ' | | | |';
    rows.push(line);
  });

  it('summary', () => {
    const over = cells
      .filter((c) => c.cell.burstGbps > 10)
      .map((c) => `${c.type} (${c.cell.burstGbps} Gbps)`);
    summary.push(
      '## NETFLIX18 (netperf TCP_STREAM -l 1, MTU 1500, cluster placement, settings.profile aws-2018)',
      '',
      '| type | cell (Gbps) | lab | error | baseline cell | lab after credits | error |',
      '|---|---|---|---|---|---|---|',
      ...rows.sort(),
      '',
      `Not asserted (one netperf flow stops at the 10 Gbps single-flow limit; the seed does not say how many flows made these): ${over.join(', ')}.`,
      '',
      ...Object.entries(GAPS).flatMap(([t, why]) => [`Gap, ${t}: ${why}.`, '']),
    );
  });
});

describe('SRIOV: c3.8xlarge with and without SR-IOV (iperf3 UDP, 1,470-byte datagrams, same AZ)', () => {
  it('loss and jitter by offered rate; TCP in one subnet', async () => {
    const rows: string[] = [];
    for (const rate of ['1G', '1.5G', '2G', '2.5G']) {
      const cols: string[] = [];
      const jitter: number[] = [];
      for (const en of [false, true]) {
        const { runs } = runLab(
          {
            version: 4,
            placement: 'same-az',
            instances: [
              { name: 'client', type: 'c3.8xlarge', enhancedNetworking: en },
              { name: 'server', type: 'c3.8xlarge', enhancedNetworking: en },
            ],
          },
          [`iperf3 -c server -u -b ${rate} -l 1470 -t 2 -J`],
        );
        const r = (runs[0]!.result as { end: { sum_received: Record<string, number> } }).end.sum_received;
        cols.push(
          `${fmt(r.bits_per_second! / 1e9)} Gbps, ${fmt(r.lost_percent!)} % lost, jitter ${fmt(r.jitter_ms!, 3)} ms`,
        );
        if (!en) expect(r.lost_percent).toBeGreaterThan(10);
        else expect(r.lost_percent).toBeLessThan(0.1);
        jitter.push(r.jitter_ms!);
      }
      // the seed: SR-IOV's jitter lower at every rate it tried
      expect(jitter[0], rate).toBeGreaterThan(jitter[1]!);
      rows.push(`| ${rate} | ${cols.join(' | ')} |`);
    }
    const tcp = runLab(
      {
        version: 4,
        placement: 'same-az',
        instances: [
          { name: 'client', type: 'c3.8xlarge' },
          { name: 'server', type: 'c3.8xlarge' },
        ],
      },
      [
        'ip link set dev eth0 mtu 1500',
        'server: ip link set dev eth0 mtu 1500',
        'iperf3 -c server -t 1 -P 2 -J',
      ],
    ).runs[2]!;
    const tcpGbps =
      (tcp.result as { end: { sum_received: { bits_per_second: number } } }).end.sum_received
        .bits_per_second / 1e9;
    expect(Math.abs(tcpGbps - 9.6) / 9.6).toBeLessThanOrEqual(0.05);
    summary.push(
      '## SRIOV (c3.8xlarge pair, same AZ, iperf3 -u -l 1470 -t 2)',
      '',
      '| offered | PV (vif, dom0 netback): received, loss, jitter | SR-IOV (ixgbevf): received, loss, jitter |',
      '|---|---|---|',
      ...rows,
      '',
      `TCP with SR-IOV at MTU 1500, iperf3 -P 2 -t 1: ${fmt(tcpGbps)} Gbps (seed: 9.6 Gbps in one subnet).`,
      '',
      "Jitter: past the PV knee dom0 holds 512 KiB for the guest and then its qdisc's 32 packets; what the qdisc admits after each copy comes in runs of 32 that netback's copies of 64 do not follow, so consecutive datagrams reach the guest with differing waits and PV's jitter comes out several times SR-IOV's, as the seed says (with a 64-packet qdisc, or no internal queue, it falls to SR-IOV's level or below). iperf's jitter is a running average over the last few dozen datagrams, so one run's figure past the knee varies from seed to seed (0.02–0.11 ms over seeds 1–5). Below the knee PV's jitter is dom0's wake-ups and preemptions (tests/engine/xen-paths.test.ts).",
      '',
    );
    await expect(`${summary.join('\n')}\n`).toMatchFileSnapshot('./netflix18.summary.md');
  });
});
