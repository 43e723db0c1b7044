/**
 * One Nitro card's flow state, as NET402's "Flow Setup" slides draw it: adjacency (each peer
 * Unknown until a flow to it was set up, then IP-Address), connection tracking (one entry per
 * connection, Invalid → Established, closing on FIN/RST, an idle timer with the ENI's timeout) and
 * the flow cache (one entry per direction, Pending → Complete, stamped with the VPC mutation
 * epoch). A new tracked connection that finds the table full is refused (the card counts it in
 * `conntrack_allowance_exceeded`). Pure data: the card drives it with the simulated time.
 *
 * Sources: NET402, AWS-CT, AWS-ENAPERF (docs/domain-facts.md §2.5–2.6). The states and the closed
 * connection's linger: docs/design.md, "Flow table and conntrack".
 */
import { type FiveTuple, reverseTuple, TCP_FLAG_FIN, TCP_FLAG_RST } from '../model/packet';

/** Closing: a FIN seen one way; Closed: a FIN both ways, or an RST (removed after the linger). */
export type ConntrackState = 'Invalid' | 'Established' | 'Closing' | 'Closed';
export type FlowCacheState = 'Pending' | 'Complete';
export type MappingState = 'Unknown' | 'IP-Address';

export interface ConntrackEntry {
  /** The tuple as the connection's first packet carried it (the opener's direction). */
  readonly tuple: FiveTuple;
  /** Direction the first packet crossed this card: 'egress' = opened by this instance. */
  readonly opened: 'egress' | 'ingress';
  state: ConntrackState;
  tracked: boolean;
  /** Why tracked or untracked (AWS-CT rules), for `lab nitro show`. */
  reason: string;
  /** The idle timeout that applies, ns. */
  timeoutNs: number;
  lastSeenNs: number;
  /**
   * UDP only: request-response exchanges seen (a packet from the opener answered by one from the
   * peer), whether the last packet came from the opener, and whether the entry was promoted to a
   * UDP stream (`udpStreamTimeoutNs`, see `noteUdpPacket`).
   */
  udpExchanges?: number;
  /** TCP only: a FIN seen from the opener, from the peer (see `noteTcpFlags`). */
  finFromOpener?: boolean;
  finFromPeer?: boolean;
  udpLastFromOpener?: boolean;
  udpStream?: boolean;
}

/**
 * A UDP packet of a tracked connection crossed the card. AWS-CT: a UDP flow is a "stream" once
 * traffic has been seen in both directions with more than one request-response transaction; its
 * idle timeout then becomes the UDP stream timeout (default 180 s) instead of the UDP timeout
 * (default 30 s). Returns true when this packet promoted the entry.
 */
export function noteUdpPacket(c: ConntrackEntry, fromOpener: boolean, udpStreamTimeoutNs: number): boolean {
  if (c.udpStream === true) return false;
  if (!fromOpener && c.udpLastFromOpener === true) c.udpExchanges = (c.udpExchanges ?? 0) + 1;
  c.udpLastFromOpener = fromOpener;
  if ((c.udpExchanges ?? 0) > 1) {
    c.udpStream = true;
    c.timeoutNs = udpStreamTimeoutNs;
    return true;
  }
  return false;
}

/**
 * A TCP segment with FIN or RST of a tracked connection crossed the card (either direction). A FIN
 * both ways or an RST closes the connection: its idle timeout becomes `lingerNs` (refreshed by the
 * last ACKs like any packet), after which the entry is removed. Returns true when this closed it.
 */
export function noteTcpFlags(
  c: ConntrackEntry,
  flags: number,
  fromOpener: boolean,
  lingerNs: number,
): boolean {
  if (c.state === 'Closed') return false;
  if ((flags & TCP_FLAG_RST) === 0) {
    if ((flags & TCP_FLAG_FIN) === 0) return false;
    if (fromOpener) c.finFromOpener = true;
    else c.finFromPeer = true;
    if (c.finFromOpener !== true || c.finFromPeer !== true) {
      c.state = 'Closing';
      return false;
    }
  }
  c.state = 'Closed';
  c.timeoutNs = Math.min(c.timeoutNs, lingerNs);
  return true;
}

