/**
 * The tunnel part of `ip`: `ip link add NAME type gre|gretap|vxlan|geneve …`, `ip addr add A/N dev
 * NAME`, `ip link set NAME up|down|mtu N`, and what `ip [-d] link show` prints for tunnels, with
 * iproute2's messages and exit codes (a parse_opt failure exits 1, exit(-1) 255). Not simulated
 * (refused by name): NBMA tunnels, different ikey/okey, seq/csum, multicast groups, IPv6,
 * external/metadata.
 *
 * Sources: iproute2 ip/iplink.c (iplink_modify), ip/link_gre.c, ip/iplink_vxlan.c,
 * ip/iplink_geneve.c, ip/ipaddress.c; kernel rtnl_newlink ("RTNETLINK answers: File exists").
 */
import type { Host } from '../../host/host';
import {
  GENEVE_PORT,
  type TunnelConfig,
  type TunnelDevice,
  type TunnelKind,
  TunnelStack,
  VXLAN_DEFAULT_LINUX_PORT,
} from '../../host/tunnel';
import { hashString, mix32 } from '../../core/rng';
import type { Instance, Lab } from '../../lab/lab';
import { type CommandOutcome, done, fail } from '../types';

const notSimulated = (what: string): CommandOutcome => fail(`ip: ${what} is not simulated in ec2-netlab`, 1);
const matches = (typed: string, keyword: string) => typed.length > 0 && keyword.startsWith(typed);
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The instance's tunnel stack, created on first use. */
export function tunnelStack(lab: Lab, inst: Instance): TunnelStack {
  const h: Host = inst.host;
  if (h.tunnels === null) {
    let macSeq = 0;
    h.tunnels = new TunnelStack({
      ip: h.ip,
      eth0Mtu: () => h.eth0.mtu,
      makeFlow: (t) => lab.makeFlow(inst, t),
      makeMac: () => {
        const x = mix32(hashString(`${inst.name}/tunnel-mac/${macSeq++}`));
        const b = [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255, (x >>> 4) & 255];
        return `${['2e', ...b.map((v) => v.toString(16).padStart(2, '0'))].join(':')}`;
      },
    });
  }
  return h.tunnels;
}

/** gre keys: a number or a dotted quad (link_gre.c gre_parse_opt → tnl_parse_key). */
function parseKey(s: string): number | null {
  if (IPV4.test(s)) {
    const p = s.split('.').map(Number);
    return ((p[0]! << 24) | (p[1]! << 16) | (p[2]! << 8) | p[3]!) >>> 0;
  }
  if (!/^\d+$/.test(s)) return null;
  const v = Number(s);
  return v <= 0xffffffff ? v : null;
}

const keyText = (k: number) => [k >>> 24, (k >>> 16) & 255, (k >>> 8) & 255, k & 255].join('.');

