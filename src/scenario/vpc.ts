/**
 * The VPC of a scenario, as data in the shapes of the EC2 API (DescribeVpcs, DescribeSubnets,
 * DescribeRouteTables, DescribeInternetGateways, DescribeNetworkAcls, DescribeSecurityGroups), so
 * `aws ec2 describe-*` prints the data itself; the IPv4/CIDR arithmetic the scenario and the
 * engine share; resource IDs derived from the seed; the default VPC (NET402's "Flow Setup" picture).
 *
 * Guarantees: pure functions; problems reported as `{ path, message }` naming the field; IPv4 only
 * (IPv6 ranges kept as data, never matched). Limits enforced (VPC-UG amazon-vpc-limits, AWS-CT,
 * docs/domain-facts.md §2.5–2.6): NACL rule numbers 1–32766 and 20 rules per direction, 60 inbound
 * and 60 outbound SG rules, 5 SGs per interface, subnets /16–/28 in the VPC CIDR, conntrack timeouts
 * within AWS's bounds.
 */
import { z } from 'zod';
import { CONNTRACK_TIMEOUT_BOUNDS_SECONDS, getInstanceType } from '../catalog';

// ---------------------------------------------------------------------------------------------
// IPv4 and CIDR arithmetic
// ---------------------------------------------------------------------------------------------

const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Dotted quad → unsigned 32-bit integer; null when malformed (no leading zeros, no spaces). */
export function parseIpv4(s: string): number | null {
  if (!IPV4_RE.test(s)) return null;
  return s.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

export function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export interface Cidr {
  /** Network address (host bits zero), unsigned 32-bit. */
  readonly network: number;
  readonly prefix: number;
}

export function prefixMask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** Parse `a.b.c.d/n`. Returns the reason when it is not a canonical IPv4 CIDR block. */
export function parseCidrDetailed(s: string): Cidr | { error: string } {
  const m = /^([0-9.]+)\/(\d{1,2})$/.exec(s);
  const ip = m ? parseIpv4(m[1]!) : null;
  const prefix = m ? Number(m[2]) : Number.NaN;
  if (!m || ip === null || !(prefix >= 0 && prefix <= 32)) {
    return { error: `"${s}" is not an IPv4 CIDR block like 10.0.0.0/16` };
  }
  const network = (ip & prefixMask(prefix)) >>> 0;
  if (network !== ip) {
    return { error: `"${s}" has host bits set (did you mean ${formatIpv4(network)}/${prefix}?)` };
  }
  return { network, prefix };
}

export function parseCidr(s: string): Cidr | null {
  const r = parseCidrDetailed(s);
  return 'error' in r ? null : r;
}

export function formatCidr(c: Cidr): string {
  return `${formatIpv4(c.network)}/${c.prefix}`;
}

export function cidrContains(c: Cidr, ip: number): boolean {
  return (ip & prefixMask(c.prefix)) >>> 0 === c.network;
}

export function cidrOverlaps(a: Cidr, b: Cidr): boolean {
  const p = Math.min(a.prefix, b.prefix);
  const m = prefixMask(p);
  return (a.network & m) >>> 0 === (b.network & m) >>> 0;
}

/** Whether CIDR `inner` lies entirely inside `outer`. */
export function cidrWithin(inner: Cidr, outer: Cidr): boolean {
  return inner.prefix >= outer.prefix && cidrContains(outer, inner.network);
}

// ---------------------------------------------------------------------------------------------
// Deterministic resource IDs
// ---------------------------------------------------------------------------------------------

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // murmur3 finaliser: spreads the low-entropy FNV result over all 32 bits
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A resource ID in AWS's long form (`sg-` + 17 hex digits), a pure function of the seed and a
 * stable key ("sg/default"), so the same scenario always gets the same IDs.
 */
export function resourceId(prefix: string, seed: number, key: string): string {
  let hex = '';
  for (let i = 0; hex.length < 17; i++)
    hex += fnv1a(`${seed}|${prefix}|${key}|${i}`).toString(16).padStart(8, '0');
  return `${prefix}-${hex.slice(0, 17)}`;
}

/** AWS IDs: prefix + 8 (old form) or 17 (long form) lowercase hex digits. */
export function isResourceId(prefix: string, id: string): boolean {
  return new RegExp(`^${prefix}-([0-9a-f]{8}|[0-9a-f]{17})$`).test(id);
}

/** The account the lab's resources belong to (the account ID used in AWS documentation examples). */
export const LAB_ACCOUNT_ID = '123456789012';
export const LAB_REGION = 'us-east-1';

// ---------------------------------------------------------------------------------------------
// Protocols
// ---------------------------------------------------------------------------------------------

/**
 * Security-group protocol as DescribeSecurityGroups prints it: 'tcp' | 'udp' | 'icmp' | '-1' (all)
 * or a protocol number as a string. AWS accepts names or numbers and stores 6/17/1 by name.
 */
export function normalizeSgProtocol(p: string | number): string | null {
  const s = String(p).toLowerCase();
  if (s === 'tcp' || s === '6') return 'tcp';
  if (s === 'udp' || s === '17') return 'udp';
  if (s === 'icmp' || s === '1') return 'icmp';
  if (s === '-1' || s === 'all') return '-1';
  if (/^\d{1,3}$/.test(s) && Number(s) <= 255) return String(Number(s));
  return null;
}

/** Network-ACL protocol as DescribeNetworkAcls prints it: a number as a string, '-1' for all. */
export function normalizeNaclProtocol(p: string | number): string | null {
  const s = String(p).toLowerCase();
  if (s === 'tcp') return '6';
  if (s === 'udp') return '17';
  if (s === 'icmp') return '1';
  if (s === '-1' || s === 'all') return '-1';
  if (/^\d{1,3}$/.test(s) && Number(s) <= 255) return String(Number(s));
  return null;
}

// ---------------------------------------------------------------------------------------------
// Schemas (AWS API shapes)
// ---------------------------------------------------------------------------------------------

const cidrField = z.string().superRefine((s, ctx) => {
  const r = parseCidrDetailed(s);
  if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error });
});

