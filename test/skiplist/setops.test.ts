import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Aggregate, SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { byteCompare } from "../support/byte-order.js";

// Model-based properties of the Redis 6.2+ additions: union / intersect / diff / intersectCard,
// incrBy with flags, scores, randomMembers. The model is written from Redis's documented rules on
// plain arrays and Maps; checkInvariants() runs on every set produced or changed.

const sortEntries = (e: SortedSetEntry[]) =>
  e.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : byteCompare(a[0], b[0])));

function agg(target: number, value: number, a: Aggregate): number {
  if (a === "sum") return Number.isNaN(target + value) ? 0 : target + value;
  if (a === "min") return value < target ? value : target;
  return value > target ? value : target;
}

/** Redis's rules on plain Maps: inputs smallest first (stable), weights kept with their input. */
function model(op: "union" | "inter", sets: Map<string, number>[], weights: number[], a: Aggregate): SortedSetEntry[] {
  const order = sets.map((_, i) => i).sort((x, y) => sets[x]!.size - sets[y]!.size);
  const out = new Map<string, number>();
  if (op === "union") {
    for (const i of order) {
      for (const [m, s] of sets[i]!) {
        let v = weights[i]! * s;
        if (Number.isNaN(v)) v = 0;
        out.set(m, out.has(m) ? agg(out.get(m)!, v, a) : v);
      }
    }
  } else {
    const [first, ...rest] = order;
    for (const [m, s] of sets[first!]!) {
      let v = weights[first!]! * s;
      if (Number.isNaN(v)) v = 0;
      let all = true;
      for (const j of rest) {
        const t = sets[j]!.get(m);
        if (t === undefined) {
          all = false;
          break;
        }
        v = agg(v, t * weights[j]!, a);
      }
      if (all) out.set(m, v);
    }
  }
  return sortEntries([...out]);
}

const NAMES = ["a", "b", "c", "d", "e", "f", "g", "😀", "\u{E000}", ""];
const name = fc.constantFrom(...NAMES);
const score = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.1, 0.2, -0, 1e308),
  fc.double({ noNaN: true }),
);
const weight = fc.oneof(
  fc.constantFrom(0, 1, -1, 0.5, -2.5, 1e308, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.1),
  fc.double({ noNaN: true }),
);
const aggregate = fc.constantFrom<Aggregate>("sum", "min", "max");
const inputs = fc.array(fc.array(fc.tuple(name, score), { maxLength: 8 }), { minLength: 1, maxLength: 4 });

/** Bit-exact comparison of entries (distinguishes −0 from 0). */
function expectSame(ours: SortedSetEntry[], theirs: SortedSetEntry[]): void {
  expect(ours.map((e) => e[0])).toEqual(theirs.map((e) => e[0]));
  ours.forEach((e, i) => {
    expect(Object.is(e[1], theirs[i]![1]), `${e[0]}: ${e[1]} vs ${theirs[i]![1]}`).toBe(true);
  });
}

