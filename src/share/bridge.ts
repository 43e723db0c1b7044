/**
 * The postMessage API between an embedded lab and its host page. Off unless the lab is embedded
 * (`embed=1`) and its link names the parent's origin; then a message is acted on only when it
 * comes from that exact origin and from the parent window, after zod validation (a scenario goes
 * through the same validation and repair as a link). Messages out go to that origin only, never "*".
 * Every message carries `ns: "ec2-netlab"` and `v: 1`; the lab is reached through LabApi.
 *
 * The messages (load, play, pause, seek, keep-progress; ready, loaded, error, time, counters,
 * lesson, height): README.md, "Embedding".
 */
import { z } from 'zod';
import type { Scenario } from '../scenario/schema';
import {
  decodeShareLink,
  MAX_LINK_TIME_NS,
  type PresetTable,
  readScenarioDocument,
  type ViewState,
} from './codec';
import type { EmbedFlags } from './embed';

export const BRIDGE_NS = 'ec2-netlab';
export const BRIDGE_VERSION = 1;

type Unsubscribe = () => void;

/** Counter values per host, e.g. {client: {pps_allowance_exceeded: 0, bw_out_allowance_exceeded: 12}}. */
export type CountersSnapshot = Record<string, Record<string, number>>;

export interface LessonProgress {
  lessonId: string;
  /** 0-based index of the current step. */
  step: number;
  steps: number;
  done: boolean;
}

/** What the bridge needs from the app. The on* functions return an unsubscribe function. */
export interface LabApi {
  /**
   * Load a scenario in a fresh lab. `view`: a link's view (its time `t`, its selection), to open
   * as opening the link does (run to that time); absent for a scenario document.
   */
  loadScenario(scenario: Scenario, view?: ViewState): void;
  play(): void;
  pause(): void;
  seek(timeNs: number): void;
  onTime(cb: (timeNs: number) => void): Unsubscribe;
  onCounters?(cb: (counters: CountersSnapshot) => void): Unsubscribe;
  onLessonProgress?(cb: (p: LessonProgress) => void): Unsubscribe;
  /** Lesson progress saved locally in embed mode (off unless the host asks); absent: not offered. */
  keepProgress?(keep: boolean): void;
  /** Height of the app's content in CSS pixels; see observeDocumentHeight for the usual source. */
  onHeight?(cb: (px: number) => void): Unsubscribe;
}

/** The parts of `window` the bridge uses (a fake in tests). */
export interface BridgeWindow {
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void } | null;
  /** Where the browser says who frames us (Chromium, Safari: `location.ancestorOrigins`). */
  readonly location?: {
    readonly ancestorOrigins?: { readonly length: number; readonly [i: number]: string };
  };
}

const envelope = { ns: z.literal(BRIDGE_NS), v: z.literal(BRIDGE_VERSION) };

