/**
 * The lab: one simulation built from a validated scenario. It owns the scheduler, the instances
 * (Host + ENA device + Nitro card each), the VPC fabric between them, and the drop counters.
 *
 * Guarantees: a lab is a pure function of its scenario (seed included): the same scenario and the
 * same commands give the same results byte for byte. Nothing here reads a clock or Math.random.
 */
import {
  effectiveQueueCount,
  profiledSpec,
  IXGBEVF,
  NETFRONT,
  type NetworkPath,
  networkPath,
  getInstanceType,
  type InstanceTypeSpec,
  internetGatewayBandwidthGbps,
  MTU_BYTES,
  NITRO_CARD_BANDWIDTH_GBPS,
  PER_FLOW_LIMIT_GBPS,
} from '../../catalog';
import type { Placement, Scenario } from '../../scenario/schema';
import { Rng, hashString, mix32 } from '../core/rng';
import { Scheduler } from '../core/scheduler';
import { Probe, type ProbeSink } from '../model/probe';
import { LAB_EPOCH_UNIX_S, parseIso8601 } from '../../lib/time';
import type { TraceEvent, TraceSink } from '../model/trace';
import { Vcpu } from '../host/cpu';
import type { RssHashFunction } from '../host/device-view';
import { EnaDevice, type EnaDeviceConfig } from '../host/ena-device';
import { XenNetback } from '../host/xen-netback';
import { Host } from '../host/host';
import type { QdiscManager } from '../host/qdisc/tree';
import type { QdiscContext } from '../host/qdisc/types';
import { enaRxHash } from '../host/rss';
import type { HostLinks } from '../metrics/link-spread';
import type { MetricsRecorder } from '../metrics/recorder';
import { type DropReason, DropCounters } from '../model/drop-reasons';
import {
  ETH_WIRE_OVERHEAD_BYTES,
  type FiveTuple,
  type Flow,
  type L4Proto,
  type Packet,
} from '../model/packet';
import { NitroCard } from '../nitro/nitro-card';
import { type ParamValues, resolveParams } from '../model/params';
import { LabFiles } from './files';
import { LinkLocalServices } from '../vpc/link-local';
import { interfaceHardware } from '../vpc/interfaces';
import { routeLookup } from '../vpc/rules';
import { type VpcState, vpcState } from '../vpc/state';

export interface Instance {
  name: string;
  spec: InstanceTypeSpec;
  host: Host;
  /** The host's VPC layer: the Nitro card, or on a Xen host the layer AWS never described (see ./xen). */
  nitro: NitroCard;
  rng: Rng;
  /** Enhanced networking as launched (or as set while stopped, from the next start). */
  enhancedNetworking: boolean;
  /** The network path the instance runs (catalog networkPath of its type and setting). */
  path: NetworkPath;
  /** dom0's netback on the Xen PV path, else null. */
  backend: XenNetback | null;
  /** Stopped by `aws ec2 stop-instances` (its network path is down until it starts). */
  stopped: boolean;
  /**
   * The instance attributes behind enhanced networking (DescribeInstanceAttribute enaSupport,
   * sriovNetSupport), as launched from the scenario and changed while stopped; they take effect at
   * the next start.
   */
  attrs: { enaSupport: boolean; sriovNetSupport: boolean };
}

/** The path a start gives a type with these attributes (a Nitro type needs enaSupport to start at all). */
export function pathOfAttributes(
  spec: InstanceTypeSpec,
  attrs: { enaSupport: boolean; sriovNetSupport: boolean },
): NetworkPath {
  if (spec.hypervisor.value === 'nitro') return 'nitro';
  const en = spec.enhancedNetworking.value;
  if (en === 'ena' && attrs.enaSupport) return 'xen-ena';
  if (en === 'sriov' && attrs.sriovNetSupport) return 'xen-sriov';
  return 'xen-pv';
}

/** TX fetch gate keys on a card with several devices: device index × TXQ_KEY + queue. */
const TXQ_KEY = 4096;

export type QdiscTreeFactory = (ctx: QdiscContext, defaultQdisc: 'fq_codel' | 'pfifo_fast') => QdiscManager;

/**
 * The interface index a packet crosses on `inst`: sent, the one holding its source address (a
 * forwarded packet: eth0); received, the one the fabric delivered its flow to.
 */
export function captureDevice(lab: Lab, inst: Instance, p: Packet, tx: boolean): number {
  if (inst.host.ifaces.length === 1) return 0;
  if (tx) return lab.resolve(p.flow.tuple.srcIp) === inst ? lab.deviceOfAddress(p.flow.tuple.srcIp) : 0;
  return inst.host.rxDevByFlow[p.flow.id] ?? 0;
}

/**
 * The time between two packets of a batch at a capture point, ns. A batch is `count` packets back
 * to back, so packet k is seen k serialisation times after the first at the host link's rate (the
 * Nitro card's own bandwidth, the Xen host's 10 GbE port: NitroCard.linkBps), Ethernet's preamble,
 * FCS and gap included. 0 where the host has no link rate of its own: the batch's packets then
 * share its instant (the details say so).
 */
export function batchGapNs(inst: Instance, sizeBytes: number): number {
  const bps = inst.nitro.linkBps;
  return Number.isFinite(bps) && bps > 0 ? ((sizeBytes + ETH_WIRE_OVERHEAD_BYTES) * 8e9) / bps : 0;
}

