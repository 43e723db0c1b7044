/**
 * `ethtool` for the simulated ENA device: parses the command line as ethtool 6.7 does and prints
 * what it prints on a Linux 6.8 kernel with the ENA driver (Ubuntu 24.04 on EC2), with its errors
 * and exit codes. The kernel's own checks are made here; the driver's rules belong to the device
 * behind `EnaDeviceView`. Options the lab does not model are refused ("… is not simulated").
 *
 * Sources: ethtool netlink/{rings,channels,coalesce,rss,parser,nlsock}.c, ethtool.c, rxclass.c,
 * common.c; kernel net/ethtool/{rings,channels,coalesce}.c; ENA ena_ethtool.c. Which options use
 * netlink or ioctl and how their errors read: docs/design.md, "ethtool's errors".
 */
import type { DeviceOp, EnaDeviceView, Errno, NtupleFlowType, NtupleRule } from '../../host/device-view';
import { defaultIndirectionTable, parseIpv4 } from '../../host/rss';
import { ETHTOOL_HELP, labNote } from './real-help';
import { type CommandOutcome, done, fail } from '../types';

export type DeviceLookup = (name: string) => EnaDeviceView | undefined;

export const ETHTOOL_VERSION = '6.7';

const STRERROR: Record<Errno | 'ENODEV', string> = {
  EINVAL: 'Invalid argument',
  EOPNOTSUPP: 'Operation not supported',
  EBUSY: 'Device or resource busy',
  ENOSPC: 'No space left on device',
  ERANGE: 'Numerical result out of range',
  ENOENT: 'No such file or directory',
  ENODEV: 'No such device',
};

const BAD_ARGS = 'ethtool: bad command line argument(s)\nFor more information run ethtool -h\n';

/** Result of ethtool's output so far: stdout and stderr accumulate like the real process's. */
class Out {
  stdout = '';
  stderr = '';
  out(s: string): this {
    this.stdout += s;
    return this;
  }
  err(s: string): this {
    this.stderr += s;
    return this;
  }
  finish(exitCode: number, result?: unknown): CommandOutcome {
    return { kind: 'done', out: { stdout: this.stdout, stderr: this.stderr, exitCode, result } };
  }
}

const badArgs = (o = new Out()): CommandOutcome => o.err(BAD_ARGS).finish(1);
const notSimulated = (what: string): CommandOutcome =>
  fail(`ethtool: ${what} is not simulated in ec2-netlab`, 1);

// ---------------------------------------------------------------------------------------------
// Number parsing the way the C library does it.

/**
 * strtoull semantics: optional whitespace and sign, base 0 (0x hex, 0 octal, else decimal) or a
 * fixed base. A minus sign negates in unsigned 64-bit arithmetic ("-1" is 2^64-1, as in C).
 * Returns undefined when the text is not a number or overflows 64 bits (ERANGE).
 */
function strtoul(s: string, base: 0 | 10 | 16): bigint | undefined {
  const m = /^\s*([+-]?)(.*)$/s.exec(s);
  if (!m) return undefined;
  const neg = m[1] === '-';
  let body = m[2]!;
  let radix: 8 | 10 | 16 = base === 16 ? 16 : 10;
  if ((base === 0 || base === 16) && /^0[xX][0-9a-fA-F]/.test(body)) {
    body = body.slice(2);
    radix = 16;
  } else if (base === 0 && body.length > 1 && body.startsWith('0')) radix = 8;
  const digits = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!digits.test(body)) return undefined;
  const v = BigInt(radix === 16 ? `0x${body}` : radix === 8 ? `0o${body}` : body);
  const u64 = (1n << 64n) - 1n;
  if (v > u64) return undefined;
  return neg ? (u64 + 1n - v) & u64 : v;
}

/** ethtool netlink parser's parse_u32: decimal, or hex with 0x; rejects negatives and > UINT_MAX. */
function nlParseU32(arg: string | undefined): number | undefined {
  if (arg === undefined || arg === '') return undefined;
  const hex = arg.startsWith('0x') || arg.startsWith('0X');
  const v = strtoul(hex ? arg.slice(2) : arg, hex ? 16 : 10);
  if (v === undefined || v > 0xffffffffn) return undefined;
  return Number(v);
}

/** ethtool.c get_uint_range(str, 0, max) / rxclass_get_ulong: strtoull base 0, bounded. */
function getUintRange(arg: string | undefined, max: bigint): bigint | undefined {
  if (arg === undefined) return undefined;
  const v = strtoul(arg, 0);
  if (v === undefined || v > max) return undefined;
  return v;
}

