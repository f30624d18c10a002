import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { Mulberry32 } from "../../src/internal/random.js";
import { compareMembers, SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { OrderedList } from "../../src/skiplist/list.js";
import { MemberIndex } from "../../src/skiplist/members.js";
import { LAYOUT } from "../../src/skiplist/store.js";
import { byteCompare } from "../support/byte-order.js";

const { HEADER, MAX_LEVEL, NIL } = LAYOUT;

// ---------------------------------------------------------------- an independent reference model

/** A sorted array of entries, re-sorted after every change: slow and obviously right. */
class Model {
  entries: SortedSetEntry[] = [];
  sort(): void {
    this.entries.sort((a, b) => (a[1] !== b[1] ? (a[1] < b[1] ? -1 : 1) : byteCompare(a[0], b[0])));
  }
  find(member: string): number {
    return this.entries.findIndex((e) => e[0] === member);
  }
  add(member: string, score: number, o: { nx?: boolean; xx?: boolean; gt?: boolean; lt?: boolean; ch?: boolean }) {
    const i = this.find(member);
    if (i < 0) {
      if (o.xx) return false;
      this.entries.push([member, score]);
      this.sort();
      return true;
    }
    const cur = this.entries[i]![1];
    if (o.nx || (o.gt && score <= cur) || (o.lt && score >= cur) || score === cur) return false;
    this.entries[i] = [member, score];
    this.sort();
    return o.ch === true;
  }
  window(start: number, stop: number): [number, number] {
    const n = this.entries.length;
    let lo = start < 0 ? start + n : start;
    let hi = stop < 0 ? stop + n : stop;
    if (lo < 0) lo = 0;
    if (hi >= n) hi = n - 1;
    return [lo, hi];
  }
  limit(list: SortedSetEntry[], o: { offset?: number; count?: number; reverse?: boolean }): SortedSetEntry[] {
    const l = o.reverse ? [...list].reverse() : list;
    const offset = o.offset ?? 0;
    const count = o.count ?? -1;
    if (offset < 0 || count === 0) return [];
    return count < 0 ? l.slice(offset) : l.slice(offset, offset + count);
  }
  inScore(s: number, min: number, max: number, o: { minExclusive?: boolean; maxExclusive?: boolean }): boolean {
    return (o.minExclusive ? s > min : s >= min) && (o.maxExclusive ? s < max : s <= max);
  }
  inLex(m: string, min: string, max: string): boolean {
    const lowOk =
      min === "-" ||
      (min !== "+" && (min[0] === "[" ? byteCompare(m, min.slice(1)) >= 0 : byteCompare(m, min.slice(1)) > 0));
    const highOk =
      max === "+" ||
      (max !== "-" && (max[0] === "[" ? byteCompare(m, max.slice(1)) <= 0 : byteCompare(m, max.slice(1)) < 0));
    return lowOk && highOk;
  }
}

// ---------------------------------------------------------------- operations

const MEMBERS = ["", "a", "ab", "b", "ba", "é", "z", "\u{E000}", "\u{FFFF}", "😀", "😀a", "𝄞", "中", "a\u{0}"];
const member = fc.oneof(fc.constantFrom(...MEMBERS), fc.string({ maxLength: 3, unit: "binary" }));
const score = fc.oneof(
  fc.integer({ min: -4, max: 4 }),
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5, -1.25, 1e300),
);
const lexBound = fc.oneof(
  fc.constantFrom("-", "+"),
  fc
    .tuple(fc.constantFrom("[", "("), fc.oneof(fc.constantFrom(...MEMBERS), fc.string({ maxLength: 2 })))
    .map(([p, m]) => p + m),
);
const index = fc.integer({ min: -12, max: 12 });
const limit = fc.record(
  { offset: fc.integer({ min: -1, max: 6 }), count: fc.integer({ min: -2, max: 6 }), reverse: fc.boolean() },
  { requiredKeys: [] },
);
const bounds = fc.record({ minExclusive: fc.boolean(), maxExclusive: fc.boolean() }, { requiredKeys: [] });
const addFlags = fc.constantFrom<Record<string, boolean>>(
  {},
  { nx: true },
  { xx: true },
  { gt: true },
  { lt: true },
  { xx: true, gt: true },
  { xx: true, lt: true },
  { ch: true },
  { gt: true, ch: true },
);

