/**
 * curl 8.5.0: one HTTP GET over a new TCP connection to the lab's web server (apps/http.ts), with
 * -o/-O, -s/-S, -v, -w, --connect-timeout, -m, and -k/-L accepted (nothing to redirect or
 * distrust). Output as curl prints it: the body (a binary one refused with curl's warning, exit
 * 23), the final progress meter with -o/-O, `*`/`>`/`<` lines with -v, "curl: (N) message" errors
 * with curl's exit codes (3 URL, 6 resolve, 7 connect, 28 timeout); other options refused as curl
 * or as not simulated. Names resolve through the instances' /etc/hosts, with no DNS query.
 *
 * Sources: curl/curl lib/progress.c, src/tool_cb_wrt.c, lib/connect.c.
 */
import {
  type HttpExchange,
  HttpConnection,
  requestText,
  resolveHost,
  resolveResource,
  responseHeaders,
} from '../../apps/http';
import type { Instance, Lab } from '../../lab/lab';
import { rfc1123 } from '../../../lib/time';
import { type CommandOutcome, done, type Job } from '../types';

const VERSION = 'curl/8.5.0';
const TRY = "curl: try 'curl --help' or 'curl --manual' for more information";

interface CurlOpts {
  url: string;
  output: string | null;
  remoteName: boolean;
  silent: boolean;
  showError: boolean;
  verbose: boolean;
  writeOut: string | null;
  connectTimeoutS: number;
  maxTimeS: number;
}

type Parsed = { ok: true; o: CurlOpts } | { ok: false; stderr: string; code: number };

const LONG_WITH_ARG = new Set(['output', 'write-out', 'connect-timeout', 'max-time']);
const SHORT_WITH_ARG: Record<string, string> = { o: 'output', w: 'write-out', m: 'max-time' };
const SHORT_FLAG: Record<string, string> = {
  s: 'silent',
  S: 'show-error',
  v: 'verbose',
  O: 'remote-name',
  k: 'insecure',
  L: 'location',
};
const LONG_FLAG = new Set(['silent', 'show-error', 'verbose', 'remote-name', 'insecure', 'location']);
/** Real curl options the lab does not model: refused clearly rather than ignored. */
const NOT_SIMULATED = new Set([
  'H',
  'header',
  'd',
  'data',
  'X',
  'request',
  'I',
  'head',
  'x',
  'proxy',
  'u',
  'user',
  'F',
  'form',
  'T',
  'upload-file',
  'http2',
  'http3',
  'limit-rate',
  'resolve',
  'retry',
  'compressed',
  'i',
  'include',
  'Z',
  'parallel',
]);

function parseSeconds(v: string): number | null {
  return /^(\d+\.?\d*|\.\d+)$/.test(v) ? Number(v) : null;
}

