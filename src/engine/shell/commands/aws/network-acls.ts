/**
 * `aws ec2 describe-network-acls`, `create-network-acl-entry`, `replace-network-acl-entry` and
 * `delete-network-acl-entry` on the lab's VPC (entries numbered, evaluated lowest first, the `*`
 * rule 32767 last). Sources: the EC2 API reference; the VPC User Guide on network ACLs.
 */
import {
  LAB_ACCOUNT_ID,
  type NaclEntryShape,
  type NetworkAcl,
  normalizeNaclProtocol,
  parseCidr,
  VPC_QUOTAS,
  type Vpc,
} from '../../../../scenario/vpc';
import type { VpcState } from '../../../vpc/state';
import { type CommandOutcome, fail } from '../../types';
import { AWS_EXIT, asInt, invalidType, isOut, type ParamSpec, plain, svc } from './cli';
import {
  commit,
  describeSelected,
  dryRun,
  type Ec2Operation,
  type Handler,
  malformed,
  parse,
} from './request';
import { aclOut, json, silent } from './shapes';

type Out = CommandOutcome;

const describeNetworkAcls: Handler = (args, state, lab) => {
  const out = describeSelected(args, 'network-acl-ids', state.vpc.NetworkAcls, (id) => findAcl(state, id), {
    'network-acl-id': (a) => [a.NetworkAclId],
    'vpc-id': (a) => [a.VpcId ?? ''],
    default: (a) => [String(a.IsDefault)],
    'association.subnet-id': (a) => a.Associations.map((s) => s.SubnetId),
    'owner-id': () => [LAB_ACCOUNT_ID],
  });
  if (!Array.isArray(out)) return out;
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

export const networkAclOperations: Record<string, Ec2Operation> = {
  'describe-network-acls': { api: 'DescribeNetworkAcls', run: describeNetworkAcls },
  'create-network-acl-entry': { api: 'CreateNetworkAclEntry', run: naclEntryOp('create') },
  'replace-network-acl-entry': { api: 'ReplaceNetworkAclEntry', run: naclEntryOp('replace') },
  'delete-network-acl-entry': { api: 'DeleteNetworkAclEntry', run: naclEntryOp('delete') },
};
