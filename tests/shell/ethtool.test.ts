import { describe, expect, it } from 'vitest';
import { runEthtool } from '../../src/engine/shell/commands/ethtool';
import type { CommandOutput } from '../../src/engine/shell/types';
import { FakeEnaDevice, fakeDevices } from '../helpers/fake-ena-device';

function run(line: string, ...devs: FakeEnaDevice[]): CommandOutput {
  const d = devs.length ? devs : [new FakeEnaDevice()];
  const o = runEthtool(line.split(/\s+/).filter(Boolean), fakeDevices(...d));
  if (o.kind !== 'done') throw new Error('ethtool must finish at once');
  return o.out;
}

const NODEV_NL = 'netlink error: no device matches name (offset 24)\nnetlink error: No such device\n';
const BAD_ARGS = 'ethtool: bad command line argument(s)\nFor more information run ethtool -h\n';

describe('ethtool: command line', () => {
  it('no arguments / unknown option / missing device are bad arguments', () => {
    for (const line of ['', '-Z eth0', '-g']) {
      const r = run(line);
      expect(r.stderr).toBe(BAD_ARGS);
      expect(r.exitCode).toBe(1);
    }
  });
  it('refuses real but unmodelled options clearly', () => {
    const r = run('-T eth0');
    expect(r.stderr).toBe('ethtool: option -T is not simulated in ec2-netlab\n');
    expect(r.exitCode).toBe(1);
    expect(run('eth0').stderr).toMatch(/not simulated in ec2-netlab/);
    expect(run('--json -g eth0').stderr).toMatch(/option --json is not simulated/);
  });
  it('--version', () => {
    expect(run('--version').stdout).toBe('ethtool version 6.7\n');
  });
});

describe('ethtool -i', () => {
  it('prints driver information', () => {
    const r = run('-i eth0');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      'driver: ena\nversion: 6.8.0-1015-aws\nfirmware-version: \nexpansion-rom-version: \nbus-info: 0000:00:05.0\n' +
        'supports-statistics: yes\nsupports-test: no\nsupports-eeprom-access: no\nsupports-register-dump: no\n' +
        'supports-priv-flags: no\n',
    );
    expect(run('--driver eth0', new FakeEnaDevice({ driverVersion: '2.13.2g' })).stdout).toMatch(
      /version: 2\.13\.2g\n[\s\S]*supports-priv-flags: yes\n$/,
    );
  });
  it('errors', () => {
    expect(run('-i eth9')).toMatchObject({
      stderr: 'Cannot get driver information: No such device\n',
      exitCode: 71,
    });
    expect(run('-i eth0 extra').stderr).toBe(BAD_ARGS);
  });
});

describe('ethtool -S', () => {
  it('prints NIC statistics in driver order with values and returns them as an object', () => {
    const dev = new FakeEnaDevice({ queues: 2 });
    dev.bumpStat('pps_allowance_exceeded', 42);
    const r = run('-S eth0', dev);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('NIC statistics:');
    expect(lines[1]).toBe('     tx_timeout: 0');
    expect(r.stdout).toContain('\n     pps_allowance_exceeded: 42\n');
    expect(r.stdout).toContain('\n     queue_1_rx_cnt: 0\n');
    expect(r.stdout).not.toContain('queue_2_');
    const result = r.result as Record<string, number>;
    expect(result.pps_allowance_exceeded).toBe(42);
    expect(Object.keys(result)).toHaveLength(lines.length - 2);
    expect(run('--statistics eth0', dev).stdout).toBe(r.stdout);
  });
  it('errors', () => {
    expect(run('-S eth9')).toMatchObject({
      stderr: 'Cannot get stats strings information: No such device\n',
      exitCode: 96,
    });
    expect(run('-S eth0 foo').stderr).toBe(BAD_ARGS);
    expect(run('-S eth0 --all-groups').stderr).toMatch(/not simulated/);
  });
});

