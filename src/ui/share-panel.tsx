/**
 * Share: the header's "Share" button copies a link to this run (the scenario, what was typed and
 * when, the simulated time, the selection) and says so; a read-only field shows the link, selected,
 * for when the browser does not allow copying. The same popover makes the `<iframe>` code for
 * documentation ("Copy embed code"), with the panels, controls, autoplay, the start time (the clock
 * when it opened, checked as a link's `t` is) and the host page's origin (which turns on the
 * postMessage API).
 *
 * Also the notice that lists what a repaired link had changed. Links come from the composition
 * root (Sharing, context): the UI does not import the share layer.
 */
import { useEffect, useId, useRef, useState } from 'react';
import {
  DEFAULT_EMBED_CHART,
  DEFAULT_EMBED_PANELS,
  EMBED_CHARTS,
  type EmbedChart,
} from '../state/embed-view';
import { type EmbedPanel, useApp, useAppStore, useLab, useSharing } from './context';
import './share.css';

const ALL_PANELS: Array<{ id: EmbedPanel; label: string }> = [
  { id: 'path', label: 'Packet path' },
  { id: 'chart', label: 'One chart' },
  { id: 'charts', label: 'Every chart and the counters' },
  { id: 'terminal', label: 'Terminal' },
  { id: 'commands', label: 'Commands to click' },
  { id: 'lessons', label: 'Lessons' },
];

const CHART_NAMES: Record<EmbedChart, string> = {
  rate: 'rate, iperf3 and CloudWatch averages',
  ladder: 'the averaging ladder (10 µs to 5 minutes)',
  cloudwatch: 'NetworkOut as CloudWatch graphs it',
  pps: 'packets per second',
  latency: 'latency',
  queues: 'queue occupancy',
  credits: 'burst credits',
  drops: 'drops by reason',
  allowances: 'allowance exceeded',
};

/** Copy `text`; false when the browser refuses (no permission, insecure context, no API). */
async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function ShareButton() {
  const sharing = useSharing();
  const store = useAppStore();
  const loading = useApp((s) => s.scenario.loading);
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState('');
  const [lessonLink, setLessonLink] = useState<string | null>(null);
  const lessonStep = useApp((s) => s.env.lesson);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const popId = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!sharing) return null;

  const share = async () => {
    let url: string;
    try {
      url = sharing.link();
    } catch (e) {
      setError(`This run cannot be shared: ${e instanceof Error ? e.message : String(e)}`);
      setLink('');
      setOpen(true);
      return;
    }
    setError(null);
    setLink(url);
    setLessonLink(sharing.lessonLink?.() ?? null);
    setOpen(true);
    setStatus('Copying…');
    const ok = await copyText(url);
    const msg = ok
      ? 'Link copied to the clipboard.'
      : 'The browser did not allow copying: the link is selected below, press Ctrl+C (⌘C) to copy it.';
    setStatus(msg);
    store.setState((s) => ({ env: { ...s.env, announcement: msg } }));
    requestAnimationFrame(() => field.current?.select());
  };

  return (
    <div className="share">
      <button
        ref={button}
        type="button"
        onClick={() => void share()}
        disabled={loading}
        aria-expanded={open}
        aria-controls={open ? popId : undefined}
        title="Copy a link that reopens this run: scenario, commands and their times, simulated time"
      >
        Share
      </button>
      {open ? (
        <section id={popId} className="share-popover" aria-label="Share this run">
          <div className="panel-head">
            <h2>Share this run</h2>
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                button.current?.focus();
              }}
            >
              Close
            </button>
          </div>
          {error ? (
            <p className="share-error" role="alert">
              {error}
            </p>
          ) : (
            <>
              <p className="share-status" role="status">
                {status}
              </p>
              <label className="share-field">
                <span>Link</span>
                <input
                  ref={field}
                  readOnly
                  value={link}
                  aria-label="Link to this run"
                  onFocus={(e) => e.currentTarget.select()}
                />
              </label>
              <p className="muted share-note">
                {link.length.toLocaleString('en-US')} characters. The link holds the whole experiment (the
                scenario, each command with the simulated instant it was typed, the clock); opening it replays
                the run with the same seed. Nothing is sent anywhere.
              </p>
              {lessonLink !== null && lessonStep ? (
                <>
                  <label className="share-field">
                    <span>Lesson</span>
                    <input
                      readOnly
                      value={lessonLink}
                      aria-label="Link to this lesson step"
                      onFocus={(e) => e.currentTarget.select()}
                    />
                  </label>
                  <p className="muted share-note">
                    Opens this lesson at step {lessonStep.step + 1} in a fresh lab, without what was typed
                    (for a course page or a bookmark).
                  </p>
                </>
              ) : null}
            </>
          )}
          <EmbedCode />
        </section>
      ) : null}
    </div>
  );
}

