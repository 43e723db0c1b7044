/**
 * `dpdk-testpmd [EAL options] -- [testpmd options]` on a simulated instance (DPDK 23.11 text):
 * parsing as rte_eal_init and testpmd's launch_args_parse, with their messages; output as testpmd
 * prints it (start-up, forwarding configuration, periodic port statistics, and on interrupt the
 * forward statistics and "Bye..."). Options the lab does not model, and `-i`, are refused by name.
 *
 * Sources: DPDK app/test-pmd/{parameters,testpmd,config}.c, lib/eal. Where the lab departs from
 * testpmd (printed as "ec2-netlab:" notes): docs/design.md, "Command lines as the real tools read
 * them". The model behind it: src/engine/apps/dpdk-testpmd.ts.
 */
import { TestpmdApp, type TestpmdConfig, type TestpmdMode } from '../../apps/dpdk-testpmd';
import type { Instance, Lab } from '../../lab/lab';
import type { CommandOutcome, CommandOutput, Job } from '../types';
import { EAL_USAGE, labNote, testpmdUsage } from './real-help';

const PROG = 'dpdk-testpmd';
const MAX_PKT_BURST = 512;
const DEFAULT_MBUF_SIZE = 2176; // RTE_MBUF_DEFAULT_BUF_SIZE: 2048 + 128 headroom
const ENA_PCI = '0000:00:05.0';

/** Modes testpmd knows (fwd_engines); only three are simulated. */
const KNOWN_MODES = [
  'io',
  'mac',
  'macswap',
  'flowgen',
  'rxonly',
  'txonly',
  'csum',
  'icmpecho',
  'ieee1588',
  'noisy',
  '5tswap',
  'shared-rxq',
  'recycle_mbufs',
];

/** testpmd's long options (launch_args_parse lgopts): name → takes an argument. */
const LONG_OPTS: Record<string, 0 | 1 | 2> = {
  help: 0,
  interactive: 0,
  'cmdline-file': 1,
  'auto-start': 0,
  'eth-peers-configfile': 1,
  'eth-peer': 1,
  'tx-first': 0,
  'stats-period': 1,
  'display-xstats': 1,
  'nb-cores': 1,
  'nb-ports': 1,
  coremask: 1,
  portmask: 1,
  portlist: 1,
  numa: 0,
  'no-numa': 0,
  'mp-anon': 0,
  'port-numa-config': 1,
  'ring-numa-config': 1,
  'socket-num': 1,
  'mbuf-size': 1,
  'total-num-mbufs': 1,
  'max-pkt-len': 1,
  'max-lro-pkt-size': 1,
  latencystats: 1,
  'bitrate-stats': 1,
  'disable-crc-strip': 0,
  'enable-lro': 0,
  'enable-rx-cksum': 0,
  'enable-rx-timestamp': 0,
  'enable-scatter': 0,
  'enable-hw-vlan': 0,
  'enable-hw-vlan-filter': 0,
  'enable-hw-vlan-strip': 0,
  'enable-hw-vlan-extend': 0,
  'enable-hw-qinq-strip': 0,
  'enable-drop-en': 0,
  'disable-rss': 0,
  'port-topology': 1,
  'forward-mode': 1,
  'rss-ip': 0,
  'rss-udp': 0,
  'rss-level-outer': 0,
  'rss-level-inner': 0,
  rxq: 1,
  txq: 1,
  rxd: 1,
  txd: 1,
  hairpinq: 1,
  'hairpin-mode': 1,
  burst: 1,
  'flowgen-clones': 1,
  'flowgen-flows': 1,
  mbcache: 1,
  txpt: 1,
  txht: 1,
  txwt: 1,
  txfreet: 1,
  txrst: 1,
  rxpt: 1,
  rxht: 1,
  rxwt: 1,
  rxfreet: 1,
  'no-flush-rx': 0,
  'flow-isolate-all': 0,
  'disable-flow-flush': 0,
  rxoffs: 1,
  rxpkts: 1,
  rxhdrs: 1,
  txpkts: 1,
  'multi-rx-mempool': 0,
  'txonly-multi-flow': 0,
  'rxq-share': 2,
  'eth-link-speed': 1,
  'disable-link-check': 0,
  'disable-device-start': 0,
  'no-lsc-interrupt': 0,
  'no-rmv-interrupt': 0,
  'print-event': 1,
  'mask-event': 1,
  'tx-offloads': 1,
  'rx-offloads': 1,
  'hot-plug': 0,
  'vxlan-gpe-port': 1,
  'geneve-parsed-port': 1,
  mlockall: 0,
  'no-mlockall': 0,
  'mp-alloc': 1,
  'tx-ip': 1,
  'tx-udp': 1,
  'noisy-forward-mode': 1,
  'noisy-tx-sw-buffer-size': 1,
  'noisy-tx-sw-buffer-flushtime': 1,
  'noisy-lkup-memory': 1,
  'noisy-lkup-num-writes': 1,
  'noisy-lkup-num-reads': 1,
  'noisy-lkup-num-reads-writes': 1,
  'no-iova-contig': 0,
  'rx-mq-mode': 1,
  'record-core-cycles': 0,
  'record-burst-stats': 0,
  'num-procs': 1,
  'proc-id': 1,
};

