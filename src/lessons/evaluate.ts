/**
 * Checks a step's predicates against an Observation and says what it compared: each predicate
 * gets `ok` (true, false, or null when the lab has not produced what it reads yet, e.g. no iperf3
 * run in this step) and a sentence with the number it read and the goal ("client's last iperf3
 * (iperf3 -c server -t 2 -M 128): received 0.913 Gbps; the goal is ≥ 9 Gbps"). A failed step adds
 * what else moved ("meanwhile pps_allowance_exceeded rose by 1.67 M on client"), so the learner
 * sees why. Pure: the same observation gives the same verdict and the same words.
 */
import type { HostSnapshot, LabSnapshot, Observation, ObservedCommand } from './observation';
import { METRICS, type Op } from './metrics';
import type { Measure, Predicate, Predict, Step } from './schema';

export interface MeasureResult {
  /** null: nothing to read yet (`missing` says what is needed). */
  value: number | null;
  /** What was read, for the explanation ("client's last iperf3 (iperf3 -c server -t 2)"). */
  source: string;
  missing?: string;
}

export interface PredicateResult {
  predicate: Predicate;
  ok: boolean | null;
  actual: number | null;
  /** The whole verdict: mark, the goal's sentence, what was read and the goal's number. */
  text: string;
  /** What was read against the goal's number, without the sentence ("flow setups on client …: 2; the goal is = 1"). */
  detail: string;
}

export interface StepResult {
  passed: boolean;
  results: PredicateResult[];
  /** Counters that rose in the step that a learner should know about (allowances, drops). */
  meanwhile: string[];
  /** The whole explanation, one sentence a line. */
  explanation: string;
}

const IPERF3_CLIENT = /^(sudo\s+)?(timeout\s+\S+\s+)?iperf3\b.*\s-(c|-client)\b/;
const CURL = /^(sudo\s+)?(timeout\s+\S+\s+)?curl\b/;
const AB = /^(sudo\s+)?(timeout\s+\S+\s+)?ab\b/;
const CW_STATS = /^aws\s+cloudwatch\s+get-metric-statistics\b/;

/** Counters worth naming when a goal fails: the Nitro allowances and the host's own drops. */
export const NOTABLE_COUNTERS = [
  'bw_in_allowance_exceeded',
  'bw_out_allowance_exceeded',
  'pps_allowance_exceeded',
  'conntrack_allowance_exceeded',
  'linklocal_allowance_exceeded',
  'rx_overruns',
] as const;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function lastCommand(
  obs: Observation,
  re: RegExp,
  host?: string,
  pred: (c: ObservedCommand) => boolean = () => true,
): ObservedCommand | undefined {
  for (let i = obs.commands.length - 1; i >= 0; i--) {
    const c = obs.commands[i]!;
    if ((host === undefined || c.host === host) && re.test(c.command) && pred(c)) return c;
  }
  return undefined;
}

function hostByIp(snap: LabSnapshot, ip: string): string | undefined {
  for (const [name, h] of Object.entries(snap.hosts)) if (h.ip === ip) return name;
  return undefined;
}

/** The instance the last iperf3 client run connected to. */
function iperf3Target(obs: Observation): string | undefined {
  const run = lastCommand(obs, IPERF3_CLIENT);
  const conn = (obj(obj(run?.result)?.start)?.connected as unknown[] | undefined)?.[0];
  const ip = obj(conn)?.remote_host;
  return typeof ip === 'string' ? hostByIp(obs.now, ip) : undefined;
}

/** The commands a measure's `command` matches, as the learner reads them (never the regex). */
function commandName(m: Measure): string {
  return m.commandText !== undefined ? `\`${m.commandText}\`` : 'the command this goal reads';
}

function windowOf(
  obs: Observation,
  m: Measure,
): { before: LabSnapshot; after: LabSnapshot; where: string } | { missing: string } {
  if (m.window !== 'last-command') return { before: obs.start, after: obs.now, where: 'in this step' };
  const c = lastCommand(obs, new RegExp(m.command ?? '$^'));
  if (!c) return { missing: `no ${commandName(m)} has run in this step` };
  return { before: c.before, after: c.after, where: `during \`${c.command}\`` };
}

