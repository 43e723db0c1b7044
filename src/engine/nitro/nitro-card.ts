/**
 * The Nitro card of one instance: flow setup and the shapers between the ENA and the VPC fabric.
 * Egress (host → VPC):  flow lookup → per-flow limit → [internet-gateway limit] → instance bw_out + PPS → card → fabric
 * Ingress (VPC → host): flow lookup → instance bw_in + PPS → card → ENA RX queue (RSS, in the host's device)
 * Every shaper queues, then drops (ShaperStage). The PPS allowance is one bucket for both
 * directions; bandwidth has one bucket each way, at peak while credits last (CreditAccount); the
 * card's own bandwidth is a serial stage after the allowances (rule in the constructor). Apart:
 * flow setup's slow path (flow-setup.ts), the TX fetch gate (tx-fetch-gate.ts), the counters per
 * interface (allowance-counters.ts), the configuration and counter types (nitro-config.ts).
 * Sources: AWS-BW, AWS-ENAPERF, AWS-NITROPERF, AWS-NITRO, AWS-CT, ENA-BP, NET402 "Flow Setup"
 * (docs/domain-facts.md §2.1–2.6, §2.9). How the stages work and why: docs/design.md, "The Nitro card".
 */
import { Probe } from '../model/probe';
import type { Scheduler } from '../core/scheduler';
import type { DropCounters, DropReason } from '../model/drop-reasons';
import { EGRESS_FRAGMENT_PPS_PER_ENI, LINK_LOCAL_PPS_PER_ENI } from '../../catalog';
import { type Packet, splitBatch, TCP_FLAG_FIN, TCP_FLAG_RST } from '../model/packet';
import { TokenBucket } from '../model/token-bucket';
import type { ParamValues } from '../model/params';
import { type Eni, LINK_LOCAL_SERVICES, type VpcState } from '../vpc';
import { BW_IN, BW_OUT, CONNTRACK, InterfaceCounters, LINK_LOCAL, PPS } from './allowance-counters';
import { CreditAccount } from './credits';
import { EniTraffic } from '../metrics/eni-traffic';
import { EnaExpress } from './ena-express';
import { FlowSetup } from './flow-setup';
import { FlowTable } from './flow-table';
import type { FlowPathStats, NitroConfig, NitroCounters } from './nitro-config';
import { type ShaperBucket, ShaperStage, shaperBucket } from './shaper';
import { TxFetchGate } from './tx-fetch-gate';

export type { FlowPathStats, NitroConfig, NitroCounters } from './nitro-config';

const TCP_CLOSE_FLAGS = TCP_FLAG_FIN | TCP_FLAG_RST;

export class NitroCard {
  readonly pps: TokenBucket;
  readonly bwOut: TokenBucket;
  readonly bwIn: TokenBucket;
  readonly creditsOut: CreditAccount | null;
  readonly creditsIn: CreditAccount | null;
  private readonly ppsOut: ShaperBucket;
  private readonly ppsIn: ShaperBucket;
  private readonly bwOutB: ShaperBucket;
  private readonly bwInB: ShaperBucket;
  readonly egressStage: ShaperStage;
  readonly ingressStage: ShaperStage;
  readonly igwStage: ShaperStage;
  /** The card's own bandwidth each way, after the allowances (null: no card figure). */
  readonly cardOutStage: ShaperStage | null;
  /** The card stages' buckets (egress, ingress), for setCardBps. */
  private readonly cardBuckets: TokenBucket[] = [];
  readonly cardInStage: ShaperStage | null;
  private readonly flowStages = new Map<number, ShaperStage>();
  /** The same stages by flow id, for the per-packet lookup (flow ids are small integers). */
  private readonly stageByFlow: (ShaperStage | undefined)[] = [];
  /** Per-flow stages of flows while they travel over SRD (ENA Express). */
  private readonly srdStageByFlow: (ShaperStage | undefined)[] = [];
  /** ENA Express (SRD) state and counters of this card. */
  readonly srd: EnaExpress;
  /** Bytes and packets the card handed on per direction, per second (CloudWatch's source; always on). */
  readonly traffic = new EniTraffic();
  /** Where egress packets go once shaped (set by the lab: the fabric). */
  toFabric: (p: Packet) => void = () => {};
  /** Where ingress packets go once shaped (set by the host: its ENA device). */
  toHost: (p: Packet) => void = () => {};
  /**
   * Stage observations (the lab sets its probe and this host's index): nitro_egress holds a batch
   * from the card's receipt (flow setup, per-flow limit, IGW, bandwidth/PPS shapers) until it is
   * forwarded to the fabric; nitro_ingress from the fabric until the ENA device. Drops are queued.
   */
  probe = new Probe();
  probeHost = -1;
  /**
   * The host's side of this layer leaves nitro_ingress itself (the Xen PV path: the packet still
   * waits for dom0's netback after the VPC layer's shapers).
   */
  ingressLeftByHost = false;
  /** Decides whether an egress packet leaves through the internet gateway. */
  isInternetBound: (p: Packet) => boolean = () => false;
  /** Adjacency/mapping, conntrack and flow cache of this card. */
  readonly flows: FlowTable;
  /** Flow setup: the accelerated path and the slow-path server (flow-setup.ts). */
  private readonly setup: FlowSetup;
  readonly flowStats: FlowPathStats;
  /** The lab's VPC control plane and this card's ENI; null = no flow setup (bare card in unit tests). */
  private vpc: VpcState | null = null;
  private eni: Eni | null = null;

