/**
 * `tc class { add | change | replace | delete | show }`: the request as tc_class.c builds it (dev,
 * classid, root or parent, the kind's class options) and the dump as it prints it, text or JSON.
 * Sources: IPROUTE2 tc/tc_class.c.
 */
import { type ClassDump, type HtbClassOptions, TC_H_ROOT, tcMajor } from '../../../host/qdisc/common';
import type { QdiscModifyFlags } from '../../../host/qdisc/tree';
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
import { getQdiscUtil, UNMODELLED_QDISCS } from './qdisc-util';
import { getTcClassid, matches, sprintClassid, statsText } from './utils';

export const CLASS_USAGE =
  'Usage: tc class [ add | del | change | replace | show ] dev STRING\n' +
  '       [ classid CLASSID ] [ root | parent CLASSID ]\n' +
  '       [ [ QDISC_KIND ] [ help | OPTIONS ] ]\n' +
  '\n' +
  '       tc class show [ dev STRING ] [ root | parent CLASSID ]\n' +
  'Where:\n' +
  'QDISC_KIND := { prio | etc. }\n' +
  'OPTIONS := ... try tc class add <desired QDISC_KIND> help\n';

function printClass(o: Out, c: ClassDump, dev: string | null, f: ShowFlags): void {
  let line = `class ${c.kind} ${sprintClassid(c.classid)} `;
  if (dev) line += `dev ${dev} `;
  if (c.parent === TC_H_ROOT) line += 'root ';
  else line += `parent ${sprintClassid(c.parent)} `;
  if (c.leafHandle) line += `leaf ${tcMajor(c.leafHandle).toString(16)}: `;
  const u = getQdiscUtil(c.kind);
  if (u?.printCopt) line += u.printCopt(c.options, f);
  o.print(`${line}\n`);
  if (f.stats) {
    o.print(statsText(c.stats));
    if (c.xstats && u?.printClassXstats) o.print(u.printClassXstats(c.xstats));
  }
}

function classJson(c: ClassDump, f: ShowFlags): Record<string, unknown> {
  const j: Record<string, unknown> = { class: c.kind, handle: sprintClassid(c.classid) };
  if (c.parent === TC_H_ROOT) j.root = true;
  else j.parent = sprintClassid(c.parent);
  if (c.leafHandle) j.leaf = `${tcMajor(c.leafHandle).toString(16)}:`;
  const copt = getQdiscUtil(c.kind)?.coptJson;
  if (copt) Object.assign(j, copt(c.options));
  if (f.stats) {
    j.stats = {
      bytes: c.stats.bytes,
      packets: c.stats.packets,
      drops: c.stats.drops,
      overlimits: c.stats.overlimits,
      requeues: c.stats.requeues,
      backlog: c.stats.backlogBytes,
      qlen: c.stats.backlogPackets,
    };
    if (c.xstats) j.xstats = { ...c.xstats };
  }
  return j;
}

export function classModify(
  argv: string[],
  devices: TcDevices,
  o: Out,
  flags: QdiscModifyFlags,
  del: boolean,
): number {
  const c: Cursor = { argv, i: 0, o };
  let dev: string | null = null;
  let classid = 0;
  let parent = 0;
  let kind: string | null = null;
  let opts: HtbClassOptions | null = null;
  for (; c.i < argv.length; c.i++) {
    const a = argv[c.i]!;
    if (a === 'dev') dev = argDev(c, dev);
    else if (a === 'classid') {
      const v = nextArg(c);
      if (classid) duparg(c, 'classid', v);
      const h = getTcClassid(v);
      if (h === null) invarg(c, 'invalid class ID', v);
      classid = h;
    } else if (a === 'handle') {
      o.err('Error: try "classid" instead of "handle"\n');
      return 255;
    } else if (a === 'root') {
      if (parent) {
        o.err('Error: "root" is duplicate parent ID.\n');
        return 255;
      }
      parent = TC_H_ROOT;
    } else if (a === 'parent') {
      parent = argParent(c, parent);
    } else if (matches(a, 'estimator')) {
      o.err('tc class estimator is not simulated in ec2-netlab\n');
      return 1;
    } else if (matches(a, 'help')) {
      o.err(CLASS_USAGE);
      return 255;
    } else {
      kind = a;
      c.i++;
      break;
    }
  }
  if (kind !== null) {
    const u = getQdiscUtil(kind);
    if (u?.parseCopt) opts = u.parseCopt(c);
    else if (UNMODELLED_QDISCS.has(kind)) {
      o.err(`qdisc '${kind}' is not simulated in ec2-netlab\n`);
      return 1;
    } else if (u) {
      o.err(`Error: Qdisc "${kind}" is classless.\n`);
      return 1;
    } else if (c.i < argv.length) {
      o.err(`Unknown qdisc "${kind}", hence option "${argv[c.i]}" is unparsable\n`);
      return 1;
    }
  }
  const mgr = requestDevice(c, devices, dev);
  if (del) return kernelReply(o, mgr.deleteClass({ parent, classid }));
  if (!del && !opts && flags.create) return kernelReply(o, { errno: 'EINVAL' });
  return kernelReply(o, mgr.modifyClass({ flags, parent, classid, kind: kind ?? undefined, opts }));
}

export function classShow(argv: string[], devices: TcDevices, o: Out, f: ShowFlags): CommandOutcome {
  const flt = parseShowFilter(argv, o, 'class', CLASS_USAGE);
  if (typeof flt === 'number') return outcome(o, flt);
  if (flt.dev === null) return outcome(o, 0, []);
  const mgr = devices.get(flt.dev);
  if (!mgr) {
    o.err(`Cannot find device "${flt.dev}"\n`);
    return outcome(o, 1);
  }
  const list: Record<string, unknown>[] = [];
  const json: Record<string, unknown>[] = [];
  for (const c of mgr.dumpClasses()) {
    if (flt.parent === TC_H_ROOT && c.parent !== TC_H_ROOT) continue;
    if (flt.parent && flt.parent !== TC_H_ROOT && c.parent !== flt.parent) continue;
    if (flt.handle && c.classid !== flt.handle) continue;
    list.push(classJson(c, { ...f, stats: true }));
    if (f.json) json.push(classJson(c, f));
    else printClass(o, c, null, f);
  }
  if (f.json) o.print(`${JSON.stringify(json, null, f.pretty ? 4 : undefined)}\n`);
  return outcome(o, 0, list);
}
