import { describe, expect, it } from 'vitest';
import {
  formatIperf3Json,
  formatIperf3ServerBanner,
  formatIperf3ServerText,
  formatIperf3Text,
  type Iperf3Interval,
  type Iperf3RunData,
  type Iperf3StreamEnd,
  serializeIperf3Json,
} from '../../src/engine/shell/commands/iperf3-report';
import { unitSnprintf } from '../../src/engine/shell/commands/iperf3-units';
import { cFixed, cG } from '../../src/engine/shell/commands/printf';

const GiB = 2 ** 30;
const MiB = 2 ** 20;

interface Build {
  protocol?: 'tcp' | 'udp';
  streams?: number;
  reverse?: boolean;
  bidir?: boolean;
  seconds?: number;
  /** bytes per stream per interval */
  bytesPer: (streamIdx: number, interval: number) => number;
  packetsPer?: (streamIdx: number, interval: number) => number;
  lostPer?: (streamIdx: number, interval: number) => number;
  cwnd?: (interval: number) => number;
  receiverSeconds?: number;
  intervalSec?: number;
}

/** A simulated run as the engine would hand it over: ids 5, 7, 9 …, 1-second intervals. */
function run(b: Build): Iperf3RunData {
  const n = b.streams ?? 1;
  const secs = b.seconds ?? 6;
  const total = b.bidir ? 2 * n : n;
  const streams = Array.from({ length: total }, (_, i) => ({
    id: 5 + 2 * i,
    clientSends: b.bidir ? i < n : !b.reverse,
    client: { ip: '10.0.0.10', port: 45742 + 2 * i },
    server: { ip: '10.0.0.20', port: 5201 },
  }));
  const intervals: Iperf3Interval[] = [];
  for (let t = 0; t < secs; t++) {
    intervals.push({
      streams: streams.map((s, i) => {
        const bytes = b.bytesPer(i, t);
        const packets = b.packetsPer?.(i, t);
        return {
          id: s.id,
          startSec: t,
          endSec: t + 1,
          sender: {
            bytes,
            retransmits: 0,
            sndCwndBytes: b.cwnd?.(t) ?? 1.6 * MiB,
            sndWndBytes: 3 * MiB,
            rttUs: 110,
            rttvarUs: 20,
            pmtuBytes: 9001,
            ...(packets !== undefined ? { packets } : {}),
          },
          receiver: {
            bytes: bytes - (b.lostPer?.(i, t) ?? 0) * 9000,
            ...(packets !== undefined
              ? { packets, lostPackets: b.lostPer?.(i, t) ?? 0, jitterMs: 0.012 }
              : {}),
          },
        };
      }),
    });
  }
  const ends: Iperf3StreamEnd[] = streams.map((s, i) => {
    let bytes = 0;
    let packets = 0;
    let lost = 0;
    for (let t = 0; t < secs; t++) {
      bytes += b.bytesPer(i, t);
      packets += b.packetsPer?.(i, t) ?? 0;
      lost += b.lostPer?.(i, t) ?? 0;
    }
    return {
      id: s.id,
      sender: {
        bytes,
        retransmits: 0,
        maxSndCwndBytes: 1.83 * MiB,
        maxSndWndBytes: 3 * MiB,
        maxRttUs: 150,
        minRttUs: 90,
        meanRttUs: 110,
        ...(b.packetsPer ? { packets } : {}),
      },
      receiver: {
        bytes: bytes - lost * 9000,
        ...(b.packetsPer ? { packets, lostPackets: lost, jitterMs: 0.012 } : {}),
      },
    };
  });
  return {
    systemInfo: 'Linux web-server 6.1.0 #1 SMP x86_64',
    timestamp: { time: 'Mon, 02 Dec 2024 10:00:00 GMT', timesecs: 1733133600 },
    cookie: 'abcdefghijklmnopqrstuvwxyz0123456789',
    protocol: b.protocol ?? 'tcp',
    numStreams: n,
    blksizeBytes: b.protocol === 'udp' ? 9000 : 131072,
    durationSec: secs,
    bytes: 0,
    omitSec: 0,
    reverse: b.reverse ?? false,
    bidir: b.bidir ?? false,
    targetBitrateBps: b.protocol === 'udp' ? 10e9 : 0,
    intervalSec: b.intervalSec ?? 1,
    serverHost: 'app-server',
    serverPort: 5201,
    control: { client: { ip: '10.0.0.10', port: 45740 }, server: { ip: '10.0.0.20', port: 5201 } },
    tcpMssDefault: 8949,
    sockBufsize: 0,
    sndbufActual: 16384,
    rcvbufActual: 131072,
    streams,
    intervals,
    end: { senderSeconds: secs, receiverSeconds: b.receiverSeconds ?? secs + 0.04, streams: ends },
    cpu: { client: { total: 12.5, user: 0.5, system: 12 }, server: { total: 30.25, user: 1.25, system: 29 } },
  };
}

