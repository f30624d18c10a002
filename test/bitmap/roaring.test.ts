/**
 * RoaringBitmap against a `Set` model: random sequences of adds, deletes, ranges, bulk fills across
 * the 4096 array/bitmap boundary and runOptimize, over members anywhere in [0, 2^32), near
 * container boundaries (k·65536 ± 1) and near 2^32 − 1, with every query compared and the
 * invariants checked after each step; set algebra against the model; iteration, ranges, rank and
 * select; argument checks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RoaringBitmap } from "../../src/bitmap/roaring.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { applyOp, applyToModel, EDGE_KEYS, memberArb, type Op, opArb, sorted } from "../support/roaring.js";

/** Every read of `r` equals the model's; the invariants hold. */
function expectSame(r: RoaringBitmap, model: Set<number>, probes: readonly number[]): void {
  r.checkInvariants();
  const want = sorted(model);
  expect(r.size).toBe(want.length);
  expect([...r]).toEqual(want);
  expect(r.min()).toBe(want[0]);
  expect(r.max()).toBe(want[want.length - 1]);
  for (const x of probes) {
    expect(r.has(x)).toBe(model.has(x));
    let rank = 0;
    for (const v of want) if (v <= x) rank++;
    expect(r.rank(x)).toBe(rank);
  }
  if (want.length > 0) {
    for (const i of [0, want.length - 1, want.length >> 1, Math.min(4095, want.length - 1), -1]) {
      expect(r.at(i)).toBe(want.at(i));
    }
  }
  expect(r.at(want.length)).toBeUndefined();
}

/** Wide ranges of the model checked without enumerating them all: every kind stays small. */
function describeOp(op: Op): string {
  return JSON.stringify(op);
}

describe("RoaringBitmap: model-based against a Set", () => {
  it("random operation sequences (every kind of container, the 4096 boundary, edges of the key space)", () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 14 }),
        fc.array(memberArb, { maxLength: 12 }),
        (ops, probes) => {
          const r = new RoaringBitmap();
          const model = new Set<number>();
          for (const op of ops) {
            const before = model.size;
            applyOp(r, op);
            applyToModel(model, op);
            expect(r.size, describeOp(op)).toBe(model.size);
            r.checkInvariants();
            if (op.kind === "add") expect(model.size - before).toBeLessThanOrEqual(1);
          }
          expectSame(
            r,
            model,
            [...probes, ...ops.flatMap((o) => ("x" in o ? [o.x, o.x + 1, o.x - 1] : []))].filter(
              (x) => x >= 0 && x <= 0xffffffff,
            ),
          );
        },
      ),
      { seed: 20261129, numRuns: 120 },
    );
  });

  it("add, delete and the range methods answer what changed", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 10 }), (ops) => {
        const r = new RoaringBitmap();
        const model = new Set<number>();
        for (const op of ops) {
          if (op.kind === "add") {
            expect(r.add(op.x)).toBe(!model.has(op.x));
          } else if (op.kind === "delete") {
            expect(r.delete(op.x)).toBe(model.has(op.x));
          } else if (op.kind === "addRange") {
            const before = model.size;
            const got = r.addRange(op.lo, op.hi);
            applyToModel(model, op);
            expect(got).toBe(model.size - before);
            continue;
          } else if (op.kind === "deleteRange") {
            const before = model.size;
            const got = r.deleteRange(op.lo, op.hi);
            applyToModel(model, op);
            expect(got).toBe(before - model.size);
            continue;
          } else {
            applyOp(r, op);
          }
          applyToModel(model, op);
        }
        r.checkInvariants();
        expect(r.size).toBe(model.size);
      }),
      { seed: 7, numRuns: 80 },
    );
  });

  it("crosses 4096 members in one container both ways, at every step", () => {
    const r = new RoaringBitmap();
    const model = new Set<number>();
    const base = 3 * 65536;
    for (let i = 0; i < 4100; i++) {
      r.add(base + 7 * i);
      model.add(base + 7 * i);
      if (i >= 4090) expectSame(r, model, [base + 7 * i, base + 7 * i + 1]);
    }
    for (let i = 0; i < 10; i++) {
      r.delete(base + 7 * i);
      model.delete(base + 7 * i);
      expectSame(r, model, [base + 7 * i, base + 7 * 4099]);
    }
    // A full container and back.
    r.addRange(base, base + 65536);
    for (let x = base; x < base + 65536; x++) model.add(x);
    expectSame(r, model, [base, base + 65535, base + 65536]);
    expect(r.deleteRange(base + 1, base + 65535)).toBe(65534);
    for (let x = base + 1; x < base + 65535; x++) model.delete(x);
    expectSame(r, model, [base, base + 1, base + 65535]);
  });

  it("the extremes of the key space: 0, 2^32 − 1 and ranges reaching 2^32", () => {
    const r = new RoaringBitmap();
    expect(r.add(0xffffffff)).toBe(true);
    expect(r.add(0)).toBe(true);
    expect([...r]).toEqual([0, 0xffffffff]);
    expect(r.rank(0xffffffff)).toBe(2);
    expect(r.addRange(2 ** 32 - 3, 2 ** 32)).toBe(2);
    expect(r.max()).toBe(0xffffffff);
    expect([...r.range(2 ** 32 - 5, 2 ** 32)]).toEqual([2 ** 32 - 3, 2 ** 32 - 2, 2 ** 32 - 1]);
    expect(r.deleteRange(0, 2 ** 32)).toBe(4);
    expect(r.size).toBe(0);
    r.checkInvariants();
    expect(r.addRange(0, 2 ** 32)).toBe(2 ** 32);
    expect(r.size).toBe(2 ** 32);
    expect(r.at(-1)).toBe(0xffffffff);
    expect(r.at(2 ** 31)).toBe(2 ** 31);
    expect(r.rank(12345)).toBe(12346);
    r.checkInvariants();
    expect(r.runOptimize()).toBe(true);
    // 65536 rows of 8 bytes and 65536 slots of one run (4 units of 2 bytes).
    expect(r.byteLength).toBe(2 ** 20);
  });
});

