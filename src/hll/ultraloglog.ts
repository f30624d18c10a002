/**
 * UltraLogLog — Otmar Ertl, "UltraLogLog: A Practical and More Space-Efficient Alternative to
 * HyperLogLog for Approximate Distinct Counting" (PVLDB 17, 2024), the sketch of hash4j.
 *
 * Algorithm: an element is hashed with the same MurmurHash64A (seed 0xadc83b19) as
 * {@link HyperLogLog}, and split the same way: the low p bits pick a register, and the run is the
 * number of trailing zeros of `(hash >> p) | 1 << (64 − p)` plus one (1..q + 1, q = 64 − p), so an
 * element reaches the same register with the same run in both sketches. Where a HyperLogLog
 * register keeps only the largest run u, an UltraLogLog register also keeps whether runs u − 1 and
 * u − 2 were seen: two more bits in a byte buy a memory-variance product 24–28 % lower (RMSE
 * 0.782/√m with FGRA, 0.761/√m with maximum likelihood, 0.658/√m with the martingale estimator, for
 * 8 bits per register against HyperLogLog's 1.04/√m for 6). Estimators: ull-estimators.ts.
 *
 * Memory layout: one Uint8Array of m = 2^p registers, register byte = `u << 2 | a << 1 | b` with
 * u the largest run seen (0: empty), a = run u − 1 seen, b = run u − 2 seen: ExaLogLog's register
 * with t = 0 and d = 2, so the update, the union, the validity, the change probability and maximum
 * likelihood are the register model's (registers.ts), shared with ExaLogLog. The byte layout is
 * this library's own (hash4j's register value also counts the precision); it is what toBytes() stores.
 *
 * Invariants (checked by {@link UltraLogLog.checkInvariants}): every register is 0 or has
 * 1 ≤ u ≤ q + 1 with no flag for a run below 1 (u = 1 has a = b = 0, u = 2 has b = 0); while the
 * martingale state is held, its running sum equals Σ_j P(the next element changes register j)
 * exactly (both parts, see martingale.ts), its estimate is finite and at least the number of
 * non-empty registers and its variance is finite and ≥ 0; a cached FGRA estimate equals a fresh one.
 *
 * Saturation: every estimate is capped at 2^64 (MAX_ESTIMATE in shared.ts), the number of distinct
 * 64-bit hashes. Registers at the longest run with both flags (reachable through addHash or crafted
 * bytes) make maximum likelihood diverge and FGRA overshoot; a saturated sketch answers 2^64.
 *
 * Costs: `add` O(1) after hashing, no allocation (a register update is a shift and an or); `count`
 * O(m) after a change for the histogram plus O(q) (FGRA, ML) or O(1) (martingale); `merge`,
 * `downsize`, serialization O(m).
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
  changeProbability,
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
import { fgraStdDev, ullFgra } from "./ull-estimators.js";

/** How {@link UltraLogLog.count} turns registers into a number. */
export type UltraLogLogEstimator = "fgra" | "ml" | "martingale";

/** Options of {@link UltraLogLog}. */
export interface UltraLogLogOptions {
  /**
   * log2 of the register count: 3..26. One byte per register; RMSE ≈ 0.782/√(2^p) with FGRA.
   * @defaultValue 14 (16 KiB, 0.61 %)
   */
  precision?: number;
}

const WHERE = "UltraLogLog";
const MAGIC = "RULL";
const VERSION = 1;
const MIN_PRECISION = 3;
const MAX_PRECISION = 26;

// Scratch shared by every instance: the state histogram (the hash scratch is hashItem's). No add allocates.
const counts = new Float64Array(256);

/** An UltraLogLog register is the register model's with t = 0 (update value = run) and d = 2. */
const D = 2;

/** Per precision: P(the next element changes a register in state s), for s = 0..255 (0 if invalid). */
const changeTables: (Float64Array | undefined)[] = [];

function changeTable(p: number): Float64Array {
  let table = changeTables[p];
  if (table !== undefined) return table;
  const model = valueModel(p, 0);
  table = new Float64Array(256);
  for (let s = 0; s < 256; s++) if (validRegister(s, D, model.maxValue)) table[s] = changeProbability(model, s, D);
  changeTables[p] = table;
  return table;
}

/**
 * An UltraLogLog sketch: counts distinct elements in m bytes with ≈ 0.78/√m relative error
 * (0.66/√m with the martingale estimator on a sketch fed by its own stream). Elements as in
 * {@link HyperLogLog}: strings (UTF-8), numbers and bigints (their decimal string), byte arrays.
 */
