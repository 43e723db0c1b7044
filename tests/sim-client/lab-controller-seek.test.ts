/**
 * The lab controller over a real worker service (a MessageChannel, as the protocol test): going
 * forward on the timeline gives the charts and the terminal what playing through gives. The pump
 * is driven by hand (a fake requestAnimationFrame with a chosen wall clock).
 */
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSAGE_DROPPED } from '../../src/engine/view/path-types';
import type { SimApi } from '../../src/protocol/sim-api';
import {
  createLabController,
  type LabController,
  type LabControllerTuning,
} from '../../src/sim-client/lab-controller';
import { SimClient, type WorkerHandle } from '../../src/sim-client/sim-client';
import { type AppStore, applyFrame, createAppStore } from '../../src/state/app-store';
import { SimService, type SimServiceOptions } from '../../workers/sim-service';

const SCENARIO = { version: 2, seed: 3 };
const open: Array<() => void> = [];
afterEach(() => {
  for (const c of open.splice(0)) c();
});

function spawnInProcess(opts: SimServiceOptions = {}): WorkerHandle {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(new SimService(opts), port1 as unknown as Comlink.Endpoint);
  const api = Comlink.wrap<SimApi>(port2 as unknown as Comlink.Endpoint);
  const close = () => {
    port1.close();
    port2.close();
  };
  open.push(close);
  return { api, terminate: close, onError: () => {} };
}

interface Lab {
  store: AppStore;
  lab: LabController;
  client: SimClient;
  /** Run one animation frame of the pump at wall time `ms`. */
  frame(ms: number): Promise<void>;
}

async function openLab(service: SimServiceOptions = {}, tuning: LabControllerTuning = {}): Promise<Lab> {
  const store = createAppStore({ presetId: 'x', doc: SCENARIO });
  const client = new SimClient({
    spawn: () => spawnInProcess(service),
    transfer: Comlink.transfer,
    onFrame: (f) => applyFrame(store, f),
  });
  let next: ((t: number) => unknown) | null = null;
  const lab = createLabController(
    store,
    client,
    (cb) => {
      next = cb;
    },
    tuning,
  );
  open.push(() => lab.dispose());
  await lab.loadShared({ presetId: 'x', doc: SCENARIO, log: [], toNs: 0, title: 't' });
  return {
    store,
    lab,
    client,
    frame: async (ms) => {
      const cb = next!;
      await cb(ms);
    },
  };
}

/** What a person sees: the counter samples on the 1 ms grid, the terminal's text, the runs' -J documents. */
function seen(store: AppStore, toNs: number) {
  const s = store.series;
  const rows: number[][] = [];
  for (let i = 0; i < s.length; i++) {
    const t = s.times[i]!;
    if (t >= toNs || t % 1_000_000 !== 0) continue;
    rows.push([t, ...Array.from(s.data.subarray(i * s.cols, (i + 1) * s.cols))]);
  }
  const st = store.getState();
  return {
    rows,
    text: st.terminal.chunks.map((c) => `${c.atNs} ${c.stream} ${c.text}`).join(''),
    runs: st.results.runs.map((r) => ({ command: r.command, endNs: r.endNs, json: r.iperf3Json })),
  };
}

