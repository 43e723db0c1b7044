/**
 * `aws cloudwatch get-metric-statistics` and `get-metric-data` on what the lab's Nitro cards
 * counted (engine/metrics/eni-traffic.ts, always on): AWS/EC2 NetworkIn, NetworkOut,
 * NetworkPacketsIn, NetworkPacketsOut by InstanceId, and the CloudWatch agent's ethtool plugin
 * (namespace CWAgent, `ethtool_<counter>` by InstanceId, driver, interface). Output as the AWS
 * CLI prints it (`--output json`, indent 4, the service model's member order).
 *
 * Sources: CW-UG, CWA-SRC, the GetMetricData API reference (docs/domain-facts.md §3). How the
 * datapoints are built and why: docs/design.md, "CloudWatch on Nitro".
 */
import type { Lab } from '../../../lab/lab';
import type { AllowanceCounter, EniTrafficCounter } from '../../../metrics/eni-traffic';
import { ALLOWANCE_COUNTERS } from '../../../metrics/eni-traffic';
import {
  mergeStatisticSet,
  STATISTICS,
  type Statistic,
  type StatisticSet,
  statisticValue,
} from '../../../../lib/statistic-set';
import { isoUtc, parseIso8601 } from '../../../../lib/time';
import { type CommandOutcome, done, fail } from '../../types';
import {
  AWS_EXIT,
  callOperation,
  isOut,
  type ParamSpec,
  type ParsedArgs,
  PlainError,
  parseArgs,
  svc,
  usage,
} from './cli';

const OPERATIONS: Record<string, string> = {
  'get-metric-statistics': 'GetMetricStatistics',
  'get-metric-data': 'GetMetricData',
};

/** The operations modelled (for completion). */
export const AWS_CLOUDWATCH_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

const EC2_METRICS: Record<string, { counter: EniTrafficCounter; unit: 'Bytes' | 'Count' }> = {
  NetworkOut: { counter: 'bytesOut', unit: 'Bytes' },
  NetworkIn: { counter: 'bytesIn', unit: 'Bytes' },
  NetworkPacketsOut: { counter: 'packetsOut', unit: 'Count' },
  NetworkPacketsIn: { counter: 'packetsIn', unit: 'Count' },
};

/** A statistic set (what CloudWatch stores for a published datapoint). */
interface StatSet extends StatisticSet {
  /** Unix seconds of the datapoint. */
  t: number;
}

export function runCloudWatch(op: string | undefined, args: string[], lab: Lab): CommandOutcome {
  if (op === undefined) return usage('the following arguments are required: operation');
  const opName = OPERATIONS[op];
  if (!opName)
    return fail(
      `aws: cloudwatch ${op} is not simulated in ec2-netlab (modelled: ${Object.keys(OPERATIONS).join(', ')})`,
      AWS_EXIT.usage,
    );
  return callOperation(opName, () =>
    op === 'get-metric-statistics' ? getMetricStatistics(args, lab) : getMetricData(args, lab),
  );
}

const parse = (args: string[], specs: Record<string, ParamSpec>): ParsedArgs | CommandOutcome =>
  parseArgs(args, specs);

/** A CLI timestamp argument: ISO 8601 (UTC when no zone is given) or Unix seconds. */
function readTime(member: string, text: string): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Math.floor(Number(text));
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const withTime = /^\d{4}-\d{2}-\d{2}Z$/.test(withZone) ? withZone.replace('Z', 'T00:00:00Z') : withZone;
  const t = parseIso8601(withTime);
  if (t === null)
    throw new PlainError(
      `Parameter validation failed:\nInvalid type for parameter ${member}, value: ${text}, type: <class 'str'>, valid types: <class 'datetime.datetime'>, timestamp-string`,
    );
  return t;
}

// ---------------------------------------------------------------------------------------------
// The published data
// ---------------------------------------------------------------------------------------------

interface Dimension {
  Name: string;
  Value: string;
}

