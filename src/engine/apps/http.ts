/**
 * HTTP over the model's TCP: the lab's web server (nginx-like, ports 80 and 443 on every instance)
 * and one client connection (curl, ab). The SYN, request and response are real packets through both
 * hosts and both Nitro cards; HTTPS adds a TLS 1.3 handshake round trip (no cryptography CPU);
 * closing is a FIN exchange. A closed port answers the SYN with a RST.
 *
 * What the server serves, its CPU cost and who closes when: docs/design.md, "HTTP".
 */
import type { Vcpu } from '../host/cpu';
import type { TcpEndpoint } from '../host/tcp/endpoint';
import { TcpEndpoint as Tcp } from '../host/tcp/endpoint';
import type { Instance, Lab } from '../lab/lab';
import { type Flow, type Packet, TCP_FLAG_SYN, TCP_TIMESTAMP_OPTION_BYTES } from '../model/packet';

/** Ports the lab's web server listens on, and whether they speak TLS. */
export const HTTP_SERVER_PORTS: ReadonlyMap<number, { tls: boolean }> = new Map([
  [80, { tls: false }],
  [443, { tls: true }],
]);

export const HTTP_SERVER_SOFTWARE = 'nginx/1.24.0';
/** nginx's default index.html (1.24.0): 615 bytes. */
export const DEFAULT_PAGE_BYTES = 615;
const DEFAULT_PAGE_HEAD =
  '<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n<style>\nhtml { color-scheme: light dark; }\nbody { width: 35em; margin: 0 auto;\nfont-family: Tahoma, Verdana, Arial, sans-serif; }\n</style>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n<p>If you see this page, the nginx web server is successfully installed and\nworking. Further configuration is required.</p>\n\n<p>For online documentation and support please refer to\n<a href="http://nginx.org/">nginx.org</a>.<br/>\nCommercial support is available at\n<a href="http://nginx.com/">nginx.com</a>.</p>\n\n<p><em>Thank you for using nginx.</em></p>\n</body>\n</html>\n';

/** The default page's text (615 bytes, as nginx ships it). */
export function defaultPage(): string {
  return DEFAULT_PAGE_HEAD;
}

export interface HttpResource {
  status: 200;
  contentType: 'text/html' | 'application/octet-stream';
  bodyBytes: number;
  /** Body text for the index page; null for a generated file (zero bytes: binary). */
  text: string | null;
}

/** What the lab's web server serves for `path`. */
export function resolveResource(path: string): HttpResource {
  const last = path.split('?')[0]!.split('/').pop() ?? '';
  const m = /^(\d+)([kKmMgG]?)[bB]?$/.exec(last);
  if (m) {
    const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
    return {
      status: 200,
      contentType: 'application/octet-stream',
      bodyBytes: Number(m[1]) * mult,
      text: null,
    };
  }
  return { status: 200, contentType: 'text/html', bodyBytes: DEFAULT_PAGE_BYTES, text: DEFAULT_PAGE_HEAD };
}

/** The response header block as nginx writes it (the date is the lab's wall clock). */
export function responseHeaders(res: HttpResource, date: string, keepAlive = true): string {
  return (
    'HTTP/1.1 200 OK\r\n' +
    `Server: ${HTTP_SERVER_SOFTWARE}\r\n` +
    `Date: ${date}\r\n` +
    `Content-Type: ${res.contentType}\r\n` +
    `Content-Length: ${res.bodyBytes}\r\n` +
    'Last-Modified: Mon, 02 Dec 2024 16:00:00 GMT\r\n' +
    `Connection: ${keepAlive ? 'keep-alive' : 'close'}\r\n` +
    `ETag: "674ddaa0-${res.bodyBytes.toString(16)}"\r\n` +
    'Accept-Ranges: bytes\r\n' +
    '\r\n'
  );
}

export type ConnectFailure = 'refused' | 'timedout';

export interface HttpConnectionHooks {
  /** TCP handshake done (SYN-ACK received). */
  onConnected?: (atNs: number) => void;
  /** TLS handshake done (HTTPS only). */
  onAppConnected?: (atNs: number) => void;
  /** connect() failed: RST received, or the kernel gave up after its SYN retries. */
  onFailed?: (why: ConnectFailure, atNs: number) => void;
  /**
   * Another request/response server than the lab's web server on this port (netperf's netserver
   * for TCP_RR): it listens (no TLS) and spends `serverRequestNs` per request instead of nginx's.
   */
  server?: { serverRequestNs: number };
}

