/**
 * `lab`: ec2-netlab's own inspection command, NOT a real AWS or Linux tool (every output says so).
 *
 *   lab nitro show [INSTANCE]                  the Nitro card's state as NET402's "Flow Setup" slides
 *                                              draw it: adjacency/mapping, conntrack, flow cache
 *   lab trace SRC DST [tcp|udp|icmp] [PORT]    the stage-by-stage decision a new flow's first packet
 *                                              gets (route, NACL, SG) with the rule that decided
 *   lab summary [--from S] [--to S]            one run at every time scale (lab-summary.ts)
 *   lab record on|off|status                   the full metrics recorder
 *
 * `result` carries the same data as JSON. Read-only: nothing here changes the lab.
 */
import type { Instance, Lab } from '../../lab/lab';
import type { L4Proto } from '../../model/packet';
import { tupleKey } from '../../nitro/flow-table';
import { evaluateFlow, vpcState } from '../../vpc';
import { type CommandOutcome, done, fail } from '../types';
import { runRecord, runSummary, SUMMARY_USAGE } from './lab-summary';

const USAGE =
  'usage: lab nitro show [INSTANCE]\n' +
  '       lab trace SRC DST [tcp|udp|icmp] [PORT]\n' +
  SUMMARY_USAGE +
  "(lab is ec2-netlab's inspection command, not an AWS or Linux tool)\n";

const NOTE = "# lab: ec2-netlab's view of the model (not an AWS or Linux tool)\n";

export function runLab(args: string[], lab: Lab, host: Instance): CommandOutcome {
  if (args[0] === 'nitro' && args[1] === 'show' && args.length <= 3)
    return nitroShow(lab, args[2] ?? host.name);
  if (args[0] === 'trace' && args.length >= 3 && args.length <= 5) return trace(lab, args.slice(1));
  if (args[0] === 'summary') return runSummary(args.slice(1), lab);
  if (args[0] === 'record') return runRecord(args.slice(1), lab);
  return fail(USAGE, 2);
}

const pad = (s: string, n: number) => (s.length >= n ? `${s} ` : s.padEnd(n));

function fmtTuple(
  t: { proto: string; srcIp: string; srcPort: number; dstIp: string; dstPort: number },
  sep: string,
) {
  return t.proto === 'icmp'
    ? `icmp ${t.srcIp} ${sep} ${t.dstIp}`
    : `${t.proto} ${t.srcIp}:${t.srcPort} ${sep} ${t.dstIp}:${t.dstPort}`;
}

function nitroShow(lab: Lab, name: string): CommandOutcome {
  const inst = lab.resolve(name);
  if (!inst) return fail(`lab: unknown instance '${name}'`);
  const card = inst.nitro;
  const table = card.flows;
  const now = lab.nowNs;
  table.expire(now);
  const eni = card.vpcEni;
  const adjacency = [...table.adjacency.entries()].map(([target, state]) => ({ target, state }));
  const conntrack = [...table.conntrack.values()].map((c) => ({
    tuple: fmtTuple(c.tuple, '↔'),
    state: c.state,
    tracking: c.tracked ? 'tracked' : 'untracked',
    reason: c.reason,
    idleTimeoutS: c.timeoutNs / 1e9,
    idleRemainingS: Math.max(0, (c.timeoutNs - (now - c.lastSeenNs)) / 1e9),
  }));
  const cache = [...table.cache.values()].map((e) => ({
    flow: fmtTuple(e.tuple, '→'),
    direction: e.direction,
    state: e.state,
    tracking: e.ct ? 'tracked' : 'untracked',
    epoch: e.epoch,
  }));
  const stats = { ...card.flowStats };
  const allowance = {
    max: table.allowanceMax,
    available: table.available(now),
    exceeded: table.allowanceExceeded,
  };
  const out: string[] = [NOTE];
  out.push(`Nitro card of ${inst.name} (${eni ? `${eni.eniId}, ` : ''}${inst.host.ip})\n\n`);
  out.push('Mapping State\n');
  out.push(`${pad('Adjacency', 40)}Target\n`);
  for (const a of adjacency) out.push(`${pad(a.target, 40)}${a.state}\n`);
  out.push('\nConnTrack\n');
  out.push(`${pad('5-Tuple', 48)}${pad('State', 13)}${pad('Tracking', 11)}Idle timer\n`);
  if (conntrack.length === 0) out.push('(no tracked connections)\n');
  for (const c of conntrack)
    out.push(
      `${pad(c.tuple, 48)}${pad(c.state, 13)}${pad(c.tracking, 11)}${c.idleRemainingS.toFixed(1)} s of ${c.idleTimeoutS} s\n`,
    );
  out.push('\nFlow Cache\n');
  out.push(`${pad('Flow', 48)}${pad('Direction', 11)}${pad('State', 10)}Tracking\n`);
  if (cache.length === 0) out.push('(empty)\n');
  for (const e of cache)
    out.push(`${pad(e.flow, 48)}${pad(e.direction, 11)}${pad(e.state, 10)}${e.tracking}\n`);
  out.push(
    `\nconntrack allowance: ${allowance.available} of ${allowance.max} available, ${allowance.exceeded} exceeded\n` +
      `packets: ${stats.slowPathPackets} on the processing path${stats.fragmentPackets > 0 ? ` (${stats.fragmentPackets} of them IP fragments, never accelerated)` : ''}, ${stats.acceleratedPackets} accelerated; ` +
      `${stats.flowSetups} flow setups, ${stats.vpcDeniedPackets} denied\n`,
  );
  // ENA Express: the SRD connections this card sends on (only when it has any)
  const srd = card.srd.connections().map(([peer, c]) => ({
    peer,
    peerInstance: lab.resolve(peer)?.name ?? null,
    windowBytes: Math.round(c.cwndBytes),
    inFlightBytes: c.inflightBytes,
    queuedPackets: c.queuedPackets,
    minRttUs: Number.isFinite(c.minRttNs) ? c.minRttNs / 1e3 : null,
    windowReductions: c.decreases,
  }));
  if (srd.length > 0) {
    out.push('\nENA Express (SRD) connections (lab-only: the device exposes none of this)\n');
    out.push(
      `${pad('Peer', 26)}${pad('Window', 12)}${pad('In flight', 12)}${pad('Queued', 10)}${pad('Min RTT', 11)}Reductions\n`,
    );
    for (const c of srd)
      out.push(
        `${pad(`${c.peer}${c.peerInstance ? ` (${c.peerInstance})` : ''}`, 26)}${pad(`${c.windowBytes} B`, 12)}${pad(`${c.inFlightBytes} B`, 12)}${pad(`${c.queuedPackets} pkts`, 10)}${pad(c.minRttUs === null ? '-' : `${c.minRttUs.toFixed(1)} µs`, 11)}${c.windowReductions}\n`,
      );
    out.push(
      `SRD: ${card.srd.retransmittedPkts} packets dropped at this card and resent by their senders, ${card.srd.fallbackPkts} eligible packets sent as standard ENA (SRD memory full)\n`,
    );
  }
  return done(out.join(''), 0, {
    ...(srd.length > 0
      ? {
          srd: {
            connections: srd,
            resentPackets: card.srd.retransmittedPkts,
            fallbackPackets: card.srd.fallbackPkts,
          },
        }
      : {}),
    instance: inst.name,
    eniId: eni?.eniId ?? null,
    adjacency,
    conntrack,
    flowCache: cache,
    conntrackAllowance: allowance,
    flowPath: stats,
    lastDecision: card.lastDecision,
  });
}

