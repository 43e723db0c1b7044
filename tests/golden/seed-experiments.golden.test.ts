/**
 * The seeds' experiments as golden tests of the model (issue 2, "Proof"). Each runs the lab as a
 * user would (the same shell commands) and asserts the figure the seed measured within ±5%, or a
 * tolerance justified next to it. Nothing here feeds the targets into the model: the numbers come
 * out of TCP, the qdiscs, the ENA rings and the Nitro shapers. A checked-in summary of the outputs
 * (seed-experiments.summary.md) shows what the model printed; any change to the model shows up there.
 */
import { describe, expect, it } from 'vitest';
import { counter, fmt, intervalSums, iperfEnd, pair, runLab, within } from './helpers';

const summary: string[] = ['# Seed experiments: what the model printed', ''];

describe('NET402 c7i.large → c7i.large in a cluster placement group', () => {
  it('exp 1: one flow ≈ 9.5 Gbps (the 10 Gbps flow limit); two flows ≈ 12.5 Gbps in sum, split evenly', () => {
    // Each test on a freshly launched pair, as the talk ran them. A one-second test is sensitive to a single
    // retransmission timeout (200 ms minimum): after a lab has already run traffic a lost retransmission can
    // stall one flow and cost ~10% of the second (see the notes on loss rates versus the talk's Retr 0).
    const p1 = iperfEnd(runLab(pair('c7i.large'), ['iperf3 -c server -t 1 -l 9000 -P 1 -J']).runs[0]!);
    const p2 = iperfEnd(runLab(pair('c7i.large'), ['iperf3 -c server -t 1 -l 9000 -P 2 -J']).runs[0]!);
    // Talk: 9.54 Gbps. The model's flow limit is the documented 10 Gbps charged per Ethernet frame:
    // 8949 B of payload per 9019 B frame gives ≤ 9.92 Gbps of goodput; slow start costs a little in 1 s.
    expect(within(p1.recvGbps, 9.5, 0.05)).toBe(true);
    expect(within(p2.recvGbps, 12.5, 0.05)).toBe(true);
    // "split about evenly": each flow within 10% of an equal share (the Nitro shapers serve flows fairly)
    for (const s of p2.streams) expect(within(s.recvGbps, p2.recvGbps / 2, 0.1)).toBe(true);
    summary.push(
      '## Exp 1 (c7i.large, cluster, -t 1 -l 9000)',
      `- -P 1: ${fmt(p1.recvGbps)} Gbps (talk 9.54)`,
      `- -P 2: ${p2.streams.map((s) => fmt(s.recvGbps)).join(' + ')} = ${fmt(p2.recvGbps)} Gbps (talk 6.24 + 6.22 = 12.5)`,
      '',
    );
  });

  it('the 6-s test (-t 6 -M 9000 -P 1): held at the flow limit with 0 retransmits and a cwnd near 1.6–1.83 MB', () => {
    const run = runLab(pair('c7i.large'), ['iperf3 -c server -t 6 -M 9000 -P 1 -J']).runs[0]!;
    const end = iperfEnd(run);
    const ivs = (
      run.result as { intervals: Array<{ streams: Array<{ retransmits: number; snd_cwnd: number }> }> }
    ).intervals;
    const cwndMB = ivs.map((iv) => iv.streams[0]!.snd_cwnd / 2 ** 20);
    // Talk: 9.53 Gbps, Retr 0 in every second, cwnd 1.60 → 1.69 → 1.83 MBytes. No loss emerges from the
    // flow limiter holding TX completions (MODEL_PARAMS.nitroFlowLimitHoldsTxCompletion): TCP Small Queues
    // then bound what the flow has outstanding, so cwnd stops growing below the limiter's queue.
    expect(within(end.recvGbps, 9.53, 0.05)).toBe(true);
    expect(ivs.map((iv) => iv.streams[0]!.retransmits)).toEqual([0, 0, 0, 0, 0, 0]);
    for (const c of cwndMB) expect(c >= 1.6 * 0.95 && c <= 1.83 * 1.05, `cwnd ${c} MB`).toBe(true);
    summary.push(
      '## The 6-s test (c7i.large, cluster, -t 6 -M 9000 -P 1)',
      `- ${fmt(end.recvGbps)} Gbps, Retr ${end.streams[0]!.retr}, cwnd ${cwndMB.map((c) => fmt(c)).join(' / ')} MBytes (talk 9.53, 0, 1.60–1.83)`,
      '',
    );
  });

  it('exp 2: -t 600 -P 2 bursts at ≈ 12.5 Gbps until credits run out, then ≈ 0.78 Gbps; bw_out_allowance_exceeded rises', () => {
    const { runs, lab } = runLab(pair('c7i.large'), [
      'iperf3 -c server -t 600 -l 9000 -P 2 -J &',
      'sleep 200',
      'ethtool -S eth0',
      'sleep 250',
      'ethtool -S eth0',
      'sleep 152',
      'ethtool -S eth0',
    ]);
    const iperf = runs.find((r) => r.command.startsWith('iperf3') && r.result)!;
    const sums = intervalSums(iperf);
    expect(sums.length).toBe(600);
    const c = lab.instance('client')!.nitro.creditsOut!;
    const exhaustedS = c.exhaustedAtNs / 1e9;
    // The burst bucket is an assumed figure (6.5 min × vCPU/2 for this size); AWS says 5 to 60 minutes.
    expect(exhaustedS).toBeGreaterThan(300);
    expect(exhaustedS).toBeLessThan(600);
    const burst = sums.slice(5, Math.floor(exhaustedS) - 5);
    const base = sums.slice(Math.ceil(exhaustedS) + 5);
    const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    expect(within(avg(burst), 12.5, 0.05)).toBe(true);
    expect(within(avg(base), 0.78, 0.05)).toBe(true);
    const bwOut = runs
      .filter((r) => r.command === 'ethtool -S eth0')
      .map((r) => counter(r, 'bw_out_allowance_exceeded'));
    // Shaped packets are counted whenever the aggregate allowance makes them queue: during the burst
    // (two flows ask for 20 Gbps of a 12.5 Gbps allowance) and, at the baseline, from the moment credits run out.
    expect(bwOut[2]! - bwOut[1]!).toBeGreaterThan(0);
    expect(bwOut[1]!).toBeGreaterThan(bwOut[0]!);
    // each flow's mean at the baseline (the talk's one second after credits ran out: 368 and 403 Mbit/s)
    const ivs = (iperf.result as { intervals: Array<{ streams: Array<{ bits_per_second: number }> }> })
      .intervals;
    const baseIvs = ivs.slice(Math.ceil(exhaustedS) + 5);
    const perFlowMbps = [0, 1].map((i) => avg(baseIvs.map((iv) => iv.streams[i]!.bits_per_second)) / 1e6);
    summary.push(
      '## Exp 2 (c7i.large, -t 600 -l 9000 -P 2)',
      `- burst: ${fmt(avg(burst))} Gbps until t = ${fmt(exhaustedS, 1)} s; then ${fmt(avg(base), 3)} Gbps (talk: 12.5, then 0.772 = 368 + 403 Mbps)`,
      `- at the baseline, per flow: ${perFlowMbps.map((m) => fmt(m, 0)).join(' + ')} Mbps (talk 368 + 403 in one second)`,
      `- bw_out_allowance_exceeded at 200 s / 450 s / 602 s: ${bwOut.join(' / ')}`,
      '',
    );
  }, 120_000);

  it('exp 3: -M 128 with one or two flows gives the same ≈ 0.93 Gbps: the PPS allowance binds', () => {
    // Fresh pairs, as the talk ran them (see exp 1).
    const r1 = runLab(pair('c7i.large'), ['iperf3 -c server -t 10 -M 128 -P 1 -J', 'ethtool -S eth0']).runs;
    const r2 = runLab(pair('c7i.large'), ['iperf3 -c server -t 10 -M 128 -P 2 -J', 'ethtool -S eth0']).runs;
    const runs = [r1[0]!, r1[1]!, r2[0]!, r2[1]!];
    const p1 = iperfEnd(runs[0]!);
    const p2 = iperfEnd(runs[2]!);
    expect(within(p1.recvGbps, 0.93, 0.05)).toBe(true);
    expect(within(p2.recvGbps, 0.93, 0.05)).toBe(true);
    for (const s of p2.streams) expect(within(s.recvGbps, p2.recvGbps / 2, 0.1)).toBe(true);
    const pps1 = counter(runs[1]!, 'pps_allowance_exceeded');
    const pps2 = counter(runs[3]!, 'pps_allowance_exceeded');
    expect(pps1).toBeGreaterThan(0);
    expect(pps2).toBeGreaterThan(0);
    summary.push(
      '## Exp 3 (c7i.large, -t 10 -M 128)',
      `- -P 1: ${fmt(p1.recvGbps, 3)} Gbps; -P 2: ${p2.streams.map((s) => fmt(s.recvGbps, 3)).join(' + ')} = ${fmt(p2.recvGbps, 3)} Gbps (talk 0.928 and 0.471 + 0.477 = 0.929)`,
      `- pps_allowance_exceeded after each run (fresh pairs): ${pps1}, ${pps2}`,
      '',
    );
  }, 60_000);

  it('exp 4: UDP 8 × 10G on 2 vCPUs: the sender reaches ≈ 26 Gbps / ≈ 364k datagrams; the receiver gets at most the allowance', () => {
    const { runs } = runLab(pair('c7i.large'), [
      'iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948 -J',
      'ethtool -S eth0',
    ]);
    const r = iperfEnd(runs[0]!);
    expect(within(r.sentGbps, 26.2, 0.05)).toBe(true);
    expect(within(r.sentPackets, 364_279, 0.05)).toBe(true);
    expect(r.recvGbps).toBeLessThanOrEqual(12.5 * 1.01);
    expect(r.lostPercent).toBeGreaterThan(40);
    expect(counter(runs[1]!, 'bw_out_allowance_exceeded')).toBeGreaterThan(0);
    summary.push(
      '## Exp 4 (c7i.large, -u -b 10G -P 8 -t 1 -l 8948)',
      `- sender ${fmt(r.sentGbps, 1)} Gbps, ${r.sentPackets} datagrams (talk 26.2 Gbps, 364,279)`,
      `- receiver ${fmt(r.recvGbps, 1)} Gbps, ${r.lostPackets} lost (${fmt(r.lostPercent, 0)}%)`,
      '',
    );
  });
});

