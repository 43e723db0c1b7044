/**
 * iperf3's output: raw measurements of one simulated test (`Iperf3RunData`) → exactly what iperf3
 * 3.16 prints on the client (text or -J JSON) and on the server. Pure and deterministic; one pass
 * over the intervals. Keeps iperf3's quirks (the summary uses the first stream's times for every
 * stream, a server prints only its side, the UDP out-of-order line is tagged [SUM] even per stream,
 * --bidir tags [TX-C]/[RX-C]); numbers as glibc printf and unit_snprintf render them; -J as
 * cJSON_Print writes it (tabs, "%1.15g"/"%1.17g").
 *
 * Sources (esnet/iperf): src/iperf_api.c (print_interval_results, iperf_print_intermediate,
 * iperf_print_results, iperf_on_connect, connect_msg), src/iperf_locale.c, src/units.c.
 */
import { IPERF3_VERSION, type Iperf3Format, type Iperf3Options } from './iperf3-options';
import { unitSnprintf } from './iperf3-units';
import { cFixed, cG } from './printf';

// ---------------------------------------------------------------------------------------------
// Measurement contract filled by the simulation

/** One end of a connection. */
export interface Iperf3Addr {
  ip: string;
  port: number;
}

/** A data stream of the test, described from the client's point of view. */
export interface Iperf3StreamInfo {
  /** Socket number the client prints in "[  5]" (iperf3 on Linux: 5, 7, 9 …). Also the key used in intervals/end. */
  id: number;
  /** Socket number the server prints for this stream; defaults to `id`. */
  serverId?: number;
  /** True if the client sends on this stream: all streams normally, none with -R, the first half with --bidir. */
  clientSends: boolean;
  /** Client end of the data connection (ephemeral port). */
  client: Iperf3Addr;
  /** Server end of the data connection (the -p port). */
  server: Iperf3Addr;
}

/** What the sending socket measured during one interval. */
export interface Iperf3SenderSample {
  /** Payload bytes written in the interval. */
  bytes: number;
  /** UDP: datagrams sent in the interval. */
  packets?: number;
  /** TCP: segments retransmitted in the interval (tcpi_total_retrans delta). */
  retransmits?: number;
  /** TCP: congestion window at the end of the interval, bytes (tcpi_snd_cwnd × MSS). */
  sndCwndBytes?: number;
  /** TCP: peer's advertised receive window, bytes (tcpi_snd_wnd). */
  sndWndBytes?: number;
  /** TCP: smoothed RTT, microseconds (tcpi_rtt). */
  rttUs?: number;
  /** TCP: RTT variance, microseconds (tcpi_rttvar). */
  rttvarUs?: number;
  /** TCP: path MTU, bytes (tcpi_pmtu). */
  pmtuBytes?: number;
}

/** What the receiving socket measured during one interval. */
export interface Iperf3ReceiverSample {
  /** Payload bytes read in the interval. */
  bytes: number;
  /** UDP: datagrams expected in the interval from the sequence numbers (received + lost) — iperf3's "Total". */
  packets?: number;
  /** UDP: datagrams lost in the interval (sequence gaps). */
  lostPackets?: number;
  /** UDP: RFC 1889 jitter at the end of the interval, milliseconds. */
  jitterMs?: number;
  /** UDP: datagrams received out of order in the interval. */
  outOfOrder?: number;
}

/** One stream during one reporting interval; both ends' measurements, each side prints its own. */
export interface Iperf3IntervalStream {
  /** `Iperf3StreamInfo.id`. */
  id: number;
  /** Interval start/end, seconds since the stream's test start (0.00-1.00 …). */
  startSec: number;
  endSec: number;
  /** True inside the -O omit period: printed with "(omitted)". */
  omitted?: boolean;
  sender: Iperf3SenderSample;
  receiver: Iperf3ReceiverSample;
}

export interface Iperf3Interval {
  /** One entry per stream, in `Iperf3RunData.streams` order. */
  streams: Iperf3IntervalStream[];
}

/** Whole-test totals of one stream (omit period excluded). */
export interface Iperf3StreamEnd {
  id: number;
  sender: {
    /** Bytes the sender wrote. */
    bytes: number;
    /** TCP: total retransmits. */
    retransmits?: number;
    /** TCP: largest cwnd seen, bytes. */
    maxSndCwndBytes?: number;
    /** TCP: largest send window seen, bytes. */
    maxSndWndBytes?: number;
    /** TCP: largest / smallest / mean of the per-interval RTT samples, microseconds. */
    maxRttUs?: number;
    minRttUs?: number;
    meanRttUs?: number;
    /** UDP: datagrams sent. */
    packets?: number;
  };
  receiver: {
    /** Bytes the receiver read. */
    bytes: number;
    /** UDP: datagrams expected from the sequence numbers (received + lost). */
    packets?: number;
    /** UDP: datagrams lost. */
    lostPackets?: number;
    /** UDP: final jitter, milliseconds. */
    jitterMs?: number;
    /** UDP: datagrams received out of order. */
    outOfOrder?: number;
  };
}

