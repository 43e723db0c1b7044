/**
 * `lab summary [--from S] [--to S]` and `lab record on|off|status`: ec2-netlab's own view (not an
 * AWS or Linux tool) of one run at every time scale at once, from the full metrics recorder. One
 * table, per instance: the peak 10 µs, 1 ms, 1 s (iperf3's interval), 60 s and 300 s (CloudWatch's
 * periods) rates per direction, the fullest each queue got, every counter that moved, and the
 * one-way latency percentiles of the flows it received (whole run: the histograms are not timed).
 *
 * Rates count bytes as the ENA does (IP length + 14-byte Ethernet header). The 1 s, 60 s and 300 s
 * windows start at --from (CloudWatch's own minutes come from `aws cloudwatch`); a window that
 * runs past --to counts only what is inside, over the window's full length (as a period does).
 * Without the recorder it says how to turn it on.
 */
import type { Lab } from '../../lab/lab';
import { attachRecorder } from '../../lab/attach-recorder';
import type { TrafficMetric } from '../../metrics/recorder';
import { type CommandOutcome, done, fail } from '../types';

const NOTE = "# lab: ec2-netlab's view of the model (not an AWS or Linux tool)\n";

export const SUMMARY_USAGE =
  '       lab summary [--from SECONDS] [--to SECONDS]\n       lab record on|off|status\n';

export function runRecord(args: string[], lab: Lab): CommandOutcome {
  const what = args[0];
  if (args.length !== 1 || !['on', 'off', 'status'].includes(what!))
    return fail('usage: lab record on|off|status\n', 2);
  const t = (lab.nowNs / 1e9).toFixed(3);
  if (what === 'status')
    return done(`${NOTE}recorder: ${lab.metrics ? 'on' : 'off'}\n`, 0, { recording: lab.metrics !== null });
  if (what === 'on') {
    if (lab.metrics) return done(`${NOTE}recorder: already on\n`, 0, { recording: true });
    attachRecorder(lab);
    return done(
      `${NOTE}recorder: on from t = ${t} s (packets already queued at this instant are not counted in the queues' levels)\n`,
      0,
      { recording: true },
    );
  }
  return fail(
    'lab record off: a recorder cannot be detached (the dashboards read it); start a new lab without settings.record\n',
    1,
  );
}

interface Row {
  instance: string;
  measure: string;
  value: string;
}

