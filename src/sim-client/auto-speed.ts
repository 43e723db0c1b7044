/**
 * Auto speed: play slowly enough to see packets while there are packets, jump over the stretches
 * where none moves. Pure functions; the lab controller asks them once per frame.
 *
 * The readable speed is derived from what the path view draws: a batch on the fabric crosses the
 * whole lane between the two hosts in one one-way latency (`PathLayout.fabricOneWayNs`), the
 * fastest full-width movement in the picture (the stages inside a host are narrower, and most of a
 * batch's time in them is queueing). The eye follows a mark that takes about half a second to
 * cross: at 60 frames a second it then moves 1/30 of the lane per frame. So the speed is the
 * one-way latency per AUTO_CROSSING_WALL_S: 24 µs/s in a cluster placement group (12 µs one way),
 * 80 µs/s in one AZ, 0.8 ms/s across AZs, 20 ms/s to the internet.
 */
import type { PathFrame } from '../protocol/path-frame';
import type { AutoPhase } from '../state/app-store';

/**
 * Wall time a batch takes to cross the path view's fabric lane at the auto speed (s): about 30
 * frames at 60 Hz, long enough to follow one mark across, short enough that a round trip of a
 * ping is over in about a second. A perception figure, not a model one.
 */
export const AUTO_CROSSING_WALL_S = 0.5;
/** Auto's speed while nothing runs at all (no command, nothing typed ahead): real time. */
export const AUTO_QUIET_NS_PER_S = 1e9;
/** Simulated time one request of an idle-stretch jump may cover at most (the top speed's frame). */
export const AUTO_SKIP_MAX_NS = 10e9;

/**
 * Wall time auto holds the readable speed once something new shows (packets after an idle stretch,
 * a command typed, the first drops after a stretch without): long enough to watch the new thing
 * cross the picture a few times. A perception figure, not a model one.
 */
export const AUTO_HOLD_WALL_S = 3;
/** Past the hold, while nothing new happens, auto doubles its speed every this many wall seconds. */
export const AUTO_DOUBLING_WALL_S = 0.5;
/** The steady state's ceiling: real time, so iperf3's 1-second intervals print a second apart. */
export const AUTO_STEADY_NS_PER_S = 1e9;

/**
 * Auto's speed while packets are in view: the readable speed for AUTO_HOLD_WALL_S after the last
 * new thing, then doubling every AUTO_DOUBLING_WALL_S up to real time (a steady 10-s iperf3 is not
 * played at 24 µs/s for four days of wall time; 24 µs/s → 1 s/s takes about 8 s).
 */
export function rampedSpeed(readable: number, wallSinceNewS: number): number {
  const over = wallSinceNewS - AUTO_HOLD_WALL_S;
  if (!(over > 0) || readable >= AUTO_STEADY_NS_PER_S) return readable;
  return Math.min(AUTO_STEADY_NS_PER_S, readable * 2 ** (over / AUTO_DOUBLING_WALL_S));
}

/** The speed (simulated ns per wall second) at which the path view stays readable. */
export function readableSpeed(fabricOneWayNs: number, min = 1e3, max = 600e9): number {
  const v = fabricOneWayNs / AUTO_CROSSING_WALL_S;
  return Number.isFinite(v) && v > 0 ? Math.min(max, Math.max(min, v)) : min;
}

/**
 * Packets in the picture: a batch drawn in the frame's window (moving, waiting, dropped), or
 * packets held in a queue at its end, or (a counts-only frame) packets that entered a stage.
 */
export function packetsInView(f: PathFrame | null): boolean {
  if (!f) return false;
  if (f.n > 0 || f.totalPassages > 0) return true;
  for (let i = 0; i < f.lanes; i++) {
    if (f.laneOccupancy[i]! > 0) return true;
    if (!f.detail && f.laneDensity[i]! > 0) return true;
  }
  return false;
}

/**
 * What auto does next: 'packets' while the last frame showed packets, 'skip' (run on to the next
 * packet) while nothing moves but something runs (a command, a background job, a line typed ahead
 * on the timeline), 'quiet' (real time) when nothing runs at all.
 */
export function autoPhase(last: PathFrame | null, running: boolean): AutoPhase {
  if (packetsInView(last)) return 'packets';
  return running ? 'skip' : 'quiet';
}
