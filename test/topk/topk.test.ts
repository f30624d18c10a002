/**
 * TopK (HeavyKeeper as RedisBloom 2.4 runs it): the exact top k of a well-separated stream, list()
 * with and without counts, items the same whether given as strings or as their UTF-8 bytes, addAll
 * and from equal to adds one by one, counters that wrap at 2^32 as RedisBloom's uint32 does, and
 * independent copies (seeded).
 */
import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { glibcRandom, TopK } from "../../src/topk/index.js";

describe("TopK behaviour", () => {
  it("list() is string[] and list({ withCount: true }) is [string, number][]", () => {
    const t = TopK.from(["a", "b", "a"], { k: 3, random: glibcRandom(1) });
    const names = t.list();
    const pairs = t.list({ withCount: true });
    expectTypeOf(names).toEqualTypeOf<string[]>();
    expectTypeOf(pairs).toEqualTypeOf<[string, number][]>();
    expectTypeOf(t.list({ withCount: false })).toEqualTypeOf<string[]>();
    expect(names).toEqual(["a", "b"]);
    expect(pairs).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
    expect(t.list({})).toEqual(names);
    expect(t.list({ withCount: false })).toEqual(names);
  });
  it("finds a long non-ASCII item whose has() is the first to grow the shared UTF-8 scratch buffer", () => {
    const long = `${"é".repeat(120_000)}!`;
    const t = new TopK({ k: 2, random: glibcRandom(1) });
    t.add(new TextEncoder().encode(long)); // bytes: no scratch use
    expect(t.has(long)).toBe(true);
    expect(t.count(long)).toBe(1);
    expect(t.list()).toEqual([long]);
  });
  it("an item is one item whether given as a string or as its UTF-8 bytes", () => {
    for (const word of ["é", "热门", "🔥hot", "naïve", "ascii"]) {
      const t = new TopK({ k: 3, random: glibcRandom(1) });
      t.add(new TextEncoder().encode(word));
      t.add(word);
      t.add(word);
      t.checkInvariants();
      expect(t.list({ withCount: true })).toEqual([[word, 3]]);
      expect(t.has(new TextEncoder().encode(word))).toBe(true);
    }
  });
  it("behaves the same fed strings or their UTF-8 bytes (seeded)", () => {
    const word = fc.oneof(
      fc.constantFrom("a", "é", "热门", "🔥", "\uD800", "\uDC00", "x\u0000y"),
      fc.string({ unit: "binary", maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 200 }), (words) => {
        const asText = new TopK({ k: 4, width: 6, depth: 3, random: glibcRandom(5) });
        const asBytes = new TopK({ k: 4, width: 6, depth: 3, random: glibcRandom(5) });
        const encoder = new TextEncoder();
        expect(asText.addAll(words)).toEqual(asBytes.addAll(words.map((w) => encoder.encode(w))));
        asText.checkInvariants();
        expect(asText.toBytes()).toEqual(asBytes.toBytes());
        for (const w of words.slice(0, 10)) {
          expect(asText.has(w)).toBe(asBytes.has(encoder.encode(w)));
          expect(asText.count(w)).toBe(asBytes.count(encoder.encode(w)));
        }
      }),
      { seed: 0x70e, numRuns: 200 },
    );
  });
  it("addAll and from equal adds one by one", () => {
    const a = new TopK({ k: 3, width: 4, depth: 2, random: glibcRandom(7) });
    const b = new TopK({ k: 3, width: 4, depth: 2, random: glibcRandom(7) });
    const items = Array.from({ length: 300 }, (_, i) => `x${(i * 7919) % 23}`);
    expect(a.addAll(items)).toEqual(items.map((x) => b.add(x)));
    expect(a.toBytes()).toEqual(b.toBytes());
    expect(TopK.from(items, { k: 3, width: 4, depth: 2, random: glibcRandom(7) }).toBytes()).toEqual(b.toBytes());
    expect(() => TopK.from("abc" as never, { k: 3 })).toThrow(/items must be an iterable/);
  });
  it("lists exactly the true top k on a well-separated stream (seeded)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (k, seed) => {
        // k heavy items with counts 400, 350, … well above 40 light items of count ≤ 5, shuffled.
        const heavy = Array.from({ length: k }, (_, i) => [`heavy${i}`, 400 - 40 * i] as const);
        const light = Array.from({ length: 40 }, (_, i) => [`light${i}`, 1 + (i % 5)] as const);
        const items: string[] = [];
        for (const [name, n] of [...heavy, ...light]) for (let j = 0; j < n; j++) items.push(name);
        const rand = glibcRandom(seed);
        for (let i = items.length - 1; i > 0; i--) {
          const j = rand() % (i + 1);
          [items[i], items[j]] = [items[j]!, items[i]!];
        }
        const t = new TopK({ k, width: 64, depth: 4, random: glibcRandom((seed ^ 0x5555) >>> 0) });
        t.addAll(items);
        t.checkInvariants();
        expect(t.list()).toEqual(heavy.map(([name]) => name));
        for (const [name] of heavy) expect(t.has(name)).toBe(true);
      }),
      { seed: 0x70b, numRuns: 40 },
    );
  });
  const anyItems = fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.uint8Array({ maxLength: 4 })), { maxLength: 300 });
  it("clone is independent; byteLength counts buckets, list and scratch (seeded)", () => {
    fc.assert(
      fc.property(anyItems, anyItems, fc.integer({ min: 1, max: 6 }), (items, more, k) => {
        const t = TopK.from(items, { k, width: 6, depth: 3, random: glibcRandom(3) });
        const c = t.clone();
        c.checkInvariants();
        expect(c.toBytes()).toEqual(t.toBytes());
        expect(c.byteLength).toBe(t.byteLength);
        const before = t.toBytes();
        c.addAll(more);
        c.checkInvariants();
        expect(t.toBytes()).toEqual(before);
        let listed = 0;
        for (const [name] of t.list({ withCount: true })) listed += name.length >= 0 ? 1 : 0;
        const itemBytes = before.length - (25 + 8 * 6 * 3 + 12 * k);
        expect(listed).toBeLessThanOrEqual(k);
        expect(t.byteLength).toBe(8 * 6 * 3 + 8 * 256 + 8 * k + 4 * 4 * 3 + itemBytes);
      }),
      { seed: 0x70f, numRuns: 100 },
    );
  });
  it("counts wrap at 2^32 as RedisBloom's uint32 does: 42,950 × incrBy(100,000) is 32,704", () => {
    const t = new TopK({ k: 10, random: glibcRandom(1) });
    for (let i = 0; i < 42_950; i++) t.incrBy("hot", 100_000);
    expect(t.count("hot")).toBe((42_950 * 100_000) % 2 ** 32);
    expect(t.count("hot")).toBe(32_704);
    expect(t.list({ withCount: true })).toEqual([["hot", 32_704]]);
    t.checkInvariants();
    // With k = 1 the wrapped estimate (32,704) is below the list's minimum (its own old count), so
    // the list keeps the old count — and TOPK.COUNT, which for a listed item only takes counts at
    // least the list's minimum, answers 0: RedisBloom's rules, followed to the letter.
    const one = new TopK({ k: 1, random: glibcRandom(1) });
    for (let i = 0; i < 42_950; i++) one.incrBy("hot", 100_000);
    expect(one.list({ withCount: true })).toEqual([["hot", 42_949 * 100_000]]);
    expect(one.has("hot")).toBe(true);
    expect(one.count("hot")).toBe(0);
    one.checkInvariants();
  });
});
