import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { H, hashElement, scaleHi, scaleLo } from "../../src/bloom/hashing.js";
import { BlockedBloomFilter, BloomFilter, blockedParameters, bloomParameters } from "../../src/bloom/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { corruptionsOf, expectOnlyFormatErrors } from "../support/fuzz.js";
import { expectBatchesMirrorSingles, expectMergeUnionIntersect, expectSetModel } from "../support/membership.js";

const anyElement = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.uint8Array({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
);

const capacity = fc.integer({ min: 1, max: 2000 });
const errorRate = fc.double({ min: 1e-6, max: 0.5, noNaN: true });

/** The blocked-filter rate Σ_i Poisson(i; n/B)·(1 − (1 − 1/512)^(k·i))^k, written out independently. */
function model(blocks: number, k: number, n: number): number {
  const lambda = n / blocks;
  let pmf = Math.exp(-lambda);
  let sum = 0;
  for (let i = 0; i < lambda * 4 + 60; i++) {
    if (i > 0) pmf *= lambda / i;
    sum += pmf * (1 - (1 - 1 / 512) ** (k * i)) ** k;
  }
  return sum;
}

describe("blockedParameters", () => {
  it("meets the target by the blocked formula, with the fewest blocks, never fewer bits than the standard filter", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.double({ min: 1e-6, max: 0.2, noNaN: true }), (n, p) => {
        const r = blockedParameters(n, p);
        expect(r.bits).toBe(r.blocks * 512);
        expect(r.bitsPerElement).toBe(r.bits / n);
        expect(r.falsePositiveRate).toBeLessThanOrEqual(p);
        expect(model(r.blocks, r.hashes, n)).toBeCloseTo(r.falsePositiveRate, 10);
        if (r.blocks > 1) {
          // One block fewer misses the target at every k.
          for (let k = 1; k <= 64; k++) expect(model(r.blocks - 1, k, n)).toBeGreaterThan(p * (1 - 1e-9));
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

describe("BlockedBloomFilter", () => {
  const shape = fc.record({ capacity, errorRate });

  it("never gives a false negative, and add() returns !has() before it (model: a Set)", () => {
    fc.assert(
      fc.property(shape, fc.array(anyElement, { maxLength: 300 }), (opts, values) => {
        const bf = new BlockedBloomFilter(opts);
        expectSetModel(bf, values);
      }),
      { seed: 702, numRuns: 200 },
    );
  });

  it("addAll / hasAll mirror add / has element by element", () => {
    fc.assert(
      fc.property(fc.array(anyElement, { maxLength: 100 }), fc.array(anyElement, { maxLength: 100 }), (a, b) =>
        expectBatchesMirrorSingles(() => new BlockedBloomFilter({ capacity: 50, errorRate: 0.05 }), a, b),
      ),
      { seed: 703 },
    );
  });

  it("sets all k bits of a key inside block ⌊h1·B/2^64⌋", () => {
    const bf = new BlockedBloomFilter({ capacity: 5000, errorRate: 0.01 });
    const B = bf.blocks;
    for (let i = 0; i < 200; i++) {
      const v = `key-${i}`;
      hashElement(v);
      const block = (H[1]! * scaleHi(B) + H[0]! * scaleLo(B)) | 0;
      bf.clear();
      bf.add(v);
      expect(bf.setBits).toBeGreaterThanOrEqual(1);
      expect(bf.setBits).toBeLessThanOrEqual(bf.hashes);
      const words = new DataView(bf.toBytes().buffer, 40);
      let inside = 0;
      for (let w = block * 16; w < block * 16 + 16; w++) {
        let x = words.getUint32(w * 4, true);
        while (x !== 0) {
          inside += x & 1;
          x >>>= 1;
        }
      }
      expect(inside).toBe(bf.setBits);
    }
  });

  it("meets its target on disjoint keys, and falsePositiveRate()/count() match what is measured", () => {
    for (const [n, p, queries] of [
      [10_000, 0.01, 200_000],
      [10_000, 0.001, 400_000],
    ] as const) {
      const bf = new BlockedBloomFilter({ capacity: n, errorRate: p });
      for (let i = 0; i < n; i++) bf.add(`member:${i}`);
      bf.checkInvariants();
      expect(Math.abs(bf.count() / n - 1)).toBeLessThan(0.03);
      let fp = 0;
      for (let i = 0; i < queries; i++) if (bf.has(`other:${i}`)) fp++;
      const measured = fp / queries;
      const sigma = Math.sqrt((p * (1 - p)) / queries);
      // Target met within sampling error (4σ), and the reported rate is honest (within 4σ).
      expect(measured).toBeLessThan(p + 4 * sigma);
      expect(Math.abs(measured - bf.falsePositiveRate())).toBeLessThan(4 * sigma);
      // The formula it was sized by predicts the measurement too.
      expect(Math.abs(measured - blockedParameters(n, p).falsePositiveRate)).toBeLessThan(4 * sigma);
    }
  });

  it("a standard filter with the blocked filter's bits does better (the price of blocking is real)", () => {
    const n = 10_000;
    const blocked = new BlockedBloomFilter({ capacity: n, errorRate: 0.01 });
    const plain = new BloomFilter({ bits: blocked.bits, hashes: 7 });
    for (let i = 0; i < n; i++) {
      blocked.add(`m:${i}`);
      plain.add(`m:${i}`);
    }
    expect(blocked.falsePositiveRate()).toBeGreaterThan(plain.falsePositiveRate());
  });

  it("merge (in place) equals the filter of both sets, as static union (new); intersect keeps the common values", () => {
    fc.assert(
      fc.property(fc.array(anyElement, { maxLength: 200 }), fc.array(anyElement, { maxLength: 200 }), (a, b) =>
        expectMergeUnionIntersect(
          () => new BlockedBloomFilter({ capacity: 150, errorRate: 0.02 }),
          BlockedBloomFilter,
          a,
          b,
        ),
      ),
      { seed: 303, numRuns: 100 },
    );
  });

  it("merge/union/intersect refuse a filter of another shape or class", () => {
    const a = new BlockedBloomFilter({ capacity: 1000, errorRate: 0.01 });
    expect(() => a.merge(new BlockedBloomFilter({ capacity: 1001, errorRate: 0.01 }))).toThrow(RangeError);
    expect(() =>
      BlockedBloomFilter.intersect([a, new BlockedBloomFilter({ capacity: 1000, errorRate: 0.02 })]),
    ).toThrow(/same shape/);
    expect(() => a.merge(new BloomFilter({ capacity: 1000, errorRate: 0.01 }) as never)).toThrow(
      /others\[0\] must be a BlockedBloomFilter, got a BloomFilter/,
    );
  });

  it("clone is independent", () => {
    const a = BlockedBloomFilter.from(["x", "y"], { errorRate: 0.01, capacity: 50 });
    const b = a.clone();
    b.add("z");
    a.add("w");
    expect([a.has("z"), b.has("w"), a.size, b.size]).toEqual([false, false, 3, 3]);
    a.clear();
    expect(b.hasAll(["x", "y", "z"])).toEqual([true, true, true]);
    b.checkInvariants();
  });

  it("clear empties; from() holds its input; shape getters", () => {
    const bf = BlockedBloomFilter.from(["x", "y", "z"], { errorRate: 0.01 });
    expect(bf.hasAll(["x", "y", "z"])).toEqual([true, true, true]);
    expect(bf.size).toBe(3);
    const p = blockedParameters(3, 0.01);
    expect([bf.blocks, bf.bits, bf.hashes, bf.capacity, bf.errorRate]).toEqual([p.blocks, p.bits, p.hashes, 3, 0.01]);
    expect(bf.byteLength).toBe(p.blocks * 64);
    bf.clear();
    bf.checkInvariants();
    expect([bf.size, bf.setBits, bf.count(), bf.falsePositiveRate()]).toEqual([0, 0, 0, 0]);
    expect(bf.has("x")).toBe(false);
  });

  it("rejects bad options and elements", () => {
    const make = (o: unknown) => () => new BlockedBloomFilter(o as { capacity: number; errorRate: number });
    expect(make(undefined)).toThrow(TypeError);
    expect(make(null)).toThrow(TypeError);
    expect(make({})).toThrow(TypeError);
    expect(make({ capacity: 10 })).toThrow(TypeError);
    expect(make({ capacity: "10", errorRate: 0.1 })).toThrow(TypeError);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(make({ capacity: bad, errorRate: 0.01 })).toThrow(/redstruct\/BlockedBloomFilter: capacity must be/);
      expect(make({ capacity: bad, errorRate: 0.01 })).toThrow(RangeError);
    }
    for (const bad of [0, 1, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(make({ capacity: 10, errorRate: bad })).toThrow(
        /redstruct\/BlockedBloomFilter: errorRate must be a finite number in \(0, 1\)/,
      );
    }
    expect(make({ capacity: 1e9, errorRate: 1e-9 })).toThrow(RangeError);
    const bf = new BlockedBloomFilter({ capacity: 10, errorRate: 0.1 });
    expect(() => bf.add({} as unknown as string)).toThrow(TypeError);
    expect(() => bf.has(null as unknown as string)).toThrow(TypeError);
  });
});

describe("BlockedBloomFilter serialization", () => {
  it("round-trips exactly, with a 40-byte header over the raw blocks", () => {
    fc.assert(
      fc.property(fc.record({ capacity, errorRate }), fc.array(anyElement, { maxLength: 100 }), (opts, values) => {
        const bf = new BlockedBloomFilter(opts);
        bf.addAll(values);
        const bytes = bf.toBytes();
        expect(bytes.length).toBe(40 + bf.byteLength);
        const back = BlockedBloomFilter.fromBytes(bytes);
        back.checkInvariants();
        expect(back.toBytes()).toEqual(bytes);
        expect([back.blocks, back.hashes, back.size, back.setBits]).toEqual([
          bf.blocks,
          bf.hashes,
          bf.size,
          bf.setBits,
        ]);
        for (const v of values) expect(back.has(v)).toBe(true);
      }),
      { seed: 801, numRuns: 100 },
    );
  });

  it("reads from an unaligned view", () => {
    const bf = new BlockedBloomFilter({ capacity: 100, errorRate: 0.01 });
    bf.addAll(["a", "b"]);
    const bytes = bf.toBytes();
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(BlockedBloomFilter.fromBytes(shifted.subarray(1)).toBytes()).toEqual(bytes);
  });

  it("fuzzed input only throws RedstructFormatError", () => {
    const bf = new BlockedBloomFilter({ capacity: 20, errorRate: 0.1 });
    bf.addAll(["a", "b", "c"]);
    expectOnlyFormatErrors(BlockedBloomFilter.fromBytes, bf.toBytes(), { seed: 802, use: (f) => f.has("probe") });
  });

  it("rejects specific corruptions", () => {
    const bf = new BlockedBloomFilter({ capacity: 100, errorRate: 0.01 });
    bf.add("x");
    const { bad, patch } = corruptionsOf(BlockedBloomFilter.fromBytes, bf.toBytes());
    bad(patch(0, 0x58), /not a BlockedBloomFilter.s toBytes\(\) output/);
    bad(patch(3, 0x46), /these bytes are a BloomFilter.s toBytes\(\): read them with BloomFilter.fromBytes/);
    bad(patch(4, 2), /version/);
    bad(patch(5, 9), /hashing scheme/);
    bad(patch(5, 1), /unknown hashing scheme 1/);
    bad(patch(6, 0), /hash count/);
    bad(patch(6, bf.hashes + 1), /needs/);
    bad(patch(7, 1), /flags/);
    bad((b) => b.subarray(0, b.length - 1), /truncated/);
    bad((b) => Uint8Array.from([...b, 0]), /trailing/);
    bad(patch(8, 0xff, 0xff, 0xff, 0x7f), /block count|truncated/);
    bad(patch(16, 0), /item count/); // bits set but no items
    bad(patch(24, 0), /capacity/);
    bad(patch(24, 200), /needs/); // another capacity, another shape
    expect(() => BlockedBloomFilter.fromBytes(new BloomFilter({ bits: 100, hashes: 3 }).toBytes())).toThrow(
      RedstructFormatError,
    );
    expect(() => BlockedBloomFilter.fromBytes("RSBB" as unknown as Uint8Array)).toThrow(TypeError);
  });
});