describe("SortedSet.union / intersect / diff / intersectCard against a model of Redis's rules", () => {
  it("union and intersect: members and every score bit for bit, for any weights and aggregate", () => {
    fc.assert(
      fc.property(
        inputs,
        fc.array(weight, { minLength: 4, maxLength: 4 }),
        aggregate,
        fc.boolean(),
        (raw, w, a, dup) => {
          const sets = raw.map((entries, i) => SortedSet.from(entries, { seed: i }));
          if (dup && sets.length > 1) sets[1] = sets[0]!; // the same set twice
          const maps = sets.map((s) => new Map(s));
          const weights = w.slice(0, sets.length);
          const before = sets.map((s) => [...s]);
          const u = SortedSet.union(sets, { weights, aggregate: a });
          const n = SortedSet.intersect(sets, { weights, aggregate: a });
          u.checkInvariants();
          n.checkInvariants();
          expectSame([...u], model("union", maps, weights, a));
          expectSame([...n], model("inter", maps, weights, a));
          expect(SortedSet.intersectCard(sets)).toBe(n.size);
          sets.forEach((s, i) => {
            expect([...s]).toEqual(before[i]);
          });
        },
      ),
      { seed: 0x5e70, numRuns: 3000 },
    );
  });

  it("defaults: weights 1 and aggregate sum", () => {
    fc.assert(
      fc.property(inputs, (raw) => {
        const sets = raw.map((entries, i) => SortedSet.from(entries, { seed: i }));
        const maps = sets.map((s) => new Map(s));
        const ones = sets.map(() => 1);
        expectSame([...SortedSet.union(sets)], model("union", maps, ones, "sum"));
        expectSame([...SortedSet.intersect(sets)], model("inter", maps, ones, "sum"));
      }),
      { seed: 0xde, numRuns: 500 },
    );
  });

  it("diff keeps the first set's members absent from the others, scores unchanged", () => {
    fc.assert(
      fc.property(inputs, (raw) => {
        const sets = raw.map((entries, i) => SortedSet.from(entries, { seed: i }));
        const d = SortedSet.diff(sets);
        d.checkInvariants();
        const want = [...sets[0]!].filter(([m]) => !sets.slice(1).some((s) => s.has(m)));
        expectSame([...d], want);
      }),
      { seed: 0xd1f, numRuns: 1000 },
    );
  });

  it("intersectCard stops at a limit", () => {
    fc.assert(
      fc.property(inputs, fc.nat({ max: 10 }), (raw, limit) => {
        const sets = raw.map((entries, i) => SortedSet.from(entries, { seed: i }));
        const full = SortedSet.intersect(sets).size;
        expect(SortedSet.intersectCard(sets, limit)).toBe(limit === 0 ? full : Math.min(limit, full));
      }),
      { seed: 0xca4d, numRuns: 500 },
    );
  });

  it("bulk-loaded results are ordinary sets: every operation keeps working on them (large, tall towers)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.nat(), (n, seed) => {
        const a = new SortedSet({ seed });
        const b = new SortedSet({ seed: seed ^ 1 });
        for (let i = 0; i < n; i++) {
          a.add(`m${i}`, (i * 7919) % 1000);
          if (i % 3 === 0) b.add(`m${i}`, i % 10);
          else b.add(`x${i}`, -i);
        }
        const u = SortedSet.union([a, b], { weights: [1, -2] });
        u.checkInvariants();
        expect(u.size).toBe(a.size + b.size - Math.ceil(n / 3));
        // Ranks, by-rank access and changes on the loaded structure.
        const entries = [...u];
        for (let k = 0; k < entries.length; k += 97) {
          expect(u.rank(entries[k]![0])).toBe(k);
          expect(u.at(k)).toEqual(entries[k]);
        }
        for (let k = 0; k < entries.length; k += 5) u.delete(entries[k]![0]);
        for (let k = 0; k < 50; k++) u.add(`new${k}`, k - 25);
        u.incrBy(entries[1]?.[0] ?? "z", 1e6);
        u.popMin(3);
        u.checkInvariants();
      }),
      { seed: 0xb01c, numRuns: 40 },
    );
  });

  it("checks its inputs", () => {
    const a = SortedSet.from([["a", 1]]);
    expect(() => SortedSet.union([])).toThrow(RangeError);
    expect(() => SortedSet.union([a, {} as never])).toThrow(/sets\[1\] must be a SortedSet/);
    expect(() => SortedSet.union("ab" as never)).toThrow(TypeError);
    expect(() => SortedSet.union([a], { weights: [1, 2] })).toThrow(/weights must be one weight per set/);
    expect(() => SortedSet.union([a], { weights: [Number.NaN] })).toThrow(RangeError);
    expect(() => SortedSet.union([a], { aggregate: "SUM" as never })).toThrow(RangeError);
    expect(() => SortedSet.union([a], { Aggregate: "sum" } as never)).toThrow(/unknown option "Aggregate"/);
    expect(() => SortedSet.intersect([a], null as never)).toThrow(TypeError);
    expect(() => SortedSet.intersectCard([a], -1)).toThrow(RangeError);
    expect(() => SortedSet.diff([])).toThrow(RangeError);
    expect(() => SortedSet.diff([a], { weights: [1] } as never)).toThrow(/unknown option "weights".*takes no options/);
  });
});

describe("incrBy with ZADD INCR's flags", () => {
  it("matches the model: undefined when a flag stops it, nothing changed then", () => {
    const flags = fc.record({ nx: fc.boolean(), xx: fc.boolean(), gt: fc.boolean(), lt: fc.boolean() });
    fc.assert(
      fc.property(fc.array(fc.tuple(name, score, flags), { maxLength: 40 }), fc.nat(), (ops, seed) => {
        const zs = new SortedSet({ seed });
        const m = new Map<string, number>();
        for (const [member, delta, f] of ops) {
          const bad = (f.nx && f.xx) || Number(f.nx) + Number(f.gt) + Number(f.lt) > 1;
          const cur = m.get(member);
          let want: number | undefined | "error";
          if (bad) want = "error";
          else if (cur === undefined) want = f.xx ? undefined : delta;
          else if (f.nx) want = undefined;
          else if (Number.isNaN(cur + delta)) want = "error";
          else if ((f.gt && cur + delta <= cur) || (f.lt && cur + delta >= cur)) want = undefined;
          else want = cur + delta;
          let got: number | undefined | "error";
          try {
            got = zs.incrBy(member, delta, f);
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError);
            got = "error";
          }
          expect(got).toBe(want);
          if (typeof want === "number") m.set(member, want);
          zs.checkInvariants();
          expect([...zs]).toEqual(sortEntries([...m]));
        }
      }),
      { seed: 0x1c4, numRuns: 1500 },
    );
  });
});

