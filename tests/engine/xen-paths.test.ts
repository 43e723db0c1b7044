/**
 * Before Nitro (issue 15): the Xen PV path (netfront → dom0 netback), the Intel 82599 VF (ixgbevf)
 * and the first ENA on Xen, run as mechanisms. Seed SRIOV: a c3.8xlarge pair with and without
 * SR-IOV, UDP at 1–2.5 Gbps (PV loss rising past ~0.8 Gbps, SR-IOV minimal), TCP near 9.6 Gbps in
 * one subnet; what ethtool shows for each driver; the path view draws no Nitro card where there is none.
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { execLine } from '../../src/engine/shell/shell';
import type { CommandOutput } from '../../src/engine/shell/types';
import { PathRecorder } from '../../src/engine/view/path-recorder';
import { type Placement, parseScenario } from '../../src/scenario/schema';

function pair(
  type: string,
  enhancedNetworking: boolean | undefined,
  placement: Placement = 'same-az',
  params: Record<string, number> = {},
): Lab {
  const r = parseScenario({
    version: 4,
    placement,
    params,
    instances: [
      { name: 'client', type, ...(enhancedNetworking === undefined ? {} : { enhancedNetworking }) },
      { name: 'server', type, ...(enhancedNetworking === undefined ? {} : { enhancedNetworking }) },
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

interface Udp {
  lost: number;
  jitterMs: number;
  gbps: number;
  sentGbps: number;
}

/** iperf3 -J UDP result: at the receiver lost fraction, jitter (ms), received Gbps; what was sent. */
function udp(r: RunRecord): Udp {
  type Sum = { lost_percent: number; jitter_ms: number; bits_per_second: number };
  const end = (r.result as { end: { sum_received: Sum; sum_sent: Sum } }).end;
  const s = end.sum_received;
  return {
    lost: s.lost_percent / 100,
    jitterMs: s.jitter_ms,
    gbps: s.bits_per_second / 1e9,
    sentGbps: end.sum_sent.bits_per_second / 1e9,
  };
}

function udpRun(enhanced: boolean, rate: string): Udp {
  const lab = pair('c3.8xlarge', enhanced);
  const r = new LabSession(lab).run(`iperf3 -c server -u -b ${rate} -l 1470 -t 1 -J`)[0]!;
  return udp(r);
}