type Op =
  | { t: "add"; m: string; s: number; o: Record<string, boolean> }
  | { t: "incr"; m: string; d: number }
  | { t: "delete" | "score" | "rank" | "revrank"; m: string }
  | { t: "at"; i: number; reverse: boolean }
  | { t: "range"; a: number; b: number; reverse: boolean }
  | { t: "rangeByScore" | "countByScore" | "deleteByScore"; min: number; max: number; o: Record<string, unknown> }
  | { t: "rangeByLex" | "countByLex" | "deleteByLex"; min: string; max: string; o: Record<string, unknown> }
  | { t: "deleteByRank"; a: number; b: number }
  | { t: "popMin" | "popMax"; n: number }
  | { t: "iterate"; reverse: boolean }
  | { t: "copy" };

function ops(lexMode: boolean): fc.Arbitrary<Op[]> {
  const s = lexMode ? fc.constant(0) : score;
  const scoreOps: fc.Arbitrary<Op>[] = [
    fc.record({
      t: fc.constant("rangeByScore" as const),
      min: score,
      max: score,
      o: fc.tuple(bounds, limit).map(([a, b]) => ({ ...a, ...b })),
    }),
    fc.record({ t: fc.constant("countByScore" as const), min: score, max: score, o: bounds }),
    fc.record({ t: fc.constant("deleteByScore" as const), min: score, max: score, o: bounds }),
  ];
  const lexOps: fc.Arbitrary<Op>[] = [
    fc.record({ t: fc.constant("rangeByLex" as const), min: lexBound, max: lexBound, o: limit }),
    fc.record({ t: fc.constant("countByLex" as const), min: lexBound, max: lexBound, o: fc.constant({}) }),
    fc.record({ t: fc.constant("deleteByLex" as const), min: lexBound, max: lexBound, o: fc.constant({}) }),
  ];
  return fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.record({ t: fc.constant("add" as const), m: member, s, o: addFlags }) },
      {
        weight: 2,
        arbitrary: fc.record({ t: fc.constant("incr" as const), m: member, d: lexMode ? fc.constant(0) : score }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          t: fc.constantFrom("delete" as const, "score" as const, "rank" as const, "revrank" as const),
          m: member,
        }),
      },
      fc.record({ t: fc.constant("at" as const), i: index, reverse: fc.boolean() }),
      fc.record({ t: fc.constant("range" as const), a: index, b: index, reverse: fc.boolean() }),
      ...(lexMode ? lexOps : scoreOps),
      fc.record({ t: fc.constant("deleteByRank" as const), a: index, b: index }),
      fc.record({ t: fc.constantFrom("popMin" as const, "popMax" as const), n: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ t: fc.constant("iterate" as const), reverse: fc.boolean() }),
      fc.constant({ t: "copy" as const }),
    ),
    { maxLength: 80 },
  );
}

