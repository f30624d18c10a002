import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { MAX_DRAWS, sortedSetWithLayout } from "../../src/skiplist/sorted-set.js";
import { corruptionsOf, fuzzDeserializer } from "../support/fuzz.js";

// toBytes / fromBytes (round trips, every JS string as a member, hostile input), clone, toJSON,
// and the misuses that must name themselves: sets passed to union as separate arguments, objects
// that only borrowed SortedSet's prototype, and a huge randomMembers count.

/** Any JS string: lone surrogates, pairs, NUL, astral characters. */
const anyString = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\ud800", "\udc00", "\udbff", "\udfff", "\0", "😀", "\u{E000}", "\u{FFFF}"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 6,
});
const score = fc
  .oneof(fc.double(), fc.constantFrom(0, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1, 1.5))
  .filter((s) => !Number.isNaN(s));

function build(entries: [string, number][], seed = 5): SortedSet {
  return SortedSet.from(entries, { seed });
}

describe("SortedSet toBytes / fromBytes", () => {
  it("round-trips any set: the same entries (scores bit for bit, −0 kept), the same bytes, the same draws", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anyString, score), { maxLength: 40 }), fc.nat(), (entries, seed) => {
        const z = build(entries, seed);
        const bytes = z.toBytes();
        const back = SortedSet.fromBytes(bytes);
        back.checkInvariants();
        const a = [...z];
        const b = [...back];
        expect(b.map((e) => e[0])).toEqual(a.map((e) => e[0]));
        b.forEach((e, i) => {
          expect(Object.is(e[1], a[i]![1])).toBe(true);
        });
        expect(back.toBytes()).toEqual(bytes);
        // The generator's state travels: both draw the same members from here on.
        expect(back.randomMembers(-5)).toEqual(z.randomMembers(-5));
        // Members are compared as strings, so every one is found again.
        for (const [m, s] of a) expect(Object.is(back.score(m), s)).toBe(true);
      }),
      { seed: 0xb17e, numRuns: 1500 },
    );
  });

  it("writes members as UTF-8, lone surrogates in WTF-8's 3-byte form", () => {
    const z = build([
      ["é", 1],
      ["\ud800", 2],
      ["😀", 3],
    ]);
    const b = z.toBytes();
    const text = Array.from(b.subarray(13), (x) => x.toString(16).padStart(2, "0")).join("");
    expect(text).toContain("c3a9"); // é
    expect(text).toContain("eda080"); // lone U+D800
    expect(text).toContain("f09f9880"); // 😀, one 4-byte sequence
    expect(new TextDecoder().decode(b.subarray(0, 4))).toBe("RSZS");
    expect(b[4]).toBe(1);
    expect(build([]).toBytes()).toHaveLength(13);
  });

  it("refuses malformed input with a RedstructFormatError naming the fault, allocating nothing first", () => {
    const good = build([
      ["a", 1],
      ["b", 2],
    ]).toBytes();
    const { bad, patch } = corruptionsOf(SortedSet.fromBytes, good);
    const entry1 = 13; // score of entry 0
    const entry2 = 13 + 8 + 4 + 1; // score of entry 1
    bad(patch(0, 0x48, 0x59, 0x4c, 0x4c), /HYLL string/); // another format's bytes are named
    bad(patch(4, 2), /format version 2/);
    bad(patch(9, 0xff, 0xff, 0xff, 0x7f), /entry count|member limit/);
    bad(patch(9, 3, 0, 0, 0), /3 entries need at least 36 bytes/);
    bad(patch(entry1, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f), /NaN score/);
    bad(patch(entry2, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f), /entry 1 is out of order/); // ("b", 0.5) after ("a", 1)
    bad(patch(entry2, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 1, 0, 0, 0, 0x61), /entry 1 is out of order/); // ("a", 1) twice
    bad((b) => new Uint8Array([...b, 0]), /trailing/);
    bad((b) => b.subarray(0, b.length - 1), /truncated/);
    bad(patch(entry1 + 8, 0xff, 0xff, 0xff, 0xff), /truncated|needs/);
    // Encodings that are not strict WTF-8.
    const one = (bytes: number[]) => {
      const b = new Uint8Array(13 + 12 + bytes.length);
      b.set([0x52, 0x53, 0x5a, 0x53, 1, 0, 0, 0, 0, 1, 0, 0, 0]);
      new DataView(b.buffer).setUint32(21, bytes.length, true);
      b.set(bytes, 25);
      return b;
    };
    expect(SortedSet.fromBytes(one([0xed, 0xa0, 0x80])).score("\ud800")).toBe(0);
    for (const seq of [
      [0xc0, 0x80], // overlong NUL
      [0xe0, 0x80, 0x80], // overlong
      [0xf0, 0x80, 0x80, 0x80], // overlong
      [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
      [0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80], // a surrogate pair written as two halves
      [0x80], // a lone continuation byte
      [0xe2, 0x82], // cut short
      [0xff],
    ]) {
      expect(() => SortedSet.fromBytes(one(seq)), seq.join(" ")).toThrow(/not valid UTF-8/);
    }
  });

  it("refuses duplicate members", () => {
    // ("a", 1) then ("a", 2): in order, but the same member twice.
    const b = build([
      ["a", 1],
      ["b", 2],
    ]).toBytes();
    b[13 + 8 + 4 + 1 + 8 + 4] = 0x61;
    expect(() => SortedSet.fromBytes(b)).toThrow(RedstructFormatError);
    expect(() => SortedSet.fromBytes(b)).toThrow(/"a" appears twice/);
    expect(() => SortedSet.fromBytes("RSZS" as never)).toThrow(TypeError);
  });

  it("fuzz: 10^4 inputs — each loads into a valid set that writes the same bytes back, or is a RedstructFormatError", () => {
    const valid = [
      build([]).toBytes(),
      build([["x", 1]]).toBytes(),
      build(
        Array.from({ length: 12 }, (_, i) => [`m${i % 4}${"\ud800".repeat(i % 2)}`, i % 3] as [string, number]),
      ).toBytes(),
      build([
        ["😀", Number.NEGATIVE_INFINITY],
        ["", -0],
        ["é", 0.5],
        ["\u{FFFF}", Number.POSITIVE_INFINITY],
      ]).toBytes(),
    ];
    const counts = fuzzDeserializer(
      {
        name: "SortedSet.fromBytes",
        read: SortedSet.fromBytes,
        valid,
        use: (z) => {
          const c = z.clone();
          c.add("new", 1);
          c.popMin(1);
          c.rank("x");
          c.checkInvariants();
        },
        write: (z) => z.toBytes(),
      },
      { seed: 0x2b17, runs: 10_000 },
    );
    expect(counts.loaded).toBeGreaterThan(100);
    expect(counts.refused).toBeGreaterThan(5000);
  });
});

