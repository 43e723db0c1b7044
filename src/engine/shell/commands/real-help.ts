/**
 * The real tools' own help and usage texts, generated from their sources at the versions the lab
 * names and checked against Debian 12's binaries where those differ only by the versions' diffs:
 * ethtool 6.7 (ethtool.c show_usage over args[]), sysstat 12.5.4 sar (sar.c display_help, usage),
 * BIND 9.18.33 dig (bin/dig/dig.c help), DPDK 23.11 (lib/eal eal_usage, app/test-pmd/parameters.c
 * usage), sudo 1.9.15p5 (parse_args.c help, sudo_usage.h.in), GNU which 2.21 (which.c print_usage).
 * Each tool adds a line saying what the lab simulates (labNote); the rest is the tool's.
 */

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

/** ethtool 6.7 `-h`/`--help` (show_usage over ethtool.c's args[] table at the 6.7 release, and netlink/monitor.c's nl_monitor_usage): stdout, exit 0. */
export const ETHTOOL_HELP = `ethtool version 6.7
Usage:
        ethtool [ FLAGS ]  DEVNAME\tDisplay standard information about device
        ethtool [ FLAGS ] -s|--change DEVNAME\tChange generic options
\t\t[ speed %d ]
\t\t[ lanes %d ]
\t\t[ duplex half|full ]
\t\t[ port tp|aui|bnc|mii|fibre|da ]
\t\t[ mdix auto|on|off ]
\t\t[ autoneg on|off ]
\t\t[ advertise %x[/%x] | mode on|off ... [--] ]
\t\t[ phyad %d ]
\t\t[ xcvr internal|external ]
\t\t[ wol %d[/%d] | p|u|m|b|a|g|s|f|d... ]
\t\t[ sopass %x:%x:%x:%x:%x:%x ]
\t\t[ msglvl %d[/%d] | type on|off ... [--] ]
\t\t[ master-slave preferred-master|preferred-slave|forced-master|forced-slave ]
        ethtool [ FLAGS ] -a|--show-pause DEVNAME\tShow pause options
\t\t[ --src aggregate | emac | pmac ]
        ethtool [ FLAGS ] -A|--pause DEVNAME\tSet pause options
\t\t[ autoneg on|off ]
\t\t[ rx on|off ]
\t\t[ tx on|off ]
        ethtool [ FLAGS ] -c|--show-coalesce DEVNAME\tShow coalesce options
        ethtool [ FLAGS ] -C|--coalesce DEVNAME\tSet coalesce options
\t\t[adaptive-rx on|off]
\t\t[adaptive-tx on|off]
\t\t[rx-usecs N]
\t\t[rx-frames N]
\t\t[rx-usecs-irq N]
\t\t[rx-frames-irq N]
\t\t[tx-usecs N]
\t\t[tx-frames N]
\t\t[tx-usecs-irq N]
\t\t[tx-frames-irq N]
\t\t[stats-block-usecs N]
\t\t[pkt-rate-low N]
\t\t[rx-usecs-low N]
\t\t[rx-frames-low N]
\t\t[tx-usecs-low N]
\t\t[tx-frames-low N]
\t\t[pkt-rate-high N]
\t\t[rx-usecs-high N]
\t\t[rx-frames-high N]
\t\t[tx-usecs-high N]
\t\t[tx-frames-high N]
\t\t[sample-interval N]
\t\t[cqe-mode-rx on|off]
\t\t[cqe-mode-tx on|off]
\t\t[tx-aggr-max-bytes N]
\t\t[tx-aggr-max-frames N]
\t\t[tx-aggr-time-usecs N]
        ethtool [ FLAGS ] -g|--show-ring DEVNAME\tQuery RX/TX ring parameters
        ethtool [ FLAGS ] -G|--set-ring DEVNAME\tSet RX/TX ring parameters
\t\t[ rx N ]
\t\t[ rx-mini N ]
\t\t[ rx-jumbo N ]
\t\t[ tx N ]
\t\t[ rx-buf-len N ]
\t\t[ tcp-data-split auto|on|off ]
\t\t[ cqe-size N ]
\t\t[ tx-push on|off ]
\t\t[ rx-push on|off ]
\t\t[ tx-push-buf-len N]
        ethtool [ FLAGS ] -k|--show-features|--show-offload DEVNAME\tGet state of protocol offload and other features
        ethtool [ FLAGS ] -K|--features|--offload DEVNAME\tSet protocol offload and other features
\t\tFEATURE on|off ...
        ethtool [ FLAGS ] -i|--driver DEVNAME\tShow driver information
        ethtool [ FLAGS ] -d|--register-dump DEVNAME\tDo a register dump
\t\t[ raw on|off ]
\t\t[ file FILENAME ]
        ethtool [ FLAGS ] -e|--eeprom-dump DEVNAME\tDo a EEPROM dump
\t\t[ raw on|off ]
\t\t[ offset N ]
\t\t[ length N ]
        ethtool [ FLAGS ] -E|--change-eeprom DEVNAME\tChange bytes in device EEPROM
\t\t[ magic N ]
\t\t[ offset N ]
\t\t[ length N ]
\t\t[ value N ]
        ethtool [ FLAGS ] -r|--negotiate DEVNAME\tRestart N-WAY negotiation
        ethtool [ FLAGS ] -p|--identify DEVNAME\tShow visible port identification (e.g. blinking)
\t\t[ TIME-IN-SECONDS ]
        ethtool [ FLAGS ] -t|--test DEVNAME\tExecute adapter self test
\t\t[ online | offline | external_lb ]
        ethtool [ FLAGS ] -S|--statistics DEVNAME\tShow adapter statistics
\t\t[ --all-groups | --groups [eth-phy] [eth-mac] [eth-ctrl] [rmon] ]
\t\t[ --src aggregate | emac | pmac ]
        ethtool [ FLAGS ] --phy-statistics DEVNAME\tShow phy statistics
        ethtool [ FLAGS ] -n|-u|--show-nfc|--show-ntuple DEVNAME\tShow Rx network flow classification options or rules
\t\t[ rx-flow-hash tcp4|udp4|ah4|esp4|sctp4|tcp6|udp6|ah6|esp6|sctp6 [context %d] |
\t\t  rule %d ]
        ethtool [ FLAGS ] -N|-U|--config-nfc|--config-ntuple DEVNAME\tConfigure Rx network flow classification options or rules
\t\trx-flow-hash tcp4|udp4|ah4|esp4|sctp4|tcp6|udp6|ah6|esp6|sctp6 m|v|t|s|d|f|n|r... [context %d] |
\t\tflow-type ether|ip4|tcp4|udp4|sctp4|ah4|esp4|ip6|tcp6|udp6|ah6|esp6|sctp6
\t\t\t[ src %x:%x:%x:%x:%x:%x [m %x:%x:%x:%x:%x:%x] ]
\t\t\t[ dst %x:%x:%x:%x:%x:%x [m %x:%x:%x:%x:%x:%x] ]
\t\t\t[ proto %d [m %x] ]
\t\t\t[ src-ip IP-ADDRESS [m IP-ADDRESS] ]
\t\t\t[ dst-ip IP-ADDRESS [m IP-ADDRESS] ]
\t\t\t[ tos %d [m %x] ]
\t\t\t[ tclass %d [m %x] ]
\t\t\t[ l4proto %d [m %x] ]
\t\t\t[ src-port %d [m %x] ]
\t\t\t[ dst-port %d [m %x] ]
\t\t\t[ spi %d [m %x] ]
\t\t\t[ vlan-etype %x [m %x] ]
\t\t\t[ vlan %x [m %x] ]
\t\t\t[ user-def %x [m %x] ]
\t\t\t[ dst-mac %x:%x:%x:%x:%x:%x [m %x:%x:%x:%x:%x:%x] ]
\t\t\t[ action %d ] | [ vf %d queue %d ]
\t\t\t[ context %d ]
\t\t\t[ loc %d ] |
\t\tdelete %d
        ethtool [ FLAGS ] -T|--show-time-stamping DEVNAME\tShow time stamping capabilities
        ethtool [ FLAGS ] -x|--show-rxfh-indir|--show-rxfh DEVNAME\tShow Rx flow hash indirection table and/or RSS hash key
\t\t[ context %d ]
        ethtool [ FLAGS ] -X|--set-rxfh-indir|--rxfh DEVNAME\tSet Rx flow hash indirection table and/or RSS hash key
\t\t[ context %d|new ]
\t\t[ equal N | weight W0 W1 ... | default ]
\t\t[ hkey %x:%x:%x:%x:%x:.... ]
\t\t[ hfunc FUNC ]
\t\t[ delete ]
        ethtool [ FLAGS ] -f|--flash DEVNAME\tFlash firmware image from the specified file to a region on the device
\t\tFILENAME [ REGION-NUMBER-TO-FLASH ]
        ethtool [ FLAGS ] -P|--show-permaddr DEVNAME\tShow permanent hardware address
        ethtool [ FLAGS ] -w|--get-dump DEVNAME\tGet dump flag, data
\t\t[ data FILENAME ]
        ethtool [ FLAGS ] -W|--set-dump DEVNAME\tSet dump flag of the device
\t\tN
        ethtool [ FLAGS ] -l|--show-channels DEVNAME\tQuery Channels
        ethtool [ FLAGS ] -L|--set-channels DEVNAME\tSet Channels
\t\t[ rx N ]
\t\t[ tx N ]
\t\t[ other N ]
\t\t[ combined N ]
        ethtool [ FLAGS ] --show-priv-flags DEVNAME\tQuery private flags
        ethtool [ FLAGS ] --set-priv-flags DEVNAME\tSet private flags
\t\tFLAG on|off ...
        ethtool [ FLAGS ] -m|--dump-module-eeprom|--module-info DEVNAME\tQuery/Decode Module EEPROM information and optical diagnostics if available
\t\t[ raw on|off ]
\t\t[ hex on|off ]
\t\t[ offset N ]
\t\t[ length N ]
\t\t[ page N ]
\t\t[ bank N ]
\t\t[ i2c N ]
        ethtool [ FLAGS ] --show-eee DEVNAME\tShow EEE settings
        ethtool [ FLAGS ] --set-eee DEVNAME\tSet EEE settings
\t\t[ eee on|off ]
\t\t[ advertise %x ]
\t\t[ tx-lpi on|off ]
\t\t[ tx-timer %d ]
        ethtool [ FLAGS ] --set-phy-tunable DEVNAME\tSet PHY tunable
\t\t[ downshift on|off [count N] ]
\t\t[ fast-link-down on|off [msecs N] ]
\t\t[ energy-detect-power-down on|off [msecs N] ]
        ethtool [ FLAGS ] --get-phy-tunable DEVNAME\tGet PHY tunable
\t\t[ downshift ]
\t\t[ fast-link-down ]
\t\t[ energy-detect-power-down ]
        ethtool [ FLAGS ] --get-tunable DEVNAME\tGet tunable
\t\t[ rx-copybreak ]
\t\t[ tx-copybreak ]
\t\t[ tx-buf-size ]
\t\t[ pfc-prevention-tout ]
        ethtool [ FLAGS ] --set-tunable DEVNAME\tSet tunable
\t\t[ rx-copybreak N ]
\t\t[ tx-copybreak N ]
\t\t[ tx-buf-size N ]
\t\t[ pfc-prevention-tout N ]
        ethtool [ FLAGS ] --reset DEVNAME\tReset components
\t\t[ flags %x ]
\t\t[ mgmt ]
\t\t[ mgmt-shared ]
\t\t[ irq ]
\t\t[ irq-shared ]
\t\t[ dma ]
\t\t[ dma-shared ]
\t\t[ filter ]
\t\t[ filter-shared ]
\t\t[ offload ]
\t\t[ offload-shared ]
\t\t[ mac ]
\t\t[ mac-shared ]
\t\t[ phy ]
\t\t[ phy-shared ]
\t\t[ ram ]
\t\t[ ram-shared ]
\t\t[ ap ]
\t\t[ ap-shared ]
\t\t[ dedicated ]
\t\t[ all ]
        ethtool [ FLAGS ] --show-fec DEVNAME\tShow FEC settings
        ethtool [ FLAGS ] --set-fec DEVNAME\tSet FEC settings
\t\t[ encoding auto|off|rs|baser|llrs [...] ]
        ethtool [ FLAGS ] -Q|--per-queue DEVNAME\tApply per-queue command. 
The supported sub commands include --show-coalesce, --coalesce\t\t[queue_mask %x] SUB_COMMAND
        ethtool [ FLAGS ] --cable-test DEVNAME\tPerform a cable test
        ethtool [ FLAGS ] --cable-test-tdr DEVNAME\tPrint cable test time domain reflectrometery data
\t\t[ first N ]
\t\t[ last N ]
\t\t[ step N ]
\t\t[ pair N ]
        ethtool [ FLAGS ] --show-tunnels DEVNAME\tShow NIC tunnel offload information
        ethtool [ FLAGS ] --show-module DEVNAME\tShow transceiver module settings
        ethtool [ FLAGS ] --set-module DEVNAME\tSet transceiver module settings
\t\t[ power-mode-policy high|auto ]
        ethtool [ FLAGS ] --get-plca-cfg DEVNAME\tGet PLCA configuration
        ethtool [ FLAGS ] --set-plca-cfg DEVNAME\tSet PLCA configuration
\t\t[ enable on|off ]
\t\t[ node-id N ]
\t\t[ node-cnt N ]
\t\t[ to-tmr N ]
\t\t[ burst-cnt N ]
\t\t[ burst-tmr N ]
        ethtool [ FLAGS ] --get-plca-status DEVNAME\tGet PLCA status information
        ethtool [ FLAGS ] --show-mm DEVNAME\tShow MAC merge layer state
        ethtool [ FLAGS ] --set-mm DEVNAME\tSet MAC merge layer parameters
\t\t[ verify-enabled on|off ]
\t\t[ verify-time N ]
\t\t[ tx-enabled on|off ]
\t\t[ pmac-enabled on|off ]
\t\t[ tx-min-frag-size 60-252 ]
        ethtool [ FLAGS ] --show-pse DEVNAME\tShow settings for Power Sourcing Equipment
        ethtool [ FLAGS ] --set-pse DEVNAME\tSet Power Sourcing Equipment settings
\t\t[ podl-pse-admin-control enable|disable ]
        ethtool [ FLAGS ] -h|--help \t\tShow this help
        ethtool [ FLAGS ] --version \t\tShow version number
        ethtool --monitor               Show kernel notifications
                ( [ --all ]
                  | -s | --change
                  | -k | --show-features | --show-offload | -K | --features | --offload
                  | --show-priv-flags | --set-priv-flags
                  | -g | --show-ring | -G | --set-ring
                  | -l | --show-channels | -L | --set-channels
                  | -c | --show-coalesce | -C | --coalesce
                  | -a | --show-pause | -A | --pause
                  | --show-eee | --set-eee
                  | --cable-test
                  | --cable-test-tdr
                  | --show-module | --set-module )
                [ DEVNAME | * ]

FLAGS:
\t--debug MASK\tturn on debugging messages
\t--json\t\tenable JSON output format (not supported by all commands)
\t-I|--include-statistics\t\trequest device statistics related to the command (not supported by all commands)
`;

