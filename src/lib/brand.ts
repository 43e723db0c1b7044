/** Branded primitive types: a number that carries its unit in the type system. */
export type Brand<T, B extends string> = T & { readonly __brand: B };

/** Simulated time in integer nanoseconds since the start of the run (exact up to ~104 days). */
export type SimTimeNs = number;
/** A duration in integer nanoseconds. */
export type DurationNs = number;

export const NS_PER_US = 1_000;
export const NS_PER_MS = 1_000_000;
export const NS_PER_S = 1_000_000_000;
