/**
 * Sharing and embedding in Chromium, on the built site:
 * - a run shared with the Share button (the copied link) reopens in a fresh browser context to the
 *   same iperf3 output, at the same simulated instant;
 * - a link from the oldest schema version (tests/share/links/v1-…) opens to its scenario;
 * - a repaired link lists what it changed; an unreadable one shows the error page, renders none of
 *   the link as HTML, and its "Open the default lab" works;
 * - embed mode hides the chrome, shows only the chosen panels, writes nothing to storage or history;
 * - the postMessage API answers only the origin the link names: a host page on another origin
 *   gets nothing and moves nothing; the named one plays, pauses, seeks and hears the time.
 * Host pages are served on their own origins (http://docs.test, http://evil.test) by page.route.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_PRESET_ID, PRESETS } from '../../src/scenario/presets';
import { shareHash } from '../../src/share/app-link';
import { decodeShareLink } from '../../src/share/codec';
import { base64urlEncode, deflate } from '../../src/share/compress';
import { labReady, launchChromium, playAt, watchProblems } from './browser.mjs';

let browser: Browser;
const problems: string[] = [];
const base = () => inject('baseUrl');

const watch = (page: Page): Page => watchProblems(page, problems);

async function freshPage(opts: { clipboard?: boolean } = {}): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    ...(opts.clipboard ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
  });
  return { ctx, page: watch(await ctx.newPage()) };
}

/** iperf3's end-of-test summary (from the separator line to "iperf Done."). */
function summary(text: string): string {
  const from = text.lastIndexOf('- - - - -');
  const to = text.lastIndexOf('iperf Done.');
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  return text.slice(from, to);
}

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('scenario links', () => {
  it('a run shared with the Share button reopens, in a fresh browser, to the same iperf3 summary', async () => {
    const { ctx, page } = await freshPage({ clipboard: true });
    await page.goto(base());
    await labReady(page);
    const cmd = page.getByRole('textbox', { name: 'Command' });
    await cmd.fill('iperf3 -c server -t 1');
    await cmd.press('Enter');
    const scroll = page.getByTestId('scrollback');
    await scroll.getByText('iperf Done.').waitFor({ timeout: 60_000 });
    // the command that started playback has ended: the lab paused by itself
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 10_000 });
    const text = (await scroll.textContent()) ?? '';
    const shownAt = await page.getByTestId('sim-time').textContent();

    // select the client's TX rings (as a click in the path view does): the link carries it
    await page.evaluate(() => {
      const s = (
        window as unknown as {
          __netlab: {
            store: {
              getState(): { pathLayout: { stages: string[] } };
              setState(f: (st: Record<string, Record<string, unknown>>) => unknown): void;
            };
          };
        }
      ).__netlab.store;
      const stage = s.getState().pathLayout.stages.indexOf('tx_ring');
      s.setState((st) => ({
        selection: { ...st.selection, path: { kind: 'stage', host: 0, stage, queue: 0 } },
      }));
    });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const popover = page.getByRole('region', { name: 'Share this run' });
    await popover.getByRole('status').getByText('Link copied to the clipboard.').waitFor();
    const field = popover.getByRole('textbox', { name: 'Link to this run' });
    const link = await field.inputValue();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(link.startsWith(base())).toBe(true);
    expect(link.length).toBeLessThan(2_000);
    expect(link).toMatch(/&sel=stage:0\/\d+\/0(&|$)/);
    // the field is selected, for a browser that refuses the clipboard
    expect(await field.evaluate((el: HTMLInputElement) => el.selectionEnd! - el.selectionStart!)).toBe(
      link.length,
    );
    await ctx.close();

    const fresh = await freshPage();
    await fresh.page.goto(link);
    await labReady(fresh.page);
    const again = (await fresh.page.getByTestId('scrollback').textContent()) ?? '';
    expect(again).toContain('[ec2-user@client ~]$ iperf3 -c server -t 1');
    expect(summary(again)).toBe(summary(text));
    expect(summary(again)).toMatch(/0\.00-1\.00 +sec +[\d.]+ GBytes +[\d.]+ Gbits\/sec +receiver/);
    expect(await fresh.page.getByTestId('sim-time').textContent()).toBe(shownAt);
    // the selection came back: the stage inspector shows the client's TX rings
    const insp = fresh.page.getByTestId('stage-inspector');
    await insp.waitFor({ timeout: 10_000 });
    expect(await insp.textContent()).toContain('TX rings');
    // the intro is closed for a shared run; no repair notice for a link the lab wrote
    expect(await fresh.page.getByText('This link was opened with').count()).toBe(0);
    await fresh.ctx.close();
    expect(problems).toEqual([]);
  });

  it('a link from the oldest schema version opens to its scenario', async () => {
    const dir = new URL('../share/links/', import.meta.url);
    const oldest = readdirSync(dir)
      .filter((f) => /^v1-.*\.txt$/.test(f))
      .sort()
      .at(-1)!;
    const hash = readFileSync(new URL(oldest, dir), 'utf8').trim();
    const expected = JSON.parse(
      readFileSync(new URL(oldest.replace(/\.txt$/, '.expected.json'), dir), 'utf8'),
    ) as { scenario: { instances: Array<{ name: string }> }; view: { timeNs?: number } };
    expect(hash.startsWith('#v=1&')).toBe(true);
    const { ctx, page } = await freshPage();
    await page.goto(`${base()}${hash}`);
    await labReady(page);
    const names = expected.scenario.instances.map((i) => i.name);
    expect(names.length).toBeGreaterThan(1);
    // the lab was built from the link's scenario (the worker's own list of instances)
    const built = await page.evaluate(() =>
      (
        window as unknown as {
          __netlab: { store: { getState(): { scenario: { instances: Array<{ name: string }> } } } };
        }
      ).__netlab.store
        .getState()
        .scenario.instances.map((i) => i.name),
    );
    expect(built).toEqual(names);
    if (expected.view.timeNs !== undefined)
      expect(await page.getByTestId('sim-time').textContent()).toBe(
        `${(expected.view.timeNs / 1e9).toFixed(6)} s`,
      );
    expect(await page.getByText('This link was opened with').count()).toBe(0);
    await ctx.close();
    expect(problems).toEqual([]);
  });

  it('a repaired link says what it changed, and the notice can be dismissed', async () => {
    const doc = {
      instances: [
        { name: 'client', type: 'c7i.larg' },
        { name: 'server', type: 'c7i.large' },
      ],
    };
    const data = base64urlEncode(deflate(new TextEncoder().encode(JSON.stringify(doc))));
    const { ctx, page } = await freshPage();
    await page.goto(`${base()}#v=4&s=${data}`);
    await labReady(page);
    const notice = page.getByRole('alert').filter({ hasText: 'This link was opened with one change' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      'instances[0].type: unknown instance type "c7i.larg"; replaced by c7i.large',
    );
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByText('This link was opened with').count()).toBe(0);
    await ctx.close();
    expect(problems).toEqual([]);
  });

  it('a corrupted link shows the error page, renders nothing from it, and the way back works', async () => {
    const { ctx, page } = await freshPage();
    // a damaged payload carrying markup: it must never become elements
    await page.goto(`${base()}#v=4&s=PGltZyBzcmM9eCBvbmVycm9yPWFsZXJ0KDEpPg&sel=<b>x</b>`);
    const heading = page.getByRole('heading', { name: 'This link could not be read' });
    await heading.waitFor();
    const reason = (await page.getByTestId('link-error').textContent()) ?? '';
    expect(reason).toMatch(/^This link could not be read: the compressed data is damaged/);
    expect(await page.locator('img, b, script:not([src])').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Command' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Open the default lab' }).click();
    await labReady(page);
    expect(new URL(page.url()).hash).toBe('');
    expect(await page.getByRole('heading', { name: 'This link could not be read' }).count()).toBe(0);
    await ctx.close();
    expect(problems).toEqual([]);
  });
});

