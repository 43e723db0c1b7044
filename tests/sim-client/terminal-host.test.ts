/**
 * The terminal's host in a scenario without a 'client' (the router preset's sender, router, sink):
 * a line typed without a prefix runs on the scenario's first instance, as in the CLI. The store's
 * default host 'client' used to prefix it ("client: …"), which the shell refused ("bash: client::
 * command not found").
 */
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimApi } from '../../src/protocol/sim-api';
import { createLabController } from '../../src/sim-client/lab-controller';
import { SimClient } from '../../src/sim-client/sim-client';
import { applyFrame, createAppStore } from '../../src/state/app-store';
import { SimService } from '../../workers/sim-service';

const SCENARIO = {
  version: 5,
  instances: [
    { name: 'sender', type: 'c7i.large' },
    { name: 'sink', type: 'c7i.large' },
  ],
};
const open: Array<() => void> = [];
afterEach(() => {
  for (const c of open.splice(0)) c();
});

describe('the terminal host', () => {
  it('a line without a prefix runs on the first instance when the scenario has no client', async () => {
    const store = createAppStore({ presetId: 'x', doc: SCENARIO });
    const client = new SimClient({
      spawn: () => {
        const { port1, port2 } = new MessageChannel();
        Comlink.expose(new SimService({}), port1 as unknown as Comlink.Endpoint);
        const api = Comlink.wrap<SimApi>(port2 as unknown as Comlink.Endpoint);
        const close = () => {
          port1.close();
          port2.close();
        };
        open.push(close);
        return { api, terminate: close, onError: () => {} };
      },
      transfer: Comlink.transfer,
      onFrame: (f) => applyFrame(store, f),
    });
    const lab = createLabController(store, client, () => {}, {});
    open.push(() => lab.dispose());
    await lab.loadShared({ presetId: 'x', doc: SCENARIO, log: [], toNs: 0, title: 't' });
    expect(store.getState().terminal.host).toBe('client'); // the store's default: not an instance here
    const sent: string[] = [];
    const submit = client.submit.bind(client);
    client.submit = (line: string) => {
      sent.push(line);
      return submit(line);
    };
    expect(await lab.submit('hostname')).toBe(true);
    // the other instance, chosen in the Host menu: prefixed with its name
    store.setState((s) => ({ terminal: { ...s.terminal, host: 'sink' } }));
    expect(await lab.submit('hostname')).toBe(true);
    expect(sent).toEqual(['hostname', 'sink: hostname']);
  });
});
