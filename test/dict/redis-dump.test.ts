/**
 * Dict.toRedis / fromRedis against a real redis-server 7.0: the same HSET / HDEL sequences built in
 * Redis and here, around the listpack thresholds (512 fields, 64 bytes), with integer-looking, long
 * and non-ASCII fields and values — `fromRedis(DUMP)` holds the hash, RESTORE of `toRedis()` holds
 * the dict in Redis's encoding, and a listpack's bytes are Redis's DUMP where the dict iterates in
 * Redis's order (HSETs, updates included, with no field added after a deletion). A hash table's
 * bytes follow Redis's seeded dict order: only the content is compared. Also the value conversions
 * and the errors that name a key.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Dict, type DictKey, RedstructFormatError } from "../../src/dict/index.js";
import { dumpPayload, hex, rdbLength, rdbRaw, withCrc, ziplist } from "../support/rdb.js";
import { type Arg, type Redis, type Reply, startRedis } from "../support/redis.js";
import { must, utf8Reply } from "../support/redis-dump.js";

let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const utf8 = new TextEncoder();

/** A key or value as Redis holds it: its bytes. */
function bytesOf(x: unknown): Uint8Array {
  return x instanceof Uint8Array ? x : utf8.encode(String(x));
}

/** A hash key's fields and values, by HGETALL, as hex pairs sorted (order-free comparison). */
async function hashContent(key: string): Promise<string[]> {
  const flat = must(await redis.call("HGETALL", key), "HGETALL") as Reply[];
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push(`${hex(flat[i] as Uint8Array)}=${hex(flat[i + 1] as Uint8Array)}`);
  return out.sort();
}

/** A dict's content the same way. */
function dictContent(d: Dict): string[] {
  return [...d].map(([k, v]) => `${hex(bytesOf(k))}=${hex(bytesOf(v))}`).sort();
}

/**
 * The checks for a hash key that Redis built and the dict `d` built by the same commands; `ordered`:
 * whether the dict iterates in Redis's listpack order (so a listpack's bytes must be equal).
 */
async function compareHash(key: string, d: Dict, ordered: boolean): Promise<{ ours: string; bytes: boolean }> {
  const [dump, encoding] = await redis.pipeline([
    ["DUMP", key],
    ["OBJECT", "ENCODING", key],
  ]);
  if (d.size === 0) {
    expect(dump).toBe(null);
    expect(() => d.toRedis()).toThrow(RangeError);
    return { ours: "none", bytes: false };
  }
  const mine = d.toRedis();
  const ours = mine[0] === 16 ? "listpack" : "hashtable";
  expect(mine[0] === 16 || mine[0] === 4).toBe(true);
  const fromDump = Dict.fromRedis(must(dump!, "DUMP") as Uint8Array);
  fromDump.checkInvariants();
  expect(dictContent(fromDump)).toEqual(await hashContent(key));
  expect(dictContent(fromDump)).toEqual(dictContent(d));
  const bytes = ordered && ours === "listpack" && utf8Reply(encoding!) === "listpack";
  if (bytes) expect(hex(dump as Uint8Array)).toBe(hex(mine));
  const copy = `${key}:restored`;
  const [ok, copyEncoding, copyDump] = await redis.pipeline([
    ["RESTORE", copy, 0, mine, "REPLACE"],
    ["OBJECT", "ENCODING", copy],
    ["DUMP", copy],
  ]);
  expect(utf8Reply(must(ok!, "RESTORE"))).toBe("OK");
  expect(utf8Reply(copyEncoding!)).toBe(ours);
  expect(await hashContent(copy)).toEqual(dictContent(d));
  if (ours === "listpack") expect(hex(copyDump as Uint8Array)).toBe(hex(mine));
  const back = Dict.fromRedis(mine);
  back.checkInvariants();
  expect(dictContent(back)).toEqual(dictContent(d));
  return { ours, bytes };
}

const INTEGERISH = ["123", "-5", "007", "9223372036854775807", "9223372036854775808", "1e3", "-0", "0", "2147483648"];

