/**
 * The lessons, in the order of NET402's agenda (Packet Analysis, Flow Analysis, Multi-flow
 * Analysis, Tools, Action Plan). Each is data validated by LessonSchema; drafts (commands not yet
 * in the lab) are listed with `draft` set. `LESSONS` is parsed at load: an invalid lesson throws here,
 * and tests/lessons check every one.
 */
import { LESSON_DOCUMENTS } from './documents';
import { type Lesson, parseLesson } from './schema';

export { LESSON_DOCUMENTS } from './documents';

function parseAll(): Lesson[] {
  return LESSON_DOCUMENTS.map((d) => {
    const r = parseLesson(d);
    if (!r.ok) throw new Error(`lesson ${String(d.id)}: ${r.errors.join('; ')}`);
    return r.lesson;
  });
}

export const LESSONS: readonly Lesson[] = parseAll();

export function getLesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

export * from './evaluate';
export * from './observation';
export * from './schema';
export * from './progress';
