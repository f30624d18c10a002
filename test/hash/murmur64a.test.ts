import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { murmur2, murmur2Bytes, utf8 } from "../../src/hash/index.js";
import { itemOf } from "../support/redisbloom.js";
import hashes from "../vectors/redisbloom/hashes.json" with { type: "json" };

/** An independent MurmurHash2 over BigInt, straight from the algorithm's description. */
function murmur2Model(bytes: Uint8Array, seed: number): number {
  const m = 0x5bd1e995n;
  const mask = 0xffffffffn;
  let h = (BigInt(seed >>> 0) ^ BigInt(bytes.length)) & mask;
  const blocks = bytes.length - (bytes.length % 4);
  for (let i = 0; i < blocks; i += 4) {
    let k = BigInt(bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16)) | (BigInt(bytes[i + 3]!) << 24n);
    k = (k * m) & mask;
    k ^= k >> 24n;
    k = (k * m) & mask;
    h = (h * m) & mask;
    h ^= k;
  }
  const tail = bytes.length % 4;
  if (tail) {
    for (let j = tail - 1; j >= 0; j--) h ^= BigInt(bytes[blocks + j]!) << BigInt(8 * j);
    h = (h * m) & mask;
  }
  h ^= h >> 13n;
  h = (h * m) & mask;
  h ^= h >> 15n;
  return Number(h);
}

describe("murmur2 (MurmurHash2 32-bit)", () => {
  it("equals RedisBloom's MurmurHash2 on every hashes.json row and seed", () => {
    expect(hashes.rows.length).toBeGreaterThan(300);
    for (const row of hashes.rows) {
      const item = itemOf(row.item);
      const bytes = utf8(item);
      expect(murmur2(item, 0x9747b28c)).toBe(row.m2_9747b28c);
      expect(murmur2(item, row.m2_9747b28c)).toBe(row.m2_chain);
      expect(murmur2(item, 1919)).toBe(row.m2_1919);
      expect(murmur2Bytes(bytes, bytes.length, 1919)).toBe(row.m2_1919);
      expect(row.m2_rows.map((_, seed) => murmur2(item, seed))).toEqual(row.m2_rows);
    }
  });

  it("hashes strings, numbers, bigints and byte arrays as their bytes (seeded)", () => {
    const anyItem = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.uint8Array({ maxLength: 64 }),
      fc.double(),
      fc.bigInt(),
    );
    fc.assert(
      fc.property(anyItem, fc.integer({ min: 0, max: 0xffffffff }), (item, seed) => {
        const h = murmur2(item, seed);
        expect(h).toBe(murmur2Model(utf8(item), seed));
        expect(murmur2(utf8(item), seed)).toBe(h);
      }),
      { seed: 0x2f15, numRuns: 2000 },
    );
  });

  it("validates its arguments", () => {
    expect(() => murmur2("a", Number.NaN)).toThrow(/seed must be/);
    expect(() => murmur2("a", 2 ** 32)).toThrow(RangeError);
    expect(() => murmur2("a", "1" as unknown as number)).toThrow(TypeError);
    expect(() => murmur2({} as unknown as string)).toThrow(TypeError);
    expect(murmur2("a", -1)).toBe(murmur2("a", 0xffffffff));
    expect(() => murmur2Bytes([1, 2] as unknown as Uint8Array, 2)).toThrow(/bytes must be/);
    expect(() => murmur2Bytes(new Uint8Array(2), 3)).toThrow(/len must be/);
  });

  it("defaults to seed 0", () => {
    expect(murmur2("abc")).toBe(murmur2("abc", 0));
    expect(murmur2("")).toBe(0);
  });
});