const EPHEMERAL_PORT = 49152;

function trace(lab: Lab, args: string[]): CommandOutcome {
  const [srcArg, dstArg, protoArg = 'tcp', portArg] = args as [string, string, string?, string?];
  const state = vpcState(lab);
  const srcInst = lab.resolve(srcArg);
  const srcName = srcInst?.name ?? (state.client?.name === srcArg ? srcArg : null);
  if (srcName === null)
    return fail(`lab: unknown source '${srcArg}' (an instance name or IP, or the client)`);
  const srcIp = srcInst?.host.ip ?? state.client!.ip;
  const dstIp = lab.resolve(dstArg)?.host.ip ?? (/^\d+\.\d+\.\d+\.\d+$/.test(dstArg) ? dstArg : null);
  if (dstIp === null)
    return fail(`lab: unknown destination '${dstArg}' (an instance name or an IPv4 address)`);
  if (protoArg !== 'tcp' && protoArg !== 'udp' && protoArg !== 'icmp')
    return fail(`lab: protocol must be tcp, udp or icmp, not '${protoArg}'`);
  const proto: L4Proto = protoArg;
  let port = proto === 'icmp' ? 0 : 443;
  if (portArg !== undefined) {
    if (proto === 'icmp') return fail('lab: icmp has no port');
    const n = Number(portArg);
    if (!/^\d+$/.test(portArg) || n < 1 || n > 65535) return fail(`lab: invalid port '${portArg}'`);
    port = n;
  }
  const tuple = { proto, srcIp, dstIp, srcPort: proto === 'icmp' ? 0 : EPHEMERAL_PORT, dstPort: port };
  const d = evaluateFlow(state, srcName, dstIp, tuple);
  const out: string[] = [NOTE];
  out.push(`trace ${fmtTuple(tuple, '→')} from ${srcName} (VPC mutation epoch ${d.epoch})\n`);
  for (const s of d.stages)
    out.push(
      `  ${pad(s.stage, 9)}${pad(s.result, 8)}${s.rule}${s.resourceId ? `  [${s.resourceId}]` : ''}\n`,
    );
  if (d.allowed) {
    const dest =
      d.destination.kind === 'instance'
        ? d.destination.instance
        : d.destination.kind === 'internet'
          ? 'the internet (via the internet gateway)'
          : d.destination.service;
    out.push(`allowed → ${dest}\n`);
    for (const c of d.conntrack)
      out.push(
        `  conntrack on ${c.instance} (${c.eniId}): ${c.tracked ? `tracked, idle timeout ${c.timeoutS} s` : 'untracked'} (${c.reason})\n`,
      );
    if (proto === 'icmp') out.push('  ICMP is never accelerated: every packet takes the processing path\n');
    else out.push('  first packet: processing path; later packets: accelerated flow\n');
  } else {
    const last = d.stages[d.stages.length - 1];
    out.push(`dropped at ${last?.stage ?? 'route'}: ${last?.rule ?? 'no route'}\n`);
  }
  return done(out.join(''), d.allowed ? 0 : 1, { tuple, key: tupleKey(tuple), ...d });
}