export function parseCurlArgs(argv: string[]): Parsed {
  const o: CurlOpts = {
    url: '',
    output: null,
    remoteName: false,
    silent: false,
    showError: false,
    verbose: false,
    writeOut: null,
    connectTimeoutS: 0,
    maxTimeS: 0,
  };
  const urls: string[] = [];
  const set = (name: string, val: string | undefined): Parsed | null => {
    switch (name) {
      case 'output':
        o.output = val!;
        return null;
      case 'write-out':
        o.writeOut = val!;
        return null;
      case 'connect-timeout':
      case 'max-time': {
        const n = parseSeconds(val!);
        if (n === null)
          return {
            ok: false,
            stderr: `curl: option --${name}: expected a proper numerical parameter\n${TRY}\n`,
            code: 2,
          };
        if (name === 'max-time') o.maxTimeS = n;
        else o.connectTimeoutS = n;
        return null;
      }
      case 'silent':
        o.silent = true;
        return null;
      case 'show-error':
        o.showError = true;
        return null;
      case 'verbose':
        o.verbose = true;
        return null;
      case 'remote-name':
        o.remoteName = true;
        return null;
      default:
        return null; // insecure, location: nothing to do in the lab
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = a.slice(2);
      if (eq > 0) return { ok: false, stderr: `curl: option ${a}: is unknown\n${TRY}\n`, code: 2 };
      if (NOT_SIMULATED.has(name))
        return { ok: false, stderr: `curl: option --${name} is not simulated in ec2-netlab\n`, code: 2 };
      if (LONG_WITH_ARG.has(name)) {
        const v = argv[++i];
        if (v === undefined)
          return { ok: false, stderr: `curl: option --${name}: requires parameter\n${TRY}\n`, code: 2 };
        const r = set(name, v);
        if (r) return r;
      } else if (LONG_FLAG.has(name)) set(name, undefined);
      else return { ok: false, stderr: `curl: option --${name}: is unknown\n${TRY}\n`, code: 2 };
    } else if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k]!;
        if (NOT_SIMULATED.has(c))
          return { ok: false, stderr: `curl: option -${c} is not simulated in ec2-netlab\n`, code: 2 };
        const long = SHORT_WITH_ARG[c];
        if (long) {
          const v = k + 1 < a.length ? a.slice(k + 1) : argv[++i];
          if (v === undefined)
            return { ok: false, stderr: `curl: option -${c}: requires parameter\n${TRY}\n`, code: 2 };
          const r = set(long, v);
          if (r) return r;
          break;
        }
        const flag = SHORT_FLAG[c];
        if (!flag) return { ok: false, stderr: `curl: option -${a.slice(k)}: is unknown\n${TRY}\n`, code: 2 };
        set(flag, undefined);
      }
    } else urls.push(a);
  }
  if (urls.length === 0) return { ok: false, stderr: `curl: no URL specified!\n${TRY}\n`, code: 2 };
  if (urls.length > 1)
    return {
      ok: false,
      stderr: 'curl: more than one URL in one command is not simulated in ec2-netlab\n',
      code: 2,
    };
  o.url = urls[0]!;
  return { ok: true, o };
}

interface Url {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  path: string;
  /** The URL as curl shows it (url_effective). */
  effective: string;
}

