/**
 * The deserializers of the Bloom filters, HyperLogLog, Count-Min and Top-K, fuzzed in one place: at
 * least 10^4 seeded inputs each per run (random byte strings and near-valid corruptions of valid
 * inputs of several shapes), each of which must either load into a structure that passes
 * checkInvariants() — and, for the formats that promise it, write back the very same bytes — or
 * throw a RedstructFormatError. The other deserializers run the same fuzzer (support/fuzz.ts) beside
 * their structure's tests: UltraLogLog (ull), ExaLogLog (hll/exaloglog), RedisBloomFilter (bloom-redis), CuckooFilter (cuckoo),
 * TDigest (tdigest-hostile), SortedSet (skiplist-bytes), GeoSet (geo), Dict (dict-bytes).
 */
import { describe, expect, it } from "vitest";
import { BlockedBloomFilter, BloomFilter, ScalableBloomFilter } from "../src/bloom/index.js";
import { CountMinSketch } from "../src/cms/index.js";
import { HyperLogLog } from "../src/hll/index.js";
import { TopK } from "../src/topk/index.js";
import { type Deserializer, fuzzDeserializer } from "./support/fuzz.js";

/** Inputs per deserializer per run. */
const RUNS = 10_000;

const hll = (precision: number, n: number) => {
  const h = new HyperLogLog({ precision });
  for (let i = 0; i < n; i++) h.add(`hll:${i}`);
  return h;
};

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

const cmsValid = (): Uint8Array[] => {
  const a = new CountMinSketch({ width: 8, depth: 3 });
  const empty = a.toBytes();
  for (let i = 0; i < 20; i++) a.incrBy(`c${i % 7}`, i + 1);
  return [empty, a.toBytes(), new CountMinSketch({ width: 3, depth: 1 }).toBytes()];
};

const topkValid = (): Uint8Array[] => {
  const a = new TopK({ k: 3, width: 8, depth: 3 });
  const empty = a.toBytes();
  for (let i = 0; i < 40; i++) a.add(`t${i % 9}`);
  return [empty, a.toBytes(), new TopK({ k: 1, width: 2, depth: 1 }).toBytes()];
};

const deserializers: Deserializer<{ checkInvariants(): void }>[] = [
  {
    name: "BloomFilter.fromBytes",
    read: BloomFilter.fromBytes,
    valid: bloomValid(),
    use: (f) => void (f as BloomFilter).has("probe"),
    write: (f) => (f as BloomFilter).toBytes(),
  },
  {
    name: "BlockedBloomFilter.fromBytes",
    read: BlockedBloomFilter.fromBytes,
    valid: blockedValid(),
    use: (f) => void (f as BlockedBloomFilter).falsePositiveRate(),
    write: (f) => (f as BlockedBloomFilter).toBytes(),
  },
  {
    name: "ScalableBloomFilter.fromBytes",
    read: ScalableBloomFilter.fromBytes,
    valid: scalableValid(),
    use: (f) => void (f as ScalableBloomFilter).info(),
    write: (f) => (f as ScalableBloomFilter).toBytes(),
  },
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
  {
    name: "HyperLogLog.fromBytes",
    read: HyperLogLog.fromBytes,
    valid: [hll(4, 0).toBytes(), hll(4, 30).toBytes(), hll(6, 500).toBytes(), hll(10, 50).toBytes()],
    use: (h) => void (h as HyperLogLog).count(),
  },
  {
    name: "CountMinSketch.fromBytes",
    read: CountMinSketch.fromBytes,
    valid: cmsValid(),
    use: (c) => void (c as CountMinSketch).count("c1"),
  },
  {
    name: "TopK.fromBytes",
    read: (b) => TopK.fromBytes(b),
    valid: topkValid(),
    use: (t) => void (t as TopK).has("t1"),
  },
];

describe(`every deserializer: ${RUNS} seeded inputs each, only RedstructFormatError or a sound structure`, () => {
  deserializers.forEach((d, i) => {
    it(d.name, () => {
      const counts = fuzzDeserializer(d, { seed: 1400 + i, runs: RUNS });
      expect(counts.loaded + counts.refused).toBe(RUNS);
      // Both outcomes occur: the corruptions reach past the first checks into the structure.
      expect(counts.refused).toBeGreaterThan(0);
      expect(counts.loaded).toBeGreaterThan(0);
    });
  });
});
