/**
 * <PathView>: the packet path of the lab on a canvas (drawing in ./path-renderer.ts), with the
 * overlays that make it readable: what the colours mean, whether the frame is sampled, the colour
 * toggle. Presentational: props in, `onSelect` out; it never talks to the worker or the store.
 *
 * Themes come from CSS variables (--path-*, see path-view.css), re-read when the colour scheme
 * changes; `prefers-reduced-motion` draws state without motion: no trails, each batch in the queue
 * of the stage it is in (a batch jumps from stage to stage), drops where they happened.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PathFrame, PathLayout } from '../../protocol/path-frame';
import { categoryColour, DROP_COLOUR } from './palette';
import { type Activity, activeHalves, type FocusState, focusOf, initialFocus, stepFocus } from './path-focus';
import { computeGeometry, type PathFocus } from './path-geometry';
import {
  allocHitData,
  type ColourBy,
  DEFAULT_THEME,
  drawPath,
  hitPacket,
  hitStage,
  type PathSelection,
  type Theme,
} from './path-renderer';
import './path-view.css';

export type { ColourBy, PathSelection } from './path-renderer';

export interface PathViewProps {
  layout: PathLayout | null;
  frame: PathFrame | null;
  selection: PathSelection;
  onSelect: (s: PathSelection) => void;
  colourBy: ColourBy;
  /** When given, the view shows the colour toggle. */
  onColourByChange?: (c: ColourBy) => void;
  /** Height in CSS pixels (the width follows the container). */
  height?: number;
  /** Called after each draw with its duration in ms (benchmarks). */
  onFrameDrawn?: (ms: number) => void;
}

const THEME_VARS: Record<keyof Theme, string> = {
  bg: '--path-bg',
  fg: '--path-fg',
  muted: '--path-muted',
  stage: '--path-stage',
  stageBorder: '--path-stage-border',
  lane: '--path-lane',
  fill: '--path-fill',
  nitro: '--path-nitro',
  nitroBorder: '--path-nitro-border',
  select: '--path-select',
  markEdge: '--path-mark-edge',
  font: '--path-font',
};

function readTheme(el: HTMLElement): Theme {
  const cs = getComputedStyle(el);
  const out = { ...DEFAULT_THEME };
  for (const [k, v] of Object.entries(THEME_VARS) as Array<[keyof Theme, string]>) {
    const val = cs.getPropertyValue(v).trim();
    if (val) out[k] = val === 'none' ? '' : val;
  }
  return out;
}

/** The CSS zoom in effect on an element (the larger-text mode), 1 where the browser does not say. */
function cssZoom(el: Element): number {
  const z = (el as Element & { currentCSSZoom?: number }).currentCSSZoom;
  return typeof z === 'number' && z > 0 ? z : 1;
}

