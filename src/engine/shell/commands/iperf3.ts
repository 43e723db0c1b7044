/**
 * The `iperf3` command on a simulated host: parses with iperf3's rules, runs an Iperf3Test on the
 * model, and prints what iperf3 prints (text, or the -J document). `result` is always the -J
 * document so `--json` runs and the UI get iperf3's own layout.
 *
 * Servers: every instance boots with `iperf3 -s` listening on 5201 (scenario setting), as in the
 * NET402 tests. Typing `iperf3 -s [-p N]` starts another listener in the background (as `-D` would)
 * and prints the banner; a port already in use fails as iperf3 fails.
 */
import { MAX_OUTPUT_CHARS } from '../output-cap';
import { rfc1123 } from '../../../lib/time';
import { tunnelPeer } from './ip-tunnel';
import { Iperf3Test, type Iperf3TestResult } from '../../apps/iperf3-test';
import type { Instance, Lab } from '../../lab/lab';
import { UDP_IP_OVERHEAD } from '../../host/udp';
import { isTcpCongestionName } from '../../host/tcp/cong';
import { type CommandOutcome, done, fail, type Job } from '../types';
import {
  type Iperf3Options,
  iperf3CongestionSetupError,
  iperf3MssSetupError,
  iperf3UdpBlockSize,
  parseIperf3Args,
} from './iperf3-options';
import {
  formatIperf3Json,
  formatIperf3ServerBanner,
  formatIperf3Text,
  formatIperf3IntervalsFrom,
  formatIperf3TextProgress,
  IPERF3_CLIENT_INTERRUPT_STDERR,
  type Iperf3RunData,
  serializeIperf3Json,
} from './iperf3-report';

const SERVER_PORTS_KEY = Symbol('iperf3-server-ports');

type WithPorts = Instance & { [SERVER_PORTS_KEY]?: Set<number> };

/** Ports an iperf3 server listens on, on this instance. */
const IPV4_LITERAL = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function iperf3ServerPorts(inst: Instance): Set<number> {
  const i = inst as WithPorts;
  if (!i[SERVER_PORTS_KEY]) i[SERVER_PORTS_KEY] = new Set();
  return i[SERVER_PORTS_KEY]!;
}

const BUSY_KEY = Symbol('iperf3-busy-ports');
type WithBusy = Instance & { [BUSY_KEY]?: Set<number> };

/** Ports whose iperf3 server is running a test (iperf3 serves one test at a time). */
function busyPorts(inst: Instance): Set<number> {
  const i = inst as WithBusy;
  if (!i[BUSY_KEY]) i[BUSY_KEY] = new Set();
  return i[BUSY_KEY]!;
}

export function startIperf3Server(inst: Instance, port: number): void {
  iperf3ServerPorts(inst).add(port);
}

