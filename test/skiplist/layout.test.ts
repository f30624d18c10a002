import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SortedSet, type SortedSetEntry } from "../../src/skiplist/index.js";
import { sortedSetWithLayout } from "../../src/skiplist/sorted-set.js";
import { byteCompare } from "../support/byte-order.js";

// Model-based commands (fc.commands) against a trivial reference — a sorted array — on sets whose
// nodes hold 2, 3 or 4 entries, so every run splits nodes, shifts entries between neighbours,
// merges and rebalances them, empties and unlinks nodes and changes the list's level; the compact
// form's bound (0: none, so the list from the first member; else small, so sets convert to the list
// and back over and over) and the level probability are drawn per run. checkInvariants() after
// every command.

/** The reference: entries in an array, sorted again after every change. */
interface Model {
  entries: SortedSetEntry[];
}

function sortModel(m: Model): void {
  m.entries.sort((a, b) => (a[1] !== b[1] ? (a[1] < b[1] ? -1 : 1) : byteCompare(a[0], b[0])));
}

function indexOf(m: Model, member: string): number {
  return m.entries.findIndex((e) => e[0] === member);
}

function window(n: number, start: number, stop: number): [number, number] {
  let lo = start < 0 ? start + n : start;
  let hi = stop < 0 ? stop + n : stop;
  if (lo < 0) lo = 0;
  if (hi >= n) hi = n - 1;
  return [lo, hi];
}

function inLex(m: string, min: string, max: string): boolean {
  const low =
    min === "-" ||
    (min !== "+" && (min[0] === "[" ? byteCompare(m, min.slice(1)) >= 0 : byteCompare(m, min.slice(1)) > 0));
  const high =
    max === "+" ||
    (max !== "-" && (max[0] === "[" ? byteCompare(m, max.slice(1)) <= 0 : byteCompare(m, max.slice(1)) < 0));
  return low && high;
}

type Cmd = fc.Command<Model, SortedSet>;

/** A command from a name, a run function on both sides, and a printable form. */
function command(label: string, run: (m: Model, z: SortedSet) => void): Cmd {
  return {
    check: () => true,
    run: (m, z) => {
      run(m, z);
      z.checkInvariants();
      expect(z.size, `size after ${label}`).toBe(m.entries.length);
    },
    toString: () => label,
  };
}

// Many members with ties broken by bytes: ASCII, and members where UTF-16 and UTF-8 order differ.
const NAMES = [..."abcdefghijklmnopqrstuvwxyzABCD", "😀", "\u{E000}", "\u{FFFF}", "é", "", "aa"];
const member = fc.constantFrom(...NAMES);

