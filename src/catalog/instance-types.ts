/**
 * The instance-type catalog: every per-type network figure the model uses, each tagged with its
 * provenance and source (./figure.ts; keys of docs/domain-facts.md §0). API values were read in
 * MOTO at commit 008b9e13 and checked against docs/domain-facts.md §4 (`documented`, 'MOTO');
 * behaviour that follows from the Nitro generation comes from ENA-README / ENA-BP / ENA-SRC /
 * REINVENT (§1); PPS allowance, burst duration and conntrack maximum are not published, so they
 * are `measured` where a seed measured the type and `assumed` with their rule otherwise.
 *
 * Guarantees: built once from plain data, frozen, deterministic. tests/engine/catalog.test.ts
 * checks baseline ≤ peak, burst durations within "5 to 60 minutes" and only when baseline < peak,
 * TX ring 512 exactly on Nitro ≥ v4, ENA Express only on Nitro ≥ v4, a note on every assumption.
 */
import { assumed, documented, type Figure, measured } from './figure';

/**
 * The Nitro card generation: 2–6 as AWS-NITRO numbers them; 1 for C4's first card (REINVENT
 * history slide "Nitro v1: C4", behind an Intel 82599 VF interface); 0 for a Xen host without
 * one (the network path is dom0's netback or an SR-IOV VF, or AWS's first ENA on Xen).
 */
export type NitroGeneration = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** DescribeInstanceTypes `Hypervisor`. */
export type Hypervisor = 'xen' | 'nitro';

/**
 * The enhanced-networking interface a type offers (AWS EC2 UG "Enhanced networking"): the Elastic
 * Network Adapter (`ena`), the Intel 82599 Virtual Function (`sriov`, driver ixgbevf), or none (the
 * Xen PV network device only, driver `vif`).
 */
export type EnhancedNetworking = 'ena' | 'sriov' | 'none';

/** Default conntrack idle timeouts of the type (seconds). Configurable per ENI, see vpc-limits.ts for bounds. */
export interface ConntrackTimeouts {
  readonly tcpEstablishedSeconds: Figure<number>;
  readonly udpStreamSeconds: Figure<number>;
  readonly udpSeconds: Figure<number>;
}

export interface InstanceTypeSpec {
  /** API name, e.g. 'c7i.large'. */
  readonly name: string;
  /** Part before the dot, e.g. 'c7i'. */
  readonly family: string;
  /** Part after the dot, e.g. 'large', '8xlarge', 'metal-24xl'. */
  readonly size: string;
  readonly vcpus: Figure<number>;
  readonly nitroGeneration: Figure<NitroGeneration>;
  /** DescribeInstanceTypes `Hypervisor` ('xen' for every type before C5/M5). */
  readonly hypervisor: Figure<Hypervisor>;
  /** The enhanced-networking interface of the type (ENA, the 82599 VF, or none). */
  readonly enhancedNetworking: Figure<EnhancedNetworking>;
  /** NetworkInfo.MaximumNetworkInterfaces (all network cards together). */
  readonly maxEnis: Figure<number>;
  /** NetworkInfo.MaximumNetworkCards. */
  readonly networkCards: Figure<number>;
  /** NetworkCards[0].DefaultEnaQueueCountPerInterface, the API value (the driver uses min(this, vCPUs)). */
  readonly defaultEnaQueuesPerEni: Figure<number>;
  /** MaximumEnaQueueCountPerInterface on flexible-queue types; the default otherwise. */
  readonly maxEnaQueuesPerEni: Figure<number>;
  /** FlexibleEnaQueuesSupport === 'supported'. */
  readonly flexibleEnaQueues: Figure<boolean>;
  /** Per direction (in and out are limited separately, AWS-BW). */
  readonly baselineBandwidthGbps: Figure<number>;
  readonly peakBandwidthGbps: Figure<number>;
  /** NetworkInfo.NetworkPerformance, verbatim, e.g. 'Up to 12.5 Gigabit'. */
  readonly networkPerformance: Figure<string>;
  /** NetworkInfo.EnaSrdSupported. */
  readonly enaExpressSupported: Figure<boolean>;
  /** Whether the device honours a host-set RSS key/function (Nitro v3 "n" types and Nitro v4+). */
  readonly rssKeyConfigurable: Figure<boolean>;
  /** ntuple flow steering (`ethtool -N … action N`), Nitro v5+. */
  readonly ntupleSupported: Figure<boolean>;
  readonly txRingDefault: Figure<number>;
  readonly txRingMax: Figure<number>;
  readonly rxRingDefault: Figure<number>;
  readonly rxRingMax: Figure<number>;
  /**
   * Instance PPS allowance, packets/s, inbound + outbound together (AWS-ENAPERF "bidirectional"),
   * and what one direction alone reaches.
   */
  readonly ppsAllowance: Figure<number>;
  /**
   * Where a measurement shows both directions together moving more than one alone (TOONK's
   * c5n.4xlarge): the in + out budget; each direction then stops at ppsAllowance. Null elsewhere.
   */
  readonly ppsBidirectional: Figure<number> | null;
  /** Seconds a full network I/O credit bucket sustains peak bandwidth; null when baseline = peak. */
  readonly burstCreditSeconds: Figure<number> | null;
  readonly conntrackTimeouts: ConntrackTimeouts;
  /** Maximum tracked connections (what conntrack_allowance_available shows on an idle instance). */
  readonly conntrackAllowanceMax: Figure<number>;
}

// ---------------------------------------------------------------------------------------------
// API data (MOTO @008b9e13). One row per type; only what DescribeInstanceTypes says.
// ---------------------------------------------------------------------------------------------

interface ApiRow {
  readonly name: string;
  readonly vcpus: number;
  readonly maxEnis: number;
  readonly defaultQueues: number;
  readonly baselineGbps: number;
  readonly peakGbps: number;
  readonly networkPerformance: string;
  readonly enaSrd: boolean;
  /** MaximumEnaQueueCountPerInterface when the API lists it. */
  readonly maxQueuesPerEni?: number;
  readonly flexibleQueues?: boolean;
  readonly networkCards?: number;
  /** Extra context for the bandwidth figures (e.g. per-card limits). */
  readonly bandwidthNote?: string;
  /** Xen types only (see XEN_ROWS): the enhanced-networking interface; Nitro types are ENA. */
  readonly xen?: EnhancedNetworking;
}

