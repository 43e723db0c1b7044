/** NET402 "Packet Analysis": one packet from the socket to a queue: the ENI, the ENA's queues, the 5-tuple hash. */
import type { LessonInput } from '../schema';
import { talkPair } from './talk-pair';

export const packetJourney: LessonInput = {
  id: 'packet-journey',
  title: 'The journey of one packet',
  talk: 'Packet Analysis: Processing Stack, Packet Processing, "Inside Nitro: hash on 5-tuple, queue assignment, processor assignment"',
  summary:
    'A TCP socket opens a 5-tuple; the kernel routes it to eth0, the ENA device that fronts the ENI. ' +
    'The 5-tuple is hashed to pick a queue, and every packet of that flow stays on that queue and its vCPU.',
  scenario: talkPair(),
  steps: [
    {
      id: 'queues',
      title: 'Meet eth0',
      text:
        "eth0 is the Elastic Network Adapter (ENA) that the Nitro card presents for this instance's ENI. " +
        'It has one TX/RX queue pair per channel, and an RSS indirection table that maps a hash of the flow to a queue. ' +
        'The talk calls it the 5-tuple hash; for TCP and UDP the hashed fields are the source IP, destination IP, source port ' +
        'and destination port (the protocol picks which fields are hashed; ethtool -n eth0 rx-flow-hash tcp4 lists them).\n\n' +
        'Show the channels (queues) and the indirection table of eth0.',
      goal: [
        {
          metric: 'commands',
          command: '^(sudo\\s+)?ethtool\\s+(-l|--show-channels)\\s+eth0$',
          commandText: 'ethtool -l eth0',
          op: '>=',
          value: 1,
          label: 'You showed eth0’s channels (ethtool -l eth0).',
        },
        {
          metric: 'commands',
          command: '^(sudo\\s+)?ethtool\\s+(-x|--show-rxfh-indir|--show-rxfh)\\s+eth0$',
          commandText: 'ethtool -x eth0',
          op: '>=',
          value: 1,
          label: 'You showed eth0’s RSS indirection table (ethtool -x eth0).',
        },
      ],
      hints: ['ethtool -l shows channels; ethtool -x shows the RX flow hash indirection table and key.'],
      solution: ['ethtool -l eth0', 'ethtool -x eth0'],
      mistakes: [{ commands: ['ethtool -S eth0'], why: '-S prints statistics, not the queue layout.' }],
    },
    {
      id: 'one-flow',
      title: 'One flow, one queue',
      text:
        'Send one TCP flow to the server and look at its per-queue counters (queue_N_rx_cnt in ethtool -S). ' +
        'Every packet of a flow carries the same 5-tuple, so the same hash, so the same RX queue.',
      predict: {
        question: 'The server has 2 RX queues. How many of them will carry the packets of one iperf3 flow?',
        answer: {
          metric: 'rx_queues_used',
          host: 'server',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
        },
        tolerance: { absolute: 0.5 },
        reason:
          "The queue is chosen by hashing the flow's addresses and ports (Toeplitz over the RSS key, then the indirection table), " +
          'and every packet of the flow has the same 5-tuple: one flow never spreads over queues.',
      },
      goal: [
        { metric: 'iperf3.streams', op: '==', value: 1, label: 'One flow runs (iperf3 -P 1).' },
        {
          metric: 'rx_queues_used',
          host: 'server',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 1,
          label: 'One RX queue on the server carries it.',
        },
      ],
      hints: ['iperf3 -c server runs one stream unless you give -P.', 'Keep the run short: -t 1.'],
      solution: ['iperf3 -c server -t 1'],
      mistakes: [
        { commands: ['iperf3 -c server -t 1 -P 4'], why: 'four flows: four 5-tuples, hashed independently.' },
      ],
    },
    {
      id: 'many-flows',
      title: 'Many flows, many queues',
      text:
        'A single flow is bound to one queue and one vCPU. Make the server use both of its RX queues: ' +
        'different source ports give different 5-tuples, hence different hashes.',
      goal: [
        { metric: 'iperf3.streams', op: '>=', value: 2, label: 'Several flows run (iperf3 -P 2 or more).' },
        {
          metric: 'rx_queues_used',
          host: 'server',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 2,
          label: 'Both of the server’s RX queues carry traffic.',
        },
      ],
      hints: [
        'iperf3 -P N opens N parallel streams, each with its own source port.',
        'Two flows may hash to the same queue; try a few more.',
      ],
      solution: ['iperf3 -c server -t 1 -P 4'],
      mistakes: [{ commands: ['iperf3 -c server -t 1 -P 1'], why: 'one flow still lands on one queue.' }],
    },
  ],
};
