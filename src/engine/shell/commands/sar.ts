/**
 * sysstat 12.x `sar -n DEV interval [count]` (per-interface packet and byte rates from the ENA
 * device's netdev counters, as the Stressgrid seed measured with) and `sar -n UDP` (the host's UDP
 * MIB; InErrors is RcvbufErrors, the only UDP input error modelled). Runs as a job in simulated
 * time; Ctrl-C or the end of count prints the Average: block. Layout as print_net_dev_stats and
 * print_net_udp_stats print it (12-hour en_US times, kB of 1024, %ifutil 0.00 since ENA reports no
 * link speed, lo all zero). Other keywords are refused.
 *
 * Sources: sysstat rd_stats.c, pr_stats.c; STRESSGRID.
 */
import { CappedText } from '../output-cap';
import type { Instance, Lab } from '../../lab/lab';
import { utcFields } from '../../../lib/time';
import { type CommandOutcome, done, fail, type Job } from '../types';
import { labNote, SAR_HELP, SAR_USAGE } from './real-help';

/** sar.c usage() (stderr, exit 1): a missing or unknown keyword, a bad interval or count. */
const USAGE = SAR_USAGE;
/** The -n keywords sysstat 12.5 knows (display_help); only DEV and UDP are simulated. */
const NET_KEYWORDS = new Set(
  'DEV EDEV NFS NFSD SOCK IP EIP ICMP EICMP TCP ETCP UDP SOCK6 IP6 EIP6 ICMP6 EICMP6 UDP6 FC SOFT ALL'.split(
    ' ',
  ),
);

const COLS = ['rxpck/s', 'txpck/s', 'rxkB/s', 'txkB/s', 'rxcmp/s', 'txcmp/s', 'rxmcst/s', '%ifutil'];
const UDP_COLS = ['idgm/s', 'odgm/s', 'noport/s', 'idgmerr/s'];

/** The lab's limit on a sar run (interval × count), as on any command (runner DEFAULT_MAX_COMMAND_NS). */
export const SAR_LAB_MAX_SECONDS = 3600;

interface Sample {
  ns: number;
  /** Each ENA interface's counters (eth0, then the attached secondary ENIs' eth1 …). */
  devs: Array<{ rxP: number; txP: number; rxB: number; txB: number }>;
  idgm: number;
  odgm: number;
  noport: number;
  idgmerr: number;
}

