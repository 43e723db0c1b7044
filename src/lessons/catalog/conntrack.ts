/** NET402 "Flow State Anomalies" and "Connection Tracking": tracked, untracked, the allowance, idle timeouts. */
import { getInstanceType } from '../../catalog';
import { MODEL_PARAMS } from '../../engine/model/params';
import type { LessonInput } from '../schema';

/**
 * The c7i.large's default conntrack idle timeouts (MOTO ConnectionTrackingConfiguration; AWS-CT):
 * TCP established 432000 s, UDP stream 180 s, UDP 30 s. Read from the catalog so the text cannot
 * drift from what the model applies (the NET402 slide's "60 secs" for UDP stream is its maximum,
 * and AWS-CT says the maximum is 180: docs/domain-facts.md §8.2).
 */
const TIMEOUTS = getInstanceType('c7i.large')!.conntrackTimeouts;
export const CONNTRACK_LESSON_TIMEOUTS = {
  tcpEstablishedSeconds: TIMEOUTS.tcpEstablishedSeconds.value,
  udpStreamSeconds: TIMEOUTS.udpStreamSeconds.value,
  udpSeconds: TIMEOUTS.udpSeconds.value,
} as const;
const T = CONNTRACK_LESSON_TIMEOUTS;
const TCP_DAYS = T.tcpEstablishedSeconds / 86_400;
/**
 * How long the card keeps a closed TCP connection's entry after its last packet: the lab's
 * assumption (MODEL_PARAMS.conntrackClosedLingerNs); AWS says closed connections stop being
 * tracked, not how soon.
 */
export const CONNTRACK_LESSON_CLOSED_LINGER_S = MODEL_PARAMS.conntrackClosedLingerNs.value / 1e9;
const LINGER_S = CONNTRACK_LESSON_CLOSED_LINGER_S;

export const conntrackScenario = {
  version: 2,
  placement: 'cluster',
  instances: [
    { name: 'client', type: 'c7i.large' },
    { name: 'server', type: 'c7i.large' },
  ],
  // AWS does not publish the allowance (a c7i.large has ~137 k entries here); a small one fills in seconds
  params: { conntrackAllowanceOverride: 64 },
};

/**
 * The default security group's ID in this scenario, as `aws ec2 describe-security-groups` shows it
 * (derived from the seed; tests/lessons checks it against the parsed scenario). A literal keeps the
 * lesson plain data.
 */
export const CONNTRACK_LESSON_SG = 'sg-bb4d0c381f5361757';
const SG = CONNTRACK_LESSON_SG;
const OPEN_ALL = `aws ec2 authorize-security-group-ingress --group-id ${SG} --ip-permissions IpProtocol=-1,IpRanges=[{CidrIp=0.0.0.0/0}]`;
const AB = 'ab -n 400 -c 100 -s 2 http://server/';