/** Options accepted because they change nothing the lab models. */
const HARMLESS = new Set([
  'auto-start',
  'numa',
  'no-numa',
  'mbcache',
  'total-num-mbufs',
  'disable-link-check',
  'no-lsc-interrupt',
  'no-rmv-interrupt',
  'mlockall',
  'no-mlockall',
  'no-flush-rx',
  'rss-udp',
  'rss-ip',
  'txfreet',
  'txrst',
  'rxfreet',
  'txpt',
  'txht',
  'txwt',
  'rxpt',
  'rxht',
  'rxwt',
  'port-topology',
  'nb-ports',
  'enable-rx-cksum',
  'mp-alloc',
]);

/** EAL options: name → takes an argument. */
const EAL_LONG: Record<string, 0 | 1> = {
  lcores: 1,
  'main-lcore': 1,
  'master-lcore': 1,
  allow: 1,
  'pci-whitelist': 1,
  block: 1,
  'file-prefix': 1,
  'socket-mem': 1,
  'socket-limit': 1,
  'huge-dir': 1,
  'in-memory': 0,
  'no-huge': 0,
  'proc-type': 1,
  'log-level': 1,
  'iova-mode': 1,
  'no-telemetry': 0,
  'no-pci': 0,
  vdev: 1,
  'legacy-mem': 0,
  'single-file-segments': 0,
  'match-allocations': 0,
  'huge-unlink': 2 as 1,
  'base-virtaddr': 1,
  'vfio-intr': 1,
  'create-uio-dev': 0,
  help: 0,
  version: 0,
};
const EAL_NOT_SIMULATED = new Set(['lcores', 'vdev', 'no-pci', 'block', 'proc-type', 'no-huge', 'iova-mode']);

/** Instances with a testpmd holding their port (one DPDK primary process per instance). */
const running = new WeakMap<Instance, TestpmdApp>();

export interface ParsedTestpmd {
  cfg: TestpmdConfig;
  statsPeriodS: number;
  peerMac: string;
  mbufSize: number;
  /** Lines testpmd prints to stdout while parsing (e.g. "Set txonly packet forwarding mode"). */
  parseOut: string[];
  /** Lines printed to stderr while parsing (warnings that do not stop it). */
  parseErr: string[];
  /** Notes from the lab. */
  notes: string[];
  eal: { lcores: number[]; mainLcore: number };
}

export type ParseResult = { ok: true; value: ParsedTestpmd } | { ok: false; out: CommandOutput };

const rteExit = (cause: string, stdout = '', pre = ''): ParseResult => ({
  ok: false,
  out: {
    stdout,
    stderr: `${pre}EAL: Error - exiting with code: 1\n  Cause: ${cause.endsWith('\n') ? cause : `${cause}\n`}`,
    exitCode: 1,
  },
});

const labRefuse = (msg: string): ParseResult => ({
  ok: false,
  out: { stdout: '', stderr: `${PROG}: ${msg}\n`, exitCode: 1 },
});

/** C atoi: optional spaces and sign, then digits; anything else stops it (atoi("x") = 0). */
export function atoi(s: string): number {
  const m = /^\s*([+-]?\d+)/.exec(s);
  if (!m) return 0;
  const n = Number(m[1]);
  return Math.max(-2147483648, Math.min(2147483647, n));
}

/** strtoul base 10 requiring the whole string to be digits (testpmd's usual check). */
function strictUint(s: string): number | null {
  return /^\d+$/.test(s) ? Number(s) : null;
}

function ipOk(s: string): boolean {
  return /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(s);
}

/** EAL corelist "0-3,8,10-11" → sorted unique ids, or null when malformed. */
export function parseCorelist(s: string): number[] | null {
  const out = new Set<number>();
  for (const part of s.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) return null;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b >= 1024) return null;
    for (let i = a; i <= b; i++) out.add(i);
  }
  return [...out].sort((x, y) => x - y);
}

function parseCoremask(s: string): number[] | null {
  const hex = s.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]+$/.test(hex)) return null;
  const out: number[] = [];
  let bit = 0;
  for (let i = hex.length - 1; i >= 0; i--, bit += 4) {
    const d = Number.parseInt(hex[i]!, 16);
    for (let k = 0; k < 4; k++) if (d & (1 << k)) out.push(bit + k);
  }
  return out;
}

