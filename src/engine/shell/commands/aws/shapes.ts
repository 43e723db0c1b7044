/**
 * The JSON the AWS CLI prints for `aws ec2`: `--output json` (indent 4) and, per resource, the EC2
 * API's output shape with its members in the service model's order (security groups, network ACLs,
 * route tables, network interfaces, instances). Only members the lab knows are printed.
 * Sources: awscli formatter.py (JSON, indent 4); the EC2 API reference's shapes.
 */
import { isoUtc } from '../../../../lib/time';
import {
  type IpPermission,
  LAB_ACCOUNT_ID,
  type NaclEntryShape,
  type NetworkAcl,
  resourceId,
  type Route,
  type RouteTable,
  type SecurityGroup,
} from '../../../../scenario/vpc';
import type { Instance, Lab } from '../../../lab/lab';
import { interfaceHardware } from '../../../vpc/interfaces';
import type { Eni, VpcState } from '../../../vpc/state';
import { type CommandOutcome, done } from '../../types';
import { instanceIdentity, privateDnsName, ROOT_DEVICE_NAME } from '../instance-identity';

/** A successful answer: the CLI's JSON, indent 4. */
export const json = (v: unknown): CommandOutcome => done(`${JSON.stringify(v, null, 4)}\n`, 0, v);
/** A successful answer with no output (operations that return nothing). */
export const silent = (): CommandOutcome => done('', 0, {});

/** Instance states (the API's codes). */
export const INSTANCE_STATE = {
  pending: { Code: 0, Name: 'pending' },
  running: { Code: 16, Name: 'running' },
  stopping: { Code: 64, Name: 'stopping' },
  stopped: { Code: 80, Name: 'stopped' },
} as const;

/** The EC2 instance state of a lab instance (describe-instances' State). */
export function instanceState(inst: Instance | undefined): { Code: number; Name: string } {
  return inst?.stopped ? INSTANCE_STATE.stopped : INSTANCE_STATE.running;
}

