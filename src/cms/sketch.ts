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
 * total count is a 64-bit two's-complement integer that grows by every increment, saturated or not;
 * CMS.MERGE computes Σ weight·source in 64-bit integers and refuses, leaving the destination alone,
 * when a counter falls outside [0, 2^32−1] or the total goes negative.
 *
 * Memory layout: one `Uint32Array` of depth·width counters, row-major (row i at [i·width, (i+1)·width)),
 * as RedisBloom lays its array out; the total count as two uint32 halves (no BigInt on the hot path).
 *
 * Invariants: width ≥ 1, depth ≥ 1, width·depth ≤ {@link CMS_MAX_COUNTERS}; counters are integers in
 * [0, 2^32−1]; the total is 64 bits.
 *
 * Costs: incrBy and query O(depth · |item|), no allocation for ASCII strings, numbers and byte arrays;
 * merge O(width · depth · sources); toBytes / fromBytes O(width · depth).
 */

import { encodeScratch, type Item, type Source, scratchBytes, sourceOf } from "../hash/element.js";
import { murmur2Source } from "../hash/murmur2.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { checkInteger, formatError, rangeError, typeError } from "../internal/errors.js";
import { checkInstance } from "../internal/options.js";

const WHERE = "CountMinSketch";

/** The value a saturated counter holds (2^32 − 1); RedisBloom reports it as "CMS: INCRBY overflow". */
export const CMS_SATURATED = 0xffffffff;

/** Largest width·depth accepted (2^28 counters, 1 GiB): a typed array must hold them. */
export const CMS_MAX_COUNTERS = 2 ** 28;

/** Largest increment RedisBloom parses (2^63 − 1, LLONG_MAX). */
const MAX_INCREMENT = (1n << 63n) - 1n;
const TWO32 = 0x100000000;

/** What {@link CountMinSketch.info} returns: CMS.INFO's fields. */
export interface CountMinSketchInfo {
  /** Counters per row. */
  width: number;
  /** Rows. */
  depth: number;
  /**
   * The total of every increment (CMS.INFO "count"): a signed 64-bit integer, as a number (exact up
   * to 2^53; beyond that the nearest double). Use {@link CountMinSketch.totalCount} for the exact value.
   */
  count: number;
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
 * A Count-Min sketch exact with RedisBloom's CMS.* commands. Create one with
 * {@link CountMinSketch.byDimensions} (CMS.INITBYDIM) or {@link CountMinSketch.byError}
 * (CMS.INITBYPROB).
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
   * An empty sketch of `width` counters by `depth` rows, like CMS.INITBYDIM.
   * @throws RangeError unless both are integers ≥ 1 and width·depth ≤ 2^28.
   */
  constructor(width: number, depth: number) {
    checkInteger(WHERE, "width", width, 1, CMS_MAX_COUNTERS);
    checkInteger(WHERE, "depth", depth, 1, CMS_MAX_COUNTERS);
    if (width * depth > CMS_MAX_COUNTERS) {
      throw rangeError(WHERE, "width·depth", width * depth, `at most ${CMS_MAX_COUNTERS}`);
    }
    this.width = width;
    this.depth = depth;
    this.#cells = new Int32Array(depth);
    this.#counters = new Uint32Array(width * depth);
  }

  /** CMS.INITBYDIM: an empty sketch of the given dimensions. O(width · depth). */
  static byDimensions(width: number, depth: number): CountMinSketch {
    return new CountMinSketch(width, depth);
  }

