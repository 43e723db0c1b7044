/**
 * The scenario: everything a lab run is built from (instances, placement, settings, parameter
 * overrides, the command script, the seed). Plain data with a versioned schema; the CLI reads it
 * from a file, the URL codec will carry it, the engine builds from it.
 *
 * Versioning: every document carries `version`. Version 1 is the first; each later version adds a
 * migration in migrations.ts so old files and links keep opening.
 * Errors name the field path (`instances[0].type: …`) so a user can fix the file.
 */
import { z } from 'zod';
import { getInstanceType, suggestInstanceType } from '../catalog';
import { MODEL_PARAMS } from '../engine/params';

export const SCENARIO_VERSION = 1;

export const PLACEMENTS = ['cluster', 'same-az', 'cross-az', 'internet'] as const;
export type Placement = (typeof PLACEMENTS)[number];

const hostName = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{0,30}$/,
    'must be lowercase letters, digits or "-", starting with a letter (max 31)',
  );

const instanceType = z.string().superRefine((name, ctx) => {
  if (!getInstanceType(name)) {
    const s = suggestInstanceType(name);
    ctx.addIssue({
      code: 'custom',
      message: `unknown instance type "${name}"${s.length ? ` (did you mean ${s.join(', ')}?)` : ''}`,
    });
  }
});

const ipv4 = z
  .string()
  .regex(
    /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
    'must be an IPv4 address like 10.0.0.10',
  );

export const InstanceSchema = z.strictObject({
  name: hostName,
  type: instanceType,
  ip: ipv4.optional(),
});

const paramName = z.string().refine((k) => k in MODEL_PARAMS, { message: 'unknown model parameter' });

export const SettingsSchema = z.strictObject({
  /**
   * Packets per batch. 1 = per-packet (every wire packet is an event); "auto" = batches of up
   * to 64 identical packets where rates are high (results agree within the golden tolerances).
   */
  batch: z.union([z.literal('auto'), z.number().int().min(1).max(256)]).default('auto'),
  /** Default qdisc (net.core.default_qdisc): fq_codel on systemd distributions such as Amazon Linux 2023. */
  defaultQdisc: z.enum(['fq_codel', 'pfifo_fast']).default('fq_codel'),
  /** Whether each instance starts with `iperf3 -s` listening on 5201 (as in the NET402 tests). */
  iperf3Server: z.boolean().default(true),
});

export const ScenarioSchema = z
  .strictObject({
    version: z.literal(SCENARIO_VERSION),
    seed: z.number().int().min(0).max(0xffffffff).default(1),
    placement: z.enum(PLACEMENTS).default('cluster'),
    instances: z
      .array(InstanceSchema)
      .min(1, 'needs at least one instance')
      .max(64, 'at most 64 instances')
      .default([
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large' },
      ]),
    settings: SettingsSchema.default({ batch: 'auto', defaultQdisc: 'fq_codel', iperf3Server: true }),
    params: z.record(paramName, z.number().finite().nonnegative()).default({}),
    script: z.array(z.string().max(4096, 'command longer than 4096 characters')).max(10_000).default([]),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.instances.forEach((inst, i) => {
      if (seen.has(inst.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['instances', i, 'name'],
          message: `duplicate instance name "${inst.name}"`,
        });
      }
      seen.add(inst.name);
    });
  });

export type Scenario = z.output<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;

/** Format zod issues as `path: message` lines. */
export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const path = i.path
      .map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? String(p) : `.${String(p)}`))
      .join('');
    return `${path || '(root)'}: ${i.message}`;
  });
}

/** Validate an untrusted document. Never throws. */
export function parseScenario(
  doc: unknown,
): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return { ok: false, errors: ['(root): a scenario must be a JSON object'] };
  }
  const v = (doc as { version?: unknown }).version;
  if (v === undefined) return { ok: false, errors: ['version: missing (this lab reads version 1)'] };
  if (v !== SCENARIO_VERSION) {
    return {
      ok: false,
      errors: [`version: ${JSON.stringify(v)} is not a known scenario version (known: 1)`],
    };
  }
  const r = ScenarioSchema.safeParse(doc);
  if (!r.success) return { ok: false, errors: formatIssues(r.error) };
  return { ok: true, scenario: r.data };
}

/** The default scenario: two c7i.large in a cluster placement group, as in NET402. */
export function defaultScenario(): Scenario {
  return ScenarioSchema.parse({ version: SCENARIO_VERSION });
}
