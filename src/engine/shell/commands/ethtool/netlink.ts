/**
 * ethtool's netlink requests as far as the lab needs them: the parameter parser of the set commands
 * (netlink/parser.c) and the kernel's error reports with the request offsets of its extack
 * ("(offset N)"), and what ethtool prints when the driver lacks an operation.
 * Sources: ethtool netlink/{parser,nlsock}.c; kernel net/ethtool/netlink.c.
 */
import type { Errno } from '../../../host/device-view';
import { type CommandOutcome, fail } from '../../types';
import { nlParseU32, notSimulated, Out, STRERROR } from './common';

// ---------------------------------------------------------------------------------------------
// Netlink request layout, for the "(offset N)" of extack messages.

const NL_HDR_BYTES = 16 + 4; // nlmsghdr + genlmsghdr
const align4 = (n: number) => (n + 3) & ~3;
/** Offset of the first attribute after the request header nest (dev name attribute inside). */
function firstParamOffset(devname: string): number {
  return NL_HDR_BYTES + 4 + align4(4 + devname.length + 1);
}
const DEVNAME_OFFSET = NL_HDR_BYTES + 4;

export function nlNoDevice(o: Out, exitCode: number): CommandOutcome {
  return o
    .err(`netlink error: no device matches name (offset ${DEVNAME_OFFSET})\nnetlink error: No such device\n`)
    .finish(exitCode);
}

export function nlError(
  o: Out,
  errno: Errno,
  msg: string | undefined,
  offset: number | undefined,
  exitCode: number,
) {
  if (msg) o.err(`netlink error: ${msg}${offset !== undefined ? ` (offset ${offset})` : ''}\n`);
  return o.err(`netlink error: ${STRERROR[errno]}\n`).finish(exitCode);
}

export interface NlParam {
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
export function nlParse(
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

export const isOutcome = (x: unknown): x is CommandOutcome =>
  typeof x === 'object' && x !== null && 'kind' in x && (x as { kind: unknown }).kind === 'done';

/**
 * What ethtool prints when the driver lacks the operation (xen-netfront has only drvinfo, link and
 * statistics; ixgbevf has no channels or ntuple): the netlink reply's errno for the netlink
 * commands, the ioctl's perror() for -X (ETHTOOL_GRXRINGS) and -n/-N (ETHTOOL_GRXRINGS).
 */
export function unsupported(option: string): CommandOutcome {
  if (option === '-X') return fail('Cannot get RX ring count: Operation not supported', 1);
  if (option === '-n' || option === '-N') return fail('Cannot get RX rings: Operation not supported', 1);
  return nlError(new Out(), 'EOPNOTSUPP', undefined, undefined, 1);
}