function readDimensions(raw: unknown): Dimension[] {
  if (raw === undefined) return [];
  const list = (Array.isArray(raw) ? raw : [raw]) as Array<Record<string, unknown>>;
  return list.map((d) => ({ Name: String(d['Name'] ?? ''), Value: String(d['Value'] ?? '') }));
}

/**
 * The statistic sets CloudWatch holds for one metric, oldest first (empty when no such metric
 * exists: CloudWatch answers an unknown metric or dimension with no datapoints, not an error).
 */
function published(lab: Lab, namespace: string, metric: string, dims: Dimension[]): StatSet[] {
  const startS = lab.wallClockStartS;
  const nowS = startS + lab.nowNs / 1e9;
  const dim = (n: string) => dims.find((d) => d.Name === n)?.Value;
  const inst = [...lab.instances.values()].find((i) => i.nitro.vpcEni?.instanceId === dim('InstanceId'));
  if (!inst) return [];
  const traffic = inst.nitro.traffic;
  // whole minutes of the wall clock that overlap the run and are over
  const firstMinute = Math.floor(startS / 60) * 60;
  const minutes: number[] = [];
  for (let t = firstMinute; t + 60 <= nowS; t += 60) minutes.push(t);
  if (namespace === 'AWS/EC2') {
    const m = EC2_METRICS[metric];
    if (!m || dims.length !== 1) return [];
    const perMinute = minutes.map((t) => ({
      t,
      v: traffic.total(m.counter, Math.max(0, t - startS), t + 60 - startS),
    }));
    if (lab.scenario.settings.monitoring === 'detailed')
      return perMinute.map(({ t, v }) => ({ t, sum: v, count: 1, min: v, max: v }));
    const sets: StatSet[] = [];
    for (const { t, v } of perMinute) {
      // Nitro: the 5-minute datapoint exists from its first sample on and grows with each one
      const t5 = Math.floor(t / 300) * 300;
      const last = sets[sets.length - 1];
      const sample = { sum: v, count: 1, min: v, max: v };
      if (last && last.t === t5) mergeStatisticSet(last, sample);
      else sets.push({ t: t5, ...sample });
    }
    return sets;
  }
  if (namespace === 'CWAgent') {
    const name = metric.startsWith('ethtool_') ? metric.slice('ethtool_'.length) : '';
    if (!(ALLOWANCE_COUNTERS as readonly string[]).includes(name)) return [];
    if (dims.length !== 3 || dim('interface') !== 'eth0' || dim('driver') !== 'ena') return [];
    // the agent starts at boot and collects at every clock minute after it
    const out: StatSet[] = [];
    for (let t = Math.ceil(startS / 60) * 60; t <= nowS; t += 60) {
      const v = traffic.allowanceAt(name as AllowanceCounter, Math.floor(t - startS));
      out.push({ t, sum: v, count: 1, min: v, max: v });
    }
    return out;
  }
  return [];
}

function unitOf(namespace: string, metric: string): string {
  if (namespace === 'AWS/EC2') return EC2_METRICS[metric]?.unit ?? 'None';
  return 'None';
}

/**
 * A lab note (stderr, not AWS text) for an empty answer whose time range misses the lab's clock:
 * what the clock spans and a command line that asks for the right range.
 */
export function rangeNote(lab: Lab, startS: number, endS: number): string {
  const labStart = lab.wallClockStartS;
  const now = labStart + Math.floor(lab.nowNs / 1e9);
  if (endS > labStart && startS <= now) return '';
  return (
    `lab note: no datapoints: the lab's clock runs from ${isoUtc(labStart)} (settings.wallClockStart) to ` +
    `now, ${isoUtc(now)} (\`date -u\`), and the range asked (${isoUtc(startS)} to ${isoUtc(endS)}) is ` +
    `${endS <= labStart ? 'before' : 'after'} it. Ask for the lab's minutes, e.g. ` +
    `--start-time $(date -u -d '10 min ago' +%FT%TZ) --end-time $(date -u +%FT%TZ)\n`
  );
}

