/**
 * redstruct/hll against a real redis-server (Redis ≥ 5 semantics: PFCOUNT is Ertl's estimator):
 * HyperLogLog's count() equals PFCOUNT, its blobs read and write exactly (dense toRedis() equals
 * GET), Redis accepts them, add() answers as PFADD does across Redis's sparse-to-dense promotion,
 * merge and union equal PFMERGE; and the toHyperLogLog() of UltraLogLog and ExaLogLog at precision 14
 * is the key PFADD builds for the same items. Every item set comes from a fixed seed; commands are
 * pipelined in chunks so the browser project, which reaches Redis through vitest commands, stays fast.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExaLogLog, HyperLogLog, UltraLogLog } from "../../src/hll/index.js";
import { makeElements, pfaddAll, toArg } from "../support/hll-redis.js";
import { ok, type Redis, type Reply, startRedis } from "../support/redis.js";

const bytesOf = (r: Reply) => ok(r) as Uint8Array;

/** One private redis-server for the whole file; the tests use disjoint keys. */
let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe("HyperLogLog vs redis-server", () => {
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

/** The sketches that reduce to Redis's HyperLogLog at precision 14, by name. */
const reducers: [string, (items: ReturnType<typeof makeElements>) => HyperLogLog][] = [
  ["ExaLogLog", (items) => ExaLogLog.from(items, { precision: 14 }).toHyperLogLog()],
  ["ExaLogLog t=1 d=9", (items) => ExaLogLog.from(items, { precision: 14, t: 1, d: 9 }).toHyperLogLog()],
  ["ExaLogLog t=0 d=0", (items) => ExaLogLog.from(items, { precision: 14, t: 0, d: 0 }).toHyperLogLog()],
  [
    "ExaLogLog p=16 downsized",
    (items) => ExaLogLog.from(items, { precision: 16 }).downsize({ precision: 14, d: 20 }).toHyperLogLog(),
  ],
  ["UltraLogLog", (items) => UltraLogLog.from(items, { precision: 14 }).toHyperLogLog()],
];

describe("toHyperLogLog() vs redis-server", () => {
  const cases: [name: string, kind: string, n: number][] = [
    ["empty", "ascii", 0],
    ["ascii-10", "ascii", 10],
    ["utf8-1500", "utf8", 1500],
    ["binary-4000", "binary", 4000],
    ["mixed-30000", "mixed", 30_000],
    ["mixed-150000", "mixed", 150_000],
  ];

  it("is the key PFADD builds: PFCOUNT equal, registers equal, dense bytes equal; Redis takes it with SET", async () => {
    let seed = 500;
    let dense = 0;
    for (const [name, kind, n] of cases) {
      const elements = makeElements(kind, n, seed++);
      await pfaddAll(redis, `pf:${name}`, elements);
      const [count, get] = await redis.pipeline([
        ["PFCOUNT", `pf:${name}`],
        ["GET", `pf:${name}`],
      ]);
      const theirs = HyperLogLog.fromRedis(bytesOf(get!));
      for (const [sketch, reduce] of reducers) {
        const label = `${sketch} ${name}`;
        const hll = reduce(elements);
        hll.checkInvariants();
        expect(hll.equals(theirs), label).toBe(true);
        expect(hll.count(), label).toBe(count);
        if (bytesOf(get!)[4] === 0) {
          dense++;
          expect(hll.toRedis({ encoding: "dense" }), label).toEqual(bytesOf(get!));
        }
        const key = `set:${sketch}:${name}`;
        ok(await redis.call("SET", key, hll.toRedis()));
        expect(await redis.call("PFCOUNT", key), label).toBe(count);
      }
    }
    expect(dense).toBeGreaterThanOrEqual(2 * reducers.length);
  });

  it("PFMERGE of a reduced sketch with a Redis-built key equals PFADD of the union", async () => {
    const pairs: [number, number][] = [
      [200, 50],
      [3000, 20_000],
      [60_000, 5000],
    ];
    let seed = 600;
    for (const [na, nb] of pairs) {
      const a = makeElements("mixed", na, seed++);
      const b = makeElements("mixed", nb, seed++);
      await pfaddAll(redis, `a:${na}`, a);
      await pfaddAll(redis, `union:${na}:${nb}`, [...a, ...b]);
      for (const [sketch, reduce] of reducers) {
        const label = `${sketch} ${na}+${nb}`;
        const ours = reduce(b);
        const keyB = `b:${sketch}:${nb}`;
        const dest = `merged:${sketch}:${na}:${nb}`;
        ok(await redis.call("SET", keyB, ours.toRedis()));
        const [merged, count, union, get] = await redis.pipeline([
          ["PFMERGE", dest, `a:${na}`, keyB],
          ["PFCOUNT", dest],
          ["PFCOUNT", `union:${na}:${nb}`],
          ["GET", dest],
        ]);
        ok(merged!);
        expect(count, label).toBe(union);
        const registers = HyperLogLog.fromRedis(bytesOf(get!));
        expect(registers.equals(HyperLogLog.from([...a, ...b])), label).toBe(true);
        // And the other way: Redis's key merged into ours locally.
        const local = ours.clone().merge(HyperLogLog.fromRedis(bytesOf((await redis.call("GET", `a:${na}`)) as Reply)));
        expect(local.count(), label).toBe(union);
      }
    }
  });
});
