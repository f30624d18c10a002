/**
 * What HyperLogLog, UltraLogLog and ExaLogLog share besides the estimators, the bounds and the
 * martingale: how an item is hashed and how a 64-bit hash splits into a register index and a run,
 * the check of a caller's hash halves, `addAll`'s loop, the ceiling on every estimate, and the checks
 * of the sketches handed to `merge` and `union`.
 */
import { checkItem } from "../hash/element.js";
import { type Item, murmur64aInto } from "../hash/index.js";
import { describe, rangeError, typeError } from "../internal/errors.js";
import { checkInstance, checkIterable } from "../internal/options.js";

/** Where {@link hashItem} writes an item's hash: [bits 0..31, bits 32..63]. */
const itemHash = new Uint32Array(2);

/**
 * Hashes `item` as Redis's `PFADD` does (MurmurHash64A, seed 0xadc83b19, over the bytes Redis would
 * store for it) after checking it, into a two-word scratch that the next call overwrites: the caller
 * reads `[low, high]` at once. No allocation.
 * @throws TypeError naming `item`, before anything changes, when it is not an item.
 */
export function hashItem(where: string, item: Item): Uint32Array {
  murmur64aInto(checkItem(where, "item", item), itemHash, 0, 0xadc83b19);
  return itemHash;
}

/**
 * Adds every item of `items` to `sketch`, in order, through its `add` (`PFADD key item1 item2 …`).
 * @returns true when at least one register changed.
 * @throws TypeError when `items` is not a sync iterable (a lone string included), or at the first
 *   item that `add` refuses (the items before it stay added).
 */
export function addEach(where: string, sketch: { add(item: Item): boolean }, items: Iterable<Item>): boolean {
  checkIterable(where, "items", items);
  let changed = false;
  for (const item of items) if (sketch.add(item)) changed = true;
  return changed;
}

/**
 * The largest estimate either sketch answers: 2^64, the number of distinct 64-bit hashes. Past it
 * distinct items necessarily share a hash, so no sketch over a 64-bit hash can tell more apart. The
 * estimators reach it only on saturated registers (every register at or near the longest run, which
 * `addHash` or crafted bytes can produce and hashing ~2^64 distinct items would): Ertl's estimator
 * and maximum likelihood diverge there, the others overshoot it.
 */
export const MAX_ESTIMATE = 2 ** 64;

/**
 * The run a 64-bit hash (`low`, `high` halves) contributes at precision `p`, as Redis computes it
 * (hllPatLen): the trailing zeros of `hash >> p` with a sentinel bit at 64 − p, plus one, so
 * 1..65 − p. The register index is the hash's low `p` bits.
 */
export function hashRun(low: number, high: number, p: number): number {
  const rest = low >>> p;
  if (rest !== 0) return 32 - Math.clz32(rest & -rest);
  if (high !== 0) return 64 - p - Math.clz32(high & -high);
  return 65 - p;
}

/**
 * Checks that a sketch at precision `p` has a HyperLogLog counterpart (HyperLogLog's precisions are
 * 4..18), for `toHyperLogLog()`.
 * @param downsize how this sketch reaches precision 18, for the message (e.g. "downsize(18)").
 * @throws RangeError naming the precision.
 */
export function checkHyperLogLogPrecision(where: string, p: number, downsize: string): void {
  if (p >= 4 && p <= 18) return;
  const how = p > 18 ? `; ${downsize} first` : "";
  throw rangeError(where, "precision", p, `4..18 for a HyperLogLog (HyperLogLog's precisions)${how}`);
}

/**
 * Checks a caller's hash halves (`addHash(low, high)`): `typeof x === "number" && x >>> 0 === x`
 * holds exactly for the integers in [0, 2^32), so NaN, fractions, negatives and non-numbers are
 * refused. Small enough for the engine to inline into each `addHash`; the message is built apart.
 * @throws TypeError when a half is not a number, RangeError when it is not an integer in [0, 2^32).
 */
export function checkHalves(where: string, low: unknown, high: unknown): void {
  if (!(typeof low === "number" && low >>> 0 === low && typeof high === "number" && high >>> 0 === high)) {
    throw halvesError(where, low, high);
  }
}

