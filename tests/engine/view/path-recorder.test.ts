/**
 * The path recorder against a synthetic probe driver: calls the sink exactly as the stages do
 * (enter, leave with the serving vCPU, drops from inside a queue and on arrival, split batches),
 * then against a real run of the lab once the stages report.
 */
import { describe, expect, it } from 'vitest';
import type { ProbeStage } from '../../../src/engine/model/probe';
import type { Lab } from '../../../src/engine/lab/lab';
import type { Packet } from '../../../src/engine/model/packet';
import { createLab, LabSession } from '../../../src/engine/session/runner';
import { PathRecorder } from '../../../src/engine/view/path-recorder';
import { PASSAGE_DROPPED, PASSAGE_INSIDE, PASSAGE_LEFT } from '../../../src/engine/view/path-types';
import { parseScenario } from '../../../src/scenario/schema';

function makeLab(extra: Record<string, unknown> = {}): Lab {
  const s = parseScenario({ version: 1, ...extra });
  if (!s.ok) throw new Error(s.errors.join());
  return createLab(s.scenario);
}

/** A batch of the lab's client → server flow. */
function batch(lab: Lab, count: number, seq: number, flowId = 0): Packet {
  const c = lab.instance('client')!;
  const sv = lab.instance('server')!;
  const flow = flowCache.get(lab)?.[flowId] ?? lab.makeFlow(c, lab.tuple(c, sv, 'udp', 40000 + flowId, 5201));
  const list = flowCache.get(lab) ?? [];
  list[flowId] = flow;
  flowCache.set(lab, list);
  return {
    flow,
    count,
    sizeBytes: 8976,
    payloadBytes: 8948,
    seq,
    ack: 0,
    flags: 0,
    sack: null,
    window: 0,
    tos: 0,
    sentAtNs: 0,
    enqueuedAtNs: 0,
    txq: 0,
    mark: 0,
  };
}
const flowCache = new WeakMap<Lab, ReturnType<Lab['makeFlow']>[]>();

/** The probe as the stages call it. */
function driver(lab: Lab) {
  return {
    enter: (t: number, host: number, stage: ProbeStage, q: number, p: Packet) =>
      lab.probe.sink?.enter(t, host, stage, q, p),
    leave: (t: number, host: number, stage: ProbeStage, q: number, p: Packet, cpu = -1) =>
      lab.probe.sink?.leave(t, host, stage, q, p, cpu),
    drop: (t: number, host: number, stage: ProbeStage, q: number, p: Packet, n: number, queued: boolean) =>
      lab.probe.sink?.drop(t, host, stage, q, p, n, 'rx_ring_full', queued),
  };
}

