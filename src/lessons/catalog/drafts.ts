/**
 * Lessons whose commands have not landed in the lab yet. They are listed (marked draft) so a
 * trainer sees them, and the tests check their data, but they are not offered as finished.
 */
import type { LessonInput } from '../schema';

const pair = {
  version: 2,
  placement: 'cluster',
  instances: [
    { name: 'client', type: 'c7i.large' },
    { name: 'server', type: 'c7i.large' },
  ],
};

export const tunnels: LessonInput = {
  id: 'tunnels',
  title: 'Tunnels and flow entropy',
  talk: 'Flow Analysis: "Whale" Flows, Nitro handling of Tunnel Hashing (GRE/IPsec: one 3-tuple flow; VXLAN/GENEVE/GTP with a unique source port: many 5-tuples)',
  summary:
    'Nitro hashes the outer header. A GRE tunnel carries all inner flows in one outer flow (one queue, one flow limit); VXLAN puts ' +
    'a hash of the inner flow in the outer UDP source port, so inner flows spread again.',
  scenario: pair,
  draft: {
    reason: 'needs tunnel devices in the lab (ip link add … type gre / vxlan); not on main yet',
    needs: ['ip link add NAME type gre', 'ip link add NAME type vxlan'],
  },
  steps: [
    {
      id: 'gre-vs-vxlan',
      title: 'Four flows through GRE, then VXLAN',
      text: "Run four iperf3 streams through a GRE tunnel and count the server's RX queues that carry them; then through VXLAN.",
      goal: [
        {
          metric: 'rx_queues_used',
          host: 'server',
          window: 'last-command',
          command: '^iperf3\\s',
          op: '==',
          value: 2,
        },
      ],
      hints: ["VXLAN sets the outer UDP source port from the inner flow's hash."],
      solution: [
        'ip link add vx0 type vxlan id 42 remote 10.0.0.11 dstport 4789 dev eth0',
        'server: ip link add vx0 type vxlan id 42 remote 10.0.0.10 dstport 4789 dev eth0',
        'iperf3 -c 192.168.42.2 -t 1 -P 4',
      ],
      mistakes: [],
    },
  ],
};