/** Read one measure from an observation. */
export function measure(obs: Observation, m: Measure): MeasureResult {
  let host = m.host ?? obs.defaultHost;
  if (host === '@target') {
    const t = iperf3Target(obs);
    if (!t) return { value: null, source: 'the iperf3 target', missing: 'no iperf3 run to an instance yet' };
    host = t;
  }
  const metric = m.metric;
  if (metric.startsWith('iperf3.')) {
    const re = m.command ? new RegExp(m.command) : IPERF3_CLIENT;
    const run = lastCommand(obs, re, host, (c) => IPERF3_CLIENT.test(c.command));
    if (!run)
      return { value: null, source: `${host}'s iperf3`, missing: `no iperf3 -c run on ${host} in this step` };
    const source = `${host}'s last iperf3 (\`${run.command}\`)`;
    const doc = obj(run.result);
    const end = obj(doc?.end);
    if (!doc || !end || run.exitCode !== 0)
      return {
        value: null,
        source,
        missing: `\`${run.command}\` did not finish a test (exit ${run.exitCode})`,
      };
    const start = obj(doc.start);
    const streams = (end.streams as unknown[] | undefined) ?? [];
    const streamRates = streams
      .map((s) => num(obj(obj(s)?.receiver)?.bits_per_second) ?? num(obj(obj(s)?.udp)?.bits_per_second))
      .filter((x): x is number => x !== null);
    const v = ((): number | null => {
      switch (metric) {
        case 'iperf3.received_gbps':
          return (num(obj(end.sum_received)?.bits_per_second) ?? Number.NaN) / 1e9;
        case 'iperf3.sent_gbps':
          return (num(obj(end.sum_sent)?.bits_per_second) ?? Number.NaN) / 1e9;
        case 'iperf3.min_stream_gbps':
          return streamRates.length ? Math.min(...streamRates) / 1e9 : null;
        case 'iperf3.max_stream_gbps':
          return streamRates.length ? Math.max(...streamRates) / 1e9 : null;
        case 'iperf3.streams':
          return num(obj(start?.test_start)?.num_streams);
        case 'iperf3.seconds':
          return num(obj(end.sum_received)?.seconds);
        case 'iperf3.retransmits':
          return num(obj(end.sum_sent)?.retransmits) ?? 0;
        case 'iperf3.lost_percent':
          return num(obj(end.sum_received)?.lost_percent);
        case 'iperf3.last_interval_gbps': {
          const ivs = (doc.intervals as unknown[] | undefined) ?? [];
          const last = obj(obj(ivs[ivs.length - 1])?.sum);
          return last ? (num(last.bits_per_second) ?? Number.NaN) / 1e9 : null;
        }
        case 'iperf3.mss_bytes':
          return num(start?.tcp_mss) ?? num(start?.tcp_mss_default);
        default:
          return null;
      }
    })();
    if (v === null || Number.isNaN(v))
      return { value: null, source, missing: `\`${run.command}\` does not report ${metric}` };
    return { value: v, source };
  }
  if (metric === 'curl.http_code' || metric === 'curl.time_connect_ms' || metric === 'curl.time_total_ms') {
    const run = lastCommand(obs, m.command ? new RegExp(m.command) : CURL, host, (c) => CURL.test(c.command));
    if (!run) return { value: null, source: `${host}'s curl`, missing: `no curl on ${host} in this step` };
    const r = obj(run.result) ?? {};
    const v =
      metric === 'curl.http_code'
        ? num(r.httpCode)
        : metric === 'curl.time_connect_ms'
          ? (num(r.timeConnectS) ?? Number.NaN) * 1e3
          : (num(r.timeTotalS) ?? Number.NaN) * 1e3;
    const source = `${host}'s last curl (\`${run.command}\`)`;
    if (v === null || Number.isNaN(v))
      return { value: null, source, missing: `\`${run.command}\` gave no result` };
    return { value: v, source };
  }
  if (metric === 'ab.complete_requests' || metric === 'ab.requests_per_second') {
    const run = lastCommand(obs, m.command ? new RegExp(m.command) : AB, host, (c) => AB.test(c.command));
    if (!run) return { value: null, source: `${host}'s ab`, missing: `no ab run on ${host} in this step` };
    const r = obj(run.result) ?? {};
    const v =
      metric === 'ab.complete_requests' ? num(r.completeRequests ?? r.completed) : num(r.requestsPerSecond);
    const source = `${host}'s last ab (\`${run.command}\`)`;
    if (v === null) return { value: null, source, missing: `\`${run.command}\` gave no result` };
    return { value: v, source };
  }
  if (metric === 'cloudwatch.max_gbps') {
    const run = lastCommand(obs, m.command ? new RegExp(m.command) : CW_STATS, host, (c) =>
      CW_STATS.test(c.command),
    );
    if (!run)
      return {
        value: null,
        source: 'CloudWatch',
        missing: `no aws cloudwatch get-metric-statistics on ${host} in this step`,
      };
    const source = `the largest datapoint of \`${run.command.length > 60 ? `${run.command.slice(0, 57)}…` : run.command}\``;
    const period = Number(/--period[ =](\d+)/.exec(run.command)?.[1]);
    const points = (obj(run.result)?.Datapoints as unknown[] | undefined) ?? [];
    const sums = points
      .map((d) => obj(d))
      .filter((d) => d?.Unit === 'Bytes')
      .map((d) => num(d?.Sum))
      .filter((x): x is number => x !== null);
    if (run.exitCode !== 0 || !(period > 0))
      return { value: null, source, missing: `\`${run.command}\` gave no datapoints (exit ${run.exitCode})` };
    if (sums.length === 0)
      return {
        value: null,
        source,
        missing:
          'no Bytes datapoint yet (a datapoint needs a whole clock minute of samples: let the minute end; asked for Sum?)',
      };
    return { value: (Math.max(...sums) * 8) / period / 1e9, source: `${source} (Sum × 8 / ${period} s)` };
  }
  if (metric === 'commands') {
    const re = new RegExp(m.command ?? '$^');
    const n = obs.commands.filter((c) => c.exitCode === 0 && re.test(c.command)).length;
    return { value: n, source: `successful runs of ${commandName(m)} in this step` };
  }
  if (metric === 'exit_code') {
    const c = lastCommand(obs, new RegExp(m.command ?? '$^'));
    if (!c) return { value: null, source: 'exit code', missing: `no ${commandName(m)} has run in this step` };
    return { value: c.exitCode, source: `exit code of \`${c.command}\`` };
  }

  // snapshot metrics: deltas over a window, or values at its end
  const w = windowOf(obs, m);
  if ('missing' in w) return { value: null, source: m.name ?? metric, missing: w.missing };
  const a = w.after.hosts[host];
  const b = w.before.hosts[host];
  if (!a || !b) return { value: null, source: metric, missing: `no instance named "${host}" in this lab` };
  const delta = (f: (h: HostSnapshot) => number) => f(a) - f(b);
  switch (metric) {
    case 'counter':
    case 'counter_value': {
      const name = m.name ?? '';
      if (!(name in a.counters))
        return { value: null, source: name, missing: `ethtool -S on ${host} has no counter "${name}"` };
      if (metric === 'counter_value') return { value: a.counters[name]!, source: `${name} on ${host}` };
      return {
        value: a.counters[name]! - (b.counters[name] ?? 0),
        source: `${name} on ${host} ${w.where} (rise)`,
      };
    }
    case 'rx_queues_used': {
      // a queue "carries" traffic when it took at least 1% of the window's packets (not a stray ACK
      // or the iperf3 control connection's few segments)
      const rises = Object.entries(a.counters)
        .filter(([k]) => /^queue_\d+_rx_cnt$/.test(k))
        .map(([k, v]) => v - (b.counters[k] ?? 0));
      const total = rises.reduce((x, y) => x + y, 0);
      const n = rises.filter((d) => d > 0 && d >= total / 100).length;
      return { value: n, source: `RX queues that carried ≥ 1% of ${host}'s received packets ${w.where}` };
    }
    case 'flow_setups':
      return { value: delta((h) => h.flowSetups), source: `flow setups on ${host}'s Nitro card ${w.where}` };
    case 'slow_path_packets':
      return {
        value: delta((h) => h.slowPathPackets),
        source: `packets on ${host}'s processing path ${w.where}`,
      };
    case 'accelerated_packets':
      return {
        value: delta((h) => h.acceleratedPackets),
        source: `packets on ${host}'s accelerated path ${w.where}`,
      };
    case 'conntrack_tracked':
      return { value: a.conntrackTracked, source: `tracked connections on ${host}'s card` };
    case 'conntrack_untracked':
      return { value: a.conntrackUntracked, source: `untracked connections on ${host}'s card` };
    case 'rx_ring':
      return { value: a.rxRing, source: `${host}'s RX ring size` };
    case 'tx_ring':
      return { value: a.txRing, source: `${host}'s TX ring size` };
    case 'instance.baseline_gbps':
      return { value: a.baselineGbps, source: `${host} (${a.type}) baseline bandwidth` };
    case 'instance.peak_gbps':
      return { value: a.peakGbps, source: `${host} (${a.type}) burst bandwidth` };
    default:
      return { value: null, source: metric, missing: `${metric} is not readable here` };
  }
}

