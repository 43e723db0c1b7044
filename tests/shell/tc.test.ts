/**
 * `tc`: iproute2's parsing, output layout and error texts on the simulated qdisc tree.
 */
import { describe, expect, it } from 'vitest';
import { createQdiscTree, type QdiscManager } from '../../src/engine/host/qdisc/tree';
import { runTc, type TcDevices } from '../../src/engine/shell/commands/tc';
import { FQ_CODEL_USAGE } from '../../src/engine/shell/commands/tc/q-fq-codel';
import { HTB_USAGE } from '../../src/engine/shell/commands/tc/q-htb';
import {
  getRate64,
  getSize,
  getTime,
  sprintRate,
  sprintSize,
  sprintTime,
} from '../../src/engine/shell/commands/tc/utils';
import { fakeCtx, flow, pkt } from '../engine/qdisc/fake-ctx';

function devices(
  opts: { numTxQueues?: number; mtu?: number; defaultQdisc?: 'fq_codel' | 'pfifo_fast' } = {},
) {
  const ctx = fakeCtx({ numTxQueues: opts.numTxQueues ?? 2, mtu: opts.mtu ?? 9001 });
  const eth0 = createQdiscTree(ctx, { defaultQdisc: opts.defaultQdisc ?? 'fq_codel' });
  const map = new Map<string, QdiscManager>([['eth0', eth0]]);
  return { devs: map as TcDevices, eth0, ctx };
}

function tc(devs: TcDevices, line: string) {
  const o = runTc(line.split(/\s+/).filter(Boolean), devs);
  if (o.kind !== 'done') throw new Error('tc never starts a job');
  return o.out;
}

describe('tc units (tc_util.c)', () => {
  it('parses rates, sizes and times like iproute2', () => {
    expect(getRate64('10gbit')).toBe(1.25e9);
    expect(getRate64('1Gbit')).toBe(1.25e8);
    expect(getRate64('964mbit')).toBe(120.5e6);
    expect(getRate64('100kbit')).toBe(12500);
    expect(getRate64('1000')).toBe(125); // bare number = bit/s
    expect(getRate64('8bps')).toBe(8); // bps = bytes per second
    expect(getRate64('1kibit')).toBe(128);
    expect(getRate64('10furlongs')).toBeNull();
    expect(getSize('32m')).toBe(32 * 1024 * 1024);
    expect(getSize('15k')).toBe(15360);
    expect(getSize('1600')).toBe(1600);
    expect(getSize('1kbit')).toBe(128);
    expect(getSize('3q')).toBeNull();
    expect(getTime('5ms')).toBe(5000);
    expect(getTime('1s')).toBe(1e6);
    expect(getTime('250')).toBe(250);
    expect(getTime('1h')).toBeNull();
  });
  it('prints like sprint_rate/sprint_size/sprint_time', () => {
    expect(sprintRate(1.25e9)).toBe('10Gbit');
    expect(sprintRate(120.5e6)).toBe('964Mbit');
    expect(sprintRate(187.5e6)).toBe('1500Mbit');
    expect(sprintRate(68750)).toBe('550Kbit');
    expect(sprintSize(32 << 20)).toBe('32Mb');
    expect(sprintSize(1600)).toBe('1600b');
    expect(sprintSize(15360)).toBe('15Kb');
    expect(sprintTime(5000)).toBe('5ms');
    expect(sprintTime(100000)).toBe('100ms');
    expect(sprintTime(10e6)).toBe('10s');
    expect(sprintTime(10)).toBe('10us');
    expect(sprintTime(1500)).toBe('1.5ms');
  });
});

