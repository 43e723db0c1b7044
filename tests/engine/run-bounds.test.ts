/**
 * Every run ends: ping without -c stops at the cap on unbounded commands, a job that does not
 * wind down after its interrupt is ended, a model stuck at one instant stops with a message,
 * output is kept up to a limit per command, and the tools' own limits (ab -n, sar's count,
 * iperf3 -t) refuse runs the lab would not finish.
 */
import { describe, expect, it, vi } from 'vitest';
import { InteractiveSession } from '../../src/engine/session/interactive-session';
import {
  capText,
  createLab,
  LabSession,
  MAX_OUTPUT_CHARS,
  NO_PROGRESS_EVENTS,
  NoProgressError,
} from '../../src/engine/session/runner';
import { defaultScenario, parseScenario } from '../../src/scenario/schema';

vi.mock('../../src/engine/shell/shell', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/engine/shell/shell')>();
  return {
    ...real,
    // `stuck`: a job that ignores its interrupt (what a model frozen in its wind-down looks like)
    execPipeline: (...args: Parameters<typeof real.execPipeline>) => {
      if (args[2].text !== 'stuck') return real.execPipeline(...args);
      let interrupts = 0;
      return {
        kind: 'job' as const,
        job: {
          done: () => false,
          deadlineNs: () => Number.POSITIVE_INFINITY,
          interrupt: () => {
            interrupts++;
          },
          finish: () => ({ stdout: `interrupted ${interrupts} time(s)\n`, stderr: '', exitCode: 0 }),
        },
      };
    },
  };
});

describe('run bounds', () => {
  it('ping without -c sends for 60 s (the cap on unbounded commands), then prints its statistics', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    const r = s.run('ping -q server')[0]!;
    expect((r.endNs - r.startNs) / 1e9).toBeGreaterThanOrEqual(59);
    expect((r.endNs - r.startNs) / 1e9).toBeLessThan(60);
    // every reply is in: no request is caught in flight by the cap (it would read as loss)
    expect(r.output).toMatch(/\n60 packets transmitted, 60 received, 0% packet loss, time 59000ms\n/);
    expect(r.stderr).toBe(
      'lab: ping without -c stops after 60 s of simulated time (60 requests), as Ctrl-C would; give -c to choose\n',
    );
    expect(s.run('ping -q -i 0.3 server')[0]!.output).toMatch(/\n200 packets transmitted, 200 received/);
  });

  it('ping without -c in the lab terminal stops at the cap too', () => {
    const s = new InteractiveSession(createLab(defaultScenario()));
    s.submit('ping -q server');
    while (s.foreground && s.nowNs < 120e9) s.advance(s.nowNs + 1e9, 1_000_000);
    expect(s.foreground).toBeNull();
    expect(s.nowNs).toBeLessThan(62e9);
    expect(s.transcript.map((c) => c.text).join('')).toMatch(/packets transmitted/);
  });

  it('a job that does not wind down within 10 s of its interrupt is ended, saying so', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    s.run('ping -c 100 -q server &'); // keeps the lab busy: what stops the job is the cap
    const r = s.run('stuck')[0]!;
    // the 60 s cap interrupts it; 10 s later the runner ends it
    expect(r.endNs - r.startNs).toBe(70e9 + 1);
    expect(r.output).toMatch(/^interrupted 1 time\(s\)\n/);
    expect(r.stderr).toMatch(/had not wound down 10 s of simulated time after the interrupt; ended/);
    expect(r.exitCode).toBe(130);
  });

  it('Ctrl-C in the terminal on a job that ignores it: the prompt is back 10 s later', () => {
    const s = new InteractiveSession(createLab(defaultScenario()));
    s.submit('stuck');
    s.advance(2e9);
    s.interrupt();
    while (s.foreground && s.nowNs < 30e9) s.advance(s.nowNs + 1e9);
    expect(s.foreground).toBeNull();
    expect(s.nowNs).toBeLessThanOrEqual(12e9 + 1e6);
  });

  it('a model that keeps processing events at one instant stops with a message', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    s.run('sleep 0.5');
    // an event that schedules itself again at the same instant, forever
    const again = () => lab.sched.after(0, again);
    lab.sched.after(0, again);
    let err: unknown;
    try {
      s.run('sleep 1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NoProgressError);
    expect((err as NoProgressError).atNs).toBe(0.5e9);
    expect((err as Error).message).toMatch(
      /^the model made no progress: 1,000,000 events at t = 0\.500000 s without simulated time moving/,
    );
    expect(lab.sched.processed).toBeLessThan(3 * NO_PROGRESS_EVENTS);
  });

  it('keeps at most MAX_OUTPUT_CHARS of a command’s output, with a note of what was dropped', () => {
    expect(capText('abc')).toBeNull();
    const lab = createLab(defaultScenario());
    const r = new LabSession(lab).run('sar -n DEV 1 3600')[0]!;
    const stdout = r.output.slice(0, r.output.length - r.stderr.length);
    expect(stdout.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS + 1);
    expect(stdout.startsWith('Linux 6.1')).toBe(true);
    expect(r.stderr).toMatch(
      /^lab: output of "sar -n DEV 1 3600" cut at 1,048,576 characters \([\d,]+ more not kept\)\n$/,
    );
  });

  it('the tools’ limits: ab -n, sar interval × count, iperf3 -t', () => {
    const s = new LabSession(createLab(defaultScenario()));
    const ab = s.run('ab -n 1000000000 -c 1000 http://server/')[0]!;
    expect(ab.exitCode).toBe(1);
    expect(ab.stderr).toBe('ab: ec2-netlab simulates at most 50,000 requests per run (-n 1000000000)\n');
    const sar = s.run('sar -n DEV 1 1000000')[0]!;
    expect(sar.exitCode).toBe(1);
    expect(sar.stderr).toBe(
      'sar: ec2-netlab samples for at most 3600 s (interval × count); 1 × 1000000 is 1000000 s\n',
    );
    const ip = s.run('iperf3 -c server -t 86400 -P 128')[0]!;
    expect(ip.exitCode).toBe(1);
    expect(ip.stderr).toMatch(/option --time is not simulated in ec2-netlab beyond 3600 seconds/);
    expect(s.lab.nowNs).toBe(0);
  });

  it('model parameters outside their range are refused, naming the range', () => {
    const r = parseScenario({ version: 4, params: { napiBudget: 0.5, enaQueuePacketNs: 1e308 } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      'params.napiBudget: 0.5 is out of range: must be an integer from 1 to 65,536 (packets)',
      'params.enaQueuePacketNs: 1e+308 is out of range: must be a number from 1 to 1,000,000 (ns/packet)',
    ]);
    expect(parseScenario({ version: 4, params: { napiBudget: 1 } }).ok).toBe(true);
  });
});
