/**
 * Pure VPC rule evaluation: route tables, network ACLs, security groups, tracked vs untracked, and
 * conntrack idle timeouts. Every function is a pure function of the VPC data (in the EC2 API's
 * shapes, scenario/vpc.ts) and a packet's tuple, so the Nitro card can call them on the first
 * packet of a flow and tests can check them against the documentation's examples.
 *
 * Sources: VPC-UG (vpc-network-acls), AWS-CT (docs/domain-facts.md §2.5–2.6). The semantics rule by
 * rule: docs/design.md, "VPC rules".
 */
import type { ConntrackTimeouts, InstanceTypeSpec } from '../../catalog';
import {
  type Cidr,
  type ConnectionTrackingSpecification,
  cidrContains,
  type IpPermission,
  type NaclEntryShape,
  type NetworkAcl,
  parseCidr,
  parseIpv4,
  type Route,
  type RouteTable,
  type SecurityGroup,
} from '../../scenario/vpc';

/** IP protocol of a packet: the ones the model carries by name ('gre' = 47), any other by number. */
export type IpProto = 'tcp' | 'udp' | 'icmp' | 'gre' | number;

/** What the VPC rules look at in a packet. ICMP: type/code (default echo request 8/0). */
export interface VpcTuple {
  readonly proto: IpProto;
  readonly srcIp: string;
  readonly dstIp: string;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly icmpType?: number;
  readonly icmpCode?: number;
}

export type Direction = 'ingress' | 'egress';

const protoNumber = (p: IpProto): number =>
  p === 'tcp' ? 6 : p === 'udp' ? 17 : p === 'icmp' ? 1 : p === 'gre' ? 47 : p;

const cidrCache = new Map<string, Cidr | null>();
function cidr(s: string): Cidr | null {
  let c = cidrCache.get(s);
  if (c === undefined) {
    c = parseCidr(s);
    if (cidrCache.size > 4096) cidrCache.clear();
    cidrCache.set(s, c);
  }
  return c;
}

