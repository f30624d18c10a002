/**
 * What a plain redis-server (7.0, no RedisBloom: Debian does not package it) can say about TDigest's
 * DUMP payloads: Redis checks a payload's RDB version and CRC-64 before it looks inside. So
 * - a payload from toRedis() gets past that check and fails only at the module type Redis does not
 *   have ("Bad data format"), while the same payload with one bit changed fails the check;
 * - a real DUMP of a key of another type passes fromRedis's CRC-64 and version checks and is refused
 *   for its RDB type — so both sides compute the trailer alike, on bytes from Redis itself.
 * The vectors (vectors.test.ts) are the oracle for everything inside the payload.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedstructFormatError, TDigest } from "../../src/tdigest/index.js";
import { type Redis, RedisReplyError, startRedis } from "../support/redis.js";

let redis: Redis;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
});

describe("TDigest DUMP payloads and a real redis-server", () => {
  it("RESTORE accepts the RDB version and CRC-64 of toRedis() payloads (and refuses a changed bit)", async () => {
    const digests = [new TDigest(), TDigest.from([42.5]), TDigest.from(Array.from({ length: 5000 }, (_, i) => i % 97))];
    for (const [i, d] of digests.entries()) {
      const payload = d.toRedis();
      const [restored] = await redis.pipeline([["RESTORE", `td:${i}`, "0", payload]]);
      expect(restored).toBeInstanceOf(RedisReplyError);
      // Past the trailer check: Redis only lacks the TDIS-TYPE module.
      expect((restored as Error).message).toMatch(/Bad data format/);
      const changed = payload.slice();
      changed[12] = changed[12]! ^ 1;
      const [refused] = await redis.pipeline([["RESTORE", `td:bad:${i}`, "0", changed]]);
      expect((refused as Error).message).toMatch(/DUMP payload version or checksum are wrong/);
    }
  });

  it("fromRedis checks the trailer of real DUMP payloads, then refuses keys of other types by their RDB type", async () => {
    const replies = await redis.pipeline([
      ["SET", "s", "a string"],
      ["RPUSH", "l", "a", "b"],
      ["ZADD", "z", "1", "m"],
      ["HSET", "h", "f", "v"],
      ["DUMP", "s"],
      ["DUMP", "l"],
      ["DUMP", "z"],
      ["DUMP", "h"],
    ]);
    for (const dump of replies.slice(4)) {
      const bytes = dump as Uint8Array;
      expect(bytes[bytes.length - 10]).toBe(10); // RDB version 10 (Redis 7.0)
      const type = bytes[0]!;
      expect(() => TDigest.fromRedis(bytes)).toThrow(RedstructFormatError);
      expect(() => TDigest.fromRedis(bytes)).toThrow(
        new RegExp(`RDB type ${type} \\([a-z ]+[^)]*\\)+, not a module value`),
      );
      const changed = bytes.slice();
      changed[1] = changed[1]! ^ 1;
      expect(() => TDigest.fromRedis(changed)).toThrow(/CRC-64 does not match/);
    }
  });
});
