/**
 * Tunnels on the packet path (issue 3): GRE hashes on the outer 3-tuple (one flow, one RX queue,
 * one per-flow limit however many inner flows); VXLAN puts inner entropy in the outer UDP source
 * port (Linux udp_flow_src_port) and spreads over queues and per-flow limits up to the instance.
 */
import { describe, expect, it } from 'vitest';
import { tunnelDefaultMtu, tunnelOverheadBytes, udpFlowSrcPort } from '../../src/engine/host/tunnel';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import { parseScenario } from '../../src/scenario/schema';

function pair(): Lab {
  const r = parseScenario({
    version: 2,
    placement: 'same-az',
    instances: [
      { name: 'client', type: 'c7i.8xlarge' },
      { name: 'server', type: 'c7i.8xlarge' },
    ],
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

function sh(lab: Lab, host: string, line: string): void {
  const o = execLine(lab, lab.instance(host)!, line);
  if (o.kind !== 'done' || o.out.exitCode !== 0) throw new Error(`${line} failed`);
}

/** A tunnel of `type` between client (192.168.100.1) and server (192.168.100.2). */
function tunnel(lab: Lab, type: string): void {
  const a = lab.instance('client')!.host.ip;
  const b = lab.instance('server')!.host.ip;
  for (const [host, local, remote, inner] of [
    ['client', a, b, '192.168.100.1/24'],
    ['server', b, a, '192.168.100.2/24'],
  ] as const) {
    sh(lab, host, `ip link add tun0 type ${type} remote ${remote} local ${local}`);
    sh(lab, host, `ip addr add ${inner} dev tun0`);
    sh(lab, host, 'ip link set tun0 up');
  }
}

/** RX packets per queue on the server's eth0 (ethtool -S queue_N_rx_cnt). */
function rxQueues(lab: Lab): number[] {
  const o = execLine(lab, lab.instance('server')!, 'ethtool -S eth0');
  if (o.kind !== 'done') throw new Error('ethtool');
  return [...o.out.stdout.matchAll(/queue_(\d+)_rx_cnt: (\d+)/g)].map((m) => Number(m[2]));
}

function receivedGbps(r: RunRecord): number {
  return (
    (r.result as { end: { sum_received: { bits_per_second: number } } }).end.sum_received.bits_per_second /
    1e9
  );
}

describe('tunnel overheads and MTUs as Linux computes them', () => {
  it('gre 24 (+4 key), gretap +14, vxlan/geneve 50; vxlan without dev stays at 1500', () => {
    expect(tunnelOverheadBytes({ kind: 'gre', key: null })).toBe(24);
    expect(tunnelOverheadBytes({ kind: 'gre', key: 7 })).toBe(28);
    expect(tunnelOverheadBytes({ kind: 'gretap', key: null })).toBe(38);
    expect(tunnelOverheadBytes({ kind: 'vxlan', key: null })).toBe(50);
    expect(tunnelDefaultMtu({ kind: 'gre', key: null, dev: null }, 9001)).toBe(8977);
    expect(tunnelDefaultMtu({ kind: 'vxlan', key: null, dev: 'eth0' }, 9001)).toBe(8951);
    expect(tunnelDefaultMtu({ kind: 'vxlan', key: null, dev: null }, 9001)).toBe(1500);
    expect(tunnelDefaultMtu({ kind: 'geneve', key: null, dev: null }, 9001)).toBe(8951);
  });

  it('udp_flow_src_port stays in the range and depends on the inner hash', () => {
    const ports = new Set<number>();
    for (let h = 1; h < 2000; h += 97) {
      const p = udpFlowSrcPort(Math.imul(h, 2654435761), 32768, 60999);
      expect(p).toBeGreaterThanOrEqual(32768);
      expect(p).toBeLessThan(60999);
      ports.add(p);
    }
    expect(ports.size).toBeGreaterThan(15);
  });
});

describe('eight inner flows through a tunnel (c7i.8xlarge pair, one AZ, 5 Gbps per flow)', () => {
  it('GRE: one outer flow, one RX queue, one per-flow limit', () => {
    const lab = pair();
    tunnel(lab, 'gre');
    const r = new LabSession(lab).run('iperf3 -c 192.168.100.2 -t 1 -P 8')[0]!;
    expect(r.exitCode).toBe(0);
    const g = receivedGbps(r);
    expect(g).toBeGreaterThan(4);
    expect(g).toBeLessThan(5.05);
    const q = rxQueues(lab);
    expect(q.filter((n) => n > 0)).toHaveLength(1);
    // the path MTU through the tunnel: inner packets of 8977 bytes, 9001 outside
    expect((r.result as { start: { tcp_mss_default: number } }).start.tcp_mss_default).toBe(8977 - 52);
  });

  it('VXLAN: the outer source port spreads the inner flows over queues and per-flow limits up to the instance (12.5 Gbps)', () => {
    const lab = pair();
    tunnel(lab, 'vxlan id 42 dstport 4789 dev eth0');
    const r = new LabSession(lab).run('iperf3 -c 192.168.100.2 -t 1 -P 8')[0]!;
    expect(r.exitCode).toBe(0);
    const g = receivedGbps(r);
    expect(g).toBeGreaterThan(11);
    expect(g).toBeLessThan(12.55);
    expect(rxQueues(lab).filter((n) => n > 0).length).toBeGreaterThan(1);
  });

  it('without a tunnel on the peer the packets are dropped and iperf3 cannot connect', () => {
    const lab = pair();
    sh(lab, 'client', `ip link add tun0 type gre remote ${lab.instance('server')!.host.ip}`);
    sh(lab, 'client', 'ip addr add 192.168.100.1/24 dev tun0');
    sh(lab, 'client', 'ip link set tun0 up');
    const o = execLine(lab, lab.instance('client')!, 'iperf3 -c 192.168.100.2 -t 1');
    expect(o.kind).toBe('done');
    if (o.kind === 'done') expect(o.out.stderr).toContain('Connection timed out');
  });
});
