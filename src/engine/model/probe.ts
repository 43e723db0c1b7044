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
  /**
   * The stages whose `enter` / `leave` this listener needs (absent: all). A listener that looks at
   * one or two stages says so and is not called for the others: the probe fans a stage's calls out
   * only to the listeners that asked for it (drops always reach every listener).
   */
  readonly enterStages?: readonly ProbeStage[];
  readonly leaveStages?: readonly ProbeStage[];
  /**
   * A listener that, for now, only counts what crosses each stage (the path recorder in a
   * fast-forward) says so here and takes every stage's crossings through `countEnter` and
   * `countLeave`, with the stage's index, called directly from the probe's dispatch instead of
   * `enter`/`leave` through the fan-out (at the top speed that hop was a sixth of the worker's
   * instructions). The probe reads it when listeners change; a listener that changes it calls
   * `Probe.refresh`. At most one counting listener is called so; any other gets `enter`/`leave`.
   */
  readonly counting?: boolean;
  countEnter?(stage: number, atNs: number, host: number, queue: number, pkt: Packet): void;
  countLeave?(stage: number, atNs: number, host: number, queue: number, pkt: Packet): void;
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

type EnterFn = (atNs: number, host: number, stage: ProbeStage, queue: number, pkt: Packet) => void;
type LeaveFn = (
  atNs: number,
  host: number,
  stage: ProbeStage,
  queue: number,
  pkt: Packet,
  cpu: number,
) => void;

const NOOP = () => {};

/** One function calling `fns` in order (none: a no-op; one: itself). */
function fanOut<F extends (...a: never[]) => void>(fns: F[]): F {
  if (fns.length === 0) return NOOP as unknown as F;
  if (fns.length === 1) return fns[0]!;
  if (fns.length === 2) {
    const [a, b] = fns as [F, F];
    return ((...args: Parameters<F>) => {
      a(...args);
      b(...args);
    }) as F;
  }
  return ((...args: Parameters<F>) => {
    for (const f of fns) f(...args);
  }) as F;
}

/**
 * PROBE_STAGE_INDEX[stage] as a switch: a keyed load with eight different string keys goes
 * megamorphic, and the probe (and the path recorder) look a stage up on every call.
 */
