/**
 * `ethtool` for the simulated ENA device: parses the command line as ethtool 6.7 does and prints
 * what it prints on a Linux 6.8 kernel with the ENA driver (Ubuntu 24.04 on EC2), with its errors
 * and exit codes. The kernel's own checks are made here; the driver's rules belong to the device
 * behind `EnaDeviceView`. Options the lab does not model are refused ("… is not simulated").
 *
 * One file per command family, as ethtool's own netlink/*.c (common.ts, netlink.ts, driver.ts,
 * rings.ts, channels.ts, coalesce.ts, rss.ts, rxclass.ts).
 *
 * Sources: ethtool netlink/{rings,channels,coalesce,rss,parser,nlsock}.c, ethtool.c, rxclass.c,
 * common.c; kernel net/ethtool/{rings,channels,coalesce}.c; ENA ena_ethtool.c. Which options use
 * netlink or ioctl and how their errors read: docs/design.md, "ethtool's errors".
 */
import type { DeviceOp } from '../../../host/device-view';
import { type CommandOutcome, done, fail } from '../../types';
import { ETHTOOL_HELP, labNote } from '../real-help';
import { doSetChannels, doShowChannels } from './channels';
import { doSetCoalesce, doShowCoalesce } from './coalesce';
import { BAD_ARGS, badArgs, type DeviceLookup, ETHTOOL_VERSION, type Handler, notSimulated } from './common';
import { doDriverInfo, doStatistics } from './driver';
import { unsupported } from './netlink';
import { doSetRing, doShowRing } from './rings';
import { doSetRxfh, doShowRxfh } from './rss';
import { doConfigNfc, doShowNfc } from './rxclass';

export type { DeviceLookup } from './common';
export { ETHTOOL_VERSION } from './common';

// ---------------------------------------------------------------------------------------------
// Options.

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
