/**
 * One table over the whole public API (imported from the root, as a user would): every constructor
 * and method that takes an options object refuses an unknown key (naming it), `null` options and a
 * flag that is not a boolean; every method that takes many elements refuses anything but a sync
 * iterable — a lone string, an async iterable, a number, null. Each structure's own tests check its
 * options in depth; this table is what keeps a new entry point from forgetting the rule.
 */
import { describe, expect, it } from "vitest";
import {
  Bitmap,
  BlockedBloomFilter,
  BloomFilter,
  CountMinSketch,
  CuckooFilter,
  Dict,
  ExaLogLog,
  HyperLogLog,
  RedisBloomFilter,
  ScalableBloomFilter,
  Snowflake,
  SortedSet,
  TimestampCounterId,
  TopK,
  UltraLogLog,
} from "../../src/index.js";

type Options = Record<string, unknown> | null;

interface OptionsEntry {
  /** What is called, for the test name. */
  name: string;
  /** Calls it with `options` (the valid base, possibly altered). */
  call: (options: Options) => unknown;
  /** Options that make the call succeed (keys of the base are the known ones being checked). */
  base: Record<string, unknown>;
  /** Keys whose value must be a boolean. */
  flags?: string[];
  /** Whether the options argument may be omitted, so that `null` is the only "absent" to refuse. */
  optional?: boolean;
}

const zs = () => {
  const s = new SortedSet({ seed: 1 });
  s.add("a", 1);
  s.add("b", 2);
  return s;
};

