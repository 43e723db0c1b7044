/** A lesson's lab, headless: a fresh lab from the lesson's scenario, a shell session, and the step recorder. */
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { evaluateStep, type StepResult } from '../../src/lessons/evaluate';
import { type Observation, StepRecorder } from '../../src/lessons/observation';
import type { Lesson, Step } from '../../src/lessons/schema';
import { parseScenario } from '../../src/scenario/schema';

export class LessonLab {
  readonly lab: Lab;
  private readonly session: LabSession;
  private readonly recorder: StepRecorder;

  constructor(lesson: Lesson) {
    const r = parseScenario(lesson.scenario);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    this.lab = createLab(r.scenario);
    // a safety net only: lesson commands end on their own well before it
    this.session = new LabSession(this.lab, { maxCommandNs: 900e9 });
    this.recorder = new StepRecorder(this.lab);
  }

  begin(): void {
    this.recorder.begin();
  }

  run(line: string): RunRecord[] {
    const before = this.recorder.snapshot();
    const recs = this.session.run(line);
    this.recorder.ran(recs, before);
    return recs;
  }

  runAll(lines: readonly string[]): RunRecord[] {
    return lines.flatMap((l) => this.run(l));
  }

  observation(): Observation {
    return this.recorder.observation();
  }

  check(step: Pick<Step, 'goal'>): StepResult {
    return evaluateStep(this.observation(), step);
  }
}

/** A fresh lab with the solutions of the steps before `stepIndex` run. */
export function labAtStep(lesson: Lesson, stepIndex: number): LessonLab {
  const l = new LessonLab(lesson);
  for (const s of lesson.steps.slice(0, stepIndex)) l.runAll(s.solution);
  l.begin();
  return l;
}
