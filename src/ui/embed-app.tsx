/**
 * Embed mode (`#…&embed=1`): the lab inside another page. No header, intro, experiment panel or
 * lessons unless asked. By default it is compact (DEFAULT_EMBED_PANELS): the path, one chart
 * (`chart=`, the rate chart unless the link names another) and the experiment's commands as
 * buttons with their output; the link may ask for the terminal, every chart and the counters, or
 * the lessons instead (`panels=`). The controls the link asks for (none; minimal: play/pause, the
 * clock and the speed; full: the lab's time controls), and always an "Open in the full lab" link (a new
 * tab, the same run without the embed flags). The page tells its host its height (bridge.ts),
 * so the frame fits it.
 *
 * Layout: the path, and beside it (when the frame is wide enough; under it when not) the chart
 * above the commands (or the terminal). Nothing here writes to storage or history.
 */
import type { ReactNode } from 'react';
import { useLayoutEffect, useRef, useState } from 'react';
import { PRESETS } from '../scenario/presets';
import { formatSimTime, formatSpeed } from '../state/app-store';
import { DEFAULT_EMBED_PANELS, type EmbedChart } from '../state/embed-view';
import { ChartsPanel } from './charts/charts-panel';
import { type EmbedPanel, useApp, useLab, useSharing } from './context';
import { CountersPanel } from './counters-panel';
import { LessonsPanel } from './lessons/lessons-panel';
import { Notices, useThemeAttribute } from './notices';
import { PathPanel } from './path-panel';
import { RunProgress } from './run-progress';
import { LinkChangesNotice } from './share-panel';
import { prompt, Terminal } from './terminal';
import { speedLabel, TimeControls } from './time-controls';
import './share.css';

export { DEFAULT_EMBED_PANELS } from '../state/embed-view';

