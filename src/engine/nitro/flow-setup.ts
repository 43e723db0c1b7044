/**
 * A Nitro card's flow setup (NET402 "Flow Setup"): a packet whose flow has no Complete cache entry
 * of the current VPC epoch (the card's fast path, NitroCard.fastPath: first packet, a VPC change
 * since, ICMP, a fragment) queues on the card's slow-path server, is evaluated against routes,
 * NACLs and security groups, opens a conntrack entry when tracked, and installs both directions.
 * Sources: NET402, AWS-NITROPERF, AWS-CT (docs/domain-facts.md §2.6, §2.9).
 */
import type { Scheduler } from '../core/scheduler';
import type { DropReason } from '../model/drop-reasons';
import { type Packet, reverseTuple } from '../model/packet';
import type { ParamValues } from '../model/params';
import {
  type Eni,
  evaluateFlow,
  evaluateSide,
  type FlowStage,
  flowIdleTimeoutS,
  type StageDecision,
  trackingDecision,
  type VpcState,
} from '../vpc';
import {
  type ConntrackEntry,
  type FlowCacheEntry,
  type FlowTable,
  noteTcpFlags,
  noteUdpPacket,
  tupleKey,
} from './flow-table';
import type { FlowPathStats } from './nitro-config';

type Direction = 'egress' | 'ingress';

const EGRESS_STAGES: readonly FlowStage[] = ['route', 'nacl-out', 'sg-out'];
const INGRESS_STAGES: readonly FlowStage[] = ['nacl-in', 'sg-in'];

function stageDropReason(s: FlowStage): DropReason {
  return s === 'route' ? 'vpc_route' : s === 'nacl-out' || s === 'nacl-in' ? 'nacl_deny' : 'sg_deny';
}

/** What the card does with a packet once flow setup has decided. */
export interface SetupOutcomes {
  /** On to the shapers (egress: the flow's limit; ingress: the ingress allowances). */
  proceed(p: Packet, direction: Direction): void;
  /** Dropped for `reason` (a VPC decision, the conntrack allowance). */
  deny(p: Packet, reason: DropReason, direction: Direction): void;
  /** Count `n` packets over the conntrack allowance on the interface holding `ip`. */
  conntrackExceeded(ip: string, n: number): void;
}

export class FlowSetup {
  /** The lab's VPC control plane and the card's ENI; null = no flow setup (bare card in unit tests). */
  private vpc: VpcState | null = null;
  private eni: Eni | null = null;
  /** When the slow-path server is next free. */
  private slowFreeAtNs = 0;
  readonly stats: FlowPathStats = {
    slowPathPackets: 0,
    acceleratedPackets: 0,
    flowSetups: 0,
    vpcDeniedPackets: 0,
    fragmentPackets: 0,
  };
  /** The last decision of the full path on this card (for `lab nitro show`). */
  lastDecision: {
    atNs: number;
    tuple: string;
    direction: Direction;
    stages: StageDecision[];
  } | null = null;

  constructor(
    private readonly sched: Scheduler,
    private readonly hostName: string,
    private readonly params: ParamValues,
    private readonly flows: FlowTable,
    private readonly out: SetupOutcomes,
  ) {}

  attach(vpc: VpcState, eni: Eni): void {
    this.vpc = vpc;
    this.eni = eni;
  }

  /** UDP stream promotion (AWS-CT): the opener is whoever sent the connection's first packet. */
  noteUdp(ct: ConntrackEntry, p: Packet): void {
    const fromOpener = p.flow.tuple.srcIp === ct.tuple.srcIp && p.flow.tuple.srcPort === ct.tuple.srcPort;
    noteUdpPacket(ct, fromOpener, this.vpc!.timeouts(this.eni!).udpStreamS * 1e9);
  }

  /** FIN / RST of a tracked TCP connection (not of a tunnel's outer flow, whose flags are the inner segment's). */
  noteTcp(ct: ConntrackEntry, p: Packet): void {
    if (ct.tuple.proto !== 'tcp' || p.inner != null) return;
    const fromOpener = p.flow.tuple.srcIp === ct.tuple.srcIp && p.flow.tuple.srcPort === ct.tuple.srcPort;
    noteTcpFlags(ct, p.flags, fromOpener, this.params.conntrackClosedLingerNs);
  }

