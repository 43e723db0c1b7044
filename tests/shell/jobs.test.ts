/**
 * bash's kill and jobs on the lab's background jobs: bash 5.2's messages and job lines, and what
 * each signal does to the tool (iperf3 catches INT/TERM/HUP and prints its summary; SIGKILL ends it
 * where it is; testpmd prints its summary and dies by the signal).
 */
import { describe, expect, it } from 'vitest';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { signalList } from '../../src/engine/shell/commands/jobs';
import { defaultScenario } from '../../src/scenario/schema';

const stdout = (r: RunRecord) => r.output.slice(0, r.output.length - r.stderr.length);
const session = () => new LabSession(createLab(defaultScenario()));

describe('jobs and kill', () => {
  it('jobs, jobs -l, jobs -p list the background jobs with bash’s + and - markers', () => {
    const s = session();
    s.run('sleep 100 &');
    s.run('sleep 200 &');
    s.run('sleep 300 &');
    expect(stdout(s.run('jobs')[0]!)).toBe(
      '[1]   Running                 sleep 100 &\n[2]-  Running                 sleep 200 &\n[3]+  Running                 sleep 300 &\n',
    );
    expect(stdout(s.run('jobs -l %2')[0]!)).toBe('[2]- 1002 Running                 sleep 200 &\n');
    expect(stdout(s.run('jobs -p')[0]!)).toBe('1001\n1002\n1003\n');
    const bad = s.run('jobs %9')[0]!;
    expect([bad.stderr, bad.exitCode]).toEqual(['bash: jobs: %9: no such job\n', 1]);
    expect(s.run('jobs -z')[0]!.stderr).toBe(
      'bash: jobs: -z: invalid option\njobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n',
    );
  });

  it('kill -INT: iperf3 catches it, prints its summary and exits 1 ("Exit 1"), as the real one', () => {
    const s = session();
    s.run('iperf3 -c server -t 30 &');
    s.run('sleep 2.5');
    const [k, ...rest] = s.run('kill -INT %1');
    expect([k!.output, k!.exitCode]).toEqual(['', 0]);
    expect(rest).toHaveLength(0); // it winds down in simulated time (the results exchange)
    const job = s.run('sleep 0.1').find((r) => r.command === 'iperf3 -c server -t 30 &')!;
    expect(stdout(job)).toMatch(/\[ {2}5\] {3}0\.00-2\.50 {3}sec .* sender\n/);
    expect(job.stderr).toBe(
      'iperf3: interrupt - the client has terminated\n[1]+  Exit 1                  iperf3 -c server -t 30\n',
    );
  });

  it('kill -9 (and SIGTERM for a tool that does not catch it): the job ends at once with what it had printed, "Killed"/"Terminated"', () => {
    const s = session();
    s.run('iperf3 -c server -t 30 &');
    s.run('sleep 100 &');
    s.run('sleep 2.5');
    const recs = s.run('kill -9 1001');
    expect(recs).toHaveLength(2);
    const job = recs[1]!;
    expect(stdout(job)).toMatch(/ {3}1\.00-2\.00 {3}sec .*\n$/);
    expect(stdout(job)).not.toContain('- - - -');
    expect(job.stderr).toBe('[1]-  Killed                  iperf3 -c server -t 30\n');
    expect(job.exitCode).toBe(137);
    const t = s.run('kill %sleep');
    expect(t[1]!.stderr).toBe('[2]+  Terminated              sleep 100\n');
    expect(s.run('jobs')[0]!.output).toBe('');
  });

  it('testpmd prints its summary with the signal’s number and dies by it', () => {
    const s = session();
    s.run('dpdk-testpmd -l 0-1 -- --forward-mode=rxonly &');
    s.run('sleep 0.2');
    // its handler ends it at once: the notice comes with kill
    const job = s.run('kill -s TERM %%').find((r) => r.command.startsWith('dpdk-testpmd'))!;
    expect(job.stderr).toContain('\nSignal 15 received, preparing to exit...\n');
    expect(stdout(job)).toContain('\nBye...\n');
    expect(
      job.stderr.endsWith('[1]+  Terminated              dpdk-testpmd -l 0-1 -- --forward-mode=rxonly\n'),
    ).toBe(true);
  });

  it('bash’s errors, kill -l, kill -0, and what is not simulated', () => {
    const s = session();
    const err = (line: string) => {
      const r = s.run(line)[0]!;
      return [r.stderr, r.exitCode];
    };
    expect(err('kill 99999')).toEqual(['bash: kill: (99999) - No such process\n', 1]);
    expect(err('kill 1')).toEqual(['bash: kill: (1) - Operation not permitted\n', 1]);
    expect(err('kill %3')).toEqual(['bash: kill: %3: no such job\n', 1]);
    expect(err('kill abc')).toEqual(['bash: kill: abc: arguments must be process or job IDs\n', 1]);
    expect(err('kill -FOO 1')).toEqual(['bash: kill: FOO: invalid signal specification\n', 1]);
    expect(err('kill -s')).toEqual(['bash: kill: -s: option requires an argument\n', 1]);
    expect(err('kill')).toEqual([
      'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n',
      2,
    ]);
    expect(stdout(s.run('kill -l 9 137 TERM sigint')[0]!)).toBe('KILL\nKILL\n15\n2\n');
    const l = signalList();
    expect(l.startsWith(' 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n')).toBe(true);
    expect(l).toContain('31) SIGSYS\t34) SIGRTMIN\t35) SIGRTMIN+1\t');
    expect(l.endsWith('63) SIGRTMAX-1\t64) SIGRTMAX\t\n')).toBe(true);
    s.run('sleep 50 &');
    expect(err('kill -0 %1')).toEqual(['', 0]);
    expect(err('kill -STOP %1')[0]).toMatch(/SIGSTOP: stopping a job is not simulated in ec2-netlab/);
    // bg (bash 5.2 fg_bg.def, jobs.c start_job): no job is ever stopped here, so each is already
    // running in the background: said on stderr, a success (XPG6); a job that is none fails
    expect(err('bg')).toEqual(['bash: bg: job 1 already in background\n', 0]);
    expect(err('bg %1 %2')).toEqual([
      'bash: bg: job 1 already in background\nbash: bg: %2: no such job\n',
      1,
    ]);
    expect(stdout(s.run('jobs')[0]!)).toBe('[1]+  Running                 sleep 50 &\n');
    expect(err('sudo kill %1')[0]).toMatch(/kill runs as a command of its own/);
    expect(stdout(s.run('type kill jobs')[0]!)).toBe('kill is a shell builtin\njobs is a shell builtin\n');
    expect(stdout(s.run('help kill')[0]!)).toMatch(
      /^kill: kill \[-s sigspec \| -n signum \| -sigspec\] pid \| jobspec \.\.\. or kill -l \[sigspec\]\n {4}Send a signal to a job\.\n/,
    );
  });

  it('wait: without ids until every job ends (status 0), wait %N / PID the job’s status, 127 for no such job; Ctrl-C ends it', () => {
    const s = session();
    s.run('sleep 1 &');
    s.run('iperf3 -c server -t 2 > /dev/null &');
    const recs = s.run('wait');
    expect(recs[0]!.command).toBe('wait');
    expect(recs[0]!.exitCode).toBe(0);
    expect(recs[0]!.endNs).toBeGreaterThanOrEqual(2e9);
    expect(recs.slice(1).map((r) => r.stderr)).toEqual([
      '[1]-  Done                    sleep 1\n',
      '[2]+  Done                    iperf3 -c server -t 2 > /dev/null\n',
    ]);
    s.run('sleep 0.5 &');
    s.run('sleep 0.2 && false &');
    const w = s.run('wait %3 1003');
    expect([w[0]!.exitCode, w[0]!.endNs - w[0]!.startNs]).toEqual([0, 0.5e9]);
    expect(s.run('wait %3')[0]!.exitCode).toBe(127); // reported already: no longer a job
    s.run('sleep 5 &');
    s.run('sleep 0.5 && false &');
    const st = s.run('wait %6')[0]!;
    expect(st.exitCode).toBe(1);
    const bad = s.run('wait %9 1234')[0]!;
    expect([bad.stderr, bad.exitCode]).toEqual([
      'bash: wait: %9: no such job\nbash: wait: pid 1234 is not a child of this shell\n',
      127,
    ]);
  });

  it('fg: the job comes to the foreground (its command line first), Ctrl-C interrupts it; bash’s errors', () => {
    const s = session();
    expect(s.run('fg')[0]!.stderr).toBe('bash: fg: current: no such job\n');
    s.run('iperf3 -c server -t 30 &');
    s.run('sleep 1.5');
    const lab = s.lab;
    const st = s.start('fg %1');
    expect(st.foreground).toBe(true);
    expect(s.foreground!.job.progress!()).toMatch(
      /^iperf3 -c server -t 30\nConnecting to host server, port 5201\n/,
    );
    s.interrupt();
    const recs = [];
    while (s.foreground) recs.push(...s.step(Number.POSITIVE_INFINITY, 200_000));
    const fg = recs.find((r) => r.command === 'fg %1')!;
    expect(stdout(fg)).toMatch(/^iperf3 -c server -t 30\n[\s\S]* sender\n/);
    expect(fg.stderr).toBe('iperf3: interrupt - the client has terminated\n');
    expect(fg.exitCode).toBe(1);
    expect(lab.nowNs).toBeLessThan(2e9);
    expect(s.run('jobs')[0]!.output).toBe('');
    expect(s.run('fg %3')[0]!.stderr).toBe('bash: fg: %3: no such job\n');
  });

  it('a background command that ends at once still gets its job: [n] pid first, its output, then its notice; the line’s status is 0', () => {
    const s = session();
    const [rec, notice] = s.run('false &');
    expect(rec!.stderrLead).toBe('[1] 1001\n');
    expect(rec!.exitCode).toBe(0);
    expect(notice!.stderr).toBe('[1]+  Exit 1                  false\n');
    const [echo, done] = s.run('echo hi &');
    expect([stdout(echo!), echo!.stderr]).toEqual(['hi\n', '[2] 1002\n']);
    expect(done!.stderr).toBe('[2]+  Done                    echo hi\n');
  });
});
