/** NET402 "Multi-flow Analysis: Burst Bandwidth, Baseline Bandwidth". */
import { getInstanceType } from '../../catalog';
import type { LessonInput } from '../schema';
import { talkPair } from './talk-pair';

const C7I = getInstanceType('c7i.large')!;
/**
 * How long a full credit bucket lasts at peak in the model. AWS publishes no bucket size, only
 * "typically from 5 to 60 minutes, depending on the instance size" (AWS-BW): the catalog figure is
 * `assumed`, so the text names it as the lab's assumption.
 */
export const BURST_LESSON_ASSUMED_MINUTES = C7I.burstCreditSeconds!.value / 60;
const PEAK = C7I.peakBandwidthGbps.value;
const BASELINE = C7I.baselineBandwidthGbps.value;

export const burstBaseline: LessonInput = {
  id: 'burst-baseline',
  title: 'Burst and baseline bandwidth',
  talk: 'Multi-flow Analysis: Burst Bandwidth (c7i.large 12.5 Gbps), Baseline Bandwidth (780 Mbps after the credits are consumed), Enhanced Network Metrics',
  summary:
    `Smaller instances have a baseline bandwidth and burst above it on credits. The c7i.large bursts at ${PEAK} Gbps; once the credits ` +
    `run out it is shaped to its ${BASELINE} Gbps baseline, and bw_out_allowance_exceeded rises.`,
  scenario: {
    ...talkPair(),
    // the catalog assumes the c7i.large's credits last 6.5 min at full burst; this lab gives it 10 s so the lesson does not wait
    params: { burstCreditSecondsOverride: 10 },
  },
  steps: [
    {
      id: 'run-out',
      title: 'Burst until the credits run out',
      text:
        'Send two flows of 9000-byte writes long enough to use up the burst credits, with an interval report every 5 s so you see the step down. ' +
        `AWS does not publish how long a c7i.large can burst, only "typically from 5 to 60 minutes, depending on the instance size" ` +
        `(the talk ran -t 600); this lab assumes ${BURST_LESSON_ASSUMED_MINUTES} minutes for it, and this lesson's scenario shortens ` +
        'its credit bucket to 10 s of full burst (the burstCreditSecondsOverride parameter) so you do not wait.',
      predict: {
        question: 'Once the credits are gone, what rate (Gbps) will the two flows get together?',
        answer: { metric: 'iperf3.last_interval_gbps' },
        tolerance: { relative: 0.15 },
        reason: `Without credits the instance is shaped to its baseline, ${BASELINE} Gbps for a c7i.large; the talk measured 368 + 403 = 772 Mbps.`,
      },
      goal: [
        {
          metric: 'iperf3.last_interval_gbps',
          op: '<=',
          value: 1,
          label: 'The last 1-second interval runs at the baseline (at most 1 Gbps).',
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
          label: 'The outbound allowance binds: bw_out_allowance_exceeded rises during the run.',
        },
      ],
      hints: ['iperf3 -c server -t 15 -l 9000 -P 2 -i 5', 'Here the credits last 10 s at full burst.'],
      solution: ['iperf3 -c server -t 15 -l 9000 -P 2 -i 5'],
      mistakes: [
        {
          commands: ['iperf3 -c server -t 2 -l 9000 -P 2'],
          why: `two seconds barely touch the credits: the run stays at ${PEAK} Gbps.`,
        },
      ],
    },
  ],
};