/** ethtool.c get_int_range(str, 0, min, max): strtoll base 0. */
function getIntRange(arg: string | undefined, min: number, max: number): number | undefined {
  if (arg === undefined) return undefined;
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(arg);
  if (!m) return undefined;
  const body = m[2]!;
  let v =
    body.startsWith('0x') || body.startsWith('0X')
      ? Number.parseInt(body, 16)
      : body.startsWith('0')
        ? Number.parseInt(body || '0', 8)
        : Number(body);
  if (m[1] === '-') v = -v;
  if (!Number.isFinite(v) || v < min || v > max) return undefined;
  return v;
}

// ---------------------------------------------------------------------------------------------
// Netlink request layout, for the "(offset N)" of extack messages.

const NL_HDR_BYTES = 16 + 4; // nlmsghdr + genlmsghdr
const align4 = (n: number) => (n + 3) & ~3;
/** Offset of the first attribute after the request header nest (dev name attribute inside). */
function firstParamOffset(devname: string): number {
  return NL_HDR_BYTES + 4 + align4(4 + devname.length + 1);
}
const DEVNAME_OFFSET = NL_HDR_BYTES + 4;

function nlNoDevice(o: Out, exitCode: number): CommandOutcome {
  return o
    .err(`netlink error: no device matches name (offset ${DEVNAME_OFFSET})\nnetlink error: No such device\n`)
    .finish(exitCode);
}

function nlError(
  o: Out,
  errno: Errno,
  msg: string | undefined,
  offset: number | undefined,
  exitCode: number,
) {
  if (msg) o.err(`netlink error: ${msg}${offset !== undefined ? ` (offset ${offset})` : ''}\n`);
  return o.err(`netlink error: ${STRERROR[errno]}\n`).finish(exitCode);
}

interface NlParam {
  name: string;
  kind: 'u32' | 'bool' | 'lookup';
  /** Not modelled by the lab: refused before anything is sent. */
  unmodelled?: boolean;
}
interface NlParsed {
  name: string;
  value: number | boolean;
  offset: number;
}

/**
 * ethtool's nl_parser for PARSER_GROUP_NONE commands: "name value" pairs, each a u32 or on/off
 * attribute appended in order. Returns the parsed attributes or a finished error outcome.
 */
function nlParse(
  cmd: string,
  args: string[],
  params: NlParam[],
  devname: string,
): NlParsed[] | CommandOutcome {
  const out: NlParsed[] = [];
  const seen = new Set<string>();
  let offset = firstParamOffset(devname);
  for (let i = 0; i < args.length; ) {
    const name = args[i]!;
    const p = params.find((x) => x.name === name);
    if (!p) return fail(`ethtool (${cmd}): unknown parameter '${name}'`, 1);
    if (seen.has(name)) return fail(`ethtool (${cmd}): duplicate parameter '${name}'`, 1);
    i++;
    if (i >= args.length) return fail(`ethtool (${cmd}): no value for parameter '${name}'`, 1);
    seen.add(name);
    const raw = args[i++]!;
    if (p.unmodelled) return notSimulated(`ethtool ${cmd} parameter '${name}'`);
    let value: number | boolean;
    if (p.kind === 'bool') {
      if (raw !== 'on' && raw !== 'off')
        return fail(`ethtool (${cmd}): invalid value '${raw}' for parameter '${name}'`, 1);
      value = raw === 'on';
    } else {
      const v = nlParseU32(raw);
      if (v === undefined) return fail(`ethtool (${cmd}): invalid value '${raw}' for parameter '${name}'`, 1);
      value = v;
    }
    out.push({ name, value, offset });
    offset += 8; // u32 and u8 attributes both take 8 bytes (4 header + payload padded to 4)
  }
  return out;
}

const isOutcome = (x: unknown): x is CommandOutcome =>
  typeof x === 'object' && x !== null && 'kind' in x && (x as { kind: unknown }).kind === 'done';

// ---------------------------------------------------------------------------------------------
// Options.

interface Ctx {
  devname: string;
  args: string[];
  dev: EnaDeviceView | undefined;
}

type Handler = (c: Ctx) => CommandOutcome;

interface OptionDef {
  names: string[];
  handler?: Handler;
}

