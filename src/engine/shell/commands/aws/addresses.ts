/**
 * `aws ec2 assign-private-ip-addresses` and `unassign-private-ip-addresses`: secondary private IPv4
 * addresses on an instance's network interface, on the data path at once (the instance's
 * amazon-ec2-net-utils adds them to eth0, so every tool reaches them; the lab does not model the
 * few seconds its refresh takes). As the EC2 API reference has it: the addresses or a count, not
 * neither ("You must specify either the IP addresses or the IP address count"); an address must lie
 * in the interface's subnet, outside the five AWS reserves, and not be in use. The per-interface
 * limit is the scenario's (49 secondary addresses): the lab's catalog has no per-type IPv4 limit.
 */
import { cidrContains, formatIpv4, parseCidr, parseIpv4 } from '../../../../scenario/vpc';
import type { Eni, VpcState } from '../../../vpc/state';
import { isOut, raise } from './cli';
import { findEni } from './network-interfaces';
import { dryRun, type Ec2Operation, type Handler, parse } from './request';
import { json, silent } from './shapes';

/** Secondary addresses one interface may hold in the lab (the scenario schema's limit). */
export const MAX_SECONDARY_IPS = 49;

const inUse = (state: VpcState) => new Set(state.enis.flatMap((e) => [e.ip, ...e.secondaryIps]));
const setSecondaries = (e: Eni, ips: string[]) => {
  (e as { secondaryIps: readonly string[] }).secondaryIps = ips;
};

const assign: Handler = (args, state, lab, opName) => {
  const p = parse(args, {
    'network-interface-id': { kind: 'string', required: true },
    'private-ip-addresses': { kind: 'list' },
    'secondary-private-ip-address-count': { kind: 'string' },
    'allow-reassignment': { kind: 'flag', negates: 'no-allow-reassignment' },
    'no-allow-reassignment': { kind: 'flag', negates: 'allow-reassignment' },
  });
  if (isOut(p)) return p;
  const v = p.values;
  const eni = findEni(state, v.get('network-interface-id') as string);
  const given = v.get('private-ip-addresses') as string[] | undefined;
  const countArg = v.get('secondary-private-ip-address-count') as string | undefined;
  if (given === undefined && countArg === undefined)
    raise(
      'MissingParameter',
      'You must specify either the IP addresses or the IP address count in the request.',
    );
  if (given !== undefined && countArg !== undefined)
    raise(
      'InvalidParameterCombination',
      'You may specify either the IP addresses or the IP address count, but not both.',
    );
  const subnet = state.subnet(eni.subnetId)!;
  const cidr = parseCidr(subnet.CidrBlock)!;
  const size = 2 ** (32 - cidr.prefix);
  const used = inUse(state);
  let add: string[];
  if (given !== undefined) {
    add = [];
    for (const ip of given) {
      const n = parseIpv4(ip);
      if (n === null) raise('InvalidParameterValue', `Invalid value '${ip}' for IP address`);
      // AWS reserves the network address, the next three and the broadcast address
      const off = n - cidr.network;
      if (!cidrContains(cidr, n) || off < 4 || off === size - 1)
        raise('InvalidParameterValue', `Address ${ip} does not fall within the subnet's address range`);
      if (used.has(ip) || add.includes(ip))
        raise(
          'InvalidIPAddress.InUse',
          `Address ${ip} is in use.${v.get('allow-reassignment') ? " (Reassigning an address between the lab's interfaces is not simulated.)" : ''}`,
        );
      add.push(ip);
    }
  } else {
    const count = Number(countArg);
    if (!/^\d+$/.test(countArg!) || count < 1)
      raise('InvalidParameterValue', `Invalid value '${countArg}' for secondaryPrivateIpAddressCount`);
    add = [];
    for (let off = 4; off < size - 1 && add.length < count; off++) {
      const ip = formatIpv4(cidr.network + off);
      if (!used.has(ip)) add.push(ip);
    }
    if (add.length < count)
      raise(
        'InsufficientFreeAddressesInSubnet',
        'The specified subnet does not have enough free addresses to satisfy the request.',
      );
  }
  if (eni.secondaryIps.length + add.length > MAX_SECONDARY_IPS)
    raise(
      'PrivateIpAddressLimitExceeded',
      `Number of private addresses will exceed limit for network interface: ${eni.eniId}`,
    );
  dryRun(p);
  setSecondaries(eni, [...eni.secondaryIps, ...add]);
  // on the data path while the interface is attached (by its device: eth0, eth1 …)
  const inst = lab.instance(eni.instanceName);
  if (inst && eni.deviceIndex >= 0) for (const ip of add) lab.addAddress(inst, ip, eni.deviceIndex);
  state.recordMutation('network-interface', eni.eniId, opName);
  return json({
    NetworkInterfaceId: eni.eniId,
    AssignedPrivateIpAddresses: add.map((ip) => ({ PrivateIpAddress: ip })),
    AssignedIpv4Prefixes: [],
  });
};

const unassign: Handler = (args, state, lab, opName) => {
  const p = parse(args, {
    'network-interface-id': { kind: 'string', required: true },
    'private-ip-addresses': { kind: 'list', required: true },
  });
  if (isOut(p)) return p;
  const v = p.values;
  const eni = findEni(state, v.get('network-interface-id') as string);
  const drop = v.get('private-ip-addresses') as string[];
  for (const ip of drop) {
    if (ip === eni.ip)
      raise('InvalidParameterValue', `The primary private IP address ${ip} cannot be unassigned.`);
    if (!eni.secondaryIps.includes(ip))
      raise(
        'InvalidParameterValue',
        `Some of the specified addresses are not assigned to interface ${eni.eniId}`,
      );
  }
  dryRun(p);
  setSecondaries(
    eni,
    eni.secondaryIps.filter((ip) => !drop.includes(ip)),
  );
  if (eni.deviceIndex >= 0) for (const ip of drop) lab.removeAddress(ip);
  state.recordMutation('network-interface', eni.eniId, opName);
  return silent();
};

export const addressOperations: Record<string, Ec2Operation> = {
  'assign-private-ip-addresses': { api: 'AssignPrivateIpAddresses', run: assign },
  'unassign-private-ip-addresses': { api: 'UnassignPrivateIpAddresses', run: unassign },
};
