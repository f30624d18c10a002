/**
 * The Bloom calculators and sizing (src/bloom/params.ts): the closed forms against independent
 * formulas and brute force, and, over the whole valid input domain (extremes included):
 * - every calculator terminates, within its step limit, for every valid input, and says with a
 *   RangeError when its answer is not representable (never a hang, never a rounded or looping result);
 * - every size handed out (calculators and filter constructors) meets its target error rate, up to
 *   the rounding of an integer k, or is refused with a RangeError that says why.
 * Termination is asserted through the step limit every search carries (a plain Error past 1000 rate
 * evaluations, where a refusal is a RangeError): no valid input may meet it. Never by a timer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BlockedBloomFilter,
  BloomFilter,
  blockedParameters,
  bloomParameters,
  capacityForBits,
  errorRateForBits,
  falsePositiveRate,
  optimalHashes,
  ScalableBloomFilter,
} from "../../src/bloom/index.js";
import { MAX_BITS, strictParameters } from "../../src/bloom/params.js";

/** The expected-rate formula (1 − e^(−kn/m))^k, written out independently of src/. */
const model = (m: number, k: number, n: number) => (-Math.expm1((-k * n) / m)) ** k;

/** The blocked-filter rate Σ_i Poisson(i; n/B)·(1 − (1 − 1/512)^(k·i))^k, written out independently. */
function blockedModel(blocks: number, k: number, n: number): number {
  const lambda = n / blocks;
  let pmf = Math.exp(-lambda);
  let sum = 0;
  for (let i = 0; i < lambda * 4 + 60; i++) {
    if (i > 0) pmf *= lambda / i;
    sum += pmf * (-Math.expm1(k * i * Math.log1p(-1 / 512))) ** k;
  }
  return sum;
}

/** What rounding k to an integer may cost over the target while k* = (m/n)·ln 2 is in [1, 64]. */
const K_ROUNDING = 1.037;

const MAX = Number.MAX_SAFE_INTEGER;

/** Positive safe integers, weighted towards both ends: 1, small, huge, and right below 2^53. */
const count = fc.oneof(
  fc.integer({ min: 1, max: 1000 }),
  fc.integer({ min: 1, max: MAX }),
  fc.integer({ min: 2 ** 50, max: MAX }),
  fc.constantFrom(1, 2, 2 ** 31 - 1, 2 ** 31, 2 ** 52, MAX - 1, MAX),
);

/** Error rates over all of (0, 1): log-uniform down to the smallest double, near 1, and the extremes. */
const rate = fc
  .oneof(
    fc.double({ min: -744, max: -1e-15, noNaN: true }).map(Math.exp),
    fc.double({ min: Number.MIN_VALUE, max: 1, maxExcluded: true, noNaN: true }),
    fc.double({ min: -50, max: -1e-15, noNaN: true }).map((x) => -Math.expm1(x)),
    fc.constantFrom(Number.MIN_VALUE, 1e-300, 2 ** -64, 1e-30, 1e-6, 0.01, 0.5, 0.9, 0.9999, 1 - 2 ** -53),
  )
  .filter((p) => p > 0 && p < 1);

/**
 * Runs a calculator call: it must return or throw a RangeError (the step limit's plain Error means a
 * search that did not converge). Returns the result or the error.
 */
function bounded<T>(call: () => T): T | RangeError {
  let out: T | RangeError;
  try {
    out = call();
  } catch (e) {
    expect(e).toBeInstanceOf(RangeError);
    expect((e as Error).message).toMatch(/^redstruct\/\w+: /);
    out = e as RangeError;
  }
  return out;
}

const LN2_SQ = Math.LN2 * Math.LN2;

/** The expected-rate formula, written out independently of src/, as 1 − e^(−kn/m). */
const modelExp = (m: number, k: number, n: number) => (1 - Math.exp((-k * n) / m)) ** k;

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
          expect(modelExp(r.bits, r.hashes, n)).toBeLessThanOrEqual(p);
          for (let k = 1; k <= 64; k++) expect(modelExp(r.bits - 1, k, n)).toBeGreaterThan(p * (1 - 1e-12));
        }
        expect(r.bitsPerElement).toBe(r.bits / n);
        const f = (k: number) => modelExp(r.bits, k, n);
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
        for (let k = 2; k <= 64; k++) if (modelExp(m, k, n) < modelExp(m, best, n)) best = k;
        const k = optimalHashes(m, n);
        expect(modelExp(m, k, n)).toBeLessThanOrEqual(modelExp(m, best, n) * (1 + 1e-12));
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
          expect(r).toBeCloseTo(modelExp(m, k, n), 12);
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
});

