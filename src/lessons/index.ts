/**
 * The lessons, in the order of NET402's agenda (Packet Analysis, Flow Analysis, Multi-flow
 * Analysis, Tools, Action Plan). Each is data validated by LessonSchema; drafts (commands not yet
 * in the lab) are listed with `draft` set. `LESSONS` is parsed at load: an invalid lesson throws here,
 * and tests/lessons check every one.
 */
import { actionPlan } from './catalog/action-plan';
import { burstBaseline } from './catalog/burst-baseline';
import { conntrack } from './catalog/conntrack';
import { cloudwatchTruth, tunnels } from './catalog/drafts';
import { flowSetup } from './catalog/flow-setup';
import { microbursts } from './catalog/microbursts';
import { packetJourney } from './catalog/packet-journey';
import { enaExpress, perFlowLimits } from './catalog/per-flow-limits';
import { ppsLimits } from './catalog/pps-limits';
import { type Lesson, type LessonInput, parseLesson } from './schema';

export const LESSON_DOCUMENTS: readonly LessonInput[] = [
  packetJourney,
  flowSetup,
  perFlowLimits,
  enaExpress,
  microbursts,
  cloudwatchTruth,
  burstBaseline,
  ppsLimits,
  conntrack,
  tunnels,
  actionPlan,
];

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