describe("SortedSet clone and toJSON", () => {
  it("clone: equal and independent, with the generator at the same state", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 })), { maxLength: 200 }),
        fc.integer({ min: 2, max: 6 }),
        fc.constantFrom(0, 8, 128),
        (entries, nodeSize, compactMax) => {
          const z = sortedSetWithLayout({ nodeSize, levelBits: 2, compactMax }, { seed: 9 });
          for (const [m, s] of entries) z.add(m, s);
          const c = z.clone();
          c.checkInvariants();
          expect([...c]).toEqual([...z]);
          expect(c.byteLength).toBe(z.byteLength);
          expect(c.randomMembers(-4)).toEqual(z.randomMembers(-4));
          const before: SortedSetEntry[] = [...z];
          c.add("only-in-clone", 0);
          c.popMax(3);
          expect([...z]).toEqual(before);
          z.add("only-in-original", 1);
          expect(c.has("only-in-original")).toBe(false);
          c.checkInvariants();
          z.checkInvariants();
        },
      ),
      { seed: 0xc10e, numRuns: 300 },
    );
  });

  it("toJSON throws: a SortedSet is not JSON; it says to send toBytes()", () => {
    const z = build([["a", 1]]);
    expect(() => JSON.stringify(z)).toThrow(TypeError);
    expect(() => JSON.stringify({ board: z })).toThrow(/toBytes\(\)/);
  });
});