/** Combine the statistic sets into query periods starting at `startS` (rounded down to the minute). */
function aggregate(sets: StatSet[], startS: number, endS: number, periodS: number): StatSet[] {
  const t0 = Math.floor(startS / 60) * 60;
  const out = new Map<number, StatSet>();
  for (const s of sets) {
    if (s.t < t0 || s.t >= endS) continue;
    const b = t0 + Math.floor((s.t - t0) / periodS) * periodS;
    const cur = out.get(b);
    if (cur) mergeStatisticSet(cur, s);
    else out.set(b, { ...s, t: b });
  }
  return [...out.values()].sort((a, b) => a.t - b.t);
}

function checkRange(startS: number, endS: number, periodS: number, member = 'Period'): void {
  if (startS === endS)
    throw svc('InvalidParameterValue', 'The parameter StartTime must not equal parameter EndTime.');
  if (startS > endS)
    throw svc('InvalidParameterValue', 'The parameter StartTime must be less than the parameter EndTime.');
  if (periodS < 1 || (periodS % 60 !== 0 && ![1, 5, 10, 30].includes(periodS)))
    throw svc('InvalidParameterValue', `The parameter ${member} must be 1, 5, 10, 30, or a multiple of 60.`);
  void member;
}

// ---------------------------------------------------------------------------------------------
// get-metric-statistics
// ---------------------------------------------------------------------------------------------

function getMetricStatistics(args: string[], lab: Lab): CommandOutcome {
  const p = parse(args, {
    namespace: { kind: 'string', required: true },
    'metric-name': { kind: 'string', required: true },
    dimensions: { kind: 'struct-list' },
    'start-time': { kind: 'string', required: true },
    'end-time': { kind: 'string', required: true },
    period: { kind: 'int', required: true },
    statistics: { kind: 'list' },
    'extended-statistics': { kind: 'list' },
    unit: { kind: 'string' },
  });
  if (isOut(p)) return p;
  const v = p.values;
  const namespace = v.get('namespace') as string;
  const metric = v.get('metric-name') as string;
  const startS = readTime('StartTime', v.get('start-time') as string);
  const endS = readTime('EndTime', v.get('end-time') as string);
  const periodS = v.get('period') as number;
  const stats = v.get('statistics') as string[] | undefined;
  const ext = v.get('extended-statistics') as string[] | undefined;
  if (ext)
    return fail('aws: --extended-statistics (percentiles) is not simulated in ec2-netlab', AWS_EXIT.usage);
  if (!stats || stats.length === 0)
    throw svc(
      'InvalidParameterCombination',
      'Must specify either Statistics or ExtendedStatistics, but not both.',
    );
  stats.forEach((s, i) => {
    if (!(STATISTICS as readonly string[]).includes(s))
      throw svc(
        'InvalidParameterValue',
        `The parameter Statistics.member.${i + 1} must be a value in the set [ Maximum, Sum, SampleCount, Average, Minimum ].`,
      );
  });
  checkRange(startS, endS, periodS);
  const asked = Math.ceil((endS - startS) / periodS);
  if (asked > 1440)
    throw svc(
      'InvalidParameterCombination',
      `You have requested up to ${asked} datapoints, which exceeds the limit of 1440. You may reduce the datapoints requested by increasing Period, or decreasing the time range.`,
    );
  const unitWanted = v.get('unit') as string | undefined;
  const unit = unitOf(namespace, metric);
  const sets =
    unitWanted !== undefined && unitWanted !== unit
      ? []
      : aggregate(
          published(lab, namespace, metric, readDimensions(v.get('dimensions'))),
          startS,
          endS,
          periodS,
        );
  const datapoints = sets.map((s) => {
    const d: Record<string, unknown> = { Timestamp: isoUtc(s.t) };
    for (const st of STATISTICS) if (stats.includes(st)) d[st] = new PyFloat(statisticValue(s, st));
    d['Unit'] = unit;
    return d;
  });
  const result = { Label: metric, Datapoints: datapoints };
  const note = datapoints.length === 0 ? rangeNote(lab, startS, endS) : '';
  return done(`${cliJson(result)}\n`, 0, JSON.parse(cliJson(result)), note);
}

