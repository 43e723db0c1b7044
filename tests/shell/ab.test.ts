/** ab (ApacheBench 2.3): the report layout of httpd 2.4's output_results, its arithmetic, its errors. */
import { describe, expect, it } from 'vitest';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { connectionTimes } from '../../src/engine/shell/commands/ab';
import { defaultScenario } from '../../src/scenario/schema';

function one(line: string): RunRecord {
  const s = new LabSession(createLab(defaultScenario()));
  const r = s.run(line)[0]!;
  s.close();
  return r;
}

describe('ab report', () => {
  it('prints the banner, the summary and the tables in ab’s layout', () => {
    const r = one('ab -n 100 -c 10 http://server/');
    expect(r.exitCode).toBe(0);
    const out = r.output;
    expect(out.startsWith('This is ApacheBench, Version 2.3 <$Revision: 1903618 $>\n')).toBe(true);
    expect(out).toContain(
      'Benchmarking server (be patient).....done\n\n\nServer Software:        nginx/1.24.0\n',
    );
    expect(out).toContain('Server Hostname:        server\nServer Port:            80\n\n');
    expect(out).toContain('Document Path:          /\nDocument Length:        615 bytes\n\n');
    expect(out).toContain('Concurrency Level:      10\n');
    expect(out).toMatch(/Time taken for tests: {3}\d+\.\d{3} seconds\n/);
    expect(out).toContain('Complete requests:      100\nFailed requests:        0\n');
    const m = /Total transferred: {6}(\d+) bytes\nHTML transferred: {7}61500 bytes\n/.exec(out);
    expect(m).not.toBeNull();
    expect(Number(m![1]) % 100).toBe(0);
    expect(out).toMatch(/Requests per second: {4}\d+\.\d\d \[#\/sec\] \(mean\)\n/);
    expect(out).toMatch(/Time per request: {7}\d+\.\d{3} \[ms\] \(mean\)\n/);
    expect(out).toMatch(/Time per request: {7}\d+\.\d{3} \[ms\] \(mean, across all concurrent requests\)\n/);
    expect(out).toMatch(/Transfer rate: {10}\d+\.\d\d \[Kbytes\/sec\] received\n/);
    expect(out).toContain(
      '\nConnection Times (ms)\n              min  mean[+/-sd] median   max\nConnect:    ',
    );
    expect(out).toContain('\nPercentage of the requests served within a certain time (ms)\n  50%  ');
    expect(out).toMatch(/ 100% +\d+ \(longest request\)\n$/);
    // requests per second = complete / time taken
    const rps = Number(/Requests per second: +([\d.]+)/.exec(out)![1]);
    const taken = (r.result as { timeTakenS: number }).timeTakenS;
    expect(rps).toBeCloseTo(100 / taken, 0);
  });

  it('more than 150 requests: progress lines on stderr every 10% (at least every 100)', () => {
    const r = one('ab -n 1000 -c 20 -k http://server/');
    expect(r.stderr).toBe(
      `${Array.from({ length: 10 }, (_, i) => `Completed ${(i + 1) * 100} requests\n`).join('')}Finished 1000 requests\n`,
    );
    expect(r.output).toContain('Keep-Alive requests:    980\n');
  });

  it('connection-time arithmetic follows ab.c (ap_round_ms, sample sd, ab’s median)', () => {
    const st = [1000, 2000, 3000, 4000].map((t) => ({ ctime: 100, time: t, waittime: t - 500 }));
    const out = connectionTimes(st);
    expect(out).toContain('Total:          1    3   1.3      3       4\n');
    expect(out).toContain('  50%      3\n');
    expect(out).toContain(' 100%      4 (longest request)\n');
  });
});

describe('ab errors', () => {
  it('unknown host, refused port, bad URL, bad options', () => {
    const a = one('ab -n 1 http://nosuchhost/');
    expect(a.stderr).toBe('apr_sockaddr_info_get() for nosuchhost: Name or service not known (670002)\n');
    expect(a.exitCode).toBe(670002 & 255);
    const b = one('ab -n 1 http://server:8080/');
    expect(b.stderr).toBe('apr_socket_recv: Connection refused (111)\n');
    expect(b.exitCode).toBe(111);
    const c = one('ab http://server');
    expect(
      c.stderr.startsWith('ab: invalid URL\nUsage: ab [options] [http[s]://]hostname[:port]/path\n'),
    ).toBe(true);
    expect(c.exitCode).toBe(22);
    const d = one('ab -n 10 -c 20 http://server/');
    expect(
      d.stderr.startsWith('ab: Cannot use concurrency level greater than total number of requests\n'),
    ).toBe(true);
    const e = one('ab -j http://server/');
    expect(e.stderr.startsWith('ab: illegal option -- j\n')).toBe(true);
    expect(e.exitCode).toBe(22);
    const f = one('ab');
    expect(f.stderr.startsWith('ab: wrong number of arguments\n')).toBe(true);
    const g = one('ab -H X:1 http://server/');
    expect(g.stderr).toContain('not simulated');
  });
});

describe('ab lets go of its connections', () => {
  /** What the lab holds per connection (private fields, read for the test). */
  const held = (lab: ReturnType<typeof createLab>) => {
    const x = lab as unknown as {
      sched: { pending: number; fns: unknown[] };
      instances: Map<
        string,
        {
          host: { txByFlow: unknown[]; rxBySrcFlow: unknown[]; pacing: Map<number, unknown> };
          nitro: { flowStages: Map<number, unknown> };
        }
      >;
    };
    let handlers = 0;
    let stages = 0;
    let pacing = 0;
    for (const i of x.instances.values()) {
      handlers += [...i.host.txByFlow, ...i.host.rxBySrcFlow].filter((h) => h !== undefined).length;
      pacing += i.host.pacing.size;
      stages += i.nitro.flowStages.size;
    }
    // callbacks the scheduler still references: only the events still to come
    const callbacks = x.sched.fns.filter((f) => f !== null).length;
    return { handlers, pacing, stages, callbacks, pending: x.sched.pending };
  };

  it('once both ends have closed, no host, card or scheduler slot keeps a connection', () => {
    const lab = createLab(defaultScenario());
    const s = new LabSession(lab);
    const before = held(lab);
    for (const line of ['ab -n 300 -c 30 http://server/', 'ab -k -n 300 -c 30 http://server/']) {
      const r = s.run(line)[0]!;
      expect(r.output).toContain('Complete requests:      300');
      s.run('sleep 5'); // the last FINs and their ACKs
      const after = held(lab);
      // 330 connections each way were made; none of them is held any more
      expect(after.handlers).toBe(before.handlers);
      expect(after.pacing).toBe(before.pacing);
      expect(after.stages).toBe(before.stages);
      expect(after.callbacks).toBe(after.pending);
    }
  }, 60_000);

  it('the cap on -n: ab’s own 50,000 (its -t default)', () => {
    const r = one('ab -n 50001 -c 10 http://server/');
    expect(r.stderr).toBe('ab: ec2-netlab simulates at most 50,000 requests per run (-n 50001)\n');
  });
});
