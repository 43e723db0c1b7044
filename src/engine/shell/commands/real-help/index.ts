/**
 * The real tools' own help and usage texts, generated from their sources at the versions the lab
 * names and checked against Debian 12's binaries where those differ only by the versions' diffs:
 * ethtool 6.7 (ethtool.c show_usage over args[]), sysstat 12.5.4 sar (sar.c display_help, usage),
 * BIND 9.18.33 dig (bin/dig/dig.c help), DPDK 23.11 (lib/eal eal_usage, app/test-pmd/parameters.c
 * usage), sudo 1.9.15p5 (parse_args.c help, sudo_usage.h.in), GNU which 2.21 (which.c print_usage).
 * Each tool adds a line saying what the lab simulates (labNote); the rest is the tool's.
 * The texts are in network-tools.ts, gnu-tools.ts and system-tools.ts.
 */
import { TESTPMD_USAGE_TEMPLATE } from './network-tools';

export * from './gnu-tools';
export * from './network-tools';
export * from './system-tools';
/** The lab's line after a real help text: what is simulated, the rest refused by name. */
export const labNote = (tool: string, simulated: string): string =>
  `\nec2-netlab: ${simulated} are simulated; the other options are refused ("not simulated in ec2-netlab"). \`man ${tool}\` says what each models.\n`;

/** DPDK 23.11 testpmd usage() for a run with `nbLcores` forwarding lcores and one port (eth0). */
export function testpmdUsage(nbLcores: number): string {
  return TESTPMD_USAGE_TEMPLATE.replace(
    '--nb-cores=N: set the number of forwarding cores (1 <= N <= 1)',
    `--nb-cores=N: set the number of forwarding cores (1 <= N <= ${nbLcores})`,
  );
}
