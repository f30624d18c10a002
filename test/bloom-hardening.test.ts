/**
 * Classes of careless or hostile input to the Bloom filters, each tested as a class:
 * - headers that cannot be true (more items than the set bits could hold, error rates stored as −0,
 *   NaN or out of range) are a RedstructFormatError, and whatever loads writes back the same bytes;
 * - options objects are checked (unknown keys, null, non-boolean flags), bulk inputs must be sync
 *   iterables of elements, union/intersect arguments are checked as instances;
 * - every bad argument gets a message naming the parameter at fault, never an engine message.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockedBloomFilter, BloomFilter, ScalableBloomFilter } from "../src/bloom/index.js";
import { RedstructFormatError } from "../src/internal/errors.js";

type Filter = BloomFilter | BlockedBloomFilter;

/** Operations on a small filter, overfilling it on purpose: adds, unions and intersections with a twin, clears. */
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("add" as const), n: fc.integer({ min: 1, max: 300 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("union" as const), n: fc.integer({ min: 0, max: 600 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("intersect" as const), n: fc.integer({ min: 0, max: 600 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("clear" as const), n: fc.constant(0) }) },
);

function run(make: () => Filter, ops: { kind: string; n: number }[], seed: number): Filter {
  const f = make();
  let next = seed * 1_000_000;
  for (const { kind, n } of ops) {
    if (kind === "clear") f.clear();
    else if (kind === "add") for (let i = 0; i < n; i++) f.add(next++);
    else {
      const other = make();
      for (let i = 0; i < n; i++) other.add(next++);
      if (kind === "union") (f as BloomFilter).union(other as BloomFilter);
      else (f as BloomFilter).intersect(other as BloomFilter);
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
    "%s: any history of adds, unions, intersections and clears stays loadable and within its item bound",
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
