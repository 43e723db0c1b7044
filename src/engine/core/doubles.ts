/**
 * Number fields that are doubles from the moment their object is built.
 *
 * V8 keeps a number field as a small integer until a fraction or a value beyond ±2^31 is stored in
 * it; it then changes the hidden class of every object of that shape and throws away (deoptimizes)
 * each function compiled against the old one. Simulated times in ns pass 2^31 after 2.1 s and TCP
 * sequence numbers and byte counters after 2 GiB, and every field computed from them follows: in a
 * per-packet run that happened mid-run, all at once (about 150 deoptimizations and as many
 * recompilations at 2.8 s of `iperf3 -t 5 -l 9000 -P 2`). A field written once with a fraction when
 * the first object of its shape is built holds doubles from the start; the value stored is unchanged.
 * A field that starts as `undefined` never becomes one (it keeps every double in a new box, an
 * allocation per store): tsconfig.json's useDefineForClassFields false keeps a class field declared
 * without a value (a constructor parameter property too) from being defined as `undefined` first.
 * Design note: docs/design.md, "Performance".
 */

/**
 * Make the number fields `keys` of `o` (and of every later object of its shape) doubles; returns `o`.
 * Throws on a key `o` does not have (a typo would add a property and change the shape instead).
 */
export function storeAsDoubles<T extends object>(o: T, keys: readonly string[]): T {
  const r = o as Record<string, unknown>;
  for (const k of keys) {
    if (!(k in r)) throw new Error(`storeAsDoubles: no field '${k}'`);
    const v = r[k];
    r[k] = 0.5;
    r[k] = v;
  }
  return o;
}