/** `ip link add` (argv after "add"). `exists(name)`: a device of that name already exists. */
export function linkAdd(
  argv: string[],
  stack: () => TunnelStack,
  exists: (n: string) => boolean,
): CommandOutcome {
  let name: string | undefined;
  let mtu: number | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === 'type') break;
    if (a === 'name' || a === 'dev') {
      i++;
      if (i >= argv.length) return fail('Command line is not complete. Try option "help"', 255);
      name = argv[i]!;
    } else if (a === 'mtu') {
      i++;
      const v = Number(argv[i]);
      if (!Number.isInteger(v) || v < 0)
        return fail(`Error: argument "${argv[i]}" is wrong: Invalid "mtu" value\n`, 255);
      mtu = v;
    } else if (['link', 'txqueuelen', 'address', 'numtxqueues', 'numrxqueues', 'group'].includes(a)) {
      return notSimulated(`ip link add … ${a}`);
    } else if (name === undefined) name = a;
    else return fail(`Error: either "dev" is duplicate, or "${a}" is a garbage.`, 255);
  }
  if (name === undefined) return fail('Not enough information: "dev" argument is required.', 255);
  if (i >= argv.length) return notSimulated('ip link add without type');
  const kind = argv[i + 1];
  if (kind === undefined) return fail('Command line is not complete. Try option "help"', 255);
  if (!['gre', 'gretap', 'vxlan', 'geneve'].includes(kind)) return notSimulated(`ip link add … type ${kind}`);
  const k = kind as TunnelKind;
  const cfg: TunnelConfig = {
    name,
    kind: k,
    remote: '',
    local: null,
    key: null,
    id: null,
    dstport: k === 'geneve' ? GENEVE_PORT : VXLAN_DEFAULT_LINUX_PORT,
    dev: null,
    ttl: 0,
  };
  let dstportGiven = false;
  let stderr = '';
  const rest = argv.slice(i + 2);
  const gre = k === 'gre' || k === 'gretap';
  for (let j = 0; j < rest.length; j++) {
    const a = rest[j]!;
    const next = (): string | undefined => rest[++j];
    if (matches(a, 'remote')) {
      const v = next();
      if (v === undefined) return fail('Command line is not complete. Try option "help"', 255);
      if (v === 'any' && gre) continue;
      if (!IPV4.test(v)) return fail(`Error: an inet address is expected rather than "${v}".`, 1);
      cfg.remote = v;
    } else if (matches(a, 'local')) {
      const v = next();
      if (v === undefined) return fail('Command line is not complete. Try option "help"', 255);
      if (v === 'any' && gre) continue;
      if (!IPV4.test(v)) return fail(`Error: an inet address is expected rather than "${v}".`, 1);
      cfg.local = v;
    } else if (gre && (a === 'key' || a === 'ikey' || a === 'okey')) {
      const v = next();
      const key = v === undefined ? null : parseKey(v);
      if (key === null) return fail(`Error: argument "${v ?? ''}" is wrong: Invalid value for "key"\n`, 255);
      if (a !== 'key' && cfg.key !== null && cfg.key !== key)
        return notSimulated('a gre tunnel with different ikey and okey');
      cfg.key = key;
    } else if (!gre && (a === 'id' || a === 'vni')) {
      const v = next();
      const n = Number(v);
      if (v === undefined || !/^\d+$/.test(v) || n >= 1 << 24)
        return fail(`Error: argument "${v ?? ''}" is wrong: invalid id\n`, 255);
      cfg.id = n;
    } else if (!gre && a === 'dstport') {
      const v = next();
      const n = Number(v);
      if (v === undefined || !/^\d+$/.test(v) || n > 65535)
        return fail(`Error: argument "${v ?? ''}" is wrong: dst port\n`, 255);
      cfg.dstport = n === 0 ? cfg.dstport : n;
      dstportGiven = true;
    } else if ((gre || k === 'vxlan') && a === 'dev') {
      const v = next();
      if (v === undefined) return fail('Command line is not complete. Try option "help"', 255);
      if (v !== 'eth0') return fail(`Cannot find device "${v}"`, 255);
      cfg.dev = v;
    } else if (a === 'ttl' || a === 'hoplimit') {
      const v = next();
      if (v === 'inherit' || (k !== 'gre' && k !== 'gretap' && v === 'auto')) continue;
      const n = Number(v);
      if (v === undefined || !/^\d+$/.test(v) || n > 255)
        return fail(`Error: argument "${v ?? ''}" is wrong: invalid TTL\n`, 255);
      cfg.ttl = n;
    } else {
      return notSimulated(`ip link add … type ${k} ${a}`);
    }
  }
  if (k === 'vxlan' && cfg.id === null) return fail('vxlan: missing virtual network identifier', 1);
  if (k === 'geneve' && cfg.id === null) return fail('geneve: missing virtual network identifier', 1);
  if (k === 'geneve' && cfg.remote === '') return fail('geneve: remote link partner not specified', 1);
  if (cfg.remote === '')
    return notSimulated(`a ${k} tunnel without remote (${k === 'vxlan' ? 'FDB/learning' : 'NBMA'} mode)`);
  if (k === 'vxlan' && !dstportGiven)
    stderr =
      'vxlan: destination port not specified\nWill use Linux kernel default (non-standard value)\n' +
      "Use 'dstport 4789' to get the IANA assigned value\nUse 'dstport 0' to get default and quiet this message\n";
  if (exists(name)) return fail(`${stderr}RTNETLINK answers: File exists`, 2);
  const s = stack();
  const d = s.add(cfg);
  if (mtu !== undefined) d.mtu = mtu;
  return stderr ? { kind: 'done', out: { stdout: '', stderr, exitCode: 0 } } : done('');
}

/** `ip addr add A/N dev NAME` (argv after "add"), for tunnel devices. */
export function addrAdd(
  argv: string[],
  stack: TunnelStack | null,
  isEth: (n: string) => boolean,
): CommandOutcome {
  let prefix: string | undefined;
  let devName: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === 'dev') {
      devName = argv[++i];
      if (devName === undefined) return fail('Command line is not complete. Try option "help"', 255);
    } else if (a === 'local') prefix = argv[++i];
    else if (
      ['peer', 'broadcast', 'brd', 'label', 'scope', 'valid_lft', 'preferred_lft', 'noprefixroute'].includes(
        a,
      )
    )
      return notSimulated(`ip addr add … ${a}`);
    else if (prefix === undefined) prefix = a;
    else return fail(`Error: either "local" is duplicate, or "${a}" is a garbage.`, 255);
  }
  if (devName === undefined) return fail('Not enough information: "dev" argument is required.', 1);
  if (prefix === undefined) return fail('Not enough information: "local" argument is required.', 1);
  const m = /^([^/]+)(?:\/(\d+))?$/.exec(prefix);
  const len = m?.[2] === undefined ? 32 : Number(m[2]);
  if (!m || !IPV4.test(m[1]!) || len > 32)
    return fail(`Error: any valid prefix is expected rather than "${prefix}".`, 1);
  const d = stack?.find(devName);
  if (!d) {
    if (isEth(devName)) return notSimulated('ip addr add on eth0 (its addresses come from the VPC)');
    return fail(`Cannot find device "${devName}"`, 1);
  }
  if (d.addrs.some((x) => x.ip === m[1])) return fail('RTNETLINK answers: File exists', 2);
  d.addrs.push({ ip: m[1]!, prefixLen: len });
  return done('');
}

