import { describe, expect, it } from 'vitest';
import { runIp } from '../../src/engine/shell/commands/ip';
import type { CommandOutput } from '../../src/engine/shell/types';
import { FakeEnaDevice, fakeDevices } from '../helpers/fake-ena-device';

function run(line: string, ...devs: FakeEnaDevice[]): CommandOutput {
  const d = devs.length ? devs : [new FakeEnaDevice()];
  const o = runIp(line.split(/\s+/).filter(Boolean), fakeDevices(...d));
  if (o.kind !== 'done') throw new Error('ip must finish at once');
  return o.out;
}

const LO =
  '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000\n' +
  '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n';
const ETH0 =
  '2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9001 qdisc mq state UP mode DEFAULT group default qlen 1000\n' +
  '    link/ether 02:4a:3c:1d:9e:7f brd ff:ff:ff:ff:ff:ff\n';

describe('ip link show', () => {
  it('lists lo and the ENA devices in ifindex order', () => {
    const eth1 = new FakeEnaDevice({ name: 'eth1', ifindex: 3, mac: '02:00:00:00:00:01', mtu: 1500 });
    const r = run('link show', eth1, new FakeEnaDevice());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `${LO}${ETH0}3: eth1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP mode DEFAULT group default qlen 1000\n` +
        '    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff\n',
    );
    expect(run('link').stdout).toBe(LO + ETH0);
    expect(run('l sh').stdout).toBe(LO + ETH0);
    expect(run('link list').stdout).toBe(LO + ETH0);
  });
  it('one device, with or without "dev"', () => {
    expect(run('link show dev eth0').stdout).toBe(ETH0);
    expect(run('link show eth0').stdout).toBe(ETH0);
    expect(run('link show lo').stdout).toBe(LO);
    expect(run('link show eth0 up').stdout).toBe(ETH0);
  });
  it('a single-queue device gets fq_codel at the root', () => {
    expect(run('link show eth0', new FakeEnaDevice({ maxQueues: 1 })).stdout).toMatch(
      / qdisc fq_codel state UP /,
    );
  });
  it('errors', () => {
    expect(run('link show dev eth9')).toMatchObject({
      stderr: 'Device "eth9" does not exist.\n',
      exitCode: 1,
    });
    expect(run('link show eth0 eth1')).toMatchObject({
      stderr: 'Error: either "dev" is duplicate, or "eth1" is a garbage.\n',
      exitCode: 255,
    });
    expect(run('link foo')).toMatchObject({
      stderr: 'Command "foo" is unknown, try "ip link help".\n',
      exitCode: 255,
    });
    expect(run('foo')).toMatchObject({ stderr: 'Object "foo" is unknown, try "ip help".\n', exitCode: 1 });
    expect(run('-z link')).toMatchObject({
      stderr: 'Option "-z" is unknown, try "ip -help".\n',
      exitCode: 255,
    });
    expect(run('addr route').stderr).toBe('Command "route" is unknown, try "ip address help".\n');
    expect(run('addr flush dev eth0').stderr).toMatch(
      /ip: ip address flush .* is not simulated in ec2-netlab/,
    );
    expect(run('route get 10.0.0.11').stderr).toBe('ip: ip route get is not simulated in ec2-netlab\n');
    expect(run('route foo').stderr).toBe('Command "foo" is unknown, try "ip route help".\n');
    expect(run('-j link').stderr).toMatch(/not simulated/);
    expect(run('link show dev').exitCode).toBe(255);
  });
});

