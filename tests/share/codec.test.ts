/**
 * Scenario links (src/share/codec.ts): length of typical links, exact round trips, diff from a
 * preset, the repair messages a user reads, and the typed errors of unreadable links.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultScenario, parseScenario, type Scenario } from '../../src/scenario/schema';
import { decodeShareLink, encodeShareLink, formatLinkSeconds, parseLinkTime } from '../../src/share/codec';
import { base64urlEncode, deflate } from '../../src/share/compress';
import { canonicalJson } from '../../src/share/minimize';

const fixture = (p: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(p, import.meta.url), 'utf8')) as Record<string, unknown>;
const TALK_V1 = fixture('../scenario/fixtures/v1-talk.json');
const TALK_V2 = fixture('../scenario/fixtures/v2-talk.json');
const CUSTOM = fixture('./fixtures/custom-vpc.json');

function parsed(doc: unknown): Scenario {
  const r = parseScenario(doc);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

/** A link carrying `doc` (without version) whole, as the encoder would write it. */
const rawLink = (doc: unknown, v = 2) =>
  `#v=${v}&s=${base64urlEncode(deflate(new TextEncoder().encode(JSON.stringify(doc))))}`;

const PRESETS = { 'net402-talk': TALK_V2, 'custom-vpc': CUSTOM };