/** sysstat 12.5.4 `sar --help` (sar.c display_help): stdout, exit 0. */
export const SAR_HELP = `Usage: sar [ options ] [ <interval> [ <count> ] ]
Main options and reports (report name between square brackets):
\t-B\tPaging statistics [A_PAGE]
\t-b\tI/O and transfer rate statistics [A_IO]
\t-d\tBlock devices statistics [A_DISK]
\t-F [ MOUNT ]
\t\tFilesystems statistics [A_FS]
\t-H\tHugepages utilization statistics [A_HUGE]
\t-I { <int_list> | SUM | ALL }
\t\tInterrupts statistics [A_IRQ]
\t-m { <keyword> [,...] | ALL }
\t\tPower management statistics [A_PWR_...]
\t\tKeywords are:
\t\tCPU\tCPU instantaneous clock frequency
\t\tFAN\tFans speed
\t\tFREQ\tCPU average clock frequency
\t\tIN\tVoltage inputs
\t\tTEMP\tDevices temperature
\t\tUSB\tUSB devices plugged into the system
\t-n { <keyword> [,...] | ALL }
\t\tNetwork statistics [A_NET_...]
\t\tKeywords are:
\t\tDEV\tNetwork interfaces
\t\tEDEV\tNetwork interfaces (errors)
\t\tNFS\tNFS client
\t\tNFSD\tNFS server
\t\tSOCK\tSockets\t(v4)
\t\tIP\tIP traffic\t(v4)
\t\tEIP\tIP traffic\t(v4) (errors)
\t\tICMP\tICMP traffic\t(v4)
\t\tEICMP\tICMP traffic\t(v4) (errors)
\t\tTCP\tTCP traffic\t(v4)
\t\tETCP\tTCP traffic\t(v4) (errors)
\t\tUDP\tUDP traffic\t(v4)
\t\tSOCK6\tSockets\t(v6)
\t\tIP6\tIP traffic\t(v6)
\t\tEIP6\tIP traffic\t(v6) (errors)
\t\tICMP6\tICMP traffic\t(v6)
\t\tEICMP6\tICMP traffic\t(v6) (errors)
\t\tUDP6\tUDP traffic\t(v6)
\t\tFC\tFibre channel HBAs
\t\tSOFT\tSoftware-based network processing
\t-q [ <keyword> [,...] | PSI | ALL ]
\t\tSystem load and pressure-stall statistics
\t\tKeywords are:
\t\tLOAD\tQueue length and load average statistics [A_QUEUE]
\t\tCPU\tPressure-stall CPU statistics [A_PSI_CPU]
\t\tIO\tPressure-stall I/O statistics [A_PSI_IO]
\t\tMEM\tPressure-stall memory statistics [A_PSI_MEM]
\t-r [ ALL ]
\t\tMemory utilization statistics [A_MEMORY]
\t-S\tSwap space utilization statistics [A_MEMORY]
\t-u [ ALL ]
\t\tCPU utilization statistics [A_CPU]
\t-v\tKernel tables statistics [A_KTABLES]
\t-W\tSwapping statistics [A_SWAP]
\t-w\tTask creation and system switching statistics [A_PCSW]
\t-y\tTTY devices statistics [A_SERIAL]
`;