const OPTIONS: OptionDef[] = [
  { names: ['-i', '--driver'], handler: doDriverInfo },
  { names: ['-S', '--statistics'], handler: doStatistics },
  { names: ['-g', '--show-ring'], handler: doShowRing },
  { names: ['-G', '--set-ring'], handler: doSetRing },
  { names: ['-l', '--show-channels'], handler: doShowChannels },
  { names: ['-L', '--set-channels'], handler: doSetChannels },
  { names: ['-c', '--show-coalesce'], handler: doShowCoalesce },
  { names: ['-C', '--coalesce'], handler: doSetCoalesce },
  { names: ['-x', '--show-rxfh-indir', '--show-rxfh'], handler: doShowRxfh },
  { names: ['-X', '--set-rxfh-indir', '--rxfh'], handler: doSetRxfh },
  { names: ['-n', '-u', '--show-nfc', '--show-ntuple'], handler: doShowNfc },
  { names: ['-N', '-U', '--config-nfc', '--config-ntuple'], handler: doConfigNfc },
  // Real ethtool options the lab does not model.
  { names: ['-s', '--change'] },
  { names: ['-a', '--show-pause'] },
  { names: ['-A', '--pause'] },
  { names: ['-k', '--show-features', '--show-offload'] },
  { names: ['-K', '--features', '--offload'] },
  { names: ['-p', '--identify'] },
  { names: ['-P', '--show-permaddr'] },
  { names: ['-r', '--negotiate'] },
  { names: ['-t', '--test'] },
  { names: ['-T', '--show-time-stamping'] },
  { names: ['-d', '--register-dump'] },
  { names: ['-e', '--eeprom-dump'] },
  { names: ['-E', '--change-eeprom'] },
  { names: ['-f', '--flash'] },
  { names: ['-m', '--dump-module-eeprom', '--module-info'] },
  { names: ['-w', '--get-dump'] },
  { names: ['-W', '--set-dump'] },
  { names: ['--phy-statistics'] },
  { names: ['--show-priv-flags'] },
  { names: ['--set-priv-flags'] },
  { names: ['--show-eee'] },
  { names: ['--set-eee'] },
  { names: ['--show-fec'] },
  { names: ['--set-fec'] },
  { names: ['--show-tunable'] },
  { names: ['--set-tunable'] },
  { names: ['--reset'] },
  { names: ['--cable-test'] },
  { names: ['--monitor'] },
  { names: ['--show-mm'] },
  { names: ['--show-pse'] },
];

/** Run `ethtool` (argv without the program name) against the host's devices. */
export function runEthtool(argv: string[], dev: DeviceLookup): CommandOutcome {
  let args = [...argv];
  // Global options ethtool accepts before the command.
  while (args.length > 0) {
    const a = args[0]!;
    if (a === '--debug' || a === '--json' || a === '-j' || a === '-I' || a === '--include-statistics') {
      return notSimulated(`option ${a}`);
    }
    if (a === '-Q' || a === '--per-queue') return notSimulated(`option ${a}`);
    break;
  }
  if (args.length === 0) return badArgs();
  const first = args[0]!;
  if (first === '--version') return done(`ethtool version ${ETHTOOL_VERSION}\n`);
  if (first === '-h' || first === '--help')
    return done(
      ETHTOOL_HELP +
        labNote('ethtool', '-i, -S, -g/-G, -l/-L, -c/-C, -x/-X, -n/-N (ntuple rules) and --version'),
    );
  if (!first.startsWith('-')) {
    // "ethtool DEVNAME" shows link settings.
    return notSimulated('showing link settings (ethtool DEVNAME)');
  }
  const opt = OPTIONS.find((o) => o.names.includes(first));
  if (!opt) return badArgs();
  if (!opt.handler) return notSimulated(`option ${first}`);
  const devname = args[1];
  if (devname === undefined) return badArgs();
  if (devname.length >= 16)
    return fail(`ethtool: device name '${devname}' longer than 15 characters\n${BAD_ARGS}`, 1);
  args = args.slice(2);
  const d = dev(devname);
  const op = DEVICE_OP[opt.names[0]!];
  if (d && op && d.supports?.(op) === false) return unsupported(opt.names[0]!);
  return opt.handler({ devname, args, dev: d });
}

/** The driver operation behind each option (a driver that lacks it makes the kernel say EOPNOTSUPP). */
const DEVICE_OP: Readonly<Record<string, DeviceOp>> = {
  '-g': 'rings',
  '-G': 'rings',
  '-l': 'channels',
  '-L': 'channels',
  '-c': 'coalesce',
  '-C': 'coalesce',
  '-x': 'rss',
  '-X': 'rss',
  '-n': 'ntuple',
  '-N': 'ntuple',
};

/**
 * What ethtool prints when the driver lacks the operation (xen-netfront has only drvinfo, link and
 * statistics; ixgbevf has no channels or ntuple): the netlink reply's errno for the netlink
 * commands, the ioctl's perror() for -X (ETHTOOL_GRXRINGS) and -n/-N (ETHTOOL_GRXRINGS).
 */
