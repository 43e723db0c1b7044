/**
 * The stage in Chromium: at 1280×800 and 1920×1080 the path picture and the time charts are on
 * screen together without a tab or a scroll, on one clock (the rate chart marks the picture's
 * window and instant), the terminal's Command box is in view, and from 1600 wide the charts have
 * the widest column. Screenshots of each state go to .scratch/e2e-shots (looked at by a person).
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labReady, launchChromium, watchProblems } from './browser.mjs';

const SHOTS = '.scratch/e2e-shots';
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

async function open(width: number, height: number, hash = '', problems: string[] = []): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  watchProblems(page, problems);
  await page.goto(`${inject('baseUrl')}${hash}`);
  await labReady(page);
  return page;
}

/** Run a command in the terminal and wait for a line of its output. */
async function run(page: Page, cmd: string, until: RegExp) {
  const box = page.getByRole('textbox', { name: 'Command' });
  await box.fill(cmd);
  await box.press('Enter');
  await page.getByTestId('scrollback').getByText(until).first().waitFor({ timeout: 60_000 });
}

/** The element's box lies inside the viewport. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }, selector);
}

/** The rate chart's plot (its time axis too) lies whole inside the box of `region` and the window: nothing of it cut. */
async function rateWhole(page: Page, region: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const box = document.querySelector(sel)!.getBoundingClientRect();
    const r = document.querySelector('[data-chart=rate] .chart-plot svg')!.getBoundingClientRect();
    return (
      r.height > 60 &&
      r.top >= box.top - 1 &&
      r.bottom <= box.bottom + 1 &&
      r.left >= box.left - 1 &&
      r.right <= Math.min(box.right, innerWidth) + 1
    );
  }, region);
}

describe('one stage, side by side', () => {
  for (const [w, h] of [
    [1280, 800],
    [1920, 1080],
  ] as const)
    it(`${w}×${h}: the path and the charts in view together, one clock, no tab and no page scroll`, async () => {
      const problems: string[] = [];
      const page = await open(w, h, '', problems);
      const gotIt = page.getByRole('button', { name: 'Got it' });
      if (await gotIt.count()) await gotIt.click();
      await page.screenshot({ path: `${SHOTS}/stage-first-${w}x${h}.png` });
      await run(page, 'iperf3 -c server -t 10 -P 2', /1\.00-2\.00 +sec/);
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.waitForTimeout(600);
      await page.screenshot({ path: `${SHOTS}/stage-iperf3-${w}x${h}.png` });
      // no Charts tab: the charts are part of the stage
      expect(await page.getByRole('tab', { name: 'Charts' }).count()).toBe(0);
      expect(await inView(page, '[data-testid=path-canvas]')).toBe(true);
      expect(await inView(page, '[data-chart=rate] .chart-plot')).toBe(true);
      expect(await inView(page, 'input[aria-label="Command"]')).toBe(true);
      // the page itself does not scroll: each region scrolls inside itself
      const scroll = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      expect(scroll).toBeLessThanOrEqual(1);
      // one clock: the rate chart marks the path picture's current instant
      const mark = page.locator('[data-chart=rate] [data-testid=path-mark] line.path-now');
      await mark.waitFor({ state: 'attached' });
      // the rate chart shows the 1 ms truth and iperf3's own 1 s intervals
      const rate = page.locator('[data-chart=rate]');
      expect(await rate.textContent()).toMatch(/client out \(ENA tx_bytes, 1 ms\)/);
      expect(await rate.textContent()).toMatch(/1 s means \(an iperf3 interval\)|its 1 s intervals/);
      if (w >= 1600) {
        // the charts take the widest column
        const widths = await page.evaluate(() =>
          ['.workbench > .path', '.stage-charts', '.workbench > .side'].map(
            (s) => document.querySelector(s)!.getBoundingClientRect().width,
          ),
        );
        expect(widths[1]).toBeGreaterThan(widths[0]!);
        expect(widths[1]).toBeGreaterThan(widths[2]!);
        // and the side column still fits iperf3's widest lines: no sideways scroll in the terminal
        const term = await page.evaluate(() => {
          const el = document.querySelector('[data-testid="scrollback"]') as HTMLElement;
          const px = Number.parseFloat(getComputedStyle(el.querySelector('pre')!).fontSize);
          return { sw: el.scrollWidth, cw: el.clientWidth, px };
        });
        expect(term.sw).toBeLessThanOrEqual(term.cw);
        // at the terminal's normal size, as at 1280 and 1440 (12 px), not shrunk to fit (9.7 px)
        expect(term.px).toBeGreaterThanOrEqual(12);
      }
      expect(problems).toEqual([]);
      await page.close();
    });
});

