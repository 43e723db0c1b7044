import { describe, expect, it } from 'vitest';
import { cpuTopology, getInstanceType } from '../../src/catalog';
import { cloudwatchTruth } from '../../src/lessons/catalog/cloudwatch';
import { createLab } from '../../src/engine/session/runner';
import { EC2_METADATA_HELP } from '../../src/engine/shell/commands/ec2-metadata';
import { execLine } from '../../src/engine/shell/shell';
import type { CommandOutput } from '../../src/engine/shell/types';
import { parseScenario, SCENARIO_VERSION } from '../../src/scenario/schema';

function lab(doc: Record<string, unknown> = {}) {
  const r = parseScenario({ version: SCENARIO_VERSION, ...doc });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

function sh(l: ReturnType<typeof lab>, line: string, on?: string): CommandOutput {
  const o = execLine(l, l.instance(on ?? l.scenario.instances[0]!.name)!, line);
  if (o.kind !== 'done') throw new Error('must finish at once');
  return o.out;
}

const apiError = (code: string, msg: string) =>
  `\nAn error occurred (${code}) when calling the DescribeInstances operation: ${msg}\n`;

// biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON output, read as the user reads it
type Doc = any;
const describeInstances = (l: ReturnType<typeof lab>, args = ''): Doc =>
  JSON.parse(sh(l, `aws ec2 describe-instances ${args}`).stdout);
const instances = (d: Doc) => d.Reservations.flatMap((r: Doc) => r.Instances);

/** The Instance shape's member order, as the AWS CLI v2 prints it (members the lab knows). */
const INSTANCE_KEYS = [
  'AmiLaunchIndex',
  'ImageId',
  'InstanceId',
  'InstanceType',
  'LaunchTime',
  'Monitoring',
  'Placement',
  'PrivateDnsName',
  'PrivateIpAddress',
  'ProductCodes',
  'PublicDnsName',
  'State',
  'StateTransitionReason',
  'SubnetId',
  'VpcId',
  'Architecture',
  'BlockDeviceMappings',
  'EbsOptimized',
  'EnaSupport',
  'Hypervisor',
  'NetworkInterfaces',
  'RootDeviceName',
  'RootDeviceType',
  'SecurityGroups',
  'SourceDestCheck',
  'VirtualizationType',
  'CpuOptions',
];

describe('aws ec2 describe-instances', () => {
  it('prints every instance in the CLI v2 layout and key order, one reservation each', () => {
    const l = lab();
    const out = sh(l, 'aws ec2 describe-instances');
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout.startsWith('{\n    "Reservations": [\n        {\n            "Groups": [],\n')).toBe(
      true,
    );
    const doc = JSON.parse(out.stdout);
    expect(out.result).toEqual(doc);
    expect(doc.Reservations).toHaveLength(2);
    expect(Object.keys(doc.Reservations[0])).toEqual(['Groups', 'Instances', 'OwnerId', 'ReservationId']);
    expect(doc.Reservations[0].OwnerId).toBe('123456789012');
    expect(doc.Reservations[0].ReservationId).toMatch(/^r-[0-9a-f]{17}$/);
    expect(doc.Reservations[0].ReservationId).not.toBe(doc.Reservations[1].ReservationId);
    const [client, server] = instances(doc);
    const sc = l.scenario.instances;
    expect(Object.keys(client)).toEqual(INSTANCE_KEYS);
    expect(client.InstanceId).toBe(sc[0]!.instanceId);
    expect(server.InstanceId).toBe(sc[1]!.instanceId);
    expect(client).toMatchObject({
      AmiLaunchIndex: 0,
      InstanceType: 'c7i.large',
      LaunchTime: '2024-12-02T17:00:00+00:00',
      Monitoring: { State: 'disabled' },
      Placement: { AvailabilityZone: 'us-east-1a', GroupName: 'netlab-cluster', Tenancy: 'default' },
      PrivateDnsName: 'ip-10-0-0-10.ec2.internal',
      PrivateIpAddress: '10.0.0.10',
      ProductCodes: [],
      PublicDnsName: '',
      State: { Code: 16, Name: 'running' },
      SubnetId: sc[0]!.subnet,
      VpcId: l.scenario.vpc.VpcId,
      Architecture: 'x86_64',
      EnaSupport: true,
      Hypervisor: 'xen',
      RootDeviceName: '/dev/xvda',
      RootDeviceType: 'ebs',
      SecurityGroups: [{ GroupName: 'default', GroupId: sc[0]!.securityGroups[0] }],
      VirtualizationType: 'hvm',
      CpuOptions: { CoreCount: 1, ThreadsPerCore: 2 },
    });
    expect(Object.keys(client.Placement)).toEqual(['AvailabilityZone', 'GroupName', 'Tenancy']);
    expect(client.BlockDeviceMappings[0].Ebs.VolumeId).toMatch(/^vol-[0-9a-f]{17}$/);
    expect(client.ImageId).toMatch(/^ami-[0-9a-f]{17}$/);
    expect(server.ImageId).toBe(client.ImageId); // same AMI for the same architecture
  });

  it('NetworkInterfaces is the instance-nested form of describe-network-interfaces', () => {
    const l = lab();
    const nic = instances(describeInstances(l))[0].NetworkInterfaces[0];
    const eni = JSON.parse(sh(l, 'aws ec2 describe-network-interfaces').stdout).NetworkInterfaces[0];
    expect(Object.keys(nic)).toEqual([
      'Attachment',
      'Description',
      'Groups',
      'Ipv6Addresses',
      'MacAddress',
      'NetworkInterfaceId',
      'OwnerId',
      'PrivateDnsName',
      'PrivateIpAddress',
      'PrivateIpAddresses',
      'SourceDestCheck',
      'Status',
      'SubnetId',
      'VpcId',
      'InterfaceType',
    ]);
    expect(Object.keys(nic.Attachment)).toEqual([
      'AttachTime',
      'AttachmentId',
      'DeleteOnTermination',
      'DeviceIndex',
      'Status',
      'NetworkCardIndex',
      'EnaSrdSpecification',
    ]);
    for (const k of ['MacAddress', 'NetworkInterfaceId', 'PrivateIpAddresses', 'Groups', 'SubnetId', 'VpcId'])
      expect(nic[k]).toEqual(eni[k]);
    expect(nic.MacAddress).toMatch(/^02(:[0-9a-f]{2}){5}$/);
    expect(nic.Attachment.AttachmentId).toBe(eni.Attachment.AttachmentId);
    expect(nic.Attachment.EnaSrdSpecification).toEqual(eni.Attachment.EnaSrdSpecification);
  });

  it('follows the scenario: monitoring, placement group, instance type (CPU, architecture), wall clock', () => {
    const detailed = instances(
      describeInstances(
        lab({
          placement: 'same-az',
          settings: { monitoring: 'detailed', wallClockStart: '2025-03-01T08:30:00Z' },
          instances: [
            { name: 'a', type: 'c7gn.12xlarge' },
            { name: 'b', type: 'c5.metal' },
          ],
        }),
      ),
    );
    expect(detailed[0]).toMatchObject({
      Monitoring: { State: 'enabled' },
      Placement: { GroupName: '' },
      LaunchTime: '2025-03-01T08:30:00+00:00',
      Architecture: 'arm64',
      CpuOptions: { CoreCount: 48, ThreadsPerCore: 1 },
    });
    expect(detailed[1]).toMatchObject({
      Architecture: 'x86_64',
      CpuOptions: { CoreCount: 48, ThreadsPerCore: 2 },
    });
    expect(detailed[0].ImageId).not.toBe(detailed[1].ImageId); // an arm64 AMI is another image
  });

  it('shows changes made with the other aws ec2 commands (state, not scenario)', () => {
    const l = lab({ placement: 'same-az', instances: [{ name: 'a', type: 'c6in.8xlarge' }] });
    const eni = l.scenario.instances[0]!.eniId;
    const before = instances(describeInstances(l))[0].NetworkInterfaces[0].Attachment.EnaSrdSpecification;
    expect(before.EnaSrdEnabled).toBe(false);
    expect(
      sh(
        l,
        `aws ec2 modify-network-interface-attribute --network-interface-id ${eni} --ena-srd-specification EnaSrdEnabled=true`,
      ).exitCode,
    ).toBe(0);
    const after = instances(describeInstances(l))[0].NetworkInterfaces[0].Attachment.EnaSrdSpecification;
    expect(after.EnaSrdEnabled).toBe(true);
  });

  it('--instance-ids selects; unknown and malformed IDs fail with the service texts (exit 254)', () => {
    const l = lab();
    const [c, s] = l.scenario.instances;
    const one = describeInstances(l, `--instance-ids ${s!.instanceId}`);
    expect(instances(one).map((i: Doc) => i.InstanceId)).toEqual([s!.instanceId]);
    expect(instances(describeInstances(l, `--instance-ids ${s!.instanceId} ${c!.instanceId}`))).toHaveLength(
      2,
    );
    const nf = sh(l, 'aws ec2 describe-instances --instance-ids i-0123456789abcdef0');
    expect(nf.exitCode).toBe(254);
    expect(nf.stdout).toBe('');
    expect(nf.stderr).toBe(
      apiError('InvalidInstanceID.NotFound', "The instance ID 'i-0123456789abcdef0' does not exist"),
    );
    const two = sh(
      l,
      `aws ec2 describe-instances --instance-ids i-0123456789abcdef0 ${c!.instanceId} i-01234567`,
    );
    expect(two.stderr).toBe(
      apiError(
        'InvalidInstanceID.NotFound',
        "The instance IDs 'i-0123456789abcdef0, i-01234567' do not exist",
      ),
    );
    for (const bad of ['client', 'i-123']) {
      const m = sh(l, `aws ec2 describe-instances --instance-ids ${bad}`);
      expect(m.exitCode).toBe(254);
      expect(m.stderr).toBe(apiError('InvalidInstanceID.Malformed', `Invalid id: "${bad}"`));
    }
  });

  it('--filters: the modelled names, wildcards, AND across filters; an unknown name is refused', () => {
    const l = lab({
      instances: [
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c6in.8xlarge' },
      ],
    });
    const [c, s] = l.scenario.instances;
    const ids = (f: string) =>
      instances(describeInstances(l, `--filters ${f}`)).map((i: Doc) => i.InstanceId);
    expect(ids('Name=instance-type,Values=c6in.*')).toEqual([s!.instanceId]);
    expect(ids('Name=instance-id,Values=' + c!.instanceId)).toEqual([c!.instanceId]);
    expect(ids('Name=private-ip-address,Values=10.0.0.1?')).toEqual([c!.instanceId, s!.instanceId]);
    expect(ids('Name=private-ip-address,Values=10.0.0.11')).toEqual([s!.instanceId]);
    expect(ids(`Name=subnet-id,Values=${c!.subnet}`)).toHaveLength(2);
    expect(ids(`Name=vpc-id,Values=${l.scenario.vpc.VpcId}`)).toHaveLength(2);
    expect(ids('Name=placement-group-name,Values=netlab-cluster')).toHaveLength(2);
    expect(ids('Name=availability-zone,Values=us-east-1b')).toEqual([]);
    expect(ids('Name=instance-state-name,Values=running')).toHaveLength(2);
    expect(ids('Name=instance-state-name,Values=stopped,terminated')).toEqual([]);
    expect(ids('Name=instance-type,Values=c7i.large Name=availability-zone,Values=us-east-1a')).toEqual([
      c!.instanceId,
    ]);
    expect(describeInstances(l, '--filters Name=instance-type,Values=m5.large')).toEqual({
      Reservations: [],
    });
    const sameAz = lab({ placement: 'same-az' });
    expect(
      instances(describeInstances(sameAz, '--filters Name=placement-group-name,Values=netlab-cluster')),
    ).toEqual([]);
    const bad = sh(l, 'aws ec2 describe-instances --filters Name=tag:Name,Values=web');
    expect(bad.exitCode).toBe(254);
    expect(bad.stderr).toBe(
      "\nAn error occurred (InvalidParameterValue) when calling the DescribeInstances operation: The filter 'tag:Name' is invalid\n",
    );
  });

  it('--dry-run, unknown options and paging options as the CLI answers them', () => {
    const l = lab();
    const dry = sh(l, 'aws ec2 describe-instances --dry-run');
    expect(dry.exitCode).toBe(254);
    expect(dry.stderr).toBe(
      '\nAn error occurred (DryRunOperation) when calling the DescribeInstances operation: Request would have succeeded, but DryRun flag is set.\n',
    );
    const unk = sh(l, 'aws ec2 describe-instances --instance-id i-0123456789abcdef0');
    expect(unk.exitCode).toBe(252);
    expect(unk.stderr).toMatch(/\nUnknown options: --instance-id, i-0123456789abcdef0\n\n$/);
    const page = sh(l, 'aws ec2 describe-instances --max-results 5');
    expect(page.exitCode).toBe(252);
    expect(page.stderr).toContain('--max-results is not simulated in ec2-netlab');
  });
});

