/**
 * Fuzzed RoaringBitmap.fromPortable and fromBytes: 10^4 seeded inputs each (random bytes, byte
 * edits and truncations of valid serializations, valid ones with lying fields), every one either
 * loads into a bitmap that passes checkInvariants(), answers queries, survives changes and writes
 * the input back byte for byte, or throws a RedstructFormatError.
 */
import { describe, expect, it } from "vitest";
import { RoaringBitmap } from "../../src/bitmap/roaring.js";
import { fuzzDeserializer } from "../support/fuzz.js";

/** Valid bitmaps of every layout: empty, arrays only, runs below and from 4 containers, a bitmap. */
function shapes(): RoaringBitmap[] {
  const arrays = RoaringBitmap.from([0, 1, 2, 65535, 65536, 2 ** 32 - 1]);
  const fewRuns = RoaringBitmap.from([7]);
  fewRuns.addRange(65536 + 10, 65536 + 40);
  fewRuns.addRange(65536 + 50, 65536 + 60);
  const manyRuns = RoaringBitmap.from([3, 2 * 65536 + 9, 9 * 65536]);
  manyRuns.addRange(5 * 65536, 5 * 65536 + 300);
  manyRuns.addRange(6 * 65536 + 1, 6 * 65536 + 4);
  const withBitmap = new RoaringBitmap();
  for (let i = 0; i < 4500; i++) withBitmap.add(65536 + 13 * i);
  withBitmap.addRange(0, 3);
  withBitmap.add(3 * 65536 + 1);
  const many = new RoaringBitmap();
  for (let k = 0; k < 40; k++) many.add(k * 65536 * 97 + k);
  return [new RoaringBitmap(), arrays, fewRuns, manyRuns, withBitmap, many];
}

/** What a loaded bitmap must survive: queries, iteration, changes and set operations. */
function use(r: RoaringBitmap): void {
  const size = r.size;
  let n = 0;
  for (const x of r) {
    expect(r.has(x)).toBe(true);
    if (++n > 50) break;
  }
  if (size > 0) {
    expect(r.rank(r.max()!)).toBe(size);
    expect(r.at(0)).toBe(r.min());
  }
  expect(RoaringBitmap.union([r, r]).size).toBe(size);
  expect(RoaringBitmap.intersectCard([r, r])).toBe(size);
  const c = r.clone();
  c.add(123456);
  c.deleteRange(0, 70000);
  c.runOptimize();
  c.checkInvariants();
}

describe("RoaringBitmap: fuzzed deserializers", () => {
  const valid = shapes();

  const readers = [
    { name: "fromPortable", read: RoaringBitmap.fromPortable, write: (r: RoaringBitmap) => r.toPortable(), seed: 1 },
    { name: "fromBytes", read: RoaringBitmap.fromBytes, write: (r: RoaringBitmap) => r.toBytes(), seed: 2 },
  ];
  for (const { name, read, write, seed } of readers) {
    it(`${name}: 10^4 hostile inputs load exactly or throw RedstructFormatError`, () => {
      const counts = fuzzDeserializer(
        { name: `RoaringBitmap.${name}`, read, valid: valid.map(write), use, write },
        { seed: 2026_1129 + seed, runs: 10_000 },
      );
      expect(counts.loaded + counts.refused).toBe(10_000);
      expect(counts.loaded).toBeGreaterThan(0);
      expect(counts.refused).toBeGreaterThan(0);
    });
  }
});
