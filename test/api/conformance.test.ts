/**
 * The naming table of docs/design.md ("API conventions"), enforced over every exported class: at
 * compile time (each class `satisfies` the shapes its row of the table gives it, so a method that
 * drifts fails the typecheck) and at run time (no name the table retired survives anywhere, no
 * public `_` member, every structure with state has the full set of copies, bytes and checks, and
 * `JSON.stringify` says to send `toBytes()`). A new class must be listed here: the last test fails
 * until it is.
 */
import { describe, expect, it } from "vitest";
import { RoaringBitmap } from "../../src/bitmap/roaring.js";
import * as redstruct from "../../src/index.js";
import {
  Bitmap,
  BlockedBloomFilter,
  BloomFilter,
  CountMinSketch,
  CuckooFilter,
  Dict,
  ExaLogLog,
  GeoSet,
  HyperLogLog,
  type Item,
  RedisBloomFilter,
  ScalableBloomFilter,
  Snowflake,
  SortedSet,
  TDigest,
  TimestampCounterId,
  TopK,
  UltraLogLog,
} from "../../src/index.js";

/** What every structure with state offers (the table's "every structure with state" rows). */
interface Stateful<Self> {
  clear(): void;
  clone(): Self;
  checkInvariants(): void;
  toBytes(): Uint8Array;
  toJSON(): never;
  readonly byteLength: number;
}

/** The static side of a structure with state. */
interface StatefulClass<Self> {
  readonly prototype: Self;
  fromBytes(bytes: Uint8Array): Self;
  from(items: never, options: never): Self;
}

/** Sets, filters and sketches of items. */
interface ItemStructure {
  add(item: Item): unknown;
  addAll(items: Iterable<Item>): unknown;
}

/** Membership. */
interface Membership {
  has(item: Item): boolean;
  hasAll(items: Iterable<Item>): boolean[];
}

/** Structures in Redis's own formats. */
interface RedisFormatClass<Self> {
  readonly prototype: { toRedis(): unknown };
  fromRedis(value: never): Self;
}

// Compile-time conformance: a signature that drifts from the table is a type error here.
const stateful = {
  HyperLogLog,
  UltraLogLog,
  ExaLogLog,
  BloomFilter,
  BlockedBloomFilter,
  ScalableBloomFilter,
  RedisBloomFilter,
  CuckooFilter,
  CountMinSketch,
  TopK,
  TDigest,
  SortedSet,
  GeoSet,
  Dict,
  Bitmap,
  RoaringBitmap,
} satisfies Record<string, StatefulClass<Stateful<unknown>>>;

const itemStructures = {
  HyperLogLog,
  UltraLogLog,
  ExaLogLog,
  BloomFilter,
  BlockedBloomFilter,
  ScalableBloomFilter,
  RedisBloomFilter,
  CuckooFilter,
  TopK,
} satisfies Record<string, { readonly prototype: ItemStructure }>;

const membership = {
  BloomFilter,
  BlockedBloomFilter,
  ScalableBloomFilter,
  RedisBloomFilter,
  CuckooFilter,
} satisfies Record<string, { readonly prototype: Membership }>;

const redisFormats = {
  HyperLogLog,
  RedisBloomFilter,
  CuckooFilter,
  TDigest,
  Bitmap,
  SortedSet,
  GeoSet,
  Dict,
} satisfies Record<string, RedisFormatClass<unknown>>;

/** Classes that hold no data to save: ID generators keep a clock position, errors are errors. */
const NOT_STRUCTURES = new Set(["Snowflake", "TimestampCounterId", "ClockError", "RedstructFormatError"]);

/** Names the table does not allow, each with the name that stands for it (the CHANGELOG maps them). */
const RETIRED: Record<string, string> = {
  remove: "delete",
  removeRangeByRank: "deleteRangeByRank",
  removeRangeByScore: "deleteRangeByScore",
  removeRangeByLex: "deleteRangeByLex",
  arrayBytes: "byteLength",
  stats: "info",
  card: "size",
  dump: "toRedis",
  load: "fromRedis",
  fold: "downsize",
  query: "count or has",
  listWithCount: "list({ withCount: true })",
  addNx: "add(item, { nx: true })",
  byDimensions: "new CountMinSketch({ width, depth })",
  byError: "new CountMinSketch({ error, probability })",
  totalCount: "size",
};

