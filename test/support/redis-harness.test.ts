/**
 * The redis-server test harness (redis.ts, resp.ts): the compatibility suites depend on it behaving
 * the same in Node and Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ok, type Redis, RedisReplyError, startRedis, text } from "./redis.js";

describe("redis test harness", () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("round-trips binary values and pipelines replies in order", async () => {
    const blob = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
    const replies = await redis.pipeline([
      ["SET", "k", blob],
      ["GET", "k"],
      ["INCR", "n"],
      ["INCRBY", "n", 41],
      ["GET", "missing"],
      ["RPUSH", "l", "a", "é"],
      ["LRANGE", "l", 0, -1],
    ]);
    expect(text(replies[0]!)).toBe("OK");
    expect(replies[1]).toEqual(blob);
    expect(replies.slice(2, 5)).toEqual([1, 42, null]);
    expect((ok(replies[6]!) as Uint8Array[]).map(text)).toEqual(["a", "é"]);
  });

  it("returns errors as values", async () => {
    const r = await redis.call("INCR", "k");
    expect(r).toBeInstanceOf(RedisReplyError);
    expect(() => ok(r)).toThrow(/not an integer/);
  });
});
