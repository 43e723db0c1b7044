/**
 * The sender's retransmission queue as a SACK scoreboard: one entry per batch of equal segments
 * sent, split where an ACK or a SACK block covers part of one. Cumulative ACKs retire entries
 * (tcp_clean_rtx_queue), SACK blocks tag them (tcp_sacktag_write_queue), loss detection marks them
 * lost (RACK, RTO). Each ACK's outcome (bytes newly delivered, the newest send time delivered, an
 * RTT sample) is left in `acked`, `deliveredSentNs` and `rttNs`. Entries live in typed arrays used
 * as a ring (no object per segment; per-packet runs hold one entry per segment), addressed by their
 * position from the oldest (0 … length − 1).
 * Sources: LINUX net/ipv4/tcp_input.c. Design: docs/design.md, "TCP".
 */
import { storeAsDoubles } from '../../core/doubles';

/** Entry flags. */
const RETRANS = 1;
const SACKED = 2;
const LOST = 4;
/** Lost and not yet retransmitted. */
const PENDING = 8;
/** Ranges of sequence space known SACKed that sackTag remembers (one per SACK block of an ACK). */
const SACKED_RANGES = 4;

export class Scoreboard {
  private start: Float64Array;
  private end: Float64Array;
  /** Segments per entry: Int32, so a count read back is a small integer (Packet.count stays one), never a double. */
  private segs: Int32Array;
  private sentNs: Float64Array;
  private flags: Uint8Array;
  /** Ring capacity − 1 (a power of two minus one). */
  private mask: number;
  /** Physical slot of the oldest entry. */
  private head = 0;
  /** Entries sent and not yet cumulatively acknowledged. */
  length = 0;
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
  /** Ranges [from, to) of sequence space every entry overlapping which is SACKed (empty: from = to). */
  private readonly sackedFrom = new Float64Array(SACKED_RANGES);
  private readonly sackedTo = new Float64Array(SACKED_RANGES);

  constructor(capacity = 64) {
    const cap = 2 ** Math.ceil(Math.log2(Math.max(2, capacity)));
    this.start = new Float64Array(cap);
    this.end = new Float64Array(cap);
    this.segs = new Int32Array(cap);
    this.sentNs = new Float64Array(cap);
    this.flags = new Uint8Array(cap);
    // kept a small integer: `2 **` gives a double, and each use of the mask would read a heap number
    this.mask = (cap - 1) | 0;
    storeAsDoubles(this, ['sackedBytes', 'lostBytes', 'acked', 'deliveredSentNs', 'rttNs']);
  }

  /** Physical slot of the entry at position `i`. */
  private slot(i: number): number {
    return (this.head + i) & this.mask;
  }

  // ---- reading an entry (by position)
  startOf(i: number): number {
    return this.start[this.slot(i)]!;
  }
  endOf(i: number): number {
    return this.end[this.slot(i)]!;
  }
  segsOf(i: number): number {
    return this.segs[this.slot(i)]!;
  }
  /** Payload bytes of each segment of entry `i`. */
  payloadOf(i: number): number {
    const k = this.slot(i);
    return (this.end[k]! - this.start[k]!) / this.segs[k]!;
  }
  isSacked(i: number): boolean {
    return (this.flags[this.slot(i)]! & SACKED) !== 0;
  }
  isRetransmitted(i: number): boolean {
    return (this.flags[this.slot(i)]! & RETRANS) !== 0;
  }
  isLost(i: number): boolean {
    return (this.flags[this.slot(i)]! & LOST) !== 0;
  }

  /** Record `segs` segments [start, end) sent at `nowNs`. */
  add(start: number, end: number, segs: number, nowNs: number): void {
    if (this.length > this.mask) this.grow();
    const k = (this.head + this.length) & this.mask;
    this.start[k] = start;
    this.end[k] = end;
    this.segs[k] = segs;
    this.sentNs[k] = nowNs;
    this.flags[k] = 0;
    this.length++;
  }

  private grow(): void {
    const cap = (this.mask + 1) * 2;
    const copy = <T extends Float64Array | Int32Array | Uint8Array>(a: T, b: T): T => {
      for (let i = 0; i < this.length; i++) b[i] = a[(this.head + i) & this.mask]!;
      return b;
    };
    this.start = copy(this.start, new Float64Array(cap));
    this.end = copy(this.end, new Float64Array(cap));
    this.segs = copy(this.segs, new Int32Array(cap));
    this.sentNs = copy(this.sentNs, new Float64Array(cap));
    this.flags = copy(this.flags, new Uint8Array(cap));
    this.head = 0;
    this.mask = cap - 1;
  }

  beginAck(): void {
    this.acked = 0;
    this.deliveredSentNs = -1;
    this.rttNs = -1;
  }

