/**
 * CuckooFilter against a multiset model: never a false negative while only added items are deleted,
 * CF.ADDNX / CF.INSERTNX, a full filter with expansion 0, growth up to CUCKOO_MAX_SLOTS, copies,
 * from() and byteLength (seeded).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CUCKOO_MAX_SLOTS, CuckooFilter } from "../../src/cuckoo/index.js";
import { build, ops, params } from "../support/cuckoo.js";

describe("CuckooFilter behaviour", () => {
  it("add({ nx: true }) and addAll({ nx: true }) are CF.ADDNX / CF.INSERTNX", () => {
    const f = new CuckooFilter({ capacity: 100 });
    expect(f.add("a", { nx: true })).toBe(true);
    expect(f.add("a", { nx: true })).toBe(false);
    expect(f.add("a", { nx: false })).toBe(true);
    expect(f.count("a")).toBe(2);
    expect(f.addAll(["b", "b", "a", "c"], { nx: true })).toEqual([true, false, false, true]);
    expect(f.addAll(["b", "b"])).toEqual([true, true]);
    expect(f.size).toBe(6);
    f.checkInvariants();
  });
  it("a full filter with expansion 0 throws and stays unchanged; addAll keeps the items before", () => {
    const f = new CuckooFilter({ capacity: 4, bucketSize: 1, maxIterations: 1, expansion: 0 });
    let i = 0;
    let error: unknown;
    for (; i < 100; i++) {
      try {
        f.add(`x${i}`);
      } catch (e) {
        error = e;
        break;
      }
    }
    expect(error).toBeInstanceOf(RangeError);
    const before = f.toBytes();
    expect(() => f.add(`x${i}`)).toThrow(/Filter is full/);
    expect(f.toBytes()).toEqual(before);
    f.checkInvariants();
    const g = new CuckooFilter({ capacity: 4, bucketSize: 1, maxIterations: 1, expansion: 0 });
    const items = Array.from({ length: i + 1 }, (_, j) => `x${j}`);
    expect(() => g.addAll(items)).toThrow(
      new RegExp(`Filter is full.*items\\[${i}\\].*${i} items before it were added`),
    );
    expect(g.toBytes()).toEqual(before);
  });
  it("growth stops at CUCKOO_MAX_SLOTS in all sub-filters, with a RangeError before allocating", () => {
    // Re-adding one item fills only its two buckets, so each 2·bucketSize copies force a new
    // sub-filter, expansion times larger than the last: the total, not just each one, is bounded.
    for (const [options, filters] of [
      [{ capacity: 2, bucketSize: 1, maxIterations: 1, expansion: 32768 }, 2],
      [{ capacity: 4, bucketSize: 2, maxIterations: 3, expansion: 16384 }, 2],
      [{ capacity: 8, bucketSize: 4, maxIterations: 2, expansion: 1024 }, 3],
    ] as const) {
      const f = new CuckooFilter(options);
      let error: unknown;
      for (let i = 0; i < 1000 && error === undefined; i++) {
        const before = f.info();
        try {
          f.add("same-key");
        } catch (e) {
          error = e;
          expect(f.info()).toEqual(before);
        }
      }
      expect(error).toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(/past the 1073741824 allowed/);
      expect(f.info().filters).toBe(filters);
      expect(f.info().byteLength - 40 - 16 * filters).toBeLessThanOrEqual(CUCKOO_MAX_SLOTS);
      expect(f.count("same-key")).toBeGreaterThanOrEqual(f.size);
      f.checkInvariants();
    }
  });
  it("never a false negative and matches a multiset model while only added items are deleted (seeded)", () => {
    fc.assert(
      fc.property(params, ops, (p, list) => {
        fc.pre(p.capacity >= 2 * p.bucketSize);
        const f = new CuckooFilter(p);
        const model = new Map<number, number>();
        for (const { op, item } of list) {
          const key = `item:${item}`;
          if (op === "add") {
            try {
              f.add(key);
            } catch (e) {
              expect((e as Error).message).toMatch(/Maximum expansions|past the/);
              continue;
            }
            model.set(item, (model.get(item) ?? 0) + 1);
          } else if (op === "delete") {
            if (!model.get(item)) continue; // only added items are deleted
            expect(f.delete(key)).toBe(true);
            model.set(item, model.get(item)! - 1);
          } else {
            f.compact();
          }
          f.checkInvariants();
        }
        let stored = 0;
        for (const [item, n] of model) {
          stored += n;
          if (n > 0) {
            expect(f.has(`item:${item}`)).toBe(true);
            expect(f.count(`item:${item}`)).toBeGreaterThanOrEqual(n);
          }
        }
        expect(f.size).toBe(stored);
        expect(f.info().size).toBe(stored);
      }),
      { seed: 0xcf1, numRuns: 300 },
    );
  });
  it("clone is independent; from(items) adds each once; byteLength counts the slots (seeded)", () => {
    fc.assert(
      fc.property(params, ops, fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }), (p, list, more) => {
        fc.pre(p.capacity >= 2 * p.bucketSize);
        const f = build(p, list);
        const c = f.clone();
        c.checkInvariants();
        expect(c.toBytes()).toEqual(f.toBytes());
        const before = f.toBytes();
        for (const i of more) {
          try {
            c.add(`more:${i}`);
          } catch {}
          c.delete(`item:${i}`);
        }
        c.checkInvariants();
        expect(f.toBytes()).toEqual(before);
        const slots = f.info().byteLength - 40 - 16 * f.info().filters;
        expect(f.byteLength).toBe(slots + 4 * 32 + 4 * p.maxIterations);
        const items = more.map((i) => `more:${i}`);
        const g = new CuckooFilter(p);
        for (const x of items) g.add(x);
        expect(CuckooFilter.from(items, p).toBytes()).toEqual(g.toBytes());
      }),
      { seed: 0xcf4, numRuns: 150 },
    );
    expect(() => CuckooFilter.from("abc" as never)).toThrow(/items must be an iterable/);
    expect(CuckooFilter.from([]).size).toBe(0);
  });
});
