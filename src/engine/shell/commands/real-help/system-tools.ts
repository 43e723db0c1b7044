/**
 * procps-ng watch 3.3.17, hostname 3.23, ncurses clear, sudo 1.9.15p5 and GNU which 2.21 help texts.
 * Sources: real-help/index.ts.
 */

/** procps-ng 3.3.17 `watch --help` (watch.c usage(stdout) with include/c.h's USAGE_* pieces): stdout, exit 0. */
export const WATCH_HELP = `
Usage:
 watch [options] command

Options:
  -b, --beep             beep if command has a non-zero exit
  -c, --color            interpret ANSI color and style sequences
  -d, --differences[=<permanent>]
                         highlight changes between updates
  -e, --errexit          exit if command has a non-zero exit
  -g, --chgexit          exit when output from command changes
  -n, --interval <secs>  seconds to wait between updates
  -p, --precise          attempt run command in precise intervals
  -t, --no-title         turn off header
  -w, --no-wrap          turn off line wrapping
  -x, --exec             pass command to exec instead of "sh -c"

 -h, --help     display this help and exit
 -v, --version  output version information and exit

For more details see watch(1).
`;

/** hostname 3.23 (the package Amazon Linux 2023 and Debian 12 ship) `hostname --help`/`-h`: stdout, exit 255 (usage() ends in exit(-1)). */
export const HOSTNAME_HELP = `Usage: hostname [-b] {hostname|-F file}         set host name (from file)
       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name
       hostname                                 display host name

       {yp,nis,}domainname {nisdomain|-F file}  set NIS domain name (from file)
       {yp,nis,}domainname                      display NIS domain name

       dnsdomainname                            display dns domain name

       hostname -V|--version|-h|--help          print info and exit

Program name:
       {yp,nis,}domainname=hostname -y
       dnsdomainname=hostname -d

Program options:
    -a, --alias            alias names
    -A, --all-fqdns        all long host names (FQDNs)
    -b, --boot             set default hostname if none available
    -d, --domain           DNS domain name
    -f, --fqdn, --long     long host name (FQDN)
    -F, --file             read host name or NIS domain name from given file
    -i, --ip-address       addresses for the host name
    -I, --all-ip-addresses all addresses for the host
    -s, --short            short host name
    -y, --yp, --nis        NIS/YP domain name

Description:
   This command can get or set the host name or the NIS domain name. You can
   also get the DNS domain or the FQDN (fully qualified domain name).
   Unless you are using bind or NIS for host lookups you can change the
   FQDN (Fully Qualified Domain Name) and the DNS domain name (which is
   part of the FQDN) in the /etc/hosts file.
`;

/** ncurses `clear` usage() (progs/clear.c, as Debian 12's ncurses 6.4 prints it), after getopt's complaint: stderr, exit 1. */
export const CLEAR_USAGE = `Usage: clear [options]

Options:
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback
`;

/**
 * sudo 1.9.15p5 (Amazon Linux 2023's) display_usage(): src/sudo_usage.h.in's vectors with configure's
 * SELINUX_USAGE, each continuation indented strlen("sudo") + 8. usage() prints it on stderr, exit 1.
 */
export const SUDO_USAGE = `usage: sudo -h | -K | -k | -V
usage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]
usage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user]
            [-u user] [command [arg ...]]
usage: sudo [-ABbEHkNnPS] [-r role] [-t type] [-C num] [-D directory]
            [-g group] [-h host] [-p prompt] [-R directory] [-T timeout]
            [-u user] [VAR=value] [-i | -s] [command [arg ...]]
usage: sudo -e [-ABkNnS] [-r role] [-t type] [-C num] [-D directory]
            [-g group] [-h host] [-p prompt] [-R directory] [-T timeout]
            [-u user] file ...
`;

