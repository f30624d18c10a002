/**
 * What several Bloom test files share: item and option arbitraries, a way to build, save and load a
 * filter of each class, RedisBloomFilter fills that stop where a non-scaling filter is full, and
 * byte equality for megabyte-sized links.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { BlockedBloomFilter, BloomFilter, RedisBloomFilter, ScalableBloomFilter } from "../../src/bloom/index.js";
import type { Item } from "../../src/hash/index.js";

/** Byte equality without the deep-equality walk (links here reach megabytes). */
export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Items of every kind, short: for the byte-input and argument tests over the four filters. */
export const anyItem = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.uint8Array({ minLength: 1, maxLength: 12 }),
  fc.integer(),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
);

/** A filter of each class, the way a test drives it: build, save, load, compare. */
export interface Kind {
  name: string;
  make(seed: number): { add(v: Item): boolean; has(v: Item): boolean; toBytes(): Uint8Array };
  fromBytes(bytes: Uint8Array): { has(v: Item): boolean; toBytes(): Uint8Array; checkInvariants(): void };
}

export const kinds: Kind[] = [
  {
    name: "BloomFilter",
    make: (s) =>
      s % 2
        ? new BloomFilter({ bits: 200 + s, hashes: 1 + (s % 5) })
        : new BloomFilter({ capacity: 20 + s, errorRate: 0.05 }),
    fromBytes: BloomFilter.fromBytes,
  },
  {
    name: "BlockedBloomFilter",
    make: (s) => new BlockedBloomFilter({ capacity: 10 + s, errorRate: 0.05 }),
    fromBytes: BlockedBloomFilter.fromBytes,
  },
  {
    name: "ScalableBloomFilter",
    make: (s) => new ScalableBloomFilter({ capacity: 6 + (s % 7), errorRate: 0.1, expansion: 1 + (s % 3) }),
    fromBytes: ScalableBloomFilter.fromBytes,
  },
  {
    name: "RedisBloomFilter",
    make: (s) => new RedisBloomFilter({ capacity: 1 + (s % 7), errorRate: 0.1, expansion: 1 + (s % 3) }),
    fromBytes: RedisBloomFilter.fromBytes,
  },
];

// Strings with astral characters and lone surrogates (the fused hash must fall back on them).
const loneUnits = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

export const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: loneUnits, maxLength: 20 }),
);

/** Items of every kind for BloomFilter, astral and lone-surrogate strings included. */
export const anyElement = fc.oneof(
  anyString,
  fc.uint8Array({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
);

/** Items of every kind for BlockedBloomFilter. */
export const anyBlockedElement = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.uint8Array({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
);

/** Capacities and error rates of small filters. */
export const capacity = fc.integer({ min: 1, max: 2000 });

export const errorRate = fc.double({ min: 1e-6, max: 0.5, noNaN: true });

/** Items of RedisBloomFilter's property tests. */
export const anyRedisItem = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.uint8Array({ maxLength: 20 }),
  fc.integer(),
);

/** RedisBloomFilter options: scaling chains of small links, and non-scaling filters. */
export const anyRedisOptions = fc.oneof(
  fc.record({
    errorRate: fc.double({ min: 1e-4, max: 0.9, noNaN: true }),
    capacity: fc.integer({ min: 1, max: 40 }),
    expansion: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    errorRate: fc.double({ min: 1e-4, max: 0.9, noNaN: true }),
    capacity: fc.integer({ min: 1, max: 60 }),
    nonScaling: fc.constant(true),
  }),
);

/** Adds until the first "full" error; returns the items that went in (or were already in). */
export function addUntilFull(f: RedisBloomFilter, items: readonly Item[]): Item[] {
  const done: Item[] = [];
  for (const v of items) {
    try {
      f.add(v);
    } catch (e) {
      expect(String(e)).toMatch(/full/);
      expect(f.has(v)).toBe(false);
      break;
    }
    done.push(v);
  }
  return done;
}

/** A filter from `opts` holding what fits of `items` (a non-scaling one stops when full). */
export function filled(
  opts: ConstructorParameters<typeof RedisBloomFilter>[0],
  items: readonly Item[],
): RedisBloomFilter {
  const f = new RedisBloomFilter(opts);
  addUntilFull(f, items);
  return f;
}
