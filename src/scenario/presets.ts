/**
 * Presets: the seed experiments of the NET402 talk as data (a scenario document and the commands
 * to type), shown in the lab's picker. Pure data, shared by the UI and tests.
 */
import { getInstanceType } from '../catalog';

/** The scenario version these documents are written in (schema.ts SCENARIO_VERSION; a literal keeps zod out of the page's bundle). */
const SCENARIO_VERSION = 2;

/**
 * Seconds of full burst in a c7i.large's credit bucket in this lab. AWS publishes no bucket size
 * (AWS-BW: "typically from 5 to 60 minutes"), so the catalog figure is `assumed` and the summary says so.
 */
export const EXP2_ASSUMED_BURST_SECONDS = getInstanceType('c7i.large')!.burstCreditSeconds!.value;

/**
 * The view an experiment (or a lesson) opens on: the chart that makes its point, brought into
 * view when it loads, and the charts' time window when the point needs one (the credits run over
 * its 10 minutes). Without a window the charts follow the clock.
 */
export interface PresetView {
  chart: 'rate' | 'ladder' | 'cloudwatch' | 'pps' | 'latency' | 'queues' | 'credits' | 'drops' | 'allowances';
  /** The charts' window, in simulated seconds. */
  windowS?: readonly [number, number];
}

export interface Preset {
  id: string;
  title: string;
  /** One or two sentences: what the experiment shows and what to watch. */
  summary: string;
  scenario: Record<string, unknown>;
  /** Commands to try, in order (the terminal offers them; nothing runs by itself). */
  commands: string[];
  /** The view it opens on (default: the rate chart, following the clock). */
  view?: PresetView;
}

const pair = (type: string) => [
  { name: 'client', type },
  { name: 'server', type },
];

