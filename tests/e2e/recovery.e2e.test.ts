/**
 * Recovery that tells, in Chromium: a worker that hangs is replaced, and when the new one fails
 * too while replaying the session, the lab says what failed and at which instant, offers the
 * scenario without its session, and stays usable: that link opens the lab and a command runs.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labReady, launchChromium } from './browser.mjs';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(inject('baseUrl'));
  await labReady(page);
});

afterAll(async () => {
  await browser?.close();
});

describe('a worker that fails twice in a row', () => {
  it('is reported with the failing instant, and the lab reopens without the session', async () => {
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('sleep 0.5');
    await cmd.press('Enter');
    // the line plays by itself and pauses when sleep ends: wait for that end (the Play button is
    // also there in the instant before the line starts playing)
    await page.waitForFunction(
      () => Number.parseFloat(document.querySelector('[data-testid=sim-time]')?.textContent ?? '0') >= 0.5,
      undefined,
      { timeout: 30_000 },
    );
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 30_000 });
    await page.evaluate(() =>
      (window as unknown as { __netlab: { crashWorker(h: string): void } }).__netlab.crashWorker(
        'hang-and-fail-replay',
      ),
    );
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'while replaying your session' });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(
      /did not answer within 4 s; restarted, .*forced failure while loading.* while replaying your session, at t = \d+\.\d{6} s\./,
    );
    // the page is still there and answers: the link reopens the scenario without its session
    await alert.getByRole('link', { name: 'Reopen this scenario without its session' }).click();
    await labReady(page);
    expect(await page.getByTestId('scrollback').textContent()).not.toContain('sleep 0.5');
    await cmd.fill('ethtool -i eth0');
    await cmd.press('Enter');
    await page.getByTestId('scrollback').getByText('driver: ena').waitFor({ timeout: 30_000 });
  });
});
