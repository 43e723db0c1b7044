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

/**
 * man-db's `man --help` (argp's layout at 80 columns): the text of man-db 2.11.2 as Debian prints
 * it, with the browser Fedora's and so Amazon Linux's build names (`--with-browser=elinks` in
 * their man-db.spec) where Debian's says www-browser. AL2023 ships man-db 2.9; man-db's NEWS adds
 * or drops no option between 2.9.3 and 2.11.2.
 */
export const MAN_HELP = `Usage: man [OPTION...] [SECTION] PAGE...

  -C, --config-file=FILE     use this user configuration file
  -d, --debug                emit debugging messages
  -D, --default              reset all options to their default values
      --warnings[=WARNINGS]  enable warnings from groff

 Main modes of operation:
  -f, --whatis               equivalent to whatis
  -k, --apropos              equivalent to apropos
  -K, --global-apropos       search for text in all pages
  -l, --local-file           interpret PAGE argument(s) as local filename(s)
  -w, --where, --path, --location
                             print physical location of man page(s)
  -W, --where-cat, --location-cat
                             print physical location of cat file(s)

  -c, --catman               used by catman to reformat out of date cat pages
  -R, --recode=ENCODING      output source page encoded in ENCODING

 Finding manual pages:
  -L, --locale=LOCALE        define the locale for this particular man search
  -m, --systems=SYSTEM       use manual pages from other systems
  -M, --manpath=PATH         set search path for manual pages to PATH

  -S, -s, --sections=LIST    use colon separated section list

  -e, --extension=EXTENSION  limit search to extension type EXTENSION

  -i, --ignore-case          look for pages case-insensitively (default)
  -I, --match-case           look for pages case-sensitively

      --regex                show all pages matching regex
      --wildcard             show all pages matching wildcard

      --names-only           make --regex and --wildcard match page names only,
                             not descriptions

  -a, --all                  find all matching manual pages
  -u, --update               force a cache consistency check

      --no-subpages          don't try subpages, e.g. 'man foo bar' => 'man
                             foo-bar'

 Controlling formatted output:
  -P, --pager=PAGER          use program PAGER to display output
  -r, --prompt=STRING        provide the \`less' pager with a prompt

  -7, --ascii                display ASCII translation of certain latin1 chars
  -E, --encoding=ENCODING    use selected output encoding
      --no-hyphenation, --nh turn off hyphenation
      --no-justification,                              --nj   turn off justification
  -p, --preprocessor=STRING  STRING indicates which preprocessors to run:
                             e - [n]eqn, p - pic, t - tbl,
g - grap, r - refer, v - vgrind

  -t, --troff                use groff to format pages
  -T, --troff-device[=DEVICE]   use groff with selected device

  -H, --html[=BROWSER]       use elinks or BROWSER to display HTML output
  -X, --gxditview[=RESOLUTION]   use groff and display through gxditview
                             (X11):
                             -X = -TX75, -X100 = -TX100, -X100-12 = -TX100-12
  -Z, --ditroff              use groff and force it to produce ditroff

  -?, --help                 give this help list
      --usage                give a short usage message
  -V, --version              print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.

Report bugs to cjwatson@debian.org.
`;

/** `man --usage` (argp's short usage), from the same build. */
export const MAN_USAGE = `Usage: man [-dDfkKlwWciIau7tZ?V] [-C FILE] [-R ENCODING] [-L LOCALE]
            [-m SYSTEM] [-M PATH] [-S LIST] [-s LIST] [-e EXTENSION]
            [-P PAGER] [-r STRING] [-E ENCODING] [-p STRING] [-T[DEVICE]]
            [-H[BROWSER]] [-X[RESOLUTION]] [--config-file=FILE] [--debug]
            [--default] [--warnings[=WARNINGS]] [--whatis] [--apropos]
            [--global-apropos] [--local-file] [--where] [--path] [--location]
            [--where-cat] [--location-cat] [--catman] [--recode=ENCODING]
            [--locale=LOCALE] [--systems=SYSTEM] [--manpath=PATH]
            [--sections=LIST] [--extension=EXTENSION] [--ignore-case]
            [--match-case] [--regex] [--wildcard] [--names-only] [--all]
            [--update] [--no-subpages] [--pager=PAGER] [--prompt=STRING]
            [--ascii] [--encoding=ENCODING] [--no-hyphenation] [--nh]
            [--no-justification] [--nj] [--preprocessor=STRING] [--troff]
            [--troff-device[=DEVICE]] [--html[=BROWSER]]
            [--gxditview[=RESOLUTION]] [--ditroff] [--help] [--usage]
            [--version] [SECTION] PAGE...
`;
