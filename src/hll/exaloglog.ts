/**
 * ExaLogLog — Otmar Ertl, "ExaLogLog: Space-Efficient and Practical Approximate Distinct Counting
 * up to the Exa-Scale" (EDBT 2025, arXiv 2402.13726), written from the paper.
 *
 * Algorithm: an element is hashed with the same MurmurHash64A (seed 0xadc83b19) as
 * {@link HyperLogLog} and {@link UltraLogLog}, and split the same way: the low p bits pick the
 * register, and the HyperLogLog run r is the number of trailing zeros of `(hash >> p) | 1 << (64 − p)`
 * plus one. ExaLogLog refines the run into an update value k with the paper's distribution
 * ρ(k) = 2^−φ(k), φ(k) = min(t + 1 + ⌊(k − 1)/2^t⌋, 64 − p) (registers.ts), from hash bits
 * HyperLogLog does not read:
 * - r ≤ 64 − p − t: k = (r − 1)·2^t + f + 1, f the t hash bits just above the run's terminating one
 *   (bits p + r … p + r + t − 1). Given r they are uniform, so each of the 2^t values has
 *   probability 2^−(r + t) = 2^−φ(k).
 * - r > 64 − p − t (every bit from p to 63 − t zero, probability 2^−(64−p−t)): the paper's top group
 *   of 2^t values, each 2^−(64−p). Here the top t hash bits v are uniform and decide both k and
 *   HyperLogLog's run (65 − p − t + ctz(v), up to 65 − p); f = (2^t − 1) XOR (v with its t bits
 *   reversed) gives the values in the order of those runs, so a larger value never has a shorter run.
 * Hence every value has the paper's probability, the largest value of a register determines
 * HyperLogLog's register exactly ({@link ExaLogLog.toHyperLogLog}), and t = 0 makes k the run itself:
 * t = 0, d = 2 is UltraLogLog register for register. A register keeps the largest value u and d
 * flags for u − 1 … u − d (registers.ts). Estimators: the paper's maximum likelihood (ln L =
 * −α·λ + Σ_j β_j·ln(1 − e^(−λ·2^−j)), solved by bisection and regula falsi on log λ), asymptotic
 * memory-variance product ≈ 3.80 at t = 2, d = 24 (the Fisher information of the register model), and
 * the martingale (HIP) estimator with the paper's h(r), ≈ 3.0.
 *
 * Memory layout: one Int32Array of m = 2^p registers, register = `u << d | flags` (flag of u − i at
 * bit d − i; 0: empty) as an int32 bit pattern (u << 24 reaches bit 31, and V8 keeps int32 loads
 * unboxed where a Uint32Array's values above 2^31 become heap numbers). 6 + t + d ≤ 32 bits always
 * fits one word; at the default t = 2, d = 24 the register is exactly 32 bits, one aligned load and
 * store per add. Narrower registers (d < 24) are not bit-packed in memory: a packed layout would
 * straddle words, and d < 24 exists for compatibility and reduction, not to save memory here.
 * `toBytes()` stores ⌈(6 + t + d)/8⌉ bytes per register.
 *
 * Invariants (checked by {@link ExaLogLog.checkInvariants}): every register is 0 or has
 * 1 ≤ u ≤ (65 − p − t)·2^t and no flag for a value below 1; a cached ML estimate equals a fresh one;
 * while the martingale state is held, its running sum equals Σ_j h(register j) exactly (split
 * terms, martingale.ts), its estimate is finite and at least the number of non-empty registers and
 * its variance finite and ≥ 0.
 *
 * Saturation: every estimate is capped at 2^64 (MAX_ESTIMATE in shared.ts); maximum likelihood is
 * infinite when every register saw every value (reachable through addHash or crafted bytes).
 *
 * Reduction: merging is exact (registers.ts); `downsize` is exact in d, and in precision for t = 0
 * and wherever no register has forgotten a value; otherwise the lost refining bits are drawn from
 * the model, and the HyperLogLog runs stay exact (see {@link ExaLogLog.downsize}).
 *
 * Costs: `add` O(1) after hashing, no allocation (a register change also looks up the martingale's
 * h(r) in per-byte tables: registers.ts); `count` O(m·d) after a change (the ML coefficients) plus
 * ≈ 20 solver steps of O(64), O(1) for the martingale; `merge`, `downsize`, serialization O(m);
 * `bounds` a count plus a bisection on a table of standard deviations built once per (p, t, d).
 */
