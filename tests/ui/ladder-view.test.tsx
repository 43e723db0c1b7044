/**
 * The averaging ladder drawn (happy-dom): five strips finest first, each coarser one shading the
 * finer one's extent; heights on one scale (a 10 µs bar above it is cut with a mark); the same
 * numbers in words for a screen reader.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { LadderSeries } from '../../src/protocol/sim-api';
import { SeriesBuffer } from '../../src/state/series-buffer';
import { LadderChart, ladderSizes } from '../../src/ui/charts/ladder';
import { buildLadder } from '../../src/ui/charts/ladder-data';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let el: HTMLDivElement | null = null;
afterEach(() => {
  el?.remove();
  el = null;
});

/** 1.25 GB/s (10 Gbit/s) for 6 s, then idle to 130 s; the worker's strips around 3 s with one 10 µs spike. */
function ladder() {
  const s = new SeriesBuffer();
  s.reset(2);
  for (let t = 0; t <= 130; t += 0.5) {
    const bytes = Math.min(t, 6) * 1.25e9;
    s.appendRow(t * 1e9, [bytes, bytes]);
  }
  const fine = new Float64Array(100).fill(12_500); // 10 Gbit/s per 10 µs
  fine[50] = 500_000; // one batch: 400 Gbit/s over its 10 µs
  const series: LadderSeries = {
    host: 'client',
    focusNs: 3.000005e9,
    focus: 'last-burst',
    fine: { t0Ns: 2.9995e9, stepNs: 10_000, bytes: fine },
    ms: { t0Ns: 2.95e9, stepNs: 1e6, bytes: new Float64Array(100).fill(1.25e6) },
    lastOutNs: 6e9,
    maxBatch: 64,
    linkGbps: 170,
    nowNs: 130e9,
  };
  return buildLadder({
    series: s,
    cols: ['client.tx_bytes', 'client.network_out_bytes'],
    fine: series,
    statistic: 'Sum',
  })!;
}

describe('the averaging ladder, drawn', () => {
  it('five strips finest first, the finer extent shaded on each coarser one, one height scale, words for a screen reader', async () => {
    const l = ladder();
    el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    await act(async () => root.render(<LadderChart ladder={l} width={600} />));
    const strips = [...el.querySelectorAll('[data-strip]')].map((g) => g.getAttribute('data-strip'));
    expect(strips).toEqual(['10us', '1ms', '1s', '1min', '5min']);
    // each coarser strip shades the finer one's extent
    expect(el.querySelectorAll('.ladder-extent')).toHaveLength(4);
    // the 1 minute strip: one datapoint holding the 6 s burst (7.5 GB); its bar is 1/60 of the 1 s bars' height
    const bar = (id: string) => el!.querySelector(`[data-strip="${id}"] .ladder-bar`)!;
    const h = (id: string) => Number(bar(id).getAttribute('height'));
    expect(h('1s')).toBeCloseTo(34, 0); // 10 Gbit/s: the shared scale's top
    expect(h('1min')).toBeCloseTo(3.4, 1); // 7.5 GB over 60 s = 1 Gbit/s: a tenth of the top
    // the 400 Gbit/s batch is above the scale: cut with a mark
    expect(el.querySelectorAll('[data-strip="10us"] .ladder-cut')).toHaveLength(1);
    const words = el.querySelector('[data-testid=ladder-words]')!.textContent!;
    expect(words).toContain('10 µs · the model: 400.000 Gbit/s at the instant');
    expect(words).toContain(
      '1 minute · CloudWatch Sum (detailed monitoring): 7,500,000,000 bytes at the instant',
    );
    expect(el.textContent).toContain('batches of up to 64');
    act(() => root.unmount());
  });
});

describe('the ladder before any traffic', () => {
  it('says what it will show instead of five empty strips', async () => {
    const s = new SeriesBuffer();
    s.reset(2);
    const l = buildLadder({
      series: s,
      cols: ['client.tx_bytes', 'client.network_out_bytes'],
      fine: {
        host: 'client',
        focusNs: 0,
        focus: 'idle',
        fine: { t0Ns: 0, stepNs: 10_000, bytes: new Float64Array(100) },
        ms: { t0Ns: 0, stepNs: 1e6, bytes: new Float64Array(100) },
        lastOutNs: null,
        maxBatch: 64,
        linkGbps: null,
        nowNs: 0,
      },
      statistic: 'Sum',
    });
    el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    await act(async () => root.render(<LadderChart ladder={l} width={600} />));
    expect(el.querySelectorAll('[data-strip]')).toHaveLength(0);
    expect(el.textContent).toContain('client has sent nothing yet');
    act(() => root.unmount());
  });
});

describe('the ladder in a short charts region', () => {
  it('all five strips fit the region (the stage at 1280×800); a tall region or a scrolling page gets the full ladder', async () => {
    expect(ladderSizes(0)).toEqual({ strip: 34, join: 14 });
    expect(ladderSizes(900)).toEqual({ strip: 34, join: 14 });
    const short = ladderSizes(265);
    expect(short.strip).toBeLessThan(34);
    expect(short.strip).toBeGreaterThanOrEqual(18);
    const l = ladder();
    el = document.createElement('div');
    document.body.appendChild(el);
    const root = createRoot(el);
    const svgH = async (regionH: number) => {
      await act(async () => root.render(<LadderChart ladder={l} width={600} regionH={regionH} />));
      expect(el!.querySelectorAll('[data-strip]')).toHaveLength(5);
      return Number(el!.querySelector('svg.ladder-svg')!.getAttribute('height'));
    };
    // the strips and the caption above them (48 px) within the region
    expect(await svgH(265)).toBeLessThanOrEqual(265 - 48);
    expect(await svgH(0)).toBeGreaterThan(265);
    await act(async () => root.unmount());
  });
});