/** getopt_long's long-option lookup: exact name, else a unique prefix. */
function lookupLong(name: string, table: Record<string, unknown>): string | { ambiguous: string[] } | null {
  if (name in table) return name;
  const hits = Object.keys(table).filter((k) => k.startsWith(name));
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) return { ambiguous: hits };
  return null;
}

/** Parse the whole command line. `lab`/`host` supply the device limits and the lab's defaults. */
export function parseTestpmd(argv: string[], lab: Lab, host: Instance): ParseResult {
  const nCpu = host.host.vcpus.length;
  const dev = host.host.eth0;
  const maxQueues = dev.channels().combinedMax;
  const rings = dev.rings();
  const notes: string[] = [];
  const parseOut: string[] = [];
  const parseErr: string[] = [];

  // ---------------------------------------------------------------- EAL
  let lcores: number[] | null = null;
  let mainLcore: number | undefined;
  let i = 0;
  const ealFail = (lines: string): ParseResult => ({
    ok: false,
    out: {
      stdout: '',
      stderr: `${lines}EAL: Invalid 'command line' arguments.\nEAL: Error - exiting with code: 1\n  Cause: Cannot init EAL: Invalid argument\n`,
      exitCode: 1,
    },
  });
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-')) break; // getopt stops at the first non-option
    if (a === '-h') return ealHelp(nCpu);
    const short = /^-([lcnmaw])(.*)$/.exec(a);
    if (short && !a.startsWith('--')) {
      const opt = short[1]!;
      let val = short[2]!;
      if (val === '') {
        if (i + 1 >= argv.length) return ealFail(`${PROG}: option requires an argument -- '${opt}'\n`);
        val = argv[++i]!;
      }
      if (opt === 'l') {
        const l = parseCorelist(val);
        if (!l) return ealFail('EAL: invalid core list syntax\n');
        lcores = l;
      } else if (opt === 'c') {
        const l = parseCoremask(val);
        if (!l || l.length === 0) return ealFail('EAL: invalid coremask syntax\n');
        lcores = l;
      } else if (opt === 'a' || opt === 'w') {
        if (val !== ENA_PCI && val !== ENA_PCI.slice(5) && !val.startsWith(`${ENA_PCI},`)) {
          return labRefuse(
            `-${opt} ${val}: the instance has one ENA device, ${ENA_PCI} (eth0); other devices are not simulated in ec2-netlab`,
          );
        }
      }
      continue; // -n (memory channels), -m (memory): accepted, nothing to model
    }
    if (a.startsWith('--')) {
      const [rawName, inlineVal] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const hit = lookupLong(rawName, EAL_LONG);
      if (hit === null) return ealFail(`${PROG}: unrecognized option '${a}'\n`);
      if (typeof hit !== 'string')
        return ealFail(
          `${PROG}: option '--${rawName}' is ambiguous; possibilities:${hit.ambiguous.map((h) => ` '--${h}'`).join('')}\n`,
        );
      let val = inlineVal;
      if (EAL_LONG[hit] === 1 && val === undefined) {
        if (i + 1 >= argv.length) return ealFail(`${PROG}: option '--${hit}' requires an argument\n`);
        val = argv[++i]!;
      }
      if (EAL_NOT_SIMULATED.has(hit)) return labRefuse(`EAL option --${hit} is not simulated in ec2-netlab`);
      if (hit === 'help') return ealHelp(nCpu);
      if (hit === 'version') return labRefuse(`--${hit} is not simulated in ec2-netlab`);
      if (hit === 'main-lcore' || hit === 'master-lcore') {
        const n = strictUint(val ?? '');
        if (n === null) return ealFail('EAL: invalid parameter for --main-lcore\n');
        mainLcore = n;
      }
      if (
        (hit === 'allow' || hit === 'pci-whitelist') &&
        val !== ENA_PCI &&
        !val?.startsWith(`${ENA_PCI},`)
      ) {
        return labRefuse(
          `--${hit} ${val}: the instance has one ENA device, ${ENA_PCI} (eth0); other devices are not simulated in ec2-netlab`,
        );
      }
      continue;
    }
    return ealFail(`${PROG}: invalid option -- '${a.slice(1, 2)}'\n`);
  }
  const all = lcores ?? Array.from({ length: nCpu }, (_, k) => k);
  for (const c of all) {
    if (c >= nCpu) return ealFail(`EAL: lcore ${c} unavailable\n`);
  }
  const main = mainLcore ?? all[0]!;
  if (!all.includes(main)) return ealFail(`EAL: Main lcore ${main} is not enabled for DPDK\n`);
  const fwdLcoreIds = all.filter((c) => c !== main);

  // ---------------------------------------------------------------- testpmd
  const cfg: TestpmdConfig = {
    mode: 'io',
    fwdLcoreIds,
    nbCores: 1,
    txq: 1,
    rxq: 1,
    burst: 32,
    txPktLen: 64,
    txIpSrc: '198.18.0.1',
    txIpDst: '198.18.0.2',
    txUdpSrc: 9,
    txUdpDst: 9,
    multiFlow: false,
    txd: 0,
    rxd: 0,
  };
  let statsPeriodS = 0;
  let peerMac = '02:00:00:00:00:00';
  let mbufSize = DEFAULT_MBUF_SIZE;
  let txIpGiven = false;
  let txpktsArg: number[] | null = null;
  const nbLcores = fwdLcoreIds.length;
  const usageHead = testpmdUsage(nbLcores);
  /** testpmd's `-h`/`--help`: EAL is up (its lines), what was parsed so far, usage(); exit 0. */
  const testpmdHelp = (): ParseResult => ({
    ok: false,
    out: {
      stdout: `${[...ealInitLines(nCpu), ...parseOut].join('\n')}\n${usageHead}${labNote(PROG, TESTPMD_SIMULATED)}`,
      stderr: '',
      exitCode: 0,
    },
  });
  const bad = (what: string): ParseResult =>
    rteExit('Command line is incomplete or incorrect', usageHead, `${what}\n`);

  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') {
      return rteExit('Command line is incorrect', usageHead, `Invalid parameter: ${a}\n`);
    }
    if (!a.startsWith('--')) {
      // short options: -i, -a, -h (grouped like getopt allows)
      for (const ch of a.slice(1)) {
        if (ch === 'i')
          return labRefuse(
            '-i: interactive mode is not simulated in ec2-netlab; testpmd starts forwarding at once, stop it with Ctrl-C or run it under `timeout`',
          );
        else if (ch === 'a') parseOut.push('Auto-start selected');
        else if (ch === 'h') return testpmdHelp();
        else return bad(`${PROG}: invalid option -- '${ch}'\nInvalid option: ${a}`);
      }
      continue;
    }
    const [rawName, inlineVal] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const hit = lookupLong(rawName, LONG_OPTS);
    if (hit === null) return bad(`${PROG}: unrecognized option '${a}'\nInvalid option: ${a}`);
    if (typeof hit !== 'string')
      return bad(
        `${PROG}: option '--${rawName}' is ambiguous; possibilities:${hit.ambiguous.map((h) => ` '--${h}'`).join('')}\nInvalid option: ${a}`,
      );
    const kind = LONG_OPTS[hit]!;
    let val = inlineVal ?? '';
    if (kind === 0 && inlineVal !== undefined)
      return bad(`${PROG}: option '--${hit}' doesn't allow an argument\nInvalid option: ${a}`);
    if (kind === 1 && inlineVal === undefined) {
      if (i + 1 >= argv.length)
        return bad(`${PROG}: option '--${hit}' requires an argument\nInvalid option: ${a}`);
      val = argv[++i]!;
    }
    switch (hit) {
      case 'interactive':
        return labRefuse(
          '--interactive: interactive mode is not simulated in ec2-netlab; testpmd starts forwarding at once, stop it with Ctrl-C or run it under `timeout`',
        );
      case 'help':
        return testpmdHelp();
      case 'forward-mode':
        if (!KNOWN_MODES.includes(val)) {
          parseErr.push(`Invalid ${val} packet forwarding mode`);
        } else if (val !== 'txonly' && val !== 'rxonly' && val !== 'io') {
          return labRefuse(`--forward-mode=${val}: only io, rxonly and txonly are simulated in ec2-netlab`);
        } else {
          cfg.mode = val as TestpmdMode;
          parseOut.push(`Set ${val} packet forwarding mode`);
        }
        break;
      case 'txq':
      case 'rxq': {
        const n = atoi(val);
        if (n >= 0 && n > maxQueues) {
          parseErr.push(
            `Fail: input ${hit} (${n}) can't be greater than max_${hit === 'txq' ? 'tx' : 'rx'}_queues (${maxQueues}) of port 0`,
          );
        }
        if (n < 0 || n > maxQueues)
          return rteExit(
            `${hit} ${n} invalid - must be >= 0 && <= ${maxQueues}`,
            parseOut.join('\n'),
            joinErr(parseErr),
          );
        cfg[hit] = n;
        if (cfg.txq === 0 && cfg.rxq === 0)
          return rteExit('Either rx or tx queues should be non-zero', '', joinErr(parseErr));
        break;
      }
      case 'nb-cores': {
        const n = atoi(val);
        if (n > 0 && n <= nbLcores) cfg.nbCores = n;
        else return rteExit(`nb-cores should be > 0 and <= ${nbLcores}`, '', joinErr(parseErr));
        break;
      }
      case 'burst': {
        const n = atoi(val);
        if (n === 0)
          return rteExit(
            `PMD does not recommend a burst size. Provided value must be between 1 and ${MAX_PKT_BURST}`,
            '',
            joinErr(parseErr),
          );
        // (testpmd stores a negative value as uint16; the lab rejects it like an oversized one)
        if (n > MAX_PKT_BURST || n < 0)
          return rteExit(`burst must be between1 and ${MAX_PKT_BURST}`, '', joinErr(parseErr));
        cfg.burst = n;
        break;
      }
      case 'mbuf-size': {
        const first = val.split(',')[0] ?? '';
        const n = strictUint(first);
        if (n === null) return rteExit('bad mbuf-size', '', joinErr(parseErr));
        if (n <= 0 || n > 0xffff)
          return rteExit('mbuf-size should be > 0 and < 65536', '', joinErr(parseErr));
        mbufSize = n;
        break;
      }
      case 'txpkts': {
        const segs = val.split(',').map((s) => strictUint(s.trim()));
        if (val === '' || segs.some((s) => s === null) || segs.length > 8)
          return rteExit('bad txpkts', '', joinErr(parseErr));
        txpktsArg = segs as number[];
        // set_tx_pkt_segments runs now, against the mbuf size known so far
        let total = 0;
        let ok = true;
        (txpktsArg as number[]).forEach((len, k) => {
          if (ok && len > mbufSize) {
            parseErr.push(`length[${k}]=${len} > mbuf_data_size=${mbufSize} - give up`);
            ok = false;
          }
          total += len;
        });
        if (ok && (total & 0xffff) < 42) {
          parseErr.push(`total packet length=${total & 0xffff} < 42 - give up`);
          ok = false;
        }
        if (ok) cfg.txPktLen = total & 0xffff;
        break;
      }
      case 'txd':
      case 'rxd': {
        const n = atoi(val);
        if (n <= 0)
          return rteExit(
            hit === 'txd' ? 'txd must be in > 0' : `rxd(${n}) invalid - must be > 0`,
            '',
            joinErr(parseErr),
          );
        const max = hit === 'txd' ? rings.txMax : rings.rxMax;
        if (n > max || n < 256)
          return labRefuse(
            `--${hit}=${n}: the lab's ENA rings take ${256}..${max} descriptors (as ethtool -G eth0 does); other sizes are not simulated`,
          );
        cfg[hit] = n;
        break;
      }
      case 'tx-ip': {
        const comma = val.indexOf(',');
        if (comma <= 0) return rteExit(`Invalid tx-ip: ${val}`, '', joinErr(parseErr));
        const src = val.slice(0, comma);
        const dst = val.slice(comma + 1);
        if (!ipOk(src)) return rteExit(`Invalid source IP address: ${src}`, '', joinErr(parseErr));
        if (!ipOk(dst)) return rteExit(`Invalid destination IP address: ${src}`, '', joinErr(parseErr));
        cfg.txIpSrc = src;
        cfg.txIpDst = dst;
        txIpGiven = true;
        break;
      }
      case 'tx-udp': {
        const m = /^(\d+)(?:,(.*))?$/.exec(val);
        if (!m || Number(m[1]) > 65535) return rteExit(`Invalid UDP port: ${val}`, '', joinErr(parseErr));
        cfg.txUdpSrc = Number(m[1]);
        if (m[2] !== undefined) {
          const d = strictUint(m[2]);
          if (d === null || d > 65535)
            return rteExit(`Invalid destination UDP port: ${m[2]}`, '', joinErr(parseErr));
          cfg.txUdpDst = d;
        } else {
          cfg.txUdpDst = cfg.txUdpSrc;
        }
        break;
      }
      case 'txonly-multi-flow':
        cfg.multiFlow = true;
        break;
      case 'stats-period': {
        const n = strictUint(val);
        if (n !== null) statsPeriodS = n; // testpmd ignores a malformed value
        break;
      }
      case 'eth-peer': {
        const m = /^(\d+),(.*)$/.exec(val);
        if (!m) return rteExit(`Invalid eth-peer: ${val}`, '', joinErr(parseErr));
        if (Number(m[1]) >= 32)
          return rteExit(`eth-peer: port ${m[1]} >= RTE_MAX_ETHPORTS(32)`, '', joinErr(parseErr));
        if (!/^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$/.test(m[2]!))
          return rteExit(`Invalid ethernet address: ${m[2]}`, '', joinErr(parseErr));
        if (Number(m[1]) === 0) peerMac = m[2]!.toUpperCase();
        break;
      }
      default:
        if (!HARMLESS.has(hit)) return labRefuse(`option --${hit} is not simulated in ec2-netlab`);
    }
  }

  // ---------------------------------------------------------------- lab defaults for the VPC
  if (cfg.mode === 'txonly') {
    if (!txIpGiven) {
      const others = [...lab.instances.values()].filter((x) => x !== host);
      if (others.length !== 1) {
        return labRefuse(
          "txonly's default addresses 198.18.0.1 -> 198.18.0.2 are not in the VPC; give --tx-ip=SRC,DST with this instance's address and the receiver's",
        );
      }
      cfg.txIpSrc = host.host.ip;
      cfg.txIpDst = others[0]!.host.ip;
      notes.push(
        `txonly sends ${cfg.txIpSrc} -> ${cfg.txIpDst} (${others[0]!.name}): testpmd's default 198.18.0.1 -> 198.18.0.2 is not routable in a VPC; use --tx-ip=SRC,DST to choose`,
      );
    } else if (cfg.txIpSrc !== host.host.ip) {
      return labRefuse(
        `--tx-ip source ${cfg.txIpSrc} is not this instance's address (${host.host.ip}): EC2's source/destination check would drop every packet`,
      );
    } else if (!lab.resolve(cfg.txIpDst)) {
      notes.push(`no instance has ${cfg.txIpDst}: the VPC drops these packets`);
    }
  }
  if (cfg.mode === 'io') {
    notes.push(
      'io forwarding on a VPC ENI: packets are sent back to their source (an unmodified packet addressed to this instance would go nowhere), as a 5-tuple swap would',
    );
  }
  if (cfg.rxq > 1 && cfg.rxq > cfg.txq)
    parseErr.push(
      `Warning: nb_rxq=${cfg.rxq} enables RSS configuration, but nb_txq=${cfg.txq} will prevent to fully test it.`,
    );
  void txpktsArg;
  return {
    ok: true,
    value: {
      cfg,
      statsPeriodS,
      peerMac,
      mbufSize,
      parseOut,
      parseErr,
      notes,
      eal: { lcores: all, mainLcore: main },
    },
  };
}