/** CPU use during the test, percent (iperf3's cpu_util: host = the side printing, remote = the peer). */
export interface Iperf3CpuUtil {
  total: number;
  user: number;
  system: number;
}

/** Everything one simulated iperf3 test measured; the formatters derive every printed figure from it. */
export interface Iperf3RunData {
  /** "iperf 3.16" unless overridden. */
  version?: string;
  /** uname line of the client host ("Linux ip-10-0-0-10 6.1… x86_64"), JSON "system_info". */
  systemInfo: string;
  /** Test start in RFC 1123 form and as Unix seconds (JSON "timestamp"); supplied by the simulation clock. */
  timestamp: { time: string; timesecs: number };
  /** 36-character test cookie (JSON "cookie"). */
  cookie: string;

  protocol: 'tcp' | 'udp';
  /** -P. */
  numStreams: number;
  /** Block size actually used (TCP: -l or 131072; UDP: -l or the control connection's MSS). */
  blksizeBytes: number;
  /** test duration as iperf3 reports it (0 with -n). */
  durationSec: number;
  /** -n bytes, 0 if not given. */
  bytes: number;
  /** -O seconds. */
  omitSec: number;
  reverse: boolean;
  bidir: boolean;
  /** -b target (UDP default 1048576), 0 = unlimited. */
  targetBitrateBps: number;
  /** -i seconds (0 = no periodic reports). */
  intervalSec: number;
  /** IP TOS byte (always 0 unless -S were simulated). */
  tos?: number;

  /** The server as typed after -c ("Connecting to host app-server, port 5201"). */
  serverHost: string;
  serverPort: number;
  /** The control connection: the server prints "Accepted connection from <client.ip>, port <client.port>". */
  control: { client: Iperf3Addr; server: Iperf3Addr };
  /** MSS of the control connection (JSON "tcp_mss_default"). */
  tcpMssDefault: number;
  /** -M value if given (JSON "tcp_mss" replaces "tcp_mss_default"). */
  tcpMss?: number;
  /** -w request (0 = autotuning) and the socket buffer sizes the kernel granted. */
  sockBufsize: number;
  sndbufActual: number;
  rcvbufActual: number;
  /** Congestion control in use on each host (JSON sender/receiver_tcp_congestion); "cubic" if absent. */
  congestion?: { client: string; server: string };

  /** Data streams in creation order (with --bidir: the client's sending streams first). */
  streams: Iperf3StreamInfo[];
  /** Reporting intervals in time order (with -i 0: one interval covering the whole test). */
  intervals: Iperf3Interval[];
  end: {
    /** Test length as measured by the sending side and by the receiving side, seconds. */
    senderSeconds: number;
    receiverSeconds: number;
    streams: Iperf3StreamEnd[];
  };
  cpu: { client: Iperf3CpuUtil; server: Iperf3CpuUtil };
  /** The client was interrupted (Ctrl-C): no "iperf Done."; the runner adds IPERF3_CLIENT_INTERRUPT_STDERR. */
  interrupted?: boolean;
}

/** What the client prints on stderr after an interrupted test (iperf_got_sigend → iperf_errexit, exit 1). */
export const IPERF3_CLIENT_INTERRUPT_STDERR = 'iperf3: interrupt - the client has terminated\n';

const d3 = (n: number): string => String(n).padStart(3);
const f62 = (x: number): string => cFixed(x, 2).padStart(6);
const f62l = (x: number): string => cFixed(x, 2).padEnd(6);
const f41 = (x: number): string => cFixed(x, 1).padStart(4);
const f53 = (x: number): string => cFixed(x, 3).padStart(5);

// ---------------------------------------------------------------------------------------------
// Format strings (src/iperf_locale.c)

const REPORT_BW_SEPARATOR = '- - - - - - - - - - - - - - - - - - - - - - - - -\n';
const HDR = {
  bw: '[ ID] Interval           Transfer     Bitrate\n',
  bwBidir: '[ ID][Role] Interval           Transfer     Bitrate\n',
  retrans: '[ ID] Interval           Transfer     Bitrate         Retr\n',
  retransBidir: '[ ID][Role] Interval           Transfer     Bitrate         Retr\n',
  retransCwnd: '[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n',
  retransCwndBidir: '[ ID][Role] Interval           Transfer     Bitrate         Retr  Cwnd\n',
  udp: '[ ID] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n',
  udpBidir: '[ ID][Role] Interval           Transfer     Bitrate         Jitter    Lost/Total Datagrams\n',
  udpSender: '[ ID] Interval           Transfer     Bitrate         Total Datagrams\n',
};

/** "[%3d]%s %6.2f-%-6.2f sec  %ss  %ss/sec" — the common head of every data line. */
function head(tag: string, role: string, st: number, et: number, bytes: string, rate: string): string {
  return `${tag}${role} ${f62(st)}-${f62l(et)} sec  ${bytes}s  ${rate}s/sec`;
}
const idTag = (id: number): string => `[${d3(id)}]`;