function api(
  name: string,
  vcpus: number,
  maxEnis: number,
  defaultQueues: number,
  baselineGbps: number,
  peakGbps: number,
  networkPerformance: string,
  enaSrd: boolean,
  extra: Partial<
    Pick<ApiRow, 'maxQueuesPerEni' | 'flexibleQueues' | 'networkCards' | 'bandwidthNote' | 'xen'>
  > = {},
): ApiRow {
  return {
    name,
    vcpus,
    maxEnis,
    defaultQueues,
    baselineGbps,
    peakGbps,
    networkPerformance,
    enaSrd,
    ...extra,
  };
}

const FLEX = (maxQueuesPerEni: number) => ({ maxQueuesPerEni, flexibleQueues: true });

const UP_TO_10 = 'Up to 10 Gigabit';
const UP_TO_12_5 = 'Up to 12.5 Gigabit';
const UP_TO_25 = 'Up to 25 Gigabit';

const API_ROWS: readonly ApiRow[] = [
  // C5 (Nitro v2)
  api('c5.large', 2, 3, 8, 0.75, 10, UP_TO_10, false),
  api('c5.xlarge', 4, 4, 8, 1.25, 10, UP_TO_10, false),
  api('c5.2xlarge', 8, 4, 8, 2.5, 10, UP_TO_10, false),
  api('c5.4xlarge', 16, 8, 8, 5, 10, UP_TO_10, false),
  api('c5.9xlarge', 36, 8, 8, 12, 12, '12 Gigabit', false),
  api('c5.12xlarge', 48, 8, 8, 12, 12, '12 Gigabit', false),
  api('c5.18xlarge', 72, 15, 8, 25, 25, '25 Gigabit', false),
  api('c5.24xlarge', 96, 15, 8, 25, 25, '25 Gigabit', false),
  api('c5.metal', 96, 15, 8, 25, 25, '25 Gigabit', false),
  // M5 (Nitro v2)
  api('m5.large', 2, 3, 8, 0.75, 10, UP_TO_10, false),
  api('m5.xlarge', 4, 4, 8, 1.25, 10, UP_TO_10, false),
  api('m5.2xlarge', 8, 4, 8, 2.5, 10, UP_TO_10, false),
  api('m5.4xlarge', 16, 8, 8, 5, 10, UP_TO_10, false),
  api('m5.8xlarge', 32, 8, 8, 10, 10, '10 Gigabit', false),
  api('m5.12xlarge', 48, 8, 8, 12, 12, '12 Gigabit', false),
  api('m5.16xlarge', 64, 15, 8, 20, 20, '20 Gigabit', false),
  api('m5.24xlarge', 96, 15, 8, 25, 25, '25 Gigabit', false),
  api('m5.metal', 96, 15, 8, 25, 25, '25 Gigabit', false),
  // C5n (Nitro v3)
  api('c5n.large', 2, 3, 8, 3, 25, UP_TO_25, false),
  api('c5n.xlarge', 4, 4, 8, 5, 25, UP_TO_25, false),
  api('c5n.2xlarge', 8, 4, 8, 10, 25, UP_TO_25, false),
  api('c5n.4xlarge', 16, 8, 32, 15, 25, UP_TO_25, false),
  api('c5n.9xlarge', 36, 8, 32, 50, 50, '50 Gigabit', false),
  api('c5n.18xlarge', 72, 15, 32, 100, 100, '100 Gigabit', false),
  api('c5n.metal', 72, 15, 32, 100, 100, '100 Gigabit', false),
  // C6i (Nitro v4, flexible ENA queues)
  api('c6i.large', 2, 3, 2, 0.781, 12.5, UP_TO_12_5, false, FLEX(2)),
  api('c6i.xlarge', 4, 4, 4, 1.562, 12.5, UP_TO_12_5, false, FLEX(4)),
  api('c6i.2xlarge', 8, 4, 8, 3.125, 12.5, UP_TO_12_5, false, FLEX(8)),
  api('c6i.4xlarge', 16, 8, 8, 6.25, 12.5, UP_TO_12_5, false, FLEX(16)),
  api('c6i.8xlarge', 32, 8, 8, 12.5, 12.5, '12.5 Gigabit', true, FLEX(32)),
  api('c6i.12xlarge', 48, 8, 8, 18.75, 18.75, '18.75 Gigabit', true, FLEX(32)),
  api('c6i.16xlarge', 64, 15, 8, 25, 25, '25 Gigabit', true, FLEX(32)),
  api('c6i.24xlarge', 96, 15, 8, 37.5, 37.5, '37.5 Gigabit', true, FLEX(32)),
  api('c6i.32xlarge', 128, 15, 8, 50, 50, '50 Gigabit', true, FLEX(32)),
  // Metal: the API lists MaximumEnaQueueCountPerInterface 32 but FlexibleEnaQueuesSupport 'unsupported'.
  api('c6i.metal', 128, 15, 8, 50, 50, '50 Gigabit', true, { maxQueuesPerEni: 32, flexibleQueues: false }),
  // C6in (Nitro v4)
  api('c6in.xlarge', 4, 4, 4, 6.25, 30, 'Up to 30 Gigabit', false, FLEX(4)),
  api('c6in.2xlarge', 8, 4, 8, 12.5, 40, 'Up to 40 Gigabit', false, FLEX(8)),
  api('c6in.4xlarge', 16, 8, 8, 25, 50, 'Up to 50 Gigabit', false, FLEX(16)),
  api('c6in.8xlarge', 32, 8, 16, 50, 50, '50 Gigabit', true, FLEX(32)),
  api('c6in.24xlarge', 96, 15, 32, 150, 150, '150 Gigabit', true, FLEX(32)),
  api('c6in.32xlarge', 128, 16, 32, 200, 200, '200 Gigabit', true, {
    ...FLEX(32),
    networkCards: 2,
    bandwidthNote:
      'Two network cards, 8 ENIs each. The API reports each card as Baseline/Peak 200 Gbps with NetworkPerformance "Up to 170 Gigabit" (Nitro v4 per-card limit, AWS-NITRO); 200 Gbps needs ENIs on both cards.',
  }),
  api('c6in.metal', 128, 16, 32, 200, 200, '200 Gigabit', true, {
    networkCards: 2,
    bandwidthNote:
      'Two network cards, 8 ENIs each, each "Up to 170 Gigabit" (Nitro v4 per-card limit, AWS-NITRO); 200 Gbps needs ENIs on both cards.',
  }),
  // C7i (Nitro v4; no flexible queues)
  api('c7i.large', 2, 3, 2, 0.781, 12.5, UP_TO_12_5, false, {
    bandwidthNote: 'REINVENT slide: "Burst 12.5 Gbps / Baseline 0.780 Gbps" (781 Mbps on other slides).',
  }),
  api('c7i.xlarge', 4, 4, 4, 1.562, 12.5, UP_TO_12_5, false),
  api('c7i.2xlarge', 8, 4, 8, 3.125, 12.5, UP_TO_12_5, false),
  api('c7i.4xlarge', 16, 8, 8, 6.25, 12.5, UP_TO_12_5, false),
  api('c7i.8xlarge', 32, 8, 8, 12.5, 12.5, '12.5 Gigabit', false),
  api('c7i.12xlarge', 48, 8, 8, 18.75, 18.75, '18.75 Gigabit', true),
  api('c7i.16xlarge', 64, 15, 8, 25, 25, '25 Gigabit', true),
  api('c7i.24xlarge', 96, 15, 8, 37.5, 37.5, '37.5 Gigabit', true),
  api('c7i.48xlarge', 192, 15, 16, 50, 50, '50 Gigabit', true),
  api('c7i.metal-24xl', 96, 15, 8, 37.5, 37.5, '37.5 Gigabit', true),
  api('c7i.metal-48xl', 192, 15, 16, 50, 50, '50 Gigabit', true),
  // M7i (Nitro v4)
  api('m7i.large', 2, 3, 2, 0.781, 12.5, UP_TO_12_5, false),
  api('m7i.xlarge', 4, 4, 4, 1.562, 12.5, UP_TO_12_5, false),
  api('m7i.4xlarge', 16, 8, 8, 6.25, 12.5, UP_TO_12_5, false),
  api('m7i.8xlarge', 32, 8, 8, 12.5, 12.5, '12.5 Gigabit', false),
  // C7gn (Nitro v5)
  api('c7gn.12xlarge', 48, 8, 32, 150, 150, '150 Gigabit', true),
  api('c7gn.16xlarge', 64, 15, 32, 200, 200, '200 Gigabit', true),
  // C8g (Nitro v5)
  api('c8g.large', 2, 3, 2, 0.937, 12.5, UP_TO_12_5, false),
  api('c8g.xlarge', 4, 4, 4, 1.875, 12.5, UP_TO_12_5, false),
  api('c8g.4xlarge', 16, 8, 8, 7.5, 15, 'Up to 15 Gigabit', false),
  api('c8g.8xlarge', 32, 8, 8, 15, 15, '15 Gigabit', true),
  api('c8g.48xlarge', 192, 15, 16, 50, 50, '50 Gigabit', true),
];

