/**
 * The built site in Chromium: it loads with no console error, Play advances the simulated time,
 * the terminal runs `iperf3 -c server -t 1` and shows iperf3's summary, and a worker that hangs
 * is replaced (the user is told) with the lab where it was.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, playAt, watchProblems } from './browser.mjs';

let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  watchProblems(page, problems);
  await page.goto(inject('baseUrl'));
  // commands here are waited for to end: play at 1 s/s, not at auto's packet-watching speed
  await playAt(page, 1e9);
});

afterAll(async () => {
  await browser?.close();
});

const simTime = async () =>
  Number((await page.getByTestId('sim-time').textContent())?.replace(/[^0-9.]/g, ''));

describe('the visual lab in Chromium', () => {
  it('loads with no console error and shows the simulated clock with its unit', async () => {
    const clock = page.getByRole('status', { name: 'Simulated time' });
    await clock.waitFor();
    expect(await clock.textContent()).toMatch(/0\.000000 s/);
    await page.getByRole('textbox', { name: 'Command' }).waitFor();
    await page.waitForFunction(
      () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    );
    expect(problems).toEqual([]);
  });

  it('Play advances the simulated time; Pause stops it', async () => {
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => {
      const t = document.querySelector('[data-testid=sim-time]')?.textContent ?? '';
      return Number(t.replace(/[^0-9.]/g, '')) > 0.05;
    });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    // the frame requested before Pause may still land (one request in flight): let the clock settle
    // (on a loaded machine that can take a few hundred ms), then it must not move again
    let a = await simTime();
    for (let i = 0; i < 30; i++) {
      await page.waitForTimeout(100);
      const b = await simTime();
      if (b === a) break;
      a = b;
    }
    await page.waitForTimeout(500);
    expect(await simTime()).toBe(a);
  });

  it('the terminal runs iperf3 -c server -t 1 and shows its summary', async () => {
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 1');
    await cmd.press('Enter');
    const scroll = page.getByTestId('scrollback');
    await scroll.getByText('iperf Done.').waitFor({ timeout: 30_000 });
    const text = (await scroll.textContent()) ?? '';
    expect(text).toContain('[ec2-user@client ~]$ iperf3 -c server -t 1');
    expect(text).toMatch(/0\.00-1\.00 +sec +[\d.]+ GBytes +[\d.]+ Gbits\/sec +receiver/);
    // the newest output is in view: after a long listing the scrollback follows it to the bottom
    await cmd.fill('ethtool -S eth0');
    await cmd.press('Enter');
    await scroll.getByText('ena_admin_q_no_completion').waitFor({ timeout: 10_000 });
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="scrollback"]');
        return (
          el !== null &&
          el.scrollHeight > el.clientHeight &&
          el.scrollTop + el.clientHeight >= el.scrollHeight - 2
        );
      },
      undefined,
      { timeout: 5_000 },
    );
    expect(problems).toEqual([]);
  });

  it('a worker that hangs is replaced, the user is told, and the lab carries on from the same instant', async () => {
    // the commands of the test before have ended: the lab paused by itself
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 5_000 });
    const before = await simTime();
    await page.evaluate(() =>
      (window as unknown as { __netlab: { crashWorker(h: string): void } }).__netlab.crashWorker('hang'),
    );
    // the next request overruns (no answer within the client's limit) → terminate, respawn, replay
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toMatch(/restarted and your 2 commands replayed/);
    await page.waitForFunction((b) => {
      const t = document.querySelector('[data-testid=sim-time]')?.textContent ?? '';
      return Number(t.replace(/[^0-9.]/g, '')) > b;
    }, before);
    expect(await page.getByTestId('scrollback').textContent()).toContain('iperf Done.');
  });

  it('run until first drop stops the clock at a microburst drop, and the path says where and why', async () => {
    await page.getByRole('combobox', { name: 'Experiment' }).selectOption('exp4');
    await page.waitForFunction(() => {
      const i = document.querySelector('input[aria-label="Command"]') as HTMLInputElement | null;
      return i && !i.disabled && !i.closest('.terminal')?.textContent?.includes('iperf Done.');
    });
    await page.getByRole('combobox', { name: 'Run until' }).selectOption('first-drop');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1');
    await cmd.press('Enter');
    const log = page.getByRole('log', { name: 'What changed' });
    await page.waitForFunction(
      () =>
        /Paused: first drop at/.test(
          document.querySelector('[aria-label="What changed"]')?.textContent ?? '',
        ),
      undefined,
      { timeout: 30_000 },
    );
    const at = /Paused: first drop at (\d+\.\d+) s/.exec((await log.textContent()) ?? '')?.[1];
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    // the clock stopped where the drop was announced (the worker slices a run-until into 1 ms steps)
    expect(await page.getByTestId('sim-time').textContent()).toBe(`${at} s`);
    expect(await page.locator('.path').textContent()).toMatch(
      /dropped on client .*bw_out_allowance_exceeded/,
    );
    // then the picture is redrawn with the packets there (the run to the drop went counts-only)
    await page.waitForFunction(
      () =>
        /the picture shows the packets there/.test(
          document.querySelector('[aria-label="What changed"]')?.textContent ?? '',
        ),
      undefined,
      { timeout: 30_000 },
    );
    expect(await page.getByTestId('sim-time').textContent()).toBe(`${at} s`);
    const path = (await page.locator('.path').textContent()) ?? '';
    expect(path).toMatch(/\d+ batches, [\d,]+ packets in this window; every batch drawn/);
    expect(path).not.toMatch(/Fast-forward/);
    expect(problems).toEqual([]);
  });

  it('at 1280×720 the page does not scroll sideways and the widest iperf3 lines fit the terminal', async () => {
    const small = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const mine: string[] = [];
    watchProblems(small, mine);
    await small.goto(inject('baseUrl'));
    await playAt(small, 1e9);
    const cmd = small.getByRole('textbox', { name: 'Command' });
    await small.waitForFunction(
      () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    );
    await cmd.fill('iperf3 -c server -t 1 -P 2');
    await cmd.press('Enter');
    await small.getByTestId('scrollback').getByText('iperf Done.').waitFor({ timeout: 30_000 });
    const m = await small.evaluate(() => {
      const el = document.querySelector('[data-testid="scrollback"]') as HTMLElement;
      return {
        page: document.scrollingElement!.scrollWidth,
        inner: innerWidth,
        sw: el.scrollWidth,
        cw: el.clientWidth,
      };
    });
    expect(m.page).toBeLessThanOrEqual(m.inner);
    // the [SUM] … sender/receiver lines (79 columns) need no sideways scroll in the terminal either
    expect(m.sw).toBeLessThanOrEqual(m.cw);
    expect(mine).toEqual([]);
    await small.close();
  });
});