  constructor(
    private readonly sched: Scheduler,
    readonly cfg: NitroConfig,
    private readonly params: ParamValues,
    private readonly drops: DropCounters,
  ) {
    this.flows = new FlowTable(cfg.conntrackAllowance);
    this.setup = new FlowSetup(sched, cfg.hostName, params, this.flows, {
      proceed: (p, d) => (d === 'egress' ? this.egressShaped(p) : this.ingressStage.offer(p)),
      deny: (p, reason, d) =>
        d === 'egress'
          ? this.dropEgressHeld(p, p.count, reason)
          : this.drop(p, p.count, reason, 'nitro_ingress'),
      conntrackExceeded: (ip, n) => this.tally(CONNTRACK, ip, n),
    });
    this.flowStats = this.setup.stats;
    this.linkLocal = new TokenBucket(LINK_LOCAL_PPS_PER_ENI.value, params.linkLocalBucketPackets);
    this.fragmentBucket = new TokenBucket(
      EGRESS_FRAGMENT_PPS_PER_ENI.value,
      params.egressFragmentBucketPackets,
    );
    this.srd = new EnaExpress(
      sched,
      {
        supported: cfg.enaExpressSupported ?? false,
        srdPlacement: cfg.srdPlacement ?? false,
        fabricOneWayNs: cfg.fabricOneWayNs ?? 0,
      },
      params,
    );
    this.traffic.allowanceSource = () => {
      const c = this.counters();
      return [
        c.bw_in_allowance_exceeded,
        c.bw_out_allowance_exceeded,
        c.pps_allowance_exceeded,
        c.conntrack_allowance_exceeded,
        c.linklocal_allowance_exceeded,
        this.conntrackAvailable(),
      ];
    };
    const bucketS = params.bwBucketNs / 1e9;
    const over = params.nitroChargeOverheadBytes;
    const budget = cfg.ppsBidirectional ?? cfg.ppsAllowance;
    this.pps = new TokenBucket(budget, Math.max(1, budget * (params.ppsBucketNs / 1e9)));
    this.bwOut = new TokenBucket(cfg.peakBps / 8, (cfg.peakBps / 8) * bucketS);
    this.bwIn = new TokenBucket(cfg.peakBps / 8, (cfg.peakBps / 8) * bucketS);
    const hasCredits = cfg.burstCreditSeconds > 0 && cfg.baselineBps < cfg.peakBps;
    const cap = (cfg.peakBps - cfg.baselineBps) * cfg.burstCreditSeconds;
    this.creditsOut = hasCredits
      ? new CreditAccount(cfg.baselineBps, cfg.peakBps, cap, this.bwOut, params.bwBucketNs, sched)
      : null;
    this.creditsIn = hasCredits
      ? new CreditAccount(cfg.baselineBps, cfg.peakBps, cap, this.bwIn, params.bwBucketNs, sched)
      : null;
    const creditsOut = this.creditsOut;
    const creditsIn = this.creditsIn;
    // bandwidth buckets cost the IP bytes plus the charged overhead per packet; the PPS bucket 1
    this.bwOutB = shaperBucket(this.bwOut, over, 1, 'bw_out_allowance_exceeded', null, creditsOut);
    this.bwInB = shaperBucket(this.bwIn, over, 1, 'bw_in_allowance_exceeded', null, creditsIn);
    // The PPS allowance is one budget for both directions (AWS-ENAPERF "bidirectional PPS"). Each
    // direction is assured a share of it and borrows the rest while the other leaves it unused
    // (nitroPpsAssuredShare, assumed): an echo server saturated inbound still gets its replies out,
    // in ≈ out ≈ half the budget, as STRESSGRID measured (≈ 1 M echoes/s of m5.metal's 2.2 Mpps).
    const share = params.nitroPpsAssuredShare;
    const assured = () =>
      share > 0 ? new TokenBucket(budget * share, Math.max(1, this.pps.depth * share)) : null;
    // a direction's own ceiling where the budget for both is measured above one direction's figure
    const ceiling = () =>
      cfg.ppsBidirectional === undefined
        ? null
        : new TokenBucket(cfg.ppsAllowance, Math.max(1, cfg.ppsAllowance * (params.ppsBucketNs / 1e9)));
    this.ppsOut = shaperBucket(this.pps, 1, 0, 'pps_allowance_exceeded', assured(), null, ceiling());
    this.ppsIn = shaperBucket(this.pps, 1, 0, 'pps_allowance_exceeded', assured(), null, ceiling());
    // the ENA counters per interface (the driver reads ENI statistics): egress counts go to the
    // interface holding the source address, ingress to the one holding the destination
    this.bwOutB.tally = (p, n) => this.tallyFlow(BW_OUT, p, true, n);
    this.ppsOut.tally = (p, n) => this.tallyFlow(PPS, p, true, n);
    this.bwInB.tally = (p, n) => this.tallyFlow(BW_IN, p, false, n);
    this.ppsIn.tally = (p, n) => this.tallyFlow(PPS, p, false, n);
    this.fetchGate = new TxFetchGate(sched, this.ppsOut, (p, n) => this.tallyFlow(PPS, p, true, n));
    this.txGate = this.fetchGate.admit;
    // The card's own bandwidth, one serial stage each way AFTER the allowances (a shallow bucket):
    // the allowances meter what the instance may move, the card then carries what they let through.
    // Attribution rule: a packet held back by a documented allowance is counted in that allowance's
    // ENA counter; the card (lab-only card_bandwidth_exceeded) queues and drops only what the
    // allowances released faster than the card carries (a burst of an allowance's bucket beyond the
    // card's queue, or an allowance above the card, as c6in.32xlarge's 200 Gbps on one 170 Gbps
    // card). So where an allowance equals the card (m5/c5 at 25 Gbps on Nitro v2, c5n.18xlarge at 100
    // on v3) the allowance binds and its counter moves, as `ethtool -S` on AWS shows.
    const qNs = params.nitroShaperQueueNs;
    const qMin = params.nitroShaperMinQueuePackets;
    const cardStage = (next: (p: Packet) => void, drop: (p: Packet, n: number, r: DropReason) => void) => {
      const bps = cfg.cardBps;
      if (bps === undefined || !(bps > 0)) return null;
      const rate = bps / 8;
      const bucket = new TokenBucket(rate, (rate * params.nitroCardBucketNs) / 1e9);
      this.cardBuckets.push(bucket);
      return new ShaperStage(
        sched,
        [shaperBucket(bucket, over, 1, 'card_bandwidth_exceeded')],
        qNs,
        qMin,
        next,
        drop,
        params.nitroFlowQuantumBytes,
        params.nitroShaperFairBufferShare !== 0,
      );
    };
    const dropOut = (p: Packet, n: number, r: DropReason) => this.drop(p, n, r, 'nitro_egress');
    this.cardOutStage = cardStage((p) => this.toFabricSrd(p), dropOut);
    const cardOut = this.cardOutStage;
    this.egressStage = new ShaperStage(
      sched,
      cfg.txFetchGate === true ? [this.bwOutB] : [this.bwOutB, this.ppsOut],
      qNs,
      qMin,
      cardOut ?? ((p) => this.toFabricSrd(p)),
      dropOut,
      params.nitroFlowQuantumBytes,
      params.nitroShaperFairBufferShare !== 0,
    );
    const toHost = (p: Packet) => {
      if (!this.ingressLeftByHost)
        this.probe.sink?.leave(this.sched.now, this.probeHost, 'nitro_ingress', 0, p, -1);
      this.traffic.in(this.sched.now, p.count, p.count * p.sizeBytes);
      if (p.srd != null) this.srd.delivered(p);
      this.toHost(p);
    };
    const dropIn = (p: Packet, n: number, r: DropReason) => {
      // SRD: the sender retransmits what the ingress queue dropped (incast); TCP never sees the
      // loss. The probe sees a drop for the lab-only reason srd_retransmitted (not a loss: the
      // packet enters the sender's nitro_egress again when the loss is detected).
      if (p.srd != null && this.srd.lostAtIngress(p)) {
        this.probe.sink?.drop(
          this.sched.now,
          this.probeHost,
          'nitro_ingress',
          0,
          p,
          n,
          'srd_retransmitted',
          true,
        );
        return;
      }
      this.drop(p, n, r, 'nitro_ingress');
    };
    this.cardInStage = cardStage(toHost, dropIn);
    const cardIn = this.cardInStage;
    this.ingressStage = new ShaperStage(
      sched,
      [this.bwInB, this.ppsIn],
      qNs,
      qMin,
      cardIn ?? toHost,
      dropIn,
      params.nitroFlowQuantumBytes,
      params.nitroShaperFairBufferShare !== 0,
    );
    this.srd.onRequeue = (p) => this.probe.sink?.enter(this.sched.now, this.probeHost, 'nitro_egress', 0, p);
    const igw = new TokenBucket(cfg.igwLimitBps / 8, (cfg.igwLimitBps / 8) * bucketS);
    this.igwStage = new ShaperStage(
      sched,
      [shaperBucket(igw, over, 1, 'igw_limit_exceeded')],
      qNs,
      qMin,
      this.egressStage,
      (p, n, r) => this.drop(p, n, r, 'nitro_egress'),
      params.nitroFlowQuantumBytes,
      params.nitroShaperFairBufferShare !== 0,
    );
  }

