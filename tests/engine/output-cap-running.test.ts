/**
 * The cap on one command's output (1 MiB, src/engine/shell/output-cap.ts) applies while the command
 * runs, not only when it ends: iperf3 -P 128 prints ≈ 10 KB a second, past the cap after ≈ 100 s of
 * a 3,600 s test. Mid-run, the job holds at most the cap, the terminal has been told (a note on
 * stderr at that instant), the page's store holds at most the cap for it; when the job ends, the
 * record's note counts what was not kept. Also the store's own bound on the scrollback.
 */
import { describe, expect, it } from 'vitest';
import { InteractiveSession } from '../../src/engine/session/interactive-session';
import { createLab, MAX_OUTPUT_CHARS } from '../../src/engine/session/runner';
import { CappedText } from '../../src/engine/shell/output-cap';
import type { Frame } from '../../src/protocol/sim-api';
import { defaultScenario } from '../../src/scenario/schema';
import { applyFrame, createAppStore, MAX_TERMINAL_CHARS } from '../../src/state/app-store';
import { SimService } from '../../workers/sim-service';

const LINE = 'iperf3 -c server -P 128 -t 3600 -b 8K';
const REACHED = `lab: output of "${LINE}" reached 1,048,576 characters, the lab's limit for a command; what it prints from here on is not kept\n`;

describe('the output cap while a job runs', () => {
  it('CappedText keeps the first MAX characters and counts the rest', () => {
    const t = new CappedText('ab', 5);
    t.add('cde');
    t.add('fg');
    expect([t.text, t.cut]).toEqual(['abcde', 2]);
    t.add('h');
    expect([t.text, t.cut]).toEqual(['abcde', 3]);
  });

  it('a long iperf3 -P 128: the job and the terminal hold at most the cap mid-run, told at once', () => {
    const s = new InteractiveSession(createLab(defaultScenario()));
    expect(s.submit(LINE)).toBe(true);
    let reachedAt = -1;
    for (let t = 1; t <= 160; t++) {
      s.advance(t * 1e9);
      for (const c of s.drainOutput()) if (c.text.endsWith(REACHED)) reachedAt = c.atNs;
    }
    // still running, 160 s into 3,600: the cap was reached (≈ 10 KB a second) and said then
    const fg = s.session.foreground!;
    expect(fg.command).toBe(LINE);
    expect(reachedAt).toBeGreaterThan(50e9);
    expect(reachedAt).toBeLessThan(160e9);
    expect(fg.job.progress!().length).toBe(MAX_OUTPUT_CHARS);
    const out = (stream: string) =>
      s.transcript.filter((c) => c.stream === stream).reduce((n, c) => n + c.text.length, 0);
    expect(out('stdout')).toBe(MAX_OUTPUT_CHARS);
    // Ctrl-C: iperf3's own end (its summary is past the cap), the record's note counts the rest
    s.interrupt();
    s.advance(200e9);
    expect(s.session.foreground).toBeNull();
    const after = s.transcript.filter((c) => c.atNs >= reachedAt && c.stream === 'stderr').map((c) => c.text);
    // on a line of its own: the cut falls mid-line here
    expect(after[0]).toBe(`\n${REACHED}`);
    expect(after.join('')).toMatch(
      /lab: output of "iperf3 -c server -P 128 -t 3600 -b 8K" cut at 1,048,576 characters \([\d,]+ more not kept\)\n/,
    );
    expect(out('stdout')).toBeLessThanOrEqual(MAX_OUTPUT_CHARS + '^C'.length);
  }, 120_000);

  it('the page’s store, fed the worker’s frames, holds at most the cap for the running job', () => {
    const service = new SimService();
    const r = service.load(defaultScenario());
    expect(r.ok).toBe(true);
    const store = createAppStore({ presetId: 'exp1', doc: {} });
    expect(service.submit(LINE)).toBe(true);
    let f: Frame | null = null;
    for (let t = 1; t <= 160; t++) {
      f = service.advance({ toNs: t * 1e9, maxEvents: 1e9 });
      applyFrame(store, f);
    }
    expect(f!.foreground?.command).toBe(LINE);
    const chunks = store.getState().terminal.chunks;
    const stdout = chunks.filter((c) => c.stream === 'stdout').reduce((n, c) => n + c.text.length, 0);
    expect(stdout).toBe(MAX_OUTPUT_CHARS);
    expect(chunks.some((c) => c.stream === 'stderr' && c.text.endsWith(REACHED))).toBe(true);
  }, 120_000);

  it('the store keeps at most MAX_TERMINAL_CHARS of scrollback, the newest', () => {
    const store = createAppStore({ presetId: 'exp1', doc: {} });
    const big = 'x'.repeat(MAX_OUTPUT_CHARS);
    const frame = (n: number): Frame =>
      ({
        nowNs: n,
        terminal: [{ atNs: n, host: 'client', stream: 'stdout', text: `${n}${big}` }],
        foreground: null,
        backgroundCount: 0,
        counters: [],
        labEvents: [],
        path: { lanes: 0, toNs: n },
      }) as unknown as Frame;
    for (let i = 1; i <= 6; i++) applyFrame(store, frame(i));
    const chunks = store.getState().terminal.chunks;
    const chars = chunks.reduce((n, c) => n + c.text.length, 0);
    expect(chars).toBeLessThanOrEqual(MAX_TERMINAL_CHARS);
    expect(chunks.map((c) => c.text[0])).toEqual(['4', '5', '6']);
  });
});
