/**
 * The lab's packets as the wire packets tcpdump would capture: a batch of identical packets one
 * by one, with the header fields Linux sets and the model does not carry, derived per connection
 * from a hash of the 4-tuple and the seed (the ISN and TCP timestamp offset as secure_tcp_seq and
 * secure_tcp_ts_off, inet_id's IP ids), MSS from the MTU, wscale 7 and TTL 64 (assumed, see
 * `man tcpdump`), SACK blocks, fragments' offsets, the checksums offload leaves.
 * Sources: LINUX net/core/secure_seq.c, net/ipv4/tcp_output.c (tcp_select_initial_window,
 * tcp_options_write), net/ipv4/ip_output.c (ip_select_ident, ip_fragment).
 */
import { hashString, mix32 } from '../../../core/rng';
import type { Lab } from '../../../lab/lab';
import {
  TCP_FLAG_ACK,
  TCP_FLAG_FIN,
  TCP_FLAG_PSH,
  TCP_FLAG_RST,
  TCP_FLAG_SYN,
  type Packet,
} from '../../../model/packet';
import { type BatchView, batchRowNs, steppedAck } from './batch-capture';
import { pseudoSum, TH, type TcpOption, tcpPseudoSum, type WirePacket } from './pcap';

const NO_OPTIONS: TcpOption[] = [];

/** Linux's window scale for the default tcp_rmem (6 MiB max): 7. */
const WSCALE = 7;
const TTL = 64;

/** Turns the model's batches into wire packets, with the header fields Linux would set. */
export class WireMapper {
  /** ICMP: the first direction seen of a pair is the echo request. */
  private readonly icmpReq = new Map<string, string>();
  /** IP id counters per flow (inet_id: a random start, one per packet sent). */
  private readonly ipIds = new Map<number, number>();
  /** The peer's last TS val seen on this host, per connection (ts_recent). */
  private readonly tsRecent = new Map<string, number>();
  constructor(
    private readonly lab: Lab,
    private readonly mtu: number,
  ) {}

  /** Hashes per 4-tuple and MACs per address, computed once (the capture sees every packet). */
  private readonly hashes = new Map<string, number>();
  private readonly macs = new Map<string, string>();
  private hashed(kind: string, src: string, sp: number, dst: string, dp: number): number {
    const key = `${kind}|${src}|${sp}|${dst}|${dp}`;
    let h = this.hashes.get(key);
    if (h === undefined) {
      h = mix32(hashString(key) ^ this.lab.scenario.seed) >>> 0;
      this.hashes.set(key, h);
    }
    return h;
  }
  private isn(src: string, sp: number, dst: string, dp: number): number {
    return this.hashed('isn', src, sp, dst, dp);
  }
  /** The MAC of the interface holding `ip` (an attached ENI's eth1 … has its own). */
  private mac(ip: string): string {
    let m = this.macs.get(ip);
    if (m === undefined) {
      const inst = this.lab.resolve(ip);
      m = inst
        ? (inst.host.ifaces[this.lab.deviceOfAddress(ip)]?.dev ?? inst.host.eth0).link().mac
        : '02:00:00:00:00:01';
      this.macs.set(ip, m);
    }
    return m;
  }

  /**
   * The `count` wire packets of a batch, as seen at `atNs` going `tx` (sent by this host) or
   * received; with the capture point's view of it (./batch-capture.ts captureBatch), packet k
   * at its own time on the wire and, in a batch of ACKs, with its own ACK number.
   */
  map(
    p: Packet,
    atNs: number,
    tx: boolean,
    out: (w: WirePacket) => void,
    view: BatchView | null = null,
  ): void {
    if (view === null) {
      for (let k = 0; k < p.count; k++) out(this.mapOne(p, k, atNs, tx));
      return;
    }
    const { startNs, gapNs, ackMss, ackFrom } = view;
    for (let k = 0; k < p.count; k++) {
      const ack = ackMss > 0 ? steppedAck(ackFrom, p.ack, p.count, ackMss, k) : p.ack;
      out(this.mapOne(p, k, batchRowNs(startNs, k, gapNs), tx, ack));
    }
  }

