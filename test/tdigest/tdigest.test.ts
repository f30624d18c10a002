/**
 * TDigest beyond the recorded vectors (vectors.test.ts replays those): model checks against exact
 * statistics of the data, the monotonicity of quantile and cdf, the merge semantics RedisBloom's
 * README states (td_merge merges the destination's buffer, then each source's, then adds each
 * source's centroids), copies through toBytes / clone / toRedis that answer every later call alike,
 * tied data, and memory that grows with the data, not the compression. fast-check with fixed seeds;
 * checkInvariants() after every step.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TDIGEST_MAX_COMPRESSION, TDigest } from "../../src/tdigest/index.js";
import { decodeBytes } from "../../src/tdigest/serialize.js";
import { exactWeights } from "../support/tdigest-redis.js";

// ——— operations and their answers ————————————————————————————————————————————————————

type Op =
  | { k: "add"; vs: number[] }
  | { k: "addAll"; vs: number[] }
  | { k: "quantile"; q: number }
  | { k: "quantiles"; qs: number[] }
  | { k: "cdf"; v: number }
  | { k: "rank"; v: number }
  | { k: "revRank"; v: number }
  | { k: "byRank"; r: number }
  | { k: "byRevRank"; r: number }
  | { k: "trimmedMean"; lo: number; hi: number }
  | { k: "minmax" }
  | { k: "info" }
  | { k: "toRedis" }
  | { k: "clear" }
  | { k: "mergeSelf" }
  | { k: "mergeOther"; vs: number[]; c: number };

/** Values with ties (small integers), ±0, spread doubles and, now and then, extremes. */
const value = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -20, max: 20 }) },
  { weight: 4, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 1e300) },
);

const moderate = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));

const values = (v: fc.Arbitrary<number>, max = 40) => fc.array(v, { maxLength: max });

const quantile = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.5, 1e-9, -0));

const probe = fc.oneof(value, fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));

