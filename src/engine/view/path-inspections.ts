/**
 * The path recorder's inspections: everything known about one packet (tuple, TX pick, RSS steering,
 * flow setup on each card, each stage passed and what was decided there), a stage lane's parameters
 * with their provenance and its live state, and the Nitro card's tables (as `lab nitro show`).
 * They read the probe sink's history and the lab, never change either.
 */
import { PER_FLOW_LIMIT_GBPS } from '../../catalog';
import type { Figure } from '../../catalog/figure';
import type { ProbeStage } from '../model/probe';
import { PROBE_STAGES } from '../model/probe';
import type { Instance } from '../lab/lab';
import type { FiveTuple } from '../model/packet';
import { connectionKey, tupleKey } from '../nitro/flow-table';
import { MODEL_PARAMS, type ParamName } from '../model/params';
import { evaluateFlow, vpcState } from '../vpc';
import { DROP_REASON_LIST, fmtCount, placementLabel, stageLabelOn } from './path-names';
import { type FlowInfo, type Lane, type PathSink, seqUnit } from './path-sink';
import {
  PASSAGE_DROPPED as DROPPED,
  type NitroTables,
  type PacketInspection,
  type PacketRef,
  type PacketStageVisit,
  type StageInspection,
  type StageParam,
  type StageStateValue,
} from './path-types';

const PASSAGE_DROPPED: number = DROPPED;
const STAGE_CODE = new Map<string, number>(PROBE_STAGES.map((s, i) => [s, i]));

export class PathInspections {
  constructor(private readonly s: PathSink) {}

  /** A stage's name in the picture on this host. */
  private labelOf(host: string, stage: ProbeStage): string {
    return stageLabelOn(this.s.lab, host, stage);
  }