export function EmbedApp({ pathView }: { pathView?: ReactNode }) {
  const controls = useApp((s) => s.env.controls);
  const panels = useApp((s) => s.env.panels) ?? DEFAULT_EMBED_PANELS;
  const chart = useApp((s) => s.env.chart);
  const announcement = useApp((s) => s.env.announcement);

  useThemeAttribute();

  const show = (p: EmbedPanel) => panels.includes(p);
  const side = show('terminal') ? <Terminal /> : show('commands') ? <CommandChips /> : null;
  const chartView = show('chart') ? <ChartView chart={chart} /> : null;
  return (
    <div className="app embed" data-embed="1" data-panels={panels.join(',')}>
      <header className="embed-bar">
        <h1 className="visually-hidden">ec2-netlab: EC2 networking lab</h1>
        {controls === 'minimal' ? <MinimalControls /> : null}
        <FullLabLink />
      </header>
      {controls === 'full' ? <TimeControls /> : null}
      <RunProgress />
      <Notices />
      <LinkChangesNotice />
      <main className={show('path') && (chartView || side) ? 'embed-grid beside' : 'embed-grid'}>
        {show('path') ? (
          // the path view is the "Packet path" region itself
          <div className="panel path">{pathView ?? <PathPanel />}</div>
        ) : null}
        {chartView || side ? (
          <div className="embed-row">
            {chartView}
            {side}
            {/* with both the terminal and the commands asked for, the commands go under the terminal */}
            {show('terminal') && show('commands') ? <CommandChips /> : null}
          </div>
        ) : null}
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

/** The `chart` panel's view: each EMBED_CHARTS id is a chart of the charts panel (the ladder too). */
function ChartView({ chart }: { chart: EmbedChart }) {
  return <ChartsPanel only={chart} />;
}

/** The commands to click: the experiment's suggestions, or the shared scenario's script. */
function useSuggestedCommands(): string[] {
  const presetId = useApp((s) => s.scenario.presetId);
  const doc = useApp((s) => s.scenario.doc);
  const preset = PRESETS.find((p) => p.id === presetId);
  if (preset) return preset.commands;
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  return Array.isArray(d['script']) ? d['script'].filter((x): x is string => typeof x === 'string') : [];
}

/** Lines of output the commands panel keeps in view (the terminal's last lines). */
const OUTPUT_LINES = 200;

/**
 * The `commands` panel: each suggested command as a button (it types the line in the shell at the
 * current instant and plays), Stop (Ctrl-C) while one runs, and the shell's output, read-only.
 */
function CommandChips() {
  const lab = useLab();
  const commands = useSuggestedCommands();
  const chunks = useApp((s) => s.terminal.chunks);
  const clearedAt = useApp((s) => s.terminal.clearedAt);
  const fg = useApp((s) => s.terminal.foreground);
  const loading = useApp((s) => s.scenario.loading);
  const out = useRef<HTMLPreElement>(null);
  const text = chunks
    .slice(clearedAt)
    .map((c) => (c.stream === 'input' ? `${prompt(c.host)}${c.text}` : c.text))
    .join('');
  const lines = text.split('\n');
  const shown = lines.length > OUTPUT_LINES ? lines.slice(-OUTPUT_LINES).join('\n') : text;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the output is the trigger
  useLayoutEffect(() => {
    const el = out.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [shown]);
  return (
    <section className="panel embed-commands" aria-label="Commands">
      <div className="panel-head">
        <h2>Commands</h2>
        {fg ? (
          <button type="button" className="small" onClick={() => void lab.interrupt()}>
            Stop <span className="muted">(Ctrl-C)</span>
          </button>
        ) : null}
      </div>
      {commands.length > 0 ? (
        <ul className="try embed-chips">
          {commands.map((cmd, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a script may repeat a line
            <li key={i}>
              <button
                type="button"
                className="cmd-suggestion"
                disabled={loading || fg !== null}
                onClick={() => void lab.submit(cmd)}
              >
                <code>{cmd}</code>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">This scenario suggests no commands: open it in the full lab to type your own.</p>
      )}
      <pre
        ref={out}
        className="embed-output"
        role="log"
        aria-label="Output"
        // a scrolling region must be reachable by keyboard (axe scrollable-region-focusable)
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        tabIndex={0}
        data-testid="embed-output"
      >
        {shown === '' ? (
          <span className="muted">
            {fg
              ? `Running ${fg.command}…`
              : 'Click a command: it runs in the simulated shell, and its output shows here.'}
          </span>
        ) : (
          shown
        )}
      </pre>
    </section>
  );
}

/** The speeds the minimal controls offer besides auto (simulated ns per wall second). */
const EMBED_SPEEDS = [1e6, 1e8, 1e9, 1e10, 60e9] as const;

/** Play/Pause, the simulated clock, and the speed (auto, or a few fixed ones), always shown. */
function MinimalControls() {
  const lab = useLab();
  const playing = useApp((s) => s.playback.playing);
  const nowNs = useApp((s) => s.playback.nowNs);
  const loading = useApp((s) => s.scenario.loading);
  const speed = useApp((s) => s.playback.speedNsPerS);
  const mode = useApp((s) => s.playback.speedMode);
  const phase = useApp((s) => s.playback.autoPhase);
  const value = mode === 'auto' ? 'auto' : String(speed);
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
      <label className="embed-speed">
        Speed{' '}
        <select
          value={value}
          onChange={(e) => lab.setSpeed(e.target.value === 'auto' ? 'auto' : Number(e.target.value))}
        >
          <option value="auto">{mode === 'auto' ? speedLabel(mode, phase, speed, playing) : 'auto'}</option>
          {mode !== 'auto' && !(EMBED_SPEEDS as readonly number[]).includes(speed) ? (
            <option value={String(speed)}>{formatSpeed(speed)}</option>
          ) : null}
          {EMBED_SPEEDS.map((v) => (
            <option key={v} value={String(v)}>
              {formatSpeed(v)}
            </option>
          ))}
        </select>
      </label>
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
