/**
 * The instance-type catalog: internal consistency of every spec, provenance discipline, and spot
 * checks against docs/domain-facts.md §4 (API values) and the seed measurements (§7).
 */
import { describe, expect, it } from 'vitest';
import { ENA_EXPRESS_MTU_BYTES, enaExpressListed } from '../../src/catalog/ena-express';
import { assumed, documented, type Figure, isFigure, measured } from '../../src/catalog/figure';
import {
  effectiveQueueCount,
  getInstanceType,
  INSTANCE_TYPES,
  type InstanceTypeSpec,
  listInstanceTypes,
  suggestInstanceType,
} from '../../src/catalog/instance-types';
import { netflix18Cell, profiledSpec } from '../../src/catalog/profile-2018';
import { driverOf, enhancedNetworkingOptional, IXGBEVF, NETFRONT, networkPath } from '../../src/catalog/xen';
import {
  CONNTRACK_TIMEOUT_BOUNDS_SECONDS,
  EGRESS_FRAGMENT_PPS_PER_ENI,
  INTERNET_GATEWAY_RULE,
  internetGatewayBandwidthGbps,
  LINK_LOCAL_PPS_PER_ENI,
  MTU_BYTES,
  PER_FLOW_LIMIT_GBPS,
} from '../../src/catalog/vpc-limits';

function spec(name: string): InstanceTypeSpec {
  const s = getInstanceType(name);
  if (s === undefined) throw new Error(`missing ${name}`);
  return s;
}

/** Every Figure reachable from a value, with its path. */
function figuresIn(value: unknown, path: string): Array<{ path: string; figure: Figure<unknown> }> {
  if (isFigure(value)) return [{ path, figure: value }];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => figuresIn(v, `${path}.${k}`));
}

/** docs/domain-facts.md §4, columns: vCPU, max ENIs, API queues, effective queues, baseline, peak, perf, Nitro, ENA Express. */
const SECTION_4: ReadonlyArray<
  [string, number, number, number, number, number, number, string, number, boolean]
> = [
  ['c7i.large', 2, 3, 2, 2, 0.781, 12.5, 'Up to 12.5 Gigabit', 4, false],
  ['c7i.xlarge', 4, 4, 4, 4, 1.562, 12.5, 'Up to 12.5 Gigabit', 4, false],
  ['c7i.8xlarge', 32, 8, 8, 8, 12.5, 12.5, '12.5 Gigabit', 4, false],
  ['c5.large', 2, 3, 8, 2, 0.75, 10, 'Up to 10 Gigabit', 2, false],
  ['c5n.large', 2, 3, 8, 2, 3, 25, 'Up to 25 Gigabit', 3, false],
  ['c5n.4xlarge', 16, 8, 32, 16, 15, 25, 'Up to 25 Gigabit', 3, false],
  // §4 writes "50 Gigabit (EFA)"/"100 Gigabit (EFA)" from the AWS-CO table; the API string has no suffix.
  ['c5n.9xlarge', 36, 8, 32, 32, 50, 50, '50 Gigabit', 3, false],
  ['c5n.18xlarge', 72, 15, 32, 32, 100, 100, '100 Gigabit', 3, false],
  ['m5.large', 2, 3, 8, 2, 0.75, 10, 'Up to 10 Gigabit', 2, false],
  ['m5.24xlarge', 96, 15, 8, 8, 25, 25, '25 Gigabit', 2, false],
  ['m5.metal', 96, 15, 8, 8, 25, 25, '25 Gigabit', 2, false],
  ['c6i.8xlarge', 32, 8, 8, 8, 12.5, 12.5, '12.5 Gigabit', 4, true],
  ['c6in.32xlarge', 128, 16, 32, 32, 200, 200, '200 Gigabit', 4, true],
  ['c7gn.16xlarge', 64, 15, 32, 32, 200, 200, '200 Gigabit', 5, true],
  ['c8g.8xlarge', 32, 8, 8, 8, 15, 15, '15 Gigabit', 5, true],
];

describe('figure constructors', () => {
  it('tag provenance and keep the note only when given', () => {
    const d = documented(5, 'AWS-BW');
    expect(d).toEqual({ value: 5, provenance: 'documented', source: 'AWS-BW' });
    expect('note' in d).toBe(false);
    expect(measured(2.2e6, 'STRESSGRID', 'in+out').provenance).toBe('measured');
    expect(assumed(1, 'X', 'rule').note).toBe('rule');
    expect(Object.isFrozen(d)).toBe(true);
  });

  it('refuse an empty source and an assumed figure without a rule', () => {
    expect(() => documented(1, ' ')).toThrow(/empty source/);
    expect(() => assumed(1, 'X', '')).toThrow(/note/);
  });
});