describe('ec2-metadata (amazon-ec2-utils)', () => {
  it('prints `name: value` lines of the instance it runs on, in the order asked', () => {
    const l = lab();
    const [c, s] = l.scenario.instances;
    const di = instances(describeInstances(l));
    expect(sh(l, 'ec2-metadata -i').stdout).toBe(`instance-id: ${c!.instanceId}\n`);
    expect(sh(l, 'ec2-metadata --instance-id', 'server').stdout).toBe(`instance-id: ${s!.instanceId}\n`);
    expect(sh(l, 'ec2-metadata -t -z -o -h -a').stdout).toBe(
      'instance-type: c7i.large\nplacement: us-east-1a\nlocal-ipv4: 10.0.0.10\n' +
        `local-hostname: ip-10-0-0-10.ec2.internal\nami-id: ${di[0].ImageId}\n`,
    );
    expect(
      sh(
        l,
        'ec2-metadata --instance-type --availability-zone --local-ipv4 --local-hostname --ami-id',
        'server',
      ).stdout,
    ).toBe(
      'instance-type: c7i.large\nplacement: us-east-1a\nlocal-ipv4: 10.0.0.11\n' +
        `local-hostname: ip-10-0-0-11.ec2.internal\nami-id: ${di[1].ImageId}\n`,
    );
    expect(sh(l, 'ec2-metadata -e -s').stdout).toBe(
      `reservation-id: ${describeInstances(l).Reservations[0].ReservationId}\nsecurity-groups: default\n`,
    );
    expect(sh(l, 'sudo ec2-metadata -i').exitCode).toBe(0);
  });

  it('no option or --all prints everything in the script order; what the instance lacks is "not available"', () => {
    const l = lab();
    const all = sh(l, 'ec2-metadata');
    expect(all.exitCode).toBe(0);
    expect(sh(l, 'ec2-metadata --all').stdout).toBe(all.stdout);
    const labels = all.stdout
      .split('\n')
      .filter((x) => /^[a-z0-9-]+:/.test(x))
      .map((x) => x.slice(0, x.indexOf(':')));
    expect(labels).toEqual([
      'ami-id',
      'ami-launch-index',
      'ami-manifest-path',
      'ancestor-ami-ids',
      'block-device-mapping',
      'instance-id',
      'instance-type',
      'local-hostname',
      'local-ipv4',
      'kernel-id',
      'placement',
      'product-codes',
      'public-hostname',
      'public-ipv4',
      'public-keys',
      'ramdisk-id',
      'reservation-id',
      'security-groups',
      'user-data',
    ]);
    expect(all.stdout).toContain('block-device-mapping: \n\t ami: /dev/xvda\n\t root: /dev/xvda\n');
    expect(all.stdout).toContain('kernel-id: not available\n');
    expect(all.stdout).toContain('public-ipv4: not available\n');
    expect(all.stdout).toContain(`instance-id: ${l.scenario.instances[0]!.instanceId}\n`);
  });

  it('--help prints the usage; an unknown option prints it after what came before and exits 1', () => {
    const l = lab();
    const help = sh(l, 'ec2-metadata --help');
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toBe(EC2_METADATA_HELP);
    expect(help.stdout).toContain('Usage: ec2-metadata <option>\n');
    expect(help.stdout).toContain('-i/--instance-id          The ID of this instance\n');
    const bad = sh(l, 'ec2-metadata -i --region');
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toBe(`instance-id: ${l.scenario.instances[0]!.instanceId}\n${EC2_METADATA_HELP}`);
    // -h is --local-hostname (the script's case matches it first), not help
    expect(sh(l, 'ec2-metadata -h').stdout).toBe('local-hostname: ip-10-0-0-10.ec2.internal\n');
  });
});

