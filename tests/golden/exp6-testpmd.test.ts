/**
 * Issue 2, proof item 6 (TOONK; AWS ena-dts): c5n.18xlarge pair in a cluster placement
 * group, DPDK testpmd so that no kernel stands in the way. About 1 Mpps per TX queue (the ENA
 * queue's service time), and a per-instance ceiling of about 8.5 Mpps (the Nitro PPS allowance)
 * reached between 8 and 12 busy queues, with pps_allowance_exceeded rising past it.
 *
 * Delivered rate = packets the receiver's testpmd counted / the sender's 0.2 s. The receiver also
 * gets what the Nitro shaper still held when the sender stopped (≤ 2 ms of queue plus the 1 ms
 * bucket at the allowance): up to +1.5% at the ceiling, inside the ±5%.
 * The checked-in summary (exp6-testpmd.summary.md) is compared with what the model prints;
 * UPDATE_SUMMARY=1 rewrites it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/engine/session/runner';
import { counter, fmt, pair, runLab, within } from './helpers';

interface Port {
  rxPackets: number;
  rxDropped: number;
  txPackets: number;
  txDropped: number;
}
const port = (r: RunRecord): Port => (r.result as { ports: Port[] }).ports[0]!;
const SEND_S = 0.2;

const RX_SERVER = 'server: dpdk-testpmd -l 0-32 -- --forward-mode=rxonly --rxq=32 --txq=32 --nb-cores=32 &';

function txonly(n: number): { deliveredMpps: number; sentMpps: number; ppsExceeded: number } {
  const multi = n > 1 ? ' --txonly-multi-flow' : '';
  const { runs } = runLab(pair('c5n.18xlarge'), [
    RX_SERVER,
    `timeout ${SEND_S} dpdk-testpmd -l 0-${n} -- --forward-mode=txonly --txq=${n} --rxq=${n} --nb-cores=${n} --txpkts=64${multi}`,
    'ethtool -S eth0',
    'sleep 0.01',
  ]);
  const client = runs.find((r) => r.command.includes('txonly'))!;
  const server = runs.find((r) => r.command.includes('rxonly') && r.result)!;
  expect(client.exitCode).toBe(124);
  return {
    deliveredMpps: port(server).rxPackets / SEND_S / 1e6,
    sentMpps: port(client).txPackets / SEND_S / 1e6,
    ppsExceeded: counter(runs.find((r) => r.command === 'ethtool -S eth0')!, 'pps_allowance_exceeded'),
  };
}

const summary: string[] = [
  '# Experiment 6: dpdk-testpmd on c5n.18xlarge (cluster placement group)',
  '',
  'Receiver: `dpdk-testpmd -l 0-32 -- --forward-mode=rxonly --rxq=32 --txq=32 --nb-cores=32 &`.',
  `Sender: \`timeout ${SEND_S} dpdk-testpmd -l 0-N -- --forward-mode=txonly --txq=N --rxq=N --nb-cores=N --txpkts=64 [--txonly-multi-flow]\`.`,
  'Seed 002 (TOONK): ~1 Mpps per queue, ~8.5 Mpps per instance reached at 12 queues.',
  '',
];

describe('exp 6: dpdk-testpmd on a c5n.18xlarge pair', () => {
  it('txonly, one TX queue, 64-B packets: ≈ 1 Mpps delivered (±10%)', () => {
    const r = txonly(1);
    expect(within(r.deliveredMpps, 1, 0.1)).toBe(true);
    expect(r.ppsExceeded).toBe(0);
    summary.push(
      `## One queue\n- delivered ${fmt(r.deliveredMpps, 3)} Mpps (seed: ~1 Mpps; ena-dts 0.998)`,
      '',
    );
  });

  it('sweep txq = 1…32: ≈ 1 Mpps per queue up to ≈ 8.5 Mpps, knee between 8 and 12, flat after; pps_allowance_exceeded past it', () => {
    const t0 = performance.now();
    const qs = [1, 2, 4, 8, 12, 16, 32];
    const rows = qs.map((n) => ({ n, ...txonly(n) }));
    const wallS = (performance.now() - t0) / 1000;
    const at = (n: number) => rows.find((r) => r.n === n)!;
    for (const n of [1, 2, 4, 8]) expect(within(at(n).deliveredMpps, n, 0.05)).toBe(true);
    for (const n of [12, 16, 32]) expect(within(at(n).deliveredMpps, 8.5, 0.05)).toBe(true);
    // the knee: 8 queues are below the ceiling, 12 are at it
    expect(at(8).deliveredMpps).toBeLessThan(8.5 * 0.97);
    expect(at(16).deliveredMpps / at(12).deliveredMpps).toBeGreaterThan(0.97);
    expect(at(32).deliveredMpps / at(12).deliveredMpps).toBeGreaterThan(0.97);
    // the ceiling is visible at the sender, as TOONK measured it (TX ≈ 8.5 Mpps from 12 queues on): the
    // card fetches no faster than its PPS budget (nitroPpsHoldsTxFetch), the rest waits in the TX rings
    // and testpmd counts what tx_burst could not place as TX-dropped
    for (const n of [1, 2, 4, 8]) expect(within(at(n).sentMpps, n, 0.05)).toBe(true);
    for (const n of [12, 16, 32]) expect(within(at(n).sentMpps, 8.5, 0.05)).toBe(true);
    for (const r of rows) expect(within(r.deliveredMpps, r.sentMpps, 0.02)).toBe(true);
    for (const n of [1, 2, 4, 8]) expect(at(n).ppsExceeded).toBe(0);
    for (const n of [12, 16, 32]) expect(at(n).ppsExceeded).toBeGreaterThan(0);
    summary.push(
      '## Sweep (64-B packets)',
      '| TX queues | sender TX-packets rate (Mpps) | delivered (Mpps) | sender pps_allowance_exceeded |',
      '|---:|---:|---:|---:|',
      ...rows.map(
        (r) => `| ${r.n} | ${fmt(r.sentMpps, 3)} | ${fmt(r.deliveredMpps, 3)} | ${r.ppsExceeded} |`,
      ),
      '',
    );
    // wall time is reported, not asserted in the summary (it varies by machine)
    console.log(`exp 6 sweep: ${qs.length} runs in ${wallS.toFixed(1)} s of wall time`);
  });

  it('io forwarding at the server returns the traffic to the client', () => {
    const { runs } = runLab(pair('c5n.18xlarge'), [
      'server: dpdk-testpmd -l 0-4 -- --forward-mode=io --rxq=4 --txq=4 --nb-cores=4 &',
      `timeout ${SEND_S} dpdk-testpmd -l 0-4 -- --forward-mode=txonly --txq=4 --rxq=4 --nb-cores=4 --txonly-multi-flow`,
      'sleep 0.01',
    ]);
    const client = port(runs.find((r) => r.command.includes('txonly'))!);
    const server = port(runs.find((r) => r.command.includes('io') && r.result)!);
    // the server receives what the client sent and sends it back out
    expect(within(server.rxPackets, client.txPackets, 0.02)).toBe(true);
    expect(server.txPackets + server.txDropped).toBeGreaterThanOrEqual(server.rxPackets * 0.99);
    expect(server.txPackets).toBeGreaterThan(server.rxPackets * 0.5);
    // and it reaches the client's port (txonly does not poll, so most overflow its RX rings)
    const clientRxTotal = client.rxPackets + client.rxDropped;
    expect(within(clientRxTotal, server.txPackets, 0.02)).toBe(true);
    summary.push(
      '## io forwarding at the server (client txonly, 4 queues, multi-flow)',
      `- client TX-packets ${client.txPackets}; server RX-packets ${server.rxPackets}, TX-packets ${server.txPackets}, TX-dropped ${server.txDropped}`,
      `- client RX-total ${clientRxTotal} (RX-packets ${client.rxPackets} + RX-dropped ${client.rxDropped}: txonly does not poll its RX queues)`,
      '',
    );
  });

  afterAll(() => {
    summary.push(
      '## Why the figures last moved',
      '- Issue 13: each direction of the PPS allowance is assured half of it and borrows the rest (nitroPpsAssuredShare); a txonly sender alone borrows all of it, through two buckets instead of one: at 32 queues 8.668 → 8.663 Mpps delivered.',
      "- Issue 13: then the egress PPS allowance became the card's processing budget, holding the ENA TX fetch (nitroPpsHoldsTxFetch; was a shaper after the completion): the sender's TX-packets rate at 12 / 16 / 32 queues 12.000 / 16.000 / 32.000 → 8.541 Mpps, the ceiling seen at the sender as TOONK measured it; pps_allowance_exceeded counts the packets held in the TX rings (2.37 / 3.18 / 6.39 M → 1.68 / 1.69 / 1.70 M); delivered 8.600 / 8.622 / 8.702 (the receiver also counts what the full rings, 1,024 packets per queue, still held when testpmd stopped).",
      '',
    );
    const path = join(__dirname, 'exp6-testpmd.summary.md');
    const text = `${summary.join('\n')}\n`;
    if (process.env.UPDATE_SUMMARY || !existsSync(path)) writeFileSync(path, text);
    else expect(text).toBe(readFileSync(path, 'utf8'));
  });
});
