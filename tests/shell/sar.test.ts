/**
 * sar -n DEV: sysstat's layout, sampled from the ENA device's netdev counters while iperf3 runs.
 */
import { describe, expect, it } from 'vitest';
import { createLab, runScript } from '../../src/engine/runner';
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
  it('refuses what is not simulated', () => {
    const lab = createLab(defaultScenario());
    const [r] = runScript(lab, ['sar -n UDP 1 1']);
    expect(r!.exitCode).toBe(1);
    expect(r!.output).toBe('sar: -n UDP is not simulated in ec2-netlab (only -n DEV)\n');
  });
});