const slideBytes = 1191250000; // 9.53 Gbit/s for one second = 1.11 GiB

describe('C number formatting', () => {
  it('printf %f rounds exact ties to even like glibc', () => {
    expect(cFixed(0.125, 2)).toBe('0.12');
    expect(cFixed(0.375, 2)).toBe('0.38');
    expect(cFixed(2.5, 0)).toBe('2');
    expect(cFixed(3.5, 0)).toBe('4');
    expect(cFixed(1.005, 2)).toBe('1.00'); // 1.005 is really 1.00499999…
    expect(cFixed(10.04, 2)).toBe('10.04');
  });
  it('printf %g', () => {
    expect(cG(0, 2)).toBe('0');
    expect(cG(0.5, 2)).toBe('0.5');
    expect(cG(12.345, 2)).toBe('12');
    expect(cG(100, 2)).toBe('1e+02');
    expect(cG(0.0012, 2)).toBe('0.0012');
    expect(cG(0.00001234, 2)).toBe('1.2e-05');
    expect(cG(5454625792, 15)).toBe('5454625792');
    expect(cG(1.0000560283660889, 15)).toBe('1.00005602836609');
  });
  it('unit_snprintf adapts the unit and keeps 3 significant digits', () => {
    expect(unitSnprintf(1.11 * GiB, 'A')).toBe('1.11 GByte');
    expect(unitSnprintf(slideBytes, 'a')).toBe('9.53 Gbit');
    expect(unitSnprintf(964e6 / 8, 'a')).toBe(' 964 Mbit');
    expect(unitSnprintf(1.6 * MiB, 'A')).toBe('1.60 MByte');
    expect(unitSnprintf(26.2e9 / 8, 'a')).toBe('26.2 Gbit');
    expect(unitSnprintf(0, 'A')).toBe('0.00 Byte');
    expect(unitSnprintf(1000, 'A')).toBe('1000 Byte');
    expect(unitSnprintf(1024, 'A')).toBe('1.00 KByte');
    expect(unitSnprintf(125e6, 'm')).toBe('1000 Mbit');
    expect(unitSnprintf(125e6, 'g')).toBe('1.00 Gbit');
    expect(unitSnprintf(2 * MiB, 'K')).toBe('2048 KByte');
  });
});

describe('formatIperf3Text: TCP client (NET402 slide)', () => {
  const cwnds = [1.6, 1.69, 1.69, 1.69, 1.83, 1.83].map((m) => m * MiB);
  const data = run({ bytesPer: () => slideBytes, cwnd: (t) => cwnds[t]!, receiverSeconds: 6.04 });
  const text = formatIperf3Text(data, { format: 'a' });

  it('prints exactly iperf3 3.16 layout', () => {
    expect(text).toBe(
      'Connecting to host app-server, port 5201\n' +
        '[  5] local 10.0.0.10 port 45742 connected to 10.0.0.20 port 5201\n' +
        '[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n' +
        '[  5]   0.00-1.00   sec  1.11 GBytes  9.53 Gbits/sec    0   1.60 MBytes       \n' +
        '[  5]   1.00-2.00   sec  1.11 GBytes  9.53 Gbits/sec    0   1.69 MBytes       \n' +
        '[  5]   2.00-3.00   sec  1.11 GBytes  9.53 Gbits/sec    0   1.69 MBytes       \n' +
        '[  5]   3.00-4.00   sec  1.11 GBytes  9.53 Gbits/sec    0   1.69 MBytes       \n' +
        '[  5]   4.00-5.00   sec  1.11 GBytes  9.53 Gbits/sec    0   1.83 MBytes       \n' +
        '[  5]   5.00-6.00   sec  1.11 GBytes  9.53 Gbits/sec    0   1.83 MBytes       \n' +
        '- - - - - - - - - - - - - - - - - - - - - - - - -\n' +
        '[ ID] Interval           Transfer     Bitrate         Retr\n' +
        '[  5]   0.00-6.00   sec  6.66 GBytes  9.53 Gbits/sec    0             sender\n' +
        '[  5]   0.00-6.04   sec  6.66 GBytes  9.47 Gbits/sec                  receiver\n' +
        '\n' +
        'iperf Done.\n',
    );
  });

  it('-T prefixes every line, -f m forces Mbits', () => {
    const t = formatIperf3Text(data, { format: 'm', title: 'web' });
    expect(
      t
        .split('\n')
        .slice(0, -1)
        .every((l) => l.startsWith('web:  ')),
    ).toBe(true);
    expect(t).toContain('  1.11 GBytes  9530 Mbits/sec    0   1.60 MBytes');
  });

  it('an interrupted client prints no "iperf Done."', () => {
    expect(formatIperf3Text({ ...data, interrupted: true }, { format: 'a' })).not.toContain('iperf Done.');
  });
});

