/**
 * The sender's retransmission queue as a SACK scoreboard: one entry per batch of equal segments
 * sent, split where an ACK or a SACK block covers part of one. Cumulative ACKs retire entries
 * (tcp_clean_rtx_queue), SACK blocks tag them (tcp_sacktag_write_queue), loss detection marks them
 * lost (RACK, RTO); `pipe` is RFC 6675's estimate. Each ACK's outcome (bytes newly delivered, the
 * newest send time delivered, an RTT sample) is left in `acked`, `deliveredSentNs` and `rttNs`.
 * Sources: LINUX net/ipv4/tcp_input.c. Design: docs/design.md, "TCP".
 */
import { storeAsDoubles } from '../../core/doubles';

export interface Seg {
  start: number;
  end: number;
  segs: number;
  sentNs: number;
  retrans: boolean;
  sacked: boolean;
  lost: boolean;
  /** Lost and not yet retransmitted. */
  pendingRetrans: boolean;
}

/** A scoreboard entry for segments just sent (every entry is made here: one shape). */
function newSeg(start: number, end: number, segs: number, sentNs: number): Seg {
  return { start, end, segs, sentNs, retrans: false, sacked: false, lost: false, pendingRetrans: false };
}
// sequence numbers and times pass 2^31 mid-run (core/doubles.ts)
storeAsDoubles(newSeg(0, 0, 1, 0), ['start', 'end', 'sentNs']);

/** Payload bytes of each segment of an entry. */
export function segPayload(s: Seg): number {
  return (s.end - s.start) / s.segs;
}

export class Scoreboard {
  /** Entries in sequence order from `head` (those before it are retired). */
  entries: Seg[] = [];
  head = 0;
  /** Entries retired by cumulative ACKs, for `add` to reuse (no allocation per segment sent). */
  private readonly pool: Seg[] = [];
  sackedBytes = 0;
  /** Bytes marked lost and not yet retransmitted. */
  lostBytes = 0;
  // ---- the current ACK's outcome (beginAck resets them)
  /** Bytes newly acknowledged, cumulatively or by SACK. */
  acked = 0;
  /** Latest send time among the entries newly delivered (−1: none). */
  deliveredSentNs = -1;
  /** RTT sample from a never-retransmitted entry newly delivered, ns (−1: none). */
  rttNs = -1;

  constructor() {
    storeAsDoubles(this, ['sackedBytes', 'lostBytes', 'acked', 'deliveredSentNs', 'rttNs']);
  }

  /** Entries sent and not yet cumulatively acknowledged. */
  get length(): number {
    return this.entries.length - this.head;
  }

  /** Record `segs` segments [start, end) sent at `nowNs`. */
  add(start: number, end: number, segs: number, nowNs: number): void {
    // an entry retired by a cumulative ACK is reused: no allocation per segment sent
    const seg = this.pool.pop();
    if (seg === undefined) this.entries.push(newSeg(start, end, segs, nowNs));
    else {
      seg.start = start;
      seg.end = end;
      seg.segs = segs;
      seg.sentNs = nowNs;
      seg.retrans = false;
      seg.sacked = false;
      seg.lost = false;
      seg.pendingRetrans = false;
      this.entries.push(seg);
    }
  }

  beginAck(): void {
    this.acked = 0;
    this.deliveredSentNs = -1;
    this.rttNs = -1;
  }

