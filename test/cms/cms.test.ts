/**
 * CountMinSketch against the exact counts of its stream: it never under-counts, size is the
 * multiset's size, union is the sketch of the weighted combined stream and merge adds in place,
 * counters saturate at 2^32 − 1 while the total stays a 64-bit signed count (seeded).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CMS_SATURATED, CountMinSketch } from "../../src/cms/index.js";
import { dims, exactSize, sketchOf, stream } from "../support/cms.js";

describe("CountMinSketch behaviour", () => {
  it("saturates at 2^32 − 1 and keeps a 64-bit signed total", () => {
    const s = new CountMinSketch({ width: 10, depth: 2 });
    expect(s.incrBy("a", 4294967294)).toBe(4294967294);
    expect(s.incrBy("a", 1)).toBe(CMS_SATURATED);
    expect(s.incrBy("a", 7)).toBe(CMS_SATURATED);
    expect(s.incrBy("b", 2 ** 40)).toBe(CMS_SATURATED);
    expect(s.incrBy("d", (1n << 63n) - 1n)).toBe(CMS_SATURATED);
    const exact = BigInt.asIntN(64, 4294967302n + (1n << 40n) + (1n << 63n) - 1n);
    expect(exactSize(s)).toBe(exact);
    expect(s.size).toBe(Number(exact)); // past 2^53: the nearest double
    expect(s.info().size).toBe(Number(exact));
    expect(() => s.incrBy("e", 1n << 63n)).toThrow(RangeError);
  });
  it("merge adds in place (HyperLogLog's calling style): 10 and 5 of one item give 15", () => {
    const a = new CountMinSketch({ width: 100, depth: 4 });
    const b = new CountMinSketch({ width: 100, depth: 4 });
    a.incrBy("x", 10);
    b.incrBy("x", 5);
    expect(a.merge(b)).toBe(a);
    expect(a.count("x")).toBe(15);
    expect(a.size).toBe(15);
    const c = new CountMinSketch({ width: 100, depth: 4 });
    c.incrBy("y", 1);
    const viaArgs = a.clone().merge(b, c);
    const viaIterable = a.clone().merge(new Set([b, c]));
    expect(viaArgs.toBytes()).toEqual(viaIterable.toBytes());
    expect(viaArgs.count("x")).toBe(20);
    expect(viaArgs.count("y")).toBe(1);
    expect(a.clone().merge(a).count("x")).toBe(30); // itself: counted twice, as CMS.MERGE a 2 a a
  });
  it("never under-counts; size is the multiset's size (seeded)", () => {
    fc.assert(
      fc.property(dims, stream, ([w, d], pairs) => {
        const s = new CountMinSketch({ width: w, depth: d });
        const truth = new Map<string, number>();
        let total = 0;
        for (const [item, n] of pairs) {
          const t = (truth.get(item) ?? 0) + n;
          truth.set(item, t);
          total += n;
          expect(s.incrBy(item, n)).toBeGreaterThanOrEqual(t);
          s.checkInvariants();
        }
        for (const [item, t] of truth) {
          expect(s.count(item)).toBeGreaterThanOrEqual(t);
          expect(s.count(item)).toBeLessThanOrEqual(total);
        }
        expect(s.size).toBe(total);
        expect(s.info().size).toBe(total);
      }),
      { seed: 0xc35, numRuns: 300 },
    );
  });
  it("union is the sketch of the weighted combined stream; merge adds in place (seeded)", () => {
    fc.assert(
      fc.property(
        dims,
        stream,
        stream,
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        ([w, d], s1, s2, w1, w2) => {
          const a = sketchOf(w, d, s1);
          const b = sketchOf(w, d, s2);
          const combined = new CountMinSketch({ width: w, depth: d });
          for (const [item, n] of s1) combined.incrBy(item, n * w1);
          for (const [item, n] of s2) combined.incrBy(item, n * w2);
          const aBytes = a.toBytes();
          const union = CountMinSketch.union([a, b], { weights: [w1, w2] });
          union.checkInvariants();
          expect(union.toBytes()).toEqual(combined.toBytes());
          expect(a.toBytes()).toEqual(aBytes); // the inputs are not changed
          expect(CountMinSketch.union([a, b]).toBytes()).toEqual(sketchOf(w, d, [...s1, ...s2]).toBytes());
          // merge(b) adds b into a: the sketch of both streams, counted in a.
          expect(a.merge(b)).toBe(a);
          a.checkInvariants();
          expect(a.toBytes()).toEqual(sketchOf(w, d, [...s1, ...s2]).toBytes());
          expect(a.toBytes()).toEqual(CountMinSketch.union([CountMinSketch.fromBytes(aBytes), b]).toBytes());
        },
      ),
      { seed: 0xc36, numRuns: 200 },
    );
  });
});