describe("RoaringBitmap: set algebra against the model", () => {
  const setArb = fc.array(opArb, { maxLength: 8 }).map((ops) => {
    const r = new RoaringBitmap();
    const m = new Set<number>();
    for (const op of ops) {
      applyOp(r, op);
      applyToModel(m, op);
    }
    return { r, m };
  });
  // Sets that share containers: members from a few keys, so every pair of kinds meets.
  const nearArb = fc
    .array(
      fc.oneof(
        fc.tuple(fc.constantFrom(0, 1, 5), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 1, max: 9000 })),
        fc.tuple(fc.constantFrom(0, 1, 5), fc.integer({ min: 0, max: 0xffff }), fc.constant(1)),
      ),
      { maxLength: 6 },
    )
    .chain((ranges) =>
      fc
        .array(fc.tuple(fc.constantFrom(0, 1, 5), fc.integer({ min: 0, max: 0xffff })), { maxLength: 5000 })
        .map((points) => {
          const r = new RoaringBitmap();
          const m = new Set<number>();
          for (const [k, lo, len] of ranges) {
            const from = k * 65536 + lo;
            r.addRange(from, from + len);
            for (let x = from; x < from + len; x++) m.add(x);
          }
          for (const [k, l] of points) {
            r.add(k * 65536 + l);
            m.add(k * 65536 + l);
          }
          if (points.length % 3 === 0) r.runOptimize();
          return { r, m };
        }),
    );
  const anySet = fc.oneof(setArb, nearArb);

  it("union, intersect, diff, xor, intersectCard, unionCard and merge equal the model's, inputs untouched", () => {
    fc.assert(
      fc.property(fc.array(anySet, { minLength: 1, maxLength: 4 }), (sets) => {
        const rs = sets.map((s) => s.r);
        const ms = sets.map((s) => s.m);
        const before = rs.map((r) => r.toPortable());
        const union = new Set(ms.flatMap((m) => [...m]));
        const inter = new Set([...ms[0]!].filter((x) => ms.every((m) => m.has(x))));
        const diff = new Set([...ms[0]!].filter((x) => ms.slice(1).every((m) => !m.has(x))));
        const xor = new Set([...union].filter((x) => ms.filter((m) => m.has(x)).length % 2 === 1));
        for (const [got, want] of [
          [RoaringBitmap.union(rs), union],
          [RoaringBitmap.intersect(rs), inter],
          [RoaringBitmap.diff(rs), diff],
          [RoaringBitmap.xor(rs), xor],
        ] as const) {
          got.checkInvariants();
          expect([...got]).toEqual(sorted(want));
        }
        expect(RoaringBitmap.intersectCard(rs)).toBe(inter.size);
        expect(RoaringBitmap.unionCard(rs)).toBe(union.size);
        const merged = rs[0]!.clone().merge(...rs.slice(1));
        merged.checkInvariants();
        expect([...merged]).toEqual(sorted(union));
        const mergedList = rs[0]!.clone().merge(rs.slice(1));
        expect(mergedList.size).toBe(union.size);
        rs.forEach((r, i) => {
          expect(r.toPortable()).toEqual(before[i]);
        });
      }),
      { seed: 424242, numRuns: 150 },
    );
  });

  it("a bitmap combined with itself", () => {
    const r = RoaringBitmap.from([1, 2, 3, 70000, 2 ** 32 - 1]);
    r.addRange(100, 20000);
    expect(RoaringBitmap.union([r, r]).size).toBe(r.size);
    expect(RoaringBitmap.intersect([r, r]).size).toBe(r.size);
    expect(RoaringBitmap.diff([r, r]).size).toBe(0);
    expect(RoaringBitmap.xor([r, r]).size).toBe(0);
    const size = r.size;
    r.merge(r);
    expect(r.size).toBe(size);
    r.checkInvariants();
  });
});

