/**
 * Interval estimates for the HyperLogLog family (`bounds()`).
 *
 * Two intervals are combined. The first is normal: an estimator's standard deviation sd(n) at each
 * candidate cardinality n (from the Poisson model, see estimators.ts and ull-estimators.ts, or the
 * martingale's own variance estimate), inverted into the set of n whose estimate would fall within
 * z standard deviations. The second covers small sets, where the sketch is exact or nearly so and
 * the error is not normal but discrete: n elements fill `occupied` registers and the D = n − occupied
 * elements that fell into an occupied register are a rare-event count, close to Poisson with mean
 * μ(n) = n − m(1 − (1 − 1/m)^n); the Poisson interval for n at the normal tail probability 1 − Φ(z)
 * on each side is exact in its tails where the normal one misses single collisions. The result is
 * their union, never below `occupied` (a hard lower bound: each occupied register holds an element).
 * When the sketch is exact, the interval necessarily covers more often than the nominal level.
 * The point estimate reported with them is raised to `occupied` too, so the three are always ordered.
 */
import { describe } from "../internal/errors.js";

/**
 * Checks a stdDevs argument of `bounds()`: a finite number > 0.
 * @throws TypeError / RangeError naming the parameter.
 */
export function checkStdDevs(where: string, value: unknown): number {
  if (typeof value !== "number") {
    throw new TypeError(`redstruct/${where}: stdDevs must be a finite number > 0, got ${describe(value)}`);
  }
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`redstruct/${where}: stdDevs must be a finite number > 0, got ${describe(value)}`);
  }
  return value;
}

/**
 * An interval estimate of a distinct count, from {@link HyperLogLog.bounds} / {@link UltraLogLog.bounds}:
 * always `lower ≤ estimate ≤ upper`.
 */
export interface Bounds {
  /** Lower end: never below the number of non-empty registers, which is a hard lower bound. */
  lower: number;
  /**
   * The point estimate: the estimator's unrounded value (`estimate(estimator)`), raised to the number
   * of non-empty registers when it falls below it (each non-empty register holds at least one distinct
   * item, so no smaller count is possible; Ertl's estimator gives 0.99999746 for one item at precision 17).
   */
  estimate: number;
  /** Upper end (`Infinity` when the sketch cannot bound the count at this many standard deviations). */
  upper: number;
}

/** Φ̄(z) = 1 − Φ(z), the standard normal's upper tail (erfc by Numerical Recipes' Chebyshev fit, |ε| < 1.2e−7). */
function normalTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 0.5 * erfc : 1 - 0.5 * erfc;
}

/** Largest D the Poisson interval considers. */
const POISSON_MAX = 400;
/** Expected collisions up to which the Poisson interval joins the normal one. */
const SMALL_COLLISIONS = 3;

/** P(D ≤ k) for D ~ Poisson(μ), k ≤ POISSON_MAX. */
function poissonCdf(k: number, mu: number): number {
  if (k < 0) return 0;
  let term = Math.exp(-mu);
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term *= mu / i;
    sum += term;
  }
  return Math.min(1, sum);
}

/** Expected elements among n that fell into an already occupied register: n − m(1 − (1 − 1/m)^n). */
function collisions(n: number, m: number): number {
  return n + m * Math.expm1(n * Math.log1p(-1 / m));
}

/**
 * The Poisson interval for n from the occupied-register count, or null when collisions are too
 * many for it (the normal interval is then the accurate one). Integer n in [lo, hi]: lo the smallest
 * n with P(D ≤ n − occupied) ≥ α, hi the largest with P(D ≥ n − occupied) ≥ α.
 */
function poissonBounds(occupied: number, m: number, alpha: number): [number, number] | null {
  // Past a few expected collisions the count of them is near normal, and the registers' values
  // (which this interval ignores) carry most of the information: the normal interval is then better.
  if (occupied >= m || collisions(occupied, m) > SMALL_COLLISIONS) return null;
  // k = n − occupied; both tests are monotone in k (μ grows with n), so bisect on k.
  const upperOk = (k: number) => k === 0 || 1 - poissonCdf(k - 1, collisions(occupied + k, m)) >= alpha;
  const lowerOk = (k: number) => poissonCdf(k, collisions(occupied + k, m)) >= alpha;
  if (upperOk(POISSON_MAX)) return null;
  let a = 0;
  let b = POISSON_MAX;
  while (b - a > 1) {
    const mid = (a + b) >>> 1;
    if (upperOk(mid)) a = mid;
    else b = mid;
  }
  const hi = occupied + a;
  let lo = 0;
  if (!lowerOk(0)) {
    let c = 0;
    let d = a;
    while (d - c > 1) {
      const mid = (c + d) >>> 1;
      if (lowerOk(mid)) d = mid;
      else c = mid;
    }
    lo = d;
  }
  return [occupied + lo, hi];
}

