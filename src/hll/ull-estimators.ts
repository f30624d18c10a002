/**
 * UltraLogLog estimators over the histogram of register states (see ultraloglog.ts for the states).
 *
 * The model (Ertl, "UltraLogLog: a practical and more space-efficient alternative to HyperLogLog
 * for approximate distinct counting", 2023/2024): under the Poisson approximation with λ = n/m,
 * register j sees independent Poisson events at each level k with rate λ·ρ_k, ρ_k = 2^−k for
 * k = 1..q and ρ_{q+1} = 2^−q (the longest run, q + 1 with q = 64 − p, takes the rest). A register
 * keeps the highest level u hit and whether levels u − 1 and u − 2 were hit. Every estimator here
 * reads only the histogram `counts[state]` (256 entries), so it costs O(q) after the O(m) histogram.
 *
 * - Maximum likelihood (RMSE ≈ 0.761/√m, the Cramér–Rao bound of this model) is the register
 *   model's, shared with ExaLogLog: mlTerms / mlEstimate / mlStdDev in registers.ts.
 * - {@link ullFgra}: the "further generalized remaining area" statistic S = Σ_j g(state_j) with
 *   g(u, a, b) = 2^{−τu}·w_{ab}. τ and the weights minimize the estimator's asymptotic variance,
 *   computed from the model's state probabilities (τ = 0.81949…, the value in Ertl's paper; the
 *   optimum is 0.7822/√m, the paper's 0.782). The estimate is the λ at which S equals its
 *   expectation. Levels below 1 do not exist in a register, which biases that equation at small n;
 *   as in Ertl's improved HyperLogLog estimator, each register whose state the missing levels would
 *   have changed (empty registers, u = 1, u = 2) contributes g's expectation given its state and λ
 *   over virtual levels 0, −1, −2, … that continue the geometric rates, and the expectation of S is
 *   taken over the same unbounded levels, so the equation holds at every n, not only asymptotically.
 *   Solved by bisection on log λ.
 */

import { rootLog } from "./registers.js";

/** FGRA exponent τ and weights w[2a + b] (w[0] = 1), from minimizing the asymptotic variance. */
const FGRA_TAU = 0.8194911359496925;
const FGRA_W = [1, 0.458457677002462, 0.5964108641512393, 0.21067547376165546];

/** The highest level of a register state (0 for empty). */
const levelOf = (state: number) => state >>> 2;

/** E[w(A, B)] for independent flags A ~ Bern(pa), B ~ Bern(pb). */
function meanWeight(pa: number, pb: number): number {
  return (1 - pa) * ((1 - pb) * FGRA_W[0]! + pb * FGRA_W[1]!) + pa * ((1 - pb) * FGRA_W[2]! + pb * FGRA_W[3]!);
}

/** P(level k hit) in the unbounded model: 1 − e^{−λ·2^−k}. */
const hit = (l: number, k: number) => -Math.expm1(-l * 2 ** -k);

/** E[g] of a register with unbounded levels (every integer level k at rate λ·2^−k). */
function expectedG(l: number): number {
  // The top level U has P(U = u) = e^{−λ2^−u}·(1 − e^{−λ2^−u}); terms vanish fast on both sides of log2 λ.
  const center = Math.floor(Math.log2(l));
  let sum = 0;
  // Above center + 48 a term is below 2^−(1+τ)·48 ≈ 10^−26 of the sum; below center − 7, e^−128.
  for (let u = center + 48; u >= center - 7; u--) {
    const t = l * 2 ** -u;
    const p = Math.exp(-t) * -Math.expm1(-t);
    if (p === 0) continue;
    sum += p * 2 ** (-FGRA_TAU * u) * meanWeight(hit(l, u - 1), hit(l, u - 2));
  }
  return sum;
}

/** E[g | the register is empty], over virtual levels ≤ 0. */
function expectedGEmpty(l: number): number {
  // P(U = u | U ≤ 0) = e^{−λ(2^−u − 1)}·(1 − e^{−λ2^−u}) for u ≤ 0.
  let sum = 0;
  for (let u = 0; u > -200; u--) {
    const t = l * 2 ** -u;
    const p = Math.exp(-(t - l)) * -Math.expm1(-t);
    if (p < 1e-300 && t > 1) break;
    sum += p * 2 ** (-FGRA_TAU * u) * meanWeight(hit(l, u - 1), hit(l, u - 2));
  }
  return sum;
}