describe("RoaringBitmap: iteration, ranges, rank and select", () => {
  it("range(lo, hi) yields the members in [lo, hi), for any bounds", () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 8 }),
        memberArb,
        fc.integer({ min: 0, max: 200_000 }),
        (ops, lo, len) => {
          const r = new RoaringBitmap();
          const m = new Set<number>();
          for (const op of ops) {
            applyOp(r, op);
            applyToModel(m, op);
          }
          const hi = Math.min(2 ** 32, lo + len);
          expect([...r.range(lo, hi)]).toEqual(sorted(m).filter((x) => x >= lo && x < hi));
          expect([...r.range(hi, lo)]).toEqual([]);
        },
      ),
      { seed: 99, numRuns: 150 },
    );
  });

  it("iteration continues after changes with the smallest member above the last one yielded", () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(50), opArb), { maxLength: 6 }),
        (ops, changes) => {
          const r = new RoaringBitmap();
          const m = new Set<number>();
          for (const op of ops) {
            applyOp(r, op);
            applyToModel(m, op);
          }
          const it = r[Symbol.iterator]();
          let last = -1;
          let step = 0;
          let members = sorted(m);
          const pending = [...changes].sort((a, b) => a[0] - b[0]);
          for (;;) {
            while (pending.length > 0 && pending[0]![0] === step) {
              const op = pending.shift()![1];
              applyOp(r, op);
              applyToModel(m, op);
              members = sorted(m);
            }
            const next = it.next();
            let lo = 0;
            let hi = members.length;
            while (lo < hi) {
              const mid = (lo + hi) >>> 1;
              if (members[mid]! <= last) lo = mid + 1;
              else hi = mid;
            }
            const want = members[lo];
            if (next.done) {
              expect(want).toBeUndefined();
              break;
            }
            expect(next.value).toBe(want);
            last = next.value;
            step++;
            if (step > 400) break;
          }
        },
      ),
      { seed: 5150, numRuns: 120 },
    );
  });

  it("a broken-off iteration stays done", () => {
    const r = RoaringBitmap.from([1, 2, 3]);
    const it = r[Symbol.iterator]();
    for (const x of it) if (x === 2) break;
    expect(it.next().done).toBe(true);
    r.add(0);
    expect(it.next().done).toBe(true);
  });

  it("at() and rank() are inverse on members; at() takes negative indexes from the end", () => {
    const r = new RoaringBitmap();
    r.addRange(10, 20);
    for (let i = 0; i < 5000; i++) r.add(65536 * 2 + 3 * i);
    r.add(2 ** 32 - 1);
    r.runOptimize();
    const all = [...r];
    for (let i = 0; i < all.length; i += 97) {
      expect(r.at(i)).toBe(all[i]);
      expect(r.rank(all[i]!)).toBe(i + 1);
    }
    expect(r.at(-1)).toBe(2 ** 32 - 1);
    expect(r.at(-all.length)).toBe(10);
    expect(r.at(-all.length - 1)).toBeUndefined();
    expect(new RoaringBitmap().at(0)).toBeUndefined();
    expect(new RoaringBitmap().min()).toBeUndefined();
    expect(new RoaringBitmap().max()).toBeUndefined();
    expect(new RoaringBitmap().rank(5)).toBe(0);
  });
});

