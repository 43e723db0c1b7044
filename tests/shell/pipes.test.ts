/** The shell's pipes, lists, redirections and filters: bash semantics and GNU tools' output. */
import { describe, expect, it } from 'vitest';
import { InteractiveSession } from '../../src/engine/session/interactive-session';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { FILTERS, type FilterIo } from '../../src/engine/shell/commands/text-tools';
import { parseLine } from '../../src/engine/shell/parse';
import { defaultScenario } from '../../src/scenario/schema';

function session() {
  return new LabSession(createLab(defaultScenario()));
}
function run(line: string, s = session()): RunRecord[] {
  return s.run(line);
}
const stdout = (r: RunRecord) => r.output.slice(0, r.output.length - r.stderr.length);

function filter(name: string, args: string[], stdin: string, files: Record<string, string> = {}) {
  const io: FilterIo = {
    stdin,
    read: (p) => (p in files ? { text: files[p]! } : { error: `${p}: No such file or directory` }),
    write: (p, d, a) => {
      files[p] = a ? (files[p] ?? '') + d : d;
      return null;
    },
  };
  return FILTERS[name]!(args, io);
}

describe('pipelines', () => {
  it('ethtool -S eth0 | grep allowance prints exactly the allowance counters (AWS ENA docs)', () => {
    const [r] = run('ethtool -S eth0 | grep allowance');
    expect(r!.exitCode).toBe(0);
    expect(stdout(r!)).toMatch(
      /^ {5}bw_in_allowance_exceeded: 0\n {5}bw_out_allowance_exceeded: 0\n {5}pps_allowance_exceeded: 0\n {5}conntrack_allowance_exceeded: 0\n {5}linklocal_allowance_exceeded: 0\n {5}conntrack_allowance_available: \d+\n$/,
    );
  });

  it("a pipeline's exit status is the last command's; ! negates it", () => {
    expect(run('ethtool -S eth0 | grep no_such_counter')[0]!.exitCode).toBe(1);
    expect(run('ethtool -S eth1 | grep -c x')[0]!.exitCode).toBe(1);
    expect(run('false | true')[0]!.exitCode).toBe(0);
    expect(run('! ethtool -S eth0 | grep no_such_counter')[0]!.exitCode).toBe(0);
  });

  it('stderr is not piped (2>&1 pipes it)', () => {
    const [r] = run('ethtool -S eth1 | wc -l');
    expect(stdout(r!)).toBe('0\n');
    expect(r!.stderr).not.toBe('');
    const [r2] = run('ethtool -S eth1 2>&1 | wc -l');
    expect(stdout(r2!)).toBe('1\n');
    expect(r2!.stderr).toBe('');
  });

  it('a job in a pipeline runs in simulated time; the filter applies to its output when it ends', () => {
    const [r] = run('iperf3 -c server -t 2 | grep -E "sender|receiver"');
    expect(r!.endNs - r!.startNs).toBeGreaterThan(2e9);
    const ls = stdout(r!).trimEnd().split('\n');
    expect(ls).toHaveLength(2);
    expect(ls[0]).toMatch(/ sender$/);
    expect(ls[1]).toMatch(/ receiver$/);
  });

  it('a line-by-line filter streams the producer’s lines in the terminal (a prefix of the end result)', () => {
    const s = new InteractiveSession(createLab(defaultScenario()));
    s.submit('iperf3 -c server -t 3 | grep sec');
    s.advance(1.5e9);
    const early = s.drainOutput().filter((c) => c.stream === 'stdout');
    expect(early.map((c) => c.text).join('')).toMatch(/^\[ {2}5\] {3}0\.00-1\.00 {3}sec/);
    s.advance(5e9);
    const all = s.transcript
      .filter((c) => c.stream === 'stdout')
      .map((c) => c.text)
      .join('');
    expect(
      all
        .split('\n')
        .filter((l) => l)
        .every((l) => l.includes('sec')),
    ).toBe(true);
    expect(all.split('\n').filter((l) => l)).toHaveLength(3 + 2);
  });

  it('only the first command of a pipeline may be a lab tool', () => {
    const [r] = run('echo x | ethtool -S eth0');
    expect(r!.exitCode).toBe(2);
    expect(r!.stderr).toMatch(/only the first command of a pipeline may be a lab tool/);
  });
});