describe('ethtool -g / -G', () => {
  it('shows rings as ethtool 6.7 prints them (Nitro v4, large LLQ)', () => {
    const r = run('-g eth0');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      'Ring parameters for eth0:\n' +
        'Pre-set maximums:\n' +
        'RX:\t\t\t16384\n' +
        'RX Mini:\t\tn/a\n' +
        'RX Jumbo:\t\tn/a\n' +
        'TX:\t\t\t512\n' +
        'TX push buff len:\t224\n' +
        'Current hardware settings:\n' +
        'RX:\t\t\t1024\n' +
        'RX Mini:\t\tn/a\n' +
        'RX Jumbo:\t\tn/a\n' +
        'TX:\t\t\t512\n' +
        'RX Buf Len:\t\tn/a\n' +
        'CQE Size:\t\tn/a\n' +
        'TX Push:\t\ton\n' +
        'RX Push:\t\toff\n' +
        'TX push buff len:\t224\n' +
        'TCP data split:\t\tn/a\n',
    );
    const v3 = run('--show-ring eth0', new FakeEnaDevice({ nitro: 3 }));
    expect(v3.stdout).toContain('TX:\t\t\t1024\nTX push buff len:\t224\n');
    expect(v3.stdout).toContain('TX push buff len:\t96\nTCP');
  });

  it('sets rings, rounding down to a power of two and up to the 256 minimum (ena_set_ringparam)', () => {
    const dev = new FakeEnaDevice({ nitro: 5 });
    expect(run('-G eth0 rx 4096 tx 1024', dev)).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(dev.rings()).toMatchObject({ rx: 4096, tx: 1024 });
    run('-G eth0 rx 3000', dev);
    expect(dev.rings().rx).toBe(2048);
    run('-G eth0 rx 100', dev);
    expect(dev.rings().rx).toBe(256);
    run('-G eth0 rx 0', dev);
    expect(dev.rings().rx).toBe(256);
    run('-G eth0 rx 0x2000', dev);
    expect(dev.rings().rx).toBe(8192);
    expect(run('-G eth0', dev).exitCode).toBe(0);
  });

  it('refuses sizes above the maximum with the kernel extack at the attribute offset', () => {
    const dev = new FakeEnaDevice();
    const r = run('-G eth0 rx 32768', dev);
    expect(r.stderr).toBe(
      'netlink error: requested ring size exceeds maximum (offset 36)\nnetlink error: Invalid argument\n',
    );
    expect(r.exitCode).toBe(81);
    // Second attribute: 8 bytes further. TX max is 512 on Nitro v4 with large LLQ.
    expect(run('-G eth0 rx 1024 tx 1024', dev).stderr).toMatch(/exceeds maximum \(offset 44\)/);
    expect(run('-G eth0 rx 4294967295', dev).exitCode).toBe(81);
    expect(run('-G eth0 rx-mini 1', dev).stderr).toMatch(/exceeds maximum/);
    expect(dev.rings()).toMatchObject({ rx: 1024, tx: 512 });
  });

  it('rejects bad numbers in the parser', () => {
    for (const [v, shown] of [
      ['-1', '-1'],
      ['abc', 'abc'],
      ['4294967296', '4294967296'],
      ['12k', '12k'],
    ]) {
      const r = run(`-G eth0 rx ${v}`);
      expect(r.stderr).toBe(`ethtool (-G): invalid value '${shown}' for parameter 'rx'\n`);
      expect(r.exitCode).toBe(1);
    }
    expect(run('-G eth0 rx').stderr).toBe("ethtool (-G): no value for parameter 'rx'\n");
    expect(run('-G eth0 rx 512 rx 1024').stderr).toBe("ethtool (-G): duplicate parameter 'rx'\n");
    expect(run('-G eth0 foo 1').stderr).toBe("ethtool (-G): unknown parameter 'foo'\n");
    expect(run('-G eth0 tx-push-buf-len 96').stderr).toMatch(/not simulated in ec2-netlab/);
  });

  it('unknown device', () => {
    expect(run('-g eth9')).toMatchObject({ stderr: NODEV_NL, exitCode: 1 });
    expect(run('-G eth9 rx 512')).toMatchObject({ stderr: NODEV_NL, exitCode: 81 });
    expect(run('-g eth0 extra').stderr).toBe("ethtool: unexpected parameter 'extra'\n");
  });
});

