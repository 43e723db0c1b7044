/**
 * Tunnel devices of one host (`ip link add NAME type gre|gretap|vxlan|geneve …`) and the
 * encapsulation they put on the packet path: routing to a tunnel's connected prefix, outer headers
 * (the inner flow kept in `Packet.inner`), MTU as Linux computes it, and decapsulation by an up
 * tunnel of the same family whose remote is the sender.
 *
 * Sources: LINUX ip_tunnel.c (ip_tunnel_bind_dev), vxlan (vxlan_config_apply, VXLAN_HEADROOM),
 * geneve (geneve_link_config), udp_flow_src_port; AWS-BW (GRE flows are 3-tuples).
 * Why GRE shares one flow limit and VXLAN does not, and what is not modelled: docs/design.md,
 * "Tunnels".
 */
import type { Flow, FiveTuple, Packet } from '../model/packet';

export type TunnelKind = 'gre' | 'gretap' | 'vxlan' | 'geneve';

export const VXLAN_DEFAULT_LINUX_PORT = 8472;
export const GENEVE_PORT = 6081;

export interface TunnelConfig {
  name: string;
  kind: TunnelKind;
  remote: string;
  /** null = any (the outer source is eth0's address). */
  local: string | null;
  /** gre/gretap key (ikey = okey), null = none. */
  key: number | null;
  /** vxlan/geneve VNI. */
  id: number | null;
  /** vxlan/geneve UDP destination port. */
  dstport: number;
  /** Lower device named with `dev` (null = none given). */
  dev: string | null;
  /** 0 = inherit. */
  ttl: number;
}

export interface TunnelDevice extends TunnelConfig {
  ifindex: number;
  mtu: number;
  up: boolean;
  mac: string;
  addrs: Array<{ ip: string; prefixLen: number }>;
  txPackets: number;
  txBytes: number;
  rxPackets: number;
  rxBytes: number;
}

/** Bytes the tunnel adds in front of the inner IP packet (outer IP size − inner IP size). */
export function tunnelOverheadBytes(t: Pick<TunnelConfig, 'kind' | 'key'>): number {
  switch (t.kind) {
    case 'gre':
      return 24 + (t.key !== null ? 4 : 0);
    case 'gretap':
      return 24 + 14 + (t.key !== null ? 4 : 0);
    case 'vxlan':
    case 'geneve':
      return 50;
  }
}

/** The device MTU Linux gives a new tunnel over a lower device of MTU `lowerMtu`. */
export function tunnelDefaultMtu(t: Pick<TunnelConfig, 'kind' | 'key' | 'dev'>, lowerMtu: number): number {
  if (t.kind === 'vxlan' && t.dev === null) return 1500;
  return lowerMtu - tunnelOverheadBytes(t);
}

/**
 * Linux udp_flow_src_port: hash ^= hash << 16, then scale into [min, max). VXLAN uses the local
 * port range (32768–60999), GENEVE 1–65535.
 */
export function udpFlowSrcPort(skbHash: number, min: number, max: number): number {
  let h = skbHash >>> 0;
  h = (h ^ (h << 16)) >>> 0;
  return Math.floor((h * (max - min)) / 4294967296) + min;
}

const ipToInt = (ip: string): number => {
  const p = ip.split('.').map(Number);
  return (((p[0]! << 24) | (p[1]! << 16) | (p[2]! << 8) | p[3]!) >>> 0) as number;
};

export function inPrefix(ip: string, net: string, prefixLen: number): boolean {
  if (prefixLen === 0) return true;
  const mask = prefixLen === 32 ? 0xffffffff : (~((1 << (32 - prefixLen)) - 1) >>> 0) >>> 0;
  return (ipToInt(ip) & mask) >>> 0 === (ipToInt(net) & mask) >>> 0;
}

export interface TunnelHostInfo {
  /** eth0's primary address (the outer source when `local` is not given). */
  ip: string;
  /** eth0's MTU now. */
  eth0Mtu: () => number;
  /** A new flow owned by this host (outer flows are made once per tunnel / source port). */
  makeFlow: (t: FiveTuple) => Flow;
  /** A MAC address for an Ethernet-type tunnel device (deterministic per host). */
  makeMac: () => string;
}

