/**
 * The frame pump at the top speed, where the model cannot keep up: the next request goes to the
 * worker ahead of the answer to the one in flight (SimClient.advanceAhead), frames are applied in
 * order, and a line typed meanwhile is logged at the instant the worker took it, so the shared
 * session replays the same. A real SimService over a MessageChannel; animation frames by hand,
 * several while a request is out, as a browser's come.
 */
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdvanceRequest, SimApi } from '../../src/protocol/sim-api';
import { createLabController, type LabController } from '../../src/sim-client/lab-controller';
import { SimClient } from '../../src/sim-client/sim-client';
import { type AppStore, applyFrame, createAppStore, SPEED_MAX_NS_PER_S } from '../../src/state/app-store';
import { SimService } from '../../workers/sim-service';

const SCENARIO = { version: 2, seed: 5 };
const open: Array<() => void> = [];
afterEach(() => {
  for (const c of open.splice(0)) c();
});

interface Harness {
  store: AppStore;
  lab: LabController;
  client: SimClient;
  frame(ms: number): Promise<void>;
  /** Advance requests the service received, frames the page applied, and the most received before the previous was applied. */
  stats: { received: number; applied: number; maxOut: number };
}

async function openLab(
  log: Parameters<LabController['loadShared']>[0]['log'] = [],
  toNs = 0,
): Promise<Harness> {
  const stats = { received: 0, applied: 0, maxOut: 0 };
  const store = createAppStore({ presetId: 'x', doc: SCENARIO });
  const client = new SimClient({
    spawn: () => {
      const { port1, port2 } = new MessageChannel();
      const service = new SimService({});
      const advance = service.advance.bind(service);
      service.advance = (req: AdvanceRequest) => {
        stats.received++;
        stats.maxOut = Math.max(stats.maxOut, stats.received - stats.applied);
        return advance(req);
      };
      Comlink.expose(service, port1 as unknown as Comlink.Endpoint);
      const close = () => {
        port1.close();
        port2.close();
      };
      open.push(close);
      return {
        api: Comlink.wrap<SimApi>(port2 as unknown as Comlink.Endpoint),
        terminate: close,
        onError: () => {},
      };
    },
    transfer: Comlink.transfer,
    onFrame: (f) => {
      stats.applied++;
      applyFrame(store, f);
    },
  });
  let next: ((t: number) => unknown) | null = null;
  const lab = createLabController(store, client, (cb) => {
    next = cb;
  });
  open.push(() => lab.dispose());
  await lab.loadShared({ presetId: 'x', doc: SCENARIO, log, toNs, title: 't' });
  return { store, lab, client, stats, frame: async (ms) => void (await next!(ms)) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (store: AppStore) =>
  store
    .getState()
    .terminal.chunks.map((c) => `${c.atNs} ${c.stream} ${c.text}`)
    .join('');

describe('frame pump at the top speed', () => {
  it('keeps one request queued ahead at the worker, applies frames in order, and logs a line typed meanwhile where the worker took it', async () => {
    const a = await openLab();
    a.lab.setSpeed(SPEED_MAX_NS_PER_S);
    expect(await a.lab.submit('iperf3 -c server -t 60 -l 9000 -P 2')).toBe(true);
    const received0 = a.stats.received;
    const times: number[] = [];
    const unsub = a.store.subscribe((s, p) => {
      if (s.playback.nowNs !== p.playback.nowNs) times.push(s.playback.nowNs);
    });
    let wall = 0;
    let interrupted = false;
    let started = false;
    // animation frames every 16 ms of wall time, whether or not a request is out
    for (let i = 0; i < 4000; i++) {
      const st = a.store.getState();
      if (st.terminal.foreground) started = true;
      else if (started) break;
      void a.frame((wall += 16));
      if (!interrupted && st.playback.nowNs > 20e9 && a.client.inFlight) {
        interrupted = true;
        // Ctrl-C while requests are out: it waits for them and is logged at the worker's instant
        void a.lab.interrupt();
      }
      await sleep(1);
    }
    unsub();
    await sleep(50);
    expect(started && interrupted).toBe(true);
    expect(a.stats.received - received0).toBeGreaterThan(3);
    // a second request reached the worker before the page had taken the answer to the first
    expect(a.stats.maxOut).toBe(2);
    // frames applied in order: the clock never went back
    expect(times.length).toBeGreaterThan(3);
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    const played = text(a.store);
    expect(played).toContain('^C');
    const log = [...a.client.commandLog];
    expect(log.map((e) => e.kind)).toEqual(['line', 'interrupt']);

    // the run paused where the command ended (the end of the 1 ms slice in which it printed its
    // last), not at a frame's far instant: the request sent ahead did nothing past it
    const endNs = a.store.getState().playback.nowNs;
    expect(a.store.getState().playback.playing).toBe(false);
    const lastNs = a.store.getState().terminal.chunks.at(-1)!.atNs;
    expect(endNs).toBeGreaterThanOrEqual(lastNs);
    expect(endNs - lastNs).toBeLessThanOrEqual(1_000_000);
    // the session shared and replayed to the same instant prints the same, at the same instants
    const b = await openLab(log, endNs);
    expect(b.store.getState().playback.nowNs).toBe(endNs);
    expect(text(b.store)).toBe(played);
  }, 120_000);

  it('sends ahead past queries that only read the lab (two advances out at most), never past a command', async () => {
    const a = await openLab();
    expect(await a.lab.submit('iperf3 -c server -t 60 -l 9000 -P 2')).toBe(true);
    const c = a.client;
    const served: string[] = [];
    const near = { fromNs: 0, toNs: 1e9, stepNs: 1e6 };
    // A, the pump's advance, in flight; a chart's query queued behind it
    const first = c.advance(30e9, 100_000);
    expect(c.canAdvanceAhead).toBe(true);
    const chart = c.chartSeries(near).then(() => served.push('chart'));
    // a query does not hold the next advance back: B goes to the worker now, ahead of the query
    expect(c.canAdvanceAhead).toBe(true);
    const second = c.advanceAhead(60e9, 100_000).then((f) => served.push(`B ${f?.nowNs}`));
    // two of the pump's advances out: no third
    expect(c.canAdvanceAhead).toBe(false);
    expect(await c.advanceAhead(90e9, 100_000)).toBeNull();
    await first;
    // A answered, the query in flight, B still out: one more may go
    expect(c.canAdvanceAhead).toBe(true);
    const third = c.advanceAhead(90e9, 100_000).then((f) => served.push(`C ${f?.nowNs}`));
    expect(c.canAdvanceAhead).toBe(false);
    await Promise.all([chart, second, third]);
    // frames are taken in the order sent, the query between them where it was asked
    expect(served.map((x) => x.split(' ')[0])).toEqual(['chart', 'B', 'C']);
    const [, b, cc] = served.map((x) => Number(x.split(' ')[1]));
    expect(cc!).toBeGreaterThan(b!);

    // a command queued behind the advance in flight: nothing goes ahead of it (it is logged where
    // the worker takes it)
    const fourth = c.advance(c.simTimeNs + 30e9, 100_000);
    const typed = c.interrupt();
    expect(c.canAdvanceAhead).toBe(false);
    expect(await c.advanceAhead(c.simTimeNs + 60e9, 100_000)).toBeNull();
    await Promise.all([fourth, typed]);
  }, 60_000);

  it('a run to an instant (a seek forward, "run until a time") keeps the next request queued ahead too, and lands on the instant', async () => {
    const a = await openLab();
    expect(await a.lab.submit('iperf3 -c server -t 60 -l 9000 -P 2')).toBe(true);
    a.lab.pause();
    const received0 = a.stats.received;
    a.stats.maxOut = 0;
    await a.lab.seek(20e9);
    expect(a.store.getState().playback.nowNs).toBe(20e9);
    expect(a.stats.received - received0).toBeGreaterThan(3);
    // the worker had the next request before the page applied the answer to the one before
    expect(a.stats.maxOut).toBe(2);
    // the session shared and opened at that instant prints the same
    const b = await openLab([...a.client.commandLog], 20e9);
    expect(text(b.store)).toBe(text(a.store));
  }, 60_000);

  it('a run until a condition keeps the next request queued ahead, and stops where the condition came true, not past it', async () => {
    const cmd = 'iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1';
    // where the first drop comes, asked of a service directly in one request
    const direct = new SimService({});
    direct.load(SCENARIO);
    direct.submit(cmd);
    const want = direct.advance({ toNs: 5e9, maxEvents: 1e8, until: { kind: 'first-drop' } });
    expect(want.stoppedBy).toBe('first-drop');

    const a = await openLab();
    expect(await a.lab.submit(cmd)).toBe(true);
    a.lab.pause();
    const received0 = a.stats.received;
    a.stats.maxOut = 0;
    await a.lab.runUntil({ kind: 'first-drop' });
    expect(a.store.getState().playback.nowNs).toBe(want.nowNs);
    expect(a.stats.received - received0).toBeGreaterThan(1);
    expect(a.stats.maxOut).toBe(2);
  }, 60_000);
});