describe('ethtool -l / -L', () => {
  it('shows combined channels only', () => {
    expect(run('-l eth0').stdout).toBe(
      'Channel parameters for eth0:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t8\n' +
        'Current hardware settings:\nRX:\t\tn/a\nTX:\t\tn/a\nOther:\t\tn/a\nCombined:\t8\n',
    );
  });
  it('sets combined and the default indirection table follows', () => {
    const dev = new FakeEnaDevice();
    expect(run('-L eth0 combined 2', dev).exitCode).toBe(0);
    expect(dev.channels().combined).toBe(2);
    expect(dev.rss().indir.slice(0, 4)).toEqual([0, 1, 0, 1]);
  });
  it('kernel refusals', () => {
    const dev = new FakeEnaDevice();
    expect(run('-L eth0 combined 9', dev).stderr).toBe(
      'netlink error: requested channel count exceeds maximum (offset 36)\nnetlink error: Invalid argument\n',
    );
    expect(run('-L eth0 rx 1', dev).stderr).toMatch(/requested channel count exceeds maximum \(offset 36\)/);
    expect(run('-L eth0 combined 0', dev).stderr).toBe(
      'netlink error: requested channel counts would result in no RX or TX channel being configured (offset 36)\n' +
        'netlink error: Invalid argument\n',
    );
    run('-X eth0 equal 8', dev); // same as default: not a user table
    run('-X eth0 weight 0 0 0 0 0 0 0 1', dev); // everything to queue 7
    const r = run('-L eth0 combined 4', dev);
    expect(r.stderr).toBe(
      'netlink error: requested channel counts are too low for existing indirection table settings\n' +
        'netlink error: Invalid argument\n',
    );
    expect(r.exitCode).toBe(1);
    expect(dev.channels().combined).toBe(8);
    expect(run('-L eth0 combined -3', dev).stderr).toBe(
      "ethtool (-L): invalid value '-3' for parameter 'combined'\n",
    );
    expect(run('-L eth9 combined 2', dev).stderr).toBe(NODEV_NL);
  });
  it('refuses fewer channels than an ntuple rule targets', () => {
    const dev = new FakeEnaDevice({ nitro: 5 });
    expect(run('-N eth0 flow-type tcp4 dst-port 5201 action 6 loc 0', dev).exitCode).toBe(0);
    expect(run('-L eth0 combined 4', dev).stderr).toMatch(/too low for existing ntuple filter settings\n/);
  });
});

describe('ethtool -c / -C', () => {
  it('shows ENA defaults: adaptive-rx on, rx-usecs 20, tx-usecs 64, the rest n/a', () => {
    const r = run('-c eth0');
    expect(r.stdout).toBe(
      'Coalesce parameters for eth0:\n' +
        'Adaptive RX: on  TX: n/a\n' +
        'stats-block-usecs:\tn/a\nsample-interval:\tn/a\npkt-rate-low:\t\tn/a\npkt-rate-high:\t\tn/a\n\n' +
        'rx-usecs:\t20\nrx-frames:\tn/a\nrx-usecs-irq:\tn/a\nrx-frames-irq:\tn/a\n\n' +
        'tx-usecs:\t64\ntx-frames:\tn/a\ntx-usecs-irq:\tn/a\ntx-frames-irq:\tn/a\n\n' +
        'rx-usecs-low:\tn/a\nrx-frame-low:\tn/a\ntx-usecs-low:\tn/a\ntx-frame-low:\tn/a\n\n' +
        'rx-usecs-high:\tn/a\nrx-frame-high:\tn/a\ntx-usecs-high:\tn/a\ntx-frame-high:\tn/a\n\n' +
        'CQE mode RX: n/a  TX: n/a\n\n' +
        'tx-aggr-max-bytes:\tn/a\ntx-aggr-max-frames:\tn/a\ntx-aggr-time-usecs\tn/a\n\n',
    );
  });
  it('sets the low-latency profile', () => {
    const dev = new FakeEnaDevice();
    expect(run('-C eth0 adaptive-rx off rx-usecs 0 tx-usecs 0', dev).exitCode).toBe(0);
    expect(dev.coalesce()).toMatchObject({ adaptiveRx: false, rxUsecs: 0, txUsecs: 0 });
    expect(run('-c eth0', dev).stdout).toMatch(/Adaptive RX: off {2}TX: n\/a\n[\s\S]*rx-usecs:\t0\n/);
  });
  it('refuses unsupported parameters (adaptive-tx …) and bad values', () => {
    const r = run('-C eth0 rx-usecs 10 adaptive-tx on');
    expect(r.stderr).toBe(
      'netlink error: cannot modify an unsupported parameter (offset 44)\nnetlink error: Invalid argument\n',
    );
    expect(r.exitCode).toBe(1);
    expect(run('-C eth0 adaptive-rx yes').stderr).toBe(
      "ethtool (-C): invalid value 'yes' for parameter 'adaptive-rx'\n",
    );
    expect(run('-C eth0 rx-usecs -5').stderr).toBe(
      "ethtool (-C): invalid value '-5' for parameter 'rx-usecs'\n",
    );
    expect(run('-c eth9').stderr).toBe(NODEV_NL);
  });
});