export function runIperf3(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  const systemInfo = `Linux ip-${self.host.ip.replace(/\./g, '-')} 6.1.115-126.197.amzn2023.x86_64 #1 SMP x86_64`;
  const parsed = parseIperf3Args(argv, { systemInfo });
  if (!parsed.ok)
    return {
      kind: 'done',
      out: { stdout: parsed.stdout ?? '', stderr: parsed.stderr, exitCode: parsed.exitCode },
    };
  const o = parsed.opts;
  const warn = o.warnings.join('');
  if (o.role === 'server') {
    const ports = iperf3ServerPorts(self);
    if (ports.has(o.port)) {
      return fail(
        `iperf3: error - unable to start listener for connections: Address already in use\niperf3: exiting`,
        1,
      );
    }
    ports.add(o.port);
    return done(formatIperf3ServerBanner(o.port, 1), 0, undefined, warn);
  }
  const via = lab.resolve(o.host ?? '') ? undefined : tunnelPeer(lab, self, o.host ?? '');
  const target = lab.resolve(o.host ?? '') ?? via?.peer;
  const connectFail = (why: string) =>
    fail(
      `${warn}iperf3: error - unable to connect to server - server may have stopped running or use a different port, firewall issue, etc.: ${why}`,
      1,
    );
  // routed into a tunnel nobody terminates: the SYNs are dropped at the far end until connect() gives up
  if (!target && self.host.tunnels?.route(o.host ?? '')) return connectFail('Connection timed out');
  // an address literal is never looked up: with no instance holding it the SYNs go unanswered until
  // connect() gives up (tcp_syn_retries), where a name the resolver does not know fails at once
  if (!target && IPV4_LITERAL.test(o.host ?? '')) return connectFail('Connection timed out');
  if (!target) return connectFail('Name or service not known');
  if (target === self) {
    return fail(
      'iperf3: loopback tests (client and server on the same instance) are not simulated in ec2-netlab',
      1,
    );
  }
  if (!iperf3ServerPorts(target).has(o.port)) return connectFail('Connection refused');
  if (busyPorts(target).has(o.port)) {
    return fail(`${warn}iperf3: error - the server is busy running a test. try again later`, 1);
  }
  const mssErr = iperf3MssSetupError(o);
  if (mssErr) return fail(`Connecting to host ${o.host}, port ${o.port}\n${mssErr}`, 1);
  const ccErr = iperf3CongestionSetupError(o);
  if (ccErr) return fail(`Connecting to host ${o.host}, port ${o.port}\n${ccErr}`, 1);
  const pathMtu = Math.min(lab.pathMtu(), self.host.eth0.mtu, target.host.eth0.mtu, via?.mtu ?? Infinity);
  const controlMss = pathMtu - 40 - 12;
  const blk = o.protocol === 'udp' ? iperf3UdpBlockSize(o, controlMss) : (o.blockSizeBytes ?? 131072);
  // A datagram over the sender's MTU is fragmented by its kernel (IP_PMTUDISC_WANT, host/ip-fragment.ts).
  // Not simulated: fragmenting inside a tunnel, and fragments larger than the rest of the path
  // (an internet gateway's 1500 or a smaller receiver MTU), which a router would cut again.
  if (
    o.protocol === 'udp' &&
    blk + UDP_IP_OVERHEAD > pathMtu &&
    (via !== undefined || self.host.eth0.mtu > pathMtu)
  ) {
    return fail(
      `iperf3: ${blk}-byte datagrams exceed the path MTU (${pathMtu}) and would be IP-fragmented ${via !== undefined ? 'inside a tunnel' : `beyond this instance's MTU (${self.host.eth0.mtu})`}; that fragmentation is not simulated in ec2-netlab (use -l ${pathMtu - UDP_IP_OVERHEAD} or less, or set the MTU with ip link set dev eth0 mtu ${pathMtu})`,
      1,
    );
  }
  const test = new Iperf3Test(lab, self, target, {
    protocol: o.protocol,
    port: o.port,
    durationNs: Math.round(o.durationSec * 1e9),
    bytesLimit: o.bytes,
    parallel: o.parallel,
    blockSizeBytes: blk,
    mssBytes: o.mssBytes,
    ...(o.congestion !== undefined && isTcpCongestionName(o.congestion) ? { congestion: o.congestion } : {}),
    targetBitrateBps: o.targetBitrateBps,
    ...(o.burstPackets !== undefined ? { burstPackets: o.burstPackets } : {}),
    reverse: o.reverse,
    bidir: o.bidir,
    intervalNs: Math.round(o.intervalSec * 1e9),
    windowBytes: o.windowBytes,
    ...(via
      ? { tunnel: { clientIp: via.localIp, serverIp: o.host ?? '', mtu: via.mtu } }
      : { serverIp: lab.addressOf(o.host ?? '') ?? target.host.ip }),
  });
  test.start();
  busyPorts(target).add(o.port);
  let interrupted = false;
  let printed = { key: -1, intervals: -1, connected: -1, text: '' };
  const job: Job = {
    done: () => test.done(),
    deadlineNs: () => test.deadlineNs(),
    interrupt: () => {
      interrupted = true;
      test.interrupt();
    },
    finish: () => {
      busyPorts(target).delete(o.port);
      const r = test.result();
      const data = toRunData(r, o, lab, self, target, interrupted);
      const doc = formatIperf3Json(data, { title: o.title });
      const stdout = o.json
        ? serializeIperf3Json(doc)
        : formatIperf3Text(data, { format: o.format, title: o.title });
      return {
        stdout,
        stderr: warn + (interrupted ? IPERF3_CLIENT_INTERRUPT_STDERR : ''),
        exitCode: interrupted ? 1 : 0,
        result: doc,
      };
    },
    // iperf3 prints each interval as it ends; -J prints one document at the end
    // and each stream's "[  5] local … connected to …" line as soon as that stream is connected
    progress: () => {
      if (o.json) return '';
      // polled every millisecond: the text is rebuilt only when what it shows changed
      const key = test.progressKey();
      if (key === printed.key) return printed.text;
      const r = test.result();
      const n = Math.min(...r.streams.map((s) => s.intervals.length));
      // streams in id order, as the final output lists them: the leading ones that are up
      let up = 0;
      while (up < r.streams.length && r.streams[up]!.connectedNs >= 0) up++;
      // past the lab's cap on a command's output nothing more is kept (the record's note counts
      // the rest): the text is not drawn again, so a long -P 128 run holds at most the cap
      if (printed.text.length >= MAX_OUTPUT_CHARS) return printed.text;
      if (n !== printed.intervals || up !== printed.connected) {
        const data = toRunData(r, o, lab, self, target, false, true);
        const opts = { format: o.format, title: o.title };
        // more intervals after the first, the same streams up: their lines appended (drawing the
        // whole text again every simulated second made a 600 s run's output cost O(n²))
        const grows =
          printed.intervals > 0 &&
          n > printed.intervals &&
          up === printed.connected &&
          data.intervals.length === n &&
          data.intervalSec > 0;
        const text = grows
          ? printed.text + formatIperf3IntervalsFrom(data, opts, printed.intervals)
          : formatIperf3TextProgress(data, opts, up);
        printed = { key, intervals: n, connected: up, text: text.slice(0, MAX_OUTPUT_CHARS) };
      }
      return printed.text;
    },
  };
  return { kind: 'job', job };
}