/** A c3.8xlarge pair with SR-IOV on the client only: the PV receiver's path alone. */
function toPvServer(params: Record<string, number> = {}): Lab {
  const r = parseScenario({
    version: 4,
    placement: 'same-az',
    params,
    instances: [
      { name: 'client', type: 'c3.8xlarge', enhancedNetworking: true },
      { name: 'server', type: 'c3.8xlarge', enhancedNetworking: false },
    ],
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

describe('seed SRIOV: c3.8xlarge with and without SR-IOV, UDP 1–2.5 Gbps', () => {
  const rates = ['0.5G', '1G', '1.5G', '2G', '2.5G'];
  const pv = rates.map((b) => udpRun(false, b));
  const en = rates.map((b) => udpRun(true, b));

  it('PV loses little below the backend knee and more with every step past ~0.8 Gbps', () => {
    expect(pv[0]!.lost).toBeLessThan(0.02);
    expect(pv[1]!.lost).toBeGreaterThan(0.1);
    for (let i = 2; i < rates.length; i++)
      expect(pv[i]!.lost, rates[i]).toBeGreaterThanOrEqual(pv[i - 1]!.lost);
    // the receiver gets what dom0 can copy into the guest, and less the more is offered: dom0's
    // softirq work for every arriving datagram, dropped or not, is taken from netback (receive
    // livelock). From 1.5G on the PV sender sends the same (see the TX poll below).
    expect(pv[1]!.gbps).toBeGreaterThan(0.65);
    expect(pv[1]!.gbps).toBeLessThan(0.85);
    expect(pv[2]!.gbps).toBeLessThan(pv[1]!.gbps - 0.05);
    for (let i = 3; i < rates.length; i++)
      expect(pv[i]!.sentGbps - pv[2]!.sentGbps, rates[i]).toBeLessThan(0.05);
  });

  it('receive livelock is the cause of the fall: without the softirq cost the receiver stays flat', () => {
    // an SR-IOV sender offers every rate in full to the PV receiver
    const got = (rate: string, params: Record<string, number> = {}) =>
      udp(new LabSession(toPvServer(params)).run(`iperf3 -c server -u -b ${rate} -l 1470 -t 1 -J`)[0]!).gbps;
    expect(got('2G')).toBeLessThan(got('1.5G') - 0.05);
    expect(got('2.5G')).toBeLessThan(got('2G') - 0.05);
    // past the knee (without the softirq cost dom0 copies about 90 kpps, 1.06 Gbps) either way
    const at15 = got('1.5G', { xenDom0RxPacketNs: 0 });
    const at25 = got('2.5G', { xenDom0RxPacketNs: 0 });
    expect(at15).toBeGreaterThan(1);
    expect(Math.abs(at25 - at15)).toBeLessThan(0.03);
  });

  it('SR-IOV delivers every rate with minimal loss', () => {
    for (const [i, r] of en.entries()) {
      expect(r.lost, rates[i]).toBeLessThan(0.001);
      expect(r.lost, rates[i]).toBeLessThan(pv[i]!.lost);
    }
    expect(en[4]!.gbps).toBeGreaterThan(2.4);
  });

  it('the backend is the cause: with a dom0 four times faster PV keeps up at 1 Gbps', () => {
    const lab = pair('c3.8xlarge', false, 'same-az', {
      xenNetbackRxPacketNs: 1_700,
      xenNetbackRxByteNs: 0.5,
      xenDom0RxPacketNs: 750,
      xenDom0PreemptNs: 0,
    });
    const r = udp(new LabSession(lab).run('iperf3 -c server -u -b 1G -l 1470 -t 1 -J')[0]!);
    expect(r.lost).toBeLessThan(0.001);
  });

  it('TCP in one subnet with SR-IOV at MTU 1500 reaches ≈ 9.6 Gbps (the 10 GbE port); PV about 3 (GSO through netfront)', () => {
    const lab = pair('c3.8xlarge', true);
    const s = new LabSession(lab);
    s.run('ip link set dev eth0 mtu 1500');
    s.run('server: ip link set dev eth0 mtu 1500');
    const r = s.run('iperf3 -c server -t 1 -P 2 -J')[0]!;
    const gbps = (r.result as { end: { sum_received: { bits_per_second: number } } }).end.sum_received
      .bits_per_second;
    expect(gbps / 1e9).toBeGreaterThan(9.2);
    expect(gbps / 1e9).toBeLessThan(10);
    const pvLab = pair('c3.8xlarge', false);
    const p = new LabSession(pvLab).run('iperf3 -c server -t 1 -P 2 -J')[0]!;
    const pvGbps =
      (p.result as { end: { sum_received: { bits_per_second: number } } }).end.sum_received.bits_per_second /
      1e9;
    // netfront hands netback 64 KB GSO skbs: netback's per-request cost is paid per 64 KB, not per
    // segment (at the per-datagram cost of the UDP knee, MTU-sized requests would cap it near 1 Gbps)
    expect(pvGbps).toBeGreaterThan(2.5);
    expect(pvGbps).toBeLessThan(3.5);
  });

  it('between two VPCs (public addresses, through both internet gateways) the same two flows stop at the IGW limit', () => {
    const lab = pair('c3.8xlarge', true, 'other-vpc');
    const s = new LabSession(lab);
    expect(lab.pathMtu()).toBe(1500);
    s.run('ip link set dev eth0 mtu 1500');
    s.run('server: ip link set dev eth0 mtu 1500');
    const r = s.run('iperf3 -c server -t 1 -P 2 -J')[0]!;
    const gbps =
      (r.result as { end: { sum_received: { bits_per_second: number } } }).end.sum_received.bits_per_second /
      1e9;
    // c3.8xlarge has 32 vCPUs: max(50 % of 10 Gbps, 5 Gbps) to an internet gateway, where one subnet
    // gave 9.5 (the seed: 3.6 between two VPCs, 9.6 in one subnet; what held it at 3.6 is not known)
    expect(gbps).toBeGreaterThan(4.5);
    expect(gbps).toBeLessThan(5);
    expect(lab.drops.total('client', 'igw_limit_exceeded')).toBeGreaterThan(0);
    // the path MTU is the gateway's: a jumbo ping does not get out
    expect(s.run('ping -c 1 -s 8000 -M do server')[0]!.stderr).toContain('mtu=1500');
  });
});

describe("dom0's queue for the guest (512 KiB, then the vif's 32 packets) and netback's TX poll (64 requests)", () => {
  it("below the knee the 512 KiB queue outlasts dom0's preemptions; the 32-packet qdisc alone does not", () => {
    const at05 = (params: Record<string, number>) =>
      udp(
        new LabSession(pair('c3.8xlarge', false, 'same-az', params)).run(
          'iperf3 -c server -u -b 0.5G -l 1470 -t 1 -J',
        )[0]!,
      ).lost;
    expect(at05({})).toBeLessThan(0.002);
    expect(at05({ xenNetbackRxQueueBytes: 1_514 })).toBeGreaterThan(0.005);
  });

  it('near the knee the deep queue is latency: a ping waits behind it both ways (one worker per vif)', () => {
    const rtt = (enhanced: boolean, params: Record<string, number> = {}) => {
      const s = new LabSession(pair('c3.8xlarge', enhanced, 'same-az', params));
      s.run('iperf3 -c server -u -b 0.9G -l 1470 -t 2 &');
      s.run('sleep 0.5');
      const out = s.run('ping -c 10 -i 0.1 server')[0]!.output;
      s.run('wait');
      const m = /rtt min\/avg\/max\/mdev = [\d.]+\/([\d.]+)\//.exec(out);
      if (!m) throw new Error(out);
      return Number(m[1]);
    };
    expect(rtt(false)).toBeGreaterThan(5);
    expect(rtt(true)).toBeLessThan(0.3);
    // with only the qdisc's 32 packets in dom0 the wait is a few times shorter
    expect(rtt(false, { xenNetbackRxQueueBytes: 1_514 })).toBeLessThan(3);
  });

  it("a PV sender is held by its socket's send buffer: netback frees the guest's TX slots at the end of each poll", () => {
    const sent = (params: Record<string, number>, opts = '') =>
      udp(
        new LabSession(pair('c3.8xlarge', false, 'same-az', params)).run(
          `iperf3 -c server -u -b 2G -l 1470 -t 1 ${opts} -J`,
        )[0]!,
      ).sentGbps;
    // wmem_default (212,992 bytes) holds about 90 datagrams: little more than one poll of 64
    const polled = sent({});
    expect(polled).toBeLessThan(1.6);
    // one request at a time, or a larger send buffer: the backend's own cost is the bound (≈ 1.86)
    expect(sent({ xenNetbackTxBatch: 1, xenNetbackTxBatchNs: 0 })).toBeGreaterThan(1.75);
    expect(sent({}, '-w 2M')).toBeGreaterThan(1.75);
  });
});

describe('jitter: dom0 wake-ups on the PV path, the 82599 VF throttle on SR-IOV', () => {
  const jitter = (enhanced: boolean, rate: string, params: Record<string, number> = {}, server = '') => {
    const s = new LabSession(pair('c3.8xlarge', enhanced, 'same-az', params));
    if (server) s.run(`server: ${server}`);
    return udp(s.run(`iperf3 -c server -u -b ${rate} -l 1470 -t 1 -J`)[0]!).jitterMs;
  };

  it('at 0.1 Gbps dom0 sleeps between datagrams: each wake-up differs, PV jitters where SR-IOV does not', () => {
    const pvJ = jitter(false, '0.1G');
    const srJ = jitter(true, '0.1G');
    // a lone datagram after a quiet spell interrupts the VF at once (EITR is an interval since the
    // last interrupt): every datagram takes the same time through the SR-IOV path
    expect(srJ).toBeLessThan(0.002);
    expect(pvJ).toBeGreaterThan(0.005);
    // the cause is dom0's: a wake-up of fixed length and no preemptions leave no jitter either
    expect(jitter(false, '0.1G', { xenDom0WakeSpreadNs: 0, xenDom0PreemptNs: 0 })).toBeLessThan(0.002);
    // a larger spread of the wake-up, more jitter
    expect(jitter(false, '0.1G', { xenDom0WakeSpreadNs: 50_000, xenDom0PreemptNs: 0 })).toBeGreaterThan(
      jitter(false, '0.1G', { xenDom0PreemptNs: 0 }),
    );
  });

  it("past the knee PV jitters more than SR-IOV: behind dom0's deep queue the qdisc's runs of 32 and netback's copies of 64 do not coincide", () => {
    const j2 = (enhanced: boolean, seed: number, params: Record<string, number> = {}) => {
      const r = parseScenario({
        version: 4,
        seed,
        placement: 'same-az',
        params,
        instances: [
          { name: 'client', type: 'c3.8xlarge', enhancedNetworking: enhanced },
          { name: 'server', type: 'c3.8xlarge', enhancedNetworking: enhanced },
        ],
      });
      if (!r.ok) throw new Error(r.errors.join('\n'));
      return udp(new LabSession(createLab(r.scenario)).run('iperf3 -c server -u -b 2G -l 1470 -t 2 -J')[0]!)
        .jitterMs;
    };
    for (const seed of [1, 2, 3]) {
      const pv = j2(false, seed);
      expect(pv, `seed ${seed}`).toBeGreaterThan(2 * j2(true, seed));
      // with only the qdisc's 32 packets a copy takes the whole queue, one admitted run: the jitter goes
      expect(j2(false, seed, { xenNetbackRxQueueBytes: 1_514 }), `seed ${seed}`).toBeLessThan(pv / 2);
      // and with a qdisc as long as a copy batch the runs and the copies coincide again
      expect(j2(false, seed, { xenNetbackRxQueuePackets: 64 }), `seed ${seed}`).toBeLessThan(pv / 2);
    }
  });

  it("ixgbevf's dynamic ITR batches what arrives within its interval; rx-usecs 0 turns it off", () => {
    // 0.5 Gbps is 62 bytes/µs: the bulk class, an 84 µs interval, 3-4 datagrams per interrupt
    const dynamic = jitter(true, '0.5G');
    expect(dynamic).toBeGreaterThan(0.015);
    expect(jitter(true, '0.5G', {}, 'ethtool -C eth0 rx-usecs 0')).toBeLessThan(0.002);
    const c = sh(pair('c3.8xlarge', true), 'client', 'ethtool -c eth0').stdout;
    expect(c).toContain('Adaptive RX: n/a  TX: n/a\n');
    expect(c).toContain('rx-usecs:\t1\n');
    expect(c).toContain('tx-usecs:\t0\n');
  });
});

describe('what ethtool shows for each driver', () => {
  it('ethtool -i: vif (PV), ixgbevf (c3 with SR-IOV), ena (r4 on Xen, c5 on Nitro)', () => {
    const drv = (lab: Lab) => /^driver: (.*)$/m.exec(sh(lab, 'client', 'ethtool -i eth0').stdout)?.[1];
    expect(drv(pair('c3.8xlarge', false))).toBe('vif');
    expect(drv(pair('c3.8xlarge', true))).toBe('ixgbevf');
    expect(drv(pair('c4.8xlarge', undefined))).toBe('ixgbevf');
    expect(drv(pair('t2.large', undefined))).toBe('vif');
    expect(drv(pair('r4.16xlarge', undefined))).toBe('ena');
    expect(drv(pair('c5.large', undefined))).toBe('ena');
    const pv = sh(pair('c3.8xlarge', false), 'client', 'ethtool -i eth0').stdout;
    expect(pv).toContain('bus-info: vif-0\n');
    const vf = sh(pair('c3.8xlarge', true), 'client', 'ethtool -i eth0').stdout;
    expect(vf).toContain('version: 4.1.0-k\n');
    expect(vf).toContain('supports-register-dump: yes\n');
  });

  it('ethtool -S: netfront has one counter, ixgbevf its own list and no allowance counters', () => {
    expect(sh(pair('c3.8xlarge', false), 'client', 'ethtool -S eth0').stdout).toBe(
      'NIC statistics:\n     rx_gso_checksum_fixup: 0\n',
    );
    const vf = sh(pair('c3.8xlarge', true), 'client', 'ethtool -S eth0').stdout;
    expect(vf).toMatch(/^NIC statistics:\n {5}rx_packets: 0\n {5}tx_packets: 0\n/);
    expect(vf).toContain('tx_queue_1_packets');
    expect(vf).not.toContain('tx_queue_2_packets');
    expect(vf).not.toContain('allowance');
    // the first ENA on Xen: ENA's counters, without the Nitro card's allowances
    const xenEna = sh(pair('r4.large', undefined), 'client', 'ethtool -S eth0').stdout;
    expect(xenEna).toContain('queue_0_tx_cnt');
    expect(xenEna).not.toContain('bw_out_allowance_exceeded');
    expect(sh(pair('c5.large', undefined), 'client', 'ethtool -S eth0').stdout).toContain(
      'bw_out_allowance_exceeded',
    );
  });

  it('what a driver lacks, the kernel refuses; ixgbevf clamps ring sizes as its driver does', () => {
    const pv = pair('c3.8xlarge', false);
    const g = sh(pv, 'client', 'ethtool -g eth0');
    expect(g.exitCode).toBe(1);
    expect(g.stderr).toBe('netlink error: Operation not supported\n');
    expect(sh(pv, 'client', 'ethtool -n eth0').stderr).toContain(
      'Cannot get RX rings: Operation not supported',
    );
    const vf = pair('c3.8xlarge', true);
    expect(sh(vf, 'client', 'ethtool -l eth0').stderr).toBe('netlink error: Operation not supported\n');
    expect(sh(vf, 'client', 'ethtool -g eth0').stdout).toMatch(/Pre-set maximums:\nRX:\t\t\t4096\n/);
    expect(sh(vf, 'client', 'ethtool -g eth0').stdout).toMatch(/Current hardware settings:\nRX:\t\t\t512\n/);
    // the kernel refuses more than the maximum; below it ixgbevf_set_ringparam aligns up to 8
    expect(sh(vf, 'client', 'ethtool -G eth0 rx 9999').stderr).toContain(
      'requested ring size exceeds maximum',
    );
    expect(sh(vf, 'client', 'ethtool -G eth0 rx 100').exitCode).toBe(0);
    expect(sh(vf, 'client', 'ethtool -g eth0').stdout).toMatch(/Current hardware settings:\nRX:\t\t\t104\n/);
  });
});

describe('the path view draws what is there', () => {
  const layoutOf = (lab: Lab) => new PathRecorder(lab).layout();

  it('PV: dom0 netback instead of a Nitro card; SR-IOV on c3: the host VPC layer; C4: the Nitro v1 card', () => {
    const pv = layoutOf(pair('c3.8xlarge', false)).instances[0]!;
    expect(pv.path).toBe('xen-pv');
    expect(pv.driver).toBe('vif');
    expect(pv.hostLayerLabel).not.toMatch(/Nitro/);
    const egress = pv.stages.find((s) => s.name === 'nitro_egress')!;
    expect(egress.label).toBe('dom0 netback · egress');
    expect(egress.parts.map((p) => p.id)).toContain('netback');
    expect(pv.stages.every((s) => !/Nitro/.test(s.label))).toBe(true);
    const vf = layoutOf(pair('c3.8xlarge', true)).instances[0]!;
    expect(vf.hostLayerLabel).toBe('Intel 82599 VF · host VPC layer');
    expect(vf.stages.every((s) => !/Nitro/.test(s.label))).toBe(true);
    expect(vf.queues).toBe(2);
    expect(layoutOf(pair('c4.8xlarge', undefined)).instances[0]!.hostLayerLabel).toMatch(/Nitro v1/);
    // the stage inspector names the stage as the picture does, and says how netback works
    const ing = new PathRecorder(pair('c3.8xlarge', false)).inspectStage(1, 'nitro_ingress', 0)!;
    expect(ing.label).toBe('dom0 netback · ingress');
    const how = ing.mechanism!.join(' ');
    expect(how).toContain('receive livelock');
    expect(how).toContain('Wake-up');
    expect(how).toContain('512 KiB');
    expect(ing.params.map((p) => p.name)).toEqual(
      expect.arrayContaining(['xenDom0RxPacketNs', 'xenDom0WakeNs', 'xenNetbackRxQueueBytes']),
    );
    expect(ing.state.map((x) => x.name)).toContain('dropped in dom0');
    const egr = new PathRecorder(pair('c3.8xlarge', false)).inspectStage(0, 'nitro_egress', 0)!;
    expect(egr.mechanism!.join(' ')).toMatch(/Wake-up.*Each poll takes up to 64 requests/);
    // nothing of the kind on the SR-IOV or Nitro paths
    expect(
      new PathRecorder(pair('c3.8xlarge', true)).inspectStage(1, 'nitro_ingress', 0)!.mechanism,
    ).toBeUndefined();
    expect(
      new PathRecorder(pair('c7i.large', undefined)).inspectStage(1, 'nitro_ingress', 0)!.mechanism,
    ).toBeUndefined();
    const nitro = layoutOf(pair('c7i.large', undefined)).instances[0]!;
    expect(nitro.hostLayerLabel).toBe('Nitro card');
    expect(nitro.stages.find((s) => s.name === 'nitro_egress')!.label).toBe('Nitro card · egress');
  });
});

describe('the scenario chooses enhanced networking as a launch would', () => {
  const parse = (type: string, enhancedNetworking: boolean) =>
    parseScenario({ version: 4, instances: [{ name: 'a', type, enhancedNetworking }] });

  it('refuses turning ENA off on Nitro and turning it on where the type has none', () => {
    const nitro = parse('c5.large', false);
    expect(nitro.ok).toBe(false);
    if (!nitro.ok)
      expect(nitro.errors).toContain(
        "instances[0].enhancedNetworking: Enhanced networking with the Elastic Network Adapter (ENA) is required for the 'c5.large' instance type",
      );
    const t2 = parse('t2.large', true);
    expect(t2.ok).toBe(false);
    expect(parse('c3.8xlarge', false).ok).toBe(true);
  });

  it('defaults to on where the type offers it', () => {
    const r = parseScenario({
      version: 4,
      instances: [
        { name: 'a', type: 'c3.large' },
        { name: 'b', type: 't2.large' },
      ],
    });
    expect(r.ok && r.scenario.instances.map((i) => i.enhancedNetworking)).toEqual([true, false]);
  });
});