describe('ethtool -x / -X', () => {
  it('shows the indirection table, key and function on a configurable device', () => {
    const dev = new FakeEnaDevice({ queues: 2 });
    const r = run('-x eth0', dev);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('RX flow hash indirection table for eth0 with 2 RX ring(s):');
    expect(lines[1]).toBe('    0:      0     1     0     1     0     1     0     1');
    expect(lines[16]).toBe('  120:      0     1     0     1     0     1     0     1');
    expect(lines[17]).toBe('RSS hash key:');
    expect(lines[18]).toMatch(/^([0-9a-f]{2}:){39}[0-9a-f]{2}$/);
    expect(lines.slice(19)).toEqual([
      'RSS hash function:',
      '    toeplitz: on',
      '    xor: off',
      '    crc32: off',
      '',
    ]);
  });
  it('non-configurable device (Nitro v3 without "n"): zero key, function not supported', () => {
    const r = run('-x eth0', new FakeEnaDevice({ nitro: 3 }));
    expect(r.stdout).toContain(
      `RSS hash key:\n${new Array(40).fill('00').join(':')}\nRSS hash function:\n    Operation not supported\n`,
    );
  });
  it('sets equal, weight, start, default, hkey and hfunc', () => {
    const dev = new FakeEnaDevice();
    expect(run('-X eth0 equal 2', dev).exitCode).toBe(0);
    expect(dev.rss().indir.slice(0, 4)).toEqual([0, 1, 0, 1]);
    run('-X eth0 equal 2 start 4', dev);
    expect(dev.rss().indir.slice(0, 3)).toEqual([4, 5, 4]);
    run('-X eth0 weight 1 3', dev);
    expect(dev.rss().indir.filter((q) => q === 1)).toHaveLength(96);
    run('-X eth0 default', dev);
    expect(dev.rss().indir.slice(0, 9)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 0]);
    const key = Array.from({ length: 40 }, (_, i) => ((i * 7) & 255).toString(16).padStart(2, '0')).join(':');
    expect(run(`-X eth0 hkey ${key} hfunc crc32`, dev).exitCode).toBe(0);
    expect(run('-x eth0', dev).stdout).toContain(
      `RSS hash key:\n${key}\nRSS hash function:\n    toeplitz: off\n    xor: off\n    crc32: on\n`,
    );
  });
  it('errors', () => {
    const dev = new FakeEnaDevice();
    expect(run('-X eth0 hfunc xor', dev).stderr).toBe(
      'Cannot set RX flow hash configuration: Operation not supported\n',
    );
    expect(run('-X eth0 hfunc foo', dev)).toMatchObject({
      stderr: 'Unknown hash function: foo\n',
      exitCode: 1,
    });
    expect(run('-X eth0 equal 9', dev).stderr).toBe(
      'Cannot set RX flow hash configuration: Invalid argument\n',
    );
    expect(run('-X eth0 equal 0', dev).stderr).toBe(BAD_ARGS);
    expect(run('-X eth0 equal', dev).stderr).toBe(BAD_ARGS);
    expect(run('-X eth0 equal x', dev).stderr).toBe(BAD_ARGS);
    expect(run('-X eth0 weight', dev).stderr).toBe(BAD_ARGS);
    expect(run('-X eth0 weight 0 0', dev).stderr).toBe('At least one weight must be non-zero\n');
    expect(run('-X eth0 weight 200', dev).stderr).toBe(
      'Total weight exceeds the size of the indirection table\n',
    );
    expect(run('-X eth0 equal 2 weight 1 1', dev).stderr).toBe(
      'Equal and weight options are mutually exclusive\n',
    );
    expect(run('-X eth0 start 2', dev).stderr).toBe('Start must be used with equal or weight options\n');
    expect(run('-X eth0 hkey 01:02', dev)).toMatchObject({
      stderr: 'Key is too short for device (2 < 40)\n',
      exitCode: 2,
    });
    expect(run(`-X eth0 hkey ${new Array(41).fill('aa').join(':')}`, dev).stderr).toBe(
      'Key is too long for device (41 > 40)\n',
    );
    expect(run('-X eth0 hkey zz:01', dev).stderr).toBe('Invalid RSS hash key format\n');
    expect(run('-X eth0 bogus', dev).stderr).toBe(BAD_ARGS);
    expect(run('-X eth9 equal 2', dev).stderr).toBe('Cannot get RX ring count: No such device\n');
    expect(run('-x eth9', dev).stderr).toBe(NODEV_NL);
  });
  it('non-configurable device: table settable, key refused, hfunc silently ignored', () => {
    const dev = new FakeEnaDevice({ nitro: 3 });
    expect(run('-X eth0 equal 4', dev).exitCode).toBe(0);
    expect(dev.rss().indir.slice(0, 5)).toEqual([0, 1, 2, 3, 0]);
    const key = new Array(40).fill('11').join(':');
    expect(run(`-X eth0 hkey ${key}`, dev).stderr).toBe(
      'Cannot set RX flow hash configuration: Operation not supported\n',
    );
    expect(run('-X eth0 hfunc crc32', dev)).toMatchObject({ stderr: '', exitCode: 0 });
    expect(dev.rss().hfunc).toBe('toeplitz');
  });
});

