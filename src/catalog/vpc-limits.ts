/**
 * VPC-wide network limits: figures that do not depend on the instance type (per-flow bandwidth,
 * internet-gateway rule, MTU, per-ENI link-local and fragment rates, conntrack timeout bounds).
 *
 * Guarantees: every figure is tagged with its provenance and source (docs/domain-facts.md §2.2, §2.4–2.7,
 * §1.6); the internet-gateway rule is a pure function of vCPUs and instance bandwidth.
 */
import { assumed, documented, type Figure } from './figure';

/**
 * Bandwidth of one Nitro card, by generation (AWS-NITRO, docs/domain-facts.md §2.9): what one ENI can move
 * in each direction whatever its allowances, so no instance receives or sends faster than its card,
 * even for 10 µs.
 */
export const NITRO_CARD_BANDWIDTH_GBPS: Readonly<Record<2 | 3 | 4 | 5 | 6, Figure<number>>> = Object.freeze({
  2: assumed(
    25,
    'REINVENT; MOTO',
    'Not published: AWS-NITRO gives no per-card figure for v2. Rule: the most any v2 type offers, 25 Gbps (MOTO: c5.18xlarge, m5.24xlarge), which the NET402 history slide also lists for C5 (Nitro v2). That slide is talk content, not a measurement.',
  ),
  3: documented(100, 'AWS-NITRO', 'Nitro v3: 100 Gbps per card.'),
  4: documented(
    170,
    'AWS-NITRO',
    'Nitro v4: 170 Gbps per card (100 for GPU/Trainium types, not in the catalog).',
  ),
  5: documented(200, 'AWS-NITRO', 'Nitro v5: 200 Gbps per card.'),
  6: documented(400, 'AWS-NITRO', 'Nitro v6: up to 400 Gbps per card.'),
});

/** Single-flow (5-tuple; 3-tuple for GRE/IPsec) bandwidth caps, Gbps. Always also capped by the instance. */
export const PER_FLOW_LIMIT_GBPS: {
  readonly outsideClusterPlacementGroup: Figure<number>;
  readonly insideClusterPlacementGroup: Figure<number>;
  readonly enaExpress: Figure<number>;
} = Object.freeze({
  outsideClusterPlacementGroup: documented(
    5,
    'AWS-BW; REINVENT',
    'REINVENT slide "Single flow Specifications: External Flow – 5Gbps". Applies when the two instances are not in the same cluster placement group.',
  ),
  insideClusterPlacementGroup: documented(
    10,
    'AWS-BW; REINVENT',
    'REINVENT "Cluster Placement Group – 10Gbps"; REINVENT c7i.large single flow measured 9.54 Gbps.',
  ),
  enaExpress: documented(
    25,
    'AWS-ENAX; AWS-BW; REINVENT',
    'ENA Express (SRD) raises the single-flow limit to 25 Gbps, still capped by the instance aggregate (AWS-ENAX example: 12.5 Gbps instance → 12.5 Gbps flow).',
  ),
});

/** The IGW/LGW multi-flow rule, as data, for display next to the computed value. */
export const INTERNET_GATEWAY_RULE: Figure<{
  readonly minVcpusForHalfBandwidth: number;
  readonly fractionOfInstanceBandwidth: number;
  readonly floorGbps: number;
}> = documented(
  Object.freeze({ minVcpusForHalfBandwidth: 32, fractionOfInstanceBandwidth: 0.5, floorGbps: 5 }),
  'AWS-BW',
  'Current wording: traffic to an internet gateway or local gateway: ≥ 32 vCPUs → 50% of instance bandwidth or 5 Gbps, whichever is larger; < 32 vCPUs → 5 Gbps. The 2023 text also applied it to other Regions and Direct Connect (docs/domain-facts.md §2.2, §8.7).',
);

/**
 * Aggregate bandwidth an instance may send through an internet (or local) gateway, Gbps.
 * Never more than the instance's own bandwidth (an instance cannot exceed its aggregate).
 * Example from AWS-BW: m5.16xlarge (64 vCPU, 20 Gbps) → 10 Gbps.
 */
export function internetGatewayBandwidthGbps(vcpus: number, instanceBandwidthGbps: number): number {
  const rule = INTERNET_GATEWAY_RULE.value;
  const allowed =
    vcpus >= rule.minVcpusForHalfBandwidth
      ? Math.max(rule.fractionOfInstanceBandwidth * instanceBandwidthGbps, rule.floorGbps)
      : rule.floorGbps;
  return Math.min(allowed, instanceBandwidthGbps);
}

/** MTUs, bytes (IP MTU as set with `ip link set mtu`). */
export const MTU_BYTES: {
  readonly withinVpc: Figure<number>;
  readonly viaInternetGateway: Figure<number>;
} = Object.freeze({
  withinVpc: documented(
    9001,
    'AWS network_mtu doc (docs/domain-facts.md §2.6); STRESSGRID',
    'Jumbo frames inside the VPC (and intra-Region peering). STRESSGRID: "In the case of internal EC2 network, the MTU is 9001 bytes".',
  ),
  viaInternetGateway: documented(
    1500,
    'AWS network_mtu doc (docs/domain-facts.md §2.6)',
    'Traffic through an internet gateway, inter-Region peering or VPN is limited to 1500.',
  ),
});

/** Packets per second to link-local services (Amazon DNS, IMDS, Time Sync) allowed per ENI. */
export const LINK_LOCAL_PPS_PER_ENI: Figure<number> = documented(
  1024,
  'VPC-UG (DNS quotas); AWS-ENAPERF',
  'VPC-UG states 1024 pps per network interface to the Route 53 Resolver (.2 / 169.254.169.253). AWS-ENAPERF: linklocal_allowance_exceeded covers DNS, IMDS and Time Sync per interface. The ElastiCache UG says the 1024 pps is shared by all these services, which is how it is modelled (one budget per ENI). Excess is dropped.',
);

/** Egress IP fragments allowed per ENI, packets/s (unless the driver's fragment bypass is on). */
export const EGRESS_FRAGMENT_PPS_PER_ENI: Figure<number> = documented(
  1024,
  'ENA-BP; AWS-ENAPERF',
  'ENA-BP "Managing High Volume of Egress Fragmented Packets": 1024 PPS per network interface; excess is dropped and counted in pps_allowance_exceeded. Driver ≥ 2.13.3 enable_frag_bypass lifts it (fragments then count against the normal PPS allowance).',
);

/** Configurable conntrack idle-timeout bounds (seconds), per ENI, Nitro only. Defaults are per type. */
export const CONNTRACK_TIMEOUT_BOUNDS_SECONDS: {
  readonly tcpEstablished: Figure<{ readonly min: number; readonly max: number }>;
  readonly udpStream: Figure<{ readonly min: number; readonly max: number }>;
  readonly udp: Figure<{ readonly min: number; readonly max: number }>;
} = Object.freeze({
  tcpEstablished: documented(Object.freeze({ min: 60, max: 432_000 }), 'AWS-CT'),
  udpStream: documented(
    Object.freeze({ min: 60, max: 180 }),
    'AWS-CT; MOTO',
    'REINVENT slide shows max 60 s; AWS docs and the API say 180 s. The AWS value is used (docs/domain-facts.md §8.2).',
  ),
  udp: documented(Object.freeze({ min: 30, max: 60 }), 'AWS-CT'),
});