  /** Everything known about one passage's packet: tuple, steering, flow setup, each stage passed. */
  inspectPacket(ref: PacketRef): PacketInspection | null {
    let id = -1;
    let fl: FlowInfo | undefined;
    let seq: number;
    let count: number;
    /** When the inspected batch was seen: the same (flow, seq) met elsewhere is taken nearest this.s. */
    let refNs: number;
    if ('id' in ref) {
      id = ref.id;
      if (!(id >= 0 && id < this.s.nextId) || id < this.s.nextId - this.s.P) return null;
      const k = id % this.s.P;
      fl = this.s.flows.get(this.s.pFlow[k]!);
      seq = this.s.pSeq[k]!;
      count = this.s.pCount[k]!;
      refNs = this.s.pEnter[k]!;
    } else {
      fl = this.s.flows.get(ref.flow);
      seq = ref.seq;
      count = ref.count ?? 1;
      refNs = this.s.lab.nowNs;
    }
    if (!fl) return null;
    const expired = false;
    // the packet is the batch's first packet: follow (flow, seq) through every stage
    const unit = seqUnit(fl);
    const found = new Map<number, number>(); // lane index → passage id
    const oldest = Math.max(0, this.s.nextId - this.s.P);
    for (let j = oldest; j < this.s.nextId; j++) {
      const m = j % this.s.P;
      if (this.s.pFlow[m] !== fl.id) continue;
      const s = this.s.pSeq[m]!;
      const end = s + Math.max(1, this.s.pCount[m]! * unit);
      if (seq < s || seq >= end) continue;
      // a sequence number can recur (pure ACKs carry the same one, retransmissions resend it): per
      // stage, keep the passage nearest in time to the inspected one
      const li = this.s.pLane[m]!;
      const prev = found.get(li);
      if (
        prev === undefined ||
        Math.abs(this.s.pEnter[m]! - refNs) < Math.abs(this.s.pEnter[prev % this.s.P]! - refNs)
      )
        found.set(li, j);
    }
    const visits: PacketStageVisit[] = [];
    const hostOrder = [fl.src, fl.dst];
    for (const li of [...found.keys()].sort(
      (a, b) => this.visitOrder(a, hostOrder) - this.visitOrder(b, hostOrder),
    )) {
      const j = found.get(li)!;
      const m = j % this.s.P;
      visits.push(this.visit(this.s.lanes[li]!, m, fl));
    }
    // still inside a stage (not yet left): the open batch holding seq
    for (const lane of this.s.lanes) {
      if (visits.some((v) => v.stage === PROBE_STAGES[lane.stage] && v.host === this.s.hostNames[lane.host]))
        continue;
      const o = lane.open.get(fl.id);
      if (!o) continue;
      for (let i = o.head; i < o.q.length; i++) {
        const b = o.q[i]!;
        if (seq >= b.seq && seq < b.seq + Math.max(1, b.count * unit)) {
          const stage = PROBE_STAGES[lane.stage]!;
          visits.push({
            stage,
            label: this.labelOf(this.s.hostNames[lane.host] ?? '?', stage),
            host: this.s.hostNames[lane.host] ?? '?',
            queue: lane.queue,
            enterNs: b.enterNs,
            exitNs: null,
            cpu: -1,
            fate: 'inside',
            dropReason: null,
            decision: `inside since ${fmtNs(b.enterNs)} (${fmtCount(lane.occ)} packets in this ${laneNoun(stage)})`,
          });
          break;
        }
      }
    }
    visits.sort((a, b) => a.enterNs - b.enterNs);
    const srcName = fl.src >= 0 ? this.s.hostNames[fl.src]! : null;
    const dstName = fl.dst >= 0 ? this.s.hostNames[fl.dst]! : null;
    const srcInst = srcName ? this.s.lab.instances.get(srcName) : undefined;
    return {
      id,
      flowId: fl.id,
      tuple: { ...fl.tuple },
      sizeBytes: fl.sizeBytes,
      count,
      seq,
      sender: srcName,
      receiver: dstName,
      tx: srcInst ? { skbHash: fl.skbHash >>> 0, queue: fl.txq, queues: srcInst.host.eth0.queueCount } : null,
      rss: this.s.rxSteering(fl),
      flowSetup: this.flowSetup(fl),
      visits,
      expired,
    };
  }

  private visitOrder(li: number, hostOrder: number[]): number {
    const lane = this.s.lanes[li]!;
    const h = hostOrder.indexOf(lane.host);
    const s = PROBE_STAGES[lane.stage]!;
    // sender: its egress stages; receiver: its ingress stages
    return (h < 0 ? 2 : h) * 100 + (s === 'fabric' ? 50 : lane.stage);
  }