function parseUrl(raw: string): Url | { code: number; msg: string } {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):\/\/)?([^/:?#]*)(?::(\d*))?([/?#].*)?$/.exec(raw);
  if (!m) return { code: 3, msg: 'URL rejected: Malformed input to a URL function' };
  const scheme = (m[1] ?? 'http').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return { code: 1, msg: `Protocol "${scheme}" not supported` };
  const host = m[2]!;
  if (host === '') return { code: 3, msg: 'URL rejected: No host part in the URL' };
  let port = scheme === 'https' ? 443 : 80;
  if (m[3] !== undefined && m[3] !== '') {
    const n = Number(m[3]);
    if (n > 65535)
      return { code: 3, msg: 'URL rejected: Port number was not a decimal number between 0 and 65535' };
    port = n;
  }
  let path = m[4] ?? '/';
  if (path.startsWith('?')) path = `/${path}`;
  path = path.split('#')[0]!;
  const defaultPort = scheme === 'https' ? 443 : 80;
  const effective = `${scheme}://${host}${port !== defaultPort ? `:${port}` : ''}${path}`;
  return { scheme, host, port, path, effective };
}

/** lib/progress.c max5data: at most 5 columns, k/M/G/T/P suffixes (powers of 1024). */
export function max5data(bytes: number): string {
  const K = 1024;
  const M = K * K;
  const G = M * K;
  const T = G * K;
  const b = Math.floor(bytes);
  if (b < 100000) return String(b).padStart(5);
  if (b < 10000 * K) return `${String(Math.floor(b / K)).padStart(4)}k`;
  if (b < 100 * M) return `${String(Math.floor(b / M)).padStart(2)}.${Math.floor((b % M) / (M / 10))}M`;
  if (b < 10000 * M) return `${String(Math.floor(b / M)).padStart(4)}M`;
  if (b < 100 * G) return `${String(Math.floor(b / G)).padStart(2)}.${Math.floor((b % G) / (G / 10))}G`;
  if (b < 10000 * G) return `${String(Math.floor(b / G)).padStart(4)}G`;
  return `${String(Math.floor(b / T)).padStart(4)}T`;
}

/** lib/progress.c time2str: 8 columns, "--:--:--" for zero. */
function time2str(seconds: number): string {
  if (seconds <= 0) return '--:--:--';
  const h = Math.floor(seconds / 3600);
  if (h <= 99) {
    const m = Math.floor((seconds - h * 3600) / 60);
    const s = seconds - h * 3600 - m * 60;
    return `${String(h).padStart(2)}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  }
  const d = Math.floor(seconds / 86400);
  return `${String(d).padStart(3)}d ${String(Math.floor((seconds - d * 86400) / 3600)).padStart(2, '0')}h`;
}

export const PROGRESS_HEADER =
  '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
  '                                 Dload  Upload   Total   Spent    Left  Speed\n';

/** The progress meter's line (lib/progress.c) for `dl` of `size` bytes after `elapsedNs`. */
export function progressLine(dl: number, size: number | null, elapsedNs: number): string {
  const ms = Math.floor(elapsedNs / 1e6);
  const spent = Math.floor(elapsedNs / 1e9);
  const speed = Math.floor((dl * 1000) / (ms > 0 ? ms : 1));
  let pct = 0;
  let estimate = 0;
  if (size !== null && speed > 0) {
    estimate = Math.floor(size / speed);
    pct =
      size > 10000 ? Math.floor(dl / Math.floor(size / 100)) : size > 0 ? Math.floor((dl * 100) / size) : 0;
  }
  const total = size ?? dl;
  const totalPct =
    total > 10000 ? Math.floor(dl / Math.floor(total / 100)) : total > 0 ? Math.floor((dl * 100) / total) : 0;
  const p3 = (n: number) => String(n).padStart(3);
  return (
    `${p3(totalPct)} ${max5data(total)}  ${p3(pct)} ${max5data(dl)}  ${p3(0)} ${max5data(0)}  ` +
    `${max5data(speed)}  ${max5data(0)} ${time2str(estimate)} ${time2str(spent)} ${time2str(estimate > 0 ? estimate - spent : 0)} ${max5data(speed)}`
  );
}

function secs6(ns: number): string {
  const us = Math.max(0, Math.round(ns / 1000));
  return `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
}

interface Outcome {
  exitCode: number;
  error: string | null;
  timings: {
    connect: number;
    appconnect: number;
    pretransfer: number;
    starttransfer: number;
    total: number;
  };
  x: HttpExchange | null;
  bodyBytes: number;
  headerBytes: number;
  requestBytes: number;
}

/** -w: curl's write-out variables (src/tool_writeout.c) with \n \r \t escapes. */
function writeOut(
  fmt: string,
  u: Url,
  ip: string | null,
  localPort: number,
  localIp: string,
  r: Outcome,
): string {
  const code = r.x && r.x.receivedBytes > 0 ? 200 : 0;
  const dl = r.x ? Math.max(0, Math.min(r.x.receivedBytes - r.headerBytes, r.bodyBytes)) : 0;
  const hdr = r.x && r.x.receivedBytes >= r.headerBytes ? r.headerBytes : 0;
  const totalS = r.timings.total / 1e9;
  const vars: Record<string, string> = {
    time_namelookup: secs6(Math.min(1000, r.timings.total)),
    time_connect: secs6(r.timings.connect),
    time_appconnect: secs6(r.timings.appconnect),
    time_pretransfer: secs6(r.timings.pretransfer),
    time_starttransfer: secs6(r.timings.starttransfer),
    time_redirect: '0.000000',
    time_total: secs6(r.timings.total),
    http_code: String(code).padStart(3, '0'),
    response_code: String(code).padStart(3, '0'),
    http_version: code ? '1.1' : '0',
    size_download: String(dl),
    size_header: String(hdr),
    size_request: String(r.timings.pretransfer > 0 ? r.requestBytes : 0),
    size_upload: '0',
    speed_download: String(totalS > 0 ? Math.floor(dl / totalS) : 0),
    speed_upload: '0',
    remote_ip: ip ?? '',
    remote_port: ip ? String(u.port) : '',
    local_ip: r.timings.connect > 0 ? localIp : '',
    local_port: r.timings.connect > 0 ? String(localPort) : '',
    num_connects: r.timings.connect > 0 ? '1' : '0',
    num_redirects: '0',
    url_effective: u.effective,
    url: u.effective,
    scheme: u.scheme,
    content_type: r.x && hdr ? r.x.resource.contentType : '',
    exitcode: String(r.exitCode),
    errormsg: r.error ?? '',
    method: 'GET',
  };
  let out = '';
  let warn = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c === '%' && fmt[i + 1] === '{') {
      const end = fmt.indexOf('}', i);
      if (end < 0) {
        out += fmt.slice(i);
        break;
      }
      const name = fmt.slice(i + 2, end);
      const v = vars[name];
      if (v === undefined) warn += `curl: unknown --write-out variable: '${name}'\n`;
      else out += v;
      i = end;
    } else if (c === '%' && fmt[i + 1] === '%') {
      out += '%';
      i++;
    } else if (c === '\\' && i + 1 < fmt.length && 'nrt\\'.includes(fmt[i + 1]!)) {
      out += { n: '\n', r: '\r', t: '\t', '\\': '\\' }[fmt[i + 1] as 'n' | 'r' | 't' | '\\'];
      i++;
    } else out += c;
  }
  return warn + out;
}

