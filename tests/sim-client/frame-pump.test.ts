/**
 * The frame pump's requests when the model cannot keep up (src/sim-client/frame-pump.ts), against a
 * client that answers at once: each request then asks for the longest step a frame may take, so
 * the event budget, not the instant, ends it, and the pump keeps chaining requests instead of
 * leaving the worker idle until the next animation frame.
 */
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../src/protocol/sim-api';
import { createFramePump } from '../../src/sim-client/frame-pump';
import type { SimClient } from '../../src/sim-client/sim-client';
import { createAppStore, patch, SPEED_MAX_NS_PER_S } from '../../src/state/app-store';

/** A client whose worker reaches `reachNs` ahead of where it starts, whatever the request asks. */
function fakeClient(reachNs: number) {
  const asked: Array<{ fromNs: number; toNs: number }> = [];
  let now = 0;
  const answer = (toNs: number, onAnswer?: (f: Frame) => void): Frame => {
    asked.push({ fromNs: now, toNs });
    const to = Math.min(toNs, now + reachNs);
    const f = {
      nowNs: to,
      reached: to >= toNs,
      workMs: 300,
      foreground: { host: 'client', startNs: 0, command: 'iperf3' },
      backgroundCount: 0,
      path: { revision: 0 },
    } as unknown as Frame;
    now = to;
    onAnswer?.(f);
    return f;
  };
  const client = {
    get inFlight() {
      return false;
    },
    canAdvanceAhead: false,
    get simTimeNs() {
      return now;
    },
    commandLog: [],
    advance: async (toNs: number, _b: number, _u: unknown, _o: unknown, onAnswer?: (f: Frame) => void) =>
      answer(toNs, onAnswer),
    advanceAhead: async (toNs: number, _b: number, _o: unknown, onAnswer?: (f: Frame) => void) =>
      answer(toNs, onAnswer),
  } as unknown as SimClient;
  return { client, asked };
}

describe('frame pump, model-bound', () => {
  it('asks each request for the longest step (0.1 s of wall time at the speed), also one chained a moment after the last', async () => {
    const store = createAppStore({ presetId: 'x', doc: {} });
    patch(store, 'scenario', { loading: false });
    patch(store, 'playback', { playing: true, speedMode: 'manual', speedNsPerS: SPEED_MAX_NS_PER_S });
    // the worker gets 5 s of simulated time a request: far less than 10 min/s asks
    const { client, asked } = fakeClient(5e9);
    let chained = 0;
    const { pump } = createFramePump(store, client, () => asked.length >= 6 || chained++ > 10);
    // one animation frame: the first request, then those the pump chains from each answer at once
    await pump(1000);
    expect(asked.length).toBe(6);
    // the first asks for a frame's worth (the pump has no previous frame); the model fell short
    expect(asked[0]!.toNs - asked[0]!.fromNs).toBe(Math.round(SPEED_MAX_NS_PER_S / 60));
    // then, model-bound: 60 s each (0.1 s at 10 min/s), though the pump's wall clock barely moved
    for (const r of asked.slice(1)) expect(r.toNs - r.fromNs).toBe(SPEED_MAX_NS_PER_S / 10);
  });

  it('keeps a frame step when the model keeps up', async () => {
    const store = createAppStore({ presetId: 'x', doc: {} });
    patch(store, 'scenario', { loading: false });
    patch(store, 'playback', { playing: true, speedMode: 'manual', speedNsPerS: 1e9 });
    const { client, asked } = fakeClient(1e12);
    const { pump } = createFramePump(store, client, () => false);
    await pump(1000);
    await pump(1016);
    await pump(1032);
    expect(asked.map((r) => r.toNs - r.fromNs)).toEqual([Math.round(1e9 / 60), 16e6, 16e6]);
  });
});
