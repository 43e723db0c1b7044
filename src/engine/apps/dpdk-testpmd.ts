/**
 * DPDK `dpdk-testpmd` on one instance: a poll-mode forwarder and generator (txonly, rxonly, io)
 * that owns the ENA port while it runs, so the ENA queues (≈ 1 Mpps each) and the Nitro card's PPS
 * allowance limit the rate, not the kernel. Streams and lcores as testpmd's fwd_config_setup builds
 * them; statistics as the ENA PMD reports them (ipackets, imissed, opackets, fwd_dropped).
 *
 * Sources: DPDK app/test-pmd, the ENA PMD; TOONK; ENA-UTIL's ena-dts (docs/domain-facts.md §7).
 * The model in detail and what it leaves out: docs/design.md, "DPDK testpmd".
 */
import { Timer } from '../core/scheduler';
import type { Vcpu } from '../host/cpu';
import type { EnaDevice } from '../host/ena-device';
import type { Instance, Lab } from '../lab/lab';
import { cloneBatch, type Flow, type Packet, splitBatch } from '../model/packet';

export type TestpmdMode = 'txonly' | 'rxonly' | 'io';

export interface TestpmdConfig {
  mode: TestpmdMode;
  /** EAL lcores, the main lcore excluded, in ascending order (fwd_lcores_cpuids). */
  fwdLcoreIds: number[];
  /** --nb-cores (testpmd's nb_fwd_lcores before it is clamped to the stream count). */
  nbCores: number;
  txq: number;
  rxq: number;
  burst: number;
  /** Frame length (sum of --txpkts segments), bytes, Ethernet header included, FCS excluded. */
  txPktLen: number;
  txIpSrc: string;
  txIpDst: string;
  txUdpSrc: number;
  txUdpDst: number;
  multiFlow: boolean;
  /** TX/RX descriptors per queue (0 = the device's current ring size). */
  txd: number;
  rxd: number;
}

export interface PortCounters {
  ipackets: number;
  ibytes: number;
  imissed: number;
  opackets: number;
  obytes: number;
}

export interface TestpmdStream {
  id: number;
  lcore: number;
  rxQueue: number;
  txQueue: number;
  rxPackets: number;
  txPackets: number;
  fwdDropped: number;
}

export interface TestpmdPortStats {
  port: number;
  rxPackets: number;
  rxDropped: number;
  rxBytes: number;
  txPackets: number;
  txDropped: number;
  txBytes: number;
  rxPps: number;
  txPps: number;
}

export interface TestpmdResult {
  forwardMode: TestpmdMode;
  durationNs: number;
  ports: TestpmdPortStats[];
  streams: TestpmdStream[];
  lcores: number[];
}

interface Stream extends TestpmdStream {
  /** txonly: time of this stream's next burst call. */
  cursorNs: number;
  timer: Timer | null;
  flows: Flow[];
  flowIdx: number;
  seq: number;
}

interface Lcore {
  id: number;
  vcpu: Vcpu;
  streams: Stream[];
  busy: boolean;
  wake: Timer;
}

/** testpmd's fwd_config_setup + setup_fwd_config_of_each_lcore: streams and their lcores. */
export function forwardingLayout(
  rxq: number,
  txq: number,
  nbCores: number,
  fwdLcoreIds: number[],
): { streams: Array<{ rxQueue: number; txQueue: number; lcore: number }>; lcores: number[] } {
  const nStreams = rxq > 1 && txq > 1 ? Math.min(rxq, txq) : 1;
  const nLcores = Math.max(1, Math.min(nbCores, nStreams));
  const lcores = fwdLcoreIds.slice(0, nLcores);
  const perLcore = nStreams <= nLcores ? 1 : Math.floor(nStreams / nLcores);
  const extra = nStreams <= nLcores ? 0 : nStreams % nLcores;
  const owner: number[] = [];
  for (let lc = 0; lc < nLcores - extra; lc++) for (let k = 0; k < perLcore; k++) owner.push(lc);
  for (let lc = nLcores - extra; lc < nLcores; lc++) for (let k = 0; k <= perLcore; k++) owner.push(lc);
  const streams = owner.slice(0, nStreams).map((lc, i) => ({
    rxQueue: nStreams === 1 ? 0 : i,
    txQueue: nStreams === 1 ? 0 : i,
    lcore: lcores[lc]!,
  }));
  return { streams, lcores };
}

