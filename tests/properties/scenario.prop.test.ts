/**
 * Property: a scenario file (or, later, a share link) is untrusted input. Random documents, built
 * as mutations of valid scenarios (wrong types, missing fields, unknown keys, huge arrays,
 * non-finite and NaN-like values, nested garbage, prototype-ish keys) go through parseScenario:
 * it never throws; a rejection lists errors that each name a field path which exists in the
 * document (or is a missing field of an object that does), including the path that was broken; an
 * acceptance builds a lab that runs `ethtool -g eth0` and `sleep 0.01`.
 *
 * Determinism: the same scenario and seed give identical run records, on short iperf3 runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSTANCE_TYPES } from '../../src/catalog';
import { clampToRange, MODEL_PARAMS } from '../../src/engine/model/params';
import { createLab, runScript } from '../../src/engine/session/runner';
import { PLACEMENTS, parseScenario, SCENARIO_VERSION } from '../../src/scenario/schema';

const SEED = Number(process.env.PROP_SEED ?? 20241202);
const RUNS_FACTOR = Number(process.env.PROP_RUNS ?? 1);

const TYPES = [...INSTANCE_TYPES.keys()];
const PARAM_NAMES = Object.keys(MODEL_PARAMS) as Array<keyof typeof MODEL_PARAMS>;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = Array<string | number>;

// ---------------------------------------------------------------------------------------------
// Valid scenarios
// ---------------------------------------------------------------------------------------------

const hostName = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);

const instances = fc.uniqueArray(hostName, { minLength: 1, maxLength: 4 }).chain((names) =>
  fc.tuple(
    ...names.map((name, i) =>
      fc.record(
        {
          name: fc.constant(name),
          type: fc.constantFrom(...TYPES),
          ip: fc.constant(`10.0.0.${20 + i}`), // inside the default subnet 10.0.0.0/24
        },
        { requiredKeys: ['name', 'type'] },
      ),
    ),
  ),
);

/** A param override: 0, the documented value, or a few times it (huge values make runs slow, not wrong). */
const params = fc
  .uniqueArray(fc.constantFrom(...PARAM_NAMES), { maxLength: 3 })
  .chain((names) =>
    fc.tuple(
      ...names.map((n) =>
        fc.constantFrom(0.5, 1, 2).map((k) => [n, clampToRange(n, MODEL_PARAMS[n].value * k)] as const),
      ),
    ),
  )
  .map((pairs) => Object.fromEntries(pairs));

const validScenario: fc.Arbitrary<{ [k: string]: Json }> = fc.record(
  {
    version: fc.constantFrom(1, SCENARIO_VERSION),
    seed: fc.integer({ min: 0, max: 0xffffffff }),
    placement: fc.constantFrom(...PLACEMENTS),
    instances,
    settings: fc.record(
      {
        batch: fc.oneof(fc.constant('auto'), fc.integer({ min: 1, max: 256 })),
        defaultQdisc: fc.constantFrom('fq_codel', 'pfifo_fast'),
        iperf3Server: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
    params,
    script: fc.array(fc.constantFrom('ethtool -S eth0', 'iperf3 -c server -t 1', 'sleep 1'), {
      maxLength: 3,
    }),
  },
  { requiredKeys: ['version'] },
) as fc.Arbitrary<{ [k: string]: Json }>;

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

/** Values of the wrong type, out of range, non-finite (JSON.parse("1e999") is Infinity), NaN-like. */
const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    -0,
    2 ** 53 + 2,
    1e308,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NaN,
    '',
    'NaN',
    'Infinity',
    '1',
    'auto',
    'cluster ',
    'C7I.LARGE',
    'c7i.larg',
    '__proto__',
    'x'.repeat(5000),
    [],
    {},
    [null],
    { version: 1 },
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Unknown keys, including ones that live on Object.prototype. */
const unknownKey = fc.oneof(
  fc.constantFrom(
    'foo',
    'Version',
    'instance',
    'seeds',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '',
  ),
  fc.string({ maxLength: 10 }),
);

/** Every path into a JSON value (objects and arrays), the root included. */
function paths(v: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) out.push(...paths(x, [...prefix, i]));
  } else if (v !== null && typeof v === 'object')
    for (const k of Object.keys(v)) out.push(...paths((v as Record<string, unknown>)[k], [...prefix, k]));
  return out;
}