describe('PathRecorder (synthetic probe)', () => {
  it('lays out every instance with one lane per ENA queue and the Nitro shapers', () => {
    const lab = makeLab({
      instances: [
        { name: 'client', type: 'c5n.18xlarge' },
        { name: 'server', type: 'c7i.large' },
      ],
    });
    const rec = new PathRecorder(lab);
    const lay = rec.layout();
    expect(lay.instances.map((i) => i.name)).toEqual(['client', 'server']);
    const client = lay.instances[0]!;
    const tx = client.stages.find((s) => s.name === 'tx_ring')!;
    expect(tx.lanes.length).toBe(lab.instance('client')!.host.eth0.queueCount);
    expect(tx.lanes.length).toBe(32);
    expect(tx.lanes[3]!.capacityPackets).toBe(lab.instance('client')!.host.eth0.rings().tx);
    const server = lay.instances[1]!;
    expect(server.stages.find((s) => s.name === 'rx_ring')!.lanes.length).toBe(2);
    const eg = client.stages.find((s) => s.name === 'nitro_egress')!;
    expect(eg.parts.map((p) => p.id)).toEqual(['flow-lookup', 'conntrack', 'flow-limit', 'bw-out', 'pps']);
    expect(lay.stages[eg.code]).toBe('nitro_egress');
    expect(lay.dropReasons[0]).toBe('');
    expect(lay.placementLabel).toBe('cluster placement group');
  });

  it('matches leaves to enters per flow, splitting batches, and reports occupancy and its peak', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    const d = driver(lab);
    const a = batch(lab, 10, 0);
    d.enter(1000, 0, 'tx_ring', 1, a);
    d.enter(1500, 0, 'tx_ring', 1, batch(lab, 5, 10));
    // the device takes 4 of the first batch, then the remaining 6 and the second batch together
    d.leave(2000, 0, 'tx_ring', 1, batch(lab, 4, 0), 1);
    let f = rec.frame(0, 2500);
    expect(f.n).toBe(3); // one passage of 4 done, two batches still inside
    const done = [...Array(f.n).keys()].filter((i) => f.fate[i] === PASSAGE_LEFT);
    expect(done.length).toBe(1);
    expect(f.enterNs[done[0]!]).toBe(1000);
    expect(f.exitNs[done[0]!]).toBe(2000);
    expect(f.count[done[0]!]).toBe(4);
    expect(f.cpu[done[0]!]).toBe(1);
    const inside = [...Array(f.n).keys()].filter((i) => f.fate[i] === PASSAGE_INSIDE);
    expect(inside.map((i) => f.count[i]).sort()).toEqual([5, 6]);
    const lane = [...Array(f.lanes).keys()].find((i) => f.laneStage[i] === 2 && f.laneQueue[i] === 1)!;
    expect(f.laneOccupancy[lane]).toBe(11);
    expect(f.lanePeak[lane]).toBe(15);
    d.leave(3000, 0, 'tx_ring', 1, batch(lab, 11, 4), 1);
    f = rec.frame(2500, 3500, f);
    expect(f.laneOccupancy[lane]).toBe(0);
    expect(f.lanePeak[lane]).toBe(11); // occupancy at the window start, then it drains
    const left = [...Array(f.n).keys()].filter((i) => f.exitNs[i] === 3000);
    // the 6 left of the first batch keep its enter time; the second batch its own
    expect(left.map((i) => [f.enterNs[i], f.count[i]])).toEqual([
      [1000, 6],
      [1500, 5],
    ]);
    // an earlier window still shows the peak of 15 at t = 1500
    expect(rec.frame(1200, 1800).lanePeak[lane]).toBe(15);
  });

  it('numbers a tunnelled TCP batch in bytes, as its inner flow does, when a stage splits it', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    const d = driver(lab);
    const c = lab.instance('client')!;
    const sv = lab.instance('server')!;
    // a TCP segment batch inside GRE: the wire (outer) flow is a 3-tuple, the numbering the inner's
    const inner = lab.makeFlow(c, lab.tuple(c, sv, 'tcp', 40000, 5201));
    const outer = lab.makeFlow(c, {
      srcIp: c.host.ip,
      dstIp: sv.host.ip,
      proto: 'gre',
      srcPort: 0,
      dstPort: 0,
    });
    const seg = (count: number, seq: number): Packet => ({
      ...batch(lab, count, seq),
      flow: outer,
      inner,
      sizeBytes: 1500,
      payloadBytes: 1424,
    });
    d.enter(1000, 0, 'nitro_egress', 0, seg(10, 0));
    d.leave(2000, 0, 'nitro_egress', 0, seg(4, 0));
    d.leave(3000, 0, 'nitro_egress', 0, seg(6, 4 * 1424));
    const f = rec.frame(0, 3500);
    const rows = [...Array(f.n).keys()].map((i) => [f.count[i], f.seq[i]]);
    // the 6 packets after the first 4 start 4 × 1424 bytes on, not 4 (the outer gre flow has no bytes of its own)
    expect(rows).toEqual([
      [4, 0],
      [6, 4 * 1424],
    ]);
    // and the inspector finds the later part by its byte sequence number
    const insp = rec.inspectPacket({ flow: outer.id, seq: 5 * 1424 })!;
    expect(insp.visits.map((v) => [v.stage, v.exitNs])).toEqual([['nitro_egress', 3000]]);
  });

  it('records drops from inside a queue and on arrival, with their reason, in frames and passages', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    const d = driver(lab);
    d.enter(100, 1, 'rx_ring', 0, batch(lab, 8, 0));
    d.drop(200, 1, 'rx_ring', 0, batch(lab, 8, 0), 3, true); // 3 die from inside
    d.drop(300, 1, 'rx_ring', 0, batch(lab, 2, 8), 2, false); // 2 refused on arrival
    const f = rec.frame(0, 400);
    const lay = rec.layout();
    expect(f.drops).toBe(2);
    expect(f.dropTotal).toBe(5);
    expect(lay.dropReasons[f.dropReason[0]!]).toBe('rx_ring_full');
    expect(lay.stages[f.dropStage[0]!]).toBe('rx_ring');
    expect(f.dropHost[0]).toBe(1);
    const dropped = [...Array(f.n).keys()].filter((i) => f.fate[i] === PASSAGE_DROPPED);
    expect(dropped.map((i) => [f.enterNs[i], f.exitNs[i], f.count[i]])).toEqual([
      [100, 200, 3],
      [300, 300, 2],
    ]);
    const lane = [...Array(f.lanes).keys()].find((i) => f.laneHost[i] === 1)!;
    expect(f.laneOccupancy[lane]).toBe(5); // 8 entered, 3 died inside; the refused 2 never counted
    expect(f.laneDrops[lane]).toBe(5);
    const st = rec.inspectStage(1, 'rx_ring', 0)!;
    expect(st.droppedPackets).toBe(5);
    expect(st.dropsByReason).toEqual([{ reason: 'rx_ring_full', packets: 5 }]);
    expect(st.params.find((p) => p.name === 'napiBudget')).toMatchObject({ provenance: 'documented' });
  });

  it('samples evenly past the budget and says so, with the real totals and per-lane density', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    const d = driver(lab);
    for (let i = 0; i < 20_000; i++) {
      const p = batch(lab, 2, i * 2);
      d.enter(i * 10, 0, 'qdisc', 0, p);
      d.leave(i * 10 + 5, 0, 'qdisc', 0, p);
    }
    const f = rec.frame(0, 200_000, undefined, 5000);
    expect(f.sampled).toBe(true);
    expect(f.stride).toBe(4);
    expect(f.n).toBe(5000);
    expect(f.totalPassages).toBe(20_000);
    expect(f.totalPackets).toBe(40_000);
    expect(f.laneDensity[0]).toBe(40_000);
    // evenly spread: first and last carried passages span the window
    expect(f.enterNs[0]).toBe(0);
    expect(f.enterNs[f.n - 1]).toBeGreaterThan(190_000);
    const small = rec.frame(100_000, 100_100);
    expect(small.sampled).toBe(false);
    expect(small.stride).toBe(1);
  });

  it('keeps memory bounded: old passages fall out of the ring and are reported expired', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab, { passageHistory: 1024, laneHistory: 64 }).attach();
    const d = driver(lab);
    for (let i = 0; i < 5000; i++) {
      const p = batch(lab, 1, i);
      d.enter(i, 0, 'socket_tx', 0, p);
      d.leave(i, 0, 'socket_tx', 0, p);
    }
    const f = rec.frame(0, 5000);
    expect(f.totalPassages).toBe(1024);
    expect(rec.inspectPacket({ id: 0 })).toBeNull();
    expect(rec.inspectPacket({ id: 4999 })).not.toBeNull();
    expect(rec.inspectStage(0, 'socket_tx', 0)!.historyNs.length).toBe(64);
  });

  it('reuses a handed-back frame without allocating new buffers', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    const d = driver(lab);
    d.enter(10, 0, 'qdisc', 0, batch(lab, 1, 0));
    const f1 = rec.frame(0, 20);
    const buf = f1.enterNs.buffer;
    const f2 = rec.frame(0, 20, f1);
    expect(f2).toBe(f1);
    expect(f2.enterNs.buffer).toBe(buf);
  });
});