function joinErr(lines: string[]): string {
  return lines.map((l) => `${l}\n`).join('');
}

const pad = (v: number | string, w: number) => String(v).padEnd(w);
const padL = (v: number | string, w: number) => String(v).padStart(w);

/** fwd_stats_display (testpmd.c): per-stream blocks when streams > ports, the port block, the totals. */
export function formatForwardStats(app: TestpmdApp): string {
  const r = app.result();
  const p = r.ports[0]!;
  let s = '';
  if (r.streams.length > 1) {
    for (const f of r.streams) {
      if (f.rxPackets === 0 && f.txPackets === 0 && f.fwdDropped === 0) continue;
      s += `\n  ------- Forward Stats for RX Port=${padL(0, 2)}/Queue=${padL(f.rxQueue, 2)} -> TX Port=${padL(0, 2)}/Queue=${padL(f.txQueue, 2)} -------\n`;
      s += `  RX-packets: ${pad(f.rxPackets, 14)} TX-packets: ${pad(f.txPackets, 14)} TX-dropped: ${pad(f.fwdDropped, 14)}\n`;
    }
  }
  const border = '----------------------';
  s += `\n  ${border} Forward statistics for port ${pad(0, 2)} ${border}\n`;
  s += `  RX-packets: ${pad(p.rxPackets, 14)} RX-dropped: ${pad(p.rxDropped, 14)}RX-total: ${p.rxPackets + p.rxDropped}\n`;
  s += `  TX-packets: ${pad(p.txPackets, 14)} TX-dropped: ${pad(p.txDropped, 14)}TX-total: ${p.txPackets + p.txDropped}\n`;
  s += `  ${border}--------------------------------${border}\n`;
  const acc = '+++++++++++++++';
  s += `\n  ${acc} Accumulated forward statistics for all ports${acc}\n`;
  s += `  RX-packets: ${pad(p.rxPackets, 14)} RX-dropped: ${pad(p.rxDropped, 14)}RX-total: ${p.rxPackets + p.rxDropped}\n`;
  s += `  TX-packets: ${pad(p.txPackets, 14)} TX-dropped: ${pad(p.txDropped, 14)}TX-total: ${p.txPackets + p.txDropped}\n`;
  s += `  ${acc}++++++++++++++++++++++++++++++++++++++++++++++${acc}\n`;
  return s;
}

