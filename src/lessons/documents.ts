/**
 * The lesson documents in NET402's agenda order, as plain data (no validator: the page imports
 * this without zod; index.ts parses them and the tests check every one).
 */
import { actionPlan } from './catalog/action-plan';
import { burstBaseline } from './catalog/burst-baseline';
import { conntrack } from './catalog/conntrack';
import { cloudwatchTruth } from './catalog/cloudwatch';
import { tunnels } from './catalog/tunnels';
import { flowSetup } from './catalog/flow-setup';
import { microbursts } from './catalog/microbursts';
import { packetJourney } from './catalog/packet-journey';
import { enaExpress, perFlowLimits } from './catalog/per-flow-limits';
import { ppsLimits } from './catalog/pps-limits';
import type { LessonInput } from './schema';
import { xenToNitro } from './catalog/xen-to-nitro';

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
  xenToNitro,
  actionPlan,
];