/**
 * The Xen generation named by the seeds (NETFLIX18's 2018 table, SRIOV's c3.8xlarge), read in
 * MOTO at commit 0af643a5 (DescribeInstanceTypes still lists them: `Hypervisor: "xen"`, today's
 * BaselineBandwidthInGbps/PeakBandwidthInGbps beside the old NetworkPerformance labels "Moderate",
 * "High", "10 Gigabit", "Up to 10 Gigabit", "25 Gigabit"). The enhanced-networking interface:
 * `EnaSupport: "supported"` in MOTO for I3, R4, X1, X1e and m4.16xlarge; the Intel 82599 VF
 * ("SriovNetSupport simple") for "C3, C4, D2, I2, M4 (excluding m4.16xlarge), and R3" (AWS EC2 UG
 * "Enhanced networking with the Intel 82599 VF interface", key AWS-SRIOV; the SRIOV seed lists the
 * same families); T2 has neither (PV network device only).
 */
const XEN_ROWS: readonly ApiRow[] = (
  [
    // [name, vCPU, ENIs, base, peak, NetworkPerformance, interface]
    ['t2.large', 2, 3, 0.512, 1.024, 'Low to Moderate', 'none'],
    ['t2.xlarge', 4, 3, 0.75, 1.024, 'Moderate', 'none'],
    ['t2.2xlarge', 8, 3, 1, 1.024, 'Moderate', 'none'],
    ['c3.large', 2, 3, 0.5, 1.2, 'Moderate', 'sriov'],
    ['c3.xlarge', 4, 4, 0.7, 10, 'Moderate', 'sriov'],
    ['c3.2xlarge', 8, 4, 1, 10, 'High', 'sriov'],
    ['c3.4xlarge', 16, 8, 2, 10, 'High', 'sriov'],
    ['c3.8xlarge', 32, 8, 5, 10, '10 Gigabit', 'sriov'],
    ['c4.large', 2, 3, 0.625, 1.2, 'Moderate', 'sriov'],
    ['c4.xlarge', 4, 4, 1.25, 2.8, 'High', 'sriov'],
    ['c4.2xlarge', 8, 4, 2.5, 10, 'High', 'sriov'],
    ['c4.4xlarge', 16, 8, 5, 10, 'High', 'sriov'],
    ['c4.8xlarge', 36, 8, 10, 10, '10 Gigabit', 'sriov'],
    ['r3.large', 2, 3, 0.5, 1.2, 'Moderate', 'sriov'],
    ['r3.xlarge', 4, 4, 0.7, 2.8, 'Moderate', 'sriov'],
    ['r3.2xlarge', 8, 4, 1, 10, 'High', 'sriov'],
    ['r3.4xlarge', 16, 8, 2, 10, 'High', 'sriov'],
    ['r3.8xlarge', 32, 8, 5, 10, '10 Gigabit', 'sriov'],
    ['i2.xlarge', 4, 4, 0.7, 2.8, 'Moderate', 'sriov'],
    ['i2.2xlarge', 8, 4, 1, 10, 'High', 'sriov'],
    ['i2.4xlarge', 16, 8, 2, 10, 'High', 'sriov'],
    ['i2.8xlarge', 32, 8, 10, 10, '10 Gigabit', 'sriov'],
    ['d2.xlarge', 4, 4, 1.25, 2.8, 'Moderate', 'sriov'],
    ['d2.2xlarge', 8, 4, 2.5, 10, 'High', 'sriov'],
    ['d2.4xlarge', 16, 8, 5, 10, 'High', 'sriov'],
    ['d2.8xlarge', 36, 8, 10, 10, '10 Gigabit', 'sriov'],
    ['m4.large', 2, 2, 0.45, 1.2, 'Moderate', 'sriov'],
    ['m4.xlarge', 4, 4, 0.75, 2.8, 'High', 'sriov'],
    ['m4.2xlarge', 8, 4, 1, 10, 'High', 'sriov'],
    ['m4.4xlarge', 16, 8, 2, 10, 'High', 'sriov'],
    ['m4.10xlarge', 40, 8, 10, 10, '10 Gigabit', 'sriov'],
    ['m4.16xlarge', 64, 8, 25, 25, '25 Gigabit', 'ena'],
    ['r4.large', 2, 3, 0.75, 10, 'Up to 10 Gigabit', 'ena'],
    ['r4.xlarge', 4, 4, 1.25, 10, 'Up to 10 Gigabit', 'ena'],
    ['r4.2xlarge', 8, 4, 2.5, 10, 'Up to 10 Gigabit', 'ena'],
    ['r4.4xlarge', 16, 8, 5, 10, 'Up to 10 Gigabit', 'ena'],
    ['r4.8xlarge', 32, 8, 12, 12, '10 Gigabit', 'ena'],
    ['r4.16xlarge', 64, 15, 25, 25, '25 Gigabit', 'ena'],
    ['i3.large', 2, 3, 0.75, 10, 'Up to 10 Gigabit', 'ena'],
    ['i3.xlarge', 4, 4, 1.25, 10, 'Up to 10 Gigabit', 'ena'],
    ['i3.2xlarge', 8, 4, 2.5, 10, 'Up to 10 Gigabit', 'ena'],
    ['i3.4xlarge', 16, 8, 5, 10, 'Up to 10 Gigabit', 'ena'],
    ['i3.8xlarge', 32, 8, 12, 12, '10 Gigabit', 'ena'],
    ['i3.16xlarge', 64, 15, 25, 25, '25 Gigabit', 'ena'],
    ['x1.16xlarge', 64, 8, 10, 10, '10 Gigabit', 'ena'],
    ['x1.32xlarge', 128, 8, 25, 25, '25 Gigabit', 'ena'],
    ['x1e.xlarge', 4, 3, 0.625, 10, 'Up to 10 Gigabit', 'ena'],
    ['x1e.2xlarge', 8, 4, 1.25, 10, 'Up to 10 Gigabit', 'ena'],
    ['x1e.4xlarge', 16, 4, 2.5, 10, 'Up to 10 Gigabit', 'ena'],
    ['x1e.8xlarge', 32, 4, 5, 10, 'Up to 10 Gigabit', 'ena'],
    ['x1e.16xlarge', 64, 8, 10, 10, '10 Gigabit', 'ena'],
    ['x1e.32xlarge', 128, 8, 25, 25, '25 Gigabit', 'ena'],
  ] as const
).map(([name, vcpus, enis, base, peak, perf, xen]) =>
  // DefaultEnaQueueCountPerInterface: MOTO lists 8 for every ENA/VF type, 1 for T2.
  api(name, vcpus, enis, xen === 'none' ? 1 : 8, base, peak, perf, false, { xen }),
);