  /** Queue `p` on the slow-path server for `costNs`, then let it continue. */
  private serveSlow(p: Packet, costNs: number, direction: Direction, done?: () => void): void {
    const now = this.sched.now;
    this.slowFreeAtNs = Math.max(now, this.slowFreeAtNs) + costNs;
    this.sched.at(this.slowFreeAtNs, () => {
      done?.();
      this.out.proceed(p, direction);
    });
  }

  /** The full processing path (flow-cache miss, stale epoch, ICMP). */
  slowPath(p: Packet, direction: Direction): void {
    const vpc = this.vpc!;
    const table = this.flows;
    const now = this.sched.now;
    const t = p.flow.tuple;
    const epoch = vpc.mutationEpoch;
    // ICMP and fragments are never accelerated: every packet pays the full path (AWS-NITROPERF).
    // A fragment is evaluated and tracked under its datagram's 5-tuple, as if the card matched
    // later fragments (which carry no ports) to the first by IP ID; AWS does not document how.
    const icmp = t.proto === 'icmp' || p.frag != null;
    if (p.frag != null) this.stats.fragmentPackets += p.count;
    const existing = table.cache.get(tupleKey(t));
    if (existing !== undefined && existing.epoch === epoch && !icmp) {
      const ct = existing.ct;
      const live = ct === null || table.connection(t, now) === ct;
      if (live && existing.state === 'Complete') {
        // installed by the other direction's setup: only the flow-id shortcut was missing
        if (ct !== null) {
          ct.lastSeenNs = now;
          if (ct.tuple.proto === 'udp') this.noteUdp(ct, p);
          else this.noteTcp(ct, p);
        }
        table.cacheByFlow[p.flow.id] = existing;
        this.stats.acceleratedPackets += p.count;
        this.out.proceed(p, direction);
        return;
      }
      if (live) {
        // Pending: behind its flow's first packet on the slow-path server, at no extra cost
        table.cacheByFlow[p.flow.id] = existing;
        this.stats.acceleratedPackets += p.count;
        this.serveSlow(p, 0, direction);
        return;
      }
    }

    const srcName = direction === 'egress' ? this.hostName : this.sourceName(t.srcIp);
    if (srcName === null) {
      this.out.proceed(p, direction); // not from a modelled ENI or the client: nothing to evaluate
      return;
    }
    const decision = evaluateFlow(vpc, srcName, t.dstIp, t);
    let ct = table.connection(t, now);
    const mine = direction === 'egress' ? EGRESS_STAGES : INGRESS_STAGES;
    const stages = decision.stages.filter((s) => mine.includes(s.stage));
    if (direction === 'ingress' && stages.length === 0) stages.push(...this.ingressStagesOf(t));
    this.lastDecision = { atNs: now, tuple: tupleKey(t), direction, stages };
    this.stats.slowPathPackets += icmp ? p.count : 1;
    for (const s of stages) {
      if (s.result !== 'deny' && s.result !== 'drop') continue;
      // stateful SG: a tracked connection's packets (either direction) pass whatever the rules say now
      if ((s.stage === 'sg-out' || s.stage === 'sg-in') && ct !== undefined) continue;
      table.uninstall(t, p.flow.id);
      this.stats.vpcDeniedPackets += p.count;
      this.out.deny(p, stageDropReason(s.stage), direction);
      return;
    }
    // A re-evaluated untracked connection stays untracked: its rules decide, and it is cut when they
    // no longer allow it (AWS-CT). Only a new connection's first packet opens a conntrack entry.
    const untrackedBefore = existing !== undefined && existing.ct === null;
    if (ct === undefined && !untrackedBefore) {
      const local = this.localEni(direction === 'egress' ? t.srcIp : t.dstIp);
      const track = trackingDecision(vpc.groups(local.securityGroups), t, direction);
      if (track.tracked) {
        if (!table.hasRoom(now)) {
          table.allowanceExceeded += p.count;
          this.out.conntrackExceeded(direction === 'egress' ? t.srcIp : t.dstIp, p.count);
          table.uninstall(t, p.flow.id);
          this.out.deny(p, 'conntrack_allowance_exceeded', direction);
          return;
        }
        ct = {
          tuple: t,
          opened: direction,
          state: 'Invalid',
          tracked: true,
          reason: track.reason,
          timeoutNs: flowIdleTimeoutS(vpc.timeouts(local), t.proto) * 1e9,
          lastSeenNs: now,
        };
        table.addConnection(ct);
      }
    } else if (ct !== undefined) {
      ct.lastSeenNs = now;
    }
    if (ct !== undefined && t.proto === 'udp') this.noteUdp(ct, p);
    else if (ct !== undefined) this.noteTcp(ct, p);
    const conn: ConntrackEntry | null = ct ?? null;
    const peer = this.peerLabel(direction === 'egress' ? t.dstIp : t.srcIp);
    if (peer !== null) table.adjacency.set(peer, 'IP-Address');
    const fwd = table.install(t, direction, true, 'Pending', epoch, conn, now);
    // A new connection installs both directions (the slides' Web→App and App→Web). A re-evaluation
    // after a VPC mutation refreshes only this direction: the other one is re-evaluated by its own
    // next packet (an untracked reply is allowed by the rules, not by state).
    const revOld = existing !== undefined ? table.cache.get(tupleKey(reverseTuple(t))) : undefined;
    const rev =
      revOld ??
      table.install(
        reverseTuple(t),
        direction === 'egress' ? 'ingress' : 'egress',
        false,
        'Pending',
        epoch,
        conn,
        now,
      );
    table.cacheByFlow[p.flow.id] = fwd;
    if (p.count > 1 && !icmp) this.stats.acceleratedPackets += p.count - 1;
    const cost =
      (this.params.nitroSlowPathNs + this.params.nitroSlowPathPerSgRuleNs * this.sgRuleCount()) *
      (icmp ? p.count : 1);
    this.serveSlow(p, cost, direction, () => this.completeSetup(fwd, rev, conn));
  }

