/**
 * Publishing: the production build (as README "Publishing" makes it, no test hooks) served under a
 * sub-path, /docs/lab/, by a server that answers nothing outside it. The lab loads with every file
 * from under the sub-path, runs a command, has no window.__netlab, and after its service worker
 * has precached it, a reload with the network gone opens the lab and runs a command again. A lesson
 * permalink opens the lesson at its step (and a reload comes back to it); a bad one says so. A new
 * build's service worker (the same sw.js with another version, as a second build writes it) is
 * announced, and takes over at the next reload, its caches replacing the old ones.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labReady, launchChromium, watchProblems } from './browser.mjs';

const PREFIX = '/docs/lab/';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

let outDir: string;
let server: Server;
let url: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
/** Every request the server saw, and those outside the sub-path or missing. */
const seen: string[] = [];
const refused: string[] = [];
/** Serve sw.js as a second build would write it (another version: another cache name). */
let nextBuild = false;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'ec2-netlab-publish-'));
  const prev = { node: process.env.NODE_ENV, hooks: process.env.VITE_NETLAB_TEST_HOOKS };
  process.env.NODE_ENV = 'production';
  delete process.env.VITE_NETLAB_TEST_HOOKS;
  try {
    await build({ mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = prev.node;
    if (prev.hooks !== undefined) process.env.VITE_NETLAB_TEST_HOOKS = prev.hooks;
  }
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    seen.push(path);
    const file = path.startsWith(PREFIX)
      ? normalize(join(outDir, path.slice(PREFIX.length) || 'index.html'))
      : null;
    if (file === null || !file.startsWith(outDir) || !existsSync(file) || statSync(file).isDirectory()) {
      refused.push(path);
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    if (nextBuild && path === `${PREFIX}sw.js`) {
      res.end(readFileSync(file, 'utf8').replace(/ec2-netlab-([0-9a-f]+)/, 'ec2-netlab-$1-next'));
      return;
    }
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}${PREFIX}`;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  watchProblems(page, problems);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

async function runs(command: string, expected: string): Promise<void> {
  const cmd = page.getByRole('textbox', { name: 'Command' });
  await cmd.fill(command);
  await cmd.press('Enter');
  await page.getByTestId('scrollback').getByText(expected).waitFor({ timeout: 30_000 });
}

describe('publishing under a sub-path', () => {
  it('loads every file from under the sub-path and runs a command; no test hook ships', async () => {
    await page.goto(url);
    await labReady(page, 60_000, { speed: 'auto' });
    // commands that answer at once: no simulated time needed (this build has no test hook to set the speed)
    await runs('ethtool -g eth0', 'Ring parameters for eth0:');
    expect(refused).toEqual([]);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every((p) => p.startsWith(PREFIX))).toBe(true);
    expect(seen).toContain(`${PREFIX}sw.js`);
    expect(seen.some((p) => /\/assets\/sim\.worker-[\w-]+\.js$/.test(p))).toBe(true);
    expect(await page.evaluate(() => 'netlab' in window || '__netlab' in window)).toBe(false);
    // link previews name the lab; the tab names the scenario open
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toMatch(/^ec2-netlab: /);
    expect(await page.locator('meta[property="og:description"]').getAttribute('content')).toMatch(/iperf3/);
    expect(await page.title()).toMatch(/^ec2-netlab: \S/);
    expect(problems).toEqual([]);
  });

  it('after its service worker has cached it, a reload with no network opens the lab', async () => {
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // the first load was not controlled yet: reload once online so the worker serves the page
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 30_000,
    });
    await labReady(page, 60_000, { speed: 'auto' });
    const before = seen.length;
    await context.setOffline(true);
    try {
      await page.reload();
      await labReady(page, 60_000, { speed: 'auto' });
      await runs('ethtool -i eth0', 'driver: ena');
      expect(await page.getByRole('status', { name: 'Simulated time' }).textContent()).toMatch(/ s/);
    } finally {
      await context.setOffline(false);
    }
    // nothing reached the server while offline (the lab opened with the session kept: see below)
    expect(seen.length).toBe(before);
    expect(problems.filter((p) => !/net::ERR_INTERNET_DISCONNECTED/.test(p))).toEqual([]);
  });

  it('a reload keeps the terminal (the session is kept in the browser); Start afresh forgets it', async () => {
    await page.reload();
    await labReady(page, 60_000, { speed: 'auto' });
    const scroll = page.getByTestId('scrollback');
    await scroll.getByText('driver: ena').waitFor({ timeout: 30_000 });
    expect(await scroll.textContent()).toContain('Ring parameters for eth0:');
    const notice = page.getByRole('alert').filter({ hasText: 'Your last session was opened again' });
    await notice.waitFor();
    await notice.getByRole('link', { name: 'Start afresh' }).click();
    await labReady(page, 60_000, { speed: 'auto' });
    expect(page.url()).toBe(url);
    expect(await page.getByTestId('scrollback').textContent()).not.toContain('driver: ena');
    expect(await page.evaluate(() => localStorage.getItem('ec2-netlab:session'))).toBeNull();
  });

  it('a lesson permalink opens the lesson at its step, a reload comes back to it, a bad one says so', async () => {
    await page.goto(`${url}#lesson=flow-setup&step=first-packet`);
    await labReady(page, 60_000, { speed: 'auto' });
    const step = page.getByRole('heading', { name: 'Step 2 of 3: One request, one flow setup' });
    await step.waitFor({ timeout: 30_000 });
    expect(await page.getByRole('combobox', { name: 'Experiment' }).inputValue()).toBe('lesson:flow-setup');
    // it opens on the lesson: no welcome over it, the step's title in view (its panel scrolled to it)
    expect(await page.getByRole('button', { name: 'Got it' }).count()).toBe(0);
    const box = (await step.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    // Share offers the step's own link
    await page.getByRole('button', { name: 'Share' }).click();
    const lessonLink = await page.getByRole('textbox', { name: 'Link to this lesson step' }).inputValue();
    expect(lessonLink).toBe(`${url}#lesson=flow-setup&step=first-packet`);
    expect(await page.getByRole('textbox', { name: 'Link to this run' }).inputValue()).toMatch(
      /&lesson=flow-setup&step=first-packet$/,
    );
    await page.getByRole('button', { name: 'Close' }).click();
    // kept in the browser a second after it changed: the page without a link comes back to it
    await page.waitForFunction(() =>
      localStorage.getItem('ec2-netlab:session')?.includes('lesson=flow-setup'),
    );
    await page.goto(url);
    await labReady(page, 60_000, { speed: 'auto' });
    await page.getByRole('alert').filter({ hasText: 'Your last session was opened again' }).waitFor();
    await step.waitFor({ timeout: 30_000 });
    // a lesson that does not exist: the notice names it, the lab opens and works
    await page.goto(`${url}#lesson=no-such-lesson&step=9`);
    await labReady(page, 60_000, { speed: 'auto' });
    const notice = page.getByRole('alert').filter({ hasText: 'This link was opened with one change' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      'lesson: there is no lesson "no-such-lesson" (lessons: packet-journey,',
    );
    await runs('ethtool -g eth0', 'Ring parameters for eth0:');
    expect(problems.filter((p) => !/net::ERR_INTERNET_DISCONNECTED/.test(p))).toEqual([]);
  });

  it('a new build is announced, and takes over at the next reload', async () => {
    const cacheNames = () => page.evaluate(() => caches.keys());
    const before = await cacheNames();
    expect(before).toHaveLength(1);
    expect(before[0]).toMatch(/^ec2-netlab-[0-9a-f]+$/);
    nextBuild = true;
    try {
      // the browser looks for a new sw.js as the page loads: it installs beside the old one and waits
      await page.goto(url);
      await labReady(page, 60_000, { speed: 'auto' });
      const notice = page.getByRole('alert').filter({ hasText: 'A new version of the lab is ready' });
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.textContent()).toContain('it opens the next time you reload this page');
      // not in the middle of a run: the old worker still serves this page
      expect(await cacheNames()).toContain(before[0]);
      await runs('ethtool -i eth0', 'driver: ena');
      // the reload lets it take over; the old version's cache is deleted
      await page.reload();
      await labReady(page, 60_000, { speed: 'auto' });
      await page.waitForFunction(
        async () => {
          const k = await caches.keys();
          return k.length === 1 && k[0]!.endsWith('-next');
        },
        undefined,
        { timeout: 30_000 },
      );
      expect(await cacheNames()).toEqual([`${before[0]}-next`]);
      // the new version is not announced again
      await page.reload();
      await labReady(page, 60_000, { speed: 'auto' });
      await page.waitForTimeout(1_000);
      expect(await page.getByRole('alert').filter({ hasText: 'A new version' }).count()).toBe(0);
    } finally {
      nextBuild = false;
    }
  });
});
