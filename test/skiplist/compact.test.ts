import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { sortedSetWithLayout } from "../../src/skiplist/sorted-set.js";
import { ZSet } from "../../src/skiplist/zset.js";
import { byteCompare } from "../support/byte-order.js";

// A small set is held in a compact form (two sorted arrays and a Map); past 128 entries it becomes
// a member index beside a skiplist, and back once removals leave 64 or fewer. These tests drive
// sets across both conversions — one member at a time and in bulk, by every kind of change and
// every bulk load — against a sorted-array model, with checkInvariants() (which also holds each form
// to its bound) after every step.

const byKey = (a: SortedSetEntry, b: SortedSetEntry) =>
  a[1] !== b[1] ? (a[1] < b[1] ? -1 : 1) : byteCompare(a[0], b[0]);

describe("the compact form and its conversions", () => {
  it("converts to the list form at the 129th member and back at 64, keeping every entry", () => {
    const z = new ZSet(3, 16);
    const model = new Map<string, number>();
    const check = (compact: boolean) => {
      z.checkInvariants("test");
      expect(z.compact).toBe(compact);
      const entries: SortedSetEntry[] = [];
      for (let p = z.firstPos(); p >= 0; p = z.nextPos(p)) entries.push([z.memberAt(p), z.scoreAt(p)]);
      expect(entries).toEqual([...model].sort(byKey));
    };
    for (let i = 0; i < 128; i++) {
      z.insert(`m${i}`, (i * 37) % 101);
      model.set(`m${i}`, (i * 37) % 101);
    }
    check(true);
    z.insert("m128", 50.5);
    model.set("m128", 50.5);
    check(false);
    for (let i = 0; i < 64; i++) {
      expect(z.delete(`m${i}`)).toBe(true);
      model.delete(`m${i}`);
      check(model.size <= 64);
    }
    expect(z.size).toBe(65);
    z.update("m100", model.get("m100")!, -1);
    model.set("m100", -1);
    z.deleteRanks(0, 1); // the lowest: m100
    model.delete("m100");
    check(true);
    for (let i = 0; i < 64; i++) {
      z.insert(`n${i}`, i);
      model.set(`n${i}`, i);
    }
    check(true);
    z.insert("n64", 64);
    model.set("n64", 64);
    check(false);
    z.clear();
    model.clear();
    check(true);
  });

  it("follows a sorted-array model across the bound, one member at a time and in bulk (model-based)", () => {
    type Model = { entries: SortedSetEntry[] };
    type Cmd = fc.Command<Model, SortedSet>;
    const names = fc.integer({ min: 0, max: 299 }).map((i) => `k${i}`);
    const score = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constantFrom(0.5, -0, Number.POSITIVE_INFINITY));
    // Runs that passed the bound (129+) and later came back to half of it (≤ 64): both conversions.
    let crossedUp = false;
    let crossedBoth = 0;
    const cmd = (label: string, run: (m: Model, z: SortedSet) => void): Cmd => ({
      check: () => true,
      run: (m, z) => {
        run(m, z);
        m.entries.sort(byKey);
        z.checkInvariants();
        expect([...z], label).toEqual(m.entries);
        if (z.size > 128) crossedUp = true;
        else if (z.size <= 64 && crossedUp) {
          crossedBoth++;
          crossedUp = false;
        }
      },
      toString: () => label,
    });
    // As ZADD: an equal score (0 and −0 are equal) is not a change.
    const set = (m: Model, name: string, s: number) => {
      const i = m.entries.findIndex((e) => e[0] === name);
      if (i < 0) m.entries.push([name, s]);
      else if (m.entries[i]![1] !== s) m.entries[i] = [name, s];
    };
    const commands: fc.Arbitrary<Cmd>[] = [
      fc.array(fc.tuple(names, score), { minLength: 1, maxLength: 90, size: "max" }).map((pairs) =>
        cmd(`add ${pairs.length}`, (m, z) => {
          for (const [n, s] of pairs) {
            z.add(n, s);
            set(m, n, s);
          }
        }),
      ),
      fc.array(names, { minLength: 1, maxLength: 90, size: "max" }).map((ns) =>
        cmd(`delete ${ns.length}`, (m, z) => {
          for (const n of ns) {
            const i = m.entries.findIndex((e) => e[0] === n);
            expect(z.delete(n)).toBe(i >= 0);
            if (i >= 0) m.entries.splice(i, 1);
          }
        }),
      ),
      fc.tuple(names, fc.integer({ min: -3, max: 3 })).map(([n, d]) =>
        cmd(`incrBy ${n} ${d}`, (m, z) => {
          const i = m.entries.findIndex((e) => e[0] === n);
          const next = (i < 0 ? 0 : m.entries[i]![1]) + d;
          if (Number.isNaN(next)) return;
          expect(z.incrBy(n, d)).toBe(next);
          set(m, n, next);
        }),
      ),
      fc
        .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 150 }))
        .map(([a, w]) => [a, a + w] as const)
        .map(([a, b]) =>
          cmd(`deleteRangeByRank ${a} ${b}`, (m, z) => {
            const removed = a <= b ? m.entries.splice(a, b - a + 1).length : 0;
            expect(z.deleteRangeByRank(a, b)).toBe(removed);
          }),
        ),
      fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 40 })).map(([lo, w]) =>
        cmd(`deleteRangeByScore ${lo} ${lo + w}`, (m, z) => {
          const keep = m.entries.filter((e) => e[1] < lo || e[1] > lo + w);
          expect(z.deleteRangeByScore(lo, lo + w)).toBe(m.entries.length - keep.length);
          m.entries = keep;
        }),
      ),
      fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 150 })).map(([max, k]) =>
        cmd(`pop ${max} ${k}`, (m, z) => {
          const n = Math.min(k, m.entries.length);
          const want = max ? m.entries.splice(m.entries.length - n, n).reverse() : m.entries.splice(0, n);
          expect(max ? z.popMax(k) : z.popMin(k)).toEqual(want);
        }),
      ),
      fc.tuple(names, fc.boolean()).map(([n, reverse]) =>
        cmd(`reads ${n} ${reverse}`, (m, z) => {
          const i = m.entries.findIndex((e) => e[0] === n);
          const rank = i < 0 ? undefined : reverse ? m.entries.length - 1 - i : i;
          expect(z.rank(n, { reverse })).toBe(rank);
          expect(z.rank(n, { reverse, withScore: true })).toEqual(i < 0 ? undefined : [rank, m.entries[i]![1]]);
          expect(z.score(n)).toBe(i < 0 ? undefined : m.entries[i]![1]);
          const l = reverse ? [...m.entries].reverse() : m.entries;
          expect(z.range(3, 12, { reverse })).toEqual(l.slice(3, 13));
          expect(z.at(-1, { reverse })).toEqual(l[l.length - 1]);
          const hits = m.entries.filter((e) => e[1] > -10 && e[1] <= 10);
          expect(z.rangeByScore(-10, 10, { minExclusive: true, reverse })).toEqual(reverse ? hits.reverse() : hits);
          expect(z.countByScore(-10, 10, { minExclusive: true })).toBe(hits.length);
        }),
      ),
      fc.constant(
        cmd("clone + toBytes", (_, z) => {
          const c = z.clone();
          c.checkInvariants();
          expect([...c]).toEqual([...z]);
          const back = SortedSet.fromBytes(z.toBytes());
          back.checkInvariants();
          expect([...back]).toEqual([...z]);
        }),
      ),
    ];
    fc.assert(
      fc.property(
        fc.array(fc.oneof(...commands), { minLength: 30, maxLength: 60, size: "max" }),
        fc.nat(),
        (cmds, seed) => {
          const z = new SortedSet({ seed });
          const model: Model = { entries: [] };
          crossedUp = false;
          for (const c of cmds) c.run(model, z);
        },
      ),
      { seed: 0xc0c7, numRuns: 400 },
    );
    expect(crossedBoth).toBeGreaterThan(30);
  });

  it("bulk loads land in the form their size calls for: unions, fromBytes, from", () => {
    for (const n of [0, 1, 64, 65, 128, 129, 300]) {
      const entries = Array.from({ length: n }, (_, i) => [`u${i}`, (i * 7) % 50] as [string, number]);
      const a = SortedSet.from(entries.slice(0, n >> 1), { seed: 1 });
      const b = SortedSet.from(entries.slice(n >> 2), { seed: 2 });
      for (const z of [SortedSet.union([a, b]), SortedSet.fromBytes(SortedSet.from(entries).toBytes()), a.clone()]) {
        z.checkInvariants();
      }
      const u = SortedSet.union([a, b]);
      expect(u.size).toBe(new Set([...a.keys(), ...b.keys()]).size);
      expect([...SortedSet.fromBytes(u.toBytes())]).toEqual([...u]);
      const d = SortedSet.diff([u, b]);
      d.checkInvariants();
      expect([...d.keys()]).toEqual([...u.keys()].filter((m) => !b.has(m)));
    }
  });

  it("small layouts: bounds of 1..6 with nodes of 2, conversions on nearly every change", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: -5, max: 5 }), fc.nat(3))),
        fc.nat(),
        (compactMax, steps, seed) => {
          const z = sortedSetWithLayout({ nodeSize: 2, levelBits: 1, compactMax }, { seed });
          const m = new Map<string, number>();
          for (const [k, s, kind] of steps) {
            const name = `x${k}`;
            if (kind < 2) {
              z.add(name, s);
              m.set(name, s);
            } else if (kind === 2) {
              expect(z.delete(name)).toBe(m.delete(name));
            } else {
              const [popped] = z.popMin();
              if (popped !== undefined) m.delete(popped[0]);
            }
            z.checkInvariants();
          }
          expect([...z]).toEqual([...m].sort(byKey));
        },
      ),
      { seed: 0x5a1e, numRuns: 300 },
    );
  });
});

