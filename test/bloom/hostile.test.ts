/**
 * Classes of hostile or careless input to the four Bloom filters, each tested as a class over many
 * inputs (issue 24):
 * - byte inputs are copied or fully consumed when read: every loader (fromBytes of each filter,
 *   RedisBloomFilter.fromRedis) given plain arrays, views into larger buffers, subclasses and Node
 *   Buffers that are scrambled after the call, and fromRedis given a reader that yields every chunk
 *   from one reused buffer, loads exactly the filter that was saved;
 * - a detached Uint8Array (its buffer transferred to a worker) is a TypeError naming the parameter,
 *   thrown before anything changes, for every method taking an item or bytes;
 * - no add fails after taking its item partway: whatever add/addAll throws, the filter holds what it
 *   held before the item that threw;
 * - a scalable chain that could never grow is refused at construction, naming the option at fault;
 * - JSON.stringify of a filter is a TypeError saying what to send instead.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockedBloomFilter, BloomFilter, RedisBloomFilter, ScalableBloomFilter } from "../../src/bloom/index.js";
import type { Item } from "../../src/hash/index.js";
import { BYTE_FORMS, detached, inForm, oneBuffer } from "../support/redisbloom.js";

/** Byte equality without the deep-equality walk (links here reach megabytes). */
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

const anyItem = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.uint8Array({ minLength: 1, maxLength: 12 }),
  fc.integer(),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
);

/** A filter of each class, the way a test drives it: build, save, load, compare. */
interface Kind {
  name: string;
  make(seed: number): { add(v: Item): boolean; has(v: Item): boolean; toBytes(): Uint8Array };
  fromBytes(bytes: Uint8Array): { has(v: Item): boolean; toBytes(): Uint8Array; checkInvariants(): void };
}

const kinds: Kind[] = [
  {
    name: "BloomFilter",
    make: (s) =>
      s % 2
        ? new BloomFilter({ bits: 200 + s, hashes: 1 + (s % 5) })
        : new BloomFilter({ capacity: 20 + s, errorRate: 0.05 }),
    fromBytes: BloomFilter.fromBytes,
  },
  {
    name: "BlockedBloomFilter",
    make: (s) => new BlockedBloomFilter({ capacity: 10 + s, errorRate: 0.05 }),
    fromBytes: BlockedBloomFilter.fromBytes,
  },
  {
    name: "ScalableBloomFilter",
    make: (s) => new ScalableBloomFilter({ capacity: 6 + (s % 7), errorRate: 0.1, expansion: 1 + (s % 3) }),
    fromBytes: ScalableBloomFilter.fromBytes,
  },
  {
    name: "RedisBloomFilter",
    make: (s) => new RedisBloomFilter({ capacity: 1 + (s % 7), errorRate: 0.1, expansion: 1 + (s % 3) }),
    fromBytes: RedisBloomFilter.fromBytes,
  },
];

