/**
 * HyperLogLog `fromRedis` (sparse and dense HYLL strings) and `fromBytes`, fuzzed: 10^4 seeded inputs per deserializer per run (random byte strings and
 * near-valid corruptions of valid inputs of several shapes), each of which must either load into a
 * structure that passes checkInvariants() — and, where the format promises it, write back the very
 * same bytes — or throw a RedstructFormatError.
 */
import { describe, expect, it } from "vitest";
import { HyperLogLog } from "../../src/hll/index.js";
import { type Deserializer, fuzzDeserializer } from "../support/fuzz.js";

/** Inputs per deserializer per run. */
const RUNS = 10_000;

const hll = (precision: number, n: number) => {
  const h = new HyperLogLog({ precision });
  for (let i = 0; i < n; i++) h.add(`hll:${i}`);
  return h;
};

/** Each deserializer with the seed of its run. */
const deserializers: [number, Deserializer<{ checkInvariants(): void }>][] = [
  [
    1403,
    {
      name: "HyperLogLog.fromRedis",
      read: (b) => HyperLogLog.fromRedis(b),
      // Sparse blobs (small), and one dense blob at Redis's precision.
      valid: [
        hll(14, 0).toRedis(),
        hll(14, 20).toRedis(),
        hll(14, 300).toRedis(),
        hll(14, 3).toRedis({ encoding: "dense" }),
      ],
      use: (h) => void (h as HyperLogLog).count(),
    },
  ],
  [
    1404,
    {
      name: "HyperLogLog.fromBytes",
      read: HyperLogLog.fromBytes,
      valid: [hll(4, 0).toBytes(), hll(4, 30).toBytes(), hll(6, 500).toBytes(), hll(10, 50).toBytes()],
      use: (h) => void (h as HyperLogLog).count(),
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
