import { describe, expect, it } from 'vitest';
import {
  cAtoi,
  IPERF3_USAGE_LONG,
  IPERF3_USAGE_SHORT,
  iperf3MssSetupError,
  iperf3UdpBlockSize,
  type Iperf3Options,
  parseIperf3Args,
  unitAtof,
} from '../../src/engine/shell/commands/iperf3-options';

const ok = (line: string): Iperf3Options => {
  const r = parseIperf3Args(line.split(' ').filter(Boolean));
  if (!r.ok) throw new Error(`expected ok for "${line}", got ${r.stderr}`);
  return r.opts;
};
const err = (line: string): string => {
  const r = parseIperf3Args(line.split(' ').filter(Boolean));
  if (r.ok) throw new Error(`expected failure for "${line}"`);
  expect(r.exitCode).toBe(1);
  return r.stderr;
};
const paramErr = (text: string): string => `iperf3: parameter error - ${text}\n\n${IPERF3_USAGE_SHORT}`;

describe('parseIperf3Args defaults', () => {
  it('TCP client defaults match iperf.h', () => {
    const o = ok('-c app-server');
    expect(o).toMatchObject({
      role: 'client',
      host: 'app-server',
      port: 5201,
      protocol: 'tcp',
      durationSec: 10,
      bytes: 0,
      parallel: 1,
      blockSizeBytes: 131072,
      targetBitrateBps: 0,
      reverse: false,
      bidir: false,
      intervalSec: 1,
      json: false,
      format: 'a',
      omitSec: 0,
      warnings: [],
    });
    expect(o.mssBytes).toBeUndefined();
    expect(o.windowBytes).toBeUndefined();
  });

  it('UDP defaults: 1048576 bit/s and a block size left to the MSS', () => {
    const o = ok('-c h -u');
    expect(o.protocol).toBe('udp');
    expect(o.targetBitrateBps).toBe(1048576);
    expect(o.blockSizeBytes).toBeUndefined();
    expect(iperf3UdpBlockSize(o, 8949)).toBe(8949);
    expect(iperf3UdpBlockSize(o, undefined)).toBe(1460);
    expect(iperf3UdpBlockSize(ok('-c h -u -l 1200'), 8949)).toBe(1200);
  });

  it('server defaults', () => {
    expect(ok('-s')).toMatchObject({ role: 'server', port: 5201, oneOff: false });
    expect(ok('-s -p 5200 -1 -J -i 2')).toMatchObject({
      port: 5200,
      oneOff: true,
      json: true,
      intervalSec: 2,
    });
  });
});

describe('parseIperf3Args options', () => {
  it('parses the NET402 command lines', () => {
    expect(ok('-c app-server -t 6 -M 9000 -P 1')).toMatchObject({
      durationSec: 6,
      mssBytes: 9000,
      parallel: 1,
    });
    const u = ok('-c app-server -t 1 -p 5201 -M 9000 -P 8 -u -b 10G');
    expect(u).toMatchObject({
      protocol: 'udp',
      durationSec: 1,
      parallel: 8,
      targetBitrateBps: 10e9,
      mssBytes: 9000,
    });
  });

  it('sizes use 1024, rates 1000', () => {
    expect(ok('-c h -l 64K').blockSizeBytes).toBe(65536);
    expect(ok('-c h -n 1G')).toMatchObject({ bytes: 2 ** 30, durationSec: 0, durationGiven: false });
    expect(ok('-c h -w 4M').windowBytes).toBe(4 * 2 ** 20);
    expect(ok('-c h -b 1.5M').targetBitrateBps).toBe(1500000);
    expect(ok('-c h -b 2k').targetBitrateBps).toBe(2000);
    expect(ok('-c h -b 1t').targetBitrateBps).toBe(1e12);
    expect(unitAtof('10Q', 1000)).toBe(10);
    expect(ok('-c h -b 10Q').targetBitrateBps).toBe(10); // unknown suffix ignored, like unit_atof_rate
    expect(ok('-c h -u -b 0').targetBitrateBps).toBe(0);
  });

  it('burst suffix', () => {
    expect(ok('-c h -u -b 100M/10')).toMatchObject({ targetBitrateBps: 1e8, burstPackets: 10 });
    expect(err('-c h -b 1M/0')).toBe(paramErr('invalid burst count (maximum = 1000)'));
    expect(err('-c h -b 1M/1001')).toBe(paramErr('invalid burst count (maximum = 1000)'));
  });

  it('long forms, = syntax, prefixes and short clusters', () => {
    const o = ok(
      '--client h --port 6000 --time 3 --parallel 4 --length 1K --set-mss 1400 --window 1M --interval 0.5 --json --omit 2 --title run1',
    );
    expect(o).toMatchObject({
      host: 'h',
      port: 6000,
      durationSec: 3,
      parallel: 4,
      blockSizeBytes: 1024,
      mssBytes: 1400,
      windowBytes: 2 ** 20,
      intervalSec: 0.5,
      json: true,
      omitSec: 2,
      title: 'run1',
    });
    expect(ok('--client=h --udp --bandwidth=5M --reverse').targetBitrateBps).toBe(5e6);
    expect(ok('--client=h --bitrate 5M').targetBitrateBps).toBe(5e6);
    expect(ok('-c h --bidir').bidir).toBe(true);
    expect(ok('-c h --par 3').parallel).toBe(3);
    expect(ok('-chost -uRP4 -t2')).toMatchObject({
      host: 'host',
      protocol: 'udp',
      reverse: true,
      parallel: 4,
      durationSec: 2,
    });
    expect(ok('-c h --format m').format).toBe('m');
    expect(ok('-c h -f G').format).toBe('G');
    expect(ok('-c h -4').role).toBe('client');
    expect(ok('-c h extra-word').host).toBe('h'); // non-option words are ignored by iperf3
    expect(ok('-c h -i 0').intervalSec).toBe(0);
  });

  it('JSON with -f warns but runs', () => {
    expect(ok('-c h -J -f m').warnings).toEqual([
      'warning: Report format (-f) flag ignored with JSON output (-J)\n',
    ]);
  });

  it('atoi semantics', () => {
    expect(cAtoi('12abc')).toBe(12);
    expect(cAtoi('abc')).toBe(0);
    expect(cAtoi('  -7')).toBe(-7);
    expect(cAtoi('99999999999999999999')).toBe(-1); // strtol saturates, int keeps the low bits
    expect(ok('-c h -t 5s').durationSec).toBe(5);
  });
});