  /**
   * CMS.INITBYPROB: an empty sketch whose estimates exceed the true count by more than
   * `error`·(total count) with probability at most `probability` (dimensions from {@link cmsDimensions}).
   * @example CountMinSketch.byError(0.001, 0.01) // 2000 × 7
   */
  static byError(error: number, probability: number): CountMinSketch {
    const { width, depth } = cmsDimensions(error, probability);
    if (width * depth > CMS_MAX_COUNTERS) {
      throw rangeError(WHERE, "error", error, `large enough for at most ${CMS_MAX_COUNTERS} counters`);
    }
    return new CountMinSketch(width, depth);
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
   * applied all the same). The total count grows by `n` in 64-bit arithmetic.
   * O(depth · |item|), no allocation.
   * @param n a safe integer ≥ 0, or a bigint in [0, 2^63 − 1] (RedisBloom's range).
   */
  incrBy(value: Item, n: number | bigint): number {
    const src = sourceOf(value); // type-checked before anything changes
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
   * CMS.QUERY: the estimate for an item — the minimum of its counters, never below the true count
   * (unless a counter saturated at 2^32 − 1). O(depth · |item|), no allocation.
   */
  query(value: Item): number {
    const counters = this.#counters;
    const cells = this.#locate(sourceOf(value));
    let min = CMS_SATURATED;
    for (let i = 0; i < cells.length; i++) {
      const c = counters[cells[i]!]!;
      if (c < min) min = c;
    }
    return min;
  }

  /**
   * CMS.MERGE: replaces this sketch's counters and total with Σ weights[j]·sources[j] (weights
   * default to 1; this sketch may be one of the sources). Computed in 64-bit integers as RedisBloom
   * does; when a counter would leave [0, 2^32 − 1], an intermediate product or sum would leave the
   * signed 64-bit range, or the total would be negative, it throws and leaves this sketch unchanged
   * (RedisBloom's "CMS: MERGE overflow"). O(width · depth · sources).
   * @param weights safe integers, one per source (negative allowed).
   * @throws TypeError/RangeError for an empty or mismatched list, a source of other dimensions
   *   ("CMS: width/depth is not equal"), or a weight that is not a safe integer.
   * @returns this sketch.
   */
  merge(sources: readonly CountMinSketch[], weights?: readonly number[]): this {
    if (!Array.isArray(sources)) throw typeError(WHERE, "sources", sources, "an array of CountMinSketch");
    if (sources.length === 0) throw rangeError(WHERE, "sources", sources, "a non-empty array");
    const list = sources.map((s, j) => checkInstance(WHERE, `sources[${j}]`, s, CountMinSketch));
    for (let j = 0; j < list.length; j++) {
      const s = list[j]!;
      if (s.width !== this.width || s.depth !== this.depth) {
        throw rangeError(
          WHERE,
          `sources[${j}]`,
          `${s.width}×${s.depth}`,
          `${this.width}×${this.depth} like this sketch`,
        );
      }
    }
    let w: number[];
    if (weights === undefined) w = list.map(() => 1);
    else {
      if (!Array.isArray(weights)) throw typeError(WHERE, "weights", weights, "an array of safe integers");
      if (weights.length !== list.length) {
        throw rangeError(WHERE, "weights.length", weights.length, `${list.length} (one per source)`);
      }
      w = weights.map((x, j) => {
        if (typeof x !== "number" || !Number.isSafeInteger(x)) {
          throw (typeof x === "number" ? rangeError : typeError)(WHERE, `weights[${j}]`, x, "a safe integer");
        }
        return x;
      });
    }
    // The total: Σ weight·count over signed 64-bit values, checked like every counter.
    const I64_MIN = -(1n << 63n);
    const I64_MAX = (1n << 63n) - 1n;
    let total = 0n;
    for (let j = 0; j < list.length; j++) {
      const p = BigInt(w[j]!) * list[j]!.totalCount();
      if (p < I64_MIN || p > I64_MAX) throw mergeOverflow();
      total += p;
      if (total < I64_MIN || total > I64_MAX) throw mergeOverflow();
    }
    if (total < 0n) throw mergeOverflow();
    const n = this.#counters.length;
    const out = new Uint32Array(n);
    const arrays = list.map((s) => s.#counters);
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
    this.#counters = out;
    const t = BigInt.asUintN(64, total);
    this.#countLo = Number(t & 0xffffffffn);
    this.#countHi = Number(t >> 32n);
    return this;
  }

  // --- inspection ------------------------------------------------------------------------------

  /** CMS.INFO: `{ width, depth, count }`. O(1). */
  info(): CountMinSketchInfo {
    return { width: this.width, depth: this.depth, count: (this.#countHi | 0) * TWO32 + this.#countLo };
  }

  /** The total count exactly, as CMS.INFO shows it: a signed 64-bit bigint. O(1). */
  totalCount(): bigint {
    return BigInt.asIntN(64, (BigInt(this.#countHi) << 32n) | BigInt(this.#countLo));
  }

  /** Resets every counter and the total to 0. O(width · depth). */
  clear(): void {
    this.#counters.fill(0);
    this.#countLo = 0;
    this.#countHi = 0;
  }

  /** An independent copy. O(width · depth). */
  clone(): CountMinSketch {
    const c = new CountMinSketch(this.width, this.depth);
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
    const fail = (what: string) => {
      throw new Error(`redstruct/${WHERE}: invariant broken: ${what}`);
    };
    if (!Number.isInteger(this.width) || this.width < 1) fail(`width ${this.width}`);
    if (!Number.isInteger(this.depth) || this.depth < 1) fail(`depth ${this.depth}`);
    if (this.width * this.depth > CMS_MAX_COUNTERS) fail("too many counters");
    if (!(this.#counters instanceof Uint32Array) || this.#counters.length !== this.width * this.depth) {
      fail("counter array size");
    }
    for (const half of [this.#countLo, this.#countHi]) {
      if (!Number.isInteger(half) || half < 0 || half >= TWO32) fail(`count half ${half}`);
    }
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
   * Reads {@link toBytes} output. The length is checked against the header's dimensions before the
   * counters are allocated, so a hostile header cannot make it allocate more than its input's size.
   * @throws RedstructFormatError for anything else.
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
    const s = new CountMinSketch(width, depth);
    const c = s.#counters;
    for (let i = 0; i < c.length; i++) c[i] = r.u32();
    r.end();
    s.#countLo = lo;
    s.#countHi = hi;
    return s;
  }
}

const MAGIC = "RSCM";
const VERSION = 1;
const HEADER = 4 + 1 + 4 + 4 + 8;

function mergeOverflow(): RangeError {
  return new RangeError(
    `redstruct/${WHERE}: merge overflow: a merged counter leaves [0, 2^32 − 1], a 64-bit intermediate ` +
      'overflows, or the total is negative (RedisBloom\'s "CMS: MERGE overflow"); the sketch is unchanged',
  );
}