describe('formatIperf3Text: parallel, reverse, bidir', () => {
  it('-P 2 prints separators and [SUM] lines', () => {
    const t = formatIperf3Text(run({ streams: 2, seconds: 2, bytesPer: (i) => (i === 0 ? 600e6 : 590e6) }), {
      format: 'a',
    });
    const lines = t.split('\n');
    expect(lines.slice(0, 11)).toEqual([
      'Connecting to host app-server, port 5201',
      '[  5] local 10.0.0.10 port 45742 connected to 10.0.0.20 port 5201',
      '[  7] local 10.0.0.10 port 45744 connected to 10.0.0.20 port 5201',
      '[ ID] Interval           Transfer     Bitrate         Retr  Cwnd',
      '[  5]   0.00-1.00   sec   572 MBytes  4.80 Gbits/sec    0   1.60 MBytes       ',
      '[  7]   0.00-1.00   sec   563 MBytes  4.72 Gbits/sec    0   1.60 MBytes       ',
      '[SUM]   0.00-1.00   sec  1.11 GBytes  9.52 Gbits/sec    0             ',
      '- - - - - - - - - - - - - - - - - - - - - - - - -',
      '[  5]   1.00-2.00   sec   572 MBytes  4.80 Gbits/sec    0   1.60 MBytes       ',
      '[  7]   1.00-2.00   sec   563 MBytes  4.72 Gbits/sec    0   1.60 MBytes       ',
      '[SUM]   1.00-2.00   sec  1.11 GBytes  9.52 Gbits/sec    0             ',
    ]);
    expect(t).toContain(
      '- - - - - - - - - - - - - - - - - - - - - - - - -\n' +
        '[ ID] Interval           Transfer     Bitrate         Retr\n' +
        '[  5]   0.00-2.00   sec  1.12 GBytes  4.80 Gbits/sec    0             sender\n' +
        '[  5]   0.00-2.04   sec  1.12 GBytes  4.71 Gbits/sec                  receiver\n' +
        '[  7]   0.00-2.00   sec  1.10 GBytes  4.72 Gbits/sec    0             sender\n' +
        '[  7]   0.00-2.04   sec  1.10 GBytes  4.63 Gbits/sec                  receiver\n' +
        '[SUM]   0.00-2.00   sec  2.22 GBytes  9.52 Gbits/sec    0             sender\n' +
        '[SUM]   0.00-2.04   sec  2.22 GBytes  9.33 Gbits/sec                  receiver\n',
    );
  });

  it('-R: reverse banner, receiver columns, summary still shows the server retransmits', () => {
    const t = formatIperf3Text(run({ reverse: true, seconds: 2, bytesPer: () => 118e6 }), { format: 'a' });
    expect(t).toBe(
      'Connecting to host app-server, port 5201\n' +
        'Reverse mode, remote host app-server is sending\n' +
        '[  5] local 10.0.0.10 port 45742 connected to 10.0.0.20 port 5201\n' +
        '[ ID] Interval           Transfer     Bitrate\n' +
        '[  5]   0.00-1.00   sec   113 MBytes   944 Mbits/sec                  \n' +
        '[  5]   1.00-2.00   sec   113 MBytes   944 Mbits/sec                  \n' +
        '- - - - - - - - - - - - - - - - - - - - - - - - -\n' +
        '[ ID] Interval           Transfer     Bitrate         Retr\n' +
        '[  5]   0.00-2.00   sec   225 MBytes   944 Mbits/sec    0             sender\n' +
        '[  5]   0.00-2.04   sec   225 MBytes   925 Mbits/sec                  receiver\n' +
        '\n' +
        'iperf Done.\n',
    );
  });

  it('--bidir tags lines with [TX-C]/[RX-C] and prints no separators for -P 1', () => {
    const t = formatIperf3Text(run({ bidir: true, seconds: 1, bytesPer: () => 118e6, receiverSeconds: 1 }), {
      format: 'a',
    });
    expect(t).toBe(
      'Connecting to host app-server, port 5201\n' +
        '[  5] local 10.0.0.10 port 45742 connected to 10.0.0.20 port 5201\n' +
        '[  7] local 10.0.0.10 port 45744 connected to 10.0.0.20 port 5201\n' +
        '[ ID][Role] Interval           Transfer     Bitrate         Retr  Cwnd\n' +
        '[  5][TX-C]   0.00-1.00   sec   113 MBytes   944 Mbits/sec    0   1.60 MBytes       \n' +
        '[  7][RX-C]   0.00-1.00   sec   113 MBytes   944 Mbits/sec                  \n' +
        '- - - - - - - - - - - - - - - - - - - - - - - - -\n' +
        '[ ID][Role] Interval           Transfer     Bitrate         Retr\n' +
        '[  5][TX-C]   0.00-1.00   sec   113 MBytes   944 Mbits/sec    0             sender\n' +
        '[  5][TX-C]   0.00-1.00   sec   113 MBytes   944 Mbits/sec                  receiver\n' +
        '[  7][RX-C]   0.00-1.00   sec   113 MBytes   944 Mbits/sec    0             sender\n' +
        '[  7][RX-C]   0.00-1.00   sec   113 MBytes   944 Mbits/sec                  receiver\n' +
        '\n' +
        'iperf Done.\n',
    );
  });
});

