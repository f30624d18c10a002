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
 * integer, the expected rate at capacity sits slightly above p (at most +1.5 % for p ≤ 0.1, +0.7 %
 * for p ≤ 0.01, +0.5 % for p ≤ 0.001, computed over a fine grid of p); {@link bloomParameters} reports that exact figure rather than pretending it is p.
 *
 * Every function here is O(1) (the inverse helpers do a bounded search) and allocation-free except
 * for the small result object of {@link bloomParameters}.
 */
import { checkInteger, rangeError, typeError } from "../internal/errors.js";

/**
 * Largest bit count a {@link BloomFilter} accepts: 2^31 − 1 bits (256 MiB, ~224 million items at
 * 1 %), so every bit index, step and their sum stay int32 on the hot path.
 */
export const MAX_BITS = 2 ** 31 - 1;
/** Largest hash count accepted: 64 probes is already p ≈ 10⁻¹⁹. */
export const MAX_HASHES = 64;

const LN2 = Math.LN2;
const LN2_SQUARED = LN2 * LN2;

/** What {@link bloomParameters} returns. */
export interface BloomParameters {
  /** Bits of the filter, m = ⌈−n·ln p / (ln 2)²⌉. */
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

/**
 * Expected false-positive rate of a filter of `bits` bits with `hashes` probes after `count`
 * distinct insertions: (1 − e^(−k·n/m))^k. Increasing in `count`, decreasing in `bits`. O(1).
 * @throws RangeError/TypeError for a non-integer or out-of-range argument (`count` may be 0).
 */
export function falsePositiveRate(bits: number, hashes: number, count: number): number {
  checkBits("bloom", bits);
  checkInteger("bloom", "hashes", hashes, 1, MAX_HASHES);
  checkInteger("bloom", "count", count, 0, Number.MAX_SAFE_INTEGER);
  return rate(bits, hashes, count);
}

/**
 * Sizes a filter for `capacity` items at `errorRate`: bits m = ⌈−n·ln p / (ln 2)²⌉ and the
 * integer k that minimises the rate for that m (see the module comment). O(1).
 * @throws RangeError/TypeError unless capacity is a positive safe integer and 0 < errorRate < 1.
 */
export function bloomParameters(capacity: number, errorRate: number): BloomParameters {
  checkCapacity("bloom", capacity);
  checkErrorRate("bloom", errorRate);
  const bits = Math.max(1, Math.ceil((-capacity * Math.log(errorRate)) / LN2_SQUARED));
  const hashes = bestHashes(bits, capacity);
  return { bits, hashes, bitsPerElement: bits / capacity, falsePositiveRate: rate(bits, hashes, capacity) };
}

/**
 * Inverse helper: the largest number of items a filter of `bits` bits holds with an expected
 * rate ≤ `errorRate` when k is chosen optimally for that count (0 when not even one item fits).
 * Binary search below n₀ = m·(ln 2)² / −ln p: O(log n).
 * @throws RangeError/TypeError for a bad `bits` or `errorRate`.
 */
export function capacityForBits(bits: number, errorRate: number): number {
  checkBits("bloom", bits);
  checkErrorRate("bloom", errorRate);
  const fits = (n: number) => n === 0 || rate(bits, bestHashes(bits, n), n) <= errorRate;
  // The rate at the optimal k grows with n, so `fits` is monotone: binary search. The closed form
  // n₀ = m·(ln 2)² / −ln p is an upper bound up to k's rounding; at 1.01·n₀ even the real-valued
  // optimum exceeds p, so that point never fits.
  let lo = 0;
  let hi = Math.floor(((bits * LN2_SQUARED) / -Math.log(errorRate)) * 1.01) + 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Inverse helper: the lowest expected false-positive rate `bits` bits can give for `capacity`
 * items (k chosen optimally). O(1).
 * @throws RangeError/TypeError for a bad `bits` or `capacity`.
 */
export function errorRateForBits(bits: number, capacity: number): number {
  checkBits("bloom", bits);
  checkCapacity("bloom", capacity);
  return rate(bits, bestHashes(bits, capacity), capacity);
}

/**
 * @internal Strict sizing for the scalable chain's links: the smallest m such that some integer k
 * reaches (1 − e^(−kn/m))^k ≤ p, so every link meets its share of the budget exactly and the
 * chain's sum stays ≤ p. At most +0.64 % bits over the contract formula for p ≤ 0.1, +0.14 %
 * for p ≤ 0.01.
 */
export function strictParameters(capacity: number, errorRate: number): { bits: number; hashes: number } {
  const ideal = -Math.log2(errorRate);
  let best = { bits: Number.POSITIVE_INFINITY, hashes: 1 };
  for (const k of [Math.floor(ideal), Math.ceil(ideal), Math.ceil(ideal) + 1]) {
    if (k < 1 || k > MAX_HASHES) continue;
    // Solve (1 − e^(−kn/m))^k = p for m: m = −k·n / ln(1 − p^(1/k)).
    let bits = Math.max(1, Math.ceil((-k * capacity) / Math.log1p(-(errorRate ** (1 / k)))));
    if (!(bits <= MAX_BITS)) continue; // also rejects NaN/∞ from extreme inputs
    // Float slack: the closed form can be a bit or two short; bounded so no input can spin here.
    for (let step = 0; step < 64 && rate(bits, k, capacity) > errorRate; step++) bits++;
    if (rate(bits, k, capacity) > errorRate) continue;
    if (bits < best.bits) best = { bits, hashes: k };
  }
  return best;
}

/** @internal Exported for checks that need the formula without validation. */
export const expectedRate = rate;
