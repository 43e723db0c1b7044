/**
 * Screenshot helper for the path view pages (development aid): serves the repo with Vite, opens
 * PATH, waits for `window.__live.stopped` (live page) or N ms, optionally clicks at (x, y), and
 * writes a PNG.   node tests/bench/shot.mjs PATH OUT.png [--click x,y | --click-packet] [--dark] [--wait ms]
 */
import { chromium } from 'playwright-core';
import { createServer } from 'vite';

const [path, out, ...rest] = process.argv.slice(2);
const opt = (k) => {
  const i = rest.indexOf(k);
  return i >= 0 ? rest[i + 1] : undefined;
};
const server = await createServer({ logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
await server.listen();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({
    viewport: { width: 1500, height: 1000 },
    colorScheme: rest.includes('--dark') ? 'dark' : 'light',
  });
  page.on('pageerror', (e) => console.error('pageerror:', String(e)));
  page.on('console', (m) => m.type() === 'error' && console.error('console:', m.text()));
  await page.goto(server.resolvedUrls.local[0] + path);
  await page
    .waitForFunction(() => window.__live?.stopped === true, null, { timeout: Number(opt('--wait') ?? 60000) })
    .catch(() => {});
  const click = rest.includes('--click-packet')
    ? await page.getByTestId('path-canvas').getAttribute('data-packet-at')
    : opt('--click');
  if (click) {
    const [x, y] = click.split(',').map(Number);
    await page.getByTestId('path-canvas').click({ position: { x, y } });
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: out, fullPage: true });
} finally {
  await browser.close();
  await server.close();
}
