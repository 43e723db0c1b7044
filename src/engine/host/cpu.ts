/**
 * A vCPU as a non-preemptive FIFO server: work submitted to it starts when the vCPU is free and
 * occupies it for its cost. Softirq work (NAPI, TX completion) and process work (iperf3 threads)
 * share it, so a busy vCPU slows both — the mechanism behind "8 streams can't reach 10G each on
 * 2 vCPUs". Busy time is accumulated for CPU-utilisation reports.
 */
import { storeAsDoubles } from '../core/doubles';
import type { Scheduler } from '../core/scheduler';

/** Largest piece of work `runSoon` completes at once on an idle vCPU: 50 µs. */
const RUN_SOON_MAX_NS = 50_000;

export class Vcpu {
  busyUntilNs = 0;
  busyNs = 0;

  constructor(
    readonly index: number,
    private readonly sched: Scheduler,
  ) {
    storeAsDoubles(this, ['busyUntilNs', 'busyNs']); // times past 2^31 ns (core/doubles.ts)
  }

  /**
   * Run `fn(arg)` after `costNs` of this vCPU's time, starting when the vCPU is next free.
   * Returns the completion time.
   */
  run(costNs: number, fn: (arg: unknown) => void, arg?: unknown): number {
    const now = this.sched.now;
    const start = this.busyUntilNs > now ? this.busyUntilNs : now;
    const end = start + Math.max(0, Math.round(costNs));
    this.busyUntilNs = end;
    this.busyNs += end - start;
    this.sched.at(end, fn, arg);
    return end;
  }

  /**
   * `run` as an event handler's last act: true when the work's completion is the next event
   * (Scheduler.takeNext), the clock then at it and the caller to run `fn` at once; false when it is
   * scheduled as `run` does.
   */
  runOrTake(costNs: number, fn: (arg: unknown) => void, arg?: unknown): boolean {
    const end = this.charge(costNs);
    if (this.sched.takeNext(end)) return true;
    this.sched.at(end, fn, arg);
    return false;
  }

  /**
   * Account `costNs` of work on this vCPU without an event: its effect happens now, and work
   * submitted later waits behind it. Used for short kernel paths (a transmit, a TX-completion
   * clean) where a few µs of delay do not matter but the CPU they use does.
   * Returns the time the work ends.
   */
  charge(costNs: number): number {
    const now = this.sched.now;
    const start = this.busyUntilNs > now ? this.busyUntilNs : now;
    const end = start + Math.max(0, Math.round(costNs));
    this.busyUntilNs = end;
    this.busyNs += end - start;
    return end;
  }

  /**
   * Like `run`, but when the vCPU is idle the work's effect happens now (its cost is charged, so
   * later work still waits behind it) instead of `costNs` later through an event. For short
   * application work (a read or write of a few hundred µs at most) whose exact completion instant
   * does not matter but whose CPU use does. With the vCPU busy it queues exactly like `run`.
   */
  runSoon(costNs: number, fn: (arg: unknown) => void, arg?: unknown): void {
    // Only short work: a multi-megabyte write must still take its time (iperf3 -n measures it).
    if (this.busyUntilNs <= this.sched.now && costNs <= RUN_SOON_MAX_NS) {
      this.charge(costNs);
      fn(arg);
    } else {
      this.run(costNs, fn, arg);
    }
  }

  /** Time at which work submitted now would start. */
  freeAtNs(): number {
    return Math.max(this.busyUntilNs, this.sched.now);
  }
}