describe('every spec is internally consistent', () => {
  const all = listInstanceTypes();

  it('contains every row of docs/domain-facts.md §4 and the requested neighbours', () => {
    const names = new Set(all.map((s) => s.name));
    for (const [name] of SECTION_4) expect(names.has(name), name).toBe(true);
    for (const n of [
      'c7i.2xlarge',
      'c7i.4xlarge',
      'c7i.12xlarge',
      'c7i.16xlarge',
      'c7i.24xlarge',
      'c7i.48xlarge',
      'c6i.large',
      'c6i.xlarge',
      'm7i.large',
      'c5.xlarge',
      'c5.2xlarge',
      'c5.4xlarge',
      'c5.9xlarge',
      'c5.18xlarge',
      'm5.xlarge',
    ]) {
      expect(names.has(n), n).toBe(true);
    }
    expect(INSTANCE_TYPES.size).toBe(all.length);
  });

  it.each(all.map((s) => [s.name, s] as const))(
    '%s: names, bandwidth, burst, queues, rings, features',
    (name, s) => {
      expect(`${s.family}.${s.size}`).toBe(name);
      expect(s.baselineBandwidthGbps.value).toBeGreaterThan(0);
      expect(s.baselineBandwidthGbps.value).toBeLessThanOrEqual(s.peakBandwidthGbps.value);

      // "Up to" strings are exactly the burstable Nitro types. A Xen type was sold with a label
      // ("Moderate", "High", "10 Gigabit") before AWS published baseline and peak figures for it.
      const burstable = s.baselineBandwidthGbps.value < s.peakBandwidthGbps.value;
      if (s.hypervisor.value === 'nitro')
        expect(s.networkPerformance.value.startsWith('Up to '), s.networkPerformance.value).toBe(burstable);
      if (burstable) {
        expect(s.burstCreditSeconds).not.toBeNull();
        expect(s.burstCreditSeconds?.value).toBeGreaterThanOrEqual(5 * 60);
        expect(s.burstCreditSeconds?.value).toBeLessThanOrEqual(60 * 60);
        expect(s.burstCreditSeconds?.provenance).toBe('assumed');
      } else {
        expect(s.burstCreditSeconds).toBeNull();
      }

      const q = effectiveQueueCount(s);
      expect(q).toBe(Math.min(s.vcpus.value, s.defaultEnaQueuesPerEni.value));
      expect(q).toBeGreaterThanOrEqual(1);
      expect(s.maxEnaQueuesPerEni.value).toBeGreaterThanOrEqual(s.defaultEnaQueuesPerEni.value);
      if (!s.flexibleEnaQueues.value && s.name !== 'c6i.metal') {
        expect(s.maxEnaQueuesPerEni.value).toBe(s.defaultEnaQueuesPerEni.value);
      }

      const nitro = s.nitroGeneration.value;
      expect(s.txRingDefault.value === 512).toBe(nitro >= 4);
      if (nitro < 4) expect(s.txRingDefault.value).toBe(1024);
      expect(s.txRingMax.value).toBe(1024);
      expect(s.txRingDefault.value).toBeLessThanOrEqual(s.txRingMax.value);
      expect(s.rxRingDefault.value).toBe(1024);
      expect(s.rxRingMax.value).toBe(16_384);

      if (s.enaExpressSupported.value) expect(nitro).toBeGreaterThanOrEqual(4);
      expect(s.ntupleSupported.value).toBe(nitro >= 5);
      expect(s.rssKeyConfigurable.value).toBe(nitro >= 4 || (nitro === 3 && s.family.endsWith('n')));

      expect(s.conntrackTimeouts.tcpEstablishedSeconds.value).toBe(nitro >= 6 ? 350 : 432_000);
      expect(s.conntrackTimeouts.udpStreamSeconds.value).toBe(180);
      expect(s.conntrackTimeouts.udpSeconds.value).toBe(30);
      expect(s.conntrackAllowanceMax.value).toBeGreaterThan(0);
      expect(s.ppsAllowance.value).toBeGreaterThan(0);
      expect(s.networkCards.value).toBeGreaterThanOrEqual(1);
      expect(s.maxEnis.value).toBeGreaterThanOrEqual(2);
    },
  );

  it('every figure has a provenance and a non-empty source; every assumed figure has a note', () => {
    let count = 0;
    for (const s of all) {
      const figures = figuresIn(s, s.name);
      // 21 top-level figures, burst when burstable, the in + out PPS budget where it is measured
      // apart (c5n.4xlarge), 3 conntrack timeouts: nothing left untagged.
      expect(figures.length, s.name).toBe(
        24 + (s.burstCreditSeconds === null ? 0 : 1) + (s.ppsBidirectional === null ? 0 : 1),
      );
      for (const { path, figure } of figures) {
        count++;
        expect(['documented', 'measured', 'assumed'], path).toContain(figure.provenance);
        expect(figure.source.trim().length, path).toBeGreaterThan(0);
        if (figure.provenance === 'assumed') expect(figure.note?.trim().length ?? 0, path).toBeGreaterThan(0);
      }
    }
    expect(count).toBeGreaterThan(all.length * 20);
  });

  it('the catalog is frozen plain data', () => {
    const s = spec('c7i.large');
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.ppsAllowance)).toBe(true);
  });
});

