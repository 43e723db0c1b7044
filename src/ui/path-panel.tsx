/**
 * The path region: the path view (src/ui/path, drawn from the worker's path frames), and the
 * inspector of what is selected in it (a packet, or a stage with the Nitro tables), which the app
 * shows beside the picture in the side column. Connects the presentational components to the
 * store and the lab controller.
 */
import { useEffect, useRef, useState } from 'react';
import { canvasPng, download, fileName } from './charts/export';
import { formatInstant } from './charts/time-axis';
import { NitroTables } from './inspectors/nitro-tables';
import { PacketInspector } from './inspectors/packet-inspector';
import { StageInspector } from './inspectors/stage-inspector';
import { PathView } from './path/path-view';
import { useApp, useAppStore, useLab } from './context';

/**
 * The canvas height: what the window leaves below the header and time controls and above the
 * legend (so the whole path is in view at 1440×900 and 1920×1080), within readable bounds. Where
 * the layout stacks (≤ STACKED_MAX_W wide, small-screens.css) the terminal comes under the
 * picture: the picture leaves room for it (the geometry keeps every part legible whatever it is asked).
 */
const pathHeight = () => {
  if (typeof innerHeight !== 'number') return 560;
  if (typeof innerWidth === 'number' && innerWidth <= STACKED_MAX_W)
    return Math.round(Math.max(300, innerHeight - 560));
  return Math.round(Math.min(860, Math.max(470, innerHeight - 320)));
};

/** Widest window in which the full lab stacks its columns (below the stage: small-screens.css). */
const STACKED_MAX_W = 1099;

const EMBED_PATH_HEIGHT = 400;
/** The stage layout (styles.css): the path's panel has the window's height, the picture fills it. */
const STAGE_QUERY = '(min-width: 1100px)';
/** Room the panel keeps below the picture for its caption and the colour legend. */
const STAGE_RESERVED_PX = 96;

function usePathHeight(box: React.RefObject<HTMLElement | null>): number {
  // embedded, the window is the host's frame, which autosizes to the page: a fixed height
  const embed = useApp((s) => s.env.embed);
  const [h, setH] = useState(pathHeight);
  useEffect(() => {
    const panel = box.current?.parentElement;
    const stage = typeof matchMedia === 'function' ? matchMedia(STAGE_QUERY) : null;
    const measure = () => {
      // on the stage the panel's height comes from the window, not from the picture: follow it
      if (stage?.matches && panel && panel.clientHeight > 0)
        setH(Math.round(Math.min(900, Math.max(440, panel.clientHeight - STAGE_RESERVED_PX))));
      else setH(pathHeight());
    };
    measure();
    const ro = typeof ResizeObserver === 'undefined' || !panel ? null : new ResizeObserver(measure);
    if (panel) ro?.observe(panel);
    addEventListener('resize', measure);
    return () => {
      ro?.disconnect();
      removeEventListener('resize', measure);
    };
  }, [box]);
  return embed ? EMBED_PATH_HEIGHT : h;
}

export function PathPanel() {
  const box = useRef<HTMLDivElement>(null);
  const height = usePathHeight(box);
  const store = useAppStore();
  const lab = useLab();
  const layout = useApp((s) => s.pathLayout);
  useApp((s) => s.results.seriesVersion); // a new path frame arrived
  const selection = useApp((s) => s.selection.path);
  const colourBy = useApp((s) => s.view.colourBy);
  const cursor = useApp((s) => s.selection.cursorNs);
  const embed = useApp((s) => s.env.embed);
  const frame = store.pathFrame;
  const exportPng = () => {
    const c = box.current?.querySelector('canvas');
    if (!c) return;
    void canvasPng(c).then((b) => download(b, fileName('packet-path', frame?.toNs ?? 0, 'png')));
  };
  return (
    <div className="path-panel" ref={box}>
      <PathView
        layout={layout}
        frame={store.pathFrame}
        selection={selection}
        onSelect={(sel) => void lab.select(sel)}
        colourBy={colourBy}
        onColourByChange={(c) => store.setState((s) => ({ view: { ...s.view, colourBy: c } }))}
        height={height}
      />
      <p className="path-cursor muted" data-testid="path-cursor">
        {cursorLabel(cursor, frame?.fromNs ?? null, frame?.toNs ?? null)}
        {cursor !== null && frame && (cursor < frame.fromNs || cursor > frame.toNs) ? (
          <>
            {' '}
            <button type="button" className="small" onClick={() => void lab.seek(cursor)}>
              Show the path at the cursor
            </button>
          </>
        ) : null}
        {!embed ? (
          <>
            {' '}
            <button type="button" className="small" aria-label="Export PNG: packet path" onClick={exportPng}>
              Export PNG
            </button>
          </>
        ) : null}
      </p>
    </div>
  );
}

/** What is selected in the path: the packet's or the stage's inspector (with the Nitro tables), or how to select. */
export function InspectorPanel() {
  const lab = useLab();
  const selection = useApp((s) => s.selection.path);
  const insp = useApp((s) => s.inspector);
  const close = () => void lab.select(null);
  if (!selection)
    return (
      <p className="muted">
        Click a packet or a queue in the picture (or focus the picture and use ← →) to inspect it here: a
        packet's 5-tuple, RSS steering and the stages it passed; a queue's parameters, with their sources, and
        its history; the Nitro card's tables.
      </p>
    );
  return (
    <div className="inspector-panel">
      {selection.kind === 'packet' ? (
        <PacketInspector inspection={insp.packet} missing={insp.missing ?? undefined} onClose={close} />
      ) : null}
      {selection.kind === 'stage' && insp.stage ? (
        <StageInspector inspection={insp.stage} onClose={close} />
      ) : null}
      {selection.kind === 'stage' && insp.nitro ? <NitroTables tables={insp.nitro} /> : null}
    </div>
  );
}

/** The charts' cursor against the window this picture shows (the path view has no time axis). */
function cursorLabel(cursor: number | null, fromNs: number | null, toNs: number | null): string {
  const shown = fromNs !== null && toNs !== null && toNs > 0;
  const win = shown ? `${formatInstant(fromNs, toNs - fromNs)} – ${formatInstant(toNs, toNs - fromNs)}` : '';
  if (cursor === null) return shown ? `This picture: ${win}.` : '';
  const span = shown ? toNs - fromNs : cursor;
  const where = !shown
    ? ''
    : cursor < fromNs
      ? ' (before this picture)'
      : cursor > toNs
        ? ' (after this picture)'
        : ' (inside this picture)';
  return `Charts cursor at ${formatInstant(cursor, span)}${where}.${shown ? ` This picture: ${win}.` : ''}`;
}
