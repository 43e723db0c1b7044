/**
 * Issue 3's proofs with HTTP traffic: every new connection pays the Nitro card's flow setup (curl,
 * ab), a kept-alive connection does not (ab -k); with tracked flows, ab -c 100 fills a small
 * conntrack allowance and conntrack_allowance_exceeded rises; all-open rules both ways make the
 * flows untracked and the counter stops.
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import { MODEL_PARAMS } from '../../src/engine/model/params';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import { defaultScenario, type Scenario } from '../../src/scenario/schema';

function makeLab(params: Record<string, number> = {}): Lab {
  const s: Scenario = { ...defaultScenario(), params };
  return createLab(s);
}

function counter(lab: Lab, host: string, name: string): number {
  const o = execLine(lab, lab.instance(host)!, 'ethtool -S eth0');
  if (o.kind !== 'done') throw new Error('ethtool must finish at once');
  const m = new RegExp(`^\\s+${name}: (\\d+)$`, 'm').exec(o.out.stdout);
  if (!m) throw new Error(`${name} not in ethtool -S`);
  return Number(m[1]);
}

const stats = (lab: Lab, host: string) => ({ ...lab.instance(host)!.nitro.flowStats });

function runAll(s: LabSession, line: string): RunRecord {
  return s.run(line)[0]!;
}

describe('flow setup per connection, seen from curl and ab', () => {
  it('curl: the first packet of each new connection takes the processing path, the rest are accelerated', () => {
    const lab = makeLab();
    const s = new LabSession(lab);
    expect(runAll(s, 'curl -s -o /dev/null http://server/1M').exitCode).toBe(0);
    const c1 = stats(lab, 'client');
    const s1 = stats(lab, 'server');
    // SYN on the client's egress, SYN on the server's ingress: one setup each; replies hit the cache
    expect(c1.slowPathPackets).toBe(1);
    expect(s1.slowPathPackets).toBe(1);
    expect(c1.acceleratedPackets).toBeGreaterThan(10);
    expect(s1.acceleratedPackets).toBeGreaterThan(10);
    // lab nitro show says the same; lab trace shows the decision the first packet got
    const show = runAll(s, 'lab nitro show client').output;
    expect(show).toMatch(/tcp 10\.0\.0\.10:\d+ ↔ 10\.0\.0\.11:80 +Established +tracked/);
    expect(show).toContain('packets: 1 on the processing path');
    const trace = runAll(s, 'lab trace client server tcp 80').output;
    expect(trace).toContain('first packet: processing path; later packets: accelerated flow');
    // a second curl is a new connection (new source port): flow setup again on both cards
    runAll(s, 'curl -s -o /dev/null http://server/1M');
    expect(stats(lab, 'client').slowPathPackets).toBe(2);
    expect(stats(lab, 'server').slowPathPackets).toBe(2);
    expect(stats(lab, 'client').flowSetups).toBe(2);
  });

  it('ab without -k sets up a flow per request; with -k one per connection', () => {
    const lab = makeLab();
    const s = new LabSession(lab);
    expect(runAll(s, 'ab -n 40 -c 4 http://server/').exitCode).toBe(0);
    expect(stats(lab, 'client').flowSetups).toBe(40);
    const before = stats(lab, 'client').flowSetups;
    const r = runAll(s, 'ab -n 40 -c 4 -k http://server/');
    expect(r.output).toContain('Keep-Alive requests:    36\n');
    expect(stats(lab, 'client').flowSetups - before).toBe(4);
  });
});

describe('conntrack allowance under ab -c 100', () => {
  it('tracked flows fill a small allowance; all-open rules both ways make them untracked and the counter stops', () => {
    const lab = makeLab({ conntrackAllowanceOverride: 64 });
    const s = new LabSession(lab);
    expect(counter(lab, 'client', 'conntrack_allowance_available')).toBe(64);
    const r1 = runAll(s, 'ab -n 400 -c 100 -s 2 http://server/');
    // the table filled: new connections' SYNs are dropped, ab gives up after -s 2 without progress;
    // the first 64 connections closed (FIN both ways) but their entries linger past ab's 2 s
    expect(counter(lab, 'client', 'conntrack_allowance_available')).toBe(0);
    expect(runAll(s, 'lab nitro show client').output).toMatch(/:80 +Closed +tracked/);
    const exceeded = counter(lab, 'client', 'conntrack_allowance_exceeded');
    expect(exceeded).toBeGreaterThan(36); // 100 − 64 first SYNs at least, plus retransmissions
    expect(r1.exitCode).toBe(70007 & 255);
    expect(r1.stderr).toContain('apr_pollset_poll: The timeout specified has expired (70007)\n');
    expect(r1.output).toMatch(/Total of \d+ requests completed\n/);
    // a closed connection's entry goes conntrackClosedLingerNs after its last packet: all 64 come back
    // (ab exited: the connections it was still opening are gone, nothing retries their SYNs)
    runAll(s, `sleep ${MODEL_PARAMS.conntrackClosedLingerNs.value / 1e9}`);
    expect(counter(lab, 'client', 'conntrack_allowance_available')).toBe(64);
    expect(counter(lab, 'client', 'conntrack_allowance_exceeded')).toBe(exceeded);

    const sg = lab.scenario.vpc.SecurityGroups[0]!.GroupId;
    const auth = runAll(
      s,
      `aws ec2 authorize-security-group-ingress --group-id ${sg} --ip-permissions IpProtocol=-1,IpRanges=[{CidrIp=0.0.0.0/0}]`,
    );
    expect(auth.exitCode).toBe(0);
    const r2 = runAll(s, 'ab -n 400 -c 100 -s 2 http://server/');
    expect(r2.exitCode).toBe(0);
    expect(r2.output).toContain('Complete requests:      400\n');
    // untracked: no entries taken, no new drops
    expect(counter(lab, 'client', 'conntrack_allowance_exceeded')).toBe(exceeded);
    expect(runAll(s, 'lab nitro show client').output).toMatch(/untracked/);
  });
});