/** The clock's text ("12.345678 s", "61 min 02.500000 s") in seconds. */
function clockSeconds(text: string | null): number {
  const m = /^(?:(\d+) min )?([\d.]+) s$/.exec(text ?? '');
  if (!m) throw new Error(`not a clock reading: ${text}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

describe('a link with a long time', () => {
  it('shows how far the run to its time got, and Cancel stops there with the lab usable and nothing lost', async () => {
    const preset = PRESETS.find((p) => p.id === DEFAULT_PRESET_ID)!;
    // an hour-long iperf3 typed at 0 and a link at its end: minutes of model time to get there
    const line = 'iperf3 -c server -t 3600';
    const hash = shareHash(preset.scenario, [{ atNs: 0, kind: 'line', line }], { timeNs: 3600e9 });
    const { ctx, page } = await freshPage({ clipboard: true });
    await page.goto(`${base()}${hash}`);
    const progress = page.getByTestId('run-progress');
    await progress.waitFor({ timeout: 60_000 });
    // it moves (≥ 1 %), while the rest of the lab waits for it
    await page.waitForFunction(
      () => /: [1-9]\d* %/.test(document.querySelector('[data-testid=run-progress]')?.textContent ?? ''),
      undefined,
      { timeout: 60_000 },
    );
    expect(await progress.textContent()).toMatch(/^Running to t = 60 min 00\.000000 s: \d+ %/);
    // said once to a screen reader (the bar itself is not a live region: no chatter per percent)
    expect(await page.getByRole('log', { name: 'What changed' }).textContent()).toBe(
      'Running to t = 60 min 00.000000 s; Cancel stops where it has got to',
    );
    expect(await page.getByRole('button', { name: 'Play', exact: true }).isDisabled()).toBe(true);
    const bar = page.getByRole('progressbar', { name: /^Running to t = 60 min 00\.000000 s/ });
    expect(Number(await bar.getAttribute('value'))).toBeGreaterThanOrEqual(1);

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await progress.waitFor({ state: 'detached', timeout: 10_000 });
    await labReady(page);
    const stoppedText = await page.getByTestId('sim-time').textContent();
    const stoppedAt = clockSeconds(stoppedText);
    expect(await page.getByRole('log', { name: 'What changed' }).textContent()).toBe(
      `Stopped at ${stoppedText} (the link's time is 60 min 00.000000 s): press Play to go on`,
    );
    expect(stoppedAt).toBeGreaterThanOrEqual(36);
    expect(stoppedAt).toBeLessThan(3600);
    // the run stopped: the clock stays where Cancel left it
    await page.waitForTimeout(500);
    expect(clockSeconds(await page.getByTestId('sim-time').textContent())).toBe(stoppedAt);
    expect(await page.getByTestId('scrollback').textContent()).toContain(`$ ${line}`);

    // nothing lost: the link made now has the session and the instant reached
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const link = await page.getByRole('textbox', { name: 'Link to this run' }).inputValue();
    const again = decodeShareLink(
      new URL(link).hash,
      Object.fromEntries(PRESETS.map((p) => [p.id, p.scenario])),
    );
    if (!again.ok) throw new Error(again.error.message);
    expect(again.scenario.session).toEqual([{ atNs: 0, line }]);
    expect(Math.abs((again.view.timeNs ?? 0) / 1e9 - stoppedAt)).toBeLessThan(0.001);
    await page.keyboard.press('Escape');

    // usable there: Play runs the model on from that instant (the hour-long iperf3 is still running)
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(
      (t) => {
        const s = document.querySelector('[data-testid=sim-time]')?.textContent ?? '';
        const m = /^(?:(\d+) min )?([\d.]+) s$/.exec(s);
        return m !== null && Number(m[1] ?? 0) * 60 + Number(m[2]) > t + 0.05;
      },
      stoppedAt,
      { timeout: 30_000 },
    );
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await ctx.close();
    expect(problems).toEqual([]);
  });
});

