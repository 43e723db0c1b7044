/**
 * The UI terminal's session: commands start at the current simulated instant, output streams as
 * the tool prints it, Ctrl-C interrupts, and a replay of the command log is byte-identical however
 * the live run was sliced into chunks.
 */
import { describe, expect, it } from 'vitest';
import { InteractiveSession, replaySession } from '../../src/engine/session/interactive-session';
import { createLab, runLine } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

function scenario() {
  const r = parseScenario({ version: 2, seed: 7 });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

const text = (s: InteractiveSession, stream?: string) =>
  s.transcript
    .filter((c) => (stream ? c.stream === stream : true))
    .map((c) => c.text)
    .join('');

describe('interactive session', () => {
  it('streams iperf3 interval lines each simulated second; the whole equals what the CLI prints', () => {
    const s = new InteractiveSession(createLab(scenario()));
    expect(s.submit('iperf3 -c server -t 3')).toBe(true);
    expect(s.foreground?.command).toBe('iperf3 -c server -t 3');
    expect(s.submit('ethtool -S eth0')).toBe(false); // no prompt while the foreground job runs
    s.advance(1.5e9, 50_000_000);
    const mid = text(s, 'stdout');
    expect(mid).toMatch(/0\.00-1\.00 {3}sec/);
    expect(mid).not.toMatch(/1\.00-2\.00/);
    expect(mid).not.toContain('iperf Done.');
    while (s.foreground) s.advance(s.nowNs + 250e6, 200_000);
    const cli = runLine(createLab(scenario()), 'iperf3 -c server -t 3');
    expect(text(s, 'stdout')).toBe(cli.output);
    expect(text(s, 'input')).toBe('iperf3 -c server -t 3\n');
  });

  it('the streamed text, grown interval by interval, equals what the CLI prints: several streams, a title, -R, UDP, --bidir, -O, -f', () => {
    for (const cmd of [
      'iperf3 -c server -t 4 -P 3 -T lab',
      'iperf3 -c server -t 3 -R -f m',
      'iperf3 -c server -u -b 2G -t 3 -P 2',
      'iperf3 -c server -t 3 --bidir',
      'iperf3 -c server -t 3 -O 1 -i 0.5',
    ]) {
      const s = new InteractiveSession(createLab(scenario()));
      expect(s.submit(cmd), cmd).toBe(true);
      while (s.foreground) s.advance(s.nowNs + 1e6, 200_000);
      const cli = runLine(createLab(scenario()), cmd);
      expect(cli.output, cmd).toContain('iperf Done.');
      expect(text(s, 'stdout'), cmd).toBe(cli.output);
    }
  });

  it('prints each stream\'s "connected to" line when that stream connects (its handshake done), not with the first interval; -R and UDP too', () => {
    for (const cmd of [
      'iperf3 -c server -t 2 -P 2',
      'iperf3 -c server -t 2 -R',
      'iperf3 -c server -u -b 1G -t 2',
    ]) {
      const s = new InteractiveSession(createLab(scenario()));
      expect(s.submit(cmd)).toBe(true);
      // one simulated millisecond: the handshakes (a cluster round trip is tens of µs) are done
      s.advance(1e6, 50_000_000);
      const early = text(s, 'stdout');
      expect(early, cmd).toMatch(/^Connecting to host server, port 5201\n/);
      const lines =
        early.match(/^\[ {2}\d\] local 10\.0\.0\.\d+ port \d+ connected to 10\.0\.0\.\d+ port \d+$/gm) ?? [];
      expect(lines, cmd).toHaveLength(cmd.includes('-P 2') ? 2 : 1);
      if (cmd.includes('-R')) expect(early).toContain('Reverse mode, remote host server is sending\n');
      expect(early).not.toMatch(/sec/);
      // the chunk that printed them came out within a millisecond of the Enter
      const chunk = s.transcript.find((c) => c.stream === 'stdout' && c.text.includes('connected to'))!;
      expect(chunk.atNs).toBeLessThanOrEqual(1e6);
      while (s.foreground) s.advance(s.nowNs + 250e6, 200_000);
      // the whole is still what the CLI prints, byte for byte
      expect(text(s, 'stdout'), cmd).toBe(runLine(createLab(scenario()), cmd).output);
    }
  });

  it('Ctrl-C interrupts the foreground job; iperf3 prints its interrupted summary and the prompt returns', () => {
    const s = new InteractiveSession(createLab(scenario()));
    s.submit('iperf3 -c server -t 0');
    s.advance(2.3e9);
    expect(s.foreground).not.toBeNull();
    expect(s.interrupt()).toBe(true);
    s.advance(s.nowNs + 50e6);
    expect(s.foreground).toBeNull();
    const out = text(s);
    // as iperf3 does on SIGINT (iperf_got_sigend → reporter): the partial interval right after ^C
    expect(out).toMatch(/\n\^C\[ {2}5\] {3}2\.00-2\.30 {3}sec .*\n- - - - -/);
    expect(out).toContain('iperf3: interrupt - the client has terminated');
    expect(out).toMatch(/0\.00-2\.\d\d +sec .* sender/);
  });

  it('a line ending in & runs in the background and reports Done when it ends', () => {
    const s = new InteractiveSession(createLab(scenario()));
    s.submit('sleep 1 &');
    expect(s.foreground).toBeNull();
    expect(s.backgroundCount).toBe(1);
    s.advance(0.5e9);
    expect(s.submit('ethtool -g eth0')).toBe(true);
    s.advance(1.2e9);
    expect(s.backgroundCount).toBe(0);
    expect(text(s)).toMatch(
      /\[1\] 1001\n[\s\S]*Ring parameters for eth0[\s\S]*\[1\]\+ {2}Done {20}sleep 1\n$/,
    );
  });

  it('time moves when idle, and a command starts at the current instant', () => {
    const s = new InteractiveSession(createLab(scenario()));
    s.advance(1_234_567);
    expect(s.nowNs).toBe(1_234_567);
    s.submit('sleep 0.5');
    s.advance(2e9);
    expect(s.foreground).toBeNull();
    expect(s.commandLog).toEqual([{ atNs: 1_234_567, kind: 'line', line: 'sleep 0.5' }]);
  });

  it('replaying the command log rebuilds a byte-identical transcript and model, whatever the live chunks', () => {
    const live = new InteractiveSession(createLab(scenario()));
    // irregular slices and small event budgets, as a UI frame pump would give
    const slices = [3e6, 17e6, 250e6, 1e3, 99e6];
    let k = 0;
    const play = (untilNs: number) => {
      while (live.nowNs < untilNs) {
        live.advance(Math.min(untilNs, live.nowNs + slices[k++ % slices.length]!), 3_000 + (k % 7) * 1_000);
      }
    };
    play(123_456);
    live.submit('server: iperf3 -s -p 5300');
    live.submit('iperf3 -c server -t 1 -P 2 &');
    play(400e6);
    live.submit('ethtool -S eth0');
    play(1.7e9);
    live.submit('iperf3 -c server -p 5300 -t 0 -u -b 1G');
    play(2.9e9 + 333);
    live.interrupt();
    play(3.5e9);
    live.submit('ethtool -S eth0');
    const replay = replaySession(scenario(), live.commandLog, live.nowNs);
    expect(replay.nowNs).toBe(live.nowNs);
    expect(JSON.stringify(replay.transcript)).toBe(JSON.stringify(live.transcript));
    expect(live.transcript.filter((c) => c.text.includes('NIC statistics')).length).toBe(2);
    expect(live.lab.sched.processed).toBe(replay.lab.sched.processed);
  });
});