/**
 * When the first packet of a batch reaching interface `dev` of `inst` at `atNs` goes on the wire,
 * going out (`tx`) or in: behind the batch before it going the same way, on the wire until
 * `wireEndNs`, but at most a ring of packets' time (`gapNs` each) after `atNs`.
 */
export function batchStartNs(
  inst: Instance,
  dev: number,
  tx: boolean,
  atNs: number,
  wireEndNs: number,
  gapNs: number,
): number {
  if (gapNs === 0 || wireEndNs <= atNs) return atNs;
  const ifc = inst.host.ifaces[dev] ?? inst.host.ifaces[0]!;
  return Math.min(wireEndNs, atNs + ifc.dev.ringSize(tx) * gapNs);
}

/**
 * A probe listener that needs the lab's host links (the recorders spread a batch over its host
 * link's time, docs/design.md "The metrics recorder"): the lab's probe hands them over on attach.
 */
export interface LabProbeSink extends ProbeSink {
  bindLinks?(links: HostLinks): void;
}

/** The lab's probe: a Probe whose listeners learn the lab's host links when they attach (LabProbeSink). */
class LabProbe extends Probe {
  constructor(private readonly lab: Lab) {
    super();
  }

  override attach(l: ProbeSink): () => void {
    (l as LabProbeSink).bindLinks?.(this.lab);
    return super.attach(l);
  }
}

export class Lab implements HostLinks {
  readonly sched = new Scheduler(4096);
  readonly params: ParamValues;
  readonly drops = new DropCounters();
  /** Stage observations for the metrics recorder and the visual lab (free when nothing is attached). */
  readonly probe: Probe = new LabProbe(this);
  /** The metrics recorder attached to the probe (createLab attaches one to every lab). */
  metrics: MetricsRecorder | null = null;
  readonly instances = new Map<string, Instance>();
  /** The VPC's link-local services (the Amazon DNS resolver) behind every card's link-local allowance. */
  readonly linkLocal: LinkLocalServices<Instance> = new LinkLocalServices<Instance>(this);
  private readonly byIp = new Map<string, Instance>();
  /** The device index of the interface holding an address (absent: eth0). */
  private readonly devOfIp = new Map<string, number>();
  private nextFlowId = 1;
  private nextSocketId = 1;
  readonly maxBatch: number;
  readonly placement: Placement;
  private sinks: TraceSink[] = [];
  /** The instances' files (`> out.txt`, `tcpdump -w`): part of the lab's state, rebuilt by replay. */
  readonly files = new LabFiles();
  /** Lines typed in the lab's shell, oldest first (bash's `history`). */
  readonly shellHistory: string[] = [];