import type { Item } from "../hash/index.js";
import { ByteReader, ByteWriter } from "../internal/bytes.js";
import { checkInteger, formatError, invariantFailure, notJson, rangeError, typeError } from "../internal/errors.js";
import { defineInspect } from "../internal/inspect.js";
import { checkIterable, checkOptions } from "../internal/options.js";
import { type Bounds, checkStdDevs, invertedBounds, symmetricBounds, tabulated } from "./bounds.js";
import { type HyperLogLog, hyperLogLogOf } from "./hyperloglog.js";
import { ExactSum, Martingale, stateProblem } from "./martingale.js";
import {
  changeProbabilityOf,
  coarseRegister,
  hyperLogLogRun,
  mergeRegisters,
  mlEstimate,
  mlStdDev,
  mlTerms,
  registerWith,
  unionRegisters,
  type ValueModel,
  validRegister,
  valueModel,
  type WindowModel,
  windowModel,
} from "./registers.js";
import {
  addEach,
  checkHalves,
  checkHyperLogLogPrecision,
  checkSketch,
  hashItem,
  hashRun,
  MAX_ESTIMATE,
  mergeArguments,
  unionArguments,
} from "./shared.js";

/** How {@link ExaLogLog.count} turns registers into a number. */
export type ExaLogLogEstimator = "ml" | "martingale";

/** Options of {@link ExaLogLog}. */
export interface ExaLogLogOptions {
  /**
   * log2 of the register count: 4..26. RMSE ≈ √(3.8 / (32·2^p)) with ML at the default t and d.
   * @defaultValue 12 (16 KiB of registers, 0.54 %)
   */
  precision?: number;
  /**
   * The update-value distribution's parameter: 2^t values per HyperLogLog run, 0..2.
   * @defaultValue 2
   */
  t?: number;
  /**
   * Flags per register for the values below the largest: 0..24.
   * @defaultValue 24 (with t = 2, one 32-bit register)
   */
  d?: number;
}

/** Options of {@link ExaLogLog.count}, {@link ExaLogLog.estimate} and {@link ExaLogLog.bounds}. */
export interface ExaLogLogCountOptions {
  /**
   * "ml" (maximum likelihood) or "martingale" (only for a sketch fed by its own adds).
   * @defaultValue "ml"
   */
  estimator?: ExaLogLogEstimator;
}

/** Options of {@link ExaLogLog.downsize}: the new precision and flag count, each at most this sketch's. */
export interface ExaLogLogDownsizeOptions {
  /** @defaultValue this sketch's precision */
  precision?: number;
  /** @defaultValue this sketch's d */
  d?: number;
}

const WHERE = "ExaLogLog";
const MAGIC = "RELL";
const VERSION = 1;
const MIN_PRECISION = 4;
const MAX_PRECISION = 26;
const MAX_T = 2;
const MAX_D = 24;

// Scratch shared by every instance: the likelihood's coefficients (the hash scratch is hashItem's). No add allocates.
const beta = new Float64Array(65);

/**
 * The top group's values (+ 1), by t and the top t hash bits v: (2^t − 1) XOR (v reversed) + 1, so a
 * value's leading ones count the trailing zeros of v, the run HyperLogLog takes beyond 65 − p − t.
 * Index `t << 2 | v`.
 */
const TOP_VALUE = Int32Array.from({ length: 12 }, (_, i) => {
  const t = i >>> 2;
  const v = i & 3;
  if (v >= 1 << t) return 0;
  let reversed = 0;
  for (let b = 0; b < t; b++) reversed |= ((v >>> b) & 1) << (t - 1 - b);
  return (((1 << t) - 1) ^ reversed) + 1;
});

/**
 * An ExaLogLog sketch: counts distinct elements with 43 % less memory than HyperLogLog for the
 * same error (memory-variance product ≈ 3.8 with maximum likelihood, ≈ 3.0 with the martingale
 * estimator, against HyperLogLog's 6.5). Elements as in {@link HyperLogLog}: strings (UTF-8),
 * numbers and bigints (their decimal string), byte arrays.
 */
export class ExaLogLog {
  readonly #p: number;
  readonly #t: number;
  readonly #d: number;
  readonly #m: number;
  readonly #model: ValueModel;
  readonly #window: WindowModel;
  /** 64 − p − t: the longest HyperLogLog run below the top group. */
  readonly #lastRun: number;
  /** (64 − p − t)·2^t: the top group's values are this plus TOP_VALUE. */
  readonly #topBase: number;
  readonly #regs: Int32Array;
  readonly #mg: Martingale;
  /** Cached unrounded ML estimate; −1 when stale. */
  #ml = -1;

