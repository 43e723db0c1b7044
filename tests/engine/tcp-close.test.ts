/**
 * TCP close on the wire and in the Nitro card's connection tracking. Closing a connection is a FIN
 * exchange (FIN, FIN+ACK, ACK) through both hosts' stacks, the cards and the fabric; the card
 * removes the conntrack entry of a connection that saw a FIN both ways (or an RST)
 * MODEL_PARAMS.conntrackClosedLingerNs after its last packet (assumed: AWS says such connections stop
 * being tracked, not how soon), while an open connection keeps its entry for the idle timeout.
 */
import { describe, expect, it } from 'vitest';
import { HttpConnection, resolveResource, responseHeaders } from '../../src/engine/apps/http';
import type { Lab } from '../../src/engine/lab/lab';
import { type Packet, TCP_FLAG_ACK, TCP_FLAG_FIN, TCP_FLAG_RST } from '../../src/engine/model/packet';
import { type ConntrackEntry, connectionKey, noteTcpFlags } from '../../src/engine/nitro/flow-table';
import { MODEL_PARAMS } from '../../src/engine/model/params';
import { createLab, LabSession } from '../../src/engine/session/runner';
import { defaultScenario } from '../../src/scenario/schema';

const LINGER_NS = MODEL_PARAMS.conntrackClosedLingerNs.value;

interface Seen {
  atNs: number;
  /** The card that received it from the fabric. */
  card: string;
  srcPort: number;
  dstPort: number;
  flags: number;
  seq: number;
  ack: number;
  payload: number;
  count: number;
}

/** Record every TCP batch the two cards receive from the fabric (after the sender's qdisc, ring and card). */
function tap(lab: Lab): Seen[] {
  const seen: Seen[] = [];
  for (const name of ['client', 'server']) {
    const card = lab.instance(name)!.nitro;
    const orig = card.ingress.bind(card);
    card.ingress = (p: Packet) => {
      if (p.flow.tuple.proto === 'tcp')
        seen.push({
          atNs: lab.nowNs,
          card: name,
          srcPort: p.flow.tuple.srcPort,
          dstPort: p.flow.tuple.dstPort,
          flags: p.flags,
          seq: p.seq,
          ack: p.ack,
          payload: p.payloadBytes,
          count: p.count,
        });
      orig(p);
    };
  }
  return seen;
}

/** One GET of the index page on a new connection; resolves when the response is in. */
function get(lab: Lab, conn: HttpConnection, connectionClose = false): { done: boolean } {
  const res = resolveResource('/');
  const headers = responseHeaders(res, 'Mon, 02 Dec 2024 16:00:00 GMT', !connectionClose);
  const st = { done: false };
  conn.request(
    80,
    { headers, headerBytes: headers.length, bodyBytes: res.bodyBytes, resource: res },
    () => {
      st.done = true;
    },
    undefined,
    connectionClose,
  );
  conn.connect();
  lab.runUntil(lab.nowNs + 50e6);
  expect(st.done).toBe(true);
  return st;
}

function entry(lab: Lab, host: string, conn: HttpConnection): ConntrackEntry | undefined {
  return lab.instance(host)!.nitro.flows.conntrack.get(connectionKey(conn.fwd.tuple));
}

describe('TCP close: the FIN exchange on the wire', () => {
  it('curl closes its connection at exit: FIN, FIN+ACK, ACK, each through the cards, one sequence number each', () => {
    const lab = createLab(defaultScenario());
    const seen = tap(lab);
    const s = new LabSession(lab);
    expect(s.run('curl -s -o /dev/null http://server/')[0]!.exitCode).toBe(0);
    const beforeClose = seen.length;
    s.run('sleep 1');
    const close = seen.slice(beforeClose);
    const fins = close.filter((x) => x.flags & TCP_FLAG_FIN);
    // the client's FIN reaches the server's card; the server (nginx closes on EOF) answers with its FIN
    // carrying the ACK of the client's; the client's last ACK follows
    expect(close.map((x) => [x.card, x.flags, x.payload, x.count])).toEqual([
      ['server', TCP_FLAG_FIN | TCP_FLAG_ACK, 0, 1],
      ['client', TCP_FLAG_FIN | TCP_FLAG_ACK, 0, 1],
      ['server', TCP_FLAG_ACK, 0, 1],
    ]);
    expect(fins).toHaveLength(2);
    const [clientFin, serverFin, lastAck] = close as [Seen, Seen, Seen];
    // the FIN follows the data and consumes one sequence number: each side's FIN is ACKed with seq + 1
    const data = seen.slice(0, beforeClose);
    const clientBytes = Math.max(
      ...data.filter((x) => x.card === 'server').map((x) => x.seq + x.payload * x.count),
    );
    const serverBytes = Math.max(
      ...data.filter((x) => x.card === 'client').map((x) => x.seq + x.payload * x.count),
    );
    expect(clientFin.seq).toBe(clientBytes);
    expect(serverFin.seq).toBe(serverBytes);
    expect(serverFin.ack).toBe(clientFin.seq + 1);
    expect(lastAck.ack).toBe(serverFin.seq + 1);
  });

  it('ab without -k: the server closes after each response (nginx, HTTP/1.0) and ab closes on the EOF', () => {
    const lab = createLab(defaultScenario());
    const seen = tap(lab);
    const s = new LabSession(lab);
    expect(s.run('ab -n 10 -c 1 http://server/')[0]!.exitCode).toBe(0);
    s.run('sleep 1');
    const fins = seen.filter((x) => x.flags & TCP_FLAG_FIN);
    expect(fins).toHaveLength(20);
    // per connection (the client's port) the server's FIN reaches the client's card before the client's FIN leaves
    const clientPortOf = (x: Seen) => (x.card === 'client' ? x.dstPort : x.srcPort);
    const ports = new Set(fins.map(clientPortOf));
    expect(ports.size).toBe(10);
    for (const port of ports) {
      const mine = fins.filter((x) => clientPortOf(x) === port);
      expect(mine.map((x) => x.card)).toEqual(['client', 'server']);
    }
  });

  it('iperf3: the client closes its streams at the end of the test; both ends FIN, with and without -R', () => {
    for (const cmd of ['iperf3 -c server -t 1', 'iperf3 -c server -t 1 -R -P 2']) {
      const lab = createLab(defaultScenario());
      const seen = tap(lab);
      const s = new LabSession(lab);
      expect(s.run(cmd)[0]!.exitCode, cmd).toBe(0);
      s.run('sleep 1');
      const streams = cmd.includes('-P 2') ? 2 : 1;
      const fins = seen.filter((x) => x.flags & TCP_FLAG_FIN);
      expect(
        fins.filter((f) => f.card === 'server'),
        cmd,
      ).toHaveLength(streams);
      expect(
        fins.filter((f) => f.card === 'client'),
        cmd,
      ).toHaveLength(streams);
      s.run(`sleep ${LINGER_NS / 1e9}`);
      for (const h of ['client', 'server'])
        expect(lab.instance(h)!.nitro.flows.trackedCount(lab.nowNs), `${cmd}: ${h}`).toBe(0);
    }
  });
});