  constructor(
    readonly scenario: Scenario,
    makeQdiscTree: QdiscTreeFactory,
  ) {
    // A copy with fast (in-object) properties: resolveParams builds its result key by key and V8
    // leaves it in dictionary mode, which made every `params.x` read on the hot paths a hash lookup.
    this.params = { ...resolveParams(scenario.params) };
    this.placement = scenario.placement;
    this.maxBatch = scenario.settings.batch === 'auto' ? 64 : scenario.settings.batch;
    // traffic to the internet, or to another VPC at its public address, leaves through the IGW
    const internet = scenario.placement === 'internet' || scenario.placement === 'other-vpc';
    this.fabricMtu = this.pathMtu();
    this.fabricDelayNs = this.oneWayDelayNs();
    scenario.instances.forEach((inst, i) => {
      const catalogSpec = getInstanceType(inst.type);
      if (!catalogSpec) throw new Error(`unknown instance type ${inst.type}`); // the schema already rejects these
      const spec = profiledSpec(catalogSpec, scenario.settings.profile);
      const ip = inst.ip ?? `10.0.0.${10 + i}`;
      const rng = new Rng(scenario.seed, `instance/${inst.name}`);
      const vcpus = Array.from({ length: spec.vcpus.value }, (_, k) => new Vcpu(k, this.sched));
      const key = new Uint8Array(40);
      for (let b = 0; b < 40; b++) key[b] = rng.nextU32() & 0xff; // netdev_rss_key_fill
      const mac = `02:${[0, 0, 0, 0, 0].map(() => (rng.nextU32() & 0xff).toString(16).padStart(2, '0')).join(':')}`;
      const path = networkPath(spec, inst.enhancedNetworking);
      const eth0 = new EnaDevice(
        this.sched,
        {
          hostName: inst.name,
          name: 'eth0',
          ifindex: 2,
          mac,
          mtu: MTU_BYTES.withinVpc.value,
          maxMtu: MTU_BYTES.withinVpc.value,
          ntupleCapacity: Math.max(8, spec.vcpus.value * 4),
          rssKey: key,
          nitroGeneration: spec.nitroGeneration.value,
          ...deviceConfig(spec, path, this.params),
        },
        this.params,
        vcpus,
        this.drops,
        cachedRssHash(),
      );
      eth0.wire();
      const peakGbps = spec.peakBandwidthGbps.value;
      const nitro = new NitroCard(
        this.sched,
        {
          hostName: inst.name,
          baselineBps: spec.baselineBandwidthGbps.value * 1e9,
          peakBps: peakGbps * 1e9,
          // only a type that has burst credits gets the override (0 = no credits stays 0)
          burstCreditSeconds:
            spec.burstCreditSeconds && this.params.burstCreditSecondsOverride > 0
              ? this.params.burstCreditSecondsOverride
              : (spec.burstCreditSeconds?.value ?? 0),
          ppsAllowance: spec.ppsAllowance.value,
          ...(spec.ppsBidirectional ? { ppsBidirectional: spec.ppsBidirectional.value } : {}),
          flowLimitBps:
            (scenario.placement === 'cluster'
              ? PER_FLOW_LIMIT_GBPS.insideClusterPlacementGroup.value
              : PER_FLOW_LIMIT_GBPS.outsideClusterPlacementGroup.value) * 1e9,
          internetFlowLimitBps: PER_FLOW_LIMIT_GBPS.outsideClusterPlacementGroup.value * 1e9,
          igwLimitBps: internetGatewayBandwidthGbps(spec.vcpus.value, peakGbps) * 1e9,
          conntrackAllowance:
            this.params.conntrackAllowanceOverride > 0
              ? this.params.conntrackAllowanceOverride
              : spec.conntrackAllowanceMax.value,
          enaExpressSupported: spec.enaExpressSupported.value,
          // a Xen host always has the link stage: a start on another path sets its rate (setCardBps)
          cardBps:
            hostLinkBps(spec, path) ??
            (spec.hypervisor.value === 'xen' ? Number.POSITIVE_INFINITY : undefined),
          // SRD between instances of the lab's VPC, in one AZ or across AZs (not via an IGW)
          srdPlacement: !internet,
          fabricOneWayNs: this.fabricDelayNs,
          srdFlowLimitBps: Math.min(PER_FLOW_LIMIT_GBPS.enaExpress.value, peakGbps) * 1e9,
          txFetchGate: spec.hypervisor.value === 'nitro' && this.params.nitroPpsHoldsTxFetch !== 0,
        },
        this.params,
        this.drops,
      );
      nitro.isInternetBound = () => internet;
      const host = new Host(this.sched, inst.name, ip, vcpus, eth0, this.params, this.drops, (ctx) =>
        makeQdiscTree(ctx, scenario.settings.defaultQdisc),
      );
      const instance: Instance = {
        name: inst.name,
        spec,
        host,
        nitro,
        rng,
        enhancedNetworking: inst.enhancedNetworking,
        path,
        backend: null,
        stopped: false,
        attrs: {
          enaSupport:
            spec.hypervisor.value === 'nitro' ||
            (spec.enhancedNetworking.value === 'ena' && inst.enhancedNetworking),
          sriovNetSupport: spec.enhancedNetworking.value === 'sriov' && inst.enhancedNetworking,
        },
      };
      host.probe = eth0.probe = nitro.probe = this.probe;
      host.probeHost = eth0.probeHost = nitro.probeHost = i;
      this.wirePath(instance);
      nitro.deviceOf = (ip) => (this.byIp.get(ip) === instance ? this.deviceOfAddress(ip) : 0);
      eth0.nitroCounters = this.nitroCountersOf(instance, 0);
      this.instances.set(inst.name, instance);
      this.byIndex.push(instance);
      this.byIp.set(ip, instance);
      host.addLocalAddress(ip);
      // secondary private addresses reach the same instance (amazon-ec2-net-utils adds them to eth0)
      for (const s of inst.secondaryIps) {
        this.byIp.set(s, instance);
        host.addLocalAddress(s);
      }
    });
    // flow setup: every card evaluates new flows against the lab's VPC control plane
    const vpc = vpcState(this);
    this.vpcRef = vpc;
    // the secondary interfaces attached at launch (the schema checked the type's maximum)
    for (const inst of scenario.instances) {
      const instance = this.instances.get(inst.name)!;
      for (const n of inst.networkInterfaces ?? []) {
        const why = this.attachInterface(instance, n);
        if (why !== null) throw new Error(`instance ${inst.name}: ${why}`);
      }
    }
    for (const inst of this.instances.values()) {
      const eni = vpc.eniOfInstance(inst.name);
      if (eni) inst.nitro.attachVpc(vpc, eni);
      inst.nitro.toLinkLocal = (p) => this.linkLocal.receive(p);
    }
    for (const inst of this.instances.values()) {
      const idx = inst.nitro.probeHost;
      inst.nitro.toFabric = (p) => this.fabricSend(p, idx);
      for (const [dir, acct] of [
        ['in', inst.nitro.creditsIn],
        ['out', inst.nitro.creditsOut],
      ] as const) {
        if (acct) {
          acct.onChange = (exhausted, atNs) =>
            this.emit({
              type: exhausted ? 'CreditsExhausted' : 'CreditsRestored',
              atNs,
              host: inst.name,
              direction: dir,
            });
        }
      }
    }
  }