  private visit(lane: Lane, m: number, fl: FlowInfo): PacketStageVisit {
    const stage = PROBE_STAGES[lane.stage]!;
    const host = this.s.hostNames[lane.host] ?? '?';
    const enterNs = this.s.pEnter[m]!;
    const exitNs = this.s.pExit[m]!;
    const fate = this.s.pFate[m] === PASSAGE_DROPPED ? 'dropped' : 'left';
    const reason = fate === 'dropped' ? (DROP_REASON_LIST[this.s.pReason[m]! - 1] ?? 'unknown') : null;
    const dwell = exitNs - enterNs;
    const cpu = this.s.pCpu[m]!;
    const inst = this.s.lab.instances.get(host);
    let decision: string;
    if (fate === 'dropped') {
      decision = `dropped: ${reason}${dwell > 0 ? ` after ${fmtNs(dwell)} queued` : ' on arrival'}`;
    } else {
      switch (stage) {
        case 'socket_tx':
          decision = `waited ${fmtNs(dwell)} in the send buffer`;
          break;
        case 'qdisc':
          decision = `queued ${fmtNs(dwell)} in ${inst?.host.qdisc.rootKind ?? 'the qdisc'} (TX queue ${lane.queue})`;
          break;
        case 'tx_ring':
          decision = `TX ring ${lane.queue}: fetched and sent by the device after ${fmtNs(dwell)}`;
          break;
        case 'nitro_egress':
        case 'nitro_ingress': {
          const card = inst?.nitro;
          const dir = stage === 'nitro_egress' ? 'egress' : 'ingress';
          const t = dir === 'egress' ? fl.tuple : fl.tuple;
          const e = card?.flows.cache.get(tupleKey(t));
          const setup =
            e === undefined
              ? 'no flow-cache entry (no flow setup on this card)'
              : e.createdNs >= enterNs && e.createdNs <= exitNs
                ? 'flow-cache miss: processing path (route, NACL, SG), flow set up'
                : `flow-cache hit (${e.state}): accelerated path`;
          const shaped =
            dir === 'egress'
              ? 'per-flow limit, bandwidth (out) and PPS buckets'
              : 'bandwidth (in) and PPS buckets';
          decision = `${setup}; ${dwell > 0 ? `queued ${fmtNs(dwell)} in the ${shaped}` : `passed the ${shaped} without waiting`}`;
          break;
        }
        case 'fabric':
          decision = `in flight ${fmtNs(dwell)} (${placementLabel(this.s.lab.placement)})`;
          break;
        case 'rx_ring':
          decision = `RX ring ${lane.queue}: waited ${fmtNs(dwell)} for the interrupt and NAPI poll${cpu >= 0 ? ` on vCPU ${cpu}` : ''}`;
          break;
        case 'socket_rx':
          decision = `read by the application after ${fmtNs(dwell)} in the receive buffer`;
          break;
      }
    }
    return {
      stage,
      label: this.labelOf(host, stage),
      host,
      queue: lane.queue,
      enterNs,
      exitNs,
      cpu,
      fate,
      dropReason: reason,
      decision,
    };
  }

  /** The flow-setup decision records on the sender's and the receiver's cards (as `lab trace`). */
  private flowSetup(fl: FlowInfo): PacketInspection['flowSetup'] {
    const out: Array<PacketInspection['flowSetup'][number]> = [];
    if (fl.src < 0) return out;
    const srcName = this.s.hostNames[fl.src]!;
    let stages: ReturnType<typeof evaluateFlow>['stages'] = [];
    try {
      stages = evaluateFlow(vpcState(this.s.lab), srcName, fl.tuple.dstIp, fl.tuple).stages;
    } catch {
      stages = [];
    }
    const sides: Array<[number, 'egress' | 'ingress', string[]]> = [
      [fl.src, 'egress', ['route', 'nacl-out', 'sg-out']],
      [fl.dst, 'ingress', ['nacl-in', 'sg-in']],
    ];
    for (const [h, direction, mine] of sides) {
      if (h < 0) continue;
      const inst = this.s.lab.instances.get(this.s.hostNames[h]!)!;
      const table = inst.nitro.flows;
      const e = table.cache.get(tupleKey(fl.tuple));
      const ct = table.conntrack.get(connectionKey(fl.tuple));
      out.push({
        host: inst.name,
        direction,
        cacheState: e ? `${e.state} (epoch ${e.epoch})` : null,
        conntrack: ct ? `${ct.state}, ${ct.tracked ? 'tracked' : 'untracked'} (${ct.reason})` : null,
        stages: stages
          .filter((s) => mine.includes(s.stage))
          .map((s) => ({
            stage: s.stage,
            result: s.result,
            rule: s.rule,
            ...(s.resourceId ? { resourceId: s.resourceId } : {}),
          })),
      });
    }
    return out;
  }