  /** tcp_clean_rtx_queue: retire what the cumulative ACK `ack` covers. */
  cumulativeAck(ack: number, now: number): void {
    while (this.head < this.entries.length) {
      const s = this.entries[this.head]!;
      if (s.end <= ack) {
        if (s.sacked) this.sackedBytes -= s.end - s.start;
        else {
          this.acked += s.end - s.start;
          if (s.pendingRetrans) this.lostBytes -= s.end - s.start;
          if (!s.retrans) this.rttNs = now - s.sentNs;
        }
        this.deliveredSentNs = Math.max(this.deliveredSentNs, s.sentNs);
        this.entries[this.head++] = undefined as unknown as Seg;
        this.pool.push(s);
      } else if (s.start < ack) {
        // The ACK covers the front of this entry: account for the front as acked and keep the rest
        // in place. Same result as splitting at `ack` and removing the front part, without the
        // splice (O(scoreboard)) and the extra entry.
        const frontSegs = Math.round((ack - s.start) / segPayload(s));
        if (frontSegs <= 0 || frontSegs >= s.segs) {
          this.split(this.head, ack);
          continue;
        }
        const bytes = ack - s.start;
        if (s.sacked) this.sackedBytes -= bytes;
        else {
          this.acked += bytes;
          if (s.pendingRetrans) this.lostBytes -= bytes;
          if (!s.retrans) this.rttNs = now - s.sentNs;
        }
        this.deliveredSentNs = Math.max(this.deliveredSentNs, s.sentNs);
        s.start = ack;
        s.segs -= frontSegs;
        break;
      } else break;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** tcp_sacktag_write_queue: tag the entries SACK blocks [start, end) pairs cover. */
  sackTag(blocks: number[], now: number): void {
    for (let i = 0; i < blocks.length; i += 2) {
      const bs = blocks[i]!;
      const be = blocks[i + 1]!;
      for (let j = this.head; j < this.entries.length; j++) {
        const s = this.entries[j]!;
        if (s.start >= be) break;
        if (s.end <= bs || s.sacked) continue;
        if (s.start < bs) {
          this.split(j, bs);
          continue;
        }
        if (s.end > be) this.split(j, be);
        s.sacked = true;
        this.sackedBytes += s.end - s.start;
        this.acked += s.end - s.start;
        if (s.pendingRetrans) {
          s.pendingRetrans = false;
          this.lostBytes -= s.end - s.start;
        }
        this.deliveredSentNs = Math.max(this.deliveredSentNs, s.sentNs);
        if (!s.retrans) this.rttNs = Math.max(this.rttNs, now - s.sentNs);
      }
    }
  }

  /** Mark lost every entry neither SACKed nor already lost that was sent before `beforeNs`; true if any. */
  markLostSentBefore(beforeNs: number): boolean {
    let newLoss = false;
    for (let j = this.head; j < this.entries.length; j++) {
      const s = this.entries[j]!;
      if (!s.sacked && !s.pendingRetrans && s.sentNs < beforeNs) {
        s.pendingRetrans = true;
        s.lost = true;
        this.lostBytes += s.end - s.start;
        newLoss = true;
      }
    }
    return newLoss;
  }

  /** tcp_enter_loss: everything not SACKed is lost. */
  markAllLost(): void {
    for (let j = this.head; j < this.entries.length; j++) {
      const s = this.entries[j]!;
      if (!s.sacked && !s.pendingRetrans) {
        s.pendingRetrans = true;
        s.lost = true;
        this.lostBytes += s.end - s.start;
      }
    }
  }

  /** Index of the first entry waiting for retransmission, or −1. */
  firstPendingRetrans(): number {
    const sb = this.entries;
    for (let i = this.head; i < sb.length; i++) {
      if (sb[i]!.pendingRetrans) return i;
    }
    return -1;
  }

  /** The last segment sent and not SACKed, alone in its entry (the tail loss probe resends it), or null. */
  lastUnsackedSegment(): Seg | null {
    for (let j = this.entries.length - 1; j >= this.head; j--) {
      const s = this.entries[j]!;
      if (s.sacked) continue;
      if (s.segs > 1) {
        this.split(j, s.end - segPayload(s));
        return this.entries[j + 1]!;
      }
      return s;
    }
    return null;
  }

  /** The entry is sent again at `nowNs` (tcp_retransmit_skb): no longer waiting, and retransmitted. */
  markRetransmitted(seg: Seg, nowNs: number): void {
    if (seg.pendingRetrans) {
      seg.pendingRetrans = false;
      this.lostBytes -= seg.end - seg.start;
    }
    seg.retrans = true;
    seg.sentNs = nowNs;
  }

  /** Split entry `idx` at byte `at` (segment-aligned); the entry keeps the front part. */
  split(idx: number, at: number): void {
    const s = this.entries[idx]!;
    const per = segPayload(s);
    const frontSegs = Math.round((at - s.start) / per);
    if (frontSegs <= 0 || frontSegs >= s.segs) return;
    const back = newSeg(at, s.end, s.segs - frontSegs, s.sentNs);
    back.retrans = s.retrans;
    back.sacked = s.sacked;
    back.lost = s.lost;
    back.pendingRetrans = s.pendingRetrans;
    s.end = at;
    s.segs = frontSegs;
    this.entries.splice(idx + 1, 0, back);
  }
}
