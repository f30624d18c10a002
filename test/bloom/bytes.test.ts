/**
 * The Bloom filters' serialized forms: every toBytes/fromBytes (and RedisBloomFilter's
 * toRedis/fromRedis chunk list) round-trips to the same bytes, layouts are as documented, specific
 * corruptions and headers that cannot be true (more items than the set bits hold, error rates stored
 * as −0, NaN or out of range) are a RedstructFormatError naming what is wrong, and byte inputs are
 * copied when read: changing them after the call changes nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockedBloomFilter, BloomFilter, RedisBloomFilter, ScalableBloomFilter } from "../../src/bloom/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";
import {
  addUntilFull,
  anyBlockedElement,
  anyElement,
  anyItem,
  anyRedisItem,
  anyRedisOptions,
  capacity,
  errorRate,
  filled,
  kinds,
} from "../support/bloom.js";
import { corruptionsOf } from "../support/fuzz.js";
import { BYTE_FORMS, inForm, oneBuffer } from "../support/redisbloom.js";

type Filter = BloomFilter | BlockedBloomFilter;

/** Operations on a small filter, overfilling it on purpose: adds, merges and intersections with a twin, clears. */
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("add" as const), n: fc.integer({ min: 1, max: 300 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("merge" as const), n: fc.integer({ min: 0, max: 600 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("intersect" as const), n: fc.integer({ min: 0, max: 600 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("clear" as const), n: fc.constant(0) }) },
);

function run(make: () => Filter, ops: { kind: string; n: number }[], seed: number): Filter {
  let f = make();
  let next = seed * 1_000_000;
  for (const { kind, n } of ops) {
    if (kind === "clear") f.clear();
    else if (kind === "add") for (let i = 0; i < n; i++) f.add(next++);
    else {
      const other = make();
      for (let i = 0; i < n; i++) other.add(next++);
      if (kind === "merge") (f as BloomFilter).merge(other as BloomFilter);
      else if (f instanceof BloomFilter) f = BloomFilter.intersect([f, other as BloomFilter]);
      else f = BlockedBloomFilter.intersect([f, other as BlockedBloomFilter]);
    }
  }
  return f;
}

const fromBytesOf = (f: Filter) =>
  f instanceof BloomFilter ? BloomFilter.fromBytes : (BlockedBloomFilter.fromBytes as (b: Uint8Array) => Filter);

/** Offsets in the 40-byte header shared by BloomFilter ("RSBF") and BlockedBloomFilter ("RSBB"). */
const ITEMS = 16;

const CAPACITY = 24;

const ERROR_RATE = 32;

function setU64(b: Uint8Array, at: number, v: number): void {
  const view = new DataView(b.buffer, b.byteOffset);
  view.setUint32(at, v % 2 ** 32, true);
  view.setUint32(at + 4, Math.floor(v / 2 ** 32), true);
}

function setF64(b: Uint8Array, at: number, v: number): void {
  new DataView(b.buffer, b.byteOffset).setFloat64(at, v, true);
}

/** Loads `bytes` with `read`: a structure whose own bytes are `bytes` again, or a RedstructFormatError. */
function loadsExactlyOrRefuses(
  read: (b: Uint8Array) => { toBytes(): Uint8Array; checkInvariants(): void },
  bytes: Uint8Array,
) {
  let x: { toBytes(): Uint8Array; checkInvariants(): void };
  try {
    x = read(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(RedstructFormatError);
    return false;
  }
  x.checkInvariants();
  expect(x.toBytes()).toEqual(bytes);
  return true;
}

const makers: [string, () => Filter][] = [
  ["BloomFilter k=1", () => new BloomFilter({ bits: 61, hashes: 1 })],
  ["BloomFilter k=3", () => new BloomFilter({ bits: 200, hashes: 3 })],
  ["BloomFilter sized", () => new BloomFilter({ capacity: 20, errorRate: 0.1 })],
  ["BlockedBloomFilter", () => new BlockedBloomFilter({ capacity: 30, errorRate: 0.3 })],
  ["BlockedBloomFilter, several blocks", () => new BlockedBloomFilter({ capacity: 200, errorRate: 0.01 })],
];

describe("BloomFilter serialization", () => {
  it("round-trips exactly, with a 40-byte header over the raw bits", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ capacity, errorRate }),
          fc.record({ bits: fc.integer({ min: 1, max: 3000 }), hashes: fc.integer({ min: 1, max: 64 }) }),
        ),
        fc.array(anyElement, { maxLength: 100 }),
        (opts, values) => {
          const bf = new BloomFilter(opts);
          bf.addAll(values);
          const bytes = bf.toBytes();
          expect(bytes.length).toBe(40 + bf.byteLength);
          const back = BloomFilter.fromBytes(bytes);
          back.checkInvariants();
          expect(back.toBytes()).toEqual(bytes);
          expect([back.bits, back.hashes, back.size, back.setBits]).toEqual([bf.bits, bf.hashes, bf.size, bf.setBits]);
          for (const v of values) expect(back.has(v)).toBe(true);
        },
      ),
      { seed: 301 },
    );
  });
  it("is within 1% of the bit array for filters of 4 KiB and more", () => {
    const bf = new BloomFilter({ capacity: 10_000, errorRate: 0.01 });
    expect(bf.toBytes().length / bf.byteLength).toBeLessThan(1.01);
  });
  it("reads from an unaligned view", () => {
    const bf = new BloomFilter({ capacity: 100, errorRate: 0.01 });
    bf.addAll(["a", "b"]);
    const bytes = bf.toBytes();
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const back = BloomFilter.fromBytes(shifted.subarray(1));
    expect(back.toBytes()).toEqual(bytes);
  });
  it("rejects specific corruptions", () => {
    const bf = new BloomFilter({ bits: 100, hashes: 3 });
    bf.add("x");
    const { bad, patch } = corruptionsOf(BloomFilter.fromBytes, bf.toBytes());
    bad(patch(0, 0x58), /open with 58 .*not a BloomFilter.s toBytes\(\) output/);
    bad(patch(4, 2), /version/);
    bad(patch(5, 9), /hashing scheme/);
    bad(patch(5, 1), /unknown hashing scheme 1 \(this build reads scheme 2\)/);
    bad(patch(6, 0), /hash count/);
    bad(patch(7, 1), /flags/);
    bad((b) => b.subarray(0, b.length - 1), /truncated/);
    bad((b) => Uint8Array.from([...b, 0]), /trailing/);
    bad(patch(-1, 0x80), /past the end/); // bit 127 of a 100-bit filter
    bad(patch(8, 0xff, 0xff, 0xff, 0xff), /bit count|truncated/);
    bad(patch(16, 0), /item count/); // bits set but no items
    bad(patch(24, 5), /inconsistent capacity/); // a capacity without an error rate
    expect(() => BloomFilter.fromBytes("RSBF" as unknown as Uint8Array)).toThrow(TypeError);
  });
});

