/**
 * `node tests/bench/wire-rate-browser.mjs [runs]`: issue 17's per-packet run in Chromium's V8 (the
 * page's worker runs the same engine): tests/bench/wire-rate-browser.ts bundled for the browser,
 * run on a blank page in Debian's headless Chromium; prints each run's wall time and wire packets per
 * second (the first run is the JIT's). Reported, never asserted. What it measured: docs/design.md,
 * "Performance".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { launchChromium } from '../e2e/browser.mjs';

const runs = Number(process.argv[2] ?? 6);
if (!(runs >= 1)) {
  process.stderr.write('usage: node tests/bench/wire-rate-browser.mjs [runs ≥ 1]\n');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'netlab-wrb-'));
const bundle = join(dir, 'wire-rate-browser.js');
buildSync({
  entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'wire-rate-browser.ts')],
  bundle: true,
  format: 'iife',
  globalName: 'WireRate',
  platform: 'browser',
  outfile: bundle,
  logLevel: 'error',
});
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto('about:blank');
  await page.addScriptTag({ path: bundle });
  const r = await page.evaluate((n) => globalThis.WireRate.run(n), runs);
  process.stdout.write(`${browser.version()}: ${r.wire} wire packets a run\n`);
  for (const [i, ms] of r.ms.entries())
    process.stdout.write(
      `${i === 0 ? 'fresh' : 'warm '} run: wall ${(ms / 1e3).toFixed(2)} s, ${(r.wire / ms / 1e3).toFixed(3)} M per wall second\n`,
    );
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
