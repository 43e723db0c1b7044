/**
 * Path-view frame benchmark in headless Chromium (software rendering, frame rate uncapped):
 * renders <PathView> with a synthetic frame of 5,000 batches that moves every animation frame and
 * reports the median and p95 time of a draw (the React effect running the canvas renderer), of draw
 * plus rasterisation (forced by a 1-pixel readback), and of the frame interval (which also holds
 * React's scheduling, compositing and, on a shared machine, waiting for a core). Target (issue 5): median frame ≤ 16.7 ms with 5,000 packets in view.
 *
 *   node tests/bench/path-view.bench.mjs [N] [--shot FILE] [--reduced-motion]
 */
import { chromium } from 'playwright-core';
import { createServer } from 'vite';

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 5000);
const shotAt = args.indexOf('--shot');
const shot = shotAt >= 0 ? args[shotAt + 1] : null;
const reduced = args.includes('--reduced-motion');

const server = await createServer({ logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
await server.listen();
const url = server.resolvedUrls.local[0];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-gpu-vsync', '--disable-frame-rate-limit'],
});
try {
  const page = await browser.newPage({
    viewport: { width: 1300, height: 800 },
    reducedMotion: reduced ? 'reduce' : 'no-preference',
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}tests/bench/path-view/index.html?n=${n}&frames=300`);
  await page.waitForFunction(() => window.__pathBench !== undefined, null, { timeout: 120_000 });
  const r = await page.evaluate(() => window.__pathBench);
  const med = (a) => {
    const s = [...a].sort((x, y) => x - y);
    return s[Math.floor(s.length / 2)];
  };
  const p95 = (a) => {
    const s = [...a].sort((x, y) => x - y);
    return s[Math.floor(s.length * 0.95)];
  };
  console.log(
    `path view${reduced ? ' (reduced motion: no trails)' : ''}, ${r.n} batches in view, ${r.drawMs.length} frames: draw median ${med(r.drawMs).toFixed(2)} ms, ` +
      `p95 ${p95(r.drawMs).toFixed(2)} ms; draw + raster median ${med(r.drawRasterMs).toFixed(2)} ms, ` +
      `p95 ${p95(r.drawRasterMs).toFixed(2)} ms; frame interval median ${med(r.intervalsMs).toFixed(2)} ms, p95 ${p95(r.intervalsMs).toFixed(2)} ms`,
  );
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  if (errors.length) {
    console.error(errors.join('\n'));
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.close();
}
