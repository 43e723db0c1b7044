// Launch Debian's Chromium through playwright-core (never `npx playwright install`), as docs/toolchain.md shows.
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchChromium = (extra = []) =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extra],
  });

/** Collect the page's uncaught errors and console errors into `problems` (a test expects none). */
export function watchProblems(page, problems) {
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return page;
}

/**
 * The lab is ready: loaded (and any link replayed), the Command prompt enabled. Then, unless
 * `speed` is 'auto', the play speed is set to `speed` (default 1 s/s, as moving the Speed slider
 * there does): tests that wait for a command to end do not play at auto speed, which follows the
 * packets at about 24 µs/s.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} where
 * @param {number} [timeout]
 * @param {{ speed?: number | 'auto' }} [opts]
 */
export async function labReady(where, timeout = 60_000, { speed = 1e9 } = {}) {
  await where.waitForFunction(
    () => {
      const i = document.querySelector('input[aria-label="Command"]');
      return i !== null && !i.hasAttribute('disabled');
    },
    undefined,
    { timeout },
  );
  if (speed !== 'auto') await playAt(where, speed);
}

/** Set a play speed of one's own (simulated ns per wall second), as the Speed slider does: auto off. */
export async function playAt(where, nsPerS) {
  await where.evaluate((v) => {
    const s = window.__netlab.store;
    s.setState({ playback: { ...s.getState().playback, speedMode: 'manual', speedNsPerS: v } });
  }, nsPerS);
}