describe('formatIperf3Text: UDP', () => {
  // NET402 microburst slide: 8 flows, -M 9000 -u -b 10G, 9000-byte datagrams.
  const counts = [46261, 45610, 45444, 45459, 45279, 45577, 45271, 45378];
  const data = run({
    protocol: 'udp',
    streams: 8,
    seconds: 1,
    bytesPer: (i) => counts[i]! * 9000,
    packetsPer: (i) => counts[i]!,
    lostPer: (i) => (i === 0 ? 463 : 0),
  });
  const text = formatIperf3Text(data, { format: 'a' });

  it('reproduces the slide interval lines and the [SUM] with 364279 datagrams', () => {
    const lines = text.split('\n');
    expect(lines.slice(9, 19)).toEqual([
      '[ ID] Interval           Transfer     Bitrate         Total Datagrams',
      '[  5]   0.00-1.00   sec   397 MBytes  3.33 Gbits/sec  46261  ',
      '[  7]   0.00-1.00   sec   391 MBytes  3.28 Gbits/sec  45610  ',
      '[  9]   0.00-1.00   sec   390 MBytes  3.27 Gbits/sec  45444  ',
      '[ 11]   0.00-1.00   sec   390 MBytes  3.27 Gbits/sec  45459  ',
      '[ 13]   0.00-1.00   sec   389 MBytes  3.26 Gbits/sec  45279  ',
      '[ 15]   0.00-1.00   sec   391 MBytes  3.28 Gbits/sec  45577  ',
      '[ 17]   0.00-1.00   sec   389 MBytes  3.26 Gbits/sec  45271  ',
      '[ 19]   0.00-1.00   sec   389 MBytes  3.27 Gbits/sec  45378  ',
      '[SUM]   0.00-1.00   sec  3.05 GBytes  26.2 Gbits/sec  364279  ',
    ]);
  });

  it('summary: sender 0/N (0%), receiver jitter and loss percentages', () => {
    expect(text).toContain(
      '- - - - - - - - - - - - - - - - - - - - - - - - -\n' +
        '[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n' +
        '[  5]   0.00-1.00   sec   397 MBytes  3.33 Gbits/sec  0.000 ms  0/46261 (0%)  sender\n' +
        '[  5]   0.00-1.04   sec   393 MBytes  3.17 Gbits/sec  0.012 ms  463/46261 (1%)  receiver\n',
    );
    expect(text).toContain(
      '[SUM]   0.00-1.00   sec  3.05 GBytes  26.2 Gbits/sec  0.000 ms  0/364279 (0%)  sender\n' +
        '[SUM]   0.00-1.04   sec  3.05 GBytes  25.2 Gbits/sec  0.012 ms  463/364279 (0.13%)  receiver\n' +
        '\n' +
        'iperf Done.\n',
    );
  });

  it('UDP -R shows jitter and loss in the intervals', () => {
    const r = formatIperf3Text(
      run({
        protocol: 'udp',
        reverse: true,
        seconds: 1,
        bytesPer: () => 128 * 1024,
        packetsPer: () => 91,
        lostPer: () => 1,
      }),
      { format: 'a' },
    );
    expect(r).toContain(
      '[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n' +
        '[  5]   0.00-1.00   sec   119 KBytes   977 Kbits/sec  0.012 ms  1/91 (1.1%)  \n',
    );
  });
});