describe("RoaringBitmap: copies, formats and memory", () => {
  it("clone is independent and exactly sized; clear empties; from and addAll/hasAll", () => {
    const r = RoaringBitmap.from([5, 1, 5, 70000, 2 ** 32 - 1]);
    expect([...r]).toEqual([1, 5, 70000, 2 ** 32 - 1]);
    expect(r.addAll([1, 2, 3, 2])).toBe(2);
    expect(r.hasAll([1, 4, 70000])).toEqual([true, false, true]);
    const c = r.clone();
    c.add(9);
    expect(r.has(9)).toBe(false);
    r.clear();
    expect(r.size).toBe(0);
    expect([...r]).toEqual([]);
    expect(r.byteLength).toBe(0);
    r.checkInvariants();
    expect(c.size).toBe(7);
  });

  it("toBytes/fromBytes round-trips to the same bytes and kinds; portable bytes are refused by fromBytes and vice versa", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 8 }), (ops) => {
        const r = new RoaringBitmap();
        for (const op of ops) applyOp(r, op);
        const bytes = r.toBytes();
        expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe("RSRO");
        expect(bytes[4]).toBe(1);
        const back = RoaringBitmap.fromBytes(bytes);
        back.checkInvariants();
        expect(back.toBytes()).toEqual(bytes);
        expect(back.toPortable()).toEqual(r.toPortable());
        expect(() => RoaringBitmap.fromBytes(r.toPortable())).toThrow(/fromPortable/);
        expect(() => RoaringBitmap.fromPortable(bytes)).toThrow(/fromBytes/);
      }),
      { seed: 31, numRuns: 60 },
    );
  });

  it("byteLength counts the typed arrays; bulk builders size them exactly", () => {
    const r = new RoaringBitmap();
    expect(r.byteLength).toBe(0);
    for (let i = 0; i < 10_000; i++) r.add(i * 7919);
    const built = r.byteLength;
    const exact = r.clone().byteLength;
    expect(exact).toBeLessThanOrEqual(built);
    // 8 bytes per container row, then each array's values in a slot of at most 3 more units or an
    // eighth more, and one unit to make the arena even.
    const containers = new Set([...r].map((x) => Math.floor(x / 65536))).size;
    expect(exact).toBeLessThanOrEqual(8 * containers + 2 * (r.size + 3 * containers) + 2);
    expect(exact).toBeGreaterThanOrEqual(8 * containers + 2 * r.size);
    const dense = new RoaringBitmap();
    for (let x = 0; x < 1 << 20; x += 2) dense.add(x);
    expect(dense.clone().byteLength).toBe(16 * 8 + 16 * 8192);
  });
});

