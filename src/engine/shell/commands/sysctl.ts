/**
 * `sysctl` (procps-ng 3.3.17) for the one kernel parameter the lab models, net.ipv4.ip_forward
 * (and its /proc path form net/ipv4/ip_forward): `sysctl KEY`, `sysctl -n KEY`, `sysctl -w
 * KEY=VALUE`, `sysctl KEY=VALUE` (procps accepts the assignment without -w), `-q`. Output and errors
 * as procps prints them (`net.ipv4.ip_forward = 1`; an unknown key: "sysctl: cannot stat
 * /proc/sys/…: No such file or directory", exit 255). Any other existing key is refused as not
 * simulated. Source: procps-ng sysctl.c (ReadSetting, WriteSetting).
 */
import type { Host } from '../../host/host';
import { type CommandOutcome, done, fail } from '../types';

const KEY = 'net.ipv4.ip_forward';

/** Keys a real host has that the lab does not model (refused by name rather than "cannot stat"). */
const KNOWN_PREFIXES = ['net.', 'kernel.', 'vm.', 'fs.', 'dev.', 'user.', 'abi.', 'debug.', 'sunrpc.'];

export function runSysctl(args: string[], host: Host): CommandOutcome {
  let write = false;
  let valuesOnly = false;
  let quiet = false;
  const keys: string[] = [];
  for (const a of args) {
    if (a === '-w' || a === '--write') write = true;
    else if (a === '-n' || a === '--values') valuesOnly = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-') && a.length > 1)
      return fail(`sysctl: option ${a} is not simulated in ec2-netlab (modelled: -w, -n, -q)`, 1);
    else keys.push(a);
  }
  if (keys.length === 0) return fail('sysctl: listing every key (-a) is not simulated in ec2-netlab', 1);
  let out = '';
  let err = '';
  let code = 0;
  for (const k of keys) {
    const eq = k.indexOf('=');
    const name = (eq >= 0 ? k.slice(0, eq) : k).replace(/\//g, '.');
    const value = eq >= 0 ? k.slice(eq + 1) : undefined;
    if (write && value === undefined) {
      err += `sysctl: "${k}" must be of the form name=value\n`;
      code = 255;
      continue;
    }
    if (name !== KEY) {
      if (KNOWN_PREFIXES.some((p) => name.startsWith(p)) && name.split('.').length > 2) {
        err += `sysctl: ${name} is not simulated in ec2-netlab (modelled: ${KEY})\n`;
        code = 255;
      } else {
        err += `sysctl: cannot stat /proc/sys/${name.replace(/\./g, '/')}: No such file or directory\n`;
        code = 255;
      }
      continue;
    }
    if (value !== undefined) {
      const v = value.trim();
      if (v !== '0' && v !== '1') {
        err += `sysctl: setting key "${KEY}": Invalid argument\n`;
        code = 255;
        continue;
      }
      host.ipForward = v === '1';
      if (!quiet) out += `${KEY} = ${v}\n`;
      continue;
    }
    const cur = host.ipForward ? '1' : '0';
    out += valuesOnly ? `${cur}\n` : `${KEY} = ${cur}\n`;
  }
  return done(out, code, undefined, err);
}
