import { describe, expect, it } from 'vitest';
import { documented, getInstanceType } from '../../src/catalog';
import {
  effectiveConntrackTimeouts,
  evaluateNacl,
  evaluateSecurityGroups,
  flowIdleTimeoutS,
  isTracked,
  routeLookup,
  trackingDecision,
  type VpcTuple,
} from '../../src/engine/vpc/rules';
import type { IpPermission, NetworkAcl, RouteTable, SecurityGroup } from '../../src/scenario/vpc';

const perm = (p: Partial<IpPermission> & Pick<IpPermission, 'IpProtocol'>): IpPermission => ({
  IpRanges: [],
  Ipv6Ranges: [],
  PrefixListIds: [],
  UserIdGroupPairs: [],
  ...p,
});

const tcp = (srcIp: string, dstIp: string, dstPort: number, srcPort = 40000): VpcTuple => ({
  proto: 'tcp',
  srcIp,
  dstIp,
  srcPort,
  dstPort,
});

describe('routeLookup: longest prefix match, local route always present', () => {
  // the talk's "Routing Table": 0.0.0.0/0 → IGW, 10.0.0.0/16 → LOCAL
  const table: RouteTable = {
    RouteTableId: 'rtb-00000001',
    Associations: [{ Main: true }],
    Routes: [
      {
        DestinationCidrBlock: '10.0.0.0/16',
        GatewayId: 'local',
        State: 'active',
        Origin: 'CreateRouteTable',
      },
      {
        DestinationCidrBlock: '0.0.0.0/0',
        GatewayId: 'igw-00000001',
        State: 'active',
        Origin: 'CreateRoute',
      },
    ],
  };
  it('VPC addresses go local, the rest to the internet gateway', () => {
    expect(routeLookup(table, '10.0.0.11')?.target).toEqual({ kind: 'local' });
    expect(routeLookup(table, '10.0.255.254')?.target).toEqual({ kind: 'local' });
    expect(routeLookup(table, '10.1.0.1')?.target).toEqual({ kind: 'igw', id: 'igw-00000001' });
    expect(routeLookup(table, '203.0.113.1')?.route.DestinationCidrBlock).toBe('0.0.0.0/0');
  });
  it('the most specific route wins, whatever the order of the routes', () => {
    const t: RouteTable = {
      ...table,
      Routes: [
        {
          DestinationCidrBlock: '0.0.0.0/0',
          GatewayId: 'igw-00000001',
          State: 'active',
          Origin: 'CreateRoute',
        },
        {
          DestinationCidrBlock: '192.168.0.0/16',
          NatGatewayId: 'nat-00000001',
          State: 'active',
          Origin: 'CreateRoute',
        },
        {
          DestinationCidrBlock: '192.168.1.0/24',
          NetworkInterfaceId: 'eni-00000001',
          State: 'active',
          Origin: 'CreateRoute',
        },
      ],
    };
    expect(routeLookup(t, '192.168.1.7')?.target).toEqual({ kind: 'eni', id: 'eni-00000001' });
    expect(routeLookup(t, '192.168.2.7')?.target).toEqual({ kind: 'nat', id: 'nat-00000001' });
    expect(routeLookup(t, '8.8.8.8')?.target.kind).toBe('igw');
  });
  it('the local route is considered even when the table data lacks it; no match → null', () => {
    const bare: RouteTable = { RouteTableId: 'rtb-00000002', Associations: [], Routes: [] };
    expect(routeLookup(bare, '10.0.0.5')).toBeNull();
    expect(routeLookup(bare, '10.0.0.5', '10.0.0.0/16')?.target).toEqual({ kind: 'local' });
    expect(routeLookup(bare, '10.9.0.5', '10.0.0.0/16')).toBeNull();
  });
});