/**
 * `sudo -V` as a user other than root sees it (sudo 1.9.15p5, tag SUDO_1_9_15p5): src/sudo.c
 * prints "Sudo version" (the configure options only for root), then each plugin of the default
 * sudo.conf its version: sudoers_policy_version (plugins/sudoers/policy.c, with the grammar
 * version SUDOERS_GRAMMAR_VERSION 50 of sudoers_version.h; its paths and defaults only for root),
 * sudoers_io_version (iolog.c, which sudoers_io_open lets through with no command) and
 * sudoers_audit_version (audit.c). All on stdout, exit 0.
 */
export const SUDO_VERSION = `Sudo version 1.9.15p5
Sudoers policy plugin version 1.9.15p5
Sudoers file grammar version 50
Sudoers I/O plugin version 1.9.15p5
Sudoers audit plugin version 1.9.15p5
`;

/**
 * sudo 1.9.15p5 help() (src/parse_args.c): the title, SUDO_USAGE, then the options through sudo_lbuf
 * at indent 32 and 80 columns, SELinux's -r/-t included; stdout, exit 0. The option lines were
 * checked against Debian 12's sudo 1.9.13p3 `sudo -h` (same strings and wrapping; 1.9.15 changed
 * only how the usage block is wrapped, and fixed the width at 80).
 */
export const SUDO_HELP = `sudo - execute a command as another user

${SUDO_USAGE}
Options:
  -A, --askpass                 use a helper program for password prompting
  -b, --background              run command in the background
  -B, --bell                    ring bell when prompting
  -C, --close-from=num          close all file descriptors >= num
  -D, --chdir=directory         change the working directory before running
                                command
  -E, --preserve-env            preserve user environment when running command
      --preserve-env=list       preserve specific environment variables
  -e, --edit                    edit files instead of running a command
  -g, --group=group             run command as the specified group name or ID
  -H, --set-home                set HOME variable to target user's home dir
  -h, --help                    display help message and exit
  -h, --host=host               run command on host (if supported by plugin)
  -i, --login                   run login shell as the target user; a command
                                may also be specified
  -K, --remove-timestamp        remove timestamp file completely
  -k, --reset-timestamp         invalidate timestamp file
  -l, --list                    list user's privileges or check a specific
                                command; use twice for longer format
  -n, --non-interactive         non-interactive mode, no prompts are used
  -P, --preserve-groups         preserve group vector instead of setting to
                                target's
  -p, --prompt=prompt           use the specified password prompt
  -R, --chroot=directory        change the root directory before running command
  -r, --role=role               create SELinux security context with specified
                                role
  -S, --stdin                   read password from standard input
  -s, --shell                   run shell as the target user; a command may
                                also be specified
  -t, --type=type               create SELinux security context with specified
                                type
  -T, --command-timeout=timeout terminate command after the specified time limit
  -U, --other-user=user         in list mode, display privileges for user
  -u, --user=user               run command (or edit file) as specified user
                                name or ID
  -V, --version                 display version information and exit
  -v, --validate                update user's timestamp without running a
                                command
  --                            stop processing command line arguments
`;

/**
 * GNU which 2.21 (Amazon Linux 2023's) print_usage() (which.c at tag V2_21). progname is argv[0]:
 * "/usr/bin/which", as the which2.sh profile function that wraps it on Amazon Linux runs it (and as
 * the lab's `which` names itself in "no X in (…)"). `--help`: stdout, exit 0; no COMMAND: stderr,
 * exit 255 (return -1).
 */
export const WHICH_HELP = `Usage: /usr/bin/which [options] [--] COMMAND [...]
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

/** GNU which 2.21 print_version() (`--version`, `-v`, `-V`): stdout, exit 0. */
export const WHICH_VERSION = `GNU which v2.21, Copyright (C) 1999 - 2015 Carlo Wood.
GNU which comes with ABSOLUTELY NO WARRANTY;
This program is free software; your freedom to use, change
and distribute this program is protected by the GPL.
`;
