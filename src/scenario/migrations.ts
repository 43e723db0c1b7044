/**
 * Scenario migrations: every older document version is lifted, one step at a time, to the current
 * version before validation, so old files and links keep opening (v2 added the VPC, v3 the wall
 * clock, monitoring and recording settings, v4 the terminal session, v5 secondary network interfaces and
 * the source/destination check; each older document gets the
 * defaults and opens to what it ran with).
 *
 * Guarantees: a migration is a pure function of the document (seed-derived defaults are filled in
 * by parseScenario for every version alike), never mutates its input, and refuses fields the old
 * version did not have (a v1 document carrying `vpc` is a mistake, not a v2 document).
 */

export type MigrationResult = { ok: true; doc: Record<string, unknown> } | { ok: false; errors: string[] };

const V2_INSTANCE_FIELDS = [
  'subnet',
  'securityGroups',
  'secondaryIps',
  'enaSrd',
  'connectionTracking',
  'instanceId',
  'eniId',
] as const;

export function migrateV1ToV2(doc: Record<string, unknown>): MigrationResult {
  const errors: string[] = [];
  for (const k of ['vpc', 'client']) {
    if (k in doc) errors.push(`${k}: not part of a version 1 scenario (set "version": 2 to use it)`);
  }
  const instances = doc['instances'];
  if (Array.isArray(instances)) {
    instances.forEach((inst, i) => {
      if (typeof inst !== 'object' || inst === null) return;
      for (const k of V2_INSTANCE_FIELDS) {
        if (k in inst)
          errors.push(`instances[${i}].${k}: not part of a version 1 scenario (set "version": 2 to use it)`);
      }
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, doc: { ...doc, version: 2 } };
}

const V3_SETTINGS = ['wallClockStart', 'monitoring', 'record'] as const;

export function migrateV2ToV3(doc: Record<string, unknown>): MigrationResult {
  const settings = doc['settings'];
  const errors: string[] = [];
  if (typeof settings === 'object' && settings !== null) {
    for (const k of V3_SETTINGS)
      if (k in settings)
        errors.push(`settings.${k}: not part of a version 2 scenario (set "version": 3 to use it)`);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, doc: { ...doc, version: 3 } };
}

export function migrateV3ToV4(doc: Record<string, unknown>): MigrationResult {
  if ('session' in doc)
    return { ok: false, errors: ['session: not part of a version 3 scenario (set "version": 4 to use it)'] };
  return { ok: true, doc: { ...doc, version: 4 } };
}

/** v5 added secondary network interfaces and the source/destination check to the instances. */
export function migrateV4ToV5(doc: Record<string, unknown>): MigrationResult {
  const errors: string[] = [];
  const instances = doc['instances'];
  if (Array.isArray(instances))
    instances.forEach((inst, i) => {
      if (typeof inst !== 'object' || inst === null) return;
      for (const k of ['networkInterfaces', 'sourceDestCheck'])
        if (k in inst)
          errors.push(`instances[${i}].${k}: not part of a version 4 scenario (set "version": 5 to use it)`);
    });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, doc: { ...doc, version: 5 } };
}

/** Migrations by source version: MIGRATIONS[v] lifts a version-v document to v + 1. */
export const MIGRATIONS: Readonly<Record<number, (doc: Record<string, unknown>) => MigrationResult>> = {
  1: migrateV1ToV2,
  2: migrateV2ToV3,
  3: migrateV3ToV4,
  4: migrateV4ToV5,
};

/** Lift `doc` (of version `from`) to version `to`. */
export function migrate(doc: Record<string, unknown>, from: number, to: number): MigrationResult {
  let cur = doc;
  for (let v = from; v < to; v++) {
    const m = MIGRATIONS[v];
    if (!m) return { ok: false, errors: [`version: no migration from version ${v}`] };
    const r = m(cur);
    if (!r.ok) return r;
    cur = r.doc;
  }
  return { ok: true, doc: cur };
}
