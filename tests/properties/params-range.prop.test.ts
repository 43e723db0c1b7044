/**
 * Property: every model parameter at either end of its range (src/engine/model/params.ts PARAM_RANGES)
 * still gives a lab that runs: a 1 s iperf3 and two pings end, within 5 s of simulated time and a
 * bound on events, without throwing; just outside the range the scenario is refused with a
 * message naming the parameter and its range. 59 parameters × 2 ends: about 30 s on a loaded 2-core VM.
 */
import { describe, expect, it } from 'vitest';
import { MODEL_PARAMS, PARAM_RANGES, type ParamName } from '../../src/engine/model/params';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

/** Events one run may take (the busiest end measured 390,536: napiBudget 1). */
const MAX_EVENTS = 2_000_000;

const names = Object.keys(PARAM_RANGES) as ParamName[];

describe('model parameters: ranges', () => {
  it('every parameter has a range holding its default', () => {
    expect(names.sort()).toEqual(Object.keys(MODEL_PARAMS).sort());
    for (const n of names) {
      const rg = PARAM_RANGES[n];
      expect(MODEL_PARAMS[n].value, n).toBeGreaterThanOrEqual(rg.min);
      expect(MODEL_PARAMS[n].value, n).toBeLessThanOrEqual(rg.max);
    }
  });

  it.each(names)('%s: the lab runs at both ends of the range and refuses beyond', (name) => {
    const rg = PARAM_RANGES[name];
    for (const value of [rg.min, rg.max]) {
      const r = parseScenario({ version: 4, params: { [name]: value } });
      expect(r.ok, `${name} = ${value}`).toBe(true);
      if (!r.ok) continue;
      const lab = createLab(r.scenario);
      const s = new LabSession(lab, { maxCommandNs: 5e9 });
      for (const line of ['iperf3 -c server -t 1', 'ping -c 2 server']) {
        const rec = s.run(line)[0]!;
        expect(rec.endNs - rec.startNs, `${name} = ${value}: ${line}`).toBeLessThanOrEqual(5e9 + 10e9);
      }
      expect(lab.sched.processed, `${name} = ${value}`).toBeLessThan(MAX_EVENTS);
    }
    const step = Math.max(1, Math.abs(rg.max) * 1e-3);
    for (const value of [rg.min - step, rg.max + step, Number.NaN]) {
      const r = parseScenario({ version: 4, params: { [name]: value } });
      expect(r.ok, `${name} = ${value}`).toBe(false);
      if (!r.ok) expect(r.errors.join('\n')).toMatch(new RegExp(`^params\\.${name}: `));
    }
    if ('integer' in rg && rg.integer) {
      const r = parseScenario({ version: 4, params: { [name]: rg.min + 0.5 } });
      expect(r.ok ? '' : r.errors.join(), name).toMatch(/must be an integer from/);
    }
  });
});
