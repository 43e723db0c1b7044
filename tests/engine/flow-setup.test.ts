/**
 * Nitro flow setup (issue 3, first increment): the full processing path on a flow's first packet,
 * the accelerated path after, conntrack (tracked/untracked, the allowance), VPC mutations, and the
 * lab-only `lab nitro show` / `lab trace` views.
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import type { L4Proto, Packet } from '../../src/engine/model/packet';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import type { CommandOutput } from '../../src/engine/shell/types';
import { defaultScenario, parseScenario, type Scenario } from '../../src/scenario/schema';
import { resourceId } from '../../src/scenario/vpc';

function makeLab(params: Record<string, number> = {}): Lab {
  const s: Scenario = { ...defaultScenario(), params };
  return createLab(s);
}

/** Two subnets (one NACL on both), so NACLs are on the path between client and server. */
function twoSubnetLab(): Lab {
  const s = defaultScenario();
  const vpc = structuredClone(s.vpc);
  const subnetB = resourceId('subnet', 1, 'b');
  vpc.Subnets.push({ SubnetId: subnetB, CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a' });
  vpc.NetworkAcls[0]!.Associations.push({ SubnetId: subnetB });
  const r = parseScenario({
    version: 2,
    vpc,
    instances: [
      { name: 'client', type: 'c7i.large' },
      { name: 'server', type: 'c7i.large', subnet: subnetB, ip: '10.0.1.10' },
    ],
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

function sh(lab: Lab, host: string, line: string): CommandOutput {
  const o = execLine(lab, lab.instance(host)!, line);
  if (o.kind !== 'done') throw new Error(`${line} must finish at once`);
  return o.out;
}

function ethtoolCounter(lab: Lab, host: string, name: string): number {
  const out = sh(lab, host, 'ethtool -S eth0').stdout;
  const m = new RegExp(`^\\s+${name}: (\\d+)$`, 'm').exec(out);
  if (!m) throw new Error(`${name} not in ethtool -S output`);
  return Number(m[1]);
}

/** Bits per second of each iperf3 interval of a run (the sum line when there are several streams). */
function intervalGbps(r: RunRecord): number[] {
  const doc = r.result as { intervals: { sum: { bits_per_second: number } }[] };
  return doc.intervals.map((i) => i.sum.bits_per_second / 1e9);
}

const sgId = (lab: Lab) => lab.scenario.vpc.SecurityGroups[0]!.GroupId;

describe('Nitro flow setup: processing path, then accelerated flow', () => {
  it("an iperf3 flow's first packet takes the processing path on both cards, every later packet is accelerated", () => {
    const lab = makeLab();
    const s = new LabSession(lab);
    const r = s.run('iperf3 -c server -t 1');
    expect(r[0]!.exitCode).toBe(0);
    for (const name of ['client', 'server']) {
      const st = lab.instance(name)!.nitro.flowStats;
      expect(st.slowPathPackets).toBe(1);
      expect(st.flowSetups).toBe(1);
      expect(st.acceleratedPackets).toBeGreaterThan(100_000);
      expect(st.vpcDeniedPackets).toBe(0);
    }
    // the flow still reaches the per-flow limit: the one-time setup is negligible
    expect(intervalGbps(r[0]!)[0]!).toBeGreaterThan(9);
  });

  it('a second connection pays flow setup again; the conntrack table holds both', () => {
    const lab = makeLab();
    const s = new LabSession(lab);
    s.run('iperf3 -c server -t 1');
    s.run('iperf3 -c server -t 1');
    const card = lab.instance('client')!.nitro;
    expect(card.flowStats.slowPathPackets).toBe(2);
    expect(card.flowStats.flowSetups).toBe(2);
    expect(card.flows.conntrack.size).toBe(2);
    const max = card.flows.allowanceMax;
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_available')).toBe(max - 2);
  });

  it('a VPC mutation forces re-evaluation: the next packet of each direction pays the processing path again', () => {
    const lab = makeLab();
    const s = new LabSession(lab);
    s.run('iperf3 -c server -t 3 &');
    s.run('sleep 1');
    const before = lab.instance('client')!.nitro.flowStats.flowSetups;
    // an unrelated rule: the flow stays allowed, but the decision is from an older epoch
    s.run(
      `aws ec2 authorize-security-group-ingress --group-id ${sgId(lab)} --protocol tcp --port 22 --cidr 203.0.113.1/32`,
    );
    s.run('sleep 3');
    s.close();
    // each direction's next packet (data out, ACKs in) is re-evaluated once
    const st = lab.instance('client')!.nitro.flowStats;
    expect(st.flowSetups).toBe(before + 2);
    expect(st.slowPathPackets).toBe(3);
    expect(st.vpcDeniedPackets).toBe(0);
  });
});

/** One small packet of a new flow client → server, handed straight to the client's Nitro card. */
function offerNewFlow(lab: Lab, proto: L4Proto, srcPort: number): Packet {
  const c = lab.instance('client')!;
  const flow = lab.makeFlow(c, lab.tuple(c, lab.instance('server')!, proto, srcPort, 5201));
  const p: Packet = {
    flow,
    count: 1,
    sizeBytes: 84,
    payloadBytes: 56,
    seq: 0,
    ack: 0,
    flags: 0,
    sack: null,
    window: 0,
    tos: 0,
    sentAtNs: lab.nowNs,
    enqueuedAtNs: lab.nowNs,
    txq: 0,
    mark: 0,
  };
  c.nitro.egress(p);
  return p;
}

describe('the processing path server', () => {
  it('serves new flows FIFO, each for nitroSlowPathNs + nitroSlowPathPerSgRuleNs × SG rules', () => {
    for (const perRule of [200, 0]) {
      const lab = makeLab({ nitroSlowPathNs: 1000, nitroSlowPathPerSgRuleNs: perRule });
      const card = lab.instance('client')!.nitro;
      const left: number[] = [];
      const next = card.toFabric;
      card.toFabric = (p) => {
        left.push(lab.nowNs);
        next(p);
      };
      for (let i = 0; i < 10; i++) offerNewFlow(lab, 'udp', 40000 + i);
      lab.runUntil(1e6);
      const g = lab.scenario.vpc.SecurityGroups[0]!;
      const rules = g.IpPermissions.length + g.IpPermissionsEgress.length;
      const cost = 1000 + perRule * rules;
      expect(left).toEqual(Array.from({ length: 10 }, (_, k) => (k + 1) * cost));
      expect(card.flowStats.flowSetups).toBe(10);
    }
  });

  it('ICMP is never accelerated: every packet takes the processing path', () => {
    const lab = makeLab();
    const card = lab.instance('client')!.nitro;
    for (let i = 0; i < 3; i++) {
      offerNewFlow(lab, 'icmp', 0);
      lab.runUntil(lab.nowNs + 1e6);
    }
    offerNewFlow(lab, 'udp', 40000);
    lab.runUntil(lab.nowNs + 1e6);
    expect(card.flowStats.slowPathPackets).toBe(4);
    expect(card.flowStats.acceleratedPackets).toBe(0);
    const show = sh(lab, 'client', 'lab nitro show').stdout;
    expect(show).toMatch(/icmp 10\.0\.0\.10 ↔ 10\.0\.0\.11\s+Established\s+tracked/);
  });
});

describe('VPC mutations mid-iperf3', () => {
  it('revoking the SG rule of a tracked flow leaves it running (AWS-CT)', () => {
    const lab = makeLab();
    const s = new LabSession(lab);
    const sg = sgId(lab);
    s.run('iperf3 -c server -t 4 &');
    s.run('sleep 1.5');
    // the only rule that lets client → server in: the default group's "all from members"
    const rv = s.run(
      `aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol all --source-group ${sg}`,
    );
    expect(rv[0]!.exitCode).toBe(0);
    const recs = [...s.run('sleep 4'), ...s.close()];
    const rec = recs.find((r) => r.command.startsWith('iperf3'))!;
    const g = intervalGbps(rec);
    expect(g.length).toBe(4);
    for (const x of g.slice(2)) expect(x).toBeGreaterThan(9);
    expect(lab.instance('server')!.nitro.flowStats.vpcDeniedPackets).toBe(0);
    // a new connection is refused by the server's card now
    s.run('iperf3 -c server -t 1');
    expect(lab.instance('server')!.nitro.flowStats.vpcDeniedPackets).toBeGreaterThan(0);
    expect(lab.drops.total('server', 'sg_deny')).toBeGreaterThan(0);
  });

  it('revoking the rule of an untracked flow cuts it at once', () => {
    const lab = makeLab();
    const s = new LabSession(lab);
    const sg = sgId(lab);
    // all-open both ways (outbound all to 0.0.0.0/0 is the default): the flow is untracked
    s.run(`aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol all --cidr 0.0.0.0/0`);
    s.run(`aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol all --source-group ${sg}`);
    s.run('iperf3 -c server -t 4 &');
    s.run('sleep 1.5');
    expect(lab.instance('server')!.nitro.flows.conntrack.size).toBe(0); // untracked: no entry
    s.run(`aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol all --cidr 0.0.0.0/0`);
    const recs = [...s.run('sleep 4'), ...s.close()];
    const rec = recs.find((r) => r.command.startsWith('iperf3'))!;
    const g = intervalGbps(rec);
    expect(g[0]!).toBeGreaterThan(9);
    for (const x of g.slice(2)) expect(x).toBeLessThan(0.01);
    expect(lab.drops.total('server', 'sg_deny')).toBeGreaterThan(0);
  });
});

describe('NACL mutation mid-iperf3', () => {
  it('deleting the NACL rule stops a tracked flow at once (stateless), and lab trace names the `*` rule', () => {
    const lab = twoSubnetLab();
    const acl = lab.scenario.vpc.NetworkAcls[0]!.NetworkAclId;
    const s = new LabSession(lab);
    expect(sh(lab, 'client', 'lab trace client server tcp 5201').stdout).toMatch(
      /nacl-in\s+allow\s+rule 100 allow/,
    );
    s.run('iperf3 -c server -t 4 &');
    s.run('sleep 1.5');
    const del = s.run(`aws ec2 delete-network-acl-entry --network-acl-id ${acl} --rule-number 100 --ingress`);
    expect(del[0]!.exitCode).toBe(0);
    const recs = [...s.run('sleep 4'), ...s.close()];
    const g = intervalGbps(recs.find((r) => r.command.startsWith('iperf3'))!);
    expect(g[0]!).toBeGreaterThan(4);
    for (const x of g.slice(2)) expect(x).toBeLessThan(0.01);
    expect(lab.drops.total(undefined, 'nacl_deny')).toBeGreaterThan(0);
    const t = sh(lab, 'client', 'lab trace client server tcp 5201');
    expect(t.stdout).toContain('dropped at nacl-in: rule * deny');
  });
});

describe('conntrack allowance', () => {
  it('a small allowance with many connections raises conntrack_allowance_exceeded; available falls to 0', () => {
    const lab = makeLab({ conntrackAllowanceOverride: 4 });
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_available')).toBe(4);
    const s = new LabSession(lab, { maxCommandNs: 5e9 });
    s.run('iperf3 -c server -P 8 -t 1');
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_available')).toBe(0);
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_exceeded')).toBeGreaterThan(0);
    expect(lab.drops.total('client', 'conntrack_allowance_exceeded')).toBe(
      ethtoolCounter(lab, 'client', 'conntrack_allowance_exceeded'),
    );
  });

  it('untracked flows (all-open both ways) use no allowance', () => {
    const lab = makeLab({ conntrackAllowanceOverride: 4 });
    const s = new LabSession(lab, { maxCommandNs: 5e9 });
    const sg = sgId(lab);
    s.run(`aws ec2 authorize-security-group-ingress --group-id ${sg} --protocol all --cidr 0.0.0.0/0`);
    const r = s.run('iperf3 -c server -P 8 -t 1');
    expect(r[0]!.exitCode).toBe(0);
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_exceeded')).toBe(0);
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_available')).toBe(4);
  });
});

describe('conntrack idle timeout', () => {
  it('a UDP connection is forgotten 30 s after its last packet (AWS default), freeing the allowance', () => {
    const lab = makeLab({ conntrackAllowanceOverride: 10 });
    const s = new LabSession(lab);
    s.run('iperf3 -c server -u -b 10M -t 1');
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_available')).toBe(9);
    const show = sh(lab, 'client', 'lab nitro show');
    expect(show.stdout).toMatch(
      /udp 10\.0\.0\.10:\d+ ↔ 10\.0\.0\.11:5201\s+Established\s+tracked\s+[\d.]+ s of 30 s\n/,
    );
    s.run('sleep 25');
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_available')).toBe(9);
    s.run('sleep 6');
    expect(ethtoolCounter(lab, 'client', 'conntrack_allowance_available')).toBe(10);
    expect(sh(lab, 'client', 'lab nitro show').stdout).toContain('(no tracked connections)');
  });
});

describe('lab nitro show / lab trace (lab-only)', () => {
  it('lab nitro show prints mapping, conntrack and flow cache as the slides draw them', () => {
    const lab = makeLab();
    const fresh = sh(lab, 'client', 'lab nitro show');
    expect(fresh.stdout).toContain('not an AWS or Linux tool');
    expect(fresh.stdout).toMatch(/IGW\s+Unknown\n/);
    expect(fresh.stdout).toMatch(/\(server\)\s+Unknown\n/);
    expect(fresh.stdout).toContain('(no tracked connections)');
    new LabSession(lab).run('iperf3 -c server -t 1');
    const out = sh(lab, 'client', 'lab nitro show');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/\(server\)\s+IP-Address\n/);
    expect(out.stdout).toMatch(
      /tcp 10\.0\.0\.10:\d+ ↔ 10\.0\.0\.11:5201\s+Established\s+tracked\s+[\d.]+ s of 432000 s\n/,
    );
    expect(out.stdout).toMatch(/tcp 10\.0\.0\.10:\d+ → 10\.0\.0\.11:5201\s+egress\s+Complete/);
    expect(out.stdout).toMatch(/tcp 10\.0\.0\.11:5201 → 10\.0\.0\.10:\d+\s+ingress\s+Complete/);
    const res = out.result as { conntrack: unknown[]; flowCache: unknown[] };
    expect(res.conntrack.length).toBe(1);
    expect(res.flowCache.length).toBe(2);
    expect(sh(lab, 'client', 'lab nitro show nosuch').exitCode).toBe(1);
  });

  it('lab trace names the route, NACL rule and SG rule, or why the packet is dropped', () => {
    const lab = makeLab();
    const sg = sgId(lab);
    const ok = sh(lab, 'client', 'lab trace client server tcp 5201');
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/route\s+allow\s+10\.0\.0\.0\/16 → local/);
    expect(ok.stdout).toContain(`sg-in    allow   ${sg} inbound all from ${sg}`);
    const web = sh(lab, 'client', 'lab trace client 198.51.100.7 tcp 443');
    expect(web.stdout).toMatch(/route\s+allow\s+0\.0\.0\.0\/0 → igw-/);
    expect(web.stdout).toMatch(/nacl-out\s+allow\s+rule 100 allow/);
    sh(
      lab,
      'client',
      `aws ec2 revoke-security-group-ingress --group-id ${sg} --protocol all --source-group ${sg}`,
    );
    const denied = sh(lab, 'client', 'lab trace client server tcp 5201');
    expect(denied.exitCode).toBe(1);
    expect(denied.stdout).toContain('dropped at sg-in: no inbound rule allows it');
    const https = sh(lab, 'client', 'lab trace client server tcp 443');
    expect(https.stdout).toContain(`${sg} inbound tcp 443 from 0.0.0.0/0`);
    expect(sh(lab, 'client', 'lab').exitCode).toBe(2);
    expect(sh(lab, 'client', 'lab trace client server sctp').stderr).toContain('tcp, udp or icmp');
  });
});
