/**
 * The hashing behind BloomFilter, BlockedBloomFilter and ScalableBloomFilter (src/bloom/hashing.ts):
 * items are Redis's bytes (42, 42n, "42" and its bytes are one item), the position reductions set
 * exactly the bit the formula names, positions spread evenly, and one key's probes are distinct.
 */
import { describe, expect, it } from "vitest";
import { H, hashElement, RING_BITS, scaleHi, scaleLo } from "../../src/bloom/hashing.js";
import { BloomFilter } from "../../src/bloom/index.js";

describe("hashing", () => {
  it("treats 42, 42n, '42' and the bytes of '42' as one element, like Redis", () => {
    const bf = new BloomFilter({ capacity: 100, errorRate: 0.001 });
    expect(bf.add(42)).toBe(true);
    expect(bf.add("42")).toBe(false);
    expect(bf.add(42n)).toBe(false);
    expect(bf.add(new Uint8Array([0x34, 0x32]))).toBe(false);
    expect(bf.size).toBe(1);
  });

  /**
   * Where a filter of m bits puts probe 0 of `v`, per hashing.ts: ⌊H[0]·m/2^32⌋ in the ring path
   * (m ≤ 2^25), a = ⌊h1·m/2^64⌋ with h1 = H[1]:H[0] above.
   */
  const firstProbe = (v: string, m: number) => {
    hashElement(v);
    return m <= RING_BITS ? Math.floor((H[0]! * m) / 2 ** 32) : (H[1]! * scaleHi(m) + H[0]! * scaleLo(m)) | 0;
  };

  it("the filter sets exactly bit ⌊h·m/2^w⌋ for k = 1 (both reductions)", () => {
    for (const m of [1, 31, 32, 33, 1000, 1 << 20, RING_BITS, RING_BITS + 1, 123_456_789]) {
      const bf = new BloomFilter({ bits: m, hashes: 1 });
      for (let i = 0; i < 20; i++) {
        const v = `key-${m}-${i}`;
        const a = firstProbe(v, m);
        expect(a).toBeGreaterThanOrEqual(0);
        expect(a).toBeLessThan(m);
        bf.clear();
        bf.add(v);
        const words = new DataView(bf.toBytes().buffer, 40);
        expect((words.getUint32((a >>> 5) * 4, true) >>> (a & 31)) & 1).toBe(1);
        expect(bf.setBits).toBe(1);
      }
    }
  });

  /** 16 equal slices and 16 residues of 32 000 first probes: each expects 2000 (σ ≈ 43); 5σ bound. */
  const expectEven = (m: number) => {
    const bins = new Array<number>(16).fill(0);
    const low = new Array<number>(16).fill(0);
    for (let i = 0; i < 32_000; i++) {
      const a = firstProbe(`k${i}`, m);
      bins[Math.floor(a / (m / 16))]!++;
      low[a & 15]!++; // the low bits too: a bad mix or too few hash bits would leave some empty
    }
    for (const c of [...bins, ...low]) expect(Math.abs(c - 2000)).toBeLessThan(5 * Math.sqrt(2000));
  };

  it("spreads positions evenly over a 2^31 − 1-bit range (64-bit reduction)", () => expectEven(2 ** 31 - 1));

  it("spreads positions evenly over the largest ring-path range, 2^25 bits (32-bit reduction)", () => {
    expectEven(RING_BITS);
    expectEven(RING_BITS - 3);
  });

  it("probes of one key are distinct for a power-of-two m (no even-step collapse)", () => {
    const bf = new BloomFilter({ bits: 1 << 16, hashes: 16 });
    for (let i = 0; i < 2000; i++) {
      bf.clear();
      bf.add(`p${i}`);
      // 16 probes in 65 536 bits collide with probability ≈ 120/65 536 per key: allow a few.
      expect(bf.setBits).toBeGreaterThanOrEqual(14);
    }
  });
});
