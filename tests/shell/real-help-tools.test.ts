/**
 * `--help` / `-h` of sudo (1.9.15p5), which, man and aws in their real forms (real-help.ts): the
 * exact texts, streams and exit statuses, then the lab's one line on what is simulated.
 */
import { describe, expect, it } from 'vitest';
import { createLab, LabSession, type RunRecord } from '../../src/engine/session/runner';
import { defaultScenario } from '../../src/scenario/schema';

const stdout = (r: RunRecord) => r.output.slice(0, r.output.length - r.stderr.length);
const run = (line: string) => new LabSession(createLab(defaultScenario())).run(line)[0]!;

const SUDO_USAGE =
  'usage: sudo -h | -K | -k | -V\n' +
  'usage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]\n' +
  'usage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user]\n' +
  '            [-u user] [command [arg ...]]\n' +
  'usage: sudo [-ABbEHkNnPS] [-r role] [-t type] [-C num] [-D directory]\n' +
  '            [-g group] [-h host] [-p prompt] [-R directory] [-T timeout]\n' +
  '            [-u user] [VAR=value] [-i | -s] [command [arg ...]]\n' +
  'usage: sudo -e [-ABkNnS] [-r role] [-t type] [-C num] [-D directory]\n' +
  '            [-g group] [-h host] [-p prompt] [-R directory] [-T timeout]\n' +
  '            [-u user] file ...\n';

describe('sudo 1.9.15p5', () => {
  it('-h and --help: help() on stdout, exit 0, the lab line last', () => {
    for (const line of ['sudo -h', 'sudo --help']) {
      const r = run(line);
      expect([r.exitCode, r.stderr]).toEqual([0, '']);
      const out = stdout(r);
      expect(out.startsWith(`sudo - execute a command as another user\n\n${SUDO_USAGE}\nOptions:\n`)).toBe(
        true,
      );
      expect(out).toContain('  -A, --askpass                 use a helper program for password prompting\n');
      // sudo_lbuf wraps at 80 columns with a 32-column indent
      expect(out).toContain(
        '  -i, --login                   run login shell as the target user; a command\n' +
          '                                may also be specified\n',
      );
      expect(out).toContain(
        '  -r, --role=role               create SELinux security context with specified\n                                role\n',
      );
      expect(out).toContain(
        "  -v, --validate                update user's timestamp without running a\n                                command\n  --                            stop processing command line arguments\n\nec2-netlab: sudo COMMAND",
      );
      expect(out.split('\n').every((l) => l.length <= 80 || l.startsWith('ec2-netlab:'))).toBe(true);
    }
  });

  it('no arguments: usage() on stderr, exit 1; -h with an operand is -h host, refused', () => {
    const r = run('sudo');
    expect([r.exitCode, r.stderr, stdout(r)]).toEqual([1, SUDO_USAGE, '']);
    expect(run('sudo -h ls').stderr).toMatch(/^sudo: option -h is not simulated in ec2-netlab/);
    expect(run('sudo ls').exitCode).toBe(0);
  });
});
