/** glibcRandom (src/topk/glibc-random.ts): glibc's rand() after srand(seed), draw for draw. */
import { describe, expect, it } from "vitest";
import { glibcRandom } from "../../src/topk/index.js";
import vectors from "../vectors/redisbloom/topk.json" with { type: "json" };

describe("glibcRandom", () => {
  it("equals glibc rand() after srand(1)", () => {
    const g = glibcRandom();
    expect(Array.from({ length: 32 }, g)).toEqual(vectors.glibc_rand_after_srand_1_first_32);
    const h = glibcRandom(0); // glibc treats seed 0 as 1
    expect(h()).toBe(1804289383);
    expect(() => glibcRandom(-1)).toThrow(RangeError);
    expect(() => glibcRandom(1.5)).toThrow(RangeError);
  });

  it("draws in [0, 2^31 − 1] for other seeds", () => {
    for (const seed of [2, 12345, 0x7fffffff, 0x80000000, 0xffffffff]) {
      const g = glibcRandom(seed);
      for (let i = 0; i < 1000; i++) {
        const v = g();
        expect(Number.isInteger(v) && v >= 0 && v <= 0x7fffffff).toBe(true);
      }
    }
  });
});
