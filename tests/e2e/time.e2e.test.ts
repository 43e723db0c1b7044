/**
 * Time in the built site, in Chromium: an iperf3 run stopped at an exact instant by "run until a
 * time", played to its end, then taken back to that instant: the clock, the terminal transcript and
 * the ethtool -S counters are what they were. The Timeline slider goes to both ends by keyboard; a
 * single step to the next packet at a stage reports it and opens the packet's inspector. A drag
 * of the Timeline slider far back in a long run shows the "Going back to …" progress; its Cancel
 * returns the lab to where it was, usable; let run, the seek lands on the instant dragged to.
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

const timeline = () => page.getByRole('slider', { name: 'Timeline: simulated time position' });
const waitClock = (text: string, timeout = 60_000) =>
  page.waitForFunction((c) => document.querySelector('[data-testid=sim-time]')?.textContent === c, text, {
    timeout,
  });

/**
 * Drag the Timeline slider's thumb to `fraction` of its track in one move (one input event, then
 * the pointer up that seeks); returns the instant it now shows ("4.950000 s").
 */
async function dragTimeline(fraction: number): Promise<string> {
  const slider = timeline();
  const box = (await slider.boundingBox())!;
  const at = await slider.evaluate((el: HTMLInputElement) => el.valueAsNumber / Number(el.max));
  // Chromium's thumb is 16 px wide: its centre runs from 8 px to width - 8 px
  const x = (f: number) => box.x + 8 + (box.width - 16) * f;
  const y = box.y + box.height / 2;
  await page.mouse.move(x(at), y);
  await page.mouse.down();
  await page.mouse.move(x(fraction), y);
  await page.mouse.up();
  return (await slider.getAttribute('aria-valuetext'))!.replace(/ of .*/, '');
}

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
    // the whole terminal, last line included: while iperf3 runs at 1.9 s it ends with the job's
    // empty line, not a prompt. (It once showed a prompt when every e2e file ran at once: the frame
    // that shows the restored instant was dropped while the pump's request was in flight; the
    // controller now waits its turn with SimClient.advanceNow.)
    await expect.poll(scrollback, { timeout: 5_000 }).toBe(at.text);
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

  it('a long seek back shows "Going back to …"; Cancel returns to where the lab was, intact and usable; let run, it lands there', async () => {
    // ten flows on a c5n.18xlarge pair: ~3·10^5 model events per simulated second (tests/bench/seek.ts)
    await page.getByRole('combobox', { name: 'Experiment' }).selectOption('exp5');
    await labReady(page);
    await waitClock('0.000000 s');
    // the top speed, so every frame of the run runs out of its event budget before its instant: the
    // worker builds no seek checkpoint while playing (only after frames that kept up), and going
    // back later replays from t = 0 (the idle builder's first checkpoint, at the middle of the
    // run, takes it seconds; the drag comes at once and goes past it)
    const speed = page.getByRole('slider', { name: 'Speed' });
    await speed.focus();
    await speed.press('End');
    expect(await speed.getAttribute('aria-valuetext')).toMatch(/ min\/s$/);
    await page.getByRole('combobox', { name: 'Run until' }).selectOption('time');
    await page.getByRole('textbox', { name: 'Run until time in seconds' }).fill('21');
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 20 -P 10');
    await cmd.press('Enter');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await waitClock('21.000000 s', 120_000);
    await waitPaused();
    const origin = { clock: (await clock()) ?? '', text: await scrollback() };
    expect(origin.text).toContain('iperf3 -c server -t 20 -P 10');
    expect(origin.text).toContain('iperf Done.');

    // back to 90 % of the run: a replay from 0 of ~6·10^6 model events, in requests of ~100 ms (the
    // bar shows after the first; here it then stays 4-5 s, Cancel takes ~0.1 s)
    const target = await dragTimeline(0.9);
    expect(Number.parseFloat(target)).toBeGreaterThan(18);
    expect(Number.parseFloat(target)).toBeLessThan(20);
    const progress = page.getByTestId('run-progress');
    const bar = page.getByRole('progressbar', { name: `Going back to t = ${target}:` });
    await bar.waitFor({ timeout: 30_000 });
    expect(await progress.textContent()).toContain(`Cancel returns to ${origin.clock}, where the lab was`);
    await progress.getByRole('button', { name: 'Cancel', exact: true }).click();
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    // where it was, as it was
    expect(await page.getByRole('status', { name: 'Simulated time' }).textContent()).toContain(origin.clock);
    expect(await clock()).toBe(origin.clock);
    expect(await scrollback()).toBe(origin.text);
    expect(await timeline().getAttribute('aria-valuetext')).toBe(`${origin.clock} of ${origin.clock}`);
    expect(await page.getByRole('log', { name: 'What changed' }).textContent()).toBe(
      `Cancelled going back to ${target}: the lab is at ${origin.clock}, where it was`,
    );

    // and usable: Play moves the clock on from there, a command runs and prints
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(
      (c) => Number.parseFloat(document.querySelector('[data-testid=sim-time]')?.textContent ?? '0') > c,
      Number.parseFloat(origin.clock),
    );
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await waitPaused();
    expect((await scrollback()).startsWith(origin.text)).toBe(true);
    await cmd.fill('ping -c 1 server');
    await cmd.press('Enter');
    await page.getByTestId('scrollback').getByText('1 packets transmitted').waitFor({ timeout: 30_000 });
    await waitPaused();

    // back to 90 % of the timeline (Play at the top speed took it on by a minute or so: a long
    // replay again), and at once, before its progress shows, on to t ≈ 5 s: the newest position
    // wins, that replay is called off (the clock never shows its instant); let run, the seek to
    // 5 s lands on the instant dragged to, the transcript cut there
    await page.evaluate(() => {
      const t = document.querySelector('[data-testid=sim-time]')!;
      const w = window as unknown as { __clocks: string[] };
      w.__clocks = [];
      new MutationObserver(() => w.__clocks.push(t.textContent ?? '')).observe(t, {
        characterData: true,
        childList: true,
        subtree: true,
      });
    });
    const target1 = await dragTimeline(0.9);
    const end = await timeline().evaluate((el: HTMLInputElement) => Number(el.max) / 1e9);
    const target2 = await dragTimeline(5 / end);
    expect(Math.abs(Number.parseFloat(target2) - 5)).toBeLessThan(1);
    await waitClock(target2);
    const clocks = await page.evaluate(() => (window as unknown as { __clocks: string[] }).__clocks);
    expect(clocks).not.toContain(target1);
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    await page.waitForFunction(
      () => !/going to/.test(document.querySelector('.scrubber-state')?.textContent ?? ''),
    );
    expect(await clock()).toBe(target2);
    const text2 = await scrollback();
    expect(origin.text.startsWith(text2)).toBe(true);
    expect(text2).toContain('iperf3 -c server -t 20 -P 10');
    expect(text2).toMatch(/\[SUM\] +3\.00-4\.00 +sec/);
    expect(text2).not.toContain('iperf Done.');
    expect(await page.getByRole('log', { name: 'What changed' }).textContent()).toBe(`Moved to ${target2}`);
    expect(problems).toEqual([]);
  }, 180_000);
});
