/**
 * The terminal panel: the lab's shell as a terminal. A monospace scrollback, the prompt
 * `[ec2-user@client ~]$`, a textbox named "Command" with readline's keys: history (↑/↓, kept
 * across reloads in localStorage, 500 lines, never in embed mode), Tab completion (a second Tab
 * lists the candidates; Esc then Tab moves the focus on), Ctrl-R reverse search, Ctrl-A/E/U/K/W/Y,
 * Alt-Backspace, Ctrl-C (interrupt the running command), Ctrl-L and `clear` (clear the screen);
 * Ctrl-Z (stopping the running command) is not simulated and the hint says so.
 * While a foreground command runs the prompt is hidden, as in a terminal; the input still takes Ctrl-C.
 */
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { complete, formatCandidates } from '../lib/completion';
import type { LabFileInfo } from '../protocol/sim-api';
import { download } from './charts/export';
import { PROMPT_USER } from '../state/app-store';
import { useApp, useAppStore, useLab } from './context';
import { CommandChips, useSuggestedCommands } from './suggested-commands';

export function prompt(host: string): string {
  return `[${PROMPT_USER}@${host} ~]$ `;
}

/** Where the history is kept across reloads, and how much of it. */
export const HISTORY_KEY = 'ec2-netlab.history';
export const HISTORY_MAX = 500;

/** The clear sequence `clear` prints (ncurses, TERM=xterm): the screen starts after it. */
const CLEAR_SCREEN = '\x1b[2J';
/** The sequence after it (E3: erase the scrollback), not shown. */
const CLEAR_SCROLLBACK = '\x1b[3J';

