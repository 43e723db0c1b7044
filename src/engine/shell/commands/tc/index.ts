/**
 * `tc`: Linux traffic control, parsed and printed as iproute2 does, applied to the simulated
 * device's qdisc tree (the kernel side: engine/host/qdisc/). Laid out as iproute2's tc/: this file
 * is tc.c (global options, objects), qdisc.ts tc_qdisc.c, class.ts tc_class.c, qdisc-util.ts the
 * `qdisc_util` registry with one q-<kind>.ts per qdisc, utils.ts lib/utils.c, tc_util.c and
 * tc_core.c, cli.ts the command's plumbing and the kernel's replies.
 *
 * Supported: `tc [-s] [-d] [-j] [-p] [-iec] qdisc { add | change | replace | link | delete | show }`
 * and `tc … class { add | change | replace | delete | show }` for pfifo, bfifo, pfifo_fast,
 * codel, fq_codel, fq, htb, tbf and mq. iproute2's error texts and exit codes are reproduced:
 * option errors exit 1 (parse_qopt), argument errors 255 (invarg/duparg/-1 returns), kernel errors
 * 2 with the extack ("Error: … .") or "RTNETLINK answers: …". Real qdiscs the lab does not model
 * (netem, cake, …), filters, actions, estimators and size tables are refused as "not simulated".
 */
import type { QdiscModifyFlags } from '../../../host/qdisc/tree';
import type { CommandOutcome } from '../../types';
import { CLASS_USAGE, classModify, classShow } from './class';
import { Out, outcome, type ShowFlags, type TcDevices, TcExit } from './cli';
import { QDISC_USAGE, qdiscModify, qdiscShow } from './qdisc';
import { matches } from './utils';

export type { TcDevices } from './cli';

const TC_USAGE =
  'Usage:\ttc [ OPTIONS ] OBJECT { COMMAND | help }\n' +
  '\ttc [-force] -batch filename\n' +
  'where  OBJECT := { qdisc | class | filter | chain |\n' +
  '\t\t    action | monitor | exec }\n' +
  '       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[aw] |\n' +
  '\t\t    -o[neline] | -j[son] | -p[retty] | -c[olor]\n' +
  '\t\t    -b[atch] [filename] | -n[etns] name | -N[umeric] |\n' +
  '\t\t     -nm | -nam[es] | { -cf | -conf } path\n' +
  '\t\t     -br[ief] }\n';

const NO_FLAGS: QdiscModifyFlags = { create: false, replace: false, excl: false };

/** Run `tc` with `argv` (without the leading "tc"). */
export function runTc(argv: string[], devices: TcDevices): CommandOutcome {
  const o = new Out();
  try {
    return runTcInner(argv, devices, o);
  } catch (e) {
    if (e instanceof TcExit) return outcome(o, e.code);
    throw e;
  }
}

