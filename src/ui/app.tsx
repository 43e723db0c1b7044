/**
 * The lab's layout: a header (what this is, the preset picker, theme), the time controls (sticky),
 * then a workbench, the stage, that fills the window on a desktop screen: the path view, the
 * charts on the same clock (the rate at every resolution, the averaging ladder, the rest below),
 * and a column with the terminal and tabs (the experiment or lesson, ethtool -S counters, the
 * inspector). At 1280 wide the charts sit above the terminal beside the path; from 1600 wide they
 * take the middle column, the widest. Each region scrolls inside itself. A live region tells
 * screen-reader users what changed. Reads the store; acts through the lab controller (context).
 * Never imports the engine or the worker.
 */
import { PanelBoundary } from './panel-boundary';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { LESSON_DOCUMENTS } from '../lessons/documents';
import { PRESETS } from '../scenario/presets';
import { ChartsPanel } from './charts/charts-panel';
import { useApp, useAppStore, useLab } from './context';
import { CountersPanel } from './counters-panel';
import { LessonsPanel } from './lessons/lessons-panel';
import { PacketsPanel } from './packets/packets-panel';
import { InspectorPanel, PathPanel } from './path-panel';
import { RunProgress } from './run-progress';
import { Notices, useThemeAttribute } from './notices';
import { LinkChangesNotice, ShareButton, SharedScenarioBox } from './share-panel';
import { Tabs } from './tabs';
import { Terminal } from './terminal';
import { TextSizeButton } from './text-size';
import { TimeControls } from './time-controls';
import { browserStorage, rememberWelcomeDismissed, type WelcomeStorage } from './welcome';

export function App({
  pathView,
  welcomeStorage,
}: {
  pathView?: ReactNode;
  /** Where the welcome's dismissal is kept (default: localStorage; tests give their own). */
  welcomeStorage?: WelcomeStorage | null;
}) {
  const store = useAppStore();
  const lab = useLab();
  const presetId = useApp((s) => s.scenario.presetId);
  const announcement = useApp((s) => s.env.announcement);
  const introOpen = useApp((s) => s.view.introOpen);
  const restored = useApp((s) => s.env.restored);
  // three instances or more (a router between two): the path column gets more of the stage
  const manyHosts = useApp((s) => s.scenario.instances.length >= 3);
  const preset = PRESETS.find((p) => p.id === presetId) ?? PRESETS[0]!;
  // a lesson's scenario is loaded: the header and the guide name the lesson, not a preset
  const lesson = presetId.startsWith('lesson:')
    ? (LESSON_DOCUMENTS.find((l) => `lesson:${l.id}` === presetId) ?? null)
    : null;
  // the side column sticks below the time controls, whatever their height (they wrap when narrow)
  const bar = useRef<HTMLDivElement>(null);
  const app = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const b = bar.current;
    const a = app.current;
    if (!b || !a || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => a.style.setProperty('--controls-h', `${b.offsetHeight}px`));
    ro.observe(b);
    return () => ro.disconnect();
  }, []);

  const setView = (p: Partial<ReturnType<typeof store.getState>['view']>) =>
    store.setState((s) => ({ view: { ...s.view, ...p } }));
  // dismissed stays dismissed (localStorage; never in embed mode)
  const closeIntro = () => {
    setView({ introOpen: false });
    rememberWelcomeDismissed(
      welcomeStorage === undefined ? browserStorage() : welcomeStorage,
      store.getState().env.embed,
    );
  };

  return (
    <div className="app" ref={app}>
      <header className="app-header">
        <div className="brand">
          <h1>ec2-netlab</h1>
          <span className="tagline">EC2 Nitro networking, simulated packet by packet</span>
        </div>
        <label className="preset">
          Experiment{' '}
          <select
            aria-label="Experiment"
            value={presetId}
            onChange={(e) => {
              // a narrow screen scrolls to the chart that makes the preset's point (charts-panel.tsx)
              setView({ revealPreset: e.target.value });
              void lab.loadPreset(e.target.value);
            }}
          >
            {lesson ? (
              <option value={presetId} disabled>
                Lesson: {lesson.title}
              </option>
            ) : null}
            {presetId === 'link' ? (
              <option value="link" disabled>
                {restored ? 'Your last session' : 'A shared scenario'}
              </option>
            ) : null}
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title}
              </option>
            ))}
          </select>
        </label>
        <ThemeButton />
        <TextSizeButton embed={false} />
        <button
          type="button"
          onClick={() => (introOpen ? closeIntro() : setView({ introOpen: true }))}
          aria-expanded={introOpen}
        >
          What is this?
        </button>
        <ShareButton />
      </header>
      <LinkChangesNotice />
      <Notices />
      {introOpen ? <Intro onClose={closeIntro} /> : null}
      <div className="controls-bar" ref={bar}>
        <TimeControls />
        <RunProgress />
      </div>
      <main className="workbench" data-many-hosts={manyHosts ? '1' : undefined}>
        {/* the path view is the "Packet path" region itself */}
        <div className="panel path">
          <PanelBoundary name="the path">{pathView ?? <PathPanel />}</PanelBoundary>
        </div>
        <div className="stage-charts">
          <PanelBoundary name="the charts">
            <ChartsPanel />
          </PanelBoundary>
        </div>
        <div className="side">
          <PanelBoundary name="the terminal">
            <Terminal />
          </PanelBoundary>
          <SideTabs preset={preset} lesson={lesson} presetId={presetId} />
        </div>
      </main>
      <div className="visually-hidden" aria-live="polite" role="log" aria-label="What changed">
        {announcement}
      </div>
    </div>
  );
}

