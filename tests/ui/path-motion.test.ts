/**
 * The path renderer and prefers-reduced-motion: with motion a batch crossing a ring is drawn
 * further along as time passes, with its trail; without motion it stays in the ring's queue
 * (the same place while it is in that stage), no trail is drawn, and the ring's fill (state) is the
 * same in both. Drawn on a canvas double that records marks, trails and fills.
 */
import { describe, expect, it } from 'vitest';
import { allocPathFrame, PASSAGE_LEFT } from '../../src/engine/view/path-types';
import type { PathFrame, PathLayout } from '../../src/protocol/path-frame';
import { categoryColour } from '../../src/ui/path/palette';
import { computeGeometry } from '../../src/ui/path/path-geometry';
import { allocHitData, DEFAULT_THEME, drawPath } from '../../src/ui/path/path-renderer';
import { syntheticLayout } from '../bench/path-view/synthetic';

/** A Path2D stand-in: remembers its line points and its circles' centres. */
class RecPath {
  pts: Array<[number, number]> = [];
  arcs: Array<[number, number]> = [];
  moveTo(x: number, y: number) {
    this.pts.push([x, y]);
  }
  lineTo(x: number, y: number) {
    this.pts.push([x, y]);
  }
  arc(x: number, y: number) {
    this.arcs.push([x, y]);
  }
}
(globalThis as { Path2D?: unknown }).Path2D ??= RecPath;

interface Rec {
  /** Centres of filled batch marks, by colour. */
  marks: Array<{ colour: string; x: number; y: number }>;
  /** Stroked multi-point paths (trails, drop crosses), by colour. */
  strokes: Array<{ colour: string; pts: number }>;
  /** fillRect calls with the lane-fill colour (queue occupancy bars). */
  fills: Array<[number, number, number, number]>;
  /** Colours of shapes filled whole (boxes: stages, vCPUs). */
  shapes: string[];
}

function recordingContext(): { ctx: CanvasRenderingContext2D; rec: Rec } {
  const rec: Rec = { marks: [], strokes: [], fills: [], shapes: [] };
  const state: Record<string, unknown> = { fillStyle: '#000', strokeStyle: '#000' };
  const ctx = new Proxy(state, {
    get(t, k: string) {
      if (k in t) return t[k];
      if (k === 'measureText') return (s: string) => ({ width: s.length * 6 });
      if (k === 'fill')
        return (p?: RecPath) => {
          if (p instanceof RecPath)
            for (const [x, y] of p.arcs) rec.marks.push({ colour: String(t.fillStyle), x, y });
          else rec.shapes.push(String(t.fillStyle));
        };
      if (k === 'stroke')
        return (p?: RecPath) => {
          if (p instanceof RecPath && p.arcs.length === 0 && p.pts.length > 0)
            rec.strokes.push({ colour: String(t.strokeStyle), pts: p.pts.length });
        };
      if (k === 'fillRect')
        return (x: number, y: number, w: number, h: number) => {
          if (t.fillStyle === DEFAULT_THEME.fill) rec.fills.push([x, y, w, h]);
        };
      return () => {};
    },
    set(t, k: string, v) {
      t[k] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, rec };
}

/**
 * One batch of flow 1 crossing the client's first TX ring from 0 to 10 µs, seen at `toNs`; with
 * `napi`, a second one that vCPU 1 took off the server's RX ring inside the window.
 */
function oneBatch(layout: PathLayout, toNs: number, napi = false): PathFrame {
  const f = allocPathFrame(4);
  const txRing = layout.stages.indexOf('tx_ring');
  const lane = layout.instances[0]!.stages.find((s) => s.code === txRing)!.lanes[0]!;
  f.fromNs = toNs - 1000;
  f.toNs = toNs;
  f.n = 1;
  f.id[0] = 7;
  f.enterNs[0] = 0;
  f.exitNs[0] = 10_000;
  f.host[0] = 0;
  f.stage[0] = txRing;
  f.queue[0] = lane.queue;
  f.flow[0] = 1;
  f.count[0] = 4;
  f.bytes[0] = 4 * 9001;
  f.cpu[0] = -1;
  f.fate[0] = PASSAGE_LEFT;
  f.totalPassages = 1;
  f.totalPackets = 4;
  f.detail = true;
  f.lanes = 1;
  f.laneHost[0] = 0;
  f.laneStage[0] = txRing;
  f.laneQueue[0] = lane.queue;
  f.laneOccupancy[0] = 4;
  f.lanePeak[0] = 8;
  f.flows = 1;
  f.flowId[0] = 1;
  f.flowSrc[0] = 0;
  f.flowDst[0] = 1;
  f.flowRxQueue[0] = 0;
  f.flowRxCpu[0] = 0;
  f.flowTxQueue[0] = 0;
  if (napi) {
    const rxRing = layout.stages.indexOf('rx_ring');
    f.n = 2;
    f.id[1] = 8;
    f.enterNs[1] = toNs - 900;
    f.exitNs[1] = toNs - 100;
    f.host[1] = 1;
    f.stage[1] = rxRing;
    f.queue[1] = 1;
    f.flow[1] = 1;
    f.count[1] = 4;
    f.bytes[1] = 4 * 9001;
    f.cpu[1] = 1;
    f.fate[1] = PASSAGE_LEFT;
  }
  return f;
}

function draw(layout: PathLayout, toNs: number, reducedMotion: boolean, napi = false): Rec {
  const g = computeGeometry(layout, 1000, 640);
  const { ctx, rec } = recordingContext();
  drawPath(
    ctx,
    g,
    layout,
    oneBatch(layout, toNs, napi),
    { colourBy: 'flow', selection: null, reducedMotion, theme: DEFAULT_THEME, dpr: 1 },
    allocHitData(64),
  );
  return rec;
}

describe('the path view and prefers-reduced-motion', () => {
  const layout = syntheticLayout();
  const flowColour = (r: Rec) => r.marks.filter((m) => m.colour !== DEFAULT_THEME.fg);

  it('with motion, a batch moves down the ring as time passes and leaves a trail', () => {
    const a = flowColour(draw(layout, 3000, false));
    const b = flowColour(draw(layout, 6000, false));
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(b[0]!.y).toBeGreaterThan(a[0]!.y + 10);
    expect(draw(layout, 3000, false).strokes.some((s) => s.colour === a[0]!.colour)).toBe(true);
  });

  it('without motion, the batch keeps its place in the ring while it is there, with no trail, and the ring still fills', () => {
    const ra = draw(layout, 3000, true);
    const rb = draw(layout, 6000, true);
    const a = flowColour(ra);
    const b = flowColour(rb);
    expect(a).toHaveLength(1);
    expect(b).toEqual(a);
    expect(ra.strokes.filter((s) => s.colour === a[0]!.colour)).toEqual([]);
    // state: the same occupancy bar as with motion
    expect(ra.fills).toEqual(draw(layout, 3000, false).fills);
    expect(ra.fills.length).toBeGreaterThan(0);
  });

  it('without motion the vCPU that ran NAPI for a batch still lights up', () => {
    const vcpu1 = categoryColour(1);
    expect(draw(layout, 6000, false, true).shapes).toContain(vcpu1);
    expect(draw(layout, 6000, true, true).shapes).toContain(vcpu1);
    expect(draw(layout, 6000, true, false).shapes).not.toContain(vcpu1);
  });
});
