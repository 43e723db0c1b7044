/**
 * Pathname expansion as bash does it by default over the lab's files (~ and /tmp): `*`, `?`,
 * `[…]`, no match leaves the word, quoting prevents it, dotfiles need a leading dot; tilde
 * expansion; ls with several operands as GNU ls lays them out.
 */
import { describe, expect, it } from 'vitest';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { expandPattern } from '../../src/engine/shell/glob';
import { defaultScenario } from '../../src/scenario/schema';

const stdout = (r: RunRecord) => r.output.slice(0, r.output.length - r.stderr.length);

function withFiles() {
  const s = new LabSession(createLab(defaultScenario()));
  for (const f of ['b.txt', 'a.txt', 'a1.log', 'B.txt', '.hidden', '/tmp/t1.txt', '/tmp/t2.txt'])
    s.run(`echo ${f} > ${f}`);
  const out = (line: string) => stdout(s.run(line)[0]!);
  return { s, out };
}

describe('globbing', () => {
  it('*, ? and […] expand to the sorted matches (C.UTF-8 order: capitals first); no match stays literal', () => {
    const { out } = withFiles();
    expect(out('echo *')).toBe('B.txt a.txt a1.log b.txt\n');
    expect(out('echo *.txt')).toBe('B.txt a.txt b.txt\n');
    expect(out('echo ?.txt')).toBe('B.txt a.txt b.txt\n');
    expect(out('echo [ab].txt')).toBe('a.txt b.txt\n');
    expect(out('echo [!ab].txt')).toBe('B.txt\n');
    expect(out('echo [^a-z].txt')).toBe('B.txt\n');
    expect(out('echo a[[:digit:]].log')).toBe('a1.log\n');
    expect(out('echo *.pcap')).toBe('*.pcap\n');
    expect(out('echo [abc')).toBe('[abc\n');
  });

  it('quoting or a backslash prevents it; a dotfile needs the dot; tilde and absolute paths', () => {
    const { out } = withFiles();
    expect(out('echo \'*.txt\' "*.txt" \\*.txt')).toBe('*.txt *.txt *.txt\n');
    expect(out('echo "a"*.txt')).toBe('a.txt\n');
    expect(out('echo .*')).toBe('.hidden\n');
    expect(out('echo /tmp/t?.txt')).toBe('/tmp/t1.txt /tmp/t2.txt\n');
    expect(out('echo ~/b*')).toBe('/home/ec2-user/b.txt\n');
    expect(out('echo ~ "~"')).toBe('/home/ec2-user ~\n');
    expect(out('echo ./a*')).toBe('./a.txt ./a1.log\n');
    expect(out('echo /t*')).toBe('/tmp\n');
  });

  it('commands get the expanded words: cat, ls (files together, then each directory), ambiguous redirects', () => {
    const { s, out } = withFiles();
    expect(out('cat /tmp/*.txt')).toBe('/tmp/t1.txt\n/tmp/t2.txt\n');
    expect(out('ls *.txt')).toBe('B.txt  a.txt  b.txt\n');
    expect(out('ls')).toBe('B.txt  a.txt  a1.log  b.txt\n');
    expect(out('ls -a')).toBe('.  ..  .hidden  B.txt  a.txt  a1.log  b.txt\n');
    expect(out('ls a*.txt /tmp')).toBe('a.txt\n\n/tmp:\nt1.txt  t2.txt\n');
    expect(out('ls -1 /tmp/*')).toBe('/tmp/t1.txt\n/tmp/t2.txt\n');
    // not a terminal (a pipe, a file): one name a line, as ls does
    expect(out('ls *.txt | wc -l')).toBe('3\n');
    s.run('ls > list.txt');
    expect(out('cat list.txt')).toBe('B.txt\na.txt\na1.log\nb.txt\nlist.txt\n');
    const none = s.run('ls *.pcap')[0]!;
    expect([none.stderr, none.exitCode]).toEqual([
      "ls: cannot access '*.pcap': No such file or directory\n",
      2,
    ]);
    const amb = s.run('cat < *.txt')[0]!;
    expect([amb.stderr, amb.exitCode]).toEqual(['bash: *.txt: ambiguous redirect\n', 1]);
    expect(out('wc -l < a*.log')).toBe('1\n');
  });

  it('pattern matching never crosses a / nor matches a leading dot with * or ?', () => {
    const paths = ['/home/ec2-user/x', '/home/ec2-user/.x', '/tmp/y'];
    const w = (text: string) => ({ text, active: [...text].map(() => true) });
    expect(expandPattern(w('*'), paths)).toEqual(['x']);
    expect(expandPattern(w('?x'), paths)).toEqual([]);
    expect(expandPattern(w('/*'), paths)).toEqual([]);
    expect(expandPattern(w('/*/y'), paths)).toEqual(['/tmp/y']);
  });
});
