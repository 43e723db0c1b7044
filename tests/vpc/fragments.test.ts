/**
 * IPv4 fragments (issue 3: "Packets AWS documents as never accelerated (ICMP, fragments) stay on the
 * full path"; docs/domain-facts.md §1.6, §2.6): Linux fragments a UDP datagram or an echo request larger
 * than the device MTU; every fragment takes the Nitro card's full processing path on both cards;
 * the sender's card lets 1024 egress fragments per second through per ENI and drops the rest,
 * counted in pps_allowance_exceeded; the receiver reassembles, and a datagram missing one fragment
 * is lost whole (freed after ipfrag_time, ReasmFails). Fragments are steered by the IP 2-tuple.
 */
import { describe, expect, it } from 'vitest';
import { fragmentSizes } from '../../src/engine/host/ip-fragment';
import type { Lab } from '../../src/engine/lab/lab';
import { createLab, runScript } from '../../src/engine/session/runner';
import { parseScenario } from '../../src/scenario/schema';

function lab(doc: Record<string, unknown> = {}): Lab {
  const r = parseScenario({ version: 3, ...doc });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return createLab(r.scenario);
}

/** iperf3's receiver line: lost and total datagrams. */
function received(out: string): { lost: number; total: number } {
  const m = /(\d+)\/(\d+) \([^)]*\) +receiver/.exec(out);
  if (!m) throw new Error(`no receiver line in\n${out}`);
  return { lost: Number(m[1]), total: Number(m[2]) };
}

describe('IPv4 fragmentation (ip_fragment) sizes', () => {
  it('cuts at multiples of 8 bytes of data under the MTU, the rest in the last fragment', () => {
    // iperf3 -l 16000 over 9001: 16008 bytes of UDP = 8976 + 7032
    expect(fragmentSizes(16_028, 9001)).toEqual({ full: 8996, n: 2, last: 7052 });
    // ping -s 9000 over 1500: 9008 bytes of ICMP = 6 × 1480 + 128
    expect(fragmentSizes(9028, 1500)).toEqual({ full: 1500, n: 7, last: 148 });
  });
});

describe('fragments on the Nitro card', () => {
  it('under 1024 fragments/s: every fragment on the full path of both cards, every datagram reassembled', () => {
    const l = lab();
    // 50 Mbit/s of 16000-byte datagrams: 390 datagrams, 780 fragments a second
    const [r] = runScript(l, ['iperf3 -c server -u -b 50M -l 16000 -t 1']);
    const { lost, total } = received(r!.output);
    expect(total).toBeGreaterThan(380);
    expect(lost).toBe(0);
    const client = l.instance('client')!;
    const server = l.instance('server')!;
    expect(client.host.ipFragMib.fragOks).toBe(total);
    expect(client.host.ipFragMib.fragCreates).toBe(2 * total);
    // never accelerated: each fragment pays the full path on the sender's and the receiver's card
    expect(client.nitro.flowStats.fragmentPackets).toBe(2 * total);
    expect(server.nitro.flowStats.fragmentPackets).toBe(2 * total);
    expect(client.nitro.flowStats.acceleratedPackets).toBe(0);
    expect(server.host.ipFragMib.reasmOks).toBe(total);
    expect(server.host.ipFragMib.reasmReqds).toBe(2 * total);
    expect(client.nitro.counters().pps_allowance_exceeded).toBe(0);
  });

  it('over 1024 fragments/s: the sender’s card drops the excess (pps_allowance_exceeded) and a datagram missing a fragment is lost whole', () => {
    const l = lab();
    // 1 Gbit/s: 7813 datagrams, 15626 fragments in one second
    const recs = runScript(l, ['iperf3 -c server -u -b 1G -l 16000 -t 1', 'ethtool -S eth0', 'sleep 31']);
    const { lost, total } = received(recs[0]!.output);
    const eth = recs[1]!.result as Record<string, number>;
    const client = l.instance('client')!;
    const server = l.instance('server')!;
    const passed = client.nitro.flowStats.fragmentPackets;
    // 1024 a second and the bucket's depth passed; everything else was dropped and counted
    const depth = l.params.egressFragmentBucketPackets;
    expect(passed).toBeGreaterThanOrEqual(1024);
    expect(passed).toBeLessThanOrEqual(1024 * 1.05 + depth);
    expect(eth.pps_allowance_exceeded).toBe(2 * total - passed);
    // only datagrams whose two fragments both passed arrive: about half the fragments' worth
    const complete = server.host.ipFragMib.reasmOks;
    expect(total - lost).toBe(complete);
    expect(complete).toBeLessThanOrEqual(passed / 2);
    // the lone fragments of the others were held, then given up after ipfrag_time (30 s)
    const lone = passed - 2 * complete;
    expect(server.host.ipFragMib.reasmFails).toBe(lone);
    expect(server.host.reassembly.held).toBe(0);
  });

  it('steers fragments by the IP addresses alone: eight flows’ fragments share one RX queue', () => {
    const queuesUsed = (len: number) => {
      const l = lab({
        instances: [
          { name: 'client', type: 'c6i.8xlarge' },
          { name: 'server', type: 'c6i.8xlarge' },
        ],
      });
      const recs = runScript(l, [
        `iperf3 -c server -u -P 8 -b 5M -l ${len} -t 0.1`,
        'server: ethtool -S eth0',
      ]);
      const eth = recs[1]!.result as Record<string, number>;
      return Object.entries(eth).filter(([k, v]) => /^queue_\d+_rx_cnt$/.test(k) && v > 100).length;
    };
    expect(queuesUsed(1000)).toBeGreaterThan(1); // whole datagrams: the 4-tuple spreads the flows
    expect(queuesUsed(16_000)).toBe(1); // fragments: one 2-tuple, one queue
  });
});

describe('ping with large sizes', () => {
  it('ping -s 9000 is fragmented (7 fragments over MTU 1500) and answered; -M do fails locally', () => {
    const l = lab();
    const recs = runScript(l, [
      'ip link set dev eth0 mtu 1500',
      'ping -c 2 -s 9000 server',
      'ping -c 2 -M do -s 9000 server',
      'ping -M maybe server',
    ]);
    expect(recs[1]!.output).toContain('PING server (10.0.0.11) 9000(9028) bytes of data.\n');
    expect(recs[1]!.output).toMatch(
      /9008 bytes from ip-10-0-0-11\.ec2\.internal \(10\.0\.0\.11\): icmp_seq=2 ttl=64/,
    );
    expect(recs[1]!.output).toContain('2 packets transmitted, 2 received, 0% packet loss');
    // 7 request fragments from the client (MTU 1500), 2 reply fragments from the server (MTU 9001)
    expect(l.instance('client')!.nitro.flowStats.fragmentPackets).toBe(2 * (7 + 2));
    expect(l.instance('client')!.host.ipFragMib.fragCreates).toBe(2 * 7);
    expect(recs[2]!.exitCode).toBe(1);
    expect(recs[2]!.stderr).toBe(
      'ping: local error: message too long, mtu=1500\nping: local error: message too long, mtu=1500\n',
    );
    expect(recs[2]!.output).toContain('2 packets transmitted, 0 received, +2 errors, 100% packet loss');
    expect(recs[3]!.output).toBe('ping: invalid -M argument: maybe\n');
    expect(recs[3]!.exitCode).toBe(2);
  });
});