describe('lab controller: forward on the timeline', () => {
  it('a seek forward over a stretch played before (after a seek back) fills the charts and keeps the output and -J records of the runs that ended in it', async () => {
    const END = 1_600_000_000;
    // played through: iperf3 for 1 s, the clock run by the pump at 1 s/s in 100 ms frames
    const a = await openLab();
    a.lab.setSpeed(1e9);
    expect(await a.lab.submit('iperf3 -c server -t 1')).toBe(true);
    // played by the user (a command's autoplay would pause when it ends)
    a.lab.play();
    let wall = 0;
    await a.frame(wall);
    for (let i = 0; i < 200 && a.store.getState().playback.nowNs < END; i++) await a.frame((wall += 100));
    const played = seen(a.store, END);

    // the same, reached by seeks: to the end, back to 0.1 s, and forward again past where the run ended
    const b = await openLab();
    expect(await b.lab.submit('iperf3 -c server -t 1')).toBe(true);
    b.lab.pause();
    await b.lab.seek(END);
    await b.lab.seek(100_000_000);
    expect(b.store.getState().playback.nowNs).toBe(100_000_000);
    expect(b.store.getState().results.runs).toHaveLength(0);
    await b.lab.seek(END);
    expect(b.store.getState().playback.nowNs).toBe(END);
    const sought = seen(b.store, END);

    // the run ended inside the stretch: its summary printed once, its -J document kept
    expect(played.runs).toHaveLength(1);
    expect(played.runs[0]!.json).toContain('"sum_received"');
    expect(sought.runs).toEqual(played.runs);
    expect(sought.text).toBe(played.text);
    expect(sought.text.match(/iperf Done\./g)).toHaveLength(1);
    // every millisecond while the command ran is in the charts' samples (the session samples on
    // its 1 ms grid while commands run), equal to the played-through ones
    const ms = sought.rows.map((r) => r[0]! / 1e6);
    expect(ms.slice(0, 1001)).toEqual(Array.from({ length: 1001 }, (_, i) => i));
    expect(sought.rows).toEqual(played.rows);
    // and the engine-side series (latency, drops) agree
    const q = { fromNs: 0, toNs: 1_500_000_000, stepNs: 10_000_000 };
    const [ea, eb] = [await a.lab.chartSeries(q), await b.lab.chartSeries(q)];
    expect(eb!.latency.map((l) => Array.from(l.p99))).toEqual(ea!.latency.map((l) => Array.from(l.p99)));
    expect(eb!.latency.map((l) => Array.from(l.packets))).toEqual(
      ea!.latency.map((l) => Array.from(l.packets)),
    );
  }, 60_000);

  it('a seek back that replays shows its progress; Cancel puts the lab back where it was, charts and terminal untouched; let run, it lands on the instant', async () => {
    // no checkpoints and small requests: the replay from 0 takes several requests
    const b = await openLab({ playBuildRatio: 0 }, { seekBudget: 5_000 });
    expect(await b.lab.submit('iperf3 -c server -t 1')).toBe(true);
    await b.lab.seek(1.6e9);
    const before = seen(b.store, 2e9);
    const rows = b.store.series.length;
    const chunks = b.store.getState().terminal.chunks;
    const progress: Array<{ fromNs: number; toNs: number; atNs?: number; origin?: number }> = [];
    let cancel = true;
    const unsubscribe = b.store.subscribe((st) => {
      const r = st.playback.runTo;
      if (!r?.back) return;
      progress.push({ fromNs: r.fromNs, toNs: r.toNs, atNs: r.atNs, origin: r.back.originNs });
      // Cancel once the replay has moved
      if (cancel && (r.atNs ?? 0) > 0.2e9) b.lab.cancelRun();
    });
    await b.lab.seek(0.9e9);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[0]).toMatchObject({ fromNs: 0, toNs: 0.9e9, origin: 1.6e9 });
    const st = b.store.getState();
    expect(st.playback.runTo).toBeNull();
    expect(st.playback.seeking).toBe(false);
    expect(st.playback.nowNs).toBe(1.6e9);
    expect(st.env.announcement).toBe(
      'Cancelled going back to 0.900000 s: the lab is at 1.600000 s, where it was',
    );
    expect(seen(b.store, 2e9)).toEqual(before);
    expect(b.store.series.length).toBe(rows);
    // the lab plays on from where it was: nothing was lost
    await b.lab.seek(1.7e9);
    expect(b.store.getState().playback.nowNs).toBe(1.7e9);

    // let run: it lands on the instant, the view cut there (the partial replay is a checkpoint now)
    cancel = false;
    progress.length = 0;
    await b.lab.seek(0.9e9);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[0]!.fromNs).toBeGreaterThan(0.2e9);
    const ats = progress.map((p) => p.atNs!);
    expect([...ats].sort((x, y) => x - y)).toEqual(ats);
    unsubscribe();
    expect(b.store.getState().playback.nowNs).toBe(0.9e9);
    const after = seen(b.store, 2e9);
    expect(after.rows).toEqual(before.rows.filter((r) => r[0]! <= 0.9e9));
    expect(b.store.getState().terminal.chunks).toEqual(chunks.filter((c) => c.atNs <= 0.9e9));
    expect(after.text).toContain('iperf3 -c server -t 1');
    expect(after.runs).toEqual([]);
  }, 60_000);
});