/** nic_stats_display (config.c) with its "since last show" throughput. */
export function formatNicStats(
  c: { ipackets: number; imissed: number; ibytes: number; opackets: number; obytes: number },
  prev: { ipackets: number; ibytes: number; opackets: number; obytes: number; ns: number } | null,
  nowNs: number,
): string {
  const border = '########################';
  let s = `\n  ${border} NIC statistics for port ${pad(0, 2)} ${border}\n`;
  s += `  RX-packets: ${pad(c.ipackets, 10)} RX-missed: ${pad(c.imissed, 10)} RX-bytes:  ${c.ibytes}\n`;
  s += '  RX-errors: 0\n';
  s += `  RX-nombuf:  ${pad(0, 10)}\n`;
  s += `  TX-packets: ${pad(c.opackets, 10)} TX-errors: ${pad(0, 10)} TX-bytes:  ${c.obytes}\n`;
  const dt = prev ? nowNs - prev.ns : 0;
  const rate = (d: number) => (dt > 0 ? Math.floor((Math.max(0, d) / dt) * 1e9) : 0);
  const rxPps = prev ? rate(c.ipackets - prev.ipackets) : 0;
  const txPps = prev ? rate(c.opackets - prev.opackets) : 0;
  const rxBps = prev ? rate(c.ibytes - prev.ibytes) * 8 : 0;
  const txBps = prev ? rate(c.obytes - prev.obytes) * 8 : 0;
  s += '\n  Throughput (since last show)\n';
  s += `  Rx-pps: ${padL(rxPps, 12)}          Rx-bps: ${padL(rxBps, 12)}\n`;
  s += `  Tx-pps: ${padL(txPps, 12)}          Tx-bps: ${padL(txBps, 12)}\n`;
  s += `  ${border}############################${border}\n`;
  return s;
}