  /** A stage lane's parameters (with provenance) and live state, and the history the recorder holds. */
  inspectStage(host: number, stage: string, queue: number): StageInspection | null {
    const name = this.s.hostNames[host];
    const s = STAGE_CODE.get(stage);
    if (name === undefined || s === undefined) return null;
    const inst = this.s.lab.instances.get(name)!;
    const ps = stage as ProbeStage;
    const lane = this.s.laneByKey.get((host * 16 + s) * 65536 + queue);
    const historyNs: number[] = [];
    const historyOccupancy: number[] = [];
    if (lane)
      for (let i = 0; i < this.s.histLen(lane); i++) {
        historyNs.push(lane.histT[this.s.histIndex(lane, i)]!);
        historyOccupancy.push(lane.histV[this.s.histIndex(lane, i)]!);
      }
    const mechanism = this.mechanism(inst, ps);
    return {
      host: name,
      stage,
      label: this.labelOf(name, ps),
      queue,
      ...(mechanism ? { mechanism } : {}),
      params: this.stageParams(inst, ps, queue),
      state: this.stageState(inst, ps, queue, lane),
      historyNs,
      historyOccupancy,
      enteredPackets: lane?.entered ?? 0,
      leftPackets: lane?.left ?? 0,
      droppedPackets: lane?.dropped ?? 0,
      dropsByReason: lane
        ? [...lane.dropsByReason].map(([c, packets]) => ({ reason: DROP_REASON_LIST[c - 1] ?? '?', packets }))
        : [],
    };
  }

  /**
   * dom0's netback on a Xen PV instance (its VPC-layer stages): how a packet crosses it, with the
   * lab's values (docs/design.md, "Xen's PV path").
   */
  private mechanism(inst: Instance, stage: ProbeStage): string[] | null {
    if (inst.backend === null || (stage !== 'nitro_egress' && stage !== 'nitro_ingress')) return null;
    const p = this.s.lab.params;
    const wake =
      `Wake-up: a sleeping netback worker runs only once dom0's vCPU is woken and scheduled ` +
      `(${fmtNs(p.xenDom0WakeNs)} + a random part of mean ${fmtNs(p.xenDom0WakeSpreadNs)}); a busy one takes new ` +
      'work at once, so a lone packet pays it and one behind others does not: the jitter of the PV path.';
    const preempt =
      `dom0's other guests take the worker's CPU at random (every ${fmtNs(p.xenDom0PreemptGapNs)} on average, ` +
      `for ${fmtNs(p.xenDom0PreemptNs)}); one worker serves both directions in arrival order.`;
    if (stage === 'nitro_egress')
      return [
        "No Nitro card: the guest's netfront posts the packet on a 256-slot ring shared with dom0 and notifies it through an event channel.",
        wake,
        `Each poll takes up to ${p.xenNetbackTxBatch} requests (a TCP GSO skb of up to 64 KB is one), copies them with one ` +
          'hypercall and frees their ring slots at its end; the guest frees a sent skb only then, so a socket send buffer waits for the poll.',
        preempt,
        "Then the host's VPC layer and its bandwidth and PPS buckets.",
      ];
    return [
      "No Nitro card: after the host's VPC layer, dom0's softirq (the physical NIC's receive, the bridge, netback's start_xmit) " +
        `costs ${fmtNs(p.xenDom0RxPacketNs)} per packet on the worker's vCPU, dropped or not, taken from the copying: past the ` +
        'knee the more is offered, the less is delivered (receive livelock).',
      `The packet waits in netback's queue for the guest (${Math.round(p.xenNetbackRxQueueBytes / 1024)} KiB), then in the vif's ` +
        `qdisc (${p.xenNetbackRxQueuePackets} packets); a full qdisc drops it in dom0 (xen_backend_queue_full), where the guest counts nothing.`,
      wake,
      'The worker grant-copies up to 64 skbs into the guest with one hypercall and one notification: a batch arrives together.',
      preempt,
    ];
  }

  private param(name: ParamName, fmt: (v: number) => string = String): StageParam {
    const p = MODEL_PARAMS[name];
    const v = this.s.lab.params[name];
    const overridden = this.s.lab.scenario.params?.[name] !== undefined;
    return {
      name,
      value: `${fmt(v)} ${p.unit}`,
      provenance: overridden ? 'assumed' : p.provenance,
      source: overridden ? 'overridden by the scenario' : p.source,
      ...(p.note ? { note: p.note } : {}),
    };
  }