  /**
   * Go on with a flow's IP ids as if `sent` of its packets had been mapped already (the packet
   * list's details rebuild the mapper's state for one packet instead of replaying every one).
   */
  skipIpIds(flow: Packet['flow'], sent: number): void {
    const t = flow.tuple;
    const base =
      mix32(hashString(`ipid|${t.srcIp}|${t.srcPort}|${t.dstIp}|${t.dstPort}`) ^ this.lab.scenario.seed) &
      0xffff;
    this.ipIds.set(flow.id, (base + sent) & 0xffff);
  }

  /**
   * The k-th wire packet of a batch (what `map` hands out; the packet list calls it per row). The
   * mapper keeps per-flow state (IP ids, the peer's last TS value): call it in capture order.
   */
  mapOne(p: Packet, k: number, atNs: number, tx: boolean, ack = p.ack): WirePacket {
    const t = p.flow.tuple;
    const wall = this.lab.wallClockStartS * 1e6 + Math.floor(atNs / 1000);
    const sec = Math.floor(wall / 1e6);
    const usec = wall - sec * 1e6;
    const srcMac = this.mac(t.srcIp);
    const dstMac = this.mac(t.dstIp);
    const proto = t.proto === 'tcp' ? 6 : t.proto === 'udp' ? 17 : t.proto === 'icmp' ? 1 : 47;
    const fid = p.flow.id;
    {
      // an object literal with every field (one shape, no spread: the capture sees every packet)
      const w: WirePacket = {
        sec,
        usec,
        srcMac,
        dstMac,
        srcIp: t.srcIp,
        dstIp: t.dstIp,
        proto,
        ipLen: p.sizeBytes,
        tos: p.tos,
        ipId: 0,
        mf: false,
        fragOffset: 0,
        ttl: TTL,
        sport: t.srcPort,
        dport: t.dstPort,
        seq: 0,
        ack: 0,
        flags: 0,
        win: 0,
        options: NO_OPTIONS,
        df: true,
        tcpSum: undefined,
        udpSum: undefined,
        icmpType: 0,
        icmpId: 0,
        icmpSeq: 0,
      };
      let id = this.ipIds.get(fid);
      if (id === undefined)
        id =
          mix32(hashString(`ipid|${t.srcIp}|${t.srcPort}|${t.dstIp}|${t.dstPort}`) ^ this.lab.scenario.seed) &
          0xffff;
      w.ipId = id;
      this.ipIds.set(fid, (id + 1) & 0xffff);
      w.df = !p.frag;
      if (t.proto === 'tcp') {
        this.tcp(p, k, w, atNs, tx, ack);
        // sent: the pseudo-header sum only (checksum offload); received: the sender's NIC filled it in
        if (tx) w.tcpSum = tcpPseudoSum(w, w.ipLen - 20);
      } else if (t.proto === 'udp') {
        // sent whole: the pseudo-header sum only (the NIC fills the rest); a datagram Linux
        // fragments it checksums itself first (skb_checksum_help), as the receiver sees it
        if (tx && !p.frag) w.udpSum = pseudoSum(w, 17, w.ipLen - 20);
        // fragments of one datagram: the first carries the UDP header
        if (p.frag) this.fragment(p, p.frag, k, w);
      } else if (t.proto === 'icmp') {
        const key = [t.srcIp, t.dstIp].sort().join('|');
        if (!this.icmpReq.has(key)) this.icmpReq.set(key, t.srcIp);
        const req = this.icmpReq.get(key) === t.srcIp;
        w.icmpType = req ? 8 : 0;
        w.icmpId = (hashString(`icmpid|${req ? t.srcIp : t.dstIp}`) ^ this.lab.scenario.seed) & 0xffff;
        w.icmpSeq = p.seq & 0xffff;
        // the kernel's echo reply goes without DF (icmp_reply)
        if (!req) w.df = false;
        if (p.frag) this.fragment(p, p.frag, k, w);
      }
      return w;
    }
  }

  /** The k-th fragment of a datagram (ip_fragment): its id, offset and more-fragments flag. */
  private fragment(p: Packet, frag: NonNullable<Packet['frag']>, k: number, w: WirePacket): void {
    w.ipId = (hashString(`frag|${w.srcIp}|${p.seq}`) ^ p.flow.id) & 0xffff;
    w.fragOffset = frag.last
      ? Math.floor(((frag.of - 1) * (this.mtu - 20)) / 8)
      : Math.floor((k * (this.mtu - 20)) / 8);
    w.mf = !frag.last;
  }