const clone = <T>(v: T): T => structuredClone(v);

function getAt(doc: unknown, path: Path): unknown {
  let cur = doc;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

/** Set (or, with `del`, delete) the value at `path`; defineProperty so "__proto__" is an own key, as JSON.parse makes it. */
function setAt(doc: unknown, path: Path, value: unknown, del = false): unknown {
  if (path.length === 0) return value;
  const parent = getAt(doc, path.slice(0, -1)) as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (del) {
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else delete parent[last];
  } else Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
  return doc;
}

type Mutation =
  | { op: 'replace'; path: Path; value: unknown }
  | { op: 'delete'; path: Path }
  | { op: 'addKey'; path: Path; key: string; value: unknown }
  | { op: 'huge'; path: Path; n: number };

/** A valid scenario and 1–3 mutations of it; `doc` is the mutated document. */
const mutated = validScenario.chain((base) => {
  const all = paths(base);
  const containers = all.filter((p) => {
    const v = getAt(base, p);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
  const arrays = all.filter((p) => Array.isArray(getAt(base, p)));
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('replace' as const),
        path: fc.constantFrom(...all),
        value: garbage,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...all) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('addKey' as const),
        path: fc.constantFrom(...containers),
        key: unknownKey,
        value: garbage,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('huge' as const),
        path: fc.constantFrom(...(arrays.length > 0 ? arrays : [['script']])),
        n: fc.constantFrom(65, 10_001, 100_000),
      }),
    },
  );
  return fc.tuple(fc.constant(base), fc.array(mutation, { minLength: 1, maxLength: 3 }));
});

