/** NET402 "Flow Analysis: Nitro handling of tunnel hashing" and "Optimizing for large single flows". */
import type { LessonInput } from '../schema';

const A = '10.0.0.10';
const B = '10.0.0.11';
const GRE = [
  `ip link add gre1 type gre remote ${B} local ${A}`,
  'ip addr add 192.168.100.1/24 dev gre1',
  'ip link set gre1 up',
  `server: ip link add gre1 type gre remote ${A} local ${B}`,
  'server: ip addr add 192.168.100.2/24 dev gre1',
  'server: ip link set gre1 up',
];
const VXLAN = [
  `ip link add vx0 type vxlan id 42 dstport 4789 dev eth0 remote ${B} local ${A}`,
  'ip addr add 192.168.200.1/24 dev vx0',
  'ip link set vx0 up',
  `server: ip link add vx0 type vxlan id 42 dstport 4789 dev eth0 remote ${A} local ${B}`,
  'server: ip addr add 192.168.200.2/24 dev vx0',
  'server: ip link set vx0 up',
];
/** iperf3 metrics of a run through a tunnel: to an inner (192.168.x.x) address. */
const THROUGH_TUNNEL = '^iperf3\\s.*-c\\s+192\\.168\\.';

export const tunnels: LessonInput = {
  id: 'tunnels',
  title: 'Tunnels and flow entropy',
  talk: 'Flow Analysis: "Whale" Flows, Nitro handling of Tunnel Hashing (GRE/IPsec: one flow on a 3-tuple; VXLAN/GENEVE/GTP with a unique source port: many 5-tuples)',
  summary:
    'Nitro hashes the outer header. A GRE tunnel carries every inner flow in one outer flow (one queue, one flow limit); VXLAN puts ' +
    'a hash of the inner flow in the outer UDP source port, so the inner flows spread again.',
  scenario: {
    version: 2,
    placement: 'same-az',
    instances: [
      { name: 'client', type: 'c7i.8xlarge', ip: A },
      { name: 'server', type: 'c7i.8xlarge', ip: B },
    ],
  },
  steps: [
    {
      id: 'gre',
      title: 'Eight flows through GRE',
      text:
        'Build a GRE tunnel between the two instances (inner addresses 192.168.100.1 and .2) and send eight TCP streams through it. ' +
        'These c7i.8xlarge have 12.5 Gbps and are in one AZ, outside a cluster placement group (5 Gbps per flow).',
      predict: {
        question: 'What rate (Gbps) will the eight inner flows reach together through GRE?',
        answer: {
          metric: 'iperf3.received_gbps',
          command: THROUGH_TUNNEL,
          commandText: 'iperf3 through the tunnel (-c 192.168.…)',
        },
        tolerance: { relative: 0.15 },
        reason:
          'GRE has no ports: Nitro sees one outer flow (source, destination, protocol 47), so one queue and one 5 Gbps flow limit ' +
          'for all eight inner flows.',
      },
      goal: [
        { metric: 'iperf3.streams', op: '>=', value: 8, label: 'Eight flows run.' },
        {
          metric: 'rx_queues_used',
          host: 'server',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 1,
          label: 'One RX queue on the server carries them all.',
        },
      ],
      hints: [
        'ip link add gre1 type gre remote 10.0.0.11 local 10.0.0.10, then ip addr add and ip link set up; the same on the server.',
      ],
      solution: [...GRE, 'iperf3 -c 192.168.100.2 -t 1 -P 8'],
      mistakes: [
        {
          commands: ['iperf3 -c server -t 1 -P 8'],
          why: 'without the tunnel each flow has its own 5-tuple and spreads over queues.',
        },
      ],
    },
    {
      id: 'vxlan',
      title: 'Entropy back with VXLAN',
      text:
        'Carry at least 10 Gbps of eight inner flows through a tunnel. VXLAN (UDP port 4789) sets the outer UDP source port from a ' +
        'hash of the inner flow (Linux udp_flow_src_port). Use inner addresses 192.168.200.1 and .2.',
      goal: [
        {
          metric: 'iperf3.received_gbps',
          command: THROUGH_TUNNEL,
          commandText: 'iperf3 through the tunnel (-c 192.168.…)',
          op: '>=',
          value: 10,
          label: 'At least 10 Gbps go through the tunnel.',
        },
        {
          metric: 'rx_queues_used',
          host: 'server',
          window: 'last-command',
          command: THROUGH_TUNNEL,
          commandText: 'iperf3 through the tunnel (-c 192.168.…)',
          op: '>=',
          value: 2,
          label: 'The tunnel’s traffic spreads over two or more of the server’s RX queues.',
        },
      ],
      hints: ['ip link add vx0 type vxlan id 42 dstport 4789 dev eth0 remote 10.0.0.11 local 10.0.0.10'],
      solution: [...VXLAN, 'iperf3 -c 192.168.200.2 -t 1 -P 8'],
      mistakes: [
        {
          commands: ['iperf3 -c 192.168.100.2 -t 1 -P 8'],
          why: 'through GRE again: one outer flow, 5 Gbps.',
        },
      ],
    },
  ],
};
