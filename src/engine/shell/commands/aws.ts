/**
 * `aws ec2 …`: the AWS CLI v2 on the lab's VPC control plane (engine/vpc/state.ts): a modelled
 * subset of EC2 operations with the CLI's syntax, JSON output (`--output json`, indent 4, the CLI's
 * key order), service errors (`An error occurred (Code) when calling the Operation operation: …`,
 * exit 254) and usage errors (exit 252). Anything else is refused as "not simulated".
 *
 * Guarantees: a failing command changes nothing; a successful mutation changes VpcState at the
 * current instant, bumps its mutationEpoch and is logged; output is a pure function of the state.
 * Sources: awscli clidriver.py, utils write_exception, customizations/ec2/secgroupsimplify.py; moto
 * ec2/exceptions.py and public issue threads for error texts (where AWS's text is not public, e.g.
 * ENA Express on an unsupported type, the message is ours in AWS's shape).
 */
import {
  checkVpc,
  conntrackTimeoutProblem,
  type IpPermission,
  isResourceId,
  LAB_ACCOUNT_ID,
  type NaclEntryShape,
  type NetworkAcl,
  normalizeNaclProtocol,
  normalizeSgProtocol,
  parseCidr,
  parseCidrDetailed,
  permissionRuleCount,
  resourceId,
  type Route,
  type RouteTable,
  type SecurityGroup,
  VPC_QUOTAS,
  type Vpc,
} from '../../../scenario/vpc';
import { isoUtc } from '../../../lib/time';
import type { Lab } from '../../lab';
import { type Eni, type MutationKind, type VpcState, vpcState } from '../../vpc/state';
import { type CommandOutcome, done, fail } from '../types';
import { addressHandlers } from './aws-addresses';
import { type AwsHelpers, instanceAttributeHandlers, instanceState } from './aws-instance-attributes';
import { runCloudWatch } from './cloudwatch';
import { instanceIdentity, privateDnsName, ROOT_DEVICE_NAME } from './instance-identity';

type Out = CommandOutcome;

const json = (v: unknown): Out => done(`${JSON.stringify(v, null, 4)}\n`, 0, v);
const silent = (): Out => done('', 0, {});
const usage = (message: string): Out => fail(`${AWS_USAGE}\naws: error: ${message}\n`, AWS_EXIT.usage);
const plain = (message: string): Out => fail(`\n${message}\n`, AWS_EXIT.usage);

class ServiceError {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {}
}
const svc = (code: string, message: string) => new ServiceError(code, message);

/** Operations modelled, kebab-case CLI name → API operation name. */
const OPERATIONS: Record<string, string> = {
  'describe-security-groups': 'DescribeSecurityGroups',
  'authorize-security-group-ingress': 'AuthorizeSecurityGroupIngress',
  'authorize-security-group-egress': 'AuthorizeSecurityGroupEgress',
  'revoke-security-group-ingress': 'RevokeSecurityGroupIngress',
  'revoke-security-group-egress': 'RevokeSecurityGroupEgress',
  'describe-network-acls': 'DescribeNetworkAcls',
  'create-network-acl-entry': 'CreateNetworkAclEntry',
  'replace-network-acl-entry': 'ReplaceNetworkAclEntry',
  'delete-network-acl-entry': 'DeleteNetworkAclEntry',
  'describe-route-tables': 'DescribeRouteTables',
  'create-route': 'CreateRoute',
  'replace-route': 'ReplaceRoute',
  'delete-route': 'DeleteRoute',
  'modify-network-interface-attribute': 'ModifyNetworkInterfaceAttribute',
  'describe-network-interfaces': 'DescribeNetworkInterfaces',
  'describe-instances': 'DescribeInstances',
  'assign-private-ip-addresses': 'AssignPrivateIpAddresses',
  'unassign-private-ip-addresses': 'UnassignPrivateIpAddresses',
  'stop-instances': 'StopInstances',
  'start-instances': 'StartInstances',
  'modify-instance-attribute': 'ModifyInstanceAttribute',
  'describe-instance-attribute': 'DescribeInstanceAttribute',
};

/** Several interfaces per instance: refused with a pointer to what the lab has instead. */
const ENI_OPS = [
  'create-network-interface',
  'attach-network-interface',
  'detach-network-interface',
  'delete-network-interface',
];

/** The operations modelled (for completion). */
export const AWS_EC2_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

const GLOBAL_VALUE_OPTIONS = new Set([
  '--output',
  '--region',
  '--profile',
  '--query',
  '--endpoint-url',
  '--color',
  '--cli-read-timeout',
  '--cli-connect-timeout',
  '--ca-bundle',
]);
const GLOBAL_FLAGS = new Set([
  '--no-cli-pager',
  '--debug',
  '--no-verify-ssl',
  '--no-paginate',
  '--no-sign-request',
  '--cli-auto-prompt',
  '--no-cli-auto-prompt',
]);
const OUTPUT_CHOICES = ['json', 'text', 'table', 'yaml', 'yaml-stream'];

export function runAws(args: string[], lab: Lab): CommandOutcome {
  // global options may appear anywhere (argparse parses them with the top-level parser)
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (GLOBAL_VALUE_OPTIONS.has(name)) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (value === undefined) return usage(`argument ${name}: expected one argument`);
      if (name === '--output') {
        if (!OUTPUT_CHOICES.includes(value))
          return usage(
            `argument --output: Invalid choice, valid choices are:\n\n${OUTPUT_CHOICES.join(' | ')}`,
          );
        if (value !== 'json')
          return fail(`aws: --output ${value} is not simulated in ec2-netlab (json only)`, AWS_EXIT.usage);
      } else if (name === '--region') {
        if (value !== LAB_REGION_NAME)
          return fail(
            `aws: --region ${value} is not simulated in ec2-netlab (the lab's VPC is in ${LAB_REGION_NAME})`,
            AWS_EXIT.usage,
          );
      } else if (name !== '--profile') {
        return fail(`aws: option ${name} is not simulated in ec2-netlab`, AWS_EXIT.usage);
      }
      continue;
    }
    if (GLOBAL_FLAGS.has(a)) {
      if (a !== '--no-cli-pager' && a !== '--no-paginate')
        return fail(`aws: option ${a} is not simulated in ec2-netlab`, AWS_EXIT.usage);
      continue;
    }
    if (a === '--version')
      return done('aws-cli/2.15.30 Python/3.11.8 Linux/6.1.0 exe/x86_64.amzn.2023 prompt/off\n');
    rest.push(a);
  }
  const [service, op, ...opArgs] = rest;
  if (service === undefined) return usage('the following arguments are required: command');
  if (service === 'help' || op === 'help' || opArgs.includes('help'))
    return fail('aws: help pages are not simulated in ec2-netlab', AWS_EXIT.usage);
  if (service === 'cloudwatch') return runCloudWatch(op, opArgs, lab);
  if (service !== 'ec2')
    return fail(
      `aws: the ${service} service is not simulated in ec2-netlab (only aws ec2 and aws cloudwatch)`,
      AWS_EXIT.usage,
    );
  if (op === undefined) return usage('the following arguments are required: operation');
  const opName = OPERATIONS[op];
  if (!opName && ENI_OPS.includes(op))
    return fail(
      `aws: ec2 ${op} is not simulated in ec2-netlab: each instance has one network interface (eth0); for more addresses on it use aws ec2 assign-private-ip-addresses`,
      AWS_EXIT.usage,
    );
  if (!opName)
    return fail(
      `aws: ec2 ${op} is not simulated in ec2-netlab (modelled: ${Object.keys(OPERATIONS).join(', ')})`,
      AWS_EXIT.usage,
    );
  const state = vpcState(lab);
  try {
    return HANDLERS[op]!(opArgs, state, lab, opName);
  } catch (e) {
    if (e instanceof ServiceError)
      return fail(
        `\nAn error occurred (${e.code}) when calling the ${opName} operation: ${e.message}\n`,
        AWS_EXIT.service,
      );
    if (e instanceof PlainError) return plain(e.message);
    throw e;
  }
}

const LAB_REGION_NAME = 'us-east-1';

type Handler = (args: string[], state: VpcState, lab: Lab, opName: string) => Out;

const DRY_RUN: Record<string, ParamSpec> = {
  'dry-run': { kind: 'flag', negates: 'no-dry-run' },
  'no-dry-run': { kind: 'flag', negates: 'dry-run' },
};

function parse(args: string[], specs: Record<string, ParamSpec>, groups: string[][] = []): ParsedArgs | Out {
  const r = parseOperationArgs(args, { ...specs, ...DRY_RUN }, groups);
  if ('kind' in r)
    return r.kind === 'usage'
      ? usage(r.message)
      : r.kind === 'raw'
        ? fail(r.message, AWS_EXIT.usage)
        : plain(r.message);
  return r;
}
const isOut = (x: ParsedArgs | Out): x is Out => !('values' in x);

