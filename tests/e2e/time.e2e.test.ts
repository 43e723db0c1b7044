/**
 * Time in the built site, in Chromium: an iperf3 run stopped at an exact instant by "run until a
 * time", played to its end, then taken back to that instant: the clock, the terminal transcript and
 * the ethtool -S counters are what they were. The Timeline slider goes to both ends by keyboard; a
 * single step to the next packet at a stage reports it and opens the packet's inspector.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labReady, launchChromium, watchProblems } from './browser.mjs';

let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  watchProblems(page, problems);
  await page.goto(inject('baseUrl'));
  await labReady(page);
});

afterAll(async () => {
  await browser?.close();
});

const clock = () => page.getByTestId('sim-time').textContent();
const scrollback = async () => (await page.getByTestId('scrollback').textContent()) ?? '';
/** The ethtool -S counters the page holds (what the Counters tab shows). */
const counters = () =>
  page.evaluate(() => {
    const w = window as unknown as {
      __netlab: {
        store: {
          getState(): {
            results: { counters: Array<{ host: string; names: string[]; values: Float64Array }> };
          };
        };
      };
    };
    return w.__netlab.store
      .getState()
      .results.counters.map((c) => `${c.host}:${c.names.map((n, i) => `${n}=${c.values[i]}`).join(',')}`);
  });
const waitPaused = () => page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 60_000 });

async function runUntilTime(s: string) {
  await page.getByRole('combobox', { name: 'Run until' }).selectOption('time');
  await page.getByRole('textbox', { name: 'Run until time in seconds' }).fill(s);
  await page.getByRole('button', { name: 'Go', exact: true }).click();
}

describe('time in Chromium', () => {
  it('iperf3, then back to an earlier instant: clock, transcript and counters match that instant', async () => {
    await runUntilTime('1.9');
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 2');
    await cmd.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sim-time]')?.textContent === '1.900000 s',
      undefined,
      {
        timeout: 60_000,
      },
    );
    await waitPaused();
    const at = { clock: await clock(), text: await scrollback(), counters: await counters() };
    expect(at.text).toMatch(/0\.00-1\.00 +sec/);
    expect(at.text).not.toContain('iperf Done.');

    // on to the end of the run
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByTestId('scrollback').getByText('iperf Done.').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await waitPaused();
    const end = { clock: await clock(), text: await scrollback(), counters: await counters() };
    expect(end.counters).not.toEqual(at.counters);

    // back to 1.9 s: restored from the worker's checkpoints plus replay
    await runUntilTime('1.9');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sim-time]')?.textContent === '1.900000 s',
      undefined,
      {
        timeout: 60_000,
      },
    );
    await page.waitForFunction(
      () => !/going to/.test(document.querySelector('.scrubber-state')?.textContent ?? ''),
    );
    expect(await clock()).toBe(at.clock);
    expect(await scrollback()).toBe(at.text);
    expect(await counters()).toEqual(at.counters);

    // the Timeline slider: End goes to the furthest instant reached, exactly as it was
    const slider = page.getByRole('slider', { name: 'Simulated time position' });
    expect(await slider.getAttribute('aria-valuetext')).toBe(`1.900000 s of ${end.clock}`);
    await slider.focus();
    await slider.press('End');
    await page.waitForFunction(
      (c) => document.querySelector('[data-testid=sim-time]')?.textContent === c,
      end.clock,
      {
        timeout: 60_000,
      },
    );
    await page.waitForFunction(
      () => !/going to/.test(document.querySelector('.scrubber-state')?.textContent ?? ''),
    );
    expect(await scrollback()).toBe(end.text);
    expect(await counters()).toEqual(end.counters);
    await slider.press('Home');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sim-time]')?.textContent === '0.000000 s',
    );
    expect(await scrollback()).not.toContain('0.00-1.00');
    expect(problems).toEqual([]);
  });

  it('Step to the next packet at the RX ring stops there, says which packet, and opens its inspector', async () => {
    await runUntilTime('0.5');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=sim-time]')?.textContent === '0.500000 s',
      undefined,
      {
        timeout: 60_000,
      },
    );
    await waitPaused();
    await page.getByRole('combobox', { name: 'Step to' }).selectOption('packet:rx_ring');
    await page.getByRole('combobox', { name: 'Step on instance' }).selectOption('server');
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    const report = page.getByTestId('step-report');
    await report.waitFor();
    expect(await report.textContent()).toMatch(/entered RX ring( queue \d+)? on server/);
    const t = Number((await clock())?.replace(/[^0-9.]/g, ''));
    expect(t).toBeGreaterThan(0.5);
    expect(t).toBeLessThan(0.51);
    const insp = page.getByTestId('packet-inspector');
    await insp.waitFor({ timeout: 10_000 });
    expect(await insp.textContent()).toMatch(/rx_ring|RX ring/i);
    expect(problems).toEqual([]);
  });
});
