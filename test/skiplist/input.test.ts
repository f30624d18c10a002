import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SortedSet } from "../../src/skiplist/index.js";

// Careless and hostile input to SortedSet, by class: every options object is checked (unknown keys,
// non-boolean flags, null), bulk input must be a sync iterable of pairs, the capacity option is
// bounded and memory follows use, and no public call lets a raw engine message through.

type AnyFn = (zs: SortedSet, options: unknown) => unknown;

/** Every public call that takes an options object, with the keys it knows and which are flags. */
const TAKES_OPTIONS: { name: string; call: AnyFn; keys: string[]; flags: string[] }[] = [
  { name: "constructor", call: (_, o) => new SortedSet(o as never), keys: ["seed", "capacity"], flags: [] },
  { name: "from", call: (_, o) => SortedSet.from([["a", 1]], o as never), keys: ["seed", "capacity"], flags: [] },
  {
    name: "add",
    call: (zs, o) => zs.add("a", 5, o as never),
    keys: ["nx", "xx", "gt", "lt", "ch"],
    flags: ["nx", "xx", "gt", "lt", "ch"],
  },
  {
    name: "incrBy",
    call: (zs, o) => zs.incrBy("a", 5, o as never),
    keys: ["nx", "xx", "gt", "lt"],
    flags: ["nx", "xx", "gt", "lt"],
  },
  {
    name: "randomMembers",
    call: (zs, o) => zs.randomMembers(2, o as never),
    keys: ["withScores"],
    flags: ["withScores"],
  },
  { name: "union", call: (zs, o) => SortedSet.union([zs, zs], o as never), keys: ["weights", "aggregate"], flags: [] },
  {
    name: "intersect",
    call: (zs, o) => SortedSet.intersect([zs], o as never),
    keys: ["weights", "aggregate"],
    flags: [],
  },
  { name: "rank", call: (zs, o) => zs.rank("a", o as never), keys: ["reverse"], flags: ["reverse"] },
  { name: "at", call: (zs, o) => zs.at(0, o as never), keys: ["reverse"], flags: ["reverse"] },
  { name: "range", call: (zs, o) => zs.range(0, -1, o as never), keys: ["reverse"], flags: ["reverse"] },
  {
    name: "rangeByScore",
    call: (zs, o) => zs.rangeByScore(0, 10, o as never),
    keys: ["minExclusive", "maxExclusive", "offset", "count", "reverse"],
    flags: ["minExclusive", "maxExclusive", "reverse"],
  },
  {
    name: "rangeByLex",
    call: (zs, o) => zs.rangeByLex("-", "+", o as never),
    keys: ["offset", "count", "reverse"],
    flags: ["reverse"],
  },
  {
    name: "countByScore",
    call: (zs, o) => zs.countByScore(0, 10, o as never),
    keys: ["minExclusive", "maxExclusive"],
    flags: ["minExclusive", "maxExclusive"],
  },
  {
    name: "deleteRangeByScore",
    call: (zs, o) => zs.deleteRangeByScore(0, 10, o as never),
    keys: ["minExclusive", "maxExclusive"],
    flags: ["minExclusive", "maxExclusive"],
  },
  { name: "entries", call: (zs, o) => zs.entries(o as never), keys: ["reverse"], flags: ["reverse"] },
  { name: "keys", call: (zs, o) => zs.keys(o as never), keys: ["reverse"], flags: ["reverse"] },
  { name: "values", call: (zs, o) => zs.values(o as never), keys: ["reverse"], flags: ["reverse"] },
];

const notBoolean = fc.oneof(
  fc.constantFrom<unknown>("yes", "true", 1, 0, null, {}, [], Number.NaN),
  fc.string(),
  fc.integer(),
);

function fresh(): SortedSet {
  return SortedSet.from(
    [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ],
    { seed: 7 },
  );
}

