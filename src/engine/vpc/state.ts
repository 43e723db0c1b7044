/**
 * The lab's VPC control plane at run time: a mutable copy of the scenario's VPC and ENIs that the
 * `aws ec2` commands change, with a mutation epoch and log, and `evaluateFlow`, the stage-by-stage
 * decision the Nitro card takes on the first packet of a flow (route → NACL out → SG out → NACL in
 * → SG in, then tracked/untracked and the idle timeout).
 *
 * Guarantees: one VpcState per lab (a WeakMap keyed by the lab, created on first use from
 * `lab.scenario`, which is never modified); every successful change bumps `mutationEpoch` by one
 * and appends a record with the simulated time, so the packet path can invalidate flow caches and
 * conntrack decisions made under an older epoch. Pure data and pure evaluation: no events, no
 * clock other than the lab's simulated time, no randomness.
 */
import { getInstanceType, type InstanceTypeSpec } from '../../catalog';
import type { Scenario } from '../../scenario/schema';
import {
  type ConnectionTrackingSpecification,
  cidrContains,
  type EnaSrdSpecification,
  type NetworkAcl,
  parseCidr,
  parseIpv4,
  resourceId,
  type RouteTable,
  type SecurityGroup,
  type Subnet,
  type Vpc,
} from '../../scenario/vpc';
import {
  type Direction,
  describeSgRule,
  type EffectiveConntrackTimeouts,
  effectiveConntrackTimeouts,
  evaluateNacl,
  evaluateSecurityGroups,
  flowIdleTimeoutS,
  routeLookup,
  trackingDecision,
  type VpcTuple,
} from './rules';

/**
 * One network interface. Each instance has its primary one (device index 0, eth0); secondary ones
 * (device index 1…, eth1…) are attached from the scenario or by AttachNetworkInterface, and an
 * interface made by CreateNetworkInterface is 'available' (no instance) until attached.
 */
export interface Eni {
  /** The instance it is attached to ('' while available). */
  instanceName: string;
  instanceType: string;
  /** The instance's type (for an available interface: the type of the instance it was made beside). */
  spec: InstanceTypeSpec;
  instanceId: string;
  readonly eniId: string;
  readonly ip: string;
  readonly secondaryIps: readonly string[];
  readonly subnetId: string;
  securityGroups: string[];
  enaSrd: EnaSrdSpecification;
  connectionTracking: ConnectionTrackingSpecification;
  /** Attachment.DeviceIndex (0: the primary interface, eth0); -1 while available. */
  deviceIndex: number;
  /** Attachment.AttachmentId ('' while available). */
  attachmentId: string;
  /** Attachment.AttachTime, simulated ns. */
  attachedAtNs: number;
  /** Description (CreateNetworkInterface --description). */
  description: string;
  /** SourceDestCheck: the card drops what the interface sends from, or receives for, an address not its own. */
  sourceDestCheck: boolean;
}

export type MutationKind = 'security-group' | 'network-acl' | 'route-table' | 'network-interface';

export interface VpcMutation {
  /** The epoch this mutation created (mutationEpoch after it). */
  epoch: number;
  atNs: number;
  kind: MutationKind;
  /** The resource changed (sg-…, acl-…, rtb-…, eni-…). */
  resourceId: string;
  /** The API operation, e.g. 'RevokeSecurityGroupIngress'. */
  operation: string;
}

/** Link-local services: not filtered by security groups or NACLs (AWS-CT note; VPC-UG DNS). */
export const LINK_LOCAL_SERVICES: Readonly<Record<string, string>> = Object.freeze({
  '169.254.169.253': 'Amazon DNS (Route 53 Resolver)',
  '169.254.169.254': 'instance metadata service (IMDS)',
  '169.254.169.123': 'Amazon Time Sync Service',
});

export class VpcState {
  /** The VPC as the API would describe it now (mutated by the aws commands). */
  readonly vpc: Vpc;
  readonly enis: Eni[];
  readonly client: { name: string; ip: string } | undefined;
  mutationEpoch = 0;
  readonly mutations: VpcMutation[] = [];