/**
 * EnaSrdSupported where sources disagree. docs/domain-facts.md §4/§2.7: AWS-ENAX lists c8g.8xlarge and up,
 * the MOTO dump used for docs/domain-facts.md says true, the AWS-CO table says "No", and the MOTO snapshot
 * read for this catalog (008b9e13) says false.
 */
const ENA_EXPRESS_CONFLICTS: Readonly<Record<string, string>> = {
  'c8g.8xlarge':
    'CONFLICT: AWS-ENAX supported list includes c8g.8xlarge and larger, and docs/domain-facts.md §4 reads MOTO as True; the AWS-CO table says "No" and MOTO @008b9e13 says EnaSrdSupported false. AWS-ENAX (the feature page) wins.',
};

// ---------------------------------------------------------------------------------------------
// Nitro generation per family (AWS-NITRO, docs/domain-facts.md §2.9).
// ---------------------------------------------------------------------------------------------

const NITRO_BY_FAMILY: Readonly<Record<string, Figure<NitroGeneration>>> = {
  c5: documented<NitroGeneration>(
    2,
    'AWS-NITRO; REINVENT',
    'C5 and M5 are Nitro v2 (REINVENT history slide: C5 = v2, 25G).',
  ),
  m5: documented<NitroGeneration>(2, 'AWS-NITRO'),
  c5n: documented<NitroGeneration>(3, 'AWS-NITRO; REINVENT', 'REINVENT history slide: C5n = Nitro v3, 100G.'),
  c6i: documented<NitroGeneration>(4, 'AWS-NITRO'),
  c6in: documented<NitroGeneration>(
    4,
    'AWS-NITRO; REINVENT',
    'REINVENT history slide: C6in = Nitro v4, 200G.',
  ),
  c7i: documented<NitroGeneration>(4, 'AWS-NITRO'),
  m7i: assumed<NitroGeneration>(
    4,
    'AWS-NITRO',
    'docs/domain-facts.md §2.9 lists C7i and M6i as Nitro v4 but not M7i; M7i is the general-purpose sibling of C7i on the same platform with the same network tiers (MOTO), so the same generation is assumed.',
  ),
  c7gn: documented<NitroGeneration>(
    5,
    'AWS-NITRO; REINVENT',
    'REINVENT history slide: C7gn = Nitro v5, 200G.',
  ),
  c8g: documented<NitroGeneration>(5, 'AWS-NITRO'),
  // Xen hosts (MOTO Hypervisor "xen"). C4 is the talk's "Nitro v1": its card replaced the Intel
  // NIC behind the same 82599 VF interface (AWS-TELCO: "The C4 generation saw the introduction of
  // the Annapurna Labs-based chipset, which replaced Intel"); the others have no Nitro card.
  c4: documented<NitroGeneration>(
    1,
    'REINVENT; AWS-TELCO',
    'REINVENT history slide: "Nitro v1: C4, 10 Gbps". AWS-TELCO (whitepaper "EC2 networking for telecom", performance evolution): the C4 generation introduced the Annapurna Labs-based chipset, which replaced Intel; the guest still sees the 82599 VF (driver ixgbevf, AWS-SRIOV lists C4).',
  ),
  ...Object.fromEntries(
    ['t2', 'c3', 'r3', 'i2', 'd2', 'm4', 'r4', 'i3', 'x1', 'x1e'].map((f) => [
      f,
      documented<NitroGeneration>(
        0,
        'MOTO; AWS-NITRO; REINVENT',
        'Xen host (MOTO Hypervisor "xen"), not on the AWS-NITRO list; the REINVENT history starts at C4 (v1) and C5 (v2). The network path is the Xen PV device through dom0, the Intel 82599 VF (SR-IOV) or, on R4/I3/X1/X1e/m4.16xlarge, AWS\'s first ENA on a Xen host.',
      ),
    ]),
  ),
};

