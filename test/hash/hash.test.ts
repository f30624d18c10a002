import fc from "fast-check";
import murmurHash3 from "murmurhash3js-revisited";
import { describe, expect, it } from "vitest";
import {
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
import vectors from "../vectors/hash-vectors.json" with { type: "json" };

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));

/** An independent BigInt MurmurHash64A, straight from the algorithm's description. */
function murmur64aModel(bytes: Uint8Array, seed: bigint): bigint {
  const m = 0xc6a4a7935bd1e995n;
  const mask = (1n << 64n) - 1n;
  let h = (seed ^ (BigInt(bytes.length) * m)) & mask;
  const blocks = bytes.length - (bytes.length % 8);
  for (let i = 0; i < blocks; i += 8) {
    let k = 0n;
    for (let j = 7; j >= 0; j--) k = (k << 8n) | BigInt(bytes[i + j]!);
    k = (k * m) & mask;
    k ^= k >> 47n;
    k = (k * m) & mask;
    h ^= k;
    h = (h * m) & mask;
  }
  if (bytes.length % 8) {
    for (let j = 0; j < bytes.length % 8; j++) h ^= BigInt(bytes[blocks + j]!) << BigInt(8 * j);
    h = (h * m) & mask;
  }
  h ^= h >> 47n;
  h = (h * m) & mask;
  h ^= h >> 47n;
  return h;
}

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

