/** `ethtool -i` (driver information) and `ethtool -S` (statistics), ioctl commands. Sources: ethtool ethtool.c. */
import { type CommandOutcome, done, fail } from '../../types';
import { badArgs, type Ctx, notSimulated } from './common';

// -i ----------------------------------------------------------------------------------------

export function doDriverInfo(c: Ctx): CommandOutcome {
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

export function doStatistics(c: Ctx): CommandOutcome {
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