describe('ip -s link', () => {
  it('prints the RX/TX block with columns sized to the numbers', () => {
    const dev = new FakeEnaDevice();
    Object.assign(dev.linkStatsMut, {
      rxBytes: 123456789012,
      rxPackets: 98765432,
      rxDropped: 3,
      rxMissed: 0,
      txBytes: 4419488,
      txPackets: 35458,
      txDropped: 7,
    });
    const r = run('-s link show dev eth0', dev);
    expect(r.stdout).toBe(
      `${ETH0}` +
        '    RX:    bytes  packets errors dropped  missed   mcast           \n' +
        '    123456789012 98765432      0       3       0       0 \n' +
        '    TX:    bytes  packets errors dropped carrier collsns           \n' +
        '         4419488    35458      0       7       0       0 \n',
    );
    expect(r.result).toMatchObject([{ name: 'eth0', stats64: { rxBytes: 123456789012 } }]);
    expect(run('-stats link show eth0', dev).stdout).toBe(r.stdout);
  });
  it('zero counters keep the header widths', () => {
    expect(run('-s link show lo').stdout).toBe(
      `${LO.slice(0, -1)}\n` +
        '    RX:  bytes packets errors dropped  missed   mcast           \n' +
        '             0       0      0       0       0       0 \n' +
        '    TX:  bytes packets errors dropped carrier collsns           \n' +
        '             0       0      0       0       0       0 \n',
    );
  });
  it('-s -s adds the error breakdown (rx_over_errors is the ENA rx_overruns)', () => {
    const dev = new FakeEnaDevice();
    dev.linkStatsMut.rxOverErrors = 12;
    expect(run('-s -s link show eth0', dev).stdout).toBe(
      `${ETH0}` +
        '    RX:  bytes packets errors dropped  missed   mcast           \n' +
        '             0       0      0       0       0       0 \n' +
        '    RX errors:  length    crc   frame    fifo overrun\n' +
        '                     0      0       0       0      12 \n' +
        '    TX:  bytes packets errors dropped carrier collsns           \n' +
        '             0       0      0       0       0       0 \n' +
        '    TX errors: aborted   fifo  window heartbt transns\n' +
        '                     0      0       0       0       1 \n',
    );
  });
});

describe('ip link set mtu', () => {
  it('sets the MTU with or without "dev"', () => {
    const dev = new FakeEnaDevice();
    expect(run('link set dev eth0 mtu 1500', dev)).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(dev.link().mtu).toBe(1500);
    expect(run('link set eth0 mtu 0x2000', dev).exitCode).toBe(0);
    expect(dev.link().mtu).toBe(8192);
    expect(run('link set mtu 9001 dev eth0', dev).exitCode).toBe(0);
    expect(dev.link().mtu).toBe(9001);
  });
  it('kernel limits 128..9216', () => {
    const dev = new FakeEnaDevice();
    expect(run('link set dev eth0 mtu 9217', dev)).toMatchObject({
      stderr: 'Error: mtu greater than device maximum.\n',
      exitCode: 2,
    });
    expect(run('link set dev eth0 mtu 127', dev)).toMatchObject({
      stderr: 'Error: mtu less than device minimum.\n',
      exitCode: 2,
    });
    expect(run('link set dev eth0 mtu -5', dev).stderr).toBe('Error: mtu greater than device maximum.\n');
    expect(run('link set dev eth0 mtu -1', dev).exitCode).toBe(0); // -1 means "not given" to iproute2
    expect(dev.link().mtu).toBe(9001);
  });
  it('parse errors', () => {
    expect(run('link set dev eth0 mtu abc')).toMatchObject({
      stderr: 'Error: argument "abc" is wrong: Invalid "mtu" value\n\n',
      exitCode: 255,
    });
    expect(run('link set dev eth0 mtu 99999999999').stderr).toMatch(/Invalid "mtu" value/);
    expect(run('link set dev eth0 mtux 1500')).toMatchObject({
      stderr: 'Error: either "dev" is duplicate, or "mtux" is a garbage.\n',
      exitCode: 255,
    });
    expect(run('link set dev eth0 mtu 1500 mtu 9001').stderr).toBe(
      'Error: duplicate "mtu": "9001" is the second value.\n',
    );
    expect(run('link set mtu 1500')).toMatchObject({
      stderr: 'Not enough information: "dev" argument is required.\n',
      exitCode: 255,
    });
    expect(run('link set dev eth0 mtu').stderr).toBe('Command line is not complete. Try option "help"\n');
    expect(run('link set dev eth9 mtu 1500')).toMatchObject({
      stderr: 'Cannot find device "eth9"\n',
      exitCode: 1,
    });
    expect(run('link set dev eth0 up').stderr).toMatch(/not simulated in ec2-netlab/);
  });
});
