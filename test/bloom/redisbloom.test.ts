/**
 * RedisBloomFilter beyond the recorded vectors (vectors.test.ts replays those): its exact 64-bit
 * position arithmetic on both hash paths (WebAssembly and JavaScript) against BigInt, a Set model
 * with links growing as RedisBloom's, its defaults and limits (a full non-scaling filter, a chain
 * that cannot grow), and copies, clearing, from() and info().
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RedisBloomFilter } from "../../src/bloom/index.js";
import { MAX_DUMP_HASHES } from "../../src/bloom/redisbloom-dump.js";
import { reduce64 } from "../../src/bloom/redisbloom-link.js";
import type { Item } from "../../src/hash/index.js";
import { murmur64a } from "../../src/hash/index.js";
import { MAX_ITEM_BYTES, wasmMurmur } from "../../src/hash/murmur64a-wasm.js";
import { lnRounded } from "../../src/internal/log.js";
import { addUntilFull, anyRedisItem, anyRedisOptions, filled } from "../support/bloom.js";
import { addAgainstSetModel } from "../support/membership.js";
import { itemOf } from "../support/redisbloom.js";
import hashes from "../vectors/redisbloom/hashes.json" with { type: "json" };

/** The dump header's link records, decoded. */
function headerLinks(h: Uint8Array) {
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const u64 = (at: number) => v.getUint32(at, true) + v.getUint32(at + 4, true) * 2 ** 32;
  return Array.from({ length: v.getUint32(8, true) }, (_, i) => {
    const at = 20 + 53 * i;
    return { bytes: u64(at), bits: u64(at + 8), hashes: v.getUint32(at + 40, true) };
  });
}

