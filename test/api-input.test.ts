/**
 * One table over the whole public API (imported from the root, as a user would): every constructor
 * and method that takes an options object refuses an unknown key (naming it), `null` options and a
 * flag that is not a boolean; every method that takes many elements refuses anything but a sync
 * iterable — a lone string, an async iterable, a number, null. Each structure's own tests check its
 * options in depth; this table is what keeps a new entry point from forgetting the rule.
 */
import { describe, expect, it } from "vitest";
import {
  BlockedBloomFilter,
  BloomFilter,
  CountMinSketch,
  CuckooFilter,
  Dict,
  HyperLogLog,
  RedisBloomFilter,
  ScalableBloomFilter,
  Snowflake,
  SortedSet,
  TimestampCounterId,
  TopK,
  UltraLogLog,
} from "../src/index.js";

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
  { name: "BloomFilter.from", call: (v) => BloomFilter.from(v as never, 0.01), good: ["a"] },
  {
    name: "blocked.addAll",
    call: (v) => new BlockedBloomFilter({ capacity: 10, errorRate: 0.01 }).addAll(v as never),
    good: ["a"],
  },
  { name: "BlockedBloomFilter.from", call: (v) => BlockedBloomFilter.from(v as never, 0.01), good: ["a"] },
  {
    name: "sbf.addAll",
    call: (v) => new ScalableBloomFilter({ capacity: 10, errorRate: 0.01 }).addAll(v as never),
    good: ["a"],
  },
  { name: "rbf.addAll", call: (v) => new RedisBloomFilter().addAll(v as never), good: ["a"] },
  { name: "rbf.hasAll", call: (v) => new RedisBloomFilter().hasAll(v as never), good: ["a"] },
  {
    name: "RedisBloomFilter.load",
    call: (v) => RedisBloomFilter.load(v as never),
    good: new RedisBloomFilter().dump(),
  },
  { name: "cf.hasAll", call: (v) => new CuckooFilter({ capacity: 100 }).hasAll(v as never), good: ["a"] },
  {
    name: "cms.merge",
    call: (v) => CountMinSketch.byDimensions(10, 2).merge(v as never),
    good: [CountMinSketch.byDimensions(10, 2)],
    ofStructures: true,
  },
  { name: "SortedSet.from", call: (v) => SortedSet.from(v as never), good: [["a", 1]] },
  { name: "zs.scores", call: (v) => zs().scores(v as never), good: ["a", "z"] },
  { name: "SortedSet.union", call: (v) => SortedSet.union(v as never), good: [zs()] },
  { name: "SortedSet.diff", call: (v) => SortedSet.diff(v as never), good: [zs()] },
  { name: "Dict.from", call: (v) => Dict.from(v as never), good: [["a", 1]] },
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