function unsupported(option: string): CommandOutcome {
  if (option === '-X') return fail('Cannot get RX ring count: Operation not supported', 1);
  if (option === '-n' || option === '-N') return fail('Cannot get RX rings: Operation not supported', 1);
  return nlError(new Out(), 'EOPNOTSUPP', undefined, undefined, 1);
}

// -i ----------------------------------------------------------------------------------------

function doDriverInfo(c: Ctx): CommandOutcome {
  if (c.args.length !== 0) return badArgs();
  if (!c.dev) return fail('Cannot get driver information: No such device', 71);
  const d = c.dev.driverInfo();
  // The out-of-tree driver (versions like "2.13.2g") exposes private flags; the in-tree one does not.
  const privFlags = /g$/.test(d.version);
  const text =
    `driver: ${d.driver}\n` +
    `version: ${d.version}\n` +
    `firmware-version: ${d.firmwareVersion}\n` +
    'expansion-rom-version: \n' +
    `bus-info: ${d.busInfo}\n` +
    'supports-statistics: yes\n' +
    `supports-test: ${d.supportsTest ? 'yes' : 'no'}\n` +
    'supports-eeprom-access: no\n' +
    `supports-register-dump: ${d.supportsRegisterDump ? 'yes' : 'no'}\n` +
    `supports-priv-flags: ${privFlags ? 'yes' : 'no'}\n`;
  return done(text, 0, { ...d });
}

// -S ----------------------------------------------------------------------------------------

function doStatistics(c: Ctx): CommandOutcome {
  if (c.args.length > 0) {
    const a = c.args[0]!;
    if (a === '--all-groups' || a === '--groups' || a === '--src') return notSimulated(`ethtool -S ${a}`);
    return badArgs();
  }
  if (!c.dev) return fail('Cannot get stats strings information: No such device', 96);
  const stats = c.dev.statistics();
  if (stats.length === 0) return fail('no stats available', 94);
  let text = 'NIC statistics:\n';
  const result: Record<string, number> = {};
  for (const [name, value] of stats) {
    text += `     ${name}: ${value}\n`;
    result[name] = value;
  }
  return done(text, 0, result);
}

// -g / -G -----------------------------------------------------------------------------------

const naU32 = (v: number | undefined) => (v === undefined ? 'n/a' : String(v));

function doShowRing(c: Ctx): CommandOutcome {
  if (c.args.length > 0) return fail(`ethtool: unexpected parameter '${c.args[0]}'`, 1);
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const r = c.dev.rings();
  const push = r.txPush;
  const text =
    `Ring parameters for ${c.devname}:\n` +
    'Pre-set maximums:\n' +
    `RX:\t\t\t${r.rxMax}\n` +
    'RX Mini:\t\tn/a\n' +
    'RX Jumbo:\t\tn/a\n' +
    `TX:\t\t\t${r.txMax}\n` +
    `TX push buff len:\t${naU32(push?.bufMaxLenBytes)}\n` +
    'Current hardware settings:\n' +
    `RX:\t\t\t${r.rx}\n` +
    'RX Mini:\t\tn/a\n' +
    'RX Jumbo:\t\tn/a\n' +
    `TX:\t\t\t${r.tx}\n` +
    'RX Buf Len:\t\tn/a\n' +
    'CQE Size:\t\tn/a\n' +
    `TX Push:\t\t${push ? 'on' : 'off'}\n` +
    'RX Push:\t\toff\n' +
    `TX push buff len:\t${naU32(push?.bufLenBytes)}\n` +
    'TCP data split:\t\tn/a\n';
  return done(text, 0, { ...r });
}

const SRING_PARAMS: NlParam[] = [
  { name: 'rx', kind: 'u32' },
  { name: 'rx-mini', kind: 'u32' },
  { name: 'rx-jumbo', kind: 'u32' },
  { name: 'tx', kind: 'u32' },
  { name: 'tx-push-buf-len', kind: 'u32', unmodelled: true },
  { name: 'rx-buf-len', kind: 'u32', unmodelled: true },
  { name: 'tcp-data-split', kind: 'lookup', unmodelled: true },
  { name: 'cqe-size', kind: 'u32', unmodelled: true },
  { name: 'tx-push', kind: 'bool', unmodelled: true },
  { name: 'rx-push', kind: 'bool', unmodelled: true },
];

/** nl_sring returns 81 when the kernel refuses the request (netlink/rings.c). */
const SRING_KERNEL_FAIL = 81;

