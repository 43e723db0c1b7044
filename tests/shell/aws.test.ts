import { describe, expect, it } from 'vitest';
import { createLab } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import type { CommandOutput } from '../../src/engine/shell/types';
import { evaluateFlow, vpcState } from '../../src/engine/vpc/state';
import { defaultScenario, parseScenario } from '../../src/scenario/schema';

function lab(doc?: Record<string, unknown>) {
  const r = doc ? parseScenario({ version: 2, ...doc }) : { ok: true as const, scenario: defaultScenario() };
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

function sh(l: ReturnType<typeof lab>, line: string): CommandOutput {
  const o = execLine(l, l.instance(l.scenario.instances[0]!.name)!, line);
  if (o.kind !== 'done') throw new Error('aws must finish at once');
  return o.out;
}

const USAGE =
  'usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\n' +
  'To see help text, you can run:\n\n  aws help\n  aws <command> help\n  aws <command> <subcommand> help\n';

const apiError = (code: string, op: string, msg: string) =>
  `\nAn error occurred (${code}) when calling the ${op} operation: ${msg}\n`;

describe('aws ec2 describe-*: the VPC as the API returns it', () => {
  it('describe-security-groups prints the default group as the CLI does (indent 4, AWS key order)', () => {
    const l = lab();
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    const out = sh(l, 'aws ec2 describe-security-groups');
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('');
    expect(
      out.stdout.startsWith(
        '{\n    "SecurityGroups": [\n        {\n            "Description": "default VPC security group",\n',
      ),
    ).toBe(true);
    const doc = JSON.parse(out.stdout);
    expect(Object.keys(doc.SecurityGroups[0])).toEqual([
      'Description',
      'GroupName',
      'IpPermissions',
      'OwnerId',
      'GroupId',
      'IpPermissionsEgress',
      'VpcId',
    ]);
    expect(doc.SecurityGroups[0].IpPermissions[1]).toEqual({
      FromPort: 443,
      IpProtocol: 'tcp',
      IpRanges: [{ CidrIp: '0.0.0.0/0', Description: 'HTTPS from anywhere (NET402 Flow Setup slide)' }],
      Ipv6Ranges: [],
      PrefixListIds: [],
      ToPort: 443,
      UserIdGroupPairs: [],
    });
    expect(doc.SecurityGroups[0].IpPermissions[0].UserIdGroupPairs).toEqual([
      { GroupId: sg, UserId: '123456789012' },
    ]);
    expect(out.result).toEqual(doc);
  });
  it('--group-ids and --filters select; unknown IDs and filters fail as AWS does', () => {
    const l = lab();
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    expect(
      JSON.parse(sh(l, `aws ec2 describe-security-groups --group-ids ${sg}`).stdout).SecurityGroups,
    ).toHaveLength(1);
    expect(
      JSON.parse(sh(l, 'aws ec2 describe-security-groups --filters Name=group-name,Values=web,def*').stdout)
        .SecurityGroups,
    ).toHaveLength(1);
    expect(
      JSON.parse(sh(l, 'aws ec2 describe-security-groups --filters Name=group-name,Values=web').stdout),
    ).toEqual({ SecurityGroups: [] });
    const nf = sh(l, 'aws ec2 describe-security-groups --group-ids sg-0123456789abcdef0');
    expect(nf.stderr).toBe(
      apiError(
        'InvalidGroup.NotFound',
        'DescribeSecurityGroups',
        "The security group 'sg-0123456789abcdef0' does not exist",
      ),
    );
    expect(nf.exitCode).toBe(254);
    expect(sh(l, 'aws ec2 describe-security-groups --group-ids web').stderr).toBe(
      apiError(
        'InvalidGroupId.Malformed',
        'DescribeSecurityGroups',
        'Invalid id: "web" (expecting "sg-...")',
      ),
    );
    expect(sh(l, 'aws ec2 describe-security-groups --filters Name=colour,Values=red').stderr).toBe(
      apiError('InvalidParameterValue', 'DescribeSecurityGroups', "The filter 'colour' is invalid"),
    );
  });
  it('describe-network-acls lists the * rules as 32767, egress first', () => {
    const l = lab();
    const doc = JSON.parse(sh(l, 'aws ec2 describe-network-acls').stdout);
    expect(
      doc.NetworkAcls[0].Entries.map((e: { RuleNumber: number; Egress: boolean; RuleAction: string }) => [
        e.RuleNumber,
        e.Egress,
        e.RuleAction,
      ]),
    ).toEqual([
      [100, true, 'allow'],
      [32767, true, 'deny'],
      [100, false, 'allow'],
      [32767, false, 'deny'],
    ]);
    expect(doc.NetworkAcls[0].IsDefault).toBe(true);
  });
  it('describe-subnets: the subnet create-network-interface needs, its free addresses counted, errors as the API', () => {
    const l = lab();
    const id = l.scenario.vpc.Subnets[0]!.SubnetId;
    const doc = JSON.parse(sh(l, 'aws ec2 describe-subnets').stdout);
    expect(doc.Subnets).toHaveLength(1);
    // a /24 has 256 addresses; AWS reserves 5; client and server hold one each
    expect(doc.Subnets[0]).toMatchObject({
      SubnetId: id,
      CidrBlock: '10.0.0.0/24',
      AvailableIpAddressCount: 249,
      State: 'available',
    });
    const made = JSON.parse(sh(l, `aws ec2 create-network-interface --subnet-id ${id}`).stdout);
    expect(made.NetworkInterface.SubnetId).toBe(id);
    const after = JSON.parse(sh(l, `aws ec2 describe-subnets --subnet-ids ${id}`).stdout);
    expect(after.Subnets[0].AvailableIpAddressCount).toBe(248);
    expect(
      JSON.parse(sh(l, 'aws ec2 describe-subnets --filters Name=availability-zone,Values=nowhere-1a').stdout),
    ).toEqual({ Subnets: [] });
    expect(sh(l, 'aws ec2 describe-subnets --subnet-ids subnet-0123456789abcdef0').stderr).toBe(
      apiError(
        'InvalidSubnetID.NotFound',
        'DescribeSubnets',
        "The subnet ID 'subnet-0123456789abcdef0' does not exist",
      ),
    );
    expect(sh(l, 'aws ec2 describe-subnets --subnet-ids sub-1').stderr).toBe(
      apiError(
        'InvalidSubnetID.Malformed',
        'DescribeSubnets',
        'Invalid id: "sub-1" (expecting "subnet-...")',
      ),
    );
  });

  it('describe-route-tables and describe-network-interfaces', () => {
    const l = lab();
    const rt = JSON.parse(
      sh(l, 'aws ec2 describe-route-tables --filters Name=association.main,Values=true').stdout,
    ).RouteTables[0];
    expect(rt.Routes).toEqual([
      {
        DestinationCidrBlock: '10.0.0.0/16',
        GatewayId: 'local',
        Origin: 'CreateRouteTable',
        State: 'active',
      },
      {
        DestinationCidrBlock: '0.0.0.0/0',
        GatewayId: l.scenario.vpc.InternetGateways[0]!.InternetGatewayId,
        Origin: 'CreateRoute',
        State: 'active',
      },
    ]);
    const server = l.scenario.instances[1]!;
    const eni = JSON.parse(
      sh(
        l,
        `aws ec2 describe-network-interfaces --filters Name=attachment.instance-id,Values=${server.instanceId}`,
      ).stdout,
    ).NetworkInterfaces;
    expect(eni).toHaveLength(1);
    expect(eni[0]).toMatchObject({
      NetworkInterfaceId: server.eniId,
      PrivateIpAddress: '10.0.0.11',
      MacAddress: l.instance('server')!.host.eth0.link().mac,
      Attachment: { InstanceId: server.instanceId, EnaSrdSpecification: { EnaSrdEnabled: false } },
    });
    expect(eni[0].ConnectionTrackingConfiguration).toBeUndefined();
  });
});

describe('aws ec2 security-group changes', () => {
  it('authorize prints Return and the new rule, bumps the epoch, and the flow evaluation sees it', () => {
    const l = lab({ client: {} });
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    const st = vpcState(l);
    const ssh = {
      proto: 'tcp' as const,
      srcIp: '203.0.113.1',
      dstIp: '10.0.0.11',
      srcPort: 40000,
      dstPort: 22,
    };
    expect(evaluateFlow(st, 'internet-client', '10.0.0.11', ssh).allowed).toBe(false);
    const out = sh(
      l,
      `aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol tcp --port 22 --cidr 203.0.113.1/32`,
    );
    expect(out.exitCode).toBe(0);
    const doc = JSON.parse(out.stdout);
    expect(doc.Return).toBe(true);
    expect(doc.SecurityGroupRules).toHaveLength(1);
    expect(doc.SecurityGroupRules[0]).toMatchObject({
      GroupId: sg,
      GroupOwnerId: '123456789012',
      IsEgress: false,
      IpProtocol: 'tcp',
      FromPort: 22,
      ToPort: 22,
      CidrIpv4: '203.0.113.1/32',
    });
    expect(doc.SecurityGroupRules[0].SecurityGroupRuleId).toMatch(/^sgr-[0-9a-f]{17}$/);
    expect(st.mutationEpoch).toBe(1);
    expect(st.mutations[0]).toMatchObject({
      kind: 'security-group',
      resourceId: sg,
      operation: 'AuthorizeSecurityGroupIngress',
    });
    const d = evaluateFlow(st, 'internet-client', '10.0.0.11', ssh);
    expect(d.allowed).toBe(true);
    expect(d.tracked).toBe(true); // the slide: TCP 22 from 203.0.113.1/32 → tracked
    // the same rule again: InvalidPermission.Duplicate with AWS's rule text, nothing changes
    expect(
      sh(
        l,
        `aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol tcp --port 22 --cidr 203.0.113.1/32`,
      ).stderr,
    ).toBe(
      apiError(
        'InvalidPermission.Duplicate',
        'AuthorizeSecurityGroupIngress',
        'the specified rule "peer: 203.0.113.1/32, TCP, from port: 22, to port: 22, ALLOW" already exists',
      ),
    );
    expect(st.mutationEpoch).toBe(1);
  });
  it('--ip-permissions in shorthand and JSON; all-open both ways makes flows untracked', () => {
    const l = lab();
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    const st = vpcState(l);
    const t = {
      proto: 'tcp' as const,
      srcIp: '10.0.0.10',
      dstIp: '10.0.0.11',
      srcPort: 40000,
      dstPort: 5201,
    };
    expect(evaluateFlow(st, 'client', '10.0.0.11', t).tracked).toBe(true);
    const out = sh(
      l,
      `aws ec2 authorize-security-group-ingress --group-id ${sg} --ip-permissions IpProtocol=-1,IpRanges=[{CidrIp=0.0.0.0/0,Description=all}]`,
    );
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout).SecurityGroupRules[0]).toMatchObject({
      IpProtocol: '-1',
      FromPort: -1,
      ToPort: -1,
      Description: 'all',
    });
    const d = evaluateFlow(st, 'client', '10.0.0.11', t);
    expect(d.tracked).toBe(false);
    expect(d.conntrack.map((c) => c.tracked)).toEqual([false, false]);
    const js = sh(
      l,
      `aws ec2 authorize-security-group-egress --group-id ${sg} --ip-permissions '[{"IpProtocol":"udp","FromPort":53,"ToPort":53,"IpRanges":[{"CidrIp":"10.0.0.2/32"}]}]'`,
    );
    expect(js.exitCode).toBe(0);
    expect(JSON.parse(js.stdout).SecurityGroupRules[0]).toMatchObject({
      IsEgress: true,
      IpProtocol: 'udp',
      CidrIpv4: '10.0.0.2/32',
    });
  });
  it('revoke removes the rule (and fails on a rule that is not there)', () => {
    const l = lab();
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    const out = sh(
      l,
      `aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol tcp --port 443 --cidr 0.0.0.0/0`,
    );
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      Return: true,
      RevokedSecurityGroupRules: [{ FromPort: 443, CidrIpv4: '0.0.0.0/0' }],
    });
    expect(vpcState(l).group(sg)!.IpPermissions).toHaveLength(1);
    expect(
      sh(
        l,
        `aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol tcp --port 443 --cidr 0.0.0.0/0`,
      ).stderr,
    ).toBe(
      apiError(
        'InvalidPermission.NotFound',
        'RevokeSecurityGroupIngress',
        'The specified rule does not exist in this security group.',
      ),
    );
    // revoking the self-reference cuts instance-to-instance traffic at the SG stage
    expect(
      sh(l, `aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol all --source-group ${sg}`)
        .exitCode,
    ).toBe(0);
    const d = evaluateFlow(vpcState(l), 'client', '10.0.0.11', {
      proto: 'tcp',
      srcIp: '10.0.0.10',
      dstIp: '10.0.0.11',
      srcPort: 1,
      dstPort: 5201,
    });
    expect(d.stages.at(-1)).toMatchObject({ stage: 'sg-in', result: 'deny' });
  });
  it('errors: unknown group, bad CIDR, TCP without ports, CLI usage errors', () => {
    const l = lab();
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    expect(
      sh(
        l,
        'aws ec2 authorize-security-group-ingress --group-id sg-123 --protocol tcp --port 22 --cidr 0.0.0.0/0',
      ).stderr,
    ).toBe(
      apiError(
        'InvalidGroup.NotFound',
        'AuthorizeSecurityGroupIngress',
        "The security group 'sg-123' does not exist",
      ),
    );
    expect(
      sh(
        l,
        `aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol tcp --port 22 --cidr 10.0.0.0/33`,
      ).stderr,
    ).toBe(
      apiError(
        'InvalidParameterValue',
        'AuthorizeSecurityGroupIngress',
        'CIDR block 10.0.0.0/33 is malformed',
      ),
    );
    expect(
      sh(l, `aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol tcp --cidr 0.0.0.0/0`)
        .stderr,
    ).toBe(
      apiError(
        'InvalidParameterValue',
        'AuthorizeSecurityGroupIngress',
        "Invalid value 'Must specify both from and to ports with TCP/UDP.' for portRange.",
      ),
    );
    const req = sh(l, 'aws ec2 authorize-security-group-egress --protocol tcp --port 22 --cidr 0.0.0.0/0');
    expect(req.stderr).toBe(`\n${USAGE}\naws: error: the following arguments are required: --group-id\n\n`);
    expect(req.exitCode).toBe(252);
    expect(
      sh(l, `aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol sctp --cidr 0.0.0.0/0`)
        .stderr,
    ).toBe('\nprotocol parameter should be one of: tcp|udp|icmp|all or any valid protocol number.\n');
    expect(
      sh(
        l,
        `aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol tcp --ip-permissions IpProtocol=tcp,FromPort=1,ToPort=2,IpRanges=[{CidrIp=1.2.3.4/32}]`,
      ).stderr,
    ).toBe('\nThe --protocol option is not compatible with the --ip-permissions option \n');
    expect(sh(l, 'aws ec2 describe-security-groups --colour red').stderr).toBe(
      `\n${USAGE}\nUnknown options: --colour, red\n\n`,
    );
    expect(vpcState(l).mutationEpoch).toBe(0);
  });
});