/** report_bw_format / report_sum_bw_format tail. */
const tailBw = (extra: string): string => `                  ${extra}\n`;
/** report_bw_retrans_format tail ("%3u" / "%3d"). */
const tailRetrans = (retr: number, extra: string): string => `  ${d3(retr)}             ${extra}\n`;
/** report_bw_retrans_cwnd_format tail. */
const tailRetransCwnd = (retr: number, cwnd: string, extra: string): string =>
  `  ${d3(retr)}   ${cwnd}s       ${extra}\n`;
/** report_bw_udp_format tail: "%5.3f ms  %d/%d (%.2g%%)  %s". */
const tailUdp = (jitterMs: number, lost: number, total: number, pct: number, extra: string): string =>
  `  ${f53(jitterMs)} ms  ${lost}/${total} (${cG(pct, 2)}%)  ${extra}\n`;
/** report_bw_udp_sender_format tail: " %s %d  %s" (zbuf pads under the [Role] column). */
const tailUdpSender = (zbuf: string, packets: number, extra: string): string =>
  ` ${zbuf} ${packets}  ${extra}\n`;

// ---------------------------------------------------------------------------------------------
// Shared model of "one side's view" of the test

type Side = 'c' | 's';
const SENDER = 1;
const RECEIVER = 0;
const BIDIRECTIONAL = -1;

interface View {
  side: Side;
  data: Iperf3RunData;
  tcp: boolean;
  /** iperf3's test->mode for this side. */
  mode: number;
  streams: { info: Iperf3StreamInfo; socket: number; sender: boolean }[];
  /** sender_has_retransmits while the test runs. */
  shrRunning: boolean;
  /** sender_has_retransmits / other_side_has_retransmits when the final summary prints. */
  shrFinal: boolean;
  otherFinal: boolean;
  format: Iperf3Format;
}

function makeView(side: Side, data: Iperf3RunData, format: Iperf3Format): View {
  const tcp = data.protocol === 'tcp';
  const mode = data.bidir ? BIDIRECTIONAL : (side === 'c') !== data.reverse ? SENDER : RECEIVER;
  const streams = data.streams.map((info) => ({
    info,
    socket: side === 'c' ? info.id : (info.serverId ?? info.id),
    sender: side === 'c' ? info.clientSends : !info.clientSends,
  }));
  // Linux has tcpi_total_retrans, so a TCP side that sends reports retransmits (check_sender_has_retransmits).
  const shrRunning = tcp && mode !== RECEIVER;
  // The client prints its summary after exchanging results (a receiving client learns the server's
  // flag); the server prints before the exchange and knows only its own side.
  const shrFinal = side === 'c' ? tcp : shrRunning;
  const otherFinal = side === 'c' && tcp && mode === BIDIRECTIONAL;
  return { side, data, tcp, mode, streams, shrRunning, shrFinal, otherFinal, format };
}

/** The stream groups iperf3 iterates (stream_must_be_sender per mode), in print order. */
function groups(v: View): boolean[] {
  if (v.mode === BIDIRECTIONAL) return v.side === 'c' ? [true, false] : [false, true];
  return [v.mode === SENDER];
}

function roleTag(v: View, sender: boolean): string {
  return v.mode === BIDIRECTIONAL ? `[${sender ? 'TX' : 'RX'}-${v.side === 'c' ? 'C' : 'S'}]` : '';
}

const bandwidthOf = (bytes: number, seconds: number): number => (seconds > 0 ? bytes / seconds : 0);

function intervalSample(it: Iperf3Interval, id: number): Iperf3IntervalStream | undefined {
  return it.streams.find((s) => s.id === id);
}

// ---------------------------------------------------------------------------------------------
// Text output

/** One group's samples of an interval and the totals its [SUM] line and JSON `sum` report. */
interface IntervalGroup {
  readonly samples: { readonly s: View['streams'][number]; readonly smp: Iperf3IntervalStream }[];
  bytes: number;
  /** Retransmits of the group's senders, counted when `shr`. */
  retrans: number;
  /** UDP: datagrams sent (sender group) or expected by the receiver (receiver group). */
  packets: number;
  lost: number;
  jitterSum: number;
}

function intervalGroup(v: View, it: Iperf3Interval, mustSend: boolean, shr: boolean): IntervalGroup {
  const g: IntervalGroup = { samples: [], bytes: 0, retrans: 0, packets: 0, lost: 0, jitterSum: 0 };
  for (const s of v.streams) {
    if (s.sender !== mustSend) continue;
    const smp = intervalSample(it, s.info.id);
    if (!smp) continue;
    g.samples.push({ s, smp });
    g.bytes += (s.sender ? smp.sender : smp.receiver).bytes;
    if (v.tcp) {
      if (shr && s.sender) g.retrans += smp.sender.retransmits ?? 0;
    } else if (s.sender) g.packets += smp.sender.packets ?? 0;
    else {
      g.packets += smp.receiver.packets ?? 0;
      g.lost += smp.receiver.lostPackets ?? 0;
      g.jitterSum += smp.receiver.jitterMs ?? 0;
    }
  }
  return g;
}

