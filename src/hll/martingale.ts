/**
 * The martingale (HIP) estimator shared by HyperLogLog and UltraLogLog: Ting, "Streamed approximate
 * counting of distinct elements" (KDD 2014); Cohen, "All-distances sketches, revisited: HIP
 * estimators for massive graphs analysis" (2015); Ertl, "New cardinality estimation algorithms for
 * HyperLogLog sketches" (2017, section on martingale estimation).
 *
 * When an element arrives, the sketch's state changes with some probability μ that the current
 * registers determine: μ = (1/m) Σ_j P(an element changes register j). Adding 1/μ to the estimate
 * at every state change gives an unbiased estimate of the number of distinct elements seen, and
 * adding (1 − μ)/μ² gives an unbiased estimate of that estimate's variance. Duplicates never change
 * the state, so they never count. Only the sketch's own stream can drive this: a merge, or
 * registers read from bytes without the state, leaves the registers without the history of μ, so
 * the state is then marked lost (with the reason) instead of being guessed.
 *
 * The running sum m·μ = Σ_j P(register j changes) is updated by one register's difference at each
 * change (O(1), no allocation), and it is kept **exactly**: every term is a dyadic rational 2^−k
 * (a HyperLogLog register) or a sum of up to three of them (an UltraLogLog register), with k ≤ 64,
 * and the sum is held as two doubles, `hi` for the terms ≥ 2^−20 and `lo` for the smaller ones.
 * Each part is always a sum of current terms that fits a double's 53 bits exactly — `hi` a multiple
 * of 2^−22 below 2^26 (48 bits), `lo` a multiple of 2^−(64−p) below 2^(p−20) (44 bits) — so adding
 * and removing terms never rounds. A single double could not: near saturation the sum is ≈ m·2^−(64−p)
 * while its rounding error would be ≈ m·2^−52, and 1/μ would turn infinite or negative. With the sum
 * exact, m·μ is at least the smallest positive term, 2^−(64−p), whenever a change is possible, so
 * 1/μ ≤ 2^64 and the estimate and its variance stay finite in every reachable state.
 *
 * An ExaLogLog register's term sums up to d + 1 powers of two spread over some 30 bits, so it can
 * straddle 2^−20: its terms are split instead ({@link splitHi}), the multiple of 2^−22 at or below
 * the term to `hi` and the remainder (below 2^−22, a multiple of 2^−(64−p)) to `lo`. `hi` is then a
 * multiple of 2^−22 below 2^26 (48 bits) and `lo` a multiple of 2^−(64−p) below 2^(p−22) (42 bits):
 * exact as well. One sketch uses one rule throughout, so its running and recomputed sums agree.
 */

/** Terms at or above this go to `hi`, smaller ones to `lo` (see the header). */
const SPLIT = 2 ** -20;
/** The granularity of `hi` for split terms (see the header). */
const HI_UNIT = 2 ** 22;

/** The part of a split term kept in `hi`: the term rounded down to a multiple of 2^−22 (exact). */
function splitHi(term: number): number {
  return Math.floor(term * HI_UNIT) / HI_UNIT;
}

/** Σ count·term over register terms, exactly, as the two parts the running sum keeps. */
export class ExactSum {
  hi = 0;
  lo = 0;

  /** Adds `count` registers whose change probability is `term`. */
  add(term: number, count: number): void {
    if (term >= SPLIT) this.hi += term * count;
    else this.lo += term * count;
  }

  /** Adds one register whose change probability `term` is split (see the header). */
  addSplit(term: number): void {
    const hi = splitHi(term);
    this.hi += hi;
    this.lo += term - hi;
  }

  /** The sum, rounded once. */
  get value(): number {
    return this.hi + this.lo;
  }
}

/** Running martingale state of one sketch. */
export class Martingale {
  /** Σ 1/μ over the state changes: the distinct-count estimate. */
  estimate = 0;
  /** Σ (1 − μ)/μ² over the state changes: the estimate's variance, estimated. */
  variance = 0;
  /** The terms ≥ 2^−20 of m·μ = Σ_j P(the next element changes register j); m for an empty sketch. */
  hi: number;
  /** The terms < 2^−20 of m·μ. */
  lo = 0;
  /** Why the state is unavailable (null while valid). */
  lost: string | null = null;

  constructor(readonly m: number) {
    this.hi = m;
  }

  /** m·μ, rounded once from its exact parts. */
  get sum(): number {
    return this.hi + this.lo;
  }

