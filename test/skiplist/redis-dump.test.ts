/**
 * SortedSet.toRedis / fromRedis against a real redis-server 7.0: the same ZADD / ZREM / ZINCRBY
 * sequences built in Redis and here, at sizes around the listpack threshold (128 members, 64 bytes),
 * with integer-looking, long, non-ASCII members and −0, ±inf, huge, tiny and tie-rounding scores —
 * `fromRedis(DUMP)` holds the key, `RESTORE` of `toRedis()` holds the set in Redis's encoding and
 * DUMPs back the same bytes, and where Redis holds the key in the encoding chosen the bytes are its
 * DUMP's. Ziplist payloads (Redis 6.2, RDB 9) are assembled by hand and checked against what Redis
 * 7.0 reads from them.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDump } from "../../src/internal/rdb/dump.js";
import { compareMembers, RedstructFormatError, SortedSet } from "../../src/skiplist/index.js";
import { sortedSetWithLayout } from "../../src/skiplist/sorted-set.js";
import { dumpPayload, hex, rdbLength, rdbRaw, withCrc, withVersion, ziplist } from "../support/rdb.js";
import { type Arg, type Redis, RedisReplyError, startRedis } from "../support/redis.js";
import { asListpack, compareZset, must, scoreArg, spelled, utf8Reply, zsetEntries } from "../support/redis-dump.js";

let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** Builds `key` in Redis from ZADD pairs (one pipeline) and the same set here. */
async function build(key: string, entries: readonly [string, number][]): Promise<SortedSet> {
  const zs = new SortedSet({ seed: 7 });
  const commands: Arg[][] = [["DEL", key]];
  for (let i = 0; i < entries.length; i += 500) {
    const chunk = entries.slice(i, i + 500);
    commands.push(["ZADD", key, ...chunk.flatMap(([m, s]) => [scoreArg(s), m])]);
  }
  for (const [m, s] of entries) zs.add(m, s);
  for (const r of await redis.pipeline(commands)) must(r, "ZADD");
  return zs;
}