function printIntervals(v: View, out: string[], from = 0): void {
  const { data } = v;
  const first = v.streams[0];
  if (!first) return;
  data.intervals.forEach((it, idx) => {
    if (idx < from) return;
    // A receiving client learns the peer's retransmit flag before it prints the final interval,
    // which only matters for the header when that interval is also the first (-i 0).
    const printedAtEnd = idx === data.intervals.length - 1 && data.intervalSec === 0;
    const shr = v.side === 'c' && printedAtEnd ? v.shrFinal : v.shrRunning;
    const firstSample = intervalSample(it, first.info.id);
    for (const mustSend of groups(v)) {
      const mbuf = roleTag(v, mustSend);
      const zbuf = v.mode === BIDIRECTIONAL ? '          ' : '';
      const g = intervalGroup(v, it, mustSend, shr);
      for (const { s, smp } of g.samples) {
        if (s === first) {
          if (idx === 0) out.push(intervalHeader(v, shr));
          else if (data.numStreams > 1) out.push(REPORT_BW_SEPARATOR);
        }
        out.push(streamIntervalLine(v, s, smp, shr, mbuf, zbuf));
      }
      if (data.numStreams > 1 && firstSample) {
        // Timing of the sum comes from the first stream (iperf_print_intermediate).
        const st = firstSample.startSec;
        const et = firstSample.endSec;
        const rate = unitSnprintf(bandwidthOf(g.bytes, et - st), v.format);
        const h = head('[SUM]', mbuf, st, et, unitSnprintf(g.bytes, 'A'), rate);
        const omitted = firstSample.omitted ? '(omitted)' : '';
        if (v.tcp) {
          out.push(h + (shr && mustSend ? tailRetrans(g.retrans, omitted) : tailBw(omitted)));
        } else if (mustSend) out.push(h + tailUdpSender(zbuf, g.packets, omitted));
        else {
          const pct = g.packets > 0 ? (100 * g.lost) / g.packets : 0;
          out.push(h + tailUdp(g.jitterSum / data.numStreams, g.lost, g.packets, pct, omitted));
        }
      }
    }
  });
}

function intervalHeader(v: View, shr: boolean): string {
  const bidir = v.mode === BIDIRECTIONAL;
  if (v.tcp) {
    if (shr) return bidir ? HDR.retransCwndBidir : HDR.retransCwnd;
    return bidir ? HDR.bwBidir : HDR.bw;
  }
  if (v.mode === SENDER) return HDR.udpSender;
  if (v.mode === RECEIVER) return HDR.udp;
  return HDR.udpBidir;
}

function streamIntervalLine(
  v: View,
  s: View['streams'][number],
  smp: Iperf3IntervalStream,
  shr: boolean,
  mbuf: string,
  zbuf: string,
): string {
  const local = s.sender ? smp.sender : smp.receiver;
  const st = smp.startSec;
  const et = smp.endSec;
  const h = head(
    idTag(s.socket),
    mbuf,
    st,
    et,
    unitSnprintf(local.bytes, 'A'),
    unitSnprintf(bandwidthOf(local.bytes, et - st), v.format),
  );
  const omitted = smp.omitted ? '(omitted)' : '';
  if (v.tcp) {
    if (shr && s.sender) {
      const cwnd = unitSnprintf(smp.sender.sndCwndBytes ?? 0, 'A');
      return h + tailRetransCwnd(smp.sender.retransmits ?? 0, cwnd, omitted);
    }
    return h + tailBw(omitted);
  }
  if (s.sender) return h + tailUdpSender(zbuf, smp.sender.packets ?? 0, omitted);
  const total = smp.receiver.packets ?? 0;
  const lost = smp.receiver.lostPackets ?? 0;
  const pct = total > 0 ? (100 * lost) / total : 0;
  return h + tailUdp(smp.receiver.jitterMs ?? 0, lost, total, pct, omitted);
}

function streamEnd(data: Iperf3RunData, id: number): Iperf3StreamEnd {
  return data.end.streams.find((e) => e.id === id) ?? { id, sender: { bytes: 0 }, receiver: { bytes: 0 } };
}

/** sender_time / receiver_time as iperf3 takes them: from the first stream, with its local clock. */
function endTimes(v: View): { senderTime: number; receiverTime: number; endTime: number } {
  const first = v.streams[0];
  const { senderSeconds, receiverSeconds } = v.data.end;
  if (!first) return { senderTime: 0, receiverTime: 0, endTime: 0 };
  // The server prints before results are exchanged: the peer's time falls back to its own.
  if (first.sender) {
    const receiverTime = v.side === 'c' ? receiverSeconds : senderSeconds;
    return { senderTime: senderSeconds, receiverTime, endTime: senderSeconds };
  }
  const senderTime = v.side === 'c' ? senderSeconds : receiverSeconds;
  return { senderTime, receiverTime: receiverSeconds, endTime: receiverSeconds };
}

/**
 * One group of the end-of-test summary (the streams that must be senders, or not: see `groups`)
 * with the totals iperf_print_results and its JSON counterpart add up, in stream order.
 */
