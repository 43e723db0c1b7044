/**
 * Tabs as the WAI-ARIA tabs pattern describes them: a tablist of buttons with roving tabindex
 * (←/→, Home/End move between tabs and select them), each panel a tabpanel labelled by its tab.
 * Panels marked `keepMounted` stay in the tree while hidden (they keep their own state, such as
 * an open lesson; 'paused' ones also stop updating while hidden); the others are mounted only while shown (no work for what nobody sees).
 * The tab strip follows a click at once; the panel switches in a deferred render (React's
 * useDeferredValue), so mounting a heavy panel (the charts) never holds back the paint that shows
 * which tab was chosen: React renders it in slices between frames.
 */
import { Activity, type KeyboardEvent, type ReactNode, useDeferredValue, useId, useRef } from 'react';

export interface TabDef {
  id: string;
  label: ReactNode;
  content: ReactNode;
  /**
   * Stay in the tree while hidden: true keeps it live (its effects run, e.g. a lesson checking its
   * goals); 'paused' keeps its state but defers its updates and stops its effects while hidden
   * (React's Activity), for a panel that only shows what it subscribes to.
   */
  keepMounted?: boolean | 'paused';
}

export function Tabs({
  label,
  tabs,
  active,
  onChange,
  className,
}: {
  label: string;
  tabs: readonly TabDef[];
  active: string;
  onChange: (id: string) => void;
  className?: string;
}) {
  const base = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const cur = Math.max(
    0,
    tabs.findIndex((t) => t.id === active),
  );
  const shownId = useDeferredValue(active);
  const shown = Math.max(
    0,
    tabs.findIndex((t) => t.id === shownId),
  );
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    let next = -1;
    if (e.key === 'ArrowRight') next = (cur + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (cur - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onChange(tabs[next]!.id);
    refs.current[next]?.focus();
  };
  return (
    <div className={`tabs ${className ?? ''}`}>
      <div role="tablist" aria-label={label} className="tablist" onKeyDown={onKey}>
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(b) => {
              refs.current[i] = b;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.id}`}
            aria-controls={i === shown || t.keepMounted ? `${base}-panel-${t.id}` : undefined}
            aria-selected={i === cur}
            tabIndex={i === cur ? 0 : -1}
            onClick={() => onChange(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t, i) =>
        i === shown || t.keepMounted ? (
          <div
            key={t.id}
            role="tabpanel"
            id={`${base}-panel-${t.id}`}
            aria-labelledby={`${base}-tab-${t.id}`}
            className="tabpanel"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern makes a panel focusable (it scrolls; its content may have no focusable element)
            tabIndex={0}
            hidden={i !== shown}
          >
            {t.keepMounted === 'paused' ? (
              <Activity mode={i === shown ? 'visible' : 'hidden'}>{t.content}</Activity>
            ) : (
              t.content
            )}
          </div>
        ) : null,
      )}
    </div>
  );
}