describe('lab controller: the frame that shows where a seek landed', () => {
  it('is applied even when another request is in flight as the seek lands: back inside a run, the terminal holds the running job, not a prompt', async () => {
    const b = await openLab();
    expect(await b.lab.submit('iperf3 -c server -t 1')).toBe(true);
    await b.lab.seek(1.6e9);
    expect(b.store.getState().terminal.foreground).toBeNull();
    // a request goes out (here the path layout; in the page an inspector, the layout, the pump's
    // next frame) in the instant the worker answered the seek, before the controller shows it
    const seek = b.client.seek.bind(b.client);
    let sent = 0;
    b.client.seek = async (...args: Parameters<SimClient['seek']>) => {
      const r = await seek(...args);
      sent++;
      void b.client.pathLayout();
      return r;
    };
    await b.lab.seek(0.5e9);
    expect(sent).toBeGreaterThan(0);
    const st = b.store.getState();
    expect(st.playback.nowNs).toBe(0.5e9);
    expect(st.terminal.foreground?.command).toBe('iperf3 -c server -t 1');
  }, 60_000);
});

describe('lab controller: run until', () => {
  it('runs as fast as the model goes whatever the play speed (no animation frame needed), stops at the first drop and then draws the packets there: the batches of the window, the dropped ones among them, at the same instant', async () => {
    const a = await openLab();
    // the slowest speed: playing would take hours to reach the drop; "run until" does not play
    a.lab.setSpeed(1e3);
    expect(await a.lab.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1')).toBe(true);
    // where the run stopped, before the redraw replays the picture's window
    let atStop: { nowNs: number; counters: string; detail: boolean; progress: boolean } | null = null;
    let progressSeen = false;
    const unsub = a.store.subscribe((s, p) => {
      if (s.playback.runTo?.until === 'the first drop') progressSeen = true;
      if (p.playback.runUntil && !s.playback.runUntil && !atStop)
        atStop = {
          nowNs: s.playback.nowNs,
          counters: JSON.stringify(s.results.counters),
          detail: a.store.pathFrame!.detail,
          progress: progressSeen,
        };
    });
    await a.lab.runUntil({ kind: 'first-drop' });
    unsub();
    expect(atStop).not.toBeNull();
    const stop = atStop!;
    // the run there went without detail (counts only), with the progress shown meanwhile
    expect(stop.detail).toBe(false);
    expect(stop.progress).toBe(true);
    expect(stop.nowNs).toBeGreaterThan(0);
    expect(stop.nowNs).toBeLessThan(1.1e9);
    const st = a.store.getState();
    expect(st.playback.playing).toBe(false);
    expect(st.playback.runTo).toBeNull();
    // the replay lands on the same state, byte for byte (deterministic)
    expect(st.playback.nowNs).toBe(stop.nowNs);
    expect(JSON.stringify(st.results.counters)).toBe(stop.counters);
    const f = a.store.pathFrame!;
    expect(f.n).toBeGreaterThan(0);
    // the packets dropped at the stop are among the batches drawn, with their reason
    const layout = st.pathLayout!;
    const dropped = Array.from({ length: f.n }, (_, i) => i).filter((i) => f.fate[i] === PASSAGE_DROPPED);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.map((i) => layout.dropReasons[f.reason[i]!])).toContain('bw_out_allowance_exceeded');
    expect(st.env.announcement).toBe(
      `Paused: first drop at ${(stop.nowNs / 1e9).toFixed(6)} s; the picture shows the packets there`,
    );
  }, 60_000);

  it('"run until a time" chosen while a typed command plays runs to that time as fast as the model goes (not at the play speed), past the end of the command', async () => {
    const a = await openLab();
    a.lab.setSpeed(1e3);
    // typed: plays by itself, and would pause when the command ends (~1 s)
    expect(await a.lab.submit('iperf3 -c server -t 1')).toBe(true);
    expect(a.store.getState().playback.playing).toBe(true);
    // then Go, run until 1.5 s: what the user asked for wins, without a single animation frame
    await a.lab.runUntil({ kind: 'time', atNs: 1.5e9 });
    const st = a.store.getState();
    expect(st.playback.playing).toBe(false);
    expect(st.playback.nowNs).toBe(1.5e9);
    expect(st.env.announcement).toBe('Moved to 1.500000 s');
    expect(st.terminal.chunks.map((c) => c.text).join('')).toContain('iperf Done.');
  }, 60_000);

  it('stops, saying so, when nothing runs any more and the condition did not come true', async () => {
    const a = await openLab();
    a.lab.setSpeed(1e3);
    expect(await a.lab.submit('ping -c 2 server')).toBe(true);
    await a.lab.runUntil({ kind: 'first-drop' });
    const st = a.store.getState();
    expect(st.playback.runTo).toBeNull();
    expect(st.playback.nowNs).toBeGreaterThan(1e9);
    expect(st.env.announcement).toMatch(
      /^Stopped at 1\.\d{6} s: nothing is running any more and the first drop did not happen$/,
    );
    expect(st.terminal.chunks.map((c) => c.text).join('')).toContain('2 packets transmitted');
  }, 60_000);
});

