/**
 * Recovery that tells: a worker replaced after a failure replays the session within a time limit;
 * if the new worker fails too (or its replay does not end), the client stops retrying, says what
 * failed and at which instant, and later requests get no answer or that message instead of
 * hanging (the lab's page stays usable and offers the scenario without its session).
 */
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimApi } from '../../src/protocol/sim-api';
import { SimClient, type SimApiLike, type WorkerHandle } from '../../src/sim-client/sim-client';
import { SimService } from '../../workers/sim-service';

const open: Array<() => void> = [];
afterEach(() => {
  for (const c of open.splice(0)) c();
});

/** An in-process worker whose api can be made to hang (`hang`) or fail (`fail(why)`). */
function spawner(mode: { hangLoad: boolean; crashLoad: boolean; hangAdvance: boolean }) {
  let spawned = 0;
  const spawn = (): WorkerHandle => {
    spawned++;
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(new SimService(), port1 as unknown as Comlink.Endpoint);
    const real = Comlink.wrap<SimApi>(port2 as unknown as Comlink.Endpoint) as unknown as SimApiLike;
    const close = () => {
      port1.close();
      port2.close();
    };
    open.push(close);
    let onErr: ((why: string) => void) | null = null;
    const first = spawned === 1;
    const api = new Proxy(real, {
      get: (t, k: keyof SimApiLike) => {
        if (k === 'advance' && mode.hangAdvance) return () => new Promise(() => {});
        if (k === 'load' && !first && mode.hangLoad) return () => new Promise(() => {});
        if (k === 'load' && !first && mode.crashLoad)
          return () => {
            setTimeout(() => onErr?.('out of memory'), 10);
            return new Promise(() => {});
          };
        return t[k] as unknown;
      },
    });
    return {
      api,
      terminate: close,
      onError: (cb) => {
        onErr = cb;
      },
    };
  };
  return { spawn, count: () => spawned };
}

describe('sim client recovery', () => {
  it('a new worker that crashes while replaying: one message with the instant, no third worker, requests refused', async () => {
    const mode = { hangLoad: false, crashLoad: true, hangAdvance: false };
    const sp = spawner(mode);
    const errors: string[] = [];
    const failed: { atNs: number }[] = [];
    const client = new SimClient({
      spawn: sp.spawn,
      timeoutMs: 300,
      replayTimeoutMs: 2_000,
      onError: (m) => errors.push(m),
      onFailed: (f) => failed.push(f),
    });
    await client.load({ version: 4 });
    await client.submit('sleep 1');
    await client.advance(250e6, 1e7);
    mode.hangAdvance = true;
    await expect(client.advance(400e6, 1e7)).rejects.toThrow();
    expect(sp.count()).toBe(2);
    expect(failed).toEqual([
      { atNs: 250e6, message: expect.stringMatching(/failed again \(out of memory\)/) },
    ]);
    expect(errors).toEqual([
      'the simulation worker did not answer within 0.3 s; restarted, it failed again (out of memory) while replaying your session, at t = 0.250000 s.',
    ]);
    mode.hangAdvance = false;
    // no third worker, no hang: a later request is answered at once with nothing (the page keeps working)
    expect(await client.advance(500e6, 1e7)).toBeNull();
    await expect(client.submit('hostname')).rejects.toThrow(/the simulation stopped: /);
    expect(sp.count()).toBe(2);
    client.dispose();
  });

  it('a replay that does not end is stopped after replayTimeoutMs, with the same message', async () => {
    const mode = { hangLoad: true, crashLoad: false, hangAdvance: false };
    const sp = spawner(mode);
    const errors: string[] = [];
    const client = new SimClient({
      spawn: sp.spawn,
      timeoutMs: 300,
      replayTimeoutMs: 500,
      onError: (m) => errors.push(m),
    });
    await client.load({ version: 4 });
    await client.advance(100e6, 1e7);
    mode.hangAdvance = true;
    const t0 = performance.now();
    await expect(client.advance(200e6, 1e7)).rejects.toThrow();
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(errors[0]).toMatch(
      /restarted, the replay did not end within 0.5 s while replaying your session, at t = 0\.100000 s\.$/,
    );
    expect(sp.count()).toBe(2);
    client.dispose();
  });
});