/** `ip link set NAME up|down|mtu N` on a tunnel device; null = not a tunnel (ip.ts handles it). */
export function linkSetTunnel(
  args: string[],
  stack: TunnelStack | null,
  known: (name: string) => boolean = () => true,
): CommandOutcome | null {
  let name: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === 'dev') name = args[++i];
    else if (a === 'mtu') i++;
    else if (a === 'up' || a === 'down') continue;
    else if (name === undefined) name = a;
  }
  const d = name === undefined ? undefined : stack?.find(name);
  // do_setlink resolves the name before anything else: an unknown device fails first
  if (!d && name !== undefined && !known(name)) return fail(`Cannot find device "${name}"`, 1);
  if (!d) return null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === 'up') d.up = true;
    else if (a === 'down') d.up = false;
    else if (a === 'mtu') {
      const v = Number(args[++i]);
      if (!Number.isInteger(v) || v < 0)
        return fail(`Error: argument "${args[i]}" is wrong: Invalid "mtu" value\n\n`, 255);
      if (v < 68) return fail('Error: mtu less than device minimum.', 2);
      if (v > 65535) return fail('Error: mtu greater than device maximum.', 2);
      d.mtu = v;
    } else if (a === 'dev' || a === name) continue;
    else return notSimulated(`ip link set … ${a} on a tunnel`);
  }
  return done('');
}

/** The lines `ip [-d] link show` prints for a tunnel device. */
export function formatTunnelLink(d: TunnelDevice, details: boolean, eth0Ip: string): string {
  const state = d.up ? 'UNKNOWN' : 'DOWN';
  const ether = d.kind !== 'gre';
  const flags = ether
    ? d.up
      ? 'BROADCAST,MULTICAST,UP,LOWER_UP'
      : 'BROADCAST,MULTICAST'
    : d.up
      ? 'POINTOPOINT,NOARP,UP,LOWER_UP'
      : 'POINTOPOINT,NOARP';
  // iflink: gre/gretap report their `dev` (0 → "@NONE"); vxlan/geneve print no "@"
  const at = d.kind === 'gre' || d.kind === 'gretap' ? `@${d.dev ?? 'NONE'}` : '';
  let s = `${d.ifindex}: ${d.name}${at}: <${flags}> mtu ${d.mtu} qdisc noqueue state ${state} mode DEFAULT group default qlen 1000\n`;
  s += ether
    ? `    link/ether ${d.mac} brd ff:ff:ff:ff:ff:ff`
    : `    link/gre ${d.local ?? '0.0.0.0'} peer ${d.remote}`;
  if (details) {
    s += ' promiscuity 0 allmulti 0 minmtu 0 maxmtu 0 \n    ';
    const ttl = d.ttl ? `ttl ${d.ttl} ` : 'ttl inherit ';
    if (d.kind === 'gre' || d.kind === 'gretap') {
      s += `${d.kind} remote ${d.remote} local ${d.local ?? 'any'} ${d.dev ? `dev ${d.dev} ` : ''}${ttl}`;
      if (d.key !== null) s += `ikey ${keyText(d.key)} okey ${keyText(d.key)} `;
    } else if (d.kind === 'vxlan') {
      s += `vxlan id ${d.id} remote ${d.remote} ${d.local ? `local ${d.local} ` : ''}${d.dev ? `dev ${d.dev} ` : ''}srcport 0 0 dstport ${d.dstport} ${ttl}ageing 300 udpcsum noudp6zerocsumtx udp6zerocsumrx `;
    } else {
      s += `geneve id ${d.id} remote ${d.remote} ${ttl}dstport ${d.dstport} noudpcsum noudp6zerocsumtx udp6zerocsumrx `;
    }
    s += 'addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 ';
  }
  void eth0Ip;
  return `${s}\n`;
}

/**
 * Where `iperf3 -c ADDR` goes when ADDR is not an instance: through the local tunnel whose
 * connected route holds ADDR, to the instance at the tunnel's remote that owns ADDR on a tunnel
 * of its own. Undefined when no route or no such peer.
 */
export function tunnelPeer(
  lab: Lab,
  self: Instance,
  addr: string,
): { peer: Instance; localIp: string; mtu: number } | undefined {
  const s = self.host.tunnels;
  const r = s?.route(addr);
  if (!r) return undefined;
  const peer = lab.resolve(r.dev.remote);
  const owned = peer?.host.tunnels?.ownsAddress(addr);
  if (!peer || !owned) return undefined;
  return { peer, localIp: r.src, mtu: Math.min(r.dev.mtu, owned.mtu) };
}
