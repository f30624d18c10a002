/**
 * Non-ASCII strings are hashed from a shared UTF-8 scratch buffer that grows on demand. Each case
 * uses a string longer than any before it, so the scratch grows during that very call: the hash
 * must be the one of the string's bytes.
 */
import { describe, expect, it } from "vitest";
import { murmur3_32, murmur3_128x86Into, murmur64a, siphash13, sipKeyFromBytes } from "../../src/hash/index.js";
import { murmur2 } from "../../src/hash/murmur2.js";

let length = 100;

const longer = (): [string, Uint8Array] => {
  length *= 2;
  const s = "é".repeat(length);
  return [s, new TextEncoder().encode(s)];
};

describe("hashes of a non-ASCII string that grows the scratch buffer", () => {
  it("murmur64a", () => {
    const [s, b] = longer();
    expect(murmur64a(s)).toBe(murmur64a(b));
  });
  it("murmur2", () => {
    const [s, b] = longer();
    expect(murmur2(s, 7)).toBe(murmur2(b, 7));
  });
  it("murmur3_32", () => {
    const [s, b] = longer();
    expect(murmur3_32(s, 7)).toBe(murmur3_32(b, 7));
  });
  it("murmur3_128x86Into", () => {
    const [s, b] = longer();
    const x = new Uint32Array(4);
    const y = new Uint32Array(4);
    murmur3_128x86Into(s, x, 7);
    murmur3_128x86Into(b, y, 7);
    expect(x).toEqual(y);
  });
  it("siphash13", () => {
    const [s, b] = longer();
    const key = sipKeyFromBytes(new Uint8Array(16).fill(3));
    expect(siphash13(s, key)).toBe(siphash13(b, key));
  });
});
