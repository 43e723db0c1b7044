/**
 * The host-page postMessage bridge (src/share/bridge.ts), with a fake window and message events:
 * off unless embedded with a named origin; ignores other origins and windows; validates messages;
 * drives the lab through LabApi and reports time, counters, lesson progress and height.
 */
import { describe, expect, it } from 'vitest';
import { defaultScenario, type Scenario } from '../../src/scenario/schema';
import { type BridgeWindow, type LabApi, type LessonProgress, startBridge } from '../../src/share/bridge';
import { encodeShareLink, type ViewState } from '../../src/share/codec';
import type { EmbedFlags } from '../../src/share/embed';

const HOST = 'https://docs.example.com';

function fakeWindow() {
  const listeners = new Set<(ev: MessageEvent) => void>();
  const posted: Array<{ message: unknown; targetOrigin: string }> = [];
  const parent = {
    postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }),
  };
  const win: BridgeWindow = {
    addEventListener: (_t, l) => listeners.add(l),
    removeEventListener: (_t, l) => listeners.delete(l),
    parent,
  };
  const send = (data: unknown, origin = HOST, source: unknown = parent) => {
    for (const l of [...listeners]) l({ data, origin, source } as unknown as MessageEvent);
  };
  return { win, parent, posted, send, listeners };
}

function fakeLab() {
  const calls: string[] = [];
  const loaded: Scenario[] = [];
  const views: Array<ViewState | undefined> = [];
  const emit = {
    time: (_t: number) => {},
    counters: (_c: Record<string, Record<string, number>>) => {},
    lesson: (_p: LessonProgress) => {},
    height: (_h: number) => {},
  };
  let unsubscribed = 0;
  const unsubscribe = () => {
    unsubscribed++;
  };
  const api: LabApi = {
    loadScenario: (s, view) => {
      calls.push('load');
      loaded.push(s);
      views.push(view);
    },
    play: () => calls.push('play'),
    pause: () => calls.push('pause'),
    seek: (t) => calls.push(`seek ${t}`),
    onTime: (cb) => {
      emit.time = cb;
      return unsubscribe;
    },
    onCounters: (cb) => {
      emit.counters = cb;
      return unsubscribe;
    },
    onLessonProgress: (cb) => {
      emit.lesson = cb;
      return unsubscribe;
    },
    onHeight: (cb) => {
      emit.height = cb;
      return unsubscribe;
    },
  };
  return { api, calls, loaded, views, emit, unsubscribed: () => unsubscribed };
}

const FLAGS: EmbedFlags = { embed: true, controls: 'minimal', autoplay: false, origin: HOST };
const msg = (body: Record<string, unknown>) => ({ ns: 'ec2-netlab', v: 1, ...body });
const bodies = (posted: Array<{ message: unknown }>) =>
  posted.map((p) => {
    const { ns: _n, v: _v, ...rest } = p.message as Record<string, unknown>;
    return rest;
  });

