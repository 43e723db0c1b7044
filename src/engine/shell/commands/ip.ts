/**
 * `ip link`, `ip address` and `ip route` for the simulated host: `ip [-s [-s]] link [show|list]
 * [dev] NAME`, `ip link set [dev] NAME mtu N`, `ip address [show] [dev] NAME` (eth0's primary and
 * secondary private addresses) and `ip route show` (the DHCP routes), with iproute2 6.x's output layout, parsing, errors and exit codes
 * (0 ok; 1 unknown device or object; 2 kernel refusal; 255 parse errors). The loopback device is
 * shown as on any Linux host, with zero statistics. Everything else ip can do is refused with
 * "… is not simulated in ec2-netlab".
 *
 * Sources: iproute2 ip/ip.c (do_cmd), ip/iplink.c, ip/ipaddress.c (print_linkinfo, print_stats64),
 * lib/utils.c; kernel net/core/dev.c dev_validate_mtu (its extack printed as "Error: <msg>.").
 */
import type { EnaDeviceView, LinkInfo, LinkStats } from '../../host/device-view';
import type { TunnelStack } from '../../host/tunnel';
import { type CommandOutcome, done, fail } from '../types';
import type { DeviceLookup } from './ethtool';
import { addrAdd, formatTunnelLink, linkAdd, linkSetTunnel } from './ip-tunnel';

export interface IpOptions {
  /** Names of the host's ENA interfaces, for listing. Default: eth0 … eth7 that `dev` knows. */
  deviceNames?: string[];
  /** The host's tunnel devices: `peek` without creating the stack, `get` creating it (ip link add). */
  tunnels?: { peek: () => TunnelStack | null; get: () => TunnelStack; eth0Ip: string };
  /**
   * An ENA interface's IPv4 addressing (`ip address show`, `ip route`, `ip rule`): its ENI's primary
   * and secondary addresses, prefix length, device number (0 for eth0) and subnet, the VPC's block;
   * now for lifetimes. Undefined for a device without an ENI.
   */
  addresses?: (dev: string) => IfAddressing | undefined;
}

export interface IfAddressing {
  primary: string;
  prefix: number;
  secondaries: readonly string[];
  nowS: number;
  /** The ENI's device number (eth0: 0). */
  deviceIndex: number;
  /** The subnet's and the VPC's CIDR blocks. */
  subnet: string;
  vpc: string;
}

/** amazon-ec2-net-utils 2.x (lib/lib.sh): route metric 512 + 10 × device number; rules and tables from 10000. */
const METRIC_BASE = 512;
const RULE_BASE = 10_000;

const DEFAULT_NAMES = ['eth0', 'eth1', 'eth2', 'eth3', 'eth4', 'eth5', 'eth6', 'eth7'];
/** carrier_changes of a device brought up once at boot: one carrier-up, the probe-time off is not counted. */
const CARRIER_CHANGES = 1;

const notSimulated = (what: string): CommandOutcome => fail(`ip: ${what} is not simulated in ec2-netlab`, 1);
const exitMinus1 = (msg: string): CommandOutcome => fail(msg, 255);

/** iproute2 matches(): the word typed is a prefix of the keyword. */
const matches = (typed: string, keyword: string) => typed.length > 0 && keyword.startsWith(typed);

const IP_OBJECTS = [
  'address',
  'addrlabel',
  'maddress',
  'route',
  'rule',
  'neighbor',
  'neighbour',
  'ntable',
  'ntbl',
  'link',
  'l2tp',
  'fou',
  'ila',
  'macsec',
  'tunnel',
  'tunl',
  'tuntap',
  'tap',
  'token',
  'tcpmetrics',
  'tcp_metrics',
  'monitor',
  'xfrm',
  'mroute',
  'mrule',
  'netns',
  'netconf',
  'vrf',
  'sr',
  'nexthop',
  'mptcp',
  'ioam',
  'stats',
  'help',
];

interface Dev {
  link: LinkInfo;
  stats: LinkStats;
  view?: EnaDeviceView;
  loopback: boolean;
}

