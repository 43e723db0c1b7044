/** A tiny device model for qdisc tests: pulls packets at a line rate (or as fast as allowed). */
import type { Packet } from '../../../src/engine/model/packet';

export interface Pullable {
  dequeue(nowNs: number): Packet | null;
  nextWakeNs(nowNs: number): number;
}

/**
 * Dequeue from `q` between startNs and untilNs; a packet of b bytes occupies the link for b·8/linkBps.
 * `refill(now)` runs before every pull (to keep senders backlogged). Returns what was sent.
 */
export function drain(
  q: Pullable,
  opts: { startNs?: number; untilNs: number; linkBps?: number; refill?: (nowNs: number) => void },
): Array<{ p: Packet; atNs: number }> {
  const sent: Array<{ p: Packet; atNs: number }> = [];
  let t = opts.startNs ?? 0;
  const link = opts.linkBps ?? Number.POSITIVE_INFINITY;
  let guard = 0;
  while (t < opts.untilNs && guard++ < 5_000_000) {
    opts.refill?.(t);
    const p = q.dequeue(t);
    if (p) {
      sent.push({ p, atNs: t });
      if (Number.isFinite(link)) t += ((p.sizeBytes + 14) * p.count * 8 * 1e9) / link;
      continue;
    }
    const w = q.nextWakeNs(t);
    if (!Number.isFinite(w)) break;
    t = Math.max(w, t + 1);
  }
  return sent;
}

export function bytesBy(sent: Array<{ p: Packet }>, key: (p: Packet) => number): Map<number, number> {
  const m = new Map<number, number>();
  for (const { p } of sent) m.set(key(p), (m.get(key(p)) ?? 0) + (p.sizeBytes + 14) * p.count);
  return m;
}
