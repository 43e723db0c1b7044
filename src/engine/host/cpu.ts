/**
 * A vCPU as a non-preemptive FIFO server: work submitted to it starts when the vCPU is free and
 * occupies it for its cost. Softirq work (NAPI, TX completion) and process work (iperf3 threads)
 * share it, so a busy vCPU slows both — the mechanism behind "8 streams can't reach 10G each on
 * 2 vCPUs". Busy time is accumulated for CPU-utilisation reports.
 */
import type { Scheduler } from '../core/scheduler';

export class Vcpu {
  busyUntilNs = 0;
  busyNs = 0;

  constructor(
    readonly index: number,
    private readonly sched: Scheduler,
  ) {}

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

  /** Time at which work submitted now would start. */
  freeAtNs(): number {
    return Math.max(this.busyUntilNs, this.sched.now);
  }
}
