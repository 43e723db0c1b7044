/**
 * Accessibility of the built site in Chromium: axe-core (injected into the page) finds no serious
 * or critical violation in the main states — the first screen with its intro, an iperf3 run with
 * each side tab, a packet and a stage inspector, a lesson — in the light and the dark theme.
 * Keyboard first: the controls have their names, the shortcuts drive the clock, focus is visible,
 * the tabs follow the arrow keys; with prefers-reduced-motion the path shows state without motion.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, playAt } from './browser.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Run axe on the page as it is; the serious and critical violations, each with where it was found. */
async function axe(page: Page, state: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const found: Finding[] = await page.evaluate(async () => {
    type Axe = {
      run(
        ctx: Document,
        o: object,
      ): Promise<{
        violations: Array<{
          id: string;
          impact: string | null;
          help: string;
          nodes: Array<{ target: string[]; failureSummary?: string }>;
        }>;
      }>;
    };
    const r = await (window as unknown as { axe: Axe }).axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  });
  return found
    .filter((v) => process.env.AXE_ALL || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `[${state}] ${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.join('\n  ')}`);
}

async function open(scheme: 'light' | 'dark', extra: { reducedMotion?: 'reduce' } = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: 1440, height: 900 },
    colorScheme: scheme,
    reducedMotion: extra.reducedMotion ?? 'no-preference',
    // axe is injected as an inline script, which the site's Content-Security-Policy forbids
    bypassCSP: true,
  });
  await page.goto(inject('baseUrl'));
  await playAt(page, 1e9);
  await page.getByRole('textbox', { name: 'Command' }).waitFor();
  await page.waitForFunction(
    () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
  );
  return page;
}

const simSeconds = async (page: Page) =>
  Number((await page.getByTestId('sim-time').textContent())?.replace(/[^0-9.]/g, ''));

