/**
 * The lessons panel in the DOM, on a real lab: the controller is backed by the worker's own
 * SimService in this process. Starting a lesson loads its scenario; predicates show "not yet",
 * then checked with the lab's numbers once the learner runs the step; a locked-in prediction is
 * judged when the step passes; progress goes to the given storage, and never in embed mode.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { LESSON_DOCUMENTS } from '../../src/lessons/documents';
import { PROGRESS_KEY, type ProgressStorage } from '../../src/lessons/progress';
import type { LabController } from '../../src/sim-client/lab-controller';
import { type AppStore, createAppStore, patch } from '../../src/state/app-store';
import { LessonsPanel } from '../../src/ui/lessons/lessons-panel';
import { SimService } from '../../workers/sim-service';
import { mount as mountNode } from './mount';

class MemStorage implements ProgressStorage {
  readonly data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

/** A controller over an in-process SimService: commands run to their end at once. */
function serviceLab(store: AppStore, service: SimService): LabController {
  const moved = () => patch(store, 'playback', { nowNs: store.getState().playback.nowNs + 1 });
  const unused = () => {
    throw new Error('not used by the lessons panel');
  };
  return {
    loadPreset: async () => unused(),
    loadLesson: async (id, doc) => {
      const r = service.load(doc);
      if (!r.ok) throw new Error(r.errors.join('; '));
      patch(store, 'scenario', { presetId: `lesson:${id}` });
      service.lessonBegin();
    },
    lessonBegin: async () => void service.lessonBegin(),
    lessonObservation: async () => structuredClone(service.lessonObservation()),
    chartSeries: async () => unused(),
    submit: async (line) => {
      const ok = service.submit(line);
      for (
        let i = 0;
        i < 1000 && service.advance({ toNs: Number.POSITIVE_INFINITY, maxEvents: 1e6 }).foreground;
        i++
      );
      moved();
      return ok;
    },
    interrupt: async () => unused(),
    play: unused,
    pause: unused,
    togglePlay: unused,
    step: async () => unused(),
    setSpeed: unused,
    faster: unused,
    slower: unused,
    rewind: async () => unused(),
    seek: async () => unused(),
    setStep: () => unused(),
    runUntil: unused,
    crashWorker: unused,
    cancelRun: unused,
    select: async () => unused(),
    loadShared: async () => unused(),
    commandLog: () => unused(),
    dispose: () => {},
  };
}

/** The lab's lessons plus a draft (none of the lab's own is a draft today). */
const LESSONS = [
  ...LESSON_DOCUMENTS,
  {
    ...LESSON_DOCUMENTS[0]!,
    id: 'ipsec',
    title: 'IPsec tunnels',
    draft: { reason: 'not modelled', needs: ['ip xfrm'] },
  },
];

let el: HTMLDivElement;

function mount(embed: boolean, storage: ProgressStorage) {
  const store = createAppStore({ presetId: 'exp1', doc: {}, env: { embed } });
  const lab = serviceLab(store, new SimService());
  el = mountNode(<LessonsPanel storage={storage} lessons={LESSONS} />, { store, lab });
  return { store, lab };
}

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  });
const button = (text: string | RegExp) => {
  const b = [...el.querySelectorAll('button')].find((x) =>
    typeof text === 'string' ? x.textContent?.trim() === text : text.test(x.textContent ?? ''),
  );
  if (!b) throw new Error(`no button ${text}`);
  return b as HTMLButtonElement;
};
const click = async (b: HTMLElement) => {
  await act(async () => b.click());
  await settle();
};
const predicates = () => [...el.querySelectorAll('.predicates li')].map((li) => li.textContent ?? '');