function opOf(v: fc.Arbitrary<number>): fc.Arbitrary<Op> {
  return fc.oneof(
    { weight: 6, arbitrary: values(v).map((vs) => ({ k: "add" as const, vs })) },
    { weight: 3, arbitrary: values(v, 200).map((vs) => ({ k: "addAll" as const, vs })) },
    { weight: 2, arbitrary: quantile.map((q) => ({ k: "quantile" as const, q })) },
    { weight: 2, arbitrary: fc.array(quantile, { maxLength: 8 }).map((qs) => ({ k: "quantiles" as const, qs })) },
    { weight: 2, arbitrary: probe.map((v) => ({ k: "cdf" as const, v })) },
    { weight: 1, arbitrary: probe.map((v) => ({ k: "rank" as const, v })) },
    { weight: 1, arbitrary: probe.map((v) => ({ k: "revRank" as const, v })) },
    { weight: 1, arbitrary: fc.nat(300).map((r) => ({ k: "byRank" as const, r })) },
    { weight: 1, arbitrary: fc.nat(300).map((r) => ({ k: "byRevRank" as const, r })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(quantile, quantile)
        .filter(([a, b]) => a !== b)
        .map(([a, b]) => ({ k: "trimmedMean" as const, lo: Math.min(a, b), hi: Math.max(a, b) })),
    },
    { weight: 1, arbitrary: fc.constant({ k: "minmax" as const }) },
    { weight: 1, arbitrary: fc.constant({ k: "info" as const }) },
    { weight: 1, arbitrary: fc.constant({ k: "toRedis" as const }) },
    { weight: 1, arbitrary: fc.constant({ k: "clear" as const }) },
    { weight: 1, arbitrary: fc.constant({ k: "mergeSelf" as const }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(values(v), fc.integer({ min: 1, max: 30 }))
        .map(([vs, c]) => ({ k: "mergeOther" as const, vs, c })),
    },
  );
}

/** Runs one operation and returns what it answered (a digest's state is compared through toBytes). */
function apply(d: TDigest, op: Op): unknown {
  switch (op.k) {
    case "add":
      d.add(...op.vs);
      return null;
    case "addAll":
      d.addAll(op.vs);
      return null;
    case "quantile":
      return d.quantile(op.q);
    case "quantiles":
      return d.quantiles(op.qs);
    case "cdf":
      return d.cdf(op.v);
    case "rank":
      return d.rank(op.v);
    case "revRank":
      return d.revRank(op.v);
    case "byRank":
      return d.byRank(op.r);
    case "byRevRank":
      return d.byRevRank(op.r);
    case "trimmedMean":
      return d.trimmedMean(op.lo, op.hi);
    case "minmax":
      return [d.min(), d.max(), d.size];
    case "info":
      return d.info();
    case "toRedis":
      return d.toRedis();
    case "clear":
      d.clear();
      return null;
    case "mergeSelf":
      d.merge(d);
      return null;
    case "mergeOther":
      d.merge(TDigest.from(op.vs, { compression: op.c }));
      return null;
  }
}

/** Deep equality where numbers compare with Object.is (−0 ≠ 0, NaN = NaN). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" || typeof b === "number") return Object.is(a, b);
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => same((a as never)[k], (b as never)[k]));
  }
  return a === b;
}

/** Runs `ops` on both digests, checking that every answer is the same and both stay consistent. */
function expectAlike(a: TDigest, b: TDigest, ops: Op[]): void {
  for (const op of ops) {
    const x = apply(a, op);
    const y = apply(b, op);
    if (!same(x, y)) expect.fail(`${JSON.stringify(op)}: ${String(x)} ≠ ${String(y)}`);
    a.checkInvariants();
    b.checkInvariants();
  }
  expect(a.toBytes()).toEqual(b.toBytes());
}

const compression = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(20, 50, 100));

// ——— against exact statistics of the data ————————————————————————————————————————————

describe("TDigest against the data it holds", () => {
  it("min, max, size, byRank(0), byRevRank(0), rank/revRank outside [min, max] are exact (seeded)", () => {
    fc.assert(
      fc.property(compression, values(value, 300), (c, vs) => {
        const d = new TDigest({ compression: c });
        d.addAll(vs);
        d.checkInvariants();
        expect(d.size).toBe(vs.length);
        if (vs.length === 0) {
          expect(d.min()).toBeNaN();
          expect(d.max()).toBeNaN();
          expect(d.rank(0)).toBe(-2);
          expect(d.byRank(0)).toBeNaN();
          expect(d.quantile(0.5)).toBeNaN();
          return;
        }
        // MIN/MAX keep the first of equal values (−0 vs 0): a strict comparison, as RedisBloom's.
        let min = vs[0]!;
        let max = vs[0]!;
        for (const v of vs) {
          if (v < min) min = v;
          if (v > max) max = v;
        }
        expect(Object.is(d.min(), min)).toBe(true);
        expect(Object.is(d.max(), max)).toBe(true);
        expect(Object.is(d.byRank(0), min)).toBe(true);
        expect(Object.is(d.byRevRank(0), max)).toBe(true);
        expect(d.byRank(vs.length)).toBe(Number.POSITIVE_INFINITY);
        expect(d.byRevRank(vs.length)).toBe(Number.NEGATIVE_INFINITY);
        expect(d.rank(Number.NEGATIVE_INFINITY)).toBe(-1);
        expect(d.rank(Number.POSITIVE_INFINITY)).toBe(vs.length);
        expect(d.revRank(Number.POSITIVE_INFINITY)).toBe(-1);
        expect(d.revRank(Number.NEGATIVE_INFINITY)).toBe(vs.length);
        expect(d.cdf(Number.NEGATIVE_INFINITY)).toBe(vs.length > 1 ? 0 : Number.NaN);
        expect(d.info().size).toBe(vs.length);
      }),
      { seed: 0x7d01, numRuns: 300 },
    );
  });

  it("while no centroid has merged, trimmedMean(0, 1) is the exact mean of the sorted data (seeded)", () => {
    // With compression c and n ≤ 40 observations, z = 2c/(2π·n·ln n) > 1/4 ≥ q(1 − q): nothing merges.
    fc.assert(
      fc.property(values(moderate, 40), (vs) => {
        fc.pre(vs.length >= 2);
        const d = TDigest.from(vs, { compression: 200 });
        const sorted = [...vs].sort((a, b) => a - b);
        let sum = 0;
        for (const v of sorted) sum += v;
        expect(d.trimmedMean(0, 1)).toBe(sum / vs.length);
        expect(d.info().mergedNodes).toBe(vs.length);
        const q = d.quantiles([0, 1]);
        expect(q[1]).toBe(sorted[sorted.length - 1]);
        expect(q[0]).toBe(sorted[0]);
      }),
      { seed: 0x7d02, numRuns: 300 },
    );
  });

  it("cdf answers within [0, 1] and ranks within [−1, size] on ordinary data (seeded)", () => {
    fc.assert(
      fc.property(compression, values(moderate, 400), moderate, (c, vs, x) => {
        fc.pre(vs.length >= 2);
        const d = TDigest.from(vs, { compression: c });
        const p = d.cdf(x);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        const r = d.rank(x);
        expect(r).toBeGreaterThanOrEqual(-1);
        expect(r).toBeLessThanOrEqual(vs.length);
        const rr = d.revRank(x);
        expect(rr).toBeGreaterThanOrEqual(-1);
        expect(rr).toBeLessThanOrEqual(vs.length);
      }),
      { seed: 0x7d03, numRuns: 300 },
    );
  });
});

// ——— monotonicity ——————————————————————————————————————————————————————————————————

describe("TDigest monotonicity", () => {
  it("quantile is non-decreasing in q, one call at a time and in one ascending quantiles() run (seeded)", () => {
    fc.assert(
      fc.property(
        compression,
        values(moderate, 500),
        fc.array(quantile, { minLength: 2, maxLength: 20 }),
        (c, vs, qs) => {
          const d = TDigest.from(vs, { compression: c });
          const sorted = [...qs].sort((a, b) => a - b);
          const one = sorted.map((q) => d.quantile(q));
          const run = d.quantiles(sorted);
          expect(run).toEqual(one);
          for (let i = 1; i < one.length; i++) {
            if (Number.isNaN(one[i]!) || Number.isNaN(one[i - 1]!)) continue;
            expect(one[i]!).toBeGreaterThanOrEqual(one[i - 1]!);
          }
        },
      ),
      { seed: 0x7d04, numRuns: 400 },
    );
  });

  it("cdf is non-decreasing in the value (seeded)", () => {
    fc.assert(
      fc.property(
        compression,
        values(moderate, 500),
        fc.array(moderate, { minLength: 2, maxLength: 20 }),
        (c, vs, xs) => {
          const d = TDigest.from(vs, { compression: c });
          const sorted = [...xs, ...vs.slice(0, 10)].sort((a, b) => a - b);
          const ps = d.cdfs(sorted);
          for (let i = 1; i < ps.length; i++) {
            if (Number.isNaN(ps[i]!) || Number.isNaN(ps[i - 1]!)) continue;
            expect(ps[i]!).toBeGreaterThanOrEqual(ps[i - 1]!);
          }
        },
      ),
      { seed: 0x7d05, numRuns: 400 },
    );
  });
});

// ——— merging ———————————————————————————————————————————————————————————————————————

/** The centroid means of `d` after its buffer merges (td_merge adds these, with their weights). */
function centroidMeans(d: TDigest): Float64Array {
  d.cdf(0);
  const s = decodeBytes(d.toBytes(), TDIGEST_MAX_COMPRESSION);
  for (const w of s.weights) expect(w).toBe(1n);
  return s.means;
}

describe("TDigest merge semantics (RedisBloom's td_merge)", () => {
  // Sources of compression 1000 hold at most 60 observations: every centroid stays one observation.
  const source = values(value, 60).map((vs) => TDigest.from(vs, { compression: 1000 }));

  it("union: the digest that merges its buffer before each source, then adds that source's observations in sorted order (seeded)", () => {
    fc.assert(
      fc.property(fc.array(source, { minLength: 1, maxLength: 5 }), fc.option(compression), (sources, c) => {
        const copies = sources.map((s) => s.clone());
        const u = TDigest.union(sources, c === null ? undefined : { compression: c });
        const expected = new TDigest({ compression: c ?? 1000 });
        for (const s of copies) {
          expected.cdf(0); // merges the buffer, as td_merge does before adding each source
          expected.addAll(centroidMeans(s));
        }
        u.checkInvariants();
        expect(u.toBytes()).toEqual(expected.toBytes());
        // The sources' buffers were merged in place, nothing else.
        for (let i = 0; i < sources.length; i++) expect(sources[i]!.toBytes()).toEqual(copies[i]!.toBytes());
      }),
      { seed: 0x7d06, numRuns: 200 },
    );
  });

  it("merge in place: a union that starts from the digest itself, at its compression (seeded)", () => {
    fc.assert(
      fc.property(compression, values(value, 300), fc.array(source, { maxLength: 4 }), (c, vs, others) => {
        const d = TDigest.from(vs, { compression: c });
        const copy = d.clone();
        const otherCopies = others.map((o) => o.clone());
        const expected = others.length === 0 ? copy : TDigest.union([copy, ...otherCopies], { compression: c });
        expect(d.merge(...others)).toBe(d);
        expect(d.toBytes()).toEqual(expected.toBytes());
        const viaIterable = copy.clone();
        viaIterable.merge(new Set(otherCopies));
        d.checkInvariants();
      }),
      { seed: 0x7d07, numRuns: 200 },
    );
  });

  it("merging a digest with itself counts it twice; weights past 2^53 go on in 64 bits up to RedisBloom's overflow", () => {
    const d = TDigest.from([-3, -1, -2, -5, -4], { compression: 20 });
    const one = TDigest.from([-2.5], { compression: 20 });
    let expected = 5n;
    let threw = false;
    for (let i = 0; i < 70 && !threw; i++) {
      try {
        d.merge(d, one);
      } catch (e) {
        expect(e).toBeInstanceOf(RangeError);
        expect((e as Error).message).toMatch(/overflow detected/);
        threw = true;
        continue;
      }
      expected = 2n * expected + 1n;
      d.checkInvariants();
      // Exact below 2^53; beyond it td_compress rounds the total through a double, as RedisBloom does.
      if (expected < 2n ** 53n) expect(exactWeights(d).size).toBe(expected);
      expect(d.size).toBe(Number(exactWeights(d).size));
      const back = TDigest.fromBytes(d.toBytes());
      expect(back.toBytes()).toEqual(d.toBytes());
      expect(back.quantiles([0, 0.5, 1])).toEqual(d.quantiles([0, 0.5, 1]));
    }
    expect(threw).toBe(true);
  });
});

describe("TDigest round trips", () => {
  const ops = fc.array(opOf(value), { maxLength: 30 });
  it("fromBytes(toBytes()) and clone() answer every later call alike (seeded)", () => {
    fc.assert(
      fc.property(compression, ops, ops, (c, build, after) => {
        const d = new TDigest({ compression: c });
        for (const op of build) {
          apply(d, op);
          d.checkInvariants();
        }
        const bytes = d.toBytes();
        const back = TDigest.fromBytes(bytes);
        expect(back.toBytes()).toEqual(bytes);
        const copy = d.clone();
        expectAlike(d, back, after);
        expectAlike(copy, TDigest.fromBytes(bytes), after);
      }),
      { seed: 0x7d08, numRuns: 300 },
    );
  });
  it("fromRedis(toRedis()): the same payload again, and the same answers afterwards (seeded)", () => {
    fc.assert(
      fc.property(compression, ops, ops, (c, build, after) => {
        const d = new TDigest({ compression: c });
        for (const op of build) apply(d, op);
        const payload = d.toRedis();
        const restored = TDigest.fromRedis(payload);
        restored.checkInvariants();
        expect(restored.info()).toEqual(d.info());
        // A digest of total weight ≤ 1 keeps its buffer, which DUMP does not save (RESTORE zeroes it).
        if (d.info().unmergedNodes > 0) return;
        expect(restored.toRedis()).toEqual(payload);
        expectAlike(d, restored, after);
      }),
      { seed: 0x7d09, numRuns: 300 },
    );
  });
  it("from, clear and byteLength", () => {
    const d = TDigest.from([3, 1, 2], { compression: 10 });
    expect(d.size).toBe(3);
    expect(d.compression).toBe(10);
    expect(d.byteLength).toBe(2 * 8 * 64);
    expect(d.quantile(0.5)).toBe(2);
    expect(d.byteLength).toBe(2 * 8 * 64 + 8 * 3); // and the quantile walk's running sums
    d.clear();
    expect(d.size).toBe(0);
    expect(d.info()).toEqual(new TDigest({ compression: 10 }).info());
    expect(d.toRedis()).toEqual(new TDigest({ compression: 10 }).toRedis());
    d.checkInvariants();
  });
});

describe("TDigest memory", () => {
  it("the largest compression allocates nothing in proportion to it until data arrives", () => {
    const d = new TDigest({ compression: TDIGEST_MAX_COMPRESSION });
    expect(d.info().capacity).toBe(2_147_483_644);
    expect(d.info().byteLength).toBe(8 + 16 * 2_147_483_644);
    expect(d.byteLength).toBeLessThanOrEqual(1024);
    d.addAll(Array.from({ length: 5000 }, (_, i) => i));
    expect(d.byteLength).toBeLessThanOrEqual(16 * 8192 + 8192 * 8);
    expect(d.quantile(0.5)).toBe(2500);
    d.checkInvariants();
  });
});

describe("TDigest on tied data", () => {
  it("a digest of all-equal values answers as one of distinct values does where they must agree", () => {
    const c = 1000;
    const cap = 6 * c + 10;
    const d = new TDigest({ compression: c });
    d.addAll(new Float64Array(3 * cap).fill(42.5));
    d.checkInvariants();
    expect(d.quantile(0.5)).toBe(42.5);
    expect(d.cdf(42.5)).toBe(0.5);
    expect(d.min()).toBe(42.5);
    expect(d.max()).toBe(42.5);
    expect(d.size).toBe(3 * cap);
  });
});
