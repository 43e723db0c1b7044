/**
 * The packet list (Wireshark's model): every packet the instances sent and received, the drops
 * with their stage and reason, the burst-credit events, for an instance and a time window, with
 * Wireshark's columns and display filters (src/lib/display-filter.ts: the box turns red and says
 * why and where; the list keeps the last good filter). Virtualised: only the rows in view are in
 * the DOM, asked of the worker a page at a time (workers/packet-list.ts), so a million rows scroll
 * as ten do. A row selected (click, or ↑ ↓ PgUp PgDn Home End in the list) shows its layers and
 * fields and header bytes, and is selected in the path view and its inspector. Exports: the
 * filtered rows as pcap (tcpdump's writer) and CSV.
 */
// The list is the WAI-ARIA grid pattern with divs: virtualised rows are absolutely positioned, which
// table layout cannot do; the grid itself takes focus and points at the selected row with
// aria-activedescendant (arrow keys move it), so rows and cells are not focusable one by one.
// biome-ignore-all lint/a11y/useSemanticElements: see above
// biome-ignore-all lint/a11y/useFocusableInteractive: see above
// biome-ignore-all lint/a11y/useKeyWithClickEvents: see above
import { type KeyboardEvent, type UIEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DISPLAY_FIELDS, FilterError, parseDisplayFilter } from '../../lib/display-filter';
import type {
  PacketDetails,
  PacketListAnswer,
  PacketRow,
  PacketSelection,
  PacketWindow,
} from '../../protocol/sim-api';
import { fastForwarding } from '../../state/app-store';
import { download, fileName } from '../charts/export';
import { useApp, useAppStore, useLab } from '../context';
import './packets.css';

export const ROW_H = 20;
const OVERSCAN = 120;
/** A page is asked for again once the view comes this close to its edge (rows). */
const MARGIN = 40;
/** Browsers cap an element's height (Firefox near 17.9 M px): past this the scrollbar is scaled. */
const MAX_SCROLL_PX = 8_000_000;
/** The list asks again at most this often while the clock runs (ms). */
const REFRESH_MS = 250;
/**
 * The same in a fast-forward (the model slower than the speed asked, a run to an instant or a
 * condition): each answer writes up to a ring's worth of captured rows in the worker, taken from
 * the run, so once a second.
 */
const REFRESH_FAST_FORWARD_MS = 1000;

const WINDOWS: Array<{ id: string; label: string; w: PacketWindow }> = [
  { id: 'all', label: 'Whole capture', w: { kind: 'all' } },
  { id: '1s', label: 'Last 1 s', w: { kind: 'last', ns: 1e9 } },
  { id: '100ms', label: 'Last 100 ms', w: { kind: 'last', ns: 1e8 } },
  { id: '10ms', label: 'Last 10 ms', w: { kind: 'last', ns: 1e7 } },
];

const EXAMPLES = [
  'tcp.flags.syn == 1',
  'drop',
  'drop.reason == "pps_allowance_exceeded"',
  'ip.addr == 10.0.0.11 && tcp.port == 5201',
  'tcp.len > 0 && dir == out',
  'udp',
  'credits',
  'stage == nitro_egress',
  'tcp.analysis.retransmission',
];

type Ok = Extract<PacketListAnswer, { ok: true }>;

/** Where the rows of a list of `matched` rows sit for a scroll position (scaled past MAX_SCROLL_PX). */
export function viewport(matched: number, scrollTop: number, viewH: number) {
  const total = matched * ROW_H;
  const virt = Math.min(total, MAX_SCROLL_PX);
  const ratio = total > virt && virt > viewH ? (total - viewH) / (virt - viewH) : 1;
  // a scroll position past the end (the list got shorter: the browser clamps its own without a
  // scroll event) is the end's
  const st = Math.max(0, Math.min(scrollTop, Math.max(0, virt + ROW_H - viewH)));
  const realTop = st * ratio;
  const first = Math.max(0, Math.min(Math.floor(realTop / ROW_H), Math.max(0, matched - 1)));
  const count = Math.min(matched - first, Math.ceil(viewH / ROW_H) + 1);
  return {
    virt,
    first,
    count,
    /** The top of row `k` inside the scroller's content. */
    top: (k: number) => st + (k * ROW_H - realTop),
    /** The scroll position that shows row `k` at the top. */
    scrollFor: (k: number) => (k * ROW_H) / ratio,
  };
}

