/**
 * Properties of scenario links (src/share/codec.ts):
 * - encode → decode gives back any valid scenario and view exactly, with no change reported,
 *   whether or not presets are offered;
 * - random strings, mutated and truncated links, and links whose document is mutated never throw
 *   and always give either a scenario parseScenario accepts or a typed "could not be read" error.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSTANCE_TYPES } from '../../src/catalog';
import { clampToRange, MODEL_PARAMS } from '../../src/engine/model/params';
import { PLACEMENTS, parseScenario, type Scenario } from '../../src/scenario/schema';
import {
  type DecodeResult,
  decodeShareLink,
  encodeShareLink,
  PANELS,
  type ViewState,
} from '../../src/share/codec';
import { base64urlEncode, deflate } from '../../src/share/compress';
import { canonicalJson } from '../../src/share/minimize';

const SEED = Number(process.env.PROP_SEED ?? 20241202);
const RUNS_FACTOR = Number(process.env.PROP_RUNS ?? 1);
const runs = (n: number) => ({ seed: SEED, numRuns: Math.max(1, Math.round(n * RUNS_FACTOR)) });

const CUSTOM = JSON.parse(readFileSync(new URL('./fixtures/custom-vpc.json', import.meta.url), 'utf8')) as {
  vpc: unknown;
  instances: Array<Record<string, unknown>>;
};
const TALK = JSON.parse(
  readFileSync(new URL('../scenario/fixtures/v2-talk.json', import.meta.url), 'utf8'),
) as unknown;
const PRESETS = { talk: TALK, custom: CUSTOM, empty: { version: 2 } };

const TYPES = [...INSTANCE_TYPES.keys()];
const PARAM_NAMES = Object.keys(MODEL_PARAMS) as Array<keyof typeof MODEL_PARAMS>;
const hostName = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);

/** Instances in the default VPC, or with the custom VPC's subnets and groups. */
const instances = (custom: boolean) =>
  fc.uniqueArray(hostName, { minLength: 1, maxLength: 5 }).chain((names) =>
    fc.tuple(
      ...names.map((name, i) =>
        fc.record(
          {
            name: fc.constant(name),
            type: fc.constantFrom(...TYPES),
            ip: fc.constant(`10.0.${custom ? 1 : 0}.${100 + i}`),
            secondaryIps: fc.constant([`10.0.${custom ? 1 : 0}.${200 + i}`]),
            connectionTracking: fc.record(
              {
                TcpEstablishedTimeout: fc.integer({ min: 60, max: 432000 }),
                UdpTimeout: fc.integer({ min: 30, max: 60 }),
              },
              { requiredKeys: [] },
            ),
            ...(custom
              ? {
                  subnet: fc.constant('subnet-0a000000000000002'),
                  securityGroups: fc.constantFrom(['sg-0b000000000000001'], ['sg-0b000000000000002']),
                }
              : {}),
          },
          { requiredKeys: custom ? ['name', 'type', 'subnet'] : ['name', 'type'] },
        ),
      ),
    ),
  );

const params = fc
  .uniqueArray(fc.constantFrom(...PARAM_NAMES), { maxLength: 3 })
  .chain((names) =>
    fc.tuple(
      ...names.map((n) =>
        fc
          .double({ min: 0, max: 1e12, noNaN: true, noDefaultInfinity: true })
          .map((v) => [n, clampToRange(n, v === 0 ? 0 : v)] as const),
      ),
    ),
  )
  .map((pairs) => Object.fromEntries(pairs));