describe('bridge', () => {
  it('is off without embed=1, without an origin, or outside a frame', () => {
    for (const flags of [
      { ...FLAGS, embed: false },
      { ...FLAGS, origin: undefined },
    ]) {
      const w = fakeWindow();
      expect(startBridge(w.win, flags, fakeLab().api)).toBeNull();
      expect(w.listeners.size).toBe(0);
      expect(w.posted).toEqual([]);
    }
    const top: { parent: unknown } & BridgeWindow = {
      addEventListener: () => {},
      removeEventListener: () => {},
      parent: null,
    };
    (top as { parent: unknown }).parent = top;
    expect(startBridge(top, FLAGS, fakeLab().api)).toBeNull();
  });

  it('stays off when the browser says the frame belongs to a page of another origin', () => {
    const framedBy = (o: string) => {
      const w = fakeWindow();
      const win: BridgeWindow = { ...w.win, location: { ancestorOrigins: { length: 1, 0: o } } };
      return { w, bridge: startBridge(win, FLAGS, fakeLab().api) };
    };
    const other = framedBy('https://evil.example');
    expect(other.bridge).toBeNull();
    expect(other.w.listeners.size).toBe(0);
    expect(other.w.posted).toEqual([]);
    const named = framedBy(HOST);
    expect(named.bridge).not.toBeNull();
    expect(named.w.posted).toHaveLength(1);
  });

  it('says ready to the allowed origin only, and obeys play, pause and seek from it', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    expect(startBridge(w.win, FLAGS, lab.api)).not.toBeNull();
    w.send(msg({ type: 'play' }));
    w.send(msg({ type: 'seek', timeNs: 1_500_000_000 }));
    w.send(msg({ type: 'pause' }));
    expect(lab.calls).toEqual(['play', 'seek 1500000000', 'pause']);
    expect(w.posted).toEqual([{ message: { ns: 'ec2-netlab', v: 1, type: 'ready' }, targetOrigin: HOST }]);
  });

  it('keep-progress turns local lesson progress on or off when the lab offers it, and says so', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    const kept: boolean[] = [];
    expect(startBridge(w.win, FLAGS, { ...lab.api, keepProgress: (k) => kept.push(k) })).not.toBeNull();
    w.send(msg({ type: 'keep-progress', keep: true }));
    w.send(msg({ type: 'keep-progress', keep: false }));
    w.send(msg({ type: 'keep-progress', keep: 'yes' }));
    w.send(msg({ type: 'keep-progress', keep: true }), 'https://evil.example');
    expect(kept).toEqual([true, false]);
    const b = bodies(w.posted);
    expect(b.slice(1, 3)).toEqual([
      { type: 'progress-kept', keep: true },
      { type: 'progress-kept', keep: false },
    ]);
    expect(b[3]).toMatchObject({ type: 'error' });
    expect(b).toHaveLength(4);
    // a lab without the option says so instead of pretending
    const w2 = fakeWindow();
    startBridge(w2.win, FLAGS, fakeLab().api);
    w2.send(msg({ type: 'keep-progress', keep: true }));
    expect(bodies(w2.posted)[1]).toEqual({
      type: 'error',
      message: 'keep-progress: this lab does not keep lesson progress',
    });
  });

  it('ignores messages from any other origin or window, silently', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    startBridge(w.win, FLAGS, lab.api);
    w.send(msg({ type: 'play' }), 'https://evil.example.com');
    w.send(msg({ type: 'play' }), 'http://docs.example.com');
    w.send(msg({ type: 'play' }), 'null');
    w.send(msg({ type: 'play' }), HOST, { postMessage: () => {} }); // right origin, another window
    w.send(msg({ type: 'play' }), HOST, null);
    expect(lab.calls).toEqual([]);
    expect(w.posted).toHaveLength(1); // ready
  });

  it('validates messages: invalid ones are refused with a reason, foreign ones ignored', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    startBridge(w.win, FLAGS, lab.api);
    w.send('play');
    w.send({ type: 'play' }); // not addressed to the lab
    w.send(msg({ type: 'seek', timeNs: -1 }));
    w.send(msg({ type: 'seek', timeNs: 1.5 }));
    w.send(msg({ type: 'eval', code: 'alert(1)' }));
    w.send(msg({ type: 'play', extra: 1 }));
    w.send({ ns: 'ec2-netlab', v: 2, type: 'play' });
    expect(lab.calls).toEqual([]);
    expect(bodies(w.posted).slice(1)).toEqual([
      { type: 'error', message: 'message not understood: "seek" has missing or invalid fields' },
      { type: 'error', message: 'message not understood: "seek" has missing or invalid fields' },
      {
        type: 'error',
        message: 'message not understood: unknown type "eval" (one of load, play, pause, seek)',
      },
      { type: 'error', message: 'message not understood: "play" has missing or invalid fields' },
      { type: 'error', message: 'message not understood: "play" has missing or invalid fields' },
    ]);
  });

  it('loads a scenario document or a link, repaired and validated like a link', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    startBridge(w.win, FLAGS, lab.api);
    w.send(
      msg({ type: 'load', scenario: { version: 1, seed: 3, instances: [{ name: 'a', type: 'c7i.larg' }] } }),
    );
    w.send(msg({ type: 'load', link: encodeShareLink({ scenario: defaultScenario() }) }));
    w.send(msg({ type: 'load', scenario: { seed: 3 } }));
    w.send(msg({ type: 'load', link: '#v=2&s=!!' }));
    expect(lab.loaded.map((s) => [s.seed, s.instances.map((i) => i.type)])).toEqual([
      [3, ['c7i.large']],
      [1, ['c7i.large', 'c7i.large']],
    ]);
    expect(bodies(w.posted).slice(1)).toEqual([
      {
        type: 'loaded',
        changes: ['instances[0].type: unknown instance type "c7i.larg"; replaced by c7i.large'],
      },
      { type: 'loaded', changes: [] },
      {
        type: 'error',
        message: 'this link could not be read: the scenario has no version (this lab reads 1, 2, 3, 4, 5)',
      },
      {
        type: 'error',
        message: 'this link could not be read: the data has a character that is not base64url at position 1',
      },
    ]);
  });

  it('a link keeps its view (time, selection) for the load; a scenario document has none', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    startBridge(w.win, FLAGS, lab.api);
    const link = encodeShareLink({
      scenario: defaultScenario(),
      view: { timeNs: 2_500_000_000, selection: 'stage:0/3/0' },
    });
    expect(link).toContain('&t=2.5s');
    w.send(msg({ type: 'load', link }));
    w.send(msg({ type: 'load', scenario: defaultScenario() }));
    expect(lab.views).toEqual([{ timeNs: 2_500_000_000, selection: 'stage:0/3/0' }, undefined]);
    expect(bodies(w.posted).slice(1)).toEqual([
      { type: 'loaded', changes: [] },
      { type: 'loaded', changes: [] },
    ]);
  });

  it('reports time on change, counters, lesson progress and height, to the allowed origin', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    startBridge(w.win, FLAGS, lab.api);
    lab.emit.time(1000);
    lab.emit.time(1000);
    lab.emit.time(2000);
    lab.emit.counters({ client: { pps_allowance_exceeded: 0 } });
    lab.emit.lesson({ lessonId: 'per-flow-limits', step: 1, steps: 3, done: false });
    lab.emit.height(640.2);
    lab.emit.height(641);
    expect(bodies(w.posted).slice(1)).toEqual([
      { type: 'time', timeNs: 1000 },
      { type: 'time', timeNs: 2000 },
      { type: 'counters', counters: { client: { pps_allowance_exceeded: 0 } } },
      { type: 'lesson', lessonId: 'per-flow-limits', step: 1, steps: 3, done: false },
      { type: 'height', px: 641 },
    ]);
    expect(w.posted.every((p) => p.targetOrigin === HOST)).toBe(true);
  });

  it('stop() removes the listener and every subscription', () => {
    const w = fakeWindow();
    const lab = fakeLab();
    const b = startBridge(w.win, FLAGS, lab.api)!;
    b.stop();
    b.stop();
    expect(w.listeners.size).toBe(0);
    expect(lab.unsubscribed()).toBe(4);
    w.send(msg({ type: 'play' }));
    expect(lab.calls).toEqual([]);
  });
});
