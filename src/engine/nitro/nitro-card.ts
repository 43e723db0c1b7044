/**
 * The Nitro card of one instance: the shapers between the ENA and the VPC fabric.
 *
 * Egress (host → VPC):  per-flow limit → [internet-gateway limit] → instance bw_out + PPS → fabric
 * Ingress (VPC → host): instance bw_in + PPS → ENA RX queue (RSS, in the host's device)
 *
 * - Per-flow limit (AWS-BW): 10 Gbps inside a cluster placement group, 5 Gbps otherwise; one
 *   bucket and queue per flow (5-tuple, one direction), applied at the sender's card. AWS exposes
 *   no counter for it: drops count under the lab-only reason `flow_limit_exceeded`.
 * - Instance bandwidth (AWS-BW): separate in/out buckets at peak rate while credits last, then at
 *   baseline (CreditAccount). `bw_in_allowance_exceeded` / `bw_out_allowance_exceeded` count packets
 *   queued or dropped by them.
 * - PPS allowance (AWS-ENAPERF: "bidirectional PPS"): ONE bucket shared by egress and ingress.
 * - Internet gateway (AWS-BW): traffic to the IGW is limited to 5 Gbps (< 32 vCPUs) or
 *   max(50% of instance bandwidth, 5 Gbps).
 * Every shaper queues then drops (ShaperStage).
 */
import type { Scheduler } from '../core/scheduler';
import type { DropCounters, DropReason } from '../model/drop-reasons';
import type { Packet } from '../model/packet';
import { TokenBucket } from '../model/token-bucket';
import type { ParamValues } from '../params';
import { CreditAccount } from './credits';
import { type ShaperBucket, ShaperStage, shaperBucket } from './shaper';

export interface NitroConfig {
  hostName: string;
  baselineBps: number;
  peakBps: number;
  /** Seconds a full credit bucket sustains peak above baseline; 0 = no credits (fixed bandwidth). */
  burstCreditSeconds: number;
  ppsAllowance: number;
  /** Per-flow limit for flows to peers in the VPC (depends on placement). */
  flowLimitBps: number;
  /** Per-flow limit for flows through the internet gateway. */
  internetFlowLimitBps: number;
  igwLimitBps: number;
}

