/**
 * Composition root: read the page's link (scenario, session, view, embed flags), create the store,
 * start the simulation worker and its controller, mount the React app (the full lab, the embedded
 * lab, or the page that says a link cannot be read), and in embed mode the host page's postMessage
 * bridge when the link names its origin. The only file that sees every layer.
 */
import * as Comlink from 'comlink';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LESSON_DOCUMENTS } from './lessons/documents';
import type { SimApi } from './protocol/sim-api';
import { PRESETS } from './scenario/presets';
import {
  buildDocument,
  formatSelection,
  fullLabUrl,
  parseSelection,
  presetTable,
  readStartLink,
  shareHash,
  type StartLink,
} from './share/app-link';
import { type CountersSnapshot, observeDocumentHeight, startBridge } from './share/bridge';
import { formatLinkSeconds, parseLinkTime, type ViewState } from './share/codec';
import { formatHashParams } from './share/hash-params';
import { embedSnippet } from './share/embed';
import { createLabController } from './sim-client/lab-controller';
import { SimClient, type WorkerHandle } from './sim-client/sim-client';
import { type AppStore, applyFrame, createAppStore, patch } from './state/app-store';
import { App } from './ui/app';
import { ControllerContext, type Sharing, SharingContext, StoreContext } from './ui/context';
import { EmbedApp } from './ui/embed-app';
import { LinkErrorPage } from './ui/link-error-page';
import { browserStorage, welcomeOpensAtStart } from './ui/welcome';
import './ui/styles.css';
import './ui/small-screens.css';

function spawnWorker(): WorkerHandle {
  const worker = new Worker(new URL('../workers/sim.worker.ts', import.meta.url), { type: 'module' });
  let onErr: ((why: string) => void) | null = null;
  worker.addEventListener('error', (e) => {
    e.preventDefault();
    onErr?.(e.message || 'worker error');
  });
  return {
    api: Comlink.wrap<SimApi>(worker),
    terminate: () => worker.terminate(),
    onError: (cb) => {
      onErr = cb;
    },
  };
}

const presets = presetTable();
/**
 * Work survives a reload: the session (scenario, what was typed and when, the instant) is kept in
 * local storage as the link Share would make, and a page opened without a link opens it again.
 * `?fresh` (the notice's "Start afresh") forgets it. Not in embed mode (the host page decides).
 */
const SESSION_KEY = 'ec2-netlab:session';
/** Longest session kept: the longest link the lab reads (src/share/hash-params.ts). */
const MAX_SESSION_CHARS = 32_768;
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: nothing is kept
  }
})();
if (new URLSearchParams(location.search).has('fresh')) {
  storage?.removeItem(SESSION_KEY);
  const q = new URLSearchParams(location.search);
  q.delete('fresh');
  history.replaceState(null, '', `${location.pathname}${q.size ? `?${q}` : ''}${location.hash}`);
}
/** Set when the session could not be replayed (two worker failures): it is no longer kept. */
let sessionBroken = false;
const saved = location.hash === '' ? (storage?.getItem(SESSION_KEY) ?? null) : null;
const fromSaved = saved?.startsWith('#') === true && readStartLink(saved, LESSON_DOCUMENTS, presets).ok;
const start = readStartLink(fromSaved ? saved! : location.hash, LESSON_DOCUMENTS, presets);
const root = document.getElementById('root');
// a link edited in the address bar (or the host page changing the frame's link): read it afresh
window.addEventListener('hashchange', () => location.reload());

if (!start.ok) {
  document.title = 'ec2-netlab: this link could not be read';
  if (root)
    createRoot(root).render(
      <StrictMode>
        <LinkErrorPage message={start.message} homeHref={`${location.pathname}${location.search}`} />
      </StrictMode>,
    );
} else {
  boot(start);
}

