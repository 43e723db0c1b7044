/**
 * tcpdump 4.99 (libpcap 1.10): capture what eth0 sends and receives and print one line per packet
 * as print-tcp.c / print-udp.c / print-icmp.c / print-ether.c do, or write a pcap file (-w) and
 * read one (-r). Capture points as the kernel's taps: TX where dev_queue_xmit_nit sees a packet
 * (after the qdisc, entering the ENA TX ring), RX where __netif_receive_skb_core does (NAPI taking
 * it off the RX ring, before the socket). A batch of identical packets is printed packet by
 * packet. Header fields the lab's packets do not carry are derived as Linux sets them: the ISN
 * and TCP timestamp clock per connection from a hash of the 4-tuple (secure_tcp_seq/tsoff), MSS
 * from the MTU, wscale 7, TTL 64 (assumed, see `man tcpdump`).
 */
import type { Instance, Lab } from '../../../lab/lab';
import { fileText, resolvePath, toBytes } from '../../../lab/files';
import type { ProbeSink } from '../../../model/probe';
import { captureBatch } from './batch-capture';
import { type CommandOutcome, done, fail, type Job } from '../../types';
import { FilterError, type Pred, parseFilter } from './filter';
import { type Opts, parseArgs } from './options';
import { decodeFrame, encodeFrame, PcapWriter, readPcap, type WirePacket } from './pcap';
import { TcpdumpPrinter } from './print';
import { rawDump } from './print-ascii';
import { WireMapper } from './wire-mapper';

export { parseFilter } from './filter';
export { TcpdumpPrinter } from './print';
export { WireMapper } from './wire-mapper';

/** A -w file stops growing here (the lab keeps files in memory). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Printed lines kept for the terminal. */
const MAX_LINES = 200_000;

