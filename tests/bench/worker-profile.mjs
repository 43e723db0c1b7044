/**
 * Where the simulation worker spends its time in Chromium: `node tests/bench/worker-profile.mjs
 * [play|run-until] [top N]` builds the site (unminified, so functions keep their names), types
 * `iperf3 -c server -t 600 -l 9000 -P 2` in the page and plays it at the top speed (`play`) or
 * pauses and runs "Run until 600.5 s" (`run-until`), with V8's sampling profiler running in the
 * worker. Chromium is started with a remote debugging port and the worker's target attached over
 * raw CDP with flattened sessions (playwright-core attaches CDP to pages only). Prints self time by
 * source file and by function; writes the .cpuprofile (Chrome DevTools opens it) to the temp dir.
 * Reported, never asserted. What it found: docs/design.md, "Performance".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, preview } from 'vite';
import WebSocket from 'ws';
import { launchChromium } from '../e2e/browser.mjs';
import { openLab } from './packet-list-page.mjs';

const MODE = process.argv[2] ?? 'play';
const TOP = Number(process.argv[3] ?? 25);
if (MODE !== 'play' && MODE !== 'run-until') {
  process.stderr.write('usage: node tests/bench/worker-profile.mjs [play|run-until] [top N]\n');
  process.exit(2);
}
const PORT = 9333;
const COMMAND = 'iperf3 -c server -t 600 -l 9000 -P 2';

const outDir = mkdtempSync(path.join(os.tmpdir(), 'netlab-worker-profile-'));
process.env.VITE_NETLAB_TEST_HOOKS = '1'; // window.__netlab (src/main.tsx)
await build({ mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: false } });
const server = await preview({
  logLevel: 'warn',
  build: { outDir },
  preview: { port: 4188, strictPort: false },
});
const browser = await launchChromium([`--remote-debugging-port=${PORT}`]);
let ws;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cmd = await openLab(page, server.resolvedUrls.local[0]);
  // raw CDP: the browser's endpoint, the worker's target, a flattened session to it
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${PORT}/json/version`)).json();
  ws = new WebSocket(webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  let id = 0;
  const pending = new Map();
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`${p.method}: ${m.error.message}`));
    else p.resolve(m.result);
  });
  const send = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      pending.set(++id, { resolve, reject, method });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  const { targetInfos } = await send('Target.getTargets');
  const worker = targetInfos.find((t) => t.type === 'worker');
  if (!worker) throw new Error(`no worker target among: ${targetInfos.map((t) => t.type).join(', ')}`);
  const { sessionId } = await send('Target.attachToTarget', { targetId: worker.targetId, flatten: true });
  await send('Profiler.enable', {}, sessionId);
  await send('Profiler.setSamplingInterval', { interval: 500 }, sessionId);

  await cmd.fill(COMMAND);
  let t0;
  if (MODE === 'play') {
    const speed = page.getByRole('slider', { name: 'Speed' });
    await speed.focus();
    await speed.press('End');
    await send('Profiler.start', {}, sessionId);
    t0 = performance.now();
    await cmd.press('Enter');
    await page.waitForFunction(
      () => {
        const s = window.__netlab.store.getState();
        return s.terminal.foreground === null && s.playback.nowNs > 1e9;
      },
      null,
      { timeout: 10 * 60_000 },
    );
  } else {
    await cmd.press('Enter');
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.locator('fieldset.run-until select').first().selectOption('time');
    await page.getByLabel('Run until time in seconds').fill('600.5');
    await send('Profiler.start', {}, sessionId);
    t0 = performance.now();
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.waitForFunction(
      () => {
        const p = window.__netlab.store.getState().playback;
        return p.nowNs >= 600.5e9 && !p.runTo;
      },
      null,
      { timeout: 10 * 60_000 },
    );
  }
  const wallS = (performance.now() - t0) / 1000;
  const { profile } = await send('Profiler.stop', {}, sessionId);
  const file = path.join(os.tmpdir(), `netlab-worker-${MODE}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));

  // self time by source file (the bundle's `// src/...` markers) and by function
  const bundle = readFileSync(path.join(outDir, 'assets', worker.url.split('/').pop()), 'utf8').split('\n');
  const fileAt = [];
  let cur = '(bundle)';
  for (let i = 0; i < bundle.length; i++) {
    const m = /^\/\/ ((?:src|workers)\/\S+)$/.exec(bundle[i]);
    if (m) cur = m[1];
    fileAt[i] = cur;
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFile = new Map();
  const byFn = new Map();
  let total = 0;
  profile.samples.forEach((s, i) => {
    const cf = byId.get(s);
    const us = profile.timeDeltas[i] ?? 0;
    const inBundle = cf.url.includes('sim.worker');
    const f = inBundle ? fileAt[cf.lineNumber] : cf.functionName || cf.url || '(native)';
    const fn = `${cf.functionName || '(anonymous)'}  ${inBundle ? fileAt[cf.lineNumber] : ''}`;
    byFile.set(f, (byFile.get(f) ?? 0) + us);
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    total += us;
  });
  const show = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(
        ([k, us]) =>
          `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`,
      )
      .join('\n');
  console.log(
    `${MODE}: \`${COMMAND}\`, ${wallS.toFixed(2)} s of wall time; the worker's samples ${(total / 1e6).toFixed(2)} s`,
  );
  console.log(`\nby source file\n${show(byFile)}\n\nby function\n${show(byFn)}\n\nprofile: ${file}`);
} finally {
  ws?.close();
  await browser.close();
  await server.close();
  rmSync(outDir, { recursive: true, force: true });
}
