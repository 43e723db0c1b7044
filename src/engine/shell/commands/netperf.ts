/**
 * `netperf` and `netserver` (netperf 2.7.1, HewlettPackard/netperf src/netsh.c, nettest_omni.c,
 * nettest_bsd.c, netlib.c, netserver.c), the tool NETFLIX18 measured EC2 with: TCP_STREAM,
 * TCP_MAERTS and UDP_STREAM run on the model through the same sockets and flows as iperf3
 * (apps/iperf3-test.ts), and print netperf's own "MIGRATED … TEST" banner and result lines
 * (send_tcp_stream / send_udp_stream / send_tcp_rr formats, format_units, calc_thruput_interval);
 * TCP_RR runs one transaction at a time on the lab's request/response connection (apps/http.ts).
 *
 * Details kept from the sources: the banner's destination address is printed empty ("to server ()")
 * because print_top_test_header passes sizeof(pointer) to inet_ntop; ": demo" is there because
 * distribution builds enable WANT_DEMO; throughput units default to 10^6bits (-f m) and follow -f;
 * -P 0 drops the banner and titles, -v 0 prints the throughput alone; messages go to stdout,
 * including establish_control's failure (exit 255). Socket sizes are what Linux reports for the
 * lab's kernel (tcp_rmem 131072, tcp_wmem 16384; UDP rmem/wmem_default 212992). The UDP_STREAM
 * message size defaults to 65507, which IP-fragments on a 9001-byte MTU (and EC2 limits fragments:
 * see the Nitro card). Not simulated (refused by name): the other request/response tests (UDP_RR,
 * TCP_CRR), CPU measurement (-c/-C), interim results (-D), confidence intervals (-i/-I), and the
 * test options other than -m/-M.
 */
import { HttpConnection } from '../../apps/http';
import { Iperf3Test } from '../../apps/iperf3-test';
import type { Instance, Lab } from '../../lab/lab';
import { type CommandOutcome, done, fail, type Job } from '../types';

const CONTROL_PORT = 12865;
/** The data connection's port on the netserver side (netserver picks one; the lab fixes it). */
const DATA_PORT = 12866;
const NETPERF_VERSION = '2.7.1';

const LISTEN_KEY = Symbol('netserver-ports');
type WithNetserver = Instance & { [LISTEN_KEY]?: Set<number> };

function netserverPorts(inst: Instance): Set<number> {
  const i = inst as WithNetserver;
  if (!i[LISTEN_KEY]) i[LISTEN_KEY] = new Set();
  return i[LISTEN_KEY]!;
}

/** `netserver [-p port] [-4] [-D]`: listens for netperf's control connection. */
export function runNetserver(argv: string[], self: Instance): CommandOutcome {
  let port = CONTROL_PORT;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-p') {
      const v = argv[++i];
      if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535)
        return fail(`netserver: invalid port '${v ?? ''}'`, 1);
      port = Number(v);
    } else if (a === '-4' || a === '-D' || a === '-f') {
      // IPv4, no daemon / no fork: the same for the lab
    } else if (a === '-V') {
      return done(`Netperf version ${NETPERF_VERSION}\n`);
    } else {
      return fail(`netserver: option ${a} is not simulated in ec2-netlab (-p, -4, -D, -f, -V)`, 1);
    }
  }
  const ports = netserverPorts(self);
  if (ports.has(port))
    return fail(
      `Starting netserver with host 'IN(6)ADDR_ANY' port '${port}' and family AF_UNSPEC\nnetserver: bind: Address already in use`,
      1,
    );
  ports.add(port);
  return done(`Starting netserver with host 'IN(6)ADDR_ANY' port '${port}' and family AF_UNSPEC\n`);
}

type Test = 'TCP_STREAM' | 'TCP_MAERTS' | 'UDP_STREAM' | 'TCP_RR';
const KNOWN_TESTS = new Set([
  'TCP_STREAM',
  'TCP_MAERTS',
  'TCP_RR',
  'TCP_CRR',
  'TCP_CC',
  'TCP_SENDFILE',
  'TCP_MSS',
  'UDP_STREAM',
  'UDP_RR',
  'OMNI',
]);

const UNITS: Record<string, { label: string; divisor: number }> = {
  // calc_thruput_interval's divisors (bytes per unit) and format_units' names
  k: { label: '10^3bits', divisor: 1000 / 8 },
  m: { label: '10^6bits', divisor: 1e6 / 8 },
  g: { label: '10^9bits', divisor: 1e9 / 8 },
  K: { label: 'KBytes', divisor: 1024 },
  M: { label: 'MBytes', divisor: 1024 * 1024 },
  G: { label: 'GBytes', divisor: 1024 * 1024 * 1024 },
};

