/**
 * The UI part of `npm run bench`, in Debian's headless Chromium. run.ts starts it as a child process
 * (a browser crash cannot take the engine figures with it); alone, `node tests/bench/ui.mjs
 * [--quick] [--only=path-view,paint,responsiveness,packet-list,page-vs-cli]` prints the same JSON.
 *
 * Parts: the path view's 5,000-batch frame; the production bundle (eager JavaScript and the worker,
 * gzipped); first paint of the default scenario ("path drawn": the first frame whose path canvas
 * holds a pixel); input → visible change and the frame pump while `iperf3 -c server -t 600 -l 9000
 * -P 2` plays at top speed; the packet list at a million rows (tests/bench/packet-list-page.mjs);
 * the same run in the page against `npm run lab` (skipped with --quick).
 * What each measures and its target: README.md, "Speed".
 *
 * Output: progress on stderr, one line `UIBENCH {json}` on stdout. Never throws: a failed part is
 * reported as { error }.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, preview } from 'vite';
import { launchChromium } from '../e2e/browser.mjs';
import { openLab, packetListPageBench } from './packet-list-page.mjs';
import { pathViewBench } from './path-view.bench.mjs';

const QUICK = process.argv.includes('--quick');
/** The long run the page is compared with the CLI on (issue 12: experiment 2 on the default pair). */
const PAGE_RUN_COMMAND = 'iperf3 -c server -t 600 -l 9000 -P 2';
/** `--only=a,b`: run only these parts (path-view, bundle, paint, responsiveness, packet-list, page-vs-cli). */
const ONLY = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const want = (name) => !ONLY || ONLY.includes(name);
const progress = (s) => process.stderr.write(`bench ui: ${s}\n`);
const errMsg = (e) => (e instanceof Error ? (e.stack ?? e.message) : String(e));

async function part(name, fn) {
  if (name !== 'bundle' && !want(name)) return { error: `${name}: not run (--only)` };
  try {
    return await fn();
  } catch (e) {
    return { error: `${name}: ${errMsg(e)}` };
  }
}

const result = {};

// ------------------------------------------------------------------------------- 1. path view
result.pathView = await part('path-view', async () => {
  progress('path view, 5,000 batches…');
  const r = await pathViewBench({ n: 5000, frames: QUICK ? 120 : 300 });
  return {
    n: r.n,
    drawMs: r.drawMs,
    drawRasterMs: r.drawRasterMs,
    intervalsMs: r.intervalsMs,
    errors: r.errors,
  };
});

