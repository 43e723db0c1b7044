import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/engine/model/trace';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

function lab(params: Record<string, number> = {}) {
  const s = parseScenario({ version: 1, params });
  if (!s.ok) throw new Error(s.errors.join());
  return createLab(s.scenario);
}

describe('typed trace events', () => {
  it('reports every drop with its stage, reason and flow, matching the drop counters', () => {
    const l = lab();
    const events: TraceEvent[] = [];
    l.subscribe((e) => events.push(e));
    new LabSession(l).run('iperf3 -c server -u -b 10G -P 4 -t 1 -l 8948');
    const drops = events.filter((e) => e.type === 'PacketDropped');
    expect(drops.length).toBeGreaterThan(0);
    const traced = drops.reduce((n, e) => n + (e.type === 'PacketDropped' ? e.packets : 0), 0);
    expect(traced).toBe(l.drops.total());
    for (const e of drops) if (e.type === 'PacketDropped') expect(e.flowId).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'CommandStarted')).toBe(true);
    expect(events.at(-1)?.type).toBe('CommandEnded');
  });

  it('reports when burst credits run out', () => {
    // a tiny credit bucket (scenario override of the per-type figure is not possible; shrink time instead)
    const l = lab();
    const events: TraceEvent[] = [];
    l.subscribe((e) => events.push(e));
    const acct = l.instance('client')!.nitro.creditsOut!;
    acct.creditsBits = 1e6; // nearly empty: the next burst empties it
    new LabSession(l).run('iperf3 -c server -t 1 -P 2');
    const ex = events.find((e) => e.type === 'CreditsExhausted');
    expect(ex).toMatchObject({ host: 'client', direction: 'out' });
  });

  it('costs nothing when nobody listens: no sink is installed', () => {
    const l = lab();
    expect(l.drops.trace).toBeNull();
    const off = l.subscribe(() => {});
    expect(l.drops.trace).not.toBeNull();
    off();
    expect(l.drops.trace).toBeNull();
  });
});
