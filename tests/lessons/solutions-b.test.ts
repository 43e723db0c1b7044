/** Lessons run in a fresh lab (see walk.ts); split over files so Vitest runs them in parallel. */
import { describe, expect, it } from 'vitest';
import { checkMistakes, FINISHED, walkSolutions } from './walk';

const IDS = ['microbursts', 'pps-limits', 'conntrack', 'tunnels'];

describe.each(FINISHED.filter((l) => IDS.includes(l.id)).map((l) => [l.id, l] as const))(
  'lesson %s',
  (_id, lesson) => {
    it('the solutions pass every step; predictions are judged', () => walkSolutions(lesson), 180_000);
    it('the mistakes fail with the numbers named', () => checkMistakes(lesson), 180_000);
  },
);

it('every lesson named here is a finished lesson (a renamed one would drop out of the walk unseen)', () => {
  expect(
    FINISHED.filter((l) => IDS.includes(l.id))
      .map((l) => l.id)
      .sort(),
  ).toEqual([...IDS].sort());
});
