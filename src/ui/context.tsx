/** The app's store and lab controller, provided to components through context (one lab per page). */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { LabController } from '../sim-client/lab-controller';
import type { AppState, AppStore } from '../state/app-store';

import type { EmbedChart, EmbedPanel } from '../state/embed-view';

export type { EmbedChart, EmbedPanel } from '../state/embed-view';

/**
 * Links, given to the UI by the composition root (the UI does not import the share layer): the
 * link to what is on screen, the embed snippet, the full lab's link from an embedded one.
 */
export interface Sharing {
  /** The full URL of a link that reopens this run (scenario, session, time, selection). */
  link(): string;
  /** The `<iframe>` snippet for this run. Throws (with a message for the user) on a bad origin. */
  embedCode(opts: {
    panels: EmbedPanel[];
    chart?: EmbedChart;
    controls: 'none' | 'minimal' | 'full';
    autoplay: boolean;
    origin?: string;
    /** Where the embedded lab starts (its link's `t`); absent: the current clock. */
    startNs?: number;
  }): string;
  /** A simulated instant as a link writes it for a person ("1.5s"). */
  formatTime(ns: number): string;
  /** A link time as typed ("1.5s", "250ms"): the instant, or why it is not one (the link's own words). */
  parseTime(text: string): number | { error: string };
  /** This run in the full lab (no embed flags). */
  fullLabLink(): string;
  /** A link that opens the lesson open here at its current step, afresh (null: no lesson open). */
  lessonLink?(): string | null;
}

export const StoreContext = createContext<AppStore | null>(null);
export const SharingContext = createContext<Sharing | null>(null);

/** Links, or null where the page offers none (tests). */
export function useSharing(): Sharing | null {
  return useContext(SharingContext);
}
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
