/**
 * iperf3 -C / --congestion: TCP_CONGESTION on the test's sockets at both ends (reno or cubic, the
 * lab kernels' tcp_available_congestion_control), iperf3's own errors otherwise.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/index';
import { parseIperf3Args } from '../../src/engine/shell/commands/iperf3-options';
import { parseScenario } from '../../src/scenario/schema';

function run(line: string) {
  const p = parseScenario({
    version: 1,
    instances: [
      { name: 'client', type: 'c7i.large' },
      { name: 'server', type: 'c7i.large' },
    ],
  });
  if (!p.ok) throw new Error(p.errors.join('; '));
  return runScript(createLab(p.scenario), [line])[0]!;
}

type Json = {
  intervals: Array<{ streams: Array<{ snd_cwnd: number }> }>;
  end: { sum_sent: { bytes: number }; sender_tcp_congestion: string; receiver_tcp_congestion: string };
};

describe('iperf3 -C', () => {
  it('is a client option', () => {
    const r = parseIperf3Args(['-c', 'h', '--congestion', 'reno']);
    expect(r.ok && r.opts.congestion).toBe('reno');
    const s = parseIperf3Args(['-s', '-C', 'reno']);
    expect(!s.ok && s.stderr).toMatch(
      /^iperf3: parameter error - some option you are trying to set is client only/,
    );
  });

  it('an algorithm the host does not have fails when the data socket is set up', () => {
    const r = run('iperf3 -c server -t 1 -C bbr');
    expect(r.exitCode).toBe(1);
    expect(r.output).toBe(
      'Connecting to host server, port 5201\n' +
        'iperf3: error - unable to set TCP_CONGESTION: Supplied congestion control algorithm not supported on this host\n',
    );
  });

  it('cubic is the default; reno runs without HyStart and grows cwnd further in slow start', () => {
    const def = run('iperf3 -c server -t 2 -J').result as Json;
    const cubic = run('iperf3 -c server -t 2 -J -C cubic').result as Json;
    const reno = run('iperf3 -c server -t 2 -J -C reno').result as Json;
    expect(cubic.end.sum_sent.bytes).toBe(def.end.sum_sent.bytes);
    expect(cubic.intervals.map((i) => i.streams[0]!.snd_cwnd)).toEqual(
      def.intervals.map((i) => i.streams[0]!.snd_cwnd),
    );
    expect([reno.end.sender_tcp_congestion, reno.end.receiver_tcp_congestion]).toEqual(['reno', 'reno']);
    expect(def.end.sender_tcp_congestion).toBe('cubic');
    // CUBIC's HyStart ends slow start once a round's ACK train spans half the minimum RTT (about
    // 1.6 MB here); Reno has no HyStart and leaves slow start only when TCP Small Queues hold it
    const cwnd = (j: Json) => j.intervals.at(-1)!.streams[0]!.snd_cwnd;
    expect(cwnd(reno)).toBeGreaterThan(cwnd(def) * 1.2);
  });
});