export const HostMessageSchema = z.union([
  z.strictObject({ ...envelope, type: z.literal('load'), scenario: z.unknown() }),
  z.strictObject({ ...envelope, type: z.literal('load'), link: z.string().max(32_768) }),
  z.strictObject({ ...envelope, type: z.literal('play') }),
  z.strictObject({ ...envelope, type: z.literal('pause') }),
  // the host page asks the embedded lab to keep (or stop keeping) lesson progress in its storage
  z.strictObject({ ...envelope, type: z.literal('keep-progress'), keep: z.boolean() }),
  z.strictObject({
    ...envelope,
    type: z.literal('seek'),
    timeNs: z.number().int().min(0).max(MAX_LINK_TIME_NS),
  }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

export type LabMessage = { ns: typeof BRIDGE_NS; v: typeof BRIDGE_VERSION } & (
  | { type: 'ready' }
  | { type: 'loaded'; changes: string[] }
  | { type: 'error'; message: string }
  | { type: 'time'; timeNs: number }
  | { type: 'counters'; counters: CountersSnapshot }
  | ({ type: 'lesson' } & LessonProgress)
  | { type: 'height'; px: number }
  | { type: 'progress-kept'; keep: boolean }
);

export interface Bridge {
  stop(): void;
}

type Body<T = LabMessage> = T extends unknown ? Omit<T, 'ns' | 'v'> : never;

/**
 * Start the bridge when the embed flags allow it; null (and nothing listening) otherwise, when
 * the lab is not in a frame, or when the browser says the frame's parent is of another origin.
 */
export function startBridge(
  win: BridgeWindow,
  flags: EmbedFlags,
  api: LabApi,
  presets: PresetTable = {},
): Bridge | null {
  const origin = flags.origin;
  const parent = win.parent;
  if (!flags.embed || origin === undefined || parent === null || (parent as unknown) === win) return null;
  // framed by a page of another origin than the link names (where the browser tells): stay off,
  // rather than post to a parent that is not there (each post would be dropped with a console error)
  const framer = win.location?.ancestorOrigins;
  if (framer && framer.length > 0 && framer[0] !== origin) return null;
  const post = (body: Body) => parent.postMessage({ ns: BRIDGE_NS, v: BRIDGE_VERSION, ...body }, origin);

  const onMessage = (ev: MessageEvent) => {
    if (ev.origin !== origin || ev.source !== parent) return;
    const data: unknown = ev.data;
    // other scripts on the host page may message the frame too: answer only what is addressed to us
    if (typeof data !== 'object' || data === null || (data as { ns?: unknown }).ns !== BRIDGE_NS) return;
    const m = HostMessageSchema.safeParse(data);
    if (!m.success) {
      const type = (data as { type?: unknown }).type;
      post({ type: 'error', message: `message not understood: ${describeType(type)}` });
      return;
    }
    const msg = m.data;
    switch (msg.type) {
      case 'play':
        api.play();
        return;
      case 'pause':
        api.pause();
        return;
      case 'seek':
        api.seek(msg.timeNs);
        return;
      case 'keep-progress':
        if (!api.keepProgress) {
          post({ type: 'error', message: 'keep-progress: this lab does not keep lesson progress' });
          return;
        }
        api.keepProgress(msg.keep);
        post({ type: 'progress-kept', keep: msg.keep });
        return;
      case 'load': {
        const r = 'link' in msg ? decodeShareLink(msg.link, presets) : readScenarioDocument(msg.scenario);
        if (!r.ok) {
          post({ type: 'error', message: r.error.message });
          return;
        }
        if ('link' in msg) api.loadScenario(r.scenario, r.view);
        else api.loadScenario(r.scenario);
        post({ type: 'loaded', changes: r.changes });
        return;
      }
    }
  };

  let lastTime = -1;
  let lastHeight = -1;
  const subs: Unsubscribe[] = [
    api.onTime((timeNs) => {
      if (timeNs === lastTime) return;
      lastTime = timeNs;
      post({ type: 'time', timeNs });
    }),
  ];
  if (api.onCounters) subs.push(api.onCounters((counters) => post({ type: 'counters', counters })));
  if (api.onLessonProgress) subs.push(api.onLessonProgress((p) => post({ type: 'lesson', ...p })));
  if (api.onHeight) {
    subs.push(
      api.onHeight((px) => {
        const h = Math.ceil(px);
        if (h === lastHeight) return;
        lastHeight = h;
        post({ type: 'height', px: h });
      }),
    );
  }
  win.addEventListener('message', onMessage);
  post({ type: 'ready' });
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      win.removeEventListener('message', onMessage);
      for (const u of subs) u();
    },
  };
}

function describeType(type: unknown): string {
  const known = 'load, play, pause, seek';
  if (typeof type !== 'string') return `no "type" (one of ${known})`;
  if (!['load', 'play', 'pause', 'seek'].includes(type))
    return `unknown type "${type.slice(0, 40)}" (one of ${known})`;
  return `"${type}" has missing or invalid fields`;
}

/**
 * The usual onHeight source: the height of the document's content, via ResizeObserver. The root
 * element's box, not its scrollHeight: scrollHeight is never less than the frame's own height, so
 * a frame sized from it could grow but never shrink back. For LabApi implementations in the browser.
 */
export function observeDocumentHeight(doc: Document, cb: (px: number) => void): Unsubscribe {
  const el = doc.documentElement;
  const measure = () => cb(el.getBoundingClientRect().height);
  const ro = new ResizeObserver(measure);
  ro.observe(el);
  measure();
  return () => ro.disconnect();
}