export class UltraLogLog {
  readonly #p: number;
  readonly #m: number;
  readonly #q: number;
  readonly #regs: Uint8Array;
  readonly #model: ValueModel;
  readonly #change: Float64Array;
  readonly #mg: Martingale;
  /** Cached unrounded estimates; −1 when stale. */
  #fgra = -1;
  #ml = -1;

  /**
   * Creates an empty sketch of m = 2^precision one-byte registers. O(m).
   * @throws TypeError for an unknown option or a non-object; RangeError for a precision outside 3..26.
   */
  constructor(options?: UltraLogLogOptions) {
    const o = checkOptions(WHERE, options, ["precision"]);
    this.#p =
      o.precision === undefined ? 14 : checkInteger(WHERE, "precision", o.precision, MIN_PRECISION, MAX_PRECISION);
    this.#m = 1 << this.#p;
    this.#q = 64 - this.#p;
    this.#regs = new Uint8Array(this.#m);
    this.#model = valueModel(this.#p, 0);
    this.#change = changeTable(this.#p);
    this.#mg = new Martingale(this.#m);
  }

  /**
   * A sketch holding every item of `items`. O(n).
   * @throws TypeError when `items` is not a sync iterable (a lone string included), for an item that
   *   is not a string, number, bigint or Uint8Array, or for bad options.
   */
  static from(items: Iterable<Item>, options?: UltraLogLogOptions): UltraLogLog {
    checkIterable(WHERE, "items", items);
    const u = new UltraLogLog(options);
    u.addAll(items);
    return u;
  }

  // ---------------------------------------------------------------------------------------------
  // Properties
  // ---------------------------------------------------------------------------------------------

  /** log2 of the register count (3..26). */
  get precision(): number {
    return this.#p;
  }

  /** Number of registers m = 2^precision (one byte each). */
  get registerCount(): number {
    return this.#m;
  }

  /** Bytes of register storage (m). O(1). */
  get byteLength(): number {
    return this.#m;
  }

