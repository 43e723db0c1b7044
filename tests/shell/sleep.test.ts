/**
 * `sleep` holds the prompt for its whole interval, also in an idle lab (no packet, no timer
 * pending): its deadline alone ends it. It was interrupted at once there ("nothing left that could
 * end the job"), so `sleep 60` to let a CloudWatch minute pass returned in the UI at t = 0.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { PRESETS } from '../../src/scenario/presets';
import { parseScenario } from '../../src/scenario/schema';
import { SimService } from '../../workers/sim-service';

describe('sleep', () => {
  it('in an idle lab it sleeps its whole interval and exits 0', () => {
    const r = parseScenario({ version: 3 });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const lab = createLab(r.scenario);
    const [rec] = runScript(lab, ['sleep 3']);
    expect(rec!.exitCode).toBe(0);
    expect(rec!.endNs - rec!.startNs).toBe(3e9);
    expect(lab.nowNs).toBe(3e9);
  });

  it('in the UI (the worker service), the prompt stays hidden until the interval is over', () => {
    const s = new SimService();
    expect(s.load(PRESETS[0]!.scenario).ok).toBe(true);
    expect(s.submit('sleep 100')).toBe(true);
    for (const to of [1e9, 60e9, 99.9e9]) {
      const f = s.advance({ toNs: to, maxEvents: 200_000 });
      expect(f.foreground?.command, `at ${to / 1e9} s`).toBe('sleep 100');
    }
    const f = s.advance({ toNs: 101e9, maxEvents: 200_000 });
    expect(f.foreground).toBeNull();
    expect(s.submit('true')).toBe(true);
  });
});
