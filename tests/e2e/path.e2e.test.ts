/**
 * The path view in the built site (Chromium): in exp 4's microburst (UDP -b 10G -P 8 on c7i.large)
 * the drop is shown where it happens with its reason, a clicked packet opens its inspector (tuple,
 * RSS steering, stages passed), and a clicked ring opens the stage inspector with provenance marks.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labReady, launchChromium, watchProblems } from './browser.mjs';

let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
  watchProblems(page, problems);
  await page.goto(inject('baseUrl'));
  await labReady(page);
});

afterAll(async () => {
  await browser?.close();
});

describe('the path view in Chromium', () => {
  it('shows a drop in the exp 4 microburst where it happens, with its reason', async () => {
    await page.getByRole('combobox', { name: 'Experiment' }).selectOption('exp4');
    await page.waitForFunction(
      () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    );
    // 1 ms of simulated time per wall second: batches move visibly
    await page.evaluate(() => {
      type Store = { getState(): { playback: object }; setState(p: object): void };
      const s = (window as unknown as { __netlab: { store: Store } }).__netlab.store;
      s.setState({ playback: { ...s.getState().playback, speedMode: 'manual', speedNsPerS: 1e6 } });
    });
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1');
    await cmd.press('Enter');
    const drops = page.getByTestId('path-drops');
    await drops.waitFor({ timeout: 60_000 });
    expect(await drops.textContent()).toMatch(
      /[\d,]+ packets dropped on client · Nitro card · egress · bw_out_allowance_exceeded/,
    );
    // the picture's accessible description says it too
    expect(await page.getByTestId('path-canvas').getAttribute('aria-label')).toMatch(
      /dropped: bw_out_allowance_exceeded/,
    );
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
  });

  it('opens the packet inspector for a clicked packet', async () => {
    const canvas = page.getByTestId('path-canvas');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=path-canvas]')?.getAttribute('data-packet-at'),
    );
    const [x, y] = ((await canvas.getAttribute('data-packet-at')) ?? '').split(',').map(Number);
    await canvas.click({ position: { x: x!, y: y! } });
    const insp = page.getByTestId('packet-inspector');
    await insp.waitFor({ timeout: 10_000 });
    const text = (await insp.textContent()) ?? '';
    expect(text).toMatch(/udp 10\.0\.0\.1[01]:\d+ → 10\.0\.0\.1[01]:\d+/);
    expect(text).toMatch(/indirection entry \d+ of 128 → RX queue \d → interrupt\/NAPI on vCPU \d/);
    expect(text).toContain('Stages passed');
    expect(text).toContain('TX rings');
  });

  it('opens the stage inspector for a clicked ring, with provenance marks', async () => {
    await page.getByRole('button', { name: 'Close packet inspector' }).click();
    const canvas = page.getByTestId('path-canvas');
    const box = (await canvas.boundingBox())!;
    // the client's TX rings: left column, sending half, below the qdisc row
    await canvas.click({ position: { x: box.width * 0.12, y: 200 } }); // the client's TX rings
    const insp = page.getByTestId('stage-inspector');
    await insp.waitFor({ timeout: 10_000 });
    expect(await insp.textContent()).toContain('TX rings');
    expect(await insp.locator('.mark').allTextContents()).toContain('documented');
    expect(problems).toEqual([]);
  });
});
