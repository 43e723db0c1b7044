/**
 * Embed mode (`#…&embed=1`): the lab inside another page. No header, intro, experiment panel or
 * lessons unless asked; only the chosen panels (path, charts, terminal, lessons); the controls the
 * link asks for (none; minimal: play/pause and the clock; full: the lab's time controls); and
 * always an "Open in the full lab" link (a new tab, the same run without the embed flags).
 * Nothing here writes to storage or history.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { formatSimTime } from '../state/app-store';
import { ChartsPanel } from './charts/charts-panel';
import { type EmbedPanel, useApp, useLab, useSharing } from './context';
import { CountersPanel } from './counters-panel';
import { LessonsPanel } from './lessons/lessons-panel';
import { Notices, useThemeAttribute } from './notices';
import { PathPanel } from './path-panel';
import { RunProgress } from './run-progress';
import { LinkChangesNotice } from './share-panel';
import { Terminal } from './terminal';
import { TimeControls } from './time-controls';
import './share.css';

export const DEFAULT_EMBED_PANELS: EmbedPanel[] = ['path', 'charts', 'terminal'];

export function EmbedApp({ pathView }: { pathView?: ReactNode }) {
  const controls = useApp((s) => s.env.controls);
  const panels = useApp((s) => s.env.panels) ?? DEFAULT_EMBED_PANELS;
  const announcement = useApp((s) => s.env.announcement);

  useThemeAttribute();

  const show = (p: EmbedPanel) => panels.includes(p);
  return (
    <div className="app embed" data-embed="1">
      <div className="embed-bar">
        {controls === 'minimal' ? <MinimalControls /> : null}
        <FullLabLink />
      </div>
      {controls === 'full' ? <TimeControls /> : null}
      <RunProgress />
      <Notices />
      <LinkChangesNotice />
      <main className="embed-grid">
        {show('path') ? (
          <section className="panel path" aria-label="Packet path">
            {pathView ?? <PathPanel />}
          </section>
        ) : null}
        {show('terminal') ? <Terminal /> : null}
        {show('charts') ? (
          <>
            <ChartsPanel />
            <CountersPanel />
          </>
        ) : null}
        {show('lessons') ? <LessonsPanel /> : null}
      </main>
      <div className="visually-hidden" aria-live="polite" role="log" aria-label="What changed">
        {announcement}
      </div>
    </div>
  );
}

/** Play/Pause and the simulated clock. */
function MinimalControls() {
  const lab = useLab();
  const playing = useApp((s) => s.playback.playing);
  const nowNs = useApp((s) => s.playback.nowNs);
  const loading = useApp((s) => s.scenario.loading);
  return (
    <section className="embed-controls" aria-label="Time controls">
      <button
        type="button"
        className="primary"
        onClick={() => lab.togglePlay()}
        disabled={loading}
        aria-label={playing ? 'Pause' : 'Play'}
      >
        <span aria-hidden="true">{playing ? '❚❚ ' : '▶ '}</span>
        {playing ? 'Pause' : 'Play'}
      </button>
      <div className="clock" role="status" aria-label="Simulated time" aria-live="off">
        <span className="clock-label">t =</span> <span data-testid="sim-time">{formatSimTime(nowNs)}</span>
      </div>
    </section>
  );
}

/** A new tab with this run in the full lab; the link is made when followed, so it is current. */
function FullLabLink() {
  const sharing = useSharing();
  const [initial] = useState(() => (sharing ? safeInitial(sharing) : '/'));
  if (!sharing) return null;
  const refresh = (a: HTMLAnchorElement) => {
    try {
      a.href = sharing.fullLabLink();
    } catch {
      // keep the link the page was opened with
    }
  };
  return (
    <a
      className="full-lab-link"
      href={initial}
      target="_blank"
      rel="noopener noreferrer"
      onMouseDown={(e) => refresh(e.currentTarget)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') refresh(e.currentTarget);
      }}
      onFocus={(e) => refresh(e.currentTarget)}
    >
      Open in the full lab <span aria-hidden="true">↗</span>
    </a>
  );
}

function safeInitial(sharing: { fullLabLink(): string }): string {
  try {
    return sharing.fullLabLink();
  } catch {
    return '/';
  }
}
