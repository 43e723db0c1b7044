/**
 * Where each stage and lane of the path sits on the canvas, computed from the layout and the canvas
 * size (pure: no DOM). One column per instance, drawn as the talk draws the stack: application at
 * the top, the Nitro card at the bottom, the VPC fabric across the foot of all columns. Each column
 * has a sending half (left: packets go down: socket → qdisc → TX rings → Nitro egress) and a
 * receiving half (right: packets come up: Nitro ingress → RX rings → NAPI on a vCPU → socket).
 */
import type { PathLayout, PathStageLayout } from '../../protocol/path-frame';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LaneGeom {
  readonly host: number;
  readonly stage: number;
  readonly queue: number;
  readonly label: string;
  readonly rect: Rect;
  /** +1: packets move down (sending side), -1: up (receiving side), 0: along the fabric. */
  readonly dir: 1 | -1 | 0;
  readonly capacity: number;
}

export interface StageGeom {
  readonly host: number;
  readonly stage: number;
  readonly name: string;
  readonly label: string;
  readonly side: 'tx' | 'rx' | 'fabric';
  readonly rect: Rect;
  readonly lanes: readonly LaneGeom[];
  /** Sub-parts (Nitro flow lookup, buckets) as horizontal bands inside the stage, top to bottom. */
  readonly parts: ReadonlyArray<{ id: string; label: string; short?: string; detail: string; rect: Rect }>;
  readonly layout: PathStageLayout;
}

export interface HostGeom {
  readonly index: number;
  readonly name: string;
  readonly title: string;
  readonly subtitle: string;
  readonly column: Rect;
  readonly app: Rect;
  readonly nitroCard: Rect;
  /** What the network layer at the bottom of the column is: "Nitro card", or a Xen host's layer. */
  readonly hostLayerLabel: string;
  readonly tx: Rect;
  readonly rx: Rect;
  /** NAPI/vCPU boxes on the receiving side, one per vCPU that serves an RX queue. */
  readonly cpus: ReadonlyArray<{ cpu: number; rect: Rect }>;
}

export interface PathGeometry {
  readonly width: number;
  readonly height: number;
  readonly hosts: readonly HostGeom[];
  readonly stages: readonly StageGeom[];
  readonly fabric: StageGeom;
  /** Lane by (host, stage, queue) key; see `laneKey`. */
  readonly lanes: ReadonlyMap<number, LaneGeom>;
  /** Stage by (host, stage) key. */
  readonly stageByKey: ReadonlyMap<number, StageGeom>;
}

/**
 * How much each half of each host has to show, 0 (nothing: no packets, no queue, nothing held,
 * no drop) to 1, as path-focus.ts eases it: a half with nothing to show is kept narrow and its
 * busy neighbour takes the room; a host with nothing in either half gets a narrower column.
 * Absent (or every weight equal): the even split.
 */
export interface PathFocus {
  /** Per host in lab order: its sending half (socket → qdisc → TX rings → card egress). */
  readonly tx: ArrayLike<number>;
  /** Its receiving half (card ingress → RX rings → NAPI → socket). */
  readonly rx: ArrayLike<number>;
  /**
   * The ENA rings' row, one weight for every host (absent: 1). Idle (0), the row is IDLE_RINGS_H
   * tall and the picture shorter than asked; busy (1), the rings take the height the canvas has.
   */
  readonly rings?: number;
}

/** A half (or a host's column) with nothing to show is this big beside a busy one: 30 % of a column's two halves. */
const IDLE_HALF = 3 / 7;
const IDLE_HOST = 1 / 2;
/** An idle half keeps at least this much room (its names stay readable, shortened); a column too. */
const MIN_HALF_W = 96;
const MIN_COL_W = 150;

/** `a`'s share of a + b, the smaller share at least `minShare` (at most one half). */
function share(a: number, b: number, minShare: number): number {
  const k = a / (a + b);
  const lo = Math.min(0.5, minShare);
  return Math.min(1 - lo, Math.max(lo, k));
}

/** Room weight of something that shows `w` (0 … 1): an idle one `idle`, a busy one 1. */
const room = (w: number, idle: number) => idle + (1 - idle) * Math.min(1, Math.max(0, w));

export function laneKey(host: number, stage: number, queue: number): number {
  return (host * 16 + stage) * 65536 + queue;
}

export function stageKey(host: number, stage: number): number {
  return host * 16 + stage;
}

const PAD = 12;
const GAP = 8;
const TITLE_H = 36;
const APP_H = 26;
const SOCKET_H = 38;
const MID_H = 42;
/** How the subtitle names the device's queues, by guest driver. */
const DRIVER_QUEUE: Readonly<Record<string, string>> = { ena: 'ENA', ixgbevf: 'ixgbevf', vif: 'netfront' };

/** Height of one Nitro part (two text lines: name, detail): shrinks to the minimum on short canvases. */
const NITRO_PART_MAX_H = 32;
const NITRO_PART_MIN_H = 24;
/** Room under a Nitro stage's parts for its queue count. */
const NITRO_FOOT_H = 20;
const RINGS_MIN_H = 60;
/** Rings taller than this give the rest of the height to the Nitro parts first. */
const RINGS_COMFORT_H = 100;
/** The rings' row while no ring has anything to show (a tall canvas does not draw tall empty rings). */
export const IDLE_RINGS_H = RINGS_COMFORT_H;
const FABRIC_H = 48;

