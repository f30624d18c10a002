import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HyperLogLog } from "../../src/hll/index.js";
import { makeElements, pfaddAll, toArg } from "../support/hll-redis.js";
import { ok, type Redis, type Reply, startRedis } from "../support/redis.js";

// Compatibility with a real redis-server (Redis ≥ 5 semantics: PFCOUNT is Ertl's estimator).
// Every element set comes from a fixed seed; commands are pipelined in chunks so the browser
// project, which proxies Redis over a websocket, stays fast.

const bytesOf = (r: Reply) => ok(r) as Uint8Array;

describe("HyperLogLog vs redis-server", () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const cases: [name: string, kind: string, n: number][] = [
    ["empty", "ascii", 0],
    ["empty-string", "ascii", 1],
    ["ascii-10", "ascii", 10],
    ["utf8-300", "utf8", 300],
    ["numbers-1000", "number", 1000],
    ["binary-1500", "binary", 1500],
    ["ascii-2500", "ascii", 2500],
    ["utf8-6000", "utf8", 6000],
    ["mixed-20000", "mixed", 20_000],
    ["mixed-200000", "mixed", 200_000],
  ];

  it("PFCOUNT equals count(), blobs read exactly, dense toRedis() equals GET", async () => {
    let seed = 100;
    const encodings = { dense: 0, sparse: 0 };
    for (const [name, kind, n] of cases) {
      const elements = makeElements(kind, n, seed++);
      if (name === "empty-string") elements[0] = "";
      const key = `k:${name}`;
      await pfaddAll(redis, key, elements);
      const ours = HyperLogLog.from(elements);
      ours.checkInvariants();

      // GET before PFCOUNT (stale cache), PFCOUNT, GET after (cache refreshed, as our header is).
      const [before, count, after] = await redis.pipeline([
        ["GET", key],
        ["PFCOUNT", key],
        ["GET", key],
      ]);
      expect(count, name).toBe(ours.count());
      const blobBefore = bytesOf(before!);
      const blobAfter = bytesOf(after!);
      for (const blob of [blobBefore, blobAfter]) {
        const read = HyperLogLog.fromRedis(blob);
        read.checkInvariants();
        expect(read.equals(ours), name).toBe(true);
        expect(read.count(), name).toBe(count);
      }
      encodings[blobAfter[4] === 0 ? "dense" : "sparse"]++;
      if (blobAfter[4] === 0) {
        expect(ours.toRedis({ encoding: "dense" }), name).toEqual(blobAfter);
        if (n >= 20_000) expect(ours.toRedis(), name).toEqual(blobAfter);
      } else {
        expect(blobAfter.length, name).toBeLessThanOrEqual(3000);
        expect(n, name).toBeLessThan(20_000);
      }
    }
    // Both of Redis's encodings were exercised.
    expect(encodings.dense).toBeGreaterThanOrEqual(3);
    expect(encodings.sparse).toBeGreaterThanOrEqual(3);
  });

  it("Redis accepts our blobs (sparse and dense): SET, PFCOUNT, then PFADD more", async () => {
    let seed = 200;
    for (const [name, kind, n] of cases) {
      const elements = makeElements(kind, Math.min(n, 30_000), seed++);
      const ours = HyperLogLog.from(elements);
      for (const encoding of ["auto", "dense"] as const) {
        const key = `ours:${name}:${encoding}`;
        const blob = ours.toRedis({ encoding });
        ok(await redis.call("SET", key, blob));
        expect(await redis.call("PFCOUNT", key), `${name} ${encoding}`).toBe(ours.count());
        // Keep adding on the Redis side and on ours: Redis must be able to grow our blob.
        const more = makeElements("mixed", 3000, seed + 1000);
        const copy = ours.clone();
        copy.addAll(more);
        await pfaddAll(redis, key, more);
        const [count, get] = await redis.pipeline([
          ["PFCOUNT", key],
          ["GET", key],
        ]);
        expect(count, `${name} ${encoding} +more`).toBe(copy.count());
        expect(HyperLogLog.fromRedis(bytesOf(get!)).equals(copy), `${name} ${encoding} +more`).toBe(true);
      }
    }
  });

  it("add() returns what PFADD returns, element by element, across Redis's sparse-to-dense promotion", async () => {
    const elements = makeElements("mixed", 4000, 300);
    // Duplicates on purpose: every fourth element repeats an earlier one.
    for (let i = 3; i < elements.length; i += 4) elements[i] = elements[i >> 1]!;
    const replies: Reply[] = [];
    for (let i = 0; i < elements.length; i += 1000) {
      replies.push(
        ...(await redis.pipeline(elements.slice(i, i + 1000).map((e) => ["PFADD", "one-by-one", toArg(e)]))),
      );
    }
    const ours = new HyperLogLog();
    const expected = elements.map((e) => (ours.add(e) ? 1 : 0));
    expect(replies).toEqual(expected);
    expect(await redis.call("PFCOUNT", "one-by-one")).toBe(ours.count());
  });

  it("merge and union equal PFMERGE", async () => {
    const sets = [
      makeElements("ascii", 50, 400),
      makeElements("utf8", 2000, 401),
      makeElements("mixed", 40_000, 402),
      makeElements("number", 800, 403),
    ];
    const sketches = sets.map((s) => HyperLogLog.from(s));
    for (let i = 0; i < sets.length; i++) await pfaddAll(redis, `m:${i}`, sets[i]!);
    const combos = [[0], [0, 1], [0, 3], [1, 2], [0, 1, 2, 3], [3, 2, 1, 0]];
    for (const combo of combos) {
      const dest = `dest:${combo.join("")}`;
      const [merged, count, get] = await redis.pipeline([
        ["PFMERGE", dest, ...combo.map((i) => `m:${i}`)],
        ["PFCOUNT", dest],
        ["GET", dest],
      ]);
      ok(merged!);
      const union = HyperLogLog.union(combo.map((i) => sketches[i]!));
      const into = sketches[combo[0]!]!.clone().merge(...combo.slice(1).map((i) => sketches[i]!));
      union.checkInvariants();
      into.checkInvariants();
      expect(count, combo.join()).toBe(union.count());
      expect(into.count(), combo.join()).toBe(count);
      const blob = bytesOf(get!);
      expect(HyperLogLog.fromRedis(blob).equals(union), combo.join()).toBe(true);
      if (blob[4] === 0) expect(union.toRedis({ encoding: "dense" })).toEqual(blob);
    }
  });
});
