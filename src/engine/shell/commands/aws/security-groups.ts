/**
 * `aws ec2 describe-security-groups`, `authorize-security-group-ingress|egress` and
 * `revoke-security-group-ingress|egress` on the lab's VPC: the CLI's simplified options
 * (`--protocol --port --cidr --source-group`) or `--ip-permissions`, one rule unit per protocol,
 * port range and peer, AWS's duplicate and not-found errors, the quota on rules per group.
 * Sources: awscli customizations/ec2/secgroupsimplify.py; the EC2 API reference; moto
 * ec2/exceptions.py for error texts.
 */
import {
  type IpPermission,
  LAB_ACCOUNT_ID,
  normalizeSgProtocol,
  parseCidrDetailed,
  permissionRuleCount,
  resourceId,
  type SecurityGroup,
  VPC_QUOTAS,
  type Vpc,
} from '../../../../scenario/vpc';
import type { VpcState } from '../../../vpc/state';
import type { CommandOutcome } from '../../types';
import {
  asInt,
  invalidType,
  isOut,
  type ParamSpec,
  type ParsedArgs,
  PlainError,
  plain,
  svc,
  usage,
} from './cli';
import {
  applyFilters,
  commit,
  dryRun,
  type Ec2Operation,
  type Handler,
  malformed,
  parse,
  readFilters,
} from './request';
import { json, sgOut } from './shapes';

type Out = CommandOutcome;

export function checkGroupId(state: VpcState, id: string): SecurityGroup {
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

export const securityGroupOperations: Record<string, Ec2Operation> = {
  'describe-security-groups': { api: 'DescribeSecurityGroups', run: describeSecurityGroups },
  'authorize-security-group-ingress': { api: 'AuthorizeSecurityGroupIngress', run: sgChange(false, false) },
  'authorize-security-group-egress': { api: 'AuthorizeSecurityGroupEgress', run: sgChange(true, false) },
  'revoke-security-group-ingress': { api: 'RevokeSecurityGroupIngress', run: sgChange(false, true) },
  'revoke-security-group-egress': { api: 'RevokeSecurityGroupEgress', run: sgChange(true, true) },
};
