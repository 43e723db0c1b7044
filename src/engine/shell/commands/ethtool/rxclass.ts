/** `ethtool -n` / `-N`: ntuple (flow steering) rules. Sources: ethtool ethtool.c, rxclass.c. */
import type { Errno, NtupleFlowType, NtupleRule } from '../../../host/device-view';
import { parseIpv4 } from '../../../host/rss';
import { type CommandOutcome, done, fail } from '../../types';
import { badArgs, type Ctx, getUintRange, notSimulated, Out, STRERROR, strtoul } from './common';

// -n / -N -----------------------------------------------------------------------------------

const RXFH_FLOWS: Record<string, string> = {
  tcp4: 'TCP over IPV4 flows',
  udp4: 'UDP over IPV4 flows',
  tcp6: 'TCP over IPV6 flows',
  udp6: 'UDP over IPV6 flows',
};
const RXFH_FLOWS_UNSUPPORTED = new Set(['ah4', 'esp4', 'sctp4', 'ah6', 'esp6', 'sctp6']);

function formatRule(r: NtupleRule): string {
  const ip = (v: string | undefined) =>
    `${v ?? '0.0.0.0'} mask: ${v === undefined ? '255.255.255.255' : '0.0.0.0'}`;
  const port = (v: number | undefined) => `${v ?? 0} mask: 0x${v === undefined ? 'ffff' : '0'}`;
  return (
    `Filter: ${r.loc}\n` +
    `\tRule Type: ${r.flowType === 'tcp4' ? 'TCP' : 'UDP'} over IPv4\n` +
    `\tSrc IP addr: ${ip(r.srcIp)}\n` +
    `\tDest IP addr: ${ip(r.dstIp)}\n` +
    '\tTOS: 0x0 mask: 0xff\n' +
    `\tSrc port: ${port(r.srcPort)}\n` +
    `\tDest port: ${port(r.dstPort)}\n` +
    `\tAction: Direct to queue ${r.action}\n` +
    '\n'
  );
}

export function doShowNfc(c: Ctx): CommandOutcome {
  const a = c.args;
  const o = new Out();
  if (a.length > 0 && a[0] === 'rx-flow-hash') {
    if (a.length === 4 && a[2] === 'context')
      return notSimulated('RSS contexts (ethtool -n DEV rx-flow-hash … context N)');
    if (a.length !== 2) return badArgs();
    const flow = a[1]!;
    if (flow === 'ether') return notSimulated('ethtool -n DEV rx-flow-hash ether');
    if (!RXFH_FLOWS[flow] && !RXFH_FLOWS_UNSUPPORTED.has(flow)) return badArgs();
    if (!c.dev) return fail('Cannot get RX network flow hashing options: No such device', 1);
    // ENAv1 devices (non-configurable RSS) do not expose the hash input fields.
    if (RXFH_FLOWS_UNSUPPORTED.has(flow) || !c.dev.rss().keyConfigurable) {
      return fail('Cannot get RX network flow hashing options: Operation not supported', 1);
    }
    // ena_com_set_default_hash_ctrl: TCP/UDP over IPv4/IPv6 hash the 4-tuple.
    const text =
      `${RXFH_FLOWS[flow]} use these fields for computing Hash flow key:\n` +
      'IP SA\nIP DA\nL4 bytes 0 & 1 [TCP/UDP src port]\nL4 bytes 2 & 3 [TCP/UDP dst port]\n\n';
    return done(text, 0, { fields: ['src-ip', 'dst-ip', 'src-port', 'dst-port'] });
  }
  if (a.length === 2 && a[0] === 'rule') {
    const loc = getUintRange(a[1], 0x7fffffffn);
    if (loc === undefined) return badArgs();
    if (!c.dev)
      return fail('rxclass: Cannot get RX class rule: No such device\nCannot get RX classification rule', 1);
    const errno = c.dev.ntupleSupported() ? 'ENOENT' : 'EOPNOTSUPP';
    const rule = c.dev.ntupleSupported() ? c.dev.ntupleRules().find((r) => r.loc === Number(loc)) : undefined;
    if (!rule) {
      return fail(
        `rxclass: Cannot get RX class rule: ${STRERROR[errno]}\nCannot get RX classification rule`,
        1,
      );
    }
    return done(formatRule(rule), 0, { ...rule });
  }
  if (a.length !== 0) return badArgs();
  if (!c.dev) {
    return o
      .err('Cannot get RX rings: No such device\n')
      .err('rxclass: Cannot get RX class rule count: No such device\n')
      .err('RX classification rule retrieval failed\n')
      .finish(1);
  }
  o.out(`${c.dev.channels().combined} RX rings available\n`);
  if (!c.dev.ntupleSupported()) {
    return o
      .err('rxclass: Cannot get RX class rule count: Operation not supported\n')
      .err('RX classification rule retrieval failed\n')
      .finish(1);
  }
  const rules = c.dev.ntupleRules();
  o.out(`Total ${rules.length} rules\n\n`);
  for (const r of rules) o.out(formatRule(r));
  return o.finish(0, { rings: c.dev.channels().combined, rules });
}

