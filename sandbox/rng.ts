/**
 * Deterministic hashing for the seeded data: every generated value is a pure function of
 * (seed, entity, index, purpose), so entry 99,999 costs the same as entry 0 and nothing is stored.
 */

/** A 32-bit avalanche mix (murmur3's finaliser). */
function mix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** An unsigned 32-bit hash of a list of integers. */
export function hash32(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = mix(h ^ mix(part >>> 0) ^ Math.floor(part / 0x100000000));
  }
  return h;
}

/** A number in [0, 1) from a hash. */
export function unit(hash: number): number {
  return hash / 0x100000000;
}

/** An element of a non-empty list, chosen by a hash. */
export function pick<T>(list: readonly T[], hash: number): T {
  const value = list[hash % list.length];
  if (value === undefined) throw new Error("pick: empty list");
  return value;
}

/** Purposes, so that two values drawn for one entry never share a hash. */
export const Purpose = {
  date: 1,
  fraction: 2,
  firstName: 3,
  lastName: 4,
  amount: 5,
  emailSuffix: 6,
  choice: 7,
  text: 8,
  token: 9,
  file: 10,
  cashOut: 11,
  option: 12,
  donation: 13,
  tier: 14,
} as const;