/** sysstat 12.5.4 sar.c usage(): stderr, exit 1 (a bad option, count or keyword). */
export const SAR_USAGE = `Usage: sar [ options ] [ <interval> [ <count> ] ]
Options are:
[ -A ] [ -B ] [ -b ] [ -C ] [ -D ] [ -d ] [ -F [ MOUNT ] ] [ -H ] [ -h ]
[ -p ] [ -r [ ALL ] ] [ -S ] [ -t ] [ -u [ ALL ] ] [ -V ]
[ -v ] [ -W ] [ -w ] [ -y ] [ -z ]
[ -I { <int_list> | SUM | ALL } ] [ -P { <cpu_list> | ALL } ]
[ -m { <keyword> [,...] | ALL } ] [ -n { <keyword> [,...] | ALL } ]
[ -q [ <keyword> [,...] | ALL ] ]
[ --dev=<dev_list> ] [ --fs=<fs_list> ] [ --iface=<iface_list> ]
[ --dec={ 0 | 1 | 2 } ] [ --help ] [ --human ] [ --pretty ] [ --sadc ]
[ -j { SID | ID | LABEL | PATH | UUID | ... } ]
[ -f [ <filename> ] | -o [ <filename> ] | -[0-9]+ ]
[ -i <interval> ] [ -s [ <hh:mm[:ss]> ] ] [ -e [ <hh:mm[:ss]> ] ]
`;