/** Options rxclass accepts for tcp4/udp4 rules; only some are modelled. */
const RULE_OPTS = [
  'src-ip',
  'dst-ip',
  'tos',
  'src-port',
  'dst-port',
  'action',
  'vf',
  'queue',
  'loc',
  'vlan-etype',
  'vlan',
  'user-def',
  'dst-mac',
];
const RULE_OPTS_MODELLED = new Set(['src-ip', 'dst-ip', 'src-port', 'dst-port', 'action', 'loc']);
const FLOW_TYPES = [
  'tcp4',
  'udp4',
  'sctp4',
  'ah4',
  'esp4',
  'ip4',
  'tcp6',
  'udp6',
  'sctp6',
  'ah6',
  'esp6',
  'ip6',
  'ether',
];

export function doConfigNfc(c: Ctx): CommandOutcome {
  const a = c.args;
  if (a.length < 2) return badArgs();
  if (a[0] === 'rx-flow-hash')
    return notSimulated('changing the RSS hash fields (ethtool -N DEV rx-flow-hash …)');
  if (a[0] === 'delete') {
    const loc = getUintRange(a[1], 0x7fffffffn);
    if (loc === undefined) return badArgs();
    const err: Errno | 'ENODEV' | null = c.dev ? c.dev.deleteNtupleRule(Number(loc)) : 'ENODEV';
    if (err)
      return fail(
        `rmgr: Cannot delete RX class rule: ${STRERROR[err]}\nCannot delete classification rule`,
        1,
      );
    return done('');
  }
  if (a[0] !== 'flow-type') return badArgs();
  // rxclass_parse_ruleopts
  const flow = a[1]!;
  const o = new Out();
  if (!FLOW_TYPES.includes(flow)) return badArgs(o.err('Add rule, invalid syntax\n'));
  if (flow !== 'tcp4' && flow !== 'udp4') return notSimulated(`ntuple rules of flow-type ${flow}`);
  const rule: {
    srcIp?: string;
    dstIp?: string;
    srcPort?: number;
    dstPort?: number;
    action?: number;
    loc?: number;
  } = {};
  let drop = false;
  const seen = new Set<string>();
  for (let i = 2; i < a.length; ) {
    const name = a[i]!;
    if (name === 'context') return notSimulated('RSS contexts in ntuple rules');
    if (!RULE_OPTS.includes(name)) {
      return badArgs(o.out(`Add rule, unrecognized option[${name}]\n`));
    }
    i++;
    if (i >= a.length) break; // rxclass ignores a trailing option without a value
    const raw = a[i]!;
    if (!RULE_OPTS_MODELLED.has(name)) return notSimulated(`ntuple rule option '${name}'`);
    const invalid = () => badArgs(o.err(`Invalid ${name} value[${raw}]\n`));
    if (seen.has(name)) return invalid();
    seen.add(name);
    if (name === 'src-ip' || name === 'dst-ip') {
      const v = parseIpv4(raw);
      if (v === undefined) return invalid();
      if (name === 'src-ip') rule.srcIp = raw;
      else rule.dstIp = raw;
    } else if (name === 'src-port' || name === 'dst-port') {
      const v = getUintRange(raw, 0xffffn);
      if (v === undefined) return invalid();
      if (name === 'src-port') rule.srcPort = Number(v);
      else rule.dstPort = Number(v);
    } else if (name === 'action') {
      const v = strtoul(raw, 0);
      if (v === undefined) return invalid();
      // RX_CLS_FLOW_DISC (-1) and RX_CLS_FLOW_WAKE (-2): ENA supports neither.
      if (v >= (1n << 64n) - 2n) drop = true;
      else rule.action = v > 0xffffffffn ? Number.MAX_SAFE_INTEGER : Number(v);
    } else if (name === 'loc') {
      const v = getUintRange(raw, 0xffffffffn);
      if (v === undefined) return invalid();
      rule.loc = Number(v);
    }
    i++;
    // Masks ("m VALUE" / "<name>-mask VALUE") are not modelled.
    if (i < a.length && (a[i] === 'm' || a[i] === `${name}-mask`)) return notSimulated('ntuple rule masks');
  }
  const insertFail = (e: Errno | 'ENODEV') =>
    fail(`rmgr: Cannot insert RX class rule: ${STRERROR[e]}\nCannot insert classification rule`, 1);
  if (!c.dev) {
    if (rule.loc === undefined) {
      return fail(
        'rxclass: Cannot get RX class rule count: No such device\nCannot insert classification rule',
        1,
      );
    }
    return insertFail('ENODEV');
  }
  if (rule.loc === undefined && !c.dev.ntupleSupported()) {
    return fail(
      'rxclass: Cannot get RX class rule count: Operation not supported\nCannot insert classification rule',
      1,
    );
  }
  if (drop) return insertFail('EOPNOTSUPP');
  const flowType = flow as NtupleFlowType;
  const action = rule.action ?? 0; // an absent action leaves ring_cookie 0: queue 0
  const res = c.dev.addNtupleRule({
    flowType,
    action,
    ...(rule.loc !== undefined ? { loc: rule.loc } : {}),
    ...(rule.srcIp !== undefined ? { srcIp: rule.srcIp } : {}),
    ...(rule.dstIp !== undefined ? { dstIp: rule.dstIp } : {}),
    ...(rule.srcPort !== undefined ? { srcPort: rule.srcPort } : {}),
    ...(rule.dstPort !== undefined ? { dstPort: rule.dstPort } : {}),
  });
  if (typeof res === 'string') return insertFail(res);
  // With an explicit location ethtool prints nothing; with a driver-chosen one "Added rule with ID".
  return done(rule.loc === undefined ? `Added rule with ID ${res}\n` : '', 0, { loc: res });
}
