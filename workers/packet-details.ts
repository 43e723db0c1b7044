/**
 * One packet list row's details as Wireshark's packet details show them: the frame, Ethernet,
 * IPv4 and TCP/UDP/ICMP layers of its wire form (tcpdump's WireMapper), the lab's own layer (the
 * instance, the stage, a drop's reason, the batch it belongs to), and each field's "Apply as
 * Filter" expression.
 * Sources: Wireshark's packet details (packet-frame.c, packet-eth.c, packet-ip.c, packet-tcp.c).
 */
import {
  batchGapNs,
  type CaptureFlow,
  type CaptureRing,
  encodeFrame,
  type Lab,
  META_FRAG,
  META_IN,
  META_RESTORED,
  type Packet,
  ROW_CREDITS,
  ROW_DROP,
  ROW_TX,
  TCP_FLAG_ACK,
  type TcpOption,
  WireMapper,
  type WirePacket,
} from '../src/engine';
import { DISPLAY_FIELDS, type FilterSource } from '../src/lib/display-filter';
import { STEP_STAGES } from '../src/lib/step-stages';
import { utcFields } from '../src/lib/time';
import type { PacketDetails, PacketRow } from '../src/protocol/sim-api';
import { tcpFlagNames, WSCALE } from './packet-fields';

/** Snapshot length of an exported pcap: every header the lab writes (the payload is zeros, not modelled). */
export const EXPORT_SNAPLEN = 128;

export const STAGE_LABEL: Record<string, string> = Object.fromEntries(
  STEP_STAGES.map((s) => [s.stage, s.label]),
);

/** What the details read of the packet list: its ring, its lab, and a row's forms. */
export interface DetailsSource {
  readonly ring: CaptureRing;
  readonly lab: Lab;
  row(i: number): PacketRow;
  wireOf(i: number): WirePacket | null;
  packetOf(i: number, f: CaptureFlow): Packet;
  source(): FilterSource;
}