describe('aws ec2 network-ACL entries', () => {
  it('create / replace / delete, with AWS errors, each bumping the epoch', () => {
    const l = lab();
    const acl = l.scenario.vpc.NetworkAcls[0]!.NetworkAclId;
    const st = vpcState(l);
    const base = `--network-acl-id ${acl}`;
    expect(
      sh(
        l,
        `aws ec2 create-network-acl-entry ${base} --rule-number 100 --protocol tcp --port-range From=443,To=443 --cidr-block 0.0.0.0/0 --rule-action allow --ingress`,
      ).stderr,
    ).toBe(
      apiError(
        'NetworkAclEntryAlreadyExists',
        'CreateNetworkAclEntry',
        'The network acl entry identified by 100 already exists.',
      ),
    );
    const ok = sh(
      l,
      `aws ec2 create-network-acl-entry ${base} --rule-number 90 --protocol tcp --port-range From=22,To=22 --cidr-block 0.0.0.0/0 --rule-action deny --ingress`,
    );
    expect(ok).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(st.networkAcl(acl)!.Entries.find((e) => e.RuleNumber === 90)).toEqual({
      RuleNumber: 90,
      Egress: false,
      Protocol: '6',
      RuleAction: 'deny',
      CidrBlock: '0.0.0.0/0',
      PortRange: { From: 22, To: 22 },
    });
    // the VPC Mutations slide: rule 100 replaced by TCP 443 only
    expect(
      sh(
        l,
        `aws ec2 replace-network-acl-entry ${base} --rule-number 100 --protocol 6 --port-range From=443,To=443 --cidr-block 0.0.0.0/0 --rule-action allow --egress`,
      ).exitCode,
    ).toBe(0);
    expect(st.networkAcl(acl)!.Entries.find((e) => e.RuleNumber === 100 && e.Egress)).toMatchObject({
      Protocol: '6',
      PortRange: { From: 443, To: 443 },
    });
    expect(sh(l, `aws ec2 delete-network-acl-entry ${base} --rule-number 90 --ingress`).exitCode).toBe(0);
    expect(st.mutationEpoch).toBe(3);
    expect(st.mutations.map((m) => m.operation)).toEqual([
      'CreateNetworkAclEntry',
      'ReplaceNetworkAclEntry',
      'DeleteNetworkAclEntry',
    ]);
    expect(sh(l, `aws ec2 delete-network-acl-entry ${base} --rule-number 90 --ingress`).stderr).toBe(
      apiError(
        'InvalidNetworkAclEntry.NotFound',
        'DeleteNetworkAclEntry',
        'The network acl entry identified by 90 does not exist.',
      ),
    );
    expect(
      sh(
        l,
        `aws ec2 create-network-acl-entry ${base} --rule-number 40000 --protocol -1 --cidr-block 0.0.0.0/0 --rule-action deny --ingress`,
      ).stderr,
    ).toMatch(
      /^\nAn error occurred \(InvalidParameterValue\) when calling the CreateNetworkAclEntry operation: .*ruleNumber/,
    );
    expect(sh(l, `aws ec2 delete-network-acl-entry ${base} --rule-number 90`).stderr).toBe(
      `\n${USAGE}\naws: error: the following arguments are required: --egress | --ingress\n\n`,
    );
    expect(
      sh(
        l,
        'aws ec2 delete-network-acl-entry --network-acl-id acl-0123456789abcdef0 --rule-number 90 --egress',
      ).stderr,
    ).toBe(
      apiError(
        'InvalidNetworkAclID.NotFound',
        'DeleteNetworkAclEntry',
        "The networkAcl ID 'acl-0123456789abcdef0' does not exist",
      ),
    );
    expect(st.mutationEpoch).toBe(3);
  });
});

