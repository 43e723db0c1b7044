import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrateV1ToV2 } from '../../src/scenario/migrations';
import { defaultScenario, parseScenario, SCENARIO_VERSION } from '../../src/scenario/schema';
import {
  cidrContains,
  cidrOverlaps,
  defaultVpc,
  formatIpv4,
  parseCidr,
  parseCidrDetailed,
  parseIpv4,
  resourceId,
} from '../../src/scenario/vpc';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8'));

function errorsOf(doc: Record<string, unknown>): string[] {
  const r = parseScenario({ version: 2, ...doc });
  if (r.ok) throw new Error('expected the scenario to be refused');
  return r.errors;
}

/** A v2 document with the default VPC written out, to edit. */
function withVpc(edit: (vpc: ReturnType<typeof defaultVpc>) => void, extra: Record<string, unknown> = {}) {
  const vpc = defaultVpc(1);
  edit(vpc);
  return { vpc, ...extra };
}

describe('scenario versions and the v1 → v2 migration', () => {
  it('the current version is 2; v1 and v2 fixtures open to the same scenario', () => {
    expect(SCENARIO_VERSION).toBe(5);
    const v1 = parseScenario(fixture('v1-talk.json'));
    const v2 = parseScenario(fixture('v2-talk.json'));
    expect(v1.ok && v2.ok).toBe(true);
    if (!v1.ok || !v2.ok) return;
    expect(v2.scenario).toEqual(v1.scenario);
    expect(v1.scenario.version).toBe(5);
    expect(v1.scenario.instances.map((i) => [i.name, i.ip])).toEqual([
      ['web-server', '10.0.0.10'],
      ['app-server', '10.0.0.11'],
      ['app-client', '10.0.0.50'],
    ]);
  });
  it('v1 documents keep their v1 defaults (IPs 10.0.0.10 + index, same settings)', () => {
    const r = parseScenario({ version: 1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.instances.map((i) => [i.name, i.type, i.ip])).toEqual([
      ['client', 'c7i.large', '10.0.0.10'],
      ['server', 'c7i.large', '10.0.0.11'],
    ]);
    expect(r.scenario).toEqual(defaultScenario());
  });
  it('a v1 document may not carry v2 fields; unknown versions are refused', () => {
    expect(migrateV1ToV2({ version: 1, vpc: {} })).toEqual({
      ok: false,
      errors: ['vpc: not part of a version 1 scenario (set "version": 2 to use it)'],
    });
    const r = parseScenario({
      version: 1,
      instances: [{ name: 'a', type: 'c7i.large', subnet: 'subnet-12345678' }],
    });
    expect(r).toEqual({
      ok: false,
      errors: ['instances[0].subnet: not part of a version 1 scenario (set "version": 2 to use it)'],
    });
    expect(parseScenario({ version: 6 })).toEqual({
      ok: false,
      errors: ['version: 6 is not a known scenario version (known: 1, 2, 3, 4, 5)'],
    });
    expect(parseScenario({})).toEqual({
      ok: false,
      errors: ['version: missing (this lab reads versions 1, 2, 3, 4, 5)'],
    });
    // v5 added the instances' secondary interfaces and source/destination check
    expect(
      parseScenario({ version: 4, instances: [{ name: 'a', type: 'c7i.large', sourceDestCheck: false }] }),
    ).toEqual({
      ok: false,
      errors: ['instances[0].sourceDestCheck: not part of a version 4 scenario (set "version": 5 to use it)'],
    });
  });
});

describe('the v2 → v3 migration (wall clock, monitoring, recorder)', () => {
  it('a v2 document opens with the v3 defaults; a v2 document may not carry v3 settings', () => {
    const r = parseScenario({ version: 2 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.settings).toMatchObject({
      wallClockStart: '2024-12-02T17:00:00Z',
      monitoring: 'basic',
      record: false,
    });
    expect(parseScenario({ version: 2, settings: { monitoring: 'detailed' } })).toEqual({
      ok: false,
      errors: ['settings.monitoring: not part of a version 2 scenario (set "version": 3 to use it)'],
    });
  });
  it('wallClockStart must be an ISO 8601 date-time with whole seconds', () => {
    expect(parseScenario({ version: 3, settings: { wallClockStart: '2024-12-02T16:59:57Z' } }).ok).toBe(true);
    expect(parseScenario({ version: 3, settings: { wallClockStart: '2024-12-02T18:00:00+01:00' } }).ok).toBe(
      true,
    );
    for (const bad of ['2024-02-30T00:00:00Z', 'yesterday', '2024-12-02T17:00:00.5Z', '2024-12-02T17:00:00'])
      expect(parseScenario({ version: 3, settings: { wallClockStart: bad } }).ok).toBe(false);
  });
});

describe('the default VPC: the talk picture', () => {
  const s = defaultScenario();
  it('10.0.0.0/16, 0.0.0.0/0 → igw, NACL 100 allow all, the default SG plus HTTPS', () => {
    expect(s.vpc.CidrBlock).toBe('10.0.0.0/16');
    const routes = s.vpc.RouteTables[0]!.Routes.map((r) => [r.DestinationCidrBlock, r.GatewayId]);
    expect(routes).toEqual([
      ['10.0.0.0/16', 'local'],
      ['0.0.0.0/0', s.vpc.InternetGateways[0]!.InternetGatewayId],
    ]);
    expect(
      s.vpc.NetworkAcls[0]!.Entries.map((e) => [
        e.RuleNumber,
        e.Egress,
        e.Protocol,
        e.RuleAction,
        e.CidrBlock,
      ]),
    ).toEqual([
      [100, true, '-1', 'allow', '0.0.0.0/0'],
      [100, false, '-1', 'allow', '0.0.0.0/0'],
    ]);
    const sg = s.vpc.SecurityGroups[0]!;
    expect(sg.GroupName).toBe('default');
    expect(
      sg.IpPermissions.map((p) => [
        p.IpProtocol,
        p.FromPort,
        p.IpRanges.map((r) => r.CidrIp),
        p.UserIdGroupPairs.map((u) => u.GroupId),
      ]),
    ).toEqual([
      ['-1', undefined, [], [sg.GroupId]],
      ['tcp', 443, ['0.0.0.0/0'], []],
    ]);
    expect(
      s.instances.every((i) => i.securityGroups[0] === sg.GroupId && i.subnet === s.vpc.Subnets[0]!.SubnetId),
    ).toBe(true);
  });
  it('IDs are deterministic from the seed, in AWS long form, and differ between seeds', () => {
    expect(defaultScenario().vpc).toEqual(s.vpc);
    expect(s.vpc.VpcId).toMatch(/^vpc-[0-9a-f]{17}$/);
    expect(s.instances[0]!.instanceId).toMatch(/^i-[0-9a-f]{17}$/);
    const other = parseScenario({ version: 2, seed: 2 });
    expect(other.ok && other.scenario.vpc.VpcId).not.toBe(s.vpc.VpcId);
    expect(resourceId('sg', 1, 'x')).toBe(resourceId('sg', 1, 'x'));
  });
  it('many instances (incast): 16 clients to one server, consecutive IPs', () => {
    const instances = Array.from({ length: 17 }, (_, i) => ({
      name: i === 0 ? 'server' : `client-${i}`,
      type: 'c7i.large',
    }));
    const r = parseScenario({ version: 2, instances });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.scenario.instances.at(-1)!.ip).toBe('10.0.0.26');
  });
  it('the outside client is optional and defaults to 203.0.113.1', () => {
    expect(defaultScenario().client).toBeUndefined();
    const r = parseScenario({ version: 2, client: {} });
    expect(r.ok && r.scenario.client).toEqual({ name: 'internet-client', ip: '203.0.113.1' });
  });
});

describe('bad input names the field', () => {
  it('malformed CIDRs', () => {
    expect(errorsOf(withVpc((v) => (v.CidrBlock = '10.0.0.0/33')))).toContain(
      'vpc.CidrBlock: "10.0.0.0/33" is not an IPv4 CIDR block like 10.0.0.0/16',
    );
    expect(errorsOf(withVpc((v) => (v.Subnets[0]!.CidrBlock = '10.0.0.5/24')))).toContain(
      'vpc.Subnets[0].CidrBlock: "10.0.0.5/24" has host bits set (did you mean 10.0.0.0/24?)',
    );
    expect(errorsOf(withVpc((v) => (v.Subnets[0]!.CidrBlock = '10.1.0.0/24')))).toContain(
      "vpc.Subnets[0].CidrBlock: 10.1.0.0/24 is not inside the VPC's 10.0.0.0/16",
    );
  });
  it('overlapping and out-of-range NACL rule numbers', () => {
    const dup = withVpc((v) =>
      v.NetworkAcls[0]!.Entries.push({
        RuleNumber: 100,
        Egress: false,
        Protocol: '6',
        RuleAction: 'deny',
        CidrBlock: '0.0.0.0/0',
        PortRange: { From: 22, To: 22 },
      }),
    );
    expect(errorsOf(dup)).toEqual([
      'vpc.NetworkAcls[0].Entries[2].RuleNumber: rule 100 (ingress) is also Entries[1]: rule numbers must be unique per direction',
    ]);
    const zero = withVpc((v) => (v.NetworkAcls[0]!.Entries[0]!.RuleNumber = 0));
    expect(errorsOf(zero)).toEqual(['vpc.NetworkAcls[0].Entries[0].RuleNumber: rule numbers are 1–32766']);
    const big = withVpc((v) => (v.NetworkAcls[0]!.Entries[0]!.RuleNumber = 40000));
    expect(errorsOf(big)).toEqual(['vpc.NetworkAcls[0].Entries[0].RuleNumber: rule numbers are 1–32766']);
    // a pasted describe output with the `*` rule (32767 deny all) is accepted and the rule dropped
    const star = withVpc((v) =>
      v.NetworkAcls[0]!.Entries.push({
        RuleNumber: 32767,
        Egress: true,
        Protocol: '-1',
        RuleAction: 'deny',
        CidrBlock: '0.0.0.0/0',
      }),
    );
    const r = parseScenario({ version: 2, ...star });
    expect(r.ok && r.scenario.vpc.NetworkAcls[0]!.Entries).toHaveLength(2);
  });
  it('unknown group IDs, duplicate IDs, conflicting routes', () => {
    expect(
      errorsOf(
        withVpc(() => {}, {
          instances: [{ name: 'a', type: 'c7i.large', securityGroups: ['sg-0123456789abcdef0'] }],
        }),
      ),
    ).toEqual(['instances[0].securityGroups[0]: unknown group ID "sg-0123456789abcdef0"']);
    expect(
      errorsOf(
        withVpc((v) =>
          v.SecurityGroups[0]!.IpPermissions[0]!.UserIdGroupPairs.push({ GroupId: 'sg-0123456789abcdef0' }),
        ),
      ),
    ).toEqual([
      'vpc.SecurityGroups[0].IpPermissions[0].UserIdGroupPairs[1].GroupId: unknown group ID "sg-0123456789abcdef0"',
    ]);
    const dupId = withVpc((v) =>
      v.SecurityGroups.push({ ...structuredClone(v.SecurityGroups[0]!), GroupName: 'web' }),
    );
    expect(errorsOf(dupId)[0]).toMatch(
      /^vpc\.SecurityGroups\[1\]\.GroupId: duplicate ID "sg-[0-9a-f]{17}" \(also at vpc\.SecurityGroups\[0\]\.GroupId\)$/,
    );
    const conflict = withVpc((v) =>
      v.RouteTables[0]!.Routes.push({
        DestinationCidrBlock: '0.0.0.0/0',
        GatewayId: 'local',
        State: 'active',
        Origin: 'CreateRoute',
      }),
    );
    expect(errorsOf(conflict)).toContain(
      'vpc.RouteTables[0].Routes[2].DestinationCidrBlock: conflicting routes: 0.0.0.0/0 is also the destination of Routes[1]',
    );
  });
  it('timeouts outside AWS range; ENA Express on an unsupported type', () => {
    expect(
      errorsOf({
        instances: [
          { name: 'a', type: 'c7i.large', connectionTracking: { TcpEstablishedTimeout: 59, UdpTimeout: 61 } },
        ],
      }),
    ).toEqual([
      "instances[0].connectionTracking.TcpEstablishedTimeout: 59 is outside AWS's range for TcpEstablishedTimeout (60–432000 seconds)",
      "instances[0].connectionTracking.UdpTimeout: 61 is outside AWS's range for UdpTimeout (30–60 seconds)",
    ]);
    expect(
      errorsOf({ instances: [{ name: 'a', type: 'c7i.large', enaSrd: { EnaSrdEnabled: true } }] }),
    ).toEqual([
      'instances[0].enaSrd.EnaSrdEnabled: c7i.large does not support ENA Express (AWS-ENAX lists large Nitro v4+ sizes only)',
    ]);
    const ok = parseScenario({
      version: 2,
      instances: [{ name: 'a', type: 'c7i.12xlarge', enaSrd: { EnaSrdEnabled: true } }],
    });
    expect(ok.ok).toBe(true);
  });
  it('instance addresses: inside the subnet, not reserved, not shared; client outside the VPC', () => {
    expect(errorsOf({ instances: [{ name: 'a', type: 'c7i.large', ip: '10.0.0.3' }] })).toEqual([
      'instances[0].ip: 10.0.0.3 is reserved by AWS in 10.0.0.0/24 (the first four and the last address)',
    ]);
    expect(errorsOf({ instances: [{ name: 'a', type: 'c7i.large', ip: '10.0.9.9' }] })).toEqual([
      "instances[0].ip: 10.0.9.9 is not in the instance's subnet 10.0.0.0/24",
    ]);
    expect(
      errorsOf({
        instances: [
          { name: 'a', type: 'c7i.large' },
          { name: 'b', type: 'c7i.large', ip: '10.0.0.10' },
        ],
      }),
    ).toEqual(['instances[1].ip: 10.0.0.10 is already used by a']);
    expect(errorsOf({ client: { ip: '10.0.0.99' } })).toEqual([
      'client.ip: 10.0.0.99 is inside the VPC (10.0.0.0/16); the client is on the internet',
    ]);
  });
  it('security-group rules: ports for TCP, known protocols', () => {
    const noPorts = withVpc((v) =>
      v.SecurityGroups[0]!.IpPermissions.push({
        IpProtocol: 'tcp',
        IpRanges: [{ CidrIp: '0.0.0.0/0' }],
        Ipv6Ranges: [],
        PrefixListIds: [],
        UserIdGroupPairs: [],
      }),
    );
    expect(errorsOf(noPorts)).toEqual([
      'vpc.SecurityGroups[0].IpPermissions[2].FromPort: TCP/UDP rules need FromPort and ToPort',
    ]);
    const badProto = withVpc((v) => (v.SecurityGroups[0]!.IpPermissions[1]!.IpProtocol = 'sctp'));
    expect(errorsOf(badProto)).toEqual([
      'vpc.SecurityGroups[0].IpPermissions[1].IpProtocol: "sctp" is not tcp, udp, icmp, -1 (all) or a protocol number',
    ]);
  });
});

describe('IPv4/CIDR helpers', () => {
  it('parse, format, contain, overlap', () => {
    expect(parseIpv4('10.0.0.10')).toBe(0x0a00000a);
    expect(parseIpv4('10.0.0.256')).toBeNull();
    expect(parseIpv4('010.0.0.1')).toBeNull();
    expect(formatIpv4(0xcb007101)).toBe('203.0.113.1');
    const vpc = parseCidr('10.0.0.0/16')!;
    expect(cidrContains(vpc, parseIpv4('10.0.255.255')!)).toBe(true);
    expect(cidrContains(vpc, parseIpv4('10.1.0.0')!)).toBe(false);
    expect(cidrContains(parseCidr('0.0.0.0/0')!, parseIpv4('8.8.8.8')!)).toBe(true);
    expect(cidrOverlaps(parseCidr('10.0.0.0/24')!, parseCidr('10.0.0.128/25')!)).toBe(true);
    expect(cidrOverlaps(parseCidr('10.0.0.0/24')!, parseCidr('10.0.1.0/24')!)).toBe(false);
    expect(parseCidrDetailed('10.0.0.0')).toEqual({
      error: '"10.0.0.0" is not an IPv4 CIDR block like 10.0.0.0/16',
    });
  });
});