function useMedia(query: string): boolean {
  const [m, setM] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia(query);
    const on = () => setM(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return m;
}

/** What each stage is, in a sentence (hover text). */
const STAGE_HELP: Record<string, string> = {
  socket_tx: 'Socket send buffer: what the application wrote, on its way into the stack',
  qdisc: "Queueing discipline (tc): the kernel's egress queue (one per TX queue under mq)",
  tx_ring:
    'ENA TX ring (LLQ): the driver writes descriptors and packet headers into the device, which fetches the rest of each packet; about 1 µs per packet per queue (~1 Mpps per queue, as measured by ena-dts and TOONK)',
  nitro_egress:
    'Nitro card, egress: flow lookup (flow cache, conntrack), then the per-flow limit and the bandwidth and PPS allowances, which queue, then drop',
  fabric: 'VPC fabric between the Nitro cards',
  nitro_ingress:
    'Nitro card, ingress: flow lookup, the bandwidth (in) allowance and the shared PPS allowance',
  rx_ring:
    "ENA RX ring: packets RSS steered to this queue wait for its interrupt and NAPI on the queue's vCPU",
  socket_rx: 'Socket receive buffer: data waiting for the application to read it',
};

/** Narrowest the picture is laid out (two instances side by side stay legible); narrower boxes scale it. */
export const MIN_DRAW_W = 480;
/**
 * On a box narrower than MIN_DRAW_W (a phone) each instance column is drawn at least this wide:
 * two instances fit scaled down; three or more (a router between them) make a wider picture the
 * path panel pans sideways, instead of one scaled until its labels cannot be read.
 */
export const MIN_COL_DRAW_W = MIN_DRAW_W / 2;

const COLOUR_CHOICES: Array<[ColourBy, string]> = [
  ['flow', 'Flow'],
  ['rss-queue', 'RSS queue'],
  ['vcpu', 'vCPU'],
];

export function PathView(props: PathViewProps) {
  const { layout, frame, selection, onSelect, colourBy, onColourByChange, onFrameDrawn } = props;
  const height = props.height ?? 620;
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // the picture is drawn at least MIN_DRAW_W wide; a narrower box (a phone) shows it scaled down
  const [boxW, setBoxW] = useState(960);
  const narrow = boxW < MIN_DRAW_W;
  const width = narrow ? Math.max(MIN_DRAW_W, (layout?.instances.length ?? 2) * MIN_COL_DRAW_W) : boxW;
  const scale = narrow ? boxW / MIN_DRAW_W : 1;
  const reducedMotion = useMedia('(prefers-reduced-motion: reduce)');
  const dark = useMedia('(prefers-color-scheme: dark)');
  const [theme, setTheme] = useState<Theme>(DEFAULT_THEME);
  const hit = useRef(allocHitData(8192));

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    if (el.clientWidth > 0) setBoxW(Math.floor(el.clientWidth));
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w) setBoxW(Math.floor(w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // re-read the CSS variables when the scheme flips or the app toggles data-theme on an ancestor
  // biome-ignore lint/correctness/useExhaustiveDependencies: `dark` is the trigger, not an input
  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    setTheme(readTheme(el));
    if (typeof MutationObserver !== 'function') return;
    const mo = new MutationObserver(() => setTheme(readTheme(el)));
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => mo.disconnect();
  }, [dark]);

  // halves with nothing to show are kept small (path-focus.ts): eased weights, stepped per animation frame
  const [focus, setFocus] = useState<PathFocus | null>(null);
  const focusState = useRef<FocusState | null>(null);
  const active = useRef<Activity | null>(null);
  const reducedRef = useRef(reducedMotion);
  reducedRef.current = reducedMotion;
  const focusLoop = useRef<{
    raf: boolean;
    timer: ReturnType<typeof setTimeout> | null;
    last: number;
    gone: boolean;
  }>({ raf: false, timer: null, last: 0, gone: false });
  const kickFocus = useCallback(() => {
    const loop = focusLoop.current;
    if (loop.raf || loop.gone) return;
    loop.raf = true;
    loop.last = performance.now();
    const next = (cb: () => void) =>
      typeof requestAnimationFrame === 'function' ? requestAnimationFrame(cb) : setTimeout(cb, 16);
    const tick = () => {
      loop.raf = false;
      const st = focusState.current;
      const act = active.current;
      if (!st || !act || loop.gone) return;
      const now = performance.now();
      const r = stepFocus(st, act, now, now - loop.last, reducedRef.current);
      loop.last = now;
      if (r.moved) setFocus(focusOf(st));
      if (!r.settled) {
        loop.raf = true;
        next(tick);
      } else if (Number.isFinite(r.wakeInMs)) {
        if (loop.timer !== null) clearTimeout(loop.timer);
        loop.timer = setTimeout(() => {
          loop.timer = null;
          kickFocus();
        }, r.wakeInMs + 20);
      }
    };
    next(tick);
  }, []);
  useEffect(() => {
    const loop = focusLoop.current;
    loop.gone = false;
    return () => {
      loop.gone = true;
      if (loop.timer !== null) clearTimeout(loop.timer);
    };
  }, []);
  useEffect(() => {
    if (!layout) return;
    const n = layout.instances.length;
    const act = activeHalves(layout, frame);
    if (focusState.current?.tx.length !== n) {
      focusState.current = initialFocus(n, performance.now(), act.rings[0] === 1);
      setFocus(focusOf(focusState.current));
    }
    active.current = act;
    kickFocus();
  }, [layout, frame, kickFocus]);

  const geom = useMemo(
    () => (layout ? computeGeometry(layout, width, height, focus ?? undefined) : null),
    [layout, width, height, focus],
  );

  // the geometry may be taller than asked (every part legible): the canvas follows it
  const drawnH = geom?.height ?? height;

  useEffect(() => {
    const c = canvasRef.current;
    if (!c || !geom || !layout) return;
    // under the larger-text mode's CSS zoom the canvas shows bigger: draw it at that resolution
    const zoom = cssZoom(c);
    const dpr = (typeof devicePixelRatio === 'number' ? devicePixelRatio : 1) * zoom;
    const bw = Math.round(width * dpr);
    const bh = Math.round(geom.height * dpr);
    if (c.width !== bw || c.height !== bh) {
      c.width = bw;
      c.height = bh;
    }
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const t0 = performance.now();
    drawPath(ctx, geom, layout, frame, { colourBy, selection, reducedMotion, theme, dpr }, hit.current);
    onFrameDrawn?.(performance.now() - t0);
    // where one drawn batch is (the newest): lets tests and tools click a packet without pixel hunting
    const h = hit.current;
    const best = h.n - 1;
    // (in the element's on-screen pixels: scaled down on a phone, up by the larger-text zoom)
    const k = scale * zoom;
    c.dataset['packetAt'] = best >= 0 ? `${Math.round(h.x[best]! * k)},${Math.round(h.y[best]! * k)}` : '';
  }, [geom, layout, frame, colourBy, selection, reducedMotion, theme, width, scale, onFrameDrawn]);

  // pointer position in the picture's own coordinates (it may be drawn scaled down)
  const locate = useCallback(
    (e: React.MouseEvent<HTMLCanvasElement>) => {
      const r = e.currentTarget.getBoundingClientRect();
      // the pointer is in the viewport's pixels; the larger-text mode's zoom scales the canvas too
      const k = scale * cssZoom(e.currentTarget);
      return { x: (e.clientX - r.left) / k, y: (e.clientY - r.top) / k };
    },
    [scale],
  );

  const onClick = useCallback(
    (e: React.MouseEvent<HTMLCanvasElement>) => {
      if (!geom) return;
      const { x, y } = locate(e);
      const i = frame ? hitPacket(hit.current, x, y) : -1;
      if (frame && i >= 0) {
        onSelect(packetSelection(frame, i));
        return;
      }
      const s = hitStage(geom, x, y);
      onSelect(s ? { kind: 'stage', ...s } : null);
    },
    [geom, frame, onSelect, locate],
  );

  const onMove = useCallback(
    (e: React.MouseEvent<HTMLCanvasElement>) => {
      if (!geom) return;
      const { x, y } = locate(e);
      const i = frame ? hitPacket(hit.current, x, y) : -1;
      const st = i < 0 ? hitStage(geom, x, y) : null;
      e.currentTarget.style.cursor = i >= 0 || st ? 'pointer' : 'default';
      // a tooltip that says what is under the pointer (the canvas has no other hover text)
      let tip = '';
      if (frame && i >= 0)
        tip = `A batch of ${fmtInt(frame.count[i]!)} packet${frame.count[i] === 1 ? '' : 's'} of flow ${frame.flow[i]}: click to follow it`;
      else if (st && layout) {
        const name = layout.stages[st.stage] ?? '';
        const inst = layout.instances[st.host];
        const lane = inst?.stages.find((s) => s.code === st.stage)?.lanes.find((l) => l.queue === st.queue);
        tip = `${STAGE_HELP[name] ?? name}${name === 'fabric' ? '' : ` (${inst?.name ?? ''}${lane?.label ? `, ${lane.label}` : ''})`}. Click for its parameters and history.`;
      }
      if (e.currentTarget.title !== tip) e.currentTarget.title = tip;
    },
    [geom, frame, layout, locate],
  );

  // keyboard: arrows step through the drawn batches (oldest first), Escape clears the selection
  const onKey = useCallback(
    (e: React.KeyboardEvent<HTMLCanvasElement>) => {
      if (e.key === 'Escape') {
        onSelect(null);
        return;
      }
      if (!frame || (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft')) return;
      e.preventDefault();
      const h = hit.current;
      const ids: number[] = [];
      for (let k = 0; k < h.n; k++) ids.push(h.index[k]!);
      if (ids.length === 0) return;
      ids.sort((a, b) => frame.enterNs[a]! - frame.enterNs[b]!);
      const cur =
        selection?.kind === 'packet'
          ? ids.findIndex((i) =>
              selection.id >= 0
                ? frame.id[i] === selection.id
                : frame.flow[i] === selection.flow && frame.seq[i] === selection.seq,
            )
          : -1;
      const next = e.key === 'ArrowRight' ? (cur + 1) % ids.length : (cur - 1 + ids.length) % ids.length;
      onSelect(packetSelection(frame, ids[next < 0 ? ids.length - 1 : next]!));
    },
    [frame, onSelect, selection],
  );

  const dropList = useMemo(() => dropsOf(layout, frame), [layout, frame]);
  const legend = useMemo(() => legendOf(frame, colourBy), [frame, colourBy]);
  const summary = useMemo(() => summaryOf(layout, frame), [layout, frame]);

  return (
    <section className="path-view" ref={boxRef} aria-label="Packet path">
      <p className="path-view__caption">
        As NET402 draws it: packets go <strong>down</strong> the sender (socket → qdisc → TX ring → Nitro
        card), <strong>across</strong> the VPC fabric, <strong>up</strong> the receiver (Nitro card → RX ring
        → NAPI on a vCPU → socket). Dots are batches; bars are queues.
        {layout?.instances.some((i) => i.path !== undefined && i.path !== 'nitro') && (
          <>
            {' '}
            A Xen instance has no Nitro card: its bottom box is what carries its packets there (dom0&apos;s
            netback, an Intel 82599 VF, or the first ENA).
          </>
        )}
      </p>
      {narrow && width * scale > boxW + 1 && layout ? (
        <p className="path-view__pan-hint" data-testid="path-pan-hint">
          Wider than the screen: scroll the picture sideways for{' '}
          {layout.instances
            .slice(Math.floor(boxW / (MIN_COL_DRAW_W * scale)))
            .map((i) => i.name)
            .join(', ')}
          .
        </p>
      ) : null}
      {/* a phone pans a picture of three or more instances sideways (MIN_COL_DRAW_W) */}
      <div className="path-view__pan">
        <canvas
          ref={canvasRef}
          style={{ width: `${width * scale}px`, height: `${drawnH * scale}px` }}
          data-scale={scale === 1 ? undefined : scale.toFixed(3)}
          role="img"
          aria-label={summary}
          data-testid="path-canvas"
          data-motion={reducedMotion ? 'reduced' : 'full'}
          tabIndex={0}
          aria-keyshortcuts="ArrowLeft ArrowRight Escape"
          onClick={onClick}
          onMouseMove={onMove}
          onKeyDown={onKey}
        />
      </div>
      <div className="path-view__bar">
        {onColourByChange && (
          <fieldset className="path-view__colour">
            <legend>Colour by</legend>
            {COLOUR_CHOICES.map(([v, label]) => (
              <label key={v}>
                <input
                  type="radio"
                  name="path-colour-by"
                  value={v}
                  checked={colourBy === v}
                  onChange={() => onColourByChange(v)}
                />
                {label}
              </label>
            ))}
          </fieldset>
        )}
        <ul className="path-view__legend" aria-label="Colours">
          {legend.map((l) => (
            <li key={l.label}>
              <span className="path-view__swatch" style={{ background: l.colour }} />
              {l.label}
            </li>
          ))}
          <li>
            <span className="path-view__swatch path-view__swatch--drop" style={{ borderColor: DROP_COLOUR }}>
              ✕
            </span>
            drop (with its reason)
          </li>
          <li>
            <span className="path-view__swatch path-view__swatch--fill" />
            queue filled / — peak
          </li>
        </ul>
      </div>
      <p className="path-view__note" data-testid="path-density">
        {densityNote(frame)} Click a packet or a queue to inspect it (or focus the picture and use ← →).
      </p>
      {dropList.length > 0 && (
        <ul className="path-view__drops" aria-label="Drops in view" data-testid="path-drops">
          {dropList.map((d) => (
            <li key={d.key}>
              <span aria-hidden="true">✕</span> {d.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function packetSelection(frame: PathFrame, i: number): PathSelection {
  return {
    kind: 'packet',
    id: frame.id[i]!,
    flow: frame.flow[i]!,
    seq: frame.seq[i]!,
    count: frame.count[i]!,
  };
}

function legendOf(frame: PathFrame | null, by: ColourBy): Array<{ label: string; colour: string }> {
  if (!frame) return [];
  const seen = new Map<number, string>();
  for (let i = 0; i < frame.flows && seen.size < 8; i++) {
    const key =
      by === 'flow' ? frame.flowId[i]! : by === 'rss-queue' ? frame.flowRxQueue[i]! : frame.flowRxCpu[i]!;
    if (seen.has(key)) continue;
    const label =
      by === 'flow'
        ? `flow ${key} → RX queue ${frame.flowRxQueue[i]}`
        : by === 'rss-queue'
          ? `RX queue ${key}`
          : `vCPU ${key}`;
    seen.set(key, label);
  }
  return [...seen].sort((a, b) => a[0] - b[0]).map(([k, label]) => ({ label, colour: categoryColour(k) }));
}

/** One formatter for every count drawn (toLocaleString builds one per call: a tenth of a busy picture's drawing). */
const INT_FORMAT = new Intl.NumberFormat('en-US');

function fmtInt(n: number): string {
  return INT_FORMAT.format(Math.round(n));
}

/** What the view shows, in words: batches, density, and whether the frame is sampled. */
export function densityNote(frame: PathFrame | null): string {
  if (!frame) return 'No traffic yet: run a command (e.g. iperf3 -c server) to see packets move.';
  if (!frame.detail) {
    let entered = 0;
    for (let i = 0; i < frame.lanes; i++) entered += frame.laneDensity[i]!;
    return (
      `Fast-forward: at this speed batches are not followed one by one (the model runs every packet; the view ` +
      `keeps counts). Bars show the queues; ${fmtInt(entered)} packet-stage crossings since the last picture.` +
      (frame.dropTotal > 0 ? ` ${fmtInt(frame.dropTotal)} packets dropped.` : '')
    );
  }
  if (frame.totalPassages === 0) return 'No packets on the path in this time window.';
  const drops = frame.dropTotal > 0 ? ` ${fmtInt(frame.dropTotal)} packets dropped.` : '';
  if (frame.sampled)
    return (
      `Sampled: drawing 1 in ${frame.stride} batches (${fmtInt(frame.n)} of ${fmtInt(frame.totalPassages)}); ` +
      `${fmtInt(frame.totalPackets)} packets crossed a stage in this window. Dots are batches of identical packets (bigger = more).${drops}`
    );
  return `${fmtInt(frame.totalPassages)} batches, ${fmtInt(frame.totalPackets)} packets in this window; every batch drawn (bigger dot = more packets in the batch).${drops}`;
}

/** The drops of the frame, one line per (host, stage, reason), in words. */
function dropsOf(layout: PathLayout | null, frame: PathFrame | null): Array<{ key: string; text: string }> {
  if (!layout || !frame) return [];
  const agg = new Map<string, number>();
  for (let i = 0; i < frame.drops; i++) {
    const host = layout.instances[frame.dropHost[i]!]?.name ?? '?';
    const code = frame.dropStage[i]!;
    const stage =
      code === layout.fabric.code
        ? layout.fabric.label
        : (layout.instances[frame.dropHost[i]!]?.stages.find((s) => s.code === code)?.label ??
          layout.stages[code]);
    const k = `${host} · ${stage} · ${layout.dropReasons[frame.dropReason[i]!] ?? '?'}`;
    agg.set(k, (agg.get(k) ?? 0) + frame.dropCount[i]!);
  }
  return [...agg].map(([k, n]) => ({ key: k, text: `${fmtInt(n)} packets dropped on ${k}` }));
}

function summaryOf(layout: PathLayout | null, frame: PathFrame | null): string {
  if (!layout) return 'Packet path: loading';
  const hosts = layout.instances.map((i) => `${i.name} (${i.type})`).join(' and ');
  const drops = new Map<string, number>();
  if (frame)
    for (let i = 0; i < frame.drops; i++) {
      const r = layout.dropReasons[frame.dropReason[i]!] ?? '?';
      drops.set(r, (drops.get(r) ?? 0) + frame.dropCount[i]!);
    }
  const d = [...drops].map(([r, n]) => `${fmtInt(n)} dropped: ${r}`).join('; ');
  return `Packet path between ${hosts}, ${layout.placementLabel}. ${densityNote(frame)}${d ? ` ${d}.` : ''}`;
}

export { DROP_COLOUR };
