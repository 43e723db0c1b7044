/**
 * The averaging ladder's numbers are the model's and the CLI's: over the worker API (as the page
 * runs it), `iperf3 -c server -t 6 -P 2` then a sleep past the minute; the ladder's 1-minute Sum
 * is what `aws cloudwatch get-metric-statistics` prints for that minute, its 5-minute statistics
 * the CLI's 300 s datapoint, its largest 1 s bar `lab summary`'s peak 1 s rate, and the strips
 * hold the same bytes (the 10 µs bars of a millisecond add up to that millisecond's bar).
 */
import { describe, expect, it } from 'vitest';
import { LADDER_LEVELS, ladderWindow } from '../../src/lib/ladder';
import type { LadderSeries } from '../../src/protocol/sim-api';
import { createAppStore } from '../../src/state/app-store';
import { buildLadder, ladderSummary, ladderValue } from '../../src/ui/charts/ladder-data';
import { SimService } from '../../workers/sim-service';

const CW = (period: number, stats: string) =>
  `aws cloudwatch get-metric-statistics --namespace AWS/EC2 --metric-name NetworkOut --dimensions Name=InstanceId,Value=ID --start-time 2024-12-02T16:55:00Z --end-time 2024-12-02T17:10:00Z --period ${period} --statistics ${stats}`;

/** A lab over the worker API with the page's series buffer filled from its frames, as the page does. */
function session(settings: Record<string, unknown>) {
  const svc = new SimService();
  const r = svc.load({ version: 3, settings: { record: true, ...settings } });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const store = createAppStore({ presetId: 'exp1', doc: {} });
  // as the page does: a lab at t = 0 (its first sample comes 1 ms in)
  store.series.reset(r.sampleColumns.length, 0);
  const out: string[] = [];
  const results = new Map<string, unknown>();
  const run = (line: string) => {
    expect(svc.submit(line)).toBe(true);
    for (let i = 0; i < 2000; i++) {
      // 1 ms samples while commands run (the page's default), at most 100 ms of model per frame
      const f = svc.advance({ toNs: svc.live!.session.nowNs + 100e6, maxEvents: 5_000_000 });
      store.series.append(f);
      for (const c of f.terminal) out.push(c.text);
      for (const x of f.runs) results.set(x.command, x.result);
      if (f.foreground === null) return;
    }
    throw new Error(`${line} did not end`);
  };
  return { svc, store, cols: r.sampleColumns, run, out, results };
}