const idField = (prefix: string) =>
  z.string().refine((s) => isResourceId(prefix, s), {
    message: `must be an ID like ${prefix}-0123456789abcdef0 ("${prefix}-" and 8 or 17 hex digits)`,
  });

const description = z.string().max(255, 'at most 255 characters');

export const IpRangeSchema = z.strictObject({ CidrIp: cidrField, Description: description.optional() });
export const Ipv6RangeSchema = z.strictObject({
  CidrIpv6: z.string().regex(/^[0-9a-fA-F:]+\/\d{1,3}$/, 'must be an IPv6 CIDR block like ::/0'),
  Description: description.optional(),
});
export const UserIdGroupPairSchema = z.strictObject({
  GroupId: idField('sg'),
  UserId: z.string().optional(),
  Description: description.optional(),
});

const port = z.number().int().min(-1).max(65535);

export const IpPermissionSchema = z
  .strictObject({
    IpProtocol: z.union([z.string(), z.number().int()]).transform((p, ctx) => {
      const n = normalizeSgProtocol(p);
      if (n === null) {
        ctx.addIssue({
          code: 'custom',
          message: `"${p}" is not tcp, udp, icmp, -1 (all) or a protocol number`,
        });
        return z.NEVER;
      }
      return n;
    }),
    FromPort: port.optional(),
    ToPort: port.optional(),
    IpRanges: z.array(IpRangeSchema).default([]),
    Ipv6Ranges: z.array(Ipv6RangeSchema).default([]),
    PrefixListIds: z.array(z.unknown()).max(0, 'prefix lists are not simulated in ec2-netlab').default([]),
    UserIdGroupPairs: z.array(UserIdGroupPairSchema).default([]),
  })
  .superRefine((p, ctx) => {
    const problem = permissionPortProblem(p.IpProtocol, p.FromPort, p.ToPort);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
    if (p.IpRanges.length + p.Ipv6Ranges.length + p.UserIdGroupPairs.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'a rule needs at least one of IpRanges, Ipv6Ranges, UserIdGroupPairs',
      });
    }
  })
  .transform((p) =>
    // all-protocol and non-TCP/UDP/ICMP rules carry no ports in AWS's output
    p.IpProtocol === 'tcp' || p.IpProtocol === 'udp' || p.IpProtocol === 'icmp'
      ? p
      : { ...p, FromPort: undefined, ToPort: undefined },
  );