describe('evaluateNacl: lowest number first, first match wins, * deny', () => {
  // the talk: rule 100 allow all + * deny (both directions)
  const talk: NetworkAcl = {
    NetworkAclId: 'acl-00000001',
    IsDefault: true,
    Associations: [],
    Entries: [
      { RuleNumber: 100, Egress: false, Protocol: '-1', RuleAction: 'allow', CidrBlock: '0.0.0.0/0' },
      { RuleNumber: 100, Egress: true, Protocol: '-1', RuleAction: 'allow', CidrBlock: '0.0.0.0/0' },
    ],
  };
  it('rule 100 allows everything in both directions', () => {
    expect(evaluateNacl(talk, 'ingress', tcp('203.0.113.1', '10.0.0.11', 443))).toMatchObject({
      action: 'allow',
      ruleNumber: 100,
    });
    expect(
      evaluateNacl(talk, 'egress', { ...tcp('10.0.0.11', '10.0.1.5', 53), proto: 'udp' }).ruleNumber,
    ).toBe(100);
  });
  it('the VPC Mutations slide: rule 100 narrowed to TCP 443 → other traffic hits *', () => {
    const narrowed: NetworkAcl = {
      ...talk,
      Entries: [
        {
          RuleNumber: 100,
          Egress: false,
          Protocol: '6',
          RuleAction: 'allow',
          CidrBlock: '0.0.0.0/0',
          PortRange: { From: 443, To: 443 },
        },
      ],
    };
    expect(evaluateNacl(narrowed, 'ingress', tcp('203.0.113.1', '10.0.0.11', 443))).toMatchObject({
      action: 'allow',
      ruleNumber: 100,
    });
    expect(evaluateNacl(narrowed, 'ingress', tcp('203.0.113.1', '10.0.0.11', 80))).toEqual({
      action: 'deny',
      ruleNumber: '*',
    });
    expect(evaluateNacl(narrowed, 'egress', tcp('10.0.0.11', '203.0.113.1', 443))).toEqual({
      action: 'deny',
      ruleNumber: '*',
    });
  });
  it('a lower-numbered deny wins over a higher allow, whatever the entry order', () => {
    const acl: NetworkAcl = {
      ...talk,
      Entries: [
        ...talk.Entries,
        {
          RuleNumber: 90,
          Egress: false,
          Protocol: '6',
          RuleAction: 'deny',
          CidrBlock: '203.0.113.0/24',
          PortRange: { From: 22, To: 22 },
        },
      ],
    };
    expect(evaluateNacl(acl, 'ingress', tcp('203.0.113.9', '10.0.0.11', 22))).toMatchObject({
      action: 'deny',
      ruleNumber: 90,
    });
    expect(evaluateNacl(acl, 'ingress', tcp('198.51.100.9', '10.0.0.11', 22))).toMatchObject({
      action: 'allow',
      ruleNumber: 100,
    });
    expect(evaluateNacl(acl, 'ingress', tcp('203.0.113.9', '10.0.0.11', 23)).ruleNumber).toBe(100);
  });
  it('ingress entries match the source, egress entries the destination; ICMP type/code', () => {
    const acl: NetworkAcl = {
      ...talk,
      Entries: [
        { RuleNumber: 10, Egress: true, Protocol: '-1', RuleAction: 'allow', CidrBlock: '10.0.1.0/24' },
        {
          RuleNumber: 20,
          Egress: false,
          Protocol: '1',
          RuleAction: 'allow',
          CidrBlock: '0.0.0.0/0',
          IcmpTypeCode: { Type: 8, Code: -1 },
        },
      ],
    };
    expect(evaluateNacl(acl, 'egress', tcp('10.0.0.10', '10.0.1.20', 80)).action).toBe('allow');
    expect(evaluateNacl(acl, 'egress', tcp('10.0.1.20', '10.0.0.10', 80)).action).toBe('deny');
    const ping: VpcTuple = { proto: 'icmp', srcIp: '1.2.3.4', dstIp: '10.0.0.10', srcPort: 0, dstPort: 0 };
    expect(evaluateNacl(acl, 'ingress', ping)).toMatchObject({ action: 'allow', ruleNumber: 20 });
    expect(evaluateNacl(acl, 'ingress', { ...ping, icmpType: 0 })).toEqual({
      action: 'deny',
      ruleNumber: '*',
    });
  });
});

