/**
 * `npm run lab` starts the CLI through bin/lab.mjs (a cached esbuild bundle of src/cli/main.ts)
 * rather than the tsx loader: it must be the same program, byte for byte, exit codes included.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[]): Promise<Result> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: ROOT, timeout: 120_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const viaLauncher = (...args: string[]) => run(process.execPath, [join(ROOT, 'bin', 'lab.mjs'), ...args]);
const viaTsx = (...args: string[]) =>
  run(join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/cli/main.ts', ...args]);

describe('bin/lab.mjs (npm run lab)', () => {
  it('is what the lab script runs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.lab).toBe('node bin/lab.mjs');
  });

  it('prints the same bytes as the tsx-loaded CLI', async () => {
    const args = [
      '--seed',
      '7',
      '--json',
      '--',
      'iperf3 -c server -t 1 -P 2',
      'ethtool -S eth0',
      'server: tc -s qdisc show dev eth0',
    ];
    const [a, b] = await Promise.all([viaLauncher(...args), viaTsx(...args)]);
    expect(a.code).toBe(0);
    expect(a.stdout.length).toBeGreaterThan(1000);
    expect(a.stdout).toBe(b.stdout);
    expect(a.code).toBe(b.code);
  });

  it('keeps the exit code and one-line message for bad input', async () => {
    const [a, b] = await Promise.all([
      viaLauncher('--placement', 'moon', '--', 'ip link'),
      viaTsx('--placement', 'moon', '--', 'ip link'),
    ]);
    expect(a.code).toBe(2);
    expect(a.stderr.trim().split('\n')).toHaveLength(1);
    expect(a.stderr).toBe(b.stderr);
  });
});
