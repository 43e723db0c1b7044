/**
 * A batch at a capture point (src/engine/shell/commands/tcpdump/batch-capture.ts): each row of the packet list's
 * capture ring and each packet tcpdump writes is the wire packet it stands for — its own sequence
 * range, its own time on the wire at the host link's rate, and in a batch of ACKs its own ACK
 * number — and the two captures agree packet for packet. Multi-ENI: a packet crossing eth1 says so.
 */
import { describe, expect, it } from 'vitest';
import { decodeFrame, readPcap, type WirePacket } from '../../../src/engine/shell/commands/tcpdump/pcap';
import { createLab, LabSession } from '../../../src/engine/session/runner';
import { batchGapNs, steppedAck } from '../../../src/engine/shell/commands/tcpdump/batch-capture';
import { CaptureRing, ROW_RX, ROW_TX } from '../../../src/engine/view/capture-ring';
import { defaultScenario, parseScenario, SCENARIO_VERSION } from '../../../src/scenario/schema';
import { PacketList } from '../../../workers/packet-list';

function captured() {
  const lab = createLab(defaultScenario());
  const ring = new CaptureRing(lab).attach();
  const s = new LabSession(lab);
  s.run('tcpdump -i eth0 -nn -s 128 -w /tmp/c.pcap &');
  s.run('iperf3 -c server -n 3000000 -l 100000 > /dev/null');
  s.run('sleep 0.05');
  s.close();
  const file = lab.files.read('client', '/tmp/c.pcap');
  if (!file) throw new Error('no pcap');
  const r = readPcap(file.data as Uint8Array);
  if ('error' in r) throw new Error(r.error);
  const pcap = r.packets.map((p) => decodeFrame(p.data, p.sec, p.usec)!);
  return { lab, ring, pcap };
}

describe('a batch at the capture point', () => {
  const { lab, ring, pcap } = captured();
  const client = [...lab.instances.keys()].indexOf('client');
  const rows: number[] = [];
  for (let i = ring.oldest; i < ring.count; i++)
    if ((ring.kind(i) === ROW_TX || ring.kind(i) === ROW_RX) && ring.host(i) === client) rows.push(i);

  it('rows of one batch: consecutive sequence ranges, times one serialisation apart', () => {
    const inst = lab.instance('client')!;
    let batches = 0;
    for (let j = 1; j < rows.length; j++) {
      const [a, b] = [ring.slotOf(rows[j - 1]!), ring.slotOf(rows[j]!)];
      if (ring.k[b]! === 0 || ring.payload[b]! === 0 || ring.kind(rows[j]!) !== ROW_TX) continue;
      batches++;
      const gap = batchGapNs(inst, ring.size[b]!);
      expect(gap).toBeGreaterThan(0);
      // c6in-class card: 9,039 bytes on the wire a 9,001-byte packet, a few hundred ns apart
      expect(ring.t[b]! - ring.t[a]!).toBeGreaterThanOrEqual(Math.floor(gap));
      expect(ring.t[b]! - ring.t[a]!).toBeLessThanOrEqual(Math.ceil(gap));
      expect(ring.seq[b]! + ring.k[b]! * ring.payload[b]!).toBe(
        ring.seq[a]! + (ring.k[a]! + 1) * ring.payload[a]!,
      );
    }
    expect(batches).toBeGreaterThan(100);
    // sent packets never overlap on the wire: each starts after the one before
    const tx = rows.filter((i) => ring.kind(i) === ROW_TX).map((i) => ring.t[ring.slotOf(i)]!);
    for (let j = 1; j < tx.length; j++) expect(tx[j]!).toBeGreaterThanOrEqual(tx[j - 1]!);
  });

  it('a batch of ACKs: each its own ACK number, stepping up in whole segments to the batch’s', () => {
    let stepped = 0;
    for (let j = 1; j < rows.length; j++) {
      const i = rows[j]!;
      const s = ring.slotOf(i);
      if (ring.kind(i) !== ROW_RX || ring.payload[s]! !== 0 || ring.k[s]! === 0) continue;
      const prev = ring.ack[ring.slotOf(rows[j - 1]!)]!;
      const d = (ring.ack[s]! - prev) | 0;
      expect(d).toBeGreaterThanOrEqual(0);
      if (d > 0) {
        stepped++;
        expect(d % 8949).toBe(0);
      }
    }
    expect(stepped).toBeGreaterThan(10);
    // the rule itself: from 100 to 100 + 10 segments of 10 in 4 ACKs; none behind: all the batch's
    expect([0, 1, 2, 3].map((k) => steppedAck(100, 200, 4, 10, k))).toEqual([120, 150, 170, 200]);
    expect([0, 1].map((k) => steppedAck(200, 200, 2, 10, k))).toEqual([200, 200]);
  });

  it('tcpdump -w wrote the same packets at the same times with the same numbers', () => {
    expect(pcap.length).toBe(rows.length);
    const us = (w: WirePacket) => w.sec * 1e6 + w.usec;
    const t0 = us(pcap[0]!) - Math.floor(ring.t[ring.slotOf(rows[0]!)]! / 1000);
    const isn = new Map<string, number>();
    rows.forEach((i, j) => {
      const s = ring.slotOf(i);
      const w = pcap[j]!;
      expect(us(w) - t0, `row ${i}`).toBe(Math.floor(ring.t[s]! / 1000));
      if (w.proto !== 6 || w.flags & 2) return;
      // the wire numbers are the model's plus the connection's ISN: one offset per direction
      const key = `${w.srcIp}:${w.sport}`;
      const off = (w.ack - ring.ack[s]!) >>> 0;
      if (!isn.has(key)) isn.set(key, off);
      expect(off, `row ${i}`).toBe(isn.get(key));
    });
  });
});

