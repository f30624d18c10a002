/**
 * TDigest's serialized forms, fromBytes and fromRedis (DUMP payloads): byte inputs read once;
 * specific corruptions named before anything the bytes do not hold is allocated; and the states
 * they load — only states RedisBloom's own operations reach (src/tdigest/state.ts states the rules
 * and why each holds), the same check checkInvariants() makes:
 * - every state the API reaches — through ties, ±DBL_MAX, self-merges past 2^53 and up to 2^63, and
 *   RESTORE's zeroed nodes merged into other digests — passes the check and loads through both readers;
 * - every single-bit flip of several toBytes() blobs and DUMP payloads (CRC-64 recomputed) is refused
 *   with RedstructFormatError or loads a digest that passes checkInvariants() and behaves: its
 *   quantiles are RedisBloom's walk over its centroids, and add, merge and a self-merge succeed
 *   unless the digest is at RedisBloom's own limits;
 * - states no RedisBloom operation reaches — merged centroids out of order, weights that do not add
 *   up, means outside [min, max], min > max, weightless buffered nodes — are refused by both readers,
 *   naming the field.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedstructFormatError, TDigest } from "../../src/tdigest/index.js";
import { type DigestState, encodeDump } from "../../src/tdigest/redis.js";
import { encodeBytes } from "../../src/tdigest/serialize.js";
import { corruptionsOf } from "../support/fuzz.js";
import { BYTE_FORMS, inForm } from "../support/redisbloom.js";
import { use, withCrc } from "../support/tdigest-load.js";
import { modelQuantile, stateOf } from "../support/tdigest-model.js";
import { digestShapes, restoredSingle } from "../support/tdigest-shapes.js";

const QS = [0, 1e-9, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1];

/** Whether an overflow is RedisBloom's own for this digest: weights near 2^63, or a full buffer of weight ≤ 1. */
function atLimits(d: TDigest): boolean {
  const s = stateOf(d);
  const total = Number(s.mergedWeight) + Number(s.unmergedWeight);
  const cap = 6 * s.compression + 10;
  return (
    s.mergedWeight < 0n ||
    s.unmergedWeight < 0n ||
    s.mergedWeight + s.unmergedWeight >= 2n ** 61n ||
    (s.mergedNodes + s.unmergedNodes >= cap - 4 && total <= 4)
  );
}

/**
 * What a loaded digest must do: pass checkInvariants(), write itself back, answer quantiles as
 * RedisBloom's walk over its (merged) centroids does, and take adds, a merge and a self-merge without
 * an overflow RedisBloom would not give — each leaving a digest that passes the check and loads again.
 */
function behaves(d: TDigest): void {
  d.checkInvariants();
  const bytes = d.toBytes();
  expect(TDigest.fromBytes(bytes).toBytes()).toEqual(bytes);
  const merged = d.clone();
  merged.cdf(0); // merges the buffer, as td_compress does
  const s = stateOf(merged);
  if (s.unmergedNodes === 0) {
    const n = s.mergedNodes;
    const weights = Float64Array.from(s.weights, Number);
    for (const q of QS) {
      const expected = modelQuantile(s.means, weights.subarray(0, n), s.min, s.max, s.mergedWeight, q);
      const got = merged.quantile(q);
      if (!Object.is(got, expected)) expect.fail(`quantile(${q}) = ${got}, the walk gives ${expected}`);
    }
  }
  const limits = atLimits(d);
  const changes: [string, (x: TDigest) => unknown][] = [
    ["add", (x) => x.add(1, 2.5, -3)],
    ["addAll", (x) => x.addAll(Array.from({ length: 40 }, (_, i) => i % 7))],
    ["merge", (x) => x.merge(TDigest.from([4, 5, 6]))],
    ["merge with itself", (x) => x.merge(x)],
  ];
  for (const [what, change] of changes) {
    const x = d.clone();
    try {
      change(x);
    } catch (e) {
      if (limits && e instanceof RangeError && /overflow detected/.test(e.message)) continue;
      throw new Error(`${what} on a loaded digest threw ${(e as Error).message}`);
    }
    x.checkInvariants();
    x.quantiles([0.5, 0.1, 0.9]);
    x.checkInvariants();
    TDigest.fromBytes(x.toBytes()).checkInvariants();
  }
  TDigest.fromRedis(d.clone().toRedis()).checkInvariants();
}

