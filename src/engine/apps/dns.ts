/**
 * DNS over the model: what the VPC resolver knows, and a client UDP socket that sends queries to it
 * through the host stack and the Nitro card (where the 1024 pps link-local allowance applies) and
 * matches answers by query id (the packet's sequence number).
 *
 * Names the resolver holds: every instance by its lab name (client, server, …; as a Route 53
 * private hosted zone associated with the VPC would), and the EC2 private DNS names
 * ip-a-b-c-d.ec2.internal (us-east-1's form) of the instances' addresses. Anything else is NXDOMAIN:
 * the lab has no internet DNS. Records are A records, TTL 60 (EC2 private names). Message sizes are
 * the DNS wire sizes (RFC 1035 header 12, name labels, question 4, answer RR 10 + 4 with a name
 * pointer of 2, EDNS OPT 11 (+ a 12-byte COOKIE option in dig's query).
 */
import type { Vcpu } from '../host/cpu';
import type { Instance, Lab } from '../lab/lab';
import type { Flow, Packet } from '../model/packet';

export const EC2_INTERNAL_DOMAIN = 'ec2.internal';
export const DNS_TTL_S = 60;

/** Fully-qualified (trailing dot) form of a name. */
export function fqdn(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

/** The A record the VPC resolver gives for `name`, or null (NXDOMAIN). */
export function lookupA(lab: Lab, name: string): string | null {
  const n = fqdn(name.toLowerCase()).slice(0, -1);
  const inst = lab.instance(n);
  if (inst) return inst.host.ip;
  const m = /^ip-(\d+)-(\d+)-(\d+)-(\d+)\.ec2\.internal$/.exec(n);
  if (m) {
    const ip = `${m[1]}.${m[2]}.${m[3]}.${m[4]}`;
    if (lab.resolve(ip)) return ip;
  }
  return null;
}

/** Bytes of a name in DNS wire format (labels with length octets, the root label). */
export function wireNameBytes(name: string): number {
  const n = fqdn(name);
  return n === '.' ? 1 : n.length + 1;
}

export function queryBytes(name: string, edns: boolean, cookie: boolean): number {
  return 12 + wireNameBytes(name) + 4 + (edns ? 11 + (cookie ? 12 : 0) : 0);
}

export function responseBytes(name: string, answers: number, edns: boolean): number {
  return 12 + wireNameBytes(name) + 4 + answers * 16 + (edns ? 11 : 0);
}

export interface DnsAnswer {
  id: number;
  rcode: 'NOERROR' | 'NXDOMAIN';
  address: string | null;
  sizeBytes: number;
  sentNs: number;
  atNs: number;
}

interface Pending {
  name: string;
  type: 'A' | 'AAAA';
  sentNs: number;
  onAnswer: (a: DnsAnswer) => void;
}

/** One UDP socket (one source port) sending queries to the VPC resolver. */
export class DnsClient {
  readonly flow: Flow;
  private readonly reply: Flow;
  private readonly pending = new Map<number, Pending>();
  private readonly vcpu: Vcpu;

  constructor(
    private readonly lab: Lab,
    private readonly inst: Instance,
    serverIp: string,
    private readonly edns: boolean,
    private readonly cookie: boolean,
  ) {
    const port = inst.host.allocPort();
    this.flow = lab.makeFlow(inst, {
      srcIp: inst.host.ip,
      dstIp: serverIp,
      proto: 'udp',
      srcPort: port,
      dstPort: 53,
    });
    this.vcpu = inst.host.vcpus[0]!;
    this.reply = lab.linkLocal.serveDns(inst, this.flow, (q) => {
      const p = this.pending.get(q.seq);
      if (!p) return -1;
      const ip = p.type === 'A' ? lookupA(lab, p.name) : null;
      return responseBytes(p.name, ip ? 1 : 0, this.edns);
    });
    inst.host.registerRx(this.reply.id, { kind: 'raw', deliver: (p) => this.onReply(p) });
  }

  get localPort(): number {
    return this.flow.tuple.srcPort;
  }

  /** Send one query (id 0–65535); `onAnswer` when its reply arrives (never, if it is lost). */
  query(id: number, name: string, type: 'A' | 'AAAA', onAnswer: (a: DnsAnswer) => void): void {
    const now = this.lab.nowNs;
    this.pending.set(id, { name, type, sentNs: now, onAnswer });
    const bytes = queryBytes(name, this.edns, this.cookie);
    const p: Packet = {
      flow: this.flow,
      count: 1,
      sizeBytes: 28 + bytes,
      payloadBytes: bytes,
      seq: id,
      ack: 0,
      flags: 0,
      sack: null,
      window: 0,
      tos: 0,
      sentAtNs: now,
      enqueuedAtNs: now,
      txq: -1,
      mark: 0,
    };
    this.inst.host.transmit(p, this.inst.host.ctxVcpu ?? this.vcpu);
  }

  /** Forget a query (timed out): a late answer is ignored. */
  forget(id: number): void {
    this.pending.delete(id);
  }

  private onReply(p: Packet): void {
    const q = this.pending.get(p.seq);
    if (!q) return;
    this.pending.delete(p.seq);
    const ip = q.type === 'A' ? lookupA(this.lab, q.name) : null;
    const exists = lookupA(this.lab, q.name) !== null;
    q.onAnswer({
      id: p.seq,
      rcode: exists ? 'NOERROR' : 'NXDOMAIN',
      address: ip,
      sizeBytes: p.payloadBytes,
      sentNs: q.sentNs,
      atNs: this.lab.nowNs,
    });
  }

  close(): void {
    this.pending.clear();
    this.lab.linkLocal.close(this.flow);
    this.inst.host.unregister([this.reply.id]);
  }
}