describe("RedisBloomFilter arithmetic", () => {
  it("reduce64 is (hi·2^32 + lo) mod m exactly for every m < 2^37", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.oneof(fc.bigInt({ min: 1n, max: 1n << 12n }), fc.bigInt({ min: 1n, max: (1n << 37n) - 1n })),
        (x, m) => {
          const r = reduce64(Number(x >> 32n), Number(x & 0xffffffffn), Number(m), 1 / Number(m));
          expect(r).toBe(Number(x % m));
        },
      ),
      { seed: 1301, numRuns: 5000 },
    );
  });

  it("positions follow ((a + i·b) mod 2^64) mod bits, checked against BigInt", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: 1, max: 300_000 }),
        fc.double({ min: 1e-6, max: 0.5, noNaN: true }),
        (v, capacity, errorRate) => {
          const f = new RedisBloomFilter({ capacity, errorRate, nonScaling: true });
          f.add(v);
          const link = headerLinks(f.toRedis()[0]![1])[0]!;
          const a = murmur64a(v, 0xc6a4a7935bd1e995n);
          const b = murmur64a(v, a);
          const want = new Set<number>();
          for (let i = 0n; i < BigInt(link.hashes); i++)
            want.add(Number(((a + i * b) & ((1n << 64n) - 1n)) % BigInt(link.bits)));
          const got = new Set<number>();
          for (const [end, chunk] of f.toRedis().slice(1)) {
            const start = end - chunk.length - 1;
            chunk.forEach((byte, j) => {
              for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) got.add((start + j) * 8 + bit);
            });
          }
          expect(got).toEqual(want);
        },
      ),
      { seed: 1302, numRuns: 60 },
    );
  });

  it("the WebAssembly chained hash equals MurmurHash64A, items up to its 64 KiB bound (memory growth) included", () => {
    expect(wasmMurmur).toBeDefined(); // Node and Chromium both run WebAssembly
    const out = new Uint32Array(4);
    const rem = new Float64Array(2);
    const check = (v: Item) => {
      expect(wasmMurmur!.chainInto(v, 0xc6a4a793, 0x5bd1e995, out)).toBe(true);
      const a = murmur64a(v, 0xc6a4a7935bd1e995n);
      const b = murmur64a(v, a);
      expect((BigInt(out[1]!) << 32n) | BigInt(out[0]!)).toBe(a);
      expect((BigInt(out[3]!) << 32n) | BigInt(out[2]!)).toBe(b);
      wasmMurmur!.remaindersInto(1_000_003, rem);
      expect([rem[0], rem[1]]).toEqual([Number(a % 1_000_003n), Number(b % 1_000_003n)]);
    };
    for (const row of hashes.rows as Array<Record<string, unknown>>) check(itemOf(row.item));
    check("é".repeat(30_000)); // 60,000 UTF-8 bytes: the module's memory grows
    check(new Uint8Array(65_536).fill(7));
    check("a".repeat(65_536)); // an ASCII string at the bound
    check(`${"b".repeat(99)}é`); // ASCII until the last unit
    check(12345);
    check(-(2n ** 70n));
    fc.assert(
      fc.property(anyRedisItem, (v) => check(v)),
      { seed: 1307, numRuns: 500 },
    );
  });

  it("WebAssembly positions are ((h1 + i·h2) mod 2^64) mod m, for m up to 2^35 and k up to 1075", () => {
    const out = new Uint32Array(4);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.oneof(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 2 ** 35 - 8 }), fc.constant(2 ** 32)),
        fc.integer({ min: 1, max: 1075 }),
        (v, m, k) => {
          wasmMurmur!.chainInto(v, 0xc6a4a793, 0x5bd1e995, out);
          const a = (BigInt(out[1]!) << 32n) | BigInt(out[0]!);
          const b = (BigInt(out[3]!) << 32n) | BigInt(out[2]!);
          const at = wasmMurmur!.positions(k, m, Number((1n << 64n) % BigInt(m)));
          for (let i = 0; i < k; i++) {
            expect(at[i]).toBe(Number(((a + BigInt(i) * b) & ((1n << 64n) - 1n)) % BigInt(m)));
          }
        },
      ),
      { seed: 1309, numRuns: 300 },
    );
  });

  it("items over 64 KiB are hashed in JavaScript (the module's memory stays bounded), to the same bits", () => {
    expect(MAX_ITEM_BYTES).toBe(65536);
    const out = new Uint32Array(4);
    const chain = (v: Item) => {
      const a = murmur64a(v, 0xc6a4a7935bd1e995n);
      return [a, murmur64a(v, a)];
    };
    /** Items of `n` bytes in each form: ASCII, two-byte UTF-8, a lone surrogate at the end, bytes. */
    const forms = (n: number): Item[] => [
      "a".repeat(n),
      "é".repeat(n >> 1) + "b".repeat(n & 1),
      `${"c".repeat(n - 3)}\ud800`, // the lone surrogate is 3 bytes of U+FFFD
      new Uint8Array(n).fill(n & 0xff),
    ];
    for (const n of [MAX_ITEM_BYTES - 1, MAX_ITEM_BYTES, MAX_ITEM_BYTES + 1, 3 * MAX_ITEM_BYTES, 200_000]) {
      for (const v of forms(n)) {
        const fits = wasmMurmur!.chainInto(v, 0xc6a4a793, 0x5bd1e995, out);
        expect(fits).toBe(n <= MAX_ITEM_BYTES);
        if (fits) {
          expect([(BigInt(out[1]!) << 32n) | BigInt(out[0]!), (BigInt(out[3]!) << 32n) | BigInt(out[2]!)]).toEqual(
            chain(v),
          );
        }
        // Either way the filter sets exactly the positions of the chained hash.
        const f = new RedisBloomFilter({ capacity: 50, errorRate: 0.01, nonScaling: true });
        expect(f.add(v)).toBe(true);
        expect(f.has(v)).toBe(true);
        const [a, b] = chain(v) as [bigint, bigint];
        const link = headerLinks(f.toRedis()[0]![1])[0]!;
        const want = new Set<number>();
        for (let i = 0n; i < BigInt(link.hashes); i++) {
          want.add(Number(((a + i * b) & ((1n << 64n) - 1n)) % BigInt(link.bits)));
        }
        const bits = f.toRedis()[1]![1];
        const got = new Set<number>();
        bits.forEach((byte, j) => {
          for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) got.add(j * 8 + bit);
        });
        expect(got).toEqual(want);
      }
    }
    // After all that, the module's memory is still at most two pages (64 KiB of item + its scratch).
    const memory = (wasmMurmur as unknown as { positions(k: number, m: number, w: number): Float64Array }).positions(
      1,
      2,
      0,
    ).buffer.byteLength;
    expect(memory).toBeLessThanOrEqual(2 * 65536);
  });

  it("lnRounded is correctly rounded where Math.log may not be (spot values)", () => {
    expect(lnRounded(0.5)).toBe(-Math.LN2);
    expect(lnRounded(1)).toBe(0);
    expect(lnRounded(Number.MIN_VALUE)).toBe(-744.4400719213812);
    expect(lnRounded(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(lnRounded(-1)).toBeNaN();
    expect(MAX_DUMP_HASHES).toBe(1075);
  });
});