  /**
   * Scale the instance's PPS budget from now on by `factor` (for the interfaces attached:
   * MODEL_PARAMS.nitroPpsExtraEniPenalty); each direction's assured share and ceiling follow it.
   */
  scalePpsBudget(factor: number): void {
    const now = this.sched.now;
    const budget = (this.cfg.ppsBidirectional ?? this.cfg.ppsAllowance) * factor;
    const depth = Math.max(1, budget * (this.params.ppsBucketNs / 1e9));
    this.pps.setRate(now, budget, depth);
    const share = this.params.nitroPpsAssuredShare;
    const own = this.cfg.ppsAllowance * factor;
    for (const b of [this.ppsOut, this.ppsIn]) {
      b.assured?.setRate(now, budget * share, Math.max(1, depth * share));
      b.ceiling?.setRate(now, own, Math.max(1, own * (this.params.ppsBucketNs / 1e9)));
    }
  }

  // ---------------------------------------------------------------- TX fetch gate (egress PPS)
  private readonly fetchGate: TxFetchGate;
  /** Set as the device's txGate when cfg.txFetchGate: may TX queue q fetch batch p now? */
  readonly txGate: (q: number, p: Packet) => boolean;
  /** The device: let TX queue q fetch its next batch now; returns its packets (0: nothing left). */
  get onTxGranted(): (q: number) => number {
    return this.fetchGate.onTxGranted;
  }
  set onTxGranted(f: (q: number) => number) {
    this.fetchGate.onTxGranted = f;
  }