interface EndGroup {
  /** Whether this group's sender lines report retransmits. */
  readonly shr: boolean;
  readonly streams: { readonly socket: number; readonly sender: boolean; readonly e: Iperf3StreamEnd }[];
  sent: number;
  received: number;
  retrans: number;
  /** UDP: packets as the legacy sum counts them (the sender's count, else the receiver's). */
  packets: number;
  senderPackets: number;
  receiverPackets: number;
  lost: number;
  jitterSum: number;
}

function endGroup(v: View, mustSend: boolean): EndGroup {
  // With --bidir the receive-side group reports the other side's retransmit capability.
  const shr = v.mode === BIDIRECTIONAL && !mustSend ? v.otherFinal : v.shrFinal;
  const g: EndGroup = {
    shr,
    streams: [],
    sent: 0,
    received: 0,
    retrans: 0,
    packets: 0,
    senderPackets: 0,
    receiverPackets: 0,
    lost: 0,
    jitterSum: 0,
  };
  for (const s of v.streams) {
    if (s.sender !== mustSend) continue;
    const e = streamEnd(v.data, s.info.id);
    g.streams.push({ socket: s.socket, sender: s.sender, e });
    g.sent += e.sender.bytes;
    g.received += e.receiver.bytes;
    if (v.tcp) {
      if (shr) g.retrans += e.sender.retransmits ?? 0;
    } else {
      const sentPackets = e.sender.packets ?? 0;
      const expected = e.receiver.packets ?? 0;
      g.packets += sentPackets || expected;
      g.senderPackets += sentPackets;
      g.receiverPackets += expected;
      g.lost += e.receiver.lostPackets ?? 0;
      g.jitterSum += e.receiver.jitterMs ?? 0;
    }
  }
  return g;
}

function printSummary(v: View, out: string[]): void {
  const { data } = v;
  const bidir = v.mode === BIDIRECTIONAL;
  out.push(REPORT_BW_SEPARATOR);
  if (v.tcp) {
    if (v.shrFinal || v.otherFinal) out.push(bidir ? HDR.retransBidir : HDR.retrans);
    else out.push(bidir ? HDR.bwBidir : HDR.bw);
  } else out.push(bidir ? HDR.udpBidir : HDR.udp);

  const { senderTime, receiverTime } = endTimes(v);
  const server = v.side === 's';
  /** The head of an end line: bytes over the whole test at their average rate. */
  const endHead = (tag: string, mbuf: string, seconds: number, bytes: number): string =>
    head(
      tag,
      mbuf,
      0,
      seconds,
      unitSnprintf(bytes, 'A'),
      unitSnprintf(bandwidthOf(bytes, seconds), v.format),
    );
  for (const mustSend of groups(v)) {
    const mbuf = roleTag(v, mustSend);
    const g = endGroup(v, mustSend);
    const { shr } = g;
    for (const { socket, sender, e } of g.streams) {
      const tag = idTag(socket);
      const sh = endHead(tag, mbuf, senderTime, e.sender.bytes);
      const rh = endHead(tag, mbuf, receiverTime, e.receiver.bytes);
      if (v.tcp) {
        if (!(server && !sender))
          out.push(sh + (shr ? tailRetrans(e.sender.retransmits ?? 0, 'sender') : tailBw('sender')));
        if (!(server && sender)) out.push(rh + tailBw('receiver'));
      } else {
        const expected = e.receiver.packets ?? 0;
        const lost = e.receiver.lostPackets ?? 0;
        if (!(server && !sender)) out.push(sh + tailUdp(0, 0, e.sender.packets ?? 0, 0, 'sender'));
        // The out-of-order count is the local socket's, and iperf3 labels it [SUM] even per stream.
        const ooo = sender ? 0 : (e.receiver.outOfOrder ?? 0);
        if (ooo > 0)
          out.push(`[SUM]${mbuf} ${f41(0)}-${f41(senderTime)} sec  ${ooo} datagrams received out-of-order\n`);
        const pct = expected > 0 ? (100 * lost) / expected : 0;
        if (!(server && sender))
          out.push(rh + tailUdp(e.receiver.jitterMs ?? 0, lost, expected, pct, 'receiver'));
      }
    }
    if (data.numStreams > 1) {
      const sh = endHead('[SUM]', mbuf, senderTime, g.sent);
      const rh = endHead('[SUM]', mbuf, receiverTime, g.received);
      if (v.tcp) {
        if (!(server && !mustSend))
          out.push(sh + (shr ? tailRetrans(g.retrans, 'sender') : tailBw('sender')));
        if (!(server && mustSend)) out.push(rh + tailBw('receiver'));
      } else {
        const pct = g.packets > 0 ? (100 * g.lost) / g.packets : 0;
        if (!(server && !mustSend)) out.push(sh + tailUdp(0, 0, g.senderPackets, 0, 'sender'));
        if (!(server && mustSend))
          out.push(rh + tailUdp(g.jitterSum / data.numStreams, g.lost, g.receiverPackets, pct, 'receiver'));
      }
    }
  }
}

function connectedLine(socket: number, local: Iperf3Addr, remote: Iperf3Addr): string {
  return `[${d3(socket)}] local ${local.ip} port ${local.port} connected to ${remote.ip} port ${remote.port}\n`;
}