// ——— every state the API reaches loads ———————————————————————————————————————————————

type Step =
  | { k: "add"; vs: number[] }
  | { k: "query"; q: number }
  | { k: "dump" }
  | { k: "bytes" }
  | { k: "mergeSelf" }
  | { k: "mergeGhost"; v: number }
  | { k: "mergeOther"; vs: number[] }
  | { k: "unionGhosts"; v: number }
  | { k: "clear" };

const value = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -5, max: 5 }) },
  { weight: 3, arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, Number.MAX_VALUE, -Number.MAX_VALUE, 1e300, 5e-324) },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.array(value, { maxLength: 30 }).map((vs) => ({ k: "add" as const, vs })) },
  { weight: 3, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((q) => ({ k: "query" as const, q })) },
  { weight: 2, arbitrary: fc.constant({ k: "dump" as const }) },
  { weight: 1, arbitrary: fc.constant({ k: "bytes" as const }) },
  { weight: 2, arbitrary: fc.constant({ k: "mergeSelf" as const }) },
  { weight: 2, arbitrary: value.map((v) => ({ k: "mergeGhost" as const, v })) },
  { weight: 1, arbitrary: fc.array(value, { maxLength: 20 }).map((vs) => ({ k: "mergeOther" as const, vs })) },
  { weight: 1, arbitrary: value.map((v) => ({ k: "unionGhosts" as const, v })) },
  { weight: 1, arbitrary: fc.constant({ k: "clear" as const }) },
);

/** One step; returns the digest to go on with (a RESTOREd or reloaded one, a union). */
function run(d: TDigest, s: Step): TDigest {
  try {
    switch (s.k) {
      case "add":
        d.add(...s.vs);
        return d;
      case "query":
        d.quantile(s.q);
        return d;
      case "dump":
        return TDigest.fromRedis(d.toRedis());
      case "bytes":
        return TDigest.fromBytes(d.toBytes());
      case "mergeSelf":
        return d.merge(d);
      case "mergeGhost":
        return d.merge(restoredSingle(s.v));
      case "mergeOther":
        return d.merge(TDigest.from(s.vs, { compression: 3 }));
      case "unionGhosts":
        return TDigest.union([d, restoredSingle(s.v), d, restoredSingle(s.v)]);
      case "clear":
        d.clear();
        return d;
    }
  } catch (e) {
    // RedisBloom's own refusal at 2^63 − 1 (or a full buffer of weight ≤ 1) leaves a digest to go on with.
    if (e instanceof RangeError && /overflow detected/.test(e.message)) return d;
    throw e;
  }
}

describe("every state the API reaches loads", () => {
  it("after random steps — ties, extremes, DUMP/RESTORE, self-merges, MERGEs of RESTORE's zeroed nodes (seeded)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(step, { maxLength: 40 }), (c, steps) => {
        let d = new TDigest({ compression: c });
        for (const s of steps) {
          d = run(d, s);
          d.checkInvariants();
          const bytes = d.toBytes();
          expect(TDigest.fromBytes(bytes).toBytes()).toEqual(bytes);
          TDigest.fromRedis(d.clone().toRedis()).checkInvariants();
        }
      }),
      { seed: 0x7d30, numRuns: 400 },
    );
  });

  it("RESTORE's zeroed nodes, merged with each other, make NaN centroids among small values: they load", () => {
    const d = restoredSingle(42.5);
    d.merge(d); // two zeroed nodes, moved by MERGE: min = max = 0
    d.add(5, 6, 7);
    d.quantile(0.5); // the two zeroed nodes merge: 0·(0 − 0)/0 is NaN
    let s = stateOf(d);
    expect(Number.isNaN(s.means[0]!)).toBe(true);
    expect(s.weights[0]).toBe(0n);
    d.checkInvariants();
    expect(TDigest.fromBytes(d.toBytes()).toBytes()).toEqual(d.toBytes());
    const again = TDigest.fromRedis(d.toRedis());
    again.checkInvariants();
    d.add(1, 2, 3, 4, 8, 9);
    d.quantile(0.5);
    const u = TDigest.union([d]);
    u.quantile(0.5);
    s = stateOf(u);
    u.checkInvariants();
    expect(TDigest.fromBytes(u.toBytes()).toBytes()).toEqual(u.toBytes());
    expect(s.min).toBeLessThanOrEqual(s.max);
  });

  it("the recorded shapes behave", () => {
    for (const d of digestShapes()) behaves(d);
  });
});

