/**
 * HyperLogLog — Redis's cardinality sketch (src/hyperloglog.c), with typed-array registers.
 *
 * Algorithm: Flajolet et al. 2007, in Redis's variant. Each element is hashed with MurmurHash64A
 * (seed 0xadc83b19) over the bytes Redis would store for it. The low p bits pick a register; the
 * run is the number of trailing zeros of `(hash >> p) | 1 << (64 − p)`, plus one (1..q+1 with
 * q = 64 − p); a register keeps the largest run it has seen. `count()` reads the register
 * histogram through Ertl's improved estimator (PFCOUNT since Redis 5) or the classic one; see
 * estimators.ts. With p = 14 and the default estimator, registers, counts and blobs are Redis's.
 * Beyond Redis: the martingale (HIP) estimator, stepped by every register change an add makes
 * (martingale.ts), and interval bounds (bounds.ts).
 *
 * Memory layout: two representations, like Redis, chosen only by the number of non-zero registers
 * so that equal register contents always have the same representation:
 * - sparse (while at most m/16 registers are non-zero, and only for p ≥ 9): a Uint32Array of
 *   entries `index << 6 | value` sorted by index, grown by doubling. An empty p = 14 sketch holds
 *   32 bytes of entries, a sketch of a few hundred elements a few KB at most (≤ 4 KB before
 *   promotion), instead of 12 KB.
 * - dense: m registers of 6 bits packed LSB-first in a Uint8Array — register i occupies bits
 *   [6i, 6i + 6) — exactly Redis's dense body, so `toRedis()` is a copy. One zero pad byte at the
 *   end lets every register be read as a 16-bit little-endian window without a branch.
 *
 * Invariants (checked by {@link HyperLogLog.checkInvariants}): exactly one representation is live;
 * sparse entries are strictly increasing by index, index < m, value in 1..q+1, and their number is
 * at most the promotion limit; dense registers are ≤ q+1, the pad byte is zero, and more than the
 * promotion limit of them are non-zero (so the representation is canonical) — except at the
 * always-dense precisions 4..8; a cached estimate equals a fresh one; while the martingale state is
 * held, its running sum equals Σ_j P(the next element changes register j) exactly (both parts, see
 * martingale.ts), its estimate is finite and at least the number of non-zero registers and its
 * variance is finite and ≥ 0.
 *
 * Saturation: every estimate is capped at 2^64 (MAX_ESTIMATE in shared.ts), the number of distinct
 * 64-bit hashes. Registers at the longest run (reachable through addHash or crafted bytes) make
 * Ertl's estimator divide by zero and the classic one overshoot; a saturated sketch answers 2^64.
 *
 * Costs: `add` O(1) dense, O(log k) search plus an O(k) shift on insert when sparse with k ≤ m/16
 * entries, no allocation in either (except when the sparse array doubles); `count` O(m) (cached
 * until the next change), O(1) for the martingale; `bounds` a count plus ≈ 50 table lookups;
 * `merge` O(m); serialization O(m).
 */
import type { Item } from "../hash/index.js";
import { checkBytes } from "../internal/bytes.js";
import { checkInteger, formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkIterable, checkOptions } from "../internal/options.js";
import { type Bounds, checkStdDevs, invertedBounds, symmetricBounds, tabulated } from "./bounds.js";
import { classicEstimate, ertlEstimate, hllStdDev } from "./estimators.js";
import { ExactSum, Martingale, stateProblem } from "./martingale.js";
import { decodeRedis, encodeRedisDense, encodeRedisSparse, REDIS_PRECISION } from "./redis.js";
import { decodeBytes, encodeDense, encodeSparse } from "./serialize.js";
import {
  addEach,
  checkHalves,
  checkSketch,
  hashItem,
  hashRun,
  MAX_ESTIMATE,
  mergeArguments,
  unionArguments,
} from "./shared.js";

/**
 * How `count()` turns registers into a number: "ertl" (PFCOUNT's), "classic" (Flajolet et al.'s
 * harmonic mean with linear counting) or "martingale" (HIP: kept up to date by every add; see
 * {@link HyperLogLog.count}).
 */
export type Estimator = "ertl" | "classic" | "martingale";

/** Options of {@link HyperLogLog}. */
export interface HyperLogLogOptions {
  /**
   * log2 of the register count: 4..18. Standard error ≈ 1.04/√(2^p).
   * @defaultValue 14 (Redis's: 16384 registers, 0.81 % standard error)
   */
  precision?: number;
  /**
   * Estimator used by `count()` when none is given. The martingale estimator cannot be the default,
   * since merged sketches do not have it; ask for it by name: `count("martingale")`.
   * @defaultValue "ertl" (PFCOUNT's)
   */
  estimator?: "ertl" | "classic";
}