describe('tc qdisc show', () => {
  it('lists mq and its fq_codel children as Linux does (newest first)', () => {
    const { devs } = devices({ numTxQueues: 2, mtu: 9001 });
    const out = tc(devs, 'qdisc show dev eth0');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe(
      'qdisc mq 0: root \n' +
        'qdisc fq_codel 0: parent :2 limit 10240p flows 1024 quantum 9015 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 \n' +
        'qdisc fq_codel 0: parent :1 limit 10240p flows 1024 quantum 9015 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 \n',
    );
  });

  it('-s adds the statistics lines and fq_codel xstats, and returns the structured list', () => {
    const { devs, eth0 } = devices({ numTxQueues: 2, mtu: 1500 });
    const f = flow();
    eth0.enqueue(pkt(f, { count: 3, sizeBytes: 1500, txq: 0 }), 0);
    eth0.dequeue(0, 1000);
    const out = tc(devs, '-s qdisc show dev eth0');
    const lines = out.stdout.split('\n');
    expect(lines[0]).toBe('qdisc mq 0: root ');
    expect(lines[1]).toBe(' Sent 4542 bytes 3 pkt (dropped 0, overlimits 0 requeues 0) ');
    expect(lines[2]).toBe(' backlog 0b 0p requeues 0');
    expect(lines).toContain(
      'qdisc fq_codel 0: parent :1 limit 10240p flows 1024 quantum 1514 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 ',
    );
    // The emptied flow stays on the new list until the next dequeue finds it empty (sch_fq_codel.c).
    // maxpacket is the largest skb's qdisc_pkt_len: the 3-segment TCP batch is one GSO skb of 3 × 1514.
    expect(out.stdout).toContain(
      '  maxpacket 4542 drop_overlimit 0 new_flow_count 1 ecn_mark 0\n  new_flows_len 1 old_flows_len 0\n',
    );
    const result = out.result as Array<Record<string, unknown>>;
    expect(result[0]).toMatchObject({
      kind: 'mq',
      handle: '0:',
      root: true,
      bytes: 4542,
      packets: 3,
      drops: 0,
      qlen: 0,
    });
    expect(result.find((q) => q.parent === ':1')).toMatchObject({
      kind: 'fq_codel',
      bytes: 4542,
      packets: 3,
    });
  });

  it('-s: Sent counts wire packets (bstats adds gso_segs), backlog counts GSO skbs', () => {
    const { devs, eth0 } = devices({ numTxQueues: 2, mtu: 1500 });
    const f = flow();
    // three GSO skbs of 562 segments of 116 B (iperf3 -M 128) on TX queue 0, one of them sent
    for (let i = 0; i < 3; i++) eth0.enqueue(pkt(f, { count: 562, sizeBytes: 168, txq: 0 }), 0);
    expect(eth0.dequeue(0, 1000)!.count).toBe(562);
    const lines = tc(devs, '-s qdisc show dev eth0').stdout.split('\n');
    const skbBytes = 562 * (168 + 14);
    expect(lines[1]).toBe(` Sent ${skbBytes} bytes 562 pkt (dropped 0, overlimits 0 requeues 0) `);
    expect(lines[2]).toBe(` backlog ${sprintSize(2 * skbBytes)} 2p requeues 0`);
    const j = tc(devs, '-s -j qdisc show dev eth0').result as Array<Record<string, unknown>>;
    expect(j.find((q) => q.parent === ':1')).toMatchObject({ packets: 562, qlen: 2, backlog: 2 * skbBytes });
  });

  it('single-queue pfifo_fast root shows refcnt 2 and the priomap', () => {
    const { devs } = devices({ numTxQueues: 1, defaultQdisc: 'pfifo_fast' });
    expect(tc(devs, 'qdisc').stdout).toBe(
      'qdisc pfifo_fast 0: dev eth0 root refcnt 2 bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1\n',
    );
  });

  it('-j prints the JSON list', () => {
    const { devs } = devices({ numTxQueues: 2 });
    const out = tc(devs, '-j qdisc show dev eth0');
    const j = JSON.parse(out.stdout) as Array<Record<string, unknown>>;
    expect(j[0]).toEqual({ kind: 'mq', handle: '0:', root: true, options: {} });
    expect(j[1]).toMatchObject({ kind: 'fq_codel', parent: ':2', options: { limit: 10240, quantum: 9015 } });
  });
});