describe("BlockedBloomFilter serialization", () => {
  it("round-trips exactly, with a 40-byte header over the raw blocks", () => {
    fc.assert(
      fc.property(
        fc.record({ capacity, errorRate }),
        fc.array(anyBlockedElement, { maxLength: 100 }),
        (opts, values) => {
          const bf = new BlockedBloomFilter(opts);
          bf.addAll(values);
          const bytes = bf.toBytes();
          expect(bytes.length).toBe(40 + bf.byteLength);
          const back = BlockedBloomFilter.fromBytes(bytes);
          back.checkInvariants();
          expect(back.toBytes()).toEqual(bytes);
          expect([back.blocks, back.hashes, back.size, back.setBits]).toEqual([
            bf.blocks,
            bf.hashes,
            bf.size,
            bf.setBits,
          ]);
          for (const v of values) expect(back.has(v)).toBe(true);
        },
      ),
      { seed: 801, numRuns: 100 },
    );
  });
  it("reads from an unaligned view", () => {
    const bf = new BlockedBloomFilter({ capacity: 100, errorRate: 0.01 });
    bf.addAll(["a", "b"]);
    const bytes = bf.toBytes();
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(BlockedBloomFilter.fromBytes(shifted.subarray(1)).toBytes()).toEqual(bytes);
  });
  it("rejects specific corruptions", () => {
    const bf = new BlockedBloomFilter({ capacity: 100, errorRate: 0.01 });
    bf.add("x");
    const { bad, patch } = corruptionsOf(BlockedBloomFilter.fromBytes, bf.toBytes());
    bad(patch(0, 0x58), /not a BlockedBloomFilter.s toBytes\(\) output/);
    bad(patch(3, 0x46), /these bytes are a BloomFilter.s toBytes\(\): read them with BloomFilter.fromBytes/);
    bad(patch(4, 2), /version/);
    bad(patch(5, 9), /hashing scheme/);
    bad(patch(5, 1), /unknown hashing scheme 1/);
    bad(patch(6, 0), /hash count/);
    bad(patch(6, bf.hashes + 1), /needs/);
    bad(patch(7, 1), /flags/);
    bad((b) => b.subarray(0, b.length - 1), /truncated/);
    bad((b) => Uint8Array.from([...b, 0]), /trailing/);
    bad(patch(8, 0xff, 0xff, 0xff, 0x7f), /block count|truncated/);
    bad(patch(16, 0), /item count/); // bits set but no items
    bad(patch(24, 0), /capacity/);
    bad(patch(24, 200), /needs/); // another capacity, another shape
    expect(() => BlockedBloomFilter.fromBytes(new BloomFilter({ bits: 100, hashes: 3 }).toBytes())).toThrow(
      RedstructFormatError,
    );
    expect(() => BlockedBloomFilter.fromBytes("RSBB" as unknown as Uint8Array)).toThrow(TypeError);
  });
});