export interface HttpExchange {
  /** When the request was handed to TCP. */
  requestNs: number;
  /** First response byte received. */
  firstByteNs: number;
  /** Last response byte received. */
  doneNs: number;
  headerBytes: number;
  bodyBytes: number;
  /** Bytes received so far (headers + body). */
  receivedBytes: number;
  headers: string;
  resource: HttpResource;
}

const TCP_MSS_OVERHEAD = 40 + TCP_TIMESTAMP_OPTION_BYTES; // IP + TCP + timestamps

/**
 * One client TCP connection to an instance's web server (or a closed port), carrying HTTP/1.1
 * requests one after another.
 */
export class HttpConnection {
  readonly clientPort: number;
  readonly fwd: Flow;
  readonly rev: Flow;
  private readonly ep: TcpEndpoint;
  private serverEp: TcpEndpoint | null = null;
  private serverVcpu: Vcpu | null = null;
  state: 'connecting' | 'tls' | 'open' | 'failed' | 'closed' = 'connecting';
  readonly tls: boolean;
  private cur: HttpExchange | null = null;
  private onResponse: ((x: HttpExchange) => void) | null = null;
  private onFirstByte: ((x: HttpExchange) => void) | null = null;
  private clientRecv = 0;
  private clientExpect = 0;
  /** Server side: bytes of request (and TLS) it waits for before acting, and what it does then. */
  private serverRecv = 0;
  private serverNeed = 0;
  private serverAction: (() => void) | null = null;
  private serverToWrite = 0;
  private tlsWaitingServerFlight = false;
  private queuedRequest: { bytes: number; respBytes: number; close: boolean } | null = null;
  /** The server closes after the response being written (Connection: close). */
  private serverClosePending = false;
  /** The last response came with Connection: close: the client closes on the server's FIN. */
  private eofExpected = false;

  constructor(
    private readonly lab: Lab,
    readonly client: Instance,
    readonly server: Instance,
    readonly port: number,
    private readonly hooks: HttpConnectionHooks = {},
  ) {
    this.tls = hooks.server ? false : (HTTP_SERVER_PORTS.get(port)?.tls ?? false);
    this.clientPort = client.host.allocPort();
    this.fwd = lab.makeFlow(client, lab.tuple(client, server, 'tcp', this.clientPort, port));
    this.rev = lab.makeFlow(server, lab.tuple(server, client, 'tcp', port, this.clientPort));
    // ENA Express clamps the MSS of new TCP connections to fit the SRD MTU (AWS-ENAX), as for iperf3
    const srdMtu = Math.min(
      client.nitro.srd.mssClampMtu(server.host.ip),
      server.nitro.srd.mssClampMtu(client.host.ip),
    );
    const mss = Math.min(lab.pathMtu(), srdMtu) - TCP_MSS_OVERHEAD;
    const opts = {
      mss,
      sndbufBytes: 'auto' as const, // neither curl nor nginx sets SO_SNDBUF
      rcvbufBytes: lab.params.tcpRmemMax,
      maxBatchSegs: lab.maxBatch,
      nodelay: true, // curl (since 7.50) and nginx (tcp_nodelay on) set TCP_NODELAY
    };
    const cvcpu = client.host.vcpus[0]!;
    this.ep = new Tcp(lab.sched, this.fwd, lab.params, { host: client.host, appVcpu: cvcpu }, opts);
    this.ep.onEstablished = () => this.established();
    this.ep.onConnectFailed = () => this.fail('timedout');
    this.ep.onReadable = () => this.clientReadable();
    this.ep.onPeerFin = () => this.ep.close(); // EOF: curl and ab close the socket
    this.ep.onClosed = () => this.release();
    client.host.registerTx(this.fwd.id, { kind: 'tcp', ep: this.ep });
    client.host.registerRx(this.rev.id, { kind: 'tcp', ep: this.ep });
    const served = hooks.server !== undefined || HTTP_SERVER_PORTS.has(port);
    // the server's listening socket: a SYN that got through both Nitro cards reaches it here
    server.host.registerRx(this.fwd.id, {
      kind: 'raw',
      deliver: (p) => (served ? this.accept(p, opts) : this.reset(p)),
    });
  }

  /** The exchange in progress (null between requests). */
  get current(): HttpExchange | null {
    return this.cur;
  }

  /** Send the SYN (connect(2)). */
  connect(): void {
    this.ep.connect();
  }