/**
 * FGRA estimate of n from the state histogram (`counts[s]` registers in state s).
 * @returns the unrounded estimate; 0 for an empty sketch. O(256 + 100·q).
 */
export function ullFgra(counts: Float64Array, m: number): number {
  const empty = counts[0]!;
  if (empty === m) return 0;
  // Registers whose g does not depend on λ (u ≥ 3) contribute a constant.
  let fixed = 0;
  for (let s = 12; s < 256; s++)
    if (counts[s]! !== 0) fixed += counts[s]! * 2 ** (-FGRA_TAU * levelOf(s)) * FGRA_W[s & 3]!;
  const c100 = counts[4]!; // (1, 0, 0): levels 0 and −1 virtual
  const c200 = counts[8]!; // (2, 0, 0): level 0 virtual
  const c210 = counts[10]!; // (2, 1, 0): level 0 virtual
  const g1 = 2 ** -FGRA_TAU;
  const g2 = 2 ** (-2 * FGRA_TAU);
  // F(λ) = Σ_j E[g | state_j, λ] − m·E[g](λ): negative for small λ, positive for large; one root.
  const f = (l: number) => {
    const h0 = hit(l, 0);
    const h1 = hit(l, -1);
    let lhs = fixed;
    if (empty > 0) lhs += empty * expectedGEmpty(l);
    if (c100 > 0) lhs += c100 * g1 * meanWeight(h0, h1);
    if (c200 > 0) lhs += c200 * g2 * meanWeight(0, h0);
    if (c210 > 0) lhs += c210 * g2 * meanWeight(1, h0);
    return lhs - m * expectedG(l);
  };
  return m * rootLog(f);
}

/** E[g | state, λ]: g itself when the state has all three levels real, else over the virtual ones. */
function conditionalG(s: number, l: number): number {
  if (s === 0) return expectedGEmpty(l);
  const u = levelOf(s);
  if (u >= 3) return 2 ** (-FGRA_TAU * u) * FGRA_W[s & 3]!;
  if (u === 1) return 2 ** -FGRA_TAU * meanWeight(hit(l, 0), hit(l, -1));
  return 2 ** (-2 * FGRA_TAU) * meanWeight((s & 2) >> 1, hit(l, 0));
}

/**
 * Standard deviation of the FGRA estimate at true cardinality n (for `bounds()`), by the delta
 * method on its defining equation F(λ) = Σ_j E[g | state_j, λ] − m·E[g](λ) = 0 under the Poisson
 * model: Var(n̂) = m·Var(E[g | state]) / (dE[F]/dλ / m)², minus the Poisson part n of a fixed count.
 * O(q) plus a few series.
 */
export function fgraStdDev(n: number, m: number, q: number): number {
  if (!(n > 0)) return 0;
  const l = n / m;
  const eps = 1e-4;
  let e1 = 0;
  let e2 = 0;
  let dLow = 0;
  const lowStates = [0, 4, 8, 10];
  for (let s = 0; s < 256; s++) {
    const p = stateProbability(s, l, q);
    if (!(p > 0)) continue;
    const phi = conditionalG(s, l);
    e1 += p * phi;
    e2 += p * phi * phi;
    if (lowStates.includes(s)) {
      dLow += (p * (conditionalG(s, l * (1 + eps)) - conditionalG(s, l * (1 - eps)))) / (2 * eps * l);
    }
  }
  const dG = (expectedG(l * (1 + eps)) - expectedG(l * (1 - eps))) / (2 * eps * l);
  const slope = dLow - dG;
  const varP = (m * Math.max(0, e2 - e1 * e1)) / (slope * slope);
  return Math.sqrt(Math.max(0, varP - n));
}

/** P(a register is in state s) at λ, with the finite levels 1..q + 1 (0 for impossible states). */
function stateProbability(s: number, l: number, q: number): number {
  if (s === 0) return Math.exp(-l);
  const u = levelOf(s);
  const a = (s >> 1) & 1;
  const b = s & 1;
  if (u > q + 1 || (u < 2 && a) || (u < 3 && b)) return 0;
  const rho = (k: number) => (k <= q ? 2 ** -k : 2 ** -q);
  let p = Math.exp(-l * (u <= q ? 2 ** -u : 0)) * -Math.expm1(-l * rho(u));
  if (u >= 2) p *= a ? -Math.expm1(-l * rho(u - 1)) : Math.exp(-l * rho(u - 1));
  if (u >= 3) p *= b ? -Math.expm1(-l * rho(u - 2)) : Math.exp(-l * rho(u - 2));
  return p;
}