describe('docs/domain-facts.md §4 spot checks', () => {
  it.each(SECTION_4)('%s', (name, vcpus, enis, apiQueues, effQueues, base, peak, perf, nitro, enaX) => {
    const s = spec(name);
    expect(s.vcpus.value).toBe(vcpus);
    expect(s.vcpus).toMatchObject({ provenance: 'documented', source: 'MOTO' });
    expect(s.maxEnis.value).toBe(enis);
    expect(s.defaultEnaQueuesPerEni.value).toBe(apiQueues);
    expect(effectiveQueueCount(s)).toBe(effQueues);
    expect(s.baselineBandwidthGbps.value).toBe(base);
    expect(s.peakBandwidthGbps.value).toBe(peak);
    expect(s.networkPerformance.value).toBe(perf);
    expect(s.nitroGeneration.value).toBe(nitro);
    expect(s.enaExpressSupported.value).toBe(enaX);
  });

  it('c6i.8xlarge has flexible queues: 8 per ENI by default, up to 32 (AWS-QUEUES)', () => {
    const s = spec('c6i.8xlarge');
    expect(s.flexibleEnaQueues.value).toBe(true);
    expect(s.maxEnaQueuesPerEni.value).toBe(32);
  });

  it('c6in.32xlarge spreads over two network cards', () => {
    const s = spec('c6in.32xlarge');
    expect(s.networkCards.value).toBe(2);
    expect(s.peakBandwidthGbps.note).toMatch(/170/);
  });

  it('c7i.12xlarge is the smallest c7i with ENA Express', () => {
    const c7i = listInstanceTypes().filter((s) => s.family === 'c7i' && s.enaExpressSupported.value);
    expect(Math.min(...c7i.map((s) => s.vcpus.value))).toBe(48);
    expect(spec('c7i.12xlarge').enaExpressSupported.value).toBe(true);
  });

  it('c8g.8xlarge ENA Express records the source conflict', () => {
    expect(spec('c8g.8xlarge').enaExpressSupported.note).toMatch(/CONFLICT/);
  });

  it('c5n (Nitro v3 "n") allows a host RSS key, c5 and m5 do not', () => {
    expect(spec('c5n.large').rssKeyConfigurable.value).toBe(true);
    expect(spec('c5.large').rssKeyConfigurable.value).toBe(false);
    expect(spec('m5.24xlarge').rssKeyConfigurable.value).toBe(false);
  });
});

