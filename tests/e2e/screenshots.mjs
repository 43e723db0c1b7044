// Screenshots of the main states of the built site (run after `VITE_NETLAB_TEST_HOOKS=1 npx vite build`:
// the pages are driven through the test hooks, absent from a production build):
//   node tests/e2e/screenshots.mjs [outDir]
// Serves dist/ with Vite's preview(), drives Chromium via playwright-core, writes PNGs of the
// viewport (what a person sees without scrolling): the first screen, an iperf3 run in progress
// (path, terminal, then the charts and counters tabs, a packet's inspector), a lesson, in light and dark at 1440×900,
// and the run at 1920×1080, 1280×800, 1280×720 and 390×844.
import { mkdirSync } from 'node:fs';
import { preview } from 'vite';
import { launchChromium, playAt } from './browser.mjs';

const out = process.argv[2] ?? '.scratch/shots';
mkdirSync(out, { recursive: true });
const server = await preview({ logLevel: 'warn', preview: { port: 4175, strictPort: false } });
const url = server.resolvedUrls.local[0];
const browser = await launchChromium();

async function open(width, height, scheme) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme: scheme });
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
  await page.goto(url);
  await playAt(page, 1e9);
  await page.getByRole('textbox', { name: 'Command' }).waitFor();
  await page.waitForFunction(() => !document.querySelector('input[aria-label="Command"]')?.disabled);
  return page;
}

/** Start `iperf3 -c server -t 10 -P 2` and wait until it has printed two intervals. */
async function midRun(page) {
  const cmd = page.getByRole('textbox', { name: 'Command' });
  await cmd.fill('iperf3 -c server -t 10 -P 2');
  await cmd.press('Enter');
  await page
    .getByTestId('scrollback')
    .getByText(/1\.00-2\.00 +sec/)
    .first()
    .waitFor({ timeout: 60_000 });
}

try {
  for (const scheme of ['light', 'dark']) {
    const page = await open(1440, 900, scheme);
    // the page follows the system's scheme; the header button switches it
    const toggle = page.getByRole('button', { name: scheme === 'dark' ? 'Dark theme' : 'Light theme' });
    if (await toggle.count()) await toggle.click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/1-first-screen-${scheme}.png` });
    await page.getByRole('button', { name: 'Got it' }).click();
    await midRun(page);
    await page.screenshot({ path: `${out}/2-iperf3-running-${scheme}.png` });
    // the charts are beside the path (the stage): bring the NetworkOut chart into their view
    await page.locator('[data-chart=cloudwatch]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(700);
    await page.screenshot({ path: `${out}/3-iperf3-charts-${scheme}.png` });
    await page.getByRole('tab', { name: /Counters/ }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/4-iperf3-counters-${scheme}.png` });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.waitForTimeout(300);
    const canvas = page.getByTestId('path-canvas');
    const [x, y] = ((await canvas.getAttribute('data-packet-at')) ?? '').split(',').map(Number);
    await canvas.click({ position: { x, y } });
    await page.getByTestId('packet-inspector').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${out}/5-packet-inspector-${scheme}.png` });
    await page.getByRole('button', { name: 'Close packet inspector' }).click();
    await page.getByRole('tab', { name: 'Guide' }).click();
    await page
      .getByRole('region', { name: 'Lessons' })
      .getByRole('button', { name: 'Per-flow limits' })
      .click();
    await page.getByRole('heading', { name: /^Step 1 of/ }).waitFor();
    await page.waitForFunction(() => !document.querySelector('input[aria-label="Command"]')?.disabled);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/6-lesson-${scheme}.png` });
    await page.close();
  }
  for (const [w, h] of [
    [1920, 1080],
    [1280, 800],
    [1280, 720],
    [390, 844],
  ]) {
    const page = await open(w, h, 'light');
    await page.getByRole('button', { name: 'Got it' }).click();
    await midRun(page);
    await page.screenshot({ path: `${out}/7-iperf3-running-${w}x${h}.png` });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
