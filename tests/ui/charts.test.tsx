/**
 * The charts panel in happy-dom against a real store and a fake lab controller: one cursor shared
 * by every chart (pointer, click to pin, arrow keys), the time axis's zoom (buttons, keys, limits),
 * exports whose CSV rows are the series drawn, the counters' and iperf3's exports, and embed mode
 * without exports.
 */
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChartSeries, CounterSet, ToolRun } from '../../src/protocol/sim-api';
import { SAMPLE_COLUMNS_PER_INSTANCE } from '../../src/protocol/sim-api';
import type { LabController } from '../../src/sim-client/lab-controller';
import { scaleLinear } from 'd3-scale';
import { type AppStore, patch } from '../../src/state/app-store';
import { segmentsPath } from '../../src/ui/charts/chart';
import { buildCharts } from '../../src/ui/charts/chart-defs';
import { Chart, emptyHint, MARGIN } from '../../src/ui/charts/chart';
import { ChartsPanel } from '../../src/ui/charts/charts-panel';
import { chartCsv } from '../../src/ui/charts/export';
import { MIN_SPAN_NS, timeTicks, zoomRange } from '../../src/ui/charts/time-axis';
import { CountersPanel } from '../../src/ui/counters-panel';
import { mount, twoInstanceStore } from './mount';

const HOSTS = ['client', 'server'];
const COLS = HOSTS.flatMap((h) => SAMPLE_COLUMNS_PER_INSTANCE.map((c) => `${h}.${c}`));
const NCOL = SAMPLE_COLUMNS_PER_INSTANCE.length;
const END_NS = 2e9;

/** 2 s of 1 ms samples: the client sends 1.25 MB per ms (10 Gbit/s), the server receives it. */
function fillSeries(store: AppStore) {
  store.series.reset(COLS.length);
  const row = new Float64Array(COLS.length);
  for (let t = 0; t <= END_NS; t += 1e6) {
    const ms = t / 1e6;
    row[0] = ms * 1.25e6; // client.tx_bytes
    row[2] = ms * 1000; // client.tx_packets
    row[7] = 1e12; // client.credits_out_bits
    row[NCOL + 1] = ms * 1.25e6; // server.rx_bytes
    row[NCOL + 3] = ms * 1000; // server.rx_packets
    store.series.appendRow(t, row);
  }
}

/** The engine series the fake worker answers: latency rising 100 µs per step, some drops. */
function engineSeries(req: { fromNs: number; toNs: number; stepNs: number }): ChartSeries {
  const stepNs = Math.max(1e6, Math.round(req.stepNs / 1e6) * 1e6);
  const t0 = Math.floor(req.fromNs / 1e6) * 1e6;
  const steps = Math.ceil((req.toNs - t0) / stepNs);
  const p50 = Float64Array.from({ length: steps }, (_, k) => 100e3 + k * 1e3);
  return {
    t0Ns: t0,
    stepNs,
    tierStepNs: 1e6,
    steps,
    latency: [
      {
        host: 'server',
        p50,
        p99: p50.map((v) => v * 2),
        p999: p50.map((v) => v * 3),
        packets: new Float64Array(steps).fill(10),
      },
    ],
    drops: [
      { host: 'server', stage: 'rx_ring', reason: 'rx_ring_full', packets: new Float64Array(steps).fill(2) },
    ],
  };
}

const asked: Array<{ fromNs: number; toNs: number; stepNs: number }> = [];
function fakeLab(): LabController {
  const no = () => {
    throw new Error('not used by the charts');
  };
  return {
    loadPreset: no,
    submit: no,
    interrupt: no,
    play: no,
    pause: no,
    togglePlay: no,
    step: no,
    setSpeed: no,
    faster: no,
    slower: no,
    rewind: no,
    seek: no,
    setStep: no,
    runUntil: no,
    crashWorker: no,
    cancelRun: no,
    select: no,
    loadLesson: no,
    lessonBegin: no,
    lessonObservation: no,
    loadShared: no,
    commandLog: no,
    chartSeries: async (req) => {
      asked.push(req);
      return engineSeries(req);
    },
    dispose: () => {},
  };
}

let el: HTMLDivElement;
let store: AppStore;
const blobs: Array<{ blob: Blob; name: string }> = [];

async function render(node: React.ReactNode) {
  el = mount(node, { store, lab: fakeLab() });
  // the engine series arrive asynchronously, and the panel mounts its charts a few per task
  for (let i = 0; i < 5; i++)
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
}

