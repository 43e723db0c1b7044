// Screenshots of the path view in the built app (run after `npx vite build`):
//   node tests/e2e/path-shots.mjs [outDir]
// Exp 4 (UDP -b 10G -P 8 on c7i.large): the drop with its reason, a clicked packet's inspector,
// a clicked ring's inspector, light and dark.
import { mkdirSync } from 'node:fs';
import { preview } from 'vite';
import { launchChromium } from './browser.mjs';

const out = process.argv[2] ?? '.scratch/shots';
mkdirSync(out, { recursive: true });
const server = await preview({ logLevel: 'warn', preview: { port: 4176, strictPort: false } });
const browser = await launchChromium();
try {
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1100 }, colorScheme: scheme });
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
    await page.goto(server.resolvedUrls.local[0]);
    await page.getByRole('textbox', { name: 'Command' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('input[aria-label="Command"]')?.disabled);
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.getByRole('combobox', { name: 'Experiment' }).selectOption('exp4');
    await page.waitForFunction(() => !document.querySelector('input[aria-label="Command"]')?.disabled);
    // slow enough to see batches move: 1 ms of simulated time per wall second
    await page.evaluate(() => {
      const s = window.__netlab.store;
      s.setState((st) => ({ playback: { ...st.playback, speedMode: 'manual', speedNsPerS: 1e6 } }));
    });
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1');
    await cmd.press('Enter');
    await page.getByTestId('path-drops').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1500);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.waitForTimeout(300);
    const path = page.getByRole('region', { name: 'Packet path' }).first();
    await path.screenshot({ path: `${out}/path-exp4-${scheme}.png` });
    const at = await page.getByTestId('path-canvas').getAttribute('data-packet-at');
    const [x, y] = at.split(',').map(Number);
    await page.getByTestId('path-canvas').click({ position: { x, y } });
    await page.getByTestId('packet-inspector').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${out}/path-exp4-packet-${scheme}.png`, fullPage: true });
  }
} finally {
  await browser.close();
  await server.close();
}
