/**
 * What a call that throws leaves behind. RedisBloom's TDIGEST.MERGE builds the new digest with
 * td_merge(new, source) for the destination (when it exists and OVERRIDE is not given) and then each
 * source in order, and td_merge merges the buffers of both digests in place before adding anything
 * (facts from test/vectors/redisbloom/README.md, "MERGE"); "overflow detected" comes while adding, so
 * the key keeps its buffer merged — and the recorded vectors show it: in the weight-chain case, a
 * MERGE that fails and leaves the destination untouched would make a later TDIGEST.CDF answer
 * −0.01402 where RedisBloom answered −0.01147 (vectors.test.ts replays it). So a failed
 * merge here leaves this digest, and every source merged before the overflow, with its buffer merged
 * — exactly a clone whose buffer a query merged — and changes nothing else; sources after it are
 * untouched. TDIGEST.ADD adds the values before an overflow, as RedisBloom does. Every argument error
 * changes nothing.
 */
import { describe, expect, it } from "vitest";
import { TDigest } from "../../src/tdigest/index.js";
import type { DigestState } from "../../src/tdigest/redis.js";
import { encodeBytes } from "../../src/tdigest/serialize.js";

const OVERFLOW = /overflow detected/;

/** A digest whose total weight is in [2^62, 2^63) (through self-merges), with `buffered` values in its buffer. */
function heavy(buffered: number): TDigest {
  const d = TDigest.from([-3, -1, -2, -5, -4, 7, 7, 7], { compression: 20 });
  while (d.size < 2 ** 62) d.merge(d);
  d.cdf(0);
  d.addAll(Array.from({ length: buffered }, (_, i) => (i % 5) - 2));
  return d;
}

/** A clone of `d` with its buffer merged, as td_compress merges it (a query does). */
function compressed(d: TDigest): TDigest {
  const c = d.clone();
  c.cdf(0);
  return c;
}

/** `a` and `b` in the same state, answering alike: bytes, info, quantiles, and after the same adds. */
function expectSame(a: TDigest, b: TDigest): void {
  expect(a.toBytes()).toEqual(b.toBytes());
  expect(a.info()).toEqual(b.info());
  const qs = [0, 0.001, 0.1, 0.5, 0.9, 0.999, 1];
  const x = a.clone();
  const y = b.clone();
  expect(x.quantiles(qs)).toEqual(y.quantiles(qs));
  x.add(0.5, 0.25);
  y.add(0.5, 0.25);
  expect(x.toBytes()).toEqual(y.toBytes());
}

describe("a merge that overflows leaves what RedisBloom's MERGE leaves", () => {
  it("d.merge(d): d with its buffer merged, nothing else", () => {
    const d = heavy(30);
    const before = d.clone();
    expect(before.info().unmergedNodes).toBe(30);
    expect(() => d.merge(d)).toThrow(RangeError);
    d.checkInvariants();
    expect(d.info().unmergedNodes).toBe(0);
    expect(d.info().totalCompressions).toBe(before.info().totalCompressions + 1);
    expect(d.size).toBe(before.size);
    expectSame(d, compressed(before));
    // Failing again changes nothing more: the buffer is already merged.
    const once = d.toBytes();
    expect(() => d.merge(d)).toThrow(OVERFLOW);
    expect(d.toBytes()).toEqual(once);
  });

  it("d.merge(a, b, c) failing at b: d, a and b with their buffers merged, c untouched", () => {
    // d and b each weigh at least 2^62: adding b's centroids passes 2^63 − 1.
    const d = heavy(5);
    const a = TDigest.from([6, 7, 8], { compression: 10 });
    const b = heavy(12);
    const c = TDigest.from([9, 10], { compression: 10 });
    const [d0, a0, b0, c0] = [d, a, b, c].map((x) => x.clone());
    for (const x of [d0, a0, b0, c0]) expect(x!.info().unmergedNodes).toBeGreaterThan(0);
    expect(() => d.merge(a, b, c)).toThrow(OVERFLOW);
    for (const x of [d, a, b, c]) x.checkInvariants();
    expectSame(d, compressed(d0!));
    expectSame(a, compressed(a0!));
    expectSame(b, compressed(b0!));
    expectSame(c, c0!);
  });

  it("TDigest.union failing at the second source: the first two with their buffers merged, the third untouched", () => {
    const a = heavy(7);
    const b = heavy(9);
    const c = TDigest.from([1, 2, 3]);
    const [a0, b0, c0] = [a, b, c].map((x) => x.clone());
    expect(() => TDigest.union([a, b, c])).toThrow(OVERFLOW);
    expectSame(a, compressed(a0!));
    expectSame(b, compressed(b0!));
    expectSame(c, c0!);
  });
});

