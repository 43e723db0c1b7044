/**
 * Incast (issue 4) through the real command line (`npm run lab -- --scenario
 * tests/metrics/fixtures/incast.json --json`): eight clients start `iperf3 -c server -p P -n 4M &`
 * at the same instant, each at up to the 10 Gbit/s cluster flow limit, into a c6i.8xlarge allowed
 * 12.5 Gbit/s in. Asserted: the drops are at the server's Nitro ingress (bw_in_allowance_exceeded in
 * `lab summary` and `ethtool -S`), every flow still completes, and its one-way latency sits in the
 * milliseconds where one client alone stays in the hundreds of µs. With ENA Express: short
 * synchronized responses (ab -k) no longer wait for RTOs, the bulk incast loses nothing at the card
 * but its queue moves to the senders' cards, UDP card drops become late deliveries
 * (docs/design.md, "ENA Express and SRD").
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const FIXTURE = 'tests/metrics/fixtures/incast.json';

interface Run {
  host: string;
  command: string;
  startNs: number;
  exitCode: number;
  output: string;
  result: unknown;
}
interface Latency {
  p50us: number;
  p99us: number;
  p999us: number;
  packets: number;
}
interface SummaryEntry {
  instance: string;
  counters: Record<string, number>;
  queues: Record<string, number>;
  latency: Record<string, Latency>;
}

function lab(...args: string[]): Promise<Run[]> {
  return labWith(FIXTURE, ...args);
}

function labWith(scenario: string, ...args: string[]): Promise<Run[]> {
  return new Promise((resolve, reject) => {
    execFile(
      TSX,
      ['src/cli/main.ts', '--scenario', scenario, '--json', ...args],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`lab failed: ${err.message}\n${stderr}`));
        else resolve((JSON.parse(stdout) as { runs: Run[] }).runs);
      },
    );
  });
}

function server(runs: Run[]): { summary: SummaryEntry; ethtool: Record<string, number>; text: string } {
  const s = runs.find((r) => r.command === 'lab summary')!;
  const e = runs.find((r) => r.host === 'server' && r.command === 'ethtool -S eth0')!;
  expect(s.exitCode).toBe(0);
  const summary = (s.result as { instances: SummaryEntry[] }).instances.find((i) => i.instance === 'server')!;
  return { summary, ethtool: e.result as Record<string, number>, text: s.output };
}

describe('incast: eight clients, one synchronized burst, one server', () => {
  it('fills the server’s Nitro ingress queue, drops there, and every flow’s latency is the queue’s', async () => {
    const [incast, alone] = await Promise.all([
      lab(),
      // the same fixture (instances, types, recorder) with one client only
      lab('--', 'client1: iperf3 -c server -n 4M &', 'sleep 1', 'lab summary', 'server: ethtool -S eth0'),
    ]);

    // eight background jobs started at one instant: their records start at the same ns
    const starts = incast.filter((r) => /^iperf3 -c server -p \d+ -n 4M &$/.test(r.command));
    expect(new Set(starts.map((r) => r.host)).size).toBe(8);
    expect(new Set(starts.map((r) => r.startNs)).size).toBe(1);

    const a = server(alone);
    const i = server(incast);
    // alone: under the allowance, nothing dropped, nothing shaped on the way in
    expect(a.ethtool.bw_in_allowance_exceeded).toBe(0);
    expect(a.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeUndefined();

    // incast: the inbound allowance shaped (queued, then dropped) packets, in ethtool -S and in the summary
    const dropped = i.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']!;
    expect(dropped).toBeGreaterThan(100);
    expect(i.ethtool.bw_in_allowance_exceeded).toBeGreaterThan(dropped); // queued or dropped (AWS-ENAPERF)
    expect(i.summary.counters.bw_in_allowance_exceeded).toBe(i.ethtool.bw_in_allowance_exceeded);
    expect(i.text).toMatch(/server +drops in nitro_ingress: bw_in_allowance_exceeded +\d+ packets/);
    // the ingress queue was the fullest on the path: hundreds of 9001-byte packets (≈ 2 ms at 12.5 Gbit/s)
    expect(i.summary.queues['nitro_ingress[0]']).toBeGreaterThan(300);
    // nothing else dropped anything: the drops are the allowance's
    for (const k of Object.keys(i.summary.counters).filter((k) => k.startsWith('drops ')))
      expect(k).toBe('drops nitro_ingress bw_in_allowance_exceeded');

    // latency: eight flows received, each with its percentiles in the summary
    const flows = Object.entries(i.summary.latency);
    expect(flows).toHaveLength(8);
    const lone = Object.values(a.summary.latency)[0]!;
    expect(lone.p50us).toBeLessThan(400);
    for (const [name, l] of flows) {
      expect(i.text).toContain(`latency ${name} (whole run)`);
      expect(l.p99us).toBeGreaterThan(l.p50us);
      // the burst sits in the server's ingress queue: milliseconds, not the lone flow's hundreds of µs
      expect(l.p50us, name).toBeGreaterThan(4 * lone.p50us);
      expect(l.p99us, name).toBeGreaterThan(1800);
      expect(l.p99us, name).toBeGreaterThan(1.8 * lone.p99us);
    }
  }, 180_000);

  /**
   * ENA Express under UDP incast. SRD (ena-express.ts) paces each sender's card by its window and
   * retransmits, from the sender's card, a packet the receiving card's ingress shaper drops; it does
   * not raise the receiver's inbound allowance. With UDP datagrams, which nothing else would
   * recover, the drops at the card become late deliveries: the loss that is left is the server's socket buffer, after the card,
   * which SRD cannot reach; the delivered datagrams' latency grows by the retransmissions' time.
   */
  it('UDP bursts (iperf3 -b 1G/200): Nitro-ingress loss without ENA Express; with it (UDP opted in) the card’s drops are retransmitted', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ec2-netlab-incast-'));
    const doc = JSON.parse(readFileSync(join(ROOT, FIXTURE), 'utf8')) as {
      instances: Array<Record<string, unknown>>;
    };
    for (const i of doc.instances)
      i.enaSrd = { EnaSrdEnabled: true, EnaSrdUdpSpecification: { EnaSrdUdpEnabled: true } };
    const srdFixture = join(tmp, 'incast-ena-express.json');
    writeFileSync(srdFixture, JSON.stringify(doc));
    // 8 clients × 1 Gbit/s on average (under the server's 12.5 Gbit/s), in synchronized bursts of
    // 200 datagrams of 8000 bytes (under the SRD MTU of 8900): 12.8 MB arrive at once every 12.8 ms
    const script = [
      ...Array.from({ length: 7 }, (_, k) => `server: iperf3 -s -p ${5202 + k} &`),
      ...Array.from(
        { length: 8 },
        (_, k) => `client${k + 1}: iperf3 -c server -p ${5201 + k} -u -b 1G/200 -l 8000 -t 1 &`,
      ),
      'sleep 1.5',
      'lab summary',
      'server: ethtool -S eth0',
    ];
    const [plain, srd] = await Promise.all([lab('--', ...script), labWith(srdFixture, '--', ...script)]);
    const lost = (runs: Run[]) => {
      let n = 0;
      let total = 0;
      // the background jobs' records when they ended (their start records hold only "[n] pid")
      const ended = runs.filter(
        (r) => /^iperf3 -c server .* -u .*&$/.test(r.command) && /receiver/.test(r.output),
      );
      expect(ended).toHaveLength(8);
      for (const r of ended) {
        const m = /(\d+)\/(\d+) \([^)]*\) +receiver/.exec(r.output)!;
        n += Number(m[1]);
        total += Number(m[2]);
      }
      return { n, total };
    };
    const a = server(plain);
    const b = server(srd);
    const la = lost(plain);
    const lb = lost(srd);
    expect(la.total).toBeGreaterThan(8 * 15_000);

    // without ENA Express: a microburst incast, under the allowance on average, over it at 1 ms
    const rates = (
      plain.find((r) => r.command === 'lab summary')!.result as {
        instances: Array<{ instance: string; in: { peak1ms: number; peak1s: number } }>;
      }
    ).instances.find((i) => i.instance === 'server')!.in;
    expect(rates.peak1s * 8).toBeLessThan(10e9);
    expect(rates.peak1ms * 8).toBeGreaterThan(12.5e9);
    expect(a.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeGreaterThan(10_000);
    expect(la.n).toBeGreaterThan(0.2 * la.total);

    // with ENA Express: SRD carried the datagrams and retransmitted what the card dropped
    expect(b.ethtool.ena_srd_mode).toBe(3);
    expect(b.ethtool.ena_srd_rx_pkts).toBeGreaterThan(0.9 * lb.total);
    expect(b.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeUndefined();
    // what is still lost was dropped after the card, at the server's socket buffers (the card's
    // drops of SRD packets, if any, were retransmitted: lab-only reason srd_retransmitted)
    for (const k of Object.keys(b.summary.counters).filter((k) => k.startsWith('drops ')))
      expect(['drops socket_rx socket_rcvbuf_full', 'drops nitro_ingress srd_retransmitted']).toContain(k);
    // (iperf3 also counts datagrams still on their way, late, when the test ended)
    expect(lb.n).toBeGreaterThanOrEqual(b.summary.counters['drops socket_rx socket_rcvbuf_full'] ?? 0);
    expect(lb.n).toBeLessThan(la.n / 5);
    // the price: a retransmitted datagram arrives later (bounded: the bursts leave room to drain)
    const worst = (e: SummaryEntry) => Math.max(...Object.values(e.latency).map((l) => l.p99us));
    expect(worst(b.summary)).toBeGreaterThan(worst(a.summary));
    expect(worst(b.summary)).toBeLessThan(20_000);
  }, 180_000);

  /**
   * The 4 MiB bulk incast with ENA Express (TCP): SRD's windows keep the server's ingress queue short,
   * so nothing is dropped there, but TCP loses nothing either way (it recovered the standard run's
   * drops by SACK), so its windows keep growing and the bytes wait in the clients' cards instead:
   * the one-way latency is not better, the same few milliseconds of queue sit elsewhere.
   */
  it('8 × 4 MiB with ENA Express: nothing lost at the server’s card (a few hundred dropped and resent by SRD); the queue moves to the clients’ cards, the tail is not better', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ec2-netlab-incast-4m-'));
    const doc = JSON.parse(readFileSync(join(ROOT, FIXTURE), 'utf8')) as {
      instances: Array<Record<string, unknown>>;
    };
    for (const i of doc.instances) i.enaSrd = { EnaSrdEnabled: true };
    const srdFixture = join(tmp, 'incast-ena-express-4m.json');
    writeFileSync(srdFixture, JSON.stringify(doc));
    const [plain, srd] = await Promise.all([lab(), labWith(srdFixture)]);
    const a = server(plain);
    const b = server(srd);
    const worst = (e: SummaryEntry) => Math.max(...Object.values(e.latency).map((l) => l.p99us));
    expect(a.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeGreaterThan(100);
    expect(b.ethtool.ena_srd_rx_pkts).toBeGreaterThan(3_000);
    // nothing lost; the card dropped a few of the first windows' packets, which SRD sent again
    for (const k of Object.keys(b.summary.counters).filter((k) => k.startsWith('drops ')))
      expect(k).toBe('drops nitro_ingress srd_retransmitted');
    expect(b.summary.counters['drops nitro_ingress srd_retransmitted'] ?? 0).toBeLessThan(
      0.5 * a.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']!,
    );
    expect(Object.keys(b.summary.latency)).toHaveLength(8);
    // the same milliseconds of queue: not the tens of ms of a retransmission without congestion response
    expect(worst(b.summary)).toBeGreaterThan(0.5 * worst(a.summary));
    expect(worst(b.summary)).toBeLessThan(2 * worst(a.summary));
  }, 180_000);

  /**
   * The classic incast, where TCP pays: the server, an aggregator, fetches 64 KiB responses from all
   * eight clients at once (`ab -k -c 16 -n 100 http://clientK/64k &`, eight jobs: 128 connections, each
   * one response in flight). Without ENA Express the synchronized responses overflow the server's
   * Nitro ingress queue; a connection that loses the tail of a response has nothing behind it to
   * trigger SACK recovery, so it waits for its loss probe or its RTO (200 ms minimum): a few requests
   * take 200 ms where the others take a few. With ENA Express each client's card sends into its SRD
   * connection's window (ena-express.ts): the ACK round trips grow as the server's queue grows, the
   * windows shrink, the rest of the burst waits in the clients' cards, and nothing is dropped at the
   * server's card, so no request waits for a timeout. (With -c 8 the Nitro shaper's per-flow share of
   * its buffer, nitroShaperFairBufferShare, spreads ~330 drops over 64 connections, a few each, which
   * SACK and loss probes recover without an RTO; with 128 connections the share, ~2.7 jumbo frames,
   * is below a 64 KiB response and tails are lost.)
   */
  it('synchronized 64 KiB responses from eight clients (ab -k -c 16): RTOs without ENA Express; with it no drops at the card and a tail of milliseconds', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ec2-netlab-incast-ab-'));
    const doc = JSON.parse(readFileSync(join(ROOT, FIXTURE), 'utf8')) as {
      instances: Array<Record<string, unknown>>;
    };
    for (const i of doc.instances) i.enaSrd = { EnaSrdEnabled: true };
    const srdFixture = join(tmp, 'incast-ena-express-tcp.json');
    writeFileSync(srdFixture, JSON.stringify(doc));
    // the control: SRD without its congestion response (a window that never binds nor shrinks)
    const noCcFixture = join(tmp, 'incast-ena-express-no-cc.json');
    writeFileSync(
      noCcFixture,
      JSON.stringify({ ...doc, params: { enaSrdInitialWindowBytes: 2 ** 30, enaSrdDecreaseFactor: 1 } }),
    );
    const script = [
      ...Array.from({ length: 8 }, (_, k) => `server: ab -q -k -n 100 -c 16 http://client${k + 1}/64k &`),
      'sleep 2',
      'lab summary',
      'server: ethtool -S eth0',
      'client1: lab nitro show',
    ];
    const [plain, srd, noCc] = await Promise.all([
      lab('--', ...script),
      labWith(srdFixture, '--', ...script),
      labWith(noCcFixture, '--', ...script),
    ]);
    const jobs = (runs: Run[]) => {
      const ended = runs.filter(
        (r) => r.command.startsWith('ab ') && /Percentage of the requests/.test(r.output),
      );
      expect(ended).toHaveLength(8);
      return ended.map((r) => {
        const p99 = Number(/^ +99% +(\d+)$/m.exec(r.output)![1]);
        const longest = Number(/^ +100% +(\d+) \(longest request\)$/m.exec(r.output)![1]);
        const res = r.result as { completeRequests: number; timeTakenS: number };
        expect(res.completeRequests).toBe(100);
        expect(r.output).toMatch(/^Failed requests: +0$/m);
        return { p99, longest, takenS: res.timeTakenS };
      });
    };
    const a = jobs(plain);
    const b = jobs(srd);
    const sa = server(plain);
    const sb = server(srd);

    // without ENA Express: drops at the server's card, and requests that waited for an RTO (≥ 200 ms)
    expect(sa.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeGreaterThan(50);
    expect(a.filter((j) => j.longest >= 200).length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...a.map((j) => j.p99))).toBeGreaterThanOrEqual(200);

    // with ENA Express: SRD carried the responses, the server's card dropped nothing
    expect(sb.ethtool.ena_srd_rx_pkts).toBeGreaterThan(1_000);
    expect(sb.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeUndefined();
    for (const k of Object.keys(sb.summary.counters)) expect(k.startsWith('drops ')).toBe(false);
    // the mechanism, as `lab nitro show` lists it: client1's SRD connection to the server cut its window
    const show = (runs: Run[]) => runs.find((r) => r.host === 'client1' && r.command === 'lab nitro show')!;
    expect(show(plain).output).not.toContain('ENA Express (SRD) connections');
    const conns = (show(srd).result as { srd: { connections: Array<Record<string, unknown>> } }).srd
      .connections;
    expect(conns).toHaveLength(1);
    expect(conns[0]!.peerInstance).toBe('server');
    expect(conns[0]!.windowReductions as number).toBeGreaterThan(0);
    expect(conns[0]!.inFlightBytes).toBe(0);
    expect(show(srd).output).toMatch(
      /ENA Express \(SRD\) connections[^\n]*\nPeer +Window +In flight +Queued +Min RTT +Reductions\n10\.0\.0\.10 \(server\) +\d+ B +0 B +0 pkts +\d+\.\d µs +[1-9]\d*\n/,
    );
    // the tail: every job's p99 and longest request in milliseconds, not an RTO
    expect(Math.max(...b.map((j) => j.longest))).toBeLessThan(20);
    expect(Math.max(...b.map((j) => j.p99))).toBeLessThan(20);
    // and the whole fetch is faster: every job without ENA Express waited for an RTO
    expect(Math.max(...b.map((j) => j.takenS))).toBeLessThan(Math.max(...a.map((j) => j.takenS)) / 3);

    // the windows are what keeps the server's queue from overflowing: without the congestion
    // response the card drops tens of times more SRD packets than standard ENA lost, and only the
    // card's retransmissions (no RTO either) keep the tail short, longer than with the windows
    const c = jobs(noCc);
    const sc = server(noCc);
    expect(sc.summary.counters['drops nitro_ingress srd_retransmitted']).toBeGreaterThan(
      10 * sa.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']!,
    );
    expect(sc.summary.counters['drops nitro_ingress bw_in_allowance_exceeded']).toBeUndefined();
    expect(Math.max(...c.map((j) => j.longest))).toBeLessThan(50);
    expect(Math.max(...c.map((j) => j.longest))).toBeGreaterThan(Math.max(...b.map((j) => j.longest)));
  }, 180_000);
});
