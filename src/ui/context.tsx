/** The app's store and lab controller, provided to components through context (one lab per page). */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { LabController } from '../sim-client/lab-controller';
import type { AppState, AppStore } from '../state/app-store';

export const StoreContext = createContext<AppStore | null>(null);
export const ControllerContext = createContext<LabController | null>(null);

export function useAppStore(): AppStore {
  const s = useContext(StoreContext);
  if (!s) throw new Error('no StoreContext');
  return s;
}

export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(useAppStore(), selector);
}

export function useLab(): LabController {
  const c = useContext(ControllerContext);
  if (!c) throw new Error('no ControllerContext');
  return c;
}
