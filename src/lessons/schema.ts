/**
 * Lessons are data: a guided mission on one scenario, made of steps whose goals are explicit
 * predicates on what the lab reports (ethtool -S counters, iperf3/curl/ab results, device and
 * Nitro state). Nothing here is a closure, so a lesson is plain JSON a trainer can write, and
 * `parseLesson` validates it (errors name the field, as the scenario schema's do).
 *
 * A predicate reads one metric (see METRICS) on one host over a window, and compares it with a
 * value: `{ metric: "counter", name: "pps_allowance_exceeded", host: "client", op: "==", value: 0,
 * window: "last-command", command: "^iperf3 " }` reads "pps_allowance_exceeded did not move on the
 * client during the last iperf3 run". The evaluator (evaluate.ts) says what it compared.
 */
import { z } from 'zod';
import { formatIssues, parseScenario } from '../scenario/schema';
import { METRICS, type MetricName, OPS } from './metrics';

export { METRICS, type MetricName, type Op, OPS } from './metrics';

const metricNames = Object.keys(METRICS) as [MetricName, ...MetricName[]];

const regexSource = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

/** What a predicate measures: the metric, where, over which window. Shared by goals and predictions. */
export const MeasureSchema = z.strictObject({
  metric: z.enum(metricNames),
  /** ethtool -S counter name, for `counter` and `counter_value`. */
  name: z.string().optional(),
  /**
   * Instance name; `@target`: the instance the last iperf3 run connected to. Default: the
   * scenario's first instance (the client).
   */
  host: z.string().optional(),
  /**
   * `step` (default): from the start of the step to now. `last-command`: across the last command
   * matching `command` (counters before and after it).
   */
  window: z.enum(['step', 'last-command']).optional(),
  /** Regex on the command line (without the `host:` prefix), for `commands`, `exit_code` and `last-command`. */
  command: regexSource.optional(),
  /**
   * What `command` matches, as the learner reads it ("iperf3", "ethtool -l eth0"): the feedback
   * names this, never the regular expression. Required with `command`.
   */
  commandText: z.string().min(1).optional(),
});
export type Measure = z.infer<typeof MeasureSchema>;

const needsCommandText = (
  m: { command?: string | undefined; commandText?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  if (m.command !== undefined && m.commandText === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['commandText'],
      message: 'needs `commandText`: the command `command` matches, as the learner reads it (e.g. "iperf3")',
    });
};

export const PredicateSchema = MeasureSchema.extend({
  op: z.enum(OPS),
  value: z.number().finite(),
  /**
   * The goal as a sentence the learner reads ("The PPS allowance never binds
   * (pps_allowance_exceeded stays at 0)."): shown for the goal, with the number the lab read.
   */
  label: z
    .string()
    .regex(/^\S.*[.!?]$/s, { message: 'a sentence: starts with a word and ends with a full stop' }),
}).superRefine((p, ctx) => {
  needsCommandText(p, ctx);
  if ((p.metric === 'counter' || p.metric === 'counter_value') && !p.name)
    ctx.addIssue({ code: 'custom', path: ['name'], message: `${p.metric} needs the counter's name` });
  if ((p.metric === 'commands' || p.metric === 'exit_code' || p.window === 'last-command') && !p.command)
    ctx.addIssue({
      code: 'custom',
      path: ['command'],
      message: 'needs `command` (a regex on the command line)',
    });
});
export type Predicate = z.infer<typeof PredicateSchema>;

/** Predict-then-observe: a number asked before the run, the model's answer shown after it. */
export const PredictSchema = z.strictObject({
  question: z.string().min(1),
  /** Where the answer is read once the learner has run the step. */
  answer: MeasureSchema.superRefine(needsCommandText),
  /** The guess is right within this much of the answer (either bound suffices). */
  tolerance: z
    .strictObject({ relative: z.number().positive().optional(), absolute: z.number().positive().optional() })
    .refine((t) => t.relative !== undefined || t.absolute !== undefined, {
      message: 'give a relative or an absolute tolerance',
    }),
  /** Why the answer is what it is (shown with the answer). */
  reason: z.string().min(1),
});
export type Predict = z.infer<typeof PredictSchema>;

export const StepSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  /** What to do and why (plain text; blank lines separate paragraphs). */
  text: z.string().min(1),
  predict: PredictSchema.optional(),
  /** All must hold for the step to pass. */
  goal: z.array(PredicateSchema).min(1),
  hints: z.array(z.string()).default([]),
  /** Command lines that pass the goal from the state the previous steps' solutions leave (`server: …` for another instance). */
  solution: z.array(z.string()).min(1),
  /** Plausible wrong attempts (from the same state) that must fail; what they teach. */
  mistakes: z.array(z.strictObject({ commands: z.array(z.string()).min(1), why: z.string() })).default([]),
});
export type Step = z.infer<typeof StepSchema>;

export const LessonSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  /** Where this sits in NET402's agenda (the talk's section and slide titles). */
  talk: z.string().min(1),
  summary: z.string().min(1),
  /**
   * A scenario document (the same JSON as `--scenario FILE` and scenario links) the lesson runs
   * on, validated with parseScenario.
   */
  scenario: z.record(z.string(), z.unknown()),
  /** A lesson that needs commands the lab does not have yet: listed, never offered as finished. */
  draft: z.strictObject({ reason: z.string(), needs: z.array(z.string()).min(1) }).optional(),
  steps: z.array(StepSchema).min(1),
});
export type Lesson = z.infer<typeof LessonSchema>;
export type LessonInput = z.input<typeof LessonSchema>;

/** Validate an untrusted lesson document (and its scenario). Never throws. */
export function parseLesson(doc: unknown): { ok: true; lesson: Lesson } | { ok: false; errors: string[] } {
  const r = LessonSchema.safeParse(doc);
  if (!r.success) return { ok: false, errors: formatIssues(r.error) };
  const s = parseScenario(r.data.scenario);
  if (!s.ok) return { ok: false, errors: s.errors.map((e) => `scenario.${e}`) };
  const ids = new Set<string>();
  const errors: string[] = [];
  r.data.steps.forEach((st, i) => {
    if (ids.has(st.id)) errors.push(`steps[${i}].id: duplicate step id "${st.id}"`);
    ids.add(st.id);
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, lesson: r.data };
}
