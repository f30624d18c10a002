import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BloomFilter, RedisBloomFilter } from "../../src/bloom/index.js";
import { MAX_DUMP_HASHES } from "../../src/bloom/redisbloom-dump.js";
import { reduce64 } from "../../src/bloom/redisbloom-link.js";
import type { Item } from "../../src/hash/index.js";
import { murmur64a } from "../../src/hash/index.js";
import { murmur2 } from "../../src/hash/murmur2.js";
import { MAX_ITEM_BYTES, wasmMurmur } from "../../src/hash/murmur64a-wasm.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import { lnRounded } from "../../src/internal/log.js";
import { replayVectors } from "../support/bloom-replay.js";
import { fuzzDeserializer } from "../support/fuzz.js";
import { addAgainstSetModel } from "../support/membership.js";
import hashes from "../vectors/redisbloom/hashes.json" with { type: "json" };

type Arg = { utf8: string } | { hex: string };
const hexBytes = (hex: string): Uint8Array => {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
};
/** An argument as an item: text stays a string (so the UTF-8 paths run), hex becomes bytes. */
const item = (a: Arg): Item => ("utf8" in a ? a.utf8 : hexBytes(a.hex));

/** The dump header's link records, decoded. */
function headerLinks(h: Uint8Array) {
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const u64 = (at: number) => v.getUint32(at, true) + v.getUint32(at + 4, true) * 2 ** 32;
  return Array.from({ length: v.getUint32(8, true) }, (_, i) => {
    const at = 20 + 53 * i;
    return { bytes: u64(at), bits: u64(at + 8), hashes: v.getUint32(at + 40, true) };
  });
}

// ——— the vectors ——————————————————————————————————————————————————————————————————

describe("RedisBloomFilter replays RedisBloom 2.4.23", () => {
  replayVectors(RedisBloomFilter);

  it("hashes.json: MurmurHash64A with the Bloom seeds, MurmurHash2 with the legacy seeds", () => {
    for (const row of hashes.rows as Array<Record<string, unknown>>) {
      const v = item(row.item as Arg);
      const a = murmur64a(v, 0xc6a4a7935bd1e995n);
      expect(a.toString(16).padStart(16, "0")).toBe(row.m64a_c6a4);
      expect(murmur64a(v, a).toString(16).padStart(16, "0")).toBe(row.m64a_chain);
      const a32 = murmur2(v, 0x9747b28c);
      expect(a32).toBe(row.m2_9747b28c);
      expect(murmur2(v, a32)).toBe(row.m2_chain);
    }
  });
});

// ——— arithmetic ——————————————————————————————————————————————————————————————————

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
    for (const row of hashes.rows as Array<Record<string, unknown>>) check(item(row.item as Arg));
    check("é".repeat(30_000)); // 60,000 UTF-8 bytes: the module's memory grows
    check(new Uint8Array(65_536).fill(7));
    check("a".repeat(65_536)); // an ASCII string at the bound
    check(`${"b".repeat(99)}é`); // ASCII until the last unit
    check(12345);
    check(-(2n ** 70n));
    fc.assert(
      fc.property(anyItem, (v) => check(v)),
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

// ——— properties ——————————————————————————————————————————————————————————————————

const anyItem = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.uint8Array({ maxLength: 20 }),
  fc.integer(),
);
const anyOptions = fc.oneof(
  fc.record({
    errorRate: fc.double({ min: 1e-4, max: 0.9, noNaN: true }),
    capacity: fc.integer({ min: 1, max: 40 }),
    expansion: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    errorRate: fc.double({ min: 1e-4, max: 0.9, noNaN: true }),
    capacity: fc.integer({ min: 1, max: 60 }),
    nonScaling: fc.constant(true),
  }),
);

/** Adds until the first "full" error; returns the items that went in (or were already in). */
function addUntilFull(f: RedisBloomFilter, items: readonly Item[]): Item[] {
  const done: Item[] = [];
  for (const v of items) {
    try {
      f.add(v);
    } catch (e) {
      expect(String(e)).toMatch(/full/);
      expect(f.has(v)).toBe(false);
      break;
    }
    done.push(v);
  }
  return done;
}