/** The instance metadata service's address (IMDS, link-local). */
export const IMDS_HOST = '169.254.169.254';

/**
 * curl to IMDS is refused before its options are read (a script's `-X PUT -H …` token request
 * would otherwise be refused for its options): IMDS is not served over HTTP in the lab (see
 * ec2-metadata.ts for why); the message names what gives the same values.
 */
function imdsRefusal(argv: string[]): CommandOutcome | null {
  const urls = argv.map((a) => parseUrl(a)).filter((u): u is Url => !('code' in u) && u.host === IMDS_HOST);
  if (urls.length === 0) return null;
  const put = argv.some((a, i) => /^(-X|--request)$/.test(a) && argv[i + 1]?.toUpperCase() === 'PUT');
  const token = put || urls.some((u) => u.path.startsWith('/latest/api/token'));
  return done(
    '',
    7,
    undefined,
    `curl: the instance metadata service (IMDS, http://${IMDS_HOST}/)${token ? ' and its IMDSv2 session tokens (PUT /latest/api/token) are' : ' is'} ` +
      "not simulated in ec2-netlab: ec2-metadata gives the instance's metadata (ec2-metadata -i: its instance ID; " +
      '-t, -z, -o, -h, -a, --help), and aws ec2 describe-instances lists every instance\n',
  );
}

