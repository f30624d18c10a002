/**
 * BlockedBloomFilter against a Set model: no false negative, batches mirror single calls, all k bits
 * of a key in one 512-bit block, its target met on disjoint keys and its own rate estimate matching
 * the measured one, merge/union/intersect, copies and clearing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { H, hashElement, scaleHi, scaleLo } from "../../src/bloom/hashing.js";
import { BlockedBloomFilter, BloomFilter, blockedParameters } from "../../src/bloom/index.js";
import { anyBlockedElement, capacity, errorRate } from "../support/bloom.js";
import { expectBatchesMirrorSingles, expectMergeUnionIntersect, expectSetModel } from "../support/membership.js";

describe("BlockedBloomFilter", () => {
  const shape = fc.record({ capacity, errorRate });
  it("never gives a false negative, and add() returns !has() before it (model: a Set)", () => {
    fc.assert(
      fc.property(shape, fc.array(anyBlockedElement, { maxLength: 300 }), (opts, values) => {
        const bf = new BlockedBloomFilter(opts);
        expectSetModel(bf, values);
      }),
      { seed: 702, numRuns: 200 },
    );
  });
  it("addAll / hasAll mirror add / has element by element", () => {
    fc.assert(
      fc.property(
        fc.array(anyBlockedElement, { maxLength: 100 }),
        fc.array(anyBlockedElement, { maxLength: 100 }),
        (a, b) => expectBatchesMirrorSingles(() => new BlockedBloomFilter({ capacity: 50, errorRate: 0.05 }), a, b),
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
      fc.property(
        fc.array(anyBlockedElement, { maxLength: 200 }),
        fc.array(anyBlockedElement, { maxLength: 200 }),
        (a, b) =>
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
});
