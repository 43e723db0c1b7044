/**
 * The experiment's suggested commands where the eye lands: before anything runs, the charts panel
 * offers them beside the chart the preset opens on (on a phone the picker scrolls there, far below
 * the terminal), each a button that submits the command as the terminal's chip does; once anything
 * is printed, loading or running, neither offers them.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppStore } from '../../src/state/app-store';
import { patch } from '../../src/state/app-store';
import { ChartsPanel } from '../../src/ui/charts/charts-panel';
import { Terminal } from '../../src/ui/terminal';
import { recordingLab } from './fake-lab';
import { mount, twoInstanceStore } from './mount';

let store: AppStore;
let calls: string[];
let el: HTMLDivElement;

async function settle() {
  // the panel mounts its charts a few per task, and applies the preset's view in an effect
  for (let i = 0; i < 6; i++)
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
}

async function render(presetId: string) {
  patch(store, 'scenario', { presetId });
  el = mount(
    <>
      <Terminal />
      <ChartsPanel />
    </>,
    { store, lab: recordingLab(calls) },
  );
  await settle();
}

const charts = () => el.querySelector('section.charts')!;
const chips = () => charts().querySelector('[data-testid=charts-suggestions]');
const offered = () =>
  [...(chips()?.querySelectorAll('button') ?? [])].map((b) => b.getAttribute('aria-label'));

beforeEach(() => {
  store = twoInstanceStore();
  calls = [];
});

describe("the experiment's commands in the charts panel", () => {
  it('small packets: beside the PPS chart it opens on; a click submits the command; gone once output exists', async () => {
    await render('exp3');
    expect(charts().getAttribute('data-view-focus')).toBe('pps');
    expect(chips()!.textContent).toContain('Run this experiment:');
    expect(offered()).toEqual(['Run iperf3 -c server -t 1 -M 128 -P 1', 'Run ethtool -S eth0']);
    // right after the chart the picker scrolls to
    expect(charts().querySelector('[data-chart="pps"]')!.nextElementSibling).toBe(chips());
    // the terminal offers the same commands (one list, two places)
    const term = [...el.querySelectorAll('[data-testid=terminal-suggestions] button')];
    expect(term.map((b) => b.getAttribute('aria-label'))).toEqual(offered());

    await act(async () => {
      chips()!
        .querySelector<HTMLButtonElement>('button[aria-label="Run iperf3 -c server -t 1 -M 128 -P 1"]')!
        .click();
    });
    expect(calls.filter((c) => c.startsWith('submit'))).toEqual(['submit iperf3 -c server -t 1 -M 128 -P 1']);

    act(() =>
      patch(store, 'terminal', {
        chunks: [{ atNs: 0, host: 'client', stream: 'input', text: 'iperf3 -c server -t 1 -M 128 -P 1\n' }],
      }),
    );
    expect(chips()).toBeNull();
    expect(el.querySelector('[data-testid=terminal-suggestions]')).toBeNull();
  });

  it('a preset without a view of its own (one flow vs two): at the top, above the rate chart', async () => {
    await render('exp1');
    expect(offered()).toEqual([
      'Run iperf3 -c server -t 1 -l 9000 -P 1',
      'Run iperf3 -c server -t 1 -l 9000 -P 2',
    ]);
    expect(chips()!.nextElementSibling!.getAttribute('data-chart')).toBe('rate');
    expect(chips()!.previousElementSibling!.classList.contains('charts-head')).toBe(true);
  });

  it('the microburst test: after the ladder; none while loading, while a command runs, or in a lesson', async () => {
    await render('exp4');
    expect(charts().querySelector('[data-chart="ladder"]')!.nextElementSibling).toBe(chips());
    expect(offered()).toEqual(['Run iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1']);
    act(() => patch(store, 'scenario', { loading: true }));
    expect(chips()).toBeNull();
    act(() => patch(store, 'scenario', { loading: false }));
    expect(chips()).not.toBeNull();
    act(() =>
      patch(store, 'terminal', {
        foreground: { host: 'client', command: 'sleep 5', startNs: 0 },
      }),
    );
    expect(chips()).toBeNull();
    act(() => patch(store, 'terminal', { foreground: null }));
    act(() => patch(store, 'scenario', { presetId: 'lesson:microbursts' }));
    await settle();
    expect(chips()).toBeNull();
  });
});
