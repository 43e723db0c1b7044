/**
 * Lessons through the worker API, as the page uses them: the service observes every command of
 * its interactive session (a snapshot when it starts, its record when it ends), a step's window
 * starts at lessonBegin, and a rewind restarts it. The observation crosses the boundary as data.
 */
import { describe, expect, it } from 'vitest';
import { getLesson } from '../../src/lessons';
import { evaluateStep } from '../../src/lessons/evaluate';
import { SimService } from '../../workers/sim-service';

function runToIdle(s: SimService): void {
  // advance until no foreground command holds the prompt
  for (let i = 0; i < 10_000; i++) {
    const f = s.advance({ toNs: Number.POSITIVE_INFINITY, maxEvents: 500_000 });
    if (!f.foreground) return;
  }
  throw new Error('command did not end');
}

describe('lessons over the worker API', () => {
  it('a step passes on the session’s own commands; the window restarts at lessonBegin and on rewind', () => {
    const lesson = getLesson('pps-limits')!;
    const step = lesson.steps[0]!;
    const s = new SimService();
    expect(s.lessonObservation()).toBeNull();
    expect(s.load(lesson.scenario).ok).toBe(true);
    expect(s.lessonBegin()).toBe(true);
    expect(evaluateStep(s.lessonObservation()!, step).passed).toBe(false);
    for (const line of step.solution) {
      expect(s.submit(line)).toBe(true);
      runToIdle(s);
    }
    const obs = s.lessonObservation()!;
    expect(obs.commands.map((c) => c.command)).toEqual(step.solution);
    // structured-clone safe: what the page receives is the same data
    const r = evaluateStep(structuredClone(obs), step);
    expect(r.explanation).not.toMatch(/✗|not yet/);
    expect(r.passed).toBe(true);
    // the counters before the iperf3 run were taken when it started, not when it ended
    const run = obs.commands[0]!;
    expect(run.before.atNs).toBe(run.startNs);
    expect(run.after.hosts.client!.counters.pps_allowance_exceeded).toBeGreaterThan(
      run.before.hosts.client!.counters.pps_allowance_exceeded!,
    );

    s.lessonBegin();
    expect(s.lessonObservation()!.commands).toEqual([]);
    expect(evaluateStep(s.lessonObservation()!, step).passed).toBe(false);
    s.rewind(0);
    expect(s.lessonObservation()!.commands).toEqual([]);
  }, 60_000);
});
