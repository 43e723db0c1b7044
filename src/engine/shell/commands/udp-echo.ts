/**
 * `udp-echo [-p PORT] [-t THREADS]`: the lab's UDP echo server (src/engine/apps/udp-echo.ts),
 * modelled on STRESSGRID's C server: one thread per vCPU by default, each with its own SO_REUSEPORT
 * socket on PORT (default 5000), echoing every datagram to its sender. Runs until Ctrl-C, then
 * prints what it received and echoed. A program of the lab's own: its messages are the lab's.
 */
import { UdpEchoServer } from '../../apps/udp-echo';
import type { Instance, Lab } from '../../lab/lab';
import { type CommandOutcome, done, fail, type Job } from '../types';

export const UDP_ECHO_DEFAULT_PORT = 5000;

const USAGE =
  'Usage: udp-echo [-p PORT] [-t THREADS]\n' +
  '  -p PORT     UDP port to echo on (default 5000)\n' +
  '  -t THREADS  threads, each with its own SO_REUSEPORT socket (default: one per vCPU)\n';

export function runUdpEcho(argv: string[], lab: Lab, inst: Instance): CommandOutcome {
  let port = UDP_ECHO_DEFAULT_PORT;
  let threads = inst.host.vcpus.length;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h' || a === '--help') return done(USAGE);
    if (a === '-p' || a === '-t') {
      const v = argv[++i];
      if (v === undefined) return fail(`udp-echo: option ${a} needs a value\n${USAGE}`, 2);
      if (!/^\d+$/.test(v)) return fail(`udp-echo: ${a} ${v}: not a number`, 2);
      const n = Number(v);
      if (a === '-p') {
        if (n < 1 || n > 65535) return fail(`udp-echo: -p ${v}: the port must be 1-65535`, 2);
        port = n;
      } else {
        if (n < 1 || n > 1024) return fail(`udp-echo: -t ${v}: threads must be 1-1024`, 2);
        threads = n;
      }
    } else return fail(`udp-echo: unknown option ${a}\n${USAGE}`, 2);
  }
  if (inst.host.isListening('udp', port))
    return fail(`udp-echo: bind to UDP port ${port}: Address already in use`, 1);
  const app = new UdpEchoServer(lab, inst, port, threads);
  app.start();
  const vcpus = inst.host.vcpus.length;
  let stdout = `udp-echo: ${threads} thread${threads === 1 ? '' : 's'} on ${vcpus} vCPU${vcpus === 1 ? '' : 's'}, each with its own SO_REUSEPORT socket on UDP port ${port}\n`;
  let finished = false;
  const job: Job = {
    done: () => finished,
    deadlineNs: () => (finished ? lab.nowNs : Number.POSITIVE_INFINITY),
    interrupt: () => {
      if (finished) return;
      app.stop();
      const r = app.result();
      stdout += `udp-echo: received ${r.received.toLocaleString('en-US')} datagrams, echoed ${r.echoed.toLocaleString('en-US')}\n`;
      finished = true;
    },
    finish: () => ({ stdout, stderr: '', exitCode: 130, result: app.result() }),
    progress: () => stdout,
  };
  return { kind: 'job', job };
}
