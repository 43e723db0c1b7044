/**
 * `EnaDevice.receiveAt` (the fabric's last leg without an event per batch) must leave the RX path
 * exactly as one arrival event per batch would: same NAPI deliveries at the same instants, same
 * ring overruns, same DIM intervals, same counters.
 */
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/engine/core/scheduler';
import { Vcpu } from '../../src/engine/host/cpu';
import { EnaDevice } from '../../src/engine/host/ena-device';
import { DropCounters } from '../../src/engine/model/drop-reasons';
import type { Packet } from '../../src/engine/model/packet';
import { resolveParams } from '../../src/engine/model/params';

const FABRIC_NS = 12_000;

function device(sched: Scheduler, rxRing: number) {
  const params = { ...resolveParams({}) };
  const vcpus = [new Vcpu(0, sched), new Vcpu(1, sched)];
  const dev = new EnaDevice(
    sched,
    {
      hostName: 'server',
      name: 'eth0',
      ifindex: 2,
      mac: '02:00:00:00:00:01',
      mtu: 9001,
      maxMtu: 9001,
      queues: 2,
      maxQueues: 2,
      txRing: 1024,
      txRingMax: 1024,
      rxRing: rxRing,
      rxRingMax: 16384,
      rssKeyConfigurable: false,
      ntupleSupported: false,
      ntupleCapacity: 8,
      rssKey: new Uint8Array(40),
      nitroGeneration: 5,
    },
    params,
    vcpus,
    new DropCounters(),
    (t) => t.srcPort, // queue = source port mod 2 (indir[i] = i mod 2)
  );
  dev.wire();
  const log: string[] = [];
  dev.onRx = (d, vcpu) => log.push(`${sched.now} cpu${vcpu.index} segs=${d.segs} skbs=${d.skbs}`);
  return { dev, log };
}

function packet(flowId: number, srcPort: number, count: number, seq: number): Packet {
  return {
    flow: {
      id: flowId,
      tuple: { srcIp: '10.0.0.10', dstIp: '10.0.0.11', proto: 'tcp', srcPort, dstPort: 5201 },
      skbHash: flowId,
      socketId: flowId,
    },
    count,
    sizeBytes: 9001,
    payloadBytes: 8949,
    seq,
    ack: 0,
    flags: 2,
    sack: null,
    window: 0,
    tos: 0,
    sentAtNs: 0,
    enqueuedAtNs: 0,
    txq: -1,
    mark: 0,
  };
}

/** The same arrivals: a burst pattern over two flows (two queues), with gaps that let NAPI finish and rearm. */
function arrivals(): Array<{ atNs: number; flowId: number; port: number; count: number }> {
  const out = [];
  let t = 1_000;
  let x = 7;
  for (let i = 0; i < 3000; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31; // a fixed LCG: irregular but reproducible spacing
    t += 1 + (x % (i % 50 < 40 ? 40_000 : 400_000));
    const flow = (x >> 8) & 1;
    out.push({ atNs: t, flowId: flow + 1, port: 40_000 + flow, count: 1 + ((x >> 10) % 64) });
  }
  return out;
}

function run(mode: 'event' | 'landing', rxRing: number) {
  const sched = new Scheduler();
  const { dev, log } = device(sched, rxRing);
  const seqs = [0, 0, 0];
  const deliver = (arg: unknown) => dev.receive(arg as Packet);
  for (const a of arrivals()) {
    const p = packet(a.flowId, a.port, a.count, seqs[a.flowId]!);
    seqs[a.flowId]! += a.count * 8949;
    // the sender's card releases the batch FABRIC_NS before it reaches this device
    sched.at(a.atNs, () => {
      if (mode === 'event') sched.after(FABRIC_NS, deliver, p);
      else dev.receiveAt(p, sched.now + FABRIC_NS);
    });
  }
  sched.runUntil(Number.POSITIVE_INFINITY);
  return { log, stats: dev.statistics(), dim: dev.dimUsecs(), occupancy: dev.occupancy() };
}

describe('ENA receiveAt (fabric landing without an event per batch)', () => {
  for (const rxRing of [1024, 256]) {
    it(`gives the same NAPI deliveries, instants and counters as one event per arrival (ring ${rxRing})`, () => {
      const ev = run('event', rxRing);
      const la = run('landing', rxRing);
      expect(ev.log.length).toBeGreaterThan(1000);
      expect(la.log).toEqual(ev.log);
      expect(la.stats).toEqual(ev.stats);
      expect(la.dim).toEqual(ev.dim);
      expect(la.occupancy).toEqual(ev.occupancy);
    });
  }

  it('the small ring overruns (the comparison covers the drop path)', () => {
    const la = run('landing', 256);
    const overruns = la.stats.find(([k]) => k === 'rx_overruns')?.[1] ?? 0;
    expect(overruns).toBeGreaterThan(0);
  });
});

describe('ENA landing packets wait at the RX ring’s tail', () => {
  it('a batch arriving now lands before batches still landing later', () => {
    const sched = new Scheduler();
    const { dev, log } = device(sched, 1024);
    // two flows of queue 0 (even source ports), so GRO keeps them apart
    sched.at(1_000, () => {
      dev.receiveAt(packet(1, 40_000, 5, 0), 1_000 + FABRIC_NS);
      dev.receive(packet(2, 40_002, 3, 0));
    });
    sched.runUntil(Number.POSITIVE_INFINITY);
    expect(log.map((l) => l.split(' ').slice(2).join(' '))).toEqual(['segs=3 skbs=1', 'segs=5 skbs=1']);
  });

  it('a landing batch that finds the ring full leaves it, the ones behind it land in order', () => {
    const sched = new Scheduler();
    const { dev, log } = device(sched, 8);
    sched.at(1_000, () => {
      dev.receiveAt(packet(1, 40_000, 8, 0), 2_000);
      dev.receiveAt(packet(2, 40_002, 4, 0), 3_000); // the ring is full: 4 overruns
      dev.receiveAt(packet(3, 40_004, 2, 0), 1_000_000); // lands after NAPI freed the ring
    });
    sched.runUntil(Number.POSITIVE_INFINITY);
    expect(log.map((l) => l.split(' ').slice(2).join(' '))).toEqual(['segs=8 skbs=2', 'segs=2 skbs=1']);
    expect(dev.statistics().find(([k]) => k === 'rx_overruns')?.[1]).toBe(4);
  });
});