/** What rte_eal_init prints on the instance before testpmd parses its own options. */
function ealInitLines(nCpu: number): string[] {
  return [
    `EAL: Detected CPU lcores: ${nCpu}`,
    'EAL: Detected NUMA nodes: 1',
    'EAL: Detected static linkage of DPDK',
    'EAL: Multi-process socket /var/run/dpdk/rte/mp_socket',
    "EAL: Selected IOVA mode 'PA'",
    'EAL: VFIO support initialized',
    `EAL: Probe PCI driver: net_ena (1d0f:ec20) device: ${ENA_PCI} (socket 0)`,
    'TELEMETRY: No legacy callbacks, legacy socket not created',
  ];
}

const TESTPMD_SIMULATED =
  'EAL -l/-c, -n, -m, -a/--allow, --main-lcore; testpmd --forward-mode=io|rxonly|txonly, --nb-cores, --rxq/--txq, --rxd/--txd, --burst, --txpkts, --tx-ip, --tx-udp, --txonly-multi-flow, --stats-period, --eth-peer, --mbuf-size, -a/--auto-start';

/** `-h`/`--help`: EAL's usage (rte_eal_init has detected the CPUs, then exits 0). */
const ealHelp = (nCpu: number): ParseResult => ({
  ok: false,
  out: {
    stdout: `${ealInitLines(nCpu).slice(0, 2).join('\n')}\n${EAL_USAGE}${labNote(PROG, TESTPMD_SIMULATED)}`,
    stderr: '',
    exitCode: 0,
  },
});