/** Port checks of an SG permission (AWS: TCP/UDP need both ports, 0–65535, From ≤ To; ICMP type/code). */
export function permissionPortProblem(
  proto: string,
  from: number | undefined,
  to: number | undefined,
): { field: 'FromPort' | 'ToPort'; message: string } | null {
  if (proto === 'tcp' || proto === 'udp') {
    if (from === undefined || to === undefined)
      return {
        field: from === undefined ? 'FromPort' : 'ToPort',
        message: 'TCP/UDP rules need FromPort and ToPort',
      };
    if (from < 0) return { field: 'FromPort', message: 'must be 0–65535' };
    if (to < 0) return { field: 'ToPort', message: 'must be 0–65535' };
    if (from > to) return { field: 'ToPort', message: `must be ≥ FromPort (${from})` };
  }
  if (proto === 'icmp') {
    if (from === undefined || to === undefined)
      return {
        field: from === undefined ? 'FromPort' : 'ToPort',
        message: 'ICMP rules need FromPort (type, -1 = all) and ToPort (code, -1 = all)',
      };
    if (from > 255) return { field: 'FromPort', message: 'ICMP type must be -1 or 0–255' };
    if (to > 255) return { field: 'ToPort', message: 'ICMP code must be -1 or 0–255' };
  }
  return null;
}

export const SecurityGroupSchema = z.strictObject({
  GroupId: idField('sg'),
  GroupName: z.string().min(1).max(255),
  Description: description.default(''),
  VpcId: z.string().optional(),
  IpPermissions: z.array(IpPermissionSchema).default([]),
  IpPermissionsEgress: z.array(IpPermissionSchema).default([]),
});

const ruleNumber = z.number().int().min(1, 'rule numbers are 1–32766').max(32767, 'rule numbers are 1–32766');

export const NaclEntrySchema = z
  .strictObject({
    RuleNumber: ruleNumber,
    Egress: z.boolean(),
    Protocol: z.union([z.string(), z.number().int()]).transform((p, ctx) => {
      const n = normalizeNaclProtocol(p);
      if (n === null) {
        ctx.addIssue({
          code: 'custom',
          message: `"${p}" is not -1 (all), 6 (tcp), 17 (udp), 1 (icmp) or a protocol number`,
        });
        return z.NEVER;
      }
      return n;
    }),
    RuleAction: z.enum(['allow', 'deny']),
    CidrBlock: cidrField,
    PortRange: z
      .strictObject({ From: z.number().int().min(0).max(65535), To: z.number().int().min(0).max(65535) })
      .optional(),
    IcmpTypeCode: z
      .strictObject({ Code: z.number().int().min(-1).max(255), Type: z.number().int().min(-1).max(255) })
      .optional(),
  })
  .superRefine((e, ctx) => {
    if ((e.Protocol === '6' || e.Protocol === '17') && !e.PortRange)
      ctx.addIssue({
        code: 'custom',
        path: ['PortRange'],
        message: 'TCP/UDP entries need PortRange {From, To}',
      });
    if (e.PortRange && e.PortRange.From > e.PortRange.To)
      ctx.addIssue({
        code: 'custom',
        path: ['PortRange', 'To'],
        message: `must be ≥ From (${e.PortRange.From})`,
      });
    if (e.Protocol === '1' && !e.IcmpTypeCode)
      ctx.addIssue({
        code: 'custom',
        path: ['IcmpTypeCode'],
        message: 'ICMP entries need IcmpTypeCode {Type, Code} (-1 = all)',
      });
    if (
      e.RuleNumber === 32767 &&
      !(e.RuleAction === 'deny' && e.Protocol === '-1' && e.CidrBlock === '0.0.0.0/0')
    )
      ctx.addIssue({
        code: 'custom',
        path: ['RuleNumber'],
        message: 'rule numbers are 1–32766 (32767 is the * deny-all rule, always present)',
      });
  })
  .transform((e): NaclEntryShape => {
    // AWS drops the port range (ICMP type/code) of entries whose protocol has none
    const { PortRange, IcmpTypeCode, ...rest } = e;
    const out: NaclEntryShape = { ...rest };
    if ((e.Protocol === '6' || e.Protocol === '17') && PortRange) out.PortRange = PortRange;
    if (e.Protocol === '1' && IcmpTypeCode) out.IcmpTypeCode = IcmpTypeCode;
    return out;
  });

/** A network ACL entry as DescribeNetworkAcls returns it (Protocol normalised to a number string). */
export interface NaclEntryShape {
  RuleNumber: number;
  Egress: boolean;
  Protocol: string;
  RuleAction: 'allow' | 'deny';
  CidrBlock: string;
  PortRange?: { From: number; To: number };
  IcmpTypeCode?: { Code: number; Type: number };
}

export const NetworkAclSchema = z.strictObject({
  NetworkAclId: idField('acl'),
  IsDefault: z.boolean().default(false),
  VpcId: z.string().optional(),
  Associations: z.array(z.strictObject({ SubnetId: idField('subnet') })).default([]),
  // the `*` rules (32767) are implicit: drop them if a describe output was pasted in
  Entries: z
    .array(NaclEntrySchema)
    .default([])
    .transform((es) => es.filter((e) => e.RuleNumber !== 32767)),
});