// ——— single-bit flips ——————————————————————————————————————————————————————————————————

/** Flips every bit of `body` in turn (`finish` completes each copy); counts what loads and what is refused. */
function flipEveryBit(
  body: Uint8Array,
  read: (bytes: Uint8Array) => TDigest,
  finish: (bytes: Uint8Array) => Uint8Array,
  bits = 8 * body.length,
): { loaded: number; refused: number } {
  let loaded = 0;
  let refused = 0;
  for (let bit = 0; bit < bits; bit++) {
    const bytes = finish(body.slice());
    bytes[bit >> 3] = bytes[bit >> 3]! ^ (1 << (bit & 7));
    let d: TDigest;
    try {
      d = read(finish(bytes));
    } catch (e) {
      if (!(e instanceof RedstructFormatError)) {
        throw new Error(`bit ${bit}: threw ${(e as Error).name} "${(e as Error).message}", not a RedstructFormatError`);
      }
      refused++;
      continue;
    }
    try {
      behaves(d);
    } catch (e) {
      throw new Error(`bit ${bit} (byte ${bit >> 3}) loaded a digest that misbehaves: ${(e as Error).message}`);
    }
    loaded++;
  }
  return { loaded, refused };
}

describe("every single-bit flip is refused or loads a digest that behaves", () => {
  it("toBytes() blobs of every shape", () => {
    let loaded = 0;
    let refused = 0;
    for (const d of digestShapes()) {
      const counts = flipEveryBit(d.toBytes(), TDigest.fromBytes, (b) => b);
      loaded += counts.loaded;
      refused += counts.refused;
    }
    // What loads: a mean changed within its neighbours (or anywhere in an unsorted buffer), the
    // compression (the counts still within its capacity), the compression count, the low bits of a
    // wide digest's weights and totals (rounded through doubles by RedisBloom anyway); most flips are
    // refused.
    expect(loaded).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(2 * loaded);
  });

  it("DUMP payloads of every shape, each flip's CRC-64 recomputed (the trailer's version bytes included)", () => {
    let loaded = 0;
    let refused = 0;
    for (const d of digestShapes()) {
      const payload = d.toRedis();
      const counts = flipEveryBit(payload, TDigest.fromRedis, withCrc, 8 * (payload.length - 8));
      loaded += counts.loaded;
      refused += counts.refused;
    }
    expect(loaded).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(2 * loaded);
  });
});

// ——— states no operation reaches ———————————————————————————————————————————————————————

/** A digest with merged centroids and a buffer: compression 5, 60 values, queried once, then 5 more. */
function base(): DigestState {
  const d = TDigest.from(
    Array.from({ length: 60 }, (_, i) => ((i * 37) % 61) - 20),
    { compression: 5 },
  );
  d.quantile(0.5);
  d.add(3.5, -7, 11, 0.25, 2);
  return stateOf(d);
}

/** A merged-only digest's state (for DUMP payloads, which hold no buffer). */
function mergedBase(): DigestState {
  const d = TDigest.from(
    Array.from({ length: 60 }, (_, i) => ((i * 37) % 61) - 20),
    { compression: 5 },
  );
  d.quantile(0.5);
  return stateOf(d);
}

/** The state as toBytes() writes it and as a DUMP payload (merged nodes only) writes it. */
function asBytes(s: DigestState): Uint8Array {
  return encodeBytes(s);
}

function asDump(s: DigestState): Uint8Array {
  const merged = s.mergedNodes;
  return encodeDump({ ...s, means: s.means.subarray(0, merged), weights: s.weights.subarray(0, merged) });
}

function refusedBy(read: (b: Uint8Array) => TDigest, bytes: Uint8Array, message: RegExp): void {
  expect(() => read(bytes)).toThrow(RedstructFormatError);
  expect(() => read(bytes)).toThrow(message);
}