/** Applies one operation to both and returns [ours, model's]. */
function apply(zs: SortedSet, model: Model, op: Op): [unknown, unknown] {
  const e = model.entries;
  switch (op.t) {
    case "add":
      return [zs.add(op.m, op.s, op.o), model.add(op.m, op.s, op.o)];
    case "incr": {
      const i = model.find(op.m);
      const next = (i < 0 ? 0 : e[i]![1]) + op.d;
      if (Number.isNaN(next)) {
        expect(() => zs.incrBy(op.m, op.d)).toThrow(RangeError);
        return [0, 0];
      }
      if (i < 0) model.add(op.m, next, {});
      else if (next !== e[i]![1]) model.add(op.m, next, {});
      return [zs.incrBy(op.m, op.d), next];
    }
    case "delete": {
      const i = model.find(op.m);
      if (i >= 0) e.splice(i, 1);
      return [zs.delete(op.m), i >= 0];
    }
    case "score": {
      const i = model.find(op.m);
      return [zs.score(op.m), i < 0 ? undefined : e[i]![1]];
    }
    case "rank": {
      const i = model.find(op.m);
      return [zs.rank(op.m), i < 0 ? undefined : i];
    }
    case "revrank": {
      const i = model.find(op.m);
      return [zs.rank(op.m, { reverse: true }), i < 0 ? undefined : e.length - 1 - i];
    }
    case "at": {
      const l = op.reverse ? [...e].reverse() : e;
      const i = op.i < 0 ? op.i + l.length : op.i;
      return [zs.at(op.i, { reverse: op.reverse }), l[i]];
    }
    case "range": {
      const [lo, hi] = model.window(op.a, op.b);
      const l = op.reverse ? [...e].reverse() : e;
      return [zs.range(op.a, op.b, { reverse: op.reverse }), lo > hi ? [] : l.slice(lo, hi + 1)];
    }
    case "rangeByScore":
      return [
        zs.rangeByScore(op.min, op.max, op.o),
        model.limit(
          e.filter((x) => model.inScore(x[1], op.min, op.max, op.o)),
          op.o,
        ),
      ];
    case "countByScore":
      return [zs.countByScore(op.min, op.max, op.o), e.filter((x) => model.inScore(x[1], op.min, op.max, op.o)).length];
    case "deleteByScore": {
      const keep = e.filter((x) => !model.inScore(x[1], op.min, op.max, op.o));
      const removed = e.length - keep.length;
      model.entries = keep;
      return [zs.deleteRangeByScore(op.min, op.max, op.o), removed];
    }
    case "rangeByLex":
      return [
        zs.rangeByLex(op.min, op.max, op.o),
        model.limit(
          e.filter((x) => model.inLex(x[0], op.min, op.max)),
          op.o,
        ),
      ];
    case "countByLex":
      return [zs.countByLex(op.min, op.max), e.filter((x) => model.inLex(x[0], op.min, op.max)).length];
    case "deleteByLex": {
      const keep = e.filter((x) => !model.inLex(x[0], op.min, op.max));
      const removed = e.length - keep.length;
      model.entries = keep;
      return [zs.deleteRangeByLex(op.min, op.max), removed];
    }
    case "deleteByRank": {
      const [lo, hi] = model.window(op.a, op.b);
      const removed = lo > hi ? 0 : e.splice(lo, hi - lo + 1).length;
      return [zs.deleteRangeByRank(op.a, op.b), removed];
    }
    case "popMin":
      return [zs.popMin(op.n), e.splice(0, op.n)];
    case "popMax": {
      const k = Math.min(op.n, e.length);
      return [zs.popMax(op.n), e.splice(e.length - k, k).reverse()];
    }
    case "iterate":
      return [[...zs.entries({ reverse: op.reverse })], op.reverse ? [...e].reverse() : [...e]];
    case "copy": {
      // A clone and a toBytes round trip hold the same entries; the set itself is untouched.
      const copy = zs.clone();
      copy.checkInvariants();
      const read = SortedSet.fromBytes(zs.toBytes());
      read.checkInvariants();
      expect([...read]).toEqual([...e]);
      return [[...copy], [...e]];
    }
  }
}

function runModel(seed: number, lexMode: boolean, levelSeeds: fc.Arbitrary<number>, numRuns: number) {
  fc.assert(
    fc.property(ops(lexMode), levelSeeds, (sequence, levelSeed) => {
      const zs = new SortedSet({ seed: levelSeed, capacity: 1 });
      const model = new Model();
      for (const op of sequence) {
        const [ours, theirs] = apply(zs, model, op);
        expect(ours, JSON.stringify(op)).toEqual(theirs);
        expect(zs.size).toBe(model.entries.length);
        zs.checkInvariants();
      }
      expect([...zs]).toEqual(model.entries);
    }),
    { seed, numRuns },
  );
}