// ---------------------------------------------------------------------------------------------
// get-metric-data and metric math
// ---------------------------------------------------------------------------------------------

interface Query {
  Id: string;
  Label?: string;
  ReturnData: boolean;
  stat?: { namespace: string; metric: string; dims: Dimension[]; period: number; stat: Statistic };
  expression?: string;
  period?: number;
}

/** A series: values by timestamp (Unix seconds), plus the period it was built at. */
interface Series {
  points: Map<number, number>;
  period: number;
}

function getMetricData(args: string[], lab: Lab): CommandOutcome {
  const p = parse(args, {
    'metric-data-queries': { kind: 'struct-list', required: true },
    'start-time': { kind: 'string', required: true },
    'end-time': { kind: 'string', required: true },
    'scan-by': { kind: 'string' },
    'max-datapoints': { kind: 'int' },
    'label-options': { kind: 'struct' },
  });
  if (isOut(p)) return p;
  const v = p.values;
  const startS = readTime('StartTime', v.get('start-time') as string);
  const endS = readTime('EndTime', v.get('end-time') as string);
  const scanBy = (v.get('scan-by') as string | undefined) ?? 'TimestampDescending';
  if (scanBy !== 'TimestampDescending' && scanBy !== 'TimestampAscending')
    throw svc(
      'ValidationError',
      `1 validation error detected: Value '${scanBy}' at 'scanBy' failed to satisfy constraint: Member must satisfy enum value set: [TimestampDescending, TimestampAscending]`,
    );
  if (v.has('label-options'))
    return fail('aws: --label-options is not simulated in ec2-netlab', AWS_EXIT.usage);
  const queries = readQueries(v.get('metric-data-queries') as unknown[]);
  const byId = new Map(queries.map((q) => [q.Id, q]));
  const cache = new Map<string, Series>();
  const evalQuery = (q: Query, depth: number): Series => {
    const hit = cache.get(q.Id);
    if (hit) return hit;
    if (depth > queries.length)
      throw svc('ValidationError', `Error in expression '${q.Id}': Circular dependency between expressions`);
    let s: Series;
    if (q.stat) {
      checkRange(startS, endS, q.stat.period, `MetricDataQueries.member.Period`);
      const sets = aggregate(
        published(lab, q.stat.namespace, q.stat.metric, q.stat.dims),
        startS,
        endS,
        q.stat.period,
      );
      s = { points: new Map(sets.map((x) => [x.t, statisticValue(x, q.stat!.stat)])), period: q.stat.period };
    } else {
      s = evalExpression(q.expression!, q.Id, (id) => {
        const r = byId.get(id);
        if (!r)
          throw svc(
            'ValidationError',
            `Error in expression '${q.Id}': Unrecognized metric or expression: ${id}`,
          );
        return evalQuery(r, depth + 1);
      });
    }
    cache.set(q.Id, s);
    return s;
  };
  const results = queries
    .filter((q) => q.ReturnData)
    .map((q) => {
      const s = evalQuery(q, 0);
      const ts = [...s.points.keys()].filter((t) => Number.isFinite(s.points.get(t)!)).sort((a, b) => a - b);
      if (scanBy === 'TimestampDescending') ts.reverse();
      return {
        Id: q.Id,
        Label: q.Label ?? (q.stat ? q.stat.metric : q.Id),
        Timestamps: ts.map(isoUtc),
        Values: ts.map((t) => new PyFloat(s.points.get(t)!)),
        StatusCode: 'Complete',
      };
    });
  const result = { MetricDataResults: results, Messages: [] };
  const note = results.every((r) => r.Timestamps.length === 0) ? rangeNote(lab, startS, endS) : '';
  return done(`${cliJson(result)}\n`, 0, JSON.parse(cliJson(result)), note);
}

