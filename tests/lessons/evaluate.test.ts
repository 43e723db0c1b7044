/** The evaluator on hand-built observations: what it reads, what it says, when it waits. */
import { describe, expect, it } from 'vitest';
import { evaluateStep, formatCount, judgePrediction, measure } from '../../src/lessons/evaluate';
import type { HostSnapshot, LabSnapshot, Observation } from '../../src/lessons/observation';
import { type Predicate, PredicateSchema } from '../../src/lessons/schema';

function host(
  ip: string,
  counters: Record<string, number> = {},
  extra: Partial<HostSnapshot> = {},
): HostSnapshot {
  return {
    ip,
    type: 'c7i.large',
    baselineGbps: 0.781,
    peakGbps: 12.5,
    counters: { pps_allowance_exceeded: 0, bw_out_allowance_exceeded: 0, ...counters },
    rxRing: 1024,
    txRing: 1024,
    flowSetups: 0,
    slowPathPackets: 0,
    acceleratedPackets: 0,
    conntrackTracked: 0,
    conntrackUntracked: 0,
    ...extra,
  };
}
const snap = (atNs: number, client: HostSnapshot, server: HostSnapshot): LabSnapshot => ({
  atNs,
  hosts: { client, server },
});

const iperfDoc = (gbps: number, streams: number[]) => ({
  start: {
    connected: [{ remote_host: '10.0.0.11' }],
    test_start: { num_streams: streams.length },
    tcp_mss: 128,
  },
  intervals: [{ sum: { bits_per_second: gbps * 1e9 } }],
  end: {
    streams: streams.map((g) => ({ receiver: { bits_per_second: g * 1e9 } })),
    sum_sent: { bits_per_second: gbps * 1.01e9, retransmits: 3, seconds: 2 },
    sum_received: { bits_per_second: gbps * 1e9, seconds: 2 },
  },
});

function obs(): Observation {
  const s0 = snap(0, host('10.0.0.10'), host('10.0.0.11'));
  const s1 = snap(2e9, host('10.0.0.10', { pps_allowance_exceeded: 1_234_567 }), host('10.0.0.11'));
  return {
    defaultHost: 'client',
    start: s0,
    now: s1,
    commands: [
      {
        host: 'client',
        command: 'iperf3 -c server -t 2 -M 128 -P 2',
        exitCode: 0,
        startNs: 0,
        endNs: 2e9,
        result: iperfDoc(0.913, [0.45, 0.463]),
        before: s0,
        after: s1,
      },
    ],
  };
}

const P = (p: object): Predicate => PredicateSchema.parse({ label: 'A goal.', ...p });