function toRunData(
  r: Iperf3TestResult,
  o: Iperf3Options,
  lab: Lab,
  client: Instance,
  server: Instance,
  interrupted: boolean,
  /** For the running test's progress: draw nothing from the model (no cookie, no control port). */
  observeOnly = false,
): Iperf3RunData {
  const ts = lab.wallClockStartS + Math.floor(r.testStartNs / 1e9);
  const cookieRng = (observeOnly ? 0 : client.rng.nextU32()).toString(36) + lab.scenario.seed.toString(36);
  const cookie = cookieRng.padEnd(36, 'abcdefghijklmnopqrstuvwxyz234567').slice(0, 36);
  const udp = r.config.protocol === 'udp';
  const streams = r.streams.map((s) => ({
    id: s.id,
    clientSends: s.clientSends,
    client: { ip: s.clientIp, port: s.clientPort },
    server: { ip: s.serverIp, port: s.serverPort },
  }));
  const nIntervals = Math.max(0, ...r.streams.map((s) => s.intervals.length));
  const intervals = [];
  for (let i = 0; i < nIntervals; i++) {
    intervals.push({
      streams: r.streams.map((s) => {
        const iv = s.intervals[i]!;
        return {
          id: s.id,
          startSec: iv.startNs / 1e9,
          endSec: iv.endNs / 1e9,
          sender: udp
            ? { bytes: iv.sentBytes, packets: iv.sentPackets }
            : {
                bytes: iv.sentBytes,
                retransmits: iv.retransmits,
                sndCwndBytes: iv.sndCwndBytes,
                sndWndBytes: iv.sndWndBytes,
                rttUs: iv.rttUs,
                rttvarUs: iv.rttvarUs,
                pmtuBytes: iv.pmtu,
              },
          receiver: udp
            ? {
                bytes: iv.recvBytes,
                packets: iv.recvPackets + iv.lostPackets,
                lostPackets: iv.lostPackets,
                jitterMs: iv.jitterMs,
                outOfOrder: iv.outOfOrder,
              }
            : { bytes: iv.recvBytes },
        };
      }),
    });
  }
  const first = r.streams[0];
  return {
    systemInfo: `Linux ip-${client.host.ip.replace(/\./g, '-')} 6.1.115-126.197.amzn2023.x86_64 #1 SMP x86_64`,
    timestamp: { time: rfc1123(ts), timesecs: ts },
    cookie,
    protocol: r.config.protocol,
    numStreams: o.parallel,
    blksizeBytes: r.config.blockSizeBytes,
    durationSec: o.durationSec,
    bytes: o.bytes,
    omitSec: o.omitSec,
    reverse: o.reverse,
    bidir: o.bidir,
    targetBitrateBps: o.targetBitrateBps,
    intervalSec: o.intervalSec,
    serverHost: o.host ?? server.name,
    serverPort: o.port,
    control: {
      client: { ip: r.clientIp, port: observeOnly ? 0 : client.host.allocPort() },
      server: { ip: r.serverIp, port: o.port },
    },
    tcpMssDefault: r.mss,
    tcpMss: o.mssBytes,
    ...(o.congestion !== undefined ? { congestion: { client: o.congestion, server: o.congestion } } : {}),
    sockBufsize: o.windowBytes ?? 0,
    sndbufActual: o.windowBytes ? 2 * o.windowBytes : 16384,
    rcvbufActual: o.windowBytes ? 2 * o.windowBytes : 131072,
    streams,
    intervals,
    end: {
      senderSeconds: first?.senderSeconds ?? 0,
      receiverSeconds: first?.receiverSeconds ?? 0,
      streams: r.streams.map((s) => ({
        id: s.id,
        sender: udp
          ? { bytes: s.sentBytes, packets: s.sentPackets }
          : {
              bytes: s.sentBytes,
              retransmits: s.retransmits,
              maxSndCwndBytes: s.maxSndCwndBytes,
              maxSndWndBytes: s.maxSndWndBytes,
              maxRttUs: s.maxRttUs,
              minRttUs: s.minRttUs,
              meanRttUs: s.meanRttUs,
            },
        receiver: udp
          ? {
              bytes: s.recvBytes,
              packets: s.recvPackets + s.lostPackets,
              lostPackets: s.lostPackets,
              jitterMs: s.jitterMs,
              outOfOrder: s.outOfOrder,
            }
          : { bytes: s.recvBytes },
      })),
    },
    cpu: {
      client: { total: r.clientCpuPercent, user: r.clientCpuPercent * 0.1, system: r.clientCpuPercent * 0.9 },
      server: { total: r.serverCpuPercent, user: r.serverCpuPercent * 0.1, system: r.serverCpuPercent * 0.9 },
    },
    interrupted,
  };
}
