import { describe, expect, it } from 'vitest';
import { evaluateFlow, VpcState, vpcState } from '../../src/engine/vpc/state';
import { defaultScenario, parseScenario, type Scenario } from '../../src/scenario/schema';
import { resourceId } from '../../src/scenario/vpc';

const tcp = (srcIp: string, dstIp: string, dstPort: number) => ({
  proto: 'tcp' as const,
  srcIp,
  dstIp,
  srcPort: 40000,
  dstPort,
});

function scenario(doc: Record<string, unknown>): Scenario {
  const r = parseScenario({ version: 2, ...doc });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

/** Two subnets, so NACLs are on the path between the instances. */
function twoSubnets(): Scenario {
  const s = defaultScenario();
  const vpc = structuredClone(s.vpc);
  const subnetB = resourceId('subnet', 1, 'b');
  vpc.Subnets.push({ SubnetId: subnetB, CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a' });
  vpc.NetworkAcls[0]!.Associations.push({ SubnetId: subnetB });
  return scenario({
    vpc,
    instances: [
      { name: 'client', type: 'c7i.large' },
      { name: 'server', type: 'c7i.large', subnet: subnetB, ip: '10.0.1.10' },
    ],
    client: {},
  });
}

describe('evaluateFlow on the default scenario (the talk picture)', () => {
  const s = defaultScenario();
  const state = new VpcState(s);
  it('client → server iperf3 (5201): local route, NACLs skipped in one subnet, SG via the group reference, tracked', () => {
    const d = evaluateFlow(state, 'client', '10.0.0.11', tcp('10.0.0.10', '10.0.0.11', 5201));
    expect(d.allowed).toBe(true);
    expect(d.stages.map((x) => [x.stage, x.result])).toEqual([
      ['route', 'allow'],
      ['nacl-out', 'skipped'],
      ['sg-out', 'allow'],
      ['nacl-in', 'skipped'],
      ['sg-in', 'allow'],
    ]);
    const sg = s.vpc.SecurityGroups[0]!.GroupId;
    expect(d.stages[0]!.rule).toBe('10.0.0.0/16 → local');
    expect(d.stages[2]!.rule).toBe(`${sg} outbound all to 0.0.0.0/0`);
    expect(d.stages[4]!.rule).toBe(`${sg} inbound all from ${sg}`);
    expect(d.destination).toEqual({ kind: 'instance', instance: 'server' });
    // inbound rule names a group, not 0.0.0.0/0: tracked on the server; outbound all-open but
    // inbound responses are not all-open from 0.0.0.0/0: tracked on the client too
    expect(d.conntrack.map((c) => [c.instance, c.opened, c.tracked])).toEqual([
      ['client', 'egress', true],
      ['server', 'ingress', true],
    ]);
    expect(d.tracked).toBe(true);
    expect(d.timeoutS).toBe(432000);
    expect(d.enaExpress).toBe(false);
    expect(d.epoch).toBe(0);
  });
  it('to the internet: the 0.0.0.0/0 → igw route, no receiving ENI', () => {
    const d = evaluateFlow(state, 'client', '198.51.100.7', tcp('10.0.0.10', '198.51.100.7', 443));
    expect(d.allowed).toBe(true);
    expect(d.stages.map((x) => x.stage)).toEqual(['route', 'nacl-out', 'sg-out']);
    expect(d.stages[0]!.rule).toBe(`0.0.0.0/0 → ${s.vpc.InternetGateways[0]!.InternetGatewayId}`);
    expect(d.stages[1]).toMatchObject({ result: 'allow', ruleNumber: 100 });
    expect(d.destination).toEqual({ kind: 'internet' });
  });
  it('an address in the VPC that no ENI holds is dropped at the route stage', () => {
    const d = evaluateFlow(state, 'client', '10.0.5.5', tcp('10.0.0.10', '10.0.5.5', 80));
    expect(d.allowed).toBe(false);
    expect(d.stages).toHaveLength(1);
    expect(d.stages[0]!.result).toBe('drop');
  });
  it('the VPC resolver and link-local services are never filtered and not tracked', () => {
    for (const ip of ['169.254.169.253', '10.0.0.2', '169.254.169.254']) {
      const d = evaluateFlow(state, 'client', ip, { ...tcp('10.0.0.10', ip, 53), proto: 'udp' });
      expect(d.allowed).toBe(true);
      expect(d.destination.kind).toBe('link-local');
      expect(d.tracked).toBe(false);
    }
  });
});

describe('evaluateFlow across subnets, from the internet, and after mutations', () => {
  it('NACLs are evaluated when the flow leaves and enters a subnet', () => {
    const s = twoSubnets();
    const state = new VpcState(s);
    const d = evaluateFlow(state, 'client', '10.0.1.10', tcp('10.0.0.10', '10.0.1.10', 5201));
    expect(d.stages.map((x) => [x.stage, x.result, x.ruleNumber])).toEqual([
      ['route', 'allow', undefined],
      ['nacl-out', 'allow', 100],
      ['sg-out', 'allow', undefined],
      ['nacl-in', 'allow', 100],
      ['sg-in', 'allow', undefined],
    ]);
    // the VPC Mutations slide: the NACL narrowed to TCP 443 → iperf3 is denied by `*` at once
    const acl = state.vpc.NetworkAcls[0]!;
    acl.Entries = [
      {
        RuleNumber: 100,
        Egress: true,
        Protocol: '6',
        RuleAction: 'allow',
        CidrBlock: '0.0.0.0/0',
        PortRange: { From: 443, To: 443 },
      },
      {
        RuleNumber: 100,
        Egress: false,
        Protocol: '6',
        RuleAction: 'allow',
        CidrBlock: '0.0.0.0/0',
        PortRange: { From: 443, To: 443 },
      },
    ];
    state.recordMutation('network-acl', acl.NetworkAclId, 'ReplaceNetworkAclEntry');
    const after = evaluateFlow(state, 'client', '10.0.1.10', tcp('10.0.0.10', '10.0.1.10', 5201));
    expect(after.allowed).toBe(false);
    expect(after.stages.at(-1)).toMatchObject({ stage: 'nacl-out', result: 'deny', ruleNumber: '*' });
    expect(after.epoch).toBe(1);
  });
  it('from the outside client: only HTTPS gets in (the talk SG), and it is tracked', () => {
    const s = twoSubnets();
    const state = new VpcState(s);
    const https = evaluateFlow(state, 'internet-client', '10.0.1.10', tcp('203.0.113.1', '10.0.1.10', 443));
    expect(https.allowed).toBe(true);
    expect(https.stages.map((x) => x.stage)).toEqual(['route', 'nacl-in', 'sg-in']);
    expect(https.stages[2]!.rule).toMatch(/inbound tcp 443 from 0\.0\.0\.0\/0$/);
    // inbound 443 is open to 0.0.0.0/0 and outbound all to 0.0.0.0/0: untracked (AWS-CT)
    expect(https.tracked).toBe(false);
    expect(https.timeoutS).toBeNull();
    const ssh = evaluateFlow(state, 'internet-client', '10.0.1.10', tcp('203.0.113.1', '10.0.1.10', 22));
    expect(ssh.allowed).toBe(false);
    expect(ssh.stages.at(-1)).toMatchObject({
      stage: 'sg-in',
      result: 'deny',
      rule: 'no inbound rule allows it',
    });
  });
  it('vpcState(lab) is one state per lab, created from lab.scenario; time stamps come from the lab', () => {
    const s = defaultScenario();
    const lab = { scenario: s, nowNs: 5_000 };
    const a = vpcState(lab);
    expect(vpcState(lab)).toBe(a);
    expect(vpcState({ scenario: s, nowNs: 0 })).not.toBe(a);
    lab.nowNs = 7_000;
    const m = a.recordMutation('security-group', 'sg-x', 'RevokeSecurityGroupIngress');
    expect(m).toEqual({
      epoch: 1,
      atNs: 7_000,
      kind: 'security-group',
      resourceId: 'sg-x',
      operation: 'RevokeSecurityGroupIngress',
    });
    expect(a.mutationEpoch).toBe(1);
    // the scenario itself is never modified
    a.vpc.SecurityGroups[0]!.IpPermissions = [];
    expect(s.vpc.SecurityGroups[0]!.IpPermissions).toHaveLength(2);
  });
  it('ENA Express applies only with both ends enabled; UDP needs the UDP opt-in', () => {
    const s = scenario({
      instances: [
        { name: 'a', type: 'c7i.12xlarge', enaSrd: { EnaSrdEnabled: true } },
        {
          name: 'b',
          type: 'c7i.12xlarge',
          enaSrd: { EnaSrdEnabled: true, EnaSrdUdpSpecification: { EnaSrdUdpEnabled: true } },
        },
      ],
    });
    const state = new VpcState(s);
    expect(evaluateFlow(state, 'a', '10.0.0.11', tcp('10.0.0.10', '10.0.0.11', 5201)).enaExpress).toBe(true);
    expect(
      evaluateFlow(state, 'a', '10.0.0.11', { ...tcp('10.0.0.10', '10.0.0.11', 5201), proto: 'udp' })
        .enaExpress,
    ).toBe(false);
    state.enis[0]!.enaSrd.EnaSrdUdpSpecification.EnaSrdUdpEnabled = true;
    expect(
      evaluateFlow(state, 'a', '10.0.0.11', { ...tcp('10.0.0.10', '10.0.0.11', 5201), proto: 'udp' })
        .enaExpress,
    ).toBe(true);
  });
});