  constructor(
    scenario: Pick<Scenario, 'vpc' | 'instances' | 'client'> & { readonly seed?: number },
    private readonly clock: () => number = () => 0,
  ) {
    this.vpc = structuredClone(scenario.vpc);
    this.client = scenario.client ? { ...scenario.client } : undefined;
    this.enis = scenario.instances.map((inst) => {
      const spec = getInstanceType(inst.type);
      if (!spec) throw new Error(`unknown instance type ${inst.type}`); // the schema rejects these
      return {
        instanceName: inst.name,
        instanceType: inst.type,
        spec,
        instanceId: inst.instanceId,
        eniId: inst.eniId,
        ip: inst.ip,
        secondaryIps: [...inst.secondaryIps],
        subnetId: inst.subnet,
        securityGroups: [...inst.securityGroups],
        enaSrd: structuredClone(inst.enaSrd),
        connectionTracking: { ...inst.connectionTracking },
        deviceIndex: 0,
        attachmentId: resourceId('eni-attach', scenario.seed ?? 1, inst.eniId),
        attachedAtNs: 0,
        description: '',
        sourceDestCheck: inst.sourceDestCheck ?? true,
      } satisfies Eni;
    });
    // the secondary interfaces the scenario attaches at launch (device index 1 …)
    for (const inst of scenario.instances) {
      const primary = this.eniOfInstance(inst.name)!;
      for (const n of inst.networkInterfaces ?? [])
        this.enis.push({
          ...primary,
          eniId: n.eniId,
          ip: n.ip,
          secondaryIps: [...n.secondaryIps],
          subnetId: n.subnet,
          securityGroups: [...n.securityGroups],
          enaSrd: { EnaSrdEnabled: false, EnaSrdUdpSpecification: { EnaSrdUdpEnabled: false } },
          connectionTracking: {},
          deviceIndex: n.deviceIndex,
          attachmentId: resourceId('eni-attach', scenario.seed ?? 1, n.eniId),
          attachedAtNs: 0,
          description: n.description,
          sourceDestCheck: n.sourceDestCheck,
        });
    }
  }

  /** Record a successful change: bump the epoch, log it at the current simulated time. */
  recordMutation(kind: MutationKind, resourceId: string, operation: string): VpcMutation {
    this.mutationEpoch++;
    const m: VpcMutation = { epoch: this.mutationEpoch, atNs: this.clock(), kind, resourceId, operation };
    this.mutations.push(m);
    return m;
  }

  group(id: string): SecurityGroup | undefined {
    return this.vpc.SecurityGroups.find((g) => g.GroupId === id);
  }

  groups(ids: readonly string[]): SecurityGroup[] {
    return ids.map((id) => this.group(id)).filter((g): g is SecurityGroup => g !== undefined);
  }

  networkAcl(id: string): NetworkAcl | undefined {
    return this.vpc.NetworkAcls.find((a) => a.NetworkAclId === id);
  }

  routeTable(id: string): RouteTable | undefined {
    return this.vpc.RouteTables.find((t) => t.RouteTableId === id);
  }

  subnet(id: string): Subnet | undefined {
    return this.vpc.Subnets.find((s) => s.SubnetId === id);
  }

  /** The subnet's route table: its explicit association, else the main table. */
  routeTableOfSubnet(subnetId: string): RouteTable {
    const explicit = this.vpc.RouteTables.find((t) => t.Associations.some((a) => a.SubnetId === subnetId));
    const main = this.vpc.RouteTables.find((t) => t.Associations.some((a) => a.Main));
    return (explicit ?? main ?? this.vpc.RouteTables[0])!;
  }

  /** The subnet's network ACL: its association, else the default ACL. */
  networkAclOfSubnet(subnetId: string): NetworkAcl {
    const explicit = this.vpc.NetworkAcls.find((a) => a.Associations.some((s) => s.SubnetId === subnetId));
    return (explicit ?? this.vpc.NetworkAcls.find((a) => a.IsDefault) ?? this.vpc.NetworkAcls[0])!;
  }

  /** The instance's primary interface (device index 0). */
  eniOfInstance(name: string): Eni | undefined {
    return this.enis.find((e) => e.instanceName === name && e.deviceIndex === 0);
  }

  /** The interfaces attached to an instance, by device index. */
  enisOfInstance(name: string): Eni[] {
    return this.enis.filter((e) => e.instanceName === name).sort((a, b) => a.deviceIndex - b.deviceIndex);
  }