function ipNum(s: string): number {
  const n = parseIpv4(s);
  if (n === null) throw new Error(`not an IPv4 address: ${s}`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// Route table
// ---------------------------------------------------------------------------------------------

export type RouteTarget =
  | { kind: 'local' }
  | { kind: 'igw'; id: string }
  | { kind: 'nat'; id: string }
  | { kind: 'eni'; id: string };

export interface RouteMatch {
  route: Route;
  target: RouteTarget;
}

/**
 * Longest-prefix match of `dstIp` in the table. The local route (`vpcCidr` → local) is always
 * considered even if the table data lacks it. Blackhole routes match (and drop); null = no route.
 */
export function routeLookup(table: RouteTable, dstIp: string, vpcCidr?: string): RouteMatch | null {
  const ip = ipNum(dstIp);
  let best: Route | null = null;
  let bestPrefix = -1;
  const routes =
    vpcCidr !== undefined && !table.Routes.some((r) => r.GatewayId === 'local')
      ? [
          {
            DestinationCidrBlock: vpcCidr,
            GatewayId: 'local',
            State: 'active' as const,
            Origin: 'CreateRouteTable' as const,
          },
          ...table.Routes,
        ]
      : table.Routes;
  for (const r of routes) {
    const c = cidr(r.DestinationCidrBlock);
    if (!c || !cidrContains(c, ip)) continue;
    if (c.prefix > bestPrefix) {
      best = r;
      bestPrefix = c.prefix;
    }
  }
  if (!best) return null;
  return { route: best, target: routeTarget(best) };
}

export function routeTarget(r: Route): RouteTarget {
  if (r.GatewayId === 'local') return { kind: 'local' };
  if (r.GatewayId !== undefined) return { kind: 'igw', id: r.GatewayId };
  if (r.NatGatewayId !== undefined) return { kind: 'nat', id: r.NatGatewayId };
  return { kind: 'eni', id: r.NetworkInterfaceId ?? '' };
}

// ---------------------------------------------------------------------------------------------
// Network ACL
// ---------------------------------------------------------------------------------------------

export interface NaclResult {
  action: 'allow' | 'deny';
  /** The rule that decided; '*' is the implicit deny-all (RuleNumber 32767 in the API). */
  ruleNumber: number | '*';
  entry?: NaclEntryShape;
}

function naclEntryMatches(e: NaclEntryShape, direction: Direction, t: VpcTuple): boolean {
  const c = cidr(e.CidrBlock);
  if (!c || !cidrContains(c, ipNum(direction === 'ingress' ? t.srcIp : t.dstIp))) return false;
  if (e.Protocol === '-1') return true;
  const p = protoNumber(t.proto);
  if (Number(e.Protocol) !== p) return false;
  if (p === 6 || p === 17) {
    return e.PortRange === undefined || (t.dstPort >= e.PortRange.From && t.dstPort <= e.PortRange.To);
  }
  if (p === 1 && e.IcmpTypeCode) {
    const type = t.icmpType ?? 8;
    const code = t.icmpCode ?? 0;
    return (
      (e.IcmpTypeCode.Type === -1 || e.IcmpTypeCode.Type === type) &&
      (e.IcmpTypeCode.Code === -1 || e.IcmpTypeCode.Code === code)
    );
  }
  return true;
}

/** Lowest rule number first, first match wins, `*` deny when nothing matches. */
export function evaluateNacl(acl: NetworkAcl, direction: Direction, tuple: VpcTuple): NaclResult {
  const egress = direction === 'egress';
  const entries = acl.Entries.filter((e) => e.Egress === egress).sort((a, b) => a.RuleNumber - b.RuleNumber);
  for (const e of entries) {
    if (naclEntryMatches(e, direction, tuple))
      return { action: e.RuleAction, ruleNumber: e.RuleNumber, entry: e };
  }
  return { action: 'deny', ruleNumber: '*' };
}

// ---------------------------------------------------------------------------------------------
// Security groups
// ---------------------------------------------------------------------------------------------

export interface SgRuleRef {
  groupId: string;
  /** Index in IpPermissions / IpPermissionsEgress. */
  index: number;
  permission: IpPermission;
  /** What matched the peer: a CIDR (`0.0.0.0/0`) or a group ID (`sg-…`). */
  peer: string;
}

export interface SgResult {
  allowed: boolean;
  matchedRule?: SgRuleRef;
}

/** Whether a permission's protocol and ports cover the packet (ports = the destination port). */
export function permissionCoversPacket(p: IpPermission, t: VpcTuple): boolean {
  if (p.IpProtocol === '-1') return true;
  const proto = protoNumber(t.proto);
  const ruleProto =
    p.IpProtocol === 'tcp'
      ? 6
      : p.IpProtocol === 'udp'
        ? 17
        : p.IpProtocol === 'icmp'
          ? 1
          : Number(p.IpProtocol);
  if (ruleProto !== proto) return false;
  if (proto === 6 || proto === 17) {
    return t.dstPort >= (p.FromPort ?? 0) && t.dstPort <= (p.ToPort ?? 65535);
  }
  if (proto === 1) {
    const type = t.icmpType ?? 8;
    const code = t.icmpCode ?? 0;
    const ft = p.FromPort ?? -1;
    const fc = p.ToPort ?? -1;
    return (ft === -1 || ft === type) && (fc === -1 || fc === code);
  }
  return true;
}

function peerMatch(p: IpPermission, peerIp: number, peerGroupIds: readonly string[]): string | null {
  for (const r of p.IpRanges) {
    const c = cidr(r.CidrIp);
    if (c && cidrContains(c, peerIp)) return r.CidrIp;
  }
  for (const u of p.UserIdGroupPairs) if (peerGroupIds.includes(u.GroupId)) return u.GroupId;
  return null;
}

/**
 * Stateful, allow-only: the packet is allowed when any rule of any group allows it. Inbound rules
 * are matched against the source (CIDR, or the sender's groups `peerGroupIds`), outbound rules
 * against the destination. The first matching rule (group order, rule order) is reported.
 */
export function evaluateSecurityGroups(
  groups: readonly SecurityGroup[],
  direction: Direction,
  tuple: VpcTuple,
  peerGroupIds: readonly string[] = [],
): SgResult {
  const peerIp = ipNum(direction === 'ingress' ? tuple.srcIp : tuple.dstIp);
  for (const g of groups) {
    const perms = direction === 'ingress' ? g.IpPermissions : g.IpPermissionsEgress;
    for (let i = 0; i < perms.length; i++) {
      const p = perms[i]!;
      if (!permissionCoversPacket(p, tuple)) continue;
      const peer = peerMatch(p, peerIp, peerGroupIds);
      if (peer !== null)
        return { allowed: true, matchedRule: { groupId: g.GroupId, index: i, permission: p, peer } };
    }
  }
  return { allowed: false };
}

/** Human form of an SG rule for traces: `sg-… inbound tcp 443 from 0.0.0.0/0`. */
export function describeSgRule(r: SgRuleRef, direction: Direction): string {
  const p = r.permission;
  const proto = p.IpProtocol === '-1' ? 'all' : p.IpProtocol;
  const ports =
    p.IpProtocol === '-1' || p.FromPort === undefined
      ? ''
      : p.FromPort === p.ToPort
        ? ` ${p.FromPort}`
        : ` ${p.FromPort}-${p.ToPort}`;
  return `${r.groupId} ${direction === 'ingress' ? 'inbound' : 'outbound'} ${proto}${ports} ${direction === 'ingress' ? 'from' : 'to'} ${r.peer}`;
}

// ---------------------------------------------------------------------------------------------
// Tracked vs untracked
// ---------------------------------------------------------------------------------------------

const OPEN_V4 = '0.0.0.0/0';
const OPEN_V6 = '::/0';

function openToAll(p: IpPermission): boolean {
  return p.IpRanges.some((r) => r.CidrIp === OPEN_V4) || p.Ipv6Ranges.some((r) => r.CidrIpv6 === OPEN_V6);
}

/** Whether a permission allows every port of `proto` (or every protocol). */
function allPortsOf(p: IpPermission, proto: 'tcp' | 'udp'): boolean {
  if (p.IpProtocol === '-1') return true;
  return p.IpProtocol === proto && (p.FromPort ?? 0) <= 0 && (p.ToPort ?? 65535) >= 65535;
}

export interface TrackingDecision {
  tracked: boolean;
  reason: string;
}

/**
 * Tracked or untracked, per AWS-CT, for a flow whose first packet crossed this ENI in `opened`
 * direction ('ingress' = opened towards the instance). `groups` are the ENI's security groups.
 */
export function trackingDecision(
  groups: readonly SecurityGroup[],
  tuple: VpcTuple,
  opened: Direction,
): TrackingDecision {
  if (tuple.proto === 'icmp') return { tracked: true, reason: 'ICMP is always tracked' };
  if (tuple.proto !== 'tcp' && tuple.proto !== 'udp')
    return {
      tracked: true,
      reason: 'protocols other than TCP/UDP/ICMP are tracked by IP address and protocol',
    };
  const fwd = opened === 'ingress' ? 'IpPermissions' : 'IpPermissionsEgress';
  const rev = opened === 'ingress' ? 'IpPermissionsEgress' : 'IpPermissions';
  const forwardOpen = groups.some((g) =>
    g[fwd].some((p) => openToAll(p) && permissionCoversPacket(p, tuple)),
  );
  if (!forwardOpen)
    return {
      tracked: true,
      reason: `no ${opened === 'ingress' ? 'inbound' : 'outbound'} rule allows this flow ${opened === 'ingress' ? 'from' : 'to'} 0.0.0.0/0`,
    };
  const proto = tuple.proto;
  const reverseOpen = groups.some((g) => g[rev].some((p) => openToAll(p) && allPortsOf(p, proto)));
  if (!reverseOpen)
    return {
      tracked: true,
      reason: `no ${opened === 'ingress' ? 'outbound' : 'inbound'} rule allows all ${proto.toUpperCase()} response traffic ${opened === 'ingress' ? 'to' : 'from'} 0.0.0.0/0`,
    };
  return {
    tracked: false,
    reason: 'rules allow it from/to 0.0.0.0/0 in both directions (all ports for responses)',
  };
}

/** Shorthand of trackingDecision (the "Untracked Connections" slide: TCP 22 tracked, TCP 80 untracked, ICMP tracked). */
export function isTracked(
  groups: readonly SecurityGroup[],
  tuple: VpcTuple,
  opened: Direction = 'ingress',
): boolean {
  return trackingDecision(groups, tuple, opened).tracked;
}

// ---------------------------------------------------------------------------------------------
// Conntrack idle timeouts
// ---------------------------------------------------------------------------------------------

export interface EffectiveConntrackTimeouts {
  tcpEstablishedS: number;
  udpS: number;
  udpStreamS: number;
}

/**
 * The ENI's idle timeouts: what ModifyNetworkInterfaceAttribute set, else the type's defaults
 * (AWS-CT: TCP established 432000 s, UDP 30 s, UDP stream 180 s; Nitro v6 TCP 350 s).
 */
export function effectiveConntrackTimeouts(
  defaults: ConntrackTimeouts | InstanceTypeSpec,
  spec: ConnectionTrackingSpecification,
): EffectiveConntrackTimeouts {
  const d = 'conntrackTimeouts' in defaults ? defaults.conntrackTimeouts : defaults;
  return {
    tcpEstablishedS: spec.TcpEstablishedTimeout ?? d.tcpEstablishedSeconds.value,
    udpS: spec.UdpTimeout ?? d.udpSeconds.value,
    udpStreamS: spec.UdpStreamTimeout ?? d.udpStreamSeconds.value,
  };
}

/**
 * Other protocols: AWS-CT says return traffic is accepted "within 600 seconds". ICMP has no
 * published idle timeout; assumed equal to the UDP timeout (a request/response protocol too).
 */
export const OTHER_PROTOCOL_TIMEOUT_S = 600;

/** The idle timeout that applies to a new flow of `proto` (UDP starts as non-stream). */
export function flowIdleTimeoutS(t: EffectiveConntrackTimeouts, proto: IpProto, udpStream = false): number {
  if (proto === 'tcp') return t.tcpEstablishedS;
  if (proto === 'udp') return udpStream ? t.udpStreamS : t.udpS;
  if (proto === 'icmp') return t.udpS;
  return OTHER_PROTOCOL_TIMEOUT_S;
}