  /**
   * Connect the instance's device, its VPC layer and (on the Xen PV path) dom0's netback for its
   * current path. The card's ingress runs when the sender's card releases a packet; it reaches the
   * device one fabric delay later (see fabricSend).
   */
  private wirePath(inst: Instance): void {
    const eth0 = inst.host.eth0 as EnaDevice;
    const nitro = inst.nitro;
    const delay = this.fabricDelayNs;
    if (inst.path !== 'xen-pv' && inst.host.ifaces.length > 1) {
      this.wireInterfaces(inst);
      return;
    }
    if (inst.path !== 'xen-pv') {
      inst.backend = null;
      nitro.ingressLeftByHost = false;
      eth0.toNitro = (p) => nitro.egress(p);
      eth0.txGate = nitro.cfg.txFetchGate === true ? nitro.txGate : null;
      nitro.onTxGranted = (q) => eth0.txGranted(q);
      nitro.txComplete = (p, n) => eth0.completeTx(p, n);
      nitro.toHost = (p) => eth0.receiveAt(p, this.sched.now + delay);
      return;
    }
    const nb = new XenNetback(
      this.sched,
      inst.name,
      this.params,
      this.drops,
      new Rng(this.scenario.seed, `xen-netback/${inst.name}`),
      new Rng(this.scenario.seed, `xen-netback/${inst.name}/wake`),
    );
    nb.probe = this.probe;
    nb.probeHost = nitro.probeHost;
    inst.backend = nb;
    nitro.ingressLeftByHost = true;
    eth0.toNitro = (p) => nb.fromGuest(p);
    eth0.txGate = null;
    nb.onTxServed = (p, n) => eth0.completeTx(p, n);
    nb.toVpc = (p) => nitro.egressEntered(p);
    // netback completes the guest's TX when it has copied the packet, not the VPC layer
    nitro.txComplete = () => {};
    const forGuest = (arg: unknown) => nb.forGuest(arg as Packet);
    nitro.toHost = (p) => this.sched.after(delay, forGuest, p);
    nb.toGuest = (p) => eth0.receive(p);
  }

  /**
   * Several interfaces on one card (eth0 and the attached secondary ENIs' eth1…): each device hands
   * its TX to the instance's one card, whose shapers and PPS budget they share; the card completes a
   * flow's TX on the device that sent it, asks the TX fetch gate with a key naming device and queue
   * (`TXQ_KEY` × device index + queue), and hands what it receives to the device of the interface
   * that holds the destination address (the fabric notes it per flow).
   */
  private wireInterfaces(inst: Instance): void {
    const nitro = inst.nitro;
    const delay = this.fabricDelayNs;
    const ifaces = inst.host.ifaces;
    const eth0 = inst.host.eth0 as EnaDevice;
    const txDev = inst.host.txDevByFlow;
    const rxDev = inst.host.rxDevByFlow;
    const gate = nitro.cfg.txFetchGate === true;
    inst.backend = null;
    nitro.ingressLeftByHost = false;
    ifaces.forEach((ifc, d) => {
      if (ifc === undefined) return;
      const dev = ifc.dev;
      dev.toNitro = (p) => {
        txDev[p.flow.id] = d;
        nitro.egress(p);
      };
      dev.txGate = gate ? (q, p) => nitro.txGate(d * TXQ_KEY + q, p) : null;
    });
    const devOf = (d: number | undefined) => ifaces[d ?? 0]?.dev ?? eth0;
    nitro.onTxGranted = (k) => {
      const d = Math.floor(k / TXQ_KEY);
      return ifaces[d]?.dev.txGranted(k - d * TXQ_KEY) ?? 0;
    };
    nitro.txComplete = (p, n) => devOf(txDev[p.flow.id]).completeTx(p, n);
    nitro.toHost = (p) => devOf(rxDev[p.flow.id]).receiveAt(p, this.sched.now + delay);
  }

  /**
   * Attach a secondary ENI to `inst` as device `eni.deviceIndex` (eth1 …): a new ENA device with its
   * own queues, rings, RSS key and MAC (drawn from the ENI's own seeded stream, so attaching changes
   * no other draw), its own qdisc tree, the ENI's addresses on the data path (the fabric delivers
   * them to this device; what the host sends from them leaves by it), and the instance's one PPS
   * budget shrunk by MODEL_PARAMS.nitroPpsExtraEniPenalty. Returns null, or why it cannot be.
   */
  attachInterface(
    inst: Instance,
    eni: { deviceIndex: number; eniId: string; ip: string; secondaryIps: readonly string[] },
  ): string | null {
    if (inst.path !== 'nitro')
      return `several network interfaces on a Xen instance (${inst.spec.name}) are not simulated in ec2-netlab`;
    const idx = eni.deviceIndex;
    if (idx < 1 || inst.host.ifaces[idx] !== undefined) return `device index ${idx} is in use`;
    const { key, mac } = interfaceHardware(this.scenario.seed, eni.eniId);
    const spec = inst.spec;
    const dev = new EnaDevice(
      this.sched,
      {
        hostName: inst.name,
        name: `eth${idx}`,
        ifindex: 2 + idx,
        mac,
        mtu: MTU_BYTES.withinVpc.value,
        maxMtu: MTU_BYTES.withinVpc.value,
        ntupleCapacity: Math.max(8, spec.vcpus.value * 4),
        rssKey: key,
        nitroGeneration: spec.nitroGeneration.value,
        ...deviceConfig(spec, inst.path, this.params),
      },
      this.params,
      inst.host.vcpus,
      this.drops,
      cachedRssHash(),
    );
    dev.wire();
    dev.probe = this.probe;
    dev.probeHost = inst.nitro.probeHost;
    dev.nitroCounters = this.nitroCountersOf(inst, idx);
    inst.host.attachIface(idx, dev);
    for (const ip of [eni.ip, ...eni.secondaryIps]) this.addAddress(inst, ip, idx);
    this.wirePath(inst);
    this.budgetForInterfaces(inst);
    return null;
  }

