/**
 * The packet list in Chromium (issue 16): a command typed in the terminal, the Packets tab
 * opened, a display filter that does not parse (red, Wireshark's message) then one that does,
 * a row clicked (its details), the arrow keys moving the selection; only the rows in view are in
 * the DOM; axe finds no serious or critical violation in the list, its details or the expanded view.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labReady, launchChromium, watchProblems } from './browser.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  // axe is injected as an inline script, which the site's Content-Security-Policy forbids
  page = watchProblems(
    await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true }),
    problems,
  );
  await page.goto(inject('baseUrl'));
  await labReady(page);
});

afterAll(async () => {
  await browser?.close();
});

/** axe's serious and critical violations inside `selector`. */
async function axe(selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (sel) => {
    type Axe = {
      run(
        ctx: Element,
        o: object,
      ): Promise<{
        violations: Array<{
          id: string;
          impact: string | null;
          help: string;
          nodes: Array<{ target: string[] }>;
        }>;
      }>;
    };
    const r = await (window as unknown as { axe: Axe }).axe.run(document.querySelector(sel)!, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, selector);
}

describe('packet list', () => {
  it('lists what a typed command sent, filters, selects a row and moves with the keys', async () => {
    const got = page.getByRole('button', { name: 'Got it' });
    if (await got.count()) await got.click();
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('ping -c 3 -i 0.2 server');
    await cmd.press('Enter');
    await page
      .getByTestId('scrollback')
      .getByText(/3 packets transmitted, 3 received/)
      .waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Packets' }).click();
    const grid = page.getByRole('grid', { name: 'Packets' });
    await grid.waitFor();
    // the echo requests and replies, each seen sent and received: 12 rows (as many as fit in view)
    await expect
      .poll(() => page.locator('.packets-status').textContent(), { timeout: 10_000 })
      .toMatch(/^12 rows/);
    // the rows in the DOM once the list has settled (the status can read 12 a frame before the
    // last row in view is laid out: read twice alike)
    let before = -1;
    await expect
      .poll(async () => {
        const n = await page.locator('.packet-row').count();
        const settled = n === before;
        before = n;
        return settled;
      })
      .toBe(true);
    expect(before).toBeGreaterThan(3);

    const filter = page.getByRole('combobox', { name: 'Display filter' });
    await filter.fill('icmp.type == 0 && ip.sr == 10.0.0.10');
    await filter.press('Enter');
    await expect
      .poll(() => page.locator('#packets-filter-msg').textContent())
      .toContain('"ip.sr" is not a valid protocol or protocol field.');
    expect(await filter.getAttribute('aria-invalid')).toBe('true');
    // Wireshark's red box
    expect(await filter.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(255, 214, 214)');
    expect(await page.locator('.packet-row').count()).toBe(before);
    expect(await page.locator('.packets-status').textContent()).toMatch(/^12 rows/);

    await filter.fill('icmp.type == 0 && ip.src == 10.0.0.11');
    await filter.press('Enter');
    await expect.poll(() => page.locator('.packet-row').count()).toBe(6);
    const rows = page.locator('.packet-row');
    expect(await rows.allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/10\.0\.0\.11.*10\.0\.0\.10.*ICMP.*Echo \(ping\) reply/),
      ]),
    );
    expect(await page.locator('.packets-status').textContent()).toMatch(/^6 of 12 rows match/);

    await rows.nth(1).click();
    const details = page.getByRole('region', { name: /^Packet \d+ details$/ });
    await details.waitFor();
    expect(await details.textContent()).toContain('Internet Control Message Protocol');
    const firstNo = Number(await rows.nth(1).locator('[role=gridcell]').first().textContent());
    await grid.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => grid.getAttribute('aria-activedescendant')).not.toBe(`pkt-row-${firstNo}`);
    const active = await grid.getAttribute('aria-activedescendant');
    expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
    expect(await details.locator('h3').textContent()).toMatch(new RegExp(`^Packet ${active!.slice(8)},`));

    // at 1280x800 the side column leaves the tab too little room: the list opened expanded
    expect(await axe('.packets')).toEqual([]);
    await page.getByRole('button', { name: 'Back to the side' }).click();
    expect(await axe('.side-tabs')).toEqual([]);
    await page.getByRole('button', { name: 'Expand ⤢' }).click();
    expect(problems).toEqual([]);
  });

  it('a long capture: only the rows in view are in the DOM', async () => {
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 1');
    await cmd.press('Enter');
    await page
      .getByTestId('scrollback')
      .getByText(/iperf Done/)
      .waitFor({ timeout: 60_000 });
    const filter = page.getByRole('combobox', { name: 'Display filter' });
    await filter.fill('');
    await filter.press('Enter');
    await expect
      .poll(
        async () =>
          Number(
            ((await page.locator('.packets-status').textContent()) ?? '').replace(/,/g, '').split(' ')[0],
          ),
        {
          timeout: 10_000,
        },
      )
      .toBeGreaterThan(100_000);
    expect(await page.locator('.packet-row').count()).toBeLessThan(60);
    expect(problems).toEqual([]);
  });
});