describe('lists', () => {
  it('; runs both, && and || by exit status, each pipeline a record of its own', () => {
    const recs = run('false; echo a && echo b || echo c; false && echo d || echo e');
    expect(recs.map((r) => r.command)).toEqual(['false', 'echo a', 'echo b', 'false', 'echo e']);
    expect(recs.map(stdout).join('')).toBe('a\nb\ne\n');
    expect(recs[0]!.continued).toBeUndefined();
    expect(recs[0]!.line).toBe('false; echo a && echo b || echo c; false && echo d || echo e');
    expect(recs.slice(1).every((r) => r.continued)).toBe(true);
  });

  it('the next pipeline starts when the job before it ends in simulated time', () => {
    const recs = run('sleep 1 && iperf3 -c server -t 1 | grep receiver');
    expect(recs).toHaveLength(2);
    expect(recs[1]!.startNs).toBeGreaterThanOrEqual(1e9);
    expect(stdout(recs[1]!)).toMatch(/receiver\n$/);
  });

  it('Ctrl-C ends the whole line, as SIGINT does', () => {
    const s = new InteractiveSession(createLab(defaultScenario()));
    s.submit('sleep 10; echo after');
    s.advance(1e9);
    s.interrupt();
    s.advance(2e9);
    expect(s.foreground).toBeNull();
    expect(
      s.transcript
        .filter((c) => c.stream !== 'input')
        .map((c) => c.text)
        .join(''),
    ).toBe('^C\n'); // bash's newline after a job killed by SIGINT
  });

  it('a background list and a foreground command on one line', () => {
    const s = session();
    const recs = s.run('sleep 1 & echo now');
    expect(recs[0]!.stderr).toBe('[1] 1001\n');
    expect(stdout(recs[1]!)).toBe('now\n');
  });
});

describe('redirections and files', () => {
  it('> truncates, >> appends, cat reads, < feeds stdin', () => {
    const s = session();
    run('echo one > out.txt', s);
    run('echo two >> out.txt', s);
    expect(stdout(run('cat out.txt', s)[0]!)).toBe('one\ntwo\n');
    expect(stdout(run('wc -l < out.txt', s)[0]!)).toBe('2\n');
    run('echo three > out.txt', s);
    expect(stdout(run('cat ~/out.txt', s)[0]!)).toBe('three\n');
    expect(stdout(run('ethtool -S eth0 > stats.txt; grep -c allowance stats.txt', s)[1]!)).toBe('6\n');
  });

  it('errors as bash prints them; the command does not run', () => {
    const s = session();
    expect(run('cat nothere', s)[0]!.stderr).toBe('cat: nothere: No such file or directory\n');
    expect(run('echo x > /etc/hosts', s)[0]!.stderr).toBe('bash: /etc/hosts: Permission denied\n');
    expect(run('grep x < nothere', s)[0]!.stderr).toBe('bash: nothere: No such file or directory\n');
    expect(run('ethtool -S eth1 2> err.txt', s)[0]!.stderr).toBe('');
    expect(stdout(run('cat err.txt', s)[0]!)).toMatch(/^Cannot get stats/);
    expect(stdout(run('echo hidden > /dev/null; cat /dev/null', s)[0]!)).toBe('');
  });

  it('what bash has beyond the lab is refused by name', () => {
    expect(run('echo $HOME')[0]!.stderr).toMatch(/variables and parameters .* not simulated in ec2-netlab/);
    expect(run('(echo a)')[0]!.stderr).toMatch(/subshells .* not simulated/);
    expect(run('cat <<EOF')[0]!.stderr).toMatch(/here-documents .* not simulated/);
    expect(run('echo `date`')[0]!.stderr).toMatch(/backquote/);
    expect(run('echo a |')[0]!.stderr).toBe("bash: syntax error near unexpected token `newline'\n");
    expect(run('| echo a')[0]!.stderr).toBe("bash: syntax error near unexpected token `|'\n");
  });

  it('$(…) substitutes the output of a command that ends at once', () => {
    expect(stdout(run('echo "[$(hostname)]" $(echo a  b)')[0]!)).toBe('[client] a b\n');
    expect(run('echo $(sleep 1)')[0]!.stderr).toMatch(/only commands that end at once/);
  });
});

describe('the parser', () => {
  it('quotes protect operators; comments end the line', () => {
    const p = parseLine(`grep -E 'a|b' "x;y" # c | d`);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.lists).toHaveLength(1);
    expect(p.lists[0]!.pipelines[0]!.commands).toHaveLength(1);
    expect(
      p.lists[0]!.pipelines[0]!.commands[0]!.words.map((w) =>
        w.map((x) => ('lit' in x ? x.lit : '')).join(''),
      ),
    ).toEqual(['grep', '-E', 'a|b', 'x;y']);
  });
});

