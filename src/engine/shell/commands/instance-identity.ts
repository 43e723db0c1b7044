/**
 * What EC2 knows about one of the lab's instances, as DescribeInstances and the instance metadata
 * service (IMDS) give it: shared by `aws ec2 describe-instances` and `ec2-metadata`, so the two always
 * agree. Pure function of the scenario, the lab's VPC state and the seed.
 *
 * The lab's instances are all running from simulated time 0 (LaunchTime = settings.wallClockStart),
 * each launched by its own RunInstances (one reservation each, AMI launch index 0), from an Amazon
 * Linux 2023 AMI of the type's architecture, EBS-backed (/dev/xvda). IDs the scenario does not name
 * (reservation, AMI, root volume) are derived from the seed like every other lab ID.
 */
import { cpuTopology } from '../../../catalog';
import { LAB_REGION, resourceId } from '../../../scenario/vpc';
import { isoUtc } from '../../../lib/time';
import type { Lab } from '../../lab/lab';
import type { Eni, VpcState } from '../../vpc/state';

/** The name of the lab's cluster placement group (the scenario does not name it). */
export const LAB_PLACEMENT_GROUP_NAME = 'netlab-cluster';

/** Amazon Linux 2023's root device. */
export const ROOT_DEVICE_NAME = '/dev/xvda';

export interface InstanceIdentity {
  instanceId: string;
  instanceType: string;
  imageId: string;
  reservationId: string;
  amiLaunchIndex: number;
  /** ISO 8601 as the AWS CLI prints it (`2024-12-02T17:00:00+00:00`). */
  launchTime: string;
  availabilityZone: string;
  region: string;
  /** '' when the instance is not in a placement group (DescribeInstances prints the empty string). */
  placementGroupName: string;
  privateIp: string;
  /** `ip-10-0-0-10.ec2.internal` (us-east-1's private DNS form): IMDS local-hostname. */
  privateDnsName: string;
  macAddress: string;
  subnetId: string;
  vpcId: string;
  securityGroups: { GroupName: string; GroupId: string }[];
  rootVolumeId: string;
  architecture: 'x86_64' | 'arm64';
  coreCount: number;
  threadsPerCore: number;
  /** Monitoring.State: detailed monitoring is 'enabled', basic is 'disabled'. */
  monitoring: 'enabled' | 'disabled';
}

/** EC2's private DNS name of an address in us-east-1. */
export const privateDnsName = (ip: string) => `ip-${ip.replaceAll('.', '-')}.ec2.internal`;

export function instanceIdentity(lab: Lab, state: VpcState, eni: Eni): InstanceIdentity {
  const seed = lab.scenario.seed;
  const cpu = cpuTopology(eni.spec);
  const arch = cpu.architecture.value;
  return {
    instanceId: eni.instanceId,
    instanceType: eni.instanceType,
    imageId: resourceId('ami', seed, `al2023/${arch}`),
    reservationId: resourceId('r', seed, `reservation/${eni.instanceName}`),
    amiLaunchIndex: 0,
    launchTime: isoUtc(lab.wallClockStartS),
    availabilityZone: state.subnet(eni.subnetId)?.AvailabilityZone ?? '',
    region: LAB_REGION,
    placementGroupName: lab.scenario.placement === 'cluster' ? LAB_PLACEMENT_GROUP_NAME : '',
    privateIp: eni.ip,
    privateDnsName: privateDnsName(eni.ip),
    macAddress: lab.instance(eni.instanceName)?.host.eth0.link().mac ?? '',
    subnetId: eni.subnetId,
    vpcId: state.vpc.VpcId,
    securityGroups: eni.securityGroups.map((id) => ({
      GroupName: state.group(id)?.GroupName ?? '',
      GroupId: id,
    })),
    rootVolumeId: resourceId('vol', seed, `root/${eni.instanceName}`),
    architecture: arch,
    coreCount: cpu.coreCount.value,
    threadsPerCore: cpu.threadsPerCore.value,
    monitoring: lab.scenario.settings.monitoring === 'detailed' ? 'enabled' : 'disabled',
  };
}