describe("scores (ZMSCORE)", () => {
  it("gives each member's score or undefined, in the order asked", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, score)), fc.array(name), (entries, asked) => {
        const zs = SortedSet.from(entries, { seed: 3 });
        const m = new Map(zs);
        expect(zs.scores(asked)).toEqual(asked.map((a) => m.get(a)));
        expect(zs.scores(new Set(asked))).toEqual([...new Set(asked)].map((a) => m.get(a)));
      }),
      { seed: 0x5c0, numRuns: 500 },
    );
    expect(() => SortedSet.from([]).scores("ab" as never)).toThrow(TypeError);
    expect(() => SortedSet.from([]).scores([1] as never)).toThrow(/members\[0\] must be a string/);
  });
});

describe("randomMembers (ZRANDMEMBER)", () => {
  it("count semantics: distinct up to size when positive, |count| draws with repeats when negative", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, score)),
        fc.integer({ min: -30, max: 30 }),
        fc.nat(),
        (entries, count, seed) => {
          const zs = SortedSet.from(entries, { seed });
          const m = new Map(zs);
          const got = zs.randomMembers(count);
          const withScores = zs.randomMembers(count, { withScores: true });
          const want = zs.size === 0 ? 0 : count >= 0 ? Math.min(count, zs.size) : -count;
          expect(got).toHaveLength(want);
          expect(withScores).toHaveLength(want);
          for (const g of got) expect(m.has(g)).toBe(true);
          for (const [g, s] of withScores) expect(m.get(g)).toBe(s);
          if (count > 0) expect(new Set(got).size).toBe(got.length);
          if (count >= zs.size) expect(got).toEqual([...zs.keys()]);
          zs.checkInvariants();
        },
      ),
      { seed: 0x7a4d, numRuns: 1000 },
    );
  });

  it("is reproducible from the seed", () => {
    const make = () =>
      SortedSet.from(
        Array.from({ length: 50 }, (_, i) => [`m${i}`, i] as [string, number]),
        { seed: 9 },
      );
    expect(make().randomMembers(-20)).toEqual(make().randomMembers(-20));
    expect(make().randomMembers(7)).toEqual(make().randomMembers(7));
  });

  // Chi-square goodness of fit with a fixed seed; thresholds at p = 0.001 for the degrees of freedom.
  it("draws uniformly: single draws and subsets (chi-square)", () => {
    const zs = SortedSet.from(
      Array.from({ length: 10 }, (_, i) => [`m${i}`, i] as [string, number]),
      { seed: 2026 },
    );
    const counts = new Map<string, number>();
    for (const m of zs.randomMembers(-50_000)) counts.set(m, (counts.get(m) ?? 0) + 1);
    const e1 = 50_000 / 10;
    let chi1 = 0;
    for (const m of zs.keys()) chi1 += ((counts.get(m) ?? 0) - e1) ** 2 / e1;
    expect(chi1).toBeLessThan(27.88); // 9 degrees of freedom
    const subsets = new Map<string, number>();
    const draws = 24_000;
    for (let i = 0; i < draws; i++) {
      const key = zs.randomMembers(3).sort().join(",");
      subsets.set(key, (subsets.get(key) ?? 0) + 1);
    }
    expect(subsets.size).toBe(120); // C(10, 3): every subset occurs
    const e3 = draws / 120;
    let chi3 = 0;
    for (const c of subsets.values()) chi3 += (c - e3) ** 2 / e3;
    expect(chi3).toBeLessThan(173.6); // 119 degrees of freedom
    expect(() => zs.randomMembers(1.5)).toThrow(RangeError);
    expect(() => zs.randomMembers(-(2 ** 26) - 1)).toThrow(RangeError);
    expect(() => zs.randomMembers(1, { withscores: true } as never)).toThrow(/unknown option "withscores"/);
  });
});
