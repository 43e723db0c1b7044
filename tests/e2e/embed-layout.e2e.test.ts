/**
 * The lab where space is short, in Chromium on the built site:
 * - the example host page (public/embed-example.html) at 1280×800: a compact frame, autosized to
 *   the lab's height, at most 900 px tall before and after a run, with the path, one chart that is
 *   never empty axes, and the commands to click;
 * - a link with embed values the lab does not know: a notice naming them, and the default panels;
 * - a phone (390×844): the lab stacks with no sideways scrolling, the path scaled to fit (a click on
 *   a packet still selects it), time controls that scroll away so the Command box can be reached;
 * - a tablet (768×1024): the path and the Command box in view together;
 * - the welcome stays dismissed after a reload.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labReady, launchChromium, watchProblems } from './browser.mjs';

let browser: Browser;
const problems: string[] = [];
const base = () => inject('baseUrl');

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function page(width: number, height: number): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width, height } });
  return watchProblems(await ctx.newPage(), problems);
}

/** The example host page on its own origin (127.0.0.1, the lab on localhost), and the lab's frame. */
async function hostPage(width: number, height: number): Promise<{ page: Page; lab: Frame }> {
  const labUrl = base();
  const hostBase = labUrl.replace('//localhost:', '//127.0.0.1:');
  const p = await page(width, height);
  await p.goto(`${hostBase}embed-example.html?${new URLSearchParams({ lab: labUrl })}`);
  const lab = await (await p.waitForSelector('#lab')).contentFrame();
  if (!lab) throw new Error('no lab frame');
  await lab.waitForSelector('[data-embed="1"]', { timeout: 30_000 });
  await lab.waitForFunction(
    () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
  );
  return { page: p, lab };
}

/** The frame's height settles on the lab's content height (the host's autosize). */
async function settledFrame(p: Page, lab: Frame): Promise<{ frame: number; content: number }> {
  let last = { frame: -1, content: -2 };
  for (let i = 0; i < 40; i++) {
    const frame = await p.evaluate(() => document.getElementById('lab')!.getBoundingClientRect().height);
    const content = await lab.evaluate(() => document.documentElement.getBoundingClientRect().height);
    // the frame has a 1 px border each side (embed-example.css)
    if (Math.abs(frame - 2 - content) <= 1 && frame === last.frame) return { frame, content };
    last = { frame, content };
    await p.waitForTimeout(150);
  }
  return last;
}

const noSidewaysScroll = (p: Page) =>
  p.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth }));

describe('the example host page at 1280×800', () => {
  it('frames a compact lab: path, one chart, the commands; autosized, at most 900 px tall before and after a run', async () => {
    const { page: p, lab } = await hostPage(1280, 800);
    const before = await settledFrame(p, lab);
    expect(Math.abs(before.frame - 2 - before.content)).toBeLessThanOrEqual(1);
    expect(before.frame).toBeLessThanOrEqual(900);
    // what it shows: the path, the rate chart alone (a line saying what fills it, no empty axes),
    // the commands as buttons; not every chart, not the terminal
    expect(await lab.getByRole('region', { name: 'Packet path' }).count()).toBeGreaterThan(0);
    expect(
      await lab.locator('[data-chart]').evaluateAll((c) => c.map((x) => x.getAttribute('data-chart'))),
    ).toEqual(['rate']);
    expect(await lab.locator('[data-chart="rate"][data-empty="1"]').count()).toBe(1);
    expect(await lab.getByText('no data in this window').count()).toBe(0);
    expect(await lab.getByRole('textbox', { name: 'Command' }).count()).toBe(0);
    // the chart and the commands beside the path: the frame is wide enough
    const path = (await lab.locator('.panel.path').boundingBox())!;
    const commands = (await lab.getByRole('region', { name: 'Commands' }).boundingBox())!;
    expect(commands.x).toBeGreaterThan(path.x + path.width - 1);

    // run the experiment's first command at real time (auto would show its packets slowly): it
    // prints, the chart draws, the frame still fits
    await lab.getByRole('combobox', { name: 'Speed' }).selectOption('1000000000');
    await lab.getByRole('button', { name: 'iperf3 -c server -t 1 -l 9000 -P 1' }).click();
    await lab.getByTestId('embed-output').getByText('iperf Done.').waitFor({ timeout: 90_000 });
    await lab.locator('[data-chart="rate"]:not([data-empty])').waitFor({ timeout: 10_000 });
    // and keeps drawing as the run goes on: the client's line covers the run, not its first frame
    // (the chart that replaced the empty line was once left unobserved, so never redrawn)
    await lab.waitForFunction(
      () => (document.querySelector('[data-chart="rate"] svg path')?.getAttribute('d') ?? '').length > 500,
      undefined,
      { timeout: 10_000 },
    );
    const after = await settledFrame(p, lab);
    expect(after.frame).toBeLessThanOrEqual(900);
    expect(Math.abs(after.frame - 2 - after.content)).toBeLessThanOrEqual(1);
    expect(await noSidewaysScroll(p)).toEqual({ scrollWidth: 1280, innerWidth: 1280 });
    await p.context().close();
    expect(problems).toEqual([]);
  });
});