export const conntrack: LessonInput = {
  id: 'conntrack',
  title: 'Connection tracking',
  talk: 'Flow Analysis: Flow State Anomalies (VPC mutations, untracked connections: "TCP 22 tracked, TCP 80 untracked, ICMP always tracked"); Connection Tracking (conntrack_allowance_exceeded / _available, configurable idle timeouts)',
  summary:
    'The Nitro card tracks connections that its security groups need to remember, up to a per-instance allowance. ' +
    'When the table is full, new tracked connections are dropped (conntrack_allowance_exceeded). A flow is untracked when the rules ' +
    'allow it both ways for all addresses; untracked flows use no entry. Idle entries expire ' +
    `(TCP established: ${TCP_DAYS} days by default, UDP: ${T.udpSeconds} s), configurable per ENI; ` +
    'a TCP connection closed with FIN or RST stops being tracked.',
  scenario: conntrackScenario,
  steps: [
    {
      id: 'udp-timeout',
      title: 'An entry lives until it is idle long enough',
      text:
        "This lab's client has a conntrack allowance of 64 connections (a parameter of the scenario, so it fills quickly; AWS does not " +
        'publish the real figure). Send a short UDP flow (the security group tracks it: its inbound rules are not open to all), look at the ' +
        'card with lab nitro show client, and wait until the card frees the entry again (ethtool -S: conntrack_allowance_available).',
      predict: {
        question: 'Right after the UDP run, how many of the 64 entries are available on the client?',
        answer: {
          metric: 'counter_value',
          name: 'conntrack_allowance_available',
          host: 'client',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
        },
        tolerance: { absolute: 0.5 },
        reason:
          `One UDP 5-tuple is one tracked connection: 63 left. It stays for the UDP idle timeout (${T.udpSeconds} s by default, ` +
          `${T.udpStreamSeconds} s for a stream with more than one request-response; configurable per ENI with ` +
          '--connection-tracking-specification), even though nothing flows.',
      },
      goal: [
        {
          metric: 'counter_value',
          name: 'conntrack_allowance_available',
          host: 'client',
          window: 'last-command',
          command: '^iperf3\\s.*\\s-u\\b',
          commandText: 'iperf3 -u',
          op: '<',
          value: 64,
          label: 'The UDP flow takes a connection-tracking entry (fewer than 64 left during the run).',
        },
        {
          metric: 'counter_value',
          name: 'conntrack_allowance_available',
          host: 'client',
          op: '==',
          value: 64,
          label: 'The idle entry is freed: all 64 entries are available again.',
        },
      ],
      hints: ['iperf3 -c server -u -b 1M -t 1', 'sleep N advances the simulated clock by N seconds.'],
      solution: [
        'iperf3 -c server -u -b 1M -t 1',
        'lab nitro show client',
        `sleep ${T.udpSeconds + 1}`,
        'ethtool -S eth0',
      ],
      mistakes: [
        {
          commands: ['iperf3 -c server -u -b 1M -t 1', 'sleep 10'],
          why: `ten idle seconds are not the ${T.udpSeconds} s UDP timeout: the entry is still held.`,
        },
      ],
    },
    {
      id: 'fill',
      title: 'Fill the table',
      text:
        'A TCP connection holds its entry while it is open: if it never sees a FIN or RST, for the established idle timeout ' +
        `(${TCP_DAYS} days by default, ${T.tcpEstablishedSeconds.toLocaleString('en-US')} s). Once it has closed (a FIN each way, or an RST), ` +
        `the card stops tracking it; AWS does not say how soon, this lab removes the entry ${LINGER_S} s after the connection's last packet. ` +
        `Open 100 concurrent HTTP connections with ab (${AB}: without -k the server closes each one after its response) ` +
        'and watch conntrack_allowance_available and conntrack_allowance_exceeded, during the run and a few seconds after it.',
      predict: {
        question:
          'Right after the run, how many entries will conntrack_allowance_available show on the client?',
        answer: {
          metric: 'counter_value',
          name: 'conntrack_allowance_available',
          host: 'client',
          window: 'last-command',
          command: '^ab\\s',
          commandText: 'ab',
        },
        tolerance: { absolute: 2 },
        reason:
          'The first 64 connections take every entry; the other SYNs are refused (conntrack_allowance_exceeded) and retried. ' +
          `The 64 finish and close within milliseconds, but their entries stay for ${LINGER_S} s after their last packet (the lab's assumption), ` +
          'longer than ab waits without progress (-s 2): it gives up with the table still full. A few seconds later every entry is back.',
      },
      goal: [
        {
          metric: 'counter',
          name: 'conntrack_allowance_exceeded',
          host: 'client',
          window: 'last-command',
          command: '^ab\\s',
          commandText: 'ab',
          op: '>',
          value: 0,
          label: 'The connection-tracking allowance is exceeded during ab’s run.',
        },
        {
          metric: 'counter_value',
          name: 'conntrack_allowance_available',
          host: 'client',
          op: '==',
          value: 64,
          label: 'The closed connections give their entries back: all 64 are available again.',
        },
      ],
      hints: [
        AB,
        'ethtool -S eth0 | the conntrack_* lines',
        'lab nitro show client: the entries of closed connections say Closed',
      ],
      solution: [AB, 'ethtool -S eth0', 'lab nitro show client', `sleep ${LINGER_S}`, 'ethtool -S eth0'],
      mistakes: [
        {
          commands: ['ab -n 40 -c 4 -k http://server/'],
          why: 'four kept-alive connections need four entries: far from 64.',
        },
        {
          commands: [AB],
          why: `right after ab the closed connections still hold their entries: they go ${LINGER_S} s after the connection's last packet.`,
        },
      ],
    },
    {
      id: 'untrack',
      title: 'Untracked connections',
      text:
        'Serve all 400 requests at concurrency 100 without any further conntrack_allowance_exceeded, without changing the allowance. ' +
        'Look at the security group with aws ec2 describe-security-groups: its rules decide whether the card must track a flow.',
      goal: [
        {
          metric: 'ab.complete_requests',
          op: '>=',
          value: 400,
          label: 'ab completes at least 400 requests.',
        },
        {
          metric: 'counter',
          name: 'conntrack_allowance_exceeded',
          host: 'client',
          window: 'last-command',
          command: '^ab\\s',
          commandText: 'ab',
          op: '==',
          value: 0,
          label: 'No connection is refused for lack of an entry (conntrack_allowance_exceeded stays at 0).',
        },
      ],
      hints: [
        "A flow is untracked when inbound and outbound rules both allow all traffic from/to 0.0.0.0/0; the default group's outbound rule already does.",
        'aws ec2 authorize-security-group-ingress --group-id sg-… --ip-permissions IpProtocol=-1,IpRanges=[{CidrIp=0.0.0.0/0}]',
      ],
      solution: [OPEN_ALL, AB, 'lab nitro show client'],
      mistakes: [
        {
          commands: [AB],
          why: 'the rules still need tracking: 100 concurrent connections need more than 64 entries, and the card refuses the rest again.',
        },
      ],
    },
  ],
};