export const PRESETS: readonly Preset[] = [
  {
    id: 'exp1',
    title: 'Exp 1 · one flow vs two (c7i.large)',
    summary:
      'In a cluster placement group one TCP flow reaches the ≈10 Gbps per-flow limit; two flows share the instance’s 12.5 Gbps burst bandwidth.',
    scenario: { version: SCENARIO_VERSION, seed: 1, placement: 'cluster', instances: pair('c7i.large') },
    commands: ['iperf3 -c server -t 1 -l 9000 -P 1', 'iperf3 -c server -t 1 -l 9000 -P 2'],
  },
  {
    id: 'exp2',
    title: 'Exp 2 · burst credits run out (600 s)',
    summary: `Two flows burst at 12.5 Gbps until the network I/O credits run out (≈${EXP2_ASSUMED_BURST_SECONDS} s on a c7i.large in this lab: an assumption, AWS publishes only "5 to 60 minutes"), then fall to the baseline; bw_out_allowance_exceeded climbs.`,
    scenario: { version: SCENARIO_VERSION, seed: 1, placement: 'cluster', instances: pair('c7i.large') },
    commands: ['iperf3 -c server -t 600 -l 9000 -P 2', 'ethtool -S eth0'],
    // the rate over the whole run: the burst, the fall to the baseline when the credits run out
    view: { chart: 'rate', windowS: [0, 600] },
  },
  {
    id: 'exp3',
    title: 'Exp 3 · small packets hit the PPS allowance',
    summary:
      'With 128-byte segments the packet-per-second allowance, not bandwidth, is the limit: under 1 Gbps, and pps_allowance_exceeded rises.',
    scenario: { version: SCENARIO_VERSION, seed: 1, placement: 'cluster', instances: pair('c7i.large') },
    commands: ['iperf3 -c server -t 1 -M 128 -P 1', 'ethtool -S eth0'],
    view: { chart: 'pps' },
  },
  {
    id: 'exp4',
    title: 'Exp 4 · UDP flood on 2 vCPUs',
    summary:
      'Eight UDP senders at 10 Gbps each: the sender’s 2 vCPUs decide what leaves the sockets (≈ 26 Gbps), the sender’s Nitro card lets 12.5 Gbps out (bw_out_allowance_exceeded), and about half never arrives.',
    scenario: { version: SCENARIO_VERSION, seed: 1, placement: 'cluster', instances: pair('c7i.large') },
    commands: ['iperf3 -c server -u -b 10G -P 8 -l 8948 -t 1'],
    // the talk's microburst test: the burst at 10 µs beside what iperf3 and CloudWatch average it to
    view: { chart: 'ladder' },
  },
  {
    id: 'exp5',
    title: 'Exp 5 · ten flows on a c5n.18xlarge, then HTB',
    summary:
      'Ten flows at ≈10 Gbps each on a 100 Gbps instance; then an HTB class caps them at 10 Gbps in total.',
    scenario: { version: SCENARIO_VERSION, seed: 1, placement: 'cluster', instances: pair('c5n.18xlarge') },
    commands: [
      'iperf3 -c server -t 2 -P 10',
      'tc qdisc add dev eth0 root handle 1: htb default 10',
      'tc class add dev eth0 parent 1: classid 1:10 htb rate 10gbit ceil 10gbit',
      'tc qdisc add dev eth0 parent 1:10 handle 20: fq_codel flows 1024 limit 10240 quantum 8000 maxrate 1gbit',
      'tc qdisc add dev eth0 parent 1:10 handle 20: fq_codel flows 1024 limit 10240 quantum 8000',
      'iperf3 -c server -t 2 -P 10',
    ],
  },
  {
    id: 'exp6',
    title: 'Exp 6 · dpdk-testpmd, 64-byte packets',
    summary:
      'Kernel bypass: about 1 Mpps per TX queue until the instance’s PPS allowance (≈8.5 Mpps) is the knee; past it the sender’s own TX count stops there too (the rest waits in its TX rings and testpmd drops it).',
    scenario: { version: SCENARIO_VERSION, seed: 1, placement: 'cluster', instances: pair('c5n.18xlarge') },
    commands: [
      'server: dpdk-testpmd -l 0-32 -- --forward-mode=rxonly --rxq=32 --txq=32 --nb-cores=32 &',
      'timeout 0.2 dpdk-testpmd -l 0-4 -- --forward-mode=txonly --txq=4 --rxq=4 --nb-cores=4 --txpkts=64',
    ],
  },
  {
    id: 'router',
    title: 'Toonk · a Linux router between instances (c5n.9xlarge)',
    summary:
      'The sender’s subnet routes the receiver’s address to a c5n.9xlarge whose kernel forwards (ip_forward, no source/destination check). Its card charges each packet in and out to one PPS budget: RX + TX ≈ 6.2 Mpps together, as Toonk measured, about what it receives alone.',
    scenario: {
      version: 5,
      seed: 1,
      placement: 'cluster',
      instances: [
        { name: 'sender', type: 'c5n.18xlarge', subnet: 'subnet-0a000000000000001', ip: '10.0.0.10' },
        {
          name: 'router',
          type: 'c5n.9xlarge',
          subnet: 'subnet-0a000000000000002',
          ip: '10.0.1.10',
          eniId: 'eni-0a000000000000010',
          sourceDestCheck: false,
        },
        { name: 'sink', type: 'c5n.18xlarge', subnet: 'subnet-0a000000000000002', ip: '10.0.1.20' },
      ],
      vpc: {
        VpcId: 'vpc-0c000000000000001',
        CidrBlock: '10.0.0.0/16',
        Subnets: [
          { SubnetId: 'subnet-0a000000000000001', CidrBlock: '10.0.0.0/24', AvailabilityZone: 'us-east-1a' },
          { SubnetId: 'subnet-0a000000000000002', CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a' },
        ],
        RouteTables: [
          { RouteTableId: 'rtb-0d000000000000001', Associations: [{ Main: true }], Routes: [] },
          {
            RouteTableId: 'rtb-0d000000000000002',
            Associations: [{ SubnetId: 'subnet-0a000000000000001' }],
            Routes: [
              {
                DestinationCidrBlock: '10.0.1.20/32',
                NetworkInterfaceId: 'eni-0a000000000000010',
                State: 'active',
                Origin: 'CreateRoute',
              },
            ],
          },
        ],
        InternetGateways: [],
        NetworkAcls: [
          {
            NetworkAclId: 'acl-0f000000000000001',
            IsDefault: true,
            Associations: [],
            Entries: [
              { RuleNumber: 100, Egress: true, Protocol: '-1', RuleAction: 'allow', CidrBlock: '0.0.0.0/0' },
              { RuleNumber: 100, Egress: false, Protocol: '-1', RuleAction: 'allow', CidrBlock: '0.0.0.0/0' },
            ],
          },
        ],
        SecurityGroups: [
          {
            GroupId: 'sg-0b000000000000001',
            GroupName: 'default',
            Description: 'the lab',
            IpPermissions: [{ IpProtocol: '-1', IpRanges: [{ CidrIp: '10.0.0.0/16' }] }],
            IpPermissionsEgress: [{ IpProtocol: '-1', IpRanges: [{ CidrIp: '0.0.0.0/0' }] }],
          },
        ],
      },
    },
    commands: [
      'router: sysctl -w net.ipv4.ip_forward=1',
      'sink: dpdk-testpmd -l 0-32 -- --forward-mode=rxonly --rxq=32 --txq=32 --nb-cores=32 &',
      'timeout 2 dpdk-testpmd -l 0-12 -- --forward-mode=txonly --txq=12 --rxq=12 --nb-cores=12 --txpkts=64 --txonly-multi-flow --tx-ip=10.0.0.10,10.0.1.20 &',
      'sleep 0.5',
      'router: sar -n DEV 1 1',
      'router: ethtool -S eth0 | grep allowance',
    ],
    view: { chart: 'pps' },
  },
];

export const DEFAULT_PRESET_ID = 'exp1';

/** The views the lessons open on (by lesson id; the others: the rate chart, following the clock). */
export const LESSON_VIEWS: Readonly<Record<string, PresetView>> = {
  microbursts: { chart: 'ladder' },
  'cloudwatch-truth': { chart: 'ladder' },
  'burst-baseline': { chart: 'rate', windowS: [0, 20] },
  'pps-limits': { chart: 'pps' },
};

/** The view a loaded preset or lesson (presetId 'lesson:<id>') opens on. */
export function viewOf(presetId: string): PresetView {
  const lesson = presetId.startsWith('lesson:') ? LESSON_VIEWS[presetId.slice(7)] : undefined;
  return lesson ?? PRESETS.find((p) => p.id === presetId)?.view ?? { chart: 'rate' };
}