describe('formatIperf3ServerText', () => {
  it('prints the receiver side of a TCP test and only the receiver summary', () => {
    const data = run({ seconds: 2, bytesPer: () => slideBytes, receiverSeconds: 2.04 });
    expect(formatIperf3ServerBanner(5201, 1)).toBe(
      '-----------------------------------------------------------\nServer listening on 5201 (test #1)\n-----------------------------------------------------------\n',
    );
    expect(formatIperf3ServerText(data)).toBe(
      'Accepted connection from 10.0.0.10, port 45740\n' +
        '[  5] local 10.0.0.20 port 5201 connected to 10.0.0.10 port 45742\n' +
        '[ ID] Interval           Transfer     Bitrate\n' +
        '[  5]   0.00-1.00   sec  1.11 GBytes  9.53 Gbits/sec                  \n' +
        '[  5]   1.00-2.00   sec  1.11 GBytes  9.53 Gbits/sec                  \n' +
        '- - - - - - - - - - - - - - - - - - - - - - - - -\n' +
        '[ ID] Interval           Transfer     Bitrate\n' +
        '[  5]   0.00-2.04   sec  2.22 GBytes  9.34 Gbits/sec                  receiver\n',
    );
  });

  it('a -R test makes the server the sender with Retr/Cwnd columns', () => {
    const s = formatIperf3ServerText(run({ reverse: true, seconds: 1, bytesPer: () => slideBytes }));
    expect(s).toContain('[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n');
    expect(s).toContain('[  5]   0.00-1.00   sec  1.11 GBytes  9.53 Gbits/sec    0             sender\n');
    expect(s).not.toContain('receiver');
  });
});

