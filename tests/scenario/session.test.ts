/**
 * Scenario v4 `session`: the terminal's lines and Ctrl-Cs with their simulated instants, what a
 * shared link replays. Validated (whole ns, in time order), refused in a v3 document, and a bad
 * entry in a link is dropped with a note while the rest of the session is kept.
 */
import { describe, expect, it } from 'vitest';
import { migrateV3ToV4 } from '../../src/scenario/migrations';
import { parseScenario } from '../../src/scenario/schema';
import { decodeShareLink, encodeShareLink } from '../../src/share/codec';
import { repairScenario } from '../../src/share/repair';

describe('scenario session (v4)', () => {
  it('keeps lines and interrupts with their instants, in order', () => {
    const session = [
      { atNs: 0, line: 'iperf3 -c server -t 1' },
      { atNs: 5e8, interrupt: true as const },
      { atNs: 5e8, line: 'ethtool -S eth0' },
    ];
    const r = parseScenario({ version: 4, session });
    expect(r.ok && r.scenario.session).toEqual(session);
    // absent stays absent: older documents open to the same scenario as before
    const plain = parseScenario({ version: 4 });
    expect(plain.ok && 'session' in plain.scenario).toBe(false);
  });

  it('refuses entries out of time order, fractional or negative instants, unknown shapes', () => {
    const bad = (session: unknown) => {
      const r = parseScenario({ version: 4, session });
      return r.ok ? [] : r.errors;
    };
    expect(
      bad([
        { atNs: 2, line: 'a' },
        { atNs: 1, line: 'b' },
      ]),
    ).toEqual(['session[1].atNs: earlier than the entry before it (2 ns); entries are in time order']);
    for (const entry of [
      { atNs: 1.5, line: 'a' },
      { atNs: -1, line: 'a' },
      { atNs: 0, interrupt: false },
      { atNs: 0, line: 'a', run: 'eval' },
    ]) {
      const errors = bad([entry]);
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) expect(e).toMatch(/^session\[0\]/);
    }
  });

  it('a v3 document may not carry a session', () => {
    expect(migrateV3ToV4({ version: 3, session: [] })).toEqual({
      ok: false,
      errors: ['session: not part of a version 3 scenario (set "version": 4 to use it)'],
    });
    expect(migrateV3ToV4({ version: 3, seed: 2 })).toEqual({ ok: true, doc: { version: 4, seed: 2 } });
  });

  it('a link with a bad entry opens without it and says so', () => {
    const r = repairScenario(
      {
        session: [
          { atNs: 0, line: 'iperf3 -c server -t 1' },
          { atNs: 'soon', line: 'rm -rf /' },
          { atNs: 2e9, line: 'ethtool -S eth0' },
        ],
      },
      4,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.session).toEqual([
      { atNs: 0, line: 'iperf3 -c server -t 1' },
      { atNs: 2e9, line: 'ethtool -S eth0' },
    ]);
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]).toMatch(/^session\[1\]/);
  });

  it('round-trips through a link', () => {
    const p = parseScenario({ version: 4, session: [{ atNs: 123_456_789, line: 'iperf3 -c server -t 1' }] });
    if (!p.ok) throw new Error(p.errors.join('; '));
    const link = encodeShareLink({ scenario: p.scenario, view: { timeNs: 1_234_567_890 } });
    const back = decodeShareLink(link);
    expect(back.ok && back.scenario).toEqual(p.scenario);
    expect(back.ok && back.view.timeNs).toBe(1_234_567_890);
  });
});
