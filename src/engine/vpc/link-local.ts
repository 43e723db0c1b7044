/**
 * The VPC's link-local services as seen from an instance's Nitro card: the Amazon DNS server
 * (Route 53 Resolver, 169.254.169.253 and VPC base + 2). The card admits packets to them through
 * its 1024 pps link-local allowance (nitro-card.ts); this module answers what was admitted.
 *
 * The resolver answers each query MODEL_PARAMS.resolverResponseNs (assumed) after it left the card,
 * with a reply whose size the querying application computed (it knows the name and the record).
 * The names it holds are the lab's instances, as a Route 53 private hosted zone plus the EC2
 * ip-a-b-c-d.ec2.internal names would give them (see apps/dns.ts). IMDS (169.254.169.254) and Time
 * Sync (169.254.169.123) share the allowance but are not served: packets to them are counted and
 * then vanish (no tool in the lab talks to them yet).
 */
import type { Scheduler } from '../core/scheduler';
import { type FiveTuple, type Flow, type Packet, reverseTuple } from '../model/packet';
import type { ParamValues } from '../model/params';

/** Reply payload bytes for a query batch, or -1 for no answer. */
export type DnsAnswerFn = (q: Packet) => number;

/** An instance the services answer: its Nitro card takes the replies. */
export interface LinkLocalClient {
  readonly nitro: { fromLinkLocal(p: Packet): void };
}

/** What the services need of the lab (the Lab is one): its clock, scheduler, parameters and flows. */
export interface LinkLocalLab<I extends LinkLocalClient> {
  readonly nowNs: number;
  readonly sched: Scheduler;
  readonly params: ParamValues;
  makeFlow(owner: I, tuple: FiveTuple): Flow;
}

interface Served<I> {
  reply: Flow;
  answer: DnsAnswerFn;
  inst: I;
}

export class LinkLocalServices<I extends LinkLocalClient> {
  private readonly byQueryFlow: (Served<I> | undefined)[] = [];

  constructor(private readonly lab: LinkLocalLab<I>) {}

  /**
   * Serve DNS on the query flow `q` from instance `inst`: returns the reply flow (resolver →
   * instance) the application registers to receive answers on.
   */
  serveDns(inst: I, q: Flow, answer: DnsAnswerFn): Flow {
    const reply = this.lab.makeFlow(inst, reverseTuple(q.tuple));
    this.byQueryFlow[q.id] = { reply, answer, inst };
    return reply;
  }

  /** Stop answering on a query flow (the application closed its socket). */
  close(q: Flow): void {
    this.byQueryFlow[q.id] = undefined;
  }

  /** A packet the card admitted to a link-local service. */
  receive(p: Packet): void {
    const s = this.byQueryFlow[p.flow.id];
    if (!s || p.flow.tuple.dstPort !== 53) return; // not a DNS query we serve: no answer
    const bytes = s.answer(p);
    if (bytes < 0) return;
    const lab = this.lab;
    const now = lab.nowNs;
    const r: Packet = {
      flow: s.reply,
      count: p.count,
      sizeBytes: 28 + bytes,
      payloadBytes: bytes,
      seq: p.seq,
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
    lab.sched.after(lab.params.resolverResponseNs, () => s.inst.nitro.fromLinkLocal(r));
  }
}