describe('NET402 traffic control on c5n.18xlarge', () => {
  it('exp 5: 10 flows run at the 10 Gbps flow limit; htb 10gbit + fq_codel brings them to ≈ 0.96 Gbps each, 9.6 in sum', () => {
    const { runs } = runLab(pair('c5n.18xlarge'), [
      'iperf3 -c server -t 30 -P 10 -J',
      'tc qdisc add dev eth0 root handle 1: htb default 10',
      'tc class add dev eth0 parent 1: classid 1:10 htb rate 10gbit ceil 10gbit',
      'tc qdisc add dev eth0 parent 1:10 handle 20: fq_codel flows 1024 limit 10240 quantum 8000 maxrate 1gbit',
      'tc qdisc add dev eth0 parent 1:10 handle 20: fq_codel flows 1024 limit 10240 quantum 8000',
      'iperf3 -c server -t 30 -P 10 -J',
    ]);
    const before = iperfEnd(runs[0]!);
    // Talk: 9.31 Gbps per stream. The model runs each flow at its documented 10 Gbps limit (≈ 9.9 Gbps of
    // goodput); the talk's slide is marked CONFLICT in docs/domain-facts.md §7/§8 (its 93 Gbps sum cannot come from the
    // c7i.large it is labelled with). We assert the mechanism — each stream held just under its flow limit,
    // within 7% of the talk's figure — rather than tune the limit to the slide.
    for (const s of before.streams) {
      expect(s.recvGbps).toBeLessThanOrEqual(10);
      expect(within(s.recvGbps, 9.31, 0.07)).toBe(true);
    }
    expect(runs[3]!.exitCode).toBe(1);
    expect(runs[3]!.output).toContain('What is "maxrate"?');
    const after = iperfEnd(runs[5]!);
    expect(within(after.recvGbps, 9.64, 0.05)).toBe(true);
    for (const s of after.streams) expect(within(s.recvGbps, 0.964, 0.05)).toBe(true);
    summary.push(
      '## Exp 5 (c5n.18xlarge, cluster, -t 30 -P 10)',
      `- without tc: ${fmt(Math.min(...before.streams.map((s) => s.recvGbps)))}–${fmt(Math.max(...before.streams.map((s) => s.recvGbps)))} Gbps per stream, ${fmt(before.recvGbps, 1)} in sum (talk 9.31, 93.1)`,
      `- the talk's fq_codel … maxrate 1gbit: ${runs[3]!.output.split('\n')[0]} (exit ${runs[3]!.exitCode})`,
      `- with htb 10gbit + fq_codel: ${fmt(Math.min(...after.streams.map((s) => s.recvGbps)), 3)}–${fmt(Math.max(...after.streams.map((s) => s.recvGbps)), 3)} Gbps per stream, ${fmt(after.recvGbps)} in sum (talk 0.964, 9.64)`,
      '',
    );
  }, 120_000);

  it('writes the summary of what the model printed', async () => {
    summary.push(
      '## Why the figures last moved',
      "- Issue 13: a Nitro shaping stage caps each flow's part of its buffer at capacity / flows waiting (nitroShaperFairBufferShare; before, only the total was capped behind DRR, and a TCP flow held by its receive window could keep most of it while the other took every loss). Two-flow splits: exp 1 -P 2 6.19 + 6.22 → 6.26 + 6.15 (talk 6.24 + 6.22); exp 3 -P 2 0.435 + 0.477 → 0.451 + 0.460 (talk 0.471 + 0.477), its pps_allowance_exceeded -1.3 %; exp 2 queues fewer packets at bw_out (-0.6 % at 200 s, -1.4 % at 450 s) as neither flow hogs the buffer; exp 4 loses 33 fewer of 367,321 datagrams; exp 5's htb run 9.93 → 9.92 in sum (it starts from the state the run at 99.2 of the 100 Gbps allowance left). Single-flow runs (exp 1 -P 1, the 6-s test, exp 3 -P 1) are unchanged. The card's bandwidth became a stage after the allowances (issue 13): no figure moved. Then each direction of the PPS allowance was assured half of it, borrowing the rest (nitroPpsAssuredShare): exp 3 -P 2 0.451 + 0.460 → 0.455 + 0.455 (sum 0.912 → 0.910), and pps_allowance_exceeded 3.9 M → 9.8 M (-P 1) and 8.3 M → 9.8 M (-P 2): the data direction waits for its share or a borrow, so its queue rarely empties and nearly every one of the ≈ 10 M segments is counted as queued, at the same rate. Then the egress PPS allowance became the card's processing budget, holding the ENA TX fetch (nitroPpsHoldsTxFetch; the TX queues waiting for it are served fairly in packets): exp 3 -P 1 0.910 → 0.911, -P 2 0.455 + 0.455 → 0.456 + 0.456, pps_allowance_exceeded 9,762,671 → 9,559,889 (-P 1) and 9,807,702 → 9,818,883 (-P 2), now the segments held in the TX rings; exp 1, 2, 4 and 5 unchanged.",
      '',
    );
    await expect(`${summary.join('\n')}\n`).toMatchFileSnapshot('./seed-experiments.summary.md');
  });
});