const OPTIONS: OptionsEntry[] = [
  { name: "new HyperLogLog", call: (o) => new HyperLogLog(o as never), base: { precision: 12 }, optional: true },
  {
    name: "HyperLogLog.from",
    call: (o) => HyperLogLog.from(["a"], o as never),
    base: { precision: 12 },
    optional: true,
  },
  {
    name: "hll.toRedis",
    call: (o) => new HyperLogLog().toRedis(o as never),
    base: { encoding: "dense" },
    optional: true,
  },
  {
    name: "HyperLogLog.fromRedis",
    call: (o) => HyperLogLog.fromRedis(new HyperLogLog().toRedis(), o as never),
    base: { estimator: "ertl" },
    optional: true,
  },
  { name: "new UltraLogLog", call: (o) => new UltraLogLog(o as never), base: { precision: 10 }, optional: true },
  { name: "new ExaLogLog", call: (o) => new ExaLogLog(o as never), base: { precision: 10, d: 20 }, optional: true },
  {
    name: "ell.count",
    call: (o) => ExaLogLog.from(["a"]).count(o as never),
    base: { estimator: "ml" },
    optional: true,
  },
  {
    name: "ell.downsize",
    call: (o) => ExaLogLog.from(["a"]).downsize(o as never),
    base: { precision: 10, d: 20 },
    optional: true,
  },
  { name: "new BloomFilter", call: (o) => new BloomFilter(o as never), base: { capacity: 100, errorRate: 0.01 } },
  {
    name: "new BlockedBloomFilter",
    call: (o) => new BlockedBloomFilter(o as never),
    base: { capacity: 100, errorRate: 0.01 },
  },
  {
    name: "new ScalableBloomFilter",
    call: (o) => new ScalableBloomFilter(o as never),
    base: { capacity: 100, errorRate: 0.01, nonScaling: false },
    flags: ["nonScaling"],
  },
  {
    name: "new RedisBloomFilter",
    call: (o) => new RedisBloomFilter(o as never),
    base: { capacity: 100, errorRate: 0.01, nonScaling: true },
    flags: ["nonScaling"],
    optional: true,
  },
  { name: "new CuckooFilter", call: (o) => new CuckooFilter(o as never), base: { capacity: 100 }, optional: true },
  { name: "new TopK", call: (o) => new TopK(o as never), base: { k: 3 } },
  {
    name: "topk.list",
    call: (o) => new TopK({ k: 3 }).list(o as never),
    base: { withCount: true },
    flags: ["withCount"],
    optional: true,
  },
  { name: "new CountMinSketch", call: (o) => new CountMinSketch(o as never), base: { width: 10, depth: 2 } },
  {
    name: "new CountMinSketch (by error)",
    call: (o) => new CountMinSketch(o as never),
    base: { error: 0.01, probability: 0.01 },
  },
  {
    name: "CountMinSketch.union",
    call: (o) => CountMinSketch.union([new CountMinSketch({ width: 10, depth: 2 })], o as never),
    base: { weights: [2] },
    optional: true,
  },
  {
    name: "cf.add",
    call: (o) => new CuckooFilter({ capacity: 100 }).add("a", o as never),
    base: { nx: true },
    flags: ["nx"],
    optional: true,
  },
  {
    name: "BloomFilter.from",
    call: (o) => BloomFilter.from(["a"], o as never),
    base: { errorRate: 0.01 },
  },
  {
    name: "dict.toBytes",
    call: (o) => new Dict([["a", 1]]).toBytes(o as never),
    base: { encodeValue: (v: number) => Uint8Array.of(v) },
    optional: true,
  },
  {
    name: "Dict.fromBytes",
    call: (o) => Dict.fromBytes(new Dict([["a", 1]]).toBytes(), o as never),
    base: { seed: 1 },
    optional: true,
  },
  { name: "new SortedSet", call: (o) => new SortedSet(o as never), base: { seed: 1 }, optional: true },
  {
    name: "zs.add",
    call: (o) => zs().add("c", 3, o as never),
    base: { nx: true, ch: false },
    flags: ["nx", "xx", "gt", "lt", "ch"],
    optional: true,
  },
  {
    name: "zs.incrBy",
    call: (o) => zs().incrBy("a", 1, o as never),
    base: { xx: true },
    flags: ["xx"],
    optional: true,
  },
  {
    name: "zs.rank",
    call: (o) => zs().rank("a", o as never),
    base: { reverse: true },
    flags: ["reverse"],
    optional: true,
  },
  {
    name: "zs.range",
    call: (o) => zs().range(0, -1, o as never),
    base: { reverse: true },
    flags: ["reverse"],
    optional: true,
  },
  {
    name: "zs.rangeByScore",
    call: (o) => zs().rangeByScore(0, 10, o as never),
    base: { minExclusive: true, count: 1 },
    flags: ["minExclusive", "maxExclusive", "reverse"],
    optional: true,
  },
  {
    name: "zs.rangeByLex",
    call: (o) => zs().rangeByLex("-", "+", o as never),
    base: { offset: 0, count: 1 },
    flags: ["reverse"],
    optional: true,
  },
  {
    name: "zs.countByScore",
    call: (o) => zs().countByScore(0, 10, o as never),
    base: { maxExclusive: true },
    flags: ["minExclusive", "maxExclusive"],
    optional: true,
  },
  {
    name: "zs.deleteRangeByScore",
    call: (o) => zs().deleteRangeByScore(0, 10, o as never),
    base: { maxExclusive: true },
    flags: ["minExclusive", "maxExclusive"],
    optional: true,
  },
  {
    name: "zs.randomMembers",
    call: (o) => zs().randomMembers(1, o as never),
    base: { withScores: true },
    flags: ["withScores"],
    optional: true,
  },
  {
    name: "zs.entries",
    call: (o) => [...zs().entries(o as never)],
    base: { reverse: true },
    flags: ["reverse"],
    optional: true,
  },
  {
    name: "SortedSet.union",
    call: (o) => SortedSet.union([zs(), zs()], o as never),
    base: { weights: [1, 2], aggregate: "max" },
    optional: true,
  },
  {
    name: "SortedSet.intersect",
    call: (o) => SortedSet.intersect([zs(), zs()], o as never),
    base: { aggregate: "min" },
    optional: true,
  },
  { name: "new Dict", call: (o) => new Dict([], o as never), base: {}, optional: true },
  { name: "new Snowflake", call: (o) => new Snowflake(o as never), base: { workerId: 7 }, optional: true },
  {
    name: "Snowflake.decode",
    call: (o) => Snowflake.decode(new Snowflake().next(), o as never),
    base: { layout: "twitter" },
    optional: true,
  },
  {
    name: "new TimestampCounterId",
    call: (o) => new TimestampCounterId(o as never),
    base: { epochSeconds: 1640995200 },
    optional: true,
  },
  { name: "bm.count", call: (o) => Bitmap.from([1]).count(0, -1, o as never), base: { unit: "bit" }, optional: true },
  {
    name: "bm.position",
    call: (o) => Bitmap.from([1]).position(1, 0, -1, o as never),
    base: { unit: "bit" },
    optional: true,
  },
  {
    name: "bm.bitfield",
    call: (o) => new Bitmap().bitfield([{ get: "u8", at: 0 }], o as never),
    base: { readOnly: true },
    flags: ["readOnly"],
    optional: true,
  },
];