function dryRun(p: ParsedArgs): void {
  if (p.values.get('dry-run') === true)
    throw svc('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.');
}

/** Apply a change to a copy, re-check the whole VPC, then commit and log it (or change nothing). */
function commit(
  state: VpcState,
  next: Vpc,
  kind: MutationKind,
  resource: string,
  op: string,
  enis?: Eni[],
): void {
  const placed = (enis ?? state.enis).map((e) => ({
    name: e.instanceName,
    type: e.instanceType,
    ip: e.ip,
    secondaryIps: [...e.secondaryIps],
    subnet: e.subnetId,
    securityGroups: e.securityGroups,
    enaSrd: e.enaSrd,
    connectionTracking: e.connectionTracking,
  }));
  const issues = checkVpc(next, placed, state.client);
  if (issues.length > 0) throw svc('InvalidParameterValue', issues[0]!.message);
  const v = state.vpc as Vpc;
  v.Subnets = next.Subnets;
  v.RouteTables = next.RouteTables;
  v.InternetGateways = next.InternetGateways;
  v.NetworkAcls = next.NetworkAcls;
  v.SecurityGroups = next.SecurityGroups;
  if (enis) {
    enis.forEach((e, i) => {
      const cur = state.enis[i]!;
      cur.securityGroups = e.securityGroups;
      cur.enaSrd = e.enaSrd;
      cur.connectionTracking = e.connectionTracking;
    });
  }
  state.recordMutation(kind, resource, op);
}

// ---------------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------------

interface Filter {
  name: string;
  values: string[];
}

function readFilters(raw: unknown): Filter[] {
  if (raw === undefined) return [];
  const list = raw as Array<Record<string, unknown>>;
  return list.map((f) => {
    const v = f['Values'];
    const values = Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
    return { name: String(f['Name'] ?? ''), values };
  });
}

const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/** Every filter must match (AND); a filter matches when any of its values matches any candidate. */
function applyFilters<T>(items: T[], filters: Filter[], fields: Record<string, (x: T) => string[]>): T[] {
  for (const f of filters) {
    if (!fields[f.name]) throw svc('InvalidParameterValue', `The filter '${f.name}' is invalid`);
  }
  return items.filter((x) =>
    filters.every((f) => {
      const cands = fields[f.name]!(x);
      return f.values.some((v) => cands.some((c) => wildcard(v).test(c)));
    }),
  );
}

function malformed(prefix: string, id: string, code: string): ServiceError {
  return svc(code, `Invalid id: "${id}" (expecting "${prefix}-...")`);
}

// ---------------------------------------------------------------------------------------------
// Security groups
// ---------------------------------------------------------------------------------------------

function sgOut(g: SecurityGroup) {
  return {
    Description: g.Description,
    GroupName: g.GroupName,
    IpPermissions: g.IpPermissions.map(permOut),
    OwnerId: LAB_ACCOUNT_ID,
    GroupId: g.GroupId,
    IpPermissionsEgress: g.IpPermissionsEgress.map(permOut),
    VpcId: g.VpcId,
  };
}

function permOut(p: IpPermission) {
  const o: Record<string, unknown> = {};
  if (p.FromPort !== undefined) o['FromPort'] = p.FromPort;
  o['IpProtocol'] = p.IpProtocol;
  o['IpRanges'] = p.IpRanges.map((r) =>
    r.Description !== undefined ? { CidrIp: r.CidrIp, Description: r.Description } : { CidrIp: r.CidrIp },
  );
  o['Ipv6Ranges'] = p.Ipv6Ranges.map((r) => ({ ...r }));
  o['PrefixListIds'] = [];
  if (p.ToPort !== undefined) o['ToPort'] = p.ToPort;
  o['UserIdGroupPairs'] = p.UserIdGroupPairs.map((u) => {
    const x: Record<string, unknown> = {};
    if (u.Description !== undefined) x['Description'] = u.Description;
    x['GroupId'] = u.GroupId;
    x['UserId'] = u.UserId ?? LAB_ACCOUNT_ID;
    return x;
  });
  return o;
}

function checkGroupId(state: VpcState, id: string): SecurityGroup {
  if (!id.startsWith('sg-')) throw malformed('sg', id, 'InvalidGroupId.Malformed');
  const g = state.group(id);
  if (!g) throw svc('InvalidGroup.NotFound', `The security group '${id}' does not exist`);
  return g;
}

const describeSecurityGroups: Handler = (args, state) => {
  const p = parse(args, {
    'group-ids': { kind: 'list' },
    'group-names': { kind: 'list' },
    filters: { kind: 'struct-list' },
  });
  if (isOut(p)) return p;
  dryRun(p);
  let groups = state.vpc.SecurityGroups;
  const ids = p.values.get('group-ids') as string[] | undefined;
  if (ids) groups = ids.map((id) => checkGroupId(state, id));
  const names = p.values.get('group-names') as string[] | undefined;
  if (names) {
    groups = names.map((n) => {
      const g = groups.find((x) => x.GroupName === n);
      if (!g)
        throw svc('InvalidGroup.NotFound', `The security group '${n}' does not exist in default VPC 'none'`);
      return g;
    });
  }
  const permField =
    (key: 'IpPermissions' | 'IpPermissionsEgress', f: (p: IpPermission) => string[]) => (g: SecurityGroup) =>
      g[key].flatMap(f);
  const fields: Record<string, (g: SecurityGroup) => string[]> = {
    'group-id': (g) => [g.GroupId],
    'group-name': (g) => [g.GroupName],
    description: (g) => [g.Description],
    'vpc-id': (g) => [g.VpcId ?? ''],
    'owner-id': () => [LAB_ACCOUNT_ID],
  };
  for (const [prefix, key] of [
    ['ip-permission', 'IpPermissions'],
    ['egress.ip-permission', 'IpPermissionsEgress'],
  ] as const) {
    fields[`${prefix}.cidr`] = permField(key, (x) => x.IpRanges.map((r) => r.CidrIp));
    fields[`${prefix}.protocol`] = permField(key, (x) => [x.IpProtocol]);
    fields[`${prefix}.from-port`] = permField(key, (x) => [String(x.FromPort ?? -1)]);
    fields[`${prefix}.to-port`] = permField(key, (x) => [String(x.ToPort ?? -1)]);
    fields[`${prefix}.group-id`] = permField(key, (x) => x.UserIdGroupPairs.map((u) => u.GroupId));
  }
  const out = applyFilters(groups, readFilters(p.values.get('filters')), fields);
  return json({ SecurityGroups: out.map(sgOut) });
};

/** One rule unit: a protocol/port range and one peer (a CIDR or a group). */
interface RuleUnit {
  proto: string;
  from?: number;
  to?: number;
  cidr?: string;
  cidrDescription?: string;
  groupId?: string;
}

const SG_SPECS: Record<string, ParamSpec> = {
  'group-id': { kind: 'string' },
  'group-name': { kind: 'string' },
  protocol: { kind: 'string' },
  port: { kind: 'string' },
  cidr: { kind: 'string' },
  'source-group': { kind: 'string' },
  'group-owner': { kind: 'string' },
  'ip-permissions': { kind: 'struct-list' },
};

