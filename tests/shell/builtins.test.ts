/** Discovery and housekeeping: help, type, which, man, --help, date, history, clear, ls/rm, the CloudWatch range note. */
import { describe, expect, it } from 'vitest';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { parseDateString, strftime } from '../../src/engine/shell/commands/builtins';
import { MAN_PAGES, TOOL_NAMES } from '../../src/engine/shell/commands/man';
import { defaultScenario } from '../../src/scenario/schema';

const stdout = (r: RunRecord) => r.output.slice(0, r.output.length - r.stderr.length);
function session() {
  return new LabSession(createLab(defaultScenario()));
}

describe('help and discovery', () => {
  it('help lists the builtins as bash does, then every lab tool on one line', () => {
    const out = stdout(session().run('help')[0]!);
    expect(out.startsWith('GNU bash, version 5.2.15(1)-release (x86_64-amazon-linux-gnu)\n')).toBe(true);
    expect(out).toMatch(/^ job_spec \[&\] +history \[-c\] \[n\]$/m);
    expect(out).toMatch(/^ ! PIPELINE +jobs \[-lnprs\] \[jobspec \.\.\.\] or jobs >$/m);
    // a synopsis wider than its column is cut with '>' (bash's dispcolumn)
    expect(out).toMatch(/^ bg \[job_spec \.\.\.\] +kill \[-s sigspec \| -n signum \| -sigs>$/m);
    expect(out).toMatch(/^ fg \[job_spec\] +wait \[-fn\] \[-p var\] \[id \.\.\.\]$/m);
    for (const t of ['iperf3', 'ethtool', 'tc', 'tcpdump', 'grep', 'date'])
      expect(out).toMatch(new RegExp(`^  ${t} +\\S`, 'm'));
  });

  it('type and which: builtins, paths, bash/which errors and statuses', () => {
    const s = session();
    const [t] = s.run('type echo ethtool nope');
    expect(stdout(t!)).toBe('echo is a shell builtin\nethtool is /usr/sbin/ethtool\n');
    expect(t!.stderr).toBe('bash: type: nope: not found\n');
    expect(t!.exitCode).toBe(1);
    const [w] = s.run('which iperf3');
    expect(stdout(w!)).toBe('/usr/bin/iperf3\n');
    expect(s.run('which nope')[0]!.stderr).toMatch(/^\/usr\/bin\/which: no nope in \(.*\/usr\/bin.*\)\n$/);
  });

  it('every tool has a man page in man(1) layout; unknown pages as man says', () => {
    for (const t of TOOL_NAMES) expect(MAN_PAGES).toContain(t);
    const s = session();
    const [m] = s.run('man tc');
    expect(stdout(m!)).toMatch(/^TC\(8\) +ec2-netlab +TC\(8\)\n\nNAME\n {7}tc - /);
    expect(stdout(m!)).toContain('\nOPTIONS MODELLED\n');
    const [n] = s.run('man nope');
    expect(n!.stderr).toBe('No manual entry for nope\n');
    expect(n!.exitCode).toBe(16);
    expect(s.run('man')[0]!.stderr).toBe("What manual page do you want?\nFor example, try 'man man'.\n");
  });

  it('--help / -h in the real tools’ forms', () => {
    const s = session();
    expect(stdout(s.run('curl --help')[0]!)).toMatch(/^Usage: curl \[options\.\.\.\] <url>\n/);
    expect(stdout(s.run('sleep --help')[0]!)).toMatch(/^Usage: sleep NUMBER\[SUFFIX\]\.\.\.\n/);
    const [p] = s.run('ping -h');
    expect(p!.exitCode).toBe(2);
    expect(p!.stderr).toMatch(/^\nUsage\n {2}ping \[options\] <destination>\n/);
    const [ip] = s.run('ip help');
    expect(ip!.exitCode).toBe(255);
    expect(ip!.stderr).toMatch(/^Usage: ip \[ OPTIONS \] OBJECT \{ COMMAND \| help \}\n/);
    expect(stdout(s.run('iperf3 --help')[0]!)).toMatch(/^Usage: iperf3 \[-s\|-c host\] \[options\]/);
  });
});

describe('date on the lab’s wall clock', () => {
  it('GNU date’s default format, +FORMAT and -d forms at the simulated instant', () => {
    const s = session();
    expect(stdout(s.run('date')[0]!)).toBe('Mon Dec  2 17:00:00 UTC 2024\n');
    s.run('sleep 61.25');
    expect(stdout(s.run('date')[0]!)).toBe('Mon Dec  2 17:01:01 UTC 2024\n');
    expect(stdout(s.run('date +%FT%T.%3N%z')[0]!)).toBe('2024-12-02T17:01:01.250+0000\n');
    expect(stdout(s.run("date -u -d '1 hour ago' --iso-8601=seconds")[0]!)).toBe(
      '2024-12-02T16:01:01+00:00\n',
    );
    expect(stdout(s.run('date -d @0 -R')[0]!)).toBe('Thu, 01 Jan 1970 00:00:00 +0000\n');
    expect(s.run('date -d tomorrowish')[0]!.stderr).toBe('date: invalid date ‘tomorrowish’\n');
  });

  it('the scenario’s wallClockStart sets the clock', () => {
    const sc = defaultScenario();
    const lab = createLab({ ...sc, settings: { ...sc.settings, wallClockStart: '2025-03-04T05:06:07Z' } });
    expect(stdout(new LabSession(lab).run('date +%s')[0]!)).toBe('1741064767\n');
  });

  it('strftime and -d pieces', () => {
    expect(strftime('%a %A %b %B %e %j %u %w %y %H %I %p %-d %_m', 1733158800, 0)).toBe(
      'Mon Monday Dec December  2 337 1 1 24 17 05 PM 2 12',
    );
    expect(parseDateString('2024-12-02 18:00', 0)).toBe(1733162400);
    expect(parseDateString('-90 sec', 1000)).toBe(910);
    expect(parseDateString('yesterday 2 hours ago', 100000)).toBe(100000 - 86400 - 7200);
  });
});

describe('history, clear, files', () => {
  it('history numbers the lines typed, as bash', () => {
    const s = session();
    s.run('echo a | wc -l');
    s.run('date');
    expect(stdout(s.run('history')[0]!)).toBe('    1  echo a | wc -l\n    2  date\n    3  history\n');
    expect(stdout(s.run('history 1')[0]!)).toBe('    4  history 1\n');
  });

  it('clear prints the terminal’s clear sequence', () => {
    expect(stdout(session().run('clear')[0]!)).toBe('\x1b[H\x1b[2J\x1b[3J');
  });

  it('ls, ls -l and rm on the instance’s files', () => {
    const s = session();
    s.run('echo hello > a.txt; echo x > /tmp/b');
    expect(stdout(s.run('ls')[0]!)).toBe('a.txt\n');
    expect(stdout(s.run('ls -l /tmp')[0]!)).toBe(
      'total 4\n-rw-r--r--. 1 ec2-user ec2-user 2 Dec  2 17:00 b\n',
    );
    // -a in long form: the directory's own . and .. first, the owner and size columns as wide as their widest
    s.run('echo hi > .hidden');
    expect(stdout(s.run('ls -la')[0]!)).toBe(
      'total 8\n' +
        'drwx------. 2 ec2-user ec2-user 34 Dec  2 17:00 .\n' +
        'drwxr-xr-x. 3 root     root     22 Dec  2 17:00 ..\n' +
        '-rw-r--r--. 1 ec2-user ec2-user  3 Dec  2 17:00 .hidden\n' +
        '-rw-r--r--. 1 ec2-user ec2-user  6 Dec  2 17:00 a.txt\n',
    );
    expect(stdout(s.run('ls -la /tmp')[0]!)).toBe(
      'total 4\n' +
        'drwxrwxrwt.  2 root     root      60 Dec  2 17:00 .\n' +
        'dr-xr-xr-x. 18 root     root     237 Dec  2 17:00 ..\n' +
        '-rw-r--r--.  1 ec2-user ec2-user   2 Dec  2 17:00 b\n',
    );
    s.run('rm .hidden');
    expect(s.run('rm a.txt; ls')[1]!.output).toBe('');
    expect(s.run('rm a.txt')[0]!.stderr).toBe("rm: cannot remove 'a.txt': No such file or directory\n");
    // files are per instance
    expect(s.run('server: cat /tmp/b')[0]!.stderr).toBe('cat: /tmp/b: No such file or directory\n');
  });
});

describe('aws cloudwatch outside the lab’s time range', () => {
  it('an empty answer gets a lab note on stderr with the clock’s span and a command that fits', () => {
    const s = session();
    const cw = (start: string, end: string) =>
      s.run(
        `aws cloudwatch get-metric-statistics --namespace AWS/EC2 --metric-name NetworkOut --dimensions Name=InstanceId,Value=$(ec2-metadata -i | cut -d' ' -f2) --start-time ${start} --end-time ${end} --period 60 --statistics Sum`,
      )[0]!;
    const r = cw('2024-01-01T00:00:00Z', '2024-01-01T01:00:00Z');
    expect(stdout(r)).toContain('"Datapoints": []');
    expect(r.stderr).toMatch(
      /^lab note: no datapoints: the lab's clock runs from 2024-12-02T17:00:00\+00:00 .* is before it\. .*--start-time \$\(date -u -d '10 min ago' \+%FT%TZ\)/,
    );
    s.run('sleep 90');
    const ok = cw("$(date -u -d '10 min ago' +%FT%TZ)", '$(date -u +%FT%TZ)');
    expect(ok.stderr).toBe('');
    expect(stdout(ok)).toContain('"Timestamp": "2024-12-02T17:00:00+00:00"');
  });
});

describe('watch', () => {
  it('re-runs the pipeline every N s of simulated time, each screen after the clear sequence, until Ctrl-C', async () => {
    const { InteractiveSession } = await import('../../src/engine/session/interactive-session');
    const t = new InteractiveSession(createLab(defaultScenario()));
    t.submit("watch -n 1 'ethtool -S eth0 | grep -c allowance'");
    t.advance(2.5e9);
    t.interrupt();
    t.advance(3e9);
    expect(t.foreground).toBeNull();
    const out = t.transcript
      .filter((c) => c.stream === 'stdout')
      .map((c) => c.text)
      .join('');
    const screens = out.split('\x1b[H\x1b[2J\x1b[3J').slice(1);
    expect(screens).toHaveLength(3);
    expect(screens[2]).toBe(
      `Every 1.0s: ethtool -S eth0 | grep -c allowance${' '.repeat(80 - 47 - 32)}client: Mon Dec  2 17:00:02 2024\n\n6\n^C\n`,
    );
    const s = session();
    expect(s.run('watch -n 1 sleep 2')[0]!.stderr).toMatch(/only commands that end at once/);
    expect(s.run('watch -d ls')[0]!.stderr).toMatch(/option -d is not simulated/);
  });
});