export class TestpmdApp {
  readonly dev: EnaDevice;
  private running = false;
  private startNs = 0;
  private stopNs = 0;
  private base: PortCounters = { ipackets: 0, ibytes: 0, imissed: 0, opackets: 0, obytes: 0 };
  private final: PortCounters | null = null;
  private readonly streams: Stream[] = [];
  private readonly lcores: Lcore[] = [];
  private readonly byTxq = new Map<number, Stream>();
  private readonly byRxq = new Map<number, Lcore>();
  private readonly reverse = new Map<number, Flow>();
  /** txonly flows by UDP source port: lcores sending the same 5-tuple share one flow. */
  private readonly txFlowBySport = new Map<number, Flow>();
  private saved: {
    onTxRoom: EnaDevice['onTxRoom'];
    onTxComplete: EnaDevice['onTxComplete'];
    onPolledRx: EnaDevice['onPolledRx'];
    indir: number[];
    rings: { rx: number; tx: number };
    queues: number;
  } | null = null;
  private readonly pktNs: number;

  constructor(
    private readonly lab: Lab,
    readonly inst: Instance,
    readonly cfg: TestpmdConfig,
  ) {
    this.dev = inst.host.eth0;
    this.pktNs = lab.params.dpdkPmdPacketNs;
  }

  /** Queues the port needs (max of txq, rxq). */
  get queuesNeeded(): number {
    return Math.max(this.cfg.txq, this.cfg.rxq, 1);
  }

  /** Take the port from the kernel and start forwarding. Returns an error text or null. */
  start(): string | null {
    const dev = this.dev;
    const cfg = this.cfg;
    const rings = dev.rings();
    const queues = dev.queueCount;
    if (this.queuesNeeded > queues) {
      // The PMD creates its own IO queues up to the device maximum, whatever the kernel had set.
      const e = dev.setChannels(this.queuesNeeded);
      if (e) return `Fail to start port 0: ${e === 'EBUSY' ? 'Device or resource busy' : 'Invalid argument'}`;
    }
    if (cfg.txd || cfg.rxd) {
      const e = dev.setRings(cfg.rxd || undefined, cfg.txd || undefined);
      if (e) return 'Fail to configure port 0 tx queues';
    }
    this.saved = {
      onTxRoom: dev.onTxRoom,
      onTxComplete: dev.onTxComplete,
      onPolledRx: dev.onPolledRx,
      indir: dev.rss().indir,
      rings,
      queues,
    };
    dev.onTxRoom = (q) => this.onTxRoom(q);
    dev.onTxComplete = () => {}; // mbufs go back to the mempool; nothing to account
    dev.onPolledRx = (q) => this.onPolledRx(q);
    for (let q = 0; q < dev.queueCount; q++) dev.setPolled(q, true);
    if (cfg.rxq > 0) dev.setRss({ indir: Array.from({ length: 128 }, (_, i) => i % cfg.rxq) });

    const layout = forwardingLayout(cfg.rxq, cfg.txq, cfg.nbCores, cfg.fwdLcoreIds);
    for (const id of layout.lcores) {
      const lc: Lcore = {
        id,
        vcpu: this.inst.host.vcpus[id % this.inst.host.vcpus.length]!,
        streams: [],
        busy: false,
        wake: new Timer(this.lab.sched, () => this.poll(lc)),
      };
      this.lcores.push(lc);
    }
    layout.streams.forEach((s, i) => {
      const lc = this.lcores.find((l) => l.id === s.lcore)!;
      const st: Stream = {
        id: i,
        lcore: s.lcore,
        rxQueue: s.rxQueue,
        txQueue: s.txQueue,
        rxPackets: 0,
        txPackets: 0,
        fwdDropped: 0,
        cursorNs: 0,
        timer: null,
        flows: [],
        flowIdx: 0,
        seq: 0,
      };
      lc.streams.push(st);
      this.streams.push(st);
      this.byTxq.set(s.txQueue, st);
      this.byRxq.set(s.rxQueue, lc);
    });
    this.base = this.counters();
    this.running = true;
    this.startNs = this.lab.nowNs;
    if (cfg.mode === 'txonly') {
      for (const lc of this.lcores) {
        lc.streams.forEach((st, k) => {
          st.flows = this.txFlows(lc.id);
          st.cursorNs = this.lab.nowNs + k * cfg.burst * this.pktNs;
          st.timer = new Timer(this.lab.sched, () => this.txKick(st));
          this.txKick(st);
        });
      }
    } else {
      // packets may already wait in the rings (testpmd flushes them before starting; the model polls them)
      for (const lc of this.lcores)
        if (lc.streams.some((s) => this.dev.rxPending(s.rxQueue) > 0)) this.wake(lc);
    }
    return null;
  }

