/**
 * The sort behind every TDigest merge (src/tdigest/sort.ts) against the direct transcription of
 * RedisBloom's td_qsort (test/support/tdigest-sort-model.ts): the same permutation — means and the
 * weights that travel with them — on arrays full of ties (small alphabets, all equal, sorted,
 * reverse-sorted, organ-pipe, with NaN and signed zeros), whole or a sub-range. The weights are the
 * elements' original positions, so any difference in the order of tied means shows. Speed on ties is
 * a benchmark row (bench/tdigest.bench.ts), not a test.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByMean } from "../../src/tdigest/sort.js";
import { modelSortByMean } from "../support/tdigest-sort-model.js";

/** Sorts copies with both sorts over [start, end]; expects the same means (bit for bit) and weights. */
function expectSameSort(values: readonly number[], start = 0, end = values.length - 1): void {
  const fastMean = Float64Array.from(values);
  const fastWeight = Float64Array.from(values, (_, i) => i);
  const modelMean = fastMean.slice();
  const modelWeight = fastWeight.slice();
  sortByMean(fastMean, fastWeight, start, end);
  modelSortByMean(modelMean, modelWeight, start, end);
  expect(Array.from(fastWeight)).toEqual(Array.from(modelWeight));
  for (let i = 0; i < values.length; i++) {
    if (!Object.is(fastMean[i], modelMean[i])) expect.fail(`mean ${i}: ${fastMean[i]} ≠ ${modelMean[i]}`);
  }
}

/** Shapes with many ties: each yields an array from a length and a small alphabet. */
const tiedValue = (alphabet: readonly number[]) => fc.constantFrom(...alphabet);

const alphabets: fc.Arbitrary<readonly number[]> = fc.oneof(
  fc.constant([7]),
  fc.constant([0, 1]),
  fc.constant([0, -0]),
  fc.constant([1, 2, 3]),
  fc.constant([-1, 0, -0, 1, Number.NaN]),
  fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 1, maxLength: 6 }),
  fc.array(fc.double({ noNaN: false }), { minLength: 1, maxLength: 4 }),
);

const shaped = fc
  .tuple(alphabets, fc.nat(300), fc.constantFrom("random", "sorted", "reversed", "organ-pipe", "runs"))
  .chain(([alphabet, n, shape]) =>
    fc.array(tiedValue(alphabet), { minLength: n, maxLength: n }).map((vs) => {
      const byValue = (a: number, b: number) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b);
      switch (shape) {
        case "sorted":
          return vs.sort(byValue);
        case "reversed":
          return vs.sort(byValue).reverse();
        case "organ-pipe": {
          const s = vs.sort(byValue);
          return [...s.filter((_, i) => i % 2 === 0), ...s.filter((_, i) => i % 2 === 1).reverse()];
        }
        case "runs":
          return vs.flatMap((v, i) => Array.from({ length: 1 + (i % 5) }, () => v));
        default:
          return vs;
      }
    }),
  );

describe("sortByMean gives td_qsort's permutation", () => {
  it("on arrays with many ties, whole (seeded)", () => {
    fc.assert(
      fc.property(shaped, (vs) => expectSameSort(vs)),
      { seed: 0x7d20, numRuns: 3000 },
    );
  });

  it("on a sub-range of such arrays, the rest untouched (seeded)", () => {
    fc.assert(
      fc.property(
        shaped.filter((vs) => vs.length > 0),
        fc.nat(),
        fc.nat(),
        (vs, a, b) => {
          const i = a % vs.length;
          const j = b % vs.length;
          expectSameSort(vs, Math.min(i, j), Math.max(i, j));
        },
      ),
      { seed: 0x7d21, numRuns: 1500 },
    );
  });

  it("on distinct doubles, and on arbitrary doubles with NaN and ±Infinity (seeded)", () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { maxLength: 400 }), (vs) => expectSameSort(vs)),
      { seed: 0x7d22, numRuns: 1000 },
    );
  });

  it("on fixed shapes: all equal, two values, a lone different value, long sorted runs", () => {
    const n = 2000;
    const shapes: number[][] = [
      Array.from({ length: n }, () => 3.5),
      Array.from({ length: n }, (_, i) => i % 2),
      Array.from({ length: n }, (_, i) => (i === n >> 1 ? 9 : 1)),
      Array.from({ length: n }, (_, i) => (i === 0 ? 9 : 1)),
      Array.from({ length: n }, (_, i) => (i === n - 1 ? -9 : 1)),
      Array.from({ length: n }, (_, i) => Math.floor(i / 100)),
      Array.from({ length: n }, (_, i) => -Math.floor(i / 100)),
      Array.from({ length: n }, (_, i) => Math.min(i, n - i) % 7),
      Array.from({ length: n }, (_, i) => (i % 3 === 0 ? Number.NaN : 2)),
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 0 : -0)),
      [1, 1],
      [2, 1],
      [5],
      [],
    ];
    for (const vs of shapes) expectSameSort(vs);
  });
});