describe("every options object is checked", () => {
  for (const entry of OPTIONS) {
    it(`${entry.name}: valid options work; an unknown key, null and a non-boolean flag are TypeErrors`, () => {
      entry.call(entry.base);
      if (entry.optional) entry.call(undefined as never);
      // A typo of a known key (or a key no entry point knows) names the key.
      const typo = Object.keys(entry.base)[0]?.toUpperCase() ?? "bogus";
      expect(() => entry.call({ ...entry.base, [typo]: 1 })).toThrow(TypeError);
      expect(() => entry.call({ ...entry.base, [typo]: 1 })).toThrow(new RegExp(`"${typo}"`));
      expect(() => entry.call({ ...entry.base, notAnOption: true })).toThrow(/notAnOption/);
      expect(() => entry.call(null)).toThrow(TypeError);
      for (const flag of entry.flags ?? []) {
        for (const bad of ["yes", 1, null, {}]) {
          expect(() => entry.call({ ...entry.base, [flag]: bad }), `${flag}: ${String(bad)}`).toThrow(TypeError);
        }
      }
    });
  }
});

interface BulkEntry {
  name: string;
  call: (values: unknown) => unknown;
  /** A valid argument. */
  good: unknown;
  /** Takes structures rather than elements: its message names the type it wants instead. */
  ofStructures?: boolean;
}

