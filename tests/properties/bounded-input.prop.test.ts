/**
 * Property: whatever a user or a crafted link hands the lab, it answers within a bound, with a
 * message a person can read. 10,000 inputs in all, from a fixed seed:
 * - 6,000 links (random text, valid links with random edits, small hostile documents with random
 *   edits), plus 48 links carrying the hostile documents at full size (64 instances with
 *   3,000-character type names, nesting 40,000 deep in a preset change, 20,000-entry scripts and
 *   sessions, parameters out of range): each decodes in under 2 s to a scenario parseScenario
 *   accepts or to "this link could not be read: …" (never "unexpected error");
 * - 1,500 command lines run on one lab session, each stopped after 50 ms of simulated time: each
 *   ends, answers, and the model keeps going;
 * - 2,500 scenario files (mutated documents, with and without a byte-order mark and control
 *   characters), read as the CLI reads them: a scenario or errors that name a field.
 * And the memory a heavy run adds to the heap stays under MAX_HEAP_GROWTH_MB.
 * About 25 s on a loaded 2-core VM; PROP_RUNS=N multiplies the counts for a longer fuzz.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSTANCE_TYPES } from '../../src/catalog';
import { hasTerminalControl, stripBom, terminalSafe } from '../../src/cli/text';
import { MODEL_PARAMS } from '../../src/engine/model/params';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { defaultScenario, parseScenario, SCENARIO_VERSION } from '../../src/scenario/schema';
import { presetTable } from '../../src/share/app-link';
import { decodeShareLink, encodeShareLink } from '../../src/share/codec';
import { base64urlEncode, deflate } from '../../src/share/compress';

const SEED = Number(process.env.PROP_SEED ?? 14_2026);
const RUNS_FACTOR = Number(process.env.PROP_RUNS ?? 1);
const runs = (n: number, seed = SEED) => ({ seed, numRuns: Math.max(1, Math.round(n * RUNS_FACTOR)) });
/** The bound on one link decode. */
const LINK_DECODE_MS = 2_000;
/** What a heavy run may add to the heap (sampled after every chunk of events). */
const MAX_HEAP_GROWTH_MB = 256;

const PRESETS = presetTable();
const PRESET_IDS = Object.keys(PRESETS);
const TYPES = [...INSTANCE_TYPES.keys()];
const pack = (text: string) => base64urlEncode(deflate(new TextEncoder().encode(text)));
/** Each preset's link (a preset id and its diff) and the default scenario's. */
const VALID_LINKS = [
  encodeShareLink({ scenario: defaultScenario() }),
  ...PRESET_IDS.map((p) => {
    const r = parseScenario(PRESETS[p]);
    return `${encodeShareLink({ scenario: r.ok ? r.scenario : defaultScenario() }, PRESETS)}&t=1.5s`;
  }),
];
/** Small documents of the hostile kinds, for the random edits. */
const HOSTILE_SMALL = [
  JSON.stringify({
    version: 4,
    instances: [
      { name: 'a', type: 'x'.repeat(300) },
      { name: 'b', type: 'c7i.larg' },
    ],
  }),
  `${'{"a":'.repeat(30)}1${'}'.repeat(30)}`,
  `{"version":4,"script":${'['.repeat(30)}${']'.repeat(30)}}`,
  JSON.stringify({ version: 4, params: { napiBudget: 0, enaQueuePacketNs: 1e308 } }),
  JSON.stringify({
    version: 4,
    script: ['\u001b]0;x\u0007', 'ping server'],
    session: [{ atNs: 5, line: 'sar -n DEV 1' }],
  }),
];