describe("blockedParameters", () => {
  it("meets the target by the blocked formula, with the fewest blocks, never fewer bits than the standard filter", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.double({ min: 1e-6, max: 0.2, noNaN: true }), (n, p) => {
        const r = blockedParameters(n, p);
        expect(r.bits).toBe(r.blocks * 512);
        expect(r.bitsPerElement).toBe(r.bits / n);
        expect(r.falsePositiveRate).toBeLessThanOrEqual(p);
        expect(blockedModel(r.blocks, r.hashes, n)).toBeCloseTo(r.falsePositiveRate, 10);
        if (r.blocks > 1) {
          // One block fewer misses the target at every k.
          for (let k = 1; k <= 64; k++) expect(blockedModel(r.blocks - 1, k, n)).toBeGreaterThan(p * (1 - 1e-9));
        }
        if (n >= 1000) expect(r.bits).toBeGreaterThanOrEqual(bloomParameters(n, p).bits * 0.99);
      }),
      { seed: 701, numRuns: 60 },
    );
  });

  it("costs a few % more bits than the standard filter at 1 %, more at lower rates", () => {
    const penalty = (p: number) => blockedParameters(1e6, p).bitsPerElement / bloomParameters(1e6, p).bitsPerElement;
    expect(penalty(0.01)).toBeGreaterThan(1);
    expect(penalty(0.01)).toBeLessThan(1.05);
    expect(penalty(0.001)).toBeLessThan(1.1);
    expect(penalty(0.0001)).toBeGreaterThan(penalty(0.001));
  });
});

describe("every calculator terminates for every valid input, within its step limit", () => {
  it("every corner of the domain (1 and 2^53 − 1 items or bits, the smallest and largest rates) answers or is a RangeError", () => {
    const counts = [1, 2, 2 ** 31 - 1, 2 ** 52, MAX];
    const rates = [Number.MIN_VALUE, 2 ** -64, 1e-30, 0.5, 1 - 2 ** -53];
    let answered = 0;
    let refused = 0;
    for (const n of counts) {
      for (const p of rates) {
        for (const r of [
          bounded(() => capacityForBits(n, p)),
          bounded(() => bloomParameters(n, p)),
          bounded(() => blockedParameters(n, p)),
        ]) {
          if (r instanceof RangeError) refused++;
          else answered++;
        }
      }
      for (const bits of counts) {
        for (const r of [bounded(() => errorRateForBits(bits, n)), bounded(() => optimalHashes(bits, n))]) {
          if (r instanceof RangeError) refused++;
          else answered++;
        }
      }
    }
    // Most of the 125 calls answer; the refusals are the sizes past 2^53 − 1 and the underflows.
    expect(answered).toBeGreaterThan(80);
    expect(refused).toBeGreaterThan(0);
  });

  it("capacityForBits(bits, errorRate): the exact boundary, or a RangeError once it passes 2^53 − 1", () => {
    expect(() => capacityForBits(1e15, 0.9999)).toThrow(/not representable/);
    fc.assert(
      fc.property(count, rate, (bits, p) => {
        const n = bounded(() => capacityForBits(bits, p));
        if (n instanceof RangeError) {
          expect(n.message).toMatch(/2\^53 − 1 items or more: not representable/);
          // Only when 2^53 − 1 items really fit.
          const k = optimalHashes(bits, MAX);
          expect(model(bits, k, MAX)).toBeLessThanOrEqual(p * (1 + 1e-9));
          return;
        }
        expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
        if (n > 0) expect(model(bits, optimalHashes(bits, n), n)).toBeLessThanOrEqual(p * (1 + 1e-9));
        if (n < MAX) expect(model(bits, optimalHashes(bits, n + 1), n + 1)).toBeGreaterThan(p * (1 - 1e-9));
      }),
      { seed: 1201, numRuns: 3000 },
    );
  });

  it("bloomParameters(capacity, errorRate): a size meeting the target, or a RangeError past 2^53 − 1 bits", () => {
    fc.assert(
      fc.property(count, rate, (n, p) => {
        const r = bounded(() => bloomParameters(n, p));
        if (r instanceof RangeError) {
          expect(r.message).toMatch(/^redstruct\/bloom: capacity must be small enough to fit 2\^53 − 1 bits/);
          // 2^53 − 1 bits are too few at every k.
          for (let k = 1; k <= 64; k++) expect(model(MAX, k, n)).toBeGreaterThan(p * (1 - 1e-9));
          return;
        }
        expect(Number.isSafeInteger(r.bits) && r.bits >= 1).toBe(true);
        expect(r.hashes).toBeGreaterThanOrEqual(1);
        expect(r.hashes).toBeLessThanOrEqual(64);
        expect(model(r.bits, r.hashes, n)).toBeLessThanOrEqual(p * K_ROUNDING);
      }),
      { seed: 1202, numRuns: 3000 },
    );
  });

  it("errorRateForBits, falsePositiveRate, optimalHashes: O(1) answers, or a RangeError when the rate underflows", () => {
    fc.assert(
      fc.property(count, count, fc.integer({ min: 1, max: 64 }), (bits, n, k) => {
        const best = bounded(() => errorRateForBits(bits, n));
        if (best instanceof RangeError) {
          expect(best.message).toMatch(/below 5e-324.*not representable/);
          expect(model(bits, 64, n)).toBe(0);
        } else {
          expect(best).toBeGreaterThan(0);
          expect(best).toBeLessThanOrEqual(1);
        }
        const r = bounded(() => falsePositiveRate(bits, k, n));
        if (r instanceof RangeError) expect(model(bits, k, n)).toBe(0);
        else expect(r).toBe(model(bits, k, n));
        const h = bounded(() => optimalHashes(bits, n));
        expect(typeof h === "number" && Number.isInteger(h) && h >= 1 && h <= 64).toBe(true);
      }),
      { seed: 1203, numRuns: 3000 },
    );
  });

  it("blockedParameters(capacity, errorRate): meets the target exactly, or a RangeError naming what is wrong", () => {
    fc.assert(
      fc.property(count, rate, (n, p) => {
        const r = bounded(() => blockedParameters(n, p));
        if (r instanceof RangeError) {
          expect(r.message).toMatch(/^redstruct\/BlockedBloomFilter: (capacity|errorRate) must be /);
          return;
        }
        expect(r.blocks).toBeLessThanOrEqual(2 ** 22 - 1);
        expect(blockedModel(r.blocks, r.hashes, n)).toBeLessThanOrEqual(p * (1 + 1e-9));
      }),
      { seed: 1204, numRuns: 400 },
    );
  });
});