export class TunnelStack {
  readonly devices: TunnelDevice[] = [];
  private nextIfindex = 3;
  /** Outer flows by tunnel name and source port (gre: port 0). */
  private readonly outer = new Map<string, Flow>();
  /** Packets that matched no tunnel on receive. */
  noTunnelDrops = 0;

  constructor(private readonly host: TunnelHostInfo) {}

  find(name: string): TunnelDevice | undefined {
    return this.devices.find((d) => d.name === name);
  }

  add(cfg: TunnelConfig): TunnelDevice {
    const d: TunnelDevice = {
      ...cfg,
      ifindex: this.nextIfindex++,
      mtu: tunnelDefaultMtu(cfg, this.host.eth0Mtu()),
      up: false,
      mac: cfg.kind === 'gre' ? '' : this.host.makeMac(),
      addrs: [],
      txPackets: 0,
      txBytes: 0,
      rxPackets: 0,
      rxBytes: 0,
    };
    this.devices.push(d);
    return d;
  }

  /** The up tunnel whose connected route holds `dst` (longest prefix), if any. */
  route(dst: string): { dev: TunnelDevice; src: string } | undefined {
    let best: { dev: TunnelDevice; src: string; len: number } | undefined;
    for (const d of this.devices) {
      if (!d.up) continue;
      for (const a of d.addrs)
        if (inPrefix(dst, a.ip, a.prefixLen) && (best === undefined || a.prefixLen > best.len))
          best = { dev: d, src: a.ip, len: a.prefixLen };
    }
    return best && { dev: best.dev, src: best.src };
  }

  /** Whether `ip` is one of this host's tunnel addresses (on an up device). */
  ownsAddress(ip: string): TunnelDevice | undefined {
    return this.devices.find((d) => d.up && d.addrs.some((a) => a.ip === ip));
  }

  /** Wrap `p` if its destination routes through a tunnel. Returns false when it does not. */
  encap(p: Packet): boolean {
    if (this.devices.length === 0 || (p.inner !== undefined && p.inner !== null)) return false;
    const r = this.route(p.flow.tuple.dstIp);
    if (r === undefined) return false;
    const d = r.dev;
    const inner = p.flow;
    const src = d.local ?? this.host.ip;
    let sport = 0;
    if (d.kind === 'vxlan') sport = udpFlowSrcPort(inner.skbHash, 32768, 60999);
    else if (d.kind === 'geneve') sport = udpFlowSrcPort(inner.skbHash, 1, 65535);
    const key = `${d.name}|${sport}`;
    let f = this.outer.get(key);
    if (f === undefined) {
      const udp = d.kind === 'vxlan' || d.kind === 'geneve';
      f = this.host.makeFlow({
        proto: udp ? 'udp' : 'gre',
        srcIp: src,
        dstIp: d.remote,
        srcPort: sport,
        dstPort: udp ? d.dstport : 0,
      });
      this.outer.set(key, f);
    }
    p.inner = inner;
    p.flow = f;
    p.sizeBytes += tunnelOverheadBytes(d);
    d.txPackets += p.count;
    d.txBytes += p.count * (p.sizeBytes - tunnelOverheadBytes(d));
    return true;
  }

  /** Unwrap `p` (it carries an inner flow) if a tunnel here matches its outer header. */
  decap(p: Packet): boolean {
    const inner = p.inner;
    if (inner === undefined || inner === null) return true;
    const t = p.flow.tuple;
    const d = this.devices.find(
      (x) =>
        x.up &&
        x.remote === t.srcIp &&
        (t.proto === 'gre'
          ? x.kind === 'gre' || x.kind === 'gretap'
          : (x.kind === 'vxlan' || x.kind === 'geneve') && x.dstport === t.dstPort),
    );
    if (d === undefined) {
      this.noTunnelDrops += p.count;
      return false;
    }
    p.sizeBytes -= tunnelOverheadBytes(d);
    p.flow = inner;
    p.inner = null;
    d.rxPackets += p.count;
    d.rxBytes += p.count * p.sizeBytes;
    return true;
  }
}