/** The error for hash halves that {@link checkHalves} refused: it names the first bad half. */
function halvesError(where: string, low: unknown, high: unknown): TypeError | RangeError {
  const [param, x] = typeof low === "number" && low >>> 0 === low ? ["high", high] : ["low", low];
  if (typeof x !== "number") return typeError(where, param, x, "an integer in [0, 2^32)");
  return rangeError(where, param, x, "an integer in [0, 2^32)");
}

/** A sketch class: its constructor (for `instanceof` and its name). */
type SketchClass<T> = abstract new (...args: never[]) => T;

/**
 * Returns `value` when it is a sketch of class `type` built by that class, which `branded` (the
 * class's private-field test, `#p in v`) tells apart from an object that only has the prototype —
 * `Object.create(HyperLogLog.prototype)`, or a `structuredClone` / `postMessage` copy given its
 * prototype back — and would otherwise fail deep inside with the engine's "Cannot read private member".
 * @throws TypeError naming the parameter (and a sketch from another copy of redstruct as such).
 */
export function checkSketch<T>(
  where: string,
  param: string,
  value: unknown,
  type: SketchClass<T>,
  branded: (v: object) => boolean,
): T {
  const sketch = checkInstance(where, param, value, type);
  if (!branded(sketch as object)) {
    throw new TypeError(
      `redstruct/${where}: ${param} has the ${type.name} prototype but no ${type.name} state (made by ` +
        `Object.create(${type.name}.prototype), or a structuredClone/postMessage copy given the prototype ` +
        `back?); build sketches with new ${type.name}(), ${type.name}.from() or ${type.name}.fromBytes()`,
    );
  }
  return sketch;
}

/**
 * The sketches passed to `merge`: the arguments themselves, or the elements of one iterable argument
 * (a sketch is not iterable, so the two forms cannot be confused), each checked with
 * {@link checkSketch} before any is used.
 */
export function mergeArguments<T>(
  where: string,
  args: readonly unknown[],
  type: SketchClass<T>,
  branded: (v: object) => boolean,
): T[] {
  let list: readonly unknown[] = args;
  if (args.length === 1 && !(args[0] instanceof type)) {
    const only = args[0];
    if (only !== null && typeof only === "object" && Symbol.iterator in only) {
      list = Array.from(checkIterable(where, "merge argument", only as Iterable<unknown>));
    }
  }
  return list.map((s, i) => checkSketch(where, `merge argument ${i}`, s, type, branded));
}

/**
 * The sketches passed to the static `union(sketches)`: one iterable of at least one sketch, each
 * checked with {@link checkSketch}. Sketches passed as separate arguments (`union(a, b)`) are refused
 * with a message that shows the array form.
 * @throws TypeError for separate arguments, a non-iterable or a non-sketch; RangeError for none.
 */
export function unionArguments<T>(
  where: string,
  args: readonly unknown[],
  type: SketchClass<T>,
  branded: (v: object) => boolean,
): T[] {
  const first = args[0];
  const looksLikeSketch = (v: unknown) =>
    v instanceof type ||
    (v !== null &&
      typeof v === "object" &&
      (v as { constructor?: { name?: unknown } }).constructor?.name === type.name);
  const extra = args.slice(1).some((a) => a !== undefined);
  if (extra || looksLikeSketch(first)) {
    const one = `${/^[AEIOU]/.test(type.name) ? "an" : "a"} ${type.name}`;
    const shown = args.map((a) => (looksLikeSketch(a) ? one : describe(a))).join(", ");
    throw new TypeError(
      `redstruct/${where}: sketches must be one iterable of sketches, as in ${where}.union([a, b]) ` +
        `(not ${where}.union(a, b)); got ${args.length === 1 ? shown : `${args.length} arguments: ${shown}`}`,
    );
  }
  const list = Array.from(checkIterable(where, "sketches", first as Iterable<unknown>));
  if (list.length === 0) {
    throw new RangeError(`redstruct/${where}: sketches must hold at least one ${type.name}, got an empty iterable`);
  }
  return list.map((s, i) => checkSketch(where, `sketches[${i}]`, s, type, branded));
}