function apply(base: unknown, muts: Mutation[]): { doc: unknown; touched: Path[] } {
  let doc: unknown = clone(base);
  const touched: Path[] = [];
  for (const m of muts) {
    if (
      m.path.length > 0 &&
      (getAt(doc, m.path.slice(0, -1)) === null || typeof getAt(doc, m.path.slice(0, -1)) !== 'object')
    )
      continue; // an earlier mutation replaced the parent
    switch (m.op) {
      case 'replace':
        doc = setAt(doc, m.path, clone(m.value));
        touched.push(m.path);
        break;
      case 'delete': {
        doc = setAt(doc, m.path, undefined, true);
        const arr = m.path.slice(0, -1);
        const i = m.path[m.path.length - 1];
        if (typeof i === 'number' && Array.isArray(getAt(doc, arr))) {
          // later elements moved down by one: earlier touched paths into them move too
          for (const t of touched)
            if (t.length > arr.length && arr.every((s, k) => t[k] === s) && (t[arr.length] as number) > i)
              t[arr.length] = (t[arr.length] as number) - 1;
          touched.push(arr);
        } else touched.push(m.path);
        break;
      }
      case 'addKey': {
        const target = getAt(doc, m.path);
        if (target === null || typeof target !== 'object' || Array.isArray(target)) continue;
        setAt(doc, [...m.path, m.key], clone(m.value));
        touched.push([...m.path, m.key]);
        break;
      }
      case 'huge': {
        const arr = getAt(doc, m.path);
        if (!Array.isArray(arr)) continue;
        const item = arr[0] ?? 'sleep 1';
        doc = setAt(
          doc,
          m.path,
          Array.from({ length: m.n }, () => clone(item)),
        );
        touched.push(m.path);
        break;
      }
    }
  }
  return { doc, touched };
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/**
 * Resolve an error's path text ("instances[0].type", "(root)") against the document: every segment
 * but the last must exist; the last must exist or be a missing key of an object. Keys may contain
 * dots, so object keys are matched against the keys the object really has (longest first).
 */
function resolvesIn(doc: unknown, pathText: string): boolean {
  if (pathText === '(root)') return true;
  let rest = pathText;
  let cur: unknown = doc;
  let first = true;
  while (rest.length > 0) {
    const idx = /^\[(\d+)\]/.exec(rest);
    if (idx) {
      if (!Array.isArray(cur)) return false;
      const i = Number(idx[1]);
      rest = rest.slice(idx[0].length);
      if (i >= cur.length) return false;
      cur = cur[i];
      first = false;
      continue;
    }
    if (!first) {
      if (!rest.startsWith('.')) return false;
      rest = rest.slice(1);
    }
    first = false;
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return false;
    const keys = Object.keys(cur).sort((a, b) => b.length - a.length);
    const k = keys.find((key) => rest === key || rest.startsWith(`${key}.`) || rest.startsWith(`${key}[`));
    if (k === undefined) {
      // a missing field: must be the last segment
      return !/[.[]/.test(rest);
    }
    cur = (cur as Record<string, unknown>)[k];
    rest = rest.slice(k.length);
  }
  return true;
}

/** "instances[0].type" for a path, as formatIssues writes it. */
const pathText = (p: Path) =>
  p.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') || '(root)';

function checkErrors(doc: unknown, errors: string[]): void {
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) {
    expect(typeof e).toBe('string');
    const m = /^(.*?): (.+)$/s.exec(e);
    expect(m, `error without "path: message": ${e}`).not.toBeNull();
    expect(resolvesIn(doc, m![1]!), `error path "${m![1]}" is not in the document: ${e}`).toBe(true);
    expect(m![2]!.trim().length, e).toBeGreaterThan(0);
  }
}

/** Validated scenarios must build a lab that answers. */
function checkBuildsAndRuns(scenario: Parameters<typeof createLab>[0]): void {
  const lab = createLab(scenario);
  const recs = runScript(lab, ['ethtool -g eth0', 'sleep 0.01'], { maxCommandNs: 2e9 });
  // the Xen PV device (driver vif: T2, or enhanced networking off) has no ring parameters to show
  const pv = lab.instances.values().next().value?.path === 'xen-pv';
  expect(
    recs.map((r) => r.exitCode),
    recs.map((r) => r.output).join('\n'),
  ).toEqual([pv ? 1 : 0, 0]);
  expect(recs[0]!.output).toMatch(
    pv ? /^netlink error: Operation not supported$/m : /^Ring parameters for eth0:/,
  );
  expect(recs[1]!.endNs - recs[1]!.startNs).toBe(10_000_000);
}

describe('scenario: random documents (property)', () => {
  it('valid scenarios parse and build a lab that runs ethtool -g and sleep', () => {
    fc.assert(
      fc.property(validScenario, (doc) => {
        const r = parseScenario(doc);
        if (!r.ok) expect.fail(`valid scenario rejected: ${r.errors.join('; ')}\n${JSON.stringify(doc)}`);
        checkBuildsAndRuns(r.scenario);
      }),
      { seed: SEED, numRuns: 40 * RUNS_FACTOR },
    );
  });

  it('mutated scenarios: never throw; errors name a path in the document; accepted ones run', () => {
    fc.assert(
      fc.property(mutated, ([base, muts]) => {
        const { doc, touched } = apply(base, muts);
        let r: ReturnType<typeof parseScenario>;
        try {
          r = parseScenario(doc);
        } catch (e) {
          expect.fail(`parseScenario threw on ${JSON.stringify(muts).slice(0, 500)}: ${(e as Error).stack}`);
        }
        if (!r.ok) {
          checkErrors(doc, r.errors);
          // the broken field is named, or its parent (an unknown key, a missing required field) or a child
          const texts = r.errors.map((e) => e.slice(0, e.indexOf(': ')));
          const related = touched.some((p) =>
            texts.some((t) => {
              const pt = pathText(p);
              return (
                t === '(root)' ||
                pt === '(root)' ||
                pt === t ||
                pt.startsWith(`${t}.`) ||
                pt.startsWith(`${t}[`) ||
                t.startsWith(pt)
              );
            }),
          );
          expect(
            related,
            `errors ${JSON.stringify(r.errors).slice(0, 600)} name none of ${JSON.stringify(touched.map(pathText))}`,
          ).toBe(true);
        } else {
          checkBuildsAndRuns(r.scenario);
        }
      }),
      { seed: SEED + 1, numRuns: 300 * RUNS_FACTOR },
    );
  });

  it('any JSON value at all: never throws, always a path-named error or a scenario', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.anything()), (doc) => {
        const r = parseScenario(doc);
        if (!r.ok) checkErrors(doc, r.errors);
      }),
      { seed: SEED + 2, numRuns: 300 * RUNS_FACTOR },
    );
  });

  it('names the field in hand-picked bad documents', () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { version: 1, instances: [{ name: 'client', type: 'c7i.larg' }] },
        /^instances\[0\]\.type: unknown instance type "c7i\.larg" \(did you mean c7i\.large/,
      ],
      [{ version: 1, instances: [{ name: 'client', type: 42 }] }, /^instances\[0\]\.type: /],
      [{ version: 1, seed: -1 }, /^seed: /],
      [{ version: 1, seed: Number.NaN }, /^seed: /],
      [{ version: 1, placement: 'moon' }, /^placement: /],
      [{ version: 1, settings: { batch: 0 } }, /^settings\.batch: /],
      [{ version: 1, params: { nope: 1 } }, /^params\.nope: /],
      [{ version: 1, params: { enaQueuePacketNs: Number.POSITIVE_INFINITY } }, /^params\.enaQueuePacketNs: /],
      [{ version: 1, script: [1] }, /^script\[0\]: /],
      [{ version: 1, instances: [] }, /^instances: needs at least one instance/],
      [
        {
          version: 1,
          instances: Array.from({ length: 65 }, (_, i) => ({ name: `h${i}`, type: 'c7i.large' })),
        },
        /^instances: at most 64/,
      ],
      [
        {
          version: 1,
          instances: [
            { name: 'a', type: 'c7i.large' },
            { name: 'a', type: 'c7i.large' },
          ],
        },
        /^instances\[1\]\.name: duplicate/,
      ],
      [{ version: 99 }, /^version: 99 is not a known scenario version/],
      [{}, /^version: missing/],
      [[], /^\(root\): a scenario must be a JSON object/],
      [{ version: 1, extra: true }, /extra/],
    ];
    for (const [doc, re] of cases) {
      const r = parseScenario(doc);
      expect(r.ok, JSON.stringify(doc)).toBe(false);
      if (!r.ok) expect(r.errors.join('\n'), JSON.stringify(doc).slice(0, 200)).toMatch(re);
    }
  });

  it('parameter names are the model’s own, not Object.prototype’s', () => {
    for (const k of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      const doc = JSON.parse(`{"version":1,"params":{${JSON.stringify(k)}:1}}`);
      const r = parseScenario(doc);
      expect(r.ok, k).toBe(false);
      if (!r.ok) expect(r.errors.join('\n')).toMatch(new RegExp(`^params\\.${k}: unknown model parameter`));
    }
  });
});

describe('determinism (property)', () => {
  it('same scenario and seed → identical run records on short iperf3 runs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.constantFrom('cluster', 'same-az'),
        fc.constantFrom(
          'iperf3 -c server -n 2M',
          'iperf3 -c server -n 1M -P 2 -J',
          'iperf3 -c server -u -b 500M -n 1M',
          'iperf3 -c server -R -n 1M',
        ),
        (seed, placement, cmd) => {
          const doc = { version: 1, seed, placement };
          const run = () => {
            const r = parseScenario(doc);
            if (!r.ok) throw new Error(r.errors.join('; '));
            return JSON.stringify(
              runScript(createLab(r.scenario), [cmd, 'ethtool -S eth0'], { maxCommandNs: 2e9 }),
            );
          };
          const a = run();
          expect(a).toContain('"exitCode":0');
          expect(run()).toBe(a);
        },
      ),
      { seed: SEED + 3, numRuns: 8 * RUNS_FACTOR },
    );
  });
});