describe('filters (GNU behaviour)', () => {
  const text = 'alpha 3\nBeta 10\ngamma 2\nalpha 3\nalphabet 1\n';
  it('grep -i -v -E -c -n -w and BRE operators', () => {
    expect(filter('grep', ['-i', 'beta'], text).stdout).toBe('Beta 10\n');
    expect(filter('grep', ['-v', 'alpha'], text).stdout).toBe('Beta 10\ngamma 2\n');
    expect(filter('grep', ['-c', 'alpha'], text).stdout).toBe('3\n');
    expect(filter('grep', ['-n', 'gamma'], text).stdout).toBe('3:gamma 2\n');
    expect(filter('grep', ['-w', 'alpha'], text).stdout).toBe('alpha 3\nalpha 3\n');
    expect(filter('grep', ['-E', 'Beta|gamma'], text).stdout).toBe('Beta 10\ngamma 2\n');
    expect(filter('grep', ['Beta|gamma'], text).exitCode).toBe(1); // | is literal in a BRE
    expect(filter('grep', ['Beta\\|gamma'], text).stdout).toBe('Beta 10\ngamma 2\n');
    expect(filter('grep', ['-in', 'BETA'], text).stdout).toBe('2:Beta 10\n');
    expect(filter('grep', ['zzz'], text)).toEqual({ stdout: '', stderr: '', exitCode: 1 });
    expect(filter('grep', ['-j', 'a'], text).stderr).toBe(
      "grep: invalid option -- 'j'\nTry 'grep --help' for more information.\n",
    );
    expect(filter('grep', ['-A', '2', 'a'], text)).toMatchObject({
      exitCode: 2,
      stderr: 'grep: option -A is not simulated in ec2-netlab\n',
    });
    expect(filter('grep', ['x', 'nofile'], '')).toMatchObject({
      exitCode: 2,
      stderr: 'grep: nofile: No such file or directory\n',
    });
  });

  it('head, tail, wc, sort, uniq, cut, awk', () => {
    expect(filter('head', ['-2'], text).stdout).toBe('alpha 3\nBeta 10\n');
    expect(filter('head', ['-n', '-4'], text).stdout).toBe('alpha 3\n');
    expect(filter('tail', ['-n', '2'], text).stdout).toBe('alpha 3\nalphabet 1\n');
    expect(filter('tail', ['-n', '+4'], text).stdout).toBe('alpha 3\nalphabet 1\n');
    expect(filter('wc', [], text).stdout).toBe('      5      10      43\n');
    expect(filter('wc', ['-l'], text).stdout).toBe('5\n');
    expect(filter('wc', ['-l', 'f'], '', { f: text }).stdout).toBe('5 f\n');
    expect(filter('sort', [], text).stdout).toBe('Beta 10\nalpha 3\nalpha 3\nalphabet 1\ngamma 2\n');
    expect(filter('sort', ['-k2', '-n'], text).stdout).toBe(
      'alphabet 1\ngamma 2\nalpha 3\nalpha 3\nBeta 10\n',
    );
    expect(filter('sort', ['-rn', '-k', '2'], text).stdout).toBe(
      'Beta 10\nalpha 3\nalpha 3\ngamma 2\nalphabet 1\n',
    );
    expect(filter('sort', ['-u'], text).stdout).toBe('Beta 10\nalpha 3\nalphabet 1\ngamma 2\n');
    expect(filter('uniq', ['-c'], 'a\na\nb\na\n').stdout).toBe('      2 a\n      1 b\n      1 a\n');
    expect(filter('uniq', ['-d'], 'a\na\nb\n').stdout).toBe('a\n');
    expect(filter('cut', ['-d', ' ', '-f2'], text).stdout).toBe('3\n10\n2\n3\n1\n');
    expect(filter('cut', ['-c1-3'], 'abcdef\n').stdout).toBe('abc\n');
    expect(filter('cut', [], 'x').stderr).toMatch(
      /^cut: you must specify a list of bytes, characters, or fields/,
    );
    expect(filter('awk', ['{print $2}'], text).stdout).toBe('3\n10\n2\n3\n1\n');
    expect(filter('awk', ['{print $NF, $1}'], '  a b  c\n').stdout).toBe('c a\n');
    expect(filter('awk', ['-F:', '{print $2}'], 'x:y:z\n').stdout).toBe('y\n');
    expect(filter('awk', ['/Beta/ {print $1}'], text).stdout).toBe('Beta\n');
    expect(filter('awk', ['{s+=$2} END {print s}'], text)).toMatchObject({
      exitCode: 2,
      stderr:
        "awk: only '{print $N[, $M…]}' programs (optionally after a /regex/) are simulated in ec2-netlab\n",
    });
  });
});