describe("Dict.toRedis is redis-server's DUMP of the same HSETs", () => {
  it("sizes around hash-max-listpack-entries (512) and lengths around -value (64)", async () => {
    for (const size of [1, 2, 511, 512, 513, 3000]) {
      for (const length of [63, 64, 65]) {
        const key = `h:${size}:${length}`;
        const d = new Dict<string, string | number>();
        const commands: Arg[][] = [["DEL", key]];
        for (let i = 0; i < size; i++) {
          const field = i === 0 ? "f".repeat(length) : `f${i}`;
          const value = i === 1 ? "v".repeat(length) : i % 3 === 0 ? i : `v${i}`;
          commands.push(["HSET", key, field, String(value)]);
          d.set(field, value);
        }
        for (const r of await redis.pipeline(commands)) must(r, "HSET");
        const r = await compareHash(key, d, true);
        expect(r.ours, key).toBe(size <= 512 && length <= 64 ? "listpack" : "hashtable");
        expect(r.bytes).toBe(r.ours === "listpack");
        await redis.call("DEL", key, `${key}:restored`);
      }
    }
  });

  it("integer-looking, non-ASCII and long fields and values, number and bigint keys", async () => {
    const d = new Dict<DictKey, unknown>();
    const commands: Arg[][] = [["DEL", "mixed"]];
    const add = (k: DictKey, v: string | number | bigint | Uint8Array) => {
      d.set(k, v);
      commands.push(["HSET", "mixed", bytesOf(k), bytesOf(v)]);
    };
    for (const [i, s] of INTEGERISH.entries()) add(s, INTEGERISH[(i + 3) % INTEGERISH.length]!);
    add(42, 1.5);
    add(-7n, 2n ** 70n);
    add(Uint8Array.of(0xff, 0x00), Uint8Array.of(1, 2, 3));
    add("é😀中", "ü".repeat(32));
    add("z".repeat(40), "abcabcabcabcabcabcabcabcabc");
    for (const r of await redis.pipeline(commands)) must(r, "HSET");
    expect(await compareHash("mixed", d, true)).toEqual({ ours: "listpack", bytes: true });
    // Read back: UTF-8 fields and values as strings, other bytes as Uint8Arrays.
    const back = Dict.fromRedis(d.toRedis());
    expect(back.get("42")).toBe("1.5");
    expect(back.get("-7")).toBe(String(2n ** 70n));
    expect(back.get(Uint8Array.of(0xff, 0x00))).toEqual("\u0001\u0002\u0003");
    expect(back.has(42)).toBe(false);
  });

  it("random HSET / HDEL sequences (seeded)", async () => {
    const field = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 700 }).map((i) => `k${i}`) },
      { weight: 2, arbitrary: fc.constantFrom(...INTEGERISH, "é", "😀", "") },
      { weight: 1, arbitrary: fc.integer({ min: 62, max: 66 }).map((n) => "y".repeat(n)) },
    );
    const value = fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom(...INTEGERISH),
      fc.integer({ min: 60, max: 70 }).map((n) => "w".repeat(n)),
    );
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constant("HSET" as const), field, value) },
      { weight: 1, arbitrary: fc.tuple(fc.constant("HDEL" as const), field, fc.constant("")) },
    );
    let run = 0;
    const seen = { listpack: 0, hashtable: 0, bytes: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1, 510, 511, 512, 513), fc.array(op, { maxLength: 80 }), async (n, ops) => {
        const key = `r${run++}`;
        const d = new Dict<string, string>();
        const commands: Arg[][] = [["DEL", key]];
        for (let i = 0; i < n; i++) {
          commands.push(["HSET", key, `b${i}`, `${i}`]);
          d.set(`b${i}`, `${i}`);
        }
        // The dict's order is Redis's listpack order until a new field follows a deletion.
        let ordered = true;
        let deleted = false;
        for (const [name, f, v] of ops) {
          if (name === "HSET") {
            if (deleted && !d.has(f)) ordered = false;
            commands.push(["HSET", key, f, v]);
            d.set(f, v);
          } else {
            commands.push(["HDEL", key, f]);
            if (d.delete(f)) deleted = true;
          }
        }
        for (const r of await redis.pipeline(commands)) must(r, "HSET");
        const r = await compareHash(key, d, ordered);
        if (r.ours !== "none") seen[r.ours as "listpack" | "hashtable"]++;
        if (r.bytes) seen.bytes++;
        await redis.call("DEL", key, `${key}:restored`);
      }),
      { seed: 0x2d04, numRuns: 40 },
    );
    expect(seen.listpack).toBeGreaterThan(5);
    expect(seen.hashtable).toBeGreaterThan(5);
    expect(seen.bytes).toBeGreaterThan(5);
  });
});