/** Documents built to cost, as JSON text: long names, many instances, deep nesting, wide arrays. */
const hostileText = fc.oneof(
  fc.integer({ min: 1, max: 64 }).map((n) =>
    JSON.stringify({
      version: SCENARIO_VERSION,
      instances: Array.from({ length: n }, (_, i) => ({ name: `h${i}`, type: `${'x'.repeat(3000)}${i}` })),
    }),
  ),
  fc.integer({ min: 25, max: 40_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 25, max: 40_000 }).map((n) => `{"version":4,"script":${'['.repeat(n)}${']'.repeat(n)}}`),
  fc
    .integer({ min: 1, max: 20_000 })
    .map((n) => JSON.stringify({ version: 4, script: Array(n).fill('ping server') })),
  fc
    .integer({ min: 1, max: 20_000 })
    .map((n) =>
      JSON.stringify({ version: 4, session: Array.from({ length: n }, (_, i) => ({ atNs: i, line: 'x' })) }),
    ),
  fc
    .constantFrom(...Object.keys(MODEL_PARAMS))
    .chain((k) =>
      fc
        .constantFrom(-1, 0, 0.5, 1e308, 1e-308)
        .map((v) => JSON.stringify({ version: 4, params: { [k]: v } })),
    ),
  fc
    .string({ unit: 'binary', maxLength: 64 })
    .map((s) => JSON.stringify({ version: 4, script: [s], seed: 3 })),
  fc
    .constantFrom(...TYPES)
    .map((t) => JSON.stringify({ version: 4, instances: [{ name: 'client', type: `${t}\u0000` }] })),
);

/** Random text, and valid links (presets' diffs) with random edits. Fast: thousands run. */
const link = fc.oneof(
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...VALID_LINKS),
        fc.array(fc.tuple(fc.nat(), fc.string({ unit: 'binary-ascii', maxLength: 6 }), fc.nat(8)), {
          minLength: 1,
          maxLength: 5,
        }),
      )
      .map(([valid, muts]) => {
        let s = valid;
        for (const [at, ins, del] of muts) {
          const i = at % (s.length + 1);
          s = s.slice(0, i) + ins + s.slice(i + del);
        }
        return s;
      }),
  },
  // a hostile document, small, with random edits to its text before it is packed
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE_SMALL), fc.nat(), fc.string({ unit: 'binary-ascii', maxLength: 4 }))
      .map(
        ([t, at, ins]) =>
          `#v=4&s=${pack(t.slice(0, at % (t.length + 1)) + ins + t.slice(at % (t.length + 1)))}`,
      ),
  },
);

