/**
 * BloomFilter, BlockedBloomFilter and ScalableBloomFilter `fromBytes`, fuzzed: 10^4 seeded inputs per deserializer per run (random byte strings and
 * near-valid corruptions of valid inputs of several shapes), each of which must either load into a
 * structure that passes checkInvariants() — and, where the format promises it, write back the very
 * same bytes — or throw a RedstructFormatError.
 */
import { describe, expect, it } from "vitest";
import { BlockedBloomFilter, BloomFilter, ScalableBloomFilter } from "../../src/bloom/index.js";
import { type Deserializer, fuzzDeserializer } from "../support/fuzz.js";

/** Inputs per deserializer per run. */
const RUNS = 10_000;

const bloomValid = (): Uint8Array[] => {
  const out: Uint8Array[] = [];
  const a = new BloomFilter({ bits: 100, hashes: 3 });
  out.push(a.toBytes());
  for (let i = 0; i < 10; i++) a.add(i);
  out.push(a.toBytes());
  const b = new BloomFilter({ capacity: 20, errorRate: 0.05 });
  for (let i = 0; i < 30; i++) b.add(`b${i}`);
  out.push(b.toBytes());
  const c = new BloomFilter({ bits: 40, hashes: 1 });
  for (let i = 0; i < 40; i++) c.add(i);
  c.merge(new BloomFilter({ bits: 40, hashes: 1 }));
  out.push(c.toBytes());
  return out;
};

const blockedValid = (): Uint8Array[] => {
  const a = new BlockedBloomFilter({ capacity: 10, errorRate: 0.2 });
  const empty = a.toBytes();
  for (let i = 0; i < 8; i++) a.add(i);
  const b = new BlockedBloomFilter({ capacity: 5, errorRate: 0.4 });
  for (let i = 0; i < 200; i++) b.add(i);
  b.merge(new BlockedBloomFilter({ capacity: 5, errorRate: 0.4 }));
  return [empty, a.toBytes(), b.toBytes()];
};

const scalableValid = (): Uint8Array[] => {
  const a = new ScalableBloomFilter({ capacity: 4, errorRate: 0.1 });
  const empty = a.toBytes();
  for (let i = 0; i < 15; i++) a.add(i);
  const b = new ScalableBloomFilter({ capacity: 3, errorRate: 0.2, nonScaling: true, tightening: 0.25 });
  b.add("x");
  return [empty, a.toBytes(), b.toBytes()];
};

/** Each deserializer with the seed of its run. */
const deserializers: [number, Deserializer<{ checkInvariants(): void }>][] = [
  [
    1400,
    {
      name: "BloomFilter.fromBytes",
      read: BloomFilter.fromBytes,
      valid: bloomValid(),
      use: (f) => void (f as BloomFilter).has("probe"),
      write: (f) => (f as BloomFilter).toBytes(),
    },
  ],
  [
    1401,
    {
      name: "BlockedBloomFilter.fromBytes",
      read: BlockedBloomFilter.fromBytes,
      valid: blockedValid(),
      use: (f) => void (f as BlockedBloomFilter).falsePositiveRate(),
      write: (f) => (f as BlockedBloomFilter).toBytes(),
    },
  ],
  [
    1402,
    {
      name: "ScalableBloomFilter.fromBytes",
      read: ScalableBloomFilter.fromBytes,
      valid: scalableValid(),
      use: (f) => void (f as ScalableBloomFilter).info(),
      write: (f) => (f as ScalableBloomFilter).toBytes(),
    },
  ],
];

describe(`${RUNS} seeded inputs per deserializer: only RedstructFormatError or a sound structure`, () => {
  for (const [seed, d] of deserializers) {
    it(d.name, () => {
      const counts = fuzzDeserializer(d, { seed, runs: RUNS });
      expect(counts.loaded + counts.refused).toBe(RUNS);
      // Both outcomes occur: the corruptions reach past the first checks into the structure.
      expect(counts.refused).toBeGreaterThan(0);
      expect(counts.loaded).toBeGreaterThan(0);
    });
  }
});
