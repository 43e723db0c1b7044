/**
 * Secondary private addresses on the data path (issue 13): declared in the scenario or assigned with
 * `aws ec2 assign-private-ip-addresses`, every tool reaches them and the server answers from the
 * address it was reached at; an address no instance holds is never "Name or service not known".
 */
import { describe, expect, it } from 'vitest';
import { runScript } from '../../src/engine/session/runner';
import { SCENARIO_VERSION } from '../../src/scenario/schema';
import { runLab } from '../golden/helpers';

const lab = () =>
  runLab(
    {
      version: SCENARIO_VERSION,
      placement: 'cluster',
      instances: [
        { name: 'client', type: 'c5n.large' },
        { name: 'server', type: 'c5n.large', secondaryIps: ['10.0.0.51'] },
      ],
    },
    [],
  ).lab;

const out = (l: ReturnType<typeof lab>, lines: string[]) => runScript(l, lines);

describe('secondary private addresses', () => {
  it('a declared secondary address is reached by iperf3 and ping, and answers from that address', () => {
    const l = lab();
    const [iperf, ping] = out(l, ['iperf3 -c 10.0.0.51 -n 10M', 'ping -c 2 10.0.0.51']);
    expect(iperf!.exitCode, iperf!.output).toBe(0);
    expect(iperf!.output).toContain('Connecting to host 10.0.0.51, port 5201');
    expect(iperf!.output).toMatch(/connected to 10\.0\.0\.51 port 5201/);
    expect(iperf!.output).toMatch(/ sender\n/);
    expect(ping!.output).toContain('64 bytes from 10.0.0.51: icmp_seq=1');
    expect(ping!.output).toContain('2 received');
    const [, netperf] = out(l, ['server: netserver', 'netperf -H 10.0.0.51 -l 1']);
    expect(netperf!.exitCode, netperf!.output).toBe(0);
    expect(netperf!.output).toContain('to 10.0.0.51 () port 0 AF_INET');
  }, 60_000);

  it('assign-private-ip-addresses puts an address on the data path; unassign takes it off', () => {
    const l = lab();
    const eni = JSON.parse(
      out(l, [
        'server: aws ec2 describe-network-interfaces --filters Name=private-ip-address,Values=10.0.0.11',
      ])[0]!.output,
    ).NetworkInterfaces[0].NetworkInterfaceId as string;
    const before = out(l, ['iperf3 -c 10.0.0.60 -n 10M'])[0]!;
    expect(before.exitCode).toBe(1);
    expect(before.output).toContain('Connection timed out');
    expect(before.output).not.toContain('Name or service not known');
    const assigned = out(l, [
      `aws ec2 assign-private-ip-addresses --network-interface-id ${eni} --private-ip-addresses 10.0.0.60`,
    ])[0]!;
    expect(JSON.parse(assigned.output)).toEqual({
      NetworkInterfaceId: eni,
      AssignedPrivateIpAddresses: [{ PrivateIpAddress: '10.0.0.60' }],
      AssignedIpv4Prefixes: [],
    });
    // the instance's eth0 carries it (as amazon-ec2-net-utils adds it): ip address show
    const addr = out(l, ['server: ip addr show dev eth0'])[0]!.output.split('\n');
    expect(addr[2]).toBe('    inet 10.0.0.11/24 metric 512 brd 10.0.0.255 scope global dynamic eth0');
    expect(addr.slice(4, 8)).toEqual([
      '    inet 10.0.0.51/24 brd 10.0.0.255 scope global secondary eth0',
      '       valid_lft forever preferred_lft forever',
      '    inet 10.0.0.60/24 brd 10.0.0.255 scope global secondary eth0',
      '       valid_lft forever preferred_lft forever',
    ]);
    expect(addr[0]).toMatch(
      /^2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9001 qdisc mq state UP group default qlen 1000$/,
    );
    const after = out(l, ['iperf3 -c 10.0.0.60 -n 10M'])[0]!;
    expect(after.exitCode, after.output).toBe(0);
    const described = JSON.parse(
      out(l, [`aws ec2 describe-network-interfaces --network-interface-ids ${eni}`])[0]!.output,
    );
    expect(
      described.NetworkInterfaces[0].PrivateIpAddresses.map(
        (a: { PrivateIpAddress: string }) => a.PrivateIpAddress,
      ),
    ).toEqual(['10.0.0.11', '10.0.0.51', '10.0.0.60']);
    // a count picks the subnet's lowest free addresses (10.0.0.0-3 are AWS's)
    const counted = JSON.parse(
      out(l, [
        `aws ec2 assign-private-ip-addresses --network-interface-id ${eni} --secondary-private-ip-address-count 2`,
      ])[0]!.output,
    );
    expect(counted.AssignedPrivateIpAddresses).toEqual([
      { PrivateIpAddress: '10.0.0.4' },
      { PrivateIpAddress: '10.0.0.5' },
    ]);
    expect(
      out(l, [
        `aws ec2 unassign-private-ip-addresses --network-interface-id ${eni} --private-ip-addresses 10.0.0.60`,
      ])[0]!.exitCode,
    ).toBe(0);
    const gone = out(l, ['iperf3 -c 10.0.0.60 -n 10M'])[0]!;
    expect(gone.output).toContain('Connection timed out');
  }, 60_000);

  it('refuses as the EC2 API does', () => {
    const l = lab();
    const eni = JSON.parse(out(l, ['aws ec2 describe-network-interfaces'])[0]!.output).NetworkInterfaces[1]
      .NetworkInterfaceId as string;
    const err = (args: string) =>
      out(l, [`aws ec2 assign-private-ip-addresses --network-interface-id ${eni} ${args}`])[0]!.output;
    expect(err('')).toContain('(MissingParameter)');
    expect(err('--private-ip-addresses 10.0.0.10')).toContain('(InvalidIPAddress.InUse)');
    expect(err('--private-ip-addresses 10.0.9.10')).toContain(
      "does not fall within the subnet's address range",
    );
    expect(err('--private-ip-addresses 10.0.0.2')).toContain('(InvalidParameterValue)');
    expect(err('--private-ip-addresses 10.0.0.70 --secondary-private-ip-address-count 1')).toContain(
      '(InvalidParameterCombination)',
    );
    expect(err('--secondary-private-ip-address-count 49')).toContain('(PrivateIpAddressLimitExceeded)');
    expect(
      out(l, [
        'aws ec2 unassign-private-ip-addresses --network-interface-id eni-0123456789abcdef0 --private-ip-addresses 10.0.0.51',
      ])[0]!.output,
    ).toContain('(InvalidNetworkInterfaceID.NotFound)');
    // attach-network-interface reads its IDs as the API does (tests/shell/network-interfaces.test.ts)
    const attach = out(l, [
      'aws ec2 attach-network-interface --network-interface-id eni-1 --instance-id i-1 --device-index 1',
    ])[0]!;
    expect(attach.exitCode).toBe(254);
    expect(attach.output).toContain('(InvalidNetworkInterfaceID.NotFound)');
  }, 60_000);

  it('ip route shows the main table systemd-networkd leaves (DHCP routes, metric 512)', () => {
    const r = out(lab(), ['server: ip route'])[0]!;
    expect(r.output).toBe(
      'default via 10.0.0.1 dev eth0 proto dhcp src 10.0.0.11 metric 512 \n' +
        '10.0.0.0/24 dev eth0 proto kernel scope link src 10.0.0.11 metric 512 \n' +
        '10.0.0.1 dev eth0 proto dhcp scope link src 10.0.0.11 metric 512 \n' +
        '10.0.0.2 dev eth0 proto dhcp scope link src 10.0.0.11 metric 512 \n',
    );
  });
});
