/**
 * The packet list in the page at a million rows (issue 16), for tests/bench/ui.mjs: `iperf3 -c
 * server -t 3 -P 2` played at the top speed fills the capture ring (2^20 rows held), then in the
 * expanded Packets tab: a display filter from Enter to its rows shown; jumps to places spread over
 * the million rows (scroll, then the rows there drawn: a page asked of the worker); a continuous
 * scroll of 3 rows a frame for 240 frames (frame intervals, frames showing a row still loading, the
 * rows in the DOM). Never throws to the caller: ui.mjs's part() catches.
 */

/**
 * Open the lab at `url` in `page` and wait until its Command box takes input; the box.
 * @param {import('playwright-core').Page} page @param {string} url
 */
export async function openLab(page, url) {
  await page.goto(url);
  const cmd = page.getByRole('textbox', { name: 'Command' });
  await cmd.waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    () => !document.querySelector('input[aria-label="Command"]')?.hasAttribute('disabled'),
    null,
    { timeout: 60_000 },
  );
  return cmd;
}

/** @param {import('playwright-core').Browser} browser @param {string} url @param {(s: string) => void} progress */
export async function packetListPageBench(browser, url, progress) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await ctx.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    const cmd = await openLab(page, url);
    const speed = page.getByRole('slider', { name: 'Speed' });
    await speed.focus();
    await speed.press('End');
    progress('packet list page: filling the capture (iperf3 -c server -t 3 -P 2 at the top speed)…');
    await cmd.fill('iperf3 -c server -t 3 -P 2');
    await cmd.press('Enter');
    await page
      .getByTestId('scrollback')
      .getByText(/iperf Done/)
      .waitFor({ timeout: 5 * 60_000 });
    await page
      .getByRole('button', { name: /Pause/ })
      .click()
      .catch(() => {});
    await page.getByRole('tab', { name: 'Packets' }).click();
    // (at 1280x800 it opens expanded; elsewhere Expand does it)
    await page.getByRole('button', { name: /^(Expand ⤢|Back to the side)$/ }).waitFor();
    if (await page.getByRole('button', { name: 'Expand ⤢' }).count())
      await page.getByRole('button', { name: 'Expand ⤢' }).click();
    const status = page.locator('.packets-status');
    await page.waitForFunction(
      () => /^1,048,576 rows/.test(document.querySelector('.packets-status')?.textContent ?? ''),
      null,
      {
        timeout: 60_000,
      },
    );
    const rowsHeld = Number(((await status.textContent()) ?? '').split(' ')[0].replace(/,/g, ''));

    // filters: Enter → the status names the match count
    const filter = page.getByRole('combobox', { name: 'Display filter' });
    const filters = [];
    for (const f of [
      'tcp.flags.syn == 1 || drop',
      'tcp.port == 5201 && ip.src == 10.0.0.10',
      'frame.len > 1000 && host == server',
      '',
    ]) {
      progress(`packet list page: filter ${JSON.stringify(f)}…`);
      await filter.fill(f);
      const t0 = await page.evaluate(() => performance.now());
      await filter.press('Enter');
      await page.waitForFunction(
        (want) =>
          document.querySelector('.packets-status')?.getAttribute('data-filter') === want &&
          !document.querySelector('.packet-row.loading'),
        f,
        { timeout: 60_000 },
      );
      const ms = (await page.evaluate(() => performance.now())) - t0;
      filters.push({ filter: f, ms, status: (await status.textContent()) ?? '' });
    }

    // jumps: scroll to places spread over the list, until the rows there are drawn
    progress('packet list page: jumps…');
    const jumps = await page.evaluate(async () => {
      const el = document.querySelector('.packet-scroll');
      const out = [];
      const max = el.scrollHeight - el.clientHeight;
      for (let k = 0; k < 20; k++) {
        const target = Math.round((((k * 7919) % 20) / 20) * max) + 37;
        const before = document.querySelector('.packet-row:not(.loading) [role=gridcell]')?.textContent;
        const t0 = performance.now();
        el.scrollTop = target;
        el.dispatchEvent(new Event('scroll'));
        await new Promise((resolve) => {
          const check = () => {
            const first = document.querySelector('.packet-row [role=gridcell]')?.textContent;
            if (!document.querySelector('.packet-row.loading') && first !== before) resolve(undefined);
            else if (performance.now() - t0 > 10_000) resolve(undefined);
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        });
        out.push(performance.now() - t0);
      }
      return out;
    });

    // a continuous scroll: 3 rows a frame
    progress('packet list page: continuous scroll…');
    const scroll = await page.evaluate(async () => {
      const el = document.querySelector('.packet-scroll');
      el.scrollTop = Math.round((el.scrollHeight - el.clientHeight) / 3);
      el.dispatchEvent(new Event('scroll'));
      await new Promise((r) => setTimeout(r, 500));
      const intervals = [];
      let loadingFrames = 0;
      let maxRows = 0;
      let last = performance.now();
      for (let f = 0; f < 240; f++) {
        el.scrollTop += 60;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        intervals.push(now - last);
        last = now;
        if (document.querySelector('.packet-row.loading')) loadingFrames++;
        maxRows = Math.max(maxRows, document.querySelectorAll('.packet-row').length);
      }
      return { intervals, loadingFrames, frames: 240, maxRows };
    });
    return { rowsHeld, filters, jumpsMs: jumps, scroll, problems };
  } finally {
    await ctx.close();
  }
}
