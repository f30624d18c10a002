/**
 * Count-Min sketch, exact with RedisBloom 2.4's CMS.* (src/cms.c): the same counters, the same
 * hashing, the same replies, so a stream counted here and in Redis gives the same estimates.
 *
 * Algorithm: Cormode & Muthukrishnan, "An improved data stream summary: the count-min sketch and its
 * applications" (2005). `depth` rows of `width` unsigned 32-bit counters; row i counts an item in
 * column MurmurHash2(item, seed i) mod width. An estimate is the minimum over the rows, so it never
 * under-counts; with width = ⌈2/ε⌉ and depth = ⌈log₁₀ δ / log₁₀ 0.5⌉ (CMS.INITBYPROB) it exceeds the
 * true count by more than ε·N (N the total count) with probability at most δ.
 *
 * RedisBloom facts matched here: a counter saturates at 2^32−1 instead of wrapping (CMS.INCRBY then
 * reports "CMS: INCRBY overflow"; {@link CountMinSketch.incrBy} returns {@link CMS_SATURATED}); the
 * total count (the sketch's `size`, CMS.INFO "count") is a 64-bit two's-complement integer that grows
 * by every increment, saturated or not; CMS.MERGE computes Σ weight·source in 64-bit integers and
 * refuses, leaving the destination alone, when a counter falls outside [0, 2^32−1] or the total goes
 * negative. `union` is CMS.MERGE into a new sketch; `merge` is CMS.MERGE with this sketch listed
 * first and every weight 1, so it adds the others in place.
 *
 * Memory layout: one `Uint32Array` of depth·width counters, row-major (row i at [i·width, (i+1)·width)),
 * as RedisBloom lays its array out; the total count as two uint32 halves (no BigInt on the hot path).
 *
 * Invariants: width ≥ 1, depth ≥ 1, width·depth ≤ {@link CMS_MAX_COUNTERS}; counters are integers in
 * [0, 2^32−1]; the total is 64 bits.
 *
 * Costs: incrBy and count O(depth · |item|), no allocation for ASCII strings, numbers and byte arrays;
 * merge and union O(width · depth · sketches); toBytes / fromBytes / clone O(width · depth).
 */

import { checkItem, encodeScratch, type Item, type Source, scratchBytes, sourceOf } from "../hash/element.js";
import { murmur2Source } from "../hash/murmur2.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import {
  checkInteger,
  describe,
  formatError,
  invariantFailure,
  notJson,
  rangeError,
  typeError,
} from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkInstance, checkIterable, checkOptions } from "../internal/options.js";

const WHERE = "CountMinSketch";

/** The value a saturated counter holds (2^32 − 1); RedisBloom reports it as "CMS: INCRBY overflow". */
export const CMS_SATURATED = 0xffffffff;

/** Largest width·depth accepted (2^28 counters, 1 GiB): a typed array must hold them. */
export const CMS_MAX_COUNTERS = 2 ** 28;

/** Largest increment RedisBloom parses (2^63 − 1, LLONG_MAX). */
const MAX_INCREMENT = (1n << 63n) - 1n;
const TWO32 = 0x100000000;

/**
 * Options of {@link CountMinSketch}: its dimensions (CMS.INITBYDIM) or the guarantee they give
 * (CMS.INITBYPROB) — one pair or the other, never a mix.
 */
export type CountMinSketchOptions =
  | {
      /** Counters per row, ≥ 1 (CMS.INITBYDIM width). */
      width: number;
      /** Rows, ≥ 1 (CMS.INITBYDIM depth); width·depth ≤ {@link CMS_MAX_COUNTERS}. */
      depth: number;
      /** Not with `width` and `depth`: `{ error, probability }` is the other form. */
      error?: never;
      /** Not with `width` and `depth`: `{ error, probability }` is the other form. */
      probability?: never;
    }
  | {
      /** Overestimate bound, as a fraction of the total count, in (0, 1) (CMS.INITBYPROB error). */
      error: number;
      /** Probability of exceeding that bound, in (0, 1) (CMS.INITBYPROB probability). */
      probability: number;
      /** Not with `error` and `probability`: `{ width, depth }` is the other form. */
      width?: never;
      /** Not with `error` and `probability`: `{ width, depth }` is the other form. */
      depth?: never;
    };