describe('encode → decode', () => {
  const cases: Array<[string, Scenario]> = [
    ['default', defaultScenario()],
    ['talk v1', parsed(TALK_V1)],
    ['talk v2', parsed(TALK_V2)],
    ['custom VPC + 10-command script', parsed(CUSTOM)],
  ];
  it.each(cases)('%s: round-trips exactly and stays under 2,000 characters', (_name, scenario) => {
    expect(scenario.script.length).toBeLessThanOrEqual(10);
    const view = {
      timeNs: 2_500_000_000,
      selection: 'host:client',
      panels: ['path', 'charts'] as const,
      theme: 'dark' as const,
    };
    for (const presets of [{}, PRESETS]) {
      const link = encodeShareLink({ scenario, view: { ...view, panels: [...view.panels] } }, presets);
      expect(link.length).toBeLessThan(2000);
      const back = decodeShareLink(link, presets);
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.changes).toEqual([]);
      expect(canonicalJson(back.scenario)).toBe(canonicalJson(scenario));
      expect(back.view).toEqual({
        timeNs: 2_500_000_000,
        selection: 'host:client',
        panels: ['path', 'charts'],
        theme: 'dark',
      });
    }
  });

  it('the custom VPC scenario has a 10-command script and a VPC unlike the default', () => {
    const s = parsed(CUSTOM);
    expect(s.script).toHaveLength(10);
    expect(s.vpc.Subnets).toHaveLength(2);
    const link = encodeShareLink({ scenario: s });
    expect(link).toMatch(/^#v=5&s=[A-Za-z0-9_-]+$/);
  });

  it('the default scenario is a short link', () => {
    expect(encodeShareLink({ scenario: defaultScenario() })).toBe('#v=5&s=q64FAA');
  });

  it('a scenario equal to a preset is just the preset name', () => {
    const link = encodeShareLink({ scenario: parsed(TALK_V2) }, PRESETS);
    expect(link).toMatch(/^#v=5&p=net402-talk&ph=[0-9a-f]{8}$/);
    const back = decodeShareLink(link, PRESETS);
    expect(back.ok && back.preset).toBe('net402-talk');
  });

  it('a small change to a preset is a diff from it, shorter than the whole scenario', () => {
    const s = parsed({ ...CUSTOM, script: ['iperf3 -c app -t 5'] });
    const withPreset = encodeShareLink({ scenario: s }, PRESETS);
    const whole = encodeShareLink({ scenario: s });
    expect(withPreset).toMatch(/^#v=5&p=custom-vpc&ph=[0-9a-f]{8}&d=[A-Za-z0-9_-]+$/);
    expect(withPreset.length).toBeLessThan(whole.length / 4);
    const back = decodeShareLink(withPreset, PRESETS);
    expect(back.ok && canonicalJson(back.scenario)).toBe(canonicalJson(s));
  });

  it('says so when the preset changed since the link was made', () => {
    const link = encodeShareLink({ scenario: parsed({ ...CUSTOM, seed: 43 }) }, PRESETS);
    expect(link).toContain('p=custom-vpc');
    const changed = { ...PRESETS, 'custom-vpc': { ...CUSTOM, placement: 'cluster' } };
    const back = decodeShareLink(link, changed);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.changes).toEqual([
      'p: the preset "custom-vpc" has changed since this link was made; the scenario may differ from the one shared',
    ]);
    expect(back.scenario.placement).toBe('cluster');
  });

  it('times are exact integer nanoseconds', () => {
    for (const ns of [
      0, 1, 999, 1000, 1_500_000, 2_000_000_000, 1_234_567_891, 86_399_999_999_999, 86_400e9,
    ]) {
      expect(parseLinkTime(formatLinkSeconds(ns))).toBe(ns);
    }
    // in seconds, for a person to edit (the Share popover's start time)
    expect([0, 1, 1_500_000_000, 1_234_567_891, 600e9].map(formatLinkSeconds)).toEqual([
      '0s',
      '0.000000001s',
      '1.5s',
      '1.234567891s',
      '600s',
    ]);
    // the forms older links wrote still read back
    expect(parseLinkTime('1500ms')).toBe(1_500_000_000);
    expect(parseLinkTime('2066500us')).toBe(2_066_500_000);
    expect(parseLinkTime('1.5')).toBe(1_500_000_000);
    expect(parseLinkTime('20us')).toBe(20_000);
    expect(parseLinkTime('-1s')).toEqual({ error: '"-1s" is not a time like 1.5s, 250ms or 20us' });
    expect(parseLinkTime('100000s')).toEqual({ error: "100000s is past the lab's longest run (86400 s)" });
  });
});

describe('decoding keeps what is valid and says what it changed', () => {
  it('fixes fields with the closest value or the default, in plain words', () => {
    const link = rawLink({
      instances: [
        { name: 'Client', type: 'c7i.larg' },
        { name: 'server', type: 'c7i.large', ip: '10.0.0.300', bogus: 1 },
      ],
      settings: { batch: 9999, defaultQdisc: 'pfifo_fast' },
      params: { nope: 1 },
      script: ['iperf3 -c server'],
    });
    const r = decodeShareLink(`${link}&t=xx&panels=path,foo&theme=pink&zzz=1`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.changes).toEqual([
      'zzz: not a lab link option; ignored',
      't: "xx" is not a time like 1.5s, 250ms or 20us; ignored',
      'panels: "foo" is not a panel (path, chart, charts, terminal, commands, lessons); ignored',
      'theme: "pink" is not light or dark; ignored',
      'instances[0].name: must be lowercase letters, digits or "-", starting with a letter (max 31); replaced by client',
      'instances[0].type: unknown instance type "c7i.larg"; replaced by c7i.large',
      'instances[1].ip: must be an IPv4 address like 10.0.0.10; replaced by the default (10.0.0.11)',
      'instances[1].bogus: not a scenario field; removed',
      'settings.batch: Too big: expected number to be <=256; replaced by the default (auto)',
      'params.nope: unknown model parameter; removed',
    ]);
    // what was valid is kept
    expect(r.scenario.settings.defaultQdisc).toBe('pfifo_fast');
    expect(r.scenario.script).toEqual(['iperf3 -c server']);
    expect(r.view).toEqual({ panels: ['path'] });
    expect(parseScenario(r.scenario).ok).toBe(true);
  });

  it('drops an instance missing a required field, and names it by its index in the link', () => {
    const r = decodeShareLink(
      rawLink({
        instances: [
          { name: 'a', type: 'c7i.large' },
          { type: 'c7i.large' },
          { name: 'c', type: 'c7i.large', ip: 'nope' },
        ],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.instances.map((i) => i.name)).toEqual(['a', 'c']);
    expect(r.changes).toEqual([
      'instances[1].name: Invalid input: expected string, received undefined; instances[1] removed',
      'instances[2].ip: must be an IPv4 address like 10.0.0.10; replaced by the default (10.0.0.11)',
    ]);
  });

  it('renames a duplicate host', () => {
    const r = decodeShareLink(
      rawLink({
        instances: [
          { name: 'a', type: 'c7i.large' },
          { name: 'a', type: 'c7i.large' },
        ],
      }),
    );
    expect(r.ok && r.changes).toEqual(['instances[1].name: duplicate instance name "a"; replaced by a-2']);
  });

  it('falls back to the default VPC when the VPC cannot be fixed field by field', () => {
    const r = decodeShareLink(
      rawLink({ seed: 5, vpc: { VpcId: 'vpc-12345678', CidrBlock: '10.0.0.0/16', Subnets: [] } }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(canonicalJson(r.scenario.vpc)).toBe(canonicalJson(parsed({ version: 2, seed: 5 }).vpc));
    expect(r.changes[0]).toBe('vpc.Subnets: needs at least one subnet; vpc replaced by the default');
  });

  it('a v1 link with v2 fields keeps the v1 scenario and drops them', () => {
    const r = decodeShareLink(rawLink({ ...TALK_V1, version: undefined, vpc: {} }, 1));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.changes).toEqual([
      'vpc: not part of a version 1 scenario (set "version": 2 to use it); replaced by the default',
    ]);
    expect(canonicalJson(r.scenario)).toBe(canonicalJson(parsed(TALK_V1)));
  });

  it('removes __proto__ keys as data, never as prototypes', () => {
    const json = '{"__proto__":{"polluted":1},"settings":{"__proto__":{"x":1},"batch":4}}';
    const link = `#v=2&s=${base64urlEncode(deflate(new TextEncoder().encode(json)))}`;
    const r = decodeShareLink(link);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.changes).toEqual([
      '__proto__: not a scenario field; removed',
      'settings.__proto__: not a scenario field; removed',
    ]);
    expect(r.scenario.settings.batch).toBe(4);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a hash without a scenario opens the default lab with the view it names', () => {
    const r = decodeShareLink('#t=3s&panels=terminal&embed=1');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.fromLink).toBe(false);
    expect(canonicalJson(r.scenario)).toBe(canonicalJson(defaultScenario()));
    expect(r.view).toEqual({ timeNs: 3_000_000_000, panels: ['terminal'] });
  });
});

describe('unreadable links give a typed error', () => {
  const cases: Array<[string, string, string]> = [
    ['#v=2&s=abc', 'damaged-data', 'the compressed data is damaged (unexpected EOF)'],
    ['#v=2&s=a', 'damaged-data', 'the data is cut short (its length is not possible in base64url)'],
    ['#v=2&s=ab%25c', 'damaged-data', 'the data has a character that is not base64url at position 3'],
    [
      '#v=9&s=x',
      'newer-version',
      'it was made by a newer version of the lab (scenario version 9; this lab reads 1, 2, 3, 4, 5)',
    ],
    ['#v=0&s=x', 'unknown-version', 'scenario version 0 never existed (known: 1, 2, 3, 4, 5)'],
    ['#v=two', 'unknown-version', 'v=two is not a scenario version'],
    ['#s=x', 'unknown-version', 'it carries a scenario but no version (v=…)'],
    ['#v=2&p=nope', 'unknown-preset', 'there is no preset named "nope" (presets: custom-vpc, net402-talk)'],
    [
      '#v=2&p=toString',
      'unknown-preset',
      'there is no preset named "toString" (presets: custom-vpc, net402-talk)',
    ],
    ['#v=2&d=q64FAA', 'damaged-data', 'it has a change (d) but no preset (p) to apply it to'],
    [rawLink([1, 2]), 'invalid-scenario', 'the scenario is not a JSON object'],
    [
      `#v=2&s=${base64urlEncode(deflate(new TextEncoder().encode('{"a":')))}`,
      'damaged-data',
      'the data is not JSON',
    ],
  ];
  it.each(cases)('%s → %s', (hash, kind, detail) => {
    expect(decodeShareLink(hash, PRESETS)).toEqual({
      ok: false,
      error: { kind, message: `this link could not be read: ${detail}` },
    });
  });

  it('refuses a huge hash at once, and a small payload that unpacks huge', () => {
    // built before the clock starts: compressing 5 MB is the test's work, not the decoder's
    const bomb = `#v=2&s=${base64urlEncode(deflate(new TextEncoder().encode(`{"script":["${'x'.repeat(5_000_000)}"]}`)))}`;
    const huge = `#v=2&s=${'A'.repeat(1_000_000)}`;
    const t0 = performance.now();
    const long = decodeShareLink(huge);
    expect(long.ok || long.error).toEqual({
      kind: 'too-large',
      message:
        'this link could not be read: the link is 1000007 characters long, more than the 32768 this lab reads',
    });
    expect(bomb.length).toBeLessThan(32_768);
    const r = decodeShareLink(bomb);
    expect(r.ok || r.error).toEqual({
      kind: 'damaged-data',
      message: 'this link could not be read: the data unpacks to more than 262144 bytes',
    });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('refuses documents nested deeper than any scenario', () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    const r = decodeShareLink(rawLink({ params: JSON.parse(deep) as unknown }));
    expect(r.ok || r.error.message).toBe(
      'this link could not be read: it is nested deeper than any scenario (24 levels)',
    );
  });
});
