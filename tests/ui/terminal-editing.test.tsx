/** The terminal's readline keys in happy-dom: Tab completion, Ctrl-R, Ctrl-A/E/U/K/W/Y, history kept in localStorage, `clear`. */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LabController } from '../../src/sim-client/lab-controller';
import { type AppStore, createAppStore, patch } from '../../src/state/app-store';
import { HISTORY_KEY, searchHistory, Terminal, wordRubout } from '../../src/ui/terminal';
import { recordingLab } from './fake-lab';
import { mount, twoInstanceStore, unmountAll } from './mount';

let el: HTMLDivElement;
let store: AppStore;
let calls: string[];

function render(embed = false) {
  const base = recordingLab(calls);
  const lab = new Proxy(base, {
    get: (t, k) => {
      if (k === 'labFiles')
        return async () => [
          { host: 'client', path: '/home/ec2-user/capture.pcap', bytes: 24, mtimeNs: 0 },
          { host: 'client', path: '/home/ec2-user/counters.txt', bytes: 3, mtimeNs: 0 },
          { host: 'server', path: '/home/ec2-user/other.txt', bytes: 3, mtimeNs: 0 },
        ];
      if (k === 'submit')
        return async (line: string) => {
          calls.push(`submit ${line}`);
          patch(store, 'terminal', { history: [...store.getState().terminal.history, line] });
          return true;
        };
      return Reflect.get(t, k);
    },
  }) as LabController;
  if (embed) patch(store, 'env', { embed: true });
  el = mount(<Terminal />, { store, lab });
  return el.querySelector<HTMLInputElement>('input[aria-label="Command"]')!;
}

beforeEach(() => {
  calls = [];
  localStorage.clear();
  store = twoInstanceStore();
});

async function key(target: HTMLInputElement, k: string, init: KeyboardEventInit = {}) {
  await act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  });
}
function typeInto(input: HTMLInputElement, value: string, cursor = value.length) {
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    set.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  input.setSelectionRange(cursor, cursor);
}

describe('Tab completion', () => {
  it('one candidate completes with a space; Tab does not leave the terminal', async () => {
    const input = render();
    typeInto(input, 'ethto');
    const ev = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    await act(async () => {
      input.dispatchEvent(ev);
    });
    expect(ev.defaultPrevented).toBe(true);
    expect(input.value).toBe('ethtool ');
    typeInto(input, 'iperf3 -c s');
    await key(input, 'Tab');
    expect(input.value).toBe('iperf3 -c server ');
    typeInto(input, 'cat cap');
    await key(input, 'Tab');
    expect(input.value).toBe('cat capture.pcap ');
    typeInto(input, 'tc qdisc add dev eth0 root fq_');
    await key(input, 'Tab');
    expect(input.value).toBe('tc qdisc add dev eth0 root fq_codel ');
  });

  it('several: the common prefix, then the second Tab lists them as bash does', async () => {
    const input = render();
    typeInto(input, 'aws ec2 describe-n');
    await key(input, 'Tab');
    expect(input.value).toBe('aws ec2 describe-network-');
    await key(input, 'Tab');
    expect(el.querySelector('[data-testid=completions]')).toBeNull();
    await key(input, 'Tab');
    const list = el.querySelector('[data-testid=completions]')!.textContent!;
    expect(list).toContain('[ec2-user@client ~]$ aws ec2 describe-network-\n');
    expect(list).toMatch(/describe-network-acls +describe-network-interfaces/);
    await key(input, 'Enter');
    expect(el.querySelector('[data-testid=completions]')).toBeNull();
  });

  it('Esc then Tab lets the focus move on', async () => {
    const input = render();
    await key(input, 'Escape');
    const ev = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    await act(async () => {
      input.dispatchEvent(ev);
    });
    expect(ev.defaultPrevented).toBe(false);
  });
});

describe('readline keys', () => {
  it('Ctrl-A/E move, Ctrl-U/K/W kill, Ctrl-Y yanks', async () => {
    const input = render();
    typeInto(input, 'iperf3 -c server -t 10', 9);
    await key(input, 'k', { ctrlKey: true });
    expect(input.value).toBe('iperf3 -c');
    await key(input, 'y', { ctrlKey: true });
    expect(input.value).toBe('iperf3 -c server -t 10');
    await key(input, 'e', { ctrlKey: true });
    expect(input.selectionStart).toBe(input.value.length);
    await key(input, 'w', { ctrlKey: true });
    expect(input.value).toBe('iperf3 -c server -t ');
    await key(input, 'a', { ctrlKey: true });
    expect(input.selectionStart).toBe(0);
    typeInto(input, 'abc def', 4);
    await key(input, 'u', { ctrlKey: true });
    expect(input.value).toBe('def');
    expect(wordRubout('a  bc  ', 7)).toBe(3);
  });

  it('Ctrl-R searches the history backwards; Ctrl-R again goes older; Enter runs the match', async () => {
    patch(store, 'terminal', {
      history: ['iperf3 -c server -t 1', 'ethtool -S eth0', 'iperf3 -c server -P 2'],
    });
    const input = render();
    await key(input, 'r', { ctrlKey: true });
    for (const c of 'iperf') await key(input, c);
    expect(el.textContent).toContain("(reverse-i-search)`iperf': ");
    expect(input.value).toBe('iperf3 -c server -P 2');
    await key(input, 'r', { ctrlKey: true });
    expect(input.value).toBe('iperf3 -c server -t 1');
    await key(input, 'Enter');
    expect(calls).toContain('submit iperf3 -c server -t 1');
    expect(searchHistory(['a', 'b'], 'z', 1)).toBe(-1);
  });
});