  /** What holds TX queue q's ring now (TxFetchGate.heldBy); null without the gate. */
  txHeldBy(q: number): DropReason | null {
    return this.cfg.txFetchGate === true ? this.fetchGate.heldBy(q) : null;
  }

  // ---------------------------------------------------------------- link-local services
  /**
   * Addresses of the link-local services (Amazon DNS at 169.254.169.253 and VPC base + 2, IMDS,
   * Time Sync): answered by the card's side of the VPC, not filtered by security groups or NACLs,
   * and limited together to LINK_LOCAL_PPS_PER_ENI (1024 pps, documented) per ENI.
   */
  private readonly linkLocalIps = new Set<string>(Object.keys(LINK_LOCAL_SERVICES));
  /** Whether a flow (by id) goes to a link-local service: 1 yes, 2 no, unset unknown (asked once per flow). */
  private linkLocalByFlow: number[] = [];
  /** The shared link-local budget: 1024 packets/s, depth MODEL_PARAMS.linkLocalBucketPackets (assumed). */
  private readonly linkLocal: TokenBucket;
  private linkLocalExceeded = 0;
  /** Where packets to a link-local service go once admitted (set by the lab: its services). */
  toLinkLocal: (p: Packet) => void = () => {};

  /**
   * Charge a packet-rate budget one token per packet: the first packets that fit go on (`p` keeps
   * them), the rest are dropped with `reason`. Returns how many pass.
   */
  private admitPerPacket(b: TokenBucket, p: Packet, reason: DropReason, beforeFlowLimit = false): number {
    b.refill(this.sched.now);
    const pass = Math.max(0, Math.min(p.count, Math.floor(b.tokens)));
    b.tokens -= pass;
    const over = p.count - pass;
    if (over > 0) {
      const q = pass > 0 ? splitBatch(p, pass) : p;
      if (beforeFlowLimit) this.dropEgressHeld(q, over, reason);
      else this.drop(q, over, reason, 'nitro_egress');
    }
    return pass;
  }