  /** Detach the interface of device index `idx` (not eth0): its addresses leave the data path. */
  detachInterface(inst: Instance, idx: number): void {
    if (idx < 1 || inst.host.ifaces[idx] === undefined) return;
    for (const [ip, d] of this.devOfIp) if (d === idx && this.byIp.get(ip) === inst) this.removeAddress(ip);
    inst.host.detachIface(idx);
    this.wirePath(inst);
    this.budgetForInterfaces(inst);
  }

  /** The instance's PPS budget for the interfaces it has (all share it; each extra one costs a little). */
  private budgetForInterfaces(inst: Instance): void {
    const n = inst.host.ifaces.filter((i) => i !== undefined).length;
    const factor = Math.max(0, 1 - this.params.nitroPpsExtraEniPenalty * (n - 1));
    inst.nitro.scalePpsBudget(factor);
  }

  /** `aws ec2 stop-instances`: the instance's network path goes down (its packets are not delivered). */
  stopInstance(inst: Instance): void {
    inst.stopped = true;
    this.stoppedCards.add(inst.nitro);
  }

  private readonly stoppedCards = new Set<NitroCard>();

  /**
   * `aws ec2 start-instances`: a new boot with the path its attributes give now (the driver
   * `ethtool -i` reports changes with it). Null when started, else the refusal (the caller turns it
   * into the API's error).
   */
  startInstance(inst: Instance): string | null {
    if (!inst.stopped) return null;
    if (inst.spec.hypervisor.value === 'nitro' && !inst.attrs.enaSupport)
      return `Enhanced networking with the Elastic Network Adapter (ENA) is required for the '${inst.spec.name}' instance type. Ensure that your instance '${inst.name}' is enabled for ENA.`;
    const path = pathOfAttributes(inst.spec, inst.attrs);
    for (const ifc of inst.host.ifaces) ifc?.dev.relaunch(deviceConfig(inst.spec, path, this.params));
    inst.path = path;
    inst.enhancedNetworking = path !== 'xen-pv';
    // the new path's link: the 10 GbE port of the PV device and the VF, none of its own for ENA on Xen
    inst.nitro.setCardBps(hostLinkBps(inst.spec, path) ?? Number.POSITIVE_INFINITY);
    this.wirePath(inst);
    inst.stopped = false;
    this.stoppedCards.delete(inst.nitro);
    return null;
  }

  /** Listen to typed trace events; returns an unsubscribe function. Tracing costs nothing without listeners. */
  subscribe(sink: TraceSink): () => void {
    this.sinks.push(sink);
    this.drops.trace = (host, stage, reason, flowId, packets, bytes) =>
      this.emit({ type: 'PacketDropped', atNs: this.sched.now, host, stage, reason, flowId, packets, bytes });
    return () => {
      this.sinks = this.sinks.filter((s) => s !== sink);
      if (this.sinks.length === 0) this.drops.trace = null;
    };
  }

  emit(e: TraceEvent): void {
    for (const s of this.sinks) s(e);
  }

  /** One-way fabric latency for the scenario's placement. */
  oneWayDelayNs(): number {
    switch (this.placement) {
      case 'cluster':
        return this.params.fabricOneWayNsCluster;
      case 'same-az':
        return this.params.fabricOneWayNsSameAz;
      case 'cross-az':
        return this.params.fabricOneWayNsCrossAz;
      case 'internet':
        return this.params.fabricOneWayNsInternet;
      case 'other-vpc':
        return this.params.fabricOneWayNsOtherVpc;
    }
  }

  /** Path MTU between instances: 9001 inside the VPC, 1500 through an internet gateway. */
  pathMtu(): number {
    return this.placement === 'internet' || this.placement === 'other-vpc'
      ? MTU_BYTES.viaInternetGateway.value
      : MTU_BYTES.withinVpc.value;
  }

  /**
   * The next hop of a flow's packets leaving the card of instance `srcIdx` (lab order), by flow id:
   * the receiving card (null: nowhere, the packet is dropped), filled on the flow's first packet
   * from that card and again after a VPC change. Per sending card, since a routed flow crosses the
   * fabric twice with one id (sender → router, router → destination).
   */
  private readonly dstBySrc: (NitroCard | null | undefined)[][] = [];
  private readonly droppedBy: (DropReason | undefined)[][] = [];
  private hopEpoch = -1;
  /** The instances in lab order (the cards' probe index). */
  private readonly byIndex: Instance[] = [];

  /** Placement and params are fixed for the lab's life: the path MTU and the delay are too. */
  private readonly fabricMtu: number;
  private readonly fabricDelayNs: number;

