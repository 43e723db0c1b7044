/**
 * Composition root: read the environment, create the store, start the simulation worker and its
 * controller, mount the React app. The only file that sees every layer.
 */
import * as Comlink from 'comlink';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { SimApi } from './protocol/sim-api';
import { DEFAULT_PRESET_ID, PRESETS } from './scenario/presets';
import { createLabController } from './sim-client/lab-controller';
import { SimClient, type WorkerHandle } from './sim-client/sim-client';
import { applyFrame, createAppStore, patch } from './state/app-store';
import { App } from './ui/app';
import { ControllerContext, StoreContext } from './ui/context';
import './ui/styles.css';

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

const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
const preset = PRESETS.find((p) => p.id === DEFAULT_PRESET_ID)!;
const store = createAppStore({ presetId: preset.id, doc: preset.scenario, env: { reducedMotion } });
patch(store, 'view', { theme: dark ? 'dark' : 'light' });

const client = new SimClient({
  spawn: spawnWorker,
  // a frame request is bounded by its event budget (well under a second); replays can be long
  timeoutMs: 4_000,
  replayTimeoutMs: 120_000,
  transfer: Comlink.transfer,
  onFrame: (f) => applyFrame(store, f),
  onRestart: (message) => patch(store, 'env', { notice: message, announcement: message }),
  onError: (message) => patch(store, 'env', { notice: message, announcement: message }),
});
const lab = createLabController(store, client);
void lab.loadPreset(preset.id);
// test hook for the end-to-end tests (forced worker failure); harmless for users
(window as unknown as { __netlab: unknown }).__netlab = { crashWorker: lab.crashWorker, store };

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <ControllerContext.Provider value={lab}>
          <App />
        </ControllerContext.Provider>
      </StoreContext.Provider>
    </StrictMode>,
  );
}