function doSetRing(c: Ctx): CommandOutcome {
  const parsed = nlParse('-G', c.args, SRING_PARAMS, c.devname);
  if (isOutcome(parsed)) return parsed;
  const o = new Out();
  if (!c.dev) return nlNoDevice(o, SRING_KERNEL_FAIL);
  const cur = c.dev.rings();
  const want = { rx: cur.rx, 'rx-mini': 0, 'rx-jumbo': 0, tx: cur.tx } as Record<string, number>;
  let mod = false;
  for (const p of parsed) {
    if (want[p.name] !== p.value) mod = true;
    want[p.name] = p.value as number;
  }
  if (!mod) return o.finish(0);
  // net/ethtool/rings.c: "requested ring size exceeds maximum", checked rx, rx-mini, rx-jumbo, tx.
  const max: Record<string, number> = { rx: cur.rxMax, 'rx-mini': 0, 'rx-jumbo': 0, tx: cur.txMax };
  for (const name of ['rx', 'rx-mini', 'rx-jumbo', 'tx']) {
    if (want[name]! > max[name]!) {
      const at = parsed.find((p) => p.name === name)?.offset;
      return nlError(o, 'EINVAL', 'requested ring size exceeds maximum', at, SRING_KERNEL_FAIL);
    }
  }
  const rxArg = parsed.some((p) => p.name === 'rx') ? want.rx : undefined;
  const txArg = parsed.some((p) => p.name === 'tx') ? want.tx : undefined;
  const err = c.dev.setRings(rxArg, txArg);
  if (err) return nlError(o, err, undefined, undefined, SRING_KERNEL_FAIL);
  return o.finish(0, c.dev.rings());
}

// -l / -L -----------------------------------------------------------------------------------

function doShowChannels(c: Ctx): CommandOutcome {
  if (c.args.length > 0) return fail(`ethtool: unexpected parameter '${c.args[0]}'`, 1);
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const ch = c.dev.channels();
  const text =
    `Channel parameters for ${c.devname}:\n` +
    'Pre-set maximums:\n' +
    'RX:\t\tn/a\n' +
    'TX:\t\tn/a\n' +
    'Other:\t\tn/a\n' +
    `Combined:\t${ch.combinedMax}\n` +
    'Current hardware settings:\n' +
    'RX:\t\tn/a\n' +
    'TX:\t\tn/a\n' +
    'Other:\t\tn/a\n' +
    `Combined:\t${ch.combined}\n`;
  return done(text, 0, { ...ch });
}

const SCHANNELS_PARAMS: NlParam[] = [
  { name: 'rx', kind: 'u32' },
  { name: 'tx', kind: 'u32' },
  { name: 'other', kind: 'u32' },
  { name: 'combined', kind: 'u32' },
];

/** Whether the user changed the indirection table (approximates netif_is_rxfh_configured). */
function rxfhConfigured(indir: number[], queues: number): boolean {
  const def = defaultIndirectionTable(queues, indir.length || 1);
  return indir.some((q, i) => q !== def[i]);
}

function doSetChannels(c: Ctx): CommandOutcome {
  const parsed = nlParse('-L', c.args, SCHANNELS_PARAMS, c.devname);
  if (isOutcome(parsed)) return parsed;
  const o = new Out();
  if (!c.dev) return nlNoDevice(o, 1);
  const cur = c.dev.channels();
  const want: Record<string, number> = { rx: 0, tx: 0, other: 0, combined: cur.combined };
  let mod = false;
  for (const p of parsed) {
    if (want[p.name] !== p.value) mod = true;
    want[p.name] = p.value as number;
  }
  if (!mod) return o.finish(0);
  const offsetOf = (name: string) => parsed.find((p) => p.name === name)?.offset;
  // net/ethtool/channels.c ethnl_set_channels, in its order. ENA has combined channels only.
  const max: Record<string, number> = { rx: 0, tx: 0, other: 0, combined: cur.combinedMax };
  for (const name of ['rx', 'tx', 'other', 'combined']) {
    if (want[name]! > max[name]!) {
      return nlError(o, 'EINVAL', 'requested channel count exceeds maximum', offsetOf(name), 1);
    }
  }
  if (want.combined === 0) {
    const at = offsetOf('combined') ?? offsetOf(want.rx === 0 ? 'rx' : 'tx');
    return nlError(
      o,
      'EINVAL',
      'requested channel counts would result in no RX or TX channel being configured',
      at,
      1,
    );
  }
  const combined = want.combined!;
  const rss = c.dev.rss();
  if (rxfhConfigured(rss.indir, cur.combined)) {
    const maxInUse = Math.max(...rss.indir);
    if (combined <= maxInUse) {
      return nlError(
        o,
        'EINVAL',
        'requested channel counts are too low for existing indirection table settings',
        undefined,
        1,
      );
    }
  }
  const rules = c.dev.ntupleSupported() ? c.dev.ntupleRules() : [];
  if (rules.length > 0 && combined <= Math.max(...rules.map((r) => r.action))) {
    return nlError(
      o,
      'EINVAL',
      'requested channel counts are too low for existing ntuple filter settings',
      undefined,
      1,
    );
  }
  const err = c.dev.setChannels(combined);
  if (err) return nlError(o, err, undefined, undefined, 1);
  return o.finish(0, c.dev.channels());
}