const OP_TEXT: Record<Op, string> = { '>=': '≥', '>': '>', '<=': '≤', '<': '<', '==': '=', '!=': '≠' };

export function compare(actual: number, op: Op, value: number): boolean {
  switch (op) {
    case '>=':
      return actual >= value;
    case '>':
      return actual > value;
    case '<=':
      return actual <= value;
    case '<':
      return actual < value;
    case '==':
      return actual === value;
    case '!=':
      return actual !== value;
  }
}

/** A number as the explanation prints it, in the metric's unit. */
export function formatValue(v: number, unit: string): string {
  switch (unit) {
    case 'Gbps':
      return `${v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3)} Gbps`;
    case 'ms':
      return `${v < 10 ? v.toFixed(3) : v.toFixed(1)} ms`;
    case 's':
      return `${Number.isInteger(v) ? v : v.toFixed(2)} s`;
    case '%':
      return `${v.toFixed(1)}%`;
    case '/s':
      return `${v.toFixed(1)}/s`;
    case 'bytes':
      return `${v} bytes`;
    case 'count':
      return formatCount(v);
    default:
      return String(v);
  }
}

/** A number with up to six significant digits and the metric's unit (where formatValue rounds too much). */
function preciseValue(v: number, unit: string): string {
  const n = String(Number(v.toPrecision(6)));
  return unit === 'count' || unit === '' ? n : unit === '%' || unit === '/s' ? `${n}${unit}` : `${n} ${unit}`;
}

