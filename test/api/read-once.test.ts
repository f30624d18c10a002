/**
 * Every bulk entry point reads each input once, checks it, then uses what it checked: an entry or
 * an array whose fields are getters is read field by field exactly once, so a getter (or a Proxy)
 * that answers a valid value and then an invalid one can neither slip the invalid one past the
 * check nor make a half-done call fail late. Where a bulk call is all or nothing, a field that is
 * refused leaves the structure unchanged, and the error names the field as the caller wrote it.
 */
import { describe, expect, it } from "vitest";
import { CountMinSketch, Dict, GeoSet, SortedSet } from "../../src/index.js";

/**
 * An array-like that counts the reads of each index and answers `values[i]` on the first read of
 * index i and `later[i]` (if given) on every read after — the shape of a hostile Proxy.
 */
function counting<T>(values: readonly T[], later: readonly unknown[] = []): { array: T[]; reads: number[] } {
  const reads = values.map(() => 0);
  const array = new Proxy([...values], {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) {
        const i = Number(key);
        reads[i] = (reads[i] ?? 0) + 1;
        if (reads[i]! > 1 && i < later.length) return later[i];
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { array, reads };
}

/** Entries whose every field answers valid first and `bad` afterwards; the reads of each entry. */
function entriesOf<T extends unknown[]>(rows: T[], bad: unknown[]): { entries: T[]; reads: number[][] } {
  const made = rows.map((row) => counting(row, bad));
  return { entries: made.map((m) => m.array as T), reads: made.map((m) => m.reads) };
}

describe("bulk inputs are read once", () => {
  it("SortedSet.from reads each [member, score] once", () => {
    const { entries, reads } = entriesOf<[string, number]>(
      [
        ["a", 1],
        ["b", 2],
      ],
      [5, Number.NaN],
    );
    const zs = SortedSet.from(entries);
    expect([...zs]).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    for (const r of reads) expect(r).toEqual([1, 1]);
    zs.checkInvariants();
  });

  it("GeoSet.addAll and GeoSet.from read each [member, longitude, latitude] once", () => {
    const rows: [string, number, number][] = [
      ["Palermo", 13.361389, 38.115556],
      ["Catania", 15.087269, 37.502669],
    ];
    const bad = [42, 500, 500];
    const g = new GeoSet();
    const first = entriesOf(rows, bad);
    expect(g.addAll(first.entries)).toBe(2);
    for (const r of first.reads) expect(r).toEqual([1, 1, 1]);
    const second = entriesOf(rows, bad);
    expect(GeoSet.from(second.entries).size).toBe(2);
    for (const r of second.reads) expect(r).toEqual([1, 1, 1]);
    expect(g.position("Catania")?.[0]).toBeCloseTo(15.087269, 5);
    g.sortedSet.checkInvariants();
  });

  it("GeoSet.addAll is all or nothing, and names the entry's field", () => {
    const g = new GeoSet();
    g.add("kept", 1, 1);
    const before = g.sortedSet.toBytes();
    expect(() =>
      g.addAll([
        ["x", 1, 1],
        [7 as unknown as string, 2, 2],
      ]),
    ).toThrow(/entries\[1\]\[0\] must be a string, got 7/);
    expect(() =>
      g.addAll([
        ["x", 1, 1],
        ["y", 2, 100],
      ]),
    ).toThrow(/latitude/);
    expect(g.sortedSet.toBytes()).toEqual(before);
  });

  it("Dict reads each [key, value] once", () => {
    const { entries, reads } = entriesOf<[string, number]>(
      [
        ["a", 1],
        ["b", 2],
      ],
      [{}, 99],
    );
    const d = new Dict(entries);
    expect([...d]).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    for (const r of reads) expect(r).toEqual([1, 1]);
  });

  it("SortedSet.union and CountMinSketch.union read each weight once", () => {
    const a = SortedSet.from([["m", 1]]);
    const b = SortedSet.from([["m", 2]]);
    const w = counting([2, 3], [Number.NaN, Number.NaN]);
    expect([...SortedSet.union([a, b], { weights: w.array })]).toEqual([["m", 8]]);
    expect(w.reads).toEqual([1, 1]);
    const s = new CountMinSketch({ width: 8, depth: 2 });
    s.incrBy("x", 1);
    const cw = counting([2, 3], [0.5, 0.5]);
    expect(CountMinSketch.union([s, s], { weights: cw.array }).count("x")).toBe(5);
    expect(cw.reads).toEqual([1, 1]);
  });
});
