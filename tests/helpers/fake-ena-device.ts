/**
 * An in-memory `EnaDeviceView` with the ENA driver's real limits and defaults, for tests of the
 * shell commands (and anyone else who needs a device without the engine).
 *
 * Behaviour follows the Linux ENA driver (ena_ethtool.c, ena_netdev.[ch]) and docs/domain-facts.md §1:
 * - rings: RX max 16384, TX max 1024 (512 with large LLQ on Nitro v4); defaults RX 1024, TX 1024
 *   (512 on Nitro v4+ with large LLQ); `setRings` clamps to [256, max] and rounds down to a power of
 *   two (`ena_set_ringparam`), so it never fails;
 * - channels: combined only, 1..max (`ena_set_channels`); the indirection table follows the queue
 *   count unless the user set it;
 * - coalescing: rx-usecs 20, tx-usecs 64, adaptive-rx on; adaptive-tx unsupported;
 * - RSS: 40-byte key (a deterministic stand-in for `netdev_rss_key_fill`), 128-entry table, toeplitz;
 *   key and function settable only when `keyConfigurable` (Nitro v3 "n", Nitro v4+);
 * - ntuple: Nitro v5+ only; a location is required (the driver rejects RX_CLS_LOC_ANY);
 * - MTU 9001 by default, 128..9216.
 * Counters are plain maps the test can bump (`bumpStat`, `linkStatsMut`).
 */
import type {
  ChannelParams,
  CoalesceParams,
  DriverInfo,
  EnaDeviceView,
  Errno,
  LinkInfo,
  LinkStats,
  NtupleRule,
  RingParams,
  RssHashFunction,
  RssParams,
} from '../../src/engine/host/device-view';
import { defaultIndirectionTable, ENA_RSS_INDIR_TABLE_SIZE, RSS_KEY_BYTES } from '../../src/engine/host/rss';

export const ENA_MIN_RING_SIZE = 256;
export const ENA_DEFAULT_RING_SIZE = 1024;
export const ENA_MIN_MTU = 128;

export interface FakeEnaOptions {
  name?: string;
  ifindex?: number;
  /** Nitro generation of the instance (2..5). Default 4. */
  nitro?: 2 | 3 | 4 | 5;
  /** Nitro v3 "n" type (c5n, m5n …): RSS key configurable. */
  networkOptimized?: boolean;
  /** MAX_NUM_QUEUES_PER_ENI limited by vCPUs. Default 8. */
  maxQueues?: number;
  queues?: number;
  rxMax?: number;
  mac?: string;
  mtu?: number;
  maxMtu?: number;
  /** Rule table size; depends on the host's vCPUs and is shared between ENIs. [ASSUMED] 128. */
  ntupleCapacity?: number;
  /** Seed for the stand-in random RSS key. */
  keySeed?: number;
  driverVersion?: string;
  busInfo?: string;
}