describe('the averaging ladder', () => {
  it('after a burst: five strips with the model and CloudWatch numbers, and their words', async () => {
    const problems: string[] = [];
    const page = await open(1280, 800, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    await run(page, 'iperf3 -c server -t 1 -P 2', /iperf Done/);
    const ladder = page.locator('[data-chart=ladder]');
    await ladder.scrollIntoViewIfNeeded();
    const words = page.getByTestId('ladder-words');
    await page.waitForFunction(() =>
      /10 µs · the model: [\d.]+ Gbit\/s at the instant/.test(
        document.querySelector('[data-testid=ladder-words]')?.textContent ?? '',
      ),
    );
    const text = (await words.textContent()) ?? '';
    expect(text).toMatch(/at the busiest moment of client's last (burst|half second)/);
    expect(text).toMatch(/1 ms · the model: [\d.]+ Gbit\/s at the instant/);
    expect(text).toMatch(/1 minute · CloudWatch Sum \(detailed monitoring\): no datapoint yet/);
    expect(await ladder.locator('[data-strip]').count()).toBe(5);
    await page.screenshot({ path: `${SHOTS}/ladder-1280x800.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a path that explains itself', () => {
  it('larger text for a projector: the whole lab zoomed, still on one screen, remembered, packets still clickable', async () => {
    const problems: string[] = [];
    const page = await open(1920, 1080, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    const title = async () => (await page.getByRole('heading', { name: 'ec2-netlab' }).boundingBox())!.height;
    const before = await title();
    const toggle = page.getByRole('button', { name: 'A+ Larger text' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await title()).toBeGreaterThan(before * 1.2);
    // remembered across a reload
    await page.reload();
    await labReady(page);
    expect(await page.getByRole('button', { name: 'A+ Larger text' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await run(page, 'iperf3 -c server -t 10 -P 2', /1\.00-2\.00 +sec/);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/large-text-1920x1080.png` });
    // still one screen, the path and the rate chart in view
    expect(
      await page.evaluate(() => document.documentElement.scrollHeight - innerHeight),
    ).toBeLessThanOrEqual(1);
    expect(await inView(page, '[data-testid=path-canvas]')).toBe(true);
    expect(await inView(page, '[data-chart=rate] .chart-plot')).toBe(true);
    expect(await rateWhole(page, '.stage-charts')).toBe(true);
    // zoomed, 1920 px is about 1480 px of lab: the charts keep the room of the stage's two-column
    // layout (beside the path, as wide as the terminal below them), not a third of a three-column one
    const [charts, side] = await page.evaluate(() =>
      ['.stage-charts', '.workbench > .side'].map(
        (s) => document.querySelector(s)!.getBoundingClientRect().width,
      ),
    );
    expect(charts).toBeGreaterThanOrEqual(side! - 1);
    // a packet clicked where the picture says it is opens its inspector (the zoom is accounted for)
    const canvas = page.getByTestId('path-canvas');
    const [x, y] = ((await canvas.getAttribute('data-packet-at')) ?? '').split(',').map(Number);
    await canvas.click({ position: { x: x!, y: y! } });
    await page.getByTestId('packet-inspector').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'A+ Larger text' }).click();
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('larger text on a 1280×800 projector', () => {
  it('zoomed less than 1.3 but still larger; the stage stays one screen (no page scroll under the sticky controls)', async () => {
    const problems: string[] = [];
    const page = await open(1280, 800, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    const title = async () => (await page.getByRole('heading', { name: 'ec2-netlab' }).boundingBox())!.height;
    const before = await title();
    await page.getByRole('button', { name: 'A+ Larger text' }).click();
    expect(await title()).toBeGreaterThan(before * 1.1);
    await run(page, 'iperf3 -c server -t 1 -P 2', /iperf Done/);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/large-text-1280x800.png` });
    expect(
      await page.evaluate(() => document.documentElement.scrollHeight - innerHeight),
    ).toBeLessThanOrEqual(1);
    // the picture and the rate chart start on screen (their regions scroll inside themselves: at
    // this zoom the picture is taller than its region), the Command box is in view
    const tops = await page.evaluate(() =>
      ['[data-testid=path-canvas]', '[data-chart=rate] .chart-plot'].map(
        (sel) => document.querySelector(sel)!.getBoundingClientRect().top,
      ),
    );
    for (const t of tops) expect(t).toBeGreaterThan(100);
    for (const t of tops) expect(t).toBeLessThan(500);
    // the rate chart whole in its region, not cut under the terminal (its head and legend wrap onto
    // more lines zoomed: the charts row grows to hold them and the least plot)
    expect(await rateWhole(page, '.stage-charts')).toBe(true);
    // and the tabs under the terminal keep their row
    const tabs = await page.getByRole('tab', { name: 'Guide' }).boundingBox();
    expect(tabs!.y + tabs!.height).toBeLessThanOrEqual(800);
    expect(await inView(page, 'input[aria-label="Command"]')).toBe(true);
    await page.getByRole('button', { name: 'A+ Larger text' }).click();
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('presets open on the view that makes their point', () => {
  it('the microburst test on the ladder, the credits run on 10 minutes of rate, small packets on the PPS chart', async () => {
    const problems: string[] = [];
    const page = await open(1280, 800, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    const pick = async (label: RegExp) => {
      const select = page.getByRole('combobox', { name: 'Experiment' });
      const value = await select.evaluate(
        (el, re) =>
          [...(el as HTMLSelectElement).options].find((o) => new RegExp(re).test(o.textContent ?? ''))!.value,
        label.source,
      );
      await select.selectOption(value);
      await labReady(page);
      await page.waitForTimeout(400);
    };
    /** The chart's top lies inside the charts region's visible box. */
    const atTop = (id: string) =>
      page.evaluate((chart) => {
        const box = document.querySelector('.stage-charts')!.getBoundingClientRect();
        const c = document.querySelector(`[data-chart="${chart}"]`)!.getBoundingClientRect();
        return c.top >= box.top - 1 && c.top < box.top + 60;
      }, id);
    await pick(/^Exp 4/);
    // the stage's charts region scrolls inside itself: the page does not move
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(await page.locator('section.charts').getAttribute('data-view-focus')).toBe('ladder');
    expect(await atTop('ladder')).toBe(true);
    await run(page, 'iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1', /iperf Done/);
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${SHOTS}/preset-exp4-ladder-1280x800.png` });
    await pick(/^Exp 3/);
    expect(await page.locator('section.charts').getAttribute('data-view-focus')).toBe('pps');
    expect(await atTop('pps')).toBe(true);
    await pick(/^Exp 2/);
    expect(await page.getByTestId('charts-window').textContent()).toMatch(/0\.0 s – 10 min 0\.0 s/);
    // the rate chart is the first: the region back at its top, with the charts' head
    expect(await page.evaluate(() => document.querySelector('.stage-charts')!.scrollTop)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/preset-exp2-rate-1280x800.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a phone', () => {
  it('390×844: the lab stacks, nothing scrolls sideways, the charts and the ladder below the path', async () => {
    const problems: string[] = [];
    const page = await open(390, 844, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    await page.screenshot({ path: `${SHOTS}/phone-first-390x844.png` });
    await run(page, 'iperf3 -c server -t 1 -P 2', /iperf Done/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(
      1,
    );
    await page.locator('[data-chart=rate]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/phone-rate-390x844.png` });
    await page.locator('[data-chart=ladder]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/phone-ladder-390x844.png` });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('390×844 with larger text: the rate chart and the ladder as wide as the zoomed panel, not cut at its right edge; no sideways scroll', async () => {
    const problems: string[] = [];
    const page = await open(390, 844, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    await page.getByRole('button', { name: 'A+ Larger text' }).click();
    await run(page, 'iperf3 -c server -t 1 -P 2', /iperf Done/);
    await page.locator('[data-chart=rate]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/phone-large-rate-390x844.png` });
    expect(await rateWhole(page, 'section.charts')).toBe(true);
    const ladder = await page.evaluate(() => {
      const box = document.querySelector('section.charts')!.getBoundingClientRect();
      return document.querySelector('[data-chart=ladder] svg')!.getBoundingClientRect().right - box.right;
    });
    expect(ladder).toBeLessThanOrEqual(1);
    // nothing wider than the screen: the time controls wrap (the timeline's state had pushed its row
    // 26 px past the edge and squeezed the timeline to a dot)
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(
      1,
    );
    const track = await page.locator('.scrubber-track').boundingBox();
    expect(track!.width).toBeGreaterThan(80);
    await page.getByRole('button', { name: 'A+ Larger text' }).click();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('390×844: a preset chosen in the picker brings the chart that makes its point into view (the picker keeps the focus)', async () => {
    const problems: string[] = [];
    const page = await open(390, 844, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    // the first load does not move the page
    expect(await page.evaluate(() => scrollY)).toBe(0);
    // how the page was scrolled (smoothly, unless the user asks for less motion)
    await page.evaluate(() => {
      const w = window as unknown as { reveals: string[] };
      w.reveals = [];
      const own = Element.prototype.scrollIntoView;
      Element.prototype.scrollIntoView = function (this: Element, o?: boolean | ScrollIntoViewOptions) {
        w.reveals.push(typeof o === 'object' ? String(o.behavior) : String(o));
        own.call(this, o);
      };
    });
    const select = page.getByRole('combobox', { name: 'Experiment' });
    const pick = async (label: RegExp) => {
      const value = await select.evaluate(
        (el, re) =>
          [...(el as HTMLSelectElement).options].find((o) => new RegExp(re).test(o.textContent ?? ''))!.value,
        label.source,
      );
      await select.focus();
      await select.selectOption(value);
      await labReady(page);
    };
    /** The chart's top is near the top of the window (the page was scrolled to it). */
    const shown = (sel: string) =>
      page.waitForFunction((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return r.top >= -2 && r.top < 120;
      }, sel);
    await pick(/^Exp 4/);
    await shown('[data-chart=ladder]');
    await page.screenshot({ path: `${SHOTS}/phone-preset-exp4-390x844.png` });
    // the keyboard user is where they were
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Experiment');
    await pick(/^Exp 3/);
    await shown('[data-chart=pps]');
    // the credits run: the charts' head (it names the 10 minutes) and the rate chart below it
    await pick(/^Exp 2/);
    await shown('section.charts');
    expect(await page.getByTestId('charts-window').textContent()).toMatch(/0\.0 s – 10 min 0\.0 s/);
    expect(await page.evaluate(() => (window as unknown as { reveals: string[] }).reveals)).toEqual([
      'smooth',
      'smooth',
      'smooth',
    ]);
    // an experiment without a view of its own (Exp 1: the rate, following the clock) leaves the page be
    await page.evaluate(() => window.scrollTo(0, 0));
    await pick(/^Exp 1/);
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    // less motion asked for: the same place at once
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await pick(/^Exp 4/);
    await shown('[data-chart=ladder]');
    expect(await page.evaluate(() => (window as unknown as { reveals: string[] }).reveals.at(-1))).toBe(
      'auto',
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('768×1024: the chart a preset brings into view stops below the sticky time controls, its commands beside it', async () => {
    const problems: string[] = [];
    const page = await open(768, 1024, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    await page.getByRole('combobox', { name: 'Experiment' }).selectOption('exp3');
    await labReady(page);
    // (the time controls stay at the top of the window on a tablet; the chart's title was under them)
    // (where the smooth scroll ends: on its way it passes every place)
    await page.waitForFunction(() => scrollY > 0);
    let y = -1;
    while (y !== (y = await page.evaluate(() => scrollY))) await page.waitForTimeout(300);
    const [bar, top] = await page.evaluate(() => [
      document.querySelector('.controls-bar')!.getBoundingClientRect().bottom,
      document.querySelector('[data-chart=pps]')!.getBoundingClientRect().top,
    ]);
    expect(top).toBeGreaterThanOrEqual(bar! - 1);
    expect(top).toBeLessThan(bar! + 60);
    const offer = await page.getByTestId('charts-suggestions').boundingBox();
    expect(offer && offer.y + offer.height <= 1024).toBe(true);
    await page.screenshot({ path: `${SHOTS}/tablet-preset-exp3-768x1024.png` });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("390×844, three instances (the router preset): the picture keeps the phone's scale and pans sideways inside its panel; the page does not", async () => {
    const problems: string[] = [];
    const page = await open(390, 844, '', problems);
    const gotIt = page.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    const picker = page.getByRole('combobox', { name: 'Experiment' });
    const router = (await picker.locator('option').allTextContents()).find((o) => /router/i.test(o))!;
    await picker.selectOption({ label: router });
    await labReady(page);
    const canvas = page.getByTestId('path-canvas');
    await canvas.scrollIntoViewIfNeeded();
    // drawn at 3 × 240 px, scaled as a two-instance picture is on this phone (its box ÷ 480)
    const scale = Number(await canvas.getAttribute('data-scale'));
    const css = await canvas.evaluate((el) => el.getBoundingClientRect().width);
    expect(css).toBeCloseTo(720 * scale, 0);
    const pan = await canvas.evaluate((el) => {
      const p = el.parentElement!;
      return { scrollW: p.scrollWidth, clientW: p.clientWidth };
    });
    expect(pan.scrollW).toBeGreaterThan(pan.clientW + 100);
    expect(await page.getByTestId('path-pan-hint').textContent()).toMatch(
      /scroll the picture sideways for sink\.$/,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(
      1,
    );
    await page.screenshot({ path: `${SHOTS}/phone-router-390x844.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});
