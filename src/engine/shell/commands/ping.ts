/**
 * ping (iputils 20240117): `ping [-c N] [-i S] [-s SIZE] [-q] [-W S] HOST`, ICMP echo between instances.
 *
 * Each echo request is a real packet through the sender's stack and Nitro card, the fabric, the
 * target's card and stack, where the kernel answers it (icmp_echo) with a reply of the same size
 * back the same way. ICMP is always tracked and never accelerated (AWS-NITROPERF, AWS-CT): every
 * request and reply takes the card's full processing path on both ends, so ping's RTT includes
 * the slow-path service time four times. Output as iputils prints it (ping/ping_common.c
 * pr_echo_reply/finish): reply lines with the target's reverse name (ip-a-b-c-d.ec2.internal) when
 * it was given by name, the statistics and the rtt min/avg/max/mdev line. Without -c, ping runs
 * until interrupted; the lab sends for 60 s (as `-c` 60 / interval would) and then prints the statistics.
 */
import type { Instance, Lab } from '../../lab/lab';
import { type Packet, reverseTuple } from '../../model/packet';
import { resolveHost } from '../../apps/http';
import type { CommandOutcome, Job } from '../types';
import { Rng } from '../../core/rng';
import { cG } from './printf';

const USAGE =
  '\nUsage\n  ping [options] <destination>\n\nOptions:\n  <destination>      dns name or ip address\n' +
  '  -c <count>         stop after <count> replies\n  -i <interval>      seconds between sending each packet\n' +
  '  -M <pmtud opt>     define path MTU discovery, can be one of <do|dont|want>\n' +
  '  -q                 quiet output\n  -s <size>          use <size> as number of data bytes to be sent\n' +
  '  -W <timeout>       time to wait for response\n\n' +
  "(ec2-netlab: ping's other options are not simulated)\n";

/** iputils' time= formatting of an RTT in whole µs (pr_echo_reply). */
export function fmtRtt(t: number): string {
  if (t >= 100000 - 50) return `${Math.floor((t + 500) / 1000)}`;
  if (t >= 10000 - 5) return `${Math.floor((t + 50) / 1000)}.${Math.floor(((t + 50) % 1000) / 100)}`;
  if (t >= 1000)
    return `${Math.floor((t + 5) / 1000)}.${String(Math.floor(((t + 5) % 1000) / 10)).padStart(2, '0')}`;
  return `0.${String(t).padStart(3, '0')}`;
}

/** Seconds ping without -c sends for in the lab (the runner's DEFAULT_UNBOUNDED_LIMIT_NS). */
export const PING_UNBOUNDED_COUNT_LIMIT_S = 60;

/** "%ld.%03ld" of whole µs as ms. */
const ms3 = (us: number) => `${Math.floor(us / 1000)}.${String(us % 1000).padStart(3, '0')}`;

/** iputils' llsqrt: the integer square root by Newton's method (a ≤ 0: a itself). */
function llsqrt(a: number): number {
  let prev = Number.POSITIVE_INFINITY;
  let x = a;
  if (x > 0) {
    while (x < prev) {
      prev = x;
      x = Math.floor((x + Math.floor(a / x)) / 2);
    }
  }
  return x;
}

/**
 * The rtt line of iputils 20240117's finish(): min and max of the whole-µs trip times; avg the sum
 * (a double) over the count, truncated; mdev the integer square root of the variance, computed in
 * doubles in its "clumsy" order while the sum is below INT_MAX and truncated to an integer.
 */
export function rttSummary(trips: readonly number[]): string {
  const total = trips.length;
  let tsum = 0;
  let tsum2 = 0;
  let tmin = Number.POSITIVE_INFINITY;
  let tmax = 0;
  for (const t of trips) {
    tsum += t;
    tsum2 += t * t;
    if (t < tmin) tmin = t;
    if (t > tmax) tmax = t;
  }
  const tmavg = Math.trunc(tsum / total);
  const tmvar =
    tsum < 2 ** 31 - 1
      ? Math.trunc((tsum2 - (tsum * tsum) / total) / total)
      : Math.trunc(tsum2 / total - tmavg * tmavg);
  const tmdev = llsqrt(tmvar);
  return `rtt min/avg/max/mdev = ${ms3(tmin)}/${ms3(tmavg)}/${ms3(tmax)}/${ms3(tmdev)} ms`;
}

/** Each host's stream of RX wakeup delays (params.hostRxWakeupMeanNs): one per instance, per lab. */
const wakeups = new WeakMap<Instance, Rng>();

/**
 * The draw of a host's next RX wakeup delay (ns, whole): the time between a lone packet landing in
 * its RX ring and its kernel handling it (see hostRxWakeupMeanNs in src/engine/model/params.ts).
 */