export function stageIndex(stage: ProbeStage): number {
  switch (stage) {
    case 'socket_tx':
      return 0;
    case 'qdisc':
      return 1;
    case 'tx_ring':
      return 2;
    case 'nitro_egress':
      return 3;
    case 'fabric':
      return 4;
    case 'nitro_ingress':
      return 5;
    case 'rx_ring':
      return 6;
    default:
      return 7;
  }
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

  /** A listener's `counting` changed: dispatch again by what each listener asks now. */
  refresh(): void {
    if (this.listeners.length > 0) this.rebuild();
  }

  /** Listeners attached (tests and the worker's diagnostics). */
  get listenerCount(): number {
    return this.listeners.length;
  }

  private rebuild(): void {
    const all = this.listeners.slice();
    if (all.length === 0) {
      this.sink = null;
      return;
    }
    const counter = all.find((l) => l.counting === true && l.countEnter && l.countLeave) ?? null;
    // the counter's crossings go through countEnter/countLeave; drops still reach every listener
    const ls = all.filter((l) => l !== counter);
    // per stage, the listeners that asked for it, in attach order (a listener that asks for every
    // stage alone is called directly); the stages someone listens to, as bits (for the counter's
    // dispatch, which then calls nobody for the others)
    const enterBy: EnterFn[] = [];
    const leaveBy: LeaveFn[] = [];
    let enterBits = 0;
    let leaveBits = 0;
    for (let i = 0; i < PROBE_STAGES.length; i++) {
      const st = PROBE_STAGES[i]!;
      const en = ls.filter((l) => !l.enterStages || l.enterStages.includes(st));
      const lv = ls.filter((l) => !l.leaveStages || l.leaveStages.includes(st));
      if (en.length > 0) enterBits |= 1 << i;
      if (lv.length > 0) leaveBits |= 1 << i;
      enterBy.push(fanOut(en.map((l): EnterFn => l.enter.bind(l))));
      leaveBy.push(fanOut(lv.map((l): LeaveFn => l.leave.bind(l))));
    }
    const drop = fanOut(all.map((l) => l.drop.bind(l)));
    const [e0, e1, e2, e3, e4, e5, e6, e7] = enterBy as [
      EnterFn,
      EnterFn,
      EnterFn,
      EnterFn,
      EnterFn,
      EnterFn,
      EnterFn,
      EnterFn,
    ];
    const [l0, l1, l2, l3, l4, l5, l6, l7] = leaveBy as [
      LeaveFn,
      LeaveFn,
      LeaveFn,
      LeaveFn,
      LeaveFn,
      LeaveFn,
      LeaveFn,
      LeaveFn,
    ];
    // one call site per stage (a switch, not enterBy[stageIndex(s)]): each sees one target and can be
    // inlined; the indexed call measured 2-3 % more worker CPU at the top speed (tests/bench/worker-cpu.ts
    // 60 page, 4 alternating runs each)
    if (counter === null) {
      this.sink = {
        enter: (t, h, s, q, p) => {
          switch (s) {
            case 'socket_tx':
              return e0(t, h, s, q, p);
            case 'qdisc':
              return e1(t, h, s, q, p);
            case 'tx_ring':
              return e2(t, h, s, q, p);
            case 'nitro_egress':
              return e3(t, h, s, q, p);
            case 'fabric':
              return e4(t, h, s, q, p);
            case 'nitro_ingress':
              return e5(t, h, s, q, p);
            case 'rx_ring':
              return e6(t, h, s, q, p);
            default:
              return e7(t, h, s, q, p);
          }
        },
        leave: (t, h, s, q, p, c) => {
          switch (s) {
            case 'socket_tx':
              return l0(t, h, s, q, p, c);
            case 'qdisc':
              return l1(t, h, s, q, p, c);
            case 'tx_ring':
              return l2(t, h, s, q, p, c);
            case 'nitro_egress':
              return l3(t, h, s, q, p, c);
            case 'fabric':
              return l4(t, h, s, q, p, c);
            case 'nitro_ingress':
              return l5(t, h, s, q, p, c);
            case 'rx_ring':
              return l6(t, h, s, q, p, c);
            default:
              return l7(t, h, s, q, p, c);
          }
        },
        drop,
      };
      return;
    }
    // the counter first, with the stage's index (its crossings as `enter`/`leave` would have had
    // them), from one call site (V8 inlines it there; from eight it inlined none). A closure of its
    // own, not the one above with `if (counter)`: one literal for both sees the no-counter sink
    // first (detail is on at the start) and measured 2.2 % more worker instructions in fast-forward
    // (tests/bench/instructions.sh 20 page: 8.66 G against 8.47 G)
    const k = counter as Required<Pick<ProbeSink, 'countEnter' | 'countLeave'>>;
    this.sink = {
      enter: (t, h, s, q, p) => {
        const i = stageIndex(s);
        k.countEnter(i, t, h, q, p);
        if ((enterBits & (1 << i)) === 0) return;
        switch (i) {
          case 0:
            return e0(t, h, s, q, p);
          case 1:
            return e1(t, h, s, q, p);
          case 2:
            return e2(t, h, s, q, p);
          case 3:
            return e3(t, h, s, q, p);
          case 4:
            return e4(t, h, s, q, p);
          case 5:
            return e5(t, h, s, q, p);
          case 6:
            return e6(t, h, s, q, p);
          default:
            return e7(t, h, s, q, p);
        }
      },
      leave: (t, h, s, q, p, c) => {
        const i = stageIndex(s);
        k.countLeave(i, t, h, q, p);
        if ((leaveBits & (1 << i)) === 0) return;
        switch (i) {
          case 0:
            return l0(t, h, s, q, p, c);
          case 1:
            return l1(t, h, s, q, p, c);
          case 2:
            return l2(t, h, s, q, p, c);
          case 3:
            return l3(t, h, s, q, p, c);
          case 4:
            return l4(t, h, s, q, p, c);
          case 5:
            return l5(t, h, s, q, p, c);
          case 6:
            return l6(t, h, s, q, p, c);
          default:
            return l7(t, h, s, q, p, c);
        }
      },
      drop,
    };
  }
}