describe('lab controller: auto speed', () => {
  it('is the default: packets at the speed the path view stays readable at (a batch crosses the fabric in half a second), the idle second between two pings jumped in one frame', async () => {
    const a = await openLab();
    expect(a.store.getState().playback.speedMode).toBe('auto');
    const layout = a.store.getState().pathLayout!;
    // cluster placement: 12 µs one way → 24 µs of simulated time per wall second
    const readable = layout.fabricOneWayNs / 0.5;
    expect(readable).toBe(24_000);
    expect(await a.lab.submit('ping -c 2 server')).toBe(true);
    const trace: Array<{ fromNs: number; toNs: number; phase: string; speed: number }> = [];
    let wall = 0;
    for (let i = 0; i < 400 && (i === 0 || a.store.getState().terminal.foreground); i++) {
      const fromNs = a.store.getState().playback.nowNs;
      await a.frame((wall += 50));
      const p = a.store.getState().playback;
      trace.push({ fromNs, toNs: p.nowNs, phase: p.autoPhase, speed: p.speedNsPerS });
    }
    const text = a.store
      .getState()
      .terminal.chunks.map((c) => c.text)
      .join('');
    expect(text).toContain('2 packets transmitted, 2 received');
    const packets = trace.filter((t) => t.phase === 'packets');
    // each echo and its reply (about 52 µs) took many frames, none more than 50 ms × 24 µs/s
    expect(packets.length).toBeGreaterThan(2 * 20);
    for (const t of packets) {
      expect(t.speed).toBe(readable);
      expect(t.toNs - t.fromNs).toBeLessThanOrEqual(readable * 0.05 + 1);
    }
    // the second between the echoes: one jump, straight to the instant the next request leaves
    const jumps = trace.filter((t) => t.phase === 'skip' && t.toNs - t.fromNs > 0.9e9);
    expect(jumps).toHaveLength(1);
    expect(trace.length).toBeLessThan(200);
    // and no jump past the end: the clock stops within the millisecond the reply was printed in
    expect(a.store.getState().playback.nowNs).toBeLessThan(1.002e9);
  }, 60_000);
});