beforeEach(() => {
  asked.length = 0;
  blobs.length = 0;
  store = twoInstanceStore();
  patch(store, 'scenario', { sampleColumns: COLS });
  patch(store, 'playback', { nowNs: END_NS });
  fillSeries(store);
  patch(store, 'results', { seriesVersion: 1 });
  // downloads: capture the Blob behind each object URL and the <a download> name
  let lastBlob: Blob | null = null;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    lastBlob = b as Blob;
    return 'blob:test';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    blobs.push({ blob: lastBlob!, name: this.download });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const plots = () => [...el.querySelectorAll<HTMLElement>('.chart-plot')];
const sel = () => store.getState().selection;
const button = (name: string | RegExp) =>
  [...el.querySelectorAll('button')].find((b) =>
    typeof name === 'string'
      ? (b.getAttribute('aria-label') ?? b.textContent) === name
      : name.test(b.getAttribute('aria-label') ?? b.textContent ?? ''),
  ) as HTMLButtonElement;
const key = (target: Element, k: string, init: KeyboardEventInit = {}) =>
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, ...init }));
  });

/** Parse CSV (RFC 4180 quoting) into rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (q) {
      if (ch === '"' && text[i + 1] === '"') {
        f += '"';
        i++;
      } else if (ch === '"') q = false;
      else f += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') {
      row.push(f);
      f = '';
    } else if (ch === '\n') {
      row.push(f.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      f = '';
    } else f += ch;
  }
  return rows;
}

describe('charts panel: one time axis, one cursor', () => {
  it('draws every chart issue 5 lists, with the latency percentiles from the engine series', async () => {
    await render(<ChartsPanel />);
    const ids = [...el.querySelectorAll('figure.chart')].map((f) => f.getAttribute('data-chart'));
    expect(ids).toEqual([
      'rate',
      'ladder',
      'cloudwatch',
      'pps',
      'latency',
      'queues',
      'credits',
      'drops',
      'allowances',
    ]);
    const latency = el.querySelector('[data-chart=latency]')!;
    expect(latency.textContent).toContain('server p50');
    expect(latency.textContent).toContain('server p99.9');
    expect(el.querySelector('[data-chart=drops]')!.textContent).toContain('server rx ring: rx_ring_full');
    expect(el.querySelector('[data-chart=pps]')!.textContent).toContain(
      'client PPS allowance, 1.00 Mpps (measured)',
    );
    // the engine was asked for the window on screen, in steps of at least 1 ms
    expect(asked.at(-1)).toMatchObject({ fromNs: 0, toNs: END_NS });
    expect(asked.at(-1)!.stepNs).toBeGreaterThanOrEqual(1e6);
  });

  it("one clock: the path picture's window is a band and its current instant a line on every chart", async () => {
    // the picture shows 1.50 s – 1.52 s (what a path frame says)
    store.pathFrame = { fromNs: 1.5e9, toNs: 1.52e9 } as unknown as typeof store.pathFrame;
    await render(<ChartsPanel />);
    const marks = [...el.querySelectorAll('figure.chart [data-testid=path-mark]')];
    expect(marks).toHaveLength(el.querySelectorAll('figure.chart').length - 1); // all but the ladder (its own axes)
    const rate = el.querySelector('[data-chart=rate] [data-testid=path-mark]')!;
    const band = rate.querySelector('rect.path-window')!;
    const now = rate.querySelector('line.path-now')!;
    // the axis runs 0 – 2 s: the line at 76 % of the plot, the band ending there (3 px at least)
    const plot = el.querySelector('[data-chart=rate] .chart-plot svg')!;
    const w = Number(plot.getAttribute('width'));
    const x = (t: number) => 56 + ((w - 56 - 14) * t) / 2e9;
    expect(Number(now.getAttribute('x1'))).toBeCloseTo(x(1.52e9), 0);
    expect(Number(band.getAttribute('x')) + Number(band.getAttribute('width'))).toBeCloseTo(x(1.52e9), 0);
    expect(Number(band.getAttribute('width'))).toBeGreaterThanOrEqual(3);
  });

  it('a pointer on one chart sets the cursor in the store, and every chart shows it; click pins it', async () => {
    await render(<ChartsPanel />);
    const p = plots();
    expect(p.length).toBe(8);
    await act(async () => {
      p[2]!.dispatchEvent(new PointerEvent('pointermove', { clientX: 200, bubbles: true }));
    });
    const c = sel().cursorNs!;
    expect(c).toBeGreaterThan(0);
    expect(c).toBeLessThan(END_NS);
    // every chart: the cursor line and the same slider value
    expect(el.querySelectorAll('.chart .cursor').length).toBe(8);
    for (const x of plots()) expect(Number(x.getAttribute('aria-valuenow'))).toBe(c);
    // the rate chart reads 10 Gbit/s at the cursor
    expect(plots()[0]!.getAttribute('aria-valuetext')).toMatch(
      /client out \(ENA tx_bytes, 1 ms\) 10 Gbit\/s/,
    );
    // leaving clears an unpinned cursor; a click pins it and leaving keeps it
    await act(async () => {
      p[2]!.dispatchEvent(new PointerEvent('pointerout', { bubbles: true, relatedTarget: document.body }));
    });
    expect(sel().cursorNs).toBeNull();
    await act(async () => {
      p[0]!.dispatchEvent(new MouseEvent('click', { clientX: 300, bubbles: true }));
    });
    const pinned = sel().cursorNs!;
    expect(pinned).not.toBeNull();
    await act(async () => {
      p[0]!.dispatchEvent(new PointerEvent('pointermove', { clientX: 100, bubbles: true }));
      p[0]!.dispatchEvent(new PointerEvent('pointerout', { bubbles: true, relatedTarget: document.body }));
    });
    expect(sel().cursorNs).toBe(pinned);
    expect(el.querySelector('[data-testid=charts-window]')!.textContent).toContain('(pinned)');
  });

  it('arrow keys move the cursor by 1/100 of the window (Shift: 1/10); Escape clears it', async () => {
    await render(<ChartsPanel />);
    const p = plots()[1]!;
    key(p, 'ArrowRight'); // first press: the middle of the window
    expect(sel().cursorNs).toBe(END_NS / 2);
    key(p, 'ArrowRight');
    expect(sel().cursorNs).toBe(END_NS / 2 + END_NS / 100);
    key(p, 'ArrowLeft', { shiftKey: true });
    expect(sel().cursorNs).toBe(END_NS / 2 + END_NS / 100 - END_NS / 10);
    key(p, 'Escape');
    expect(sel().cursorNs).toBeNull();
  });

  it('zooms about the cursor with + − and the buttons, down to 1 µs; 0 or "Show all" follows the clock again', async () => {
    await render(<ChartsPanel />);
    const p = plots()[0]!;
    key(p, 'ArrowRight'); // cursor at 1 s
    key(p, '+');
    expect(sel().zoom).toEqual([0.5e9, 1.5e9]);
    key(p, '-');
    expect(sel().zoom).toBeNull(); // the whole run again
    await act(async () => button('Zoom in').click());
    expect(sel().zoom).toEqual([0.5e9, 1.5e9]);
    for (let i = 0; i < 40 && !button('Zoom in').disabled; i++)
      await act(async () => button('Zoom in').click());
    const [a, b] = sel().zoom!;
    expect(b - a).toBe(MIN_SPAN_NS);
    expect(a).toBeLessThanOrEqual(1e9);
    expect(b).toBeGreaterThanOrEqual(1e9);
    expect(button('Zoom in').disabled).toBe(true);
    // the axis speaks the window's unit: ticks relative to its start at 1 µs wide
    expect(el.querySelector('[data-chart=rate] .chart-plot svg')!.textContent).toMatch(/\+\d+ ns/);
    key(plots()[0]!, '0');
    expect(sel().zoom).toBeNull();
    await act(async () => button('Zoom in').click());
    await act(async () => button('Show all').click());
    expect(sel().zoom).toBeNull();
  }, 60_000);
});

describe('following the clock', () => {
  it("a run's first milliseconds fill the axis (at auto speed), then the window is the whole run", async () => {
    patch(store, 'playback', { nowNs: 3e6 });
    await render(<ChartsPanel />);
    const win = () => el.querySelector('[data-testid=charts-window]')!.textContent;
    // 10 ms wide while the clock is before it: the first 3 ms are 30 % of the axis, not 0.3 % of a second
    expect(win()).toMatch(/^0\.000 s – 0\.010 s \(10 ms, following the clock\)/);
    expect(el.querySelector('[data-chart=rate] .chart-plot svg')!.textContent).toMatch(/10 ms/);
    await act(async () => patch(store, 'playback', { nowNs: END_NS }));
    await act(async () => patch(store, 'results', { seriesVersion: 2 }));
    expect(win()).toMatch(/^0\.000 s – 2\.000 s/);
  });
});

describe('empty axes say why', () => {
  it('2 s into a run: the rate is drawn; CloudWatch has no datapoint yet and says when it will', async () => {
    await render(<ChartsPanel />);
    const hint = (id: string) =>
      el.querySelector(`[data-chart=${id}] .chart-empty-hint`)?.textContent ?? null;
    expect(hint('rate')).toBeNull();
    expect(hint('cloudwatch')).toBe(
      'No datapoint in this window yet:CloudWatch publishes one when its minute is over.',
    );
    // never "run a command" over a chart that is empty for another reason
    for (const id of ['cloudwatch', 'drops', 'allowances', 'latency'])
      expect(emptyHint(id).join(' ')).not.toMatch(/fills in as traffic runs/);
  });
});

describe('an empty chart on a phone', () => {
  it("its hint's lines are broken to fit the plot (352 px: CloudWatch's was 49 characters, past both edges)", async () => {
    const width = 352;
    const plotW = width - MARGIN.l - MARGIN.r;
    const def = { id: 'cloudwatch', title: 'NetworkOut', unit: 'bytes', lines: [], source: '' };
    const x = scaleLinear()
      .domain([0, 10e6])
      .range([MARGIN.l, width - MARGIN.r]);
    await render(
      <Chart
        def={def}
        x={x}
        width={width}
        cursorNs={null}
        onCursor={() => {}}
        onZoom={() => {}}
        onReset={() => {}}
      />,
    );
    const lines = [...el.querySelectorAll('.chart-empty-hint tspan')].map((t) => t.textContent ?? '');
    expect(lines.length).toBeGreaterThan(2);
    // the same words, each line within the plot at a generous 7.2 px a character (13 px sans-serif)
    expect(lines.join(' ')).toBe(emptyHint('cloudwatch').join(' '));
    for (const l of lines) expect(l.length * 7.2).toBeLessThanOrEqual(plotW - 16);
    // centred on the plot's middle: the first line starts higher, by half the extra lines
    expect(el.querySelector('.chart-empty-hint tspan')!.getAttribute('dy')).toBe('-0.85em');
  });
});

describe('CloudWatch statistic', () => {
  it('the NetworkOut chart graphs the chosen statistic: title, legend and unit follow the picker', async () => {
    // 6 min 40 s of samples (the client idle after the first 2 s): whole minutes for CloudWatch
    const row = new Float64Array(COLS.length);
    row[0] = 2000 * 1.25e6;
    for (let t = END_NS + 1e9; t <= 400e9; t += 1e9) store.series.appendRow(t, row);
    patch(store, 'playback', { nowNs: 400e9 });
    patch(store, 'results', { seriesVersion: 2 });
    await render(<ChartsPanel />);
    const cw = () => el.querySelector('[data-chart=cloudwatch]')!;
    expect(cw().textContent).toContain('NetworkOut as CloudWatch graphs it: Sum');
    expect(cw().textContent).toContain('client NetworkOut Sum, 5-minute datapoints (basic monitoring)');
    const pick = [...el.querySelectorAll('label')]
      .find((l) => l.textContent?.startsWith('CloudWatch statistic'))!
      .querySelector('select')!;
    expect([...pick.options].map((o) => o.value)).toEqual([
      'Sum',
      'Average',
      'Maximum',
      'Minimum',
      'SampleCount',
    ]);
    await act(async () => {
      pick.value = 'SampleCount';
      pick.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(cw().textContent).toContain('NetworkOut as CloudWatch graphs it: SampleCount');
    expect(cw().textContent).toContain('client NetworkOut SampleCount, 1-minute datapoints');
    expect(cw().textContent).toContain('(samples)');
  });
});

describe('presets open on the view that makes their point', () => {
  it('credits: the rate over 10 minutes; the microburst test: the ladder; small packets: the PPS chart', async () => {
    await render(<ChartsPanel />);
    const section = () => el.querySelector('section.charts')!;
    const load = async (presetId: string) => {
      await act(async () => {
        patch(store, 'scenario', { presetId });
        await new Promise((r) => setTimeout(r, 0));
      });
      // the view is applied by an effect after the render that saw the new preset
      await act(async () => {
        await new Promise((r) => setTimeout(r, 0));
      });
    };
    await load('exp2');
    expect(sel().zoom).toEqual([0, 600e9]);
    expect(el.querySelector('[data-testid=charts-window]')!.textContent).toMatch(/0\.0 s – 10 min 0\.0 s/);
    await load('exp4');
    expect(sel().zoom).toBeNull();
    expect(section().getAttribute('data-view-focus')).toBe('ladder');
    await load('exp3');
    expect(section().getAttribute('data-view-focus')).toBe('pps');
    await load('lesson:microbursts');
    expect(section().getAttribute('data-view-focus')).toBe('ladder');
    await load('lesson:burst-baseline');
    expect(sel().zoom).toEqual([0, 20e9]);
    await load('exp1');
    expect(sel().zoom).toBeNull();
    expect(section().hasAttribute('data-view-focus')).toBe(false);
  });
});

describe('asking the worker while the clock runs', () => {
  /** Frames every 100 ms of wall time for 1.1 s, each a millisecond later and a new series version; how often the charts asked. */
  async function asksWhileRunning(): Promise<number> {
    await render(<ChartsPanel />);
    const before = asked.length;
    for (let i = 1; i <= 11; i++)
      await act(async () => {
        patch(store, 'playback', { nowNs: END_NS + i * 1e6 });
        patch(store, 'results', { seriesVersion: 1 + i });
        await new Promise((r) => setTimeout(r, 100));
      });
    return asked.length - before;
  }

  it('playing: about four times a second (a window that follows the clock)', async () => {
    patch(store, 'playback', { playing: true });
    expect(await asksWhileRunning()).toBeGreaterThanOrEqual(4);
  });

  it('in a run to an instant (a fast-forward, each answer taken from the run): once a second', async () => {
    patch(store, 'playback', {
      runTo: { fromNs: 0, toNs: 600e9, startedMs: performance.now(), pace: [] },
    });
    expect(await asksWhileRunning()).toBeLessThanOrEqual(2);
  });
});