describe("random draws and node levels come from separate streams of the seed", () => {
  it("reading random members never changes the shape later inserts build", () => {
    const build = (reads: boolean) => {
      const z = sortedSetWithLayout({ nodeSize: 3, levelBits: 1, compactMax: 0 }, { seed: 77 });
      for (let i = 0; i < 2000; i++) {
        z.add(`m${i}`, (i * 7919) % 1009);
        if (reads && i % 10 === 0) z.randomMembers(-3);
      }
      return z;
    };
    const quiet = build(false);
    const read = build(true);
    // The towers a list allocates follow the levels it drew: equal shapes hold equal bytes.
    expect(read.byteLength).toBe(quiet.byteLength);
    expect([...read]).toEqual([...quiet]);
  });

  it("a seed reproduces both streams; a copy and a saved set continue the draws", () => {
    const run = () => {
      const z = new SortedSet({ seed: 1234 });
      for (let i = 0; i < 500; i++) z.add(`m${i}`, i % 17);
      return z;
    };
    const a = run();
    const b = run();
    expect(a.randomMembers(-20)).toEqual(b.randomMembers(-20));
    expect(a.toBytes()).toEqual(b.toBytes());
    const c = a.clone();
    const d = SortedSet.fromBytes(a.toBytes());
    const next = a.randomMembers(5);
    expect(c.randomMembers(5)).toEqual(next);
    expect(d.randomMembers(5)).toEqual(next);
  });
});