export function packetDetails(pl: DetailsSource, no: number): PacketDetails | null {
  const r = pl.ring;
  const i = no - 1;
  if (!(i >= r.oldest && i < r.count)) return null;
  const row = pl.row(i);
  const s = r.slotOf(i);
  const m = r.meta[s]!;
  const kind = m & 3;
  const f = r.flowOf(i);
  const layers: PacketDetails['layers'] = [];
  const lab = {
    title: 'ec2-netlab',
    fields: [
      { label: 'Instance', value: row.host, field: 'host' },
      { label: 'Seen at', value: `${STAGE_LABEL[row.stage] ?? row.stage} (${row.stage})`, field: 'stage' },
      { label: 'Simulated time', value: `${(row.atNs / 1e9).toFixed(9)} s` },
    ] as Array<{ label: string; value: string; field?: string }>,
  };
  if (kind === ROW_CREDITS || !f) {
    lab.fields.push(
      { label: 'Event', value: m & META_RESTORED ? 'restored' : 'exhausted', field: 'credits.event' },
      { label: 'Direction', value: m & META_IN ? 'in' : 'out', field: 'credits.direction' },
      {
        label: 'Meaning',
        value:
          m & META_RESTORED
            ? 'the burst-credit account holds credits again: the instance may send above its baseline'
            : 'the burst-credit account is empty: the instance is held to its baseline bandwidth',
      },
    );
    return {
      no,
      atNs: row.atNs,
      host: row.host,
      kind: row.kind,
      layers: withFilters(pl.source(), [lab], i),
      bytes: null,
      ref: null,
    };
  }
  const k = r.k[s]!;
  const tcp = f.proto === 6;
  const pseq = tcp ? r.seq[s]! + k * r.payload[s]! : r.seq[s]! + (m & META_FRAG ? 0 : k);
  const ref = { flow: f.flow.id, seq: pseq, count: 1 };
  // a capture row: the mapper's packet; a drop: the packet as the model holds it (no capture state)
  const w =
    pl.wireOf(i) ?? new WireMapper(pl.lab, r.mtus[r.host(i)]!).mapOne(pl.packetOf(i, f), k, row.atNs, true);
  const captured = kind !== ROW_DROP;
  const len = w.ipLen + 14;
  const hdr = encodeFrame(w, EXPORT_SNAPLEN);
  layers.push({
    title: captured
      ? `Frame ${no}: ${len} bytes on wire (${len * 8} bits), ${Math.min(len, EXPORT_SNAPLEN)} bytes captured on interface eth${r.devOf(i)} of ${row.host}`
      : `Frame ${no}: ${len} bytes, dropped before any capture point (not in a pcap)`,
    fields: [
      { label: 'Frame Number', value: String(no), field: 'frame.number' },
      {
        label: 'Time since t = 0',
        value: `${(row.atNs / 1e9).toFixed(9)} seconds`,
        field: 'frame.time_relative',
      },
      { label: 'Arrival Time', value: wallText(w.sec, w.usec) },
      { label: 'Frame Length', value: `${len} bytes (${len * 8} bits)`, field: 'frame.len' },
      ...(captured
        ? [{ label: 'Interface name', value: `eth${r.devOf(i)}`, field: 'frame.interface_name' }]
        : []),
      ...(captured
        ? [
            {
              label: 'Capture point',
              value:
                kind === ROW_TX
                  ? 'sent: entering the ENA TX ring, after the qdisc (where tcpdump sees it)'
                  : 'received: NAPI taking it off the RX ring, before the socket (where tcpdump sees it)',
              field: 'dir',
            },
          ]
        : []),
    ],
  });
  layers.push({
    title: `Ethernet II, Src: ${w.srcMac}, Dst: ${w.dstMac}`,
    fields: [
      { label: 'Destination', value: w.dstMac, field: 'eth.dst' },
      { label: 'Source', value: w.srcMac, field: 'eth.src' },
      { label: 'Type', value: 'IPv4 (0x0800)' },
    ],
  });
  const pname = f.proto === 6 ? 'TCP' : f.proto === 17 ? 'UDP' : f.proto === 1 ? 'ICMP' : 'GRE';
  const ipFlags = w.df ? 0x2 : w.mf ? 0x1 : 0;
  layers.push({
    title: `Internet Protocol Version 4, Src: ${w.srcIp}, Dst: ${w.dstIp}`,
    fields: [
      { label: 'Version', value: '4' },
      { label: 'Header Length', value: '20 bytes (5)' },
      { label: 'Differentiated Services Field', value: `0x${hex(w.tos, 2)}`, field: 'ip.dsfield' },
      { label: 'Total Length', value: String(w.ipLen), field: 'ip.len' },
      ...(captured ? [{ label: 'Identification', value: `0x${hex(w.ipId, 4)} (${w.ipId})` }] : []),
      {
        label: 'Flags',
        value: `0x${ipFlags}${w.df ? ", Don't fragment" : ''}${w.mf ? ', More fragments' : ''}`,
        field: 'ip.flags.df',
      },
      { label: 'Fragment Offset', value: String(w.fragOffset * 8), field: 'ip.frag_offset' },
      { label: 'Time to Live', value: String(w.ttl) },
      { label: 'Protocol', value: `${pname} (${f.proto})`, field: 'ip.proto' },
      { label: 'Source Address', value: w.srcIp, field: 'ip.src' },
      { label: 'Destination Address', value: w.dstIp, field: 'ip.dst' },
    ],
  });
  if (w.fragOffset === 0) {
    if (f.proto === 6) {
      const src = pl.source();
      const rel = (name: string) => (src.field(name).has(i) ? src.field(name).get[0]!(i) : null);
      layers.push(tcpLayer(w, f, captured, rel('tcp.seq')!, rel('tcp.ack')));
    } else if (f.proto === 17)
      layers.push({
        title: `User Datagram Protocol, Src Port: ${w.sport}, Dst Port: ${w.dport}`,
        fields: [
          { label: 'Source Port', value: String(w.sport), field: 'udp.srcport' },
          { label: 'Destination Port', value: String(w.dport), field: 'udp.dstport' },
          { label: 'Length', value: String(w.ipLen - 20), field: 'udp.length' },
          { label: 'UDP payload', value: `${w.ipLen - 28} bytes (zeros: the lab models no payload)` },
        ],
      });
    else if (f.proto === 1)
      layers.push({
        title: 'Internet Control Message Protocol',
        fields: [
          {
            label: 'Type',
            value: w.icmpType === 8 ? '8 (Echo (ping) request)' : '0 (Echo (ping) reply)',
            field: 'icmp.type',
          },
          { label: 'Code', value: '0' },
          { label: 'Identifier (BE)', value: `${w.icmpId} (0x${hex(w.icmpId, 4)})` },
          { label: 'Sequence Number (BE)', value: `${w.icmpSeq} (0x${hex(w.icmpSeq, 4)})` },
        ],
      });
  }
  if (kind === ROW_DROP) {
    const reason = r.reason(i);
    lab.fields.push(
      {
        label: 'Dropped',
        value: `at ${STAGE_LABEL[row.stage] ?? row.stage} on ${row.host}`,
        field: 'drop',
      },
      { label: 'Reason', value: reason, field: 'drop.reason' },
      { label: 'Packets dropped', value: String(r.n[s]!), field: 'drop.count' },
    );
  } else lab.fields.push(...batchFields(pl.lab, r, i, f));
  lab.fields.push({ label: 'Flow', value: `${f.flow.id} (${f.flow.tuple.proto})` });
  if (tcp) lab.fields.push({ label: 'TCP stream', value: String(f.stream), field: 'tcp.stream' });
  layers.push(lab);
  return {
    no,
    atNs: row.atNs,
    host: row.host,
    kind: row.kind,
    layers: withFilters(pl.source(), layers, i),
    bytes: hdr,
    ref,
  };
}

