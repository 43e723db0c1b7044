/**
 * Every finished lesson, in a fresh lab: before the learner does anything a step is not passed;
 * its solution passes every predicate; its predictions are judged right with the model's answer
 * and wrong far from it; every listed mistake (from the same state) fails, and the explanation
 * names the number it read and the goal.
 */
import { expect } from 'vitest';
import { formatValue, judgePrediction, LESSONS, METRICS } from '../../src/lessons';
import type { Lesson } from '../../src/lessons/schema';
import { LessonLab, labAtStep } from './harness';

/** Finished lessons, in agenda order . */
export const FINISHED = LESSONS.filter((l) => !l.draft);

export function walkSolutions(lesson: Lesson): void {
  const lab = new LessonLab(lesson);
  for (const step of lesson.steps) {
    lab.begin();
    expect(lab.check(step).passed, `${step.id} passes before anything ran`).toBe(false);
    lab.runAll(step.solution);
    const res = lab.check(step);
    expect(res.explanation, `${lesson.id}/${step.id}`).not.toMatch(/✗|not yet/);
    expect(res.passed).toBe(true);
    if (step.predict) {
      const obs = lab.observation();
      const right = judgePrediction(obs, step.predict, Number.NaN);
      const answer = right.answer;
      expect(answer, `${step.id}: the prediction's answer is readable`).not.toBeNull();
      expect(judgePrediction(obs, step.predict, answer!).right).toBe(true);
      const far = judgePrediction(obs, step.predict, answer! * 3 + 10);
      expect(far.right).toBe(false);
      expect(far.text).toContain(formatValue(answer!, METRICS[step.predict.answer.metric].unit));
    }
  }
}

export function checkMistakes(lesson: Lesson): void {
  lesson.steps.forEach((step, i) => {
    for (const m of step.mistakes) {
      const lab = labAtStep(lesson, i);
      lab.runAll(m.commands);
      const res = lab.check(step);
      expect(res.passed, `${lesson.id}/${step.id}: mistake ${m.commands.join(' ; ')} must fail`).toBe(false);
      const failed = res.results.filter((r) => r.ok === false);
      expect(failed.length, `${step.id}: a predicate fails (not just "not yet")`).toBeGreaterThan(0);
      for (const f of failed) {
        // the explanation names what it read and the goal
        expect(f.text).toContain(formatValue(f.actual!, METRICS[f.predicate.metric].unit));
        expect(f.text).toContain(formatValue(f.predicate.value, METRICS[f.predicate.metric].unit));
      }
    }
  });
}
