/**
 * Redis's sorts of search results (src/geo/sort.ts): the stable merge sort by distance, ascending or
 * descending, and the partial quicksort whose wanted ranks hold a full sort's distances.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeSort, partialQuickSort } from "../../src/geo/sort.js";

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