export function PacketsPanel() {
  const lab = useLab();
  const store = useAppStore();
  const instances = useApp((s) => s.scenario.instances);
  const nowNs = useApp((s) => s.playback.nowNs);
  const fastForward = useApp(fastForwarding);
  const embed = useApp((s) => s.env.embed);
  const [text, setText] = useState('');
  const [applied, setApplied] = useState('');
  const [host, setHost] = useState('');
  const [winId, setWinId] = useState('all');
  const [follow, setFollow] = useState(true);
  const [answer, setAnswer] = useState<Ok | null>(null);
  /** The filter the rows shown were selected with (the box may hold a newer one, being applied). */
  const [answerFilter, setAnswerFilter] = useState('');
  const [workerError, setWorkerError] = useState<{
    error: string;
    start: number;
    end: number;
    text: string;
  } | null>(null);
  const [selected, setSelected] = useState<{ no: number; pos: number } | null>(null);
  const [details, setDetails] = useState<PacketDetails | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewH, setViewH] = useState(300);
  const [note, setNote] = useState('');
  /** The list over the whole workbench (Wireshark-sized) rather than in the side column. */
  const [wide, setWide] = useState(false);
  const [wideTop, setWideTop] = useState(0);
  // expanded, the list starts below the time controls (sticky: where they are depends on the scroll)
  useEffect(() => {
    if (!wide) return;
    const place = () =>
      setWideTop(
        Math.max(
          0,
          Math.round(document.querySelector('.controls-bar')?.getBoundingClientRect().bottom ?? 0),
        ) + 8,
      );
    place();
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
    };
  }, [wide]);
  const scroller = useRef<HTMLDivElement>(null);
  /** Where the list scrolled itself last (a scroll event there is not the user's). */
  const ownScroll = useRef<number | null>(null);
  const req = useRef({ busy: false, dirty: false, at: 0, timer: 0 as ReturnType<typeof setTimeout> | 0 });
  const pendingPos = useRef<number | null>(null);
  const [tick, setTick] = useState(0);

  const parseErr = useMemo(() => {
    try {
      parseDisplayFilter(text);
      return null;
    } catch (e) {
      if (e instanceof FilterError) return e;
      throw e;
    }
  }, [text]);
  // the charts' zoomed window, when they are zoomed: the packets of the stretch looked at there
  const zoom = useApp((s) => s.selection.zoom);
  const zf = zoom?.[0];
  const zt = zoom?.[1];
  const win: PacketWindow = useMemo(
    () =>
      winId === 'charts'
        ? zf !== undefined && zt !== undefined
          ? { kind: 'range', fromNs: zf, toNs: zt }
          : { kind: 'all' }
        : WINDOWS.find((w) => w.id === winId)!.w,
    [winId, zf, zt],
  );
  const sel: PacketSelection = useMemo(
    () => ({ filter: applied, host: host === '' ? null : host, window: win }),
    [applied, host, win],
  );
  const matched = answer?.matched ?? 0;
  const vp = viewport(matched, scrollTop, viewH);

  // opened in a side column too short for a list beside the bar (1280x800: the tab has about 150
  // px), the list opens expanded; "Back to the side" puts it back. Decided once, the first time the
  // tab is laid out (a tab switching in is hidden for a frame or two: no height yet)
  const placed = useRef(false);
  const place = useCallback(() => {
    const tp = scroller.current?.closest('.tabpanel');
    if (placed.current || !tp || tp.clientHeight === 0) return;
    placed.current = true;
    if (tp.clientHeight < 320 && window.innerWidth > 900) setWide(true);
  }, []);

  // the scroller's height
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setViewH(el.clientHeight || 300);
    place();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      setViewH(el.clientHeight || 300);
      place();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [place]);

  // another lab (a preset, a lesson, a shared link): its rows are others; an instance it lacks is
  // no longer chosen
  useEffect(() => {
    setSelected(null);
    setDetails(null);
    setHost((h) => (h === '' || instances.some((i) => i.name === h) ? h : ''));
  }, [instances]);

  // a new selection (filter, instance, window) starts at the end, following
  // biome-ignore lint/correctness/useExhaustiveDependencies: `sel` is what changed
  useEffect(() => {
    setFollow(true);
    setSelected(null);
    setDetails(null);
  }, [sel]);

  const lastSel = useRef<PacketSelection | null>(null);
  const choose = useCallback(
    (row: PacketRow, pos: number) => {
      setSelected({ no: row.no, pos });
      setFollow(false);
      void lab.packetDetails?.(row.no).then((d) => {
        setDetails(d);
        if (d?.ref)
          void lab.select({ kind: 'packet', id: -1, flow: d.ref.flow, seq: d.ref.seq, count: d.ref.count });
      });
    },
    [lab],
  );

  const page = answer;
  const covers = (a: Ok | null, first: number, count: number) => {
    if (a === null) return false;
    const end = a.offset + a.rows.length;
    return (
      first >= a.offset &&
      first + count <= end &&
      (a.offset === 0 || first - a.offset >= MARGIN) &&
      (end >= a.matched || end - (first + count) >= MARGIN)
    );
  };

  // ask the worker for the rows in view: when the selection changes, when the view leaves the
  // page held, and a few times a second while the clock runs
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` and `nowNs` are refresh signals
  useEffect(() => {
    const r = req.current;
    if (!lab.packetList) return;
    if (r.busy) {
      r.dirty = true;
      return;
    }
    const wait = r.at + (fastForward ? REFRESH_FAST_FORWARD_MS : REFRESH_MS) - performance.now();
    const sameSel = page !== null && lastSel.current === sel;
    if (sameSel && covers(page, vp.first, vp.count) && pendingPos.current === null && wait > 0) {
      if (!r.timer)
        r.timer = setTimeout(() => {
          r.timer = 0;
          setTick((t) => t + 1);
        }, wait);
      return;
    }
    r.busy = true;
    r.at = performance.now();
    const want = pendingPos.current ?? vp.first;
    const offset = Math.max(0, want - OVERSCAN);
    const limit = vp.count + 2 * OVERSCAN;
    const asked = sel;
    void lab
      .packetList({
        ...sel,
        offset,
        limit,
        fromEnd: follow && pendingPos.current === null,
        locate: selected?.no ?? null,
      })
      .then((a) => {
        if (!a) return;
        if (!a.ok) {
          setWorkerError({ error: a.error, start: a.start, end: a.end, text: asked.filter });
          return;
        }
        setWorkerError(null);
        lastSel.current = asked;
        setAnswer(a);
        setAnswerFilter(asked.filter);
        if (selected && a.located >= 0 && a.located !== selected.pos)
          setSelected({ no: selected.no, pos: a.located });
        const p = pendingPos.current;
        if (p !== null) {
          const row = a.rows[p - a.offset];
          if (row) {
            pendingPos.current = null;
            choose(row, p);
          }
        }
      })
      .finally(() => {
        r.busy = false;
        if (r.dirty) {
          r.dirty = false;
          setTick((t) => t + 1);
        }
      });
  }, [lab, sel, vp.first, vp.count, nowNs, tick, follow, fastForward]);

  // following: the newest rows in view
  useEffect(() => {
    const el = scroller.current;
    if (!follow || !el || !answer) return;
    const top = Math.max(0, viewport(answer.matched, 0, viewH).virt - viewH);
    if (Math.abs(el.scrollTop - top) > 1) {
      ownScroll.current = top;
      el.scrollTop = top;
      setScrollTop(top);
    }
  }, [follow, answer, viewH]);

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const st = e.currentTarget.scrollTop;
    const own = ownScroll.current;
    ownScroll.current = null;
    if (own !== null && Math.abs(st - own) < 2) {
      // the list's own scroll (following, or a row brought into view)
    } else if (follow) {
      const atEnd = st >= viewport(matched, st, viewH).virt - viewH - 2;
      if (!atEnd) setFollow(false);
    }
    setScrollTop(st);
  };

  /** Select the row at position `pos` of the filtered list, scrolling it into view. */
  const selectPos = (pos: number) => {
    if (!answer || matched === 0) return;
    const p = Math.max(0, Math.min(matched - 1, pos));
    const el = scroller.current;
    if (el) {
      const v = viewport(matched, el.scrollTop, viewH);
      const lastFull = v.first + Math.floor(viewH / ROW_H) - 1;
      if (p < v.first || p > lastFull) {
        const top =
          p < v.first ? v.scrollFor(p) : v.scrollFor(Math.max(0, p - Math.floor(viewH / ROW_H) + 1));
        ownScroll.current = top;
        el.scrollTop = top;
        setScrollTop(el.scrollTop);
      }
    }
    const row = answer.rows[p - answer.offset];
    if (row) choose(row, p);
    else {
      pendingPos.current = p;
      setTick((t) => t + 1);
    }
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const cur = selected?.pos ?? (e.key === 'ArrowUp' ? matched : -1);
    const pageRows = Math.max(1, Math.floor(viewH / ROW_H) - 1);
    const to =
      e.key === 'ArrowDown'
        ? cur + 1
        : e.key === 'ArrowUp'
          ? cur - 1
          : e.key === 'PageDown'
            ? cur + pageRows
            : e.key === 'PageUp'
              ? cur - pageRows
              : e.key === 'Home'
                ? 0
                : e.key === 'End'
                  ? matched - 1
                  : null;
    if (to === null) return;
    e.preventDefault();
    selectPos(to);
  };

  const apply = () => {
    if (parseErr) return;
    setApplied(text.trim());
  };

  const doExport = (format: 'pcap' | 'csv') => {
    if (!lab.packetExport) return;
    setNote('');
    void lab.packetExport(sel, format).then((r) => {
      if (!r.ok) {
        setNote(`Export failed: ${r.error}`);
        return;
      }
      const t = store.getState().playback.nowNs;
      download(
        new Blob([r.data as Uint8Array<ArrayBuffer>], {
          type: format === 'pcap' ? 'application/vnd.tcpdump.pcap' : 'text/csv',
        }),
        fileName('packets', t, format),
      );
      setNote(
        `${format === 'pcap' ? 'pcap' : 'CSV'}: ${r.rows.toLocaleString('en-US')} ${format === 'pcap' ? 'packets' : 'rows'}${r.note ? `; ${r.note}` : ''}.`,
      );
    });
  };

  const shownErr = parseErr
    ? { error: parseErr.message, start: parseErr.start, end: parseErr.end, text }
    : workerError && workerError.text === text
      ? workerError
      : null;
  const boxState = shownErr
    ? 'invalid'
    : text.trim() === ''
      ? 'empty'
      : text.trim() === applied
        ? 'valid'
        : 'pending';

  const rows: Array<{ k: number; row: PacketRow | null }> = [];
  for (let k = vp.first; k < vp.first + vp.count; k++)
    rows.push({ k, row: answer?.rows[k - answer.offset] ?? null });

  return (
    <section
      className={`panel packets${wide ? ' wide' : ''}`}
      style={wide ? { top: wideTop } : undefined}
      aria-label="Packet list"
      onKeyDown={(e) => {
        // Escape puts the expanded list back (in the filter box it first restores the applied filter)
        if (
          e.key === 'Escape' &&
          wide &&
          !(e.target instanceof HTMLInputElement && e.target.value !== applied)
        )
          setWide(false);
      }}
    >
      {wide ? (
        // laid over the lab, the list says what it is and how to go back (the tab that named it is under it)
        <h2 className="packets-title">
          Packet list{' '}
          <span className="muted">
            the packets the lab captured, in Wireshark's columns · Esc or “Back to the side” returns to the
            lab
          </span>
        </h2>
      ) : null}
      <div className="packets-bar">
        <div className={`dfilter ${boxState}`}>
          <input
            type="text"
            aria-label="Display filter"
            placeholder="Apply a display filter … (tcp.port == 5201)"
            list="packets-filter-examples"
            spellCheck={false}
            autoComplete="off"
            value={text}
            aria-invalid={shownErr ? true : undefined}
            aria-describedby="packets-filter-msg"
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') apply();
              else if (e.key === 'Escape') setText(applied);
            }}
          />
          <datalist id="packets-filter-examples">
            {EXAMPLES.map((x) => (
              <option key={x} value={x} />
            ))}
          </datalist>
          <button type="button" className="small" onClick={apply} disabled={parseErr !== null}>
            Apply
          </button>
          {applied !== '' || text !== '' ? (
            <button
              type="button"
              className="small"
              onClick={() => {
                setText('');
                setApplied('');
              }}
            >
              Clear
            </button>
          ) : null}
          <button type="button" className="small" aria-pressed={wide} onClick={() => setWide(!wide)}>
            {wide ? 'Back to the side' : 'Expand ⤢'}
          </button>
        </div>
        <div id="packets-filter-msg" className="dfilter-msg" role="status">
          {shownErr ? (
            <>
              <span className="dfilter-err">{shownErr.error}</span>{' '}
              {shownErr.end > shownErr.start ? (
                <code className="dfilter-where">
                  {shownErr.text.slice(0, shownErr.start)}
                  <mark>{shownErr.text.slice(shownErr.start, shownErr.end)}</mark>
                  {shownErr.text.slice(shownErr.end)}
                </code>
              ) : null}
              <span className="muted">
                {applied !== '' ? ` The list keeps ${applied}.` : ' The list stays unfiltered.'}
              </span>
            </>
          ) : boxState === 'pending' ? (
            <span className="muted">Press Enter to apply.</span>
          ) : null}
        </div>
        <div className="packets-controls">
          <label>
            Instance{' '}
            <select value={host} onChange={(e) => setHost(e.target.value)}>
              <option value="">All</option>
              {instances.map((i) => (
                <option key={i.name} value={i.name}>
                  {i.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Window{' '}
            <select value={winId} onChange={(e) => setWinId(e.target.value)}>
              {WINDOWS.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.label}
                </option>
              ))}
              <option value="charts" disabled={zoom === null && winId !== 'charts'}>
                {zoom
                  ? `The charts' window (${(zoom[0] / 1e9).toFixed(3)}–${(zoom[1] / 1e9).toFixed(3)} s)`
                  : "The charts' window (zoom a chart)"}
              </option>
            </select>
          </label>
          <label>
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
          </label>
          {!embed ? (
            <span className="panel-export">
              <button
                type="button"
                className="small"
                onClick={() => doExport('pcap')}
                disabled={matched === 0}
              >
                Export pcap
              </button>
              <button
                type="button"
                className="small"
                onClick={() => doExport('csv')}
                disabled={matched === 0}
              >
                Export CSV
              </button>
            </span>
          ) : null}
        </div>
        <details className="dfilter-help">
          <summary>Filter fields</summary>
          <p className="muted">
            Wireshark's display-filter syntax: <code>==</code> <code>!=</code> <code>&lt;</code>{' '}
            <code>&gt;</code> <code>&lt;=</code> <code>&gt;=</code> (or eq ne lt gt le ge),{' '}
            <code>contains</code>, <code>in {'{80 443 5200..5210}'}</code>, <code>&amp;&amp;</code>{' '}
            <code>||</code> <code>!</code> (and or not), parentheses; a field alone tests that the row has it.
          </p>
          <dl>
            {DISPLAY_FIELDS.map((f) => (
              <div key={f.name}>
                <dt>
                  <code>{f.name}</code>
                </dt>
                <dd>{f.what}</dd>
              </div>
            ))}
          </dl>
        </details>
        <p className="packets-status muted" aria-live="off" data-filter={answer ? answerFilter : undefined}>
          {answer
            ? `${answerFilter !== applied ? 'Filtering… ' : ''}${statusText(answer, answerFilter)}`
            : lab.packetList
              ? 'Reading the capture…'
              : 'No capture in this lab.'}
          {note ? <span className="packets-note"> {note}</span> : null}
        </p>
      </div>
      <div className="packet-grid">
        <div
          className="packet-scroll"
          ref={scroller}
          onScroll={onScroll}
          role="grid"
          aria-label="Packets"
          aria-rowcount={matched + 1}
          aria-colcount={7}
          aria-activedescendant={selected ? `pkt-row-${selected.no}` : undefined}
          tabIndex={0}
          onKeyDown={onKey}
        >
          <div className="packet-head" role="row" aria-rowindex={1}>
            {['No.', 'Time', 'Source', 'Destination', 'Protocol', 'Length', 'Info'].map((c) => (
              <span key={c} role="columnheader">
                {c}
              </span>
            ))}
          </div>
          <div className="packet-body" style={{ height: vp.virt }}>
            {rows.map(({ k, row }) =>
              row ? (
                <div
                  key={row.no}
                  id={`pkt-row-${row.no}`}
                  role="row"
                  aria-rowindex={k + 2}
                  aria-selected={selected?.no === row.no}
                  className={`packet-row ${row.kind}${rowClass(row)}${selected?.no === row.no ? ' selected' : ''}`}
                  style={{ top: vp.top(k) }}
                  onClick={() => choose(row, k)}
                >
                  <span role="gridcell">{row.no}</span>
                  <span role="gridcell">{(row.atNs / 1e9).toFixed(9)}</span>
                  <span role="gridcell">{row.src}</span>
                  <span role="gridcell">{row.dst}</span>
                  <span role="gridcell">{row.protocol}</span>
                  <span role="gridcell">{row.length || ''}</span>
                  <span role="gridcell" title={`${row.host}, ${whereText(row)}`}>
                    <span className="packet-where">{whereMark(row)}</span>
                    {row.info}
                  </span>
                </div>
              ) : (
                <div
                  key={`k${k}`}
                  role="row"
                  aria-rowindex={k + 2}
                  className="packet-row loading"
                  style={{ top: vp.top(k) }}
                >
                  <span role="gridcell">…</span>
                </div>
              ),
            )}
          </div>
        </div>
        {answer && matched === 0 ? (
          <p className="packets-empty muted">
            {answer.held === 0
              ? 'No packets yet: run a command in the terminal (iperf3 -c server, ping server).'
              : 'No row matches this filter, instance and window.'}
          </p>
        ) : null}
      </div>
      {details ? (
        <PacketDetailsView
          d={details}
          onClose={() => setDetails(null)}
          onFilter={(expr) => {
            setText(expr);
            setApplied(expr);
          }}
        />
      ) : null}
    </section>
  );
}

