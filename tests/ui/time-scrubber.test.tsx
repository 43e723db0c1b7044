/**
 * The time controls' scrubber and pickers in happy-dom, against a real store and a fake lab that
 * records what it is asked: the scrubber is a named slider over [0, furthest reached], keyboard
 * operable, coalesces a drag into the latest seek; Step's target and "run until a counter moves"
 * are chosen from the stages and the instances' real counters; a bad time is refused with a message.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PathFrame } from '../../src/protocol/path-frame';
import type { Frame, RunUntil } from '../../src/protocol/sim-api';
import type { LabController } from '../../src/sim-client/lab-controller';
import { type AppStore, applyFrame, patch, type StepChoice } from '../../src/state/app-store';
import { TimeControls } from '../../src/ui/time-controls';
import { mount, twoInstanceStore } from './mount';

let store: AppStore;
let el: HTMLDivElement;
const seeks: number[] = [];
const untils: RunUntil[] = [];
const cancels: number[] = [];
let release: (() => void) | null = null;

function fakeLab(): LabController {
  const nop = () => {};
  return {
    loadPreset: async () => {},
    submit: async () => true,
    interrupt: async () => {},
    play: nop,
    pause: nop,
    togglePlay: nop,
    step: async () => {},
    setStep: (c: StepChoice) => patch(store, 'playback', { step: c }),
    setSpeed: nop,
    faster: nop,
    slower: nop,
    // a seek takes a while: the next ones wait for it (as the worker's one request in flight)
    seek: (ns: number) =>
      new Promise<void>((resolve) => {
        seeks.push(ns);
        release = () => {
          patch(store, 'playback', { nowNs: ns });
          resolve();
        };
      }),
    rewind: async () => {},
    cancelRun: () => void cancels.push(store.getState().playback.nowNs),
    runUntil: (c: RunUntil) => void untils.push(c),
    crashWorker: nop,
    select: async () => {},
    loadLesson: async () => {},
    lessonBegin: async () => {},
    lessonObservation: async () => null,
    chartSeries: async () => null,
    dispose: nop,
  } as unknown as LabController;
}

beforeEach(() => {
  seeks.length = 0;
  cancels.length = 0;
  untils.length = 0;
  store = twoInstanceStore();
  patch(store, 'results', {
    counters: [
      { host: 'client', names: ['queue_0_tx_cnt', 'bw_out_allowance_exceeded'], values: new Float64Array(2) },
      { host: 'server', names: ['queue_0_rx_cnt', 'pps_allowance_exceeded'], values: new Float64Array(2) },
    ],
  });
  patch(store, 'playback', { nowNs: 8e9, furthestNs: 10e9, checkpoints: [2.5e9, 5e9, 7.5e9] });
  el = mount(<TimeControls />, { store, lab: fakeLab() });
});

const slider = () =>
  el.querySelector<HTMLInputElement>('input[aria-label="Timeline: simulated time position"]')!;
const sleep = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));
function key(target: Element, k: string) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  });
}
function setValue(input: HTMLInputElement | HTMLSelectElement, v: string) {
  act(() => {
    const proto =
      input instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(input, v);
    input.dispatchEvent(
      new Event(input instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
    );
  });
}

describe('scrubber', () => {
  it('is a named slider over [0, furthest reached] showing the clock, with checkpoint marks', () => {
    const s = slider();
    expect(s.type).toBe('range');
    expect(Number(s.min)).toBe(0);
    expect(Number(s.max)).toBe(10e9);
    expect(Number(s.value)).toBe(8e9);
    expect(s.getAttribute('aria-valuetext')).toBe('8.000000 s of 10.000000 s');
    expect(el.querySelectorAll('.scrubber-mark')).toHaveLength(3);
    act(() => patch(store, 'playback', { nowNs: 12e9, furthestNs: 12e9 }));
    expect(Number(slider().max)).toBe(12e9);
  });

  it('keyboard: Home goes to 0, ←/→ move 1 % of the range, PageDown 10 %; the seek follows', async () => {
    key(slider(), 'ArrowLeft');
    expect(slider().getAttribute('aria-valuetext')).toBe('7.900000 s of 10.000000 s');
    key(slider(), 'PageDown');
    expect(slider().getAttribute('aria-valuetext')).toBe('6.900000 s of 10.000000 s');
    await sleep(200);
    expect(seeks).toEqual([6.9e9]);
    expect(el.querySelector('.scrubber-state')!.textContent).toMatch(/going to 6\.900000 s/);
    act(() => release!());
    await sleep(0);
    expect(slider().value).toBe(String(6.9e9));
    key(slider(), 'Home');
    await sleep(200);
    expect(seeks).toEqual([6.9e9, 0]);
  });

  it('a drag seeks once it settles, and moves made while a seek runs collapse into the latest', async () => {
    setValue(slider(), String(3e9));
    setValue(slider(), String(2e9));
    await sleep(200);
    expect(seeks).toEqual([2e9]);
    // the seek to 2 s is still running: three more moves, one seek after it (to the last)
    setValue(slider(), String(4e9));
    await sleep(150);
    setValue(slider(), String(5e9));
    await sleep(150);
    setValue(slider(), String(6e9));
    await sleep(150);
    expect(seeks).toEqual([2e9]);
    act(() => release!());
    await sleep(10);
    expect(seeks).toEqual([2e9, 6e9]);
    act(() => release!());
    await sleep(10);
    expect(el.querySelector('.scrubber-state')!.textContent).toBe('');
    // quick seeks are waited for (above); a long one showing its progress is called off by a move
    expect(cancels).toEqual([]);
    setValue(slider(), String(1e9));
    await sleep(150);
    act(() => patch(store, 'playback', { runTo: { fromNs: 0, toNs: 1e9, startedMs: 0, pace: [] } }));
    setValue(slider(), String(7e9));
    await sleep(150);
    expect(cancels).toHaveLength(1);
    act(() => patch(store, 'playback', { runTo: null }));
    act(() => release!());
    await sleep(10);
    expect(seeks).toEqual([2e9, 6e9, 1e9, 7e9]);
    act(() => release!());
    await sleep(10);
  });

  it('a move made while the first request of a seek runs calls that seek off once it turns out long (its progress shows)', async () => {
    setValue(slider(), String(2e9));
    await sleep(200);
    expect(seeks).toEqual([2e9]);
    // moved again before the seek said it has a long replay ahead: it may still be quick, wait
    setValue(slider(), String(6e9));
    await sleep(150);
    expect(cancels).toEqual([]);
    // its first answer: a replay with its progress bar; the newest position wins (no wait for the replay)
    act(() =>
      patch(store, 'playback', {
        runTo: { fromNs: 0, toNs: 2e9, startedMs: 0, pace: [], back: { originNs: 8e9 } },
      }),
    );
    expect(cancels).toHaveLength(1);
    act(() => patch(store, 'playback', { runTo: null }));
    act(() => release!());
    await sleep(10);
    expect(seeks).toEqual([2e9, 6e9]);
    // the next one's progress is its own: nothing newer waits, nothing is called off
    act(() =>
      patch(store, 'playback', {
        runTo: { fromNs: 0, toNs: 6e9, startedMs: 0, pace: [], back: { originNs: 8e9 } },
      }),
    );
    expect(cancels).toHaveLength(1);
    act(() => patch(store, 'playback', { runTo: null }));
    act(() => release!());
    await sleep(10);
    expect(el.querySelector('.scrubber-state')!.textContent).toBe('');
  });
});

describe('speed and clock', () => {
  it('speed is a log-scale slider from 1 µs to 10 min of simulated time per wall second; the clock shows its unit', () => {
    const speed = el.querySelector<HTMLInputElement>('input[aria-label="Speed"]')!;
    expect(Number(speed.min)).toBe(3); // log10(1e3 ns/s)
    // the top is log10(600e9) = 11.778 rounded up onto the 0.01 step grid (End must reach 10 min/s;
    // the slider's position is clamped to 10 min/s: tests/ui/lab-ui.test.tsx)
    expect(Number(speed.max)).toBeCloseTo(11.78, 10);
    const shown = () => [
      speed.getAttribute('aria-valuetext'),
      el.querySelector('.speed output')!.textContent,
    ];
    act(() => patch(store, 'playback', { speedMode: 'manual', speedNsPerS: 1e3 }));
    expect(shown()).toEqual(['1 µs/s', '1 µs/s']);
    act(() => patch(store, 'playback', { speedNsPerS: 2.5e6 }));
    expect(shown()).toEqual(['2.5 ms/s', '2.5 ms/s']);
    act(() => patch(store, 'playback', { speedNsPerS: 600e9 }));
    expect(shown()).toEqual(['10 min/s', '10 min/s']);
    const clock = el.querySelector('[role=status][aria-label="Simulated time"]')!;
    expect(clock.textContent).toBe('t = 8.000000 s');
    act(() => patch(store, 'playback', { nowNs: 125e9 }));
    expect(clock.textContent).toBe('t = 2 min 05.000000 s');
  });
});

describe('step and run-until pickers', () => {
  it('Step to: the next event, or the next packet entering a stage of the path, on either instance or one', () => {
    const pick = el.querySelector<HTMLSelectElement>('select[aria-label="Step to"]')!;
    const values = [...pick.options].map((o) => o.value);
    expect(values).toEqual([
      'event',
      'packet:socket_tx',
      'packet:qdisc',
      'packet:tx_ring',
      'packet:nitro_egress',
      'packet:fabric',
      'packet:nitro_ingress',
      'packet:rx_ring',
      'packet:socket_rx',
      'frame',
    ]);
    setValue(pick, 'packet:rx_ring');
    expect(store.getState().playback.step).toEqual({ kind: 'packet', stage: 'rx_ring' });
    const on = el.querySelector<HTMLSelectElement>('select[aria-label="Step on instance"]')!;
    setValue(on, 'server');
    expect(store.getState().playback.step).toEqual({ kind: 'packet', stage: 'rx_ring', host: 'server' });
  });

  it('run until a counter moves: any ethtool -S counter of the chosen instance', () => {
    const kind = el.querySelector<HTMLSelectElement>('fieldset.run-until select')!;
    setValue(kind, 'counter');
    const host = el.querySelector<HTMLSelectElement>('select[aria-label="Counter of instance"]')!;
    const counter = () => el.querySelector<HTMLSelectElement>('select[aria-label="Counter"]')!;
    expect([...counter().options].map((o) => o.value)).toEqual([
      'bw_out_allowance_exceeded',
      'queue_0_tx_cnt',
    ]);
    setValue(host, 'server');
    expect([...counter().options].map((o) => o.value)).toEqual(['pps_allowance_exceeded', 'queue_0_rx_cnt']);
    setValue(counter(), 'queue_0_rx_cnt');
    act(() => el.querySelector<HTMLButtonElement>('fieldset.run-until button')!.click());
    expect(untils).toEqual([{ kind: 'counter-moves', host: 'server', counter: 'queue_0_rx_cnt' }]);
  });

  it('run until a time: refuses what is not a time and says why; a time behind the clock goes back to it', () => {
    const kind = el.querySelector<HTMLSelectElement>('fieldset.run-until select')!;
    setValue(kind, 'time');
    const t = el.querySelector<HTMLInputElement>('input[aria-label="Run until time in seconds"]')!;
    const go = () => act(() => el.querySelector<HTMLButtonElement>('fieldset.run-until button')!.click());
    setValue(t, 'soon');
    go();
    expect(el.querySelector('[role=alert]')!.textContent).toBe('"soon" is not a time in seconds (e.g. 1.5)');
    setValue(t, '-1');
    go();
    expect(el.querySelector('[role=alert]')!.textContent).toBe('"-1" is not a time in seconds (e.g. 1.5)');
    setValue(t, '9.25');
    go();
    expect(untils).toEqual([{ kind: 'time', atNs: 9.25e9 }]);
    expect(el.querySelector('[role=alert]')).toBeNull();
    // a time behind the clock: back to it
    setValue(t, '1.234567891');
    go();
    expect(seeks).toEqual([1_234_567_891]);
  });

  it('shows what the last step did', () => {
    act(() =>
      patch(store, 'playback', {
        lastStep: {
          kind: 'packet',
          found: true,
          fromNs: 0,
          atNs: 5_272_893,
          summary:
            '64 packets of flow 1 (seq 7132353) entered RX ring queue 1 on server (3 model events later)',
          packet: null,
          moves: [],
        },
      }),
    );
    expect(el.querySelector('[data-testid=step-report]')!.textContent).toBe(
      'Step → 0.005273 s: 64 packets of flow 1 (seq 7132353) entered RX ring queue 1 on server (3 model events later)',
    );
    // a frame while paused keeps it; playing on clears it
    const f = {
      protocolVersion: 3,
      nowNs: 5_272_893,
      furthestNs: 10e9,
      checkpoints: [],
      stepped: null,
      events: 0,
      reached: true,
      stoppedBy: null,
      foreground: null,
      backgroundCount: 0,
      terminal: [],
      sampleCount: 0,
      buffers: { sampleTimes: new Float64Array(0), samples: new Float64Array(0) },
      counters: [],
      labEvents: [],
      runs: [],
      path: { lanes: 0, toNs: 0, laneHost: new Uint8Array(0) } as unknown as PathFrame,
    } as Frame;
    act(() => applyFrame(store, f));
    expect(el.querySelector('[data-testid=step-report]')).not.toBeNull();
    act(() => patch(store, 'playback', { playing: true }));
    act(() => applyFrame(store, { ...f, nowNs: 6e6 }));
    expect(el.querySelector('[data-testid=step-report]')).toBeNull();
  });
});
