/**
 * The network tools' help texts: ethtool 6.7, sysstat 12.5.4 sar, BIND 9.18.33 dig, DPDK 23.11 (EAL
 * and testpmd), netperf 2.7.1 and netserver. Sources: real-help/index.ts.
 */

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