function boot(start: Extract<StartLink, { ok: true }>): void {
  const { flags, view } = start;
  const embed = flags.embed;
  const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const store = createAppStore({
    presetId: start.presetId,
    doc: start.doc,
    env: {
      reducedMotion,
      embed,
      panels: embed ? (flags.panels ?? null) : null,
      ...(flags.chart ? { chart: flags.chart } : {}),
      controls: flags.controls,
      linkChanges: start.changes,
      restored: fromSaved,
    },
  });
  patch(store, 'view', {
    theme: view.theme ?? (dark ? 'dark' : 'light'),
    introOpen: welcomeOpensAtStart({
      embed,
      // a lesson link opens on the lesson, not on the welcome
      fromLink: start.fromLink || start.lesson !== undefined,
      storage: embed ? null : browserStorage(),
    }),
  });

  const client = new SimClient({
    spawn: spawnWorker,
    // a frame request is bounded by its event budget (well under a second); replays can be long
    timeoutMs: 4_000,
    replayTimeoutMs: 120_000,
    transfer: Comlink.transfer,
    onFrame: (f) => applyFrame(store, f),
    // a notice replaces the one before, with its link (a link belongs to the notice it came with)
    onRestart: (message) => patch(store, 'env', { notice: message, noticeLink: null, announcement: message }),
    onError: (message) => patch(store, 'env', { notice: message, noticeLink: null, announcement: message }),
    // failed twice in a row: offer the scenario without its session (what was typed), which the
    // model could not replay
    onFailed: () => {
      // a session the model cannot replay is not opened again by a reload
      sessionBroken = true;
      storage?.removeItem(SESSION_KEY);
      const bare = `${location.pathname}${location.search}${shareHash(store.getState().scenario.doc, [], {}, presets)}`;
      patch(store, 'env', { noticeLink: { label: 'Reopen this scenario without its session', href: bare } });
    },
  });
  const lab = createLabController(store, client);

  const title = (presetId: string) =>
    PRESETS.find((p) => p.id === presetId)?.title ??
    LESSON_DOCUMENTS.find((l) => `lesson:${l.id}` === presetId)?.title ??
    (fromSaved ? 'your last session' : 'the shared scenario');
  // the tab and the history name the scenario (a link preview cannot: crawlers never see the hash)
  const setTitle = (presetId: string) => {
    const t = PRESETS.find((p) => p.id === presetId)?.title;
    document.title = t ? `ec2-netlab: ${t}` : 'ec2-netlab';
  };
  setTitle(start.presetId);
  store.subscribe((s, prev) => {
    if (s.scenario.presetId !== prev.scenario.presetId) setTitle(s.scenario.presetId);
  });
  /** Once a scenario is loaded (and run to its time): the link's selection, then autoplay. */
  const follow = async (opened: Promise<boolean>, selection: string | undefined, autoplay: boolean) => {
    if (!(await opened)) return;
    const sel = parseSelection(selection);
    if (sel) await lab.select(sel.kind === 'packet' ? { ...sel, id: -1 } : sel);
    if (autoplay) lab.play();
  };
  // a lesson link (or a session kept in a lesson): the lessons panel opens it at its step
  const lesson = start.lesson;
  if (lesson) patch(store, 'env', { openLesson: { lessonId: lesson.id, step: lesson.step } });
  const opening =
    lesson && start.presetId === `lesson:${lesson.id}` && start.log.length === 0 && start.toNs === 0
      ? lab.loadLesson(lesson.id, start.doc, title(start.presetId)).then(() => true)
      : start.fromLink || start.toNs > 0
        ? lab
            .loadShared({
              presetId: start.presetId,
              doc: start.doc,
              log: start.log,
              toNs: start.toNs,
              title: title(start.presetId),
            })
            // the step's window starts where the session was (what it passed is in its progress)
            .then(async (ok) => {
              if (ok && lesson) await lab.lessonBegin();
              return ok;
            })
        : lab.loadPreset(start.presetId).then(() => true);
  void follow(opening, view.selection, flags.autoplay);

  // the page's URL without its hash: links are made from it
  const base = `${location.origin}${location.pathname}${location.search}`;
  /** The open lesson and step as a link names them (only while its scenario is the one loaded). */
  const lessonView = (): Pick<ViewState, 'lesson' | 'step'> => {
    const open = store.getState().env.lesson;
    const doc = open ? LESSON_DOCUMENTS.find((l) => l.id === open.lessonId) : undefined;
    const step = doc?.steps[open!.step];
    return doc && step ? { lesson: doc.id, step: step.id } : {};
  };
  const currentHash = () => {
    const st = store.getState();
    const v: ViewState = { timeNs: st.playback.nowNs, ...lessonView() };
    const sel = st.selection.path;
    const s = formatSelection(
      sel === null
        ? null
        : sel.kind === 'packet'
          ? { kind: 'packet', flow: sel.flow, seq: sel.seq, count: sel.count }
          : sel,
    );
    if (s !== undefined) v.selection = s;
    return shareHash(st.scenario.doc, lab.commandLog(), v, presets, st.scenario.presetId);
  };
  const sharing: Sharing = {
    link: () => `${base}${currentHash()}`,
    embedCode: (opts) =>
      embedSnippet(`${base}${currentHash()}`, {
        panels: opts.panels,
        ...(opts.chart ? { chart: opts.chart } : {}),
        controls: opts.controls,
        autoplay: opts.autoplay,
        startNs: opts.startNs ?? store.getState().playback.nowNs,
        ...(opts.origin !== undefined ? { origin: opts.origin } : {}),
      }),
    fullLabLink: () => fullLabUrl(`${base}${currentHash()}`),
    lessonLink: () => {
      const l = lessonView();
      return l.lesson
        ? `${base}${formatHashParams([
            ['lesson', l.lesson],
            ['step', l.step!],
          ])}`
        : null;
    },
    formatTime: formatLinkSeconds,
    parseTime: parseLinkTime,
  };

  if (embed && flags.origin) startHostBridge(store, lab, flags, follow);
  if (!embed) keepSession(store, currentHash);

  // test hook for the end-to-end tests (forced worker failure, the store): only in a build made
  // with VITE_NETLAB_TEST_HOOKS=1 (tests/e2e/setup.ts); a published build has none
  if (import.meta.env.VITE_NETLAB_TEST_HOOKS === '1')
    (window as unknown as { __netlab: unknown }).__netlab = { crashWorker: lab.crashWorker, store };

  registerServiceWorker((message) =>
    patch(store, 'env', { notice: message, noticeLink: null, announcement: message }),
  );

  if (root) {
    createRoot(root).render(
      <StrictMode>
        <StoreContext.Provider value={store}>
          <ControllerContext.Provider value={lab}>
            <SharingContext.Provider value={sharing}>
              {embed ? <EmbedApp /> : <App />}
            </SharingContext.Provider>
          </ControllerContext.Provider>
        </StoreContext.Provider>
      </StrictMode>,
    );
  }
}

