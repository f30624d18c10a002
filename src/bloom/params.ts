/**
 * Bloom filter parameter calculator.
 *
 * For n items and a target false-positive rate p, the bit count that minimises memory is
 * m = ⌈−n·ln p / (ln 2)²⌉ (the contract formula, the one RedisBloom uses), reached with
 * k* = (m/n)·ln 2 hash functions. k must be an integer, so {@link optimalHashes} returns whichever of
 * ⌊k*⌋ and ⌈k*⌉ gives the lower expected rate (1 − e^(−kn/m))^k — the exact integer minimiser,
 * because that rate is unimodal in k. That agrees with `round(k*)` except when k* is close to a half-integer (the rate is
 * asymmetric around k*), and unlike RedisBloom's `ceil` it never adds a probe that raises the rate
 * (p = 10⁻⁴: k* = 13.29, ceil would pick 14 and a 0.6 % higher rate). Because k* is not an
 * integer, the expected rate at capacity sits slightly above p (at most +3.7 % for p ≤ 0.5, +1.5 %
 * for p ≤ 0.1, +0.7 % for p ≤ 0.01, +0.5 % for p ≤ 0.001, computed over a fine grid of p);
 * {@link bloomParameters} reports that exact figure rather than pretending it is p.
 *
 * That rounding is the formula's only miss while k* lies in [1, 64]. Outside it the clamp of k would
 * miss by more: k* < 1 (p above about 0.5) must still use one probe, up to +12 % at p = 0.85, and
 * k* > 64 (p below about 2^-64) may use only 64, 35× over at p = 10^-30. There the filter is sized
 * strictly instead — the fewest bits for which an integer k in [1, 64] reaches p — so every size this
 * module returns meets its target up to the rounding of k, or the call throws a RangeError saying why.
 *
 * Every function terminates for every valid input: the closed forms are O(1), and each search
 * (the inverse helpers, the strict sizing's float slack) is bounded by construction, counted in
 * steps that no input can make exceed {@link SEARCH_STEP_LIMIT}. An answer a double cannot hold (a
 * bit count or capacity of 2^53 or more, a rate below the smallest double) is a RangeError, never a
 * rounded or looping result. Allocation-free except for the small result objects.
 */
import { checkInteger, rangeError, typeError } from "../internal/errors.js";

/**
 * Largest bit count a {@link BloomFilter} accepts: 2^31 − 1 bits (256 MiB, ~224 million items at
 * 1 %), so every bit index, step and their sum stay int32 on the hot path.
 */
export const MAX_BITS = 2 ** 31 - 1;
/**
 * Largest hash count accepted. 64 probes reach p ≈ 2^-64 ≈ 5·10⁻²⁰ at the optimal bits per item;
 * lower targets are met with more bits per item at 64 probes (strict sizing).
 */
export const MAX_HASHES = 64;

const LN2 = Math.LN2;
const LN2_SQUARED = LN2 * LN2;

/** What {@link bloomParameters} returns. */
export interface BloomParameters {
  /** The capacity asked for: items the filter is sized for. */
  capacity: number;
  /** The false-positive rate asked for at `capacity` items. */
  errorRate: number;
  /**
   * Bits of the filter: m = ⌈−n·ln p / (ln 2)²⌉ while the optimal k* = (m/n)·ln 2 lies in [1, 64];
   * otherwise the fewest bits for which an integer k in [1, 64] reaches p (see the module comment).
   */
  bits: number;
  /** Number of probes k: the integer that minimises the expected rate for `bits` and the capacity. */
  hashes: number;
  /** bits / capacity. */
  bitsPerElement: number;
  /** Expected false-positive rate once `capacity` items are in: (1 − e^(−kn/m))^k. */
  falsePositiveRate: number;
}

/** @internal Validates a capacity: a positive safe integer. */
export function checkCapacity(where: string, value: unknown): number {
  return checkInteger(where, "capacity", value, 1, Number.MAX_SAFE_INTEGER);
}