  /** Per flow: ISNs and TS offsets of both directions, and the keys of ts_recent (computed once). */
  private readonly flowConst = new Map<
    number,
    { mine: number; theirs: number; offMine: number; offTheirs: number; ckey: string; rkey: string }
  >();

  private tcp(p: Packet, k: number, w: WirePacket, atNs: number, tx: boolean, ack: number): void {
    const t = p.flow.tuple;
    let fc = this.flowConst.get(p.flow.id);
    if (!fc) {
      fc = {
        mine: this.isn(t.srcIp, t.srcPort, t.dstIp, t.dstPort),
        theirs: this.isn(t.dstIp, t.dstPort, t.srcIp, t.srcPort),
        offMine: this.hashed('tsoff', t.srcIp, t.srcPort, t.dstIp, t.dstPort),
        offTheirs: this.hashed('tsoff', t.dstIp, t.dstPort, t.srcIp, t.srcPort),
        ckey: `${t.srcIp}.${t.srcPort}>${t.dstIp}.${t.dstPort}`,
        rkey: `${t.dstIp}.${t.dstPort}>${t.srcIp}.${t.srcPort}`,
      };
      this.flowConst.set(p.flow.id, fc);
    }
    const { mine, theirs } = fc;
    const syn = (p.flags & TCP_FLAG_SYN) !== 0;
    const seq = p.seq + k * p.payloadBytes;
    w.seq = syn ? mine : (mine + 1 + seq) >>> 0;
    w.ack = (theirs + 1 + ack) >>> 0;
    let f = 0;
    if (p.flags & TCP_FLAG_SYN) f |= TH.SYN;
    if (p.flags & TCP_FLAG_FIN) f |= TH.FIN;
    if (p.flags & TCP_FLAG_RST) f |= TH.RST;
    if (p.flags & TCP_FLAG_ACK || !syn) f |= TH.ACK;
    // Linux sets PSH on the last segment of a write (tcp_mark_push); the lab: on data segments that end a batch
    if ((p.flags & TCP_FLAG_PSH || (p.payloadBytes > 0 && k === p.count - 1)) && p.payloadBytes > 0)
      f |= TH.PUSH;
    w.flags = f;
    const val = (Math.floor((tx ? atNs : p.sentAtNs) / 1e6) + fc.offMine) >>> 0;
    // ecr: the newest TS val the sender had from its peer (0 on a SYN)
    const ecr =
      syn && !(p.flags & TCP_FLAG_ACK)
        ? 0
        : (this.tsRecent.get(fc.rkey) ??
          (Math.floor(Math.max(0, p.sentAtNs - 1) / 1e6) + fc.offTheirs) >>> 0);
    this.tsRecent.set(fc.ckey, val);
    if (syn) {
      // tcp_select_initial_window: the unscaled SYN window, a whole number of MSS
      const mss = this.mtu - 40;
      w.win = Math.floor(Math.min(65535, p.window) / mss) * mss;
      w.options = [
        { kind: 'mss', v: this.mtu - 40 },
        { kind: 'sackOK' },
        { kind: 'ts', val, ecr },
        { kind: 'nop' },
        { kind: 'wscale', v: WSCALE },
      ];
    } else {
      w.win = Math.min(65535, p.window >> WSCALE);
      w.options = [{ kind: 'nop' }, { kind: 'nop' }, { kind: 'ts', val, ecr }];
      if (p.sack && p.sack.length > 0 && k === 0) {
        const blocks: Array<[number, number]> = [];
        for (let j = 0; j + 1 < p.sack.length && blocks.length < 3; j += 2)
          blocks.push([(theirs + 1 + p.sack[j]!) >>> 0, (theirs + 1 + p.sack[j + 1]!) >>> 0]);
        w.options.push({ kind: 'nop' }, { kind: 'nop' }, { kind: 'sack', blocks });
        w.ipLen = p.sizeBytes + 4 + 8 * blocks.length;
      }
    }
  }
}

// ------------------------------------------------------------------ the command
