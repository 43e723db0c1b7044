/**
 * Path-view frame benchmark in headless Chromium (software rendering, frame rate uncapped):
 * renders <PathView> with a synthetic frame of 5,000 batches that moves every animation frame and
 * reports the median and p95 time of a draw (the React effect running the canvas renderer), of draw
 * plus rasterisation (forced by a 1-pixel readback), and of the frame interval (which also holds
 * React's scheduling, compositing and, on a shared machine, waiting for a core). Target (issue 5): median frame ≤ 16.7 ms with 5,000 packets in view.
 *
 *   node tests/bench/path-view.bench.mjs [N] [--shot FILE] [--reduced-motion]
 *
 * `pathViewBench()` is the same measurement for `npm run bench` (tests/bench/ui.mjs imports it).
 */
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';

const sorted = (a) => [...a].sort((x, y) => x - y);
export const median = (a) => sorted(a)[Math.floor(a.length / 2)];
export const p95 = (a) => sorted(a)[Math.min(a.length - 1, Math.floor(a.length * 0.95))];

/**
 * Serve the bench page with Vite's dev server, draw `frames` frames of `n` batches in Chromium.
 * Resolves to { n, drawMs, drawRasterMs, intervalsMs, errors } (page errors, if any).
 */
export async function pathViewBench({ n = 5000, frames = 300, reduced = false, shot = null } = {}) {
  const server = await createServer({ logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  const url = server.resolvedUrls.local[0];
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-gpu-vsync', '--disable-frame-rate-limit'],
    });
    const page = await browser.newPage({
      viewport: { width: 1300, height: 800 },
      reducedMotion: reduced ? 'reduce' : 'no-preference',
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${url}tests/bench/path-view/index.html?n=${n}&frames=${frames}`);
    await page.waitForFunction(() => window.__pathBench !== undefined, null, { timeout: 120_000 });
    const r = await page.evaluate(() => window.__pathBench);
    if (shot) await page.screenshot({ path: shot, fullPage: true });
    return { ...r, errors };
  } finally {
    await browser?.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 5000);
  const shotAt = args.indexOf('--shot');
  const shot = shotAt >= 0 ? args[shotAt + 1] : null;
  const reduced = args.includes('--reduced-motion');
  const r = await pathViewBench({ n, reduced, shot });
  console.log(
    `path view${reduced ? ' (reduced motion: no trails)' : ''}, ${r.n} batches in view, ${r.drawMs.length} frames: draw median ${median(r.drawMs).toFixed(2)} ms, ` +
      `p95 ${p95(r.drawMs).toFixed(2)} ms; draw + raster median ${median(r.drawRasterMs).toFixed(2)} ms, ` +
      `p95 ${p95(r.drawRasterMs).toFixed(2)} ms; frame interval median ${median(r.intervalsMs).toFixed(2)} ms, p95 ${p95(r.intervalsMs).toFixed(2)} ms`,
  );
  if (r.errors.length) {
    console.error(r.errors.join('\n'));
    process.exitCode = 1;
  }
}
