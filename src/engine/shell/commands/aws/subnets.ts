/**
 * `aws ec2 describe-subnets` on the lab's VPC (the subnet IDs `create-network-interface` needs).
 * Shape: the EC2 API reference, DescribeSubnets (Subnet); AvailableIpAddressCount is the block's
 * addresses less the five AWS reserves in every subnet (VPC-UG "Subnet CIDR blocks") and those the
 * lab's interfaces hold. IPv4 only, as the lab's VPC.
 */
import { LAB_ACCOUNT_ID, parseCidr, type Subnet } from '../../../../scenario/vpc';
import type { VpcState } from '../../../vpc/state';
import { svc } from './cli';
import { describeSelected, type Ec2Operation, type Handler, malformed } from './request';
import { json } from './shapes';

/** Addresses AWS reserves in every subnet: network, router, DNS, future use, broadcast. */
const RESERVED_PER_SUBNET = 5;

function findSubnet(state: VpcState, id: string): Subnet {
  if (!id.startsWith('subnet-')) throw malformed('subnet', id, 'InvalidSubnetID.Malformed');
  const s = state.subnet(id);
  if (!s) throw svc('InvalidSubnetID.NotFound', `The subnet ID '${id}' does not exist`);
  return s;
}

function subnetOut(state: VpcState, s: Subnet): Record<string, unknown> {
  const c = parseCidr(s.CidrBlock);
  const size = c ? 2 ** (32 - c.prefix) : 0;
  const held = state.enis
    .filter((e) => e.subnetId === s.SubnetId)
    .reduce((n, e) => n + 1 + e.secondaryIps.length, 0);
  return {
    AvailabilityZone: s.AvailabilityZone,
    AvailableIpAddressCount: Math.max(0, size - RESERVED_PER_SUBNET - held),
    CidrBlock: s.CidrBlock,
    DefaultForAz: false,
    MapPublicIpOnLaunch: false,
    State: 'available',
    SubnetId: s.SubnetId,
    VpcId: s.VpcId ?? state.vpc.VpcId,
    OwnerId: LAB_ACCOUNT_ID,
    AssignIpv6AddressOnCreation: false,
    Ipv6CidrBlockAssociationSet: [],
    SubnetArn: `arn:aws:ec2:${s.AvailabilityZone.slice(0, -1)}:${LAB_ACCOUNT_ID}:subnet/${s.SubnetId}`,
    EnableDns64: false,
    Ipv6Native: false,
    PrivateDnsNameOptionsOnLaunch: {
      HostnameType: 'ip-name',
      EnableResourceNameDnsARecord: false,
      EnableResourceNameDnsAAAARecord: false,
    },
  };
}

const describeSubnets: Handler = (args, state) => {
  const out = describeSelected(args, 'subnet-ids', state.vpc.Subnets, (id) => findSubnet(state, id), {
    'subnet-id': (s) => [s.SubnetId],
    'vpc-id': (s) => [s.VpcId ?? state.vpc.VpcId],
    'cidr-block': (s) => [s.CidrBlock],
    'cidr-block-association.cidr-block': (s) => [s.CidrBlock],
    'availability-zone': (s) => [s.AvailabilityZone],
    state: () => ['available'],
    'default-for-az': () => ['false'],
    'owner-id': () => [LAB_ACCOUNT_ID],
  });
  if (!Array.isArray(out)) return out;
  return json({ Subnets: out.map((s) => subnetOut(state, s)) });
};

export const subnetOperations: Record<string, Ec2Operation> = {
  'describe-subnets': { api: 'DescribeSubnets', run: describeSubnets },
};
