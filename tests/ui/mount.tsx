/**
 * Mounting for the dom tests: a component in a fresh <div> in the body, inside the store and
 * controller contexts when given; every mounted root unmounted and its <div> removed after each
 * test. And the two-instance lab (client and server on c7i.large) most panel tests start from.
 */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach } from 'vitest';
import type { LabController } from '../../src/sim-client/lab-controller';
import { type AppStore, createAppStore, patch } from '../../src/state/app-store';
import { ControllerContext, StoreContext } from '../../src/ui/context';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: Array<{ root: Root; el: HTMLDivElement }> = [];

/** Renders `node` (inside the lab's contexts when given) in a new <div> in the body; returns the <div>. */
export function mount(node: ReactNode, ctx?: { store: AppStore; lab: LabController }): HTMLDivElement {
  const el = document.createElement('div');
  document.body.appendChild(el);
  const root = createRoot(el);
  mounted.push({ root, el });
  act(() =>
    root.render(
      ctx ? (
        <StoreContext.Provider value={ctx.store}>
          <ControllerContext.Provider value={ctx.lab}>{node}</ControllerContext.Provider>
        </StoreContext.Provider>
      ) : (
        node
      ),
    ),
  );
  return el;
}

/** Unmounts what mount() rendered and removes its <div>s (after each test, or for a "reload"). */
export function unmountAll() {
  for (const { root, el } of mounted.splice(0)) {
    act(() => root.unmount());
    el.remove();
  }
}
afterEach(unmountAll);

/** A store for exp1 with its scenario loaded: client and server, c7i.large, 1 Mpps allowance (measured). */
export function twoInstanceStore(): AppStore {
  const store = createAppStore({ presetId: 'exp1', doc: {} });
  patch(store, 'scenario', {
    loading: false,
    instances: ['client', 'server'].map((name, i) => ({
      name,
      type: 'c7i.large',
      ip: `10.0.0.1${i}`,
      ppsAllowance: 1e6,
      ppsAllowanceProvenance: 'measured' as const,
    })),
  });
  return store;
}
