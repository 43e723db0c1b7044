/**
 * ApacheBench 2.3 (httpd 2.4 support/ab.c): `ab [-n N] [-c C] [-k] [-s S] [-t S] [-q] URL` against
 * the lab's web server (apps/http.ts). C requests run at once, each on a new TCP connection (flow
 * setup and a conntrack entry each) unless -k keeps them alive; connect, waiting and total times
 * are measured per request and reported in ab's layout (output_results) with its median,
 * percentiles and ap_round_ms rounding. Errors as ab prints them (apr_sockaddr_info_get,
 * "apr_socket_recv: Connection refused (111)", "apr_pollset_poll: The timeout specified has
 * expired (70007)", with ab's exit codes) and "Total of N requests completed" after them.
 * Other options are refused as not simulated; the usage text lists the modelled ones.
 */
import { HttpConnection, resolveHost, resolveResource, responseHeaders } from '../../apps/http';
import type { Instance, Lab } from '../../lab/lab';
import { rfc1123 } from '../../../lib/time';
import type { CommandOutcome, Job } from '../types';

const BANNER =
  'This is ApacheBench, Version 2.3 <$Revision: 1903618 $>\n' +
  'Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/\n' +
  'Licensed to The Apache Software Foundation, http://www.apache.org/\n\n';

const USAGE =
  'Usage: ab [options] [http[s]://]hostname[:port]/path\n' +
  'Options are:\n' +
  '    -n requests     Number of requests to perform\n' +
  '    -c concurrency  Number of multiple requests to make at a time\n' +
  '    -t timelimit    Seconds to max. to spend on benchmarking\n' +
  '                    This implies -n 50000\n' +
  '    -s timeout      Seconds to max. wait for each response\n' +
  '                    Default is 30 seconds\n' +
  '    -q              Do not show progress when doing more than 150 requests\n' +
  '    -k              Use HTTP KeepAlive feature\n' +
  '    -h              Display usage information (this message)\n' +
  "(ec2-netlab: ab's other options are not simulated)\n";

const EINVAL = 22;
/** ab 2.4's other options (apr_getopt string in ab.c main): real, but not modelled here. */
const REAL_AB_OPTIONS = 'bBpuvwiVxyzCHPXAgermIlldSTZfE';

interface AbOpts {
  requests: number;
  concurrency: number;
  keepalive: boolean;
  timeoutS: number;
  timelimitS: number;
  quiet: boolean;
  url: string;
}

function usageFail(msg: string): CommandOutcome {
  return { kind: 'done', out: { stdout: '', stderr: `${msg}${USAGE}`, exitCode: EINVAL } };
}

function parseAb(argv: string[]): AbOpts | CommandOutcome {
  const o: AbOpts = {
    requests: 1,
    concurrency: 1,
    keepalive: false,
    timeoutS: 30,
    timelimitS: 0,
    quiet: false,
    url: '',
  };
  const rest: string[] = [];
  let requestsSet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') {
      rest.push(a);
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (c === 'k') o.keepalive = true;
      else if (c === 'q') o.quiet = true;
      else if (c === 'h') return usageFail('');
      else if ('ncts'.includes(c)) {
        const v = k + 1 < a.length ? a.slice(k + 1) : argv[++i];
        if (v === undefined) return usageFail(`ab: option requires an argument -- ${c}\n`);
        const n = Number(v);
        // ab reads these with atoi/atof: trailing junk is ignored, no number is 0
        const num = Number.isFinite(n) ? n : Number.parseFloat(v) || 0;
        if (c === 'n') {
          o.requests = Math.trunc(num);
          requestsSet = true;
        } else if (c === 'c') o.concurrency = Math.trunc(num);
        else if (c === 't') {
          o.timelimitS = Math.trunc(num);
          if (!requestsSet) o.requests = 50000; // "This implies -n 50000" (ab.c: MAX_REQUESTS)
        } else o.timeoutS = Math.trunc(num);
        break;
      } else if (REAL_AB_OPTIONS.includes(c)) {
        return {
          kind: 'done',
          out: { stdout: '', stderr: `ab: option -${c} is not simulated in ec2-netlab\n`, exitCode: 2 },
        };
      } else return usageFail(`ab: illegal option -- ${c}\n`);
    }
  }
  if (rest.length !== 1) return usageFail('ab: wrong number of arguments\n');
  o.url = rest[0]!;
  if (o.concurrency < 0 || o.concurrency > 20000)
    return {
      kind: 'done',
      out: { stdout: '', stderr: 'ab: Invalid Concurrency [Range 0..20000]\n', exitCode: 1 },
    };
  if (o.requests <= 0) return usageFail('ab: Invalid number of requests\n');
  // ab keeps a record of every request (stats, xcalloc'd up front); the lab keeps one per request too
  if (o.requests > AB_MAX_REQUESTS)
    return {
      kind: 'done',
      out: {
        stdout: '',
        stderr: `ab: ec2-netlab simulates at most ${AB_MAX_REQUESTS.toLocaleString('en-US')} requests per run (-n ${o.requests})\n`,
        exitCode: 1,
      },
    };
  if (o.concurrency > o.requests)
    return usageFail('ab: Cannot use concurrency level greater than total number of requests\n');
  if (o.concurrency === 0) o.concurrency = 1;
  return o;
}

