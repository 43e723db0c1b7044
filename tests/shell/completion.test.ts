/** Completion's lists match the engine's tools, builtins, aws operations and qdisc kinds. */
import { describe, expect, it } from 'vitest';
import { AWS_EC2_OPERATIONS } from '../../src/engine/shell/commands/aws';
import { BUILTINS, TOOLS } from '../../src/engine/shell/commands/builtins';
import { AWS_CLOUDWATCH_OPERATIONS } from '../../src/engine/shell/commands/aws/cloudwatch';
import {
  AWS_CLOUDWATCH_OPS,
  AWS_EC2_OPS,
  COMMANDS,
  complete,
  formatCandidates,
} from '../../src/lib/completion';

const ctx = { instances: ['client', 'server'], files: ['out.txt', 'cap.pcap'] };

describe('completion', () => {
  it('lists what the engine has', () => {
    expect([...COMMANDS].sort()).toEqual(
      [...new Set([...Object.keys(TOOLS), ...Object.keys(BUILTINS)])].sort(),
    );
    expect([...AWS_EC2_OPS].sort()).toEqual([...AWS_EC2_OPERATIONS].sort());
    expect([...AWS_CLOUDWATCH_OPS].sort()).toEqual([...AWS_CLOUDWATCH_OPERATIONS].sort());
  });

  it('completes by place: command, instance prefix, options, hosts, interfaces, files, after a pipe', () => {
    expect(complete('tcpd', 4, ctx).line).toBe('tcpdump ');
    expect(complete('ser', 3, ctx).line).toBe('server:');
    expect(complete('ethtool -S e', 12, ctx).line).toBe('ethtool -S eth0 ');
    expect(complete('ping s', 6, ctx).line).toBe('ping server ');
    expect(complete('curl http://s', 13, ctx).line).toBe('curl http://server/');
    expect(complete('ethtool -S eth0 | gr', 20, ctx).line).toBe('ethtool -S eth0 | grep ');
    expect(complete('echo x > o', 10, ctx).line).toBe('echo x > out.txt ');
    expect(complete('tcpdump -r c', 12, ctx).line).toBe('tcpdump -r cap.pcap ');
    expect(complete('man iperf3', 10, ctx).line).toBe('man iperf3 ');
    // iperf and iperf3 share 'iperf': completion stops there
    expect(complete('man ipe', 7, ctx).line).toBe('man iperf');
    expect(complete('sudo tc qdisc a', 15, ctx).line).toBe('sudo tc qdisc add ');
    // the cursor in the middle: the rest of the line is kept
    expect(complete('ip  -s', 3, ctx).candidates).toContain('link');
  });

  it('several candidates: the common prefix, all of them for the listing', () => {
    const c = complete('i', 1, ctx);
    expect(c.line).toBe('ip');
    expect(c.candidates).toEqual(['ip', 'iperf', 'iperf3']);
    expect(complete('iperf3 -c server -', 18, ctx).candidates.length).toBeGreaterThan(10);
    expect(formatCandidates(['a', 'bb', 'ccc'], 12)).toBe('a    ccc\nbb\n');
  });
});