// -c / -C -----------------------------------------------------------------------------------

function doShowCoalesce(c: Ctx): CommandOutcome {
  if (c.args.length > 0) return fail(`ethtool: unexpected parameter '${c.args[0]}'`, 1);
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const k = c.dev.coalesce();
  // ENA advertises ETHTOOL_COALESCE_USECS | ETHTOOL_COALESCE_USE_ADAPTIVE_RX, ixgbevf only
  // ETHTOOL_COALESCE_USECS (its rx-usecs 1 is its own dynamic mode): every other attribute is absent
  // from the kernel's reply and shows as n/a.
  const adaptive = coalesceSupported(c.dev).has('adaptive-rx') ? (k.adaptiveRx ? 'on' : 'off') : 'n/a';
  const text =
    `Coalesce parameters for ${c.devname}:\n` +
    `Adaptive RX: ${adaptive}  TX: n/a\n` +
    'stats-block-usecs:\tn/a\n' +
    'sample-interval:\tn/a\n' +
    'pkt-rate-low:\t\tn/a\n' +
    'pkt-rate-high:\t\tn/a\n' +
    '\n' +
    `rx-usecs:\t${k.rxUsecs}\n` +
    'rx-frames:\tn/a\n' +
    'rx-usecs-irq:\tn/a\n' +
    'rx-frames-irq:\tn/a\n' +
    '\n' +
    `tx-usecs:\t${k.txUsecs}\n` +
    'tx-frames:\tn/a\n' +
    'tx-usecs-irq:\tn/a\n' +
    'tx-frames-irq:\tn/a\n' +
    '\n' +
    'rx-usecs-low:\tn/a\n' +
    'rx-frame-low:\tn/a\n' +
    'tx-usecs-low:\tn/a\n' +
    'tx-frame-low:\tn/a\n' +
    '\n' +
    'rx-usecs-high:\tn/a\n' +
    'rx-frame-high:\tn/a\n' +
    'tx-usecs-high:\tn/a\n' +
    'tx-frame-high:\tn/a\n' +
    '\n' +
    'CQE mode RX: n/a  TX: n/a\n' +
    '\n' +
    'tx-aggr-max-bytes:\tn/a\n' +
    'tx-aggr-max-frames:\tn/a\n' +
    // ethtool 6.7 prints this label without its colon (fixed in 6.11).
    'tx-aggr-time-usecs\tn/a\n' +
    '\n';
  return done(text, 0, { ...k });
}

const SCOALESCE_PARAMS: NlParam[] = [
  { name: 'adaptive-rx', kind: 'bool' },
  { name: 'adaptive-tx', kind: 'bool' },
  ...[
    'sample-interval',
    'stats-block-usecs',
    'pkt-rate-low',
    'pkt-rate-high',
    'rx-usecs',
    'rx-frames',
    'rx-usecs-irq',
    'rx-frames-irq',
    'tx-usecs',
    'tx-frames',
    'tx-usecs-irq',
    'tx-frames-irq',
    'rx-usecs-low',
    'rx-frames-low',
    'tx-usecs-low',
    'tx-frames-low',
    'rx-usecs-high',
    'rx-frames-high',
    'tx-usecs-high',
    'tx-frames-high',
  ].map((name): NlParam => ({ name, kind: 'u32' })),
  { name: 'cqe-mode-rx', kind: 'bool' },
  { name: 'cqe-mode-tx', kind: 'bool' },
  { name: 'tx-aggr-max-bytes', kind: 'u32' },
  { name: 'tx-aggr-max-frames', kind: 'u32' },
  { name: 'tx-aggr-time-usecs', kind: 'u32' },
];
const ENA_COALESCE_SUPPORTED = new Set(['adaptive-rx', 'rx-usecs', 'tx-usecs']);
const IXGBEVF_COALESCE_SUPPORTED = new Set(['rx-usecs', 'tx-usecs']);

/** The driver's supported_coalesce_params, as ethtool attribute names. */
function coalesceSupported(dev: { driverInfo(): { driver: string } }): ReadonlySet<string> {
  return dev.driverInfo().driver === 'ixgbevf' ? IXGBEVF_COALESCE_SUPPORTED : ENA_COALESCE_SUPPORTED;
}