  /**
   * The VPC fabric: a fixed one-way delay between the sender's card and the receiver's ENA; a batch
   * from the card of instance `srcIdx` (lab order) enters it.
   *
   * The receiving card's ingress (flow lookup, bw_in/PPS shapers) runs at once and the packet then
   * lands in the ENA RX ring one delay later (`EnaDevice.receiveAt`): the delay is taken after the
   * receiver's card rather than before it. That saves one event per batch, the largest share of
   * the event count at line rate, and changes nothing else: every ring, IRQ, NAPI and socket event
   * happens at the same instant, and the ingress shapers' token buckets are time-invariant, so the
   * same packets pass, wait or drop. What does move earlier by the delay (12 µs in a cluster) is the
   * ingress side's own clock: its charges to the PPS bucket it shares with egress, its credit
   * account, ENA Express state, its flow-setup slow path and conntrack timestamps. The probe sees
   * the same order: the batch leaves the fabric into the receiving card at once, and enters the RX
   * ring when it lands.
   */
  private fabricSend(p: Packet, srcIdx: number): void {
    if (p.sizeBytes > this.fabricMtu) {
      this.fabricMtuDrop(p, srcIdx);
      return;
    }
    const id = p.flow.id;
    if (this.vpcEpoch() !== this.hopEpoch) this.fabricRouted();
    const cache = (this.dstBySrc[srcIdx] ??= []);
    let dst = cache[id];
    if (dst === undefined) {
      dst = this.nextHop(p, srcIdx);
      cache[id] = dst;
    }
    // a stopped instance has no network path: what is sent to it goes nowhere
    if (dst !== null && this.stoppedCards.size > 0 && this.stoppedCards.has(dst)) dst = null;
    const sink = this.probe.sink;
    sink?.enter(this.sched.now, srcIdx, 'fabric', 0, p);
    if (dst === null) {
      this.fabricNowhere(p, srcIdx);
      return;
    }
    sink?.leave(this.sched.now, srcIdx, 'fabric', 0, p, -1);
    dst.ingress(p);
  }

  // fabricSend's rare branches, apart so that it stays small enough for V8 to inline

  private fabricMtuDrop(p: Packet, srcIdx: number): void {
    const src = this.byIp.get(p.flow.tuple.srcIp);
    this.drops.add(src?.name ?? '?', 'vpc', 'mtu_exceeded', p.count, p.count * p.sizeBytes, p.flow.id);
    this.probe.sink?.drop(this.sched.now, srcIdx, 'fabric', 0, p, p.count, 'mtu_exceeded', false);
  }

  /** The VPC's routes or attributes changed: every flow looks its next hop up again. */
  private fabricRouted(): void {
    this.hopEpoch = this.vpcEpoch();
    this.dstBySrc.length = 0;
    this.droppedBy.length = 0;
  }

  /**
   * No instance has the address: the VPC has nowhere to deliver it (counted by the probe only); a
   * source/destination check or a route loop drops it in the VPC (counted as a route drop).
   */
  private fabricNowhere(p: Packet, srcIdx: number): void {
    const id = p.flow.id;
    const why = this.droppedBy[srcIdx]?.[id];
    if (why !== undefined) {
      const src = this.byIndex[srcIdx];
      this.drops.add(src?.name ?? '?', 'vpc', why, p.count, p.count * p.sizeBytes, id);
    }
    this.probe.sink?.drop(this.sched.now, srcIdx, 'fabric', 0, p, p.count, 'vpc_route', true);
  }

  /** The VPC control plane's mutation epoch (routes, attributes), 0 before anything asked for it. */
  private vpcEpoch(): number {
    return this.vpcRef === null ? 0 : this.vpcRef.mutationEpoch;
  }

  private vpcRef: VpcState | null = null;

  /**
   * Where the VPC delivers a flow's packets leaving instance `srcIdx`'s card: the route table of the
   * sending interface's subnet decides (the local route: the interface holding the destination
   * address; a route to a network interface, as middlebox routing allows even for addresses inside
   * the VPC: that interface, whatever the destination address). The source/destination check of the
   * sending interface drops what it sends from an address not its own, that of the receiving one
   * what it receives for an address not its own, unless turned off (a router's card). Null: dropped.
   */
  private nextHop(p: Packet, srcIdx: number): NitroCard | null {
    const t = p.flow.tuple;
    const src = this.byIndex[srcIdx];
    const vpc = this.vpcRef;
    const direct = this.byIp.get(t.dstIp);
    const deliver = (inst: Instance | undefined, dev: number): NitroCard | null => {
      if (inst === undefined) return null;
      inst.host.rxDevByFlow[p.flow.id] = dev;
      return inst.nitro;
    };
    const drop = (why: DropReason): null => {
      (this.droppedBy[srcIdx] ??= [])[p.flow.id] = why;
      return null;
    };
    if (vpc === null || src === undefined) return deliver(direct, this.devOfIp.get(t.dstIp) ?? 0);
    const d = src.host.ifaces.length > 1 ? (src.host.txDevByFlow[p.flow.id] ?? 0) : 0;
    const eni = vpc.enisOfInstance(src.name).find((e) => e.deviceIndex === d);
    if (eni === undefined) return deliver(direct, this.devOfIp.get(t.dstIp) ?? 0);
    // source/destination check of the sending interface (a forwarded packet's source is not its own)
    if (this.byIp.get(t.srcIp) !== src && eni.sourceDestCheck) return drop('vpc_route');
    const m = routeLookup(vpc.routeTableOfSubnet(eni.subnetId), t.dstIp, vpc.vpc.CidrBlock);
    if (m !== null && m.target.kind === 'eni') {
      const via = vpc.eniById(m.target.id);
      if (via === undefined || via.deviceIndex < 0) return null; // a blackhole route
      // a route back to the sending interface would loop until the TTL ran out
      if (via === eni) return drop('vpc_route');
      const holds = via.ip === t.dstIp || via.secondaryIps.includes(t.dstIp);
      if (!holds && via.sourceDestCheck) return drop('vpc_route');
      return deliver(this.instances.get(via.instanceName), via.deviceIndex);
    }
    return deliver(direct, this.devOfIp.get(t.dstIp) ?? 0);
  }

