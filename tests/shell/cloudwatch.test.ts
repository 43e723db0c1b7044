/**
 * `aws cloudwatch` on the always-on ENI counters: the NET402 "Microbursts" picture (iperf3 sees
 * ≈ 9.5 Gbps for 6 s, the 1-minute datapoint ≈ 0.9 Gbps, the 5-minute one less again), clock-minute
 * alignment from the scenario's wall-clock start, the CLI's JSON and the service's errors.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import type { CommandOutput } from '../../src/engine/shell/types';
import { parseScenario } from '../../src/scenario/schema';

function lab(settings: Record<string, unknown> = {}) {
  const r = parseScenario({ version: 3, settings });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

function sh(l: ReturnType<typeof lab>, line: string): CommandOutput {
  const o = execLine(l, l.instance('client')!, line);
  if (o.kind !== 'done') throw new Error('aws must finish at once');
  return o.out;
}

const id = (l: ReturnType<typeof lab>) => l.scenario.instances[0]!.instanceId;

function burst(settings: Record<string, unknown>, sleep = 120) {
  const l = lab(settings);
  const recs = runScript(l, ['iperf3 -c server -t 6 -M 9000 -P 1', `sleep ${sleep}`]);
  const gbps = (recs[0]!.result as { end: { sum_received: { bits_per_second: number } } }).end.sum_received
    .bits_per_second;
  return { l, gbps, bytes: l.instance('client')!.nitro.traffic.bytesOut };
}

const stats = (l: ReturnType<typeof lab>, period: number, extra = '') =>
  sh(
    l,
    `aws cloudwatch get-metric-statistics --namespace AWS/EC2 --metric-name NetworkOut --dimensions Name=InstanceId,Value=${id(l)} --start-time 2024-12-02T16:55:00Z --end-time 2024-12-02T17:10:00Z --period ${period} --statistics Sum Average Maximum Minimum SampleCount${extra}`,
  );

describe('aws cloudwatch: one burst seen by iperf3 and by CloudWatch', () => {
  it('detailed monitoring: the 1-minute datapoint holds the whole burst, ≈ 0.9 Gbps after metric math', () => {
    const { l, gbps, bytes } = burst({ monitoring: 'detailed' });
    expect(gbps).toBeGreaterThan(9e9);
    expect(gbps).toBeLessThan(10.5e9);
    const out = stats(l, 60);
    expect(out.exitCode).toBe(0);
    const doc = JSON.parse(out.stdout);
    expect(doc.Label).toBe('NetworkOut');
    // 17:00 and 17:01 are over at 126 s; 17:02 is not yet
    expect(doc.Datapoints.map((d: { Timestamp: string }) => d.Timestamp)).toEqual([
      '2024-12-02T17:00:00+00:00',
      '2024-12-02T17:01:00+00:00',
    ]);
    const first = doc.Datapoints[0];
    expect(Object.keys(first)).toEqual([
      'Timestamp',
      'SampleCount',
      'Average',
      'Sum',
      'Minimum',
      'Maximum',
      'Unit',
    ]);
    expect(first.Unit).toBe('Bytes');
    expect(first.SampleCount).toBe(1);
    expect(first.Sum).toBeGreaterThan(6.5e9);
    expect(first.Sum).toBeLessThan(7.6e9);
    expect(first.Sum + doc.Datapoints[1].Sum).toBe(bytes);
    // doubles print as the CLI prints them (Python floats)
    expect(out.stdout).toContain('"SampleCount": 1.0,');
    const md = sh(
      l,
      `aws cloudwatch get-metric-data --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:05:00Z --metric-data-queries '[{"Id":"m1","MetricStat":{"Metric":{"Namespace":"AWS/EC2","MetricName":"NetworkOut","Dimensions":[{"Name":"InstanceId","Value":"${id(l)}"}]},"Period":60,"Stat":"Sum"},"ReturnData":false},{"Id":"e1","Expression":"m1*8/PERIOD(m1)","Label":"bps"}]'`,
    );
    expect(md.exitCode).toBe(0);
    const r = JSON.parse(md.stdout);
    expect(r.Messages).toEqual([]);
    expect(r.MetricDataResults).toHaveLength(1);
    const e1 = r.MetricDataResults[0];
    expect(Object.keys(e1)).toEqual(['Id', 'Label', 'Timestamps', 'Values', 'StatusCode']);
    expect(e1.StatusCode).toBe('Complete');
    // newest first, as GetMetricData scans by default
    expect(e1.Timestamps).toEqual(['2024-12-02T17:01:00+00:00', '2024-12-02T17:00:00+00:00']);
    const bps = e1.Values[1];
    expect(bps).toBeCloseTo((first.Sum * 8) / 60, 3);
    expect(bps).toBeGreaterThan(0.85e9);
    expect(bps).toBeLessThan(1.0e9);
    expect(gbps / bps).toBeGreaterThan(9);
  });

  it('basic monitoring: one 5-minute statistic set of five 1-minute samples, which says less again', () => {
    const { l, bytes } = burst({}, 300);
    const doc = JSON.parse(stats(l, 300).stdout);
    expect(doc.Datapoints).toHaveLength(1);
    const d = doc.Datapoints[0];
    expect(d.Timestamp).toBe('2024-12-02T17:00:00+00:00');
    expect(d.SampleCount).toBe(5);
    expect(d.Sum).toBe(bytes);
    expect(d.Average).toBeCloseTo(bytes / 5, 3);
    expect(d.Maximum).toBe(bytes); // the minute that held the burst
    expect(d.Minimum).toBe(0);
    const bps = (d.Sum * 8) / 300;
    expect(bps).toBeLessThan(0.2e9);
    // a 60 s period on basic monitoring still gets the 5-minute datapoint
    const p60 = JSON.parse(stats(l, 60).stdout);
    expect(p60.Datapoints.map((x: { Sum: number }) => x.Sum)).toEqual([bytes]);
  });

  it('basic monitoring on Nitro: the 5-minute datapoint is there after its first minute, and grows sample by sample', () => {
    // the burst in the first minute; asked 2 min 30 s in, 4 min 30 s in, then when the 5 minutes are over
    const l = lab({});
    runScript(l, ['iperf3 -c server -t 6 -M 9000 -P 1', 'sleep 144']);
    const bytes = l.instance('client')!.nitro.traffic.bytesOut;
    const at = (label: string) => {
      const d = JSON.parse(stats(l, 300).stdout).Datapoints;
      expect(d, label).toHaveLength(1);
      return d[0];
    };
    const early = at('2 min 30 s');
    expect(early.Timestamp).toBe('2024-12-02T17:00:00+00:00');
    expect(early.SampleCount).toBe(2);
    expect(early.Sum).toBe(bytes);
    expect(early.Average).toBeCloseTo(bytes / 2, 3);
    runScript(l, ['sleep 120']);
    expect(at('4 min 30 s').SampleCount).toBe(4);
    runScript(l, ['sleep 30']);
    const full = at('5 min');
    expect(full.SampleCount).toBe(5);
    expect(full.Timestamp).toBe('2024-12-02T17:00:00+00:00');
    // the Sum did not change (no traffic since the burst); the Average fell as samples came in
    expect(full.Sum).toBe(bytes);
    expect(full.Average).toBeLessThan(early.Average);
  });

  it('a wall-clock start 3 s before a minute splits the burst between two datapoints', () => {
    const { l, bytes } = burst({ monitoring: 'detailed', wallClockStart: '2024-12-02T16:59:57Z' });
    const doc = JSON.parse(stats(l, 60).stdout);
    const [a, b] = doc.Datapoints;
    expect(a.Timestamp).toBe('2024-12-02T16:59:00+00:00');
    expect(b.Timestamp).toBe('2024-12-02T17:00:00+00:00');
    expect(a.Sum + b.Sum).toBe(bytes);
    // 3 of the 6 seconds (the first has the slow start) fall in each minute
    expect(a.Sum / bytes).toBeGreaterThan(0.4);
    expect(a.Sum / bytes).toBeLessThan(0.55);
  });

  it('CWAgent ethtool counters are cumulative: RATE() turns them into a rate', () => {
    const l = lab({ monitoring: 'detailed' });
    runScript(l, ['iperf3 -c server -t 6 -P 2', 'sleep 120']);
    const exceeded = l.instance('client')!.nitro.counters().bw_out_allowance_exceeded;
    expect(exceeded).toBeGreaterThan(0);
    const q = (expr: string) =>
      JSON.parse(
        sh(
          l,
          `aws cloudwatch get-metric-data --scan-by TimestampAscending --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:03:00Z --metric-data-queries '[{"Id":"m1","MetricStat":{"Metric":{"Namespace":"CWAgent","MetricName":"ethtool_bw_out_allowance_exceeded","Dimensions":[{"Name":"InstanceId","Value":"${id(l)}"},{"Name":"driver","Value":"ena"},{"Name":"interface","Value":"eth0"}]},"Period":60,"Stat":"Maximum"}},{"Id":"r1","Expression":"${expr}"}]'`,
        ).stdout,
      ).MetricDataResults;
    const [m1, r1] = q('RATE(m1)');
    expect(m1.Values).toEqual([0, exceeded, exceeded]);
    expect(r1.Timestamps).toEqual(['2024-12-02T17:01:00+00:00', '2024-12-02T17:02:00+00:00']);
    expect(r1.Values[0]).toBeCloseTo(exceeded / 60, 6);
    expect(r1.Values[1]).toBe(0);
  });

  it("refuses bad input with the service's errors", () => {
    const l = lab();
    const base = `aws cloudwatch get-metric-statistics --namespace AWS/EC2 --metric-name NetworkOut --dimensions Name=InstanceId,Value=${id(l)}`;
    const err = (op: string, code: string, msg: string) =>
      `\nAn error occurred (${code}) when calling the ${op} operation: ${msg}\n`;
    let o = sh(
      l,
      `${base} --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:00:00Z --period 60 --statistics Sum`,
    );
    expect(o.exitCode).toBe(254);
    expect(o.stderr).toBe(
      err(
        'GetMetricStatistics',
        'InvalidParameterValue',
        'The parameter StartTime must not equal parameter EndTime.',
      ),
    );
    o = sh(
      l,
      `${base} --start-time 2024-12-01T17:00:00Z --end-time 2024-12-02T17:00:00Z --period 1 --statistics Sum`,
    );
    expect(o.stderr).toBe(
      err(
        'GetMetricStatistics',
        'InvalidParameterCombination',
        'You have requested up to 86400 datapoints, which exceeds the limit of 1440. You may reduce the datapoints requested by increasing Period, or decreasing the time range.',
      ),
    );
    o = sh(l, `${base} --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:05:00Z --period 60`);
    expect(o.stderr).toContain('Must specify either Statistics or ExtendedStatistics');
    o = sh(
      l,
      `${base} --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:05:00Z --period 60 --statistics Median`,
    );
    expect(o.stderr).toContain('The parameter Statistics.member.1 must be a value in the set');
    o = sh(l, `${base} --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:05:00Z --statistics Sum`);
    expect(o.exitCode).toBe(252);
    expect(o.stderr).toContain('aws: error: the following arguments are required: --period');
    o = sh(l, 'aws cloudwatch put-metric-data --namespace x');
    expect(o.stderr).toContain('aws: cloudwatch put-metric-data is not simulated in ec2-netlab');
    // an instance CloudWatch has no data for: no datapoints, not an error (as the service answers)
    o = sh(
      l,
      'aws cloudwatch get-metric-statistics --namespace AWS/EC2 --metric-name NetworkOut --dimensions Name=InstanceId,Value=i-0123456789abcdef0 --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:05:00Z --period 60 --statistics Sum',
    );
    expect(o.stdout).toBe('{\n    "Label": "NetworkOut",\n    "Datapoints": []\n}\n');
  });
});

describe('aws cloudwatch on the credit-exhaustion run', () => {
  it('1-minute datapoints have the iperf3 intervals’ shape: burst level, then baseline', () => {
    // experiment 2 with the burst credits of 90 s at full burst instead of 390 s (a shorter run)
    const r = parseScenario({
      version: 3,
      settings: { monitoring: 'detailed' },
      params: { burstCreditSecondsOverride: 90 },
    });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const l = createLab(r.scenario);
    const [rec] = runScript(l, ['iperf3 -c server -t 240 -l 9000 -P 2']);
    const intervals = (
      rec!.result as { intervals: Array<{ sum: { bits_per_second: number } }> }
    ).intervals.map((i) => i.sum.bits_per_second);
    // iperf3: ≈ 12.4 Gbit/s until the credits run out, then the 0.78 Gbit/s baseline
    expect(intervals[10]!).toBeGreaterThan(11e9);
    expect(intervals[200]!).toBeLessThan(0.9e9);
    const md = JSON.parse(
      sh(
        l,
        `aws cloudwatch get-metric-data --scan-by TimestampAscending --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:05:00Z --metric-data-queries '[{"Id":"m1","MetricStat":{"Metric":{"Namespace":"AWS/EC2","MetricName":"NetworkOut","Dimensions":[{"Name":"InstanceId","Value":"${id(l)}"}]},"Period":60,"Stat":"Sum"},"ReturnData":false},{"Id":"gbps","Expression":"m1*8/PERIOD(m1)/1000000000"}]'`,
      ).stdout,
    ).MetricDataResults[0];
    expect(md.Timestamps).toEqual([
      '2024-12-02T17:00:00+00:00',
      '2024-12-02T17:01:00+00:00',
      '2024-12-02T17:02:00+00:00',
      '2024-12-02T17:03:00+00:00',
    ]);
    const [m0, m1, m2, m3] = md.Values as number[];
    // minute 0: all burst; minute 1: 30 s of burst then baseline; minutes 2-3: baseline
    const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    const iperfMinute = (k: number) => mean(intervals.slice(60 * k, 60 * k + 60)) / 1e9;
    expect(m0!).toBeGreaterThan(11);
    expect(m1!).toBeLessThan(m0!);
    expect(m1!).toBeGreaterThan(m2!);
    expect(m2!).toBeLessThan(0.9);
    expect(m3!).toBeCloseTo(m2!, 1);
    for (const [k, v] of [m0, m1, m2].entries()) expect(Math.abs(v! / iperfMinute(k) - 1)).toBeLessThan(0.05);
  });
});