describe("every size handed out meets its target, or is refused with a RangeError saying why", () => {
  it("new BloomFilter({ capacity: 1000, errorRate: 1e-30 }) reaches 1e-30 (64 probes, more bits)", () => {
    const bf = new BloomFilter({ capacity: 1000, errorRate: 1e-30 });
    expect(bf.hashes).toBe(64);
    expect(model(bf.bits, bf.hashes, 1000)).toBeLessThanOrEqual(1e-30);
  });

  it("BloomFilter and BlockedBloomFilter by { capacity, errorRate }: theoretical rate ≤ target, or RangeError", () => {
    // Capacities and rates whose filters are small enough to allocate here, the whole range of p.
    const small = fc.integer({ min: 1, max: 3000 });
    const p = fc
      .oneof(
        fc.double({ min: -140, max: -1e-15, noNaN: true }).map(Math.exp),
        fc.double({ min: -40, max: -1e-15, noNaN: true }).map((x) => -Math.expm1(x)),
        fc.constantFrom(1e-60, 1e-30, 2 ** -64, 0.5, 0.9, 1 - 2 ** -53),
      )
      .filter((x) => x > 0 && x < 1);
    fc.assert(
      fc.property(small, p, (n, e) => {
        const bf = new BloomFilter({ capacity: n, errorRate: e });
        expect(model(bf.bits, bf.hashes, n)).toBeLessThanOrEqual(e * K_ROUNDING);
        if (e < 1e-10) return; // the blocked filter suits p ≥ 1e-4; below, its sizes are large
        let blocked: BlockedBloomFilter;
        try {
          blocked = new BlockedBloomFilter({ capacity: n, errorRate: e });
        } catch (err) {
          expect(err).toBeInstanceOf(RangeError);
          return;
        }
        expect(blockedModel(blocked.blocks, blocked.hashes, n)).toBeLessThanOrEqual(e * (1 + 1e-9));
      }),
      { seed: 1205, numRuns: 300 },
    );
  });

  it("BloomFilter past 2^31 − 1 bits: a RangeError naming capacity and what it would need", () => {
    expect(() => new BloomFilter({ capacity: 3e8, errorRate: 0.01 })).toThrow(
      /^redstruct\/BloomFilter: capacity must be small enough to fit 2\^31 − 1 bits at errorRate 0\.01 \(it would need \d+ bits\), got 300000000$/,
    );
    expect(() => new BlockedBloomFilter({ capacity: 3e8, errorRate: 0.01 })).toThrow(
      /^redstruct\/BlockedBloomFilter: capacity must be small enough/,
    );
    // Below the blocked filter's floor no capacity helps: the error rate is named.
    expect(() => new BlockedBloomFilter({ capacity: 1, errorRate: 1e-80 })).toThrow(
      /^redstruct\/BlockedBloomFilter: errorRate must be at least/,
    );
  });

  it("the scalable chain's links (strict sizing): each meets its share exactly, or cannot exist below 2^31 bits", () => {
    fc.assert(
      fc.property(count, rate, (n, p) => {
        const r = bounded(() => strictParameters(n, p));
        if (r instanceof RangeError) throw r;
        if (Number.isFinite(r.bits)) {
          expect(r.bits).toBeLessThanOrEqual(MAX_BITS);
          expect(model(r.bits, r.hashes, n)).toBeLessThanOrEqual(p);
        } else {
          // No k in [1, 64] reaches p within 2^31 − 1 bits (up to float rounding).
          for (let k = 1; k <= 64; k++) expect(model(MAX_BITS, k, n)).toBeGreaterThan(p * (1 - 1e-9));
        }
      }),
      { seed: 1206, numRuns: 3000 },
    );
  });

  it("ScalableBloomFilter: tiny error shares are met with 64 probes; an underflowing share is named", () => {
    // errorRate·tightening = 5e-301: needs over 64 probes at the contract formula, met here.
    const first = new ScalableBloomFilter({ capacity: 10, errorRate: 1e-300, nonScaling: true });
    for (let i = 0; i < 10; i++) first.add(i);
    first.checkInvariants();
    // 5e-21 and below: 67 and more probes at the contract formula; a chain that grows on 64.
    const sbf = new ScalableBloomFilter({ capacity: 10, errorRate: 1e-20 });
    for (let i = 0; i < 40; i++) sbf.add(i);
    sbf.checkInvariants();
    expect(sbf.filters).toBeGreaterThan(2);
    // At 1e-300 the 64 probes make a scaling chain stop (link 7) before its links hold 2^31 − 1 bits.
    expect(() => new ScalableBloomFilter({ capacity: 10, errorRate: 1e-300 })).toThrow(/link 7 \(640 items/);
    expect(() => new ScalableBloomFilter({ capacity: 10, errorRate: 1e-300, tightening: 1e-30 })).toThrow(
      /^redstruct\/ScalableBloomFilter: errorRate × tightening must be a positive number/,
    );
  });
});

describe("a calculator's answer builds the filter it describes", () => {
  it("new BloomFilter(bloomParameters(n, p)) and new BlockedBloomFilter(blockedParameters(n, p))", () => {
    for (const [n, p] of [
      [20_000, 0.001],
      [1, 0.5],
      [777, 1e-9],
    ] as const) {
      const answer = bloomParameters(n, p);
      expect(answer).toMatchObject({ capacity: n, errorRate: p });
      const f = new BloomFilter(answer);
      expect(f.toBytes()).toEqual(new BloomFilter({ capacity: n, errorRate: p }).toBytes());
      expect([f.bits, f.hashes]).toEqual([answer.bits, answer.hashes]);
      const blocked = blockedParameters(n, p);
      expect(new BlockedBloomFilter(blocked).toBytes()).toEqual(
        new BlockedBloomFilter({ capacity: n, errorRate: p }).toBytes(),
      );
    }
    // An edited answer is refused, naming the field, rather than half-used.
    const answer = bloomParameters(1000, 0.01);
    expect(() => new BloomFilter({ ...answer, hashes: 3 })).toThrow(
      /^redstruct\/BloomFilter: hashes must be 7, what bloomParameters\(1000, 0.01\) answers/,
    );
    expect(() => new BloomFilter({ ...answer, falsePositiveRate: 0.01 })).toThrow(/falsePositiveRate must be 0\.01/);
    expect(() => new BlockedBloomFilter({ ...blockedParameters(1000, 0.01), blocks: 2 })).toThrow(
      /^redstruct\/BlockedBloomFilter: blocks must be 20, what blockedParameters\(1000, 0.01\) answers/,
    );
    // The descriptive fields alone, or with a bare shape, describe no filter.
    expect(() => new BloomFilter({ bits: 100, hashes: 3, falsePositiveRate: 0.1 } as never)).toThrow(TypeError);
    expect(() => new BloomFilter({ bitsPerElement: 10 } as never)).toThrow(/bloomParameters\(capacity, errorRate\)/);
  });
});
