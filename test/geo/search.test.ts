/**
 * Distances and search areas (src/geo/distance.ts, search.ts): haversine symmetric, zero from a
 * point to itself and at most half the circumference; Redis's step estimate; a search scanning at
 * most 9 disjoint score ranges.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversine, NATIVE_TRIG } from "../../src/geo/distance.js";
import { LAT_MAX, LAT_MIN } from "../../src/geo/geohash.js";
import { estimateSteps, searchRanges } from "../../src/geo/search.js";

const lon = fc.double({ min: -180, max: 180, noNaN: true });

const lat = fc.double({ min: LAT_MIN, max: LAT_MAX, noNaN: true });

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
