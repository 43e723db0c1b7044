/**
 * `aws ec2 modify-network-interface-attribute` (ENA Express, connection tracking timeouts, security
 * groups) and `describe-network-interfaces` on the lab's interfaces (one per instance, eth0).
 * Sources: the EC2 API reference (ModifyNetworkInterfaceAttribute, EnaSrdSpecification,
 * ConnectionTrackingSpecificationRequest); where AWS's text is not public (ENA Express on an
 * unsupported type) the message is ours in AWS's shape.
 */
import { conntrackTimeoutProblem, VPC_QUOTAS, type Vpc } from '../../../../scenario/vpc';
import type { Eni, VpcState } from '../../../vpc/state';
import { fail } from '../../types';
import { AWS_EXIT, asBool, asInt, invalidType, isOut, plain, svc } from './cli';
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
import { checkGroupId } from './security-groups';
import { eniOut, json, silent } from './shapes';

export function findEni(state: VpcState, id: string): Eni {
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

export const networkInterfaceOperations: Record<string, Ec2Operation> = {
  'modify-network-interface-attribute': {
    api: 'ModifyNetworkInterfaceAttribute',
    run: modifyNetworkInterfaceAttribute,
  },
  'describe-network-interfaces': { api: 'DescribeNetworkInterfaces', run: describeNetworkInterfaces },
};
