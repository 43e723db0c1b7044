/**
 * The Nitro card's parts stay legible in a narrow picture (1280×720 gives each part one line of
 * about 130 px): a part with a drop pill keeps its whole name, or its short form ("BW out"),
 * never a cut one ("Bandwidt…"); a setting is shown after the name only when it fits whole. The
 * layout is the engine's own (exp 1 over the worker API); the canvas is a double that records text.
 */
import { describe, expect, it } from 'vitest';
import { allocPathFrame } from '../../src/engine/view/path-types';
import type { PathLayout } from '../../src/protocol/path-frame';
import { PRESETS } from '../../src/scenario/presets';
import { computeGeometry } from '../../src/ui/path/path-geometry';
import {
  APP_LABELS,
  allocHitData,
  DEFAULT_THEME,
  drawPath,
  nitroPartFor,
} from '../../src/ui/path/path-renderer';
import { SimService } from '../../workers/sim-service';

// drawPath builds Path2D objects for marks; this test reads only text
(globalThis as { Path2D?: unknown }).Path2D ??= class {
  moveTo() {}
  lineTo() {}
  arc() {}
  rect() {}
  closePath() {}
};

/**
 * A 2D context double that records fillText. Text width from the font as DejaVu Sans (Debian's
 * default) sets it, about: 0.62 em per character in bold, 0.56 em in regular.
 */
function textContext(): { ctx: CanvasRenderingContext2D; texts: string[] } {
  const texts: string[] = [];
  const state: Record<string, unknown> = { fillStyle: '#000', strokeStyle: '#000', font: '11px sans' };
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

function exp1Layout(): PathLayout {
  const s = new SimService();
  expect(s.load(PRESETS.find((p) => p.id === 'exp1')!.scenario).ok).toBe(true);
  return s.pathLayout();
}

function draw(layout: PathLayout, width: number, height: number, dropAt?: string): string[] {
  const g = computeGeometry(layout, width, height);
  const f = allocPathFrame(16, 4, 4);
  if (dropAt) {
    f.drops = 1;
    f.dropHost[0] = 0;
    f.dropStage[0] = layout.stages.indexOf('nitro_egress');
    f.dropReason[0] = layout.dropReasons.indexOf(dropAt);
    expect(f.dropReason[0]).toBeGreaterThan(0);
    f.dropCount[0] = 18;
  }
  const { ctx, texts } = textContext();
  drawPath(
    ctx,
    g,
    layout,
    f,
    { colourBy: 'flow', selection: null, reducedMotion: true, theme: DEFAULT_THEME, dpr: 1 },
    allocHitData(16),
  );
  return texts;
}

describe('Nitro card labels in a narrow picture', () => {
  const layout = exp1Layout();

  it('a part with a drop pill shows its short name whole, not a cut long one', () => {
    const texts = draw(layout, 730, 560, 'bw_out_allowance_exceeded');
    expect(texts).toContain('✕ 18');
    expect(texts).toContain('BW out');
    expect(texts.filter((s) => s.startsWith('Bandwidt') && s.endsWith('…'))).toEqual([]);
  });

  it("on a 1280 screen's stage (a 560 px picture) the part with a drop keeps its short name whole", () => {
    const texts = draw(layout, 560, 560, 'bw_out_allowance_exceeded');
    expect(texts).toContain('BW out');
    expect(texts.filter((s) => /^B.*…$/.test(s))).toEqual([]);
    // the pill keeps the count (its ✕ goes when the name needs the room)
    expect(texts.some((s) => /^(✕ )?18$/.test(s))).toBe(true);
  });

  it('no name or setting is drawn cut in the Nitro card', () => {
    const texts = draw(layout, 730, 560);
    expect(texts).toContain('Conntrack');
    const cut = texts.filter((s) => s.endsWith('…') && /lookup|limit|Conntrack|BW|Bandwidth|PPS|·/.test(s));
    expect(cut).toEqual([]);
  });

  it('with room, the parts keep their full names and settings', () => {
    const texts = draw(layout, 1400, 1000, 'bw_out_allowance_exceeded');
    expect(texts).toContain('Bandwidth out');
    expect(texts).toContain('Per-flow limit');
    expect(texts).toContain('10 Gbps');
  });
});

describe('drops on the Nitro card', () => {
  const layout = exp1Layout();
  const parts = (stage: string) => {
    const g = computeGeometry(layout, 1400, 1000);
    return g.stages.find((s) => s.name === stage && s.host === 1)!.parts;
  };

  it("the card's bandwidth limit is marked on the bandwidth part of the half that dropped: out on egress, in on ingress", () => {
    expect(nitroPartFor(parts('nitro_egress'), 'card_bandwidth_exceeded')?.id).toBe('bw-out');
    expect(nitroPartFor(parts('nitro_ingress'), 'card_bandwidth_exceeded')?.id).toBe('bw-in');
    expect(nitroPartFor(parts('nitro_ingress'), 'bw_in_allowance_exceeded')?.id).toBe('bw-in');
    expect(nitroPartFor(parts('nitro_ingress'), 'sg_deny')?.id).toBe('flow-lookup');
    expect(nitroPartFor(parts('nitro_ingress'), 'rx_ring_full')).toBeUndefined();
  });
});

describe('a drop pill on a two-line part', () => {
  it('sits beside the name when the name fits next to it, so the setting below stays whole', () => {
    const layout = exp1Layout();
    const texts = draw(layout, 790, 720, 'bw_out_allowance_exceeded');
    // the part with the drop (the client's): its pill, its name, its setting, drawn in that order
    const at = texts.indexOf('✕ 18');
    expect(texts.slice(at, at + 3)).toEqual(['✕ 18', 'Bandwidth out', '12.5 Gbps, base 0.781']);
  });

  it("the application box's label fits its box: whole when wide, a shorter form when narrow (an embed, a phone)", () => {
    const appText = (width: number) => draw(exp1Layout(), width, 620).filter((t) => t.startsWith('App'));
    expect(appText(1400)).toEqual([APP_LABELS[0], APP_LABELS[0]]);
    // 480 wide (a phone's picture before scaling): each instance's box is about 110 px
    const narrow = appText(480);
    expect(narrow).toHaveLength(2);
    expect(narrow[0]).not.toBe(APP_LABELS[0]);
    const g = computeGeometry(exp1Layout(), 480, 620);
    expect(narrow[0]!.length * 12 * 0.56).toBeLessThanOrEqual(g.hosts[0]!.app.w - 8);
  });
});
