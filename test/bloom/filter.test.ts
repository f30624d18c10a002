import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { H, hashElement, RING_BITS, scaleHi, scaleLo } from "../../src/bloom/hashing.js";
import {
  BloomFilter,
  type BloomFilterOptions,
  bloomParameters,
  capacityForBits,
  errorRateForBits,
  falsePositiveRate,
  optimalHashes,
} from "../../src/bloom/index.js";
import { corruptionsOf, expectOnlyFormatErrors } from "../support/fuzz.js";
import { expectBatchesMirrorSingles, expectMergeUnionIntersect, expectSetModel } from "../support/membership.js";

const LN2_SQ = Math.LN2 * Math.LN2;
/** The expected-rate formula, written out independently of src/. */
const model = (m: number, k: number, n: number) => (1 - Math.exp((-k * n) / m)) ** k;

// Strings with astral characters and lone surrogates (the fused hash must fall back on them).
const loneUnits = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: loneUnits, maxLength: 20 }),
);
const anyElement = fc.oneof(
  anyString,
  fc.uint8Array({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
);

const capacity = fc.integer({ min: 1, max: 2000 });
const errorRate = fc.double({ min: 1e-6, max: 0.5, noNaN: true });

describe("calculator", () => {
  it("bloomParameters: m = ⌈−n ln p / ln²2⌉ while k* ∈ [1, 64] (else the fewest bits reaching p), k minimises the rate, the rate is reported exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.double({ min: 1e-12, max: 0.999, noNaN: true }), (n, p) => {
        const r = bloomParameters(n, p);
        const formula = Math.ceil((-n * Math.log(p)) / LN2_SQ);
        const ideal = (formula / n) * Math.LN2;
        if (ideal >= 1 && ideal <= 64) expect(r.bits).toBe(formula);
        else {
          // k* < 1: one probe would miss p with the formula's bits; the strict size meets p and is
          // the fewest bits that do (one bit less misses it with every k).
          expect(model(r.bits, r.hashes, n)).toBeLessThanOrEqual(p);
          for (let k = 1; k <= 64; k++) expect(model(r.bits - 1, k, n)).toBeGreaterThan(p * (1 - 1e-12));
        }
        expect(r.bitsPerElement).toBe(r.bits / n);
        const f = (k: number) => model(r.bits, k, n);
        expect(r.falsePositiveRate).toBeCloseTo(f(r.hashes), 12);
        // Integer optimum: no other k in 1..64 does better.
        for (let k = 1; k <= 64; k++) expect(f(r.hashes)).toBeLessThanOrEqual(f(k) * (1 + 1e-12));
      }),
      { seed: 101 },
    );
  });

  it("bits per element within 1% of −ln p/(ln 2)² for realistic capacities; rate within 1.6% of p", () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 1e8 }), fc.double({ min: 1e-9, max: 0.1, noNaN: true }), (n, p) => {
        const r = bloomParameters(n, p);
        const ideal = -Math.log(p) / LN2_SQ;
        expect(Math.abs(r.bitsPerElement / ideal - 1)).toBeLessThan(0.01);
        expect(r.falsePositiveRate / p).toBeLessThan(1.016);
      }),
      { seed: 102 },
    );
  });

  it("optimalHashes is the brute-force argmin of the rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e7 }), fc.integer({ min: 1, max: 1e6 }), (m, n) => {
        let best = 1;
        for (let k = 2; k <= 64; k++) if (model(m, k, n) < model(m, best, n)) best = k;
        const k = optimalHashes(m, n);
        expect(model(m, k, n)).toBeLessThanOrEqual(model(m, best, n) * (1 + 1e-12));
      }),
      { seed: 103 },
    );
  });

  it("falsePositiveRate matches the formula, grows with count and shrinks with bits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e7 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 1, max: 1000 }),
        (m, k, n, d) => {
          const r = falsePositiveRate(m, k, n);
          expect(r).toBeCloseTo(model(m, k, n), 12);
          expect(falsePositiveRate(m, k, n + d)).toBeGreaterThanOrEqual(r);
          expect(falsePositiveRate(m + d, k, n)).toBeLessThanOrEqual(r);
        },
      ),
      { seed: 104 },
    );
    expect(falsePositiveRate(1000, 3, 0)).toBe(0);
  });

  it("capacityForBits is the exact boundary; errorRateForBits is the best rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 1e7 }), fc.double({ min: 1e-6, max: 0.5, noNaN: true }), (m, p) => {
        const n = capacityForBits(m, p);
        if (n > 0) expect(errorRateForBits(m, n)).toBeLessThanOrEqual(p);
        expect(errorRateForBits(m, n + 1)).toBeGreaterThan(p);
        // The closed form n ≈ m·ln²2 / −ln p, within 5% (integer k costs up to
        // 3.7% of the rate near p = 0.37, plus rounding of small counts).
        expect(Math.abs(n - (m * LN2_SQ) / -Math.log(p))).toBeLessThanOrEqual(0.05 * n + 3);
      }),
      { seed: 105 },
    );
  });

  it("rejects bad arguments with RangeError/TypeError naming the parameter", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => bloomParameters(bad, 0.01)).toThrow(/redstruct\/bloom: capacity must be/);
      expect(() => bloomParameters(bad, 0.01)).toThrow(RangeError);
    }
    for (const bad of [0, 1, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => bloomParameters(100, bad)).toThrow(
        /redstruct\/bloom: errorRate must be a finite number in \(0, 1\)/,
      );
      expect(() => bloomParameters(100, bad)).toThrow(RangeError);
    }
    expect(() => bloomParameters("100" as unknown as number, 0.01)).toThrow(TypeError);
    expect(() => bloomParameters(100, "0.01" as unknown as number)).toThrow(TypeError);
    expect(() => optimalHashes(0, 10)).toThrow(RangeError);
    expect(() => optimalHashes(10, 0)).toThrow(RangeError);
    expect(() => falsePositiveRate(100, 0, 10)).toThrow(RangeError);
    expect(() => falsePositiveRate(100, 65, 10)).toThrow(RangeError);
    expect(() => falsePositiveRate(100, 3, -1)).toThrow(RangeError);
    expect(() => capacityForBits(100, 1)).toThrow(RangeError);
    expect(() => errorRateForBits(100, 0)).toThrow(RangeError);
  });
});