  private stageParams(inst: Instance, stage: ProbeStage, queue: number): StageParam[] {
    const spec = inst.spec;
    const fig = (name: string, f: Figure<unknown>, unit = ''): StageParam => ({
      name,
      value: `${String(f.value)}${unit}`,
      provenance: f.provenance,
      source: f.source,
      ...(f.note ? { note: f.note } : {}),
    });
    const eth0 = inst.host.eth0;
    const rings = eth0.rings();
    switch (stage) {
      case 'socket_tx':
        return [
          this.param('tcpWmemDefault'),
          this.param('tcpWmemMax'),
          this.param('udpWmemDefault'),
          this.param('tcpLimitOutputBytes'),
        ];
      case 'socket_rx':
        return [this.param('tcpRmemMax'), this.param('udpRmemDefault')];
      case 'qdisc':
        return [
          {
            name: 'root qdisc',
            value: inst.host.qdisc.rootKind,
            provenance: 'documented',
            source: 'LINUX default_qdisc / tc',
          },
        ];
      case 'tx_ring':
        return [
          {
            name: 'tx ring size',
            value: `${rings.tx} descriptors (max ${rings.txMax})`,
            provenance: spec.txRingDefault.provenance,
            source: rings.tx === spec.txRingDefault.value ? spec.txRingDefault.source : 'set by ethtool -G',
          },
          fig('queues (default per ENI)', spec.defaultEnaQueuesPerEni),
          this.param('enaQueuePacketNs'),
          {
            name: 'vCPU',
            value: `${eth0.vcpuForQueue(queue).index} (queue i → vCPU i mod ${inst.host.vcpus.length})`,
            provenance: 'assumed',
            source: 'irqbalance/ENA affinity as modelled',
          },
        ];
      case 'rx_ring':
        return [
          {
            name: 'rx ring size',
            value: `${rings.rx} descriptors (max ${rings.rxMax})`,
            provenance: spec.rxRingDefault.provenance,
            source: rings.rx === spec.rxRingDefault.value ? spec.rxRingDefault.source : 'set by ethtool -G',
          },
          this.param('napiBudget'),
          this.param('groMaxBytes'),
          this.param('hostRxPacketNs'),
          fig('RSS key configurable', spec.rssKeyConfigurable),
          {
            name: 'vCPU',
            value: `${eth0.vcpuForQueue(queue).index} (queue i → vCPU i mod ${inst.host.vcpus.length})`,
            provenance: 'assumed',
            source: 'irqbalance/ENA affinity as modelled',
          },
        ];
      case 'nitro_egress':
      case 'nitro_ingress': {
        const out: StageParam[] = [];
        if (inst.backend !== null)
          out.push(
            ...(stage === 'nitro_egress'
              ? ([
                  'xenNetbackTxBatch',
                  'xenNetbackTxBatchNs',
                  'xenNetbackTxPacketNs',
                  'xenNetbackTxByteNs',
                ] as const)
              : ([
                  'xenDom0RxPacketNs',
                  'xenNetbackRxQueueBytes',
                  'xenNetbackRxQueuePackets',
                  'xenNetbackRxBatchNs',
                  'xenNetbackRxPacketNs',
                  'xenNetbackRxByteNs',
                ] as const)
            ).map((n) => this.param(n)),
            this.param('xenDom0WakeNs'),
            this.param('xenDom0WakeSpreadNs'),
            this.param('xenDom0PreemptGapNs'),
            this.param('xenDom0PreemptNs'),
          );
        out.push(
          fig('baseline bandwidth', spec.baselineBandwidthGbps, ' Gbps'),
          fig('peak bandwidth', spec.peakBandwidthGbps, ' Gbps'),
        );
        if (spec.burstCreditSeconds) out.push(fig('burst duration', spec.burstCreditSeconds, ' s'));
        if (spec.ppsBidirectional) {
          out.push(fig('PPS budget (in + out)', spec.ppsBidirectional, ' pps'));
          out.push(fig('PPS ceiling (each direction)', spec.ppsAllowance, ' pps'));
        } else out.push(fig('PPS allowance (in + out)', spec.ppsAllowance, ' pps'));
        if (stage === 'nitro_egress') {
          const cluster = this.s.lab.placement === 'cluster';
          out.push(
            fig(
              'per-flow limit',
              cluster
                ? PER_FLOW_LIMIT_GBPS.insideClusterPlacementGroup
                : PER_FLOW_LIMIT_GBPS.outsideClusterPlacementGroup,
              ' Gbps',
            ),
            fig('conntrack allowance', spec.conntrackAllowanceMax),
            this.param('nitroSlowPathNs'),
            this.param('nitroSlowPathPerSgRuleNs'),
          );
        }
        out.push(
          this.param('nitroShaperQueueNs'),
          this.param('nitroShaperMinQueuePackets'),
          this.param('nitroFlowQuantumBytes'),
          this.param('nitroShaperFairBufferShare'),
          this.param('bwBucketNs'),
          this.param('ppsBucketNs'),
          this.param('nitroChargeOverheadBytes'),
        );
        return out;
      }
      case 'fabric': {
        const key: ParamName =
          this.s.lab.placement === 'cluster'
            ? 'fabricOneWayNsCluster'
            : this.s.lab.placement === 'same-az'
              ? 'fabricOneWayNsSameAz'
              : this.s.lab.placement === 'cross-az'
                ? 'fabricOneWayNsCrossAz'
                : this.s.lab.placement === 'other-vpc'
                  ? 'fabricOneWayNsOtherVpc'
                  : 'fabricOneWayNsInternet';
        return [this.param(key)];
      }
    }
  }