const ZERO_STATS: LinkStats = {
  rxBytes: 0,
  rxPackets: 0,
  rxErrors: 0,
  rxDropped: 0,
  rxOverErrors: 0,
  rxMissed: 0,
  rxMcast: 0,
  txBytes: 0,
  txPackets: 0,
  txErrors: 0,
  txDropped: 0,
  txCarrier: 0,
  txCollisions: 0,
};

const LOOPBACK: LinkInfo = {
  name: 'lo',
  ifindex: 1,
  mtu: 65536,
  minMtu: 0,
  maxMtu: 0x7fffffff,
  mac: '00:00:00:00:00:00',
  txQueueLen: 1000,
  qdiscKind: 'noqueue',
  numTxQueues: 1,
  numRxQueues: 1,
  up: true,
};

function allDevices(dev: DeviceLookup, opts: IpOptions): Dev[] {
  const out: Dev[] = [{ link: LOOPBACK, stats: ZERO_STATS, loopback: true }];
  for (const name of opts.deviceNames ?? DEFAULT_NAMES) {
    const v = dev(name);
    if (v) out.push({ link: v.link(), stats: v.linkStats(), view: v, loopback: false });
  }
  return out.sort((a, b) => a.link.ifindex - b.link.ifindex);
}

function findDevice(name: string, dev: DeviceLookup, opts: IpOptions): Dev | undefined {
  return (
    allDevices(dev, opts).find((d) => d.link.name === name) ??
    // A device the caller did not list but the lookup knows.
    (() => {
      const v = dev(name);
      return v ? { link: v.link(), stats: v.linkStats(), view: v, loopback: false } : undefined;
    })()
  );
}

/** Run `ip` (argv without the program name). */
export function runIp(argv: string[], dev: DeviceLookup, opts: IpOptions = {}): CommandOutcome {
  let i = 0;
  let showStats = 0;
  let details = false;
  while (i < argv.length && argv[i]!.startsWith('-') && argv[i]!.length > 1) {
    let opt = argv[i]!;
    if (opt.startsWith('--')) opt = opt.slice(1);
    if (opt === '-') break;
    if (matches(opt, '-statistics') || matches(opt, '-stats')) showStats++;
    else if (matches(opt, '-details')) details = true;
    else if (
      ['-json', '-brief', '-pretty', '-color', '-oneline', '-human', '-iec'].some((o) => matches(opt, o))
    ) {
      return notSimulated(`option ${argv[i]}`);
    } else if (
      ['-4', '-6', '-0', '-family', '-netns', '-batch', '-force', '-timestamp', '-Version', '-help'].some(
        (o) => matches(opt, o),
      )
    ) {
      return notSimulated(`option ${argv[i]}`);
    } else return exitMinus1(`Option "${argv[i]}" is unknown, try "ip -help".`);
    i++;
  }
  const object = argv[i];
  if (object === undefined) return notSimulated('the usage text (ip with no object)');
  const obj = IP_OBJECTS.find((o) => matches(object, o));
  if (!obj) return fail(`Object "${object}" is unknown, try "ip help".`, 1);
  const tun = opts.tunnels;
  if (obj === 'address' && tun && argv[i + 1] !== undefined && matches(argv[i + 1]!, 'add'))
    return addrAdd(argv.slice(i + 2), tun.peek(), (n) => dev(n) !== undefined);
  if (obj === 'address') return addressShow(argv.slice(i + 1), dev, opts);
  if (obj === 'route') return routeShow(argv.slice(i + 1), opts);
  if (obj === 'rule') return ruleShow(argv.slice(i + 1), opts);
  if (obj !== 'link') return notSimulated(`ip ${obj}`);
  const rest = argv.slice(i + 1);
  const cmd = rest[0];
  if (cmd === undefined) return linkShow([], showStats, dev, opts, details);
  if (matches(cmd, 'add')) {
    if (!tun) return notSimulated('ip link add');
    return linkAdd(
      rest.slice(1),
      tun.get,
      (n) => n === 'lo' || dev(n) !== undefined || tun.peek()?.find(n) !== undefined,
    );
  }
  if (matches(cmd, 'change') || matches(cmd, 'set')) {
    const t = linkSetTunnel(rest.slice(1), tun?.peek() ?? null, (n) => n === 'lo' || dev(n) !== undefined);
    if (t !== null) return t;
    return linkSet(rest.slice(1), dev, opts);
  }
  if (matches(cmd, 'replace')) return notSimulated('ip link replace');
  if (matches(cmd, 'delete')) return notSimulated('ip link delete');
  if (matches(cmd, 'show') || matches(cmd, 'lst') || matches(cmd, 'list')) {
    return linkShow(rest.slice(1), showStats, dev, opts, details);
  }
  if (matches(cmd, 'xstats') || matches(cmd, 'afstats') || matches(cmd, 'property'))
    return notSimulated(`ip link ${cmd}`);
  if (matches(cmd, 'help')) return notSimulated('ip link help');
  return exitMinus1(`Command "${cmd}" is unknown, try "ip link help".`);
}