/** Options of {@link CountMinSketch.union}. */
export interface CountMinSketchUnionOptions {
  /** One safe integer per sketch, negative allowed (CMS.MERGE WEIGHTS). @defaultValue every weight 1 */
  weights?: Iterable<number>;
}

/** What {@link CountMinSketch.info} returns: CMS.INFO's fields. */
export interface CountMinSketchInfo {
  /** CMS.INFO "width": counters per row. */
  width: number;
  /** CMS.INFO "depth": rows. */
  depth: number;
  /** CMS.INFO "count": the total of every increment, as {@link CountMinSketch.size} gives it. */
  size: number;
}

/**
 * Dimensions CMS.INITBYPROB picks for an overestimate `error` (fraction of the total count) with
 * probability `probability` of exceeding it: width = ⌈2 / error⌉, depth = ⌈log₁₀ probability /
 * log₁₀ 0.5⌉ computed in single precision as RedisBloom does (C's `log10f`).
 * @throws RangeError unless 0 < error < 1 and 0 < probability < 1.
 */
export function cmsDimensions(
  error: number,
  probability: number,
): {
  /** Counters per row: ⌈2 / error⌉. */
  width: number;
  /** Rows: ⌈log10(probability) / log10(0.5)⌉ in single precision. */
  depth: number;
} {
  if (typeof error !== "number") throw typeError(WHERE, "error", error, "a number in (0, 1)");
  if (!(error > 0 && error < 1)) throw rangeError(WHERE, "error", error, "a number in (0, 1)");
  if (typeof probability !== "number") throw typeError(WHERE, "probability", probability, "a number in (0, 1)");
  if (!(probability > 0 && probability < 1)) {
    throw rangeError(WHERE, "probability", probability, "a number in (0, 1)");
  }
  const f = Math.fround;
  const width = Math.ceil(2 / error);
  const depth = Math.ceil(f(f(Math.log10(f(probability))) / f(Math.log10(0.5))));
  return { width, depth };
}

/**
 * A Count-Min sketch exact with RedisBloom's CMS.* commands: approximate counts per item in a fixed
 * width × depth table, never below the true count.
 */
export class CountMinSketch {
  /** Counters per row. */
  readonly width: number;
  /** Rows (independent hashes). */
  readonly depth: number;
  #counters: Uint32Array;
  /** Scratch: the item's counter in each row, written by #locate (so no call allocates). */
  readonly #cells: Int32Array;
  #countLo = 0; // total count, low 32 bits (unsigned)
  #countHi = 0; // total count, high 32 bits (unsigned; the sign is bit 31)

  /**
   * An empty sketch: `{ width, depth }` gives its dimensions (CMS.INITBYDIM); `{ error, probability }`
   * picks them so that an estimate exceeds the true count by more than error·(total count) with
   * probability at most `probability` (CMS.INITBYPROB, dimensions from {@link cmsDimensions}).
   * O(width · depth).
   * @example new CountMinSketch({ error: 0.001, probability: 0.01 }) // 2000 × 7
   * @throws TypeError unless `options` is one of the two pairs (a mix, a missing half or an unknown
   *   key is named); RangeError for a width or depth that is not an integer ≥ 1, an error or
   *   probability outside (0, 1), or more than {@link CMS_MAX_COUNTERS} counters.
   */
  constructor(options: CountMinSketchOptions) {
    const [width, depth] = dimensionsOf(options);
    this.width = width;
    this.depth = depth;
    this.#cells = new Int32Array(depth);
    this.#counters = new Uint32Array(width * depth);
  }