function readRuleUnits(p: ParsedArgs, state: VpcState): RuleUnit[] | Out {
  const v = p.values;
  const perms = v.get('ip-permissions') as Array<Record<string, unknown>> | undefined;
  if (perms) {
    for (const key of ['protocol', 'port', 'cidr', 'source-group', 'group-owner'])
      if (v.has(key)) return plain(`The --${key} option is not compatible with the --ip-permissions option `);
  }
  const raw: Array<Record<string, unknown>> = perms ?? [];
  if (!perms) {
    // secgroupsimplify: the scalar options build one IpPermissions entry
    const perm: Record<string, unknown> = {};
    const protocol = v.get('protocol') as string | undefined;
    if (protocol !== undefined) {
      const n = /^-?\d+$/.test(protocol) ? Number(protocol) : null;
      if (n !== null && (n < -1 || n > 255))
        return plain('protocol numbers must be in the range 0-255 or -1 to specify all protocols');
      if (n === null && !['tcp', 'udp', 'icmp', 'all'].includes(protocol))
        return plain('protocol parameter should be one of: tcp|udp|icmp|all or any valid protocol number.');
      perm['IpProtocol'] = protocol === 'all' ? '-1' : protocol;
    }
    const port = v.get('port') as string | undefined;
    if (port !== undefined) {
      let from: string;
      let to: string;
      if (port === '-1' || port === 'all') [from, to] = ['-1', '-1'];
      else if (port.includes('-'))
        [from, to] = [port.slice(0, port.indexOf('-')), port.slice(port.indexOf('-') + 1)];
      else [from, to] = [port, port];
      if (!/^-?\d+$/.test(from) || !/^-?\d+$/.test(to))
        return plain('port parameter should be of the form <from[-to]> (e.g. 22 or 22-25)');
      perm['FromPort'] = Number(from);
      perm['ToPort'] = Number(to);
    }
    const cidr = v.get('cidr') as string | undefined;
    if (cidr !== undefined) perm['IpRanges'] = [{ CidrIp: cidr }];
    const sg = v.get('source-group') as string | undefined;
    if (sg !== undefined)
      perm['UserIdGroupPairs'] = [sg.startsWith('sg-') ? { GroupId: sg } : { GroupName: sg }];
    if (Object.keys(perm).length > 0) raw.push(perm);
  }
  if (raw.length === 0) throw svc('MissingParameter', 'The request must contain the parameter ipPermissions');
  const units: RuleUnit[] = [];
  raw.forEach((perm, k) => {
    const protoRaw = perm['IpProtocol'];
    if (protoRaw === undefined)
      throw svc('MissingParameter', 'The request must contain the parameter ipProtocol');
    const proto = normalizeSgProtocol(String(protoRaw));
    if (proto === null)
      throw svc(
        'InvalidParameterValue',
        `Invalid value '${String(protoRaw)}' for IP protocol. Unknown protocol.`,
      );
    let from = perm['FromPort'] === undefined ? undefined : asInt(perm['FromPort']);
    let to = perm['ToPort'] === undefined ? undefined : asInt(perm['ToPort']);
    if (from === null)
      throw new PlainError(invalidType(`IpPermissions[${k}].FromPort`, perm['FromPort'], 'int'));
    if (to === null) throw new PlainError(invalidType(`IpPermissions[${k}].ToPort`, perm['ToPort'], 'int'));
    if (proto === 'tcp' || proto === 'udp') {
      if (from === undefined || to === undefined || from === -1 || to === -1) {
        if (from === -1 && to === -1) [from, to] = [0, 65535];
        else
          throw svc(
            'InvalidParameterValue',
            "Invalid value 'Must specify both from and to ports with TCP/UDP.' for portRange.",
          );
      }
      if (from < 0 || to > 65535 || from > to)
        throw svc(
          'InvalidParameterValue',
          `Invalid value '${from}-${to}' for portRange. The port range must be 0-65535 with from ≤ to.`,
        );
    } else if (proto === 'icmp') {
      from ??= -1;
      to ??= -1;
    } else {
      from = undefined;
      to = undefined;
    }
    const ranges = (perm['IpRanges'] as Array<Record<string, unknown>> | undefined) ?? [];
    const pairs = (perm['UserIdGroupPairs'] as Array<Record<string, unknown>> | undefined) ?? [];
    if (perm['Ipv6Ranges'] || perm['PrefixListIds'])
      throw new PlainError('aws: IPv6 ranges and prefix lists are not simulated in ec2-netlab');
    for (const r of ranges) {
      const c = String(r['CidrIp'] ?? '');
      if ('error' in parseCidrDetailed(c)) throw svc('InvalidParameterValue', `CIDR block ${c} is malformed`);
      const u: RuleUnit = { proto, cidr: c };
      if (from !== undefined) [u.from, u.to] = [from, to];
      if (r['Description'] !== undefined) u.cidrDescription = String(r['Description']);
      units.push(u);
    }
    for (const pr of pairs) {
      let gid = pr['GroupId'] as string | undefined;
      if (gid === undefined && pr['GroupName'] !== undefined) {
        const byName = state.vpc.SecurityGroups.find((g) => g.GroupName === pr['GroupName']);
        if (!byName)
          throw svc(
            'InvalidGroup.NotFound',
            `The security group '${String(pr['GroupName'])}' does not exist`,
          );
        gid = byName.GroupId;
      }
      if (gid === undefined) throw svc('MissingParameter', 'The request must contain the parameter groupId');
      checkGroupId(state, gid);
      const u: RuleUnit = { proto, groupId: gid };
      if (from !== undefined) [u.from, u.to] = [from, to];
      units.push(u);
    }
    if (ranges.length === 0 && pairs.length === 0) {
      throw svc(
        'InvalidParameterValue',
        'The request must contain a CIDR block (--cidr) or a source group (--source-group)',
      );
    }
  });
  return units;
}

class PlainError {
  constructor(readonly message: string) {}
}

const samePorts = (p: IpPermission, u: RuleUnit) =>
  p.IpProtocol === u.proto && p.FromPort === u.from && p.ToPort === u.to;

function unitExists(perms: IpPermission[], u: RuleUnit): boolean {
  return perms.some(
    (p) =>
      samePorts(p, u) &&
      (u.cidr !== undefined
        ? p.IpRanges.some((r) => r.CidrIp === u.cidr)
        : p.UserIdGroupPairs.some((g) => g.GroupId === u.groupId)),
  );
}

/** The text AWS puts in InvalidPermission.Duplicate: `peer: 0.0.0.0/0, TCP, from port: 22, to port: 22, ALLOW`. */
function ruleText(u: RuleUnit): string {
  const peer = u.cidr ?? u.groupId;
  if (u.proto === '-1') return `peer: ${peer}, ALL, ALLOW`;
  if (u.proto === 'tcp' || u.proto === 'udp')
    return `peer: ${peer}, ${u.proto.toUpperCase()}, from port: ${u.from}, to port: ${u.to}, ALLOW`;
  if (u.proto === 'icmp') return `peer: ${peer}, ICMP, type: ${u.from}, code: ${u.to}, ALLOW`;
  return `peer: ${peer}, protocol: ${u.proto}, ALLOW`;
}

function ruleJson(seed: number, groupId: string, egress: boolean, u: RuleUnit) {
  const o: Record<string, unknown> = {
    SecurityGroupRuleId: resourceId(
      'sgr',
      seed,
      `${groupId}/${egress ? 'egress' : 'ingress'}/${ruleText(u)}`,
    ),
    GroupId: groupId,
    GroupOwnerId: LAB_ACCOUNT_ID,
    IsEgress: egress,
    IpProtocol: u.proto,
    FromPort: u.from ?? -1,
    ToPort: u.to ?? -1,
  };
  if (u.cidr !== undefined) o['CidrIpv4'] = u.cidr;
  else o['ReferencedGroupInfo'] = { GroupId: u.groupId, UserId: LAB_ACCOUNT_ID };
  if (u.cidrDescription !== undefined) o['Description'] = u.cidrDescription;
  return o;
}