  /** Stop the lcores and give the port back to the kernel. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.stopNs = this.lab.nowNs;
    this.final = this.counters();
    for (const st of this.streams) st.timer?.stop();
    for (const lc of this.lcores) lc.wake.stop();
    const dev = this.dev;
    const s = this.saved!;
    dev.onTxRoom = s.onTxRoom;
    dev.onTxComplete = s.onTxComplete;
    dev.onPolledRx = s.onPolledRx;
    if (dev.queueCount !== s.queues) dev.setChannels(s.queues); // EBUSY leaves the PMD's count (rare)
    const r = dev.rings();
    if (r.rx !== s.rings.rx || r.tx !== s.rings.tx) dev.setRings(s.rings.rx, s.rings.tx);
    if (s.indir.length === 128 && s.indir.every((q) => q < dev.queueCount)) dev.setRss({ indir: s.indir });
    for (let q = 0; q < dev.queueCount; q++) dev.setPolled(q, false);
  }

  get isRunning(): boolean {
    return this.running;
  }

  // ---------------------------------------------------------------- counters

  /** rte_eth_stats_get as the ENA PMD fills it (device-level counters). */
  counters(): PortCounters {
    if (!this.running && this.final) return this.final;
    const stats = this.dev.statistics();
    const c: PortCounters = { ipackets: 0, ibytes: 0, imissed: 0, opackets: 0, obytes: 0 };
    for (const [name, v] of stats) {
      if (name === 'rx_overruns') c.imissed = v;
      else if (name.startsWith('queue_')) {
        if (name.endsWith('_rx_cnt')) c.ipackets += v;
        else if (name.endsWith('_rx_bytes')) c.ibytes += v;
        else if (name.endsWith('_tx_cnt')) c.opackets += v;
        else if (name.endsWith('_tx_bytes')) c.obytes += v;
      }
    }
    // packets in the rings have been received by the device but not yet polled (bytes estimated
    // at the mean size of those already polled)
    const frame = c.ipackets > 0 ? c.ibytes / c.ipackets : this.cfg.txPktLen;
    for (let q = 0; q < this.dev.queueCount; q++) {
      const n = this.dev.rxPending(q);
      c.ipackets += n;
      c.ibytes += Math.round(n * frame);
    }
    return c;
  }

  /** Counters since forwarding started (fwd_stats_reset took the baseline). */
  delta(): PortCounters {
    const c = this.counters();
    return {
      ipackets: c.ipackets - this.base.ipackets,
      ibytes: c.ibytes - this.base.ibytes,
      imissed: c.imissed - this.base.imissed,
      opackets: c.opackets - this.base.opackets,
      obytes: c.obytes - this.base.obytes,
    };
  }

  streamStats(): TestpmdStream[] {
    return this.streams.map(({ id, lcore, rxQueue, txQueue, rxPackets, txPackets, fwdDropped }) => ({
      id,
      lcore,
      rxQueue,
      txQueue,
      rxPackets,
      txPackets,
      fwdDropped,
    }));
  }

  txDropped(): number {
    let n = 0;
    for (const s of this.streams) n += s.fwdDropped;
    return n;
  }

  result(): TestpmdResult {
    const end = this.running ? this.lab.nowNs : this.stopNs;
    const dur = Math.max(1, end - this.startNs);
    const d = this.delta();
    const txDropped = this.txDropped();
    return {
      forwardMode: this.cfg.mode,
      durationNs: end - this.startNs,
      ports: [
        {
          port: 0,
          rxPackets: d.ipackets,
          rxDropped: d.imissed,
          rxBytes: d.ibytes,
          txPackets: d.opackets,
          txDropped,
          txBytes: d.obytes,
          rxPps: Math.round((d.ipackets * 1e9) / dur),
          txPps: Math.round((d.opackets * 1e9) / dur),
        },
      ],
      streams: this.streamStats(),
      lcores: this.lcores.map((l) => l.id),
    };
  }

  // ---------------------------------------------------------------- txonly

  private txFlows(lcoreId: number): Flow[] {
    const lab = this.lab;
    const cfg = this.cfg;
    const mk = (sport: number) => {
      let f = this.txFlowBySport.get(sport);
      if (!f) {
        f = lab.makeFlow(this.inst, {
          srcIp: cfg.txIpSrc,
          dstIp: cfg.txIpDst,
          proto: 'udp',
          srcPort: sport,
          dstPort: cfg.txUdpDst,
        });
        this.txFlowBySport.set(sport, f);
      }
      return f;
    };
    if (!cfg.multiFlow) return [mk(cfg.txUdpSrc)];
    // txonly.c: src_port = ((src_var++ | 0xC0) << 8) + rte_lcore_id(): 64 distinct ports per lcore
    const out: Flow[] = [];
    for (let v = 0; v < 64; v++) out.push(mk((((v | 0xc0) << 8) + lcoreId) & 0xffff));
    return out;
  }

