/**
 * Property: the stage probe conserves packets. For random runs (instance types, placements, TCP and
 * UDP iperf3 with random streams, rates and lengths, RX ring sizes, root qdiscs), per (host, stage,
 * queue): enters − leaves − drops(wasQueued) never goes below zero at any event; mid-run it equals
 * what the rings and the Nitro ingress shaper hold; once the traffic is over and the lab has run
 * idle, every stage holds nothing. Drops reported on arrival (wasQueued false) never touch the sum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROBE_STAGES, type ProbeSink, type ProbeStage } from '../../src/engine/model/probe';
import type { Lab } from '../../src/engine/lab/lab';
import type { DropReason } from '../../src/engine/model/drop-reasons';
import type { Packet } from '../../src/engine/model/packet';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

const SEED = Number(process.env.PROP_SEED ?? 20250301);
const RUNS_FACTOR = Number(process.env.PROP_RUNS ?? 1);

class Ledger implements ProbeSink {
  readonly held = new Map<string, number>();
  readonly entered = new Map<string, number>();
  violation: string | null = null;
  events = 0;
  droppedOnArrival = 0;
  droppedQueued = 0;

  private add(key: string, d: number, atNs: number): void {
    const v = (this.held.get(key) ?? 0) + d;
    this.held.set(key, v);
    if (v < 0 && this.violation === null) this.violation = `${key} at ${atNs} ns: ${v}`;
  }
  enter(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet): void {
    this.events++;
    const k = `${host}|${stage}|${queue}`;
    this.entered.set(k, (this.entered.get(k) ?? 0) + pkt.count);
    if (!(pkt.count > 0) && this.violation === null) this.violation = `empty batch entered ${k}`;
    this.add(k, pkt.count, atNs);
  }
  leave(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet, _cpu: number): void {
    this.events++;
    this.add(`${host}|${stage}|${queue}`, -pkt.count, atNs);
  }
  drop(
    atNs: number,
    host: number,
    stage: ProbeStage,
    queue: number,
    _pkt: Packet,
    count: number,
    _reason: DropReason,
    wasQueued: boolean,
  ): void {
    this.events++;
    if (wasQueued) {
      this.droppedQueued += count;
      this.add(`${host}|${stage}|${queue}`, -count, atNs);
    } else this.droppedOnArrival += count;
  }
  get(host: number, stage: ProbeStage, queue: number): number {
    return this.held.get(`${host}|${stage}|${queue}`) ?? 0;
  }
}

/** What the model itself says each observable stage holds, per (host, stage, queue). */
function holdings(lab: Lab): Map<string, number> {
  const out = new Map<string, number>();
  [...lab.instances.values()].forEach((inst, h) => {
    const dev = inst.host.eth0;
    for (let q = 0; q < dev.queueCount; q++) {
      out.set(`${h}|tx_ring|${q}`, dev.txPending(q));
      out.set(`${h}|rx_ring|${q}`, dev.rxPending(q));
    }
    out.set(`${h}|nitro_ingress|0`, inst.nitro.ingressStage.backlogPackets);
  });
  return out;
}

const TYPES = ['c7i.large', 'c5n.4xlarge', 'c8g.8xlarge'];

const runCase = fc.record({
  seed: fc.integer({ min: 0, max: 0xffff }),
  client: fc.constantFrom(...TYPES),
  server: fc.constantFrom(...TYPES),
  placement: fc.constantFrom('cluster', 'same-az', 'cross-az'),
  batch: fc.constantFrom<'auto' | number>('auto', 'auto', 8, 1),
  udp: fc.boolean(),
  streams: fc.integer({ min: 1, max: 4 }),
  gbps: fc.constantFrom(1, 5, 20),
  len: fc.constantFrom(1400, 8948),
  rxRing: fc.constantFrom(null, 256, 8192),
  qdisc: fc.constantFrom(null, 'pfifo limit 20', 'fq', 'htb'),
});

describe('probe conservation', () => {
  it('enters − leaves − queued drops ≥ 0 at every event and equals what each stage holds', () => {
    fc.assert(
      fc.property(runCase, (c) => {
        const parsed = parseScenario({
          version: 1,
          seed: c.seed,
          placement: c.placement,
          instances: [
            { name: 'client', type: c.client },
            { name: 'server', type: c.server },
          ],
          settings: { batch: c.batch },
        });
        if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
        const lab = createLab(parsed.scenario);
        const ledger = new Ledger();
        lab.probe.attach(ledger);
        const s = new LabSession(lab);
        if (c.rxRing !== null) s.run(`server: ethtool -G eth0 rx ${c.rxRing}`);
        if (c.qdisc === 'htb') {
          s.run('tc qdisc replace dev eth0 root handle 1: htb default 10');
          s.run('tc class add dev eth0 parent 1: classid 1:10 htb rate 2gbit');
        } else if (c.qdisc !== null) s.run(`tc qdisc replace dev eth0 root ${c.qdisc}`);
        const proto = c.udp ? `-u -b ${c.gbps}G -l ${c.len}` : `-l ${c.len * 4}`;
        s.run(`iperf3 -c server -t 1 -P ${c.streams} ${proto} &`);
        s.run('sleep 0.4');
        // mid-run: the ledger and the model agree on every ring and on the ingress shaper
        for (const [k, v] of holdings(lab)) expect(ledger.held.get(k) ?? 0, k).toBe(v);
        s.run('sleep 3');
        s.close();
        expect(ledger.violation).toBeNull();
        expect(ledger.events).toBeGreaterThan(0);
        // traffic over, lab idle: nothing held anywhere
        for (const [k, v] of ledger.held) expect(v, k).toBe(0);
        // every stage of the path saw the data (socket_tx through socket_rx)
        const seen = new Set([...ledger.entered.keys()].map((k) => k.split('|')[1]));
        for (const st of PROBE_STAGES) expect(seen.has(st), st).toBe(true);
      }),
      { seed: SEED, numRuns: Math.max(1, Math.round(6 * RUNS_FACTOR)) },
    );
  }, 240_000);
});