describe("states no RedisBloom operation reaches are refused by both readers, naming the field", () => {
  it("the unedited states load (the edits below are what is refused)", () => {
    TDigest.fromBytes(asBytes(base())).checkInvariants();
    TDigest.fromRedis(asDump(mergedBase())).checkInvariants();
  });

  it("merged centroids out of order", () => {
    for (const [s, read, encode] of [
      [base(), TDigest.fromBytes, asBytes],
      [mergedBase(), TDigest.fromRedis, asDump],
    ] as const) {
      const i = 3;
      const m = s.means[i]!;
      s.means[i] = s.means[i + 1]!;
      s.means[i + 1] = m;
      const w = s.weights[i]!;
      s.weights[i] = s.weights[i + 1]!;
      s.weights[i + 1] = w;
      refusedBy(read, encode(s), /merged centroid 4's mean .* is below centroid 3's/);
    }
  });

  it("node weights that do not add up to the totals", () => {
    for (const [make, read, encode] of [
      [base, TDigest.fromBytes, asBytes],
      [mergedBase, TDigest.fromRedis, asDump],
    ] as const) {
      const more = make();
      more.weights[2] = more.weights[2]! + 1n;
      refusedBy(read, encode(more), /the merged centroids' weights sum to \d+, above the merged weight/);
      const less = make();
      less.weights[2] = less.weights[2]! + 2n;
      less.mergedWeight += 4n;
      refusedBy(read, encode(less), /count 2 observations no node holds/);
      const total = make();
      total.mergedWeight += 1000n;
      refusedBy(read, encode(total), /count 1000 observations no node holds/);
    }
    const buffered = base();
    buffered.unmergedWeight += 3n;
    refusedBy(TDigest.fromBytes, asBytes(buffered), /count 3 observations no node holds/);
  });

  it("means outside [min, max], and min and max that are not the extreme means", () => {
    for (const [make, read, encode] of [
      [base, TDigest.fromBytes, asBytes],
      [mergedBase, TDigest.fromRedis, asDump],
    ] as const) {
      const low = make();
      low.min = low.means[0]! + 0.5;
      refusedBy(read, encode(low), /merged centroid 0's mean -?\d+(\.\d+)? is outside \[min/);
      const high = make();
      high.max = 1000;
      refusedBy(read, encode(high), /max 1000 is not any node's mean/);
      const under = make();
      under.min = under.means[0]! - 1;
      refusedBy(read, encode(under), /min -21 is not the smallest mean \(-20\)/);
      const mid = make();
      mid.means[4] = 1e6;
      refusedBy(read, encode(mid), /merged centroid 4's mean 1000000 is outside \[min/);
      const inf = make();
      inf.means[4] = Number.POSITIVE_INFINITY;
      refusedBy(read, encode(inf), /merged centroid 4's mean Infinity with min -20, max 40/);
    }
  });

  it("min above max in a digest with nodes", () => {
    for (const [make, read, encode] of [
      [base, TDigest.fromBytes, asBytes],
      [mergedBase, TDigest.fromRedis, asDump],
    ] as const) {
      const s = make();
      [s.min, s.max] = [s.max, s.min];
      refusedBy(read, encode(s), /is outside \[min|min .* above max/);
    }
    const empty = stateOf(new TDigest({ compression: 5 }));
    empty.min = 0;
    refusedBy(TDigest.fromBytes, asBytes(empty), /min 0 \/ max -1\.7976931348623157e\+308 without nodes/);
    refusedBy(TDigest.fromRedis, asDump(empty), /without nodes/);
  });

  it("weightless buffered nodes, after which every add would throw a false overflow", () => {
    // The buffer of a compression-1 digest filled with 15 nodes of weight 0 beside 3 observations.
    const s = stateOf(TDigest.from([1, 2, 3], { compression: 1 }));
    const zeros = stateOf(TDigest.from([5, 6, 7], { compression: 1 }));
    expect(zeros.unmergedNodes).toBe(3);
    const means = new Float64Array(15).fill(2);
    const weights = new BigInt64Array(15);
    weights.set([1n, 1n, 1n]);
    const full: DigestState = { ...s, unmergedNodes: 15, means, weights };
    refusedBy(TDigest.fromBytes, asBytes(full), /buffered node 3 has weight 0 and mean 2, not 0/);
    // The same with means of 0, as RESTORE zeroes them: too many observations no node holds? No —
    // the totals match; what no operation reaches is a full buffer in a digest of total above 1.
    means.fill(0, 3);
    means.set([1, 2, 3]);
    const zeroed: DigestState = {
      ...s,
      min: 0,
      unmergedNodes: 16,
      means: new Float64Array(16),
      weights: new BigInt64Array(16),
    };
    zeroed.means.set([1, 2, 3]);
    zeroed.weights.set([1n, 1n, 1n]);
    refusedBy(TDigest.fromBytes, asBytes(zeroed), /16 buffered nodes fill the capacity 16 at weight 3/);
    // A weightless node where no RESTORE put one: outside [min, max] in a digest whose totals match.
    const stray: DigestState = {
      ...s,
      unmergedNodes: 4,
      means: Float64Array.from([1, 2, 3, 0]),
      weights: BigInt64Array.from([1n, 1n, 1n, 0n]),
    };
    stray.min = 1;
    refusedBy(TDigest.fromBytes, asBytes(stray), /a node of weight 0 and mean 0 outside \[min 1, max 3\]/);
  });

  it("counts that no merge leaves: merged nodes without a compression counted, and the reverse", () => {
    const s = base();
    s.totalCompressions = 0;
    refusedBy(TDigest.fromBytes, asBytes(s), /merged nodes with no compression counted/);
    const m = mergedBase();
    m.totalCompressions = 0;
    refusedBy(TDigest.fromRedis, asDump(m), /merged nodes with no compression counted/);
    const none = stateOf(TDigest.from([1, 2], { compression: 5 }));
    none.totalCompressions = 3;
    refusedBy(TDigest.fromBytes, asBytes(none), /3 compressions counted without merged nodes/);
  });

  it("a negative weight, and totals below zero other than the −2^63 RedisBloom's rounding wraps to", () => {
    const s = base();
    s.weights[1] = -s.weights[1]!;
    refusedBy(TDigest.fromBytes, asBytes(s), /merged centroid 1's weight -\d+: not an integer in \[0, 2\^63\)/);
    const t = base();
    t.mergedWeight = -5n;
    refusedBy(TDigest.fromBytes, asBytes(t), /merged weight -5 below 0/);
    const payload = asDump(mergedBase());
    const view = new DataView(payload.buffer);
    // The first centroid weight (after the header's 63 bytes and the means): 2^63 exactly.
    const n = mergedBase().mergedNodes;
    view.setFloat64(63 + 9 * n + 1, 2 ** 63, true);
    refusedBy(
      TDigest.fromRedis,
      withCrc(payload),
      /centroid 0's weight 9223372036854776000 is not an integer in \[0, 2\^63\)/,
    );
    view.setFloat64(63 + 9 * n + 1, 5.5, true);
    refusedBy(TDigest.fromRedis, withCrc(payload), /centroid 0's weight 5.5 is not an integer in \[0, 2\^63\)/);
  });
});

describe("TDigest.fromRedis names what is wrong", () => {
  it("names what is wrong, before allocating anything the payload does not hold", () => {
    const d = TDigest.from([3, 1, 2, 5, 4], { compression: 7 });
    d.quantile(0.5);
    const good = d.toRedis();
    // Offsets: 0 type, 1..9 module id, 10 compression, 19 min, 28 max, 37 capacity (02 34: 52),
    // 39 merged (02 n), 41 unmerged (02 00), 43 compressions (02 01), 45 merged weight, 54 unmerged weight,
    // 63 the means, then the weights, the EOF, the RDB version and the CRC.
    const n = d.info().mergedNodes;
    expect(good.length).toBe(63 + 18 * n + 1 + 2 + 8);
    expect(Array.from(good.subarray(37, 45))).toEqual([2, 52, 2, n, 2, 0, 2, 1]);
    const { bad } = corruptionsOf(TDigest.fromRedis, good);
    const edit =
      (f: (b: Uint8Array) => void, crc = true) =>
      (b: Uint8Array) => {
        f(b);
        return crc ? withCrc(b) : b;
      };
    bad(
      edit((b) => (b[20] = b[20]! ^ 1), false),
      /CRC-64 does not match/,
    );
    bad((b) => b.subarray(0, b.length - 1), /CRC-64 does not match|RDB version/);
    bad(
      edit((b) => (b[b.length - 10] = 9)),
      /RDB version 9; this build reads versions 10 to 12/,
    );
    bad((b) => b.subarray(0, 9), /shorter than a type byte and the 10-byte trailer/);
    bad(
      edit((b) => (b[0] = 0)),
      /RDB type 0 \(a string\), not a module value/,
    );
    bad(
      edit((b) => (b[2] = 0x4d)),
      /a value of module type "[A-Za-z0-9_-]{9}", not RedisBloom's "TDIS-TYPE"/,
    );
    bad(
      edit((b) => (b[9] = 1)),
      /TDIS-TYPE encoding version 1, this build reads 0/,
    );
    const setF64 = (at: number, v: number) => (b: Uint8Array) => new DataView(b.buffer).setFloat64(at, v, true);
    bad(edit(setF64(11, 7.5)), /compression 7.5, expected an integer/);
    bad(edit(setF64(11, 0)), /compression 0/);
    bad(edit(setF64(11, 1e9)), /compression 1000000000/);
    bad(edit(setF64(11, 8)), /capacity 52, expected 6·8 \+ 10/);
    bad(edit(setF64(20, Number.NaN)), /min NaN/);
    bad(edit(setF64(29, Number.NaN)), /max NaN/);
    bad(
      edit((b) => (b[40] = 60)),
      /60 merged \+ 0 unmerged nodes, beyond the capacity 52/,
    );
    bad(
      edit((b) => (b[40] = 9)),
      /9 merged nodes need 163 more bytes, the payload has/,
    );
    bad(
      edit((b) => (b[42] = 3)),
      /3 unmerged nodes in a digest of total weight 5/,
    );
    bad(
      edit((b) => (b[41] = 7)),
      /opcode 7, expected a signed integer/,
    );
    bad(
      edit((b) => (b[38] = 0xc0)),
      /the capacity: the byte 0xc0 marks an encoded string, not a length/,
    );
    bad(edit(setF64(46, 5.5)), /merged weight 5.5 is not a 64-bit integer/);
    bad(edit(setF64(46, 2 ** 64)), /is not a 64-bit integer/);
    bad(edit(setF64(55, 1)), /unmerged weight 1 without unmerged nodes/);
    // A NaN mean loads as x86-64's default NaN, the one RedisBloom's arithmetic makes (from ±DBL_MAX
    // data, or from RESTORE's zeroed nodes merged together); another NaN is not RedisBloom's.
    const nanMean = good.slice();
    nanMean.set([0, 0, 0, 0, 0, 0, 0xf8, 0xff], 64);
    const withNan = TDigest.fromRedis(withCrc(nanMean));
    withNan.checkInvariants();
    use(withNan);
    bad(
      edit((b) => b.set([0, 0, 0, 0, 0, 0, 0xf8, 0x7f], 64)),
      /centroid 0's mean is a NaN other than x86-64's default/,
    );
    bad(
      edit((b) => (b[b.length - 11] = 4)),
      /where the module's EOF/,
    );
    // A header claiming millions of merged nodes in a short payload: refused by its length.
    bad(
      edit((b) => b.set([0x80, 0, 0x0f, 0x42, 0x40], 40)),
      /beyond the capacity|opcode/,
    );
    const claims = TDigest.from([1, 2, 3], { compression: 100_000_000 });
    claims.quantile(0.5);
    const payload = claims.toRedis();
    const lie = payload.slice();
    lie.set([0x80, 0x01, 0x00, 0x00, 0x00], 0);
    expect(() => TDigest.fromRedis(lie)).toThrow(RedstructFormatError);
  });
  it("unmerged nodes (which RESTORE zeroes) only where DUMP leaves them, and no more than 1 MiB beyond the payload", () => {
    const single = TDigest.from([42.5]).toRedis();
    const restored = TDigest.fromRedis(single);
    expect(restored.info().unmergedNodes).toBe(1);
    expect(restored.min()).toBe(42.5);
    // Two zeroed nodes outside [min, max]: only the lone observation of a digest of weight 1 is one.
    const two = single.slice();
    expect(two[43]).toBe(1);
    two[43] = 2;
    expect(() => TDigest.fromRedis(withCrc(two))).toThrow(
      /2 nodes of weight 0 and mean 0 outside \[min 42.5, max 42.5\]/,
    );
    // A buffer of zeroed nodes MERGE gathered (min = max = 0, weight 0): 60,000 load from 80 bytes,
    // 70,000 would allocate more than 1 MiB beyond the payload.
    const zeros = (nodes: number) =>
      encodeDump({
        compression: 20_000,
        min: 0,
        max: 0,
        mergedNodes: 0,
        unmergedNodes: nodes,
        totalCompressions: 0,
        mergedWeight: 0n,
        unmergedWeight: 0n,
        means: new Float64Array(0),
        weights: new BigInt64Array(0),
      });
    const loaded = TDigest.fromRedis(zeros(60_000));
    expect(loaded.info().unmergedNodes).toBe(60_000);
    loaded.checkInvariants();
    expect(() => TDigest.fromRedis(zeros(70_000))).toThrow(/70000 nodes claimed by a \d+-byte payload/);
  });
});

describe("TDigest.fromBytes names what is wrong", () => {
  it("names what is wrong", () => {
    const good = TDigest.from([1, 2, 3], { compression: 5 }).toBytes();
    const { bad, patch } = corruptionsOf(TDigest.fromBytes, good);
    bad(patch(0, 0x48, 0x59, 0x4c, 0x4c), /a Redis HYLL string: read it with HyperLogLog\.fromRedis\(\)/);
    bad(patch(4, 2), /format version 2/);
    bad(patch(5, 0, 0, 0, 0), /compression 0/);
    bad(patch(5, 0xff, 0xff, 0xff, 0xff), /compression 4294967295/);
    bad(patch(9, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f), /min NaN/);
    bad(patch(25, 0, 1), /256 merged \+ 3 unmerged nodes, beyond the capacity 40/);
    bad(patch(25, 2), /5 nodes need 80 bytes, got 48/);
    bad(patch(41, 1), /merged weight 1 without merged nodes/);
    bad((b) => b.subarray(0, b.length - 1), /3 nodes need 48 bytes, got 47/);
    bad((b) => Uint8Array.from([...b, 0]), /3 nodes need 48 bytes, got 49/);
    // NaN means (from ±DBL_MAX data) are written as one pattern; another one is corruption.
    const huge = digestShapes()[5]!;
    const bytes = huge.toBytes();
    const view = new DataView(bytes.buffer);
    const nodes = huge.info().mergedNodes + huge.info().unmergedNodes;
    const at = Array.from({ length: nodes }, (_, i) => 57 + 8 * i).find((o) => Number.isNaN(view.getFloat64(o, true)));
    expect(at).toBeDefined();
    expect(Array.from(bytes.subarray(at!, at! + 8))).toEqual([0, 0, 0, 0, 0, 0, 0xf8, 0xff]);
    expect(TDigest.fromBytes(bytes).toBytes()).toEqual(bytes);
    const other = bytes.slice();
    other[at! + 7] = 0x7f;
    expect(() => TDigest.fromBytes(other)).toThrow(/mean \d+ is a NaN other than the one toBytes\(\) writes/);
    expect(() => TDigest.fromRedis(good)).toThrow(RedstructFormatError);
    expect(() => TDigest.fromBytes(TDigest.from([1]).toRedis())).toThrow(RedstructFormatError);
  });
});

const moderate = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));

describe("TDigest byte inputs", () => {
  it("byte inputs are read once: fromRedis and fromBytes of a view, a subclass or a Buffer changed afterwards (seeded)", () => {
    fc.assert(
      fc.property(fc.array(moderate, { maxLength: 100 }), fc.constantFrom(...BYTE_FORMS), (vs, form) => {
        const d = TDigest.from(vs, { compression: 5 });
        const bytes = d.toBytes();
        const b = inForm(bytes, form);
        const back = TDigest.fromBytes(b.value);
        b.scramble();
        expect(back.toBytes()).toEqual(bytes);
        const payload = d.toRedis();
        const p = inForm(payload, form);
        const restored = TDigest.fromRedis(p.value);
        p.scramble();
        expect(restored.toRedis()).toEqual(payload);
      }),
      { seed: 0x7d0a, numRuns: 100 },
    );
  });
});
