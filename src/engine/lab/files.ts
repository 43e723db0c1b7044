/**
 * The files of the lab's instances: what `> out.txt`, `tee` and `tcpdump -w` write and `cat`,
 * `grep FILE`, `tcpdump -r` read. One flat home directory per instance (/home/ec2-user, also `~`)
 * and /tmp; /dev/null reads empty and swallows writes. Files are part of the lab's state (rebuilt
 * by replay like the rest), not the visitor's disk; the page lists them for download and the CLI
 * copies them to `--out DIR`.
 */

export const HOME = '/home/ec2-user';

export interface LabFile {
  /** Text files hold a string; binary ones (pcap) bytes. */
  data: string | Uint8Array;
  /** Simulated instant of the last write. */
  mtimeNs: number;
}

export type PathResult = { ok: true; path: string } | { ok: false; error: string };

/** Resolve a path typed on an instance: relative to the home directory; only ~ and /tmp hold files. */
export function resolvePath(p: string): PathResult {
  let abs = p;
  if (p === '~' || p.startsWith('~/')) abs = HOME + p.slice(1);
  else if (!p.startsWith('/')) abs = `${HOME}/${p}`;
  // normalise ./ and //
  const segs: string[] = [];
  for (const s of abs.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segs.pop();
    else segs.push(s);
  }
  const norm = `/${segs.join('/')}`;
  if (norm === '/dev/null') return { ok: true, path: norm };
  const dir = norm.slice(0, norm.lastIndexOf('/'));
  if (norm === HOME || norm === '/tmp' || norm === '/') return { ok: false, error: `${p}: Is a directory` };
  if (dir !== HOME && dir !== '/tmp') {
    const known = ['/etc', '/proc', '/sys', '/usr', '/var', '/bin', '/sbin', '/dev', '/root', '/home'];
    return {
      ok: false,
      error: known.some((k) => dir === k || dir.startsWith(`${k}/`))
        ? `${p}: Permission denied`
        : `${p}: No such file or directory`,
    };
  }
  return { ok: true, path: norm };
}

export class LabFiles {
  private readonly byHost = new Map<string, Map<string, LabFile>>();

  private dir(host: string): Map<string, LabFile> {
    let d = this.byHost.get(host);
    if (!d) {
      d = new Map();
      this.byHost.set(host, d);
    }
    return d;
  }

  read(host: string, path: string): LabFile | undefined {
    if (path === '/dev/null') return { data: '', mtimeNs: 0 };
    return this.byHost.get(host)?.get(path);
  }

  write(host: string, path: string, data: string | Uint8Array, nowNs: number, append = false): void {
    if (path === '/dev/null') return;
    const d = this.dir(host);
    const old = d.get(path);
    if (append && old) {
      if (typeof old.data === 'string' && typeof data === 'string') data = old.data + data;
      else {
        const a = toBytes(old.data);
        const b = toBytes(data);
        const c = new Uint8Array(a.length + b.length);
        c.set(a);
        c.set(b, a.length);
        data = c;
      }
    }
    d.set(path, { data, mtimeNs: nowNs });
  }

  remove(host: string, path: string): boolean {
    return this.byHost.get(host)?.delete(path) ?? false;
  }

  /** Files of one instance, by path (sorted). */
  list(host: string): Array<{ path: string; file: LabFile }> {
    return [...(this.byHost.get(host) ?? new Map<string, LabFile>()).entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([path, file]) => ({ path, file }));
  }

  /** Every file of every instance. */
  all(): Array<{ host: string; path: string; file: LabFile }> {
    const out: Array<{ host: string; path: string; file: LabFile }> = [];
    for (const host of this.byHost.keys()) for (const f of this.list(host)) out.push({ host, ...f });
    return out;
  }
}

export function toBytes(d: string | Uint8Array): Uint8Array {
  return typeof d === 'string' ? new TextEncoder().encode(d) : d;
}

/** A file's content as text (a binary file is decoded as Latin-1, as `cat` would show its bytes). */
export function fileText(d: string | Uint8Array): string {
  if (typeof d === 'string') return d;
  let s = '';
  for (let i = 0; i < d.length; i++) s += String.fromCharCode(d[i]!);
  return s;
}

export function fileSize(d: string | Uint8Array): number {
  return typeof d === 'string' ? new TextEncoder().encode(d).length : d.length;
}
