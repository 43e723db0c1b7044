/**
 * Which RX queue an ENA device gives a received packet: an n-tuple rule first (ethtool -N, in
 * location order), else RSS, the hash of its tuple (host/rss.ts) through the indirection table; an
 * IPv4 fragment by its addresses alone. Computed once per flow, forgotten when the RSS or n-tuple
 * configuration changes (ethtool -X, -N, -L). What ethtool may set is checked here.
 * Sources: ENA-SRC (ena_ethtool.c: ena_set_rxfh), ENA-README (docs/domain-facts.md §1.4); rules as ethtool(8) -N.
 */
import type { FiveTuple, Packet } from '../model/packet';
import type { Errno, NtupleRule, RssHashFunction, RssParams } from './device-view';

/** The RSS hash the device computes for a received packet's tuple. */
export type RssHashFn = (
  tuple: FiveTuple,
  key: Uint8Array,
  hfunc: RssHashFunction,
  configurable: boolean,
) => number;

export const INDIR_SIZE = 128;

export class EnaSteering {
  rssState: RssParams;
  ntuple: NtupleRule[] = [];

  constructor(
    private readonly hashFn: RssHashFn,
    key: Uint8Array,
    keyConfigurable: boolean,
    queues: number,
  ) {
    this.rssState = {
      key,
      indir: Array.from({ length: INDIR_SIZE }, (_, i) => i % queues),
      hfunc: 'toeplitz',
      keyConfigurable,
    };
  }

  /** RX queue a packet is steered to: n-tuple rule first, else RSS. */
  steer(p: Packet): number {
    const tup = p.flow.tuple;
    for (const r of this.ntuple) {
      if ((r.flowType === 'tcp4') !== (tup.proto === 'tcp')) continue;
      if (r.flowType === 'udp4' && tup.proto !== 'udp') continue;
      if (r.srcIp !== undefined && r.srcIp !== tup.srcIp) continue;
      if (r.dstIp !== undefined && r.dstIp !== tup.dstIp) continue;
      if (r.srcPort !== undefined && r.srcPort !== tup.srcPort) continue;
      if (r.dstPort !== undefined && r.dstPort !== tup.dstPort) continue;
      return r.action;
    }
    const h = this.hashFn(tup, this.rssState.key, this.rssState.hfunc, this.rssState.keyConfigurable);
    return this.rssState.indir[h % INDIR_SIZE]!;
  }

  /**
   * RX queue by flow id: steering is a pure function of the tuple and the RSS/n-tuple configuration,
   * so it is computed once per flow and forgotten whenever that configuration changes.
   */
  private steerCache: number[] = [];

  /** The RSS or n-tuple configuration changed: every flow is steered afresh. */
  changed(): void {
    this.steerCache = [];
    this.fragSteerCache = [];
  }

  /** The RX queue of a received packet (per flow, cached). */
  queueOf(p: Packet): number {
    if (p.frag != null) return this.fragmentQueueOf(p);
    let q = this.steerCache[p.flow.id];
    if (q === undefined) {
      q = this.steer(p);
      this.steerCache[p.flow.id] = q;
    }
    return q;
  }

  /**
   * An IPv4 fragment has no L4 header where the device looks for one (only the first fragment
   * carries the ports): it is steered by the addresses alone, the 2-tuple hash (ENA's
   * ENA_ADMIN_RSS_IP4_FRAG hash fields: source and destination IP), so a flow's fragments can land
   * on another queue than its unfragmented packets. n-tuple rules, which match ports and a TCP/UDP
   * flow type, do not apply.
   */
  private fragmentQueueOf(p: Packet): number {
    let q = this.fragSteerCache[p.flow.id];
    if (q === undefined) {
      const t = p.flow.tuple;
      // proto 'icmp' makes the lab's hash function hash the addresses only
      const ipOnly = { srcIp: t.srcIp, dstIp: t.dstIp, proto: 'icmp' as const, srcPort: 0, dstPort: 0 };
      const h = this.hashFn(ipOnly, this.rssState.key, this.rssState.hfunc, this.rssState.keyConfigurable);
      q = this.rssState.indir[h % INDIR_SIZE]!;
      this.fragSteerCache[p.flow.id] = q;
    }
    return q;
  }

  private fragSteerCache: number[] = [];

  /** The default table over `queues` queues (ethtool -L resets it). */
  spread(queues: number): void {
    this.rssState.indir = Array.from({ length: INDIR_SIZE }, (_, i) => i % queues);
    this.changed();
  }

  rss(): RssParams {
    return { ...this.rssState, key: this.rssState.key.slice(), indir: this.rssState.indir.slice() };
  }

  /** ethtool -X on a device with `queues` queues. */
  setRss(p: { key?: Uint8Array; indir?: number[]; hfunc?: RssHashFunction }, queues: number): Errno | null {
    if ((p.key || p.hfunc) && !this.rssState.keyConfigurable) return 'EOPNOTSUPP';
    if (p.key && p.key.length !== 40) return 'EINVAL';
    if (
      p.indir &&
      (p.indir.length !== INDIR_SIZE || p.indir.some((q) => !Number.isInteger(q) || q < 0 || q >= queues))
    ) {
      return 'EINVAL';
    }
    if (p.key) this.rssState.key = p.key.slice();
    if (p.indir) this.rssState.indir = p.indir.slice();
    if (p.hfunc) this.rssState.hfunc = p.hfunc;
    this.changed();
    return null;
  }

  ntupleRules(): NtupleRule[] {
    return this.ntuple.map((r) => ({ ...r }));
  }

  /** ethtool -N … action: a rule for one of `queues` queues, at a location below `capacity`. */
  addNtupleRule(
    rule: Omit<NtupleRule, 'loc'> & { loc?: number },
    queues: number,
    capacity: number,
  ): number | Errno {
    if (!Number.isInteger(rule.action) || rule.action < 0 || rule.action >= queues) return 'EINVAL';
    let loc = rule.loc;
    if (loc === undefined) {
      loc = 0;
      while (this.ntuple.some((r) => r.loc === loc)) loc++;
    }
    if (loc < 0 || loc >= capacity) return 'EINVAL';
    this.ntuple = this.ntuple.filter((r) => r.loc !== loc);
    this.ntuple.push({ ...rule, loc });
    this.ntuple.sort((a, b) => a.loc - b.loc);
    this.changed();
    return loc;
  }

  deleteNtupleRule(loc: number): Errno | null {
    const before = this.ntuple.length;
    this.ntuple = this.ntuple.filter((r) => r.loc !== loc);
    this.changed();
    return this.ntuple.length === before ? 'ENOENT' : null;
  }
}
