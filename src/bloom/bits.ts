/**
 * What the filters share (internal): for the two fixed-size ones (BloomFilter, BlockedBloomFilter)
 * the population count of their words, the bound on the item count a fill allows, the word-wise
 * OR/AND of a merge, the checks of the filters handed to `merge` / `union` / `intersect` and the
 * options of `from`; for all four, the check of each item of a bulk call.
 */
import { checkItem, type Item } from "../hash/element.js";
import { checkInstance, checkIterable, checkOptions } from "../internal/options.js";
import { checkCapacity, checkErrorRate } from "./params.js";

/**
 * `items[i]` of a bulk call (addAll, hasAll) when it is an item; a TypeError naming `items[i]`
 * otherwise. The message is built only on failure: no allocation per item.
 */
export function itemAt(where: string, item: unknown, i: number): Item {
  if (typeof item === "string" || typeof item === "number" || typeof item === "bigint") return item;
  if (item instanceof Uint8Array && item.length !== 0) return item;
  return checkItem(where, `items[${i}]`, item);
}

/** Bytes of the serialized header of both fixed-size filters ("RSBF", "RSBB"), before the words. */
export const HEADER_BYTES = 40;

/** Population count of a 32-bit word (SWAR). */
function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** Number of set bits in `words[from, to)`. */
export function popcount(words: Uint32Array, from = 0, to = words.length): number {
  let n = 0;
  for (let i = from; i < to; i++) n += popcount32(words[i]!);
  return n;
}

/**
 * The fill counters every filter keeps beside its words: `setBits` is their population count, and
 * `items` is an integer in [1, maxItems] when some bit is set, 0 when none is. Throws through `fail`.
 */
export function checkFillCounters(
  words: Uint32Array,
  setBits: number,
  items: number,
  maxItems: number,
  fail: (msg: string) => never,
): void {
  const set = popcount(words);
  if (set !== setBits) fail(`setBits ${setBits} but ${set} bits are set`);
  if (!Number.isInteger(items) || items < 0) fail(`items ${items}`);
  if ((set === 0) !== (items === 0)) fail(`items ${items} with ${set} bits set`);
  if (items > maxItems) fail(`items ${items} with ${set} bits set (at most ${maxItems} can be)`);
}

/**
 * The most items a filter whose fill is `setBits` plus `excess` can report. Each add that returns
 * true sets at least one new bit, so adds alone give items ≤ X (set bits). A merge sets items to the
 * rounded fill estimate n̂(X₀), which exceeds X₀ when the filter is overfull; later adds raise items
 * and X alike. n̂(x) − x is convex and 0 at x = 0, so its positive part g⁺ never falls as bits are
 * set: items ≤ X + g⁺ + ½, with g⁺ taken at the current fill (`excess`, see the callers). Rounding
 * slack (relative 2^-40) keeps a float's last bit from refusing a true header.
 */
export function maxItemsFor(setBits: number, excess: number): number {
  return setBits === 0 ? 0 : Math.floor(setBits + excess * (1 + 2 ** -40) + 0.5 + 1e-9);
}

/**
 * g⁺(x) = max(0, n̂(x) − x) for a run of `size` bits probed `hashes` times, at x = min(set, size − 1):
 * a merge at full fill makes items = size exactly (itemsAfterMerge), a case the callers bound apart.
 */
export function fillExcess(set: number, size: number, hashes: number): number {
  const x = Math.min(set, size - 1);
  const g = (-size / hashes) * Math.log1p(-x / size) - x;
  return g > 0 ? g : 0;
}

/**
 * The item count a filter reports after a merge that set or cleared bits, where the exact figure is
 * unknowable: the fill estimate, at least 1 when any bit is set (so "set bits ⇔ items" survives a
 * round trip), and the bit count once the estimate is infinite (every bit, or a block, full).
 */
export function itemsAfterMerge(setBits: number, estimate: number, bits: number): number {
  if (setBits === 0) return 0;
  return Number.isFinite(estimate) ? Math.max(1, Math.round(estimate)) : bits;
}

/** `a[i] |= b[i]` (union) or `a[i] &= b[i]` (intersection) over equal-length word arrays. */
function mergeWords(a: Uint32Array, b: Uint32Array, op: "union" | "intersect"): void {
  if (op === "union") for (let i = 0; i < a.length; i++) a[i] = a[i]! | b[i]!;
  else for (let i = 0; i < a.length; i++) a[i] = a[i]! & b[i]!;
}

/** What the shared merge code needs of a fixed-size filter's public side. */
interface Combinable<T> {
  readonly setBits: number;
  count(): number;
  clone(): T;
}

/**
 * A fixed-size filter class as the shared merge code sees it: the class, its brand check, and
 * access to the private state a merge reads and writes (set in the class's static block).
 */
export interface FilterClass<T> {
  /** The class, for `instanceof` and the other-copy check. */
  readonly type: abstract new (
    ...args: never[]
  ) => T;
  /** True only for an object the class's constructor built (its private fields exist). */
  is(value: unknown): value is T;
  /** Throws a RangeError naming `param` unless `other` has `target`'s shape (same positions). */
  checkShape(target: T, other: T, param: string): void;
  /** The filter's words. */
  words(filter: T): Uint32Array;
  /** Sets the fill counters after the words changed: `setBits`, and the item count from the fill. */
  refill(filter: T, setBits: number): void;
}

/**
 * ORs (union) or ANDs (intersect) `others` into `target`. When that set or cleared a bit, the item
 * count becomes the fill estimate; when it changed nothing, the filter and its count are as they were.
 */