describe("SortedSet against a sorted-array model", () => {
  it("matches on random sequences of every operation (scores with ties and ±inf)", () => {
    runModel(0x5eed, false, fc.integer({ min: 0, max: 0xffffffff }), 5000);
  });

  it("matches on lex operations when all scores are equal (Redis's precondition)", () => {
    runModel(0x1e8, true, fc.integer({ min: 0, max: 0xffffffff }), 3000);
  });

  it("matches at larger sizes with tall towers (many levels, long spans)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: -50, max: 50 }), fc.nat(9)), {
          minLength: 200,
          maxLength: 1500,
        }),
        fc.nat(),
        (steps, levelSeed) => {
          const zs = new SortedSet({ seed: levelSeed });
          const model = new Model();
          for (const [m, s, kind] of steps) {
            const name = `k${m}`;
            if (kind < 6) {
              zs.add(name, s);
              model.add(name, s, {});
            } else if (kind < 8) {
              zs.delete(name);
              const i = model.find(name);
              if (i >= 0) model.entries.splice(i, 1);
            } else {
              const i = model.find(name);
              expect(zs.rank(name)).toBe(i < 0 ? undefined : i);
            }
          }
          zs.checkInvariants();
          expect([...zs]).toEqual(model.entries);
          for (let i = 0; i < model.entries.length; i += 7) expect(zs.at(i)).toEqual(model.entries[i]);
          expect(zs.rangeByScore(-10, 10, { offset: 5, count: 20 })).toEqual(
            model.entries.filter((x) => x[1] >= -10 && x[1] <= 10).slice(5, 25),
          );
        },
      ),
      { seed: 77, numRuns: 80 },
    );
  });
});

// ---------------------------------------------------------------- unit behaviour

describe("compareMembers", () => {
  it("orders like memcmp of UTF-8 bytes, including surrogates vs U+E000–U+FFFF", () => {
    expect(compareMembers("😀", "\u{FFFF}")).toBeGreaterThan(0); // UTF-16 says the opposite
    expect("😀" < "\u{FFFF}").toBe(true);
    expect(compareMembers("\u{E000}", "𝄞")).toBeLessThan(0);
    expect(compareMembers("a", "ab")).toBeLessThan(0);
    expect(compareMembers("ab", "ab")).toBe(0);
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 6 }),
        fc.string({ unit: "grapheme", maxLength: 6 }),
        (a, b) => {
          expect(Math.sign(compareMembers(a, b))).toBe(Math.sign(byteCompare(a, b)));
        },
      ),
      { seed: 99, numRuns: 3000 },
    );
  });
});