  /** One txonly stream's calls up to now (+ one batch of slack), then wait for room or the next call. */
  private txKick(st: Stream): void {
    if (!this.running) return;
    const now = this.lab.nowNs;
    const burst = this.cfg.burst;
    const lc = this.lcores.find((l) => l.id === st.lcore)!;
    const periodNs = lc.streams.length * burst * this.pktNs;
    if (st.cursorNs < now) {
      // calls made while the ring was full: the burst was built and freed (TX-dropped)
      const n = Math.ceil((now - st.cursorNs) / periodNs);
      st.fwdDropped += n * burst;
      st.cursorNs += n * periodNs;
    }
    const slackNs = this.lab.maxBatch * this.pktNs;
    let cpu = 0;
    while (st.cursorNs <= now + slackNs) {
      const room = this.dev.txRoom(st.txQueue);
      if (room <= 0) break; // the call at cursor finds the ring full; onTxRoom resumes
      const k = Math.min(room, burst);
      this.dev.xmit(st.txQueue, this.txBatch(st, k));
      st.txPackets += k;
      st.fwdDropped += burst - k;
      st.cursorNs += periodNs;
      cpu += burst * this.pktNs;
    }
    if (cpu > 0) lc.vcpu.charge(cpu);
    if (this.dev.txRoom(st.txQueue) > 0) st.timer!.armAt(st.cursorNs);
  }

  private txBatch(st: Stream, k: number): Packet {
    const flow = st.flows[st.flowIdx]!;
    st.flowIdx = (st.flowIdx + 1) % st.flows.length;
    const len = this.cfg.txPktLen;
    const p: Packet = {
      flow,
      count: k,
      sizeBytes: len - 14,
      payloadBytes: Math.max(0, len - 42),
      seq: st.seq,
      ack: 0,
      flags: 0,
      sack: null,
      window: 0,
      tos: 0,
      sentAtNs: this.lab.nowNs,
      enqueuedAtNs: this.lab.nowNs,
      txq: st.txQueue,
      mark: 0,
      inner: null,
    };
    st.seq += k;
    return p;
  }

  private onTxRoom(q: number): void {
    if (!this.running || this.cfg.mode !== 'txonly') return;
    const st = this.byTxq.get(q);
    if (st) this.txKick(st);
  }

  // ---------------------------------------------------------------- rxonly / io

  private onPolledRx(q: number): void {
    if (!this.running) return;
    const lc = this.byRxq.get(q);
    if (lc) this.wake(lc); // a queue no stream polls just fills up (imissed)
  }

  private wake(lc: Lcore): void {
    if (lc.busy || lc.wake.armed || this.cfg.mode === 'txonly') return;
    // the packet is seen on the lcore's next pass over its queues
    lc.wake.armAt(this.lab.nowNs + Math.max(1, lc.streams.length * this.pktNs));
  }

  private poll(lc: Lcore): void {
    if (!this.running) return;
    const burst = this.cfg.burst;
    const cap = Math.max(burst, this.lab.maxBatch);
    const taken: Array<[Stream, Packet[]]> = [];
    let total = 0;
    for (const st of lc.streams) {
      const pkts: Packet[] = [];
      let n = 0;
      while (n < cap && this.dev.rxPending(st.rxQueue) > 0) {
        const got = this.dev.pollRx(st.rxQueue, Math.min(burst, cap - n));
        for (const p of got) n += p.count;
        pkts.push(...got);
      }
      if (n > 0) {
        taken.push([st, pkts]);
        total += n;
      }
    }
    if (total === 0) return;
    lc.busy = true;
    lc.vcpu.run(total * this.pktNs, () => this.polled(lc, taken));
  }

  private polled(lc: Lcore, taken: Array<[Stream, Packet[]]>): void {
    lc.busy = false;
    if (!this.running) return;
    for (const [st, pkts] of taken) {
      for (const p of pkts) {
        st.rxPackets += p.count;
        if (this.cfg.mode === 'io') this.forward(st, p);
      }
    }
    if (lc.streams.some((s) => this.dev.rxPending(s.rxQueue) > 0)) this.poll(lc);
  }

  /** io: send the received batch out of the stream's TX queue, back to its source. */
  private forward(st: Stream, p: Packet): void {
    let flow = this.reverse.get(p.flow.id);
    if (!flow) {
      const t = p.flow.tuple;
      flow = this.lab.makeFlow(this.inst, {
        srcIp: t.dstIp,
        dstIp: t.srcIp,
        proto: t.proto,
        srcPort: t.dstPort,
        dstPort: t.srcPort,
      });
      this.reverse.set(p.flow.id, flow);
    }
    const room = this.dev.txRoom(st.txQueue);
    const k = Math.min(room, p.count);
    st.fwdDropped += p.count - k;
    if (k <= 0) return;
    const out = cloneBatch(p, p.count);
    if (k < out.count) splitBatch(out, k);
    out.flow = flow;
    out.txq = st.txQueue;
    out.sentAtNs = this.lab.nowNs;
    this.dev.xmit(st.txQueue, out);
    st.txPackets += k;
  }
}
