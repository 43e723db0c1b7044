/**
 * `tc qdisc { add | change | replace | link | delete | show }`: the request as tc_qdisc.c builds it
 * (dev, handle, root or parent, the kind and its options) and the dump as it prints it, text or JSON.
 * Sources: IPROUTE2 tc/tc_qdisc.c.
 */
import { TC_H_ROOT, tcMajor, type QdiscOptions } from '../../../host/qdisc/common';
import type { QdiscDump, QdiscModifyFlags } from '../../../host/qdisc/tree';
import type { CommandOutcome } from '../../types';
import {
  argDev,
  argParent,
  type Cursor,
  duparg,
  invarg,
  kernelReply,
  nextArg,
  type Out,
  outcome,
  parseShowFilter,
  requestDevice,
  type ShowFlags,
  type TcDevices,
} from './cli';
import { getQdiscUtil, parseQdiscOptions } from './qdisc-util';
import { getQdiscHandle, matches, sprintClassid, statsText } from './utils';

export const QDISC_USAGE =
  'Usage: tc qdisc [ add | del | replace | change | show ] dev STRING\n' +
  '       [ handle QHANDLE ] [ root | ingress | clsact | parent CLASSID ]\n' +
  '       [ estimator INTERVAL TIME_CONSTANT ]\n' +
  '       [ stab [ help | STAB_OPTIONS] ]\n' +
  '       [ ingress_block BLOCK_INDEX ] [ egress_block BLOCK_INDEX ]\n' +
  '       [ [ QDISC_KIND ] [ help | OPTIONS ] ]\n' +
  '\n' +
  '       tc qdisc { show | list } [ dev STRING ] [ QDISC_ID ] [ invisible ]\n' +
  'Where:\n' +
  'QDISC_KIND := { [p|b]fifo | tbf | prio | red | etc. }\n' +
  'OPTIONS := ... try tc qdisc add <desired QDISC_KIND> help\n' +
  'STAB_OPTIONS := ... try tc qdisc add stab help\n' +
  'QDISC_ID := { root | ingress | handle QHANDLE | parent CLASSID }\n';

/** The `tc -s -j qdisc show` element for one qdisc. */
function qdiscJson(d: QdiscDump, dev: string | null, f: ShowFlags): Record<string, unknown> {
  const j: Record<string, unknown> = { kind: d.kind, handle: `${tcMajor(d.handle).toString(16)}:` };
  if (dev) j.dev = dev;
  if (d.parent === TC_H_ROOT) j.root = true;
  else if (d.parent) j.parent = sprintClassid(d.parent);
  if (d.refcnt !== 1) j.refcnt = d.refcnt;
  j.options = { ...d.options };
  if (f.stats) {
    j.bytes = d.stats.bytes;
    j.packets = d.stats.packets;
    j.drops = d.stats.drops;
    j.overlimits = d.stats.overlimits;
    j.requeues = d.stats.requeues;
    j.backlog = d.stats.backlogBytes;
    j.qlen = d.stats.backlogPackets;
    if (d.xstats) Object.assign(j, d.xstats);
  }
  return j;
}

function printQdisc(o: Out, d: QdiscDump, dev: string | null, f: ShowFlags): void {
  let line = `qdisc ${d.kind} ${tcMajor(d.handle).toString(16)}: `;
  if (dev) line += `dev ${dev} `;
  if (d.parent === TC_H_ROOT) line += 'root ';
  else if (d.parent) line += `parent ${sprintClassid(d.parent)} `;
  if (d.refcnt !== 1) line += `refcnt ${d.refcnt} `;
  line += getQdiscUtil(d.kind)?.printQopt?.(d.options, f) ?? '';
  o.print(`${line}\n`);
  if (f.stats) {
    o.print(statsText(d.stats));
    const u = getQdiscUtil(d.kind);
    if (d.xstats && u?.printXstats) {
      const x = u.printXstats(d.xstats);
      if (x) o.print(x);
    }
  }
}

export function qdiscModify(
  argv: string[],
  devices: TcDevices,
  o: Out,
  flags: QdiscModifyFlags,
  del: boolean,
): number {
  const c: Cursor = { argv, i: 0, o };
  let dev: string | null = null;
  let handle = 0;
  let parent = 0;
  let kind: string | null = null;
  let opts: QdiscOptions | null = null;
  for (; c.i < argv.length; c.i++) {
    const a = argv[c.i]!;
    if (a === 'dev') dev = argDev(c, dev);
    else if (a === 'handle') {
      if (handle) duparg(c, 'handle', argv[c.i + 1] ?? '');
      const v = nextArg(c);
      const h = getQdiscHandle(v);
      if (h === null) invarg(c, 'invalid qdisc ID', v);
      handle = h;
    } else if (a === 'root') {
      if (parent) {
        o.err('Error: "root" is duplicate parent ID\n');
        return 255;
      }
      parent = TC_H_ROOT;
    } else if (a === 'ingress' || a === 'clsact') {
      o.err(`tc qdisc ${a} is not simulated in ec2-netlab\n`);
      return 1;
    } else if (a === 'parent') {
      parent = argParent(c, parent);
    } else if (
      matches(a, 'estimator') ||
      matches(a, 'stab') ||
      a === 'ingress_block' ||
      a === 'egress_block'
    ) {
      o.err(`tc qdisc ${a} is not simulated in ec2-netlab\n`);
      return 1;
    } else if (matches(a, 'help')) {
      o.err(QDISC_USAGE);
      return 255;
    } else {
      kind = a;
      c.i++;
      break;
    }
  }
  if (kind !== null) opts = parseQdiscOptions(c, kind);
  const mgr = requestDevice(c, devices, dev);
  // An unknown kind without options reaches the kernel, which does not know it either
  // (tc_get_qdisc only compares the kind string, so a delete reports the mismatch instead).
  if (kind !== null && opts === null && !del)
    return kernelReply(o, { errno: 'ENOENT', extack: 'Specified qdisc kind is unknown' });
  if (del) return kernelReply(o, mgr.deleteQdisc({ parent, handle, kind: kind ?? undefined }));
  return kernelReply(o, mgr.modifyQdisc({ flags, parent, handle, opts }));
}

export function qdiscShow(argv: string[], devices: TcDevices, o: Out, f: ShowFlags): CommandOutcome {
  const flt = parseShowFilter(argv, o, 'qdisc', QDISC_USAGE);
  if (typeof flt === 'number') return outcome(o, flt);
  const names = flt.dev !== null ? [flt.dev] : [...devices.keys()];
  if (flt.dev !== null && !devices.has(flt.dev)) {
    o.err(`Cannot find device "${flt.dev}"\n`);
    return outcome(o, 1);
  }
  const all: Record<string, unknown>[] = [];
  const json: Record<string, unknown>[] = [];
  for (const name of names) {
    const mgr = devices.get(name)!;
    for (const d of mgr.dumpQdiscs()) {
      if (flt.parent === TC_H_ROOT && d.parent !== TC_H_ROOT) continue;
      if (flt.parent && flt.parent !== TC_H_ROOT && d.parent !== flt.parent) continue;
      if (flt.handle && d.handle !== flt.handle) continue;
      const devLabel = flt.dev === null ? name : null;
      all.push(qdiscJson(d, devLabel, { ...f, stats: true }));
      if (f.json) json.push(qdiscJson(d, devLabel, f));
      else printQdisc(o, d, devLabel, f);
    }
  }
  if (f.json) o.print(`${JSON.stringify(json, null, f.pretty ? 4 : undefined)}\n`);
  return outcome(o, 0, all);
}