/** @internal Validates an error rate: finite, 0 < p < 1. */
export function checkErrorRate(where: string, value: unknown, param = "errorRate"): number {
  if (typeof value !== "number") throw typeError(where, param, value, "a finite number in (0, 1)");
  if (!Number.isFinite(value) || value <= 0 || value >= 1) {
    throw rangeError(where, param, value, "a finite number in (0, 1)");
  }
  return value;
}

function checkBits(where: string, value: unknown): number {
  return checkInteger(where, "bits", value, 1, Number.MAX_SAFE_INTEGER);
}

// ——— bounded searches ——————————————————————————————————————————————————————————

/**
 * Most steps (evaluations of a rate at a candidate size) any one call may take. The searches need
 * at most about 2·53 + 64 + 54 by construction; the limit turns a search that would not converge
 * into an Error instead of a hang, and the tests check that no valid input meets that Error.
 */
const SEARCH_STEP_LIMIT = 1000;
let steps = 0;

/** @internal Starts counting the steps of one calculator call. */
export function startSearch(): void {
  steps = 0;
}

/** @internal Counts one step of a search; throws past {@link SEARCH_STEP_LIMIT}. */
export function searchStep(where: string): void {
  if (++steps > SEARCH_STEP_LIMIT) {
    throw new Error(`redstruct/${where}: internal error: a sizing search took over ${SEARCH_STEP_LIMIT} steps`);
  }
}

// ——— formulas ——————————————————————————————————————————————————————————————————

/** Expected rate without argument checks (hot enough to be called in searches). */
function rate(bits: number, hashes: number, count: number): number {
  // −expm1(−x) = 1 − e^(−x) without cancellation when kn/m is tiny.
  return (-Math.expm1((-hashes * count) / bits)) ** hashes;
}

/** Integer k minimising the rate, without argument checks. */
function bestHashes(bits: number, capacity: number): number {
  const ideal = (bits / capacity) * LN2;
  const lo = Math.min(MAX_HASHES, Math.max(1, Math.floor(ideal)));
  const hi = Math.min(MAX_HASHES, Math.max(1, Math.ceil(ideal)));
  return rate(bits, hi, capacity) < rate(bits, lo, capacity) ? hi : lo;
}

/**
 * Fewest bits (≤ maxBits) with which k probes reach `errorRate` at `capacity`, or Infinity. The
 * closed form m = −k·n / ln(1 − p^(1/k)) can be a bit or two short in floating point: +1 steps fix
 * that, then (for sizes where one bit moves the rate by less than a rounding error) doubling steps.
 */
function strictBits(where: string, k: number, capacity: number, errorRate: number, maxBits: number): number {
  let bits = Math.max(1, Math.ceil((-k * capacity) / Math.log1p(-(errorRate ** (1 / k)))));
  if (!(bits <= maxBits)) return Number.POSITIVE_INFINITY; // also NaN/∞ from extreme inputs
  for (let i = 0; i < 64 && rate(bits, k, capacity) > errorRate; i++) {
    searchStep(where);
    bits++;
  }
  for (let d = 1; bits <= maxBits && rate(bits, k, capacity) > errorRate; d *= 2) {
    searchStep(where);
    bits += d;
  }
  return bits <= maxBits ? bits : Number.POSITIVE_INFINITY;
}

/**
 * @internal Strict sizing: the smallest m (≤ maxBits) such that some integer k in [1, 64] reaches
 * (1 − e^(−kn/m))^k ≤ p, with that k; bits = Infinity when none does. The scalable chain sizes its
 * links this way so that each meets its share of the budget exactly and the chain's sum stays ≤ p
 * (at most +0.64 % bits over the contract formula for p ≤ 0.1, +0.14 % for p ≤ 0.01).
 */