export interface NitroCounters {
  bw_in_allowance_exceeded: number;
  bw_out_allowance_exceeded: number;
  pps_allowance_exceeded: number;
  conntrack_allowance_exceeded: number;
  linklocal_allowance_exceeded: number;
}

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
  private readonly flowStages = new Map<number, ShaperStage>();
  /** The same stages by flow id, for the per-packet lookup (flow ids are small integers). */
  private readonly stageByFlow: (ShaperStage | undefined)[] = [];
  /** Where egress packets go once shaped (set by the lab: the fabric). */
  toFabric: (p: Packet) => void = () => {};
  /** Where ingress packets go once shaped (set by the host: its ENA device). */
  toHost: (p: Packet) => void = () => {};
  /** Decides whether an egress packet leaves through the internet gateway. */
  isInternetBound: (p: Packet) => boolean = () => false;

  constructor(
    private readonly sched: Scheduler,
    readonly cfg: NitroConfig,
    private readonly params: ParamValues,
    private readonly drops: DropCounters,
  ) {
    const bucketS = params.bwBucketNs / 1e9;
    const over = params.nitroChargeOverheadBytes;
    const bytesOf = (p: Packet) => p.sizeBytes + over;
    this.pps = new TokenBucket(cfg.ppsAllowance, Math.max(1, cfg.ppsAllowance * (params.ppsBucketNs / 1e9)));
    this.bwOut = new TokenBucket(cfg.peakBps / 8, (cfg.peakBps / 8) * bucketS);
    this.bwIn = new TokenBucket(cfg.peakBps / 8, (cfg.peakBps / 8) * bucketS);
    const hasCredits = cfg.burstCreditSeconds > 0 && cfg.baselineBps < cfg.peakBps;
    const cap = (cfg.peakBps - cfg.baselineBps) * cfg.burstCreditSeconds;
    this.creditsOut = hasCredits
      ? new CreditAccount(cfg.baselineBps, cfg.peakBps, cap, this.bwOut, params.bwBucketNs)
      : null;
    this.creditsIn = hasCredits
      ? new CreditAccount(cfg.baselineBps, cfg.peakBps, cap, this.bwIn, params.bwBucketNs)
      : null;
    const creditsOut = this.creditsOut;
    const creditsIn = this.creditsIn;
    // bandwidth buckets cost the IP bytes plus the charged overhead per packet; the PPS bucket 1
    this.bwOutB = shaperBucket(
      this.bwOut,
      over,
      1,
      'bw_out_allowance_exceeded',
      creditsOut ? (p, now) => creditsOut.charge(p.count * bytesOf(p) * 8, now) : undefined,
    );
    this.bwInB = shaperBucket(
      this.bwIn,
      over,
      1,
      'bw_in_allowance_exceeded',
      creditsIn ? (p, now) => creditsIn.charge(p.count * bytesOf(p) * 8, now) : undefined,
    );
    this.ppsOut = shaperBucket(this.pps, 1, 0, 'pps_allowance_exceeded');
    this.ppsIn = shaperBucket(this.pps, 1, 0, 'pps_allowance_exceeded');
    const qNs = params.nitroShaperQueueNs;
    const qMin = params.nitroShaperMinQueuePackets;
    this.egressStage = new ShaperStage(
      sched,
      [this.bwOutB, this.ppsOut],
      qNs,
      qMin,
      (p) => this.toFabric(p),
      (p, n, r) => this.drop(p, n, r, 'nitro_egress'),
      params.nitroFlowQuantumBytes,
    );
    this.ingressStage = new ShaperStage(
      sched,
      [this.bwInB, this.ppsIn],
      qNs,
      qMin,
      (p) => this.toHost(p),
      (p, n, r) => this.drop(p, n, r, 'nitro_ingress'),
      params.nitroFlowQuantumBytes,
    );
    const igw = new TokenBucket(cfg.igwLimitBps / 8, (cfg.igwLimitBps / 8) * bucketS);
    this.igwStage = new ShaperStage(
      sched,
      [shaperBucket(igw, over, 1, 'igw_limit_exceeded')],
      qNs,
      qMin,
      (p) => this.egressStage.offer(p),
      (p, n, r) => this.drop(p, n, r, 'nitro_egress'),
      params.nitroFlowQuantumBytes,
    );
  }

  /** A packet handed over by the ENA device for transmission. */
  egress(p: Packet): void {
    let stage = this.stageByFlow[p.flow.id];
    if (!stage) {
      const internet = this.isInternetBound(p);
      const rate = (internet ? this.cfg.internetFlowLimitBps : this.cfg.flowLimitBps) / 8;
      const bucket = new TokenBucket(rate, rate * (this.params.bwBucketNs / 1e9));
      const over = this.params.nitroChargeOverheadBytes;
      const after = internet
        ? (q: Packet) => this.igwStage.offer(q)
        : (q: Packet) => this.egressStage.offer(q);
      stage = new ShaperStage(
        this.sched,
        [shaperBucket(bucket, over, 1, 'flow_limit_exceeded')],
        this.params.nitroShaperQueueNs,
        this.params.nitroShaperMinQueuePackets,
        after,
        (q, n, r) => this.drop(q, n, r, 'nitro_egress'),
      );
      this.flowStages.set(p.flow.id, stage);
      this.stageByFlow[p.flow.id] = stage;
    }
    stage.offer(p);
  }

  /** A packet arriving from the VPC fabric. */
  ingress(p: Packet): void {
    this.ingressStage.offer(p);
  }

  counters(): NitroCounters {
    return {
      bw_in_allowance_exceeded: this.bwInB.exceeded,
      bw_out_allowance_exceeded: this.bwOutB.exceeded,
      pps_allowance_exceeded: this.ppsOut.exceeded + this.ppsIn.exceeded,
      conntrack_allowance_exceeded: 0,
      linklocal_allowance_exceeded: 0,
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

  private drop(p: Packet, count: number, reason: DropReason, stage: 'nitro_egress' | 'nitro_ingress'): void {
    this.drops.add(this.cfg.hostName, stage, reason, count, count * p.sizeBytes, p.flow.id);
  }
}
