/**
 * Secondary network interfaces: creating one in a subnet, attaching it to an instance at a device
 * index (eth1 …), detaching it. The control-plane side (the VPC state's ENIs, the API's checks and
 * errors) and the data-plane side (the lab's ENA device, addresses and PPS budget) change together.
 * The AWS CLI commands (CreateNetworkInterface, AttachNetworkInterface, DetachNetworkInterface) and
 * the scenario's `networkInterfaces` both come here. Sources: EC2 API reference; MOTO's
 * NetworkInfo.MaximumNetworkInterfaces (the catalog's maxEnis) for AttachmentLimitExceeded.
 */
import { cidrContains, formatIpv4, parseCidr, parseIpv4, resourceId } from '../../scenario/vpc';
import { Rng } from '../core/rng';
import type { InstanceTypeSpec } from '../../catalog';
import type { Eni, VpcState } from './state';

/**
 * A secondary interface's MAC address and its device's RSS key (netdev_rss_key_fill), drawn from the
 * interface's own seeded stream: the same whichever instance it is attached to, and before it is.
 */
export function interfaceHardware(seed: number, eniId: string): { key: Uint8Array; mac: string } {
  const rng = new Rng(seed, `eni/${eniId}`);
  const key = new Uint8Array(40);
  for (let b = 0; b < 40; b++) key[b] = rng.nextU32() & 0xff;
  const mac = `02:${[0, 0, 0, 0, 0].map(() => (rng.nextU32() & 0xff).toString(16).padStart(2, '0')).join(':')}`;
  return { key, mac };
}

/** An API error: its code and message, as the CLI prints them. */
export class InterfaceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const fail = (code: string, message: string): never => {
  throw new InterfaceError(code, message);
};

/** Addresses held by any interface of the VPC. */
export function addressesInUse(state: VpcState): Set<string> {
  return new Set(state.enis.flatMap((e) => [e.ip, ...e.secondaryIps]));
}

/**
 * A free address of the subnet: its base + 10 + k for the first k not in use (the lab's addresses
 * start at base + 10), outside the five AWS reserves.
 */
export function freeAddress(state: VpcState, subnetId: string): string | null {
  const cidr = parseCidr(state.subnet(subnetId)?.CidrBlock ?? '');
  if (!cidr) return null;
  const used = addressesInUse(state);
  const size = 2 ** (32 - cidr.prefix);
  for (let k = 10; k < size - 1; k++) {
    const ip = formatIpv4(cidr.network + k);
    if (!used.has(ip)) return ip;
  }
  for (let k = 4; k < 10; k++) {
    const ip = formatIpv4(cidr.network + k);
    if (!used.has(ip)) return ip;
  }
  return null;
}

/** What the interface operations need of the lab (the Lab is one): its instances and their devices. */
export interface InterfaceLab<I extends { readonly spec: InstanceTypeSpec }> {
  readonly scenario: { readonly seed: number };
  readonly nowNs: number;
  instance(name: string): I | undefined;
  /** Add device `deviceIndex` to the instance; a refusal's text, or null. */
  attachInterface(
    inst: I,
    eni: { deviceIndex: number; eniId: string; ip: string; secondaryIps: readonly string[] },
  ): string | null;
  detachInterface(inst: I, deviceIndex: number): void;
}

export interface CreateInterfaceInput {
  subnetId: string;
  ip?: string;
  secondaryIps?: readonly string[];
  groups?: readonly string[];
  description?: string;
  /** The ID (the scenario's, or derived from the seed and a counter). */
  eniId?: string;
}

/** CreateNetworkInterface: a new interface in a subnet, status 'available'. */
export function createInterface(
  lab: { readonly scenario: { readonly seed: number } },
  state: VpcState,
  input: CreateInterfaceInput,
): Eni {
  const subnet = state.subnet(input.subnetId);
  if (!subnet) fail('InvalidSubnetID.NotFound', `The subnet ID '${input.subnetId}' does not exist`);
  const cidr = parseCidr(subnet!.CidrBlock)!;
  const used = addressesInUse(state);
  const size = 2 ** (32 - cidr.prefix);
  const check = (ip: string) => {
    const n = parseIpv4(ip);
    if (n === null || !cidrContains(cidr, n))
      fail('InvalidParameterValue', `Address does not fall within the subnet's address range`);
    const off = n! - cidr.network;
    if (off < 4 || off === size - 1)
      fail('InvalidParameterValue', `Address ${ip} is reserved by AWS and cannot be assigned`);
    if (used.has(ip)) fail('InvalidIPAddress.InUse', `The specified address is already in use.`);
    used.add(ip);
  };
  let ip = input.ip;
  if (ip !== undefined) check(ip);
  else {
    ip = freeAddress(state, subnet!.SubnetId) ?? undefined;
    if (ip === undefined)
      fail('InsufficientFreeAddressesInSubnet', 'There are not enough free addresses in the subnet.');
    used.add(ip!);
  }
  for (const s of input.secondaryIps ?? []) check(s);
  const groups = input.groups ?? [
    (state.vpc.SecurityGroups.find((g) => g.GroupName === 'default') ?? state.vpc.SecurityGroups[0])!.GroupId,
  ];
  for (const g of groups)
    if (!state.group(g)) fail('InvalidGroup.NotFound', `The security group '${g}' does not exist`);
  const first = state.enis[0]!;
  const eniId = input.eniId ?? resourceId('eni', lab.scenario.seed, `eni/created/${state.enis.length}/${ip}`);
  const eni: Eni = {
    instanceName: '',
    instanceType: '',
    spec: first.spec,
    instanceId: '',
    eniId,
    ip: ip!,
    secondaryIps: [...(input.secondaryIps ?? [])],
    subnetId: subnet!.SubnetId,
    securityGroups: [...groups],
    enaSrd: { EnaSrdEnabled: false, EnaSrdUdpSpecification: { EnaSrdUdpEnabled: false } },
    connectionTracking: {},
    deviceIndex: -1,
    attachmentId: '',
    attachedAtNs: 0,
    description: input.description ?? '',
    sourceDestCheck: true,
  };
  state.enis.push(eni);
  state.recordMutation('network-interface', eniId, 'CreateNetworkInterface');
  return eni;
}