describe("hashing", () => {
  it("treats 42, 42n, '42' and the bytes of '42' as one element, like Redis", () => {
    const bf = new BloomFilter({ capacity: 100, errorRate: 0.001 });
    expect(bf.add(42)).toBe(true);
    expect(bf.add("42")).toBe(false);
    expect(bf.add(42n)).toBe(false);
    expect(bf.add(new Uint8Array([0x34, 0x32]))).toBe(false);
    expect(bf.size).toBe(1);
  });

  /**
   * Where a filter of m bits puts probe 0 of `v`, per hashing.ts: ⌊H[0]·m/2^32⌋ in the ring path
   * (m ≤ 2^25), a = ⌊h1·m/2^64⌋ with h1 = H[1]:H[0] above.
   */
  const firstProbe = (v: string, m: number) => {
    hashElement(v);
    return m <= RING_BITS ? Math.floor((H[0]! * m) / 2 ** 32) : (H[1]! * scaleHi(m) + H[0]! * scaleLo(m)) | 0;
  };

  it("the filter sets exactly bit ⌊h·m/2^w⌋ for k = 1 (both reductions)", () => {
    for (const m of [1, 31, 32, 33, 1000, 1 << 20, RING_BITS, RING_BITS + 1, 123_456_789]) {
      const bf = new BloomFilter({ bits: m, hashes: 1 });
      for (let i = 0; i < 20; i++) {
        const v = `key-${m}-${i}`;
        const a = firstProbe(v, m);
        expect(a).toBeGreaterThanOrEqual(0);
        expect(a).toBeLessThan(m);
        bf.clear();
        bf.add(v);
        const words = new DataView(bf.toBytes().buffer, 40);
        expect((words.getUint32((a >>> 5) * 4, true) >>> (a & 31)) & 1).toBe(1);
        expect(bf.setBits).toBe(1);
      }
    }
  });

  /** 16 equal slices and 16 residues of 32 000 first probes: each expects 2000 (σ ≈ 43); 5σ bound. */
  const expectEven = (m: number) => {
    const bins = new Array<number>(16).fill(0);
    const low = new Array<number>(16).fill(0);
    for (let i = 0; i < 32_000; i++) {
      const a = firstProbe(`k${i}`, m);
      bins[Math.floor(a / (m / 16))]!++;
      low[a & 15]!++; // the low bits too: a bad mix or too few hash bits would leave some empty
    }
    for (const c of [...bins, ...low]) expect(Math.abs(c - 2000)).toBeLessThan(5 * Math.sqrt(2000));
  };

  it("spreads positions evenly over a 2^31 − 1-bit range (64-bit reduction)", () => expectEven(2 ** 31 - 1));

  it("spreads positions evenly over the largest ring-path range, 2^25 bits (32-bit reduction)", () => {
    expectEven(RING_BITS);
    expectEven(RING_BITS - 3);
  });

  it("probes of one key are distinct for a power-of-two m (no even-step collapse)", () => {
    const bf = new BloomFilter({ bits: 1 << 16, hashes: 16 });
    for (let i = 0; i < 2000; i++) {
      bf.clear();
      bf.add(`p${i}`);
      // 16 probes in 65 536 bits collide with probability ≈ 120/65 536 per key: allow a few.
      expect(bf.setBits).toBeGreaterThanOrEqual(14);
    }
  });
});