/** Prefix each line with "-T title:  " as iperf_printf does on the client. */
function withTitle(lines: string[], title: string | undefined): string {
  if (title === undefined) return lines.join('');
  return lines.map((l) => `${title}:  ${l}`).join('');
}

/**
 * The client's text output (stdout) for a finished (or interrupted) test, exactly as iperf3 prints
 * it: connection lines, interval reports, the summary and "iperf Done.".
 */
export function formatIperf3Text(data: Iperf3RunData, opts: Pick<Iperf3Options, 'format' | 'title'>): string {
  const v = makeView('c', data, opts.format);
  const out: string[] = [];
  out.push(`Connecting to host ${data.serverHost}, port ${data.serverPort}\n`);
  if (data.reverse) out.push(`Reverse mode, remote host ${data.serverHost} is sending\n`);
  for (const s of data.streams) out.push(connectedLine(s.id, s.client, s.server));
  printIntervals(v, out);
  printSummary(v, out);
  if (!data.interrupted) {
    out.push('\n');
    out.push('iperf Done.\n');
  }
  return withTitle(out, opts.title);
}

/**
 * What the client has printed while the test runs: the connection lines and the interval reports
 * so far (iperf3 prints each interval as its timer fires). Always a prefix of `formatIperf3Text`
 * for the same data once the test ends; with -i 0 the only interval is printed at the end.
 */
export function formatIperf3TextProgress(
  data: Iperf3RunData,
  opts: Pick<Iperf3Options, 'format' | 'title'>,
  /** Streams connected so far (the leading ones in id order): their "connected to" lines print at once. */
  connected = data.streams.length,
): string {
  const v = makeView('c', data, opts.format);
  const out: string[] = [];
  out.push(`Connecting to host ${data.serverHost}, port ${data.serverPort}\n`);
  const up = data.intervals.length > 0 ? data.streams.length : Math.min(connected, data.streams.length);
  if (up === 0) return withTitle(out, opts.title);
  if (data.reverse) out.push(`Reverse mode, remote host ${data.serverHost} is sending\n`);
  for (const s of data.streams.slice(0, up)) out.push(connectedLine(s.id, s.client, s.server));
  if (data.intervals.length === 0 || data.intervalSec === 0) return withTitle(out, opts.title);
  printIntervals(v, out);
  return withTitle(out, opts.title);
}

/**
 * The interval reports from interval `from` on, as formatIperf3TextProgress prints them after
 * those before: a running test's text grows by these (each interval's lines depend on it alone),
 * so it is not drawn again whole every simulated second.
 */
export function formatIperf3IntervalsFrom(
  data: Iperf3RunData,
  opts: Pick<Iperf3Options, 'format' | 'title'>,
  from: number,
): string {
  if (data.intervalSec === 0) throw new RangeError('-i 0: the only interval prints at the end');
  const out: string[] = [];
  printIntervals(makeView('c', data, opts.format), out, from);
  return withTitle(out, opts.title);
}

/** The banner `iperf3 -s` prints while waiting for test number `testNumber` (1-based). */
export function formatIperf3ServerBanner(port: number, testNumber: number): string {
  const dashes = '-----------------------------------------------------------\n';
  return `${dashes}Server listening on ${port} (test #${testNumber})\n${dashes}`;
}

/**
 * The server's report for one test (between two banners): the accepted control connection, the
 * streams, interval reports from the server's side and the server's half of the summary.
 */
export function formatIperf3ServerText(data: Iperf3RunData, opts: { format?: Iperf3Format } = {}): string {
  const v = makeView('s', data, opts.format ?? 'a');
  const out: string[] = [];
  out.push(`Accepted connection from ${data.control.client.ip}, port ${data.control.client.port}\n`);
  for (const s of v.streams) out.push(connectedLine(s.socket, s.info.server, s.info.client));
  printIntervals(v, out);
  printSummary(v, out);
  return out.join('');
}

// ---------------------------------------------------------------------------------------------
// JSON output (-J)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * The client's -J document with iperf3's keys and key order (start, intervals, end). Numbers are
 * plain JS numbers; `serializeIperf3Json` prints it byte-for-byte like iperf3.
 */
