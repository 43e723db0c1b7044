/**
 * Which halves of the path picture have something to show, and the eased weights the geometry
 * sizes them by (path-geometry.ts, PathFocus): a half of a host with no packet in the window, no
 * queue, nothing held and no drop is kept narrow, so the busy halves get the room; the ENA rings'
 * row is kept short while no ring has anything to show (an idle picture on a tall screen is not
 * two columns of empty ring). Pure: the view feeds it frames and wall-clock instants.
 *
 * Gentle: a half that becomes busy grows at once (eased over about EASE_MS); one that falls idle
 * keeps its room for IDLE_HOLD_MS of wall time first, so bursts and the gaps between them do not
 * make the picture breathe.
 */
import type { PathFrame, PathLayout } from '../../protocol/path-frame';
import type { PathFocus } from './path-geometry';

/** Wall time a half must have shown nothing before it is made small. */
export const IDLE_HOLD_MS = 1200;
/** Time constant of the easing (about 95 % of the way after 3 × this). */
export const EASE_MS = 160;

/** What has something to show: per host its sending and receiving halves; `rings[0]`: any ENA ring of any host. */
export interface Activity {
  tx: Uint8Array;
  rx: Uint8Array;
  /** Absent: the rings' weight is left as it is. */
  rings?: Uint8Array;
}

/** Per host: whether its sending (tx) and receiving (rx) halves have anything to show in `frame`; and the rings. */
export function activeHalves(layout: PathLayout, frame: PathFrame | null): Required<Activity> {
  const n = layout.instances.length;
  const tx = new Uint8Array(n);
  const rx = new Uint8Array(n);
  const rings = new Uint8Array(1);
  if (!frame) return { tx, rx, rings };
  // stage code → side, per host (the fabric is neither half)
  const side = layout.instances.map((inst) => {
    const m = new Int8Array(16);
    for (const s of inst.stages) m[s.code] = s.side === 'tx' ? 1 : s.side === 'rx' ? 2 : 0;
    return m;
  });
  const ring = layout.instances.map((inst) => {
    const m = new Uint8Array(16);
    for (const s of inst.stages) if (s.name === 'tx_ring' || s.name === 'rx_ring') m[s.code] = 1;
    return m;
  });
  const mark = (host: number, stage: number) => {
    const k = side[host]?.[stage] ?? 0;
    if (k === 1) tx[host] = 1;
    else if (k === 2) rx[host] = 1;
    if (ring[host]?.[stage]) rings[0] = 1;
  };
  for (let i = 0; i < frame.n; i++) mark(frame.host[i]!, frame.stage[i]!);
  for (let i = 0; i < frame.lanes; i++)
    if (
      frame.laneOccupancy[i]! > 0 ||
      frame.lanePeak[i]! > 0 ||
      frame.laneDensity[i]! > 0 ||
      frame.laneDrops[i]! > 0 ||
      frame.laneHeld[i]! > 0
    )
      mark(frame.laneHost[i]!, frame.laneStage[i]!);
  for (let i = 0; i < frame.drops; i++) mark(frame.dropHost[i]!, frame.dropStage[i]!);
  return { tx, rx, rings };
}

/** The eased weights (what the geometry reads) and, per half, the wall instant it was last busy. */
export interface FocusState {
  readonly tx: Float64Array;
  readonly rx: Float64Array;
  /** One weight: the rings' row (every host's rings share the row). */
  readonly rings: Float64Array;
  readonly busyAtTx: Float64Array;
  readonly busyAtRx: Float64Array;
  readonly busyAtRings: Float64Array;
}

/**
 * Every half at full room, as if busy just now (a fresh picture is the even split); the rings' row
 * as `ringsBusy` says, at once (a picture that opens idle does not open with tall empty rings).
 */
export function initialFocus(hosts: number, nowMs: number, ringsBusy = true): FocusState {
  return {
    tx: new Float64Array(hosts).fill(1),
    rx: new Float64Array(hosts).fill(1),
    rings: new Float64Array(1).fill(ringsBusy ? 1 : 0),
    busyAtTx: new Float64Array(hosts).fill(nowMs),
    busyAtRx: new Float64Array(hosts).fill(nowMs),
    busyAtRings: new Float64Array(1).fill(ringsBusy ? nowMs : Number.NEGATIVE_INFINITY),
  };
}

/** What the geometry reads of a focus state (copies: the state goes on changing). */
export function focusOf(st: FocusState): PathFocus {
  return { tx: Float64Array.from(st.tx), rx: Float64Array.from(st.rx), rings: st.rings[0] };
}

/**
 * Move the weights toward what `active` asks at wall instant `nowMs`, `dtMs` after the previous
 * step (reduced motion: straight there). Returns whether a weight moved and, when nothing is moving,
 * how long until a held half is due to shrink (Infinity: nothing pending).
 */
export function stepFocus(
  st: FocusState,
  active: Activity,
  nowMs: number,
  dtMs: number,
  reduced: boolean,
): { moved: boolean; settled: boolean; wakeInMs: number } {
  const k = reduced ? 1 : 1 - Math.exp(-Math.max(0, dtMs) / EASE_MS);
  let moved = false;
  let settled = true;
  let wake = Number.POSITIVE_INFINITY;
  const one = (w: Float64Array, busyAt: Float64Array, on: Uint8Array) => {
    for (let h = 0; h < w.length; h++) {
      if (on[h]) busyAt[h] = nowMs;
      const held = nowMs - busyAt[h]!;
      const target = held < IDLE_HOLD_MS ? 1 : 0;
      if (target === 1 && w[h]! > 0.999) {
        if (!on[h]) wake = Math.min(wake, IDLE_HOLD_MS - held);
        if (w[h] !== 1) {
          w[h] = 1;
          moved = true;
        }
        continue;
      }
      const d = target - w[h]!;
      if (d === 0) continue;
      const next = Math.abs(d) < 0.004 ? target : w[h]! + d * k;
      if (next !== w[h]) {
        w[h] = next;
        moved = true;
      }
      if (next !== target) settled = false;
    }
  };
  one(st.tx, st.busyAtTx, active.tx);
  one(st.rx, st.busyAtRx, active.rx);
  if (active.rings) one(st.rings, st.busyAtRings, active.rings);
  return { moved, settled, wakeInMs: settled ? wake : 0 };
}