describe("byte inputs are copied when read: changing them after the call changes nothing", () => {
  for (const kind of kinds) {
    it(`${kind.name}.fromBytes: plain, view, subclass and Buffer inputs, scrambled after the call`, () => {
      fc.assert(
        fc.property(
          fc.nat(40),
          fc.array(anyItem, { maxLength: 40 }),
          fc.constantFrom(...BYTE_FORMS),
          (seed, items, form) => {
            const f = kind.make(seed);
            for (const v of items) f.add(v);
            const saved = f.toBytes();
            const input = inForm(saved, form);
            const back = kind.fromBytes(input.value);
            input.scramble();
            back.checkInvariants();
            expect(back.toBytes()).toEqual(saved);
            for (const v of items) expect(back.has(v)).toBe(true);
          },
        ),
        { seed: 2401, numRuns: 120 },
      );
    });
  }

  it("RedisBloomFilter.fromRedis: a reader yielding every chunk from one reused buffer, in any order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(anyItem, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        (capacity, expansion, items, shuffle) => {
          const f = new RedisBloomFilter({ capacity, expansion, errorRate: 0.05 });
          f.addAll(items);
          const chunks = f.toRedis();
          // The header first; the bit chunks in any order (BF.LOADCHUNK accepts it).
          const order = shuffle ? [chunks[0]!, ...chunks.slice(1).reverse()] : chunks;
          const back = RedisBloomFilter.fromRedis(oneBuffer(order));
          back.checkInvariants();
          expect(back.toRedis()).toEqual(chunks);
          for (const v of items) expect(back.has(v)).toBe(true);
        },
      ),
      { seed: 2402, numRuns: 150 },
    );
    // The same with a reused Node Buffer (whose slice() is a view, not a copy), where there is one.
    if (typeof Buffer === "function") {
      const f = new RedisBloomFilter({ capacity: 3, errorRate: 0.05 });
      const items = Array.from({ length: 30 }, (_, i) => `b${i}`);
      f.addAll(items);
      const chunks = f.toRedis();
      const reused = Buffer.alloc(Math.max(...chunks.map(([, b]) => b.length)));
      const reader = function* (): Generator<[number, Uint8Array]> {
        for (const [i, b] of chunks) {
          reused.fill(0x5a).set(b);
          yield [i, reused.subarray(0, b.length)];
        }
      };
      expect(RedisBloomFilter.fromRedis(reader()).toRedis()).toEqual(chunks);
    }
    // The issue's case: 40 items in several links, every one still found.
    const f = new RedisBloomFilter({ capacity: 4, errorRate: 0.01 });
    const forty = Array.from({ length: 40 }, (_, i) => `k${i}`);
    f.addAll(forty);
    expect(f.info().filters).toBeGreaterThan(2);
    expect(RedisBloomFilter.fromRedis(oneBuffer(f.toRedis())).hasAll(forty).every(Boolean)).toBe(true);
  });

  it("RedisBloomFilter.fromRedis: chunks in every byte form, scrambled after the call", () => {
    fc.assert(
      fc.property(fc.array(anyItem, { maxLength: 40 }), fc.constantFrom(...BYTE_FORMS), (items, form) => {
        const f = new RedisBloomFilter({ capacity: 3, errorRate: 0.1 });
        f.addAll(items);
        const chunks = f.toRedis();
        const inputs = chunks.map(([i, b]) => [i, inForm(b, form)] as const);
        const back = RedisBloomFilter.fromRedis(inputs.map(([i, x]) => [i, x.value] as [number, Uint8Array]));
        for (const [, x] of inputs) x.scramble();
        expect(back.toRedis()).toEqual(chunks);
      }),
      { seed: 2403, numRuns: 100 },
    );
  });

  it("items in every byte form, scrambled after add, are held by their bytes at the time of the call", () => {
    for (const kind of kinds) {
      fc.assert(
        fc.property(
          fc.array(fc.uint8Array({ minLength: 1, maxLength: 10 }), { maxLength: 30 }),
          fc.constantFrom(...BYTE_FORMS),
          (contents, form) => {
            const f = kind.make(5);
            const twin = kind.make(5);
            for (const c of contents) {
              const x = inForm(c, form);
              f.add(x.value);
              x.scramble();
              twin.add(c.slice());
            }
            expect(f.toBytes()).toEqual(twin.toBytes());
            for (const c of contents) expect(f.has(c)).toBe(true);
          },
        ),
        { seed: 2404, numRuns: 40 },
      );
    }
  });
});

describe("detached views are a TypeError naming the parameter, before anything changes", () => {
  for (const kind of kinds) {
    it(`${kind.name}: add, has, addAll, hasAll and fromBytes`, () => {
      const f = kind.make(3) as ReturnType<Kind["make"]> & {
        addAll(v: Iterable<Item>): boolean[];
        hasAll(v: Iterable<Item>): boolean[];
      };
      f.add("a");
      const before = f.toBytes();
      const gone = detached(new Uint8Array([1, 2, 3]));
      const named = new RegExp(`^redstruct/${kind.name}: item is a Uint8Array whose buffer was detached`);
      expect(() => f.add(gone)).toThrow(named);
      expect(() => f.has(gone)).toThrow(named);
      expect(() => f.add(gone)).toThrow(TypeError);
      // In a batch: the items before it stay added, it and the ones after it are not.
      expect(() => f.addAll(["b", gone, "c"])).toThrow(
        new RegExp(`^redstruct/${kind.name}: items\\[1\\] is a Uint8Array whose buffer was detached`),
      );
      expect(() => f.hasAll(["b", gone])).toThrow(/items\[1\] is a Uint8Array whose buffer was detached/);
      expect(f.has("b")).toBe(true);
      expect(f.has("c")).toBe(kind.fromBytes(before).has("c")); // "c" was never added
      expect(() => kind.fromBytes(detached(before))).toThrow(
        new RegExp(`^redstruct/${kind.name}: bytes is a Uint8Array whose buffer was detached`),
      );
    });
  }

  it("RedisBloomFilter.fromRedis: a detached chunk", () => {
    const chunks = new RedisBloomFilter({ capacity: 5 }).toRedis();
    expect(() => RedisBloomFilter.fromRedis([chunks[0]!, [chunks[1]![0], detached(chunks[1]![1])]])).toThrow(
      /^redstruct\/RedisBloomFilter: chunk 1's bytes is a Uint8Array whose buffer was detached/,
    );
    expect(() => RedisBloomFilter.fromRedis([[1, detached(chunks[0]![1])]])).toThrow(TypeError);
  });
});

