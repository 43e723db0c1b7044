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

/** The lab is ready: loaded (and any link replayed), the Command prompt enabled. */
export async function labReady(where, timeout = 60_000) {
  await where.waitForFunction(
    () => {
      const i = document.querySelector('input[aria-label="Command"]');
      return i !== null && !i.hasAttribute('disabled');
    },
    undefined,
    { timeout },
  );
}