const BULK: BulkEntry[] = [
  { name: "hll.addAll", call: (v) => new HyperLogLog().addAll(v as never), good: ["a", "b"] },
  { name: "HyperLogLog.from", call: (v) => HyperLogLog.from(v as never), good: ["a"] },
  {
    name: "HyperLogLog.union",
    call: (v) => HyperLogLog.union(v as never),
    good: [new HyperLogLog()],
    ofStructures: true,
  },
  { name: "ull.addAll", call: (v) => new UltraLogLog({ precision: 8 }).addAll(v as never), good: ["a"] },
  { name: "ell.addAll", call: (v) => new ExaLogLog({ precision: 8 }).addAll(v as never), good: ["a"] },
  {
    name: "ExaLogLog.union",
    call: (v) => ExaLogLog.union(v as never),
    good: [new ExaLogLog({ precision: 8 })],
    ofStructures: true,
  },
  {
    name: "bf.addAll",
    call: (v) => new BloomFilter({ capacity: 10, errorRate: 0.01 }).addAll(v as never),
    good: ["a"],
  },
  {
    name: "bf.hasAll",
    call: (v) => new BloomFilter({ capacity: 10, errorRate: 0.01 }).hasAll(v as never),
    good: new Set(["a"]),
  },
  { name: "BloomFilter.from", call: (v) => BloomFilter.from(v as never, { errorRate: 0.01 }), good: ["a"] },
  {
    name: "blocked.addAll",
    call: (v) => new BlockedBloomFilter({ capacity: 10, errorRate: 0.01 }).addAll(v as never),
    good: ["a"],
  },
  {
    name: "BlockedBloomFilter.from",
    call: (v) => BlockedBloomFilter.from(v as never, { errorRate: 0.01 }),
    good: ["a"],
  },
  {
    name: "sbf.addAll",
    call: (v) => new ScalableBloomFilter({ capacity: 10, errorRate: 0.01 }).addAll(v as never),
    good: ["a"],
  },
  { name: "rbf.addAll", call: (v) => new RedisBloomFilter().addAll(v as never), good: ["a"] },
  { name: "rbf.hasAll", call: (v) => new RedisBloomFilter().hasAll(v as never), good: ["a"] },
  {
    name: "RedisBloomFilter.fromRedis",
    call: (v) => RedisBloomFilter.fromRedis(v as never),
    good: new RedisBloomFilter().toRedis(),
  },
  {
    name: "CuckooFilter.fromRedis",
    call: (v) => CuckooFilter.fromRedis(v as never),
    good: CuckooFilter.from(["a"]).toRedis(),
  },
  { name: "cf.hasAll", call: (v) => new CuckooFilter({ capacity: 100 }).hasAll(v as never), good: ["a"] },
  {
    name: "cms.merge",
    call: (v) => new CountMinSketch({ width: 10, depth: 2 }).merge(v as never),
    good: [new CountMinSketch({ width: 10, depth: 2 })],
    ofStructures: true,
  },
  {
    name: "CountMinSketch.union",
    call: (v) => CountMinSketch.union(v as never),
    good: [new CountMinSketch({ width: 10, depth: 2 })],
    ofStructures: true,
  },
  { name: "CountMinSketch.from", call: (v) => CountMinSketch.from(v as never, { width: 10, depth: 2 }), good: ["a"] },
  { name: "topk.addAll", call: (v) => new TopK({ k: 2 }).addAll(v as never), good: ["a"] },
  { name: "TopK.from", call: (v) => TopK.from(v as never, { k: 2 }), good: ["a"] },
  { name: "CuckooFilter.from", call: (v) => CuckooFilter.from(v as never), good: ["a"] },
  { name: "RedisBloomFilter.from", call: (v) => RedisBloomFilter.from(v as never), good: ["a"] },
  {
    name: "ScalableBloomFilter.from",
    call: (v) => ScalableBloomFilter.from(v as never, { capacity: 10, errorRate: 0.01 }),
    good: ["a"],
  },
  { name: "SortedSet.from", call: (v) => SortedSet.from(v as never), good: [["a", 1]] },
  { name: "zs.scores", call: (v) => zs().scores(v as never), good: ["a", "z"] },
  { name: "SortedSet.union", call: (v) => SortedSet.union(v as never), good: [zs()] },
  { name: "SortedSet.diff", call: (v) => SortedSet.diff(v as never), good: [zs()] },
  { name: "Dict.from", call: (v) => Dict.from(v as never), good: [["a", 1]] },
  { name: "Bitmap.from", call: (v) => Bitmap.from(v as never), good: [1, 2] },
  { name: "bm.bitfield", call: (v) => new Bitmap().bitfield(v as never), good: [{ get: "u8", at: 0 }] },
  { name: "Bitmap.op", call: (v) => Bitmap.op("or", v as never), good: [Bitmap.from([1])], ofStructures: true },
];

async function* asyncValues() {
  yield "a";
}

describe("bulk methods take a sync iterable, and nothing else", () => {
  for (const entry of BULK) {
    it(`${entry.name}: a string, an async iterable, a number, null and a plain object are TypeErrors`, () => {
      entry.call(entry.good);
      expect(() => entry.call("user:1842")).toThrow(TypeError);
      expect(() => entry.call(asyncValues())).toThrow(TypeError);
      if (!entry.ofStructures) {
        expect(() => entry.call("user:1842")).toThrow(/string/);
        expect(() => entry.call(asyncValues())).toThrow(/async/);
      }
      for (const bad of [42, null, { length: 1, 0: "a" }]) {
        expect(() => entry.call(bad), String(bad)).toThrow(TypeError);
      }
    });
  }
});