// ---------------------------------------------------------------------------------------------
// Measured PPS allowances, and the anchors used to derive the others.
// ---------------------------------------------------------------------------------------------

const PPS_FROM_SEEDS: Readonly<Record<string, Figure<number>>> = {
  'c5n.18xlarge': measured(
    8_500_000,
    'TOONK',
    'DPDK pktgen TX maximum ≈ 8.5 Mpps reached at 12 queues; more queues did not help. TX only, so the bidirectional allowance is at least this; TOONK saw a similar aggregate ceiling when forwarding (largest types 6.6–8.3 Mpps).',
  ),
  'c5n.9xlarge': measured(
    6_200_000,
    'TOONK',
    'Forwarding test: RX + TX together ≈ 6.2 Mpps, about the same as RX-only (~6 Mpps), i.e. an aggregate limit.',
  ),
  'c5n.4xlarge': measured(
    3_000_000,
    'TOONK',
    'RX-only ≈ 3 Mpps: what one direction alone reaches. Forwarding, TOONK saw ≈ 3 Mpps RX and ≈ 3 Mpps TX at once (PPS_BIDIRECTIONAL_FROM_SEEDS).',
  ),
  'm5.24xlarge': measured(
    2_200_000,
    'STRESSGRID',
    'UDP, 100 B payload: budget 2.2 Mpps shared by inbound and outbound (a UDP echo server peaks at ~1 M echoes/s) and across ENIs.',
  ),
  'm5.metal': measured(2_200_000, 'STRESSGRID', 'Same 2.2 Mpps budget as m5.24xlarge, in + out together.'),
  'c7i.large': measured(
    1_000_000,
    'REINVENT',
    "Derived from NET402's MSS-128 test: 928 Mbps of 116-byte payloads (MSS 128 less 12 B of timestamps) is 1.0 M data segments/s, the same with 1 and 2 flows, so the instance allowance (in + out, ACKs included) binds near 1.0 Mpps. The model then reproduces 0.91 Gbps from this allowance plus its own ACK traffic; the figure is not tuned to that output.",
  ),
};

/**
 * Measured in + out budgets above one direction's figure. TOONK: c5n.4xlarge receives ≈ 3 Mpps alone
 * and forwards ≈ 3 Mpps RX and ≈ 3 Mpps TX at once, while c5n.9xlarge forwards ≈ 6.2 Mpps in all,
 * about what it receives alone. So on c5n.4xlarge one direction stops below the budget both share;
 * on c5n.9xlarge the shared budget binds. Nothing says which other types behave as c5n.4xlarge:
 * they keep one budget (ppsAllowance) for both directions; the scaled figures use ppsAllowance.
 */
const PPS_BIDIRECTIONAL_FROM_SEEDS: Readonly<Record<string, Figure<number>>> = {
  'c5n.4xlarge': measured(
    6_000_000,
    'TOONK',
    'Forwarding through a c5n.4xlarge (Ubuntu 20.04 kernel): "~3Mpps simultaneously on RX and TX", where it receives ~3 Mpps alone: the in + out budget is about 6 Mpps and each direction stops near 3 Mpps (a per-direction ceiling, assumed to be the RX-only figure).',
  ),
};

/** Types whose PPS figure other types of the same Nitro generation are scaled from. */
const PPS_ANCHORS_BY_GENERATION: Readonly<Record<NitroGeneration, readonly string[]>> = {
  // No public PPS measurement of a Xen type exists; they borrow the Nitro v2 anchor (2017-18 types).
  0: ['m5.24xlarge', 'm5.metal'],
  1: ['m5.24xlarge', 'm5.metal'],
  2: ['m5.24xlarge', 'm5.metal'],
  3: ['c5n.4xlarge', 'c5n.9xlarge', 'c5n.18xlarge'],
  // No public PPS measurement exists for Nitro v5/v6; they borrow the Nitro v4 anchor.
  4: ['c7i.large'],
  5: ['c7i.large'],
  6: ['c7i.large'],
};

// ---------------------------------------------------------------------------------------------
// Rules for the unpublished figures.
// ---------------------------------------------------------------------------------------------

/** Burst rule: ≈ 6.5 min per 2 vCPUs, capped at AWS's 60 min (Vassallo: large 7, xlarge 13, 2xlarge 26 min). */
const BURST_SECONDS_PER_2_VCPUS = 390;
const BURST_MAX_SECONDS = 3600;

/** Conntrack maximum rule: the doc/talk example value for 2 vCPUs, linear in vCPUs. */
const CONNTRACK_EXAMPLE_AVAILABLE = 136_812;

