import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { sortedSetWithLayout } from "../../src/skiplist/sorted-set.js";
import type { Layout } from "../../src/skiplist/zset.js";

// Iteration while the set changes: every member present for the whole iteration is visited exactly
// once, no member twice, no member added meanwhile, each with its score at the time of the visit,
// and every iteration ends within as many steps as the set had members when it began.

const NAMES = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "😀", "\u{E000}"];
const name = fc.constantFrom(...NAMES);
const score = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(Number.POSITIVE_INFINITY, -0.5, 100));

type Op =
  | { t: "open"; reverse: boolean }
  | { t: "step"; which: number; times: number }
  | { t: "add"; m: string; s: number; gt: boolean }
  | { t: "incrBy"; m: string; d: number }
  | { t: "delete"; m: string }
  | { t: "pop"; max: boolean; n: number }
  | { t: "deleteRange"; a: number; b: number }
  | { t: "clear" };

/** Changes and steps over `name`; `long` runs step and clear rarely, so changes pile up between steps. */
const opOver = (name: fc.Arbitrary<string>, long = false): fc.Arbitrary<Op> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.record({ t: fc.constant("open" as const), reverse: fc.boolean() }) },
    {
      weight: long ? 1 : 8,
      arbitrary: fc.record({
        t: fc.constant("step" as const),
        which: fc.nat({ max: 3 }),
        times: fc.integer({ min: 1, max: 3 }),
      }),
    },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("add" as const), m: name, s: score, gt: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant("incrBy" as const), m: name, d: score }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant("delete" as const), m: name }) },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant("pop" as const), max: fc.boolean(), n: fc.integer({ min: 0, max: 2 }) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant("deleteRange" as const),
        a: fc.integer({ min: -3, max: 3 }),
        b: fc.integer({ min: -3, max: 3 }),
      }),
    },
    { weight: long ? 0 : 1, arbitrary: fc.constant({ t: "clear" as const }) },
  );
const op = opOver(name);
/** Many members, so that the journal fills and is read by every iterator, and iterators detach. */
const manyNames = fc.integer({ min: 0, max: 299 }).map((i) => `m${i}`);

/** One open iteration: an entries, a keys and a values iterator stepped in lockstep. */
interface Tracked {
  entries: Iterator<SortedSetEntry>;
  keys: Iterator<string>;
  values: Iterator<number>;
  atOpen: Set<string>;
  /** Members removed (or cleared) at some point since the iteration began. */
  gone: Set<string>;
  visited: string[];
  done: boolean;
}

function step(zs: SortedSet, t: Tracked): void {
  if (t.done) return;
  const e = t.entries.next();
  const k = t.keys.next();
  const v = t.values.next();
  expect(k.done).toBe(e.done);
  expect(v.done).toBe(e.done);
  if (e.done) {
    t.done = true;
    return;
  }
  const [m, s] = e.value;
  expect(k.value).toBe(m);
  expect(v.value).toBe(s);
  expect(t.visited, `visited ${m} twice`).not.toContain(m);
  expect(t.atOpen.has(m), `visited ${m}, added after the iteration began`).toBe(true);
  expect(zs.score(m), `score of ${m} is the current one`).toBe(s);
  t.visited.push(m);
  expect(t.visited.length).toBeLessThanOrEqual(t.atOpen.size);
}

function removedNow(zs: SortedSet, before: string[], open: Tracked[]): void {
  const now = new Set(zs.keys());
  for (const m of before) if (!now.has(m)) for (const t of open) t.gone.add(m);
}