  private stageState(
    inst: Instance,
    stage: ProbeStage,
    queue: number,
    lane: Lane | undefined,
  ): Array<{ name: string; value: StageStateValue }> {
    const count = (n: number, unit = ''): StageStateValue => ({ kind: 'count', n, unit });
    const out: Array<{ name: string; value: StageStateValue }> = [
      { name: 'inside now', value: count(lane?.occ ?? 0, 'packets') },
    ];
    const card = inst.nitro;
    if (stage === 'tx_ring' || stage === 'rx_ring') {
      const occ = inst.host.eth0.occupancy();
      const pair = (stage === 'tx_ring' ? occ.tx : occ.rx)[queue];
      if (pair)
        out.push({
          name: 'descriptors used (now / peak)',
          value: { kind: 'pair', now: pair[0], peak: pair[1] },
        });
    }
    if (stage === 'nitro_egress' || stage === 'nitro_ingress') {
      const bw = stage === 'nitro_egress' ? card.bwOut : card.bwIn;
      // tokens as of the bucket's last update: refilling here would change the model's arithmetic.
      out.push(
        {
          name: 'bandwidth bucket (last update)',
          value: { kind: 'bucket', tokens: bw.tokens, depth: bw.depth, unit: 'bytes' },
        },
        {
          name: 'PPS bucket (last update)',
          value: { kind: 'bucket', tokens: card.pps.tokens, depth: card.pps.depth, unit: 'packets' },
        },
      );
      const credits = stage === 'nitro_egress' ? card.creditsOut : card.creditsIn;
      if (credits)
        out.push({
          name: 'burst credits',
          value: {
            kind: 'share',
            fraction: credits.creditsBits / credits.capacityBits,
            mode: credits.bursting ? 'bursting' : 'at baseline',
          },
        });
      const c = card.counters();
      out.push(
        {
          name: stage === 'nitro_egress' ? 'bw_out_allowance_exceeded' : 'bw_in_allowance_exceeded',
          value: count(stage === 'nitro_egress' ? c.bw_out_allowance_exceeded : c.bw_in_allowance_exceeded),
        },
        { name: 'pps_allowance_exceeded', value: count(c.pps_allowance_exceeded) },
        { name: 'conntrack_allowance_exceeded', value: count(c.conntrack_allowance_exceeded) },
      );
      const nb = inst.backend;
      if (nb !== null) {
        out.push({ name: 'netback worker wake-ups', value: count(nb.wakeups) });
        if (stage === 'nitro_egress')
          out.push(
            { name: 'guest TX polls', value: count(nb.txBatches) },
            { name: 'requests waiting for netback', value: count(nb.backlog().tx, 'packets') },
          );
        else {
          const h = nb.rxHold();
          out.push(
            { name: 'copies into the guest', value: count(nb.rxBatches) },
            {
              name: `netback queue for the guest${h.stopped ? ' (vif stopped)' : ''}`,
              value: count(h.internalBytes, 'bytes'),
            },
            { name: "vif's qdisc", value: count(h.qdiscSkbs, 'packets') },
            { name: 'dropped in dom0', value: count(nb.rxDropped, 'packets') },
          );
        }
      }
    }
    return out;
  }

