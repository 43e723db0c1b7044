/**
 * The worker contract over a real MessageChannel with comlink (as in the browser, minus the
 * Worker): load, advance with transferred and recycled frames, submit, Ctrl-C, rewind, and a
 * client that replaces a worker that hangs or dies, replaying the log so nothing is lost.
 */
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame, SimApi, TerminalChunk } from '../../src/protocol/sim-api';
import { PROTOCOL_VERSION, SAMPLE_COLUMNS_PER_INSTANCE } from '../../src/protocol/sim-api';
import { SimClient, type SimApiLike, type WorkerHandle } from '../../src/sim-client/sim-client';
import { SimService } from '../../workers/sim-service';

const SCENARIO = { version: 2, seed: 3 };
const open: Array<() => void> = [];
afterEach(() => {
  for (const c of open.splice(0)) c();
});

/** A "worker" in this process: the service exposed on one port, the client's Remote on the other. */
function spawnInProcess(): WorkerHandle & { service: SimService } {
  const { port1, port2 } = new MessageChannel();
  const service = new SimService();
  Comlink.expose(service, port1 as unknown as Comlink.Endpoint);
  const api = Comlink.wrap<SimApi>(port2 as unknown as Comlink.Endpoint);
  const close = () => {
    port1.close();
    port2.close();
  };
  open.push(close);
  return { api, service, terminate: close, onError: () => {} };
}

const textOf = (chunks: TerminalChunk[]) => chunks.map((c) => c.text).join('');

