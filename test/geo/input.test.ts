/** GeoSet's argument checks: every bad argument refused with an error that names it. */
import { describe, expect, it } from "vitest";
import { GeoSet } from "../../src/geo/index.js";
import { SortedSet } from "../../src/skiplist/index.js";

describe("GeoSet", () => {
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
});