function burstCreditSeconds(row: ApiRow): Figure<number> | null {
  if (row.baselineGbps >= row.peakGbps) return null;
  const seconds = Math.min((BURST_SECONDS_PER_2_VCPUS * row.vcpus) / 2, BURST_MAX_SECONDS);
  return assumed(
    seconds,
    'AWS-BW; Vassallo thread (docs/domain-facts.md §7)',
    `Credit bucket size is not published. AWS-BW: burst lasts "typically from 5 to 60 minutes, depending on the instance size". Measured (Vassallo, 2019): c5.large ≈ 7 min, c5.xlarge ≈ 13 min, c5.2xlarge ≈ 26 min. Rule: 6.5 min × vCPU/2, capped at 60 min → ${row.vcpus} vCPU = ${seconds / 60} min at peak (${row.peakGbps} Gbps vs baseline ${row.baselineGbps} Gbps).`,
  );
}

function conntrackAllowanceMax(row: ApiRow): Figure<number> {
  const value = Math.round((CONNTRACK_EXAMPLE_AVAILABLE * row.vcpus) / 2);
  return assumed(
    value,
    'AWS-ENAPERF; REINVENT',
    `The per-type maximum is not published. The AWS-ENAPERF and REINVENT ethtool -S example shows conntrack_allowance_available: 136812 on an idle instance (the talk's demos use c7i.large; the slide does not name the type), an older AWS doc example shows 450878. Rule: 136812 for 2 vCPUs, linear in vCPUs → ${row.vcpus} vCPU = ${value}.`,
  );
}

function conntrackTimeouts(nitro: NitroGeneration): ConntrackTimeouts {
  const tcp =
    nitro >= 6
      ? documented(
          350,
          'AWS-NITRO; MOTO',
          'Nitro v6 default TCP established timeout is 350 s (MOTO c8gn.48xlarge: 350).',
        )
      : documented(
          432_000,
          'MOTO; AWS-CT',
          'ConnectionTrackingConfiguration.DefaultTcpEstablishedTimeout (5 days).',
        );
  return {
    tcpEstablishedSeconds: tcp,
    udpStreamSeconds: documented(
      180,
      'MOTO; AWS-CT',
      'DefaultUdpStreamTimeout (REINVENT slide max "60 secs" conflicts; AWS = 180).',
    ),
    udpSeconds: documented(30, 'MOTO; AWS-CT', 'DefaultUdpTimeout.'),
  };
}

function ringFigures(family: string, nitro: NitroGeneration) {
  const largeLlq = nitro >= 4;
  const txRingDefault = largeLlq
    ? documented(
        512,
        'ENA-BP; ENA-SRC (ENA_DEFAULT_WIDE_LLQ_RING_SIZE); REINVENT',
        `Large LLQ (256 B entries, 224 B headers) is on by default on Nitro v4+ with driver ≥ 2.9.0g and halves the TX ring 1024 → 512; REINVENT c6i slide: "Tx Ring Default = 512 [256 – 1024]".${nitro >= 5 ? ' On Nitro v5 TX can be raised back to 1024 while keeping large LLQ (ENA-BP).' : ' On Nitro v4, TX 1024 requires disabling large LLQ (ENA-BP).'}`,
      )
    : documented(
        1024,
        'ENA-SRC (ENA_DEFAULT_RING_SIZE); ENA-BP',
        'Nitro ≤ v3 uses normal LLQ (128 B entries, 96 B max header) with the 1K default ring.',
      );
  const txRingMax = documented(
    1024,
    'ENA-BP; amzn-drivers #264',
    '"Tx ring size varies between 256 to 1K entries" (the LLQ depth); maintainers: no deeper TX queues than 1024.',
  );
  const rxRingDefault = documented(
    1024,
    'ENA-SRC (ENA_DEFAULT_RING_SIZE); REINVENT',
    'Rx Ring Default = 1024.',
  );
  const rxRingMax =
    family === 'c6i'
      ? documented(
          16_384,
          'REINVENT; ENA-README (rx_queue_size)',
          'REINVENT c6i host slide: "Rx Ring Default = 1024 [256 – 16,384]".',
        )
      : assumed(
          16_384,
          'ENA-README (rx_queue_size); ENA-BP; REINVENT',
          'The maximum is negotiated with the device and shown by ethtool -g; it is not published per type. ENA-README/ENA-BP: RX "up to 16K (16384), depending on the instance type"; REINVENT shows 16384 on a c6i (Nitro v4) host. Older drivers/modinfo said 8K. Current drivers on current types are modelled at 16384 everywhere.',
        );
  return { txRingDefault, txRingMax, rxRingDefault, rxRingMax };
}

function rssKeyConfigurable(family: string, nitro: NitroGeneration): Figure<boolean> {
  const nType = nitro === 3 && family.endsWith('n');
  if (nitro >= 4 || nType) {
    return documented(
      true,
      'ENA-README "RSS configuration"; ENA-BP',
      'Key and hash function are configurable on Nitro v3 "n" types and all Nitro v4+ (kernel ≥ 5.9 or driver ≥ 2.2.11g).',
    );
  }
  return documented(
    false,
    'ENA-README "RSS configuration"; ENA-UTIL (toeplitz_calc.py)',
    'The device ignores a host-set key: hardware uses the word-reversed Microsoft key, symmetric hashing and 16-bit folding. The indirection table is still configurable.',
  );
}

function ntupleSupported(nitro: NitroGeneration): Figure<boolean> {
  return documented(
    nitro >= 5,
    'ENA-README "Flow Steering (ntuple)"',
    'ntuple flow steering is "supported starting from EC2 Nitro v5 instance-types".',
  );
}

// ---------------------------------------------------------------------------------------------
// Building the specs.
// ---------------------------------------------------------------------------------------------