const INTEGERISH = ["123", "-5", "007", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e3"];
const SPECIAL = [...INTEGERISH, "-0", "0", "", "+5", " 5", "2147483647", "2147483648", "é", "😀", "中文", "a b"];
const SCORES = [
  -0,
  0,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e308,
  -1e308,
  5e-324,
  1e-300,
  2 ** 62,
  2 ** 62 + 2048,
  -(2 ** 63),
  2 ** 53 + 2,
  2 ** 50 + 0.25,
  2 ** 50 + 0.75,
  0.1,
  -2.5,
  1e21,
  4294967296,
  -2147483649,
];

describe("SortedSet.toRedis is redis-server's DUMP, byte for byte", () => {
  it("special members and scores in a listpack and in a skiplist", async () => {
    const entries = SPECIAL.map((m, i): [string, number] => [m, SCORES[i % SCORES.length]!]);
    const small = await build("special", entries);
    const r1 = await compareZset(redis, "special", small);
    expect(r1).toEqual({ redisEncoding: "listpack", ours: "listpack", bytesCompared: true });
    // The long member first: Redis makes the key a skiplist at once, and keeps its −0 scores.
    const long = await build("special-long", [["x".repeat(65), 1], ...entries]);
    const r2 = await compareZset(redis, "special-long", long);
    expect(r2).toEqual({ redisEncoding: "skiplist", ours: "skiplist", bytesCompared: true });
  });

  it("sizes around zset-max-listpack-entries (128) and member lengths around -value (64)", async () => {
    for (const size of [1, 2, 127, 128, 129, 3000]) {
      for (const length of [63, 64, 65]) {
        const entries: [string, number][] = [];
        for (let i = 0; i < size - 1; i++) entries.push([`m${i}`, (i * 37) % 101]);
        entries.push(["é".repeat(length >> 1) + "x".repeat(length & 1), size % 3 === 0 ? 0.5 : 7]);
        const key = `t:${size}:${length}`;
        const zs = await build(key, entries);
        const r = await compareZset(redis, key, zs);
        expect(r.bytesCompared).toBe(true);
        expect(r.ours).toBe(size <= 128 && length <= 64 ? "listpack" : "skiplist");
      }
    }
  });

  it("long members, compressible and not, as LZF-compressed or raw strings", async () => {
    const entries: [string, number][] = [];
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 60; i++) {
      const n = 18 + ((i * 13) % 300);
      const noisy = i % 2 === 0;
      let m = "";
      for (let k = 0; k < n; k++) m += noisy ? String.fromCharCode(33 + (rnd() % 90)) : "abc"[k % 3];
      entries.push([`${i}:${m}`, i / 7]);
    }
    entries.push(["ü".repeat(500), 3], ["😀".repeat(100), 4]);
    const zs = await build("long", entries);
    expect((await compareZset(redis, "long", zs)).bytesCompared).toBe(true);
    // The same members in a listpack: one compressed string.
    const short = await build(
      "long-lp",
      entries.filter(([m]) => new TextEncoder().encode(m).length <= 64),
    );
    expect(await compareZset(redis, "long-lp", short)).toEqual({
      redisEncoding: "listpack",
      ours: "listpack",
      bytesCompared: true,
    });
  });

  it("random ZADD / ZREM / ZINCRBY sequences (seeded)", async () => {
    const member = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 200 }).map((i) => `k${i}`) },
      { weight: 2, arbitrary: fc.constantFrom(...SPECIAL) },
      { weight: 1, arbitrary: fc.string({ maxLength: 70, unit: "grapheme" }) },
      { weight: 1, arbitrary: fc.integer({ min: 62, max: 66 }).map((n) => "y".repeat(n)) },
    );
    const score = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: -50, max: 50 }) },
      { weight: 2, arbitrary: fc.double({ noNaN: true }) },
      { weight: 1, arbitrary: fc.constantFrom(...SCORES) },
    );
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.constant("ZADD" as const), member, score) },
      { weight: 2, arbitrary: fc.tuple(fc.constant("ZREM" as const), member, fc.constant(0)) },
      {
        weight: 2,
        arbitrary: fc.tuple(
          fc.constant("ZINCRBY" as const),
          member,
          fc.double({ noNaN: true, noDefaultInfinity: true }),
        ),
      },
    );
    const prefix = fc.constantFrom(0, 1, 100, 126, 127, 128, 129, 300);
    let runs = 0;
    const seen = { listpack: 0, skiplist: 0, compared: 0 };
    await fc.assert(
      fc.asyncProperty(prefix, fc.array(op, { maxLength: 120 }), async (n, ops) => {
        const key = `r${runs++}`;
        const zs = new SortedSet({ seed: runs });
        const commands: Arg[][] = [["DEL", key]];
        if (n > 0) {
          const pairs: Arg[] = [];
          for (let i = 0; i < n; i++) {
            pairs.push(String(i % 9), `p${i}`);
            zs.add(`p${i}`, i % 9);
          }
          commands.push(["ZADD", key, ...pairs]);
        }
        for (const [name, m, x] of ops) {
          if (name === "ZADD") {
            commands.push(["ZADD", key, scoreArg(x), m]);
            zs.add(m, x);
          } else if (name === "ZREM") {
            commands.push(["ZREM", key, m]);
            zs.delete(m);
          } else {
            const current = zs.score(m);
            if (current !== undefined && Number.isNaN(current + x)) continue; // Redis refuses a NaN result too
            commands.push(["ZINCRBY", key, scoreArg(x), m]);
            zs.incrBy(m, x);
          }
        }
        for (const r of await redis.pipeline(commands)) must(r, "command");
        const r = await compareZset(redis, key, zs);
        if (r.ours === "listpack") seen.listpack++;
        if (r.ours === "skiplist") seen.skiplist++;
        if (r.bytesCompared) seen.compared++;
        await redis.call("DEL", key, `${key}:restored`);
      }),
      { seed: 0x2d01, numRuns: 60 },
    );
    expect(seen.listpack).toBeGreaterThan(5);
    expect(seen.skiplist).toBeGreaterThan(5);
    expect(seen.compared).toBeGreaterThan(30);
  });

  it("−0 is 0 in a listpack; a skiplist keeps what Redis's own skiplist holds", async () => {
    const small = await build("neg0", [["a", -0]]);
    expect(Object.is(small.score("a"), -0)).toBe(true);
    expect(Object.is(SortedSet.fromRedis(small.toRedis()).score("a"), 0)).toBe(true);
    expect((await compareZset(redis, "neg0", small)).bytesCompared).toBe(true);
    // Redis creates a key as a listpack: a −0 added then is 0 when it converts to a skiplist; a −0
    // added to a skiplist stays −0, in Redis as here.
    await redis.call("DEL", "neg0-big");
    must(await redis.call("ZADD", "neg0-big", 1, "b".repeat(70)), "ZADD");
    must(await redis.call("ZADD", "neg0-big", "-0", "a"), "ZADD");
    const big = SortedSet.from([
      ["b".repeat(70), 1],
      ["a", -0],
    ]);
    expect(await compareZset(redis, "neg0-big", big)).toEqual({
      redisEncoding: "skiplist",
      ours: "skiplist",
      bytesCompared: true,
    });
    const [dump] = await redis.pipeline([["DUMP", "neg0-big"]]);
    expect(spelled(SortedSet.fromRedis(dump as Uint8Array))).toEqual([
      ["a", "-0"],
      ["b".repeat(70), 1],
    ]);
  });
});

