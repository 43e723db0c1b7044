/**
 * What the `ethtool` and `ip` commands see of, and may change on, a host's ENA network device.
 *
 * The host's ENA device implements this. Setters validate against the device's limits the way
 * the driver does and return null on success or an errno-style failure the command turns into the
 * real tool's message (e.g. ethtool's "Cannot set device ring parameters: Invalid argument").
 */
export type Errno = 'EINVAL' | 'EOPNOTSUPP' | 'EBUSY' | 'ENOSPC' | 'ERANGE' | 'ENOENT';

export interface RingParams {
  rxMax: number;
  txMax: number;
  rx: number;
  tx: number;
  /**
   * LLQ (TX push) state as the driver reports it to `ethtool -g` (kernel >= 6.4): the pushed header
   * size (96 normal LLQ, 224 large LLQ) and the largest the device allows. Absent: host-memory TX
   * (no LLQ), shown as "TX Push: off".
   */
  txPush?: { bufLenBytes: number; bufMaxLenBytes: number };
}

export interface ChannelParams {
  /** ENA exposes combined channels only (one IRQ per TX/RX queue pair). */
  combinedMax: number;
  combined: number;
}

export interface CoalesceParams {
  adaptiveRx: boolean;
  adaptiveTx: boolean;
  rxUsecs: number;
  txUsecs: number;
}

export type RssHashFunction = 'toeplitz' | 'crc32';

export interface RssParams {
  /** 40-byte key. */
  key: Uint8Array;
  /** Indirection table (128 entries on the modelled driver): entry i → RX queue. */
  indir: number[];
  hfunc: RssHashFunction;
  /** Whether the device accepts a host-provided key/function (Nitro v3 "n" types and Nitro v4+). */
  keyConfigurable: boolean;
}

export type NtupleFlowType = 'tcp4' | 'udp4';

export interface NtupleRule {
  loc: number;
  flowType: NtupleFlowType;
  srcIp?: string;
  dstIp?: string;
  srcPort?: number;
  dstPort?: number;
  /** RX queue to steer to. */
  action: number;
}

export interface DriverInfo {
  driver: string;
  version: string;
  firmwareVersion: string;
  busInfo: string;
  /** ethtool -i's supports-test / supports-register-dump (absent: no, as on ENA). */
  supportsTest?: boolean;
  supportsRegisterDump?: boolean;
}

/** ethtool operations a driver may lack (xen-netfront implements none of them). */
export type DeviceOp = 'rings' | 'channels' | 'coalesce' | 'rss' | 'ntuple';

export interface LinkInfo {
  name: string;
  ifindex: number;
  mtu: number;
  minMtu: number;
  maxMtu: number;
  mac: string;
  txQueueLen: number;
  qdiscKind: string;
  numTxQueues: number;
  numRxQueues: number;
  up: boolean;
}

/** Kernel netdev statistics (ip -s link): rtnl_link_stats64 subset. */
export interface LinkStats {
  rxBytes: number;
  rxPackets: number;
  rxErrors: number;
  rxDropped: number;
  rxOverErrors: number;
  rxMissed: number;
  rxMcast: number;
  txBytes: number;
  txPackets: number;
  txErrors: number;
  txDropped: number;
  txCarrier: number;
  txCollisions: number;
}

export interface EnaDeviceView {
  readonly name: string;
  /** Whether the driver implements the ethtool operation (else the kernel answers EOPNOTSUPP). */
  supports?(op: DeviceOp): boolean;
  driverInfo(): DriverInfo;
  link(): LinkInfo;
  linkStats(): LinkStats;
  /** `ethtool -S` counters in the driver's order (name, value). */
  statistics(): Array<[string, number]>;
  rings(): RingParams;
  setRings(rx: number | undefined, tx: number | undefined): Errno | null;
  channels(): ChannelParams;
  setChannels(combined: number): Errno | null;
  coalesce(): CoalesceParams;
  setCoalesce(p: Partial<CoalesceParams>): Errno | null;
  rss(): RssParams;
  setRss(p: { key?: Uint8Array; indir?: number[]; hfunc?: RssHashFunction }): Errno | null;
  /** n-tuple rules, and whether the device supports them (Nitro v5+). */
  ntupleSupported(): boolean;
  ntupleRuleCapacity(): number;
  ntupleRules(): NtupleRule[];
  addNtupleRule(rule: Omit<NtupleRule, 'loc'> & { loc?: number }): number | Errno;
  deleteNtupleRule(loc: number): Errno | null;
  setMtu(mtu: number): Errno | null;
}
