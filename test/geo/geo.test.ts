import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversine, NATIVE_TRIG, UNITS } from "../../src/geo/distance.js";
import {
  alignedScore,
  cellBounds,
  decodeScore,
  encodeScore,
  geohashString,
  LAT_MAX,
  LAT_MIN,
  latIndex,
  lonIndex,
  STEP_MAX,
} from "../../src/geo/geohash.js";
import { type GeoSearchOptions, GeoSet } from "../../src/geo/index.js";
import { estimateSteps, searchRanges } from "../../src/geo/search.js";
import { mergeSort, partialQuickSort } from "../../src/geo/sort.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { mulberry32 } from "../../src/internal/random.js";
import { SortedSet } from "../../src/skiplist/index.js";
import { fuzzDeserializer } from "../support/fuzz.js";

const lon = fc.double({ min: -180, max: 180, noNaN: true });
const lat = fc.double({ min: LAT_MIN, max: LAT_MAX, noNaN: true });
const CELL_LON = 360 / 2 ** 26;
const CELL_LAT = (LAT_MAX - LAT_MIN) / 2 ** 26;
const xy = new Float64Array(2);

function decoded(score: number): [number, number] {
  decodeScore(score, xy);
  return [xy[0]!, xy[1]!];
}

describe("geohash", () => {
  it("matches Redis's documented examples", () => {
    // GEOADD Sicily 13.361389 38.115556 "Palermo" 15.087269 37.502669 "Catania" (redis.io)
    expect(encodeScore(13.361389, 38.115556)).toBe(3479099956230698);
    expect(encodeScore(15.087269, 37.502669)).toBe(3479447370796909);
    expect(geohashString(3479099956230698)).toBe("sqc8b49rny0");
    expect(geohashString(3479447370796909)).toBe("sqdtr74hyu0");
    expect(decoded(3479099956230698)).toEqual([13.361389338970184, 38.1155563954963]);
    const d = haversine(NATIVE_TRIG, ...decoded(3479099956230698), ...decoded(3479447370796909));
    expect(d.toFixed(4)).toBe("166274.1516");
  });

  it("puts the coordinate maxima one bit above the cell bits (longitude 180 above 2^53)", () => {
    expect(encodeScore(-180, LAT_MIN)).toBe(0);
    expect(encodeScore(180, 0)).toBe(2 ** 53 + 2 ** 50);
    expect(encodeScore(0, LAT_MAX)).toBeGreaterThanOrEqual(2 ** 52);
    expect(encodeScore(180, LAT_MAX)).toBe(2 ** 53 + 2 ** 52);
    expect(decoded(encodeScore(180, 0))[0]).toBe(180);
    expect(geohashString(encodeScore(180, 0))).toBe("80000000000");
  });

  it("decodes a cell's index pair to its centre (index round trip)", () => {
    fc.assert(
      fc.property(fc.nat(2 ** 26 - 1), fc.nat(2 ** 26 - 1), (i, j) => {
        const bounds = new Float64Array(4);
        cellBounds(i, j, STEP_MAX, bounds);
        expect(decoded(alignedScore(i, j, 0, false))).toEqual([
          (bounds[0]! + bounds[1]!) / 2,
          (bounds[2]! + bounds[3]!) / 2,
        ]);
      }),
      { seed: 23, numRuns: 5000 },
    );
  });

  it("keeps a position within half a cell, and re-encodes the decoded centre to the same score", () => {
    fc.assert(
      fc.property(lon, lat, (x, y) => {
        const score = encodeScore(x, y);
        expect(Number.isInteger(score) && score >= 0 && score < 2 ** 54).toBe(true);
        const [x2, y2] = decoded(score);
        expect(Math.abs(x2 - x)).toBeLessThanOrEqual(CELL_LON / 2 + 1e-13); // + rounding near ±180
        // Longitude 180 puts the score above 2^53, where the double drops the lowest latitude bit.
        const latError = score >= 2 ** 53 ? 1.5 * CELL_LAT : CELL_LAT / 2;
        expect(Math.abs(y2 - y)).toBeLessThanOrEqual(latError + 1e-13);
        expect(encodeScore(x2, y2)).toBe(score);
        expect(geohashString(score)).toMatch(/^[0-9b-hjkmnp-z]{10}0$/);
      }),
      { seed: 24, numRuns: 5000 },
    );
  });

  it("orders scores by interleaved prefix: a cell's score range holds the places in it", () => {
    const west = fc.double({ min: -180, max: 179.9999, noNaN: true });
    fc.assert(
      fc.property(west, lat, fc.integer({ min: 1, max: 26 }), (x, y, step) => {
        const k = 26 - step;
        const i = Math.floor(latIndex(y, 26) / 2 ** k);
        const j = Math.floor(lonIndex(x, 26) / 2 ** k);
        const score = encodeScore(x, y);
        expect(score).toBeGreaterThanOrEqual(alignedScore(i, j, 2 * k, false));
        expect(score).toBeLessThan(alignedScore(i, j, 2 * k, true));
      }),
      { seed: 25, numRuns: 3000 },
    );
  });
});