describe('curl to the instance metadata service', () => {
  it('is refused, naming IMDS and what gives the same values', () => {
    const l = lab();
    const before = l.nowNs;
    const r = sh(l, 'curl http://169.254.169.254/latest/meta-data/instance-id');
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('instance metadata service (IMDS, http://169.254.169.254/) is not simulated');
    expect(r.stderr).toContain('ec2-metadata -i');
    expect(r.stderr).toContain('aws ec2 describe-instances');
    expect(l.nowNs).toBe(before);
    expect(sh(l, 'curl -s 169.254.169.254/latest/meta-data/').stderr).toContain('IMDS');
  });

  it('the IMDSv2 token request is refused as such, before its options are read', () => {
    const l = lab();
    const r = sh(
      l,
      'curl -X PUT "http://169.254.169.254/latest/api/token" -H "X-aws-ec2-metadata-token-ttl-seconds: 21600"',
    );
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('IMDSv2 session tokens (PUT /latest/api/token) are not simulated');
    expect(r.stderr).toContain('ec2-metadata');
  });

  it('other hosts keep their own refusal', () => {
    const r = sh(lab(), 'curl http://169.254.169.253/');
    expect(r.stderr).not.toContain('IMDS');
  });
});

describe('catalog CPU topology', () => {
  it('Intel types have two threads per core, Graviton one; cores = vCPUs / threads', () => {
    expect(cpuTopology(getInstanceType('c7i.large')!)).toMatchObject({
      architecture: { value: 'x86_64' },
      threadsPerCore: { value: 2 },
      coreCount: { value: 1 },
    });
    expect(cpuTopology(getInstanceType('c8g.48xlarge')!)).toMatchObject({
      architecture: { value: 'arm64' },
      threadsPerCore: { value: 1 },
      coreCount: { value: 192 },
    });
    expect(cpuTopology(getInstanceType('c6in.8xlarge')!).coreCount.value).toBe(16);
  });
});

describe('the CloudWatch lesson points to what works', () => {
  it('its text names ec2-metadata and describe-instances, and ec2-metadata -i gives the ID its query uses', () => {
    const step = cloudwatchTruth.steps[0]!;
    expect(step.text).toContain('ec2-metadata -i');
    expect(step.text).toContain('aws ec2 describe-instances');
    const l = lab(cloudwatchTruth.scenario as Record<string, unknown>);
    const id = sh(l, 'ec2-metadata -i', 'client').stdout.trim().replace('instance-id: ', '');
    expect(step.solution!.at(-1)).toContain(`Value=${id} `);
    const di = instances(describeInstances(l, '--filters Name=private-ip-address,Values=10.0.0.10'));
    expect(di.map((i: Doc) => i.InstanceId)).toEqual([id]);
  });
});
