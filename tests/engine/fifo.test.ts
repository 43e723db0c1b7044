/**
 * core/fifo.ts against a plain array doing the same operations: the circular buffer wraps, grows,
 * and `insert`/`removeAt` move whichever side of the position is shorter.
 */
import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/engine/core/fifo';

function contents(f: Fifo<number>): number[] {
  return Array.from({ length: f.length }, (_, i) => f.at(i));
}

describe('Fifo', () => {
  it('matches an array under push, shift, insert, removeAt, set and replaceHead', () => {
    const f = new Fifo<number>(4);
    const a: number[] = [];
    let seed = 12345;
    // mulberry32: a fixed, well-mixed stream
    const rand = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    let next = 0;
    for (let step = 0; step < 20_000; step++) {
      const op = rand(7);
      const i = a.length > 0 ? rand(a.length) : 0;
      if (op <= 1 || a.length === 0) {
        f.push(next);
        a.push(next++);
      } else if (op === 2) {
        expect(f.shift()).toBe(a.shift());
      } else if (op === 3) {
        const j = rand(a.length + 1);
        f.insert(j, next);
        a.splice(j, 0, next++);
      } else if (op === 4) {
        f.removeAt(i);
        a.splice(i, 1);
      } else if (op === 5) {
        f.set(i, next);
        a[i] = next++;
      } else {
        f.replaceHead(next);
        a[0] = next++;
      }
      expect(f.length).toBe(a.length);
      if (a.length > 0) expect(f.peek()).toBe(a[0]);
      if (step % 97 === 0) expect(contents(f)).toEqual(a);
    }
    expect(contents(f)).toEqual(a);
    expect(a.length).toBeGreaterThan(100); // it grew past its first capacities
  });
});
