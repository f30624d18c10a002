/**
 * Careless and hostile arguments to the Bloom filters and calculators, each class of them tested
 * over every filter: options objects (unknown keys, null, non-boolean flags, values out of range),
 * items and bulk inputs (sync iterables of items only), merge/union/intersect arguments checked as
 * instances, detached views refused before anything changes, an add that throws leaving the filter
 * as it was, re-entrant iterators, and JSON.stringify refused. Every message names the parameter at
 * fault, never an engine message.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BlockedBloomFilter,
  BloomFilter,
  bloomParameters,
  capacityForBits,
  errorRateForBits,
  falsePositiveRate,
  optimalHashes,
  RedisBloomFilter,
  ScalableBloomFilter,
} from "../../src/bloom/index.js";
import type { Item } from "../../src/hash/index.js";
import { anyItem, type Kind, kinds, sameBytes } from "../support/bloom.js";
import { detached } from "../support/redisbloom.js";

describe("every bad argument is refused with a message naming the parameter at fault", () => {
  type Bad = [what: string, run: () => unknown, error: typeof TypeError | typeof RangeError, message: RegExp];
  const sbf = (o: unknown) => () => new ScalableBloomFilter(o as never);
  const bf = (o: unknown) => () => new BloomFilter(o as never);
  const bbf = (o: unknown) => () => new BlockedBloomFilter(o as never);
  const B = "redstruct/BloomFilter: ";
  const K = "redstruct/BlockedBloomFilter: ";
  const S = "redstruct/ScalableBloomFilter: ";
  const cases: Bad[] = [
    // Options objects: null, non-objects, unknown keys (with a hint), mixed shapes.
    ["BloomFilter(null)", bf(null), TypeError, /^redstruct\/BloomFilter: options must be an object/],
    ["BloomFilter()", bf(undefined), TypeError, /^redstruct\/BloomFilter: options must be exactly one of/],
    ["BloomFilter(5)", bf(5), TypeError, /^redstruct\/BloomFilter: options must be an object/],
    ["BloomFilter([])", bf([]), TypeError, /^redstruct\/BloomFilter: options must be an object/],
    [
      "BloomFilter Capacity",
      bf({ Capacity: 10, errorRate: 0.1 }),
      TypeError,
      /unknown option "Capacity" in options \(did you mean "capacity"\?\)/,
    ],
    ["BloomFilter size", bf({ capacity: 10, errorRate: 0.1, size: 3 }), TypeError, /unknown option "size"/],
    [
      "BloomFilter both shapes",
      bf({ capacity: 10, errorRate: 0.1, bits: 8 }),
      RangeError,
      /^redstruct\/BloomFilter: bits must be 48, what bloomParameters\(10, 0.1\) answers/,
    ],
    [
      "BloomFilter capacity null",
      bf({ capacity: null, errorRate: 0.1 }),
      TypeError,
      new RegExp(`^${B}capacity must be`),
    ],
    ["BloomFilter errorRate missing", bf({ capacity: 10 }), TypeError, new RegExp(`^${B}errorRate must be`)],
    ["BloomFilter errorRate 0", bf({ capacity: 10, errorRate: 0 }), RangeError, new RegExp(`^${B}errorRate must be`)],
    [
      "BloomFilter errorRate NaN",
      bf({ capacity: 10, errorRate: Number.NaN }),
      RangeError,
      new RegExp(`^${B}errorRate must be`),
    ],
    ["BloomFilter bits 0", bf({ bits: 0, hashes: 3 }), RangeError, new RegExp(`^${B}bits must be`)],
    ["BloomFilter hashes 65", bf({ bits: 100, hashes: 65 }), RangeError, new RegExp(`^${B}hashes must be`)],
    ["BloomFilter hashes '3'", bf({ bits: 100, hashes: "3" }), TypeError, new RegExp(`^${B}hashes must be`)],
    [
      "BloomFilter capacity too big",
      bf({ capacity: 1e9, errorRate: 0.01 }),
      RangeError,
      new RegExp(`^${B}capacity must be small enough`),
    ],
    ["BlockedBloomFilter(null)", bbf(null), TypeError, /^redstruct\/BlockedBloomFilter: options must be an object/],
    ["BlockedBloomFilter()", bbf(undefined), TypeError, /^redstruct\/BlockedBloomFilter: options must be/],
    [
      "BlockedBloomFilter bits",
      bbf({ bits: 100, hashes: 3 }),
      TypeError,
      /^redstruct\/BlockedBloomFilter: options must be \{ capacity, errorRate \} or what blockedParameters/,
    ],
    [
      "BlockedBloomFilter errorRate",
      bbf({ capacity: 10, errorRate: 1 }),
      RangeError,
      new RegExp(`^${K}errorRate must be`),
    ],
    [
      "BlockedBloomFilter capacity",
      bbf({ capacity: 0, errorRate: 0.1 }),
      RangeError,
      new RegExp(`^${K}capacity must be`),
    ],
    [
      "BlockedBloomFilter capacity too big",
      bbf({ capacity: 1e12, errorRate: 0.1 }),
      RangeError,
      new RegExp(`^${K}capacity must be small enough`),
    ],
    ["ScalableBloomFilter(null)", sbf(null), TypeError, /^redstruct\/ScalableBloomFilter: options must be an object/],
    ["ScalableBloomFilter()", sbf(undefined), TypeError, /^redstruct\/ScalableBloomFilter: options must be/],
    [
      "ScalableBloomFilter nonscaling",
      sbf({ capacity: 10, errorRate: 0.1, nonscaling: true }),
      TypeError,
      /unknown option "nonscaling" in options \(did you mean "nonScaling"\?\)/,
    ],
    [
      "ScalableBloomFilter EXPANSION",
      sbf({ capacity: 10, errorRate: 0.1, EXPANSION: 4 }),
      TypeError,
      /unknown option "EXPANSION"/,
    ],
    [
      "ScalableBloomFilter nonScaling 'yes'",
      sbf({ capacity: 10, errorRate: 0.1, nonScaling: "yes" }),
      TypeError,
      new RegExp(`^${S}nonScaling must be a boolean`),
    ],
    [
      "ScalableBloomFilter nonScaling 1",
      sbf({ capacity: 10, errorRate: 0.1, nonScaling: 1 }),
      TypeError,
      new RegExp(`^${S}nonScaling must be a boolean`),
    ],
    [
      "ScalableBloomFilter nonScaling null",
      sbf({ capacity: 10, errorRate: 0.1, nonScaling: null }),
      TypeError,
      new RegExp(`^${S}nonScaling must be a boolean`),
    ],
    [
      "ScalableBloomFilter expansion null",
      sbf({ capacity: 10, errorRate: 0.1, expansion: null }),
      TypeError,
      new RegExp(`^${S}expansion must be`),
    ],
    [
      "ScalableBloomFilter expansion 0",
      sbf({ capacity: 10, errorRate: 0.1, expansion: 0 }),
      RangeError,
      new RegExp(`^${S}expansion must be`),
    ],
    [
      "ScalableBloomFilter expansion 1.5",
      sbf({ capacity: 10, errorRate: 0.1, expansion: 1.5 }),
      RangeError,
      new RegExp(`^${S}expansion must be`),
    ],
    [
      "ScalableBloomFilter tightening null",
      sbf({ capacity: 10, errorRate: 0.1, tightening: null }),
      TypeError,
      new RegExp(`^${S}tightening must be`),
    ],
    [
      "ScalableBloomFilter tightening 0.9",
      sbf({ capacity: 10, errorRate: 0.1, tightening: 0.9 }),
      RangeError,
      new RegExp(`^${S}tightening must be`),
    ],
    [
      "ScalableBloomFilter tightening 0",
      sbf({ capacity: 10, errorRate: 0.1, tightening: 0 }),
      RangeError,
      new RegExp(`^${S}tightening must be`),
    ],
    [
      "ScalableBloomFilter tightening NaN",
      sbf({ capacity: 10, errorRate: 0.1, tightening: Number.NaN }),
      RangeError,
      new RegExp(`^${S}tightening must be`),
    ],
    [
      "ScalableBloomFilter tightening '0.5'",
      sbf({ capacity: 10, errorRate: 0.1, tightening: "0.5" }),
      TypeError,
      new RegExp(`^${S}tightening must be`),
    ],
    [
      "ScalableBloomFilter errorRate 1",
      sbf({ capacity: 10, errorRate: 1 }),
      RangeError,
      new RegExp(`^${S}errorRate must be`),
    ],
    [
      "ScalableBloomFilter errorRate -0",
      sbf({ capacity: 10, errorRate: -0 }),
      RangeError,
      new RegExp(`^${S}errorRate must be`),
    ],
    [
      "ScalableBloomFilter errorRate null",
      sbf({ capacity: 10, errorRate: null }),
      TypeError,
      new RegExp(`^${S}errorRate must be`),
    ],
    // A tiny but valid error rate is not the capacity's fault: it is met (see bloom-params); an
    // error share that underflows names errorRate × tightening.
    [
      "ScalableBloomFilter share underflows",
      sbf({ capacity: 10, errorRate: 1e-300, tightening: 1e-30 }),
      RangeError,
      new RegExp(`^${S}errorRate × tightening must be`),
    ],
    [
      "ScalableBloomFilter capacity 0",
      sbf({ capacity: 0, errorRate: 0.1 }),
      RangeError,
      new RegExp(`^${S}capacity must be`),
    ],
    [
      "ScalableBloomFilter capacity too big",
      sbf({ capacity: 1e9, errorRate: 0.01 }),
      RangeError,
      new RegExp(`^${S}capacity must be small enough`),
    ],
  ];

  // Bulk inputs: a sync iterable of items only, for every method taking many items.
  const bulkBad: [string, unknown, RegExp][] = [
    ["an async iterable", (async function* () {})(), /items must be a synchronous iterable, got an async iterable/],
    ["a number", 5, /items must be a synchronous iterable .*, got 5/],
    ["null", null, /items must be a synchronous iterable .*, got null/],
    ["undefined", undefined, /items must be a synchronous iterable .*, got undefined/],
    ["a lone string", "user:1842", /items must be an iterable of elements, got the string "user:1842"/],
    ["a plain object", { length: 2 }, /items must be a synchronous iterable/],
  ];
  const filters: [string, () => { addAll(v: never): unknown; hasAll(v: never): unknown }][] = [
    ["BloomFilter", () => new BloomFilter({ capacity: 10, errorRate: 0.1 })],
    ["BlockedBloomFilter", () => new BlockedBloomFilter({ capacity: 10, errorRate: 0.1 })],
    ["ScalableBloomFilter", () => new ScalableBloomFilter({ capacity: 10, errorRate: 0.1 })],
  ];
  for (const [name, make] of filters) {
    for (const [what, value, message] of bulkBad) {
      const where = new RegExp(`^redstruct/${name}: ${message.source}`);
      cases.push([`${name}.addAll(${what})`, () => make().addAll(value as never), TypeError, where]);
      cases.push([`${name}.hasAll(${what})`, () => make().hasAll(value as never), TypeError, where]);
    }
  }
  for (const [what, value, message] of bulkBad) {
    cases.push([
      `BloomFilter.from(${what})`,
      () => BloomFilter.from(value as never, { errorRate: 0.1 }),
      TypeError,
      new RegExp(`^${B}${message.source}`),
    ]);
    cases.push([
      `BlockedBloomFilter.from(${what})`,
      () => BlockedBloomFilter.from(value as never, { errorRate: 0.1 }),
      TypeError,
      new RegExp(`^${K}${message.source}`),
    ]);
    cases.push([
      `ScalableBloomFilter.from(${what})`,
      () => ScalableBloomFilter.from(value as never, { errorRate: 0.1 }),
      TypeError,
      new RegExp(`^${S}${message.source}`),
    ]);
  }
  cases.push([
    "BloomFilter.from errorRate",
    () => BloomFilter.from(["a"], { errorRate: 2 }),
    RangeError,
    new RegExp(`^${B}errorRate must be`),
  ]);
  cases.push([
    "BlockedBloomFilter.from errorRate",
    () => BlockedBloomFilter.from(["a"], { errorRate: Number.NaN }),
    RangeError,
    new RegExp(`^${K}errorRate must be`),
  ]);
  cases.push([
    "BloomFilter.from(items, 0.1) (the positional error rate)",
    () => BloomFilter.from(["a"], 0.1 as never),
    TypeError,
    new RegExp(`^${B}options must be an object`),
  ]);
  cases.push([
    "ScalableBloomFilter.from capacity",
    () => ScalableBloomFilter.from(["a"], { errorRate: 0.1, capacity: 1.5 }),
    RangeError,
    new RegExp(`^${S}capacity must be`),
  ]);

  // merge / union / intersect arguments: instances of this copy only, and an explanation for another copy's.
  const otherCopy = <T extends string>(name: T) => {
    const ctor = { [name]: class {} }[name]!;
    return new ctor();
  };
  const a = () => new BloomFilter({ capacity: 10, errorRate: 0.1 });
  const b = () => new BlockedBloomFilter({ capacity: 10, errorRate: 0.1 });
  type Call = (x: unknown) => unknown;
  const forms: [string, Call, Call, string][] = [
    ["merge", (x) => a().merge(x as never), (x) => b().merge(x as never), "others[0]"],
    ["merge([…])", (x) => a().merge([x] as never), (x) => b().merge([x] as never), "others[0]"],
    [
      "union",
      (x) => BloomFilter.union([a(), x] as never),
      (x) => BlockedBloomFilter.union([b(), x] as never),
      "filters[1]",
    ],
    [
      "intersect",
      (x) => BloomFilter.intersect([x] as never),
      (x) => BlockedBloomFilter.intersect([x] as never),
      "filters[0]",
    ],
  ];
  for (const [op, onBloom, onBlocked, param] of forms) {
    const p = param.replace(/[[\]]/g, "\\$&");
    cases.push([
      `BloomFilter ${op}(null)`,
      () => onBloom(null),
      TypeError,
      new RegExp(`^${B}${p} must be a BloomFilter, got null`),
    ]);
    cases.push([
      `BloomFilter ${op}({})`,
      () => onBloom({}),
      TypeError,
      new RegExp(`^${B}${p} must be a BloomFilter, got an empty object \\{\\}`),
    ]);
    cases.push([
      `BloomFilter ${op}(blocked)`,
      () => onBloom(b()),
      TypeError,
      new RegExp(`^${B}${p} must be a BloomFilter, got a BlockedBloomFilter`),
    ]);
    cases.push([
      `BloomFilter ${op}(other copy)`,
      () => onBloom(otherCopy("BloomFilter")),
      TypeError,
      new RegExp(`^${B}${p} is a BloomFilter from another copy of redstruct`),
    ]);
    cases.push([
      `BloomFilter ${op}(Object.create(BloomFilter.prototype))`,
      () => onBloom(Object.create(BloomFilter.prototype)),
      TypeError,
      new RegExp(`^${B}${p} has BloomFilter.prototype but was not built by new BloomFilter\\(\\)`),
    ]);
    cases.push([
      `BlockedBloomFilter ${op}(undefined)`,
      () => onBlocked(undefined),
      TypeError,
      new RegExp(`^${K}${p} must be a BlockedBloomFilter, got undefined`),
    ]);
    cases.push([
      `BlockedBloomFilter ${op}(other copy)`,
      () => onBlocked(otherCopy("BlockedBloomFilter")),
      TypeError,
      new RegExp(`^${K}${p} is a BlockedBloomFilter from another copy of redstruct`),
    ]);
    cases.push([
      `BlockedBloomFilter ${op}(Object.create(BlockedBloomFilter.prototype))`,
      () => onBlocked(Object.create(BlockedBloomFilter.prototype)),
      TypeError,
      new RegExp(`^${K}${p} has BlockedBloomFilter.prototype but was not built`),
    ]);
  }
  cases.push([
    "BloomFilter merge(other shape)",
    () => a().merge(new BloomFilter({ bits: 64, hashes: 2 })),
    RangeError,
    new RegExp(`^${B}others\\[0\\] must be a filter of the same shape`),
  ]);
  // The statics take one iterable: separate arguments, a lone filter, nothing or a non-iterable are named.
  for (const op of ["union", "intersect"] as const) {
    cases.push([
      `BloomFilter.${op}(a, b)`,
      () => (BloomFilter[op] as (...x: unknown[]) => unknown)(a(), a()),
      TypeError,
      new RegExp(
        `^${B}${op} takes one iterable of filters, got 2 arguments; pass them in an array: BloomFilter.${op}\\(\\[a, b\\]\\)`,
      ),
    ]);
    cases.push([
      `BloomFilter.${op}(a)`,
      () => BloomFilter[op](a() as never),
      TypeError,
      new RegExp(`^${B}${op} takes one iterable of filters, got a BloomFilter`),
    ]);
    cases.push([
      `BlockedBloomFilter.${op}(bloom)`,
      () => BlockedBloomFilter[op](a() as never),
      TypeError,
      new RegExp(`^${K}filters must be a synchronous iterable \\(an array, a Set, a generator\\), got a BloomFilter`),
    ]);
    cases.push([
      `BloomFilter.${op}([])`,
      () => BloomFilter[op]([]),
      RangeError,
      new RegExp(`^${B}filters must hold at least one BloomFilter, got none`),
    ]);
    cases.push([
      `BloomFilter.${op}(null)`,
      () => BloomFilter[op](null as never),
      TypeError,
      new RegExp(`^${B}filters must be a synchronous iterable`),
    ]);
  }

  it.each(cases.map((c) => [c[0], c] as const))("%s", (_, [, run, error, message]) => {
    let thrown: unknown;
    try {
      run();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(error);
    expect((thrown as Error).message).toMatch(message);
    // Never an engine message: every message is redstruct's, naming a parameter or an option.
    expect((thrown as Error).message).not.toMatch(
      /Cannot read properties|is not iterable|is not a function|Cannot convert/,
    );
  });

  it("valid bulk inputs still work: arrays, Sets, generators, typed arrays' elements", () => {
    const f = new BloomFilter({ capacity: 100, errorRate: 0.01 });
    expect(f.addAll(new Set(["a", "b"]))).toEqual([true, true]);
    expect(
      f.addAll(
        (function* () {
          yield "c";
          yield 1n;
        })(),
      ),
    ).toEqual([true, true]);
    expect(f.hasAll(["a", "c", "zz"])).toEqual([true, true, false]);
    expect(BloomFilter.from(new Set([1, 2, 3]), { errorRate: 0.01 }).size).toBe(3);
    expect(BlockedBloomFilter.from([new Uint8Array([1])], { errorRate: 0.01 }).size).toBe(1);
    // Options given as undefined take their defaults; so does an omitted key.
    const s = new ScalableBloomFilter({ capacity: 10, errorRate: 0.1, expansion: undefined, nonScaling: false });
    expect(s.info().expansion).toBe(2);
  });
});

describe("BloomFilter arguments", () => {
  it("rejects bad options", () => {
    const make = (o: unknown) => () => new BloomFilter(o as { bits: number; hashes: number });
    expect(make(undefined)).toThrow(TypeError);
    expect(make({})).toThrow(TypeError);
    expect(make({ capacity: 10, errorRate: 0.1, bits: 10 })).toThrow(/bits must be 48, what bloomParameters/);
    expect(make({ capacity: 0, errorRate: 0.1 })).toThrow(/redstruct\/BloomFilter: capacity must be/);
    expect(make({ capacity: 10, errorRate: 1 })).toThrow(RangeError);
    expect(make({ capacity: 10 })).toThrow(TypeError);
    expect(make({ bits: 0, hashes: 1 })).toThrow(RangeError);
    expect(make({ bits: 2 ** 31, hashes: 1 })).toThrow(RangeError);
    expect(make({ bits: 10, hashes: 65 })).toThrow(/hashes must be an integer in \[1, 64\]/);
    expect(make({ capacity: 1e9, errorRate: 1e-9 })).toThrow(RangeError);
    const bf = new BloomFilter({ bits: 10, hashes: 1 });
    expect(() => bf.add({} as unknown as string)).toThrow(TypeError);
    expect(() => bf.has(null as unknown as string)).toThrow(TypeError);
  });
});

describe("BlockedBloomFilter arguments", () => {
  it("rejects bad options and elements", () => {
    const make = (o: unknown) => () => new BlockedBloomFilter(o as { capacity: number; errorRate: number });
    expect(make(undefined)).toThrow(TypeError);
    expect(make(null)).toThrow(TypeError);
    expect(make({})).toThrow(TypeError);
    expect(make({ capacity: 10 })).toThrow(TypeError);
    expect(make({ capacity: "10", errorRate: 0.1 })).toThrow(TypeError);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(make({ capacity: bad, errorRate: 0.01 })).toThrow(/redstruct\/BlockedBloomFilter: capacity must be/);
      expect(make({ capacity: bad, errorRate: 0.01 })).toThrow(RangeError);
    }
    for (const bad of [0, 1, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(make({ capacity: 10, errorRate: bad })).toThrow(
        /redstruct\/BlockedBloomFilter: errorRate must be a finite number in \(0, 1\)/,
      );
    }
    expect(make({ capacity: 1e9, errorRate: 1e-9 })).toThrow(RangeError);
    const bf = new BlockedBloomFilter({ capacity: 10, errorRate: 0.1 });
    expect(() => bf.add({} as unknown as string)).toThrow(TypeError);
    expect(() => bf.has(null as unknown as string)).toThrow(TypeError);
  });
});

describe("ScalableBloomFilter arguments", () => {
  it("rejects bad options", () => {
    const make = (o: unknown) => () => new ScalableBloomFilter(o as { capacity: number; errorRate: number });
    expect(make(null)).toThrow(TypeError);
    expect(make({ capacity: 0, errorRate: 0.01 })).toThrow(/redstruct\/ScalableBloomFilter: capacity must be/);
    expect(make({ capacity: 10, errorRate: 0 })).toThrow(RangeError);
    expect(make({ capacity: 10, errorRate: 0.01, expansion: 0 })).toThrow(/expansion must be an integer/);
    expect(make({ capacity: 10, errorRate: 0.01, expansion: 1.5 })).toThrow(RangeError);
    expect(make({ capacity: 10, errorRate: 0.01, tightening: 0.6 })).toThrow(
      /tightening must be a number in \(0, 0.5\]/,
    );
    expect(make({ capacity: 10, errorRate: 0.01, tightening: 0 })).toThrow(RangeError);
    expect(make({ capacity: 10, errorRate: 0.01, nonScaling: "yes" })).toThrow(TypeError);
    expect(make({ capacity: 1e9, errorRate: 1e-9 })).toThrow(RangeError);
  });
});

describe("RedisBloomFilter arguments", () => {
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
});

describe("calculator arguments", () => {
  it("rejects bad arguments with RangeError/TypeError naming the parameter", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => bloomParameters(bad, 0.01)).toThrow(/redstruct\/bloom: capacity must be/);
      expect(() => bloomParameters(bad, 0.01)).toThrow(RangeError);
    }
    for (const bad of [0, 1, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => bloomParameters(100, bad)).toThrow(
        /redstruct\/bloom: errorRate must be a finite number in \(0, 1\)/,
      );
      expect(() => bloomParameters(100, bad)).toThrow(RangeError);
    }
    expect(() => bloomParameters("100" as unknown as number, 0.01)).toThrow(TypeError);
    expect(() => bloomParameters(100, "0.01" as unknown as number)).toThrow(TypeError);
    expect(() => optimalHashes(0, 10)).toThrow(RangeError);
    expect(() => optimalHashes(10, 0)).toThrow(RangeError);
    expect(() => falsePositiveRate(100, 0, 10)).toThrow(RangeError);
    expect(() => falsePositiveRate(100, 65, 10)).toThrow(RangeError);
    expect(() => falsePositiveRate(100, 3, -1)).toThrow(RangeError);
    expect(() => capacityForBits(100, 1)).toThrow(RangeError);
    expect(() => errorRateForBits(100, 0)).toThrow(RangeError);
  });
});

describe("detached views are a TypeError naming the parameter, before anything changes", () => {
  for (const kind of kinds) {
    it(`${kind.name}: add, has, addAll, hasAll and fromBytes`, () => {
      const f = kind.make(3) as ReturnType<Kind["make"]> & {
        addAll(v: Iterable<Item>): boolean[];
        hasAll(v: Iterable<Item>): boolean[];
      };
      f.add("a");
      const before = f.toBytes();
      const gone = detached(new Uint8Array([1, 2, 3]));
      const named = new RegExp(`^redstruct/${kind.name}: item is a Uint8Array whose buffer was detached`);
      expect(() => f.add(gone)).toThrow(named);
      expect(() => f.has(gone)).toThrow(named);
      expect(() => f.add(gone)).toThrow(TypeError);
      // In a batch: the items before it stay added, it and the ones after it are not.
      expect(() => f.addAll(["b", gone, "c"])).toThrow(
        new RegExp(`^redstruct/${kind.name}: items\\[1\\] is a Uint8Array whose buffer was detached`),
      );
      expect(() => f.hasAll(["b", gone])).toThrow(/items\[1\] is a Uint8Array whose buffer was detached/);
      expect(f.has("b")).toBe(true);
      expect(f.has("c")).toBe(kind.fromBytes(before).has("c")); // "c" was never added
      expect(() => kind.fromBytes(detached(before))).toThrow(
        new RegExp(`^redstruct/${kind.name}: bytes is a Uint8Array whose buffer was detached`),
      );
    });
  }

  it("RedisBloomFilter.fromRedis: a detached chunk", () => {
    const chunks = new RedisBloomFilter({ capacity: 5 }).toRedis();
    expect(() => RedisBloomFilter.fromRedis([chunks[0]!, [chunks[1]![0], detached(chunks[1]![1])]])).toThrow(
      /^redstruct\/RedisBloomFilter: chunk 1's bytes is a Uint8Array whose buffer was detached/,
    );
    expect(() => RedisBloomFilter.fromRedis([[1, detached(chunks[0]![1])]])).toThrow(TypeError);
  });
});

describe("no add fails after taking its item partway", () => {
  // Error shares from ordinary to underflowing; capacities and expansions small enough that the links
  // that do exist stay a few MB (at an error share near 5e-324 a link takes ~7·10^6 bits per item).
  const extremes = fc.record({
    capacity: fc.integer({ min: 1, max: 4 }),
    errorRate: fc.oneof(fc.double({ min: 1e-12, max: 0.5, noNaN: true }), fc.constantFrom(0.5, 1e-100, 1e-300)),
    expansion: fc.integer({ min: 1, max: 2 }),
    tightening: fc.oneof(
      fc.double({ min: 1e-3, max: 0.5, noNaN: true }),
      fc.double({ min: 1e-200, max: 1e-100, noNaN: true }),
      fc.constantFrom(1e-200, 1e-160, 1e-20, 0.5),
    ),
    nonScaling: fc.boolean(),
  });

  it("ScalableBloomFilter: what can never grow is refused at construction, naming the option; what is built grows or throws cleanly", () => {
    let built = 0;
    let refused = 0;
    fc.assert(
      fc.property(extremes, fc.nat(1000), (opts, seed) => {
        let sbf: ScalableBloomFilter;
        try {
          sbf = new ScalableBloomFilter(opts);
        } catch (e) {
          expect(e).toBeInstanceOf(RangeError);
          expect((e as Error).message).toMatch(
            /^redstruct\/ScalableBloomFilter: (capacity|expansion|tightening|errorRate × tightening) must be/,
          );
          refused++;
          return;
        }
        built++;
        // capacity + 1 distinct items: a scaling chain grows a second link; a non-scaling one may refuse.
        let added = 0;
        for (let i = 0; added <= opts.capacity && i < 10 * opts.capacity + 50; i++) {
          const v = `${seed}:${i}`;
          // Only a full non-scaling chain may refuse an item: keep its bytes to compare.
          const before = opts.nonScaling && sbf.size >= opts.capacity ? sbf.toBytes() : undefined;
          try {
            if (sbf.add(v)) added++;
          } catch (e) {
            expect(opts.nonScaling).toBe(true);
            expect(e).toBeInstanceOf(RangeError);
            expect(sameBytes(sbf.toBytes(), before!)).toBe(true); // nothing of the item was taken
            expect(sbf.has(v)).toBe(false);
            return;
          }
        }
        sbf.checkInvariants();
        if (!opts.nonScaling) expect(sbf.filters).toBe(2);
      }),
      { seed: 2405, numRuns: 150 },
    );
    expect(built).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(15);
  });

  it("ScalableBloomFilter: tightening 1e-200, whose second link could never exist, is a RangeError naming tightening", () => {
    expect(() => new ScalableBloomFilter({ capacity: 100, errorRate: 0.01, tightening: 1e-200 })).toThrow(
      /^redstruct\/ScalableBloomFilter: tightening must be one that leaves room for a second link .*underflows.*got 1e-200/,
    );
    // The same filter that never grows is fine: only its first link must exist.
    const fixed = new ScalableBloomFilter({ capacity: 100, errorRate: 0.01, tightening: 1e-200, nonScaling: true });
    expect(fixed.addAll(["a", "b"])).toEqual([true, true]);
    expect(() => new ScalableBloomFilter({ capacity: 2 ** 20, errorRate: 0.01, expansion: 1024 })).toThrow(
      /^redstruct\/ScalableBloomFilter: expansion must be one that leaves room for a second link/,
    );
  });

  it("RedisBloomFilter and ScalableBloomFilter: a full non-scaling filter's add and addAll leave it as the items before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(anyItem, { maxLength: 60 }), (capacity, items) => {
        for (const f of [
          new RedisBloomFilter({ capacity, nonScaling: true, errorRate: 0.1 }),
          new ScalableBloomFilter({ capacity, nonScaling: true, errorRate: 0.1 }),
        ]) {
          const twin = f.clone();
          let failed: Item | undefined;
          try {
            f.addAll(items);
          } catch (e) {
            expect(e).toBeInstanceOf(RangeError);
            for (const v of items) {
              try {
                twin.add(v);
              } catch {
                failed = v;
                break;
              }
            }
          }
          if (failed === undefined) twin.addAll(items);
          expect(f.toBytes()).toEqual(twin.toBytes());
          if (failed !== undefined) expect(f.has(failed)).toBe(false);
        }
      }),
      { seed: 2406, numRuns: 100 },
    );
  });
});

describe("re-entrant iterators: a generator that calls back into the filter between items", () => {
  it("addAll / hasAll on every filter give what the same calls made one after another give", () => {
    type Bulk = ReturnType<Kind["make"]> & {
      addAll(v: Iterable<Item>): boolean[];
      hasAll(v: Iterable<Item>): boolean[];
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(anyItem, anyItem), { maxLength: 25 }), fc.nat(20), (pairs, seed) => {
        for (const kind of kinds) {
          const f = kind.make(seed) as Bulk;
          const twin = kind.make(seed) as Bulk;
          // Between two items the generator adds one item and asks about another.
          const inner: boolean[] = [];
          const reentrant = function* () {
            for (const [outer, side] of pairs) {
              inner.push(f.add(side), f.has(outer));
              yield outer;
            }
          };
          const got = f.addAll(reentrant());
          const want: boolean[] = [];
          const wantInner: boolean[] = [];
          for (const [outer, side] of pairs) {
            wantInner.push(twin.add(side), twin.has(outer));
            want.push(twin.add(outer));
          }
          expect(got).toEqual(want);
          expect(inner).toEqual(wantInner);
          expect(sameBytes(f.toBytes(), twin.toBytes())).toBe(true);
          const asked: boolean[] = [];
          const queries = function* () {
            for (const [outer, side] of pairs) {
              asked.push(f.has(side));
              yield outer;
            }
          };
          expect(f.hasAll(queries())).toEqual(pairs.map(([outer]) => twin.has(outer)));
          expect(asked).toEqual(pairs.map(([, side]) => twin.has(side)));
        }
      }),
      { seed: 2407, numRuns: 80 },
    );
  });

  it("merge / union / intersect read their iterable whole before changing anything", () => {
    const a = BloomFilter.from(["a"], { errorRate: 0.01, capacity: 50 });
    const b = BloomFilter.from(["b"], { errorRate: 0.01, capacity: 50 });
    const sneaky = function* () {
      yield b;
      a.add("during"); // the target changes while the arguments are read
      yield BloomFilter.from(["c"], { errorRate: 0.01, capacity: 50 });
    };
    a.merge(sneaky());
    expect(a.hasAll(["a", "b", "c", "during"])).toEqual([true, true, true, true]);
    a.checkInvariants();
    const u = BloomFilter.union(
      (function* () {
        yield a;
        b.add("late");
        yield b;
      })(),
    );
    expect(u.hasAll(["a", "late"])).toEqual([true, true]);
    u.checkInvariants();
  });
});

describe("JSON", () => {
  it("JSON.stringify of any filter is a TypeError that says to send toBytes()", () => {
    for (const kind of kinds) {
      const f = kind.make(1);
      expect(() => JSON.stringify(f)).toThrow(TypeError);
      expect(() => JSON.stringify({ f })).toThrow(
        new RegExp(
          `^redstruct/${kind.name}: a ${kind.name} is not JSON .*send toBytes\\(\\) and rebuild it with ${kind.name}\\.fromBytes\\(\\)`,
        ),
      );
    }
  });
});