describe("Dict.fromRedis reads every hash payload Redis 6.2 to 8 writes", () => {
  it("ziplists (RDB type 13, Redis 6.2), checked against what Redis 7.0 RESTOREs from them", async () => {
    const fixtures = [
      ["f", "v", "123", "-5", "é", "😀"],
      Array.from({ length: 600 }, (_, i) => [`f${i}`, i % 2 ? `${i}` : "x".repeat(i % 90)]).flat(),
      ["big", "z".repeat(20000), { raw: "77" }, "9223372036854775807"],
    ];
    for (const [i, fixture] of fixtures.entries()) {
      const payload = dumpPayload(13, rdbRaw(ziplist(fixture)), 9);
      must(await redis.call("RESTORE", `zl${i}`, 0, payload), "RESTORE");
      const d = Dict.fromRedis(payload);
      d.checkInvariants();
      expect(dictContent(d)).toEqual(await hashContent(`zl${i}`));
    }
  });

  it("hash tables (type 4) in any order, with integer-encoded and compressed strings", async () => {
    const d = new Dict<string, string>();
    for (let i = 0; i < 700; i++) d.set(`field:${i}`, i % 7 === 0 ? "c".repeat(100 + i) : String(i));
    must(await redis.call("DEL", "ht"), "DEL");
    const pairs: Arg[] = [];
    for (const [k, v] of d) pairs.push(k, v);
    must(await redis.call("HSET", "ht", ...pairs), "HSET");
    const [dump] = await redis.pipeline([["DUMP", "ht"]]);
    expect((dump as Uint8Array)[0]).toBe(4);
    expect(dictContent(Dict.fromRedis(dump as Uint8Array))).toEqual(dictContent(d));
    // The hash table's field order is Redis's seeded one: the bytes differ, not the content.
    expect(d.toRedis().length).toBe((dump as Uint8Array).length);
  });

  it("fields and values that are not UTF-8 come back as Uint8Arrays; decodeValue sees every value", async () => {
    must(await redis.call("DEL", "bin"), "DEL");
    must(await redis.call("HSET", "bin", Uint8Array.of(0xc3), Uint8Array.of(0xff, 1), "text", "ok"), "HSET");
    const [dump] = await redis.pipeline([["DUMP", "bin"]]);
    const d = Dict.fromRedis(dump as Uint8Array);
    expect(d.get(Uint8Array.of(0xc3))).toEqual(Uint8Array.of(0xff, 1));
    expect(d.get("text")).toBe("ok");
    const seen: Uint8Array[] = [];
    const decoded = Dict.fromRedis(dump as Uint8Array, {
      decodeValue: (b) => {
        seen.push(b);
        return b.length;
      },
    });
    expect(decoded.get("text")).toBe(2);
    expect(seen.length).toBe(2);
    // Each value a fresh copy, kept by the callback without harm.
    seen[0]![0] = 0;
    expect(Dict.fromRedis(dump as Uint8Array).get(Uint8Array.of(0xc3))).toEqual(Uint8Array.of(0xff, 1));
    expect(() => Dict.fromRedis(dump as Uint8Array, { decodeValue: 1 as never })).toThrow(TypeError);
    expect(() => Dict.fromRedis(dump as Uint8Array, { decodeVlaue: () => 1 } as never)).toThrow(/decodeValue/);
  });

  it("refuses duplicate fields, other types and hostile lengths, naming them", async () => {
    const dup = dumpPayload(4, [
      ...rdbLength(2),
      ...rdbRaw([0x61]),
      ...rdbRaw([0x31]),
      ...rdbRaw([0x61]),
      ...rdbRaw([0x32]),
    ]);
    expect(() => Dict.fromRedis(dup)).toThrow(RedstructFormatError);
    expect(() => Dict.fromRedis(dup)).toThrow(/field 1 appears twice/);
    // "1" as a string and as an integer element are one field.
    const intDup = dumpPayload(4, [...rdbLength(2), ...rdbRaw([0x31]), 0x00, 0xc0, 0x01, 0x00]);
    expect(() => Dict.fromRedis(intDup)).toThrow(/field 1 appears twice/);
    expect(() => Dict.fromRedis(dumpPayload(4, rdbLength(5000)))).toThrow(/5000 fields need at least 10000 bytes/);
    expect(() => Dict.fromRedis(dumpPayload(4, rdbLength(0)))).toThrow(/holds no fields/);
    must(await redis.call("ZADD", "z", 1, "a"), "ZADD");
    const [z] = await redis.pipeline([["DUMP", "z"]]);
    expect(() => Dict.fromRedis(z as Uint8Array)).toThrow(/RDB type 17 \(a sorted set \(listpack\)\), not a hash/);
    const lp = new Dict([["a", "1"]]).toRedis();
    const flipped = lp.slice();
    flipped[flipped.length - 11] = 0x00; // the listpack's terminator, before the 10-byte trailer
    expect(() => Dict.fromRedis(withCrc(flipped))).toThrow(/terminator/);
  });
});