export interface FlowCacheEntry {
  /** The direction's tuple. */
  readonly tuple: FiveTuple;
  /** 'egress' = leaving this instance, 'ingress' = arriving. */
  readonly direction: 'egress' | 'ingress';
  /** The direction whose first packet set the connection up on this card (the other is the reply). */
  readonly opener: boolean;
  state: FlowCacheState;
  /** VPC mutation epoch the decision was taken under. */
  epoch: number;
  /** The connection this direction belongs to (null for untracked connections). */
  ct: ConntrackEntry | null;
  /** When the entry was first installed. */
  readonly createdNs: number;
}

/** Directional key of a tuple. */
export function tupleKey(t: FiveTuple): string {
  return `${t.proto}|${t.srcIp}|${t.srcPort}|${t.dstIp}|${t.dstPort}`;
}

/** Direction-independent key of a connection (the smaller endpoint first). */
export function connectionKey(t: FiveTuple): string {
  const a = `${t.srcIp}:${t.srcPort}`;
  const b = `${t.dstIp}:${t.dstPort}`;
  return a < b ? `${t.proto}|${a}|${b}` : `${t.proto}|${b}|${a}`;
}

export class FlowTable {
  /** Flow cache by directional tuple key. */
  readonly cache = new Map<string, FlowCacheEntry>();
  /** The same entries by flow id (the per-packet lookup; flow ids are small integers). */
  readonly cacheByFlow: (FlowCacheEntry | undefined)[] = [];
  /** Tracked connections by connection key. */
  readonly conntrack = new Map<string, ConntrackEntry>();
  /** Adjacency / mapping state by peer label (an ENI id, 'igw'). */
  readonly adjacency = new Map<string, MappingState>();
  /** New tracked connections refused because the table was full. */
  allowanceExceeded = 0;

  constructor(readonly allowanceMax: number) {}

  /** Drop conntrack entries idle past their timeout (and their cache entries). */
  expire(nowNs: number): void {
    for (const [k, c] of this.conntrack) {
      if (nowNs - c.lastSeenNs > c.timeoutNs) this.removeConnection(k, c);
    }
  }

  removeConnection(key: string, c: ConntrackEntry): void {
    this.conntrack.delete(key);
    for (const t of [c.tuple, reverseTuple(c.tuple)]) {
      const e = this.cache.get(tupleKey(t));
      if (e && e.ct === c) this.cache.delete(tupleKey(t));
    }
    // flow-id shortcuts pointing at removed entries are checked (e.ct !== live) by the card
    for (let i = 0; i < this.cacheByFlow.length; i++) {
      const e = this.cacheByFlow[i];
      if (e !== undefined && e.ct === c) this.cacheByFlow[i] = undefined;
    }
  }

  /** Tracked entries (expired ones removed first). */
  trackedCount(nowNs: number): number {
    this.expire(nowNs);
    return this.conntrack.size;
  }

  available(nowNs: number): number {
    return Math.max(0, this.allowanceMax - this.trackedCount(nowNs));
  }

  /** Whether a new tracked connection fits. */
  hasRoom(nowNs: number): boolean {
    if (this.conntrack.size < this.allowanceMax) return true;
    this.expire(nowNs);
    return this.conntrack.size < this.allowanceMax;
  }

  /** The live conntrack entry of the connection `t` belongs to (either direction), or undefined. */
  connection(t: FiveTuple, nowNs: number): ConntrackEntry | undefined {
    const k = connectionKey(t);
    const c = this.conntrack.get(k);
    if (c && nowNs - c.lastSeenNs > c.timeoutNs) {
      this.removeConnection(k, c);
      return undefined;
    }
    return c;
  }

  addConnection(c: ConntrackEntry): void {
    this.conntrack.set(connectionKey(c.tuple), c);
  }

  /** Install (or refresh) the cache entry of one direction. */
  install(
    tuple: FiveTuple,
    direction: 'egress' | 'ingress',
    opener: boolean,
    state: FlowCacheState,
    epoch: number,
    ct: ConntrackEntry | null,
    nowNs: number,
  ): FlowCacheEntry {
    const k = tupleKey(tuple);
    let e = this.cache.get(k);
    if (e) {
      e.state = state;
      e.epoch = epoch;
      e.ct = ct;
    } else {
      e = { tuple, direction, opener, state, epoch, ct, createdNs: nowNs };
      this.cache.set(k, e);
    }
    return e;
  }

  /** Forget a direction (a re-evaluation denied it). */
  uninstall(tuple: FiveTuple, flowId: number): void {
    this.cache.delete(tupleKey(tuple));
    this.cacheByFlow[flowId] = undefined;
  }
}