describe("BloomFilter", () => {
  const shape = fc.oneof(
    fc.record({ capacity, errorRate }),
    fc.record({ bits: fc.integer({ min: 1, max: 5000 }), hashes: fc.integer({ min: 1, max: 12 }) }),
  );

  it("never gives a false negative, and add() returns !has() before it (model: a Set)", () => {
    fc.assert(
      fc.property(shape, fc.array(anyElement, { maxLength: 300 }), (opts, values) => {
        const bf = new BloomFilter(opts);
        expectSetModel(bf, values);
      }),
      { seed: 201, numRuns: 300 },
    );
  });

  it("addAll / hasAll mirror add / has element by element (BF.MADD / BF.MEXISTS)", () => {
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 100 }), fc.array(anyString, { maxLength: 100 }), (a, b) =>
        expectBatchesMirrorSingles(() => new BloomFilter({ capacity: 50, errorRate: 0.05 }), a, b),
      ),
      { seed: 202 },
    );
  });

  it("merge (in place) equals the filter of both sets, as static union (new); intersect keeps the common values", () => {
    fc.assert(
      fc.property(fc.array(anyElement, { maxLength: 200 }), fc.array(anyElement, { maxLength: 200 }), (a, b) =>
        expectMergeUnionIntersect(() => new BloomFilter({ capacity: 150, errorRate: 0.02 }), BloomFilter, a, b),
      ),
      { seed: 203, numRuns: 150 },
    );
  });

  it("merge/union/intersect refuse a filter of another shape, and change nothing when they do", () => {
    const a = new BloomFilter({ bits: 1000, hashes: 3 });
    a.addAll(["x", "y"]);
    const before = a.toBytes();
    const same = new BloomFilter({ bits: 1000, hashes: 3 });
    same.add("z");
    expect(() => a.merge(same, new BloomFilter({ bits: 1001, hashes: 3 }))).toThrow(RangeError);
    expect(() => a.merge([same, new BloomFilter({ bits: 1000, hashes: 4 })])).toThrow(
      /others\[1\] must be a filter of the same shape/,
    );
    expect(a.toBytes()).toEqual(before); // every argument is checked before any is merged
    expect(() => BloomFilter.intersect([a, new BloomFilter({ bits: 1000, hashes: 4 })])).toThrow(
      /filters\[1\] must be a filter of the same shape/,
    );
    expect(() => a.merge({} as BloomFilter)).toThrow(TypeError);
    expect(() => BloomFilter.union([])).toThrow(/at least one BloomFilter/);
  });

  it("merge counts: a merge that sets no new bit keeps the exact size; one that does takes the fill estimate", () => {
    const a = BloomFilter.from(["a", "b", "c"], { errorRate: 0.01, capacity: 100 });
    expect(a.merge(a.clone()).size).toBe(3);
    expect(a.merge(a).size).toBe(3);
    expect(a.merge().size).toBe(3);
    expect(a.merge(new BloomFilter({ capacity: 100, errorRate: 0.01 })).size).toBe(3);
    const b = BloomFilter.from(["d", "e"], { errorRate: 0.01, capacity: 100 });
    const u = BloomFilter.union([a, b]);
    expect(u.size).toBe(Math.round(u.count()));
    expect(a.size).toBe(3); // the inputs of union are not changed
    a.merge(b);
    expect(a.size).toBe(u.size);
    expect(a.toBytes()).toEqual(u.toBytes());
  });

  it("clear empties; clone is independent", () => {
    const a = new BloomFilter({ capacity: 100, errorRate: 0.01 });
    a.addAll(["x", "y", "z"]);
    const b = a.clone();
    a.clear();
    a.checkInvariants();
    expect(a.size).toBe(0);
    expect(a.setBits).toBe(0);
    expect(a.has("x")).toBe(false);
    expect(b.has("x")).toBe(true);
    expect(b.size).toBe(3);
    b.checkInvariants();
  });

  it("count() estimates the distinct items and falsePositiveRate() matches the measured rate", () => {
    const n = 20_000;
    const bf = new BloomFilter({ capacity: n, errorRate: 0.01 });
    for (let i = 0; i < n; i++) bf.add(`member:${i}`);
    for (let i = 0; i < n; i += 2) bf.add(`member:${i}`); // duplicates change nothing
    bf.checkInvariants();
    // Relative standard error of the fill estimate is well under 1% here; 3% leaves a wide margin.
    expect(Math.abs(bf.count() / n - 1)).toBeLessThan(0.03);
    const queries = 200_000;
    let fp = 0;
    for (let i = 0; i < queries; i++) if (bf.has(`other:${i}`)) fp++;
    const reported = bf.falsePositiveRate();
    const sigma = Math.sqrt((reported * (1 - reported)) / queries);
    expect(Math.abs(fp / queries - reported)).toBeLessThan(4 * sigma);
    // And the filter meets its target (within the same sampling error).
    expect(fp / queries).toBeLessThan(0.01 * 1.01 + 4 * sigma);
  });

  it("small filters meet (X/m)^k where plain double hashing does not (residue classes, the n/m² floor)", () => {
    // Measured before enhanced hashing: +25 % at m = 1104, k = 8 and +52 % at n = 100, p = 5·10⁻⁵.
    // Summed over many filters, the false positives must match Σ (X/m)^k·queries within 5σ.
    const check = (opts: BloomFilterOptions, n: number, filters: number, queries: number) => {
      let fp = 0;
      let expected = 0;
      for (let f = 0; f < filters; f++) {
        const bf = new BloomFilter(opts);
        for (let i = 0; i < n; i++) bf.add(`in:${f}:${i}`);
        expected += bf.falsePositiveRate() * queries;
        for (let i = 0; i < queries; i++) if (bf.has(`out:${f}:${i}`)) fp++;
      }
      expect(Math.abs(fp - expected)).toBeLessThan(5 * Math.sqrt(expected));
    };
    check({ bits: 1104, hashes: 8 }, 100, 100, 10_000);
    check({ capacity: 100, errorRate: 5e-5 }, 100, 50, 40_000);
  });

  it("exposes its shape", () => {
    const p = bloomParameters(1000, 0.01);
    const bf = new BloomFilter({ capacity: 1000, errorRate: 0.01 });
    expect([bf.bits, bf.hashes, bf.capacity, bf.errorRate]).toEqual([p.bits, p.hashes, 1000, 0.01]);
    expect(bf.byteLength).toBe(Math.ceil(p.bits / 32) * 4);
    const raw = new BloomFilter({ bits: 64, hashes: 2 });
    expect([raw.capacity, raw.errorRate]).toEqual([undefined, undefined]);
  });

  it("from(items, { errorRate, capacity? }): sized for the items, or for the capacity given", () => {
    fc.assert(
      fc.property(
        fc.array(anyElement, { maxLength: 60 }),
        fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
        errorRate,
        fc.boolean(),
        (items, cap, p, asGenerator) => {
          const input = asGenerator
            ? (function* () {
                yield* items;
              })()
            : items;
          const bf = BloomFilter.from(input, cap === undefined ? { errorRate: p } : { errorRate: p, capacity: cap });
          const twin = new BloomFilter({ capacity: cap ?? Math.max(1, items.length), errorRate: p });
          expect(twin.addAll(items).filter(Boolean).length).toBe(bf.size);
          expect(bf.toBytes()).toEqual(twin.toBytes());
        },
      ),
      { seed: 204, numRuns: 100 },
    );
    expect(BloomFilter.from([], { errorRate: 0.1 }).capacity).toBe(1);
    expect(() => BloomFilter.from(["a"], 0.01 as never)).toThrow(/options must be an object/);
    // No options: sized for the items at 0.01, BF.ADD's default rate.
    expect(BloomFilter.from(["a", "b"]).toBytes()).toEqual(BloomFilter.from(["a", "b"], { errorRate: 0.01 }).toBytes());
    expect(BloomFilter.from(["a", "b"], {}).errorRate).toBe(0.01);
    expect(() => BloomFilter.from(["a"], null as never)).toThrow(/options must be an object/);
    expect(() => BloomFilter.from(["a"], { errorrate: 0.01 } as never)).toThrow(/did you mean "errorRate"/);
    expect(() => BloomFilter.from(["a"], { errorRate: 0.01, capacity: 0 })).toThrow(/capacity must be/);
  });

  it("rejects bad options", () => {
    const make = (o: unknown) => () => new BloomFilter(o as { bits: number; hashes: number });
    expect(make(undefined)).toThrow(TypeError);
    expect(make({})).toThrow(TypeError);
    expect(make({ capacity: 10, errorRate: 0.1, bits: 10 })).toThrow(/bits must be 48, what bloomParameters/);
    expect(make({ capacity: 0, errorRate: 0.1 })).toThrow(/redstruct\/BloomFilter: capacity must be/);
    expect(make({ capacity: 10, errorRate: 1 })).toThrow(RangeError);
    expect(make({ capacity: 10 })).toThrow(TypeError);
    expect(make({ bits: 0, hashes: 1 })).toThrow(RangeError);
    expect(make({ bits: 2 ** 31, hashes: 1 })).toThrow(RangeError);
    expect(make({ bits: 10, hashes: 65 })).toThrow(/hashes must be an integer in \[1, 64\]/);
    expect(make({ capacity: 1e9, errorRate: 1e-9 })).toThrow(RangeError);
    const bf = new BloomFilter({ bits: 10, hashes: 1 });
    expect(() => bf.add({} as unknown as string)).toThrow(TypeError);
    expect(() => bf.has(null as unknown as string)).toThrow(TypeError);
  });
});

