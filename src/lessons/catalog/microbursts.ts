/** NET402 "Micro bursting": what it is, how to see it, how to prevent it (RX ring depth, traffic control). */
import { getInstanceType } from '../../catalog';
import type { LessonInput } from '../schema';
import { talkPair } from './talk-pair';

/**
 * The server's RX ring: default 1024 (ENA-SRC, documented); the maximum is negotiated with the
 * device, "up to 16K … depending on the instance type" (ENA-README), and not published per type:
 * the catalog's c7i.large figure is `assumed`, so the text points at ethtool -g instead of stating it.
 */
const RINGS = getInstanceType('c7i.large')!;
export const MICROBURST_RX_RING = {
  default: RINGS.rxRingDefault.value,
  max: RINGS.rxRingMax.value,
  maxProvenance: RINGS.rxRingMax.provenance,
} as const;

const UDP_BURST = 'iperf3 -c server -u -b 10G -P 8 -t 1 -l 8948';

export const microbursts: LessonInput = {
  id: 'microbursts',
  title: 'Microbursts and how to prevent them',
  talk: 'Flow Analysis: Micro bursting (iperf microburst test, "Packet arrival rate exceeds packet processing rate"), Preventing Microbursts (RX queue depth, Traffic Control)',
  summary:
    'When packets arrive faster than a stage can process them, its queue fills (delay), then overflows (drops). ' +
    "On EC2 the Nitro card's allowances queue and then drop; shaping on the host keeps the burst where you control it.",
  scenario: talkPair(),
  steps: [
    {
      id: 'see-it',
      title: 'Make a microburst',
      text:
        `Repeat the talk's test: eight UDP streams each asking for 10 Gbps from a c7i.large (12.5 Gbps): ${UDP_BURST}. ` +
        'Then look at ethtool -S on both ends.',
      predict: {
        question: 'What share of the datagrams (%) will the receiver report lost?',
        answer: { metric: 'iperf3.lost_percent' },
        tolerance: { absolute: 10 },
        reason:
          "The senders offer about 26 Gbps (the talk measured 26.2); the client's Nitro card lets 12.5 Gbps out and queues, then drops, " +
          'the rest: bw_out_allowance_exceeded counts them. About half the datagrams never arrive.',
      },
      goal: [
        {
          metric: 'iperf3.sent_gbps',
          op: '>',
          value: 15,
          label: 'The senders offer more than the instance can send (over 15 Gbps).',
        },
        {
          metric: 'counter',
          name: 'bw_out_allowance_exceeded',
          host: 'client',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '>',
          value: 0,
          label: 'The outbound bandwidth allowance binds (bw_out_allowance_exceeded rises).',
        },
      ],
      hints: [UDP_BURST],
      solution: [UDP_BURST, 'ethtool -S eth0'],
      mistakes: [
        {
          commands: ['iperf3 -c server -u -b 1G -t 1 -l 8948'],
          why: '1 Gbps fits easily: no burst, nothing exceeded.',
        },
      ],
    },
    {
      id: 'pace-it',
      title: 'Shape on the host (tc)',
      text:
        "Keep the same eight 10 Gbps UDP senders, but make the excess wait (or drop) in the client's own qdisc, where you can see and tune it, " +
        'instead of at the Nitro card: bw_out_allowance_exceeded must stay at 0 while the receiver still gets at least 9.5 Gbps.\n\n' +
        "Start from a quiet link: the previous burst's backlog (fq_codel holds up to 10240 packets) drains for tens of milliseconds after iperf3 ends (sleep 1). " +
        'The talk used htb with a class rate (its fq_codel line with "maxrate" is refused by tc: fq_codel has no such option).',
      goal: [
        { metric: 'iperf3.streams', op: '>=', value: 8, label: 'Eight senders run.' },
        { metric: 'iperf3.sent_gbps', op: '>', value: 10, label: 'The senders still push over 10 Gbps.' },
        {
          metric: 'counter',
          name: 'bw_out_allowance_exceeded',
          host: 'client',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 0,
          label: 'The Nitro card’s outbound allowance never binds (bw_out_allowance_exceeded stays at 0).',
        },
        {
          metric: 'iperf3.received_gbps',
          op: '>=',
          value: 9.5,
          label: 'The receiver gets at least 9.5 Gbps.',
        },
      ],
      hints: [
        'tc qdisc add dev eth0 root handle 1: htb default 10',
        "A class below the instance's 12.5 Gbps, with room for HTB's bursts: tc class add dev eth0 parent 1: classid 1:10 htb rate 11gbit ceil 11gbit",
      ],
      solution: [
        'sleep 1',
        'tc qdisc add dev eth0 root handle 1: htb default 10',
        'tc class add dev eth0 parent 1: classid 1:10 htb rate 11gbit ceil 11gbit',
        UDP_BURST,
        'tc -s qdisc show dev eth0',
      ],
      mistakes: [
        {
          commands: [
            'sleep 1',
            'tc qdisc add dev eth0 root handle 1: htb default 10',
            'tc class add dev eth0 parent 1: classid 1:10 htb rate 13gbit ceil 13gbit',
            UDP_BURST,
          ],
          why: "a class above the instance's 12.5 Gbps shapes nothing the Nitro card would not cut anyway.",
        },
        { commands: [UDP_BURST], why: 'without shaping, the burst is cut at the Nitro card again.' },
      ],
    },
    {
      id: 'rx-ring',
      title: 'Deeper RX rings on the receiver',
      text:
        'On the receiving side, a burst that arrives faster than the kernel drains the RX ring overflows it (rx_overruns). ' +
        `ENA RX rings default to ${MICROBURST_RX_RING.default} descriptors; the maximum depends on the instance type (up to 16K, ` +
        `ethtool -g shows it; AWS does not publish it per type, and this lab assumes ${MICROBURST_RX_RING.max}). ` +
        "Give the server's eth0 at least 4096 RX descriptors, " +
        'check with ethtool -g, and send the burst again: rx_overruns on the server must stay at 0.',
      goal: [
        {
          metric: 'rx_ring',
          host: 'server',
          op: '>=',
          value: 4096,
          label: "The server's RX ring holds at least 4096 packets.",
        },
        {
          metric: 'counter',
          name: 'rx_overruns',
          host: 'server',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 0,
          label: 'The RX ring never overruns during the burst (rx_overruns stays at 0).',
        },
      ],
      hints: [
        'ethtool -G eth0 rx N sets the RX ring; run it on the server (prefix the line with "server:").',
      ],
      solution: ['server: ethtool -G eth0 rx 4096', 'server: ethtool -g eth0', UDP_BURST],
      mistakes: [
        {
          commands: ['ethtool -G eth0 rx 4096', UDP_BURST],
          why: "that changed the client's ring; the receiver is the server.",
        },
      ],
    },
  ],
};
