/**
 * A Nitro card's configuration (the instance type's allowances, its placement's flow limits, the
 * card's own bandwidth, ENA Express) and what it reports: the flow-setup counters (lab-only) and
 * the ENA allowance counters of `ethtool -S`.
 * Sources: AWS-BW, AWS-ENAPERF, AWS-CT, ENA-BP (docs/domain-facts.md §2.1–2.6).
 */

export interface NitroConfig {
  hostName: string;
  baselineBps: number;
  peakBps: number;
  /** Seconds a full credit bucket sustains peak above baseline; 0 = no credits (fixed bandwidth). */
  burstCreditSeconds: number;
  ppsAllowance: number;
  /**
   * Where a measurement shows both directions together moving more than one alone (TOONK's
   * c5n.4xlarge: ≈ 3 Mpps RX alone, ≈ 3 + 3 Mpps forwarding): the in + out budget, and each
   * direction then stops at ppsAllowance. Absent: one budget of ppsAllowance for both directions.
   */
  ppsBidirectional?: number;
  /** Per-flow limit for flows to peers in the VPC (depends on placement). */
  flowLimitBps: number;
  /** Per-flow limit for flows through the internet gateway. */
  internetFlowLimitBps: number;
  igwLimitBps: number;
  /** Conntrack allowance of the instance (entries). */
  conntrackAllowance: number;
  /** The card's own bandwidth, each direction (NITRO_CARD_BANDWIDTH_GBPS); absent = unlimited. */
  cardBps?: number;
  /** ENA Express: the type is on AWS's list. Default: off. */
  enaExpressSupported?: boolean;
  /** ENA Express: the placement keeps the instances in the Region's VPC (not across the internet). */
  srdPlacement?: boolean;
  /**
   * The fabric's one-way delay between cards (the lab applies it after the receiving card, on the
   * way to its host); SRD's acknowledgements take it into account. Default 0.
   */
  fabricOneWayNs?: number;
  /** Per-flow limit of an SRD flow (25 Gbps, capped by the instance). */
  srdFlowLimitBps?: number;
  /**
   * The egress PPS allowance is the card's processing budget for this instance's TX: it gates the
   * ENA device's fetch from the TX rings (txGate) instead of shaping after the completion. Nitro
   * hosts with MODEL_PARAMS.nitroPpsHoldsTxFetch; default off.
   */
  txFetchGate?: boolean;
}

/** Flow-setup counters of one card (lab-only: AWS exposes none). */
export interface FlowPathStats {
  /** Packets that took the full processing path. */
  slowPathPackets: number;
  /** Packets forwarded on the accelerated path. */
  acceleratedPackets: number;
  /** Flow setups completed (a re-evaluation after a VPC mutation counts too). */
  flowSetups: number;
  /** Packets dropped by a VPC decision (route, NACL, SG) on this card. */
  vpcDeniedPackets: number;
  /** IP fragments handled (both directions): never accelerated, each takes the full path. */
  fragmentPackets: number;
}

export interface NitroCounters {
  bw_in_allowance_exceeded: number;
  bw_out_allowance_exceeded: number;
  pps_allowance_exceeded: number;
  conntrack_allowance_exceeded: number;
  linklocal_allowance_exceeded: number;
}