describe("distance and search area", () => {
  it("is symmetric, zero from a point to itself, and at most half the circumference", () => {
    fc.assert(
      fc.property(lon, lat, lon, lat, (x1, y1, x2, y2) => {
        const d = haversine(NATIVE_TRIG, x1, y1, x2, y2);
        expect(d).toBe(haversine(NATIVE_TRIG, x2, y2, x1, y1));
        expect(haversine(NATIVE_TRIG, x1, y1, x1, y1)).toBe(0);
        expect(d).toBeLessThanOrEqual(Math.PI * 6372797.560856 * (1 + 1e-12));
      }),
      { seed: 26, numRuns: 3000 },
    );
  });

  it("estimates steps as Redis does: 26 for 0, fewer near the poles, never below 1", () => {
    expect(estimateSteps(0, 0)).toBe(26);
    expect(estimateSteps(1, 0)).toBe(24);
    expect(estimateSteps(1, 70)).toBe(23);
    expect(estimateSteps(1, -81)).toBe(22);
    expect(estimateSteps(Number.POSITIVE_INFINITY, 0)).toBe(1);
    expect(estimateSteps(5e6, 0)).toBe(2);
    expect(estimateSteps(2.1e7, 0)).toBe(1);
  });

  it("scans at most 9 disjoint score ranges", () => {
    fc.assert(
      fc.property(lon, lat, fc.double({ min: 0, max: 3e7, noNaN: true }), fc.boolean(), (x, y, r, box) => {
        const ranges = searchRanges(
          {
            longitude: x,
            latitude: y,
            byBox: box,
            radius: r,
            width: r,
            height: r / 2,
            conversion: 1,
            sort: 0,
            count: 0,
            any: false,
          },
          NATIVE_TRIG,
        );
        expect(ranges.length % 2).toBe(0);
        expect(ranges.length).toBeLessThanOrEqual(18);
        const pairs = [];
        for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
        pairs.sort((a, b) => a[0]! - b[0]!);
        for (let i = 0; i < pairs.length; i++) {
          expect(pairs[i]![0]).toBeLessThanOrEqual(pairs[i]![1]!);
          if (i > 0) expect(pairs[i]![0]).toBeGreaterThanOrEqual(pairs[i - 1]![1]!);
        }
      }),
      { seed: 27, numRuns: 2000 },
    );
  });
});

