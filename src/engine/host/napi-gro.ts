/**
 * One NAPI round's packets and GRO: up to `budget` packets off an RX ring (a batch cut at the
 * budget), consecutive TCP segments of one flow merged into one delivery (through a tunnel's outer
 * header), each delivery's skbs by gro_max_size; the queue's RX counters as the driver counts them.
 * Deliveries are the queue's reused objects: nothing is allocated per round once they exist.
 * Sources: LINUX net/core/gro.c (napi_gro_receive, gro_max_size), ENA-SRC (ena_clean_rx_irq).
 */
import { type Flow, splitBatch } from '../model/packet';
import { RxDelivery, type RxQueue } from './ena-queues';

/**
 * Take queue `r`'s round: its deliveries are the first `r.pollCount` of `r.pollDeliveries`, its
 * packets `r.pollPackets`, its batches the ring's first `r.pollTaken` items (they stay there until
 * the round ends: the deliveries read them in place). Returns the skbs the stack will process.
 */
export function napiGroRound(r: RxQueue, budget: number, groMax: number, countItr: boolean): number {
  const ring = r.ring;
  // Take up to `budget` packets and GRO them as they come: merge consecutive packets of one TCP
  // flow into one delivery (its skbs follow from gro_max_size below).
  const deliveries = r.pollDeliveries;
  let nd = 0;
  let cur: RxDelivery | null = null;
  /** The (inner) flow of `cur`'s packets. */
  let curFlow: Flow | null = null;
  let n = 0;
  /** Batches taken: the ring's first k items (its last `r.landing` have not landed yet). */
  let k = 0;
  while (n < budget && k < ring.length - r.landing) {
    const p = ring.at(k);
    // a batch cut at the budget: the rest waits behind it for the next round
    if (n + p.count > budget) ring.insert(k + 1, splitBatch(p, budget - n));
    k++;
    const bytes = p.count * p.sizeBytes;
    n += p.count;
    r.cnt += p.count;
    r.bytes += bytes;
    // only ixgbevf's interrupt throttle reads the bytes received (IxgbevfItr.update)
    if (countItr) r.itr.count(bytes);
    if (p.sizeBytes <= 256) r.copybreak += p.count;
    // GRO looks through a tunnel's outer header (gre_gro_receive, udp_gro_receive): the inner flow
    const f = p.inner ?? p.flow;
    const gro = p.payloadBytes > 0 && f.tuple.proto === 'tcp';
    if (cur !== null && gro && curFlow === f) {
      cur.n++;
      cur.segs += p.count;
      cur.bytes += bytes;
    } else {
      let d = deliveries[nd];
      if (d === undefined) {
        d = new RxDelivery(ring);
        deliveries.push(d);
      }
      d.first = k - 1;
      d.n = 1;
      d.segs = p.count;
      d.bytes = bytes;
      // a GRO delivery's skbs are counted when it is complete (below), any other's now: one a packet
      d.skbs = gro ? -1 : p.count;
      nd++;
      cur = gro ? d : null;
      curFlow = f;
    }
  }
  let skbs = 0;
  for (let i = 0; i < nd; i++) {
    const d = deliveries[i]!;
    if (d.skbs < 0) d.skbs = Math.max(1, Math.ceil(d.bytes / groMax));
    skbs += d.skbs;
  }
  r.pollCount = nd;
  r.pollPackets = n;
  r.pollTaken = k;
  return skbs;
}