  /** tcp_clean_rtx_queue: retire what the cumulative ACK `ack` covers. */
  cumulativeAck(ack: number, now: number): void {
    const start = this.start;
    const end = this.end;
    const flags = this.flags;
    const sentNs = this.sentNs;
    // Whole entries the ACK covers, oldest first; the sums are kept in locals and stored once.
    let k = this.head;
    let n = this.length;
    let sacked = this.sackedBytes;
    let acked = this.acked;
    let lost = this.lostBytes;
    let rtt = this.rttNs;
    let delivered = this.deliveredSentNs;
    while (n > 0 && end[k]! <= ack) {
      const bytes = end[k]! - start[k]!;
      const f = flags[k]!;
      if ((f & SACKED) !== 0) sacked -= bytes;
      else {
        acked += bytes;
        if ((f & PENDING) !== 0) lost -= bytes;
        if ((f & RETRANS) === 0) rtt = now - sentNs[k]!;
      }
      delivered = Math.max(delivered, sentNs[k]!);
      k = (k + 1) & this.mask;
      n--;
    }
    this.head = k;
    this.length = n;
    this.sackedBytes = sacked;
    this.acked = acked;
    this.lostBytes = lost;
    this.rttNs = rtt;
    this.deliveredSentNs = delivered;
    if (n > 0 && start[k]! < ack) this.ackFront(ack, now);
  }

  /**
   * The ACK covers the front of the oldest entry: account for the front as acked and keep the rest
   * in place. Same result as splitting at `ack` and removing the front part, without the extra entry.
   */
  private ackFront(ack: number, now: number): void {
    const k = this.head;
    const s = this.start[k]!;
    const e = this.end[k]!;
    const f = this.flags[k]!;
    const frontSegs = Math.round((ack - s) / ((e - s) / this.segs[k]!));
    if (frontSegs <= 0 || frontSegs >= this.segs[k]!) {
      this.split(0, ack);
      this.cumulativeAck(ack, now);
      return;
    }
    const bytes = ack - s;
    if ((f & SACKED) !== 0) this.sackedBytes -= bytes;
    else {
      this.acked += bytes;
      if ((f & PENDING) !== 0) this.lostBytes -= bytes;
      if ((f & RETRANS) === 0) this.rttNs = now - this.sentNs[k]!;
    }
    this.deliveredSentNs = Math.max(this.deliveredSentNs, this.sentNs[k]!);
    this.start[k] = ack;
    this.segs[k] = this.segs[k]! - frontSegs;
  }

  /** tcp_sacktag_write_queue: tag the entries SACK blocks [start, end) pairs cover. */
  sackTag(blocks: number[], now: number): void {
    for (let i = 0; i < blocks.length; i += 2) {
      const bs = blocks[i]!;
      const be = blocks[i + 1]!;
      // The scan skips, without effect, the entries wholly below the block and the SACKed ones: it
      // starts at the first entry ending after bs, or after the end of a range known SACKed.
      const past = this.sackedRangeEnd(bs);
      for (let j = this.firstEndingAfter(past >= 0 ? past : bs); j < this.length; j++) {
        let k = this.slot(j);
        const s = this.start[k]!;
        if (s >= be) break;
        if (this.end[k]! <= bs || (this.flags[k]! & SACKED) !== 0) continue;
        if (s < bs) {
          this.split(j, bs);
          continue;
        }
        if (this.end[k]! > be) {
          this.split(j, be);
          k = this.slot(j); // a split may grow (and re-lay) the ring
        }
        const bytes = this.end[k]! - this.start[k]!;
        this.flags[k] = this.flags[k]! | SACKED;
        this.sackedBytes += bytes;
        this.acked += bytes;
        if ((this.flags[k]! & PENDING) !== 0) {
          this.flags[k] = this.flags[k]! & ~PENDING;
          this.lostBytes -= bytes;
        }
        this.deliveredSentNs = Math.max(this.deliveredSentNs, this.sentNs[k]!);
        if ((this.flags[k]! & RETRANS) === 0) this.rttNs = Math.max(this.rttNs, now - this.sentNs[k]!);
      }
      this.noteSacked((i >> 1) % SACKED_RANGES, bs, be);
    }
  }

  /**
   * After block [bs, be) was tagged: every entry overlapping it is SACKed now, unless the one
   * straddling bs could not be split there (not on a segment boundary). If so, remember the range in
   * slot `c` (joined to the range there when they touch). A SACK flag is never cleared and entries
   * are only added above everything sent, so the range stays SACKed (as Linux's recv_sack_cache lets
   * tcp_sacktag_write_queue skip what earlier ACKs' blocks covered).
   */
  private noteSacked(c: number, bs: number, be: number): void {
    const j = this.firstEndingAfter(bs);
    if (j < this.length) {
      const k = this.slot(j);
      if (this.start[k]! < be && (this.flags[k]! & SACKED) === 0) return;
    }
    const a = this.sackedFrom[c]!;
    const b = this.sackedTo[c]!;
    if (a <= be && bs <= b && a < b) {
      this.sackedFrom[c] = Math.min(a, bs);
      this.sackedTo[c] = Math.max(b, be);
    } else {
      this.sackedFrom[c] = bs;
      this.sackedTo[c] = be;
    }
  }