describe('chart=ladder', () => {
  it('opens the chart panel on the averaging ladder: one line until a burst, then its five strips', async () => {
    const p = await page(1280, 800);
    await p.goto(`${base()}#embed=1&chart=ladder`);
    await p.locator('[data-chart="ladder"][data-empty="1"]').waitFor({ timeout: 30_000 });
    await p.waitForFunction(
      () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
    );
    await p.getByRole('combobox', { name: 'Speed' }).selectOption('1000000000');
    await p.getByRole('button', { name: 'iperf3 -c server -t 1 -l 9000 -P 2' }).click();
    await p.getByTestId('embed-output').getByText('iperf Done.').waitFor({ timeout: 90_000 });
    const ladder = p.locator('[data-chart="ladder"]:not([data-empty])');
    await ladder.waitFor({ timeout: 10_000 });
    expect(await ladder.locator('[data-strip]').count()).toBe(5);
    // the ladder reads CloudWatch with a statistic: the picker comes with it
    expect(await p.getByRole('combobox', { name: 'CloudWatch statistic' }).count()).toBe(1);
    await p.context().close();
    expect(problems).toEqual([]);
  });
});

describe('embed values the lab does not know', () => {
  it('get a notice that names them, and the default panels instead of a blank frame', async () => {
    const p = await page(1000, 800);
    await p.goto(`${base()}#embed=1&panels=paths&chart=ladderz`);
    await p.locator('[data-embed="1"]').waitFor();
    const notice = p.getByRole('alert').filter({ hasText: 'This link was opened with' });
    await notice.waitFor();
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain('panels: "paths" names no panel; showing path, chart, commands');
    expect(text).toContain('chart: "ladderz" is not a chart (rate, ladder, cloudwatch');
    expect(await p.getByRole('region', { name: 'Packet path' }).count()).toBeGreaterThan(0);
    await p.locator('[data-chart="rate"]').waitFor();
    await p.getByRole('region', { name: 'Commands' }).waitFor();
    await p.context().close();
    expect(problems).toEqual([]);
  });
});

