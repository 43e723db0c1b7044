/** A panel that throws shows its own message and "Try again"; the panels beside it stay. */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { PanelBoundary } from '../../src/ui/panel-boundary';

let broken = true;
function Flaky() {
  if (broken) throw new Error('bad frame');
  return <p>charts drawn</p>;
}

describe('PanelBoundary', () => {
  it('keeps a failing panel to its own place, and Try again renders it afresh', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const el = document.createElement('div');
    document.body.append(el);
    const root = createRoot(el);
    await act(async () =>
      root.render(
        <>
          <PanelBoundary name="the charts">
            <Flaky />
          </PanelBoundary>
          <p>terminal still here</p>
        </>,
      ),
    );
    expect(el.textContent).toContain('Showing the charts failed (bad frame); the rest of the lab goes on.');
    expect(el.textContent).toContain('terminal still here');
    broken = false;
    await act(async () => el.querySelector('button')!.click());
    expect(el.textContent).toContain('charts drawn');
    expect(el.textContent).not.toContain('failed');
    root.unmount();
    spy.mockRestore();
  });
});
