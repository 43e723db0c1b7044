/** NET402 "Flow Analysis: Flow Specifications": 5 Gbps outside, 10 Gbps inside a cluster placement group, 25 Gbps with ENA Express. */
import type { LessonInput } from '../schema';
import { talkPair } from './talk-pair';

export const perFlowLimits: LessonInput = {
  id: 'per-flow-limits',
  title: 'Per-flow limits',
  talk: 'Flow Analysis: Single flow specifications (external 5 Gbps, cluster placement group 10 Gbps); Multi-flow Analysis: burst, two flows two queues',
  summary:
    'One flow (one 5-tuple) is limited to 10 Gbps inside a cluster placement group and 5 Gbps outside it, whatever the ' +
    "instance's bandwidth. More bandwidth needs more flows, up to the instance's own limit.",
  scenario: talkPair(),
  steps: [
    {
      id: 'one-flow',
      title: 'How fast is one flow?',
      text:
        'The two c7i.large instances are in a cluster placement group; a c7i.large bursts to 12.5 Gbps. ' +
        'Run one TCP stream with iperf3 (as the talk did: iperf3 -c app_server -t 1 -l 9000 -P 1).',
      predict: {
        question: 'What rate (Gbps) will one TCP stream reach between these two instances?',
        answer: { metric: 'iperf3.received_gbps' },
        tolerance: { relative: 0.1 },
        reason:
          "One flow inside a cluster placement group is limited to 10 Gbps by the Nitro card, below the instance's 12.5 Gbps. " +
          'The talk measured 9.54 Gbps.',
      },
      goal: [
        { metric: 'iperf3.streams', op: '==', value: 1, label: 'One flow runs.' },
        {
          metric: 'iperf3.received_gbps',
          op: '>=',
          value: 9,
          label: 'It reaches its flow limit (at least 9 Gbps).',
        },
      ],
      hints: ['iperf3 -c server -t 1 -l 9000 -P 1'],
      solution: ['iperf3 -c server -t 1 -l 9000 -P 1'],
      mistakes: [
        {
          commands: ['iperf3 -c server -t 1 -M 128'],
          why: 'tiny segments hit the packet-rate allowance long before the flow limit.',
        },
      ],
    },
    {
      id: 'beyond-one-flow',
      title: 'More than one flow can carry',
      text: "Get more than 11 Gbps from the client to the server. The flow limit is per 5-tuple; the instance's limit is for all its flows together.",
      goal: [
        {
          metric: 'iperf3.received_gbps',
          op: '>=',
          value: 11,
          label: 'The server receives more than one flow can carry (at least 11 Gbps).',
        },
      ],
      hints: ['Each iperf3 stream (-P) is its own 5-tuple.'],
      solution: ['iperf3 -c server -t 1 -l 9000 -P 2'],
      mistakes: [
        {
          commands: ['iperf3 -c server -t 1 -l 9000 -P 1'],
          why: 'one flow stays at its 10 Gbps limit however long it runs.',
        },
      ],
    },
  ],
};

/** The same-AZ (no placement group) limit and ENA Express (SRD) that lifts it to 25 Gbps. */
export const enaExpress: LessonInput = {
  id: 'ena-express',
  title: 'ENA Express: 25 Gbps in one flow',
  talk: 'Flow Analysis: "ENA Express Flow – 25Gbps"; Preventing Microbursts: ENA Express 101 (opt-in, Nitro v4+, AZ local)',
  summary:
    'Outside a cluster placement group a flow is limited to 5 Gbps. ENA Express (SRD) lifts one flow to 25 Gbps when both ' +
    'ends are supported types and both ENIs opt in: in one AZ, as the talk says ("AZ local"), and today also across the AZs of a Region.',
  scenario: {
    version: 2,
    placement: 'same-az',
    instances: [
      { name: 'client', type: 'c6in.8xlarge', eniId: 'eni-0c11e000000000001' },
      { name: 'server', type: 'c6in.8xlarge', eniId: 'eni-0c11e000000000002' },
    ],
  },
  steps: [
    {
      id: 'same-az',
      title: 'One flow, same AZ',
      text: 'These two c6in.8xlarge (50 Gbps each) are in the same AZ but not in a cluster placement group. Run one TCP stream.',
      predict: {
        question: 'What rate (Gbps) will one TCP stream reach?',
        answer: { metric: 'iperf3.received_gbps' },
        tolerance: { relative: 0.1 },
        reason:
          'Outside a cluster placement group one flow is limited to 5 Gbps, whatever the instance size.',
      },
      goal: [
        { metric: 'iperf3.streams', op: '==', value: 1, label: 'One flow runs.' },
        {
          metric: 'iperf3.received_gbps',
          op: '>=',
          value: 4.5,
          label: 'It reaches the 5 Gbps flow limit (at least 4.5 Gbps).',
        },
      ],
      hints: ['iperf3 -c server -t 1'],
      solution: ['iperf3 -c server -t 1'],
      mistakes: [
        {
          commands: ['iperf3 -c server -t 1 -M 128'],
          why: 'small segments: the flow never reaches its limit.',
        },
      ],
    },
    {
      id: 'enable-srd',
      title: 'Opt in on both ends',
      text:
        'Carry more than 20 Gbps in a single flow. ENA Express is a property of the network interface ' +
        '(aws ec2 modify-network-interface-attribute --ena-srd-specification); find the ENI IDs with aws ec2 describe-network-interfaces. ' +
        'ethtool -S shows the ena_srd_* counters.',
      goal: [
        { metric: 'iperf3.streams', op: '==', value: 1, label: 'It is still one flow.' },
        { metric: 'iperf3.received_gbps', op: '>=', value: 20, label: 'It goes above 20 Gbps.' },
        {
          metric: 'counter',
          name: 'ena_srd_tx_pkts',
          host: 'client',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '>',
          value: 0,
          label: 'Its packets go over SRD (ena_srd_tx_pkts rises).',
        },
      ],
      hints: [
        'Both ENIs must enable it: a flow uses SRD only when both ends opted in.',
        'aws ec2 modify-network-interface-attribute --network-interface-id eni-… --ena-srd-specification EnaSrdEnabled=true',
      ],
      solution: [
        'aws ec2 modify-network-interface-attribute --network-interface-id eni-0c11e000000000001 --ena-srd-specification EnaSrdEnabled=true',
        'aws ec2 modify-network-interface-attribute --network-interface-id eni-0c11e000000000002 --ena-srd-specification EnaSrdEnabled=true',
        'iperf3 -c server -t 1',
      ],
      mistakes: [
        {
          commands: [
            'aws ec2 modify-network-interface-attribute --network-interface-id eni-0c11e000000000001 --ena-srd-specification EnaSrdEnabled=true',
            'iperf3 -c server -t 1',
          ],
          why: 'only the client opted in: the flow stays on standard ENA at 5 Gbps.',
        },
        {
          commands: ['iperf3 -c server -t 1 -P 5'],
          why: 'five flows reach 25 Gbps together, but no single flow does.',
        },
      ],
    },
  ],
};