function doSetCoalesce(c: Ctx): CommandOutcome {
  const parsed = nlParse('-C', c.args, SCOALESCE_PARAMS, c.devname);
  if (isOutcome(parsed)) return parsed;
  const o = new Out();
  if (!c.dev) return nlNoDevice(o, 1);
  // ethnl_set_coalesce_validate: any attribute outside supported_coalesce_params is refused.
  const supported = coalesceSupported(c.dev);
  const unsupported = parsed.find((p) => !supported.has(p.name));
  if (unsupported)
    return nlError(o, 'EINVAL', 'cannot modify an unsupported parameter', unsupported.offset, 1);
  const cur = c.dev.coalesce();
  const change: { adaptiveRx?: boolean; rxUsecs?: number; txUsecs?: number } = {};
  for (const p of parsed) {
    if (p.name === 'adaptive-rx' && p.value !== cur.adaptiveRx) change.adaptiveRx = p.value as boolean;
    if (p.name === 'rx-usecs' && p.value !== cur.rxUsecs) change.rxUsecs = p.value as number;
    if (p.name === 'tx-usecs' && p.value !== cur.txUsecs) change.txUsecs = p.value as number;
  }
  if (Object.keys(change).length === 0) return o.finish(0);
  const err = c.dev.setCoalesce(change);
  if (err) return nlError(o, err, undefined, undefined, 1);
  return o.finish(0, c.dev.coalesce());
}

// -x / -X -----------------------------------------------------------------------------------

const HASH_FUNCS = ['toeplitz', 'xor', 'crc32'] as const;

function formatIndirTable(devname: string, rings: number, indir: number[]): string {
  let s = `RX flow hash indirection table for ${devname} with ${rings} RX ring(s):\n`;
  if (indir.length === 0) s += 'Operation not supported\n';
  for (let i = 0; i < indir.length; i++) {
    if (i % 8 === 0) s += `${String(i).padStart(5)}: `;
    s += ` ${String(indir[i]).padStart(5)}`;
    if (i % 8 === 7 || i === indir.length - 1) s += '\n';
  }
  return s;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

function doShowRxfh(c: Ctx): CommandOutcome {
  if (c.args.length > 0) {
    if (c.args[0] === 'context') return notSimulated('RSS contexts (ethtool -x DEV context N)');
    return fail(`ethtool (-x): unknown parameter '${c.args[0]}'`, 1);
  }
  if (!c.dev) return nlNoDevice(new Out(), 1);
  const rss = c.dev.rss();
  const rings = c.dev.channels().combined;
  let text = formatIndirTable(c.devname, rings, rss.indir);
  // Devices that cannot report their hash function leave the key buffer zeroed and hfunc 0
  // (ena_get_rxfh returns early when ena_com_get_hash_function says EOPNOTSUPP).
  const key = rss.keyConfigurable ? rss.key : new Uint8Array(rss.key.length);
  text += 'RSS hash key:\n';
  text += key.length === 0 ? 'Operation not supported\n' : `${Array.from(key, hex2).join(':')}\n`;
  text += 'RSS hash function:\n';
  if (!rss.keyConfigurable) text += '    Operation not supported\n';
  else for (const f of HASH_FUNCS) text += `    ${f}: ${rss.hfunc === f ? 'on' : 'off'}\n`;
  return done(text, 0, {
    rings,
    indir: [...rss.indir],
    key: Array.from(key, hex2).join(':'),
    hfunc: rss.keyConfigurable ? rss.hfunc : null,
  });
}

/** ethtool.c convert_string_to_hashkey: "xx:xx:…", exactly the device's key size. */
function parseHkey(s: string, keySize: number): Uint8Array | string {
  const numBytes = Math.floor((s.length + 1) / 3);
  const key: number[] = [];
  let p = 0;
  do {
    if (key.length > keySize - 1) return `Key is too long for device (${numBytes} > ${keySize})`;
    const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(p));
    if (!m) return 'Invalid RSS hash key format';
    key.push(Number.parseInt(m[0], 16));
    p += 2;
    if (s[p] === ':') p++;
    else if (p < s.length) return 'Invalid RSS hash key format';
  } while (p < s.length);
  if (key.length !== keySize) return `Key is too short for device (${key.length} < ${keySize})`;
  return Uint8Array.from(key);
}