function combineInto<T extends Combinable<T>>(
  filter: FilterClass<T>,
  target: T,
  others: readonly T[],
  op: "union" | "intersect",
): void {
  const words = filter.words(target);
  for (const other of others) if (other !== target) mergeWords(words, filter.words(other), op);
  const set = popcount(words);
  // OR only sets bits and AND only clears them: the same count means the same words.
  if (set !== target.setBits) filter.refill(target, set);
}

/**
 * `merge(...others)` of a fixed-size filter: checks every argument (a filter of this class and
 * shape, given as arguments or as one iterable) before ORing any of them into `target`.
 */
export function mergeInto<T extends Combinable<T>>(
  where: string,
  filter: FilterClass<T>,
  target: T,
  args: readonly unknown[],
): void {
  const others = mergeArguments(where, args, filter);
  for (let i = 0; i < others.length; i++) filter.checkShape(target, others[i]!, `others[${i}]`);
  combineInto(filter, target, others, "union");
}

/**
 * The static `union` / `intersect` of a fixed-size filter: a copy of the first filter with the
 * others ORed or ANDed in, after checking every one; the inputs are not changed.
 */
export function combined<T extends Combinable<T>>(
  where: string,
  filter: FilterClass<T>,
  op: "union" | "intersect",
  filters: unknown,
  argumentCount: number,
): T {
  const list = combineArguments(where, op, filters, argumentCount, filter);
  const first = list[0]!;
  for (let i = 1; i < list.length; i++) filter.checkShape(first, list[i]!, `filters[${i}]`);
  const out = first.clone();
  combineInto(filter, out, list.slice(1), op);
  return out;
}

/**
 * `value` when it is a filter of `filter.type` that its constructor built. An object that only
 * shares the prototype (`Object.create(BloomFilter.prototype)`) passes `instanceof` but has none of
 * the private state: it is named here, not left to fail later as "Cannot read private member".
 * @throws TypeError naming `param`.
 */
function checkFilter<T>(where: string, param: string, value: unknown, filter: FilterClass<T>): T {
  if (filter.is(value)) return value;
  if (value instanceof filter.type) {
    throw new TypeError(
      `redstruct/${where}: ${param} has ${where}.prototype but was not built by new ${where}() ` +
        `(an Object.create(${where}.prototype)?); build it with new ${where}() or ${where}.fromBytes()`,
    );
  }
  return checkInstance(where, param, value, filter.type);
}

/**
 * The filters given to `merge(...others)`: the arguments themselves, or the elements of one
 * iterable argument (a filter is not iterable, so the two forms cannot be confused). Every one is
 * checked before the caller changes anything.
 */
function mergeArguments<T>(where: string, args: readonly unknown[], filter: FilterClass<T>): T[] {
  let list: readonly unknown[] = args;
  const only = args[0];
  if (
    args.length === 1 &&
    only !== null &&
    typeof only === "object" &&
    typeof (only as Iterable<unknown>)[Symbol.iterator] === "function"
  ) {
    list = Array.from(checkIterable(where, "others", only as Iterable<unknown>));
  }
  return list.map((x, i) => checkFilter(where, `others[${i}]`, x, filter));
}

/**
 * The filters given to a static `union` / `intersect`: one iterable of at least one filter. Filters
 * passed as separate arguments are refused with the array form spelled out.
 * @throws TypeError for separate arguments, a non-iterable or a non-filter; RangeError for none.
 */
function combineArguments<T>(
  where: string,
  method: string,
  filters: unknown,
  argumentCount: number,
  filter: FilterClass<T>,
): T[] {
  if (argumentCount > 1 || filters instanceof filter.type) {
    throw new TypeError(
      `redstruct/${where}: ${method} takes one iterable of filters, got ${argumentCount === 1 ? `a ${where}` : `${argumentCount} arguments`}; ` +
        `pass them in an array: ${where}.${method}([a, b])`,
    );
  }
  const list = Array.from(checkIterable(where, "filters", filters as Iterable<unknown>), (x, i) =>
    checkFilter(where, `filters[${i}]`, x, filter),
  );
  if (list.length === 0) {
    throw new RangeError(`redstruct/${where}: filters must hold at least one ${where}, got none`);
  }
  return list;
}

/** Options of {@link BloomFilter.from} and {@link BlockedBloomFilter.from}. */
export interface BloomFilterFromOptions {
  /**
   * Target false-positive rate at `capacity` items, 0 < p < 1.
   * @defaultValue 0.01 (the rate BF.ADD's auto-created filter has)
   */
  errorRate?: number;
  /**
   * Items the filter is sized for, a positive integer.
   * @defaultValue the number of items given (at least 1)
   */
  capacity?: number;
}

/**
 * The validated options of a `from` and the items to add (read into an array only when the capacity
 * must be counted from them). Options are checked before the items are read.
 */
export function fromArguments(
  where: string,
  items: Iterable<Item>,
  options: BloomFilterFromOptions | undefined,
): { items: Iterable<Item>; capacity: number; errorRate: number } {
  const o = checkOptions<BloomFilterFromOptions>(where, options, ["errorRate", "capacity"]);
  const errorRate = o.errorRate === undefined ? 0.01 : checkErrorRate(where, o.errorRate);
  let capacity = o.capacity === undefined ? undefined : checkCapacity(where, o.capacity);
  checkIterable(where, "items", items);
  if (capacity === undefined) {
    items = Array.isArray(items) ? items : Array.from(items);
    capacity = Math.max(1, (items as Item[]).length);
  }
  return { items, capacity, errorRate };
}