// ---------------------------------------------------------------------------------------------
// ip link show

function linkShow(
  args: string[],
  showStats: number,
  dev: DeviceLookup,
  opts: IpOptions,
  details = false,
): CommandOutcome {
  let filterDev: string | undefined;
  let upOnly = false;
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    if (a === 'up') {
      upOnly = true;
      continue;
    }
    if (['type', 'group', 'master', 'nomaster', 'vrf', 'label', 'to', 'scope'].includes(a)) {
      return notSimulated(`ip link show ${a}`);
    }
    if (matches(a, 'dev')) {
      i++;
      if (i >= args.length) return exitMinus1('Command line is not complete. Try option "help"');
      a = args[i]!;
    } else if (matches(a, 'help')) return notSimulated('ip link help');
    if (filterDev !== undefined)
      return exitMinus1(`Error: either "dev" is duplicate, or "${a}" is a garbage.`);
    filterDev = a;
  }
  let devs: Dev[];
  const tunnels = opts.tunnels?.peek()?.devices ?? [];
  const eth0Ip = opts.tunnels?.eth0Ip ?? '';
  const tunnelText = (ts: typeof tunnels) =>
    ts
      .filter((t) => !upOnly || t.up)
      .map((t) => formatTunnelLink(t, details, eth0Ip))
      .join('');
  if (filterDev !== undefined) {
    const t = tunnels.find((x) => x.name === filterDev);
    if (t) {
      if (showStats) return notSimulated('ip -s link show for a tunnel device');
      return done(tunnelText([t]));
    }
    const d = findDevice(filterDev, dev, opts);
    if (!d) return fail(`Device "${filterDev}" does not exist.`, 1);
    devs = [d];
  } else devs = allDevices(dev, opts);
  if (details) return notSimulated(`option -details for ${devs.map((d) => d.link.name).join(', ')}`);
  if (upOnly) devs = devs.filter((d) => d.link.up);
  let text = '';
  for (const d of devs) text += formatLink(d, showStats);
  if (filterDev === undefined && tunnels.length > 0) {
    if (showStats) return notSimulated('ip -s link show with tunnel devices');
    text += tunnelText(tunnels);
  }
  return done(
    text,
    0,
    devs.map((d) => ({ ...d.link, ...(showStats ? { stats64: { ...d.stats } } : {}) })),
  );
}

// ---------------------------------------------------------------------------------------------
// ip address show

/**
 * `ip address [show|list|lst] [dev] NAME` as ipaddress.c prints it (ipaddr_list_flush_or_save:
 * print_linkinfo without "mode", then print_addrinfo per address). eth0's primary address is DHCP's
 * (systemd-networkd on Amazon Linux 2023: `metric 512`, `dynamic`, a 3600 s lease renewed at half
 * its life, so the lifetimes count down from 3600 to 1800 and back; assumed from the first lease at
 * boot); secondary private addresses are static (`secondary`, `forever`), as amazon-ec2-net-utils
 * adds them. IPv6: the link-local address the kernel derives from the MAC (EUI-64) and ::1.
 */