/** C's printf %Nd / %-N.2f etc. for the few layouts netperf uses. */
const d = (v: number, w: number) => String(Math.round(v)).padStart(w);
const f = (v: number, w: number, p = 2) => v.toFixed(p).padStart(w);
const fl = (v: number, w: number, p = 2) => v.toFixed(p).padEnd(w);

interface NetperfOpts {
  host: string;
  test: Test;
  lengthS: number;
  bytes: number;
  port: number;
  units: string;
  headers: boolean;
  verbosity: number;
  sendSize?: number;
  /** TCP_RR -r req,rsp (default 1,1). */
  reqSize: number;
  rspSize: number;
}

function parseArgs(argv: string[]): NetperfOpts | CommandOutcome {
  const o: NetperfOpts = {
    host: 'localhost',
    test: 'TCP_STREAM',
    lengthS: 10,
    bytes: 0,
    port: CONTROL_PORT,
    units: 'm',
    headers: true,
    verbosity: 1,
    reqSize: 1,
    rspSize: 1,
  };
  let i = 0;
  const value = (opt: string): string | CommandOutcome => {
    const v = argv[++i];
    return v === undefined ? fail(`netperf: option requires an argument -- '${opt}'`, 1) : v;
  };
  let testName = 'TCP_STREAM';
  let explicitUnits = false;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    const opt = a.length === 2 && a.startsWith('-') ? a[1]! : '';
    switch (opt) {
      case 'H': {
        const v = value('H');
        if (typeof v !== 'string') return v;
        o.host = v.split(',')[0]!;
        break;
      }
      case 't': {
        const v = value('t');
        if (typeof v !== 'string') return v;
        testName = v.toUpperCase();
        break;
      }
      case 'l': {
        const v = value('l');
        if (typeof v !== 'string') return v;
        const n = Number(v);
        if (!Number.isFinite(n) || n === 0) return fail(`netperf: invalid test length '${v}'`, 1);
        if (n > 0) o.lengthS = n;
        else o.bytes = -n;
        break;
      }
      case 'p': {
        const v = value('p');
        if (typeof v !== 'string') return v;
        const n = Number(v.split(',')[0]);
        if (!Number.isInteger(n) || n < 1 || n > 65535) return fail(`netperf: invalid port '${v}'`, 1);
        o.port = n;
        break;
      }
      case 'f': {
        const v = value('f');
        if (typeof v !== 'string') return v;
        if (!UNITS[v]) return fail(`netperf: -f ${v} is not simulated in ec2-netlab (G|M|K|g|m|k)`, 1);
        o.units = v;
        explicitUnits = true;
        break;
      }
      case 'P': {
        const v = value('P');
        if (typeof v !== 'string') return v;
        o.headers = v !== '0';
        break;
      }
      case 'v': {
        const v = value('v');
        if (typeof v !== 'string') return v;
        o.verbosity = Number(v) || 0;
        break;
      }
      case 'V':
        return done(`Netperf version ${NETPERF_VERSION}\n`);
      case '4':
        break;
      case 'c':
      case 'C':
        return fail('netperf: CPU utilization (-c/-C) is not simulated in ec2-netlab', 1);
      case 'D':
        return fail('netperf: interim results (-D) are not simulated in ec2-netlab', 1);
      default:
        return fail(
          `netperf: option ${a} is not simulated in ec2-netlab (-H, -t, -l, -p, -f, -P, -v, -V)`,
          1,
        );
    }
  }
  if (!KNOWN_TESTS.has(testName))
    return done(
      `The test you requested (${testName}) is unknown to this netperf.\nPlease verify that you have the correct test name, \nand that test family has been compiled into this netperf.\n`,
      1,
    );
  if (
    testName !== 'TCP_STREAM' &&
    testName !== 'TCP_MAERTS' &&
    testName !== 'UDP_STREAM' &&
    testName !== 'TCP_RR'
  )
    return fail(
      `netperf: the ${testName} test is not simulated in ec2-netlab (TCP_STREAM, TCP_MAERTS, UDP_STREAM, TCP_RR)`,
      1,
    );
  o.test = testName;
  if (o.units === 'm' && !explicitUnits && o.test === 'TCP_RR') o.units = 'x';
  // test-specific options, after --
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-r' && o.test === 'TCP_RR') {
      const v = argv[++i] ?? '';
      // break_args: "a,b" sets both, "a" sets both, ",b" the second, "a," the first
      const [x, y] = v.includes(',') ? v.split(',') : [v, v];
      const req = x === '' ? o.reqSize : Number(x);
      const rsp = y === '' || y === undefined ? o.rspSize : Number(y);
      if (!Number.isInteger(req) || !Number.isInteger(rsp) || req < 1 || rsp < 1)
        return fail(`netperf: invalid request/response sizes '${v}'`, 1);
      o.reqSize = req;
      o.rspSize = rsp;
    } else if (a === '-m' || a === '-M') {
      const v = argv[++i];
      const n = Number((v ?? '').split(',')[0]);
      if (v === undefined || !Number.isInteger(n) || n < 1)
        return fail(`netperf: invalid message size '${v ?? ''}'`, 1);
      if (a === '-m') o.sendSize = n;
    } else {
      return fail(`netperf: test option ${a} is not simulated in ec2-netlab (-m, -M; -r for TCP_RR)`, 1);
    }
  }
  return o;
}