describe("no add fails after taking its item partway", () => {
  // Error shares from ordinary to underflowing; capacities and expansions small enough that the links
  // that do exist stay a few MB (at an error share near 5e-324 a link takes ~7·10^6 bits per item).
  const extremes = fc.record({
    capacity: fc.integer({ min: 1, max: 4 }),
    errorRate: fc.oneof(fc.double({ min: 1e-12, max: 0.5, noNaN: true }), fc.constantFrom(0.5, 1e-100, 1e-300)),
    expansion: fc.integer({ min: 1, max: 2 }),
    tightening: fc.oneof(
      fc.double({ min: 1e-3, max: 0.5, noNaN: true }),
      fc.double({ min: 1e-200, max: 1e-100, noNaN: true }),
      fc.constantFrom(1e-200, 1e-160, 1e-20, 0.5),
    ),
    nonScaling: fc.boolean(),
  });

  it("ScalableBloomFilter: what can never grow is refused at construction, naming the option; what is built grows or throws cleanly", () => {
    let built = 0;
    let refused = 0;
    fc.assert(
      fc.property(extremes, fc.nat(1000), (opts, seed) => {
        let sbf: ScalableBloomFilter;
        try {
          sbf = new ScalableBloomFilter(opts);
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
          expect((e as Error).message).toMatch(
            /^redstruct\/ScalableBloomFilter: (capacity|expansion|tightening|errorRate × tightening) must be/,
          );
          refused++;
          return;
        }
        built++;
        // capacity + 1 distinct items: a scaling chain grows a second link; a non-scaling one may refuse.
        let added = 0;
        for (let i = 0; added <= opts.capacity && i < 10 * opts.capacity + 50; i++) {
          const v = `${seed}:${i}`;
          // Only a full non-scaling chain may refuse an item: keep its bytes to compare.
          const before = opts.nonScaling && sbf.size >= opts.capacity ? sbf.toBytes() : undefined;
          try {
            if (sbf.add(v)) added++;
          } catch (e) {
            expect(opts.nonScaling).toBe(true);
            expect(e).toBeInstanceOf(RangeError);
            expect(sameBytes(sbf.toBytes(), before!)).toBe(true); // nothing of the item was taken
            expect(sbf.has(v)).toBe(false);
            return;
          }
        }
        sbf.checkInvariants();
        if (!opts.nonScaling) expect(sbf.filters).toBe(2);
      }),
      { seed: 2405, numRuns: 150 },
    );
    expect(built).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(15);
  });

  it("ScalableBloomFilter: the issue's case, tightening 1e-200, is a RangeError naming tightening", () => {
    expect(() => new ScalableBloomFilter({ capacity: 100, errorRate: 0.01, tightening: 1e-200 })).toThrow(
      /^redstruct\/ScalableBloomFilter: tightening must be one that leaves room for a second link .*underflows.*got 1e-200/,
    );
    // The same filter that never grows is fine: only its first link must exist.
    const fixed = new ScalableBloomFilter({ capacity: 100, errorRate: 0.01, tightening: 1e-200, nonScaling: true });
    expect(fixed.addAll(["a", "b"])).toEqual([true, true]);
    expect(() => new ScalableBloomFilter({ capacity: 2 ** 20, errorRate: 0.01, expansion: 1024 })).toThrow(
      /^redstruct\/ScalableBloomFilter: expansion must be one that leaves room for a second link/,
    );
  });

  it("RedisBloomFilter and ScalableBloomFilter: a full non-scaling filter's add and addAll leave it as the items before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(anyItem, { maxLength: 60 }), (capacity, items) => {
        for (const f of [
          new RedisBloomFilter({ capacity, nonScaling: true, errorRate: 0.1 }),
          new ScalableBloomFilter({ capacity, nonScaling: true, errorRate: 0.1 }),
        ]) {
          const twin = f.clone();
          let failed: Item | undefined;
          try {
            f.addAll(items);
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError);
            for (const v of items) {
              try {
                twin.add(v);
              } catch {
                failed = v;
                break;
              }
            }
          }
          if (failed === undefined) twin.addAll(items);
          expect(f.toBytes()).toEqual(twin.toBytes());
          if (failed !== undefined) expect(f.has(failed)).toBe(false);
        }
      }),
      { seed: 2406, numRuns: 100 },
    );
  });
});