export function strictParameters(
  capacity: number,
  errorRate: number,
  maxBits = MAX_BITS,
  where = "bloom",
): { bits: number; hashes: number } {
  startSearch();
  const ideal = -Math.log2(errorRate);
  let best = { bits: Number.POSITIVE_INFINITY, hashes: 1 };
  let previous = 0;
  for (const candidate of [Math.floor(ideal), Math.ceil(ideal), Math.ceil(ideal) + 1]) {
    // m(k) is unimodal with its minimum near −log2 p, so clamping to [1, 64] keeps the best k.
    const k = Math.min(MAX_HASHES, Math.max(1, candidate));
    if (k === previous) continue;
    previous = k;
    const bits = strictBits(where, k, capacity, errorRate, maxBits);
    if (bits < best.bits) best = { bits, hashes: k };
  }
  return best;
}

/**
 * @internal Sizes a filter for `capacity` items at `errorRate` (see {@link bloomParameters}), with
 * errors attributed to `where`. Arguments already validated.
 * @throws RangeError when the filter would need more than `maxBits` bits.
 */
export function sizeFilter(
  where: string,
  capacity: number,
  errorRate: number,
  maxBits = Number.MAX_SAFE_INTEGER,
): { bits: number; hashes: number } {
  startSearch();
  const formula = Math.max(1, Math.ceil((-capacity * Math.log(errorRate)) / LN2_SQUARED));
  const ideal = (formula / capacity) * LN2;
  let shape: { bits: number; hashes: number };
  if (ideal >= 1 && ideal <= MAX_HASHES) {
    shape = { bits: formula, hashes: bestHashes(formula, capacity) };
  } else {
    shape = strictParameters(capacity, errorRate, Math.min(maxBits, Number.MAX_SAFE_INTEGER), where);
  }
  if (!(shape.bits <= maxBits)) {
    const limit = maxBits === MAX_BITS ? "2^31 − 1" : "2^53 − 1";
    const need = Number.isFinite(shape.bits) ? `${shape.bits} bits` : "more";
    throw rangeError(
      where,
      "capacity",
      capacity,
      `small enough to fit ${limit} bits at errorRate ${errorRate} (it would need ${need})`,
    );
  }
  return shape;
}

/**
 * The optimal number of hash functions for a filter of `bits` bits holding `capacity` items: the
 * integer k (1..64) minimising (1 − e^(−k·capacity/bits))^k — ⌊(m/n)·ln 2⌋ or ⌈(m/n)·ln 2⌉, whichever
 * is lower. O(1).
 * @throws RangeError/TypeError unless `bits` and `capacity` are positive safe integers.
 */
export function optimalHashes(bits: number, capacity: number): number {
  checkBits("bloom", bits);
  checkCapacity("bloom", capacity);
  return bestHashes(bits, capacity);
}

/** A positive rate that underflowed to 0 is not an answer: say so. */
function representable(value: number, what: string): number {
  if (value === 0) {
    throw new RangeError(`redstruct/bloom: ${what} is below 5e-324, the smallest positive double: not representable`);
  }
  return value;
}

/**
 * Expected false-positive rate of a filter of `bits` bits with `hashes` probes after `count`
 * distinct insertions: (1 − e^(−k·n/m))^k. Increasing in `count`, decreasing in `bits`. O(1).
 * @throws RangeError/TypeError for a non-integer or out-of-range argument (`count` may be 0), and a
 *   RangeError when `count` > 0 and the rate is too small for a double.
 */
export function falsePositiveRate(bits: number, hashes: number, count: number): number {
  checkBits("bloom", bits);
  checkInteger("bloom", "hashes", hashes, 1, MAX_HASHES);
  checkInteger("bloom", "count", count, 0, Number.MAX_SAFE_INTEGER);
  if (count === 0) return 0;
  return representable(rate(bits, hashes, count), `the rate of ${count} items in ${bits} bits with ${hashes} hashes`);
}

/**
 * Sizes a filter for `capacity` items at `errorRate`: bits m = ⌈−n·ln p / (ln 2)²⌉ and the integer k
 * that minimises the rate for that m, so the rate at capacity is p up to the rounding of k (see the
 * module comment); where k* = (m/n)·ln 2 falls outside [1, 64] that formula would miss p by more,
 * and the fewest bits that reach p with some k in [1, 64] are returned instead. O(1) (a bounded
 * search in the strict case).
 * @throws RangeError/TypeError unless capacity is a positive safe integer and 0 < errorRate < 1;
 *   RangeError when the filter would need 2^53 bits or more (not representable).
 */