export function runCurl(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  const imds = imdsRefusal(argv);
  if (imds) return imds;
  const parsed = parseCurlArgs(argv);
  if (!parsed.ok) return { kind: 'done', out: { stdout: '', stderr: parsed.stderr, exitCode: parsed.code } };
  const o = parsed.o;
  const showErr = !o.silent || o.showError;
  const err = (code: number, msg: string, stdout = '') =>
    done(stdout, code, undefined, showErr ? `curl: (${code}) ${msg}\n` : '');
  const u = parseUrl(o.url);
  if ('code' in u) return err(u.code, u.msg);
  if (o.remoteName && /\/$/.test(u.path)) return err(23, 'Remote file name has no length');
  const target = resolveHost(lab, u.host);
  if (!target) {
    if (/^\d+\.\d+\.\d+\.\d+$/.test(u.host))
      return done(
        '',
        7,
        undefined,
        `curl: address ${u.host} is not an instance of this lab: connecting to other hosts is not simulated in ec2-netlab\n`,
      );
    return err(6, `Could not resolve host: ${u.host}`);
  }
  if (target === self)
    return done(
      '',
      2,
      undefined,
      'curl: connections to the instance itself (loopback) are not simulated in ec2-netlab\n',
    );
  const ip = target.host.ip;
  const toFile = o.output !== null || o.remoteName;
  const meter = toFile && !o.silent;
  const res = resolveResource(u.path);
  const date = rfc1123(lab.wallClockStartS + Math.floor(lab.nowNs / 1e9));
  const headers = responseHeaders(res, date);
  const hostHeader = u.port === (u.scheme === 'https' ? 443 : 80) ? u.host : `${u.host}:${u.port}`;
  const req = requestText(u.path, hostHeader, VERSION);
  const start = lab.nowNs;
  const t = { connect: 0, appconnect: 0, pretransfer: 0, starttransfer: 0, total: 0 };
  let failure: { code: number; msg: string } | null = null;
  const conn = new HttpConnection(lab, self, target, u.port, {
    onConnected: (at) => {
      t.connect = at - start;
    },
    onAppConnected: (at) => {
      t.appconnect = at - start;
    },
    onFailed: (why, at) => {
      const ms = Math.floor((at - start) / 1e6);
      failure =
        why === 'refused'
          ? {
              code: 7,
              msg: `Failed to connect to ${u.host} port ${u.port} after ${ms} ms: Couldn't connect to server`,
            }
          : {
              code: 28,
              msg: `Failed to connect to ${u.host} port ${u.port} after ${ms} ms: Couldn't connect to server`,
            };
    },
  });
  const x = {
    headers,
    headerBytes: headers.length,
    bodyBytes: res.bodyBytes,
    resource: res,
  };
  let exchange: HttpExchange | null = null;
  let finished = false;
  conn.request(req.length, x, (ex) => {
    exchange = ex;
    finished = true;
  });
  const sent = () => conn.current;
  conn.connect();
  const connectLimitNs = o.connectTimeoutS > 0 ? Math.round(o.connectTimeoutS * 1e9) : 300e9; // curl's default: 300 s
  const maxNs = o.maxTimeS > 0 ? Math.round(o.maxTimeS * 1e9) : Number.POSITIVE_INFINITY;
  let interrupted = false;
  let timedOut: { code: number; msg: string } | null = null;
  const check = () => {
    if (finished || failure || timedOut || interrupted) return;
    const el = lab.nowNs - start;
    const connecting = conn.state === 'connecting' || conn.state === 'tls';
    if (connecting && el >= Math.min(connectLimitNs, maxNs)) {
      timedOut = {
        code: 28,
        msg: `Failed to connect to ${u.host} port ${u.port} after ${Math.floor(el / 1e6)} ms: Timeout was reached`,
      };
    } else if (!connecting && el >= maxNs) {
      const cur = sent();
      const got = cur ? Math.max(0, cur.receivedBytes - x.headerBytes) : 0;
      timedOut = {
        code: 28,
        msg:
          cur && cur.receivedBytes >= x.headerBytes
            ? `Operation timed out after ${Math.floor(el / 1e6)} milliseconds with ${got} out of ${x.bodyBytes} bytes received`
            : `Operation timed out after ${Math.floor(el / 1e6)} milliseconds with 0 bytes received`,
      };
    }
  };
  const limitAt = start + Math.min(connectLimitNs, maxNs);
  const job: Job = {
    done: () => {
      check();
      return finished || failure !== null || timedOut !== null || interrupted;
    },
    deadlineNs: () => Math.min(lab.nowNs, limitAt),
    interrupt: () => {
      interrupted = true;
    },
    finish: () => {
      conn.close();
      const end = lab.nowNs;
      const ex = exchange ?? sent();
      if (ex) {
        t.pretransfer = Number.isNaN(ex.requestNs) ? 0 : ex.requestNs - start;
        t.starttransfer = Number.isNaN(ex.firstByteNs) ? 0 : ex.firstByteNs - start;
      }
      t.total = (exchange ? (exchange as HttpExchange).doneNs : end) - start;
      let exitCode = 0;
      let error: string | null = null;
      const fail = failure ?? timedOut;
      if (fail) {
        exitCode = fail.code;
        error = fail.msg;
      } else if (interrupted) exitCode = 130;
      const binaryToTerminal =
        !toFile && res.text === null && ex !== null && ex.receivedBytes > x.headerBytes;
      if (!fail && !interrupted && binaryToTerminal) exitCode = 23;
      const r: Outcome = {
        exitCode,
        error,
        timings: t,
        x: ex,
        bodyBytes: x.bodyBytes,
        headerBytes: x.headerBytes,
        requestBytes: req.length,
      };
      let stdout = '';
      let stderr = '';
      const connected = t.connect > 0;
      if (o.verbose) {
        stderr += `*   Trying ${ip}:${u.port}...\n`;
        if (connected) {
          stderr += `* Connected to ${u.host} (${ip}) port ${u.port}\n`;
          if (u.scheme === 'https' || conn.tls) stderr += tlsVerbose(t.appconnect > 0);
          if (t.pretransfer > 0 || !conn.tls) {
            for (const l of req.split('\r\n').slice(0, -1)) stderr += `> ${l}\n`;
          }
          if (ex && ex.receivedBytes >= x.headerBytes)
            for (const l of headers.split('\r\n').slice(0, -1)) stderr += `< ${l}\n`;
        }
      }
      const dl = ex ? Math.max(0, Math.min(ex.receivedBytes - x.headerBytes, x.bodyBytes)) : 0;
      if (meter && (connected || fail)) {
        stderr += PROGRESS_HEADER;
        stderr += `${progressLine(dl, ex && ex.receivedBytes >= x.headerBytes ? x.bodyBytes : null, t.total)}\n`;
      }
      if (!toFile && exchange && res.text !== null) stdout += res.text;
      if (binaryToTerminal)
        stderr +=
          'Warning: Binary output can mess up your terminal. Use "--output -" to tell \n' +
          'Warning: curl to output it to your terminal anyway, or consider "--output \n' +
          'Warning: <FILE>" to save to a file.\n';
      if (o.verbose && exchange && !fail) stderr += `* Connection #0 to host ${u.host} left intact\n`;
      if (fail && showErr) stderr += `curl: (${fail.code}) ${fail.msg}\n`;
      if (o.writeOut !== null)
        stdout += writeOut(o.writeOut, u, connected || fail ? ip : null, conn.clientPort, self.host.ip, r);
      return {
        stdout,
        stderr,
        exitCode,
        result: {
          url: u.effective,
          remoteIp: ip,
          httpCode: exchange ? 200 : 0,
          sizeDownload: dl,
          timeConnectS: t.connect / 1e9,
          timeAppconnectS: t.appconnect / 1e9,
          timeStarttransferS: t.starttransfer / 1e9,
          timeTotalS: t.total / 1e9,
          exitCode,
        },
      };
    },
  };
  return { kind: 'job', job };
}

/** curl 8.5 + OpenSSL 3 verbose lines of a TLS 1.3 handshake (lib/vtls/openssl.c ssl_tls_trace). */
function tlsVerbose(complete: boolean): string {
  let s = '* ALPN: curl offers h2,http/1.1\n' + '* TLSv1.3 (OUT), TLS handshake, Client hello (1):\n';
  if (!complete) return s;
  s +=
    '* TLSv1.3 (IN), TLS handshake, Server hello (2):\n' +
    '* TLSv1.3 (IN), TLS handshake, Encrypted Extensions (8):\n' +
    '* TLSv1.3 (IN), TLS handshake, Certificate (11):\n' +
    '* TLSv1.3 (IN), TLS handshake, CERT verify (15):\n' +
    '* TLSv1.3 (IN), TLS handshake, Finished (20):\n' +
    '* TLSv1.3 (OUT), TLS change cipher, Change cipher spec (1):\n' +
    '* TLSv1.3 (OUT), TLS handshake, Finished (20):\n' +
    '* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384 / X25519 / RSASSA-PSS\n' +
    '* ALPN: server accepted http/1.1\n';
  return s;
}