describe('evaluator', () => {
  it('reads iperf3 -J fields and says what it compared, with what else moved', () => {
    const r = evaluateStep(obs(), {
      goal: [
        P({ metric: 'iperf3.received_gbps', op: '>=', value: 9 }),
        P({
          metric: 'counter',
          name: 'pps_allowance_exceeded',
          op: '==',
          value: 0,
          window: 'last-command',
          command: '^iperf3',
          commandText: 'iperf3',
        }),
        P({ metric: 'iperf3.streams', op: '==', value: 2 }),
      ],
    });
    expect(r.passed).toBe(false);
    expect(r.results.map((x) => x.ok)).toEqual([false, false, true]);
    expect(r.results[0]!.text).toBe(
      "✗ A goal. client's last iperf3 (`iperf3 -c server -t 2 -M 128 -P 2`): 0.913 Gbps; the goal is ≥ 9.00 Gbps",
    );
    expect(r.results[0]!.detail).toBe(
      "client's last iperf3 (`iperf3 -c server -t 2 -M 128 -P 2`): 0.913 Gbps; the goal is ≥ 9.00 Gbps",
    );
    expect(r.results[1]!.text).toContain('1.23 M; the goal is = 0');
    expect(r.meanwhile).toEqual(['meanwhile pps_allowance_exceeded rose by 1.23 M on client']);
    expect(measure(obs(), { metric: 'iperf3.min_stream_gbps' }).value).toBeCloseTo(0.45);
    expect(measure(obs(), { metric: 'iperf3.mss_bytes' }).value).toBe(128);
    expect(measure(obs(), { metric: 'iperf3.retransmits' }).value).toBe(3);
    expect(measure(obs(), { metric: 'iperf3.last_interval_gbps' }).value).toBeCloseTo(0.913);
  });

  it('waits (ok null, "not yet") when the lab has not produced what a predicate reads', () => {
    const o = { ...obs(), commands: [] };
    const r = evaluateStep(o, {
      goal: [
        P({ metric: 'iperf3.received_gbps', op: '>=', value: 9 }),
        P({ metric: 'ab.complete_requests', op: '>=', value: 1 }),
        P({ metric: 'counter', name: 'nope', op: '>=', value: 1 }),
      ],
    });
    expect(r.passed).toBe(false);
    expect(r.results.map((x) => x.ok)).toEqual([null, null, null]);
    expect(r.results[0]!.detail).toMatch(/^not yet: no iperf3 -c run on client in this step/);
    expect(r.results[2]!.text).toContain('ethtool -S on client has no counter "nope"');
  });

  it('@target is the instance the last iperf3 connected to', () => {
    const m = measure(obs(), { metric: 'instance.baseline_gbps', host: '@target' });
    expect(m.value).toBe(0.781);
    expect(m.source).toContain('server (c7i.large)');
    expect(measure({ ...obs(), commands: [] }, { metric: 'rx_ring', host: '@target' }).value).toBeNull();
  });

  it('a failed iperf3 run is not read as a result', () => {
    const o = obs();
    o.commands[0] = { ...o.commands[0]!, exitCode: 1, result: { error: 'unable to connect' } };
    const r = measure(o, { metric: 'iperf3.received_gbps' });
    expect(r.value).toBeNull();
    expect(r.missing).toContain('did not finish a test (exit 1)');
  });

  it('judges a prediction within its tolerance and gives the reason', () => {
    const p = {
      question: 'Gbps?',
      answer: { metric: 'iperf3.received_gbps' as const },
      tolerance: { relative: 0.1 },
      reason: 'The PPS allowance binds.',
    };
    expect(judgePrediction(obs(), p, 0.95).right).toBe(true);
    const wrong = judgePrediction(obs(), p, 5);
    expect(wrong.right).toBe(false);
    expect(wrong.text).toBe(
      "Not quite: you said 5.00 Gbps; client's last iperf3 (`iperf3 -c server -t 2 -M 128 -P 2`) gave 0.913 Gbps, 4.09 Gbps away (a guess within 0.091 Gbps of it counts). The PPS allowance binds.",
    );
    expect(judgePrediction(obs(), p, 0.95).text).toMatch(
      /^Right: you said 0.950 Gbps; .* gave 0.913 Gbps, and a guess within 0.091 Gbps of it counts\./,
    );
    expect(judgePrediction({ ...obs(), commands: [] }, p, 1).text).toMatch(/^run the step first/);
  });

  it('a wrong guess never reads as right: no "counted right", and the numbers shown differ', () => {
    // 1.4 packets against 1, within 0.3: wrong, though both print as "1" in the count format
    const p = {
      question: 'Packets?',
      answer: { metric: 'commands' as const, command: '^iperf3', commandText: 'iperf3' },
      tolerance: { absolute: 0.3 },
      reason: 'One run.',
    };
    const wrong = judgePrediction(obs(), p, 1.4);
    expect(wrong.right).toBe(false);
    expect(wrong.text).toBe(
      'Not quite: you said 1.4; successful runs of `iperf3` in this step gave 1, 0.4 away (a guess within 0.3 of it counts). One run.',
    );
    expect(wrong.text).not.toMatch(/counted right/);
    expect(judgePrediction(obs(), p, 1.2).text).toMatch(
      /^Right: you said 1.2; .* gave 1, and a guess within 0.3 of it counts/,
    );
    const close = judgePrediction(obs(), { ...p, tolerance: { absolute: 0.001 } }, 1.001_01);
    expect(close.text).toContain(
      'you said 1.00101; successful runs of `iperf3` in this step gave 1, 0.00101 away',
    );
  });

  it('names a command by its commandText, never by its regular expression', () => {
    const o = { ...obs(), commands: [] };
    const r = evaluateStep(o, {
      goal: [
        P({
          metric: 'commands',
          command: '^ethtool\\s+-l',
          commandText: 'ethtool -l eth0',
          op: '>=',
          value: 1,
        }),
        P({
          metric: 'counter',
          name: 'pps_allowance_exceeded',
          op: '==',
          value: 0,
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
        }),
      ],
    });
    expect(r.results[0]!.detail).toBe(
      'successful runs of `ethtool -l eth0` in this step: 0; the goal is ≥ 1',
    );
    expect(r.results[1]!.detail).toBe(
      'not yet: no `iperf3` has run in this step (goal: pps_allowance_exceeded = 0)',
    );
    expect(r.explanation).not.toMatch(/\\s|\/\^/);
  });

  it('formats counts', () => {
    expect(formatCount(45210)).toBe('45,210');
    expect(formatCount(1_669_063)).toBe('1.67 M');
  });
});