  /** The link-local budget: what does not fit is dropped and counted. */
  private linkLocalEgress(p: Packet): void {
    const n = p.count;
    const pass = this.admitPerPacket(this.linkLocal, p, 'linklocal_allowance_exceeded');
    this.linkLocalExceeded += n - pass;
    if (n > pass) this.tally(LINK_LOCAL, p.flow.tuple.srcIp, n - pass);
    if (pass === 0) return;
    this.traffic.out(this.sched.now, p.count, p.count * p.sizeBytes);
    this.toLinkLocal(p);
  }

  /** A link-local service's answer, handed to the instance (not shaped, not filtered). */
  fromLinkLocal(p: Packet): void {
    this.traffic.in(this.sched.now, p.count, p.count * p.sizeBytes);
    // a PV host's backend leaves nitro_ingress when it delivers: enter it here for it
    if (this.ingressLeftByHost) this.probe.sink?.enter(this.sched.now, this.probeHost, 'nitro_ingress', 0, p);
    this.toHost(p);
  }

  /**
   * The egress fragment limit (ENA-BP, AWS-ENAPERF): 1024 IP fragments/s per ENI, depth
   * MODEL_PARAMS.egressFragmentBucketPackets (assumed); the excess is dropped and counted in
   * pps_allowance_exceeded. (The driver's enable_frag_bypass is not modelled.)
   */
  private readonly fragmentBucket: TokenBucket;
  private fragmentExceeded = 0;

  /** Charge the fragment budget; returns false when the whole batch was dropped (`p` keeps what passes). */
  private fragmentEgress(p: Packet): boolean {
    const n = p.count;
    const pass = this.admitPerPacket(this.fragmentBucket, p, 'pps_allowance_exceeded', true);
    this.fragmentExceeded += n - pass;
    if (n > pass) this.tally(PPS, p.flow.tuple.srcIp, n - pass);
    return pass > 0;
  }

  /** Connect the card to the VPC control plane: flow setup starts (the lab does this). */
  attachVpc(vpc: VpcState, eni: Eni): void {
    this.vpc = vpc;
    this.eni = eni;
    this.setup.attach(vpc, eni);
    this.linkLocalIps.add(vpc.resolverIp());
    this.linkLocalByFlow = [];
    this.srd.attach(vpc, eni);
    for (const peer of this.peers())
      if (!this.flows.adjacency.has(peer)) this.flows.adjacency.set(peer, 'Unknown');
  }