/** Width of the packets' lane (with its queue gauge) inside a Nitro stage of width `w`; the parts take the rest. */
function nitroLaneW(w: number): number {
  // narrow (a 1280 screen's stage, an embed): the parts keep the room their names need
  return Math.min(48, Math.max(24, w * 0.2));
}

/**
 * Compute the geometry for a canvas of `width` × `height` CSS pixels. When `height` is too short
 * for every part to stay legible, the geometry is taller (its `height` says how tall to draw it).
 */
export function computeGeometry(
  layout: PathLayout,
  width: number,
  height: number,
  focus?: PathFocus,
): PathGeometry {
  const n = Math.max(1, layout.instances.length);
  const colGap = 20;
  const colsW = width - PAD * 2 - colGap * (n - 1);
  // columns: a host with nothing to show is narrower (at least MIN_COL_W, or the even width)
  const hostRoom = layout.instances.map((_, h) =>
    focus ? room(Math.max(focus.tx[h] ?? 1, focus.rx[h] ?? 1), IDLE_HOST) : 1,
  );
  const roomSum = hostRoom.reduce((a, b) => a + b, 0) || 1;
  const evenW = colsW / n;
  const minShare = Math.min(1 / n, MIN_COL_W / colsW);
  const low = hostRoom.map((r) => r / roomSum < minShare);
  const lowShare = low.filter(Boolean).length * minShare;
  const freeRoom = hostRoom.reduce((a, r, i) => a + (low[i] ? 0 : r), 0);
  const colWs = hostRoom.map((r, i) => colsW * (low[i] ? minShare : (r * (1 - lowShare)) / freeRoom));
  const nParts = Math.max(
    ...layout.instances.flatMap((i) =>
      i.stages.filter((s) => s.name.startsWith('nitro')).map((s) => s.parts.length),
    ),
    3,
  );
  const fixed = TITLE_H + APP_H + SOCKET_H + MID_H + NITRO_FOOT_H + 12 + FABRIC_H + GAP * 6 + 14 + PAD * 2;
  const avail = height - fixed;
  const partH = Math.round(
    Math.min(NITRO_PART_MAX_H, Math.max(NITRO_PART_MIN_H, (avail - RINGS_COMFORT_H) / nParts)),
  );
  const nitroH = nParts * partH + NITRO_FOOT_H;
  const ringsFull = Math.max(RINGS_MIN_H, avail - nParts * partH);
  const ringsIdle = Math.min(ringsFull, IDLE_RINGS_H);
  const ringsH = Math.round(
    ringsIdle + (ringsFull - ringsIdle) * Math.min(1, Math.max(0, focus?.rings ?? 1)),
  );
  // taller than asked when every part needs it; shorter when the rings are idle
  height = fixed + nParts * partH + ringsH;
  const hosts: HostGeom[] = [];
  const stages: StageGeom[] = [];
  const lanes = new Map<number, LaneGeom>();
  const stageByKey = new Map<number, StageGeom>();

  let colX = PAD;
  layout.instances.forEach((inst, h) => {
    const colW = colWs[h] ?? evenW;
    const x = colX;
    colX += colW + colGap;
    let y = PAD;
    const title = { x, y, w: colW, h: TITLE_H };
    y += TITLE_H + GAP;
    const app = { x, y, w: colW, h: APP_H };
    y += APP_H + GAP;
    const halfGap = 8;
    // the halves: one with nothing to show is kept narrow, its busy neighbour takes the room
    const halves = colW - halfGap;
    const txShare = focus
      ? share(room(focus.tx[h] ?? 1, IDLE_HALF), room(focus.rx[h] ?? 1, IDLE_HALF), MIN_HALF_W / halves)
      : 0.5;
    const txW = halves * txShare;
    const rxW = halves - txW;
    const txX = x;
    const rxX = x + txW + halfGap;
    const rowSocket = y;
    y += SOCKET_H + GAP;
    const rowMid = y;
    y += MID_H + GAP;
    const rowRings = y;
    y += ringsH + GAP;
    y += 14; // room for the Nitro card's title
    const rowNitro = y;
    const nitroCard = { x: x - 4, y: rowNitro - 18, w: colW + 8, h: nitroH + 12 };
    const tx = { x: txX, y: rowSocket, w: txW, h: rowNitro + nitroH - rowSocket };
    const rx = { x: rxX, y: rowSocket, w: rxW, h: rowNitro + nitroH - rowSocket };

    const rowOf = (name: string): Rect | null => {
      switch (name) {
        case 'socket_tx':
          return { x: txX, y: rowSocket, w: txW, h: SOCKET_H };
        case 'socket_rx':
          return { x: rxX, y: rowSocket, w: rxW, h: SOCKET_H };
        case 'qdisc':
          return { x: txX, y: rowMid, w: txW, h: MID_H };
        case 'tx_ring':
          return { x: txX, y: rowRings, w: txW, h: ringsH };
        case 'rx_ring':
          return { x: rxX, y: rowRings, w: rxW, h: ringsH };
        case 'nitro_egress':
          return { x: txX, y: rowNitro, w: txW, h: nitroH - 4 };
        case 'nitro_ingress':
          return { x: rxX, y: rowNitro, w: rxW, h: nitroH - 4 };
        default:
          return null;
      }
    };
    for (const s of inst.stages) {
      const rect = rowOf(s.name);
      if (!rect) continue;
      const dir: 1 | -1 = s.side === 'rx' ? -1 : 1;
      const headH = s.name.startsWith('nitro') ? 0 : 14;
      const nitro = s.name.startsWith('nitro');
      const laneW = nitroLaneW(rect.w);
      const inner = nitro
        ? { x: rect.x + rect.w - laneW, y: rect.y + 2, w: laneW, h: rect.h - 4 }
        : { x: rect.x + 3, y: rect.y + headH, w: rect.w - 6, h: rect.h - headH - 3 };
      const nl = Math.max(1, s.lanes.length);
      const laneGap = nl > 16 ? 1 : 2;
      const lw = (inner.w - laneGap * (nl - 1)) / nl;
      const lg: LaneGeom[] = s.lanes.map((l, i) => ({
        host: h,
        stage: s.code,
        queue: l.queue,
        label: l.label,
        rect: { x: inner.x + i * (lw + laneGap), y: inner.y, w: lw, h: inner.h },
        dir,
        capacity: l.capacityPackets,
      }));
      const parts = s.parts.length
        ? s.name.startsWith('nitro')
          ? // packets cross the parts in model order: down on egress, up on ingress
            (s.side === 'rx' ? [...s.parts].reverse() : s.parts).map((p, i) => ({
              ...p,
              rect: {
                x: rect.x,
                y: rect.y + 2 + i * partH,
                w: rect.w - laneW - 4,
                h: partH - 3,
              },
            }))
          : []
        : [];
      const sg: StageGeom = {
        host: h,
        stage: s.code,
        name: s.name,
        label: s.label,
        side: s.side,
        rect,
        lanes: lg,
        parts,
        layout: s,
      };
      stages.push(sg);
      stageByKey.set(stageKey(h, s.code), sg);
      for (const l of lg) lanes.set(laneKey(h, s.code, l.queue), l);
    }
    // NAPI on the vCPUs that serve RX queues: a row of boxes in the receiving half
    const rxStage = inst.stages.find((s) => s.name === 'rx_ring');
    const cpuIds = [...new Set((rxStage?.lanes ?? []).map((l) => l.cpu).filter((c) => c >= 0))].sort(
      (a, b) => a - b,
    );
    const nc = Math.max(1, cpuIds.length);
    const cw = (rxW - 2 * (nc - 1)) / nc;
    const cpus = cpuIds.map((cpu, i) => ({
      cpu,
      rect: { x: rxX + i * (cw + 2), y: rowMid + 14, w: cw, h: MID_H - 14 },
    }));
    hosts.push({
      index: h,
      name: inst.name,
      title: inst.name,
      subtitle: `${inst.type} · ${inst.ip} · ${inst.vcpus} vCPU · ${inst.queues} ${DRIVER_QUEUE[inst.driver ?? 'ena'] ?? 'ENA'} queue${inst.queues === 1 ? '' : 's'} · ${
        inst.path === undefined || inst.path === 'nitro'
          ? `Nitro v${inst.nitroGeneration}`
          : inst.nitroGeneration === 1
            ? 'Xen, Nitro v1 card'
            : 'Xen'
      }`,
      hostLayerLabel: inst.hostLayerLabel ?? 'Nitro card',
      column: title,
      app,
      nitroCard,
      tx,
      rx,
      cpus,
    });
  });

  const fy = height - PAD - FABRIC_H;
  const frect = { x: PAD, y: fy, w: width - PAD * 2, h: FABRIC_H };
  const fabric: StageGeom = {
    host: -1,
    stage: layout.fabric.code,
    name: 'fabric',
    label: layout.fabric.label,
    side: 'fabric',
    rect: frect,
    lanes: [
      {
        host: -1,
        stage: layout.fabric.code,
        queue: 0,
        label: 'in flight',
        rect: { x: frect.x + 4, y: frect.y + 20, w: frect.w - 8, h: frect.h - 24 },
        dir: 0,
        capacity: 0,
      },
    ],
    parts: [],
    layout: layout.fabric,
  };
  return { width, height, hosts, stages, fabric, lanes, stageByKey };
}

/** The lane a (host, stage, queue) passage is drawn in: the exact lane, else the stage's lane queue mod lanes. */
export function laneFor(g: PathGeometry, host: number, stage: number, queue: number): LaneGeom | undefined {
  const l = g.lanes.get(laneKey(host, stage, queue));
  if (l) return l;
  const s = g.stageByKey.get(stageKey(host, stage));
  if (!s || s.lanes.length === 0) return undefined;
  return s.lanes[queue % s.lanes.length];
}

export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}
