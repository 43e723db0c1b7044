/**
 * udp-echo, the lab's kernel-path UDP echo server modelled on STRESSGRID's (one SO_REUSEPORT socket
 * per thread and vCPU), on m5.metal (2.2 Mpps PPS allowance, 25 Gbit/s) with four c5n.18xlarge
 * senders running dpdk-testpmd txonly (one TX queue each: ≈ 1 Mpps of 100-byte datagrams).
 * STRESSGRID: as a sink (sar noport/s) ≈ 2.2 Mpps; echoing, idgm/s ≈ odgm/s ≈ 1.0–1.1 M at and
 * beyond saturation with idgmerr/s 0; 8 KB datagrams inbound ≈ 25 Gbit/s.
 */
import { describe, expect, it } from 'vitest';
import { runScript } from '../../src/engine/session/runner';
import { runLab } from '../golden/helpers';

const INSTANCES = [
  { name: 'server', type: 'm5.metal' },
  ...[1, 2, 3, 4].map((i) => ({ name: `sender${i}`, type: 'c5n.18xlarge' })),
];

interface SarUdp {
  idgm: number;
  odgm: number;
  noport: number;
  idgmerr: number;
}

/** `senders` txonly generators (one queue each, frames of `frame` bytes) into the server for 2 s. */
function run(senders: number, server: string[], frame = 142) {
  const { lab } = runLab({ placement: 'cluster', instances: INSTANCES }, []);
  const ip = (x: string) => lab.instance(x)!.host.ip;
  const script = server.map((l) => `server: ${l}`);
  for (let i = 1; i <= senders; i++)
    script.push(
      `sender${i}: timeout 2.5 dpdk-testpmd -l 0-1 -- --forward-mode=txonly --txq=1 --rxq=1 --nb-cores=1 ${frame > 2176 ? '--mbuf-size=9216 ' : ''}--txpkts=${frame} --txonly-multi-flow --tx-ip=${ip(`sender${i}`)},${ip('server')} --tx-udp=9,5000 &`,
    );
  // the second second, once the senders run at their pace
  script.push('sleep 0.5', 'server: sar -n UDP 1 2', 'server: ethtool -S eth0 | grep allowance');
  const runs = runScript(lab, script);
  const sar = runs.find((r) => r.command.startsWith('sar'))!.output;
  const last = sar
    .split('\n')
    .filter((l) => /^\d\d:\d\d:\d\d [AP]M\s+[\d.]+/.test(l))
    .at(-1)!
    .trim()
    .split(/\s+/)
    .slice(2)
    .map(Number);
  const udp: SarUdp = { idgm: last[0]!, odgm: last[1]!, noport: last[2]!, idgmerr: last[3]! };
  const eth = runs.find((r) => r.command.startsWith('ethtool'))!.output;
  const counter = (n: string) => Number(new RegExp(`${n}: (\\d+)`).exec(eth)?.[1] ?? Number.NaN);
  const echo = runs.find((r) => r.command.startsWith('udp-echo') && r.result);
  return { udp, counter, echo: echo?.result as { perThread: { received: number }[] } | undefined, sar };
}

describe('udp-echo on m5.metal (STRESSGRID)', () => {
  it('a sink takes ≈ 2.2 Mpps (noport/s) of 4 offered', () => {
    const r = run(4, []);
    expect(r.udp.noport).toBeGreaterThan(2.1e6);
    expect(r.udp.noport).toBeLessThan(2.35e6);
    expect(r.udp.idgm).toBe(0);
  }, 120_000);

  it('echoing: idgm/s ≈ odgm/s ≈ 1.0–1.1 M at and beyond saturation, all of it below', () => {
    const below = run(1, ['udp-echo &']); // ≈ 1 Mpps offered: in + out ≈ 2 Mpps, under 2.2
    expect(below.udp.idgm).toBeGreaterThan(0.95e6);
    expect(Math.abs(below.udp.odgm - below.udp.idgm) / below.udp.idgm).toBeLessThan(0.02);
    for (const senders of [2, 4]) {
      const r = run(senders, ['udp-echo &']);
      expect(r.udp.idgm, `${senders} senders`).toBeGreaterThan(1.0e6);
      expect(r.udp.idgm, `${senders} senders`).toBeLessThan(1.15e6);
      expect(Math.abs(r.udp.odgm - r.udp.idgm) / r.udp.idgm, `${senders} senders`).toBeLessThan(0.02);
      expect(r.udp.idgmerr, 'the server keeps up').toBe(0);
      expect(r.counter('pps_allowance_exceeded')).toBeGreaterThan(0);
      // SO_REUSEPORT hashes the 64 flows of each sender over the 96 threads: 128 flows fill
      // ≈ 96 (1 - e^(-128/96)) ≈ 71 threads, 256 flows ≈ 89
      const busy = r.echo!.perThread.filter((t) => t.received > 0).length;
      expect(busy, `${senders} senders`).toBeGreaterThan(senders === 2 ? 60 : 80);
    }
  }, 300_000);

  it('one thread is bound by its vCPU: recvfrom + sendto per datagram, the rest overflows its socket', () => {
    const r = run(1, ['udp-echo -t 1 &']);
    // ≈ 6.6 µs of CPU per 100-byte echo (≈ 150 k/s), on vCPU 0, which also runs RX queue 0's NAPI
    expect(r.udp.odgm).toBeGreaterThan(0.9e5);
    expect(r.udp.odgm).toBeLessThan(1.6e5);
    expect(Math.abs(r.udp.odgm - r.udp.idgm) / r.udp.idgm).toBeLessThan(0.02);
    expect(r.udp.idgmerr).toBeGreaterThan(5e5);
  }, 120_000);

  it('8 KB datagrams inbound reach ≈ 25 Gbit/s and bw_in_allowance_exceeded moves', () => {
    const r = run(1, [], 8234); // 8192 B of payload
    const gbps = (r.udp.noport * 8234 * 8) / 1e9;
    expect(gbps).toBeGreaterThan(23);
    expect(gbps).toBeLessThan(26);
    expect(r.counter('bw_in_allowance_exceeded')).toBeGreaterThan(0);
  }, 120_000);
});