/** readline's unix-word-rubout (Ctrl-W): the blank-delimited word before the cursor. */
export function wordRubout(line: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(line[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(line[i - 1]!)) i--;
  return i;
}

/** The newest history entry at or before `from` containing `query` (reverse-i-search), or -1. */
export function searchHistory(hist: readonly string[], query: string, from: number): number {
  for (let i = Math.min(from, hist.length - 1); i >= 0; i--) if (hist[i]!.includes(query)) return i;
  return -1;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function Terminal() {
  const lab = useLab();
  const store = useAppStore();
  const chunks = useApp((s) => s.terminal.chunks);
  const clearedAt = useApp((s) => s.terminal.clearedAt);
  const chosenHost = useApp((s) => s.terminal.host);
  const fg = useApp((s) => s.terminal.foreground);
  const instances = useApp((s) => s.scenario.instances);
  const loading = useApp((s) => s.scenario.loading);
  const embed = useApp((s) => s.env.embed);
  // nothing run yet in this experiment: its suggested commands wait in the empty terminal, where the
  // eye is (the Guide tab has them too, often below the fold on a laptop screen)
  const suggested = useSuggestedCommands();
  const [line, setLineState] = useState('');
  const [histPos, setHistPos] = useState<number | null>(null);
  /** Candidates listed by a second Tab (shown under the line until Enter), with the line they were for. */
  const [listing, setListing] = useState<{ line: string; text: string } | null>(null);
  /** Ctrl-Z was pressed during the foreground job now running (its command line): the hint says why nothing stopped. */
  const [suspendTried, setSuspendTried] = useState<string | null>(null);
  /** Ctrl-R: the query, the match's index in the history, and the line before the search. */
  const [search, setSearch] = useState<{ query: string; at: number; saved: string } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const pendingCursor = useRef<number | null>(null);
  const lastTab = useRef<string | null>(null);
  const escArmed = useRef(false);
  const killRing = useRef('');

  const setLine = (l: string, cursor: number = l.length) => {
    if (l === line && input.current) {
      // the same text (Ctrl-A, Ctrl-E): no render to wait for
      input.current.setSelectionRange(cursor, cursor);
      return;
    }
    pendingCursor.current = cursor;
    setLineState(l);
  };
  useLayoutEffect(() => {
    const c = pendingCursor.current;
    if (c !== null && input.current) {
      input.current.setSelectionRange(c, c);
      pendingCursor.current = null;
    }
  });

  // the files the tools wrote (tcpdump -w, > out.txt), listed for download after each command
  const [files, setFiles] = useState<LabFileInfo[]>([]);
  const chunkCount = chunks.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: chunkCount and fg are the triggers
  useEffect(() => {
    if (fg) return;
    let live = true;
    void lab.labFiles?.().then((f) => {
      if (live && Array.isArray(f)) setFiles(f);
    });
    return () => {
      live = false;
    };
  }, [lab, fg, chunkCount]);
  const saveFile = async (f: LabFileInfo) => {
    const bytes = await lab.readLabFile?.(f.host, f.path);
    if (!bytes) return;
    const name = f.path.slice(f.path.lastIndexOf('/') + 1);
    const pcap = /\.p?cap$/.test(name);
    download(
      new Blob([bytes as Uint8Array<ArrayBuffer>], {
        type: pcap ? 'application/vnd.tcpdump.pcap' : 'text/plain',
      }),
      `${f.host}-${name}`,
    );
  };

  // history across reloads (not in embed mode: an embedded lab writes nothing to storage)
  useEffect(() => {
    if (embed) return;
    const st = storage();
    if (!st) return;
    try {
      const saved = JSON.parse(st.getItem(HISTORY_KEY) ?? '[]');
      if (Array.isArray(saved) && store.getState().terminal.history.length === 0) {
        const hist = saved.filter((x): x is string => typeof x === 'string').slice(-HISTORY_MAX);
        store.setState((s) => ({ terminal: { ...s.terminal, history: hist } }));
      }
    } catch {
      // a broken entry is ignored
    }
    let last = store.getState().terminal.history;
    return store.subscribe((s) => {
      if (s.terminal.history === last) return;
      last = s.terminal.history;
      try {
        st.setItem(HISTORY_KEY, JSON.stringify(last.slice(-HISTORY_MAX)));
      } catch {
        // storage full or refused: the history stays in memory
      }
    });
  }, [embed, store]);

  // Keep the newest output in view when output or the prompt changed, once per animation frame:
  // reading scrollHeight forces a layout, so it is done where the frame lays out anyway (in its
  // requestAnimationFrame callback), not at every commit while output streams in.
  const scrollFrame = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: chunks, clearedAt, fg, the listing and the search are the triggers
  useLayoutEffect(() => {
    if (scrollFrame.current !== 0) return;
    scrollFrame.current = requestAnimationFrame(() => {
      scrollFrame.current = 0;
      const el = scroller.current;
      if (el) el.scrollTop = el.scrollHeight;
    });
  }, [chunks, clearedAt, fg, listing, search]);
  useEffect(() => () => cancelAnimationFrame(scrollFrame.current), []);
  useEffect(() => {
    if (!fg) input.current?.focus({ preventScroll: true });
  }, [fg]);

  // `clear` printed the clear sequence: the screen starts after it (the scrollback is kept, as Ctrl-L)
  // (watch redraws this way: within a chunk, only what follows its last clear shows)
  let screenFrom = clearedAt;
  let head: (typeof chunks)[number] | null = null;
  for (let i = chunks.length - 1; i >= clearedAt; i--) {
    const c = chunks[i]!;
    const at = c.stream === 'stdout' ? c.text.lastIndexOf(CLEAR_SCREEN) : -1;
    if (at >= 0) {
      screenFrom = i + 1;
      let rest = c.text.slice(at + CLEAR_SCREEN.length);
      if (rest.startsWith(CLEAR_SCROLLBACK)) rest = rest.slice(CLEAR_SCROLLBACK.length);
      if (rest) head = { ...c, text: rest };
      break;
    }
  }
  const visible = head ? [head, ...chunks.slice(screenFrom)] : chunks.slice(screenFrom);
  const keyBase = head ? screenFrom - 1 : screenFrom;
  const first = instances[0]?.name ?? 'client';
  // a host the scenario does not have (the store's default 'client') is its first instance
  const host = instances.some((i) => i.name === chosenHost) ? chosenHost : first;

  const onTab = async (cursor: number) => {
    const st = store.getState();
    const files = (await lab.labFiles?.()) ?? [];
    const h = st.terminal.host;
    const names = files
      .filter((f) => f.host === h)
      .map((f) => (f.path.startsWith('/home/ec2-user/') ? f.path.slice('/home/ec2-user/'.length) : f.path));
    const c = complete(line, cursor, { instances: st.scenario.instances.map((i) => i.name), files: names });
    const key = `${line}\u0000${cursor}`;
    if (c.line !== line) {
      setLine(c.line, c.cursor);
      lastTab.current = null;
      setListing(null);
    } else if (lastTab.current === key && c.candidates.length > 1) {
      setListing({ line, text: formatCandidates(c.candidates) });
    } else lastTab.current = key;
  };

  const onKey = async (e: KeyboardEvent<HTMLInputElement>) => {
    const hist = store.getState().terminal.history;
    const el = e.currentTarget;
    const cursor = el.selectionStart ?? line.length;
    const ctrl = e.ctrlKey && !e.altKey && !e.metaKey;
    if (e.key !== 'Tab') lastTab.current = null;
    if (search) {
      // reverse-i-search: typing extends the query; Ctrl-R finds an older match; Enter runs it
      const match = search.at >= 0 ? hist[search.at]! : '';
      if (ctrl && e.key === 'r') {
        e.preventDefault();
        const at = searchHistory(hist, search.query, search.at - 1);
        if (at >= 0) setSearch({ ...search, at });
        return;
      }
      if ((ctrl && (e.key === 'g' || e.key === 'c')) || e.key === 'Escape') {
        e.preventDefault();
        setSearch(null);
        if (e.key === 'Escape') setLine(match || search.saved);
        else setLine(search.saved);
        return;
      }
      if (e.key === 'Backspace') {
        e.preventDefault();
        const q = search.query.slice(0, -1);
        setSearch({ ...search, query: q, at: searchHistory(hist, q, hist.length - 1) });
        return;
      }
      if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        const q = search.query + e.key;
        setSearch({
          ...search,
          query: q,
          at: searchHistory(hist, q, search.at >= 0 ? search.at : hist.length - 1),
        });
        return;
      }
      if (e.key === 'Enter') {
        e.preventDefault();
        setSearch(null);
        if (fg) return;
        setLine('');
        setHistPos(null);
        setListing(null);
        await lab.submit(match);
        return;
      }
      if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key) || ctrl) {
        // any editing key ends the search with the match on the line, as readline does
        setSearch(null);
        setLine(match);
        if (!ctrl) e.preventDefault();
        return;
      }
      return;
    }
    if (e.key === 'Escape') {
      escArmed.current = true;
      return;
    }
    if (e.key === 'Tab' && !e.shiftKey && !escArmed.current && !e.ctrlKey && !e.altKey) {
      e.preventDefault();
      if (!fg) await onTab(cursor);
      return;
    }
    escArmed.current = false;
    if (e.key === 'Enter') {
      e.preventDefault();
      if (fg) return;
      const l = line;
      setLine('');
      setHistPos(null);
      setListing(null);
      await lab.submit(l);
    } else if (ctrl && e.key === 'c') {
      e.preventDefault();
      if (fg) await lab.interrupt();
      else {
        setLine('');
        setListing(null);
      }
    } else if (ctrl && e.key === 'z') {
      // the terminal's suspend character: bash stops the foreground job (SIGTSTP); the lab's tools
      // cannot pause mid-run, so the hint says so; at the prompt it does nothing, as in bash
      e.preventDefault();
      if (fg) setSuspendTried(`${fg.startNs}|${fg.command}`);
    } else if (ctrl && e.key === 'l') {
      e.preventDefault();
      setListing(null);
      store.setState((s) => ({ terminal: { ...s.terminal, clearedAt: s.terminal.chunks.length } }));
    } else if (ctrl && e.key === 'r') {
      e.preventDefault();
      if (!fg) setSearch({ query: '', at: -1, saved: line });
    } else if (ctrl && e.key === 'a') {
      e.preventDefault();
      setLine(line, 0);
    } else if (ctrl && e.key === 'e') {
      e.preventDefault();
      setLine(line, line.length);
    } else if (ctrl && e.key === 'u') {
      e.preventDefault();
      killRing.current = line.slice(0, cursor);
      setLine(line.slice(cursor), 0);
    } else if (ctrl && e.key === 'k') {
      e.preventDefault();
      killRing.current = line.slice(cursor);
      setLine(line.slice(0, cursor), cursor);
    } else if ((ctrl && e.key === 'w') || (e.altKey && e.key === 'Backspace')) {
      e.preventDefault();
      const from = wordRubout(line, cursor);
      killRing.current = line.slice(from, cursor);
      setLine(line.slice(0, from) + line.slice(cursor), from);
    } else if (ctrl && e.key === 'y') {
      e.preventDefault();
      const y = killRing.current;
      setLine(line.slice(0, cursor) + y + line.slice(cursor), cursor + y.length);
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

  const searchMatch = search && search.at >= 0 ? store.getState().terminal.history[search.at]! : '';

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
            <span key={keyBase + i} className={`chunk ${c.stream}`}>
              {c.stream === 'input' ? prompt(c.host) : ''}
              {c.text}
            </span>
          ))}
          {listing ? (
            <span className="chunk stdout" data-testid="completions">
              <span className="prompt">{prompt(host)}</span>
              {`${listing.line}\n${listing.text}`}
            </span>
          ) : null}
          {!fg && !loading ? (
            <span className="prompt">
              {search
                ? `(${search.at < 0 && search.query ? 'failed ' : ''}reverse-i-search)\`${search.query}': `
                : prompt(host === first ? first : host)}
            </span>
          ) : null}
          <input
            ref={input}
            className={fg ? 'cmd hidden-prompt' : 'cmd'}
            aria-label="Command"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            value={search ? searchMatch : line}
            readOnly={search !== null}
            disabled={loading}
            onChange={(e) => {
              lastTab.current = null;
              setLineState(e.target.value);
            }}
            onKeyDown={onKey}
          />
        </pre>
        {suggested.length > 0 && !listing && !search ? (
          <CommandChips
            commands={suggested}
            lead="Type a command, or click one of this experiment's to run it:"
            className="term-suggest"
            testId="terminal-suggestions"
            onRun={() => input.current?.focus()}
          />
        ) : null}
      </div>
      {files.length > 0 ? (
        <p className="hint" data-testid="lab-files">
          Files:{' '}
          {files.map((f) => (
            <button
              key={`${f.host}:${f.path}`}
              type="button"
              className="small"
              aria-label={`Download ${f.path} from ${f.host}`}
              title={`${f.host}:${f.path} (${f.bytes.toLocaleString('en-US')} bytes)`}
              onClick={() => void saveFile(f)}
            >
              {f.host}:{f.path.replace(/^\/home\/ec2-user\//, '~/')} ⤓
            </button>
          ))}
        </p>
      ) : null}
      <p className="hint">
        {fg ? (
          <>
            Running <code>{fg.command}</code> on {fg.host}: Ctrl-C interrupts it.
            {suspendTried === `${fg.startNs}|${fg.command}`
              ? ' Ctrl-Z (stopping it, then bg or fg) is not simulated in ec2-netlab: the lab’s tools cannot pause mid-run.'
              : ''}
          </>
        ) : (
          <>
            Enter runs a command at the current simulated instant. Tab completes (twice: lists), ↑/↓ and
            Ctrl-R history, Ctrl-L clears; Esc then Tab leaves the terminal. <code>help</code> lists the
            tools.
          </>
        )}
      </p>
    </section>
  );
}