function startupText(p: ParsedTestpmd, host: Instance, app: TestpmdApp, layout: TestpmdApp['cfg']): string {
  const nCpu = host.host.vcpus.length;
  const nbLcores = p.eal.lcores.length - 1;
  const dev = host.host.eth0;
  const rings = dev.rings();
  const nbMbuf = (2048 + nbLcores * 250 + 2048 + MAX_PKT_BURST) * 32;
  const mac = dev.link().mac.toUpperCase();
  const lines: string[] = [
    ...ealInitLines(nCpu),
    ...p.parseOut,
    `testpmd: create a new mbuf pool <mb_pool_0>: n=${nbMbuf}, size=${p.mbufSize}, socket=0`,
    'testpmd: preferred mempool ops selected: ring_mp_mc',
    'Configuring Port 0 (socket 0)',
    `Port 0: ${mac}`,
    'Checking link statuses...',
    'Done',
    'No commandline core given, start packet forwarding',
  ];
  const r = app.result();
  const cfg = layout;
  let s = `${lines.join('\n')}\n`;
  s += `${cfg.mode} packet forwarding - ports=1 - cores=${r.lcores.length} - streams=${r.streams.length} - NUMA support enabled, MP allocation mode: native\n`;
  for (const lc of r.lcores) {
    const mine = r.streams.filter((x) => x.lcore === lc);
    s += `Logical Core ${lc} (socket 0) forwards packets on ${mine.length} streams:`;
    for (const f of mine)
      s += `\n  RX P=0/Q=${f.rxQueue} (socket 0) -> TX P=0/Q=${f.txQueue} (socket 0) peer=${p.peerMac}`;
    s += '\n';
  }
  s += '\n';
  s += `  ${cfg.mode} packet forwarding packets/burst=${cfg.burst}\n`;
  if (cfg.mode === 'txonly') s += `  packet len=${cfg.txPktLen} - nb packet segments=1\n`;
  s += `  nb forwarding cores=${cfg.nbCores} - nb forwarding ports=1\n`;
  s += `  port 0: RX queue number: ${cfg.rxq} Tx queue number: ${cfg.txq}\n`;
  s += '    Rx offloads=0x0 Tx offloads=0x0\n';
  s += '    RX queue: 0\n';
  s += `      RX desc=${rings.rx} - RX free threshold=0\n`;
  s += '      RX threshold registers: pthresh=0 hthresh=0  wthresh=0\n';
  s += '      RX Offloads=0x0\n';
  s += '    TX queue: 0\n';
  s += `      TX desc=${rings.tx} - TX free threshold=0\n`;
  s += '      TX threshold registers: pthresh=0 hthresh=0  wthresh=0\n';
  s += '      TX offloads=0x0 - TX RS bit threshold=0\n';
  return s;
}