describe("RoaringBitmap: argument checks", () => {
  it("members must be integers in [0, 2^32 − 1]", () => {
    const r = new RoaringBitmap();
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => r.add(bad)).toThrow(RangeError);
      expect(() => r.has(bad)).toThrow(/redstruct\/RoaringBitmap: x must be an integer in \[0, 2\^32 − 1\]/);
      expect(() => r.delete(bad)).toThrow(RangeError);
      expect(() => r.rank(bad)).toThrow(RangeError);
    }
    for (const bad of ["5", null, undefined, 5n, {}]) {
      expect(() => r.add(bad as never)).toThrow(TypeError);
      expect(() => r.has(bad as never)).toThrow(TypeError);
    }
    expect(() => RoaringBitmap.from([1, 2, -3])).toThrow(/items\[2\] must be an integer/);
    expect(() => RoaringBitmap.from("123" as never)).toThrow(TypeError);
    expect(() => r.addAll([1, "2" as never])).toThrow(/items\[1\]/);
    expect(() => r.hasAll([0.5])).toThrow(RangeError);
  });

  it("range bounds must be integers in [0, 2^32]; lo ≥ hi is an empty range", () => {
    const r = RoaringBitmap.from([1, 2, 3]);
    expect(() => r.addRange(-1, 5)).toThrow(/lo must be an integer in \[0, 4294967296\]/);
    expect(() => r.addRange(0, 2 ** 32 + 1)).toThrow(/hi must be/);
    expect(() => r.deleteRange(0.5, 2)).toThrow(RangeError);
    expect(() => r.range(0, "9" as never)).toThrow(TypeError);
    expect(r.addRange(5, 5)).toBe(0);
    expect(r.addRange(9, 5)).toBe(0);
    expect(r.deleteRange(3, 1)).toBe(0);
    expect(r.size).toBe(3);
    expect(() => r.at(1.5)).toThrow(RangeError);
  });

  it("set operations take one iterable of bitmaps, at least one", () => {
    const a = RoaringBitmap.from([1]);
    const b = RoaringBitmap.from([2]);
    expect(() => RoaringBitmap.union(a as never)).toThrow(
      /pass the bitmaps in one array: RoaringBitmap.union\(\[a, b\]\)/,
    );
    expect(() => RoaringBitmap.intersect([])).toThrow(RangeError);
    expect(() => RoaringBitmap.xor([a, 5 as never])).toThrow(/bitmaps\[1\] must be a RoaringBitmap/);
    expect(() => RoaringBitmap.unionCard("ab" as never)).toThrow(TypeError);
    expect(() => a.merge(b, {} as never)).toThrow(/others\[1\]/);
    expect(a.merge([b]).size).toBe(2);
    expect(a.merge().size).toBe(2);
    const fake = Object.create(RoaringBitmap.prototype) as RoaringBitmap;
    expect(() => fake.add(1)).toThrow(/not a RoaringBitmap built by its constructor/);
    expect(() => RoaringBitmap.union([a, fake])).toThrow(
      /bitmaps\[1\] is not a RoaringBitmap built by its constructor/,
    );
    class RoaringBitmapLookalike {}
    Object.defineProperty(RoaringBitmapLookalike, "name", { value: "RoaringBitmap" });
    expect(() => RoaringBitmap.union([a, new RoaringBitmapLookalike() as never])).toThrow(/another copy of redstruct/);
  });

  it("the constructor takes no options; JSON.stringify says to send toBytes(); bad bytes are TypeErrors or format errors", () => {
    expect(() => new RoaringBitmap({ size: 3 } as never)).toThrow(/unknown option "size"/);
    expect(() => new RoaringBitmap(null as never)).toThrow(TypeError);
    expect(() => JSON.stringify(new RoaringBitmap())).toThrow(/toBytes\(\)/);
    expect(() => RoaringBitmap.fromPortable([1, 2] as never)).toThrow(TypeError);
    expect(() => RoaringBitmap.fromBytes(new Uint8Array(3))).toThrow(RedstructFormatError);
    expect(() => RoaringBitmap.fromPortable(new Uint8Array(0))).toThrow(RedstructFormatError);
  });

  it("edge keys are all reachable", () => {
    const r = RoaringBitmap.from(EDGE_KEYS.map((k) => k * 65536 + 1));
    expect(r.size).toBe(EDGE_KEYS.length);
    for (const k of EDGE_KEYS) expect(r.has(k * 65536 + 1)).toBe(true);
  });
});