describe('the Xen generation (seeds NETFLIX18 and SRIOV)', () => {
  it('has every family of the 2018 table and the SR-IOV seed, on Xen', () => {
    for (const f of ['t2', 'i2', 'i3', 'r3', 'r4', 'm4', 'c4', 'd2', 'x1', 'x1e', 'c3']) {
      const types = listInstanceTypes().filter((s) => s.family === f);
      expect(types.length, f).toBeGreaterThan(0);
      for (const s of types) expect([s.name, s.hypervisor.value]).toEqual([s.name, 'xen']);
    }
    for (const s of listInstanceTypes().filter((x) => ['c5', 'm5', 'c7i'].includes(x.family)))
      expect(s.hypervisor.value).toBe('nitro');
  });

  it('names the enhanced-networking interface as AWS-SRIOV and MOTO do', () => {
    const en = (n: string) => spec(n).enhancedNetworking.value;
    for (const n of ['c3.8xlarge', 'c4.8xlarge', 'd2.8xlarge', 'i2.8xlarge', 'm4.10xlarge', 'r3.8xlarge'])
      expect(en(n), n).toBe('sriov');
    for (const n of ['m4.16xlarge', 'r4.large', 'i3.16xlarge', 'x1.32xlarge', 'x1e.xlarge', 'c5.large'])
      expect(en(n), n).toBe('ena');
    expect(en('t2.large')).toBe('none');
    expect(enhancedNetworkingOptional(spec('c3.8xlarge'))).toBe(true);
    expect(enhancedNetworkingOptional(spec('c5.large'))).toBe(false);
    expect(enhancedNetworkingOptional(spec('t2.large'))).toBe(false);
  });

  it('maps type and setting to a path and a driver', () => {
    expect(networkPath(spec('c3.8xlarge'), true)).toBe('xen-sriov');
    expect(networkPath(spec('c3.8xlarge'), false)).toBe('xen-pv');
    expect(networkPath(spec('r4.16xlarge'), true)).toBe('xen-ena');
    expect(networkPath(spec('t2.large'), true)).toBe('xen-pv');
    expect(networkPath(spec('c7i.large'), false)).toBe('nitro');
    expect(driverOf('xen-sriov')).toBe('ixgbevf');
    expect(driverOf('xen-pv')).toBe('vif');
    expect(driverOf('xen-ena')).toBe('ena');
  });

  it("keeps the published labels and MOTO figures, and C4 as the talk's Nitro v1", () => {
    const c3 = spec('c3.8xlarge');
    expect([c3.vcpus.value, c3.networkPerformance.value]).toEqual([32, '10 Gigabit']);
    expect(spec('c4.large').networkPerformance.value).toBe('Moderate');
    expect(spec('c4.8xlarge').nitroGeneration.value).toBe(1);
    expect(spec('c3.8xlarge').nitroGeneration.value).toBe(0);
    expect(spec('r4.large').networkPerformance.value).toBe('Up to 10 Gigabit');
    expect(spec('x1.32xlarge').peakBandwidthGbps.value).toBe(25);
    expect(spec('t2.large').defaultEnaQueuesPerEni.value).toBe(1);
  });

  it('driver limits read in the ixgbevf and netfront sources', () => {
    expect(IXGBEVF.maxRssQueues.value).toBe(2);
    expect([IXGBEVF.txRingDefault.value, IXGBEVF.rxRingDefault.value, IXGBEVF.ringMax.value]).toEqual([
      1024, 512, 4096,
    ]);
    expect(NETFRONT.ringSlots.value).toBe(256);
    expect(NETFRONT.queues.provenance).toBe('assumed');
    expect(NETFRONT.dom0VifQueueLength.value).toBe(32);
  });
});

describe('the aws-2018 profile (NETFLIX18 table)', () => {
  it('replaces bandwidth with the measured cell, keeps everything else, and leaves other types alone', () => {
    const c5 = profiledSpec(spec('c5.large'), 'aws-2018');
    expect([c5.peakBandwidthGbps.value, c5.baselineBandwidthGbps.value]).toEqual([6, 0.7]);
    expect(c5.peakBandwidthGbps).toMatchObject({ provenance: 'measured', source: 'NETFLIX18' });
    expect(c5.peakBandwidthGbps.note).toMatch(/6 Gbps burst \/ 700 Mbps baseline/);
    expect(c5.vcpus).toBe(spec('c5.large').vcpus);
    const c4 = profiledSpec(spec('c4.8xlarge'), 'aws-2018');
    expect([c4.peakBandwidthGbps.value, c4.baselineBandwidthGbps.value, c4.burstCreditSeconds]).toEqual([
      9.4,
      9.4,
      null,
    ]);
    expect(profiledSpec(spec('c7i.large'), 'aws-2018')).toBe(spec('c7i.large'));
    expect(profiledSpec(spec('c5.large'), 'current')).toBe(spec('c5.large'));
    expect(profiledSpec(spec('c5.large'), undefined)).toBe(spec('c5.large'));
    expect(netflix18Cell('x1e.xlarge')).toEqual({ burstGbps: 6, baselineGbps: 0.6, jumbo: false });
    expect(netflix18Cell('m5.24xlarge')).toEqual({ burstGbps: 16, baselineGbps: 16, jumbo: true });
    expect(netflix18Cell('m5.8xlarge')).toBeUndefined();
  });
});