function sgChange(egress: boolean, revoke: boolean): Handler {
  return (args, state, lab, opName) => {
    const p = parse(args, SG_SPECS, egress ? [] : [['group-id', 'group-name']]);
    if (isOut(p)) return p;
    if (egress && !p.values.has('group-id')) return usage('the following arguments are required: --group-id');
    let units: RuleUnit[] | Out;
    let group: SecurityGroup;
    try {
      const gid = p.values.get('group-id') as string | undefined;
      if (gid !== undefined) group = checkGroupId(state, gid);
      else {
        const name = p.values.get('group-name') as string;
        const g = state.vpc.SecurityGroups.find((x) => x.GroupName === name);
        if (!g)
          throw svc(
            'InvalidGroup.NotFound',
            `The security group '${name}' does not exist in default VPC 'none'`,
          );
        group = g;
      }
      units = readRuleUnits(p, state);
    } catch (e) {
      if (e instanceof PlainError) return plain(e.message);
      throw e;
    }
    if (!Array.isArray(units)) return units;
    const key = egress ? 'IpPermissionsEgress' : 'IpPermissions';
    const next = structuredClone(state.vpc) as Vpc;
    const g = next.SecurityGroups.find((x) => x.GroupId === group.GroupId)!;
    const seed = lab.scenario.seed;
    if (!revoke) {
      for (const u of units) {
        if (unitExists(g[key], u))
          throw svc('InvalidPermission.Duplicate', `the specified rule "${ruleText(u)}" already exists`);
      }
      const count = g[key].reduce((n, x) => n + permissionRuleCount(x), 0) + units.length;
      if (count > VPC_QUOTAS.sgRulesPerDirection)
        throw svc(
          'RulesPerSecurityGroupLimitExceeded',
          'The maximum number of rules per security group has been reached.',
        );
      dryRun(p);
      for (const u of units) {
        let perm = g[key].find((x) => samePorts(x, u));
        if (!perm) {
          perm = {
            IpProtocol: u.proto,
            IpRanges: [],
            Ipv6Ranges: [],
            PrefixListIds: [],
            UserIdGroupPairs: [],
          };
          if (u.from !== undefined) [perm.FromPort, perm.ToPort] = [u.from, u.to];
          g[key].push(perm);
        }
        if (u.cidr !== undefined)
          perm.IpRanges.push(
            u.cidrDescription !== undefined
              ? { CidrIp: u.cidr, Description: u.cidrDescription }
              : { CidrIp: u.cidr },
          );
        else perm.UserIdGroupPairs.push({ GroupId: u.groupId!, UserId: LAB_ACCOUNT_ID });
      }
      commit(state, next, 'security-group', group.GroupId, opName);
      return json({
        Return: true,
        SecurityGroupRules: units.map((u) => ruleJson(seed, group.GroupId, egress, u)),
      });
    }
    for (const u of units) {
      if (!unitExists(g[key], u))
        throw svc('InvalidPermission.NotFound', 'The specified rule does not exist in this security group.');
    }
    dryRun(p);
    for (const u of units) {
      const perm = g[key].find((x) => samePorts(x, u))!;
      if (u.cidr !== undefined) perm.IpRanges = perm.IpRanges.filter((r) => r.CidrIp !== u.cidr);
      else perm.UserIdGroupPairs = perm.UserIdGroupPairs.filter((x) => x.GroupId !== u.groupId);
    }
    g[key] = g[key].filter((x) => permissionRuleCount(x) > 0);
    commit(state, next, 'security-group', group.GroupId, opName);
    return json({
      Return: true,
      RevokedSecurityGroupRules: units.map((u) => ruleJson(seed, group.GroupId, egress, u)),
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Network ACLs
// ---------------------------------------------------------------------------------------------

function entryOut(e: NaclEntryShape) {
  const o: Record<string, unknown> = { CidrBlock: e.CidrBlock, Egress: e.Egress };
  if (e.IcmpTypeCode) o['IcmpTypeCode'] = { Code: e.IcmpTypeCode.Code, Type: e.IcmpTypeCode.Type };
  if (e.PortRange) o['PortRange'] = { From: e.PortRange.From, To: e.PortRange.To };
  o['Protocol'] = e.Protocol;
  o['RuleAction'] = e.RuleAction;
  o['RuleNumber'] = e.RuleNumber;
  return o;
}

function aclOut(a: NetworkAcl, seed: number) {
  // the `*` rules are the API's RuleNumber 32767; AWS lists egress entries first, each ascending
  const star = (egress: boolean): NaclEntryShape => ({
    RuleNumber: 32767,
    Egress: egress,
    Protocol: '-1',
    RuleAction: 'deny',
    CidrBlock: '0.0.0.0/0',
  });
  const dir = (egress: boolean) => [
    ...a.Entries.filter((e) => e.Egress === egress).sort((x, y) => x.RuleNumber - y.RuleNumber),
    star(egress),
  ];
  return {
    Associations: a.Associations.map((s) => ({
      NetworkAclAssociationId: resourceId('aclassoc', seed, `${a.NetworkAclId}/${s.SubnetId}`),
      NetworkAclId: a.NetworkAclId,
      SubnetId: s.SubnetId,
    })),
    Entries: [...dir(true), ...dir(false)].map(entryOut),
    IsDefault: a.IsDefault,
    NetworkAclId: a.NetworkAclId,
    Tags: [],
    VpcId: a.VpcId,
    OwnerId: LAB_ACCOUNT_ID,
  };
}

const describeNetworkAcls: Handler = (args, state, lab) => {
  const p = parse(args, { 'network-acl-ids': { kind: 'list' }, filters: { kind: 'struct-list' } });
  if (isOut(p)) return p;
  dryRun(p);
  let acls = state.vpc.NetworkAcls;
  const ids = p.values.get('network-acl-ids') as string[] | undefined;
  if (ids) acls = ids.map((id) => findAcl(state, id));
  const out = applyFilters(acls, readFilters(p.values.get('filters')), {
    'network-acl-id': (a) => [a.NetworkAclId],
    'vpc-id': (a) => [a.VpcId ?? ''],
    default: (a) => [String(a.IsDefault)],
    'association.subnet-id': (a) => a.Associations.map((s) => s.SubnetId),
    'owner-id': () => [LAB_ACCOUNT_ID],
  });
  return json({ NetworkAcls: out.map((a) => aclOut(a, lab.scenario.seed)) });
};

function findAcl(state: VpcState, id: string): NetworkAcl {
  if (!id.startsWith('acl-')) throw malformed('acl', id, 'InvalidNetworkAclID.Malformed');
  const a = state.networkAcl(id);
  if (!a) throw svc('InvalidNetworkAclID.NotFound', `The networkAcl ID '${id}' does not exist`);
  return a;
}

const ENTRY_SPECS: Record<string, ParamSpec> = {
  'network-acl-id': { kind: 'string', required: true },
  'rule-number': { kind: 'int', required: true },
  protocol: { kind: 'string' },
  'rule-action': { kind: 'string' },
  egress: { kind: 'flag', negates: 'ingress' },
  ingress: { kind: 'flag', negates: 'egress' },
  'cidr-block': { kind: 'string' },
  'ipv6-cidr-block': { kind: 'string' },
  'port-range': { kind: 'struct' },
  'icmp-type-code': { kind: 'struct' },
};

function naclEntryOp(mode: 'create' | 'replace' | 'delete'): Handler {
  return (args, state, _lab, opName) => {
    const specs: Record<string, ParamSpec> =
      mode === 'delete'
        ? {
            'network-acl-id': ENTRY_SPECS['network-acl-id']!,
            'rule-number': ENTRY_SPECS['rule-number']!,
            egress: ENTRY_SPECS['egress']!,
            ingress: ENTRY_SPECS['ingress']!,
          }
        : {
            ...ENTRY_SPECS,
            protocol: { kind: 'string', required: true },
            'rule-action': { kind: 'string', required: true },
          };
    const p = parse(args, specs, [['egress', 'ingress']]);
    if (isOut(p)) return p;
    const v = p.values;
    if (v.has('ipv6-cidr-block'))
      return fail('aws: IPv6 network ACL entries are not simulated in ec2-netlab', AWS_EXIT.usage);
    const acl = findAcl(state, v.get('network-acl-id') as string);
    const egress = v.get('egress') === true;
    const rn = v.get('rule-number') as number;
    if (rn < 1 || rn > 32766)
      throw svc(
        'InvalidParameterValue',
        `Invalid value '${rn}' for ruleNumber. Rule numbers must be between 1 and 32766.`,
      );
    const next = structuredClone(state.vpc) as Vpc;
    const a = next.NetworkAcls.find((x) => x.NetworkAclId === acl.NetworkAclId)!;
    const idx = a.Entries.findIndex((e) => e.RuleNumber === rn && e.Egress === egress);
    if (mode === 'create' && idx >= 0)
      throw svc('NetworkAclEntryAlreadyExists', `The network acl entry identified by ${rn} already exists.`);
    if (mode !== 'create' && idx < 0)
      throw svc(
        'InvalidNetworkAclEntry.NotFound',
        `The network acl entry identified by ${rn} does not exist.`,
      );
    if (mode === 'delete') {
      dryRun(p);
      a.Entries.splice(idx, 1);
      commit(state, next, 'network-acl', acl.NetworkAclId, opName);
      return silent();
    }
    const entry = readNaclEntry(v, rn, egress);
    if ('out' in entry) return entry.out;
    if (mode === 'create') {
      if (a.Entries.filter((e) => e.Egress === egress).length >= VPC_QUOTAS.naclRulesPerDirection)
        throw svc(
          'NetworkAclEntryLimitExceeded',
          'The maximum number of network ACL entries has been reached.',
        );
      dryRun(p);
      a.Entries.push(entry.entry);
    } else {
      dryRun(p);
      a.Entries[idx] = entry.entry;
    }
    commit(state, next, 'network-acl', acl.NetworkAclId, opName);
    return silent();
  };
}

function readNaclEntry(
  v: Map<string, unknown>,
  rn: number,
  egress: boolean,
): { entry: NaclEntryShape } | { out: Out } {
  const protoRaw = v.get('protocol') as string;
  const proto = normalizeNaclProtocol(protoRaw);
  if (proto === null)
    throw svc(
      'InvalidParameterValue',
      `Invalid value '${protoRaw}' for protocol. Must be -1, a protocol name or a protocol number.`,
    );
  const action = v.get('rule-action') as string;
  if (action !== 'allow' && action !== 'deny')
    throw svc('InvalidParameterValue', `Invalid value '${action}' for ruleAction. Must be allow or deny.`);
  const cidr = v.get('cidr-block') as string | undefined;
  if (cidr === undefined)
    throw svc('MissingParameter', 'The request must contain the parameter cidrBlock or ipv6CidrBlock');
  if (parseCidr(cidr) === null)
    throw svc(
      'InvalidParameterValue',
      `Value (${cidr}) for parameter cidrBlock is invalid. This is not a valid CIDR block.`,
    );
  const entry: NaclEntryShape = {
    RuleNumber: rn,
    Egress: egress,
    Protocol: proto,
    RuleAction: action,
    CidrBlock: cidr,
  };
  const pr = v.get('port-range') as Record<string, unknown> | undefined;
  const ic = v.get('icmp-type-code') as Record<string, unknown> | undefined;
  if (proto === '6' || proto === '17') {
    if (!pr)
      throw svc('InvalidParameterValue', 'TCP and UDP entries need a port range (--port-range From=N,To=N).');
    const from = asInt(pr['From']);
    const to = asInt(pr['To']);
    if (from === null) return { out: plain(invalidType('PortRange.From', pr['From'], 'int')) };
    if (to === null) return { out: plain(invalidType('PortRange.To', pr['To'], 'int')) };
    if (from < 0 || to > 65535 || from > to)
      throw svc(
        'InvalidParameterValue',
        `Invalid value '${from}-${to}' for portRange. Ports are 0-65535 with From ≤ To.`,
      );
    entry.PortRange = { From: from, To: to };
  }
  if (proto === '1') {
    if (!ic)
      throw svc('InvalidParameterValue', 'ICMP entries need --icmp-type-code Type=N,Code=N (-1 = all).');
    const type = asInt(ic['Type']);
    const code = asInt(ic['Code']);
    if (type === null) return { out: plain(invalidType('IcmpTypeCode.Type', ic['Type'], 'int')) };
    if (code === null) return { out: plain(invalidType('IcmpTypeCode.Code', ic['Code'], 'int')) };
    entry.IcmpTypeCode = { Code: code, Type: type };
  }
  return { entry };
}

// ---------------------------------------------------------------------------------------------
// Route tables
// ---------------------------------------------------------------------------------------------

function routeOut(r: Route) {
  const o: Record<string, unknown> = { DestinationCidrBlock: r.DestinationCidrBlock };
  if (r.GatewayId !== undefined) o['GatewayId'] = r.GatewayId;
  if (r.NatGatewayId !== undefined) o['NatGatewayId'] = r.NatGatewayId;
  if (r.NetworkInterfaceId !== undefined) o['NetworkInterfaceId'] = r.NetworkInterfaceId;
  o['Origin'] = r.Origin;
  o['State'] = r.State;
  return o;
}

function tableOut(t: RouteTable, seed: number) {
  return {
    Associations: t.Associations.map((a) => {
      const o: Record<string, unknown> = {
        Main: a.Main === true,
        RouteTableAssociationId: resourceId('rtbassoc', seed, `${t.RouteTableId}/${a.SubnetId ?? 'main'}`),
        RouteTableId: t.RouteTableId,
      };
      if (a.SubnetId !== undefined) o['SubnetId'] = a.SubnetId;
      o['AssociationState'] = { State: 'associated' };
      return o;
    }),
    PropagatingVgws: [],
    RouteTableId: t.RouteTableId,
    Routes: t.Routes.map(routeOut),
    Tags: [],
    VpcId: t.VpcId,
    OwnerId: LAB_ACCOUNT_ID,
  };
}

function findTable(state: VpcState, id: string): RouteTable {
  if (!id.startsWith('rtb-')) throw malformed('rtb', id, 'InvalidRouteTableId.Malformed');
  const t = state.routeTable(id);
  if (!t) throw svc('InvalidRouteTableID.NotFound', `The routeTable ID '${id}' does not exist`);
  return t;
}

const describeRouteTables: Handler = (args, state, lab) => {
  const p = parse(args, { 'route-table-ids': { kind: 'list' }, filters: { kind: 'struct-list' } });
  if (isOut(p)) return p;
  dryRun(p);
  let tables = state.vpc.RouteTables;
  const ids = p.values.get('route-table-ids') as string[] | undefined;
  if (ids) tables = ids.map((id) => findTable(state, id));
  const out = applyFilters(tables, readFilters(p.values.get('filters')), {
    'route-table-id': (t) => [t.RouteTableId],
    'vpc-id': (t) => [t.VpcId ?? ''],
    'association.main': (t) => [String(t.Associations.some((a) => a.Main === true))],
    'association.subnet-id': (t) => t.Associations.flatMap((a) => (a.SubnetId ? [a.SubnetId] : [])),
    'route.destination-cidr-block': (t) => t.Routes.map((r) => r.DestinationCidrBlock),
    'route.gateway-id': (t) => t.Routes.flatMap((r) => (r.GatewayId ? [r.GatewayId] : [])),
    'owner-id': () => [LAB_ACCOUNT_ID],
  });
  return json({ RouteTables: out.map((t) => tableOut(t, lab.scenario.seed)) });
};

const ROUTE_SPECS: Record<string, ParamSpec> = {
  'route-table-id': { kind: 'string', required: true },
  'destination-cidr-block': { kind: 'string' },
  'gateway-id': { kind: 'string' },
  'nat-gateway-id': { kind: 'string' },
  'network-interface-id': { kind: 'string' },
  'instance-id': { kind: 'string' },
  'destination-ipv6-cidr-block': { kind: 'string' },
};

function routeOp(mode: 'create' | 'replace' | 'delete'): Handler {
  return (args, state, _lab, opName) => {
    const specs =
      mode === 'delete'
        ? {
            'route-table-id': ROUTE_SPECS['route-table-id']!,
            'destination-cidr-block': ROUTE_SPECS['destination-cidr-block']!,
            'destination-ipv6-cidr-block': ROUTE_SPECS['destination-ipv6-cidr-block']!,
          }
        : ROUTE_SPECS;
    const p = parse(args, specs);
    if (isOut(p)) return p;
    const v = p.values;
    if (v.has('destination-ipv6-cidr-block'))
      return fail('aws: IPv6 routes are not simulated in ec2-netlab', AWS_EXIT.usage);
    const t = findTable(state, v.get('route-table-id') as string);
    const dest = v.get('destination-cidr-block') as string | undefined;
    if (dest === undefined)
      throw svc(
        'MissingParameter',
        'The request must contain the parameter destinationCidrBlock or destinationIpv6CidrBlock',
      );
    if (parseCidr(dest) === null)
      throw svc(
        'InvalidParameterValue',
        `Value (${dest}) for parameter destinationCidrBlock is invalid. This is not a valid CIDR block.`,
      );
    const next = structuredClone(state.vpc) as Vpc;
    const table = next.RouteTables.find((x) => x.RouteTableId === t.RouteTableId)!;
    const idx = table.Routes.findIndex((r) => r.DestinationCidrBlock === dest);
    if (mode === 'delete') {
      if (idx < 0)
        throw svc(
          'InvalidRoute.NotFound',
          `no route with destination-cidr-block ${dest} in route table ${t.RouteTableId}`,
        );
      if (table.Routes[idx]!.GatewayId === 'local')
        throw svc(
          'InvalidParameterValue',
          `cannot remove local route ${dest} in route table ${t.RouteTableId}`,
        );
      dryRun(p);
      table.Routes.splice(idx, 1);
      commit(state, next, 'route-table', t.RouteTableId, opName);
      return silent();
    }
    if (v.has('instance-id'))
      return fail(
        'aws: --instance-id route targets are not simulated in ec2-netlab (use --network-interface-id)',
        AWS_EXIT.usage,
      );
    const targets = (['gateway-id', 'nat-gateway-id', 'network-interface-id'] as const).filter((k) =>
      v.has(k),
    );
    if (targets.length !== 1)
      throw svc(
        targets.length === 0 ? 'MissingParameter' : 'InvalidParameterCombination',
        targets.length === 0
          ? 'The request must contain exactly one of gatewayId, natGatewayId, networkInterfaceId'
          : 'The request must contain exactly one of gatewayId, natGatewayId, networkInterfaceId',
      );
    const route: Route = { DestinationCidrBlock: dest, State: 'active', Origin: 'CreateRoute' };
    const target = v.get(targets[0]!) as string;
    if (targets[0] === 'gateway-id') {
      if (!state.vpc.InternetGateways.some((g) => g.InternetGatewayId === target))
        throw svc('InvalidGatewayID.NotFound', `The gateway ID '${target}' does not exist`);
      route.GatewayId = target;
      const c = parseCidr(dest)!;
      const vpcC = parseCidr(state.vpc.CidrBlock)!;
      if (
        dest !== state.vpc.CidrBlock &&
        c.prefix >= vpcC.prefix &&
        (c.network & (vpcC.prefix === 0 ? 0 : (0xffffffff << (32 - vpcC.prefix)) >>> 0)) >>> 0 ===
          vpcC.network
      )
        throw svc(
          'InvalidParameterValue',
          `The destination CIDR block ${dest} is equal to or more specific than one of this VPC's CIDR blocks. This route can target only an interface or an instance.`,
        );
    } else if (targets[0] === 'nat-gateway-id') {
      throw svc('InvalidNatGatewayID.NotFound', `The natGateway ID '${target}' does not exist`);
    } else {
      if (!isResourceId('eni', target) && !target.startsWith('eni-'))
        throw malformed('eni', target, 'InvalidNetworkInterfaceID.Malformed');
      if (!state.eniById(target))
        throw svc('InvalidNetworkInterfaceID.NotFound', `The networkInterface ID '${target}' does not exist`);
      route.NetworkInterfaceId = target;
    }
    if (mode === 'create') {
      if (idx >= 0) throw svc('RouteAlreadyExists', `The route identified by ${dest} already exists.`);
      dryRun(p);
      table.Routes.push(route);
      commit(state, next, 'route-table', t.RouteTableId, opName);
      return json({ Return: true });
    }
    if (idx < 0)
      throw svc(
        'InvalidParameterValue',
        `There is no route defined for '${dest}' in the route table. Use CreateRoute instead.`,
      );
    if (table.Routes[idx]!.GatewayId === 'local')
      throw svc(
        'InvalidParameterValue',
        `cannot replace local route ${dest} in route table ${t.RouteTableId} (middlebox routing is not simulated in ec2-netlab)`,
      );
    dryRun(p);
    table.Routes[idx] = { ...route, Origin: table.Routes[idx]!.Origin };
    commit(state, next, 'route-table', t.RouteTableId, opName);
    return silent();
  };
}

// ---------------------------------------------------------------------------------------------
// Network interfaces
// ---------------------------------------------------------------------------------------------

function findEni(state: VpcState, id: string): Eni {
  if (!id.startsWith('eni-')) throw malformed('eni', id, 'InvalidNetworkInterfaceID.Malformed');
  const e = state.eniById(id);
  if (!e) throw svc('InvalidNetworkInterfaceID.NotFound', `The networkInterface ID '${id}' does not exist`);
  return e;
}

const CT_KEYS = ['TcpEstablishedTimeout', 'UdpStreamTimeout', 'UdpTimeout'] as const;

const modifyNetworkInterfaceAttribute: Handler = (args, state, _lab, opName) => {
  const p = parse(args, {
    'network-interface-id': { kind: 'string', required: true },
    'ena-srd-specification': { kind: 'struct' },
    'connection-tracking-specification': { kind: 'struct' },
    groups: { kind: 'list' },
    description: { kind: 'struct' },
    'source-dest-check': { kind: 'flag', negates: 'no-source-dest-check' },
    'no-source-dest-check': { kind: 'flag', negates: 'source-dest-check' },
    attachment: { kind: 'struct' },
  });
  if (isOut(p)) return p;
  const v = p.values;
  for (const k of ['description', 'source-dest-check', 'no-source-dest-check', 'attachment'])
    if (v.has(k)) return fail(`aws: --${k} is not simulated in ec2-netlab`, AWS_EXIT.usage);
  const eni = findEni(state, v.get('network-interface-id') as string);
  const changes = ['ena-srd-specification', 'connection-tracking-specification', 'groups'].filter((k) =>
    v.has(k),
  );
  if (changes.length === 0)
    throw svc(
      'MissingParameter',
      'You must specify one attribute: description, sourceDestCheck, groups, attachment, enaSrdSpecification or connectionTrackingSpecification',
    );
  const enis = state.enis.map((e) => ({
    ...e,
    securityGroups: [...e.securityGroups],
    enaSrd: structuredClone(e.enaSrd),
    connectionTracking: { ...e.connectionTracking },
  }));
  const mine = enis[state.enis.indexOf(eni)]!;
  const srd = v.get('ena-srd-specification') as Record<string, unknown> | undefined;
  if (srd) {
    const enabled =
      srd['EnaSrdEnabled'] === undefined ? mine.enaSrd.EnaSrdEnabled : asBool(srd['EnaSrdEnabled']);
    if (enabled === null)
      return plain(invalidType('EnaSrdSpecification.EnaSrdEnabled', srd['EnaSrdEnabled'], 'bool'));
    const udpSpec = srd['EnaSrdUdpSpecification'] as Record<string, unknown> | undefined;
    const udp =
      udpSpec?.['EnaSrdUdpEnabled'] === undefined
        ? mine.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled
        : asBool(udpSpec['EnaSrdUdpEnabled']);
    if (udp === null)
      return plain(
        invalidType(
          'EnaSrdSpecification.EnaSrdUdpSpecification.EnaSrdUdpEnabled',
          udpSpec?.['EnaSrdUdpEnabled'],
          'bool',
        ),
      );
    // AWS's exact wording for an unsupported type is not public: ours, in AWS's shape (AWS-ENAX)
    if (enabled && !eni.spec.enaExpressSupported.value)
      throw svc(
        'UnsupportedOperation',
        `ENA Express is not supported for instance type '${eni.instanceType}'.`,
      );
    if (udp && !enabled)
      throw svc('InvalidParameterCombination', 'EnaSrdUdpEnabled requires EnaSrdEnabled to be true.');
    mine.enaSrd = { EnaSrdEnabled: enabled, EnaSrdUdpSpecification: { EnaSrdUdpEnabled: udp } };
  }
  const ct = v.get('connection-tracking-specification') as Record<string, unknown> | undefined;
  if (ct) {
    for (const k of Object.keys(ct))
      if (!(CT_KEYS as readonly string[]).includes(k))
        return plain(
          `Parameter validation failed:\nUnknown parameter in ConnectionTrackingSpecification: "${k}", must be one of: ${CT_KEYS.join(', ')}`,
        );
    for (const k of CT_KEYS) {
      if (ct[k] === undefined) continue;
      const n = asInt(ct[k]);
      if (n === null) return plain(invalidType(`ConnectionTrackingSpecification.${k}`, ct[k], 'int'));
      if (conntrackTimeoutProblem(k, n)) {
        const b = BOUNDS_TEXT[k];
        throw svc('InvalidParameterValue', `Invalid value '${n}' for ${k}. The value must be between ${b}.`);
      }
      mine.connectionTracking[k] = n;
    }
  }
  const groups = v.get('groups') as string[] | undefined;
  if (groups) {
    for (const g of groups) checkGroupId(state, g);
    if (groups.length > VPC_QUOTAS.sgsPerEni)
      throw svc(
        'SecurityGroupsPerInterfaceLimitExceeded',
        'The maximum number of security groups per interface has been reached.',
      );
    mine.securityGroups = [...new Set(groups)];
  }
  dryRun(p);
  commit(state, structuredClone(state.vpc) as Vpc, 'network-interface', eni.eniId, opName, enis);
  return silent();
};

const BOUNDS_TEXT: Record<(typeof CT_KEYS)[number], string> = {
  TcpEstablishedTimeout: '60 and 432000 seconds',
  UdpStreamTimeout: '60 and 180 seconds',
  UdpTimeout: '30 and 60 seconds',
};

/** An ENI's addresses as the EC2 API lists them (primary first), in both describe-* layouts. */
function privateIpAddresses(e: Eni) {
  return [e.ip, ...e.secondaryIps].map((ip, k) => ({
    Primary: k === 0,
    PrivateDnsName: privateDnsName(ip),
    PrivateIpAddress: ip,
  }));
}

function eniOut(state: VpcState, lab: Lab, e: Eni) {
  const subnet = state.subnet(e.subnetId);
  const mac = lab.instance(e.instanceName)?.host.eth0.link().mac ?? '';
  const o: Record<string, unknown> = {
    Attachment: {
      AttachTime: isoUtc(lab.wallClockStartS),
      AttachmentId: resourceId('eni-attach', lab.scenario.seed, e.eniId),
      DeleteOnTermination: true,
      DeviceIndex: 0,
      NetworkCardIndex: 0,
      InstanceId: e.instanceId,
      InstanceOwnerId: LAB_ACCOUNT_ID,
      Status: 'attached',
      EnaSrdSpecification: {
        EnaSrdEnabled: e.enaSrd.EnaSrdEnabled,
        EnaSrdUdpSpecification: { EnaSrdUdpEnabled: e.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled },
      },
    },
    AvailabilityZone: subnet?.AvailabilityZone,
  };
  if (Object.keys(e.connectionTracking).length > 0) {
    const t = state.timeouts(e);
    o['ConnectionTrackingConfiguration'] = {
      TcpEstablishedTimeout: t.tcpEstablishedS,
      UdpStreamTimeout: t.udpStreamS,
      UdpTimeout: t.udpS,
    };
  }
  Object.assign(o, {
    Description: '',
    Groups: e.securityGroups.map((id) => ({ GroupName: state.group(id)?.GroupName ?? '', GroupId: id })),
    InterfaceType: 'interface',
    Ipv6Addresses: [],
    MacAddress: mac,
    NetworkInterfaceId: e.eniId,
    OwnerId: LAB_ACCOUNT_ID,
    PrivateDnsName: privateDnsName(e.ip),
    PrivateIpAddress: e.ip,
    PrivateIpAddresses: privateIpAddresses(e),
    RequesterManaged: false,
    SourceDestCheck: true,
    Status: 'in-use',
    SubnetId: e.subnetId,
    TagSet: [],
    VpcId: state.vpc.VpcId,
  });
  return o;
}

const describeNetworkInterfaces: Handler = (args, state, lab) => {
  const p = parse(args, { 'network-interface-ids': { kind: 'list' }, filters: { kind: 'struct-list' } });
  if (isOut(p)) return p;
  dryRun(p);
  let enis = state.enis;
  const ids = p.values.get('network-interface-ids') as string[] | undefined;
  if (ids) enis = ids.map((id) => findEni(state, id));
  const out = applyFilters(enis, readFilters(p.values.get('filters')), {
    'network-interface-id': (e) => [e.eniId],
    'attachment.instance-id': (e) => [e.instanceId],
    'subnet-id': (e) => [e.subnetId],
    'vpc-id': () => [state.vpc.VpcId],
    'private-ip-address': (e) => [e.ip, ...e.secondaryIps],
    'addresses.private-ip-address': (e) => [e.ip, ...e.secondaryIps],
    'group-id': (e) => e.securityGroups,
    'availability-zone': (e) => [state.subnet(e.subnetId)?.AvailabilityZone ?? ''],
  });
  return json({ NetworkInterfaces: out.map((e) => eniOut(state, lab, e)) });
};

// ---------------------------------------------------------------------------------------------
// Instances
// ---------------------------------------------------------------------------------------------

/**
 * One instance as DescribeInstances prints it (AWS CLI v2, the Instance shape's member order). Only
 * members the lab knows are printed; omitted: KeyName and Tags (none), PublicIpAddress and the
 * interface's Association (the lab's instances have no public address), IamInstanceProfile,
 * ClientToken, CapacityReservationSpecification, HibernationOptions, MetadataOptions,
 * EnclaveOptions, BootMode, PlatformDetails, UsageOperation(UpdateTime), PrivateDnsNameOptions,
 * MaintenanceOptions, CurrentInstanceBootMode and NetworkPerformanceOptions.
 */
function instanceOut(state: VpcState, lab: Lab, e: Eni) {
  const id = instanceIdentity(lab, state, e);
  const nic: Record<string, unknown> = {
    Attachment: {
      AttachTime: id.launchTime,
      AttachmentId: resourceId('eni-attach', lab.scenario.seed, e.eniId),
      DeleteOnTermination: true,
      DeviceIndex: 0,
      Status: 'attached',
      NetworkCardIndex: 0,
      EnaSrdSpecification: {
        EnaSrdEnabled: e.enaSrd.EnaSrdEnabled,
        EnaSrdUdpSpecification: { EnaSrdUdpEnabled: e.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled },
      },
    },
    Description: '',
    Groups: id.securityGroups,
    Ipv6Addresses: [],
    MacAddress: id.macAddress,
    NetworkInterfaceId: e.eniId,
    OwnerId: LAB_ACCOUNT_ID,
    PrivateDnsName: id.privateDnsName,
    PrivateIpAddress: e.ip,
    PrivateIpAddresses: privateIpAddresses(e),
    SourceDestCheck: true,
    Status: 'in-use',
    SubnetId: e.subnetId,
    VpcId: id.vpcId,
    InterfaceType: 'interface',
  };
  if (Object.keys(e.connectionTracking).length > 0) {
    const t = state.timeouts(e);
    nic['ConnectionTrackingConfiguration'] = {
      TcpEstablishedTimeout: t.tcpEstablishedS,
      UdpStreamTimeout: t.udpStreamS,
      UdpTimeout: t.udpS,
    };
  }
  return {
    AmiLaunchIndex: id.amiLaunchIndex,
    ImageId: id.imageId,
    InstanceId: id.instanceId,
    InstanceType: id.instanceType,
    LaunchTime: id.launchTime,
    Monitoring: { State: id.monitoring },
    Placement: {
      AvailabilityZone: id.availabilityZone,
      GroupName: id.placementGroupName,
      Tenancy: 'default',
    },
    PrivateDnsName: id.privateDnsName,
    PrivateIpAddress: id.privateIp,
    ProductCodes: [],
    PublicDnsName: '',
    State: instanceState(lab.instance(e.instanceName)),
    StateTransitionReason: '',
    SubnetId: id.subnetId,
    VpcId: id.vpcId,
    Architecture: id.architecture,
    BlockDeviceMappings: [
      {
        DeviceName: ROOT_DEVICE_NAME,
        Ebs: {
          AttachTime: id.launchTime,
          DeleteOnTermination: true,
          Status: 'attached',
          VolumeId: id.rootVolumeId,
        },
      },
    ],
    // every type of the catalog is EBS-optimized by default (Nitro)
    EbsOptimized: true,
    EnaSupport: lab.instance(e.instanceName)?.attrs.enaSupport ?? true,
    ...(lab.instance(e.instanceName)?.attrs.sriovNetSupport ? { SriovNetSupport: 'simple' } : {}),
    // what the API prints for Nitro instances too
    Hypervisor: 'xen',
    NetworkInterfaces: [nic],
    RootDeviceName: ROOT_DEVICE_NAME,
    RootDeviceType: 'ebs',
    SecurityGroups: id.securityGroups,
    SourceDestCheck: true,
    VirtualizationType: 'hvm',
    CpuOptions: { CoreCount: id.coreCount, ThreadsPerCore: id.threadsPerCore },
  };
}

/** The real service's texts (public CLI output): `Invalid id: "x"`, `The instance ID(s) '…' does (do) not exist`. */
function findInstances(state: VpcState, ids: string[]): Eni[] {
  for (const id of ids)
    if (!isResourceId('i', id)) throw svc('InvalidInstanceID.Malformed', `Invalid id: "${id}"`);
  const missing = ids.filter((id) => !state.enis.some((e) => e.instanceId === id));
  if (missing.length === 1)
    throw svc('InvalidInstanceID.NotFound', `The instance ID '${missing[0]}' does not exist`);
  if (missing.length > 1)
    throw svc('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  // the API lists the instances in its own order, once each, whatever the order asked
  return state.enis.filter((e) => ids.includes(e.instanceId));
}

const describeInstances: Handler = (args, state, lab) => {
  const p = parse(args, {
    'instance-ids': { kind: 'list' },
    filters: { kind: 'struct-list' },
    'max-results': { kind: 'int' },
    'next-token': { kind: 'string' },
  });
  if (isOut(p)) return p;
  for (const k of ['max-results', 'next-token'])
    if (p.values.has(k))
      return fail(`aws: --${k} is not simulated in ec2-netlab (the lab has one page)`, AWS_EXIT.usage);
  dryRun(p);
  const ids = p.values.get('instance-ids') as string[] | undefined;
  const enis = ids ? findInstances(state, ids) : state.enis;
  const az = (e: Eni) => state.subnet(e.subnetId)?.AvailabilityZone ?? '';
  const out = applyFilters(enis, readFilters(p.values.get('filters')), {
    'instance-id': (e) => [e.instanceId],
    'instance-type': (e) => [e.instanceType],
    'private-ip-address': (e) => [e.ip],
    'private-dns-name': (e) => [privateDnsName(e.ip)],
    'subnet-id': (e) => [e.subnetId],
    'vpc-id': () => [state.vpc.VpcId],
    'placement-group-name': (e) => {
      const name = instanceIdentity(lab, state, e).placementGroupName;
      return name === '' ? [] : [name];
    },
    'availability-zone': (e) => [az(e)],
    'instance-state-name': (e) => [instanceState(lab.instance(e.instanceName)).Name],
    'instance-state-code': (e) => [String(instanceState(lab.instance(e.instanceName)).Code)],
    'network-interface.network-interface-id': (e) => [e.eniId],
    'network-interface.addresses.private-ip-address': (e) => [e.ip, ...e.secondaryIps],
    'instance.group-id': (e) => e.securityGroups,
    architecture: (e) => [instanceIdentity(lab, state, e).architecture],
    'image-id': (e) => [instanceIdentity(lab, state, e).imageId],
    'reservation-id': (e) => [instanceIdentity(lab, state, e).reservationId],
  });
  return json({
    Reservations: out.map((e) => ({
      Groups: [],
      Instances: [instanceOut(state, lab, e)],
      OwnerId: LAB_ACCOUNT_ID,
      ReservationId: instanceIdentity(lab, state, e).reservationId,
    })),
  });
};

const HANDLERS: Record<string, Handler> = {
  'describe-security-groups': describeSecurityGroups,
  'authorize-security-group-ingress': sgChange(false, false),
  'authorize-security-group-egress': sgChange(true, false),
  'revoke-security-group-ingress': sgChange(false, true),
  'revoke-security-group-egress': sgChange(true, true),
  'describe-network-acls': describeNetworkAcls,
  'create-network-acl-entry': naclEntryOp('create'),
  'replace-network-acl-entry': naclEntryOp('replace'),
  'delete-network-acl-entry': naclEntryOp('delete'),
  'describe-route-tables': describeRouteTables,
  'create-route': routeOp('create'),
  'replace-route': routeOp('replace'),
  'delete-route': routeOp('delete'),
  'modify-network-interface-attribute': modifyNetworkInterfaceAttribute,
  'describe-network-interfaces': describeNetworkInterfaces,
  'describe-instances': describeInstances,
  ...instanceAttributeHandlers(helpers()),
  ...addressHandlers(helpers(), findEni),
};

function helpers(): AwsHelpers {
  return {
    parse: (args, specs) => parse(args, specs),
    isOut,
    json,
    silent,
    fail: (code, message) => {
      throw svc(code, message);
    },
    dryRun,
    findInstances,
  };
}

// ---------------------------------------------------------------------------------------------
// CLI argument handling: argparse behaviour, shorthand syntax, JSON values (AWS CLI v2)
// ---------------------------------------------------------------------------------------------

/** awscli clidriver USAGE + HELP_BLURB, as printed before argparse errors. */
export const AWS_USAGE =
  'usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\n' +
  'To see help text, you can run:\n\n' +
  '  aws help\n' +
  '  aws <command> help\n' +
  '  aws <command> <subcommand> help\n';

/** AWS CLI v2 return codes (User Guide "Command line return codes"). */
export const AWS_EXIT = { usage: 252, service: 254 } as const;

export type ParamKind = 'string' | 'int' | 'list' | 'flag' | 'struct' | 'struct-list';

export interface ParamSpec {
  kind: ParamKind;
  required?: boolean;
  /** For flags: the name of the opposite flag (`--egress` / `--ingress`, `--dry-run` / `--no-dry-run`). */
  negates?: string;
}

export type ShorthandValue = string | ShorthandValue[] | { [k: string]: ShorthandValue };

export type ParsedValue = string | string[] | boolean | unknown;

export interface ParsedArgs {
  values: Map<string, ParsedValue>;
}

export type ArgError =
  | { kind: 'usage'; message: string }
  | { kind: 'plain'; message: string }
  | { kind: 'raw'; message: string };

/**
 * Parse the parameters of one operation. `specs` maps `--name` (without dashes) to its kind.
 * Returns the usage error argparse would print for unknown or incomplete options.
 */
export function parseOperationArgs(
  args: readonly string[],
  specs: Readonly<Record<string, ParamSpec>>,
  requiredGroups: readonly string[][] = [],
): ParsedArgs | ArgError {
  const values = new Map<string, ParsedValue>();
  const unknown: string[] = [];
  let i = 0;
  while (i < args.length) {
    const tok = args[i]!;
    if (!tok.startsWith('--')) {
      unknown.push(tok);
      i++;
      continue;
    }
    const eq = tok.indexOf('=');
    const name = eq >= 0 ? tok.slice(2, eq) : tok.slice(2);
    const inline = eq >= 0 ? tok.slice(eq + 1) : undefined;
    const spec = specs[name];
    if (!spec) {
      unknown.push(tok);
      i++;
      while (i < args.length && !args[i]!.startsWith('--')) unknown.push(args[i++]!);
      continue;
    }
    i++;
    if (spec.kind === 'flag') {
      if (inline !== undefined)
        return { kind: 'usage', message: `argument --${name}: ignored explicit argument '${inline}'` };
      values.set(name, true);
      if (spec.negates) values.delete(spec.negates);
      continue;
    }
    const taken: string[] = [];
    if (inline !== undefined) taken.push(inline);
    const many = spec.kind === 'list' || spec.kind === 'struct-list';
    while (i < args.length && !args[i]!.startsWith('--') && (many || taken.length === 0))
      taken.push(args[i++]!);
    if (taken.length === 0)
      return {
        kind: 'usage',
        message: `argument --${name}: expected ${many ? 'at least one argument' : 'one argument'}`,
      };
    if (spec.kind === 'int') {
      if (!/^-?\d+$/.test(taken[0]!))
        return {
          kind: 'plain',
          message: `Parameter validation failed:\nInvalid type for parameter ${pascal(name)}, value: ${taken[0]}, type: <class 'str'>, valid types: <class 'int'>`,
        };
      values.set(name, Number(taken[0]));
    } else if (spec.kind === 'string') values.set(name, taken[0]!);
    else if (spec.kind === 'list') values.set(name, taken);
    else if (spec.kind === 'struct') {
      const v = parseStructArg(name, taken[0]!);
      if ('error' in v) return { kind: 'plain', message: v.error };
      values.set(name, v.value);
    } else {
      const items: unknown[] = [];
      for (const t of taken) {
        const v = parseStructArg(name, t);
        if ('error' in v) return { kind: 'plain', message: v.error };
        if (Array.isArray(v.value)) items.push(...v.value);
        else items.push(v.value);
      }
      values.set(name, items);
    }
  }
  if (unknown.length > 0)
    return { kind: 'raw', message: `${AWS_USAGE}\nUnknown options: ${unknown.join(', ')}\n` };
  const missing = Object.entries(specs)
    .filter(([n, s]) => s.required && !values.has(n))
    .map(([n]) => `--${n}`);
  for (const group of requiredGroups) {
    if (!group.some((n) => values.has(n))) missing.push(group.map((n) => `--${n}`).join(' | '));
  }
  if (missing.length > 0)
    return { kind: 'usage', message: `the following arguments are required: ${missing.join(', ')}` };
  return { values };
}

/** `group-id` → `GroupId` (the API member name the CLI derives the option from). */
export function pascal(name: string): string {
  return name
    .split('-')
    .map((w) => (w === 'ids' ? 'Ids' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}

/** A structure argument: JSON when it starts with `{` or `[`, else shorthand. */
export function parseStructArg(name: string, text: string): { value: unknown } | { error: string } {
  const t = text.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return { value: JSON.parse(text) };
    } catch (e) {
      return {
        error: `Error parsing parameter '--${name}': Invalid JSON: ${(e as Error).message}\nJSON received: ${text}`,
      };
    }
  }
  const r = parseShorthand(text);
  if ('error' in r) return { error: `Error parsing parameter '--${name}': ${r.error}` };
  return { value: r.value };
}

/**
 * AWS CLI shorthand: `A=1,B={C=2,D=[x,y]},E=p,q` (a bare item after a comma extends the previous
 * key into a list, as in `Name=vpc-id,Values=a,b`).
 */
export function parseShorthand(text: string): { value: { [k: string]: ShorthandValue } } | { error: string } {
  let i = 0;
  const err = (expected: string): { error: string } => ({
    error: `Expected: '${expected}', received: '${i < text.length ? text[i] : 'EOF'}' for input:\n${text}\n${' '.repeat(i)}^`,
  });
  const parseScalar = (stops: string): string => {
    let s = '';
    while (i < text.length && !stops.includes(text[i]!)) s += text[i++];
    return s.trim();
  };
  const parseValue = (stops: string): ShorthandValue | { error: string } => {
    if (text[i] === '{') {
      i++;
      const v = parseStruct('}');
      if ('error' in v) return v;
      if (text[i] !== '}') return err('}');
      i++;
      return v.value;
    }
    if (text[i] === '[') {
      i++;
      const items: ShorthandValue[] = [];
      while (i < text.length && text[i] !== ']') {
        const v = parseValue(',]');
        if (
          typeof v === 'object' &&
          v !== null &&
          !Array.isArray(v) &&
          'error' in v &&
          typeof v.error === 'string'
        )
          return v as { error: string };
        items.push(v as ShorthandValue);
        if (text[i] === ',') i++;
      }
      if (text[i] !== ']') return err(']');
      i++;
      return items;
    }
    return parseScalar(stops);
  };
  const parseStruct = (close: string): { value: { [k: string]: ShorthandValue } } | { error: string } => {
    const out: { [k: string]: ShorthandValue } = {};
    let lastKey: string | null = null;
    while (i < text.length && text[i] !== close) {
      const start = i;
      const key = parseScalar(`=,${close}`);
      if (text[i] !== '=') {
        // a bare item: continues the previous key's list
        if (lastKey === null || key === '') {
          i = start + key.length;
          return err('=');
        }
        const prev = out[lastKey]!;
        out[lastKey] = Array.isArray(prev) ? [...prev, key] : [prev, key];
      } else {
        i++;
        const v = parseValue(`,${close}`);
        if (
          typeof v === 'object' &&
          v !== null &&
          !Array.isArray(v) &&
          'error' in v &&
          typeof v.error === 'string'
        )
          return v as { error: string };
        out[key] = v as ShorthandValue;
        lastKey = key;
      }
      if (text[i] === ',') i++;
    }
    return { value: out };
  };
  const r = parseStruct('\u0000');
  if ('error' in r) return r;
  if (i < text.length) return err('EOF');
  return r;
}

/** Shorthand values are strings; the API wants integers and booleans in some members. */
export function asInt(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

export function asBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return null;
}

/** botocore's message for a member of the wrong type. */
export function invalidType(path: string, v: unknown, valid: 'int' | 'bool'): string {
  const t =
    typeof v === 'string' ? "<class 'str'>" : typeof v === 'number' ? "<class 'int'>" : "<class 'dict'>";
  return `Parameter validation failed:\nInvalid type for parameter ${path}, value: ${typeof v === 'string' ? v : JSON.stringify(v)}, type: ${t}, valid types: <class '${valid}'>`;
}