  /**
   * A sketch of the given dimensions that has counted each of `items` once, in order (CMS.INITBYDIM
   * or CMS.INITBYPROB, then CMS.INCRBY item 1 for each). O(items · depth).
   * @throws TypeError for a non-iterable (a lone string included) or a non-item, naming its index;
   *   as the constructor for `options`.
   */
  static from(items: Iterable<Item>, options: CountMinSketchOptions): CountMinSketch {
    checkIterable(WHERE, "items", items);
    const s = new CountMinSketch(options);
    let i = 0;
    for (const item of items) {
      s.incrBy(typeof item === "string" ? item : checkItem(WHERE, `items[${i}]`, item), 1);
      i++;
    }
    return s;
  }

  // --- counting -------------------------------------------------------------------------------

  /**
   * The item's counter in each row — row i hashes with MurmurHash2 seeded i, mod width — into
   * #cells. A non-ASCII string is encoded once, at the first row that needs its bytes.
   */
  #locate(src: Source): Int32Array {
    const cells = this.#cells;
    const width = this.width;
    let bytes: Source = src;
    let len = src.length;
    for (let i = 0; i < cells.length; i++) {
      let h = murmur2Source(bytes, len, i);
      if (h < 0) {
        len = encodeScratch(src as string);
        bytes = scratchBytes();
        h = murmur2Source(bytes, len, i);
      }
      cells[i] = i * width + (h % width);
    }
    return cells;
  }

  /**
   * CMS.INCRBY: adds `n` to the item's counter in every row and returns the new estimate (the minimum
   * over the rows). A counter that would pass 2^32 − 1 stays at 2^32 − 1; a return of
   * {@link CMS_SATURATED} is what RedisBloom reports as "CMS: INCRBY overflow" (the increment is
   * applied all the same). The total count ({@link size}) grows by `n` in 64-bit arithmetic.
   * O(depth · |item|), no allocation.
   * @param n a safe integer ≥ 0, or a bigint in [0, 2^63 − 1] (RedisBloom's range).
   * @throws TypeError for a non-item or an `n` that is neither a number nor a bigint; RangeError for
   *   an `n` out of range. Nothing changes when it throws.
   */
  incrBy(item: Item, n: number | bigint): number {
    // A string needs no check: the hot path skips the call.
    const src = typeof item === "string" ? item : sourceOf(checkItem(WHERE, "item", item));
    let add: number;
    if (typeof n === "number") {
      if (!Number.isSafeInteger(n) || n < 0) throw rangeError(WHERE, "n", n, "a safe integer ≥ 0 or a bigint");
      add = n;
      const lo = this.#countLo + (n % TWO32);
      this.#countLo = lo >>> 0;
      this.#countHi = (this.#countHi + Math.floor(n / TWO32) + (lo >= TWO32 ? 1 : 0)) >>> 0;
    } else if (typeof n === "bigint") {
      if (n < 0n || n > MAX_INCREMENT) throw rangeError(WHERE, "n", n, "an integer in [0, 2^63 − 1]");
      add = n >= BigInt(TWO32) ? TWO32 : Number(n);
      const lo = this.#countLo + Number(n & 0xffffffffn);
      this.#countLo = lo >>> 0;
      this.#countHi = (this.#countHi + Number(n >> 32n) + (lo >= TWO32 ? 1 : 0)) >>> 0;
    } else {
      throw typeError(WHERE, "n", n, "a safe integer ≥ 0 or a bigint");
    }
    const counters = this.#counters;
    const cells = this.#locate(src);
    let min = CMS_SATURATED;
    for (let i = 0; i < cells.length; i++) {
      const at = cells[i]!;
      // c + n ≥ 2^32 is exactly when RedisBloom's uint32 sum wraps below the increment: saturate.
      const c = Math.min(counters[at]! + add, CMS_SATURATED);
      counters[at] = c;
      if (c < min) min = c;
    }
    return min;
  }

  /**
   * CMS.QUERY: the estimated number of times the item was counted — the minimum of its counters,
   * never below the true count (unless a counter saturated at 2^32 − 1). O(depth · |item|), no
   * allocation.
   * @throws TypeError when `item` is not a string, number, bigint or Uint8Array.
   */
  count(item: Item): number {
    const counters = this.#counters;
    const cells = this.#locate(typeof item === "string" ? item : sourceOf(checkItem(WHERE, "item", item)));
    let min = CMS_SATURATED;
    for (let i = 0; i < cells.length; i++) {
      const c = counters[cells[i]!]!;
      if (c < min) min = c;
    }
    return min;
  }

  // --- combining -------------------------------------------------------------------------------

  /**
   * Adds other sketches' counters and totals into this one — CMS.MERGE this n+1 this other… (every
   * weight 1) — and returns this. Takes sketches as arguments (`merge(b, c)`) or one iterable of
   * them (`merge([b, c])`); this sketch may be among them (it then counts twice). Every argument is
   * checked first, and the sums are computed as RedisBloom does: when a counter would pass
   * 2^32 − 1 or the total would leave the signed 64-bit range, it throws and this sketch is
   * unchanged (RedisBloom's "CMS: MERGE overflow"). O(width · depth · sketches).
   * @throws TypeError for an argument that is not a CountMinSketch (naming its index: a hole in an
   *   array, null, an object made with `Object.create(CountMinSketch.prototype)`); RangeError for
   *   one of other dimensions or an overflow.
   */
  merge(...others: CountMinSketch[]): this;
  merge(others: Iterable<CountMinSketch>): this;
  merge(...args: unknown[]): this {
    let list: unknown[] = args;
    if (args.length === 1 && !CountMinSketch.#built(args[0])) {
      const only = args[0];
      if (only !== null && typeof only === "object" && Symbol.iterator in only) {
        list = Array.from(checkIterable(WHERE, "others", only as Iterable<unknown>));
      }
    }
    const sketches = [this, ...list.map((s, i) => CountMinSketch.#check(`others[${i}]`, s, this))];
    if (sketches.length === 1) return this;
    const { counters, total } = combine(
      sketches.map((s) => s.#counters),
      sketches.map(() => 1),
      sketches.map((s) => s.#total()),
    );
    this.#counters = counters;
    this.#setTotal(total);
    return this;
  }

  /**
   * CMS.MERGE into a new sketch: Σ weight·sketch over `sketches`, counter by counter and for the
   * total, in RedisBloom's 64-bit arithmetic — when a counter would leave [0, 2^32 − 1], a product
   * or sum would leave the signed 64-bit range, or the total would be negative, it throws (RedisBloom's
   * "CMS: MERGE overflow"). The inputs are not changed. O(width · depth · sketches).
   * @param sketches one iterable of sketches of equal dimensions: `CountMinSketch.union([a, b])`.
   * @param options `weights`: one safe integer per sketch (negative allowed), CMS.MERGE WEIGHTS.
   * @throws TypeError when `sketches` is not an iterable of CountMinSketch (naming the index of a
   *   wrong element; sketches passed as separate arguments are refused with the array form shown) or
   *   a weight is not a number; RangeError for no sketches, mismatched dimensions ("CMS: width/depth is
   *   not equal"), a weights list of another length, a weight that is not a safe integer, or an
   *   overflow.
   */
  static union(sketches: Iterable<CountMinSketch>, options?: CountMinSketchUnionOptions): CountMinSketch {
    if (CountMinSketch.#built(sketches)) {
      throw new TypeError(
        `redstruct/${WHERE}: sketches must be an iterable of CountMinSketch, got a CountMinSketch; ` +
          "pass them as one array: CountMinSketch.union([a, b])",
      );
    }
    if (CountMinSketch.#built(options)) {
      throw new TypeError(
        `redstruct/${WHERE}: union takes the sketches as one iterable, CountMinSketch.union([a, b], { weights }); ` +
          "its second argument is the options, got a CountMinSketch",
      );
    }
    checkIterable(WHERE, "sketches", sketches);
    const list: CountMinSketch[] = [];
    for (const s of sketches) list.push(CountMinSketch.#check(`sketches[${list.length}]`, s, list[0]));
    if (list.length === 0) throw rangeError(WHERE, "sketches", "none", "at least one CountMinSketch");
    const o = checkOptions(WHERE, options, ["weights"]);
    let weights: number[];
    if (o.weights === undefined) weights = list.map(() => 1);
    else {
      checkIterable(WHERE, "weights", o.weights);
      weights = [];
      for (const x of o.weights) {
        const at = `weights[${weights.length}]`;
        if (typeof x !== "number") throw typeError(WHERE, at, x, "a safe integer");
        if (!Number.isSafeInteger(x)) throw rangeError(WHERE, at, x, "a safe integer");
        weights.push(x);
      }
      if (weights.length !== list.length) {
        throw rangeError(WHERE, "weights", `${weights.length} weights`, `one weight per sketch (${list.length})`);
      }
    }
    const { counters, total } = combine(
      list.map((s) => s.#counters),
      weights,
      list.map((s) => s.#total()),
    );
    const out = new CountMinSketch({ width: list[0]!.width, depth: list[0]!.depth });
    out.#counters = counters;
    out.#setTotal(total);
    return out;
  }

  /** Whether `value` was built by this class (not merely given its prototype). */
  static #built(value: unknown): value is CountMinSketch {
    return typeof value === "object" && value !== null && #counters in value;
  }

  /**
   * `value` as a sketch of `like`'s dimensions (any dimensions without `like`).
   * @throws TypeError naming `param` for anything but a CountMinSketch (an object that only has its
   *   prototype included); RangeError for other dimensions.
   */
  static #check(param: string, value: unknown, like: CountMinSketch | undefined): CountMinSketch {
    if (!CountMinSketch.#built(value)) {
      checkInstance(WHERE, param, value, CountMinSketch);
      throw new TypeError(
        `redstruct/${WHERE}: ${param} has CountMinSketch's prototype but no sketch in it (Object.create?); ` +
          "build sketches with new CountMinSketch(…), CountMinSketch.from() or CountMinSketch.fromBytes()",
      );
    }
    if (like !== undefined && (value.width !== like.width || value.depth !== like.depth)) {
      throw rangeError(
        WHERE,
        param,
        `a ${value.width}×${value.depth} sketch`,
        `${like.width}×${like.depth} like the first (CMS.MERGE: "width/depth is not equal")`,
      );
    }
    return value;
  }

  /** The total as a signed 64-bit bigint. */
  #total(): bigint {
    return BigInt.asIntN(64, (BigInt(this.#countHi) << 32n) | BigInt(this.#countLo));
  }

  #setTotal(total: bigint): void {
    const t = BigInt.asUintN(64, total);
    this.#countLo = Number(t & 0xffffffffn);
    this.#countHi = Number(t >> 32n);
  }

  // --- inspection ------------------------------------------------------------------------------

  /**
   * The total of every increment (CMS.INFO "count"): how many items the sketch counted, repeats
   * included — a multiset's size. RedisBloom keeps it as a signed 64-bit integer that grows by every
   * increment (saturated or not) and wraps past 2^63 − 1 to negative values; this getter gives that
   * integer exactly while its magnitude is at most 2^53 (nine quadrillion units), and the nearest
   * double beyond (the exact 64 bits are in {@link toBytes}, bytes 13–20). O(1).
   */
  get size(): number {
    return (this.#countHi | 0) * TWO32 + this.#countLo;
  }

  /** Bytes of the typed arrays the sketch holds: 4·width·depth counters and a depth-long scratch. O(1). */
  get byteLength(): number {
    return this.#counters.byteLength + this.#cells.byteLength;
  }

  /** CMS.INFO: `{ width, depth, size }`, `size` being CMS.INFO's "count" (see {@link size}). O(1). */
  info(): CountMinSketchInfo {
    return { width: this.width, depth: this.depth, size: this.size };
  }

  /** Resets every counter and the total to 0. O(width · depth). */
  clear(): void {
    this.#counters.fill(0);
    this.#countLo = 0;
    this.#countHi = 0;
  }

  /** An independent copy: same dimensions, counters and total. O(width · depth). */
  clone(): CountMinSketch {
    const c = new CountMinSketch({ width: this.width, depth: this.depth });
    c.#counters.set(this.#counters);
    c.#countLo = this.#countLo;
    c.#countHi = this.#countHi;
    return c;
  }

  /**
   * Throws unless the internal state is consistent: dimensions in range, the counter array of
   * width·depth uint32s, the total's halves 32-bit. O(1) (counters are uint32 by construction).
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    if (!Number.isInteger(this.width) || this.width < 1) fail(`width ${this.width}`);
    if (!Number.isInteger(this.depth) || this.depth < 1) fail(`depth ${this.depth}`);
    if (this.width * this.depth > CMS_MAX_COUNTERS) fail("too many counters");
    if (!(this.#counters instanceof Uint32Array) || this.#counters.length !== this.width * this.depth) {
      fail("counter array size");
    }
    if (this.#cells.length !== this.depth) fail("scratch size");
    for (const half of [this.#countLo, this.#countHi]) {
      if (!Number.isInteger(half) || half < 0 || half >= TWO32) fail(`count half ${half}`);
    }
  }

  /**
   * Always throws: a sketch's state is private, so `JSON.stringify` would write `{}` (and
   * `structuredClone` or `postMessage` would send an empty object). Send {@link toBytes} and rebuild
   * it with {@link CountMinSketch.fromBytes}.
   * @throws TypeError, always.
   */
  toJSON(): never {
    throw notJson(WHERE);
  }

  // --- serialization ---------------------------------------------------------------------------

  /**
   * The sketch as bytes (RedisBloom has no CMS dump command, so the format is redstruct's):
   * "RSCM", version byte 1, u32 width, u32 depth, i64 total count, then width·depth u32 counters
   * row by row; little-endian. 21 + 4·width·depth bytes. O(width · depth).
   */
  toBytes(): Uint8Array {
    const w = new ByteWriter(HEADER + 4 * this.#counters.length);
    w.magic(MAGIC).u8(VERSION).u32(this.width).u32(this.depth).u32(this.#countLo).u32(this.#countHi);
    const c = this.#counters;
    for (let i = 0; i < c.length; i++) w.u32(c[i]!);
    return w.finish();
  }

  /**
   * Reads {@link toBytes} output into a new sketch (the input is read once and not kept). The length
   * is checked against the header's dimensions before the counters are allocated, so a hostile header
   * cannot make it allocate more than its input's size. O(width · depth).
   * @throws TypeError when `bytes` is not a Uint8Array (or is detached); RedstructFormatError for
   *   anything else.
   */
  static fromBytes(bytes: Uint8Array): CountMinSketch {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    const width = r.u32("the width");
    const depth = r.u32("the depth");
    if (width < 1 || depth < 1 || width * depth > CMS_MAX_COUNTERS) {
      throw formatError(WHERE, `bad dimensions ${width}×${depth}`);
    }
    const lo = r.u32("the count");
    const hi = r.u32("the count");
    if (r.remaining !== 4 * width * depth) {
      throw formatError(WHERE, `${width}×${depth} counters need ${4 * width * depth} bytes, got ${r.remaining}`);
    }
    const s = new CountMinSketch({ width, depth });
    const c = s.#counters;
    for (let i = 0; i < c.length; i++) c[i] = r.u32();
    r.end();
    s.#countLo = lo;
    s.#countHi = hi;
    return s;
  }

  static {
    defineInspect(CountMinSketch, (s) => ({ fields: { ...s.info() } }));
  }
}

const MAGIC = "RSCM";
const VERSION = 1;
const HEADER = 4 + 1 + 4 + 4 + 8;

/** The dimensions an options object asks for. */
function dimensionsOf(options: CountMinSketchOptions): [width: number, depth: number] {
  const forms = "{ width, depth } (CMS.INITBYDIM) or { error, probability } (CMS.INITBYPROB)";
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(
      `redstruct/${WHERE}: options must be ${forms}, got ${describe(options)}` +
        (typeof options === "number" ? "; pass one object: new CountMinSketch({ width: 2000, depth: 7 })" : ""),
    );
  }
  const o = checkOptions(WHERE, options, ["width", "depth", "error", "probability"]) as Record<string, unknown>;
  const byDim = o.width !== undefined || o.depth !== undefined;
  const byProb = o.error !== undefined || o.probability !== undefined;
  if (byDim === byProb) {
    const what = byDim ? "mix the two forms" : "name neither";
    throw new TypeError(`redstruct/${WHERE}: options must be ${forms}; these ${what}: ${describe(o)}`);
  }
  const [a, b] = byDim ? ["width", "depth"] : ["error", "probability"];
  for (const key of [a!, b!]) {
    if (o[key] === undefined) {
      throw new TypeError(
        `redstruct/${WHERE}: options.${key} is missing: { ${a}, ${b} } takes both, got ${describe(o)}`,
      );
    }
  }
  let width: number;
  let depth: number;
  if (byDim) {
    width = checkInteger(WHERE, "width", o.width, 1, CMS_MAX_COUNTERS);
    depth = checkInteger(WHERE, "depth", o.depth, 1, CMS_MAX_COUNTERS);
    if (width * depth > CMS_MAX_COUNTERS) {
      throw rangeError(WHERE, "width·depth", width * depth, `at most ${CMS_MAX_COUNTERS}`);
    }
  } else {
    ({ width, depth } = cmsDimensions(o.error as number, o.probability as number));
    if (width * depth > CMS_MAX_COUNTERS) {
      throw rangeError(WHERE, "error", o.error, `large enough for at most ${CMS_MAX_COUNTERS} counters`);
    }
  }
  return [width, depth];
}

/**
 * CMS.MERGE's arithmetic: Σ weights[j]·arrays[j] counter by counter and Σ weights[j]·totals[j], in
 * signed 64-bit integers with RedisBloom's checks; throws {@link mergeOverflow} when any fails.
 */
function combine(
  arrays: readonly Uint32Array[],
  w: readonly number[],
  totals: readonly bigint[],
): { counters: Uint32Array; total: bigint } {
  const I64_MIN = -(1n << 63n);
  const I64_MAX = (1n << 63n) - 1n;
  let total = 0n;
  for (let j = 0; j < arrays.length; j++) {
    const p = BigInt(w[j]!) * totals[j]!;
    if (p < I64_MIN || p > I64_MAX) throw mergeOverflow();
    total += p;
    if (total < I64_MIN || total > I64_MAX) throw mergeOverflow();
  }
  if (total < 0n) throw mergeOverflow();
  const n = arrays[0]!.length;
  const out = new Uint32Array(n);
  // Doubles are exact while every partial sum stays below 2^53: Σ|w|·(2^32 − 1) bounds them all.
  const bound = w.reduce((acc, x) => acc + Math.abs(x), 0) * CMS_SATURATED;
  if (bound <= Number.MAX_SAFE_INTEGER) {
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let j = 0; j < arrays.length; j++) sum += w[j]! * arrays[j]![i]!;
      if (sum < 0 || sum > CMS_SATURATED) throw mergeOverflow();
      out[i] = sum;
    }
  } else {
    const bw = w.map(BigInt);
    for (let i = 0; i < n; i++) {
      let sum = 0n;
      for (let j = 0; j < arrays.length; j++) {
        const p = bw[j]! * BigInt(arrays[j]![i]!);
        if (p < I64_MIN || p > I64_MAX) throw mergeOverflow();
        sum += p;
        if (sum < I64_MIN || sum > I64_MAX) throw mergeOverflow();
      }
      if (sum < 0n || sum > 0xffffffffn) throw mergeOverflow();
      out[i] = Number(sum);
    }
  }
  return { counters: out, total };
}

function mergeOverflow(): RangeError {
  return new RangeError(
    `redstruct/${WHERE}: merge overflow: a merged counter leaves [0, 2^32 − 1], a 64-bit intermediate ` +
      'overflows, or the total is negative (RedisBloom\'s "CMS: MERGE overflow"); no sketch changed',
  );
}