describe('PathRecorder (inspectors on a real lab)', () => {
  it('explains RSS: Toeplitz hash → indirection entry → queue → vCPU, as the device steers', () => {
    const lab = makeLab({
      instances: [
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c5n.18xlarge' },
      ],
    });
    const rec = new PathRecorder(lab).attach();
    const d = driver(lab);
    for (let i = 0; i < 8; i++) {
      const p = batch(lab, 1, 0, i);
      d.enter(1, 1, 'rx_ring', 0, p);
      d.leave(2, 1, 'rx_ring', 0, p, 0);
    }
    const eth0 = lab.instance('server')!.host.eth0;
    const f = rec.frame(0, 3);
    expect(f.flows).toBe(8);
    const queues = new Set<number>();
    for (let i = 0; i < f.n; i++) {
      const insp = rec.inspectPacket({ id: f.id[i]! })!;
      const p = batch(lab, 1, 0, f.flow[i]! - f.flow[0]!);
      expect(insp.rss!.queue).toBe(eth0.steer(p));
      expect(insp.rss!.queue).toBe(eth0.rss().indir[insp.rss!.indirIndex]);
      expect(insp.rss!.indirIndex).toBe(insp.rss!.hash % 128);
      expect(insp.rss!.cpu).toBe(eth0.vcpuForQueue(insp.rss!.queue).index);
      queues.add(insp.rss!.queue);
    }
    expect(queues.size).toBeGreaterThan(1); // 8 flows spread over 32 queues
  });

  it('follows one packet through every stage with its timestamps and the flow-setup decision', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    const d = driver(lab);
    const stages: Array<[number, ProbeStage]> = [
      [0, 'socket_tx'],
      [0, 'qdisc'],
      [0, 'tx_ring'],
      [0, 'nitro_egress'],
      [0, 'fabric'],
      [1, 'nitro_ingress'],
      [1, 'rx_ring'],
      [1, 'socket_rx'],
    ];
    // as the model reports them: the fabric hands the batch to the receiving card at once (the card's
    // clock runs one fabric delay early) and the batch lands in the RX ring one delay later
    const delay = lab.oneWayDelayNs();
    let t = 0;
    for (const [h, s] of stages) {
      const p = batch(lab, 4, 100);
      if (s === 'rx_ring') t += delay;
      lab.runUntil(t);
      d.enter(t, h, s, 0, p);
      if (s !== 'fabric' && s !== 'nitro_ingress') t += 1000;
      if (s === 'nitro_ingress') t += 500;
      lab.runUntil(t);
      d.leave(t, h, s, 0, p, s === 'rx_ring' ? 1 : -1);
    }
    const f = rec.frame(0, t);
    const last = [...Array(f.n).keys()].find((i) => rec.layout().stages[f.stage[i]!] === 'socket_rx')!;
    const insp = rec.inspectPacket({ id: f.id[last]! })!;
    expect(insp.visits.map((v) => v.stage)).toEqual(stages.map(([, s]) => s));
    // shown in physical order: in flight for the delay, then the receiving card, then the ring
    const at = (s: string) => insp.visits.find((v) => v.stage === s)!;
    expect(at('fabric').exitNs! - at('fabric').enterNs).toBe(delay);
    expect(at('nitro_ingress').enterNs).toBe(at('fabric').exitNs);
    expect(at('nitro_ingress').exitNs! - at('nitro_ingress').enterNs).toBe(500);
    expect(at('rx_ring').enterNs).toBe(at('nitro_ingress').exitNs);
    expect(insp.visits.map((v) => v.host)).toEqual(stages.map(([h]) => (h === 0 ? 'client' : 'server')));
    expect(insp.visits[6]!.decision).toContain('vCPU 1');
    expect(insp.visits[4]!.decision).toContain('cluster placement group');
    expect(insp.tuple).toMatchObject({ proto: 'udp', dstPort: 5201 });
    expect(insp.sender).toBe('client');
    expect(insp.receiver).toBe('server');
    // lab trace's records: route, NACL, SG on the sender's card; NACL, SG on the receiver's
    expect(insp.flowSetup[0]!.stages.map((s) => s.stage)).toEqual(['route', 'nacl-out', 'sg-out']);
    expect(insp.flowSetup[1]!.stages.map((s) => s.stage)).toEqual(['nacl-in', 'sg-in']);
    expect(insp.flowSetup[0]!.stages.every((s) => s.result === 'allow' || s.result === 'skipped')).toBe(true);
  });

  it('gives each stage its parameters with provenance marks', () => {
    const lab = makeLab({ params: { nitroShaperQueueNs: 1_000_000 } });
    const rec = new PathRecorder(lab);
    const eg = rec.inspectStage(0, 'nitro_egress', 0)!;
    const pps = eg.params.find((p) => p.name.startsWith('PPS allowance'))!;
    expect(pps.provenance).toBe('measured'); // c7i.large: derived from NET402's MSS-128 test
    const q = eg.params.find((p) => p.name === 'nitroShaperQueueNs')!;
    expect(q.value).toContain('1000000');
    expect(q.source).toBe('overridden by the scenario');
    expect(eg.params.find((p) => p.name === 'per-flow limit')!.value).toBe('10 Gbps');
    // live state as values with units (the inspector words them): credits full, may burst
    expect(eg.state.find((s) => s.name === 'burst credits')?.value).toEqual({
      kind: 'share',
      fraction: 1,
      mode: 'bursting',
    });
    expect(eg.state.find((s) => s.name === 'inside now')?.value).toEqual({
      kind: 'count',
      n: 0,
      unit: 'packets',
    });
    const tables = rec.nitroTables(0)!;
    expect(tables.adjacency.map((a) => a.target)).toContain('IGW');
  });
});

