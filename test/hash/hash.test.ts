/**
 * Every hash of redstruct/hash against the reference C vectors (test/vectors/), published vectors,
 * the npm package it replaces and independent BigInt models written from each algorithm's
 * description: MurmurHash64A, MurmurHash2 (with RedisBloom's recorded hashes), MurmurHash3 x86_32 and
 * x86_128, SipHash-1-3 and -2-4; items as Redis's bytes (strings as UTF-8, numbers and bigints as
 * decimal strings); the hot paths bit-identical to the byte forms.
 */
import fc from "fast-check";
import murmurHash3 from "murmurhash3js-revisited";
import { describe, expect, it } from "vitest";
import {
  murmur2,
  murmur2Bytes,
  murmur3_32,
  murmur3_128,
  murmur3_128x86Into,
  murmur64a,
  murmur64aInto,
  randomSipKey,
  siphash13,
  siphash13Into,
  siphash24,
  sipKeyFromBytes,
  utf8,
} from "../../src/hash/index.js";
import { murmur64aModel } from "../support/hash-model.js";
import { itemOf } from "../support/redisbloom.js";
import vectors from "../vectors/hash-vectors.json" with { type: "json" };
import hashes from "../vectors/redisbloom/hashes.json" with { type: "json" };

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));

// Strings with astral characters and lone surrogates, which TextEncoder turns into U+FFFD.
const anyString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 300 }),
);

const anyElement = fc.oneof(
  anyString,
  fc.uint8Array({ maxLength: 300 }),
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }),
);

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

describe("utf8", () => {
  it("encodes strings as UTF-8, numbers and bigints as decimal strings, bytes as is", () => {
    expect([...utf8("é")]).toEqual([0xc3, 0xa9]);
    expect(utf8(42)).toEqual(utf8("42"));
    expect(utf8(-1.5)).toEqual(utf8("-1.5"));
    expect(utf8(12345678901234567890n)).toEqual(utf8("12345678901234567890"));
    const b = new Uint8Array([1, 2, 3]);
    expect(utf8(b)).toBe(b);
  });

  it("rejects other types with a TypeError naming the module", () => {
    for (const bad of [null, undefined, {}, [], true, Symbol("x")]) {
      expect(() => utf8(bad as never)).toThrow(TypeError);
      expect(() => murmur64a(bad as never)).toThrow(/redstruct\/hash: element must be/);
    }
  });
});