/** Write the session to local storage a second after it changes (and when the page is left). */
function keepSession(store: AppStore, hash: () => string): void {
  if (!storage) return;
  if (fromSaved) {
    patch(store, 'env', {
      notice: 'Your last session was opened again (kept in this browser).',
      noticeLink: { label: 'Start afresh', href: `${location.pathname}?fresh` },
    });
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  let warned = false;
  const write = () => {
    timer = null;
    if (sessionBroken) return;
    const st = store.getState();
    // nothing done yet: nothing to keep (a fresh lab opens as it always does); an open lesson is kept
    if (st.playback.nowNs === 0 && st.terminal.chunks.length === 0 && st.env.lesson === null) {
      storage.removeItem(SESSION_KEY);
      return;
    }
    const h = hash();
    try {
      if (h.length > MAX_SESSION_CHARS) {
        storage.removeItem(SESSION_KEY);
        if (!warned)
          patch(store, 'env', {
            noticeLink: null,
            notice: `This session is too long to keep across a reload (${h.length.toLocaleString('en-US')} characters of link; the limit is ${MAX_SESSION_CHARS.toLocaleString('en-US')}).`,
          });
        warned = true;
      } else storage.setItem(SESSION_KEY, h);
    } catch {
      // storage full or refused: the lab goes on, the session is not kept
    }
  };
  store.subscribe((st, prev) => {
    if (
      st.playback.nowNs === prev.playback.nowNs &&
      st.scenario === prev.scenario &&
      st.terminal === prev.terminal &&
      st.env.lesson === prev.env.lesson
    )
      return;
    if (timer === null) timer = setTimeout(write, 1_000);
  });
  window.addEventListener('pagehide', write);
}

/**
 * Offline: the built site's service worker (sw.js beside index.html, written by vite.config.ts)
 * precaches the lab. A new version installs in the background and waits; the user is told, and
 * it takes over when this page is left (a reload), never in the middle of a run.
 */
function registerServiceWorker(notify: (message: string) => void): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const hadController = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker
    .register(new URL('sw.js', new URL('./', location.href)).href)
    .then((reg) => {
      const waiting = (w: ServiceWorker) => {
        if (!hadController) return; // the first install: nothing to replace
        notify('A new version of the lab is ready: it opens the next time you reload this page.');
        window.addEventListener('pagehide', () => w.postMessage('skip-waiting'));
      };
      if (reg.waiting) waiting(reg.waiting);
      reg.addEventListener('updatefound', () => {
        const w = reg.installing;
        w?.addEventListener('statechange', () => {
          if (w.state === 'installed') waiting(w);
        });
      });
    })
    .catch(() => {
      // no offline copy (a private window, a host that serves no sw.js): the lab works as before
    });
}