describe('conntrack: a closed connection leaves the table after the linger, an open one stays', () => {
  it('the linger is a named assumption of a few seconds', () => {
    const p = MODEL_PARAMS.conntrackClosedLingerNs;
    expect(p.provenance).toBe('assumed');
    expect(p.value).toBeGreaterThanOrEqual(1e9);
    expect(p.value).toBeLessThanOrEqual(10e9); // Linux nf_conntrack keeps a closed connection 10 s
  });

  it('closed with FIN: Closed, then gone LINGER after its last packet; left open: Established for the idle timeout', () => {
    const lab = createLab(defaultScenario());
    const client = lab.instance('client')!;
    const server = lab.instance('server')!;
    const closed = new HttpConnection(lab, client, server, 80);
    const open = new HttpConnection(lab, client, server, 80);
    get(lab, closed);
    get(lab, open);
    for (const h of ['client', 'server']) {
      expect(entry(lab, h, closed)?.state).toBe('Established');
      expect(entry(lab, h, open)?.state).toBe('Established');
    }
    expect(client.nitro.conntrackAvailable()).toBe(client.nitro.flows.allowanceMax - 2);
    closed.close();
    lab.runUntil(lab.nowNs + 10e6); // the FIN exchange (tens of µs)
    expect(closed.clientEndpoint.closed).toBe(true);
    expect(open.clientEndpoint.closed).toBe(false);
    const last = lab.nowNs;
    for (const h of ['client', 'server']) {
      const e = entry(lab, h, closed)!;
      expect(e.state, h).toBe('Closed');
      expect(e.timeoutNs).toBe(LINGER_NS);
    }
    // still held just before the linger is over (counted from the last ACK), gone after
    lab.runUntil(last + LINGER_NS - 20e6);
    expect(client.nitro.flows.trackedCount(lab.nowNs)).toBe(2);
    lab.runUntil(last + LINGER_NS + 1e6);
    for (const h of ['client', 'server']) {
      expect(lab.instance(h)!.nitro.flows.connection(closed.fwd.tuple, lab.nowNs), h).toBeUndefined();
      expect(entry(lab, h, open)?.state, h).toBe('Established');
    }
    expect(client.nitro.conntrackAvailable()).toBe(client.nitro.flows.allowanceMax - 1);
    // an hour later the open connection is still tracked (TCP established: 5 days by default)
    lab.runUntil(lab.nowNs + 3600e9);
    expect(entry(lab, 'client', open)?.state).toBe('Established');
    expect(client.nitro.flows.trackedCount(lab.nowNs)).toBe(1);
  });

  it('a FIN one way is Closing (the entry keeps its idle timeout); an RST closes at once', () => {
    const base = (): ConntrackEntry => ({
      tuple: { proto: 'tcp', srcIp: '10.0.0.10', srcPort: 45000, dstIp: '10.0.0.11', dstPort: 80 },
      opened: 'egress',
      state: 'Established',
      tracked: true,
      reason: '',
      timeoutNs: 432_000e9,
      lastSeenNs: 0,
    });
    const c = base();
    expect(noteTcpFlags(c, TCP_FLAG_ACK, true, LINGER_NS)).toBe(false);
    expect(c.state).toBe('Established');
    expect(noteTcpFlags(c, TCP_FLAG_FIN | TCP_FLAG_ACK, true, LINGER_NS)).toBe(false);
    expect(c.state).toBe('Closing');
    expect(c.timeoutNs).toBe(432_000e9);
    expect(noteTcpFlags(c, TCP_FLAG_FIN | TCP_FLAG_ACK, true, LINGER_NS)).toBe(false); // its retransmission
    expect(c.state).toBe('Closing');
    expect(noteTcpFlags(c, TCP_FLAG_FIN | TCP_FLAG_ACK, false, LINGER_NS)).toBe(true);
    expect(c.state).toBe('Closed');
    expect(c.timeoutNs).toBe(LINGER_NS);
    const r = base();
    expect(noteTcpFlags(r, TCP_FLAG_RST, false, LINGER_NS)).toBe(true);
    expect(r.state).toBe('Closed');
    expect(r.timeoutNs).toBe(LINGER_NS);
  });
});
