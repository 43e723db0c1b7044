/**
 * The Share popover in happy-dom, with a fake Sharing: the link is copied when the browser allows
 * it and shown (selected) in a read-only field when it does not; "Copy embed code" shows the
 * snippet for the chosen options and reports a bad origin in words; Escape closes the popover; a
 * repaired link's notice lists the changes as text and can be dismissed.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatLinkSeconds, parseLinkTime } from '../../src/share/codec';
import type { LabController } from '../../src/sim-client/lab-controller';
import { type AppStore, createAppStore, patch } from '../../src/state/app-store';
import { type Sharing, SharingContext } from '../../src/ui/context';
import { LinkChangesNotice, ShareButton, SharedScenarioBox } from '../../src/ui/share-panel';
import { mount } from './mount';

const LINK = 'https://lab.example/#v=4&s=q1YqTi0uzszPU7KKrlZKLPErVrIyNDI2M&t=1s';
const asked: unknown[] = [];
const sharing: Sharing = {
  link: () => LINK,
  embedCode: (opts) => {
    asked.push(opts);
    if (opts.origin === 'docs')
      throw new Error('embedUrl: "docs" is not an origin like https://docs.example.com');
    return `<iframe src="${LINK}&amp;embed=1"></iframe>`;
  },
  fullLabLink: () => LINK,
  lessonLink: () =>
    store.getState().env.lesson ? 'https://lab.example/#lesson=flow-setup&step=keepalive' : null,
  formatTime: formatLinkSeconds,
  parseTime: parseLinkTime,
};

let el: HTMLDivElement;
let store: AppStore;
let copied: string[] = [];

function render(node: React.ReactNode) {
  el = mount(<SharingContext.Provider value={sharing}>{node}</SharingContext.Provider>, {
    store,
    lab: {} as LabController,
  });
}

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  });
const button = (name: string) => {
  const b = [...el.querySelectorAll('button')].find((x) => x.textContent?.trim() === name);
  if (!b) throw new Error(`no button ${name}`);
  return b as HTMLButtonElement;
};
const click = async (b: HTMLElement) => {
  await act(async () => b.click());
  await settle();
};
const status = () => [...el.querySelectorAll('[role=status]')].map((s) => s.textContent ?? '');

function clipboard(allow: boolean) {
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: allow
      ? {
          writeText: async (t: string) => {
            copied.push(t);
          },
        }
      : {
          writeText: async () => {
            throw new DOMException('Write permission denied.', 'NotAllowedError');
          },
        },
  });
}

beforeEach(() => {
  copied = [];
  asked.length = 0;
  store = createAppStore({ presetId: 'exp1', doc: {} });
  patch(store, 'scenario', { loading: false });
});

describe('Share', () => {
  it('copies the link and says so', async () => {
    clipboard(true);
    render(<ShareButton />);
    await click(button('Share'));
    expect(copied).toEqual([LINK]);
    expect(status()).toContain('Link copied to the clipboard.');
    const field = el.querySelector('input[aria-label="Link to this run"]') as HTMLInputElement;
    expect(field.readOnly).toBe(true);
    expect(field.value).toBe(LINK);
    expect(store.getState().env.announcement).toBe('Link copied to the clipboard.');
  });

  it('offers a link to the lesson step when a lesson is open, and none otherwise', async () => {
    clipboard(true);
    render(<ShareButton />);
    await click(button('Share'));
    expect(el.querySelector('input[aria-label="Link to this lesson step"]')).toBeNull();
    await click(button('Close'));
    act(() => patch(store, 'env', { lesson: { lessonId: 'flow-setup', step: 2, steps: 3, done: false } }));
    await click(button('Share'));
    const field = el.querySelector('input[aria-label="Link to this lesson step"]') as HTMLInputElement;
    expect(field.value).toBe('https://lab.example/#lesson=flow-setup&step=keepalive');
    expect(el.textContent).toContain('Opens this lesson at step 3 in a fresh lab, without what was typed');
    // the run's own link is still the one copied
    expect(copied).toEqual([LINK, LINK]);
  });

  it('when the browser refuses the clipboard, shows the link in a read-only field and says how to copy it', async () => {
    clipboard(false);
    render(<ShareButton />);
    await click(button('Share'));
    expect(copied).toEqual([]);
    expect(status().join(' ')).toMatch(/did not allow copying: the link is selected below/);
    expect((el.querySelector('input[aria-label="Link to this run"]') as HTMLInputElement).value).toBe(LINK);
    // Escape closes it
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(el.querySelector('[aria-label="Share this run"]')).toBeNull();
  });

  it('makes the embed code for the chosen options, and says what is wrong with a bad origin', async () => {
    clipboard(true);
    render(<ShareButton />);
    await click(button('Share'));
    const label = (t: string) => [...el.querySelectorAll('label')].find((l) => l.textContent?.trim() === t)!;
    // the compact default (path, one chart, commands): the terminal instead of the commands, the PPS chart
    await click(label('Terminal').querySelector('input')!);
    await click(label('Commands to click').querySelector('input')!);
    const chart = el.querySelector('select:not([aria-label])') as HTMLSelectElement;
    expect([...chart.options].map((o) => o.value)[0]).toBe('rate');
    await act(async () => {
      chart.value = 'pps';
      chart.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await click(button('Copy embed code'));
    expect(asked.at(-1)).toEqual({
      panels: ['path', 'chart', 'terminal'],
      chart: 'pps',
      controls: 'minimal',
      autoplay: false,
      startNs: 0,
    });
    expect((el.querySelector('textarea[aria-label="Embed code"]') as HTMLTextAreaElement).value).toContain(
      '&amp;embed=1',
    );
    expect(copied.at(-1)).toContain('<iframe');

    const origin = el.querySelector('input[placeholder="https://docs.example.com"]') as HTMLInputElement;
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(origin, 'docs');
      origin.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(button('Copy embed code'));
    expect(el.querySelector('[role=alert]')?.textContent).toContain('"docs" is not an origin');
    expect(el.querySelector('textarea[aria-label="Embed code"]')).toBeNull();
  });
});

describe('embed start time', () => {
  const typeStart = async (v: string) => {
    const input = field();
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  };
  const field = () =>
    [...el.querySelectorAll('label')]
      .find((l) => l.textContent?.startsWith('Start at'))!
      .querySelector('input') as HTMLInputElement;

  it('defaults to the clock, goes into the embed code, and refuses what a link would, in its words', async () => {
    clipboard(true);
    patch(store, 'playback', { nowNs: 1_234_500_000 });
    render(<ShareButton />);
    await click(button('Share'));
    expect(field().value).toBe('1.2345s');
    await click(button('Copy embed code'));
    expect(asked.at(-1)).toMatchObject({ startNs: 1_234_500_000 });

    await typeStart('250ms');
    await click(button('Copy embed code'));
    expect(asked.at(-1)).toMatchObject({ startNs: 250_000_000 });

    const n = asked.length;
    await typeStart('soon');
    const alert = el.querySelector('[role=alert]');
    expect(alert?.textContent).toBe('Start time: "soon" is not a time like 1.5s, 250ms or 20us');
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(field().getAttribute('aria-describedby')).toBe(alert?.id);
    expect(button('Copy embed code').disabled).toBe(true);
    // the code made for the earlier start is not left beside the refused one
    expect(el.querySelector('textarea[aria-label="Embed code"]')).toBeNull();
    await typeStart('90000s');
    expect(el.querySelector('[role=alert]')?.textContent).toBe(
      "Start time: 90000s is past the lab's longest run (86400 s)",
    );
    expect(asked.length).toBe(n);
    await typeStart('2s');
    expect(el.querySelector('[role=alert]')).toBeNull();
    await click(button('Copy embed code'));
    expect(asked.at(-1)).toMatchObject({ startNs: 2e9 });
  });
});

describe('the repaired-link notice', () => {
  it('lists each change as text and can be dismissed', async () => {
    patch(store, 'env', {
      linkChanges: ['instances[0].type: unknown instance type "<b>x</b>"; replaced by c7i.large'],
    });
    render(<LinkChangesNotice />);
    const notice = el.querySelector('[role=alert]')!;
    expect(notice.textContent).toContain('This link was opened with one change');
    expect(notice.querySelector('li')?.textContent).toContain('"<b>x</b>"');
    expect(notice.querySelector('b')).toBeNull();
    await click(button('Dismiss'));
    expect(store.getState().env.linkChanges).toEqual([]);
    expect(el.querySelector('[role=alert]')).toBeNull();
  });
});

describe('the box of a scenario that is not a preset', () => {
  it('says "A shared scenario" for a link, "Your last session" for the session kept in this browser', () => {
    patch(store, 'scenario', { instances: [{ name: 'client', type: 'c7i.large' }] as never });
    render(<SharedScenarioBox />);
    expect(el.querySelector('h2')?.textContent).toBe('A shared scenario');
    expect(el.textContent).toContain('Opened from a link: client (c7i.large)');
    act(() => patch(store, 'env', { restored: true }));
    expect(el.querySelector('h2')?.textContent).toBe('Your last session');
    expect(el.textContent).toContain('Kept in this browser: client (c7i.large)');
  });
});