export function runNetperf(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  const parsed = parseArgs(argv);
  if ('kind' in parsed) return parsed;
  const o = parsed;
  const target = lab.resolve(o.host);
  if (!target || target === self || !netserverPorts(target).has(o.port) || target.stopped)
    return done(
      `establish control: are you sure there is a netserver listening on ${o.host} at port ${o.port}?\n` +
        `establish_control could not establish the control connection from 0.0.0.0 port 0 address family AF_UNSPEC to ${o.host} port ${o.port} address family AF_UNSPEC\n`,
      255,
    );
  if (o.test === 'TCP_RR') return runTcpRr(o, lab, self, target);
  const udp = o.test === 'UDP_STREAM';
  const sendSize = o.sendSize ?? (udp ? 65507 : 16384);
  const test = new Iperf3Test(lab, self, target, {
    protocol: udp ? 'udp' : 'tcp',
    port: DATA_PORT,
    durationNs: o.bytes > 0 ? 0 : Math.round(o.lengthS * 1e9),
    bytesLimit: o.bytes,
    parallel: 1,
    blockSizeBytes: sendSize,
    // netperf sends as fast as the socket takes it (no pacing)
    targetBitrateBps: 0,
    reverse: o.test === 'TCP_MAERTS',
    bidir: false,
    intervalNs: 0,
    serverIp: lab.addressOf(o.host) ?? target.host.ip,
  });
  test.start();
  let interrupted = false;
  const job: Job = {
    done: () => test.done(),
    deadlineNs: () => test.deadlineNs(),
    interrupt: () => {
      interrupted = true;
      test.interrupt();
    },
    finish: () => {
      const r = test.result();
      const s = r.streams[0]!;
      const elapsed = Math.max(1e-9, (r.testEndNs - r.testStartNs) / 1e9);
      const u = UNITS[o.units]!;
      const sentBytes = s.sentBytes;
      const recvBytes = s.recvBytes;
      const name = o.test.replace('_', ' ');
      const banner = o.headers
        ? `MIGRATED ${name} TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to ${o.host} () port 0 AF_INET : demo\n`
        : '';
      let text: string;
      let result: Record<string, unknown>;
      if (!udp) {
        const thruput = recvBytes / elapsed / u.divisor;
        result = { test: o.test, elapsedS: elapsed, bytes: recvBytes, throughput: thruput, units: u.label };
        text =
          o.verbosity === 0
            ? `${f(thruput, 7)} \n`
            : `${
                o.headers
                  ? 'Recv   Send    Send                          \n' +
                    'Socket Socket  Message  Elapsed              \n' +
                    'Size   Size    Size     Time     Throughput  \n' +
                    `bytes  bytes   bytes    secs.    ${u.label}/sec  \n\n`
                  : ''
              }${d(131072, 6)} ${d(16384, 6)} ${d(sendSize, 6)}    ${fl(elapsed, 6)}   ${f(thruput, 7)}   \n`;
      } else {
        const sentMsgs = Math.round(sentBytes / sendSize);
        const recvMsgs = Math.round(recvBytes / sendSize);
        const sendT = sentBytes / elapsed / u.divisor;
        const recvT = recvBytes / elapsed / u.divisor;
        result = {
          test: o.test,
          elapsedS: elapsed,
          messagesSent: sentMsgs,
          messagesReceived: recvMsgs,
          sendThroughput: sendT,
          recvThroughput: recvT,
          units: u.label,
        };
        text =
          o.verbosity === 0
            ? `${f(sendT, 7)}\n`
            : `${
                o.headers
                  ? 'Socket  Message  Elapsed      Messages                \n' +
                    'Size    Size     Time         Okay Errors   Throughput\n' +
                    `bytes   bytes    secs            #      #   ${u.label}/sec\n\n`
                  : ''
              }${d(212992, 6)}  ${d(sendSize, 6)}   ${fl(elapsed, 7)}   ${d(sentMsgs, 7)} ${d(0, 6)}    ${f(sendT, 7)}\n` +
              `${d(212992, 6)}           ${fl(elapsed, 7)}   ${d(recvMsgs, 7)}           ${f(recvT, 7)}\n\n`;
      }
      return {
        stdout: banner + (interrupted ? '' : text),
        stderr: '',
        exitCode: interrupted ? 1 : 0,
        result,
      };
    },
  };
  return { kind: 'job', job };
}

/**
 * TCP_RR: one connection, a request of -r bytes answered by a response, one transaction at a time,
 * for -l seconds (send_tcp_rr's layout; transactions per second unless -f). The exchange runs on
 * the lab's request/response connection (apps/http.ts) with netserver's own server: no TLS, no
 * per-request worker cost beyond the stack's (netserver is a recv/send loop).
 */
function runTcpRr(o: NetperfOpts, lab: Lab, self: Instance, target: Instance): CommandOutcome {
  let startNs = -1;
  let endNs = -1;
  let transactions = 0;
  let stopped = false;
  const durationNs = o.bytes > 0 ? Number.POSITIVE_INFINITY : Math.round(o.lengthS * 1e9);
  const maxTrans = o.bytes > 0 ? o.bytes : Number.POSITIVE_INFINITY;
  const resource = {
    status: 200 as const,
    contentType: 'application/octet-stream' as const,
    bodyBytes: 0,
    text: null,
  };
  const next = () => {
    conn.request(o.reqSize, { headerBytes: o.rspSize, bodyBytes: 0, headers: '', resource }, () => {
      transactions++;
      const now = lab.nowNs;
      if (stopped || now - startNs >= durationNs || transactions >= maxTrans) {
        endNs = now;
        return;
      }
      next();
    });
  };
  // the timed test starts with the first request, once the data connection is up
  const conn = new HttpConnection(lab, self, target, DATA_PORT, {
    server: { serverRequestNs: 0 },
    onConnected: (atNs) => {
      startNs = atNs;
      next();
    },
    onFailed: () => {
      endNs = lab.nowNs;
    },
  });
  conn.connect();
  const job: Job = {
    done: () => endNs >= 0,
    deadlineNs: () => (startNs >= 0 && Number.isFinite(durationNs) ? startNs + durationNs : lab.nowNs),
    interrupt: () => {
      stopped = true;
      if (endNs < 0) endNs = lab.nowNs;
    },
    finish: () => {
      const elapsed = Math.max(1e-9, (endNs - startNs) / 1e9);
      const rate = transactions / elapsed;
      const unit = o.units === 'x' ? null : UNITS[o.units]!;
      // a throughput unit: the transactions as bytes both ways (calc_thruput_interval_omni)
      const thruput = unit ? (rate * (o.reqSize + o.rspSize)) / unit.divisor : rate;
      const banner = o.headers
        ? `MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to ${o.host} () port 0 AF_INET : demo : first burst 0\n`
        : '';
      const title = !o.headers
        ? ''
        : unit
          ? 'Local /Remote\n' +
            'Socket Size   Request  Resp.   Elapsed  \n' +
            'Send   Recv   Size     Size    Time     Throughput \n' +
            `bytes  Bytes  bytes    bytes   secs.    ${unit.label}/sec   \n\n`
          : 'Local /Remote\n' +
            'Socket Size   Request  Resp.   Elapsed  Trans.\n' +
            'Send   Recv   Size     Size    Time     Rate         \n' +
            'bytes  Bytes  bytes    bytes   secs.    per sec   \n\n';
      const text =
        o.verbosity === 0
          ? `${f(thruput, 7)} \n`
          : `${title}${lp(16384, 6)} ${lp(131072, 6)} ${lp(o.reqSize, 6)}   ${lp(o.rspSize, 6)}  ${fl(elapsed, 6)}   ${f(thruput, 7)}   \n` +
            `${lp(16384, 6)} ${lp(131072, 6)}\n`;
      return {
        stdout: banner + (stopped ? '' : text),
        stderr: '',
        exitCode: stopped ? 1 : 0,
        result: {
          test: 'TCP_RR',
          elapsedS: elapsed,
          transactions,
          transactionsPerSecond: rate,
          meanLatencyUs: transactions > 0 ? 1e6 / rate : null,
        },
      };
    },
  };
  return { kind: 'job', job };
}

/** C's %-Nd. */
const lp = (v: number, w: number) => String(Math.round(v)).padEnd(w);
