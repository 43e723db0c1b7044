/**
 * The service worker the build writes (src/share/service-worker.ts): it precaches the files it is
 * given, relative to its scope, serves them from the cache, falls back to the cached page for a
 * navigation when the network fails, and leaves other requests alone. Run here in a fake worker
 * scope (caches, fetch, clients) so each handler's answer is checked.
 */
import { describe, expect, it } from 'vitest';
import { CACHE_PREFIX, serviceWorkerSource } from '../../src/share/service-worker';

type Handler = (e: Record<string, unknown>) => void;

function load(files: string[], online: boolean) {
  const scope = 'https://docs.example.com/lab/';
  const store = new Map<string, Map<string, string>>();
  const handlers: Record<string, Handler> = {};
  const fetched: string[] = [];
  const caches = {
    open: async (name: string) => {
      if (!store.has(name)) store.set(name, new Map());
      const c = store.get(name)!;
      return {
        addAll: async (urls: string[]) => {
          for (const u of urls) c.set(u, `cached ${u}`);
        },
      };
    },
    keys: async () => [...store.keys()],
    delete: async (k: string) => store.delete(k),
    match: async (url: string, o: { cacheName: string }) => store.get(o.cacheName)?.get(url),
  };
  const self = {
    registration: { scope },
    addEventListener: (t: string, h: Handler) => {
      handlers[t] = h;
    },
    skipWaiting: () => {},
    clients: { claim: async () => {} },
  };
  const fetchFn = async (req: { url: string }) => {
    fetched.push(req.url);
    if (!online) throw new TypeError('offline');
    return `network ${req.url}`;
  };
  new Function('self', 'caches', 'fetch', 'Response', serviceWorkerSource(files, 'v1'))(
    self,
    caches,
    fetchFn,
    {
      error: () => 'error',
    },
  );
  const dispatch = async (type: string, extra: Record<string, unknown>) => {
    let p: Promise<unknown> | undefined;
    let answered: Promise<unknown> | undefined;
    handlers[type]!({
      ...extra,
      waitUntil: (x: Promise<unknown>) => (p = x),
      respondWith: (x: Promise<unknown>) => (answered = x),
    });
    await p;
    return answered;
  };
  return { scope, store, fetched, dispatch };
}

describe('the service worker', () => {
  it('precaches the build relative to its scope and answers those files from the cache', async () => {
    const sw = load(['assets/index-abc.js', 'favicon.svg'], true);
    await sw.dispatch('install', {});
    const cache = sw.store.get(`${CACHE_PREFIX}v1`)!;
    expect([...cache.keys()].sort()).toEqual([
      'https://docs.example.com/lab/',
      'https://docs.example.com/lab/assets/index-abc.js',
      'https://docs.example.com/lab/favicon.svg',
      'https://docs.example.com/lab/index.html',
    ]);
    const r = await sw.dispatch('fetch', {
      request: { method: 'GET', mode: 'no-cors', url: 'https://docs.example.com/lab/assets/index-abc.js' },
    });
    expect(r).toBe('cached https://docs.example.com/lab/assets/index-abc.js');
    // outside the scope, or not one of the build's files: not answered (the browser fetches it)
    for (const url of ['https://docs.example.com/other.js', 'https://docs.example.com/lab/data.json'])
      expect(
        await sw.dispatch('fetch', { request: { method: 'GET', mode: 'no-cors', url } }),
      ).toBeUndefined();
    expect(sw.fetched).toEqual([]);
  });

  it('a page load goes to the network; offline it gets the cached page', async () => {
    const on = load([], true);
    await on.dispatch('install', {});
    const nav = { method: 'GET', mode: 'navigate', url: 'https://docs.example.com/lab/#v=4&s=x' };
    expect(await on.dispatch('fetch', { request: nav })).toBe(
      'network https://docs.example.com/lab/#v=4&s=x',
    );
    const off = load([], false);
    await off.dispatch('install', {});
    expect(await off.dispatch('fetch', { request: nav })).toBe(
      'cached https://docs.example.com/lab/index.html',
    );
  });

  it('on activation, the caches of older versions are deleted', async () => {
    const sw = load([], true);
    sw.store.set(`${CACHE_PREFIX}old`, new Map());
    sw.store.set('someone-else', new Map());
    await sw.dispatch('install', {});
    await sw.dispatch('activate', {});
    expect([...sw.store.keys()].sort()).toEqual([`${CACHE_PREFIX}v1`, 'someone-else']);
  });
});