function runTcInner(argv: string[], devices: TcDevices, o: Out): CommandOutcome {
  const f: ShowFlags = { stats: false, details: false, json: false, pretty: false, iec: false };
  let i = 0;
  for (; i < argv.length; i++) {
    let a = argv[i]!;
    if (!a.startsWith('-')) break;
    if (a.startsWith('--')) a = a.slice(1);
    if (matches(a, '-stats') || matches(a, '-statistics')) f.stats = true;
    else if (matches(a, '-details')) f.details = true;
    else if (matches(a, '-raw')) {
      // -raw adds hex dumps of internal fields; accepted, nothing extra is printed.
    } else if (matches(a, '-pretty')) f.pretty = true;
    else if (matches(a, '-graph')) {
      // class graph: not simulated; accepted silently like an unsupported display mode? No: refuse.
      o.err('tc -graph is not simulated in ec2-netlab\n');
      return outcome(o, 1);
    } else if (matches(a, '-Version')) {
      o.print('tc utility, iproute2-6.1.0\n');
      return outcome(o, 0);
    } else if (matches(a, '-iec')) f.iec = true;
    else if (matches(a, '-help')) {
      o.err(TC_USAGE);
      return outcome(o, 0);
    } else if (matches(a, '-json')) f.json = true;
    else if (
      matches(a, '-force') ||
      matches(a, '-oneline') ||
      matches(a, '-brief') ||
      matches(a, '-timestamp')
    ) {
      // accepted; no effect on the commands the lab supports
    } else if (matches(a, '-batch') || matches(a, '-netns') || matches(a, '-cf') || matches(a, '-conf')) {
      o.err(`tc ${a} is not simulated in ec2-netlab\n`);
      return outcome(o, 1);
    } else {
      o.err(`Option "${argv[i]}" is unknown, try "tc -help".\n`);
      return outcome(o, 255);
    }
  }
  if (i >= argv.length) {
    o.err(TC_USAGE);
    return outcome(o, 0);
  }
  const obj = argv[i]!;
  const rest = argv.slice(i + 1);
  if (matches(obj, 'qdisc')) return doObject(QDISC_OBJECT, rest, devices, o, f);
  if (matches(obj, 'class')) return doObject(CLASS_OBJECT, rest, devices, o, f);
  for (const other of ['filter', 'chain', 'actions', 'monitor', 'exec']) {
    if (matches(obj, other)) {
      o.err(`tc ${other} is not simulated in ec2-netlab\n`);
      return outcome(o, 1);
    }
  }
  if (matches(obj, 'help')) {
    o.err(TC_USAGE);
    return outcome(o, 0);
  }
  o.err(`Object "${obj}" is unknown, try "tc help".\n`);
  return outcome(o, 255);
}

/**
 * `tc qdisc` and `tc class`, as tc_qdisc.c's do_qdisc and tc_class.c's do_class dispatch them: the
 * modifying commands with their netlink flags, in the order iproute2 tries their prefixes.
 */
interface TcObject {
  readonly name: 'qdisc' | 'class';
  readonly usage: string;
  readonly commands: readonly (readonly [string, QdiscModifyFlags | 'delete'])[];
  readonly modify: (
    argv: string[],
    devices: TcDevices,
    o: Out,
    flags: QdiscModifyFlags,
    del: boolean,
  ) => number;
  readonly show: (argv: string[], devices: TcDevices, o: Out, f: ShowFlags) => CommandOutcome;
}

const QDISC_OBJECT: TcObject = {
  name: 'qdisc',
  usage: QDISC_USAGE,
  commands: [
    ['add', { create: true, replace: false, excl: true }],
    ['change', NO_FLAGS],
    ['replace', { create: true, replace: true, excl: false }],
    ['link', { create: false, replace: true, excl: false }],
    ['delete', 'delete'],
  ],
  modify: qdiscModify,
  show: qdiscShow,
};

const CLASS_OBJECT: TcObject = {
  name: 'class',
  usage: CLASS_USAGE,
  commands: [
    ['add', { create: true, replace: false, excl: true }],
    ['change', NO_FLAGS],
    ['replace', { create: true, replace: false, excl: false }],
    ['delete', 'delete'],
  ],
  modify: classModify,
  show: classShow,
};

function doObject(t: TcObject, argv: string[], devices: TcDevices, o: Out, f: ShowFlags): CommandOutcome {
  if (argv.length < 1) return t.show([], devices, o, f);
  const cmd = argv[0]!;
  const rest = argv.slice(1);
  for (const [name, flags] of t.commands) {
    if (!matches(cmd, name)) continue;
    const del = flags === 'delete';
    return outcome(o, t.modify(rest, devices, o, del ? NO_FLAGS : flags, del));
  }
  if (matches(cmd, 'list') || matches(cmd, 'show') || matches(cmd, 'lst')) return t.show(rest, devices, o, f);
  if (matches(cmd, 'help')) {
    o.err(t.usage);
    return outcome(o, 0);
  }
  o.err(`Command "${cmd}" is unknown, try "tc ${t.name} help".\n`);
  return outcome(o, 255);
}
