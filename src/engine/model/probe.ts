/**
 * The stage probe: one observation point shared by the metrics recorder (time series, occupancy
 * maxima, drops, latency) and the visual lab (packets moving along the path). Each stage of the
 * packet path reports a batch entering it, leaving it, or dying in it; occupancy is not reported
 * separately, it is what entered minus what left or died after entering, per (host, stage, queue).
 *
 * Guarantees:
 * - Free when nobody listens: stages call `probe.sink?.enter(...)`; the sink is null by default.
 * - Observational only: a listener must not change the model (no scheduling, no mutation of the
 *   packet). Listeners may keep a reference to the Packet only for the duration of the call (stages
 *   recycle and split batches), so copy the fields you need.
 * - Conservation, per (host, stage, queue): enters − leaves − drops(wasQueued) ≥ 0 at every instant,
 *   and equals the number of wire packets the stage holds (queued, in service or in flight).
 */
import type { DropReason } from './drop-reasons';
import type { Packet } from './packet';

/** The stages of the path, in the order a packet passes them (sender side, fabric, receiver side). */
export const PROBE_STAGES = [
  'socket_tx', // bytes handed to the socket by the application (send buffer)
  'qdisc', // the root qdisc of the egress device (queue = TX queue for mq children, else 0)
  'tx_ring', // ENA TX ring (queue = ring index)
  'nitro_egress', // Nitro card egress: flow lookup, per-flow limit, bandwidth/PPS shapers (queue = 0)
  'fabric', // the VPC between two cards (queue = 0; occupancy = in flight)
  'nitro_ingress', // Nitro card ingress shapers (queue = 0)
  'rx_ring', // ENA RX ring (queue = ring index) until NAPI takes the batch
  'socket_rx', // the receiving socket's buffer until the application reads it
] as const;
export type ProbeStage = (typeof PROBE_STAGES)[number];

/** Stage index, for typed-array frames. */
export const PROBE_STAGE_INDEX: Readonly<Record<ProbeStage, number>> = Object.fromEntries(
  PROBE_STAGES.map((s, i) => [s, i]),
) as Record<ProbeStage, number>;

export interface ProbeSink {
  /** `pkt` (a batch of `pkt.count` wire packets) entered `stage` of instance `host` (index in lab order). */
  enter(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet): void;
  /** `pkt` left `stage` (served and handed on). `cpu` is the vCPU that handled it, or -1. */
  leave(atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet, cpu: number): void;
  /**
   * `count` wire packets of `pkt`'s flow died in `stage` for `reason`. `wasQueued`: they had been
   * reported by `enter` (a drop from inside a queue) rather than refused on arrival.
   */
  drop(
    atNs: number,
    host: number,
    stage: ProbeStage,
    queue: number,
    pkt: Packet,
    count: number,
    reason: DropReason,
    wasQueued: boolean,
  ): void;
}

/** The lab's probe holder, passed to every stage; `sink` is the fan-out of the attached listeners. */
export class Probe {
  sink: ProbeSink | null = null;
  private readonly listeners: ProbeSink[] = [];

  /** Attach a listener; returns a detach function. */
  attach(l: ProbeSink): () => void {
    this.listeners.push(l);
    this.rebuild();
    return () => {
      const i = this.listeners.indexOf(l);
      if (i >= 0) this.listeners.splice(i, 1);
      this.rebuild();
    };
  }

  private rebuild(): void {
    const ls = this.listeners.slice();
    if (ls.length === 0) this.sink = null;
    else if (ls.length === 1) this.sink = ls[0]!;
    else if (ls.length === 2) {
      // the worker's pair (path and chart recorders): two direct calls, each call site sees one
      // receiver, instead of a loop whose call site sees both
      const a = ls[0]!;
      const b = ls[1]!;
      this.sink = {
        enter: (t, h, s, q, p) => {
          a.enter(t, h, s, q, p);
          b.enter(t, h, s, q, p);
        },
        leave: (t, h, s, q, p, c) => {
          a.leave(t, h, s, q, p, c);
          b.leave(t, h, s, q, p, c);
        },
        drop: (t, h, s, q, p, n, r, w) => {
          a.drop(t, h, s, q, p, n, r, w);
          b.drop(t, h, s, q, p, n, r, w);
        },
      };
    } else
      this.sink = {
        enter: (t, h, s, q, p) => {
          for (const l of ls) l.enter(t, h, s, q, p);
        },
        leave: (t, h, s, q, p, c) => {
          for (const l of ls) l.leave(t, h, s, q, p, c);
        },
        drop: (t, h, s, q, p, n, r, w) => {
          for (const l of ls) l.drop(t, h, s, q, p, n, r, w);
        },
      };
  }
}