function readQueries(raw: unknown[]): Query[] {
  const out: Query[] = [];
  raw.forEach((r, i) => {
    const q = r as Record<string, unknown>;
    const at = `MetricDataQueries.member.${i + 1}`;
    const id = q['Id'];
    if (typeof id !== 'string' || !/^[a-z][a-zA-Z0-9_]*$/.test(id))
      throw svc(
        'ValidationError',
        `The value ${String(id)} for parameter ${at}.Id is not valid. The Id must start with a lowercase letter and contain only letters, numbers and underscores.`,
      );
    const ms = q['MetricStat'] as Record<string, unknown> | undefined;
    const expr = q['Expression'];
    if ((ms === undefined) === (expr === undefined))
      throw svc(
        'ValidationError',
        `The parameter ${at} must contain exactly one of Expression or MetricStat.`,
      );
    const base: Query = { Id: id, ReturnData: q['ReturnData'] !== false && q['ReturnData'] !== 'false' };
    if (typeof q['Label'] === 'string') base.Label = q['Label'];
    if (ms) {
      const metric = (ms['Metric'] ?? {}) as Record<string, unknown>;
      const stat = String(ms['Stat'] ?? '');
      if (!(STATISTICS as readonly string[]).includes(stat))
        throw svc(
          'ValidationError',
          `The value ${stat} for parameter ${at}.MetricStat.Stat is not supported in ec2-netlab (modelled: ${STATISTICS.join(', ')}).`,
        );
      const period = Number(ms['Period']);
      if (!Number.isInteger(period))
        throw svc('ValidationError', `The parameter ${at}.MetricStat.Period is required.`);
      base.stat = {
        namespace: String(metric['Namespace'] ?? ''),
        metric: String(metric['MetricName'] ?? ''),
        dims: readDimensions(metric['Dimensions']),
        period,
        stat: stat as Statistic,
      };
    } else base.expression = String(expr);
    out.push(base);
  });
  const seen = new Set<string>();
  for (const q of out) {
    if (seen.has(q.Id))
      throw svc(
        'ValidationError',
        `The value ${q.Id} for parameter MetricDataQueries.member.Id is duplicated.`,
      );
    seen.add(q.Id);
  }
  return out;
}

type Value = { kind: 'scalar'; v: number } | { kind: 'series'; s: Series };

/**
 * Metric math: + - * / and parentheses over numbers and query ids, and the functions PERIOD(m)
 * (the period in seconds), RATE(m) (change per second between consecutive datapoints), DIFF(m)
 * (change between consecutive datapoints) and ABS(x). Series combine on the timestamps they share.
 */
