/**
 * `aws ec2 create-/attach-/detach-/delete-network-interface` (issue 13): a secondary ENI becomes
 * eth1 on the instance at once (its own device, queues, qdisc; `ip addr`, `ip route show table
 * 10001`, `ip rule` as amazon-ec2-net-utils sets them up), every tool reaches its address, and the
 * API's errors come where the EC2 API gives them (AttachmentLimitExceeded from the type's maximum).
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
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large' },
      ],
    },
    [],
  ).lab;

type L = ReturnType<typeof lab>;
const run = (l: L, line: string) => runScript(l, [line])[0]!;
const json = (l: L, line: string) => JSON.parse(run(l, line).output);
const err = (l: L, line: string) => {
  const r = run(l, line);
  expect(r.exitCode, r.output).toBe(254);
  return r.output.trim();
};

describe('aws ec2 network interfaces', () => {
  it('create, attach as eth1, reach it, detach, delete', () => {
    const l = lab();
    const server = json(l, 'aws ec2 describe-instances').Reservations.flatMap(
      (r: { Instances: unknown[] }) => r.Instances,
    )[1] as { InstanceId: string; SubnetId: string };
    const created = json(
      l,
      `aws ec2 create-network-interface --subnet-id ${server.SubnetId} --description second`,
    ).NetworkInterface;
    expect(created.Status).toBe('pending');
    expect(created.Attachment).toBeUndefined();
    expect(created.PrivateIpAddress).toBe('10.0.0.12');
    expect(created.Description).toBe('second');
    const eni = created.NetworkInterfaceId as string;
    // not attached: no instance has its address yet
    expect(run(l, 'iperf3 -c 10.0.0.12 -n 1M').output).toContain('Connection timed out');
    const att = json(
      l,
      `aws ec2 attach-network-interface --network-interface-id ${eni} --instance-id ${server.InstanceId} --device-index 1`,
    );
    expect(att.AttachmentId).toMatch(/^eni-attach-[0-9a-f]{17}$/);
    expect(att.NetworkCardIndex).toBe(0);
    const d = json(l, `aws ec2 describe-network-interfaces --network-interface-ids ${eni}`)
      .NetworkInterfaces[0];
    expect(d.Status).toBe('in-use');
    expect(d.Attachment.DeviceIndex).toBe(1);
    expect(d.Attachment.InstanceId).toBe(server.InstanceId);
    expect(d.Attachment.DeleteOnTermination).toBe(false);
    const inst = json(l, `aws ec2 describe-instances --instance-ids ${server.InstanceId}`).Reservations[0]
      .Instances[0];
    expect(
      inst.NetworkInterfaces.map((n: { Attachment: { DeviceIndex: number } }) => n.Attachment.DeviceIndex),
    ).toEqual([0, 1]);
    // on the host: eth1, its address, its own table and rule
    const addr = run(l, 'server: ip addr show eth1').output.split('\n');
    expect(addr[0]).toBe(
      '3: eth1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9001 qdisc mq state UP group default qlen 1000',
    );
    expect(addr[1]).toBe(`    link/ether ${d.MacAddress} brd ff:ff:ff:ff:ff:ff`);
    expect(addr[2]).toBe('    inet 10.0.0.12/24 metric 522 brd 10.0.0.255 scope global dynamic eth1');
    expect(run(l, 'server: ip route show table 10001').output).toContain(
      'default via 10.0.0.1 dev eth1 proto dhcp src 10.0.0.12 metric 522 \n',
    );
    expect(run(l, 'server: ip route').output).not.toContain('eth1');
    expect(run(l, 'server: ip rule').output).toContain('10001:\tfrom 10.0.0.12 lookup 10001');
    // the data path: iperf3 reaches it, it arrives on eth1 and the replies leave by eth1
    const iperf = run(l, 'iperf3 -c 10.0.0.12 -n 20M');
    expect(iperf.exitCode, iperf.output).toBe(0);
    const stats = run(l, 'server: ethtool -S eth1').output;
    const sum = (re: RegExp) => [...stats.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
    expect(sum(/queue_\d+_rx_cnt: (\d+)/g)).toBeGreaterThan(2000);
    expect(sum(/queue_\d+_tx_cnt: (\d+)/g)).toBeGreaterThan(100);
    expect(run(l, 'server: tc -s qdisc show dev eth1').output).toMatch(
      /qdisc mq 0: root \n Sent [1-9]\d* bytes/,
    );
    // errors as the API gives them
    expect(
      err(
        l,
        `aws ec2 attach-network-interface --network-interface-id ${eni} --instance-id ${server.InstanceId} --device-index 2`,
      ),
    ).toContain(
      `(InvalidNetworkInterface.InUse) when calling the AttachNetworkInterface operation: Interface: [${eni}] in use.`,
    );
    const second = json(l, `aws ec2 create-network-interface --subnet-id ${server.SubnetId}`).NetworkInterface
      .NetworkInterfaceId;
    expect(
      err(
        l,
        `aws ec2 attach-network-interface --network-interface-id ${second} --instance-id ${server.InstanceId} --device-index 1`,
      ),
    ).toContain(`already has an interface attached at device index '1'`);
    run(
      l,
      `aws ec2 attach-network-interface --network-interface-id ${second} --instance-id ${server.InstanceId} --device-index 2`,
    );
    const third = json(l, `aws ec2 create-network-interface --subnet-id ${server.SubnetId}`).NetworkInterface
      .NetworkInterfaceId;
    // c7i.large: at most 3 interfaces (MOTO NetworkInfo.MaximumNetworkInterfaces)
    expect(
      err(
        l,
        `aws ec2 attach-network-interface --network-interface-id ${third} --instance-id ${server.InstanceId} --device-index 3`,
      ),
    ).toBe(
      'An error occurred (AttachmentLimitExceeded) when calling the AttachNetworkInterface operation: Interface count 4 exceeds the limit for c7i.large',
    );
    const primary = inst.NetworkInterfaces[0].Attachment.AttachmentId;
    expect(err(l, `aws ec2 detach-network-interface --attachment-id ${primary}`)).toContain(
      '(OperationNotPermitted)',
    );
    expect(err(l, `aws ec2 delete-network-interface --network-interface-id ${eni}`)).toContain(
      '(InvalidNetworkInterface.InUse)',
    );
    // detached: eth1 is gone, its address unreachable, and it can be deleted
    expect(run(l, `aws ec2 detach-network-interface --attachment-id ${att.AttachmentId}`).exitCode).toBe(0);
    expect(run(l, 'server: ip link show eth1').output).toContain('Device "eth1" does not exist.');
    expect(run(l, 'iperf3 -c 10.0.0.12 -n 1M').output).toContain('Connection timed out');
    expect(
      json(l, `aws ec2 describe-network-interfaces --network-interface-ids ${eni}`).NetworkInterfaces[0]
        .Status,
    ).toBe('available');
    expect(run(l, `aws ec2 delete-network-interface --network-interface-id ${eni}`).exitCode).toBe(0);
    expect(err(l, `aws ec2 describe-network-interfaces --network-interface-ids ${eni}`)).toContain(
      '(InvalidNetworkInterfaceID.NotFound)',
    );
  }, 60_000);

  it('a v5 scenario attaches secondary interfaces at launch', () => {
    const l = runLab(
      {
        version: SCENARIO_VERSION,
        instances: [
          { name: 'client', type: 'c7i.large' },
          {
            name: 'server',
            type: 'c7i.large',
            networkInterfaces: [{ deviceIndex: 1, description: 'data', secondaryIps: ['10.0.0.40'] }],
          },
        ],
      },
      [],
    ).lab;
    // the first free address after the instances' (10.0.0.10, .11)
    expect(run(l, 'server: ip addr show eth1').output).toContain('inet 10.0.0.12/24 metric 522');
    for (const ip of ['10.0.0.12', '10.0.0.40']) {
      const r = run(l, `iperf3 -c ${ip} -n 5M`);
      expect(r.exitCode, r.output).toBe(0);
    }
    // tcpdump -i eth1 sees what crosses eth1 only; eth0 the rest
    const dump = runScript(l, [
      'server: tcpdump -i eth1 -c 2 -n icmp &',
      'server: tcpdump -i eth0 -c 2 -n icmp &',
      'ping -c 1 10.0.0.12',
      'ping -c 1 10.0.0.11',
    ]);
    const capture = (dev: string) =>
      dump
        .filter((r) => r.command.startsWith(`tcpdump -i ${dev}`))
        .map((r) => r.output)
        .join('');
    expect(capture('eth1')).toMatch(
      /IP 10\.0\.0\.10 > 10\.0\.0\.12: ICMP echo request[\s\S]*IP 10\.0\.0\.12 > 10\.0\.0\.10: ICMP echo reply/,
    );
    expect(capture('eth1')).not.toContain('10.0.0.11');
    expect(capture('eth0')).toContain('IP 10.0.0.10 > 10.0.0.11: ICMP echo request');
    expect(capture('eth0')).not.toContain('10.0.0.12');
    // sar -n DEV lists every interface: what was sent to eth1's address arrived on eth1
    const runs = runScript(l, ['server: sar -n DEV 1 1 &', 'iperf3 -c 10.0.0.12 -t 1 -u -b 1G', 'sleep 0.1']);
    const sar = runs.map((r) => r.output).join('');
    expect(sar).toMatch(/Average: +eth0 +0\.00 /);
    expect(sar).toMatch(/Average: +eth1 +1\d{4}\.\d\d /);
    const d = json(
      l,
      'aws ec2 describe-network-interfaces --filters Name=attachment.device-index,Values=1',
    ).NetworkInterfaces;
    expect(d.map((n: { Description: string }) => n.Description)).toEqual(['data']);
  });
});
