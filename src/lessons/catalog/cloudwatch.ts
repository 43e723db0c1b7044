/** NET402 "Micro bursting: Measuring Network Bursts": what actually happens versus what your metrics show. */
import type { LessonInput } from '../schema';

const CLIENT_ID = 'i-0c10d0a7c000000c1';
const QUERY =
  'aws cloudwatch get-metric-statistics --namespace AWS/EC2 --metric-name NetworkOut ' +
  `--dimensions Name=InstanceId,Value=${CLIENT_ID} --start-time 2024-12-02T17:00:00Z --end-time 2024-12-02T17:10:00Z ` +
  '--period 60 --statistics Sum';

export const cloudwatchTruth: LessonInput = {
  id: 'cloudwatch-truth',
  title: 'CloudWatch versus the truth',
  talk: 'Flow Analysis: Measuring Network Bursts ("10 Gbps sent within 6 seconds" / "1 Gbps measured each 60 seconds"), Test Method (iperf and CloudWatch)',
  summary:
    "CloudWatch's NetworkOut is a byte count per period: a 6-second burst at 9.5 Gbps shows as under 1 Gbps once spread over a " +
    'minute. Bursts that matter to queues last microseconds to milliseconds; averages hide them.',
  scenario: {
    version: 3,
    placement: 'cluster',
    // detailed monitoring: one datapoint a minute (basic monitoring publishes 5-minute statistics)
    settings: { monitoring: 'detailed' },
    instances: [
      { name: 'client', type: 'c7i.large', instanceId: CLIENT_ID },
      { name: 'server', type: 'c7i.large' },
    ],
  },
  steps: [
    {
      id: 'six-seconds',
      title: 'Six seconds at 9.5 Gbps',
      text:
        "Repeat the talk's test: iperf3 -c server -t 6 -M 9000 -P 1. Let the minute end (sleep), then ask CloudWatch for the " +
        "client's NetworkOut with a 60-second period, and turn the largest Sum into a rate (bytes × 8 / 60 s), as the talk's metric " +
        "expression did. The lab's clock starts at 2024-12-02T17:00:00Z. CloudWatch wants the client's instance ID: on the client, " +
        'ec2-metadata -i prints it (aws ec2 describe-instances lists every instance with its InstanceId).',
      predict: {
        question: 'What rate (Gbps) will the one-minute NetworkOut datapoint of the burst give?',
        answer: { metric: 'cloudwatch.max_gbps' },
        tolerance: { relative: 0.2 },
        reason:
          'About 6 s × 9.9 Gbps of bytes land in one clock minute: divided by 60 s that is ≈ 1 Gbps (the talk: 899 Mbps). ' +
          'The flow ran at its 10 Gbps limit; the metric cannot show it.',
      },
      goal: [
        {
          metric: 'iperf3.received_gbps',
          op: '>=',
          value: 9,
          label: 'iperf3 reports the burst at 9 Gbps or more.',
        },
        {
          metric: 'cloudwatch.max_gbps',
          op: '<=',
          value: 1.5,
          label: 'CloudWatch’s busiest minute shows a fraction of it (at most 1.5 Gbps).',
        },
      ],
      hints: [
        'A 1-minute datapoint is published once its minute is over: sleep 120 after the test.',
        `The instance ID: ec2-metadata -i on the client prints instance-id: ${CLIENT_ID}.`,
        'aws cloudwatch get-metric-statistics --namespace AWS/EC2 --metric-name NetworkOut --dimensions Name=InstanceId,Value=i-… --start-time … --end-time … --period 60 --statistics Sum',
      ],
      solution: ['ec2-metadata -i', 'iperf3 -c server -t 6 -M 9000 -P 1', 'sleep 120', QUERY],
      mistakes: [
        {
          commands: ['iperf3 -c server -t 20 -M 9000 -P 1', 'sleep 120', QUERY],
          why: 'a 20-second run fills a third of the minute: the datapoint shows ≈ 3.3 Gbps, closer to the truth.',
        },
      ],
    },
  ],
};