describe('PPS allowance', () => {
  it('uses the seed measurements where a seed measured the type', () => {
    expect(spec('c5n.18xlarge').ppsAllowance).toMatchObject({
      value: 8_500_000,
      provenance: 'measured',
      source: 'TOONK',
    });
    expect(spec('c5n.9xlarge').ppsAllowance).toMatchObject({
      value: 6_200_000,
      provenance: 'measured',
      source: 'TOONK',
    });
    expect(spec('c5n.4xlarge').ppsAllowance).toMatchObject({
      value: 3_000_000,
      provenance: 'measured',
      source: 'TOONK',
    });
    expect(spec('m5.24xlarge').ppsAllowance).toMatchObject({
      value: 2_200_000,
      provenance: 'measured',
      source: 'STRESSGRID',
    });
    expect(spec('m5.metal').ppsAllowance).toMatchObject({
      value: 2_200_000,
      provenance: 'measured',
      source: 'STRESSGRID',
    });
  });

  it('c7i.large is measured: derived from the NET402 MSS-128 test, with the derivation in its note', () => {
    const f = spec('c7i.large').ppsAllowance;
    expect(f.value).toBe(1_000_000);
    expect(f.provenance).toBe('measured');
    expect(f.source).toBe('REINVENT');
    expect(f.note).toMatch(/^Derived from NET402's MSS-128 test/);
  });

  it('every other type is assumed, scaled by peak bandwidth from its generation anchor', () => {
    const seeded = new Set([
      'c5n.18xlarge',
      'c5n.9xlarge',
      'c5n.4xlarge',
      'm5.24xlarge',
      'm5.metal',
      'c7i.large',
    ]);
    for (const s of listInstanceTypes()) {
      if (seeded.has(s.name)) continue;
      expect(s.ppsAllowance.provenance, s.name).toBe('assumed');
      expect(s.ppsAllowance.note, s.name).toMatch(/Rule: scale the nearest anchor/);
    }
    // Same Nitro v4 anchor: 1 Mpps at 12.5 Gbps.
    expect(spec('c7i.xlarge').ppsAllowance.value).toBe(1_000_000);
    expect(spec('c7i.12xlarge').ppsAllowance.value).toBe(1_500_000);
    expect(spec('c6in.32xlarge').ppsAllowance.value).toBe(16_000_000);
    // Nitro v2 anchor m5.24xlarge: 2.2 Mpps at 25 Gbps.
    expect(spec('c5.large').ppsAllowance.value).toBe(880_000);
    expect(spec('m5.16xlarge').ppsAllowance.value).toBe(1_760_000);
    // Nitro v5 borrows the v4 anchor and says so.
    expect(spec('c8g.8xlarge').ppsAllowance.value).toBe(1_200_000);
    expect(spec('c8g.8xlarge').ppsAllowance.note).toMatch(/No Nitro v5 measurement/);
    // Nearest anchor by bandwidth: c5n.metal (100G) follows c5n.18xlarge.
    expect(spec('c5n.metal').ppsAllowance.value).toBe(8_500_000);
  });
});

describe('burst credits and conntrack (assumed rules)', () => {
  it('follow the Vassallo measurements: large ≈ 7, xlarge ≈ 13, 2xlarge ≈ 26 min', () => {
    expect(spec('c5.large').burstCreditSeconds?.value).toBe(390);
    expect(spec('c5.xlarge').burstCreditSeconds?.value).toBe(13 * 60);
    expect(spec('c5.2xlarge').burstCreditSeconds?.value).toBe(26 * 60);
    expect(spec('c7i.8xlarge').burstCreditSeconds).toBeNull();
  });

  it('conntrack maximum: 136812 for 2 vCPUs, linear in vCPUs', () => {
    expect(spec('c7i.large').conntrackAllowanceMax).toMatchObject({ value: 136_812, provenance: 'assumed' });
    expect(spec('c7i.8xlarge').conntrackAllowanceMax.value).toBe(136_812 * 16);
  });
});

describe('suggestInstanceType', () => {
  it('proposes the closest known names, best first', () => {
    expect(suggestInstanceType('c7i.larg')[0]).toBe('c7i.large');
    expect(suggestInstanceType('C5N.LARGE')[0]).toBe('c5n.large');
    expect(suggestInstanceType('c5n.18xlarg')).toContain('c5n.18xlarge');
    expect(suggestInstanceType('m5.24xlarge')[0]).toBe('m5.24xlarge');
  });

  it('falls back to the family, then to nothing', () => {
    const fam = suggestInstanceType('c7gn.huge-and-unknown');
    expect(fam).toEqual(['c7gn.12xlarge', 'c7gn.16xlarge']);
    expect(suggestInstanceType('zzz')).toEqual([]);
    expect(suggestInstanceType('')).toEqual([]);
    expect(getInstanceType('c7i.larg')).toBeUndefined();
  });
});

describe('VPC limits', () => {
  it('per-flow limits: 5 / 10 / 25 Gbps', () => {
    expect(PER_FLOW_LIMIT_GBPS.outsideClusterPlacementGroup.value).toBe(5);
    expect(PER_FLOW_LIMIT_GBPS.insideClusterPlacementGroup.value).toBe(10);
    expect(PER_FLOW_LIMIT_GBPS.enaExpress.value).toBe(25);
  });

  it('internet gateway: ≥ 32 vCPU → max(50%, 5 Gbps), else 5 Gbps, never above the instance', () => {
    expect(INTERNET_GATEWAY_RULE.provenance).toBe('documented');
    // AWS-BW example: m5.16xlarge, 64 vCPU, 20 Gbps → 10 Gbps through an IGW.
    const m5 = spec('m5.16xlarge');
    expect(internetGatewayBandwidthGbps(m5.vcpus.value, m5.peakBandwidthGbps.value)).toBe(10);
    expect(internetGatewayBandwidthGbps(32, 10)).toBe(5);
    expect(internetGatewayBandwidthGbps(72, 100)).toBe(50);
    expect(internetGatewayBandwidthGbps(2, 12.5)).toBe(5);
    expect(internetGatewayBandwidthGbps(31, 50)).toBe(5);
    expect(internetGatewayBandwidthGbps(2, 0.781)).toBe(0.781);
  });

  it('MTU, link-local and fragment rates, conntrack timeout bounds', () => {
    expect(MTU_BYTES.withinVpc.value).toBe(9001);
    expect(MTU_BYTES.viaInternetGateway.value).toBe(1500);
    expect(LINK_LOCAL_PPS_PER_ENI.value).toBe(1024);
    expect(EGRESS_FRAGMENT_PPS_PER_ENI.value).toBe(1024);
    expect(CONNTRACK_TIMEOUT_BOUNDS_SECONDS.tcpEstablished.value).toEqual({ min: 60, max: 432_000 });
    expect(CONNTRACK_TIMEOUT_BOUNDS_SECONDS.udpStream.value).toEqual({ min: 60, max: 180 });
    expect(CONNTRACK_TIMEOUT_BOUNDS_SECONDS.udp.value).toEqual({ min: 30, max: 60 });
  });

  it('default conntrack timeouts of every type lie within the configurable bounds', () => {
    const b = CONNTRACK_TIMEOUT_BOUNDS_SECONDS;
    for (const s of listInstanceTypes()) {
      const t = s.conntrackTimeouts;
      expect(t.tcpEstablishedSeconds.value).toBeGreaterThanOrEqual(b.tcpEstablished.value.min);
      expect(t.tcpEstablishedSeconds.value).toBeLessThanOrEqual(b.tcpEstablished.value.max);
      expect(t.udpStreamSeconds.value).toBeLessThanOrEqual(b.udpStream.value.max);
      expect(t.udpSeconds.value).toBeGreaterThanOrEqual(b.udp.value.min);
    }
  });
});

describe('ENA Express list (AWS-ENAX) against the per-type API flag', () => {
  it('every catalogued type is supported exactly when AWS-ENAX lists it', () => {
    for (const s of listInstanceTypes())
      expect([s.name, s.enaExpressSupported.value]).toEqual([s.name, enaExpressListed(s.name)]);
    expect(enaExpressListed('c7i.8xlarge')).toBe(false);
    expect(enaExpressListed('c7i.12xlarge')).toBe(true);
    expect(enaExpressListed('c6in.metal')).toBe(true);
    expect(enaExpressListed('c5n.18xlarge')).toBe(false);
    expect(ENA_EXPRESS_MTU_BYTES.value).toBe(8900);
  });
});