describe('sim protocol over a MessageChannel', () => {
  it('loads, advances with transferred frames, runs a command and streams its output', async () => {
    const frames: Frame[] = [];
    const out: TerminalChunk[] = [];
    const cols = 2 * SAMPLE_COLUMNS_PER_INSTANCE.length;
    // a frame's buffers go back to the worker with the next request: read them here
    const samples: Array<{ n: number; tx0: number; txN: number; dt: number }> = [];
    const client = new SimClient({
      spawn: spawnInProcess,
      transfer: Comlink.transfer,
      onFrame: (f) => {
        frames.push(f);
        out.push(...f.terminal);
        const b = f.buffers;
        samples.push({
          n: f.sampleCount,
          tx0: b.samples[0]!,
          txN: b.samples[(f.sampleCount - 1) * cols]!,
          dt: b.sampleTimes[1]! - b.sampleTimes[0]!,
        });
      },
    });
    const r = await client.load(SCENARIO);
    expect(r.ok && r.instances.map((i) => i.name)).toEqual(['client', 'server']);
    expect(r.ok && r.sampleColumns[0]).toBe('client.tx_bytes');
    expect(await client.submit('iperf3 -c server -t 1')).toBe(true);
    let t = 0;
    while (!out.some((c) => c.text.includes('iperf Done.'))) {
      t += 100e6;
      const f = await client.advance(t, 5_000_000);
      expect(f?.protocolVersion).toBe(PROTOCOL_VERSION);
      expect(t).toBeLessThan(5e9);
    }
    const text = textOf(out);
    expect(text).toMatch(/^iperf3 -c server -t 1\nConnecting to host server, port 5201\n/);
    expect(text).toMatch(/0\.00-1\.00 +sec .* receiver\n\niperf Done\.\n$/);
    // samples: 1 ms truth resolution while the command ran, counters that grow
    const f = samples.find((x) => x.n > 50)!;
    expect(f).toBeDefined();
    expect(f.txN).toBeGreaterThan(f.tx0);
    expect(f.dt).toBeLessThanOrEqual(1e6);
    // counters: ethtool -S of both instances
    expect(frames.at(-1)!.counters.map((c) => c.host)).toEqual(['client', 'server']);
    expect(frames.at(-1)!.counters[0]!.names).toContain('bw_out_allowance_exceeded');
    client.dispose();
  });

  it('hands frame buffers back to the worker, which writes the next frame into them', async () => {
    const reused: boolean[] = [];
    const spawn = () => {
      const h = spawnInProcess();
      const advance = h.service.advance.bind(h.service);
      h.service.advance = (req) => {
        reused.push(req.reuse !== undefined && req.reuse.sampleTimes.byteLength > 0);
        return advance(req);
      };
      return h;
    };
    const lengths: number[] = [];
    const client = new SimClient({
      spawn,
      transfer: Comlink.transfer,
      onFrame: (f) => lengths.push(f.buffers.sampleTimes.length),
    });
    await client.load(SCENARIO);
    for (let i = 1; i <= 5; i++) await client.advance(i * 10e6, 100_000);
    expect(reused).toEqual([false, true, true, true, true]);
    expect(new Set(lengths).size).toBe(1);
    client.dispose();
  });

  it("carries each run's iperf3 -J document and the latency and drop series (typed arrays) over the channel", async () => {
    const frames: Frame[] = [];
    const client = new SimClient({
      spawn: spawnInProcess,
      transfer: Comlink.transfer,
      onFrame: (f) => frames.push(f),
    });
    const r = await client.load(SCENARIO);
    expect(r.ok && r.instances[0]!.ppsAllowance).toBeGreaterThan(0);
    expect(await client.submit('iperf3 -c server -t 1')).toBe(true);
    for (let t = 100e6; !frames.some((f) => f.runs.length > 0); t += 100e6) {
      await client.advance(t, 5_000_000);
      expect(t).toBeLessThan(5e9);
    }
    const run = frames.flatMap((f) => f.runs)[0]!;
    expect(run.command).toBe('iperf3 -c server -t 1');
    const doc = run.result as {
      start: unknown;
      intervals: unknown[];
      end: { sum_received: { bytes: number } };
    };
    expect(doc.start).toBeDefined();
    expect(doc.intervals.length).toBeGreaterThan(0);
    expect(doc.end.sum_received.bytes).toBeGreaterThan(0);
    // and its text as iperf3 -J prints it (cJSON: tab-indented), the same document
    expect(run.iperf3Json).toMatch(/^\{\n\t"start":\t\{/);
    // (cJSON prints %1.15g when that reads back within one DBL_EPSILON relative, as iperf3 does: a
    // number may come back one ulp away, e.g. 11.253616425000002 prints as 11.253616425)
    expect(withinCjson(JSON.parse(run.iperf3Json!), doc)).toBe(true);
    const s = await client.chartSeries({ fromNs: 0, toNs: 600e6, stepNs: 10e6 });
    expect(s.stepNs).toBe(10e6);
    expect(s.steps).toBe(60);
    const server = s.latency.find((l) => l.host === 'server')!;
    expect(server.p50).toBeInstanceOf(Float64Array);
    expect(server.p50.length).toBe(60);
    // packets flowed from about 0.1 s: most 10 ms steps have percentiles, ordered p50 ≤ p99 ≤ p99.9
    let steps = 0;
    for (let k = 0; k < s.steps; k++) {
      if (!(server.packets[k]! > 0)) continue;
      steps++;
      expect(server.p50[k]!).toBeLessThanOrEqual(server.p99[k]!);
      expect(server.p99[k]!).toBeLessThanOrEqual(server.p999[k]!);
    }
    expect(steps).toBeGreaterThan(40);
    client.dispose();
  });

  it('keeps one request in flight: a second advance while one runs sends nothing', async () => {
    const client = new SimClient({ spawn: spawnInProcess, transfer: Comlink.transfer });
    await client.load(SCENARIO);
    const a = client.advance(50e6, 1_000_000);
    const b = await client.advance(100e6, 1_000_000);
    expect(b).toBeNull();
    expect((await a)?.nowNs).toBe(50e6);
    client.dispose();
  });

  it('Ctrl-C and seek back: the log is kept past the instant until a command typed there forks it', async () => {
    const out: TerminalChunk[] = [];
    const client = new SimClient({ spawn: spawnInProcess, onFrame: (f) => out.push(...f.terminal) });
    await client.load(SCENARIO);
    await client.advance(10e6, 1e7);
    await client.submit('iperf3 -c server -t 0');
    await client.advance(1.5e9, 1e8);
    expect(await client.interrupt()).toBe(true);
    await client.advance(1.6e9, 1e7);
    await client.submit('ethtool -S eth0');
    await client.advance(1.7e9, 1e7);
    expect(client.commandLog.map((e) => e.kind)).toEqual(['line', 'interrupt', 'line']);
    const r = await client.seek(1.55e9);
    expect(r.ok && r.nowNs).toBe(1.55e9);
    expect(r.ok && r.furthestNs).toBe(1.7e9);
    expect(client.furthestNs).toBe(1.7e9);
    expect(client.commandLog.map((e) => e.kind)).toEqual(['line', 'interrupt', 'line']);
    expect(textOf(out)).toContain('iperf3: interrupt - the client has terminated');
    // a command typed at 1.55 s forks the timeline: the ethtool line (1.6 s) is gone
    expect(await client.submit('hostname')).toBe(true);
    expect(client.commandLog.map((e) => (e.kind === 'line' ? e.line : '^C'))).toEqual([
      'iperf3 -c server -t 0',
      '^C',
      'hostname',
    ]);
    expect(client.furthestNs).toBe(1.55e9);
    client.dispose();
  });

  it('seek over the channel restores the earlier instant exactly: clock, transcript and counters', async () => {
    const frames: Frame[] = [];
    const client = new SimClient({ spawn: spawnInProcess, onFrame: (f) => frames.push(f) });
    await client.load(SCENARIO);
    await client.submit('iperf3 -c server -t 1');
    while (client.simTimeNs < 0.6e9) await client.advance(client.simTimeNs + 50e6, 1e7);
    const at = frames.at(-1)!;
    const textAt = frames
      .flatMap((f) => f.terminal)
      .map((c) => c.text)
      .join('');
    while (client.simTimeNs < 1.2e9) await client.advance(client.simTimeNs + 100e6, 1e7);
    const beforeSeek = frames.length;
    const r = await client.seek(at.nowNs);
    expect(r.ok && r.nowNs).toBe(at.nowNs);
    const f = (await client.advance(at.nowNs, 1))!;
    expect(f.nowNs).toBe(at.nowNs);
    expect(f.furthestNs).toBe(1.2e9);
    expect(f.counters.map((c) => Array.from(c.values))).toEqual(at.counters.map((c) => Array.from(c.values)));
    expect(r.ok && r.transcriptLength).toBe(
      frames.slice(0, frames.indexOf(at) + 1).flatMap((x) => x.terminal).length,
    );
    expect(textAt).toContain('Connecting to host');
    // playing on from there prints what the first run printed after that instant
    const again: string[] = [];
    while (client.simTimeNs < 1.2e9)
      again.push(...(await client.advance(client.simTimeNs + 100e6, 1e7))!.terminal.map((c) => c.text));
    const first = frames
      .slice(frames.indexOf(at) + 1, beforeSeek)
      .flatMap((x) => x.terminal)
      .map((c) => c.text);
    expect(first.join('')).toContain('iperf Done.');
    expect(again.join('')).toBe(first.join(''));
    client.dispose();
  });

  it('a seek in slices over the channel: progress while it replays, the client stays where it was until it is done; Cancel returns there', async () => {
    const client = new SimClient({ spawn: spawnInProcess });
    await client.load(SCENARIO);
    await client.submit('iperf3 -c server -t 1');
    while (client.simTimeNs < 1.2e9) await client.advance(client.simTimeNs + 100e6, 1e7);
    const log = client.commandLog;
    let r = await client.seek(0.8e9, 2_000);
    expect(r.ok && r.seeking?.toNs).toBe(0.8e9);
    expect(r.ok && r.nowNs).toBe(1.2e9);
    expect(client.simTimeNs).toBe(1.2e9);
    const at0 = r.ok ? r.seeking!.atNs : -1;
    r = await client.seekContinue(2_000);
    expect(r.ok && r.seeking!.atNs).toBeGreaterThan(at0);
    r = await client.seekCancel();
    expect(r.ok && r.seeking).toBeUndefined();
    expect(r.ok && r.nowNs).toBe(1.2e9);
    expect(client.simTimeNs).toBe(1.2e9);
    expect(client.commandLog).toEqual(log);
    // continued to the end: the client follows only then
    r = await client.seek(0.8e9, 2_000);
    while (r.ok && r.seeking) {
      expect(client.simTimeNs).toBe(1.2e9);
      r = await client.seekContinue(2_000);
    }
    expect(r.ok && r.nowNs).toBe(0.8e9);
    expect(client.simTimeNs).toBe(0.8e9);
    expect((await client.advance(0.8e9, 1))!.nowNs).toBe(0.8e9);
    client.dispose();
  });

  it('a single step over the channel: the next packet at a stage, reported with the packet', async () => {
    const client = new SimClient({ spawn: spawnInProcess });
    await client.load(SCENARIO);
    await client.submit('iperf3 -c server -t 1');
    await client.advance(2e6, 1e6);
    const f = (await client.advance(1e9, 1e6, undefined, { step: { kind: 'packet', stage: 'tx_ring' } }))!;
    expect(f.stepped).toMatchObject({
      kind: 'packet',
      found: true,
      packet: { stage: 'tx_ring', what: 'entered' },
    });
    const e = (await client.advance(Number.POSITIVE_INFINITY, 1, undefined, { step: { kind: 'event' } }))!;
    expect(e.events).toBe(1);
    expect(e.stepped?.kind).toBe('event');
    client.dispose();
  });

  it('replaces a worker that does not answer, replays the log, and loses no output', async () => {
    const restarts: string[] = [];
    const out: TerminalChunk[] = [];
    let spawned = 0;
    let hang = false;
    const spawn = (): WorkerHandle => {
      spawned++;
      const h = spawnInProcess();
      const real = h.api as unknown as SimApiLike;
      // a worker whose advance never answers once `hang` is set (a model stuck in a loop)
      const api = new Proxy(real, {
        get: (t, k: keyof SimApiLike) =>
          k === 'advance' && hang ? () => new Promise(() => {}) : (t[k] as unknown),
      });
      return { ...h, api };
    };
    const client = new SimClient({
      spawn,
      timeoutMs: 300,
      onRestart: (m) => restarts.push(m),
      onFrame: (f) => out.push(...f.terminal),
    });
    await client.load(SCENARIO);
    await client.submit('sleep 0.2');
    await client.advance(100e6, 1e7);
    hang = true;
    await expect(client.advance(300e6, 1e7)).rejects.toThrow(/no answer/);
    hang = false;
    expect(spawned).toBe(2);
    expect(restarts[0]).toMatch(/did not answer within 0.3 s; it was restarted and your 1 command replayed/);
    expect(client.simTimeNs).toBe(100e6);
    // the new worker carries on from the same instant; the sleep still ends at 0.2 s
    while (client.simTimeNs < 300e6) await client.advance(300e6, 1e7);
    await client.submit('hostname');
    await client.advance(310e6, 1e7);
    expect(textOf(out)).toBe('sleep 0.2\nhostname\nclient\n');
    client.dispose();
  });

  it('a worker replaced after a seek back keeps the timeline: same instant, same end, the later commands still recorded', async () => {
    let hang = false;
    const spawn = (): WorkerHandle => {
      const h = spawnInProcess();
      const real = h.api as unknown as SimApiLike;
      const api = new Proxy(real, {
        get: (t, k: keyof SimApiLike) =>
          k === 'advance' && hang ? () => new Promise(() => {}) : (t[k] as unknown),
      });
      return { ...h, api };
    };
    const out: TerminalChunk[] = [];
    const client = new SimClient({ spawn, timeoutMs: 300, onFrame: (f) => out.push(...f.terminal) });
    await client.load(SCENARIO);
    await client.submit('sleep 0.2');
    await client.advance(300e6, 1e7);
    await client.submit('hostname');
    await client.advance(500e6, 1e7);
    await client.seek(100e6);
    hang = true;
    await expect(client.advance(200e6, 1e7)).rejects.toThrow(/no answer/);
    hang = false;
    expect(client.simTimeNs).toBe(100e6);
    expect(client.furthestNs).toBe(500e6);
    const f = (await client.advance(100e6, 1))!;
    expect(f.furthestNs).toBe(500e6);
    // playing on replays the recorded 'hostname' at 0.3 s
    while (client.simTimeNs < 400e6) await client.advance(400e6, 1e7);
    expect(textOf(out)).toBe('sleep 0.2\nhostname\nclient\nhostname\nclient\n');
    client.dispose();
  });

  it('a worker that dies mid-request is replaced at once', async () => {
    const restarts: string[] = [];
    let fail: ((why: string) => void) | null = null;
    const spawn = (): WorkerHandle => {
      const h = spawnInProcess();
      return { ...h, onError: (cb) => (fail = cb) };
    };
    const client = new SimClient({ spawn, timeoutMs: 5_000, onRestart: (m) => restarts.push(m) });
    await client.load(SCENARIO);
    const p = client.advance(1e9, 1e9);
    fail!('Uncaught Error: boom');
    await expect(p).rejects.toThrow(/boom/);
    expect(restarts[0]).toMatch(/failed \(Uncaught Error: boom\); it was restarted/);
    client.dispose();
  });
});

/** Deep equality where numbers may differ as cJSON's %1.15g round trip allows (compare_double). */
function withinCjson(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return a === b || Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * Number.EPSILON;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => withinCjson(x, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return (
      ka.join('\0') === kb.join('\0') &&
      ka.every((k) => withinCjson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}