describe('aws ec2 routes', () => {
  it('create / replace / delete with RouteAlreadyExists, InvalidRoute.NotFound and the local route protected', () => {
    const l = lab();
    const rtb = l.scenario.vpc.RouteTables[0]!.RouteTableId;
    const igw = l.scenario.vpc.InternetGateways[0]!.InternetGatewayId;
    expect(
      sh(
        l,
        `aws ec2 create-route --route-table-id ${rtb} --destination-cidr-block 0.0.0.0/0 --gateway-id ${igw}`,
      ).stderr,
    ).toBe(
      apiError('RouteAlreadyExists', 'CreateRoute', 'The route identified by 0.0.0.0/0 already exists.'),
    );
    const c = sh(
      l,
      `aws ec2 create-route --route-table-id ${rtb} --destination-cidr-block 198.51.100.0/24 --gateway-id ${igw}`,
    );
    expect(c.stdout).toBe('{\n    "Return": true\n}\n');
    expect(
      sh(
        l,
        `aws ec2 replace-route --route-table-id ${rtb} --destination-cidr-block 198.51.101.0/24 --gateway-id ${igw}`,
      ).stderr,
    ).toBe(
      apiError(
        'InvalidParameterValue',
        'ReplaceRoute',
        "There is no route defined for '198.51.101.0/24' in the route table. Use CreateRoute instead.",
      ),
    );
    expect(
      sh(l, `aws ec2 delete-route --route-table-id ${rtb} --destination-cidr-block 198.51.100.0/24`).exitCode,
    ).toBe(0);
    expect(
      sh(l, `aws ec2 delete-route --route-table-id ${rtb} --destination-cidr-block 198.51.100.0/24`).stderr,
    ).toBe(
      apiError(
        'InvalidRoute.NotFound',
        'DeleteRoute',
        `no route with destination-cidr-block 198.51.100.0/24 in route table ${rtb}`,
      ),
    );
    expect(
      sh(l, `aws ec2 delete-route --route-table-id ${rtb} --destination-cidr-block 10.0.0.0/16`).stderr,
    ).toBe(
      apiError(
        'InvalidParameterValue',
        'DeleteRoute',
        `cannot remove local route 10.0.0.0/16 in route table ${rtb}`,
      ),
    );
    expect(
      sh(
        l,
        `aws ec2 create-route --route-table-id ${rtb} --destination-cidr-block 10.0.0.0/33 --gateway-id ${igw}`,
      ).stderr,
    ).toBe(
      apiError(
        'InvalidParameterValue',
        'CreateRoute',
        'Value (10.0.0.0/33) for parameter destinationCidrBlock is invalid. This is not a valid CIDR block.',
      ),
    );
    expect(
      sh(
        l,
        `aws ec2 create-route --route-table-id ${rtb} --destination-cidr-block 10.0.1.0/24 --gateway-id ${igw}`,
      ).stderr,
    ).toMatch(/InvalidParameterValue.*equal to or more specific than one of this VPC's CIDR blocks/);
    expect(
      sh(
        l,
        `aws ec2 create-route --route-table-id rtb-0123456789abcdef0 --destination-cidr-block 1.0.0.0/8 --gateway-id ${igw}`,
      ).stderr,
    ).toBe(
      apiError(
        'InvalidRouteTableID.NotFound',
        'CreateRoute',
        "The routeTable ID 'rtb-0123456789abcdef0' does not exist",
      ),
    );
    // deleting the default route: the internet is unreachable at the route stage
    expect(
      sh(l, `aws ec2 delete-route --route-table-id ${rtb} --destination-cidr-block 0.0.0.0/0`).exitCode,
    ).toBe(0);
    const d = evaluateFlow(vpcState(l), 'client', '8.8.8.8', {
      proto: 'udp',
      srcIp: '10.0.0.10',
      dstIp: '8.8.8.8',
      srcPort: 1,
      dstPort: 53,
    });
    expect(d.stages).toEqual([
      { stage: 'route', result: 'drop', rule: 'no route to 8.8.8.8', resourceId: rtb },
    ]);
    // create, delete, delete: failed calls changed nothing
    expect(vpcState(l).mutationEpoch).toBe(3);
  });
});

describe('aws ec2 modify-network-interface-attribute', () => {
  it('ENA Express: refused on a type without support, accepted on a supported one', () => {
    const small = lab();
    const eni = small.scenario.instances[0]!.eniId;
    const r = sh(
      small,
      `aws ec2 modify-network-interface-attribute --network-interface-id ${eni} --ena-srd-specification EnaSrdEnabled=true,EnaSrdUdpSpecification={EnaSrdUdpEnabled=true}`,
    );
    expect(r.exitCode).toBe(254);
    expect(r.stderr).toBe(
      apiError(
        'UnsupportedOperation',
        'ModifyNetworkInterfaceAttribute',
        "ENA Express is not supported for instance type 'c7i.large'.",
      ),
    );
    const big = lab({
      instances: [
        { name: 'a', type: 'c7i.12xlarge' },
        { name: 'b', type: 'c7i.12xlarge' },
      ],
    });
    const [a, b] = big.scenario.instances;
    for (const e of [a!.eniId, b!.eniId]) {
      expect(
        sh(
          big,
          `aws ec2 modify-network-interface-attribute --network-interface-id ${e} --ena-srd-specification EnaSrdEnabled=true`,
        ),
      ).toMatchObject({
        stdout: '',
        exitCode: 0,
      });
    }
    const st = vpcState(big);
    expect(st.eniById(a!.eniId)!.enaSrd).toEqual({
      EnaSrdEnabled: true,
      EnaSrdUdpSpecification: { EnaSrdUdpEnabled: false },
    });
    expect(
      evaluateFlow(st, 'a', '10.0.0.11', {
        proto: 'tcp',
        srcIp: '10.0.0.10',
        dstIp: '10.0.0.11',
        srcPort: 1,
        dstPort: 5201,
      }).enaExpress,
    ).toBe(true);
    expect(st.mutations.map((m) => m.kind)).toEqual(['network-interface', 'network-interface']);
    const desc = JSON.parse(
      sh(big, `aws ec2 describe-network-interfaces --network-interface-ids ${a!.eniId}`).stdout,
    );
    expect(desc.NetworkInterfaces[0].Attachment.EnaSrdSpecification).toEqual({
      EnaSrdEnabled: true,
      EnaSrdUdpSpecification: { EnaSrdUdpEnabled: false },
    });
  });
  it('connection tracking timeouts within AWS bounds; describe shows the configuration', () => {
    const l = lab();
    const eni = l.scenario.instances[0]!.eniId;
    const base = `aws ec2 modify-network-interface-attribute --network-interface-id ${eni} --connection-tracking-specification`;
    expect(sh(l, `${base} TcpEstablishedTimeout=59`).stderr).toBe(
      apiError(
        'InvalidParameterValue',
        'ModifyNetworkInterfaceAttribute',
        "Invalid value '59' for TcpEstablishedTimeout. The value must be between 60 and 432000 seconds.",
      ),
    );
    expect(sh(l, `${base} UdpStreamTimeout=181`).exitCode).toBe(254);
    expect(sh(l, `${base} UdpTimeout=29`).exitCode).toBe(254);
    expect(vpcState(l).mutationEpoch).toBe(0);
    expect(sh(l, `${base} TcpEstablishedTimeout=120,UdpTimeout=60`).exitCode).toBe(0);
    const st = vpcState(l);
    expect(st.timeouts(st.eniById(eni)!)).toEqual({ tcpEstablishedS: 120, udpS: 60, udpStreamS: 180 });
    const d = evaluateFlow(st, 'client', '10.0.0.11', {
      proto: 'tcp',
      srcIp: '10.0.0.10',
      dstIp: '10.0.0.11',
      srcPort: 1,
      dstPort: 5201,
    });
    expect(d.conntrack.map((c) => c.timeoutS)).toEqual([120, 432000]);
    expect(d.timeoutS).toBe(120);
    const desc = JSON.parse(
      sh(l, `aws ec2 describe-network-interfaces --network-interface-ids ${eni}`).stdout,
    );
    expect(desc.NetworkInterfaces[0].ConnectionTrackingConfiguration).toEqual({
      TcpEstablishedTimeout: 120,
      UdpStreamTimeout: 180,
      UdpTimeout: 60,
    });
    expect(sh(l, `${base} TcpEstablishedTimeout=abc`).stderr).toBe(
      "\nParameter validation failed:\nInvalid type for parameter ConnectionTrackingSpecification.TcpEstablishedTimeout, value: abc, type: <class 'str'>, valid types: <class 'int'>\n",
    );
    expect(
      sh(
        l,
        'aws ec2 modify-network-interface-attribute --network-interface-id eni-0123456789abcdef0 --groups sg-0123456789abcdef0',
      ).stderr,
    ).toBe(
      apiError(
        'InvalidNetworkInterfaceID.NotFound',
        'ModifyNetworkInterfaceAttribute',
        "The networkInterface ID 'eni-0123456789abcdef0' does not exist",
      ),
    );
  });
});

describe('the aws command itself', () => {
  it('unmodelled services and operations are refused clearly; usage errors', () => {
    const l = lab();
    expect(sh(l, 'aws s3 ls')).toMatchObject({
      stderr: 'aws: the s3 service is not simulated in ec2-netlab (only aws ec2 and aws cloudwatch)\n',
      exitCode: 252,
    });
    expect(sh(l, 'aws ec2 run-instances --image-id ami-1').stderr).toMatch(
      /^aws: ec2 run-instances is not simulated in ec2-netlab/,
    );
    expect(sh(l, 'aws').stderr).toBe(
      `\n${USAGE}\naws: error: the following arguments are required: command\n\n`,
    );
    expect(sh(l, 'aws ec2').stderr).toBe(
      `\n${USAGE}\naws: error: the following arguments are required: operation\n\n`,
    );
    expect(sh(l, 'aws ec2 describe-route-tables --output table').stderr).toMatch(
      /--output table is not simulated/,
    );
    expect(
      sh(l, 'aws --output json --region us-east-1 ec2 describe-route-tables --no-cli-pager').exitCode,
    ).toBe(0);
  });
  it('--dry-run validates and changes nothing', () => {
    const l = lab();
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    expect(
      sh(
        l,
        `aws ec2 authorize-security-group-ingress --dry-run --group-id ${sg} --protocol tcp --port 80 --cidr 0.0.0.0/0`,
      ).stderr,
    ).toBe(
      apiError(
        'DryRunOperation',
        'AuthorizeSecurityGroupIngress',
        'Request would have succeeded, but DryRun flag is set.',
      ),
    );
    expect(vpcState(l).mutationEpoch).toBe(0);
  });
  it('mutations carry the simulated time at which they were applied', () => {
    const l = lab();
    l.runUntil(3_000_000_000);
    const sg = l.scenario.vpc.SecurityGroups[0]!.GroupId;
    sh(
      l,
      `aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol udp --port 53 --cidr 10.0.0.0/16`,
    );
    expect(vpcState(l).mutations[0]!.atNs).toBe(l.nowNs);
    expect(l.nowNs).toBeGreaterThan(0);
  });
});