  /**
   * Creates an empty sketch of m = 2^precision registers of 6 + t + d bits (held in 32). O(m).
   * @throws TypeError for an unknown option or a non-object; RangeError for a precision outside
   *   4..26, a t outside 0..2 or a d outside 0..24.
   */
  constructor(options?: ExaLogLogOptions) {
    const o = checkOptions(WHERE, options, ["precision", "t", "d"]);
    this.#p =
      o.precision === undefined ? 12 : checkInteger(WHERE, "precision", o.precision, MIN_PRECISION, MAX_PRECISION);
    this.#t = o.t === undefined ? 2 : checkInteger(WHERE, "t", o.t, 0, MAX_T);
    this.#d = o.d === undefined ? 24 : checkInteger(WHERE, "d", o.d, 0, MAX_D);
    this.#m = 1 << this.#p;
    this.#model = valueModel(this.#p, this.#t);
    this.#window = windowModel(this.#p, this.#t, this.#d);
    this.#lastRun = 64 - this.#p - this.#t;
    this.#topBase = this.#lastRun << this.#t;
    this.#regs = new Int32Array(this.#m);
    this.#mg = new Martingale(this.#m);
  }

  /**
   * A sketch holding every item of `items`. O(n).
   * @throws TypeError when `items` is not a sync iterable (a lone string included), for an item that
   *   is not a string, number, bigint or Uint8Array, or for bad options.
   */
  static from(items: Iterable<Item>, options?: ExaLogLogOptions): ExaLogLog {
    checkIterable(WHERE, "items", items);
    const e = new ExaLogLog(options);
    e.addAll(items);
    return e;
  }

  // ---------------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------------

  /** log2 of the register count (4..26). */
  get precision(): number {
    return this.#p;
  }

  /** The update-value parameter t (0..2): 2^t values per HyperLogLog run. */
  get t(): number {
    return this.#t;
  }

  /** Flags per register (0..24) for the values below the largest. */
  get d(): number {
    return this.#d;
  }

  /** Number of registers m = 2^precision. */
  get registerCount(): number {
    return this.#m;
  }

  /** Bytes of register storage: 4 per register (one 32-bit word each). O(1). */
  get byteLength(): number {
    return this.#regs.byteLength;
  }

  // ---------------------------------------------------------------------------------------------
  // Adding and counting
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds one item (hashed with MurmurHash64A, seed 0xadc83b19, as HyperLogLog.add; Redis's `PFADD`
   * is the counterpart).
   * @returns true when a register changed. O(length of the item) to hash, then O(1); no allocation.
   * @throws TypeError, before anything changes, when `item` is not a string, number, bigint or
   *   Uint8Array, or is a Uint8Array whose buffer was detached.
   */
  add(item: Item): boolean {
    const h = hashItem(WHERE, item);
    return this.#addHashed(h[0]!, h[1]!);
  }

  /**
   * Adds every item, in order (as `PFADD key item1 item2 …`).
   * @returns true when at least one register changed. O(n).
   * @throws TypeError when `items` is not a sync iterable (a lone string included), or at the first
   *   item that `add` refuses (the items before it stay added).
   */
  addAll(items: Iterable<Item>): boolean {
    return addEach(WHERE, this, items);
  }

  /**
   * Adds an element by its 64-bit hash given as two unsigned 32-bit halves (as
   * {@link HyperLogLog.addHash}: the same halves reach the same register with the same run).
   * @returns true when a register changed. O(1).
   * @throws TypeError / RangeError when a half is not an integer in [0, 2^32).
   */
  addHash(low: number, high: number): boolean {
    checkHalves(WHERE, low, high);
    return this.#addHashed(low, high);
  }

