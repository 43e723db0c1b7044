/**
 * The packet list's worker side (workers/packet-list.ts over src/engine/view/capture-ring.ts):
 * rows as Wireshark lists them, the display filter selecting the same packets as tcpdump's
 * pcap-filter for equivalent expressions (property, on a recorded run), the pcap export byte for
 * byte what `tcpdump -s 128 -w` wrote on the same instance, details, drops, the ring's cap, and
 * the same bytes for the same run.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFilter } from '../../src/engine/shell/commands/tcpdump';
import { decodeFrame, readPcap, type WirePacket } from '../../src/engine/shell/commands/tcpdump/pcap';
import { PROBE_STAGES } from '../../src/engine/model/probe';
import { DISPLAY_FIELDS, ROW_STAGES } from '../../src/lib/display-filter';
import type { PacketListAnswer, PacketListRequest } from '../../src/protocol/sim-api';
import { PRESETS } from '../../src/scenario/presets';
import { SimService } from '../../workers/sim-service';

const ALL = { kind: 'all' } as const;

/** The TCP options' bytes on the wire, padded to 4. */
const tcpOptionBytes = (w: WirePacket) =>
  Math.ceil(
    w.options.reduce(
      (a, o) =>
        a +
        (o.kind === 'nop'
          ? 1
          : o.kind === 'mss'
            ? 4
            : o.kind === 'sackOK'
              ? 2
              : o.kind === 'ts'
                ? 10
                : o.kind === 'wscale'
                  ? 3
                  : 2 + 8 * o.blocks.length),
      0,
    ) / 4,
  ) * 4;

/** A client capturing with tcpdump from t = 0 while iperf3 and ping run; played to 0.6 s. */
function recorded(opts: ConstructorParameters<typeof SimService>[0] = {}) {
  const s = new SimService(opts);
  expect(s.load(PRESETS[0]!.scenario).ok).toBe(true);
  expect(s.submit('timeout 0.5 tcpdump -i eth0 -nn -s 128 -w /tmp/c.pcap &')).toBe(true);
  s.advance({ toNs: 1e6, maxEvents: 1e7 });
  expect(s.submit('ping -c 3 -i 0.1 server > /dev/null &')).toBe(true);
  expect(s.submit('iperf3 -c server -n 300000 -l 10000 > /dev/null')).toBe(true);
  for (let t = 2; t <= 600; t += 2) s.advance({ toNs: t * 1e6, maxEvents: 1e7 });
  return s;
}

const list = (s: SimService, filter: string, more: Partial<PacketListRequest> = {}, limit = 500) =>
  s.packetList({ filter, host: null, window: ALL, offset: 0, limit, ...more });
const ok = (a: PacketListAnswer) => {
  if (!a.ok) throw new Error(a.error);
  return a;
};