function addressShow(args: string[], dev: DeviceLookup, opts: IpOptions): CommandOutcome {
  let rest = args;
  const cmd = rest[0];
  if (cmd !== undefined && !matches(cmd, 'show') && !matches(cmd, 'list') && !matches(cmd, 'lst')) {
    if (
      ['add', 'change', 'replace', 'delete', 'flush', 'save', 'restore', 'showdump'].some((k) =>
        matches(cmd, k),
      )
    )
      return notSimulated(
        `ip address ${cmd} (assign secondary addresses with aws ec2 assign-private-ip-addresses)`,
      );
    if (matches(cmd, 'help')) return notSimulated('ip address help');
    // `ip addr eth0` is not a command: iproute2 says so
    return exitMinus1(`Command "${cmd}" is unknown, try "ip address help".`);
  }
  if (cmd !== undefined) rest = rest.slice(1);
  let filterDev: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    let a = rest[i]!;
    if (matches(a, 'dev')) {
      i++;
      if (i >= rest.length) return exitMinus1('Command line is not complete. Try option "help"');
      a = rest[i]!;
    } else if (
      [
        'up',
        'scope',
        'to',
        'label',
        'primary',
        'secondary',
        'dynamic',
        'permanent',
        'type',
        'master',
        'vrf',
      ].includes(a)
    )
      return notSimulated(`ip address show ${a}`);
    if (filterDev !== undefined)
      return exitMinus1(`Error: either "dev" is duplicate, or "${a}" is a garbage.`);
    filterDev = a;
  }
  if ((opts.tunnels?.peek()?.devices.length ?? 0) > 0)
    return notSimulated('ip address show with tunnel devices');
  let devs = allDevices(dev, opts);
  if (filterDev !== undefined) {
    const d = findDevice(filterDev, dev, opts);
    if (!d) return fail(`Device "${filterDev}" does not exist.`, 1);
    devs = [d];
  }
  let text = '';
  for (const d of devs) {
    text += formatLink(d, 0, false);
    const name = d.link.name;
    const addr = (line: string, lft: string) => `    ${line}\n       ${lft}\n`;
    const forever = 'valid_lft forever preferred_lft forever';
    if (d.loopback) {
      text += addr('inet 127.0.0.1/8 scope host lo', forever);
      text += addr('inet6 ::1/128 scope host ', forever);
      continue;
    }
    const a = opts.addresses?.(name);
    if (a) {
      const brd = broadcast(a.primary, a.prefix);
      const left = 3600 - (Math.floor(a.nowS) % 1800);
      text += addr(
        `inet ${a.primary}/${a.prefix} metric ${METRIC_BASE + 10 * a.deviceIndex} brd ${brd} scope global dynamic ${name}`,
        `valid_lft ${left}sec preferred_lft ${left}sec`,
      );
      for (const s of a.secondaries)
        text += addr(`inet ${s}/${a.prefix} brd ${brd} scope global secondary ${name}`, forever);
    }
    text += addr(`inet6 ${linkLocal(d.link.mac)}/64 scope link `, forever);
  }
  return done(text);
}

// ---------------------------------------------------------------------------------------------
// ip route show

/**
 * `ip route [show|list] [table main]`: the main table as systemd-networkd's DHCP client leaves it on
 * Amazon Linux 2023 (metric 512): the default route via the subnet's router (its base + 1), the
 * subnet's connected route, host routes to the router and to the DNS server the DHCP lease names
 * (the VPC resolver, the VPC block's base + 2). Dumped in the FIB's key order, each line ending with
 * the space iproute2's print_route leaves. Adding routes, `ip route get` and other tables are refused.
 */
function routeShow(args: string[], opts: IpOptions): CommandOutcome {
  let rest = args;
  const cmd = rest[0];
  if (cmd !== undefined && !matches(cmd, 'show') && !matches(cmd, 'list')) {
    if (
      ['add', 'change', 'replace', 'delete', 'append', 'prepend', 'flush', 'get', 'save', 'restore'].some(
        (k) => matches(cmd, k),
      )
    )
      return notSimulated(`ip route ${cmd}`);
    if (matches(cmd, 'help')) return notSimulated('ip route help');
    return exitMinus1(`Command "${cmd}" is unknown, try "ip route help".`);
  }
  if (cmd !== undefined) rest = rest.slice(1);
  // the main table, or an ENI's own table (amazon-ec2-net-utils: 10000 + device number)
  let table = 'main';
  if (rest.length === 2 && matches(rest[0]!, 'table')) {
    table = rest[1]!;
    rest = [];
  }
  if (rest.length > 0) return notSimulated(`ip route show ${rest.join(' ')}`);
  if ((opts.tunnels?.peek()?.devices.length ?? 0) > 0)
    return notSimulated('ip route show with tunnel devices');
  const ifs = (opts.deviceNames ?? ['eth0']).flatMap((name) => {
    const a = opts.addresses?.(name);
    return a ? [{ name, a }] : [];
  });
  let shown: typeof ifs;
  if (table === 'main' || table === '254') shown = ifs.filter((x) => x.a.deviceIndex === 0);
  else if (/^\d+$/.test(table))
    shown = ifs.filter((x) => x.a.deviceIndex > 0 && RULE_BASE + x.a.deviceIndex === Number(table));
  else if (['local', 'default', 'all', '255', '253', '0'].includes(table))
    return notSimulated(`ip route show table ${table}`);
  else return exitMinus1(`Error: argument "${table}" is wrong: table id value is invalid`);
  return done(shown.map((x) => dhcpRoutes(x.name, x.a)).join(''));
}

