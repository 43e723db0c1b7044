/**
 * IPv4 fragmentation and reassembly as Linux does them. Sending: a datagram over the device MTU
 * whose socket allows it (UDP and ping default to IP_PMTUDISC_WANT) is cut into fragments of
 * floor((MTU − 20) / 8) × 8 data bytes and a last one, leaving as two batches marked `Packet.frag`.
 * Receiving (ip_defrag): fragments are held per datagram until all arrived; an incomplete datagram
 * is freed after ipfrag_time (30 s) or when the held fragments exceed ipfrag_high_thresh (4 MiB),
 * counted in ReasmFails. Not modelled: IP options, overlaps, the ID space, fragments of TCP.
 *
 * Sources: LINUX net/ipv4/ip_output.c (ip_do_fragment), ip_fragment.c, ip-sysctl.rst; ENA-BP and
 * AWS-NITROPERF for what the Nitro card does with fragments (docs/domain-facts.md §1.6, §2.6).
 */
import type { Scheduler } from '../core/scheduler';
import { type FragInfo, IPV4_HEADER_BYTES, type Packet } from '../model/packet';

/** net.ipv4.ipfrag_time: seconds a datagram's fragments are held (Linux default 30). */
export const IPFRAG_TIME_NS = 30e9;
/** net.ipv4.ipfrag_high_thresh: bytes of fragments held before new ones are dropped (Linux default 4 MiB). */
export const IPFRAG_HIGH_THRESH_BYTES = 4 * 1024 * 1024;

/** Fragment sizes (IP total length each) of one datagram of `ipBytes` over a device of `mtu`. */
export function fragmentSizes(ipBytes: number, mtu: number): { full: number; n: number; last: number } {
  const data = ipBytes - IPV4_HEADER_BYTES;
  const per = Math.floor((mtu - IPV4_HEADER_BYTES) / 8) * 8;
  const n = Math.ceil(data / per);
  return { full: IPV4_HEADER_BYTES + per, n, last: IPV4_HEADER_BYTES + data - (n - 1) * per };
}

/**
 * Cut a batch of datagrams (each larger than `mtu`) into fragment batches, datagram by datagram:
 * for each, one batch of its full-size fragments and one of its last fragment.
 */
export function fragment(p: Packet, mtu: number): Packet[] {
  const { full, n, last } = fragmentSizes(p.sizeBytes, mtu);
  const out: Packet[] = [];
  const info = (isLast: boolean): FragInfo => ({
    of: n,
    last: isLast,
    datagramBytes: p.sizeBytes,
    datagramPayloadBytes: p.payloadBytes,
  });
  const fullInfo = info(false);
  const lastInfo = info(true);
  for (let d = 0; d < p.count; d++) {
    const seq = p.seq + d;
    if (n > 1)
      out.push({
        ...p,
        count: n - 1,
        sizeBytes: full,
        payloadBytes: full - IPV4_HEADER_BYTES,
        seq,
        frag: fullInfo,
      });
    out.push({
      ...p,
      count: 1,
      sizeBytes: last,
      payloadBytes: last - IPV4_HEADER_BYTES,
      seq,
      frag: lastInfo,
    });
  }
  return out;
}

/** /proc/net/snmp Ip: ReasmReqds (fragments received), ReasmOKs, ReasmFails; FragOKs, FragCreates on sending. */
export interface IpFragMib {
  reasmReqds: number;
  reasmOks: number;
  reasmFails: number;
  fragOks: number;
  fragCreates: number;
}

interface Pending {
  got: number;
  of: number;
  bytes: number;
  firstNs: number;
  sentAtNs: number;
  sample: Packet;
}

/** ip_defrag for one host. */
export class Reassembly {
  private readonly pending = new Map<string, Pending>();
  private heldBytes = 0;
  /** When the ip_expire timer of the oldest held datagram fires (0 = not armed). */
  private expiryAtNs = 0;

  constructor(
    private readonly sched: Scheduler,
    readonly mib: IpFragMib,
    /** Called with the fragments given up on (timed out or over the memory threshold). */
    private readonly onFail: (p: Packet, fragments: number) => void,
  ) {}

  /** Fragments held now (their datagrams incomplete). */
  get held(): number {
    let n = 0;
    for (const e of this.pending.values()) n += e.got;
    return n;
  }

  /** A fragment batch arrived: the whole datagram when it is now complete, else null. */
  add(p: Packet, nowNs: number): Packet | null {
    const f = p.frag!;
    this.mib.reasmReqds += p.count;
    const key = `${p.flow.id}:${p.seq}`;
    let e = this.pending.get(key);
    const bytes = p.count * p.sizeBytes;
    if (this.heldBytes + bytes > IPFRAG_HIGH_THRESH_BYTES) {
      // inet_frag_find refuses new fragments over ipfrag_high_thresh
      this.mib.reasmFails++;
      this.onFail(p, p.count);
      return null;
    }
    if (e === undefined) {
      e = { got: 0, of: f.of, bytes: 0, firstNs: nowNs, sentAtNs: p.sentAtNs, sample: p };
      this.pending.set(key, e);
      if (this.expiryAtNs === 0) this.armExpiry(nowNs + IPFRAG_TIME_NS);
    }
    e.got += p.count;
    e.bytes += bytes;
    this.heldBytes += bytes;
    if (p.sentAtNs < e.sentAtNs) e.sentAtNs = p.sentAtNs;
    if (e.got < e.of) return null;
    this.pending.delete(key);
    this.heldBytes -= e.bytes;
    this.mib.reasmOks++;
    return {
      ...p,
      count: 1,
      sizeBytes: f.datagramBytes,
      payloadBytes: f.datagramPayloadBytes,
      sentAtNs: e.sentAtNs,
      frag: null,
    };
  }

  private armExpiry(atNs: number): void {
    this.expiryAtNs = atNs;
    this.sched.at(atNs, () => this.expire());
  }

  /**
   * ip_expire: datagrams whose first fragment came ipfrag_time ago are given up. One timer for the
   * oldest held datagram (the map keeps arrival order), re-armed for the next.
   */
  private expire(): void {
    const now = this.sched.now;
    this.expiryAtNs = 0;
    for (const [key, e] of this.pending) {
      if (now - e.firstNs < IPFRAG_TIME_NS) {
        this.armExpiry(e.firstNs + IPFRAG_TIME_NS);
        return;
      }
      this.pending.delete(key);
      this.heldBytes -= e.bytes;
      this.mib.reasmFails++;
      this.onFail(e.sample, e.got);
    }
  }
}