describe('accessibility in Chromium', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`axe finds no serious or critical violation in the main states (${scheme} theme)`, async () => {
      const page = await open(scheme);
      const problems: string[] = [];
      // the page follows the system's scheme
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
      problems.push(...(await axe(page, 'first screen, intro open')));

      await page.getByRole('button', { name: 'Got it' }).click();
      const cmd = page.getByRole('textbox', { name: 'Command' });
      await cmd.fill('iperf3 -c server -t 5 -P 2');
      await cmd.press('Enter');
      // paused in the middle of the run: packets on the path, a foreground command in the terminal
      await page
        .getByTestId('scrollback')
        .getByText(/0\.00-1\.00 +sec/)
        .first()
        .waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      problems.push(...(await axe(page, 'iperf3 running, guide tab')));
      expect(await page.getByRole('region', { name: 'This experiment' }).count()).toBe(1);
      // the charts are beside the path (no tab): the rate chart is there without a click
      await page.locator('[data-chart=rate]').waitFor();
      await page.getByRole('tab', { name: /Counters/ }).click();
      problems.push(...(await axe(page, 'counters tab')));
      // the packet list laid over the lab (its own title, the way back)
      await page.getByRole('tab', { name: 'Packets' }).click();
      // at 1280x800 the list opens expanded by itself once its side is measured (too short for it), so
      // an Expand button seen a moment before may turn into "Back to the side": click it only while it
      // is there, until the expanded list's title shows
      const expand = page.getByRole('button', { name: 'Expand ⤢' });
      const title = page.getByRole('heading', { name: /^Packet list/ });
      await expect
        .poll(
          async () => {
            if ((await title.count()) === 0 && (await expand.count()) > 0)
              await expand.click({ timeout: 1000 }).catch(() => {});
            return title.count();
          },
          { timeout: 30_000 },
        )
        .toBe(1);
      problems.push(...(await axe(page, 'packet list, expanded')));
      await page.getByRole('button', { name: 'Back to the side' }).click();
      await page.getByRole('tab', { name: /Counters/ }).click();

      // a packet, then a stage (with the Nitro tables)
      const canvas = page.getByTestId('path-canvas');
      const at = (await canvas.getAttribute('data-packet-at')) ?? '';
      expect(at).not.toBe('');
      const [x, y] = at.split(',').map(Number);
      await canvas.click({ position: { x: x!, y: y! } });
      await page.getByTestId('packet-inspector').waitFor({ timeout: 10_000 });
      problems.push(...(await axe(page, 'packet inspector')));
      await page.getByRole('button', { name: 'Close packet inspector' }).click();
      await canvas.focus();
      await page.keyboard.press('Escape');
      const box = (await canvas.boundingBox())!;
      await canvas.click({ position: { x: box.width * 0.12, y: 200 } }); // the client's TX rings (they start 186 px down at any height)
      await page.getByTestId('stage-inspector').waitFor({ timeout: 10_000 });
      problems.push(...(await axe(page, 'stage inspector')));
      await page.getByRole('button', { name: 'Close stage inspector' }).click();

      await page.getByRole('tab', { name: 'Guide' }).click();
      await page
        .getByRole('region', { name: 'Lessons' })
        .getByRole('button', { name: 'Per-flow limits' })
        .click();
      await page.getByRole('heading', { name: /^Step 1 of/ }).waitFor();
      problems.push(...(await axe(page, 'lesson open')));
      // the guide shows the lesson, not a preset's "This experiment" box; the picker names the lesson
      expect(await page.getByRole('region', { name: 'This experiment' }).count()).toBe(0);
      expect(await page.getByRole('tab', { name: 'Lesson' }).getAttribute('aria-selected')).toBe('true');
      expect(
        await page
          .getByRole('combobox', { name: 'Experiment' })
          .evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent),
      ).toBe('Lesson: Per-flow limits');
      await page.getByRole('button', { name: 'What is this?' }).click();
      problems.push(...(await axe(page, 'intro reopened over a lesson')));
      // the other theme than the system's, chosen in the header
      await page.getByRole('button', { name: scheme === 'dark' ? 'Light theme' : 'Dark theme' }).click();
      await canvas.click({ position: { x: box.width * 0.12, y: 200 } }); // the client's TX rings (they start 186 px down at any height)
      await page.getByTestId('stage-inspector').waitFor({ timeout: 10_000 });
      problems.push(...(await axe(page, `stage inspector, theme switched away from the system's ${scheme}`)));
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('is keyboard first: named controls, shortcuts, visible focus, tabs on the arrow keys', async () => {
    const page = await open('light');
    for (const name of ['Play', 'Step', 'Rewind', 'Go', 'What is this?'])
      await page.getByRole('button', { name, exact: true }).waitFor();
    await page.getByRole('slider', { name: 'Speed' }).waitFor();
    await page.getByRole('status', { name: 'Simulated time' }).waitFor();
    await page.getByRole('textbox', { name: 'Command' }).waitFor();
    await page.getByRole('combobox', { name: 'Experiment' }).waitFor();

    // shortcuts act when focus is not in a text field
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    const speed = page.getByRole('slider', { name: 'Speed' });
    const v0 = await speed.getAttribute('aria-valuetext');
    await page.keyboard.press(']');
    expect(await speed.getAttribute('aria-valuetext')).not.toBe(v0);
    await page.keyboard.press('[');
    expect(await speed.getAttribute('aria-valuetext')).toBe(v0);
    // "." steps (to the next model event): the live region says where it went
    const before = await page.evaluate(
      () => document.querySelector('[aria-label="What changed"]')?.textContent ?? '',
    );
    await page.keyboard.press('.');
    await page.waitForFunction(
      (b) => (document.querySelector('[aria-label="What changed"]')?.textContent ?? '') !== b,
      before,
    );
    const stepped = await simSeconds(page);
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await page.waitForFunction((s) => {
      const t = document.querySelector('[data-testid=sim-time]')?.textContent ?? '';
      return Number(t.replace(/[^0-9.]/g, '')) > s;
    }, stepped);
    await page.keyboard.press(' ');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();

    // Tab reaches the controls in order and the focused one has a visible outline
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    let outline = '';
    for (let i = 0; i < 6 && !outline; i++) {
      await page.keyboard.press('Tab');
      outline = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body || !el.matches(':focus-visible')) return '';
        const cs = getComputedStyle(el);
        return cs.outlineStyle !== 'none' && Number.parseFloat(cs.outlineWidth) >= 2
          ? `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`
          : '';
      });
    }
    expect(outline).not.toBe('');

    // Space on a focused button or tab presses it (it does not also play)
    await page.getByRole('tab', { name: /Counters/ }).focus();
    await page.keyboard.press(' ');
    expect(await page.getByRole('tab', { name: /Counters/ }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'What is this?' }).focus();
    await page.keyboard.press(' ');
    await page.getByRole('region', { name: 'What you are looking at' }).waitFor();
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.getByRole('tab', { name: 'Guide' }).click();

    // the side tabs: arrows move and select, the panel follows
    const guide = page.getByRole('tab', { name: 'Guide' });
    await guide.focus();
    await page.keyboard.press('ArrowRight');
    const counters = page.getByRole('tab', { name: /Counters/ });
    expect(await counters.getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Counters/);
    await page.getByRole('tabpanel', { name: /Counters/ }).waitFor();
    await page.keyboard.press('End');
    expect(await page.getByRole('tab', { name: 'Inspector' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    expect(await guide.getAttribute('aria-selected')).toBe('true');
    await page.close();
  });

  it('axe finds no serious or critical violation in the stage states: the ladder, larger text, a preset opened on its view', async () => {
    const page = await open('light');
    const problems: string[] = [];
    await page.getByRole('button', { name: 'Got it' }).click();
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 1 -P 2');
    await cmd.press('Enter');
    await page.getByTestId('scrollback').getByText('iperf Done.').waitFor({ timeout: 60_000 });
    await page.locator('[data-chart=ladder]').scrollIntoViewIfNeeded();
    await page
      .getByTestId('ladder-words')
      .getByText(/10 µs · the model/)
      .waitFor({ state: 'attached' });
    problems.push(...(await axe(page, 'the averaging ladder after a burst')));
    await page.getByRole('button', { name: 'A+ Larger text' }).click();
    problems.push(...(await axe(page, 'larger text')));
    await page.getByRole('button', { name: 'A+ Larger text' }).click();
    const select = page.getByRole('combobox', { name: 'Experiment' });
    await select.selectOption('exp4');
    await page.waitForFunction(
      () => document.querySelector('section.charts')?.getAttribute('data-view-focus') === 'ladder',
    );
    problems.push(...(await axe(page, 'exp 4 opened on the ladder')));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('with prefers-reduced-motion the path shows state (queues, drops) without moving packets', async () => {
    const page = await open('light', { reducedMotion: 'reduce' });
    const canvas = page.getByTestId('path-canvas');
    expect(await canvas.getAttribute('data-motion')).toBe('reduced');
    await page.getByRole('combobox', { name: 'Experiment' }).selectOption('exp4');
    await page.waitForFunction(
      () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    );
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1');
    await cmd.press('Enter');
    // state still shows: the drop and its reason
    await page.getByTestId('path-drops').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('path-drops').textContent()).toMatch(/bw_out_allowance_exceeded/);
    expect(await canvas.getAttribute('data-motion')).toBe('reduced');
    await page.close();
  });
});

