/**
 * `ip` for tunnels: `ip link add … type gre|gretap|vxlan|geneve`, `ip addr add`, `ip link set up`,
 * `ip [-d] link show`, with iproute2's syntax, output and error messages; refused input changes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import type { CommandOutput } from '../../src/engine/shell/types';
import { defaultScenario } from '../../src/scenario/schema';

function sh(lab: Lab, line: string): CommandOutput {
  const o = execLine(lab, lab.instance('client')!, line);
  if (o.kind !== 'done') throw new Error('ip must finish at once');
  return o.out;
}

describe('ip link add … type gre, ip addr add, ip link set up, ip link show', () => {
  it('a GRE tunnel is listed with its MTU (9001 − 24), link/gre line and -d details', () => {
    const lab = createLab(defaultScenario());
    expect(sh(lab, 'ip link add gre1 type gre remote 10.0.0.11 local 10.0.0.10 key 42')).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    expect(sh(lab, 'ip addr add 192.168.100.1/24 dev gre1').exitCode).toBe(0);
    expect(sh(lab, 'ip link show gre1').stdout).toBe(
      '3: gre1@NONE: <POINTOPOINT,NOARP> mtu 8973 qdisc noqueue state DOWN mode DEFAULT group default qlen 1000\n' +
        '    link/gre 10.0.0.10 peer 10.0.0.11\n',
    );
    expect(sh(lab, 'ip link set gre1 up').exitCode).toBe(0);
    const d = sh(lab, 'ip -d link show gre1').stdout;
    expect(d.split('\n')[0]).toContain(
      '<POINTOPOINT,NOARP,UP,LOWER_UP> mtu 8973 qdisc noqueue state UNKNOWN',
    );
    expect(d).toContain('    gre remote 10.0.0.11 local 10.0.0.10 ttl inherit ikey 0.0.0.42 okey 0.0.0.42 ');
    expect(sh(lab, 'ip link show').stdout).toContain('3: gre1@NONE:');
  });

  it('vxlan: VNI required, the dstport warning, MTU 9001 − 50 with dev eth0', () => {
    const lab = createLab(defaultScenario());
    expect(sh(lab, 'ip link add vx type vxlan remote 10.0.0.11')).toMatchObject({
      exitCode: 1,
      stderr: 'vxlan: missing virtual network identifier\n',
    });
    const w = sh(lab, 'ip link add vx type vxlan id 7 remote 10.0.0.11 dev eth0');
    expect(w.exitCode).toBe(0);
    expect(w.stderr).toContain(
      'vxlan: destination port not specified\nWill use Linux kernel default (non-standard value)\n',
    );
    expect(sh(lab, 'ip -d link show vx').stdout).toContain(
      'vxlan id 7 remote 10.0.0.11 dev eth0 srcport 0 0 dstport 8472 ',
    );
    expect(sh(lab, 'ip link show vx').stdout).toContain('mtu 8951');
  });

  it('bad input is refused with iproute2 messages and creates nothing', () => {
    const lab = createLab(defaultScenario());
    expect(sh(lab, 'ip link add g type geneve id 5')).toMatchObject({
      exitCode: 1,
      stderr: 'geneve: remote link partner not specified\n',
    });
    expect(sh(lab, 'ip link add g type geneve remote 10.0.0.11')).toMatchObject({
      exitCode: 1,
      stderr: 'geneve: missing virtual network identifier\n',
    });
    expect(sh(lab, 'ip link add v type vxlan id 1 dstport 4789 remote 10.0.0.11 dev eth9')).toMatchObject({
      exitCode: 255,
      stderr: 'Cannot find device "eth9"\n',
    });
    expect(sh(lab, 'ip link add eth0 type gre remote 10.0.0.11')).toMatchObject({
      exitCode: 2,
      stderr: 'RTNETLINK answers: File exists\n',
    });
    expect(sh(lab, 'ip link add gre1 type gre local 10.0.0.10').exitCode).toBe(1); // no remote: NBMA, not simulated
    expect(sh(lab, 'ip link set nope up')).toMatchObject({
      exitCode: 1,
      stderr: 'Cannot find device "nope"\n',
    });
    expect(sh(lab, 'ip addr add 192.168.1.1/24 dev nope')).toMatchObject({
      exitCode: 1,
      stderr: 'Cannot find device "nope"\n',
    });
    expect(sh(lab, 'ip link show nope')).toMatchObject({
      exitCode: 1,
      stderr: 'Device "nope" does not exist.\n',
    });
    expect(lab.instance('client')!.host.tunnels?.devices ?? []).toHaveLength(0);
  });
});
