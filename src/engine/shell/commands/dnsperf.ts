/**
 * dnsperf 2.14.0 (DNS-OARC): `dnsperf -s SERVER -d queries.txt [-Q QPS] [-l S] [-q N] [-t S] [-c N]
 * [-p 53]` against the VPC resolver, as src/dnsperf.c sends, times out and reports. Every query is
 * a packet through the host and the Nitro card, where the ENI's 1024 pps link-local allowance drops
 * the excess (linklocal_allowance_exceeded, docs/domain-facts.md §2.4).
 *
 * The lab provides one query file, `queries.txt` (each instance's lab name and ip-a-b-c-d name,
 * type A); another file gets dnsperf's "Error: unable to open file", stdin is refused as not
 * simulated. Of the "[Timeout] Query timed out" lines the first ten are printed, then a count.
 */
import { DnsClient } from '../../apps/dns';
import type { Instance, Lab } from '../../lab/lab';
import { vpcState } from '../../vpc';
import { utcFields } from '../../../lib/time';
import type { CommandOutcome, Job } from '../types';

export const LAB_QUERY_FILE = 'queries.txt';
const MAX_TIMEOUT_LINES = 10;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** ctime(3) in UTC: "Mon Dec  2 17:00:00 2024\n". */
function ctime(nowNs: number, wallClockStartS: number): string {
  const f = utcFields(wallClockStartS + Math.floor(nowNs / 1e9));
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${WEEKDAYS[f.weekday]} ${MONTHS[f.month - 1]} ${String(f.day).padStart(2)} ${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)} ${f.year}\n`;
}

/** The lab's query file: every instance's names, type A. */
export function labQueries(lab: Lab): string[] {
  const out: string[] = [];
  for (const i of lab.instances.values())
    out.push(`${i.name} A`, `ip-${i.host.ip.replace(/\./g, '-')}.ec2.internal A`);
  return out;
}

const BANNER = 'DNS Performance Testing Tool\nVersion 2.14.0\n\n';
const us6 = (us: number) => `${Math.floor(us / 1e6)}.${String(Math.floor(us) % 1e6).padStart(6, '0')}`;

export function runDnsperf(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  let server = '127.0.0.1';
  let port = 53;
  let file: string | null = null;
  let qps = 0;
  let limitS = 0;
  let maxOut = 100;
  let timeoutS = 5;
  let clients = 1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^-([a-zA-Z])(.*)$/.exec(a);
    if (!m) return err(`Error: invalid argument ${a}\n`);
    const c = m[1]!;
    if (!'sdQlqtcp'.includes(c)) {
      if ('fmaxTnbeEDyuvSW'.includes(c)) return err(`dnsperf: option -${c} is not simulated in ec2-netlab\n`);
      return err(
        `dnsperf: invalid option -- '${c}'\nUsage: dnsperf [-f family] [-m mode] [-s server_addr] [-p port]\n`,
      );
    }
    const v = m[2] !== '' ? m[2]! : argv[++i];
    if (v === undefined) return err(`dnsperf: option requires an argument -- '${c}'\n`);
    const num = Number(v);
    const isUint = /^\d+$/.test(v);
    const isTime = /^(\d+\.?\d*|\.\d+)$/.test(v);
    switch (c) {
      case 's':
        server = v;
        break;
      case 'd':
        file = v;
        break;
      case 'p':
        if (!isUint || num > 65535) return err(`Error: invalid port: ${v}\n`);
        port = num;
        break;
      case 'Q':
      case 'q':
      case 'c':
        if (!isUint) return err(`Error: invalid argument for -${c}: ${v}\n`);
        if (c === 'Q') qps = num;
        else if (c === 'q') maxOut = Math.min(num, 65536);
        else clients = Math.min(Math.max(1, num), 256);
        break;
      case 'l':
      case 't':
        if (!isTime) return err(`Error: invalid argument for -${c}: ${v}\n`);
        if (c === 'l') limitS = num;
        else timeoutS = num;
        break;
    }
  }
  if (file === null)
    return err(
      `${BANNER}dnsperf: reading queries from stdin is not simulated in ec2-netlab; use -d ${LAB_QUERY_FILE}\n`,
    );
  if (file !== LAB_QUERY_FILE && file !== `./${LAB_QUERY_FILE}` && file !== `~/${LAB_QUERY_FILE}`)
    return {
      kind: 'done',
      out: { stdout: BANNER, stderr: `Error: unable to open file: ${file}\n`, exitCode: 1 },
    };
  const resolver = vpcState(lab).resolverIp();
  if (server !== resolver && server !== '169.254.169.253')
    return err(
      `dnsperf: only the VPC resolver (${resolver}, 169.254.169.253) is simulated as a DNS server in ec2-netlab\n`,
    );
  if (port !== 53) return err('dnsperf: the VPC resolver answers on port 53 only in ec2-netlab\n');
  const queries = labQueries(lab).map((l) => l.split(' ')[0]!);
  const maxRuns = limitS === 0 ? 1 : 0;

  const start = lab.nowNs;
  const stopAt = limitS > 0 ? start + Math.round(limitS * 1e9) : Number.POSITIVE_INFINITY;
  const timeoutNs = Math.round(timeoutS * 1e9);
  const socks = Array.from({ length: clients }, () => new DnsClient(lab, self, server, false, false));
  // outstanding queries in send order (ids recycle as dnsperf's 64K query table does)
  const outstanding = new Map<number, { sock: number; sentNs: number }>();
  let nextId = 0;
  let sent = 0;
  let completed = 0;
  let lost = 0;
  let reqBytes = 0;
  let respBytes = 0;
  let latSum = 0;
  let latSq = 0;
  let latMin = 0;
  let latMax = 0;
  let lastRecvNs = 0;
  let doneSending = false;
  let doneSendNs = 0;
  let interrupted = false;
  const timeoutLines: string[] = [];
  let nextSendNs = start;
  let fileIndex = 0;
  let pumpArmed = false;

  const sendOne = () => {
    const now = lab.nowNs;
    const id = nextId;
    nextId = (nextId + 1) & 0xffff;
    const sock = sent % clients;
    const name = queries[fileIndex % queries.length]!;
    fileIndex++;
    outstanding.set(id, { sock, sentNs: now });
    sent++;
    reqBytes += 12 + name.length + 2 + 4;
    socks[sock]!.query(id, name, 'A', (a) => {
      if (!outstanding.has(a.id)) return;
      outstanding.delete(a.id);
      const lat = Math.floor(a.atNs / 1000) - Math.floor(a.sentNs / 1000);
      completed++;
      respBytes += a.sizeBytes;
      latSum += lat;
      latSq += lat * lat;
      if (completed === 1 || lat < latMin) latMin = lat;
      if (lat > latMax) latMax = lat;
      lastRecvNs = lab.nowNs;
      pump();
    });
  };

  /** The sender: as many queries as the rate, the outstanding limit and the file allow now. */
  const pump = () => {
    if (doneSending || interrupted) return;
    const now = lab.nowNs;
    while (true) {
      if (now >= stopAt || (maxRuns > 0 && fileIndex >= queries.length * maxRuns)) {
        doneSending = true;
        doneSendNs = now;
        return;
      }
      if (outstanding.size >= maxOut) return; // a reply or a timeout frees a slot
      if (qps > 0 && now < nextSendNs) {
        if (!pumpArmed) {
          pumpArmed = true;
          lab.sched.at(nextSendNs, () => {
            pumpArmed = false;
            pump();
          });
        }
        return;
      }
      sendOne();
      if (qps > 0) nextSendNs = start + Math.round((sent * 1e9) / qps);
    }
  };

  const expire = () => {
    const now = lab.nowNs;
    for (const [id, q] of outstanding) {
      if (now - q.sentNs < timeoutNs) break; // in send order: the rest are younger
      outstanding.delete(id);
      socks[q.sock]!.forget(id);
      lost++;
      if (timeoutLines.length < MAX_TIMEOUT_LINES)
        timeoutLines.push(`[Timeout] Query timed out: msg id ${id}\n`);
    }
    if (!doneSending) pump();
  };
  // dnsperf checks for timeouts every 100 ms (TIMEOUT_CHECK_TIME)
  const tick = () => {
    expire();
    if (!finished()) lab.sched.after(100e6, tick);
  };
  const finished = () => interrupted || (doneSending && outstanding.size === 0);
  pump();
  lab.sched.after(100e6, tick);

  const job: Job = {
    done: () => {
      if (!doneSending && lab.nowNs >= stopAt) pump();
      return finished();
    },
    deadlineNs: () => Math.min(lab.nowNs, stopAt),
    interrupt: () => {
      interrupted = true;
    },
    finish: () => {
      for (const s of socks) s.close();
      const endNs = Math.max(doneSending ? doneSendNs : lab.nowNs, lastRecvNs);
      const runUs = Math.floor(endNs / 1000) - Math.floor(start / 1000);
      const cmd = ['dnsperf', ...argv].join(' ');
      let out = BANNER;
      out += `[Status] Command line: ${cmd}\n[Status] Sending queries (to ${server}:${port})\n`;
      out += `[Status] Started at: ${ctime(start, lab.wallClockStartS)}[Status] Stopping after `;
      if (limitS > 0) out += us6(Math.round(limitS * 1e6));
      if (limitS > 0 && maxRuns > 0) out += ' or ';
      if (maxRuns > 0) out += `${maxRuns} run${maxRuns === 1 ? '' : 's'} through file`;
      if (limitS > 0) out += ' seconds';
      out += '\n';
      out += timeoutLines.join('');
      if (lost > timeoutLines.length)
        out += `[ec2-netlab: ${lost - timeoutLines.length} more "[Timeout] Query timed out" lines not shown]\n`;
      out += `[Status] Testing complete (${interrupted ? 'interruption' : limitS > 0 ? 'time limit' : 'end of file'})\n\n`;
      const pct = (n: number) => (sent > 0 ? ((100 * n) / sent).toFixed(2) : '0.00');
      out += 'Statistics:\n\n';
      out += `  Queries sent:         ${sent}\n`;
      out += `  Queries completed:    ${completed} (${pct(completed)}%)\n`;
      out += `  Queries lost:         ${lost} (${pct(lost)}%)\n`;
      const interruptedN = interrupted ? outstanding.size : 0;
      if (interruptedN > 0) out += `  Queries interrupted:  ${interruptedN} (${pct(interruptedN)}%)\n`;
      out += '\n';
      out += `  Response codes:       ${completed > 0 ? `NOERROR ${completed} (100.00%)` : ''}\n`;
      out += `  Average packet size:  request ${sent ? Math.floor(reqBytes / sent) : 0}, response ${completed ? Math.floor(respBytes / completed) : 0}\n`;
      out += `  Run time (s):         ${us6(runUs)}\n`;
      out += `  Queries per second:   ${(runUs > 0 ? completed / (runUs / 1e6) : 0).toFixed(6)}\n\n`;
      const avg = completed ? Math.floor(latSum / completed) : 0;
      out += `  Average Latency (s):  ${us6(avg)} (min ${us6(latMin)}, max ${us6(latMax)})\n`;
      if (completed > 1) {
        const sd = Math.sqrt((latSq - (latSum * latSum) / completed) / (completed - 1)) / 1e6;
        out += `  Latency StdDev (s):   ${sd.toFixed(6)}\n`;
      }
      out += '\n';
      return {
        stdout: out,
        stderr: '',
        exitCode: 0,
        result: {
          sent,
          completed,
          lost,
          runTimeS: runUs / 1e6,
          qps: runUs > 0 ? completed / (runUs / 1e6) : 0,
        },
      };
    },
  };
  return { kind: 'job', job };
}

function err(stderr: string): CommandOutcome {
  return { kind: 'done', out: { stdout: '', stderr, exitCode: 1 } };
}