/** BIND 9.18.33 `dig -h` (bin/dig/dig.c help(), with libidn2): stdout, exit 0. */
export const DIG_HELP = `Usage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}
            {global-d-opt} host [@local-server] {local-d-opt}
            [ host [@local-server] {local-d-opt} [...]]
Where:  domain\t  is in the Domain Name System
        q-class  is one of (in,hs,ch,...) [default: in]
        q-type   is one of (a,any,mx,ns,soa,hinfo,axfr,txt,...) [default:a]
                 (Use ixfr=version for type ixfr)
        q-opt    is one of:
                 -4                  (use IPv4 query transport only)
                 -6                  (use IPv6 query transport only)
                 -b address[#port]   (bind to source address/port)
                 -c class            (specify query class)
                 -f filename         (batch mode)
                 -k keyfile          (specify tsig key file)
                 -m                  (enable memory usage debugging)
                 -p port             (specify port number)
                 -q name             (specify query name)
                 -r                  (do not read ~/.digrc)
                 -t type             (specify query type)
                 -u                  (display times in usec instead of msec)
                 -x dot-notation     (shortcut for reverse lookups)
                 -y [hmac:]name:key  (specify named base64 tsig key)
        d-opt    is of the form +keyword[=value], where keyword is:
                 +[no]aaflag         (Set AA flag in query (+[no]aaflag))
                 +[no]aaonly         (Set AA flag in query (+[no]aaflag))
                 +[no]additional     (Control display of additional section)
                 +[no]adflag         (Set AD flag in query (default on))
                 +[no]all            (Set or clear all display flags)
                 +[no]answer         (Control display of answer section)
                 +[no]authority      (Control display of authority section)
                 +[no]badcookie      (Retry BADCOOKIE responses)
                 +[no]besteffort     (Try to parse even illegal messages)
                 +bufsize[=###]      (Set EDNS0 Max UDP packet size)
                 +[no]cdflag         (Set checking disabled flag in query)
                 +[no]class          (Control display of class in records)
                 +[no]cmd            (Control display of command line -
                                      global option)
                 +[no]comments       (Control display of packet header
                                      and section name comments)
                 +[no]cookie         (Add a COOKIE option to the request)
                 +[no]crypto         (Control display of cryptographic
                                      fields in records)
                 +[no]defname        (Use search list (+[no]search))
                 +[no]dns64prefix    (Get the DNS64 prefixes from ipv4only.arpa)
                 +[no]dnssec         (Request DNSSEC records)
                 +domain=###         (Set default domainname)
                 +[no]edns[=###]     (Set EDNS version) [0]
                 +ednsflags=###      (Set EDNS flag bits)
                 +[no]ednsnegotiation (Set EDNS version negotiation)
                 +ednsopt=###[:value] (Send specified EDNS option)
                 +noednsopt          (Clear list of +ednsopt options)
                 +[no]expandaaaa     (Expand AAAA records)
                 +[no]expire         (Request time to expire)
                 +[no]fail           (Don't try next server on SERVFAIL)
                 +[no]header-only    (Send query without a question section)
                 +[no]https[=###]    (DNS-over-HTTPS mode) [/]
                 +[no]https-get      (Use GET instead of default POST method while using HTTPS)
                 +[no]http-plain[=###]    (DNS over plain HTTP mode) [/]
                 +[no]http-plain-get      (Use GET instead of default POST method while using plain HTTP)
                 +[no]identify       (ID responders in short answers)
                 +[no]idnin          (Parse IDN names [default=on on tty])
                 +[no]idnout         (Convert IDN response [default=on on tty])
                 +[no]ignore         (Don't revert to TCP for TC responses.)
                 +[no]keepalive      (Request EDNS TCP keepalive)
                 +[no]keepopen       (Keep the TCP socket open between queries)
                 +[no]multiline      (Print records in an expanded format)
                 +ndots=###          (Set search NDOTS value)
                 +[no]nsid           (Request Name Server ID)
                 +[no]nssearch       (Search all authoritative nameservers)
                 +[no]onesoa         (AXFR prints only one soa record)
                 +[no]opcode=###     (Set the opcode of the request)
                 +padding=###        (Set padding block size [0])
                 +qid=###            (Specify the query ID to use when sending queries)
                 +[no]qr             (Print question before sending)
                 +[no]question       (Control display of question section)
                 +[no]raflag         (Set RA flag in query (+[no]raflag))
                 +[no]rdflag         (Recursive mode (+[no]recurse))
                 +[no]recurse        (Recursive mode (+[no]rdflag))
                 +retry=###          (Set number of UDP retries) [2]
                 +[no]rrcomments     (Control display of per-record comments)
                 +[no]search         (Set whether to use searchlist)
                 +[no]short          (Display nothing except short
                                      form of answers - global option)
                 +[no]showbadcookie  (Show BADCOOKIE message)
                 +[no]showsearch     (Search with intermediate results)
                 +[no]split=##       (Split hex/base64 fields into chunks)
                 +[no]stats          (Control display of statistics)
                 +subnet=addr        (Set edns-client-subnet option)
                 +[no]tcflag         (Set TC flag in query (+[no]tcflag))
                 +[no]tcp            (TCP mode (+[no]vc))
                 +timeout=###        (Set query timeout) [5]
                 +[no]tls            (DNS-over-TLS mode)
                 +[no]tls-ca[=file]  (Enable remote server's TLS certificate validation)
                 +[no]tls-hostname=hostname (Explicitly set the expected TLS hostname)
                 +[no]tls-certfile=file (Load client TLS certificate chain from file)
                 +[no]tls-keyfile=file (Load client TLS private key from file)
                 +[no]trace          (Trace delegation down from root [+dnssec])
                 +tries=###          (Set number of UDP attempts) [3]
                 +[no]ttlid          (Control display of ttls in records)
                 +[no]ttlunits       (Display TTLs in human-readable units)
                 +[no]unknownformat  (Print RDATA in RFC 3597 "unknown" format)
                 +[no]vc             (TCP mode (+[no]tcp))
                 +[no]yaml           (Present the results as YAML)
                 +[no]zflag          (Set Z flag in query)
        global d-opts and servers (before host name) affect all queries.
        local d-opts and servers (after host name) affect only that lookup.
        -h                           (print help and exit)
        -v                           (print version and exit)
`;