describe('parseIperf3Args errors (iperf_strerror texts)', () => {
  it('role errors', () => {
    expect(err('-t 5')).toBe(paramErr('must either be a client (-c) or server (-s)'));
    expect(err('')).toBe(paramErr('must either be a client (-c) or server (-s)'));
    expect(err('-s -c h')).toBe(paramErr('cannot be both server and client'));
    expect(err('-c h -s')).toBe(paramErr('cannot be both server and client'));
    expect(err('-s -u')).toBe(paramErr('some option you are trying to set is client only'));
    expect(err('-s -t 5')).toBe(paramErr('some option you are trying to set is client only'));
    expect(err('-c h -1')).toBe(paramErr('some option you are trying to set is server only'));
  });

  it('range errors', () => {
    expect(err('-c h -P 129')).toBe(paramErr('number of parallel streams too large (maximum = 128)'));
    expect(ok('-c h -P 128').parallel).toBe(128);
    expect(err('-c h -t 99999999')).toBe(paramErr('test duration valid values are 0 to 86400 seconds'));
    expect(err('-c h -t -1')).toBe(paramErr('test duration valid values are 0 to 86400 seconds'));
    // iperf3 takes a day; the lab refuses more than an hour (memory and time of a run), saying so
    expect(err('-c h -t 86400')).toBe(
      'iperf3: option --time is not simulated in ec2-netlab beyond 3600 seconds (-t 86400)\n',
    );
    expect(ok('-c h -t 3600').durationSec).toBe(3600);
    expect(err('-c h -l 2M')).toBe(paramErr('block size too large (maximum = 1048576 bytes)'));
    expect(ok('-c h -l 0').blockSizeBytes).toBe(131072); // -l 0 means the default
    expect(err('-c h -l -5')).toBe(paramErr('block size too large (maximum = 1048576 bytes)'));
    expect(err('-c h -u -l 65508')).toBe(
      paramErr('block size invalid (minimum = 16 bytes, maximum = 65507 bytes)'),
    );
    expect(err('-c h -u -l 15')).toBe(
      paramErr('block size invalid (minimum = 16 bytes, maximum = 65507 bytes)'),
    );
    expect(ok('-c h -u -l 65507').blockSizeBytes).toBe(65507);
    expect(err('-c h -u -l 2M')).toBe(paramErr('block size too large (maximum = 1048576 bytes)'));
    expect(err('-c h -M 9217')).toBe(paramErr('TCP MSS too large (maximum = 9216 bytes)'));
    expect(err('-c h -i 0.05')).toBe(paramErr('invalid report interval (min = 0.1, max = 60 seconds)'));
    expect(err('-c h -i 61')).toBe(paramErr('invalid report interval (min = 0.1, max = 60 seconds)'));
    expect(err('-c h -w 513M')).toBe(paramErr('socket buffer size too large (maximum = 536870912 bytes)'));
    expect(err('-c h -p 0')).toBe(paramErr('port number must be between 1 and 65535 inclusive'));
    expect(err('-c h -p 65536')).toBe(paramErr('port number must be between 1 and 65535 inclusive'));
    expect(err('-c h -f x')).toBe(paramErr('bad format specifier (valid formats are in the set [kmgtKMGT])'));
    expect(err('-c h -O 601')).toBe(paramErr('bogus value for --omit (maximum = 600 seconds)'));
    expect(err('-c h -t 5 -n 1M')).toBe(
      paramErr('only one test end condition (-t, -n, -k) may be specified'),
    );
    expect(err('-c h -R --bidir')).toBe(paramErr('cannot be both reverse and bidirectional'));
    expect(err('-c h --bidir -R')).toBe(paramErr('cannot be both reverse and bidirectional'));
  });

  it('errors are reported in argument order, like the getopt loop', () => {
    expect(err('-c h -P 200 -t 99999999')).toContain('parallel streams');
    expect(err('-c h -t 99999999 -P 200')).toContain('test duration');
  });

  it('getopt messages', () => {
    expect(err('-c h --foo')).toBe(`iperf3: unrecognized option '--foo'\n\n${IPERF3_USAGE_SHORT}`);
    expect(err('-c h --json-stream')).toBe(
      `iperf3: unrecognized option '--json-stream'\n\n${IPERF3_USAGE_SHORT}`,
    );
    expect(err('-c h -x')).toBe(`iperf3: invalid option -- 'x'\n\n${IPERF3_USAGE_SHORT}`);
    expect(err('-c')).toBe(`iperf3: option requires an argument -- 'c'\n\n${IPERF3_USAGE_SHORT}`);
    expect(err('--client')).toBe(`iperf3: option '--client' requires an argument\n\n${IPERF3_USAGE_SHORT}`);
    expect(err('-c h --udp=1')).toBe(
      `iperf3: option '--udp' doesn't allow an argument\n\n${IPERF3_USAGE_SHORT}`,
    );
    expect(err('-c h --b 1M')).toMatch(
      /^iperf3: option '--b' is ambiguous; possibilities: '--bitrate' '--bandwidth'/,
    );
  });

  it('refuses what is not simulated', () => {
    expect(err('-c h -Z')).toBe('iperf3: option --zerocopy is not simulated in ec2-netlab\n');
    expect(err('-c h -A 2')).toBe('iperf3: option --affinity is not simulated in ec2-netlab\n');
    expect(err('-c h --cport 5000')).toBe('iperf3: option --cport is not simulated in ec2-netlab\n');
    expect(err('-c h -6')).toBe('iperf3: option --version6 is not simulated in ec2-netlab\n');
    expect(err('-c h --fq-rate 1G')).toBe('iperf3: option --fq-rate is not simulated in ec2-netlab\n');
    expect(err('-c h -k 100')).toBe('iperf3: option --blockcount is not simulated in ec2-netlab\n');
    expect(err('-c h --dscp 46')).toBe('iperf3: option --dscp is not simulated in ec2-netlab\n');
    expect(err('-c h -V')).toBe('iperf3: option --verbose is not simulated in ec2-netlab\n');
    expect(err('-c h --logfile x')).toBe('iperf3: option --logfile is not simulated in ec2-netlab\n');
    expect(err('-c h -P 0')).toContain('is not simulated');
  });

  it('help and version print to stdout and exit 0', () => {
    const h = parseIperf3Args(['--help']);
    expect(h).toMatchObject({ ok: false, exitCode: 0, stdout: IPERF3_USAGE_LONG });
    expect(IPERF3_USAGE_LONG).toContain(
      '  -P, --parallel  #         number of parallel client streams to run\n',
    );
    const v = parseIperf3Args(['-v'], { systemInfo: 'Linux web-server 6.1 x86_64' });
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.stdout).toMatch(
        /^iperf 3\.16 \(cJSON 1\.7\.15\)\nLinux web-server 6\.1 x86_64\nOptional features/,
      );
  });

  it('MSS below the Linux minimum fails at stream setup', () => {
    expect(iperf3MssSetupError(ok('-c h -M 50'))).toBe(
      'iperf3: error - unable to set TCP/SCTP MSS: Invalid argument\n',
    );
    expect(iperf3MssSetupError(ok('-c h -M 1400'))).toBeUndefined();
  });
});
