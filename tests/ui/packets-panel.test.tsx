/**
 * The packet list panel in the DOM (src/ui/packets/packets-panel.tsx) over the worker's own
 * SimService in this process: only the rows in view are in the DOM; a filter that does not parse
 * turns the box red with Wireshark's message and leaves the list as it was; Enter applies a good
 * one; a click selects a row, shows its layers and selects its packet in the path; the arrow keys
 * move the selection; a scroll far down shows the rows there.
 */
import { act } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LabController } from '../../src/sim-client/lab-controller';
import { type AppStore, createAppStore, patch } from '../../src/state/app-store';
import { PRESETS } from '../../src/scenario/presets';
import { PacketsPanel, viewport } from '../../src/ui/packets/packets-panel';
import { SimService } from '../../workers/sim-service';
import { mount as mountNode } from './mount';

let el: HTMLDivElement | null = null;

let service: SimService;
beforeAll(() => {
  service = new SimService();
  expect(service.load(PRESETS[0]!.scenario).ok).toBe(true);
  expect(service.submit('iperf3 -c server -n 30M > /dev/null')).toBe(true);
  for (let t = 1; t <= 60; t++) service.advance({ toNs: t * 1e6, maxEvents: 1e7 });
});

/** packetList requests the panel made since the last mount. */
let asked = 0;

function mount() {
  asked = 0;
  const store: AppStore = createAppStore({ presetId: 'exp1', doc: PRESETS[0]!.scenario });
  patch(store, 'scenario', {
    instances: [
      {
        name: 'client',
        type: 'c7i.large',
        ip: '10.0.0.10',
        ppsAllowance: 1,
        ppsAllowanceProvenance: 'assumed',
      },
      {
        name: 'server',
        type: 'c7i.large',
        ip: '10.0.0.11',
        ppsAllowance: 1,
        ppsAllowanceProvenance: 'assumed',
      },
    ],
  });
  const calls: string[] = [];
  const lab = new Proxy({} as LabController, {
    get: (_, k) => {
      if (k === 'then') return undefined;
      if (k === 'packetList')
        return async (r: Parameters<SimService['packetList']>[0]) => {
          asked++;
          return service.packetList(r);
        };
      if (k === 'packetDetails') return async (no: number) => service.packetDetails(no);
      if (k === 'packetExport') return async () => ({ ok: false, error: 'not here' });
      return async (...a: unknown[]) => {
        calls.push(`${String(k)} ${JSON.stringify(a)}`);
      };
    },
  });
  el = mountNode(<PacketsPanel />, { store, lab });
  return { calls, store };
}

const settle = (ms = 0) =>
  act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });
const q = <T extends Element = HTMLElement>(sel: string) => el!.querySelector<T>(sel)!;
const rowsInDom = () => [...el!.querySelectorAll<HTMLElement>('.packet-row')];
const noOf = (r: HTMLElement) => Number(r.querySelector('[role=gridcell]')!.textContent);
const type = (input: HTMLInputElement, v: string) =>
  act(() => {
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    set.call(input, v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
const key = (target: Element, k: string) =>
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
  });

describe('packets panel while the clock runs', () => {
  /** Frames every 100 ms of wall time for 1.1 s, each a millisecond later; the list's requests. */
  async function asksWhileRunning(store: AppStore): Promise<number> {
    await settle(50);
    const before = asked;
    for (let i = 1; i <= 11; i++) {
      act(() => patch(store, 'playback', { nowNs: 60e6 + i * 1e6 }));
      await settle(100);
    }
    return asked - before;
  }

  it('asks for its rows about four times a second while playing', async () => {
    const { store } = mount();
    act(() => patch(store, 'playback', { playing: true }));
    expect(await asksWhileRunning(store)).toBeGreaterThanOrEqual(4);
  });

  it('once a second in a fast-forward (a run to an instant: each answer writes captured rows in the worker)', async () => {
    const { store } = mount();
    act(() =>
      patch(store, 'playback', { runTo: { fromNs: 0, toNs: 600e9, startedMs: performance.now(), pace: [] } }),
    );
    expect(await asksWhileRunning(store)).toBeLessThanOrEqual(2);
  });
});

describe('packets panel', () => {
  it('puts only the rows in view in the DOM, following the newest', async () => {
    mount();
    await settle(50);
    const total = service.packetList({
      filter: '',
      host: null,
      window: { kind: 'all' },
      offset: 0,
      limit: 0,
    });
    expect(total.ok && total.matched).toBeGreaterThan(3000);
    const rows = rowsInDom();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThanOrEqual(17);
    // following: the last row recorded is the last in view
    expect(noOf(rows.at(-1)!)).toBe(total.ok ? total.recorded : -1);
    expect(q('.packets-status').textContent).toMatch(/^[\d,]+ rows · the capture keeps up to 1,048,576 rows/);
    expect(q('[role=grid]').getAttribute('aria-rowcount')).toBe(String((total.ok ? total.matched : 0) + 1));
  });

  it('a bad filter turns the box red with the reason; Enter applies a good one', async () => {
    mount();
    await settle(50);
    const before = rowsInDom().map(noOf);
    const input = q<HTMLInputElement>('input[aria-label="Display filter"]');
    type(input, 'tcp.port == 5201 && ip.sr == 1');
    key(input, 'Enter');
    await settle(50);
    expect(q('.dfilter').className).toContain('invalid');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(q('#packets-filter-msg').textContent).toContain(
      '"ip.sr" is not a valid protocol or protocol field.',
    );
    expect(q('.dfilter-where mark').textContent).toBe('ip.sr');
    expect(rowsInDom().map(noOf)).toEqual(before);
    type(input, 'tcp.flags.syn == 1');
    expect(q('.dfilter').className).toContain('pending');
    key(input, 'Enter');
    await settle(300);
    expect(q('.dfilter').className).toContain('valid');
    const rows = rowsInDom();
    // SYN and SYN-ACK, each seen sent and received
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => /\[SYN/.test(r.textContent ?? ''))).toBe(true);
    expect(q('.packets-status').textContent).toMatch(/^4 of [\d,]+ rows match/);
  });

  it('a click selects a row, shows its layers and selects its packet in the path; arrows move on', async () => {
    const { calls } = mount();
    await settle(50);
    const input = q<HTMLInputElement>('input[aria-label="Display filter"]');
    type(input, 'tcp.len > 0 && host == client');
    key(input, 'Enter');
    await settle(300);
    const first = rowsInDom()[0]!;
    act(() => first.click());
    await settle(50);
    expect(first.getAttribute('aria-selected')).toBe('true');
    const grid = q('[role=grid]');
    expect(grid.getAttribute('aria-activedescendant')).toBe(`pkt-row-${noOf(first)}`);
    const titles = [...el!.querySelectorAll('.packet-tree summary')].map((s) => s.textContent);
    expect(titles[3]).toMatch(
      /^Transmission Control Protocol, Src Port: 45000, Dst Port: 5201, Seq: \d+, Ack: 1, Len: 8949$/,
    );
    expect(calls.find((c) => c.startsWith('select'))).toMatch(
      /^select \[\{"kind":"packet","id":-1,"flow":\d+,"seq":\d+,"count":1\}\]$/,
    );
    const next = rowsInDom()[1]!;
    key(grid, 'ArrowDown');
    await settle(50);
    expect(grid.getAttribute('aria-activedescendant')).toBe(`pkt-row-${noOf(next)}`);
    expect(q('.packet-details h3').textContent).toContain(`Packet ${noOf(next)},`);
    // Apply as Filter on the TCP stream index
    const apply = q<HTMLButtonElement>('button[aria-label^="Apply as filter: tcp.stream == "]');
    act(() => apply.click());
    await settle(300);
    expect(q<HTMLInputElement>('input[aria-label="Display filter"]').value).toMatch(/^tcp\.stream == \d+$/);
    expect(q('.dfilter').className).toContain('valid');
    expect(q('.packets-status').textContent).toMatch(/ rows match/);
  });

  it('a scroll far down shows the rows there, asked for a page at a time', async () => {
    mount();
    await settle(50);
    const input = q<HTMLInputElement>('input[aria-label="Display filter"]');
    type(input, 'host == server');
    key(input, 'Enter');
    await settle(300);
    const all = service.packetList({
      filter: 'host == server',
      host: null,
      window: { kind: 'all' },
      offset: 1000,
      limit: 1,
    });
    if (!all.ok) throw new Error(all.error);
    const scroller = q<HTMLDivElement>('.packet-scroll');
    act(() => {
      scroller.scrollTop = 1000 * 20;
      scroller.dispatchEvent(new Event('scroll'));
    });
    await settle(300);
    expect(q<HTMLInputElement>('.packets-controls input[type=checkbox]').checked).toBe(false);
    expect(noOf(rowsInDom()[0]!)).toBe(all.rows[0]!.no);
  });

  it('another lab: the selection and an instance it lacks are let go', async () => {
    const { store } = mount();
    await settle(50);
    const host = q<HTMLSelectElement>('.packets-controls select');
    act(() => {
      const set = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!;
      set.call(host, 'server');
      host.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle(300);
    act(() => rowsInDom()[0]!.click());
    await settle(50);
    expect(el!.querySelector('.packet-details')).not.toBeNull();
    act(() =>
      patch(store, 'scenario', {
        instances: [
          {
            name: 'a',
            type: 'c7i.large',
            ip: '10.0.0.20',
            ppsAllowance: 1,
            ppsAllowanceProvenance: 'assumed',
          },
        ],
      }),
    );
    await settle(50);
    expect(el!.querySelector('.packet-details')).toBeNull();
    expect(q<HTMLSelectElement>('.packets-controls select').value).toBe('');
  });

  it("the charts' zoomed window narrows the list to its packets", async () => {
    const { store } = mount();
    await settle(50);
    const win = el!.querySelectorAll<HTMLSelectElement>('.packets-controls select')[1]!;
    expect(win.querySelector<HTMLOptionElement>('option[value=charts]')!.disabled).toBe(true);
    act(() => patch(store, 'selection', { zoom: [10e6, 12e6] }));
    expect(win.querySelector<HTMLOptionElement>('option[value=charts]')!.disabled).toBe(false);
    act(() => {
      const set = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!;
      set.call(win, 'charts');
      win.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle(300);
    const want = service.packetList({
      filter: '',
      host: null,
      window: { kind: 'range', fromNs: 10e6, toNs: 12e6 },
      offset: 0,
      limit: 0,
    });
    expect(want.ok && want.matched).toBeGreaterThan(0);
    expect(q('.packets-status').textContent).toMatch(
      new RegExp(`^${(want.ok ? want.matched : 0).toLocaleString('en-US')} rows`),
    );
    const times = rowsInDom().map((r) => Number(r.querySelectorAll('[role=gridcell]')[1]!.textContent));
    expect(times.every((t) => t >= 0.01 && t <= 0.012)).toBe(true);
  });

  it('Expand lays the list over the workbench; Escape puts it back', async () => {
    mount();
    await settle(50);
    const expand = [...el!.querySelectorAll('button')].find((b) => b.textContent === 'Expand ⤢')!;
    // in the side column the tab names it; laid over the lab, a title does, with the way back
    expect(el!.querySelector('.packets h2')).toBeNull();
    act(() => expand.click());
    expect(q('.packets').className).toContain('wide');
    expect(expand.getAttribute('aria-pressed')).toBe('true');
    expect(q('.packets h2').textContent).toMatch(
      /^Packet list .*Esc or “Back to the side” returns to the lab$/,
    );
    key(q('[role=grid]'), 'Escape');
    expect(q('.packets').className).not.toContain('wide');
    expect(el!.querySelector('.packets h2')).toBeNull();
  });

  it('a million rows: the scrollbar is scaled under the browsers’ height cap, the ends reachable', () => {
    const v = viewport(1_000_000, 0, 400);
    expect(v.virt).toBe(8_000_000);
    expect(v.first).toBe(0);
    const end = viewport(1_000_000, v.virt - 400, 400);
    expect(end.first + end.count).toBe(1_000_000);
    expect(end.top(999_999) + 20).toBeCloseTo(v.virt, 0);
    const mid = viewport(1_000_000, v.scrollFor(500_000), 400);
    expect(mid.first).toBe(500_000);
    // a list that got shorter than the scroll position: its rows from the first (4 rows, not 2)
    const short = viewport(6, 40, 200);
    expect([short.first, short.count, short.top(0)]).toEqual([0, 6, 0]);
  });
});