const scenarioDoc = fc.boolean().chain((custom) =>
  fc.record(
    {
      version: fc.constantFrom(1, 2),
      seed: fc.integer({ min: 0, max: 0xffffffff }),
      placement: fc.constantFrom(...PLACEMENTS),
      instances: instances(custom),
      settings: fc.record(
        {
          batch: fc.oneof(fc.constant('auto'), fc.integer({ min: 1, max: 256 })),
          defaultQdisc: fc.constantFrom('fq_codel', 'pfifo_fast'),
          iperf3Server: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
      params,
      // any text: commands are data, whatever characters they hold
      script: fc.array(fc.string({ unit: 'grapheme', maxLength: 60 }), { maxLength: 12 }),
      ...(custom ? { vpc: fc.constant(CUSTOM.vpc) } : {}),
      client: fc.option(fc.record({ name: fc.constant('outside'), ip: fc.constant('198.51.100.7') }), {
        nil: undefined,
      }),
    },
    { requiredKeys: ['version', 'instances', ...(custom ? ['vpc' as const] : [])] },
  ),
);

/** A v4 terminal session: lines (any text) and Ctrl-Cs at non-decreasing simulated instants. */
const session = fc
  .array(
    fc.tuple(
      fc.integer({ min: 0, max: 86_400e9 }),
      fc.option(fc.string({ unit: 'grapheme', maxLength: 60 }), { nil: undefined }),
    ),
    { maxLength: 8 },
  )
  .map((entries) =>
    entries
      .sort((a, b) => a[0] - b[0])
      .map(([atNs, line]) => (line === undefined ? { atNs, interrupt: true as const } : { atNs, line })),
  );

/** Valid scenarios: generated documents that parse (v1 ones without the v2 fields), some with a session. */
const parsedScenario: fc.Arbitrary<Scenario> = scenarioDoc
  .map((d) => {
    const doc: Record<string, unknown> = JSON.parse(JSON.stringify(d));
    if (doc['version'] === 1) {
      delete doc['vpc'];
      delete doc['client'];
      doc['instances'] = (doc['instances'] as Array<Record<string, unknown>>).map(({ name, type, ip }) => ({
        name,
        type,
        ip,
      }));
    }
    return parseScenario(doc);
  })
  .filter((r): r is { ok: true; scenario: Scenario } => r.ok)
  .map((r) => r.scenario);
const validScenario: fc.Arbitrary<Scenario> = fc
  .tuple(parsedScenario, fc.option(session, { nil: undefined }))
  .map(([s, log]) => (log === undefined ? s : { ...s, session: log }));

const view: fc.Arbitrary<ViewState> = fc.record(
  {
    timeNs: fc.integer({ min: 0, max: 86_400e9 }),
    selection: fc.stringMatching(/^[A-Za-z0-9._:/-]{1,40}$/),
    panels: fc.uniqueArray(fc.constantFrom(...PANELS), { maxLength: 3 }),
    theme: fc.constantFrom('light' as const, 'dark' as const),
  },
  { requiredKeys: [] },
);

/** The decoder's contract on any input. */
function checkContract(r: DecodeResult): void {
  if (r.ok) {
    const again = parseScenario(r.scenario);
    expect(again.ok).toBe(true);
    if (again.ok) expect(canonicalJson(again.scenario)).toBe(canonicalJson(r.scenario));
    for (const c of r.changes) expect(typeof c).toBe('string');
  } else {
    expect(r.error.message.startsWith('this link could not be read: ')).toBe(true);
    expect([
      'too-large',
      'newer-version',
      'unknown-version',
      'damaged-data',
      'unknown-preset',
      'invalid-scenario',
    ]).toContain(r.error.kind);
  }
}

const safeDecode = (hash: string): DecodeResult => {
  let r: DecodeResult | undefined;
  expect(() => {
    r = decodeShareLink(hash, PRESETS);
  }).not.toThrow();
  return r!;
};

describe('scenario links: properties', () => {
  it('decode(encode(s)) is s, for any valid scenario and view, with and without presets', () => {
    fc.assert(
      fc.property(validScenario, view, fc.boolean(), (scenario, v, withPresets) => {
        const presets = withPresets ? PRESETS : {};
        const link = encodeShareLink({ scenario, view: v }, presets);
        const back = decodeShareLink(link, presets);
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        expect(back.changes).toEqual([]);
        expect(canonicalJson(back.scenario)).toBe(canonicalJson(scenario));
        expect(back.view).toEqual(v);
      }),
      runs(60),
    );
  });

  it('random strings never throw past the decoder', () => {
    const alphabet = fc.constantFrom(...'v=2&s=p=d=t=#%-_.ABCabcxyz0123456789~!'.split(''));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 200 }),
          fc.string({ unit: alphabet, maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
        ),
        (s) => checkContract(safeDecode(s)),
      ),
      runs(400),
    );
  });

  it('mutated and truncated links never throw and give a valid scenario or a typed error', () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant('replace' as const),
        at: fc.nat(),
        ch: fc.string({ minLength: 1, maxLength: 1, unit: 'binary-ascii' }),
      }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), s: fc.string({ maxLength: 8 }) }),
    );
    fc.assert(
      fc.property(
        validScenario,
        fc.boolean(),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (scenario, withPresets, muts) => {
          let link = encodeShareLink({ scenario }, withPresets ? PRESETS : {});
          for (const m of muts) {
            const at = m.at % (link.length + 1);
            if (m.kind === 'truncate') link = link.slice(0, at);
            else if (m.kind === 'replace') link = link.slice(0, at) + m.ch + link.slice(at + 1);
            else if (m.kind === 'delete') link = link.slice(0, at) + link.slice(at + m.n);
            else link = link.slice(0, at) + m.s + link.slice(at);
          }
          checkContract(safeDecode(link));
        },
      ),
      runs(150),
    );
  });

  it('links carrying any JSON document never throw and give a valid scenario or a typed error', () => {
    const doc = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      // valid documents with one field replaced by arbitrary JSON
      fc
        .tuple(
          scenarioDoc,
          fc.constantFrom(
            'seed',
            'placement',
            'instances',
            'settings',
            'params',
            'script',
            'vpc',
            'client',
            'x',
          ),
          fc.jsonValue({ maxDepth: 3 }),
        )
        .map(([d, k, v]) => ({ ...d, [k]: v })),
      // valid documents with one instance field replaced
      fc
        .tuple(
          scenarioDoc,
          fc.constantFrom(
            'name',
            'type',
            'ip',
            'subnet',
            'securityGroups',
            'enaSrd',
            'connectionTracking',
            'instanceId',
            'zz',
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([d, k, v]) => ({
          ...d,
          instances: d.instances.map((inst, i) => (i === 0 ? { ...inst, [k]: v } : inst)),
        })),
    );
    fc.assert(
      fc.property(doc, fc.constantFrom(1, 2), (d, v) => {
        const link = `#v=${v}&s=${base64urlEncode(deflate(new TextEncoder().encode(JSON.stringify(d))))}`;
        checkContract(safeDecode(link));
      }),
      runs(300),
    );
  });

  it('huge inputs are refused with a message, quickly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 32_769, max: 2_000_000 }),
        fc.constantFrom('A', '%', '&', '='),
        (n, ch) => {
          const link = `#v=2&s=${ch.repeat(n)}`;
          const t0 = performance.now();
          const r = safeDecode(link);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.error.kind).toBe('too-large');
          // refused on its length, before any decoding: far under what inflating 2 MB would take, with
          // room for a GC pause on a loaded 2-core machine (50 ms failed there once)
          expect(performance.now() - t0).toBeLessThan(500);
        },
      ),
      runs(20),
    );
  });
});