export function bloomParameters(capacity: number, errorRate: number): BloomParameters {
  checkCapacity("bloom", capacity);
  checkErrorRate("bloom", errorRate);
  const { bits, hashes } = sizeFilter("bloom", capacity, errorRate);
  return {
    capacity,
    errorRate,
    bits,
    hashes,
    bitsPerElement: bits / capacity,
    falsePositiveRate: rate(bits, hashes, capacity),
  };
}

/**
 * @internal Checks the fields of a calculator's answer handed back to a constructor with its
 * `capacity` and `errorRate`: each given field must be what the calculator answers for them, so that
 * `new BloomFilter(bloomParameters(n, p))` builds the filter described, and an edited answer is
 * refused rather than half-used.
 * @throws RangeError naming the first field that disagrees.
 */
export function checkAnswer(
  where: string,
  given: object,
  answer: BloomParameters | { capacity: number; errorRate: number },
  calculator: string,
): void {
  const fields = answer as unknown as Readonly<Record<string, number>>;
  for (const key of Object.keys(answer)) {
    const value = (given as Readonly<Record<string, unknown>>)[key];
    if (value === undefined || key === "capacity" || key === "errorRate") continue;
    if (!Object.is(value, fields[key])) {
      throw rangeError(
        where,
        key,
        value,
        `${fields[key]}, what ${calculator}(${answer.capacity}, ${answer.errorRate}) answers — or leave it out ` +
          "(capacity and errorRate alone size the filter)",
      );
    }
  }
}

/**
 * Inverse helper: the largest number of items a filter of `bits` bits holds with an expected
 * rate ≤ `errorRate` when k is chosen optimally for that count (0 when not even one item fits).
 * Bisection below n₀ = m·(ln 2)² / −ln p: O(log n), at most 2·53 steps.
 * @throws RangeError/TypeError for a bad `bits` or `errorRate`; RangeError when the answer is
 *   2^53 − 1 or more (not representable as a safe integer).
 */
export function capacityForBits(bits: number, errorRate: number): number {
  checkBits("bloom", bits);
  checkErrorRate("bloom", errorRate);
  startSearch();
  const fits = (n: number) => {
    searchStep("bloom");
    return n === 0 || rate(bits, bestHashes(bits, n), n) <= errorRate;
  };
  // The rate at the optimal k grows with n, so `fits` is monotone: bisection. The closed form
  // n₀ = m·(ln 2)² / −ln p bounds the answer (at n > n₀ even the real-valued optimum k exceeds p);
  // 1.01·n₀ + 1 is tried first, then doubled should float rounding have made it fit, up to 2^53 − 1.
  const MAX = Number.MAX_SAFE_INTEGER;
  let lo = 0;
  let hi = Math.min(MAX, Math.floor(((bits * LN2_SQUARED) / -Math.log(errorRate)) * 1.01) + 1);
  while (fits(hi)) {
    if (hi === MAX) {
      throw new RangeError(
        `redstruct/bloom: capacityForBits(${bits}, ${errorRate}) is 2^53 − 1 items or more: not representable`,
      );
    }
    lo = hi;
    hi = Math.min(MAX, hi * 2);
  }
  // lo fits, hi does not, both safe integers: the midpoint lo + ⌊(hi − lo)/2⌋ is exact and strictly
  // between them, so every step makes progress.
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Inverse helper: the lowest expected false-positive rate `bits` bits can give for `capacity`
 * items (k chosen optimally in [1, 64]). O(1).
 * @throws RangeError/TypeError for a bad `bits` or `capacity`; RangeError when the rate is too
 *   small for a double.
 */
export function errorRateForBits(bits: number, capacity: number): number {
  checkBits("bloom", bits);
  checkCapacity("bloom", capacity);
  return representable(
    rate(bits, bestHashes(bits, capacity), capacity),
    `the best rate of ${capacity} items in ${bits} bits`,
  );
}
