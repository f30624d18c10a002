/**
 * Classes of careless or hostile input to the Bloom filters, each tested as a class:
 * - headers that cannot be true (more items than the set bits could hold, error rates stored as −0,
 *   NaN or out of range) are a RedstructFormatError, and whatever loads writes back the same bytes;
 * - options objects are checked (unknown keys, null, non-boolean flags), bulk inputs must be sync
 *   iterables of items, merge/union/intersect arguments are checked as instances;
 * - every bad argument gets a message naming the parameter at fault, never an engine message.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockedBloomFilter, BloomFilter, ScalableBloomFilter } from "../../src/bloom/index.js";
import { RedstructFormatError } from "../../src/internal/errors.js";

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
