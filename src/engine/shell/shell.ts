/**
 * The lab shell: one command line on one instance → a CommandOutcome. The same interpreter serves
 * the CLI, the UI terminal, scenario scripts and tests. Tokenises like a POSIX shell for simple
 * commands; anything that is not a modelled tool gets bash's "command not found".
 */
import type { Instance, Lab } from '../lab';
import { runAb } from './commands/ab';
import { runAws } from './commands/aws';
import { runCurl } from './commands/curl';
import { runDig } from './commands/dig';
import { runDnsperf } from './commands/dnsperf';
import { runDpdkTestpmd } from './commands/dpdk-testpmd';
import { runEc2Metadata } from './commands/ec2-metadata';
import { runEthtool } from './commands/ethtool';
import { runIp } from './commands/ip';
import { tunnelStack } from './commands/ip-tunnel';
import { runLab } from './commands/lab';
import { runPing } from './commands/ping';
import { runIperf3 } from './commands/iperf3';
import { runSar } from './commands/sar';
import { parseDurationSeconds, runSleep } from './commands/sleep';
import { runTc } from './commands/tc';
import { type CommandOutcome, done, fail, type Job, tokenize } from './types';

const SHELL_FEATURES = /[|;&<>`$()]/; // a trailing `&` is taken off by the session before this runs

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
    case 'aws':
      return runAws(args, lab);
    case 'ab':
      return runAb(args, lab, host);
    case 'curl':
      return runCurl(args, lab, host);
    case 'dig':
      return runDig(args, lab, host);
    case 'dnsperf':
      return runDnsperf(args, lab, host);
    case 'iperf3':
      return runIperf3(args, lab, host);
    case 'dpdk-testpmd':
      return runDpdkTestpmd(args, lab, host);
    case 'ec2-metadata':
      return runEc2Metadata(args, lab, host);
    case 'ethtool':
      return runEthtool(args, dev);
    case 'ip':
      return runIp(args, dev, {
        deviceNames: ['eth0'],
        tunnels: { peek: () => host.host.tunnels, get: () => tunnelStack(lab, host), eth0Ip: host.host.ip },
      });
    case 'tc':
      return runTc(args, new Map([['eth0', host.host.qdisc]]));
    case 'ping':
      return runPing(args, lab, host);
    case 'lab':
      return runLab(args, lab, host);
    case 'sleep':
      return runSleep(args, lab);
    case 'sar':
      return runSar(args, lab, host);
    case 'timeout':
      return runTimeout(args, lab, host);
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

/**
 * coreutils `timeout DURATION COMMAND [ARG]...`: run COMMAND and interrupt it (SIGTERM) after
 * DURATION; exit status 124 when it timed out. Options (-s, -k, --preserve-status) are not simulated.
 */
function runTimeout(args: string[], lab: Lab, host: Instance): CommandOutcome {
  if (args.length > 0 && args[0]!.startsWith('-') && args[0] !== '--') {
    return fail(`timeout: option ${args[0]} is not simulated in ec2-netlab`);
  }
  const a = args[0] === '--' ? args.slice(1) : args;
  if (a.length === 0)
    return fail("timeout: missing operand\nTry 'timeout --help' for more information.", 125);
  const secs = parseDurationSeconds(a[0]!);
  if (secs === null)
    return fail(`timeout: invalid time interval ‘${a[0]}’\nTry 'timeout --help' for more information.`, 125);
  if (a.length === 1)
    return fail(`timeout: missing operand after ‘${a[0]}’\nTry 'timeout --help' for more information.`, 125);
  const inner = execLine(lab, host, a.slice(1).map(quoteArg).join(' '));
  if (inner.kind === 'done' || secs === 0) return inner;
  const until = lab.nowNs + Math.round(secs * 1e9);
  let timedOut = false;
  const j = inner.job;
  const job: Job = {
    done: () => {
      if (!timedOut && !j.done() && lab.nowNs >= until) {
        timedOut = true;
        j.interrupt();
      }
      return j.done();
    },
    deadlineNs: () => Math.min(j.deadlineNs(), until),
    interrupt: () => j.interrupt(),
    progress: () => j.progress?.() ?? '',
    finish: () => {
      const out = j.finish();
      return timedOut ? { ...out, exitCode: 124 } : out;
    },
  };
  return { kind: 'job', job };
}

function quoteArg(s: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
