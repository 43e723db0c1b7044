/** Every finished lesson is run by one of the solutions-*.test.ts files. */
import { expect, it } from 'vitest';
import { FINISHED } from './walk';
import { readFileSync, readdirSync } from 'node:fs';

it('every finished lesson is covered by a solutions test file', () => {
  const dir = new URL('.', import.meta.url);
  const text = readdirSync(dir)
    .filter((f) => /^solutions-[a-z]\.test\.ts$/.test(f))
    .map((f) => readFileSync(new URL(f, dir), 'utf8'))
    .join('\n');
  for (const l of FINISHED) expect(text, l.id).toContain(`'${l.id}'`);
});
