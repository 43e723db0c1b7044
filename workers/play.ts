/**
 * The two ways a frame advances other than straight to its instant: auto speed's jump over an idle
 * stretch (on to the event in which the next packet enters the path, or to the end of the 1 ms
 * slice in which a job ends or prints) and "run until" a condition (a drop, credits running out, a
 * counter moving, an instant), in 1 ms slices so the stop lands close to its cause.
 */
import type { Lab, Timeline } from '../src/engine';
import type { Frame, RunUntil } from '../src/protocol/sim-api';
import type { ServiceRun } from './service-run';

/** With a "run until" condition, time moves in slices this long so the stop lands close to the cause. */
export const UNTIL_SLICE_NS = 1_000_000;

interface Advanced {
  events: number;
  reached: boolean;
}

/** Auto speed over an idle stretch, up to `toNs` within `maxEvents`. */
export function skipIdle(
  tl: Timeline<ServiceRun>,
  run: ServiceRun,
  toNs: number,
  maxEvents: number,
  onGrid: () => void,
): Advanced {
  const s = run.session;
  const lab = s.lab;
  let events = 0;
  const detach = lab.probe.attach({
    enter: () => {
      lab.sched.halted = true;
    },
    leave: () => {},
    drop: () => {},
  });
  // …or to the end of the 1 ms slice in which a job ends or prints (the terminal has news)
  const printed = s.transcript.length;
  const fg = s.foreground !== null;
  const bg = s.backgroundCount;
  try {
    while (s.nowNs < toNs && events < maxEvents) {
      const slice = (Math.floor(s.nowNs / UNTIL_SLICE_NS) + 1) * UNTIL_SLICE_NS;
      const r = tl.advance(Math.min(toNs, slice), maxEvents - events, onGrid);
      events += r.events;
      if (lab.sched.halted) break;
      if (s.transcript.length !== printed || (s.foreground !== null) !== fg || s.backgroundCount !== bg)
        break;
    }
    return { events, reached: s.nowNs >= toNs };
  } finally {
    detach();
    lab.sched.halted = false;
  }
}

/**
 * Up to `toNs` within `maxEvents`, stopping at the end of the 1 ms slice in which the last job
 * ends (AdvanceRequest.stopWhenIdle). The foreground command runs in one go to its own deadline
 * (iperf3's -t), then in 1 ms slices until it is done; with no job at all nothing moves.
 */
export function advanceUntilIdle(
  tl: Timeline<ServiceRun>,
  run: ServiceRun,
  toNs: number,
  maxEvents: number,
  onGrid: () => void,
): Advanced {
  const s = run.session;
  let events = 0;
  while (s.nowNs < toNs && events < maxEvents) {
    if (s.foreground === null && s.backgroundCount === 0) break;
    const job = s.session.foreground?.job;
    const deadline = job ? job.deadlineNs() : Number.POSITIVE_INFINITY;
    const slice = (Math.floor(s.nowNs / UNTIL_SLICE_NS) + 1) * UNTIL_SLICE_NS;
    // background jobs only: no slicing; a foreground one: to its deadline at once, then slice by slice
    const target = !job ? toNs : deadline > slice ? deadline : slice;
    const r = tl.advance(Math.min(toNs, target), maxEvents - events, onGrid);
    events += r.events;
    if (!r.reached) break;
  }
  return { events, reached: s.nowNs >= toNs };
}

/** Run until `until` holds, up to `reqToNs` within `maxEvents`; says which condition stopped it. */
export function runUntil(
  tl: Timeline<ServiceRun>,
  run: ServiceRun,
  until: RunUntil,
  reqToNs: number,
  maxEvents: number,
  onGrid: () => void,
): Advanced & { stoppedBy: Frame['stoppedBy'] } {
  const s = run.session;
  let events = 0;
  let stoppedBy: Frame['stoppedBy'] = null;
  const toNs = until.kind === 'time' ? Math.min(reqToNs, until.atNs) : reqToNs;
  const watch = watcher(s.lab, until);
  // a drop or credits running out stop the model right after the event that caused them
  run.haltOn = until.kind === 'first-drop' ? 'drop' : until.kind === 'credits-empty' ? 'credits' : null;
  try {
    while (s.nowNs < toNs && events < maxEvents) {
      const r = tl.advance(Math.min(toNs, s.nowNs + UNTIL_SLICE_NS), maxEvents - events, onGrid);
      events += r.events;
      if (s.lab.sched.halted || watch()) {
        stoppedBy = until.kind;
        break;
      }
      // nothing runs and nothing is typed ahead: the condition cannot come true any more
      if (s.foreground === null && s.backgroundCount === 0 && !tl.commandLog.some((e) => e.atNs > s.nowNs))
        break;
    }
  } finally {
    run.haltOn = null;
    s.lab.sched.halted = false;
  }
  if (until.kind === 'time' && s.nowNs >= until.atNs) stoppedBy = 'time';
  return { events, reached: s.nowNs >= toNs, stoppedBy };
}

/** The condition's test after each slice (a drop and credits running out halt the scheduler themselves). */
function watcher(lab: Lab, until: RunUntil): () => boolean {
  if (until.kind === 'counter-moves') {
    const read = () => {
      const st = lab.instance(until.host)?.host.eth0.statistics() ?? [];
      return st.find((e) => e[0] === until.counter)?.[1] ?? 0;
    };
    const start = read();
    return () => read() !== start;
  }
  // first drop and credits running out halt the scheduler themselves (ServiceRun.haltOn)
  return () => false;
}