/** Every own name on a class and its prototype chain up to Object. */
function names(cls: abstract new (...args: never[]) => unknown): { statics: string[]; members: string[] } {
  const members: string[] = [];
  for (let p = cls.prototype as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    members.push(...Object.getOwnPropertyNames(p).filter((n) => n !== "constructor"));
  }
  const statics = Object.getOwnPropertyNames(cls).filter((n) => !["length", "name", "prototype"].includes(n));
  return { statics, members };
}

const classes = Object.entries(redstruct).filter(
  ([name, v]) => typeof v === "function" && /^[A-Z]/.test(name) && (v as { prototype?: unknown }).prototype,
) as [string, abstract new (...args: never[]) => unknown][];

describe("the naming table holds for every exported class", () => {
  it("no retired name and no public _ member on any class", () => {
    const found: string[] = [];
    for (const [name, cls] of classes) {
      const { statics, members } = names(cls);
      for (const n of [...statics.map((s) => `static ${s}`), ...members]) {
        const bare = n.replace(/^static /, "");
        if (Object.hasOwn(RETIRED, bare)) found.push(`${name}.${n} (now ${RETIRED[bare]})`);
        if (bare.startsWith("_")) found.push(`${name}.${n} (public _ member)`);
      }
    }
    expect(found).toEqual([]);
  });

  it("every structure with state has clear, clone, checkInvariants, toBytes, toJSON, byteLength, static fromBytes and from", () => {
    for (const [name, cls] of Object.entries(stateful)) {
      const { statics, members } = names(cls as never);
      for (const m of ["clear", "clone", "checkInvariants", "toBytes", "toJSON", "byteLength"]) {
        expect(members, `${name}.${m}`).toContain(m);
      }
      for (const s of ["fromBytes", "from"]) expect(statics, `${name}.${s}`).toContain(s);
      const getter = Object.getOwnPropertyDescriptor((cls as { prototype: object }).prototype, "byteLength");
      expect(typeof getter?.get, `${name}.byteLength is a getter`).toBe("function");
    }
  });

  it("size, wherever it exists, is a getter; union and intersect are static only", () => {
    for (const [name, cls] of classes) {
      const { members } = names(cls);
      if (members.includes("size")) {
        let p = cls.prototype as object | null;
        let d: PropertyDescriptor | undefined;
        while (p && !(d = Object.getOwnPropertyDescriptor(p, "size"))) p = Object.getPrototypeOf(p);
        expect(typeof d?.get, `${name}.size is a getter`).toBe("function");
      }
      for (const m of ["union", "intersect", "diff"]) expect(members, `${name}.${m} is static`).not.toContain(m);
    }
  });

  it("Redis's formats are toRedis / static fromRedis", () => {
    for (const [name, cls] of Object.entries(redisFormats)) {
      const { statics, members } = names(cls as never);
      expect(members, name).toContain("toRedis");
      expect(statics, name).toContain("fromRedis");
    }
    expect(Object.keys(itemStructures).length + Object.keys(membership).length).toBeGreaterThan(0);
  });

  it("JSON.stringify of any structure throws a TypeError that says to send toBytes()", () => {
    const samples: unknown[] = [
      new HyperLogLog(),
      new UltraLogLog(),
      new ExaLogLog(),
      new BloomFilter({ capacity: 10, errorRate: 0.01 }),
      new BlockedBloomFilter({ capacity: 10, errorRate: 0.01 }),
      new ScalableBloomFilter({ capacity: 10, errorRate: 0.01 }),
      new RedisBloomFilter(),
      new CuckooFilter(),
      new CountMinSketch({ width: 10, depth: 2 }),
      new TopK({ k: 2 }),
      new TDigest(),
      new SortedSet(),
      new GeoSet(),
      new Dict(),
      new Bitmap(),
      new RoaringBitmap(),
    ];
    expect(samples.length).toBe(Object.keys(stateful).length);
    for (const s of samples) {
      expect(() => JSON.stringify({ s }), (s as object).constructor.name).toThrow(TypeError);
      expect(() => JSON.stringify(s)).toThrow(/toBytes\(\)/);
    }
  });

  it("every subpath whose classes read bytes exports RedstructFormatError, the root's own class", () => {
    const subpaths = import.meta.glob<Record<string, unknown>>("../../src/*/index.ts", { eager: true });
    const readers: string[] = [];
    for (const [path, mod] of Object.entries(subpaths)) {
      const reads = Object.values(mod).some((v) => typeof v === "function" && ("fromBytes" in v || "fromRedis" in v));
      if (!reads) continue;
      readers.push(path);
      expect(mod.RedstructFormatError, path).toBe(redstruct.RedstructFormatError);
    }
    expect(readers.length).toBeGreaterThanOrEqual(9);
  });

  it("console.log / util.inspect shows every structure's class, size and parameters, without changing it", async () => {
    const hook = Symbol.for("nodejs.util.inspect.custom");
    // Node's own inspect where there is one; in a browser the hook is called as Node would, without it.
    const node = typeof process === "object" && process.versions?.node !== undefined;
    const util = node ? ((await import(/* @vite-ignore */ "node:" + "util")) as typeof import("node:util")) : null;
    const digest = TDigest.from([3, 1, 2]); // buffered: a quantile would merge it
    const zs = SortedSet.from([
      ["alice", 120],
      ["bob", 125],
    ]);
    const samples: [object, RegExp][] = [
      [HyperLogLog.from(["a"]), /^HyperLogLog \{.*precision: 14/s],
      [UltraLogLog.from(["a"], { precision: 12 }), /^UltraLogLog \{.*precision: 12/s],
      [ExaLogLog.from(["a"]), /^ExaLogLog \{.*precision: 12, t: 2, d: 24/s],
      [new BloomFilter({ capacity: 10, errorRate: 0.01 }), /^BloomFilter \{.*size: 0.*capacity: 10/s],
      [new BlockedBloomFilter({ capacity: 10, errorRate: 0.01 }), /^BlockedBloomFilter \{.*blocks: 1/s],
      [new ScalableBloomFilter({ capacity: 10, errorRate: 0.01 }), /^ScalableBloomFilter \{.*filters: 1/s],
      [new RedisBloomFilter(), /^RedisBloomFilter \{.*capacity: 100/s],
      [new CuckooFilter(), /^CuckooFilter \{.*bucketSize: 2/s],
      [new CountMinSketch({ width: 10, depth: 2 }), /^CountMinSketch \{.*width: 10/s],
      [TopK.from(["x", "x"], { k: 2 }), /^TopK \{.*list: \[ \[ 'x', 2 \] \]/s],
      [digest, /^TDigest \{.*unmergedNodes: 3/s],
      [zs, /^SortedSet\(2\) \{ 'alice' => 120, 'bob' => 125 \}$/],
      [GeoSet.from([["Palermo", 13.361389, 38.115556]]), /^GeoSet\(1\) \{ 'Palermo' => \[ 13\.36/],
      [new Dict<string, unknown>([["a", 1]]), /^Dict\(1\) \{ 'a' => 1 \}$/],
      [Bitmap.from([1, 5]), /^Bitmap\(2\) \{ 1, 5, byteLength: 1 \}$/],
      [RoaringBitmap.from([7, 70_000]), /^RoaringBitmap\(2\) \{ 7, 70000, byteLength: \d+ \}$/],
      [new Snowflake({ workerId: 3 }), /^Snowflake \{.*workerId: 3/s],
      [new TimestampCounterId(), /^TimestampCounterId \{ epochSeconds: 1640995200 \}$/],
    ];
    const shown = new Set(samples.map(([s]) => s.constructor.name));
    expect(classes.map(([name]) => name).filter((n) => !shown.has(n) && !n.endsWith("Error"))).toEqual([]);
    const before = digest.toBytes();
    for (const [sample, pattern] of samples) {
      const text = util
        ? util.inspect(sample)
        : (sample as Record<symbol, (d: number, o: object) => string>)[hook]!(2, {});
      expect(text, sample.constructor.name).toMatch(pattern);
      const proto = Object.getPrototypeOf(sample) as object;
      expect(Object.prototype.propertyIsEnumerable.call(proto, hook), "the hook is not enumerable").toBe(false);
    }
    expect(digest.toBytes()).toEqual(before);
    // Nested deeper than the depth: the class in brackets, as Node shows any object.
    const nested = (zs as unknown as Record<symbol, (d: number, o: object) => string>)[hook]!(-1, {});
    expect(nested).toBe("[SortedSet]");
  });

  it("every exported class is listed here (a new one joins the table)", () => {
    const listed = new Set([...Object.keys(stateful), ...NOT_STRUCTURES]);
    expect(classes.map(([name]) => name).filter((n) => !listed.has(n))).toEqual([]);
  });
});
