/**
 * Idle stages kept small: a half of a host with nothing to show (no packet in the window, no queue,
 * nothing held, no drop) is drawn narrow and its busy neighbour takes the room, eased over a few
 * animation frames after a hold; clicks still land on the stage drawn there.
 */
import { describe, expect, it } from 'vitest';
import type { PathLayout } from '../../src/protocol/path-frame';
import { PRESETS } from '../../src/scenario/presets';
import { activeHalves, EASE_MS, IDLE_HOLD_MS, initialFocus, stepFocus } from '../../src/ui/path/path-focus';
import { computeGeometry, IDLE_RINGS_H, type PathGeometry } from '../../src/ui/path/path-geometry';
import { hitStage } from '../../src/ui/path/path-renderer';
import { SimService } from '../../workers/sim-service';

/** UDP from client to server (no reverse traffic): the client's receiving half and the server's sending half show nothing. */
function udpRun() {
  const s = new SimService();
  expect(s.load(PRESETS.find((p) => p.id === 'exp1')!.scenario).ok).toBe(true);
  const layout = s.pathLayout() as PathLayout;
  expect(s.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1')).toBe(true);
  let f = s.advance({ toNs: 1e6, maxEvents: 5_000_000 });
  for (let t = 2; t <= 30; t++) f = s.advance({ toNs: t * 1e6, maxEvents: 5_000_000 });
  return { layout, frame: f.path };
}

const half = (g: PathGeometry, host: number, side: 'tx' | 'rx') => g.hosts[host]![side];

describe('which halves have something to show', () => {
  it('UDP one way: the sender sends and the receiver receives; the other halves are idle', () => {
    const { layout, frame } = udpRun();
    const a = activeHalves(layout, frame);
    expect([...a.tx]).toEqual([1, 0]);
    expect([...a.rx]).toEqual([0, 1]);
    // nothing in view: nothing to show anywhere
    const none = activeHalves(layout, null);
    expect([...none.tx, ...none.rx]).toEqual([0, 0, 0, 0]);
  });

  it('the rings have something to show while packets pass them; an idle lab has none', () => {
    const { layout, frame } = udpRun();
    expect([...activeHalves(layout, frame).rings]).toEqual([1]);
    expect([...activeHalves(layout, null).rings]).toEqual([0]);
    const s = new SimService();
    expect(s.load(PRESETS.find((p) => p.id === 'exp1')!.scenario).ok).toBe(true);
    const idle = s.advance({ toNs: 10e6, maxEvents: 1000 }).path;
    expect([...activeHalves(layout, idle).rings]).toEqual([0]);
  });
});

describe('idle rings on a tall canvas', () => {
  const { layout } = udpRun();
  const ringH = (g: PathGeometry) => g.stages.find((s) => s.name === 'tx_ring')!.rect.h;
  const nitroH = (g: PathGeometry) => g.stages.find((s) => s.name === 'nitro_egress')!.rect.h;

  it('idle, the rings stay short and the picture is shorter than the canvas asked; busy, they take the height', () => {
    const idle = computeGeometry(layout, 700, 900, { tx: [1, 1], rx: [1, 1], rings: 0 });
    const busy = computeGeometry(layout, 700, 900, { tx: [1, 1], rx: [1, 1], rings: 1 });
    const half = computeGeometry(layout, 700, 900, { tx: [1, 1], rx: [1, 1], rings: 0.5 });
    expect(ringH(idle)).toBe(IDLE_RINGS_H);
    expect(ringH(busy)).toBeGreaterThan(3 * IDLE_RINGS_H);
    expect(ringH(half)).toBeGreaterThan(ringH(idle));
    expect(ringH(half)).toBeLessThan(ringH(busy));
    expect(busy.height).toBe(900);
    expect(idle.height).toBe(900 - (ringH(busy) - IDLE_RINGS_H));
    // only the rings' row changes: the Nitro card's parts stay as they are, the fabric under the card
    expect(nitroH(idle)).toBe(nitroH(busy));
    expect(idle.fabric.rect.y + idle.fabric.rect.h).toBeLessThanOrEqual(idle.height);
    for (const h of idle.hosts) expect(h.nitroCard.y + h.nitroCard.h).toBeLessThan(idle.fabric.rect.y);
    // without a focus (or with rings busy): as before, the canvas's height
    expect(computeGeometry(layout, 700, 900).height).toBe(900);
  });

  it('a short canvas (a 1280×800 screen, an embed) is as before: its rings are no taller than the idle row', () => {
    for (const h of [400, 540]) {
      const idle = computeGeometry(layout, 560, h, { tx: [1, 1], rx: [1, 1], rings: 0 });
      const busy = computeGeometry(layout, 560, h, { tx: [1, 1], rx: [1, 1], rings: 1 });
      // (the Nitro parts' rounding leaves the busy row a pixel or two over the idle one)
      expect(ringH(busy)).toBeLessThanOrEqual(IDLE_RINGS_H + 3);
      expect(busy.height - idle.height).toBeLessThanOrEqual(3);
    }
  });
});

describe('the geometry gives the room to what is busy', () => {
  const { layout } = udpRun();
  const W = 560;
  const even = computeGeometry(layout, W, 620);
  const focused = computeGeometry(layout, W, 620, { tx: [1, 0], rx: [0, 1] });

  it('without a focus (or all equal) it is the even split', () => {
    for (const f of [
      { tx: [1, 1], rx: [1, 1] },
      { tx: [0, 0], rx: [0, 0] },
    ]) {
      const g = computeGeometry(layout, W, 620, f);
      for (const h of [0, 1])
        for (const side of ['tx', 'rx'] as const) expect(half(g, h, side)).toEqual(half(even, h, side));
    }
  });

  it('an idle half is narrow (never below its minimum), its busy neighbour wider, the column unchanged', () => {
    expect(half(focused, 0, 'tx').w).toBeGreaterThan(half(even, 0, 'tx').w * 1.15);
    expect(half(focused, 0, 'rx').w).toBeLessThan(half(even, 0, 'rx').w * 0.85);
    expect(half(focused, 0, 'rx').w).toBeGreaterThanOrEqual(96 - 1e-9);
    expect(half(focused, 1, 'rx').w).toBeGreaterThan(half(focused, 1, 'tx').w);
    for (const h of [0, 1]) {
      const c = focused.hosts[h]!;
      expect(c.tx.w + c.rx.w).toBeCloseTo(even.hosts[h]!.tx.w + even.hosts[h]!.rx.w, 9);
      expect(c.tx.x + c.tx.w).toBeLessThan(c.rx.x); // no overlap
    }
  });

  it('a host with nothing to show gets a narrower column', () => {
    const g = computeGeometry(layout, W, 620, { tx: [1, 0], rx: [1, 0] });
    expect(g.hosts[1]!.column.w).toBeLessThan(g.hosts[0]!.column.w);
    expect(g.hosts[1]!.column.w).toBeGreaterThanOrEqual(150 - 1e-9);
    expect(g.hosts[1]!.column.x + g.hosts[1]!.column.w).toBeCloseTo(
      even.hosts[1]!.column.x + even.hosts[1]!.column.w,
      9,
    );
  });

  it('every lane stays inside its stage and its half, and a click on it opens that lane', () => {
    for (const g of [focused, computeGeometry(layout, W, 620, { tx: [0.4, 0], rx: [0, 0.7] })])
      for (const s of g.stages) {
        if (s.host < 0) continue;
        const hr = half(g, s.host, s.side === 'rx' ? 'rx' : 'tx');
        expect(s.rect.x).toBeGreaterThanOrEqual(hr.x - 1e-9);
        expect(s.rect.x + s.rect.w).toBeLessThanOrEqual(hr.x + hr.w + 1e-9);
        for (const l of s.lanes) {
          expect(l.rect.x).toBeGreaterThanOrEqual(s.rect.x - 1e-9);
          expect(l.rect.x + l.rect.w).toBeLessThanOrEqual(s.rect.x + s.rect.w + 1e-9);
          const hit = hitStage(g, l.rect.x + l.rect.w / 2, l.rect.y + l.rect.h / 2);
          expect(hit).toEqual({ host: l.host, stage: l.stage, queue: l.queue });
        }
      }
  });
});

describe('the change is eased, after a hold', () => {
  const act = (tx: number[], rx: number[]) => ({ tx: Uint8Array.from(tx), rx: Uint8Array.from(rx) });

  it('an idle half keeps its room for the hold, then shrinks smoothly to nothing; busy again, it grows back', () => {
    const st = initialFocus(2, 0);
    const idleRx = act([1, 0], [0, 1]);
    let t = 0;
    const seen: number[] = [];
    while (t < IDLE_HOLD_MS - 20) {
      t += 16;
      expect(stepFocus(st, idleRx, t, 16, false).moved).toBe(false);
    }
    expect(st.rx[0]).toBe(1);
    const r = stepFocus(st, idleRx, t, 16, false);
    expect(r.wakeInMs).toBeGreaterThan(0);
    expect(r.wakeInMs).toBeLessThanOrEqual(20);
    for (let i = 0; i < 60; i++) {
      t += 16;
      stepFocus(st, idleRx, t, 16, false);
      seen.push(st.rx[0]!);
    }
    // gentle: no jump of more than a fifth in one 16 ms frame, monotone, and it arrives
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!).toBeLessThanOrEqual(seen[i - 1]!);
      expect(seen[i - 1]! - seen[i]!).toBeLessThan(0.2);
    }
    expect(seen[0]!).toBeGreaterThan(0.85);
    expect(st.rx[0]).toBe(0);
    expect(st.tx[1]).toBe(0);
    expect(st.tx[0]).toBe(1);
    expect(stepFocus(st, idleRx, t + 16, 16, false)).toEqual({
      moved: false,
      settled: true,
      wakeInMs: Infinity,
    });
    // busy again: back to full room within a few time constants
    for (let i = 0; i < Math.ceil((6 * EASE_MS) / 16); i++) {
      t += 16;
      stepFocus(st, act([1, 0], [1, 1]), t, 16, false);
    }
    expect(st.rx[0]).toBe(1);
  });

  it('the rings: an idle lab opens with them short; busy, they grow; idle again, they shrink after the hold', () => {
    const st = initialFocus(2, 0, false);
    expect(st.rings[0]).toBe(0);
    expect(initialFocus(2, 0).rings[0]).toBe(1);
    const busy = { ...act([1, 0], [0, 1]), rings: Uint8Array.of(1) };
    const idle = { ...act([1, 0], [0, 1]), rings: Uint8Array.of(0) };
    let t = 0;
    for (let i = 0; i < Math.ceil((6 * EASE_MS) / 16); i++) stepFocus(st, busy, (t += 16), 16, false);
    expect(st.rings[0]).toBe(1);
    while (t < IDLE_HOLD_MS) stepFocus(st, idle, (t += 16), 16, false);
    expect(st.rings[0]).toBe(1);
    for (let i = 0; i < 200; i++) stepFocus(st, idle, (t += 16), 16, false);
    expect(st.rings[0]).toBe(0);
    // an activity without rings leaves their weight alone
    stepFocus(st, act([1, 0], [0, 1]), (t += 16), 16, true);
    expect(st.rings[0]).toBe(0);
  });

  it('with reduced motion it goes there at once', () => {
    const st = initialFocus(1, 0);
    stepFocus(st, act([1], [0]), IDLE_HOLD_MS + 1, 16, true);
    expect(st.rx[0]).toBe(0);
    stepFocus(st, act([1], [1]), IDLE_HOLD_MS + 20, 16, true);
    expect(st.rx[0]).toBe(1);
  });
});