/**
 * The routes systemd-networkd's DHCP client installs for an interface (eth0's in the main table, a
 * secondary ENI's in its own table): the default route via the subnet's router (its base + 1), the
 * subnet's connected route, host routes to the router and to the DNS server the lease names (the
 * VPC resolver, the VPC block's base + 2), in the FIB's key order, each line ending with the space
 * iproute2's print_route leaves.
 */
function dhcpRoutes(name: string, a: IfAddressing): string {
  const toInt = (ip: string) => ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const toIp = (x: number) => [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255].join('.');
  const [subnetIp, subnetLen] = a.subnet.split('/') as [string, string];
  const router = toIp(toInt(subnetIp) + 1);
  const dns = toIp(toInt(a.vpc.split('/')[0]!) + 2);
  const src = `src ${a.primary} metric ${METRIC_BASE + 10 * a.deviceIndex} `;
  const routes: [number, number, string][] = [
    [0, 0, `default via ${router} dev ${name} proto dhcp ${src}`],
    [toInt(subnetIp), Number(subnetLen), `${a.subnet} dev ${name} proto kernel scope link ${src}`],
    [toInt(router), 32, `${router} dev ${name} proto dhcp scope link ${src}`],
  ];
  if (!routes.some((r) => r[0] === toInt(dns) && r[1] === 32))
    routes.push([toInt(dns), 32, `${dns} dev ${name} proto dhcp scope link ${src}`]);
  routes.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return routes.map((r) => `${r[2]}\n`).join('');
}

/**
 * `ip rule [show|list]`: the kernel's three default rules and, for each secondary ENI's address,
 * amazon-ec2-net-utils' `from ADDRESS lookup 10000+N` at priority 10000 + N (eth0 has none: its
 * traffic follows the main table).
 */
function ruleShow(args: string[], opts: IpOptions): CommandOutcome {
  const cmd = args[0];
  if (cmd !== undefined && !matches(cmd, 'show') && !matches(cmd, 'list')) {
    if (['add', 'delete', 'flush', 'save', 'restore'].some((k) => matches(cmd, k)))
      return notSimulated(`ip rule ${cmd}`);
    return exitMinus1(`Command "${cmd}" is unknown, try "ip rule help".`);
  }
  if (args.length > 1) return notSimulated(`ip rule show ${args.slice(1).join(' ')}`);
  const lines = ['0:\tfrom all lookup local '];
  for (const name of opts.deviceNames ?? ['eth0']) {
    const a = opts.addresses?.(name);
    if (!a || a.deviceIndex === 0) continue;
    const id = RULE_BASE + a.deviceIndex;
    for (const ip of [a.primary, ...a.secondaries])
      lines.push(`${id}:\tfrom ${ip} lookup ${id} proto static `);
  }
  lines.push('32766:\tfrom all lookup main ', '32767:\tfrom all lookup default ');
  return done(lines.map((l) => `${l}\n`).join(''));
}

function broadcast(ip: string, prefix: number): string {
  const n = ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const host = prefix >= 32 ? 0 : 2 ** (32 - prefix) - 1;
  const b = n - (n % (host + 1)) + host;
  return [b >>> 24, (b >>> 16) & 255, (b >>> 8) & 255, b & 255].join('.');
}