describe('embed mode', () => {
  it('hides the chrome, shows only the chosen panels, and writes nothing to storage or history', async () => {
    const { ctx, page } = await freshPage();
    await page.goto(`${base()}#embed=1&panels=path,lessons&controls=minimal`);
    const historyAtLoad = await page.evaluate(() => history.length);
    await page.locator('[data-embed="1"]').waitFor();
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await page.waitForFunction(
      () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
    );
    // no header, intro, experiment picker, Share, terminal or charts
    // (the embed's own heading, for screen readers, is visually hidden: "ec2-netlab: EC2 networking lab")
    expect(await page.getByRole('heading', { name: 'ec2-netlab', exact: true }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Experiment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Share' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'What you are looking at' }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Command' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Charts' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Packet path' }).count()).toBeGreaterThan(0);
    // minimal controls: play/pause, the clock and a speed menu; no speed slider or run-until
    expect(await page.getByRole('slider', { name: 'Speed' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Speed' }).count()).toBe(1);
    const full = page.getByRole('link', { name: /Open in the full lab/ });
    expect(await full.getAttribute('target')).toBe('_blank');
    const fullHash = new URL((await full.getAttribute('href')) ?? '').hash;
    expect(fullHash).not.toMatch(/embed|controls|panels|origin/);

    // what would write progress in the full lab: start a lesson and move to its second step
    const lessons = page.getByRole('region', { name: 'Lessons' });
    await lessons.getByRole('button').first().click();
    const step2 = page.getByRole('button', { name: /^Step 2/ });
    await step2.waitFor();
    await page.waitForFunction(
      () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
    );
    await step2.click();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => {
      const t = document.querySelector('[data-testid=sim-time]')?.textContent ?? '';
      return Number(t.replace(/[^0-9.]/g, '')) > 0.01;
    });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const storage = await page.evaluate(() => ({
      local: localStorage.length,
      session: sessionStorage.length,
      history: history.length,
      hash: location.hash,
    }));
    expect(storage).toEqual({
      local: 0,
      session: 0,
      history: historyAtLoad,
      hash: '#embed=1&panels=path,lessons&controls=minimal',
    });

    // "Open in the full lab": a new tab with this run (the lesson's scenario, the time) and the chrome
    const [tab] = await Promise.all([ctx.waitForEvent('page'), full.click()]);
    watch(tab);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).hash).not.toMatch(/embed|controls|panels|origin/);
    await labReady(tab);
    await tab.getByRole('heading', { name: 'ec2-netlab' }).waitFor();
    expect(await tab.getByTestId('sim-time').textContent()).toBe(
      await page.getByTestId('sim-time').textContent(),
    );
    await ctx.close();
    expect(problems).toEqual([]);
  });
});

