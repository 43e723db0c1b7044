/**
 * What tcpdump (./index.ts) and the packet list's capture (view/capture-ring.ts) both
 * need to turn one of the model's batches into the wire packets it stands for, so the two tell
 * the same story: the interface a packet crosses, when each packet of a batch is seen, and the
 * ACK number each ACK of a batch of ACKs carries. Why batches: docs/design.md "Batching"; how the
 * capture shows them: docs/design.md "The packet list".
 */
import { captureDevice, batchGapNs, batchStartNs, type Instance, type Lab } from '../../../lab/lab';
import { type Packet, TCP_FLAG_ACK } from '../../../model/packet';

// Where a batch's packets are on the host link: the lab's (the recorders place packets with them
// too), re-exported for the capture's users.
export { batchGapNs, batchStartNs, captureDevice } from '../../../lab/lab';
export { batchRowNs } from '../../../model/packet';

/**
 * The ACK number of packet k of a batch of `count` pure ACKs (mod 2^32). The model sends one ACK
 * per GRO skb as one batch carrying the newest ACK number (host/tcp/endpoint.ts sendAck); Linux's
 * ACKs acknowledge up to it skb by skb. So they step, in whole segments of `mss` bytes, from `from`
 * (the ACK number this capture point last saw going that way) to the batch's own, which the last
 * one carries. With nothing to step over (no earlier ACK seen, or none behind) each carries the
 * batch's number, as duplicate ACKs do.
 */
export function steppedAck(from: number, ack: number, count: number, mss: number, k: number): number {
  if (k >= count - 1 || mss <= 0) return ack >>> 0;
  const span = ((ack >>> 0) - (from >>> 0)) | 0;
  if (span <= 0) return ack >>> 0;
  const segs = Math.floor(span / mss);
  return ((from >>> 0) + Math.floor(((k + 1) * segs) / count) * mss) >>> 0;
}

/** How an instance's capture point sees one batch (captureBatch). */
export interface BatchView {
  /** The interface index it crosses. */
  dev: number;
  /** When its first packet is seen, and the time between two of its packets (batchRowNs). */
  startNs: number;
  gapNs: number;
  /** A batch of pure ACKs whose numbers step (steppedAck from `ackFrom` by `ackMss`); else 0. */
  ackMss: number;
  ackFrom: number;
}

/** Per instance: each direction's wire and the ACK numbers of each TCP direction, as its captures saw them. */
export class InstanceCapture {
  /** When the last batch seen going out / coming in ends on the wire. */
  txEndNs = 0;
  rxEndNs = 0;
  /** Per TCP direction (numbered by `dirs`): the last ACK number seen going that way (−1: none), the largest segment. */
  readonly lastAck: number[] = [];
  readonly segBytes: number[] = [];
  /** Directions numbered by their tuple (a flow and its reverse share the pair). */
  readonly dirs = new Map<string, number>();
  /** Per flow id: its direction's number and the reverse one's (−1: not seen yet). */
  readonly dirOf: number[] = [];
  readonly revOf: number[] = [];
  /** The batch asked for last (tcpdump and the packet list both ask for every batch: one answer). */
  lastP: Packet | null = null;
  lastAtNs = -1;
  lastTx = false;
  readonly view: BatchView = { dev: 0, startNs: 0, gapNs: 0, ackMss: 0, ackFrom: 0 };
}

const captures = new WeakMap<Instance, InstanceCapture>();

/** `inst`'s capture state (one per instance, shared by every capturer: a capturer may keep it). */
export function captureStateOf(inst: Instance): InstanceCapture {
  let c = captures.get(inst);
  if (c === undefined) {
    c = new InstanceCapture();
    captures.set(inst, c);
  }
  return c;
}

/** The number of TCP direction `key` on this instance's capture (a new one: no ACK seen, no segment). */
function dirNumber(c: InstanceCapture, key: string): number {
  let n = c.dirs.get(key);
  if (n === undefined) {
    n = c.lastAck.length;
    c.dirs.set(key, n);
    c.lastAck.push(-1);
    c.segBytes.push(0);
  }
  return n;
}

/**
 * How `inst`'s capture point (tcpdump's, the packet list's) sees batch `p` arriving there at
 * `atNs`, sent (`tx`) or received. The batch's packets follow the previous batch going the same
 * way on the wire (serialisation at the link's rate: a batch that reaches the tap while the one
 * before is still on the wire waits for it, at most a ring of packets' worth); a batch of pure
 * ACKs steps its ACK numbers (steppedAck). Every capturer of the instance asks for every batch in
 * the same order, so each gets the same answer (the one object, valid until the next call).
 */
export function captureBatch(
  lab: Lab,
  inst: Instance,
  p: Packet,
  atNs: number,
  tx: boolean,
  c: InstanceCapture = captureStateOf(inst),
): BatchView {
  const v = c.view;
  if (c.lastP === p && c.lastAtNs === atNs && c.lastTx === tx) return v;
  c.lastP = p;
  c.lastAtNs = atNs;
  c.lastTx = tx;
  v.dev = captureDevice(lab, inst, p, tx);
  const gap = batchGapNs(inst, p.sizeBytes);
  v.gapNs = gap;
  let start = atNs;
  if (gap > 0) {
    start = batchStartNs(inst, v.dev, tx, atNs, tx ? c.txEndNs : c.rxEndNs, gap);
    const last = start + p.count * gap;
    if (tx) c.txEndNs = last;
    else c.rxEndNs = last;
  }
  v.startNs = start;
  v.ackMss = 0;
  v.ackFrom = 0;
  if (p.flow.tuple.proto === 'tcp') {
    const id = p.flow.id;
    let dir = c.dirOf[id] ?? -1;
    if (dir < 0) {
      const t = p.flow.tuple;
      dir = dirNumber(c, `${t.srcIp}.${t.srcPort}>${t.dstIp}.${t.dstPort}`);
      c.dirOf[id] = dir;
      c.revOf[id] = dirNumber(c, `${t.dstIp}.${t.dstPort}>${t.srcIp}.${t.srcPort}`);
    }
    const rev = c.revOf[id]!;
    if (p.payloadBytes > 0 && p.payloadBytes > c.segBytes[dir]!) c.segBytes[dir] = p.payloadBytes;
    if (p.flags & TCP_FLAG_ACK) {
      const prev = c.lastAck[dir]!;
      c.lastAck[dir] = p.ack >>> 0;
      if (p.count > 1 && p.payloadBytes === 0 && prev >= 0) {
        const mtu = (inst.host.ifaces[v.dev] ?? inst.host.ifaces[0]!).dev.mtu;
        v.ackFrom = prev;
        v.ackMss = c.segBytes[rev]! > 0 ? c.segBytes[rev]! : mtu - 52;
      }
    }
  }
  return v;
}