  /** Accept on the server: a TCP endpoint for the connection, which answers the SYN. */
  private accept(syn: Packet, opts: ConstructorParameters<typeof Tcp>[4]): void {
    if ((syn.flags & TCP_FLAG_SYN) === 0 || this.serverEp) return;
    const server = this.server.host;
    const svcpu = server.vcpus[this.clientPort % server.vcpus.length]!;
    const ep = new Tcp(this.lab.sched, this.rev, this.lab.params, { host: server, appVcpu: svcpu }, opts);
    this.serverEp = ep;
    this.serverVcpu = svcpu;
    server.registerRx(this.fwd.id, { kind: 'tcp', ep });
    server.registerTx(this.rev.id, { kind: 'tcp', ep });
    ep.onReadable = () => this.serverReadable();
    ep.onWritable = () => this.serverWrite();
    ep.onPeerFin = () => ep.close(); // nginx closes a connection whose client closed
    ep.onClosed = () => this.release();
    ep.onData(syn, 1); // SYN-ACK
  }

  /** A closed port: the kernel answers the SYN with a RST (its trip back is one fabric delay). */
  private reset(p: Packet): void {
    if ((p.flags & TCP_FLAG_SYN) === 0 || this.state !== 'connecting') return;
    this.lab.sched.after(this.lab.oneWayDelayNs(), () => {
      if (this.state === 'connecting') this.fail('refused');
    });
  }

  private fail(why: ConnectFailure): void {
    if (this.state !== 'connecting') return;
    this.state = 'failed';
    this.hooks.onFailed?.(why, this.lab.nowNs);
  }

  private established(): void {
    if (this.state !== 'connecting') return;
    this.hooks.onConnected?.(this.lab.nowNs);
    if (!this.tls) {
      this.state = 'open';
      this.flushQueued();
      return;
    }
    this.state = 'tls';
    const P = this.lab.params;
    // ClientHello; the server answers with its flight once it has it all
    // (answered from a fresh event: the server's stack finishes taking the ClientHello first)
    this.expectAtServer(P.tlsClientHelloBytes, () =>
      this.lab.sched.after(0, () => this.serverSend(P.tlsServerFlightBytes)),
    );
    this.tlsWaitingServerFlight = true;
    this.clientExpect = P.tlsServerFlightBytes;
    this.clientRecv = 0;
    this.ep.write(P.tlsClientHelloBytes);
  }

  /**
   * Send a request of `requestBytes` whose response is `responseBytes` (headers + body); `onResponse`
   * when the last byte has arrived. Requests wait for the connection (and TLS) to be up. With
   * `connectionClose` the server closes the connection after the response (HTTP/1.0 without
   * keep-alive, `Connection: close`).
   */
  request(
    requestBytes: number,
    x: Omit<HttpExchange, 'requestNs' | 'firstByteNs' | 'doneNs' | 'receivedBytes'>,
    onResponse: (x: HttpExchange) => void,
    onFirstByte?: (x: HttpExchange) => void,
    connectionClose = false,
  ): void {
    this.cur = { ...x, requestNs: Number.NaN, firstByteNs: Number.NaN, doneNs: Number.NaN, receivedBytes: 0 };
    this.onResponse = onResponse;
    this.onFirstByte = onFirstByte ?? null;
    this.queuedRequest = {
      bytes: requestBytes,
      respBytes: x.headerBytes + x.bodyBytes,
      close: connectionClose,
    };
    if (this.state === 'open') this.flushQueued();
  }

  private flushQueued(): void {
    const q = this.queuedRequest;
    if (!q || this.state !== 'open' || !this.cur) return;
    this.queuedRequest = null;
    const cost = this.hooks.server?.serverRequestNs ?? this.lab.params.httpServerRequestNs;
    // TLS: the client's Finished goes out with the first request
    const extra = this.tls && this.firstRequest ? this.lab.params.tlsClientFinishedBytes : 0;
    this.firstRequest = false;
    // the server's worker runs on one vCPU: requests queue behind each other there
    this.expectAtServer(q.bytes + extra, () =>
      this.serverVcpu!.run(cost, () => {
        if (q.close) this.serverClosePending = true;
        this.serverSend(q.respBytes);
      }),
    );
    this.eofExpected = q.close;
    this.clientExpect = q.respBytes;
    this.clientRecv = 0;
    this.cur.requestNs = this.lab.nowNs;
    this.ep.write(q.bytes + extra);
  }

  private firstRequest = true;