describe("murmur64a", () => {
  it("matches the reference C vectors (every tail length, 32- and 64-bit seeds)", () => {
    expect(vectors.murmur64a.length).toBeGreaterThan(100);
    for (const v of vectors.murmur64a) {
      expect(murmur64a(fromHex(v.bytes), BigInt(v.seed))).toBe(BigInt(v.hash));
    }
  });

  it("defaults to Redis's HyperLogLog seed 0xadc83b19", () => {
    expect(murmur64a("hello")).toBe(murmur64a("hello", 0xadc83b19n));
    expect(murmur64a("hello")).not.toBe(murmur64a("hello", 0n));
  });

  it("agrees with an independent BigInt model on arbitrary bytes and seeds", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (bytes, seed) => {
        expect(murmur64a(bytes, seed)).toBe(murmur64aModel(bytes, seed));
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it("hot path (string fast path, encodeInto fallback, halves) is bit-identical to the byte form", () => {
    const out = new Uint32Array(2);
    fc.assert(
      fc.property(anyElement, (value) => {
        murmur64aInto(value, out);
        const expected = murmur64aModel(utf8(value), 0xadc83b19n);
        expect((BigInt(out[1]!) << 32n) | BigInt(out[0]!)).toBe(expected);
        expect(murmur64a(value)).toBe(expected);
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it("numbers hash as their decimal string, like Redis", () => {
    expect(murmur64a(42)).toBe(murmur64a("42"));
    expect(murmur64a(10n)).toBe(murmur64a("10"));
  });
});

describe("murmur3", () => {
  it("murmur3_32 is bit-identical to murmurhash3js-revisited", () => {
    fc.assert(
      fc.property(anyElement, fc.integer({ min: 0, max: 0xffffffff }), (value, seed) => {
        expect(murmur3_32(value, seed)).toBe(murmurHash3.x86.hash32(utf8(value), seed));
      }),
      { seed: 3, numRuns: 500 },
    );
  });

  it("murmur3_32 matches the published vectors", () => {
    expect(murmur3_32("")).toBe(0);
    expect(murmur3_32("", 1)).toBe(0x514e28b7);
    expect(murmur3_32("hello")).toBe(0x248bfa47);
  });

  it("murmur3_128x86Into writes the package's x86_128 digest as four words (both readers, any tail)", () => {
    const out = new Uint32Array(4);
    const asInt32 = new Int32Array(4);
    fc.assert(
      fc.property(anyElement, fc.integer({ min: 0, max: 0xffffffff }), (value, seed) => {
        murmur3_128x86Into(value, out, seed);
        const hex = Array.from(out, (w) => w.toString(16).padStart(8, "0")).join("");
        expect(hex).toBe(murmurHash3.x86.hash128(utf8(value), seed));
        // The byte form (e.g. an ASCII string's bytes) and an Int32Array target give the same words.
        murmur3_128x86Into(utf8(value), asInt32, seed);
        expect(Array.from(asInt32, (w) => w >>> 0)).toEqual(Array.from(out));
      }),
      { seed: 5, numRuns: 500 },
    );
    // Every length 0..40 of ASCII and of 2-byte UTF-8, i.e. every block count and tail length.
    for (let n = 0; n <= 40; n++) {
      for (const s of ["abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".slice(0, n), "é".repeat(n)]) {
        murmur3_128x86Into(s, out, 0x9747b28c);
        const hex = Array.from(out, (w) => w.toString(16).padStart(8, "0")).join("");
        expect(hex).toBe(murmurHash3.x86.hash128(utf8(s), 0x9747b28c));
      }
    }
  });

  it("murmur3_128 returns the package's hex digest", () => {
    fc.assert(
      fc.property(anyString, (s) => {
        const h = murmur3_128(s, 5);
        expect(h).toMatch(/^[0-9a-f]{32}$/);
        expect(h).toBe(murmurHash3.x64.hash128(utf8(s), 5));
      }),
      { seed: 4, numRuns: 100 },
    );
  });
});

describe("siphash", () => {
  const key = sipKeyFromBytes(Uint8Array.from({ length: 16 }, (_, i) => i));

  it("matches the reference C vectors for SipHash-1-3 and SipHash-2-4", () => {
    for (const v of vectors.siphash) {
      const k = sipKeyFromBytes(fromHex(v.key));
      const f = v.c === 1 ? siphash13 : siphash24;
      expect(f(fromHex(v.bytes), k)).toBe(BigInt(v.hash));
    }
  });

  it("the ASCII-string fast path of SipHash-1-3 matches the reference vectors read as strings", () => {
    let checked = 0;
    for (const v of vectors.siphash) {
      const bytes = fromHex(v.bytes);
      if (v.c !== 1 || bytes.some((b) => b > 0x7f)) continue;
      expect(siphash13(String.fromCharCode(...bytes), sipKeyFromBytes(fromHex(v.key)))).toBe(BigInt(v.hash));
      checked++;
    }
    expect(checked).toBeGreaterThan(8); // every tail length at least
  });

  it("matches the paper's first SipHash-2-4 vector", () => {
    expect(siphash24(new Uint8Array(0), key)).toBe(0x726fdb47dd0e0e31n);
  });

  it("hot path equals the bigint form for any element", () => {
    const out = new Uint32Array(2);
    fc.assert(
      fc.property(anyElement, (value) => {
        siphash13Into(value, key, out);
        expect((BigInt(out[1]!) << 32n) | BigInt(out[0]!)).toBe(siphash13(utf8(value), key));
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it("random keys differ and change the hash", () => {
    const a = randomSipKey();
    const b = randomSipKey();
    expect(a).not.toEqual(b);
    expect(siphash13("x", a)).not.toBe(siphash13("x", b));
  });

  it("validates keys", () => {
    expect(() => siphash13("x", new Uint32Array(3))).toThrow(RangeError);
    expect(() => siphash13("x", [1, 2, 3, 4] as never)).toThrow(TypeError);
    expect(() => sipKeyFromBytes(new Uint8Array(15))).toThrow(/16 bytes/);
    const gone = new Uint8Array(16);
    structuredClone(gone.buffer, { transfer: [gone.buffer] });
    expect(() => sipKeyFromBytes(gone)).toThrow(
      new TypeError(
        "redstruct/hash: bytes is a Uint8Array whose buffer was detached (transferred to a worker?): it holds nothing",
      ),
    );
  });
});

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