describe("Redis's sorts", () => {
  // Distances with many ties (few distinct values) so that tie order matters.
  const dists = fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 120 }).map((a) => Float64Array.from(a));

  it("merge sort: the stable sort by distance, ascending or descending", () => {
    fc.assert(
      fc.property(dists, fc.boolean(), (d, desc) => {
        const idx = Int32Array.from(d, (_, i) => i);
        mergeSort(idx, d.length, d, desc);
        const expected = [...d.keys()].sort((a, b) => (desc ? d[b]! - d[a]! : d[a]! - d[b]!));
        expect([...idx]).toEqual(expected);
      }),
      { seed: 28, numRuns: 2000 },
    );
  });

  it("partial quicksort: the wanted ranks hold a full sort's distances, over a permutation", () => {
    fc.assert(
      fc.property(dists, fc.boolean(), fc.nat(), (d, desc, k0) => {
        const n = d.length;
        if (n === 0) return;
        const k = 1 + (k0 % n);
        const idx = Int32Array.from(d, (_, i) => i);
        partialQuickSort(idx, 0, n, d, desc, 0, k - 1);
        expect([...idx].sort((a, b) => a - b)).toEqual([...d.keys()]);
        const sorted = [...d].sort((a, b) => (desc ? b - a : a - b));
        expect([...idx].slice(0, k).map((i) => d[i])).toEqual(sorted.slice(0, k));
      }),
      { seed: 29, numRuns: 2000 },
    );
  });
});