/** The light/dark switch; its own component, so a theme change re-renders only it (and what reads the theme). */
function ThemeButton() {
  const store = useAppStore();
  const theme = useThemeAttribute();
  return (
    <button
      type="button"
      aria-label={theme === 'dark' ? 'Light theme' : 'Dark theme'}
      onClick={() =>
        store.setState((s) => ({ view: { ...s.view, theme: theme === 'dark' ? 'light' : 'dark' } }))
      }
    >
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
    </button>
  );
}

/**
 * The side column's tabs. Which tab is open is this component's state, so switching tabs
 * re-renders the tabs, not the path, the terminal or the time controls beside them.
 */
function SideTabs({
  preset,
  lesson,
  presetId,
}: {
  preset: (typeof PRESETS)[number];
  lesson: (typeof LESSON_DOCUMENTS)[number] | null;
  presetId: string;
}) {
  const [tab, setTab] = useState('guide');
  // selecting a packet or a queue in the picture shows its inspector beside it; clearing the
  // selection goes back to the tab that was open (not from the packet list: a row selected there
  // selects its packet in the path, and the list stays)
  const selected = useApp((s) => s.selection.path !== null);
  const before = useRef('guide');
  useEffect(() => {
    setTab((t) => {
      if (t === 'packets') return t;
      if (selected && t !== 'inspect') {
        before.current = t;
        return 'inspect';
      }
      return !selected && t === 'inspect' ? before.current : t;
    });
  }, [selected]);
  return (
    <Tabs
      className="panel side-tabs"
      label="Lab panels"
      active={tab}
      onChange={setTab}
      tabs={[
        {
          id: 'guide',
          label: lesson ? 'Lesson' : 'Guide',
          keepMounted: true,
          content: (
            <>
              {lesson ? null : presetId === 'link' ? (
                <SharedScenarioBox />
              ) : (
                <ExperimentBox preset={preset} />
              )}
              <PanelBoundary name="the lessons">
                <LessonsPanel />
              </PanelBoundary>
            </>
          ),
        },
        {
          id: 'counters',
          label: (
            <>
              Counters <code className="tab-aside">ethtool -S</code>
            </>
          ),
          keepMounted: 'paused',
          content: (
            <PanelBoundary name="the counters">
              <CountersPanel />
            </PanelBoundary>
          ),
        },
        {
          id: 'packets',
          label: 'Packets',
          keepMounted: 'paused',
          content: (
            <PanelBoundary name="the packet list">
              <PacketsPanel />
            </PanelBoundary>
          ),
        },
        {
          id: 'inspect',
          label: 'Inspector',
          content: (
            <PanelBoundary name="the inspector">
              <InspectorPanel />
            </PanelBoundary>
          ),
        },
      ]}
    />
  );
}

/** The preset's title, what it shows, and its suggested commands (click one to run it). */
function ExperimentBox({ preset }: { preset: (typeof PRESETS)[number] }) {
  const lab = useLab();
  return (
    <section className="experiment" aria-label="This experiment">
      <h2>{preset.title}</h2>
      <p>{preset.summary}</p>
      <p className="muted">Try (click to run it):</p>
      <ul className="try">
        {preset.commands.map((cmd) => (
          <li key={cmd}>
            <button type="button" className="cmd-suggestion" onClick={() => void lab.submit(cmd)}>
              <code>{cmd}</code>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Intro({ onClose }: { onClose: () => void }) {
  return (
    <section className="intro" aria-label="What you are looking at">
      <div>
        <h2>Two simulated EC2 instances, and everything between them</h2>
        <p>
          <strong>client</strong> and <strong>server</strong> are EC2 instances in one VPC. Type what you
          would type on a real instance (<code>iperf3</code>, <code>ethtool</code>, <code>tc</code>,{' '}
          <code>ip</code>) in the terminal: it runs on a model of the Linux host stack, the ENA rings and the
          Nitro card (flow table, bandwidth and packet-per-second allowances, burst credits) and prints what
          the real tools print. The picture shows where every packet is, queues and drops included.
        </p>
        <p>
          Time is simulated: <strong>Play</strong> runs it at the chosen speed, <strong>Step</strong> goes to
          the next event or the next packet at a stage, <strong>Run until</strong> stops at the first drop, a
          counter moving or credits running out, and the <strong>Timeline</strong> takes you back to any
          instant exactly as it was. Start with one of the experiment's commands (the terminal offers them,
          and the <strong>Guide</strong> tab explains them): the <strong>Charts</strong> put the
          per-millisecond rate next to iperf3's 1-second and CloudWatch's 1- and 5-minute figures, and the
          averaging ladder shows one burst at every scale. Keys: space play/pause, <kbd>.</kbd> step,{' '}
          <kbd>[</kbd> <kbd>]</kbd> speed.
        </p>
      </div>
      <button type="button" onClick={onClose}>
        Got it
      </button>
    </section>
  );
}
