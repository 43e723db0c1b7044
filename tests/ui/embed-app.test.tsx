/**
 * The embedded lab (src/ui/embed-app.tsx) in the DOM: by default compact (the path, one chart,
 * the experiment's commands as buttons with their output; no charts that would be empty), the
 * panels and the chart the link asks for, a notice for what the link asked that is not valid
 * (never a blank frame), and nothing written to storage.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/scenario/presets';
import { parseEmbedFlags } from '../../src/share/embed';
import { createAppStore, patch } from '../../src/state/app-store';
import { EMBED_CHARTS } from '../../src/state/embed-view';
import { EmbedApp } from '../../src/ui/embed-app';
import { recordingLab } from './fake-lab';
import { mount, unmountAll } from './mount';

let el: HTMLDivElement | null = null;

/** The embedded lab as main.tsx starts it from a link's hash. */
function embed(hash: string, calls: string[] = []) {
  const { flags, notes } = parseEmbedFlags(hash);
  const store = createAppStore({
    presetId: 'exp1',
    doc: PRESETS[0]!.scenario,
    env: {
      embed: true,
      panels: flags.panels ?? null,
      ...(flags.chart ? { chart: flags.chart } : {}),
      controls: flags.controls,
      linkChanges: notes,
    },
  });
  patch(store, 'scenario', { loading: false });
  el = mount(<EmbedApp pathView={<div data-testid="path-stub" />} />, { store, lab: recordingLab(calls) });
  return store;
}
const region = (name: string) =>
  name === 'Packet path'
    ? el!.querySelector('.panel.path [data-testid="path-stub"]')
    : el!.querySelector(`section[aria-label="${name}"]`);
const charts = () => [...el!.querySelectorAll('[data-chart]')].map((c) => (c as HTMLElement).dataset.chart);

describe('embedded lab', () => {
  it('by default: the path, the rate chart alone (no empty axes), and the commands to click', async () => {
    const calls: string[] = [];
    embed('#embed=1', calls);
    expect(region('Packet path')).not.toBeNull();
    expect(charts()).toEqual(['rate']);
    // nothing to draw yet: a line saying what fills it, not an empty plot
    expect(el!.querySelector('[data-chart="rate"]')?.getAttribute('data-empty')).toBe('1');
    expect(el!.querySelector('svg')).toBeNull();
    expect(region('Terminal')).toBeNull();
    expect(region('Lessons')).toBeNull();
    const chips = [...region('Commands')!.querySelectorAll('button.cmd-suggestion')];
    expect(chips.map((b) => b.textContent)).toEqual(PRESETS[0]!.commands);
    await act(async () => (chips[1] as HTMLButtonElement).click());
    expect(calls).toContain(`submit ${PRESETS[0]!.commands[1]}`);
    expect(el!.querySelector('.notice')).toBeNull();
  });

  it('the commands panel shows what the shell printed, and Stop (Ctrl-C) while a command runs', async () => {
    const calls: string[] = [];
    const store = embed('#embed=1', calls);
    act(() =>
      patch(store, 'terminal', {
        chunks: [
          { host: 'client', stream: 'input', text: 'iperf3 -c server -t 1\n' },
          { host: 'client', stream: 'stdout', text: 'Connecting to host server, port 5201\n' },
        ],
        foreground: { host: 'client', command: 'iperf3 -c server -t 1' },
      } as never),
    );
    expect(el!.querySelector('[data-testid="embed-output"]')?.textContent).toBe(
      '[ec2-user@client ~]$ iperf3 -c server -t 1\nConnecting to host server, port 5201\n',
    );
    const chip = region('Commands')!.querySelector('button.cmd-suggestion') as HTMLButtonElement;
    expect(chip.disabled).toBe(true);
    const stop = [...el!.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Stop'))!;
    await act(async () => stop.click());
    expect(calls).toContain('interrupt');
  });

  it('the minimal controls show the speed (auto by default) and set it', async () => {
    const calls: string[] = [];
    embed('#embed=1', calls);
    const speed = el!.querySelector('.embed-speed select') as HTMLSelectElement;
    expect(speed.value).toBe('auto');
    expect(speed.selectedOptions[0]?.textContent).toMatch(/^auto/);
    await act(async () => {
      speed.value = '1000000000';
      speed.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(calls).toContain('setSpeed 1000000000');
  });

  it('shows the panels and the chart the link asks for', () => {
    embed('#embed=1&panels=chart,terminal&chart=pps');
    expect(region('Packet path')).toBeNull();
    expect(charts()).toEqual(['pps']);
    expect(region('Terminal')).not.toBeNull();
    expect(region('Commands')).toBeNull();
  });

  it('every chart the chart flag offers is a chart of the charts panel', () => {
    for (const id of EMBED_CHARTS) {
      embed(`#embed=1&panels=chart&chart=${id}`);
      expect(charts(), id).toEqual([id]);
      unmountAll();
    }
  });

  it('what the link asked that is not valid: a notice that says so, and the default panels, not a blank', () => {
    embed('#embed=1&panels=paths,chrt&chart=ladderz');
    const notice = el!.querySelector('.link-changes')?.textContent ?? '';
    expect(notice).toContain('panels: "paths,chrt" names no panel; showing path, chart, commands');
    expect(notice).toContain('chart: "ladderz" is not a chart (rate, ladder, cloudwatch,');
    expect(region('Packet path')).not.toBeNull();
    expect(charts()).toEqual(['rate']);
    expect(region('Commands')).not.toBeNull();
  });

  it('writes nothing to storage', () => {
    localStorage.clear();
    embed('#embed=1&panels=path,chart,commands,lessons');
    expect(localStorage.length).toBe(0);
  });
});

describe('the embed speed', () => {
  it('paused at auto reads "auto"; playing, what auto does now (as the full lab says it)', () => {
    const store = embed('#embed=1');
    const autoOption = () =>
      el!.querySelector('section[aria-label="Time controls"] option[value="auto"]')!.textContent;
    act(() => patch(store, 'playback', { speedMode: 'auto', autoPhase: 'quiet', playing: false }));
    expect(autoOption()).toBe('auto');
    act(() => patch(store, 'playback', { playing: true }));
    expect(autoOption()).toMatch(/^auto · .+ \(nothing running\)$/);
  });
});