describe("ScalableBloomFilter serialization", () => {
  it("rejects links that do not match the options or the growth rule", () => {
    const sbf = new ScalableBloomFilter({ capacity: 3, errorRate: 0.2 });
    sbf.addAll(["a", "b", "c", "d", "e"]);
    const good = sbf.toBytes();
    const { bad, patch } = corruptionsOf(ScalableBloomFilter.fromBytes, good);
    bad(patch(0, 0), /open with 00 .*not a ScalableBloomFilter.s toBytes\(\) output/);
    bad(patch(4, 9), /version/);
    bad(patch(5, 4), /flags/);
    bad(patch(5, 1), /non-scaling filter with/);
    bad(patch(8, 4), /shape/); // capacity 4 instead of 3: links no longer match
    bad(patch(36, 9), /link count|truncated/);
    bad((b) => b.subarray(0, b.length - 4), /truncated|link/);
    // A 40-byte header announcing a 200-million-item first link: rejected from the length alone.
    bad((b) => patch(8, 0x00, 0xe1, 0xf5, 0x05)(b.slice(0, 40)), /link count|truncated/); // 100 000 000 LE
    // 200 000 000: it could not grow either (its second link would need 2^31 bits or more)
    bad(
      (b) => patch(8, 0x00, 0xc2, 0xeb, 0x0b)(b.slice(0, 40)),
      /bad header: .*expansion must be one that leaves room/,
    ); // 200 000 000 LE
  });
});

