/**
 * RedisBloomFilter replays RedisBloom 2.4.23 (test/vectors/redisbloom/): every recorded BF.* reply,
 * SCANDUMP chunk and false positive, bit for bit, and the recorded hashes (MurmurHash64A with the
 * Bloom seeds, MurmurHash2 with the legacy ones). vectors-no-wasm.test.ts replays the same vectors
 * on the JavaScript hash path.
 */
import { describe, expect, it } from "vitest";
import { RedisBloomFilter } from "../../src/bloom/index.js";
import { murmur64a } from "../../src/hash/index.js";
import { murmur2 } from "../../src/hash/murmur2.js";
import { replayVectors } from "../support/bloom-replay.js";
import { itemOf } from "../support/redisbloom.js";
import hashes from "../vectors/redisbloom/hashes.json" with { type: "json" };

describe("RedisBloomFilter replays RedisBloom 2.4.23", () => {
  replayVectors(RedisBloomFilter);
  it("hashes.json: MurmurHash64A with the Bloom seeds, MurmurHash2 with the legacy seeds", () => {
    for (const row of hashes.rows as Array<Record<string, unknown>>) {
      const v = itemOf(row.item);
      const a = murmur64a(v, 0xc6a4a7935bd1e995n);
      expect(a.toString(16).padStart(16, "0")).toBe(row.m64a_c6a4);
      expect(murmur64a(v, a).toString(16).padStart(16, "0")).toBe(row.m64a_chain);
      const a32 = murmur2(v, 0x9747b28c);
      expect(a32).toBe(row.m2_9747b28c);
      expect(murmur2(v, a32)).toBe(row.m2_chain);
    }
  });
});