/** The EUI-64 link-local address (RFC 4291 appendix A): the MAC with ff:fe inserted, the U/L bit flipped. */
function linkLocal(mac: string): string {
  const b = mac.split(':').map((x) => Number.parseInt(x, 16));
  const e = [b[0]! ^ 2, b[1]!, b[2]!, 0xff, 0xfe, b[3]!, b[4]!, b[5]!];
  const groups = [0, 2, 4, 6].map((k) => ((e[k]! << 8) | e[k + 1]!).toString(16));
  return `fe80::${groups.join(':')}`;
}

function formatLink(d: Dev, showStats: number, mode = true): string {
  const l = d.link;
  const flags = d.loopback
    ? l.up
      ? 'LOOPBACK,UP,LOWER_UP'
      : 'LOOPBACK'
    : l.up
      ? 'BROADCAST,MULTICAST,UP,LOWER_UP'
      : 'BROADCAST,MULTICAST';
  const state = d.loopback ? 'UNKNOWN' : l.up ? 'UP' : 'DOWN';
  let s = `${l.ifindex}: ${l.name}: <${flags}> mtu ${l.mtu} qdisc ${l.qdiscKind} state ${state}${mode ? ' mode DEFAULT' : ''} group default qlen ${l.txQueueLen}\n`;
  s += d.loopback
    ? '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00'
    : `    link/ether ${l.mac} brd ff:ff:ff:ff:ff:ff`;
  if (showStats > 0) s += `\n${formatStats64(d.stats, showStats)}`;
  return `${s}\n`;
}

/**
 * iproute2 print_stats64 (text mode): column widths start at the header words and grow to fit the
 * numbers (size_columns); numbers are right-aligned and each followed by a space.
 */