  private completeSetup(fwd: FlowCacheEntry, rev: FlowCacheEntry, ct: ConntrackEntry | null): void {
    fwd.state = 'Complete';
    rev.state = 'Complete';
    if (ct !== null && ct.state === 'Invalid') ct.state = 'Established';
    this.stats.flowSetups++;
  }

  /**
   * This instance's interface holding `ip` (a secondary ENI's own groups and subnet apply to what it
   * sends and receives), else the primary one. One flow table serves all of the instance's
   * interfaces (AWS keeps one per ENI; the lab's conntrack allowance is the instance's).
   */
  private localEni(ip: string): Eni {
    const e = this.vpc!.eniByIp(ip);
    return e !== undefined && e.instanceName === this.hostName ? e : this.eni!;
  }

  private ingressStagesOf(t: Packet['flow']['tuple']): StageDecision[] {
    const vpc = this.vpc!;
    const eni = this.localEni(t.dstIp);
    const src = vpc.eniByIp(t.srcIp);
    const sameSubnet = src !== undefined && src.subnetId === eni.subnetId;
    return evaluateSide(vpc, 'ingress', eni, src?.securityGroups ?? [], sameSubnet, t).stages;
  }

  private sourceName(ip: string): string | null {
    const vpc = this.vpc!;
    const e = vpc.eniByIp(ip);
    if (e) return e.instanceName;
    return vpc.client ? vpc.client.name : null;
  }

  private peerLabel(ip: string): string | null {
    const e = this.vpc!.eniByIp(ip);
    if (e === this.eni) return null;
    return e ? `${e.eniId} (${e.instanceName})` : 'IGW';
  }

  /** Rules of every SG of the ENI, inbound + outbound (the work AWS says grows with them). */
  private sgRuleCount(): number {
    let n = 0;
    for (const g of this.vpc!.groups(this.eni!.securityGroups))
      n += g.IpPermissions.length + g.IpPermissionsEgress.length;
    return n;
  }
}