  // ---------------------------------------------------------------------------------------------
  // Adding and counting
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds one item (hashed with MurmurHash64A, seed 0xadc83b19, as HyperLogLog.add; Redis's `PFADD`
   * has no UltraLogLog, this is its counterpart).
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
    const index = low & (this.#m - 1);
    const regs = this.#regs;
    const old = regs[index]!;
    // The update value is the run itself (t = 0); most adds leave the register alone.
    const next = registerWith(old, hashRun(low, high, this.#p), D);
    if (next === old) return false;
    regs[index] = next;
    this.#fgra = this.#ml = -1;
    this.#mg.step(this.#change[old]!, this.#change[next]!);
    return true;
  }

  /**
   * Estimated number of distinct elements, as an integer.
   * - "fgra" (default): Ertl's further generalized remaining area estimator, RMSE ≈ 0.782/√m.
   * - "ml": maximum likelihood, RMSE ≈ 0.761/√m.
   * - "martingale": kept up to date by every add (O(1) here), RMSE ≈ 0.658/√m, only for a sketch fed
   *   by its own adds since it was created or cleared (or read by fromBytes from such a sketch's
   *   bytes); after merge, union, downsize it throws rather than fall back silently.
   * Every estimator answers at most 2^64, the number of distinct 64-bit hashes: a saturated sketch
   * (registers at the longest run, which only `addHash` or crafted bytes reach in practice) answers
   * 2^64. Redis has no UltraLogLog; `PFCOUNT` is HyperLogLog's counterpart.
   * Complexity: O(m) after a change, O(1) when cached or for "martingale".
   * @throws TypeError for an unknown estimator; Error for "martingale" when the state was lost.
   */
  count(estimator: UltraLogLogEstimator = "fgra"): number {
    return Math.round(this.estimate(estimator));
  }

  /**
   * The estimate before rounding (`count()` is `Math.round(estimate())`). Complexity and errors as
   * {@link UltraLogLog.count}.
   */
  estimate(estimator: UltraLogLogEstimator = "fgra"): number {
    if (estimator === "martingale") return Math.min(this.#mg.checked(WHERE).estimate, MAX_ESTIMATE);
    if (estimator === "fgra") {
      if (this.#fgra < 0) {
        this.#fillCounts();
        this.#fgra = Math.min(ullFgra(counts, this.#m), MAX_ESTIMATE);
      }
      return this.#fgra;
    }
    if (estimator === "ml") {
      if (this.#ml < 0) {
        this.#fillCounts();
        const beta = new Float64Array(65);
        let alpha = 0;
        for (let s = 0; s < 256; s++) if (counts[s] !== 0) alpha += mlTerms(this.#model, s, D, counts[s]!, beta);
        // Capped: maximum likelihood is Infinity when every run a register can hold was seen.
        this.#ml = Math.min(mlEstimate(alpha, beta, this.#m), MAX_ESTIMATE);
      }
      return this.#ml;
    }
    throw typeError(WHERE, "estimator", estimator, '"fgra", "ml" or "martingale"');
  }

  /**
   * An interval estimate `{ lower, estimate, upper }` holding the true count with the normal
   * approximation's probability at `stdDevs` standard deviations (68.3 / 95.4 / 99.7 % at 1 / 2 / 3),
   * across the whole range of cardinalities; as {@link HyperLogLog.bounds}, with the standard
   * deviation at each n from the Poisson model (the delta method on FGRA's equation; the Fisher
   * information for ML) or the martingale's own variance estimate. `lower` is never below the number
   * of non-empty registers, and `estimate` is `estimate(estimator)` raised to that number when it
   * falls below it, so `lower ≤ estimate ≤ upper` always.
   * @param stdDevs a finite number > 0 (default 2). @param estimator as in count() (default "fgra").
   * Complexity: O(m) after a change plus O(q) per bisection step (≈ 160 steps).
   * @throws RangeError / TypeError for a bad argument; Error for "martingale" as in count().
   */
  bounds(stdDevs = 2, estimator: UltraLogLogEstimator = "fgra"): Bounds {
    const z = checkStdDevs(WHERE, stdDevs);
    const estimate = this.estimate(estimator);
    const occupied = this.#m - this.#emptyCount();
    if (estimator === "martingale") return symmetricBounds(estimate, this.#mg.variance, z, occupied, this.#m);
    const m = this.#m;
    const q = this.#q;
    const sd =
      estimator === "fgra"
        ? tabulated(`ull-fgra-${this.#p}`, m, (n) => fgraStdDev(n, m, q))
        : tabulated(`ull-ml-${this.#p}`, m, (n) => mlStdDev(n, m, this.#model, D));
    return invertedBounds(estimate, z, occupied, m, sd);
  }

  #emptyCount(): number {
    let empty = 0;
    const regs = this.#regs;
    for (let i = 0; i < regs.length; i++) if (regs[i] === 0) empty++;
    return empty;
  }

  /** Fills the module-level histogram of register states. O(m). */
  #fillCounts(): void {
    counts.fill(0);
    const regs = this.#regs;
    for (let i = 0; i < regs.length; i++) counts[regs[i]!]!++;
  }

  /**
   * The state byte of register `index`: `u << 2 | a << 1 | b` (see the file header). O(1).
   * @throws RangeError when index is not an integer in [0, m).
   */
  register(index: number): number {
    checkInteger(WHERE, "index", index, 0, this.#m - 1);
    return this.#regs[index]!;
  }

  /** All register states, one per byte (a new array). O(m). */
  registers(): Uint8Array {
    return this.#regs.slice();
  }

  // ---------------------------------------------------------------------------------------------
  // Merging and precision
  // ---------------------------------------------------------------------------------------------

  /**
   * Merges other sketches into this one: each register becomes the state that holds every run
   * either register holds — exactly the register the union of the streams would have produced. A
   * sketch of higher precision is first downsized to this one's (exact too); a lower one throws.
   * Takes sketches as arguments or one iterable of them (for any number of sketches).
   * The martingale estimator is unavailable afterwards.
   * @returns this. O(m) per sketch.
   * @throws TypeError for a non-sketch (or one from another copy of redstruct, or an object with the
   *   prototype but no state); RangeError for a lower precision.
   */
  merge(...others: UltraLogLog[]): this;
  merge(others: Iterable<UltraLogLog>): this;
  merge(...args: unknown[]): this {
    const others = mergeArguments(WHERE, args, UltraLogLog, UltraLogLog.#branded);
    for (const o of others) {
      if (o.#p < this.#p) {
        throw rangeError(
          WHERE,
          "merge argument precision",
          o.#p,
          `≥ this sketch's precision ${this.#p} (downsize this sketch with downsize(${o.#p}) or use UltraLogLog.union)`,
        );
      }
    }
    for (const o of others) this.#mergeSame(o.#p === this.#p ? o : o.downsize(this.#p));
    if (others.length > 0) this.#mg.lose("merge()");
    return this;
  }

  #mergeSame(other: UltraLogLog): void {
    if (mergeRegisters(this.#regs, other.#regs, D)) this.#fgra = this.#ml = -1;
  }

  /** True when `v` was built by this class (has its private state), not just given its prototype. */
  static #branded(v: object): boolean {
    return #p in v;
  }

  /**
   * The union of `sketches` as a new sketch at the lowest precision among them (finer ones
   * downsized); the inputs are not changed. `sketches` is one iterable (`UltraLogLog.union([a, b])`),
   * of any length. The counterpart of `PFMERGE dest k1 k2 …`. O(m) per sketch.
   * @throws TypeError when `sketches` is not an iterable of UltraLogLogs (sketches passed as separate
   *   arguments included: the message shows the array form); RangeError when it holds none.
   */
  static union(sketches: Iterable<UltraLogLog>): UltraLogLog;
  static union(...args: unknown[]): UltraLogLog {
    const sketches = unionArguments(WHERE, args, UltraLogLog, UltraLogLog.#branded);
    let p = MAX_PRECISION;
    for (const s of sketches) p = Math.min(p, s.#p);
    const out = new UltraLogLog({ precision: p });
    for (const s of sketches) out.#mergeSame(s.#p === p ? s : s.downsize(p));
    out.#mg.lose("UltraLogLog.union()");
    return out;
  }

  /**
   * A new sketch at a lower (or equal) precision, equal register for register to the sketch that
   * precision would have built from the same elements: the index bits that the coarser sketch no
   * longer uses become the low bits of its runs. The martingale state does not survive a change of
   * precision. O(m).
   * @throws RangeError when precision is not an integer in 3..this.precision.
   */
  downsize(precision: number): UltraLogLog {
    checkInteger(WHERE, "precision", precision, MIN_PRECISION, this.#p);
    if (precision === this.#p) return this.clone();
    const out = new UltraLogLog({ precision });
    const dst = out.#regs;
    const src = this.#regs;
    const shift = this.#p - precision;
    const mask = (1 << precision) - 1;
    for (let j = 0; j < src.length; j++) {
      const s = src[j]!;
      if (s === 0) continue;
      // Exact for t = 0: the dropped index bits fix or lengthen every element's run (registers.ts).
      const k = j & mask;
      dst[k] = unionRegisters(dst[k]!, coarseRegister(s, j >>> precision, shift, 0, D), D);
    }
    out.#mg.lose("downsize()");
    return out;
  }

  /**
   * The HyperLogLog the same elements build at this precision: every register's largest run is
   * HyperLogLog's register (the two sketches hash and split elements alike). At precision 14 it is
   * the sketch Redis holds for those elements, so `toHyperLogLog().toRedis()` is a key Redis can
   * `PFCOUNT` and `PFMERGE` with its own (its dense bytes equal Redis's). The result has no martingale
   * state. O(m).
   * @throws RangeError at precision 3 (HyperLogLog's precisions are 4..18) or above 18
   *   (downsize to 18 or less first, exactly).
   */
  toHyperLogLog(): HyperLogLog {
    checkHyperLogLogPrecision(WHERE, this.#p, "downsize(18)");
    const values = new Uint8Array(this.#m);
    const regs = this.#regs;
    for (let i = 0; i < regs.length; i++) if (regs[i] !== 0) values[i] = hyperLogLogRun(this.#model, regs[i]! >>> D);
    return hyperLogLogOf(this.#p, values, "UltraLogLog.toHyperLogLog()");
  }

  /** An independent copy, martingale state included. O(m). */
  clone(): UltraLogLog {
    const c = new UltraLogLog({ precision: this.#p });
    c.#regs.set(this.#regs);
    c.#mg.copyFrom(this.#mg);
    c.#fgra = this.#fgra;
    c.#ml = this.#ml;
    return c;
  }

  /** Empties the sketch; the martingale estimator is available again. O(m). */
  clear(): void {
    this.#regs.fill(0);
    this.#fgra = this.#ml = -1;
    this.#mg.reset();
  }

  /**
   * True when `other` is an UltraLogLog with the same precision and registers (the martingale state
   * is not compared); false for anything that is not an UltraLogLog. O(m).
   * @throws TypeError for an object with the UltraLogLog prototype but no state.
   */
  equals(other: UltraLogLog): boolean {
    if (!(other instanceof UltraLogLog)) return false;
    checkSketch(WHERE, "other", other, UltraLogLog, UltraLogLog.#branded);
    if (other.#p !== this.#p) return false;
    const a = this.#regs;
    const b = other.#regs;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Serialization
  // ---------------------------------------------------------------------------------------------

  /**
   * redstruct's versioned UltraLogLog format (little-endian): "RULL", version (1), precision,
   * flags (bit 0: the martingale state follows), then when flagged three float64 (estimate,
   * variance estimate, running change-probability sum), then the m register bytes.
   * So `fromBytes(toBytes())` continues the martingale estimate exactly. 7 + m bytes (+ 24).
   * @returns a new array. O(m).
   */
  toBytes(): Uint8Array {
    const mg = this.#mg.lost === null ? this.#mg : null;
    const w = new ByteWriter(7 + (mg === null ? 0 : 24) + this.#m);
    w.magic(MAGIC)
      .u8(VERSION)
      .u8(this.#p)
      .u8(mg === null ? 0 : 1);
    if (mg !== null) w.f64(mg.estimate).f64(mg.variance).f64(mg.sum);
    w.raw(this.#regs);
    return w.finish();
  }

  /**
   * Reads a {@link UltraLogLog.toBytes} buffer, validating every field and register state and the
   * martingale state against the registers (the running sum exactly, see martingale.ts); `bytes` is
   * read once and not kept.
   * @returns a new sketch equal to the one serialized. O(m).
   * @throws TypeError when `bytes` is not a Uint8Array or is detached; RedstructFormatError when the
   *   buffer is malformed, truncated, of an unknown version or another format.
   */
  static fromBytes(bytes: Uint8Array): UltraLogLog {
    const r = new ByteReader(bytes, WHERE);
    r.header(MAGIC, VERSION);
    const p = r.u8("the precision");
    if (p < MIN_PRECISION || p > MAX_PRECISION) {
      throw formatError(WHERE, `precision ${p} is outside ${MIN_PRECISION}..${MAX_PRECISION}`);
    }
    const flags = r.u8("the flags");
    if (flags > 1) throw formatError(WHERE, `unknown flags ${flags}`);
    let state: [number, number, number] | null = null;
    if (flags === 1) {
      state = [r.f64("the martingale estimate"), r.f64("the martingale variance"), r.f64("the martingale sum")];
    }
    const m = 2 ** p;
    const body = r.view(m, "the registers");
    r.end();
    const q = 64 - p;
    for (let i = 0; i < m; i++) {
      if (!validRegister(body[i]!, D, q + 1))
        throw formatError(WHERE, `register ${i} holds the impossible state ${body[i]}`);
    }
    const u = new UltraLogLog({ precision: p });
    u.#regs.set(body);
    if (state === null) {
      u.#mg.lose("fromBytes() of bytes without the martingale state");
      return u;
    }
    const [estimate, variance, sum] = state;
    const fresh = u.#changeSum();
    const problem = stateProblem(estimate, variance, sum, fresh, m - counts[0]!);
    if (problem !== null) throw formatError(WHERE, problem);
    u.#mg.restore(estimate, variance, fresh);
    return u;
  }

  /** Σ_j P(the next element changes register j), exactly, from the registers; fills `counts`. O(m). */
  #changeSum(): ExactSum {
    this.#fillCounts();
    const sum = new ExactSum();
    for (let s = 0; s < 256; s++) if (counts[s] !== 0) sum.add(this.#change[s]!, counts[s]!);
    return sum;
  }

  /** An UltraLogLog is not JSON: send {@link UltraLogLog.toBytes} and rebuild it with {@link UltraLogLog.fromBytes}. */
  toJSON(): never {
    throw notJson(WHERE);
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
    if (this.#regs.length !== this.#m) fail(`${this.#regs.length} registers for m = ${this.#m}`);
    for (let i = 0; i < this.#m; i++) {
      if (!validRegister(this.#regs[i]!, D, this.#q + 1))
        fail(`register ${i} holds the impossible state ${this.#regs[i]}`);
    }
    if (this.#mg.lost === null) {
      const sum = this.#changeSum(); // fills counts
      const problem = this.#mg.problem(sum, this.#m - counts[0]!);
      if (problem !== null) fail(problem);
    }
    if (this.#fgra >= 0) {
      this.#fillCounts();
      if (Math.min(ullFgra(counts, this.#m), MAX_ESTIMATE) !== this.#fgra) fail("stale cached FGRA estimate");
    }
  }

  static {
    defineInspect(UltraLogLog, (u) => ({ fields: { precision: u.precision, byteLength: u.byteLength } }));
  }
}