describe('the averaging ladder', () => {
  it("its strips nest: each one's extent lies inside the next coarser one's", () => {
    for (const focus of [0, 3.2e9, 61e9, 1000e9])
      for (let i = 0; i + 1 < LADDER_LEVELS.length; i++) {
        const a = LADDER_LEVELS[i]!;
        const b = LADDER_LEVELS[i + 1]!;
        const [a0, a1] = ladderWindow(focus, a.binNs, a.spanNs);
        const [b0, b1] = ladderWindow(focus, b.binNs, b.spanNs, i + 1 >= 3 ? -57e9 : 0);
        expect(b0).toBeLessThanOrEqual(a0);
        expect(b1).toBeGreaterThanOrEqual(a1);
      }
  });

  it('shows the numbers aws cloudwatch and lab summary print for the same run', () => {
    const { svc, store, cols, run, out, results } = session({ monitoring: 'detailed' });
    run('iperf3 -c server -t 6 -P 2');
    // the burst's instant: while iperf3 still sent, the worker picks it (the busiest ms of its last second)
    run('sleep 70');
    const id = (svc.live!.session.lab.scenario.instances[0] as { instanceId: string }).instanceId;
    const fine = svc.ladderSeries({ host: 0, atNs: null }) as LadderSeries;
    expect(fine.focus).toBe('last-burst');
    expect(fine.focusNs).toBeGreaterThan(5e9);
    expect(fine.focusNs).toBeLessThan(6.5e9);
    const ladder = buildLadder({ series: store.series, cols, fine, statistic: 'Sum' })!;
    const strip = (id: string) => ladder.strips.find((s) => s.id === id)!;

    // 1 minute: the Sum of 17:00 (t = 0 – 60 s) as aws cloudwatch prints it
    run(CW(60, 'Sum').replace('ID', id));
    const doc = JSON.parse(out.join('').match(/\{\n {4}"Label"[\s\S]*?\n\}/)![0]) as {
      Datapoints: Array<{ Timestamp: string; Sum: number }>;
    };
    const first = doc.Datapoints.find((d) => d.Timestamp === '2024-12-02T17:00:00+00:00')!;
    expect(first.Sum).toBeGreaterThan(8e9); // ≈ 12.5 Gbit/s for 6 s
    const minute = strip('1min').bars.find((b) => b.fromNs === 0)!;
    expect(minute.value).toBe(first.Sum);
    expect(strip('1min').atFocus).toEqual(minute);

    // 5 minutes (basic monitoring's statistic set so far): SampleCount and Sum as the CLI's 300 s datapoint
    out.length = 0;
    run(CW(300, 'Sum SampleCount').replace('ID', id));
    const five = JSON.parse(out.join('').match(/\{\n {4}"Label"[\s\S]*?\n\}/)![0]).Datapoints[0];
    const sum5 = buildLadder({ series: store.series, cols, fine, statistic: 'Sum' })!.strips[4]!.atFocus!;
    const n5 = buildLadder({ series: store.series, cols, fine, statistic: 'SampleCount' })!.strips[4]!
      .atFocus!;
    expect([sum5.value, n5.value]).toEqual([five.Sum, five.SampleCount]);

    // 1 s: the largest bar is lab summary's "peak 1 s rate" for the client's bytes out
    run('lab summary');
    const summary = results.get('lab summary') as {
      instances: Array<{ instance: string; out: { peak1s: number; peak1ms: number; peak10us: number } }>;
    };
    const client = summary.instances.find((i) => i.instance === 'client')!;
    expect(ladderValue(strip('1s').peak!.value, 'Gbit/s')).toBe(
      `${((client.out.peak1s * 8) / 1e9).toFixed(3)} Gbit/s`,
    );
    // 1 ms and 10 µs: never above the run's peaks lab summary finds
    expect(strip('1ms').peak!.value).toBeLessThanOrEqual((client.out.peak1ms * 8) / 1e9 + 1e-9);
    expect(strip('10us').peak!.value).toBeLessThanOrEqual((client.out.peak10us * 8) / 1e9 + 1e-9);
    expect(strip('10us').peak!.value).toBeGreaterThan(strip('1ms').peak!.value);

    // over the burst's 100 ms, the ladder's largest 10 µs and 1 ms bars are the peaks lab summary
    // prints for it, to the digit: both count a batch's packets where the host link carries them
    const blockS = Math.floor(fine.focusNs / 1e8) / 10;
    run(`lab summary --from ${blockS.toFixed(1)} --to ${(blockS + 0.1).toFixed(1)}`);
    const block = (
      results.get(
        `lab summary --from ${blockS.toFixed(1)} --to ${(blockS + 0.1).toFixed(1)}`,
      ) as typeof summary
    ).instances.find((i) => i.instance === 'client')!.out;
    const ladderAt = (atNs: number) =>
      buildLadder({
        series: store.series,
        cols,
        fine: svc.ladderSeries({ host: 0, atNs }),
        statistic: 'Sum',
        cursorNs: atNs,
      })!;
    let peak10 = 0;
    for (let k = 0; k < 100; k++) {
      const s10 = ladderAt(blockS * 1e9 + k * 1e6 + 0.5e6).strips[0]!;
      expect(s10.bars).toHaveLength(100); // the finest strip is that millisecond, all kept
      peak10 = Math.max(peak10, s10.peak?.value ?? 0);
    }
    const gbit = (bytesPerS: number) => `${((bytesPerS * 8) / 1e9).toFixed(3)} Gbit/s`;
    expect(ladderValue(peak10, 'Gbit/s')).toBe(gbit(block.peak10us));
    const s1ms = ladderAt(blockS * 1e9 + 50e6).strips[1]!;
    expect([s1ms.fromNs, s1ms.toNs]).toEqual([blockS * 1e9, blockS * 1e9 + 100e6]);
    expect(ladderValue(s1ms.peak!.value, 'Gbit/s')).toBe(gbit(block.peak1ms));
    // and physical: no 10 µs above the client's host link (its Nitro card) by more than a packet
    const linkBps = svc.live!.session.lab.instance('client')!.nitro.linkBps;
    expect(peak10 * 1e9).toBeLessThanOrEqual(linkBps + (9015 * 8) / 10e-6);
    expect(peak10 * 1e9).toBeGreaterThan(0.9 * linkBps);

    // the same bytes at every scale: a millisecond's 10 µs bars add up to its 1 ms bar (asked about
    // the middle of the burst's millisecond, the finest strip is that millisecond)
    const mid = Math.floor(fine.focusNs / 1e6) * 1e6 + 0.5e6;
    const there = buildLadder({
      series: store.series,
      cols,
      fine: svc.ladderSeries({ host: 0, atNs: mid }),
      statistic: 'Sum',
      cursorNs: mid,
    })!;
    const ms = there.strips[1]!.atFocus!;
    const tens = there.strips[0]!.bars;
    expect(tens).toHaveLength(100);
    expect([tens[0]!.fromNs, tens[99]!.toNs]).toEqual([ms.fromNs, ms.toNs]);
    const sum10 = tens.reduce((a, b) => a + b.value, 0) / 100;
    expect(sum10).toBeCloseTo(ms.value, 6);
    expect(ms.value).toBeGreaterThan(1);

    // and in words (the screen reader's summary)
    const text = ladderSummary(ladder, (ns) => `${(ns / 1e9).toFixed(3)} s`).join(' ');
    expect(text).toContain("at the busiest moment of client's last burst");
    // the finest strip is centred on a largest bar (at the link's rate several are as large)
    expect(strip('10us').atFocus!.value).toBe(strip('10us').peak!.value);
    expect(text).toContain(
      `1 minute · CloudWatch Sum (detailed monitoring): ${ladderValue(first.Sum, 'bytes')} at the instant`,
    );
    expect(ladder.batchNote).toMatch(/batches of up to 64/);
    // why a bar can read above the instance's 12.5 Gbit/s: counted before the card shapes, at most its link
    expect(ladder.batchNote).toContain(
      "before the card applies the instance's bandwidth allowance: a 10 µs or 1 ms bar can read above the allowance, up to the card's own link (170 Gbit/s)",
    );
  });

  it('asked about an instant, the worker reads the strips around it; beyond what it keeps it says so', () => {
    const { svc, store, cols, run } = session({});
    run('iperf3 -c server -t 2 -P 1');
    const at = svc.ladderSeries({ host: 0, atNs: 0.5e9 }) as LadderSeries;
    expect(at).toMatchObject({ focus: 'asked', focusNs: 0.5e9 });
    expect(at.fine.stepNs).toBe(10_000);
    expect(at.fine.t0Ns).toBe(0.4995e9);
    const ladder = buildLadder({ series: store.series, cols, fine: at, statistic: 'Sum', cursorNs: 0.5e9 })!;
    expect(ladder.focus).toBe('cursor');
    // 0.5 s is more than 655 ms before the end of the run: the 10 µs buckets are gone
    expect(ladder.strips[0]!.empty).toMatch(/not kept/);
    expect(ladder.strips[1]!.peak!.value).toBeGreaterThan(5);
  });
});
