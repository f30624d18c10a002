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
 * `sum` holds m·μ = Σ_j P(change of register j), updated by the difference of one register's term
 * at each change, so a step is O(1) and allocates nothing.
 */
/** Running martingale state of one sketch. */
export class Martingale {
  /** Σ 1/μ over the state changes: the distinct-count estimate. */
  estimate = 0;
  /** Σ (1 − μ)/μ² over the state changes: the estimate's variance, estimated. */
  variance = 0;
  /** m·μ = Σ_j P(the next element changes register j); m for an empty sketch. */
  sum: number;
  /** Why the state is unavailable (null while valid). */
  lost: string | null = null;

  constructor(readonly m: number) {
    this.sum = m;
  }

  /**
   * Records one state change: `before` and `after` are the changed register's probability of
   * changing again, before and after the change.
   */
  step(before: number, after: number): void {
    const inv = this.m / this.sum;
    this.estimate += inv;
    this.variance += inv * inv - inv;
    this.sum += after - before;
  }

  /** Back to an empty sketch's state (valid again). */
  reset(): void {
    this.estimate = 0;
    this.variance = 0;
    this.sum = this.m;
    this.lost = null;
  }

  /** Marks the state lost by `reason` (e.g. "merge()"). */
  lose(reason: string): void {
    this.lost = reason;
  }

  copyFrom(other: Martingale): void {
    this.estimate = other.estimate;
    this.variance = other.variance;
    this.sum = other.sum;
    this.lost = other.lost;
  }

  /**
   * The estimate, or a clear error when the state is lost.
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