describe('bounded input (property)', () => {
  it('the hostile documents at full size (64 × 3,000-character types, nesting 40,000 deep …): each link decodes in under 2 s', () => {
    const texts = fc.sample(hostileText, { seed: SEED, numRuns: 24 });
    for (const [i, text] of texts.entries()) {
      const links = [
        `#v=4&s=${pack(text)}`,
        `#v=${SCENARIO_VERSION}&p=${PRESET_IDS[i % PRESET_IDS.length]}&d=${pack(text)}`,
      ];
      for (const l of links) {
        const t0 = performance.now();
        const r = decodeShareLink(l, PRESETS);
        expect(performance.now() - t0, text.slice(0, 120)).toBeLessThan(LINK_DECODE_MS);
        if (!r.ok) expect(r.error.message).not.toMatch(/unexpected error/);
      }
    }
  });

  it('6,000 random, mutated and hostile links: each decoded in under 2 s, to a scenario or a readable refusal', () => {
    let slowest = 0;
    fc.assert(
      fc.property(link, (l) => {
        const t0 = performance.now();
        const r = decodeShareLink(l, PRESETS);
        const ms = performance.now() - t0;
        slowest = Math.max(slowest, ms);
        expect(ms, l.slice(0, 200)).toBeLessThan(LINK_DECODE_MS);
        if (r.ok) expect(parseScenario(r.scenario).ok).toBe(true);
        else {
          expect(r.error.message).toMatch(/^this link could not be read: \S/);
          expect(r.error.message).not.toMatch(/unexpected error/);
        }
      }),
      runs(6_000),
    );
    expect(slowest).toBeLessThan(LINK_DECODE_MS);
  });

  it('1,500 command lines: each ends (50 ms of simulated time at most) and answers', () => {
    const word = fc.constantFrom(
      'ping',
      'ping -c 3',
      'ping -i 0.002',
      'sar -n DEV 1',
      'sar -n UDP 1 99999999',
      'ab -n 1000000000 -c 1000',
      'ab -n 20 -c 5',
      'iperf3 -c server -t',
      'iperf3 -c server -P 128 -t 86400',
      'iperf3 -u -b 10G -c',
      'dig',
      'curl',
      'sleep',
      'timeout 0.01',
      'echo',
      'tc qdisc add dev eth0 root tbf rate 1mbit burst 1kb latency 1ms',
      'ethtool -S eth0',
      'lab',
      'nonsense',
    );
    const arg = fc.oneof(
      fc.constantFrom('server', 'http://server/', '0', '1', '1e308', '-1', '86400', 'NaN', '&', "'"),
      fc.string({ unit: 'binary', maxLength: 12 }),
    );
    const lab = createLab(defaultScenario());
    const session = new LabSession(lab, { maxCommandNs: 50e6 });
    fc.assert(
      fc.property(word, fc.array(arg, { maxLength: 3 }), (w, args) => {
        const lineText = [w, ...args].join(' ');
        const before = lab.nowNs;
        const recs = session.run(lineText);
        expect(recs.length, lineText).toBeGreaterThan(0);
        const r = recs[0]!;
        // the cap, plus the winding down an interrupt allows
        expect(r.endNs - before, lineText).toBeLessThanOrEqual(50e6 + 10e9 + 1e6);
        if (r.exitCode !== 0) expect(r.output.trim().length, lineText).toBeGreaterThan(0);
      }),
      runs(1_500, SEED + 1),
    );
    session.close();
  });

  it('2,500 scenario files (mutated, with a byte-order mark, control characters): a scenario or field-named errors', () => {
    const field = fc.constantFrom(
      'seed',
      'placement',
      'instances',
      'settings',
      'params',
      'script',
      'session',
      'vpc',
    );
    const file = fc
      .tuple(
        fc.constantFrom(...HOSTILE_SMALL, '{"version":4}'),
        field,
        fc.jsonValue({ maxDepth: 3 }),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([text, k, v, bom, mutate]) => {
        // a field replaced by any JSON value (the text is an object unless it is nested too deep)
        const body =
          mutate && text.length < 2_000_000 && text.startsWith('{"v')
            ? `{"${k}":${JSON.stringify(v)},${text.slice(1)}`
            : text;
        return `${bom ? '\uFEFF' : ''}${body}`;
      });
    fc.assert(
      fc.property(file, (text) => {
        const t0 = performance.now();
        let doc: unknown;
        try {
          doc = JSON.parse(stripBom(text));
        } catch {
          return; // the CLI says "is not valid JSON" with the parser's message
        }
        const r = parseScenario(doc);
        expect(performance.now() - t0).toBeLessThan(LINK_DECODE_MS);
        if (!r.ok) {
          // each error names where (a path, or "(root)") and what
          for (const e of r.errors) expect(e).toMatch(/^(\(root\)|[A-Za-z_$][^\n]*?): \S/);
          // what the CLI prints is free of control characters
          expect(hasTerminalControl(terminalSafe(r.errors.join('; ')))).toBe(false);
        }
      }),
      runs(2_500, SEED + 2),
    );
  });

  it(`a heavy run keeps its memory under ${MAX_HEAP_GROWTH_MB} MB (output cut at 1 MiB per command)`, () => {
    const lab = createLab(defaultScenario());
    const base = process.memoryUsage().heapUsed;
    let peak = 0;
    const session = new LabSession(lab, {
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      },
    });
    // the runs, as the lab now takes them: sar for its hour (output cut), ab, ping without -c
    for (const l of ['sar -n DEV 1 3600', 'ab -n 500 -c 50 http://server/', 'ping -q -i 0.05 server'])
      expect(session.run(l)[0]!.output.length).toBeLessThanOrEqual(2 * 1_048_576);
    expect(peak / 2 ** 20).toBeLessThan(MAX_HEAP_GROWTH_MB);
  });
});