/**
 * AttachNetworkInterface: the interface becomes device `deviceIndex` of the instance (ethN on the
 * host at once; the real udev/amazon-ec2-net-utils take a few seconds). Checks as the API: the
 * interface is available, the index free, the interface count within the type's maximum
 * (AttachmentLimitExceeded), the subnet in the instance's AZ.
 */
export function attachInterface<I extends { readonly spec: InstanceTypeSpec }>(
  lab: InterfaceLab<I>,
  state: VpcState,
  eni: Eni,
  instanceName: string,
  deviceIndex: number,
): Eni {
  const inst = lab.instance(instanceName);
  const primary = state.eniOfInstance(instanceName);
  if (!inst || !primary) return fail('InvalidInstanceID.NotFound', `The instance ID does not exist`);
  if (eni.deviceIndex >= 0) fail('InvalidNetworkInterface.InUse', `Interface: [${eni.eniId}] in use.`);
  if (!Number.isInteger(deviceIndex) || deviceIndex < 1)
    fail('InvalidParameterValue', `Value (${deviceIndex}) for parameter deviceIndex is invalid.`);
  const attached = state.enisOfInstance(instanceName);
  if (attached.some((e) => e.deviceIndex === deviceIndex))
    fail(
      'InvalidParameterValue',
      `Instance '${primary.instanceId}' already has an interface attached at device index '${deviceIndex}'.`,
    );
  const max = inst.spec.maxEnis.value;
  if (attached.length + 1 > max)
    fail(
      'AttachmentLimitExceeded',
      `Interface count ${attached.length + 1} exceeds the limit for ${inst.spec.name}`,
    );
  const az = (id: string) => state.subnet(id)?.AvailabilityZone;
  if (az(eni.subnetId) !== az(primary.subnetId))
    fail(
      'InvalidParameterCombination',
      'You may not attach a network interface to an instance if they are not in the same availability zone',
    );
  const why = lab.attachInterface(inst, {
    deviceIndex,
    eniId: eni.eniId,
    ip: eni.ip,
    secondaryIps: eni.secondaryIps,
  });
  if (why !== null) fail('UnsupportedOperation', why);
  eni.instanceName = instanceName;
  eni.instanceType = primary.instanceType;
  eni.spec = primary.spec;
  eni.instanceId = primary.instanceId;
  eni.deviceIndex = deviceIndex;
  eni.attachmentId = resourceId('eni-attach', lab.scenario.seed, `${eni.eniId}/${state.mutationEpoch}`);
  eni.attachedAtNs = lab.nowNs;
  state.recordMutation('network-interface', eni.eniId, 'AttachNetworkInterface');
  return eni;
}

/** DetachNetworkInterface by attachment ID: the interface leaves the instance and is available again. */
export function detachInterface<I extends { readonly spec: InstanceTypeSpec }>(
  lab: InterfaceLab<I>,
  state: VpcState,
  attachmentId: string,
): Eni {
  const eni = state.enis.find((e) => e.attachmentId === attachmentId && e.deviceIndex >= 0);
  if (!eni) return fail('InvalidAttachmentID.NotFound', `The attachment ID '${attachmentId}' does not exist`);
  if (eni.deviceIndex === 0)
    fail(
      'OperationNotPermitted',
      'The network interface at device index 0 and networkCard index 0 cannot be detached.',
    );
  const inst = lab.instance(eni.instanceName);
  if (inst) lab.detachInterface(inst, eni.deviceIndex);
  eni.instanceName = '';
  eni.instanceType = '';
  eni.instanceId = '';
  eni.deviceIndex = -1;
  eni.attachmentId = '';
  state.recordMutation('network-interface', eni.eniId, 'DetachNetworkInterface');
  return eni;
}