/**
 * Inverts a standard-deviation function into a confidence interval: lower solves
 * n + z·sd(n) = estimate and upper solves n − z·sd(n) = estimate, so the interval holds exactly the
 * cardinalities whose estimates would fall within z standard deviations of `estimate`. Using sd at
 * the candidate n rather than at the estimate keeps the interval right where the error grows with
 * n (it is asymmetric: n(1 ± c) inverts to estimate/(1 ∓ c)). Bisection to 10^−7 of the estimate,
 * ≈ 50 evaluations of sd.
 */
function invert(estimate: number, z: number, sd: (n: number) => number): [number, number] {
  if (!(estimate > 0)) return [0, 0];
  let a = 0;
  let b = estimate;
  for (let i = 0; i < 80 && b - a > 1e-7 * estimate; i++) {
    const mid = 0.5 * (a + b);
    if (mid + z * sd(mid) < estimate) a = mid;
    else b = mid;
  }
  const lower = 0.5 * (a + b);
  a = estimate;
  b = estimate * 2;
  while (b - z * sd(b) < estimate) {
    a = b;
    b *= 2;
    if (b > 2 ** 80) return [lower, Number.POSITIVE_INFINITY];
  }
  for (let i = 0; i < 80 && b - a > 1e-7 * estimate; i++) {
    const mid = 0.5 * (a + b);
    if (mid - z * sd(mid) < estimate) a = mid;
    else b = mid;
  }
  return [lower, 0.5 * (a + b)];
}

/**
 * The union of a normal interval [lo, hi] around `estimate` with the Poisson interval, floored at
 * `occupied`, with the estimate raised to `occupied` as well: lower ≤ estimate ≤ upper.
 */
function combine(estimate: number, lo: number, hi: number, z: number, occupied: number, m: number): Bounds {
  const small = poissonBounds(occupied, m, normalTail(z));
  if (small !== null) {
    lo = Math.min(lo, small[0]);
    hi = Math.max(hi, small[1]);
  }
  const point = Math.max(estimate, occupied);
  const lower = Math.max(occupied, Math.min(lo, point));
  return { lower, estimate: point, upper: Math.max(point, hi) };
}

/**
 * Bounds for an estimator whose standard deviation at cardinality n is `sd(n)` (see the header).
 * @param occupied non-empty registers; m the register count.
 */
export function invertedBounds(
  estimate: number,
  z: number,
  occupied: number,
  m: number,
  sd: (n: number) => number,
): Bounds {
  const [lo, hi] = invert(estimate, z, sd);
  return combine(estimate, lo, hi, z, occupied, m);
}

/** Grid of the tabulated standard deviations: log2 λ from LOW to HIGH in steps of 1/STEPS. */
const LOW = -16;
const HIGH = 60;
const STEPS = 8;
const tables = new Map<string, Float64Array>();

/**
 * `sd` (a standard deviation as a function of n for m registers) made cheap to call again and
 * again: ln(sd(n)/n) is tabulated once per `key` on a grid of log2(n/m) and interpolated linearly,
 * which is smooth enough that the interpolation error stays far below the sd's own approximation
 * (the grid step is 1/8 of a doubling). Outside the grid, `sd` itself is called. The table costs
 * (HIGH − LOW)·STEPS evaluations once per estimator and precision.
 */
export function tabulated(key: string, m: number, sd: (n: number) => number): (n: number) => number {
  let table = tables.get(key);
  if (table === undefined) {
    table = new Float64Array((HIGH - LOW) * STEPS + 1);
    for (let i = 0; i < table.length; i++) {
      const n = m * 2 ** (LOW + i / STEPS);
      table[i] = Math.log(sd(n) / n);
    }
    tables.set(key, table);
  }
  const t = table;
  return (n: number) => {
    if (!(n > 0)) return 0;
    const x = (Math.log2(n / m) - LOW) * STEPS;
    if (
      !(x >= 0 && x < t.length - 1) ||
      !Number.isFinite(t[Math.floor(x)]!) ||
      !Number.isFinite(t[Math.floor(x) + 1]!)
    ) {
      return sd(n);
    }
    const i = Math.floor(x);
    const f = x - i;
    return n * Math.exp(t[i]! + f * (t[i + 1]! - t[i]!));
  };
}

/** Bounds estimate ± z·√variance (the martingale's own variance estimate), combined as above. */
export function symmetricBounds(estimate: number, variance: number, z: number, occupied: number, m: number): Bounds {
  const half = z * Math.sqrt(Math.max(0, variance));
  return combine(estimate, estimate - half, estimate + half, z, occupied, m);
}
