/**
 * The terminal panel: the lab's shell as a terminal. A monospace scrollback, the prompt
 * `[ec2-user@client ~]$`, a textbox named "Command" with history (↑/↓), Ctrl-C (interrupt the
 * running command), Ctrl-L (clear the screen). While a foreground command runs the prompt is
 * hidden, as in a terminal; the input still takes Ctrl-C.
 */
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PROMPT_USER } from '../state/app-store';
import { useApp, useAppStore, useLab } from './context';

export function prompt(host: string): string {
  return `[${PROMPT_USER}@${host} ~]$ `;
}

export function Terminal() {
  const lab = useLab();
  const store = useAppStore();
  const chunks = useApp((s) => s.terminal.chunks);
  const clearedAt = useApp((s) => s.terminal.clearedAt);
  const host = useApp((s) => s.terminal.host);
  const fg = useApp((s) => s.terminal.foreground);
  const instances = useApp((s) => s.scenario.instances);
  const loading = useApp((s) => s.scenario.loading);
  const [line, setLine] = useState('');
  const [histPos, setHistPos] = useState<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  // Keep the newest output in view when output or the prompt changed, once per animation frame:
  // reading scrollHeight forces a layout, so it is done where the frame lays out anyway (in its
  // requestAnimationFrame callback), not at every commit while output streams in.
  const scrollFrame = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: chunks, clearedAt and fg are the triggers
  useLayoutEffect(() => {
    if (scrollFrame.current !== 0) return;
    scrollFrame.current = requestAnimationFrame(() => {
      scrollFrame.current = 0;
      const el = scroller.current;
      if (el) el.scrollTop = el.scrollHeight;
    });
  }, [chunks, clearedAt, fg]);
  useEffect(() => () => cancelAnimationFrame(scrollFrame.current), []);
  useEffect(() => {
    if (!fg) input.current?.focus({ preventScroll: true });
  }, [fg]);

  const visible = chunks.slice(clearedAt);
  const first = instances[0]?.name ?? 'client';

  const onKey = async (e: KeyboardEvent<HTMLInputElement>) => {
    const hist = store.getState().terminal.history;
    if (e.key === 'Enter') {
      e.preventDefault();
      if (fg) return;
      const l = line;
      setLine('');
      setHistPos(null);
      await lab.submit(l);
    } else if (e.key === 'c' && e.ctrlKey) {
      e.preventDefault();
      if (fg) await lab.interrupt();
      else setLine('');
    } else if (e.key === 'l' && e.ctrlKey) {
      e.preventDefault();
      store.setState((s) => ({ terminal: { ...s.terminal, clearedAt: s.terminal.chunks.length } }));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (hist.length === 0) return;
      const p = histPos === null ? hist.length - 1 : Math.max(0, histPos - 1);
      setHistPos(p);
      setLine(hist[p]!);
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (histPos === null) return;
      const p = histPos + 1;
      if (p >= hist.length) {
        setHistPos(null);
        setLine('');
      } else {
        setHistPos(p);
        setLine(hist[p]!);
      }
    }
  };

  return (
    <section className="panel terminal" aria-label="Terminal">
      <div className="panel-head">
        <h2>Terminal</h2>
        <label className="host-switch">
          Host{' '}
          <select
            value={host}
            onChange={(e) => store.setState((s) => ({ terminal: { ...s.terminal, host: e.target.value } }))}
          >
            {instances.map((i) => (
              <option key={i.name} value={i.name}>
                {i.name} ({i.type}, {i.ip})
              </option>
            ))}
          </select>
        </label>
      </div>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: click-to-focus is a pointer convenience; the input is reachable by Tab */}
      <div
        className="scrollback"
        role="log"
        aria-live="off"
        aria-label="Terminal output"
        ref={scroller}
        onClick={() => input.current?.focus()}
        data-testid="scrollback"
      >
        <pre>
          {visible.map((c, i) => (
            // chunks only ever append: the index is stable
            // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
            <span key={clearedAt + i} className={`chunk ${c.stream}`}>
              {c.stream === 'input' ? prompt(c.host) : ''}
              {c.text}
            </span>
          ))}
          {!fg && !loading ? <span className="prompt">{prompt(host === first ? first : host)}</span> : null}
          <input
            ref={input}
            className={fg ? 'cmd hidden-prompt' : 'cmd'}
            aria-label="Command"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            value={line}
            disabled={loading}
            onChange={(e) => setLine(e.target.value)}
            onKeyDown={onKey}
          />
        </pre>
      </div>
      <p className="hint">
        {fg ? (
          <>
            Running <code>{fg.command}</code> on {fg.host}: Ctrl-C interrupts it.
          </>
        ) : (
          <>Enter runs a command at the current simulated instant. ↑/↓ history, Ctrl-L clears.</>
        )}
      </p>
    </section>
  );
}