function pow2Floor(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

function seededKey(seed: number): Uint8Array {
  let s = seed >>> 0 || 1;
  const key = new Uint8Array(RSS_KEY_BYTES);
  for (let i = 0; i < key.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    key[i] = s >>> 24;
  }
  return key;
}

export class FakeEnaDevice implements EnaDeviceView {
  readonly name: string;
  readonly nitro: 2 | 3 | 4 | 5;
  private readonly ifindex: number;
  private readonly mac: string;
  private readonly maxMtu: number;
  private readonly maxQueues: number;
  private readonly ringMax: { rx: number; tx: number };
  private readonly push: { bufLenBytes: number; bufMaxLenBytes: number };
  private readonly keyConfigurable: boolean;
  private readonly ntupleCap: number;
  private readonly drv: DriverInfo;
  private mtu: number;
  private rxRing = ENA_DEFAULT_RING_SIZE;
  private txRing: number;
  private queues: number;
  private coal: CoalesceParams = { adaptiveRx: true, adaptiveTx: false, rxUsecs: 20, txUsecs: 64 };
  private key: Uint8Array;
  private hfunc: RssHashFunction = 'toeplitz';
  private indir: number[];
  /** The user set the table (netif_is_rxfh_configured): it no longer follows the queue count. */
  indirUserSet = false;
  private readonly rules = new Map<number, NtupleRule>();
  private readonly stats = new Map<string, number>();
  readonly linkStatsMut: LinkStats = {
    rxBytes: 0,
    rxPackets: 0,
    rxErrors: 0,
    rxDropped: 0,
    rxOverErrors: 0,
    rxMissed: 0,
    rxMcast: 0,
    txBytes: 0,
    txPackets: 0,
    txErrors: 0,
    txDropped: 0,
    txCarrier: 0,
    txCollisions: 0,
  };

  constructor(o: FakeEnaOptions = {}) {
    this.name = o.name ?? 'eth0';
    this.ifindex = o.ifindex ?? 2;
    this.nitro = o.nitro ?? 4;
    this.mac = o.mac ?? '02:4a:3c:1d:9e:7f';
    this.mtu = o.mtu ?? 9001;
    this.maxMtu = o.maxMtu ?? 9216;
    this.maxQueues = o.maxQueues ?? 8;
    this.queues = Math.min(o.queues ?? this.maxQueues, this.maxQueues);
    // Large LLQ (224-byte headers) is the default on Nitro v4+ and halves the TX ring; Nitro v5 can
    // keep 1024 entries with large LLQ (docs/domain-facts.md §1.3).
    const largeLlq = this.nitro >= 4;
    this.ringMax = { rx: o.rxMax ?? 16384, tx: this.nitro === 4 ? 512 : 1024 };
    this.txRing = largeLlq ? 512 : ENA_DEFAULT_RING_SIZE;
    this.push = { bufLenBytes: largeLlq ? 224 : 96, bufMaxLenBytes: 224 };
    this.keyConfigurable = this.nitro >= 4 || (this.nitro === 3 && o.networkOptimized === true);
    this.ntupleCap = o.ntupleCapacity ?? 128;
    this.key = seededKey(o.keySeed ?? 1);
    this.indir = defaultIndirectionTable(this.queues);
    this.drv = {
      driver: 'ena',
      version: o.driverVersion ?? '6.8.0-1015-aws',
      firmwareVersion: '',
      busInfo: o.busInfo ?? '0000:00:05.0',
    };
    for (const n of this.statNames()) this.stats.set(n, 0);
    this.stats.set('interface_up', 1);
  }

  /** Counter names in the in-tree driver's order (ena_get_strings: global, ENI, queues, admin queue). */
  private statNames(): string[] {
    const names = [
      'tx_timeout',
      'suspend',
      'resume',
      'wd_expired',
      'interface_up',
      'interface_down',
      'admin_q_pause',
      'bw_in_allowance_exceeded',
      'bw_out_allowance_exceeded',
      'pps_allowance_exceeded',
      'conntrack_allowance_exceeded',
      'linklocal_allowance_exceeded',
    ];
    if (this.nitro >= 2) names.push('conntrack_allowance_available');
    const tx = [
      'cnt',
      'bytes',
      'queue_stop',
      'queue_wakeup',
      'dma_mapping_err',
      'linearize',
      'linearize_failed',
      'napi_comp',
      'tx_poll',
      'doorbells',
      'prepare_ctx_err',
      'bad_req_id',
      'llq_buffer_copy',
      'missed_tx',
      'unmask_interrupt',
    ];
    const rx = [
      'cnt',
      'bytes',
      'rx_copybreak_pkt',
      'csum_good',
      'refil_partial',
      'csum_bad',
      'page_alloc_fail',
      'skb_alloc_fail',
      'dma_mapping_err',
      'bad_desc_num',
      'bad_req_id',
      'empty_rx_ring',
      'csum_unchecked',
      'xdp_aborted',
      'xdp_drop',
      'xdp_pass',
      'xdp_tx',
      'xdp_invalid',
      'xdp_redirect',
    ];
    for (let q = 0; q < this.queues; q++) {
      for (const s of tx) names.push(`queue_${q}_tx_${s}`);
      for (const s of rx) names.push(`queue_${q}_rx_${s}`);
    }
    for (const s of ['aborted_cmd', 'submitted_cmd', 'completed_cmd', 'out_of_space', 'no_completion']) {
      names.push(`ena_admin_q_${s}`);
    }
    return names;
  }

  bumpStat(name: string, delta = 1): void {
    const v = this.stats.get(name);
    if (v === undefined) throw new Error(`no ENA counter ${name}`);
    this.stats.set(name, v + delta);
  }

  driverInfo(): DriverInfo {
    return { ...this.drv };
  }

  link(): LinkInfo {
    return {
      name: this.name,
      ifindex: this.ifindex,
      mtu: this.mtu,
      minMtu: ENA_MIN_MTU,
      maxMtu: this.maxMtu,
      mac: this.mac,
      txQueueLen: 1000,
      qdiscKind: this.queues > 1 ? 'mq' : 'fq_codel',
      numTxQueues: this.maxQueues,
      numRxQueues: this.maxQueues,
      up: true,
    };
  }

  linkStats(): LinkStats {
    return { ...this.linkStatsMut };
  }

  statistics(): Array<[string, number]> {
    // Per-queue names follow the live queue count, like the driver's string set.
    const out: Array<[string, number]> = [];
    for (const n of this.statNames()) out.push([n, this.stats.get(n) ?? 0]);
    return out;
  }

  rings(): RingParams {
    return {
      rxMax: this.ringMax.rx,
      txMax: this.ringMax.tx,
      rx: this.rxRing,
      tx: this.txRing,
      txPush: { ...this.push },
    };
  }

  setRings(rx: number | undefined, tx: number | undefined): Errno | null {
    const fitRing = (v: number, max: number) => pow2Floor(Math.min(Math.max(v, ENA_MIN_RING_SIZE), max));
    if (rx !== undefined) this.rxRing = fitRing(rx, this.ringMax.rx);
    if (tx !== undefined) this.txRing = fitRing(tx, this.ringMax.tx);
    return null;
  }

  channels(): ChannelParams {
    return { combinedMax: this.maxQueues, combined: this.queues };
  }

  setChannels(combined: number): Errno | null {
    if (!Number.isInteger(combined) || combined < 1 || combined > this.maxQueues) return 'EINVAL';
    this.queues = combined;
    if (!this.indirUserSet) this.indir = defaultIndirectionTable(combined);
    return null;
  }

  coalesce(): CoalesceParams {
    return { ...this.coal };
  }

  setCoalesce(p: Partial<CoalesceParams>): Errno | null {
    if (p.adaptiveTx) return 'EOPNOTSUPP';
    for (const v of [p.rxUsecs, p.txUsecs])
      if (v !== undefined && (!Number.isInteger(v) || v < 0)) return 'EINVAL';
    this.coal = { ...this.coal, ...p, adaptiveTx: false };
    return null;
  }

  rss(): RssParams {
    return {
      key: this.key.slice(),
      indir: [...this.indir],
      hfunc: this.hfunc,
      keyConfigurable: this.keyConfigurable,
    };
  }

  setRss(p: { key?: Uint8Array; indir?: number[]; hfunc?: RssHashFunction }): Errno | null {
    if ((p.key || p.hfunc) && !this.keyConfigurable) return 'EOPNOTSUPP';
    if (p.key && p.key.length !== RSS_KEY_BYTES) return 'EINVAL';
    if (p.indir) {
      if (p.indir.length !== ENA_RSS_INDIR_TABLE_SIZE) return 'EINVAL';
      if (p.indir.some((q) => !Number.isInteger(q) || q < 0 || q >= this.queues)) return 'EINVAL';
    }
    if (p.indir) {
      this.indir = [...p.indir];
      const def = defaultIndirectionTable(this.queues);
      this.indirUserSet = p.indir.some((q, i) => q !== def[i]);
    }
    if (p.key) this.key = p.key.slice();
    if (p.hfunc) this.hfunc = p.hfunc;
    return null;
  }

  ntupleSupported(): boolean {
    return this.nitro >= 5;
  }

  ntupleRuleCapacity(): number {
    return this.ntupleSupported() ? this.ntupleCap : 0;
  }

  ntupleRules(): NtupleRule[] {
    return [...this.rules.values()].sort((a, b) => a.loc - b.loc).map((r) => ({ ...r }));
  }

  addNtupleRule(rule: Omit<NtupleRule, 'loc'> & { loc?: number }): number | Errno {
    if (!this.ntupleSupported()) return 'EOPNOTSUPP';
    // ena_set_steering_rule: "no support for any special rule placement".
    if (rule.loc === undefined) return 'EOPNOTSUPP';
    if (!Number.isInteger(rule.loc) || rule.loc < 0 || rule.loc >= this.ntupleCap) return 'EINVAL';
    if (!Number.isInteger(rule.action) || rule.action < 0 || rule.action >= this.queues) return 'EINVAL';
    this.rules.set(rule.loc, { ...rule, loc: rule.loc });
    return rule.loc;
  }

  deleteNtupleRule(loc: number): Errno | null {
    if (!this.ntupleSupported()) return 'EOPNOTSUPP';
    if (!Number.isInteger(loc) || loc < 0 || loc >= this.ntupleCap) return 'EINVAL';
    if (!this.rules.delete(loc)) return 'ENOENT';
    return null;
  }

  setMtu(mtu: number): Errno | null {
    if (!Number.isInteger(mtu) || mtu < ENA_MIN_MTU || mtu > this.maxMtu) return 'EINVAL';
    this.mtu = mtu;
    return null;
  }
}

/** A device lookup over a set of fakes, the shape `runEthtool`/`runIp` take. */
export function fakeDevices(...devs: FakeEnaDevice[]): (name: string) => FakeEnaDevice | undefined {
  return (name) => devs.find((d) => d.name === name);
}