describe('formatIperf3Json', () => {
  it('has iperf3 -J keys for TCP', () => {
    const data = run({ streams: 2, seconds: 2, bytesPer: () => slideBytes });
    const doc = formatIperf3Json(data);
    expect(Object.keys(doc)).toEqual(['start', 'intervals', 'end']);
    const start = doc.start as Record<string, unknown>;
    expect(Object.keys(start)).toEqual([
      'connected',
      'version',
      'system_info',
      'timestamp',
      'connecting_to',
      'cookie',
      'tcp_mss_default',
      'sock_bufsize',
      'sndbuf_actual',
      'rcvbuf_actual',
      'test_start',
    ]);
    expect(start.version).toBe('iperf 3.16');
    expect(Object.keys(start.test_start as object)).toEqual([
      'protocol',
      'num_streams',
      'blksize',
      'omit',
      'duration',
      'bytes',
      'blocks',
      'reverse',
      'tos',
      'target_bitrate',
      'bidir',
      'fqrate',
      'interval',
    ]);
    const it0 = (doc.intervals as Record<string, unknown>[])[0]!;
    const s0 = (it0.streams as Record<string, unknown>[])[0]!;
    expect(Object.keys(s0)).toEqual([
      'socket',
      'start',
      'end',
      'seconds',
      'bytes',
      'bits_per_second',
      'retransmits',
      'snd_cwnd',
      'snd_wnd',
      'rtt',
      'rttvar',
      'pmtu',
      'omitted',
      'sender',
    ]);
    expect(s0.bits_per_second).toBe(9.53e9);
    expect(it0.sum).toMatchObject({ start: 0, end: 1, bytes: 2 * slideBytes, retransmits: 0, sender: true });
    const end = doc.end as Record<string, unknown>;
    expect(Object.keys(end)).toEqual([
      'streams',
      'sum_sent',
      'sum_received',
      'cpu_utilization_percent',
      'sender_tcp_congestion',
      'receiver_tcp_congestion',
    ]);
    const es = (end.streams as Record<string, Record<string, unknown>>[])[0]!;
    expect(Object.keys(es.sender!)).toEqual([
      'socket',
      'start',
      'end',
      'seconds',
      'bytes',
      'bits_per_second',
      'retransmits',
      'max_snd_cwnd',
      'max_snd_wnd',
      'max_rtt',
      'min_rtt',
      'mean_rtt',
      'sender',
    ]);
    expect(es.receiver).toEqual({
      socket: 5,
      start: 0,
      end: 2.04,
      seconds: 2,
      bytes: 2 * slideBytes,
      bits_per_second: (2 * slideBytes * 8) / 2.04,
      sender: true,
    });
    expect(end.cpu_utilization_percent).toEqual({
      host_total: 12.5,
      host_user: 0.5,
      host_system: 12,
      remote_total: 30.25,
      remote_user: 1.25,
      remote_system: 29,
    });
    expect(end.sender_tcp_congestion).toBe('cubic');
  });

  it('UDP end has udp streams, sum, sum_sent and sum_received', () => {
    const doc = formatIperf3Json(
      run({
        protocol: 'udp',
        seconds: 1,
        bytesPer: () => 9000 * 100,
        packetsPer: () => 100,
        lostPer: () => 2,
      }),
    );
    const end = doc.end as Record<string, unknown>;
    expect(Object.keys(end)).toEqual([
      'streams',
      'sum',
      'sum_sent',
      'sum_received',
      'cpu_utilization_percent',
    ]);
    expect((end.streams as Record<string, unknown>[])[0]!.udp).toMatchObject({
      jitter_ms: 0.012,
      lost_packets: 2,
      packets: 100,
      lost_percent: 2,
      out_of_order: 0,
      sender: true,
    });
    expect(end.sum).toMatchObject({ lost_packets: 2, packets: 100, lost_percent: 2 });
    const s0 = ((doc.intervals as Record<string, unknown>[])[0]!.streams as Record<string, unknown>[])[0]!;
    expect(Object.keys(s0)).toEqual([
      'socket',
      'start',
      'end',
      'seconds',
      'bytes',
      'bits_per_second',
      'packets',
      'omitted',
      'sender',
    ]);
  });

  it('serializes like cJSON_Print', () => {
    const text = serializeIperf3Json(formatIperf3Json(run({ seconds: 1, bytesPer: () => slideBytes })));
    expect(text.startsWith('{\n\t"start":\t{\n\t\t"connected":\t[{\n\t\t\t\t"socket":\t5,\n')).toBe(true);
    expect(text).toContain('\t\t\t}],\n\t\t"version":\t"iperf 3.16",\n');
    expect(text).toContain('"bytes":\t1191250000,');
    expect(text).toContain('"bits_per_second":\t9530000000,');
    expect(text).toContain('"omitted":\tfalse,');
    expect(text.endsWith('}\n')).toBe(true);
    // cJSON 1.7.15 keeps "%1.15g" when it is within DBL_EPSILON of the value, so compare loosely.
    const near = (a: unknown, b: unknown): boolean => {
      if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= Math.abs(b) * 4e-16;
      if (a && b && typeof a === 'object' && typeof b === 'object') {
        const ka = Object.keys(a);
        return (
          ka.join() === Object.keys(b).join() &&
          ka.every((k) => near((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
        );
      }
      return a === b;
    };
    const doc = formatIperf3Json(run({ seconds: 1, bytesPer: () => slideBytes }));
    expect(near(JSON.parse(text), doc)).toBe(true);
    expect(text).toContain('"bits_per_second":\t9163461538.46154,');
  });

  it('is deterministic and fast', () => {
    const data = run({ streams: 8, seconds: 60, bytesPer: (i, t) => 1e8 + i * 1000 + t });
    const t0 = performance.now();
    for (let k = 0; k < 20; k++) formatIperf3Text(data, { format: 'a' });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(formatIperf3Text(data, { format: 'a' })).toBe(formatIperf3Text(data, { format: 'a' }));
  });
});