function commands(lexMode: boolean): fc.Arbitrary<Cmd>[] {
  const score = lexMode
    ? fc.constant(0)
    : fc.oneof(
        fc.integer({ min: -6, max: 6 }),
        fc.constantFrom(0.5, -0, 1e300, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
      );
  const index = fc.integer({ min: -25, max: 25 });
  const flags = fc.constantFrom<Record<string, boolean>>(
    {},
    { nx: true },
    { xx: true },
    { gt: true },
    { lt: true },
    { ch: true },
  );
  const lexBound = fc.oneof(
    fc.constantFrom("-", "+"),
    fc.tuple(fc.constantFrom("[", "("), member).map(([p, m]) => p + m),
  );
  const list: fc.Arbitrary<Cmd>[] = [
    fc.tuple(member, score, flags).map(([name, s, o]) =>
      command(`add(${JSON.stringify(name)}, ${s}, ${JSON.stringify(o)})`, (m, z) => {
        const i = indexOf(m, name);
        let want: boolean;
        if (i < 0) {
          want = o.xx !== true;
          if (want) m.entries.push([name, s]);
        } else {
          const cur = m.entries[i]![1];
          const stopped = o.nx || (o.gt && s <= cur) || (o.lt && s >= cur) || s === cur;
          if (!stopped) m.entries[i] = [name, s];
          want = !stopped && o.ch === true;
        }
        sortModel(m);
        expect(z.add(name, s, o)).toBe(want);
      }),
    ),
    fc.tuple(member, lexMode ? fc.constant(0) : fc.integer({ min: -3, max: 3 })).map(([name, d]) =>
      command(`incrBy(${JSON.stringify(name)}, ${d})`, (m, z) => {
        const i = indexOf(m, name);
        const next = (i < 0 ? 0 : m.entries[i]![1]) + d;
        if (Number.isNaN(next)) {
          expect(() => z.incrBy(name, d)).toThrow(RangeError);
          return;
        }
        if (i < 0) m.entries.push([name, next]);
        else m.entries[i] = [name, next];
        sortModel(m);
        expect(z.incrBy(name, d)).toBe(next);
      }),
    ),
    member.map((name) =>
      command(`delete(${JSON.stringify(name)})`, (m, z) => {
        const i = indexOf(m, name);
        if (i >= 0) m.entries.splice(i, 1);
        expect(z.delete(name)).toBe(i >= 0);
      }),
    ),
    fc.tuple(index, index).map(([a, b]) =>
      command(`deleteRangeByRank(${a}, ${b})`, (m, z) => {
        const [lo, hi] = window(m.entries.length, a, b);
        const removed = lo > hi ? 0 : m.entries.splice(lo, hi - lo + 1).length;
        expect(z.deleteRangeByRank(a, b)).toBe(removed);
      }),
    ),
    fc.tuple(fc.constantFrom("popMin", "popMax"), fc.integer({ min: 0, max: 5 })).map(([which, k]) =>
      command(`${which}(${k})`, (m, z) => {
        const n = Math.min(k, m.entries.length);
        const want = which === "popMin" ? m.entries.splice(0, n) : m.entries.splice(m.entries.length - n, n).reverse();
        expect(which === "popMin" ? z.popMin(k) : z.popMax(k)).toEqual(want);
      }),
    ),
    // Reads: every query answers as the model does at this point.
    fc.tuple(member, fc.boolean()).map(([name, reverse]) =>
      command(`rank(${JSON.stringify(name)}, ${reverse})`, (m, z) => {
        const i = indexOf(m, name);
        const rank = i < 0 ? undefined : reverse ? m.entries.length - 1 - i : i;
        expect(z.rank(name, { reverse })).toBe(rank);
        expect(z.score(name)).toBe(i < 0 ? undefined : m.entries[i]![1]);
        expect(z.rank(name, { reverse, withScore: true })).toEqual(i < 0 ? undefined : [rank, m.entries[i]![1]]);
        expect(z.rank(name, { reverse, withScore: false })).toBe(rank);
      }),
    ),
    fc.tuple(index, index, fc.boolean()).map(([a, b, reverse]) =>
      command(`range(${a}, ${b}, ${reverse}) / at`, (m, z) => {
        const [lo, hi] = window(m.entries.length, a, b);
        const l = reverse ? [...m.entries].reverse() : m.entries;
        expect(z.range(a, b, { reverse })).toEqual(lo > hi ? [] : l.slice(lo, hi + 1));
        const i = a < 0 ? a + l.length : a;
        expect(z.at(a, { reverse })).toEqual(l[i]);
      }),
    ),
    fc.boolean().map((reverse) =>
      command(`entries(${reverse})`, (m, z) => {
        expect([...z.entries({ reverse })]).toEqual(reverse ? [...m.entries].reverse() : m.entries);
      }),
    ),
  ];
  if (lexMode) {
    list.push(
      fc
        .tuple(lexBound, lexBound, fc.integer({ min: 0, max: 3 }), fc.integer({ min: -1, max: 4 }), fc.boolean())
        .map(([min, max, offset, count, reverse]) =>
          command(`rangeByLex(${min}, ${max}, ${offset}, ${count}, ${reverse}) / countByLex`, (m, z) => {
            const hits = m.entries.filter((e) => inLex(e[0], min, max));
            const l = reverse ? hits.reverse() : hits;
            const want = count === 0 ? [] : count < 0 ? l.slice(offset) : l.slice(offset, offset + count);
            expect(z.rangeByLex(min, max, { offset, count, reverse })).toEqual(want);
            expect(z.countByLex(min, max)).toBe(hits.length);
          }),
        ),
      fc.tuple(lexBound, lexBound).map(([min, max]) =>
        command(`deleteRangeByLex(${min}, ${max})`, (m, z) => {
          const keep = m.entries.filter((e) => !inLex(e[0], min, max));
          const removed = m.entries.length - keep.length;
          m.entries = keep;
          expect(z.deleteRangeByLex(min, max)).toBe(removed);
        }),
      ),
    );
  } else {
    const bound = fc.integer({ min: -7, max: 7 });
    list.push(
      fc
        .tuple(
          bound,
          bound,
          fc.boolean(),
          fc.boolean(),
          fc.integer({ min: 0, max: 3 }),
          fc.integer({ min: -1, max: 4 }),
          fc.boolean(),
        )
        .map(([min, max, minExclusive, maxExclusive, offset, count, reverse]) =>
          command(
            `rangeByScore(${min}, ${max}, ${minExclusive}, ${maxExclusive}, ${offset}, ${count}, ${reverse})`,
            (m, z) => {
              const inside = (s: number) => (minExclusive ? s > min : s >= min) && (maxExclusive ? s < max : s <= max);
              const hits = m.entries.filter((e) => inside(e[1]));
              const l = reverse ? [...hits].reverse() : hits;
              const want = count === 0 ? [] : count < 0 ? l.slice(offset) : l.slice(offset, offset + count);
              expect(z.rangeByScore(min, max, { minExclusive, maxExclusive, offset, count, reverse })).toEqual(want);
              expect(z.countByScore(min, max, { minExclusive, maxExclusive })).toBe(hits.length);
            },
          ),
        ),
      fc.tuple(bound, bound, fc.boolean()).map(([min, max, maxExclusive]) =>
        command(`deleteRangeByScore(${min}, ${max}, ${maxExclusive})`, (m, z) => {
          const keep = m.entries.filter((e) => !(e[1] >= min && (maxExclusive ? e[1] < max : e[1] <= max)));
          const removed = m.entries.length - keep.length;
          m.entries = keep;
          expect(z.deleteRangeByScore(min, max, { maxExclusive })).toBe(removed);
        }),
      ),
    );
  }
  return list;
}

function runCommands(nodeSize: number, lexMode: boolean, seed: number, numRuns: number): void {
  fc.assert(
    fc.property(
      fc.constantFrom(0, 1, 2, 4, 8, 16),
      fc.integer({ min: 1, max: 2 }),
      fc.nat(),
      fc.commands(commands(lexMode), { maxCommands: 120 }),
      (compactMax, levelBits, seed, cmds) => {
        const z = sortedSetWithLayout({ nodeSize, levelBits, compactMax }, { seed });
        const model: Model = { entries: [] };
        fc.modelRun(() => ({ model, real: z }), cmds);
        expect([...z]).toEqual(model.entries);
      },
    ),
    { seed, numRuns },
  );
}

describe("SortedSet with tiny nodes against a sorted-array model (fc.commands)", () => {
  for (const nodeSize of [2, 3, 4]) {
    it(`B = ${nodeSize}: every command, scores with ties, ±inf and −0`, () => {
      runCommands(nodeSize, false, 0xb0 + nodeSize, 400);
    });
    it(`B = ${nodeSize}: lex commands when all scores are equal`, () => {
      runCommands(nodeSize, true, 0x1e0 + nodeSize, 200);
    });
  }

  it("B = 2..8, larger sets: spans, ranks and fill bounds hold through long random runs", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        fc.constantFrom(0, 4, 32, 128),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(300), fc.integer({ min: -40, max: 40 }), fc.nat(9)), {
          minLength: 300,
          maxLength: 1500,
        }),
        (nodeSize, compactMax, seed, steps) => {
          const z = sortedSetWithLayout({ nodeSize, levelBits: 2, compactMax }, { seed });
          const m = new Map<string, number>();
          for (const [k, s, kind] of steps) {
            const name = `k${k}`;
            if (kind < 6) {
              z.add(name, s);
              m.set(name, s);
            } else if (kind < 8) {
              z.delete(name);
              m.delete(name);
            } else if (kind === 8) {
              const removed = z.deleteRangeByScore(s, s + 2);
              for (const [key, v] of m) if (v >= s && v <= s + 2) m.delete(key);
              expect(m.size).toBe(z.size);
              expect(removed).toBeGreaterThanOrEqual(0);
            } else {
              z.incrBy(name, 7);
              m.set(name, (m.get(name) ?? 0) + 7);
            }
          }
          z.checkInvariants();
          const want = [...m].sort((a, b) => a[1] - b[1] || byteCompare(a[0], b[0]));
          expect([...z]).toEqual(want);
          want.forEach(([name], r) => {
            if (r % 5 === 0) {
              expect(z.rank(name)).toBe(r);
              expect(z.at(r)).toEqual(want[r]);
            }
          });
        },
      ),
      { seed: 0x5a11, numRuns: 60 },
    );
  });

  it("ordered loads fill nodes completely; union results are bulk-loaded sets that keep working", () => {
    const z = sortedSetWithLayout({ nodeSize: 4, levelBits: 2, compactMax: 0 }, { seed: 3 });
    for (let i = 0; i < 1000; i++) z.add(`m${i}`, i); // appends: a new node each time the last is full
    for (let i = 0; i > -1000; i--) z.add(`n${-i}`, i - 1); // prepends
    z.checkInvariants();
    const u = SortedSet.union([z]);
    u.checkInvariants();
    expect([...u]).toEqual([...z]);
    for (let i = 0; i < 2000; i += 3) u.delete(i < 1000 ? `m${i}` : `n${i - 1000}`);
    u.checkInvariants();
  });
});
