/**
 * RedisBloomFilter where WebAssembly cannot run (a Content-Security-Policy without
 * 'wasm-unsafe-eval', an engine without it): the module graph of this file is loaded with
 * `WebAssembly` hidden, so every item is hashed by the JavaScript MurmurHash64A and every position
 * comes from the exact 16-bit-limb reductions. Each test file has a module graph of its own (in Node
 * and in the browser), so the other files keep the WebAssembly path.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as Bloom from "../../src/bloom/index.js";
import { murmur64a } from "../../src/hash/index.js";
import { replayVectors } from "../support/bloom-replay.js";

const saved = globalThis.WebAssembly;
(globalThis as { WebAssembly?: unknown }).WebAssembly = undefined;
let RedisBloomFilter: typeof Bloom.RedisBloomFilter;
let wasmMurmur: unknown;
try {
  ({ RedisBloomFilter } = await import("../../src/bloom/index.js"));
  ({ wasmMurmur } = await import("../../src/hash/murmur64a-wasm.js"));
} finally {
  (globalThis as { WebAssembly?: unknown }).WebAssembly = saved;
}

describe("RedisBloomFilter without WebAssembly replays RedisBloom 2.4.23", () => {
  it("runs without the WebAssembly module", () => {
    expect(wasmMurmur).toBeUndefined();
  });

  replayVectors(RedisBloomFilter);

  it("sets exactly the bits ((a + i·b) mod 2^64) mod M of the chained MurmurHash64A (BigInt model)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 30 }), fc.uint8Array({ maxLength: 30 }), fc.integer()),
        fc.integer({ min: 1, max: 300_000 }),
        fc.double({ min: 1e-6, max: 0.5, noNaN: true }),
        (v, capacity, errorRate) => {
          const f = new RedisBloomFilter({ capacity, errorRate, nonScaling: true });
          f.add(v);
          const [header, ...chunks] = f.toRedis();
          const h = new DataView(header![1].buffer, header![1].byteOffset);
          const bits = h.getUint32(28, true) + h.getUint32(32, true) * 2 ** 32;
          const k = h.getUint32(60, true);
          const a = murmur64a(v, 0xc6a4a7935bd1e995n);
          const b = murmur64a(v, a);
          const want = new Set<number>();
          for (let i = 0n; i < BigInt(k); i++) want.add(Number(((a + i * b) & ((1n << 64n) - 1n)) % BigInt(bits)));
          const got = new Set<number>();
          for (const [end, chunk] of chunks) {
            const start = end - chunk.length - 1;
            chunk.forEach((byte, j) => {
              for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) got.add((start + j) * 8 + bit);
            });
          }
          expect(got).toEqual(want);
        },
      ),
      { seed: 1310, numRuns: 60 },
    );
  });
});