function rxWakeup(lab: Lab, inst: Instance): () => number {
  let rng = wakeups.get(inst);
  if (!rng) {
    rng = new Rng(lab.scenario.seed, `instance/${inst.name}/rx-wakeup`);
    wakeups.set(inst, rng);
  }
  const r = rng;
  const mean = lab.params.hostRxWakeupMeanNs;
  return () => (mean > 0 ? Math.round(r.exp(mean)) : 0);
}

export function runPing(argv: string[], lab: Lab, self: Instance): CommandOutcome {
  let count = 0;
  let intervalS = 1;
  let size = 56;
  let quiet = false;
  let waitS = 10;
  /** -M: IP_PMTUDISC_DO (DF, never fragment), WANT (the kernel's default: fragment locally), DONT. */
  let pmtudisc: 'do' | 'want' | 'dont' = 'want';
  let dest: string | null = null;
  const bad = (msg: string, code = 2): CommandOutcome => ({
    kind: 'done',
    out: { stdout: '', stderr: msg, exitCode: code },
  });
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('-') && a.length > 1) {
      const c = a[1]!;
      if (c === 'q') {
        quiet = true;
        continue;
      }
      if (c === 'M') {
        const v = a.length > 2 ? a.slice(2) : argv[++i];
        if (v === undefined) return bad(`ping: option requires an argument -- 'M'\n${USAGE}`);
        if (v === 'do' || v === 'want' || v === 'dont') pmtudisc = v;
        else if (v === 'probe') return bad('ping: -M probe is not simulated in ec2-netlab\n');
        else return bad(`ping: invalid -M argument: ${v}\n`);
        continue;
      }
      if (!'cisW'.includes(c)) {
        if ('46aAbBdDfhInLOrRtTUvVwQFlmpS'.includes(c))
          return bad(`ping: option -${c} is not simulated in ec2-netlab\n`);
        return bad(`ping: invalid option -- '${c}'\n${USAGE}`);
      }
      const v = a.length > 2 ? a.slice(2) : argv[++i];
      if (v === undefined) return bad(`ping: option requires an argument -- '${c}'\n${USAGE}`);
      const n = Number(v);
      if (!Number.isFinite(n) || v.trim() === '') return bad(`ping: invalid argument: '${v}'\n`, 1);
      if (c === 'c') {
        if (!Number.isInteger(n) || n < 1)
          return bad(`ping: invalid argument: '${v}': out of range: 1 <= value <= 9223372036854775807\n`, 1);
        count = n;
      } else if (c === 'i') {
        if (n < 0.002)
          return bad(
            `ping: cannot flood, minimal interval for user must be >= 2 ms, use -i 0.002 (or higher)\n`,
          );
        intervalS = n;
      } else if (c === 's') {
        if (!Number.isInteger(n) || n < 0 || n > 65507)
          return bad(`ping: invalid argument: '${v}': out of range: 0 <= value <= 65507\n`, 1);
        size = n;
      } else {
        if (n < 0) return bad(`ping: bad linger time: ${v}\n`);
        waitS = n;
      }
    } else if (dest === null) dest = a;
    else return bad(`ping: extra operand '${a}'\n`);
  }
  if (dest === null) return bad(`ping: usage error: Destination address required\n`, 1);
  const target = resolveHost(lab, dest);
  if (!target) {
    if (/^\d+\.\d+\.\d+\.\d+$/.test(dest))
      return bad(
        `ping: ${dest} is not an instance of this lab: other destinations are not simulated in ec2-netlab\n`,
      );
    return bad(`ping: ${dest}: Name or service not known\n`);
  }
  if (target === self)
    return bad('ping: pinging the instance itself (loopback) is not simulated in ec2-netlab\n');
  const ip = lab.addressOf(dest) ?? target.host.ip;
  const byName = dest !== ip;
  const from = byName ? `ip-${ip.replace(/\./g, '-')}.ec2.internal (${ip})` : ip;
  const ipBytes = 20 + 8 + size;
  const mtu = self.host.eth0.mtu;
  // through an internet gateway the path (1500) is narrower than the instance's MTU: PMTU discovery
  // and the gateway's own fragmentation are not modelled
  if (ipBytes > lab.pathMtu() && mtu > lab.pathMtu())
    return bad(`ping: local error: message too long, mtu=${lab.pathMtu()}\n`, 1);
  // -M do over the device MTU: every sendmsg fails with EMSGSIZE (no packet leaves); otherwise the
  // kernel fragments the echo request (and the target its reply) and reassembles at the other end
  const localError = pmtudisc === 'do' && ipBytes > mtu;
  let errors = 0;
  let errLines = '';
  const req = lab.makeFlow(self, { srcIp: self.host.ip, dstIp: ip, proto: 'icmp', srcPort: 0, dstPort: 0 });
  const rep = lab.makeFlow(target, reverseTuple(req.tuple));
  const mk = (flow: typeof req, seq: number, sentAtNs: number): Packet => ({
    flow,
    count: 1,
    sizeBytes: ipBytes,
    payloadBytes: 8 + size,
    seq,
    ack: 0,
    flags: 0,
    sack: null,
    window: 0,
    tos: 0,
    sentAtNs,
    enqueuedAtNs: lab.nowNs,
    txq: -1,
    mark: 0,
  });
  // the target's kernel answers every echo request (icmp_echo), once its interrupt and softirq ran
  const tv = target.host.vcpus[0]!;
  const targetWakeup = rxWakeup(lab, target);
  target.host.registerRx(req.id, {
    kind: 'raw',
    deliver: (p) => {
      const seq = p.seq;
      const sentAtNs = p.sentAtNs;
      const vcpu = target.host.ctxVcpu ?? tv;
      lab.sched.after(targetWakeup(), () => target.host.transmit(mk(rep, seq, sentAtNs), vcpu));
    },
  });
  const start = lab.nowNs;
  let lines = `PING ${dest} (${ip}) ${size}(${ipBytes}) bytes of data.\n`;
  const rtts: number[] = [];
  let sent = 0;
  let lastEventNs = start;
  let interrupted = false;
  const received = new Set<number>();
  const selfWakeup = rxWakeup(lab, self);
  const onReply = (p: { seq: number; sentAtNs: number }) => {
    if (received.has(p.seq)) return;
    received.add(p.seq);
    // iputils subtracts the µs timevals of the send (gettimeofday) and of the reply (SO_TIMESTAMP)
    const us = Math.floor(lab.nowNs / 1000) - Math.floor(p.sentAtNs / 1000);
    rtts.push(us);
    lastEventNs = lab.nowNs;
    if (!quiet && size >= 16)
      lines += `${8 + size} bytes from ${from}: icmp_seq=${p.seq} ttl=64 time=${fmtRtt(us)} ms\n`;
    else if (!quiet) lines += `${8 + size} bytes from ${from}: icmp_seq=${p.seq} ttl=64\n`;
  };
  // the reply is timestamped (SO_TIMESTAMP) when the sender's kernel handles it, after its wakeup
  self.host.registerRx(rep.id, {
    kind: 'raw',
    deliver: (p) => {
      const r = { seq: p.seq, sentAtNs: p.sentAtNs };
      lab.sched.after(selfWakeup(), () => onReply(r));
    },
  });
  // without -c ping would run until Ctrl-C: the lab sends for 60 s (the session's cap on unbounded
  // commands) and then ends as `-c 60` would, waiting for the last reply
  const capped = count === 0;
  if (capped) count = Math.max(1, Math.ceil(PING_UNBOUNDED_COUNT_LIMIT_S / intervalS - 1e-9));
  const sv = self.host.vcpus[0]!;
  let lastSendNs = start;
  const sendNext = () => {
    if (interrupted || (count > 0 && sent >= count)) return;
    sent++;
    lastSendNs = lab.nowNs;
    lastEventNs = lab.nowNs;
    if (localError) {
      errors++;
      errLines += `ping: local error: message too long, mtu=${mtu}\n`;
    } else self.host.transmit(mk(req, sent, lab.nowNs), self.host.ctxVcpu ?? sv);
    if (count === 0 || sent < count) lab.sched.after(Math.round(intervalS * 1e9), sendNext);
  };
  sendNext();
  const lingerNs = Math.round(waitS * 1e9);
  const finished = () =>
    interrupted ||
    (count > 0 && sent >= count && (received.size >= count || lab.nowNs - lastSendNs >= lingerNs));
  const job: Job = {
    done: finished,
    deadlineNs: () => lab.nowNs,
    interrupt: () => {
      interrupted = true;
    },
    finish: () => {
      self.host.unregister([rep.id]);
      target.host.unregister([req.id]);
      const n = rtts.length;
      // "%g%%" of a float, and the elapsed ms rounded (finish())
      const loss = sent > 0 ? cG(Math.fround(((sent - n) * 100) / sent), 6) : '0';
      const timeMs = Math.floor(((n === sent ? lastEventNs : lastSendNs) - start + 500_000) / 1e6);
      let out = quiet ? `PING ${dest} (${ip}) ${size}(${ipBytes}) bytes of data.\n` : lines;
      out += `\n--- ${dest} ping statistics ---\n`;
      out += `${sent} packets transmitted, ${n} received, ${errors > 0 ? `+${errors} errors, ` : ''}${loss}% packet loss, time ${timeMs}ms\n`;
      if (n > 0) out += `${rttSummary(rtts)}\n`;
      const note =
        capped && !interrupted
          ? `lab: ping without -c stops after ${PING_UNBOUNDED_COUNT_LIMIT_S} s of simulated time (${count} requests), as Ctrl-C would; give -c to choose\n`
          : '';
      return {
        stdout: out,
        stderr: errLines + note,
        exitCode: n > 0 ? 0 : 1,
        result: { transmitted: sent, received: n, rttUs: rtts },
      };
    },
  };
  return { kind: 'job', job };
}