  /** The peers the slides list under "Adjacency": the IGW and the other ENIs. */
  peers(): string[] {
    const vpc = this.vpc;
    if (!vpc) return [];
    return ['IGW', ...vpc.enis.filter((e) => e !== this.eni).map((e) => `${e.eniId} (${e.instanceName})`)];
  }

  get vpcEni(): Eni | null {
    return this.eni;
  }

  /**
   * The card is done with `count` packets of batch `p` (sent on or dropped): the ENA device
   * completes their TX descriptors (set by the lab).
   */
  txComplete: (p: Packet, count: number) => void = () => {};

  /**
   * A packet handed over by the ENA device for transmission. Its TX completion is reported here,
   * or, when MODEL_PARAMS.nitroFlowLimitHoldsTxCompletion is 1, once it has passed its flow's
   * limiter or was dropped before it (`held` below): a flow over its limit then backs up into its
   * host (ring, TCP Small Queues, socket buffer) instead of filling a queue in the card.
   */
  egress(p: Packet): void {
    this.probe.sink?.enter(this.sched.now, this.probeHost, 'nitro_egress', 0, p);
    this.egressEntered(p);
  }

  /**
   * A packet whose nitro_egress stage a component before the VPC layer already entered (the Xen PV
   * path's netback, which also completed its TX: see `txComplete` of a PV host).
   */
  egressEntered(p: Packet): void {
    const id = p.flow.id;
    let ll = this.linkLocalByFlow[id];
    if (ll === undefined) {
      ll = this.linkLocalIps.has(p.flow.tuple.dstIp) ? 1 : 2;
      this.linkLocalByFlow[id] = ll;
    }
    if (ll === 1) {
      this.txComplete(p, p.count);
      this.linkLocalEgress(p);
      return;
    }
    if (this.params.nitroFlowLimitHoldsTxCompletion === 0) this.txComplete(p, p.count);
    if (p.frag != null && !this.fragmentEgress(p)) return;
    if (this.vpc !== null && !this.fastPath(p)) {
      this.setup.slowPath(p, 'egress');
      return;
    }
    this.egressShaped(p);
  }

  /** After flow setup: the per-flow limit and on. */
  private egressShaped(p: Packet): void {
    const srd = this.vpc !== null && this.srd.egress(p);
    const stage =
      (srd ? this.srdStageByFlow[p.flow.id] : this.stageByFlow[p.flow.id]) ?? this.newFlowStage(p, srd);
    stage.offer(p);
  }

  /** The per-flow limiter of `p`'s flow, made at its first packet (apart: egressShaped stays small). */
  private newFlowStage(p: Packet, srd: boolean): ShaperStage {
    const internet = this.isInternetBound(p);
    const rate =
      (srd
        ? (this.cfg.srdFlowLimitBps ?? this.cfg.flowLimitBps)
        : internet
          ? this.cfg.internetFlowLimitBps
          : this.cfg.flowLimitBps) / 8;
    const bucket = new TokenBucket(rate, rate * (this.params.bwBucketNs / 1e9));
    const over = this.params.nitroChargeOverheadBytes;
    const next = internet ? this.igwStage : this.egressStage;
    const holds = this.params.nitroFlowLimitHoldsTxCompletion !== 0;
    const stage = new ShaperStage(
      this.sched,
      [shaperBucket(bucket, over, 1, 'flow_limit_exceeded')],
      this.params.nitroShaperQueueNs,
      this.params.nitroShaperMinQueuePackets,
      holds
        ? (q: Packet) => {
            this.txComplete(q, q.count);
            next.offer(q);
          }
        : next,
      (q, n, r) => this.dropEgressHeld(q, n, r),
    );
    if (srd) this.srdStageByFlow[p.flow.id] = stage;
    else {
      this.flowStages.set(p.flow.id, stage);
      this.stageByFlow[p.flow.id] = stage;
    }
    return stage;
  }