describe('history across reloads', () => {
  it('is saved to localStorage (bounded) and read back on the next load', async () => {
    const input = render();
    typeInto(input, 'date');
    await key(input, 'Enter');
    expect(JSON.parse(localStorage.getItem(HISTORY_KEY)!)).toEqual(['date']);
    unmountAll();
    store = createAppStore({ presetId: 'exp1', doc: {} });
    patch(store, 'scenario', { loading: false, instances: [] });
    const again = render();
    await key(again, 'ArrowUp');
    expect(again.value).toBe('date');
  });

  it('nothing is read or written in embed mode', async () => {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(['secret']));
    const input = render(true);
    await key(input, 'ArrowUp');
    expect(input.value).toBe('');
    typeInto(input, 'date');
    await key(input, 'Enter');
    expect(JSON.parse(localStorage.getItem(HISTORY_KEY)!)).toEqual(['secret']);
  });
});

describe('clear', () => {
  it('the screen starts after the clear sequence', () => {
    render();
    act(() =>
      patch(store, 'terminal', {
        chunks: [
          { atNs: 0, host: 'client', stream: 'input', text: 'echo before\n' },
          { atNs: 0, host: 'client', stream: 'stdout', text: 'before\n' },
          { atNs: 0, host: 'client', stream: 'input', text: 'clear\n' },
          { atNs: 0, host: 'client', stream: 'stdout', text: '\x1b[H\x1b[2J\x1b[3J' },
        ],
      }),
    );
    expect(el.querySelector('[data-testid=scrollback]')!.textContent).not.toContain('before');
  });
});

describe('files', () => {
  it('lists the files the tools wrote, each a download button that reads it from the worker', async () => {
    render();
    await act(async () => {
      await Promise.resolve();
    });
    const row = el.querySelector('[data-testid=lab-files]')!;
    expect(row.textContent).toContain('client:~/capture.pcap');
    expect(row.textContent).toContain('server:~/other.txt');
    const b = row.querySelector<HTMLButtonElement>(
      'button[aria-label="Download /home/ec2-user/capture.pcap from client"]',
    )!;
    await act(async () => {
      b.click();
      await Promise.resolve();
    });
    expect(calls).toContain('readLabFile client /home/ec2-user/capture.pcap');
  });
});

describe('watch’s redraws', () => {
  it('only what follows the last clear of a chunk shows', () => {
    render();
    act(() =>
      patch(store, 'terminal', {
        chunks: [
          { atNs: 0, host: 'client', stream: 'input', text: 'watch ls\n' },
          {
            atNs: 0,
            host: 'client',
            stream: 'stdout',
            text: '\x1b[H\x1b[2J\x1b[3Jfirst screen\n\x1b[H\x1b[2J\x1b[3Jsecond screen\n',
          },
        ],
      }),
    );
    const text = el.querySelector('[data-testid=scrollback]')!.textContent!;
    expect(text).toContain('second screen');
    expect(text).not.toContain('first screen');
    expect(text).not.toContain('watch ls');
  });
});

describe('Ctrl-Z', () => {
  it('with a command running, the hint says stopping it is not simulated; at the prompt nothing happens (no undo)', async () => {
    const input = render();
    const hint = () => [...el.querySelectorAll('p.hint')].at(-1)!.textContent;
    typeInto(input, 'iperf3 -c ser');
    const atPrompt = new KeyboardEvent('keydown', {
      key: 'z',
      ctrlKey: true,
      bubbles: true,
      cancelable: true,
    });
    await act(async () => {
      input.dispatchEvent(atPrompt);
    });
    expect(atPrompt.defaultPrevented).toBe(true);
    expect(input.value).toBe('iperf3 -c ser');
    expect(hint()).not.toContain('Ctrl-Z');
    act(() =>
      patch(store, 'terminal', {
        foreground: { host: 'client', command: 'iperf3 -c server -t 60', startNs: 5e8 },
      }),
    );
    expect(hint()).toBe('Running iperf3 -c server -t 60 on client: Ctrl-C interrupts it.');
    await key(input, 'z', { ctrlKey: true });
    expect(hint()).toContain('Ctrl-Z (stopping it, then bg or fg) is not simulated in ec2-netlab');
    // the next command starts without the note
    act(() =>
      patch(store, 'terminal', {
        foreground: { host: 'client', command: 'iperf3 -c server -t 60', startNs: 9e9 },
      }),
    );
    expect(hint()).not.toContain('Ctrl-Z');
  });
});