describe('packet list', () => {
  let s: SimService;
  let pcap: WirePacket[];
  beforeAll(() => {
    s = recorded();
    const file = s.readLabFile('client', '/tmp/c.pcap')!;
    const r = readPcap(file);
    if ('error' in r) throw new Error(r.error);
    pcap = r.packets.map((p) => decodeFrame(p.data, p.sec, p.usec)!);
  });

  it('the stages a row names are the probe’s', () => {
    expect([...ROW_STAGES]).toEqual([...PROBE_STAGES]);
  });

  it('lists a TCP exchange with Wireshark’s columns', () => {
    const a = ok(list(s, 'tcp && host == client', {}, 5));
    expect(a.rows.map((r) => [r.no, r.kind, r.src, r.dst, r.protocol, r.length, r.info])).toEqual([
      [
        2,
        'out',
        '10.0.0.10',
        '10.0.0.11',
        'TCP',
        74,
        '45000 → 5201 [SYN] Seq=0 Win=62727 Len=0 MSS=8961 SACK_PERM WS=128',
      ],
      [
        7,
        'in',
        '10.0.0.11',
        '10.0.0.10',
        'TCP',
        74,
        '5201 → 45000 [SYN, ACK] Seq=0 Ack=1 Win=62727 Len=0 MSS=8961 SACK_PERM WS=128',
      ],
      [
        8,
        'out',
        '10.0.0.10',
        '10.0.0.11',
        'TCP',
        9015,
        '45000 → 5201 [ACK] Seq=1 Ack=1 Win=3145728 Len=8949',
      ],
      [
        9,
        'out',
        '10.0.0.10',
        '10.0.0.11',
        'TCP',
        9015,
        '45000 → 5201 [ACK] Seq=8950 Ack=1 Win=3145728 Len=8949',
      ],
      [
        10,
        'out',
        '10.0.0.10',
        '10.0.0.11',
        'TCP',
        9015,
        '45000 → 5201 [ACK] Seq=17899 Ack=1 Win=3145728 Len=8949',
      ],
    ]);
    const icmp = ok(list(s, 'icmp.type == 0 && host == client', {}, 1)).rows[0]!;
    expect(icmp.info).toMatch(/^Echo \(ping\) reply {4}id=0x[0-9a-f]{4}, seq=1\/256, ttl=64$/);
  });

  it('exports the client’s packets as the pcap tcpdump -s 128 -w wrote, byte for byte', () => {
    const e = s.packetExport(
      { filter: 'dir && frame.time_relative < 0.5', host: 'client', window: ALL },
      'pcap',
    );
    expect(e.ok).toBe(true);
    if (!e.ok) return;
    expect(e.rows).toBe(pcap.length);
    expect(pcap.length).toBeGreaterThan(40);
    expect(Buffer.from(e.data).equals(Buffer.from(s.readLabFile('client', '/tmp/c.pcap')!))).toBe(true);
    // a filtered export: the same records as the file's (only the selected connections followed)
    const file = readPcap(s.readLabFile('client', '/tmp/c.pcap')!);
    if ('error' in file) throw new Error(file.error);
    for (const [filter, keep] of [
      ['icmp', (w: WirePacket) => w.proto === 1],
      ['tcp.len > 0', (w: WirePacket) => w.proto === 6 && w.ipLen - 40 - tcpOptionBytes(w) > 0],
      [
        'tcp.len == 0 && dir == in',
        (w: WirePacket) => w.proto === 6 && w.ipLen - 40 - tcpOptionBytes(w) <= 0 && w.dstIp === '10.0.0.10',
      ],
    ] as const) {
      const sub = s.packetExport(
        { filter: `dir && frame.time_relative < 0.5 && ${filter}`, host: 'client', window: ALL },
        'pcap',
      );
      if (!sub.ok) throw new Error(sub.error);
      const got = readPcap(sub.data);
      if ('error' in got) throw new Error(got.error);
      const want = file.packets.filter((p) => keep(decodeFrame(p.data, p.sec, p.usec)!));
      expect(want.length).toBeGreaterThan(2);
      expect(got.packets.map((p) => Buffer.from(p.data).toString('hex'))).toEqual(
        want.map((p) => Buffer.from(p.data).toString('hex')),
      );
    }
  });

  it('details: the layers and fields of a data segment as tcpdump decoded it', () => {
    const row = ok(list(s, 'host == client && tcp.len > 0 && dir == "out"', {}, 1)).rows[0]!;
    const d = s.packetDetails(row.no)!;
    expect(d.layers.map((l) => l.title)).toEqual([
      `Frame ${row.no}: 9015 bytes on wire (72120 bits), 128 bytes captured on interface eth0 of client`,
      expect.stringMatching(/^Ethernet II, Src: 02:/),
      'Internet Protocol Version 4, Src: 10.0.0.10, Dst: 10.0.0.11',
      'Transmission Control Protocol, Src Port: 45000, Dst Port: 5201, Seq: 1, Ack: 1, Len: 8949',
      'ec2-netlab',
    ]);
    // the same packet in the pcap (capture rows of the client are the file's packets, in order)
    const n = ok(list(s, `host == client && dir && frame.number < ${row.no}`)).matched;
    const w = pcap[n]!;
    const tcpF = d.layers[3]!.fields;
    expect(tcpF.find((f) => f.label.startsWith('Options'))?.value).toBe(
      `No-Operation (NOP), No-Operation (NOP), Timestamps: TSval ${(w.options[2] as { val: number }).val}, TSecr ${(w.options[2] as { ecr: number }).ecr}`,
    );
    expect(d.layers[2]!.fields.find((f) => f.label === 'Identification')?.value).toBe(
      `0x${w.ipId.toString(16).padStart(4, '0')} (${w.ipId})`,
    );
    expect(d.ref).toEqual({ flow: expect.any(Number), seq: 0, count: 1 });
    // every client row's IP id and timestamps are the file's (rebuilt state, not a replay)
    const nos = ok(list(s, 'host == client && dir', {}, 500)).rows.map((r) => r.no);
    expect(nos).toHaveLength(pcap.length);
    for (let j = nos.length - 1; j >= 0; j -= 3) {
      const dj = s.packetDetails(nos[j]!)!;
      const p = pcap[j]!;
      const ipF = dj.layers[2]!.fields;
      expect(ipF.find((f) => f.label === 'Identification')?.value).toBe(
        `0x${p.ipId.toString(16).padStart(4, '0')} (${p.ipId})`,
      );
      if (p.proto === 6) {
        const ts = p.options.find((o) => o.kind === 'ts') as { val: number; ecr: number };
        expect(dj.layers[3]!.fields.find((f) => f.label.startsWith('Options'))?.value).toContain(
          `Timestamps: TSval ${ts.val}, TSecr ${ts.ecr}`,
        );
      }
    }
    expect(d.bytes!.length).toBe(128);
    // Apply as Filter: each field's expression selects the row it came from (a sent segment, a
    // received echo reply)
    const reply = ok(list(s, 'icmp.type == 0 && host == client', {}, 1)).rows[0]!;
    for (const no of [row.no, reply.no]) {
      const filters = s
        .packetDetails(no)!
        .layers.flatMap((l) => l.fields.flatMap((f) => (f.filter ? [f.filter] : [])));
      expect(filters.length).toBeGreaterThan(10);
      for (const f of filters) expect([f, ok(list(s, f, { locate: no }, 0)).located]).not.toEqual([f, -1]);
    }
    expect(s.packetDetails(row.no)!.layers[2]!.fields.find((f) => f.label === 'Source Address')?.filter).toBe(
      'ip.src == 10.0.0.10',
    );
    expect(s.packetDetails(0)).toBeNull();
  });

  it('the worker knows every field the filter box documents', () => {
    for (const f of DISPLAY_FIELDS) {
      const v =
        f.type === 'ipv4'
          ? '10.0.0.10'
          : f.type === 'mac'
            ? '02:00:00:00:00:01'
            : f.type === 'string'
              ? `"${f.values?.[0] ?? (f.name === 'host' ? 'client' : 'x')}"`
              : '1';
      const a = list(s, f.type === 'protocol' ? f.name : `${f.name} == ${v}`, {}, 1);
      expect(a.ok ? '' : `${f.name}: ${a.error}`).toBe('');
    }
  });

  it('a bad filter is an error with its span, and the list goes on', () => {
    expect(list(s, 'ip.src == 10.0.0.300')).toEqual({
      ok: false,
      error: '"10.0.0.300" is not a valid hostname or IPv4 address.',
      start: 10,
      end: 20,
    });
    expect(list(s, 'host == nobody')).toMatchObject({
      ok: false,
      error: '"nobody" is not an instance of this lab.',
    });
    expect(ok(list(s, '')).matched).toBeGreaterThan(0);
  });

  it('the display filter selects what pcap-filter selects for equivalent expressions (property)', () => {
    const rows = ok(list(s, 'host == client && dir', {}, 0));
    expect(rows.matched).toBe(pcap.length);
    const ports = [...new Set(pcap.flatMap((p) => [p.sport, p.dport]).filter((p) => p > 0))];
    const ips = ['10.0.0.10', '10.0.0.11', '10.0.0.99'];
    type Pair = [string, string];
    const port = fc.constantFrom(...ports, 53, 80);
    const prim: fc.Arbitrary<Pair> = fc.oneof(
      fc.constantFrom<Pair>(
        ['tcp', 'tcp'],
        ['udp', 'udp'],
        ['icmp', 'icmp'],
        ['ip proto 6', 'ip.proto == 6'],
        ['tcp[tcpflags] & tcp-syn != 0', 'tcp.flags.syn == 1'],
        ['tcp[tcpflags] & tcp-push != 0', 'tcp.flags.push == True'],
        ['tcp[tcpflags] & tcp-fin != 0', 'tcp.flags.fin == 1'],
        ['tcp[tcpflags] & (tcp-syn|tcp-fin) != 0', 'tcp.flags & 0x03'],
        ['tcp[tcpflags] & tcp-ack == 0', 'tcp.flags.ack == 0'],
      ),
      fc.constantFrom(...ips).map((ip): Pair => [`host ${ip}`, `ip.addr == ${ip}`]),
      fc.constantFrom(...ips).map((ip): Pair => [`src host ${ip}`, `ip.src eq ${ip}`]),
      fc.constantFrom(...ips).map((ip): Pair => [`dst ${ip}`, `ip.dst == ${ip}`]),
      fc.constantFrom('10.0.0.0/24', '10.0.1.0/24').map((n): Pair => [`net ${n}`, `ip.addr == ${n}`]),
      port.map((p): Pair => [`port ${p}`, `tcp.port == ${p} || udp.port == ${p}`]),
      port.map((p): Pair => [`tcp port ${p}`, `tcp.port == ${p}`]),
      port.map((p): Pair => [`tcp and not tcp port ${p}`, `tcp.port != ${p}`]),
      port.map((p): Pair => [`tcp src port ${p}`, `tcp.srcport == ${p}`]),
      port.map((p): Pair => [`udp dst port ${p}`, `udp.dstport == ${p}`]),
      port.map(
        (p): Pair => [
          `portrange ${p - 1}-${p + 1}`,
          `tcp.port in {${p - 1}..${p + 1}} or udp.port in {${p - 1}..${p + 1}}`,
        ],
      ),
      fc.integer({ min: 60, max: 9100 }).map((n): Pair => [`greater ${n}`, `frame.len >= ${n}`]),
      fc.integer({ min: 60, max: 9100 }).map((n): Pair => [`less ${n}`, `frame.len le ${n}`]),
    );
    const expr: fc.Arbitrary<Pair> = fc.letrec<{ e: Pair }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        prim,
        fc
          .tuple(tie('e'), tie('e'))
          .map(([a, b]): Pair => [`(${a[0]}) and (${b[0]})`, `(${a[1]}) && (${b[1]})`]),
        fc
          .tuple(tie('e'), tie('e'))
          .map(([a, b]): Pair => [`(${a[0]}) or (${b[0]})`, `(${a[1]}) or (${b[1]})`]),
        tie('e').map((a): Pair => [`not (${a[0]})`, `!(${a[1]})`]),
      ),
    })).e;
    fc.assert(
      fc.property(expr, ([bpf, display]) => {
        const pred = parseFilter(bpf, () => null);
        const want = pcap.flatMap((p, k) => (pred(p) ? [k] : []));
        const a = ok(list(s, `host == client && dir && (${display})`, {}, 0));
        // positions among the client's capture rows: a row's position is the pcap packet's index
        const all = ok(list(s, 'host == client && dir', {}, 500)).rows.map((r) => r.no);
        const got = ok(list(s, `host == client && dir && (${display})`, {}, 500)).rows.map((r) =>
          all.indexOf(r.no),
        );
        expect(a.matched).toBe(want.length);
        expect(got).toEqual(want.slice(0, 500));
      }),
      { seed: 1616, numRuns: 150 },
    );
  });

  it('a time window and an instance narrow the list; a row is located in it', () => {
    const all = ok(list(s, '', {}, 0)).matched;
    const client = ok(list(s, '', { host: 'client' }, 0)).matched;
    const server = ok(list(s, '', { host: 'server' }, 0)).matched;
    expect(client + server).toBe(all);
    const win = ok(list(s, '', { window: { kind: 'range', fromNs: 100e6, toNs: 250e6 } }, 500));
    expect(win.rows.every((r) => r.atNs >= 100e6 && r.atNs <= 250e6)).toBe(true);
    expect(win.matched).toBe(
      ok(list(s, 'frame.time_relative >= 0.1 && frame.time_relative <= 0.25', {}, 0)).matched,
    );
    const last = ok(list(s, '', { window: { kind: 'last', ns: 150e6 } }, 500));
    expect(last.rows.every((r) => r.atNs >= 450e6)).toBe(true);
    const third = win.rows[2]!;
    expect(
      ok(
        list(s, '', {
          window: win.rows.length ? { kind: 'range', fromNs: 100e6, toNs: 250e6 } : ALL,
          locate: third.no,
        }),
      ).located,
    ).toBe(2);
  });

  it('the same run gives the same CSV, byte for byte', () => {
    const again = recorded();
    const a = s.packetExport({ filter: '', host: null, window: ALL }, 'csv');
    const b = again.packetExport({ filter: '', host: null, window: ALL }, 'csv');
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    const text = new TextDecoder().decode(a.data);
    expect(text.split('\n')[0]).toBe(
      '"No.","Time","Source","Destination","Protocol","Length","Info","Host","Seen at"',
    );
    expect(text.split('\n')[1]).toBe(
      '"1","0.001000000","10.0.0.10","10.0.0.11","ICMP","98","Echo (ping) request  id=0xe984, seq=1/256, ttl=64","client","out"',
    );
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
  });
});