  /**
   * Mark lost every entry neither SACKed nor already lost that was sent before `beforeNs`; true if any.
   * Entries are in sequence order, which is the order of their first transmission, and a
   * retransmission is later still: every entry after one never retransmitted was sent no earlier
   * than it. So the scan ends at the first never-retransmitted entry sent at `beforeNs` or later (as
   * RACK's walk of the time-sorted queue ends at the first segment sent after the one delivered).
   */
  markLostSentBefore(beforeNs: number): boolean {
    let newLoss = false;
    for (let j = 0; j < this.length; j++) {
      const k = this.slot(j);
      const f = this.flags[k]!;
      const sent = this.sentNs[k]!;
      if (sent >= beforeNs) {
        if ((f & RETRANS) === 0) break;
      } else if ((f & (SACKED | PENDING)) === 0) {
        this.flags[k] = f | PENDING | LOST;
        this.lostBytes += this.end[k]! - this.start[k]!;
        newLoss = true;
        continue;
      }
      // a range known SACKed holds nothing to mark: on past it (past a stop too, after which
      // nothing is marked either)
      if ((f & SACKED) !== 0) {
        const past = this.sackedRangeEnd(this.start[k]!);
        if (past >= 0) j = Math.max(j, this.firstEndingAfter(past) - 1);
      }
    }
    return newLoss;
  }

  /** The end of the range known SACKed that holds byte `seq`, or −1. */
  private sackedRangeEnd(seq: number): number {
    for (let c = 0; c < SACKED_RANGES; c++)
      if (this.sackedFrom[c]! <= seq && seq < this.sackedTo[c]!) return this.sackedTo[c]!;
    return -1;
  }

  /** Position of the first entry ending after byte `seq` (length: none); entries are in sequence order. */
  private firstEndingAfter(seq: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.end[this.slot(mid)]! <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** tcp_enter_loss: everything not SACKed is lost. */
  markAllLost(): void {
    for (let j = 0; j < this.length; j++) {
      const k = this.slot(j);
      const f = this.flags[k]!;
      if ((f & (SACKED | PENDING)) === 0) {
        this.flags[k] = f | PENDING | LOST;
        this.lostBytes += this.end[k]! - this.start[k]!;
      }
    }
  }

  /** Position of the first entry waiting for retransmission, or −1. */
  firstPendingRetrans(): number {
    for (let j = 0; j < this.length; j++) if ((this.flags[this.slot(j)]! & PENDING) !== 0) return j;
    return -1;
  }

  /** Position of the last segment sent and not SACKed, alone in its entry (the tail loss probe resends it), or −1. */
  lastUnsackedSegment(): number {
    for (let j = this.length - 1; j >= 0; j--) {
      const k = this.slot(j);
      if ((this.flags[k]! & SACKED) !== 0) continue;
      if (this.segs[k]! > 1) {
        this.split(j, this.end[k]! - this.payloadOf(j));
        return j + 1;
      }
      return j;
    }
    return -1;
  }

  /** Entry `i` is sent again at `nowNs` (tcp_retransmit_skb): no longer waiting, and retransmitted. */
  markRetransmitted(i: number, nowNs: number): void {
    const k = this.slot(i);
    const f = this.flags[k]!;
    if ((f & PENDING) !== 0) this.lostBytes -= this.end[k]! - this.start[k]!;
    this.flags[k] = (f & ~PENDING) | RETRANS;
    this.sentNs[k] = nowNs;
  }

  /** Split entry `i` at byte `at` (segment-aligned); the entry keeps the front part. */
  split(i: number, at: number): void {
    const k = this.slot(i);
    const per = this.payloadOf(i);
    const frontSegs = Math.round((at - this.start[k]!) / per);
    const segs = this.segs[k]!;
    if (frontSegs <= 0 || frontSegs >= segs) return;
    if (this.length > this.mask) this.grow();
    // open a slot after entry i: move the later entries one place on
    for (let j = this.length; j > i + 1; j--) {
      const to = this.slot(j);
      const from = this.slot(j - 1);
      this.start[to] = this.start[from]!;
      this.end[to] = this.end[from]!;
      this.segs[to] = this.segs[from]!;
      this.sentNs[to] = this.sentNs[from]!;
      this.flags[to] = this.flags[from]!;
    }
    this.length++;
    const a = this.slot(i);
    const b = this.slot(i + 1);
    this.start[b] = at;
    this.end[b] = this.end[a]!;
    this.segs[b] = segs - frontSegs;
    this.sentNs[b] = this.sentNs[a]!;
    this.flags[b] = this.flags[a]!;
    this.end[a] = at;
    this.segs[a] = frontSegs;
  }
}