describe("re-entrant iterators: a generator that calls back into the filter between items", () => {
  it("addAll / hasAll on every filter give what the same calls made one after another give", () => {
    type Bulk = ReturnType<Kind["make"]> & {
      addAll(v: Iterable<Item>): boolean[];
      hasAll(v: Iterable<Item>): boolean[];
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(anyItem, anyItem), { maxLength: 25 }), fc.nat(20), (pairs, seed) => {
        for (const kind of kinds) {
          const f = kind.make(seed) as Bulk;
          const twin = kind.make(seed) as Bulk;
          // Between two items the generator adds one item and asks about another.
          const inner: boolean[] = [];
          const reentrant = function* () {
            for (const [outer, side] of pairs) {
              inner.push(f.add(side), f.has(outer));
              yield outer;
            }
          };
          const got = f.addAll(reentrant());
          const want: boolean[] = [];
          const wantInner: boolean[] = [];
          for (const [outer, side] of pairs) {
            wantInner.push(twin.add(side), twin.has(outer));
            want.push(twin.add(outer));
          }
          expect(got).toEqual(want);
          expect(inner).toEqual(wantInner);
          expect(sameBytes(f.toBytes(), twin.toBytes())).toBe(true);
          const asked: boolean[] = [];
          const queries = function* () {
            for (const [outer, side] of pairs) {
              asked.push(f.has(side));
              yield outer;
            }
          };
          expect(f.hasAll(queries())).toEqual(pairs.map(([outer]) => twin.has(outer)));
          expect(asked).toEqual(pairs.map(([, side]) => twin.has(side)));
        }
      }),
      { seed: 2407, numRuns: 80 },
    );
  });

  it("merge / union / intersect read their iterable whole before changing anything", () => {
    const a = BloomFilter.from(["a"], { errorRate: 0.01, capacity: 50 });
    const b = BloomFilter.from(["b"], { errorRate: 0.01, capacity: 50 });
    const sneaky = function* () {
      yield b;
      a.add("during"); // the target changes while the arguments are read
      yield BloomFilter.from(["c"], { errorRate: 0.01, capacity: 50 });
    };
    a.merge(sneaky());
    expect(a.hasAll(["a", "b", "c", "during"])).toEqual([true, true, true, true]);
    a.checkInvariants();
    const u = BloomFilter.union(
      (function* () {
        yield a;
        b.add("late");
        yield b;
      })(),
    );
    expect(u.hasAll(["a", "late"])).toEqual([true, true]);
    u.checkInvariants();
  });
});

describe("JSON", () => {
  it("JSON.stringify of any filter is a TypeError that says to send toBytes()", () => {
    for (const kind of kinds) {
      const f = kind.make(1);
      expect(() => JSON.stringify(f)).toThrow(TypeError);
      expect(() => JSON.stringify({ f })).toThrow(
        new RegExp(
          `^redstruct/${kind.name}: a ${kind.name} is not JSON .*send toBytes\\(\\) and rebuild it with ${kind.name}\\.fromBytes\\(\\)`,
        ),
      );
    }
  });
});