// ---------------------------------------------------------------------------------- 2. bundle
const outDir = mkdtempSync(path.join(os.tmpdir(), 'netlab-bench-'));
let built = false;
result.bundle = await part('bundle', async () => {
  progress('production build…');
  const prev = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production'; // React's production build (docs/toolchain.md, gotcha 1)
  try {
    process.env.VITE_NETLAB_TEST_HOOKS = '1'; // window.__netlab (src/main.tsx)
    await build({ mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = prev;
  }
  built = true;
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const eager = new Set();
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) eager.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) eager.add(m[1]);
  const css = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]);
  const size = (href) => {
    const buf = readFileSync(path.join(outDir, href.replace(/^\//, '')));
    return { file: href, raw: buf.length, gz: gzipSync(buf).length };
  };
  const assets = readdirSync(path.join(outDir, 'assets'));
  const workers = assets
    .filter((f) => /worker/i.test(f) && f.endsWith('.js'))
    .map((f) => size(`assets/${f}`));
  const allJs = assets.filter((f) => f.endsWith('.js')).map((f) => size(`assets/${f}`));
  return { initial: [...eager].map(size), css: css.map(size), workers, allJs };
});

// ------------------------------------------------------------------------- 3, 4: the built site
/** Records the input events' timeStamps and times each `advance` request to the worker. */
const INIT = `(() => {
  window.__inputs = [];
  for (const t of ['pointerdown', 'keydown'])
    window.addEventListener(t, (e) => window.__inputs.push(e.timeStamp), { capture: true });
  window.__advance = [];
  window.__calls = {};
  const W = window.Worker;
  if (W) {
    window.Worker = class extends W {
      constructor(...a) {
        super(...a);
        const pending = new Map();
        const post = this.postMessage.bind(this);
        this.postMessage = (m, t) => {
          if (m && m.type === 'APPLY' && Array.isArray(m.path) && m.path[0] === 'advance')
            pending.set(m.id, performance.now());
          else if (m && m.type === 'APPLY' && Array.isArray(m.path)) {
            const k = String(m.path[0]);
            window.__calls[k] = (window.__calls[k] || 0) + 1;
          }
          return post(m, t);
        };
        this.addEventListener('message', (e) => {
          const id = e.data && e.data.id;
          if (pending.has(id)) {
            window.__advance.push([pending.get(id), performance.now(), (e.data.value && e.data.value.workMs) || 0]);
            pending.delete(id);
          }
        });
      }
    };
  }
  const tick = () => {
    const c = document.querySelector('canvas[data-testid="path-canvas"]');
    if (c && c.width > 0 && c.height > 0) {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4)
        if (d[i] !== 0) {
          window.__pathDrawnAt = performance.now();
          return;
        }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

let server;
let browser;
if (built) {
  try {
    server = await preview({
      logLevel: 'warn',
      build: { outDir },
      preview: { port: 4183, strictPort: false, host: '127.0.0.1' },
    });
    browser = await launchChromium();
  } catch (e) {
    result.serve = { error: `serving the build: ${errMsg(e)}` };
  }
}
const url = server?.resolvedUrls?.local[0];

if (!built) result.paint = result.responsiveness = { error: 'no build (see bundle)' };
else if (!url || !browser)
  result.paint = result.responsiveness = { error: result.serve?.error ?? 'no server' };
else {
  result.paint = await part('paint', async () => {
    const loads = [];
    const n = QUICK ? 3 : 5;
    for (let i = 0; i < n; i++) {
      progress(`first paint, load ${i + 1} of ${n}…`);
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      try {
        await ctx.addInitScript(INIT);
        const page = await ctx.newPage();
        await page.goto(url);
        await page.waitForFunction(() => window.__pathDrawnAt !== undefined, null, { timeout: 60_000 });
        loads.push(
          await page.evaluate(() => ({
            fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
            pathDrawn: window.__pathDrawnAt,
            domContentLoaded: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? null,
          })),
        );
      } finally {
        await ctx.close();
      }
    }
    return { loads };
  });

  result.responsiveness = await part('responsiveness', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      await ctx.addInitScript(INIT);
      const page = await ctx.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(String(e)));
      const cmd = await openLab(page, url);
      progress('responsiveness: iperf3 -t 600 at top speed…');
      const speed = page.getByRole('slider', { name: 'Speed' });
      await speed.focus();
      await speed.press('End');
      const speedText = await speed.getAttribute('aria-valuetext');
      const command = 'iperf3 -c server -t 600 -l 9000 -P 2';
      await cmd.fill(command);
      await cmd.press('Enter');
      await page.getByRole('button', { name: 'Pause', exact: true }).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1000); // let the pump settle into its budget

      // the frame pump, over a window while nothing else happens
      const pumpWindowMs = QUICK ? 3000 : 5000;
      const pump = await page.evaluate(async (ms) => {
        const store = window.__netlab.store;
        let frames = 0;
        const simStart = store.getState().playback.nowNs;
        const unsub = store.subscribe((s, p) => {
          if (s.playback.nowNs !== p.playback.nowNs) frames++;
        });
        let rafs = 0;
        let on = true;
        const raf = () => {
          rafs++;
          if (on) requestAnimationFrame(raf);
        };
        requestAnimationFrame(raf);
        const t0 = performance.now();
        await new Promise((r) => setTimeout(r, ms));
        on = false;
        unsub();
        const t1 = performance.now();
        const rt = window.__advance.filter(([a]) => a >= t0 && a < t1).map(([a, b]) => b - a);
        return {
          wallMs: t1 - t0,
          frames,
          rafs,
          simNs: store.getState().playback.nowNs - simStart,
          advanceMs: rt,
          lagging: store.getState().playback.lagging,
        };
      }, pumpWindowMs);

      // input → visible change; `arm` before the input, `settle` waits for the painted change
      const arm = (kind) =>
        page.evaluate((k) => {
          const root = document.documentElement;
          const input = document.querySelector('input[aria-label="Command"]');
          const before = { theme: root.dataset.theme, len: input?.value.length ?? 0 };
          const sel = (name) =>
            [...document.querySelectorAll('[role=tab]')].find((t) => t.textContent.startsWith(name));
          const cond = {
            theme: () => root.dataset.theme !== before.theme,
            type: () => (input?.value.length ?? 0) > before.len,
            erase: () => (input?.value.length ?? 0) < before.len,
            'tab-inspector': () => sel('Inspector')?.getAttribute('aria-selected') === 'true',
            'tab-counters': () => sel('Counters')?.getAttribute('aria-selected') === 'true',
          }[k];
          const seen = window.__inputs.length;
          window.__settled = new Promise((resolve) => {
            const t0 = performance.now();
            const tick = () => {
              if (window.__inputs.length > seen && cond()) {
                const at = window.__inputs[seen];
                const ch = new MessageChannel();
                ch.port1.onmessage = () => resolve(performance.now() - at);
                ch.port2.postMessage(0); // runs after this frame's paint
              } else if (performance.now() - t0 > 10_000) resolve(null);
              else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          });
        }, kind);
      const settle = () => page.evaluate(() => window.__settled);
      const themeButton = page.getByRole('button', { name: /^(Light|Dark) theme$/ });
      const tabInspector = page.getByRole('tab', { name: /^Inspector/ });
      const tabCounters = page.getByRole('tab', { name: /^Counters/ });
      const ms = { theme: [], type: [], tab: [] };
      let missed = 0;
      const reps = QUICK ? 6 : 10;
      const record = (k, v) => (v === null ? missed++ : ms[k].push(v));
      for (let i = 0; i < reps; i++) {
        progress(`responsiveness, round ${i + 1} of ${reps}…`);
        await arm('theme');
        await themeButton.click();
        record('theme', await settle());
        await page.waitForTimeout(150 + 37 * (i % 5));
        await cmd.focus();
        await arm(i % 2 === 0 ? 'type' : 'erase');
        await page.keyboard.press(i % 2 === 0 ? 'x' : 'Backspace');
        record('type', await settle());
        await page.waitForTimeout(150 + 23 * (i % 5));
        await arm(i % 2 === 0 ? 'tab-inspector' : 'tab-counters');
        await (i % 2 === 0 ? tabInspector : tabCounters).click();
        record('tab', await settle());
        await page.waitForTimeout(150 + 41 * (i % 5));
      }
      const still = await page.evaluate(() => {
        const s = window.__netlab.store.getState();
        return { playing: s.playback.playing, nowNs: s.playback.nowNs };
      });
      return { speedText, command, pump, ms, missed, still, problems };
    } finally {
      await ctx.close();
    }
  });
}

// ------------------------------------------------------------------------- 5. page vs CLI
/** `npm run -s lab -- ARGS` from the repo root, timed end to end (what a user of the CLI waits). */
const REPO = fileURLToPath(new URL('../..', import.meta.url));
function cliRun(args) {
  const t0 = performance.now();
  const r = spawnSync('npm', ['run', '-s', 'lab', '--', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const wallMs = performance.now() - t0;
  if (r.status !== 0 || r.error) throw new Error(`npm run lab failed: ${r.error ?? r.stderr?.slice(-400)}`);
  return { wallMs, done: /iperf Done\./.test(r.stdout ?? '') };
}

if (url && browser && want('packet-list'))
  result.packetList = await part('packet-list', () => packetListPageBench(browser, url, progress));

/**
 * `command` typed in a fresh page, paused at once, then "Run until" `seconds` (a run to an
 * instant, as fast as the model goes whatever the play speed): the wall time from Go to the clock
 * there, and the stretches with no advance request out.
 */
async function runUntilInPage(browser, command, seconds) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.addInitScript(INIT);
  const page = await ctx.newPage();
  try {
    const cmd = await openLab(page, url);
    await cmd.fill(command);
    await cmd.press('Enter');
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.locator('fieldset.run-until select').first().selectOption('time');
    await page.getByLabel('Run until time in seconds').fill(String(seconds));
    const k = await page.evaluate(() => window.__inputs.length);
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.waitForFunction(
      (ns) => {
        const p = window.__netlab.store.getState().playback;
        return p.nowNs >= ns && !p.runTo;
      },
      seconds * 1e9,
      { timeout: 10 * 60_000 },
    );
    return await page.evaluate((k) => {
      const t0 = window.__inputs[k];
      const t1 = performance.now();
      const rt = window.__advance.filter(([a]) => a >= t0).sort((x, y) => x[0] - y[0]);
      const gaps = [];
      let answered = t0;
      for (const [a, b] of rt) {
        if (a > answered) gaps.push([Math.round(answered - t0), Math.round(a - answered)]);
        answered = Math.max(answered, b);
      }
      return {
        wallMs: t1 - t0,
        advances: rt.length,
        workerMs: rt.reduce((s, [, , w]) => s + w, 0),
        idleMs: gaps.reduce((s, [, g]) => s + g, 0),
        largestIdle: gaps.sort((x, y) => y[1] - x[1]).slice(0, 8),
        otherCalls: window.__calls,
      };
    }, k);
  } finally {
    await ctx.close();
  }
}

if (url && browser && want('page-vs-cli') && (!QUICK || ONLY))
  result.pageVsCli = await part('page-vs-cli', async () => {
    const command = PAGE_RUN_COMMAND;
    progress('page vs CLI: npm run lab start-up (bundle cache)…');
    cliRun(['sleep 0']);
    progress(`page vs CLI: \`${command}\` through npm run lab…`);
    const cliBefore = cliRun([command]);
    progress(`page vs CLI: the same in the page at the top speed…`);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    let page;
    try {
      await ctx.addInitScript(INIT);
      page = await ctx.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(String(e)));
      const cmd = await openLab(page, url);
      const speed = page.getByRole('slider', { name: 'Speed' });
      await speed.focus();
      await speed.press('End');
      const speedText = await speed.getAttribute('aria-valuetext');
      await cmd.fill(command);
      // from the Enter key to the store holding the run's end (the prompt back, "iperf Done." shown)
      await page.evaluate(() => {
        const store = window.__netlab.store;
        const w = window;
        w.__run = { frames: 0, started: false };
        const unsub = store.subscribe((s, p) => {
          if (s.playback.nowNs !== p.playback.nowNs) w.__run.frames++;
          if (s.terminal.foreground) w.__run.started = true;
          else if (w.__run.started && !w.__run.endMs) {
            w.__run.endMs = performance.now();
            w.__run.simNs = s.playback.nowNs;
            w.__run.text = s.terminal.chunks.map((c) => c.text).join('');
            unsub();
          }
        });
      });
      const seen = await page.evaluate(() => window.__inputs.length);
      await cmd.press('Enter');
      await page.waitForFunction(() => window.__run.endMs !== undefined, null, { timeout: 10 * 60_000 });
      const run = await page.evaluate((k) => {
        const r = window.__run;
        const t0 = window.__inputs[k];
        const rt = window.__advance.filter(([a]) => a >= t0 && a < r.endMs);
        return {
          wallMs: r.endMs - t0,
          frames: r.frames,
          simNs: r.simNs,
          done: /iperf Done\./.test(r.text),
          advances: rt.length,
          advanceBusyMs: rt.reduce((s, [a, b]) => s + (b - a), 0),
          // the worker's own time in those requests (Frame.workMs): the rest of the wall time the
          // worker idled, waiting for the main thread to take an answer and send the next request
          workerMs: rt.reduce((s, [, , w]) => s + w, 0),
          // stretches in which no advance request was outstanding (sent and not yet answered): the
          // worker had nothing of the run to compute; the largest few, with when they started
          idle: (() => {
            const gaps = [];
            let answered = t0;
            for (const [a, b] of rt) {
              if (a > answered) gaps.push([Math.round(answered - t0), Math.round(a - answered)]);
              answered = Math.max(answered, b);
            }
            if (r.endMs > answered) gaps.push([Math.round(answered - t0), Math.round(r.endMs - answered)]);
            return {
              ms: gaps.reduce((s, [, g]) => s + g, 0),
              largest: gaps.sort((x, y) => y[1] - x[1]).slice(0, 8),
            };
          })(),
          // the other requests the page sent the worker meanwhile, by method (counted from load)
          otherCalls: window.__calls,
        };
      }, seen);
      progress('page vs CLI: the same typed, paused, then "Run until" 600.5 s…');
      // a context of its own: this one's page keeps its session (a new page would reopen it at 600 s)
      const runUntil = await runUntilInPage(browser, command, 600.5);
      progress('page vs CLI: npm run lab again (load drift)…');
      const cliAfter = cliRun([command]);
      return {
        command,
        speedText,
        cliMs: [cliBefore.wallMs, cliAfter.wallMs],
        page: run,
        runUntil,
        problems,
      };
    } finally {
      await ctx.close();
    }
  });

await browser?.close().catch(() => {});
await server?.close().catch(() => {});
if (existsSync(outDir)) rmSync(outDir, { recursive: true, force: true });
process.stdout.write(`UIBENCH ${JSON.stringify(result)}\n`);
