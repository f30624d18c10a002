/**
 * Every public argument of every export of redstruct/hash: items, seeds, keys and output arrays of
 * the wrong type or range are refused with a message naming the function and the parameter, and
 * every documented form of an argument means what the caller wrote.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  murmur3_32,
  murmur3_128,
  murmur3_128x86Into,
  murmur64a,
  murmur64aInto,
  siphash13,
  siphash13Into,
  siphash24,
  sipKeyFromBytes,
  utf8,
} from "../../src/hash/index.js";
import { murmur64aModel } from "../support/hash-model.js";

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
