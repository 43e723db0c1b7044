// Screenshots of sharing and embedding in the built app (run after `npx vite build`):
//   node tests/e2e/share-shots.mjs [outDir]
// The Share popover after an iperf3 run (light and dark), the page of an unreadable link, and the
// example host page (public/embed-example.html) on a second origin framing the lab in embed mode.
import { mkdirSync } from 'node:fs';
import { preview } from 'vite';
import { launchChromium, playAt } from './browser.mjs';

const out = process.argv[2] ?? '.scratch/shots';
mkdirSync(out, { recursive: true });
const server = await preview({ logLevel: 'warn', preview: { port: 4177, strictPort: false } });
const base = server.resolvedUrls.local[0];
const browser = await launchChromium();
const ready = (where) =>
  where.waitForFunction(() => {
    const i = document.querySelector('input[aria-label="Command"]');
    return i && !i.disabled;
  });
try {
  for (const scheme of ['light', 'dark']) {
    const ctx = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      colorScheme: scheme,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
    await page.goto(base);
    await playAt(page, 1e9);
    await ready(page);
    await page.getByRole('button', { name: 'Got it' }).click();
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 1');
    await cmd.press('Enter');
    await page.getByTestId('scrollback').getByText('iperf Done.').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('status').getByText('Link copied to the clipboard.').waitFor();
    await page.getByRole('button', { name: 'Copy embed code' }).click();
    await page.getByRole('textbox', { name: 'Embed code' }).waitFor();
    await page.screenshot({ path: `${out}/share-popover-${scheme}.png` });
    await ctx.close();
  }

  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${base}#v=4&s=PGltZyBzcmM9eCBvbmVycm9yPWFsZXJ0KDEpPg`);
  await page.getByRole('heading', { name: 'This link could not be read' }).waitFor();
  await page.screenshot({ path: `${out}/link-error.png` });
  await page.close();

  // the host page on 127.0.0.1, the lab on localhost: two origins; at 1280×800 and on a phone
  for (const [w, h] of [
    [1280, 800],
    [390, 844],
  ]) {
    const host = await browser.newPage({ viewport: { width: w, height: h } });
    host.on('console', (m) => m.type() === 'error' && console.log('host console', m.text()));
    await host.goto(
      `${base.replace('//localhost:', '//127.0.0.1:')}embed-example.html?lab=${encodeURIComponent(base)}`,
    );
    const frame = await (await host.waitForSelector('#lab')).contentFrame();
    await frame.waitForSelector('[data-embed="1"]');
    await frame.waitForFunction(() => !document.querySelector('button[aria-label="Play"]')?.disabled);
    await host.getByRole('button', { name: 'Load: small packets (PPS limit)' }).click();
    await host.waitForTimeout(1500);
    await host.getByRole('button', { name: 'Play', exact: true }).click();
    await host.waitForTimeout(2500);
    await host.getByRole('button', { name: 'Pause', exact: true }).click();
    await host.waitForTimeout(500);
    // the whole page: the frame autosizes to the lab (height messages), all of it painted
    await host.screenshot({ path: `${out}/embed-host-${w}x${h}.png`, fullPage: true });
    await host.close();
  }
} finally {
  await browser.close();
  await server.close();
}