describe("SortedSet iteration under mutation", () => {
  /**
   * Random interleavings of opening and stepping iterators with every kind of change; `layout` gives
   * the set tiny nodes and a tiny compact bound, so it converts between its two forms under the
   * iterators again and again.
   */
  const interleavings = (names: fc.Arbitrary<string>, initial: number, ops: number, long = false, layout?: Layout) =>
    fc.property(
      fc.array(fc.tuple(names, score), { maxLength: initial, size: long ? "max" : undefined }),
      fc.array(opOver(names, long), { minLength: 1, maxLength: ops, size: long ? "max" : undefined }),
      fc.nat(),
      (initial, ops, seed) => {
        let zs: SortedSet;
        if (layout === undefined) {
          zs = SortedSet.from(initial, { seed });
        } else {
          zs = sortedSetWithLayout(layout, { seed });
          for (const [m, s] of initial) zs.add(m, s);
        }
        const open: Tracked[] = [];
        const openOne = (reverse: boolean) => {
          const members = [...zs.keys()];
          open.push({
            entries: zs.entries({ reverse }),
            keys: zs.keys({ reverse }),
            values: zs.values({ reverse }),
            atOpen: new Set(members),
            gone: new Set(),
            visited: [],
            done: false,
          });
        };
        openOne(false);
        for (const o of ops) {
          const before = [...zs.keys()];
          switch (o.t) {
            case "open":
              openOne(o.reverse);
              break;
            case "step": {
              const t = open[o.which % open.length]!;
              for (let i = 0; i < o.times; i++) step(zs, t);
              break;
            }
            case "add":
              zs.add(o.m, o.s, { gt: o.gt });
              break;
            case "incrBy":
              try {
                zs.incrBy(o.m, o.d);
              } catch (e) {
                expect(e).toBeInstanceOf(RangeError); // ∞ + −∞
              }
              break;
            case "delete":
              zs.delete(o.m);
              break;
            case "pop":
              if (o.max) zs.popMax(o.n);
              else zs.popMin(o.n);
              break;
            case "deleteRange":
              zs.deleteRangeByRank(o.a, o.b);
              break;
            case "clear":
              zs.clear();
              break;
          }
          removedNow(zs, before, open);
          zs.checkInvariants();
        }
        for (const t of open) {
          // Bounded: an iteration takes at most as many steps as members it began with.
          for (let i = 0; i <= t.atOpen.size && !t.done; i++) step(zs, t);
          expect(t.done, "iteration did not end").toBe(true);
          const present = [...t.atOpen].filter((m) => !t.gone.has(m));
          for (const m of present)
            expect(
              t.visited.filter((x) => x === m),
              `${m} present throughout`,
            ).toHaveLength(1);
        }
      },
    );

  it("visits every member present throughout exactly once and always ends (random interleavings)", () => {
    fc.assert(interleavings(name, 12, 60), { seed: 0x17e4, numRuns: 1500 });
  });

  it("does so while the journal spans chunks and iterators prune what they keep (many members, long runs)", () => {
    fc.assert(interleavings(manyNames, 60, 600, true), { seed: 0x17e5, numRuns: 60 });
  });

  it("does so while the set converts between its compact and list forms under the iterators", () => {
    const layout = { nodeSize: 3, levelBits: 1, compactMax: 4 };
    fc.assert(interleavings(name, 12, 60, false, layout), { seed: 0x17e6, numRuns: 1000 });
    fc.assert(interleavings(manyNames, 60, 600, true, { ...layout, compactMax: 40 }), { seed: 0x17e7, numRuns: 40 });
  });

  it("an iterator live across both conversions at the default bound (129 members, then 64) still visits each member once", () => {
    const zs = SortedSet.from(
      Array.from({ length: 120 }, (_, i) => [`m${i}`, i] as [string, number]),
      { seed: 4 },
    );
    const it = zs.keys();
    const seen = [it.next().value!, it.next().value!];
    for (let i = 0; i < 20; i++) zs.add(`late${i}`, 1000 + i); // past the bound: the list form
    for (let r = 0; r < 10; r++) seen.push(it.next().value!);
    for (let i = 20; i < 100; i++) zs.delete(`m${i}`); // down to 60 members: compact again
    zs.delete("late3");
    for (let r = it.next(); r.done !== true; r = it.next()) seen.push(r.value);
    const want = Array.from({ length: 120 }, (_, i) => `m${i}`).filter((_, i) => i < 20 || i >= 100);
    expect(seen).toEqual(want);
    zs.checkInvariants();
  });

  it("iterators peeked at and abandoned, then thousands of changes: each still walks as promised", () => {
    const n = 10_000;
    const zs = SortedSet.from(
      Array.from({ length: n }, (_, i) => [`m${i}`, (i * 7919) % n] as [string, number]),
      { seed: 5 },
    );
    const tracked = new Map<number, { it: Iterator<string>; seen: string[]; atOpen: Set<string> }>();
    const deleted = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const atOpen = i % 250 === 0 || i === 999 ? new Set(zs.keys()) : null;
      const it = zs.keys();
      const first = it.next().value!;
      if (atOpen !== null) tracked.set(i, { it, seen: [first], atOpen });
      zs.add(`new${i}`, (i * 31) % n); // added: never visited by the older iterators
      if (i % 3 === 0) zs.incrBy(`m${i}`, n); // moved ahead of every cursor
      if (i % 5 === 0 && zs.delete(`new${i - 5}`)) deleted.add(`new${i - 5}`);
    }
    expect(tracked.size).toBe(5);
    for (const { it, seen, atOpen } of tracked.values()) {
      for (let r = it.next(); r.done !== true; r = it.next()) seen.push(r.value);
      expect(new Set(seen).size).toBe(seen.length);
      for (const m of seen) expect(atOpen.has(m), `${m} was not there at the peek`).toBe(true);
      const visited = new Set(seen);
      for (const m of atOpen) if (!deleted.has(m)) expect(visited.has(m), `${m} present throughout`).toBe(true);
    }
    // A forEach left by an exception: later changes and iterations are unaffected.
    expect(() =>
      zs.forEach(() => {
        throw new Error("stop");
      }),
    ).toThrow("stop");
    zs.add("after", -1);
    expect(zs.keys().next().value).toBe("after");
    zs.checkInvariants();
  });

  it("forEach whose callback changes the set visits each member present throughout once and ends", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, score), { maxLength: 12 }),
        fc.array(fc.oneof(op.filter((o) => o.t !== "open" && o.t !== "step")), { maxLength: 20 }),
        fc.nat(),
        (initial, ops, seed) => {
          const zs = SortedSet.from(initial, { seed });
          const atOpen = new Set(zs.keys());
          const gone = new Set<string>();
          const visited: string[] = [];
          let i = 0;
          zs.forEach((s, m, set) => {
            expect(set).toBe(zs);
            expect(zs.score(m)).toBe(s);
            visited.push(m);
            if (visited.length > atOpen.size) throw new Error("forEach did not end");
            const o = ops[i++ % Math.max(1, ops.length)];
            if (o === undefined) return;
            const before = [...zs.keys()];
            if (o.t === "add") zs.add(o.m, o.s, { gt: o.gt });
            else if (o.t === "incrBy" && !Number.isNaN((zs.score(o.m) ?? 0) + o.d)) zs.incrBy(o.m, o.d);
            else if (o.t === "delete") zs.delete(o.m);
            else if (o.t === "pop") zs.popMin(o.n);
            else if (o.t === "deleteRange") zs.deleteRangeByRank(o.a, o.b);
            const now = new Set(zs.keys());
            for (const b of before) if (!now.has(b)) gone.add(b);
          });
          expect(new Set(visited).size).toBe(visited.length);
          for (const m of visited) expect(atOpen.has(m)).toBe(true);
          for (const m of atOpen) if (!gone.has(m)) expect(visited).toContain(m);
          zs.checkInvariants();
        },
      ),
      { seed: 0xf0e4, numRuns: 1000 },
    );
  });

  it("ends when every visited member's score is raised (the loop that used to never end)", () => {
    const zs = SortedSet.from(
      [
        ["a", 1],
        ["b", 2],
        ["c", 3],
      ],
      { seed: 1 },
    );
    const seen: string[] = [];
    for (const [m] of zs) {
      seen.push(m);
      zs.incrBy(m, 100);
      if (seen.length > 3) throw new Error("never ends");
    }
    expect(seen).toEqual(["a", "b", "c"]);
    expect([...zs]).toEqual([
      ["a", 101],
      ["b", 102],
      ["c", 103],
    ]);
  });

  it("does not skip a member whose score drops behind the cursor", () => {
    const zs = SortedSet.from(
      [
        ["a", 1],
        ["b", 2],
        ["c", 3],
        ["d", 4],
      ],
      { seed: 2 },
    );
    const seen: SortedSetEntry[] = [];
    for (const entry of zs) {
      seen.push(entry);
      if (entry[0] === "b") zs.add("d", 0); // d moves behind the cursor
    }
    expect(seen).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
      ["d", 0],
    ]);
  });

  it("keeps walking through in-place score changes and removals of the next member; abandoned iterators are harmless", () => {
    const zs = SortedSet.from(
      Array.from({ length: 100 }, (_, i) => [`m${i}`, i * 2] as [string, number]),
      { seed: 3 },
    );
    for (let i = 0; i < 1000; i++) zs.keys().next(); // peeks, never finished
    const seen: string[] = [];
    for (const [m, s] of zs) {
      seen.push(m);
      zs.add(m, s + 1); // stays between its neighbours
      if (s % 4 === 0) zs.delete(`m${s / 2 + 1}`); // the next one
    }
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `m${2 * i}`));
    zs.checkInvariants();
  });
});