/**
 * Requests one ab run may make in the lab (-n): ab's own MAX_REQUESTS (what -t implies). Every
 * request is a TCP connection through both Nitro cards. A connection is let go once both ends have
 * closed (HttpConnection.release; the scheduler no longer keeps spent callbacks): what stays is the
 * cards' flow entries (conntrack, the flow cache), ≈ 2.8 KB per connection until they expire.
 * Measured (node --expose-gc, heap kept after the run and 130 s of idle): ab -n 10000 -c 1000
 * kept 143.6 MB before (14.4 KB per connection), 28.1 MB now; ab -n 50000 -c 100 keeps 132.4 MB
 * (what ten thousand kept before) and takes ≈ 71 s of wall time on the project's 2-core machine.
 */
export const AB_MAX_REQUESTS = 50_000;

interface ReqStat {
  /** Connect time, total time, waiting time: µs as ab keeps them (apr_time_t). */
  ctime: number;
  time: number;
  waittime: number;
}

const roundMs = (us: number) => Math.floor((us + 500) / 1000);

/** The "Connection Times (ms)" and percentile sections, as output_results computes them. */
export function connectionTimes(stats: ReqStat[]): string {
  const count = stats.length;
  const sum = (f: (s: ReqStat) => number) => stats.reduce((a, s) => a + f(s), 0);
  const rows: Array<[string, (s: ReqStat) => number]> = [
    ['Connect:    ', (s) => s.ctime],
    ['Processing: ', (s) => s.time - s.ctime],
    ['Waiting:    ', (s) => s.waittime],
    ['Total:      ', (s) => s.time],
  ];
  let out = '\nConnection Times (ms)\n              min  mean[+/-sd] median   max\n';
  for (const [label, f] of rows) {
    const vals = stats.map(f);
    const min = Math.min(...vals);
    const max = Math.max(...vals);
    const mean = Math.floor(sum(f) / count); // apr_time_t integer division
    let sd = 0;
    for (const v of vals) sd += (v - mean) ** 2;
    sd = count > 1 ? Math.sqrt(sd / (count - 1)) : 0;
    const sorted = [...vals].sort((a, b) => a - b);
    // ab's median: the mean of the two middle samples when the count is odd (sic), else the upper middle
    const median =
      count > 1 && count % 2
        ? Math.floor((sorted[count >> 1]! + sorted[(count >> 1) + 1]!) / 2)
        : sorted[count >> 1]!;
    out +=
      `${label}${String(roundMs(min)).padStart(5)} ${String(roundMs(mean)).padStart(4)} ${(sd / 1000).toFixed(1).padStart(5)} ` +
      `${String(roundMs(median)).padStart(6)} ${String(roundMs(max)).padStart(7)}\n`;
  }
  if (count > 1) {
    const byTime = [...stats].sort((a, b) => a.time - b.time);
    out += '\nPercentage of the requests served within a certain time (ms)\n';
    for (const p of [50, 66, 75, 80, 90, 95, 98, 99, 100]) {
      if (p >= 100)
        out += ` 100%  ${String(roundMs(byTime[count - 1]!.time)).padStart(5)} (longest request)\n`;
      else out += `  ${p}%  ${String(roundMs(byTime[Math.floor((count * p) / 100)]!.time)).padStart(5)}\n`;
    }
  }
  return out;
}