export function formatStats64(st: LinkStats, showStats: number): string {
  const cols = [
    '*X errors:',
    'packets',
    'errors',
    'dropped',
    'heartbt',
    'overrun',
    'compressed',
    'otherhost',
  ].map((w) => w.length);
  const size = (...vals: number[]) => {
    vals.forEach((v, i) => {
      const len = String(v).length;
      if (len > cols[i]!) cols[i] = len;
    });
  };
  const rx = [st.rxBytes, st.rxPackets, st.rxErrors, st.rxDropped, st.rxMissed, st.rxMcast];
  const rxErr = [0, 0, 0, 0, st.rxOverErrors]; // length, crc, frame, fifo, overrun
  const tx = [st.txBytes, st.txPackets, st.txErrors, st.txDropped, st.txCarrier, st.txCollisions];
  const txErr = [0, 0, 0, 0]; // aborted, fifo, window, heartbeat
  size(...rx, 0, 0);
  if (showStats > 1) size(0, ...rxErr, 0, 0);
  size(...tx, 0, 0);
  if (showStats > 1) size(0, 0, ...txErr, CARRIER_CHANGES, 0);
  const c = (i: number) => cols[i]!;
  const num = (w: number, v: number) => `${String(v).padStart(w)} `;
  const pad = (w: number, s: string) => s.padStart(w);
  let out = `    RX: ${pad(c(0) - 4, 'bytes')} ${pad(c(1), 'packets')} ${pad(c(2), 'errors')} ${pad(c(3), 'dropped')} ${pad(c(4), 'missed')} ${pad(c(5), 'mcast')} ${pad(c(6), '')}\n`;
  out += `    ${rx.map((v, i) => num(c(i), v)).join('')}`;
  if (showStats > 1) {
    out += '\n';
    out += `    RX errors:${pad(c(0) - 10, '')} ${pad(c(1), 'length')} ${pad(c(2), 'crc')} ${pad(c(3), 'frame')} ${pad(c(4), 'fifo')} ${pad(c(5), 'overrun')}\n`;
    out += `${' '.repeat(c(0) + 5)}${rxErr.map((v, i) => num(c(i + 1), v)).join('')}`;
  }
  out += '\n';
  out += `    TX: ${pad(c(0) - 4, 'bytes')} ${pad(c(1), 'packets')} ${pad(c(2), 'errors')} ${pad(c(3), 'dropped')} ${pad(c(4), 'carrier')} ${pad(c(5), 'collsns')} ${pad(c(6), '')}\n`;
  out += `    ${tx.map((v, i) => num(c(i), v)).join('')}`;
  if (showStats > 1) {
    out += '\n';
    out += `    TX errors:${pad(c(0) - 10, '')} ${pad(c(1), 'aborted')} ${pad(c(2), 'fifo')} ${pad(c(3), 'window')} ${pad(c(4), 'heartbt')} ${pad(c(5), 'transns')}\n`;
    out += `${' '.repeat(c(0) + 5)}${[...txErr, CARRIER_CHANGES].map((v, i) => num(c(i + 1), v)).join('')}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ip link set

/** lib/utils.c get_integer: strtol base 0, whole string, int range. */
function getInteger(s: string): number | undefined {
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const body = m[2]!;
  let v: number;
  if (/^0[xX]/.test(body)) v = Number.parseInt(body.slice(2), 16);
  else if (body.startsWith('0')) v = body.length > 1 ? Number.parseInt(body.slice(1), 8) : 0;
  else v = Number(body);
  if (m[1] === '-') v = -v;
  if (v < -0x80000000 || v > 0x7fffffff) return undefined;
  return v;
}

const UNMODELLED_SET = [
  'up',
  'down',
  'name',
  'txqueuelen',
  'qlen',
  'address',
  'broadcast',
  'brd',
  'peer',
  'netns',
  'multicast',
  'allmulticast',
  'promisc',
  'trailers',
  'arp',
  'dynamic',
  'alias',
  'group',
  'master',
  'nomaster',
  'vrf',
  'mode',
  'state',
  'numtxqueues',
  'numrxqueues',
  'addrgenmode',
  'link-netns',
  'link-netnsid',
  'protodown',
  'protodown_reason',
  'gso_max_size',
  'gso_max_segs',
  'gro_max_size',
  'xdp',
  'xdpgeneric',
  'xdpdrv',
  'xdpoffload',
  'vf',
  'type',
  'alt-name',
  'altname',
  'carrier',
];

function linkSet(args: string[], dev: DeviceLookup, opts: IpOptions): CommandOutcome {
  let name: string | undefined;
  let mtu = -1;
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    if (a === 'mtu') {
      i++;
      if (i >= args.length) return exitMinus1('Command line is not complete. Try option "help"');
      if (mtu !== -1) return exitMinus1(`Error: duplicate "mtu": "${args[i]}" is the second value.`);
      const v = getInteger(args[i]!);
      // invarg() prints the message, which itself ends in a newline, plus one more.
      if (v === undefined)
        return exitMinus1(`Error: argument "${args[i]}" is wrong: Invalid "mtu" value\n\n`);
      mtu = v;
      continue;
    }
    if (UNMODELLED_SET.includes(a)) return notSimulated(`ip link set … ${a}`);
    if (matches(a, 'dev')) {
      i++;
      if (i >= args.length) return exitMinus1('Command line is not complete. Try option "help"');
      a = args[i]!;
    } else if (matches(a, 'help')) return notSimulated('ip link help');
    if (name !== undefined) return exitMinus1(`Error: either "dev" is duplicate, or "${a}" is a garbage.`);
    name = a;
  }
  if (name === undefined) return exitMinus1('Not enough information: "dev" argument is required.');
  const d = findDevice(name, dev, opts);
  if (!d) return fail(`Cannot find device "${name}"`, 1);
  if (mtu === -1) return done(''); // iproute2 uses -1 as "not given": nothing to change
  if (!d.view) return notSimulated('changing the loopback device');
  const mtuU32 = mtu >>> 0; // IFLA_MTU is a u32
  if (mtuU32 < d.link.minMtu) return fail('Error: mtu less than device minimum.', 2);
  if (mtuU32 > d.link.maxMtu) return fail('Error: mtu greater than device maximum.', 2);
  const err = d.view.setMtu(mtuU32);
  if (err) {
    const text: Record<string, string> = {
      EINVAL: 'Invalid argument',
      EOPNOTSUPP: 'Operation not supported',
      EBUSY: 'Device or resource busy',
      ENOSPC: 'No space left on device',
      ERANGE: 'Numerical result out of range',
      ENOENT: 'No such file or directory',
    };
    return fail(`RTNETLINK answers: ${text[err] ?? err}`, 2);
  }
  return done('', 0, { mtu: mtuU32 });
}
