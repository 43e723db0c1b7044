/**
 * CoDel (Controlled Delay) as Linux's include/net/codel.h and codel_impl.h have it, for any qdisc
 * that keeps one or several queues under it (codel: one; fq_codel: one per flow): a queue whose
 * head has waited longer than `target` for a whole `interval` enters the dropping state and drops
 * (or ECN-marks) its head, the next time at interval/√count (the control law), until the sojourn
 * time falls below target or the backlog to one MTU. The lab takes the square root exactly (Linux
 * approximates 1/√count by Newton steps) and drops whole skbs off batches (docs/design.md,
 * "fq_codel"). Sources: LINUX include/net/codel.h, include/net/codel_impl.h.
 */
import type { Packet } from '../../model/packet';
import { gsoSegs, SKB_EPSILON, skbBytesOf } from './common';

/** struct codel_params: what `tc` sets (times in ns). */
export interface CodelParams {
  targetNs: number;
  intervalNs: number;
  /** psched_mtu of the device: below one MTU of backlog CoDel never drops. */
  mtuBytes: number;
  ecn: boolean;
}

/** struct codel_vars of `n` queues, struct of arrays (queue i's state at index i). */
export class CodelVars {
  readonly count: Float64Array;
  readonly lastCount: Float64Array;
  readonly dropping: Uint8Array;
  readonly dropNext: Float64Array;
  readonly firstAboveTime: Float64Array;
  /** Sojourn time of the last head looked at (`ldelay`). */
  readonly ldelay: Float64Array;
  constructor(n: number) {
    this.count = new Float64Array(n);
    this.lastCount = new Float64Array(n);
    this.dropping = new Uint8Array(n);
    this.dropNext = new Float64Array(n);
    this.firstAboveTime = new Float64Array(n);
    this.ldelay = new Float64Array(n);
  }
  /** What a qdisc reset clears: the dropping state (count and drop_next are kept, as Linux keeps them). */
  reset(): void {
    this.dropping.fill(0);
    this.firstAboveTime.fill(0);
  }
}

/** struct codel_stats. */
export interface CodelStats {
  /** Largest head skb seen (qdisc_pkt_len: a GSO skb with all its segments). */
  maxpacket: number;
  ecnMark: number;
}

/** What codel_dequeue needs of the qdisc around it (dequeue_func, drop_func, sch backlog). */
export interface CodelQueue {
  /** The head batch of queue `i`, or null when it is empty. */
  codelHead(i: number): Packet | null;
  /** sch->qstats.backlog: bytes queued in the whole qdisc. */
  codelBacklogBytes(): number;
  /** Drop one skb off the head of queue `i` (the qdisc counts it: reason 'codel_drop'). */
  codelDropHead(i: number): void;
}

/**
 * codel_dequeue's verdicts: queue empty; send the head batch; send one skb of it marked CE. An enum,
 * so that esbuild writes the values in where they are used (a module-level `const` is read from the
 * module's context at every use, with a type check).
 */
export enum CodelVerdict {
  EMPTY = 0,
  SEND = 1,
  MARK = 2,
}

/** codel_control_law: the next drop, interval/√count after t. */
export function codelControlLaw(t: number, intervalNs: number, count: number): number {
  return t + intervalNs / Math.sqrt(count);
}

/** ECN-capable transport (INET_ECN_set_ce succeeds). */
const isEct = (p: Packet): boolean => (p.tos & 3) !== 0;

/** codel_should_drop for queue `i` whose head is `p`. */
function shouldDrop(
  q: CodelQueue,
  i: number,
  p: Packet | null,
  params: CodelParams,
  v: CodelVars,
  st: CodelStats,
  nowNs: number,
): boolean {
  if (!p) {
    v.firstAboveTime[i] = 0;
    return false;
  }
  // The head skb's qdisc_pkt_len (a GSO skb: all its segments).
  const len = skbBytesOf(p);
  v.ldelay[i] = nowNs - p.enqueuedAtNs;
  if (len > st.maxpacket) st.maxpacket = len;
  // Linux checks the backlog after this skb was taken off the queue.
  if (v.ldelay[i]! < params.targetNs || q.codelBacklogBytes() - len <= params.mtuBytes) {
    v.firstAboveTime[i] = 0;
    return false;
  }
  if (v.firstAboveTime[i] === 0) {
    v.firstAboveTime[i] = nowNs + params.intervalNs;
    return false;
  }
  return nowNs > v.firstAboveTime[i]!;
}

/**
 * codel_dequeue for queue `i`: drops (through `q.codelDropHead`) what the control law says, then
 * tells the caller what to send. The caller takes the packet off the queue.
 */
export function codelDequeue(
  q: CodelQueue,
  i: number,
  params: CodelParams,
  v: CodelVars,
  st: CodelStats,
  nowNs: number,
): CodelVerdict {
  let skb = q.codelHead(i);
  if (!skb) {
    v.dropping[i] = 0;
    return CodelVerdict.EMPTY;
  }
  let drop = shouldDrop(q, i, skb, params, v, st, nowNs);
  let markOne = false;
  if (v.dropping[i]) {
    if (!drop) {
      v.dropping[i] = 0;
    } else if (nowNs >= v.dropNext[i]!) {
      while (v.dropping[i] && nowNs >= v.dropNext[i]!) {
        v.count[i]! += 1;
        if (params.ecn && skb && isEct(skb)) {
          st.ecnMark++;
          v.dropNext[i] = codelControlLaw(v.dropNext[i]!, params.intervalNs, v.count[i]!);
          markOne = true;
          break;
        }
        q.codelDropHead(i);
        skb = q.codelHead(i);
        if (!shouldDrop(q, i, skb, params, v, st, nowNs)) v.dropping[i] = 0;
        else v.dropNext[i] = codelControlLaw(v.dropNext[i]!, params.intervalNs, v.count[i]!);
      }
    }
  } else if (drop) {
    if (params.ecn && isEct(skb)) {
      st.ecnMark++;
      markOne = true;
    } else {
      q.codelDropHead(i);
      skb = q.codelHead(i);
      drop = shouldDrop(q, i, skb, params, v, st, nowNs);
    }
    v.dropping[i] = 1;
    // A queue that went above target soon after the last dropping cycle resumes at its drop rate.
    const delta = v.count[i]! - v.lastCount[i]!;
    if (delta > 1 && nowNs - v.dropNext[i]! < 16 * params.intervalNs) v.count[i] = delta;
    else v.count[i] = 1;
    v.lastCount[i] = v.count[i]!;
    v.dropNext[i] = codelControlLaw(nowNs, params.intervalNs, v.count[i]!);
  }
  if (!skb) return CodelVerdict.EMPTY;
  return markOne ? CodelVerdict.MARK : CodelVerdict.SEND;
}

/**
 * The packets of batch `head` that make up its first skb's remaining `wantSkbs` (1 for a whole skb):
 * CoDel drops and marks whole skbs, gathered across head batches smaller than an skb (per-packet
 * mode drops the same segments as batched mode).
 */
export function packetsOfSkb(head: Packet, wantSkbs: number): number {
  return Math.min(head.count, Math.max(1, Math.ceil((wantSkbs - SKB_EPSILON) * gsoSegs(head))));
}