describe('accessibility where space is short', () => {
  for (const scheme of ['light', 'dark'] as const)
    it(`axe finds no serious or critical violation in the compact embed (${scheme})`, async () => {
      const problems: string[] = [];
      // the compact embed (path, the rate chart, the commands), before and after a command
      const embed = await browser.newPage({
        viewport: { width: 1000, height: 800 },
        colorScheme: scheme,
        bypassCSP: true,
      });
      await embed.goto(`${inject('baseUrl')}#embed=1`);
      await embed.getByRole('region', { name: 'Commands' }).waitFor();
      await embed.waitForFunction(
        () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
      );
      problems.push(...(await axe(embed, 'compact embed, nothing run')));
      await embed.getByRole('combobox', { name: 'Speed' }).selectOption('1000000000');
      await embed
        .getByRole('button', { name: /^iperf3 -c server/ })
        .first()
        .click();
      await embed.getByTestId('embed-output').getByText('iperf Done.').waitFor({ timeout: 90_000 });
      problems.push(...(await axe(embed, 'compact embed, after a command')));
      await embed.goto('about:blank');
      await embed.goto(`${inject('baseUrl')}#embed=1&panels=path,chrt&chart=ladderz`);
      await embed.getByRole('alert').filter({ hasText: 'This link was opened with' }).waitFor();
      problems.push(...(await axe(embed, 'embed with unknown values: the notice')));
      await embed.close();
      expect(problems).toEqual([]);
    }, 120_000);

  for (const scheme of ['light', 'dark'] as const)
    it(`axe finds no serious or critical violation on a phone (${scheme})`, async () => {
      const problems: string[] = [];
      // the welcome, then a run paused mid-way
      const phone = await browser.newPage({
        viewport: { width: 390, height: 844 },
        colorScheme: scheme,
        bypassCSP: true,
      });
      await phone.goto(inject('baseUrl'));
      await phone.getByRole('textbox', { name: 'Command' }).waitFor();
      await phone.waitForFunction(
        () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
      );
      problems.push(...(await axe(phone, 'phone, welcome open')));
      await phone.getByRole('button', { name: 'Got it' }).click();
      // a preset chosen: the page scrolls to its chart, its commands offered beside it, in view
      await phone.getByLabel('Experiment', { exact: true }).selectOption('exp3');
      const offer = phone.getByTestId('charts-suggestions');
      await offer.getByRole('button', { name: 'Run iperf3 -c server -t 1 -M 128 -P 1' }).waitFor();
      await phone.waitForTimeout(1000); // the smooth scroll
      const box = await offer.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= 844).toBe(true);
      problems.push(...(await axe(phone, 'phone, a preset opened on its chart, its commands beside it')));
      // real time, not auto (which would show the packets at a few µs/s: the first second takes minutes)
      const auto = phone.getByRole('button', { name: 'Auto' });
      if ((await auto.getAttribute('aria-pressed')) === 'true') await auto.click();
      const cmd = phone.getByRole('textbox', { name: 'Command' });
      await cmd.fill('iperf3 -c server -t 5 -P 2');
      await cmd.press('Enter');
      await phone
        .getByTestId('scrollback')
        .getByText(/0\.00-1\.00 +sec/)
        .first()
        .waitFor({ timeout: 60_000 });
      await phone.getByRole('button', { name: 'Pause', exact: true }).click();
      problems.push(...(await axe(phone, 'phone, iperf3 paused mid-run')));
      await phone.close();
      expect(problems).toEqual([]);
    }, 120_000);
});