describe("SortedSet iteration across entry chunks", () => {
  it("gives every entry with its own score, forward and in reverse, past 2^14 positions", () => {
    for (const nodeSize of [2, 5, 128]) {
      const zs = sortedSetWithLayout({ nodeSize, levelBits: 2 }, { seed: 3 });
      for (let i = 0; i < 40_000; i++) zs.add(`m${(i * 7919) % 40_000}`, (i * 31) % 997);
      for (let i = 0; i < 40_000; i += 3) zs.delete(`m${i}`);
      const all = zs.range(0, -1);
      expect([...zs], `nodeSize ${nodeSize}`).toEqual(all);
      expect([...zs.values({ reverse: true })]).toEqual(all.map(([, s]) => s).reverse());
    }
  });
});

describe("SortedSet iteration across node merges", () => {
  it("keeps its place while removals merge and rebalance the nodes under it", () => {
    const zs = sortedSetWithLayout({ nodeSize: 4, levelBits: 1 }, { seed: 8 });
    for (let i = 0; i < 500; i++) zs.add(`m${i}`, (i * 7919) % 503);
    const it = zs.entries();
    const first = it.next().value!;
    const seen = [first[0]];
    let k = 0;
    for (let r = it.next(); r.done !== true; r = it.next()) {
      seen.push(r.value[0]);
      // Delete the next two members by rank: the nodes around the cursor merge and borrow.
      const rank = zs.rank(r.value[0])!;
      for (const e of zs.range(rank + 1, rank + 2)) if (k++ % 3 !== 0) zs.delete(e[0]);
      zs.checkInvariants();
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((m) => zs.has(m))).toEqual([...zs.keys()]);
  });
});