describe("RedisBloomFilter properties", () => {
  it("never a false negative; add() is !has() before it; links grow as RedisBloom's", () => {
    fc.assert(
      fc.property(anyOptions, fc.array(anyItem, { maxLength: 300 }), (opts, values) => {
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
      fc.property(anyOptions, fc.array(anyItem, { maxLength: 200 }), (opts, values) => {
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

  it("fromRedis(toRedis()) is the same filter and dumps the same bytes", () => {
    fc.assert(
      fc.property(
        anyOptions,
        fc.array(anyItem, { maxLength: 200 }),
        fc.array(anyItem, { maxLength: 50 }),
        (opts, values, probes) => {
          const f = new RedisBloomFilter(opts);
          addUntilFull(f, values);
          const dump = f.toRedis();
          const back = RedisBloomFilter.fromRedis(dump);
          back.checkInvariants();
          expect(back.toRedis()).toEqual(dump);
          expect(back.info()).toEqual(f.info());
          expect(back.hasAll([...values, ...probes])).toEqual(f.hasAll([...values, ...probes]));
          // and both keep evolving identically
          const more = probes.slice(0, 20);
          expect(addUntilFull(back, more)).toEqual(addUntilFull(f, more));
          expect(back.toRedis()).toEqual(f.toRedis());
        },
      ),
      { seed: 1305, numRuns: 120 },
    );
  });

  it("10^4 mutated dumps either load to a consistent filter or throw RedstructFormatError", () => {
    const f = new RedisBloomFilter({ errorRate: 0.05, capacity: 3, expansion: 2 });
    for (let i = 0; i < 20; i++) f.add(`x${i}`);
    const valid = f.toRedis();
    expect(valid.length).toBeGreaterThan(3);
    const mutation = fc.oneof(
      // overwrite 1–4 bytes of one chunk (the header most of the time)
      fc.record({
        kind: fc.constant("bytes" as const),
        chunk: fc.oneof(fc.constant(0), fc.nat(valid.length - 1)),
        edits: fc.array(fc.tuple(fc.nat(2000), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({
        kind: fc.constant("iterator" as const),
        chunk: fc.nat(valid.length - 1),
        delta: fc.integer({ min: -40, max: 40 }),
      }),
      fc.record({ kind: fc.constant("drop" as const), chunk: fc.nat(valid.length - 1) }),
      fc.record({
        kind: fc.constant("swap" as const),
        chunk: fc.nat(valid.length - 1),
        other: fc.nat(valid.length - 1),
      }),
      fc.record({ kind: fc.constant("cut" as const), chunk: fc.nat(valid.length - 1), keep: fc.nat(300) }),
      fc.record({
        kind: fc.constant("extra" as const),
        iterator: fc.integer({ min: -3, max: 400 }),
        bytes: fc.uint8Array({ maxLength: 40 }),
      }),
    );
    let loaded = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        let pairs: Array<[number, Uint8Array]> = valid.map(([i, b]) => [i, b.slice()]);
        for (const m of mutations) {
          const at = "chunk" in m ? m.chunk % Math.max(1, pairs.length) : 0;
          if (pairs.length === 0) break;
          if (m.kind === "bytes") for (const [i, b] of m.edits) pairs[at]![1][i % pairs[at]![1].length] = b;
          else if (m.kind === "iterator") pairs[at]![0] += m.delta;
          else if (m.kind === "drop") pairs.splice(at, 1);
          else if (m.kind === "swap") {
            const o = m.other % pairs.length;
            [pairs[at], pairs[o]] = [pairs[o]!, pairs[at]!];
          } else if (m.kind === "cut") pairs[at]![1] = pairs[at]![1].slice(0, m.keep % (pairs[at]![1].length + 1));
          else pairs = [...pairs, [m.iterator, m.bytes]];
        }
        let g: RedisBloomFilter;
        try {
          g = RedisBloomFilter.fromRedis(pairs);
        } catch (e) {
          expect(e).toBeInstanceOf(RedstructFormatError);
          refused++;
          return;
        }
        loaded++;
        g.checkInvariants();
        const again = RedisBloomFilter.fromRedis(g.toRedis());
        expect(again.toRedis()).toEqual(g.toRedis());
        expect(again.info()).toEqual(g.info());
        for (let i = 0; i < 5; i++) {
          expect(again.has(`x${i}`)).toBe(g.has(`x${i}`));
          try {
            g.add(`y${i}`);
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError); // a hostile capacity may leave no room to grow
          }
        }
        g.checkInvariants();
      }),
      { seed: 1306, numRuns: 10_000 },
    );
    expect(loaded).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });
});

// ——— arguments and hostile input ———————————————————————————————————————————————————

describe("RedisBloomFilter arguments", () => {
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

  it("refuses bad options with errors naming them", () => {
    expect(() => new RedisBloomFilter(null as never)).toThrow(TypeError);
    expect(() => new RedisBloomFilter({ errorrate: 0.1 } as never)).toThrow(/unknown option "errorrate".*errorRate/);
    for (const errorRate of [0, 1, -0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RedisBloomFilter({ errorRate })).toThrow(/errorRate/);
    }
    expect(() => new RedisBloomFilter({ errorRate: "0.1" as never })).toThrow(TypeError);
    for (const capacity of [0, -5, 1.5, 2 ** 53]) expect(() => new RedisBloomFilter({ capacity })).toThrow(/capacity/);
    for (const expansion of [0, -1, 1.5, 2 ** 32])
      expect(() => new RedisBloomFilter({ expansion })).toThrow(/expansion/);
    expect(() => new RedisBloomFilter({ expansion: 2 ** 32 - 1 })).not.toThrow();
    expect(() => new RedisBloomFilter({ nonScaling: true, expansion: 2 })).toThrow(/expansion.*nonScaling/);
    expect(() => new RedisBloomFilter({ nonScaling: 1 as never })).toThrow(/nonScaling/);
    expect(() => new RedisBloomFilter({ nonScaling: null as never })).toThrow(/nonScaling/);
    expect(() => new RedisBloomFilter({ capacity: 2 ** 40, errorRate: 1e-9 })).toThrow(/capacity.*4 GiB/);
    const f = new RedisBloomFilter();
    expect(() => f.add({} as never)).toThrow(TypeError);
    expect(() => f.addAll("abc" as never)).toThrow(/iterable/);
    expect(() => f.hasAll(null as never)).toThrow(TypeError);
  });

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

  it("fromRedis refuses what is not a dump with clear errors", () => {
    const dump = new RedisBloomFilter({ capacity: 10 }).toRedis();
    expect(() => RedisBloomFilter.fromRedis([])).toThrow(/no header/);
    expect(() => RedisBloomFilter.fromRedis(null as never)).toThrow(TypeError);
    expect(() => RedisBloomFilter.fromRedis([[1, "text" as never]])).toThrow(/Uint8Array.*callBuffer/);
    expect(() => RedisBloomFilter.fromRedis([["1" as never, dump[0]![1]]])).toThrow(/iterator must be a number/);
    expect(() => RedisBloomFilter.fromRedis([dump[1]!, dump[0]!])).toThrow(RedstructFormatError);
    expect(() => RedisBloomFilter.fromRedis([dump[0]!])).toThrow(/incomplete dump/);
    expect(() => RedisBloomFilter.fromRedis([dump[0]!, dump[0]!, dump[1]!])).toThrow(/second header/);
    expect(() => RedisBloomFilter.fromRedis([dump[0]!, [1.5, new Uint8Array(0)]])).toThrow(/positive integer/);
    // a header claiming a 4 GiB − 1 link allocates nothing until its bytes arrive
    const h = dump[0]![1].slice();
    const v = new DataView(h.buffer);
    v.setUint32(20, 2 ** 32 - 1, true);
    v.setUint32(28, 2 ** 32 - 8, true);
    v.setUint32(32, 7, true);
    expect(() => RedisBloomFilter.fromRedis([[1, h]])).toThrow(/incomplete dump/);
  });
});

// ——— the whole filter: redstruct's format, copies, clearing, building ——————————————————————

/** A filter from `opts` holding what fits of `items` (a non-scaling one stops when full). */
function filled(opts: ConstructorParameters<typeof RedisBloomFilter>[0], items: readonly Item[]): RedisBloomFilter {
  const f = new RedisBloomFilter(opts);
  addUntilFull(f, items);
  return f;
}

describe("RedisBloomFilter toBytes / fromBytes, clone, clear, from", () => {
  it('toBytes is "RSRB", version 1, the SCANDUMP header and every chunk\'s bytes; fromBytes reads it back exactly', () => {
    fc.assert(
      fc.property(
        anyOptions,
        fc.array(anyItem, { maxLength: 200 }),
        fc.array(anyItem, { maxLength: 30 }),
        (opts, values, probes) => {
          const f = filled(opts, values);
          const bytes = f.toBytes();
          const chunks = f.toRedis();
          const expected = [...new TextEncoder().encode("RSRB"), 1, ...chunks.flatMap(([, b]) => [...b])];
          expect([...bytes]).toEqual(expected);
          const back = RedisBloomFilter.fromBytes(bytes);
          back.checkInvariants();
          expect(back.toBytes()).toEqual(bytes);
          expect(back.toRedis()).toEqual(chunks);
          expect(back.info()).toEqual(f.info());
          expect([back.size, back.byteLength]).toEqual([f.size, f.byteLength]);
          expect(back.hasAll([...values, ...probes])).toEqual(f.hasAll([...values, ...probes]));
          // and both keep evolving identically
          expect(addUntilFull(back, probes)).toEqual(addUntilFull(f, probes));
          expect(back.toBytes()).toEqual(f.toBytes());
        },
      ),
      { seed: 1311, numRuns: 120 },
    );
  });

  it("fromBytes reads the legacy modes a dump can hold (32-bit hashing, power-of-two links)", () => {
    for (const options of [1, 5, 0, 4]) {
      const chunks = new RedisBloomFilter({ capacity: 20, errorRate: 0.05 }).toRedis();
      new DataView(chunks[0]![1].buffer).setUint32(12, options, true);
      let f: RedisBloomFilter;
      try {
        f = RedisBloomFilter.fromRedis(chunks);
      } catch (e) {
        // power-of-two links need 2^n2 ≤ bits: this header's n2 is 0, so NOROUND off is only a flag here
        expect(e).toBeInstanceOf(RedstructFormatError);
        continue;
      }
      f.addAll(["a", "b", "c"]);
      const back = RedisBloomFilter.fromBytes(f.toBytes());
      expect(back.toRedis()).toEqual(f.toRedis());
      expect(back.hasAll(["a", "b", "c", "d"])).toEqual(f.hasAll(["a", "b", "c", "d"]));
    }
  });

  it("10^4 fuzzed fromBytes inputs either load to a consistent filter that writes them back, or throw RedstructFormatError", () => {
    const shapes = [
      filled(
        { errorRate: 0.05, capacity: 3, expansion: 2 },
        Array.from({ length: 20 }, (_, i) => `x${i}`),
      ),
      filled({ errorRate: 0.3, capacity: 2, nonScaling: true }, ["a", "b"]),
      filled(
        { errorRate: 0.01, capacity: 1, expansion: 3 },
        Array.from({ length: 9 }, (_, i) => i),
      ),
    ];
    const counts = fuzzDeserializer(
      {
        name: "RedisBloomFilter.fromBytes",
        read: RedisBloomFilter.fromBytes,
        valid: shapes.map((f) => f.toBytes()),
        use: (f) => {
          f.hasAll(["x1", "probe", 3]);
          f.info();
          const c = f.clone(); // changed on its own: the loaded filter must still write its input back
          for (let i = 0; i < 4; i++) {
            try {
              c.add(`more${i}`);
            } catch (e) {
              expect(e).toBeInstanceOf(RangeError); // a loaded header may leave no room to grow
            }
          }
          c.checkInvariants();
        },
        write: (f) => f.toBytes(),
      },
      { seed: 1312, runs: 10_000, maxLength: 400 },
    );
    expect(counts.loaded).toBeGreaterThan(200);
    expect(counts.refused).toBeGreaterThan(1000);
  });

  it("fromBytes refuses what is not its format with messages that say what it is", () => {
    const good = filled({ capacity: 4 }, ["a", "b"]).toBytes();
    const read = RedisBloomFilter.fromBytes;
    expect(() => read(new BloomFilter({ bits: 8, hashes: 1 }).toBytes())).toThrow(
      /these bytes are a BloomFilter's toBytes\(\): read them with BloomFilter.fromBytes/,
    );
    expect(() => read(good.subarray(0, good.length - 1))).toThrow(/declares \d+ bytes of links, \d+ follow it/);
    expect(() => read(Uint8Array.from([...good, 0]))).toThrow(/declares \d+ bytes of links, \d+ follow it/);
    expect(() => read(good.subarray(0, 20))).toThrow(/truncated/);
    const v2 = good.slice();
    v2[4] = 2;
    expect(() => read(v2)).toThrow(/format version 2/);
    const zero = good.slice();
    new DataView(zero.buffer).setUint32(5 + 8, 0, true); // 0 links
    expect(() => read(zero)).toThrow(/declares 0 links/);
    const many = good.slice();
    new DataView(many.buffer).setUint32(5 + 8, 2 ** 32 - 1, true); // a header of 227 GB
    expect(() => read(many)).toThrow(/truncated/);
    expect(() => read(new RedisBloomFilter().toRedis()[0]![1])).toThrow(/not a RedisBloomFilter's toBytes\(\) output/);
    expect(() => read("RSRB" as never)).toThrow(TypeError);
    expect(() => read(null as never)).toThrow(/^redstruct\/RedisBloomFilter: bytes must be a Uint8Array/);
  });

  it("clone is independent: same bytes, then each changes alone", () => {
    fc.assert(
      fc.property(
        anyOptions,
        fc.array(anyItem, { maxLength: 100 }),
        fc.array(anyItem, { minLength: 1, maxLength: 20 }),
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
      fc.property(anyOptions, fc.array(anyItem, { maxLength: 150 }), (opts, values) => {
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
      fc.property(fc.option(anyOptions, { nil: undefined }), fc.array(anyItem, { maxLength: 80 }), (opts, values) => {
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
      }),
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