  instance(name: string): Instance | undefined {
    return this.instances.get(name);
  }

  /** The instance of probe index `i` (lab order). */
  instanceAt(i: number): Instance | undefined {
    return this.byIndex[i];
  }

  /** HostLinks: the time between two packets of `sizeBytes` on instance `host`'s link (batchGapNs; 0: none). */
  linkGapNs(host: number, sizeBytes: number): number {
    const inst = this.byIndex[host];
    return inst === undefined ? 0 : batchGapNs(inst, sizeBytes);
  }

  /** HostLinks: where a batch reaching instance `host`'s link at `atNs` starts (batchStartNs on its interface). */
  linkStartNs(host: number, p: Packet, tx: boolean, atNs: number, wireEndNs: number, gapNs: number): number {
    const inst = this.byIndex[host];
    if (inst === undefined) return atNs;
    return batchStartNs(inst, captureDevice(this, inst, p, tx), tx, atNs, wireEndNs, gapNs);
  }

  /** Resolve a host argument the way the instances' /etc/hosts would: by name or by IP. */
  resolve(nameOrIp: string): Instance | undefined {
    return this.instances.get(nameOrIp) ?? this.byIp.get(nameOrIp);
  }

  /**
   * The address a tool connects to for a host argument: an address an instance holds (its primary or
   * a secondary private address) as given, a name as its instance's primary address.
   */
  addressOf(nameOrIp: string): string | undefined {
    if (this.byIp.has(nameOrIp)) return nameOrIp;
    return this.instances.get(nameOrIp)?.host.ip;
  }

  /**
   * Give `inst` another private address on the data path (assign-private-ip-addresses, an attached
   * interface's addresses) on the interface of device index `dev`.
   */
  addAddress(inst: Instance, ip: string, dev = 0): void {
    this.byIp.set(ip, inst);
    if (dev !== 0) this.devOfIp.set(ip, dev);
    else this.devOfIp.delete(ip);
    inst.host.setSourceIface(ip, dev);
    this.dstBySrc.length = 0; // flows cached before the change look their destination up again
    for (const i of this.byIndex) i.nitro.addressesMoved();
    inst.host.addLocalAddress(ip);
  }

  /** Take an address off the data path (unassign-private-ip-addresses, a detached interface's). */
  removeAddress(ip: string): void {
    const inst = this.byIp.get(ip);
    inst?.host.setSourceIface(ip, undefined);
    inst?.host.removeLocalAddress(ip);
    this.byIp.delete(ip);
    this.devOfIp.delete(ip);
    this.dstBySrc.length = 0;
    for (const i of this.byIndex) i.nitro.addressesMoved();
  }

  /**
   * What `ethtool -S` of the instance's interface `dev` adds to the device's own statistics: the
   * allowance counters of that ENI (ENA's ENI statistics, counted per interface by the card), the
   * instance's conntrack allowance left, and ENA Express's SRD counters where the type has it.
   */
  private nitroCountersOf(instance: Instance, dev: number): () => Array<[string, number]> {
    const nitro = instance.nitro;
    const spec = instance.spec;
    return () => {
      // the allowance counters are the Nitro card's; a Xen host shows none
      if (instance.path !== 'nitro') return [];
      const c = nitro.countersOf(dev);
      return [
        ['bw_in_allowance_exceeded', c.bw_in_allowance_exceeded],
        ['bw_out_allowance_exceeded', c.bw_out_allowance_exceeded],
        ['pps_allowance_exceeded', c.pps_allowance_exceeded],
        ['conntrack_allowance_exceeded', c.conntrack_allowance_exceeded],
        ['linklocal_allowance_exceeded', c.linklocal_allowance_exceeded],
        ['conntrack_allowance_available', nitro.conntrackAvailable()],
        // the device reports ENA_ADMIN_ENA_SRD_INFO only on types that support ENA Express
        ...(spec.enaExpressSupported.value
          ? (Object.entries(nitro.srd.counters()) as Array<[string, number]>)
          : []),
      ];
    };
  }

  /** The device index of the interface holding `ip` on its instance (0: eth0, or not held). */
  deviceOfAddress(ip: string): number {
    return this.devOfIp.get(ip) ?? 0;
  }

  /** Create a flow (one direction of a 5-tuple). skb->hash is a per-host keyed hash of the tuple. */
  makeFlow(owner: Instance, tuple: FiveTuple, socketId = this.nextSocketId++): Flow {
    const h = mix32(
      hashString(`${tuple.proto}|${tuple.srcIp}|${tuple.srcPort}|${tuple.dstIp}|${tuple.dstPort}`) ^
        owner.rng.nextU32(),
    );
    return { id: this.nextFlowId++, tuple, skbHash: h, socketId };
  }