  /**
   * The connection of flow `flowId` is gone (both ends closed): its per-flow stage and its queues
   * in the shared stages are let go when they hold nothing (a packet of it arriving later would
   * find a fresh per-flow stage, its bucket full, as the card's flow entry would be new).
   */
  releaseFlow(flowId: number): void {
    for (const byFlow of [this.stageByFlow, this.srdStageByFlow]) {
      const st = byFlow[flowId];
      if (st && st.queuedPackets === 0) {
        byFlow[flowId] = undefined;
        if (byFlow === this.stageByFlow) this.flowStages.delete(flowId);
      }
    }
    for (const st of [
      this.egressStage,
      this.ingressStage,
      this.igwStage,
      this.cardOutStage,
      this.cardInStage,
    ])
      st?.releaseFlow(flowId);
  }

  /** Shaped egress to the fabric; an SRD packet first pays the SRD one-way overhead (assumed). */
  private toFabricSrd(p: Packet): void {
    if (this.vpc !== null && this.srd.isSrd(p, true)) this.srd.send(p, this.forwardFn);
    else this.forward(p);
  }

  private readonly forwardFn = (p: Packet) => this.forward(p);

  /** The batch leaves the card for the fabric (the end of the probe's nitro_egress). */
  private forward(p: Packet): void {
    this.probe.sink?.leave(this.sched.now, this.probeHost, 'nitro_egress', 0, p, -1);
    this.traffic.out(this.sched.now, p.count, p.count * p.sizeBytes);
    this.toFabric(p);
  }

  /** A packet arriving from the VPC fabric. */
  ingress(p: Packet): void {
    this.probe.sink?.enter(this.sched.now, this.probeHost, 'nitro_ingress', 0, p);
    if (p.srd != null) {
      this.srd.arrived(p);
      this.srd.ingress(p);
    }
    if (this.vpc !== null && !this.fastPath(p)) {
      this.setup.slowPath(p, 'ingress');
      return;
    }
    this.ingressStage.offer(p);
  }

  /** The accelerated path: a Complete cache entry of the current epoch (and a live conntrack entry). */
  private fastPath(p: Packet): boolean {
    const e = this.flows.cacheByFlow[p.flow.id];
    if (e === undefined || e.state !== 'Complete' || e.epoch !== this.vpc!.mutationEpoch) return false;
    // never accelerated (AWS-NITROPERF): ICMP, and fragments, processed "at the standard rate"
    if (p.flow.tuple.proto === 'icmp' || p.frag != null) return false;
    const ct = e.ct;
    const now = this.sched.now;
    if (ct !== null) {
      if (now - ct.lastSeenNs > ct.timeoutNs) return false;
      ct.lastSeenNs = now;
      if (ct.udpStream !== true && ct.tuple.proto === 'udp') this.setup.noteUdp(ct, p);
      else if ((p.flags & TCP_CLOSE_FLAGS) !== 0) this.setup.noteTcp(ct, p);
    }
    this.flowStats.acceleratedPackets += p.count;
    return true;
  }

  /** The last decision of the full path on this card (for `lab nitro show`). */
  get lastDecision(): FlowSetup['lastDecision'] {
    return this.setup.lastDecision;
  }

  /** The host link's bandwidth each way now, bits/s (Infinity: the card has no figure of its own). */
  get linkBps(): number {
    const b = this.cardBuckets[0];
    return b === undefined ? Number.POSITIVE_INFINITY : b.ratePerSec * 8;
  }

  /**
   * The host link's bandwidth after a start on another path (a Xen instance switched between the
   * PV device, the 82599 VF and ENA: its link is the 10 GbE port or none of its own); Infinity = no
   * limit of the link's own. Only a card built with a link stage (cfg.cardBps) has one to set; the
   * bucket starts full, as a new boot's would.
   */
  setCardBps(bps: number): void {
    const rate = bps / 8;
    const depth = Number.isFinite(rate)
      ? (rate * this.params.nitroCardBucketNs) / 1e9
      : Number.POSITIVE_INFINITY;
    for (const b of this.cardBuckets) {
      b.setRate(this.sched.now, rate, depth);
      b.tokens = depth;
    }
  }

