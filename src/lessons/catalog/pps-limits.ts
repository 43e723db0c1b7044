/** NET402 "Multi-flow Analysis: Packets Per Second": the PPS allowance, packet size, one queue versus two. */
import type { LessonInput } from '../schema';
import { talkPair } from './talk-pair';

export const ppsLimits: LessonInput = {
  id: 'pps-limits',
  title: 'PPS limits and packet size',
  talk: 'Multi-flow Analysis: Packets Per Second ("One Flow, One Queue" / "Two Flows, Two Queues" at -M 128), Enhanced ENA Metrics: pps_allowance_exceeded',
  summary:
    'Besides bits per second, every instance has an allowance of packets per second. With small packets it binds first: ' +
    "the talk's c7i.large gave 928 Mbps at MSS 128, about 1 Mpps, with one flow and with two.",
  scenario: talkPair(),
  steps: [
    {
      id: 'small-segments',
      title: 'Small segments',
      text: 'Send one TCP flow with a 128-byte MSS (iperf3 -M 128), then read pps_allowance_exceeded with ethtool -S.',
      predict: {
        question: 'What rate (Gbps) will one flow of 128-byte segments reach?',
        answer: { metric: 'iperf3.received_gbps' },
        tolerance: { relative: 0.15 },
        reason:
          "The c7i.large's PPS allowance (about 1 M packets/s, derived from the talk) binds long before the 10 Gbps flow limit: " +
          '1 M packets × 116 bytes of payload ≈ 0.93 Gbps. The talk measured 0.928 Gbps.',
      },
      goal: [
        {
          metric: 'iperf3.mss_bytes',
          op: '<=',
          value: 128,
          label: 'The segments are 128 bytes (iperf3 -M 128).',
        },
        {
          metric: 'counter',
          name: 'pps_allowance_exceeded',
          host: 'client',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '>',
          value: 0,
          label: 'The PPS allowance binds (pps_allowance_exceeded rises).',
        },
      ],
      hints: ['iperf3 -c server -t 2 -M 128 -P 1'],
      solution: ['iperf3 -c server -t 2 -M 128 -P 1', 'ethtool -S eth0'],
      mistakes: [
        {
          commands: ['iperf3 -c server -t 2 -P 1'],
          why: 'full-size segments: 10 Gbps is only ~140 k packets/s.',
        },
      ],
    },
    {
      id: 'two-queues',
      title: 'Two flows, two queues',
      text:
        'Now two flows at MSS 128 (-P 2). Each flow is hashed to a queue on its own, so two flows usually get two queues and two ' +
        'processors (they can also collide on one).',
      predict: {
        question: 'What rate (Gbps) will the two flows reach together?',
        answer: { metric: 'iperf3.received_gbps' },
        tolerance: { relative: 0.15 },
        reason:
          'The PPS allowance belongs to the instance, not to a queue: two flows share the same ~1 M packets/s (the talk: 471 + 477 = 929 Mbps).',
      },
      goal: [
        { metric: 'iperf3.streams', op: '==', value: 2, label: 'Two flows run.' },
        {
          metric: 'iperf3.mss_bytes',
          op: '<=',
          value: 128,
          label: 'The segments are 128 bytes (iperf3 -M 128).',
        },
        {
          metric: 'iperf3.received_gbps',
          op: '<',
          value: 1.1,
          label: 'Together they carry no more than one flow did (under 1.1 Gbps).',
        },
      ],
      hints: ['iperf3 -c server -t 2 -M 128 -P 2'],
      solution: ['iperf3 -c server -t 2 -M 128 -P 2'],
      mistakes: [{ commands: ['iperf3 -c server -t 2 -M 128 -P 1'], why: 'that is one flow again.' }],
    },
    {
      id: 'big-packets',
      title: 'Bandwidth without PPS',
      text:
        'Deliver at least 9 Gbps to the server with pps_allowance_exceeded at 0 for a 3-second run. Larger packets carry more bits per packet.\n\n' +
        'Careful: when iperf3 ends, Linux still sends what its sockets had buffered; after a small-segment run that takes a few tens of ' +
        'milliseconds at the PPS limit, and it counts against the next run if you start it at once.',
      goal: [
        { metric: 'iperf3.seconds', op: '>=', value: 3, label: 'The run lasts at least 3 seconds.' },
        { metric: 'iperf3.received_gbps', op: '>=', value: 9, label: 'It delivers at least 9 Gbps.' },
        {
          metric: 'counter',
          name: 'pps_allowance_exceeded',
          host: 'client',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 0,
          label: 'The PPS allowance never binds (pps_allowance_exceeded stays at 0).',
        },
      ],
      hints: [
        'Leave the MSS at its default (the path MTU is 9001 in the VPC).',
        'sleep 1 lets the previous run drain.',
      ],
      solution: ['sleep 1', 'iperf3 -c server -t 3'],
      mistakes: [
        {
          commands: ['sleep 1', 'iperf3 -c server -t 3 -M 128 -P 8'],
          why: 'more flows do not buy more packets per second: the allowance is per instance.',
        },
      ],
    },
  ],
};