  /**
   * Records one state change: `before` and `after` are the changed register's probability of
   * changing again, before and after the change.
   */
  step(before: number, after: number): void {
    const inv = this.m / (this.hi + this.lo);
    this.estimate += inv;
    this.variance += inv * inv - inv;
    if (before >= SPLIT) this.hi -= before;
    else this.lo -= before;
    if (after >= SPLIT) this.hi += after;
    else this.lo += after;
  }

  /** As {@link Martingale.step}, for split terms (see the header). */
  stepSplit(before: number, after: number): void {
    const inv = this.m / (this.hi + this.lo);
    this.estimate += inv;
    this.variance += inv * inv - inv;
    const bh = splitHi(before);
    const ah = splitHi(after);
    this.hi += ah - bh;
    this.lo += after - ah - (before - bh);
  }

  /** True when the running sum equals `fresh` (recomputed from the registers) exactly. */
  sumEquals(fresh: ExactSum): boolean {
    return this.hi === fresh.hi && this.lo === fresh.lo;
  }

  /**
   * What is wrong with this (held) state over registers whose change-probability sum is `fresh` and
   * which have `occupied` non-empty registers, for `checkInvariants()`: null when the running sum
   * equals `fresh` exactly, the estimate is finite and at least `occupied`, and the variance is
   * finite and ≥ 0.
   */
  problem(fresh: ExactSum, occupied: number): string | null {
    if (!this.sumEquals(fresh)) return `martingale sum ${this.sum} != ${fresh.value}`;
    if (!(this.estimate >= occupied && this.estimate < Number.POSITIVE_INFINITY)) {
      return `martingale estimate ${this.estimate} < ${occupied} non-empty registers, or not finite`;
    }
    if (!(this.variance >= 0 && this.variance < Number.POSITIVE_INFINITY)) {
      return `martingale variance ${this.variance}`;
    }
    return null;
  }

  /** Restores a stored state over registers whose sum is `fresh` (valid again). */
  restore(estimate: number, variance: number, fresh: ExactSum): void {
    this.estimate = estimate;
    this.variance = variance;
    this.hi = fresh.hi;
    this.lo = fresh.lo;
    this.lost = null;
  }

  /** Back to an empty sketch's state (valid again). */
  reset(): void {
    this.estimate = 0;
    this.variance = 0;
    this.hi = this.m;
    this.lo = 0;
    this.lost = null;
  }

  /** Marks the state lost by `reason` (e.g. "merge()"). */
  lose(reason: string): void {
    this.lost = reason;
  }

  copyFrom(other: Martingale): void {
    this.estimate = other.estimate;
    this.variance = other.variance;
    this.hi = other.hi;
    this.lo = other.lo;
    this.lost = other.lost;
  }

  /**
   * The state, or a clear error when it is lost.
   * @throws Error naming the operation that lost the state.
   */
  checked(where: string): Martingale {
    if (this.lost !== null) {
      throw new Error(
        `redstruct/${where}: the martingale estimator needs a sketch fed only by its own adds since it was ` +
          `created or cleared; this one's registers came from ${this.lost}, which does not carry the ` +
          `martingale state — use count() with the default estimator instead`,
      );
    }
    return this;
  }
}

/**
 * Checks a stored martingale state against the registers it claims to belong to (`fresh`: their sum
 * recomputed; `occupied`: their non-empty count). The sum must equal the registers' exactly (the
 * writer keeps it exact, so any difference is corruption), the estimate must be finite and at least
 * the occupied registers (0 with its variance for empty registers), the variance finite and ≥ 0.
 * @returns null when the state is consistent, else what is wrong.
 */
export function stateProblem(
  estimate: number,
  variance: number,
  sum: number,
  fresh: ExactSum,
  occupied: number,
): string | null {
  if (!(estimate >= 0 && estimate < Number.POSITIVE_INFINITY)) {
    return `martingale estimate ${estimate} is not a finite number ≥ 0`;
  }
  if (!(variance >= 0 && variance < Number.POSITIVE_INFINITY)) {
    return `martingale variance ${variance} is not a finite number ≥ 0`;
  }
  if (sum !== fresh.value) return `martingale sum ${sum} does not match the registers (${fresh.value})`;
  if (estimate < occupied) return `martingale estimate ${estimate} is below the ${occupied} non-empty registers`;
  if (occupied === 0 && (estimate !== 0 || variance !== 0)) {
    return `martingale estimate ${estimate} (variance ${variance}) for empty registers`;
  }
  return null;
}