function enhancedNetworkingFigure(row: ApiRow): Figure<EnhancedNetworking> {
  switch (row.xen) {
    case undefined:
      return documented<EnhancedNetworking>(
        'ena',
        'AWS-NITRO; MOTO',
        'EnaSupport "required": a Nitro instance cannot start without ENA.',
      );
    case 'ena':
      return documented<EnhancedNetworking>(
        'ena',
        'MOTO',
        'EnaSupport "supported": the first ENA generation, on a Xen host; without it the instance uses the Xen PV device (vif).',
      );
    case 'sriov':
      return documented<EnhancedNetworking>(
        'sriov',
        'AWS-SRIOV; SRIOV',
        'Intel 82599 VF (driver ixgbevf): "C3, C4, D2, I2, M4 (excluding m4.16xlarge), and R3" (AWS-SRIOV); EnaSupport "unsupported" (MOTO). Without it the instance uses the Xen PV device (vif).',
      );
    case 'none':
      return documented<EnhancedNetworking>(
        'none',
        'AWS-SRIOV; MOTO',
        'No enhanced networking: EnaSupport "unsupported" (MOTO) and not on the 82599 VF list (AWS-SRIOV). The Xen PV device (vif) only.',
      );
  }
}

function splitName(name: string): { family: string; size: string } {
  const dot = name.indexOf('.');
  if (dot <= 0) throw new Error(`instance type name without a family: ${name}`);
  return { family: name.slice(0, dot), size: name.slice(dot + 1) };
}

/** Everything except the PPS allowance, which needs the other specs (anchors). */
function buildWithoutPps(row: ApiRow): Omit<InstanceTypeSpec, 'ppsAllowance' | 'ppsBidirectional'> {
  const { family, size } = splitName(row.name);
  const nitro = NITRO_BY_FAMILY[family];
  if (nitro === undefined) throw new Error(`no Nitro generation for family ${family}`);
  const n = nitro.value;
  const flexible = row.flexibleQueues === true;
  const srdConflict = ENA_EXPRESS_CONFLICTS[row.name];
  return {
    name: row.name,
    family,
    size,
    vcpus: documented(row.vcpus, 'MOTO', 'VCpuInfo.DefaultVCpus.'),
    nitroGeneration: nitro,
    hypervisor:
      row.xen !== undefined
        ? documented<Hypervisor>('xen', 'MOTO', 'Hypervisor "xen" (MOTO @0af643a5).')
        : documented<Hypervisor>(
            'nitro',
            'AWS-NITRO',
            'Built on the Nitro System (the DescribeInstances `Hypervisor` field still prints "xen" for them).',
          ),
    enhancedNetworking: enhancedNetworkingFigure(row),
    maxEnis: documented(row.maxEnis, 'MOTO', 'NetworkInfo.MaximumNetworkInterfaces.'),
    networkCards: documented(row.networkCards ?? 1, 'MOTO', 'NetworkInfo.MaximumNetworkCards.'),
    defaultEnaQueuesPerEni: documented(
      row.defaultQueues,
      'MOTO; ENA-BP',
      'DefaultEnaQueueCountPerInterface. The driver exposes min(this, vCPUs) queues (ENA-BP: queues per ENI = MIN(MAX_NUM_QUEUES_PER_ENI, NUM_OF_VCPUS)).',
    ),
    maxEnaQueuesPerEni:
      row.maxQueuesPerEni !== undefined
        ? documented(row.maxQueuesPerEni, 'MOTO; AWS-QUEUES', 'MaximumEnaQueueCountPerInterface.')
        : documented(
            row.defaultQueues,
            'MOTO',
            'FlexibleEnaQueuesSupport is unsupported and the API lists no MaximumEnaQueueCountPerInterface: the default is the maximum.',
          ),
    flexibleEnaQueues: documented(flexible, 'MOTO; AWS-QUEUES', 'NetworkInfo.FlexibleEnaQueuesSupport.'),
    baselineBandwidthGbps: documented(
      row.baselineGbps,
      'MOTO',
      row.bandwidthNote ??
        (row.xen !== undefined
          ? `BaselineBandwidthInGbps, per direction, as AWS publishes it today. The type was sold with the label "${row.networkPerformance}" only; the 2018 figures NETFLIX18 measured are the aws-2018 profile's.`
          : 'BaselineBandwidthInGbps, per direction.'),
    ),
    peakBandwidthGbps: documented(
      row.peakGbps,
      'MOTO',
      row.bandwidthNote ?? 'PeakBandwidthInGbps, per direction.',
    ),
    networkPerformance: documented(row.networkPerformance, 'MOTO', 'NetworkInfo.NetworkPerformance.'),
    enaExpressSupported:
      srdConflict !== undefined
        ? documented(true, 'AWS-ENAX', srdConflict)
        : documented(row.enaSrd, 'MOTO; AWS-ENAX', 'NetworkInfo.EnaSrdSupported.'),
    rssKeyConfigurable: rssKeyConfigurable(family, n),
    ntupleSupported: ntupleSupported(n),
    ...ringFigures(family, n),
    burstCreditSeconds: burstCreditSeconds(row),
    conntrackTimeouts: conntrackTimeouts(n),
    conntrackAllowanceMax: conntrackAllowanceMax(row),
  };
}

