/**
 * The lab shell: one command line on one instance → a CommandOutcome. The same interpreter serves
 * the CLI, the UI terminal, scenario scripts and tests. Tokenises like a POSIX shell for simple
 * commands; anything that is not a modelled tool gets bash's "command not found".
 */
import type { Instance, Lab } from '../lab';
import { runEthtool } from './commands/ethtool';
import { runIp } from './commands/ip';
import { runIperf3 } from './commands/iperf3';
import { runSleep } from './commands/sleep';
import { runTc } from './commands/tc';
import { type CommandOutcome, done, fail, tokenize } from './types';

const SHELL_FEATURES = /[|;&<>`$()]/;

export function execLine(lab: Lab, host: Instance, line: string): CommandOutcome {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return done('');
  const toks = tokenize(trimmed);
  if (!Array.isArray(toks)) return fail(`bash: ${toks.error}`, 2);
  const unquoted = trimmed.replace(/'[^']*'|"[^"]*"/g, '');
  if (SHELL_FEATURES.test(unquoted)) {
    return fail(
      'bash: pipes, redirections, command lists and substitutions are not simulated in ec2-netlab',
      2,
    );
  }
  let [cmd, ...args] = toks as [string, ...string[]];
  if (cmd === 'sudo') {
    if (args.length === 0)
      return fail('usage: sudo -h | -K | -k | -V\nusage: sudo [-AbEHknPS] [-u user] command');
    [cmd, ...args] = args as [string, ...string[]];
  }
  const dev = (name: string) => (name === 'eth0' ? host.host.eth0 : undefined);
  switch (cmd) {
    case 'iperf3':
      return runIperf3(args, lab, host);
    case 'ethtool':
      return runEthtool(args, dev);
    case 'ip':
      return runIp(args, dev, { deviceNames: ['eth0'] });
    case 'tc':
      return runTc(args, new Map([['eth0', host.host.qdisc]]));
    case 'sleep':
      return runSleep(args, lab);
    case 'true':
      return done('');
    case 'false':
      return done('', 1);
    case 'echo':
      return done(`${args.join(' ')}\n`);
    case 'hostname':
      return done(`${host.name}\n`);
    default:
      return fail(`bash: ${cmd}: command not found`, 127);
  }
}