/** DPDK 23.11 EAL usage (lib/eal/linux/eal.c eal_usage + eal_common_usage, RTE_MAX_LCORE 128), for program dpdk-testpmd: stdout. */
export const EAL_USAGE = `
Usage: dpdk-testpmd [options]

EAL common options:
  -c COREMASK         Hexadecimal bitmask of cores to run on
  -l CORELIST         List of cores to run on
                      The argument format is <c1>[-c2][,c3[-c4],...]
                      where c1, c2, etc are core indexes between 0 and 128
  --lcores COREMAP    Map lcore set to physical cpu set
                      The argument format is
                            '<lcores[@cpus]>[<,lcores[@cpus]>...]'
                      lcores and cpus list are grouped by '(' and ')'
                      Within the group, '-' is used for range separator,
                      ',' is used for single number separator.
                      '( )' can be omitted for single element group,
                      '@' can be omitted if cpus and lcores have the same value
  -s SERVICE COREMASK Hexadecimal bitmask of cores to be used as service cores
  --main-lcore ID     Core ID that is used as main
  --mbuf-pool-ops-name Pool ops name for mbuf to use
  -n CHANNELS         Number of memory channels
  -m MB               Memory to allocate (see also --socket-mem)
  -r RANKS            Force number of memory ranks (don't detect)
  -b, --block         Add a device to the blocked list.
                      Prevent EAL from using this device. The argument
                      format for PCI devices is <domain:bus:devid.func>.
  -a, --allow         Add a device to the allow list.
                      Only use the specified devices. The argument format
                      for PCI devices is <[domain:]bus:devid.func>.
                      This option can be present several times.
                      [NOTE: allow cannot be used with block option]
  --vdev              Add a virtual device.
                      The argument format is <driver><id>[,key=val,...]
                      (ex: --vdev=net_pcap0,iface=eth2).
  --iova-mode   Set IOVA mode. 'pa' for IOVA_PA
                      'va' for IOVA_VA
  -d LIB.so|DIR       Add a driver or driver directory
                      (can be used multiple times)
  --vmware-tsc-map    Use VMware TSC map instead of native RDTSC
  --proc-type         Type of this process (primary|secondary|auto)
  --syslog            Set syslog facility
  --log-level=<level> Set global log level
  --log-level=<type-match>:<level>
                      Set specific log level
  --log-level=help    Show log types and levels
  --trace=<regex-match>
                      Enable trace based on regular expression trace name.
                      By default, the trace is disabled.
\t\t      User must specify this option to enable trace.
  --trace-dir=<directory path>
                      Specify trace directory for trace output.
                      By default, trace output will created at
                      $HOME directory and parameter must be
                      specified once only.
  --trace-bufsz=<int>
                      Specify maximum size of allocated memory
                      for trace output for each thread. Valid
                      unit can be either 'B|K|M' for 'Bytes',
                      'KBytes' and 'MBytes' respectively.
                      Default is 1MB and parameter must be
                      specified once only.
  --trace-mode=<o[verwrite] | d[iscard]>
                      Specify the mode of update of trace
                      output file. Either update on a file can
                      be wrapped or discarded when file size
                      reaches its maximum limit.
                      Default mode is 'overwrite' and parameter
                      must be specified once only.
  -v                  Display version information on startup
  -h, --help          This help
  --in-memory   Operate entirely in memory. This will
                      disable secondary process support
  --base-virtaddr     Base virtual address
  --telemetry   Enable telemetry support (on by default)
  --no-telemetry   Disable telemetry support
  --force-max-simd-bitwidth Force the max SIMD bitwidth

EAL options for DEBUG use only:
  --huge-unlink[=existing|always|never]
                      When to unlink files in hugetlbfs
                      ('existing' by default, no value means 'always')
  --no-huge           Use malloc instead of hugetlbfs
  --no-pci            Disable PCI
  --no-hpet           Disable HPET
  --no-shconf         No shared config (mmap'd files)

EAL Linux options:
  --socket-mem        Memory to allocate on sockets (comma separated values)
  --socket-limit      Limit memory allocation on sockets (comma separated values)
  --huge-dir          Directory where hugetlbfs is mounted
  --file-prefix       Prefix for hugepage filenames
  --create-uio-dev    Create /dev/uioX (usually done by hotplug)
  --vfio-intr         Interrupt mode for VFIO (legacy|msi|msix)
  --vfio-vf-token     VF token (UUID) shared between SR-IOV PF and VFs
  --legacy-mem        Legacy memory mode (no dynamic allocation, contiguous segments)
  --single-file-segments Put all hugepage memory in single files
  --match-allocations Free hugepages exactly as allocated
  --huge-worker-stack[=size]
                      Allocate worker thread stacks from hugepage memory.
                      Size is in units of kbytes and defaults to system
                      thread stack size if not specified.

`;