// The "Untracked Connections" slide (AWS-CT example)
const slideGroup: SecurityGroup = {
  GroupId: 'sg-00000001',
  GroupName: 'web',
  Description: 'Untracked Connections slide',
  IpPermissions: [
    perm({ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '203.0.113.1/32' }] }),
    perm({ IpProtocol: 'tcp', FromPort: 80, ToPort: 80, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }),
    perm({ IpProtocol: 'tcp', FromPort: 80, ToPort: 80, Ipv6Ranges: [{ CidrIpv6: '::/0' }] }),
    perm({ IpProtocol: 'icmp', FromPort: -1, ToPort: -1, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }),
  ],
  IpPermissionsEgress: [
    perm({ IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] }),
    perm({ IpProtocol: '-1', Ipv6Ranges: [{ CidrIpv6: '::/0' }] }),
  ],
};

describe('evaluateSecurityGroups: stateful, allow-only, CIDRs and group references', () => {
  it('the slide group: SSH only from 203.0.113.1, HTTP and ICMP from anywhere', () => {
    expect(
      evaluateSecurityGroups([slideGroup], 'ingress', tcp('203.0.113.1', '10.0.0.10', 22)).matchedRule,
    ).toMatchObject({
      groupId: 'sg-00000001',
      index: 0,
      peer: '203.0.113.1/32',
    });
    expect(evaluateSecurityGroups([slideGroup], 'ingress', tcp('203.0.113.2', '10.0.0.10', 22))).toEqual({
      allowed: false,
    });
    expect(
      evaluateSecurityGroups([slideGroup], 'ingress', tcp('198.51.100.7', '10.0.0.10', 80)).allowed,
    ).toBe(true);
    expect(
      evaluateSecurityGroups([slideGroup], 'ingress', tcp('198.51.100.7', '10.0.0.10', 443)).allowed,
    ).toBe(false);
    const ping: VpcTuple = {
      proto: 'icmp',
      srcIp: '198.51.100.7',
      dstIp: '10.0.0.10',
      srcPort: 0,
      dstPort: 0,
    };
    expect(evaluateSecurityGroups([slideGroup], 'ingress', ping).matchedRule?.index).toBe(3);
    expect(evaluateSecurityGroups([slideGroup], 'egress', tcp('10.0.0.10', '8.8.8.8', 5201)).allowed).toBe(
      true,
    );
  });
  it('a rule naming a group allows members of that group only', () => {
    const g: SecurityGroup = {
      GroupId: 'sg-00000002',
      GroupName: 'default',
      Description: '',
      IpPermissions: [perm({ IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: 'sg-00000002' }] })],
      IpPermissionsEgress: [],
    };
    const t = tcp('10.0.0.10', '10.0.0.11', 5201);
    expect(evaluateSecurityGroups([g], 'ingress', t, ['sg-00000002']).matchedRule?.peer).toBe('sg-00000002');
    expect(evaluateSecurityGroups([g], 'ingress', t, ['sg-00000009']).allowed).toBe(false);
    expect(evaluateSecurityGroups([g], 'ingress', t, []).allowed).toBe(false);
    // no outbound rules at all: nothing leaves
    expect(evaluateSecurityGroups([g], 'egress', t).allowed).toBe(false);
  });
  it('the union of several groups: a second group adds what the first lacks', () => {
    const https: SecurityGroup = {
      GroupId: 'sg-00000003',
      GroupName: 'https',
      Description: '',
      IpPermissions: [
        perm({ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }),
      ],
      IpPermissionsEgress: [],
    };
    expect(evaluateSecurityGroups([slideGroup], 'ingress', tcp('1.1.1.1', '10.0.0.10', 443)).allowed).toBe(
      false,
    );
    expect(
      evaluateSecurityGroups([slideGroup, https], 'ingress', tcp('1.1.1.1', '10.0.0.10', 443)).matchedRule
        ?.groupId,
    ).toBe('sg-00000003');
  });
});