describe('a phone (390×844)', () => {
  it('stacks without sideways scrolling, scales the path to fit, and the Command box can be reached', async () => {
    const p = await page(390, 844);
    await p.goto(base());
    await labReady(p);
    expect(await noSidewaysScroll(p)).toEqual({ scrollWidth: 390, innerWidth: 390 });
    await p.getByRole('button', { name: 'Got it' }).click();
    // a speed of its own, not auto (which shows the packets at a few µs/s while the path is in view)
    const auto = p.getByRole('button', { name: 'Auto' });
    if ((await auto.getAttribute('aria-pressed')) === 'true') await auto.click();

    // the path: drawn for 480 px, shown scaled into its panel
    const canvas = p.getByTestId('path-canvas');
    const panel = (await p.locator('.panel.path').boundingBox())!;
    const box = (await canvas.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(panel.x - 0.5);
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
    const scale = await canvas.getAttribute('data-scale');
    expect(scale).not.toBeNull();
    expect(Number(scale)).toBeLessThan(1);

    // the Command box: scrolled to, it is on screen and nothing (a sticky bar) covers it
    const cmd = p.getByRole('textbox', { name: 'Command' });
    await cmd.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const at = (await cmd.boundingBox())!;
    expect(at.y + at.height).toBeLessThanOrEqual(844);
    expect(
      await cmd.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return document.elementFromPoint(r.left + 4, r.top + r.height / 2) === el;
      }),
    ).toBe(true);
    // the time controls scroll with the page, compact: less than a quarter of the screen
    const controls = (await p.getByRole('region', { name: 'Time controls' }).boundingBox())!;
    expect(controls.y + controls.height).toBeLessThan(at.y);
    expect(controls.height).toBeLessThan(844 / 4);

    // the tabs under the terminal take their content's height (the guide's suggestions, the lessons)
    expect((await p.getByRole('tabpanel', { name: 'Guide' }).boundingBox())!.height).toBeGreaterThan(200);
    await cmd.fill('iperf3 -c server -t 5 -P 2');
    await cmd.press('Enter');
    await p
      .getByTestId('scrollback')
      .getByText(/0\.00-1\.00 +sec/)
      .first()
      .waitFor({ timeout: 60_000 });
    await p.getByRole('button', { name: 'Pause', exact: true }).click();
    expect(await noSidewaysScroll(p)).toEqual({ scrollWidth: 390, innerWidth: 390 });
    // a packet, clicked where the scaled picture shows it, is selected
    // paused: a frame already asked for may still be drawn; read the packet once the picture holds still
    let packetAt = '';
    for (let i = 0; i < 20; i++) {
      const a = (await canvas.getAttribute('data-packet-at')) ?? '';
      await p.waitForTimeout(250);
      const b = (await canvas.getAttribute('data-packet-at')) ?? '';
      packetAt = b;
      if (a === b && b !== '') break;
    }
    expect(packetAt).not.toBe('');
    const [x, y] = packetAt.split(',').map(Number);
    await canvas.click({ position: { x: x!, y: y! } });
    await p.getByTestId('packet-inspector').waitFor({ timeout: 10_000 });
    await p.context().close();
    expect(problems).toEqual([]);
  });

  it('the embedded lab stacks too: no sideways scrolling in the frame', async () => {
    const { page: p, lab } = await hostPage(390, 844);
    expect(await noSidewaysScroll(p)).toEqual({ scrollWidth: 390, innerWidth: 390 });
    const inner = await lab.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth,
    }));
    expect(inner.scrollWidth).toBeLessThanOrEqual(inner.innerWidth);
    await p.context().close();
    expect(problems).toEqual([]);
  });
});

describe('a tablet (768×1024)', () => {
  it('shows the path and the Command box together', async () => {
    const p = await page(768, 1024);
    await p.goto(base());
    await labReady(p);
    await p.getByRole('button', { name: 'Got it' }).click();
    const canvas = (await p.getByTestId('path-canvas').boundingBox())!;
    const cmd = (await p.getByRole('textbox', { name: 'Command' }).boundingBox())!;
    expect(canvas.y).toBeGreaterThanOrEqual(0);
    expect(canvas.y + canvas.height).toBeLessThanOrEqual(1024);
    expect(cmd.y + cmd.height).toBeLessThanOrEqual(1024);
    expect(await noSidewaysScroll(p)).toEqual({ scrollWidth: 768, innerWidth: 768 });
    await p.context().close();
    expect(problems).toEqual([]);
  });
});

describe('the welcome', () => {
  it('stays dismissed after a reload', async () => {
    const p = await page(1280, 800);
    await p.goto(base());
    await labReady(p);
    await p.getByRole('button', { name: 'Got it' }).click();
    await p.reload();
    await labReady(p);
    expect(await p.getByRole('region', { name: 'What you are looking at' }).count()).toBe(0);
    await p.getByRole('button', { name: 'What is this?' }).click();
    await p.getByRole('region', { name: 'What you are looking at' }).waitFor();
    await p.context().close();
    expect(problems).toEqual([]);
  });
});
