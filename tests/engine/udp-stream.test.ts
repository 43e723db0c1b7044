/**
 * Conntrack UDP stream promotion (AWS-CT): a tracked UDP connection uses the UDP timeout (30 s by
 * default) until traffic has gone both ways with more than one request-response transaction, then
 * the UDP stream timeout (180 s by default).
 */
import { describe, expect, it } from 'vitest';
import type { Lab } from '../../src/engine/lab/lab';
import type { Flow, Packet } from '../../src/engine/model/packet';
import { connectionKey } from '../../src/engine/nitro/flow-table';
import { createLab } from '../../src/engine/session/runner';
import { defaultScenario } from '../../src/scenario/schema';

function udp(flow: Flow): Packet {
  return {
    flow,
    count: 1,
    sizeBytes: 100,
    payloadBytes: 72,
    seq: 0,
    ack: 0,
    flags: 0,
    sack: null,
    window: 0,
    tos: 0,
    sentAtNs: 0,
    enqueuedAtNs: 0,
    txq: 0,
    mark: 0,
  };
}

/** Client → server requests and server → client replies, straight through the two Nitro cards. */
function exchange(lab: Lab, pattern: ('req' | 'rep')[]) {
  const client = lab.instance('client')!;
  const server = lab.instance('server')!;
  client.nitro.toHost = () => {};
  server.nitro.toHost = () => {};
  const req = lab.makeFlow(client, lab.tuple(client, server, 'udp', 40_000, 5353));
  const rep = lab.makeFlow(server, lab.tuple(server, client, 'udp', 5353, 40_000));
  for (const k of pattern) {
    (k === 'req' ? client : server).nitro.egress(udp(k === 'req' ? req : rep));
    lab.runUntil(lab.nowNs + 1e6);
  }
  return client.nitro.flows.conntrack.get(connectionKey(req.tuple));
}

describe('UDP stream promotion in connection tracking', () => {
  it('one-way UDP and a single request-response keep the 30 s UDP timeout', () => {
    const oneWay = exchange(createLab(defaultScenario()), ['req', 'req', 'req']);
    expect(oneWay?.tracked).toBe(true);
    expect(oneWay?.timeoutNs).toBe(30e9);
    const once = exchange(createLab(defaultScenario()), ['req', 'rep', 'req']);
    expect(once?.timeoutNs).toBe(30e9);
    expect(once?.udpStream).not.toBe(true);
  });

  it('a second request-response promotes the connection to a UDP stream (180 s)', () => {
    const ct = exchange(createLab(defaultScenario()), ['req', 'rep', 'req', 'rep']);
    expect(ct?.udpStream).toBe(true);
    expect(ct?.timeoutNs).toBe(180e9);
  });

  it('the promoted timeout follows the ENI setting (UdpStreamTimeout=60)', () => {
    const lab = createLab(defaultScenario());
    const st = lab.instance('client')!.nitro.vpcEni!;
    st.connectionTracking = { UdpStreamTimeout: 60 };
    const ct = exchange(lab, ['req', 'rep', 'req', 'rep']);
    expect(ct?.timeoutNs).toBe(60e9);
  });
});
