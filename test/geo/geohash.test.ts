/**
 * Redis's geohash (src/geo/geohash.ts): its documented examples, the coordinate maxima, the index
 * round trip, positions kept within half a cell, and scores ordered by interleaved prefix so that a
 * cell's score range holds the places in it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversine, NATIVE_TRIG } from "../../src/geo/distance.js";
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