/**
 * The example host page (public/embed-example.html) on the second origin (127.0.0.1 where the lab
 * is localhost: both loopback, so Chromium lets one frame the other), framing the lab; `named` is
 * the origin the frame's link names (default: the host page's own). Messages it receives are
 * recorded in window.msgs.
 */
async function openHost(named?: string): Promise<{ ctx: BrowserContext; page: Page; lab: Frame }> {
  const labUrl = base();
  const hostBase = labUrl.replace('//localhost:', '//127.0.0.1:');
  expect(new URL(hostBase).origin).not.toBe(new URL(labUrl).origin);
  const { ctx, page } = await freshPage();
  await page.addInitScript(() => {
    if (!location.pathname.endsWith('/embed-example.html')) return;
    const w = window as unknown as { msgs: unknown[] };
    w.msgs = [];
    window.addEventListener('message', (ev) => w.msgs.push({ origin: ev.origin, data: ev.data }));
  });
  const q = new URLSearchParams({ lab: labUrl, ...(named ? { origin: named } : {}) });
  await page.goto(`${hostBase}embed-example.html?${q}`);
  const el = await page.waitForSelector('#lab');
  const lab = await el.contentFrame();
  if (!lab) throw new Error('no lab frame');
  await lab.waitForSelector('[data-embed="1"]', { timeout: 30_000 });
  await lab.waitForFunction(
    () => !document.querySelector('button[aria-label="Play"]')?.hasAttribute('disabled'),
  );
  // the host page's Play is waited for in simulated time: 1 s/s, not auto's packet-watching speed
  await playAt(lab, 1e9);
  return { ctx, page, lab };
}

