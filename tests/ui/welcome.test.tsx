/**
 * The welcome stays dismissed once dismissed: "Got it" (or "What is this?" closing it) keeps a flag
 * in storage, and the next page load opens without it; an embedded lab never opens, reads or
 * writes it; a storage that throws leaves the welcome showing, nothing worse.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { createAppStore, patch } from '../../src/state/app-store';
import { App } from '../../src/ui/app';
import {
  rememberWelcomeDismissed,
  WELCOME_KEY,
  type WelcomeStorage,
  welcomeOpensAtStart,
} from '../../src/ui/welcome';
import { recordingLab } from './fake-lab';
import { mount, unmountAll } from './mount';

class MemStorage implements WelcomeStorage {
  readonly data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
}

let el: HTMLDivElement | null = null;

/** The page as main.tsx boots it: the welcome open or not from storage, then the full lab. */
function boot(storage: WelcomeStorage) {
  const store = createAppStore({ presetId: 'exp1', doc: {} });
  patch(store, 'view', { introOpen: welcomeOpensAtStart({ embed: false, fromLink: false, storage }) });
  patch(store, 'scenario', { loading: false });
  el = mount(<App welcomeStorage={storage} />, { store, lab: recordingLab([]) });
  return store;
}
const welcome = () => el!.querySelector('section.intro');
const button = (name: string) =>
  [...el!.querySelectorAll('button')].find((b) => b.textContent?.trim() === name) as HTMLButtonElement;

describe('the welcome', () => {
  it('"Got it" keeps it dismissed after a reload', () => {
    const storage = new MemStorage();
    boot(storage);
    expect(welcome()).not.toBeNull();
    act(() => button('Got it').click());
    expect(welcome()).toBeNull();
    expect(storage.data.get(WELCOME_KEY)).toBe('1');
    // reload
    unmountAll();
    boot(storage);
    expect(welcome()).toBeNull();
    // still there when asked for
    act(() => button('What is this?').click());
    expect(welcome()).not.toBeNull();
  });

  it('"What is this?" closing it counts as dismissing it', () => {
    const storage = new MemStorage();
    boot(storage);
    act(() => button('What is this?').click());
    expect(welcome()).toBeNull();
    expect(welcomeOpensAtStart({ embed: false, fromLink: false, storage })).toBe(false);
  });

  it('embed mode and links open without it; embed mode writes nothing', () => {
    const storage = new MemStorage();
    expect(welcomeOpensAtStart({ embed: false, fromLink: false, storage })).toBe(true);
    expect(welcomeOpensAtStart({ embed: true, fromLink: false, storage })).toBe(false);
    expect(welcomeOpensAtStart({ embed: false, fromLink: true, storage })).toBe(false);
    rememberWelcomeDismissed(storage, true);
    expect(storage.data.size).toBe(0);
  });

  it('a storage that refuses (private mode) leaves the welcome showing and throws nothing', () => {
    const refusing: WelcomeStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(welcomeOpensAtStart({ embed: false, fromLink: false, storage: refusing })).toBe(true);
    expect(() => rememberWelcomeDismissed(refusing, false)).not.toThrow();
    expect(welcomeOpensAtStart({ embed: false, fromLink: false, storage: null })).toBe(true);
  });
});