/** Runs `fn`, expecting a TypeError/RangeError of ours, and checks the set is unchanged. */
function expectRefused(fn: (zs: SortedSet) => unknown, type: typeof TypeError | typeof RangeError, mention: string) {
  const zs = fresh();
  const before = [...zs];
  let thrown: unknown;
  try {
    fn(zs);
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected a ${type.name} mentioning ${mention}`).toBeInstanceOf(type);
  expect((thrown as Error).message).toMatch(/^redstruct\/SortedSet: /);
  expect((thrown as Error).message).toContain(mention);
  expect([...zs]).toEqual(before);
  zs.checkInvariants();
}

describe("SortedSet options: every options object is checked", () => {
  for (const { name, call, keys, flags } of TAKES_OPTIONS) {
    it(`${name}: unknown keys, null, non-objects and non-boolean flags are TypeErrors; nothing changes`, () => {
      // Known keys in another case (NX, Reverse) and made-up keys.
      const unknownKey = fc
        .oneof(
          fc.constantFrom(...keys.map((k) => k.toUpperCase()), ...keys.map((k) => k[0]!.toUpperCase() + k.slice(1))),
          fc.string({ minLength: 1, maxLength: 8 }),
        )
        .filter((k) => !keys.includes(k) && k !== "__proto__");
      fc.assert(
        fc.property(unknownKey, fc.boolean(), (key, value) => {
          expectRefused((zs) => call(zs, { [key]: value }), TypeError, `"${key}"`);
        }),
        { seed: 12, numRuns: 100 },
      );
      for (const bad of [null, "nx", 5, true, [] as unknown[]])
        expectRefused((zs) => call(zs, bad), TypeError, "options");
      if (flags.length > 0) {
        fc.assert(
          fc.property(fc.constantFrom(...flags), notBoolean, (flag, value) => {
            expectRefused((zs) => call(zs, { [flag]: value }), TypeError, flag);
          }),
          { seed: 13, numRuns: 100 },
        );
      }
      // The valid forms still work: {} and every flag false.
      expect(() => call(fresh(), {})).not.toThrow();
      expect(() => call(fresh(), Object.fromEntries(flags.map((f) => [f, false])))).not.toThrow();
    });
  }

  it("add: { NX: true } and { nx: 'yes' } leave the score alone", () => {
    expectRefused((zs) => zs.add("a", 100, { NX: true } as never), TypeError, '"NX"');
    expectRefused((zs) => zs.add("a", 100, { nx: "yes" } as never), TypeError, "nx");
  });

  it("contradictory ZADD flags are RangeErrors, as Redis rejects them", () => {
    const combos = [
      { nx: true, xx: true },
      { gt: true, lt: true },
      { nx: true, gt: true },
      { nx: true, lt: true },
    ];
    for (const o of combos) expectRefused((zs) => zs.add("a", 100, o), RangeError, "compatible flags");
  });
});

describe("SortedSet.from: a sync iterable of [member, score] pairs only", () => {
  it("refuses strings, async iterables, non-iterables and malformed pairs with a TypeError naming them", () => {
    async function* gen() {
      yield ["a", 1] as [string, number];
    }
    const cases: [unknown, string, typeof TypeError | typeof RangeError][] = [
      ["ab", "entries", TypeError],
      [gen(), "async iterable", TypeError],
      [42, "entries", TypeError],
      [null, "entries", TypeError],
      [undefined, "entries", TypeError],
      [{}, "entries", TypeError],
      [[null], "entries[0]", TypeError],
      [["a1"], "entries[0]", TypeError],
      [[["a", 1], { 0: "b", 1: 2 }], "entries[1]", TypeError],
      [[[1, 1]], "entries[0][0]", TypeError],
      [[["a", "1"]], "entries[0][1]", TypeError],
      [[["a", Number.NaN]], "entries[0][1]", RangeError],
    ];
    for (const [input, mention, type] of cases) {
      let thrown: unknown;
      try {
        SortedSet.from(input as never);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, mention).toBeInstanceOf(type);
      expect((thrown as Error).message).toMatch(/^redstruct\/SortedSet: /);
      expect((thrown as Error).message).toContain(mention);
    }
  });

  it("takes any sync iterable: arrays, Map entries, generators", () => {
    const want = [
      ["a", 1],
      ["b", 2],
    ];
    function* gen() {
      yield* want as [string, number][];
    }
    for (const input of [want, new Map(want as [string, number][]), gen()]) {
      expect([...SortedSet.from(input as Iterable<[string, number]>, { seed: 1 })]).toEqual(want);
    }
  });
});

describe("SortedSet memory follows use", () => {
  it("bounds capacity to 0..2^26 with a RangeError, a TypeError for non-numbers", () => {
    for (const c of [-1, 2 ** 26 + 1, 2 ** 28, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new SortedSet({ capacity: c })).toThrow(/^redstruct\/SortedSet: capacity must be/);
      expect(() => new SortedSet({ capacity: c })).toThrow(RangeError);
    }
    expect(() => new SortedSet({ capacity: "16" as never })).toThrow(TypeError);
  });

  it("allocates for what is used, whatever the capacity hint, and clear() releases it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 26 }), fc.nat({ max: 3000 }), fc.nat(), (capacity, n, seed) => {
        const zs = new SortedSet({ capacity, seed });
        // At most 2^16 entries' worth up front (≈ 2.2 MiB with the free-slot stack and header).
        expect(zs.byteLength).toBeLessThanOrEqual(2.2 * 2 ** 20);
        for (let i = 0; i < n; i++) zs.add(`m${i}`, i % 7);
        // Growth by doubling: at most ≈ 2 × 36 bytes per entry above the initial buffer.
        expect(zs.byteLength).toBeLessThanOrEqual(2.2 * 2 ** 20 + 80 * n);
        const initial = new SortedSet({ capacity, seed }).byteLength;
        zs.clear();
        expect(zs.size).toBe(0);
        expect(zs.byteLength).toBeLessThanOrEqual(initial);
        zs.checkInvariants();
        zs.add("again", 1);
        zs.checkInvariants();
        expect([...zs]).toEqual([["again", 1]]);
      }),
      { seed: 0xca9, numRuns: 60 },
    );
  });
});

describe("SortedSet: no raw engine message from any public call", () => {
  // Arguments of every kind at every position; a call either works or throws our TypeError /
  // RangeError naming a parameter ("Cannot read properties of null" or "x is not iterable" fail).
  const value = fc.oneof(
    fc.constantFrom<unknown>(
      null,
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -1,
      0,
      1,
      2.5,
      "",
      "a",
      "[a",
      "(",
      "-",
      "+",
    ),
    fc.constantFrom<unknown>({}, [], [["a", 1]], { reverse: true }, { count: -1 }, 1n, Symbol("s"), () => 1),
    fc.anything(),
  );
  const METHODS: [string, (zs: SortedSet, a: unknown[]) => unknown][] = [
    ["add", (zs, a) => zs.add(a[0] as never, a[1] as never, a[2] as never)],
    ["incrBy", (zs, a) => zs.incrBy(a[0] as never, a[1] as never)],
    ["delete", (zs, a) => zs.delete(a[0] as never)],
    ["has", (zs, a) => zs.has(a[0] as never)],
    ["score", (zs, a) => zs.score(a[0] as never)],
    ["rank", (zs, a) => zs.rank(a[0] as never, a[1] as never)],
    ["at", (zs, a) => zs.at(a[0] as never, a[1] as never)],
    ["range", (zs, a) => zs.range(a[0] as never, a[1] as never, a[2] as never)],
    ["rangeByScore", (zs, a) => zs.rangeByScore(a[0] as never, a[1] as never, a[2] as never)],
    ["rangeByLex", (zs, a) => zs.rangeByLex(a[0] as never, a[1] as never, a[2] as never)],
    ["countByScore", (zs, a) => zs.countByScore(a[0] as never, a[1] as never, a[2] as never)],
    ["countByLex", (zs, a) => zs.countByLex(a[0] as never, a[1] as never)],
    ["deleteRangeByRank", (zs, a) => zs.deleteRangeByRank(a[0] as never, a[1] as never)],
    ["deleteRangeByScore", (zs, a) => zs.deleteRangeByScore(a[0] as never, a[1] as never, a[2] as never)],
    ["deleteRangeByLex", (zs, a) => zs.deleteRangeByLex(a[0] as never, a[1] as never)],
    ["popMin", (zs, a) => zs.popMin(a[0] as never)],
    ["popMax", (zs, a) => zs.popMax(a[0] as never)],
    ["entries", (zs, a) => [...zs.entries(a[0] as never)]],
    ["keys", (zs, a) => [...zs.keys(a[0] as never)]],
    ["values", (zs, a) => [...zs.values(a[0] as never)]],
    ["forEach", (zs, a) => zs.forEach(a[0] as never)],
    ["scores", (zs, a) => zs.scores(a[0] as never)],
    ["randomMembers", (zs, a) => zs.randomMembers(a[0] as never, a[1] as never)],
    ["union", (_, a) => SortedSet.union(a[0] as never, a[1] as never)],
    ["union of sets", (zs, a) => SortedSet.union([zs, zs], a[0] as never)],
    ["intersect", (_, a) => SortedSet.intersect(a[0] as never, a[1] as never)],
    ["intersect of sets", (zs, a) => SortedSet.intersect([zs, fresh()], a[0] as never)],
    ["diff", (_, a) => SortedSet.diff(a[0] as never)],
    ["intersectCard", (zs, a) => SortedSet.intersectCard([zs], a[0] as never)],
    ["from", (_, a) => SortedSet.from(a[0] as never, a[1] as never)],
    ["constructor", (_, a) => new SortedSet(a[0] as never)],
  ];
  it("every method, any arguments: success or a named TypeError/RangeError", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...METHODS),
        fc.array(value, { minLength: 0, maxLength: 3 }),
        ([name, call], args) => {
          const zs = fresh();
          try {
            call(zs, args);
          } catch (e) {
            const ok = (e instanceof TypeError || e instanceof RangeError) && /^redstruct\/SortedSet: /.test(e.message);
            expect(ok, `${name}(${args.map((a) => fc.stringify(a)).join(", ")}) threw ${fc.stringify(e)}`).toBe(true);
          }
          zs.checkInvariants();
        },
      ),
      { seed: 0xbad, numRuns: 4000 },
    );
  });
});
