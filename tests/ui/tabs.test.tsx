/**
 * The side column's tabs (src/ui/tabs.tsx) follow the WAI-ARIA tabs pattern: one tab in the Tab
 * order (roving tabindex), ←/→/Home/End move and select, each panel is labelled by its tab; a
 * `keepMounted` panel keeps its state while hidden, the others are mounted only while shown.
 */
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs } from '../../src/ui/tabs';
import { mount } from './mount';

let el: HTMLDivElement | null = null;

function Counter() {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      clicked {n}
    </button>
  );
}

function Harness() {
  const [active, setActive] = useState('a');
  return (
    <Tabs
      label="Panels"
      active={active}
      onChange={setActive}
      tabs={[
        { id: 'a', label: 'Alpha', keepMounted: true, content: <Counter /> },
        { id: 'b', label: 'Beta', content: <p>beta body</p> },
        { id: 'c', label: 'Gamma', content: <p>gamma body</p> },
      ]}
    />
  );
}

const tabs = () => [...el!.querySelectorAll<HTMLButtonElement>('[role=tab]')];
const selected = () => tabs().find((t) => t.getAttribute('aria-selected') === 'true')?.textContent;
const press = (key: string) =>
  act(() => {
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });

describe('tabs', () => {
  it('roving tabindex, arrow keys, Home/End, labelled panels, kept and unmounted panels', () => {
    el = mount(<Harness />);

    expect(el.querySelector('[role=tablist]')?.getAttribute('aria-label')).toBe('Panels');
    expect(tabs().map((t) => t.tabIndex)).toEqual([0, -1, -1]);
    const panel = el.querySelector('[role=tabpanel]:not([hidden])')!;
    expect(panel.getAttribute('aria-labelledby')).toBe(tabs()[0]!.id);

    // state in a kept panel survives being hidden
    act(() => el!.querySelector<HTMLButtonElement>('[role=tabpanel] button')!.click());
    tabs()[0]!.focus();
    press('ArrowRight');
    expect(selected()).toBe('Beta');
    expect(document.activeElement).toBe(tabs()[1]);
    expect(tabs().map((t) => t.tabIndex)).toEqual([-1, 0, -1]);
    expect(el.textContent).toContain('beta body');
    expect(el.textContent).not.toContain('gamma body');
    press('End');
    expect(selected()).toBe('Gamma');
    expect(el.textContent).not.toContain('beta body'); // unmounted when hidden
    press('ArrowRight');
    expect(selected()).toBe('Alpha'); // wraps
    press('ArrowLeft');
    expect(selected()).toBe('Gamma');
    press('Home');
    expect(selected()).toBe('Alpha');
    expect(el.querySelector('[role=tabpanel]:not([hidden]) button')?.textContent).toBe('clicked 1');
  });
});