describe('tc: the NET402 HTB + fq_codel setup', () => {
  it('htb root, 10gbit class, and the invalid fq_codel maxrate line fail exactly as real tc', () => {
    const { devs } = devices({ numTxQueues: 2, mtu: 9001 });
    let out = tc(devs, 'qdisc add dev eth0 root handle 1: htb default 10');
    expect(out).toMatchObject({ exitCode: 0, stderr: '' });
    out = tc(devs, 'class add dev eth0 parent 1: classid 1:10 htb rate 10gbit ceil 10gbit');
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('Warning: sch_htb: quantum of class 10010 is big. Consider r2q change.\n');
    out = tc(
      devs,
      'qdisc add dev eth0 parent 1:10 handle 20: fq_codel flows 1024 limit 10240 quantum 8000 maxrate 1gbit',
    );
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`What is "maxrate"?\n${FQ_CODEL_USAGE}`);
    expect(FQ_CODEL_USAGE.startsWith('Usage: ... fq_codel\t[ limit PACKETS ] [ flows NUMBER ]\n')).toBe(true);
    // Without maxrate it works and shows up under the class.
    out = tc(devs, 'qdisc add dev eth0 parent 1:10 handle 20: fq_codel flows 1024 limit 10240 quantum 8000');
    expect(out.exitCode).toBe(0);
    expect(tc(devs, 'qdisc show dev eth0').stdout).toBe(
      'qdisc htb 1: root refcnt 3 r2q 10 default 0x10 direct_packets_stat 0 direct_qlen 1000\n' +
        'qdisc fq_codel 20: parent 1:10 limit 10240p flows 1024 quantum 8000 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 \n',
    );
    expect(tc(devs, 'class show dev eth0').stdout).toBe(
      'class htb 1:10 root leaf 20: prio 0 rate 10Gbit ceil 10Gbit burst 1600b cburst 1600b \n',
    );
  });

  it('add when a root exists: Exclusivity flag on, cannot modify', () => {
    const { devs } = devices();
    tc(devs, 'qdisc add dev eth0 root handle 1: htb default 10');
    const out = tc(devs, 'qdisc add dev eth0 root handle 1: htb default 10');
    expect(out).toMatchObject({ exitCode: 2, stderr: 'Error: Exclusivity flag on, cannot modify.\n' });
    const out2 = tc(devs, 'qdisc add dev eth0 root handle 2: fq');
    expect(out2).toMatchObject({ exitCode: 2, stderr: 'Error: NLM_F_REPLACE needed to override.\n' });
  });

  it('bad rate: Illegal "rate" followed by the htb usage', () => {
    const { devs } = devices();
    tc(devs, 'qdisc add dev eth0 root handle 1: htb');
    const out = tc(devs, 'class add dev eth0 parent 1: classid 1:10 htb rate 10gigs');
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(`Illegal "rate"\n${HTB_USAGE}`);
    expect(tc(devs, 'class add dev eth0 parent 1: classid 1:10 htb ceil 1gbit').stderr).toBe(
      '"rate" is required.\n',
    );
  });
});