/** DPDK 23.11 testpmd usage() (app/test-pmd/parameters.c; RTE_LIB_CMDLINE, RTE_LIB_LATENCYSTATS, RTE_MAX_ETHPORTS 32); `(1 <= N <= 1)` of --nb-cores is nb_lcores, filled in by testpmdUsage. */
export const TESTPMD_USAGE_TEMPLATE = `
Usage: dpdk-testpmd [EAL options] -- [testpmd options]

  --interactive: run in interactive mode.
  --cmdline-file: execute cli commands before startup.
  --auto-start: start forwarding on init [always when non-interactive].
  --help: display this message and quit.
  --tx-first: start forwarding sending a burst first (only if interactive is disabled).
  --stats-period=PERIOD: statistics will be shown every PERIOD seconds (only if interactive is disabled).
  --display-xstats xstat_name1[,...]: comma-separated list of extended statistics to show. Used with --stats-period specified or interactive commands that show Rx/Tx statistics (i.e. 'show port stats').
  --num-procs=N: set the total number of multi-process instances.
  --proc-id=id: set the id of the current process from multi-process instances (0 <= id < num-procs).
  --nb-cores=N: set the number of forwarding cores (1 <= N <= 1).
  --nb-ports=N: set the number of forwarding ports (1 <= N <= 1).
  --coremask=COREMASK: hexadecimal bitmask of cores running the packet forwarding test. The main lcore is reserved for command line parsing only, and cannot be masked on for packet forwarding.
  --portmask=PORTMASK: hexadecimal bitmask of ports used by the packet forwarding test.
  --portlist=PORTLIST: list of forwarding ports
  --numa: enable NUMA-aware allocation of RX/TX rings and of RX memory buffers (mbufs).
  --no-numa: disable NUMA-aware allocation.
  --port-numa-config=(port,socket)[,(port,socket)]: specify the socket on which the memory pool used by the port will be allocated.
  --ring-numa-config=(port,flag,socket)[,(port,flag,socket)]: specify the socket on which the TX/RX rings for the port will be allocated (flag: 1 for RX; 2 for TX; 3 for RX and TX).
  --socket-num=N: set socket from which all memory is allocated in NUMA mode.
  --mbuf-size=N,[N1[,..Nn]: set the data size of mbuf to N bytes. If multiple numbers are specified the extra pools will be created to receive packets based on the features supported, like packet split, multi-rx-mempool.
  --total-num-mbufs=N: set the number of mbufs to be allocated in mbuf pools.
  --max-pkt-len=N: set the maximum size of packet to N bytes.
  --max-lro-pkt-size=N: set the maximum LRO aggregated packet size to N bytes.
  --eth-peers-configfile=name: config file with ethernet addresses of peer ports.
  --eth-peer=X,M:M:M:M:M:M: set the MAC address of the X peer port (0 <= X < 32).
  --latencystats=N: enable latency and jitter statistics monitoring on forwarding lcore id N.
  --disable-crc-strip: disable CRC stripping by hardware.
  --enable-scatter: enable scattered Rx.
  --enable-lro: enable large receive offload.
  --enable-rx-cksum: enable rx hardware checksum offload.
  --enable-rx-timestamp: enable rx hardware timestamp offload.
  --enable-hw-vlan: enable hardware vlan.
  --enable-hw-vlan-filter: enable hardware vlan filter.
  --enable-hw-vlan-strip: enable hardware vlan strip.
  --enable-hw-vlan-extend: enable hardware vlan extend.
  --enable-hw-qinq-strip: enable hardware qinq strip.
  --enable-drop-en: enable per queue packet drop.
  --disable-rss: disable rss.
  --port-topology=<paired|chained|loop>: set port topology (paired is default).
  --forward-mode=N: set forwarding mode (N: io|mac|macswap|flowgen|rxonly|txonly|csum|icmpecho|noisy|5tswap|recycle_mbufs|shared_rxq).
  --forward-mode=5tswap: set forwarding mode to swap L2,L3,L4 for MAC, IPv4/IPv6 and TCP/UDP only.
  --rss-ip: set RSS functions to IPv4/IPv6 only .
  --rss-udp: set RSS functions to IPv4/IPv6 + UDP.
  --rss-level-inner: set RSS hash level to innermost
  --rss-level-outer: set RSS hash level to outermost
  --rxq=N: set the number of RX queues per port to N.
  --rxd=N: set the number of descriptors in RX rings to N.
  --txq=N: set the number of TX queues per port to N.
  --txd=N: set the number of descriptors in TX rings to N.
  --hairpinq=N: set the number of hairpin queues per port to N.
  --burst=N: set the number of packets per burst to N.
  --flowgen-clones=N: set the number of single packet clones to send in flowgen mode. Should be less than burst value.
  --flowgen-flows=N: set the number of flows in flowgen mode to N (1 <= N <= INT32_MAX).
  --mbcache=N: set the cache of mbuf memory pool to N.
  --rxpt=N: set prefetch threshold register of RX rings to N.
  --rxht=N: set the host threshold register of RX rings to N.
  --rxfreet=N: set the free threshold of RX descriptors to N (0 <= N < value of rxd).
  --rxwt=N: set the write-back threshold register of RX rings to N.
  --txpt=N: set the prefetch threshold register of TX rings to N.
  --txht=N: set the nhost threshold register of TX rings to N.
  --txwt=N: set the write-back threshold register of TX rings to N.
  --txfreet=N: set the transmit free threshold of TX rings to N (0 <= N <= value of txd).
  --txrst=N: set the transmit RS bit threshold of TX rings to N (0 <= N <= value of txd).
  --no-flush-rx: Don't flush RX streams before forwarding. Used mainly with PCAP drivers.
  --rxoffs=X[,Y]*: set RX segment offsets for split.
  --rxpkts=X[,Y]*: set RX segment sizes to split.
  --rxhdrs=eth[,ipv4]*: set RX segment protocol to split.
  --txpkts=X[,Y]*: set TX segment sizes or total packet length.
  --multi-rx-mempool: enable multi-rx-mempool support
  --txonly-multi-flow: generate multiple flows in txonly mode
  --tx-ip=src,dst: IP addresses in Tx-only mode
  --tx-udp=src[,dst]: UDP ports in Tx-only mode
  --eth-link-speed: force link speed.
  --rxq-share=X: number of ports per shared Rx queue groups, defaults to UINT32_MAX (1 group)
  --disable-link-check: disable check on link status when starting/stopping ports.
  --disable-device-start: do not automatically start port
  --no-lsc-interrupt: disable link status change interrupt.
  --no-rmv-interrupt: disable device removal interrupt.
  --bitrate-stats=N: set the logical core N to perform bit-rate calculation.
  --print-event <unknown|intr_lsc|queue_state|intr_reset|vf_mbox|macsec|intr_rmv|flow_aged|err_recovering|recovery_success|recovery_failed|all>: enable print of designated event or all of them.
  --mask-event <unknown|intr_lsc|queue_state|intr_reset|vf_mbox|macsec|intr_rmv|flow_aged|err_recovering|recovery_success|recovery_failed||all>: disable print of designated event or all of them.
  --flow-isolate-all: requests flow API isolated mode on all ports at initialization time.
  --disable-flow-flush: disable port flow flush when stop port.
  --tx-offloads=0xXXXXXXXX: hexadecimal bitmask of TX queue offloads
  --rx-offloads=0xXXXXXXXX: hexadecimal bitmask of RX queue offloads
  --hot-plug: enable hot plug for device.
  --vxlan-gpe-port=N: UPD port of tunnel VXLAN-GPE
  --geneve-parsed-port=N: UPD port to parse GENEVE tunnel protocol
  --mlockall: lock all memory
  --no-mlockall: do not lock all memory
  --mp-alloc <native|anon|xmem|xmemhuge>: mempool allocation method.
    native: use regular DPDK memory to create and populate mempool
    anon: use regular DPDK memory to create and anonymous memory to populate mempool
    xmem: use anonymous memory to create and populate mempool
    xmemhuge: use anonymous hugepage memory to create and populate mempool
  --noisy-forward-mode=<io|mac|macswap|5tswap>: set the sub-fwd mode, defaults to io
  --noisy-tx-sw-buffer-size=N: size of FIFO buffer
  --noisy-tx-sw-buffer-flushtime=N: flush FIFO after N ms
  --noisy-lkup-memory=N: allocate N MB of VNF memory
  --noisy-lkup-num-writes=N: do N random writes per packet
  --noisy-lkup-num-reads=N: do N random reads per packet
  --noisy-lkup-num-reads-writes=N: do N random reads and writes per packet
  --no-iova-contig: mempool memory can be IOVA non contiguous. valid only with --mp-alloc=anon
  --rx-mq-mode=0xX: hexadecimal bitmask of RX mq mode can be enabled
  --record-core-cycles: enable measurement of CPU cycles.
  --record-burst-stats: enable display of RX and TX bursts.
  --hairpin-mode=0xXX: bitmask set the hairpin port mode.
    0x10 - explicit Tx rule, 0x02 - hairpin ports paired
    0x01 - hairpin ports loop, 0x00 - hairpin port self
`;
/** `TOOL --help` of GNU grep 3.8 and coreutils 9.1 (Debian 12's binaries, en_US: no translation line): stdout, exit 0. */
export const GNU_HELP: Readonly<Record<string, string>> = {
  grep: `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -D, --devices=ACTION      how to handle devices, FIFOs and sockets;
                            ACTION is 'read' or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-from=FILE   skip files that match any file pattern from FILE
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -T, --initial-tab         make tabs line up (if needed)
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN],
      --colour[=WHEN]       use markers to highlight the matching strings;
                            WHEN is 'always', 'never', or 'auto'
  -U, --binary              do not strip CR characters at EOL (MSDOS/Windows)

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.

Report bugs to: bug-grep@gnu.org
GNU grep home page: <https://www.gnu.org/software/grep/>
General help using GNU software: <https://www.gnu.org/gethelp/>
`,
  head: `Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/head>
or available locally via: info '(coreutils) head invocation'
`,
  tail: `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
                             an absent option argument means 'descriptor'
  -F                       same as --follow=name --retry
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to output starting with line NUM
      --max-unchanged-stats=N
                           with --follow=name, reopen a FILE which has not
                             changed size after N (default 5) iterations
                             to see if it has been unlinked or renamed
                             (this is the usual case of rotated log files);
                             with inotify, this option is rarely useful
      --pid=PID            with -f, terminate after process ID, PID dies
  -q, --quiet, --silent    never output headers giving file names
      --retry              keep trying to open a file if it is inaccessible
  -s, --sleep-interval=N   with -f, sleep for approximately N seconds
                             (default 1.0) between iterations;
                             with inotify and --pid=P, check process P at
                             least once every N seconds
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

With --follow (-f), tail defaults to following the file descriptor, which
means that even if a tail'ed file is renamed, tail will continue to track
its end.  This default behavior is not desirable when you really want to
track the actual name of the file, not the file descriptor (e.g., log
rotation).  Use --follow=name in that case.  That causes tail to track the
named file in a way that accommodates renaming, removal and creation.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/tail>
or available locally via: info '(coreutils) tail invocation'
`,
  wc: `Usage: wc [OPTION]... [FILE]...
  or:  wc [OPTION]... --files0-from=F
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
      --files0-from=F    read input from the files specified by
                           NUL-terminated names in file F;
                           If F is - then read names from standard input
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help        display this help and exit
      --version     output version information and exit

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/wc>
or available locally via: info '(coreutils) wc invocation'
`,
  sort: `Usage: sort [OPTION]... [FILE]...
  or:  sort [OPTION]... --files0-from=F
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
Ordering options:

  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys.  See shuf(1)
      --random-source=FILE    get random bytes from FILE
  -r, --reverse               reverse the result of comparisons
      --sort=WORD             sort according to WORD:
                                general-numeric -g, human-numeric -h, month -M,
                                numeric -n, random -R, version -V
  -V, --version-sort          natural sort of (version) numbers within text

Other options:

      --batch-size=NMERGE   merge at most NMERGE inputs at once;
                            for more use temp files
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
      --compress-program=PROG  compress temporaries with PROG;
                              decompress them with PROG -d
      --debug               annotate the part of the line used to sort,
                              and warn about questionable usage to stderr
      --files0-from=F       read input from the files specified by
                            NUL-terminated names in file F;
                            If F is - then read names from standard input
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    use SIZE for main memory buffer
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  use DIR for temporaries, not $TMPDIR or /tmp;
                              multiple options specify multiple directories
      --parallel=N          change the number of sorts run concurrently to N
  -u, --unique              with -c, check for strict ordering;
                              without -c, output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  If neither -t nor -b is in
effect, characters in a field are counted from the beginning of the preceding
whitespace.  OPTS is one or more single-letter ordering options [bdfgiMhnRrV],
which override global ordering options for that key.  If no key is given, use
the entire line as the key.  Use --debug to diagnose incorrect key usage.

SIZE may be followed by the following multiplicative suffixes:
% 1% of memory, b 1, K 1024 (default), and so on for M, G, T, P, E, Z, Y.

*** WARNING ***
The locale specified by the environment affects sort order.
Set LC_ALL=C to get the traditional sort order that uses
native byte values.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/sort>
or available locally via: info '(coreutils) sort invocation'
`,
  uniq: `Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

Mandatory arguments to long options are mandatory for short options too.
  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help        display this help and exit
      --version     output version information and exit

A field is a run of blanks (usually spaces and/or TABs), then non-blank
characters.  Fields are skipped before chars.

Note: 'uniq' does not detect repeated lines unless they are adjacent.
You may want to sort the input first, or use 'sort -u' without 'uniq'.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/uniq>
or available locally via: info '(coreutils) uniq invocation'
`,
  cut: `Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/cut>
or available locally via: info '(coreutils) cut invocation'
`,
  cat: `Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help        display this help and exit
      --version     output version information and exit

Examples:
  cat f - g  Output f's contents, then standard input, then g's contents.
  cat        Copy standard input to standard output.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/cat>
or available locally via: info '(coreutils) cat invocation'
`,
  tee: `Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        diagnose errors writing to non pipes
      --output-error[=MODE]   set behavior on write error.  See MODE below
      --help        display this help and exit
      --version     output version information and exit

MODE determines behavior with write errors on the outputs:
  warn           diagnose errors writing to any output
  warn-nopipe    diagnose errors writing to any output not a pipe
  exit           exit on error writing to any output
  exit-nopipe    exit on error writing to any output not a pipe
The default MODE for the -p option is 'warn-nopipe'.
The default operation when --output-error is not specified, is to
exit immediately on error writing to a pipe, and diagnose errors
writing to non pipe outputs.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/tee>
or available locally via: info '(coreutils) tee invocation'
`,
  ls: `Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
      --author               with -l, print the author of each file
  -b, --escape               print C-style escapes for nongraphic characters
      --block-size=SIZE      with -l, scale sizes by SIZE when printing them;
                             e.g., '--block-size=M'; see SIZE format below

  -B, --ignore-backups       do not list implied entries ending with ~
  -c                         with -lt: sort by, and show, ctime (time of last
                             modification of file status information);
                             with -l: show ctime and sort by name;
                             otherwise: sort by ctime, newest first

  -C                         list entries by columns
      --color[=WHEN]         color the output WHEN; more info below
  -d, --directory            list directories themselves, not their contents
  -D, --dired                generate output designed for Emacs' dired mode
  -f                         list all entries in directory order
  -F, --classify[=WHEN]      append indicator (one of */=>@|) to entries WHEN
      --file-type            likewise, except do not append '*'
      --format=WORD          across -x, commas -m, horizontal -x, long -l,
                             single-column -1, verbose -l, vertical -C

      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first
                             group directories before files;
                             can be augmented with a --sort option, but any
                             use of --sort=none (-U) disables grouping

  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
      --si                   likewise, but use powers of 1000 not 1024
  -H, --dereference-command-line
                             follow symbolic links listed on the command line
      --dereference-command-line-symlink-to-dir
                             follow each command line symbolic link
                             that points to a directory

      --hide=PATTERN         do not list implied entries matching shell PATTERN
                             (overridden by -a or -A)

      --hyperlink[=WHEN]     hyperlink file names WHEN
      --indicator-style=WORD
                             append indicator with style WORD to entry names:
                             none (default), slash (-p),
                             file-type (--file-type), classify (-F)

  -i, --inode                print the index number of each file
  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN
  -k, --kibibytes            default to 1024-byte blocks for file system usage;
                             used only with -s and per directory totals

  -l                         use a long listing format
  -L, --dereference          when showing file information for a symbolic
                             link, show information for the file the link
                             references rather than for the link itself

  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -N, --literal              print entry names without quoting
  -o                         like -l, but do not list group information
  -p, --indicator-style=slash
                             append / indicator to directories
  -q, --hide-control-chars   print ? instead of nongraphic characters
      --show-control-chars   show nongraphic characters as-is (the default,
                             unless program is 'ls' and output is a terminal)

  -Q, --quote-name           enclose entry names in double quotes
      --quoting-style=WORD   use quoting style WORD for entry names:
                             literal, locale, shell, shell-always,
                             shell-escape, shell-escape-always, c, escape
                             (overrides QUOTING_STYLE environment variable)

  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            sort by WORD instead of name: none (-U), size (-S),
                             time (-t), version (-v), extension (-X), width

      --time=WORD            change the default of using modification times;
                               access time (-u): atime, access, use;
                               change time (-c): ctime, status;
                               birth time: birth, creation;
                             with -l, WORD determines which time to show;
                             with --sort=time, sort by WORD (newest first)

      --time-style=TIME_STYLE
                             time/date format with -l; see TIME_STYLE below
  -t                         sort by time, newest first; see --time
  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8
  -u                         with -lt: sort by, and show, access time;
                             with -l: show access time and sort by name;
                             otherwise: sort by access time, newest first

  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS.  0 means no limit
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -Z, --context              print any security context of each file
      --zero                 end each output line with NUL, not newline
  -1                         list one file per line
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

The TIME_STYLE argument can be full-iso, long-iso, iso, locale, or +FORMAT.
FORMAT is interpreted like in date(1).  If FORMAT is FORMAT1<newline>FORMAT2,
then FORMAT1 applies to non-recent files and FORMAT2 to recent files.
TIME_STYLE prefixed with 'posix-' takes effect only outside the POSIX locale.
Also the TIME_STYLE environment variable sets the default style to use.

The WHEN argument defaults to 'always' and can also be 'auto' or 'never'.

Using color to distinguish file types is disabled both by default and
with --color=never.  With --color=auto, ls emits color codes only when
standard output is connected to a terminal.  The LS_COLORS environment
variable can change the settings.  Use the dircolors(1) command to set it.

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/ls>
or available locally via: info '(coreutils) ls invocation'
`,
  rm: `Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal
  -I                    prompt once before removing more than three files, or
                          when removing recursively; less intrusive than -i,
                          while still giving protection against most mistakes
      --interactive[=WHEN]  prompt according to WHEN: never, once (-I), or
                          always (-i); without WHEN, prompt always
      --one-file-system  when removing a hierarchy recursively, skip any
                          directory that is on a file system different from
                          that of the corresponding command line argument
      --no-preserve-root  do not treat '/' specially
      --preserve-root[=all]  do not remove '/' (default);
                              with 'all', reject any command line argument
                              on a separate device from its parent
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --help        display this help and exit
      --version     output version information and exit

By default, rm does not remove directories.  Use the --recursive (-r or -R)
option to remove each listed directory, too, along with all of its contents.

To remove a file whose name starts with a '-', for example '-foo',
use one of these commands:
  rm -- -foo

  rm ./-foo

Note that if you use rm to remove a file, it might be possible to recover
some of its contents, given sufficient expertise and/or time.  For greater
assurance that the contents are truly unrecoverable, consider using shred(1).

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Full documentation <https://www.gnu.org/software/coreutils/rm>
or available locally via: info '(coreutils) rm invocation'
`,
};