/** A Uint8Array whose buffer has been transferred away (as by postMessage): it reads as empty. */
function detached(): Uint8Array {
  const bytes = Uint8Array.of(1, 2, 3);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

interface ItemEntry {
  name: string;
  /** A structure in some state, and what it serializes to (to see that nothing changed). */
  make: () => { x: unknown; bytes: () => Uint8Array };
  call: (x: never, item: unknown) => unknown;
}

const s0 = <T extends { toBytes(): Uint8Array }>(x: T) => ({ x, bytes: () => x.toBytes() });
const ITEMS: ItemEntry[] = [
  ...(["add", "has", "addAll", "hasAll"] as const).flatMap((m): ItemEntry[] => [
    {
      name: `bf.${m}`,
      make: () => s0(BloomFilter.from(["a"], { errorRate: 0.01 })),
      call: (x: BloomFilter, i) => (m.endsWith("All") ? x[m]([i] as never) : x[m as "add"](i as never)),
    },
    {
      name: `blocked.${m}`,
      make: () => s0(BlockedBloomFilter.from(["a"], { errorRate: 0.01 })),
      call: (x: BlockedBloomFilter, i) => (m.endsWith("All") ? x[m]([i] as never) : x[m as "add"](i as never)),
    },
    {
      name: `sbf.${m}`,
      make: () => s0(ScalableBloomFilter.from(["a"], { capacity: 10, errorRate: 0.01 })),
      call: (x: ScalableBloomFilter, i) => (m.endsWith("All") ? x[m]([i] as never) : x[m as "add"](i as never)),
    },
    {
      name: `rbf.${m}`,
      make: () => s0(RedisBloomFilter.from(["a"])),
      call: (x: RedisBloomFilter, i) => (m.endsWith("All") ? x[m]([i] as never) : x[m as "add"](i as never)),
    },
  ]),
  ...(["add", "has", "delete", "count"] as const).map(
    (m): ItemEntry => ({
      name: `cf.${m}`,
      make: () => s0(CuckooFilter.from(["a", "b"])),
      call: (x: CuckooFilter, i) => x[m](i as never),
    }),
  ),
  { name: "hll.add", make: () => s0(HyperLogLog.from(["a"])), call: (x: HyperLogLog, i) => x.add(i as never) },
  { name: "hll.addAll", make: () => s0(HyperLogLog.from(["a"])), call: (x: HyperLogLog, i) => x.addAll([i] as never) },
  {
    name: "ull.add",
    make: () => s0(UltraLogLog.from(["a"], { precision: 8 })),
    call: (x: UltraLogLog, i) => x.add(i as never),
  },
  {
    name: "ell.add",
    make: () => s0(ExaLogLog.from(["a"], { precision: 8 })),
    call: (x: ExaLogLog, i) => x.add(i as never),
  },
  {
    name: "cms.incrBy",
    make: () => s0(CountMinSketch.from(["a"], { width: 10, depth: 2 })),
    call: (x: CountMinSketch, i) => x.incrBy(i as never, 3),
  },
  {
    name: "cms.count",
    make: () => s0(CountMinSketch.from(["a"], { width: 10, depth: 2 })),
    call: (x: CountMinSketch, i) => x.count(i as never),
  },
  ...(["add", "has", "count"] as const).map(
    (m): ItemEntry => ({
      name: `topk.${m}`,
      make: () => s0(TopK.from(["a", "b", "a"], { k: 2, width: 8, depth: 3 })),
      call: (x: TopK, i) => x[m](i as never),
    }),
  ),
  {
    name: "topk.incrBy",
    make: () => s0(TopK.from(["a", "b", "a"], { k: 2, width: 8, depth: 3 })),
    call: (x: TopK, i) => x.incrBy(i as never, 5),
  },
];

describe("an item that is not an item is refused by the structure, before anything changes", () => {
  for (const entry of ITEMS) {
    it(`${entry.name}: null, an object and a detached Uint8Array are TypeErrors naming the structure and "item"`, () => {
      const { x, bytes } = entry.make();
      const before = bytes();
      const where = entry.name.startsWith("hll") ? "HyperLogLog" : undefined;
      for (const bad of [null, undefined, {}, [1], Symbol("s"), true, detached()]) {
        let error: unknown;
        try {
          entry.call(x as never, bad);
        } catch (e) {
          error = e;
        }
        expect(error, String(typeof bad)).toBeInstanceOf(TypeError);
        const message = (error as Error).message;
        expect(message).toMatch(/^redstruct\/[A-Za-z]+: (item|items\[0\]) /);
        expect(message).not.toMatch(/redstruct\/hash|\[object Object\]/);
        if (where) expect(message).toContain(where);
        if (bad instanceof Uint8Array) expect(message).toMatch(/detached/);
      }
      expect(bytes()).toEqual(before);
    });
  }
});

interface ReaderEntry {
  name: string;
  read: (bytes: Uint8Array) => { toBytes(): Uint8Array };
  valid: () => Uint8Array;
}

const READERS: ReaderEntry[] = [
  { name: "HyperLogLog.fromBytes", read: HyperLogLog.fromBytes, valid: () => HyperLogLog.from(["a", "b"]).toBytes() },
  {
    name: "HyperLogLog.fromRedis",
    read: (b) => HyperLogLog.fromRedis(b),
    valid: () => HyperLogLog.from(["a", "b"]).toRedis(),
  },
  {
    name: "UltraLogLog.fromBytes",
    read: UltraLogLog.fromBytes,
    valid: () => UltraLogLog.from(["a"], { precision: 6 }).toBytes(),
  },
  {
    name: "ExaLogLog.fromBytes",
    read: ExaLogLog.fromBytes,
    valid: () => ExaLogLog.from(["a"], { precision: 6 }).toBytes(),
  },
  {
    name: "BloomFilter.fromBytes",
    read: BloomFilter.fromBytes,
    valid: () => BloomFilter.from(["a"], { errorRate: 0.1 }).toBytes(),
  },
  {
    name: "BlockedBloomFilter.fromBytes",
    read: BlockedBloomFilter.fromBytes,
    valid: () => BlockedBloomFilter.from(["a"], { errorRate: 0.1 }).toBytes(),
  },
  {
    name: "ScalableBloomFilter.fromBytes",
    read: ScalableBloomFilter.fromBytes,
    valid: () => ScalableBloomFilter.from(["a"], { capacity: 10, errorRate: 0.1 }).toBytes(),
  },
  {
    name: "RedisBloomFilter.fromBytes",
    read: RedisBloomFilter.fromBytes,
    valid: () => RedisBloomFilter.from(["a"]).toBytes(),
  },
  { name: "CuckooFilter.fromBytes", read: CuckooFilter.fromBytes, valid: () => CuckooFilter.from(["a"]).toBytes() },
  {
    name: "CountMinSketch.fromBytes",
    read: CountMinSketch.fromBytes,
    valid: () => CountMinSketch.from(["a"], { width: 8, depth: 2 }).toBytes(),
  },
  { name: "TopK.fromBytes", read: (b) => TopK.fromBytes(b), valid: () => TopK.from(["a", "a"], { k: 2 }).toBytes() },
  {
    name: "SortedSet.fromBytes",
    read: SortedSet.fromBytes,
    valid: () =>
      SortedSet.from([
        ["a", 1],
        ["b", 2],
      ]).toBytes(),
  },
  {
    name: "Dict.fromBytes",
    read: (b) => Dict.fromBytes(b),
    valid: () => new Dict([["a", Uint8Array.of(7)]]).toBytes(),
  },
];

describe("every byte reader takes what it is given once: no aliasing, no detached views, no null", () => {
  for (const entry of READERS) {
    it(`${entry.name}: a Buffer-like view into a larger buffer, changed afterwards, changes nothing read`, () => {
      const valid = entry.valid();
      // The bytes in the middle of a larger buffer, as a Node Buffer or a subarray would be.
      const big = new Uint8Array(valid.length + 16);
      big.set(valid, 8);
      const view = big.subarray(8, 8 + valid.length);
      const read = entry.read(view);
      const written = read.toBytes();
      big.fill(0x5a);
      expect(read.toBytes()).toEqual(written);
      (read as { checkInvariants?(): void }).checkInvariants?.();
    });

    it(`${entry.name}: null, a string, an array and a detached view are TypeErrors naming the input`, () => {
      for (const bad of [null, undefined, "bytes", [1, 2], detached()]) {
        let error: unknown;
        try {
          entry.read(bad as never);
        } catch (e) {
          error = e;
        }
        expect(error, typeof bad).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(/^redstruct\/[A-Za-z]+: /);
        if (bad instanceof Uint8Array) expect((error as Error).message).toMatch(/detached/);
      }
    });
  }

  it("chunk readers (fromRedis of the Bloom and cuckoo filters) copy each chunk as it arrives", () => {
    const readers = [
      {
        read: (c: Iterable<[number, Uint8Array]>) => RedisBloomFilter.fromRedis(c),
        make: () => RedisBloomFilter.from(Array.from({ length: 40 }, (_, i) => `k${i}`)),
      },
      {
        read: (c: Iterable<[number, Uint8Array]>) => CuckooFilter.fromRedis(c),
        make: () => CuckooFilter.from(Array.from({ length: 40 }, (_, i) => `k${i}`)),
      },
    ];
    for (const { read, make } of readers) {
      const original = make();
      // A streaming reader that hands out every chunk in one reused buffer.
      function* oneBuffer(chunks: Iterable<[number, Uint8Array]>): Generator<[number, Uint8Array]> {
        const buffer = new Uint8Array(1 << 16);
        for (const [i, c] of chunks) {
          buffer.set(c);
          yield [i, buffer.subarray(0, c.length)];
        }
      }
      const loaded = read(oneBuffer(original.toRedis()));
      expect(loaded.toBytes()).toEqual(original.toBytes());
      for (let i = 0; i < 40; i++) expect(loaded.has(`k${i}`)).toBe(true);
      const chunks = original.toRedis();
      expect(() => read([[chunks[0]![0], detached()]])).toThrow(TypeError);
    }
  });
});

describe("Redis spellings and bytes in another container get a pointer to this API's form", () => {
  const zs = SortedSet.from([["a", 1]]);
  const cases: [string, () => unknown, RegExp][] = [
    [
      '"(5" as a bound',
      () => zs.rangeByScore("(5" as never, 10),
      /min must be a number .*got "\(5"; an exclusive bound is an option: the number 5 with \{ minExclusive: true \}/,
    ],
    [
      '"+inf"',
      () => zs.countByScore(0, "+inf" as never),
      /max must be .*; Redis's -inf and \+inf are -Infinity and Infinity/,
    ],
    ['"5" as a score', () => zs.add("a", "5" as never), /score must be .*; pass the number itself, not its text/],
    [
      "limit",
      () => zs.rangeByScore(0, 1, { limit: [0, 1] } as never),
      /"limit" .*Redis's LIMIT offset count is \{ offset, count \}/,
    ],
    ["rev", () => zs.range(0, 1, { rev: true } as never), /"rev" .*Redis's REV is \{ reverse: true \}/],
    ["withscores", () => zs.randomMembers(1, { withscores: true } as never), /did you mean "withScores"/],
    ["WITHCOUNT", () => new TopK({ k: 2 }).list({ WITHCOUNT: true } as never), /did you mean "withCount"/],
    [
      "an ArrayBuffer",
      () => HyperLogLog.fromBytes(new ArrayBuffer(8) as never),
      /bytes must be a Uint8Array .*got an ArrayBuffer; wrap it: new Uint8Array\(buffer\)$/,
    ],
    [
      "a DataView item",
      () => new BloomFilter({ capacity: 10, errorRate: 0.1 }).add(new DataView(new ArrayBuffer(2)) as never),
      /got a DataView; wrap its bytes: new Uint8Array\(view\.buffer, view\.byteOffset, view\.byteLength\)$/,
    ],
    ["an Int32Array key", () => new Dict(null, { key: new Int32Array(4) as never }), /got an Int32Array/],
  ];
  for (const [what, call, message] of cases) {
    it(what, () => {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(message);
    });
  }
  it("a corrupt Bloom header says what the bytes held beside what was needed", () => {
    const bytes = new BloomFilter({ capacity: 100, errorRate: 0.01 }).toBytes();
    bytes[6] = 3; // the hash count, after the magic, the version and the hashing scheme
    expect(() => BloomFilter.fromBytes(bytes)).toThrow(/needs 959 bits \/ 7 hashes, the header holds 959 \/ 3/);
  });
});