describe("RedisBloomFilter properties", () => {
  it("never a false negative; add() is !has() before it; links grow as RedisBloom's", () => {
    fc.assert(
      fc.property(anyRedisOptions, fc.array(anyRedisItem, { maxLength: 300 }), (opts, values) => {
        const f = new RedisBloomFilter(opts);
        const done = addUntilFull(new RedisBloomFilter(opts), values);
        const added = addAgainstSetModel(f, done);
        f.checkInvariants();
        for (const v of done) expect(f.has(v)).toBe(true);
        const info = f.info();
        expect(info.size).toBe(added);
        expect(f.size).toBe(added);
        expect(info.byteLength).toBe(32 + 64 * info.filters + f.byteLength);
        let links = 1;
        let room = opts.capacity;
        let capacity = room;
        let left = added;
        while (left > room) {
          left -= room;
          room *= "expansion" in opts ? opts.expansion : 0;
          capacity += room;
          links++;
        }
        expect(info).toMatchObject({
          filters: links,
          capacity,
          expansion: "expansion" in opts ? opts.expansion : null,
        });
      }),
      { seed: 1303, numRuns: 150 },
    );
  });
  it("addAll is successive adds, also when a non-scaling filter fills up mid-batch", () => {
    fc.assert(
      fc.property(anyRedisOptions, fc.array(anyRedisItem, { maxLength: 200 }), (opts, values) => {
        const one = new RedisBloomFilter(opts);
        const many = new RedisBloomFilter(opts);
        const singles: boolean[] = [];
        let full = false;
        for (const v of values) {
          try {
            singles.push(one.add(v));
          } catch {
            full = true;
            break;
          }
        }
        if (full) expect(() => many.addAll(values)).toThrow(/full/);
        else expect(many.addAll(values)).toEqual(singles);
        expect(many.toRedis()).toEqual(one.toRedis());
        expect(many.hasAll(values)).toEqual(values.map((v) => one.has(v)));
      }),
      { seed: 1304, numRuns: 150 },
    );
  });
  it("defaults are BF.ADD's auto-created filter", () => {
    expect(new RedisBloomFilter().info()).toEqual({
      capacity: 100,
      byteLength: 240,
      filters: 1,
      size: 0,
      expansion: 2,
    });
    expect(new RedisBloomFilter().byteLength).toBe(144);
  });
});

describe("RedisBloomFilter when full or at its limits", () => {
  it("a full non-scaling filter: re-adds reply false, new items throw, addAll keeps the items before", () => {
    const f = new RedisBloomFilter({ capacity: 3, nonScaling: true });
    expect(f.addAll(["a", "b", "c"])).toEqual([true, true, true]);
    expect(f.add("a")).toBe(false);
    expect(() => f.add("d")).toThrow(/full.*capacity 3/);
    expect(() => f.addAll(["b", "d", "e"])).toThrow(/after 1 of the items/);
    expect(f.size).toBe(3);
    f.checkInvariants();
  });
  it("a chain that cannot grow further throws RangeError and stays consistent", () => {
    // growth 2^32 − 1 from capacity 2: the second link would need more than 4 GiB
    const f = new RedisBloomFilter({ capacity: 2, expansion: 2 ** 32 - 1, errorRate: 0.5 });
    expect(() => {
      for (let i = 0; i < 100; i++) f.add(`k${i}`);
    }).toThrow(/cannot add link 2.*4 GiB/);
    expect(f.size).toBe(2);
    f.checkInvariants();
  });
  it("a loaded ENTS_IS_BITS chain answers and adds, and refuses to grow with a RangeError", () => {
    const dump = new RedisBloomFilter({ capacity: 2, errorRate: 0.1 }).toRedis();
    dump[0]![1][12]! |= 2; // options 5 → 7
    const f = RedisBloomFilter.fromRedis(dump);
    expect(f.addAll(["a", "b"])).toEqual([true, true]);
    expect(() => {
      for (let i = 0; i < 50; i++) f.add(`n${i}`);
    }).toThrow(/ENTS_IS_BITS/);
    expect(f.has("a")).toBe(true);
    f.checkInvariants();
  });
});

