/** NET402 "Flow Setup Processes": the first packet takes the processing path; the rest the accelerated path. */
import type { LessonInput } from '../schema';
import { talkPair } from './talk-pair';

export const flowSetup: LessonInput = {
  id: 'flow-setup',
  title: 'Flow setup and the accelerated path',
  talk: 'Packet Analysis: VPC Overview, Flow Setup Processes, Nitro State Machine ("Initial Security Group Eval: processing path"; "Established: accelerated flow")',
  summary:
    "The first packet of a new flow is evaluated on the Nitro card's processing path (route table, network ACL, " +
    'security group, conntrack); once the flow cache holds both directions, its packets take the accelerated path.',
  scenario: talkPair(),
  steps: [
    {
      id: 'trace',
      title: 'Ask the card',
      text:
        "Before sending anything, ask the lab how the client's card would judge a new TCP flow to the server's port 80: " +
        "which route, which NACL rule, which security group rule. (`lab` is the lab's own inspection command, not an AWS tool.)",
      goal: [
        {
          metric: 'commands',
          command: '^lab\\s+trace\\s+\\S+\\s+\\S+\\s+tcp\\s+80$',
          commandText: 'lab trace … tcp 80',
          op: '>=',
          value: 1,
          label: 'You asked the card how it judges a TCP flow to port 80 (lab trace … tcp 80).',
        },
      ],
      hints: ['lab trace SRC DST [tcp|udp|icmp] [PORT]'],
      solution: ['lab trace client server tcp 80'],
      mistakes: [
        {
          commands: ['lab trace client server'],
          why: 'without a protocol and port the card has no 5-tuple to judge.',
        },
      ],
    },
    {
      id: 'first-packet',
      title: 'One request, one flow setup',
      text:
        "Fetch a 1 MB file from the server's web server with curl, then look at the card with `lab nitro show`: " +
        'the conntrack entry and the flow cache entries for both directions, and how many packets took each path.',
      predict: {
        question: "How many of this connection's packets leaving the client take the slow (processing) path?",
        answer: { metric: 'slow_path_packets', host: 'client' },
        tolerance: { absolute: 0.5 },
        reason:
          'Only the first packet (the SYN) misses the flow cache; its evaluation installs the entry for both directions, ' +
          'and every later packet of the connection is forwarded on the accelerated path.',
      },
      goal: [
        { metric: 'curl.http_code', op: '==', value: 200, label: 'The request succeeds (HTTP 200).' },
        {
          metric: 'flow_setups',
          host: 'client',
          op: '==',
          value: 1,
          label: 'The client’s card sets up exactly one flow.',
        },
        {
          metric: 'slow_path_packets',
          host: 'client',
          op: '==',
          value: 1,
          label: 'Exactly one packet takes the processing path.',
        },
        {
          metric: 'accelerated_packets',
          host: 'client',
          op: '>=',
          value: 10,
          label: 'The rest (at least 10 packets) take the accelerated path.',
        },
      ],
      hints: ['curl -s -o /dev/null http://server/1M fetches 1 MB quietly.'],
      solution: ['curl -s -o /dev/null http://server/1M', 'lab nitro show client'],
      mistakes: [
        {
          commands: ['curl -s -o /dev/null http://server/1M', 'curl -s -o /dev/null http://server/1M'],
          why: 'two curls are two connections (two source ports): two flow setups.',
        },
      ],
    },
    {
      id: 'keepalive',
      title: 'Long-lived flows',
      text:
        'Every new connection pays flow setup on the processing path, which has a lower packet rate than the accelerated one. ' +
        'Serve 40 requests with 4 concurrent clients while setting up no more than 4 flows.',
      goal: [
        { metric: 'ab.complete_requests', op: '>=', value: 40, label: 'ab completes at least 40 requests.' },
        {
          metric: 'flow_setups',
          host: 'client',
          op: '<=',
          value: 4,
          label: 'The client’s card sets up at most 4 flows.',
        },
      ],
      hints: [
        'ab opens a new connection per request unless told to keep connections alive.',
        'ab -k uses HTTP keep-alive.',
      ],
      solution: ['ab -n 40 -c 4 -k http://server/'],
      mistakes: [
        {
          commands: ['ab -n 40 -c 4 http://server/'],
          why: 'without -k every request is a new connection, so a new flow.',
        },
      ],
    },
  ],
};