  /** The Nitro card's tables (adjacency/mapping, conntrack, flow cache), as `lab nitro show` prints them. */
  nitroTables(host: number): NitroTables | null {
    const name = this.s.hostNames[host];
    if (name === undefined) return null;
    const inst = this.s.lab.instances.get(name)!;
    const card = inst.nitro;
    const table = card.flows;
    const now = this.s.lab.nowNs;
    const fmtT = (t: FiveTuple, sep: string) =>
      t.proto === 'icmp'
        ? `icmp ${t.srcIp} ${sep} ${t.dstIp}`
        : `${t.proto} ${t.srcIp}:${t.srcPort} ${sep} ${t.dstIp}:${t.dstPort}`;
    // read-only: expired entries are shown with 0 s left rather than removed (the card expires lazily)
    return {
      host: name,
      eniId: card.vpcEni?.eniId ?? null,
      adjacency: [...table.adjacency.entries()].map(([target, state]) => ({ target, state })),
      conntrack: [...table.conntrack.values()].map((c) => ({
        tuple: fmtT(c.tuple, '↔'),
        state: c.state,
        tracking: c.tracked ? 'tracked' : 'untracked',
        idleTimeoutS: c.timeoutNs / 1e9,
        idleRemainingS: Math.max(0, (c.timeoutNs - (now - c.lastSeenNs)) / 1e9),
      })),
      flowCache: [...table.cache.values()].map((e) => ({
        flow: fmtT(e.tuple, '→'),
        direction: e.direction,
        state: e.state,
        tracking: e.ct ? 'tracked' : 'untracked',
      })),
      allowance: {
        max: table.allowanceMax,
        available: Math.max(0, table.allowanceMax - table.conntrack.size),
        exceeded: table.allowanceExceeded,
      },
      flowPath: { ...card.flowStats },
    };
  }
}

function laneNoun(stage: ProbeStage): string {
  return stage === 'tx_ring' || stage === 'rx_ring' ? 'ring' : stage === 'fabric' ? 'link' : 'queue';
}

/** Duration in the unit that reads best (ns, µs, ms, s). */
export function fmtNs(ns: number): string {
  const a = Math.abs(ns);
  if (a < 1e3) return `${Math.round(ns)} ns`;
  if (a < 1e6) return `${(ns / 1e3).toFixed(a < 1e4 ? 2 : 1)} µs`;
  if (a < 1e9) return `${(ns / 1e6).toFixed(a < 1e7 ? 2 : 1)} ms`;
  return `${(ns / 1e9).toFixed(3)} s`;
}