function evalExpression(text: string, id: string, resolve: (id: string) => Series): Series {
  const toks = text.match(/\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_][A-Za-z0-9_]*|[-+*/()^,]|\S)/g) ?? [];
  const t = toks.map((x) => x.trim());
  let i = 0;
  const bad = (): never => {
    throw svc('ValidationError', `Error in expression '${id}': Syntax error in expression: ${text}`);
  };
  const peek = () => t[i];
  const binary = (a: Value, b: Value, f: (x: number, y: number) => number): Value => {
    if (a.kind === 'scalar' && b.kind === 'scalar') return { kind: 'scalar', v: f(a.v, b.v) };
    if (a.kind === 'series' && b.kind === 'scalar') return mapSeries(a.s, (x) => f(x, b.v));
    if (a.kind === 'scalar' && b.kind === 'series') return mapSeries(b.s, (y) => f(a.v, y));
    const sa = (a as { s: Series }).s;
    const sb = (b as { s: Series }).s;
    const points = new Map<number, number>();
    for (const [ts, x] of sa.points) {
      const y = sb.points.get(ts);
      if (y !== undefined) points.set(ts, f(x, y));
    }
    return { kind: 'series', s: { points, period: sa.period } };
  };
  const primary = (): Value => {
    const tok = t[i++];
    if (tok === undefined) return bad();
    if (tok === '(') {
      const v = sum();
      if (t[i++] !== ')') bad();
      return v;
    }
    if (tok === '-') return binary({ kind: 'scalar', v: 0 }, primary(), (x, y) => x - y);
    if (/^\d/.test(tok)) return { kind: 'scalar', v: Number(tok) };
    if (/^[A-Za-z_]/.test(tok)) {
      if (peek() === '(') {
        i++;
        const arg = sum();
        if (t[i++] !== ')') bad();
        const fn = tok.toUpperCase();
        if (fn === 'ABS')
          return arg.kind === 'scalar' ? { kind: 'scalar', v: Math.abs(arg.v) } : mapSeries(arg.s, Math.abs);
        if (arg.kind !== 'series')
          throw svc('ValidationError', `Error in expression '${id}': ${fn} takes a time series`);
        if (fn === 'PERIOD') return mapSeries(arg.s, () => arg.s.period);
        if (fn === 'RATE' || fn === 'DIFF') {
          const ts = [...arg.s.points.keys()].sort((a, b) => a - b);
          const points = new Map<number, number>();
          for (let k = 1; k < ts.length; k++) {
            const dv = arg.s.points.get(ts[k]!)! - arg.s.points.get(ts[k - 1]!)!;
            points.set(ts[k]!, fn === 'RATE' ? dv / (ts[k]! - ts[k - 1]!) : dv);
          }
          return { kind: 'series', s: { points, period: arg.s.period } };
        }
        throw svc(
          'ValidationError',
          `Error in expression '${id}': the function ${tok} is not simulated in ec2-netlab (modelled: ABS, DIFF, PERIOD, RATE)`,
        );
      }
      return { kind: 'series', s: resolve(tok) };
    }
    return bad();
  };
  const product = (): Value => {
    let v = primary();
    while (peek() === '*' || peek() === '/') {
      const op = t[i++];
      v = binary(v, primary(), op === '*' ? (x, y) => x * y : (x, y) => x / y);
    }
    return v;
  };
  const sum = (): Value => {
    let v = product();
    while (peek() === '+' || peek() === '-') {
      const op = t[i++];
      v = binary(v, product(), op === '+' ? (x, y) => x + y : (x, y) => x - y);
    }
    return v;
  };
  const v = sum();
  if (i !== t.length) bad();
  if (v.kind === 'scalar')
    throw svc('ValidationError', `Error in expression '${id}': the expression must return a time series`);
  return v.s;
}

function mapSeries(s: Series, f: (x: number) => number): Value {
  const points = new Map<number, number>();
  for (const [t, x] of s.points) points.set(t, f(x));
  return { kind: 'series', s: { points, period: s.period } };
}

// ---------------------------------------------------------------------------------------------
// The CLI's JSON
// ---------------------------------------------------------------------------------------------

/** A double, printed as Python's json module prints a float (`7.0`, `1e+16`, `0.0001`). */
class PyFloat {
  constructor(readonly v: number) {}
}

export function pyFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  // Python's repr: shortest round-trip digits, exponent form below 1e-4 or from 1e16
  if (abs >= 1e16 || abs < 1e-4) {
    const [mant, exp] = x.toExponential().split('e') as [string, string];
    const e = Number(exp);
    return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const s = String(x);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

function cliJson(v: unknown): string {
  const placeholder = new Map<string, string>();
  const text = JSON.stringify(
    v,
    (_k, val: unknown) => {
      if (val instanceof PyFloat) {
        const key = `\u0000${placeholder.size}\u0000`;
        placeholder.set(key, pyFloat(val.v));
        return key;
      }
      return val;
    },
    4,
  );
  return text.replace(/"\\u0000(\d+)\\u0000"/g, (_m, n: string) => placeholder.get(`\u0000${n}\u0000`)!);
}