function statusText(a: Ok, filter: string): string {
  const n = (x: number) => x.toLocaleString('en-US');
  let s = `${n(a.matched)} ${filter ? 'of ' : ''}${filter ? `${n(a.held)} ` : ''}row${a.matched === 1 && !filter ? '' : 's'}${filter ? ' match' : ''}`;
  if (a.evicted > 0)
    s += ` · the capture keeps the last ${n(a.cap)} rows: ${n(a.evicted)} older ${a.evicted === 1 ? 'row was' : 'rows were'} dropped from it`;
  else s += ` · the capture keeps up to ${n(a.cap)} rows`;
  return s;
}

const KIND_MARK: Record<PacketRow['kind'], string> = { out: '↑', in: '↓', drop: '✕', credits: '◆' };

function whereMark(r: PacketRow): string {
  return `${KIND_MARK[r.kind]} ${r.host} `;
}

function whereText(r: PacketRow): string {
  if (r.kind === 'out') return 'sent (TX capture point)';
  if (r.kind === 'in') return 'received (RX capture point)';
  if (r.kind === 'drop') return `dropped at ${r.stage}`;
  return `burst credits at ${r.stage}`;
}

/** Wireshark's default colouring, in spirit: SYN/FIN grey, RST red, drops and events marked. */
function rowClass(r: PacketRow): string {
  if (r.kind !== 'out' && r.kind !== 'in') return '';
  if (r.info.startsWith('[TCP Retransmission]')) return ' bad';
  if (/\[[^\]]*RST/.test(r.info)) return ' rst';
  if (/\[[^\]]*(SYN|FIN)/.test(r.info)) return ' synfin';
  return '';
}

