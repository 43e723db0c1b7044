/**
 * The `npm run lab` command line, spawned as a user runs it (tsx src/cli/main.ts …, cwd = repo):
 * exit 0 when the lab ran (a failing command prints its tool's error and the run goes on), exit 2
 * with exactly one line on stderr for bad input; text output command by command, or one JSON
 * document with iperf3's own -J layout in `result`.
 *
 * Every spawn is short (-t 1 at most) and they run concurrently: tsx start-up dominates.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTerminalControl } from '../../src/cli/text';

const ROOT = join(import.meta.dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const TMP = mkdtempSync(join(tmpdir(), 'ec2-netlab-cli-'));

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function lab(...args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['src/cli/main.ts', ...args],
      { cwd: ROOT, timeout: 60_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function file(name: string, text: string): string {
  const p = join(TMP, name);
  writeFileSync(p, text);
  return p;
}

/** Bad input: exit 2, nothing on stdout, one line on stderr that starts with "lab: " and matches. */
function expectBadInput(r: Result, re: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n'), JSON.stringify(r.stderr)).toBe(true);
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(/^lab: /);
  expect(r.stderr).toMatch(re);
}

describe.concurrent('lab CLI: --enhanced-networking on|off (issue 15)', () => {
  it('off launches a Xen pair on the PV device; a Nitro type refuses as RunInstances does; bad values are bad input', async () => {
    const [pv, nitro, bad] = await Promise.all([
      lab(
        '--client',
        'c3.8xlarge',
        '--server',
        'c3.8xlarge',
        '--enhanced-networking',
        'off',
        '--',
        'ethtool -i eth0',
      ),
      lab('--enhanced-networking', 'off', '--', 'ethtool -i eth0'),
      lab('--enhanced-networking', 'maybe', '--', 'ethtool -i eth0'),
    ]);
    expect(pv.code, pv.stderr).toBe(0);
    expect(pv.stdout).toContain('driver: vif\n');
    expectBadInput(
      nitro,
      /Enhanced networking with the Elastic Network Adapter \(ENA\) is required for the 'c7i.large' instance type/,
    );
    expectBadInput(bad, /--enhanced-networking must be on or off \(got "maybe"\)/);
  });
});

