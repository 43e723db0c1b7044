/** Lesson progress over a fake storage: persistence, embed mode, corrupt values, failing storage. */
import { describe, expect, it } from 'vitest';
import { PROGRESS_KEY, type ProgressStorage, ProgressStore } from '../../src/lessons/progress';

class FakeStorage implements ProgressStorage {
  readonly data = new Map<string, string>();
  writes = 0;
  failWrites = false;
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    if (this.failWrites) throw new Error('QuotaExceededError');
    this.writes++;
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.writes++;
    this.data.delete(k);
  }
}

describe('lesson progress', () => {
  it('keeps passed steps, the current step and predictions across stores on the same storage', () => {
    const s = new FakeStorage();
    const a = new ProgressStore(s, { embed: false });
    expect(a.persistent).toBe(true);
    a.passStep('pps-limits', 'small-segments', 0, 3);
    a.recordPrediction('pps-limits', 'small-segments', 0.9, true);
    a.passStep('pps-limits', 'small-segments', 0, 3); // twice: counted once
    const b = new ProgressStore(s, { embed: false });
    expect(b.get('pps-limits')).toEqual({
      passed: ['small-segments'],
      current: 1,
      predictions: { 'small-segments': { guess: 0.9, right: true } },
    });
    expect(b.isComplete('pps-limits', ['small-segments', 'two-queues'])).toBe(false);
    b.passStep('pps-limits', 'two-queues', 1, 2);
    expect(b.get('pps-limits').current).toBe(1); // never past the last step
    expect(b.isComplete('pps-limits', ['small-segments', 'two-queues'])).toBe(true);
    expect(b.get('other')).toEqual({ passed: [], current: 0, predictions: {} });
  });

  it('never writes in embed mode unless the host asks; then it does', () => {
    const s = new FakeStorage();
    const embedded = new ProgressStore(s, { embed: true });
    expect(embedded.persistent).toBe(false);
    embedded.passStep('x', 'a', 0, 2);
    embedded.recordPrediction('x', 'a', 1, false);
    embedded.reset();
    expect(s.writes).toBe(0);
    expect(s.data.size).toBe(0);
    // progress still works in memory for the session
    const e2 = new ProgressStore(s, { embed: true });
    e2.passStep('x', 'a', 0, 2);
    expect(e2.get('x').passed).toEqual(['a']);
    expect(s.writes).toBe(0);

    const allowed = new ProgressStore(s, { embed: true, hostAllowsWrites: true });
    allowed.passStep('x', 'a', 0, 2);
    expect(s.writes).toBe(1);
    expect(JSON.parse(s.data.get(PROGRESS_KEY)!)).toMatchObject({
      version: 1,
      lessons: { x: { passed: ['a'] } },
    });
  });

  it('reads a corrupt or foreign value as empty progress, and overwrites it on the next write', () => {
    for (const bad of [
      '{not json',
      '{"version":2,"lessons":{}}',
      '{"version":1,"lessons":{"x":{"passed":"a"}}}',
      '[]',
    ]) {
      const s = new FakeStorage();
      s.data.set(PROGRESS_KEY, bad);
      const p = new ProgressStore(s, { embed: false });
      expect(p.get('x')).toEqual({ passed: [], current: 0, predictions: {} });
      p.passStep('x', 'a', 0, 1);
      expect(JSON.parse(s.data.get(PROGRESS_KEY)!).lessons.x.passed).toEqual(['a']);
    }
  });

  it('a storage that refuses writes is reported, not fatal; no storage keeps progress in memory', () => {
    const s = new FakeStorage();
    s.failWrites = true;
    const p = new ProgressStore(s, { embed: false });
    expect(() => p.passStep('x', 'a', 0, 2)).not.toThrow();
    expect(p.lastError).toBe('QuotaExceededError');
    expect(p.get('x').passed).toEqual(['a']);
    const mem = new ProgressStore(null, { embed: false });
    expect(mem.persistent).toBe(false);
    mem.passStep('x', 'a', 0, 2);
    expect(mem.get('x').passed).toEqual(['a']);
  });

  it('reset clears one lesson or all', () => {
    const s = new FakeStorage();
    const p = new ProgressStore(s, { embed: false });
    p.passStep('x', 'a', 0, 2);
    p.passStep('y', 'b', 0, 2);
    p.reset('x');
    expect(new ProgressStore(s, { embed: false }).get('x').passed).toEqual([]);
    expect(new ProgressStore(s, { embed: false }).get('y').passed).toEqual(['b']);
    p.reset();
    expect(s.data.has(PROGRESS_KEY)).toBe(false);
  });
});