export function formatIperf3Json(data: Iperf3RunData, opts: Pick<Iperf3Options, 'title'> = {}): JsonObject {
  const v = makeView('c', data, 'a');
  const start: JsonObject = {
    connected: data.streams.map((s) => ({
      socket: s.id,
      local_host: s.client.ip,
      local_port: s.client.port,
      remote_host: s.server.ip,
      remote_port: s.server.port,
    })),
    version: data.version ?? IPERF3_VERSION,
    system_info: data.systemInfo,
    timestamp: { time: data.timestamp.time, timesecs: data.timestamp.timesecs },
    connecting_to: { host: data.serverHost, port: data.serverPort },
    cookie: data.cookie,
  };
  if (v.tcp) {
    if (data.tcpMss !== undefined) start.tcp_mss = data.tcpMss;
    else start.tcp_mss_default = data.tcpMssDefault;
    if (data.targetBitrateBps) start.target_bitrate = data.targetBitrateBps;
  }
  start.sock_bufsize = data.sockBufsize;
  start.sndbuf_actual = data.sndbufActual;
  start.rcvbuf_actual = data.rcvbufActual;
  start.test_start = {
    protocol: v.tcp ? 'TCP' : 'UDP',
    num_streams: data.numStreams,
    blksize: data.blksizeBytes,
    omit: data.omitSec,
    duration: data.durationSec,
    bytes: data.bytes,
    blocks: 0,
    reverse: data.reverse ? 1 : 0,
    tos: data.tos ?? 0,
    target_bitrate: data.targetBitrateBps,
    bidir: data.bidir ? 1 : 0,
    fqrate: 0,
    interval: data.intervalSec,
  };

  const intervals: Json[] = data.intervals.map((it, idx) => jsonInterval(v, it, idx));
  const doc: JsonObject = { start, intervals, end: jsonEnd(v) };
  if (opts.title !== undefined) doc.title = opts.title;
  return doc;
}

function jsonInterval(v: View, it: Iperf3Interval, idx: number): JsonObject {
  const { data } = v;
  const printedAtEnd = idx === data.intervals.length - 1 && data.intervalSec === 0;
  const shr = printedAtEnd ? v.shrFinal : v.shrRunning;
  const streams: Json[] = [];
  const obj: JsonObject = { streams };
  const first = v.streams[0] ? intervalSample(it, v.streams[0].info.id) : undefined;
  groups(v).forEach((mustSend, gi) => {
    const g = intervalGroup(v, it, mustSend, shr);
    for (const { s, smp } of g.samples) {
      const local = s.sender ? smp.sender : smp.receiver;
      const seconds = smp.endSec - smp.startSec;
      const base: JsonObject = {
        socket: s.socket,
        start: smp.startSec,
        end: smp.endSec,
        seconds,
        bytes: local.bytes,
        bits_per_second: bandwidthOf(local.bytes, seconds) * 8,
      };
      if (v.tcp) {
        if (shr && s.sender) {
          Object.assign(base, {
            retransmits: smp.sender.retransmits ?? 0,
            snd_cwnd: smp.sender.sndCwndBytes ?? 0,
            snd_wnd: smp.sender.sndWndBytes ?? 0,
            rtt: smp.sender.rttUs ?? 0,
            rttvar: smp.sender.rttvarUs ?? 0,
            pmtu: smp.sender.pmtuBytes ?? 0,
          });
        }
      } else if (s.sender) base.packets = smp.sender.packets ?? 0;
      else {
        const total = smp.receiver.packets ?? 0;
        const l = smp.receiver.lostPackets ?? 0;
        Object.assign(base, {
          jitter_ms: smp.receiver.jitterMs ?? 0,
          lost_packets: l,
          packets: total,
          lost_percent: total > 0 ? (100 * l) / total : 0,
        });
      }
      base.omitted = smp.omitted ?? false;
      base.sender = s.sender;
      streams.push(base);
    }
    if (!first) return;
    const seconds = first.endSec - first.startSec;
    const sum: JsonObject = {
      start: first.startSec,
      end: first.endSec,
      seconds,
      bytes: g.bytes,
      bits_per_second: bandwidthOf(g.bytes, seconds) * 8,
    };
    if (v.tcp) {
      if (shr && mustSend) sum.retransmits = g.retrans;
    } else if (mustSend) sum.packets = g.packets;
    else
      Object.assign(sum, {
        jitter_ms: g.jitterSum / data.numStreams,
        lost_packets: g.lost,
        packets: g.packets,
        lost_percent: g.packets > 0 ? (100 * g.lost) / g.packets : 0,
      });
    sum.omitted = first.omitted ?? false;
    sum.sender = mustSend;
    obj[gi === 0 ? 'sum' : 'sum_bidir_reverse'] = sum;
  });
  return obj;
}

/** start/end/seconds/bytes/bits_per_second, the head of every end-of-test JSON object. */
function jsonSpan(end: number, seconds: number, bytes: number, rateSeconds: number): JsonObject {
  return { start: 0, end, seconds, bytes, bits_per_second: bandwidthOf(bytes, rateSeconds) * 8 };
}