export function sgOut(g: SecurityGroup) {
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

function entryOut(e: NaclEntryShape) {
  const o: Record<string, unknown> = { CidrBlock: e.CidrBlock, Egress: e.Egress };
  if (e.IcmpTypeCode) o['IcmpTypeCode'] = { Code: e.IcmpTypeCode.Code, Type: e.IcmpTypeCode.Type };
  if (e.PortRange) o['PortRange'] = { From: e.PortRange.From, To: e.PortRange.To };
  o['Protocol'] = e.Protocol;
  o['RuleAction'] = e.RuleAction;
  o['RuleNumber'] = e.RuleNumber;
  return o;
}

export function aclOut(a: NetworkAcl, seed: number) {
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

function routeOut(r: Route) {
  const o: Record<string, unknown> = { DestinationCidrBlock: r.DestinationCidrBlock };
  if (r.GatewayId !== undefined) o['GatewayId'] = r.GatewayId;
  if (r.NatGatewayId !== undefined) o['NatGatewayId'] = r.NatGatewayId;
  if (r.NetworkInterfaceId !== undefined) o['NetworkInterfaceId'] = r.NetworkInterfaceId;
  o['Origin'] = r.Origin;
  o['State'] = r.State;
  return o;
}

export function tableOut(t: RouteTable, seed: number) {
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

/** An interface's ENA Express settings (its attachment's EnaSrdSpecification). */
function enaSrdSpecification(e: Eni) {
  return {
    EnaSrdEnabled: e.enaSrd.EnaSrdEnabled,
    EnaSrdUdpSpecification: { EnaSrdUdpEnabled: e.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled },
  };
}

/** The timeouts in force, printed only when the interface sets any (the API's behaviour). */
function connectionTrackingConfiguration(state: VpcState, e: Eni) {
  const t = state.timeouts(e);
  return { TcpEstablishedTimeout: t.tcpEstablishedS, UdpStreamTimeout: t.udpStreamS, UdpTimeout: t.udpS };
}

/** An ENI's addresses as the EC2 API lists them (primary first), in both describe-* layouts. */
function privateIpAddresses(e: Eni) {
  return [e.ip, ...e.secondaryIps].map((ip, k) => ({
    Primary: k === 0,
    PrivateDnsName: privateDnsName(ip),
    PrivateIpAddress: ip,
  }));
}

/** The MAC of an interface: its device's when attached, else the one it will have. */
function macOf(lab: Lab, e: Eni): string {
  const dev = e.deviceIndex >= 0 ? lab.instance(e.instanceName)?.host.ifaces[e.deviceIndex]?.dev : undefined;
  if (dev) return dev.link().mac;
  return interfaceHardware(lab.scenario.seed, e.eniId).mac;
}

/** An interface's Attachment (absent while it is available). */
function attachmentOut(lab: Lab, e: Eni, forInstance: boolean) {
  const at = isoUtc(lab.wallClockStartS + Math.floor(e.attachedAtNs / 1e9));
  const common = {
    AttachTime: at,
    AttachmentId: e.attachmentId,
    DeleteOnTermination: e.deviceIndex === 0,
    DeviceIndex: e.deviceIndex,
  };
  return forInstance
    ? { ...common, Status: 'attached', NetworkCardIndex: 0, EnaSrdSpecification: enaSrdSpecification(e) }
    : {
        ...common,
        NetworkCardIndex: 0,
        InstanceId: e.instanceId,
        InstanceOwnerId: LAB_ACCOUNT_ID,
        Status: 'attached',
        EnaSrdSpecification: enaSrdSpecification(e),
      };
}

/** One interface as DescribeNetworkInterfaces prints it (`status` overrides, e.g. CreateNetworkInterface's 'pending'). */
export function eniOut(state: VpcState, lab: Lab, e: Eni, status?: string) {
  const subnet = state.subnet(e.subnetId);
  const o: Record<string, unknown> = {};
  if (e.deviceIndex >= 0) o['Attachment'] = attachmentOut(lab, e, false);
  o['AvailabilityZone'] = subnet?.AvailabilityZone;
  if (Object.keys(e.connectionTracking).length > 0)
    o['ConnectionTrackingConfiguration'] = connectionTrackingConfiguration(state, e);
  Object.assign(o, {
    Description: e.description,
    Groups: e.securityGroups.map((id) => ({ GroupName: state.group(id)?.GroupName ?? '', GroupId: id })),
    InterfaceType: 'interface',
    Ipv6Addresses: [],
    MacAddress: macOf(lab, e),
    NetworkInterfaceId: e.eniId,
    OwnerId: LAB_ACCOUNT_ID,
    PrivateDnsName: privateDnsName(e.ip),
    PrivateIpAddress: e.ip,
    PrivateIpAddresses: privateIpAddresses(e),
    RequesterManaged: false,
    SourceDestCheck: e.sourceDestCheck,
    Status: status ?? (e.deviceIndex >= 0 ? 'in-use' : 'available'),
    SubnetId: e.subnetId,
    TagSet: [],
    VpcId: state.vpc.VpcId,
  });
  return o;
}

/**
 * One instance as DescribeInstances prints it (AWS CLI v2, the Instance shape's member order). Only
 * members the lab knows are printed; omitted: KeyName and Tags (none), PublicIpAddress and the
 * interface's Association (the lab's instances have no public address), IamInstanceProfile,
 * ClientToken, CapacityReservationSpecification, HibernationOptions, MetadataOptions,
 * EnclaveOptions, BootMode, PlatformDetails, UsageOperation(UpdateTime), PrivateDnsNameOptions,
 * MaintenanceOptions, CurrentInstanceBootMode and NetworkPerformanceOptions.
 */
export function instanceOut(state: VpcState, lab: Lab, e: Eni) {
  const id = instanceIdentity(lab, state, e);
  // every interface attached to the instance, by device index (the primary's AttachTime is the launch)
  const nics = state.enisOfInstance(e.instanceName).map((n) => {
    const nic: Record<string, unknown> = {
      Attachment: {
        ...attachmentOut(lab, n, true),
        ...(n.deviceIndex === 0 ? { AttachTime: id.launchTime } : {}),
      },
      Description: n.description,
      Groups: n.securityGroups.map((g) => ({ GroupName: state.group(g)?.GroupName ?? '', GroupId: g })),
      Ipv6Addresses: [],
      MacAddress: n.deviceIndex === 0 ? id.macAddress : macOf(lab, n),
      NetworkInterfaceId: n.eniId,
      OwnerId: LAB_ACCOUNT_ID,
      PrivateDnsName: privateDnsName(n.ip),
      PrivateIpAddress: n.ip,
      PrivateIpAddresses: privateIpAddresses(n),
      SourceDestCheck: n.sourceDestCheck,
      Status: 'in-use',
      SubnetId: n.subnetId,
      VpcId: id.vpcId,
      InterfaceType: 'interface',
    };
    if (Object.keys(n.connectionTracking).length > 0)
      nic['ConnectionTrackingConfiguration'] = connectionTrackingConfiguration(state, n);
    return nic;
  });
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
    NetworkInterfaces: nics,
    RootDeviceName: ROOT_DEVICE_NAME,
    RootDeviceType: 'ebs',
    SecurityGroups: id.securityGroups,
    SourceDestCheck: e.sourceDestCheck,
    VirtualizationType: 'hvm',
    CpuOptions: { CoreCount: id.coreCount, ThreadsPerCore: id.threadsPerCore },
  };
}
