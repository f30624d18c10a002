/** GeoSet's serialized form: toBytes/fromBytes round-trip, scores and members exact. */
import { describe, expect, it } from "vitest";
import { LAT_MAX, LAT_MIN } from "../../src/geo/geohash.js";
import { GeoSet } from "../../src/geo/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { places } from "../support/geo.js";

describe("GeoSet", () => {
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
});