describe('charts out of view', () => {
  it('keep what they drew while the clock runs, and redraw with the latest series when scrolled into view', async () => {
    // an IntersectionObserver the test drives: which charts are in (or near) the view
    const observers: Array<{ cb: IntersectionObserverCallback; targets: Element[] }> = [];
    class FakeIO {
      targets: Element[] = [];
      constructor(cb: IntersectionObserverCallback) {
        observers.push({ cb, targets: this.targets });
      }
      observe(t: Element) {
        this.targets.push(t);
      }
      disconnect() {}
    }
    vi.stubGlobal('IntersectionObserver', FakeIO);
    const show = (ids: string[]) =>
      act(() => {
        const o = observers.at(-1)!;
        o.cb(
          o.targets.map(
            (t) => ({ target: t, isIntersecting: ids.includes((t as HTMLElement).dataset.chart!) }) as never,
          ),
          {} as IntersectionObserver,
        );
      });
    try {
      await render(<ChartsPanel />);
      expect(observers.at(-1)!.targets.length).toBe(9); // the ladder too;
      await show(['rate', 'pps']);
      const line = (id: string) => el.querySelector(`[data-chart=${id}] svg path[stroke]`)?.getAttribute('d');
      const before = { rate: line('rate'), credits: line('credits') };
      expect(before.rate).toBeTruthy();
      expect(before.credits).toBeTruthy();
      // one more second of samples: the axis (following the clock) now spans 3 s
      const row = new Float64Array(COLS.length);
      for (let t = END_NS + 1e6; t <= 3e9; t += 1e6) {
        row[0] = (t / 1e6) * 1.25e6;
        row[7] = 5e11;
        row[NCOL + 1] = (t / 1e6) * 1.25e6;
        store.series.appendRow(t, row);
      }
      await act(async () => {
        patch(store, 'playback', { nowNs: 3e9 });
        patch(store, 'results', { seriesVersion: 2 });
        await new Promise((r) => setTimeout(r, 250));
      });
      expect(line('rate')).not.toBe(before.rate);
      expect(line('credits')).toBe(before.credits);
      // scrolled into view: drawn at once from the latest series
      await show(['credits']);
      expect(line('credits')).not.toBe(before.credits);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('exports', () => {
  it("a chart's CSV: a header with the unit, then one row per drawn segment of each series", async () => {
    await render(<ChartsPanel />);
    await act(async () => button(/^Export CSV: Rate out and in/).click());
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.name).toMatch(/^ec2-netlab-rate-out-and-in-t2\.000s\.csv$/);
    const rows = parseCsv(await blobs[0]!.blob.text());
    expect(rows[0]).toEqual(['series', 'from_s', 'to_s', 'value_Gbit/s']);
    const out = rows.filter((r) => r[0] === 'client out (ENA tx_bytes, 1 ms)');
    expect(out.length).toBeGreaterThan(50);
    for (const r of out) {
      expect(Number(r[3])).toBeCloseTo(10, 9); // 1.25 MB per ms
      expect(Number(r[2])).toBeGreaterThan(Number(r[1]));
    }
    // the segments tile the window
    expect(Number(out[0]![1])).toBe(0);
    expect(Number(out.at(-1)![2])).toBe(2);
    // the same rows as the chart's own series
    const defs = buildCharts({
      series: store.series,
      queues: store.queues,
      cols: COLS,
      instances: store.getState().scenario.instances,
      runs: [],
      engine: null,
      fromNs: 0,
      toNs: END_NS,
      px: out.length,
    });
    expect(parseCsv(chartCsv(defs[0]!, 0, END_NS)).filter((r) => r[0] === out[0]![0]).length).toBe(
      out.length,
    );
  });

  it('the latency CSV holds the engine percentiles in µs, step by step', async () => {
    await render(<ChartsPanel />);
    await act(async () => button(/^Export CSV: One-way latency/).click());
    const rows = parseCsv(await blobs[0]!.blob.text());
    expect(rows[0]).toEqual(['series', 'from_s', 'to_s', 'value_µs']);
    const req = asked.at(-1)!;
    const s = engineSeries(req);
    const p50 = rows.filter((r) => r[0] === 'server p50');
    expect(p50.length).toBe(s.steps);
    p50.forEach((r, k) => {
      expect(Number(r[1])).toBeCloseTo((s.t0Ns + k * s.stepNs) / 1e9, 9);
      expect(Number(r[3])).toBeCloseTo(s.latency[0]!.p50[k]! / 1e3, 9);
    });
    const p999 = rows.filter((r) => r[0] === 'server p99.9');
    expect(Number(p999[3]![3])).toBeCloseTo(s.latency[0]!.p999[3]! / 1e3, 9);
  });

  it('JSON export: the chart, its unit, the window and each series', async () => {
    await render(<ChartsPanel />);
    await act(async () => button(/^Export JSON: Packets per second/).click());
    const doc = JSON.parse(await blobs[0]!.blob.text());
    expect(doc.chart).toBe('Packets per second against the PPS allowance');
    expect(doc.unit).toBe('Mpps');
    expect(doc.window).toEqual({ from_s: 0, to_s: 2 });
    const client = doc.series.find((s: { label: string }) => s.label === 'client packets in + out');
    expect(client.points[0].value).toBeCloseTo(1, 9); // 1000 packets per ms out, none in
    const allowance = doc.series.find((s: { label: string }) => s.label.startsWith('client PPS allowance'));
    expect(allowance.points).toEqual([{ from_s: 0, to_s: 2, value: 1 }]);
  });

  it("downloads each iperf3 run's -J document as printed", async () => {
    const run: ToolRun = {
      host: 'client',
      command: 'iperf3 -c server -t 1',
      startNs: 5e6,
      endNs: 1.02e9,
      exitCode: 0,
      result: { start: {}, intervals: [], end: {} },
      iperf3Json: '{\n\t"start":\t{\n\t}\n}\n',
    };
    patch(store, 'results', {
      runs: [run, { ...run, command: 'ethtool -S eth0', result: {}, iperf3Json: undefined }],
    });
    await render(<ChartsPanel />);
    const b = [...el.querySelectorAll('button')].filter((x) => x.textContent === 'Download iperf3 JSON');
    expect(b).toHaveLength(1); // ethtool's run has no iperf3 document
    expect(b[0]!.getAttribute('aria-label')).toBe('Download iperf3 JSON: iperf3 -c server -t 1 at 0.005 s');
    await act(async () => b[0]!.click());
    expect(await blobs[0]!.blob.text()).toBe(run.iperf3Json);
    expect(blobs[0]!.name).toMatch(/\.json$/);
  });

  it('the counters panel exports ethtool -S as CSV and JSON', async () => {
    const counters: CounterSet[] = [
      {
        host: 'client',
        names: ['tx_packets', 'bw_out_allowance_exceeded'],
        values: Float64Array.of(1234, 5),
      },
      { host: 'server', names: ['rx_packets'], values: Float64Array.of(1200) },
    ];
    patch(store, 'results', { counters });
    await render(<CountersPanel />);
    await act(async () => button('Export CSV: ethtool -S counters').click());
    expect(parseCsv(await blobs[0]!.blob.text())).toEqual([
      ['host', 'counter', 'value'],
      ['client', 'tx_packets', '1234'],
      ['client', 'bw_out_allowance_exceeded', '5'],
      ['server', 'rx_packets', '1200'],
    ]);
    await act(async () => button('Export JSON: ethtool -S counters').click());
    expect(JSON.parse(await blobs[1]!.blob.text())).toEqual({
      tool: 'ethtool -S eth0',
      sim_time_s: 2,
      hosts: { client: { tx_packets: 1234, bw_out_allowance_exceeded: 5 }, server: { rx_packets: 1200 } },
    });
  });

  it('embed mode shows no export buttons', async () => {
    patch(store, 'env', { embed: true });
    patch(store, 'results', { counters: [{ host: 'client', names: ['x'], values: Float64Array.of(1) }] });
    await render(
      <>
        <ChartsPanel />
        <CountersPanel />
      </>,
    );
    expect(plots().length).toBe(8);
    expect(
      [...el.querySelectorAll('button')].some((b) =>
        /Export|Download/.test(b.getAttribute('aria-label') ?? ''),
      ),
    ).toBe(false);
  });
});

describe('time axis math', () => {
  it('draws steps as horizontal runs, points joined, and breaks the line where there is no value', () => {
    const segs = [
      { x0: 0, x1: 10, y: 5 },
      { x0: 10, x1: 20, y: 6.04 },
      { x0: 20, x1: 30, y: Number.NaN },
      { x0: 30, x1: 30, y: 7 },
      { x0: 40, x1: 40, y: 8 },
      { x0: 90, x1: 99, y: 9 },
    ];
    const id = (v: number) => v;
    expect(segmentsPath(segs, 0, 50, id, id)).toBe('M0,5H10L10,6H20M30,7L40,8');
    // two runs with idle time between: two pieces, no line across the gap
    const runs = [
      { x0: 0, x1: 10, y: 1 },
      { x0: 20, x1: 30, y: 2 },
    ];
    expect(segmentsPath(runs, 0, 50, id, id)).toBe('M0,1H10M20,2H30');
  });

  it('zooms about a point within [0, max], never narrower than 1 µs; a window covering all follows the clock', () => {
    expect(zoomRange([0, 1e9], 0.25e9, 0.5, 1e9)).toEqual([0.125e9, 0.625e9]);
    expect(zoomRange([0.125e9, 0.625e9], 0.25e9, 4, 1e9)).toBeNull();
    // the point keeps its place in the window (700 of 1500 → 467 of 1000)
    expect(zoomRange([0, 1500], 700, 0.1, 1e9)).toEqual([233, 1233]);
  });

  it('labels time ticks in the unit that fits the window, on round values of that unit', () => {
    const labels = (from: number, to: number, n: number) => timeTicks(from, to, n).map((t) => t.label);
    expect(labels(0, 4e9, 8)).toContain('1.5 s');
    expect(labels(0, 1.9e9, 4)).toContain('1500 ms');
    expect(labels(0, 500e9, 5)).toContain('300 s');
    expect(labels(0, 40 * 60e9, 4)).toContain('30 min');
    expect(labels(0, 1e6, 5)).toContain('200 µs');
    expect(labels(120e9, 120e9 + 4000, 8)).toContain('+2.5 µs');
    expect(labels(120e9, 120e9 + 1000, 2)).toContain('+500 ns');
    // a 10-minute window: whole minutes, evenly spaced (not every 100 s rounded to "2 min", "3 min", "5 min")
    const tenMin = timeTicks(0, 600e9, 6);
    expect(tenMin.map((t) => t.label)).toEqual(['0 min', '2 min', '4 min', '6 min', '8 min', '10 min']);
    for (const t of tenMin) expect(t.ns % 60e9).toBe(0);
    // each label says where its tick is
    for (const t of timeTicks(0, 9e9, 9)) expect(t.label).toBe(`${t.ns / 1e9} s`);
  });
});