describe("Dict.toRedis: Redis strings from keys and values", () => {
  it("refuses what has no Redis form, naming the key", () => {
    expect(() => new Dict().toRedis()).toThrow(/empty dict has no DUMP payload/);
    expect(() => new Dict([["a\uD800", "v"]]).toRedis()).toThrow(/key "a\\ud800" has no Redis form/);
    expect(() => new Dict([["k", "\uDFFF"]]).toRedis()).toThrow(/the value of key "k" has no Redis form/);
    expect(() =>
      new Dict<DictKey, string>([
        [1, "a"],
        ["1", "b"],
      ]).toRedis(),
    ).toThrow(/keys 1 and "1" are one Redis field, "1"/);
    expect(() =>
      new Dict<DictKey, string>([
        [1n, "a"],
        [1, "b"],
      ]).toRedis(),
    ).toThrow(/keys 1n and 1 are one Redis field/);
    expect(() =>
      new Dict<DictKey, string>([
        [Uint8Array.of(0x31), "a"],
        ["1", "b"],
      ]).toRedis(),
    ).toThrow(TypeError);
    expect(() => new Dict([["k", { a: 1 }]]).toRedis()).toThrow(
      /the value of key "k" is an object \{ a: 1 \}: pass toRedis\(\{ encodeValue \}\)/,
    );
    expect(() => new Dict([["k", true]]).toRedis()).toThrow(TypeError);
    expect(() => new Dict([["k", { a: 1 }]]).toRedis({ encodeValue: () => "x" as never })).toThrow(
      /encodeValue\(value of key "k"\) must be a Uint8Array/,
    );
    expect(() => new Dict([["k", 1]]).toRedis({ encodeVaule: () => 1 } as never)).toThrow(/encodeValue/);
    expect(() => new Dict([["k", 1]]).toRedis(null as never)).toThrow(TypeError);
    // Distinct bytes that are not UTF-8 are fields of their own.
    expect(
      new Dict<DictKey, number>([
        [Uint8Array.of(0xff), 1],
        ["\u00ff", 2],
      ]).toRedis()[0],
    ).toBe(16);
  });

  it("encodeValue sees only the values Redis has no string for, and may reuse its buffer", () => {
    const d = new Dict<string, unknown>([
      ["a", { n: 1 }],
      ["b", "plain"],
      ["c", { n: 2 }],
      ["d", 7],
    ]);
    const buffer = new Uint8Array(16);
    const calls: unknown[] = [];
    const payload = d.toRedis({
      encodeValue: (v: { n: number }) => {
        calls.push(v);
        const text = utf8.encode(JSON.stringify(v));
        buffer.fill(0);
        buffer.set(text);
        return buffer.subarray(0, text.length);
      },
    });
    expect(calls).toEqual([{ n: 1 }, { n: 2 }]);
    const back = Dict.fromRedis(payload, {
      decodeValue: (b) => {
        const t = new TextDecoder().decode(b);
        return t.startsWith("{") ? JSON.parse(t) : t;
      },
    });
    expect([...back]).toEqual([
      ["a", { n: 1 }],
      ["b", "plain"],
      ["c", { n: 2 }],
      ["d", "7"],
    ]);
  });
});