describe("SortedSet misuse names itself", () => {
  const a = build([["a", 1]]);
  const b = build([["b", 2]]);

  it("sets passed as separate arguments: a TypeError saying to pass an array", () => {
    expect(() => SortedSet.union(a as never, b as never)).toThrow(TypeError);
    expect(() => SortedSet.union(a as never, b as never)).toThrow(
      /got a SortedSet; pass the sets in one array: SortedSet\.union\(\[a, b\], options\)/,
    );
    expect(() => SortedSet.intersect(a as never)).toThrow(/SortedSet\.intersect\(\[a, b\]/);
    expect(() => SortedSet.diff(a as never, b as never)).toThrow(/SortedSet\.diff\(\[a, b\]\)/);
    expect(() => SortedSet.diff([a], b as never)).toThrow(/SortedSet\.diff\(\[a, b\]\)/);
    expect(() => SortedSet.intersectCard(a as never, b as never)).toThrow(
      /SortedSet\.intersectCard\(\[a, b\], limit\)/,
    );
    expect(() => SortedSet.union([a], b as never)).toThrow(/pass the sets in one array/);
  });

  it("an options object is described by its keys, never as [object Object]", () => {
    const cases: (() => unknown)[] = [
      () => SortedSet.union({ weights: [1, 2] } as never),
      () => SortedSet.union([a, { aggregate: "max" }] as never),
      () => SortedSet.intersect({} as never),
      () => SortedSet.intersectCard({ limit: 1 } as never),
      () => SortedSet.diff([{ weights: [1] }] as never),
    ];
    for (const call of cases) {
      let thrown: unknown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(/^redstruct\/SortedSet: /);
      expect((thrown as Error).message).not.toContain("[object Object]");
      expect((thrown as Error).message).toMatch(/an object \{|an empty object/);
    }
  });

  it("an object made with Object.create(SortedSet.prototype): a clear TypeError from every entry point", () => {
    const fake = Object.create(SortedSet.prototype) as SortedSet;
    const message = /not a SortedSet built by its constructor/;
    expect(() => SortedSet.union([a, fake])).toThrow(message);
    expect(() => SortedSet.union([fake])).toThrow(/sets\[0\] is not a SortedSet built/);
    expect(() => SortedSet.intersect([fake, a])).toThrow(message);
    expect(() => SortedSet.diff([a, fake])).toThrow(message);
    expect(() => SortedSet.intersectCard([fake])).toThrow(message);
    const calls: (() => unknown)[] = [
      () => fake.size,
      () => fake.add("a", 1),
      () => fake.incrBy("a", 1),
      () => fake.delete("a"),
      () => fake.has("a"),
      () => fake.score("a"),
      () => fake.scores(["a"]),
      () => fake.rank("a"),
      () => fake.at(0),
      () => fake.range(0, -1),
      () => fake.rangeByScore(0, 1),
      () => fake.rangeByLex("-", "+"),
      () => fake.countByScore(0, 1),
      () => fake.countByLex("-", "+"),
      () => fake.deleteRangeByRank(0, 1),
      () => fake.deleteRangeByScore(0, 1),
      () => fake.deleteRangeByLex("-", "+"),
      () => fake.popMin(),
      () => fake.popMax(),
      () => fake.randomMembers(1),
      () => fake.clear(),
      () => [...fake],
      () => [...fake.keys()],
      () => [...fake.values()],
      () => fake.forEach(() => {}),
      () => fake.toBytes(),
      () => fake.clone(),
      () => fake.checkInvariants(),
      () => fake.byteLength,
    ];
    for (const call of calls) {
      expect(call, String(call)).toThrow(TypeError);
      expect(call, String(call)).toThrow(message);
    }
  });
});

describe("randomMembers with a huge count", () => {
  it("is bounded: |count| above 2^20 with repeats is a RangeError at once, whatever the set", () => {
    const one = build([["only", 1]]);
    expect(MAX_DRAWS).toBe(2 ** 20);
    expect(() => one.randomMembers(-(2 ** 26))).toThrow(RangeError);
    expect(() => one.randomMembers(-(2 ** 26))).toThrow(/count must be an integer in \[-1048576, 9007199254740991\]/);
    expect(() => one.randomMembers(-MAX_DRAWS - 1)).toThrow(RangeError);
    // A positive count is bounded by the set's size, whatever it asks.
    expect(one.randomMembers(Number.MAX_SAFE_INTEGER)).toEqual(["only"]);
    expect(one.randomMembers(-3)).toEqual(["only", "only", "only"]);
  });
});
