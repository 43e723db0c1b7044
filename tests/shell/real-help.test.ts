/**
 * `TOOL --help` / `-h` in the real tools' own forms (src/engine/shell/commands/real-help/): stream, exit status, layout,
 * and the lab's one line on what is simulated. The texts were generated from the tools' sources at
 * the versions the lab names and compared byte for byte with the generators' output; here the
 * commands are checked end to end.
 */
import { describe, expect, it } from 'vitest';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { defaultScenario } from '../../src/scenario/schema';

const stdout = (r: RunRecord) => r.output.slice(0, r.output.length - r.stderr.length);
const run = (line: string) => new LabSession(createLab(defaultScenario())).run(line)[0]!;

describe('--help / -h as the real tools print them', () => {
  it('ethtool -h and --help: 6.7 show_usage on stdout, exit 0, then the lab line', () => {
    for (const line of ['ethtool -h', 'ethtool --help']) {
      const r = run(line);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe('');
      const out = stdout(r);
      expect(
        out.startsWith('ethtool version 6.7\nUsage:\n        ethtool [ FLAGS ]  DEVNAME\tDisplay standard'),
      ).toBe(true);
      // entries 6.7 has and 6.1 did not, the FLAGS block, and the lab's line last
      expect(out).toContain(
        '        ethtool [ FLAGS ] --show-pse DEVNAME\tShow settings for Power Sourcing Equipment\n',
      );
      expect(out).toContain('\t\t[ tcp-data-split auto|on|off ]\n');
      expect(out).toContain(
        'FLAGS:\n\t--debug MASK\tturn on debugging messages\n\t--json\t\tenable JSON output format (not supported by all commands)\n',
      );
      expect(out).toMatch(/\nec2-netlab: -i, -S, -g\/-G, .* are simulated; the other options are refused/);
    }
  });

  it('sar --help (display_help, exit 0); a bad keyword gets usage() on stderr, exit 1', () => {
    const h = run('sar --help');
    expect(h.exitCode).toBe(0);
    expect(stdout(h)).toMatch(
      /^Usage: sar \[ options \] \[ <interval> \[ <count> \] \]\nMain options and reports \(report name between square brackets\):\n\t-B\tPaging statistics \[A_PAGE\]\n/,
    );
    expect(stdout(h)).toContain('\t-I { <int_list> | SUM | ALL }\n\t\tInterrupts statistics [A_IRQ]\n');
    expect(stdout(h)).toContain('\t\tDEV\tNetwork interfaces\n');
    const bad = run('sar -n NOPE 1 1');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(
      /^Usage: sar \[ options \] \[ <interval> \[ <count> \] \]\nOptions are:\n\[ -A \] /,
    );
    expect(bad.stderr).toContain('[ -i <interval> ] [ -s [ <hh:mm[:ss]> ] ] [ -e [ <hh:mm[:ss]> ] ]\n');
    // a keyword sar knows but the lab does not model is refused by name
    expect(run('sar -n TCP 1 1').stderr).toMatch(/not simulated in ec2-netlab/);
  });

  it('dig -h (help, stdout, exit 0); --help is an invalid option with the short usage', () => {
    const h = run('dig -h');
    expect(h.exitCode).toBe(0);
    const out = stdout(h);
    expect(out.startsWith('Usage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n')).toBe(true);
    expect(out).toContain('                 +[no]short          (Display nothing except short\n');
    expect(out).toContain('        -v                           (print version and exit)\n');
    const bad = run('dig --help');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toBe(
      'Invalid option: --help\n' +
        'Usage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n' +
        '            {global-d-opt} host [@local-server] {local-d-opt}\n' +
        '            [ host [@local-server] {local-d-opt} [...]]\n' +
        '\nUse "dig -h" (or "dig -h | more") for complete list of options\n',
    );
    expect(run('dig +bogus example.com').stderr.startsWith('Invalid option: +bogus\nUsage:  dig')).toBe(true);
  });

  it('dpdk-testpmd: -h is EAL’s usage; -- --help is testpmd’s after EAL started, with the lcores it has', () => {
    const eal = run('dpdk-testpmd -h');
    expect(eal.exitCode).toBe(0);
    expect(stdout(eal)).toMatch(
      /^EAL: Detected CPU lcores: 2\nEAL: Detected NUMA nodes: 1\n\nUsage: dpdk-testpmd \[options\]\n\nEAL common options:\n {2}-c COREMASK/,
    );
    expect(stdout(eal)).toContain('  -h, --help          This help\n');
    const tp = run('dpdk-testpmd -l 0-1 -- --help');
    expect(tp.exitCode).toBe(0);
    const out = stdout(tp);
    expect(out).toContain(
      'TELEMETRY: No legacy callbacks, legacy socket not created\n\nUsage: dpdk-testpmd [EAL options] -- [testpmd options]\n\n',
    );
    expect(out).toContain('  --nb-cores=N: set the number of forwarding cores (1 <= N <= 1).\n');
    expect(out).toContain(
      '  --forward-mode=N: set forwarding mode (N: io|mac|macswap|flowgen|rxonly|txonly|csum|icmpecho|noisy|5tswap|recycle_mbufs|shared_rxq).\n',
    );
    expect(run('dpdk-testpmd -- -h').exitCode).toBe(0);
  });

  it('netperf/netserver -h: the usage on stderr, exit 1 (--help: getopt’s invalid option first)', () => {
    const n = run('netperf -h');
    expect(n.exitCode).toBe(1);
    expect(
      n.stderr.startsWith('\nUsage: netperf [global options] -- [test options] \n\nGlobal options:\n'),
    ).toBe(true);
    expect(run('netperf --help').stderr.startsWith("netperf: invalid option -- '-'\n\nUsage: netperf")).toBe(
      true,
    );
    expect(run('netserver -h').stderr.startsWith('\nUsage: netserver [options] \n\nOptions:\n    -h ')).toBe(
      true,
    );
  });

  it('awk (gawk 5.1): -h/--help the usage on stdout, exit 0; no program: on stderr, exit 1', () => {
    const h = run('awk --help');
    expect(h.exitCode).toBe(0);
    expect(stdout(h)).toMatch(
      /^Usage: awk \[POSIX or GNU style options\] -f progfile \[--\] file \.\.\.\nUsage: awk \[POSIX or GNU style options\] \[--\] 'program' file \.\.\.\nPOSIX options:\t\tGNU long options: \(standard\)\n/,
    );
    expect(stdout(h)).toContain("Examples:\n\tawk '{ sum += $1 }; END { print sum }' file\n");
    const none = run('echo x | awk');
    expect(none.exitCode).toBe(1);
    expect(none.stderr.startsWith('Usage: awk [POSIX or GNU style options] -f progfile')).toBe(true);
  });

  it('watch --help: procps-ng 3.3.17’s usage on stdout, exit 0', () => {
    const r = run('watch --help');
    expect(r.exitCode).toBe(0);
    expect(stdout(r)).toMatch(/^\nUsage:\n watch \[options\] command\n\nOptions:\n {2}-b, --beep /);
    expect(stdout(r)).toContain(
      '\nFor more details see watch(1).\n\nec2-netlab: -n SECS and -t are simulated',
    );
  });

  it('GNU filters and ls/rm: --help on stdout, exit 0, also after a pipe; -h where it is no option', () => {
    for (const t of ['grep', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'cat', 'tee', 'ls', 'rm']) {
      const r = run(`${t} --help`);
      expect(r.exitCode, t).toBe(0);
      expect(stdout(r), t).toMatch(new RegExp(`^Usage: ${t} `));
      expect(stdout(r), t).toMatch(/\nec2-netlab: .* are simulated; the other options are refused/);
    }
    const piped = run('echo x | head --help');
    expect(stdout(piped)).toMatch(/^Usage: head \[OPTION\]\.\.\. \[FILE\]\.\.\.\n/);
    expect(run('date -h').stderr).toBe(
      "date: invalid option -- 'h'\nTry 'date --help' for more information.\n",
    );
    const t = run('timeout -h');
    expect(t.exitCode).toBe(125);
    expect(t.stderr).toBe("timeout: invalid option -- 'h'\nTry 'timeout --help' for more information.\n");
  });

  it('hostname, clear, which and sudo: their own help or a refusal naming the option, never taken as a name', () => {
    const h = run('hostname --help');
    expect([h.exitCode, stdout(h).split('\n')[0]]).toEqual([
      255,
      'Usage: hostname [-b] {hostname|-F file}         set host name (from file)',
    ]);
    expect(run('hostname -f').stderr).toMatch(/hostname: -f: not simulated in ec2-netlab/);
    const c = run('clear -h');
    expect([c.exitCode, c.stderr]).toEqual([
      1,
      "clear: invalid option -- 'h'\nUsage: clear [options]\n\nOptions:\n  -T TERM     use this instead of $TERM\n  -V          print curses-version\n  -x          do not try to clear scrollback\n",
    ]);
    expect(stdout(run('clear -x'))).toBe('\x1b[H\x1b[2J');
  });
});
