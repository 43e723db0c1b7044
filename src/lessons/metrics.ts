/**
 * The metrics and comparison operators of the lesson predicate language (schema.ts), kept free of
 * zod so the page can evaluate lessons without the validator in its bundle.
 */
/** The metrics a predicate can read. `unit` drives how the evaluator prints a value. */
export const METRICS = {
  // the last iperf3 client run in the window (on `host`, default the first instance)
  'iperf3.received_gbps': {
    unit: 'Gbps',
    doc: "iperf3 -J end.sum_received: the receiver's rate over the test",
  },
  'iperf3.sent_gbps': { unit: 'Gbps', doc: "iperf3 -J end.sum_sent: the sender's rate" },
  'iperf3.min_stream_gbps': { unit: 'Gbps', doc: 'the slowest stream, receiver side' },
  'iperf3.max_stream_gbps': { unit: 'Gbps', doc: 'the fastest stream, receiver side' },
  'iperf3.last_interval_gbps': { unit: 'Gbps', doc: "the last interval's rate (all streams; sender side)" },
  'iperf3.streams': { unit: 'count', doc: 'number of parallel streams (-P)' },
  'iperf3.seconds': { unit: 's', doc: 'length of the test, receiver side' },
  'iperf3.retransmits': { unit: 'count', doc: 'TCP retransmissions (sender)' },
  'iperf3.lost_percent': { unit: '%', doc: 'UDP datagrams lost (receiver)' },
  'iperf3.mss_bytes': { unit: 'bytes', doc: 'the TCP MSS of the test (-M, else the path default)' },
  // ethtool -S on `host`
  counter: { unit: 'count', doc: 'how much an ethtool -S counter (`name`) rose over the window' },
  counter_value: { unit: 'count', doc: 'an ethtool -S counter (`name`) at the end of the window' },
  rx_queues_used: { unit: 'count', doc: 'RX queues that took ≥ 1% of the packets received over the window' },
  // the Nitro card of `host`
  flow_setups: { unit: 'count', doc: 'flow setups on the card over the window' },
  slow_path_packets: { unit: 'count', doc: 'packets that took the processing path over the window' },
  accelerated_packets: { unit: 'count', doc: 'packets forwarded on the accelerated path over the window' },
  conntrack_tracked: { unit: 'count', doc: 'tracked connections in the card at the end of the window' },
  conntrack_untracked: { unit: 'count', doc: 'untracked connections in the card at the end of the window' },
  // device and instance
  rx_ring: { unit: 'descriptors', doc: 'RX ring size (ethtool -g "Current hardware settings")' },
  tx_ring: { unit: 'descriptors', doc: 'TX ring size' },
  'instance.baseline_gbps': { unit: 'Gbps', doc: "the instance type's baseline bandwidth" },
  'instance.peak_gbps': { unit: 'Gbps', doc: "the instance type's burst (peak) bandwidth" },
  // other tools (the last run in the window)
  'curl.http_code': { unit: 'code', doc: 'curl: the HTTP status (0 when no response)' },
  'curl.time_connect_ms': { unit: 'ms', doc: "curl: time to TCP connect (curl -w '%{time_connect}')" },
  'curl.time_total_ms': { unit: 'ms', doc: 'curl: total time' },
  'cloudwatch.max_gbps': {
    unit: 'Gbps',
    doc: 'aws cloudwatch get-metric-statistics on NetworkIn/NetworkOut: the largest datapoint as a rate (Sum × 8 / period)',
  },
  'ab.complete_requests': { unit: 'count', doc: 'ab: complete requests' },
  'ab.requests_per_second': { unit: '/s', doc: 'ab: requests per second' },
  // the command log
  commands: { unit: 'count', doc: 'commands in the window matching `command` (a regex) that exited 0' },
  exit_code: { unit: 'code', doc: 'exit code of the last command matching `command`' },
} as const;

export type MetricName = keyof typeof METRICS;

export const OPS = ['>=', '>', '<=', '<', '==', '!='] as const;
export type Op = (typeof OPS)[number];