/** netperf 2.7 print_netperf_usage (src/netsh.c netperf_usage1 + netperf_usage2): stderr, exit 1, for -h and any bad option. */
export const NETPERF_USAGE = `
Usage: netperf [global options] -- [test options] 

Global options:
    -a send,recv      Set the local send,recv buffer alignment
    -A send,recv      Set the remote send,recv buffer alignment
    -B brandstr       Specify a string to be emitted with brief output
    -c [cpu_rate]     Report local CPU usage
    -C [cpu_rate]     Report remote CPU usage
    -d                Increase debugging output
    -D time,[units] * Display interim results at least every time interval
                      using units as the initial guess for units per second
                      A negative value for time will make heavy use of the
                      system's timestamping functionality
    -f G|M|K|g|m|k    Set the output units
    -F lfill[,rfill]* Pre-fill buffers with data from specified file
    -h                Display this text
    -H name|ip,fam *  Specify the target machine and/or local ip and family
    -i max,min        Specify the max and min number of iterations (15,1)
    -I lvl[,intvl]    Specify confidence level (95 or 99) (99) 
                      and confidence interval in percentage (10)
    -j                Keep additional timing statistics
    -l testlen        Specify test duration (>0 secs) (<0 bytes|trans)
    -L name|ip,fam *  Specify the local ip|name and address family
    -o send,recv      Set the local send,recv buffer offsets
    -O send,recv      Set the remote send,recv buffer offset
    -n numcpu         Set the number of processors for CPU util
    -N                Establish no control connection, do 'send' side only
    -p port,lport*    Specify netserver port number and/or local port
    -P 0|1            Don't/Do display test headers
    -r                Allow confidence to be hit on result only
    -s seconds        Wait seconds between test setup and test start
    -S                Set SO_KEEPALIVE on the data connection
    -t testname       Specify test to perform
    -T lcpu,rcpu      Request netperf/netserver be bound to local/remote cpu
    -v verbosity      Specify the verbosity level
    -W send,recv      Set the number of send,recv buffers
    -v level          Set the verbosity level (default 1, min 0)
    -V                Display the netperf version and exit
    -y local,remote   Set the socket priority
    -Y local,remote   Set the IP_TOS. Use hexadecimal.
    -Z passphrase     Set and pass to netserver a passphrase

For those options taking two parms, at least one must be specified;
specifying one value without a comma will set both parms to that
value, specifying a value with a leading comma will set just the second
parm, a value with a trailing comma will set just the first. To set
each parm to unique values, specify both and separate them with a
comma.

* For these options taking two parms, specifying one value with no comma
will only set the first parms and will leave the second at the default
value. To set the second value it must be preceded with a comma or be a
comma-separated pair. This is to retain previous netperf behaviour.
`;