export function runSar(argv: string[], lab: Lab, inst: Instance): CommandOutcome {
  let keyword: string | null = null;
  const nums: string[] = [];
  // sar reads its options in order; --help prints the help wherever it stands and exits
  if (argv.includes('--help'))
    return done(SAR_HELP + labNote('sar', '-n DEV and -n UDP with an interval and count'));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-n') {
      keyword = argv[++i] ?? null;
      if (keyword === null) return fail(USAGE, 1);
    } else if (/^\d+$/.test(a)) nums.push(a);
    else if (a.startsWith('-'))
      return fail(`sar: option ${a} is not simulated in ec2-netlab (only -n DEV and -n UDP)`, 1);
    else return fail(USAGE, 1);
  }
  if (keyword === null)
    return fail('sar: only the network reports (sar -n DEV, sar -n UDP) are simulated in ec2-netlab', 1);
  if (!keyword.split(',').every((k) => NET_KEYWORDS.has(k))) return fail(USAGE, 1);
  if (keyword !== 'DEV' && keyword !== 'UDP')
    return fail(`sar: -n ${keyword} is not simulated in ec2-netlab (only -n DEV and -n UDP)`, 1);
  const udp = keyword === 'UDP';
  if (nums.length === 0)
    return fail(
      'sar: reading the daily data files is not simulated in ec2-netlab; give an interval (sar -n DEV 1)',
      1,
    );
  if (nums.length > 2) return fail(USAGE, 1);
  const intervalS = Number(nums[0]);
  if (intervalS < 1) return fail(USAGE, 1);
  const count = nums[1] === undefined ? Number.POSITIVE_INFINITY : Number(nums[1]);
  if (count < 1) return fail(USAGE, 1);
  if (Number.isFinite(count) && intervalS * count > SAR_LAB_MAX_SECONDS)
    return fail(
      `sar: ec2-netlab samples for at most ${SAR_LAB_MAX_SECONDS} s (interval × count); ${intervalS} × ${count} is ${intervalS * count} s`,
      1,
    );

  // the interfaces present when sar starts, in /proc/net/dev order (lo, eth0, eth1 …)
  const devs = inst.host.ifaces.flatMap((ifc) => (ifc ? [ifc.dev] : []));
  const read = (): Sample => {
    const m = inst.host.udpMib;
    return {
      ns: lab.nowNs,
      devs: devs.map((d) => {
        const s = d.linkStats();
        return { rxP: s.rxPackets, txP: s.txPackets, rxB: s.rxBytes, txB: s.txBytes };
      }),
      idgm: m.inDatagrams,
      odgm: m.outDatagrams,
      noport: inst.host.noPorts,
      idgmerr: m.rcvbufErrors,
    };
  };
  const clock = (ns: number) => {
    const f = utcFields(lab.wallClockStartS + Math.floor(ns / 1e9));
    const h12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
    const p2 = (n: number) => String(n).padStart(2, '0');
    return {
      date: `${p2(f.month)}/${p2(f.day)}/${f.year}`,
      time: `${p2(h12)}:${p2(f.minute)}:${p2(f.second)} ${f.hour < 12 ? 'AM' : 'PM'}`,
    };
  };
  const col = (s: string) => ` ${s.padStart(9)}`;
  const num = (x: number) => col(x.toFixed(2));
  const rows = (stamp: string, a: Sample, b: Sample): string => {
    const dt = (b.ns - a.ns) / 1e9;
    const r = (x: number) => (dt > 0 ? x / dt : 0);
    if (udp)
      return `${stamp.padEnd(11)}${[r(b.idgm - a.idgm), r(b.odgm - a.odgm), r(b.noport - a.noport), r(b.idgmerr - a.idgmerr)].map(num).join('')}\n`;
    const lo = `${stamp.padEnd(11)}${col('lo')}${COLS.map(() => num(0)).join('')}\n`;
    const eths = devs.map((d, k) => {
      const x = a.devs[k]!;
      const y = b.devs[k]!;
      const eth = [
        r(y.rxP - x.rxP),
        r(y.txP - x.txP),
        r(y.rxB - x.rxB) / 1024,
        r(y.txB - x.txB) / 1024,
        0,
        0,
        0,
        0,
      ];
      return `${stamp.padEnd(11)}${col(d.name)}${eth.map(num).join('')}\n`;
    });
    return `${lo}${eths.join('')}`;
  };
  const header = (stamp: string) =>
    udp
      ? `${stamp.padEnd(11)}${UDP_COLS.map(col).join('')}\n`
      : `${stamp.padEnd(11)}${col('IFACE')}${COLS.map(col).join('')}\n`;

  const first = read();
  const out = new CappedText(
    `Linux 6.1.115-126.197.amzn2023.x86_64 (ip-${inst.host.ip.replace(/\./g, '-')}) \t${clock(first.ns).date} \t_x86_64_\t(${inst.spec.vcpus.value} CPU)\n`,
  );
  let prev = first;
  let taken = 0;
  let finished = false;
  const stop = () => {
    if (finished) return;
    finished = true;
    if (taken > 0) out.add(`\n${header('Average:')}${rows('Average:', first, prev)}`);
  };
  const intervalNs = intervalS * 1e9;
  const tick = () => {
    if (finished) return;
    const s = read();
    out.add(`\n${header(clock(prev.ns).time)}${rows(clock(s.ns).time, prev, s)}`);
    prev = s;
    taken++;
    if (taken >= count) stop();
    else lab.sched.at(first.ns + (taken + 1) * intervalNs, tick);
  };
  lab.sched.at(first.ns + intervalNs, tick);
  const job: Job = {
    done: () => finished,
    deadlineNs: () => (Number.isFinite(count) ? first.ns + count * intervalNs : Number.POSITIVE_INFINITY),
    interrupt: () => stop(),
    finish: () => ({ stdout: out.text, stderr: '', exitCode: 0, stdoutCut: out.cut }),
    progress: () => out.text,
  };
  return { kind: 'job', job };
}
