/**
 * A lesson in Chromium, on the built site: the Lessons panel starts "Flow setup and the accelerated
 * path", its first step passes by clicking the shown solution; in the second a wrong attempt (two
 * curls) fails with the numbers compared, and the step's solution, run in a fresh window, passes
 * and judges the locked-in prediction.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, playAt, watchProblems } from './browser.mjs';

let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1400 } });
  watchProblems(page, problems);
  await page.goto(inject('baseUrl'));
  // the lessons' commands are waited for to end: play at 1 s/s, not at auto's packet-watching speed
  await playAt(page, 1e9);
});

afterAll(async () => {
  await browser?.close();
});

describe('a lesson in the lab', () => {
  it('is completed by following its solution, and fails with an explanation otherwise', async () => {
    const panel = page.getByRole('region', { name: 'Lessons' });
    await panel.getByRole('button', { name: 'Flow setup and the accelerated path' }).click();
    const lesson = page.getByRole('region', { name: 'Lesson: Flow setup and the accelerated path' });
    await lesson.getByRole('heading', { name: 'Step 1 of 3: Ask the card' }).waitFor();
    await page.waitForFunction(
      () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    );
    await lesson.getByRole('button', { name: 'Show solution' }).click();
    await lesson.getByRole('button', { name: 'lab trace client server tcp 80' }).click();
    await lesson.getByText('Step passed.').waitFor({ timeout: 30_000 });
    await lesson.getByRole('button', { name: 'Next step' }).click();
    await lesson.getByRole('heading', { name: 'Step 2 of 3: One request, one flow setup' }).waitFor();

    // a wrong attempt: two connections, two flow setups
    await lesson.getByRole('button', { name: 'Show solution' }).click();
    const curl = lesson.getByRole('button', { name: 'curl -s -o /dev/null http://server/1M' });
    await curl.click();
    await page.waitForFunction(
      () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    );
    await curl.click();
    await lesson
      .getByText("flow setups on client's Nitro card in this step: 2; the goal is = 1")
      .waitFor({ timeout: 30_000 });
    expect(await lesson.getByText('Step passed.').count()).toBe(0);

    // back to the step's start (a new window), predict, run the solution
    await lesson
      .getByRole('navigation', { name: 'Steps' })
      .getByRole('button', { name: /^Step 2/ })
      .click();
    await lesson.getByRole('spinbutton').fill('1');
    await lesson.getByRole('button', { name: 'Lock in' }).click();
    await lesson.getByRole('button', { name: 'Show solution' }).click();
    await page.waitForFunction(
      () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    );
    await lesson.getByRole('button', { name: 'curl -s -o /dev/null http://server/1M' }).click();
    await lesson.getByText('Step passed.').waitFor({ timeout: 30_000 });
    expect(await lesson.locator('.predict p.ok').textContent()).toMatch(/^Right: you said 1;/);
    expect(problems).toEqual([]);
  }, 120_000);

  it('a lesson chosen from the list opens at its step, not where the list had scrolled the panel (1280×800)', async () => {
    const small = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watchProblems(small, problems);
    await small.goto(inject('baseUrl'));
    const gotIt = small.getByRole('button', { name: 'Got it' });
    if (await gotIt.count()) await gotIt.click();
    const pick = small
      .getByRole('region', { name: 'Lessons' })
      .getByRole('button', { name: 'Microbursts and how to prevent them' });
    await pick.scrollIntoViewIfNeeded();
    await pick.click();
    const heading = small.getByRole('heading', { name: /^Step 1 of 3: Make a microburst/ });
    await heading.waitFor();
    await small.waitForTimeout(300);
    // the step's title lies inside the tab panel's visible box
    const inside = await small.evaluate(() => {
      const h = [...document.querySelectorAll('h3, h4')].find((e) =>
        /^Step 1 of 3/.test(e.textContent ?? ''),
      )!;
      const box = h.closest('.tabpanel')!.getBoundingClientRect();
      const r = h.getBoundingClientRect();
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    });
    expect(inside).toBe(true);
    expect(problems).toEqual([]);
    await small.close();
  }, 60_000);
});
