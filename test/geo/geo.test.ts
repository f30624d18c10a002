/**
 * GeoSet against a model through random GEOADD / ZREM sequences (invariants checked after each),
 * searches against a brute-force filter within the cells Redis scans (radius and box, orders and
 * counts), GEOSEARCHSTORE into a GeoSet or a SortedSet, the sorted set it shares, copies, clear,
 * from(), and all-or-nothing adds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversine, NATIVE_TRIG, UNITS } from "../../src/geo/distance.js";
import { decodeScore, encodeScore, LAT_MAX, LAT_MIN } from "../../src/geo/geohash.js";
import { type GeoSearchOptions, GeoSet } from "../../src/geo/index.js";
import { SortedSet } from "../../src/skiplist/index.js";
import { places } from "../support/geo.js";

const lon = fc.double({ min: -180, max: 180, noNaN: true });

const lat = fc.double({ min: LAT_MIN, max: LAT_MAX, noNaN: true });

const xy = new Float64Array(2);

function decoded(score: number): [number, number] {
  decodeScore(score, xy);
  return [xy[0]!, xy[1]!];
}

describe("GeoSet", () => {
  it("follows a model through random GEOADD / ZREM sequences, invariants checked after each", () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("add" as const),
        m: fc.constantFrom("a", "b", "c", "d"),
        x: lon,
        y: lat,
        flags: fc.subarray(["nx", "xx", "ch"] as const),
      }),
      fc.record({ kind: fc.constant("delete" as const), m: fc.constantFrom("a", "b", "c", "d", "e") }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const g = new GeoSet({ seed: 1 });
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === "delete") {
            expect(g.delete(o.m)).toBe(model.delete(o.m));
          } else {
            const nx = o.flags.includes("nx");
            const xx = o.flags.includes("xx");
            const ch = o.flags.includes("ch");
            if (nx && xx) {
              expect(() => g.add(o.m, o.x, o.y, { nx, xx, ch })).toThrow(RangeError);
              continue;
            }
            const score = encodeScore(o.x, o.y);
            const had = model.get(o.m);
            const expected = had === undefined ? !xx : !nx && ch && had !== score;
            if ((had === undefined && !xx) || (had !== undefined && !nx)) model.set(o.m, score);
            expect(g.add(o.m, o.x, o.y, { nx, xx, ch })).toBe(expected);
          }
          g.checkInvariants();
          expect(g.size).toBe(model.size);
        }
        for (const [m, score] of model) {
          expect(g.sortedSet.score(m)).toBe(score);
          expect(g.position(m)).toEqual(decoded(score));
          expect(g.has(m)).toBe(true);
        }
      }),
      { seed: 30, numRuns: 300 },
    );
  });
  it("searches as a brute-force filter would, within the cells Redis scans; orders and counts", () => {
    const all = places(400, 31);
    const g = GeoSet.from(all, { seed: 2 });
    const positions = new Map(all.map(([m]) => [m, g.position(m)!]));
    const query = fc.record({
      x: fc.double({ min: -170, max: 170, noNaN: true }),
      y: fc.double({ min: -60, max: 60, noNaN: true }),
      r: fc.double({ min: 1, max: 2e6, noNaN: true }),
      unit: fc.constantFrom<keyof typeof UNITS>("m", "km", "mi", "ft"),
      count: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(query, ({ x, y, r, unit, count }) => {
        const radius = r / UNITS[unit];
        const brute = all
          .map(([m]) => [m, haversine(NATIVE_TRIG, x, y, ...positions.get(m)!)] as const)
          .filter(([, d]) => d <= radius * UNITS[unit]);
        const found = g.search({ longitude: x, latitude: y, radius, unit });
        // Places on longitude 180 or latitude 85.05112878 sit in cells one bit above the grid, which
        // Redis scans only when the search's centre cell is one of them: brute force would find them.
        const inGrid = brute
          .map(([m]) => m)
          .filter((m) => g.sortedSet.score(m)! < 2 ** 52 && positions.get(m)![0] < 180);
        const names = found.map((f) => f.member);
        expect(names.filter((m) => inGrid.includes(m)).sort()).toEqual(inGrid.sort());
        for (const m of names) expect(brute.some(([b]) => b === m)).toBe(true);
        for (const f of found) {
          expect(f.distance).toBe(haversine(NATIVE_TRIG, x, y, f.longitude, f.latitude) / UNITS[unit]);
          expect([f.longitude, f.latitude]).toEqual(positions.get(f.member));
          expect(f.hash).toBe(g.sortedSet.score(f.member));
        }
        const asc = g.search({ longitude: x, latitude: y, radius, unit, order: "asc" }).map((f) => f.distance);
        expect(asc).toEqual([...asc].sort((a, b) => a - b));
        const desc = g.search({ longitude: x, latitude: y, radius, unit, order: "desc" }).map((f) => f.distance);
        expect(desc).toEqual([...asc].reverse());
        if (count !== undefined) {
          const nearest = g.search({ longitude: x, latitude: y, radius, unit, count }).map((f) => f.distance);
          expect(nearest).toEqual(asc.slice(0, count));
          const any = g.search({ longitude: x, latitude: y, radius, unit, count, any: true });
          expect(any.length).toBe(Math.min(count, asc.length));
        }
      }),
      { seed: 32, numRuns: 300 },
    );
  });
  it("searches boxes: every result within half the height in latitude and half the width along its parallel", () => {
    const all = places(400, 33);
    const g = GeoSet.from(all);
    fc.assert(
      fc.property(
        lon,
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: 1e3, max: 4e6, noNaN: true }),
        fc.double({ min: 1e3, max: 4e6, noNaN: true }),
        (x, y, w, h) => {
          for (const f of g.search({ longitude: x, latitude: y, width: w, height: h })) {
            expect(6372797.560856 * Math.abs(f.latitude * (Math.PI / 180) - y * (Math.PI / 180))).toBeLessThanOrEqual(
              h / 2,
            );
            expect(haversine(NATIVE_TRIG, f.longitude, f.latitude, x, f.latitude)).toBeLessThanOrEqual(w / 2);
          }
        },
      ),
      { seed: 34, numRuns: 300 },
    );
  });
  it("stores a search (GEOSEARCHSTORE) as a GeoSet, or distances as a SortedSet (STOREDIST)", () => {
    const g = GeoSet.from(places(200, 35));
    const o: GeoSearchOptions = { member: "p0", radius: 3000, unit: "km", order: "asc", count: 20 };
    const found = g.search(o);
    const stored = g.searchStore(o);
    expect(stored).toBeInstanceOf(GeoSet);
    expect(stored.size).toBe(found.length);
    for (const f of found) expect(stored.sortedSet.score(f.member)).toBe(f.hash);
    const dists = g.searchStore({ ...o, storeDist: true });
    expect(dists).toBeInstanceOf(SortedSet);
    expect(dists.size).toBe(found.length);
    for (const f of found) expect(dists.score(f.member)).toBe(f.distance);
    stored.checkInvariants();
  });
  it("shares its sorted set: ZREM, ZADD and ranges on it are on the places", () => {
    const zs = new SortedSet();
    const g = new GeoSet({ sortedSet: zs });
    expect(g.sortedSet).toBe(zs);
    g.add("home", 2.35, 48.85);
    expect(zs.size).toBe(1);
    zs.add("work", encodeScore(2.29, 48.86));
    expect(g.position("work")).toEqual(decoded(encodeScore(2.29, 48.86)));
    expect(g.distance("home", "work", "km")).toBeGreaterThan(4);
    zs.delete("home");
    expect(g.has("home")).toBe(false);
    expect(g.position("home")).toBeUndefined();
    expect(g.distance("home", "work")).toBeUndefined();
    expect(g.geohash("home")).toBeUndefined();
  });
  it("clones independently; clears; builds from entries (a later entry moves a member)", () => {
    const g = GeoSet.from([
      ["a", 1, 1],
      ["b", 2, 2],
      ["a", 3, 3],
    ]);
    expect(g.size).toBe(2);
    expect(g.sortedSet.score("a")).toBe(encodeScore(3, 3));
    const c = g.clone();
    c.add("c", 4, 4);
    c.delete("a");
    expect(g.size).toBe(2);
    expect(g.has("a")).toBe(true);
    expect(c.size).toBe(2);
    c.checkInvariants();
    g.clear();
    expect(g.size).toBe(0);
    expect(g.search({ longitude: 0, latitude: 0, radius: Number.POSITIVE_INFINITY })).toEqual([]);
  });
  it("adds all or nothing: one invalid pair adds none", () => {
    const g = new GeoSet();
    expect(() =>
      g.addAll([
        ["ok", 1, 1],
        ["bad", 1, 86],
      ]),
    ).toThrow(/entries\[1\]\[2\] \(latitude\) must be a number in \[-85\.05112878, 85\.05112878\], got 86/);
    expect(g.size).toBe(0);
    expect(g.addAll([["ok", 1, 1]], { ch: true })).toBe(1);
    expect(
      g.addAll(
        [
          ["ok", 1, 1],
          ["ok", 2, 2],
        ],
        { ch: true },
      ),
    ).toBe(1);
    expect(g.addAll([])).toBe(0);
  });
});