describe('packet list: drops, credits and the ring', () => {
  it('drops are rows with their stage and reason; the filter finds them', () => {
    const s = new SimService();
    expect(s.load(PRESETS[0]!.scenario).ok).toBe(true);
    // an 8 MB UDP burst at 20 Gbit/s: more than the instance's bandwidth allowance lets out
    expect(s.submit('iperf3 -c server -u -b 20G -t 0.2 -l 8000 > /dev/null')).toBe(true);
    for (let t = 1; t <= 300; t++) s.advance({ toNs: t * 1e6, maxEvents: 1e7 });
    const drops = ok(list(s, 'drop', {}, 5));
    expect(drops.matched).toBeGreaterThan(0);
    const d = drops.rows[0]!;
    expect(d.kind).toBe('drop');
    expect(d.info).toMatch(/^\[Dropped at [^:]+: [a-z_]+(, \d+ packets)?\] /);
    const reason = /: ([a-z_]+)/.exec(d.info)![1]!;
    expect(ok(list(s, `drop.reason == "${reason}" && stage == ${d.stage}`, {}, 0)).matched).toBeGreaterThan(
      0,
    );
    expect(
      ok(list(s, 'drop.reason contains "allowance" || drop.reason contains "full" || drop', {}, 0)).matched,
    ).toBe(drops.matched);
    const det = s.packetDetails(d.no)!;
    expect(det.layers.at(-1)!.fields.find((f) => f.label === 'Reason')?.value).toBe(reason);
    // a drop never reached a capture point: not in a pcap, the export says so
    const e = s.packetExport({ filter: 'drop', host: null, window: ALL }, 'pcap');
    expect(e.ok && e.rows === 0 && /not in the pcap/.test(e.note)).toBe(true);
  });

  it('every TCP packet dropped is sent again: tcp.analysis.retransmission finds each one', () => {
    const s = new SimService();
    expect(s.load(PRESETS[0]!.scenario).ok).toBe(true);
    // two flows at 12.5 Gbit/s: the bandwidth allowance drops some at the client's Nitro card
    expect(s.submit('iperf3 -c server -t 1 -P 2 > /dev/null')).toBe(true);
    for (let t = 10; t <= 1100; t += 10) s.advance({ toNs: t * 1e6, maxEvents: 1e9, pathDetail: false });
    const drops = ok(list(s, 'drop && tcp.len > 0', {}, 500));
    const dropped = drops.rows.flatMap((r) => {
      const n = Number(/, (\d+) packets\]/.exec(r.info)?.[1] ?? 1);
      const seq = Number(/Seq=(\d+)/.exec(r.info)![1]);
      const len = Number(/Len=(\d+)/.exec(r.info)![1]);
      const port = /(\d+) → 5201/.exec(r.info)![1];
      return Array.from({ length: n }, (_, k) => `${port}:${seq + k * len}`);
    });
    expect(dropped.length).toBeGreaterThan(10);
    const resent = ok(list(s, 'tcp.analysis.retransmission && dir == out', {}, 500)).rows.map(
      (r) => `${/(\d+) → 5201/.exec(r.info)![1]}:${/Seq=(\d+)/.exec(r.info)![1]}`,
    );
    expect(resent.sort()).toEqual(dropped.sort());
    expect(ok(list(s, 'tcp.analysis.retransmission && dir == in && host == server', {}, 0)).matched).toBe(
      dropped.length,
    );
  });

  it('SACK blocks: in a lossy run the ACKs coming back carry the blocks tcpdump -w wrote, byte for byte, with a ring that turned over many times too', () => {
    for (const captureCap of [undefined, 1 << 16]) {
      const s = new SimService({ captureCap });
      expect(s.load(PRESETS[0]!.scenario).ok).toBe(true);
      expect(s.submit('timeout 1 tcpdump -i eth0 -nn -s 128 -w /tmp/c.pcap &')).toBe(true);
      s.advance({ toNs: 1e6, maxEvents: 1e7 });
      // two flows at 12.5 Gbit/s: the allowance drops some, the server's ACKs SACK what came after
      expect(s.submit('iperf3 -c server -t 0.3 -P 2 > /dev/null')).toBe(true);
      for (let t = 10; t <= 1100; t += 10) s.advance({ toNs: t * 1e6, maxEvents: 1e9, pathDetail: false });
      const file = readPcap(s.readLabFile('client', '/tmp/c.pcap')!);
      if ('error' in file) throw new Error(file.error);
      const e = s.packetExport(
        { filter: 'dir && frame.time_relative < 1', host: 'client', window: ALL },
        'pcap',
      );
      if (!e.ok) throw new Error(e.error);
      const got = readPcap(e.data);
      if ('error' in got) throw new Error(got.error);
      const hex = (p: { data: Uint8Array }) => Buffer.from(p.data).toString('hex');
      if (captureCap === undefined) {
        expect(got.packets.map(hex)).toEqual(file.packets.map(hex));
      }
      // what a packet is, SACK blocks included (past a turnover the wire fields derived from the
      // connection's first packets, the TS clock and the IP id, are not the same: not compared)
      const key = (p: { data: Uint8Array; sec: number; usec: number }) => {
        const w = decodeFrame(p.data, p.sec, p.usec)!;
        const sack = w.options.flatMap((o) => (o.kind === 'sack' ? o.blocks.flat() : []));
        return `${w.sec}.${w.usec} ${w.sport}>${w.dport} ${w.seq} ${w.ack} ${w.ipLen} ${w.flags} [${sack.join(',')}]`;
      };
      const fileKeys = file.packets.map(key);
      const gotKeys = got.packets.map(key);
      // the ring holds the newest rows: the file's packets from the first one it holds
      const from = fileKeys.indexOf(gotKeys[0]!);
      expect(from).toBeGreaterThanOrEqual(0);
      const overlap = Math.min(gotKeys.length, fileKeys.length - from);
      expect(gotKeys.slice(0, overlap)).toEqual(fileKeys.slice(from, from + overlap));
      const sacked = gotKeys.slice(0, overlap).filter((k) => !k.endsWith('[]'));
      if (captureCap === undefined) expect(sacked.length).toBeGreaterThan(100);
      else {
        expect(from).toBeGreaterThan(100_000);
        expect(sacked.length).toBeGreaterThan(5);
      }
    }
  });

  it('past its cap the ring lets the oldest rows go and says how many', () => {
    const s = new SimService({ captureCap: 4096 });
    expect(s.load(PRESETS[0]!.scenario).ok).toBe(true);
    expect(s.submit('iperf3 -c server -n 20M > /dev/null')).toBe(true);
    for (let t = 1; t <= 200; t++) s.advance({ toNs: t * 1e6, maxEvents: 1e7 });
    const a = ok(list(s, '', {}, 3));
    expect(a.recorded).toBeGreaterThan(4096);
    expect(a.held).toBe(4096);
    expect(a.evicted).toBe(a.recorded - 4096);
    expect(a.matched).toBe(4096);
    expect(a.rows[0]!.no).toBe(a.evicted + 1);
    expect(s.packetDetails(a.evicted)).toBeNull();
    expect(s.packetDetails(a.evicted + 1)?.no).toBe(a.evicted + 1);
  });
});
