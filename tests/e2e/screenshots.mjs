// Screenshots of the main states of the built site (run after `npx vite build`):
//   node tests/e2e/screenshots.mjs [outDir]
// Serves dist/ with Vite's preview(), drives Chromium via playwright-core, writes PNGs.
import { mkdirSync } from 'node:fs';
import { preview } from 'vite';
import { launchChromium } from './browser.mjs';

const out = process.argv[2] ?? '.scratch/shots';
mkdirSync(out, { recursive: true });
const server = await preview({ logLevel: 'warn', preview: { port: 4175, strictPort: false } });
const url = server.resolvedUrls.local[0];
const browser = await launchChromium();
try {
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, colorScheme: scheme });
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    await page.goto(url);
    await page.getByRole('textbox', { name: 'Command' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('input[aria-label="Command"]')?.disabled);
    await page.screenshot({ path: `${out}/1-first-screen-${scheme}.png` });
    if (scheme === 'dark') continue;
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 3 -P 2');
    await cmd.press('Enter');
    await page.getByTestId('scrollback').getByText('iperf Done.').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: `${out}/2-after-iperf3.png`, fullPage: true });
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.screenshot({ path: `${out}/3-no-intro.png`, fullPage: true });
  }
} finally {
  await browser.close();
  await server.close();
}