describe.concurrent('lab CLI: bad input → exit 2 and one line on stderr', () => {
  it('no commands', async () => {
    expectBadInput(await lab('--json', '--'), /no commands given/);
  });

  it('an unknown option', async () => {
    expectBadInput(await lab('--bogus', '--', 'sleep 0.01'), /unknown option --bogus/);
  });

  it('an option without its value', async () => {
    expectBadInput(await lab('--client', '--', 'sleep 0.01'), /option --client needs a value/);
  });

  it('a bad --placement', async () => {
    expectBadInput(
      await lab('--placement', 'moon', '--', 'sleep 0.01'),
      /--placement must be one of cluster, same-az, cross-az, internet, other-vpc \(got "moon"\)/,
    );
  });

  it('a bad --seed', async () => {
    for (const s of ['-1', '4294967296'])
      expectBadInput(
        await lab('--seed', s, '--', 'sleep 0.01'),
        new RegExp(`--seed must be an integer.*got "${s.replace('.', '\\.')}"`),
      );
  });

  it('an unknown --client type names it and suggests', async () => {
    const r = await lab('--client', 'c7i.larg', '--', 'sleep 0.01');
    expectBadInput(
      r,
      /instances\[0\]\.type: unknown instance type "c7i\.larg" \(did you mean [^)]*c7i\.large/,
    );
  });

  it('an unknown --server type names the server instance', async () => {
    expectBadInput(
      await lab('--server', 'z9.huge', '--', 'sleep 0.01'),
      /instances\[1\]\.type: unknown instance type "z9\.huge"/,
    );
  });

  it('--scenario: a missing file', async () => {
    expectBadInput(
      await lab('--scenario', join(TMP, 'nope.json')),
      /cannot read scenario file .*nope\.json: ENOENT/,
    );
  });

  it('--scenario: invalid JSON', async () => {
    expectBadInput(
      await lab('--scenario', file('broken.json', '{"version": 1,')),
      /broken\.json is not valid JSON/,
    );
  });

  it('--scenario: not an object', async () => {
    expectBadInput(
      await lab('--scenario', file('array.json', '[1,2]')),
      /array\.json: \(root\): a scenario must be a JSON object/,
    );
  });

  it('--scenario: a schema error names the field', async () => {
    const p = file(
      'bad-type.json',
      JSON.stringify({
        version: 1,
        instances: [
          { name: 'client', type: 'c7i.larg' },
          { name: 'server', type: 'c7i.large' },
        ],
      }),
    );
    expectBadInput(
      await lab('--scenario', p, '--', 'sleep 0.01'),
      /bad-type\.json: instances\[0\]\.type: unknown instance type "c7i\.larg"/,
    );
    const p2 = file(
      'bad-many.json',
      JSON.stringify({ version: 1, seed: -1, placement: 'moon', settings: { batch: 0 } }),
    );
    // several errors, still one line
    expectBadInput(
      await lab('--scenario', p2, '--', 'sleep 0.01'),
      /seed: .*; placement: .*; settings\.batch: /,
    );
  });

  it('--scenario: options that patch the document do not hide its type errors', async () => {
    const p = file('settings-string.json', '{"version": 1, "settings": "abc"}');
    expectBadInput(
      await lab('--scenario', p, '--batch', '1', '--', 'sleep 0.01'),
      /settings-string\.json: settings: .*expected object/,
    );
    const q = file('instances-string.json', '{"version": 1, "instances": "x"}');
    expectBadInput(
      await lab('--scenario', q, '--client', 'c7i.large', '--', 'sleep 0.01'),
      /instances-string\.json: instances: must be an array/,
    );
  });

  it('--scenario: an unknown version', async () => {
    expectBadInput(
      await lab('--scenario', file('v9.json', '{"version": 9}')),
      /version: 9 is not a known scenario version/,
    );
  });

  it('--scenario: no script and no commands', async () => {
    expectBadInput(await lab('--scenario', file('empty.json', '{"version": 1}')), /no commands given/);
  });
});