describe("SortedSet.fromRedis reads every sorted-set payload Redis 6.2 to 8 writes", () => {
  it("ziplists (RDB type 12, Redis 6.2), checked against what Redis 7.0 RESTOREs from them", async () => {
    // Member-score pairs; Redis 6.2 keeps them ordered by (score, member bytes), as here.
    const fixtures: [string | { raw: string }, string][][] = [
      [
        ["a", "1"],
        ["b", "2.5"],
      ],
      [
        ["é😀", "-inf"],
        ["x", "-3"],
        ["12", "0"],
        [{ raw: "300" }, "4"],
        ["-7", "inf"],
      ],
      Array.from({ length: 130 }, (_, i): [string, string] => [`m${i}`, String(i % 13 === 0 ? -i : i / 4)]),
      [
        ["9223372036854775807", "-9223372036854775808"],
        ["z".repeat(300), "1e300"],
      ],
    ];
    const score = (t: string) =>
      t === "inf" ? Number.POSITIVE_INFINITY : t === "-inf" ? Number.NEGATIVE_INFINITY : Number(t);
    const name = (m: string | { raw: string }) => (typeof m === "string" ? m : m.raw);
    for (const [i, pairs] of fixtures.entries()) {
      pairs.sort(([a, x], [b, y]) => score(x) - score(y) || compareMembers(name(a), name(b)));
      const zl = ziplist(pairs.flat());
      const payload = dumpPayload(12, rdbRaw(zl), 9);
      const key = `zl${i}`;
      expect(utf8Reply(must(await redis.call("RESTORE", key, 0, payload), "RESTORE"))).toBe("OK");
      const zs = SortedSet.fromRedis(payload);
      zs.checkInvariants();
      expect(asListpack(zs)).toEqual(asListpack(await zsetEntries(redis, key)));
      expect([...zs]).toEqual(pairs.map(([m, t]) => [name(m), score(t)]));
      // Redis converted it to a listpack (a skiplist past 128 members, never for long members
      // alone): where that is the encoding toRedis chooses, its DUMP is toRedis's bytes.
      const [dump, encoding] = await redis.pipeline([
        ["DUMP", key],
        ["OBJECT", "ENCODING", key],
      ]);
      const ours = zs.toRedis();
      if (utf8Reply(encoding!) === (ours[0] === 17 ? "listpack" : "skiplist")) {
        expect(hex(dump as Uint8Array)).toBe(hex(ours));
      } else expect(i).toBe(3); // the 300-byte member: Redis keeps the listpack it loaded
      expect(asListpack(SortedSet.fromRedis(dump as Uint8Array))).toEqual(asListpack(zs));
    }
  });

  it("ZSET_2 payloads of RDB versions 9 to 12, in any order", async () => {
    const zs = await build("v", [
      ["a", 1],
      ["b".repeat(80), 2],
      ["c", -0],
    ]);
    const ten = zs.toRedis();
    expect(ten[0]).toBe(5);
    for (const version of [9, 10, 11, 12]) {
      expect(spelled(SortedSet.fromRedis(withVersion(ten, version)))).toEqual(spelled(zs));
    }
    expect(utf8Reply(must(await redis.call("RESTORE", "v9", 0, withVersion(ten, 9)), "RESTORE"))).toBe("OK");
    // Redis 7.0 refuses versions above its own; redstruct reads the formats 7.2 to 8 keep unchanged.
    expect(await redis.call("RESTORE", "v11", 0, withVersion(ten, 11))).toBeInstanceOf(RedisReplyError);
    expect(() => SortedSet.fromRedis(withVersion(ten, 13))).toThrow(/RDB version 13/);
    expect(() => SortedSet.fromRedis(withVersion(ten, 8))).toThrow(/RDB version 8/);
    // Entries in another order than Redis's (tail to head): sorted on the way in, as RESTORE does.
    const shuffled = dumpPayload(5, [
      ...rdbLength(4),
      ...rdbRaw(new TextEncoder().encode("m")),
      ...f64(3),
      ...rdbRaw(new TextEncoder().encode("a")),
      ...f64(3),
      ...rdbRaw(new TextEncoder().encode("zz")),
      ...f64(-1),
      ...rdbRaw(new TextEncoder().encode("b")),
      ...f64(10),
    ]);
    const read = SortedSet.fromRedis(shuffled);
    read.checkInvariants();
    expect([...read]).toEqual([
      ["zz", -1],
      ["a", 3],
      ["m", 3],
      ["b", 10],
    ]);
    expect(utf8Reply(must(await redis.call("RESTORE", "shuffled", 0, shuffled), "RESTORE"))).toBe("OK");
    expect(await zsetEntries(redis, "shuffled")).toEqual([...read]);
  });

  it("refuses members that are not UTF-8, twice-held members, NaN scores and other types, naming them", async () => {
    await redis.call("DEL", "bin");
    must(await redis.call("ZADD", "bin", 1, Uint8Array.of(0x61, 0xff)), "ZADD");
    const [dump] = await redis.pipeline([["DUMP", "bin"]]);
    expect(() => SortedSet.fromRedis(dump as Uint8Array)).toThrow(RedstructFormatError);
    expect(() => SortedSet.fromRedis(dump as Uint8Array)).toThrow(/member 0 is not UTF-8 text/);
    const twice = (a: number, b: number) =>
      dumpPayload(5, [...rdbLength(2), ...rdbRaw([0x61]), ...f64(a), ...rdbRaw([0x61]), ...f64(b)]);
    expect(() => SortedSet.fromRedis(twice(1, 2))).toThrow(/member "a" appears twice/);
    expect(() => SortedSet.fromRedis(twice(1, 1))).toThrow(/member "a" appears twice/);
    expect(() => SortedSet.fromRedis(twice(1, Number.NaN))).toThrow(/NaN score/);
    const lpTwice = new SortedSet();
    lpTwice.add("a", 1);
    lpTwice.add("b", 2);
    const p = lpTwice.toRedis();
    // "b" → "a" in the listpack: 17, len, [hdr 6][81 61 02][01 01][81 62 02][02 01][ff]
    const body = p.slice();
    expect(body[0]).toBe(17);
    const at = hex(body).indexOf("816202") / 2;
    body[at + 1] = 0x61;
    expect(() => SortedSet.fromRedis(withCrc(body))).toThrow(/member "a" appears twice/);
    await redis.call("SET", "str", "v");
    const [strDump] = await redis.pipeline([["DUMP", "str"]]);
    expect(() => SortedSet.fromRedis(strDump as Uint8Array)).toThrow(/RDB type 0 \(a string\), not a sorted set/);
    await redis.call("HSET", "h", "f", "v");
    const [hashDump] = await redis.pipeline([["DUMP", "h"]]);
    expect(() => SortedSet.fromRedis(hashDump as Uint8Array)).toThrow(/RDB type 16 \(a hash \(listpack\)\)/);
    expect(() => SortedSet.fromRedis(null as never)).toThrow(TypeError);
    expect(() => SortedSet.fromRedis(dumpPayload(5, rdbLength(0)))).toThrow(/holds no members/);
    expect(() => SortedSet.fromRedis(dumpPayload(5, rdbLength(1000)))).toThrow(/1000 members need at least 9000 bytes/);
  });
});