export function runAb(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  const parsed = parseAb(argv);
  if ('kind' in parsed) return parsed;
  const o = parsed;
  const m = /^(https?):\/\/([^/:]+)(?::(\d+))?(\/.*)$/.exec(o.url);
  if (!m) return usageFail('ab: invalid URL\n');
  const scheme = m[1]!;
  const hostname = m[2]!;
  const port = m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80;
  const path = m[4]!;
  const target = resolveHost(lab, hostname);
  if (!target) {
    return {
      kind: 'done',
      out: {
        stdout: BANNER,
        stderr: `apr_sockaddr_info_get() for ${hostname}: Name or service not known (670002)\n`,
        exitCode: 670002 & 255,
      },
    };
  }
  if (target === self)
    return {
      kind: 'done',
      out: {
        stdout: '',
        stderr: 'ab: connections to the instance itself (loopback) are not simulated in ec2-netlab\n',
        exitCode: 2,
      },
    };
  const res = resolveResource(path);
  const headers = responseHeaders(
    res,
    rfc1123(lab.wallClockStartS + Math.floor(lab.nowNs / 1e9)),
    o.keepalive,
  );
  const request =
    `GET ${path} HTTP/1.0\r\n` +
    (o.keepalive ? 'Connection: Keep-Alive\r\n' : '') +
    `Host: ${hostname}${port !== (scheme === 'https' ? 443 : 80) ? `:${port}` : ''}\r\n` +
    'User-Agent: ApacheBench/2.3\r\nAccept: */*\r\n\r\n';
  const heartbeat = !o.quiet && o.requests > 150 ? Math.max(100, Math.floor(o.requests / 10)) : 0;

  const start = lab.nowNs;
  const stats: ReqStat[] = [];
  let started = 0;
  let doneCount = 0;
  let doneKa = 0;
  let lastEventNs = start;
  let lastDoneNs = start;
  let fatal: { msg: string; code: number } | null = null;
  let interrupted = false;
  let progress = '';
  const timeLimitNs = o.timelimitS > 0 ? o.timelimitS * 1e9 : Number.POSITIVE_INFINITY;
  const timeoutNs = o.timeoutS * 1e9;

  const finished = () =>
    doneCount >= o.requests || fatal !== null || interrupted || lab.nowNs - start >= timeLimitNs;

  /** One of the C slots: a connection (kept with -k) running requests one after another. */
  const runSlot = (prev: HttpConnection | null) => {
    if (finished() || started >= o.requests) return;
    started++;
    const reqStart = lab.nowNs;
    let connectAt = reqStart;
    const reuse = prev !== null && prev.state === 'open';
    const conn =
      reuse && prev
        ? prev
        : new HttpConnection(lab, self, target, port, {
            onConnected: (at) => {
              connectAt = at;
              lastEventNs = at;
            },
            onFailed: (why) => {
              if (!fatal && why === 'refused')
                fatal = { msg: 'apr_socket_recv: Connection refused (111)', code: 111 };
            },
          });
    if (prev && !reuse) {
      prev.close();
      conns.delete(prev);
    }
    conn.request(
      request.length,
      { headers, headerBytes: headers.length, bodyBytes: res.bodyBytes, resource: res },
      (x) => {
        const now = lab.nowNs;
        lastEventNs = now;
        lastDoneNs = now;
        const startUs = Math.floor(reqStart / 1000);
        stats.push({
          ctime: reuse ? 0 : Math.max(0, Math.floor(connectAt / 1000) - startUs),
          time: Math.max(0, Math.floor(now / 1000) - startUs),
          waittime: Math.floor(x.firstByteNs / 1000) - Math.floor(x.requestNs / 1000),
        });
        doneCount++;
        if (reuse) doneKa++;
        if (heartbeat && doneCount % heartbeat === 0) progress += `Completed ${doneCount} requests\n`;
        if (o.keepalive) runSlot(conn);
        else {
          conn.close();
          conns.delete(conn);
          runSlot(null);
        }
      },
      undefined,
      !o.keepalive, // HTTP/1.0 without keep-alive: the server closes after the response
    );
    if (!reuse) {
      conns.add(conn);
      conn.connect();
    }
  };
  /** The connections ab has open: closed when it exits (kept-alive ones with a FIN, connecting ones dropped). */
  const conns = new Set<HttpConnection>();
  for (let i = 0; i < o.concurrency; i++) runSlot(null);

  const job: Job = {
    done: () => {
      if (!finished() && lab.nowNs - lastEventNs >= timeoutNs)
        fatal = { msg: 'apr_pollset_poll: The timeout specified has expired (70007)', code: 70007 & 255 };
      return finished();
    },
    deadlineNs: () => Math.min(lab.nowNs, lastEventNs + timeoutNs, start + timeLimitNs),
    interrupt: () => {
      interrupted = true;
    },
    finish: () => {
      for (const c of conns) c.close();
      let stdout = `${BANNER}Benchmarking ${hostname} (be patient)${heartbeat ? '\n' : '...'}`;
      let stderr = progress;
      if (fatal) {
        stderr += `${fatal.msg}\n`;
        if (doneCount > 0) stdout += `Total of ${doneCount} requests completed\n`;
        return { stdout, stderr, exitCode: fatal.code, result: { completed: doneCount } };
      }
      if (interrupted && doneCount === 0) return { stdout, stderr, exitCode: 130 };
      if (heartbeat) stderr += `Finished ${doneCount} requests\n`;
      else stdout += '..done\n';
      const taken = (lastDoneNs - start) / 1e9;
      const totalRead = doneCount * (headers.length + res.bodyBytes);
      const html = doneCount * res.bodyBytes;
      let r = '\n\n';
      r += `Server Software:        nginx/1.24.0\nServer Hostname:        ${hostname}\nServer Port:            ${port}\n`;
      if (scheme === 'https')
        r +=
          'SSL/TLS Protocol:       TLSv1.3,TLS_AES_256_GCM_SHA384,2048,256\nServer Temp Key:        X25519 253 bits\n' +
          `TLS Server Name:        ${hostname}\n`;
      r += `\nDocument Path:          ${path}\nDocument Length:        ${res.bodyBytes} bytes\n\n`;
      r += `Concurrency Level:      ${o.concurrency}\nTime taken for tests:   ${taken.toFixed(3)} seconds\n`;
      r += `Complete requests:      ${doneCount}\nFailed requests:        0\n`;
      if (o.keepalive) r += `Keep-Alive requests:    ${doneKa}\n`;
      r += `Total transferred:      ${totalRead} bytes\nHTML transferred:       ${html} bytes\n`;
      if (taken > 0 && doneCount > 0) {
        r += `Requests per second:    ${(doneCount / taken).toFixed(2)} [#/sec] (mean)\n`;
        r += `Time per request:       ${((o.concurrency * taken * 1000) / doneCount).toFixed(3)} [ms] (mean)\n`;
        r += `Time per request:       ${((taken * 1000) / doneCount).toFixed(3)} [ms] (mean, across all concurrent requests)\n`;
        r += `Transfer rate:          ${(totalRead / 1024 / taken).toFixed(2)} [Kbytes/sec] received\n`;
      }
      if (doneCount > 0) r += connectionTimes(stats);
      stdout += r;
      return {
        stdout,
        stderr,
        exitCode: 0,
        result: {
          completeRequests: doneCount,
          keepAliveRequests: doneKa,
          timeTakenS: taken,
          requestsPerSecond: taken > 0 ? doneCount / taken : 0,
          totalTransferredBytes: totalRead,
        },
      };
    },
  };
  return { kind: 'job', job };
}