describe('PathRecorder on a real run', () => {
  it('never changes the run it watches', () => {
    const run = (record: boolean) => {
      const lab = makeLab();
      if (record) new PathRecorder(lab).attach();
      return new LabSession(lab).run('iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948');
    };
    expect(run(true)).toEqual(run(false));
  });

  it('shows the microburst of exp 4 (UDP -b 10G -P 8, c7i.large) dying at the Nitro bw_out bucket', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    new LabSession(lab).run('iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948 &');
    lab.runUntil(300_000_000);
    const lay = rec.layout();
    const f = rec.frame(lab.nowNs - 200_000, lab.nowNs);
    expect(f.n).toBeGreaterThan(0);
    const reasons = new Set<string>();
    for (let i = 0; i < f.drops; i++)
      reasons.add(
        `${lay.instances[f.dropHost[i]!]!.name} ${lay.stages[f.dropStage[i]!]} ${lay.dropReasons[f.dropReason[i]!]}`,
      );
    expect(reasons).toContain('client nitro_egress bw_out_allowance_exceeded');
    // the lanes agree with the model: ring occupancy is what the device holds
    const eth0 = lab.instance('client')!.host.eth0;
    const srv = lab.instance('server')!.host.eth0;
    for (let i = 0; i < f.lanes; i++) {
      const stage = lay.stages[f.laneStage[i]!];
      const q = f.laneQueue[i]!;
      expect(f.laneOccupancy[i]).toBeGreaterThanOrEqual(0);
      expect(f.lanePeak[i]).toBeGreaterThanOrEqual(f.laneOccupancy[i]!);
      if (stage === 'tx_ring' && f.laneHost[i] === 0) expect(f.laneOccupancy[i]).toBe(eth0.txPending(q));
      if (stage === 'rx_ring' && f.laneHost[i] === 1)
        expect(f.laneOccupancy[i]).toBe(srv.occupancy().rx[q]![0]);
    }
    // a dropped batch's inspector says where and why it died
    const d = [...Array(f.n).keys()].find((i) => f.fate[i] === PASSAGE_DROPPED && f.id[i]! >= 0)!;
    const insp = rec.inspectPacket({ id: f.id[d]! })!;
    const died = insp.visits.find((v) => v.fate === 'dropped')!;
    expect(died).toMatchObject({
      stage: 'nitro_egress',
      host: 'client',
      dropReason: 'bw_out_allowance_exceeded',
    });
    expect(died.decision).toContain('bw_out_allowance_exceeded');
    // a delivered batch was followed from the socket to the receiver's socket
    const got = [...Array(f.n).keys()].find(
      (i) => lay.stages[f.stage[i]!] === 'rx_ring' && f.fate[i] === PASSAGE_LEFT && f.id[i]! >= 0,
    )!;
    const path = rec.inspectPacket({ id: f.id[got]! })!;
    const stages = path.visits.map((v) => v.stage);
    expect(stages).toEqual(expect.arrayContaining(['nitro_egress', 'fabric', 'nitro_ingress', 'rx_ring']));
    expect(stages.indexOf('fabric')).toBeLessThan(stages.indexOf('rx_ring'));
    const fab = path.visits.find((v) => v.stage === 'fabric')!;
    expect(fab.exitNs! - fab.enterNs).toBe(lab.oneWayDelayNs());
    expect(path.visits.find((v) => v.stage === 'nitro_ingress')!.enterNs).toBe(fab.exitNs);
    const rx = path.visits.find((v) => v.stage === 'rx_ring')!;
    expect(rx.queue).toBe(path.rss!.queue);
    expect(rx.cpu).toBe(path.rss!.cpu);
    for (let k = 1; k < path.visits.length; k++)
      expect(path.visits[k]!.enterNs).toBeGreaterThanOrEqual(path.visits[k - 1]!.enterNs);
    // a batch still queued in the card is inspectable by flow and sequence number
    const q = [...Array(f.n).keys()].find(
      (i) => f.fate[i] === PASSAGE_INSIDE && lay.stages[f.stage[i]!] === 'nitro_egress',
    )!;
    expect(f.id[q]).toBe(-1);
    const waiting = rec.inspectPacket({ flow: f.flow[q]!, seq: f.seq[q]!, count: f.count[q]! })!;
    expect(waiting.visits.at(-1)).toMatchObject({ stage: 'nitro_egress', fate: 'inside', exitNs: null });
    expect(waiting.visits.map((v) => v.stage)).toEqual(['socket_tx', 'qdisc', 'tx_ring', 'nitro_egress']);
  });

  it('keeps counts, occupancy and drops only while detail is off, and follows batches again when on', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    rec.setDetail(false);
    new LabSession(lab).run('iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948 &');
    lab.runUntil(100_000_000);
    const lay = rec.layout();
    let f = rec.frame(lab.nowNs - 1_000_000, lab.nowNs);
    expect(f.detail).toBe(false);
    expect(f.n).toBe(0);
    expect(f.dropTotal).toBeGreaterThan(0);
    const srv = lab.instance('server')!.host.eth0;
    let density = 0;
    for (let i = 0; i < f.lanes; i++) {
      if (lay.stages[f.laneStage[i]!] === 'rx_ring' && f.laneHost[i] === 1)
        expect(f.laneOccupancy[i]).toBe(srv.occupancy().rx[f.laneQueue[i]!]![0]);
      density += f.laneDensity[i]!;
    }
    expect(density).toBeGreaterThan(0); // what entered since the previous frame (here: since the start)
    rec.setDetail(true);
    lab.runUntil(101_000_000);
    f = rec.frame(lab.nowNs - 200_000, lab.nowNs);
    expect(f.detail).toBe(true);
    expect(f.n).toBeGreaterThan(0);
  });

  it("without detail keeps each frame's real peak and last level, counting only the level each instant ends at", () => {
    const lab = makeLab();
    // a history of 8 change points: with detail, a window's older peak would have been overwritten
    const rec = new PathRecorder(lab, { laneHistory: 8 }).attach();
    rec.setDetail(false);
    const d = driver(lab);
    d.enter(1000, 0, 'tx_ring', 1, batch(lab, 40, 0)); // the peak: 40 at t = 1000
    // 50 instants of 1 in, 2 out: far more change points than the history holds
    let seq = 40;
    for (let k = 0; k < 50; k++) {
      const t = 2000 + k * 100;
      d.enter(t, 0, 'tx_ring', 1, batch(lab, 1, seq++));
      d.leave(t, 0, 'tx_ring', 1, batch(lab, 2, 0), 0);
      // a batch entering and leaving within one instant never shows as occupancy
      d.enter(t + 50, 0, 'tx_ring', 1, batch(lab, 30, seq));
      d.leave(t + 50, 0, 'tx_ring', 1, batch(lab, 30, seq), 0);
      seq += 30;
    }
    let f = rec.frame(0, 10_000);
    const lane = [...Array(f.lanes).keys()].find((i) => f.laneStage[i] === 2 && f.laneQueue[i] === 1)!;
    expect(f.laneOccupancy[lane]).toBe(0); // 40 + 50 in, 100 out: drained
    expect(f.lanePeak[lane]).toBe(40);
    // the next frame starts from what the previous one settled: its peak is its own
    d.enter(11_000, 0, 'tx_ring', 1, batch(lab, 3, seq));
    d.leave(12_000, 0, 'tx_ring', 1, batch(lab, 1, seq), 0);
    f = rec.frame(10_000, 13_000, f);
    expect(f.laneOccupancy[lane]).toBe(0 + 3 - 1);
    expect(f.lanePeak[lane]).toBe(3);
  });

  it('follows a pure ACK (its sequence number never moves) through the stages it crossed at that time', () => {
    const lab = makeLab();
    const rec = new PathRecorder(lab).attach();
    new LabSession(lab).run('iperf3 -c server -t 1');
    const lay = rec.layout();
    const f = rec.frame(lab.nowNs - 5_000_000, lab.nowNs);
    // the server's ACKs: leaving its TX ring
    const i = [...Array(f.n).keys()].find(
      (k) => f.host[k] === 1 && lay.stages[f.stage[k]!] === 'tx_ring' && f.id[k]! >= 0,
    )!;
    expect(i).toBeDefined();
    const insp = rec.inspectPacket({ id: f.id[i]! })!;
    expect(insp.sender).toBe('server');
    expect(insp.visits.length).toBeGreaterThanOrEqual(4);
    for (const v of insp.visits) expect(Math.abs(v.enterNs - f.enterNs[i]!)).toBeLessThan(2_000_000);
  });
});
