/**
 * Where a piece of work spends its time: V8's sampling CPU profiler (node:inspector, in this
 * thread) around `fn`, self time summed by source file (inlined code counts where it was
 * written). For `npm run bench`'s per-packet section; reported, never asserted.
 */
import { Session } from 'node:inspector';

export interface FileShare {
  /** The path below src/ (or what V8 names: "(garbage collector)", "(program)" …). */
  file: string;
  ms: number;
  /** Of all samples, 0..1. */
  share: number;
}

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
}

export function selfTimeByFile<T>(fn: () => T, intervalUs = 250): { result: T; files: FileShare[] } {
  const session = new Session();
  session.connect();
  let profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } | null = null;
  try {
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    session.post('Profiler.start');
    const result = fn();
    // an in-thread session answers synchronously
    session.post('Profiler.stop', (err, r) => {
      if (!err) profile = r.profile as unknown as typeof profile;
    });
    if (!profile) throw new Error('the CPU profiler gave no profile');
    const p = profile as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const byFile = new Map<string, number>();
    let total = 0;
    for (let i = 0; i < p.samples.length; i++) {
      const us = p.timeDeltas[i] ?? 0;
      const cf = byId.get(p.samples[i]!)!.callFrame;
      const m = /\/(src\/.*)$/.exec(cf.url);
      const file = m
        ? m[1]!
        : cf.url !== ''
          ? 'node and other'
          : cf.functionName.startsWith('(')
            ? cf.functionName
            : `${cf.functionName} (no source)`;
      byFile.set(file, (byFile.get(file) ?? 0) + us);
      total += us;
    }
    const files = [...byFile]
      .map(([file, us]) => ({ file, ms: us / 1000, share: total > 0 ? us / total : 0 }))
      .sort((a, b) => b.ms - a.ms);
    return { result, files };
  } finally {
    session.disconnect();
  }
}
