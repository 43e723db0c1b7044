/**
 * NET402's history slide (Nitro v1: C4 … v5: C7gn) run as a lab: the same tests on a c3.8xlarge
 * through Xen's PV device and then its Intel 82599 VF (seed SRIOV), a c4.8xlarge (the VF with the
 * first Nitro card behind it), an r4.8xlarge (the first ENA, still on Xen) and a c7i.8xlarge (ENA on
 * Nitro v4), and the seeds' advice: move to a newer generation (NETFLIX18).
 */
import type { LessonInput } from '../schema';

const C3A = 'i-0c3a0000000000001';
const C3B = 'i-0c3b0000000000002';

export const xenToNitro: LessonInput = {
  id: 'xen-to-nitro',
  title: 'From Xen to Nitro',
  talk: 'Introduction: the history slide "Nitro v1 C4 10 Gbps, v2 C5 25 Gbps, v3 C5n 100 Gbps, v4 C6in 200 Gbps, v5 C7gn 200 Gbps"',
  summary:
    'Before Nitro, a packet left an EC2 instance through the Xen hypervisor: netfront in the guest, netback in dom0, ' +
    'sharing dom0 with every other guest. Enhanced networking (SR-IOV with an Intel 82599 VF, then ENA) let the guest ' +
    'drive a device of its own; Nitro moved the VPC itself into a card. Run the same tests across the generations and ' +
    'see what the numbers and the path show.',
  scenario: {
    version: 4,
    placement: 'same-az',
    instances: [
      { name: 'c3a', type: 'c3.8xlarge', enhancedNetworking: false, instanceId: C3A },
      { name: 'c3b', type: 'c3.8xlarge', enhancedNetworking: false, instanceId: C3B },
      { name: 'c4a', type: 'c4.8xlarge' },
      { name: 'c4b', type: 'c4.8xlarge' },
      { name: 'r4a', type: 'r4.8xlarge' },
      { name: 'r4b', type: 'r4.8xlarge' },
      { name: 'c7ia', type: 'c7i.8xlarge' },
      { name: 'c7ib', type: 'c7i.8xlarge' },
    ],
  },
  steps: [
    {
      id: 'pv',
      title: 'c3.8xlarge without enhanced networking',
      text:
        'c3a and c3b are c3.8xlarge instances ("10 Gigabit") launched without enhanced networking, as the SR-IOV seed ' +
        'first ran them. On c3a, check which driver eth0 uses, then send UDP at 1 Gbps to c3b in 1,470-byte datagrams ' +
        'for one second.\n\n' +
        "The path view shows dom0's netback where a Nitro card would be: every packet is copied by a backend worker " +
        'that dom0 shares with the other guests of the host.',
      goal: [
        {
          metric: 'commands',
          command: '^ethtool\\s+-i\\s+eth0$',
          commandText: 'ethtool -i eth0',
          op: '>=',
          value: 1,
          label: 'You looked at the driver (ethtool -i eth0).',
        },
        {
          metric: 'iperf3.lost_percent',
          host: 'c3a',
          op: '>=',
          value: 10,
          label: 'At 1 Gbps the PV path loses at least 10 % of the datagrams.',
        },
      ],
      hints: [
        'c3a: ethtool -i eth0 runs it on c3a.',
        'iperf3 -c c3b -u -b 1G -l 1470 -t 1 (every instance runs iperf3 -s).',
        'The seed: "enhanced networking really kicks in after 700 to 800 mbps. That is when packet loss increases drastically in non SR-IOV enabled instances."',
      ],
      solution: ['c3a: ethtool -i eth0', 'c3a: iperf3 -c c3b -u -b 1G -l 1470 -t 1'],
      mistakes: [
        {
          commands: ['c3a: ethtool -i eth0', 'c3a: iperf3 -c c3b -u -b 500M -l 1470 -t 1'],
          why: "at 0.5 Gbps dom0's netback keeps up: its queue for the guest (512 KiB) outlasts its occasional preemptions, so next to nothing is lost.",
        },
      ],
    },
    {
      id: 'sriov',
      title: 'Turn SR-IOV on',
      text:
        `Enable enhanced networking on both c3 instances as the seed did: stop them (aws ec2 stop-instances), set ` +
        '--sriov-net-support simple with modify-instance-attribute, start them, and check that the driver is now ixgbevf. ' +
        `Then run the same UDP test again. The instance IDs: c3a ${C3A}, c3b ${C3B}.`,
      goal: [
        {
          metric: 'commands',
          command: '^aws\\s+ec2\\s+modify-instance-attribute\\s+.*--sriov-net-support\\s+simple',
          commandText: 'aws ec2 modify-instance-attribute … --sriov-net-support simple',
          op: '>=',
          value: 2,
          label: 'Both instances have SR-IOV set (modify-instance-attribute, twice).',
        },
        {
          metric: 'iperf3.lost_percent',
          host: 'c3a',
          op: '<',
          value: 1,
          label: 'The same 1 Gbps UDP test now loses less than 1 %.',
        },
      ],
      hints: [
        'modify-instance-attribute refuses a running instance: stop it first.',
        `aws ec2 stop-instances --instance-ids ${C3A} ${C3B}`,
        'A stopped instance cannot be reached: run the aws commands on the other one (c4a: aws ec2 …).',
      ],
      solution: [
        `c4a: aws ec2 stop-instances --instance-ids ${C3A} ${C3B}`,
        `c4a: aws ec2 modify-instance-attribute --instance-id ${C3A} --sriov-net-support simple`,
        `c4a: aws ec2 modify-instance-attribute --instance-id ${C3B} --sriov-net-support simple`,
        `c4a: aws ec2 start-instances --instance-ids ${C3A} ${C3B}`,
        'c3a: ethtool -i eth0',
        'c3a: iperf3 -c c3b -u -b 1G -l 1470 -t 1',
      ],
      mistakes: [
        {
          commands: ['c3a: iperf3 -c c3b -u -b 1G -l 1470 -t 1'],
          why: 'nothing changed yet: the packets still go through dom0.',
        },
      ],
    },
    {
      id: 'c4',
      title: 'C4: the same VF, Nitro v1 behind it',
      text:
        'NET402 counts C4 as Nitro v1: the guest still sees the Intel 82599 VF (driver ixgbevf, two queues), but an ' +
        "Annapurna Labs card does the VPC work behind it. Check c4a's driver and run TCP with two flows to c4b for one second.",
      goal: [
        {
          metric: 'iperf3.received_gbps',
          host: 'c4a',
          op: '>=',
          value: 9,
          label: 'Two TCP flows reach at least 9 Gbps: the 10 Gbps of a "10 Gigabit" type.',
        },
      ],
      hints: ['c4a: iperf3 -c c4b -P 2 -t 1 (one flow stops at 5 Gbps outside a cluster placement group).'],
      solution: ['c4a: ethtool -i eth0', 'c4a: iperf3 -c c4b -P 2 -t 1'],
      mistakes: [
        {
          commands: ['c4a: iperf3 -c c4b -t 1'],
          why: 'one flow is held at the 5 Gbps single-flow limit between instances outside a cluster placement group.',
        },
      ],
    },
    {
      id: 'r4',
      title: 'R4: ENA, still on Xen',
      text:
        'R4 (2016) brought the Elastic Network Adapter to Xen hosts: driver ena, eight queues, up to 25 Gbps on the ' +
        'largest size. Run four TCP flows from r4a to r4b for one second and look at ethtool -S: ENA counters, but no ' +
        'allowance counters yet.',
      goal: [
        {
          metric: 'iperf3.received_gbps',
          host: 'r4a',
          op: '>=',
          value: 11,
          label: "Four flows reach the r4.8xlarge's 12 Gbps (at least 11).",
        },
      ],
      hints: ['r4a: iperf3 -c r4b -P 4 -t 1', 'r4a: ethtool -S eth0'],
      solution: ['r4a: iperf3 -c r4b -P 4 -t 1', 'r4a: ethtool -S eth0'],
      mistakes: [
        {
          commands: ['r4a: iperf3 -c r4b -P 2 -t 1'],
          why: 'two flows at 5 Gbps each make 10: the instance allows 12.',
        },
      ],
    },
    {
      id: 'c7i',
      title: 'C7i: ENA on a Nitro v4 card',
      text:
        'On a c7i.8xlarge the same ENA driver talks to a Nitro v4 card that runs the VPC (flow setup, conntrack, the ' +
        'allowances) and tells the guest about it: ethtool -S now lists bw_in/bw_out/pps/conntrack/linklocal ' +
        'allowance counters. Run four flows from c7ia to c7ib and read them.\n\n' +
        'The action plan of the seeds: "It is recommended to upgrade to a newer instance types, if your application is ' +
        'still on an old instance type, to achieve better network throughput and lower latency at the same price point" ' +
        '(NETFLIX18); SR-IOV "does improve the overall performance" (SRIOV).',
      goal: [
        {
          metric: 'iperf3.received_gbps',
          host: 'c7ia',
          op: '>=',
          value: 12,
          label: "Four flows reach the c7i.8xlarge's 12.5 Gbps (at least 12).",
        },
        {
          metric: 'counter_value',
          name: 'conntrack_allowance_available',
          host: 'c7ia',
          op: '>',
          value: 0,
          label: 'The Nitro card reports its allowances (conntrack_allowance_available in ethtool -S).',
        },
      ],
      hints: ['c7ia: iperf3 -c c7ib -P 4 -t 1', 'c7ia: ethtool -S eth0 | grep allowance'],
      solution: ['c7ia: iperf3 -c c7ib -P 4 -t 1', 'c7ia: ethtool -S eth0'],
      mistakes: [
        {
          commands: ['c7ia: iperf3 -c c7ib -P 2 -t 1', 'c7ia: ethtool -S eth0'],
          why: 'two flows at 5 Gbps each make 10: the instance allows 12.5.',
        },
      ],
    },
  ],
};