function ppsAllowance(
  spec: Omit<InstanceTypeSpec, 'ppsAllowance' | 'ppsBidirectional'>,
  partial: ReadonlyMap<string, Omit<InstanceTypeSpec, 'ppsAllowance' | 'ppsBidirectional'>>,
): Figure<number> {
  const own = PPS_FROM_SEEDS[spec.name];
  if (own !== undefined) return own;
  const generation = spec.nitroGeneration.value;
  const peak = spec.peakBandwidthGbps.value;
  // Nearest anchor by peak bandwidth (log distance), same family first on ties.
  let best:
    | {
        name: string;
        figure: Figure<number>;
        peakGbps: number;
        generation: NitroGeneration;
        distance: number;
      }
    | undefined;
  for (const anchorName of PPS_ANCHORS_BY_GENERATION[generation]) {
    const figure = PPS_FROM_SEEDS[anchorName];
    const anchorSpec = partial.get(anchorName);
    if (figure === undefined || anchorSpec === undefined) throw new Error(`PPS anchor ${anchorName} missing`);
    const anchorPeak = anchorSpec.peakBandwidthGbps.value;
    const distance = Math.abs(Math.log(peak / anchorPeak)) - (anchorSpec.family === spec.family ? 1e-9 : 0);
    if (best === undefined || distance < best.distance) {
      best = {
        name: anchorName,
        figure,
        peakGbps: anchorPeak,
        generation: anchorSpec.nitroGeneration.value,
        distance,
      };
    }
  }
  if (best === undefined) throw new Error(`no PPS anchor for Nitro v${generation}`);
  const value = Math.round((best.figure.value * (peak / best.peakGbps)) / 1000) * 1000;
  const borrowed =
    best.generation !== generation
      ? ` No Nitro v${generation} measurement exists, so the Nitro v${best.generation} anchor is used.`
      : '';
  return assumed(
    value,
    `AWS-ENAPERF; ${best.figure.source}`,
    `AWS does not publish PPS allowances (AWS-ENAPERF: "based on instance type and size"). Rule: scale the nearest anchor of the same Nitro generation by peak bandwidth: ${best.name} = ${best.figure.value} pps (${best.figure.provenance}, ${best.figure.source}) × ${peak}/${best.peakGbps} Gbps.${borrowed} Why bandwidth, not vCPUs: vCPU scaling from the big measured types would give a 2-vCPU type ~46 kpps, contradicting REINVENT's c7i.large (~0.9 Mpps); across the seeds the allowance is 80–124 kpps per Gbps of peak bandwidth. Where it disagrees: STRESSGRID saw the m5 quota grow with every size, but gives its per-size values only in a plot (its text names 2.2 Mpps for m5.24xlarge/metal alone), while this rule gives every m5 up to 8xlarge (all "Up to 10 Gigabit") the same 880 kpps; scaling by baseline bandwidth instead would grow with size but give a 0.78 Gbps-baseline type ~69 kpps, far below REINVENT's ~1 Mpps on c7i.large. Kept until a per-size figure is published.`,
  );
}

function buildCatalog(rows: readonly ApiRow[]): ReadonlyMap<string, InstanceTypeSpec> {
  const partial = new Map<string, Omit<InstanceTypeSpec, 'ppsAllowance' | 'ppsBidirectional'>>();
  for (const row of rows) {
    if (partial.has(row.name)) throw new Error(`duplicate instance type ${row.name}`);
    partial.set(row.name, buildWithoutPps(row));
  }
  const specs = new Map<string, InstanceTypeSpec>();
  for (const spec of partial.values()) {
    specs.set(
      spec.name,
      Object.freeze({
        ...spec,
        ppsAllowance: ppsAllowance(spec, partial),
        ppsBidirectional: PPS_BIDIRECTIONAL_FROM_SEEDS[spec.name] ?? null,
      }),
    );
  }
  return specs;
}

/** Every known instance type by API name, in catalog order (by family, then size). */
export const INSTANCE_TYPES: ReadonlyMap<string, InstanceTypeSpec> = buildCatalog([...API_ROWS, ...XEN_ROWS]);

export function getInstanceType(name: string): InstanceTypeSpec | undefined {
  return INSTANCE_TYPES.get(name);
}

export function listInstanceTypes(): readonly InstanceTypeSpec[] {
  return [...INSTANCE_TYPES.values()];
}

/** The processor of a type as DescribeInstanceTypes reports it (ProcessorInfo, VCpuInfo). */
export interface CpuTopology {
  /** ProcessorInfo.SupportedArchitectures[0]: 'arm64' on Graviton, 'x86_64' otherwise. */
  readonly architecture: Figure<'x86_64' | 'arm64'>;
  /** VCpuInfo.DefaultThreadsPerCore: 1 on Graviton (no SMT), 2 on the Intel types of the catalog. */
  readonly threadsPerCore: Figure<number>;
  /** VCpuInfo.DefaultCores = vCPUs / threads per core. */
  readonly coreCount: Figure<number>;
}

/**
 * CPU topology by family: a Graviton family has a `g` after its generation digit (c7gn, c8g). The
 * catalog's other families (c5, c5n, m5, c6i, c6in, c7i, m7i) are Intel Xeon with two threads per core.
 */
export function cpuTopology(spec: InstanceTypeSpec): CpuTopology {
  const graviton = /^[a-z]+\d+g/.test(spec.family);
  const tpc = graviton ? 1 : 2;
  const why = graviton
    ? 'Graviton: one thread per core (no SMT).'
    : 'Intel Xeon with Hyper-Threading: two threads per core.';
  return {
    architecture: documented(
      graviton ? 'arm64' : 'x86_64',
      'MOTO',
      `ProcessorInfo.SupportedArchitectures. ${why}`,
    ),
    threadsPerCore: documented(tpc, 'MOTO', `VCpuInfo.DefaultThreadsPerCore. ${why}`),
    coreCount: documented(
      spec.vcpus.value / tpc,
      'MOTO',
      'VCpuInfo.DefaultCores = DefaultVCpus / DefaultThreadsPerCore.',
    ),
  };
}

/** Queues the ENA driver exposes on one ENI by default: min(vCPUs, DefaultEnaQueueCountPerInterface). */
export function effectiveQueueCount(spec: InstanceTypeSpec): number {
  return Math.min(spec.vcpus.value, spec.defaultEnaQueuesPerEni.value);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Closest known names for an unknown one, best first, for an error message: up to 3 names within
 * edit distance 3 (case-insensitive); failing that, the known sizes of the same family; else [].
 */
export function suggestInstanceType(name: string): string[] {
  const wanted = name.trim().toLowerCase();
  if (wanted === '') return [];
  // names differing in length by more than 3 are more than 3 edits apart: a name of thousands of
  // characters (a crafted link) costs one comparison of lengths per known type, not a DP table
  const scored = [...INSTANCE_TYPES.keys()]
    .filter((known) => Math.abs(known.length - wanted.length) <= 3)
    .map((known) => ({ known, distance: editDistance(wanted, known) }))
    .filter((s) => s.distance <= 3)
    .sort((x, y) => x.distance - y.distance || x.known.localeCompare(y.known));
  if (scored.length > 0) return scored.slice(0, 3).map((s) => s.known);
  const family = wanted.length > 64 ? '' : (wanted.split('.')[0] ?? '');
  return [...INSTANCE_TYPES.values()].filter((s) => s.family === family).map((s) => s.name);
}