export function runTcpdump(args: string[], lab: Lab, host: Instance): CommandOutcome {
  const parsed = parseArgs(args);
  if ('kind' in parsed) return parsed;
  const o = parsed;
  let filter: Pred;
  try {
    filter = parseFilter(o.filter, (h) => lab.resolve(h)?.host.ip ?? null);
  } catch (e) {
    if (e instanceof FilterError) return fail(`tcpdump: can't parse filter expression: ${e.message}`);
    throw e;
  }
  const printer = new TcpdumpPrinter({
    numeric: o.numeric,
    eflag: o.eflag,
    qflag: o.qflag,
    vflag: o.vflag,
    tstamp: o.tstamp,
  });
  if (o.read !== null) return readFile(lab, host, o, filter, printer);
  const iface = o.iface ?? 'eth0';
  // eth0, an attached secondary ENI's eth1 …, or any
  const ifaceIdx = /^eth\d+$/.test(iface) ? Number(iface.slice(3)) : -1;
  if (iface !== 'any' && (ifaceIdx < 0 || host.host.ifaces[ifaceIdx] === undefined))
    return fail(`tcpdump: ${iface}: No such device exists\n(SIOCGIFHWADDR: No such device)`);
  let writer: PcapWriter | null = null;
  let writePath: string | null = null;
  if (o.write !== null) {
    const p = resolvePath(o.write);
    if (!p.ok) return fail(`tcpdump: ${p.error}`);
    writePath = p.path;
    writer = new PcapWriter(o.snaplen);
    lab.files.write(host.name, writePath, writer.file(), lab.nowNs);
  }
  const banner =
    // tcpdump.c: the hint only when neither -v nor -w was given
    (o.write === null && !o.vflag
      ? 'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n'
      : 'tcpdump: ') +
    `listening on ${iface}, link-type ${iface === 'any' ? 'LINUX_SLL2 (Linux cooked v2)' : 'EN10MB (Ethernet)'}, snapshot length ${o.snaplen} bytes\n`;
  if (iface === 'any' && writer)
    return fail('tcpdump: -i any with -w is not simulated in ec2-netlab (LINUX_SLL2 files): use -i eth0');
  if (iface === 'any' && (o.dump.x > 1 || o.dump.X > 1 || o.dump.A > 1))
    return fail(
      'tcpdump: -xx, -XX and -AA with -i any (the LINUX_SLL2 header) are not simulated in ec2-netlab: use -i eth0',
    );
  const dumping = o.dump.x + o.dump.X + o.dump.A > 0;
  const me = [...lab.instances.values()].indexOf(host);
  const mapper = new WireMapper(
    lab,
    (host.host.ifaces[Math.max(0, ifaceIdx)]?.dev ?? host.host.eth0).link().mtu,
  );
  // the interface a packet crosses: sent, the one holding its source address (forwarded: eth0);
  // received, the one the fabric delivered it to
  let pktDev = 0;
  let out = '';
  let lines = 0;
  let captured = 0;
  let stopped = false;
  let interrupted = false;
  let note = '';
  const take = (w: WirePacket) => {
    if (stopped || !filter(w)) return;
    captured++;
    if (writer) {
      if (writer.bytes < MAX_FILE_BYTES) writer.add(w);
      else if (!note)
        note = `tcpdump: lab note: ${o.write} reached ${MAX_FILE_BYTES / 1048576} MiB, the lab's limit for a file; later packets were counted, not written (use -c or -s)\n`;
    } else if (lines < MAX_LINES) {
      const caplen = Math.min(o.snaplen, 14 + w.ipLen);
      let line = printer.line(w, caplen);
      if (iface === 'any') line = line.replace(/^(\S+ )IP /, `$1eth${pktDev}  ${txDir ? 'Out' : 'In '} IP `);
      if (dumping)
        line = `${line.slice(0, -1)}${rawDump(encodeFrame(w, o.snaplen), o.dump, printer.linkHdrLen)}\n`;
      out += line;
      lines++;
    } else if (!note)
      note = `tcpdump: lab note: more than ${MAX_LINES} lines; later packets were counted, not printed (use -c or a filter)\n`;
    if (o.count > 0 && captured >= o.count) stopped = true;
  };
  let txDir = false;
  const sink: ProbeSink = {
    enter: (t, h, stage, _q, p) => {
      if (h !== me || stage !== 'tx_ring' || stopped) return;
      const v = captureBatch(lab, host, p, t, true);
      pktDev = v.dev;
      if (ifaceIdx >= 0 && pktDev !== ifaceIdx) return;
      txDir = true;
      mapper.map(p, t, true, take, v);
    },
    leave: (t, h, stage, _q, p) => {
      if (h !== me || stage !== 'rx_ring' || stopped) return;
      const v = captureBatch(lab, host, p, t, false);
      pktDev = v.dev;
      if (ifaceIdx >= 0 && pktDev !== ifaceIdx) return;
      txDir = false;
      mapper.map(p, t, false, take, v);
    },
    drop: () => {},
  };
  const detach = lab.probe.attach(sink);
  let finished = false;
  const job: Job = {
    done: () => stopped || interrupted,
    deadlineNs: () => (stopped || interrupted ? lab.nowNs : Number.POSITIVE_INFINITY),
    interrupt: () => {
      interrupted = true;
    },
    progress: () => out,
    lead: () => banner,
    finish: () => {
      if (!finished) {
        finished = true;
        detach();
        if (writer && writePath) lab.files.write(host.name, writePath, writer.file(), lab.nowNs);
      }
      const s = (n: number) => (n === 1 ? '' : 's');
      const stats = `${captured} packet${s(captured)} captured\n${captured} packet${s(captured)} received by filter\n0 packets dropped by kernel\n`;
      return {
        stdout: out,
        stderr: banner + note + (interrupted && !stopped ? '\n' : '') + stats,
        exitCode: 0,
      };
    },
  };
  return { kind: 'job', job };
}

function readFile(lab: Lab, host: Instance, o: Opts, filter: Pred, printer: TcpdumpPrinter): CommandOutcome {
  const p = resolvePath(o.read!);
  if (!p.ok) return fail(`tcpdump: ${p.error}`);
  const f = lab.files.read(host.name, p.path);
  if (!f) return fail(`tcpdump: ${o.read}: No such file or directory`);
  const r = readPcap(typeof f.data === 'string' ? toBytes(fileText(f.data)) : f.data);
  if ('error' in r) return fail(`tcpdump: ${o.read}: ${r.error}`);
  if (r.linktype !== 1)
    return fail(`tcpdump: ${o.read}: link-type ${r.linktype} is not simulated in ec2-netlab (Ethernet only)`);
  const dumping = o.dump.x + o.dump.X + o.dump.A > 0;
  let out = '';
  let n = 0;
  for (const rec of r.packets) {
    const w = decodeFrame(rec.data, rec.sec, rec.usec);
    if (!w || !filter(w)) continue;
    const line = printer.line(w, rec.data.length, rec.data);
    out += dumping ? `${line.slice(0, -1)}${rawDump(rec.data, o.dump, printer.linkHdrLen)}\n` : line;
    n++;
    if (o.count > 0 && n >= o.count) break;
  }
  return done(
    out,
    0,
    undefined,
    `reading from file ${o.read}, link-type EN10MB (Ethernet), snapshot length ${r.snaplen}\n`,
  );
}