describe('isTracked: exactly the "Untracked Connections" slide (AWS-CT)', () => {
  it('TCP 22 tracked, TCP 80 untracked, ICMP always tracked', () => {
    expect(isTracked([slideGroup], tcp('203.0.113.1', '10.0.0.10', 22))).toBe(true);
    expect(isTracked([slideGroup], tcp('198.51.100.7', '10.0.0.10', 80))).toBe(false);
    const ping: VpcTuple = {
      proto: 'icmp',
      srcIp: '198.51.100.7',
      dstIp: '10.0.0.10',
      srcPort: 0,
      dstPort: 0,
    };
    expect(trackingDecision([slideGroup], ping, 'ingress')).toEqual({
      tracked: true,
      reason: 'ICMP is always tracked',
    });
  });
  it('a flow opened outbound needs an inbound rule allowing all response ports from 0.0.0.0/0', () => {
    // outbound is all-open, but inbound only has 22/80: responses to port 40000 are not all-open
    expect(trackingDecision([slideGroup], tcp('10.0.0.10', '8.8.8.8', 443), 'egress')).toMatchObject({
      tracked: true,
    });
    const allOpen: SecurityGroup = {
      ...slideGroup,
      IpPermissions: [perm({ IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] })],
    };
    expect(isTracked([allOpen], tcp('10.0.0.10', '8.8.8.8', 443), 'egress')).toBe(false);
    expect(isTracked([allOpen], { ...tcp('10.0.0.10', '8.8.8.8', 53), proto: 'udp' }, 'egress')).toBe(false);
    // a narrower response rule (TCP 1024-65535) is not "all ports": tracked
    const ephemeral: SecurityGroup = {
      ...slideGroup,
      IpPermissions: [
        perm({ IpProtocol: 'tcp', FromPort: 1024, ToPort: 65535, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }),
      ],
    };
    expect(isTracked([ephemeral], tcp('10.0.0.10', '8.8.8.8', 443), 'egress')).toBe(true);
  });
  it('a rule open to a VPC range (not 0.0.0.0/0) keeps flows tracked; other protocols are tracked', () => {
    const vpcOnly: SecurityGroup = {
      ...slideGroup,
      IpPermissions: [perm({ IpProtocol: '-1', IpRanges: [{ CidrIp: '10.0.0.0/16' }] })],
    };
    expect(isTracked([vpcOnly], tcp('10.0.0.11', '10.0.0.10', 5201))).toBe(true);
    const gre: VpcTuple = { proto: 47, srcIp: '10.0.0.11', dstIp: '10.0.0.10', srcPort: 0, dstPort: 0 };
    const open: SecurityGroup = {
      ...slideGroup,
      IpPermissions: [perm({ IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] })],
    };
    expect(isTracked([open], gre)).toBe(true);
  });
});

describe('conntrack idle timeouts: AWS defaults per type, per-ENI overrides', () => {
  it('Nitro v4 defaults 432000/30/180; a Nitro v6 table (TCP 350) is taken as given', () => {
    const c7i = getInstanceType('c7i.large')!;
    expect(effectiveConntrackTimeouts(c7i, {})).toEqual({
      tcpEstablishedS: 432000,
      udpS: 30,
      udpStreamS: 180,
    });
    // the catalog has no Nitro v6 type yet; its defaults arrive as a ConntrackTimeouts table
    const v6 = {
      tcpEstablishedSeconds: documented(350, 'AWS-NITRO'),
      udpStreamSeconds: documented(180, 'AWS-CT'),
      udpSeconds: documented(30, 'AWS-CT'),
    };
    expect(effectiveConntrackTimeouts(v6, {})).toEqual({ tcpEstablishedS: 350, udpS: 30, udpStreamS: 180 });
    expect(effectiveConntrackTimeouts(v6, { TcpEstablishedTimeout: 60 }).tcpEstablishedS).toBe(60);
  });
  it('configured values replace the defaults; UDP stream vs one-way UDP', () => {
    const t = effectiveConntrackTimeouts(getInstanceType('c7i.large')!, {
      TcpEstablishedTimeout: 120,
      UdpTimeout: 60,
    });
    expect(t).toEqual({ tcpEstablishedS: 120, udpS: 60, udpStreamS: 180 });
    expect(flowIdleTimeoutS(t, 'tcp')).toBe(120);
    expect(flowIdleTimeoutS(t, 'udp')).toBe(60);
    expect(flowIdleTimeoutS(t, 'udp', true)).toBe(180);
    expect(flowIdleTimeoutS(t, 47)).toBe(600);
  });
});
