/**
 * Charts and exports in the built site (Chromium): after `iperf3 -c server -t 1` the latency chart
 * has percentiles, the cursor set on one chart shows on every chart and in the path panel, and the
 * downloads are real files: a CSV that parses into the chart's series, PNGs (a chart and the path
 * view) with the PNG signature and a real size, and iperf3's -J document with start, intervals
 * and end.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labReady, launchChromium, watchProblems } from './browser.mjs';

let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
  watchProblems(page, problems);
  await page.goto(inject('baseUrl'));
  await labReady(page);
  const cmd = page.getByRole('textbox', { name: 'Command' });
  await cmd.fill('iperf3 -c server -t 1');
  await cmd.press('Enter');
  await page.getByTestId('scrollback').getByText('iperf Done.').waitFor({ timeout: 60_000 });
  const tab = page.getByRole('tab', { name: 'Charts' });
  if (await tab.count()) await tab.click();
});

afterAll(async () => {
  await browser?.close();
});

async function downloadOf(button: ReturnType<Page['getByRole']>): Promise<{ d: Download; bytes: Buffer }> {
  await button.scrollIntoViewIfNeeded();
  const [d] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await d.path();
  return { d, bytes: await readFile(path) };
}

function isPng(b: Buffer): { width: number; height: number } {
  expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(b.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('charts and exports in Chromium', () => {
  it('the latency chart shows the percentiles of the run; a cursor on one chart is on all and in the path panel', async () => {
    const latency = page.locator('[data-chart=latency]');
    // charts out of view keep their last drawing: bring it into view, where it draws the run
    await latency.scrollIntoViewIfNeeded();
    await latency.getByText('server p99.9').waitFor({ timeout: 10_000 });
    const plot = latency.locator('.chart-plot');
    await plot.scrollIntoViewIfNeeded();
    const box = (await plot.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
    const text = (await plot.getAttribute('aria-valuetext')) ?? '';
    expect(text).toMatch(/server p50 [\d.,]+ µs; server p99 [\d.,]+ µs/);
    const values = await page
      .locator('.chart-plot')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-valuenow')));
    expect(new Set(values).size).toBe(1);
    expect(await page.locator('.chart .cursor').count()).toBe(values.length);
    expect(await page.getByTestId('path-cursor').textContent()).toMatch(/Charts cursor at 0\.\d+ s/);
  });

  it('Export CSV downloads the rate chart as CSV that parses into its series', async () => {
    const { d, bytes } = await downloadOf(page.getByRole('button', { name: /^Export CSV: Rate out and in/ }));
    expect(d.suggestedFilename()).toMatch(/^ec2-netlab-rate-out-and-in-t[\d.]+s\.csv$/);
    const lines = bytes.toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('series,from_s,to_s,value_Gbit/s');
    const rows = lines.slice(1).map((l) => {
      const m = /^("(?:[^"]|"")*"|[^,]*),([^,]*),([^,]*),([^,]*)$/.exec(l);
      expect(m, l).not.toBeNull();
      return {
        series: m![1]!.replace(/^"|"$/g, ''),
        from: Number(m![2]),
        to: Number(m![3]),
        v: Number(m![4]),
      };
    });
    const out = rows.filter((r) => r.series === 'client out (ENA tx_bytes, 1 ms)');
    expect(out.length).toBeGreaterThan(20);
    for (const r of out) {
      expect(Number.isFinite(r.v)).toBe(true);
      expect(r.to).toBeGreaterThan(r.from);
    }
    // about 10 Gbit/s while iperf3 ran (its one interval is in the file too)
    expect(Math.max(...out.map((r) => r.v))).toBeGreaterThan(5);
    const iperf = rows.filter((r) => r.series.startsWith('iperf3 on client'));
    expect(iperf.length).toBe(1);
    expect(iperf[0]!.v).toBeGreaterThan(5);
  });

  it('Export PNG of a chart and of the path view: PNG files of a real size', async () => {
    const chart = await downloadOf(page.getByRole('button', { name: /^Export PNG: One-way latency/ }));
    expect(chart.d.suggestedFilename()).toMatch(/\.png$/);
    const c = isPng(chart.bytes);
    expect(c.width).toBeGreaterThanOrEqual(600); // 2× the chart's CSS width
    expect(c.height).toBeGreaterThan(200);
    expect(chart.bytes.length).toBeGreaterThan(8_000);
    const path = await downloadOf(page.getByRole('button', { name: 'Export PNG: packet path' }));
    const p = isPng(path.bytes);
    expect(p.width).toBeGreaterThan(400);
    expect(path.bytes.length).toBeGreaterThan(20_000);
  });

  it("Download iperf3 JSON gives the run's -J document: start, intervals, end", async () => {
    const { bytes } = await downloadOf(
      page.getByRole('button', { name: /^Download iperf3 JSON: iperf3 -c server -t 1/ }),
    );
    const text = bytes.toString('utf8');
    expect(text.startsWith('{\n\t"start":\t{')).toBe(true); // iperf3 -J's own layout (cJSON)
    const doc = JSON.parse(text);
    expect(doc.start.connecting_to).toEqual({ host: 'server', port: 5201 });
    expect(doc.intervals).toHaveLength(1);
    expect(doc.intervals[0].sum.seconds).toBeCloseTo(1, 1);
    expect(doc.end.sum_received.bytes).toBeGreaterThan(1e9);
    expect(problems).toEqual([]);
  });

  it('"Show the path at the cursor" moves the lab to the cursor: the path picture then holds it', async () => {
    const cursorText = (await page.locator('.chart-plot').first().getAttribute('aria-valuenow')) ?? '';
    const cursor = Number(cursorText);
    expect(cursor).toBeGreaterThan(0);
    const label = page.getByTestId('path-cursor');
    expect(await label.textContent()).toContain('(before this picture)');
    await page.getByRole('button', { name: 'Show the path at the cursor' }).click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=path-cursor]')?.textContent?.includes('(inside this picture)'),
    );
    const t = Number((await page.getByTestId('sim-time').textContent())?.replace(/[^0-9.]/g, ''));
    expect(Math.abs(t * 1e9 - cursor)).toBeLessThan(1e3);
    expect(problems).toEqual([]);
  });
});