describe('tc errors', () => {
  it('unknown qdisc with options, unknown kind, unmodelled kind, missing device', () => {
    const { devs } = devices();
    let out = tc(devs, 'qdisc add dev eth0 root foo bar');
    expect(out).toMatchObject({
      exitCode: 1,
      stderr: 'Unknown qdisc "foo", hence option "bar" is unparsable\n',
    });
    out = tc(devs, 'qdisc add dev eth0 root foo');
    expect(out).toMatchObject({ exitCode: 2, stderr: 'Error: Specified qdisc kind is unknown.\n' });
    out = tc(devs, 'qdisc add dev eth0 root netem delay 10ms');
    expect(out.exitCode).not.toBe(0);
    expect(out.stderr).toBe("qdisc 'netem' is not simulated in ec2-netlab\n");
    out = tc(devs, 'qdisc add dev eth9 root fq_codel');
    expect(out).toMatchObject({ exitCode: 1, stderr: 'Cannot find device "eth9"\n' });
    out = tc(devs, 'qdisc show dev eth9');
    expect(out).toMatchObject({ exitCode: 1, stderr: 'Cannot find device "eth9"\n' });
  });

  it('the default root cannot be changed or deleted', () => {
    const { devs } = devices();
    expect(tc(devs, 'qdisc del dev eth0 root').stderr).toBe(
      'Error: Cannot delete qdisc with handle of zero.\n',
    );
    expect(tc(devs, 'qdisc change dev eth0 root fq_codel limit 100').stderr).toBe(
      'Error: Qdisc not found. To create specify NLM_F_CREATE flag.\n',
    );
    expect(tc(devs, 'qdisc add dev eth0 parent :1 fq').stderr).toBe(
      'Error: Failed to find specified qdisc.\n',
    );
  });

  it('deleting the root restores mq + defaults', () => {
    const { devs, eth0 } = devices();
    tc(devs, 'qdisc replace dev eth0 root fq_codel');
    expect(eth0.rootKind).toBe('fq_codel');
    expect(tc(devs, 'qdisc show dev eth0').stdout.split('\n')[0]).toBe(
      'qdisc fq_codel 8001: root refcnt 3 limit 10240p flows 1024 quantum 9015 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 ',
    );
    expect(tc(devs, 'qdisc del dev eth0 root').exitCode).toBe(0);
    expect(eth0.rootKind).toBe('mq');
  });

  it('object, command and option errors', () => {
    const { devs } = devices();
    expect(tc(devs, 'foo')).toMatchObject({
      exitCode: 255,
      stderr: 'Object "foo" is unknown, try "tc help".\n',
    });
    expect(tc(devs, 'qdisc frob')).toMatchObject({
      exitCode: 255,
      stderr: 'Command "frob" is unknown, try "tc qdisc help".\n',
    });
    expect(tc(devs, '-z qdisc')).toMatchObject({
      exitCode: 255,
      stderr: 'Option "-z" is unknown, try "tc -help".\n',
    });
    expect(tc(devs, 'qdisc add dev eth0 root handle zz: htb')).toMatchObject({
      exitCode: 255,
      stderr: 'Error: argument "invalid qdisc ID" is wrong: zz:\n',
    });
    expect(tc(devs, 'qdisc add dev eth0 root fq_codel limit')).toMatchObject({
      exitCode: 255,
      stderr: 'Command line is not complete. Try option "help"\n',
    });
    expect(tc(devs, 'qdisc add dev eth0 root fq_codel target 5parsecs').stderr).toBe(`Illegal "target"\n`);
    expect(tc(devs, 'filter add dev eth0').stderr).toBe('tc filter is not simulated in ec2-netlab\n');
  });

  it('tbf reports every missing mandatory parameter at once', () => {
    const { devs } = devices();
    const out = tc(devs, 'qdisc add dev eth0 root tbf rate 1mbit');
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      'tbf: the "burst" parameter is mandatory.\n' +
        'tbf: either "limit" or "latency" is required.\n' +
        'Usage: ... tbf limit BYTES burst BYTES[/BYTES] rate KBPS [ mtu BYTES[/BYTES] ]\n' +
        '\t[ peakrate KBPS ] [ latency TIME ] [ overhead BYTES ] [ linklayer TYPE ]\n',
    );
    expect(tc(devs, 'qdisc add dev eth0 root handle 1: tbf rate 1mbit burst 32k latency 50ms').exitCode).toBe(
      0,
    );
    expect(tc(devs, 'qdisc show dev eth0').stdout).toBe(
      'qdisc tbf 1: root refcnt 3 rate 1Mbit burst 32Kb lat 50ms \n',
    );
  });

  it('fq shows its defaults and maxrate', () => {
    const { devs } = devices({ mtu: 1500 });
    expect(tc(devs, 'qdisc add dev eth0 root fq maxrate 1gbit').exitCode).toBe(0);
    expect(tc(devs, 'qdisc show dev eth0').stdout).toBe(
      'qdisc fq 8001: root refcnt 3 limit 10000p flow_limit 100p buckets 1024 orphan_mask 1023 quantum 3028b initial_quantum 15140b low_rate_threshold 550Kbit maxrate 1Gbit refill_delay 40ms timer_slack 10us horizon 10s horizon_drop \n',
    );
  });
});
