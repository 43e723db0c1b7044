/**
 * The path explains its queues: the Nitro card's queue says what holds it (the per-flow limit, the
 * bandwidth allowance), from the model's shaper that blocks the waiting packets, and the picture
 * outlines that part and writes it beside the count; the TX rings say when the card's PPS budget,
 * gating their fetch, holds them.
 */
import { describe, expect, it } from 'vitest';
import { allocPathFrame } from '../../src/engine/view/path-types';
import { PRESETS } from '../../src/scenario/presets';
import { computeGeometry } from '../../src/ui/path/path-geometry';
import { allocHitData, DEFAULT_THEME, drawPath } from '../../src/ui/path/path-renderer';
import { SimService } from '../../workers/sim-service';

(globalThis as { Path2D?: unknown }).Path2D ??= class {
  moveTo() {}
  lineTo() {}
  arc() {}
  rect() {}
  closePath() {}
};

/** A context double that records text (widths about as DejaVu Sans sets them). */
function textContext(): { ctx: CanvasRenderingContext2D; texts: string[] } {
  const texts: string[] = [];
  const state: Record<string, unknown> = { font: '11px sans' };
  const ctx = new Proxy(state, {
    get(t, k: string) {
      if (k in t) return t[k];
      if (k === 'measureText')
        return (s: string) => {
          const f = String(t.font);
          const px = Number(/([\d.]+)px/.exec(f)?.[1] ?? 11);
          return { width: s.length * px * (/^(600|700|bold)/.test(f) ? 0.62 : 0.56) };
        };
      if (k === 'fillText') return (s: string) => texts.push(s);
      return () => {};
    },
    set(t, k: string, v) {
      t[k] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, texts };
}

function lab(preset: string) {
  const s = new SimService();
  expect(s.load(PRESETS.find((p) => p.id === preset)!.scenario).ok).toBe(true);
  return s;
}

/** Play `cmd` for `ms` of model time; the last frame. */
function playFor(s: SimService, cmd: string, ms: number) {
  expect(s.submit(cmd)).toBe(true);
  let f = s.advance({ toNs: 1e6, maxEvents: 5_000_000 });
  for (let t = 2; t <= ms; t++) f = s.advance({ toNs: t * 1e6, maxEvents: 5_000_000 });
  return f;
}

describe('what holds the Nitro queue', () => {
  const heldOf = (s: SimService, f: ReturnType<SimService['advance']>, stage: string) => {
    const layout = s.pathLayout();
    const code = layout.stages.indexOf(stage);
    const out: Array<{ occ: number; held: string }> = [];
    for (let i = 0; i < f.path.lanes; i++)
      if (f.path.laneHost[i] === 0 && f.path.laneStage[i] === code)
        out.push({ occ: f.path.laneOccupancy[i]!, held: layout.dropReasons[f.path.laneHeld[i]!] ?? '' });
    return out;
  };

  it('two flows above the bandwidth allowance: the bandwidth allowance holds the queue', () => {
    const s = lab('exp1');
    const f = playFor(s, 'iperf3 -c server -t 1 -l 9000 -P 2', 300);
    const [q] = heldOf(s, f, 'nitro_egress');
    expect(q!.occ).toBeGreaterThan(0);
    expect(q!.held).toBe('bw_out_allowance_exceeded');
  });

  it('small packets: the PPS allowance holds the TX rings, before the card', () => {
    // the egress PPS allowance is the card's budget gating the ENA device's TX fetch
    // (nitroPpsHoldsTxFetch): the excess waits in the TX rings, none in the card's queue. Two flows
    // on c7i.large's two queues could fetch 2 Mpps; the ≈ 1 Mpps budget is what they wait for
    const s = lab('exp3');
    const f = playFor(s, 'iperf3 -c server -t 1 -M 128 -P 2', 200);
    const rings = heldOf(s, f, 'tx_ring');
    expect(rings).toHaveLength(2);
    for (const r of rings) {
      expect(r.occ).toBeGreaterThan(256); // of 512: full, or nearly
      expect(r.held).toBe('pps_allowance_exceeded');
    }
    // none waits in the card's shapers, and its queue claims no holder it does not have
    const [q] = heldOf(s, f, 'nitro_egress');
    expect(q?.occ ?? 0).toBe(0);
    expect(q?.held ?? '').toBe('');
    // the picture says it after the rings' name
    const layout = s.pathLayout();
    for (const [w, want] of [
      [1400, /^TX rings \(2 × 512\), held by PPS allowance$/],
      [600, /^TX rings( \(2 × 512\))?(, held by| ·) PPS/],
    ] as const) {
      const { ctx, texts } = textContext();
      drawPath(
        ctx,
        computeGeometry(layout, w, 700),
        layout,
        f.path,
        { colourBy: 'flow', selection: null, reducedMotion: true, theme: DEFAULT_THEME, dpr: 1 },
        allocHitData(8192),
      );
      expect(
        texts.filter((t) => want.test(t)),
        `${w}: ${texts.filter((t) => /held|PPS|TX rings/.test(t))}`,
      ).toHaveLength(1);
    }
  });

  it('the picture writes it beside the count', () => {
    const s = lab('exp1');
    const f = playFor(s, 'iperf3 -c server -t 1 -l 9000 -P 2', 300);
    const layout = s.pathLayout();
    for (const [w, want] of [
      [1400, /^[\d,]+ queued, held by Bandwidth out$/],
      [600, /^[\d,]+ · BW out$/],
    ] as const) {
      const { ctx, texts } = textContext();
      drawPath(
        ctx,
        computeGeometry(layout, w, 700),
        layout,
        f.path,
        { colourBy: 'flow', selection: null, reducedMotion: true, theme: DEFAULT_THEME, dpr: 1 },
        allocHitData(8192),
      );
      expect(
        texts.filter((t) => want.test(t)),
        `${w}: ${texts.filter((t) => /queued|held/.test(t))}`,
      ).toHaveLength(1);
    }
    // nothing waiting: nothing named
    const empty = allocPathFrame(16, 4, 4);
    const { ctx, texts } = textContext();
    drawPath(
      ctx,
      computeGeometry(layout, 1400, 700),
      layout,
      empty,
      { colourBy: 'flow', selection: null, reducedMotion: true, theme: DEFAULT_THEME, dpr: 1 },
      allocHitData(16),
    );
    expect(texts.some((t) => t.includes('held by'))).toBe(false);
  });
});