export function runSummary(args: string[], lab: Lab): CommandOutcome {
  let fromS = 0;
  let toS = lab.nowNs / 1e9;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = args[i + 1];
    if ((a === '--from' || a === '--to') && v !== undefined && /^\d+(\.\d+)?$/.test(v)) {
      if (a === '--from') fromS = Number(v);
      else toS = Math.min(toS, Number(v));
      i++;
    } else
      return fail(
        `lab summary: bad argument '${a}'\nusage: lab summary [--from SECONDS] [--to SECONDS]\n`,
        2,
      );
  }
  const rec = lab.metrics;
  if (!rec)
    return fail(
      'lab summary: the full recorder is off. Turn it on with `lab record on` before the traffic, or set "settings": { "record": true } in the scenario (npm run lab -- --scenario FILE); aws cloudwatch and sar work without it.\n',
      1,
    );
  if (toS <= fromS) return fail(`lab summary: --to (${toS} s) must be after --from (${fromS} s)\n`, 2);
  rec.settle(lab.nowNs);
  const fromNs = Math.round(fromS * 1e9);
  const toNs = Math.round(toS * 1e9);
  const rows: Row[] = [];
  const gbps = (bytesPerS: number) => `${((bytesPerS * 8) / 1e9).toFixed(3)} Gbit/s`;
  const json: Record<string, unknown>[] = [];
  [...lab.instances.values()].forEach((inst, h) => {
    const entry: Record<string, unknown> = { instance: inst.name };
    for (const [dir, metric] of [
      ['out', 'bytes_out'],
      ['in', 'bytes_in'],
    ] as Array<[string, TrafficMetric]>) {
      const peaks = rec.peakSums(h, metric, fromNs, toNs);
      const windowPeak = (stepNs: number) => {
        const r = rec.series({ host: h, metric, fromNs, toNs, stepNs });
        let mx = 0;
        for (const v of r.mean) if (!Number.isNaN(v) && v > mx) mx = v;
        return mx;
      };
      const rates = {
        peak10us: peaks.sum10us / 10e-6,
        peak1ms: peaks.sum1ms / 1e-3,
        peak1s: windowPeak(1e9),
        peak60s: windowPeak(60e9),
        peak300s: windowPeak(300e9),
      };
      entry[dir] = rates;
      rows.push(
        { instance: inst.name, measure: `${dir}: peak 10 µs rate`, value: gbps(rates.peak10us) },
        { instance: inst.name, measure: `${dir}: peak 1 ms rate`, value: gbps(rates.peak1ms) },
        {
          instance: inst.name,
          measure: `${dir}: peak 1 s rate (iperf3 interval)`,
          value: gbps(rates.peak1s),
        },
        {
          instance: inst.name,
          measure: `${dir}: peak 60 s rate (CloudWatch 1-minute)`,
          value: gbps(rates.peak60s),
        },
        {
          instance: inst.name,
          measure: `${dir}: peak 300 s rate (CloudWatch 5-minute)`,
          value: gbps(rates.peak300s),
        },
      );
    }
    const queues: Record<string, number> = {};
    for (const q of rec.queues(h)) {
      const r = rec.series({
        host: h,
        metric: 'occupancy',
        stage: q.stage,
        queue: q.queue,
        fromNs,
        toNs,
        stepNs: toNs - fromNs,
      });
      let mx = 0;
      for (const v of r.max) if (!Number.isNaN(v) && v > mx) mx = v;
      if (mx === 0) continue;
      queues[`${q.stage}[${q.queue}]`] = mx;
      rows.push({
        instance: inst.name,
        measure: `fullest ${q.stage} queue ${q.queue}`,
        value: `${mx} packets`,
      });
    }
    entry['queues'] = queues;
    const counters: Record<string, number> = {};
    const smp = rec.samples[h]!;
    const rowAt = (ns: number) => smp.rows[Math.min(smp.rows.length - 1, Math.floor(ns / 1e9))];
    const a = rowAt(fromNs);
    const b = rowAt(toNs);
    if (a && b)
      smp.names.forEach((name, i) => {
        if (name === 'conntrack_allowance_available') return; // a gauge, not a counter
        const d = b[i]! - a[i]!;
        if (d === 0) return;
        counters[name] = d;
        rows.push({ instance: inst.name, measure: `ethtool -S ${name}`, value: `+${d}` });
      });
    for (const k of rec.dropSeries()) {
      if (k.host !== h) continue;
      const r = rec.series({
        host: h,
        metric: 'drops',
        stage: k.stage,
        reason: k.reason,
        fromNs,
        toNs,
        stepNs: toNs - fromNs,
      });
      let n = 0;
      for (const v of r.sum) if (!Number.isNaN(v)) n += v;
      if (n === 0) continue;
      counters[`drops ${k.stage} ${k.reason}`] = n;
      rows.push({ instance: inst.name, measure: `drops in ${k.stage}: ${k.reason}`, value: `${n} packets` });
    }
    entry['counters'] = counters;
    // one-way latency of the flows this instance received (socket_tx enter → socket_rx enter)
    const latency: Record<string, { p50us: number; p99us: number; p999us: number; packets: number }> = {};
    for (const l of rec.latency.values()) {
      if (l.host !== h || l.hist.n === 0) continue;
      const t = l.tuple;
      const name = `${t.proto} ${t.srcIp}:${t.srcPort} → ${t.dstIp}:${t.dstPort}`;
      const us = (q: number) => l.hist.quantile(q) / 1e3;
      latency[name] = { p50us: us(0.5), p99us: us(0.99), p999us: us(0.999), packets: l.hist.n };
      rows.push({
        instance: inst.name,
        measure: `latency ${name} (whole run)`,
        value: `p50 ${us(0.5).toFixed(1)} µs, p99 ${us(0.99).toFixed(1)} µs, p99.9 ${us(0.999).toFixed(1)} µs`,
      });
    }
    entry['latency'] = latency;
    json.push(entry);
  });
  const w0 = Math.max(8, ...rows.map((r) => r.instance.length));
  const w1 = Math.max(7, ...rows.map((r) => r.measure.length));
  const line = (a: string, b: string, c: string) => `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`.trimEnd();
  const out = [
    `${NOTE}lab summary of ${fromS.toFixed(3)} s – ${toS.toFixed(3)} s of simulated time (rates: IP + Ethernet header bytes, as the ENA counts them)`,
    '',
    line('instance', 'measure', 'value'),
    ...rows.map((r) => line(r.instance, r.measure, r.value)),
    ...(lab.maxBatch > 1
      ? [
          '',
          `note: this run moves packets in batches of up to ${lab.maxBatch} (settings.batch "auto"); the 10 µs and 1 ms rates`,
          "count a batch's packets one after another at the host link's rate, as tcpdump shows them;",
          'set "settings": { "batch": 1 } for one packet at a time.',
        ]
      : []),
  ].join('\n');
  return done(`${out}\n`, 0, { fromS, toS, instances: json });
}