/** 1234567 → "1.23 M", 45210 → "45,210". */
export function formatCount(v: number): string {
  if (Math.abs(v) >= 1e6) return `${(v / 1e6).toFixed(2)} M`;
  return Math.round(v).toLocaleString('en-US');
}

export function evaluatePredicate(obs: Observation, p: Predicate): PredicateResult {
  const unit = METRICS[p.metric].unit;
  const goal = `${OP_TEXT[p.op]} ${formatValue(p.value, unit)}`;
  const r = measure(obs, p);
  const label = p.label ? `${p.label} ` : '';
  if (r.value === null) {
    const detail = `not yet: ${r.missing} (goal: ${r.source} ${goal})`;
    return { predicate: p, ok: null, actual: null, text: `${label}${detail}`, detail };
  }
  const ok = compare(r.value, p.op, p.value);
  const detail = `${r.source}: ${formatValue(r.value, unit)}; the goal is ${goal}`;
  return { predicate: p, ok, actual: r.value, text: `${ok ? '✓' : '✗'} ${label}${detail}`, detail };
}

/** What else moved in the step that explains a failure: allowance counters and ring overruns. */
export function meanwhile(obs: Observation): string[] {
  const out: string[] = [];
  for (const [name, h] of Object.entries(obs.now.hosts)) {
    const b = obs.start.hosts[name];
    if (!b) continue;
    for (const c of NOTABLE_COUNTERS) {
      const d = (h.counters[c] ?? 0) - (b.counters[c] ?? 0);
      if (d > 0) out.push(`meanwhile ${c} rose by ${formatCount(d)} on ${name}`);
    }
  }
  return out;
}

export function evaluateStep(obs: Observation, step: Pick<Step, 'goal'>): StepResult {
  const results = step.goal.map((p) => evaluatePredicate(obs, p));
  const passed = results.every((r) => r.ok === true);
  const more = passed ? [] : meanwhile(obs);
  return {
    passed,
    results,
    meanwhile: more,
    explanation: [...results.map((r) => r.text), ...more].join('\n'),
  };
}

export interface PredictionResult {
  guess: number;
  answer: number | null;
  right: boolean;
  text: string;
}

/** Compare a learner's guess with what the run gave, within the prediction's tolerance. */
export function judgePrediction(obs: Observation, p: Predict, guess: number): PredictionResult {
  const unit = METRICS[p.answer.metric].unit;
  const r = measure(obs, p.answer);
  if (r.value === null)
    return { guess, answer: null, right: false, text: `run the step first: ${r.missing}` };
  const err = Math.abs(guess - r.value);
  const tol = Math.max(
    p.tolerance.absolute ?? 0,
    p.tolerance.relative !== undefined ? p.tolerance.relative * Math.abs(r.value) : 0,
  );
  const right = err <= tol;
  // the guess and the answer as printed must differ when the guess is wrong: a guess of 1.4
  // against 1 packet reads "1" for both in the count format, so both get more digits then
  // counts keep their fraction here (a guess may be 1.5; a tolerance 0.3), unlike in goal texts
  const base = (v: number, u: string) =>
    u === 'count' && Math.abs(v) < 1e6
      ? v.toLocaleString('en-US', { maximumFractionDigits: 2 })
      : formatValue(v, u);
  const fmt = !right && base(guess, unit) === base(r.value, unit) ? preciseValue : base;
  const said = fmt(guess, unit);
  const gave = fmt(r.value, unit);
  const counts = tol > 0 ? `a guess within ${fmt(tol, unit)} of it counts` : 'only that number counts';
  return {
    guess,
    answer: r.value,
    right,
    text: right
      ? `Right: you said ${said}; ${r.source} gave ${gave}, and ${counts}. ${p.reason}`
      : `Not quite: you said ${said}; ${r.source} gave ${gave}, ${fmt(err, unit)} away (${counts}). ${p.reason}`,
  };
}
