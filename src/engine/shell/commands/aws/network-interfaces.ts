/**
 * `aws ec2 modify-network-interface-attribute` (ENA Express, connection tracking timeouts, security
 * groups), `describe-network-interfaces`, and `create-`, `attach-`, `detach-` and
 * `delete-network-interface` (secondary interfaces, eth1 …: engine/vpc/interfaces.ts).
 * Sources: the EC2 API reference (ModifyNetworkInterfaceAttribute, EnaSrdSpecification,
 * ConnectionTrackingSpecificationRequest); where AWS's text is not public (ENA Express on an
 * unsupported type) the message is ours in AWS's shape.
 */
import { conntrackTimeoutProblem, VPC_QUOTAS, type Vpc } from '../../../../scenario/vpc';
import type { Eni, VpcState } from '../../../vpc/state';
import { fail } from '../../types';
import { AWS_EXIT, asBool, asInt, invalidType, isOut, plain, svc } from './cli';
import {
  commit,
  describeSelected,
  dryRun,
  type Ec2Operation,
  type Handler,
  malformed,
  parse,
} from './request';
import { checkGroupId } from './security-groups';
import { eniOut, json, silent } from './shapes';
import { attachInterface, createInterface, detachInterface, InterfaceError } from '../../../vpc/interfaces';
import type { Lab } from '../../../lab/lab';

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
  for (const k of ['description', 'attachment'])
    if (v.has(k)) return fail(`aws: --${k} is not simulated in ec2-netlab`, AWS_EXIT.usage);
  const eni = findEni(state, v.get('network-interface-id') as string);
  // the source/destination check: off on a router's interfaces (VPC middlebox routing)
  if (v.has('source-dest-check') || v.has('no-source-dest-check')) {
    dryRun(p);
    eni.sourceDestCheck = v.get('source-dest-check') === true;
    state.recordMutation('network-interface', eni.eniId, opName);
    return silent();
  }
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
  const out = describeSelected(args, 'network-interface-ids', state.enis, (id) => findEni(state, id), {
    'network-interface-id': (e) => [e.eniId],
    'attachment.instance-id': (e) => [e.instanceId],
    'attachment.attachment-id': (e) => [e.attachmentId],
    'attachment.device-index': (e) => (e.deviceIndex >= 0 ? [String(e.deviceIndex)] : []),
    'attachment.status': (e) => (e.deviceIndex >= 0 ? ['attached'] : []),
    status: (e) => [e.deviceIndex >= 0 ? 'in-use' : 'available'],
    description: (e) => [e.description],
    'mac-address': (e) => [eniOut(state, lab, e)['MacAddress'] as string],
    'subnet-id': (e) => [e.subnetId],
    'vpc-id': () => [state.vpc.VpcId],
    'private-ip-address': (e) => [e.ip, ...e.secondaryIps],
    'addresses.private-ip-address': (e) => [e.ip, ...e.secondaryIps],
    'group-id': (e) => e.securityGroups,
    'availability-zone': (e) => [state.subnet(e.subnetId)?.AvailabilityZone ?? ''],
  });
  if (!Array.isArray(out)) return out;
  return json({ NetworkInterfaces: out.map((e) => eniOut(state, lab, e)) });
};

/** Run an interface operation of engine/vpc/interfaces.ts, its API errors as the CLI prints them. */
function apiCall<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof InterfaceError) throw svc(e.code, e.message);
    throw e;
  }
}

const createNetworkInterface: Handler = (args, state, lab) => {
  const p = parse(args, {
    'subnet-id': { kind: 'string', required: true },
    description: { kind: 'string' },
    'private-ip-address': { kind: 'string' },
    groups: { kind: 'list' },
    'private-ip-addresses': { kind: 'struct-list' },
    'secondary-private-ip-address-count': { kind: 'string' },
    'interface-type': { kind: 'string' },
    'ipv6-address-count': { kind: 'string' },
    'ipv6-addresses': { kind: 'struct-list' },
    'ipv4-prefixes': { kind: 'struct-list' },
    'ipv4-prefix-count': { kind: 'string' },
    'tag-specifications': { kind: 'struct-list' },
    'enable-primary-ipv6': { kind: 'flag', negates: 'no-enable-primary-ipv6' },
    'no-enable-primary-ipv6': { kind: 'flag', negates: 'enable-primary-ipv6' },
    'connection-tracking-specification': { kind: 'struct' },
    'client-token': { kind: 'string' },
  });
  if (isOut(p)) return p;
  const v = p.values;
  for (const k of [
    'interface-type',
    'ipv6-address-count',
    'ipv6-addresses',
    'ipv4-prefixes',
    'ipv4-prefix-count',
    'tag-specifications',
    'enable-primary-ipv6',
    'connection-tracking-specification',
    'client-token',
  ])
    if (v.has(k)) return fail(`aws: --${k} is not simulated in ec2-netlab`, AWS_EXIT.usage);
  const subnetId = v.get('subnet-id') as string;
  if (!subnetId.startsWith('subnet-')) throw malformed('subnet', subnetId, 'InvalidSubnetID.Malformed');
  const groups = v.get('groups') as string[] | undefined;
  for (const g of groups ?? []) checkGroupId(state, g);
  // --private-ip-addresses PrivateIpAddress=…,Primary=true …: the primary and the secondaries
  let ip = v.get('private-ip-address') as string | undefined;
  const secondaries: string[] = [];
  for (const a of (v.get('private-ip-addresses') as Array<Record<string, unknown>> | undefined) ?? []) {
    const addr = String(a['PrivateIpAddress'] ?? '');
    const primary = asBool(a['Primary'] ?? false);
    if (primary && ip !== undefined && ip !== addr)
      throw svc('InvalidParameterValue', 'Only one primary private IP address can be specified.');
    if (primary) ip = addr;
    else secondaries.push(addr);
  }
  if (v.has('secondary-private-ip-address-count'))
    return fail(
      'aws: --secondary-private-ip-address-count is not simulated in ec2-netlab here (create the interface, then aws ec2 assign-private-ip-addresses --secondary-private-ip-address-count N)',
      AWS_EXIT.usage,
    );
  dryRun(p);
  const eni = apiCall(() =>
    createInterface(lab, state, {
      subnetId,
      ip,
      secondaryIps: secondaries,
      groups,
      description: v.get('description') as string | undefined,
    }),
  );
  return json({ NetworkInterface: eniOut(state, lab, eni, 'pending') });
};

