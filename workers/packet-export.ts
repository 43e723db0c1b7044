/**
 * The packet list's exports: the selected rows as a pcap file (tcpdump's writer, the wire fields
 * replayed per connection from the oldest row held) or as CSV, as Wireshark's "Export Packet
 * Dissections" writes its columns.
 * Sources: tcpdump.org pcap-savefile(5); Wireshark's File › Export Packet Dissections › As CSV.
 */
import {
  type CaptureFlow,
  type CaptureRing,
  type Lab,
  type Packet,
  PcapWriter,
  ROW_RX,
  ROW_TX,
  WireMapper,
} from '../src/engine';
import type { PacketExport, PacketRow } from '../src/protocol/sim-api';
import { EXPORT_SNAPLEN } from './packet-details';

/** An exported pcap stops growing here (as `tcpdump -w` in the lab). */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

/** What an export reads of the packet list: its ring, its lab, and a row's forms. */
export interface ExportSource {
  readonly ring: CaptureRing;
  readonly lab: Lab;
  row(i: number): PacketRow;
  packetOf(i: number, f: CaptureFlow): Packet;
  connOf(f: CaptureFlow): string;
}

/** `rows` (ascending row numbers) as a pcap or CSV file. */
export function packetExport(pl: ExportSource, rows: number[], format: 'pcap' | 'csv'): PacketExport {
  if (format === 'csv') {
    // every field quoted, as Wireshark's CSV export writes them; encoded a block of rows at a time
    const q = (v: string) => (v.includes('"') ? `"${v.replace(/"/g, '""')}"` : `"${v}"`);
    const enc = new TextEncoder();
    const parts: Uint8Array[] = [
      enc.encode('"No.","Time","Source","Destination","Protocol","Length","Info","Host","Seen at"\n'),
    ];
    let block = '';
    for (let j = 0; j < rows.length; j++) {
      const r = pl.row(rows[j]!);
      const seen = r.kind === 'out' || r.kind === 'in' ? r.kind : r.stage;
      block += `"${r.no}","${(r.atNs / 1e9).toFixed(9)}",${q(r.src)},${q(r.dst)},"${r.protocol}","${r.length}",${q(r.info)},${q(r.host)},"${seen}"\n`;
      if ((j & 8191) === 8191) {
        parts.push(enc.encode(block));
        block = '';
      }
    }
    parts.push(enc.encode(block));
    const data = new Uint8Array(parts.reduce((a, b) => a + b.length, 0));
    let o = 0;
    for (const b of parts) {
      data.set(b, o);
      o += b.length;
    }
    return { ok: true, data, rows: rows.length, note: '' };
  }
  // every capture row from the oldest is mapped (the mapper's state is per connection and
  // counts every packet), the selected ones written
  const r = pl.ring;
  const writer = new PcapWriter(EXPORT_SNAPLEN);
  const mappers = r.hosts.map((_, h) => new WireMapper(pl.lab, r.mtus[h]!));
  let written = 0;
  let events = 0;
  let full = false;
  let next = 0;
  const last = rows.length > 0 ? rows[rows.length - 1]! : -1;
  // only the connections of the rows written need their state followed (a sparse filter maps little)
  const relevant = new Uint8Array(r.flows.length);
  const conns = new Set<string>();
  for (const i of rows) {
    const f = r.flowOf(i);
    if (f) conns.add(pl.connOf(f));
  }
  r.flows.forEach((f, k) => {
    if (conns.has(pl.connOf(f))) relevant[k] = 1;
  });
  for (let i = r.oldest; i <= last && !full; i++) {
    const kind = r.kind(i);
    const want = rows[next] === i;
    if (want) next++;
    if (kind !== ROW_TX && kind !== ROW_RX) {
      if (want) events++;
      continue;
    }
    const s = r.slotOf(i);
    if (!relevant[r.fslot[s]!]) continue;
    const f = r.flowOf(i)!;
    const w = mappers[r.host(i)]!.mapOne(pl.packetOf(i, f), r.k[s]!, r.t[s]!, kind === ROW_TX);
    if (!want) continue;
    writer.add(w);
    written++;
    if (writer.bytes >= MAX_EXPORT_BYTES) full = true;
  }
  const notes: string[] = [];
  if (events > 0)
    notes.push(
      `${events} drop and credit row${events === 1 ? ' is' : 's are'} not in the pcap (no packet reached a capture point)`,
    );
  if (full)
    notes.push(
      `the file stopped at ${MAX_EXPORT_BYTES / 1048576} MiB (${written} packets): narrow the filter or the window`,
    );
  return { ok: true, data: writer.file(), rows: written, note: notes.join('; ') };
}