/** Encoding of a Redis blob written by {@link HyperLogLog.toRedis}. */
export interface ToRedisOptions {
  /**
   * "auto" (default) writes Redis's sparse encoding when Redis could hold the registers sparse
   * (all ≤ 32, blob ≤ 3000 bytes) and dense otherwise; "dense" always writes the 12304-byte form.
   */
  encoding?: "auto" | "dense";
}

/** Options of {@link HyperLogLog.fromRedis}. */
export interface FromRedisOptions {
  /**
   * Estimator used by `count()` when none is given.
   * @defaultValue "ertl"
   */
  estimator?: "ertl" | "classic";
}

const WHERE = "HyperLogLog";
/** Default estimators by their code in the toBytes() format. */
const ESTIMATORS: readonly ("ertl" | "classic")[] = ["ertl", "classic"];
/** Sparse entries an empty sketch starts with. */
const SPARSE_INITIAL = 8;
/** Below this precision m/16 is under 32 entries: sparse would save nothing, start dense. */
const MIN_SPARSE_PRECISION = 9;

// Scratch shared by every instance: the count histogram (the hash scratch is hashItem's). No call allocates.
const histogram = new Float64Array(64);
/** 2^−r: the probability that an element's run exceeds r (for r below the longest run, 65 − p). */
const BEYOND = Float64Array.from({ length: 66 }, (_, r) => 2 ** -r);

/**
 * For UltraLogLog's and ExaLogLog's `toHyperLogLog()`: the HyperLogLog of one validated run per
 * register (precision 4..18), in its canonical representation, its martingale state lost by
 * `origin`. Set in HyperLogLog's static block; not exported from the package.
 */
export let hyperLogLogOf: (precision: number, values: Uint8Array, origin: string) => HyperLogLog;

/** A default estimator: "ertl" or "classic". */
function checkDefaultEstimator(value: unknown): "ertl" | "classic" {
  if (value !== "ertl" && value !== "classic") throw typeError(WHERE, "estimator", value, '"ertl" or "classic"');
  return value;
}

function checkEstimator(value: unknown): Estimator {
  if (value !== "ertl" && value !== "classic" && value !== "martingale") {
    throw typeError(WHERE, "estimator", value, '"ertl", "classic" or "martingale"');
  }
  return value;
}

/** Reads register `i` of packed dense registers (with the pad byte). */
function getPacked(d: Uint8Array, i: number): number {
  const bit = i * 6;
  const b = bit >>> 3;
  return ((d[b]! | (d[b + 1]! << 8)) >>> (bit & 7)) & 63;
}

/** Writes register `i` of packed dense registers. */
function setPacked(d: Uint8Array, i: number, v: number): void {
  const bit = i * 6;
  const b = bit >>> 3;
  const s = bit & 7;
  const w = ((d[b]! | (d[b + 1]! << 8)) & ~(63 << s)) | (v << s);
  d[b] = w;
  d[b + 1] = w >>> 8;
}

/**
 * A HyperLogLog sketch: counts distinct elements in fixed memory with ≈ 1.04/√m relative error.
 * Elements are strings (UTF-8), numbers and bigints (their decimal string) or byte arrays, so
 * `add(42)` and `add("42")` are the same element, as in Redis.
 */
export class HyperLogLog {
  readonly #p: number;
  readonly #m: number;
  /** q + 1 = 65 − p: the longest possible run. */
  readonly #maxRun: number;
  readonly #estimator: "ertl" | "classic";
  /** Largest number of sparse entries before promotion to dense (0: always dense). */
  readonly #sparseLimit: number;
  /** Packed dense registers + 1 pad byte, or null while sparse. */
  #dense: Uint8Array | null = null;
  /** Sparse entries `index << 6 | value`, sorted; meaningful in [0, #sparseLength). */
  #sparse: Uint32Array;
  #sparseLength = 0;
  /** Cached unrounded estimates per estimator; -1 when stale. */
  #ertl = -1;
  #classic = -1;
  /** HIP state, stepped by every register change that comes from an add. */
  readonly #mg: Martingale;

  static {
    hyperLogLogOf = (precision, values, origin) => HyperLogLog.#fromValues(precision, "ertl", values, origin);
  }

  /**
   * Creates an empty sketch.
   * @throws RangeError when precision is not an integer in 4..18; TypeError for an unknown estimator.
   */
  constructor(options?: HyperLogLogOptions) {
    const o = checkOptions(WHERE, options, ["precision", "estimator"]);
    this.#p = o.precision === undefined ? 14 : checkInteger(WHERE, "precision", o.precision, 4, 18);
    this.#estimator = o.estimator === undefined ? "ertl" : checkDefaultEstimator(o.estimator);
    this.#m = 1 << this.#p;
    this.#mg = new Martingale(this.#m);
    this.#maxRun = 65 - this.#p;
    this.#sparseLimit = this.#p >= MIN_SPARSE_PRECISION ? this.#m >>> 4 : 0;
    if (this.#sparseLimit === 0) {
      this.#sparse = new Uint32Array(0);
      this.#dense = new Uint8Array((this.#m * 6) / 8 + 1);
    } else {
      this.#sparse = new Uint32Array(SPARSE_INITIAL);
    }
  }