function instanceNameOf(state: VpcState, lab: Lab, id: string): string {
  if (!id.startsWith('i-')) throw malformed('i', id, 'InvalidInstanceID.Malformed');
  const e = state.enis.find((x) => x.instanceId === id && x.deviceIndex === 0);
  if (!e || !lab.instance(e.instanceName))
    throw svc('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
  return e.instanceName;
}

const attachNetworkInterface: Handler = (args, state, lab) => {
  const p = parse(args, {
    'network-interface-id': { kind: 'string', required: true },
    'instance-id': { kind: 'string', required: true },
    'device-index': { kind: 'string', required: true },
    'network-card-index': { kind: 'string' },
    'ena-srd-specification': { kind: 'struct' },
    'ena-queue-count': { kind: 'string' },
  });
  if (isOut(p)) return p;
  const v = p.values;
  for (const k of ['ena-srd-specification', 'ena-queue-count'])
    if (v.has(k)) return fail(`aws: --${k} is not simulated in ec2-netlab`, AWS_EXIT.usage);
  const card = v.get('network-card-index');
  if (card !== undefined && asInt(card) !== 0)
    throw svc(
      'InvalidParameterValue',
      `Invalid value '${card}' for NetworkCardIndex: the instance type has one network card.`,
    );
  const index = asInt(v.get('device-index'));
  if (index === null) return plain(invalidType('DeviceIndex', v.get('device-index'), 'int'));
  const eni = findEni(state, v.get('network-interface-id') as string);
  const name = instanceNameOf(state, lab, v.get('instance-id') as string);
  dryRun(p);
  const e = apiCall(() => attachInterface(lab, state, eni, name, index));
  return json({ AttachmentId: e.attachmentId, NetworkCardIndex: 0 });
};

const detachNetworkInterface: Handler = (args, state, lab) => {
  const p = parse(args, {
    'attachment-id': { kind: 'string', required: true },
    force: { kind: 'flag', negates: 'no-force' },
    'no-force': { kind: 'flag', negates: 'force' },
  });
  if (isOut(p)) return p;
  const id = p.values.get('attachment-id') as string;
  if (!id.startsWith('eni-attach-')) throw malformed('eni-attach', id, 'InvalidAttachmentID.Malformed');
  dryRun(p);
  apiCall(() => detachInterface(lab, state, id));
  return silent();
};

const deleteNetworkInterface: Handler = (args, state) => {
  const p = parse(args, { 'network-interface-id': { kind: 'string', required: true } });
  if (isOut(p)) return p;
  const eni = findEni(state, p.values.get('network-interface-id') as string);
  if (eni.deviceIndex >= 0)
    throw svc('InvalidNetworkInterface.InUse', `Network interface '${eni.eniId}' is currently in use.`);
  dryRun(p);
  state.enis.splice(state.enis.indexOf(eni), 1);
  state.recordMutation('network-interface', eni.eniId, 'DeleteNetworkInterface');
  return silent();
};

export const networkInterfaceOperations: Record<string, Ec2Operation> = {
  'create-network-interface': { api: 'CreateNetworkInterface', run: createNetworkInterface },
  'attach-network-interface': { api: 'AttachNetworkInterface', run: attachNetworkInterface },
  'detach-network-interface': { api: 'DetachNetworkInterface', run: detachNetworkInterface },
  'delete-network-interface': { api: 'DeleteNetworkInterface', run: deleteNetworkInterface },
  'modify-network-interface-attribute': {
    api: 'ModifyNetworkInterfaceAttribute',
    run: modifyNetworkInterfaceAttribute,
  },
  'describe-network-interfaces': { api: 'DescribeNetworkInterfaces', run: describeNetworkInterfaces },
};
