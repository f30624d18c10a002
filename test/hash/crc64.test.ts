/** CRC-64-Jones (src/hash/crc64.ts), the trailer of every Redis DUMP payload: Redis's check value. */
import { describe, expect, it } from "vitest";
import { crc64Into } from "../../src/hash/crc64.js";

describe("crc64Into", () => {
  it("CRC-64-Jones: Redis's check value, written little-endian as Redis appends it", () => {
    const crc = (bytes: Uint8Array) => {
      const out = new Uint8Array(8).fill(0xff);
      crc64Into(bytes, 0, bytes.length, out, 0);
      return Array.from(out);
    };
    // crc64("123456789") = 0xe9c6d914c4b8d9ca
    expect(crc(new TextEncoder().encode("123456789"))).toEqual([0xca, 0xd9, 0xb8, 0xc4, 0x14, 0xd9, 0xc6, 0xe9]);
    expect(crc(new Uint8Array(0))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