describe("RedisBloomFilter serialization", () => {
  it("fromRedis(toRedis()) is the same filter and dumps the same bytes", () => {
    fc.assert(
      fc.property(
        anyRedisOptions,
        fc.array(anyRedisItem, { maxLength: 200 }),
        fc.array(anyRedisItem, { maxLength: 50 }),
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
  it('toBytes is "RSRB", version 1, the SCANDUMP header and every chunk\'s bytes; fromBytes reads it back exactly', () => {
    fc.assert(
      fc.property(
        anyRedisOptions,
        fc.array(anyRedisItem, { maxLength: 200 }),
        fc.array(anyRedisItem, { maxLength: 30 }),
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
});

describe("headers that cannot be true are refused; what loads writes back the same bytes", () => {
  it.each(makers)(
    "%s: any history of adds, merges, intersections and clears stays loadable and within its item bound",
    (_, make) => {
      fc.assert(
        fc.property(fc.array(op, { maxLength: 8 }), fc.nat(1000), (ops, seed) => {
          const f = run(make, ops, seed);
          f.checkInvariants();
          const bytes = f.toBytes();
          expect(loadsExactlyOrRefuses(fromBytesOf(f), bytes)).toBe(true);
          // One more item than the fill allows is refused (the bound is tight enough to mean something).
          const most = maxLoadableItems(fromBytesOf(f), bytes);
          expect(most).toBeGreaterThanOrEqual(f.size);
          if (f.setBits > 0) expect(most).toBeLessThan(2 ** 53 - 1);
        }),
        { seed: 1301, numRuns: 120 },
      );
    },
  );

  /** The largest item count the reader accepts for these words (bisection on the header's item count). */
  function maxLoadableItems(read: (b: Uint8Array) => unknown, bytes: Uint8Array): number {
    const at = (n: number) => {
      const b = bytes.slice();
      setU64(b, ITEMS, n);
      try {
        read(b);
        return true;
      } catch (e) {
        expect(e).toBeInstanceOf(RedstructFormatError);
        return false;
      }
    };
    let lo = 0;
    let hi = 2 ** 53 - 1;
    if (at(hi)) return hi;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (at(mid)) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  it("2^53 − 1 items with one bit set: RedstructFormatError for both fixed-size filters", () => {
    for (const f of [
      new BloomFilter({ bits: 1000, hashes: 1 }),
      new BlockedBloomFilter({ capacity: 10, errorRate: 0.1 }),
    ]) {
      // Find an element that sets one bit only (k = 1 for the first; any element for a 1-probe block).
      f.add("x");
      const b = f.toBytes();
      setU64(b, ITEMS, 2 ** 53 - 1);
      expect(() => fromBytesOf(f)(b)).toThrow(RedstructFormatError);
      expect(() => fromBytesOf(f)(b)).toThrow(/item count 9007199254740991 with \d+ bits set/);
    }
  });

  it("header fields set to any value: RedstructFormatError or an exact round trip (property)", () => {
    const specialRates = fc.constantFrom(
      -0,
      0,
      Number.NaN,
      1,
      -1,
      2,
      Number.POSITIVE_INFINITY,
      Number.MIN_VALUE,
      0.5,
      1e-300,
    );
    const field = fc.oneof(
      fc.record({ at: fc.constant(ITEMS), u64: fc.oneof(fc.nat(40), fc.nat(2000), fc.maxSafeNat()) }),
      fc.record({ at: fc.constant(CAPACITY), u64: fc.oneof(fc.nat(100), fc.maxSafeNat()) }),
      fc.record({ at: fc.constant(ERROR_RATE), f64: fc.oneof(specialRates, fc.double()) }),
    );
    const filters = makers.map(([, make]) => {
      const f = make();
      for (let i = 0; i < 15; i++) f.add(i);
      return f;
    });
    let loaded = 0;
    fc.assert(
      fc.property(fc.nat(filters.length - 1), fc.array(field, { minLength: 1, maxLength: 3 }), (which, edits) => {
        const f = filters[which]!;
        const b = f.toBytes();
        for (const e of edits) {
          if ("u64" in e) setU64(b, e.at, e.u64);
          else setF64(b, e.at, e.f64);
        }
        if (loadsExactlyOrRefuses(fromBytesOf(f), b)) loaded++;
      }),
      { seed: 1302, numRuns: 3000 },
    );
    expect(loaded).toBeGreaterThan(20); // the property saw headers that load, not only refusals
  });

  it("error rates stored as −0, NaN or outside (0, 1) are refused by every reader", () => {
    const bySize = new BloomFilter({ bits: 100, hashes: 2 }).toBytes(); // capacity 0: rate must be +0
    const sized = new BloomFilter({ capacity: 10, errorRate: 0.01 }).toBytes();
    const blocked = new BlockedBloomFilter({ capacity: 10, errorRate: 0.01 }).toBytes();
    for (const bad of [-0, Number.NaN, -0.01, 1, 1.5, Number.POSITIVE_INFINITY]) {
      for (const [read, good] of [
        [BloomFilter.fromBytes, bySize],
        [BloomFilter.fromBytes, sized],
        [BlockedBloomFilter.fromBytes, blocked],
      ] as const) {
        const b = good.slice();
        setF64(b, ERROR_RATE, bad);
        if (good === bySize && bad === 0) continue;
        expect(() => read(b)).toThrow(RedstructFormatError);
      }
    }
    // The scalable chain: errorRate at byte 16, tightening at byte 24.
    const sbf = new ScalableBloomFilter({ capacity: 10, errorRate: 0.01 }).toBytes();
    for (const [at, bad] of [
      [16, -0],
      [16, Number.NaN],
      [16, 1],
      [24, -0],
      [24, Number.NaN],
      [24, 0.75],
    ] as const) {
      const b = sbf.slice();
      setF64(b, at, bad);
      expect(() => ScalableBloomFilter.fromBytes(b)).toThrow(RedstructFormatError);
    }
  });

  it("ScalableBloomFilter: a link claiming more items than its set bits is refused; what loads round-trips", () => {
    const sbf = new ScalableBloomFilter({ capacity: 5, errorRate: 0.1 });
    for (let i = 0; i < 30; i++) sbf.add(i);
    const good = sbf.toBytes();
    expect(loadsExactlyOrRefuses(ScalableBloomFilter.fromBytes, good)).toBe(true);
    // The last link's item count (header at 36 + link bytes; its items field at +16 of the link).
    const last = ScalableBloomFilter.fromBytes(good);
    expect(last.filters).toBeGreaterThan(1);
    let offset = 36;
    const links: number[] = [];
    while (offset < good.length) {
      links.push(offset);
      const bits = new DataView(good.buffer).getUint32(offset + 8, true);
      offset += 40 + Math.ceil(bits / 32) * 4;
    }
    const b = good.slice();
    setU64(b, links.at(-1)! + ITEMS, 2 ** 40);
    expect(() => ScalableBloomFilter.fromBytes(b)).toThrow(RedstructFormatError);
  });
});

describe("byte inputs are copied when read: changing them after the call changes nothing", () => {
  for (const kind of kinds) {
    it(`${kind.name}.fromBytes: plain, view, subclass and Buffer inputs, scrambled after the call`, () => {
      fc.assert(
        fc.property(
          fc.nat(40),
          fc.array(anyItem, { maxLength: 40 }),
          fc.constantFrom(...BYTE_FORMS),
          (seed, items, form) => {
            const f = kind.make(seed);
            for (const v of items) f.add(v);
            const saved = f.toBytes();
            const input = inForm(saved, form);
            const back = kind.fromBytes(input.value);
            input.scramble();
            back.checkInvariants();
            expect(back.toBytes()).toEqual(saved);
            for (const v of items) expect(back.has(v)).toBe(true);
          },
        ),
        { seed: 2401, numRuns: 120 },
      );
    });
  }

  it("RedisBloomFilter.fromRedis: a reader yielding every chunk from one reused buffer, in any order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(anyItem, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        (capacity, expansion, items, shuffle) => {
          const f = new RedisBloomFilter({ capacity, expansion, errorRate: 0.05 });
          f.addAll(items);
          const chunks = f.toRedis();
          // The header first; the bit chunks in any order (BF.LOADCHUNK accepts it).
          const order = shuffle ? [chunks[0]!, ...chunks.slice(1).reverse()] : chunks;
          const back = RedisBloomFilter.fromRedis(oneBuffer(order));
          back.checkInvariants();
          expect(back.toRedis()).toEqual(chunks);
          for (const v of items) expect(back.has(v)).toBe(true);
        },
      ),
      { seed: 2402, numRuns: 150 },
    );
    // The same with a reused Node Buffer (whose slice() is a view, not a copy), where there is one.
    if (typeof Buffer === "function") {
      const f = new RedisBloomFilter({ capacity: 3, errorRate: 0.05 });
      const items = Array.from({ length: 30 }, (_, i) => `b${i}`);
      f.addAll(items);
      const chunks = f.toRedis();
      const reused = Buffer.alloc(Math.max(...chunks.map(([, b]) => b.length)));
      const reader = function* (): Generator<[number, Uint8Array]> {
        for (const [i, b] of chunks) {
          reused.fill(0x5a).set(b);
          yield [i, reused.subarray(0, b.length)];
        }
      };
      expect(RedisBloomFilter.fromRedis(reader()).toRedis()).toEqual(chunks);
    }
    // 40 items in several links, every one still found.
    const f = new RedisBloomFilter({ capacity: 4, errorRate: 0.01 });
    const forty = Array.from({ length: 40 }, (_, i) => `k${i}`);
    f.addAll(forty);
    expect(f.info().filters).toBeGreaterThan(2);
    expect(RedisBloomFilter.fromRedis(oneBuffer(f.toRedis())).hasAll(forty).every(Boolean)).toBe(true);
  });

  it("RedisBloomFilter.fromRedis: chunks in every byte form, scrambled after the call", () => {
    fc.assert(
      fc.property(fc.array(anyItem, { maxLength: 40 }), fc.constantFrom(...BYTE_FORMS), (items, form) => {
        const f = new RedisBloomFilter({ capacity: 3, errorRate: 0.1 });
        f.addAll(items);
        const chunks = f.toRedis();
        const inputs = chunks.map(([i, b]) => [i, inForm(b, form)] as const);
        const back = RedisBloomFilter.fromRedis(inputs.map(([i, x]) => [i, x.value] as [number, Uint8Array]));
        for (const [, x] of inputs) x.scramble();
        expect(back.toRedis()).toEqual(chunks);
      }),
      { seed: 2403, numRuns: 100 },
    );
  });

  it("items in every byte form, scrambled after add, are held by their bytes at the time of the call", () => {
    for (const kind of kinds) {
      fc.assert(
        fc.property(
          fc.array(fc.uint8Array({ minLength: 1, maxLength: 10 }), { maxLength: 30 }),
          fc.constantFrom(...BYTE_FORMS),
          (contents, form) => {
            const f = kind.make(5);
            const twin = kind.make(5);
            for (const c of contents) {
              const x = inForm(c, form);
              f.add(x.value);
              x.scramble();
              twin.add(c.slice());
            }
            expect(f.toBytes()).toEqual(twin.toBytes());
            for (const c of contents) expect(f.has(c)).toBe(true);
          },
        ),
        { seed: 2404, numRuns: 40 },
      );
    }
  });
});