describe("SortedSet semantics", () => {
  it("follows ZADD NX/XX/GT/LT/CH and rejects invalid combinations", () => {
    const zs = new SortedSet({ seed: 1 });
    expect(zs.add("a", 5)).toBe(true);
    expect(zs.add("a", 6)).toBe(false);
    expect(zs.score("a")).toBe(6);
    expect(zs.add("a", 7, { nx: true })).toBe(false);
    expect(zs.score("a")).toBe(6);
    expect(zs.add("b", 1, { xx: true })).toBe(false);
    expect(zs.has("b")).toBe(false);
    expect(zs.add("a", 3, { gt: true })).toBe(false);
    expect(zs.score("a")).toBe(6);
    expect(zs.add("a", 9, { gt: true, ch: true })).toBe(true);
    expect(zs.add("a", 10, { lt: true, ch: true })).toBe(false);
    expect(zs.add("c", 1, { gt: true })).toBe(true); // GT does not prevent adding
    expect(() => zs.add("a", 1, { nx: true, xx: true })).toThrow(RangeError);
    expect(() => zs.add("a", 1, { gt: true, lt: true })).toThrow(/redstruct\/SortedSet: options/);
    expect(() => zs.add("a", 1, { gt: true, nx: true })).toThrow(RangeError);
    expect(() => zs.add("a", Number.NaN)).toThrow(/score must be a number, not NaN, got NaN/);
    expect(() => zs.add(1 as unknown as string, 1)).toThrow(TypeError);
    expect(() => zs.score(1 as unknown as string)).toThrow(/member must be a string, got 1/);
    expect(() => zs.delete(null as unknown as string)).toThrow(TypeError);
    expect(() => zs.add("a", "1" as unknown as number)).toThrow(TypeError);
    zs.checkInvariants();
  });

  it("rank … withScore gives [rank, score] (ZRANK … WITHSCORE, Redis 7.2); the type follows the option", () => {
    const zs = SortedSet.from([
      ["a", 3],
      ["b", 1],
      ["c", 2],
      ["d", -0],
    ]);
    const plain = zs.rank("a");
    const both = zs.rank("a", { withScore: true });
    const reverse = zs.rank("b", { reverse: true, withScore: true });
    expectTypeOf(plain).toEqualTypeOf<number | undefined>();
    expectTypeOf(both).toEqualTypeOf<[rank: number, score: number] | undefined>();
    expectTypeOf(zs.rank("a", { withScore: false })).toEqualTypeOf<number | undefined>();
    expectTypeOf(zs.rank("a", { reverse: true })).toEqualTypeOf<number | undefined>();
    const flag: boolean = Math.random() < 2;
    expectTypeOf(zs.rank("a", { withScore: flag })).toEqualTypeOf<number | [rank: number, score: number] | undefined>();
    expect(plain).toBe(3);
    expect(both).toEqual([3, 3]);
    expect(reverse).toEqual([2, 1]);
    expect(zs.rank("d", { withScore: true })).toEqual([0, -0]);
    expect(Object.is(zs.rank("d", { withScore: true })![1], -0)).toBe(true); // the score as score() gives it
    expect(zs.rank("zz", { withScore: true })).toBeUndefined();
    expect(zs.rank("a", { withScore: false })).toBe(3);
    for (const [m] of zs) {
      for (const reverse of [false, true]) {
        expect(zs.rank(m, { reverse, withScore: true })).toEqual([zs.rank(m, { reverse }), zs.score(m)]);
      }
    }
    expect(() => zs.rank("a", { withScore: "yes" } as never)).toThrow(TypeError);
    expect(() => zs.rank("a", { withScores: true } as never)).toThrow(/withScores.*withScore|withScore/);
    expect(() => zs.rank("a", null as never)).toThrow(TypeError);
  });

  it("rejects NaN from ZINCRBY without changing anything", () => {
    const zs = new SortedSet({ seed: 2 });
    expect(zs.incrBy("x", Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(() => zs.incrBy("x", Number.NEGATIVE_INFINITY)).toThrow(/resulting score/);
    expect(() => zs.incrBy("x", Number.NaN)).toThrow(RangeError);
    expect(zs.score("x")).toBe(Number.POSITIVE_INFINITY);
    expect(zs.incrBy("y", 2.5)).toBe(2.5);
    expect(zs.incrBy("y", 1)).toBe(3.5);
  });

  it("validates ranges, lex bounds and counts", () => {
    const zs = SortedSet.from(
      [
        ["a", 1],
        ["b", 2],
      ],
      { seed: 3 },
    );
    expect(() => zs.range(0.5, 1)).toThrow(RangeError);
    expect(() => zs.rangeByScore(Number.NaN, 1)).toThrow(RangeError);
    expect(() => zs.rangeByLex("a", "+")).toThrow(/min must be a lex bound/);
    expect(() => zs.countByLex("-", "")).toThrow(RangeError);
    expect(() => zs.popMin(-1)).toThrow(RangeError);
    expect(() => zs.rangeByScore(0, 1, { offset: 1.5 })).toThrow(RangeError);
    expect(() => new SortedSet({ seed: -1 })).toThrow(RangeError);
    expect(zs.rangeByScore(0, 3, { count: 0 })).toEqual([]);
    expect(zs.rangeByScore(0, 3, { offset: -1 })).toEqual([]);
    expect(zs.rangeByScore(0, 3, { reverse: true, offset: 1, count: -1 })).toEqual([["a", 1]]);
    expect(zs.rangeByScore(3, 0)).toEqual([]);
    expect(zs.popMin(0)).toEqual([]);
  });

  it("visits each member present throughout once when the set changes underneath", () => {
    const zs = SortedSet.from(
      Array.from({ length: 50 }, (_, i) => [`m${i}`, i] as [string, number]),
      { seed: 4 },
    );
    const seen: string[] = [];
    for (const [m, s] of zs) {
      seen.push(m);
      zs.delete(m); // delete the current entry
      if (s < 50 && s % 10 === 0) zs.add(`late${s}`, 1000 + s); // add ahead of the cursor: not visited
    }
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
    expect([...zs.keys()]).toEqual(["late0", "late10", "late20", "late30", "late40"]);
    zs.checkInvariants();
    const back = SortedSet.from(
      [
        ["a", 1],
        ["b", 2],
        ["c", 3],
      ],
      { seed: 5 },
    );
    const order: string[] = [];
    for (const [m] of back.entries({ reverse: true })) {
      order.push(m);
      if (m === "c") back.delete("b");
    }
    expect(order).toEqual(["c", "a"]);
  });

  it("reuses freed nodes: memory reaches a steady state under churn", () => {
    const zs = new SortedSet({ seed: 6, capacity: 100 });
    for (let i = 0; i < 100; i++) zs.add(`m${i}`, i);
    // Node slots are reused one for one; link blocks are reused by nodes of the same level, so the
    // arena reaches a steady state once every level has seen its peak count (a few rounds).
    const churn = () => {
      for (let i = 0; i < 100; i++) zs.delete(`m${i}`);
      for (let i = 0; i < 100; i++) zs.add(`m${i}`, (i * 37) % 100);
      zs.incrBy("m3", 0.5);
    };
    for (let round = 0; round < 30; round++) churn();
    const bytes = zs.byteLength;
    for (let round = 0; round < 30; round++) churn();
    zs.checkInvariants();
    expect(zs.byteLength).toBe(bytes);
    expect(zs.rank("m3")).toBe(zs.range(0, -1).findIndex(([m]) => m === "m3"));
    zs.clear();
    expect(zs.size).toBe(0);
    expect([...zs]).toEqual([]);
    zs.checkInvariants();
    zs.add("again", 1);
    expect(zs.range(0, -1)).toEqual([["again", 1]]);
  });

  it("keeps removed members as tombstones and purges them once they outnumber live ones", () => {
    const index = new MemberIndex(16);
    for (let i = 0; i < 300; i++) index.add(`m${i}`, i);
    for (let i = 0; i < 100; i++) index.remove(`m${i}`, index.slotOf(`m${i}`));
    expect(index.mapSize).toBe(300); // 100 tombstones, 200 live
    expect(index.slotOf("m5")).toBe(0);
    for (let i = 0; i < 100; i++) index.add(`m${i}`, i + 0.5); // overwrite the tombstones
    expect(index.mapSize).toBe(300);
    expect(index.scoreOf(index.slotOf("m7"))).toBe(7.5);
    for (let i = 0; i < 250; i++) index.remove(`m${i}`, index.slotOf(`m${i}`));
    expect(index.size).toBe(50);
    expect(index.mapSize).toBeLessThanOrEqual(50 + 64); // purged when tombstones passed 150 > live
    expect(index.top - 1 - index.freeCount).toBe(50);
    const zs = new SortedSet({ seed: 9 });
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 500; i++) zs.add(`k${i}`, i);
      for (let i = 0; i < 500; i += round + 1) zs.delete(`k${i}`);
      zs.checkInvariants();
    }
    expect(zs.has("k0")).toBe(false);
    expect(zs.score("k1")).toBe(1);
  });

  it("keeps up links right (rank walks them) through deletes, moves, range removals and pops", () => {
    const zs = new SortedSet({ seed: 11 });
    const n = 4000;
    // Scores with many ties so the member order matters too.
    for (let i = 0; i < n; i++) zs.add(`m${i}`, (i * 7919) % 997);
    const ranksMatch = () => {
      zs.checkInvariants(); // checks every up link against the level chains
      const all = zs.range(0, -1);
      all.forEach(([m], r) => {
        expect(zs.rank(m)).toBe(r);
        expect(zs.rank(m, { reverse: true })).toBe(all.length - 1 - r);
      });
    };
    ranksMatch();
    for (let i = 0; i < n; i += 3) zs.delete(`m${i}`);
    ranksMatch();
    for (let i = 1; i < n; i += 5) zs.incrBy(`m${i}`, i % 2 === 0 ? 0.25 : 500); // in place and moves
    ranksMatch();
    zs.deleteRangeByRank(100, 400);
    zs.deleteRangeByScore(200, 300);
    zs.popMin(50);
    zs.popMax(50);
    ranksMatch();
    for (let i = 0; i < n; i += 3) zs.add(`m${i}`, i % 13); // freed blocks reused
    ranksMatch();
  });

  it("draws node levels with p = 1/4 (geometric, capped at 32)", () => {
    const list = new OrderedList({ nodeSize: 2, levelBits: 2 }, 16, new Mulberry32(7));
    for (let i = 0; i < 200_000; i++) list.insert(i, `m${i}`);
    const counts = new Array<number>(34).fill(0);
    let n = 0;
    for (let x = list.store.next(HEADER, 0); x !== NIL; x = list.store.next(x, 0)) {
      counts[list.store.level(x)]!++;
      n++;
    }
    expect(n).toBeGreaterThan(50_000);
    // P(level ≥ k) = 4^-(k-1): 3σ binomial bounds for the first levels.
    for (let k = 1; k <= 5; k++) {
      let atLeast = 0;
      for (let j = k; j < counts.length; j++) atLeast += counts[j]!;
      const p = 4 ** -(k - 1);
      const sigma = Math.sqrt(n * p * (1 - p));
      expect(Math.abs(atLeast - n * p)).toBeLessThan(3 * sigma + 1);
    }
    expect(counts[0]).toBe(0);
    expect(list.level).toBeLessThanOrEqual(MAX_LEVEL);
  });
});

describe("README example", () => {
  it("runs and gives the documented results", () => {
    const board = new SortedSet();
    board.add("alice", 120);
    board.add("bob", 95);
    board.add("carol", 120);
    expect(board.incrBy("bob", 30)).toBe(125);
    expect(board.range(0, -1, { reverse: true })).toEqual([
      ["bob", 125],
      ["carol", 120],
      ["alice", 120],
    ]);
    expect(board.rank("alice", { reverse: true })).toBe(2);
    expect(board.score("carol")).toBe(120);
    const hits = new SortedSet();
    const now = Date.now();
    hits.add("old", now - 120_000);
    hits.add(`req:${now}`, now);
    expect(hits.deleteRangeByScore(Number.NEGATIVE_INFINITY, now - 60_000, { maxExclusive: true })).toBe(1);
    expect(hits.countByScore(now - 60_000, now)).toBe(1);
    expect(
      board.rangeByScore(100, Number.POSITIVE_INFINITY, { minExclusive: true, reverse: true, offset: 1, count: 10 }),
    ).toEqual([
      ["carol", 120],
      ["alice", 120],
    ]);
  });
});
