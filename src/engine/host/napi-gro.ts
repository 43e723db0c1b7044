/**
 * One NAPI round's packets and GRO: up to `budget` packets off an RX ring (a batch cut at the
 * budget), consecutive TCP segments of one flow merged into one delivery (through a tunnel's outer
 * header), each delivery's skbs by gro_max_size; the queue's RX counters as the driver counts them.
 * Deliveries are the queue's reused objects: nothing is allocated per round once they exist.
 * Sources: LINUX net/core/gro.c (napi_gro_receive, gro_max_size), ENA-SRC (ena_clean_rx_irq).
 */
import { splitBatch } from '../model/packet';
import type { RxDelivery, RxQueue } from './ena-queues';

/**
 * Take queue `r`'s round: its deliveries are the first `r.pollCount` of `r.pollDeliveries`, its
 * packets `r.pollPackets`. Returns the skbs the stack will process.
 */
export function napiGroRound(r: RxQueue, budget: number, groMax: number): number {
  const ring = r.ring;
  // Take up to `budget` packets and GRO them as they come: merge consecutive packets of one TCP
  // flow into one delivery (its skbs follow from gro_max_size below).
  const deliveries = r.pollDeliveries;
  let nd = 0;
  /** Packets in `cur` so far. */
  let curLen = 0;
  let cur: RxDelivery | null = null;
  let n = 0;
  while (n < budget && ring.length > 0) {
    let p = ring.peek();
    if (n + p.count > budget) {
      const rest = splitBatch(p, budget - n);
      ring.replaceHead(rest);
    } else {
      p = ring.shift();
    }
    n += p.count;
    r.cnt += p.count;
    r.bytes += p.count * p.sizeBytes;
    r.itr.count(p.count * p.sizeBytes);
    if (p.sizeBytes <= 256) r.copybreak += p.count;
    // GRO looks through a tunnel's outer header (gre_gro_receive, udp_gro_receive): the inner flow
    const f = p.inner ?? p.flow;
    const gro = p.payloadBytes > 0 && f.tuple.proto === 'tcp';
    if (cur && gro && (cur.packets[0]!.inner ?? cur.packets[0]!.flow) === f) {
      cur.packets[curLen++] = p;
      cur.segs += p.count;
      cur.bytes += p.count * p.sizeBytes;
    } else {
      if (cur !== null && cur.packets.length !== curLen) cur.packets.length = curLen;
      let d = deliveries[nd];
      if (d === undefined) {
        d = { packets: [p], segs: p.count, bytes: p.count * p.sizeBytes, skbs: 0 };
        deliveries.push(d);
      } else {
        d.packets[0] = p;
        // a GRO delivery is cut to its length when it ends (below), any other one here
        if (!gro && d.packets.length !== 1) d.packets.length = 1;
        d.segs = p.count;
        d.bytes = p.count * p.sizeBytes;
        d.skbs = 0;
      }
      nd++;
      curLen = 1;
      cur = gro ? d : null;
    }
  }
  if (cur !== null && cur.packets.length !== curLen) cur.packets.length = curLen;
  let skbs = 0;
  for (let i = 0; i < nd; i++) {
    const d = deliveries[i]!;
    const p0 = d.packets[0]!;
    const isGro = p0.payloadBytes > 0 && (p0.inner ?? p0.flow).tuple.proto === 'tcp';
    d.skbs = isGro ? Math.max(1, Math.ceil(d.bytes / groMax)) : d.segs;
    skbs += d.skbs;
  }
  r.pollCount = nd;
  r.pollPackets = n;
  return skbs;
}