function doSetRxfh(c: Ctx): CommandOutcome {
  const a = c.args;
  if (a.length < 1) return badArgs();
  let equal = 0;
  let start = 0;
  let weights: string[] | undefined;
  let hkey: string | undefined;
  let useDefault = false;
  let hfuncName: string | undefined;
  for (let i = 0; i < a.length; ) {
    const w = a[i]!;
    if (w === 'equal') {
      const v = getIntRange(a[i + 1], 1, 0x7fffffff);
      if (v === undefined) return badArgs();
      equal = v;
      i += 2;
    } else if (w === 'start') {
      const v = getIntRange(a[i + 1], 0, 0x7fffffff);
      if (v === undefined) return badArgs();
      start = v;
      i += 2;
    } else if (w === 'weight') {
      i++;
      const ws: string[] = [];
      while (i < a.length && /^[0-9]/.test(a[i]!)) ws.push(a[i++]!);
      if (ws.length === 0) return badArgs();
      weights = ws;
    } else if (w === 'hkey') {
      if (a[i + 1] === undefined) return badArgs();
      hkey = a[i + 1];
      i += 2;
    } else if (w === 'default') {
      useDefault = true;
      i++;
    } else if (w === 'hfunc') {
      if (a[i + 1] === undefined) return badArgs();
      hfuncName = a[i + 1];
      i += 2;
    } else if (w === 'context' || w === 'delete') {
      return notSimulated('RSS contexts (ethtool -X DEV context …)');
    } else {
      return badArgs();
    }
  }
  if (equal && weights) return fail('Equal and weight options are mutually exclusive', 1);
  if (equal && useDefault) return fail('Equal and default options are mutually exclusive', 1);
  if (weights && useDefault) return fail('Weight and default options are mutually exclusive', 1);
  if (start && useDefault) return fail('Start and default options are mutually exclusive', 1);
  if (start && !(equal || weights)) return fail('Start must be used with equal or weight options', 1);
  if (!c.dev) return fail('Cannot get RX ring count: No such device', 1);
  const rss = c.dev.rss();
  const rings = c.dev.channels().combined;
  const keySize = rss.key.length;
  const indirSize = rss.indir.length;
  let key: Uint8Array | undefined;
  if (hkey !== undefined) {
    const k = parseHkey(hkey, keySize);
    if (typeof k === 'string') return fail(k, 2);
    key = k;
  }
  // The hash function is only looked up when the device reports one (ETHTOOL_GRSSH hfunc != 0);
  // otherwise ethtool sends "no change" and says nothing.
  let hfunc: 'toeplitz' | 'crc32' | undefined;
  if (rss.keyConfigurable && hfuncName !== undefined) {
    if (!(HASH_FUNCS as readonly string[]).includes(hfuncName))
      return fail(`Unknown hash function: ${hfuncName}`, 1);
    // ena_set_rxfh: only toeplitz and crc32 are accepted.
    if (hfuncName === 'xor') return fail('Cannot set RX flow hash configuration: Operation not supported', 1);
    hfunc = hfuncName as 'toeplitz' | 'crc32';
  }
  let indir: number[] | undefined;
  if (equal) {
    indir = Array.from({ length: indirSize }, (_, i) => start + (i % equal));
  } else if (weights) {
    const ws: number[] = [];
    for (const w of weights) {
      const v = getUintRange(w, 0xffffffffn);
      if (v === undefined) return badArgs();
      ws.push(Number(v));
    }
    const sum = ws.reduce((x, y) => x + y, 0);
    if (sum === 0) return fail('At least one weight must be non-zero', 1);
    if (sum > indirSize) return fail('Total weight exceeds the size of the indirection table', 1);
    indir = [];
    let j = -1;
    let partial = 0;
    for (let i = 0; i < indirSize; i++) {
      while (i >= Math.floor((indirSize * partial) / sum)) {
        j++;
        partial += ws[j]!;
      }
      indir.push(start + j);
    }
  } else if (useDefault) {
    indir = defaultIndirectionTable(rings, indirSize);
  }
  // Kernel ethtool_set_rxfh/ethtool_copy_validate_indir: every entry must name an existing ring.
  if (indir?.some((q) => q >= rings))
    return fail('Cannot set RX flow hash configuration: Invalid argument', 1);
  const change: { key?: Uint8Array; indir?: number[]; hfunc?: 'toeplitz' | 'crc32' } = {};
  if (indir) change.indir = indir;
  if (key) change.key = key;
  if (hfunc) change.hfunc = hfunc;
  if (Object.keys(change).length === 0) return done('');
  const err = c.dev.setRss(change);
  if (err) return fail(`Cannot set RX flow hash configuration: ${STRERROR[err]}`, 1);
  return done('');
}

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

function doShowNfc(c: Ctx): CommandOutcome {
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

function doConfigNfc(c: Ctx): CommandOutcome {
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