/** n places: uniform over the map, and a fifth of them on its edges and in clusters. */
function places(n: number, seed: number): [string, number, number][] {
  const next = mulberry32(seed);
  const u = () => next() / 2 ** 32;
  const out: [string, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const r = u();
    const x = r < 0.05 ? [-180, 180, 0][i % 3]! : r < 0.15 ? 2 + u() * 1e-3 : -180 + 360 * u();
    const y =
      r < 0.1 && r >= 0.05
        ? [LAT_MIN, LAT_MAX, 0][i % 3]!
        : r < 0.15
          ? 48 + u() * 1e-3
          : LAT_MIN + (LAT_MAX - LAT_MIN) * u();
    out.push([`p${i}`, x, y]);
  }
  return out;
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

  it("refuses bad arguments with errors that name them", () => {
    const g = GeoSet.from([["a", 0, 0]]);
    expect(() => g.add("x", 180.5, 0)).toThrow(/longitude must be a number in \[-180, 180\], got 180\.5/);
    expect(() => g.add("x", 0, -85.1)).toThrow(RangeError);
    expect(() => g.add("x", Number.NaN, 0)).toThrow(/longitude must be .* got NaN/);
    expect(() => g.add("x", 0, Number.NaN)).toThrow(RangeError);
    expect(() => g.add("x", "1" as unknown as number, 0)).toThrow(TypeError);
    expect(() => g.add(1 as unknown as string, 0, 0)).toThrow(/member must be a string/);
    expect(() => g.add("x", 0, 0, { nx: true, xx: true })).toThrow(RangeError);
    expect(() => g.add("x", 0, 0, { NX: true } as never)).toThrow(/unknown option "NX".*did you mean "nx"/);
    expect(() => g.add("x", 0, 0, { gt: true } as never)).toThrow(TypeError);
    expect(() => g.add("x", 0, 0, { ch: 1 } as never)).toThrow(/ch must be a boolean/);
    expect(() => g.addAll("abc" as never)).toThrow(TypeError);
    expect(() => g.addAll([["x", 0]] as never)).toThrow(TypeError);
    expect(() => g.addAll([null] as never)).toThrow(/entries\[0\] must be a \[member, longitude, latitude\] array/);
    expect(() => g.distance("a", "a", "yd" as never)).toThrow(/unit must be "m", "km", "mi" or "ft"/);
    expect(() => g.distance("a", "a", "KM" as never)).toThrow(RangeError);
    const c = { longitude: 0, latitude: 0 };
    expect(() => g.search(undefined as never)).toThrow(TypeError);
    expect(() => g.search({ radius: 1 })).toThrow(/exactly one centre/);
    expect(() => g.search({ ...c, member: "a", radius: 1 })).toThrow(/exactly one centre/);
    expect(() => g.search(c)).toThrow(/exactly one shape/);
    expect(() => g.search({ ...c, radius: 1, width: 1, height: 1 })).toThrow(/exactly one shape/);
    expect(() => g.search({ ...c, width: 1 })).toThrow(/height must be/);
    expect(() => g.search({ longitude: 0, radius: 1 })).toThrow(/latitude must be/);
    expect(() => g.search({ ...c, radius: -1 })).toThrow(/radius must be a number ≥ 0/);
    expect(() => g.search({ ...c, radius: Number.NaN })).toThrow(RangeError);
    expect(() => g.search({ ...c, radius: 1, unit: "yd" as never })).toThrow(RangeError);
    expect(() => g.search({ ...c, radius: 1, order: "ASC" as never })).toThrow(/order must be "asc" or "desc"/);
    expect(() => g.search({ ...c, radius: 1, count: 0 })).toThrow(/count must be an integer/);
    expect(() => g.search({ ...c, radius: 1, count: 1.5 })).toThrow(RangeError);
    expect(() => g.search({ ...c, radius: 1, any: true })).toThrow(/ANY needs COUNT/);
    expect(() => g.search({ ...c, radius: 1, storeDist: true } as never)).toThrow(/unknown option "storeDist"/);
    expect(() => g.search({ ...c, radius: 1, raduis: 2 } as never)).toThrow(/did you mean "radius"/);
    expect(() => g.search({ member: "zz", radius: 1 })).toThrow(/member must be a member of the set/);
    expect(() => g.searchStore({ ...c, radius: 1, storeDist: "yes" as never })).toThrow(TypeError);
    expect(() => new GeoSet({ sortedSet: new SortedSet(), seed: 1 })).toThrow(TypeError);
    expect(() => new GeoSet({ sortedSet: {} as never })).toThrow(/sortedSet must be a SortedSet/);
    expect(() => new GeoSet({ seed: -1 })).toThrow(RangeError);
    expect(() => new GeoSet(null as never)).toThrow(TypeError);
    expect(() => JSON.stringify(g)).toThrow(/not JSON/);
  });

  it("round-trips through toBytes / fromBytes, scores and members exact", () => {
    const g = GeoSet.from([...places(50, 36), ["é😀\u{D800}", 180, LAT_MAX], ["", -180, LAT_MIN]]);
    g.sortedSet.add("odd score", -1.5);
    const bytes = g.toBytes();
    const back = GeoSet.fromBytes(bytes);
    back.checkInvariants();
    expect([...back.sortedSet]).toEqual([...g.sortedSet]);
    expect(back.toBytes()).toEqual(bytes);
    expect(GeoSet.fromBytes(new GeoSet().toBytes()).size).toBe(0);
    expect(() => GeoSet.fromBytes(new Uint8Array([82, 83, 90, 83, 1, 0, 0, 0, 0]))).toThrow(/SortedSet's toBytes/);
    expect(() => GeoSet.fromBytes(bytes.subarray(0, bytes.length - 1))).toThrow(RedstructFormatError);
    expect(() => GeoSet.fromBytes("RSGE" as never)).toThrow(TypeError);
    expect(GeoSet.fromBytes(bytes).sortedSet.randomMembers(3)).toEqual(g.sortedSet.randomMembers(3));
  });

  it("fromBytes turns 10^4 hostile inputs into a valid GeoSet or a RedstructFormatError", () => {
    const valid = [new GeoSet().toBytes(), GeoSet.from(places(3, 37)).toBytes(), GeoSet.from(places(1, 38)).toBytes()];
    const counts = fuzzDeserializer(
      {
        name: "GeoSet.fromBytes",
        read: (b) => GeoSet.fromBytes(b),
        valid,
        use: (g) => {
          g.search({ longitude: 0, latitude: 0, radius: Number.POSITIVE_INFINITY });
          for (const m of g.sortedSet.keys()) g.geohash(m);
        },
        write: (g) => g.toBytes(),
      },
      { seed: 39, runs: 10_000 },
    );
    expect(counts.refused).toBeGreaterThan(0);
    expect(counts.loaded).toBeGreaterThan(0);
  });
});