/** netperf 2.7 print_netserver_usage (src/netsh.c netserver_usage): stderr, exit 1, for -h and any bad option. */
export const NETSERVER_USAGE = `
Usage: netserver [options] 

Options:
    -h                Display this text
    -D                Do not daemonize
    -d                Increase debugging output
    -f                Do not spawn chilren for each test, run serially
    -L name,family    Use name to pick listen address and family for family
    -N                No debugging output, even if netperf asks
    -p portnum        Listen for connect requests on portnum.
    -4                Do IPv4
    -6                Do IPv6
    -v verbosity      Specify the verbosity level
    -V                Display version information and exit
    -Z passphrase     Expect passphrase as the first thing received

`;

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

/** gawk 5.1.0 usage() as `awk` (main.c; myname is argv[0]'s name): -h/--help on stdout, exit 0; no program on stderr, exit 1. */
export const AWK_USAGE = `Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
Short options:\t\tGNU long options: (extensions)
\t-b\t\t\t--characters-as-bytes
\t-c\t\t\t--traditional
\t-C\t\t\t--copyright
\t-d[file]\t\t--dump-variables[=file]
\t-D[file]\t\t--debug[=file]
\t-e 'program-text'\t--source='program-text'
\t-E file\t\t\t--exec=file
\t-g\t\t\t--gen-pot
\t-h\t\t\t--help
\t-i includefile\t\t--include=includefile
\t-l library\t\t--load=library
\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]
\t-M\t\t\t--bignum
\t-N\t\t\t--use-lc-numeric
\t-n\t\t\t--non-decimal-data
\t-o[file]\t\t--pretty-print[=file]
\t-O\t\t\t--optimize
\t-p[file]\t\t--profile[=file]
\t-P\t\t\t--posix
\t-r\t\t\t--re-interval
\t-s\t\t\t--no-optimize
\t-S\t\t\t--sandbox
\t-t\t\t\t--lint-old
\t-V\t\t\t--version

To report bugs, see node \`Bugs' in \`gawk.info'
which is section \`Reporting Problems and Bugs' in the
printed version.  This same information may be found at
https://www.gnu.org/software/gawk/manual/html_node/Bugs.html.
PLEASE do NOT try to report bugs by posting in comp.lang.awk,
or by using a web forum such as Stack Overflow.

gawk is a pattern scanning and processing language.
By default it reads standard input and writes standard output.

Examples:
\tawk '{ sum += $1 }; END { print sum }' file
\tawk -F: '{ print $1 }' /etc/passwd
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