/**
 * Each field that names a filter field gets the filter expression that selects this row's value
 * (Wireshark's "Apply as Filter"), written from the row's own value as the filter reads it.
 */
function withFilters(src: FilterSource, layers: PacketDetails['layers'], i: number): PacketDetails['layers'] {
  for (const l of layers)
    for (const f of l.fields) {
      const def = f.field ? DISPLAY_FIELDS.find((d) => d.name === f.field) : undefined;
      if (!def || def.type === 'float') continue;
      const reader = src.field(def.name);
      if (!reader.has(i)) continue;
      if (def.type === 'protocol') {
        f.filter = def.name;
        continue;
      }
      const v = reader.get[0]!(i);
      const text =
        def.type === 'ipv4'
          ? [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.')
          : def.type === 'mac'
            ? Array.from({ length: 6 }, (_, k) => Math.floor(v / 256 ** (5 - k)) % 256)
                .map((b) => b.toString(16).padStart(2, '0'))
                .join(':')
            : def.type === 'string'
              ? JSON.stringify(reader.strings?.[v] ?? '')
              : String(v);
      f.filter = `${def.name} == ${text}`;
    }
  return layers;
}

/**
 * What the row's batch means for it: which of the batch's packets it is, how its time was spread
 * from the batch's instant, and (a batch of ACKs) where its ACK number comes from. The model moves
 * a batch of `n` packets as one (docs/design.md "Batching"); the capture shows each packet.
 */
function batchFields(
  lab: Lab,
  r: CaptureRing,
  i: number,
  f: CaptureFlow,
): Array<{ label: string; value: string }> {
  const s = r.slotOf(i);
  const n = r.n[s]!;
  const k = r.k[s]!;
  if (n <= 1) return [{ label: 'Batch', value: 'a batch of one packet (docs/design.md "Batching")' }];
  const out = [
    {
      label: 'Batch',
      value: `packet ${k + 1} of ${n} that the model moves together as one batch (docs/design.md "Batching")`,
    },
  ];
  const inst = lab.instances.get(r.hosts[r.host(i)]!);
  const gap = inst ? batchGapNs(inst, r.size[s]!) : 0;
  out.push({
    label: 'Batch timing',
    value:
      gap > 0
        ? `the batch's packets are back to back: each ${fmtNs(gap)} after the one before (${r.size[s]! + 38} bytes on the wire at the host link's ${fmtGbps(inst!.nitro.linkBps)}), this one ${fmtNs(Math.round(k * gap))} after the first`
        : "the batch's packets share its instant: the host has no link rate of its own to space them by",
  });
  if (f.proto === 6 && r.payload[s]! === 0 && (r.modelFlags(i) & TCP_FLAG_ACK) !== 0)
    out.push({
      label: 'ACK number',
      value:
        "the model keeps one ACK number for the batch (its last ACK's); the ones before step up to it in whole segments from the ACK this capture point saw before",
    });
  return out;
}

function fmtNs(ns: number): string {
  return ns >= 1000 ? `${(ns / 1000).toFixed(3)} µs` : `${ns.toFixed(ns === Math.round(ns) ? 0 : 1)} ns`;
}

function fmtGbps(bps: number): string {
  const g = bps / 1e9;
  return `${g === Math.round(g) ? g : g.toFixed(1)} Gb/s`;
}

function tcpLayer(
  w: WirePacket,
  f: CaptureFlow,
  captured: boolean,
  relSeq: number,
  relAck: number | null,
): PacketDetails['layers'][number] {
  const optLen = w.options.reduce((a, o) => a + optionBytes(o), 0);
  const hlen = 20 + Math.ceil(optLen / 4) * 4;
  const len = w.ipLen - 20 - hlen;
  const syn = (w.flags & 2) !== 0;
  const names = tcpFlagNames(w.flags);
  const fields: Array<{ label: string; value: string; field?: string }> = [
    { label: 'Source Port', value: String(w.sport), field: 'tcp.srcport' },
    { label: 'Destination Port', value: String(w.dport), field: 'tcp.dstport' },
    { label: '[Stream index]', value: String(f.stream), field: 'tcp.stream' },
    { label: '[TCP Segment Len]', value: String(len), field: 'tcp.len' },
  ];
  fields.push({
    label: 'Sequence Number',
    value: `${relSeq}    (relative sequence number)`,
    field: 'tcp.seq',
  });
  if (captured) fields.push({ label: 'Sequence Number (raw)', value: String(w.seq >>> 0) });
  const next = (relSeq + len + (syn || w.flags & 1 ? 1 : 0)) >>> 0;
  fields.push({ label: '[Next Sequence Number]', value: `${next}    (relative sequence number)` });
  if (relAck !== null) {
    fields.push({
      label: 'Acknowledgment Number',
      value: `${relAck}    (relative ack number)`,
      field: 'tcp.ack',
    });
    if (captured) fields.push({ label: 'Acknowledgment number (raw)', value: String(w.ack >>> 0) });
  }
  fields.push(
    { label: 'Header Length', value: `${hlen} bytes (${hlen / 4})` },
    { label: 'Flags', value: `0x${hex(w.flags, 3)} (${names.join(', ')})`, field: 'tcp.flags' },
    { label: 'Window', value: String(w.win), field: 'tcp.window_size_value' },
    {
      label: '[Calculated window size]',
      value: syn ? `${w.win} (a SYN's window is not scaled)` : `${w.win << WSCALE} (window scale 7: × 128)`,
    },
  );
  if (captured && w.tcpSum !== undefined)
    fields.push({
      label: 'Checksum',
      value: `0x${hex(w.tcpSum, 4)} (the pseudo-header sum: the NIC fills the rest on send)`,
    });
  if (captured && w.options.length > 0)
    fields.push({ label: `Options (${hlen - 20} bytes)`, value: w.options.map(optionText).join(', ') });
  return {
    title: `Transmission Control Protocol, Src Port: ${w.sport}, Dst Port: ${w.dport}, Seq: ${relSeq}${relAck !== null ? `, Ack: ${relAck}` : ''}, Len: ${len}`,
    fields,
  };
}

function optionBytes(o: TcpOption): number {
  switch (o.kind) {
    case 'nop':
      return 1;
    case 'mss':
      return 4;
    case 'sackOK':
      return 2;
    case 'ts':
      return 10;
    case 'wscale':
      return 3;
    case 'sack':
      return 2 + 8 * o.blocks.length;
  }
}

function optionText(o: TcpOption): string {
  switch (o.kind) {
    case 'nop':
      return 'No-Operation (NOP)';
    case 'mss':
      return `Maximum segment size: ${o.v} bytes`;
    case 'sackOK':
      return 'SACK permitted';
    case 'ts':
      return `Timestamps: TSval ${o.val}, TSecr ${o.ecr}`;
    case 'wscale':
      return `Window scale: ${o.v} (multiply by ${1 << o.v})`;
    case 'sack':
      return `SACK: ${o.blocks.map(([l, r]) => `${l >>> 0}-${r >>> 0}`).join(' ')}`;
  }
}

const hex = (n: number, w: number) => n.toString(16).padStart(w, '0');

function wallText(sec: number, usec: number): string {
  const f = utcFields(sec);
  const p2 = (x: number) => String(x).padStart(2, '0');
  return `${f.year}-${p2(f.month)}-${p2(f.day)} ${p2(f.hour)}:${p2(f.minute)}:${p2(f.second)}.${String(usec).padStart(6, '0')} UTC`;
}