describe("SortedSet.toRedis walks every node layout", () => {
  it("writes entries from the last to the first across nodes and entry chunks (tiny nodes, 40,000 members)", () => {
    for (const layout of [
      { nodeSize: 2, levelBits: 1 },
      { nodeSize: 5, levelBits: 2 },
      { nodeSize: 128, levelBits: 2 },
    ]) {
      const zs = sortedSetWithLayout(layout, { seed: 3 });
      for (let i = 0; i < 40_000; i++) zs.add(`m${(i * 7919) % 40_000}`, (i * 31) % 997);
      for (let i = 0; i < 40_000; i += 3) zs.delete(`m${i}`);
      const payload = zs.toRedis();
      const { type, reader } = openDump(payload, "T", "a test", 10, 10);
      expect(type).toBe(5);
      const n = reader.length("n");
      expect(n).toBe(zs.size);
      const inFile: [string, number][] = [];
      for (let i = 0; i < n; i++) {
        const m = reader.string("m");
        inFile.push([m instanceof Uint8Array ? new TextDecoder().decode(m) : String(m), reader.double("s")]);
      }
      reader.end();
      expect(inFile).toEqual([...zs].reverse());
      expect([...SortedSet.fromRedis(payload)]).toEqual([...zs]);
    }
  });
});

describe("SortedSet.toRedis refuses what has no Redis form", () => {
  it("an empty set, and members that are not well-formed UTF-16", () => {
    expect(() => new SortedSet().toRedis()).toThrow(/empty set has no DUMP payload/);
    const zs = SortedSet.from([["ok", 1]]);
    zs.add("bad\uD800", 2);
    expect(() => zs.toRedis()).toThrow(TypeError);
    expect(() => zs.toRedis()).toThrow(/member "bad\\ud800" has no Redis form/);
    for (let i = 0; i < 200; i++) zs.add(`filler${i}`, i);
    expect(() => zs.toRedis()).toThrow(/has no Redis form/);
  });
});

function f64(v: number): number[] {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v, true);
  return Array.from(b);
}