  #addHashed(low: number, high: number): boolean {
    const p = this.#p;
    const t = this.#t;
    const run = hashRun(low, high, p);
    let k: number;
    if (run <= this.#lastRun) {
      // The t bits above the run's terminating one (for t = 0 the mask is 0 and k is the run).
      const pos = p + run;
      const bits = pos < 32 ? (low >>> pos) | (high << (32 - pos)) : high >>> (pos - 32);
      k = ((run - 1) << t) + (bits & ((1 << t) - 1)) + 1;
    } else {
      k = this.#topBase + TOP_VALUE[(t << 2) | ((high >>> 30) >>> (2 - t))]!;
    }
    const index = low & (this.#m - 1);
    const regs = this.#regs;
    const old = regs[index]!;
    const next = registerWith(old, k, this.#d);
    if (next === old) return false;
    regs[index] = next;
    this.#ml = -1;
    if (this.#mg.lost === null) {
      this.#mg.stepSplit(changeProbabilityOf(this.#window, old), changeProbabilityOf(this.#window, next));
    }
    return true;
  }

  /**
   * Estimated number of distinct elements, as an integer.
   * - "ml" (default): the paper's maximum-likelihood estimator; RMSE ≈ √(3.80/(32m)) = 0.345/√m at
   *   t = 2, d = 24.
   * - "martingale": kept up to date by every add (O(1) here), RMSE ≈ √(3.0/(32m)) = 0.31/√m, only for a
   *   sketch fed by its own adds since it was created or cleared (or read by fromBytes from such a
   *   sketch's bytes, or downsized in d alone); after merge, union, a change of precision or
   *   fromBytes without the state it throws rather than fall back silently.
   * Every estimator answers at most 2^64. Redis has no ExaLogLog; `PFCOUNT` is HyperLogLog's
   * counterpart. Complexity: O(m·d) after a change, O(1) when cached or for "martingale".
   * @throws TypeError for bad options or an unknown estimator; Error for "martingale" when the state was lost.
   */
  count(options?: ExaLogLogCountOptions): number {
    return Math.round(this.estimate(options));
  }

  /**
   * The estimate before rounding (`count()` is `Math.round(estimate())`). Options, complexity and
   * errors as {@link ExaLogLog.count}.
   */
  estimate(options?: ExaLogLogCountOptions): number {
    return this.#estimate(estimatorOf(options));
  }

  #estimate(estimator: ExaLogLogEstimator): number {
    if (estimator === "martingale") return Math.min(this.#mg.checked(WHERE).estimate, MAX_ESTIMATE);
    if (this.#ml < 0) this.#ml = Math.min(this.#mlFresh(), MAX_ESTIMATE);
    return this.#ml;
  }

  /** The ML estimate from the registers. O(m·d). */
  #mlFresh(): number {
    beta.fill(0);
    const regs = this.#regs;
    const d = this.#d;
    const model = this.#model;
    let alpha = 0;
    for (let i = 0; i < regs.length; i++) alpha += mlTerms(model, regs[i]!, d, 1, beta);
    return mlEstimate(alpha, beta, this.#m);
  }

  /**
   * An interval estimate `{ lower, estimate, upper }` holding the true count with the normal
   * approximation's probability at `stdDevs` standard deviations (68.3 / 95.4 / 99.7 % at 1 / 2 / 3),
   * as {@link UltraLogLog.bounds}: for "ml" the standard deviation at each n comes from the Fisher
   * information of the register model, for "martingale" from the variance the martingale tracks.
   * `lower` is never below the number of non-empty registers and `lower ≤ estimate ≤ upper` always.
   * @param stdDevs a finite number > 0 (default 2). @param options `{ estimator }` as in count().
   * Complexity: O(m·d) after a change plus ≈ 160 table lookups (the table: once per p, t, d).
   * @throws RangeError / TypeError for a bad argument; Error for "martingale" as in count().
   */
  bounds(stdDevs = 2, options?: ExaLogLogCountOptions): Bounds {
    const z = checkStdDevs(WHERE, stdDevs);
    const estimator = estimatorOf(options);
    const estimate = this.#estimate(estimator);
    const occupied = this.#occupied();
    if (estimator === "martingale") return symmetricBounds(estimate, this.#mg.variance, z, occupied, this.#m);
    const m = this.#m;
    const model = this.#model;
    const d = this.#d;
    const sd = tabulated(`ell-ml-${this.#p}-${this.#t}-${d}`, m, (n) => mlStdDev(n, m, model, d));
    return invertedBounds(estimate, z, occupied, m, sd);
  }

  /** Number of non-empty registers. O(m). */
  #occupied(): number {
    let occupied = 0;
    const regs = this.#regs;
    for (let i = 0; i < regs.length; i++) if (regs[i] !== 0) occupied++;
    return occupied;
  }

  /**
   * Register `index` as an unsigned integer `u << d | flags` (see the file header). O(1).
   * @throws RangeError when index is not an integer in [0, m).
   */
  register(index: number): number {
    checkInteger(WHERE, "index", index, 0, this.#m - 1);
    return this.#regs[index]! >>> 0;
  }

  /** All registers as unsigned integers (a new array). O(m). */
  registers(): Uint32Array {
    return new Uint32Array(this.#regs.buffer.slice(0));
  }

  // ---------------------------------------------------------------------------------------------
  // Merging and reduction
  // ---------------------------------------------------------------------------------------------

  /**
   * Merges other sketches into this one: each register becomes the register holding every value
   * either holds — exactly the register the union of the streams produces. A sketch of higher
   * precision or larger d is first downsized to this one's (see {@link ExaLogLog.downsize}); a
   * lower precision or smaller d throws, and so does another t. Takes sketches as arguments or one
   * iterable of them. The martingale estimator is unavailable afterwards.
   * @returns this. O(m) per sketch.
   * @throws TypeError for a non-sketch (or one from another copy of redstruct, or an object with the
   *   prototype but no state); RangeError for a lower precision, a smaller d or another t.
   */
  merge(...others: ExaLogLog[]): this;
  merge(others: Iterable<ExaLogLog>): this;
  merge(...args: unknown[]): this {
    const others = mergeArguments(WHERE, args, ExaLogLog, ExaLogLog.#branded);
    for (const o of others) {
      this.#checkT(o, "merge argument t");
      if (o.#p < this.#p) {
        throw rangeError(
          WHERE,
          "merge argument precision",
          o.#p,
          `≥ this sketch's precision ${this.#p} (downsize this sketch with downsize({ precision: ${o.#p} }) or use ExaLogLog.union)`,
        );
      }
      if (o.#d < this.#d) {
        throw rangeError(
          WHERE,
          "merge argument d",
          o.#d,
          `≥ this sketch's d ${this.#d} (downsize this sketch with downsize({ d: ${o.#d} }) or use ExaLogLog.union)`,
        );
      }
    }
    for (const o of others) this.#mergeSame(o.#at(this.#p, this.#d));
    if (others.length > 0) this.#mg.lose("merge()");
    return this;
  }

  #checkT(other: ExaLogLog, param: string): void {
    if (other.#t !== this.#t) {
      throw rangeError(WHERE, param, other.#t, `${this.#t}, this sketch's (sketches of different t cannot be merged)`);
    }
  }

  /** This sketch, or its reduction to (p, d) when either is lower. */
  #at(p: number, d: number): ExaLogLog {
    return p === this.#p && d === this.#d ? this : this.downsize({ precision: p, d });
  }

  #mergeSame(other: ExaLogLog): void {
    if (mergeRegisters(this.#regs, other.#regs, this.#d)) this.#ml = -1;
  }

  /** True when `v` was built by this class (has its private state), not just given its prototype. */
  static #branded(v: object): boolean {
    return #p in v;
  }

  /**
   * The union of `sketches` as a new sketch at the lowest precision and the lowest d among them
   * (the others downsized); the inputs are not changed. `sketches` is one iterable
   * (`ExaLogLog.union([a, b])`) of sketches of one t. The counterpart of `PFMERGE dest k1 k2 …`.
   * O(m) per sketch.
   * @throws TypeError when `sketches` is not an iterable of ExaLogLogs (sketches passed as separate
   *   arguments included: the message shows the array form); RangeError when it holds none, or
   *   sketches of different t.
   */
  static union(sketches: Iterable<ExaLogLog>): ExaLogLog;
  static union(...args: unknown[]): ExaLogLog {
    const sketches = unionArguments(WHERE, args, ExaLogLog, ExaLogLog.#branded);
    const first = sketches[0]!;
    let p = first.#p;
    let d = first.#d;
    sketches.forEach((s, i) => {
      first.#checkT(s, `sketches[${i}] t`);
      p = Math.min(p, s.#p);
      d = Math.min(d, s.#d);
    });
    const out = new ExaLogLog({ precision: p, t: first.#t, d });
    for (const s of sketches) out.#mergeSame(s.#at(p, d));
    out.#mg.lose("ExaLogLog.union()");
    return out;
  }

  /**
   * A new sketch with fewer registers and/or fewer flags (each defaults to this sketch's).
   * - Lowering d is exact: the sketch built with that d from the same elements (the oldest flags
   *   are dropped). The martingale state carries over, its sum recomputed: its estimate counts the
   *   elements so far and later adds step it with the smaller sketch's own change probabilities.
   * - Lowering the precision is exact for t = 0 (UltraLogLog's case) and whenever no register has
   *   forgotten a value (every u ≤ d + 1). Otherwise not always: the index bits a coarser sketch
   *   drops become the low bits of its runs, and an element's t refining bits can then reach into
   *   the first bits above the old run — known from the values a register holds, lost with the
   *   values it has forgotten (below u − d). Such a coarse value is present with the probability
   *   the Poisson model gives it at this sketch's ML estimate, drawn against a fixed pseudo-random
   *   number of the register's position (so the result is deterministic and distributed as a
   *   sketch built at that precision). The coarse registers' HyperLogLog runs are exact either way,
   *   so `toHyperLogLog()` of the result is exactly the HyperLogLog of the same elements at the lower
   *   precision, and its count is sound: the bias and error of a sketch built at that precision.
   *   The martingale state does not survive a change of precision.
   * No Redis counterpart. O(m).
   * @throws TypeError for a bad options object; RangeError when precision is not an integer in
   *   4..this.precision or d not an integer in 0..this.d.
   */
  downsize(options?: ExaLogLogDownsizeOptions): ExaLogLog {
    const o = checkOptions(WHERE, options, ["precision", "d"]);
    const p =
      o.precision === undefined ? this.#p : checkInteger(WHERE, "precision", o.precision, MIN_PRECISION, this.#p);
    const d = o.d === undefined ? this.#d : checkInteger(WHERE, "d", o.d, 0, this.#d);
    if (p === this.#p && d === this.#d) return this.clone();
    // Lower the precision first, while every flag is still there to tell which values were seen.
    const coarse = p === this.#p ? this.#regs : this.#reducedPrecision(p);
    const out = new ExaLogLog({ precision: p, t: this.#t, d });
    const dst = out.#regs;
    const drop = this.#d - d;
    const mask = (1 << d) - 1;
    for (let i = 0; i < dst.length; i++) {
      const r = coarse[i]!;
      dst[i] = r === 0 || drop === 0 ? r : ((r >>> this.#d) << d) | ((r >>> drop) & mask) | 0;
    }
    if (p === this.#p && this.#mg.lost === null) {
      const sum = out.#changeSum();
      out.#mg.restore(this.#mg.estimate, this.#mg.variance, sum);
    } else {
      out.#mg.lose(p === this.#p ? this.#mg.lost! : "downsize() to a lower precision");
    }
    return out;
  }

  /** The registers at precision p < this one, with this sketch's d (see downsize). O(m). */
  #reducedPrecision(p: number): Int32Array {
    const src = this.#regs;
    const out = new Int32Array(1 << p);
    const shift = this.#p - p;
    const mask = (1 << p) - 1;
    const d = this.#d;
    let lambda = -1;
    for (let j = 0; j < src.length; j++) {
      const r = src[j]!;
      if (r === 0) continue;
      const upper = j >>> p;
      let c = coarseRegister(r, upper, shift, this.#t, d);
      if (c === -1) {
        // λ = n/m of this sketch, by maximum likelihood, computed once and only when needed.
        if (lambda < 0) lambda = this.#estimate("ml") / this.#m;
        c = this.#drawnCoarse(r, j, upper, shift, lambda);
      }
      out[j & mask] = unionRegisters(out[j & mask]!, c, d);
    }
    return out;
  }

  /**
   * The coarse register of a fine register `r` whose elements' coarse refining bits reach e ≥ 1
   * bits into the hash above the fine run (see downsize): all its elements share the coarse run
   * ctz(upper) + 1 and the refining bits from `upper`; the e bits x below are known per fine value
   * k (x = 0 when k's run exceeds e; else a one at bit run − 1 of x, the bits above it from k's own
   * refining bits). A pattern seen by none of the values the register knows, but by some it has
   * forgotten of total probability w, is present with probability 1 − e^(−λ·w) (values occur
   * independently in the Poisson model), drawn against `drawn(j, pattern)`.
   */
  #drawnCoarse(r: number, j: number, upper: number, shift: number, lambda: number): number {
    const t = this.#t;
    const d = this.#d;
    const rho = this.#model.rho;
    const run = 32 - Math.clz32(upper & -upper);
    const known = shift - run; // refining bits taken from upper (< t)
    const e = t - known;
    const base = ((run - 1) << t) + (upper >>> run) + 1;
    const u = r >>> d;
    let present = (u - 1) >>> t >= e ? 1 : 0; // x = 0: u's own element, when its run exceeds e
    // Values whose run is at most e (k ≤ e·2^t) have x ≥ 1: 1, 2 or 3 (e ≤ 2). Forgotten ones add
    // their probability to their pattern's mass.
    let mass1 = 0;
    let mass2 = 0;
    let mass3 = 0;
    const top = Math.min(e << t, u);
    for (let k = 1; k <= top; k++) {
      const j = (k - 1) >>> t;
      const f = (k - 1) & ((1 << t) - 1);
      const x = (1 << j) | ((f & ((1 << (e - 1 - j)) - 1)) << (j + 1));
      if (k === u || (u - k <= d && ((r >>> (d - (u - k))) & 1) !== 0)) present |= 1 << x;
      else if (u - k > d) {
        if (x === 1) mass1 += rho[k]!;
        else if (x === 2) mass2 += rho[k]!;
        else mass3 += rho[k]!;
      }
    }
    if (mass1 > 0 && drawn(j, 1) < -Math.expm1(-lambda * mass1)) present |= 2;
    if (mass2 > 0 && drawn(j, 2) < -Math.expm1(-lambda * mass2)) present |= 4;
    if (mass3 > 0 && drawn(j, 3) < -Math.expm1(-lambda * mass3)) present |= 8;
    const highest = 31 - Math.clz32(present);
    const uc = base + (highest << known);
    let out = uc << d;
    for (let x = 0; x < highest; x++) {
      if (((present >>> x) & 1) === 0) continue;
      const delta = (highest - x) << known;
      if (delta <= d) out |= 1 << (d - delta);
    }
    return out | 0;
  }

  /**
   * The HyperLogLog the same elements build at this precision: every register's largest value
   * gives HyperLogLog's register (its run; see the file header). At precision 14 it is the sketch
   * Redis holds for those elements, so `toHyperLogLog().toRedis()` is a key Redis can `PFCOUNT` and
   * `PFMERGE` with its own (its dense bytes equal Redis's). Exact after any merge or downsize too.
   * The result has no martingale state. O(m).
   * @throws RangeError above precision 18 (HyperLogLog's precisions are 4..18; downsize first).
   */
  toHyperLogLog(): HyperLogLog {
    checkHyperLogLogPrecision(WHERE, this.#p, "downsize({ precision: 18 })");
    const values = new Uint8Array(this.#m);
    const regs = this.#regs;
    const d = this.#d;
    for (let i = 0; i < regs.length; i++) {
      if (regs[i] !== 0) values[i] = hyperLogLogRun(this.#model, regs[i]! >>> d);
    }
    return hyperLogLogOf(this.#p, values, "ExaLogLog.toHyperLogLog()");
  }

  /** An independent copy, martingale state included. O(m). */
  clone(): ExaLogLog {
    const c = new ExaLogLog({ precision: this.#p, t: this.#t, d: this.#d });
    c.#regs.set(this.#regs);
    c.#mg.copyFrom(this.#mg);
    c.#ml = this.#ml;
    return c;
  }

  /** Empties the sketch; the martingale estimator is available again. O(m). */
  clear(): void {
    this.#regs.fill(0);
    this.#ml = -1;
    this.#mg.reset();
  }

  /**
   * True when `other` is an ExaLogLog with the same precision, t, d and registers (the martingale
   * state is not compared); false for anything that is not an ExaLogLog. O(m).
   * @throws TypeError for an object with the ExaLogLog prototype but no state.
   */
  equals(other: ExaLogLog): boolean {
    if (!(other instanceof ExaLogLog)) return false;
    checkSketch(WHERE, "other", other, ExaLogLog, ExaLogLog.#branded);
    if (other.#p !== this.#p || other.#t !== this.#t || other.#d !== this.#d) return false;
    const a = this.#regs;
    const b = other.#regs;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Serialization
  // ---------------------------------------------------------------------------------------------

  /**
   * redstruct's versioned ExaLogLog format (little-endian): "RELL", version (1), precision, t, d,
   * flags (bit 0: the martingale state follows), then when flagged three float64 (estimate,
   * variance estimate, running change-probability sum), then the m registers, ⌈(6 + t + d)/8⌉ bytes
   * each (`u << d | flags`). So `fromBytes(toBytes())` continues the martingale estimate exactly.
   * 9 + 4m bytes at the default t and d (+ 24).
   * @returns a new array. O(m).
   */
  toBytes(): Uint8Array {
    const mg = this.#mg.lost === null ? this.#mg : null;
    const width = (6 + this.#t + this.#d + 7) >>> 3;
    const w = new ByteWriter(9 + (mg === null ? 0 : 24) + width * this.#m);
    w.magic(MAGIC)
      .u8(VERSION)
      .u8(this.#p)
      .u8(this.#t)
      .u8(this.#d)
      .u8(mg === null ? 0 : 1);
    if (mg !== null) w.f64(mg.estimate).f64(mg.variance).f64(mg.sum);
    const regs = this.#regs;
    for (let i = 0; i < regs.length; i++) {
      const r = regs[i]!;
      for (let b = 0; b < width; b++) w.u8((r >>> (8 * b)) & 0xff);
    }
    return w.finish();
  }

  /**
   * Reads a {@link ExaLogLog.toBytes} buffer, validating every field and register and the martingale
   * state against the registers (the running sum exactly, see martingale.ts); `bytes` is read once
   * and not kept.
   * @returns a new sketch equal to the one serialized. O(m).
   * @throws TypeError when `bytes` is not a Uint8Array or is detached; RedstructFormatError when the
   *   buffer is malformed, truncated, of an unknown version or another format.
   */
  static fromBytes(bytes: Uint8Array): ExaLogLog {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    const p = r.u8("the precision");
    if (p < MIN_PRECISION || p > MAX_PRECISION) {
      throw formatError(WHERE, `precision ${p} is outside ${MIN_PRECISION}..${MAX_PRECISION}`);
    }
    const t = r.u8("t");
    if (t > MAX_T) throw formatError(WHERE, `t ${t} is outside 0..${MAX_T}`);
    const d = r.u8("d");
    if (d > MAX_D) throw formatError(WHERE, `d ${d} is outside 0..${MAX_D}`);
    const flags = r.u8("the flags");
    if (flags > 1) throw formatError(WHERE, `unknown flags ${flags}`);
    let state: [number, number, number] | null = null;
    if (flags === 1) {
      state = [r.f64("the martingale estimate"), r.f64("the martingale variance"), r.f64("the martingale sum")];
    }
    const m = 2 ** p;
    const width = (6 + t + d + 7) >>> 3;
    const body = r.view(width * m, "the registers");
    r.end();
    const e = new ExaLogLog({ precision: p, t, d });
    const regs = e.#regs;
    const maxValue = e.#model.maxValue;
    for (let i = 0, at = 0; i < m; i++) {
      let v = 0;
      for (let b = 0; b < width; b++) v |= body[at++]! << (8 * b);
      if (!validRegister(v, d, maxValue)) {
        throw formatError(WHERE, `register ${i} holds the impossible value ${v >>> 0} (t ${t}, d ${d})`);
      }
      regs[i] = v;
    }
    if (state === null) {
      e.#mg.lose("fromBytes() of bytes without the martingale state");
      return e;
    }
    const [estimate, variance, sum] = state;
    const fresh = e.#changeSum();
    const problem = stateProblem(estimate, variance, sum, fresh, e.#occupied());
    if (problem !== null) throw formatError(WHERE, problem);
    e.#mg.restore(estimate, variance, fresh);
    return e;
  }

  /** Σ_j h(register j), exactly, as the two halves the martingale keeps (split terms). O(m). */
  #changeSum(): ExactSum {
    const sum = new ExactSum();
    const regs = this.#regs;
    for (let i = 0; i < regs.length; i++) sum.addSplit(changeProbabilityOf(this.#window, regs[i]!));
    return sum;
  }

  /** An ExaLogLog is not JSON: send {@link ExaLogLog.toBytes} and rebuild it with {@link ExaLogLog.fromBytes}. */
  toJSON(): never {
    throw notJson(WHERE);
  }

  // ---------------------------------------------------------------------------------------------
  // Checking
  // ---------------------------------------------------------------------------------------------

  /**
   * Walks the whole sketch and throws an Error describing the first broken invariant (see the
   * file header). For tests; O(m·d).
   */
  checkInvariants(): void {
    const fail: (what: string) => never = invariantFailure(WHERE);
    if (this.#regs.length !== this.#m) fail(`${this.#regs.length} registers for m = ${this.#m}`);
    const maxValue = this.#model.maxValue;
    for (let i = 0; i < this.#m; i++) {
      const r = this.#regs[i]!;
      if (!validRegister(r, this.#d, maxValue)) fail(`register ${i} holds the impossible value ${r >>> 0}`);
    }
    if (this.#mg.lost === null) {
      const problem = this.#mg.problem(this.#changeSum(), this.#occupied());
      if (problem !== null) fail(problem);
    }
    if (this.#ml >= 0 && Math.min(this.#mlFresh(), MAX_ESTIMATE) !== this.#ml) fail("stale cached ML estimate");
  }

  static {
    defineInspect(ExaLogLog, (e) => ({ fields: { precision: e.precision, t: e.t, d: e.d, byteLength: e.byteLength } }));
  }
}

/**
 * A fixed uniform number in [0, 1) for fine register `j` and pattern `x`: MurmurHash3's 32-bit
 * finalizer of 4j + x. It depends only on the register's position, never on what the register
 * holds, so a presence drawn against it has the model's probability.
 */
function drawn(j: number, x: number): number {
  let h = (j * 4 + x) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/** The estimator of a count/estimate/bounds options object. */
function estimatorOf(options: ExaLogLogCountOptions | undefined): ExaLogLogEstimator {
  if (typeof options === "string") {
    throw new TypeError(
      `redstruct/${WHERE}: options must be an object such as { estimator: ${JSON.stringify(options)} }, got the string ${JSON.stringify(options)}`,
    );
  }
  const o = checkOptions(WHERE, options, ["estimator"]);
  const e = o.estimator;
  if (e === undefined || e === "ml") return "ml";
  if (e === "martingale") return e;
  throw typeError(WHERE, "estimator", e, '"ml" or "martingale"');
}