function PacketDetailsView({
  d,
  onClose,
  onFilter,
}: {
  d: PacketDetails;
  onClose: () => void;
  /** Wireshark's "Apply as Filter" on a field. */
  onFilter: (expr: string) => void;
}) {
  const lab = useLab();
  return (
    <section className="packet-details" aria-label={`Packet ${d.no} details`}>
      <div className="packet-details-head">
        <h3>
          Packet {d.no}, {d.host}, t = {(d.atNs / 1e9).toFixed(9)} s
        </h3>
        <button
          type="button"
          className="small"
          title="Take the lab to this packet's instant and select it in the path"
          onClick={() =>
            void lab.seek(d.atNs).then(() => {
              if (d.ref)
                void lab.select({
                  kind: 'packet',
                  id: -1,
                  flow: d.ref.flow,
                  seq: d.ref.seq,
                  count: d.ref.count,
                });
            })
          }
        >
          Go to t = {(d.atNs / 1e9).toFixed(6)} s
        </button>
        <button type="button" className="small" aria-label="Close packet details" onClick={onClose}>
          ✕
        </button>
      </div>
      <div className="packet-tree">
        {d.layers.map((l, i) => (
          <details key={l.title} open={i >= d.layers.length - 2}>
            <summary>{l.title}</summary>
            <ul>
              {l.fields.map((f) => (
                <li key={f.label}>
                  {f.label}: {f.value}
                  {f.filter ? (
                    <button
                      type="button"
                      className="apply-filter"
                      title={`Apply as filter: ${f.filter}`}
                      aria-label={`Apply as filter: ${f.filter}`}
                      onClick={() => onFilter(f.filter!)}
                    >
                      ⊕
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </details>
        ))}
      </div>
      {d.bytes ? (
        <details className="packet-bytes-box">
          <summary>Header bytes ({d.bytes.length})</summary>
          <pre className="packet-bytes">{hexDump(d.bytes)}</pre>
        </details>
      ) : null}
    </section>
  );
}

/** Wireshark's bytes pane: offset, 16 bytes in hex, then as ASCII. */
export function hexDump(b: Uint8Array): string {
  const lines: string[] = [];
  for (let o = 0; o < b.length; o += 16) {
    const chunk = [...b.subarray(o, o + 16)];
    const hex = chunk.map((x) => x.toString(16).padStart(2, '0'));
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const ascii = chunk.map((x) => (x >= 0x20 && x < 0x7f ? String.fromCharCode(x) : '.')).join('');
    lines.push(`${o.toString(16).padStart(4, '0')}  ${`${left}  ${right}`.padEnd(49)} ${ascii}`);
  }
  return lines.join('\n');
}
