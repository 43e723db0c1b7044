/**
 * sar -n DEV: sysstat's layout, sampled from the ENA device's netdev counters while iperf3 runs.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/session/runner';
import { defaultScenario } from '../../src/scenario/schema';

describe('sar -n DEV', () => {
  it('runs alongside iperf3 and shows eth0 at the rate iperf3 sends', () => {
    const lab = createLab(defaultScenario());
    const recs = runScript(lab, ['sar -n DEV 1 3 &', 'iperf3 -c server -t 2 -M 9000', 'sleep 2']);
    const sar = recs.find((r) => r.command.startsWith('sar') && r.output.includes('Average:'))!;
    const lines = sar.output.split('\n');
    expect(lines[0]).toMatch(/^Linux 6\.1\.\S+ \(ip-10-0-0-10\) \t12\/02\/2024 \t_x86_64_\t\(2 CPU\)$/);
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe(
      '05:00:00 PM     IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil',
    );
    expect(lines[3]).toBe(
      '05:00:01 PM        lo      0.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00',
    );
    const eth = lines.filter((l) => /^05:00:0[12] PM +eth0/.test(l)).map((l) => l.trim().split(/\s+/));
    expect(eth).toHaveLength(2);
    // the second second is all iperf3: ≈ 9.5 Gbit/s of 9 kB frames out
    const txkBs = Number(eth[1]![6]);
    expect(txkBs * 1024 * 8).toBeGreaterThan(9e9);
    expect(txkBs * 1024 * 8).toBeLessThan(10.5e9);
    expect(sar.output).toContain('\nAverage:        IFACE   rxpck/s');
    expect(sar.output).toMatch(/\nAverage: +eth0 /);
  });
  it('sar -n UDP counts datagrams in and out and receive-buffer errors (the Stressgrid columns)', () => {
    const lab = createLab(defaultScenario());
    const recs = runScript(lab, [
      'server: sar -n UDP 1 2 &',
      'iperf3 -c server -u -b 1G -l 1400 -t 1',
      'sleep 2',
    ]);
    const sar = recs.find((r) => r.command.startsWith('sar') && r.output.includes('Average:'))!;
    const lines = sar.output.split('\n');
    expect(lines[2]).toBe('05:00:00 PM    idgm/s    odgm/s  noport/s idgmerr/s');
    const row = lines[3]!.trim().split(/\s+/);
    expect(row.slice(0, 2)).toEqual(['05:00:01', 'PM']);
    // 1 Gbit/s of 1400-byte datagrams ≈ 89k/s received by the server (the first second)
    expect(Number(row[2])).toBeGreaterThan(80_000);
    expect(Number(row[2])).toBeLessThan(95_000);
    expect(sar.output).toContain('\nAverage:       idgm/s    odgm/s  noport/s idgmerr/s\n');
  });
  it('refuses what is not simulated', () => {
    const lab = createLab(defaultScenario());
    const [r] = runScript(lab, ['sar -n TCP 1 1']);
    expect(r!.exitCode).toBe(1);
    expect(r!.output).toBe('sar: -n TCP is not simulated in ec2-netlab (only -n DEV and -n UDP)\n');
  });
});