describe("an add that overflows keeps the values before it, as TDIGEST.ADD does", () => {
  it("the value that passes 2^63 − 1 throws; those before it stay added; none after it is", () => {
    // Two centroids of 2^61 and a buffered node of 2^62 − 2: a total of 2^63 − 2.
    const state: DigestState = {
      compression: 100,
      min: -1,
      max: 1,
      mergedNodes: 2,
      unmergedNodes: 1,
      totalCompressions: 1,
      mergedWeight: 2n ** 62n,
      unmergedWeight: 2n ** 62n - 2n,
      means: Float64Array.from([-1, 1, 0]),
      weights: BigInt64Array.from([2n ** 61n, 2n ** 61n, 2n ** 62n - 2n]),
    };
    const d = TDigest.fromBytes(encodeBytes(state));
    d.checkInvariants();
    expect(() => d.add(0.5, 0.75, 0.25)).toThrow(OVERFLOW);
    d.checkInvariants();
    expect(d.info().unmergedNodes).toBe(2);
    const nodes = TDigest.fromBytes(d.toBytes());
    expect(nodes.max()).toBe(1);
    // One value went in (0.5); the second would pass 2^63 − 1; the third was never tried.
    const expected = TDigest.fromBytes(encodeBytes(state)).add(0.5);
    expect(d.toBytes()).toEqual(expected.toBytes());
  });
});

describe("argument errors change nothing", () => {
  it("merge and union with a bad element anywhere, a bad option, or an iterable that throws midway", () => {
    const d = TDigest.from([1, 2, 3, 4], { compression: 5 });
    d.quantile(0.5);
    d.add(7, 8);
    const other = TDigest.from([5, 6]);
    const [dBytes, otherBytes] = [d.toBytes(), other.toBytes()];
    function* throwing() {
      yield other;
      throw new Error("source failed");
    }
    expect(() => d.merge(other, {} as never)).toThrow(/merge argument 1 must be a TDigest/);
    expect(() => d.merge([other, d, 5] as never)).toThrow(/merge argument 2 must be a TDigest/);
    expect(() => d.merge(throwing())).toThrow(/source failed/);
    expect(() => TDigest.union([other, d, null as never])).toThrow(/digests\[2\] must be a TDigest/);
    expect(() => TDigest.union([other, d], { compression: 0 })).toThrow(RangeError);
    expect(() => TDigest.union([other, d], { compresion: 5 } as never)).toThrow(/unknown option/);
    expect(() => TDigest.union(throwing())).toThrow(/source failed/);
    expect(d.toBytes()).toEqual(dBytes);
    expect(other.toBytes()).toEqual(otherBytes);
  });

  it("queries refused for their arguments merge nothing, whatever comes later in a list", () => {
    const d = TDigest.from([1, 2, 3, 4, 5, 6], { compression: 5 });
    const before = d.toBytes();
    function* qs() {
      yield 0.5;
      throw new Error("quantiles failed");
    }
    expect(() => d.quantiles([0.1, 0.5, Number.NaN])).toThrow(/qs\[2\]/);
    expect(() => d.quantiles(qs())).toThrow(/quantiles failed/);
    expect(() => d.cdfs([1, 2, Number.NaN])).toThrow(/values\[2\]/);
    expect(() => d.trimmedMean(0.5, 0.2)).toThrow(RangeError);
    expect(() => d.byRank(2.5)).toThrow(RangeError);
    expect(d.toBytes()).toEqual(before);
  });
});