describe('a packet crossing an attached ENI', () => {
  it('its details name eth1 and its Ethernet header carries eth1’s MAC, as tcpdump -e -i eth1 prints it', () => {
    const sc = parseScenario({
      version: SCENARIO_VERSION,
      placement: 'cluster',
      instances: [
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large', networkInterfaces: [{ deviceIndex: 1 }] },
      ],
    });
    if (!sc.ok) throw new Error(sc.errors.join());
    const lab = createLab(sc.scenario);
    const ring = new CaptureRing(lab).attach();
    const s = new LabSession(lab);
    const eth1Mac = /link\/ether (\S+)/.exec(s.run('server: ip link show eth1')[0]!.output)![1]!;
    const eth0Mac = /link\/ether (\S+)/.exec(s.run('server: ip link show eth0')[0]!.output)![1]!;
    expect(eth1Mac).not.toBe(eth0Mac);
    const eth1Ip = /inet (\S+)\//.exec(s.run('server: ip addr show eth1')[0]!.output)![1]!;
    const recs = [
      ...s.run('server: tcpdump -i eth1 -e -nn -c 3 &'),
      ...s.run(`iperf3 -c ${eth1Ip} -n 100K > /dev/null`),
      ...s.run('iperf3 -c server -n 100K > /dev/null'),
      ...s.close(),
    ];
    const dump = recs.find((r) => r.host === 'server' && /packets captured/.test(r.stderr))!;
    const first = dump.output.split('\n')[0]!;
    expect(first).toMatch(
      new RegExp(
        `^\\S+ \\S+ > ${eth1Mac}, ethertype IPv4 \\(0x0800\\), length 74: 10\\.0\\.0\\.10\\.\\d+ > ${eth1Ip.replace(/\./g, '\\.')}\\.5201: Flags \\[S\\]`,
      ),
    );
    const list = new PacketList(ring, lab);
    const server = [...lab.instances.keys()].indexOf('server');
    const seen = { eth0: 0, eth1: 0 };
    for (let i = ring.oldest; i < ring.count; i++) {
      if (ring.host(i) !== server || ring.kind(i) !== ROW_RX) continue;
      const f = ring.flowOf(i)!;
      const viaEth1 = f.flow.tuple.dstIp === eth1Ip;
      const d = list.details(i + 1)!;
      const dev = viaEth1 ? 'eth1' : 'eth0';
      seen[dev]++;
      expect(d.layers[0]!.title).toMatch(new RegExp(`captured on interface ${dev} of server$`));
      expect(d.layers[1]!.title).toMatch(new RegExp(`, Dst: ${viaEth1 ? eth1Mac : eth0Mac}$`));
    }
    expect(seen.eth0).toBeGreaterThan(3);
    expect(seen.eth1).toBeGreaterThan(3);
    // Wireshark's frame.interface_name selects them, and is what the details apply as a filter
    const q = (filter: string) => {
      const a = list.list({ filter, host: 'server', window: { kind: 'all' }, offset: 0, limit: 0 });
      if (!a.ok) throw new Error(a.error);
      return a.matched;
    };
    expect(q(`frame.interface_name == "eth1" && dir == "in"`)).toBe(seen.eth1);
    expect(q(`frame.interface_name == "eth0" && dir == "in"`)).toBe(seen.eth0);
    expect(q(`frame.interface_name == "eth1" && ip.addr != ${eth1Ip}`)).toBe(0);
    const eth1Row = [...Array(ring.count).keys()].find(
      (i) =>
        ring.host(i) === server && ring.kind(i) === ROW_RX && ring.flowOf(i)!.flow.tuple.dstIp === eth1Ip,
    )!;
    const field = list.details(eth1Row + 1)!.layers[0]!.fields.find((f) => f.label === 'Interface name')!;
    expect([field.value, field.filter]).toEqual(['eth1', 'frame.interface_name == "eth1"']);
  });
});