  newSocketId(): number {
    return this.nextSocketId++;
  }

  tuple(src: Instance, dst: Instance, proto: L4Proto, srcPort: number, dstPort: number): FiveTuple {
    return { srcIp: src.host.ip, dstIp: dst.host.ip, proto, srcPort, dstPort };
  }

  /** Advance the simulation to `untilNs`, processing at most `maxEvents`. Returns events processed. */
  runUntil(untilNs: number, maxEvents = Number.POSITIVE_INFINITY): number {
    return this.sched.runUntil(untilNs, maxEvents);
  }

  get nowNs(): number {
    return this.sched.now;
  }

  /** The wall clock (Unix seconds) at simulated time 0: the scenario's `settings.wallClockStart`. */
  get wallClockStartS(): number {
    return parseIso8601(this.scenario.settings.wallClockStart) ?? LAB_EPOCH_UNIX_S;
  }
}

/**
 * The host link's own bandwidth per direction: the Nitro card's by generation (v2+); on a Xen host
 * with the Intel NIC (the 82599 VF path, and the PV path through dom0 to the same port) its 10 GbE
 * port; the first ENA on Xen has no limit of its own beyond the type's.
 */
function hostLinkBps(spec: InstanceTypeSpec, path: NetworkPath): number | undefined {
  const g = spec.nitroGeneration.value;
  if (path === 'nitro' && g >= 2) return NITRO_CARD_BANDWIDTH_GBPS[g as 2 | 3 | 4 | 5 | 6].value * 1e9;
  if (path === 'xen-sriov' || path === 'xen-pv') return IXGBEVF.linkGbps.value * 1e9;
  return undefined;
}

/** The guest device of a path: ENA as the type says, the 82599 VF (ixgbevf), or netfront (vif). */
export function deviceConfig(
  spec: InstanceTypeSpec,
  path: NetworkPath,
  params: ParamValues,
): Pick<
  EnaDeviceConfig,
  | 'queues'
  | 'maxQueues'
  | 'txRing'
  | 'txRingMax'
  | 'rxRing'
  | 'rxRingMax'
  | 'rssKeyConfigurable'
  | 'ntupleSupported'
  | 'driver'
  | 'packetNs'
  | 'ringMin'
  | 'ringMultiple'
> {
  const vcpus = spec.vcpus.value;
  if (path === 'xen-sriov') {
    const q = Math.min(vcpus, IXGBEVF.maxRssQueues.value);
    return {
      queues: q,
      maxQueues: q,
      txRing: IXGBEVF.txRingDefault.value,
      txRingMax: IXGBEVF.ringMax.value,
      rxRing: IXGBEVF.rxRingDefault.value,
      rxRingMax: IXGBEVF.ringMax.value,
      // the PF programs the key; the VF reports it (ethtool -x) but cannot set it
      rssKeyConfigurable: true,
      ntupleSupported: false,
      driver: 'ixgbevf',
      packetNs: params.ixgbevfQueuePacketNs,
      ringMin: IXGBEVF.ringMin.value,
      ringMultiple: IXGBEVF.ringMultiple.value,
    };
  }
  if (path === 'xen-pv') {
    const slots = NETFRONT.ringSlots.value;
    return {
      queues: NETFRONT.queues.value,
      maxQueues: NETFRONT.queues.value,
      txRing: slots,
      txRingMax: slots,
      rxRing: slots,
      rxRingMax: slots,
      rssKeyConfigurable: false,
      ntupleSupported: false,
      driver: 'vif',
      packetNs: params.xenNetfrontPacketNs,
    };
  }
  return {
    queues: effectiveQueueCount(spec),
    maxQueues: Math.min(vcpus, spec.maxEnaQueuesPerEni.value),
    txRing: spec.txRingDefault.value,
    txRingMax: spec.txRingMax.value,
    rxRing: spec.rxRingDefault.value,
    rxRingMax: spec.rxRingMax.value,
    rssKeyConfigurable: spec.rssKeyConfigurable.value,
    ntupleSupported: spec.ntupleSupported.value,
    driver: 'ena',
  };
}

/** The device RSS hash with a per-tuple cache (the tuple parsing is not free; flows are long-lived). */
function cachedRssHash() {
  const cache = new WeakMap<
    FiveTuple,
    { key: Uint8Array; hfunc: RssHashFunction; conf: boolean; hash: number }
  >();
  return (t: FiveTuple, key: Uint8Array, hfunc: RssHashFunction, conf: boolean): number => {
    const c = cache.get(t);
    if (c && c.key === key && c.hfunc === hfunc && c.conf === conf) return c.hash;
    const ports = t.proto === 'tcp' || t.proto === 'udp';
    const hash = enaRxHash(
      { key, hfunc, keyConfigurable: conf },
      ports
        ? { srcIp: t.srcIp, dstIp: t.dstIp, srcPort: t.srcPort, dstPort: t.dstPort }
        : { srcIp: t.srcIp, dstIp: t.dstIp },
    );
    cache.set(t, { key, hfunc, conf, hash });
    return hash;
  };
}