/** Counters go to the host page at most this often (ms of wall time); time goes every frame. */
const COUNTERS_EVERY_MS = 250;

/** The postMessage API for the page that embeds the lab (only for the origin the link names). */
function startHostBridge(
  store: AppStore,
  lab: ReturnType<typeof createLabController>,
  flags: Parameters<typeof startBridge>[1],
  follow: (opened: Promise<boolean>, selection: string | undefined, autoplay: boolean) => Promise<void>,
): void {
  startBridge(
    window,
    flags,
    {
      loadScenario(scenario, view = {}) {
        const { doc, log } = buildDocument(scenario);
        patch(store, 'env', { linkChanges: [] });
        // a link from the host opens as the page's own link does: run to its time, then its selection
        const toNs = view.timeNs ?? 0;
        void follow(
          lab.loadShared({ presetId: 'link', doc, log, toNs, title: 'the host page’s scenario' }),
          view.selection,
          false,
        );
      },
      play: () => lab.play(),
      pause: () => lab.pause(),
      seek: (timeNs) => void lab.seek(timeNs),
      onTime: (cb) => {
        cb(store.getState().playback.nowNs);
        return store.subscribe((s, prev) => {
          if (s.playback.nowNs !== prev.playback.nowNs) cb(s.playback.nowNs);
        });
      },
      onCounters: (cb) => {
        let last = 0;
        let timer: ReturnType<typeof setTimeout> | null = null;
        const send = () => {
          timer = null;
          last = performance.now();
          const snap: CountersSnapshot = {};
          for (const c of store.getState().results.counters)
            snap[c.host] = Object.fromEntries(c.names.map((n, i) => [n, c.values[i] ?? 0]));
          cb(snap);
        };
        const unsub = store.subscribe((s, prev) => {
          if (s.results.counters === prev.results.counters || timer !== null) return;
          const wait = COUNTERS_EVERY_MS - (performance.now() - last);
          if (wait <= 0) send();
          else timer = setTimeout(send, wait);
        });
        return () => {
          unsub();
          if (timer !== null) clearTimeout(timer);
        };
      },
      onLessonProgress: (cb) =>
        store.subscribe((s, prev) => {
          if (s.env.lesson && s.env.lesson !== prev.env.lesson) cb(s.env.lesson);
        }),
      keepProgress: (keep) => store.setState((s) => ({ env: { ...s.env, hostKeepsProgress: keep } })),
      onHeight: (cb) => observeDocumentHeight(document, cb),
    },
    presetTable(),
  );
}