  /**
   * What holds the card's queue in one direction now (the path view's label): the reason of the
   * shaping stage with the most packets waiting (a flow's per-flow limit, the bandwidth or PPS
   * allowance, the card's own bandwidth); null when nothing waits.
   */
  heldBy(direction: 'egress' | 'ingress'): DropReason | null {
    const stages =
      direction === 'egress'
        ? [
            ...this.flowStages.values(),
            ...this.srdStageByFlow,
            this.igwStage,
            this.egressStage,
            this.cardOutStage,
          ]
        : [this.ingressStage, this.cardInStage];
    let held: DropReason | null = null;
    let most = 0;
    for (const st of stages)
      if (st && st.queuedPackets > most) {
        most = st.queuedPackets;
        held = st.heldBy;
      }
    return held;
  }

  /** conntrack_allowance_available: the allowance less the tracked entries. */
  conntrackAvailable(): number {
    return this.flows.available(this.sched.now);
  }

  /** The interface (device index) holding an address of this instance; the lab sets it. 0 otherwise. */
  deviceOf: (ip: string) => number = () => 0;
  /** Per interface, the allowance counters; the instance's are their sums. */
  private readonly perDevice = new InterfaceCounters();
  /**
   * deviceOf of a flow's source (egress) or destination (ingress) address, asked once per flow (a
   * queued packet is counted on every offer): forgotten when the lab moves an address (addressesMoved).
   */
  private devBySrc: number[] = [];
  private devByDst: number[] = [];

  /** The lab gave or took an address: the interfaces noted per flow are asked again. */
  addressesMoved(): void {
    this.devBySrc = [];
    this.devByDst = [];
  }

  /** tally for packet `p`'s source (egress) or destination (ingress) address. */
  private tallyFlow(k: number, p: Packet, src: boolean, n: number): void {
    const byFlow = src ? this.devBySrc : this.devByDst;
    const id = p.flow.id;
    let d = byFlow[id];
    if (d === undefined) {
      d = this.deviceOf(src ? p.flow.tuple.srcIp : p.flow.tuple.dstIp);
      byFlow[id] = d;
    }
    this.perDevice.add(k, d, n);
  }

  private tally(k: number, ip: string, n: number): void {
    this.perDevice.add(k, this.deviceOf(ip), n);
  }

  /** The ENA allowance counters of one interface (`ethtool -S ethN`: ENI statistics). */
  countersOf(device: number): NitroCounters {
    return this.perDevice.of(device);
  }

  counters(): NitroCounters {
    return {
      bw_in_allowance_exceeded: this.bwInB.exceeded,
      bw_out_allowance_exceeded: this.bwOutB.exceeded,
      pps_allowance_exceeded: this.ppsOut.exceeded + this.ppsIn.exceeded + this.fragmentExceeded,
      conntrack_allowance_exceeded: this.flows.allowanceExceeded,
      linklocal_allowance_exceeded: this.linkLocalExceeded,
    };
  }

  /** Per-flow limiter backlog and peak, for the lab's summaries. */
  flowStageStats(): Array<{ flowId: number; backlog: number; peak: number; exceeded: number }> {
    return [...this.flowStages.entries()].map(([flowId, s]) => ({
      flowId,
      backlog: s.backlogPackets,
      peak: s.peakQueuedPackets,
      exceeded: s.buckets[0]!.exceeded,
    }));
  }

  /** An egress drop before the flow's limiter: the packets' TX completion is reported now if it was held. */
  private dropEgressHeld(p: Packet, count: number, reason: DropReason): void {
    if (this.params.nitroFlowLimitHoldsTxCompletion !== 0) this.txComplete(p, count);
    this.drop(p, count, reason, 'nitro_egress');
  }

  private drop(p: Packet, count: number, reason: DropReason, stage: 'nitro_egress' | 'nitro_ingress'): void {
    this.drops.add(this.cfg.hostName, stage, reason, count, count * p.sizeBytes, p.flow.id);
    if (p.srd != null && stage === 'nitro_ingress') this.srd.droppedForGood(p, count);
    this.probe.sink?.drop(this.sched.now, this.probeHost, stage, 0, p, count, reason, true);
  }
}