  /**
   * A sketch holding every item of `items` (`PFADD key item…` on a new key). O(n).
   * @throws TypeError when `items` is not a sync iterable (a lone string included), for an item that
   *   is not a string, number, bigint or Uint8Array, or for bad options.
   */
  static from(items: Iterable<Item>, options?: HyperLogLogOptions): HyperLogLog {
    checkIterable(WHERE, "items", items);
    const h = new HyperLogLog(options);
    h.addAll(items);
    return h;
  }

  // ---------------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------------

  /** log2 of the register count (4..18). */
  get precision(): number {
    return this.#p;
  }

  /** Number of registers m = 2^precision. */
  get registerCount(): number {
    return this.#m;
  }

  /** The estimator `count()` uses by default. */
  get estimator(): "ertl" | "classic" {
    return this.#estimator;
  }

  /** Current in-memory representation ("sparse" for small cardinalities). */
  get encoding(): "sparse" | "dense" {
    return this.#dense === null ? "sparse" : "dense";
  }

  /** Bytes of register storage this sketch holds (typed-array bytes, not object overhead). O(1). */
  get byteLength(): number {
    return this.#dense === null ? this.#sparse.byteLength : this.#dense.byteLength;
  }

  // ---------------------------------------------------------------------------------------------
  // Adding and counting
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds one item. Redis: `PFADD key item`.
   * @returns true when a register changed (PFADD's 1), false when the sketch is unchanged.
   * Complexity: O(length of the item) to hash, then O(1) dense / O(log k + k) sparse.
   * @throws TypeError, before anything changes, when `item` is not a string, number, bigint or
   *   Uint8Array, or is a Uint8Array whose buffer was detached.
   */
  add(item: Item): boolean {
    const h = hashItem(WHERE, item);
    return this.#addHashed(h[0]!, h[1]!);
  }

  /**
   * Adds every item, in order. Redis: `PFADD key item1 item2 …`.
   * @returns true when at least one register changed. O(n).
   * @throws TypeError when `items` is not a sync iterable (a lone string included), or at the first
   *   item that `add` refuses (the items before it stay added).
   */
  addAll(items: Iterable<Item>): boolean {
    return addEach(WHERE, this, items);
  }

  /**
   * Adds an element by its precomputed 64-bit hash, given as two unsigned 32-bit halves (for
   * callers with their own hashing, and for simulations that draw uniform random hashes).
   * Redis's register index and run are taken from these bits exactly as from MurmurHash64A's.
   * @param low bits 0..31 of the hash, an integer in [0, 2^32)
   * @param high bits 32..63 of the hash, an integer in [0, 2^32)
   * @returns true when a register changed. O(1) dense, O(log k + k) sparse.
   * @throws TypeError when a half is not a number, RangeError when it is not an integer in [0, 2^32)
   *   (NaN, a fraction, a negative number): such a value has no bits to take a register from.
   */
  addHash(low: number, high: number): boolean {
    checkHalves(WHERE, low, high);
    return this.#addHashed(low, high);
  }

  /** addHash without the argument checks, for hashes this class computed itself. */
  #addHashed(low: number, high: number): boolean {
    const p = this.#p;
    const index = low & (this.#m - 1);
    const run = hashRun(low, high, p);
    const d = this.#dense;
    if (d !== null) {
      const bit = index * 6;
      const b = bit >>> 3;
      const s = bit & 7;
      const w = d[b]! | (d[b + 1]! << 8);
      const old = (w >>> s) & 63;
      if (old >= run) return false;
      const nw = (w & ~(63 << s)) | (run << s);
      d[b] = nw;
      d[b + 1] = nw >>> 8;
      this.#ertl = this.#classic = -1;
      this.#mg.step(BEYOND[old]!, run === this.#maxRun ? 0 : BEYOND[run]!);
      return true;
    }
    const old = this.#sparseSet(index, run);
    if (old < 0) return false;
    this.#mg.step(BEYOND[old]!, run === this.#maxRun ? 0 : BEYOND[run]!);
    return true;
  }

  /** Position of the first sparse entry whose register index is ≥ `index` (binary search). */
  #sparseSearch(index: number): number {
    const entries = this.#sparse;
    let lo = 0;
    let hi = this.#sparseLength;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entries[mid]! >>> 6 < index) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Raises sparse register `index` to `run`; promotes to dense when the entries would overflow.
   * @returns the register's previous value when it changed, −1 when it was already ≥ run.
   */
  #sparseSet(index: number, run: number): number {
    const entries = this.#sparse;
    const lo = this.#sparseSearch(index);
    if (lo < this.#sparseLength && entries[lo]! >>> 6 === index) {
      const old = entries[lo]! & 63;
      if (old >= run) return -1;
      entries[lo] = (index << 6) | run;
      this.#ertl = this.#classic = -1;
      return old;
    }
    if (this.#sparseLength === this.#sparseLimit) {
      this.#promote();
      setPacked(this.#dense!, index, run);
      this.#ertl = this.#classic = -1;
      return 0;
    }
    let target = entries;
    if (this.#sparseLength === entries.length) {
      target = new Uint32Array(Math.min(entries.length * 2, this.#sparseLimit));
      target.set(entries.subarray(0, lo));
      this.#sparse = target;
    }
    target.copyWithin(lo + 1, lo, this.#sparseLength);
    if (target !== entries) target.set(entries.subarray(lo, this.#sparseLength), lo + 1);
    target[lo] = (index << 6) | run;
    this.#sparseLength++;
    this.#ertl = this.#classic = -1;
    return 0;
  }

  /** Sparse → dense, in place. O(m). */
  #promote(): void {
    const d = new Uint8Array((this.#m * 6) / 8 + 1);
    const entries = this.#sparse;
    for (let i = 0; i < this.#sparseLength; i++) setPacked(d, entries[i]! >>> 6, entries[i]! & 63);
    this.#dense = d;
    this.#sparse = new Uint32Array(0);
    this.#sparseLength = 0;
  }

  /**
   * Estimated number of distinct elements added, as an integer. Redis: `PFCOUNT key` — with
   * precision 14 and the "ertl" estimator the result equals PFCOUNT's for the same elements.
   *
   * "martingale" is the HIP estimator (RMSE ≈ 0.833/√m instead of ≈ 1.04/√m): it is kept up to date
   * by every add, so it costs O(1) here, but it exists only for a sketch fed by its own adds since it
   * was created or cleared (or read by fromBytes from such a sketch's bytes). After merge, union,
   * downsize or fromRedis it throws rather than fall back silently.
   *
   * Every estimator answers at most 2^64, the number of distinct 64-bit hashes: a saturated sketch
   * (registers at the longest run, which only `addHash` or crafted bytes reach in practice) answers
   * 2^64. PFCOUNT agrees below 2^63; past it Redis's integer overflows (it answers −2^63).
   * @param estimator overrides the sketch's estimator for this call.
   * Complexity: O(m) after a change, O(1) when nothing changed since the last count (and always
   * O(1) for "martingale"). No side effect other than the cache.
   * @throws TypeError for an unknown estimator; Error for "martingale" when the sketch lost that state.
   */
  count(estimator: Estimator = this.#estimator): number {
    // Half away from zero, like Redis's llroundl; estimates are ≥ 0 so Math.round agrees.
    return Math.round(this.estimate(estimator));
  }

  /**
   * The estimator's value before rounding to an integer (`count()` is `Math.round(estimate())`).
   * For statistics: on small sets the rounding alone shifts the mean by up to 0.5/n.
   * Complexity: as {@link HyperLogLog.count}.
   * @throws as {@link HyperLogLog.count}.
   */
  estimate(estimator: Estimator = this.#estimator): number {
    const which = checkEstimator(estimator);
    if (which === "martingale") return Math.min(this.#mg.checked(WHERE).estimate, MAX_ESTIMATE);
    const useErtl = which === "ertl";
    const cached = useErtl ? this.#ertl : this.#classic;
    if (cached >= 0) return cached;
    this.#fillHistogram();
    const q = 64 - this.#p;
    // Capped: Ertl's estimator is Infinity when every register is at the longest run.
    const n = Math.min(
      useErtl ? ertlEstimate(histogram, this.#m, q) : classicEstimate(histogram, this.#m, q),
      MAX_ESTIMATE,
    );
    if (useErtl) this.#ertl = n;
    else this.#classic = n;
    return n;
  }

  /**
   * An interval estimate of the distinct count: `{ lower, estimate, upper }` holding the true count
   * with the normal approximation's probability at `stdDevs` standard deviations (68.3 % at 1,
   * 95.4 % at 2, 99.7 % at 3), across the whole range of cardinalities.
   *
   * With "ertl", the standard deviation at cardinality n comes from the Poisson model's Fisher
   * information with the element count held fixed (see estimators.ts: nearly 0 for tiny sets, which
   * the sketch counts almost exactly, up to ≈ 1.04·n/√m), and the interval is its inversion: every
   * n whose estimate would lie within `stdDevs` standard deviations of this one. With "martingale",
   * it is the estimate ± stdDevs·√v, where v is the variance estimate the martingale keeps.
   * `lower` is never below the number of non-zero registers, a hard lower bound on the count, and
   * `estimate` is `estimate(estimator)` raised to that number when it falls below it, so
   * `lower ≤ estimate ≤ upper` always. On a saturated sketch the estimate is 2^64 (see count()) and
   * `upper` is `Infinity`.
   * @param stdDevs how many standard deviations wide (a finite number > 0; default 2).
   * @param estimator "ertl" (default) or "martingale".
   * Complexity: O(m) after a change (the estimate), plus O(q) per bisection step (≈ 160 steps).
   * @throws RangeError / TypeError for a bad argument; Error for "martingale" as in count().
   */
  bounds(stdDevs = 2, estimator: "ertl" | "martingale" = "ertl"): Bounds {
    const z = checkStdDevs(WHERE, stdDevs);
    if (estimator !== "ertl" && estimator !== "martingale") {
      throw typeError(WHERE, "estimator", estimator, '"ertl" or "martingale"');
    }
    const occupied = this.#nonZero();
    if (estimator === "martingale") {
      const mg = this.#mg.checked(WHERE);
      return symmetricBounds(Math.min(mg.estimate, MAX_ESTIMATE), mg.variance, z, occupied, this.#m);
    }
    const m = this.#m;
    const q = 64 - this.#p;
    const sd = tabulated(`hll-ertl-${this.#p}`, m, (n) => hllStdDev(n, m, q));
    return invertedBounds(this.estimate("ertl"), z, occupied, m, sd);
  }

  /** Number of non-zero registers. O(1) sparse, O(m) dense. */
  #nonZero(): number {
    if (this.#dense === null) return this.#sparseLength;
    this.#fillHistogram();
    return this.#m - histogram[0]!;
  }

  /** Fills the module-level histogram with this sketch's register counts. O(m). */
  #fillHistogram(): void {
    histogram.fill(0);
    const d = this.#dense;
    if (d === null) {
      const entries = this.#sparse;
      for (let i = 0; i < this.#sparseLength; i++) histogram[entries[i]! & 63]!++;
      histogram[0] = this.#m - this.#sparseLength;
      return;
    }
    // 4 registers in every 3 bytes: no per-register shift arithmetic.
    for (let b = 0, end = (this.#m * 6) / 8; b < end; b += 3) {
      const b0 = d[b]!;
      const b1 = d[b + 1]!;
      const b2 = d[b + 2]!;
      histogram[b0 & 63]!++;
      histogram[((b0 >>> 6) | (b1 << 2)) & 63]!++;
      histogram[((b1 >>> 4) | (b2 << 4)) & 63]!++;
      histogram[b2 >>> 2]!++;
    }
  }

  /**
   * The value of register `index` (0 when no element has reached it).
   * O(1) dense, O(log k) sparse.
   * @throws RangeError when index is not an integer in [0, m).
   */
  register(index: number): number {
    checkInteger(WHERE, "index", index, 0, this.#m - 1);
    if (this.#dense !== null) return getPacked(this.#dense, index);
    const entries = this.#sparse;
    const lo = this.#sparseSearch(index);
    return lo < this.#sparseLength && entries[lo]! >>> 6 === index ? entries[lo]! & 63 : 0;
  }

  /** All registers, one value per byte (a new array). O(m). */
  registers(): Uint8Array {
    const out = new Uint8Array(this.#m);
    const d = this.#dense;
    if (d === null) {
      for (let i = 0; i < this.#sparseLength; i++) out[this.#sparse[i]! >>> 6] = this.#sparse[i]! & 63;
    } else {
      for (let i = 0; i < this.#m; i++) out[i] = getPacked(d, i);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Merging
  // ---------------------------------------------------------------------------------------------

  /**
   * Merges other sketches into this one, in place: every register becomes the maximum of the
   * registers. Redis: `PFMERGE this this other…`. A sketch with a higher precision than this one is
   * downsized first (exactly: the result is what this precision would have recorded for the same
   * items); a sketch with a lower precision cannot be merged in and throws.
   * Takes sketches as arguments (`merge(a, b)`) or one iterable of them (`merge(sketches)`), which
   * suits any number of sketches: a spread of hundreds of thousands of arguments overflows the
   * engine's stack before this method runs. Every argument is checked before any is merged.
   * @returns this. Complexity: O(m) per dense sketch, O(k) per sparse one (plus O(m) if the
   *   result outgrows the sparse form).
   * @throws TypeError when an argument is not a HyperLogLog (or is one from another copy of
   *   redstruct, or an object with the prototype but no state); RangeError when its precision is lower.
   */
  merge(...others: HyperLogLog[]): this;
  merge(others: Iterable<HyperLogLog>): this;
  merge(...args: unknown[]): this {
    const others = mergeArguments(WHERE, args, HyperLogLog, HyperLogLog.#branded);
    for (const other of others) {
      if (other.#p < this.#p) {
        throw rangeError(
          WHERE,
          "merge argument precision",
          other.#p,
          `≥ this sketch's precision ${this.#p} (downsize this sketch with downsize(${other.#p}) or use HyperLogLog.union)`,
        );
      }
    }
    for (const other of others) {
      const src = other.#p === this.#p ? other : other.downsize(this.#p);
      this.#mergeSame(src);
    }
    if (others.length > 0) this.#mg.lose("merge()");
    return this;
  }

  /** True when `v` was built by this class (has its private state), not just given its prototype. */
  static #branded(v: object): boolean {
    return #p in v;
  }

  /** Register-wise max with a sketch of the same precision. */
  #mergeSame(other: HyperLogLog): void {
    if (other === this) return;
    let changed = false;
    if (other.#dense === null) {
      const entries = other.#sparse;
      for (let i = 0; i < other.#sparseLength; i++) {
        const e = entries[i]!;
        if (this.#dense !== null) {
          if (getPacked(this.#dense, e >>> 6) < (e & 63)) {
            setPacked(this.#dense, e >>> 6, e & 63);
            changed = true;
          }
        } else if (this.#sparseSet(e >>> 6, e & 63) >= 0) {
          changed = true;
        }
      }
    } else {
      if (this.#dense === null) this.#promote();
      const d = this.#dense!;
      const s = other.#dense;
      for (let i = 0; i < this.#m; i++) {
        const v = getPacked(s, i);
        if (getPacked(d, i) < v) {
          setPacked(d, i, v);
          changed = true;
        }
      }
    }
    if (changed) this.#ertl = this.#classic = -1;
  }

  /**
   * A new sketch at a lower (or equal) precision holding exactly the registers that precision would
   * have recorded for the same items: the bits of the index that the coarser sketch drops become
   * part of its run. The martingale state does not survive a change of precision. No Redis
   * counterpart (Redis has one precision). O(m).
   * @throws TypeError / RangeError when precision is not an integer in 4..this.precision.
   */
  downsize(precision: number): HyperLogLog {
    checkInteger(WHERE, "precision", precision, 4, this.#p);
    if (precision === this.#p) return this.clone();
    const shift = this.#p - precision;
    const mask = (1 << precision) - 1;
    const out = new Uint8Array(1 << precision);
    const values = this.registers();
    for (let j = 0; j < this.#m; j++) {
      const v = values[j]!;
      if (v === 0) continue;
      // The fine index's upper `shift` bits are the next hash bits the coarse run counts from.
      const upper = j >>> precision;
      const run = upper !== 0 ? 32 - Math.clz32(upper & -upper) : shift + v;
      const k = j & mask;
      if (out[k]! < run) out[k] = run;
    }
    return HyperLogLog.#fromValues(precision, this.#estimator, out, "downsize()");
  }

  /**
   * The union of `sketches` as a new sketch, at the lowest precision among them (finer sketches are
   * downsized), with the first sketch's default estimator; the inputs are not changed. Redis:
   * `PFMERGE dest k1 k2 …`. `sketches` is one iterable (`HyperLogLog.union([a, b])`), of any length.
   * O(m) per sketch.
   * @throws TypeError when `sketches` is not an iterable of HyperLogLogs (sketches passed as separate
   *   arguments included: the message shows the array form); RangeError when it holds none.
   */
  static union(sketches: Iterable<HyperLogLog>): HyperLogLog;
  static union(...args: unknown[]): HyperLogLog {
    const sketches = unionArguments(WHERE, args, HyperLogLog, HyperLogLog.#branded);
    let p = 18;
    for (const s of sketches) p = Math.min(p, s.#p);
    const out = sketches[0]!.downsize(p);
    for (let i = 1; i < sketches.length; i++) {
      const s = sketches[i]!;
      out.#mergeSame(s.#p === p ? s : s.downsize(p));
    }
    out.#mg.lose("HyperLogLog.union()");
    return out;
  }

  /** An independent copy (same precision, estimator and registers). O(m). */
  clone(): HyperLogLog {
    const c = new HyperLogLog({ precision: this.#p, estimator: this.#estimator });
    if (this.#dense !== null) {
      c.#dense = this.#dense.slice();
      c.#sparse = new Uint32Array(0);
    } else {
      c.#sparse = this.#sparse.slice();
      c.#sparseLength = this.#sparseLength;
    }
    c.#ertl = this.#ertl;
    c.#classic = this.#classic;
    c.#mg.copyFrom(this.#mg);
    return c;
  }

  /**
   * Empties the sketch (back to the sparse form when it has one); the martingale estimator is
   * available again. O(1) plus freeing.
   */
  clear(): void {
    if (this.#sparseLimit === 0) this.#dense!.fill(0);
    else {
      this.#dense = null;
      this.#sparse = new Uint32Array(SPARSE_INITIAL);
      this.#sparseLength = 0;
    }
    this.#ertl = this.#classic = -1;
    this.#mg.reset();
  }

  /**
   * True when `other` is a HyperLogLog with the same precision and the same registers (the default
   * estimator and the martingale state are not compared); false for anything that is not a
   * HyperLogLog. O(m).
   * @throws TypeError for an object with the HyperLogLog prototype but no state.
   */
  equals(other: HyperLogLog): boolean {
    if (!(other instanceof HyperLogLog)) return false;
    checkSketch(WHERE, "other", other, HyperLogLog, HyperLogLog.#branded);
    if (other.#p !== this.#p) return false;
    const a = this.registers();
    const b = other.registers();
    for (let i = 0; i < this.#m; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Serialization
  // ---------------------------------------------------------------------------------------------

  /**
   * Redis's HYLL blob for these registers: `SET key blob` in Redis and PFCOUNT / PFADD / PFMERGE
   * work on it. The dense form is byte-identical to Redis's `GET key` (after a PFCOUNT has
   * refreshed Redis's cache) for the same elements; the header carries our count as a valid cache
   * (marked stale, for Redis to recount, when the count does not fit its 63 bits). Only precision 14
   * exists in Redis. Send it as bytes, not as text: the blob is binary.
   * @returns a new array: sparse (≤ 3000 bytes) when Redis could hold it sparse and `encoding` is
   *   "auto", else 12304 dense bytes. O(m).
   * @throws RangeError when the precision is not 14.
   */
  toRedis(options?: ToRedisOptions): Uint8Array {
    const o = checkOptions(WHERE, options, ["encoding"]);
    if (this.#p !== REDIS_PRECISION) {
      const how =
        this.#p > REDIS_PRECISION
          ? `downsize(${REDIS_PRECISION}) first`
          : `a sketch cannot be raised to a higher precision: build it at ${REDIS_PRECISION}`;
      throw rangeError(WHERE, "precision", this.#p, `${REDIS_PRECISION} for a Redis blob (${how})`);
    }
    const encoding = o.encoding === undefined ? "auto" : o.encoding;
    if (encoding !== "auto" && encoding !== "dense") {
      throw typeError(WHERE, "encoding", encoding, '"auto" or "dense"');
    }
    const card = this.count("ertl");
    if (encoding === "auto") {
      const sparse = encodeRedisSparse(this.registers(), card);
      if (sparse !== null) return sparse;
    }
    if (this.#dense !== null) return encodeRedisDense(this.#dense, card);
    return encodeRedisDense(HyperLogLog.#pack(this.registers()), card);
  }

  /**
   * Reads a Redis HYLL string (what `GET key` returns for a key PFADD made), dense or sparse. Every
   * length, opcode run and register is validated before use; `value` is read once and not kept. The
   * blob's cached cardinality is ignored.
   * @param value the string's bytes (a Node Buffer is a Uint8Array).
   * @returns a new precision-14 sketch, without the martingale state. O(blob + m).
   * @throws TypeError when `value` is not a Uint8Array (null, what GET answers for a missing key,
   *   included) or is detached; RedstructFormatError when the blob is malformed, or is another
   *   format (a toBytes() buffer is named as such).
   */
  static fromRedis(value: Uint8Array, options?: FromRedisOptions): HyperLogLog {
    if (value === null || value === undefined) {
      throw new TypeError(
        `redstruct/${WHERE}: value must be a Uint8Array holding a HYLL string, got ${value}` +
          (value === null ? " (GET answers null for a key that does not exist)" : ""),
      );
    }
    if (typeof value === "string") {
      throw new TypeError(
        `redstruct/${WHERE}: value must be a Uint8Array holding a HYLL string, got a string: read the key ` +
          "as bytes, not as text (a HYLL string is binary and does not survive decoding as UTF-8)",
      );
    }
    const bytes = checkBytes(WHERE, "value", value);
    const o = checkOptions(WHERE, options, ["estimator"]);
    const estimator = o.estimator === undefined ? "ertl" : checkDefaultEstimator(o.estimator);
    return HyperLogLog.#fromValues(REDIS_PRECISION, estimator, decodeRedis(bytes), "fromRedis()");
  }

  /**
   * redstruct's compact versioned format (any precision), carrying the martingale state when the
   * sketch has it, so `fromBytes(toBytes())` can go on with `count("martingale")`: 13 bytes plus
   * 24 for that state, then 3 bytes per non-zero register while sparse, 6m/8 bytes dense.
   * @returns a new array. O(m).
   */
  toBytes(): Uint8Array {
    const code = ESTIMATORS.indexOf(this.#estimator);
    const mg = this.#mg.lost === null ? this.#mg : null;
    if (this.#dense !== null) return encodeDense(this.#p, code, mg, this.#dense);
    return encodeSparse(this.#p, code, mg, this.#sparse, this.#sparseLength);
  }

  /**
   * Reads a {@link HyperLogLog.toBytes} buffer (format version 2); `bytes` is read once and not
   * kept. The martingale estimator is available on the result when the buffer carries its state,
   * which must agree with the registers (the running sum exactly, see martingale.ts).
   * @returns a new sketch equal to the one serialized. O(m).
   * @throws TypeError when `bytes` is not a Uint8Array or is detached; RedstructFormatError when the
   *   buffer is malformed, truncated, of an unknown version or another format (a Redis HYLL string is
   *   named as such).
   */
  static fromBytes(bytes: Uint8Array): HyperLogLog {
    const { precision, estimator, values, martingale } = decodeBytes(bytes);
    const h = HyperLogLog.#fromValues(
      precision,
      ESTIMATORS[estimator]!,
      values,
      "fromBytes() of bytes without the martingale state",
    );
    if (martingale !== null) {
      const fresh = h.#changeSum();
      const problem = stateProblem(martingale.estimate, martingale.variance, martingale.sum, fresh, h.#nonZero());
      if (problem !== null) throw formatError(WHERE, problem);
      h.#mg.restore(martingale.estimate, martingale.variance, fresh);
    }
    return h;
  }

  /** Σ_j P(the next element changes register j), exactly, from the registers. O(m). */
  #changeSum(): ExactSum {
    this.#fillHistogram();
    const sum = new ExactSum();
    for (let r = 0; r < this.#maxRun; r++) if (histogram[r] !== 0) sum.add(BEYOND[r]!, histogram[r]!);
    return sum;
  }

  /** A HyperLogLog is not JSON: send {@link HyperLogLog.toBytes} and rebuild it with {@link HyperLogLog.fromBytes}. */
  toJSON(): never {
    throw notJson(WHERE);
  }

  /** Packs one value per byte into 6-bit registers (+ pad byte). */
  static #pack(values: Uint8Array): Uint8Array {
    const d = new Uint8Array((values.length * 6) / 8 + 1);
    for (let i = 0; i < values.length; i++) if (values[i] !== 0) setPacked(d, i, values[i]!);
    return d;
  }

  /**
   * A sketch from one (validated) value per register, in its canonical representation, without
   * the martingale state (lost by `origin`).
   */
  static #fromValues(
    precision: number,
    estimator: "ertl" | "classic",
    values: Uint8Array,
    origin: string,
  ): HyperLogLog {
    const h = new HyperLogLog({ precision, estimator });
    h.#mg.lose(origin);
    let nonZero = 0;
    for (let i = 0; i < values.length; i++) if (values[i] !== 0) nonZero++;
    if (nonZero > h.#sparseLimit) {
      h.#dense = HyperLogLog.#pack(values);
      h.#sparse = new Uint32Array(0);
    } else if (nonZero > 0) {
      const entries = new Uint32Array(Math.max(SPARSE_INITIAL, nonZero));
      let k = 0;
      for (let i = 0; i < values.length; i++) if (values[i] !== 0) entries[k++] = (i << 6) | values[i]!;
      h.#sparse = entries;
      h.#sparseLength = nonZero;
    }
    return h;
  }

  // ---------------------------------------------------------------------------------------------
  // Checking
  // ---------------------------------------------------------------------------------------------

  /**
   * Walks the whole sketch and throws an Error describing the first broken invariant (see the
   * file header). For tests; O(m).
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    if (this.#m !== 1 << this.#p) fail(`m ${this.#m} != 2^${this.#p}`);
    const d = this.#dense;
    if (d !== null) {
      if (this.#sparseLength !== 0) fail("both representations live");
      if (d.length !== (this.#m * 6) / 8 + 1) fail(`dense length ${d.length}`);
      if (d[d.length - 1] !== 0) fail("pad byte not zero");
      let nonZero = 0;
      for (let i = 0; i < this.#m; i++) {
        const v = getPacked(d, i);
        if (v > this.#maxRun) fail(`register ${i} = ${v} > ${this.#maxRun}`);
        if (v !== 0) nonZero++;
      }
      // Canonical form: dense only past the sparse limit — except at the precisions that are always
      // dense (limit 0), where an empty sketch is dense too.
      if (this.#sparseLimit > 0 && nonZero <= this.#sparseLimit)
        fail(`dense with ${nonZero} non-zero registers (limit ${this.#sparseLimit})`);
    } else {
      if (this.#sparseLimit === 0) fail("sparse at a precision that is always dense");
      if (this.#sparseLength > this.#sparseLimit) fail(`${this.#sparseLength} sparse entries > ${this.#sparseLimit}`);
      if (this.#sparseLength > this.#sparse.length) fail("sparse length beyond capacity");
      let last = -1;
      for (let i = 0; i < this.#sparseLength; i++) {
        const e = this.#sparse[i]!;
        const index = e >>> 6;
        const v = e & 63;
        if (index <= last || index >= this.#m) fail(`sparse entry ${i} index ${index} after ${last}`);
        if (v === 0 || v > this.#maxRun) fail(`sparse entry ${i} value ${v}`);
        last = index;
      }
    }
    this.#fillHistogram();
    const fresh = Math.min(ertlEstimate(histogram, this.#m, 64 - this.#p), MAX_ESTIMATE);
    if (this.#ertl >= 0 && fresh !== this.#ertl) fail("stale cached count");
    if (this.#mg.lost === null) {
      const nonZero = this.#m - histogram[0]!;
      const problem = this.#mg.problem(this.#changeSum(), nonZero);
      if (problem !== null) fail(problem);
    }
  }

  static {
    defineInspect(HyperLogLog, (h) => ({
      fields: { precision: h.precision, encoding: h.encoding, estimator: h.estimator, byteLength: h.byteLength },
    }));
  }
}
