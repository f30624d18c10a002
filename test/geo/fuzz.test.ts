/**
 * GeoSet.fromBytes, fuzzed with 10^4 seeded hostile inputs per run: each loads into a GeoSet that
 * passes checkInvariants() or throws a RedstructFormatError.
 */
import { describe, expect, it } from "vitest";
import { GeoSet } from "../../src/geo/index.js";
import { fuzzDeserializer } from "../support/fuzz.js";
import { places } from "../support/geo.js";

describe("GeoSet", () => {
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