function EmbedCode() {
  const sharing = useSharing();
  const store = useAppStore();
  // where the embedded lab starts: the clock when the popover opened, as a link writes it
  const [start, setStart] = useState(() => sharing?.formatTime(store.getState().playback.nowNs) ?? '');
  const startId = useId();
  const [panels, setPanels] = useState<EmbedPanel[]>([...DEFAULT_EMBED_PANELS]);
  const [chart, setChart] = useState<EmbedChart>(DEFAULT_EMBED_CHART);
  const [controls, setControls] = useState<'none' | 'minimal' | 'full'>('minimal');
  const [autoplay, setAutoplay] = useState(false);
  const [origin, setOrigin] = useState('');
  const [code, setCode] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  if (!sharing) return null;
  const startNs = sharing.parseTime(start.trim());
  const startError = typeof startNs === 'number' ? null : `Start time: ${startNs.error}`;

  const make = async () => {
    let snippet: string;
    try {
      if (typeof startNs !== 'number') throw new Error(`Start time: ${startNs.error}`);
      snippet = sharing.embedCode({
        panels,
        ...(panels.includes('chart') ? { chart } : {}),
        controls,
        autoplay,
        startNs,
        ...(origin.trim() ? { origin: origin.trim() } : {}),
      });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setCode(null);
      return;
    }
    setError(null);
    setCode(snippet);
    const ok = await copyText(snippet);
    setStatus(
      ok ? 'Embed code copied to the clipboard.' : 'The embed code is selected below: press Ctrl+C (⌘C).',
    );
    requestAnimationFrame(() => area.current?.select());
  };

  return (
    <fieldset className="embed-code">
      <legend>Embed in a page</legend>
      <div className="embed-options">
        <fieldset className="embed-panels">
          <legend>Panels</legend>
          {ALL_PANELS.map((p) => (
            <label key={p.id}>
              <input
                type="checkbox"
                checked={panels.includes(p.id)}
                onChange={(e) =>
                  setPanels((cur) =>
                    e.target.checked
                      ? ALL_PANELS.map((x) => x.id).filter((id) => id === p.id || cur.includes(id))
                      : cur.filter((id) => id !== p.id),
                  )
                }
              />{' '}
              {p.label}
            </label>
          ))}
        </fieldset>
        {panels.includes('chart') ? (
          <label>
            Chart{' '}
            <select value={chart} onChange={(e) => setChart(e.target.value as EmbedChart)}>
              {EMBED_CHARTS.map((c) => (
                <option key={c} value={c}>
                  {CHART_NAMES[c]}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Controls{' '}
          <select value={controls} onChange={(e) => setControls(e.target.value as typeof controls)}>
            <option value="none">none</option>
            <option value="minimal">minimal (play, pause, clock)</option>
            <option value="full">full</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={autoplay} onChange={(e) => setAutoplay(e.target.checked)} />{' '}
          Autoplay
        </label>
        <label className="embed-start">
          Start at (simulated time){' '}
          <input
            value={start}
            onChange={(e) => {
              setStart(e.target.value);
              setError(null);
              // the code shown was made for the old start: do not leave it beside the new one
              setCode(null);
            }}
            aria-invalid={startError ? true : undefined}
            aria-describedby={startError ? startId : undefined}
            spellCheck={false}
            inputMode="decimal"
            title="The time the embedded lab opens at, like 1.5s, 250ms or 20us (it runs the model there)"
          />
        </label>
        {startError ? (
          <p id={startId} className="share-error" role="alert">
            {startError}
          </p>
        ) : null}
        <label className="embed-origin">
          Host page origin (optional: turns on the postMessage API){' '}
          <input
            value={origin}
            placeholder="https://docs.example.com"
            onChange={(e) => setOrigin(e.target.value)}
            spellCheck={false}
          />
        </label>
      </div>
      <button type="button" onClick={() => void make()} disabled={panels.length === 0 || startError !== null}>
        Copy embed code
      </button>
      {error ? (
        <p className="share-error" role="alert">
          {error}
        </p>
      ) : null}
      {code !== null ? (
        <>
          <p className="share-status" role="status">
            {status}
          </p>
          <textarea
            ref={area}
            readOnly
            value={code}
            aria-label="Embed code"
            rows={4}
            onFocus={(e) => e.currentTarget.select()}
          />
        </>
      ) : null}
    </fieldset>
  );
}

/** What a repaired link changed, until dismissed. */
export function LinkChangesNotice() {
  const store = useAppStore();
  const changes = useApp((s) => s.env.linkChanges);
  if (changes.length === 0) return null;
  return (
    <div className="notice link-changes" role="alert">
      <p>
        This link was opened with {changes.length === 1 ? 'one change' : `${changes.length} changes`} (what it
        asked for was not valid, so the lab used its default):
      </p>
      <ul>
        {changes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button type="button" onClick={() => store.setState((s) => ({ env: { ...s.env, linkChanges: [] } }))}>
        Dismiss
      </button>
    </div>
  );
}

/**
 * The guide's box for a scenario opened from a link (not a preset): what it is built of, and its
 * script's lines offered as commands to click (a link's script is data: it runs only when clicked).
 */
export function SharedScenarioBox() {
  const lab = useLab();
  const doc = useApp((s) => s.scenario.doc);
  const instances = useApp((s) => s.scenario.instances);
  const restored = useApp((s) => s.env.restored);
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  const script = Array.isArray(d['script'])
    ? d['script'].filter((x): x is string => typeof x === 'string')
    : [];
  const placement = typeof d['placement'] === 'string' ? d['placement'] : 'cluster';
  return (
    <section className="experiment" aria-label="This experiment">
      <h2>{restored ? 'Your last session' : 'A shared scenario'}</h2>
      <p>
        {restored ? 'Kept in this browser' : 'Opened from a link'}:{' '}
        {instances.map((i) => `${i.name} (${i.type})`).join(', ')}, placement {placement}. What was typed in
        the terminal has been replayed, each line at the simulated instant it was typed.
      </p>
      {script.length > 0 ? (
        <>
          <p className="muted">The scenario&rsquo;s script (click a line to run it):</p>
          <ul className="try">
            {script.map((cmd, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a script may repeat a line
              <li key={i}>
                <button type="button" className="cmd-suggestion" onClick={() => void lab.submit(cmd)}>
                  <code>{cmd}</code>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