  private expectAtServer(bytes: number, then: () => void): void {
    this.serverNeed += bytes;
    this.serverAction = then;
    this.checkServer();
  }

  private serverReadable(): void {
    const ep = this.serverEp!;
    const n = ep.rcvQueued;
    if (n > 0) {
      ep.read(n);
      this.serverRecv += n;
    }
    this.checkServer();
  }

  private checkServer(): void {
    if (this.serverAction && this.serverRecv >= this.serverNeed) {
      const a = this.serverAction;
      this.serverAction = null;
      a();
    }
  }

  private serverSend(bytes: number): void {
    this.serverToWrite += bytes;
    this.serverWrite();
  }

  private serverWrite(): void {
    const ep = this.serverEp;
    if (!ep) return;
    while (this.serverToWrite > 0) {
      const n = Math.min(this.serverToWrite, ep.sndbufFree());
      if (n <= 0) return; // onWritable resumes
      this.serverToWrite -= n;
      ep.write(n);
    }
    if (this.serverClosePending) {
      this.serverClosePending = false;
      ep.close(); // the FIN follows the response
    }
  }

  private clientReadable(): void {
    const n = this.ep.rcvQueued;
    if (n <= 0) return;
    this.ep.read(n);
    const now = this.lab.nowNs;
    if (this.tlsWaitingServerFlight) {
      this.clientRecv += n;
      if (this.clientRecv >= this.clientExpect) {
        this.tlsWaitingServerFlight = false;
        this.state = 'open';
        this.hooks.onAppConnected?.(now);
        this.flushQueued();
      }
      return;
    }
    const x = this.cur;
    if (!x) return;
    if (x.receivedBytes === 0) {
      x.firstByteNs = now;
      this.onFirstByte?.(x);
    }
    x.receivedBytes += n;
    if (x.receivedBytes >= x.headerBytes + x.bodyBytes) {
      x.doneNs = now;
      this.cur = null;
      const cb = this.onResponse;
      this.onResponse = null;
      cb?.(x);
    }
  }

  /**
   * The client is done with the connection (curl exits, ab moves on or ends): it closes its socket
   * (a FIN after what it wrote). After a complete `Connection: close` response it waits for the
   * server's FIN instead and closes on that EOF (as ab does). A connection still connecting is
   * dropped without a packet.
   */
  close(): void {
    if (this.state === 'closed') return;
    const responseDone = this.cur === null && this.queuedRequest === null;
    this.state = 'closed';
    this.cur = null;
    this.onResponse = null;
    this.queuedRequest = null;
    this.serverToWrite = 0; // what the server had not yet written is dropped (a RST would stop it)
    if (!(this.eofExpected && responseDone)) this.ep.close();
  }

  /**
   * Both ends closed: nothing of the connection is left to send or receive, so the hosts and the
   * cards let go of it (the sockets' registrations, the cards' per-flow stages and queues). Without
   * this every connection an `ab` run made stayed in memory (≈ 14 KB each).
   */
  private release(): void {
    if (this.released || !this.ep.closed || !this.serverEp?.closed) return;
    this.released = true;
    const ids = [this.fwd.id, this.rev.id];
    this.client.host.unregister(ids);
    this.server.host.unregister(ids);
    for (const id of ids) {
      this.client.nitro.releaseFlow(id);
      this.server.nitro.releaseFlow(id);
    }
  }

  private released = false;

  /** The client's TCP endpoint (tests look at its close state). */
  get clientEndpoint(): TcpEndpoint {
    return this.ep;
  }
}

/** The request curl/ab send: method line and headers, as bytes on the wire. */
export function requestText(
  path: string,
  hostHeader: string,
  userAgent: string,
  extra: string[] = [],
): string {
  return [
    `GET ${path} HTTP/1.1`,
    `Host: ${hostHeader}`,
    `User-Agent: ${userAgent}`,
    'Accept: */*',
    ...extra,
    '',
    '',
  ].join('\r\n');
}

/** Resolve a URL's host as the instance's /etc/hosts and the VPC resolver would. */
export function resolveHost(lab: Lab, host: string): Instance | undefined {
  const direct = lab.resolve(host);
  if (direct) return direct;
  const m = /^ip-(\d+)-(\d+)-(\d+)-(\d+)(\.ec2\.internal|\.[a-z0-9-]+\.compute\.internal)?$/.exec(host);
  if (m) return lab.resolve(`${m[1]}.${m[2]}.${m[3]}.${m[4]}`);
  return undefined;
}
