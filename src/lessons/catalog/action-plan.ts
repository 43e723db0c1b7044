/** NET402 "Action Plan for Optimizing Nitro Throughput": know the traffic, its profile, choose the instance, tune and monitor. */
import type { LessonInput } from '../schema';

const ENI = {
  client: 'eni-0a0000000000000c1',
  a: 'eni-0a00000000000000a',
  b: 'eni-0a00000000000000b',
  c: 'eni-0a00000000000000c',
  d: 'eni-0a00000000000000d',
};
const srd = (eni: string) =>
  `aws ec2 modify-network-interface-attribute --network-interface-id ${eni} --ena-srd-specification EnaSrdEnabled=true`;

export const actionPlan: LessonInput = {
  id: 'action-plan',
  title: 'Final mission: the action plan',
  talk: 'Action Plan: 1. know your traffic types (whale flows, flow entropy, single vs many flows); 2. their profile (PPS, BPS, CPS); 3. choose the instance type (baseline and burst, Nitro capabilities); 4. tune and monitor (driver tuning, ethtool metrics)',
  summary:
    'A workload is described; pick the receiving instance among four candidates and the settings that carry it, then prove it with the ' +
    'numbers the talk taught you to read.',
  scenario: {
    version: 2,
    placement: 'same-az',
    instances: [
      { name: 'client', type: 'c6in.8xlarge', eniId: ENI.client },
      { name: 'ingest-a', type: 'c7i.large', eniId: ENI.a },
      { name: 'ingest-b', type: 'c6i.8xlarge', eniId: ENI.b },
      { name: 'ingest-c', type: 'c6in.4xlarge', eniId: ENI.c },
      { name: 'ingest-d', type: 'c6in.8xlarge', eniId: ENI.d },
    ],
  },
  steps: [
    {
      id: 'whale-flow',
      title: 'One whale flow, all day',
      text:
        'The workload: a replication stream from `client` is ONE TCP connection (it cannot be split) that must carry at least 15 Gbps, ' +
        "all day long (so the receiver's baseline, not its burst, must cover it). Sender and receiver are in the same AZ, not in a " +
        'cluster placement group. Candidates: ingest-a (c7i.large), ingest-b (c6i.8xlarge), ingest-c (c6in.4xlarge), ingest-d (c6in.8xlarge).\n\n' +
        'Pick the receiver, apply the settings it needs, and prove it with one iperf3 stream: ≥ 15 Gbps, no bw_in_allowance_exceeded on the receiver.',
      goal: [
        { metric: 'iperf3.streams', op: '==', value: 1, label: 'A single flow (the whale) carries it.' },
        { metric: 'iperf3.received_gbps', op: '>=', value: 15, label: 'It delivers at least 15 Gbps.' },
        {
          metric: 'instance.baseline_gbps',
          host: '@target',
          op: '>=',
          value: 15,
          label: "The receiver's baseline bandwidth is at least 15 Gbps, so it holds that rate all day.",
        },
        {
          metric: 'counter',
          name: 'bw_in_allowance_exceeded',
          host: '@target',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 0,
          label:
            "The receiver's inbound bandwidth allowance never binds (bw_in_allowance_exceeded stays at 0).",
        },
      ],
      hints: [
        'Outside a cluster placement group one flow is limited to 5 Gbps; only ENA Express lifts a single flow (to 25 Gbps).',
        'ENA Express needs a supported type at both ends and both ENIs opted in: aws ec2 describe-network-interfaces shows the IDs.',
        "Baseline, not burst: compare the candidates' baseline bandwidths (c7i.large: 0.781 Gbps).",
      ],
      solution: [srd(ENI.client), srd(ENI.d), 'iperf3 -c ingest-d -t 1'],
      mistakes: [
        {
          commands: [srd(ENI.client), srd(ENI.b), 'iperf3 -c ingest-b -t 1'],
          why: 'ENA Express works, but a c6i.8xlarge has 12.5 Gbps in all.',
        },
        {
          commands: ['iperf3 -c ingest-c -t 1'],
          why: 'a c6in.4xlarge has the bandwidth but no ENA Express: one flow stays at 5 Gbps.',
        },
        {
          commands: ['iperf3 -c ingest-d -t 1 -P 4'],
          why: 'four flows reach 20 Gbps, but the workload is one connection.',
        },
      ],
    },
    {
      id: 'small-packets',
      title: 'Many small packets',
      text:
        'A second workload for the same sender: a telemetry collector receives eight streams of small messages (128-byte segments: ' +
        "iperf3 -M 128 -P 8) and must take at least 2.5 Gbps of them, about 2.7 million packets a second, without the receiver's " +
        'pps_allowance_exceeded moving. Bits per second are easy here; packets per second are not. Pick the receiver among the four.',
      predict: {
        question:
          'How many Gbps of 128-byte segments does a c6i.8xlarge (ingest-b, 12.5 Gbps) take from eight streams?',
        answer: {
          metric: 'iperf3.received_gbps',
          command: '^iperf3\\s.*-c\\s+ingest-b\\b',
          commandText: 'iperf3 -c ingest-b',
        },
        tolerance: { relative: 0.2 },
        reason:
          "Its PPS allowance (about 1 Mpps in this lab's catalog) binds first: 1 M packets × 116 bytes of payload ≈ 0.9 Gbps, " +
          'whatever its bandwidth. Run it against ingest-b once to see.',
      },
      goal: [
        {
          metric: 'iperf3.mss_bytes',
          op: '<=',
          value: 128,
          label: 'The segments are 128 bytes (iperf3 -M 128).',
        },
        { metric: 'iperf3.streams', op: '>=', value: 8, label: 'At least eight streams run in parallel.' },
        {
          metric: 'iperf3.received_gbps',
          op: '>=',
          value: 2.5,
          label: 'The small packets add up to at least 2.5 Gbps.',
        },
        {
          metric: 'counter',
          name: 'pps_allowance_exceeded',
          host: '@target',
          window: 'last-command',
          command: '^iperf3\\s',
          commandText: 'iperf3',
          op: '==',
          value: 0,
          label: "The receiver's PPS allowance never binds (pps_allowance_exceeded stays at 0).",
        },
      ],
      hints: [
        "PPS allowances are not published per type. This lab assumes they grow with the type's bandwidth, so here the " +
          'network-optimised "n" types carry far more packets per second.',
        'Try the same test against two candidates and compare pps_allowance_exceeded.',
      ],
      solution: ['iperf3 -c ingest-b -t 1 -M 128 -P 8', 'iperf3 -c ingest-c -t 1 -M 128 -P 8'],
      mistakes: [
        {
          commands: ['iperf3 -c ingest-b -t 1 -M 128 -P 8'],
          why: 'a c6i.8xlarge has the bandwidth but not the packet rate: its PPS allowance binds at ≈ 0.9 Gbps.',
        },
      ],
    },
  ],
};