describe('lessons panel', () => {
  it('lists the missions with drafts disabled, runs a step live and judges the prediction', async () => {
    const storage = new MemStorage();
    const { store, lab } = mount(false, storage);
    expect(store.getState().env.lesson).toBeNull();
    expect(button('IPsec tunnels').disabled).toBe(true);
    expect(el.textContent).toContain('draft: needs ip xfrm');
    expect(button('Tunnels and flow entropy').disabled).toBe(false);
    await click(button('Flow setup and the accelerated path'));
    expect(el.querySelector('h3')?.textContent).toBe('Step 1 of 3: Ask the card');
    expect(predicates()[0]).toMatch(/not met|not yet/);
    // the goal is its sentence, not a metric name or the regex it checks
    expect(predicates()[0]).toBe(
      '○ not yet: You asked the card how it judges a TCP flow to port 80 (lab trace … tcp 80).',
    );
    // a command that is not the one asked for: the goal says so in words, without the regex
    await act(async () => void (await lab.submit('ethtool -S eth0')));
    await settle();
    expect(predicates()[0]).toBe(
      '✗ not met: You asked the card how it judges a TCP flow to port 80 (lab trace … tcp 80). successful runs of `lab trace … tcp 80` in this step: 0; the goal is ≥ 1',
    );

    // the solution, typed by clicking it
    await click(button('Show solution'));
    await click(button('lab trace client server tcp 80'));
    expect(predicates()[0]).toMatch(/^✓ met: /);
    // the progress an embedding page hears (bridge.ts "lesson" messages)
    expect(store.getState().env.lesson).toEqual({
      lessonId: LESSON_DOCUMENTS.find((l) => l.title === 'Flow setup and the accelerated path')!.id,
      step: 0,
      steps: 3,
      done: false,
    });
    await click(button('Next step'));
    expect(store.getState().env.lesson?.step).toBe(1);
    expect(el.querySelector('h3')?.textContent).toBe('Step 2 of 3: One request, one flow setup');
    expect(predicates().every((p) => /not yet/.test(p))).toBe(true);

    // predict, then run
    const input = el.querySelector('.predict input') as HTMLInputElement;
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, '1');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(button('Lock in'));
    expect(input.disabled).toBe(true);
    await click(button('Show solution'));
    await click(button('curl -s -o /dev/null http://server/1M'));
    const p = predicates();
    expect(p).toHaveLength(4);
    expect(p.every((x) => x.startsWith('✓ met: '))).toBe(true);
    expect(p[1]).toContain('flow setups on client');
    expect(el.querySelector('.predict p.ok')?.textContent).toMatch(
      /^Right: you said 1; packets on client's processing path/,
    );
    expect(el.textContent).toContain('Step passed.');

    const saved = JSON.parse(storage.data.get(PROGRESS_KEY)!);
    expect(saved.lessons['flow-setup'].passed).toEqual(['trace', 'first-packet']);
    expect(saved.lessons['flow-setup'].predictions['first-packet']).toEqual({ guess: 1, right: true });
  }, 60_000);

  it('a wrong attempt shows what was compared; embed mode writes nothing', async () => {
    const storage = new MemStorage();
    mount(true, storage);
    await click(button('Flow setup and the accelerated path'));
    await click(button('Show solution'));
    await click(button('lab trace client server tcp 80'));
    await click(button('Next step'));
    // two curls: two flow setups, the goal says one
    await click(button('Show solution'));
    await click(button('curl -s -o /dev/null http://server/1M'));
    await click(button('curl -s -o /dev/null http://server/1M'));
    const p = predicates();
    expect(p[1]).toBe(
      "✗ not met: The client’s card sets up exactly one flow. flow setups on client's Nitro card in this step: 2; the goal is = 1",
    );
    expect(el.querySelectorAll('.predicates li')[1]!.querySelector('.goal-read')?.textContent).toBe(
      " flow setups on client's Nitro card in this step: 2; the goal is = 1",
    );
    expect(el.textContent).not.toContain('Step passed.');
    expect(storage.data.size).toBe(0);
  }, 60_000);

  it('embed mode writes progress once the host page asks (keep-progress)', async () => {
    const storage = new MemStorage();
    const { store } = mount(true, storage);
    act(() => store.setState((s) => ({ env: { ...s.env, hostKeepsProgress: true } })));
    await click(button('Flow setup and the accelerated path'));
    await click(button('Show solution'));
    await click(button('lab trace client server tcp 80'));
    expect(el.textContent).toContain('Step passed.');
    expect(storage.data.size).toBeGreaterThan(0);
  }, 60_000);

  it('opens the lesson and step a link asks for (env.openLesson), and publishes it for Share', async () => {
    const storage = new MemStorage();
    const { store, lab } = mount(false, storage);
    // what main.tsx does for #lesson=flow-setup&step=keepalive: load the lesson's scenario, ask the panel
    const flow = LESSON_DOCUMENTS.find((l) => l.id === 'flow-setup')!;
    await act(async () => {
      await lab.loadLesson(flow.id, flow.scenario, flow.title);
      patch(store, 'env', { openLesson: { lessonId: 'flow-setup', step: 2 } });
    });
    await settle();
    expect(el.querySelector('h3')?.textContent).toBe(`Step 3 of 3: ${flow.steps[2]!.title}`);
    expect(store.getState().env.openLesson).toBeNull();
    expect(store.getState().env.lesson).toEqual({ lessonId: 'flow-setup', step: 2, steps: 3, done: false });
    expect(JSON.parse(storage.data.get(PROGRESS_KEY)!).lessons['flow-setup'].current).toBe(2);
    // no step named: where the learner's progress is
    await click(button('All lessons'));
    await act(async () => patch(store, 'env', { openLesson: { lessonId: 'flow-setup', step: null } }));
    await settle();
    expect(el.querySelector('h3')?.textContent).toBe(`Step 3 of 3: ${flow.steps[2]!.title}`);
    // a lesson the panel does not know: nothing opens, the request is dropped
    await click(button('All lessons'));
    await act(async () => patch(store, 'env', { openLesson: { lessonId: 'nope', step: 0 } }));
    await settle();
    expect(el.querySelector('h3')).toBeNull();
    expect(store.getState().env.openLesson).toBeNull();
  }, 60_000);
});