describe("BloomFilter serialization", () => {
  it("round-trips exactly, with a 40-byte header over the raw bits", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ capacity, errorRate }),
          fc.record({ bits: fc.integer({ min: 1, max: 3000 }), hashes: fc.integer({ min: 1, max: 64 }) }),
        ),
        fc.array(anyElement, { maxLength: 100 }),
        (opts, values) => {
          const bf = new BloomFilter(opts);
          bf.addAll(values);
          const bytes = bf.toBytes();
          expect(bytes.length).toBe(40 + bf.byteLength);
          const back = BloomFilter.fromBytes(bytes);
          back.checkInvariants();
          expect(back.toBytes()).toEqual(bytes);
          expect([back.bits, back.hashes, back.size, back.setBits]).toEqual([bf.bits, bf.hashes, bf.size, bf.setBits]);
          for (const v of values) expect(back.has(v)).toBe(true);
        },
      ),
      { seed: 301 },
    );
  });

  it("is within 1% of the bit array for filters of 4 KiB and more", () => {
    const bf = new BloomFilter({ capacity: 10_000, errorRate: 0.01 });
    expect(bf.toBytes().length / bf.byteLength).toBeLessThan(1.01);
  });

  it("reads from an unaligned view", () => {
    const bf = new BloomFilter({ capacity: 100, errorRate: 0.01 });
    bf.addAll(["a", "b"]);
    const bytes = bf.toBytes();
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const back = BloomFilter.fromBytes(shifted.subarray(1));
    expect(back.toBytes()).toEqual(bytes);
  });

  it("fuzzed input only throws RedstructFormatError", () => {
    const bf = new BloomFilter({ capacity: 20, errorRate: 0.1 });
    bf.addAll(["a", "b", "c"]);
    expectOnlyFormatErrors(BloomFilter.fromBytes, bf.toBytes(), { seed: 302, use: (f) => f.has("probe") });
  });

  it("rejects specific corruptions", () => {
    const bf = new BloomFilter({ bits: 100, hashes: 3 });
    bf.add("x");
    const { bad, patch } = corruptionsOf(BloomFilter.fromBytes, bf.toBytes());
    bad(patch(0, 0x58), /open with 58 .*not a BloomFilter.s toBytes\(\) output/);
    bad(patch(4, 2), /version/);
    bad(patch(5, 9), /hashing scheme/);
    bad(patch(5, 1), /unknown hashing scheme 1 \(this build reads scheme 2\)/);
    bad(patch(6, 0), /hash count/);
    bad(patch(7, 1), /flags/);
    bad((b) => b.subarray(0, b.length - 1), /truncated/);
    bad((b) => Uint8Array.from([...b, 0]), /trailing/);
    bad(patch(-1, 0x80), /past the end/); // bit 127 of a 100-bit filter
    bad(patch(8, 0xff, 0xff, 0xff, 0xff), /bit count|truncated/);
    bad(patch(16, 0), /item count/); // bits set but no items
    bad(patch(24, 5), /inconsistent capacity/); // a capacity without an error rate
    expect(() => BloomFilter.fromBytes("RSBF" as unknown as Uint8Array)).toThrow(TypeError);
  });
});