describe('lab controller: run until, armed', () => {
  it('asked while nothing runs, waits for the next command typed, then runs as fast as the model goes to the condition', async () => {
    const a = await openLab();
    a.lab.setSpeed(1e3);
    await a.lab.runUntil({ kind: 'first-drop' });
    let st = a.store.getState();
    expect(st.playback.runUntil).toEqual({ kind: 'first-drop' });
    expect(st.playback.nowNs).toBe(0);
    expect(st.env.announcement).toBe(
      'Run until the first drop: it starts, as fast as the model goes, with the next command you type',
    );
    expect(await a.lab.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1')).toBe(true);
    for (let i = 0; i < 2000 && !/picture shows/.test(a.store.getState().env.announcement); i++)
      await new Promise((r) => setTimeout(r, 10));
    st = a.store.getState();
    expect(st.env.announcement).toMatch(
      /^Paused: first drop at 0\.\d{6} s; the picture shows the packets there$/,
    );
    expect(st.playback.runUntil).toBeNull();
    expect(st.playback.playing).toBe(false);
  }, 60_000);
});

describe('lab controller: auto speed follows the action', () => {
  it('holds the readable speed while a steady run is new, then speeds up to real time, so a 2-s iperf3 ends in seconds of wall time, not days', async () => {
    const a = await openLab();
    const readable = a.store.getState().pathLayout!.fabricOneWayNs / 0.5;
    expect(await a.lab.submit('iperf3 -c server -t 2')).toBe(true);
    const speeds: Array<{ wallS: number; speed: number; phase: string }> = [];
    let wall = 0;
    for (let i = 0; i < 2000 && (i === 0 || a.store.getState().terminal.foreground); i++) {
      await a.frame((wall += 50));
      const p = a.store.getState().playback;
      speeds.push({ wallS: wall / 1000, speed: p.speedNsPerS, phase: p.autoPhase });
    }
    expect(
      a.store
        .getState()
        .terminal.chunks.map((c) => c.text)
        .join(''),
    ).toContain('iperf Done.');
    // the first wall seconds with packets: the readable speed, so the handshake and the first
    // batches can be followed by eye
    const early = speeds.filter((s) => s.phase === 'packets' && s.wallS <= 2);
    expect(early.length).toBeGreaterThan(10);
    for (const s of early) expect(s.speed).toBe(readable);
    // then faster, never above real time, and the run is over in well under a minute of wall time
    // (at 24 µs/s it would take 83,000 s)
    const top = Math.max(...speeds.map((s) => (s.phase === 'packets' ? s.speed : 0)));
    expect(top).toBe(1e9);
    expect(wall / 1000).toBeLessThan(30);
  }, 120_000);
  it('drops that recur (a UDP flood against the bandwidth allowance) do not hold it back: only the first drops after 3 wall seconds without are new', async () => {
    const a = await openLab();
    expect(await a.lab.submit('iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1')).toBe(true);
    let wall = 0;
    let sawDrops = 0;
    let top = 0;
    for (let i = 0; i < 2000 && (i === 0 || a.store.getState().terminal.foreground); i++) {
      await a.frame((wall += 50));
      if ((a.store.pathFrame?.drops ?? 0) > 0) sawDrops++;
      top = Math.max(top, a.store.getState().playback.speedNsPerS);
    }
    expect(sawDrops).toBeGreaterThan(10);
    expect(top).toBe(1e9);
    expect(wall / 1000).toBeLessThan(30);
  }, 120_000);
});

describe('lab controller: Step', () => {
  it('is not dropped when a query is out as it is clicked (a chart refresh, an inspector): it waits its turn and steps', async () => {
    const b = await openLab();
    expect(await b.lab.submit('iperf3 -c server -t 1')).toBe(true);
    await b.lab.seek(0.5e9);
    b.lab.setStep({ kind: 'packet', stage: 'rx_ring', host: 'server' });
    // a chart's refresh goes out first (its timer fired), then the click
    const query = b.lab.chartSeries({ fromNs: 0, toNs: 0.5e9, stepNs: 1e6 });
    expect(b.client.inFlight).toBe(true);
    await b.lab.step();
    await query;
    const st = b.store.getState();
    expect(st.playback.nowNs).toBeGreaterThan(0.5e9);
    expect(st.playback.nowNs).toBeLessThan(0.51e9);
    expect(st.env.announcement).toMatch(/entered RX ring( queue \d+)? on server/);
  }, 60_000);
});