export const RouteSchema = z
  .strictObject({
    DestinationCidrBlock: cidrField,
    GatewayId: z
      .string()
      .refine((g) => g === 'local' || isResourceId('igw', g), { message: 'must be "local" or an igw-… ID' })
      .optional(),
    NatGatewayId: idField('nat').optional(),
    NetworkInterfaceId: idField('eni').optional(),
    State: z.enum(['active', 'blackhole']).default('active'),
    Origin: z.enum(['CreateRouteTable', 'CreateRoute', 'EnableVgwRoutePropagation']).default('CreateRoute'),
  })
  .superRefine((r, ctx) => {
    const n = [r.GatewayId, r.NatGatewayId, r.NetworkInterfaceId].filter((x) => x !== undefined).length;
    if (n !== 1)
      ctx.addIssue({
        code: 'custom',
        message: 'a route needs exactly one target: GatewayId, NatGatewayId or NetworkInterfaceId',
      });
  });

export const RouteTableSchema = z.strictObject({
  RouteTableId: idField('rtb'),
  VpcId: z.string().optional(),
  Associations: z
    .array(
      z
        .strictObject({ SubnetId: idField('subnet').optional(), Main: z.boolean().optional() })
        .refine((a) => (a.SubnetId !== undefined) !== (a.Main === true), {
          message: 'an association is either {SubnetId} or {Main: true}',
        }),
    )
    .default([]),
  Routes: z.array(RouteSchema).default([]),
});

export const SubnetSchema = z.strictObject({
  SubnetId: idField('subnet'),
  CidrBlock: cidrField,
  AvailabilityZone: z
    .string()
    .regex(/^[a-z]{2}-[a-z]+-\d[a-z]$/, 'must be an Availability Zone like us-east-1a'),
  VpcId: z.string().optional(),
});

export const InternetGatewaySchema = z.strictObject({
  InternetGatewayId: idField('igw'),
  Attachments: z
    .array(
      z.strictObject({ State: z.literal('available').default('available'), VpcId: z.string().optional() }),
    )
    .default([]),
});

export const VpcSchema = z.strictObject({
  VpcId: idField('vpc'),
  CidrBlock: cidrField,
  Subnets: z.array(SubnetSchema).min(1, 'needs at least one subnet'),
  RouteTables: z.array(RouteTableSchema).min(1, 'needs a main route table'),
  InternetGateways: z
    .array(InternetGatewaySchema)
    .max(1, 'a VPC has at most one internet gateway')
    .default([]),
  NetworkAcls: z.array(NetworkAclSchema).min(1, 'needs a default network ACL'),
  SecurityGroups: z.array(SecurityGroupSchema).min(1, 'needs at least one security group'),
});

export type Vpc = z.output<typeof VpcSchema>;
export type Subnet = Vpc['Subnets'][number];
export type RouteTable = Vpc['RouteTables'][number];
export type Route = RouteTable['Routes'][number];
export type NetworkAcl = Vpc['NetworkAcls'][number];
export type NaclEntry = NetworkAcl['Entries'][number];
export type SecurityGroup = Vpc['SecurityGroups'][number];
export type IpPermission = SecurityGroup['IpPermissions'][number];
export type InternetGateway = Vpc['InternetGateways'][number];

/** Per-ENI ENA Express setting (ModifyNetworkInterfaceAttribute EnaSrdSpecification). */
export const EnaSrdSpecificationSchema = z.strictObject({
  EnaSrdEnabled: z.boolean().default(false),
  EnaSrdUdpSpecification: z
    .strictObject({ EnaSrdUdpEnabled: z.boolean().default(false) })
    .default({ EnaSrdUdpEnabled: false }),
});
export type EnaSrdSpecification = z.output<typeof EnaSrdSpecificationSchema>;

/** Per-ENI idle timeouts, seconds (ConnectionTrackingSpecification); unset = the type's default. */
export const ConnectionTrackingSpecificationSchema = z.strictObject({
  TcpEstablishedTimeout: z.number().int().optional(),
  UdpStreamTimeout: z.number().int().optional(),
  UdpTimeout: z.number().int().optional(),
});
export type ConnectionTrackingSpecification = z.output<typeof ConnectionTrackingSpecificationSchema>;