describe('ethtool -n / -N', () => {
  it('ntuple on Nitro v5: add, list, show one, delete', () => {
    const dev = new FakeEnaDevice({ nitro: 5 });
    expect(run('-N eth0 flow-type tcp4 dst-ip 10.0.0.5 dst-port 22 action 1 loc 3', dev)).toMatchObject({
      stdout: '',
      exitCode: 0,
    });
    const r = run('-n eth0', dev);
    expect(r.stdout).toBe(
      '8 RX rings available\nTotal 1 rules\n\n' +
        'Filter: 3\n' +
        '\tRule Type: TCP over IPv4\n' +
        '\tSrc IP addr: 0.0.0.0 mask: 255.255.255.255\n' +
        '\tDest IP addr: 10.0.0.5 mask: 0.0.0.0\n' +
        '\tTOS: 0x0 mask: 0xff\n' +
        '\tSrc port: 0 mask: 0xffff\n' +
        '\tDest port: 22 mask: 0x0\n' +
        '\tAction: Direct to queue 1\n\n',
    );
    expect(run('-n eth0 rule 3', dev).stdout).toMatch(/^Filter: 3\n/);
    expect(run('-n eth0 rule 4', dev).stderr).toBe(
      'rxclass: Cannot get RX class rule: No such file or directory\nCannot get RX classification rule\n',
    );
    expect(run('-N eth0 delete 3', dev).exitCode).toBe(0);
    expect(run('-n eth0', dev).stdout).toBe('8 RX rings available\nTotal 0 rules\n\n');
    expect(run('-N eth0 delete 3', dev).stderr).toBe(
      'rmgr: Cannot delete RX class rule: No such file or directory\nCannot delete classification rule\n',
    );
  });
  it('ENA needs an explicit location; drop actions and bad queues are refused', () => {
    const dev = new FakeEnaDevice({ nitro: 5 });
    expect(run('-N eth0 flow-type udp4 dst-port 53 action 1', dev).stderr).toBe(
      'rmgr: Cannot insert RX class rule: Operation not supported\nCannot insert classification rule\n',
    );
    expect(run('-N eth0 flow-type udp4 dst-port 53 action -1 loc 0', dev).stderr).toMatch(
      /Operation not supported/,
    );
    expect(run('-N eth0 flow-type udp4 dst-port 53 action 8 loc 0', dev).stderr).toMatch(
      /^rmgr: Cannot insert RX class rule: Invalid argument\n/,
    );
  });
  it('before Nitro v5 flow steering is unsupported', () => {
    const dev = new FakeEnaDevice({ nitro: 4 });
    const r = run('-n eth0', dev);
    expect(r.stdout).toBe('8 RX rings available\n');
    expect(r.stderr).toBe(
      'rxclass: Cannot get RX class rule count: Operation not supported\nRX classification rule retrieval failed\n',
    );
    expect(r.exitCode).toBe(1);
    expect(run('-N eth0 flow-type tcp4 dst-port 22 action 1 loc 0', dev).stderr).toBe(
      'rmgr: Cannot insert RX class rule: Operation not supported\nCannot insert classification rule\n',
    );
  });
  it('rule parsing errors', () => {
    const dev = new FakeEnaDevice({ nitro: 5 });
    expect(run('-N eth0 flow-type tcp4 dst-port 70000 action 1 loc 0', dev).stderr).toBe(
      `Invalid dst-port value[70000]\n${BAD_ARGS}`,
    );
    expect(run('-N eth0 flow-type tcp4 dst-ip 10.0.0 loc 0', dev).stderr).toBe(
      `Invalid dst-ip value[10.0.0]\n${BAD_ARGS}`,
    );
    const unk = run('-N eth0 flow-type tcp4 dport 22', dev);
    expect(unk.stdout).toBe('Add rule, unrecognized option[dport]\n');
    expect(unk.stderr).toBe(BAD_ARGS);
    expect(run('-N eth0 flow-type bogus action 1', dev).stderr).toBe(`Add rule, invalid syntax\n${BAD_ARGS}`);
    expect(run('-N eth0 flow-type tcp4 loc 1 loc 2', dev).stderr).toBe(`Invalid loc value[2]\n${BAD_ARGS}`);
    expect(run('-N eth0 delete x', dev).stderr).toBe(BAD_ARGS);
    expect(run('-N eth0', dev).stderr).toBe(BAD_ARGS);
    expect(run('-N eth0 flow-type tcp6 action 1', dev).stderr).toMatch(/not simulated/);
    expect(run('-N eth0 flow-type tcp4 tos 4 action 1 loc 0', dev).stderr).toMatch(/not simulated/);
  });
  it('rx-flow-hash', () => {
    expect(run('-n eth0 rx-flow-hash tcp4').stdout).toBe(
      'TCP over IPV4 flows use these fields for computing Hash flow key:\nIP SA\nIP DA\n' +
        'L4 bytes 0 & 1 [TCP/UDP src port]\nL4 bytes 2 & 3 [TCP/UDP dst port]\n\n',
    );
    expect(run('-n eth0 rx-flow-hash tcp4', new FakeEnaDevice({ nitro: 3 })).stderr).toBe(
      'Cannot get RX network flow hashing options: Operation not supported\n',
    );
    expect(run('-n eth0 rx-flow-hash foo').stderr).toBe(BAD_ARGS);
    expect(run('-N eth0 rx-flow-hash tcp4 sdfn').stderr).toMatch(/not simulated/);
  });
  it('unknown device', () => {
    expect(run('-n eth9').stderr).toBe(
      'Cannot get RX rings: No such device\nrxclass: Cannot get RX class rule count: No such device\nRX classification rule retrieval failed\n',
    );
    expect(run('-N eth9 flow-type tcp4 action 1 loc 0').stderr).toBe(
      'rmgr: Cannot insert RX class rule: No such device\nCannot insert classification rule\n',
    );
  });
});