function jsonEnd(v: View): JsonObject {
  const { data } = v;
  const streams: Json[] = [];
  const end: JsonObject = { streams };
  const { senderTime, receiverTime, endTime } = endTimes(v);
  const gs = groups(v);
  gs.forEach((mustSend, gi) => {
    const suffix = gi === 0 ? '' : '_bidir_reverse';
    const g = endGroup(v, mustSend);
    for (const { socket, e } of g.streams) {
      if (v.tcp) {
        const sender: JsonObject = {
          socket,
          ...jsonSpan(senderTime, senderTime, e.sender.bytes, senderTime),
        };
        if (g.shr) {
          Object.assign(sender, {
            retransmits: e.sender.retransmits ?? 0,
            max_snd_cwnd: e.sender.maxSndCwndBytes ?? 0,
            max_snd_wnd: e.sender.maxSndWndBytes ?? 0,
            max_rtt: e.sender.maxRttUs ?? 0,
            min_rtt: e.sender.minRttUs ?? 0,
            mean_rtt: e.sender.meanRttUs ?? 0,
          });
        }
        sender.sender = mustSend;
        const receiver: JsonObject = {
          socket,
          ...jsonSpan(receiverTime, endTime, e.receiver.bytes, receiverTime),
          sender: mustSend,
        };
        streams.push({ sender, receiver });
      } else {
        const sentPackets = e.sender.packets ?? 0;
        const lost = e.receiver.lostPackets ?? 0;
        streams.push({
          udp: {
            socket,
            ...jsonSpan(senderTime, senderTime, e.sender.bytes, senderTime),
            jitter_ms: e.receiver.jitterMs ?? 0,
            lost_packets: lost,
            packets: sentPackets || (e.receiver.packets ?? 0),
            lost_percent: sentPackets > 0 ? (100 * lost) / sentPackets : 0,
            out_of_order: e.receiver.outOfOrder ?? 0,
            sender: mustSend,
          },
        });
      }
    }
    if (v.tcp) {
      const sumSent = jsonSpan(senderTime, senderTime, g.sent, senderTime);
      if (g.shr) sumSent.retransmits = g.retrans;
      sumSent.sender = mustSend;
      end[`sum_sent${suffix}`] = sumSent;
      end[`sum_received${suffix}`] = {
        ...jsonSpan(receiverTime, receiverTime, g.received, receiverTime),
        sender: mustSend,
      };
    } else {
      const jitter = g.jitterSum / data.numStreams;
      const pct = g.packets > 0 ? (100 * g.lost) / g.packets : 0;
      // Legacy "sum": sender's bytes and rate with the receiver's loss figures (iperf_print_results).
      end[`sum${suffix}`] = {
        ...jsonSpan(receiverTime, receiverTime, g.sent, senderTime),
        jitter_ms: jitter,
        lost_packets: g.lost,
        packets: g.packets,
        lost_percent: pct,
        sender: mustSend,
      };
      // sum_sent / sum_received (esnet/iperf PR #1174, iperf 3.11+) mirror the text summary lines.
      end[`sum_sent${suffix}`] = {
        ...jsonSpan(senderTime, senderTime, g.sent, senderTime),
        jitter_ms: 0,
        lost_packets: 0,
        packets: g.senderPackets,
        lost_percent: 0,
        sender: mustSend,
      };
      end[`sum_received${suffix}`] = {
        ...jsonSpan(receiverTime, receiverTime, g.received, receiverTime),
        jitter_ms: jitter,
        lost_packets: g.lost,
        packets: g.receiverPackets,
        lost_percent: g.receiverPackets > 0 ? (100 * g.lost) / g.receiverPackets : 0,
        sender: mustSend,
      };
    }
  });
  const host = data.cpu.client;
  const remote = data.cpu.server;
  end.cpu_utilization_percent = {
    host_total: host.total,
    host_user: host.user,
    host_system: host.system,
    remote_total: remote.total,
    remote_user: remote.user,
    remote_system: remote.system,
  };
  if (v.tcp) {
    // Printed with the last group: its senders' algorithm is "sender_tcp_congestion".
    const lastGroupSends = gs[gs.length - 1]!;
    const local = data.congestion?.client ?? 'cubic';
    const remoteCc = data.congestion?.server ?? 'cubic';
    end.sender_tcp_congestion = lastGroupSends ? local : remoteCc;
    end.receiver_tcp_congestion = lastGroupSends ? remoteCc : local;
  }
  return end;
}

// ---------------------------------------------------------------------------------------------
// cJSON_Print

/** cJSON's print_number: integers in int range with %d, else %1.15g unless it does not round-trip, then %1.17g. */
function cjsonNumber(d: number): string {
  if (!Number.isFinite(d)) return 'null';
  if (Number.isInteger(d) && d <= 2147483647 && d >= -2147483648) return String(d);
  const s15 = cG(d, 15);
  const back = Number(s15);
  const maxVal = Math.max(Math.abs(back), Math.abs(d));
  if (Math.abs(back - d) <= maxVal * Number.EPSILON) return s15;
  return cG(d, 17);
}

function cjsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 32) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function cjsonValue(v: Json, depth: number): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return cjsonNumber(v);
  if (typeof v === 'string') return cjsonString(v);
  if (Array.isArray(v)) return `[${v.map((x) => cjsonValue(x, depth + 1)).join(', ')}]`;
  const inner = depth + 1;
  const tabs = '\t'.repeat(inner);
  const items = Object.entries(v).map(([k, x]) => `${tabs}${cjsonString(k)}:\t${cjsonValue(x, inner)}`);
  return `{\n${items.join(',\n')}${items.length ? '\n' : ''}${'\t'.repeat(inner - 1)}}`;
}

/** The -J document as iperf3 writes it to stdout (cJSON_Print + "\n"). */
export function serializeIperf3Json(doc: JsonObject): string {
  return `${cjsonValue(doc, 0)}\n`;
}