/** The bounds check shared by the scenario and `modify-network-interface-attribute`. */
export function conntrackTimeoutProblem(
  field: keyof ConnectionTrackingSpecification,
  value: number,
): string | null {
  const b =
    field === 'TcpEstablishedTimeout'
      ? CONNTRACK_TIMEOUT_BOUNDS_SECONDS.tcpEstablished.value
      : field === 'UdpStreamTimeout'
        ? CONNTRACK_TIMEOUT_BOUNDS_SECONDS.udpStream.value
        : CONNTRACK_TIMEOUT_BOUNDS_SECONDS.udp.value;
  if (!Number.isInteger(value) || value < b.min || value > b.max)
    return `${value} is outside AWS's range for ${field} (${b.min}–${b.max} seconds)`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// The default VPC: the NET402 "Flow Setup" picture
// ---------------------------------------------------------------------------------------------

export const DEFAULT_VPC_CIDR = '10.0.0.0/16';
export const DEFAULT_SUBNET_CIDR = '10.0.0.0/24';
export const DEFAULT_AZ = 'us-east-1a';

/**
 * The talk's picture: VPC 10.0.0.0/16 with one subnet, a main route table (10.0.0.0/16 → local,
 * 0.0.0.0/0 → the internet gateway), the default network ACL (rule 100 allow all + `*` deny, both
 * directions) and one security group.
 *
 * The security group is AWS's default group (all traffic from members of the same group, all
 * traffic out) PLUS the talk's rule "Any TCP HTTPS" (443 from 0.0.0.0/0). The default-group rules
 * are what keep the lab's own traffic (iperf3 on 5201 between the instances) working; the HTTPS
 * rule is the slide. With these rules, instance-to-instance flows are tracked (the inbound rule
 * names a group, not 0.0.0.0/0), as they would be on a fresh AWS account.
 */
export function defaultVpc(seed: number): Vpc {
  const id = (prefix: string, key: string) => resourceId(prefix, seed, key);
  const vpcId = id('vpc', 'main');
  const subnetId = id('subnet', 'main');
  const igwId = id('igw', 'main');
  const sgId = id('sg', 'default');
  return {
    VpcId: vpcId,
    CidrBlock: DEFAULT_VPC_CIDR,
    Subnets: [
      { SubnetId: subnetId, CidrBlock: DEFAULT_SUBNET_CIDR, AvailabilityZone: DEFAULT_AZ, VpcId: vpcId },
    ],
    RouteTables: [
      {
        RouteTableId: id('rtb', 'main'),
        VpcId: vpcId,
        Associations: [{ Main: true }],
        Routes: [
          {
            DestinationCidrBlock: DEFAULT_VPC_CIDR,
            GatewayId: 'local',
            State: 'active',
            Origin: 'CreateRouteTable',
          },
          { DestinationCidrBlock: '0.0.0.0/0', GatewayId: igwId, State: 'active', Origin: 'CreateRoute' },
        ],
      },
    ],
    InternetGateways: [{ InternetGatewayId: igwId, Attachments: [{ State: 'available', VpcId: vpcId }] }],
    NetworkAcls: [
      {
        NetworkAclId: id('acl', 'default'),
        IsDefault: true,
        VpcId: vpcId,
        Associations: [{ SubnetId: subnetId }],
        Entries: [
          { RuleNumber: 100, Egress: true, Protocol: '-1', RuleAction: 'allow', CidrBlock: '0.0.0.0/0' },
          { RuleNumber: 100, Egress: false, Protocol: '-1', RuleAction: 'allow', CidrBlock: '0.0.0.0/0' },
        ],
      },
    ],
    SecurityGroups: [
      {
        GroupId: sgId,
        GroupName: 'default',
        Description: 'default VPC security group',
        VpcId: vpcId,
        IpPermissions: [
          {
            IpProtocol: '-1',
            IpRanges: [],
            Ipv6Ranges: [],
            PrefixListIds: [],
            UserIdGroupPairs: [{ GroupId: sgId, UserId: LAB_ACCOUNT_ID }],
          },
          {
            IpProtocol: 'tcp',
            FromPort: 443,
            ToPort: 443,
            IpRanges: [{ CidrIp: '0.0.0.0/0', Description: 'HTTPS from anywhere (NET402 Flow Setup slide)' }],
            Ipv6Ranges: [],
            PrefixListIds: [],
            UserIdGroupPairs: [],
          },
        ],
        IpPermissionsEgress: [
          {
            IpProtocol: '-1',
            IpRanges: [{ CidrIp: '0.0.0.0/0' }],
            Ipv6Ranges: [],
            PrefixListIds: [],
            UserIdGroupPairs: [],
          },
        ],
      },
    ],
  };
}

/** Fill what a hand-written VPC may leave out: VpcId back-references and the local route. */
export function completeVpc(vpc: Vpc): Vpc {
  const out: Vpc = structuredClone(vpc);
  for (const s of out.Subnets) s.VpcId ??= out.VpcId;
  for (const g of out.SecurityGroups) g.VpcId ??= out.VpcId;
  for (const a of out.NetworkAcls) a.VpcId ??= out.VpcId;
  for (const igw of out.InternetGateways) for (const at of igw.Attachments) at.VpcId ??= out.VpcId;
  for (const t of out.RouteTables) {
    t.VpcId ??= out.VpcId;
    if (!t.Routes.some((r) => r.GatewayId === 'local')) {
      t.Routes.unshift({
        DestinationCidrBlock: out.CidrBlock,
        GatewayId: 'local',
        State: 'active',
        Origin: 'CreateRouteTable',
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cross-checks over the whole VPC and the instances placed in it
// ---------------------------------------------------------------------------------------------

export type IssuePath = Array<string | number>;
export interface VpcIssue {
  path: IssuePath;
  message: string;
}

/** Quotas (VPC-UG amazon-vpc-limits; defaults, adjustable in AWS). */
export const VPC_QUOTAS = Object.freeze({
  naclRulesPerDirection: 20,
  sgRulesPerDirection: 60,
  sgsPerEni: 5,
});

/** What the cross-checks need to know about an instance. */
export interface PlacedInstance {
  name: string;
  type: string;
  ip: string;
  secondaryIps: string[];
  subnet: string;
  securityGroups: string[];
  enaSrd?: EnaSrdSpecification;
  connectionTracking?: ConnectionTrackingSpecification;
}

/** Number of rules a permission counts as (one per CIDR or group reference). */
export function permissionRuleCount(p: IpPermission): number {
  return p.IpRanges.length + p.Ipv6Ranges.length + p.UserIdGroupPairs.length;
}

/**
 * All problems of a VPC together with its instances and the outside client. `base` is the path
 * prefix of the VPC in the document (['vpc']).
 */
export function checkVpc(
  vpc: Vpc,
  instances: readonly PlacedInstance[],
  client: { name: string; ip: string } | undefined,
): VpcIssue[] {
  const issues: VpcIssue[] = [];
  const add = (path: IssuePath, message: string) => issues.push({ path, message });
  const vpcCidr = parseCidr(vpc.CidrBlock);
  if (!vpcCidr) return issues; // the field check already reported it
  if (vpcCidr.prefix < 16 || vpcCidr.prefix > 28)
    add(['vpc', 'CidrBlock'], `a VPC CIDR block must be between /16 and /28 (got /${vpcCidr.prefix})`);

  // IDs are unique across the VPC's resources
  const seen = new Map<string, string>();
  const unique = (id: string, path: IssuePath) => {
    const prev = seen.get(id);
    if (prev !== undefined) add(path, `duplicate ID "${id}" (also at ${prev})`);
    else seen.set(id, formatPath(path));
  };
  unique(vpc.VpcId, ['vpc', 'VpcId']);

  const subnets = new Map<string, Cidr>();
  vpc.Subnets.forEach((s, i) => {
    unique(s.SubnetId, ['vpc', 'Subnets', i, 'SubnetId']);
    if (s.VpcId !== undefined && s.VpcId !== vpc.VpcId)
      add(['vpc', 'Subnets', i, 'VpcId'], `must be the VPC's ID ${vpc.VpcId}`);
    const c = parseCidr(s.CidrBlock);
    if (!c) return;
    if (!cidrWithin(c, vpcCidr))
      add(['vpc', 'Subnets', i, 'CidrBlock'], `${s.CidrBlock} is not inside the VPC's ${vpc.CidrBlock}`);
    else if (c.prefix > 28)
      add(['vpc', 'Subnets', i, 'CidrBlock'], `a subnet must be between /16 and /28 (got /${c.prefix})`);
    for (const [otherId, o] of subnets)
      if (cidrOverlaps(c, o))
        add(['vpc', 'Subnets', i, 'CidrBlock'], `${s.CidrBlock} overlaps subnet ${otherId}`);
    subnets.set(s.SubnetId, c);
  });

  const igws = new Set<string>();
  vpc.InternetGateways.forEach((g, i) => {
    unique(g.InternetGatewayId, ['vpc', 'InternetGateways', i, 'InternetGatewayId']);
    igws.add(g.InternetGatewayId);
  });

  const groupIds = new Set(vpc.SecurityGroups.map((g) => g.GroupId));

  // route tables
  let mains = 0;
  const subnetTable = new Map<string, string>();
  vpc.RouteTables.forEach((t, ti) => {
    const base: IssuePath = ['vpc', 'RouteTables', ti];
    unique(t.RouteTableId, [...base, 'RouteTableId']);
    t.Associations.forEach((a, ai) => {
      if (a.Main) mains++;
      if (a.SubnetId !== undefined) {
        if (!subnets.has(a.SubnetId))
          add([...base, 'Associations', ai, 'SubnetId'], `unknown subnet "${a.SubnetId}"`);
        const prev = subnetTable.get(a.SubnetId);
        if (prev)
          add(
            [...base, 'Associations', ai, 'SubnetId'],
            `subnet ${a.SubnetId} is already associated with ${prev}`,
          );
        subnetTable.set(a.SubnetId, t.RouteTableId);
      }
    });
    const dests = new Map<string, number>();
    t.Routes.forEach((r, ri) => {
      const rp: IssuePath = [...base, 'Routes', ri];
      const c = parseCidr(r.DestinationCidrBlock);
      const prev = dests.get(r.DestinationCidrBlock);
      if (prev !== undefined)
        add(
          [...rp, 'DestinationCidrBlock'],
          `conflicting routes: ${r.DestinationCidrBlock} is also the destination of Routes[${prev}]`,
        );
      dests.set(r.DestinationCidrBlock, ri);
      if (r.GatewayId === 'local') {
        if (r.DestinationCidrBlock !== vpc.CidrBlock)
          add([...rp, 'DestinationCidrBlock'], `the local route must be the VPC's CIDR ${vpc.CidrBlock}`);
      } else if (r.GatewayId !== undefined && !igws.has(r.GatewayId)) {
        add([...rp, 'GatewayId'], `unknown internet gateway "${r.GatewayId}"`);
      } else if (
        c &&
        r.DestinationCidrBlock !== vpc.CidrBlock &&
        cidrWithin(c, vpcCidr) &&
        r.GatewayId !== undefined
      ) {
        add(
          [...rp, 'DestinationCidrBlock'],
          `conflicting routes: ${r.DestinationCidrBlock} is inside the local route ${vpc.CidrBlock}`,
        );
      }
    });
  });
  if (mains !== 1)
    add(
      ['vpc', 'RouteTables'],
      `exactly one route table must have the association {Main: true} (found ${mains})`,
    );

  // network ACLs
  let defaults = 0;
  const subnetAcl = new Map<string, string>();
  vpc.NetworkAcls.forEach((acl, ai) => {
    const base: IssuePath = ['vpc', 'NetworkAcls', ai];
    unique(acl.NetworkAclId, [...base, 'NetworkAclId']);
    if (acl.IsDefault) defaults++;
    acl.Associations.forEach((a, si) => {
      if (!subnets.has(a.SubnetId))
        add([...base, 'Associations', si, 'SubnetId'], `unknown subnet "${a.SubnetId}"`);
      const prev = subnetAcl.get(a.SubnetId);
      if (prev)
        add(
          [...base, 'Associations', si, 'SubnetId'],
          `subnet ${a.SubnetId} is already associated with ${prev}`,
        );
      subnetAcl.set(a.SubnetId, acl.NetworkAclId);
    });
    for (const egress of [false, true]) {
      const numbers = new Map<number, number>();
      let count = 0;
      acl.Entries.forEach((e, ei) => {
        if (e.Egress !== egress) return;
        count++;
        const prev = numbers.get(e.RuleNumber);
        if (prev !== undefined)
          add(
            [...base, 'Entries', ei, 'RuleNumber'],
            `rule ${e.RuleNumber} (${egress ? 'egress' : 'ingress'}) is also Entries[${prev}]: rule numbers must be unique per direction`,
          );
        numbers.set(e.RuleNumber, ei);
      });
      if (count > VPC_QUOTAS.naclRulesPerDirection)
        add(
          [...base, 'Entries'],
          `${count} ${egress ? 'egress' : 'ingress'} rules: the quota is ${VPC_QUOTAS.naclRulesPerDirection} per direction`,
        );
    }
  });
  if (defaults !== 1)
    add(['vpc', 'NetworkAcls'], `exactly one network ACL must have IsDefault: true (found ${defaults})`);

  // security groups
  const names = new Map<string, number>();
  vpc.SecurityGroups.forEach((g, gi) => {
    const base: IssuePath = ['vpc', 'SecurityGroups', gi];
    unique(g.GroupId, [...base, 'GroupId']);
    const prev = names.get(g.GroupName);
    if (prev !== undefined)
      add([...base, 'GroupName'], `duplicate group name "${g.GroupName}" (also SecurityGroups[${prev}])`);
    names.set(g.GroupName, gi);
    for (const key of ['IpPermissions', 'IpPermissionsEgress'] as const) {
      let rules = 0;
      g[key].forEach((p, pi) => {
        rules += permissionRuleCount(p);
        p.UserIdGroupPairs.forEach((u, ui) => {
          if (!groupIds.has(u.GroupId))
            add([...base, key, pi, 'UserIdGroupPairs', ui, 'GroupId'], `unknown group ID "${u.GroupId}"`);
        });
      });
      if (rules > VPC_QUOTAS.sgRulesPerDirection)
        add([...base, key], `${rules} rules: the quota is ${VPC_QUOTAS.sgRulesPerDirection} per direction`);
    }
  });

  // instances
  const ips = new Map<string, string>();
  instances.forEach((inst, i) => {
    const base: IssuePath = ['instances', i];
    const subnet = subnets.get(inst.subnet);
    if (!subnet) add([...base, 'subnet'], `unknown subnet "${inst.subnet}"`);
    [inst.ip, ...inst.secondaryIps].forEach((ip, k) => {
      const path: IssuePath = k === 0 ? [...base, 'ip'] : [...base, 'secondaryIps', k - 1];
      const n = parseIpv4(ip);
      if (n === null) return;
      const prev = ips.get(ip);
      if (prev) add(path, `${ip} is already used by ${prev}`);
      ips.set(ip, inst.name);
      if (subnet) {
        if (!cidrContains(subnet, n))
          add(path, `${ip} is not in the instance's subnet ${formatCidr(subnet)}`);
        else if (n - subnet.network < 4 || n === subnet.network + 2 ** (32 - subnet.prefix) - 1)
          add(
            path,
            `${ip} is reserved by AWS in ${formatCidr(subnet)} (the first four and the last address)`,
          );
      }
    });
    if (inst.securityGroups.length === 0)
      add([...base, 'securityGroups'], 'needs at least one security group');
    if (inst.securityGroups.length > VPC_QUOTAS.sgsPerEni)
      add(
        [...base, 'securityGroups'],
        `at most ${VPC_QUOTAS.sgsPerEni} security groups per network interface`,
      );
    const mine = new Set<string>();
    inst.securityGroups.forEach((g, k) => {
      if (!groupIds.has(g)) add([...base, 'securityGroups', k], `unknown group ID "${g}"`);
      if (mine.has(g)) add([...base, 'securityGroups', k], `group ${g} is listed twice`);
      mine.add(g);
    });
    const spec = getInstanceType(inst.type);
    if (inst.enaSrd?.EnaSrdEnabled && spec && !spec.enaExpressSupported.value)
      add(
        [...base, 'enaSrd', 'EnaSrdEnabled'],
        `${inst.type} does not support ENA Express (AWS-ENAX lists large Nitro v4+ sizes only)`,
      );
    if (inst.enaSrd?.EnaSrdUdpSpecification.EnaSrdUdpEnabled && !inst.enaSrd.EnaSrdEnabled)
      add(
        [...base, 'enaSrd', 'EnaSrdUdpSpecification', 'EnaSrdUdpEnabled'],
        'UDP over ENA Express needs EnaSrdEnabled: true',
      );
    const ct = inst.connectionTracking ?? {};
    for (const k of ['TcpEstablishedTimeout', 'UdpStreamTimeout', 'UdpTimeout'] as const) {
      const v = ct[k];
      if (v === undefined) continue;
      const problem = conntrackTimeoutProblem(k, v);
      if (problem) add([...base, 'connectionTracking', k], problem);
    }
  });
  if (client) {
    const n = parseIpv4(client.ip);
    if (n !== null && cidrContains(vpcCidr, n))
      add(
        ['client', 'ip'],
        `${client.ip} is inside the VPC (${vpc.CidrBlock}); the client is on the internet`,
      );
    if (instances.some((i) => i.name === client.name))
      add(['client', 'name'], `"${client.name}" is also an instance name`);
  }
  return issues;
}

/** `a.b[0].c` from a path array (the format of formatIssues in schema.ts). */
export function formatPath(path: IssuePath): string {
  return (
    path.map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? String(p) : `.${String(p)}`)).join('') ||
    '(root)'
  );
}