describe("argument checks (every public argument of every export)", () => {
  const key = sipKeyFromBytes(new Uint8Array(16));
  const u32 = (n: number) => new Uint32Array(n);
  type Case = [call: string, run: () => unknown, error: typeof TypeError | typeof RangeError, param: string];
  // Every argument position of every export, with wrong types and out-of-range values. The message
  // must name the argument: `redstruct/hash: <param> must be …, got …`.
  const bad: Case[] = [];
  const wrongTypes = [null, {}, "abc", "5", true, [1], Symbol("s")] as unknown[];
  const seed32Ranges = [Number.NaN, 0.5, -1.5, 2 ** 32, -(2 ** 31) - 1, Number.POSITIVE_INFINITY];
  for (const v of wrongTypes) {
    bad.push(["murmur3_32 seed", () => murmur3_32("x", v as never), TypeError, "seed"]);
    bad.push(["murmur3_128 seed", () => murmur3_128("x", v as never), TypeError, "seed"]);
    bad.push(["murmur3_128x86Into seed", () => murmur3_128x86Into("x", u32(4), v as never), TypeError, "seed"]);
    bad.push(["murmur3_128x86Into out", () => murmur3_128x86Into("x", v as never), TypeError, "out"]);
    bad.push(["murmur64a seed", () => murmur64a("x", v as never), TypeError, "seed"]);
    bad.push(["murmur64aInto out", () => murmur64aInto("x", v as never), TypeError, "out"]);
    bad.push(["murmur64aInto seedHi", () => murmur64aInto("x", u32(2), v as never), TypeError, "seedHi"]);
    bad.push(["murmur64aInto seedLo", () => murmur64aInto("x", u32(2), 0, v as never), TypeError, "seedLo"]);
    bad.push(["siphash13 key", () => siphash13("x", v as never), TypeError, "key"]);
    bad.push(["siphash24 key", () => siphash24("x", v as never), TypeError, "key"]);
    bad.push(["siphash13Into key", () => siphash13Into("x", v as never, u32(2)), TypeError, "key"]);
    bad.push(["siphash13Into out", () => siphash13Into("x", key, v as never), TypeError, "out"]);
    bad.push(["sipKeyFromBytes bytes", () => sipKeyFromBytes(v as never), TypeError, "bytes"]);
    if (typeof v !== "string") {
      // Strings are elements; every other non-element is refused by every function.
      for (const [name, f] of [
        ["utf8", () => utf8(v as never)],
        ["murmur3_32", () => murmur3_32(v as never)],
        ["murmur3_128", () => murmur3_128(v as never)],
        ["murmur3_128x86Into", () => murmur3_128x86Into(v as never, u32(4))],
        ["murmur64a", () => murmur64a(v as never)],
        ["murmur64aInto", () => murmur64aInto(v as never, u32(2))],
        ["siphash13", () => siphash13(v as never, key)],
        ["siphash24", () => siphash24(v as never, key)],
        ["siphash13Into", () => siphash13Into(v as never, key, u32(2))],
      ] as const) {
        bad.push([`${name} element`, f, TypeError, "element"]);
      }
    }
  }
  for (const v of seed32Ranges) {
    bad.push(["murmur3_32 seed", () => murmur3_32("x", v), RangeError, "seed"]);
    bad.push(["murmur3_128 seed", () => murmur3_128("x", v), RangeError, "seed"]);
    bad.push(["murmur3_128x86Into seed", () => murmur3_128x86Into("x", u32(4), v), RangeError, "seed"]);
    bad.push(["murmur64aInto seedHi", () => murmur64aInto("x", u32(2), v), RangeError, "seedHi"]);
    bad.push(["murmur64aInto seedLo", () => murmur64aInto("x", u32(2), 0, v), RangeError, "seedLo"]);
  }
  for (const v of [-1n, 1n << 64n, -(1n << 70n), -1, 0.5, Number.NaN, 2 ** 53, Number.POSITIVE_INFINITY]) {
    bad.push(["murmur64a seed", () => murmur64a("x", v as never), RangeError, "seed"]);
  }
  for (const [name, out] of [
    ["Uint32Array(3)", u32(3)],
    ["Int32Array(3)", new Int32Array(3)],
  ] as const) {
    bad.push([`murmur3_128x86Into out ${name}`, () => murmur3_128x86Into("x", out), RangeError, "out.length"]);
  }
  bad.push(["murmur64aInto out Uint32Array(1)", () => murmur64aInto("x", u32(1)), RangeError, "out.length"]);
  bad.push(["murmur64aInto out Int32Array", () => murmur64aInto("x", new Int32Array(2) as never), TypeError, "out"]);
  bad.push(["murmur64aInto out number[]", () => murmur64aInto("x", [0, 0] as never), TypeError, "out"]);
  bad.push(["siphash13Into out Uint32Array(1)", () => siphash13Into("x", key, u32(1)), RangeError, "out.length"]);
  bad.push(["siphash13Into key Uint32Array(5)", () => siphash13Into("x", u32(5), u32(2)), RangeError, "key.length"]);
  bad.push(["siphash13 key Uint8Array(16)", () => siphash13("x", new Uint8Array(16) as never), TypeError, "key"]);
  bad.push(["siphash24 key Uint32Array(3)", () => siphash24("x", u32(3)), RangeError, "key.length"]);
  bad.push(["sipKeyFromBytes 15 bytes", () => sipKeyFromBytes(new Uint8Array(15)), RangeError, "bytes.length"]);
  bad.push(["sipKeyFromBytes 17 bytes", () => sipKeyFromBytes(new Uint8Array(17)), RangeError, "bytes.length"]);
  bad.push(["sipKeyFromBytes Uint32Array", () => sipKeyFromBytes(u32(4) as never), TypeError, "bytes"]);

  it.each(bad.map((c) => [c[0], c] as const))("%s: refused with a message naming it", (_, [, run, error, param]) => {
    expect(run).toThrow(error);
    expect(run).toThrow(new RegExp(`^redstruct/hash: ${param.replace(".", "\\.")} must be .*, got `));
  });

  it("accepts every documented form of each argument and means what the caller wrote", () => {
    // A 32-bit seed as an int32 or its uint32 twin is the same seed.
    expect(murmur3_32("x", -1)).toBe(murmur3_32("x", 0xffffffff));
    expect(murmur3_128("x", -2)).toBe(murmur3_128("x", 0xfffffffe));
    const a = u32(4);
    const b = new Int32Array(5);
    murmur3_128x86Into("x", a, -(2 ** 31));
    murmur3_128x86Into("x", b, 2 ** 31);
    expect(Array.from(b.subarray(0, 4), (w) => w >>> 0)).toEqual(Array.from(a));
    // A number seed of murmur64a is the bigint it spells, up to 2^53 − 1.
    expect(murmur64a("x", 5)).toBe(murmur64a("x", 5n));
    expect(murmur64a("x", Number.MAX_SAFE_INTEGER)).toBe(murmur64a("x", BigInt(Number.MAX_SAFE_INTEGER)));
    expect(murmur64a("x", (1n << 64n) - 1n)).toBe(murmur64aModel(utf8("x"), (1n << 64n) - 1n));
    const out = u32(3);
    murmur64aInto("x", out, 0, 5);
    expect((BigInt(out[1]!) << 32n) | BigInt(out[0]!)).toBe(murmur64a("x", 5n));
    murmur64aInto("x", out, -1, -1);
    expect((BigInt(out[1]!) << 32n) | BigInt(out[0]!)).toBe(murmur64a("x", (1n << 64n) - 1n));
    const big = u32(8);
    siphash13Into("x", key, big);
    expect((BigInt(big[1]!) << 32n) | BigInt(big[0]!)).toBe(siphash13("x", key));
  });

  it("any 32-bit integer seed is accepted and any other number refused (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), fc.double()), (seed) => {
        const ok = Number.isInteger(seed) && seed >= -(2 ** 31) && seed <= 2 ** 32 - 1;
        if (ok) expect(murmur3_32("x", seed)).toBe(murmur3_32("x", seed >>> 0));
        else expect(() => murmur3_32("x", seed)).toThrow(RangeError);
      }),
      { seed: 12, numRuns: 1000 },
    );
  });
});
