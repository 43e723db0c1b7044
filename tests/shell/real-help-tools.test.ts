/**
 * `--help` / `-h` of sudo (1.9.15p5), which, man and aws in their real forms (src/engine/shell/commands/real-help/): the
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
  it('-V and --version as ec2-user sees them: sudo and each default plugin, no configure options (root only)', () => {
    for (const line of ['sudo -V', 'sudo --version']) {
      const r = run(line);
      expect([r.exitCode, r.stderr, stdout(r)]).toEqual([
        0,
        '',
        'Sudo version 1.9.15p5\n' +
          'Sudoers policy plugin version 1.9.15p5\n' +
          'Sudoers file grammar version 50\n' +
          'Sudoers I/O plugin version 1.9.15p5\n' +
          'Sudoers audit plugin version 1.9.15p5\n',
      ]);
    }
  });

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

const WHICH_USAGE = `Usage: /usr/bin/which [options] [--] COMMAND [...]
Write the full path of COMMAND(s) to standard output.

  --version, -[vV] Print version and exit successfully.
  --help,          Print this help and exit successfully.
  --skip-dot       Skip directories in PATH that start with a dot.
  --skip-tilde     Skip directories in PATH that start with a tilde.
  --show-dot       Don't expand a dot to current directory in output.
  --show-tilde     Output a tilde for HOME directory for non-root.
  --tty-only       Stop processing options on the right if not on tty.
  --all, -a        Print all matches in PATH, not just the first
  --read-alias, -i Read list of aliases from stdin.
  --skip-alias     Ignore option --read-alias; don't read stdin.
  --read-functions Read shell functions from stdin.
  --skip-functions Ignore option --read-functions; don't read stdin.

Recommended use is to write the output of (alias; declare -f) to standard
input, so that which can show aliases and shell functions. See which(1) for
examples.

If the options --read-alias and/or --read-functions are specified then the
output can be a full alias or function definition, optionally followed by
the full path of each command used inside of those.

Report bugs to <which-bugs@gnu.org>.
`;

describe('GNU which 2.21', () => {
  it('--help: print_usage on stdout, exit 0, then the lab line', () => {
    const r = run('which --help');
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(stdout(r)).toBe(
      `${WHICH_USAGE}\nec2-netlab: which NAME …, --help and --version are simulated; the other options are refused ("not simulated in ec2-netlab"). \`man which\` says what each models.\n`,
    );
  });

  it('-h is no option of its: getopt complains, no COMMAND is left, usage on stderr, exit 255', () => {
    const r = run('which -h');
    expect([r.exitCode, r.stderr, stdout(r)]).toEqual([
      255,
      `/usr/bin/which: invalid option -- 'h'\n${WHICH_USAGE}`,
      '',
    ]);
    const bare = run('which');
    expect([bare.exitCode, bare.stderr]).toEqual([255, WHICH_USAGE]);
  });

  it('--version, -v, -V: print_version, exit 0', () => {
    for (const line of ['which --version', 'which -v', 'which -V']) {
      const r = run(line);
      expect([r.exitCode, stdout(r)]).toEqual([
        0,
        'GNU which v2.21, Copyright (C) 1999 - 2015 Carlo Wood.\nGNU which comes with ABSOLUTELY NO WARRANTY;\nThis program is free software; your freedom to use, change\nand distribute this program is protected by the GPL.\n',
      ]);
    }
    expect(stdout(run('which ls'))).toBe('/usr/bin/ls\n');
  });
});

const AWS_USAGE =
  'usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\n' +
  'To see help text, you can run:\n\n' +
  '  aws help\n' +
  '  aws <command> help\n' +
  '  aws <command> <subcommand> help\n';
const AWS_NOTE =
  'ec2-netlab: aws ec2 and aws cloudwatch operations are simulated; the `aws help` pages are not (`man aws` says what is modelled).\n';

describe('AWS CLI 2.15.30', () => {
  it('--help and -h are no options of its parsers (add_help=False): argparse asks for the command, exit 252', () => {
    for (const line of ['aws --help', 'aws -h', 'aws --region us-east-1 --help']) {
      const r = run(line);
      expect([r.exitCode, stdout(r), r.stderr]).toEqual([
        252,
        '',
        `\n${AWS_USAGE}\naws: error: the following arguments are required: command\n\n${AWS_NOTE}`,
      ]);
    }
  });

  it('aws ec2 --help / aws cloudwatch -h: the service parser asks for the operation', () => {
    for (const line of ['aws ec2 --help', 'aws cloudwatch -h']) {
      const r = run(line);
      expect([r.exitCode, r.stderr]).toEqual([
        252,
        `\n${AWS_USAGE}\naws: error: the following arguments are required: operation\n\n${AWS_NOTE}`,
      ]);
    }
    // bare aws keeps argparse's text alone; other services stay refused by name
    expect(run('aws').stderr).toBe(
      `\n${AWS_USAGE}\naws: error: the following arguments are required: command\n\n`,
    );
    expect(run('aws s3 --help').stderr).toMatch(/^aws: the s3 service is not simulated in ec2-netlab/);
  });

  it('the help pages (aws help, aws ec2 help, an operation’s help) are refused, pointing at man aws', () => {
    for (const line of ['aws help', 'aws ec2 help', 'aws cloudwatch get-metric-data help']) {
      const r = run(line);
      expect([r.exitCode, r.stderr]).toEqual([
        252,
        'aws: help pages are not simulated in ec2-netlab (`man aws` says which operations and options are modelled)\n',
      ]);
    }
    expect(stdout(run('man aws'))).toContain('the `aws help` pages are not simulated');
  });
});

describe("the lab's man pages name the help options now modelled", () => {
  it('man which, man sudo', () => {
    expect(stdout(run('man which'))).toContain('NAME... --help --version -v -V (GNU which 2.21)');
    expect(stdout(run('man sudo'))).toContain('COMMAND; -h and --help; -V and --version (sudo 1.9.15p5)');
  });
});

describe('man --help, -? and --usage: man-db', () => {
  // Debian's man-db 2.11.2 (`COLUMNS=80 man --help`), its browser line as Fedora's build has it
  // (--with-browser=elinks): the lines around it, byte for byte
  it("prints argp's help: usage line, options in columns, the bug address, then the lab's line", () => {
    for (const line of ['man --help', 'man -?']) {
      const r = run(line);
      expect(r.exitCode).toBe(0);
      const out = stdout(r);
      expect(
        out.startsWith(
          'Usage: man [OPTION...] [SECTION] PAGE...\n\n  -C, --config-file=FILE     use this user configuration file\n',
        ),
      ).toBe(true);
      expect(out).toContain("  -r, --prompt=STRING        provide the `less' pager with a prompt\n");
      expect(out).toContain('  -H, --html[=BROWSER]       use elinks or BROWSER to display HTML output\n');
      expect(out).toContain(
        '\nMandatory or optional arguments to long options are also mandatory or optional\nfor any corresponding short options.\n\nReport bugs to cjwatson@debian.org.\nec2-netlab: man PAGE',
      );
      // argp lays the long-only pair past column 80, as man-db prints it
      expect(out).toContain(
        '      --no-justification,                              --nj   turn off justification\n',
      );
      expect(out.split('\n')).toHaveLength(75);
    }
    const u = stdout(run('man --usage'));
    expect(u.startsWith('Usage: man [-dDfkKlwWciIau7tZ?V] [-C FILE] [-R ENCODING] [-L LOCALE]\n')).toBe(true);
    expect(u.endsWith('            [--version] [SECTION] PAGE...\n')).toBe(true);
    expect(run('man -w ls').stderr).toBe('man: option -w is not simulated in ec2-netlab\n');
  });
});