describe("RedisBloomFilter copies, clearing, building, reports", () => {
  it("clone is independent: same bytes, then each changes alone", () => {
    fc.assert(
      fc.property(
        anyRedisOptions,
        fc.array(anyRedisItem, { maxLength: 100 }),
        fc.array(anyRedisItem, { minLength: 1, maxLength: 20 }),
        (opts, values, more) => {
          const f = filled(opts, values);
          const before = f.toBytes();
          const c = f.clone();
          c.checkInvariants();
          expect(c.toBytes()).toEqual(before);
          addUntilFull(c, more);
          expect(f.toBytes()).toEqual(before);
          const cBytes = c.toBytes();
          addUntilFull(
            f,
            more.map((v) => `f:${String(v)}`),
          );
          expect(c.toBytes()).toEqual(cBytes);
        },
      ),
      { seed: 1313, numRuns: 100 },
    );
  });
  it("clear() is back to what BF.RESERVE made, also for a loaded filter, and the filter keeps working", () => {
    fc.assert(
      fc.property(anyRedisOptions, fc.array(anyRedisItem, { maxLength: 150 }), (opts, values) => {
        const f = filled(opts, values);
        f.clear();
        f.checkInvariants();
        expect(f.toBytes()).toEqual(new RedisBloomFilter(opts).toBytes());
        expect([f.size, f.info().filters]).toEqual([0, 1]);
        const loaded = RedisBloomFilter.fromRedis(filled(opts, values).toRedis());
        loaded.clear();
        expect(loaded.toBytes()).toEqual(f.toBytes());
        expect(addUntilFull(f, values)).toEqual(addUntilFull(new RedisBloomFilter(opts), values));
      }),
      { seed: 1314, numRuns: 100 },
    );
  });
  it("from(items, options) is BF.INSERT: the options' filter (BF.ADD's by default) holding the items", () => {
    fc.assert(
      fc.property(
        fc.option(anyRedisOptions, { nil: undefined }),
        fc.array(anyRedisItem, { maxLength: 80 }),
        (opts, values) => {
          const twin = new RedisBloomFilter(opts);
          let full = false;
          try {
            twin.addAll(values);
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError);
            full = true;
          }
          if (full) expect(() => RedisBloomFilter.from(values, opts)).toThrow(/full/);
          else expect(RedisBloomFilter.from(values, opts).toBytes()).toEqual(twin.toBytes());
        },
      ),
      { seed: 1315, numRuns: 100 },
    );
    expect(RedisBloomFilter.from(new Set(["a", "b"])).info()).toEqual({
      capacity: 100,
      byteLength: 240,
      filters: 1,
      size: 2,
      expansion: 2,
    });
    expect(() => RedisBloomFilter.from("ab" as never)).toThrow(/items must be an iterable of elements, got the string/);
    expect(() => RedisBloomFilter.from(["a"], { capacty: 5 } as never)).toThrow(/did you mean "capacity"/);
  });
  it("size, byteLength and info(): BF.CARD, the bit arrays, BF.INFO (whose Size adds RedisBloom's structs)", () => {
    const f = new RedisBloomFilter({ capacity: 2, errorRate: 0.1 });
    f.addAll(["a", "b", "c", "d", "e"]);
    const info = f.info();
    expect(info.filters).toBe(2);
    expect(info.size).toBe(f.size);
    expect(f.byteLength).toBe(
      f
        .toRedis()
        .slice(1)
        .reduce((n, [, b]) => n + b.length, 0),
    );
    expect(info.byteLength).toBe(32 + 64 * 2 + f.byteLength);
  });
});