describe.concurrent('lab CLI: runs', () => {
  it('prints what iperf3 prints, after a prompt line', async () => {
    const r = await lab('--', 'iperf3 -c server -t 1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('[ec2-user@client ~]$ iperf3 -c server -t 1');
    expect(lines[1]).toBe('Connecting to host server, port 5201');
    expect(r.stdout).toMatch(/\[ ID\] Interval {11}Transfer {5}Bitrate {9}Retr {2}Cwnd/);
    expect(r.stdout).toMatch(/\[ {2}5\] {3}0\.00-1\.00 {3}sec .* sender\n/);
    expect(r.stdout).toMatch(/ receiver\n\niperf Done\.\n$/);
  });

  it('--json prints one document: runs with iperf3 -J layout in result', async () => {
    const r = await lab('--json', '--', 'iperf3 -c server -t 1 -P 2', 'server: ethtool -g eth0');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { runs: Array<Record<string, unknown>> };
    expect(Object.keys(doc)).toEqual(['runs']);
    expect(doc.runs).toHaveLength(2);
    for (const run of doc.runs)
      expect(Object.keys(run)).toEqual([
        'host',
        'command',
        'startNs',
        'endNs',
        'exitCode',
        'output',
        'result',
      ]);
    const [ip, eg] = doc.runs as [Record<string, unknown>, Record<string, unknown>];
    expect(ip).toMatchObject({
      host: 'client',
      command: 'iperf3 -c server -t 1 -P 2',
      startNs: 0,
      exitCode: 0,
    });
    expect(ip.endNs as number).toBeGreaterThan(1e9);
    const res = ip.result as {
      start: { connected: unknown[]; test_start: { num_streams: number; duration: number } };
      intervals: Array<{ streams: unknown[]; sum: { bytes: number } }>;
      end: {
        streams: unknown[];
        sum_sent: { bytes: number; bits_per_second: number };
        sum_received: { bytes: number };
      };
    };
    expect(res.start.connected).toHaveLength(2);
    expect(res.start.test_start).toMatchObject({ num_streams: 2, duration: 1 });
    expect(res.intervals).toHaveLength(1);
    expect(res.intervals[0]!.streams).toHaveLength(2);
    expect(res.intervals[0]!.sum.bytes).toBeGreaterThan(0);
    expect(res.end.streams).toHaveLength(2);
    expect(res.end.sum_sent.bytes).toBeGreaterThan(0);
    expect(res.end.sum_sent.bits_per_second).toBeGreaterThan(1e9);
    expect(res.end.sum_received.bytes).toBeGreaterThan(0);
    expect(res.end.sum_received.bytes).toBeLessThanOrEqual(res.end.sum_sent.bytes);
    // the server: line ran on the server, right after the client's test
    expect(eg).toMatchObject({ host: 'server', command: 'ethtool -g eth0', exitCode: 0, startNs: ip.endNs });
    expect(eg.output as string).toMatch(/^Ring parameters for eth0:\n/);
  });

  it('UDP --json: end.sum has lost_packets, packets and jitter_ms', async () => {
    const r = await lab('--json', '--', 'iperf3 -c server -u -b 100M -t 1');
    expect(r.code, r.stderr).toBe(0);
    const end = (JSON.parse(r.stdout).runs[0].result as { end: { sum: Record<string, number> } }).end;
    expect(end.sum).toMatchObject({
      lost_packets: expect.any(Number),
      packets: expect.any(Number),
      jitter_ms: expect.any(Number),
    });
    expect(end.sum.packets).toBeGreaterThan(0);
  });

  it('a server: prefixed command runs on the server', async () => {
    const r = await lab('--', 'server: hostname', 'hostname');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('[ec2-user@server ~]$ hostname\nserver\n[ec2-user@client ~]$ hostname\nclient\n');
  });

  it('a failing command prints the tool’s error on stderr and the run continues with exit 0', async () => {
    const r = await lab('--', 'tc qdisc add dev eth0 root foo', 'ethtool -g eth0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Error: Specified qdisc kind is unknown\.\n$/);
    expect(r.stdout).toMatch(
      /^\[ec2-user@client ~\]\$ tc qdisc add dev eth0 root foo\n\[ec2-user@client ~\]\$ ethtool -g eth0\nRing parameters for eth0:/,
    );
  });

  it('a failing command in --json keeps its exit code and message in the record', async () => {
    const r = await lab('--json', '--', 'nosuchtool', 'ip link set dev eth0 mtu 100000');
    expect(r.code, r.stderr).toBe(0);
    const runs = JSON.parse(r.stdout).runs as Array<{ exitCode: number; output: string }>;
    expect(runs[0]).toMatchObject({ exitCode: 127, output: 'bash: nosuchtool: command not found\n' });
    expect(runs[1]!.exitCode).not.toBe(0);
    expect(runs[1]!.output).not.toBe('');
  });

  it('--scenario types a session (v4) again, each line at its simulated instant', async () => {
    const p = file(
      'session.json',
      JSON.stringify({
        version: 4,
        session: [
          { atNs: 0, line: 'iperf3 -c server -t 1' },
          { atNs: 1_500_000_000, line: 'server: hostname' },
        ],
      }),
    );
    const r = await lab('--scenario', p, '--json');
    expect(r.code, r.stderr).toBe(0);
    const runs = JSON.parse(r.stdout).runs as Array<{ host: string; command: string; startNs: number }>;
    expect(runs.map((x) => [x.host, x.command, x.startNs])).toEqual([
      ['client', 'iperf3 -c server -t 1', 0],
      ['server', 'hostname', 1_500_000_000],
    ]);
    const both = file(
      'both.json',
      JSON.stringify({ version: 4, script: ['hostname'], session: [{ atNs: 0, line: 'hostname' }] }),
    );
    expectBadInput(await lab('--scenario', both), /both a script and a session/);
  });

  it('--scenario runs the script of a valid file, with --client overriding its type', async () => {
    const p = file(
      'ok.json',
      JSON.stringify({
        version: 1,
        seed: 7,
        placement: 'same-az',
        script: ['ethtool -l eth0', 'server: hostname'],
      }),
    );
    const r = await lab('--scenario', p, '--client', 'c5n.18xlarge', '--json');
    expect(r.code, r.stderr).toBe(0);
    const runs = JSON.parse(r.stdout).runs as Array<{ host: string; command: string; output: string }>;
    expect(runs.map((x) => `${x.host}: ${x.command}`)).toEqual([
      'client: ethtool -l eth0',
      'server: hostname',
    ]);
    // c5n.18xlarge: 72 vCPUs, 32 queues per ENI (ENA combined channels)
    expect(runs[0]!.output).toMatch(/Combined:\s+32\n/);
  });
});

describe('lab CLI: --out DIR', () => {
  it('copies the files the tools wrote: a tcpdump -w capture, pipes and lists print once per line', async () => {
    const out = join(TMP, 'out');
    const r = await lab(
      '--out',
      out,
      '--',
      'tcpdump -c 3 -w cap.pcap &',
      'iperf3 -c server -n 20000 > /dev/null; ethtool -S eth0 | grep -c allowance',
      'tcpdump -nn -r cap.pcap',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '[ec2-user@client ~]$ iperf3 -c server -n 20000 > /dev/null; ethtool -S eth0 | grep -c allowance\n6\n',
    );
    expect(r.stdout).toMatch(/\n17:00:00\.000000 IP 10\.0\.0\.10\.45000 > 10\.0\.0\.11\.5201: Flags \[S\]/);
    const path = join(out, 'client', 'cap.pcap');
    expect(r.stderr).toMatch(new RegExp(`lab: wrote ${path.replace(/[.]/g, '\\.')} \\(\\d+ bytes\\)\\n`));
    const bytes = readFileSync(path);
    expect(bytes.readUInt32LE(0)).toBe(0xa1b2c3d4);
  });
});

describe.concurrent('lab CLI: bounds and terminal safety', () => {
  it('a scenario file with a byte-order mark opens (editors on Windows write one)', async () => {
    const f = file('bom.json', `\uFEFF${JSON.stringify({ version: 4, script: ['hostname'] })}`);
    const r = await lab('--scenario', f);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('[ec2-user@client ~]$ hostname\nclient\n');
  });

  it('control characters from a scenario are shown as ^[ … , never sent to the terminal', async () => {
    const f = file('ctl.json', JSON.stringify({ version: 4, script: ['\u001b[2Jx\u0007\u009b2J'] }));
    const r = await lab('--scenario', f);
    expect(r.code).toBe(0);
    expect(hasTerminalControl(r.stdout + r.stderr)).toBe(false);
    expect(r.stdout).toBe('[ec2-user@client ~]$ ^[[2Jx^GM-^[2J\n');
    expect(r.stderr).toBe('bash: ^[[2Jx^GM-^[2J: command not found\n');
  });

  it('a parameter out of its range is bad input naming the range', async () => {
    const f = file('napi.json', JSON.stringify({ version: 4, params: { napiBudget: 0 } }));
    const r = await lab('--scenario', f, '--', 'ping -c 1 server');
    expectBadInput(
      r,
      /params\.napiBudget: 0 is out of range: must be an integer from 1 to 65,536 \(packets\)/,
    );
  });

  it('ping without -c ends (60 s of simulated time) and says so', async () => {
    const r = await lab('ping -q server');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/60 packets transmitted, 60 received/);
    expect(r.stderr).toMatch(/ping without -c stops after 60 s of simulated time/);
  });

  it('on a terminal, a long command shows its simulated progress, erased before the output', async () => {
    // script(1) gives the CLI a pseudo-terminal, as an interactive shell would
    const cmd = `${TSX} src/cli/main.ts "iperf3 -c server -t 20 -P 4"`;
    const r = await new Promise<Result>((resolve) =>
      execFile('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\r\x1b[Kiperf3 -c server -t 20 -P 4: ');
    expect(r.stdout).toMatch(/-P 4: \d+\.\d s of 20\.\d s simulated/);
    expect(r.stdout).toContain('\r\x1b[K[ec2-user@client ~]$ iperf3');
    expect(r.stdout).toContain('iperf Done.');
  });
});