type Msg = {
  origin: string;
  data: {
    ns?: string;
    type: string;
    timeNs?: number;
    px?: number;
    counters?: Record<string, Record<string, number>>;
  };
};
const msgs = (page: Page) => page.evaluate(() => (window as unknown as { msgs: Msg[] }).msgs);
/** Wait until the host page has heard a message for which `test` (an expression of m and a) holds. */
const heard = async (page: Page, test: string, arg?: unknown) => {
  // evaluated here, not in the page: the example page's CSP refuses eval (new Function)
  const f = new Function('m', 'a', `return ${test}`) as (m: Msg, a: unknown) => boolean;
  const until = Date.now() + 60_000;
  for (;;) {
    if ((await msgs(page)).some((m) => f(m, arg))) return;
    if (Date.now() > until) throw new Error(`the host page never heard: ${test}`);
    await page.waitForTimeout(50);
  }
};

const clockAt = (lab: Frame, text: string) =>
  lab.waitForFunction((t) => document.querySelector('[data-testid=sim-time]')?.textContent === t, text, {
    timeout: 30_000,
  });

describe('the postMessage API', () => {
  it("a link the host page loads opens at the link's time, as opening it does", async () => {
    const { ctx, page, lab } = await openHost();
    await heard(page, "m.data.type === 'ready'");
    const preset = PRESETS.find((p) => p.id === DEFAULT_PRESET_ID)!;
    const link = shareHash(preset.scenario, [{ atNs: 0, kind: 'line', line: 'iperf3 -c server -t 1' }], {
      timeNs: 500_000_000,
    });
    const labOrigin = new URL(base()).origin;
    const load = (l: string) =>
      page.evaluate(
        ([l, o]) =>
          (document.getElementById('lab') as HTMLIFrameElement).contentWindow!.postMessage(
            { ns: 'ec2-netlab', v: 1, type: 'load', link: l },
            o!,
          ),
        [l, labOrigin] as const,
      );
    // first a link an hour in: it runs there with its progress bar
    await load(
      shareHash(preset.scenario, [{ atNs: 0, kind: 'line', line: 'iperf3 -c server -t 3600' }], {
        timeNs: 3600e9,
      }),
    );
    await lab.getByTestId('run-progress').waitFor({ timeout: 30_000 });
    // a second load replaces that lab: the first run stops, the new link runs to its own time
    await load(link);
    await clockAt(lab, '0.500000 s');
    await lab.getByTestId('run-progress').waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForTimeout(500);
    expect(await lab.getByTestId('sim-time').textContent()).toBe('0.500000 s');
    expect((await msgs(page)).filter((m) => m.data.type === 'loaded')).toHaveLength(2);
    await heard(page, "m.data.type === 'time' && m.data.timeNs === 500000000");
    // the session ran to there: the client has sent (the counters the host hears say so)
    await heard(page, "m.data.type === 'counters' && (m.data.counters?.client?.queue_0_tx_cnt ?? 0) > 0");
    await lab.getByRole('button', { name: 'Play', exact: true }).waitFor();
    expect(await lab.getByRole('button', { name: 'Play', exact: true }).isDisabled()).toBe(false);
    await ctx.close();
    expect(problems).toEqual([]);
  });

  it('ignores a host page on another origin than the one the link names', async () => {
    const { ctx, page, lab } = await openHost(new URL(base()).origin);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Seek to 1 s' }).click();
    await page.waitForTimeout(1_000);
    expect(await lab.getByTestId('sim-time').textContent()).toBe('0.000000 s');
    expect(await lab.getByRole('button', { name: 'Play', exact: true }).count()).toBe(1);
    // the lab posts only to the origin it was given: this page hears nothing, not even "ready"
    expect(await msgs(page)).toEqual([]);
    expect(await page.locator('#time').textContent()).toBe('–');
    await ctx.close();
    expect(problems).toEqual([]);
  });

  it('answers the named origin: ready, play and time events, pause, seek, height', async () => {
    const { ctx, page, lab } = await openHost();
    const labOrigin = new URL(base()).origin;
    await heard(page, "m.data.type === 'ready'");
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await heard(page, "m.data.type === 'time' && m.data.timeNs > 20000000");
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await lab.getByRole('button', { name: 'Play', exact: true }).waitFor();
    const pausedAt = await lab.getByTestId('sim-time').textContent();
    await page.waitForTimeout(300);
    expect(await lab.getByTestId('sim-time').textContent()).toBe(pausedAt);

    await page.getByRole('button', { name: 'Seek to 1 s' }).click();
    await heard(page, "m.data.type === 'time' && m.data.timeNs === 1000000000");
    await clockAt(lab, '1.000000 s');
    expect(await page.locator('#time').textContent()).toBe('1.000 s');
    const all = await msgs(page);
    expect(all.every((m) => m.origin === labOrigin && m.data.ns === 'ec2-netlab')).toBe(true);
    expect(all.some((m) => m.data.type === 'height' && (m.data.px ?? 0) > 100)).toBe(true);
    expect(all.some((m) => m.data.type === 'counters')).toBe(true);

    // not addressed to the lab (no ns): ignored; addressed but malformed: answered with an error
    await page.evaluate(() => {
      const f = (document.getElementById('lab') as HTMLIFrameElement).contentWindow!;
      f.postMessage({ type: 'play' }, '*');
      f.postMessage({ ns: 'ec2-netlab', v: 1, type: 'seek', timeNs: -5 }, '*');
    });
    await heard(page, "m.data.type === 'error'");
    // a well-formed play from another window of another origin on the same page (a second frame,
    // of the lab's own origin, not the named one): ignored
    const other = await page.evaluate((src) => {
      const f = document.createElement('iframe');
      f.src = src;
      f.id = 'other';
      document.body.append(f);
      return new Promise<string>((resolve) => f.addEventListener('load', () => resolve(f.src)));
    }, new URL('favicon.svg', base()).href);
    const otherFrame = page.frames().find((f) => f.url() === other);
    if (!otherFrame) throw new Error('no second frame');
    await otherFrame.evaluate(() => {
      parent.frames[0]!.postMessage({ ns: 'ec2-netlab', v: 1, type: 'play' }, '*');
    });
    await page.waitForTimeout(500);
    expect(await lab.getByTestId('sim-time').textContent()).toBe('1.000000 s');
    expect(await lab.getByRole('button', { name: 'Play', exact: true }).count()).toBe(1);

    // load a scenario with a session (iperf3 with 128-byte segments at t = 0), play: the PPS
    // allowance is what limits it, and the counters the host hears say so
    await page.getByRole('button', { name: 'Load: small packets (PPS limit)' }).click();
    await heard(page, "m.data.type === 'loaded'");
    await clockAt(lab, '0.000000 s');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await heard(
      page,
      "m.data.type === 'counters' && (m.data.counters?.client?.pps_allowance_exceeded ?? 0) > 0",
      undefined,
    );
    await ctx.close();
    expect(problems).toEqual([]);
  });
});