  eniById(id: string): Eni | undefined {
    return this.enis.find((e) => e.eniId === id);
  }

  /** The ENI holding `ip` as its primary or a secondary private address. */
  eniByIp(ip: string): Eni | undefined {
    return this.enis.find((e) => e.deviceIndex >= 0 && (e.ip === ip || e.secondaryIps.includes(ip)));
  }

  timeouts(eni: Eni): EffectiveConntrackTimeouts {
    return effectiveConntrackTimeouts(eni.spec, eni.connectionTracking);
  }

  /** The VPC resolver's in-VPC address (VPC base + 2). */
  resolverIp(): string {
    const c = parseCidr(this.vpc.CidrBlock);
    const n = (c?.network ?? 0) + 2;
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  }
}

const states = new WeakMap<object, VpcState>();

/** The lab's VPC state, created from `lab.scenario` on first use. */
export function vpcState(lab: { readonly scenario: Scenario; readonly nowNs: number }): VpcState {
  let s = states.get(lab);
  if (!s) {
    s = new VpcState(lab.scenario, () => lab.nowNs);
    states.set(lab, s);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Flow evaluation
// ---------------------------------------------------------------------------------------------

export type FlowStage = 'route' | 'nacl-out' | 'sg-out' | 'nacl-in' | 'sg-in';

export interface StageDecision {
  stage: FlowStage;
  /** 'allow' / 'deny' for filters; 'skipped' for a NACL within one subnet; 'drop' for a missing route. */
  result: 'allow' | 'deny' | 'skipped' | 'drop';
  /**
   * What decided, for traces: the route (`10.0.0.0/16 → local`), the NACL rule (100, '*'), the SG
   * rule (`sg-… inbound all from sg-…`), or why the stage was skipped / the packet dropped.
   */
  rule: string;
  /** The resource evaluated (rtb-…, acl-…, eni-…). */
  resourceId?: string;
  /** NACL: the rule number that decided ('*' = default deny). */
  ruleNumber?: number | '*';
}

export interface ConntrackEnd {
  instance: string;
  eniId: string;
  /** The direction the flow was opened in, seen from this ENI. */
  opened: Direction;
  tracked: boolean;
  reason: string;
  /** Idle timeout of the new flow on this ENI (UDP: the non-stream timeout), seconds. */
  timeoutS: number;
}

export interface FlowDecision {
  allowed: boolean;
  stages: StageDecision[];
  /** Tracked on at least one end (each ENI has its own conntrack table). */
  tracked: boolean;
  /** Smallest idle timeout among the tracked ends; null when untracked everywhere or dropped. */
  timeoutS: number | null;
  /** Per-ENI conntrack decisions (the sending ENI first); empty for dropped flows. */
  conntrack: ConntrackEnd[];
  /** Where the packet goes: an instance name, 'internet' (via the IGW) or a link-local service. */
  destination:
    | { kind: 'instance'; instance: string }
    | { kind: 'internet' }
    | { kind: 'link-local'; service: string };
  /** ENA Express applies: both ENIs enabled (UDP: UDP enabled too), in the Region (AWS-ENAX). */
  enaExpress: boolean;
  /** The epoch the decision was taken under (re-evaluate when state.mutationEpoch differs). */
  epoch: number;
}

const routeText = (dest: string, target: string) => `${dest} → ${target}`;

/**
 * One side of a flow's evaluation: the subnet's network ACL (skipped within one subnet: NACLs apply
 * only when traffic leaves or enters a subnet) and the ENI's security groups, in that order, stopping
 * at the first deny. `peerGroups` are the other end's groups (for rules that reference a group).
 * Used by `evaluateFlow` for both sides and by the Nitro card when only its own side is re-evaluated.
 */
export function evaluateSide(
  state: VpcState,
  direction: 'egress' | 'ingress',
  eni: Eni,
  peerGroups: readonly string[],
  sameSubnet: boolean,
  tuple: VpcTuple,
): { allowed: boolean; stages: StageDecision[] } {
  const out = direction === 'egress';
  const naclStage = out ? 'nacl-out' : 'nacl-in';
  const stages: StageDecision[] = [];
  const acl = state.networkAclOfSubnet(eni.subnetId);
  if (sameSubnet) {
    stages.push({
      stage: naclStage,
      result: 'skipped',
      rule: `same subnet: NACLs apply only when traffic ${out ? 'leaves' : 'enters'} a subnet`,
      resourceId: acl.NetworkAclId,
    });
  } else {
    const r = evaluateNacl(acl, direction, tuple);
    stages.push({
      stage: naclStage,
      result: r.action,
      rule: `rule ${r.ruleNumber} ${r.action}`,
      resourceId: acl.NetworkAclId,
      ruleNumber: r.ruleNumber,
    });
    if (r.action === 'deny') return { allowed: false, stages };
  }
  const sg = evaluateSecurityGroups(state.groups(eni.securityGroups), direction, tuple, peerGroups);
  stages.push({
    stage: out ? 'sg-out' : 'sg-in',
    result: sg.allowed ? 'allow' : 'deny',
    rule: sg.matchedRule
      ? describeSgRule(sg.matchedRule, direction)
      : `no ${out ? 'outbound' : 'inbound'} rule allows it`,
    resourceId: eni.eniId,
  });
  return { allowed: sg.allowed, stages };
}

/**
 * The full evaluation a flow's first packet gets, from `src` (an instance name, or the outside
 * client's name) to `dstIp`. Stages that do not apply are left out (traffic from the internet has
 * no sending ENI; traffic to the internet no receiving one); NACLs within one subnet are 'skipped'
 * ("We evaluate the network ACL rules when traffic enters and leaves the subnet, not as it is
 * routed within a subnet", VPC-UG). Evaluation stops at the first deny or drop.
 */
export function evaluateFlow(
  state: VpcState,
  src: string | { readonly name: string },
  dstIp: string,
  tuple: VpcTuple,
): FlowDecision {
  const srcName = typeof src === 'string' ? src : src.name;
  const stages: StageDecision[] = [];
  // the sending interface: the instance's interface holding the source address (a secondary ENI's
  // own subnet and groups apply to what leaves by it), else its primary one
  const bySrc = state.eniByIp(tuple.srcIp);
  const srcEni = bySrc !== undefined && bySrc.instanceName === srcName ? bySrc : state.eniOfInstance(srcName);
  const fromInternet = !srcEni && state.client?.name === srcName;
  const base = { epoch: state.mutationEpoch, enaExpress: false };
  const dropped = (destination: FlowDecision['destination']): FlowDecision => ({
    ...base,
    allowed: false,
    stages,
    tracked: false,
    timeoutS: null,
    conntrack: [],
    destination,
  });
  if (!srcEni && !fromInternet) throw new Error(`evaluateFlow: unknown source ${srcName}`);
  const dstNum = parseIpv4(dstIp);
  if (dstNum === null) throw new Error(`evaluateFlow: not an IPv4 address: ${dstIp}`);

  // Link-local services and the VPC resolver: never filtered by NACLs or security groups.
  const linkLocal =
    LINK_LOCAL_SERVICES[dstIp] ?? (dstIp === state.resolverIp() ? 'Amazon DNS (VPC +2 resolver)' : undefined);
  if (srcEni && linkLocal) {
    stages.push({
      stage: 'route',
      result: 'allow',
      rule: `${dstIp} → ${linkLocal} (link-local, not filtered)`,
    });
    return {
      ...base,
      allowed: true,
      stages,
      tracked: false,
      timeoutS: null,
      conntrack: [],
      destination: { kind: 'link-local', service: linkLocal },
    };
  }

  // route
  let dstEni = state.eniByIp(dstIp);
  const vpcCidr = parseCidr(state.vpc.CidrBlock)!;
  if (srcEni) {
    const table = state.routeTableOfSubnet(srcEni.subnetId);
    const m = routeLookup(table, dstIp, state.vpc.CidrBlock);
    if (!m) {
      stages.push({
        stage: 'route',
        result: 'drop',
        rule: `no route to ${dstIp}`,
        resourceId: table.RouteTableId,
      });
      return dropped({ kind: 'internet' });
    }
    const target =
      m.target.kind === 'local'
        ? 'local'
        : m.target.kind === 'igw' || m.target.kind === 'nat' || m.target.kind === 'eni'
          ? m.target.id
          : '';
    const rule = routeText(m.route.DestinationCidrBlock, target);
    if (m.route.State === 'blackhole') {
      stages.push({
        stage: 'route',
        result: 'drop',
        rule: `${rule} (blackhole)`,
        resourceId: table.RouteTableId,
      });
      return dropped({ kind: 'internet' });
    }
    if (m.target.kind === 'nat') {
      stages.push({
        stage: 'route',
        result: 'drop',
        rule: `${rule}: routing through a NAT gateway is not simulated in ec2-netlab`,
        resourceId: table.RouteTableId,
      });
      return dropped({ kind: 'internet' });
    }
    if (m.target.kind === 'eni') {
      // middlebox routing: the packet goes to the target interface (a router), whatever its address
      const via = state.eniById(m.target.id);
      if (via === undefined || via.deviceIndex < 0 || via === srcEni) {
        stages.push({
          stage: 'route',
          result: 'drop',
          rule: `${rule}: ${via === srcEni ? 'the route leads back to the sending interface' : 'the interface is not attached (blackhole)'}`,
          resourceId: table.RouteTableId,
        });
        return dropped({ kind: 'internet' });
      }
      dstEni = via;
    }
    if (m.target.kind === 'local' && !dstEni) {
      stages.push({
        stage: 'route',
        result: 'drop',
        rule: `${rule}: no network interface has ${dstIp}`,
        resourceId: table.RouteTableId,
      });
      return dropped({ kind: 'internet' });
    }
    // through the internet gateway the packet leaves the VPC: no receiving ENI, no ingress stages
    if (m.target.kind === 'igw') dstEni = undefined;
    stages.push({ stage: 'route', result: 'allow', rule, resourceId: table.RouteTableId });
  } else {
    // from the internet: the IGW delivers to the VPC router, the local route reaches the ENI
    if (!cidrContains(vpcCidr, dstNum) || !dstEni) {
      stages.push({ stage: 'route', result: 'drop', rule: `no network interface in the VPC has ${dstIp}` });
      return dropped({ kind: 'internet' });
    }
    stages.push({
      stage: 'route',
      result: 'allow',
      rule: routeText(state.vpc.CidrBlock, 'local (from the internet gateway)'),
    });
  }
  const destination: FlowDecision['destination'] = dstEni
    ? { kind: 'instance', instance: dstEni.instanceName }
    : { kind: 'internet' };
  const sameSubnet = srcEni !== undefined && dstEni !== undefined && srcEni.subnetId === dstEni.subnetId;

  // egress side, then ingress side
  if (srcEni) {
    const out = evaluateSide(state, 'egress', srcEni, dstEni?.securityGroups ?? [], sameSubnet, tuple);
    stages.push(...out.stages);
    if (!out.allowed) return dropped(destination);
  }
  if (dstEni) {
    const inn = evaluateSide(state, 'ingress', dstEni, srcEni?.securityGroups ?? [], sameSubnet, tuple);
    stages.push(...inn.stages);
    if (!inn.allowed) return dropped(destination);
  }

  // conntrack, per ENI
  const conntrack: ConntrackEnd[] = [];
  const end = (eni: Eni, opened: Direction) => {
    const d = trackingDecision(state.groups(eni.securityGroups), tuple, opened);
    conntrack.push({
      instance: eni.instanceName,
      eniId: eni.eniId,
      opened,
      tracked: d.tracked,
      reason: d.reason,
      timeoutS: flowIdleTimeoutS(state.timeouts(eni), tuple.proto),
    });
  };
  if (srcEni) end(srcEni, 'egress');
  if (dstEni) end(dstEni, 'ingress');
  const trackedEnds = conntrack.filter((c) => c.tracked);
  const enaExpress =
    srcEni !== undefined &&
    dstEni !== undefined &&
    srcEni.enaSrd.EnaSrdEnabled &&
    dstEni.enaSrd.EnaSrdEnabled &&
    (tuple.proto === 'tcp' ||
      (tuple.proto === 'udp' &&
        srcEni.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled &&
        dstEni.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled)) &&
    state.subnet(srcEni.subnetId)?.AvailabilityZone === state.subnet(dstEni.subnetId)?.AvailabilityZone;
  return {
    ...base,
    allowed: true,
    stages,
    tracked: trackedEnds.length > 0,
    timeoutS: trackedEnds.length > 0 ? Math.min(...trackedEnds.map((c) => c.timeoutS)) : null,
    conntrack,
    destination,
    enaExpress,
  };
}
