/**
 * Every Bloom filter deserializer, fuzzed: BloomFilter, BlockedBloomFilter and ScalableBloomFilter
 * `fromBytes` with 10^4 seeded inputs each per run (random byte strings and near-valid corruptions of
 * valid inputs of several shapes), RedisBloomFilter `fromRedis` (mutated chunk lists) and `fromBytes`
 * with 10^4 each, and smaller corruption runs of one filter of each class. Each input either loads
 * into a structure that passes checkInvariants() — and, where the format promises it, writes back
 * the very same bytes — or throws a RedstructFormatError.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockedBloomFilter, BloomFilter, RedisBloomFilter, ScalableBloomFilter } from "../../src/bloom/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { filled } from "../support/bloom.js";
import { type Deserializer, describeDeserializers, expectOnlyFormatErrors, fuzzDeserializer } from "../support/fuzz.js";

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

describeDeserializers(deserializers, RUNS);

describe("BloomFilter", () => {
  it("fuzzed input only throws RedstructFormatError", () => {
    const bf = new BloomFilter({ capacity: 20, errorRate: 0.1 });
    bf.addAll(["a", "b", "c"]);
    expectOnlyFormatErrors(BloomFilter.fromBytes, bf.toBytes(), { seed: 302, use: (f) => f.has("probe") });
  });
});

describe("BlockedBloomFilter", () => {
  it("fuzzed input only throws RedstructFormatError", () => {
    const bf = new BlockedBloomFilter({ capacity: 20, errorRate: 0.1 });
    bf.addAll(["a", "b", "c"]);
    expectOnlyFormatErrors(BlockedBloomFilter.fromBytes, bf.toBytes(), { seed: 802, use: (f) => f.has("probe") });
  });
});

describe("ScalableBloomFilter", () => {
  it("fuzzed input only throws RedstructFormatError", () => {
    const sbf = new ScalableBloomFilter({ capacity: 3, errorRate: 0.2 });
    sbf.addAll(["a", "b", "c", "d", "e", "f", "g", "h"]);
    expect(sbf.info().filters).toBeGreaterThan(1);
    expectOnlyFormatErrors(ScalableBloomFilter.fromBytes, sbf.toBytes(), {
      seed: 501,
      use: (f) => f.has("probe"),
      randomRuns: 300,
      maxLength: 300,
    });
  });
});

describe("RedisBloomFilter", () => {
  it("10^4 mutated dumps either load to a consistent filter or throw RedstructFormatError", () => {
    const f = new RedisBloomFilter({ errorRate: 0.05, capacity: 3, expansion: 2 });
    for (let i = 0; i < 20; i++) f.add(`x${i}`);
    const valid = f.toRedis();
    expect(valid.length).toBeGreaterThan(3);
    const mutation = fc.oneof(
      // overwrite 1–4 bytes of one chunk (the header most of the time)
      fc.record({
        kind: fc.constant("bytes" as const),
        chunk: fc.oneof(fc.constant(0), fc.nat(valid.length - 1)),
        edits: fc.array(fc.tuple(fc.nat(2000), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({
        kind: fc.constant("iterator" as const),
        chunk: fc.nat(valid.length - 1),
        delta: fc.integer({ min: -40, max: 40 }),
      }),
      fc.record({ kind: fc.constant("drop" as const), chunk: fc.nat(valid.length - 1) }),
      fc.record({
        kind: fc.constant("swap" as const),
        chunk: fc.nat(valid.length - 1),
        other: fc.nat(valid.length - 1),
      }),
      fc.record({ kind: fc.constant("cut" as const), chunk: fc.nat(valid.length - 1), keep: fc.nat(300) }),
      fc.record({
        kind: fc.constant("extra" as const),
        iterator: fc.integer({ min: -3, max: 400 }),
        bytes: fc.uint8Array({ maxLength: 40 }),
      }),
    );
    let loaded = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        let pairs: Array<[number, Uint8Array]> = valid.map(([i, b]) => [i, b.slice()]);
        for (const m of mutations) {
          const at = "chunk" in m ? m.chunk % Math.max(1, pairs.length) : 0;
          if (pairs.length === 0) break;
          if (m.kind === "bytes") for (const [i, b] of m.edits) pairs[at]![1][i % pairs[at]![1].length] = b;
          else if (m.kind === "iterator") pairs[at]![0] += m.delta;
          else if (m.kind === "drop") pairs.splice(at, 1);
          else if (m.kind === "swap") {
            const o = m.other % pairs.length;
            [pairs[at], pairs[o]] = [pairs[o]!, pairs[at]!];
          } else if (m.kind === "cut") pairs[at]![1] = pairs[at]![1].slice(0, m.keep % (pairs[at]![1].length + 1));
          else pairs = [...pairs, [m.iterator, m.bytes]];
        }
        let g: RedisBloomFilter;
        try {
          g = RedisBloomFilter.fromRedis(pairs);
        } catch (e) {
          expect(e).toBeInstanceOf(RedstructFormatError);
          refused++;
          return;
        }
        loaded++;
        g.checkInvariants();
        const again = RedisBloomFilter.fromRedis(g.toRedis());
        expect(again.toRedis()).toEqual(g.toRedis());
        expect(again.info()).toEqual(g.info());
        for (let i = 0; i < 5; i++) {
          expect(again.has(`x${i}`)).toBe(g.has(`x${i}`));
          try {
            g.add(`y${i}`);
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError); // a hostile capacity may leave no room to grow
          }
        }
        g.checkInvariants();
      }),
      { seed: 1306, numRuns: 10_000 },
    );
    expect(loaded).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });
  it("10^4 fuzzed fromBytes inputs either load to a consistent filter that writes them back, or throw RedstructFormatError", () => {
    const shapes = [
      filled(
        { errorRate: 0.05, capacity: 3, expansion: 2 },
        Array.from({ length: 20 }, (_, i) => `x${i}`),
      ),
      filled({ errorRate: 0.3, capacity: 2, nonScaling: true }, ["a", "b"]),
      filled(
        { errorRate: 0.01, capacity: 1, expansion: 3 },
        Array.from({ length: 9 }, (_, i) => i),
      ),
    ];
    const counts = fuzzDeserializer(
      {
        name: "RedisBloomFilter.fromBytes",
        read: RedisBloomFilter.fromBytes,
        valid: shapes.map((f) => f.toBytes()),
        use: (f) => {
          f.hasAll(["x1", "probe", 3]);
          f.info();
          const c = f.clone(); // changed on its own: the loaded filter must still write its input back
          for (let i = 0; i < 4; i++) {
            try {
              c.add(`more${i}`);
            } catch (e) {
              expect(e).toBeInstanceOf(RangeError); // a loaded header may leave no room to grow
            }
          }
          c.checkInvariants();
        },
        write: (f) => f.toBytes(),
      },
      { seed: 1312, runs: 10_000, maxLength: 400 },
    );
    expect(counts.loaded).toBeGreaterThan(200);
    expect(counts.refused).toBeGreaterThan(1000);
  });
});