/** Run `dpdk-testpmd ARGS…` on `host`. */
export function runDpdkTestpmd(argv: string[], lab: Lab, host: Instance): CommandOutcome {
  const parsed = parseTestpmd(argv, lab, host);
  if (!parsed.ok) return { kind: 'done', out: parsed.out };
  const p = parsed.value;
  const cfg = p.cfg;
  if (running.get(host)?.isRunning) {
    return {
      kind: 'done',
      out: {
        stdout: '',
        stderr:
          "EAL: Cannot create lock on '/var/run/dpdk/rte/config'. Is another primary process running?\nEAL: FATAL: Cannot init config\nEAL: Cannot init config\nEAL: Error - exiting with code: 1\n  Cause: Cannot init EAL: Resource temporarily unavailable\n",
        exitCode: 1,
      },
    };
  }
  // start_packet_forwarding's checks
  if (cfg.mode === 'rxonly' && cfg.rxq === 0)
    return { kind: 'done', out: failOut('rxq are 0, cannot use rxonly fwd mode', p) };
  if (cfg.mode === 'txonly' && cfg.txq === 0)
    return { kind: 'done', out: failOut('txq are 0, cannot use txonly fwd mode', p) };
  if (cfg.mode === 'io' && (cfg.rxq === 0 || cfg.txq === 0))
    return { kind: 'done', out: failOut('Either rxq or txq are 0, cannot use io fwd mode', p) };

  const app = new TestpmdApp(lab, host, cfg);
  const err = app.start();
  if (err) {
    return {
      kind: 'done',
      out: {
        stdout: '',
        stderr: `${err}\nEAL: Error - exiting with code: 1\n  Cause: Start ports failed\n`,
        exitCode: 1,
      },
    };
  }
  running.set(host, app);
  let stdout = startupText(p, host, app, cfg);
  let stderr = joinErr(p.parseErr);
  // port-topology=paired with one port (fwd_topology_tx_port_get), printed once at init
  stderr +=
    '\nWarning! port-topology=paired and odd forward ports number, the last port will pair with itself.\n\n';
  stderr += 'Error during enabling promiscuous mode for port 0: Operation not supported - ignore\n';
  stderr += p.notes.map((n) => `ec2-netlab: ${n}\n`).join('');
  stderr +=
    'ec2-netlab: eth0 belongs to the DPDK ENA poll-mode driver while dpdk-testpmd runs (as after dpdk-devbind.py --bind=vfio-pci); kernel traffic on this instance is not modelled meanwhile\n';
  let statsTimer: { stop: () => void } | null = null;
  if (p.statsPeriodS > 0) {
    let prev: { ipackets: number; ibytes: number; opackets: number; obytes: number; ns: number } | null =
      null;
    const periodNs = p.statsPeriodS * 1e9;
    let stopped = false;
    const tick = () => {
      if (stopped || !app.isRunning) return;
      const c = app.counters();
      stdout += '\x1b[2J\x1b[1;1H\nPort statistics ====================================';
      stdout += formatNicStats(c, prev, lab.nowNs);
      prev = { ...c, ns: lab.nowNs };
      lab.sched.after(periodNs, tick);
    };
    lab.sched.after(periodNs, tick);
    statsTimer = {
      stop: () => {
        stopped = true;
      },
    };
  } else {
    stdout += 'Press enter to exit\n';
  }
  let doneFlag = false;
  let signal = 2;
  const job: Job = {
    done: () => doneFlag,
    deadlineNs: () => (doneFlag ? lab.nowNs : Number.POSITIVE_INFINITY),
    interrupt: (sig = 2) => {
      if (doneFlag) return;
      signal = sig;
      statsTimer?.stop();
      app.stop();
      running.delete(host);
      stderr += `\nSignal ${sig} received, preparing to exit...\n`;
      stdout += 'Telling cores to stop...\nWaiting for lcores to finish...\n';
      stdout += formatForwardStats(app);
      stdout += '\nDone.\n';
      stdout += '\nStopping port 0...\nStopping ports...\nDone\n';
      stdout += '\nShutting down port 0...\nClosing ports...\nPort 0 is closed\nDone\n';
      stdout += '\nBye...\n';
      doneFlag = true;
    },
    // testpmd re-raises the signal after its summary: it ends by it (128 + the signal)
    finish: () => ({ stdout, stderr, exitCode: 128 + signal, result: app.result() }),
  };
  return { kind: 'job', job };
}

function failOut(cause: string, p: ParsedTestpmd): CommandOutput {
  return {
    stdout: '',
    stderr: `${joinErr(p.parseErr)}EAL: Error - exiting with code: 1\n  Cause: ${cause}\n`,
    exitCode: 1,
  };
}
