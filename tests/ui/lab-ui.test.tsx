/**
 * The lab's own components in happy-dom, against a real store and a fake lab controller: the
 * terminal (prompt, history with ↑/↓, Ctrl-C, Ctrl-L), the time controls (accessible names, the
 * "Simulated time" status with its unit, keyboard shortcuts), the counters panel (moved counters
 * highlighted) and the store's frame folding.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { PathFrame } from '../../src/protocol/path-frame';
import type { Frame } from '../../src/protocol/sim-api';
import type { LabController } from '../../src/sim-client/lab-controller';
import {
  type AppStore,
  applyFrame,
  formatSpeed,
  patch,
  SPEED_MAX_NS_PER_S,
  SPEED_MIN_NS_PER_S,
  SPEED_NOTCHES,
} from '../../src/state/app-store';
import { CountersPanel } from '../../src/ui/counters-panel';
import { RunProgress } from '../../src/ui/run-progress';
import { Terminal } from '../../src/ui/terminal';
import { SPEED_SLIDER_STEP, speedFromSlider, TimeControls } from '../../src/ui/time-controls';
import { mount, twoInstanceStore } from './mount';

const calls: string[] = [];
function fakeLab(store: AppStore): LabController {
  const log = (s: string) => () => {
    calls.push(s);
  };
  return {
    loadPreset: async (id) => void calls.push(`load ${id}`),
    submit: async (line) => {
      calls.push(`submit ${line}`);
      const hist = store.getState().terminal.history;
      patch(store, 'terminal', { history: [...hist, line] });
      return true;
    },
    interrupt: async () => void calls.push('interrupt'),
    play: log('play'),
    pause: log('pause'),
    togglePlay: log('toggle'),
    step: async () => void calls.push('step'),
    setSpeed: (v) => void calls.push(`speed ${v}`),
    faster: log('faster'),
    slower: log('slower'),
    rewind: async (t) => void calls.push(`rewind ${t}`),
    seek: async (t) => void calls.push(`seek ${t}`),
    loadShared: async (o) => {
      calls.push(`shared ${o.presetId}`);
      return true;
    },
    commandLog: () => [],
    setStep: (c) => void calls.push(`step-choice ${c.kind === 'packet' ? c.stage : c.kind}`),
    runUntil: async (c) => void calls.push(`until ${c.kind}`),
    crashWorker: log('crash'),
    cancelRun: log('cancel'),
    select: async () => {},
    loadLesson: async (id) => void calls.push(`lesson ${id}`),
    lessonBegin: async () => void calls.push('lesson-begin'),
    lessonObservation: async () => null,
    chartSeries: async () => null,
    dispose: () => {},
  };
}

const emptyPath = { lanes: 0, toNs: 0, laneHost: new Uint8Array(0) } as unknown as PathFrame;
function frame(p: Partial<Frame>): Frame {
  return {
    protocolVersion: 3,
    nowNs: 0,
    furthestNs: 0,
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
    path: emptyPath,
    runs: [],
    ...p,
  };
}

let el: HTMLDivElement;
let store: AppStore;
let lab: LabController;

function render(node: React.ReactNode) {
  el = mount(node, { store, lab });
}

beforeEach(() => {
  calls.length = 0;
  store = twoInstanceStore();
  lab = fakeLab(store);
});

const key = (target: Element, k: string, init: KeyboardEventInit = {}) =>
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, ...init }));
  });

function typeInto(input: HTMLInputElement, value: string) {
  // React tracks the value: set it through the native setter, then fire input
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    set.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('terminal', () => {
  it('shows the prompt, submits with Enter, recalls history with ↑/↓', async () => {
    render(<Terminal />);
    const input = el.querySelector<HTMLInputElement>('input[aria-label="Command"]')!;
    expect(input).not.toBeNull();
    expect(el.textContent).toContain('[ec2-user@client ~]$');
    typeInto(input, 'ethtool -S eth0');
    await act(async () => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(calls).toContain('submit ethtool -S eth0');
    expect(input.value).toBe('');
    typeInto(input, 'ip link');
    await act(async () => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    key(input, 'ArrowUp');
    expect(input.value).toBe('ip link');
    key(input, 'ArrowUp');
    expect(input.value).toBe('ethtool -S eth0');
    key(input, 'ArrowDown');
    expect(input.value).toBe('ip link');
    key(input, 'ArrowDown');
    expect(input.value).toBe('');
  });

  it("an empty terminal offers the experiment's commands; one click runs it; they go once anything is printed", async () => {
    render(<Terminal />);
    const offered = () =>
      [...el.querySelectorAll('[data-testid=terminal-suggestions] button')].map((b) => b.textContent);
    expect(offered()).toEqual(['iperf3 -c server -t 1 -l 9000 -P 1', 'iperf3 -c server -t 1 -l 9000 -P 2']);
    await act(async () => {
      el.querySelector<HTMLButtonElement>(
        'button[aria-label="Run iperf3 -c server -t 1 -l 9000 -P 2"]',
      )!.click();
    });
    expect(calls).toEqual(['submit iperf3 -c server -t 1 -l 9000 -P 2']);
    act(() =>
      applyFrame(
        store,
        frame({
          nowNs: 1,
          terminal: [
            { atNs: 0, host: 'client', stream: 'input', text: 'iperf3 -c server -t 1 -l 9000 -P 2\n' },
          ],
        }),
      ),
    );
    expect(offered()).toEqual([]);
    // a lesson guides with its own steps: no offer
    act(() => patch(store, 'terminal', { chunks: [] }));
    act(() => patch(store, 'scenario', { presetId: 'lesson:microbursts' }));
    expect(offered()).toEqual([]);
  });

  it('prints output in the scrollback; Ctrl-L clears the screen; Ctrl-C interrupts a running command', async () => {
    render(<Terminal />);
    act(() =>
      applyFrame(
        store,
        frame({
          nowNs: 5,
          foreground: { host: 'client', command: 'iperf3 -c server -t 0', startNs: 0 },
          terminal: [
            { atNs: 0, host: 'client', stream: 'input', text: 'iperf3 -c server -t 0\n' },
            { atNs: 1, host: 'client', stream: 'stdout', text: 'Connecting to host server, port 5201\n' },
          ],
        }),
      ),
    );
    const scroll = el.querySelector('[data-testid=scrollback]')!;
    expect(scroll.textContent).toContain('[ec2-user@client ~]$ iperf3 -c server -t 0');
    expect(scroll.textContent).toContain('Connecting to host server, port 5201');
    // the prompt is hidden while the foreground command runs
    expect(scroll.querySelector('.prompt')).toBeNull();
    const input = el.querySelector<HTMLInputElement>('input[aria-label="Command"]')!;
    await act(async () => {
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'c', ctrlKey: true, bubbles: true }));
    });
    expect(calls).toContain('interrupt');
    key(input, 'l', { ctrlKey: true });
    expect(scroll.textContent).not.toContain('Connecting to host');
  });
});

describe('time controls', () => {
  it('has named controls, a "Simulated time" status with its unit, and keyboard shortcuts', () => {
    render(<TimeControls />);
    const names = [...el.querySelectorAll('button')].map(
      (b) => b.getAttribute('aria-label') ?? b.textContent,
    );
    expect(names).toEqual(expect.arrayContaining(['Play', 'Step', 'Rewind', 'Go']));
    expect(el.querySelector('input[aria-label="Speed"]')).not.toBeNull();
    const status = el.querySelector('[role=status][aria-label="Simulated time"]')!;
    expect(status.textContent).toContain('0.000000 s');
    act(() => patch(store, 'playback', { nowNs: 1_500_000_000, playing: true }));
    expect(status.textContent).toContain('1.500000 s');
    expect(el.querySelector('button[aria-label="Pause"]')).not.toBeNull();
    key(document.body, ' ');
    key(document.body, '.');
    key(document.body, ']');
    key(document.body, '[');
    expect(calls).toEqual(['toggle', 'step', 'faster', 'slower']);
  });
});

describe('the Speed slider', () => {
  it('reaches 1 µs/s at Home and 10 min/s at End: both ends on its step grid', () => {
    render(<TimeControls />);
    const slider = el.querySelector<HTMLInputElement>('input[aria-label="Speed"]')!;
    const [min, max] = [Number(slider.min), Number(slider.max)];
    // a range input's Home and End land on min + k × step: the ends must be on that grid
    const k = (max - min) / SPEED_SLIDER_STEP;
    expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-6);
    expect(formatSpeed(speedFromSlider(min))).toBe(formatSpeed(SPEED_MIN_NS_PER_S));
    expect(speedFromSlider(max)).toBe(SPEED_MAX_NS_PER_S);
    expect(formatSpeed(speedFromSlider(max))).toBe('10 min/s');
    // the position one step below the top is below 10 min/s
    expect(speedFromSlider(max - SPEED_SLIDER_STEP)).toBeLessThan(SPEED_MAX_NS_PER_S);
  });

  it('an arrow key moves one visible notch (1, 2, 5 per decade), Page Up / Page Down a decade', () => {
    render(<TimeControls />);
    const slider = el.querySelector<HTMLInputElement>('input[aria-label="Speed"]')!;
    const press = (k: string) => {
      calls.length = 0;
      act(() => {
        slider.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
      });
      return calls.slice();
    };
    act(() => patch(store, 'playback', { speedMode: 'manual', speedNsPerS: 1e6 }));
    expect(press('ArrowRight')).toEqual(['speed 2000000']);
    expect(press('ArrowUp')).toEqual(['speed 2000000']);
    expect(press('ArrowLeft')).toEqual(['speed 500000']);
    expect(press('ArrowDown')).toEqual(['speed 500000']);
    expect(press('PageUp')).toEqual(['speed 10000000']);
    expect(press('PageDown')).toEqual(['speed 100000']);
    // from between two notches (a drag), the first press lands on the neighbour
    act(() => patch(store, 'playback', { speedNsPerS: 3.3e6 }));
    expect(press('ArrowRight')).toEqual(['speed 5000000']);
    expect(press('ArrowLeft')).toEqual(['speed 2000000']);
    // the ends hold
    act(() => patch(store, 'playback', { speedNsPerS: 600e9 }));
    expect(press('ArrowRight')).toEqual(['speed 600000000000']);
    act(() => patch(store, 'playback', { speedNsPerS: 1e3 }));
    expect(press('PageDown')).toEqual(['speed 1000']);
    // every notch reads as a round figure
    expect(SPEED_NOTCHES.map(formatSpeed).join(' ')).toBe(
      '1 µs/s 2 µs/s 5 µs/s 10 µs/s 20 µs/s 50 µs/s 100 µs/s 200 µs/s 500 µs/s 1 ms/s 2 ms/s 5 ms/s ' +
        '10 ms/s 20 ms/s 50 ms/s 100 ms/s 200 ms/s 500 ms/s 1 s/s 2 s/s 5 s/s 10 s/s 20 s/s 50 s/s ' +
        '1 min/s 2 min/s 5 min/s 10 min/s',
    );
  });

  it('auto is the default and says the speed it chose; Auto toggles it, the slider leaves it', () => {
    render(<TimeControls />);
    const auto = el.querySelector<HTMLButtonElement>('button[aria-pressed]')!;
    const out = () => el.querySelector('[data-testid="speed-text"]')!.textContent;
    const slider = () => el.querySelector<HTMLInputElement>('input[aria-label="Speed"]')!;
    expect(auto.textContent).toBe('Auto');
    expect(auto.getAttribute('aria-pressed')).toBe('true');
    // paused, auto chooses nothing yet
    expect(out()).toBe('auto');
    act(() => patch(store, 'playback', { playing: true, autoPhase: 'packets', speedNsPerS: 24_000 }));
    expect(out()).toBe('auto · 24 µs/s');
    expect(slider().getAttribute('aria-valuetext')).toBe('auto · 24 µs/s');
    act(() => patch(store, 'playback', { autoPhase: 'skip' }));
    expect(out()).toBe('auto · jumping to the next packet');
    calls.length = 0;
    act(() => auto.click());
    expect(calls).toEqual(['speed 24000']);
    act(() => patch(store, 'playback', { speedMode: 'manual' }));
    expect(auto.getAttribute('aria-pressed')).toBe('false');
    expect(out()).toBe('24 µs/s');
    calls.length = 0;
    act(() => auto.click());
    expect(calls).toEqual(['speed auto']);
  });
});

describe('run to an instant', () => {
  it('shows how far it got and the time left at the measured pace, and Cancel asks the lab to stop; gone when no run', () => {
    render(<RunProgress />);
    expect(el.textContent).toBe('');
    // the component reads the wall clock when it renders: hold it still (a loaded machine renders
    // late), on a whole millisecond: with a fractional now, (now − 4000) + 1000 and now − 3000 may
    // differ in the last bit and move a sample out of the 3-s window (the estimate then said 7 s)
    const now = Math.round(performance.now()) + 10_000;
    const clock = vi.spyOn(performance, 'now').mockReturnValue(now);
    onTestFinished(() => clock.mockRestore());
    const started = now - 4_000;
    act(() => {
      patch(store, 'playback', {
        runTo: { fromNs: 0, toNs: 600e9, startedMs: started, pace: [{ wallMs: started, simNs: 0 }] },
        nowNs: 0,
      });
    });
    expect(el.textContent).toContain('Running to t = 10 min 00.000000 s: 0 %');
    expect(el.textContent).toContain('estimating the time left');
    // the first 2 s went at 100 s/s, the last 2 s at 11 s/s (a command started): 222 s by now
    const pace = [
      { wallMs: started, simNs: 0 },
      { wallMs: started + 1000, simNs: 100e9 },
      { wallMs: started + 2000, simNs: 200e9 },
      { wallMs: started + 3000, simNs: 211e9 },
      { wallMs: now, simNs: 222e9 },
    ];
    act(() =>
      patch(store, 'playback', { nowNs: 222e9, runTo: { ...store.getState().playback.runTo!, pace } }),
    );
    expect(el.textContent).toContain('Running to t = 10 min 00.000000 s: 37 %');
    const bar = el.querySelector('progress')!;
    expect(bar.getAttribute('value')).toBe('37');
    // labelled by the visible text
    expect(el.querySelector(`#${CSS.escape(bar.getAttribute('aria-labelledby')!)}`)?.textContent).toMatch(
      /^Running to t = 10 min 00\.000000 s: 37 %$/,
    );
    // over the 3-s window: (222 - 100) s in 3 s = 40.7 s/s, 378 s to go: about 9 s (the whole-run
    // average, 55.5 s/s, said 7 s)
    expect(el.textContent).toMatch(/about 9 s left/);
    expect(el.textContent).toContain('Cancel stops where it has got to');
    const cancel = [...el.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!;
    act(() => cancel.click());
    expect(calls).toEqual(['cancel']);
    // a seek back replaying from a checkpoint: its own words, progress from where the replay is
    act(() =>
      patch(store, 'playback', {
        nowNs: 30e9,
        runTo: { fromNs: 1e9, toNs: 5e9, startedMs: now, atNs: 3e9, back: { originNs: 30e9 }, pace: [] },
      }),
    );
    expect(el.textContent).toContain('Going back to t = 5.000000 s: 50 %');
    expect(el.textContent).toContain('Cancel returns to 30.000000 s, where the lab was');
    // a replay to the instant the lab is at (the picture after a stopped "run until"): its own words
    act(() =>
      patch(store, 'playback', {
        runTo: { fromNs: 20e9, toNs: 30e9, startedMs: now, atNs: 25e9, back: { originNs: 30e9 }, pace: [] },
      }),
    );
    expect(el.textContent).toContain('Drawing the packets at t = 30.000000 s: 50 %');
    expect(el.textContent).toContain('Cancel keeps the lab as it is');
    act(() => patch(store, 'playback', { runTo: null }));
    expect(el.textContent).toBe('');
  });
});

describe('counters', () => {
  it('highlights the counters that moved since the previous frame', () => {
    render(<CountersPanel />);
    const counters = (v: number) => [
      {
        host: 'client',
        names: ['bw_out_allowance_exceeded', 'queue_0_tx_cnt'],
        values: new Float64Array([0, v]),
      },
    ];
    act(() => applyFrame(store, frame({ counters: counters(10) })));
    act(() => applyFrame(store, frame({ counters: counters(25) })));
    const moved = [...el.querySelectorAll('tr.moved th')].map((t) => t.textContent);
    expect(moved).toEqual(['queue_0_tx_cnt']);
    // zeros are hidden unless asked for
    expect(el.textContent).not.toContain('bw_out_allowance_exceeded');
    expect(el.textContent).toContain('25');
  });
});
